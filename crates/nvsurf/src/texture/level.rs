//! [`Level`] and [`Subresource`]: one mip level of a layer, and one (level, layer) pair of a
//! built texture; `PlannedLevel`, a level as the generation rules plan it before placement.

use crate::extent::{Elements, Extent, Texels};
use crate::layout::surface::Surface;

/// One level as the rule modules plan it (before placement).
#[derive(Debug, Clone, Copy)]
pub(crate) struct PlannedLevel {
    pub(super) surface: Option<Surface>,
    pub(super) size_bytes: u64,
    pub(super) row_bytes: u64,
    pub(super) block_log2: Option<[u32; 3]>,
    /// Whether the level's block is smaller than the block the texture asks for (a sparse
    /// image's mip tail starts at the first such level).
    pub(super) clamped: bool,
}

/// One mip level of a layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level {
    /// The level index (0 = the largest).
    pub level: u32,
    /// Byte offset of the level from the start of its layer.
    pub offset_bytes: u64,
    /// Bytes the level occupies (its surface size).
    pub size_bytes: u64,
    /// Width, height, depth in texels.
    pub texels: Extent<Texels>,
    /// Width, height, depth in elements.
    pub elements: Extent<Elements>,
    /// Effective (auto-sized) block log2 gobs (x, y, z); `None` if not blocklinear.
    pub block_log2: Option<[u32; 3]>,
    /// Bytes one row of elements spans in the layout: the pitch, the blocklinear row (blocks in
    /// x times block width in bytes) or the swizzled row (width times element size).
    pub row_bytes: u64,
    /// Bytes between z slices when slices are stored one after another (pitch, packed);
    /// `None` when slices interleave (blocklinear, swizzled).
    pub slice_bytes: Option<u64>,
    /// The level's surface at address 0; `None` for BUFFER (packed bytes). A pre-G80 linear 3D
    /// level is a pitch surface of `height * depth` rows.
    pub surface: Option<Surface>,
}

impl Level {
    /// Bytes of the level in a packed linear image (elements times element size, no padding).
    pub fn linear_size_bytes(&self, elem_size_bytes: u32) -> u64 {
        self.elements.count() * u64::from(elem_size_bytes)
    }
}

/// One (level, layer) of a texture: where it is in the dump and in a packed linear file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Subresource {
    /// Level index.
    pub level: u32,
    /// Layer index.
    pub layer: u32,
    /// Byte offset in the texture dump: `layer * layer_stride + level offset`.
    pub offset_bytes: u64,
    /// Bytes the level occupies in the dump.
    pub size_bytes: u64,
    /// Byte offset in a packed linear file ordered layer by layer, level by level (DDS order).
    pub linear_offset_bytes: u64,
    /// Bytes in the packed linear file: elements times element size.
    pub linear_size_bytes: u64,
    /// Width, height, depth in elements.
    pub elements: Extent<Elements>,
    /// Element size in bytes.
    pub elem_size_bytes: u32,
    /// The surface at address 0 (add `offset_bytes` for its place in the dump); `None` for
    /// BUFFER, whose bytes are copied as they are.
    pub surface: Option<Surface>,
}
