//! The blocklinear walk: gob row by gob row, left to right, the run of whole gobs handed to
//! the mover's gob-row hook and partial edge gobs copied row piece by row piece, never byte by
//! byte. Works for every gob order (VM, Tegra, and the CPU-side orders through 16-byte runs).

use super::mover::{prefetch, GobRow, Mover};
use crate::layout::{BlockLinear, GobOrder};
use crate::tile::plan::Plan;
use core::ops::Range;

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
pub(crate) fn blocklinear<M: Mover>(p: &Plan, b: &BlockLinear, m: &mut M, zs: Range<u32>, ys: Range<u32>) {
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
pub(crate) fn gobs<M: Mover>(p: &Plan, b: &BlockLinear, m: &mut M, z: u32, ys: Range<u32>, xs: [usize; 2], gh: u32) {
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
