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
/// 16 bytes (CPU orders); partial gobs copy the covered part of each row.
///
/// Walking the tiled memory block by block, groups of gob columns, staged rows and other orders all
/// measured slower: [docs/perf/blocklinear-walk.md](../../../../../docs/perf/blocklinear-walk.md).
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
/// per column, as in the Tegra order
/// ([docs/perf/gob-stacking.md](../../../../../docs/perf/gob-stacking.md)).
#[inline(always)]
pub(crate) fn gobs<M: Mover>(p: &Plan, b: &BlockLinear, m: &mut M, z: u32, ys: Range<u32>, xs: [usize; 2], gh: u32) {
    let order = b.gob_order();
    let runs = order.run8_offsets(gh);
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
/// Stacking gains for streamed tile of narrow rows only, and loses on wide rows, hence the 32 KiB
/// bound and only tile stacks ([`Mover::stack_tegra_gobs`];
/// [docs/perf/gob-stacking.md](../../../../../docs/perf/gob-stacking.md)).
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
    runs: &[u16; 64],
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
            (false, _) if order.run_bytes() == 8 => gob_runs::<8, M>(m, gob, l0, p.row_pitch, runs),
            (false, _) => gob_runs::<16, M>(m, gob, l0, p.row_pitch, runs),
        }
    } else {
        for y in ya..yb {
            let r = (y - gy) as usize;
            let l = p.linear_offset(xa, y, z);
            if order == GobOrder::Vm {
                m.mv(gob + 64 * r + (xa - gx), l, xe - xa);
            } else {
                // Runs of `w` bytes (16, or 8 for Blackwell8): `runs` holds 8-byte runs.
                let w = order.run_bytes() as usize;
                for c in 0..64 / w {
                    let lo = (xa - gx).max(w * c);
                    let hi = (xe - gx).min(w * c + w);
                    if lo < hi {
                        m.mv(gob + runs[r * 8 + c * w / 8] as usize + lo - w * c, l + (gx + lo - xa), hi - lo);
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

/// A whole 8-row gob in a CPU-side order: 32 runs of 16 bytes (`W` = 16), or 64 runs of 8
/// bytes (`W` = 8, [`GobOrder::Blackwell8`]); `runs` holds the offsets of the 8-byte runs.
#[inline(always)]
fn gob_runs<const W: usize, M: Mover>(m: &mut M, gob: usize, l0: usize, row_pitch: usize, runs: &[u16; 64]) {
    for r in 0..8 {
        let l = l0 + r * row_pitch;
        for c in 0..64 / W {
            m.mv_n::<W>(gob + runs[r * 8 + c * W / 8] as usize, l + W * c);
        }
    }
}
