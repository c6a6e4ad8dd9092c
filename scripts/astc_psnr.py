#!/usr/bin/env python3
"""PSNR of the ASTC encoders on test pictures (docs/encoding.md): the default build's built-in
encoder (Intel ISPC via intel_tex_2) against ARM's astcenc (nvsurf-cli --features astcenc).

    python3 scripts/astc_psnr.py DEFAULT_NVSURF ASTCENC_NVSURF

Each picture is made here (pure Python, deterministic) except source.png, the ASTC test
picture in crates/nvsurf/tests/data/astc. Each binary encodes it with `convert` to blocks and
decodes the blocks back to PNG; the PSNR over R, G, B, A is computed here.
"""
import math, os, struct, subprocess, sys, tempfile, zlib

def write_png(path, w, h, px):
    raw = b"".join(b"\0" + bytes(px[y * w * 4:(y + 1) * w * 4]) for y in range(h))
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))

def read_png(path):
    data = open(path, "rb").read()
    at, idat, w = 8, b"", 0
    while at < len(data):
        n, t = struct.unpack(">I4s", data[at:at + 8])
        if t == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", data[at + 8:at + 18])
            assert (depth, ctype) == (8, 6), "RGBA8 PNGs only"
        elif t == b"IDAT":
            idat += data[at + 8:at + 8 + n]
        at += 12 + n
    raw, out, stride, prev = zlib.decompress(idat), bytearray(), w * 4, bytearray(w * 4)
    for y in range(h):
        ft, row = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = row[i - 4] if i >= 4 else 0
            b, c = prev[i], (prev[i - 4] if i >= 4 else 0)
            if ft == 1: row[i] = (row[i] + a) & 255
            elif ft == 2: row[i] = (row[i] + b) & 255
            elif ft == 3: row[i] = (row[i] + (a + b) // 2) & 255
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out += row
        prev = row
    return w, h, out

def pictures():
    def make(name, w, h, f):
        return name, w, h, bytearray(v for y in range(h) for x in range(w) for v in f(x, y))
    seed = [12345]
    def rnd():
        seed[0] = (seed[0] * 1103515245 + 12345) & 0x7fffffff
        return seed[0] >> 16
    clamp = lambda v: max(0, min(255, int(v)))
    yield make("smooth 256x256 (sines)", 256, 256, lambda x, y: (
        clamp(128 + 100 * math.sin(x / 17.0) * math.cos(y / 23.0)),
        clamp(128 + 90 * math.sin((x + y) / 31.0)), clamp(x * 255 // 256), 255))
    yield make("gradient+noise 250x250", 250, 250, lambda x, y: (
        clamp(x + rnd() % 13 - 6), clamp(y + rnd() % 13 - 6), clamp((x + y) // 2 + rnd() % 13 - 6), 255))
    yield make("alpha 200x136", 200, 136, lambda x, y: (
        clamp(128 + 120 * math.sin(x / 9.0)), clamp(y * 255 // 136), clamp(200 - x), clamp(255 - y)))

def psnr(a, b):
    mse = sum((x - y) ** 2 for x, y in zip(a, b)) / len(a)
    return float("inf") if mse == 0 else 10 * math.log10(255 * 255 / mse)

def round_trip(nvsurf, fmt, src, w, h, tmp):
    blocks, back = os.path.join(tmp, "b.bin"), os.path.join(tmp, "back.png")
    for args in (["convert", "--format", fmt, "--input", src, "--output", blocks],
                 ["convert", "--format", fmt, "--size", f"{w}x{h}", "--input", blocks, "--output", back]):
        r = subprocess.run([nvsurf, "--force"] + args, capture_output=True, text=True)
        if r.returncode != 0:
            return None
    return read_png(back)[2]

def main():
    ours, ref = sys.argv[1], sys.argv[2]
    here = os.path.dirname(os.path.abspath(__file__))
    tmp = tempfile.mkdtemp()
    pics = []
    for name, w, h, px in pictures():
        path = os.path.join(tmp, name.split()[0] + ".png")
        write_png(path, w, h, px)
        pics.append((name, path))
    pics.append(("source.png 36x30 (test data)", os.path.join(here, "../crates/nvsurf/tests/data/astc/source.png")))
    print("| picture | footprint | built-in (ISPC) dB | astcenc medium dB | difference |")
    print("|---|---|---|---|---|")
    for name, path in pics:
        w, h, src = read_png(path)
        for fp in ["4x4", "5x4", "5x5", "6x5", "6x6", "8x5", "8x6", "8x8"]:
            a = round_trip(ours, "astc_" + fp, path, w, h, tmp)
            b = round_trip(ref, "astc_" + fp, path, w, h, tmp)
            pa, pb = psnr(src, a), psnr(src, b)
            print(f"| {name} | {fp} | {pa:.2f} | {pb:.2f} | {pa - pb:+.2f} |", flush=True)

main()
