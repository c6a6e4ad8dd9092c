//! Property tests of the layout model: bijection, agreement with a plain transcription of the
//! document's pseudocode, and the auto-sizing bound.

use nvsurf::layout::{BlockLinear, BlockLinearParams, GobOrder, LayoutKind, Surface, SurfaceDesc};
use nvsurf::Gpu;
use proptest::prelude::*;
use std::collections::HashSet;

/// The document's pseudocode (envytools `docs/hw/memory/g80-surface.rst`, "Blocklinear surfaces"),
/// transcribed line by line with ERRATA E6/E7 applied, for the VM gob order. Deliberately naive:
/// loops, divisions, no shifts.
#[allow(clippy::too_many_arguments)]
fn pseudocode(
    gpu_is_gf100: bool,
    bw: u32,
    bh: u32,
    bd: u32,
    auto: bool,
    es: u64,
    w: u64,
    h: u64,
    d: u64,
    x: u64,
    y: u64,
    z: u64,
) -> (u64, u64) {
    let bytes_per_gob_x: u64 = 64;
    let bytes_per_gob_y: u64 = if gpu_is_gf100 { 8 } else { 4 };
    let bytes_per_gob_z: u64 = 1;
    let (mut ebw, mut ebh, mut ebd) = (bw, bh, bd);
    if auto {
        while ebw > 0 && (bytes_per_gob_x << (ebw - 1)) >= w * es {
            ebw -= 1;
        }
        while ebh > 0 && (bytes_per_gob_y << (ebh - 1)) >= h {
            ebh -= 1;
        }
        while ebd > 0 && (bytes_per_gob_z << (ebd - 1)) >= d {
            ebd -= 1;
        }
    }
    let gobs_per_block_x = 1u64 << ebw;
    let gobs_per_block_y = 1u64 << ebh;
    let gobs_per_block_z = 1u64 << ebd;
    let bytes_per_block_x = bytes_per_gob_x * gobs_per_block_x;
    let bytes_per_block_y = bytes_per_gob_y * gobs_per_block_y;
    let bytes_per_block_z = bytes_per_gob_z * gobs_per_block_z;
    let gob_bytes = bytes_per_gob_x * bytes_per_gob_y * bytes_per_gob_z;
    let block_gobs = gobs_per_block_x * gobs_per_block_y * gobs_per_block_z; // E6
    let block_bytes = gob_bytes * block_gobs;
    let blocks_per_surface_x = (w * es).div_ceil(bytes_per_block_x);
    let blocks_per_surface_y = h.div_ceil(bytes_per_block_y);
    let blocks_per_surface_z = d.div_ceil(bytes_per_block_z);
    let surface_bytes = blocks_per_surface_x * blocks_per_surface_y * blocks_per_surface_z * block_bytes;
    // E7: one sum.
    let block_address = (x * es / bytes_per_block_x) * block_bytes
        + (y / bytes_per_block_y) * block_bytes * blocks_per_surface_x
        + (z / bytes_per_block_z) * block_bytes * blocks_per_surface_x * blocks_per_surface_y;
    let x_coord_in_block = (x * es) % bytes_per_block_x;
    let y_coord_in_block = y % bytes_per_block_y;
    let z_coord_in_block = z % bytes_per_block_z;
    let gob_address = block_address
        + (x_coord_in_block / bytes_per_gob_x) * gob_bytes
        + (y_coord_in_block / bytes_per_gob_y) * gob_bytes * gobs_per_block_x
        + z_coord_in_block * gob_bytes * gobs_per_block_x * gobs_per_block_y;
    let x_coord_in_gob = x_coord_in_block % bytes_per_gob_x;
    let y_coord_in_gob = y_coord_in_block % bytes_per_gob_y;
    (gob_address + x_coord_in_gob + y_coord_in_gob * bytes_per_gob_x, surface_bytes)
}

fn gpu_strategy() -> impl Strategy<Value = Gpu> {
    prop_oneof![Just(Gpu::G80), Just(Gpu::Gt215), Just(Gpu::Gf100), Just(Gpu::Gm20b), Just(Gpu::Tu102)]
}

fn elem_strategy() -> impl Strategy<Value = u32> {
    prop_oneof![Just(1u32), Just(2), Just(4), Just(8), Just(12), Just(16)]
}

