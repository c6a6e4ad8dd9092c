//! x86_64 vector kernels for whole blocklinear gobs (VM and 8-row Tegra orders): AVX-512F and
//! AVX2 twins, line-aligned or shifted (rows off a line boundary put together from two gobs),
//! with streaming stores of whole lines where asked. Only the raw movers call them, after
//! checking the CPU and the addresses.

use super::mover::{prefetch, GobRow};
use core::arch::x86_64::*;

/// Stores `v` at `p`, streaming past the caches when `NT` (then `p` must be 64-byte
/// aligned; otherwise any address: on an aligned one the unaligned store costs the
/// same).
#[inline(always)]
unsafe fn store64<const NT: bool>(p: *mut u8, v: __m512i) {
    // SAFETY: per the caller (`p` writable for 64 bytes, and 64-byte aligned when `NT`).
    unsafe {
        if NT {
            _mm512_stream_si512(p as *mut __m512i, v);
        } else {
            _mm512_storeu_si512(p as *mut __m512i, v);
        }
    }
}

/// `n` rows of 64 bytes from `src + r * sp` to `dst + r * dp` (a VM-order gob, either
/// way), one vector each.
///
/// # Safety
/// The CPU has AVX-512F; the `n` source rows are readable and the `n` destination rows
/// writable (64-byte aligned when `NT`); no overlap.
#[target_feature(enable = "avx512f")]
pub(super) unsafe fn rows64<const NT: bool>(src: *const u8, sp: usize, dst: *mut u8, dp: usize, n: usize) {
    for r in 0..n {
        // SAFETY: per the function's contract.
        unsafe { store64::<NT>(dst.add(r * dp), _mm512_loadu_si512(src.add(r * sp) as *const __m512i)) };
    }
}

/// Stores `v` at `p`, streaming past the caches when `NT` (then `p` must be 32-byte
/// aligned; otherwise any address).
#[inline(always)]
unsafe fn store32<const NT: bool>(p: *mut u8, v: __m256i) {
    // SAFETY: per the caller (`p` writable for 32 bytes, and 32-byte aligned when `NT`).
    unsafe {
        if NT {
            _mm256_stream_si256(p as *mut __m256i, v);
        } else {
            _mm256_storeu_si256(p as *mut __m256i, v);
        }
    }
}

/// [`rows64`] with 32-byte AVX2 vectors.
///
/// # Safety
/// As for [`rows64`], with AVX2 instead of AVX-512F.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn rows64_avx2<const NT: bool>(src: *const u8, sp: usize, dst: *mut u8, dp: usize, n: usize) {
    for r in 0..n {
        // SAFETY: per the function's contract.
        unsafe {
            for h in [0, 32] {
                let v = _mm256_loadu_si256(src.add(r * sp + h) as *const __m256i);
                store32::<NT>(dst.add(r * dp + h), v);
            }
        }
    }
}

/// [`untile_gob_tegra`] with 32-byte AVX2 vectors: the first 32 bytes of gob line `j`
/// hold quarter 0 of rows `2j` and `2j + 1`, its last 32 bytes quarter 1 (line `4 + j`:
/// quarters 2 and 3); one 128-bit lane permute per half row.
///
/// # Safety
/// As for [`untile_gob_tegra`], with AVX2 instead of AVX-512F.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn untile_gob_tegra_avx2<const NT: bool>(tiled: *const u8, linear: *mut u8, rp: usize) {
    for j in 0..4 {
        // SAFETY: per the function's contract.
        unsafe {
            let ld = |o: usize| _mm256_loadu_si256(tiled.add(o) as *const __m256i);
            let (l0, l1) = (ld(64 * j), ld(64 * j + 32));
            let (h0, h1) = (ld(256 + 64 * j), ld(256 + 64 * j + 32));
            let (even, odd) = (linear.add(2 * j * rp), linear.add((2 * j + 1) * rp));
            store32::<NT>(even, _mm256_permute2x128_si256::<0x20>(l0, l1));
            store32::<NT>(even.add(32), _mm256_permute2x128_si256::<0x20>(h0, h1));
            store32::<NT>(odd, _mm256_permute2x128_si256::<0x31>(l0, l1));
            store32::<NT>(odd.add(32), _mm256_permute2x128_si256::<0x31>(h0, h1));
        }
    }
}

