//! The pre-G80 swizzled walk: the surface in chunks of 4096 consecutive elements (64x64 for
//! square power-of-two surfaces), each chunk by 4x4 tiles or by the mover's whole-chunk hooks,
//! partial chunks by the longest runs contiguous in both images; plus the sub-box arithmetic
//! ([`swizzle_chunk`]) the parallel tile uses to cut the index space.

use super::mover::Mover;
use crate::layout::swizzled::deposit;
use crate::layout::Swizzled;
use crate::tile::plan::Plan;
use core::ops::Range;

/// Swizzled, cache-blocked: the surface is walked in chunks of 4096 consecutive elements (a
/// 64x64 square for 2D power-of-two surfaces), in index order, each chunk being the sub-box
/// whose high coordinate bits are fixed; inside a chunk, [`swizzled`] goes row band by row band.
/// Walking whole rows instead touches one tiled line per 4x4 tile all over the surface, and
/// measured 3-5x slower.
pub(crate) fn swizzled_chunked<M: Mover>(
    p: &Plan,
    s: &Swizzled,
    m: &mut M,
    zs: Range<u32>,
    ys: Range<u32>,
    xs: [u32; 2],
) {
    let masks = s.masks();
    let total_bits = 64 - (masks[0] | masks[1] | masks[2]).leading_zeros();
    let low_bits = total_bits.min(12);
    let region = [xs[0]..xs[1], ys, zs];
    // Only the chunks that meet the region: from the chunk of its first element to that of its
    // last (chunks in between that miss it return `None`).
    let first = swizzle_index(masks, [region[0].start, region[1].start, region[2].start]) >> low_bits;
    let last = swizzle_index(masks, [region[0].end - 1, region[1].end - 1, region[2].end - 1]) >> low_bits;
    // Whole chunks of a surface whose low index bits are x0 y0 x1 y1 go in index order: the
    // tiled side is then read or written sequentially, and the linear side stays inside the
    // chunk's 64 rows. A table gives, for each of the chunk's 256 4x4 tiles, its linear offset
    // from the chunk's origin.
    let tiles4 = low_bits == 12 && masks[0] & 0b1111 == 0b0101 && masks[1] & 0b1111 == 0b1010;
    // Index bits 4 and 6 also step x, and bit 5 does not: the four tiles of a `STRIP_ORDER`
    // group are side by side (tiles k+1, k+4, k+5 at 16, 32, 48 bytes for 4-byte elements).
    // A surface 4 rows tall has x at bit 5 too, which puts tile k+4 at 64 bytes (found by the
    // `window` fuzz target: the AVX-512 kernel wrote its rows to the wrong places).
    let x_tiles = masks[0] & 0b111_0101 == 0b101_0101;
    let es = s.elem_size_bytes() as usize;
    // Entries are used only for whole chunks inside the region, whose linear offsets the plan
    // proved in bounds; the others may be meaningless (wrapping) and are never read.
    // The offset is linear in the index bits (wrapping), so each entry is a smaller entry plus
    // the share of one bit: 256 additions (this runs once per parallel task too).
    let strides = [es, p.row_pitch, p.slice_pitch];
    let share: [usize; 8] = core::array::from_fn(|b| {
        let bit = 1u64 << (4 + b);
        (0..3)
            .find(|&d| masks[d] & bit != 0)
            .map_or(0, |d| (1usize << (masks[d] & (bit - 1)).count_ones()).wrapping_mul(strides[d]))
    });
    let mut table = [0usize; 256];
    for k in 1..256 {
        table[k] = table[k & (k - 1)].wrapping_add(share[k.trailing_zeros() as usize]);
    }
    let full = |r: &Range<u32>, d: usize| (r.end - r.start) == 1 << (masks[d] & 0xfff).count_ones();
    // The chunk's index bits are exactly x0 y0 x1 y1 .. x5 y5 (the 1- and 2-byte kernels'
    // layout; any 2D surface at least 64x64 in power-of-two sizes).
    let morton = low_bits == 12 && masks[0] & 0xfff == 0x555 && masks[1] & 0xfff == 0xaaa;
    let runs = tiles4 && x_tiles && morton && es == 4 && m.wants_chunk_runs();
    if morton && es == 1 && m.wants_small_chunks::<1>() {
        chunk_groups::<1, M>(p, s, m, &region, &table);
        return;
    }
    if morton && es == 2 && m.wants_small_chunks::<2>() {
        chunk_groups::<2, M>(p, s, m, &region, &table);
        return;
    }
    if morton && es == 8 && m.wants_small_chunks::<8>() {
        chunk_groups::<8, M>(p, s, m, &region, &table);
        return;
    }
    if runs {
        // The chunk's low 12 index bits are x0 y0 .. x5 y5, so sorting the groups by linear
        // offset is sorting them by (y, x): `BAND_GROUPS` (checked in `chunk_runs` where a
        // whole run is reached).
        chunk_runs(p, s, m, &region, &table, &BAND_GROUPS);
        return;
    }
    for i in first..=last {
        if let Some(c) = swizzle_chunk(masks, low_bits, i, region.clone()) {
            let [cx, cy, cz] = c;
            if tiles4 && full(&cx, 0) && full(&cy, 1) && full(&cz, 2) {
                let l0 = p.linear_offset(cx.start as usize * es, cy.start, cz.start);
                let t0 = (i as usize) << 12;
                match es {
                    1 => chunk_tiles4::<1, 2, M>(m, t0, l0, p.row_pitch, &table),
                    2 => chunk_tiles4::<2, 4, M>(m, t0, l0, p.row_pitch, &table),
                    4 if x_tiles && m.chunk_es4_vector(t0 * 4, l0, p.row_pitch, &table) => {}
                    4 => chunk_tiles4::<4, 8, M>(m, t0, l0, p.row_pitch, &table),
                    8 => chunk_tiles4::<8, 16, M>(m, t0, l0, p.row_pitch, &table),
                    _ => chunk_tiles4::<16, 32, M>(m, t0, l0, p.row_pitch, &table),
                }
            } else {
                swizzled(p, s, m, cz, cy, [cx.start, cx.end]);
            }
        }
    }
}

