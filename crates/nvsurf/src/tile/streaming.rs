//! Where streaming (non-temporal) stores start to pay: the output-size thresholds of the
//! single-thread and parallel copies, scaled from the level-3 cache, the process-wide
//! override, and the share of a parallel job kept in the cache. Pure size rules; the copies
//! apply them through their plan, and module `adapt` replaces them by timings where it can.

/// Outputs of at least this many bytes are written with streaming (non-temporal) stores on
/// x86_64 (tile: the tiled side, `Plan::stream_tiled`; untile: the linear side, whole lines
/// only, `Plan::stream_linear`): streaming avoids reading every output line before writing
/// it. Smaller outputs stay in the cache for whoever reads them next. Where the data fits the
/// level-3 cache with memcpy's, cached stores win; above, streaming does
/// ([docs/perf/streaming-threshold.md](../../../../docs/perf/streaming-threshold.md)).
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
/// threads share, while the cache's bandwidth grows with the threads; its streamed rounds measured
/// slower at the single-thread threshold
/// ([docs/perf/parallel-streaming.md](../../../../docs/perf/parallel-streaming.md)).
/// Streaming stays; a streaming job keeps part of its output cached
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
/// Keeping that share cached let the threads use the cache's bandwidth and the memory's at once
/// ([docs/perf/parallel-streaming.md](../../../../docs/perf/parallel-streaming.md)).
///
/// Decision: the 7/8 is this machine's (a quarter of a 16 MiB output kept, all of a 14 MiB
/// one, which makes the rule continuous at the two-thread threshold); pools of more threads,
/// which this project cannot measure, get the same cache budget.
#[cfg(feature = "rayon")]
pub fn parallel_cached_share(job_output_bytes: u64) -> (u64, u64) {
    cached_share_for(streaming_threshold_bytes(), job_output_bytes)
}

/// [`parallel_cached_share`] for the single-thread streaming threshold `threshold_bytes`.
#[cfg(feature = "rayon")]
pub(crate) fn cached_share_for(threshold_bytes: usize, job_output_bytes: u64) -> (u64, u64) {
    let job = job_output_bytes.max(1);
    if rayon::current_num_threads() < 2 {
        return (0, job);
    }
    let budget = (threshold_bytes as u64).saturating_mul(4);
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
