#!/usr/bin/env python3
"""Writes tests/kernels/cases/spans_*.sim and .ref: the kernels of spans.cl
over large NDRanges of tiny work-groups (uniform and not, with offsets, in
1, 2 and 3 dimensions).  The expected output is computed here from the
OpenCL rules, independently of LaneCL.

    python3 tests/kernels/spans_ref.py     (from anywhere)
"""
import os

CASES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")
BLELLOCH_VALUES = [3, 1, -7, 0, 4, 1, -6, 3, 5, 9, 2, -8, 11]


def i32(v):
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


def pad3(t, fill):
    return list(t) + [fill] * (3 - len(t))


def items(G, L):
    """(linear id, global position without offset, group id, local id,
    actual local size) of every work-item, linear id order."""
    out = []
    for z in range(G[2]):
        for y in range(G[1]):
            for x in range(G[0]):
                p = (x, y, z)
                grp = tuple(p[d] // L[d] for d in range(3))
                lid = tuple(p[d] % L[d] for d in range(3))
                ls = tuple(min(L[d], G[d] - grp[d] * L[d]) for d in range(3))
                out.append(((z * G[1] + y) * G[0] + x, p, grp, lid, ls))
    return out


def groups(G, L):
    """Work-items by group, each list in local linear id order."""
    by = {}
    for it in items(G, L):
        by.setdefault(it[2], []).append(it)
    for g in by.values():
        g.sort(key=lambda it: (it[3][2] * it[4][1] + it[3][1]) * it[4][0] + it[3][0])
    return by


def fmt(index, values):
    lines = ["arg %d:" % index]
    for k in range(0, len(values), 8):
        lines.append(" ".join(str(v) for v in values[k:k + 8]))
    return lines


def span_ids(G, L, O, dims):
    n = G[0] * G[1] * G[2]
    ng = [(G[d] + L[d] - 1) // L[d] for d in range(3)]
    gid, dd, hits = [0] * n, [[0] * n for _ in range(3)], [0] * n
    for i, p, grp, lid, ls in items(G, L):
        g = [p[d] + O[d] for d in range(3)]
        gid[i] = g[0] * 10000000000 + g[1] * 100000 + g[2]
        for d in range(3):
            dd[d][i] = grp[d] * 10000 + lid[d] * 1000 + ls[d] * 100 + L[d] * 10 + ng[d] % 10
        hits[i] += 1
    return gid, dd, hits


def ref_span_ids(G, L, O, dims):
    gid, dd, hits = span_ids(G, L, O, dims)
    return fmt(0, gid) + fmt(1, dd[0]) + fmt(2, dd[1]) + fmt(3, dd[2]) + fmt(4, hits)


def ref_span_ids_reqd4(G, L, O, dims):
    gid, dd, hits = span_ids(G, L, O, dims)
    return fmt(0, [v // 10000000000 for v in gid]) + fmt(1, dd[0]) + fmt(2, hits)


def ref_span_barrier(G, L, O, dims, start):
    n = G[0] * G[1] * G[2]
    inp = [start + i for i in range(n)]
    out = [0] * n
    for grp, its in groups(G, L).items():
        m = len(its)
        tmp = [inp[it[0]] for it in its]
        tmp2 = [0] * m
        for l, it in enumerate(its):
            v = inp[it[0]] * 3 + l
            tmp2[l] = tmp[m - 1 - l] + v
        for l, it in enumerate(its):
            out[it[0]] = i32(tmp2[(l + 1) % m] * 100 + grp[0] % 100)
    return fmt(1, out)


def ref_span_collective(G, L, O, dims, start):
    n = G[0] * G[1] * G[2]
    inp = [start + i for i in range(n)]
    scan, other = [0] * n, [0] * n
    for grp, its in groups(G, L).items():
        xs = [inp[it[0]] for it in its]
        allv = int(all(x > -400 for x in xs))
        acc = 0
        for l, it in enumerate(its):
            acc += xs[l]
            scan[it[0]] = acc * 10 + allv
            other[it[0]] = max(xs) * 10000 + xs[0]
    return fmt(1, scan) + fmt(2, other)


def ref_span_blelloch(G, L, O, dims):
    n = G[0]
    inp = [BLELLOCH_VALUES[i % len(BLELLOCH_VALUES)] for i in range(n)]
    out = [0] * n
    for g in range(0, n, L[0]):
        acc = 0
        for i in range(g, g + L[0]):
            out[i] = acc
            acc += inp[i]
    return fmt(1, out)


def sim_text(comment, kernel, G, L, O, dims, args):
    s = "# %s\nsource spans.cl\nkernel %s\noptions -cl-std=CL3.0\n" % (comment, kernel)
    s += "global %s\nlocal %s\n" % (" ".join(map(str, G[:dims])), " ".join(map(str, L[:dims])))
    if any(O[:dims]):
        s += "offset %s\n" % " ".join(map(str, O[:dims]))
    return s + "".join("arg %s\n" % a for a in args)


def case(name, comment, kernel, G, L, O=(0, 0, 0), start=0):
    dims = len(G)
    G, L, O = pad3(G, 1), pad3(L, 1), pad3(O, 0)
    n = G[0] * G[1] * G[2]
    lbytes = 4 * L[0] * L[1] * L[2]
    if kernel == "span_ids":
        args = ["buffer long %d out" % n] + ["buffer int %d out" % n] * 4
        ref = ref_span_ids(G, L, O, dims)
    elif kernel == "span_ids_reqd4":
        args = ["buffer long %d out" % n, "buffer int %d out" % n, "buffer int %d out" % n]
        ref = ref_span_ids_reqd4(G, L, O, dims)
    elif kernel == "span_barrier":
        args = ["buffer int %d seq %d 1" % (n, start), "buffer int %d out" % n, "local %d" % lbytes]
        ref = ref_span_barrier(G, L, O, dims, start)
    elif kernel == "span_collective":
        args = ["buffer int %d seq %d 1" % (n, start), "buffer int %d out" % n, "buffer int %d out" % n]
        ref = ref_span_collective(G, L, O, dims, start)
    elif kernel == "span_blelloch":
        args = ["buffer int %d values %s" % (n, " ".join(map(str, BLELLOCH_VALUES))), "buffer int %d out" % n,
                "local %d" % lbytes]
        ref = ref_span_blelloch(G, L, O, dims)
    with open(os.path.join(CASES, name + ".sim"), "w") as f:
        f.write(sim_text(comment, kernel, G, L, O, dims, args))
    with open(os.path.join(CASES, name + ".ref"), "w") as f:
        f.write("# reference: tests/kernels/spans_ref.py (the kernel in Python)\n")
        f.write("\n".join(ref) + "\n")


case("spans_1d_l1", "1003 groups of 1, offset 5", "span_ids", [1003], [1], [5])
case("spans_1d_l3", "1003 in groups of 3: the last group has 1", "span_ids", [1003], [3])
case("spans_1d_l8", "2001 in groups of 8, offset 11: the last group has 1", "span_ids", [2001], [8], [11])
case("spans_1d_l7", "1500 in groups of 7: the last group has 2", "span_ids", [1500], [7])
case("spans_2d", "37 x 9 in groups of 4 x 2, offset (3, 1): smaller groups at the end of x and of y",
     "span_ids", [37, 9], [4, 2], [3, 1])
case("spans_2d_l1", "64 x 6 in groups of 1 x 3", "span_ids", [64, 6], [1, 3])
case("spans_3d", "13 x 5 x 3 in groups of 2 x 2 x 2, offset (1, 2, 3): smaller groups at the end of every dimension",
     "span_ids", [13, 5, 3], [2, 2, 2], [1, 2, 3])
case("spans_reqd4", "reqd_work_group_size(4): 1001 in groups of 4, offset 2 (the last group has 1)",
     "span_ids_reqd4", [1001], [4], [2])
case("spans_barrier_1d", "barriers: 1003 in groups of 5, offset 2 (the last group has 3)", "span_barrier",
     [1003], [5], [2], start=-400)
case("spans_barrier_l1", "barriers: 500 groups of 1", "span_barrier", [500], [1], start=7)
case("spans_barrier_2d", "barriers: 30 x 7 in groups of 4 x 2", "span_barrier", [30, 7], [4, 2], [0, 3], start=1)
case("spans_barrier_3d", "barriers: 9 x 5 x 4 in groups of 2 x 2 x 3, offset (1, 1, 1)", "span_barrier",
     [9, 5, 4], [2, 2, 3], [1, 1, 1], start=-50)
case("spans_collective_1d", "collectives: 1003 in groups of 6 (the last group has 1)", "span_collective",
     [1003], [6], start=-500)
case("spans_collective_l2", "collectives: 1000 groups of 2, offset 9", "span_collective", [1000], [2], [9],
     start=-600)
case("spans_collective_2d", "collectives: 30 x 7 in groups of 4 x 3, offset (2, 5)", "span_collective",
     [30, 7], [4, 3], [2, 5], start=-420)
case("spans_blelloch_l8", "the Blelloch scan of lanecl-bench: 2048 in groups of 8", "span_blelloch", [2048], [8])
case("spans_blelloch_l2", "the Blelloch scan: 1024 in groups of 2", "span_blelloch", [1024], [2])
case("spans_blelloch_l4", "the Blelloch scan: 1000 in groups of 4", "span_blelloch", [1000], [4])