/// The most whole chunks of 4-byte elements that [`chunk_runs`] hands the vector kernels at once:
/// 16, 4096 bytes of each linear row (a page of a page-aligned image 1024 elements wide). Bands
/// of 4 rows that cross the whole run write (untile) or read (tile) each linear row left to
/// right: runs of 16 chunks measured fastest
/// ([docs/perf/swizzle-chunks.md](../../../../../docs/perf/swizzle-chunks.md)).
pub(crate) const RUN_CHUNKS: usize = 16;

/// Every chunk of a 2D swizzled surface of 4-byte elements whose chunks' index bits are x0 y0 ..
/// x5 y5 (AVX-512 or AVX2, tile and untile) that meets `region`, chunk row by chunk row: runs
/// of up to [`RUN_CHUNKS`] whole chunks side by side through [`Mover::chunk_run_es4_vector`]
/// (one by one where it declines), partial chunks through [`swizzled`]. Chunks are found by
/// their coordinates: nothing is spent on chunks outside the region.
///
/// Prefetching the next chunks or linear rows did not pay.
fn chunk_runs<M: Mover>(
    p: &Plan,
    s: &Swizzled,
    m: &mut M,
    region: &[Range<u32>; 3],
    table: &[usize; 256],
    rows: &[u8; 64],
) {
    let masks = s.masks();
    let rp = p.row_pitch;
    let clip = |c: u32, d: usize| (c * 64).max(region[d].start)..(c * 64 + 64).min(region[d].end);
    let is_whole = |r: &Range<u32>| r.end - r.start == 64;
    let (cx_last, cy_last) = ((region[0].end - 1) / 64, (region[1].end - 1) / 64);
    // A chunk's byte offset is its column's index bits OR its row's and slice's (the latter once
    // per chunk row), over the chunk's 4096 elements of 4 bytes.
    let chunk_at = |cx: u32, row_bits: u64| (((deposit(u64::from(cx) * 64, masks[0]) | row_bits) >> 12) as usize) << 14;
    for z in region[2].clone() {
        for cy in region[1].start / 64..=cy_last {
            let row_bits = deposit(u64::from(cy) * 64, masks[1]) | deposit(z.into(), masks[2]);
            let ys = clip(cy, 1);
            let mut cx = region[0].start / 64;
            while cx <= cx_last {
                if !(is_whole(&ys) && is_whole(&clip(cx, 0))) {
                    let xs = clip(cx, 0);
                    swizzled(p, s, m, z..z + 1, ys.clone(), [xs.start, xs.end]);
                    cx += 1;
                    continue;
                }
                let mut offs = [0usize; RUN_CHUNKS];
                let mut n = 0;
                while n < RUN_CHUNKS && cx + (n as u32) <= cx_last && is_whole(&clip(cx + n as u32, 0)) {
                    offs[n] = chunk_at(cx + n as u32, row_bits);
                    n += 1;
                }
                let l0 = p.linear_offset(cx as usize * 256, cy * 64, z);
                // A whole chunk is 64 elements wide, so the row pitch (at least the row) is at
                // least 256 bytes and the table's offsets sort as (y, x).
                debug_assert!(BAND_GROUPS.windows(2).all(|w| table[usize::from(w[0])] < table[usize::from(w[1])]));
                if !m.chunk_run_es4_vector(&offs[..n], l0, rp, table, rows) {
                    for (c, &t) in offs[..n].iter().enumerate() {
                        if !m.chunk_es4_vector(t, l0 + 256 * c, rp, table) {
                            chunk_tiles4::<4, 8, M>(m, t / 4, l0 + 256 * c, rp, table);
                        }
                    }
                }
                cx += n as u32;
            }
        }
    }
}

