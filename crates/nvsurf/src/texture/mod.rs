//! Textures: mip chains, arrays, cubes, 3D, RECT and BUFFER, for G80/GF100 and pre-G80 GPUs.
//!
//! A texture is what users hold: a dump of a whole mipmapped, layered resource. A
//! [`TextureDesc`] describes level 0 of layer 0 (as a TIC does) plus the level and layer counts;
//! [`TextureDesc::build`] validates it into a [`Texture`], the layout plan that gives every
//! offset: per level ([`Level`]) the offset inside a layer, size, extent in texels and elements,
//! effective block log2 and row bytes; per (level, layer) a [`Subresource`] with its byte offset
//! in the dump, its surface descriptor and its size in a packed linear file; the layer stride and
//! the total size.
//!
//! - [`kind`]: the texture types and their shape rules.
//! - [`policy`]: how the requested block size is chosen (explicit, `max`, NVN/Switch).
//! - [`g80`]: the G80/GF100 rules of seed 000 ("Textures, mipmapping and arrays", ERRATA E8).
//! - [`pre_g80`]: the NV40 rules of seed 004.
//! - [`copy`]: whole textures between a dump and a packed linear file (via [`crate::tile`]).
//!
//! ```
//! use nvsurf::texture::{TextureDesc, TextureType, BlockPolicy};
//! use nvsurf::Gpu;
//! // VECTORS.md: GF100, 2D 300x200, 4-byte elements, 9 levels, block log2 (0,5,0).
//! let mut d = TextureDesc::new(Gpu::Gf100, TextureType::D2, 4, [300, 200, 1]);
//! d.levels = 9;
//! d.block = BlockPolicy::Explicit([0, 5, 0]);
//! let t = d.build()?;
//! assert_eq!(t.level(1)?.offset_bytes, 311296);
//! assert_eq!(t.layer_stride_bytes(), 425984);
//! # Ok::<(), nvsurf::Error>(())
//! ```
//!
//! Compressed formats count in elements of several texels ([`TextureDesc::texels_per_elem`],
//! 4x4 for the BC/DXT formats): a level `w` texels wide is `ceil(w / 4)` elements wide. Levels
//! halve in texels, then convert, so every level is at least one element.

pub mod copy;
pub mod g80;
pub mod kind;
pub mod policy;
pub mod pre_g80;

pub use kind::{max_levels, TextureType, ALL_TEXTURE_TYPES};
pub use policy::BlockPolicy;

use crate::error::{check_span, mul, Error, Result};
use crate::extent::{Elements, Extent, Texels};
use crate::gpu::Gpu;
use crate::layout::{GobOrder, LayoutKind, Surface, TextureBlockWidth};
use alloc::string::ToString;
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
    pub elem_size: u32,
    /// Texels per element in x and y: `[1, 1]`, or `[4, 4]` for the BC/DXT formats.
    pub texels_per_elem: [u32; 2],
    /// Level-0 width, height, depth in texels.
    pub size_texels: [u32; 3],
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
}

impl TextureDesc {
    /// A descriptor with one level, the type's default layer count, the GPU's natural layout
    /// (pitch for RECT before G80), the `max` block policy and the VM gob order.
    pub fn new(gpu: Gpu, ty: TextureType, elem_size: u32, size_texels: [u32; 3]) -> TextureDesc {
        let layout = if ty == TextureType::Rect && !gpu.is_g80_or_later() {
            LayoutKind::Pitch
        } else {
            LayoutKind::default_for(gpu)
        };
        TextureDesc {
            gpu,
            ty,
            layout,
            elem_size,
            texels_per_elem: [1, 1],
            size_texels,
            levels: 1,
            layers: ty.default_layers(),
            block: BlockPolicy::default(),
            gob_order: GobOrder::Vm,
            texture_block_width: TextureBlockWidth::Document,
            pitch_bytes: None,
            placement: LevelPlacement::Packed,
            layer_stride_bytes: None,
        }
    }

    /// The size in texels of level `level` (each dimension halved per level, at least 1).
    pub fn level_texels(&self, level: u32) -> [u32; 3] {
        self.size_texels.map(|v| v.checked_shr(level).unwrap_or(0).max(1))
    }

    /// The size in elements of level `level`: texels divided by [`Self::texels_per_elem`],
    /// rounded up.
    pub fn level_elements(&self, level: u32) -> [u32; 3] {
        let [w, h, d] = self.level_texels(level);
        let [bw, bh] = self.texels_per_elem.map(|v| v.max(1));
        [w.div_ceil(bw), h.div_ceil(bh), d]
    }

