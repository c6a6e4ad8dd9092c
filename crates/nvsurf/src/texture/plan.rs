//! [`Texture`]: a validated texture, the layout plan that gives the offset of every level,
//! layer, slice and element.

use super::kind::TextureType;
use super::level::{Level, Subresource};
use super::nil::AlignSource;
use crate::error::{Error, Result};
use crate::extent::{Elements, Offset};
use crate::gpu::Gpu;
use crate::layout::surface::{LayoutKind, Surface};
use alloc::string::ToString;
use alloc::vec::Vec;

/// A validated texture: the layout plan of every level and layer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Texture {
    pub(super) gpu: Gpu,
    pub(super) ty: TextureType,
    pub(super) layout: LayoutKind,
    pub(super) texels_per_elem: [u32; 2],
    pub(super) elem_size_bytes: u32,
    pub(super) layers: u32,
    pub(super) levels: Vec<Level>,
    pub(super) layer_stride_bytes: u64,
    pub(super) size_bytes: u64,
    pub(super) samples: u32,
    pub(super) sparse: bool,
    pub(super) mip_tail_first_level: Option<u32>,
    pub(super) align_bytes: Option<u64>,
    pub(super) align_source: AlignSource,
}

impl Texture {
    /// Samples per pixel (1 unless multisampled); each level stores its sample grid.
    pub fn samples(&self) -> u32 {
        self.samples
    }
    /// Whether the texture is laid out for sparse residency.
    pub fn is_sparse(&self) -> bool {
        self.sparse
    }
    /// The allocation alignment in bytes, where known ([`Self::align_source`] says whose rule).
    pub fn align_bytes(&self) -> Option<u64> {
        self.align_bytes
    }
    /// Whose rule [`Self::align_bytes`] follows.
    pub fn align_source(&self) -> AlignSource {
        self.align_source
    }
    /// The first level of a sparse image's mip tail (the level count when there is none);
    /// `None` unless sparse.
    pub fn mip_tail_first_level(&self) -> Option<u32> {
        self.mip_tail_first_level
    }
    /// The mip tail's offset and size in bytes within a layer (Mesa nil `mip_tail_offset_B`,
    /// `mip_tail_size_B`: from the first tail level to the end of the layer stride); `None`
    /// unless sparse with a tail.
    pub fn mip_tail_bytes(&self) -> Option<(u64, u64)> {
        let first = self.mip_tail_first_level?;
        let level = self.levels.get(first as usize)?;
        Some((level.offset_bytes, self.layer_stride_bytes - level.offset_bytes))
    }
    /// The Vulkan standard sparse block in pixels (width, height, depth); `None` unless sparse.
    pub fn sparse_block_px(&self) -> Option<[u32; 3]> {
        if !self.sparse {
            return None;
        }
        let e = super::nil::sparse_block_elements(self.ty, self.elem_size_bytes).ok()?;
        let (gw, gh) = crate::msaa::MsMode::for_sample_count(self.samples).ok()?.grid();
        let [tw, th] = self.texels_per_elem;
        Some([e.width * tw / gw, e.height * th / gh, e.depth])
    }
    /// The GPU.
    pub fn gpu(&self) -> Gpu {
        self.gpu
    }
    /// The texture type.
    pub fn ty(&self) -> TextureType {
        self.ty
    }
    /// The layout of the levels.
    pub fn layout(&self) -> LayoutKind {
        self.layout
    }
    /// What the levels actually use, for people: the layout's name, except that compressed
    /// levels of a pre-G80 texture in the swizzled mode are rows of blocks (nvsurf's pre-G80
    /// rule: DXT textures are never swizzled; the mode only keeps its 128-byte cube face
    /// alignment).
    pub fn layout_label(&self) -> alloc::string::String {
        match (self.layout, self.levels.first().and_then(|l| l.surface)) {
            (LayoutKind::Swizzled, Some(Surface::Pitch(_))) => {
                let [w, h] = self.texels_per_elem;
                alloc::format!("rows of {w}x{h}-texel blocks (compressed levels are not swizzled)")
            }
            (k, _) => alloc::format!("{} layout", k.name()),
        }
    }
    /// Bytes per element.
    pub fn elem_size_bytes(&self) -> u32 {
        self.elem_size_bytes
    }
    /// Element size in bytes: the old name of [`Self::elem_size_bytes`].
    #[deprecated(note = "use elem_size_bytes")]
    pub fn elem_size(&self) -> u32 {
        self.elem_size_bytes()
    }
    /// Number of layers.
    pub fn layer_count(&self) -> u32 {
        self.layers
    }
    /// Number of levels.
    pub fn level_count(&self) -> u32 {
        self.levels.len() as u32
    }
    /// Every level of a layer (the same in every layer).
    pub fn levels(&self) -> &[Level] {
        &self.levels
    }
    /// Level `level`, or [`Error::OutOfBounds`].
    pub fn level(&self, level: u32) -> Result<&Level> {
        self.levels.get(level as usize).ok_or(Error::OutOfBounds {
            field: "level",
            value: level.into(),
            limit: self.levels.len() as u64,
        })
    }
    /// Bytes from one layer to the next.
    pub fn layer_stride_bytes(&self) -> u64 {
        self.layer_stride_bytes
    }
    /// Total bytes: layers times the layer stride.
    pub fn size_bytes(&self) -> u64 {
        self.size_bytes
    }
    /// Bytes of one layer in a packed linear file (all its levels, no padding).
    pub fn linear_layer_bytes(&self) -> u64 {
        self.levels.iter().map(|l| l.linear_size_bytes(self.elem_size_bytes)).sum()
    }
    /// Bytes of the whole texture in a packed linear file.
    pub fn linear_size_bytes(&self) -> u64 {
        self.linear_layer_bytes() * u64::from(self.layers)
    }

