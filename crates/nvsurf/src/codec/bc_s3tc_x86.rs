//! The x86_64 rows of `bc_s3tc` (run when `cpu::avx2()` allows; they use SSSE3's byte
//! shuffle): each block's palette is computed as the portable path computes it (the same
//! functions), then each row of four pixels is one shuffle of the palette by a control read
//! from a table indexed by the row's index bits, and one 16-byte store into the caller's row.
//! The portable path and this one give the same bytes (`bc_s3tc_tests.rs` compares them on
//! every mode).

use super::bc_s3tc::{colour_palette, rgtc_byte_palette, S3tc};
use core::arch::x86_64::{
    __m128i, _mm_add_epi16, _mm_and_si128, _mm_andnot_si128, _mm_loadu_si128, _mm_mulhi_epu16, _mm_mullo_epi16,
    _mm_or_si128, _mm_packus_epi16, _mm_set1_epi16, _mm_set1_epi32, _mm_set_epi64x, _mm_setr_epi16, _mm_setr_epi8,
    _mm_shuffle_epi8, _mm_storeu_si128,
};

/// For a row byte of four 2-bit colour indices: the shuffle control that puts palette word
/// `idx_j` (bytes `4 idx_j .. 4 idx_j + 3`) at pixel `j`.
static COLOUR_CTRL: [[u8; 16]; 256] = {
    let mut t = [[0u8; 16]; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        while k < 16 {
            t[b][k] = (4 * ((b >> (2 * (k / 4))) & 3) + k % 4) as u8;
            k += 1;
        }
        b += 1;
    }
    t
};

/// For two pixels' indices of `BITS` bits each (`2 BITS` bits): each pixel's index in all
/// four bytes of its 32-bit lane.
const fn pair_table<const N: usize, const BITS: usize>() -> [u64; N] {
    let mut t = [0u64; N];
    let mut v = 0;
    while v < N {
        let lo = (v & ((1 << BITS) - 1)) as u64;
        let hi = (v >> BITS) as u64;
        t[v] = (lo * 0x0101_0101) | ((hi * 0x0101_0101) << 32);
        v += 1;
    }
    t
}

/// Two 3-bit indices (BC3 alpha, BC4/BC5).
static PAIR3: [u64; 64] = pair_table::<64, 3>();
/// Two 4-bit values (BC2 alpha).
static PAIR4: [u64; 256] = pair_table::<256, 4>();

/// An 8-value palette of 8-bit endpoints `e0`, `e1` in the low 8 bytes, for both modes at
/// once in 16-bit lanes, `floor((x + bias) / k)` of `x = 2 n` (`ROUND`: the rounded mixes of
/// unsigned BC4/BC5, `rgtc_byte_palette`) or of `x = n` (BC3 alpha, `alpha_palette`, whose
/// bias is 1), for the weighted sums `n <= 7 * 255`, by multiplying by `ceil(65536 / k)`:
/// exact for these `x` (the error stays below the distance to the next integer; the tests
/// compare every endpoint pair with the portable path).
#[inline]
#[target_feature(enable = "avx2")]
fn palette8<const ROUND: bool>(e0: u8, e1: u8) -> __m128i {
    let (a, b) = (_mm_set1_epi16(i16::from(e0)), _mm_set1_epi16(i16::from(e1)));
    let sum = |w0: __m128i, w1: __m128i| {
        let n = _mm_add_epi16(_mm_mullo_epi16(w0, a), _mm_mullo_epi16(w1, b));
        if ROUND {
            _mm_add_epi16(n, n)
        } else {
            n
        }
    };
    let n6 = sum(_mm_setr_epi16(7, 0, 6, 5, 4, 3, 2, 1), _mm_setr_epi16(0, 7, 1, 2, 3, 4, 5, 6));
    let n4 = sum(_mm_setr_epi16(5, 0, 4, 3, 2, 1, 0, 0), _mm_setr_epi16(0, 5, 1, 2, 3, 4, 0, 0));
    // (2n + 7) / 14 and (2n + 5) / 10, or (n + 1) / 7 and (n + 1) / 5.
    let (b6, m6, b4, m4) = if ROUND { (7, 4682, 5, 6554) } else { (1, 9363, 1, 13108) };
    let six = _mm_mulhi_epu16(_mm_add_epi16(n6, _mm_set1_epi16(b6)), _mm_set1_epi16(m6));
    let four = _mm_mulhi_epu16(_mm_add_epi16(n4, _mm_set1_epi16(b4)), _mm_set1_epi16(m4));
    let four = _mm_or_si128(four, _mm_setr_epi16(0, 0, 0, 0, 0, 0, 0, 255));
    let pick = _mm_set1_epi16(-i16::from(e0 > e1));
    let p = _mm_or_si128(_mm_and_si128(pick, six), _mm_andnot_si128(pick, four));
    _mm_packus_epi16(p, p)
}

