//! Our own BC7 (BPTC unorm) block decoder: a whole row of blocks per call straight into the
//! caller's RGBA8 rows ([`bc7_row_rgba8`]), one block ([`bc7_rgba8`]), and beside it a safe
//! twin (`bc7_twin.rs`, tests only: one pixel at a time from the rule) that the tests compare
//! it with, and with the `bcdec_rs` crate the library used before, bit for bit.
//!
//! Sources: Khronos Data Format Specification 1.3, section "BC7" (and its tables, in
//! `bc7_tables.rs`); Microsoft, "BC7 Format" (Direct3D 11).
//!
//! The rule, as the fast path reads it:
//! - The block is one 128-bit little-endian number. Its mode is the number of zero bits below
//!   the lowest set bit (0-7); a block whose low byte is 0 has no mode (reserved) and decodes
//!   to transparent black (0, 0, 0, 0), as Microsoft's document says and bcdec does.
//! - After the mode bits come the partition number (modes 0-3 and 7), the rotation (modes 4
//!   and 5) and the index selection bit (mode 4), then the endpoints: red of every endpoint,
//!   then green, blue and alpha (modes 4-7), then the p-bits (one per endpoint in modes 0, 3,
//!   6, 7; one per subset in mode 1), then the indices. Each pixel's index has the mode's
//!   number of bits, one less for the anchor pixels (pixel 0 and each other subset's anchor).
//! - Endpoint channels: the stored bits, the p-bit below them when the mode has p-bits, moved
//!   to the top of a byte and the top bits repeated below (`x << (8 - n) | x >> (2n - 8)`).
//!   Modes without alpha have alpha 255.
//! - A pixel's channel is `((64 - w) e0 + w e1 + 32) >> 6` with `w` the index's weight.
//!   Modes 4 and 5 have a second set of indices: alpha takes the second (mode 4 with the index
//!   selection bit 1: colour takes the second and alpha the first); then the rotation swaps
//!   alpha with red (1), green (2) or blue (3).
//!
//! How it is fast: one `match` on the mode, then a function specialised for that mode's
//! layout (const generics: every field position is a constant); the four channels of an
//! endpoint in the 16-bit lanes of one `u64`, so that a pixel is two multiplications and a
//! few shifts (a lane never exceeds `64 * 255 + 32`); the index bits as one `u64` with a zero
//! bit inserted above each anchor's short index, so that pixel `i`'s index sits at bit
//! `bits * i`. Safe code: one bounds check per row of four pixels. Where `cpu::avx2()`
//! allows and the CPU has BMI2, whole runs of blocks go to `bc7_x86` instead (`pdep` and
//! byte shuffles, 16 channels at a time).

use super::bc7_tables::{
    ANCHORS2, ANCHORS3_SECOND, ANCHORS3_THIRD, PARTITIONS2, PARTITIONS3, WEIGHTS2, WEIGHTS3, WEIGHTS4,
};

/// No p-bits.
const NO_P: u32 = 0;
/// One p-bit per endpoint.
const UNIQUE_P: u32 = 1;
/// One p-bit per subset (mode 1).
const SHARED_P: u32 = 2;

/// The two-subset partitions with two bits per pixel (as the three-subset ones).
static MAPS2: [u32; 64] = spread_maps();

/// [`MAPS2`]: each bit `i` of [`PARTITIONS2`] moved to bit `2i`.
const fn spread_maps() -> [u32; 64] {
    let mut out = [0u32; 64];
    let mut p = 0;
    while p < 64 {
        let mut i = 0;
        while i < 16 {
            out[p] |= ((PARTITIONS2[p] as u32 >> i) & 1) << (2 * i);
            i += 1;
        }
        p += 1;
    }
    out
}

/// The anchors of subsets 1 and 2 of each three-subset partition, lower first.
static ANCHORS3_SORTED: [[u8; 2]; 64] = sort_anchors();

