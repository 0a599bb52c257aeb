#!/usr/bin/python3
"""FFmpeg's *_opencl filters on two OpenCL drivers, outputs compared byte for byte,
with the CPU filter of the same name where FFmpeg has one, and (for the filters whose
kernels are plain float arithmetic) with an emulation of the kernel in IEEE single
precision: reads c / 255.0f correctly rounded, writes convert_uchar_sat_rte(f * 255.0f),
a * b + c contracted to fma.

  python3 ffmpeg_opencl.py check WORKDIR A.icd B.icd [REGEX]
  python3 ffmpeg_opencl.py time WORKDIR A.icd B.icd REPS [REGEX]

check: inputs 646x474 yuv420p (odd chroma planes), 641x479 yuv444p and rgba, 10
noisy testsrc2 frames; one line per case: each driver's error if any, then A-B, A-CPU,
B-CPU (identical, or the largest difference and the number of bytes that differ); A on
nv12 / p016 against A on yuv420p / yuv420p16, plane by plane; and for the emulated kernels
each driver's mismatches with the emulation on frame 0.
time: 1920x1080 (deshake 1280x720), per filter one run to fill the program caches, then REPS runs on each\ndriver alternating (A B, B A, ...), the median of ffmpeg's -benchmark rtime."""
import os, re, subprocess, sys, statistics
import numpy as np

f32 = np.float32
KERNELS = r'''
__kernel void invert(__write_only image2d_t dst, unsigned int index, __read_only image2d_t src)
{
    const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float4 v = read_imagef(src, s, p);
    write_imagef(dst, p, (float4)(1.0f - v.x, 1.0f - v.y, 1.0f - v.z, v.w));
}
__kernel void blend2(__write_only image2d_t dst, unsigned int index, __read_only image2d_t a,
                     __read_only image2d_t b)
{
    const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(dst, p, mix(read_imagef(a, s, p), read_imagef(b, s, p), 0.25f));
}
__kernel void gen(__write_only image2d_t dst, unsigned int index)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float t = index * 0.1f;
    write_imagef(dst, p, (float4)(0.5f + 0.5f * sin(p.x * 0.05f + t), 0.5f + 0.5f * cos(p.y * 0.03f - t),
                                  (float)((p.x ^ p.y) & 255) / 255.0f, 1.0f));
}
'''
HW = ['-init_hw_device', 'opencl=ocl:0.0', '-filter_hw_device', 'ocl']


