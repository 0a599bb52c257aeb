#!/bin/sh
# Thread scaling of mandelbrot and nbody on LaneCL, from program binaries.
#
#   bench/scaling.sh prepare [BUILD_DIR]
#       Here (LLVM needed): builds the kernels' program binaries with
#       lanecl-scaling --save-binary (the build machine's CPU), and with
#       lanecl-cc for sapphirerapids / 512-bit SIMD and for x86-64-v3 /
#       256-bit SIMD (fallbacks for a CPU that the first can't run on: the
#       first where the CPU has AVX-512), and stages in BUILD_DIR/remote/ what
#       a bare machine needs: liblanecl.so (no LLVM), Debian's ICD loader,
#       libhwloc, libudev, lanecl-scaling, lanecl-wgdirect and the binaries.
#       BUILD_DIR: build-scaling.
#
#   bench/scaling.sh run DIR OUTDIR [REPS] [THREADS...]
#       Anywhere (no LLVM): lscpu, then for each thread count
#       LANECL_NUM_THREADS=t lanecl-scaling --reps REPS, then the scan's
#       work-group function alone on one core (lanecl-wgdirect, WGDIRECT
#       lines), and writes OUTDIR/machine.txt, OUTDIR/raw.txt and
#       OUTDIR/table.md.
#       REPS: 7; THREADS: 1 2 4 8 12 16.  SCALING_ARGS: more lanecl-scaling
#       options for the timed runs (e.g. "--nbody-local 32").  SCALING_KIND=
#       avx512 or x86-64-v3: those binaries (rekeyed) even where the build
#       machine's run, e.g. on an Intel part when the build machine is Zen 4.
set -eu

prepare() {
  build=$(cd "${1:-build-scaling}" && pwd)
  r=$build/remote
  rm -rf "$r"
  mkdir -p "$r/lib"
  s=$build/bin/lanecl-scaling
  cc=$build/bin/lanecl-cc
  cp "$s" "$build/bin/lanecl-wgdirect" "$r/"
  cp "$build/liblanecl.so" "$r/lib/"
  for lib in libOpenCL.so.1 libhwloc.so.15 libudev.so.1; do
    cp -L "$(ldconfig -p | awk -v l="$lib" '$1 == l && /x86-64/ {print $NF; exit}')" "$r/lib/$lib"
  done
  echo liblanecl.so > "$r/lanecl.icd"   # found through LD_LIBRARY_PATH=$r/lib
  if ldd "$r/lib/liblanecl.so" | grep -q LLVM; then
    echo "liblanecl.so needs LLVM" >&2
    exit 1
  fi
  vendors=$(mktemp -d)
  echo "$build/liblanecl.so" > "$vendors/lanecl.icd"
  for k in mandel nbody scan; do
    "$s" --print-source $k > "$r/$k.cl"
    OCL_ICD_VENDORS=$vendors/lanecl.icd "$s" --save-binary "$r/$k.cl" "$r/$k.bin"
    "$cc" --cpu x86-64-v3 --features "" --simd-bits 256 -cl-std=CL3.0 "$r/$k.cl" -o "$r/$k-x86-64-v3.bin"
    "$cc" --cpu sapphirerapids --features "" --simd-bits 512 -cl-std=CL3.0 "$r/$k.cl" -o "$r/$k-avx512.bin"
  done
  rm -rf "$vendors"
  du -sh "$r"
}

# The device key that this machine's LaneCL expects, from its error message.
device_key() {
  LANECL_DEBUG=err "$dir/lanecl-scaling" --reps 1 --mandel "$dir/mandel-x86-64-v3.bin" 2>&1 |
    sed -n 's/.*this device \([0-9a-f]*\).*/\1/p' | head -n 1
}

