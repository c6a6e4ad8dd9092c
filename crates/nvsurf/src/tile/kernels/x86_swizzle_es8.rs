//! x86_64 vector kernels for whole pre-G80 swizzle chunks (64x64 elements) of 8-byte elements
//! (AVX-512F, each with an AVX2 twin), beside the other element sizes' in
//! [`super::x86_swizzle`] (whose chunk offsets they share). Only the raw movers call them, on
//! line-aligned buffers and pitches.

use super::x86_swizzle::{band_bytes, strip_bytes};
use core::arch::x86_64::*;

/// One whole 64x64 chunk of 8-byte elements (index bits x0 y0 .. x5 y5), tiled ->
/// linear, band of 4 rows by band (each row written 512 bytes at a time). A strip of
/// two 4x4 tiles side by side (index bits x2..: 256 contiguous tiled bytes) is four
/// 64-byte vectors; one two-source quadword permute per row joins the halves of both
/// tiles' rows (a tile row is elements `b, b + 1, b + 4, b + 5`).
///
/// # Safety
/// The CPU has AVX-512F; `tiled` is readable for 32768 bytes and `linear + r * rp`
/// writable for 512 bytes, `r` in 0..64; no overlap.
#[target_feature(enable = "avx512f")]
pub(super) unsafe fn untile_chunk_es8(tiled: *const u8, linear: *mut u8, rp: usize) {
    let even = _mm512_setr_epi64(0, 1, 4, 5, 8, 9, 12, 13);
    let odd = _mm512_setr_epi64(2, 3, 6, 7, 10, 11, 14, 15);
    for t in 0..16usize {
        let tb = band_bytes(t, 8);
        for j in 0..8usize {
            // SAFETY: the strip's 256 bytes lie inside the chunk's 32768; row 4t + r,
            // bytes 64j..64j + 64 of its 512.
            unsafe {
                let s = tiled.add(tb + strip_bytes(j, 8));
                let ld = |k: usize| _mm512_loadu_si512(s.add(64 * k) as *const __m512i);
                let (a_lo, a_hi, b_lo, b_hi) = (ld(0), ld(1), ld(2), ld(3));
                let d = linear.add(4 * t * rp + 64 * j);
                _mm512_storeu_si512(d as *mut __m512i, _mm512_permutex2var_epi64(a_lo, even, b_lo));
                _mm512_storeu_si512(d.add(rp) as *mut __m512i, _mm512_permutex2var_epi64(a_lo, odd, b_lo));
                _mm512_storeu_si512(d.add(2 * rp) as *mut __m512i, _mm512_permutex2var_epi64(a_hi, even, b_hi));
                _mm512_storeu_si512(d.add(3 * rp) as *mut __m512i, _mm512_permutex2var_epi64(a_hi, odd, b_hi));
            }
        }
    }
}

/// [`untile_chunk_es8`] the other way: two rows' vectors give each tile half by one
/// two-source quadword permute.
///
/// # Safety
/// As for [`untile_chunk_es8`] with reads and writes exchanged.
#[target_feature(enable = "avx512f")]
pub(super) unsafe fn tile_chunk_es8(linear: *const u8, tiled: *mut u8, rp: usize) {
    // Rows r, r + 1 (x 0..8 each) -> tile A's half (lanes 0-3 of both) and B's (4-7).
    let tile_a = _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11);
    let tile_b = _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15);
    for t in 0..16usize {
        let tb = band_bytes(t, 8);
        for j in 0..8usize {
            // SAFETY: as in the untile twin.
            unsafe {
                let l = linear.add(4 * t * rp + 64 * j);
                let ld = |r: usize| _mm512_loadu_si512(l.add(r * rp) as *const __m512i);
                let (r0, r1, r2, r3) = (ld(0), ld(1), ld(2), ld(3));
                let s = tiled.add(tb + strip_bytes(j, 8));
                _mm512_storeu_si512(s as *mut __m512i, _mm512_permutex2var_epi64(r0, tile_a, r1));
                _mm512_storeu_si512(s.add(64) as *mut __m512i, _mm512_permutex2var_epi64(r2, tile_a, r3));
                _mm512_storeu_si512(s.add(128) as *mut __m512i, _mm512_permutex2var_epi64(r0, tile_b, r1));
                _mm512_storeu_si512(s.add(192) as *mut __m512i, _mm512_permutex2var_epi64(r2, tile_b, r3));
            }
        }
    }
}

/// AVX2 twin of [`untile_chunk_es8`]: a tile row is two 32-byte halves of the tile's
/// vectors joined by one 128-bit lane permute.
///
/// # Safety
/// The CPU has AVX2; otherwise as for [`untile_chunk_es8`].
#[target_feature(enable = "avx2")]
pub(super) unsafe fn untile_chunk_es8_avx2(tiled: *const u8, linear: *mut u8, rp: usize) {
    for t in 0..16usize {
        let tb = band_bytes(t, 8);
        for j in 0..8usize {
            for half in 0..2usize {
                // SAFETY: tile `half` of the strip (128 bytes inside the chunk); row 4t +
                // r, bytes 64j + 32 half.. + 32 of its 512.
                unsafe {
                    let s = tiled.add(tb + strip_bytes(j, 8) + 128 * half);
                    let ld = |k: usize| _mm256_loadu_si256(s.add(32 * k) as *const __m256i);
                    let (v0, v1, v2, v3) = (ld(0), ld(1), ld(2), ld(3));
                    let d = linear.add(4 * t * rp + 64 * j + 32 * half);
                    _mm256_storeu_si256(d as *mut __m256i, _mm256_permute2x128_si256::<0x20>(v0, v1));
                    _mm256_storeu_si256(d.add(rp) as *mut __m256i, _mm256_permute2x128_si256::<0x31>(v0, v1));
                    _mm256_storeu_si256(d.add(2 * rp) as *mut __m256i, _mm256_permute2x128_si256::<0x20>(v2, v3));
                    _mm256_storeu_si256(d.add(3 * rp) as *mut __m256i, _mm256_permute2x128_si256::<0x31>(v2, v3));
                }
            }
        }
    }
}

/// [`untile_chunk_es8_avx2`] the other way (the lane permutes are their own inverse).
///
/// # Safety
/// As for [`untile_chunk_es8_avx2`] with reads and writes exchanged.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn tile_chunk_es8_avx2(linear: *const u8, tiled: *mut u8, rp: usize) {
    for t in 0..16usize {
        let tb = band_bytes(t, 8);
        for j in 0..8usize {
            for half in 0..2usize {
                // SAFETY: as in the untile twin.
                unsafe {
                    let l = linear.add(4 * t * rp + 64 * j + 32 * half);
                    let ld = |r: usize| _mm256_loadu_si256(l.add(r * rp) as *const __m256i);
                    let (r0, r1, r2, r3) = (ld(0), ld(1), ld(2), ld(3));
                    let s = tiled.add(tb + strip_bytes(j, 8) + 128 * half);
                    _mm256_storeu_si256(s as *mut __m256i, _mm256_permute2x128_si256::<0x20>(r0, r1));
                    _mm256_storeu_si256(s.add(32) as *mut __m256i, _mm256_permute2x128_si256::<0x31>(r0, r1));
                    _mm256_storeu_si256(s.add(64) as *mut __m256i, _mm256_permute2x128_si256::<0x20>(r2, r3));
                    _mm256_storeu_si256(s.add(96) as *mut __m256i, _mm256_permute2x128_si256::<0x31>(r2, r3));
                }
            }
        }
    }
}