def ffmpeg(args, icd=None):
    env = dict(os.environ)
    if icd:
        env['OCL_ICD_VENDORS'] = icd
    p = subprocess.run(['ffmpeg', '-nostdin', '-hide_banner', '-y'] + args, env=env,
                       capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def make_inputs(w):
    src = 'testsrc2=size=%s:rate=25'
    noise = 'noise=alls=12:allf=t'
    todo = [('odd_yuv420p.nut', src % '646x474', '%s,format=yuv420p' % noise, 10),
            ('odd_yuv444p.nut', src % '642x480', 'format=gbrp,crop=641:479:0:0,%s,format=yuv444p' % noise, 10),
            ('odd_rgba.nut', src % '642x480', 'format=gbrp,crop=641:479:0:0,%s,format=rgba' % noise, 10),
            ('o_gray.nut', src % '642x480', 'format=gbrp,crop=641:479:0:0,%s,format=gray' % noise, 6),
            ('o_gray16le.nut', src % '642x480', 'format=gbrp,crop=641:479:0:0,%s,format=gray16le' % noise, 6),
            ('o_yuv444p16le.nut', src % '642x480', 'format=gbrp,crop=641:479:0:0,%s,format=yuv444p16le' % noise, 6),
            ('o_rgba64le.nut', src % '642x480', 'format=gbrp,crop=641:479:0:0,%s,format=rgba64le' % noise, 6),
            ('o_bgra.nut', src % '642x480', 'format=gbrp,crop=641:479:0:0,%s,format=bgra' % noise, 6),
            ('hd420.y4m', src % '1280x720', '%s,format=yuv420p' % noise, 20),
            ('big420.y4m', src % '1920x1080', '%s,format=yuv420p' % noise, 10),
            ('bigrgba.nut', src % '1920x1080', '%s,format=rgba' % noise, 10)]
    for name, s, vf, n in todo:
        if not os.path.exists(os.path.join(w, name)):
            ffmpeg(['-v', 'error', '-f', 'lavfi', '-i', s, '-frames:v', str(n), '-vf', vf]
                   + ([] if name.endswith('y4m') else ['-c:v', 'rawvideo']) + [os.path.join(w, name)])
    with open(os.path.join(w, 'kernels.cl'), 'w') as f:
        f.write(KERNELS)


def cases(w):
    odd = {'yuv420p': w + '/odd_yuv420p.nut', 'yuv444p': w + '/odd_yuv444p.nut', 'rgba': w + '/odd_rgba.nut'}
    maps = ['-f', 'lavfi', '-i', "nullsrc=s=641x479:d=0.4,format=gray16le,geq=lum='if(lt(X,20),700,W-1-X+3*sin(Y/9))'",
            '-f', 'lavfi', '-i', "nullsrc=s=641x479:d=0.4,format=gray16le,geq=lum='Y*0.9+5*cos(X/13)'"]
    cl = w + '/kernels.cl'
    out = []

    def simple(name, fmt, f, cpu, inp=None, pre=''):
        out.append((name, fmt, ['-i', inp or odd[fmt], '-vf', '%shwupload,%s,hwdownload,format=%s' % (pre, f, fmt)],
                    cpu and ['-i', inp or odd[fmt], '-vf', pre + cpu]))

    def complex_(name, fmt, inputs, g, cpu):
        out.append((name, fmt, inputs + ['-filter_complex', g, '-frames:v', '10'],
                    cpu and inputs + ['-filter_complex', cpu, '-frames:v', '10']))
    conv = ("0m='0 -1 0 -1 5 -1 0 -1 0':1m='1 2 1 2 4 2 1 2 1':1rdiv=0.0625:"
            "2m='1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1':2rdiv=0.04")
    simple('avgblur', 'yuv420p', 'avgblur_opencl=sizeX=3:sizeY=2', 'avgblur=sizeX=3:sizeY=2')
    simple('avgblur_444', 'yuv444p', 'avgblur_opencl=sizeX=7', 'avgblur=sizeX=7')
    simple('boxblur', 'yuv420p', 'boxblur_opencl=4:2:2:1', 'boxblur=4:2:2:1')
    simple('boxblur_rgba', 'rgba', 'boxblur_opencl=3:1', 'boxblur=3:1')
    simple('colorkey', 'rgba', 'colorkey_opencl=color=0x2040a0:similarity=0.4:blend=0.2', 'colorkey=0x2040a0:0.4:0.2')
    simple('convolution', 'yuv420p', 'convolution_opencl=' + conv, 'convolution=' + conv)
    simple('dilation', 'yuv420p', 'dilation_opencl', 'dilation')
    simple('dilation_thr', 'yuv444p', 'dilation_opencl=threshold0=10:coordinates=90', 'dilation=threshold0=10:coordinates=90')
    simple('erosion', 'yuv420p', 'erosion_opencl', 'erosion')
    simple('erosion_thr', 'yuv444p', 'erosion_opencl=threshold0=10:threshold1=3:coordinates=165',
           'erosion=threshold0=10:threshold1=3:coordinates=165')
    simple('nlmeans', 'yuv420p', 'nlmeans_opencl=s=4:p=7:r=9', 'nlmeans=s=4:p=7:r=9')
    hd = ['-i', odd['yuv420p'], '-i', w + '/hd420.y4m']
    complex_('overlay', 'yuv420p', hd,
             '[0:v]hwupload[a];[1:v]scale=202:152,format=yuv420p,hwupload[b];[a][b]overlay_opencl=x=37:y=21,'
             'hwdownload,format=yuv420p', '[1:v]scale=202:152,format=yuv420p[b];[0:v][b]overlay=x=37:y=21')
    alpha = "scale=202:152,format=yuva420p,geq=lum='lum(X,Y)':cb='cb(X,Y)':cr='cr(X,Y)':a='X'"
    complex_('overlay_alpha', 'yuv420p', hd,
             '[0:v]hwupload[a];[1:v]%s,hwupload[b];[a][b]overlay_opencl=x=37:y=21,hwdownload,format=yuv420p' % alpha,
             '[1:v]%s[b];[0:v][b]overlay=x=37:y=21' % alpha)
    simple('pad', 'yuv420p', 'pad_opencl=w=700:h=520:x=30:y=16:color=0x8020c0', 'pad=w=700:h=520:x=30:y=16:color=0x8020c0')
    simple('pad_rgba', 'rgba', 'pad_opencl=w=700:h=520:x=31:y=17:color=0x8020c0', 'pad=w=700:h=520:x=31:y=17:color=0x8020c0')
    for k in ('prewitt', 'roberts', 'sobel'):
        simple(k, 'yuv420p', '%s_opencl=scale=1.5:delta=3' % k, '%s=scale=1.5:delta=3' % k)
    simple('program', 'yuv420p', 'program_opencl=source=%s:kernel=invert' % cl, 'negate')
    complex_('program_2in', 'rgba', ['-i', odd['rgba'], '-i', odd['rgba']],
             '[0:v]hwupload[a];[1:v]hwupload[b];[a][b]program_opencl=source=%s:kernel=blend2:inputs=2,'
             'hwdownload,format=rgba' % cl, None)
    for interp in ('near', 'linear'):
        complex_('remap_' + interp, 'yuv444p', ['-i', odd['yuv444p']] + maps,
                 '[0:v]hwupload[s];[1:v]hwupload[x];[2:v]hwupload[y];[s][x][y]remap_opencl=interp=%s:'
                 'fill=0x00ff00,hwdownload,format=yuv444p' % interp,
                 interp == 'near' and '[0:v][1:v][2:v]remap=fill=0x00ff00')
    hdr = 'format=p010le,setparams=color_primaries=bt2020:color_trc=smpte2084:colorspace=bt2020nc,'
    simple('tonemap_hable', 'nv12', 'tonemap_opencl=tonemap=hable:format=nv12:desat=0', None, w + '/hd420.y4m', hdr)
    simple('tonemap_reinhard', 'p010le', 'tonemap_opencl=tonemap=reinhard:param=0.6:format=p010', None,
           w + '/hd420.y4m', hdr)
    simple('transpose', 'yuv420p', 'transpose_opencl=dir=clock', 'transpose=dir=clock')
    simple('transpose_rgba', 'rgba', 'transpose_opencl=dir=cclock_flip', 'transpose=dir=cclock_flip')
    simple('unsharp', 'yuv420p', 'unsharp_opencl=lx=5:ly=5:la=1.5:cx=3:cy=3:ca=0.5', 'unsharp=5:5:1.5:3:3:0.5')
    simple('unsharp_13x9', 'yuv420p', 'unsharp_opencl=lx=13:ly=9:la=-1.2:cx=7:cy=7:ca=0.8', 'unsharp=13:9:-1.2:7:7:0.8')
    simple('unsharp_23x21', 'gray', 'unsharp_opencl=lx=23:ly=21:la=1', None, w + '/o_gray.nut')
    two = ['-i', odd['yuv420p'], '-i', odd['yuv420p']]
    complex_('xfade', 'yuv420p', two,
             '[0:v]hwupload[a];[1:v]negate,hwupload[b];[a][b]xfade_opencl=transition=fade:duration=0.2:offset=0.1,'
             'hwdownload,format=yuv420p', '[1:v]negate[b];[0:v][b]xfade=transition=fade:duration=0.2:offset=0.1')
    complex_('xfade_slide', 'rgba', ['-i', odd['rgba'], '-i', odd['rgba']],
             '[0:v]hwupload[a];[1:v]negate,hwupload[b];[a][b]xfade_opencl=transition=slideleft:duration=0.2:offset=0.1,'
             'hwdownload,format=rgba', '[1:v]negate[b];[0:v][b]xfade=transition=slideleft:duration=0.2:offset=0.1')
    simple('deshake', 'yuv420p', 'deshake_opencl', None, w + '/hd420.y4m')
    out.append(('openclsrc', 'rgba', ['-filter_complex', 'openclsrc=source=%s:kernel=gen:size=641x479:format=rgba,'
                                      'hwdownload,format=rgba' % cl, '-frames:v', '5'], None))
    for name, inp, fmt, f, cpu in (
            ('transpose_nv12', 'odd_yuv420p.nut', 'nv12', 'transpose_opencl=dir=cclock', 'transpose=dir=cclock'),
            ('pad_nv12', 'odd_yuv420p.nut', 'nv12', 'pad_opencl=w=700:h=500:x=20:y=10:color=0x102030',
             'pad=w=700:h=500:x=20:y=10:color=0x102030'),
            ('transpose_p016', 'odd_yuv420p.nut', 'p016le', 'transpose_opencl=dir=clock', 'transpose=dir=clock'),
            ('transpose_444p16', 'o_yuv444p16le.nut', 'yuv444p16le', 'transpose_opencl=dir=clock_flip',
             'transpose=dir=clock_flip'),
            ('transpose_rgba64', 'o_rgba64le.nut', 'rgba64le', 'transpose_opencl=dir=clock', 'transpose=dir=clock'),
            ('transpose_bgra', 'o_bgra.nut', 'bgra', 'transpose_opencl=dir=clock', 'transpose=dir=clock'),
            ('erosion_gray16', 'o_gray16le.nut', 'gray16le', 'erosion_opencl=coordinates=90', 'erosion=coordinates=90'),
            ('erosion_gray', 'o_gray.nut', 'gray', 'erosion_opencl', 'erosion'),
            ('pad_444p16', 'o_yuv444p16le.nut', 'yuv444p16le', 'pad_opencl=w=700:h=500:x=21:y=11:color=0x102030',
             'pad=w=700:h=500:x=21:y=11:color=0x102030'),
            ('avgblur_rgba64', 'o_rgba64le.nut', 'rgba64le', 'avgblur_opencl=sizeX=2', None),
            ('sobel_gray16', 'o_gray16le.nut', 'gray16le', 'sobel_opencl', None),
            ('convolution_bgra', 'o_bgra.nut', 'bgra', "convolution_opencl=0m='1 1 1 1 -8 1 1 1 1':0bias=128", None),
            ('colorkey_bgra', 'o_bgra.nut', 'bgra', 'colorkey_opencl=color=0x2040a0:similarity=0.4:blend=0.2', None)):
        pre = 'format=yuv420p16le,format=%s,' % fmt if fmt == 'p016le' else 'format=%s,' % fmt if fmt == 'nv12' else ''
        simple(name, fmt, f, cpu, w + '/' + inp, pre)
    return out


def compare(a, b):
    if not (os.path.exists(a) and os.path.exists(b)):
        return 'missing'
    x, y = np.fromfile(a, np.uint8), np.fromfile(b, np.uint8)
    s = '' if x.size == y.size else 'size %d/%d ' % (x.size, y.size)
    n = min(x.size, y.size)
    d = np.abs(x[:n].astype(np.int16) - y[:n].astype(np.int16))
    if not d.any():
        return s + 'identical'
    return s + 'max %d, %d bytes (%.3f%%)' % (d.max(), np.count_nonzero(d), 100.0 * np.count_nonzero(d) / n)


# ---- emulation of the float kernels, frame 0 ----

def yuv420_planes(path, w, h):
    cw, ch = (w + 1) // 2, (h + 1) // 2
    raw = np.fromfile(path, np.uint8, count=w * h + 2 * cw * ch)
    return [raw[:w * h].reshape(h, w), raw[w * h:w * h + cw * ch].reshape(ch, cw), raw[w * h + cw * ch:].reshape(ch, cw)]


def rd(p):
    return (p.astype(f32) / f32(255)).astype(f32)


def wr(v):
    return np.clip(np.rint((v.astype(f32) * f32(255)).astype(f32)), 0, 255).astype(np.uint8)


def fma(a, b, c):
    return (a.astype(np.float64) * np.float64(b) + np.float64(c)).astype(f32)


def shifted(f, dx, dy):
    h, w = f.shape
    return f[np.clip(np.arange(h) + dy, 0, h - 1)][:, np.clip(np.arange(w) + dx, 0, w - 1)]


def avgblur_pass(p, rad, axis):
    f = rd(p if axis == 1 else p.T)
    h, w = f.shape
    out = np.zeros((h, w), np.uint8)
    for x in range(w):
        lo, hi = max(0, x - rad), min(x + rad + 1, w)
        acc = np.zeros(h, f32)
        for xx in range(lo, hi):
            acc = (acc + f[:, xx]).astype(f32)
        out[:, x] = wr((acc / f32(hi - lo)).astype(f32))
    return out if axis == 1 else out.T


def avgblur(p, rx, ry, power=1):
    for _ in range(power):
        p = avgblur_pass(avgblur_pass(p, rx, 1), ry, 0)
    return p


def edge(p, kind, div, bias):
    f = rd(p)
    r = lambda dx, dy: shifted(f, dx, dy)
    if kind == 'roberts':
        s1 = (r(-1, -1) - r(0, -1)).astype(f32)
        s2 = (r(0, 0) - r(-1, 0)).astype(f32)
    else:
        k = 2 if kind == 'sobel' else 1
        sg = -1 if kind == 'prewitt' else 1
        t1 = [(r(-1, -1), -1), (r(0, -1), -k), (r(1, -1), -1), (r(-1, 1), 1), (r(0, 1), k), (r(1, 1), 1)]
        t2 = [(r(-1, -1), -1), (r(-1, 0), -k), (r(-1, 1), -1), (r(1, -1), 1), (r(1, 0), k), (r(1, 1), 1)]

        def ev(terms):
            acc = (terms[0][0] * f32(sg * terms[0][1])).astype(f32)
            for t, c in terms[1:]:
                acc = (acc + (t * f32(sg * c)).astype(f32)).astype(f32)
            return acc
        s1, s2 = ev(t1), ev(t2)
    hy = np.hypot(s1.astype(np.float64), s2.astype(np.float64)).astype(f32)
    return wr(fma(hy, f32(div), f32(bias)))


def convolution(p, m, div):
    f = rd(p)
    n = int(round(len(m) ** 0.5))
    h = n // 2
    acc = np.zeros_like(f)
    for i in range(-h, h + 1):
        for j in range(-h, h + 1):
            acc = fma(shifted(f, j, i), f32(m[(i + h) * n + j + h]), acc)
    return wr((acc * f32(div)).astype(f32))


def unsharp(p, diam_x, diam_y, amount):
    """unsharp_local: FFmpeg's float Gaussian coefficients, a horizontal then a vertical pass
    (each accumulated with fma from 0, the edges clamped), val + (val - sum) * amount."""
    def coefs(diam):
        n = int(np.ceil(diam)) | 1
        b = [float(f32(np.exp(-16.0 * ((x - n // 2) / diam) ** 2))) for x in range(n)]
        return [f32(v / sum(b)) for v in b]
    f = rd(p)
    acc = [np.zeros_like(f), np.zeros_like(f)]
    for k, (axis, c) in enumerate(((0, coefs(diam_x)), (1, coefs(diam_y)))):
        r = len(c) // 2
        src = f if k == 0 else acc[0]
        for i, ci in enumerate(c):
            acc[k] = fma(shifted(src, i - r, 0) if axis == 0 else shifted(src, 0, i - r), ci, acc[k])
    return wr(fma((f - acc[1]).astype(f32), f32(amount), f))


def emulate(w, res, drivers):
    src = yuv420_planes(w + '/frame0.yuv', 646, 474)
    refs = {'avgblur': [avgblur(s, 3, 2) for s in src],
            'boxblur': [avgblur(src[0], 4, 4, 2), avgblur(src[1], 2, 2), avgblur(src[2], 2, 2)],
            'convolution': [convolution(src[0], [0, -1, 0, -1, 5, -1, 0, -1, 0], 1.0),
                            convolution(src[1], [1, 2, 1, 2, 4, 2, 1, 2, 1], 0.0625),
                            convolution(src[2], [1] * 25, 0.04)]}
    for k in ('prewitt', 'roberts', 'sobel'):
        refs[k] = [edge(s, k, 1.5, 3 / 255.) for s in src]
    refs['unsharp'] = [unsharp(src[0], 5, 5, 1.5), unsharp(src[1], 3, 3, 0.5), unsharp(src[2], 3, 3, 0.5)]
    refs['unsharp_13x9'] = [unsharp(src[0], 13, 9, -1.2), unsharp(src[1], 7, 7, 0.8), unsharp(src[2], 7, 7, 0.8)]
    for name, ref in refs.items():
        line = '%-16s emulation, frame 0:' % name
        for d in drivers:
            out = yuv420_planes('%s/%s.%s.raw' % (res, name, d), 646, 474)
            n = sum(np.count_nonzero(o != r) for o, r in zip(out, ref))
            line += ' %s %d of %d differ;' % (d, n, sum(r.size for r in ref))
        print(line)


SEMI = [('avgblur', 'avgblur_opencl=sizeX=3:sizeY=2'), ('boxblur', 'boxblur_opencl=2:1'),
        ('dilation', 'dilation_opencl'), ('erosion', 'erosion_opencl=coordinates=90'),
        ('convolution', "convolution_opencl=0m='1 2 1 2 4 2 1 2 1':0rdiv=0.0625:1m='0 -1 0 -1 5 -1 0 -1 0'"),
        ('sobel', 'sobel_opencl'), ('unsharp', 'unsharp_opencl=lx=5:ly=5:la=1:cx=5:cy=5:ca=1'),
        ('pad', 'pad_opencl=w=700:h=500:x=20:y=10:color=0x102030'), ('transpose', 'transpose_opencl=dir=clock')]


def rg_neighbour(u, v, kind, mask):
    """dilation_global / erosion_global on an RG plane: the neighbour is chosen on .x (U,
    strictly greater or less, i outer, j inner) and its whole texel is written."""
    coord, k = [], 0
    for i in range(9):
        coord.append(1 if i == 4 else (mask >> k) & 1)
        k += i != 4
    h, w = u.shape
    bu, bv = u.astype(int), v.astype(int)
    pu, pv = np.pad(bu, 1, mode='edge'), np.pad(bv, 1, mode='edge')
    for i in (-1, 0, 1):
        for j in (-1, 0, 1):
            if coord[(j + 1) * 3 + (i + 1)]:
                cu, cv = pu[1 + j:1 + j + h, 1 + i:1 + i + w], pv[1 + j:1 + j + h, 1 + i:1 + i + w]
                take = cu > bu if kind == 'dilation' else cu < bu
                bu, bv = np.where(take, cu, bu), np.where(take, cv, bv)
    return bu, bv


def semiplanar(w, res, icd, rx):
    """Driver A on nv12 / p016 frames (R and RG images) against the same driver on yuv420p /
    yuv420p16 (R images only), the chroma de-interleaved.  Dilation and erosion take the
    texel chosen by U, and convolution applies the U matrix to V, so their V differs."""
    for name, f in SEMI:
        if not rx.search('semi_' + name):
            continue
        line = '%-16s' % ('semi_' + name)
        for semi, plan, dt in (('nv12', 'yuv420p', np.uint8), ('p016le', 'yuv420p16le', np.uint16)):
            ww, hh = (700, 500) if name == 'pad' else (474, 646) if name == 'transpose' else (646, 474)
            cw, ch = (ww + 1) // 2, (hh + 1) // 2
            outs = []
            for fmt in (semi, plan):
                pre = 'format=yuv420p16le,' if dt == np.uint16 else ''
                o = '%s/semi_%s.%s.raw' % (res, name, fmt)
                rc, err = ffmpeg(['-v', 'error'] + HW + ['-i', w + '/odd_yuv420p.nut', '-vf', '%sformat=%s,hwupload,%s,'
                                 'hwdownload,format=%s' % (pre, fmt, f, fmt), '-f', 'rawvideo', o], icd)
                outs.append(np.fromfile(o, dt).reshape(-1, ww * hh + 2 * cw * ch) if rc == 0 else None)
            if outs[0] is None or outs[1] is None:
                line += ' %s: failed;' % semi
                continue
            uv = outs[0][:, ww * hh:].reshape(-1, cw * ch, 2)
            for k, plane in enumerate(('Y', 'U', 'V')):
                a = outs[0][:, :ww * hh] if k == 0 else uv[..., k - 1]
                b = outs[1][:, ww * hh + (k - 1) * cw * ch:ww * hh + k * cw * ch] if k else outs[1][:, :ww * hh]
                n = np.count_nonzero(a != b)
                line += ' %s %s %s;' % (semi, plane, 'equal' if n == 0 else '%d differ' % n)
            if name in ('dilation', 'erosion') and dt == np.uint8:
                src = yuv420_planes(w + '/frame0.yuv', 646, 474)
                bu, bv = rg_neighbour(src[1], src[2], name, 255 if name == 'dilation' else 90)
                n = np.count_nonzero(uv[0, :, 0].reshape(bu.shape) != bu) + np.count_nonzero(uv[0, :, 1].reshape(bv.shape) != bv)
                line += ' nv12 UV vs emulation (frame 0): %s;' % ('equal' if n == 0 else '%d differ' % n)
        print(line, flush=True)


def check(w, icds, rx):
    res = os.path.join(w, 'out')
    os.makedirs(res, exist_ok=True)
    drivers = ['A', 'B']
    for name, fmt, args, cpu in cases(w):
        if not rx.search(name):
            continue
        line = '%-18s' % name
        for d, icd in zip(drivers, icds):
            rc, err = ffmpeg(['-v', 'error'] + HW + args + ['-f', 'rawvideo', '%s/%s.%s.raw' % (res, name, d)], icd)
            if rc:
                line += ' %s failed: %s;' % (d, err.strip().splitlines()[0][-160:])
                os.unlink('%s/%s.%s.raw' % (res, name, d)) if os.path.exists('%s/%s.%s.raw' % (res, name, d)) else None
        o = lambda k: '%s/%s.%s.raw' % (res, name, k)
        line += ' A-B: ' + compare(o('A'), o('B'))
        if cpu:
            ffmpeg(['-v', 'error'] + cpu + ['-pix_fmt', fmt, '-f', 'rawvideo', o('cpu')])
            line += ' | A-CPU: ' + compare(o('A'), o('cpu')) + ' | B-CPU: ' + compare(o('B'), o('cpu'))
        print(line, flush=True)
    ffmpeg(['-v', 'error', '-i', w + '/odd_yuv420p.nut', '-frames:v', '1', '-f', 'rawvideo', w + '/frame0.yuv'])
    semiplanar(w, res, icds[0], rx)
    emulate(w, res, drivers)


TIMED = [
    ('upload + download only', 'null', 'yuv', 10),
    ('avgblur sizeX=5', 'avgblur_opencl=sizeX=5', 'yuv', 10),
    ('boxblur 2:2', 'boxblur_opencl', 'yuv', 10),
    ('colorkey (rgba)', 'colorkey_opencl=color=0x2040a0:similarity=0.4:blend=0.2', 'rgba', 10),
    ('convolution 3x3', "convolution_opencl=0m='0 -1 0 -1 5 -1 0 -1 0':1m='0 -1 0 -1 5 -1 0 -1 0':"
                        "2m='0 -1 0 -1 5 -1 0 -1 0'", 'yuv', 10),
    ('convolution 5x5', "convolution_opencl=0m='1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1':0rdiv=0.04",
     'yuv', 10),
    ('dilation', 'dilation_opencl', 'yuv', 10),
    ('erosion', 'erosion_opencl', 'yuv', 10),
    ('nlmeans s=4:p=7:r=9', 'nlmeans_opencl=s=4:p=7:r=9', 'yuv', 2),
    ('pad', 'pad_opencl=w=2000:h=1200:x=40:y=60:color=red', 'yuv', 10),
    ('prewitt', 'prewitt_opencl', 'yuv', 10),
    ('roberts', 'roberts_opencl', 'yuv', 10),
    ('sobel', 'sobel_opencl', 'yuv', 10),
    ('program (invert)', 'program_opencl=source=KERNELS:kernel=invert', 'yuv', 10),
    ('transpose', 'transpose_opencl=dir=clock', 'yuv', 10),
    ('unsharp 5x5 (local memory kernel)', 'unsharp_opencl=lx=5:ly=5:la=1.5:cx=5:cy=5:ca=0.5', 'yuv', 10),
    ('unsharp 23x23 (global kernel)', 'unsharp_opencl=lx=23:ly=23:la=1', 'yuv', 10),
]


def timing(w, icds, reps, rx):
    big = {'yuv': (w + '/big420.y4m', 'yuv420p'), 'rgba': (w + '/bigrgba.nut', 'rgba')}
    two = ['-i', big['yuv'][0], '-i', big['yuv'][0]]
    maps = ['-f', 'lavfi', '-i', "nullsrc=s=1920x1080:d=2,format=gray16le,geq=lum='W-1-X+3*sin(Y/9)'",
            '-f', 'lavfi', '-i', "nullsrc=s=1920x1080:d=2,format=gray16le,geq=lum='Y*0.9+5*cos(X/13)'"]
    tests = [(n, ['-i', big[k][0], '-vf', 'hwupload,%s,hwdownload,format=%s'
                  % (f.replace('KERNELS', w + '/kernels.cl'), big[k][1])], fr) for n, f, k, fr in TIMED]
    tests += [('deshake (1280x720)', ['-i', w + '/hd420.y4m', '-vf', 'hwupload,deshake_opencl,hwdownload,format=yuv420p'], 3),
              ('overlay', two + ['-filter_complex', '[0:v]hwupload[a];[1:v]scale=640:360,format=yuv420p,hwupload[b];'
                                 '[a][b]overlay_opencl=x=100:y=50,hwdownload,format=yuv420p'], 10),
              ('xfade fade', two + ['-filter_complex', '[0:v]hwupload[a];[1:v]hwupload[b];[a][b]xfade_opencl='
                                    'transition=fade:duration=1:offset=0.1,hwdownload,format=yuv420p'], 10),
              ('remap linear (yuv444p)', ['-i', big['yuv'][0]] + maps + [
                  '-filter_complex', '[0:v]format=yuv444p,hwupload[s];[1:v]hwupload[x];[2:v]hwupload[y];'
                  '[s][x][y]remap_opencl,hwdownload,format=yuv444p'], 10)]
    tests = [t for t in tests if rx.search(t[0])]

    def run(icd, t):
        rc, out = ffmpeg(['-benchmark', '-nostats', '-v', 'info'] + HW + t[1]
                         + ['-frames:v', str(t[2]), '-f', 'null', '-'], icd)
        m = re.search(r'rtime=([\d.]+)s', out)
        return float(m.group(1)) if rc == 0 and m else None
    print('| filter | frames | A (s) | B (s) | B / A |')
    print('| --- | ---: | ---: | ---: | ---: |')
    for t in tests:
        for icd in icds:            # fills the drivers' program caches
            run(icd, (t[0], t[1], 1))
        a, b = [], []
        for r in range(reps):       # A B, B A, A B, ...
            for i in ((0, 1) if r % 2 == 0 else (1, 0)):
                (a, b)[i].append(run(icds[i], t))
        if None in a or None in b:
            print('| %s | %d | failed %s | %s | |' % (t[0], t[2], a, b), flush=True)
            continue
        ma, mb = statistics.median(a), statistics.median(b)
        print('| %s | %d | %.2f | %.2f | %.2f |' % (t[0], t[2], ma, mb, mb / ma), flush=True)

if __name__ == '__main__':
    mode, w, icd_a, icd_b = sys.argv[1:5]
    os.makedirs(w, exist_ok=True)
    w = os.path.abspath(w)
    make_inputs(w)
    if mode == 'check':
        check(w, (icd_a, icd_b), re.compile(sys.argv[5] if len(sys.argv) > 5 else '.'))
    else:
        timing(w, (icd_a, icd_b), int(sys.argv[5]), re.compile(sys.argv[6] if len(sys.argv) > 6 else '.'))
