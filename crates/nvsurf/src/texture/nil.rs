//! Mesa NVK's own rules for an image's layout, as its layout library `nil` applies them on top
//! of the block choice it shares with NVIDIA's driver ([`super::BlockPolicy::Nvidia`]).
//!
//! Read from Mesa `src/nouveau/nil/image.rs` and `src/nouveau/nil/tiling.rs` at commit
//! 157fa86f6d5def2bec5c91f33be70c138250ab7f (the `sailfishos-mirror/mesa` copy):
//!
//! - **Clamp** (`Tiling::clamp`, applied to every level): the block width is reset to one gob
//!   when the level is smaller than the whole block in any dimension; the block height and depth
//!   are each capped at `ceil(log2(level extent in gobs))`. The hardware's auto-sizing halves
//!   the width instead (envytools `docs/hw/memory/g80-surface.rst`); the two differ only for
//!   blocks wider than one gob, which only sparse images ask for (`docs/ERRATA.md`, "Sparse").
//! - **Layers** (`Image::new_tiled`): the layer is the sum of its levels rounded up to level
//!   0's block, a single layer included; the image is the layers times that stride.
//! - **Alignment**: level 0's block in bytes, at least 64 KiB for a sparse image, then at least
//!   4 KiB; the size is rounded up to the alignment.
//! - **Linear images** (`Image::new_linear`): one level, one layer; rows rounded up to 128 bytes,
//!   256 on Kepler and first-generation Maxwell (`KEPLER_A <= class < MAXWELL_B`: image
//!   storage needs 256-byte addresses); the size is rows times pitch, the alignment the row
//!   alignment (no 4 KiB minimum).
//! - **Sparse** (`Tiling::sparse`, `sparse_block_extent_el`): the block is the Vulkan standard
//!   sparse image block shape in gobs; the mip tail starts at the first level whose clamped
//!   block differs from the requested one.
//! - **Samples** (`SampleLayout::choose_sample_layout`): 1, 2, 4, 8, 16 samples are the
//!   1x1, 2x1 (D3D), 2x2, 4x2 (D3D) and 4x4 sample grids; the block choice reads the pixel
//!   height, the clamp and the sizes the sample-space extent.

use crate::error::{Error, Result};
use crate::extent::{Elements, Extent};
use crate::gpu::Gpu;
use crate::texture::kind::TextureType;

/// What a sparse image's output says about the rule it follows (`docs/ERRATA.md`, "Sparse").
pub const SPARSE_NOTE: &str = "levels clamped by Mesa nil's rule (a level narrower than the block gets a \
                                one-gob-wide block); the hardware's rule for sparse levels is open (docs/ERRATA.md)";

/// The smallest allocation alignment NVK gives a tiled image (image.rs: `max(align_B, 4096)`).
pub const MIN_ALIGN_BYTES: u64 = 4096;

/// The alignment NVK gives a sparse image (image.rs: sparse binding needs 64 KiB).
pub const SPARSE_ALIGN_BYTES: u64 = 1 << 16;

/// Where an allocation alignment comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AlignSource {
    /// Mesa nil's rule (the `nvk` policy).
    Nil,
    /// The hardware's minimum for the layout's address (the gob for blocklinear levels, per
    /// envytools `docs/hw/memory/g80-surface.rst` and ERRATA E11; the element or 64 bytes for
    /// pitch), for policies that are not a driver's.
    Document,
    /// Measured: what NVIDIA's Vulkan driver reported on an H100 (`VkMemoryRequirements`
    /// alignment 1024 for every captured image, single-sampled and 8-sample alike;
    /// `docs/HARDWARE.md`, `tests/data/hardware/gh100-vulkan*/index.jsonl`), given for the
    /// `nvidia` policy on GH100 only.
    NvidiaH100,
    /// Not known for this policy (NVIDIA's driver elsewhere, NVN): no alignment is given.
    Unknown,
}

impl AlignSource {
    /// `nil`, `document` or `unknown`: the JSON word.
    pub const fn name(self) -> &'static str {
        match self {
            AlignSource::Nil => "nil",
            AlignSource::Document => "document",
            AlignSource::NvidiaH100 => "nvidia-h100",
            AlignSource::Unknown => "unknown",
        }
    }
}

/// log2 of the smallest power of two at least `v` (0 for 0 and 1): nil's `ilog2_ceil`.
fn log2_ceil(v: u64) -> u32 {
    if v <= 1 {
        0
    } else {
        64 - (v - 1).leading_zeros()
    }
}

/// nil's clamp of a requested block (log2 gobs x, y, z) to a level of `width_bytes` x
/// `rows` x `depth` (bytes of a row of elements, rows of elements, slices), with gobs of
/// 64 bytes x `gob_rows` rows x 1 slice.
pub fn clamp_block_log2(requested: [u32; 3], [width_bytes, rows, depth]: [u64; 3], gob_rows: u32) -> [u32; 3] {
    let [x, y, z] = requested;
    let block = |log2: u32, unit: u64| unit.checked_shl(log2).unwrap_or(u64::MAX);
    let smaller = width_bytes < block(x, 64) || rows < block(y, gob_rows.into()) || depth < block(z, 1);
    let x = if smaller { 0 } else { x };
    let gobs_high = rows.div_ceil(gob_rows.into());
    [x, y.min(log2_ceil(gobs_high)), z.min(log2_ceil(depth))]
}

