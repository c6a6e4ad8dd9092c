//! Adaptive streaming: for large blocklinear copies, the choice between ordinary (cached) and
//! streaming (non-temporal) stores is made from this process's own timings instead of a
//! fixed size threshold alone (feature `std`: it needs a clock).
//!
//! # Why
//! Where streaming pays is a property of the machine at the time, not of the output's size:
//! it trades the reads of every output line before it is written (ordinary stores) against
//! leaving the output in memory instead of the cache. Two development machines of this project
//! disagreed outright on which sizes gain from streaming
//! ([docs/perf/adaptive-streaming.md](../../../../docs/perf/adaptive-streaming.md)).
//!
//! So a copy that is large enough for the choice to matter ([`ADAPT_MIN_BYTES`]) tries the
//! ways it could write its output and keeps timing them: each key ([`Key`]: direction, one
//! thread or a pool, the surface's class, the job's size to a power of two) keeps, per way
//! ([`Way`]), the median of its last [`WINDOW`] timed calls, in nanoseconds per output byte
//! (a median, as one slow call, a neighbour's burst or a first call's page faults, must not
//! decide). A key's first
//! calls learn: [`LEARN_RUNS`] runs of [`EXPLORE_RUN`] calls of each way in turn, the fixed
//! rule's way first (so a program that copies once gets the fixed rule); after that the
//! fastest (the way taken last stays while it is within [`KEEP_MARGIN`] of it), except a run
//! of [`EXPLORE_RUN`] calls in every [`EXPLORE_EVERY`], which tries another way in turn, so
//! that the choice follows the machine when its load changes. A call right after a change of
//! way is not timed: it pays for the other way's cache state. The bytes written never depend
//! on the choice. The size in a key and the bytes a time is divided by are the bytes the copy
//! writes (its region's), not the surface's.
//!
//! # Decisions
//! - Only the caller's own time is weighed. A consumer that reads the output next pays for a
//!   streamed output that the timing does not see; callers who know where their data goes set
//!   a fixed threshold ([`super::set_streaming_threshold_bytes`], which turns this off) or turn
//!   it off with [`set_adaptive_streaming`].
//! - Parts of a larger job (texture levels: [`CopyOptions::job_output_bytes`](super::CopyOptions::job_output_bytes)) keep the fixed
//!   rule: their timings overlap and do not stand for the job.
//! - Only blocklinear copies adapt, as only they stream. Streaming stores in the swizzle
//!   chunk-pair tile kernel were tried and not kept.
//! - Outputs under [`ADAPT_MIN_BYTES`] (2 MiB, within reach of the level-2 caches of two
//!   cores) keep the fixed rule: exploring costs more than it can gain there. So do outputs
//!   of at least the level-3 cache's size ([`adapt_max_bytes`]), which the fixed rule streams.

use core::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// Copies writing at least this many bytes adapt; smaller ones keep the fixed rule.
pub const ADAPT_MIN_BYTES: u64 = 2 << 20;

/// Copies writing fewer than this many bytes adapt: the level-3 cache's size
/// ([`crate::cpu::l3_cache_bytes`], 32 MiB where it is unknown). A larger output cannot stay
/// in the cache, so writing it with ordinary stores only adds the reads of every line before
/// it is written; the fixed rule streams it and timing
/// the other way would cost its learning runs for nothing.
pub fn adapt_max_bytes() -> u64 {
    crate::cpu::l3_cache_bytes().unwrap_or(32 << 20)
}

/// Of every this many calls of a key (once each of its ways is timed), the last
/// [`EXPLORE_RUN`] take a way other than the fastest, in turn.
pub const EXPLORE_EVERY: u64 = 64;

/// How many calls in a row a way other than the fastest is tried for. A call right after a
/// change of way is not timed (`record`): it pays for the previous way's cache state (the
/// dirty lines a cached output left, or the lines a streamed output took out of the cache),
/// so a way tried once in a while looked slower than it runs
/// ([docs/perf/adaptive-streaming.md](../../../../docs/perf/adaptive-streaming.md)).
pub const EXPLORE_RUN: u64 = 4;

/// A key's first calls learn: runs of [`EXPLORE_RUN`] calls of each way in turn, this many
/// runs of each (the fixed rule's way first), so that the first choice rests on
/// `LEARN_RUNS * (EXPLORE_RUN - 1)` timed calls of each way, not on one call each
/// ([docs/perf/adaptive-streaming.md](../../../../docs/perf/adaptive-streaming.md)).
pub const LEARN_RUNS: u64 = 2;

