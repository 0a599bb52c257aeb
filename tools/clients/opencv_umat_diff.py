"""Compare two runs of opencv_umat.py (e.g. LaneCL and PoCL): prints the cases
that are not ok on either driver or whose OpenCL outputs differ by more than
1e-3 relative to max(|b|, 1).   python3 opencv_umat_diff.py A B"""
import json, sys, numpy as np
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
na = np.load(sys.argv[1] + '.npz'); nb = np.load(sys.argv[2] + '.npz')
print(sys.argv[1], a['device'], '|', sys.argv[2], b['device'])
for k in a['results']:
    ra, rb = a['results'][k], b['results'].get(k)
    x = na[k] if k in na else None; y = nb[k] if k in nb else None
    d = None
    if x is not None and y is not None and x.shape == y.shape:
        dd = np.abs(x - y); d = float(np.nanmax(dd / np.maximum(np.abs(y), 1))) if dd.size else 0
    if ra[0] != 'ok' or (rb and rb[0] != 'ok') or (d is not None and d > 1e-3):
        print('%-40s %s %-12s | %s %-12s | rel(a-b)=%s' % (k, ra[0], ra[1], rb[0] if rb else '-', rb[1] if rb else '', d))