/// [`ANCHORS3_SORTED`] from the two anchor tables.
const fn sort_anchors() -> [[u8; 2]; 64] {
    let mut out = [[0u8; 2]; 64];
    let mut p = 0;
    while p < 64 {
        let (a, b) = (ANCHORS3_SECOND[p], ANCHORS3_THIRD[p]);
        out[p] = if a < b { [a, b] } else { [b, a] };
        p += 1;
    }
    out
}

/// A weight table widened to 16 entries of `u64` (the unused ones 0).
const fn widen<const N: usize>(w: [u8; N]) -> [u64; 16] {
    let mut out = [0u64; 16];
    let mut i = 0;
    while i < N {
        out[i] = w[i] as u64;
        i += 1;
    }
    out
}

/// The weights of 2-, 3- and 4-bit indices (index 0, 1, 2: bits - 2).
static WEIGHTS: [[u64; 16]; 3] = [widen(WEIGHTS2), widen(WEIGHTS3), widen(WEIGHTS4)];

/// `n` bits of `b` from bit `at`.
#[inline(always)]
fn field(b: u128, at: u32, n: u32) -> u32 {
    (b >> at) as u32 & ((1u32 << n) - 1)
}

/// An `n`-bit channel (5 to 8 bits) to 8 bits: moved to the top, its top bits repeated below.
#[inline(always)]
fn expand(v: u32, n: u32) -> u64 {
    let x = v << (8 - n);
    u64::from(x | (x >> n))
}

/// `x` with a zero bit inserted at bit `p` (the bits from `p` up move one up).
#[inline(always)]
fn insert_zero(x: u64, p: u32) -> u64 {
    let low = (1u64 << p) - 1;
    (x & low) | ((x & !low) << 1)
}

/// The mix of endpoints `a` and `b` (channels in 16-bit lanes) with weight `w` of 64, as an
/// RGBA8 word.
#[inline(always)]
fn mix(a: u64, b: u64, w: u64) -> u32 {
    let t = ((a * (64 - w) + b * w + 0x0020_0020_0020_0020) >> 6) & 0x00ff_00ff_00ff_00ff;
    let t = t | (t >> 8);
    (t as u32 & 0xffff) | ((t >> 16) as u32 & 0xffff_0000)
}

/// One endpoint's channels (8 bits each, R G B A) in the 16-bit lanes of a `u64`.
#[inline(always)]
fn lanes(c: [u64; 4]) -> u64 {
    c[0] | (c[1] << 16) | (c[2] << 32) | (c[3] << 48)
}

/// Modes 0-3, 6 and 7: `NS` subsets, `PART` partition bits, `CB` bits per colour channel and
/// `AB` per alpha channel (0: alpha 255), p-bits `PB` ([`NO_P`], [`UNIQUE_P`], [`SHARED_P`]),
/// `IB`-bit indices.
#[inline(always)]
fn subsets<
    const MODE: u32,
    const NS: usize,
    const PART: u32,
    const CB: u32,
    const AB: u32,
    const PB: u32,
    const IB: u32,
