"""examples/python/find_and_show.py on generated data: a smooth picture tiled as a Switch
would, found again, untiled and saved as a PNG that decodes back to the picture."""

import struct
import subprocess
import sys
import zlib

import numpy as np

import nvsurf
from conftest import ROOT

SCRIPT = ROOT / "examples" / "python" / "find_and_show.py"


def read_png_rgba8(data: bytes) -> np.ndarray:
    """A minimal reader for what the example's fallback writer (or Pillow) writes: 8-bit RGBA."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, colour = struct.unpack(">IIBB", body[:10])
            assert (depth, colour) == (8, 6)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(h, 1 + 4 * w)
    out = np.zeros((h, 4 * w), dtype=np.int32)
    for y in range(h):  # undo the row filters (0 none, 1 sub, 2 up, 3 average, 4 paeth)
        f, row = raw[y, 0], raw[y, 1:].astype(np.int32)
        prev = out[y - 1] if y else np.zeros(4 * w, np.int32)
        cur = np.zeros(4 * w, np.int32)
        for i in range(4 * w):
            a = cur[i - 4] if i >= 4 else 0
            b, c = prev[i], (prev[i - 4] if i >= 4 else 0)
            if f == 0:
                p = 0
            elif f == 1:
                p = a
            elif f == 2:
                p = b
            elif f == 3:
                p = (a + b) // 2
            else:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                p = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            cur[i] = (row[i] + p) & 0xFF
        out[y] = cur
    return out.astype(np.uint8).reshape(h, w, 4)


def test_find_and_show_recovers_the_picture(tmp_path):
    w, h = 96, 64
    y, x = np.mgrid[0:h, 0:w]
    picture = np.stack([x * 2, y * 3, (x + y), np.full_like(x, 255)], axis=-1).astype(np.uint8)
    tex = nvsurf.Texture("switch", format="RGBA8_UNORM", size=(w, h))
    dump = np.concatenate([np.zeros(1024, np.uint8), tex.tile(picture.ravel())])
    dump_path, png = tmp_path / "dump.bin", tmp_path / "found.png"
    dump.tofile(dump_path)
    out = subprocess.run(
        [sys.executable, str(SCRIPT), str(dump_path), "--gpu", "switch", "--format", "RGBA8_UNORM",
         "--size", f"{w}x{h}", "--offset", "1024", "--output", str(png)],
        capture_output=True, text=True, cwd=tmp_path, check=False,
    )
    assert out.returncode == 0, out.stderr
    assert "best: blocklinear tegra" in out.stdout and "--gpu switch --format RGBA8_UNORM" in out.stdout
    assert np.array_equal(read_png_rgba8(png.read_bytes()), picture)