/// [`tile_gob_tegra`] with 32-byte AVX2 vectors (the inverse of
/// [`untile_gob_tegra_avx2`]).
///
/// # Safety
/// As for [`tile_gob_tegra`], with AVX2 instead of AVX-512F.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn tile_gob_tegra_avx2<const NT: bool>(linear: *const u8, tiled: *mut u8, rp: usize) {
    for j in 0..4 {
        // SAFETY: per the function's contract.
        unsafe {
            let ld = |p: *const u8| _mm256_loadu_si256(p as *const __m256i);
            let (even, odd) = (linear.add(2 * j * rp), linear.add((2 * j + 1) * rp));
            let (e0, e1, o0, o1) = (ld(even), ld(even.add(32)), ld(odd), ld(odd.add(32)));
            store32::<NT>(tiled.add(64 * j), _mm256_permute2x128_si256::<0x20>(e0, o0));
            store32::<NT>(tiled.add(64 * j + 32), _mm256_permute2x128_si256::<0x31>(e0, o0));
            store32::<NT>(tiled.add(256 + 64 * j), _mm256_permute2x128_si256::<0x20>(e1, o1));
            store32::<NT>(tiled.add(256 + 64 * j + 32), _mm256_permute2x128_si256::<0x31>(e1, o1));
        }
    }
}

/// One Tegra-order gob, tiled -> linear. The gob's 64-byte line `j` (0..4) holds the
/// first two 16-byte quarters of rows `2j` and `2j + 1` interleaved (row `2j` at lanes
/// 0 and 2, row `2j + 1` at lanes 1 and 3), line `4 + j` their last two quarters
/// (Tegra X1 TRM gob order: x[3:0], y[0], x[4], y[2:1], x[5]); one 128-bit lane
/// shuffle per row puts a row together.
///
/// # Safety
/// The CPU has AVX-512F; `tiled` is readable for 512 bytes and 64-byte aligned;
/// `linear + r * rp` is writable for 64 bytes, `r` in 0..8 (64-byte aligned when `NT`);
/// no overlap.
#[target_feature(enable = "avx512f")]
pub(super) unsafe fn untile_gob_tegra<const NT: bool>(tiled: *const u8, linear: *mut u8, rp: usize) {
    for j in 0..4 {
        // SAFETY: per the function's contract.
        unsafe {
            let lo = _mm512_loadu_si512(tiled.add(64 * j) as *const __m512i);
            let hi = _mm512_loadu_si512(tiled.add(256 + 64 * j) as *const __m512i);
            store64::<NT>(linear.add(2 * j * rp), _mm512_shuffle_i64x2::<0x88>(lo, hi));
            store64::<NT>(linear.add((2 * j + 1) * rp), _mm512_shuffle_i64x2::<0xdd>(lo, hi));
        }
    }
}

/// One Tegra-order gob, linear -> tiled: the inverse of [`untile_gob_tegra`], two
/// rows making two gob lines with 64-bit two-source permutes.
///
/// # Safety
/// As for [`untile_gob_tegra`] with reads and writes exchanged.
#[target_feature(enable = "avx512f")]
pub(super) unsafe fn tile_gob_tegra<const NT: bool>(linear: *const u8, tiled: *mut u8, rp: usize) {
    let ilo = _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11);
    let ihi = _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15);
    for j in 0..4 {
        // SAFETY: per the function's contract.
        unsafe {
            let r0 = _mm512_loadu_si512(linear.add(2 * j * rp) as *const __m512i);
            let r1 = _mm512_loadu_si512(linear.add((2 * j + 1) * rp) as *const __m512i);
            store64::<NT>(tiled.add(64 * j), _mm512_permutex2var_epi64(r0, ilo, r1));
            store64::<NT>(tiled.add(256 + 64 * j), _mm512_permutex2var_epi64(r0, ihi, r1));
        }
    }
}

/// Hints the cache to fetch the 512 bytes `AHEAD` gobs after the `k`th of `row` (from
/// the run's first gob at `first`), if the run has one there. Eight gobs ahead; other distances
/// measured no better ([docs/perf/gob-prefetch.md](../../../../../docs/perf/gob-prefetch.md)).
#[inline(always)]
fn prefetch_ahead(first: *const u8, row: &GobRow, k: usize) {
    const AHEAD: usize = 8;
    if k + AHEAD < row.n {
        prefetch(first.wrapping_add(row.rel(k + AHEAD)));
    }
}

