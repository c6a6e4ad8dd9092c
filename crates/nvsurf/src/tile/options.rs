//! The knobs of one copy as a value: [`CopyOptions`] (threads, streaming threshold, vector
//! limit, adaptive streaming, the job a part belongs to), taken by [`untile_with`] and
//! [`tile_with`](super::tile_with). Each call resolves its options once into its plan, so two
//! threads copying with different options at the same time do not affect each other; a field
//! left at `None` takes the process-wide default (automatic unless a test or debugging session
//! set one).
//!
//! [`untile_with`]: super::untile_with

#[cfg(feature = "std")]
use super::adapt;
use super::streaming::streaming_threshold_bytes;
use crate::cpu::{self, Caps, VectorLevel};

/// Which threads a copy runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Threads {
    /// The calling thread only (what `untile` and `tile` do).
    #[default]
    One,
    /// Split over the current rayon pool (feature `rayon`; what `untile_parallel` and
    /// `tile_parallel` do): run the call inside `pool.install` to choose the pool and so the
    /// number of threads. Without the feature, the calling thread only.
    CurrentPool,
}

/// The most worker threads a copy is given: 4x the machine's cores (more only queue behind
/// each other, and a typo such as 1024 would start a thousand threads). The CLI's
/// `--threads` and Python's `threads=` both refuse more.
#[cfg(feature = "std")]
pub fn max_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).saturating_mul(4)
}

/// How one copy runs: every field changes speed only, never the bytes written.
/// `CopyOptions::default()` is what the plain entry points ([`untile`](super::untile),
/// [`tile`](super::tile)) do.
///
/// ```
/// use nvsurf::cpu::VectorLevel;
/// use nvsurf::tile::{CopyOptions, Threads};
/// let opts = CopyOptions::default().threads(Threads::CurrentPool).vector_limit(VectorLevel::Avx2);
/// assert_eq!(opts.streaming_threshold_bytes, None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CopyOptions {
    /// Which threads run the copy (default: the calling thread).
    pub threads: Threads,
    /// Outputs of at least this many bytes are written with streaming (non-temporal) stores
    /// (parallel copies: this many per thread); `Some(0)` is taken as 1. Setting one turns
    /// adaptive streaming off unless [`CopyOptions::adaptive_streaming`] says otherwise.
    /// `None`: the process's threshold (7/32 of the level-3 cache unless set).
    pub streaming_threshold_bytes: Option<usize>,
    /// The widest vector kernels the copy may use (`None`: the process-wide cap, no cap unless
    /// set). Replaces the process-wide cap for this call, in both directions.
    pub vector_limit: Option<VectorLevel>,
    /// Whether large blocklinear copies choose between cached and streamed stores from their
    /// own timings (module `adapt`, feature `std`; the timings stay process-wide). `None`: on,
    /// unless a threshold is set (here or process-wide) or the process turned it off.
    pub adaptive_streaming: Option<bool>,
    /// This copy is one part of a larger job (a level of a texture) whose parts together write
    /// this many bytes: streaming is decided from the job's size, not the part's (what
    /// `untile_part` does). `None`: the copy is the whole job.
    pub job_output_bytes: Option<u64>,
    /// The memory budget of the allocating calls (`untile_to_buf`, `tile_to_buf` and the
    /// texture's): `None` is no budget; [`crate::Limits::from_machine`] is half the machine.
    pub limits: Option<crate::limits::Limits>,
}

impl CopyOptions {
    /// These options with `threads`.
    pub fn threads(mut self, threads: Threads) -> Self {
        self.threads = threads;
        self
    }

    /// These options with a fixed streaming threshold in bytes.
    pub fn streaming_threshold_bytes(mut self, bytes: usize) -> Self {
        self.streaming_threshold_bytes = Some(bytes);
        self
    }

    /// These options with the vector kernels capped at `level`.
    pub fn vector_limit(mut self, level: VectorLevel) -> Self {
        self.vector_limit = Some(level);
        self
    }

    /// These options with adaptive streaming on or off.
    pub fn adaptive_streaming(mut self, on: bool) -> Self {
        self.adaptive_streaming = Some(on);
        self
    }

    /// These options with a memory budget for the allocating calls.
    pub fn limits(mut self, limits: crate::limits::Limits) -> Self {
        self.limits = Some(limits);
        self
    }

    /// These options for one part of a job writing `bytes` in all.
    pub fn job_output_bytes(mut self, bytes: u64) -> Self {
        self.job_output_bytes = Some(bytes);
        self
    }

    /// The options resolved against the process-wide defaults, once per call.
    pub(crate) fn resolve(&self) -> Knobs {
        let limit = self.vector_limit.unwrap_or_else(cpu::vector_limit);
        let threshold_bytes = match self.streaming_threshold_bytes {
            Some(b) => b.max(1),
            None => streaming_threshold_bytes(),
        };
        #[cfg(feature = "std")]
        let adaptive = match self.adaptive_streaming {
            Some(on) => on,
            None => self.streaming_threshold_bytes.is_none() && adapt::adaptive_streaming(),
        };
        #[cfg(not(feature = "std"))]
        let adaptive = false;
        Knobs { caps: Caps::under(limit), threshold_bytes, adaptive }
    }
}

/// [`CopyOptions`] resolved for one call: what the plan carries to the kernels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Knobs {
    /// The vector kernels the call may use.
    pub(crate) caps: Caps,
    /// The single-thread streaming threshold in bytes (at least 1).
    pub(crate) threshold_bytes: usize,
    /// Whether whole blocklinear jobs adapt (module `adapt`).
    pub(crate) adaptive: bool,
}
