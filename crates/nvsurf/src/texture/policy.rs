//! Block-size policies: which block size (log2 gobs x, y, z) a texture asks for.
//!
//! The layout rule (seed 000: every level auto-sizes the requested block, the layer is rounded up
//! to level 0's block) is kept apart from the choice of the requested block, because that choice
//! is not the hardware's: a driver or file format writes it into the TIC. Three policies:
//!
//! - [`BlockPolicy::Explicit`]: the block log2 a TIC holds, given by the user.
//! - [`BlockPolicy::Max`]: ask for 32 gobs in y and z (log2 5, the largest the document allows)
//!   and 1 gob in x, and let the texture unit's auto-sizing shrink each level to fit (seed 000,
//!   "Blocklinear surfaces": "the auto-sizing is needed to ensure that small mipmaps of a large
//!   surface don't use needlessly large blocks"). This gives the smallest block that covers
//!   level 0 in y and z.
//! - [`BlockPolicy::Nvn`]: the convention of NVIDIA's NVN API that Switch tools reproduce
//!   (issue 4; the `tegra_swizzle` crate's `block_height_mip0`, Switch-Toolbox): the level-0 block
//!   height in gobs is 16 if `h + h/2 >= 128`, 8 if `>= 64`, 4 if `>= 32`, 2 if `>= 16`, else 1,
//!   with `h` the level-0 height in element rows; the block depth likewise from the depth; and a
//!   texture of a single layer is not padded up to the block size (Switch files store it so).
//!   The thresholds assume 8-row gobs, so the policy is accepted on GF100 and later only.
//!   Known difference: `tegra_swizzle` 0.4 forces a block height of 1 gob for every texture of
//!   depth > 1 instead of choosing it from the height; to reproduce 3D files written that way use
//!   `Explicit([0, 0, z])` with `z` the NVN block depth (tests/texture_tegra.rs checks that the
//!   offsets and bytes then agree).

use crate::error::{Error, Result};
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
    /// The CLI name: `explicit`, `max`, `nvn`.
    pub const fn name(self) -> &'static str {
        match self {
            BlockPolicy::Explicit(_) => "explicit",
            BlockPolicy::Max => "max",
            BlockPolicy::Nvn => "nvn",
        }
    }

    /// Parses a named policy: `max`, or `nvn` (aliases `switch`, `tegra`).
    pub fn parse(name: &str) -> Result<BlockPolicy> {
        match name.trim().to_ascii_lowercase().as_str() {
            "max" | "auto" => Ok(BlockPolicy::Max),
            "nvn" | "switch" | "tegra" | "nx" => Ok(BlockPolicy::Nvn),
            _ => Err(Error::UnknownName {
                kind: "block policy",
                name: name.to_string(),
                suggestions: crate::error::closest(name, ["max", "nvn", "switch"]),
            }),
        }
    }

    /// The block log2 (x, y, z) this policy requests for a texture whose level 0 is
    /// `elements_level0` (width, height, depth in elements) on `gpu`.
    pub fn requested_log2(self, gpu: Gpu, elements_level0: [u32; 3]) -> Result<[u32; 3]> {
        match self {
            BlockPolicy::Explicit(b) => Ok(b),
            BlockPolicy::Max => Ok([0, 5, 5]),
            BlockPolicy::Nvn => {
                let rows = gpu.gob_height_rows().filter(|&r| r == 8).ok_or_else(|| Error::Unsupported {
                    field: "block policy",
                    value: alloc::format!("nvn on {gpu}"),
                    rule: "the NVN convention is defined for 8-row (GF100 and later) gobs".to_string(),
                })?;
                Ok([0, nvn_log2(elements_level0[1].into(), rows.into()), nvn_log2(elements_level0[2].into(), 1)])
            }
        }
    }

    /// Whether a texture of a single layer is padded up to level 0's block size (the document's
    /// rule); the NVN convention leaves it unpadded.
    pub const fn pads_single_layer(self) -> bool {
        !matches!(self, BlockPolicy::Nvn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nvn_thresholds() {
        // The rule as stated in issue 4, checked at each boundary (h + h/2 against 16, 32, 64, 128).
        for (h, want) in [(1, 0), (10, 0), (11, 1), (21, 1), (22, 2), (42, 2), (43, 3), (85, 3), (86, 4), (4096, 4)] {
            let got = BlockPolicy::Nvn.requested_log2(Gpu::Gm20b, [1, h, 1]).unwrap();
            assert_eq!(got[1], want, "height {h}");
        }
        // Depth thresholds in slices: 16, 8, 4, 2.
        for (d, want) in [(1, 0), (2, 1), (3, 2), (5, 2), (6, 3), (11, 4), (64, 4)] {
            assert_eq!(BlockPolicy::Nvn.requested_log2(Gpu::Gm20b, [1, 1, d]).unwrap()[2], want, "depth {d}");
        }
        assert!(BlockPolicy::Nvn.requested_log2(Gpu::G80, [1, 64, 1]).is_err());
        assert_eq!(BlockPolicy::parse("Switch").unwrap(), BlockPolicy::Nvn);
        assert!(BlockPolicy::parse("nvm").is_err());
    }
}
