//! Our own BC1-BC5 (S3TC/DXT and RGTC) block decoders: a fast path and, beside each, a safe
//! twin (`twin_*`: plain per-pixel arithmetic straight from the rule) that the tests compare it
//! with, and with the `bcdec_rs` crate the library used before, bit for bit.
//!
//! Sources: Microsoft, "Texture Block Compression in Direct3D 11" (BC1-BC5) and "Block
//! Compression (Direct3D 10)"; Khronos Data Format Specification 1.3, sections "S3TC
//! Compressed Texture Image Formats" (BC1-BC3) and "RGTC Compressed Texture Image Formats"
//! (BC4, BC5).
//!
//! The rules (those of the decoder the library used before, so every decode stays the same):
//! - BC1-BC3 colour: endpoints RGB565, little-endian; 2-bit indices, pixel `(x, y)` at bits
//!   `2 * (4y + x)` of the 32-bit word at byte 4. The palette is the endpoints and their
//!   mixes 2/3-1/3 and 1/3-2/3 (BC1 with `c0 > c1` as 16-bit numbers, and BC2/BC3 always), or
//!   the endpoints, their mean and transparent black (BC1 with `c0 <= c1`). Each value is the
//!   mix of the endpoint values as real numbers (`v / 31`, `v / 63`), times 255, rounded to
//!   nearest (halves up): `round(255 * (2 a + b) / 93)` for red and blue, `/ 189` for green.
//! - BC2 alpha: 4 bits a pixel, 64-bit little-endian, times 17.
//! - BC3 alpha: two 8-bit endpoints, 3-bit indices in the 48 bits after them; with
//!   `a0 > a1` six mixes `(w0 a0 + w1 a1 + 1) / 7` (integer division, `w0 + w1 = 7`), else four
//!   `(w0 a0 + w1 a1 + 1) / 5` and then 0 and 255.
//! - BC4/BC5 channels (RGTC), as floats: endpoints `e / 255` (unsigned) or `max(e / 127, -1)`
//!   (signed, `e` two's complement), mixes `(w0 a0 + w1 a1) / 7` (`a0 > a1`) or `/ 5` then
//!   0 (-1 signed) and 1, computed in f32 in that order. As bytes ([`rgtc_byte_palette`]),
//!   each of those floats clamped to [0, 1], times 255 and rounded: the same numbers as the
//!   exact rational `round(255 N / D)`, which is never a tie (checked exhaustively in tests).

/// `round(n / d)` for `n >= 0`, halves up.
const fn round_div(n: u32, d: u32) -> u32 {
    (2 * n + d) / (2 * d)
}

/// `T[s] = round(255 s / d)` for `s` in `0..N` (the colour mixes by their weighted sum).
const fn mix_table<const N: usize>(d: u32) -> [u8; N] {
    let mut t = [0u8; N];
    let mut s = 0;
    while s < N {
        t[s] = round_div(255 * s as u32, d) as u8;
        s += 1;
    }
    t
}

/// 5-bit channels: `2 a + b` (and `3 a`, an endpoint) to 8 bits.
static THIRDS5: [u8; 94] = mix_table::<94>(93);
/// 6-bit channels: `2 a + b` to 8 bits.
static THIRDS6: [u8; 190] = mix_table::<190>(189);
/// 5-bit channels: `a + b` (the mean) to 8 bits.
static HALVES5: [u8; 63] = mix_table::<63>(62);
/// 6-bit channels: `a + b` to 8 bits.
static HALVES6: [u8; 127] = mix_table::<127>(126);

/// One RGBA8 pixel as a little-endian word (alpha 255) from 8-bit R, G, B.
#[inline(always)]
fn word(r: u8, g: u8, b: u8) -> u32 {
    u32::from_le_bytes([r, g, b, 255])
}

