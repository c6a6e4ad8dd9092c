//! Moving bytes between linear images and any layout.
//!
//! - [`untile`]: layout (a raw dump) -> linear image; [`tile`]: linear image -> layout.
//! - Whole surfaces or any [`Region`] (box) inside one, with an explicit [`LinearLayout`] (row
//!   and slice pitch of the linear image, not only tightly packed).
//! - The kernels write into the caller's buffer and never allocate; [`untile_to_vec`] and
//!   [`tile_to_vec`] are the allocating conveniences.
//! - Sizes and bounds are checked up front ([`Plan::new`]); nothing outside the surface's
//!   `size_bytes` of the tiled buffer or the region's span of the linear buffer is touched.
//! - With the `rayon` feature, `untile_parallel` / `tile_parallel` split the work by z slices
//!   and gob-row bands (untile) or by block rows / pitch rows / swizzle sub-cubes (tile) over the
//!   current rayon pool (block rows cut into parts of whole block columns when the surface has
//!   fewer block rows than the pool wants tasks); their bytes equal the single-thread path's. Bands and swizzle sub-cubes
//!   are sized for about two tasks per thread of the pool (bands of at least 256 KiB where the
//!   region is that large): on the development machine, long walks per thread beat many small
//!   tasks.
//!
//! Fast paths (all in [`kernels`]): blocklinear copies whole gob rows (64 bytes, VM order) or
//! 16-byte runs (CPU-side gob orders) and handles partial gobs with sub-row copies, never byte
//! by byte; pitch copies whole rows; swizzled steps the element index with a masked add and
//! copies the longest runs that are contiguous in both images. Every element size is moved as
//! bytes (a 12-byte element is 12 bytes of its row), so any element size works through the
//! byte-oriented view. Swizzled surfaces go by 4096-element chunks of 4x4 tiles.
//!
//! Vector kernels ([`crate::cpu`]): on x86_64, whole gob rows move with AVX-512F (or AVX2) at
//! any alignment (streaming only whole lines: rows off a line boundary but 4-byte aligned and a
//! whole number of lines apart have their lines put together from two gobs), and whole swizzle
//! chunks of 4-byte elements move with AVX-512F (pairs of 64x64 chunks side by side also with
//! AVX2), and of 1-, 2- and 8-byte elements with AVX-512 (VBMI, BW, F) or AVX2; otherwise SSE2
//! (the x86_64 baseline) or plain copies. Outputs of at least
//! [`streaming_threshold_bytes`] (7/32 of the level-3 cache) are written with streaming stores ([`Plan::stream_tiled`],
//! [`Plan::stream_linear`]); a copy that is one part of a larger job (a level of a texture)
//! decides from the job's size instead ([`untile_part`], [`tile_part`]). With `std`, whole
//! blocklinear copies that write from 2 MiB up to the level-3 cache's size choose from their
//! own timings instead (module `adapt`: the fixed rule first, then whichever of cached
//! stores, a parallel cached share and streamed stores runs fastest on this machine; tile
//! needs a line-aligned tiled buffer to stream). Every path gives the same bytes, and the
//! tests compare each against the byte-by-byte [`untile_reference`] / [`tile_reference`] and
//! the checked twins [`untile_checked`] / [`tile_checked`].
//!
//! [`window()`]: the bytes of a large surface that one box needs, as a smaller surface of the
//! same layout, so that a box of a large dump is read and untiled without the rest.

#[cfg(feature = "std")]
pub mod adapt;
pub mod kernels;
pub mod window;

pub use window::{window, Piece, Window};

use crate::error::{zeroed, Error, Result};
use crate::layout::Surface;
use alloc::vec::Vec;

/// A box of elements inside a surface: origin (x, y, z) and extent (w, h, d).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Region {
    /// First column, in elements.
    pub x: u32,
    /// First row.
    pub y: u32,
    /// First slice.
    pub z: u32,
    /// Width in elements.
    pub w: u32,
    /// Height in rows.
    pub h: u32,
    /// Depth in slices.
    pub d: u32,
}

impl Region {
    /// The whole surface.
    pub fn whole(s: &Surface) -> Region {
        let [w, h, d] = s.size();
        Region { x: 0, y: 0, z: 0, w, h, d }
    }

    /// Checks that the box is non-empty and inside `s`.
    pub fn check(&self, s: &Surface) -> Result<()> {
        let size = s.size();
        let fields = [
            ("box x", "box w", self.x, self.w),
            ("box y", "box h", self.y, self.h),
            ("box z", "box d", self.z, self.d),
        ];
        for (i, (of, ef, o, e)) in fields.into_iter().enumerate() {
            if e == 0 {
                return Err(Error::OutOfRange { field: ef, value: 0, min: 1, max: size[i].into() });
            }
            let end = u64::from(o) + u64::from(e);
            if end > u64::from(size[i]) {
                let _ = of;
                return Err(Error::OutOfRange {
                    field: ["box x+w", "box y+h", "box z+d"][i],
                    value: end,
                    min: 1,
                    max: size[i].into(),
                });
            }
        }
        Ok(())
    }
}

/// How the linear image is laid out: bytes between rows and between slices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LinearLayout {
    /// Bytes from one row to the next (at least the region's row bytes).
    pub row_pitch_bytes: u64,
    /// Bytes from one slice to the next (at least the region's slice span).
    pub slice_pitch_bytes: u64,
}

impl LinearLayout {
    /// Tightly packed rows and slices for `region` of `elem_size`-byte elements.
    /// (A product past `u64::MAX` saturates, and [`Plan::new`] then rejects it.)
    pub fn packed(region: &Region, elem_size: u32) -> LinearLayout {
        let row = u64::from(region.w) * u64::from(elem_size);
        LinearLayout { row_pitch_bytes: row, slice_pitch_bytes: row.saturating_mul(region.h.into()) }
    }