/// How to write a job's output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Way {
    /// Ordinary stores: the output stays in the cache.
    Cached = 0,
    /// Parallel jobs only: the share of `parallel_cached_share` (feature `rayon`) cached, the rest
    /// streamed (offered only where that share is neither none nor all of the job).
    Share = 1,
    /// Streaming stores for all of the output.
    Streamed = 2,
}

/// What a copy's timings are kept under: direction (tile or untile), one thread or a pool of
/// several, the surface's class (0: blocks one slice deep with rows of at least
/// [`super::NARROW_ROW_BYTES`] bytes; 1: blocks more than one slice deep; 2: narrower rows, the classes
/// `Plan::parallel_share` tells apart) and log2 of the bytes the copy writes, rounded down
/// (20 to 40; larger copies share 40). Built only by [`Key::new`], which clamps each part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    tile: bool,
    parallel: bool,
    class: u8,
    size_log2: u8,
}

const SIZES: usize = 21;
const KEYS: usize = 2 * 2 * 3 * SIZES;
const WAYS: usize = 3;

/// How much slower (a fraction) than the fastest way the way taken last may be and still be
/// kept (see `pick`).
pub const KEEP_MARGIN: f64 = 0.05;

/// How many of a way's last timed calls its figure is the median of.
pub const WINDOW: usize = 5;

/// Per key: the calls so far, the way of the last recorded call (`WAYS`: none yet), then per
/// way the timed calls so far and the last [`WINDOW`] of them in nanoseconds per byte (f64
/// bits), in a ring.
struct Slot {
    calls: AtomicU64,
    last_way: AtomicU64,
    timed: [AtomicU64; WAYS],
    ns_per_byte: [[AtomicU64; WINDOW]; WAYS],
}

#[allow(clippy::declare_interior_mutable_const)]
const EMPTY: Slot = Slot {
    calls: AtomicU64::new(0),
    last_way: AtomicU64::new(WAYS as u64),
    timed: [const { AtomicU64::new(0) }; WAYS],
    ns_per_byte: [const { [const { AtomicU64::new(0) }; WINDOW] }; WAYS],
};
static SLOTS: [Slot; KEYS] = [EMPTY; KEYS];
static DISABLED: AtomicBool = AtomicBool::new(false);

/// Turns adaptive streaming on (the default) or off for the whole process; returns whether it
/// was on. Off, every copy follows the fixed thresholds. (A threshold set with
/// [`super::set_streaming_threshold_bytes`] also turns it off while it is set.)
#[doc(hidden)]
pub fn set_adaptive_streaming(on: bool) -> bool {
    !DISABLED.swap(!on, Relaxed)
}

/// Whether copies adapt: on, and no fixed threshold set.
pub fn adaptive_streaming() -> bool {
    !DISABLED.load(Relaxed) && !super::streaming::threshold_is_set()
}

impl Key {
    /// The key of a copy writing `bytes` bytes (`tile`: linear -> tiled; `parallel`: split
    /// over a pool of more than one thread; `class` as in [`Key`], larger values taken as 2).
    pub fn new(tile: bool, parallel: bool, class: u8, bytes: u64) -> Key {
        let size_log2 = (63 - bytes.max(1).leading_zeros()).clamp(20, 40) as u8;
        Key { tile, parallel, class: class.min(2), size_log2 }
    }

    /// log2 of the bytes the key's copies write, as kept (20 to 40).
    pub fn size_log2(&self) -> u8 {
        self.size_log2
    }

    fn index(&self) -> usize {
        let size = usize::from(self.size_log2.clamp(20, 40) - 20);
        ((usize::from(self.tile) * 2 + usize::from(self.parallel)) * 3 + usize::from(self.class.min(2))) * SIZES + size
    }
}