/// The four-colour palette of a BC1-BC3 colour block (the first 4 bytes of `c`), as RGBA8
/// words; `opaque`: always the four-colour mode (BC2, BC3).
#[inline(always)]
pub(super) fn colour_palette(c: [u8; 4], opaque: bool) -> [u32; 4] {
    let c0 = u16::from_le_bytes([c[0], c[1]]) as usize;
    let c1 = u16::from_le_bytes([c[2], c[3]]) as usize;
    let (r0, g0, b0) = (c0 >> 11, (c0 >> 5) & 63, c0 & 31);
    let (r1, g1, b1) = (c1 >> 11, (c1 >> 5) & 63, c1 & 31);
    let t = |a: usize, b: usize| THIRDS5[2 * a + b];
    let t6 = |a: usize, b: usize| THIRDS6[2 * a + b];
    let e0 = word(t(r0, r0), t6(g0, g0), t(b0, b0));
    let e1 = word(t(r1, r1), t6(g1, g1), t(b1, b1));
    let p2 = word(t(r0, r1), t6(g0, g1), t(b0, b1));
    let p3 = word(t(r1, r0), t6(g1, g0), t(b1, b0));
    let mean = word(HALVES5[r0 + r1], HALVES6[g0 + g1], HALVES5[b0 + b1]);
    // Both modes are computed and one chosen without a branch (blocks mix both modes).
    let three = !opaque & (c0 <= c1);
    let m = 0u32.wrapping_sub(three as u32);
    [e0, e1, (mean & m) | (p2 & !m), p3 & !m]
}

/// The eight 8-bit BC3 alpha values of `a` (its first two bytes), packed little-endian.
#[inline(always)]
fn alpha_palette(a: [u8; 2]) -> u64 {
    let (a0, a1) = (a[0] as u32, a[1] as u32);
    let six = |w: u32| ((w * a0 + (7 - w) * a1 + 1) / 7) as u64;
    let four = |w: u32| ((w * a0 + (5 - w) * a1 + 1) / 5) as u64;
    let ends = a0 as u64 | (a1 as u64) << 8;
    let p6 = ends | six(6) << 16 | six(5) << 24 | six(4) << 32 | six(3) << 40 | six(2) << 48 | six(1) << 56;
    let p4 = ends | four(4) << 16 | four(3) << 24 | four(2) << 32 | four(1) << 40 | 0xff << 56;
    let m = 0u64.wrapping_sub((a0 > a1) as u64);
    (p6 & m) | (p4 & !m)
}

/// Writes four rows of four RGBA8 words at `pitch` bytes apart into `dst`. A `dst` too short
/// for a row (never from the library's callers) gets the rows that fit.
#[inline(always)]
fn put_rows(dst: &mut [u8], pitch: usize, rows: [[u32; 4]; 4]) {
    for (y, row) in rows.iter().enumerate() {
        let at = y * pitch;
        if let Some(d) = dst.get_mut(at..at + 16) {
            let mut b = [0u8; 16];
            for (o, w) in b.chunks_exact_mut(4).zip(row) {
                o.copy_from_slice(&w.to_le_bytes());
            }
            d.copy_from_slice(&b);
        }
    }
}

/// The colour rows of a colour block `c` (8 bytes): each pixel's palette word, ORed with
/// `alpha(i)` (pixel `i`'s alpha in bits 24-31, the palette's alpha cleared) when `alpha` is
/// given.
#[inline(always)]
fn colour_rows(c: &[u8], opaque: bool, alpha: Option<&dyn Fn(usize) -> u32>) -> [[u32; 4]; 4] {
    let pal = colour_palette([c[0], c[1], c[2], c[3]], opaque);
    let idx = u32::from_le_bytes([c[4], c[5], c[6], c[7]]);
    let mut rows = [[0u32; 4]; 4];
    for (i, p) in rows.as_flattened_mut().iter_mut().enumerate() {
        let w = pal[(idx >> (2 * i)) as usize & 3];
        *p = match alpha {
            Some(a) => (w & 0x00ff_ffff) | a(i),
            None => w,
        };
    }
    rows
}

/// A BC1 block (8 bytes) to RGBA8 rows, `pitch` bytes apart.
#[inline]
pub(crate) fn bc1_rgba8(src: &[u8], dst: &mut [u8], pitch: usize) {
    put_rows(dst, pitch, colour_rows(&src[..8], false, None));
}

