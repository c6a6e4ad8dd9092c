//! x86_64 vector kernels for whole pre-G80 swizzle chunks (64x64 elements): 4-byte elements
//! (AVX-512F, runs of chunks side by side also AVX2), and 1- and 2-byte elements (AVX-512 VBMI
//! and BW respectively, each with an AVX2 twin); 8-byte elements are in [`super::x86_swizzle_es8`].
//! Only the raw movers call them, on line-aligned buffers and pitches.

use super::swizzled::STRIP_ORDER;
use core::arch::x86_64::*;

/// [`untile_chunk_run_es4`] the other way: for each of a band's groups, its four
/// 64-byte row pieces become its four tiles (two-source dword permutes of rows 0 and 1,
/// and of rows 2 and 3, give each tile's first and last 32 bytes), and the four tiles'
/// 64-byte lines are stored whole, one after the other.
///
/// Each tile line stored whole, which measured fastest
/// ([docs/perf/swizzle-chunks.md](../../../../../docs/perf/swizzle-chunks.md)).
///
/// # Safety
/// As for [`untile_chunk_run_es4`] with reads and writes exchanged.
#[target_feature(enable = "avx512f")]
pub(super) unsafe fn tile_chunk_run_es4(
    linear: *const u8,
    offs: &[usize],
    tiled: *mut u8,
    rp: usize,
    table: &[usize; 256],
    rows: &[u8; 64],
) {
    // The inverse of `untile_group_half`'s permutes: two rows (first and second source)
    // become 32 bytes of each of tiles A and B (`fab`) and of C and D (`fcd`): the
    // first 32 from rows 0 and 1, the last 32 from rows 2 and 3.
    let fab = _mm512_setr_epi32(0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23);
    let fcd = _mm512_setr_epi32(8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31);
    for band in rows.chunks_exact(4) {
        let o = linear.wrapping_add(table[usize::from(band[0])]);
        for (c, &t) in offs.iter().enumerate() {
            for (g, &k) in band.iter().enumerate() {
                // SAFETY: per the function's contract: the band's 4 rows, 64 bytes at
                // column `c * 256 + g * 64` of the run's, and group `k`'s four tiles
                // (64 bytes each at 0, 64, 256 and 320 bytes from its first) in chunk `c`.
                unsafe {
                    let src = o.add(c * 256 + g * 64);
                    let r: [__m512i; 4] =
                        core::array::from_fn(|i| _mm512_loadu_si512(src.add(i * rp) as *const __m512i));
                    let ab01 = _mm512_permutex2var_epi32(r[0], fab, r[1]);
                    let cd01 = _mm512_permutex2var_epi32(r[0], fcd, r[1]);
                    let ab23 = _mm512_permutex2var_epi32(r[2], fab, r[3]);
                    let cd23 = _mm512_permutex2var_epi32(r[2], fcd, r[3]);
                    let d = tiled.add(t + usize::from(k) * 64);
                    let st = |at: usize, v: __m256i| _mm256_storeu_si256(d.add(at) as *mut __m256i, v);
                    st(0, _mm512_castsi512_si256(ab01));
                    st(32, _mm512_castsi512_si256(ab23));
                    st(64, _mm512_extracti64x4_epi64::<1>(ab01));
                    st(96, _mm512_extracti64x4_epi64::<1>(ab23));
                    st(256, _mm512_castsi512_si256(cd01));
                    st(288, _mm512_castsi512_si256(cd23));
                    st(320, _mm512_extracti64x4_epi64::<1>(cd01));
                    st(352, _mm512_extracti64x4_epi64::<1>(cd23));
                }
            }
        }
    }
}

