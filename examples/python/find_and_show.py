#!/usr/bin/env python3
"""A reverse engineer's script: which layout does this dump hold? Load it, guess the layout,
untile it with the best candidate and save a PNG (Pillow if installed, else a small PNG
writer with zlib).

    python examples/python/find_and_show.py DUMP --gpu gm20b --format RGBA8_UNORM --size 640x360 \\
        [--offset BYTES] [--output out.png] [--top 5]
"""

import argparse
import struct
import sys
import zlib

import numpy as np

import nvsurf


def save_png(path: str, rgba: np.ndarray) -> None:
    """Writes an (h, w, 4) uint8 array as an 8-bit RGBA PNG."""
    try:
        from PIL import Image
    except ImportError:
        h, w, _ = rgba.shape
        rows = b"".join(b"\x00" + rgba[y].tobytes() for y in range(h))  # filter 0 on each row

        def chunk(kind: bytes, data: bytes) -> bytes:
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

        png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
        png += chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b"")
        with open(path, "wb") as f:
            f.write(png)
    else:
        Image.fromarray(rgba, "RGBA").save(path)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dump")
    ap.add_argument("--gpu", required=True, help="chip or preset (gm20b, switch, gh100, ...), or any")
    ap.add_argument("--format", required=True)
    ap.add_argument("--size", required=True, help="WxH in pixels")
    ap.add_argument("--offset", type=int, default=0)
    ap.add_argument("--output", default="found.png")
    ap.add_argument("--top", type=int, default=5)
    a = ap.parse_args(argv)
    w, h = (int(v) for v in a.size.lower().split("x"))

    dump = np.fromfile(a.dump, dtype=np.uint8)
    cands = nvsurf.guess(a.gpu, format=a.format, size=(w, h), data=dump, offset=a.offset)
    for c in cands[: a.top]:
        score = "too short" if c["roughness"] is None else f"{c['roughness']:.3f}"
        print(f"{c['rank']:>3} {score:>10}  {c['label']:<32} nvsurf untile {c['flags']}")
    best = next((c for c in cands if c["fits"] and not c["flat"]), None)
    if best is None:
        print("no candidate fits the dump with a picture in it", file=sys.stderr)
        return 1
    linear = nvsurf.untile_surface(
        best["gpu"],
        dump,
        format=a.format,
        size=(w, h),
        layout=best["layout"],
        block_log2=best["block_log2"],
        auto_size=False if best["block_log2"] else None,
        gob=best["gob_order"],
        pitch=best["pitch_bytes"],
        offset=best["offset_bytes"],
    )
    rgba = nvsurf.decode(a.format, linear, (w, h))
    if rgba.dtype != np.uint8:  # float formats: clamp to [0, 1] for the picture
        rgba = (np.clip(np.nan_to_num(rgba), 0.0, 1.0) * 255 + 0.5).astype(np.uint8)
    save_png(a.output, rgba)
    print(f"best: {best['label']} ({best['gpu']}); wrote {a.output} ({w}x{h})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