/// A BC2 block (16 bytes) to RGBA8 rows, `pitch` bytes apart.
#[inline]
pub(crate) fn bc2_rgba8(src: &[u8], dst: &mut [u8], pitch: usize) {
    let a = u64::from_le_bytes(src[..8].try_into().unwrap_or([0; 8]));
    let alpha = |i: usize| (((a >> (4 * i)) as u32 & 15) * 17) << 24;
    put_rows(dst, pitch, colour_rows(&src[8..16], true, Some(&alpha)));
}

/// A BC3 block (16 bytes) to RGBA8 rows, `pitch` bytes apart.
#[inline]
pub(crate) fn bc3_rgba8(src: &[u8], dst: &mut [u8], pitch: usize) {
    let pal = alpha_palette([src[0], src[1]]);
    let idx = u64::from_le_bytes(src[..8].try_into().unwrap_or([0; 8])) >> 16;
    let alpha = |i: usize| ((pal >> (8 * ((idx >> (3 * i)) & 7))) as u32 & 0xff) << 24;
    put_rows(dst, pitch, colour_rows(&src[8..16], true, Some(&alpha)));
}

/// The eight values of one BC4 channel block (8 bytes) as floats, and its 48 index bits.
#[inline(always)]
fn rgtc_palette(b: &[u8], signed: bool) -> ([f32; 8], u64) {
    let (a0, a1) = if signed {
        ((b[0] as i8 as f32 / 127.0).max(-1.0), (b[1] as i8 as f32 / 127.0).max(-1.0))
    } else {
        (b[0] as f32 / 255.0, b[1] as f32 / 255.0)
    };
    let mut p = [a0, a1, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
    if a0 > a1 {
        for (k, w) in (2..8).zip([6.0f32, 5.0, 4.0, 3.0, 2.0, 1.0]) {
            p[k] = (w * a0 + (7.0 - w) * a1) / 7.0;
        }
    } else {
        for (k, w) in (2..6).zip([4.0f32, 3.0, 2.0, 1.0]) {
            p[k] = (w * a0 + (5.0 - w) * a1) / 5.0;
        }
        p[6] = if signed { -1.0 } else { 0.0 };
        p[7] = 1.0;
    }
    let idx = u64::from_le_bytes(b[..8].try_into().unwrap_or([0; 8])) >> 16;
    (p, idx)
}

/// A BC4 (`channels` 1) or BC5 (2) block to component registers: C0 (and C1) float bits,
/// C2 0, C3 `one`, for the 16 pixels of `out`.
#[inline]
pub(crate) fn rgtc_components(src: &[u8], channels: usize, signed: bool, out: &mut [[u32; 4]], one: u32) {
    for c in 0..channels {
        let (p, idx) = rgtc_palette(&src[8 * c..8 * c + 8], signed);
        for (i, o) in out.iter_mut().take(16).enumerate() {
            o[c] = p[(idx >> (3 * i)) as usize & 7].to_bits();
        }
    }
    for o in out.iter_mut().take(16) {
        if channels == 1 {
            o[1] = 0;
        }
        o[2] = 0;
        o[3] = one;
    }
}

/// The eight values of a BC4 channel block as bytes, packed little-endian: each value of the
/// float palette clamped to [0, 1], times 255, rounded; computed exactly in integers.
#[inline(always)]
pub(crate) fn rgtc_byte_palette(b: &[u8], signed: bool) -> u64 {
    if signed {
        byte_palette::<127>((b[0] as i8).max(-127) as i32, (b[1] as i8).max(-127) as i32)
    } else {
        byte_palette::<255>(b[0] as i32, b[1] as i32)
    }
}

/// [`rgtc_byte_palette`] of endpoints `e0`, `e1` that read `e / D` (a constant, so that the
/// divisions become multiplications).
#[inline(always)]
fn byte_palette<const D: u32>(e0: i32, e1: i32) -> u64 {
    // round(255 * max(n, 0) / (k * D)) for the weighted sum n of k parts.
    let byte = |n: i32, k: u32| round_div(255 * n.max(0) as u32, k * D) as u64;
    let ends = byte(e0, 1) | byte(e1, 1) << 8;
    let six = |w: i32| byte(w * e0 + (7 - w) * e1, 7);
    let four = |w: i32| byte(w * e0 + (5 - w) * e1, 5);
    let p6 = ends | six(6) << 16 | six(5) << 24 | six(4) << 32 | six(3) << 40 | six(2) << 48 | six(1) << 56;
    let p4 = ends | four(4) << 16 | four(3) << 24 | four(2) << 32 | four(1) << 40 | 0xff << 56;
    let m = 0u64.wrapping_sub((e0 > e1) as u64);
    (p6 & m) | (p4 & !m)
}

/// How a BC4/BC5 block becomes RGBA8 words: `base` (the constant channels' bytes) ORed with
/// channel C0's byte times `c0` and C1's times `c1` (each a sum of `1 << 8k` for the output
/// channels `k` that show it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RgtcRgba8 {
    /// The constant channels' bytes (the others 0).
    pub base: u32,
    /// `1 << 8k` for each output channel `k` showing C0.
    pub c0: u32,
    /// `1 << 8k` for each output channel `k` showing C1 (BC5).
    pub c1: u32,
    /// Signed (snorm) blocks.
    pub signed: bool,
}

