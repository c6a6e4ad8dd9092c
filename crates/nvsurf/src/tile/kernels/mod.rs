//! The copy kernels. Every function here runs on a checked [`Plan`]: all offsets it computes are
//! inside the buffers (the plan proved `size_bytes <= tiled.len()` and the region's linear span
//! fits), so the slice indexing below never fails for a plan built by [`Plan::new`]. The
//! kernels are written once, generic over a mover (module `mover`) that knows the direction
//! (untile: tiled -> linear; tile: linear -> tiled) and the base offsets of the (sub-)buffers
//! it holds, so the single-thread and parallel paths run the same code on disjoint parts; this
//! module picks the walk for the layout and the family of movers (raw or safe).

pub(crate) mod blocklinear;
pub(crate) mod mover;
pub(crate) mod raw;
pub(crate) mod safe;
pub(crate) mod swizzled;
#[cfg(target_arch = "x86_64")]
mod x86_gob;
#[cfg(target_arch = "x86_64")]
mod x86_swizzle;
#[cfg(target_arch = "x86_64")]
mod x86_swizzle_es8;

use self::blocklinear::blocklinear;
use self::mover::Mover;
use self::swizzled::swizzled_chunked;
use super::plan::Plan;
use crate::cpu::Caps;
use crate::layout::Surface;
use core::ops::Range;

/// A family of movers: the raw ones for speed, the safe ones as their tested twins.
pub(crate) trait Kind {
    /// Untile mover.
    type U<'a>: Mover;
    /// Tile mover.
    type T<'a>: Mover;
    /// Builds an untile mover over `tiled` and the linear sub-slice starting at `base`, that may
    /// use the vector kernels `caps` allows.
    fn untile<'a>(tiled: &'a [u8], linear: &'a mut [u8], base: usize, caps: Caps) -> Self::U<'a>;
    /// Builds a tile mover over `linear` and the tiled sub-slice starting at `base`.
    fn tile<'a>(linear: &'a [u8], tiled: &'a mut [u8], base: usize, caps: Caps) -> Self::T<'a>;
}

/// Raw pointer movers; `NT` = streaming stores for large outputs.
pub(crate) struct Raw<const NT: bool>;
/// Checked slice movers.
pub(crate) struct Safe;

impl<const NT: bool> Kind for Raw<NT> {
    type U<'a> = raw::Untile<'a, NT>;
    type T<'a> = raw::Tile<'a, NT>;
    fn untile<'a>(tiled: &'a [u8], linear: &'a mut [u8], base: usize, caps: Caps) -> Self::U<'a> {
        raw::Untile::new(tiled, linear, base, caps)
    }
    fn tile<'a>(linear: &'a [u8], tiled: &'a mut [u8], base: usize, caps: Caps) -> Self::T<'a> {
        raw::Tile::new(linear, tiled, base, caps)
    }
}

impl Kind for Safe {
    type U<'a> = safe::Untile<'a>;
    type T<'a> = safe::Tile<'a>;
    fn untile<'a>(tiled: &'a [u8], linear: &'a mut [u8], base: usize, _caps: Caps) -> Self::U<'a> {
        safe::Untile { tiled, linear, linear_base: base }
    }
    fn tile<'a>(linear: &'a [u8], tiled: &'a mut [u8], base: usize, _caps: Caps) -> Self::T<'a> {
        safe::Tile { linear, tiled, tiled_base: base }
    }
}

/// Runs the kernel of the plan's layout over slices `zs` and rows `ys` (surface coordinates,
/// inside the region).
pub(crate) fn run<M: Mover>(p: &Plan, m: &mut M, zs: Range<u32>, ys: Range<u32>) {
    match &p.surface {
        Surface::BlockLinear(b) => blocklinear(p, b, m, zs, ys),
        Surface::Pitch(s) => {
            let pitch = s.pitch_bytes() as usize;
            let len = p.xb[1] - p.xb[0];
            for z in zs {
                for y in ys.clone() {
                    m.mv(y as usize * pitch + p.xb[0], p.linear_offset(p.xb[0], y, z), len);
                }
            }
        }
        Surface::Swizzled(s) => swizzled_chunked(p, s, m, zs, ys, [p.region.x, p.region.x + p.region.w]),
    }
}

