#!/usr/bin/env python3
"""Expected outputs of tests/kernels/cases/small_group_loops.cl: the same
code in plain Python.  Writes the .ref files next to the .sim files:
  python3 tests/kernels/small_group_loops_ref.py"""
import os

CASES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")
GLOBAL, TIMES = 64, 3
src = list(range(1, 257))  # arg buffer int 256 seq 1 1


def sg_lid(local):
    dst = [0] * GLOBAL
    for gid in range(GLOBAL):
        lid = gid % local
        dst[gid] = 1
        for a in range(TIMES):
            if lid == 0:
                dst[gid] = 0
            for b in range(lid):
                dst[gid] += src[b + a]
    return dst


def sg_while(local):
    dst = [0] * GLOBAL
    for gid in range(GLOBAL):
        dst[gid] = gid
        for a in range(TIMES):
            for b in range(gid % 13):
                dst[gid] += src[(b * 7 + a) & 63]
    return dst


def sg_nested(local):
    dst = [0] * GLOBAL
    for gid in range(GLOBAL):
        for a in range(TIMES):
            for b in range(gid % 5):
                for c in range(b + gid % 3 + 1):
                    dst[gid] += src[c + b] * (a + 1)
    return dst


def sg_overlap(n, k, size):
    a = [0] * size
    for j in range(n):
        a[j + k] = a[j] + 1
    return a


def write(name, arg, values):
    lines = ["arg %d:" % arg]
    lines += [" ".join(str(v) for v in values[i:i + 8]) for i in range(0, len(values), 8)]
    with open(os.path.join(CASES, name + ".ref"), "w") as f:
        f.write("# reference: tests/kernels/small_group_loops_ref.py (the kernel in Python)\n")
        f.write("\n".join(lines) + "\n")


for kern in ("lid", "while", "nested"):
    fn = globals()["sg_" + kern]
    for local in (1, 2, 4, 8):
        write("small_group_loops_%s_l%d" % (kern, local), 1, fn(local))
for k in (1, 3):
    write("small_group_loops_overlap_k%d" % k, 0, sg_overlap(64, k, 80))
