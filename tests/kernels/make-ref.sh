#!/bin/sh
# Writes the reference output (.ref) of kernel cases from a reference
# implementation, PoCL (Debian's pocl-opencl-icd), run through
# lanecl-kernel-runner --print; with --oclgrind also from Oclgrind (Debian's
# oclgrind, an interpreter: minutes per case), and the two must agree.
#
#   tests/kernels/make-ref.sh [--check] [--oclgrind] BUILD_DIR CASE.sim...
#
# --check writes nothing: it says, per case, whether the reference agrees
# with the .ref that is there (lines after its '# reference:' header).
# Cases whose reference is a computation of their own (small_group_loops_*,
# spans_*, guard_split_nonuniform_*: the python scripts beside this one) are
# left to those scripts.
set -u
check=0 grind=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
if [ "${1:-}" = "--oclgrind" ]; then grind=1; shift; fi
[ $# -ge 2 ] || { echo "usage: $0 [--check] [--oclgrind] BUILD_DIR CASE.sim..." >&2; exit 2; }
build=$1; shift
runner=$build/bin/lanecl-kernel-runner
pocl=${POCL_ICD:-/etc/OpenCL/vendors/pocl.icd}
oclgrind_lib=${OCLGRIND_ICD:-/usr/lib/oclgrind/liboclgrind-rt-icd.so}
[ -x "$runner" ] || { echo "$runner: not built" >&2; exit 2; }
[ -e "$pocl" ] || { echo "no PoCL ICD ($pocl): apt-get install pocl-opencl-icd" >&2; exit 2; }
[ $grind = 0 ] || [ -e "$oclgrind_lib" ] || { echo "no Oclgrind ICD: apt-get install oclgrind" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
status=0
for sim in "$@"; do
  ref=${sim%.sim}.ref
  OCL_ICD_VENDORS=$pocl POCL_CACHE_DIR=$tmp/pocl-cache "$runner" --print --platform "Portable Computing Language" "$sim" \
    > "$tmp/pocl" 2> "$tmp/pocl.err" || { echo "ERROR $sim: PoCL: $(head -c 300 "$tmp/pocl.err")"; status=1; continue; }
  how="PoCL"
  if [ $grind = 1 ]; then
    OCL_ICD_VENDORS=$oclgrind_lib "$runner" --print --platform Oclgrind "$sim" \
      > "$tmp/grind" 2> "$tmp/grind.err" || { echo "ERROR $sim: Oclgrind: $(head -c 300 "$tmp/grind.err")"; status=1; continue; }
    if ! cmp -s "$tmp/pocl" "$tmp/grind"; then
      echo "DISAGREE $sim: PoCL and Oclgrind differ"; status=1; continue
    fi
    how="PoCL and Oclgrind agree"
  fi
  if [ $check = 1 ]; then
    if [ -e "$ref" ] && sed '/^#/d' "$ref" | cmp -s - "$tmp/pocl"; then echo "SAME $sim"; else echo "DIFFERENT $sim"; status=1; fi
  else
    { echo "# reference: $how (tests/kernels/make-ref.sh)"; cat "$tmp/pocl"; } > "$ref"
    echo "WROTE $ref"
  fi
done
exit $status