/// The loop of the gob-run kernels below: for `k` in `0..row.n`, prefetch ahead when
/// `pf`, then `vm` (VM order) or `tegra` (Tegra order) for the `k`th gob.
macro_rules! gob_row_loop {
    ($first:ident, $row:ident, $pf:ident, |$k:ident, $g:ident| vm: $vm:expr, tegra: $tegra:expr) => {
        if $row.vm {
            for $k in 0..$row.n {
                if $pf {
                    prefetch_ahead($first, $row, $k);
                }
                $vm;
            }
        } else if $row.gh == 8 {
            for $k in 0..$row.n {
                if $pf {
                    prefetch_ahead($first, $row, $k);
                }
                let $g = 0;
                $tegra;
            }
        } else {
            // Columns of stacked Tegra gobs (`tegra_stack`): the column's gobs one
            // after the other; its first gob prefetched, as it is only taken by
            // streaming tile, which does not prefetch.
            for $k in 0..$row.n {
                if $pf {
                    prefetch_ahead($first, $row, $k);
                }
                for $g in 0..$row.gh / 8 {
                    $tegra;
                }
            }
        }
    };
}

/// A run of gobs ([`GobRow`]), tiled -> linear, gob by gob with [`untile_gob_tegra`]
/// or [`rows64`]; prefetches the tiled gobs ahead when `pf`. One loop for the run, not a call per
/// gob, keeps the walk lean
/// ([docs/perf/blocklinear-walk.md](../../../../../docs/perf/blocklinear-walk.md)).
///
/// # Safety
/// The CPU has AVX-512F; for `k` in `0..row.n`, `first + row.rel(k)` is readable for
/// `64 * row.gh` bytes and 64-byte aligned, and `linear + 64 * k + r * row.rp` (`r` in
/// `0..row.gh`) writable for 64 bytes (64-byte aligned when `NT`); no overlap.
#[target_feature(enable = "avx512f")]
pub(super) unsafe fn untile_gob_row<const NT: bool>(first: *const u8, linear: *mut u8, row: &GobRow, pf: bool) {
    // SAFETY (both arms): the `k`th gob and its rows, per the function's contract.
    gob_row_loop!(first, row, pf, |k, g|
        vm: unsafe { rows64::<NT>(first.add(row.rel(k)), 64, linear.add(64 * k), row.rp, row.gh) },
        tegra: unsafe { untile_gob_tegra::<NT>(first.add(row.rel(k) + 512 * g), linear.add(64 * k + 8 * g * row.rp), row.rp) });
}

/// [`untile_gob_row`] with the AVX2 gob kernels.
///
/// # Safety
/// As for [`untile_gob_row`], with AVX2 instead of AVX-512F.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn untile_gob_row_avx2<const NT: bool>(first: *const u8, linear: *mut u8, row: &GobRow, pf: bool) {
    // SAFETY (both arms): the `k`th gob and its rows, per the function's contract.
    gob_row_loop!(first, row, pf, |k, g|
        vm: unsafe { rows64_avx2::<NT>(first.add(row.rel(k)), 64, linear.add(64 * k), row.rp, row.gh) },
        tegra: unsafe { untile_gob_tegra_avx2::<NT>(first.add(row.rel(k) + 512 * g), linear.add(64 * k + 8 * g * row.rp), row.rp) });
}

