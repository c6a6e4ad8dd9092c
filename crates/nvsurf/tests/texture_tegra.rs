//! Cross-check of the texture model against the `tegra_swizzle` crate (0.4), the layout Switch
//! tools use: the NVN block policy, GF100+ (Tegra X1 = GM20B) gobs and the Tegra in-gob order.
//!
//! For 2D textures, arrays and cubes, plain and 4x4-block (BC) formats:
//! - sizes: our level offsets, layer stride and total size equal what `swizzled_surface_size`
//!   gives for the same texture (level `i` starts where a surface of `i` levels ends);
//! - bytes: a tiled image built from our per-element offsets (`Texture::offset_of`, Tegra gob
//!   order) equals `swizzle_surface`'s output for the same packed linear input, and so does the
//!   output of the tiling engine (`Texture::tile_to_vec`); `Texture::untile_to_vec` reads the
//!   linear input back from `swizzle_surface`'s output.
//!
//! 3D: `tegra_swizzle` uses a block height of 1 gob for every texture of depth > 1
//! (ScanMountGoat/tegra_swizzle `src/surface.rs`), and so does `BlockPolicy::Nvn`; its block
//! depth (chosen per level from the level's own depth with the NVN thresholds) agrees with the
//! document's auto-sizing in every case tested (`three_d_sizes_and_bytes_match`).

use nvsurf::layout::{GobOrder, LayoutKind};
use nvsurf::texture::{BlockPolicy, Texture, TextureDesc, TextureType};
use nvsurf::tile::{AlignedBuf, CopyOptions};
use nvsurf::Gpu;
use tegra_swizzle::surface::{swizzle_surface, swizzled_surface_size, BlockDim};

fn block_dim(texels: u32) -> BlockDim {
    if texels == 4 {
        BlockDim::block_4x4()
    } else {
        BlockDim::uncompressed()
    }
}

fn ours(ty: TextureType, size: [u32; 3], bpp: u32, texels: u32, levels: u32, layers: u32) -> Texture {
    let mut d = TextureDesc::new(Gpu::Gm20b, ty, bpp, size);
    d.texels_per_elem = [texels, texels];
    d.levels = levels;
    d.layers = layers;
    d.layout = LayoutKind::BlockLinear;
    d.block = BlockPolicy::Nvn;
    d.gob_order = GobOrder::Tegra;
    d.build().unwrap_or_else(|e| panic!("{ty} {size:?} bpp {bpp} levels {levels} layers {layers}: {e}"))
}

fn theirs_size(size: [u32; 3], bpp: u32, texels: u32, levels: u32, layers: u32) -> u64 {
    swizzled_surface_size(size[0], size[1], size[2], block_dim(texels), None, bpp, levels, layers) as u64
}

/// A deterministic byte pattern that differs for every byte of a large image.
fn pattern(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i as u32).wrapping_mul(2654435761).rotate_left(7) as u8 ^ (i >> 8) as u8).collect()
}

/// The tiled dump built from the model's per-element offsets.
fn tile_by_offsets(t: &Texture, linear: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; t.size_bytes() as usize];
    let es = t.elem_size_bytes() as usize;
    for sub in t.subresources() {
        let [w, h, d] = sub.elements.to_array();
        let mut src = sub.linear_offset_bytes as usize;
        for z in 0..d {
            for y in 0..h {
                for x in 0..w {
                    let dst = t.offset_of(sub.level, sub.layer, [x, y, z]).unwrap() as usize;
                    out[dst..dst + es].copy_from_slice(&linear[src..src + es]);
                    src += es;
                }
            }
        }
    }
    out
}

const SIZES: [u32; 14] = [1, 3, 4, 15, 16, 17, 43, 64, 65, 86, 100, 128, 300, 512];

#[test]
fn sizes_and_offsets_match_2d_arrays_cubes() {
    let mut cases = 0;
    for &w in &SIZES {
        for &h in &SIZES {
            for (bpp, texels) in [(1, 1), (4, 1), (16, 1), (8, 4), (16, 4)] {
                let max = nvsurf::texture::max_levels([w, h, 1]);
                for levels in [1, 2, max] {
                    let levels = levels.min(max);
                    for layers in [1, 2, 6] {
                        let ty = if layers == 6 && w == h {
                            TextureType::Cube
                        } else if layers > 1 {
                            TextureType::D2Array
                        } else {
                            TextureType::D2
                        };
                        let t = ours(ty, [w, h, 1], bpp, texels, levels, layers);
                        let ctx = format!("{ty} {w}x{h} bpp {bpp} texels {texels} levels {levels} layers {layers}");
                        assert_eq!(t.size_bytes(), theirs_size([w, h, 1], bpp, texels, levels, layers), "{ctx}");
                        for l in t.levels() {
                            let start = theirs_size([w, h, 1], bpp, texels, l.level, 1);
                            assert_eq!(l.offset_bytes, start, "{ctx}: level {}", l.level);
                        }
                        if layers > 1 {
                            assert_eq!(t.layer_stride_bytes() * u64::from(layers), t.size_bytes(), "{ctx}");
                        }
                        cases += 1;
                    }
                }
            }
        }
    }
    assert!(cases > 2500, "{cases}");
}

