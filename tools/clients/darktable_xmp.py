"""XMP sidecar for darktable-cli with a history of OpenCL-capable modules (docs/clients.md,
darktable).   python3 darktable_xmp.py DATA_DB OUT.xmp

The modules' parameters are darktable's own built-in presets, read from the presets table of
DATA_DB (a configdir's data.db, written by any darktable-cli run); the lowpass preset is
a mild bilateral-grid blur (radius 4, contrast and saturation 1)."""
import sqlite3, struct, sys

HISTORY = [  # (operation, preset name, multi_priority, parameter bytes rewritten or None)
    ('exposure', 'scene-referred default', 0, None),
    ('denoiseprofile', 'wavelets: chroma only', 0, None),
    ('channelmixerrgb', 'basic channel mixer', 0, None),
    ('toneequal', 'compress shadows/highlights (eigf): medium', 0, None),
    ('atrous', 'clarity', 0, None),
    ('diffuse', 'fast sharpness', 0, None),
    ('bilat', 'clarity', 0, None),
    # order 0, radius 4, contrast 1, brightness 0, saturation 1, bilateral, unbound
    ('lowpass', 'local contrast mask', 0, struct.pack('<iffffii', 0, 4.0, 1.0, 0.0, 1.0, 1, 1)),
    ('colorbalancergb', 'basic colorfulness: vibrant colors', 0, None),
    ('sigmoid', 'neutral gray', 0, None),
    ('rgbcurve', 'contrast - med (linear)', 0, None),
    ('sharpen', 'sharpen', 0, None),
    ('vignette', 'lomo', 0, None),
]


def main(db, out):
    c = sqlite3.connect(db)
    items = []
    for n, (op, name, prio, params) in enumerate(HISTORY):
        row = c.execute('select op_version, op_params, blendop_version, blendop_params '
                        'from presets where operation = ? and name = ?', (op, name)).fetchone()
        if row is None:
            raise SystemExit('no preset %s / %s in %s' % (op, name, db))
        ver, p, bver, bp = row
        if params is not None:
            p = params
        items.append('''     <rdf:li
      darktable:num="%d"
      darktable:operation="%s"
      darktable:enabled="1"
      darktable:modversion="%d"
      darktable:params="%s"
      darktable:multi_name="%s"
      darktable:multi_priority="%d"
      darktable:blendop_version="%d"
      darktable:blendop_params="%s"/>''' % (n, op, ver, p.hex(), str(prio) if prio else '', prio,
                                            bver, bp.hex()))
    open(out, 'w').write('''<?xml version="1.0" encoding="UTF-8"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:darktable="http://darktable.sf.net/"
    darktable:xmp_version="4"
    darktable:raw_params="0"
    darktable:auto_presets_applied="1"
    darktable:history_end="%d"
    darktable:iop_order_version="2">
   <darktable:history>
    <rdf:Seq>
%s
    </rdf:Seq>
   </darktable:history>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
''' % (len(items), '\n'.join(items)))


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