    /// Rows of `row_pitch_bytes`, slices packed (`row_pitch * h`, saturating like [`Self::packed`]).
    pub fn with_row_pitch(region: &Region, row_pitch_bytes: u64) -> LinearLayout {
        LinearLayout { row_pitch_bytes, slice_pitch_bytes: row_pitch_bytes.saturating_mul(region.h.into()) }
    }

    /// Bytes a linear image of `region` takes with this layout: `d` slices of `slice_pitch`,
    /// or `None` past `u64::MAX`.
    pub fn image_bytes(&self, region: &Region) -> Option<u64> {
        self.slice_pitch_bytes.checked_mul(region.d.into())
    }
}

/// A checked copy plan: everything the kernels need, all in `usize`, all in bounds.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    /// The surface.
    pub surface: Surface,
    /// The region, in elements.
    pub region: Region,
    /// Region start and end in bytes along x.
    pub xb: [usize; 2],
    /// Linear row pitch in bytes.
    pub row_pitch: usize,
    /// Linear slice pitch in bytes.
    pub slice_pitch: usize,
    /// Bytes of the linear buffer the region spans.
    pub linear_span: usize,
    /// Bytes of the tiled buffer the surface spans (`size_bytes`).
    pub tiled_span: usize,
}

fn to_usize(what: &'static str, v: u64) -> Result<usize> {
    usize::try_from(v).map_err(|_| Error::Overflow { what, detail: alloc::format!("{v} does not fit in usize") })
}

impl Plan {
    /// Checks the region, the linear layout and both buffer lengths.
    pub fn new(s: &Surface, region: Region, lin: LinearLayout, tiled_len: usize, linear_len: usize) -> Result<Plan> {
        region.check(s)?;
        let es = u64::from(s.elem_size());
        let row_bytes = u64::from(region.w) * es;
        if lin.row_pitch_bytes < row_bytes {
            return Err(Error::OutOfRange {
                field: "linear row pitch",
                value: lin.row_pitch_bytes,
                min: row_bytes,
                max: u64::MAX,
            });
        }
        let overflow = || Error::Unsupported {
            field: "linear layout",
            value: alloc::format!(
                "row pitch {} x {} rows, slice pitch {} x {} slices",
                lin.row_pitch_bytes,
                region.h,
                lin.slice_pitch_bytes,
                region.d
            ),
            rule: "the linear image's size must fit in 64 bits".into(),
        };
        let slice_span = (u64::from(region.h) - 1)
            .checked_mul(lin.row_pitch_bytes)
            .and_then(|v| v.checked_add(row_bytes))
            .ok_or_else(overflow)?;
        if region.d > 1 && lin.slice_pitch_bytes < slice_span {
            return Err(Error::OutOfRange {
                field: "linear slice pitch",
                value: lin.slice_pitch_bytes,
                min: slice_span,
                max: u64::MAX,
            });
        }
        let linear_span = (u64::from(region.d) - 1)
            .checked_mul(lin.slice_pitch_bytes)
            .and_then(|v| v.checked_add(slice_span))
            .ok_or_else(overflow)?;
        if (linear_len as u64) < linear_span {
            return Err(Error::BufferTooSmall { what: "linear buffer", needed: linear_span, got: linear_len as u64 });
        }
        let size = s.size_bytes();
        if (tiled_len as u64) < size {
            return Err(Error::BufferTooSmall { what: "tiled buffer", needed: size, got: tiled_len as u64 });
        }
        Ok(Plan {
            surface: *s,
            region,
            xb: [
                to_usize("box", u64::from(region.x) * es)?,
                to_usize("box", (u64::from(region.x) + u64::from(region.w)) * es)?,
            ],
            row_pitch: to_usize("linear row pitch", lin.row_pitch_bytes)?,
            slice_pitch: to_usize("linear slice pitch", lin.slice_pitch_bytes)?,
            linear_span: to_usize("linear image size", linear_span)?,
            tiled_span: to_usize("surface size", size)?,
        })
    }

    /// Whether tile should stream its tiled output: large and 64-byte aligned (gobs are whole
    /// lines).
    pub fn stream_tiled(&self, tiled: &[u8]) -> bool {
        self.stream_tiled_from(tiled, streaming_threshold_bytes())
    }

    /// [`Plan::stream_tiled`] with another size threshold in bytes (the parallel paths use
    /// `parallel_streaming_threshold_bytes` (feature `rayon`)).
    pub fn stream_tiled_from(&self, tiled: &[u8], threshold_bytes: usize) -> bool {
        self.stream_tiled_job(tiled, self.tiled_span as u64, threshold_bytes)
    }

    /// [`Plan::stream_tiled_from`] for a copy that is one part of a job writing `job_bytes`
    /// in all: the job's size, not the plan's, is held against the threshold.
    fn stream_tiled_job(&self, tiled: &[u8], job_bytes: u64, threshold_bytes: usize) -> bool {
        job_bytes >= threshold_bytes as u64
            && (tiled.as_ptr() as usize).is_multiple_of(64)
            && matches!(self.surface, Surface::BlockLinear(_))
    }

