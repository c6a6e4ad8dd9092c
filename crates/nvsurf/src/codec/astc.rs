//! nvsurf's ASTC 2D LDR block decoder: one 16-byte block, or a row of blocks, straight into
//! RGBA8 rows. Khronos Data Format Specification 1.3, section "ASTC Compressed Texture Image
//! Formats" (subsections cited by title in this module and in `astc_tables`, `astc_ise` and
//! `astc_infill`).
//!
//! **Bit-exact with the `astc-decode` crate 0.3.1**, the decoder the library called before,
//! on every block and footprint; where the crate departs from the specification, so does this
//! decoder (`docs/decisions.md`, "ASTC LDR decoding"):
//! - the weight application widens both endpoints as `c * 0x101`, interpolates
//!   `(c0 (64 - w) + c1 w + 32) / 64` and narrows the 16-bit result `C` to 8 bits as
//!   `(C * 255 + 32767) / 65536`;
//! - an LDR void extent's colour is the top byte of each 16-bit channel, and its coordinates
//!   are not checked;
//! - an HDR endpoint mode gives its partition the error colour and, unlike an LDR mode, takes
//!   no colour values (the next partition reads the values it would have taken); the block
//!   still decodes (returns true);
//! - illegal encodings, HDR void extents and grids larger than the footprint give the whole
//!   block the error colour (magenta) and return false. "Illegal" is the crate's list:
//!   reserved block modes, a void extent without bits 10-11 set, more than 64 weights, weights
//!   in fewer than 24 or more than 96 bits, four partitions with two planes, no bits left for
//!   colours, more than 18 colour values or too few bits for them;
//! - the packed trits or quints of a last, partial group are read from the block's bits
//!   (`astc_ise`).
//!
//! Per block: the 11 block-mode bits index a table built at compile time ([`BLOCK_MODES`]),
//! the colour and weight sequences are read from the block as a `u128` through unquantization
//! tables, the infill is a copy when the grid is the footprint (else whole texel rows in 16-bit
//! lanes, `astc_infill`), and the weight application is one multiply-add and a rounding shift
//! per channel in 16-bit lanes ([`apply`]), written straight into the caller's rows. Each of
//! the 14 footprints has its own copy of the decoder (constant loop bounds). Safe code only;
//! the tests (`astc_tests`, `tests/astc_rect.rs`) hold it to the crate, which serves as the
//! independent twin.

use super::astc_infill::{infill, partitions, MAX_TEXELS};
use super::astc_ise::{decode as ise_decode, MAX_VALUES};
use super::astc_tables::{BlockMode, ModeKind, BLOCK_MODES, COLOUR_RANGE, COLOUR_UNQ, ISE, WEIGHT_UNQ};

/// The ASTC error colour, magenta ("Illegal Encodings").
const ERROR: [u8; 4] = [0xff, 0, 0xff, 0xff];

/// One partition's endpoints set up for the weight application: per channel `64 e0` and
/// `e1 - e0` of the 8-bit endpoints `e0`, `e1`.
#[derive(Debug, Clone, Copy, Default)]
struct Lerp {
    base: [i16; 4],
    delta: [i16; 4],
}

impl Lerp {
    fn new(e0: [u8; 4], e1: [u8; 4]) -> Lerp {
        Lerp {
            base: e0.map(|e| 64 * i16::from(e)),
            delta: core::array::from_fn(|i| i16::from(e1[i]) - i16::from(e0[i])),
        }
    }
}

/// The weight application ("Weight Application", in the crate's rule) of a run of channels:
/// `out[j]` from `base[j] + delta[j] * w[j]` = `S = e0 (64 - w) + e1 w` (0 to 16320).
///
/// The crate's `C = (0x101 e0 (64 - w) + 0x101 e1 w + 32) / 64`, then `(C * 255 + 32767) /
/// 65536`, is `(257 S + 32) / 64` then the same: a function of `S` alone, equal to `(S + 32 -
/// [S >= 8160]) >> 6` for every `S` (round to nearest, except that the halves from 127.5 up
/// round down; `astc_tests` checks all 16321 values). In 16-bit lanes this vectorizes.
#[inline(always)]
fn apply(base: &[i16], delta: &[i16], w: &[i16], out: &mut [u8]) {
    for (((o, &b), &d), &w) in out.iter_mut().zip(base).zip(delta).zip(w) {
        let s = b + d * w;
        *o = ((s + 32 - i16::from(s >= 8160)) >> 6) as u8;
    }
}