/// Every chunk of a 2D swizzled surface of `ES`-byte elements (1, 2 or 8) whose chunks' index
/// bits are x0 y0 .. x5 y5 that meets `region`, chunk row by chunk row: runs of up to
/// `512 / (64 * ES)` whole chunks side by side (512 linear bytes per row) through
/// [`Mover::chunks_small_vector`], partial chunks through [`swizzled`]. Chunks are found by
/// their coordinates, as in [`chunk_runs`]. Not widened to 4096 linear bytes as the 4-byte runs
/// were: it measured slower
/// ([docs/perf/swizzle-chunks.md](../../../../../docs/perf/swizzle-chunks.md)).
fn chunk_groups<const ES: usize, M: Mover>(
    p: &Plan,
    s: &Swizzled,
    m: &mut M,
    region: &[Range<u32>; 3],
    table: &[usize; 256],
) {
    let masks = s.masks();
    let rp = p.row_pitch;
    let most = 512 / (64 * ES);
    let clip = |c: u32, d: usize| (c * 64).max(region[d].start)..(c * 64 + 64).min(region[d].end);
    let is_whole = |r: &Range<u32>| r.end - r.start == 64;
    let (cx_last, cy_last) = ((region[0].end - 1) / 64, (region[1].end - 1) / 64);
    // A chunk's index is its column's bits OR its row's and slice's: the latter once per chunk
    // row, not once per chunk.
    let chunk_at =
        |cx: u32, row_bits: u64| (((deposit(u64::from(cx) * 64, masks[0]) | row_bits) >> 12) as usize) * 4096 * ES;
    for z in region[2].clone() {
        for cy in region[1].start / 64..=cy_last {
            let row_bits = deposit(u64::from(cy) * 64, masks[1]) | deposit(z.into(), masks[2]);
            let ys = clip(cy, 1);
            let mut cx = region[0].start / 64;
            while cx <= cx_last {
                if !(is_whole(&ys) && is_whole(&clip(cx, 0))) {
                    let xs = clip(cx, 0);
                    swizzled(p, s, m, z..z + 1, ys.clone(), [xs.start, xs.end]);
                    cx += 1;
                    continue;
                }
                let mut offs = [0usize; 8];
                let mut n = 0;
                while n < most && cx + (n as u32) <= cx_last && is_whole(&clip(cx + n as u32, 0)) {
                    offs[n] = chunk_at(cx + n as u32, row_bits);
                    n += 1;
                }
                let l0 = p.linear_offset(cx as usize * 64 * ES, cy * 64, z);
                if !m.chunks_small_vector::<ES>(&offs[..n], l0, rp) {
                    for (c, &t) in offs[..n].iter().enumerate() {
                        match ES {
                            1 => chunk_tiles4::<1, 2, M>(m, t, l0 + 64 * c, rp, table),
                            2 => chunk_tiles4::<2, 4, M>(m, t / 2, l0 + 128 * c, rp, table),
                            _ => chunk_tiles4::<8, 16, M>(m, t / 8, l0 + 512 * c, rp, table),
                        }
                    }
                }
                cx += n as u32;
            }
        }
    }
}