/// A run of whole 64x64 chunks side by side along x (chunk `c` at tiled offset
/// `offs[c]`, its linear origin `256 * c` bytes right of the run's), tiled -> linear,
/// band of 4 rows by band across the whole run: each group of four tiles gives its
/// four 64-byte row pieces ([`untile_group_half`] twice), so the band's 4 rows are
/// written left to right, up to 4096 bytes each.
///
/// Long row runs are what make it fast
/// ([docs/perf/swizzle-chunks.md](../../../../../docs/perf/swizzle-chunks.md)).
///
/// # Safety
/// The CPU has AVX-512F; `tiled + offs[c]` is readable for 16384 bytes for each `c`;
/// `linear + r * rp` is writable for `256 * offs.len()` bytes, `r` in 0..64, not
/// overlapping them; `table` is the tile table of a 64x64 chunk for row pitch `rp` and
/// `rows` lists its 64 group-first tiles (each once) by linear offset, so that a band's
/// 4 groups sit at 0, 64, 128 and 192 bytes from the first one's offset.
#[target_feature(enable = "avx512f")]
pub(super) unsafe fn untile_chunk_run_es4(
    tiled: *const u8,
    offs: &[usize],
    linear: *mut u8,
    rp: usize,
    table: &[usize; 256],
    rows: &[u8; 64],
) {
    for band in rows.chunks_exact(4) {
        let o = linear.wrapping_add(table[usize::from(band[0])]);
        for (c, &t) in offs.iter().enumerate() {
            for (g, &k) in band.iter().enumerate() {
                // SAFETY: per the function's contract: group `k` of chunk `c`, and the
                // band's 4 rows, 64 bytes at column `c * 256 + g * 64` of the run's.
                unsafe {
                    let s = tiled.add(t + usize::from(k) * 64);
                    let [r0, r1] = untile_group_half(s, 0);
                    let [r2, r3] = untile_group_half(s, 1);
                    let d = o.add(c * 256 + g * 64);
                    _mm512_storeu_si512(d as *mut __m512i, r0);
                    _mm512_storeu_si512(d.add(rp) as *mut __m512i, r1);
                    _mm512_storeu_si512(d.add(2 * rp) as *mut __m512i, r2);
                    _mm512_storeu_si512(d.add(3 * rp) as *mut __m512i, r3);
                }
            }
        }
    }
}

/// [`untile_chunk_run_es4`] with AVX2, for CPUs without AVX-512. A tile's first 32
/// bytes hold its rows 0 and 1 as 8-byte halves alternating (row 0 at quadwords 0 and
/// 2, row 1 at 1 and 3), its last 32 bytes rows 2 and 3 likewise. For tiles `A` and `B`
/// side by side, an in-lane unpack of their halves puts row 0's four quadwords in one
/// register (A0 B0 | A1 B1) and a quadword permute (0, 2, 1, 3) orders them: 32 linear
/// bytes per unpack and permute. Each group's 4 rows of 64 bytes are stored before the
/// next group's, so a band fills its 4 rows left to right across the run.
///
/// # Safety
/// The CPU has AVX2; `tiled + offs[c]`, `linear` and `rp` are multiples of 32 (the
/// loads and stores are aligned: every offset added is a multiple of 32, the tables'
/// group offsets being 64-byte columns plus whole rows); otherwise as for
/// [`untile_chunk_run_es4`].
#[target_feature(enable = "avx2")]
pub(super) unsafe fn untile_chunk_run_es4_avx2(
    tiled: *const u8,
    offs: &[usize],
    linear: *mut u8,
    rp: usize,
    table: &[usize; 256],
    rows: &[u8; 64],
) {
    for band in rows.chunks_exact(4) {
        let o = linear.wrapping_add(table[usize::from(band[0])]);
        for (c, &t) in offs.iter().enumerate() {
            for (g, &k) in band.iter().enumerate() {
                // SAFETY: per the function's contract: group `k` of chunk `c` (tiles
                // `k`, `k + 1` at 0 and 64 bytes, `k + 4`, `k + 5` at 256 and 320), and
                // 64 bytes of each of the band's rows at column `c * 256 + g * 64`.
                unsafe {
                    let s = tiled.add(t + usize::from(k) * 64);
                    let d = o.add(c * 256 + g * 64);
                    for (r, at) in [(0, [0, 64, 256, 320]), (2, [32, 96, 288, 352])] {
                        let a = _mm256_load_si256(s.add(at[0]) as *const __m256i);
                        let b = _mm256_load_si256(s.add(at[1]) as *const __m256i);
                        let c = _mm256_load_si256(s.add(at[2]) as *const __m256i);
                        let e = _mm256_load_si256(s.add(at[3]) as *const __m256i);
                        let row0_ab = _mm256_permute4x64_epi64::<0xd8>(_mm256_unpacklo_epi64(a, b));
                        let row0_ce = _mm256_permute4x64_epi64::<0xd8>(_mm256_unpacklo_epi64(c, e));
                        let row1_ab = _mm256_permute4x64_epi64::<0xd8>(_mm256_unpackhi_epi64(a, b));
                        let row1_ce = _mm256_permute4x64_epi64::<0xd8>(_mm256_unpackhi_epi64(c, e));
                        _mm256_store_si256(d.add(r * rp) as *mut __m256i, row0_ab);
                        _mm256_store_si256(d.add(r * rp + 32) as *mut __m256i, row0_ce);
                        _mm256_store_si256(d.add((r + 1) * rp) as *mut __m256i, row1_ab);
                        _mm256_store_si256(d.add((r + 1) * rp + 32) as *mut __m256i, row1_ce);
                    }
                }
            }
        }
    }
}

