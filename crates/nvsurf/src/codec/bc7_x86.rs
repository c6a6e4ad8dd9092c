//! The x86_64 rows of `bc7` (run when `cpu::avx2()` allows and the CPU has BMI2): the same
//! rule as the portable path in `bc7.rs`, with the fields spread into bytes by `pdep` and the
//! pixels mixed 16 channels at a time.
//!
//! Per block: one `match` on the mode, then for that mode's layout (const generics):
//! - each channel's endpoint fields (red of every endpoint, then green, ...) spread one to a
//!   byte by one `pdep`, the p-bits likewise, widened to 8 bits in the bytes of a `u64`, and
//!   turned into two tables of 16 bytes by byte unpacks: the first and the second endpoint of
//!   each subset, subset `s`'s channel `c` at byte `4 s + c`;
//! - the index bits, a zero bit inserted above each anchor's short index, spread one to a
//!   byte by two `pdep`s, and turned into weights by one byte shuffle of the weight table;
//! - each row of four pixels: the endpoints of each pixel's subset gathered by a byte shuffle
//!   (a control per partition shape, from the specification's tables), paired with the
//!   weights `(64 - w, w)`, and `pmaddubsw` gives `(64 - w) e0 + w e1` for 8 channels at once;
//!   `+ 32 >> 6`, packed to bytes, one 16-byte store into the caller's row.
//!
//! The tests (`bc7_tests.rs`) compare it with the portable path, the twin and bcdec_rs.

use super::bc7_tables::{
    ANCHORS2, ANCHORS3_SECOND, ANCHORS3_THIRD, PARTITIONS2, PARTITIONS3, WEIGHTS2, WEIGHTS3, WEIGHTS4,
};
use core::arch::x86_64::{
    __m128i, _mm_add_epi16, _mm_and_si128, _mm_andnot_si128, _mm_castps_si128, _mm_castsi128_ps, _mm_cvtsi64_si128,
    _mm_loadu_si128, _mm_maddubs_epi16, _mm_or_si128, _mm_packus_epi16, _mm_set1_epi16, _mm_set1_epi8, _mm_set_epi64x,
    _mm_setzero_si128, _mm_shuffle_epi8, _mm_shuffle_ps, _mm_srli_epi16, _mm_storeu_si128, _mm_sub_epi8,
    _mm_unpackhi_epi16, _mm_unpackhi_epi8, _mm_unpacklo_epi16, _mm_unpacklo_epi8, _pdep_u64,
};

/// No p-bits.
const NO_P: u32 = 0;
/// One p-bit per endpoint.
const UNIQUE_P: u32 = 1;
/// One p-bit per subset (mode 1).
const SHARED_P: u32 = 2;

/// For each partition shape (0-63: two subsets, 64-127: three, 128: one subset), the byte
/// shuffle of an endpoint table that gives each pixel its subset's channels: byte `4p + c`
/// (pixel `p`, channel `c`) is `4 s + c` for pixel `p`'s subset `s`.
static SUBSET_CTRL: [[u8; 64]; 129] = {
    let mut t = [[0u8; 64]; 129];
    let mut k = 0;
    while k < 129 {
        let mut p = 0;
        while p < 16 {
            let s = if k < 64 {
                (PARTITIONS2[k] >> p) as u8 & 1
            } else if k < 128 {
                (PARTITIONS3[k - 64] >> (2 * p)) as u8 & 3
            } else {
                0
            };
            let mut c = 0;
            while c < 4 {
                t[k][4 * p + c] = 4 * s + c as u8;
                c += 1;
            }
            p += 1;
        }
        k += 1;
    }
    t
};

/// A weight table as 16 bytes (the unused ones 0).
const fn bytes16<const N: usize>(w: [u8; N]) -> [u8; 16] {
    let mut out = [0u8; 16];
    let mut i = 0;
    while i < N {
        out[i] = w[i];
        i += 1;
    }
    out
}

/// The weights of 2-, 3- and 4-bit indices (entry `bits - 2`).
static WEIGHT_BYTES: [[u8; 16]; 3] = [bytes16(WEIGHTS2), bytes16(WEIGHTS3), bytes16(WEIGHTS4)];