/// [`untile_gob_row`] streaming into linear rows that start `64 - d` bytes past a line
/// boundary (`d` in 4..64, a multiple of 4; the row pitch a multiple of 64, so every
/// row shares it). Row `r` of gob `k` is the 64 bytes at stream offset `64 * k` of
/// that row; the aligned line `j` of the row holds the last `64 - d` bytes of gob `j`'s
/// row and the first `d` of gob `j + 1`'s: one two-source dword permute of the two
/// (`prev`, `cur`) makes it, and it is streamed whole. The first `d` bytes of each
/// row (before its first line boundary) and the last `64 - d` (after its last) are
/// partial lines, copied with ordinary stores (masked stores measured slower). Returns false (and
/// does nothing) for
/// gob columns other than 8-row Tegra-order and 4- or 8-row VM-order ones. Packed texture files put
/// layers off a line boundary; streaming them whole pays
/// ([docs/perf/shifted-gob-rows.md](../../../../../docs/perf/shifted-gob-rows.md)).
///
/// # Safety
/// The CPU has AVX-512F; for `k` in `0..row.n`, `first + row.rel(k)` is readable for
/// `64 * row.gh` bytes; `linear + 64 * k + r * row.rp` (`r` in `0..row.gh`) is
/// writable for 64 bytes; `linear + d` is 64-byte aligned, `d` a multiple of 4 in
/// 4..64, `row.rp` a multiple of 64; no overlap.
#[target_feature(enable = "avx512f")]
pub(super) unsafe fn untile_gob_row_shifted(
    first: *const u8,
    linear: *mut u8,
    row: &GobRow,
    pf: bool,
    d: usize,
) -> bool {
    // SAFETY (each arm): the caller's contract, with `row.gh` and `row.vm` as matched.
    unsafe {
        match (row.vm, row.gh) {
            (false, 8) => shifted512::<8, false>(first, linear, row, pf, d),
            (true, 8) => shifted512::<8, true>(first, linear, row, pf, d),
            (true, 4) => shifted512::<4, true>(first, linear, row, pf, d),
            _ => return false,
        }
    }
    true
}

/// The rows of one gob column as `GH` 64-byte vectors: VM order (row `r` at `64 * r`)
/// or Tegra order (`GH` = 8, as in [`untile_gob_tegra`]).
///
/// # Safety
/// The CPU has AVX-512F; `g` is readable for `64 * GH` bytes.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn gob_rows512<const GH: usize, const VM: bool>(g: *const u8) -> [__m512i; GH] {
    // SAFETY: per the function's contract (every offset below is under 64 * GH).
    unsafe {
        if VM {
            core::array::from_fn(|r| _mm512_loadu_si512(g.add(64 * r) as *const __m512i))
        } else {
            core::array::from_fn(|r| {
                let j = r / 2;
                let lo = _mm512_loadu_si512(g.add(64 * j) as *const __m512i);
                let hi = _mm512_loadu_si512(g.add(256 + 64 * j) as *const __m512i);
                if r % 2 == 0 {
                    _mm512_shuffle_i64x2::<0x88>(lo, hi)
                } else {
                    _mm512_shuffle_i64x2::<0xdd>(lo, hi)
                }
            })
        }
    }
}

/// Copies bytes `from..to` of the 64 bytes `v` to `dst` with ordinary stores.
///
/// # Safety
/// `dst` is writable for `to - from` bytes; `from <= to <= 64`.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn partial512(v: __m512i, from: usize, to: usize, dst: *mut u8) {
    let mut tmp = [0u8; 64];
    // SAFETY: `tmp` holds 64 bytes; `dst` per the function's contract.
    unsafe {
        _mm512_storeu_si512(tmp.as_mut_ptr() as *mut __m512i, v);
        core::ptr::copy_nonoverlapping(tmp.as_ptr().add(from), dst, to - from);
    }
}

/// [`untile_gob_row_shifted`] for `GH`-row columns in VM order (`VM`) or Tegra order:
/// the rows stay in registers from one gob to the next.
///
/// # Safety
/// As for [`untile_gob_row_shifted`], with `row.gh == GH` and `row.vm == VM`.
// Rows are indexed by value (`prev[r]`), so that the arrays stay in registers.
#[allow(clippy::needless_range_loop)]
#[target_feature(enable = "avx512f")]
unsafe fn shifted512<const GH: usize, const VM: bool>(
    first: *const u8,
    linear: *mut u8,
    row: &GobRow,
    pf: bool,
    d: usize,
) {
    debug_assert!(row.gh == GH && row.vm == VM && d.is_multiple_of(4) && (4..64).contains(&d));
    debug_assert!(row.rp.is_multiple_of(64) && (linear as usize + d).is_multiple_of(64));
    if row.n == 0 {
        return;
    }
    let idx = _mm512_add_epi32(
        _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
        _mm512_set1_epi32((d / 4) as i32),
    );
    let rp = row.rp;
    // SAFETY: per the function's contract: gob `k` is readable, and row `r` of the run
    // is writable from `linear + r * rp` for `64 * row.n` bytes, of which this writes
    // `[0, d)`, the whole 64-byte aligned lines at `d + 64 * (k - 1)` for `k` in
    // `1..n` (aligned: `linear + d` is, and `rp` is a multiple of 64), and the last
    // `64 - d` bytes.
    unsafe {
        let mut prev = gob_rows512::<GH, VM>(first);
        for r in 0..GH {
            partial512(prev[r], 0, d, linear.add(r * rp));
        }
        for k in 1..row.n {
            if pf {
                prefetch_ahead(first, row, k);
            }
            let cur = gob_rows512::<GH, VM>(first.add(row.rel(k)));
            let at = linear.add(d + 64 * (k - 1));
            for r in 0..GH {
                let line = _mm512_permutex2var_epi32(prev[r], idx, cur[r]);
                _mm512_stream_si512(at.add(r * rp) as *mut __m512i, line);
            }
            prev = cur;
        }
        let tail = linear.add(d + 64 * (row.n - 1));
        for r in 0..GH {
            partial512(prev[r], d, 64, tail.add(r * rp));
        }
    }
}

