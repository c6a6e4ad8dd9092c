//! Cross-check against tegra_swizzle (the Switch tools' crate): GF100 gobs in Tegra order, block
//! width 0, the block height given, and the block depth tegra_swizzle picks from the depth.

use nvsurf::layout::{BlockLinear, BlockLinearParams, GobOrder, Surface};
use nvsurf::tile::{AlignedBuf, CopyOptions};
use nvsurf::{tile, Gpu};
use proptest::prelude::*;
use tegra_swizzle::BlockHeight;

/// tegra_swizzle's block depth (gobs) for a depth (`blockdepth.rs`, documented NVN behaviour:
/// the largest of 16, 8, 4, 2 that is at most depth + depth / 2, else 1).
fn tegra_block_depth(depth: u32) -> u32 {
    let d = depth + depth / 2;
    [16, 8, 4, 2].into_iter().find(|&b| d >= b).unwrap_or(1)
}

fn surface(w: u32, h: u32, d: u32, bpp: u32, bh: u32) -> Surface {
    let mut p = BlockLinearParams::new(
        Gpu::Gm20b,
        bpp,
        [w, h, d],
        [0, bh.trailing_zeros(), tegra_block_depth(d).trailing_zeros()],
    );
    p.gob_order = GobOrder::Tegra;
    p.auto_size = Some(false);
    Surface::BlockLinear(BlockLinear::new(&p).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, .. ProptestConfig::default() })]

    #[test]
    fn same_bytes_as_tegra_swizzle(w in 1u32..300, h in 1u32..300, d in prop_oneof![3 => Just(1u32), 1 => 1u32..20],
                                   bpp in prop_oneof![Just(1u32), Just(2), Just(4), Just(8), Just(16)],
                                   bh_log2 in 0u32..6, seed in any::<u8>()) {
        let bh = 1u32 << bh_log2;
        let block_height = BlockHeight::new(bh).unwrap();
        let s = surface(w, h, d, bpp, bh);
        let linear: Vec<u8> = (0..(w * h * d * bpp) as usize).map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed)).collect();

        let theirs = tegra_swizzle::swizzle::swizzle_block_linear(w, h, d, &linear, block_height, bpp).unwrap();
        prop_assert_eq!(s.size_bytes() as usize, theirs.len());
        prop_assert_eq!(
            tegra_swizzle::swizzle::swizzled_mip_size(w, h, d, block_height, bpp),
            s.size_bytes() as usize
        );
        let ours = tile::tile_to_buf(&s, &linear, &CopyOptions::default()).map(AlignedBuf::into_vec).unwrap();
        prop_assert!(ours == theirs, "tile differs from swizzle_block_linear");

        let back_theirs = tegra_swizzle::swizzle::deswizzle_block_linear(w, h, d, &theirs, block_height, bpp).unwrap();
        let back_ours = tile::untile_to_buf(&s, &theirs, &CopyOptions::default()).map(AlignedBuf::into_vec).unwrap();
        prop_assert!(back_ours == back_theirs, "untile differs from deswizzle_block_linear");
        prop_assert!(back_ours == linear);
    }
}