    /// The cached share of a parallel job of `job_output_bytes` that `streams` (or not: then
    /// `(1, 1)`, all of it): [`parallel_cached_share`], except that two kinds of blocklinear
    /// region stream the whole job: blocks more than one slice deep, and rows narrower than
    /// [`NARROW_ROW_BYTES`]. On both the walk with ordinary stores is slow once the data
    /// leaves the level-2 cache, and keeping part of the job cached loses more than it gains.
    ///
    /// Measured on the development machine:
    /// - tegra-256x256x64x4 (16 MiB, blocks 16 slices deep), `nvsurf-bench --quick`, paired
    ///   ratios, 2 threads, six runs (session 15): with a quarter streamed, tile 0.60-0.63x and
    ///   untile 0.65-0.71x in five runs (0.86x and 0.81x in the sixth), against 0.73-0.92x and
    ///   0.73-1.08x all streamed.
    /// - Session 16, stand-alone loop over the public API, Tegra order, 4-byte elements, 16 MiB,
    ///   2 threads, rounds of 10 calls of ours then 10 of a split memcpy (as the benchmark
    ///   batches them), the two settings interleaved round by round, medians of the paired
    ///   ratios (tile / untile), share against all streamed:
    ///   - 2D, rows of 512 B: 0.60 / 0.68 against 0.77 / 0.85; 1 KiB (256x16384, two runs):
    ///     0.64-0.69 / 0.66-0.68 against 0.89-1.05 / 0.76-0.87; 1.5 KiB: 0.65 / 0.65 against
    ///     0.74 / 0.82. 2 KiB: 0.68 / 0.81 against 0.72 / 0.71 (mixed); 4, 8 and 16 KiB: the
    ///     share wins, tile 0.73-0.75 against 0.68-0.72, untile 0.91-0.94 against 0.66-0.74.
    ///   - 3D, blocks 16 slices deep, rows of 2 KiB (512x512x16): 0.97 / 0.75 against
    ///     1.29 / 0.78; 4 KiB (1024x256x16): 0.91 / 0.70 against 1.01 / 0.89.
    /// - Why (session 16, one thread, nothing streamed, 16 MiB, medians of 300 calls): 2D with
    ///   1 KiB rows takes 1200-1255 us against 900-1130 us with 8 KiB rows, and the 3D surface
    ///   with blocks one slice deep (gobs 8 KiB apart) 1396-1413 us, as slow as with blocks 16
    ///   deep (gobs 128 KiB apart, 1388-1625 us): the gob stride, which session 15 suspected, is not the cause.
    ///   Prefetching 0 to 16 gobs ahead, or the next gob row's first gobs, moved nothing; with
    ///   the data in the level-2 cache narrow rows are as fast as wide ones. The cause is
    ///   not known.
    #[cfg(feature = "rayon")]
    fn parallel_share(&self, streams: bool, job_output_bytes: u64) -> (u64, u64) {
        let all_streamed = (0, job_output_bytes.max(1));
        match &self.surface {
            _ if !streams => (1, 1),
            Surface::BlockLinear(b) if b.block_extent_bytes_rows_slices()[2] > 1 => all_streamed,
            Surface::BlockLinear(_) if self.xb[1] - self.xb[0] < NARROW_ROW_BYTES => all_streamed,
            _ => parallel_cached_share(job_output_bytes),
        }
    }

    /// Whether untile streams the linear image past the caches: blocklinear surfaces whose
    /// linear image is at least [`streaming_threshold_bytes`]. Only whole 64-byte lines
    /// written by the AVX-512 or AVX2 gob kernels stream (the others are ordinary stores):
    /// rows on line boundaries, or rows 4-byte aligned a whole number of lines apart, whose
    /// lines the kernels put together from two gobs; the kernels decide that per run of
    /// gobs, so `linear`'s alignment is not consulted here (it was before untile could
    /// stream into rows off a line boundary; the parameter stays for the API). Measured on the
    /// development machine, streamed full lines take untile of 2048x2048x4 Tegra from
    /// 0.96-1.03x to 1.21-1.27x memcpy, where streamed 16-byte pieces had been slower than
    /// ordinary stores.
    pub fn stream_linear(&self, linear: &[u8]) -> bool {
        self.stream_linear_from(linear, streaming_threshold_bytes())
    }

    /// [`Plan::stream_linear`] with another size threshold in bytes.
    pub fn stream_linear_from(&self, linear: &[u8], threshold_bytes: usize) -> bool {
        let _ = linear;
        self.stream_linear_job(self.linear_span as u64, threshold_bytes)
    }

    /// [`Plan::stream_linear_from`] for one part of a job writing `job_bytes` in all.
    fn stream_linear_job(&self, job_bytes: u64, threshold_bytes: usize) -> bool {
        job_bytes >= threshold_bytes as u64 && matches!(self.surface, Surface::BlockLinear(_))
    }

    /// Offset in the linear buffer of byte column `xb` of row `y` in slice `z` (surface coordinates).
    #[inline(always)]
    pub fn linear_offset(&self, xb: usize, y: u32, z: u32) -> usize {
        (z - self.region.z) as usize * self.slice_pitch
            + (y - self.region.y) as usize * self.row_pitch
            + (xb - self.xb[0])
    }
}

/// Outputs of at least this many bytes are written with streaming (non-temporal) stores on
/// x86_64 (tile: the tiled side, [`Plan::stream_tiled`]; untile: the linear side, whole lines
/// only, [`Plan::stream_linear`]): streaming avoids reading every output line before writing
/// it. Smaller outputs stay in the cache for whoever reads them next. Measured on the
/// development machine (one thread): 16 MiB outputs (2048x2048x4, 1024x1024x16, 256x256x64x4)
/// tile about 0.15-0.25x memcpy faster streamed; lowering the threshold from 8 to 4 MiB took
/// the 8 MB case 2000x1000x4 from 0.59-0.74x to 0.81-0.92x (tile) and 0.84-0.92x to
/// 0.90-1.08x (untile), three interleaved runs each. With the later gob-row kernels, outputs of
/// 4-6 MiB lose to streaming, their data fitting in the 32 MiB L3 cache with memcpy's: Tegra
/// 8192x128x4 and 2048x512x4 (4 MiB), one thread, paired rounds against memcpy (scratch
/// harness): tile 0.79-0.80x not streamed against 0.57-0.58x streamed, untile 0.71x against
/// 0.57-0.58x; 2048x768x4 (6 MiB): 0.92x / 0.85x against 0.71x / 0.70x. From 7.6 MiB up the
/// two are level or streaming wins (2000x1000x4 in `nvsurf-bench`: 0.73-0.82x streamed,
/// 0.62-0.68x not; 2048x1280x4: 1.05-1.11x against 0.77-0.83x), hence 7 MiB.
///
/// That machine's level-3 cache is 32 MiB; other CPUs get the same share of theirs
/// ([`streaming_threshold_bytes`]). This constant is the threshold where the CPU reports no
/// level-3 cache (and off x86_64).
pub const STREAMING_THRESHOLD_BYTES: usize = 7 << 20;