/// Single-thread untile of a whole plan.
pub(crate) fn untile_planned<K: Kind>(p: &Plan, tiled: &[u8], linear: &mut [u8]) {
    let r = p.region;
    let mut m = K::untile(&tiled[..p.tiled_span], &mut linear[..p.linear_span], 0, p.knobs.caps);
    run(p, &mut m, r.z..r.z + r.d, r.y..r.y + r.h);
    raw::store_fence();
}

/// Single-thread tile of a whole plan.
pub(crate) fn tile_planned<K: Kind>(p: &Plan, linear: &[u8], tiled: &mut [u8]) {
    let r = p.region;
    let mut m = K::tile(&linear[..p.linear_span], &mut tiled[..p.tiled_span], 0, p.knobs.caps);
    run(p, &mut m, r.z..r.z + r.d, r.y..r.y + r.h);
    raw::store_fence();
}

/// Single-thread untile with raw movers, streaming the output when `stream`.
pub(crate) fn untile_streamed(plan: &Plan, tiled: &[u8], linear: &mut [u8], stream: bool) {
    if stream {
        untile_planned::<Raw<true>>(plan, tiled, linear);
    } else {
        untile_planned::<Raw<false>>(plan, tiled, linear);
    }
}

/// Single-thread tile with raw movers, streaming the output when `stream`.
pub(crate) fn tile_streamed(plan: &Plan, linear: &[u8], tiled: &mut [u8], stream: bool) {
    if stream {
        tile_planned::<Raw<true>>(plan, linear, tiled);
    } else {
        tile_planned::<Raw<false>>(plan, linear, tiled);
    }
}

/// Cuts `buf` into the disjoint, ascending byte ranges `ranges`; `None` when two ranges
/// overlap, are out of order, or one ends past `buf` (never a panic). The parallel paths'
/// tasks (and a texture's subresources) each get their own `&mut` part this way.
#[cfg(feature = "rayon")]
pub(crate) fn cut<'a>(mut buf: &'a mut [u8], ranges: &[Range<usize>]) -> Option<alloc::vec::Vec<&'a mut [u8]>> {
    let mut out = alloc::vec::Vec::with_capacity(ranges.len());
    let mut cursor = 0usize;
    for r in ranges {
        let skip = r.start.checked_sub(cursor)?;
        let len = r.end.checked_sub(r.start)?;
        let (_, rest) = core::mem::take(&mut buf).split_at_mut_checked(skip)?;
        let (mine, rest) = rest.split_at_mut_checked(len)?;
        out.push(mine);
        buf = rest;
        cursor = r.end;
    }
    Some(out)
}

#[cfg(test)]
mod move_count_tests {
    //! Every byte of a box moved exactly once by the blocklinear walk: byte comparisons cannot
    //! see a byte moved twice (say a gob row taken by the gob-row walk and then again gob by
    //! gob). A counting mover takes every gob row it is offered, through the same expansion as
    //! the safe movers, with no alignment condition, so the walk's edges and stacking run here
    //! on any CPU.
    use crate::layout::{GobOrder, Surface, SurfaceDesc};
    use crate::tile::kernels::mover::{gob_row_moves, GobRow, Mover};
    use crate::tile::kernels::run;
    use crate::tile::plan::Plan;
    use crate::tile::region::{LinearLayout, Region};
    use crate::Gpu;
    use alloc::vec;
    use alloc::vec::Vec;

    /// Counts the moves of every tiled and linear byte.
    struct Counting {
        tiled: Vec<u8>,
        linear: Vec<u8>,
        /// Gob-row runs taken.
        rows: usize,
    }

