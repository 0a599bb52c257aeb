#!/usr/bin/python3
"""Common OpenCV UMat (OpenCL) paths, each compared with the same call on a
NumPy array (OpenCV's CPU code).  One line per case: name, ok/FAIL/ERROR and
the largest difference (absolute; 'rel': relative to max(|cpu|, 1); 'frac':
the fraction of elements that differ).  With an argument OUT, the statuses go
to OUT (JSON) and the OpenCL outputs to OUT.npz, for opencv_umat_diff.py.

  OPENCV_OPENCL_CACHE_ENABLE=0 OPENCV_OPENCL_DEVICE=:CPU: \
  OCL_ICD_VENDORS=<icd> python3 opencv_umat.py OUT"""
import sys, json, numpy as np, cv2
cv2.ocl.setUseOpenCL(True)
dev = cv2.ocl.Device_getDefault()
print("OpenCL:", cv2.ocl.haveOpenCL(), cv2.ocl.useOpenCL(), "device:", dev.name(), "|", dev.vendorName(), "|", dev.version())
rng = np.random.default_rng(1234)
def img(h, w, ch=1, dt=np.uint8):
    if dt == np.uint8:
        a = rng.integers(0, 256, size=(h, w, ch) if ch > 1 else (h, w), dtype=np.uint8)
        # smooth component so edges/templates are meaningful
        a = cv2.GaussianBlur(a, (7, 7), 2)
        return a
    return rng.random((h, w, ch) if ch > 1 else (h, w)).astype(dt) * 100
sizes = [(64, 64), (480, 640), (333, 517)]
results = {}
outs = {}
def get(x):
    if isinstance(x, cv2.UMat): return x.get()
    if isinstance(x, tuple): return tuple(get(y) for y in x)
    return x
def cmp(name, f, args, tol, kind='abs'):
    try:
        ref = get(f(*args))
        uargs = [cv2.UMat(a) if isinstance(a, np.ndarray) else a for a in args]
        out = get(f(*uargs))
    except Exception as e:
        results[name] = ('ERROR', str(e)[:200]); print(name, 'ERROR', str(e)[:200]); return
    def flat(v):
        if isinstance(v, tuple): return np.concatenate([np.asarray(flat(x), dtype=np.float64).ravel() for x in v])
        return np.asarray(v, dtype=np.float64).ravel()
    r, o = flat(ref), flat(out)
    outs[name] = o
    if r.shape != o.shape:
        results[name] = ('FAIL', 'shape %s vs %s' % (r.shape, o.shape)); print(name, 'FAIL shape'); return
    d = np.abs(r - o)
    if kind == 'rel':
        d = d / np.maximum(np.abs(r), 1.0)
    if kind == 'frac':  # fraction of differing elements
        m = float(np.mean(d > 0.5)); st = 'ok' if m <= tol else 'FAIL'
        results[name] = (st, m); print(name, st, 'frac_diff=%g' % m); return
    m = float(np.nanmax(d)) if d.size else 0.0
    if np.isnan(o).any() != np.isnan(r).any(): m = float('inf')
    st = 'ok' if m <= tol else 'FAIL'
    results[name] = (st, m); print(name, st, 'maxdiff=%g' % m)