/// The way a call takes, from the calls so far (`calls`, this one not counted), the figures
/// of each way (medians; `None`: not timed), the ways this job may take (`ways`, the fixed
/// rule's first; an empty list is taken as cached only) and the way of the last timed call.
/// Pure, for the tests: first [`LEARN_RUNS`] runs of [`EXPLORE_RUN`] calls of each way in
/// turn; then a way not timed yet (concurrent calls can leave one so), in the order cached,
/// share, streamed (not the fixed rule's, which can change from call to call within a key);
/// then the last [`EXPLORE_RUN`] calls of every [`EXPLORE_EVERY`] take one of the ways other
/// than the fastest, in turn, and the others the fastest, or the way taken last while that
/// is at most [`KEEP_MARGIN`] slower than the fastest.
pub(crate) fn pick(calls: u64, averages: [Option<f64>; WAYS], ways: &[Way], last: Option<Way>) -> Way {
    let n = ways.len() as u64;
    if n == 0 {
        return Way::Cached;
    }
    let run = calls / EXPLORE_RUN;
    if run < LEARN_RUNS * n {
        return ways[(run % n) as usize];
    }
    let canonical = [Way::Cached, Way::Share, Way::Streamed];
    if let Some(&w) = canonical.iter().find(|w| ways.contains(w) && averages[**w as usize].is_none()) {
        return w;
    }
    let time = |w: &Way| averages[*w as usize].unwrap_or(f64::INFINITY);
    let fastest = ways.iter().copied().min_by(|a, b| time(a).total_cmp(&time(b))).unwrap_or(ways[0]);
    if calls % EXPLORE_EVERY >= EXPLORE_EVERY - EXPLORE_RUN {
        // The same way for the whole run, whatever the last call took: the fastest by the
        // figures alone is left out (with the way taken last, the run would swap ways each
        // call, and no call of it would be timed).
        let mut others = canonical.iter().copied().filter(|w| ways.contains(w) && *w != fastest);
        let count = others.clone().count() as u64;
        if let Some(k) = ((calls / EXPLORE_EVERY) as usize).checked_rem(count as usize) {
            return others.nth(k).unwrap_or(fastest);
        }
        return fastest;
    }
    // The way taken last stays while it is at most [`KEEP_MARGIN`] slower than the fastest:
    // two ways within the noise of each other would otherwise take turns, paying for each
    // change.
    match last.filter(|l| ways.contains(l)) {
        Some(l) if time(&l) <= time(&fastest) * (1.0 + KEEP_MARGIN) => l,
        _ => fastest,
    }
}

/// The median of `samples` (the upper one of an even count); `None` for none.
pub fn median(samples: &[f64]) -> Option<f64> {
    let mut v = [0f64; WINDOW];
    let n = samples.len().min(WINDOW);
    v[..n].copy_from_slice(&samples[..n]);
    v[..n].sort_by(|a, b| a.total_cmp(b));
    (n > 0).then(|| v[n / 2])
}

/// Each way's figure: the median of the samples in its ring (a slot of 0 bits, not written
/// yet, is no sample).
fn load(slot: &Slot) -> [Option<f64>; WAYS] {
    core::array::from_fn(|w| {
        let mut v = [0f64; WINDOW];
        let mut n = 0;
        for cell in &slot.ns_per_byte[w] {
            let bits = cell.load(Relaxed);
            if bits != 0 {
                v[n] = f64::from_bits(bits);
                n += 1;
            }
        }
        median(&v[..n])
    })
}

/// Chooses the way for a call under `key` among `ways` (the fixed rule's way first).
pub(crate) fn choose(key: Key, ways: &[Way]) -> Way {
    let slot = &SLOTS[key.index()];
    let calls = slot.calls.fetch_add(1, Relaxed);
    let last = match slot.last_way.load(Relaxed) {
        0 => Some(Way::Cached),
        1 => Some(Way::Share),
        2 => Some(Way::Streamed),
        _ => None,
    };
    pick(calls, load(slot), ways, last)
}

/// Records that a call under `key` took `way` and `nanos` nanoseconds for `bytes` written
/// bytes; a call whose way differs from the previous call's is not timed (see
/// [`EXPLORE_RUN`]). Concurrent calls each take a ring slot of their own (two calls at once
/// may both count as following a change of way, and so go untimed).
pub(crate) fn record(key: Key, way: Way, nanos: u64, bytes: u64) {
    let slot = &SLOTS[key.index()];
    if slot.last_way.swap(way as u64, Relaxed) != way as u64 {
        return;
    }
    // At least 1e-6 ns/B, so that a sample is never the 0 bits of an empty slot.
    let sample = ((nanos.max(1) as f64) / (bytes.max(1) as f64)).max(1e-6);
    let i = slot.timed[way as usize].fetch_add(1, Relaxed) as usize % WINDOW;
    slot.ns_per_byte[way as usize][i].store(sample.to_bits(), Relaxed);
}

