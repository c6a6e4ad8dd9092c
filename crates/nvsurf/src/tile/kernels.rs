//! The copy kernels. Every function here runs on a checked [`Plan`]: all offsets it computes are
//! inside the buffers (the plan proved `size_bytes <= tiled.len()` and the region's linear span
//! fits), so the slice indexing below never fails for a plan built by [`Plan::new`].
//!
//! The kernels are written once, generic over a `Mover` (a private trait) that knows the
//! direction (untile: tiled -> linear; tile: linear -> tiled) and the base offsets of the
//! (sub-)buffers it holds, so the single-thread and parallel paths run the same code on
//! disjoint parts.

use super::Plan;
use crate::layout::swizzled::deposit;
use crate::layout::{BlockLinear, GobOrder, Surface, Swizzled};
use core::ops::Range;

/// One direction of copy between a tiled and a linear buffer. Offsets are absolute (from the
/// surface start / the linear image start); the mover subtracts the base of the slices it holds.
pub(crate) trait Mover {
    /// Moves `len` bytes between tiled offset `t` and linear offset `l`.
    fn mv(&mut self, t: usize, l: usize, len: usize);
    /// The address of tiled offset `t`, for prefetch hints only (never dereferenced).
    fn tiled_ptr(&self, t: usize) -> *const u8;
    /// Whether prefetching tiled gobs ahead helps: not when the tiled side is written with
    /// streaming stores (the prefetch would read lines that are about to be overwritten whole).
    #[inline(always)]
    fn prefetch_tiled(&self) -> bool {
        true
    }
    /// Moves exactly `N` bytes (a fixed-size copy the compiler turns into a few vector moves).
    #[inline(always)]
    fn mv_n<const N: usize>(&mut self, t: usize, l: usize) {
        self.mv(t, l, N);
    }
    /// Moves one 4x4 tile of elements of `ES` bytes (`P = 2 * ES`) between its 16 consecutive
    /// tiled elements at `t` (index bits x0 y0 x1 y1) and the linear rows `l + r * rp`, `r` in
    /// 0..4: row `r` holds elements `2 * (r & 1) + 8 * (r >> 1) + {0, 1, 4, 5}`, two pairs.
    #[inline(always)]
    fn tile4x4<const ES: usize, const P: usize>(&mut self, t: usize, l: usize, rp: usize)
    where
        Self: Sized,
    {
        tile4x4_pairs::<ES, P, Self>(self, t, l, rp);
    }
    /// Moves one whole 4096-element chunk of 4-byte elements (tiled bytes `t..t + 16384`, the
    /// tiles' linear offsets `l + table[k]`; see [`chunk_tiles4`]) with a vector kernel, when
    /// this mover has one for this CPU. The caller guarantees `x_tiles` (index bits 0, 2, 4
    /// and 6 step x, so tiles `k`, `k + 1`, `k + 4`, `k + 5` of a group sit side by side:
    /// `table[1] = 16`, `table[4] = 32`, `table[5] = 48` bytes). Returns false, having moved
    /// nothing, otherwise. Only untile has one (AVX-512): for tile, the SSE2 tiles of
    /// [`Mover::tile4x4`] measured faster (swizzled-1024x1024x4, 3 interleaved runs of
    /// nvsurf-bench with and without `--vector-limit baseline`: 0.61-0.63x memcpy against
    /// 0.58-0.59x), while untile gains (0.48-0.49x against 0.39-0.44x).
    #[inline(always)]
    fn chunk_es4_vector(&mut self, _t: usize, _l: usize, _rp: usize, _table: &[usize; 256]) -> bool {
        false
    }
    /// Whether [`gobs`] may hand [`Mover::gob_row_vector`] two stacked 4-row VM gobs per
    /// column ([`GobRow::gh`] 8): not when untile streams the linear image, where eight rows
    /// streamed at once measured slower than four (g80-2048x2048x4 untile, one thread, paired
    /// rounds against memcpy: 0.85-0.92x stacked, 1.00-1.21x not).
    #[inline(always)]
    fn stack_vm_gobs(&self) -> bool {
        true
    }
    /// Whether [`gobs`] may hand [`Mover::gob_row_vector`] columns of 2 or 4 stacked Tegra
    /// gobs ([`GobRow::gh`] 16 or 32; see [`tegra_stack`]). Of the raw movers only tile does,
    /// and only when it streams its output (where it was measured to gain, see
    /// [`tegra_stack`]); the safe movers always may, so the stacked walk is checked on every CPU.
    #[inline(always)]
    fn stack_tegra_gobs(&self) -> bool {
        true
    }
    /// Moves a run of whole gobs ([`GobRow`]; VM order, or 8-row Tegra order) with a vector
    /// kernel when this mover has one for this CPU and the addresses allow it (raw movers:
    /// AVX-512F or AVX2, line-aligned), in one loop that keeps its state in registers and
    /// prefetches the tiled gobs ahead when [`Mover::prefetch_tiled`]; the safe movers spell it
    /// out as checked copies. Returns false, having moved nothing, when it cannot.
    #[inline(always)]
    fn gob_row_vector(&mut self, _row: &GobRow) -> bool {
        false
    }
    /// Whether [`Mover::chunks_small_vector`] can move chunks of `ES`-byte elements.
    #[inline(always)]
    fn wants_small_chunks<const ES: usize>(&self) -> bool {
        false
    }
    /// Moves whole 64x64 swizzle chunks of `ES`-byte elements (`ES` 1, 2 or 8, index bits x0
    /// y0 .. x5 y5) side by side: chunk `c`'s tiled bytes from `offs[c]`, its linear rows
    /// from `l + 64 * ES * c` with pitch `rp`; vector permutes (raw movers: AVX-512 VBMI for
    /// 1 byte, AVX-512BW for 2, AVX-512F for 8, else AVX2), band by band across the chunks.
    /// Returns false, having moved nothing, when it cannot.
    #[inline(always)]
    fn chunks_small_vector<const ES: usize>(&mut self, _offs: &[usize], _l: usize, _rp: usize) -> bool {
        false
    }
    /// Whether runs of whole 64x64 swizzle chunks of 4-byte elements side by side should go
    /// through [`Mover::chunk_run_es4_vector`] (raw movers with AVX-512 or AVX2, both directions).
    #[inline(always)]
    fn wants_chunk_runs(&self) -> bool {
        false
    }
    /// Moves a run of up to [`RUN_CHUNKS`] whole 64x64 chunks of 4-byte elements side by side
    /// along x (chunk `c`'s tiled bytes `offs[c]..offs[c] + 16384`, its linear origin
    /// `l0 + 256 * c`, tile offsets `table`), band of 4 rows by band across the run: `rows`
    /// lists the chunk's 64 tile groups (see [`STRIP_ORDER`]) in linear order, 4 per band.
    /// Returns false, having moved nothing, when it cannot.
    #[inline(always)]
    fn chunk_run_es4_vector(
        &mut self,
        _offs: &[usize],
        _l0: usize,
        _rp: usize,
        _table: &[usize; 256],
        _rows: &[u8; 64],
    ) -> bool {
        false
    }
}

/// [`Mover::tile4x4`] as 8 copies of `P` bytes (the safe movers' way, and the raw movers' for
/// element sizes without a vector kernel).
#[inline(always)]
fn tile4x4_pairs<const ES: usize, const P: usize, M: Mover>(m: &mut M, t: usize, l: usize, rp: usize) {
    for r in 0..4 {
        let src = t + ES * (2 * (r & 1) + 8 * (r >> 1));
        m.mv_n::<P>(src, l + r * rp);
        m.mv_n::<P>(src + 4 * ES, l + r * rp + P);
    }
}

/// A run of whole gobs (VM order, or 8-row Tegra order) side by side in one gob row. Gob
/// column `gx` (a gob index along x, in `gx0..gx0 + n`) starts at tiled offset `base +
/// column_offset(gx)`, where `column_offset(gx) = ((gx >> width_log2) << block_log2) + ((gx &
/// (2^width_log2 - 1)) << gob_log2)` (the column's block, then its place in the block; `base`
/// holds the row's and slice's share, [`BlockLinear::gob_offset`] of column 0). Its linear rows
/// start at `l0 + 64 * (gx - gx0) + r * rp`. Offsets grow with `gx`, so the last gob is the
/// furthest from `base`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GobRow {
    /// Tiled offset in bytes of gob column 0 of this gob row and slice.
    pub(crate) base: usize,
    /// The first gob column of the run.
    pub(crate) gx0: usize,
    /// Gobs in the run.
    pub(crate) n: usize,
    /// Log2 of the block width, gobs.
    pub(crate) width_log2: u32,
    /// Log2 of the block size, bytes.
    pub(crate) block_log2: u32,
    /// Log2 of the gob size, bytes.
    pub(crate) gob_log2: u32,
    /// Linear offset in bytes of row 0 of gob column `gx0`.
    pub(crate) l0: usize,
    /// Linear row pitch, bytes.
    pub(crate) rp: usize,
    /// Rows per gob column: the gob height (4 or 8; 8 in the Tegra order), or a column of
    /// gobs stacked in a block one gob wide, each following the one above it: 8 for two
    /// VM-order gobs of 4 rows, 16 or 32 for two or four Tegra-order gobs (see [`gobs`]).
    pub(crate) gh: usize,
    /// VM order (row `r` of the column is the 64 bytes at `64 * r`), else the Tegra order.
    pub(crate) vm: bool,
}

impl GobRow {
    /// Tiled offset of gob column `gx` from the row's `base`, bytes.
    #[inline(always)]
    fn column_offset(&self, gx: usize) -> usize {
        ((gx >> self.width_log2) << self.block_log2) + ((gx & ((1 << self.width_log2) - 1)) << self.gob_log2)
    }
    /// Tiled offset of the `k`th gob of the run from its first gob, bytes.
    #[inline(always)]
    fn rel(&self, k: usize) -> usize {
        self.column_offset(self.gx0 + k) - self.column_offset(self.gx0)
    }
    /// Tiled offset of the run's first gob, bytes.
    #[inline(always)]
    fn first(&self) -> usize {
        self.base + self.column_offset(self.gx0)
    }
}

/// [`Mover::gob_row_vector`] spelled out as plain moves through [`Mover::mv_n`]: each column's
/// `row.gh` rows as 64-byte copies (VM order) or 16-byte runs (Tegra order). The safe movers'
/// twin of the vector loops: the same walk and offsets, with checked slices.
fn gob_row_moves<M: Mover>(m: &mut M, row: &GobRow) {
    let runs = GobOrder::Tegra.run16_offsets(8);
    for k in 0..row.n {
        let t = row.first() + row.rel(k);
        let l = row.l0 + 64 * k;
        for r in 0..row.gh {
            if row.vm {
                m.mv_n::<64>(t + 64 * r, l + r * row.rp);
            } else {
                for c in 0..4 {
                    m.mv_n::<16>(t + 512 * (r / 8) + runs[(r % 8) * 4 + c] as usize, l + r * row.rp + 16 * c);
                }
            }
        }
    }
}

/// Safe movers: every access is a checked slice. They are the twins the raw movers are tested
/// against (`tests/tile_props.rs` runs both).
pub(crate) mod safe {
    use super::{gob_row_moves, GobRow, Mover};