/// The crate's weight application of one channel, as written in `docs/decisions.md`: for the
/// tests against [`apply`].
#[cfg(test)]
pub(super) fn crate_rule(e0: u8, e1: u8, w: u32) -> u8 {
    let (c0, c1) = (0x101 * u32::from(e0), 0x101 * u32::from(e1));
    let c = (c0 * (64 - w) + c1 * w + 32) / 64;
    ((c * 255 + 32767) / 65536) as u8
}

/// [`apply`] of one pixel row, through `apply_row`'s inputs.
#[cfg(test)]
pub(super) fn apply_one(e0: u8, e1: u8, w: u8) -> u8 {
    let l = Lerp::new([e0; 4], [e1; 4]);
    let mut out = [0u8; 4];
    apply(&l.base, &l.delta, &[i16::from(w); 4], &mut out);
    out[0]
}

/// The block's configuration after the block mode: partitions, endpoint modes, where the
/// colour values are and which channel takes the second plane.
#[derive(Debug, Clone, Copy)]
struct Config {
    /// 1 to 4.
    parts: usize,
    /// The partition index (10 bits; 0 with one partition).
    seed: u32,
    /// Colour endpoint mode per partition.
    cems: [u8; 4],
    /// The first bit of the colour values.
    colour_at: u32,
    /// The bits the colour values have (all between the configuration and what lies below
    /// the weights).
    colour_bits: u32,
    /// How many colour values.
    values: usize,
    /// The channel of the second weight plane; 4 (none) with one plane.
    ccs: usize,
}

/// Bits `at..at + n` of `v`, `n` below 32 (0 past bit 127).
#[inline(always)]
fn bits(v: u128, at: u32, n: u32) -> u32 {
    (v.checked_shr(at).unwrap_or(0) as u32) & ((1u32 << n) - 1)
}

impl Config {
    /// Reads the partition count, partition index and endpoint modes ("Color Endpoint Mode":
    /// the 4-bit mode of one partition at bit 13; else the 10-bit index at bit 13 and the
    /// 6-bit mode field at 23, whose extra bits, if any, lie just below the weights, with the
    /// 2-bit channel selector of a dual-plane block below them). None for the crate's illegal
    /// encodings.
    #[inline]
    fn read(v: u128, mode: &BlockMode) -> Option<Config> {
        let parts = bits(v, 11, 2) as usize + 1;
        if parts == 4 && mode.dual {
            return None;
        }
        let (head, seed, field) =
            if parts == 1 { (17, 0, bits(v, 13, 4)) } else { (29, bits(v, 13, 10), bits(v, 23, 6)) };
        let class = if parts == 1 { 0 } else { field & 3 };
        let extra = if class == 0 { 0 } else { 3 * parts as u32 - 4 };
        let planes = if mode.dual { 2 } else { 0 };
        let used = u32::from(mode.bits) + head + extra + planes;
        if used >= 128 {
            return None;
        }
        let colour_bits = 128 - used;
        let ccs = if mode.dual { bits(v, head + colour_bits, 2) as usize } else { 4 };
        let mut cems = [0u8; 4];
        if parts == 1 {
            cems[0] = field as u8;
        } else if class == 0 {
            cems = [(field >> 2) as u8; 4];
        } else {
            // C (one bit a partition) then M (two bits a partition), after the class.
            let all = (bits(v, head + colour_bits + planes, extra) << 6 | field) >> 2;
            for (p, c) in cems.iter_mut().enumerate().take(parts) {
                let step = (all >> p) & 1;
                let m = (all >> (parts + 2 * p)) & 3;
                *c = ((class - 1 + step) << 2 | m) as u8;
            }
        }
        let values: usize = cems[..parts].iter().map(|&c| 2 * (usize::from(c >> 2) + 1)).sum();
        if values > 18 || (values as u32 * 13).div_ceil(5) > colour_bits {
            return None;
        }
        Some(Config { parts, seed, cems, colour_at: head, colour_bits, values, ccs })
    }

