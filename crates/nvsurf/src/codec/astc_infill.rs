//! Per-texel work of the ASTC decoder (`astc`): the weight infill from the weight grid to the
//! footprint, and the partition of each texel. Khronos Data Format Specification 1.3, "ASTC
//! Compressed Texture Image Formats", subsections "Weight Infill" and "Partition Pattern
//! Generation".

use super::astc_tables::AXIS;

/// The most texels of a footprint (12x12).
pub(super) const MAX_TEXELS: usize = 144;

/// True when footprint side `n` (at most 12) with a grid of the same side maps texel `s` to
/// grid point `s` (fraction 0): the infill is then a copy. True for every side of the 14
/// footprints (4, 5, 6, 8, 10, 12).
fn identity(n: usize) -> bool {
    AXIS[n][n].iter().take(n).enumerate().all(|(s, &g)| usize::from(g) == 16 * s)
}

/// The weights of one plane (`grid`, `gw` x `gh`, row-major) at the `bw` x `bh` texels of the
/// footprint (`out`, row-major): "Weight Infill", bilinear in sixteenths,
/// `(p00 w00 + p01 w01 + p10 w10 + p11 w11 + 8) >> 4` with `w11 = (fs ft + 8) >> 4`. A grid
/// point past the last column or row only ever gets weight 0 (see [`AXIS`]); it is read
/// clamped to the grid. Sides are at most 12, the grid no larger than the footprint.
///
/// Each grid row is gathered once (or twice) to the footprint's columns (`p` at `js` and at
/// `js + 1`); the sums then run over whole texel rows in 16-bit lanes.
#[inline(always)]
pub(super) fn infill(grid: &[u8; 64], (gw, gh): (usize, usize), (bw, bh): (usize, usize), out: &mut [u8; MAX_TEXELS]) {
    let (bw, bh, gw, gh) = (bw.clamp(1, 12), bh.min(12), gw.clamp(1, 12), gh.clamp(1, 12));
    let n = bw * bh;
    if gw == bw && gh == bh && n <= grid.len() && identity(bw) && identity(bh) {
        out[..n].copy_from_slice(&grid[..n]);
        return;
    }
    let (ax, ay) = (&AXIS[bw][gw], &AXIS[bh][gh]);
    let mut fs = [0u16; 16];
    let mut js = [0usize; 16];
    let mut js1 = [0usize; 16];
    for (((f, j), j1), &g) in fs.iter_mut().zip(js.iter_mut()).zip(js1.iter_mut()).zip(ax).take(bw) {
        let j0 = usize::from(g >> 4).min(gw - 1);
        (*f, *j, *j1) = (u16::from(g & 15), j0, (j0 + 1).min(gw - 1));
    }
    // Grid row `r` at the footprint's columns: at js, and at js + 1 (clamped).
    let gather = |r: usize| -> ([u16; 16], [u16; 16]) {
        let base = r.min(gh - 1) * gw;
        let (mut a, mut b) = ([0u16; 16], [0u16; 16]);
        for (((a, b), &j), &j1) in a.iter_mut().zip(b.iter_mut()).zip(&js).zip(&js1).take(bw) {
            *a = u16::from(grid[(base + j) & 63]);
            *b = u16::from(grid[(base + j1) & 63]);
        }
        (a, b)
    };
    let mut cur = None;
    let (mut top, mut bottom) = (([0u16; 16], [0u16; 16]), ([0u16; 16], [0u16; 16]));
    for (t, row) in out.chunks_exact_mut(bw).take(bh).enumerate() {
        let gt = u16::from(ay[t]);
        let (jt, ft) = (usize::from(gt >> 4), gt & 15);
        if cur != Some(jt) {
            top = if cur == Some(jt.wrapping_sub(1)) { bottom } else { gather(jt) };
            bottom = gather(jt + 1);
            cur = Some(jt);
        }
        let mut v = [0u16; 16];
        for (i, v) in v.iter_mut().enumerate() {
            let fs = fs[i];
            let w11 = (fs * ft + 8) >> 4;
            let (w01, w10, w00) = (fs - w11, ft - w11, 16 + w11 - fs - ft);
            *v = (top.0[i] * w00 + top.1[i] * w01 + bottom.0[i] * w10 + bottom.1[i] * w11 + 8) >> 4;
        }
        for (o, &v) in row.iter_mut().zip(&v) {
            *o = v as u8;
        }
    }
}