/// For each rotation (modes 4 and 5): the byte shuffle of an endpoint table that swaps
/// alpha with red (1), green (2) or blue (3) in each 4-byte pixel (0: none).
static ROTATE: [[u8; 16]; 4] = {
    let mut t = [[0u8; 16]; 4];
    let mut r = 0;
    while r < 4 {
        let mut k = 0;
        while k < 16 {
            let c = k % 4;
            let from = if r > 0 && c == 3 {
                r - 1
            } else if r > 0 && c == r - 1 {
                3
            } else {
                c
            };
            t[r][k] = (k - c + from) as u8;
            k += 1;
        }
        r += 1;
    }
    t
};

/// For each rotation: 0xff in the bytes of the channel that shows the alpha indices (alpha,
/// or the channel rotated into its place), 0 in the others.
static SCALAR: [[u8; 16]; 4] = {
    let mut t = [[0u8; 16]; 4];
    let mut r = 0;
    while r < 4 {
        let mut k = 0;
        while k < 16 {
            if k % 4 == (r + 3) % 4 {
                t[r][k] = 0xff;
            }
            k += 1;
        }
        r += 1;
    }
    t
};

/// The byte shuffles that spread the 16-bit weight pairs of two pixels (lanes `2j` and
/// `2j + 1` of eight) to their four channels each.
static WEIGHT_SEL: [[u8; 16]; 4] = {
    let mut t = [[0u8; 16]; 4];
    let mut j = 0;
    while j < 4 {
        let mut k = 0;
        while k < 16 {
            t[j][k] = (2 * (2 * j + k / 8) + k % 2) as u8;
            k += 1;
        }
        j += 1;
    }
    t
};

/// `(1 << n) - 1` in each byte of a `u64`.
const fn rep(n: u32) -> u64 {
    ((1u64 << n) - 1) * 0x0101_0101_0101_0101
}

/// `n` bits (below 64) of `b` from bit `at`.
#[inline(always)]
fn field(b: u128, at: u32, n: u32) -> u64 {
    (b >> at) as u64 & ((1u64 << n) - 1)
}

/// `x` with a zero bit inserted at bit `p`.
#[inline(always)]
fn insert_zero(x: u64, p: u32) -> u64 {
    let low = (1u64 << p) - 1;
    (x & low) | ((x & !low) << 1)
}

/// 16 bytes from a table.
#[inline(always)]
fn load(t: &[u8; 16]) -> __m128i {
    // SAFETY: `t` is 16 readable bytes; an unaligned load.
    unsafe { _mm_loadu_si128(t.as_ptr().cast()) }
}

/// The endpoints of a mode with `NS` subsets, `CB`-bit colour and `AB`-bit alpha channels
/// (0: alpha 255) and p-bits `PB`, whose endpoint fields start at bit `ep`: the tables of
/// first and of second endpoints (subset `s`'s channel `c` at byte `4 s + c`).
#[inline]
#[target_feature(enable = "avx2,bmi2")]
fn endpoints<const NS: u32, const CB: u32, const AB: u32, const PB: u32>(b: u128, ep: u32) -> (__m128i, __m128i) {
    let ne = 2 * NS;
    let has_p = u32::from(PB != NO_P);
    let pbits = ep + ne * (3 * CB + AB);
    // The p-bit of each endpoint in its byte.
    let p = match PB {
        UNIQUE_P => _pdep_u64(field(b, pbits, ne), rep(1)),
        SHARED_P => {
            let x = _pdep_u64(field(b, pbits, NS), 0x0001_0001_0001_0001);
            x | (x << 8)
        }
        _ => 0,
    };
    // The `n`-bit fields of one channel from bit `at`, one to a byte, widened to 8 bits.
    let channel = |at: u32, n: u32| {
        let x = (_pdep_u64(field(b, at, ne * n), rep(n)) << has_p) | p;
        let m = n + has_p;
        let hi = x << (8 - m);
        if m == 8 {
            hi
        } else {
            hi | ((hi >> m) & rep(8 - m))
        }
    };
    let r = channel(ep, CB);
    let g = channel(ep + ne * CB, CB);
    let bl = channel(ep + 2 * ne * CB, CB);
    let a = if AB > 0 { channel(ep + 3 * ne * CB, AB) } else { u64::MAX };
    let x = |v: u64| _mm_cvtsi64_si128(v as i64);
    let rg = _mm_unpacklo_epi8(x(r), x(g));
    let ba = _mm_unpacklo_epi8(x(bl), x(a));
    // Endpoints 0-3 and 4-7 as RGBA words; the even ones are the first of each subset.
    let (lo, hi) = (_mm_castsi128_ps(_mm_unpacklo_epi16(rg, ba)), _mm_castsi128_ps(_mm_unpackhi_epi16(rg, ba)));
    (
        _mm_castps_si128(_mm_shuffle_ps::<0b10_00_10_00>(lo, hi)),
        _mm_castps_si128(_mm_shuffle_ps::<0b11_01_11_01>(lo, hi)),
    )
}