    /// Validates the descriptor and computes the whole layout.
    pub fn build(&self) -> Result<Texture> {
        self.ty.check_gpu(self.gpu)?;
        self.ty.check_shape_on(self.gpu, self.size_texels, self.layers)?;
        crate::layout::checks::check_elem_size(self.gpu, self.elem_size)?;
        for (field, v) in ["texels per element x", "texels per element y"].into_iter().zip(self.texels_per_elem) {
            if !(1..=16).contains(&v) {
                return Err(Error::OutOfRange { field, value: v.into(), min: 1, max: 16 });
            }
        }
        let max = if self.ty.has_mip_levels() { max_levels(self.size_texels) } else { 1 };
        if self.levels == 0 || self.levels > max {
            return Err(Error::OutOfRange { field: "levels", value: self.levels.into(), min: 1, max: max.into() });
        }
        let elements: Vec<[u32; 3]> = (0..self.levels).map(|l| self.level_elements(l)).collect();
        let (planned, align) =
            if self.gpu.is_g80_or_later() { g80::plan(self, &elements)? } else { pre_g80::plan(self, &elements)? };
        let offsets = self.place(&planned)?;
        let mut levels = Vec::with_capacity(planned.len());
        for (i, (p, offset)) in planned.into_iter().zip(offsets).enumerate() {
            let level = i as u32;
            let e = elements[i];
            let slice_bytes = match p.surface {
                Some(Surface::Pitch(s)) => Some(s.pitch_bytes() * u64::from(e[1])),
                None => Some(p.size_bytes),
                _ => None,
            };
            levels.push(Level {
                level,
                offset_bytes: offset,
                size_bytes: p.size_bytes,
                texels: self.level_texels(level).into(),
                elements: e.into(),
                block_log2: p.block_log2,
                row_bytes: p.row_bytes,
                slice_bytes,
                surface: p.surface,
            });
        }
        let last = levels.last().map_or(0, |l| l.offset_bytes + l.size_bytes);
        let computed = align_up("layer stride", last, align)?;
        let layer_stride_bytes = match self.layer_stride_bytes {
            Some(s) if s < last => {
                return Err(Error::OutOfRange { field: "layer stride", value: s, min: last, max: u64::MAX })
            }
            // Later layers start at multiples of the stride: blocklinear ones must stay gob-aligned.
            Some(s) if self.layers > 1 && matches!(levels[0].surface, Some(Surface::BlockLinear(_))) => {
                match self.gpu.blocklinear_align_bytes() {
                    Some(a) if s % a != 0 => {
                        return Err(Error::NotMultiple { field: "blocklinear layer stride", value: s, multiple: a })
                    }
                    _ => s,
                }
            }
            Some(s) => s,
            None => computed,
        };
        let size_bytes = mul("texture size", layer_stride_bytes, self.layers.into())?;
        check_span("texture", 0, size_bytes)?;
        let elem_size = levels[0].surface.map_or(self.elem_size, |s| s.elem_size());
        Ok(Texture {
            gpu: self.gpu,
            ty: self.ty,
            layout: if self.ty == TextureType::Buffer { LayoutKind::Pitch } else { self.layout },
            texels_per_elem: self.texels_per_elem,
            elem_size,
            layers: self.layers,
            levels,
            layer_stride_bytes,
            size_bytes,
        })
    }