/// The streaming threshold in bytes for a level-3 cache of `l3_bytes` (as
/// [`crate::cpu::l3_cache_bytes`] reads it): 7/32 of it, the share measured on the
/// development machine ([`STREAMING_THRESHOLD_BYTES`] of 32 MiB), between 1 MiB and 1 GiB;
/// [`STREAMING_THRESHOLD_BYTES`] when it is unknown.
///
/// Decision (not measured on other CPUs, which the project does not have): where streaming
/// pays depends on whether a copy's source and destination still fit in the cache they share
/// with other work, so the threshold scales with the cache, the way glibc sizes memcpy's own
/// non-temporal threshold from the shared cache size (glibc `sysdeps/x86/dl-cacheinfo.h`).
/// A desktop with an 8 MiB L3 streams from 1.75 MiB, where the fixed 7 MiB would keep
/// 14 MiB of source and destination in an 8 MiB cache; a 96 MiB one from 21 MiB.
pub const fn streaming_threshold_for_l3(l3_bytes: Option<u64>) -> usize {
    match l3_bytes {
        None => STREAMING_THRESHOLD_BYTES,
        Some(b) => {
            let t = b / 32 * 7;
            let t = if t < 1 << 20 {
                1 << 20
            } else if t > 1 << 30 {
                1 << 30
            } else {
                t
            };
            t as usize
        }
    }
}

/// The streaming threshold set by [`set_streaming_threshold_bytes`] (0: automatic).
static THRESHOLD_SET: core::sync::atomic::AtomicUsize = core::sync::atomic::AtomicUsize::new(0);

/// The streaming threshold in bytes: the one [`set_streaming_threshold_bytes`] set, else
/// [`streaming_threshold_for_l3`] of this CPU's level-3 cache (7 MiB on the development
/// machine, 32 MiB of level-3 cache per core complex). Unless one is set, whole blocklinear
/// copies that write from 2 MiB up to the level-3 cache's size (feature `std`, module
/// `adapt`) take this rule's way first and then the one they timed fastest.
pub fn streaming_threshold_bytes() -> usize {
    match THRESHOLD_SET.load(core::sync::atomic::Ordering::Relaxed) {
        0 => streaming_threshold_for_l3(crate::cpu::l3_cache_bytes()),
        t => t,
    }
}

/// Whether a threshold is set with [`set_streaming_threshold_bytes`] (which turns adaptive
/// streaming off while it is set).
#[cfg(feature = "std")]
pub(crate) fn threshold_is_set() -> bool {
    THRESHOLD_SET.load(core::sync::atomic::Ordering::Relaxed) != 0
}

/// Sets the streaming threshold for the whole process from now on (`None`: back to the
/// automatic one; `Some(0)` is taken as 1 byte, streaming every large enough aligned copy).
/// Returns the previous setting. Results never depend on it: streamed and cached stores write
/// the same bytes. For tests that must take the streaming paths on any machine, and for
/// callers who know where their data goes next (a dump written to a file and dropped gains
/// nothing from staying in the cache).
pub fn set_streaming_threshold_bytes(bytes: Option<usize>) -> Option<usize> {
    let new = bytes.map_or(0, |b| b.max(1));
    match THRESHOLD_SET.swap(new, core::sync::atomic::Ordering::Relaxed) {
        0 => None,
        t => Some(t),
    }
}

/// The streaming threshold of the parallel entry points: [`streaming_threshold_bytes`] times
/// the threads of the current rayon pool. Streamed stores go to memory, whose bandwidth the
/// threads share, while the cache's bandwidth grows with the threads; measured on the
/// development machine (2 threads, 2000x1000x4 = 7.6 MiB): streamed, tile and untile reached
/// 0.43-0.53x a memcpy split over the same threads; not streamed, 0.76-0.83x; 2048x1536x4
/// (12 MiB, streamed at the earlier threshold of 8 MiB): 0.58-0.60x streamed, 0.81-0.83x not;
/// 2048x2048x4 (16 MiB): level (0.81-0.87x streamed, 0.78-0.92x not). Session 14, the four
/// 16 MiB cases (tegra-2048x2048x4, g80-2048x2048x4, tegra-1024x1024x16, tegra-256x256x64x4;
/// `nvsurf-bench --quick --case C` with and without `--streaming-threshold 1000000000`, three
/// interleaved runs, paired ratios): streamed 0.75-0.98x (ours 26-27 GB/s in every run),
/// not streamed 0.76-0.91x for the 2D cases and 0.52-0.62x for the 3D one (ours 21-34 GB/s).
/// The split memcpy ran at 26-36 GB/s after our streamed rounds and 29-42 GB/s (all but one
/// 37-42) after our cached ones: the rounds share the cache, so the baseline moves with our
/// choice too.
/// Streaming stays; since session 15 a streaming job keeps part of its output cached
/// ([`parallel_cached_share`]).
#[cfg(feature = "rayon")]
pub fn parallel_streaming_threshold_bytes() -> usize {
    streaming_threshold_bytes().saturating_mul(rayon::current_num_threads())
}

