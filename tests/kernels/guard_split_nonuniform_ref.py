#!/usr/bin/env python3
"""Expected outputs of the guard_split_nonuniform_* cases: kernels of
tests/kernels/cases/guard_split.cl on NDRanges whose last work-group is
smaller (OpenCL 2.0+ non-uniform groups; PoCL, the usual reference, refuses
them).  The kernels in plain Python; writes the .ref files:
  python3 tests/kernels/guard_split_nonuniform_ref.py"""
import os

CASES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")


def lt(n, size):  # if (i < n) W(3 * i + 1)
    return [3 * i + 1 if i < n else -9 for i in range(size)]


def halo(w, size):  # if (x > 0 && x < w - 1) W(10 * x) else W(-x)
    return [10 * x if 0 < x < w - 1 else -x for x in range(size)]


def guard_2d(w, h, gx, gy):  # if (x < w && y < h) out[y * gx + x] = x + 1000 * y
    out = [-9] * (gx * gy)
    for y in range(gy):
        for x in range(gx):
            if x < w and y < h:
                out[y * gx + x] = x + 1000 * y
    return out


def band(lo, hi, size):  # if (x >= lo && x < hi) W(x + 1)
    return [x + 1 if lo <= x < hi else -9 for x in range(size)]


def local_guard(m, local, size):  # if (lid < m) W(lid + 10 * group)
    return [i % local + 10 * (i // local) if i % local < m else -9 for i in range(size)]


def write(name, values):
    lines = ["arg 0:"]
    lines += [" ".join(str(v) for v in values[i:i + 8]) for i in range(0, len(values), 8)]
    with open(os.path.join(CASES, "guard_split_nonuniform_" + name + ".ref"), "w") as f:
        f.write("# reference: tests/kernels/guard_split_nonuniform_ref.py (the kernel in Python)\n")
        f.write("\n".join(lines) + "\n")


write("lt", lt(98, 100))
write("halo", halo(88, 90))
write("guard_2d", guard_2d(25, 6, 27, 7))
write("band", band(20, 99, 100))
write("local_guard", local_guard(40, 64, 100))