/// The figures kept under `key`, per [`Way`]: the median of its last [`WINDOW`] timed calls
/// in nanoseconds per byte (`None`: not timed).
pub fn averages(key: Key) -> [Option<f64>; WAYS] {
    load(&SLOTS[key.index()])
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOTH: [Way; 2] = [Way::Cached, Way::Streamed];

    #[test]
    fn each_way_learns_in_runs_the_fixed_rules_first() {
        let learn: Vec<Way> = (0..2 * LEARN_RUNS * EXPLORE_RUN).map(|c| pick(c, [None; 3], &BOTH, None)).collect();
        let run = EXPLORE_RUN as usize;
        assert!(learn[..run].iter().all(|w| *w == Way::Cached));
        assert!(learn[run..2 * run].iter().all(|w| *w == Way::Streamed));
        assert!(learn[2 * run..3 * run].iter().all(|w| *w == Way::Cached));
        let fixed_streamed = pick(0, [None; 3], &[Way::Streamed, Way::Cached], None);
        assert_eq!(fixed_streamed, Way::Streamed);
        // After learning, a way that is still untimed goes first.
        let after = 2 * LEARN_RUNS * EXPLORE_RUN;
        assert_eq!(pick(after, [Some(1.0), None, None], &BOTH, None), Way::Streamed);
        let three = [Way::Cached, Way::Share, Way::Streamed];
        assert_eq!(pick(3 * LEARN_RUNS * EXPLORE_RUN, [Some(1.0), None, Some(2.0)], &three, None), Way::Share);
        assert_eq!(pick(5, [None; 3], &[Way::Cached], None), Way::Cached);
        // Untimed after learning: cached, share, streamed, whatever the fixed rule's order
        // (which can change from call to call within a key).
        assert_eq!(pick(after, [None; 3], &[Way::Streamed, Way::Cached], None), Way::Cached);
        assert_eq!(pick(after, [None; 3], &[Way::Cached, Way::Streamed], None), Way::Cached);
        assert_eq!(pick(7, [None; 3], &[], None), Way::Cached, "no ways: cached");
        assert_eq!(pick(700, [Some(1.0); 3], &[], Some(Way::Streamed)), Way::Cached);
    }

    #[test]
    fn an_exploration_run_keeps_one_way_whatever_the_last_call_took() {
        // Within KEEP_MARGIN of each other: the hysteresis must not swap the explored way
        // call by call (no call of the run would then be timed).
        let close = [Some(1.04), None, Some(1.0)];
        let start = EXPLORE_EVERY - EXPLORE_RUN;
        let mut last = Some(Way::Streamed);
        for c in start..EXPLORE_EVERY {
            let w = pick(c, close, &BOTH, last);
            assert_eq!(w, Way::Cached, "call {c}");
            last = Some(w);
        }
        // After the run, the explored way stays while it is within the margin.
        assert_eq!(pick(EXPLORE_EVERY, close, &BOTH, last), Way::Cached);
    }

    #[test]
    fn the_fastest_except_a_run_of_others_every_period() {
        let avg = [Some(2.0), None, Some(1.0)];
        let picks: Vec<Way> = (EXPLORE_EVERY..5 * EXPLORE_EVERY).map(|c| pick(c, avg, &BOTH, None)).collect();
        let explored = picks.iter().filter(|w| **w == Way::Cached).count() as u64;
        assert_eq!(explored, 4 * EXPLORE_RUN, "a run of the slower way per period");
        for c in EXPLORE_EVERY..2 * EXPLORE_EVERY {
            let want = if c >= 2 * EXPLORE_EVERY - EXPLORE_RUN { Way::Cached } else { Way::Streamed };
            assert_eq!(pick(c, avg, &BOTH, None), want, "call {c}");
        }
        // Three ways: the two slower ones in turn, a run each.
        let three = [Some(3.0), Some(1.0), Some(2.0)];
        let all = [Way::Cached, Way::Share, Way::Streamed];
        assert_eq!(pick(EXPLORE_EVERY, three, &all, None), Way::Share);
        assert_eq!(pick(EXPLORE_EVERY - 1, three, &all, None), Way::Cached);
        assert_eq!(pick(2 * EXPLORE_EVERY - EXPLORE_RUN, three, &all, None), Way::Streamed);
        // One way: always it.
        assert_eq!(pick(EXPLORE_EVERY - 1, three, &[Way::Cached], None), Way::Cached);
        // The way taken last stays within KEEP_MARGIN of the fastest, not beyond.
        let close = [Some(1.04), None, Some(1.0)];
        assert_eq!(pick(EXPLORE_EVERY, close, &BOTH, Some(Way::Cached)), Way::Cached);
        assert_eq!(pick(EXPLORE_EVERY, close, &BOTH, None), Way::Streamed);
        let far = [Some(1.06), None, Some(1.0)];
        assert_eq!(pick(EXPLORE_EVERY, far, &BOTH, Some(Way::Cached)), Way::Streamed);
        assert_eq!(pick(EXPLORE_EVERY, far, &BOTH, Some(Way::Share)), Way::Streamed, "not one of the ways");
    }

    #[test]
    fn figures_are_medians_of_the_last_samples() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[3.0]), Some(3.0));
        assert_eq!(median(&[9.0, 1.0]), Some(9.0), "upper median");
        assert_eq!(median(&[0.56, 0.08, 0.09, 0.07, 0.08]), Some(0.08), "one slow call does not decide");
        // The ring keeps the last WINDOW samples: a key of its own (its first call, a change
        // of way from none, is not timed).
        let key = Key::new(false, true, 1, 1 << 38);
        for s in [50, 50, 50, 50, 50, 50, 2, 2] {
            record(key, Way::Share, s, 1);
        }
        assert_eq!(averages(key)[Way::Share as usize], Some(50.0), "two of five new");
        record(key, Way::Share, 2, 1);
        assert_eq!(averages(key)[Way::Share as usize], Some(2.0), "three of five new");
    }

    #[test]
    fn concurrent_records_never_make_a_sample_of_nothing() {
        // Threads recording on one key at once: every figure is one of the recorded values,
        // never an empty ring slot read as 0 ns/B.
        let key = Key::new(true, false, 2, 1 << 37);
        std::thread::scope(|sc| {
            for _ in 0..4 {
                sc.spawn(|| {
                    for _ in 0..2000 {
                        record(key, Way::Streamed, 5, 1);
                        record(key, Way::Streamed, 5, 1);
                    }
                });
            }
        });
        assert_eq!(averages(key)[Way::Streamed as usize], Some(5.0));
        assert_eq!(averages(key)[Way::Cached as usize], None);
    }

    #[test]
    fn keys_are_distinct_and_sizes_clamped() {
        let mut seen = std::collections::HashSet::new();
        for tile in [false, true] {
            for parallel in [false, true] {
                for class in 0..3 {
                    for log2 in 20..=40u32 {
                        let k = Key::new(tile, parallel, class, 1u64 << log2);
                        assert!(k.index() < KEYS);
                        assert!(seen.insert(k.index()));
                    }
                }
            }
        }
        assert_eq!(Key::new(false, false, 0, 1).size_log2, 20);
        assert_eq!(Key::new(false, false, 0, u64::MAX).size_log2, 40);
        assert_eq!(Key::new(false, false, 9, 3 << 20).class, 2);
        assert_eq!(Key::new(false, false, 0, 3 << 20).size_log2, 21);
    }

    #[test]
    fn a_key_learns_which_way_is_faster_and_skips_changes_of_way() {
        // A key of its own (size 2^39) so other tests' copies do not share it. A call right
        // after a change of way costs 10x (the cache state the other way left).
        let key = Key::new(true, true, 1, 1 << 39);
        let mut taken: Vec<Way> = Vec::new();
        for _ in 0..4 * EXPLORE_EVERY {
            let w = choose(key, &BOTH);
            let steady = if w == Way::Streamed { 100 } else { 300 };
            let cost = if taken.last().is_some_and(|l| *l != w) { 10 * steady } else { steady };
            record(key, w, cost, 100);
            taken.push(w);
        }
        let learn = (2 * LEARN_RUNS * EXPLORE_RUN) as usize;
        assert_eq!(taken[..learn].iter().filter(|w| **w == Way::Cached).count(), learn / 2, "both ways learn");
        assert_eq!(taken[0], Way::Cached, "the fixed rule's way first");
        let streamed = taken[learn..].iter().filter(|w| **w == Way::Streamed).count();
        let explored = taken[learn..].iter().filter(|w| **w == Way::Cached).count();
        assert!(explored <= 4 * EXPLORE_RUN as usize, "only the runs of exploration: {explored}");
        assert!(
            streamed >= 4 * EXPLORE_EVERY as usize - learn - 4 * EXPLORE_RUN as usize,
            "the faster way otherwise: {streamed}"
        );
        // The changes of way were not timed: the averages are the steady costs.
        assert_eq!(averages(key), [Some(3.0), None, Some(1.0)]);
    }
}