/// The weights of 16 `IB`-bit indices (pixel `i`'s at bit `IB i` of `ix`), one to a byte.
#[inline]
#[target_feature(enable = "avx2,bmi2")]
fn weights<const IB: u32>(ix: u64) -> __m128i {
    let lo = _pdep_u64(ix, rep(IB));
    let hi = _pdep_u64(ix >> (8 * IB), rep(IB));
    _mm_shuffle_epi8(load(&WEIGHT_BYTES[(IB - 2) as usize % 3]), _mm_set_epi64x(hi as i64, lo as i64))
}

/// The four rows of a block: endpoint tables `e0`, `e1`, the subset shuffle `ctrl`, the
/// weights `wc` of each pixel; with `TWO`, the channel bytes `scalar` take the weights `wa`.
#[inline]
#[target_feature(enable = "avx2,bmi2")]
fn mix_rows<const TWO: bool>(
    (e0, e1): (__m128i, __m128i),
    ctrl: &[u8; 64],
    wc: __m128i,
    wa: __m128i,
    scalar: __m128i,
) -> [__m128i; 4] {
    // (64 - w, w) byte pairs, pixels 0-7 and 8-15.
    let pairs = |w: __m128i| {
        let n = _mm_sub_epi8(_mm_set1_epi8(64), w);
        [_mm_unpacklo_epi8(n, w), _mm_unpackhi_epi8(n, w)]
    };
    let (pc, pa) = (pairs(wc), if TWO { pairs(wa) } else { [wc, wc] });
    let round = _mm_set1_epi16(32);
    // The scalar channels' 16-bit lanes (the same for every pixel).
    let m = _mm_unpacklo_epi8(scalar, scalar);
    let mut rows = [_mm_setzero_si128(); 4];
    for (y, row) in rows.iter_mut().enumerate() {
        let mut c = [0u8; 16];
        c.copy_from_slice(&ctrl[16 * y..16 * y + 16]);
        let ctrl = load(&c);
        let (a, z) = (_mm_shuffle_epi8(e0, ctrl), _mm_shuffle_epi8(e1, ctrl));
        // Pixels 4y, 4y + 1 (then 4y + 2, 4y + 3): pair q of `pc[y / 2]`, in all 4 channels.
        let half = |h: usize, e: __m128i| {
            let sel = load(&WEIGHT_SEL[2 * (y % 2) + h]);
            let mut w = _mm_shuffle_epi8(pc[y / 2], sel);
            if TWO {
                let wa = _mm_shuffle_epi8(pa[y / 2], sel);
                w = _mm_or_si128(_mm_andnot_si128(m, w), _mm_and_si128(m, wa));
            }
            _mm_srli_epi16::<6>(_mm_add_epi16(_mm_maddubs_epi16(e, w), round))
        };
        *row = _mm_packus_epi16(half(0, _mm_unpacklo_epi8(a, z)), half(1, _mm_unpackhi_epi8(a, z)));
    }
    rows
}

/// Modes 0-3, 6 and 7 (as `bc7::subsets`).
#[inline]
#[target_feature(enable = "avx2,bmi2")]
fn subsets<
    const MODE: u32,
    const NS: u32,
    const PART: u32,
    const CB: u32,
    const AB: u32,
    const PB: u32,
    const IB: u32,