/// The hash of "Partition Pattern Generation" (`hash52`), in wrapping 32-bit arithmetic.
fn hash52(p: u32) -> u32 {
    let mut p = p;
    p ^= p >> 15;
    p = p.wrapping_sub(p << 17);
    p = p.wrapping_add(p << 7);
    p = p.wrapping_add(p << 4);
    p ^= p >> 5;
    p = p.wrapping_add(p << 16);
    p ^= p >> 7;
    p ^= p >> 3;
    p ^= p << 6;
    p ^= p >> 17;
    p
}

/// The partition of every texel of a `bw` x `bh` footprint (`out`, row-major) for partition
/// index `seed` (10 bits) and `count` partitions (2 to 4): "Partition Pattern Generation" in
/// 2D (z = 0). Texel coordinates are doubled in small footprints: fewer than 32 texels, as in
/// the `astc-decode` crate (the specification's "fewer than 31" is the same for the 14
/// footprints).
#[inline(always)]
pub(super) fn partitions(seed: u32, count: usize, (bw, bh): (usize, usize), out: &mut [u8; MAX_TEXELS]) {
    let seed = seed + (count as u32 - 1) * 1024;
    let rnum = hash52(seed);
    // seed1 ... seed8 of the specification: four bits each, squared, shifted by sh1 / sh2.
    let three = count == 3;
    let (sh1, sh2) = if seed & 1 != 0 {
        (if seed & 2 != 0 { 4 } else { 5 }, if three { 6 } else { 5 })
    } else {
        (if three { 6 } else { 5 }, if seed & 2 != 0 { 4 } else { 5 })
    };
    let s = |i: u32, sh: u32| {
        let v = (rnum >> (4 * i)) & 0xf;
        (v * v) >> sh
    };
    // Per partition: the x and y factors and the offset (a, b, c, d of the specification).
    let mut fx = [s(0, sh1), s(2, sh1), s(4, sh1), s(6, sh1)];
    let mut fy = [s(1, sh2), s(3, sh2), s(5, sh2), s(7, sh2)];
    let mut off = [rnum >> 14, rnum >> 10, rnum >> 6, rnum >> 2];
    // Partitions past the count read 0 (so they never win over partition 0).
    for p in count.min(4)..4 {
        (fx[p], fy[p], off[p]) = (0, 0, 0);
    }
    let scale = if bw * bh < 32 { 2 } else { 1 };
    // Modulo 64 only the low bits count: 16-bit wrapping arithmetic, 16 texels of a row at a
    // time, the x terms once a block (the loops vectorize).
    let mut vx = [[0u16; 16]; 4];
    for (p, v) in vx.iter_mut().enumerate() {
        for (x, v) in v.iter_mut().enumerate() {
            *v = (fx[p] * x as u32 * scale) as u16;
        }
    }
    for (t, row) in out.chunks_exact_mut(bw.clamp(1, 12)).take(bh).enumerate() {
        let y = t as u32 * scale;
        let mut v = [[0u16; 16]; 4];
        for ((v, vx), p) in v.iter_mut().zip(&vx).zip(0..) {
            let at_y = (fy[p] * y + off[p]) as u16;
            for (v, &x) in v.iter_mut().zip(vx) {
                *v = x.wrapping_add(at_y) & 0x3f;
            }
        }
        // The first partition with the largest value (the specification's a >= b, c, d, then
        // b >= c, d, then c >= d).
        let mut part = [0u16; 16];
        for (x, o) in part.iter_mut().enumerate() {
            let (a, b, c, d) = (v[0][x], v[1][x], v[2][x], v[3][x]);
            let m = a.max(b).max(c.max(d));
            *o = if a == m {
                0
            } else if b == m {
                1
            } else if c == m {
                2
            } else {
                3
            };
        }
        for (o, &p) in row.iter_mut().zip(&part) {
            *o = p as u8;
        }
    }
}
