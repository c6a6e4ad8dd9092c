//! Block-size policies: which block size (log2 gobs x, y, z) a texture asks for.
//!
//! The layout rule (envytools `docs/hw/memory/g80-surface.rst`: every level auto-sizes the
//! requested block, the layer is rounded up to level 0's block) is kept apart from the choice of
//! the requested block, because that choice is not the hardware's: a driver or file format writes
//! it into the TIC. Four policies:
//!
//! - [`BlockPolicy::Explicit`]: the block log2 a TIC holds, given by the user.
//! - [`BlockPolicy::Max`]: ask for 32 gobs in y and z (log2 5, the largest the document allows)
//!   and 1 gob in x, and let the texture unit's auto-sizing shrink each level to fit (envytools
//!   `docs/hw/memory/g80-surface.rst`, "Blocklinear surfaces": "the auto-sizing is needed to ensure
//!   that small mipmaps of a large surface don't use needlessly large blocks"). This gives the
//!   smallest block that covers level 0 in y and z.
//! - [`BlockPolicy::Nvn`]: the convention of NVIDIA's NVN API that Switch tools reproduce
//!   (the `tegra_swizzle` crate's `block_height_mip0`, Switch-Toolbox): the level-0 block
//!   height in gobs is 16 if `h + h/2 >= 128`, 8 if `>= 64`, 4 if `>= 32`, 2 if `>= 16`, else 1,
//!   with `h` the level-0 height in element rows; a texture of depth > 1 asks for a block height
//!   of 1 gob whatever its height, and a block depth from the depth in slices by the same
//!   thresholds (16, 8, 4, 2); a texture of a single layer is not padded up to the block size
//!   (Switch files store it so). The 3D rule is `tegra_swizzle`'s (ScanMountGoat/tegra_swizzle
//!   `src/surface.rs`, `swizzled_surface_size` and `swizzle_surface_inner`: the block height is
//!   `BlockHeight::One` unless the depth is 1; `src/blockdepth.rs`, `block_depth`), and the
//!   proprietary driver's as Mesa's nil reproduces it (see [`BlockPolicy::Nvidia`]: 3D images
//!   one gob tall); a 3D texture of depth 1 keeps the height rule, as in `tegra_swizzle`.
//!   The thresholds assume 8-row gobs, so the policy is accepted on GF100 and later only.
//! - [`BlockPolicy::Nvidia`]: the choice of NVIDIA's own driver as Mesa's NVK reproduces it
//!   (Mesa `src/nouveau/nil/tiling.rs`, `Tiling::choose`, read at sailfishos-mirror/mesa
//!   157fa86f; its comment says the rule matches "what the proprietary driver picks", after
//!   gitlab.freedesktop.org/mhenning/re): 2D textures (also arrays, cubes, RECT) ask for a
//!   block height of 16 gobs if the level-0 height in *texels* `h` has `h + h/2 >= 128`, 8 if
//!   `>= 64`, 4 if `>= 32`, 2 if `>= 16`, else 1 (NVN's thresholds, but on texels, which
//!   differ from element rows for compressed formats); 3D textures ask for a block height of
//!   1 gob and a depth from the level-0 depth by the same thresholds in slices (16, 8, 4, 2);
//!   1D textures for one gob. Every level then auto-sizes and the layer is padded to level
//!   0's block, as for `Max`. Accepted on GF100 and later (8-row gobs).
//!   Earlier NVK (Mesa's `nil_image.c`, and `tiling.rs` up to 4cae541c) asked for (0, 5, 5):
//!   that is [`BlockPolicy::Max`], which a review (session 10) found equal to it in every
//!   level's block, offset and size and in the layer stride, over 52 fixed and 400 random
//!   textures on GF100 and TU102. Not modelled, from the same source: NVK rounds the image's
//!   allocation up to max(level-0 block, 4096 bytes) (no offset moves); a 3D image created 2D
//!   view compatible, or a 3D depth/stencil image, gets a block depth of 1 (use
//!   `Explicit([0, y, 0])`); sparse images (64 KiB blocks) and DRM modifiers.

use super::kind::TextureType;
use crate::error::{Error, Result};
use crate::extent::{Elements, Extent, Texels};
use crate::gpu::Gpu;
use alloc::string::ToString;

/// How the requested block size of a texture is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BlockPolicy {
    /// An explicit block log2 (gobs per block in x, y, z), as a TIC holds it.
    Explicit([u32; 3]),
    /// Request log2 (0, 5, 5) and let auto-sizing shrink every level.
    Max,
    /// The NVN / Switch convention (see the module docs).
    Nvn,
    /// NVIDIA's driver's choice, as Mesa's NVK reproduces it (see the module docs).
    Nvidia,
    /// Mesa NVK's whole rule (`nil`): [`BlockPolicy::Nvidia`]'s requested block, each level's
    /// block clamped as nil clamps it, every layer (a single one too) padded to level 0's block,
    /// the size rounded up to the allocation alignment (the rules of `texture/nil.rs`).
    Nvk,
}