/// One whole 4096-element chunk in index order: 256 tiles of 4x4 elements (16 consecutive
/// elements each; see [`swizzled_tiles4`] for the order inside a tile). `t0` is the chunk's
/// first element index, `l0` its origin's linear offset.
#[inline(always)]
fn chunk_tiles4<const ES: usize, const P: usize, M: Mover>(
    m: &mut M,
    t0: usize,
    l0: usize,
    rp: usize,
    table: &[usize; 256],
) {
    for &k in &STRIP_ORDER {
        let k = usize::from(k);
        let t = (t0 + (k << 4)) * ES;
        let l = l0 + table[k];
        m.tile4x4::<ES, P>(t, l, rp);
    }
}

/// The order [`chunk_tiles4`] visits a chunk's 256 tiles in: groups of tiles `k, k + 1, k + 4,
/// k + 5` (`k & 0b101 == 0`), in a Morton-ordered 2D chunk the four tiles side by side along x
/// that share 4 rows, so that each linear cache line of 16 elements is written (or read) by
/// consecutive copies. With a row pitch that is a multiple of 4096 bytes, all rows' lines at
/// the same column fall into the same L1 set, and lines left half-done while other rows are
/// written get evicted. Any order is correct (every tile is copied once).
pub(crate) const STRIP_ORDER: [u8; 256] = {
    let mut out = [0u8; 256];
    let (mut i, mut k) = (0, 0);
    while k < 256 {
        if k & 0b101 == 0 {
            let d = [0, 1, 4, 5];
            let mut j = 0;
            while j < 4 {
                out[i] = (k + d[j]) as u8;
                i += 1;
                j += 1;
            }
        }
        k += 1;
    }
    out
};

/// The first tiles of the 64 [`STRIP_ORDER`] groups of a 64x64 chunk whose index bits are
/// x0 y0 x1 y1 .. x5 y5, in linear order (row band by row band, then along x): tile `k`'s
/// tile coordinates are its even bits (x) and odd bits (y). Computed once at compile time;
/// sorting them per call measurably cost small surfaces and every parallel task.
const BAND_GROUPS: [u8; 64] = {
    let mut out = [0u8; 64];
    let mut i = 0;
    let mut ty = 0;
    while ty < 16 {
        let mut tx = 0;
        while tx < 16 {
            let mut k = 0;
            let mut b = 0;
            while b < 4 {
                k |= ((tx >> b) & 1) << (2 * b) | ((ty >> b) & 1) << (2 * b + 1);
                b += 1;
            }
            out[i] = k as u8;
            i += 1;
            tx += 4;
        }
        ty += 1;
    }
    out
};

