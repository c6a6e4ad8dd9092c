#!/usr/bin/env python3
"""Our reading of Mesa nil's image layout, written independently of the Rust model, and the
vectors it gives for random images (`crates/nvsurf/tests/data/texture/nvk_vectors.txt`, which
`crates/nvsurf/tests/nvk_vectors.rs` compares `--block-policy nvk` with).

Read from Mesa `src/nouveau/nil/image.rs` (`Image::new_tiled`, `SampleLayout`) and
`src/nouveau/nil/tiling.rs` (`Tiling::choose`, `Tiling::clamp`, `Tiling::sparse`,
`sparse_block_extent_el`) at commit 157fa86f6d5def2bec5c91f33be70c138250ab7f. The rules, in
our words:

- Samples 1, 2, 4, 8, 16 are grids of 1x1, 2x1, 2x2, 4x2, 4x4 samples per pixel.
- An extent in pixels goes to bytes as: times the sample grid, divided (rounding up) by the
  format's block in texels, the width times the element size.
- The block asked for: sparse images take the standard sparse block (64 KiB of elements) in
  gobs of 64 bytes x 8 rows; otherwise 2D images take a block height from the pixel height
  (86+: 16 gobs, 43+: 8, 22+: 4, 11+: 2, else 1), 3D images a block depth from the pixel depth
  (11+: 16, 6+: 8, 3+: 4, 2: 2), 1D images one gob; then clamped to level 0.
- Clamp to an extent in bytes: the width goes to one gob if the extent is smaller than the
  block in any dimension; the height and depth are capped at ceil(log2(extent in gobs)).
- Each level (pixels halved per level, at least 1) clamps the block, is aligned up to its
  block and follows the previous level; the first level whose block changed starts the mip
  tail (sparse images only).
- The layer stride is the layer rounded up to level 0's block; the size is the stride times
  the layers; the alignment is level 0's block, at least 64 KiB when sparse, at least 4 KiB;
  the size is rounded up to the alignment.

Run: python3 scripts/nil_reading.py > crates/nvsurf/tests/data/texture/nvk_vectors.txt
"""

import random

GRID = {1: (1, 1), 2: (2, 1), 4: (2, 2), 8: (4, 2), 16: (4, 4)}
SPARSE_2D = {1: (256, 256, 1), 2: (256, 128, 1), 4: (128, 128, 1), 8: (128, 64, 1), 16: (64, 64, 1)}
SPARSE_3D = {1: (64, 32, 32), 2: (32, 32, 32), 4: (32, 32, 16), 8: (32, 16, 16), 16: (16, 16, 16)}
GOB = (64, 8, 1)
# One chip per generation, Maxwell to Blackwell.
GPUS = ["gm204", "gp104", "gv100", "tu102", "ga102", "ad102", "gh100", "gb202"]


