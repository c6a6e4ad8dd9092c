//! The mover trait: one direction of copy between a tiled and a linear buffer, with the
//! fixed-size moves and the optional vector hooks (whole gob rows, whole swizzle chunks) that
//! the walks call; and [`GobRow`], the run of whole gobs those hooks take. The default methods
//! are the plain copies every mover can fall back to.

use crate::layout::GobOrder;

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
    /// nothing, otherwise. Only untile has one (AVX-512): for tile the SSE2 tiles of
    /// [`Mover::tile4x4`] measured faster
    /// ([docs/perf/swizzle-chunks.md](../../../../../docs/perf/swizzle-chunks.md)).
    #[inline(always)]
    fn chunk_es4_vector(&mut self, _t: usize, _l: usize, _rp: usize, _table: &[usize; 256]) -> bool {
        false
    }
    /// Whether [`gobs`] may hand [`Mover::gob_row_vector`] two stacked 4-row VM gobs per
    /// column ([`GobRow::gh`] 8): not when untile streams the linear image, where eight rows
    /// streamed at once measured slower than four
    /// ([docs/perf/gob-stacking.md](../../../../../docs/perf/gob-stacking.md)).
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
pub(crate) fn tile4x4_pairs<const ES: usize, const P: usize, M: Mover>(m: &mut M, t: usize, l: usize, rp: usize) {
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
    pub(crate) fn column_offset(&self, gx: usize) -> usize {
        ((gx >> self.width_log2) << self.block_log2) + ((gx & ((1 << self.width_log2) - 1)) << self.gob_log2)
    }
    /// Tiled offset of the `k`th gob of the run from its first gob, bytes.
    #[inline(always)]
    pub(crate) fn rel(&self, k: usize) -> usize {
        self.column_offset(self.gx0 + k) - self.column_offset(self.gx0)
    }
    /// Tiled offset of the run's first gob, bytes.
    #[inline(always)]
    pub(crate) fn first(&self) -> usize {
        self.base + self.column_offset(self.gx0)
    }
}

/// [`Mover::gob_row_vector`] spelled out as plain moves through [`Mover::mv_n`]: each column's
/// `row.gh` rows as 64-byte copies (VM order) or 16-byte runs (Tegra order). The safe movers'
/// twin of the vector loops: the same walk and offsets, with checked slices.
pub(crate) fn gob_row_moves<M: Mover>(m: &mut M, row: &GobRow) {
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

/// Hints the cache to fetch the 512 bytes at `ptr` into L2 (no effect elsewhere than x86_64; a
/// prefetch never faults, whatever the address). The T1 hint (L2, not L1) and all 8 lines of the
/// gob measured fastest ([docs/perf/gob-prefetch.md](../../../../../docs/perf/gob-prefetch.md)).
#[inline(always)]
pub(crate) fn prefetch(ptr: *const u8) {
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
