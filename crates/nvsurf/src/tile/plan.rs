//! The checked copy plan: a surface, a region and a linear layout, proved against both
//! buffers' lengths once, converted to `usize`, so that the kernels index without checks of
//! their own. Also where a plan decides whether its output is written with streaming stores
//! (the size rules themselves are in module `streaming`).

use super::options::{CopyOptions, Knobs};
use super::region::{LinearLayout, Region};
#[cfg(feature = "rayon")]
use super::streaming::{cached_share_for, NARROW_ROW_BYTES};
use crate::cpu::VectorLevel;
use crate::error::{Error, Result};
use crate::layout::Surface;

/// A checked copy plan: everything the kernels need, all in `usize`, all in bounds, and the
/// call's options resolved once. Internal: public for the tests and the CLI's up-front checks.
#[doc(hidden)]
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
    /// The call's [`CopyOptions`], resolved.
    pub(crate) knobs: Knobs,
}

fn to_usize(what: &'static str, v: u64) -> Result<usize> {
    usize::try_from(v).map_err(|_| Error::Overflow { what, detail: alloc::format!("{v} does not fit in usize") })
}

// Here rather than in `region` (which the plan imports), so that `region` needs nothing above it.
impl LinearLayout {
    /// The bytes of a linear buffer that a copy of `region` of `s` with this layout reads or
    /// writes: up to the end of the last row (which need not be padded to the pitch), after
    /// the checks every copy makes (the region inside the surface, the pitches large enough,
    /// no overflow). A linear buffer of this length is long enough for [`super::untile_with`]
    /// and [`super::tile_with`].
    pub fn span_bytes(&self, s: &Surface, region: &Region) -> Result<usize> {
        Plan::new(s, *region, *self, usize::MAX, usize::MAX).map(|p| p.linear_span)
    }
}

impl Plan {
    /// Checks the region, the linear layout and both buffer lengths.
    pub fn new(s: &Surface, region: Region, lin: LinearLayout, tiled_len: usize, linear_len: usize) -> Result<Plan> {
        Plan::with_options(s, region, lin, tiled_len, linear_len, &CopyOptions::default())
    }

    /// [`Plan::new`] for a call with `opts` (resolved here, once).
    pub fn with_options(
        s: &Surface,
        region: Region,
        lin: LinearLayout,
        tiled_len: usize,
        linear_len: usize,
        opts: &CopyOptions,
    ) -> Result<Plan> {
        region.check(s)?;
        let es = u64::from(s.elem_size_bytes());
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
            knobs: opts.resolve(),
        })
    }

    /// The single-thread streaming threshold in bytes this plan's call uses.
    pub fn streaming_threshold_bytes(&self) -> usize {
        self.knobs.threshold_bytes
    }

    /// The widest vector kernels this plan's call may use on this CPU.
    pub fn vector_level(&self) -> VectorLevel {
        self.knobs.caps.level()
    }

    /// Whether this plan's call may adapt its stores to its timings (module `adapt`).
    pub fn adaptive_streaming(&self) -> bool {
        self.knobs.adaptive
    }

    /// Whether tile should stream its tiled output: large and 64-byte aligned (gobs are whole
    /// lines).
    pub fn stream_tiled(&self, tiled: &[u8]) -> bool {
        self.stream_tiled_from(tiled, self.knobs.threshold_bytes)
    }

    /// [`Plan::stream_tiled`] with another size threshold in bytes (the parallel paths use
    /// `parallel_streaming_threshold_bytes` (feature `rayon`)).
    pub fn stream_tiled_from(&self, tiled: &[u8], threshold_bytes: usize) -> bool {
        self.stream_tiled_job(tiled, self.tiled_span as u64, threshold_bytes)
    }

    /// [`Plan::stream_tiled_from`] for a copy that is one part of a job writing `job_bytes`
    /// in all: the job's size, not the plan's, is held against the threshold.
    pub(crate) fn stream_tiled_job(&self, tiled: &[u8], job_bytes: u64, threshold_bytes: usize) -> bool {
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
    /// Measured: [docs/perf/parallel-streaming.md](../../../../docs/perf/parallel-streaming.md).
    #[cfg(feature = "rayon")]
    pub(crate) fn parallel_share(&self, streams: bool, job_output_bytes: u64) -> (u64, u64) {
        let all_streamed = (0, job_output_bytes.max(1));
        match &self.surface {
            _ if !streams => (1, 1),
            Surface::BlockLinear(b) if b.block_extent_bytes_rows_slices()[2] > 1 => all_streamed,
            Surface::BlockLinear(_) if self.xb[1] - self.xb[0] < NARROW_ROW_BYTES => all_streamed,
            _ => cached_share_for(self.knobs.threshold_bytes, job_output_bytes),
        }
    }

    /// Whether untile streams the linear image past the caches: blocklinear surfaces whose
    /// linear image is at least [`streaming_threshold_bytes`]. Only whole 64-byte lines
    /// written by the AVX-512 or AVX2 gob kernels stream (the others are ordinary stores):
    /// rows on line boundaries, or rows 4-byte aligned a whole number of lines apart, whose
    /// lines the kernels put together from two gobs; the kernels decide that per run of
    /// gobs, so `linear`'s alignment is not consulted here (it was before untile could
    /// stream into rows off a line boundary; the parameter stays for the API). Streamed full lines
    /// measured faster, streamed 16-byte pieces slower than ordinary stores
    /// ([docs/perf/streaming-threshold.md](../../../../docs/perf/streaming-threshold.md)).
    pub fn stream_linear(&self, linear: &[u8]) -> bool {
        self.stream_linear_from(linear, self.knobs.threshold_bytes)
    }

    /// [`Plan::stream_linear`] with another size threshold in bytes.
    pub fn stream_linear_from(&self, linear: &[u8], threshold_bytes: usize) -> bool {
        let _ = linear;
        self.stream_linear_job(self.linear_span as u64, threshold_bytes)
    }

    /// [`Plan::stream_linear_from`] for one part of a job writing `job_bytes` in all.
    pub(crate) fn stream_linear_job(&self, job_bytes: u64, threshold_bytes: usize) -> bool {
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

#[cfg(all(test, feature = "rayon"))]
mod parallel_share_tests {
    use crate::layout::{BlockLinear, BlockLinearParams, GobOrder, Surface};
    use crate::tile::plan::Plan;
    use crate::tile::region::{LinearLayout, Region};
    use crate::tile::streaming::{parallel_cached_share, NARROW_ROW_BYTES};
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