/// [`untile_chunk_run_es4_avx2`] the other way: the quadword permute first, then
/// in-lane unpacks of two rows give tile `A`'s and tile `B`'s halves.
///
/// # Safety
/// The CPU has AVX2; `tiled + offs[c]`, `linear` and `rp` are multiples of 32, as for
/// [`untile_chunk_run_es4_avx2`]; otherwise as for [`tile_chunk_run_es4`].
#[target_feature(enable = "avx2")]
pub(super) unsafe fn tile_chunk_run_es4_avx2(
    linear: *const u8,
    offs: &[usize],
    tiled: *mut u8,
    rp: usize,
    table: &[usize; 256],
    rows: &[u8; 64],
) {
    for band in rows.chunks_exact(4) {
        let o = linear.wrapping_add(table[usize::from(band[0])]);
        for (c, &t) in offs.iter().enumerate() {
            for (g, &k) in band.iter().enumerate() {
                // SAFETY: per the function's contract, as in the untile twin with reads
                // and writes exchanged.
                unsafe {
                    let s = o.add(c * 256 + g * 64);
                    let d = tiled.add(t + usize::from(k) * 64);
                    for (r, at) in [(0, [0, 64, 256, 320]), (2, [32, 96, 288, 352])] {
                        let r0a = _mm256_load_si256(s.add(r * rp) as *const __m256i);
                        let r0b = _mm256_load_si256(s.add(r * rp + 32) as *const __m256i);
                        let r1a = _mm256_load_si256(s.add((r + 1) * rp) as *const __m256i);
                        let r1b = _mm256_load_si256(s.add((r + 1) * rp + 32) as *const __m256i);
                        let (r0a, r0b) = (_mm256_permute4x64_epi64::<0xd8>(r0a), _mm256_permute4x64_epi64::<0xd8>(r0b));
                        let (r1a, r1b) = (_mm256_permute4x64_epi64::<0xd8>(r1a), _mm256_permute4x64_epi64::<0xd8>(r1b));
                        _mm256_store_si256(d.add(at[0]) as *mut __m256i, _mm256_unpacklo_epi64(r0a, r1a));
                        _mm256_store_si256(d.add(at[1]) as *mut __m256i, _mm256_unpackhi_epi64(r0a, r1a));
                        _mm256_store_si256(d.add(at[2]) as *mut __m256i, _mm256_unpacklo_epi64(r0b, r1b));
                        _mm256_store_si256(d.add(at[3]) as *mut __m256i, _mm256_unpackhi_epi64(r0b, r1b));
                    }
                }
            }
        }
    }
}

/// The 4x4 transpose of 128-bit lanes: lane `i` of output `r` is lane `r` of input `i`
/// (its own inverse).
#[inline]
#[target_feature(enable = "avx512f")]
fn transpose_lanes(v: [__m512i; 4]) -> [__m512i; 4] {
    let t0 = _mm512_shuffle_i64x2::<0x44>(v[0], v[1]);
    let t1 = _mm512_shuffle_i64x2::<0xee>(v[0], v[1]);
    let t2 = _mm512_shuffle_i64x2::<0x44>(v[2], v[3]);
    let t3 = _mm512_shuffle_i64x2::<0xee>(v[2], v[3]);
    [
        _mm512_shuffle_i64x2::<0x88>(t0, t2),
        _mm512_shuffle_i64x2::<0xdd>(t0, t2),
        _mm512_shuffle_i64x2::<0x88>(t1, t3),
        _mm512_shuffle_i64x2::<0xdd>(t1, t3),
    ]
}

/// The 8x8 transpose of 64-bit quadwords: quadword `j` of output `y` is quadword `y`
/// of input `j` (its own inverse).
#[inline]
#[target_feature(enable = "avx512f")]
fn transpose_qwords(v: [__m512i; 8]) -> [__m512i; 8] {
    // Pairs of inputs: even quadwords (rows 0, 2, 4, 6) and odd ones, per 128-bit lane.
    let u: [__m512i; 8] = core::array::from_fn(|i| {
        let (a, b) = (v[i & !1], v[i | 1]);
        if i & 1 == 0 {
            _mm512_unpacklo_epi64(a, b)
        } else {
            _mm512_unpackhi_epi64(a, b)
        }
    });
    // u[2p + o] holds rows o, o + 2, o + 4, o + 6 (lanes 0..4) of inputs 2p and 2p + 1.
    let w: [__m512i; 8] = core::array::from_fn(|i| {
        // i = 4 * h + 2 * s + o: inputs (4h..4h+4), lane pick s (rows o + 4s... ).
        let (h, s, o) = (i >> 2, (i >> 1) & 1, i & 1);
        let (a, b) = (u[4 * h + o], u[4 * h + 2 + o]);
        if s == 0 {
            _mm512_shuffle_i64x2::<0x88>(a, b)
        } else {
            _mm512_shuffle_i64x2::<0xdd>(a, b)
        }
    });
    // w[4h + 2s + o]: rows o + 2s (lanes 0, 2 of the shuffle: inputs 4h..4h+4) and
    // o + 2s + 4 (lanes 1, 3).
    core::array::from_fn(|y| {
        let (o, s, hi) = (y & 1, (y >> 1) & 1, y >> 2);
        let (a, b) = (w[2 * s + o], w[4 + 2 * s + o]);
        if hi == 0 {
            _mm512_shuffle_i64x2::<0x88>(a, b)
        } else {
            _mm512_shuffle_i64x2::<0xdd>(a, b)
        }
    })
}