    /// The endpoints of each partition ("LDR Endpoint Decoding").
    #[inline]
    fn endpoints(&self, v: u128) -> [Lerp; 4] {
        let data = v.checked_shr(self.colour_at).unwrap_or(0) & ((1u128 << self.colour_bits) - 1);
        let range = COLOUR_RANGE[(self.values / 2).clamp(1, 9) - 1][self.colour_bits.min(127) as usize];
        let mut vals = [0u8; MAX_VALUES];
        ise_decode(data, ISE[usize::from(range)], self.values, &COLOUR_UNQ[usize::from(range)], &mut vals);
        let mut out = [Lerp::default(); 4];
        let mut at = 0;
        for (o, &cem) in out.iter_mut().zip(&self.cems).take(self.parts) {
            let take = 2 * (usize::from(cem >> 2) + 1);
            let v: [i32; 8] = core::array::from_fn(|i| i32::from(vals.get(at + i).copied().unwrap_or(0)));
            let (e0, e1) = match ldr_endpoints(cem, v) {
                Some(e) => {
                    at += take;
                    e
                }
                None => (ERROR, ERROR),
            };
            *o = Lerp::new(e0, e1);
        }
        out
    }
}

/// `bit_transfer_signed(a, b)` of "LDR Endpoint Decoding": `b` gets `a`'s top bit, `a` becomes
/// a signed 6-bit offset. Returns the new `(a, b)`.
fn transfer(a: i32, b: i32) -> (i32, i32) {
    let b = (b >> 1) | (a & 0x80);
    let a = (a >> 1) & 0x3f;
    (if a & 0x20 != 0 { a - 0x40 } else { a }, b)
}

/// Clamps each channel to 0-255.
fn clamp4(c: [i32; 4]) -> [u8; 4] {
    c.map(|v| v.clamp(0, 255) as u8)
}

/// `blue_contract` of "LDR Endpoint Decoding", then clamped.
fn blue(r: i32, g: i32, b: i32, a: i32) -> [u8; 4] {
    clamp4([(r + b) >> 1, (g + b) >> 1, b, a])
}

/// The two endpoints of LDR endpoint mode `cem` from its values `v` ("LDR Endpoint Decoding",
/// modes 0, 1, 4, 5, 6, 8, 9, 10, 12, 13); None for the HDR modes.
fn ldr_endpoints(cem: u8, mut v: [i32; 8]) -> Option<([u8; 4], [u8; 4])> {
    let e = match cem {
        0 => (clamp4([v[0], v[0], v[0], 255]), clamp4([v[1], v[1], v[1], 255])),
        1 => {
            let l0 = (v[0] >> 2) | (v[1] & 0xc0);
            let l1 = (l0 + (v[1] & 0x3f)).min(255);
            (clamp4([l0, l0, l0, 255]), clamp4([l1, l1, l1, 255]))
        }
        4 => (clamp4([v[0], v[0], v[0], v[2]]), clamp4([v[1], v[1], v[1], v[3]])),
        5 => {
            (v[1], v[0]) = transfer(v[1], v[0]);
            (v[3], v[2]) = transfer(v[3], v[2]);
            let l1 = v[0] + v[1];
            (clamp4([v[0], v[0], v[0], v[2]]), clamp4([l1, l1, l1, v[2] + v[3]]))
        }
        6 | 10 => {
            let (a0, a1) = if cem == 6 { (255, 255) } else { (v[4], v[5]) };
            let s = |c: i32| (c * v[3]) >> 8;
            (clamp4([s(v[0]), s(v[1]), s(v[2]), a0]), clamp4([v[0], v[1], v[2], a1]))
        }
        8 | 12 => {
            if cem == 8 {
                (v[6], v[7]) = (255, 255);
            }
            if v[1] + v[3] + v[5] >= v[0] + v[2] + v[4] {
                (clamp4([v[0], v[2], v[4], v[6]]), clamp4([v[1], v[3], v[5], v[7]]))
            } else {
                (blue(v[1], v[3], v[5], v[7]), blue(v[0], v[2], v[4], v[6]))
            }
        }
        9 | 13 => {
            for i in [0, 2, 4, 6] {
                (v[i + 1], v[i]) = transfer(v[i + 1], v[i]);
            }
            if cem == 9 {
                (v[6], v[7]) = (255, 0);
            }
            let d: [i32; 4] = core::array::from_fn(|i| v[2 * i] + v[2 * i + 1]);
            if v[1] + v[3] + v[5] >= 0 {
                (clamp4([v[0], v[2], v[4], v[6]]), clamp4(d))
            } else {
                (blue(d[0], d[1], d[2], d[3]), blue(v[0], v[2], v[4], v[6]))
            }
        }
        _ => return None,
    };
    Some(e)
}

