//! Raw movers for the hot loops.
//!
//! Soundness: a raw mover is only built by the `*_planned*` functions below from a [`Plan`]
//! made by [`Plan::new`], which proved `tiled.len() >= size_bytes` and
//! `linear.len() >= linear_span`, and from slices that cover exactly the parts a task owns.
//! The kernels only ask for (a) tiled ranges inside gobs that hold at least one byte of the
//! surface — blocks are whole, so such gobs lie entirely below `size_bytes` (the layout's
//! bijection onto `0..size_bytes` is property-tested) — or inside the swizzle index range
//! `0..w*h*d` times the element size; and (b) linear ranges of bytes of the region, which lie
//! below `linear_span` by the plan's construction. Parallel tasks own disjoint sub-slices and
//! only touch offsets inside them (tasks are cut along the same boundaries the kernels iterate
//! over). Source and destination are different allocations, so the copies never overlap.
//! `debug_assert!`s check every range in debug builds; the safe twins above run the same
//! kernels with checked slices, and the tests compare both against the byte-by-byte reference.

use super::mover::{tile4x4_pairs, GobRow, Mover};
use super::swizzled::RUN_CHUNKS;
#[cfg(target_arch = "x86_64")]
use super::x86_gob;
#[cfg(target_arch = "x86_64")]
use super::x86_swizzle;
#[cfg(target_arch = "x86_64")]
use super::x86_swizzle_es8;
use crate::cpu::Caps;
use core::marker::PhantomData;
use core::ptr;

/// Copies `N` bytes with non-temporal (streaming) stores when `NT`, `N` is a multiple of 16
/// and the destination is 16-byte aligned; otherwise an ordinary unaligned copy.
///
/// # Safety
/// `src` and `dst` must be valid for `N` bytes and not overlap.
#[inline(always)]
unsafe fn copy_n<const N: usize, const NT: bool>(src: *const u8, dst: *mut u8) {
    #[cfg(target_arch = "x86_64")]
    if NT && N.is_multiple_of(16) && (dst as usize).is_multiple_of(16) {
        use core::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_stream_si128};
        let mut i = 0;
        while i < N {
            // SAFETY: in bounds per the caller; `dst + i` is 16-byte aligned.
            unsafe {
                let v = _mm_loadu_si128(src.add(i) as *const __m128i);
                _mm_stream_si128(dst.add(i) as *mut __m128i, v);
            }
            i += 16;
        }
        return;
    }
    // SAFETY: per the caller; unaligned reads/writes of byte arrays are allowed.
    unsafe {
        let v = ptr::read_unaligned(src as *const [u8; N]);
        ptr::write_unaligned(dst as *mut [u8; N], v);
    }
}

/// Orders the streaming stores of this thread before what follows (a no-op elsewhere).
#[inline]
pub(crate) fn store_fence() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: sfence has no preconditions; SSE is part of the x86_64 baseline.
    #[allow(unused_unsafe)]
    unsafe {
        core::arch::x86_64::_mm_sfence()
    }
}

/// Untile: tiled (read) -> linear (write); `NT` selects streaming stores for the whole
/// 64-byte lines of the vector gob kernels.
pub(crate) struct Untile<'a, const NT: bool> {
    tiled: *const u8,
    tiled_len: usize,
    linear: *mut u8,
    linear_len: usize,
    linear_base: usize,
    /// AVX-512F kernels may run (the call's [`Caps`]).
    avx512: bool,
    /// AVX2 kernels may run (the call's [`Caps`]; the gob and swizzle-chunk kernels'
    /// fallback).
    avx2: bool,
    /// AVX-512BW kernels may run (the call's [`Caps`]; 2-byte swizzle chunks).
    bw: bool,
    /// AVX-512 VBMI kernels may run (the call's [`Caps`]; 1-byte swizzle chunks).
    vbmi: bool,
    _life: PhantomData<&'a mut [u8]>,
}