>(
    b: u128,
) -> [u32; 16] {
    let part = field(b, MODE + 1, PART) as usize & 63;
    let ep = MODE + 1 + PART;
    let ne = 2 * NS as u32;
    let pbits = ep + ne * (3 * CB + AB);
    let has_p = u32::from(PB != NO_P);
    let mut ends = [0u64; 8];
    for (e, end) in ends.iter_mut().enumerate().take(2 * NS) {
        let e = e as u32;
        let p = match PB {
            UNIQUE_P => field(b, pbits + e, 1),
            SHARED_P => field(b, pbits + e / 2, 1),
            _ => 0,
        };
        let mut c = [255u64; 4];
        for (k, ch) in c.iter_mut().enumerate().take(3) {
            let v = field(b, ep + (k as u32 * ne + e) * CB, CB);
            *ch = expand((v << has_p) | p, CB + has_p);
        }
        if AB > 0 {
            let v = field(b, ep + 3 * ne * CB + e * AB, AB);
            c[3] = expand((v << has_p) | p, AB + has_p);
        }
        *end = lanes(c);
    }
    // The indices, a zero bit inserted above each anchor's short index.
    let mut ix = (b >> (128 - (16 * IB - NS as u32))) as u64;
    ix = insert_zero(ix, IB - 1);
    let map = match NS {
        2 => {
            ix = insert_zero(ix, IB * u32::from(ANCHORS2[part]) + IB - 1);
            MAPS2[part]
        }
        3 => {
            let [lo, hi] = ANCHORS3_SORTED[part];
            ix = insert_zero(ix, IB * u32::from(lo) + IB - 1);
            ix = insert_zero(ix, IB * u32::from(hi) + IB - 1);
            PARTITIONS3[part]
        }
        _ => 0,
    };
    let w = &WEIGHTS[(IB - 2) as usize % 3];
    let mut px = [0u32; 16];
    for (i, p) in px.iter_mut().enumerate() {
        let s = 2 * ((map >> (2 * i)) as usize & 3);
        let k = (ix >> (IB as usize * i)) as usize & ((1 << IB) - 1);
        let (a, z) = (ends[s & 7], ends[(s + 1) & 7]);
        *p = mix(a, z, w[k & 15]);
    }
    px
}

/// Modes 4 and 5: one subset, `CB`-bit colour and `AB`-bit alpha channels, 2-bit first
/// indices and `IB2`-bit second ones, the rotation, and (mode 4) the index selection bit.
#[inline(always)]
fn rotated<const MODE: u32, const CB: u32, const AB: u32, const IB2: u32>(b: u128) -> [u32; 16] {
    let rot = field(b, MODE + 1, 2) as usize;
    let select = MODE == 4 && field(b, 7, 1) == 1;
    let mut ends = [0u64; 2];
    for (e, end) in ends.iter_mut().enumerate() {
        let e = e as u32;
        let mut c = [0u64; 4];
        for (k, ch) in c.iter_mut().enumerate().take(3) {
            *ch = expand(field(b, 8 + (2 * k as u32 + e) * CB, CB), CB);
        }
        c[3] = expand(field(b, 8 + 6 * CB + e * AB, AB), AB);
        if rot != 0 {
            c.swap(rot - 1, 3);
        }
        *end = lanes(c);
    }
    let first = 8 + 6 * CB + 2 * AB;
    let i1 = insert_zero(field(b, first, 31).into(), 1);
    let i2 = insert_zero((b >> (first + 31)) as u64, IB2 - 1);
    // The channel that shows the alpha indices: alpha, or the one rotated into its place.
    let scalar = 0xffu32 << (8 * ((rot + 3) & 3));
    if select {
        two_indices::<IB2, 2>(ends, i2, i1, scalar)
    } else {
        two_indices::<2, IB2>(ends, i1, i2, scalar)
    }
}

/// The pixels of modes 4 and 5: colour weights from the `CIB`-bit indices `ci`, the channel
/// `scalar` (a byte mask) from the `AIB`-bit indices `ai`.
#[inline(always)]
fn two_indices<const CIB: u32, const AIB: u32>(ends: [u64; 2], ci: u64, ai: u64, scalar: u32) -> [u32; 16] {
    let (wc, wa) = (&WEIGHTS[(CIB - 2) as usize % 3], &WEIGHTS[(AIB - 2) as usize % 3]);
    let mut px = [0u32; 16];
    for (i, p) in px.iter_mut().enumerate() {
        let kc = (ci >> (CIB as usize * i)) as usize & ((1 << CIB) - 1);
        let ka = (ai >> (AIB as usize * i)) as usize & ((1 << AIB) - 1);
        let c = mix(ends[0], ends[1], wc[kc & 15]);
        let a = mix(ends[0], ends[1], wa[ka & 15]);
        *p = (c & !scalar) | (a & scalar);
    }
    px
}

