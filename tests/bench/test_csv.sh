#!/bin/sh
# lanecl-bench --csv: every row has the table's 7 fields and the benchmark's
# whole name, also names that hold commas ("(images, sampler argument)"),
# which an unquoted CSV split in two.
# usage: test_csv.sh BUILD_DIR
set -u
B=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir "$T/vendors"
ln -s "$B/lanecl.icd" "$T/vendors/lanecl.icd"
if ! OCL_ICD_VENDORS="$T/vendors" "$B/bin/lanecl-bench" --only LaneCL --reps 1 --size-scale 0.05 \
    --filter "sampler argument" --csv "$T/out.csv" >"$T/log" 2>&1; then
  echo "FAIL: lanecl-bench exited with an error:"
  cat "$T/log"
  exit 1
fi
python3 - "$T/out.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head, body = rows[0], rows[1:]
bad = [r for r in rows if len(r) != len(head)]
names = [r[0] for r in body]
want = ["image conv 5x5 RGBA float 2048^2 (images, sampler argument)",
        "image bilinear resize RGBA8 1024^2->1536^2 (images, sampler argument)"]
if len(head) != 7 or bad or names != want:
    print("FAIL: header %r, rows of another length %r, names %r" % (head, bad, names))
    sys.exit(1)
print("ok: %d rows, names whole" % len(body))
PY
