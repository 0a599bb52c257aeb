"""Test image and comparison for darktable-cli runs (docs/clients.md, darktable).

  python3 darktable_tiff.py make OUT.tif [W H]   16-bit RGB test picture: gradients, edges,
                                                 fine texture, noise, clipped highlights
  python3 darktable_tiff.py diff A.tif B.tif     max/mean abs difference and PSNR of two
                                                 uncompressed TIFFs (8/16-bit or float),
                                                 values scaled to [0, 1]

Only numpy: reads and writes baseline uncompressed TIFF (darktable's export with
plugins/imageio/format/tiff/compress=0); deflate strips are read through zlib."""
import struct, sys, zlib
import numpy as np


def make(path, w=2000, h=1500):
    rng = np.random.default_rng(1)
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    u, v = x / w, y / h
    # sky-like vertical gradient, ground-like warm gradient below a horizon
    img = np.empty((h, w, 3), np.float32)
    sky = v < 0.45
    img[..., 0] = np.where(sky, 0.25 + 0.3 * v, 0.45 - 0.2 * (v - 0.45))
    img[..., 1] = np.where(sky, 0.45 + 0.3 * v, 0.35 - 0.1 * (v - 0.45))
    img[..., 2] = np.where(sky, 0.85 - 0.2 * v, 0.20 + 0.05 * u)
    # hard-edged blocks of saturated colours
    cols = [(0.9, 0.1, 0.1), (0.1, 0.8, 0.2), (0.1, 0.2, 0.9), (0.9, 0.8, 0.1),
            (0.8, 0.1, 0.8), (0.1, 0.8, 0.8), (0.05, 0.05, 0.05), (0.95, 0.95, 0.95)]
    for i, c in enumerate(cols):
        x0 = int(w * (0.05 + 0.11 * i)); y0 = int(h * 0.55)
        img[y0:y0 + h // 8, x0:x0 + w // 12] = c
    # discs with soft and hard edges
    for cx, cy, r, soft, c in [(0.2, 0.25, 0.08, 0.002, (1.0, 0.7, 0.3)),
                               (0.5, 0.2, 0.05, 0.03, (0.3, 0.3, 0.35)),
                               (0.8, 0.3, 0.1, 0.001, (0.6, 0.9, 0.4))]:
        d = np.hypot(u - cx, (v - cy) * h / w)
        a = np.clip((r - d) / soft, 0, 1)[..., None]
        img = img * (1 - a) + a * np.array(c, np.float32)
    # sun: clipped highlight with a glow
    d = np.hypot(u - 0.65, (v - 0.12) * h / w)
    img += (np.exp(-(d / 0.02) ** 2) * 3.0 + np.exp(-(d / 0.08) ** 2) * 0.4)[..., None]
    # fine texture: zone plate and stripes in the lower part
    zp = 0.5 + 0.5 * np.cos(((x - 0.25 * w) ** 2 + (y - 0.85 * h) ** 2) * 0.0008)
    band = (v > 0.75) & (u < 0.5)
    img[band] = img[band] * 0.4 + 0.5 * zp[band][..., None]
    stripes = (v > 0.75) & (u >= 0.5)
    img[stripes] *= (0.6 + 0.4 * np.sign(np.sin(x[stripes] * 0.5 + y[stripes] * 0.1)))[..., None]
    # sensor-like noise, stronger in the shadows
    img += rng.normal(0, 1, img.shape).astype(np.float32) * (0.004 + 0.01 * np.sqrt(np.clip(img, 0, None)))
    q = (np.clip(img, 0, 1) * 65535 + 0.5).astype('<u2')
    write16(path, q)


def write16(path, a):
    h, w, c = a.shape
    data = a.tobytes()
    entries = [(256, 4, 1, w), (257, 4, 1, h), (258, 3, 3, None), (259, 3, 1, 1), (262, 3, 1, 2),
               (273, 4, 1, None), (277, 3, 1, 3), (278, 4, 1, h), (279, 4, 1, len(data)),
               (284, 3, 1, 1)]
    ifd_off = 8
    ifd_len = 2 + 12 * len(entries) + 4
    bps_off = ifd_off + ifd_len
    data_off = bps_off + 6
    out = bytearray(b'II*\x00' + struct.pack('<I', ifd_off))
    out += struct.pack('<H', len(entries))
    for tag, typ, cnt, val in entries:
        if tag == 258:
            val = bps_off
        if tag == 273:
            val = data_off
        if typ == 3 and cnt == 1:
            out += struct.pack('<HHIHH', tag, typ, cnt, val, 0)
        else:
            out += struct.pack('<HHII', tag, typ, cnt, val)
    out += struct.pack('<I', 0)
    out += struct.pack('<HHH', 16, 16, 16)
    out += data
    open(path, 'wb').write(out)


def read(path):
    b = open(path, 'rb').read()
    e = '<' if b[:2] == b'II' else '>'
    off = struct.unpack(e + 'I', b[4:8])[0]
    n = struct.unpack(e + 'H', b[off:off + 2])[0]
    size = {1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 11: 4, 12: 8, 16: 8}
    fmt = {1: 'B', 2: 'B', 3: 'H', 4: 'I', 11: 'f', 12: 'd', 16: 'Q'}
    tags = {}
    for i in range(n):
        p = off + 2 + 12 * i
        tag, typ, cnt = struct.unpack(e + 'HHI', b[p:p + 8])
        if typ not in fmt:
            continue
        nb = size[typ] * cnt
        q = p + 8 if nb <= 4 else struct.unpack(e + 'I', b[p + 8:p + 12])[0]
        tags[tag] = struct.unpack(e + fmt[typ] * cnt, b[q:q + nb])
    w, h = tags[256][0], tags[257][0]
    spp = tags.get(277, (1,))[0]
    bps = tags[258][0]
    sfmt = tags.get(339, (1,))[0]
    comp = tags.get(259, (1,))[0]
    pred = tags.get(317, (1,))[0]
    raw = b''.join(b[o:o + c] for o, c in zip(tags[273], tags[279]))
    if comp in (8, 32946):
        raw = b''.join(zlib.decompress(b[o:o + c]) for o, c in zip(tags[273], tags[279]))
    elif comp != 1:
        raise SystemExit('%s: compression %d not read' % (path, comp))
    dt = {(8, 1): 'u1', (16, 1): 'u2', (32, 3): 'f4', (16, 3): 'f2'}[(bps, sfmt)]
    a = np.frombuffer(raw, (e + dt) if dt != 'u1' else dt)[:w * h * spp].reshape(h, w, spp)
    if pred == 2:
        a = np.cumsum(a, axis=1, dtype=a.dtype)
    elif pred == 3:
        raise SystemExit('%s: floating-point predictor not read' % path)
    a = a.astype(np.float64)
    if sfmt == 1:
        a /= float(2 ** bps - 1)
    return a[..., :3]


def diff(pa, pb):
    a, b = read(pa), read(pb)
    if a.shape != b.shape:
        print('shapes differ: %s %s' % (a.shape, b.shape))
        return 1
    d = np.abs(a - b)
    mse = float(np.mean(d ** 2))
    psnr = float('inf') if mse == 0 else 10 * np.log10(1.0 / mse)
    print('%s vs %s: %dx%d max %.3g mean %.3g PSNR %.1f dB, >1e-3: %d px, >1e-2: %d px'
          % (pa, pb, a.shape[1], a.shape[0], d.max(), d.mean(), psnr,
             int((d.max(axis=2) > 1e-3).sum()), int((d.max(axis=2) > 1e-2).sum())))
    return 0


if __name__ == '__main__':
    if sys.argv[1] == 'make':
        make(sys.argv[2], *[int(s) for s in sys.argv[3:5]])
    elif sys.argv[1] == 'diff':
        sys.exit(diff(sys.argv[2], sys.argv[3]))
