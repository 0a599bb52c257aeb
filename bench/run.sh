#!/bin/sh
# Runs the benchmark suite: LaneCL (from the build tree) and PoCL (Debian's
# pocl-opencl-icd) in one process, interleaved, and writes
#   bench/results/<date>.md   the table (medians)
#   bench/results/<date>.csv  the same numbers
#   bench/results/<date>.png  the chart (needs python3-matplotlib)
# usage: bench/run.sh [BUILD_DIR] [lanecl-bench args...]
set -eu
cd "$(dirname "$0")/.."
BUILD_DIR=${1:-build}
[ $# -gt 0 ] && shift
VENDORS=$(mktemp -d)
trap 'rm -rf "$VENDORS"' EXIT
echo "$PWD/$BUILD_DIR/liblanecl.so" > "$VENDORS/lanecl.icd"
[ -f /etc/OpenCL/vendors/pocl.icd ] && cp /etc/OpenCL/vendors/pocl.icd "$VENDORS/"
mkdir -p bench/results
stamp=$(date +%Y%m%d-%H%M%S)
out=bench/results/$stamp
{
  echo "# LaneCL vs PoCL, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
  echo
  echo "Medians of interleaved repetitions. 'PoCL/LaneCL time' > 1 means LaneCL is faster;"
  echo "'LaneCL/native' is the native C baseline's time over LaneCL's (1.0 = as fast as native)."
  echo
  OCL_ICD_VENDORS="$VENDORS" LANECL_CACHE_DIR="${LANECL_CACHE_DIR:-$PWD/$BUILD_DIR/bench-cache}" \
    "$BUILD_DIR/bin/lanecl-bench" --csv "$out.csv" "$@"
} | tee "$out.md"
PY=python3; [ -x /usr/bin/python3 ] && PY=/usr/bin/python3  # Debian's python3-matplotlib
$PY bench/plot.py "$out.csv" "$out.png" || echo "(no chart: install python3-matplotlib)"