for (h, w) in sizes:
    s = '%dx%d' % (h, w)
    g8 = img(h, w); c8 = img(h, w, 3); g32 = img(h, w, 1, np.float32); c32 = img(h, w, 3, np.float32)
    g8b = img(h, w)
    cmp('cvtColor_BGR2GRAY_'+s, lambda a: cv2.cvtColor(a, cv2.COLOR_BGR2GRAY), [c8], 1)
    cmp('cvtColor_BGR2HSV_'+s, lambda a: cv2.cvtColor(a, cv2.COLOR_BGR2HSV), [c8], 1)
    cmp('cvtColor_BGR2YCrCb_'+s, lambda a: cv2.cvtColor(a, cv2.COLOR_BGR2YCrCb), [c8], 1)
    cmp('cvtColor_BGR2Lab_f32x_'+s, lambda a: cv2.cvtColor(cv2.addWeighted(a, 0.01, a, 0, 0), cv2.COLOR_BGR2Lab), [c32], 1e-2)
    cmp('resize_linear_'+s, lambda a: cv2.resize(a, (w // 2 + 3, h // 2 + 1), interpolation=cv2.INTER_LINEAR), [c8], 1)
    cmp('resize_area_'+s, lambda a: cv2.resize(a, (w // 2, h // 2), interpolation=cv2.INTER_AREA), [g8], 1)
    cmp('resize_cubic_f32_'+s, lambda a: cv2.resize(a, (w * 2 - 1, h + 7), interpolation=cv2.INTER_CUBIC), [g32], 1e-3, 'rel')
    cmp('resize_nearest_'+s, lambda a: cv2.resize(a, (w + 13, h - 5), interpolation=cv2.INTER_NEAREST), [c8], 0)
    cmp('GaussianBlur_5_'+s, lambda a: cv2.GaussianBlur(a, (5, 5), 1.2), [g8], 1)
    cmp('GaussianBlur_f32_'+s, lambda a: cv2.GaussianBlur(a, (9, 9), 2.5), [g32], 1e-3, 'rel')
    cmp('blur_'+s, lambda a: cv2.blur(a, (3, 3)), [c8], 1)
    cmp('boxFilter_f32_'+s, lambda a: cv2.boxFilter(a, -1, (5, 5)), [g32], 1e-3, 'rel')
    cmp('medianBlur_'+s, lambda a: cv2.medianBlur(a, 5), [g8], 0)
    cmp('Sobel_x_'+s, lambda a: cv2.Sobel(a, cv2.CV_16S, 1, 0, ksize=3), [g8], 0)
    cmp('Sobel_y_f32_'+s, lambda a: cv2.Sobel(a, cv2.CV_32F, 0, 1, ksize=5), [g32], 1e-3, 'rel')
    cmp('Scharr_'+s, lambda a: cv2.Scharr(a, cv2.CV_32F, 1, 0), [g8], 1e-3, 'rel')
    cmp('Laplacian_'+s, lambda a: cv2.Laplacian(a, cv2.CV_16S, ksize=3), [g8], 0)
    cmp('filter2D_'+s, lambda a: cv2.filter2D(a, cv2.CV_32F, np.array([[0, -1, 0], [-1, 5, -1], [0, -1, 0.5]], np.float32)), [g8], 1e-3, 'rel')
    cmp('Canny_'+s, lambda a: cv2.Canny(a, 30, 90), [g8], 0.002, 'frac')
    cmp('Canny_L2_'+s, lambda a: cv2.Canny(a, 30, 90, L2gradient=True), [g8], 0.002, 'frac')
    cmp('threshold_bin_'+s, lambda a: cv2.threshold(a, 127, 255, cv2.THRESH_BINARY)[1], [g8], 0)
    cmp('threshold_trunc_f32_'+s, lambda a: cv2.threshold(a, 50.5, 255, cv2.THRESH_TRUNC)[1], [g32], 0)
    cmp('threshold_otsu_'+s, lambda a: cv2.threshold(a, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[1], [g8], 0)
    cmp('adaptiveThreshold_'+s, lambda a: cv2.adaptiveThreshold(a, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, 11, 2), [g8], 0)
    cmp('integral_'+s, lambda a: cv2.integral(a), [g8], 0)
    cmp('integral_f64_'+s, lambda a: cv2.integral(a, sdepth=cv2.CV_64F), [g32], 1e-6, 'rel')
    cmp('integral2_'+s, lambda a: cv2.integral2(a, sdepth=cv2.CV_32S, sqdepth=cv2.CV_64F), [g8], 0)
    tpl = g8[h // 4:h // 4 + 16, w // 3:w // 3 + 16].copy()
    for m in ['TM_SQDIFF', 'TM_SQDIFF_NORMED', 'TM_CCORR', 'TM_CCORR_NORMED', 'TM_CCOEFF', 'TM_CCOEFF_NORMED']:
        tol = 1e-3 if 'NORMED' in m else 1e-4
        cmp('matchTemplate_%s_%s' % (m, s), lambda a, t, m=m: cv2.matchTemplate(a, t, getattr(cv2, m)), [g8, tpl], tol, 'rel')
    tplc = c8[h // 4:h // 4 + 9, w // 3:w // 3 + 12].copy()
    cmp('matchTemplate_c3_CCORR_NORMED_'+s, lambda a, t: cv2.matchTemplate(a, t, cv2.TM_CCORR_NORMED), [c8, tplc], 1e-3, 'rel')
    cmp('minMaxLoc_matchTemplate_'+s, lambda a, t: cv2.minMaxLoc(cv2.matchTemplate(a, t, cv2.TM_SQDIFF))[2], [g8, tpl], 0)
    cmp('dft_f32_'+s, lambda a: cv2.dft(a, flags=cv2.DFT_COMPLEX_OUTPUT), [g32], 1e-3 * h * w, 'abs')
    cmp('dft_rows_f32_'+s, lambda a: cv2.dft(a, flags=cv2.DFT_COMPLEX_OUTPUT | cv2.DFT_ROWS), [g32], 1e-2 * w)
    cmp('idft_scale_'+s, lambda a: cv2.idft(cv2.dft(a, flags=cv2.DFT_COMPLEX_OUTPUT), flags=cv2.DFT_SCALE | cv2.DFT_REAL_OUTPUT), [g32], 1e-2)
    M = cv2.getRotationMatrix2D((w / 2, h / 2), 17, 0.9)
    cmp('warpAffine_'+s, lambda a: cv2.warpAffine(a, M, (w, h)), [g8], 1)
    cmp('warpAffine_f32_'+s, lambda a: cv2.warpAffine(a, M, (w, h), flags=cv2.INTER_NEAREST), [g32], 1e-3, 'rel')
    P = np.array([[1, 0.1, 3], [0.05, 0.9, -2], [1e-4, 2e-4, 1]])
    cmp('warpPerspective_'+s, lambda a: cv2.warpPerspective(a, P, (w, h)), [g8], 1)
    mx, my = np.meshgrid(np.arange(w, dtype=np.float32) * 0.97 + 1.3, np.arange(h, dtype=np.float32) * 1.01 - 0.4)
    cmp('remap_'+s, lambda a: cv2.remap(a, mx, my, cv2.INTER_LINEAR), [g8], 1)
    cmp('calcHist_'+s, lambda a: cv2.calcHist([a], [0], None, [256], [0, 256]), [g8], 0)
    cmp('equalizeHist_'+s, lambda a: cv2.equalizeHist(a), [g8], 1)
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    cmp('erode_'+s, lambda a: cv2.erode(a, k), [g8], 0)
    cmp('dilate_f32_'+s, lambda a: cv2.dilate(a, None, iterations=2), [g32], 0)
    cmp('morph_open_'+s, lambda a: cv2.morphologyEx(a, cv2.MORPH_OPEN, k), [c8], 0)
    cmp('morph_gradient_'+s, lambda a: cv2.morphologyEx(a, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8)), [g8], 0)
    cmp('bilateralFilter_'+s, lambda a: cv2.bilateralFilter(a, 9, 75, 75), [g8], 1)
    cmp('bilateralFilter_c3_'+s, lambda a: cv2.bilateralFilter(a, 5, 30, 30), [c8], 1)
    cmp('add_'+s, lambda a, b: cv2.add(a, b), [g8, g8b], 0)
    cmp('subtract_'+s, lambda a, b: cv2.subtract(a, b), [g8, g8b], 0)
    cmp('absdiff_'+s, lambda a, b: cv2.absdiff(a, b), [g8, g8b], 0)
    cmp('multiply_scale_'+s, lambda a, b: cv2.multiply(a, b, scale=1 / 255.0), [g8, g8b], 1)
    cmp('divide_'+s, lambda a, b: cv2.divide(a, b, scale=10), [g8, g8b], 1)
    cmp('mul_f32_'+s, lambda a, b: cv2.multiply(a, b), [g32, g32 * 0.5], 1e-5, 'rel')
    cmp('addWeighted_'+s, lambda a, b: cv2.addWeighted(a, 0.3, b, 0.7, 5), [g8, g8b], 1)
    cmp('addWeighted_f32_'+s, lambda a, b: cv2.addWeighted(a, 0.3, b, 0.7, 5), [g32, g32 * 2], 1e-5, 'rel')
    cmp('convertScaleAbs_'+s, lambda a: cv2.convertScaleAbs(a, alpha=1.7, beta=-20), [g32], 1)
    cmp('convertTo_'+s, lambda a: cv2.normalize(a, None, 0, 1, cv2.NORM_MINMAX, cv2.CV_32F), [g8], 1e-5)
    cmp('magnitude_phase_'+s, lambda a, b: (cv2.magnitude(a, b), cv2.phase(a, b, angleInDegrees=True)), [g32, g32 - 50], 1e-2, 'rel')
    cmp('cartToPolar_'+s, lambda a, b: cv2.cartToPolar(a, b), [g32, g32 - 50], 1e-2, 'rel')
    cmp('exp_log_pow_'+s, lambda a: (cv2.exp(cv2.addWeighted(a, 0.05, a, 0, 0)), cv2.log(cv2.addWeighted(a, 1, a, 0, 1)), cv2.pow(a, 1.5), cv2.sqrt(a)), [g32], 1e-4, 'rel')
    cmp('bitwise_'+s, lambda a, b: (cv2.bitwise_and(a, b), cv2.bitwise_xor(a, b), cv2.bitwise_not(a)), [g8, g8b], 0)
    cmp('compare_inRange_'+s, lambda a, b: (cv2.compare(a, b, cv2.CMP_GT), cv2.inRange(a, 50, 150)), [g8, g8b], 0)
    cmp('min_max_'+s, lambda a, b: (cv2.min(a, b), cv2.max(a, b)), [g32, g32[::-1].copy()], 0)
    cmp('sum_'+s, lambda a: cv2.sumElems(a), [c8], 0)
    cmp('sum_f32_'+s, lambda a: cv2.sumElems(a), [g32], 1e-5, 'rel')
    cmp('mean_'+s, lambda a: cv2.mean(a), [c8], 1e-6, 'rel')
    cmp('meanStdDev_'+s, lambda a: cv2.meanStdDev(a), [g8], 1e-5, 'rel')
    cmp('countNonZero_'+s, lambda a: cv2.countNonZero(a), [cv2.threshold(g8, 127, 255, cv2.THRESH_BINARY)[1]], 0)
    cmp('minMaxLoc_'+s, lambda a: cv2.minMaxLoc(a), [g32], 0)
    cmp('minMaxLoc_u8_'+s, lambda a: cv2.minMaxLoc(a), [g8], 0)
    cmp('norm_L1_'+s, lambda a: cv2.norm(a, cv2.NORM_L1), [g8], 1e-9, 'rel')
    cmp('norm_L2_f32_'+s, lambda a: cv2.norm(a, cv2.NORM_L2), [g32], 1e-5, 'rel')
    cmp('norm_INF_diff_'+s, lambda a, b: cv2.norm(a, b, cv2.NORM_INF), [g8, g8b], 0)
    cmp('norm_L2_diff_'+s, lambda a, b: cv2.norm(a, b, cv2.NORM_L2), [g8, g8b], 1e-9, 'rel')
    cmp('normalize_'+s, lambda a: cv2.normalize(a, None, 0, 255, cv2.NORM_MINMAX), [g32], 1e-3)
    cmp('reduce_'+s, lambda a: (cv2.reduce(a, 0, cv2.REDUCE_SUM, dtype=cv2.CV_32F), cv2.reduce(a, 1, cv2.REDUCE_MAX)), [g32], 1e-4, 'rel')
    cmp('transpose_flip_'+s, lambda a: (cv2.transpose(a), cv2.flip(a, -1), cv2.flip(a, 0)), [c8], 0)
    cmp('split_merge_'+s, lambda a: cv2.merge(cv2.split(a)[::-1]), [c8], 0)
    cmp('copyMakeBorder_'+s, lambda a: cv2.copyMakeBorder(a, 3, 5, 7, 2, cv2.BORDER_REFLECT_101), [c8], 0)
    cmp('pyrDown_pyrUp_'+s, lambda a: (cv2.pyrDown(a), cv2.pyrUp(a)), [g8], 1)
    cmp('cornerHarris_'+s, lambda a: cv2.cornerHarris(a, 2, 3, 0.04), [g32], 1e-2, 'rel')
    cmp('cornerMinEigenVal_'+s, lambda a: cv2.cornerMinEigenVal(a, 3), [g32], 1e-2, 'rel')
    cmp('gemm_'+s, lambda a, b: cv2.gemm(a, b, 1.0, None, 0.0), [g32[:64, :48].copy(), g32[:48, :40].copy()], 1e-4, 'rel')
    cmp('LUT_'+s, lambda a: cv2.LUT(a, np.arange(256, dtype=np.uint8)[::-1].copy()), [g8], 0)
    cmp('sqrBoxFilter_'+s, lambda a: cv2.sqrBoxFilter(a, cv2.CV_32F, (5, 5)), [g32], 1e-3, 'rel')
    cmp('accumulateWeighted_like_'+s, lambda a: cv2.scaleAdd(a, 0.5, a), [g32], 1e-5, 'rel')

ok = sum(1 for v in results.values() if v[0] == 'ok')
print('TOTAL', len(results), 'ok', ok, 'fail', sum(1 for v in results.values() if v[0] == 'FAIL'), 'error', sum(1 for v in results.values() if v[0] == 'ERROR'))
if len(sys.argv) > 1:
    json.dump({'device': dev.name(), 'results': results}, open(sys.argv[1], 'w'), indent=0)
    np.savez_compressed(sys.argv[1] + '.npz', **outs)