/// The element index of (x, y, z).
#[inline]
fn swizzle_index(masks: [u64; 3], c: [u32; 3]) -> u64 {
    deposit(c[0].into(), masks[0]) | deposit(c[1].into(), masks[1]) | deposit(c[2].into(), masks[2])
}

/// Swizzled: per row, the element index is stepped with a masked add; runs of elements that are
/// contiguous in both images (the low index bits that belong to x) move in one copy, with a
/// fixed-size copy for the common run lengths. `xs` limits the columns (the parallel path's
/// sub-cube tasks pass their own).
fn swizzled<M: Mover>(p: &Plan, s: &Swizzled, m: &mut M, zs: Range<u32>, ys: Range<u32>, xs: [u32; 2]) {
    // 2D patterns whose low index bits are x0 y0 x1 y1: 4x4 tiles are contiguous; copy the
    // aligned interior tile by tile and the borders with the run loop.
    let [mx, my, _] = s.masks();
    let xa = xs[0].next_multiple_of(4);
    let xb = xs[1] & !3;
    let ya = ys.start.next_multiple_of(4);
    let yb = ys.end & !3;
    if mx & 0b1111 == 0b0101 && my & 0b1111 == 0b1010 && xa < xb && ya < yb {
        let tiles = |m: &mut M, zs: Range<u32>| match s.elem_size_bytes() {
            1 => swizzled_tiles4::<1, 2, M>(p, s, m, zs, ya..yb, [xa, xb]),
            2 => swizzled_tiles4::<2, 4, M>(p, s, m, zs, ya..yb, [xa, xb]),
            4 => swizzled_tiles4::<4, 8, M>(p, s, m, zs, ya..yb, [xa, xb]),
            8 => swizzled_tiles4::<8, 16, M>(p, s, m, zs, ya..yb, [xa, xb]),
            _ => swizzled_tiles4::<16, 32, M>(p, s, m, zs, ya..yb, [xa, xb]),
        };
        tiles(m, zs.clone());
        // Borders: rows above and below the interior (full width), then the left and right strips.
        swizzled_runs(p, s, m, zs.clone(), ys.start..ya, xs);
        swizzled_runs(p, s, m, zs.clone(), yb..ys.end, xs);
        swizzled_runs(p, s, m, zs.clone(), ya..yb, [xs[0], xa]);
        swizzled_runs(p, s, m, zs, ya..yb, [xb, xs[1]]);
    } else {
        swizzled_runs(p, s, m, zs, ys, xs);
    }
}

/// 4x4-element tiles of a swizzled surface whose low index bits are x0 y0 x1 y1: each tile is
/// 16 contiguous elements; row `r` of the tile holds elements `2*y0 + 8*y1 + {0, 1, 4, 5}`, i.e.
/// two pairs of `2 * ES = P` bytes. `ys`/`xs` are multiples of 4.
#[inline(always)]
fn swizzled_tiles4<const ES: usize, const P: usize, M: Mover>(
    p: &Plan,
    s: &Swizzled,
    m: &mut M,
    zs: Range<u32>,
    ys: Range<u32>,
    xs: [u32; 2],
) {
    let [mx, my, mz] = s.masks();
    let step = deposit(4, mx);
    let not_mx = !mx;
    for z in zs {
        let zb = deposit(z.into(), mz);
        for y in ys.clone().step_by(4) {
            let yzb = zb | deposit(y.into(), my);
            let mut xi = deposit(xs[0].into(), mx);
            let mut l = p.linear_offset(xs[0] as usize * ES, y, z);
            let rp = p.row_pitch;
            for _ in (xs[0]..xs[1]).step_by(4) {
                let t = (yzb | xi) as usize * ES;
                m.tile4x4::<ES, P>(t, l, rp);
                xi = (xi | not_mx).wrapping_add(step) & mx;
                l += 4 * ES;
            }
        }
    }
}

