#!/usr/bin/env python3
"""Bar chart of a lanecl-bench CSV: PoCL/LaneCL time ratio per benchmark (log scale)."""
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

rows = list(csv.DictReader(open(sys.argv[1])))
names, speedup, native = [], [], []
for r in rows:
    s = float(r["lanecl_over_pocl_speedup"])
    f = float(r["lanecl_fraction_of_native"])
    names.append(r["benchmark"])
    speedup.append(s if math.isfinite(s) else 0.0)
    native.append(f if math.isfinite(f) else 0.0)
fig, ax = plt.subplots(1, 2, figsize=(14, 0.35 * len(names) + 1.5), sharey=True)
y = range(len(names))
ax[0].barh(y, speedup, color="tab:blue")
ax[0].axvline(1.0, color="k", lw=0.8)
ax[0].set_xscale("log")
ax[0].set_title("PoCL time / LaneCL time (>1: LaneCL faster)")
ax[0].set_yticks(list(y))
ax[0].set_yticklabels(names, fontsize=8)
ax[0].invert_yaxis()
ax[1].barh(y, native, color="tab:green")
ax[1].axvline(1.0, color="k", lw=0.8)
ax[1].set_title("native C time / LaneCL time")
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
print("chart:", sys.argv[2])