run() {
  dir=$(cd "$1" && pwd)
  out=$2
  reps=${3:-7}
  [ $# -ge 3 ] && shift 3 || shift $#
  threads=${*:-1 2 4 8 12 16}
  mkdir -p "$out"
  export LD_LIBRARY_PATH="$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export OCL_ICD_VENDORS="$dir/lanecl.icd"
  {
    echo "## uname -a"; uname -a
    echo "## nproc"; nproc
    echo "## lscpu"; lscpu
    echo "## ldd liblanecl.so"; ldd "$dir/lib/liblanecl.so"
    echo "## ldd lanecl-scaling"; ldd "$dir/lanecl-scaling"
  } > "$out/machine.txt" 2>&1

  # The build machine's binaries, else the x86-64-v3 ones with this device's key.
  mandel=$dir/mandel.bin
  nbody=$dir/nbody.bin
  scan=$dir/scan.bin
  # SCALING_KIND=avx512 or x86-64-v3: those binaries even where the build
  # machine's run (code tuned for another CPU, e.g. znver4's on an Intel part).
  if [ -n "${SCALING_KIND:-}" ] ||
    ! "$dir/lanecl-scaling" --reps 1 --mandel "$mandel" --nbody "$nbody" --scan "$scan" > "$out/smoke.txt" 2>&1; then
    key=$(device_key)
    kind=x86-64-v3
    grep -q avx512f /proc/cpuinfo && kind=avx512
    kind=${SCALING_KIND:-$kind}
    echo "the build machine's binaries don't run here (see smoke.txt) or SCALING_KIND is set; $kind binaries, device key $key" |
      tee -a "$out/machine.txt"
    for k in mandel nbody scan; do
      "$dir/lanecl-scaling" --rekey "$dir/$k-$kind.bin" "$out/$k-rekeyed.bin" "$key"
    done
    mandel=$out/mandel-rekeyed.bin
    nbody=$out/nbody-rekeyed.bin
    scan=$out/scan-rekeyed.bin
  fi
  echo "binaries: $mandel $nbody $scan" >> "$out/machine.txt"

  : > "$out/raw.txt"
  for t in $threads; do
    extra=
    [ "$t" = 1 ] && extra=--c-baseline
    LANECL_NUM_THREADS=$t "$dir/lanecl-scaling" --reps "$reps" $extra ${SCALING_ARGS:-} --mandel "$mandel" --nbody "$nbody" \
      --scan "$scan" |
      tee -a "$out/raw.txt"
  done
  # For comparison: every core, and the largest count unpinned.
  "$dir/lanecl-scaling" --reps "$reps" ${SCALING_ARGS:-} --mandel "$mandel" --nbody "$nbody" --scan "$scan" |
    sed 's/^RESULT /RESULT-DEFAULT /' |
    tee -a "$out/raw.txt"
  last=$(echo $threads | awk '{print $NF}')
  LANECL_AFFINITY=0 LANECL_NUM_THREADS=$last "$dir/lanecl-scaling" --reps "$reps" ${SCALING_ARGS:-} --mandel "$mandel" \
    --nbody "$nbody" --scan "$scan" | sed 's/^RESULT /RESULT-UNPINNED /' | tee -a "$out/raw.txt"

  # The scan kernel alone, one core, 64K ints (cache-resident).
  if [ -x "$dir/lanecl-wgdirect" ]; then
    taskset -c 0 "$dir/lanecl-wgdirect" "$scan" scan 16 64 256 1024 | sed 's/^local=/WGDIRECT local=/' |
      tee -a "$out/raw.txt"
  fi

  awk '
    function val(k,   i, a) { for (i = 2; i <= NF; i++) { split($i, a, "="); if (a[1] == k) return a[2] } return "" }
    $1 == "RESULT" {
      k = val("kernel"); t = val("threads"); m = val("median_ms")
      if (t == 1) base[k] = m
      if (!(k in first)) first[k] = m
      n[k]++; T[k, n[k]] = t; M[k, n[k]] = m; V[k, n[k]] = val("verify")
      if (val("c_1thread_ms") != "") C[k] = val("c_1thread_ms")
    }
    END {
      for (k in n) {
        if (!(k in base)) base[k] = first[k]   # no 1-thread row: relative to the first
        printf "\n### %s\n\n| threads | median ms | speedup vs 1 | efficiency | check |\n|---:|---:|---:|---:|---|\n", k
        for (i = 1; i <= n[k]; i++)
          printf "| %s | %.4g | %.2f | %.0f%% | %s |\n", T[k, i], M[k, i], base[k] / M[k, i],
                 100 * base[k] / M[k, i] / T[k, i], V[k, i]
        if (k in C) printf "\nscalar C, one thread (gcc -O2, no -march): %.1f ms\n", C[k]
      }
    }' "$out/raw.txt" > "$out/table.md"
  cat "$out/table.md"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
  prepare) prepare "$@" ;;
  run) run "$@" ;;
  *) sed -n '2,19p' "$0" >&2; exit 2 ;;
esac
