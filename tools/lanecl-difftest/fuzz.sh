#!/bin/sh
# Differential testing of LaneCL against Oclgrind (and PoCL for a second
# opinion on each mismatch):
#
#   fuzz.sh BUILD_DIR WORK_DIR FIRST_SEED COUNT [SIZE [BATCH]]
#
# Generates the programs of seeds FIRST_SEED.. in batches of BATCH (default
# 40), runs each batch on Oclgrind (the reference, work-group functions
# emulated) and on LaneCL (default options, -cl-opt-disable, and with the
# work-group functions emulated), and appends every difference to
# WORK_DIR/mismatches.txt: "SEED RUN [(const-stride-ok)]" where RUN is
# lanecl, lanecl-O0 or lanecl-emu (a crash of the driver on a program shows
# as a mismatch too: its .out says "crash"); const-stride-ok: the results
# match when the outputs are stored at a constant stride
# (-DDIFFTEST_CONST_OSTRIDE); no-restrict-ok: they match without restrict
# (-DDIFFTEST_NO_RESTRICT).  Each
# mismatch is then run on PoCL; WORK_DIR/pocl/SEED.out says whether PoCL
# agrees with Oclgrind.
#
# Environment: OCLGRIND_ICD (default: an .icd file naming Oclgrind's ICD
# library, written into WORK_DIR), POCL_ICD (default
# /etc/OpenCL/vendors/pocl.icd), TIMEOUT per batch and implementation
# (default 300 s), NO_POCL=1 skips PoCL.
set -u
build=$(cd "$1" && pwd); work=$2; first=$3; count=$4; size=${5:-24}; batch=${6:-40}
tool=$build/bin/lanecl-difftest
mkdir -p "$work"
work=$(cd "$work" && pwd)
if [ -z "${OCLGRIND_ICD:-}" ]; then
  OCLGRIND_ICD=$work/oclgrind.icd
  for lib in /usr/lib/oclgrind/liboclgrind-rt-icd.so /usr/lib/x86_64-linux-gnu/liboclgrind-rt-icd.so; do
    [ -e "$lib" ] && echo "$lib" > "$OCLGRIND_ICD" && break
  done
  [ -s "$OCLGRIND_ICD" ] || { echo "Oclgrind's ICD library not found (apt-get install oclgrind)" >&2; exit 2; }
fi
POCL_ICD=${POCL_ICD:-/etc/OpenCL/vendors/pocl.icd}
TIMEOUT=${TIMEOUT:-300}
# Oclgrind also checks the programs: data races (and out-of-bounds accesses,
# always) are reported in WORK_DIR/batch-*/ref.log: a generator bug.
export OCLGRIND_DATA_RACES=1
touch "$work/mismatches.txt"

# run_all NAME ICD FLAGS...: runs the batch's programs into $b/NAME, going
# on after a crash or a hang with the programs that follow.
run_all() {
  name=$1; icd=$2; shift 2
  mkdir -p "$b/$name"
  todo=$(ls "$b"/src/*.cl)
  while [ -n "$todo" ]; do
    OCL_ICD_VENDORS=$icd timeout "$TIMEOUT" "$tool" run "$@" -o "$b/$name" $todo \
      >/dev/null 2>>"$b/$name.log"
    rest=
    crashed=
    for f in $todo; do
      prog=$(basename "$f" .cl)
      if [ -n "$crashed" ]; then
        rest="$rest $f"
      elif [ ! -e "$b/$name/$prog.out" ]; then
        echo "crash" > "$b/$name/$prog.out"
        crashed=$prog
      fi
    done
    todo=$rest
  done
}

s=$first
end=$((first + count))
while [ "$s" -lt "$end" ]; do
  n=$batch
  [ $((s + n)) -gt "$end" ] && n=$((end - s))
  b=$work/batch-$s
  rm -rf "$b"
  mkdir -p "$b/src"
  "$tool" gen-dir "$b/src" "$s" "$n" "$size"
  run_all ref "$OCLGRIND_ICD" --emulate-wg --no-switch
  run_all lanecl "$build/lanecl.icd"
  run_all lanecl-O0 "$build/lanecl.icd" --options -cl-opt-disable
  run_all lanecl-emu "$build/lanecl.icd" --emulate-wg
  for f in "$b"/ref/*.out; do
    p=$(basename "$f" .out)
    if grep -q -e error -e crash "$f"; then
      echo "$p reference-failed" >> "$work/skipped.txt"
      continue
    fi
    for run in lanecl lanecl-O0 lanecl-emu; do
      if ! cmp -s "$f" "$b/$run/$p.out"; then
        # does it go away with the outputs at a constant stride?
        case $run in
          lanecl) flags= ;;
          lanecl-O0) flags=-cl-opt-disable ;;
          *) flags=--emulate-wg ;;
        esac
        opts="-DDIFFTEST_CONST_OSTRIDE"
        [ "$flags" = -cl-opt-disable ] && opts="$opts -cl-opt-disable"
        emu=
        [ "$flags" = --emulate-wg ] && emu=--emulate-wg
        mkdir -p "$b/$run-cs"
        OCL_ICD_VENDORS=$build/lanecl.icd timeout "$TIMEOUT" "$tool" run $emu --options "$opts" \
          -o "$b/$run-cs" "$b/src/$p.cl" >/dev/null 2>&1
        mkdir -p "$b/$run-nr"
        OCL_ICD_VENDORS=$build/lanecl.icd timeout "$TIMEOUT" "$tool" run $emu \
          --options "-DDIFFTEST_NO_RESTRICT${flags:+ }$(echo "$flags" | grep -v emulate)" \
          -o "$b/$run-nr" "$b/src/$p.cl" >/dev/null 2>&1
        tag=
        cmp -s "$f" "$b/$run-cs/$p.out" && tag=" (const-stride-ok)"
        cmp -s "$f" "$b/$run-nr/$p.out" && tag="$tag (no-restrict-ok)"
        echo "${p#p} $run$tag" >> "$work/mismatches.txt"
        mkdir -p "$work/cases"
        cp "$b/src/$p.cl" "$work/cases/"
        if [ -z "${NO_POCL:-}" ] && [ ! -e "$work/pocl/$p.out" ]; then
          mkdir -p "$work/pocl"
          OCL_ICD_VENDORS=$POCL_ICD timeout "$TIMEOUT" "$tool" run --emulate-wg --no-switch -o "$work/pocl" "$b/src/$p.cl" >/dev/null 2>&1
          if cmp -s "$f" "$work/pocl/$p.out"; then
            echo "${p#p} pocl-agrees" >> "$work/mismatches.txt"
          else
            echo "${p#p} pocl-differs" >> "$work/mismatches.txt"
          fi
        fi
      fi
    done
  done
  if grep -q -i -e "data race" -e "invalid" "$b/ref.log" 2>/dev/null; then
    echo "batch-$s: Oclgrind reports a race or an invalid access (ref.log)" >&2
  fi
  echo "seeds $s..$((s + n - 1)) done: $(wc -l < "$work/mismatches.txt") mismatch lines" >&2
  s=$((s + n))
done