>(
    b: u128,
) -> [__m128i; 4] {
    let part = field(b, MODE + 1, PART) as usize & 63;
    let ends = endpoints::<NS, CB, AB, PB>(b, MODE + 1 + PART);
    let mut ix = (b >> (128 - (16 * IB - NS))) as u64;
    ix = insert_zero(ix, IB - 1);
    let shape = match NS {
        2 => {
            ix = insert_zero(ix, IB * u32::from(ANCHORS2[part]) + IB - 1);
            part
        }
        3 => {
            let (a, z) = (u32::from(ANCHORS3_SECOND[part]), u32::from(ANCHORS3_THIRD[part]));
            ix = insert_zero(ix, IB * a.min(z) + IB - 1);
            ix = insert_zero(ix, IB * a.max(z) + IB - 1);
            64 + part
        }
        _ => 128,
    };
    let w = weights::<IB>(ix);
    mix_rows::<false>(ends, &SUBSET_CTRL[shape], w, w, w)
}

/// Modes 4 and 5 (as `bc7::rotated`).
#[inline]
#[target_feature(enable = "avx2,bmi2")]
fn rotated<const MODE: u32, const CB: u32, const AB: u32, const IB2: u32>(b: u128) -> [__m128i; 4] {
    let rot = field(b, MODE + 1, 2) as usize & 3;
    let select = MODE == 4 && field(b, 7, 1) == 1;
    let (e0, e1) = endpoints::<1, CB, AB, NO_P>(b, 8);
    let r = load(&ROTATE[rot]);
    let ends = (_mm_shuffle_epi8(e0, r), _mm_shuffle_epi8(e1, r));
    let first = 8 + 6 * CB + 2 * AB;
    let w1 = weights::<2>(insert_zero(field(b, first, 31), 1));
    let w2 = weights::<IB2>(insert_zero((b >> (first + 31)) as u64, IB2 - 1));
    let (wc, wa) = if select { (w2, w1) } else { (w1, w2) };
    mix_rows::<true>(ends, &SUBSET_CTRL[128], wc, wa, load(&SCALAR[rot]))
}

/// `bc7::bc7_row_rgba8` with `pdep` and byte shuffles.
///
/// # Safety
/// The CPU has AVX2 and BMI2, and `dst` holds at least `3 pitch + 16 n` bytes for the `n`
/// whole blocks of `src`.
#[target_feature(enable = "avx2,bmi2")]
pub(super) unsafe fn row_rgba8(src: &[u8], dst: &mut [u8], pitch: usize) {
    let out = dst.as_mut_ptr();
    for (i, blk) in src.chunks_exact(16).enumerate() {
        let mut bytes = [0u8; 16];
        bytes.copy_from_slice(blk);
        let b = u128::from_le_bytes(bytes);
        let rows = match (b as u8).trailing_zeros() {
            0 => subsets::<0, 3, 4, 4, 0, UNIQUE_P, 3>(b),
            1 => subsets::<1, 2, 6, 6, 0, SHARED_P, 3>(b),
            2 => subsets::<2, 3, 6, 5, 0, NO_P, 2>(b),
            3 => subsets::<3, 2, 6, 7, 0, UNIQUE_P, 2>(b),
            4 => rotated::<4, 5, 6, 3>(b),
            5 => rotated::<5, 7, 8, 2>(b),
            6 => subsets::<6, 1, 0, 7, 7, UNIQUE_P, 4>(b),
            7 => subsets::<7, 2, 6, 5, 5, UNIQUE_P, 2>(b),
            // The reserved mode: transparent black.
            _ => [_mm_setzero_si128(); 4],
        };
        for (y, r) in rows.into_iter().enumerate() {
            // SAFETY: block `i < n` and row `y <= 3` end at `y pitch + 16 i + 16 <= 3 pitch +
            // 16 n`, within `dst` (the caller's promise); an unaligned store.
            unsafe { _mm_storeu_si128(out.add(y * pitch + 16 * i).cast(), r) };
        }
    }
}