impl<'a, const NT: bool> Untile<'a, NT> {
    /// An untile mover whose linear side is `linear_len` bytes at `linear` (offset 0), for
    /// tasks that share one linear buffer ([`super::untile_columns_par`]).
    ///
    /// # Safety
    /// `linear` is valid for writes of `linear_len` bytes for `'a`, and for `'a` no other
    /// code reads or writes the bytes this mover is asked to write (the caller hands it only
    /// moves of bytes no other task touches).
    #[cfg(feature = "rayon")]
    pub(crate) unsafe fn from_raw_parts(tiled: &'a [u8], linear: *mut u8, linear_len: usize, caps: Caps) -> Self {
        Untile {
            tiled: tiled.as_ptr(),
            tiled_len: tiled.len(),
            linear,
            linear_len,
            linear_base: 0,
            avx512: caps.avx512f,
            avx2: caps.avx2,
            bw: caps.avx512bw,
            vbmi: caps.avx512vbmi,
            _life: PhantomData,
        }
    }
    pub(crate) fn new(tiled: &'a [u8], linear: &'a mut [u8], linear_base: usize, caps: Caps) -> Self {
        Untile {
            tiled: tiled.as_ptr(),
            tiled_len: tiled.len(),
            linear: linear.as_mut_ptr(),
            linear_len: linear.len(),
            linear_base,
            avx512: caps.avx512f,
            avx2: caps.avx2,
            bw: caps.avx512bw,
            vbmi: caps.avx512vbmi,
            _life: PhantomData,
        }
    }
}