    /// The bytes of (level, layer) in a packed linear texture (`linear`, as
    /// [`Texture::untile_to_buf`] gives it).
    pub fn level_bytes<'a>(&self, linear: &'a [u8], level: u32, layer: u32) -> Result<&'a [u8]> {
        let sub = self.subresource(level, layer)?;
        let end = sub.linear_offset_bytes + sub.linear_size_bytes;
        if end > linear.len() as u64 {
            return Err(Error::BufferTooSmall { what: "linear texture", needed: end, got: linear.len() as u64 });
        }
        // Both ends are at most linear.len().
        Ok(&linear[sub.linear_offset_bytes as usize..end as usize])
    }

    /// The (level, layer) subresource.
    pub fn subresource(&self, level: u32, layer: u32) -> Result<Subresource> {
        let l = self.level(level)?;
        if layer >= self.layers {
            return Err(Error::OutOfBounds { field: "layer", value: layer.into(), limit: self.layers.into() });
        }
        let linear_before: u64 =
            self.levels[..level as usize].iter().map(|l| l.linear_size_bytes(self.elem_size_bytes)).sum();
        Ok(Subresource {
            level,
            layer,
            // Cannot overflow: the total size was checked to fit in 40 bits.
            offset_bytes: u64::from(layer) * self.layer_stride_bytes + l.offset_bytes,
            size_bytes: l.size_bytes,
            linear_offset_bytes: u64::from(layer) * self.linear_layer_bytes() + linear_before,
            linear_size_bytes: l.linear_size_bytes(self.elem_size_bytes),
            elements: l.elements,
            elem_size_bytes: self.elem_size_bytes,
            surface: l.surface,
        })
    }

    /// Every subresource, layer by layer and level by level (the order DDS files use).
    pub fn subresources(&self) -> impl Iterator<Item = Subresource> + '_ {
        (0..self.layers)
            .flat_map(move |layer| (0..self.level_count()).filter_map(move |l| self.subresource(l, layer).ok()))
    }

    /// Byte offset in the dump of the first element of z slice `z` of (level, layer).
    pub fn slice_offset(&self, level: u32, layer: u32, z: u32) -> Result<u64> {
        let sub = self.subresource(level, layer)?;
        if z >= sub.elements[2] {
            return Err(Error::OutOfBounds { field: "z", value: z.into(), limit: sub.elements[2].into() });
        }
        let l = &self.levels[level as usize];
        let inside = match (l.slice_bytes, l.surface) {
            (Some(sb), _) => u64::from(z) * sb,
            (None, Some(s)) => s.offset_of(0, 0, z)?,
            (None, None) => 0,
        };
        Ok(sub.offset_bytes + inside)
    }

    /// Byte offset in the dump where z slice `z` of (level, layer) begins: for a blocklinear
    /// level, the whole block layers before it plus `z % block depth` gob layers of a block
    /// (Mesa nil `Image::level_z_offset_B`, `src/nouveau/nil/image.rs` at 157fa86f), which
    /// does not depend on the in-gob byte order; element (0, 0, z) is [`Self::slice_offset`]
    /// (32 bytes further in the Fermi order, whose first sector is not the gob's first).
    pub fn slice_start(&self, level: u32, layer: u32, z: u32) -> Result<u64> {
        let texel = self.slice_offset(level, layer, z)?;
        let l = &self.levels[level as usize];
        let Some(Surface::BlockLinear(s)) = l.surface else { return Ok(texel) };
        let [bw, bh, _] = s.blocks();
        let [_, _, zl] = s.block_log2();
        let [w_bytes, h_rows, _] = s.block_extent_bytes_rows_slices();
        let block_layers = u64::from(z >> zl) * u64::from(bw) * u64::from(bh) * s.block_bytes();
        let gob_layers = u64::from(z & ((1 << zl) - 1)) * w_bytes * h_rows;
        Ok(self.subresource(level, layer)?.offset_bytes + block_layers + gob_layers)
    }

    /// Byte offset in the dump of element (x, y, z) of (level, layer), bounds-checked.
    /// `at` is in elements: an [`Offset<Elements>`], or a plain `[x, y, z]` taken as one.
    pub fn offset_of(&self, level: u32, layer: u32, at: impl Into<Offset<Elements>>) -> Result<u64> {
        let [x, y, z] = at.into().to_array();
        let sub = self.subresource(level, layer)?;
        crate::layout::checks::check_coords([x, y, z], sub.elements.to_array())?;
        let l = &self.levels[level as usize];
        let inside = match l.surface {
            // A pitch level holds its z slices as extra rows.
            Some(s @ Surface::Pitch(_)) => s.offset_of(x, y + z * l.elements[1], 0)?,
            Some(s) => s.offset_of(x, y, z)?,
            None => u64::from(x) * u64::from(self.elem_size_bytes),
        };
        Ok(sub.offset_bytes + inside)
    }

    /// Checks that a dump of `dump_bytes` holds the whole texture.
    pub fn check_dump(&self, dump_bytes: u64) -> Result<()> {
        if dump_bytes < self.size_bytes {
            return Err(Error::BufferTooSmall { what: "texture dump", needed: self.size_bytes, got: dump_bytes });
        }
        Ok(())
    }
}