/// A BC4 (`channels` 1) or BC5 (2) block to RGBA8 rows, `pitch` bytes apart, as `map` says.
#[inline]
pub(crate) fn rgtc_rgba8(src: &[u8], channels: usize, map: RgtcRgba8, dst: &mut [u8], pitch: usize) {
    let p0 = rgtc_byte_palette(&src[..8], map.signed);
    let i0 = u64::from_le_bytes(src[..8].try_into().unwrap_or([0; 8])) >> 16;
    let (p1, i1) = if channels == 2 {
        let p1 = rgtc_byte_palette(&src[8..16], map.signed);
        (p1, u64::from_le_bytes(src[8..16].try_into().unwrap_or([0; 8])) >> 16)
    } else {
        (0, 0)
    };
    let mut rows = [[0u32; 4]; 4];
    for (i, p) in rows.as_flattened_mut().iter_mut().enumerate() {
        let v0 = (p0 >> (8 * ((i0 >> (3 * i)) & 7))) as u32 & 0xff;
        let v1 = (p1 >> (8 * ((i1 >> (3 * i)) & 7))) as u32 & 0xff;
        *p = map.base | (v0 * map.c0) | (v1 * map.c1);
    }
    put_rows(dst, pitch, rows);
}

/// A BC1-BC5 block kind and how it becomes RGBA8.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum S3tc {
    /// BC1 (8 bytes).
    Bc1,
    /// BC2 (16 bytes).
    Bc2,
    /// BC3 (16 bytes).
    Bc3,
    /// BC4 (8 bytes, `channels` 1) or BC5 (16 bytes, 2).
    Rgtc {
        /// Channel blocks: 1 or 2.
        channels: usize,
        /// How the channels become RGBA8.
        map: RgtcRgba8,
    },
}

impl S3tc {
    /// Bytes per block.
    pub(crate) const fn block_bytes(self) -> usize {
        match self {
            S3tc::Bc1 | S3tc::Rgtc { channels: 1, .. } => 8,
            _ => 16,
        }
    }

    /// One block to RGBA8 rows, `pitch` bytes apart (the portable path).
    #[inline(always)]
    pub(crate) fn block_rgba8(self, src: &[u8], dst: &mut [u8], pitch: usize) {
        match self {
            S3tc::Bc1 => bc1_rgba8(src, dst, pitch),
            S3tc::Bc2 => bc2_rgba8(src, dst, pitch),
            S3tc::Bc3 => bc3_rgba8(src, dst, pitch),
            S3tc::Rgtc { channels, map } => rgtc_rgba8(src, channels, map, dst, pitch),
        }
    }
}

#[cfg(test)]
#[path = "bc_s3tc_twin.rs"]
pub(crate) mod twin;

#[cfg(test)]
#[path = "bc_s3tc_tests.rs"]
mod tests;