impl<const NT: bool> Mover for Untile<'_, NT> {
    #[inline(always)]
    fn tiled_ptr(&self, t: usize) -> *const u8 {
        self.tiled.wrapping_add(t)
    }
    #[inline(always)]
    fn mv(&mut self, t: usize, l: usize, len: usize) {
        let l = l - self.linear_base;
        debug_assert!(t + len <= self.tiled_len && l + len <= self.linear_len);
        // SAFETY: see the module documentation: both ranges are in bounds and disjoint.
        unsafe { ptr::copy_nonoverlapping(self.tiled.add(t), self.linear.add(l), len) }
    }
    #[inline(always)]
    fn mv_n<const N: usize>(&mut self, t: usize, l: usize) {
        let l = l - self.linear_base;
        debug_assert!(t + N <= self.tiled_len && l + N <= self.linear_len);
        // SAFETY: as for `mv`. Untile streams only whole 64-byte lines from the vector
        // gob kernels: streamed 16-byte pieces of eight rows measured slower than ordinary
        // stores.
        unsafe { copy_n::<N, false>(self.tiled.add(t), self.linear.add(l)) }
    }
    #[inline(always)]
    fn tile4x4<const ES: usize, const P: usize>(&mut self, t: usize, l: usize, rp: usize) {
        #[cfg(target_arch = "x86_64")]
        if ES == 4 {
            use core::arch::x86_64::*;
            let l = l - self.linear_base;
            debug_assert!(t + 64 <= self.tiled_len && l + 3 * rp + 16 <= self.linear_len);
            // SAFETY: the default method's copies cover exactly these bytes (the tile's 64
            // tiled bytes from `t`, 16 bytes of each row from `l + r * rp`), in bounds and
            // disjoint as the module documentation shows; the loads and stores are unaligned.
            // Rows of 4 elements: row 0 = elements 0,1,4,5 = the low halves of elements
            // 0..4 and 4..8, row 1 the high halves, rows 2 and 3 likewise from 8..16.
            unsafe {
                let s = self.tiled.add(t) as *const __m128i;
                let (v0, v1) = (_mm_loadu_si128(s), _mm_loadu_si128(s.add(1)));
                let (v2, v3) = (_mm_loadu_si128(s.add(2)), _mm_loadu_si128(s.add(3)));
                let d = self.linear.add(l);
                _mm_storeu_si128(d as *mut __m128i, _mm_unpacklo_epi64(v0, v1));
                _mm_storeu_si128(d.add(rp) as *mut __m128i, _mm_unpackhi_epi64(v0, v1));
                _mm_storeu_si128(d.add(2 * rp) as *mut __m128i, _mm_unpacklo_epi64(v2, v3));
                _mm_storeu_si128(d.add(3 * rp) as *mut __m128i, _mm_unpackhi_epi64(v2, v3));
            }
            return;
        }
        tile4x4_pairs::<ES, P, Self>(self, t, l, rp);
    }
    #[inline(always)]
    fn chunk_es4_vector(&mut self, t: usize, l: usize, rp: usize, table: &[usize; 256]) -> bool {
        #[cfg(target_arch = "x86_64")]
        if self.avx512 && aligned64(self.tiled as usize + t, self.linear as usize + l - self.linear_base, rp) {
            let l = l - self.linear_base;
            debug_assert!(t + 16384 <= self.tiled_len);
            debug_assert!(table.iter().all(|&o| l + o + 3 * rp + 16 <= self.linear_len));
            debug_assert!(table[1] == 16 && table[4] == 32 && table[5] == 48, "x-stepping tile groups");
            // SAFETY: `avx512` says the CPU has AVX-512F. The kernel touches exactly the
            // bytes `chunk_tiles4` would (the chunk's 16384 tiled bytes from `t`, 16 bytes
            // of rows `l + table[k] + r * rp`), in bounds and disjoint as the module
            // documentation shows; the caller checked `x_tiles` (tiles `k + 1`, `k + 4`,
            // `k + 5` at 16, 32 and 48 bytes from tile `k`, so each 64-byte row store covers
            // exactly the four tiles' 16-byte rows).
            unsafe { x86_swizzle::untile_chunk_es4(self.tiled.add(t), self.linear.add(l), rp, table) };
            return true;
        }
        let _ = (t, l, rp, table);
        false
    }
    #[inline(always)]
    fn wants_small_chunks<const ES: usize>(&self) -> bool {
        (ES == 2 && self.bw) || (ES == 1 && self.vbmi) || ((ES == 1 || ES == 2 || ES == 8) && self.avx2)
    }
    #[inline(always)]
    fn chunks_small_vector<const ES: usize>(&mut self, offs: &[usize], l: usize, rp: usize) -> bool {
        #[cfg(target_arch = "x86_64")]
        if self.wants_small_chunks::<ES>() {
            let l = l - self.linear_base;
            debug_assert!(offs.iter().all(|&t| t + 4096 * ES <= self.tiled_len));
            debug_assert!(l + 63 * rp + 64 * ES * offs.len() <= self.linear_len);
            // SAFETY: `bw` / `vbmi` / `avx512` / `avx2` say the CPU has the chosen kernel's
            // instructions (from `crate::cpu`). The kernel reads each chunk's 4096 * ES tiled bytes from
            // `offs[c]` and writes 64 * ES bytes of each of its 64 rows from `l + 64 * ES *
            // c`: the bytes `chunk_tiles4` would move for these whole chunks, in bounds and
            // disjoint as the module documentation shows. Its accesses are unaligned.
            unsafe {
                let dst = self.linear.add(l);
                if ES == 8 {
                    for (c, &t) in offs.iter().enumerate() {
                        let (src, d) = (self.tiled.add(t), dst.add(512 * c));
                        if self.avx512 {
                            x86_swizzle_es8::untile_chunk_es8(src, d, rp)
                        } else {
                            x86_swizzle_es8::untile_chunk_es8_avx2(src, d, rp)
                        }
                    }
                } else if ES == 2 && self.bw {
                    x86_swizzle::untile_chunks_es2(self.tiled, offs, dst, rp)
                } else if ES == 1 && self.vbmi {
                    x86_swizzle::untile_chunks_es1(self.tiled, offs, dst, rp)
                } else if ES == 1 {
                    x86_swizzle::untile_chunks_small_avx2::<1>(self.tiled, offs, dst, rp)
                } else {
                    x86_swizzle::untile_chunks_small_avx2::<2>(self.tiled, offs, dst, rp)
                }
            };
            return true;
        }
        let _ = (offs, l, rp);
        false
    }
    #[inline(always)]
    fn wants_chunk_runs(&self) -> bool {
        self.avx512 || self.avx2
    }
    #[inline(always)]
    fn chunk_run_es4_vector(
        &mut self,
        offs: &[usize],
        l0: usize,
        rp: usize,
        table: &[usize; 256],
        rows: &[u8; 64],
    ) -> bool {
        #[cfg(target_arch = "x86_64")]
        if (self.avx512 || self.avx2)
            && offs.len() <= RUN_CHUNKS
            && offs
                .iter()
                .all(|&t| aligned64(self.tiled as usize + t, self.linear as usize + l0 - self.linear_base, rp))
        {
            let l0 = l0 - self.linear_base;
            debug_assert!(offs.iter().all(|&t| t + 16384 <= self.tiled_len));
            debug_assert!(l0 + 63 * rp + 256 * offs.len() <= self.linear_len);
            debug_assert!(table[255] == 60 * rp + 60 * 4, "a 64x64 chunk");
            // SAFETY: the CPU has AVX-512F (or AVX2: `avx512` and `avx2` come from
            // `crate::cpu`); the kernel reads each chunk's 16384 tiled bytes from `offs[c]`
            // and writes `256 * offs.len()` bytes of each of the 64 rows from `l0`: the
            // bytes the chunks' `chunk_tiles4` would write (whole 64x64 chunks side by
            // side), in bounds and disjoint as the module documentation shows. `aligned64`
            // made every chunk's origin, the linear origin and the pitch multiples of 64, as
            // the AVX2 kernel's aligned accesses need.
            unsafe {
                if self.avx512 {
                    x86_swizzle::untile_chunk_run_es4(self.tiled, offs, self.linear.add(l0), rp, table, rows)
                } else {
                    x86_swizzle::untile_chunk_run_es4_avx2(self.tiled, offs, self.linear.add(l0), rp, table, rows)
                }
            };
            return true;
        }
        let _ = (offs, l0, rp, table, rows);
        false
    }
    #[inline(always)]
    fn stack_vm_gobs(&self) -> bool {
        !NT
    }
    /// Never: streamed untile measured level with and without stacking (see
    /// [`tegra_stack`]), and unstreamed stacking was not measured to gain.
    #[inline(always)]
    fn stack_tegra_gobs(&self) -> bool {
        false
    }
    #[inline(always)]
    fn gob_row_vector(&mut self, row: &GobRow) -> bool {
        #[cfg(target_arch = "x86_64")]
        if row.n > 0 && (self.avx512 || self.avx2) {
            let (first, l0) = (row.first(), row.l0 - self.linear_base);
            // Streaming stores need whole lines: a linear side off a line boundary (a
            // layer of a packed texture file after a 1x1 mip level, for one) streams
            // through the shifting kernels where it can (rows 4-byte aligned and a whole
            // number of lines apart), else is written with ordinary unaligned stores.
            let addr = self.linear as usize + l0;
            let stream = NT && aligned64(0, addr, row.rp);
            let shift = 64 - addr % 64;
            debug_assert!(row.block_log2 >= 6 + row.gh.trailing_zeros() && row.block_log2 >= row.gob_log2);
            debug_assert!(first + row.rel(row.n - 1) + 64 * row.gh <= self.tiled_len);
            debug_assert!(l0 + (row.gh - 1) * row.rp + 64 * row.n <= self.linear_len);
            if NT && !stream && addr.is_multiple_of(4) && row.rp.is_multiple_of(64) {
                // SAFETY: the gobs and linear rows are in bounds and disjoint as below;
                // `addr % 4 == 0` and not 64-aligned make `shift` a multiple of 4 in
                // 4..64 with `addr + shift` on a line, and `rp` is a multiple of 64, as
                // the kernel requires (it refuses other column shapes than it handles);
                // the CPU has AVX-512F or (for the twin) AVX2, checked above.
                let done = unsafe {
                    let (t, l, pf) = (self.tiled.add(first), self.linear.add(l0), self.prefetch_tiled());
                    if self.avx512 {
                        x86_gob::untile_gob_row_shifted(t, l, row, pf, shift)
                    } else {
                        x86_gob::untile_gob_row_shifted_avx2(t, l, row, pf, shift)
                    }
                };
                if done {
                    return true;
                }
            }
            // SAFETY: the CPU has AVX-512F (or AVX2 for the twin). The run's gobs are whole
            // gobs of the region's rows (`gobs` builds the run from the whole gob columns
            // of a whole gob row; `GobRow` is `BlockLinear::gob_offset` split into row and
            // column shares, as `gobs` debug-asserts; a column of stacked gobs (two 4-row
            // VM gobs, or 2 or 4 Tegra gobs, see `tegra_stack`) is consecutive gob rows
            // starting at a multiple of their count in a block one gob wide and at least
            // that tall, which the block layout puts one gob size apart, all in the task's
            // rows), so each gob and its linear rows
            // are in bounds and disjoint as the module documentation shows. The kernels
            // load and store unaligned except where they stream, which `stream` allows
            // only when the first linear row is on a line boundary and the row pitch a
            // multiple of 64: the linear rows of the run are then all line-aligned (they
            // differ by multiples of 64).
            unsafe {
                let (t, l, pf) = (self.tiled.add(first), self.linear.add(l0), self.prefetch_tiled());
                match (self.avx512, stream) {
                    (true, true) => x86_gob::untile_gob_row::<true>(t, l, row, pf),
                    (true, false) => x86_gob::untile_gob_row::<false>(t, l, row, pf),
                    (false, true) => x86_gob::untile_gob_row_avx2::<true>(t, l, row, pf),
                    (false, false) => x86_gob::untile_gob_row_avx2::<false>(t, l, row, pf),
                }
            };
            return true;
        }
        let _ = row;
        false
    }
}

