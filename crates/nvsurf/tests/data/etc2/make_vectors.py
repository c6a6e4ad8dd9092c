"""ETC2/EAC test vectors for tests/etc2_vectors.rs.

Blocks: encoded by etcpak (the PyPI package `etcpak` 0.9.15, a wrapper of Bartosz Taudul's
etcpak) from a synthetic 36x32 picture. Expected pixels: decoded by the reference decoder
below, written for this test from the Khronos Data Format Specification 1.3, section
"ETC2 Compressed Texture Image Formats" (ETC1/ETC2 individual, differential, T, H and planar
modes; the EAC alpha of RGBA8; R11/RG11 EAC unsigned and signed). It shares no code with the
decoders under test (texture2ddecoder for ETC2, nvsurf's own EAC).

Run: python3 make_vectors.py  (needs `pip install etcpak`). Writes, per case, NAME.blocks (the
blocks, row by row) and NAME.expect (RGBA8 pixels row by row, or for EAC one little-endian
int16 per channel: the 11-bit value, signed for the snorm cases).
"""
import math
import random
import struct

W, H = 36, 32

ETC1_MOD = [[2, 8], [5, 17], [9, 29], [13, 42], [18, 60], [24, 80], [33, 106], [47, 183]]
T_DIST = [3, 6, 11, 16, 23, 32, 41, 64]
EAC_MOD = [
    [-3, -6, -9, -15, 2, 5, 8, 14], [-3, -7, -10, -13, 2, 6, 9, 12], [-2, -5, -8, -13, 1, 4, 7, 12],
    [-2, -4, -6, -13, 1, 3, 5, 12], [-3, -6, -8, -12, 2, 5, 7, 11], [-3, -7, -9, -11, 2, 6, 8, 10],
    [-4, -7, -8, -11, 3, 6, 7, 10], [-3, -5, -8, -11, 2, 4, 7, 10], [-2, -6, -8, -10, 1, 5, 7, 9],
    [-2, -5, -8, -10, 1, 4, 7, 9], [-2, -4, -8, -10, 1, 3, 7, 9], [-2, -5, -7, -10, 1, 4, 6, 9],
    [-3, -4, -7, -10, 2, 3, 6, 9], [-1, -2, -3, -10, 0, 1, 2, 9], [-4, -6, -8, -9, 3, 5, 7, 8],
    [-3, -5, -7, -9, 2, 4, 6, 8],
]


def clamp(v, lo=0, hi=255):
    return max(lo, min(hi, v))


def bits(v, hi, lo):
    return (v >> lo) & ((1 << (hi - lo + 1)) - 1)


def ext4(x):
    return x * 17


def ext5(x):
    return (x << 3) | (x >> 2)


def ext6(x):
    return (x << 2) | (x >> 4)


def ext7(x):
    return (x << 1) | (x >> 6)


def signed3(x):
    return x - 8 if x >= 4 else x


def etc2_rgb(block, punch=False):
    """One 8-byte ETC2 RGB block -> 16 (r, g, b), row-major. With `punch` (RGB8A1): 16
    (r, g, b, a); bit 33 is then the opaque flag and the mode always differential-based;
    without opaque, index 2 is transparent black (T, H, differential) and the differential
    modifiers of indices 0 and 2 are 0. Planar blocks are always opaque."""
    v = int.from_bytes(block, "big")
    out = [None] * 16
    idx = [((bits(v, 16 + i, 16 + i) << 1) | bits(v, i, i)) for i in range(16)]  # pixel i = x*4+y
    diff, flip = bits(v, 33, 33), bits(v, 32, 32)
    opaque = True
    if punch:
        opaque, diff = bool(diff), 1
    if punch:
        rgb = etc2_rgb_modes(v, idx, diff, flip, opaque)
        out = []
        for i, p in enumerate(rgb):
            out.append(p if len(p) == 4 else p + (255,))
        return out
    return etc2_rgb_modes(v, idx, diff, flip, True)