/// Row `y` of `dst` (rows `pitch` bytes apart), `n` bytes, or as many as it holds.
#[inline(always)]
fn row(dst: &mut [u8], y: usize, pitch: usize, n: usize) -> &mut [u8] {
    let at = y.saturating_mul(pitch).min(dst.len());
    let end = at.saturating_add(n).min(dst.len());
    &mut dst[at..end]
}

/// [`apply`] into one row `out` of the caller's; a row that `dst` cuts short (fewer than the
/// block's `base.len()` bytes) goes through `tmp` and gets its whole pixels only.
#[inline(always)]
fn apply_row(base: &[i16], delta: &[i16], w: &[i16], out: &mut [u8], tmp: &mut [u8]) {
    if out.len() == base.len() {
        apply(base, delta, w, out);
    } else {
        apply(base, delta, w, tmp);
        let k = out.len() - out.len() % 4;
        out[..k].copy_from_slice(&tmp[..k]);
    }
}

/// Writes `bh` rows of `bw` pixels of one colour into `dst` rows `pitch` bytes apart; only the
/// whole pixels that `dst` holds.
fn fill(bw: usize, bh: usize, dst: &mut [u8], pitch: usize, c: [u8; 4]) {
    for y in 0..bh {
        for d in row(dst, y, pitch, 4 * bw).chunks_exact_mut(4) {
            d.copy_from_slice(&c);
        }
    }
}

/// The pixels of a decoded block: texel weights `w0` (and `w1` for the channel `ccs` of a
/// dual-plane block; `ccs` 4 without), partition `part` of each texel, into `dst` rows.
#[inline(always)]
fn pixels(
    lerps: &[Lerp; 4],
    (w0, w1, ccs): (&[u8], &[u8], usize),
    part: &[u8],
    (bw, bh): (usize, usize),
    dst: &mut [u8],
    pitch: usize,
) {
    let n = 4 * bw;
    let mut base = [0i16; 48];
    let mut delta = [0i16; 48];
    let mut w = [0i16; 48];
    let mut tmp = [0u8; 48];
    for y in 0..bh {
        let at = y * bw;
        for (x, ((b, d), w)) in
            base.chunks_exact_mut(4).zip(delta.chunks_exact_mut(4)).zip(w.chunks_exact_mut(4)).take(bw).enumerate()
        {
            let l = &lerps[usize::from(part[at + x] & 3)];
            b.copy_from_slice(&l.base);
            d.copy_from_slice(&l.delta);
            let (a, s) = (i16::from(w0[at + x]), i16::from(w1[at + x]));
            for (c, w) in w.iter_mut().enumerate() {
                *w = if c == ccs { s } else { a };
            }
        }
        apply_row(&base[..n], &delta[..n], &w[..n], row(dst, y, pitch, n), &mut tmp[..n]);
    }
}