prop_compose! {
    fn surface_params()(gpu in gpu_strategy(), es in elem_strategy(), w in 1u32..70, h in 1u32..70, d in 1u32..6,
                        bw in 0u32..3, bh in 0u32..6, bd in 0u32..4, auto in any::<bool>(), order in 0usize..nvsurf::layout::ALL_GOB_ORDERS.len())
                        -> BlockLinearParams {
        let mut p = BlockLinearParams::new(gpu, if es == 12 && !gpu.is_gf100_or_later() { 16 } else { es }, [w, h, d], [bw, bh, bd]);
        p.auto_size = Some(auto);
        p.gob_order = if gpu.is_gf100_or_later() { nvsurf::layout::ALL_GOB_ORDERS[order] } else { GobOrder::Vm };
        p
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

    #[test]
    fn blocklinear_is_a_bijection_onto_in_bounds_offsets(p in surface_params()) {
        let s = BlockLinear::new(&p).unwrap();
        let es = u64::from(s.elem_size_bytes());
        let mut seen = HashSet::new();
        for z in 0..p.depth {
            for y in 0..p.height {
                for x in 0..s.width() {
                    let o = s.offset_of(x, y, z).unwrap();
                    prop_assert!(o < s.size_bytes());
                    prop_assert!(seen.insert(o), "offset {o:#x} twice");
                    // Every byte of the element is inside too (12-byte elements may straddle gobs).
                    if es != 12 {
                        prop_assert!(o + es <= s.size_bytes());
                        // Blackwell8's runs are 8 bytes: a wider element is split over two
                        // runs, its offset that of its first byte (nil uses the order for
                        // 1-byte formats only).
                        if !(p.gob_order == GobOrder::Blackwell8 && es > 8) {
                            prop_assert_eq!(o % es, 0);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn blocklinear_agrees_with_the_pseudocode(mut p in surface_params(), sx in 0.0f64..1.0, sy in 0.0f64..1.0, sz in 0.0f64..1.0) {
        p.gob_order = GobOrder::Vm;
        let s = BlockLinear::new(&p).unwrap();
        let (x, y, z) = ((sx * p.width as f64) as u32, (sy * p.height as f64) as u32, (sz * p.depth as f64) as u32);
        let (want, size) = pseudocode(p.gpu.is_gf100_or_later(), p.block_log2[0], p.block_log2[1], p.block_log2[2],
            p.auto_size.unwrap(), p.elem_size_bytes.into(), p.width.into(), p.height.into(), p.depth.into(), x.into(), y.into(), z.into());
        prop_assert_eq!(s.size_bytes(), size);
        prop_assert_eq!(s.offset_of(x, y, z).unwrap(), want);
    }

    #[test]
    fn auto_sized_block_is_one_gob_or_less_than_twice_the_surface(mut p in surface_params(), w in 1u32..5000, h in 1u32..5000, d in 1u32..100) {
        p.auto_size = Some(true);
        p.block_log2 = [p.block_log2[0], 5, 5];
        p.width = w;
        p.height = h;
        p.depth = d;
        let s = BlockLinear::new(&p).unwrap();
        let [bx, by, bz] = s.block_extent_bytes_rows_slices();
        let [lx, ly, lz] = s.block_log2();
        prop_assert!(lx == 0 || bx < 2 * s.width_bytes());
        prop_assert!(ly == 0 || by < 2 * u64::from(h));
        prop_assert!(lz == 0 || bz < 2 * u64::from(d));
    }

    #[test]
    fn pitch_and_swizzled_are_bijections(gpu in prop_oneof![Just(Gpu::Nv10), Just(Gpu::Nv40)], lw in 0u32..6, lh in 0u32..6, ld in 0u32..4, es in prop_oneof![Just(1u32), Just(4), Just(16)]) {
        let mut d = SurfaceDesc::new(gpu, es, [1 << lw, 1 << lh, 1 << ld]);
        d.layout = LayoutKind::Swizzled;
        let s = d.build().unwrap();
        let mut seen = HashSet::new();
        for z in 0..1 << ld { for y in 0..1 << lh { for x in 0..1 << lw {
            let o = s.offset_of(x, y, z).unwrap();
            prop_assert!(o + u64::from(es) <= s.size_bytes());
            prop_assert!(seen.insert(o));
        }}}
        prop_assert_eq!(seen.len() as u64 * u64::from(es), s.size_bytes());
        d.layout = LayoutKind::Pitch;
        d.size[2] = 1;
        let s = d.build().unwrap();
        if let Surface::Pitch(p) = s { prop_assert_eq!(p.pitch_bytes(), u64::from(es) << lw); }
    }
}
