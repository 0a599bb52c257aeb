#!/bin/sh
# A cache entry belongs to the host CPU it was compiled on.  The same
# program, options and device settings (LANECL_SIMD_BITS=256 here and under
# valgrind) on a CPU with other features -- valgrind's emulated one, which
# reports an older model with fewer features -- must compile anew, not run
# the entry's code; on the same CPU they hit the entry.
#   cache_host_cpu.sh BUILD_DIR VALGRIND
set -u
build=$1 valgrind=$2
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
export LANECL_CACHE_DIR="$dir/cache" LANECL_SIMD_BITS=256 LANECL_DEBUG=api,build
fail() { echo "FAIL: $*"; for f in "$dir"/*.log; do echo "== $f"; cat "$f"; done; exit 1; }
sig() { sed -n 's/.*host CPU signature \([0-9a-f]*\).*/\1/p' "$1" | head -1; }

"$build/bin/lanecl-sample" >"$dir/native.log" 2>&1 || fail "native run"
grep -q "cache: stored" "$dir/native.log" || fail "the native run stored no entry"
"$build/bin/lanecl-sample" >"$dir/again.log" 2>&1 || fail "second native run"
grep -q "cache: hit" "$dir/again.log" || fail "the same CPU missed its own entry"

"$valgrind" -q "$build/bin/lanecl-sample" >"$dir/valgrind.log" 2>&1 || fail "run under valgrind"
grep -q "^PASS" "$dir/valgrind.log" || fail "wrong result under valgrind"
s1=$(sig "$dir/native.log") s2=$(sig "$dir/valgrind.log")
[ -n "$s1" ] && [ -n "$s2" ] || fail "no host CPU signature in the log"
if [ "$s1" = "$s2" ]; then
  grep -q "cache: hit" "$dir/valgrind.log" || fail "same CPU signature ($s1) under valgrind, but no hit"
  echo "PASS: valgrind reports this CPU ($s1): the entry is used"
else
  grep -q "cache: hit" "$dir/valgrind.log" && fail "valgrind's CPU ($s2) ran the entry of this host's ($s1)"
  grep -q "cache: stored" "$dir/valgrind.log" || fail "valgrind's CPU compiled no entry of its own"
  echo "PASS: host CPU $s1, valgrind's $s2: separate entries"
fi