def etc2_rgb_modes(v, idx, diff, flip, opaque):
    out = [None] * 16
    clear = (0, 0, 0, 0)
    if diff:
        r, g, b = bits(v, 63, 59), bits(v, 55, 51), bits(v, 47, 43)
        r2, g2, b2 = r + signed3(bits(v, 58, 56)), g + signed3(bits(v, 50, 48)), b + signed3(bits(v, 42, 40))
        if not 0 <= r2 <= 31:  # T mode
            c1 = [ext4((bits(v, 60, 59) << 2) | bits(v, 57, 56)), ext4(bits(v, 55, 52)), ext4(bits(v, 51, 48))]
            c2 = [ext4(bits(v, 47, 44)), ext4(bits(v, 43, 40)), ext4(bits(v, 39, 36))]
            d = T_DIST[(bits(v, 35, 34) << 1) | bits(v, 32, 32)]
            paint = [c1, [clamp(c + d) for c in c2], c2, [clamp(c - d) for c in c2]]
            for i in range(16):
                out[(i % 4) * 4 + i // 4] = clear if (not opaque and idx[i] == 2) else tuple(paint[idx[i]])
            return out
        if not 0 <= g2 <= 31:  # H mode
            r1, g1 = bits(v, 62, 59), (bits(v, 58, 56) << 1) | bits(v, 52, 52)
            b1 = (bits(v, 51, 51) << 3) | bits(v, 49, 47)
            r2_, g2_, b2_ = bits(v, 46, 43), bits(v, 42, 39), bits(v, 38, 35)
            c1 = [ext4(r1), ext4(g1), ext4(b1)]
            c2 = [ext4(r2_), ext4(g2_), ext4(b2_)]
            di = (bits(v, 34, 34) << 2) | (bits(v, 32, 32) << 1)
            if (c1[0] << 16 | c1[1] << 8 | c1[2]) >= (c2[0] << 16 | c2[1] << 8 | c2[2]):
                di |= 1
            d = T_DIST[di]
            paint = [[clamp(c + d) for c in c1], [clamp(c - d) for c in c1],
                     [clamp(c + d) for c in c2], [clamp(c - d) for c in c2]]
            for i in range(16):
                out[(i % 4) * 4 + i // 4] = clear if (not opaque and idx[i] == 2) else tuple(paint[idx[i]])
            return out
        if not 0 <= b2 <= 31:  # planar mode
            ro, go = ext6(bits(v, 62, 57)), ext7((bits(v, 56, 56) << 6) | bits(v, 54, 49))
            bo = ext6((bits(v, 48, 48) << 5) | (bits(v, 44, 43) << 3) | bits(v, 41, 39))
            rh, gh, bh = ext6((bits(v, 38, 34) << 1) | bits(v, 32, 32)), ext7(bits(v, 31, 25)), ext6(bits(v, 24, 19))
            rv, gv, bv = ext6(bits(v, 18, 13)), ext7(bits(v, 12, 6)), ext6(bits(v, 5, 0))
            for y in range(4):
                for x in range(4):
                    out[y * 4 + x] = tuple(clamp((x * (h - o) + y * (vv - o) + 4 * o + 2) >> 2)
                                           for o, h, vv in ((ro, rh, rv), (go, gh, gv), (bo, bh, bv)))
            return out
        base = [[ext5(r), ext5(g), ext5(b)], [ext5(r2), ext5(g2), ext5(b2)]]
    else:
        base = [[ext4(bits(v, 63, 60)), ext4(bits(v, 55, 52)), ext4(bits(v, 47, 44))],
                [ext4(bits(v, 59, 56)), ext4(bits(v, 51, 48)), ext4(bits(v, 43, 40))]]
    tables = [bits(v, 39, 37), bits(v, 36, 34)]
    for i in range(16):
        x, y = i // 4, i % 4
        sub = (y >= 2) if flip else (x >= 2)
        a, b_ = ETC1_MOD[tables[sub]]
        if not opaque and idx[i] == 2:
            out[y * 4 + x] = clear
            continue
        if not opaque:
            a = 0
        m = [a, b_, -a, -b_][idx[i]]
        out[y * 4 + x] = tuple(clamp(c + m) for c in base[sub])
    return out


def eac_alpha8(block):
    v = int.from_bytes(block, "big")
    base, mult, table = bits(v, 63, 56), bits(v, 55, 52), EAC_MOD[bits(v, 51, 48)]
    out = [0] * 16
    for i in range(16):
        out[(i % 4) * 4 + i // 4] = clamp(base + table[bits(v, 47 - 3 * i, 45 - 3 * i)] * mult)
    return out


def eac_r11(block, signed):
    v = int.from_bytes(block, "big")
    mult, table = bits(v, 55, 52), EAC_MOD[bits(v, 51, 48)]
    base = bits(v, 63, 56)
    if signed:
        base = max(base - 256 if base >= 128 else base, -127)
    out = [0] * 16
    for i in range(16):
        m = table[bits(v, 47 - 3 * i, 45 - 3 * i)]
        if signed:
            val = base * 8 + (m * mult * 8 if mult else m)
            val = clamp(val, -1023, 1023)
        else:
            val = base * 8 + 4 + (m * mult * 8 if mult else m)
            val = clamp(val, 0, 2047)
        out[(i % 4) * 4 + i // 4] = val
    return out


def picture():
    random.seed(30)
    px = []
    for y in range(H):
        for x in range(W):
            r, g = x * 255 // (W - 1), y * 255 // (H - 1)
            b = int(127 + 127 * math.sin((x + 2 * y) / 4.0))
            a = 255 if (x // 4 + y // 4) % 3 else 40 + (x * 13 + y * 7) % 200
            if (x * 5 + y * 3) % 17 < 3:
                r, g, b = random.randrange(256), random.randrange(256), random.randrange(256)
            if 20 <= x < 28 and 8 <= y < 16:  # flat and two-tone areas (T/H/planar candidates)
                r, g, b = (200, 40, 40) if (x + y) % 2 else (40, 40, 200)
            px.append((r, g, b, a))
    return px


def blocks_of(data, size):
    return [data[i:i + size] for i in range(0, len(data), size)]


def place(blocks, decode, per_block_px):
    """Decoded blocks (row-major 4x4 each) into a row-major picture."""
    out = [None] * (W * H)
    bx = W // 4
    for n, blk in enumerate(blocks):
        vals = decode(blk)
        for i in range(16):
            x, y = (n % bx) * 4 + i % 4, (n // bx) * 4 + i // 4
            out[y * W + x] = vals[i]
    return out


def main():
    import etcpak

    px = picture()
    rgba = bytes(c for p in px for c in p)
    cases = []
    rgb_blocks = etcpak.compress_to_etc2(rgba, W, H)
    cases.append(("etc2_rgb", rgb_blocks, 8, lambda b: [p + (255,) for p in etc2_rgb(b)], "rgba8"))
    # Any 8 bytes are an RGB8A1 block: the RGB8 blocks read as punch-through (bit 33, the
    # differential bit there, is the opaque flag here), so some blocks have transparent pixels.
    cases.append(("etc2_rgb8a1", rgb_blocks, 8, lambda b: etc2_rgb(b, punch=True), "rgba8"))
    rgba_blocks = etcpak.compress_etc2_rgba(rgba, W, H)
    cases.append(("etc2_rgba", rgba_blocks, 16,
                  lambda b: [p + (a,) for p, a in zip(etc2_rgb(b[8:]), eac_alpha8(b[:8]))], "rgba8"))
    rg_blocks = etcpak.compress_eac_rg(rgba, W, H)
    assert len(rg_blocks) == W * H, "RG11: 16 bytes per 4x4 block"
    r_blocks = b"".join(b[:8] for b in blocks_of(rg_blocks, 16))
    for signed in (False, True):
        s = "_snorm" if signed else ""
        cases.append(("eac_r11" + s, r_blocks, 8, lambda b, s=signed: [(v,) for v in eac_r11(b, s)], "i16"))
        cases.append(("eac_rg11" + s, rg_blocks, 16,
                      lambda b, s=signed: list(zip(eac_r11(b[:8], s), eac_r11(b[8:], s))), "i16"))
    for name, blocks, size, decode, kind in cases:
        pic = place(blocks_of(blocks, size), decode, 16)
        if kind == "rgba8":
            expect = bytes(c for p in pic for c in p)
        else:
            expect = b"".join(struct.pack("<h", c) for p in pic for c in p)
        if not name.endswith("_snorm") and name != "etc2_rgb8a1":
            open(name + ".blocks", "wb").write(blocks)
        open(name + ".expect", "wb").write(expect)
        print(name, len(blocks), len(expect))


if __name__ == "__main__":
    main()