/// How much of a parallel job that streams (its output at least
/// `parallel_streaming_threshold_bytes`) is still written with ordinary stores and kept in
/// the cache: `(cached bytes, job bytes)`, the first part of the ratio being four times
/// [`streaming_threshold_bytes`] (7/8 of the level-3 cache) less the job's bytes, between
/// none and all of them. That keeps the input (about as large as the output) and the cached
/// part of the output inside the cache, and sends the rest to memory with streaming stores,
/// so that the threads use the cache's bandwidth and the memory's at once. A pool of one
/// thread streams the whole job, as the single-thread entry points do.
///
/// Measured on the development machine (32 MiB level-3 cache, 2 threads, untile,
/// `nvsurf-bench` with extra contenders in the same race, paired ratios against a split
/// memcpy, session 15): tegra-2048x2048x4 (16 MiB) with a quarter of its four tasks
/// streamed 1.05-1.09x, all streamed 0.76-0.92x, none 0.95-0.99x, half 0.92-1.06x;
/// g80-2048x2048x4 0.94-0.98x against 0.82-0.85x all streamed; tegra-1024x1024x16 1.10-1.12x
/// against 0.89-1.05x; tegra-256x256x64x4 0.77-0.94x against 0.81-1.11x (half: 0.86-1.07x).
/// tegra-4096x4096x4 (64 MiB, where this rule streams everything): all streamed 1.34-1.39x,
/// a quarter kept 1.22-1.27x, half 1.10-1.12x, none 0.94x. With only ours and memcpy in the
/// race (`nvsurf-bench --quick --case C`, five interleaved runs), the quarter took ours from
/// 24-27 to 28-46 GB/s, and memcpy, sharing the cache state, sped up with it: medians of the
/// paired ratios 0.91x against 0.90x (Tegra) and 0.87x against 0.85x (G80). Two full runs
/// of `nvsurf-bench` with this rule against one without, same session, two threads, paired:
/// untile of tegra-2048x2048x4 1.02x and 1.05x (0.77x without), tegra-1024x1024x16 1.02x
/// and 1.02x (0.87x), g80-2048x2048x4 0.99x and 1.00x (0.83x); tile 0.91x and 0.86x (0.95x),
/// 0.86x and 1.06x (1.07x), 0.96x and 0.80x (0.81x): untile gains, tile moves within the
/// noise, and our own speed rises from 26 GB/s (46 in one cell) to 30-39 GB/s.
///
/// Decision: the 7/8 is this machine's (a quarter of a 16 MiB output kept, all of a 14 MiB
/// one, which makes the rule continuous at the two-thread threshold); pools of more threads,
/// which this project cannot measure, get the same cache budget.
#[cfg(feature = "rayon")]
pub fn parallel_cached_share(job_output_bytes: u64) -> (u64, u64) {
    let job = job_output_bytes.max(1);
    if rayon::current_num_threads() < 2 {
        return (0, job);
    }
    let budget = (streaming_threshold_bytes() as u64).saturating_mul(4);
    (budget.saturating_sub(job).min(job), job)
}

/// Rows of a blocklinear region narrower than this many bytes make a parallel job that
/// streams stream all of its output, not keep the share of `parallel_cached_share` (feature `rayon`) cached
/// (measured: the 1.5 KiB rows of 384 4-byte elements lose with a share, 2 KiB rows are
/// mixed, 4 KiB rows gain; see `Plan::parallel_share`).
/// (Also the row width that sets a copy's class in adaptive streaming, module `adapt`.)
pub const NARROW_ROW_BYTES: usize = 2048;

/// Below this many bytes the parallel entry points run on the calling thread: splitting costs
/// more than it gains.
pub const PARALLEL_THRESHOLD_BYTES: usize = 256 << 10;

/// Copies `region` of the tiled surface (`tiled` starts at the surface's address) into the
/// linear image `linear`.
pub fn untile(s: &Surface, tiled: &[u8], linear: &mut [u8], region: Region, lin: LinearLayout) -> Result<()> {
    untile_job(s, tiled, linear, region, lin, None)
}

/// Copies the linear image `linear` into `region` of the tiled surface. Bytes of `tiled` outside
/// the region (including the padding of partial gobs and blocks) are left as they were.
pub fn tile(s: &Surface, linear: &[u8], tiled: &mut [u8], region: Region, lin: LinearLayout) -> Result<()> {
    tile_job(s, linear, tiled, region, lin, None)
}

/// [`untile`] as one part of a larger job whose parts together write `job_output_bytes`
/// (for example every level and layer of a texture): whether the output is written with
/// streaming stores is decided from the job's size against [`streaming_threshold_bytes`],
/// not from this part's. A job too large for the caches then streams its small parts too
/// (mip levels of 1 MiB and less would otherwise read every output line from memory before
/// writing it). The bytes are [`untile`]'s whatever the choice.
pub fn untile_part(
    s: &Surface,
    tiled: &[u8],
    linear: &mut [u8],
    region: Region,
    lin: LinearLayout,
    job_output_bytes: u64,
) -> Result<()> {
    untile_job(s, tiled, linear, region, lin, Some(job_output_bytes))
}

/// [`tile`] as one part of a larger job whose parts together write `job_output_bytes` of
/// tiled memory: streaming is decided from the job's size, as in [`untile_part`].
pub fn tile_part(
    s: &Surface,
    linear: &[u8],
    tiled: &mut [u8],
    region: Region,
    lin: LinearLayout,
    job_output_bytes: u64,
) -> Result<()> {
    tile_job(s, linear, tiled, region, lin, Some(job_output_bytes))
}

/// [`untile`] and [`untile_part`]: streaming is decided from `job` bytes, or from the plan's
/// own output when `None`.
fn untile_job(
    s: &Surface,
    tiled: &[u8],
    linear: &mut [u8],
    region: Region,
    lin: LinearLayout,
    job: Option<u64>,
) -> Result<()> {
    let plan = Plan::new(s, region, lin, tiled.len(), linear.len())?;
    let whole = job.is_none();
    let job = job.unwrap_or(plan.linear_span as u64);
    let stream = plan.stream_linear_job(job, streaming_threshold_bytes());
    run_single(&plan, false, whole, stream, true, |stream| untile_streamed(&plan, tiled, linear, stream));
    Ok(())
}