/// [`untile_gob_row_shifted`] with AVX2: a row's 64 bytes are two 32-byte vectors, and
/// each streamed half line is the 32 bytes at offset `d % 32` of two consecutive
/// vectors of the row's stream, made by two dword permutes and a blend.
/// ([docs/perf/shifted-gob-rows.md](../../../../../docs/perf/shifted-gob-rows.md)).
///
/// # Safety
/// As for [`untile_gob_row_shifted`], with AVX2 instead of AVX-512F.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn untile_gob_row_shifted_avx2(
    first: *const u8,
    linear: *mut u8,
    row: &GobRow,
    pf: bool,
    d: usize,
) -> bool {
    // SAFETY (each arm): the caller's contract, with `row.gh` and `row.vm` as matched.
    unsafe {
        match (row.vm, row.gh) {
            (false, 8) => shifted256::<8, false>(first, linear, row, pf, d),
            (true, 8) => shifted256::<8, true>(first, linear, row, pf, d),
            (true, 4) => shifted256::<4, true>(first, linear, row, pf, d),
            _ => return false,
        }
    }
    true
}

/// [`gob_rows512`] as pairs of 32-byte vectors (AVX2).
///
/// # Safety
/// The CPU has AVX2; `g` is readable for `64 * GH` bytes.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn gob_rows256<const GH: usize, const VM: bool>(g: *const u8) -> [[__m256i; 2]; GH] {
    // SAFETY: per the function's contract (every offset below is under 64 * GH).
    unsafe {
        let ld = |o: usize| _mm256_loadu_si256(g.add(o) as *const __m256i);
        if VM {
            core::array::from_fn(|r| [ld(64 * r), ld(64 * r + 32)])
        } else {
            core::array::from_fn(|r| {
                let j = r / 2;
                let (l0, l1) = (ld(64 * j), ld(64 * j + 32));
                let (h0, h1) = (ld(256 + 64 * j), ld(256 + 64 * j + 32));
                if r % 2 == 0 {
                    [_mm256_permute2x128_si256::<0x20>(l0, l1), _mm256_permute2x128_si256::<0x20>(h0, h1)]
                } else {
                    [_mm256_permute2x128_si256::<0x31>(l0, l1), _mm256_permute2x128_si256::<0x31>(h0, h1)]
                }
            })
        }
    }
}

/// [`partial512`] for a pair of 32-byte vectors.
///
/// # Safety
/// `dst` is writable for `to - from` bytes; `from <= to <= 64`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn partial256(v: [__m256i; 2], from: usize, to: usize, dst: *mut u8) {
    let mut tmp = [0u8; 64];
    // SAFETY: `tmp` holds 64 bytes; `dst` per the function's contract.
    unsafe {
        _mm256_storeu_si256(tmp.as_mut_ptr() as *mut __m256i, v[0]);
        _mm256_storeu_si256(tmp.as_mut_ptr().add(32) as *mut __m256i, v[1]);
        core::ptr::copy_nonoverlapping(tmp.as_ptr().add(from), dst, to - from);
    }
}