/// The permute that makes rows of a Morton block of `N` elements, `8` pixels wide: entry
/// `8 y + x` is the element index of pixel (x, y), whose bits interleave x and y
/// (x0 y0 x1 y1 x2 y2, as far as the block's height goes).
const fn morton_rows<const N: usize>() -> [u8; N] {
    let mut out = [0u8; N];
    let mut p = 0;
    while p < N {
        let (x, y) = (p % 8, p / 8);
        let mut e = 0;
        let mut b = 0;
        while b < 3 {
            e |= (x >> b & 1) << (2 * b) | (y >> b & 1) << (2 * b + 1);
            b += 1;
        }
        out[p] = e as u8;
        p += 1;
    }
    out
}

/// Byte permute for a 1-byte chunk: 64 tiled bytes (index bits x0 y0 x1 y1 x2 y2: 8 x
/// 8 pixels) to 8 rows of 8 bytes, one per quadword.
const ES1_ROWS: [u8; 64] = morton_rows();

/// Word permute for a 2-byte chunk, as bytes: 64 tiled bytes (32 elements, index bits
/// x0 y0 x1 y1 x2: 8 x 4 pixels) to 4 rows of 16 bytes, one per 128-bit lane.
const ES2_ROWS_U8: [u8; 32] = morton_rows();

/// [`ES2_ROWS_U8`] as words, for the word permute.
const ES2_ROWS: [u16; 32] = words(ES2_ROWS_U8);

/// The inverse of a permute table: entry `e` is where element `e` went.
const fn inverse<const N: usize>(t: [u8; N]) -> [u8; N] {
    let mut out = [0u8; N];
    let mut p = 0;
    while p < N {
        out[t[p] as usize] = p as u8;
        p += 1;
    }
    out
}

/// Widens a 32-entry byte table to words.
const fn words(t: [u8; 32]) -> [u16; 32] {
    let mut out = [0u16; 32];
    let mut p = 0;
    while p < 32 {
        out[p] = t[p] as u16;
        p += 1;
    }
    out
}

/// Offset in bytes, inside a 64x64 chunk of `es`-byte elements (index bits x0 y0 ..
/// x5 y5), of index bit `b` set alone.
const fn bit_bytes(b: u32, es: usize) -> usize {
    (1 << b) * es
}

/// Strip `j`'s byte offset inside a band of a 64x64 chunk of `es`-byte elements:
/// index bits x3, x4, x5 (bits 6, 8, 10) = `j`.
#[inline(always)]
pub(super) const fn strip_bytes(j: usize, es: usize) -> usize {
    (j & 1) * bit_bytes(6, es) + (j >> 1 & 1) * bit_bytes(8, es) + (j >> 2) * bit_bytes(10, es)
}

/// Chunks of 2-byte elements (index bits x0 y0 .. x5 y5) side by side, tiled ->
/// linear, band of 4 rows by band across all of them (each row written 128 bytes per
/// chunk, left to right). In a band (index bits y2..y5 = `t`), a 64-byte tiled vector
/// is 8 x 4 pixels (strip `j`: index bits x3 x4 x5 = `j`); a word permute makes its
/// 128-bit lanes rows, and a lane transpose of strips 0-3 (then 4-7) gives each row's
/// two 64-byte halves.
///
/// # Safety
/// The CPU has AVX-512F and AVX-512BW; for each `c`, `tiled + offs[c]` is readable for
/// 8192 bytes and `linear + 128 * c + r * rp` writable for 128 bytes, `r` in 0..64;
/// no overlap between reads and writes.
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) unsafe fn untile_chunks_es2(tiled: *const u8, offs: &[usize], linear: *mut u8, rp: usize) {
    // SAFETY: reading a 64-byte table of the right size.
    let idx = unsafe { _mm512_loadu_si512(ES2_ROWS.as_ptr() as *const __m512i) };
    for t in 0..16usize {
        let tb = (t & 1) * bit_bytes(5, 2)
            + (t >> 1 & 1) * bit_bytes(7, 2)
            + (t >> 2 & 1) * bit_bytes(9, 2)
            + (t >> 3) * bit_bytes(11, 2);
        for (c, &off) in offs.iter().enumerate() {
            // SAFETY: tb + strip_bytes + 64 <= 8192 (chunk `c`'s bytes).
            let strips: [__m512i; 8] = core::array::from_fn(|j| unsafe {
                let v = _mm512_loadu_si512(tiled.add(off + tb + strip_bytes(j, 2)) as *const __m512i);
                _mm512_permutexvar_epi16(idx, v)
            });
            for h in 0..2 {
                let quarter = [strips[4 * h], strips[4 * h + 1], strips[4 * h + 2], strips[4 * h + 3]];
                for (r, v) in transpose_lanes(quarter).into_iter().enumerate() {
                    // SAFETY: row 4t + r of chunk `c`, bytes 64h..64h + 64 of its 128.
                    unsafe { _mm512_storeu_si512(linear.add(128 * c + (4 * t + r) * rp + 64 * h) as *mut __m512i, v) };
                }
            }
        }
    }
}