    /// Untile: tiled (read) -> linear (write).
    pub(crate) struct Untile<'a> {
        pub(crate) tiled: &'a [u8],
        pub(crate) linear: &'a mut [u8],
        pub(crate) linear_base: usize,
    }

    impl Mover for Untile<'_> {
        #[inline(always)]
        fn tiled_ptr(&self, t: usize) -> *const u8 {
            self.tiled.as_ptr().wrapping_add(t)
        }
        #[inline(always)]
        fn mv(&mut self, t: usize, l: usize, len: usize) {
            let l = l - self.linear_base;
            self.linear[l..l + len].copy_from_slice(&self.tiled[t..t + len]);
        }
        /// The chunk-group walk with checked copies (its fallback path), so that its chunk
        /// offsets are bounds-checked in the tests.
        #[inline(always)]
        fn wants_small_chunks<const ES: usize>(&self) -> bool {
            matches!(ES, 1 | 2 | 8)
        }
        /// The gob-row walk with checked copies, on any CPU: its offsets (and the stacking of
        /// VM gobs) are bounds-checked in the tests.
        #[inline(always)]
        fn gob_row_vector(&mut self, row: &GobRow) -> bool {
            gob_row_moves(self, row);
            true
        }
    }

    /// Tile: linear (read) -> tiled (write).
    pub(crate) struct Tile<'a> {
        pub(crate) linear: &'a [u8],
        pub(crate) tiled: &'a mut [u8],
        pub(crate) tiled_base: usize,
    }

    impl Mover for Tile<'_> {
        #[inline(always)]
        fn tiled_ptr(&self, t: usize) -> *const u8 {
            self.tiled.as_ptr().wrapping_add(t.wrapping_sub(self.tiled_base))
        }
        #[inline(always)]
        fn mv(&mut self, t: usize, l: usize, len: usize) {
            let t = t - self.tiled_base;
            self.tiled[t..t + len].copy_from_slice(&self.linear[l..l + len]);
        }
        /// As for [`Untile`].
        #[inline(always)]
        fn wants_small_chunks<const ES: usize>(&self) -> bool {
            matches!(ES, 1 | 2 | 8)
        }
        /// As for [`Untile`].
        #[inline(always)]
        fn gob_row_vector(&mut self, row: &GobRow) -> bool {
            gob_row_moves(self, row);
            true
        }
    }
}