    /// Level offsets inside a layer, per the placement.
    fn place(&self, planned: &[PlannedLevel]) -> Result<Vec<u64>> {
        let mut out = Vec::with_capacity(planned.len());
        let mut end = 0u64;
        for (i, p) in planned.iter().enumerate() {
            let offset = match &self.placement {
                LevelPlacement::Packed => end,
                LevelPlacement::AlignEach(0) => {
                    return Err(Error::OutOfRange { field: "level alignment", value: 0, min: 1, max: u64::MAX })
                }
                LevelPlacement::AlignEach(a) => align_up("level offset", end, *a)?,
                LevelPlacement::Offsets(v) => {
                    if v.len() != planned.len() {
                        return Err(Error::Unsupported {
                            field: "level offsets",
                            value: alloc::format!("{} offsets", v.len()),
                            rule: alloc::format!("give one offset per level ({} levels)", planned.len()),
                        });
                    }
                    if v[i] < end {
                        return Err(Error::OutOfRange { field: "level offset", value: v[i], min: end, max: u64::MAX });
                    }
                    v[i]
                }
            };
            // A blocklinear level is a surface of its own, whose address must be gob-aligned
            // (seed 000; ERRATA E11: 0x100 bytes on G80:GF100, 0x200 on GF100+). Packed levels
            // always are (their sizes are whole gobs); offsets and alignments given by the
            // user may not be.
            if let (Some(Surface::BlockLinear(_)), Some(align)) = (p.surface, self.gpu.blocklinear_align_bytes()) {
                if offset % align != 0 {
                    return Err(Error::Unsupported {
                        field: "level offset",
                        value: alloc::format!("{offset} ({offset:#x}) of level {i}"),
                        rule: alloc::format!(
                            "a blocklinear level starts on a multiple of {align:#x} bytes on {} (the gob size: \
                             0x100 on G80:GF100, 0x200 on GF100+)",
                            self.gpu
                        ),
                    });
                }
            }
            end = offset.checked_add(p.size_bytes).ok_or_else(|| Error::Overflow {
                what: "level offset",
                detail: alloc::format!("{offset} + {} bytes", p.size_bytes),
            })?;
            out.push(offset);
        }
        Ok(out)
    }
}

/// Rounds `v` up to a multiple of `align` (any non-zero value).
fn align_up(what: &'static str, v: u64, align: u64) -> Result<u64> {
    v.div_ceil(align)
        .checked_mul(align)
        .ok_or_else(|| Error::Overflow { what, detail: alloc::format!("{v} rounded up to a multiple of {align}") })
}

/// One level as the rule modules plan it (before placement).
#[derive(Debug, Clone, Copy)]
pub(crate) struct PlannedLevel {
    surface: Option<Surface>,
    size_bytes: u64,
    row_bytes: u64,
    block_log2: Option<[u32; 3]>,
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
    pub fn linear_size_bytes(&self, elem_size: u32) -> u64 {
        self.elements.count() * u64::from(elem_size)
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
    pub elem_size: u32,
    /// The surface at address 0 (add `offset_bytes` for its place in the dump); `None` for
    /// BUFFER, whose bytes are copied as they are.
    pub surface: Option<Surface>,
}

/// A validated texture: the layout plan of every level and layer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Texture {
    gpu: Gpu,
    ty: TextureType,
    layout: LayoutKind,
    texels_per_elem: [u32; 2],
    elem_size: u32,
    layers: u32,
    levels: Vec<Level>,
    layer_stride_bytes: u64,
    size_bytes: u64,
}

impl Texture {
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
    /// levels of a pre-G80 texture in the swizzled mode are rows of blocks (seed 004 / issue 4:
    /// DXT textures are never swizzled; the mode only keeps its 128-byte cube face alignment).
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
    pub fn elem_size(&self) -> u32 {
        self.elem_size
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
        self.levels.iter().map(|l| l.linear_size_bytes(self.elem_size)).sum()
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
            self.levels[..level as usize].iter().map(|l| l.linear_size_bytes(self.elem_size)).sum();
        Ok(Subresource {
            level,
            layer,
            // Cannot overflow: the total size was checked to fit in 40 bits.
            offset_bytes: u64::from(layer) * self.layer_stride_bytes + l.offset_bytes,
            size_bytes: l.size_bytes,
            linear_offset_bytes: u64::from(layer) * self.linear_layer_bytes() + linear_before,
            linear_size_bytes: l.linear_size_bytes(self.elem_size),
            elements: l.elements,
            elem_size: self.elem_size,
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

    /// Byte offset in the dump of element (x, y, z) of (level, layer), bounds-checked.
    pub fn offset_of(&self, level: u32, layer: u32, [x, y, z]: [u32; 3]) -> Result<u64> {
        let sub = self.subresource(level, layer)?;
        crate::layout::checks::check_coords([x, y, z], sub.elements.to_array())?;
        let l = &self.levels[level as usize];
        let inside = match l.surface {
            // A pitch level holds its z slices as extra rows.
            Some(s @ Surface::Pitch(_)) => s.offset_of(x, y + z * l.elements[1], 0)?,
            Some(s) => s.offset_of(x, y, z)?,
            None => u64::from(x) * u64::from(self.elem_size),
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
            self.elem_size,
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
        write!(f, "total {} bytes (packed linear: {} bytes)", self.size_bytes, self.linear_size_bytes())
    }
}