/// [`untile_chunks_es2`] the other way (the lane transpose is its own inverse, then the
/// inverse word permute).
///
/// # Safety
/// As for [`untile_chunks_es2`] with reads and writes exchanged.
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) unsafe fn tile_chunks_es2(linear: *const u8, offs: &[usize], tiled: *mut u8, rp: usize) {
    const INV: [u16; 32] = words(inverse(ES2_ROWS_U8));
    // SAFETY: reading a 64-byte table of the right size.
    let idx = unsafe { _mm512_loadu_si512(INV.as_ptr() as *const __m512i) };
    for t in 0..16usize {
        let tb = (t & 1) * bit_bytes(5, 2)
            + (t >> 1 & 1) * bit_bytes(7, 2)
            + (t >> 2 & 1) * bit_bytes(9, 2)
            + (t >> 3) * bit_bytes(11, 2);
        for (c, &off) in offs.iter().enumerate() {
            for h in 0..2 {
                // SAFETY: row 4t + r of chunk `c`, bytes 64h..64h + 64 of its 128.
                let rows: [__m512i; 4] = core::array::from_fn(|r| unsafe {
                    _mm512_loadu_si512(linear.add(128 * c + (4 * t + r) * rp + 64 * h) as *const __m512i)
                });
                for (i, v) in transpose_lanes(rows).into_iter().enumerate() {
                    let at = off + tb + strip_bytes(4 * h + i, 2);
                    // SAFETY: tb + strip_bytes + 64 <= 8192 (chunk `c`'s bytes).
                    unsafe { _mm512_storeu_si512(tiled.add(at) as *mut __m512i, _mm512_permutexvar_epi16(idx, v)) };
                }
            }
        }
    }
}

/// Chunks of 1-byte elements (index bits x0 y0 .. x5 y5) side by side, tiled ->
/// linear, band of 8 rows by band across all of them (each row written 64 bytes per
/// chunk, left to right). In a band (index bits y3 y4 y5 = `t`), a 64-byte tiled
/// vector is 8 x 8 pixels (strip `j`: index bits x3 x4 x5 = `j`); a byte permute
/// makes its quadwords rows, and an 8x8 quadword transpose of the 8 strips gives the
/// band's 8 rows of 64 bytes.
///
/// # Safety
/// The CPU has AVX-512F, AVX-512BW and AVX-512 VBMI; for each `c`, `tiled + offs[c]` is
/// readable for 4096 bytes and `linear + 64 * c + r * rp` writable for 64 bytes, `r` in
/// 0..64; no overlap between reads and writes.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(super) unsafe fn untile_chunks_es1(tiled: *const u8, offs: &[usize], linear: *mut u8, rp: usize) {
    // SAFETY: reading a 64-byte table of the right size.
    let idx = unsafe { _mm512_loadu_si512(ES1_ROWS.as_ptr() as *const __m512i) };
    for t in 0..8usize {
        let tb = (t & 1) * bit_bytes(7, 1) + (t >> 1 & 1) * bit_bytes(9, 1) + (t >> 2) * bit_bytes(11, 1);
        for (c, &off) in offs.iter().enumerate() {
            // SAFETY: tb + strip_bytes + 64 <= 4096 (chunk `c`'s bytes).
            let strips: [__m512i; 8] = core::array::from_fn(|j| unsafe {
                let v = _mm512_loadu_si512(tiled.add(off + tb + strip_bytes(j, 1)) as *const __m512i);
                _mm512_permutexvar_epi8(idx, v)
            });
            for (r, v) in transpose_qwords(strips).into_iter().enumerate() {
                // SAFETY: row 8t + r of chunk `c`, its 64 bytes.
                unsafe { _mm512_storeu_si512(linear.add(64 * c + (8 * t + r) * rp) as *mut __m512i, v) };
            }
        }
    }
}