/// [`pixels`] of a block of one partition and one plane.
#[inline(always)]
fn pixels_single(l: &Lerp, w0: &[u8], (bw, bh): (usize, usize), dst: &mut [u8], pitch: usize) {
    let n = 4 * bw;
    let mut base = [0i16; 48];
    let mut delta = [0i16; 48];
    for (b, d) in base.chunks_exact_mut(4).zip(delta.chunks_exact_mut(4)) {
        b.copy_from_slice(&l.base);
        d.copy_from_slice(&l.delta);
    }
    let mut w = [0i16; 48];
    let mut tmp = [0u8; 48];
    for y in 0..bh {
        for (o, &t) in w.chunks_exact_mut(4).zip(&w0[y * bw..y * bw + bw]) {
            o.fill(i16::from(t));
        }
        apply_row(&base[..n], &delta[..n], &w[..n], row(dst, y, pitch, n), &mut tmp[..n]);
    }
}

/// A block whose mode is a weight grid that fits the footprint; false for an illegal encoding
/// (after writing the error colour).
#[inline(always)]
fn grid_block(v: u128, mode: &BlockMode, (bw, bh): (usize, usize), dst: &mut [u8], pitch: usize) -> bool {
    let Some(cfg) = Config::read(v, mode) else {
        fill(bw, bh, dst, pitch, ERROR);
        return false;
    };
    let lerps = cfg.endpoints(v);
    // "Weight Decoding": the weights are stored from bit 127 down.
    let wbits = u32::from(mode.bits);
    let data = v.reverse_bits() & ((1u128 << wbits) - 1);
    let range = usize::from(mode.range).min(12);
    let mut raw = [0u8; MAX_VALUES];
    ise_decode(data, ISE[range], usize::from(mode.count), &WEIGHT_UNQ[range], &mut raw);
    let grid = (usize::from(mode.gw), usize::from(mode.gh));
    let mut w0 = [0u8; MAX_TEXELS];
    let mut w1 = [0u8; MAX_TEXELS];
    let mut p0 = [0u8; 64];
    if mode.dual {
        // "Dual-Plane Decoding": the two planes' weights alternate.
        let mut p1 = [0u8; 64];
        for ((a, b), pair) in p0.iter_mut().zip(p1.iter_mut()).zip(raw.chunks_exact(2)) {
            (*a, *b) = (pair[0], pair[1]);
        }
        infill(&p0, grid, (bw, bh), &mut w0);
        infill(&p1, grid, (bw, bh), &mut w1);
    } else {
        p0.copy_from_slice(&raw[..64]);
        infill(&p0, grid, (bw, bh), &mut w0);
    }
    if cfg.parts == 1 && !mode.dual {
        pixels_single(&lerps[0], &w0, (bw, bh), dst, pitch);
        return true;
    }
    let mut part = [0u8; MAX_TEXELS];
    if cfg.parts > 1 {
        partitions(cfg.seed, cfg.parts, (bw, bh), &mut part);
    }
    pixels(&lerps, (&w0, &w1, cfg.ccs), &part, (bw, bh), dst, pitch);
    true
}

