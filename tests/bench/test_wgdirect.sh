#!/bin/sh
# lanecl-wgdirect: a real run is checked against C (verify=ok), a wrong
# kernel is caught (verify=WRONG, exit 1), and bad input gets a usage or
# error message with exit 2 (arguments) or 1 (files), never a crash.
# usage: test_wgdirect.sh BUILD_DIR
set -u
B=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
W=$B/bin/lanecl-wgdirect
fails=0

# expect STATUS PATTERN CMD...: CMD exits with STATUS and its output holds PATTERN
expect() {
  want=$1 pat=$2
  shift 2
  "$@" >"$T/out" 2>&1
  got=$?
  if [ "$got" != "$want" ] || ! grep -q -- "$pat" "$T/out"; then
    echo "FAIL: $* -> exit $got (want $want), output:"
    cat "$T/out"
    echo "(wanted: $pat)"
    fails=$((fails + 1))
  else
    echo "ok: $* -> $want"
  fi
}

cat >"$T/scan.cl" <<'CL'
__kernel void scan(__global const int *in, __global int *out) {
  size_t i = get_global_id(0);
  out[i] = work_group_scan_inclusive_add(in[i]);
}
__kernel void red(__global const int *in, __global int *out) {
  size_t i = get_global_id(0);
  out[i] = work_group_reduce_add(in[i]);
}
__kernel void bc(__global const int *in, __global int *out) {
  size_t i = get_global_id(0);
  out[i] = work_group_broadcast(in[i], 3);
}
__kernel void wrong(__global const int *in, __global int *out) {
  size_t i = get_global_id(0);
  out[i] = work_group_scan_exclusive_add(in[i]);
}
CL
LANECL_CACHE_DIR=off "$B/bin/lanecl-cc" -cl-std=CL2.0 -o "$T/s.bin" "$T/scan.cl" || { echo "FAIL: lanecl-cc"; exit 1; }
# The scan in chunks of 8 lanes (znver4) and of 16 (skylake-avx512), whatever the host.
for cpu in znver4 skylake-avx512; do
  LANECL_CACHE_DIR=off "$B/bin/lanecl-cc" --cpu $cpu -cl-std=CL2.0 -o "$T/s-$cpu.bin" "$T/scan.cl" ||
    { echo "FAIL: lanecl-cc --cpu $cpu"; exit 1; }
done
head -c 3000 /dev/urandom >"$T/garbage.bin"
head -c 200 "$T/s.bin" >"$T/truncated.bin"

expect 0 "local=64 .*verify=ok" "$W" --items 4096 --sweeps 3 "$T/s.bin" scan 64
expect 0 "local=1 .*verify=ok" "$W" --items 4096 --sweeps 3 --span 100 "$T/s.bin" scan 1 4096
# Packed small groups: calls of 100 items (a span of 100 / L groups, not a
# multiple of 16 / L: whole chunks, then the rest one group at a time).
for L in 1 2 4 8 16; do
  expect 0 "local=$L .*verify=ok" "$W" --items 4800 --sweeps 2 --span 100 "$T/s.bin" scan $L
  expect 0 "local=$L .*verify=ok" "$W" --items 4800 --sweeps 2 --span 100 --check reduce "$T/s.bin" red $L
done
# Larger groups of a fused scan, one group after the other in a call (3 of
# 32, 1 of 64 per call; 6 of 1024 per call: the whole span).
for L in 32 64; do
  expect 0 "local=$L .*verify=ok" "$W" --items 6144 --sweeps 2 --span 100 "$T/s.bin" scan $L
done
expect 0 "local=1024 .*verify=ok" "$W" --items 6144 --sweeps 2 --span 6144 "$T/s.bin" scan 1024
# Sizes a multiple of 8 but not 16, and of neither (the unspanned path, a tail chunk).
for cpu in znver4 skylake-avx512; do
  for L in 32 40 36 96; do
    expect 0 "local=$L .*verify=ok" "$W" --items 5760 --sweeps 2 --span 200 "$T/s-$cpu.bin" scan $L
  done
done
# ... and of a reduce and a broadcast (region 0, the combine, region 1 per group).
for L in 32 64 96; do
  expect 0 "local=$L .*verify=ok" "$W" --items 6144 --sweeps 2 --span 200 --check reduce "$T/s.bin" red $L
  expect 0 "local=$L .*verify=ok" "$W" --items 6144 --sweeps 2 --span 200 --check bcast3 "$T/s.bin" bc $L
done
expect 0 "local=1024 .*verify=ok" "$W" --items 6144 --sweeps 2 --span 6144 --check reduce "$T/s.bin" red 1024
for L in 4 8 16; do
  expect 0 "local=$L .*verify=ok" "$W" --items 4800 --sweeps 2 --span 100 --check bcast3 "$T/s.bin" bc $L
done
expect 1 "verify=WRONG" "$W" --items 4096 --sweeps 3 "$T/s.bin" wrong 256
expect 2 "usage:" "$W"
expect 2 "usage:" "$W" "$T/s.bin" scan
expect 2 "usage:" "$W" --check nonsense "$T/s.bin" scan 64
expect 2 "usage:" "$W" --items abc "$T/s.bin" scan 64
expect 2 "usage:" "$W" --items -5 "$T/s.bin" scan 64
expect 2 "usage:" "$W" --sweeps 0 "$T/s.bin" scan 64
expect 2 "usage:" "$W" --bogus 1 "$T/s.bin" scan 64
expect 2 "local size 0" "$W" --items 4096 "$T/s.bin" scan 0
expect 2 "local size 100" "$W" --items 4096 "$T/s.bin" scan 100
expect 2 "local size 8192" "$W" --items 8192 "$T/s.bin" scan 8192
expect 2 "local size 2" "$W" --items 4096 --check bcast3 "$T/s.bin" scan 2
expect 1 "not an executable" "$W" "$T/missing.bin" scan 64
expect 1 "not an executable" "$W" "$T/garbage.bin" scan 64
expect 1 "not an executable" "$W" "$T/truncated.bin" scan 64
expect 1 "not an executable" "$W" "$T/scan.cl" scan 64
expect 1 "no work-group function __lanecl_wg_nosuch" "$W" --items 4096 "$T/s.bin" nosuch 64

[ "$fails" = 0 ] || { echo "$fails failed"; exit 1; }
