//! Copies split over the current rayon pool (feature `rayon`, `Threads::CurrentPool`): how they cut a job into tasks that own disjoint parts of the output (z slices and bands of
//! rows for untile, or byte columns when it streams; block rows, pitch bands or swizzle
//! sub-cubes for tile). The tasks run the same kernels as the single-thread path, so the bytes
//! are the same.

use super::dispatch::run_parallel;
use super::kernels::blocklinear::gobs;
use super::kernels::swizzled::{swizzle_chunk, swizzled_chunked};
use super::kernels::{cut, raw, run, tile_streamed, untile_streamed, Kind, Raw};
use super::options::CopyOptions;
use super::plan::Plan;
use super::region::{LinearLayout, Region};
use super::streaming::PARALLEL_THRESHOLD_BYTES;
use crate::error::Result;
use crate::layout::{BlockLinear, Surface, Swizzled};
use core::ops::Range;

/// The parallel untile of `untile_with` with `Threads::CurrentPool`: streaming is
/// decided from the job's bytes ([`CopyOptions::job_output_bytes`]), or from the plan's own
/// output when `None`, against the call's threshold times the pool's threads.
pub(crate) fn untile_parallel_job(
    s: &Surface,
    tiled: &[u8],
    linear: &mut [u8],
    region: Region,
    lin: LinearLayout,
    opts: &CopyOptions,
) -> Result<()> {
    let plan = Plan::with_options(s, region, lin, tiled.len(), linear.len(), opts)?;
    let whole = opts.job_output_bytes.is_none();
    let job = opts.job_output_bytes.unwrap_or(plan.linear_span as u64);
    let share = plan.parallel_share(plan.stream_linear_job(job, parallel_threshold(&plan)), job);
    run_parallel(&plan, false, whole, share, job, true, |share| untile_parallel_streamed(&plan, tiled, linear, share));
    Ok(())
}

/// The parallel tile of `tile_with` with `Threads::CurrentPool`: streaming is
/// decided from the job's bytes ([`CopyOptions::job_output_bytes`]), or from the plan's own
/// output when `None`, against the call's threshold times the pool's threads.
pub(crate) fn tile_parallel_job(
    s: &Surface,
    linear: &[u8],
    tiled: &mut [u8],
    region: Region,
    lin: LinearLayout,
    opts: &CopyOptions,
) -> Result<()> {
    let plan = Plan::with_options(s, region, lin, tiled.len(), linear.len(), opts)?;
    let whole = opts.job_output_bytes.is_none();
    let job = opts.job_output_bytes.unwrap_or(plan.tiled_span as u64);
    let share = plan.parallel_share(plan.stream_tiled_job(tiled, job, parallel_threshold(&plan)), job);
    let can_stream = plan.stream_tiled_job(tiled, job, 1);
    run_parallel(&plan, true, whole, share, job, can_stream, |share| {
        tile_parallel_streamed(&plan, linear, tiled, share)
    });
    Ok(())
}

/// The parallel streaming threshold of `plan`'s call: its single-thread threshold times the
/// threads of the current pool (as `parallel_streaming_threshold_bytes` for the process's).
fn parallel_threshold(plan: &Plan) -> usize {
    plan.knobs.threshold_bytes.saturating_mul(rayon::current_num_threads())
}

/// Small plans run on the calling thread ([`PARALLEL_THRESHOLD_BYTES`]), streamed unless
/// the whole share is cached; the others split, the cached share of their tasks
/// ([`Plan::parallel_share`]) with ordinary stores, the rest streamed. Blocklinear untile that
/// streams whole splits by byte columns where every thread gets at least 4096 bytes of each
/// row (`untile_columns_par`), else by bands of rows.
fn untile_parallel_streamed(plan: &Plan, tiled: &[u8], linear: &mut [u8], share: (u64, u64)) {
    if plan.linear_span < PARALLEL_THRESHOLD_BYTES {
        untile_streamed(plan, tiled, linear, share.0 < share.1);
    } else if share.0 > 0 || !untile_columns_par(plan, tiled, linear) {
        untile_planned_par::<Raw<false>, Raw<true>>(plan, tiled, linear, share);
    }
}

/// [`untile_parallel_streamed`]'s twin for tile.
fn tile_parallel_streamed(plan: &Plan, linear: &[u8], tiled: &mut [u8], share: (u64, u64)) {
    if plan.tiled_span < PARALLEL_THRESHOLD_BYTES {
        tile_streamed(plan, linear, tiled, share.0 < share.1);
    } else {
        tile_planned_par::<Raw<false>, Raw<true>>(plan, linear, tiled, share);
    }
}

/// Parallel tasks per thread of the pool. Fewer, larger tasks keep each thread's walk long; two per
/// thread leave the pool something to balance with
/// ([docs/perf/parallel-split.md](../../../../docs/perf/parallel-split.md)).
const TASKS_PER_THREAD: usize = 2;

/// Rows per parallel untile task (and pitch tile band): whole gob rows (or swizzle chunk
/// rows), about [`TASKS_PER_THREAD`] tasks per thread, each at least 256 KiB of linear output
/// where the region (or, for untile, a slice of it) is that large.
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