#[test]
fn bytes_match_2d_arrays_cubes() {
    for (ty, size, bpp, texels, levels, layers) in [
        (TextureType::D2, [256, 256, 1], 4, 1, 9, 1),
        (TextureType::D2, [300, 200, 1], 4, 1, 9, 1),
        (TextureType::D2, [100, 17, 1], 16, 1, 3, 1),
        (TextureType::D2, [256, 256, 1], 16, 4, 9, 1),
        (TextureType::D2, [260, 130, 1], 8, 4, 5, 1),
        (TextureType::D2Array, [64, 100, 1], 2, 1, 7, 3),
        (TextureType::D2Array, [96, 96, 1], 16, 4, 4, 2),
        (TextureType::Cube, [64, 64, 1], 4, 1, 7, 6),
        (TextureType::Cube, [128, 128, 1], 16, 4, 8, 6),
        (TextureType::Cube, [33, 33, 1], 1, 1, 6, 6),
    ] {
        let t = ours(ty, size, bpp, texels, levels, layers);
        let linear = pattern(t.linear_size_bytes() as usize);
        let theirs =
            swizzle_surface(size[0], size[1], 1, &linear, block_dim(texels), None, bpp, levels, layers).unwrap();
        let mine = tile_by_offsets(&t, &linear);
        assert_eq!(mine.len(), theirs.len(), "{ty} {size:?}");
        assert!(mine == theirs, "{ty} {size:?} bpp {bpp}: tiled bytes differ (model offsets)");
        // The tiling engine, subresource by subresource, gives the same dump and reads it back.
        let engine = t.tile_to_buf(&linear, &CopyOptions::default()).map(AlignedBuf::into_vec).unwrap();
        assert!(engine == theirs, "{ty} {size:?} bpp {bpp}: tiled bytes differ (tile engine)");
        assert!(
            t.untile_to_buf(&theirs, &CopyOptions::default()).map(AlignedBuf::into_vec).unwrap() == linear,
            "{ty} {size:?} bpp {bpp}: untile"
        );
    }
}

/// 3D under the NVN policy: every level's end, the total size and the tiled bytes equal
/// `tegra_swizzle`'s, for fixed sizes (the review's 20x300x3 among them) and random ones, plain
/// and 4x4-block formats; the block is one gob tall.
#[test]
fn three_d_sizes_and_bytes_match() {
    let mut cases: Vec<([u32; 3], u32, u32)> = vec![
        ([20, 300, 3], 4, 1),
        ([16, 16, 16], 4, 1),
        ([64, 8, 4], 4, 1),
        ([32, 32, 5], 4, 1),
        ([8, 8, 33], 4, 1),
        ([100, 3, 7], 4, 1),
        ([17, 9, 12], 4, 1),
        ([64, 64, 8], 8, 4),
        ([256, 256, 2], 16, 4),
    ];
    // A small LCG: deterministic random sizes without a crate.
    let mut seed = 0x2545_f491_u64;
    let mut next = |n: u32| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as u32 % n + 1
    };
    for _ in 0..40 {
        let (bpp, texels) = [(1, 1), (4, 1), (8, 1), (16, 1), (8, 4), (16, 4)][next(6) as usize - 1];
        cases.push(([next(300), next(300), next(40) + 1], bpp, texels));
    }
    for (size, bpp, texels) in cases {
        let [w, h, d] = size;
        let max = nvsurf::texture::max_levels(size);
        for levels in [1, max.min(4), max] {
            let t = ours(TextureType::D3, size, bpp, texels, levels, 1);
            let ctx = format!("{w}x{h}x{d} bpp {bpp} texels {texels} levels {levels}");
            assert_eq!(t.levels()[0].block_log2.unwrap()[1], 0, "{ctx}: one gob tall");
            assert_eq!(t.size_bytes(), theirs_size(size, bpp, texels, levels, 1), "{ctx}");
            for l in t.levels() {
                let end = theirs_size(size, bpp, texels, l.level + 1, 1);
                assert_eq!(l.offset_bytes + l.size_bytes, end, "{ctx}: level {}", l.level);
            }
            let linear = pattern(t.linear_size_bytes() as usize);
            let theirs = swizzle_surface(w, h, d, &linear, block_dim(texels), None, bpp, levels, 1).unwrap();
            let mine = t.tile_to_buf(&linear, &CopyOptions::default()).map(AlignedBuf::into_vec).unwrap();
            assert!(mine == theirs, "{ctx}: tiled bytes differ");
            assert!(
                t.untile_to_buf(&theirs, &CopyOptions::default()).map(AlignedBuf::into_vec).unwrap() == linear,
                "{ctx}: untile"
            );
        }
    }
}