/// Runs `copy(stream)` for a single-thread job (`tile` or untile): with the fixed rule's
/// `stream`, or, where the job adapts ([`adaptive_key`]), with the way `adapt` chooses,
/// timed.
fn run_single(plan: &Plan, tile: bool, whole: bool, stream: bool, can_stream: bool, copy: impl FnOnce(bool)) {
    #[cfg(feature = "std")]
    if let Some((key, bytes)) = adaptive_key(plan, tile, false, whole, can_stream) {
        let ways = fixed_first(if stream { adapt::Way::Streamed } else { adapt::Way::Cached }, false);
        let way = adapt::choose(key, &ways);
        timed(key, way, bytes, || copy(way == adapt::Way::Streamed));
        return;
    }
    let _ = (plan, tile, whole, can_stream);
    copy(stream);
}

/// The key a whole job's timings are kept under when it adapts (see [`adapt`]), and the
/// bytes it writes (its region's, whatever the surface's or the linear image's size): a
/// blocklinear job writing at least [`adapt::ADAPT_MIN_BYTES`] and fewer than
/// [`adapt::adapt_max_bytes`] that could stream (`can_stream`: tile needs a line-aligned
/// tiled buffer), with adaptive streaming on; `None` otherwise, and for parts of larger jobs
/// (`whole` false), which keep the fixed rule. A parallel job in a pool of one thread is
/// timed as a single-thread one.
#[cfg(feature = "std")]
fn adaptive_key(plan: &Plan, tile: bool, parallel: bool, whole: bool, can_stream: bool) -> Option<(adapt::Key, u64)> {
    let Surface::BlockLinear(b) = &plan.surface else { return None };
    let r = plan.region;
    let bytes = ((plan.xb[1] - plan.xb[0]) as u64).saturating_mul(u64::from(r.h)).saturating_mul(u64::from(r.d));
    if !whole
        || !can_stream
        || bytes < adapt::ADAPT_MIN_BYTES
        || bytes >= adapt::adapt_max_bytes()
        || !adapt::adaptive_streaming()
    {
        return None;
    }
    #[cfg(feature = "rayon")]
    let parallel = parallel && rayon::current_num_threads() > 1;
    let class = if b.block_extent_bytes_rows_slices()[2] > 1 {
        1
    } else if plan.xb[1] - plan.xb[0] < NARROW_ROW_BYTES {
        2
    } else {
        0
    };
    Some((adapt::Key::new(tile, parallel, class, bytes), bytes))
}

/// The ways a job may write its output, the fixed rule's (`fixed`) first: cached, the
/// parallel share where there is one (`has_share`), streamed.
#[cfg(feature = "std")]
fn fixed_first(fixed: adapt::Way, has_share: bool) -> alloc::vec::Vec<adapt::Way> {
    use adapt::Way;
    let mut ways = alloc::vec![fixed];
    for w in [Way::Cached, Way::Share, Way::Streamed] {
        if w != fixed && (w != Way::Share || has_share) {
            ways.push(w);
        }
    }
    ways
}

/// Runs `f` and records its time under `key` for `way` and `bytes` written bytes.
#[cfg(feature = "std")]
fn timed(key: adapt::Key, way: adapt::Way, bytes: u64, f: impl FnOnce()) {
    let t = std::time::Instant::now();
    f();
    adapt::record(key, way, u64::try_from(t.elapsed().as_nanos()).unwrap_or(u64::MAX), bytes);
}

/// [`tile`] and [`tile_part`] (see [`untile_job`]).
fn tile_job(
    s: &Surface,
    linear: &[u8],
    tiled: &mut [u8],
    region: Region,
    lin: LinearLayout,
    job: Option<u64>,
) -> Result<()> {
    let plan = Plan::new(s, region, lin, tiled.len(), linear.len())?;
    let whole = job.is_none();
    let job = job.unwrap_or(plan.tiled_span as u64);
    let stream = plan.stream_tiled_job(tiled, job, streaming_threshold_bytes());
    let can_stream = plan.stream_tiled_job(tiled, job, 1);
    run_single(&plan, true, whole, stream, can_stream, |stream| tile_streamed(&plan, linear, tiled, stream));
    Ok(())
}

fn untile_streamed(plan: &Plan, tiled: &[u8], linear: &mut [u8], stream: bool) {
    if stream {
        kernels::untile_planned::<kernels::Raw<true>>(plan, tiled, linear);
    } else {
        kernels::untile_planned::<kernels::Raw<false>>(plan, tiled, linear);
    }
}

fn tile_streamed(plan: &Plan, linear: &[u8], tiled: &mut [u8], stream: bool) {
    if stream {
        kernels::tile_planned::<kernels::Raw<true>>(plan, linear, tiled);
    } else {
        kernels::tile_planned::<kernels::Raw<false>>(plan, linear, tiled);
    }
}

/// Untiles the whole surface into a new, tightly packed linear image.
pub fn untile_to_vec(s: &Surface, tiled: &[u8]) -> Result<Vec<u8>> {
    let region = Region::whole(s);
    let lin = LinearLayout::packed(&region, s.elem_size());
    // The plan checks the input before the output exists (any output length passes): a short
    // dump of a huge surface is an error, not an allocation of the whole surface.
    let plan = Plan::new(s, region, lin, tiled.len(), usize::MAX)?;
    let mut out = zeroed("linear image size", plan.linear_span as u64)?;
    untile(s, tiled, &mut out, region, lin)?;
    Ok(out)
}