def ceil_div(a, b):
    return -(-a // b)


def log2_ceil(v):
    return 0 if v <= 1 else (v - 1).bit_length()


def to_bytes(px, el_size, blk, samples):
    sw, sh = GRID[samples]
    w, h, d = px
    return (ceil_div(w * sw, blk[0]) * el_size, ceil_div(h * sh, blk[1]), d)


def clamp(tiling, ext):
    x, y, z = tiling
    tile = (GOB[0] << x, GOB[1] << y, GOB[2] << z)
    if any(e < t for e, t in zip(ext, tile)):
        x = 0
    gobs_h = ceil_div(ext[1], GOB[1])
    return (x, min(y, log2_ceil(gobs_h)), min(z, log2_ceil(ext[2])))


def threshold(v, steps):
    for log2, at_least in steps:
        if v >= at_least:
            return log2
    return 0


def choose(dim, px, el_size, blk, samples, sparse):
    if sparse:
        w, h, d = (SPARSE_3D if dim == "3d" else SPARSE_2D)[el_size]
        gobs = (w * el_size // GOB[0], h // GOB[1], d)
        return tuple(g.bit_length() - 1 for g in gobs)
    x = y = z = 0
    if dim == "2d":
        y = threshold(px[1], [(4, 86), (3, 43), (2, 22), (1, 11)])
    elif dim == "3d":
        z = threshold(px[2], [(4, 11), (3, 6), (2, 3), (1, 2)])
    return clamp((x, y, z), to_bytes(px, el_size, blk, samples))


def image(dim, px, el_size, blk, levels, layers, samples, sparse):
    tiling = choose(dim, px, el_size, blk, samples, sparse)
    tail = levels
    offset = 0
    out = []
    for level in range(levels):
        lpx = tuple(max(1, v >> level) for v in px)
        ext = to_bytes(lpx, el_size, blk, samples)
        lt = clamp(tiling, ext)
        if lt != tiling:
            tail = min(tail, level)
        tile = (GOB[0] << lt[0], GOB[1] << lt[1], GOB[2] << lt[2])
        aligned = tuple(ceil_div(e, t) * t for e, t in zip(ext, tile))
        out.append((offset, lt, aligned[0]))
        offset += aligned[0] * aligned[1] * aligned[2]
    lvl0_tile = 512 << sum(out[0][1])
    stride = ceil_div(offset, lvl0_tile) * lvl0_tile
    align = max(lvl0_tile, 1 << 16 if sparse else 0, 4096)
    size = ceil_div(stride * layers, align) * align
    return out, stride, size, align, (tail if sparse else None)


def random_image(rng):
    kind = rng.choice(["plain", "plain", "msaa", "sparse"])
    dim = rng.choice(["1d", "2d", "2d_array", "cube", "3d"] if kind == "plain" else ["2d", "2d_array"])
    if kind == "sparse":
        dim = rng.choice(["2d", "2d_array", "3d"])
    formats = [(1, (1, 1)), (2, (1, 1)), (4, (1, 1)), (8, (1, 1)), (16, (1, 1))]
    if kind == "plain" and dim != "1d":
        formats += [(8, (4, 4)), (16, (4, 4))]
    el_size, blk = rng.choice(formats)
    side = lambda: rng.choice([1, 2, 3, 5, 7, 8, 13, 16, 31, 64, 100, 129, 256, 300, 513, 1000, 2048, 4097])
    w = side()
    h = 1 if dim == "1d" else (w if dim == "cube" else side())
    d = rng.choice([1, 2, 3, 5, 6, 11, 16, 40]) if dim == "3d" else 1
    samples = rng.choice([2, 4, 8, 16]) if kind == "msaa" else 1
    layers = {"cube": 6 * rng.choice([1, 1, 2]), "2d_array": rng.choice([1, 2, 3, 7])}.get(dim, 1)
    if dim == "cube" and layers > 6:
        dim = "cube_array"
    max_levels = max(w, h, d).bit_length()
    levels = 1 if kind == "msaa" else rng.randint(1, max_levels)
    return dim, (w, h, d), el_size, blk, levels, layers, samples, kind == "sparse"


def main():
    rng = random.Random(40)
    print("# Our reading of Mesa nil (scripts/nil_reading.py, seed 40): 200 random images per GPU.")
    print("# gpu type elem_size block_w block_h w h d levels layers samples sparse | "
          "per level offset:x,y,z:row_bytes | layer_stride size align mip_tail_first_level")
    for gpu in GPUS:
        for _ in range(200):
            dim, px, el_size, blk, levels, layers, samples, sparse = random_image(rng)
            lv, stride, size, align, tail = image(
                "3d" if dim == "3d" else ("1d" if dim == "1d" else "2d"), px, el_size, blk, levels, layers, samples, sparse
            )
            head = f"{gpu} {dim} {el_size} {blk[0]} {blk[1]} {px[0]} {px[1]} {px[2]} {levels} {layers} {samples} {int(sparse)}"
            body = " ".join(f"{o}:{t[0]},{t[1]},{t[2]}:{r}" for o, t, r in lv)
            print(f"{head} | {body} | {stride} {size} {align} {'-' if tail is None else tail}")


if __name__ == "__main__":
    main()