/// Tile: linear (read) -> tiled (write); `NT` selects streaming stores for whole runs.
pub(crate) struct Tile<'a, const NT: bool> {
    linear: *const u8,
    linear_len: usize,
    tiled: *mut u8,
    tiled_len: usize,
    tiled_base: usize,
    /// AVX-512F kernels may run (the call's [`Caps`]).
    avx512: bool,
    /// AVX2 kernels may run (the call's [`Caps`]; the gob and swizzle-chunk kernels'
    /// fallback).
    avx2: bool,
    /// AVX-512BW kernels may run (the call's [`Caps`]; 2-byte swizzle chunks).
    bw: bool,
    /// AVX-512 VBMI kernels may run (the call's [`Caps`]; 1-byte swizzle chunks).
    vbmi: bool,
    _life: PhantomData<&'a mut [u8]>,
}

impl<'a, const NT: bool> Tile<'a, NT> {
    pub(crate) fn new(linear: &'a [u8], tiled: &'a mut [u8], tiled_base: usize, caps: Caps) -> Self {
        Tile {
            linear: linear.as_ptr(),
            linear_len: linear.len(),
            tiled: tiled.as_mut_ptr(),
            tiled_len: tiled.len(),
            tiled_base,
            avx512: caps.avx512f,
            avx2: caps.avx2,
            bw: caps.avx512bw,
            vbmi: caps.avx512vbmi,
            _life: PhantomData,
        }
    }
}