/// The 16 pixels of block `b` as RGBA8 words (pixel `4y + x`).
#[inline(always)]
fn block_words(b: u128) -> [u32; 16] {
    match (b as u8).trailing_zeros() {
        0 => subsets::<0, 3, 4, 4, 0, UNIQUE_P, 3>(b),
        1 => subsets::<1, 2, 6, 6, 0, SHARED_P, 3>(b),
        2 => subsets::<2, 3, 6, 5, 0, NO_P, 2>(b),
        3 => subsets::<3, 2, 6, 7, 0, UNIQUE_P, 2>(b),
        4 => rotated::<4, 5, 6, 3>(b),
        5 => rotated::<5, 7, 8, 2>(b),
        6 => subsets::<6, 1, 0, 7, 7, UNIQUE_P, 4>(b),
        7 => subsets::<7, 2, 6, 5, 5, UNIQUE_P, 2>(b),
        // The reserved mode: transparent black.
        _ => [0; 16],
    }
}

/// Writes the four rows of `px` at byte `at` of `dst`, `pitch` bytes apart: the rows that
/// fit (a `dst` too short never comes from the library's callers).
#[inline(always)]
fn put_rows(dst: &mut [u8], at: usize, pitch: usize, px: &[u32; 16]) {
    for (y, row) in px.chunks_exact(4).enumerate() {
        let Some(o) = pitch.checked_mul(y).and_then(|o| o.checked_add(at)) else { return };
        if let Some(d) = o.checked_add(16).and_then(|end| dst.get_mut(o..end)) {
            let mut bytes = [0u8; 16];
            for (b, w) in bytes.chunks_exact_mut(4).zip(row) {
                b.copy_from_slice(&w.to_le_bytes());
            }
            d.copy_from_slice(&bytes);
        }
    }
}

/// A run of whole BC7 blocks (`src`, 16 bytes each, consecutive) side by side into RGBA8
/// rows: block `i` at byte `16 i` of each of four rows `pitch` bytes apart; by `pdep` and
/// byte shuffles (`bc7_x86`) where `cpu::avx2()` allows and the CPU has BMI2, else block by
/// block. Blocks whose pixels `dst` does not hold get only the rows that fit.
pub(crate) fn bc7_row_rgba8(src: &[u8], dst: &mut [u8], pitch: usize) {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::avx2() && bmi2() {
        let n = src.len() / 16;
        let need = pitch.checked_mul(3).and_then(|p| p.checked_add(n.checked_mul(16)?));
        if need.is_some_and(|need| need <= dst.len()) {
            // SAFETY: the CPU has AVX2 and BMI2, and `dst` holds `3 pitch + 16 n` bytes.
            unsafe { super::bc7_x86::row_rgba8(src, dst, pitch) };
            return;
        }
    }
    portable_row_rgba8(src, dst, pitch);
}

/// True when the CPU has BMI2 (`pdep`; every CPU with AVX2 that we know of has it).
#[cfg(target_arch = "x86_64")]
fn bmi2() -> bool {
    #[cfg(feature = "std")]
    {
        std::arch::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(feature = "std"))]
    {
        false
    }
}

/// [`bc7_row_rgba8`] without SIMD (other machines, `--vector-limit baseline`, and runs that
/// `dst` does not hold whole).
fn portable_row_rgba8(src: &[u8], dst: &mut [u8], pitch: usize) {
    for (i, blk) in src.chunks_exact(16).enumerate() {
        let mut b = [0u8; 16];
        b.copy_from_slice(blk);
        put_rows(dst, 16 * i, pitch, &block_words(u128::from_le_bytes(b)));
    }
}

/// A BC7 block (the first 16 bytes of `src`; nothing when shorter) to RGBA8 rows, `pitch`
/// bytes apart.
#[inline]
pub(crate) fn bc7_rgba8(src: &[u8], dst: &mut [u8], pitch: usize) {
    bc7_row_rgba8(src.get(..16).unwrap_or(&[]), dst, pitch);
}

#[cfg(test)]
#[path = "bc7_twin.rs"]
pub(crate) mod twin;

#[cfg(test)]
#[path = "bc7_tests.rs"]
mod tests;