/// The general swizzled path: runs of contiguous x elements per row.
fn swizzled_runs<M: Mover>(p: &Plan, s: &Swizzled, m: &mut M, zs: Range<u32>, ys: Range<u32>, xs: [u32; 2]) {
    if ys.start >= ys.end || xs[0] >= xs[1] {
        return;
    }
    let run_bytes = (1usize << s.masks()[0].trailing_ones().min(31)) * s.elem_size_bytes() as usize;
    match run_bytes {
        2 => swizzled_rows::<2, M>(p, s, m, zs, ys, xs),
        4 => swizzled_rows::<4, M>(p, s, m, zs, ys, xs),
        8 => swizzled_rows::<8, M>(p, s, m, zs, ys, xs),
        16 => swizzled_rows::<16, M>(p, s, m, zs, ys, xs),
        32 => swizzled_rows::<32, M>(p, s, m, zs, ys, xs),
        64 => swizzled_rows::<64, M>(p, s, m, zs, ys, xs),
        _ => swizzled_rows::<0, M>(p, s, m, zs, ys, xs),
    }
}

/// The rows of [`swizzled`]; `RB` is the run length in bytes when it is a fixed-size copy (0 =
/// any length).
#[inline(always)]
fn swizzled_rows<const RB: usize, M: Mover>(
    p: &Plan,
    s: &Swizzled,
    m: &mut M,
    zs: Range<u32>,
    ys: Range<u32>,
    xs: [u32; 2],
) {
    let [mx, my, mz] = s.masks();
    let es = s.elem_size_bytes() as usize;
    let run = 1u32 << mx.trailing_ones().min(31);
    let not_mx = !mx;
    for z in zs {
        let zb = deposit(z.into(), mz);
        for y in ys.clone() {
            let yzb = zb | deposit(y.into(), my);
            let mut x = xs[0];
            let mut xi = deposit(x.into(), mx);
            let mut l = p.linear_offset(x as usize * es, y, z);
            // Head: up to the first run boundary.
            if x & (run - 1) != 0 {
                let chunk = (run - (x & (run - 1))).min(xs[1] - x);
                m.mv((yzb | xi) as usize * es, l, chunk as usize * es);
                xi = (xi | not_mx).wrapping_add(chunk.into()) & mx;
                x += chunk;
                l += chunk as usize * es;
            }
            // Body: whole runs.
            let run_bytes = run as usize * es;
            while x + run <= xs[1] {
                if RB != 0 {
                    m.mv_n::<RB>((yzb | xi) as usize * es, l);
                } else {
                    m.mv((yzb | xi) as usize * es, l, run_bytes);
                }
                xi = (xi | not_mx).wrapping_add(run.into()) & mx;
                x += run;
                l += run_bytes;
            }
            // Tail.
            if x < xs[1] {
                m.mv((yzb | xi) as usize * es, l, (xs[1] - x) as usize * es);
            }
        }
    }
}

/// The sub-box of chunk `i` of a swizzled surface cut into chunks of `2^low_bits` consecutive
/// elements: the coordinates whose bits above `low_bits` are fixed by `i`. Returns the x, y, z
/// ranges clipped to `region` (x, y, z ranges), or `None` when empty.
pub(crate) fn swizzle_chunk(
    masks: [u64; 3],
    low_bits: u32,
    i: u64,
    region: [Range<u32>; 3],
) -> Option<[Range<u32>; 3]> {
    let mut out = [0u32..0, 0..0, 0..0];
    for d in 0..3 {
        let low_count = (masks[d] & ((1u64 << low_bits) - 1)).count_ones();
        let start = extract(i << low_bits, masks[d]) as u32;
        let r = &region[d];
        out[d] = start.max(r.start)..(start + (1u32 << low_count)).min(r.end);
        if out[d].start >= out[d].end {
            return None;
        }
    }
    Some(out)
}

/// Gathers the bits of `v` at the set bits of `mask` into the low bits (a software PEXT).
pub(crate) fn extract(v: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut bit = 0;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if v & low != 0 {
            out |= 1 << bit;
        }
        bit += 1;
        mask &= mask - 1;
    }
    out
}