/// Decodes one ASTC block (`src`: 16 bytes; fewer read as zeros) of footprint `w` x `h` (at
/// most 12 x 12) to RGBA8 rows `pitch` bytes apart in `dst`: only the whole pixels `dst`
/// holds. Returns false for an illegal encoding, after writing the error colour (magenta):
/// what `astc_decode::astc_decode_block` returns and writes.
///
/// Each of the 14 footprints gets its own copy of the decoder (constant sides, so the texel
/// loops have constant bounds); other sizes share one.
pub(crate) fn astc_block_rgba8(w: u8, h: u8, src: &[u8], dst: &mut [u8], pitch: usize) -> bool {
    let mut b = [0u8; 16];
    for (d, s) in b.iter_mut().zip(src) {
        *d = *s;
    }
    let v = u128::from_le_bytes(b);
    match (w, h) {
        (4, 4) => block(v, (4, 4), dst, pitch),
        (5, 4) => block(v, (5, 4), dst, pitch),
        (5, 5) => block(v, (5, 5), dst, pitch),
        (6, 5) => block(v, (6, 5), dst, pitch),
        (6, 6) => block(v, (6, 6), dst, pitch),
        (8, 5) => block(v, (8, 5), dst, pitch),
        (8, 6) => block(v, (8, 6), dst, pitch),
        (8, 8) => block(v, (8, 8), dst, pitch),
        (10, 5) => block(v, (10, 5), dst, pitch),
        (10, 6) => block(v, (10, 6), dst, pitch),
        (10, 8) => block(v, (10, 8), dst, pitch),
        (10, 10) => block(v, (10, 10), dst, pitch),
        (12, 10) => block(v, (12, 10), dst, pitch),
        (12, 12) => block(v, (12, 12), dst, pitch),
        _ => block(v, (usize::from(w).min(12), usize::from(h).min(12)), dst, pitch),
    }
}

/// [`astc_block_rgba8`] of the block `v` for a footprint of `bw` x `bh` (at most 12 x 12).
#[inline(always)]
fn block(v: u128, (bw, bh): (usize, usize), dst: &mut [u8], pitch: usize) -> bool {
    let mode = &BLOCK_MODES[(v & 0x7ff) as usize];
    match mode.kind {
        ModeKind::Grid if usize::from(mode.gw) <= bw && usize::from(mode.gh) <= bh => {
            grid_block(v, mode, (bw, bh), dst, pitch)
        }
        ModeKind::Void { hdr: false } if v & 0x800 != 0 => {
            // "Void-Extent Blocks": RGBA as 16-bit values from bit 64; the crate keeps the top byte.
            let c: [u8; 4] = core::array::from_fn(|i| (v >> (64 + 16 * i + 8)) as u8);
            fill(bw, bh, dst, pitch, c);
            true
        }
        _ => {
            fill(bw, bh, dst, pitch, ERROR);
            false
        }
    }
}

/// A run of whole ASTC blocks of footprint `w` x `h` (`src`, consecutive 16-byte blocks) side
/// by side into RGBA8 rows: block `i` at byte `4 w i` of each of `h` rows `pitch` bytes
/// apart. Blocks whose pixels `dst` does not hold get only the whole pixels that fit.
pub(crate) fn astc_row_rgba8(w: u8, h: u8, src: &[u8], dst: &mut [u8], pitch: usize) {
    let step = 4 * usize::from(w);
    for (i, b) in src.chunks_exact(16).enumerate() {
        match dst.get_mut(step * i..) {
            Some(d) => {
                astc_block_rgba8(w, h, b, d, pitch);
            }
            None => return,
        }
    }
}

/// An ASTC block to RGBA8 rows (see [`astc_block_rgba8`]), the outcome dropped: an illegal
/// encoding has the error colour, which is what the ASTC specification has a decoder return.
#[inline]
pub(crate) fn astc_rgba8(w: u8, h: u8, src: &[u8], dst: &mut [u8], pitch: usize) {
    astc_block_rgba8(w, h, src, dst, pitch);
}

/// What the tests' coverage counts need of a block the decoder takes as a legal weight grid:
/// (weight range, colour range, partitions, two planes, endpoint modes).
#[cfg(test)]
pub(super) fn describe(src: &[u8; 16], w: u8, h: u8) -> Option<(u8, u8, usize, bool, [u8; 4])> {
    let v = u128::from_le_bytes(*src);
    let mode = &BLOCK_MODES[(v & 0x7ff) as usize];
    if mode.kind != ModeKind::Grid || mode.gw > w || mode.gh > h {
        return None;
    }
    let cfg = Config::read(v, mode)?;
    let colour = COLOUR_RANGE[cfg.values / 2 - 1][cfg.colour_bits as usize];
    Some((mode.range, colour, cfg.parts, mode.dual, cfg.cems))
}