/// Tiles a tightly packed linear image of the whole surface into a new buffer of `size_bytes`
/// (padding zero-filled).
pub fn tile_to_vec(s: &Surface, linear: &[u8]) -> Result<Vec<u8>> {
    let region = Region::whole(s);
    let lin = LinearLayout::packed(&region, s.elem_size());
    // As in `untile_to_vec`: the input is checked first.
    Plan::new(s, region, lin, usize::MAX, linear.len())?;
    let mut out = zeroed("surface size", s.size_bytes())?;
    tile(s, linear, &mut out, region, lin)?;
    Ok(out)
}

/// [`untile`] split over the current rayon pool; the bytes equal [`untile`]'s.
#[cfg(feature = "rayon")]
pub fn untile_parallel(s: &Surface, tiled: &[u8], linear: &mut [u8], region: Region, lin: LinearLayout) -> Result<()> {
    untile_parallel_job(s, tiled, linear, region, lin, None)
}

/// [`tile`] split over the current rayon pool; the bytes equal [`tile`]'s.
#[cfg(feature = "rayon")]
pub fn tile_parallel(s: &Surface, linear: &[u8], tiled: &mut [u8], region: Region, lin: LinearLayout) -> Result<()> {
    tile_parallel_job(s, linear, tiled, region, lin, None)
}

/// [`untile_part`] split over the current rayon pool: streaming is decided from the job's
/// size against `parallel_streaming_threshold_bytes` (feature `rayon`). The bytes equal
/// [`untile`]'s.
#[cfg(feature = "rayon")]
pub fn untile_part_parallel(
    s: &Surface,
    tiled: &[u8],
    linear: &mut [u8],
    region: Region,
    lin: LinearLayout,
    job_output_bytes: u64,
) -> Result<()> {
    untile_parallel_job(s, tiled, linear, region, lin, Some(job_output_bytes))
}

/// [`tile_part`] split over the current rayon pool (see [`untile_part_parallel`]).
#[cfg(feature = "rayon")]
pub fn tile_part_parallel(
    s: &Surface,
    linear: &[u8],
    tiled: &mut [u8],
    region: Region,
    lin: LinearLayout,
    job_output_bytes: u64,
) -> Result<()> {
    tile_parallel_job(s, linear, tiled, region, lin, Some(job_output_bytes))
}

/// [`untile_parallel`] and [`untile_part_parallel`] (see [`untile_job`]).
#[cfg(feature = "rayon")]
fn untile_parallel_job(
    s: &Surface,
    tiled: &[u8],
    linear: &mut [u8],
    region: Region,
    lin: LinearLayout,
    job: Option<u64>,
) -> Result<()> {
    let plan = Plan::new(s, region, lin, tiled.len(), linear.len())?;
    let whole = job.is_none();
    let job = job.unwrap_or(plan.linear_span as u64);
    let share = plan.parallel_share(plan.stream_linear_job(job, parallel_streaming_threshold_bytes()), job);
    run_parallel(&plan, false, whole, share, job, true, |share| untile_parallel_streamed(&plan, tiled, linear, share));
    Ok(())
}

/// [`run_single`] for a parallel job: `copy(share)` with the fixed rule's cached `share`, or,
/// where the job adapts ([`adaptive_key`]), with the share of the way `adapt` chooses
/// ([`choose_share`]), timed.
#[cfg(feature = "rayon")]
fn run_parallel(
    plan: &Plan,
    tile: bool,
    whole: bool,
    share: (u64, u64),
    job: u64,
    can_stream: bool,
    copy: impl FnOnce((u64, u64)),
) {
    if let Some((key, bytes)) = adaptive_key(plan, tile, true, whole, can_stream) {
        let (way, share) = choose_share(plan, key, share, job);
        timed(key, way, bytes, || copy(share));
        return;
    }
    copy(share);
}

/// The way and cached share an adaptive parallel job takes (see `adapt`), the fixed rule's
/// share (`fixed`) offered first: all cached `(1, 1)`, the share of
/// [`Plan::parallel_share`] where it keeps part of the job cached, all streamed `(0, job)`.
#[cfg(feature = "rayon")]
fn choose_share(plan: &Plan, key: adapt::Key, fixed: (u64, u64), job: u64) -> (adapt::Way, (u64, u64)) {
    use adapt::Way;
    let way_of = |s: (u64, u64)| match s {
        (c, of) if c >= of => Way::Cached,
        (0, _) => Way::Streamed,
        _ => Way::Share,
    };
    let partial = plan.parallel_share(true, job);
    let way = adapt::choose(key, &fixed_first(way_of(fixed), way_of(partial) == Way::Share));
    let chosen = match way {
        Way::Cached => (1, 1),
        Way::Share => partial,
        Way::Streamed => (0, job.max(1)),
    };
    (way, chosen)
}

/// [`tile_parallel`] and [`tile_part_parallel`] (see [`untile_job`]).
#[cfg(feature = "rayon")]
fn tile_parallel_job(
    s: &Surface,
    linear: &[u8],
    tiled: &mut [u8],
    region: Region,
    lin: LinearLayout,
    job: Option<u64>,
) -> Result<()> {
    let plan = Plan::new(s, region, lin, tiled.len(), linear.len())?;
    let whole = job.is_none();
    let job = job.unwrap_or(plan.tiled_span as u64);
    let share = plan.parallel_share(plan.stream_tiled_job(tiled, job, parallel_streaming_threshold_bytes()), job);
    let can_stream = plan.stream_tiled_job(tiled, job, 1);
    run_parallel(&plan, true, whole, share, job, can_stream, |share| {
        tile_parallel_streamed(&plan, linear, tiled, share)
    });
    Ok(())
}