/// [`shifted512`] with AVX2 (see [`untile_gob_row_shifted_avx2`]).
///
/// # Safety
/// As for [`shifted512`], with AVX2 instead of AVX-512F.
// Rows are indexed by value (`prev[r]`), so that the arrays stay in registers.
#[allow(clippy::needless_range_loop)]
#[target_feature(enable = "avx2")]
unsafe fn shifted256<const GH: usize, const VM: bool>(
    first: *const u8,
    linear: *mut u8,
    row: &GobRow,
    pf: bool,
    d: usize,
) {
    debug_assert!(row.gh == GH && row.vm == VM && d.is_multiple_of(4) && (4..64).contains(&d));
    debug_assert!(row.rp.is_multiple_of(64) && (linear as usize + d).is_multiple_of(64));
    if row.n == 0 {
        return;
    }
    // The stream of a row is ... prev[0] prev[1] cur[0] cur[1]; the line starts at
    // byte `d` of it: vector `q = d / 32` of the four, `sh = (d % 32) / 4` dwords in.
    let (q, sh) = (d / 32, ((d % 32) / 4) as i32);
    let lanes = _mm256_add_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(sh));
    let idx = _mm256_and_si256(lanes, _mm256_set1_epi32(7));
    // Dwords `i` with `sh + i >= 8` come from the next vector of the stream.
    let from_next = _mm256_cmpgt_epi32(lanes, _mm256_set1_epi32(7));
    // The 32 bytes at dword `sh` of `x` followed by `y`.
    let join = |x: __m256i, y: __m256i| {
        _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(x, idx), _mm256_permutevar8x32_epi32(y, idx), from_next)
    };
    let rp = row.rp;
    // SAFETY: as in `shifted512`; each streamed line is two aligned 32-byte halves.
    unsafe {
        let mut prev = gob_rows256::<GH, VM>(first);
        for r in 0..GH {
            partial256(prev[r], 0, d, linear.add(r * rp));
        }
        for k in 1..row.n {
            if pf {
                prefetch_ahead(first, row, k);
            }
            let cur = gob_rows256::<GH, VM>(first.add(row.rel(k)));
            let at = linear.add(d + 64 * (k - 1));
            for r in 0..GH {
                let stream = [prev[r][0], prev[r][1], cur[r][0], cur[r][1]];
                let p = at.add(r * rp);
                _mm256_stream_si256(p as *mut __m256i, join(stream[q], stream[q + 1]));
                _mm256_stream_si256(p.add(32) as *mut __m256i, join(stream[q + 1], stream[q + 2]));
            }
            prev = cur;
        }
        let tail = linear.add(d + 64 * (row.n - 1));
        for r in 0..GH {
            partial256(prev[r], d, 64, tail.add(r * rp));
        }
    }
}

/// A run of gobs, linear -> tiled: [`untile_gob_row`] the other way.
///
/// # Safety
/// As for [`untile_gob_row`] with reads and writes exchanged.
#[target_feature(enable = "avx512f")]
pub(super) unsafe fn tile_gob_row<const NT: bool>(linear: *const u8, first: *mut u8, row: &GobRow, pf: bool) {
    // SAFETY (both arms): the `k`th gob and its rows, per the function's contract.
    gob_row_loop!(first, row, pf, |k, g|
        vm: unsafe { rows64::<NT>(linear.add(64 * k), row.rp, first.add(row.rel(k)), 64, row.gh) },
        tegra: unsafe { tile_gob_tegra::<NT>(linear.add(64 * k + 8 * g * row.rp), first.add(row.rel(k) + 512 * g), row.rp) });
}

/// [`tile_gob_row`] with the AVX2 gob kernels.
///
/// # Safety
/// As for [`tile_gob_row`], with AVX2 instead of AVX-512F.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn tile_gob_row_avx2<const NT: bool>(linear: *const u8, first: *mut u8, row: &GobRow, pf: bool) {
    // SAFETY (both arms): the `k`th gob and its rows, per the function's contract.
    gob_row_loop!(first, row, pf, |k, g|
        vm: unsafe { rows64_avx2::<NT>(linear.add(64 * k), row.rp, first.add(row.rel(k)), 64, row.gh) },
        tegra: unsafe { tile_gob_tegra_avx2::<NT>(linear.add(64 * k + 8 * g * row.rp), first.add(row.rel(k) + 512 * g), row.rp) });
}
