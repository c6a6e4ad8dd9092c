//! [`TextureDesc`]: level 0 of layer 0 (as a TIC describes it), the level and layer counts, and the
//! layout choices; [`LevelPlacement`], where the levels of a layer go.

use super::kind::TextureType;
use super::policy::BlockPolicy;
use crate::error::Result;
use crate::extent::{Elements, Extent, Texels};
use crate::gpu::Gpu;
use crate::layout::binding::TextureBlockWidth;
use crate::layout::gob::GobOrder;
use crate::layout::surface::LayoutKind;
use crate::msaa::MsMode;
use alloc::vec::Vec;

/// Where the levels of a layer are placed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum LevelPlacement {
    /// Back to back, each right after the previous one ends (the hardware's rule).
    #[default]
    Packed,
    /// Back to back, each level's start rounded up to a multiple of this many bytes (some file
    /// formats put each level on a 512-byte boundary).
    AlignEach(u64),
    /// Each level at its own offset in bytes from the start of its layer (one per level,
    /// non-decreasing, levels must not overlap).
    Offsets(Vec<u64>),
}

/// A texture descriptor: level 0 of layer 0, the counts, and the layout choices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextureDesc {
    /// The GPU.
    pub gpu: Gpu,
    /// The texture type.
    pub ty: TextureType,
    /// The layout of every level: blocklinear or pitch on G80+ (pitch for RECT only), swizzled
    /// or pitch ("linear") before G80. Ignored for BUFFER.
    pub layout: LayoutKind,
    /// Bytes per element (a texel, or a compressed block of texels).
    pub elem_size_bytes: u32,
    /// Texels per element in x and y: `[1, 1]`, or `[4, 4]` for the BC/DXT formats.
    pub texels_per_elem: [u32; 2],
    /// Level-0 width, height, depth in texels.
    pub size_texels: Extent<Texels>,
    /// Number of mip levels (1 to `floor(log2(max dim)) + 1`).
    pub levels: u32,
    /// Number of layers (subtextures): 1, 6 for CUBE, a multiple of 6 for CUBE_ARRAY.
    pub layers: u32,
    /// How the requested block size is chosen (blocklinear only).
    pub block: BlockPolicy,
    /// The in-gob byte order of the dump (blocklinear only).
    pub gob_order: GobOrder,
    /// How the texture unit treats block width > 0 (OPEN question, see `layout::binding`).
    pub texture_block_width: TextureBlockWidth,
    /// Pitch in bytes (pitch / linear layout); `None` = level 0's row (pre-G80) or that row
    /// rounded up to 64 (G80+).
    pub pitch_bytes: Option<u64>,
    /// Level placement override.
    pub placement: LevelPlacement,
    /// Layer stride override in bytes (at least the end of the last level).
    pub layer_stride_bytes: Option<u64>,
    /// Whether a texture of a single layer is padded up to level 0's block: `None` follows the
    /// block policy ([`BlockPolicy::pads_single_layer`]); `Some(false)` keeps a driver's rule
    /// with an explicit block (the `switch` preset: [`crate::Platform::pads_single_layer`]).
    pub pad_single_layer: Option<bool>,
    /// Samples per pixel: 1, 2, 4, 8 or 16 (a 2D texture of one level; GF100 and later). The
    /// size stays in pixels; each level is stored as its sample grid under the mode a Vulkan
    /// driver uses for the count ([`crate::msaa::MsMode::for_sample_count`]), and the block is
    /// chosen from the pixel size (Mesa nil and the H100 agree, `docs/HARDWARE.md`).
    pub samples: u32,
    /// Sparse residency (Vulkan sparse images, as Mesa nil lays them out): the block is the
    /// standard sparse block shape, clamped per level as nil clamps it, and the allocation
    /// aligned to 64 KiB.
    pub sparse: bool,
}

impl TextureDesc {
    /// A descriptor with one level, the type's default layer count, the GPU's natural layout
    /// (pitch for RECT before G80), the `max` block policy and the VM gob order.
    /// `size_texels` is an [`Extent<Texels>`], or a plain `[w, h, d]` taken as one.
    pub fn new(gpu: Gpu, ty: TextureType, elem_size_bytes: u32, size_texels: impl Into<Extent<Texels>>) -> TextureDesc {
        let layout = if ty == TextureType::Rect && !gpu.is_g80_or_later() {
            LayoutKind::Pitch
        } else {
            LayoutKind::default_for(gpu)
        };
        TextureDesc {
            gpu,
            ty,
            layout,
            elem_size_bytes,
            texels_per_elem: [1, 1],
            size_texels: size_texels.into(),
            levels: 1,
            layers: ty.default_layers(),
            block: BlockPolicy::default(),
            gob_order: GobOrder::Vm,
            texture_block_width: TextureBlockWidth::Document,
            pitch_bytes: None,
            placement: LevelPlacement::Packed,
            layer_stride_bytes: None,
            pad_single_layer: None,
            samples: 1,
            sparse: false,
        }
    }

    /// The size in texels of level `level` (each dimension halved per level, at least 1).
    pub fn level_texels(&self, level: u32) -> Extent<Texels> {
        self.size_texels.map(|v| v.checked_shr(level).unwrap_or(0).max(1))
    }

    /// The size in elements of level `level`: texels divided by [`Self::texels_per_elem`],
    /// rounded up.
    pub fn level_elements(&self, level: u32) -> Extent<Elements> {
        self.level_texels(level).to_elements_by(self.texels_per_elem)
    }

    /// Whether Mesa nil's own rules apply ([`BlockPolicy::Nvk`], or a sparse image, which only
    /// nil's rules describe): nil's clamp per level, every layer padded, the allocation aligned.
    pub fn uses_nil_rules(&self) -> bool {
        self.block == BlockPolicy::Nvk || self.sparse
    }

    /// The multisample mode of [`Self::samples`] ([`MsMode::for_sample_count`]).
    pub fn sample_mode(&self) -> Result<MsMode> {
        MsMode::for_sample_count(self.samples)
    }

    /// What a level of `pixels` elements stores: the same with one sample, else the sample grid
    /// (each pixel `grid` elements across and down).
    pub fn stored_elements(&self, pixels: Extent<Elements>) -> Result<Extent<Elements>> {
        if self.samples == 1 {
            return Ok(pixels);
        }
        let pixels: Extent<Texels> = pixels.to_array().into();
        Ok(pixels.to_samples(self.sample_mode()?)?.to_elements())
    }
}