    impl Mover for Counting {
        fn mv(&mut self, t: usize, l: usize, len: usize) {
            self.tiled[t..t + len].iter_mut().for_each(|c| *c += 1);
            self.linear[l..l + len].iter_mut().for_each(|c| *c += 1);
        }
        fn tiled_ptr(&self, _t: usize) -> *const u8 {
            core::ptr::null()
        }
        fn gob_row_vector(&mut self, row: &GobRow) -> bool {
            self.rows += 1;
            gob_row_moves(self, row);
            true
        }
    }

    #[test]
    fn every_box_byte_moves_once() {
        let cases = [
            (Gpu::G80, GobOrder::Vm, [0, 2, 0], [300, 70, 1]),
            (Gpu::G80, GobOrder::Vm, [0, 1, 1], [200, 40, 3]),
            (Gpu::G80, GobOrder::Vm, [1, 1, 0], [300, 40, 1]),
            (Gpu::G80, GobOrder::Vm, [0, 0, 0], [300, 40, 1]),
            (Gpu::Gf100, GobOrder::Vm, [0, 2, 0], [300, 70, 1]),
            (Gpu::Gm20b, GobOrder::Tegra, [1, 1, 1], [300, 70, 2]),
            // 1 KiB rows: columns of 2 or 4 stacked Tegra gobs (`tegra_stack`).
            (Gpu::Gm20b, GobOrder::Tegra, [0, 2, 0], [256, 70, 1]),
            (Gpu::Gm20b, GobOrder::Tegra, [0, 1, 1], [256, 40, 3]),
            (Gpu::Tu102, GobOrder::Turing, [0, 2, 0], [300, 70, 1]),
            (Gpu::Gf100, GobOrder::Fermi, [0, 2, 0], [300, 70, 1]),
            (Gpu::Gf100, GobOrder::FermiComment, [0, 2, 0], [300, 70, 1]),
            (Gpu::Gb202, GobOrder::Blackwell8, [0, 2, 0], [300, 70, 1]),
            (Gpu::Gb202, GobOrder::Blackwell16, [0, 1, 1], [300, 40, 3]),
        ];
        let mut rows_seen = 0;
        for (gpu, order, block, size) in cases {
            let mut desc = SurfaceDesc::new(gpu, 4, size);
            desc.gob_order = order;
            desc.block_log2 = Some(block);
            let s = desc.build().unwrap();
            let Surface::BlockLinear(b) = &s else { unreachable!("blocklinear") };
            let [w, h, d] = s.size().to_array();
            for (x, y, ww, hh) in [(0, 0, w, h), (1, 4, w - 1 - 5, h - 4 - 3), (16, 3, 40, 9), (3, 8, 10, 8)] {
                let region = Region { x, y, z: 0, w: ww, h: hh, d };
                let lin = LinearLayout::packed(&region, 4);
                let lin_len = (lin.slice_pitch_bytes * u64::from(d)) as usize;
                let p = Plan::new(&s, region, lin, s.size_bytes() as usize, lin_len).unwrap();
                let mut m = Counting { tiled: vec![0; p.tiled_span], linear: vec![0; lin_len], rows: 0 };
                run(&p, &mut m, region.z..region.z + d, region.y..region.y + hh);
                rows_seen += m.rows;
                let mut want = vec![0u8; p.tiled_span];
                for z in region.z..region.z + d {
                    for yy in region.y..region.y + hh {
                        for xb in p.xb[0]..p.xb[1] {
                            want[b.byte_offset(xb as u64, yy, z) as usize] += 1;
                        }
                    }
                }
                let at = alloc::format!("{gpu:?} {order:?} {block:?} {region:?}");
                assert!(m.tiled == want, "{at}: tiled bytes not moved once each");
                assert!(m.linear.iter().all(|&c| c == 1), "{at}: linear bytes not moved once each");
            }
        }
        assert!(rows_seen > 0, "the gob-row walk ran");
    }
}