/// The Vulkan standard sparse image block shape in elements for `elem_size_bytes`-byte elements
/// (Vulkan 1.3, "Standard Sparse Image Block Shapes", as nil's `sparse_block_extent_el` holds
/// it): 2D images (arrays and cubes too) and 3D images; 64 KiB of elements each.
pub fn sparse_block_elements(ty: TextureType, elem_size_bytes: u32) -> Result<Extent<Elements>> {
    let three_d = match ty {
        TextureType::D3 => true,
        TextureType::D2 | TextureType::D2Array | TextureType::Cube | TextureType::CubeArray => false,
        _ => {
            return Err(Error::Unsupported {
                field: "sparse",
                value: alloc::format!("{ty} texture"),
                rule: "sparse residency is defined for 2D and 3D images (Vulkan standard sparse block shapes)".into(),
            })
        }
    };
    let [w, h, d] = match (three_d, elem_size_bytes) {
        (false, 1) => [256, 256, 1],
        (false, 2) => [256, 128, 1],
        (false, 4) => [128, 128, 1],
        (false, 8) => [128, 64, 1],
        (false, 16) => [64, 64, 1],
        (true, 1) => [64, 32, 32],
        (true, 2) => [32, 32, 32],
        (true, 4) => [32, 32, 16],
        (true, 8) => [32, 16, 16],
        (true, 16) => [16, 16, 16],
        _ => {
            return Err(Error::Unsupported {
                field: "sparse",
                value: alloc::format!("{elem_size_bytes}-byte elements"),
                rule: "standard sparse block shapes exist for 1, 2, 4, 8 and 16-byte elements".into(),
            })
        }
    };
    Ok(Extent::new(w, h, d))
}

/// The block (log2 gobs x, y, z) nil gives a sparse image: the standard sparse block in gobs.
pub fn sparse_block_log2(gpu: Gpu, ty: TextureType, elem_size_bytes: u32) -> Result<[u32; 3]> {
    let e = sparse_block_elements(ty, elem_size_bytes)?;
    let rows = gpu.gob_height_rows().unwrap_or(8);
    let gobs = [(u64::from(e.width) * u64::from(elem_size_bytes)) / 64, u64::from(e.height / rows), u64::from(e.depth)];
    Ok(gobs.map(|g| g.max(1).ilog2()))
}

/// The row alignment of a linear image NVK lays out itself (no explicit row stride): 256 bytes
/// on Kepler and GM107/GM108 (3D class `KEPLER_A` up to, not including, `MAXWELL_B`), else 128.
pub fn linear_row_align_bytes(gpu: Gpu) -> u64 {
    if gpu >= Gpu::Gk104 && gpu < Gpu::Gm200 {
        256
    } else {
        128
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clamp_resets_the_width_and_caps_height_and_depth() {
        // A 256x256-byte sparse block (x 2, y 5) on a level of 128 bytes x 300 rows: narrower
        // than the block, so x goes to 0 (the hardware's auto-size would halve it to 1).
        assert_eq!(clamp_block_log2([2, 5, 0], [128, 300, 1], 8), [0, 5, 0]);
        // Large enough in every dimension: unchanged.
        assert_eq!(clamp_block_log2([2, 5, 0], [256, 256, 1], 8), [2, 5, 0]);
        // 14 rows: 2 gobs high, so at most log2 1.
        assert_eq!(clamp_block_log2([0, 4, 0], [64, 14, 1], 8), [0, 1, 0]);
        // 28 rows (4x2 samples of 14 pixels): 4 gobs, log2 2 caps nothing below it.
        assert_eq!(clamp_block_log2([0, 1, 0], [64, 28, 1], 8), [0, 1, 0]);
        assert_eq!(clamp_block_log2([0, 0, 4], [64, 8, 5], 8), [0, 0, 3]);
        assert_eq!(clamp_block_log2([0, 5, 5], [64, 1, 1], 8), [0, 0, 0]);
    }

    #[test]
    fn sparse_blocks_are_64_kib_of_whole_gobs() {
        for ty in [TextureType::D2, TextureType::D3] {
            for e in [1, 2, 4, 8, 16] {
                let b = sparse_block_elements(ty, e).unwrap();
                assert_eq!(b.count() * u64::from(e), 1 << 16, "{ty} {e}");
                let [x, y, z] = sparse_block_log2(Gpu::Tu102, ty, e).unwrap();
                assert_eq!(((64u64 << x) * (8 << y)) << z, 1 << 16, "{ty} {e}");
            }
        }
        assert_eq!(sparse_block_log2(Gpu::Tu102, TextureType::D2, 1).unwrap(), [2, 5, 0]);
        assert_eq!(sparse_block_log2(Gpu::Tu102, TextureType::D3, 16).unwrap(), [2, 1, 4]);
        assert!(sparse_block_elements(TextureType::D1, 4).is_err());
        assert!(sparse_block_elements(TextureType::D2, 12).is_err());
    }

    #[test]
    fn linear_rows_align_to_256_on_kepler_only() {
        assert_eq!(linear_row_align_bytes(Gpu::Gf100), 128);
        assert_eq!(linear_row_align_bytes(Gpu::Gk104), 256);
        assert_eq!(linear_row_align_bytes(Gpu::Gm107), 256);
        assert_eq!(linear_row_align_bytes(Gpu::Gm204), 128);
        assert_eq!(linear_row_align_bytes(Gpu::Gh100), 128);
        assert_eq!(log2_ceil(5), 3);
        assert_eq!(log2_ceil(4), 2);
    }
}