impl core::fmt::Display for Texture {
    /// A table of levels: offset, size, texels, elements, block log2, row bytes.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        writeln!(
            f,
            "{} texture on {}, {}, {} bytes per element: {} level(s) x {} layer(s)",
            self.ty,
            self.gpu,
            self.layout_label(),
            self.elem_size_bytes,
            self.level_count(),
            self.layers
        )?;
        writeln!(
            f,
            "{:>5} {:>12} {:>12} {:>16} {:>16} {:>9} {:>9}",
            "level", "offset", "size", "texels", "elements", "block", "row_bytes"
        )?;
        for l in &self.levels {
            let [tw, th, td] = l.texels.to_array();
            let [ew, eh, ed] = l.elements.to_array();
            let block = l.block_log2.map_or_else(|| "-".to_string(), |[x, y, z]| alloc::format!("{x},{y},{z}"));
            writeln!(
                f,
                "{:>5} {:>12} {:>12} {:>16} {:>16} {:>9} {:>9}",
                l.level,
                l.offset_bytes,
                l.size_bytes,
                alloc::format!("{tw}x{th}x{td}"),
                alloc::format!("{ew}x{eh}x{ed}"),
                block,
                l.row_bytes
            )?;
        }
        writeln!(f, "layer stride {} bytes x {} layer(s)", self.layer_stride_bytes, self.layers)?;
        write!(f, "total {} bytes (packed linear: {} bytes)", self.size_bytes, self.linear_size_bytes())?;
        match self.align_bytes {
            Some(a) => write!(f, "\nalignment {a} bytes ({})", self.align_source.name())?,
            None => write!(f, "\nalignment unknown (the policy's driver does not document it)")?,
        }
        if self.samples > 1 {
            let mode = crate::msaa::MsMode::for_sample_count(self.samples).map_or("?", |m| m.name());
            write!(f, "\n{} samples per pixel ({mode}): elements are samples", self.samples)?;
        }
        if let (Some(first), Some(px)) = (self.mip_tail_first_level, self.sparse_block_px()) {
            write!(f, "\nsparse: block {}x{}x{} pixels, mip tail from level {first}", px[0], px[1], px[2])?;
            if let Some((o, s)) = self.mip_tail_bytes() {
                write!(f, " at offset {o}, {s} bytes")?;
            }
            write!(f, "\nnote: {}", super::nil::SPARSE_NOTE)?;
        }
        Ok(())
    }
}