/// Which tasks of a parallel job write with ordinary (cached) stores, the others streaming:
/// `share` = (numerator, denominator) of the bytes to keep cached, spread evenly over the
/// tasks in order (a task is cached while the cached bytes up to its middle stay within the
/// share of the bytes up to its end). `(1, 1)` caches every task, `(0, 1)` none; a zero
/// denominator counts as `(1, 1)`.
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
fn untile_task<K: Kind>(p: &Plan, tiled: &[u8], lin: &mut [u8], base: usize, zs: Range<u32>, ys: Range<u32>) {
    let mut m = K::untile(tiled, lin, base, p.knobs.caps);
    run(p, &mut m, zs, ys);
    raw::store_fence();
}

/// The narrowest column part, in linear bytes of each row, that [`untile_columns_par`] gives a
/// thread. ([docs/perf/parallel-split.md](../../../../docs/perf/parallel-split.md)).
pub(crate) const COLUMN_PART_MIN_BYTES: usize = 4096;

/// A streamed blocklinear untile split over the pool's threads by byte columns: each thread
/// walks every gob row of the region (every slice), over its own part of the columns, a whole
/// number of gob columns wide and at least [`COLUMN_PART_MIN_BYTES`]; so the threads read the
/// same block rows and write the same linear rows at once, where bands of rows (what
/// [`untile_planned_par`] does) put them far apart. Returns false, having done nothing, for
/// other surfaces, a pool of one thread, or rows too narrow for a part per thread.
///
/// Measured faster than bands of rows for streamed untile of wide rows
/// ([docs/perf/parallel-split.md](../../../../docs/perf/parallel-split.md)).
///
/// Soundness: the tasks share the linear buffer as a raw pointer taken from the caller's
/// `&mut` slice, which is not otherwise used until they finish. Task `i` writes only linear
/// bytes of its byte columns `cuts[i]..cuts[i + 1]` of each row: [`gobs`] moves exactly the
/// region's bytes of the columns it is given (its whole gobs and partial edge gobs alike; the
/// shifting kernels store whole lines only inside the run they are handed, and the partial
/// lines at its ends with ordinary stores of the run's own bytes). The parts are disjoint, so
/// no byte is written by two tasks and none is read; the bounds are the plan's, as for every
/// raw mover. The tests compare the bytes with the checked single-thread twin's.
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
        let mut m = unsafe { raw::Untile::<true>::from_raw_parts(tiled, out.0, out.1, p.knobs.caps) };
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
    let mut m = K::tile(linear, chunk, base, p.knobs.caps);
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
            // columns, whose tiled bytes are contiguous too. (see docs/perf/parallel-split.md)
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
                    let mut m = KC::tile(linear, chunk, first + i * pitch * band, p.knobs.caps);
                    run(p, &mut m, rz.clone(), ys);
                    raw::store_fence();
                }
            });
        }
        Surface::Swizzled(s) => tile_swizzled_par::<KC>(p, s, linear, tiled),
    }
}

/// The swizzled arm of [`tile_planned_par`]: the index space split into sub-cubes by its top
/// bits, one task each.
fn tile_swizzled_par<KC: Kind>(p: &Plan, s: &Swizzled, linear: &[u8], tiled: &mut [u8]) {
    use alloc::vec::Vec;
    use rayon::prelude::*;
    let r = p.region;
    // Split the index space by its top `k` bits: each part is the sub-box whose
    // coordinates' matching high bits are fixed.
    let masks = s.masks();
    let total_bits = 64 - (masks[0] | masks[1] | masks[2]).leading_zeros();
    // The fewest top bits (at most 6) whose parts meeting the region spread over the
    // pool's threads within 1/8 of an even share: one part per thread where the counts
    // allow (2 threads: halves), not [`TASKS_PER_THREAD`]. Fewer parts are wider, and whole
    // linear rows measured faster than halves (see docs/perf/parallel-split.md).
    let region = [r.x..r.x + r.w, r.y..r.y + r.h, r.z..r.z + r.d];
    let threads = rayon::current_num_threads().max(1);
    let meeting =
        |k: u32| (0..1u64 << k).filter(|&i| swizzle_chunk(masks, total_bits - k, i, region.clone()).is_some()).count();
    let even = |n: usize| n >= threads && n.div_ceil(threads) * threads * 8 <= n * 9;
    let k = (1..=total_bits.min(6)).find(|&k| even(meeting(k))).unwrap_or(total_bits.min(6));
    let low_bits = total_bits - k;
    let es = s.elem_size_bytes() as usize;
    let part_bytes = (1usize << low_bits) * es;
    let tasks: Vec<(usize, &mut [u8])> = tiled.chunks_mut(part_bytes).enumerate().collect();
    tasks.into_par_iter().for_each(|(i, chunk)| {
        if let Some([xs, ys, zs]) = swizzle_chunk(masks, low_bits, i as u64, region.clone()) {
            let mut m = KC::tile(linear, chunk, i * part_bytes, p.knobs.caps);
            swizzled_chunked(p, s, &mut m, zs, ys, [xs.start, xs.end]);
            raw::store_fence();
        }
    });
}

#[cfg(test)]
mod cached_tasks_tests {
    use crate::tile::parallel::cached_tasks;
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
