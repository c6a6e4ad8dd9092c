//! The glue between a copy and adaptive streaming: each whole blocklinear job large enough to
//! adapt is keyed, offered the ways it may write its output (the fixed rule's first), run the
//! way module `adapt` chooses, and timed; every other job runs the fixed rule's way.

#[cfg(feature = "std")]
use super::adapt;
use super::plan::Plan;
#[cfg(feature = "std")]
use super::streaming::NARROW_ROW_BYTES;
#[cfg(feature = "std")]
use crate::layout::Surface;

/// Runs `copy(stream)` for a single-thread job (`tile` or untile): with the fixed rule's
/// `stream`, or, where the job adapts ([`adaptive_key`]), with the way `adapt` chooses,
/// timed.
pub(crate) fn run_single(
    plan: &Plan,
    tile: bool,
    whole: bool,
    stream: bool,
    can_stream: bool,
    copy: impl FnOnce(bool),
) {
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
        || !plan.knobs.adaptive
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

/// [`run_single`] for a parallel job: `copy(share)` with the fixed rule's cached `share`, or,
/// where the job adapts ([`adaptive_key`]), with the share of the way `adapt` chooses
/// ([`choose_share`]), timed.
#[cfg(feature = "rayon")]
pub(crate) fn run_parallel(
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
