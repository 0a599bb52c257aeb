#!/bin/sh
# Writes a fixed corpus for tests/difftest:
#
#   make-corpus.sh BUILD_DIR CORPUS_DIR SIZE SEED...
#
# For each seed: CORPUS_DIR/pSEED.cl (the program of that seed and size) and
# CORPUS_DIR/pSEED.ref, its results on Oclgrind (work-group functions
# emulated, data races checked).  A program is kept only when PoCL gives the
# same results and Oclgrind reports nothing.  OCLGRIND_ICD and POCL_ICD as
# for fuzz.sh.
set -u
build=$(cd "$1" && pwd); dir=$2; size=$3; shift 3
tool=$build/bin/lanecl-difftest
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "${OCLGRIND_ICD:-}" ]; then
  OCLGRIND_ICD=$tmp/oclgrind.icd
  for lib in /usr/lib/oclgrind/liboclgrind-rt-icd.so /usr/lib/x86_64-linux-gnu/liboclgrind-rt-icd.so; do
    [ -e "$lib" ] && echo "$lib" > "$OCLGRIND_ICD" && break
  done
  [ -s "$OCLGRIND_ICD" ] || { echo "Oclgrind's ICD library not found (apt-get install oclgrind)" >&2; exit 2; }
fi
POCL_ICD=${POCL_ICD:-/etc/OpenCL/vendors/pocl.icd}
mkdir -p "$dir" "$tmp/src" "$tmp/ref" "$tmp/pocl"
for seed in "$@"; do
  "$tool" gen "$seed" "$size" > "$tmp/src/p$seed.cl"
done
OCL_ICD_VENDORS=$OCLGRIND_ICD OCLGRIND_DATA_RACES=1 "$tool" run --emulate-wg --no-switch -o "$tmp/ref" "$tmp"/src/*.cl \
  >/dev/null 2>"$tmp/ref.log"
OCL_ICD_VENDORS=$POCL_ICD "$tool" run --emulate-wg --no-switch -o "$tmp/pocl" "$tmp"/src/*.cl >/dev/null 2>"$tmp/pocl.log"
if grep -q -i -e "race" -e "invalid" -e "divergence" -e "oclgrind" "$tmp/ref.log"; then
  echo "Oclgrind reported (no program kept):" >&2
  cat "$tmp/ref.log" >&2
  exit 1
fi
for seed in "$@"; do
  p=p$seed
  if [ ! -s "$tmp/ref/$p.out" ] || grep -q error "$tmp/ref/$p.out"; then
    echo "$p: no reference result, skipped" >&2
  elif ! cmp -s "$tmp/ref/$p.out" "$tmp/pocl/$p.out"; then
    echo "$p: PoCL and Oclgrind differ, skipped" >&2
  else
    cp "$tmp/src/$p.cl" "$dir/$p.cl"
    cp "$tmp/ref/$p.out" "$dir/$p.ref"
  fi
done