impl Default for BlockPolicy {
    /// [`BlockPolicy::Max`]: valid for any size, and the smallest block covering level 0.
    fn default() -> Self {
        BlockPolicy::Max
    }
}

/// The NVN rule for one dimension: log2 gobs (0..=4) from an extent in gob units (element rows
/// for y, slices for z): 16 gobs if `e + e/2 >= 16 * g`, ... with `g` = 8 rows for y, 1 for z.
fn nvn_log2(extent: u64, gob_extent: u64) -> u32 {
    let e = extent + extent / 2;
    // 16 gobs when e >= 16 * gob (128 rows), 8 when e >= 8 * gob, ..., 2 when e >= 2 * gob.
    (1..=4).rev().find(|&l| e >= gob_extent << l).unwrap_or(0)
}

impl BlockPolicy {
    /// The CLI name: `explicit`, `max`, `nvn`, `nvidia`.
    pub const fn name(self) -> &'static str {
        match self {
            BlockPolicy::Explicit(_) => "explicit",
            BlockPolicy::Max => "max",
            BlockPolicy::Nvn => "nvn",
            BlockPolicy::Nvidia => "nvidia",
            BlockPolicy::Nvk => "nvk",
        }
    }

    /// Parses a named policy: `max`, `nvn` (aliases `switch`, `tegra`), `nvidia` (alias
    /// `blob`) or `nvk` (aliases `nil`, `mesa`).
    pub fn parse(name: &str) -> Result<BlockPolicy> {
        match name.trim().to_ascii_lowercase().as_str() {
            "max" | "auto" => Ok(BlockPolicy::Max),
            "nvn" | "switch" | "tegra" | "nx" => Ok(BlockPolicy::Nvn),
            "nvidia" | "blob" => Ok(BlockPolicy::Nvidia),
            "nvk" | "nil" | "mesa" => Ok(BlockPolicy::Nvk),
            _ => Err(Error::UnknownName {
                kind: "block policy",
                name: name.to_string(),
                suggestions: crate::error::closest(name, ["max", "nvn", "switch", "nvidia", "nvk"]),
            }),
        }
    }

    /// The block log2 (x, y, z) this policy requests for a texture whose level 0 is
    /// `elements_level0` (width, height, depth in elements) on `gpu`. For
    /// [`BlockPolicy::Nvidia`], which depends on the texture type and counts texels, this
    /// takes the elements as texels and a depth above 1 as 3D; [`BlockPolicy::requested_log2_for`]
    /// has both.
    pub fn requested_log2(self, gpu: Gpu, elements_level0: impl Into<Extent<Elements>>) -> Result<[u32; 3]> {
        let e: Extent<Elements> = elements_level0.into();
        let ty = if e.depth > 1 { TextureType::D3 } else { TextureType::D2 };
        // Documented above: the Nvidia rule counts texels, and here the elements stand in.
        self.requested_log2_for(gpu, ty, e.to_array(), e)
    }

    /// The block log2 (x, y, z) this policy requests for a texture of type `ty` whose level 0
    /// is `texels_level0` (width, height, depth in texels) and `elements_level0` (the same in
    /// elements: compressed formats hold several texels per element) on `gpu`.
    pub fn requested_log2_for(
        self,
        gpu: Gpu,
        ty: TextureType,
        texels_level0: impl Into<Extent<Texels>>,
        elements_level0: impl Into<Extent<Elements>>,
    ) -> Result<[u32; 3]> {
        let texels_level0 = texels_level0.into().to_array();
        let elements_level0 = elements_level0.into().to_array();
        let eight_row_gobs = |what: &str| {
            gpu.gob_height_rows().filter(|&r| r == 8).ok_or_else(|| Error::Unsupported {
                field: "block policy",
                value: alloc::format!("{what} on {gpu}"),
                rule: alloc::format!("the {what} rule is defined for 8-row (GF100 and later) gobs"),
            })
        };
        match self {
            BlockPolicy::Explicit(b) => Ok(b),
            BlockPolicy::Max => Ok([0, 5, 5]),
            BlockPolicy::Nvn => {
                let rows = eight_row_gobs("nvn")?;
                let [_, h, d] = elements_level0;
                // Depth > 1: one gob tall (tegra_swizzle `src/surface.rs`, see the module docs).
                let y = if d > 1 { 0 } else { nvn_log2(h.into(), rows.into()) };
                Ok([0, y, nvn_log2(d.into(), 1)])
            }
            BlockPolicy::Nvidia | BlockPolicy::Nvk => {
                let rows = eight_row_gobs(self.name())?;
                Ok(match ty {
                    TextureType::D3 => [0, 0, nvn_log2(texels_level0[2].into(), 1)],
                    TextureType::D1 | TextureType::D1Array | TextureType::Buffer => [0, 0, 0],
                    _ => [0, nvn_log2(texels_level0[1].into(), rows.into()), 0],
                })
            }
        }
    }

    /// Whether a texture of a single layer is padded up to level 0's block size (the document's
    /// rule, kept for `max` and explicit blocks). The drivers' policies leave it unpadded: a
    /// Switch file stores it so (NVN), and the H100's Vulkan driver sizes a single-layer image
    /// at the end of its last level (256x256 RGBA8 with 9 levels: 351,232 bytes, not 352,256;
    /// `docs/HARDWARE.md`). Arrays keep the aligned layer stride either way.
    pub const fn pads_single_layer(self) -> bool {
        !matches!(self, BlockPolicy::Nvn | BlockPolicy::Nvidia)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nvn_thresholds() {
        // The NVN rule as `block_height_mip0` applies it, checked at each boundary (h + h/2 against
        // 16, 32, 64, 128).
        for (h, want) in [(1, 0), (10, 0), (11, 1), (21, 1), (22, 2), (42, 2), (43, 3), (85, 3), (86, 4), (4096, 4)] {
            let got = BlockPolicy::Nvn.requested_log2(Gpu::Gm20b, [1, h, 1]).unwrap();
            assert_eq!(got[1], want, "height {h}");
        }
        // Depth thresholds in slices: 16, 8, 4, 2.
        for (d, want) in [(1, 0), (2, 1), (3, 2), (5, 2), (6, 3), (11, 4), (64, 4)] {
            assert_eq!(BlockPolicy::Nvn.requested_log2(Gpu::Gm20b, [1, 1, d]).unwrap()[2], want, "depth {d}");
        }
        // Depth > 1: one gob tall whatever the height (tegra_swizzle `src/surface.rs`); depth 1
        // keeps the height rule.
        for (h, d, want) in [(300, 3, [0, 0, 2]), (4096, 2, [0, 0, 1]), (86, 64, [0, 0, 4]), (86, 1, [0, 4, 0])] {
            assert_eq!(BlockPolicy::Nvn.requested_log2(Gpu::Gm20b, [20, h, d]).unwrap(), want, "{h}x{d}");
            let ty = if d > 1 { TextureType::D3 } else { TextureType::D2 };
            assert_eq!(BlockPolicy::Nvn.requested_log2_for(Gpu::Gm20b, ty, [20, h, d], [20, h, d]).unwrap(), want);
        }
        assert!(BlockPolicy::Nvn.requested_log2(Gpu::G80, [1, 64, 1]).is_err());
        assert_eq!(BlockPolicy::parse("Switch").unwrap(), BlockPolicy::Nvn);
        assert!(BlockPolicy::parse("nvm").is_err());
    }

    #[test]
    fn nvidia_thresholds_count_texels_and_keep_3d_flat() {
        let p = BlockPolicy::Nvidia;
        // 2D: the height in texels, thresholds 11, 22, 43, 86 (h + h/2 against 16..128).
        for (h, want) in [(1, 0), (10, 0), (11, 1), (21, 1), (22, 2), (42, 2), (43, 3), (85, 3), (86, 4), (4096, 4)] {
            assert_eq!(p.requested_log2_for(Gpu::Tu102, TextureType::D2, [1, h, 1], [1, h, 1]).unwrap(), [0, want, 0]);
            assert_eq!(p.requested_log2_for(Gpu::Gf100, TextureType::Cube, [h, h, 1], [h, h, 1]).unwrap()[1], want);
        }
        // A compressed 36x36 texture is 9x9 elements: 36 texels ask for 4 gobs (auto-sizing
        // then clamps level 0's 9 rows to 2), where NVN's 9 element rows ask for 1.
        assert_eq!(p.requested_log2_for(Gpu::Tu102, TextureType::D2, [36, 36, 1], [9, 9, 1]).unwrap(), [0, 2, 0]);
        assert_eq!(
            BlockPolicy::Nvn.requested_log2_for(Gpu::Tu102, TextureType::D2, [36, 36, 1], [9, 9, 1]).unwrap()[1],
            0
        );
        // 3D: one gob tall whatever the height; the depth by 2, 3, 6, 11 slices.
        for (d, want) in [(1, 0), (2, 1), (3, 2), (5, 2), (6, 3), (10, 3), (11, 4), (64, 4)] {
            assert_eq!(
                p.requested_log2_for(Gpu::Tu102, TextureType::D3, [64, 64, d], [64, 64, d]).unwrap(),
                [0, 0, want]
            );
        }
        // 1D: one gob.
        assert_eq!(
            p.requested_log2_for(Gpu::Tu102, TextureType::D1Array, [4096, 1, 1], [4096, 1, 1]).unwrap(),
            [0, 0, 0]
        );
        assert!(p.requested_log2_for(Gpu::G80, TextureType::D2, [64, 64, 1], [64, 64, 1]).is_err());
        assert_eq!(BlockPolicy::parse("blob").unwrap(), p);
        assert_eq!(BlockPolicy::parse(p.name()).unwrap(), p);
    }
}