/// [`untile_chunks_es1`] the other way (the quadword transpose is its own inverse,
/// then the inverse byte permute).
///
/// # Safety
/// As for [`untile_chunks_es1`] with reads and writes exchanged.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(super) unsafe fn tile_chunks_es1(linear: *const u8, offs: &[usize], tiled: *mut u8, rp: usize) {
    const INV: [u8; 64] = inverse(ES1_ROWS);
    // SAFETY: reading a 64-byte table of the right size.
    let idx = unsafe { _mm512_loadu_si512(INV.as_ptr() as *const __m512i) };
    for t in 0..8usize {
        let tb = (t & 1) * bit_bytes(7, 1) + (t >> 1 & 1) * bit_bytes(9, 1) + (t >> 2) * bit_bytes(11, 1);
        for (c, &off) in offs.iter().enumerate() {
            // SAFETY: row 8t + r of chunk `c`, its 64 bytes.
            let rows: [__m512i; 8] = core::array::from_fn(|r| unsafe {
                _mm512_loadu_si512(linear.add(64 * c + (8 * t + r) * rp) as *const __m512i)
            });
            for (j, v) in transpose_qwords(rows).into_iter().enumerate() {
                let at = off + tb + strip_bytes(j, 1);
                // SAFETY: tb + strip_bytes + 64 <= 4096 (chunk `c`'s bytes).
                unsafe { _mm512_storeu_si512(tiled.add(at) as *mut __m512i, _mm512_permutexvar_epi8(idx, v)) };
            }
        }
    }
}

/// The 4x4 transpose of 64-bit quadwords across four 256-bit vectors: quadword `i` of
/// output `r` is quadword `r` of input `i` (its own inverse).
#[inline]
#[target_feature(enable = "avx2")]
fn transpose_qwords4(v: [__m256i; 4]) -> [__m256i; 4] {
    let lo01 = _mm256_unpacklo_epi64(v[0], v[1]);
    let hi01 = _mm256_unpackhi_epi64(v[0], v[1]);
    let lo23 = _mm256_unpacklo_epi64(v[2], v[3]);
    let hi23 = _mm256_unpackhi_epi64(v[2], v[3]);
    [
        _mm256_permute2x128_si256::<0x20>(lo01, lo23),
        _mm256_permute2x128_si256::<0x20>(hi01, hi23),
        _mm256_permute2x128_si256::<0x31>(lo01, lo23),
        _mm256_permute2x128_si256::<0x31>(hi01, hi23),
    ]
}

/// In-lane byte shuffles making quadword rows of a 32-byte tiled vector (AVX2 twins of
/// the 1- and 2-byte chunk kernels). 2 bytes: a 128-bit lane is 4 x 2 pixels (index
/// bits x0 y0 x1; the lane is y1), each row to one quadword. 1 byte: a lane is 4 x 4
/// pixels (x0 y0 x1 y1; the lane is x2), each row to one doubleword; a doubleword
/// permute (0, 4, 1, 5, 2, 6, 3, 7) then joins the lanes' rows into quadwords.
const fn lane_rows(es: usize) -> [u8; 32] {
    let mut out = [0u8; 32];
    let mut p = 0;
    while p < 16 {
        // Output byte `p` of a lane: pixel (x, y) and byte `k` of the element.
        let (k, px) = (p % es, p / es);
        let (x, y) = (px % 4, px / 4);
        let e = (x & 1) | (y & 1) << 1 | (x >> 1 & 1) << 2 | (y >> 1 & 1) << 3;
        out[p] = (e * es + k) as u8;
        out[16 + p] = out[p];
        p += 1;
    }
    out
}

/// Byte offset of column unit `u` (2 bytes: a 4-pixel tile column, index bits x2 x3
/// x4 x5 = `u`; 1 byte: an 8-pixel column, x3 x4 x5 = `u`) and of band `t` (index
/// bits y2 y3 y4 y5 = `t`, 4 rows) inside a 64x64 chunk of `es`-byte elements.
#[inline(always)]
const fn unit_bytes(u: usize, es: usize) -> usize {
    if es == 2 {
        (u & 1) * bit_bytes(4, 2)
            + (u >> 1 & 1) * bit_bytes(6, 2)
            + (u >> 2 & 1) * bit_bytes(8, 2)
            + (u >> 3) * bit_bytes(10, 2)
    } else {
        strip_bytes(u, 1)
    }
}

/// See [`unit_bytes`].
#[inline(always)]
pub(super) const fn band_bytes(t: usize, es: usize) -> usize {
    (t & 1) * bit_bytes(5, es)
        + (t >> 1 & 1) * bit_bytes(7, es)
        + (t >> 2 & 1) * bit_bytes(9, es)
        + (t >> 3) * bit_bytes(11, es)
}