/// `bc::s3tc_row_rgba8` with byte shuffles. One function with closures (which inherit its
/// target features), so that everything inlines into the loop of each kind.
///
/// # Safety
/// The CPU has AVX2, and `dst` holds at least `3 pitch + 16 n` bytes for the `n` whole
/// blocks of `src`.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn row_rgba8(kind: S3tc, src: &[u8], dst: &mut [u8], pitch: usize) {
    let out = dst.as_mut_ptr();
    let store = |i: usize, rows: [__m128i; 4]| {
        for (y, r) in rows.into_iter().enumerate() {
            // SAFETY: block `i < n` and row `y <= 3` end at `y pitch + 16 i + 16 <= 3 pitch +
            // 16 n`, within `dst` (the caller's promise); an unaligned store.
            unsafe { _mm_storeu_si128(out.add(y * pitch + 16 * i).cast(), r) };
        }
    };
    let le = |b: &[u8]| u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
    // The shuffle control of a row of four 3-bit (4-bit: `PAIR4`) indices, the low bits of
    // `bits` (`pair_bits` for each two): each lane's index in the bytes `keep` leaves alone,
    // 0x80 (a zero) in the others.
    let pair_ctrl = |table: &[u64], pair_bits: u32, bits: u64, keep: __m128i| {
        let mask = (1u64 << pair_bits) - 1;
        let lo = table[(bits & mask) as usize];
        let hi = table[((bits >> pair_bits) & mask) as usize];
        _mm_or_si128(_mm_set_epi64x(hi as i64, lo as i64), keep)
    };
    // The four colour rows of a colour block `c` (8 bytes), alpha cleared when `clear` (a
    // macro: a closure this size is not inlined into the loops).
    macro_rules! colour {
        ($c:expr, $opaque:expr, $clear:expr) => {{
            let c: &[u8] = $c;
            let pal = colour_palette([c[0], c[1], c[2], c[3]], $opaque);
            // SAFETY: `pal` is 16 bytes; an unaligned load.
            let mut p = unsafe { _mm_loadu_si128(pal.as_ptr().cast()) };
            if $clear {
                p = _mm_and_si128(p, _mm_set1_epi32(0x00ff_ffff));
            }
            let idx = u32::from_le_bytes([c[4], c[5], c[6], c[7]]);
            [0, 1, 2, 3].map(|y| {
                let ctrl = &COLOUR_CTRL[(idx >> (8 * y)) as usize & 0xff];
                // SAFETY: `ctrl` is 16 bytes; an unaligned load.
                _mm_shuffle_epi8(p, unsafe { _mm_loadu_si128(ctrl.as_ptr().cast()) })
            })
        }};
    }
    let alpha_keep = _mm_set1_epi32(0x0080_8080);
    match kind {
        S3tc::Bc1 => src.chunks_exact(8).enumerate().for_each(|(i, b)| store(i, colour!(b, false, false))),
        S3tc::Bc2 => {
            // 4-bit alpha n reads 17 n.
            let pal = _mm_setr_epi8(0, 17, 34, 51, 68, 85, 102, 119, -120, -103, -86, -69, -52, -35, -18, -1);
            for (i, b) in src.chunks_exact(16).enumerate() {
                let (c, a) = (colour!(&b[8..16], true, true), le(b));
                store(
                    i,
                    [0, 1, 2, 3].map(|y| {
                        let ctrl = pair_ctrl(&PAIR4, 8, a >> (16 * y), alpha_keep);
                        _mm_or_si128(c[y], _mm_shuffle_epi8(pal, ctrl))
                    }),
                );
            }
        }
        S3tc::Bc3 => {
            for (i, b) in src.chunks_exact(16).enumerate() {
                let c = colour!(&b[8..16], true, true);
                let pal = palette8::<false>(b[0], b[1]);
                let idx = le(b) >> 16;
                store(
                    i,
                    [0, 1, 2, 3].map(|y| {
                        let ctrl = pair_ctrl(&PAIR3, 6, idx >> (12 * y), alpha_keep);
                        _mm_or_si128(c[y], _mm_shuffle_epi8(pal, ctrl))
                    }),
                );
            }
        }
        S3tc::Rgtc { channels, map } => {
            // Bytes of the channels showing C0 (C1) keep the index, the others read zero.
            let keep = |m: u32| _mm_set1_epi32((!(m * 0xff) & 0x8080_8080) as i32);
            let (k0, k1) = (keep(map.c0), keep(map.c1));
            for (i, b) in src.chunks_exact(8 * channels).enumerate() {
                let mut rows = [_mm_set1_epi32(map.base as i32); 4];
                for (c, k) in [k0, k1].into_iter().enumerate().take(channels) {
                    let blk = &b[8 * c..8 * c + 8];
                    let pal = if map.signed {
                        _mm_set_epi64x(0, rgtc_byte_palette(blk, true) as i64)
                    } else {
                        palette8::<true>(blk[0], blk[1])
                    };
                    let idx = le(blk) >> 16;
                    for (y, r) in rows.iter_mut().enumerate() {
                        let ctrl = pair_ctrl(&PAIR3, 6, idx >> (12 * y), k);
                        *r = _mm_or_si128(*r, _mm_shuffle_epi8(pal, ctrl));
                    }
                }
                store(i, rows);
            }
        }
    }
}