/// Small plans run on the calling thread ([`PARALLEL_THRESHOLD_BYTES`]), streamed unless
/// the whole share is cached; the others split, the cached share of their tasks
/// ([`Plan::parallel_share`]) with ordinary stores, the rest streamed. Blocklinear untile that
/// streams whole splits by byte columns where every thread gets at least 4096 bytes of each
/// row (`kernels::untile_columns_par`), else by bands of rows.
#[cfg(feature = "rayon")]
fn untile_parallel_streamed(plan: &Plan, tiled: &[u8], linear: &mut [u8], share: (u64, u64)) {
    if plan.linear_span < PARALLEL_THRESHOLD_BYTES {
        untile_streamed(plan, tiled, linear, share.0 < share.1);
    } else if share.0 > 0 || !kernels::untile_columns_par(plan, tiled, linear) {
        kernels::untile_planned_par::<kernels::Raw<false>, kernels::Raw<true>>(plan, tiled, linear, share);
    }
}

/// [`untile_parallel_streamed`]'s twin for tile.
#[cfg(feature = "rayon")]
fn tile_parallel_streamed(plan: &Plan, linear: &[u8], tiled: &mut [u8], share: (u64, u64)) {
    if plan.tiled_span < PARALLEL_THRESHOLD_BYTES {
        tile_streamed(plan, linear, tiled, share.0 < share.1);
    } else {
        kernels::tile_planned_par::<kernels::Raw<false>, kernels::Raw<true>>(plan, linear, tiled, share);
    }
}

/// The safe twin of [`untile`]: the same kernels with bounds-checked slice copies instead of
/// raw pointer copies. Tests compare the two.
pub fn untile_checked(s: &Surface, tiled: &[u8], linear: &mut [u8], region: Region, lin: LinearLayout) -> Result<()> {
    let plan = Plan::new(s, region, lin, tiled.len(), linear.len())?;
    kernels::untile_planned::<kernels::Safe>(&plan, tiled, linear);
    Ok(())
}

/// The safe twin of [`tile`].
pub fn tile_checked(s: &Surface, linear: &[u8], tiled: &mut [u8], region: Region, lin: LinearLayout) -> Result<()> {
    let plan = Plan::new(s, region, lin, tiled.len(), linear.len())?;
    kernels::tile_planned::<kernels::Safe>(&plan, linear, tiled);
    Ok(())
}

/// Plain reference implementation: byte by byte through [`Surface::offset_of_byte`]. Slow; the
/// property tests compare every fast path against it.
pub fn untile_reference(s: &Surface, tiled: &[u8], linear: &mut [u8], region: Region, lin: LinearLayout) -> Result<()> {
    let plan = Plan::new(s, region, lin, tiled.len(), linear.len())?;
    for z in region.z..region.z + region.d {
        for y in region.y..region.y + region.h {
            for xb in plan.xb[0]..plan.xb[1] {
                let t = s.offset_of_byte(xb as u64, y, z)? as usize;
                linear[plan.linear_offset(xb, y, z)] = tiled[t];
            }
        }
    }
    Ok(())
}

/// Reference twin of [`tile`].
pub fn tile_reference(s: &Surface, linear: &[u8], tiled: &mut [u8], region: Region, lin: LinearLayout) -> Result<()> {
    let plan = Plan::new(s, region, lin, tiled.len(), linear.len())?;
    for z in region.z..region.z + region.d {
        for y in region.y..region.y + region.h {
            for xb in plan.xb[0]..plan.xb[1] {
                let t = s.offset_of_byte(xb as u64, y, z)? as usize;
                tiled[t] = linear[plan.linear_offset(xb, y, z)];
            }
        }
    }
    Ok(())
}

#[cfg(all(test, feature = "rayon"))]
mod parallel_share_tests {
    use super::{parallel_cached_share, LinearLayout, Plan, Region, NARROW_ROW_BYTES};
    use crate::layout::{BlockLinear, BlockLinearParams, GobOrder, Surface};
    use crate::Gpu;

    /// The share [`Plan::parallel_share`] gives a whole Tegra surface of 4-byte elements.
    fn share(size: [u32; 3], block_log2: [u32; 3], streams: bool) -> ((u64, u64), u64) {
        let mut p = BlockLinearParams::new(Gpu::Gm20b, 4, size, block_log2);
        p.gob_order = GobOrder::Tegra;
        p.auto_size = Some(false);
        let s = Surface::BlockLinear(BlockLinear::new(&p).unwrap());
        let region = Region::whole(&s);
        let lin = LinearLayout::packed(&region, 4);
        let job = lin.slice_pitch_bytes * u64::from(size[2]);
        let plan = Plan::new(&s, region, lin, s.size_bytes() as usize, job as usize).unwrap();
        (plan.parallel_share(streams, job), job)
    }

    #[test]
    fn deep_blocks_and_narrow_rows_stream_whole() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        pool.install(|| {
            // Jobs of at most 2 MiB: the cache budget (4 x a threshold of at least 1 MiB)
            // keeps all of them cached, so the rule's exceptions are the only way to (0, job).
            for size in [[2048, 64, 1], [512, 256, 1]] {
                let (got, job) = share(size, [0, 4, 0], true);
                assert_eq!(parallel_cached_share(job), (job, job), "{size:?}: the budget keeps it all");
                assert_eq!(got, (job, job), "{size:?}: wide 2D rows keep the share");
            }
            assert_eq!(512 * 4, NARROW_ROW_BYTES, "2 KiB rows are the narrowest that keep a share");
            // Rows narrower than 2 KiB, and blocks more than one slice deep, stream whole.
            for (size, block) in [([511, 256, 1], [0, 4, 0]), ([256, 512, 1], [0, 4, 0]), ([1024, 128, 4], [0, 4, 2])] {
                let (got, job) = share(size, block, true);
                assert_eq!(got, (0, job), "{size:?} {block:?}");
            }
            // A job that does not stream keeps all of its output cached, whatever its shape.
            assert_eq!(share([256, 512, 1], [0, 4, 0], false).0, (1, 1));
            assert_eq!(share([1024, 128, 4], [0, 4, 2], false).0, (1, 1));
        });
    }
}