/// A 32-byte shuffle or permute table as a vector whose contents the compiler cannot
/// see (through `black_box`). With the constants in view, LLVM rewrote the 1-byte
/// kernels' byte shuffle and doubleword permute as some 8 shuffles on 128-bit halves
/// per vector, and 1-byte tile ran at 0.39-0.41x memcpy against 0.58-0.70x as written
/// (swizzled-2048x2048x1, one thread, `--vector-limit avx2`, three interleaved runs of
/// each binary).
#[inline]
#[target_feature(enable = "avx2")]
fn opaque_table<T: Copy>(table: &T) -> __m256i {
    const { assert!(core::mem::size_of::<T>() == 32, "a 32-byte table") };
    // SAFETY: `table` is 32 readable bytes (checked at compile time); an unaligned load
    // reads them.
    unsafe { _mm256_loadu_si256(core::hint::black_box(table as *const T) as *const __m256i) }
}

/// AVX2 twin of [`untile_chunks_es2`] / [`untile_chunks_es1`] (`ES` 2 or 1): band of 4
/// rows by band across the chunks. A 32-byte tiled vector is a column unit of the band
/// ([`unit_bytes`]: 4 x 4 pixels of 2 bytes, or 8 x 4 of 1 byte); byte shuffles make
/// its quadwords rows ([`lane_rows`]), and a quadword transpose of 4 units gives 4
/// rows of 32 bytes.
///
/// # Safety
/// The CPU has AVX2; for each `c`, `tiled + offs[c]` is readable for 4096 * ES bytes and
/// `linear + 64 * ES * c + r * rp` writable for 64 * ES bytes, `r` in 0..64; no overlap
/// between reads and writes.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn untile_chunks_small_avx2<const ES: usize>(
    tiled: *const u8,
    offs: &[usize],
    linear: *mut u8,
    rp: usize,
) {
    const { assert!(ES == 1 || ES == 2) };
    const JOIN: [i32; 8] = [0, 4, 1, 5, 2, 6, 3, 7];
    let shuf_table = lane_rows(ES);
    let (shuf, join) = (opaque_table(&shuf_table), opaque_table(&JOIN));
    // 16 units of 4 pixels (2 bytes), 8 of 8 pixels (1 byte).
    let units = 8 * ES;
    // With 1-byte elements a vector is half a line (the other half is the next band's):
    // bands go in pairs so that each line is used whole at once.
    let pair = 3 - ES;
    for t0 in (0..16usize).step_by(pair) {
        for (c, &off) in offs.iter().enumerate() {
            for k in 0..pair * units / 4 {
                let (t, g) = (t0 + k / (units / 4), k % (units / 4));
                let tb = band_bytes(t, ES);
                // SAFETY: band and unit offsets stay inside chunk `c`'s 4096 * ES bytes.
                let v: [__m256i; 4] = core::array::from_fn(|i| unsafe {
                    let x = _mm256_loadu_si256(tiled.add(off + tb + unit_bytes(4 * g + i, ES)) as *const __m256i);
                    let x = _mm256_shuffle_epi8(x, shuf);
                    if ES == 1 {
                        _mm256_permutevar8x32_epi32(x, join)
                    } else {
                        x
                    }
                });
                for (r, row) in transpose_qwords4(v).into_iter().enumerate() {
                    let at = 64 * ES * c + (4 * t + r) * rp + 32 * g;
                    // SAFETY: row 4t + r of chunk `c`, 32 bytes of its 64 * ES.
                    unsafe { _mm256_storeu_si256(linear.add(at) as *mut __m256i, row) };
                }
            }
        }
    }
}

/// [`untile_chunks_small_avx2`] the other way.
///
/// # Safety
/// As for [`untile_chunks_small_avx2`] with reads and writes exchanged.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn tile_chunks_small_avx2<const ES: usize>(
    linear: *const u8,
    offs: &[usize],
    tiled: *mut u8,
    rp: usize,
) {
    const { assert!(ES == 1 || ES == 2) };
    const SPLIT: [i32; 8] = [0, 2, 4, 6, 1, 3, 5, 7];
    let unshuf_table = {
        let t = lane_rows(ES);
        let mut out = [0u8; 32];
        let mut p = 0;
        while p < 16 {
            out[t[p] as usize] = p as u8;
            out[16 + t[p] as usize] = p as u8;
            p += 1;
        }
        out
    };
    let (unshuf, split) = (opaque_table(&unshuf_table), opaque_table(&SPLIT));
    let units = 8 * ES;
    let pair = 3 - ES;
    for t0 in (0..16usize).step_by(pair) {
        for (c, &off) in offs.iter().enumerate() {
            for k in 0..pair * units / 4 {
                let (t, g) = (t0 + k / (units / 4), k % (units / 4));
                let tb = band_bytes(t, ES);
                // SAFETY: row 4t + r of chunk `c`, 32 bytes of its 64 * ES.
                let rows: [__m256i; 4] = core::array::from_fn(|r| unsafe {
                    _mm256_loadu_si256(linear.add(64 * ES * c + (4 * t + r) * rp + 32 * g) as *const __m256i)
                });
                for (i, x) in transpose_qwords4(rows).into_iter().enumerate() {
                    let x = if ES == 1 { _mm256_permutevar8x32_epi32(x, split) } else { x };
                    let x = _mm256_shuffle_epi8(x, unshuf);
                    let at = off + tb + unit_bytes(4 * g + i, ES);
                    // SAFETY: band and unit offsets stay inside chunk `c`'s 4096 * ES bytes.
                    unsafe { _mm256_storeu_si256(tiled.add(at) as *mut __m256i, x) };
                }
            }
        }
    }
}