/// Raw movers for the hot loops.
///
/// Soundness: a raw mover is only built by the `*_planned*` functions below from a [`Plan`]
/// made by [`Plan::new`], which proved `tiled.len() >= size_bytes` and
/// `linear.len() >= linear_span`, and from slices that cover exactly the parts a task owns.
/// The kernels only ask for (a) tiled ranges inside gobs that hold at least one byte of the
/// surface — blocks are whole, so such gobs lie entirely below `size_bytes` (the layout's
/// bijection onto `0..size_bytes` is property-tested) — or inside the swizzle index range
/// `0..w*h*d` times the element size; and (b) linear ranges of bytes of the region, which lie
/// below `linear_span` by the plan's construction. Parallel tasks own disjoint sub-slices and
/// only touch offsets inside them (tasks are cut along the same boundaries the kernels iterate
/// over). Source and destination are different allocations, so the copies never overlap.
/// `debug_assert!`s check every range in debug builds; the safe twins above run the same
/// kernels with checked slices, and the tests compare both against the byte-by-byte reference.
pub(crate) mod raw {
    use super::{GobRow, Mover};
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
        /// AVX-512F kernels may run ([`crate::cpu::avx512f`]).
        avx512: bool,
        /// AVX2 kernels may run ([`crate::cpu::avx2`]; the gob and swizzle-chunk kernels'
        /// fallback).
        avx2: bool,
        /// AVX-512BW kernels may run ([`crate::cpu::avx512bw`]; 2-byte swizzle chunks).
        bw: bool,
        /// AVX-512 VBMI kernels may run ([`crate::cpu::avx512vbmi`]; 1-byte swizzle chunks).
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
        pub(crate) unsafe fn from_raw_parts(tiled: &'a [u8], linear: *mut u8, linear_len: usize) -> Self {
            Untile {
                tiled: tiled.as_ptr(),
                tiled_len: tiled.len(),
                linear,
                linear_len,
                linear_base: 0,
                avx512: crate::cpu::avx512f(),
                avx2: crate::cpu::avx2(),
                bw: crate::cpu::avx512bw(),
                vbmi: crate::cpu::avx512vbmi(),
                _life: PhantomData,
            }
        }
        pub(crate) fn new(tiled: &'a [u8], linear: &'a mut [u8], linear_base: usize) -> Self {
            Untile {
                tiled: tiled.as_ptr(),
                tiled_len: tiled.len(),
                linear: linear.as_mut_ptr(),
                linear_len: linear.len(),
                linear_base,
                avx512: crate::cpu::avx512f(),
                avx2: crate::cpu::avx2(),
                bw: crate::cpu::avx512bw(),
                vbmi: crate::cpu::avx512vbmi(),
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
            super::tile4x4_pairs::<ES, P, Self>(self, t, l, rp);
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
                unsafe { x86::untile_chunk_es4(self.tiled.add(t), self.linear.add(l), rp, table) };
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
                                x86::untile_chunk_es8(src, d, rp)
                            } else {
                                x86::untile_chunk_es8_avx2(src, d, rp)
                            }
                        }
                    } else if ES == 2 && self.bw {
                        x86::untile_chunks_es2(self.tiled, offs, dst, rp)
                    } else if ES == 1 && self.vbmi {
                        x86::untile_chunks_es1(self.tiled, offs, dst, rp)
                    } else if ES == 1 {
                        x86::untile_chunks_small_avx2::<1>(self.tiled, offs, dst, rp)
                    } else {
                        x86::untile_chunks_small_avx2::<2>(self.tiled, offs, dst, rp)
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
                && offs.len() <= super::RUN_CHUNKS
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
                        x86::untile_chunk_run_es4(self.tiled, offs, self.linear.add(l0), rp, table, rows)
                    } else {
                        x86::untile_chunk_run_es4_avx2(self.tiled, offs, self.linear.add(l0), rp, table, rows)
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
                            x86::untile_gob_row_shifted(t, l, row, pf, shift)
                        } else {
                            x86::untile_gob_row_shifted_avx2(t, l, row, pf, shift)
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
                        (true, true) => x86::untile_gob_row::<true>(t, l, row, pf),
                        (true, false) => x86::untile_gob_row::<false>(t, l, row, pf),
                        (false, true) => x86::untile_gob_row_avx2::<true>(t, l, row, pf),
                        (false, false) => x86::untile_gob_row_avx2::<false>(t, l, row, pf),
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
        /// AVX-512F kernels may run ([`crate::cpu::avx512f`]).
        avx512: bool,
        /// AVX2 kernels may run ([`crate::cpu::avx2`]; the gob and swizzle-chunk kernels'
        /// fallback).
        avx2: bool,
        /// AVX-512BW kernels may run ([`crate::cpu::avx512bw`]; 2-byte swizzle chunks).
        bw: bool,
        /// AVX-512 VBMI kernels may run ([`crate::cpu::avx512vbmi`]; 1-byte swizzle chunks).
        vbmi: bool,
        _life: PhantomData<&'a mut [u8]>,
    }

    impl<'a, const NT: bool> Tile<'a, NT> {
        pub(crate) fn new(linear: &'a [u8], tiled: &'a mut [u8], tiled_base: usize) -> Self {
            Tile {
                linear: linear.as_ptr(),
                linear_len: linear.len(),
                tiled: tiled.as_mut_ptr(),
                tiled_len: tiled.len(),
                tiled_base,
                avx512: crate::cpu::avx512f(),
                avx2: crate::cpu::avx2(),
                bw: crate::cpu::avx512bw(),
                vbmi: crate::cpu::avx512vbmi(),
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
            super::tile4x4_pairs::<ES, P, Self>(self, t, l, rp);
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
                                x86::tile_chunk_es8(l, d, rp)
                            } else {
                                x86::tile_chunk_es8_avx2(l, d, rp)
                            }
                        }
                    } else if ES == 2 && self.bw {
                        x86::tile_chunks_es2(src, rel, self.tiled, rp)
                    } else if ES == 1 && self.vbmi {
                        x86::tile_chunks_es1(src, rel, self.tiled, rp)
                    } else if ES == 1 {
                        x86::tile_chunks_small_avx2::<1>(src, rel, self.tiled, rp)
                    } else {
                        x86::tile_chunks_small_avx2::<2>(src, rel, self.tiled, rp)
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
                && offs.len() <= super::RUN_CHUNKS
                && offs
                    .iter()
                    .all(|&t| aligned64(self.tiled as usize + t - self.tiled_base, self.linear as usize + l0, rp))
            {
                // This mover's tiled pointer is its part's start, `tiled_base` bytes into the
                // surface.
                let mut rel = [0usize; super::RUN_CHUNKS];
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
                        x86::tile_chunk_run_es4(self.linear.add(l0), rel, self.tiled, rp, table, rows)
                    } else {
                        x86::tile_chunk_run_es4_avx2(self.linear.add(l0), rel, self.tiled, rp, table, rows)
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
                        (true, true) => x86::tile_gob_row::<true>(l, t, row, pf),
                        (true, false) => x86::tile_gob_row::<false>(l, t, row, pf),
                        (false, true) => x86::tile_gob_row_avx2::<true>(l, t, row, pf),
                        (false, false) => x86::tile_gob_row_avx2::<false>(l, t, row, pf),
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
    /// Lines split across two loads or stores measured slower than the SSE2 tiles (15 against
    /// 19 GB/s tiling 1024x1024x4 from buffers 16 bytes off a line; 22 aligned). The gob-row
    /// kernels take any alignment (unaligned loads and stores) and stream only whole lines:
    /// rows off a line boundary come from packed texture files (a layer after a 1x1 mip
    /// level), whose other path, 16-byte runs gob by gob, measured slower.
    #[inline(always)]
    fn aligned64(tiled_addr: usize, linear_addr: usize, rp: usize) -> bool {
        (tiled_addr | linear_addr | rp).is_multiple_of(64)
    }

    /// x86_64 vector kernels: whole gobs (AVX-512F and AVX2 twins) and whole swizzle chunks:
    /// 4-byte elements (AVX-512F; runs of chunks also AVX2), 1-, 2- and 8-byte elements
    /// (AVX-512 VBMI, BW and F respectively, each with an AVX2 twin).
    #[cfg(target_arch = "x86_64")]
    mod x86 {
        use super::super::STRIP_ORDER;
        use super::GobRow;
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
        /// the run's first gob at `first`), if the run has one there. Eight gobs ahead was
        /// measured on the older gob-by-gob walk (see `gobs`); in this loop, `64 / row.gh`
        /// gobs ahead or `row.gh` lines per gob measured no better (G80 2000x1000x4, two
        /// threads, paired rounds against memcpy: 0.67-0.79x, no variant ahead), nor did 16 gobs
        /// ahead in a stand-alone Tegra loop (2000x1000x4 untile, two threads: 0.89x at both).
        #[inline(always)]
        fn prefetch_ahead(first: *const u8, row: &GobRow, k: usize) {
            const AHEAD: usize = 8;
            if k + AHEAD < row.n {
                super::super::prefetch(first.wrapping_add(row.rel(k + AHEAD)));
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
        /// or [`rows64`]; prefetches the tiled gobs ahead when `pf`. One loop for the run
        /// instead of a call per gob: on the development machine (tegra-2000x1000x4, data in
        /// L3) the per-gob loop of `gobs` kept about 80 instructions per gob in flight and
        /// reached 0.81-0.89x memcpy, a lean loop 0.9-1.1x (scratch harness, paired rounds).
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
        pub(super) unsafe fn untile_gob_row_avx2<const NT: bool>(
            first: *const u8,
            linear: *mut u8,
            row: &GobRow,
            pf: bool,
        ) {
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
        /// partial lines, copied with ordinary stores (masked stores measured slower on the
        /// development machine: 0.75-0.90x against 0.91-1.06x memcpy). Returns false (and does nothing) for
        /// gob columns other than 8-row Tegra-order and 4- or 8-row VM-order ones. Measured
        /// on the development machine (a GM20B NVN cube 1024x1024 RGBA8 with its full mip
        /// chain, whose layers 1-5 start off a line in the packed linear file;
        /// `nvsurf-bench --quick --case tex-cube-1024x1024x4`, two interleaved runs against
        /// ordinary unaligned stores): untile 0.90-1.00x -> 0.97-1.11x memcpy at one thread,
        /// 1.04-1.08x -> 1.16-1.24x a split memcpy at two.
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
        /// vectors of the row's stream, made by two dword permutes and a blend. Measured on
        /// the development machine (`nvsurf-bench --quick --vector-limit avx2 --case
        /// tex-cube-1024x1024x4`, four interleaved runs against ordinary unaligned stores):
        /// untile 0.83-0.95x -> 0.90-1.03x memcpy at one thread, 0.92-1.01x -> 1.13-1.18x a
        /// split memcpy at two.
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
        pub(super) unsafe fn tile_gob_row_avx2<const NT: bool>(
            linear: *const u8,
            first: *mut u8,
            row: &GobRow,
            pf: bool,
        ) {
            // SAFETY (both arms): the `k`th gob and its rows, per the function's contract.
            gob_row_loop!(first, row, pf, |k, g|
                vm: unsafe { rows64_avx2::<NT>(linear.add(64 * k), row.rp, first.add(row.rel(k)), 64, row.gh) },
                tegra: unsafe { tile_gob_tegra_avx2::<NT>(linear.add(64 * k + 8 * g * row.rp), first.add(row.rel(k) + 512 * g), row.rp) });
        }

        /// [`untile_chunk_run_es4`] the other way: for each of a band's groups, its four
        /// 64-byte row pieces become its four tiles (two-source dword permutes of rows 0 and 1,
        /// and of rows 2 and 3, give each tile's first and last 32 bytes), and the four tiles'
        /// 64-byte lines are stored whole, one after the other.
        ///
        /// Measured: on the 32 MiB-L3 development VM (swizzled-1024x1024x4 tile, one thread,
        /// ab.sh), pairs of chunks at 0.77-0.81x memcpy against 0.57-0.58x for the SSE2 tiles
        /// chunk by chunk. Session 18, on the 48 MiB-L3 VM (C model of this walk, medians of
        /// 401 shuffled rounds against memcpy, four runs): storing each tile line whole gives
        /// 0.93-0.95x at one thread and 0.94-0.97x at two, where the earlier order (rows 0 and 1
        /// of all of a band's groups, then rows 2 and 3, so that each line's two halves were
        /// stored 8 groups apart) gave 0.78-0.91x and 0.83-0.87x; the run's width (1, 2, 4 or
        /// 16 chunks) moved tile by less than the noise.
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
        /// Measured: on the 32 MiB-L3 development VM (1024x1024x4, untile at 2 threads), pairs
        /// of chunks gave 0.63-0.68x a split memcpy against 0.45-0.48x chunk by chunk; a
        /// stand-alone loop showed why: 64-byte stores visiting 64 rows 256 bytes at a time
        /// ran at 31 GB/s, 512-byte row runs at 78 GB/s. Session 18, on the 48 MiB-L3 VM (C
        /// model, medians of 401 shuffled rounds against memcpy, six runs): bands across 16
        /// chunks (4096-byte rows), each group's 4 rows stored together, 0.95-0.99x at one
        /// thread and two; the pairs' walk (rows 0 and 1 of all 8 groups, then rows 2 and 3)
        /// 0.87-0.94x; bands across 8 chunks 0.87-0.93x; 4 chunks 0.91-0.95x.
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
                                let (r0a, r0b) =
                                    (_mm256_permute4x64_epi64::<0xd8>(r0a), _mm256_permute4x64_epi64::<0xd8>(r0b));
                                let (r1a, r1b) =
                                    (_mm256_permute4x64_epi64::<0xd8>(r1a), _mm256_permute4x64_epi64::<0xd8>(r1b));
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
        const fn strip_bytes(j: usize, es: usize) -> usize {
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
                            unsafe {
                                _mm512_storeu_si512(linear.add(128 * c + (4 * t + r) * rp + 64 * h) as *mut __m512i, v)
                            };
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
                            unsafe {
                                _mm512_storeu_si512(tiled.add(at) as *mut __m512i, _mm512_permutexvar_epi16(idx, v))
                            };
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
        const fn band_bytes(t: usize, es: usize) -> usize {
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
                            let x =
                                _mm256_loadu_si256(tiled.add(off + tb + unit_bytes(4 * g + i, ES)) as *const __m256i);
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
                            _mm256_storeu_si256(
                                d.add(2 * rp) as *mut __m256i,
                                _mm256_permute2x128_si256::<0x20>(v2, v3),
                            );
                            _mm256_storeu_si256(
                                d.add(3 * rp) as *mut __m256i,
                                _mm256_permute2x128_si256::<0x31>(v2, v3),
                            );
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

        /// Two of the four 64-byte linear rows of the group of four tiles A, B, C, D at `s`
        /// (tiles at `s`, `s + 64`, `s + 256`, `s + 320`), as in [`untile_chunk_es4`]: rows 0
        /// and 1 for `half` 0, rows 2 and 3 for `half` 1. A tile's first 32 bytes are its 2x2
        /// blocks of rows 0 and 1 (128-bit lanes: x1 = 0, then 1; in a lane, x0 then y0), its
        /// last 32 bytes those of rows 2 and 3. Joining A's and B's halves (and C's and D's)
        /// as 256-bit loads puts 8 columns of both rows in one register, in x order by 2x2
        /// block; one two-source dword permute then picks each row's 16 columns. Measured on
        /// the development machine (scratch harness, swizzled-1024x1024x4 untile, medians of
        /// 3000 rounds): 103-105 us against 109-111 us for four 64-byte loads and eight
        /// shuffles per group (memcpy 86 us), the inserted halves being loads, not shuffles.
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
    }
}

/// A family of movers: the raw ones for speed, the safe ones as their tested twins.
pub(crate) trait Kind {
    /// Untile mover.
    type U<'a>: Mover;
    /// Tile mover.
    type T<'a>: Mover;
    /// Builds an untile mover over `tiled` and the linear sub-slice starting at `base`.
    fn untile<'a>(tiled: &'a [u8], linear: &'a mut [u8], base: usize) -> Self::U<'a>;
    /// Builds a tile mover over `linear` and the tiled sub-slice starting at `base`.
    fn tile<'a>(linear: &'a [u8], tiled: &'a mut [u8], base: usize) -> Self::T<'a>;
}

/// Raw pointer movers; `NT` = streaming stores for large outputs.
pub(crate) struct Raw<const NT: bool>;
/// Checked slice movers.
pub(crate) struct Safe;

impl<const NT: bool> Kind for Raw<NT> {
    type U<'a> = raw::Untile<'a, NT>;
    type T<'a> = raw::Tile<'a, NT>;
    fn untile<'a>(tiled: &'a [u8], linear: &'a mut [u8], base: usize) -> Self::U<'a> {
        raw::Untile::new(tiled, linear, base)
    }
    fn tile<'a>(linear: &'a [u8], tiled: &'a mut [u8], base: usize) -> Self::T<'a> {
        raw::Tile::new(linear, tiled, base)
    }
}

impl Kind for Safe {
    type U<'a> = safe::Untile<'a>;
    type T<'a> = safe::Tile<'a>;
    fn untile<'a>(tiled: &'a [u8], linear: &'a mut [u8], base: usize) -> Self::U<'a> {
        safe::Untile { tiled, linear, linear_base: base }
    }
    fn tile<'a>(linear: &'a [u8], tiled: &'a mut [u8], base: usize) -> Self::T<'a> {
        safe::Tile { linear, tiled, tiled_base: base }
    }
}

/// Runs the kernel of the plan's layout over slices `zs` and rows `ys` (surface coordinates,
/// inside the region).
pub(crate) fn run<M: Mover>(p: &Plan, m: &mut M, zs: Range<u32>, ys: Range<u32>) {
    match &p.surface {
        Surface::BlockLinear(b) => blocklinear(p, b, m, zs, ys),
        Surface::Pitch(s) => {
            let pitch = s.pitch_bytes() as usize;
            let len = p.xb[1] - p.xb[0];
            for z in zs {
                for y in ys.clone() {
                    m.mv(y as usize * pitch + p.xb[0], p.linear_offset(p.xb[0], y, z), len);
                }
            }
        }
        Surface::Swizzled(s) => swizzled_chunked(p, s, m, zs, ys, [p.region.x, p.region.x + p.region.w]),
    }
}

/// Blocklinear: one gob row of the surface at a time (two for stacked 4-row VM gobs, see
/// [`gobs`]), left to right: the run of whole gobs through [`Mover::gob_row_vector`] (vector
/// loops, or checked 64-byte rows and 16-byte runs), partial gobs and gob rows the movers
/// cannot take gob by gob; a whole gob is 4 or 8 row copies of 64 bytes (VM order) or 32 runs of
/// 16 bytes (CPU orders); partial gobs copy the covered part of each row. (Measured: walking the
/// tiled memory block by block instead is 2-3x slower, the linear side then spans 64-256 rows.)
///
/// Linear rows a multiple of 4 KiB apart (power-of-two widths: 1024x1024x4, 8192x128x4) are
/// slower to untile while the data fits the L3 cache: the 8 rows of a gob then fall in the same
/// set of the 32 KiB 8-way L1 data cache (session 11, scratch harness, one thread, Tegra order,
/// block height 16 gobs, medians of 2000 paired rounds: 8192x128x4 0.71x memcpy against 0.90x
/// for 8000x128x4 and 0.89x for 8128 and 8256; 1024x1024x4 0.70x against 0.79x for 1000 wide).
/// Tried and not kept: walking each block row in groups of 8 gob columns, all gob rows of the
/// group before the next (0.65x; a C model of it with the Tegra shuffle done row pair by row
/// pair across the 8 gobs reached 0.80x, with plain 64-byte VM rows 0.84x), against this walk's
/// 0.71-0.73x in the same models.
///
/// What the all-threads gap on 2000x1000x4 is (session 12, scratch harness, Tegra order, block
/// height 16 gobs, one thread, data in L3, not streamed, medians of 2000 paired rounds): each
/// of two threads moves 4 MB, and at that size memcpy runs faster than at 8 MB while this walk
/// does not. 8 MB: tile 0.97x, untile 1.00x memcpy; 4 MB (2000x500): 0.82x and 0.82x, memcpy
/// going from 37 to 48 GB/s and this walk staying near 40. Tried there and not kept: PREFETCHW
/// for the tiled lines that tile writes, instead of the T1 prefetch (0.58x: it fills L1, like
/// T0); also prefetching the 8 linear rows 6 gobs ahead (2% slower); 2 MiB pages for both
/// buffers (level, so the TLB is not the cause); one parallel task per thread instead of two
/// (level).
///
/// Tried in session 17 (48 MiB-L3 VM, C models of this walk with AVX-512 and VM-order gobs,
/// blocks 16 gobs tall, medians of 31-301 rounds against memcpy, one thread), none kept:
/// for 64 MiB (16384-byte rows, streamed), walking block by block 0.76-0.83x and 2 or 4 gob
/// rows stacked per column 0.86-0.89x, against 0.88-0.98x for this walk with its prefetch;
/// for 8 MB in L3 (2000x1000x4), staging 8-125 gobs of each gob row in an L1 buffer and
/// writing each row with `rep movsb` (whose stores skip reading the line first) or memcpy
/// 0.64-0.78x, against 0.93-0.95x for plain 64-byte stores; and in `nvsurf-bench`, prefetching 0, 16, 32
/// or 64 gobs ahead instead of 8 moved 2000x1000x4 by less than the noise.
///
/// Tried in session 18 for tegra-4096x4096x4 untile (64 MiB, streamed), none kept: in
/// `nvsurf-bench --quick` (its `x mcpy` column, median over median, here and below), 8, 12 or
/// 16 gobs ahead gave 0.79-1.02x a split memcpy at two threads
/// with no order between them (five runs each), 32 ahead 0.74-0.84x; in a two-thread C model
/// (medians of 21 shuffled rounds), this walk 0.85-0.91x, the prefetch with the NTA hint
/// 0.39-0.43x, reading 8 or 16 whole blocks side by side (sequential, the next group prefetched
/// into L2) and writing 128 rows of 512 or 1024 bytes 0.87-0.93x, the two threads taking
/// alternate gob rows of each block row 0.71x, alternate block rows 0.90x. Apart, this walk's
/// reads alone (gob order, prefetched) took 0.78-0.86 of memcpy's time and its streamed rows
/// alone 0.44-0.51: the loss is in overlapping the two, which a copy does better. Also tried in
/// the model and then in `nvsurf-bench` (ten `--quick` and three full `--case` runs each,
/// interleaved): a T0 prefetch of the next gob on top of the T1 prefetch 8 ahead, 1-2.5% ahead
/// in the model (0.89-0.93x against 0.88-0.92x), 0.81-0.92x against 0.78-1.07x at two threads
/// in the benchmark, which is noise.
fn blocklinear<M: Mover>(p: &Plan, b: &BlockLinear, m: &mut M, zs: Range<u32>, ys: Range<u32>) {
    for z in zs {
        gobs(p, b, m, z, ys.clone(), p.xb, b.gob_height_rows());
    }
}

/// The gobs holding rows `ys`, byte columns `xs` of slice `z`, band by band. Where a band
/// covers whole gobs (VM order, or 8-row Tegra order), the run of whole gobs between the
/// partial edge gobs goes to [`Mover::gob_row_vector`] in one call; where the movers allow,
/// Tegra gobs of narrow surfaces go 2 or 4 gob rows at a time ([`tegra_stack`]), and 4-row VM
/// gobs two gob rows at a time where the block layout stacks them: 512 contiguous tiled bytes
/// per column, as in the Tegra order (G80 2000x1000x4, block height 16 gobs, data in L3, 2 threads, paired
/// rounds against a split memcpy, scratch harness: tile 0.66-0.72x one gob row at a time,
/// 0.77-0.88x stacked; untile 0.65-0.81x and 0.73-0.87x).
#[inline(always)]
fn gobs<M: Mover>(p: &Plan, b: &BlockLinear, m: &mut M, z: u32, ys: Range<u32>, xs: [usize; 2], gh: u32) {
    let order = b.gob_order();
    let runs = order.run16_offsets(gh);
    let vm = order == GobOrder::Vm;
    // Whole gob columns: byte columns `whole[0]..whole[1]`.
    let whole = [xs[0].next_multiple_of(64), xs[1] & !63];
    // 4-row VM gobs in blocks one gob wide and at least two tall: gob rows `2j` and `2j + 1`
    // sit one after the other in their block, so a column of 8 rows is 512 contiguous bytes.
    let [bw_log2, bh_log2, _] = b.block_log2();
    let stack = vm && gh == 4 && bw_log2 == 0 && bh_log2 >= 1 && m.stack_vm_gobs();
    let stack_tegra = order == GobOrder::Tegra && gh == 8 && bw_log2 == 0 && m.stack_tegra_gobs();
    let mut gy = ys.start & !(gh - 1);
    while gy < ys.end {
        let ya = ys.start.max(gy);
        let yb = ys.end.min(gy + gh);
        let full_rows = ya == gy && yb == gy + gh;
        if full_rows && (vm || (order == GobOrder::Tegra && gh == 8)) && whole[0] < whole[1] {
            // Rows moved per column: two stacked VM gobs where both are whole, else one gob.
            let rows = if stack && gy.is_multiple_of(8) && gy + 8 <= ys.end {
                8
            } else if stack_tegra {
                8 * tegra_stack(gy, ys.end, bh_log2, p.row_pitch)
            } else {
                gh
            };
            let row = GobRow {
                base: b.gob_offset(0, gy, z) as usize,
                gx0: whole[0] / 64,
                n: (whole[1] - whole[0]) / 64,
                width_log2: bw_log2,
                block_log2: b.block_bytes_log2(),
                gob_log2: 6 + b.gob_height_log2(),
                l0: p.linear_offset(whole[0], gy, z),
                rp: p.row_pitch,
                gh: rows as usize,
                vm,
            };
            debug_assert_eq!(row.first(), b.gob_offset(whole[0] as u64, gy, z) as usize);
            debug_assert_eq!(row.first() + row.rel(row.n - 1), b.gob_offset(whole[1] as u64 - 64, gy, z) as usize);
            debug_assert!(
                b.gob_offset(whole[0] as u64, gy + rows - gh, z) as usize == row.first() + 64 * (rows - gh) as usize
            );
            if m.gob_row_vector(&row) {
                for g in (gy..gy + rows).step_by(gh as usize) {
                    if xs[0] < whole[0] {
                        one_gob(p, b, m, z, [g, g + gh], xs, xs[0] & !63, &runs);
                    }
                    if whole[1] < xs[1] {
                        one_gob(p, b, m, z, [g, g + gh], xs, whole[1], &runs);
                    }
                }
                gy += rows;
                continue;
            }
        }
        let mut gx = xs[0] & !63;
        while gx < xs[1] {
            // Eight gob columns ahead lies a tiled address the hardware prefetcher cannot guess
            // (a block apart): ask for it now. Eight measured better than four once gobs moved
            // as AVX-512 vectors with streamed output (ab.sh, tegra-2048x2048x4 untile, x
            // memcpy: 0.79-0.97 at four, 0.93-1.08 at eight; 1024x1024x16 and 4096 within the
            // noise); with SSE2 runs four had been best. (Whole gob rows now go through
            // `gob_row_vector`, which prefetches the same way; this loop serves the rest.)
            if gx + 512 < xs[1] && m.prefetch_tiled() {
                prefetch(m.tiled_ptr(b.gob_offset(gx as u64 + 512, gy, z) as usize));
            }
            one_gob(p, b, m, z, [ya, yb], xs, gx, &runs);
            gx += 64;
        }
        gy += gh;
    }
}

/// How many 8-row Tegra gobs [`gobs`] stacks in each column of the gob rows from row `gy` (a
/// multiple of 8) when the block is one gob wide: the largest of 4, 2 and 1 whose column
/// starts on a multiple of its height in gobs (so its gobs lie in one block, one after the
/// other: 512, 1024 or 2048 contiguous tiled bytes), fits in the block (2^`bh_log2` gobs
/// tall), ends inside the rows being moved (`y_end`), and spans at most 32 KiB of linear rows
/// of `rp` bytes (narrow surfaces such as 256x256xN of 4-byte elements: 1 KiB rows).
///
/// Measured on the development machine with `nvsurf-bench --quick --case tegra-256x256x64x4`,
/// nine interleaved runs of each build, x memcpy: streamed tile at one thread 0.75-0.85x one
/// gob per column, 0.92-1.23x stacked; at two threads 0.93-1.25x and 0.89-1.17x (level).
/// Streamed untile gained nothing (one thread 0.93-1.13x and 0.95-1.11x), so only tile
/// stacks ([`Mover::stack_tegra_gobs`]). On wide rows stacking loses: a stand-alone loop over
/// 2000x1000x4 (8000-byte rows), two threads, data in L3, paired rounds: 0.86-0.92x one gob
/// per column, 0.80-0.85x four stacked; hence the 32 KiB bound.
#[inline(always)]
fn tegra_stack(gy: u32, y_end: u32, bh_log2: u32, rp: usize) -> u32 {
    let gob_row = gy / 8;
    [4u32, 2]
        .into_iter()
        .find(|&s| {
            gob_row.is_multiple_of(s)
                && s <= 1 << bh_log2.min(5)
                && gy + 8 * s <= y_end
                && rp.saturating_mul(8 * s as usize) <= 32 << 10
        })
        .unwrap_or(1)
}

/// The part of gob column `gx` (byte column) in rows `ys` (inside one gob row) and byte
/// columns `xs` of slice `z`: a whole gob as 64-byte rows or 16-byte runs, a partial one row by
/// row. (Runs of whole gobs go through [`Mover::gob_row_vector`] first; this serves the edge
/// gobs and the gob rows a mover refuses, for which the vector kernels would refuse single gobs
/// too: same CPU, same alignment.)
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn one_gob<M: Mover>(
    p: &Plan,
    b: &BlockLinear,
    m: &mut M,
    z: u32,
    ys: [u32; 2],
    xs: [usize; 2],
    gx: usize,
    runs: &[u16; 32],
) {
    let order = b.gob_order();
    let gh = b.gob_height_rows();
    let gy = ys[0] & !(gh - 1);
    let [ya, yb] = ys;
    let xa = xs[0].max(gx);
    let xe = xs[1].min(gx + 64);
    let gob = b.gob_offset(gx as u64, gy, z) as usize;
    if ya == gy && yb == gy + gh && xa == gx && xe == gx + 64 {
        let l0 = p.linear_offset(gx, gy, z);
        match (order == GobOrder::Vm, gh) {
            (true, 8) => gob_vm::<8, M>(m, gob, l0, p.row_pitch),
            (true, _) => gob_vm::<4, M>(m, gob, l0, p.row_pitch),
            (false, _) => gob_runs(m, gob, l0, p.row_pitch, runs),
        }
    } else {
        for y in ya..yb {
            let r = (y - gy) as usize;
            let l = p.linear_offset(xa, y, z);
            if order == GobOrder::Vm {
                m.mv(gob + 64 * r + (xa - gx), l, xe - xa);
            } else {
                for c in 0..4usize {
                    let lo = (xa - gx).max(16 * c);
                    let hi = (xe - gx).min(16 * c + 16);
                    if lo < hi {
                        m.mv(gob + runs[r * 4 + c] as usize + lo - 16 * c, l + (gx + lo - xa), hi - lo);
                    }
                }
            }
        }
    }
}

/// Hints the cache to fetch the 512 bytes at `ptr` into L2 (no effect elsewhere than x86_64; a
/// prefetch never faults, whatever the address). The T1 hint (L2, not L1) measured clearly
/// faster than T0 on the development machine (2048x2048 Tegra and G80 cases, one thread: about
/// +0.1 to +0.2x memcpy). Presumably 8 L1 fills per gob competed with the linear rows' streams
/// for the core's L1 miss slots (no performance counters on that machine to confirm).
/// All 8 lines, not the gob's first one or two (session 13, `nvsurf-bench --json --case C`,
/// three interleaved runs each, paired ratios against memcpy, one thread): with 1 or 2 lines,
/// untile of g80-2048x2048x4 fell from 1.09-1.14x to 0.61-0.75x and tegra-4096x4096x4 from
/// 1.21-1.24x to 0.86-1.16x; the 4 MB L3-resident case that had suggested it (2000x512x4 in
/// the scratch harness, 2-3% ahead) did not move in the benchmark's tegra-2000x1000x4.
#[inline(always)]
fn prefetch(ptr: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetch instructions have no memory-safety preconditions.
    #[allow(unused_unsafe)]
    unsafe {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T1};
        for i in 0..8 {
            _mm_prefetch::<_MM_HINT_T1>(ptr.wrapping_add(64 * i) as *const i8);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = ptr;
}

/// A whole VM-order gob: `GH` rows of 64 contiguous bytes.
#[inline(always)]
fn gob_vm<const GH: usize, M: Mover>(m: &mut M, gob: usize, l0: usize, row_pitch: usize) {
    for r in 0..GH {
        m.mv_n::<64>(gob + 64 * r, l0 + r * row_pitch);
    }
}

/// A whole 8-row gob in a CPU-side order: 32 runs of 16 bytes.
#[inline(always)]
fn gob_runs<M: Mover>(m: &mut M, gob: usize, l0: usize, row_pitch: usize, runs: &[u16; 32]) {
    for r in 0..8 {
        let l = l0 + r * row_pitch;
        for c in 0..4 {
            m.mv_n::<16>(gob + runs[r * 4 + c] as usize, l + 16 * c);
        }
    }
}

/// Swizzled, cache-blocked: the surface is walked in chunks of 4096 consecutive elements (a
/// 64x64 square for 2D power-of-two surfaces), in index order, each chunk being the sub-box
/// whose high coordinate bits are fixed; inside a chunk, [`swizzled`] goes row band by row band.
/// Walking whole rows instead touches one tiled line per 4x4 tile all over the surface, and
/// measured 3-5x slower.
fn swizzled_chunked<M: Mover>(p: &Plan, s: &Swizzled, m: &mut M, zs: Range<u32>, ys: Range<u32>, xs: [u32; 2]) {
    let masks = s.masks();
    let total_bits = 64 - (masks[0] | masks[1] | masks[2]).leading_zeros();
    let low_bits = total_bits.min(12);
    let region = [xs[0]..xs[1], ys, zs];
    // Only the chunks that meet the region: from the chunk of its first element to that of its
    // last (chunks in between that miss it return `None`).
    let first = swizzle_index(masks, [region[0].start, region[1].start, region[2].start]) >> low_bits;
    let last = swizzle_index(masks, [region[0].end - 1, region[1].end - 1, region[2].end - 1]) >> low_bits;
    // Whole chunks of a surface whose low index bits are x0 y0 x1 y1 go in index order: the
    // tiled side is then read or written sequentially, and the linear side stays inside the
    // chunk's 64 rows. A table gives, for each of the chunk's 256 4x4 tiles, its linear offset
    // from the chunk's origin.
    let tiles4 = low_bits == 12 && masks[0] & 0b1111 == 0b0101 && masks[1] & 0b1111 == 0b1010;
    // Index bits 4 and 6 also step x: the four tiles of a `STRIP_ORDER` group are side by side.
    let x_tiles = masks[0] & 0b101_0101 == 0b101_0101;
    let es = s.elem_size() as usize;
    // Entries are used only for whole chunks inside the region, whose linear offsets the plan
    // proved in bounds; the others may be meaningless (wrapping) and are never read.
    // The offset is linear in the index bits (wrapping), so each entry is a smaller entry plus
    // the share of one bit: 256 additions (this runs once per parallel task too).
    let strides = [es, p.row_pitch, p.slice_pitch];
    let share: [usize; 8] = core::array::from_fn(|b| {
        let bit = 1u64 << (4 + b);
        (0..3)
            .find(|&d| masks[d] & bit != 0)
            .map_or(0, |d| (1usize << (masks[d] & (bit - 1)).count_ones()).wrapping_mul(strides[d]))
    });
    let mut table = [0usize; 256];
    for k in 1..256 {
        table[k] = table[k & (k - 1)].wrapping_add(share[k.trailing_zeros() as usize]);
    }
    let full = |r: &Range<u32>, d: usize| (r.end - r.start) == 1 << (masks[d] & 0xfff).count_ones();
    // The chunk's index bits are exactly x0 y0 x1 y1 .. x5 y5 (the 1- and 2-byte kernels'
    // layout; any 2D surface at least 64x64 in power-of-two sizes).
    let morton = low_bits == 12 && masks[0] & 0xfff == 0x555 && masks[1] & 0xfff == 0xaaa;
    let runs = tiles4 && x_tiles && morton && es == 4 && m.wants_chunk_runs();
    if morton && es == 1 && m.wants_small_chunks::<1>() {
        chunk_groups::<1, M>(p, s, m, &region, &table);
        return;
    }
    if morton && es == 2 && m.wants_small_chunks::<2>() {
        chunk_groups::<2, M>(p, s, m, &region, &table);
        return;
    }
    if morton && es == 8 && m.wants_small_chunks::<8>() {
        chunk_groups::<8, M>(p, s, m, &region, &table);
        return;
    }
    if runs {
        // The chunk's low 12 index bits are x0 y0 .. x5 y5, so sorting the groups by linear
        // offset is sorting them by (y, x): `BAND_GROUPS` (checked in `chunk_runs` where a
        // whole run is reached).
        chunk_runs(p, s, m, &region, &table, &BAND_GROUPS);
        return;
    }
    for i in first..=last {
        if let Some(c) = swizzle_chunk(masks, low_bits, i, region.clone()) {
            let [cx, cy, cz] = c;
            if tiles4 && full(&cx, 0) && full(&cy, 1) && full(&cz, 2) {
                let l0 = p.linear_offset(cx.start as usize * es, cy.start, cz.start);
                let t0 = (i as usize) << 12;
                match es {
                    1 => chunk_tiles4::<1, 2, M>(m, t0, l0, p.row_pitch, &table),
                    2 => chunk_tiles4::<2, 4, M>(m, t0, l0, p.row_pitch, &table),
                    4 if x_tiles && m.chunk_es4_vector(t0 * 4, l0, p.row_pitch, &table) => {}
                    4 => chunk_tiles4::<4, 8, M>(m, t0, l0, p.row_pitch, &table),
                    8 => chunk_tiles4::<8, 16, M>(m, t0, l0, p.row_pitch, &table),
                    _ => chunk_tiles4::<16, 32, M>(m, t0, l0, p.row_pitch, &table),
                }
            } else {
                swizzled(p, s, m, cz, cy, [cx.start, cx.end]);
            }
        }
    }
}

/// The most whole chunks of 4-byte elements that [`chunk_runs`] hands the vector kernels at once:
/// 16, 4096 bytes of each linear row (a page of a page-aligned image 1024 elements wide). Bands
/// of 4 rows that cross the whole run write (untile) or read (tile) each linear row left to
/// right: in the session 18 C model (1024x1024x4 untile, medians of 401 shuffled rounds against
/// memcpy), runs of 16 chunks gave 0.95-0.99x, of 8 chunks 0.87-0.93x, of 4 0.91-0.95x, and the
/// earlier pairs 0.87-0.94x.
const RUN_CHUNKS: usize = 16;

/// Every chunk of a 2D swizzled surface of 4-byte elements whose chunks' index bits are x0 y0 ..
/// x5 y5 (AVX-512 or AVX2, tile and untile) that meets `region`, chunk row by chunk row: runs
/// of up to [`RUN_CHUNKS`] whole chunks side by side through [`Mover::chunk_run_es4_vector`]
/// (one by one where it declines), partial chunks through [`swizzled`]. Chunks are found by
/// their coordinates: nothing is spent on chunks outside the region.
///
/// Tried and not kept (session 13, scratch harness, swizzled-1024x1024x4, one and two
/// threads, medians of 2000 paired rounds against memcpy): prefetching the next pair's 32 KiB
/// (T1, every line or every other line, spread over the current pair's 16 bands). The ratios
/// moved by less than the run-to-run noise (0.63-0.80 one thread, 0.66-0.94 two, either way)
/// and tile came out lower in most runs. Session 18 (C model, 48 MiB-L3 VM): prefetching the
/// linear rows 8 ahead in a 16-chunk tile walk, 0.88-0.95x against 0.93-0.97x without.
fn chunk_runs<M: Mover>(
    p: &Plan,
    s: &Swizzled,
    m: &mut M,
    region: &[Range<u32>; 3],
    table: &[usize; 256],
    rows: &[u8; 64],
) {
    let masks = s.masks();
    let rp = p.row_pitch;
    let clip = |c: u32, d: usize| (c * 64).max(region[d].start)..(c * 64 + 64).min(region[d].end);
    let is_whole = |r: &Range<u32>| r.end - r.start == 64;
    let (cx_last, cy_last) = ((region[0].end - 1) / 64, (region[1].end - 1) / 64);
    // A chunk's byte offset is its column's index bits OR its row's and slice's (the latter once
    // per chunk row), over the chunk's 4096 elements of 4 bytes.
    let chunk_at = |cx: u32, row_bits: u64| (((deposit(u64::from(cx) * 64, masks[0]) | row_bits) >> 12) as usize) << 14;
    for z in region[2].clone() {
        for cy in region[1].start / 64..=cy_last {
            let row_bits = deposit(u64::from(cy) * 64, masks[1]) | deposit(z.into(), masks[2]);
            let ys = clip(cy, 1);
            let mut cx = region[0].start / 64;
            while cx <= cx_last {
                if !(is_whole(&ys) && is_whole(&clip(cx, 0))) {
                    let xs = clip(cx, 0);
                    swizzled(p, s, m, z..z + 1, ys.clone(), [xs.start, xs.end]);
                    cx += 1;
                    continue;
                }
                let mut offs = [0usize; RUN_CHUNKS];
                let mut n = 0;
                while n < RUN_CHUNKS && cx + (n as u32) <= cx_last && is_whole(&clip(cx + n as u32, 0)) {
                    offs[n] = chunk_at(cx + n as u32, row_bits);
                    n += 1;
                }
                let l0 = p.linear_offset(cx as usize * 256, cy * 64, z);
                // A whole chunk is 64 elements wide, so the row pitch (at least the row) is at
                // least 256 bytes and the table's offsets sort as (y, x).
                debug_assert!(BAND_GROUPS.windows(2).all(|w| table[usize::from(w[0])] < table[usize::from(w[1])]));
                if !m.chunk_run_es4_vector(&offs[..n], l0, rp, table, rows) {
                    for (c, &t) in offs[..n].iter().enumerate() {
                        if !m.chunk_es4_vector(t, l0 + 256 * c, rp, table) {
                            chunk_tiles4::<4, 8, M>(m, t / 4, l0 + 256 * c, rp, table);
                        }
                    }
                }
                cx += n as u32;
            }
        }
    }
}

/// Every chunk of a 2D swizzled surface of `ES`-byte elements (1, 2 or 8) whose chunks' index
/// bits are x0 y0 .. x5 y5 that meets `region`, chunk row by chunk row: runs of up to
/// `512 / (64 * ES)` whole chunks side by side (512 linear bytes per row) through
/// [`Mover::chunks_small_vector`], partial chunks through [`swizzled`]. Chunks are found by
/// their coordinates, as in [`chunk_runs`]. Not widened to 4096 linear bytes as the 4-byte runs
/// were (session 18, `nvsurf-bench --quick`, three interleaved runs each, the `x mcpy`
/// column): 2048x1024x2 fell
/// from 0.80-0.90x memcpy to 0.72-0.85x, and 2048x2048x1 did not move.
fn chunk_groups<const ES: usize, M: Mover>(
    p: &Plan,
    s: &Swizzled,
    m: &mut M,
    region: &[Range<u32>; 3],
    table: &[usize; 256],
) {
    let masks = s.masks();
    let rp = p.row_pitch;
    let most = 512 / (64 * ES);
    let clip = |c: u32, d: usize| (c * 64).max(region[d].start)..(c * 64 + 64).min(region[d].end);
    let is_whole = |r: &Range<u32>| r.end - r.start == 64;
    let (cx_last, cy_last) = ((region[0].end - 1) / 64, (region[1].end - 1) / 64);
    // A chunk's index is its column's bits OR its row's and slice's: the latter once per chunk
    // row, not once per chunk.
    let chunk_at =
        |cx: u32, row_bits: u64| (((deposit(u64::from(cx) * 64, masks[0]) | row_bits) >> 12) as usize) * 4096 * ES;
    for z in region[2].clone() {
        for cy in region[1].start / 64..=cy_last {
            let row_bits = deposit(u64::from(cy) * 64, masks[1]) | deposit(z.into(), masks[2]);
            let ys = clip(cy, 1);
            let mut cx = region[0].start / 64;
            while cx <= cx_last {
                if !(is_whole(&ys) && is_whole(&clip(cx, 0))) {
                    let xs = clip(cx, 0);
                    swizzled(p, s, m, z..z + 1, ys.clone(), [xs.start, xs.end]);
                    cx += 1;
                    continue;
                }
                let mut offs = [0usize; 8];
                let mut n = 0;
                while n < most && cx + (n as u32) <= cx_last && is_whole(&clip(cx + n as u32, 0)) {
                    offs[n] = chunk_at(cx + n as u32, row_bits);
                    n += 1;
                }
                let l0 = p.linear_offset(cx as usize * 64 * ES, cy * 64, z);
                if !m.chunks_small_vector::<ES>(&offs[..n], l0, rp) {
                    for (c, &t) in offs[..n].iter().enumerate() {
                        match ES {
                            1 => chunk_tiles4::<1, 2, M>(m, t, l0 + 64 * c, rp, table),
                            2 => chunk_tiles4::<2, 4, M>(m, t / 2, l0 + 128 * c, rp, table),
                            _ => chunk_tiles4::<8, 16, M>(m, t / 8, l0 + 512 * c, rp, table),
                        }
                    }
                }
                cx += n as u32;
            }
        }
    }
}

/// One whole 4096-element chunk in index order: 256 tiles of 4x4 elements (16 consecutive
/// elements each; see [`swizzled_tiles4`] for the order inside a tile). `t0` is the chunk's
/// first element index, `l0` its origin's linear offset.
#[inline(always)]
fn chunk_tiles4<const ES: usize, const P: usize, M: Mover>(
    m: &mut M,
    t0: usize,
    l0: usize,
    rp: usize,
    table: &[usize; 256],
) {
    for &k in &STRIP_ORDER {
        let k = usize::from(k);
        let t = (t0 + (k << 4)) * ES;
        let l = l0 + table[k];
        m.tile4x4::<ES, P>(t, l, rp);
    }
}

/// The order [`chunk_tiles4`] visits a chunk's 256 tiles in: groups of tiles `k, k + 1, k + 4,
/// k + 5` (`k & 0b101 == 0`), in a Morton-ordered 2D chunk the four tiles side by side along x
/// that share 4 rows, so that each linear cache line of 16 elements is written (or read) by
/// consecutive copies. With a row pitch that is a multiple of 4096 bytes, all rows' lines at
/// the same column fall into the same L1 set, and lines left half-done while other rows are
/// written get evicted. Any order is correct (every tile is copied once).
const STRIP_ORDER: [u8; 256] = {
    let mut out = [0u8; 256];
    let (mut i, mut k) = (0, 0);
    while k < 256 {
        if k & 0b101 == 0 {
            let d = [0, 1, 4, 5];
            let mut j = 0;
            while j < 4 {
                out[i] = (k + d[j]) as u8;
                i += 1;
                j += 1;
            }
        }
        k += 1;
    }
    out
};

/// The first tiles of the 64 [`STRIP_ORDER`] groups of a 64x64 chunk whose index bits are
/// x0 y0 x1 y1 .. x5 y5, in linear order (row band by row band, then along x): tile `k`'s
/// tile coordinates are its even bits (x) and odd bits (y). Computed once at compile time;
/// sorting them per call measurably cost small surfaces and every parallel task.
const BAND_GROUPS: [u8; 64] = {
    let mut out = [0u8; 64];
    let mut i = 0;
    let mut ty = 0;
    while ty < 16 {
        let mut tx = 0;
        while tx < 16 {
            let mut k = 0;
            let mut b = 0;
            while b < 4 {
                k |= ((tx >> b) & 1) << (2 * b) | ((ty >> b) & 1) << (2 * b + 1);
                b += 1;
            }
            out[i] = k as u8;
            i += 1;
            tx += 4;
        }
        ty += 1;
    }
    out
};

/// The element index of (x, y, z).
#[inline]
fn swizzle_index(masks: [u64; 3], c: [u32; 3]) -> u64 {
    deposit(c[0].into(), masks[0]) | deposit(c[1].into(), masks[1]) | deposit(c[2].into(), masks[2])
}

/// Swizzled: per row, the element index is stepped with a masked add; runs of elements that are
/// contiguous in both images (the low index bits that belong to x) move in one copy, with a
/// fixed-size copy for the common run lengths. `xs` limits the columns (the parallel path's
/// sub-cube tasks pass their own).
fn swizzled<M: Mover>(p: &Plan, s: &Swizzled, m: &mut M, zs: Range<u32>, ys: Range<u32>, xs: [u32; 2]) {
    // 2D patterns whose low index bits are x0 y0 x1 y1: 4x4 tiles are contiguous; copy the
    // aligned interior tile by tile and the borders with the run loop.
    let [mx, my, _] = s.masks();
    let xa = xs[0].next_multiple_of(4);
    let xb = xs[1] & !3;
    let ya = ys.start.next_multiple_of(4);
    let yb = ys.end & !3;
    if mx & 0b1111 == 0b0101 && my & 0b1111 == 0b1010 && xa < xb && ya < yb {
        let tiles = |m: &mut M, zs: Range<u32>| match s.elem_size() {
            1 => swizzled_tiles4::<1, 2, M>(p, s, m, zs, ya..yb, [xa, xb]),
            2 => swizzled_tiles4::<2, 4, M>(p, s, m, zs, ya..yb, [xa, xb]),
            4 => swizzled_tiles4::<4, 8, M>(p, s, m, zs, ya..yb, [xa, xb]),
            8 => swizzled_tiles4::<8, 16, M>(p, s, m, zs, ya..yb, [xa, xb]),
            _ => swizzled_tiles4::<16, 32, M>(p, s, m, zs, ya..yb, [xa, xb]),
        };
        tiles(m, zs.clone());
        // Borders: rows above and below the interior (full width), then the left and right strips.
        swizzled_runs(p, s, m, zs.clone(), ys.start..ya, xs);
        swizzled_runs(p, s, m, zs.clone(), yb..ys.end, xs);
        swizzled_runs(p, s, m, zs.clone(), ya..yb, [xs[0], xa]);
        swizzled_runs(p, s, m, zs, ya..yb, [xb, xs[1]]);
    } else {
        swizzled_runs(p, s, m, zs, ys, xs);
    }
}

/// 4x4-element tiles of a swizzled surface whose low index bits are x0 y0 x1 y1: each tile is
/// 16 contiguous elements; row `r` of the tile holds elements `2*y0 + 8*y1 + {0, 1, 4, 5}`, i.e.
/// two pairs of `2 * ES = P` bytes. `ys`/`xs` are multiples of 4.
#[inline(always)]
fn swizzled_tiles4<const ES: usize, const P: usize, M: Mover>(
    p: &Plan,
    s: &Swizzled,
    m: &mut M,
    zs: Range<u32>,
    ys: Range<u32>,
    xs: [u32; 2],
) {
    let [mx, my, mz] = s.masks();
    let step = deposit(4, mx);
    let not_mx = !mx;
    for z in zs {
        let zb = deposit(z.into(), mz);
        for y in ys.clone().step_by(4) {
            let yzb = zb | deposit(y.into(), my);
            let mut xi = deposit(xs[0].into(), mx);
            let mut l = p.linear_offset(xs[0] as usize * ES, y, z);
            let rp = p.row_pitch;
            for _ in (xs[0]..xs[1]).step_by(4) {
                let t = (yzb | xi) as usize * ES;
                m.tile4x4::<ES, P>(t, l, rp);
                xi = (xi | not_mx).wrapping_add(step) & mx;
                l += 4 * ES;
            }
        }
    }
}

/// The general swizzled path: runs of contiguous x elements per row.
fn swizzled_runs<M: Mover>(p: &Plan, s: &Swizzled, m: &mut M, zs: Range<u32>, ys: Range<u32>, xs: [u32; 2]) {
    if ys.start >= ys.end || xs[0] >= xs[1] {
        return;
    }
    let run_bytes = (1usize << s.masks()[0].trailing_ones().min(31)) * s.elem_size() as usize;
    match run_bytes {
        2 => swizzled_rows::<2, M>(p, s, m, zs, ys, xs),
        4 => swizzled_rows::<4, M>(p, s, m, zs, ys, xs),
        8 => swizzled_rows::<8, M>(p, s, m, zs, ys, xs),
        16 => swizzled_rows::<16, M>(p, s, m, zs, ys, xs),
        32 => swizzled_rows::<32, M>(p, s, m, zs, ys, xs),
        64 => swizzled_rows::<64, M>(p, s, m, zs, ys, xs),
        _ => swizzled_rows::<0, M>(p, s, m, zs, ys, xs),
    }
}

/// The rows of [`swizzled`]; `RB` is the run length in bytes when it is a fixed-size copy (0 =
/// any length).
#[inline(always)]
fn swizzled_rows<const RB: usize, M: Mover>(
    p: &Plan,
    s: &Swizzled,
    m: &mut M,
    zs: Range<u32>,
    ys: Range<u32>,
    xs: [u32; 2],
) {
    let [mx, my, mz] = s.masks();
    let es = s.elem_size() as usize;
    let run = 1u32 << mx.trailing_ones().min(31);
    let not_mx = !mx;
    for z in zs {
        let zb = deposit(z.into(), mz);
        for y in ys.clone() {
            let yzb = zb | deposit(y.into(), my);
            let mut x = xs[0];
            let mut xi = deposit(x.into(), mx);
            let mut l = p.linear_offset(x as usize * es, y, z);
            // Head: up to the first run boundary.
            if x & (run - 1) != 0 {
                let chunk = (run - (x & (run - 1))).min(xs[1] - x);
                m.mv((yzb | xi) as usize * es, l, chunk as usize * es);
                xi = (xi | not_mx).wrapping_add(chunk.into()) & mx;
                x += chunk;
                l += chunk as usize * es;
            }
            // Body: whole runs.
            let run_bytes = run as usize * es;
            while x + run <= xs[1] {
                if RB != 0 {
                    m.mv_n::<RB>((yzb | xi) as usize * es, l);
                } else {
                    m.mv((yzb | xi) as usize * es, l, run_bytes);
                }
                xi = (xi | not_mx).wrapping_add(run.into()) & mx;
                x += run;
                l += run_bytes;
            }
            // Tail.
            if x < xs[1] {
                m.mv((yzb | xi) as usize * es, l, (xs[1] - x) as usize * es);
            }
        }
    }
}

/// Single-thread untile of a whole plan.
pub(crate) fn untile_planned<K: Kind>(p: &Plan, tiled: &[u8], linear: &mut [u8]) {
    let r = p.region;
    let mut m = K::untile(&tiled[..p.tiled_span], &mut linear[..p.linear_span], 0);
    run(p, &mut m, r.z..r.z + r.d, r.y..r.y + r.h);
    raw::store_fence();
}

/// Single-thread tile of a whole plan.
pub(crate) fn tile_planned<K: Kind>(p: &Plan, linear: &[u8], tiled: &mut [u8]) {
    let r = p.region;
    let mut m = K::tile(&linear[..p.linear_span], &mut tiled[..p.tiled_span], 0);
    run(p, &mut m, r.z..r.z + r.d, r.y..r.y + r.h);
    raw::store_fence();
}

/// Parallel tasks per thread of the pool. Measured on the development machine (2 threads,
/// swizzled-1024x1024x4, paired rounds against a split memcpy): 64 tasks 0.53-0.62x for tile,
/// 2 or 4 tasks 0.76-0.83x; untile bands of 256 KiB 0.72x, of 1-2 MiB 0.76-0.78x. Fewer,
/// larger tasks keep each thread's walk long (and each task's set-up rare); two per thread
/// leave the pool something to balance with.
#[cfg(feature = "rayon")]
const TASKS_PER_THREAD: usize = 2;

/// Rows per parallel untile task (and pitch tile band): whole gob rows (or swizzle chunk
/// rows), about [`TASKS_PER_THREAD`] tasks per thread, each at least 256 KiB of linear output
/// where the region (or, for untile, a slice of it) is that large.
#[cfg(feature = "rayon")]
fn band_rows(p: &Plan) -> u32 {
    let align = match &p.surface {
        Surface::BlockLinear(b) => b.gob_height_rows(),
        // Whole rows of 4096-element chunks (64 rows of a square 2D surface): a band that cut
        // chunks would leave every chunk partial, and partial chunks take the per-row path.
        Surface::Swizzled(s) => {
            let masks = s.masks();
            let total_bits = 64 - (masks[0] | masks[1] | masks[2]).leading_zeros();
            1 << (masks[1] & ((1 << total_bits.min(12)) - 1)).count_ones()
        }
        Surface::Pitch(_) => 1,
    };
    let row = (p.xb[1] - p.xb[0]).max(1);
    let tasks = rayon::current_num_threads().saturating_mul(TASKS_PER_THREAD).max(1);
    let total = row.saturating_mul(p.region.h as usize).saturating_mul(p.region.d as usize);
    let target = (total / tasks).max(256 * 1024);
    let rows = u32::try_from(target / row).unwrap_or(u32::MAX).clamp(1, p.region.h.max(1));
    rows.div_ceil(align).saturating_mul(align)
}

/// Cuts `buf` into the disjoint, ascending byte ranges `ranges`; `None` when two ranges
/// overlap, are out of order, or one ends past `buf` (never a panic). The parallel paths'
/// tasks (and a texture's subresources) each get their own `&mut` part this way.
#[cfg(feature = "rayon")]
pub(crate) fn cut<'a>(mut buf: &'a mut [u8], ranges: &[Range<usize>]) -> Option<alloc::vec::Vec<&'a mut [u8]>> {
    let mut out = alloc::vec::Vec::with_capacity(ranges.len());
    let mut cursor = 0usize;
    for r in ranges {
        let skip = r.start.checked_sub(cursor)?;
        let len = r.end.checked_sub(r.start)?;
        let (_, rest) = core::mem::take(&mut buf).split_at_mut_checked(skip)?;
        let (mine, rest) = rest.split_at_mut_checked(len)?;
        out.push(mine);
        buf = rest;
        cursor = r.end;
    }
    Some(out)
}

/// Which tasks of a parallel job write with ordinary (cached) stores, the others streaming:
/// `share` = (numerator, denominator) of the bytes to keep cached, spread evenly over the
/// tasks in order (a task is cached while the cached bytes up to its middle stay within the
/// share of the bytes up to its end). `(1, 1)` caches every task, `(0, 1)` none; a zero
/// denominator counts as `(1, 1)`.
#[cfg(feature = "rayon")]
pub(crate) fn cached_tasks(ranges: &[Range<usize>], share: (u64, u64)) -> alloc::vec::Vec<bool> {
    let (num, den) = if share.1 == 0 { (1, 1) } else { (share.0.min(share.1), share.1) };
    let (mut end, mut cached) = (0u128, 0u128);
    ranges
        .iter()
        .map(|r| {
            let len = r.len() as u128;
            end += len;
            let want = end * u128::from(num) / u128::from(den);
            let keep = cached + len - len / 2 <= want;
            if keep {
                cached += len;
            }
            keep
        })
        .collect()
}

/// One parallel untile task with the mover kind `K`.
#[cfg(feature = "rayon")]
fn untile_task<K: Kind>(p: &Plan, tiled: &[u8], lin: &mut [u8], base: usize, zs: Range<u32>, ys: Range<u32>) {
    let mut m = K::untile(tiled, lin, base);
    run(p, &mut m, zs, ys);
    raw::store_fence();
}

/// The narrowest column part, in linear bytes of each row, that [`untile_columns_par`] gives a
/// thread. In the session 18 C model (two threads, 16384-byte rows), parts of 8192 bytes gave
/// 0.95-1.02x a split memcpy, 4096-byte parts (two per thread, alternating) 0.94-0.99x, 2048
/// 0.93-0.97x, 1024 0.87-0.91x, against 0.87-0.93x for bands of rows.
#[cfg(feature = "rayon")]
pub(crate) const COLUMN_PART_MIN_BYTES: usize = 4096;

/// A streamed blocklinear untile split over the pool's threads by byte columns: each thread
/// walks every gob row of the region (every slice), over its own part of the columns, a whole
/// number of gob columns wide and at least [`COLUMN_PART_MIN_BYTES`]; so the threads read the
/// same block rows and write the same linear rows at once, where bands of rows (what
/// [`untile_planned_par`] does) put them far apart. Returns false, having done nothing, for
/// other surfaces, a pool of one thread, or rows too narrow for a part per thread.
///
/// Measured (session 18, the 48 MiB-L3 VM, two threads): in a C model of the gob-row walk
/// (64 MiB, 16384-byte rows, medians of 31-41 shuffled rounds), column halves gave 0.95-1.02x a
/// split memcpy against 0.87-0.93x for row halves, and row halves started a quarter to a half
/// of the way in (so that the threads are not a power of two apart) 0.90-0.93x. In
/// `nvsurf-bench`, interleaved runs with and without it (the `x mcpy` column, median over
/// median): tegra-4096x4096x4 untile at two
/// threads 0.91-0.97x against 0.85-0.94x (seven `--quick` and `--case` pairs, and two full runs
/// 0.96 and 0.93 against 0.91 and 0.89); tegra-8192x128x4 (our extra case) 0.87-0.89x against
/// 0.72-0.78x. Not taken: parts down to 2048 or 1024 bytes, so that tegra-2000x1000x4's
/// 8000-byte rows split too (untile at two threads, `--quick`: 0.94-1.12x and 0.96-1.10x
/// against 0.89-1.00x, within the noise), nor the split for jobs cached whole (1.00, 0.97 and
/// 1.03x in three runs), which keep bands of rows.
///
/// Soundness: the tasks share the linear buffer as a raw pointer taken from the caller's
/// `&mut` slice, which is not otherwise used until they finish. Task `i` writes only linear
/// bytes of its byte columns `cuts[i]..cuts[i + 1]` of each row: [`gobs`] moves exactly the
/// region's bytes of the columns it is given (its whole gobs and partial edge gobs alike; the
/// shifting kernels store whole lines only inside the run they are handed, and the partial
/// lines at its ends with ordinary stores of the run's own bytes). The parts are disjoint, so
/// no byte is written by two tasks and none is read; the bounds are the plan's, as for every
/// raw mover. The tests compare the bytes with the checked single-thread twin's.
#[cfg(feature = "rayon")]
pub(crate) fn untile_columns_par(p: &Plan, tiled: &[u8], linear: &mut [u8]) -> bool {
    use alloc::vec::Vec;
    use core::marker::PhantomData;
    use rayon::prelude::*;
    let Surface::BlockLinear(b) = &p.surface else { return false };
    let threads = rayon::current_num_threads();
    let row_bytes = p.xb[1] - p.xb[0];
    if threads < 2 || row_bytes / threads < COLUMN_PART_MIN_BYTES {
        return false;
    }
    // Cuts at gob columns (multiples of 64 surface bytes), the first and last at the region's
    // edges: parts of at least 4096 bytes less a gob, so every part is non-empty (and
    // `part * i` is at most `row_bytes`: no overflow).
    let part = row_bytes / threads;
    let cuts: Vec<usize> = (0..=threads)
        .map(|i| match i {
            0 => p.xb[0],
            i if i == threads => p.xb[1],
            i => (p.xb[0] + part * i) & !63,
        })
        .collect();
    /// The linear buffer, shared by the column tasks (see the soundness note above).
    struct Shared<'a>(*mut u8, usize, PhantomData<&'a mut [u8]>);
    // SAFETY: the tasks write disjoint bytes through the pointer and read none (see above);
    // the buffer outlives them (`for_each` returns after every task).
    unsafe impl Send for Shared<'_> {}
    // SAFETY: as for `Send`.
    unsafe impl Sync for Shared<'_> {}
    let linear = &mut linear[..p.linear_span];
    let out = Shared(linear.as_mut_ptr(), linear.len(), PhantomData);
    let (out, tiled) = (&out, &tiled[..p.tiled_span]);
    let r = p.region;
    cuts.par_windows(2).for_each(|xs| {
        // SAFETY: `out` is the caller's linear buffer, unused elsewhere until `for_each`
        // returns; this task writes only the bytes of columns `xs` (see above).
        let mut m = unsafe { raw::Untile::<true>::from_raw_parts(tiled, out.0, out.1) };
        for z in r.z..r.z + r.d {
            gobs(p, b, &mut m, z, r.y..r.y + r.h, [xs[0], xs[1]], b.gob_height_rows());
        }
        raw::store_fence();
    });
    true
}

/// Parallel untile: tasks are (slice, band of rows) with disjoint linear sub-slices. Tasks
/// picked by [`cached_tasks`] for `cached_share` use the mover kind `KC`, the others `KS`
/// (the streaming one, where the job streams).
#[cfg(feature = "rayon")]
pub(crate) fn untile_planned_par<KC: Kind, KS: Kind>(
    p: &Plan,
    tiled: &[u8],
    linear: &mut [u8],
    cached_share: (u64, u64),
) {
    use alloc::vec::Vec;
    use rayon::prelude::*;
    let r = p.region;
    let band = band_rows(p);
    let tiled = &tiled[..p.tiled_span];
    let row_bytes = p.xb[1] - p.xb[0];
    // (slices, rows) of each task, and the linear bytes it owns.
    let mut tasks: Vec<(Range<u32>, Range<u32>)> = Vec::new();
    let mut ranges: Vec<Range<usize>> = Vec::new();
    for z in r.z..r.z + r.d {
        // Bands start at multiples of `band` (aligned to gobs) in surface coordinates.
        let mut y = r.y;
        while y < r.y + r.h {
            let next = (y / band + 1).saturating_mul(band).min(r.y + r.h);
            let start = p.linear_offset(p.xb[0], y, z);
            ranges.push(start..p.linear_offset(p.xb[0], next - 1, z) + row_bytes);
            tasks.push((z..z + 1, y..next));
            y = next;
        }
    }
    let cached = cached_tasks(&ranges, cached_share);
    let parts = cut(&mut linear[..p.linear_span], &ranges).expect("bands are ascending and inside the linear span");
    tasks.into_par_iter().zip(ranges).zip(parts).zip(cached).for_each(|((((zs, ys), range), lin), c)| {
        if c {
            untile_task::<KC>(p, tiled, lin, range.start, zs, ys);
        } else {
            untile_task::<KS>(p, tiled, lin, range.start, zs, ys);
        }
    });
}

/// One parallel blocklinear tile task (a block row, or part of one) with the mover kind `K`.
#[cfg(feature = "rayon")]
#[allow(clippy::too_many_arguments)]
fn tile_block_task<K: Kind>(
    p: &Plan,
    b: &BlockLinear,
    linear: &[u8],
    chunk: &mut [u8],
    base: usize,
    zs: Range<u32>,
    ys: Range<u32>,
    xs: [usize; 2],
) {
    let mut m = K::tile(linear, chunk, base);
    for z in zs {
        gobs(p, b, &mut m, z, ys.clone(), xs, b.gob_height_rows());
    }
    raw::store_fence();
}

/// Parallel tile: tasks own disjoint ranges of the tiled buffer (blocklinear block rows, or
/// parts of whole block columns of them, pitch row bands, swizzle sub-cubes selected by the top
/// index bits). Blocklinear tasks picked by [`cached_tasks`] for `cached_share` use the mover
/// kind `KC`, the others `KS` (only blocklinear output streams); pitch and swizzled tasks all
/// use `KC`.
#[cfg(feature = "rayon")]
pub(crate) fn tile_planned_par<KC: Kind, KS: Kind>(
    p: &Plan,
    linear: &[u8],
    tiled: &mut [u8],
    cached_share: (u64, u64),
) {
    use alloc::vec::Vec;
    use rayon::prelude::*;
    let r = p.region;
    let linear = &linear[..p.linear_span];
    let tiled = &mut tiled[..p.tiled_span];
    let (ry, rz) = (r.y..r.y + r.h, r.z..r.z + r.d);
    let clip = |a: Range<u32>, b: &Range<u32>| a.start.max(b.start)..a.end.min(b.end);
    match &p.surface {
        Surface::BlockLinear(b) => {
            let [bx, by, _] = b.blocks();
            let [block_w, rows, slices] = b.block_extent_bytes_rows_slices();
            let block_bytes = b.block_bytes() as usize;
            let row_bytes = bx as usize * block_bytes;
            // Block rows (of every slab) meeting the region, with their rows and slices.
            let meeting: Vec<(usize, Range<u32>, Range<u32>)> = (0..tiled.len() / row_bytes)
                .filter_map(|i| {
                    let (bzi, byi) = ((i / by as usize) as u32, (i % by as usize) as u32);
                    let ys = clip(byi * rows as u32..(byi + 1) * rows as u32, &ry);
                    let zs = clip(bzi * slices as u32..(bzi + 1) * slices as u32, &rz);
                    (ys.start < ys.end && zs.start < zs.end).then_some((i, zs, ys))
                })
                .collect();
            // Too few block rows for the pool (a wide, short surface: 8192x128 of 4-byte
            // elements is one block row of 16-gob blocks) are cut into parts of whole block
            // columns, whose tiled bytes are contiguous too. Measured on the development
            // machine (Tegra order, 4-byte elements, two threads, data in L3, paired rounds
            // against a split memcpy, scratch harness): 4096x384 (three block rows) 0.53x and
            // 8192x128 0.38x before the cut.
            let (c0, c1) = (p.xb[0] / block_w as usize, p.xb[1].div_ceil(block_w as usize));
            let want = rayon::current_num_threads().saturating_mul(TASKS_PER_THREAD).max(1);
            let parts = want.div_ceil(meeting.len().max(1)).clamp(1, (c1 - c0).max(1));
            // (slices, rows, byte columns) of each task, and the tiled bytes it owns.
            let mut tasks: Vec<(Range<u32>, Range<u32>, [usize; 2])> = Vec::with_capacity(meeting.len() * parts);
            let mut ranges: Vec<Range<usize>> = Vec::with_capacity(meeting.len() * parts);
            // Part `k`'s first block column (in u64: no overflow on 32-bit targets).
            let column = |k: usize| c0 + ((c1 - c0) as u64 * k as u64 / parts as u64) as usize;
            for (i, zs, ys) in meeting {
                for k in 0..parts {
                    let (a, e) = (column(k), column(k + 1));
                    ranges.push(i * row_bytes + a * block_bytes..i * row_bytes + e * block_bytes);
                    let xs = [p.xb[0].max(a * block_w as usize), p.xb[1].min(e * block_w as usize)];
                    tasks.push((zs.clone(), ys.clone(), xs));
                }
            }
            let cached = cached_tasks(&ranges, cached_share);
            let chunks = cut(tiled, &ranges).expect("block row parts are ascending and inside the surface");
            tasks.into_par_iter().zip(ranges).zip(chunks).zip(cached).for_each(
                |((((zs, ys, xs), range), chunk), c)| {
                    if c {
                        tile_block_task::<KC>(p, b, linear, chunk, range.start, zs, ys, xs);
                    } else {
                        tile_block_task::<KS>(p, b, linear, chunk, range.start, zs, ys, xs);
                    }
                },
            );
        }
        Surface::Pitch(s) => {
            // Bands of the region's rows only: the tiled bytes from its first row on, cut every
            // `band` rows (a short region in a tall surface makes few tasks, not one per band
            // of the whole surface).
            let pitch = s.pitch_bytes() as usize;
            let band = band_rows(p) as usize;
            let first = r.y as usize * pitch;
            let tasks: Vec<(usize, &mut [u8])> =
                tiled[first..].chunks_mut(pitch * band).take((r.h as usize).div_ceil(band)).enumerate().collect();
            tasks.into_par_iter().for_each(|(i, chunk)| {
                let y0 = r.y as usize + i * band;
                let ys = clip(y0 as u32..(y0 + band).min(u32::MAX as usize) as u32, &ry);
                if ys.start < ys.end {
                    let mut m = KC::tile(linear, chunk, first + i * pitch * band);
                    run(p, &mut m, rz.clone(), ys);
                    raw::store_fence();
                }
            });
        }
        Surface::Swizzled(s) => {
            // Split the index space by its top `k` bits: each part is the sub-box whose
            // coordinates' matching high bits are fixed.
            let masks = s.masks();
            let total_bits = 64 - (masks[0] | masks[1] | masks[2]).leading_zeros();
            // The fewest top bits (at most 6) whose parts meeting the region spread over the
            // pool's threads within 1/8 of an even share: one part per thread where the counts
            // allow (2 threads: halves), not [`TASKS_PER_THREAD`]. Fewer parts are wider, and
            // a walk that reads (or writes) the linear rows whole measured faster than halves
            // of them: session 18, swizzled-1024x1024x4 tile at 2 threads, four interleaved
            // pairs of `--quick` runs (the `x mcpy` column), halves (full-width rows)
            // 0.93-0.95x a split memcpy against 0.87-0.93x for quadrants; the C model of the
            // walk, 2-5% between full and half rows at one thread and two.
            let region = [r.x..r.x + r.w, ry.clone(), rz.clone()];
            let threads = rayon::current_num_threads().max(1);
            let meeting = |k: u32| {
                (0..1u64 << k).filter(|&i| swizzle_chunk(masks, total_bits - k, i, region.clone()).is_some()).count()
            };
            let even = |n: usize| n >= threads && n.div_ceil(threads) * threads * 8 <= n * 9;
            let k = (1..=total_bits.min(6)).find(|&k| even(meeting(k))).unwrap_or(total_bits.min(6));
            let low_bits = total_bits - k;
            let es = s.elem_size() as usize;
            let part_bytes = (1usize << low_bits) * es;
            let tasks: Vec<(usize, &mut [u8])> = tiled.chunks_mut(part_bytes).enumerate().collect();
            tasks.into_par_iter().for_each(|(i, chunk)| {
                if let Some([xs, ys, zs]) = swizzle_chunk(masks, low_bits, i as u64, region.clone()) {
                    let mut m = KC::tile(linear, chunk, i * part_bytes);
                    swizzled_chunked(p, s, &mut m, zs, ys, [xs.start, xs.end]);
                    raw::store_fence();
                }
            });
        }
    }
}

/// The sub-box of chunk `i` of a swizzled surface cut into chunks of `2^low_bits` consecutive
/// elements: the coordinates whose bits above `low_bits` are fixed by `i`. Returns the x, y, z
/// ranges clipped to `region` (x, y, z ranges), or `None` when empty.
pub(crate) fn swizzle_chunk(
    masks: [u64; 3],
    low_bits: u32,
    i: u64,
    region: [Range<u32>; 3],
) -> Option<[Range<u32>; 3]> {
    let mut out = [0u32..0, 0..0, 0..0];
    for d in 0..3 {
        let low_count = (masks[d] & ((1u64 << low_bits) - 1)).count_ones();
        let start = extract(i << low_bits, masks[d]) as u32;
        let r = &region[d];
        out[d] = start.max(r.start)..(start + (1u32 << low_count)).min(r.end);
        if out[d].start >= out[d].end {
            return None;
        }
    }
    Some(out)
}

/// Gathers the bits of `v` at the set bits of `mask` into the low bits (a software PEXT).
pub(crate) fn extract(v: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut bit = 0;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if v & low != 0 {
            out |= 1 << bit;
        }
        bit += 1;
        mask &= mask - 1;
    }
    out
}

#[cfg(test)]
mod move_count_tests {
    //! Every byte of a box moved exactly once by the blocklinear walk: byte comparisons cannot
    //! see a byte moved twice (say a gob row taken by the gob-row walk and then again gob by
    //! gob). A counting mover takes every gob row it is offered, through the same expansion as
    //! the safe movers, with no alignment condition, so the walk's edges and stacking run here
    //! on any CPU. (Written in the session-4 review.)
    use super::{gob_row_moves, run, GobRow, Mover};
    use crate::layout::{GobOrder, Surface, SurfaceDesc};
    use crate::tile::{LinearLayout, Plan, Region};
    use crate::Gpu;
    use alloc::vec;
    use alloc::vec::Vec;

    /// Counts the moves of every tiled and linear byte.
    struct Counting {
        tiled: Vec<u8>,
        linear: Vec<u8>,
        /// Gob-row runs taken.
        rows: usize,
    }

    impl Mover for Counting {
        fn mv(&mut self, t: usize, l: usize, len: usize) {
            self.tiled[t..t + len].iter_mut().for_each(|c| *c += 1);
            self.linear[l..l + len].iter_mut().for_each(|c| *c += 1);
        }
        fn tiled_ptr(&self, _t: usize) -> *const u8 {
            core::ptr::null()
        }
        fn gob_row_vector(&mut self, row: &GobRow) -> bool {
            self.rows += 1;
            gob_row_moves(self, row);
            true
        }
    }

    #[test]
    fn every_box_byte_moves_once() {
        let cases = [
            (Gpu::G80, GobOrder::Vm, [0, 2, 0], [300, 70, 1]),
            (Gpu::G80, GobOrder::Vm, [0, 1, 1], [200, 40, 3]),
            (Gpu::G80, GobOrder::Vm, [1, 1, 0], [300, 40, 1]),
            (Gpu::G80, GobOrder::Vm, [0, 0, 0], [300, 40, 1]),
            (Gpu::Gf100, GobOrder::Vm, [0, 2, 0], [300, 70, 1]),
            (Gpu::Gm20b, GobOrder::Tegra, [1, 1, 1], [300, 70, 2]),
            // 1 KiB rows: columns of 2 or 4 stacked Tegra gobs (`tegra_stack`).
            (Gpu::Gm20b, GobOrder::Tegra, [0, 2, 0], [256, 70, 1]),
            (Gpu::Gm20b, GobOrder::Tegra, [0, 1, 1], [256, 40, 3]),
            (Gpu::Tu102, GobOrder::Turing, [0, 2, 0], [300, 70, 1]),
            (Gpu::Gf100, GobOrder::Fermi, [0, 2, 0], [300, 70, 1]),
        ];
        let mut rows_seen = 0;
        for (gpu, order, block, size) in cases {
            let mut desc = SurfaceDesc::new(gpu, 4, size);
            desc.gob_order = order;
            desc.block_log2 = Some(block);
            let s = desc.build().unwrap();
            let Surface::BlockLinear(b) = &s else { unreachable!("blocklinear") };
            let [w, h, d] = s.size();
            for (x, y, ww, hh) in [(0, 0, w, h), (1, 4, w - 1 - 5, h - 4 - 3), (16, 3, 40, 9), (3, 8, 10, 8)] {
                let region = Region { x, y, z: 0, w: ww, h: hh, d };
                let lin = LinearLayout::packed(&region, 4);
                let lin_len = (lin.slice_pitch_bytes * u64::from(d)) as usize;
                let p = Plan::new(&s, region, lin, s.size_bytes() as usize, lin_len).unwrap();
                let mut m = Counting { tiled: vec![0; p.tiled_span], linear: vec![0; lin_len], rows: 0 };
                run(&p, &mut m, region.z..region.z + d, region.y..region.y + hh);
                rows_seen += m.rows;
                let mut want = vec![0u8; p.tiled_span];
                for z in region.z..region.z + d {
                    for yy in region.y..region.y + hh {
                        for xb in p.xb[0]..p.xb[1] {
                            want[b.byte_offset(xb as u64, yy, z) as usize] += 1;
                        }
                    }
                }
                let at = alloc::format!("{gpu:?} {order:?} {block:?} {region:?}");
                assert!(m.tiled == want, "{at}: tiled bytes not moved once each");
                assert!(m.linear.iter().all(|&c| c == 1), "{at}: linear bytes not moved once each");
            }
        }
        assert!(rows_seen > 0, "the gob-row walk ran");
    }
}

#[cfg(all(test, feature = "rayon"))]
mod cached_tasks_tests {
    use super::cached_tasks;
    use alloc::vec;
    use alloc::vec::Vec;
    use core::ops::Range;

    /// `n` tasks of `len` bytes each, back to back.
    fn equal(n: usize, len: usize) -> Vec<Range<usize>> {
        (0..n).map(|i| i * len..(i + 1) * len).collect()
    }

    #[test]
    fn shares_pick_evenly_spread_tasks() {
        let four = equal(4, 1 << 22);
        assert_eq!(cached_tasks(&four, (1, 1)), vec![true; 4]);
        assert_eq!(cached_tasks(&four, (0, 1)), vec![false; 4]);
        assert_eq!(cached_tasks(&four, (3, 4)), vec![true, true, false, true], "one task of four streams");
        assert_eq!(cached_tasks(&four, (1, 2)), vec![true, false, true, false]);
        assert_eq!(cached_tasks(&four, (5, 0)), vec![true; 4], "a zero denominator caches all");
        assert_eq!(cached_tasks(&four, (9, 4)), vec![true; 4], "more than all is all");
        // Unequal tasks: the cached bytes stay within half a task of the share, at every task.
        let ranges: Vec<Range<usize>> = [3usize, 1, 4, 1, 5, 9, 2, 6]
            .iter()
            .scan(0, |at, &n| {
                let r = *at..*at + n * 1000;
                *at = r.end;
                Some(r)
            })
            .collect();
        for (num, den) in [(1u64, 3u64), (1, 2), (2, 3), (7, 8)] {
            let picks = cached_tasks(&ranges, (num, den));
            let (mut end, mut cached) = (0u64, 0u64);
            for (r, c) in ranges.iter().zip(picks) {
                end += r.len() as u64;
                cached += if c { r.len() as u64 } else { 0 };
                let want = end * num / den;
                assert!(cached.abs_diff(want) <= 4500, "{num}/{den}: {cached} cached of {end}, want {want}");
            }
        }
        assert!(cached_tasks(&[], (1, 2)).is_empty());
    }
}