impl<const NT: bool> Mover for Tile<'_, NT> {
    #[inline(always)]
    fn tiled_ptr(&self, t: usize) -> *const u8 {
        self.tiled.wrapping_add(t.wrapping_sub(self.tiled_base))
    }
    #[inline(always)]
    fn prefetch_tiled(&self) -> bool {
        !NT
    }
    #[inline(always)]
    fn mv(&mut self, t: usize, l: usize, len: usize) {
        let t = t - self.tiled_base;
        debug_assert!(t + len <= self.tiled_len && l + len <= self.linear_len);
        // SAFETY: see the module documentation.
        unsafe { ptr::copy_nonoverlapping(self.linear.add(l), self.tiled.add(t), len) }
    }
    #[inline(always)]
    fn mv_n<const N: usize>(&mut self, t: usize, l: usize) {
        let t = t - self.tiled_base;
        debug_assert!(t + N <= self.tiled_len && l + N <= self.linear_len);
        // SAFETY: as for `mv`.
        unsafe { copy_n::<N, NT>(self.linear.add(l), self.tiled.add(t)) }
    }
    #[inline(always)]
    fn tile4x4<const ES: usize, const P: usize>(&mut self, t: usize, l: usize, rp: usize) {
        #[cfg(target_arch = "x86_64")]
        if ES == 4 {
            use core::arch::x86_64::*;
            let t = t - self.tiled_base;
            debug_assert!(t + 64 <= self.tiled_len && l + 3 * rp + 16 <= self.linear_len);
            // SAFETY: as in `Untile::tile4x4`, with source and destination exchanged:
            // elements 0..4 = the low halves of rows 0 and 1, 4..8 their high halves.
            unsafe {
                let s = self.linear.add(l);
                let (r0, r1) = (_mm_loadu_si128(s as *const __m128i), _mm_loadu_si128(s.add(rp) as *const __m128i));
                let r2 = _mm_loadu_si128(s.add(2 * rp) as *const __m128i);
                let r3 = _mm_loadu_si128(s.add(3 * rp) as *const __m128i);
                let d = self.tiled.add(t) as *mut __m128i;
                _mm_storeu_si128(d, _mm_unpacklo_epi64(r0, r1));
                _mm_storeu_si128(d.add(1), _mm_unpackhi_epi64(r0, r1));
                _mm_storeu_si128(d.add(2), _mm_unpacklo_epi64(r2, r3));
                _mm_storeu_si128(d.add(3), _mm_unpackhi_epi64(r2, r3));
            }
            return;
        }
        tile4x4_pairs::<ES, P, Self>(self, t, l, rp);
    }
    #[inline(always)]
    fn wants_small_chunks<const ES: usize>(&self) -> bool {
        (ES == 2 && self.bw) || (ES == 1 && self.vbmi) || ((ES == 1 || ES == 2 || ES == 8) && self.avx2)
    }
    #[inline(always)]
    fn chunks_small_vector<const ES: usize>(&mut self, offs: &[usize], l: usize, rp: usize) -> bool {
        #[cfg(target_arch = "x86_64")]
        if self.wants_small_chunks::<ES>() {
            debug_assert!(offs
                .iter()
                .all(|&t| t >= self.tiled_base && t - self.tiled_base + 4096 * ES <= self.tiled_len));
            debug_assert!(l + 63 * rp + 64 * ES * offs.len() <= self.linear_len);
            let mut rel = [0usize; 8];
            for (r, &t) in rel.iter_mut().zip(offs) {
                *r = t - self.tiled_base;
            }
            // SAFETY: as in `Untile::chunks_small_vector`, with source and destination
            // exchanged (offsets made relative to this mover's tiled sub-slice).
            unsafe {
                let src = self.linear.add(l);
                let rel = &rel[..offs.len()];
                if ES == 8 {
                    for (c, &t) in rel.iter().enumerate() {
                        let (l, d) = (src.add(512 * c), self.tiled.add(t));
                        if self.avx512 {
                            x86_swizzle_es8::tile_chunk_es8(l, d, rp)
                        } else {
                            x86_swizzle_es8::tile_chunk_es8_avx2(l, d, rp)
                        }
                    }
                } else if ES == 2 && self.bw {
                    x86_swizzle::tile_chunks_es2(src, rel, self.tiled, rp)
                } else if ES == 1 && self.vbmi {
                    x86_swizzle::tile_chunks_es1(src, rel, self.tiled, rp)
                } else if ES == 1 {
                    x86_swizzle::tile_chunks_small_avx2::<1>(src, rel, self.tiled, rp)
                } else {
                    x86_swizzle::tile_chunks_small_avx2::<2>(src, rel, self.tiled, rp)
                }
            };
            return true;
        }
        let _ = (offs, l, rp);
        false
    }
    #[inline(always)]
    fn wants_chunk_runs(&self) -> bool {
        self.avx512 || self.avx2
    }
    #[inline(always)]
    fn chunk_run_es4_vector(
        &mut self,
        offs: &[usize],
        l0: usize,
        rp: usize,
        table: &[usize; 256],
        rows: &[u8; 64],
    ) -> bool {
        #[cfg(target_arch = "x86_64")]
        if (self.avx512 || self.avx2)
            && offs.len() <= RUN_CHUNKS
            && offs.iter().all(|&t| aligned64(self.tiled as usize + t - self.tiled_base, self.linear as usize + l0, rp))
        {
            // This mover's tiled pointer is its part's start, `tiled_base` bytes into the
            // surface.
            let mut rel = [0usize; RUN_CHUNKS];
            for (r, &t) in rel.iter_mut().zip(offs) {
                *r = t - self.tiled_base;
            }
            let rel = &rel[..offs.len()];
            debug_assert!(rel.iter().all(|&t| t + 16384 <= self.tiled_len));
            debug_assert!(l0 + 63 * rp + 256 * offs.len() <= self.linear_len);
            debug_assert!(table[255] == 60 * rp + 60 * 4, "a 64x64 chunk");
            // SAFETY: as in `Untile::chunk_run_es4_vector`, with source and destination
            // exchanged.
            unsafe {
                if self.avx512 {
                    x86_swizzle::tile_chunk_run_es4(self.linear.add(l0), rel, self.tiled, rp, table, rows)
                } else {
                    x86_swizzle::tile_chunk_run_es4_avx2(self.linear.add(l0), rel, self.tiled, rp, table, rows)
                }
            };
            return true;
        }
        let _ = (offs, l0, rp, table, rows);
        false
    }
    #[inline(always)]
    fn stack_tegra_gobs(&self) -> bool {
        NT
    }
    #[inline(always)]
    fn gob_row_vector(&mut self, row: &GobRow) -> bool {
        #[cfg(target_arch = "x86_64")]
        if row.n > 0 && (self.avx512 || self.avx2) {
            let first = row.first() - self.tiled_base;
            // Streaming stores need whole lines: a tiled buffer off a line boundary is
            // written with ordinary unaligned stores (gobs are whole lines from its start).
            let stream = NT && aligned64(self.tiled as usize + first, 0, 0);
            debug_assert!(row.block_log2 >= 6 + row.gh.trailing_zeros() && row.block_log2 >= row.gob_log2);
            debug_assert!(first + row.rel(row.n - 1) + 64 * row.gh <= self.tiled_len);
            debug_assert!(row.l0 + (row.gh - 1) * row.rp + 64 * row.n <= self.linear_len);
            // SAFETY: as in `Untile::gob_row_vector`, with source and destination
            // exchanged (a task's tiled slice holds whole block rows, so every gob of the
            // run lies in it); the kernels stream only when `stream`, which holds when the
            // run's first gob is on a line boundary: its other gobs are whole numbers of
            // gobs (256 or 512 bytes) away.
            unsafe {
                let (t, l, pf) = (self.tiled.add(first), self.linear.add(row.l0), self.prefetch_tiled());
                match (self.avx512, stream) {
                    (true, true) => x86_gob::tile_gob_row::<true>(l, t, row, pf),
                    (true, false) => x86_gob::tile_gob_row::<false>(l, t, row, pf),
                    (false, true) => x86_gob::tile_gob_row_avx2::<true>(l, t, row, pf),
                    (false, false) => x86_gob::tile_gob_row_avx2::<false>(l, t, row, pf),
                }
            };
            return true;
        }
        let _ = row;
        false
    }
}

/// The vector swizzle-chunk kernels (AVX-512 and AVX2) run only when every 64-byte access
/// is a whole cache line: the tiled and linear origins (addresses) and the row pitch are
/// multiples of 64 (so every 32-byte AVX2 access is aligned too).
/// Lines split across two accesses measured slower than the SSE2 tiles; the gob-row kernels take
/// any alignment and stream only whole lines
/// ([docs/perf/swizzle-chunks.md](../../../../../docs/perf/swizzle-chunks.md)).
#[inline(always)]
fn aligned64(tiled_addr: usize, linear_addr: usize, rp: usize) -> bool {
    (tiled_addr | linear_addr | rp).is_multiple_of(64)
}