/// Two of the four 64-byte linear rows of the group of four tiles A, B, C, D at `s`
/// (tiles at `s`, `s + 64`, `s + 256`, `s + 320`), as in [`untile_chunk_es4`]: rows 0
/// and 1 for `half` 0, rows 2 and 3 for `half` 1. A tile's first 32 bytes are its 2x2
/// blocks of rows 0 and 1 (128-bit lanes: x1 = 0, then 1; in a lane, x0 then y0), its
/// last 32 bytes those of rows 2 and 3. Joining A's and B's halves (and C's and D's)
/// as 256-bit loads puts 8 columns of both rows in one register, in x order by 2x2
/// block; one two-source dword permute then picks each row's 16 columns. (Fewer shuffles than four
/// 64-byte loads: [docs/perf/swizzle-chunks.md](../../../../../docs/perf/swizzle-chunks.md).)
///
/// # Safety
/// The CPU has AVX-512F; the 32 bytes at `s + 32 * half` of each of the four tiles are
/// readable.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn untile_group_half(s: *const u8, half: usize) -> [__m512i; 2] {
    let e0 = _mm512_setr_epi32(0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29);
    let e1 = _mm512_setr_epi32(2, 3, 6, 7, 10, 11, 14, 15, 18, 19, 22, 23, 26, 27, 30, 31);
    // SAFETY: per the function's contract.
    unsafe {
        let s = s.add(32 * half);
        let h = |o: usize| _mm256_loadu_si256(s.add(o) as *const __m256i);
        let ab = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(h(0)), h(64));
        let cd = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(h(256)), h(320));
        [_mm512_permutex2var_epi32(ab, e0, cd), _mm512_permutex2var_epi32(ab, e1, cd)]
    }
}

/// The four 64-byte linear rows of the group of four tiles at `s` (128 tiled bytes at
/// `s` and 128 at `s + 256`), as in [`untile_chunk_es4`].
///
/// # Safety
/// The CPU has AVX-512F; those 256 bytes are readable.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn untile_group(s: *const u8) -> [__m512i; 4] {
    // SAFETY: per the function's contract.
    let ([r0, r1], [r2, r3]) = unsafe { (untile_group_half(s, 0), untile_group_half(s, 1)) };
    [r0, r1, r2, r3]
}

/// One chunk, tiled -> linear. A tile of 4x4 elements is one 64-byte vector (element
/// `e` at lane `e`, index bits x0 y0 x1 y1, so row `y` is lanes `b, b + 1, b + 4, b + 5`
/// with `b = 2 * (y & 1) + 8 * (y >> 1)`). For each group of four tiles A, B, C, D side
/// by side along x (tiles `k, k + 1, k + 4, k + 5`: 128 tiled bytes at `k * 64` and 128
/// at `k * 64 + 256`), [`untile_group`] makes its four 64-byte linear rows (each half
/// of the tiles' bytes, joined by an insert, gives two rows by one dword permute each).
///
/// # Safety
/// The CPU has AVX-512F; `tiled` is readable for 16384 bytes; for every group's first
/// tile `k`, `linear + table[k] + r * rp` is writable for 64 bytes, `r` in 0..4 (that
/// is, tiles `k + 1`, `k + 4`, `k + 5` are at `table[k] + 16`, `+ 32`, `+ 48`); the
/// ranges do not overlap.
#[target_feature(enable = "avx512f")]
pub(super) unsafe fn untile_chunk_es4(tiled: *const u8, linear: *mut u8, rp: usize, table: &[usize; 256]) {
    let mut g = 0;
    while g < 256 {
        let k = usize::from(STRIP_ORDER[g]);
        // SAFETY: per the function's contract.
        unsafe {
            let o = linear.add(table[k]);
            for (r, v) in untile_group(tiled.add(k * 64)).into_iter().enumerate() {
                _mm512_storeu_si512(o.add(r * rp) as *mut __m512i, v);
            }
        }
        g += 4;
    }
}
