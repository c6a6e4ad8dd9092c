//! The records of the other results every face gives (#38): the surface summary
//! (`nvsurf layout --json`, `nvsurf.layout()`), the texture summary and its levels
//! (`nvsurf texture --json`, `nvsurf.Texture.summary()` and `.levels`) and what a spec assumed
//! ([`Assumed::fields`]). Each is built once from the library's objects and names its keys in
//! one place (`fields()`), with units in the names; the faces render the pairs in their own
//! terms. The guess candidate's record is [`crate::identify::CandidateRecord`].

use crate::format::Format;
use crate::layout::Surface;
use crate::spec::Assumed;
use crate::texture::{Level, Texture};
use alloc::string::String;
use alloc::vec::Vec;

/// The value of one field of a record, for a face to render in its own terms (JSON, Python
/// objects).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FieldValue<'a> {
    /// An unsigned integer.
    Uint(u64),
    /// A number.
    Float(f64),
    /// A truth value.
    Bool(bool),
    /// Text.
    Text(&'a str),
    /// Three unsigned integers (`block_log2`, sizes in elements).
    Triple([u32; 3]),
    /// Three large unsigned integers (`block_elements`, `index_bit_masks`).
    Triple64([u64; 3]),
    /// Two unsigned integers (`gob_geometry_bytes_rows`).
    Pair([u64; 2]),
    /// No value (JSON null, Python `None`).
    None,
}

use FieldValue as V;

fn text(s: Option<&str>) -> FieldValue<'_> {
    s.map_or(V::None, V::Text)
}

fn uint(n: Option<u64>) -> FieldValue<'static> {
    n.map_or(V::None, V::Uint)
}

fn triple(t: Option<[u32; 3]>) -> FieldValue<'static> {
    t.map_or(V::None, V::Triple)
}

impl Assumed {
    /// What was assumed, as the faces print it beside a surface or texture: `gob_order`,
    /// `gob_order_source`, `gob_order_known`, `block_policy`, `block_policy_source` (`None`
    /// where the layout has no gobs). Where no CPU byte order is known for the format
    /// ([`Assumed::gob_order_unknown`]), `gob_order` is `None`, `gob_order_source` is
    /// `unknown` and `gob_order_known` false.
    pub fn fields(&self) -> [(&'static str, FieldValue<'static>); 5] {
        let has_gobs = self.block_policy.is_some();
        let source = match self.gob_order {
            Some((_, s)) => V::Text(s.name()),
            None if self.gob_order_unknown => V::Text("unknown"),
            None => V::None,
        };
        [
            ("gob_order", text(self.gob_order.map(|(o, _)| o.name()))),
            ("gob_order_source", source),
            ("gob_order_known", if has_gobs { V::Bool(!self.gob_order_unknown) } else { V::None }),
            ("block_policy", text(self.block_policy.map(|(p, _)| p.name()))),
            ("block_policy_source", text(self.block_policy.map(|(_, s)| s.name()))),
        ]
    }
}

/// The blocklinear part of a [`SurfaceRecord`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockLinearRecord {
    /// Bytes of a gob.
    pub gob_bytes: u64,
    /// Rows of a gob (64 bytes each).
    pub gob_height_rows: u32,
    /// Bytes of a block.
    pub block_bytes: u64,
    /// The block as asked for, log2 gobs `[x, y, z]`.
    pub block_log2_requested: [u32; 3],
    /// The block after auto-size, log2 gobs.
    pub block_log2_effective: [u32; 3],
    /// Gobs of a block.
    pub block_gobs: [u32; 3],
    /// A block's extent: bytes, rows, slices.
    pub block_extent_bytes_rows_slices: [u64; 3],
    /// Elements of a block.
    pub block_elements: [u64; 3],
    /// Blocks of the surface.
    pub blocks: [u32; 3],
    /// Whether the block shrinks to the surface.
    pub auto_size: bool,
    /// The binding point, if named.
    pub binding: Option<&'static str>,
    /// The gob order.
    pub gob_order: &'static str,
}

/// The summary of a plain surface: `nvsurf layout --json` and `nvsurf.layout()`. A key is
/// present only where the layout has it (as the faces have always printed it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SurfaceRecord {
    /// `blocklinear`, `pitch`, `swizzled`.
    pub layout: &'static str,
    /// The GPU.
    pub gpu: &'static str,
    /// The GPU address of the first byte.
    pub address: u64,
    /// Bytes per element.
    pub elem_size_bytes: u32,
    /// `[w, h, d]` in elements.
    pub size_elements: [u32; 3],
    /// Bytes the surface occupies.
    pub size_bytes: u64,
    /// Blocklinear's gobs and blocks.
    pub blocklinear: Option<BlockLinearRecord>,
    /// The pitch (pitch only).
    pub pitch_bytes: Option<u64>,
    /// A byte-oriented binding's view (blocklinear and pitch only).
    pub byte_view: Option<bool>,
    /// Which index bits x, y, z feed (swizzled only).
    pub index_bit_masks: Option<[u64; 3]>,
}

impl SurfaceRecord {
    /// The record of `s`.
    pub fn new(s: &Surface) -> SurfaceRecord {
        let mut r = SurfaceRecord {
            layout: s.kind().name(),
            gpu: s.gpu().name(),
            address: s.address(),
            elem_size_bytes: s.elem_size_bytes(),
            size_elements: s.size().to_array(),
            size_bytes: s.size_bytes(),
            blocklinear: None,
            pitch_bytes: None,
            byte_view: None,
            index_bit_masks: None,
        };
        match s {
            Surface::BlockLinear(b) => {
                r.blocklinear = Some(BlockLinearRecord {
                    gob_bytes: b.gob_bytes(),
                    gob_height_rows: b.gob_height_rows(),
                    block_bytes: b.block_bytes(),
                    block_log2_requested: b.block_log2_requested(),
                    block_log2_effective: b.block_log2(),
                    block_gobs: b.block_gobs(),
                    block_extent_bytes_rows_slices: b.block_extent_bytes_rows_slices(),
                    block_elements: b.block_elements(),
                    blocks: b.blocks(),
                    auto_size: b.auto_size(),
                    binding: b.binding().map(|b| b.name()),
                    gob_order: b.gob_order().name(),
                });
                r.byte_view = Some(b.is_byte_view());
            }
            Surface::Pitch(p) => {
                r.pitch_bytes = Some(p.pitch_bytes());
                r.byte_view = Some(p.is_byte_view());
            }
            Surface::Swizzled(sw) => r.index_bit_masks = Some(sw.masks()),
        }
        r
    }

    /// The record's keys and values: the one list every face renders. `gob_bytes`,
    /// `block_bytes`, `block_log2_effective` and `blocks` are there (`None`) for every layout.
    pub fn fields(&self) -> Vec<(&'static str, FieldValue<'static>)> {
        let bl = self.blocklinear;
        let mut f = alloc::vec![
            ("layout", V::Text(self.layout)),
            ("gpu", V::Text(self.gpu)),
            ("address", V::Uint(self.address)),
            ("elem_size_bytes", V::Uint(u64::from(self.elem_size_bytes))),
            ("size_elements", V::Triple(self.size_elements)),
            ("size_bytes", V::Uint(self.size_bytes)),
            ("gob_bytes", uint(bl.map(|b| b.gob_bytes))),
            ("block_bytes", uint(bl.map(|b| b.block_bytes))),
            ("block_log2_effective", triple(bl.map(|b| b.block_log2_effective))),
            ("blocks", triple(bl.map(|b| b.blocks))),
        ];
        if let Some(b) = bl {
            f.extend([
                ("gob_geometry_bytes_rows", V::Pair([64, u64::from(b.gob_height_rows)])),
                ("block_log2_requested", V::Triple(b.block_log2_requested)),
                ("block_gobs", V::Triple(b.block_gobs)),
                ("block_extent_bytes_rows_slices", V::Triple64(b.block_extent_bytes_rows_slices)),
                ("block_elements", V::Triple64(b.block_elements)),
                ("auto_size", V::Bool(b.auto_size)),
                ("binding", text(b.binding)),
                ("gob_order", V::Text(b.gob_order)),
            ]);
        }
        if let Some(p) = self.pitch_bytes {
            f.push(("pitch_bytes", V::Uint(p)));
        }
        if let Some(v) = self.byte_view {
            f.push(("byte_view", V::Bool(v)));
        }
        if let Some(m) = self.index_bit_masks {
            f.push(("index_bit_masks", V::Triple64(m)));
        }
        f
    }
}

/// One level of a texture (one layer's): each of `nvsurf texture --json`'s `levels` and of
/// `nvsurf.Texture.levels`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LevelRecord {
    /// The level, from 0.
    pub level: u32,
    /// Offset from the layer's start.
    pub offset_bytes: u64,
    /// Bytes of the level in a dump.
    pub size_bytes: u64,
    /// `[w, h, d]` in texels.
    pub size_texels: [u32; 3],
    /// `[w, h, d]` in elements.
    pub size_elements: [u32; 3],
    /// The block used, log2 gobs (blocklinear only).
    pub block_log2: Option<[u32; 3]>,
    /// The block asked for, log2 gobs (blocklinear only).
    pub block_log2_requested: Option<[u32; 3]>,
    /// Bytes of a row in the dump.
    pub row_bytes: u64,
    /// Bytes of a z slice, where slices are evenly spaced.
    pub slice_bytes: Option<u64>,
    /// Bytes of the level in the packed linear texture.
    pub linear_size_bytes: u64,
}

impl LevelRecord {
    /// The record of `l`, a level of a texture of `elem_size_bytes` elements.
    pub fn new(l: &Level, elem_size_bytes: u32) -> LevelRecord {
        LevelRecord {
            level: l.level,
            offset_bytes: l.offset_bytes,
            size_bytes: l.size_bytes,
            size_texels: l.texels.to_array(),
            size_elements: l.elements.to_array(),
            block_log2: l.block_log2,
            block_log2_requested: match l.surface {
                Some(Surface::BlockLinear(b)) => Some(b.block_log2_requested()),
                _ => None,
            },
            row_bytes: l.row_bytes,
            slice_bytes: l.slice_bytes,
            linear_size_bytes: l.linear_size_bytes(elem_size_bytes),
        }
    }

    /// The record's keys and values.
    pub fn fields(&self) -> [(&'static str, FieldValue<'static>); 12] {
        let [w, h, d] = self.size_texels;
        [
            ("level", V::Uint(u64::from(self.level))),
            ("offset_bytes", V::Uint(self.offset_bytes)),
            ("size_bytes", V::Uint(self.size_bytes)),
            ("width_texels", V::Uint(u64::from(w))),
            ("height_texels", V::Uint(u64::from(h))),
            ("depth_texels", V::Uint(u64::from(d))),
            ("size_elements", V::Triple(self.size_elements)),
            ("block_log2", triple(self.block_log2)),
            ("block_log2_requested", triple(self.block_log2_requested)),
            ("row_bytes", V::Uint(self.row_bytes)),
            ("slice_bytes", uint(self.slice_bytes)),
            ("linear_size_bytes", V::Uint(self.linear_size_bytes)),
        ]
    }
}

/// One subresource (level, layer) of a texture and one z slice of it: `nvsurf texture --at
/// LEVEL,LAYER,Z --json` and `nvsurf.Texture.subresource(level, layer, z)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SubresourceRecord {
    /// The level, from 0.
    pub level: u32,
    /// The layer, from 0.
    pub layer: u32,
    /// Offset in the dump: layer times the layer stride plus the level's offset.
    pub offset_bytes: u64,
    /// Bytes of it in the dump.
    pub size_bytes: u64,
    /// Offset in the packed linear texture.
    pub linear_offset_bytes: u64,
    /// Bytes of it in the packed linear texture.
    pub linear_size_bytes: u64,
    /// `[w, h, d]` in texels.
    pub size_texels: [u32; 3],
    /// `[w, h, d]` in elements.
    pub size_elements: [u32; 3],
    /// The level's block, log2 gobs (blocklinear only).
    pub block_log2: Option<[u32; 3]>,
    /// Bytes of a row in the dump.
    pub row_bytes: u64,
    /// The z slice.
    pub z: u32,
    /// Offset in the dump of element (0, 0, `z`) (the name kept from before; also
    /// `texel_offset_bytes`).
    pub slice_offset_bytes: u64,
    /// Offset in the dump where z slice `z` begins ([`Texture::slice_start`]).
    pub slice_start_bytes: u64,
}

impl SubresourceRecord {
    /// The record of (`level`, `layer`) of `t` and its z slice `z`.
    pub fn new(t: &Texture, level: u32, layer: u32, z: u32) -> crate::Result<SubresourceRecord> {
        let s = t.subresource(level, layer)?;
        let l = t.level(level)?;
        Ok(SubresourceRecord {
            level,
            layer,
            offset_bytes: s.offset_bytes,
            size_bytes: s.size_bytes,
            linear_offset_bytes: s.linear_offset_bytes,
            linear_size_bytes: s.linear_size_bytes,
            size_texels: l.texels.to_array(),
            size_elements: s.elements.to_array(),
            block_log2: l.block_log2,
            row_bytes: l.row_bytes,
            z,
            slice_offset_bytes: t.slice_offset(level, layer, z)?,
            slice_start_bytes: t.slice_start(level, layer, z)?,
        })
    }

    /// The record's keys and values.
    pub fn fields(&self) -> [(&'static str, FieldValue<'static>); 16] {
        let [w, h, d] = self.size_texels;
        [
            ("level", V::Uint(u64::from(self.level))),
            ("layer", V::Uint(u64::from(self.layer))),
            ("offset_bytes", V::Uint(self.offset_bytes)),
            ("size_bytes", V::Uint(self.size_bytes)),
            ("linear_offset_bytes", V::Uint(self.linear_offset_bytes)),
            ("linear_size_bytes", V::Uint(self.linear_size_bytes)),
            ("width_texels", V::Uint(u64::from(w))),
            ("height_texels", V::Uint(u64::from(h))),
            ("depth_texels", V::Uint(u64::from(d))),
            ("size_elements", V::Triple(self.size_elements)),
            ("block_log2", triple(self.block_log2)),
            ("row_bytes", V::Uint(self.row_bytes)),
            ("z", V::Uint(u64::from(self.z))),
            ("slice_offset_bytes", V::Uint(self.slice_offset_bytes)),
            ("texel_offset_bytes", V::Uint(self.slice_offset_bytes)),
            ("slice_start_bytes", V::Uint(self.slice_start_bytes)),
        ]
    }
}

/// The summary of a texture: `nvsurf texture --json` and `nvsurf.Texture.summary()`, what was
/// assumed included; its levels are [`LevelRecord`]s.
#[derive(Debug, Clone, PartialEq)]
pub struct TextureRecord {
    /// The GPU.
    pub gpu: &'static str,
    /// The texture type (`2d`, `cube`, ...).
    pub texture_type: &'static str,
    /// The layout of the levels.
    pub layout: &'static str,
    /// The format's full name; `None` for an element size.
    pub format: Option<String>,
    /// The format's R, G, B are sRGB-encoded (false for an element size).
    pub is_srgb: bool,
    /// Bytes per element.
    pub elem_size_bytes: u32,
    /// Layers (6 per cube).
    pub layers: u32,
    /// Bytes from one layer to the next in a dump.
    pub layer_stride_bytes: u64,
    /// Bytes the texture occupies in a dump.
    pub size_bytes: u64,
    /// Bytes of the packed linear texture.
    pub linear_size_bytes: u64,
    /// The levels of a layer.
    pub levels: Vec<LevelRecord>,
    /// What the spec assumed.
    pub assumed: Assumed,
    /// Samples per pixel, the multisample mode they use and level 0's sample grid.
    pub samples: SamplesRecord,
    /// The allocation alignment in bytes where known, and whose rule it is (`nil`,
    /// `document`, `unknown`).
    pub align: (Option<u64>, &'static str),
    /// Sparse residency: the standard sparse block in pixels, the mip tail's first level, its
    /// offset and size in bytes within a layer; `None` unless sparse.
    pub sparse: Option<SparseRecord>,
}

/// The multisample part of a [`TextureRecord`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SamplesRecord {
    /// Samples per pixel.
    pub samples: u32,
    /// The mode's name (`MS1`, `MS2_ALT`, `MS4`, `MS8_ALT`, `MS16`).
    pub ms_mode: &'static str,
    /// Level 0's size in samples (the stored elements of a single-texel format).
    pub size_samples: [u32; 3],
}

/// The sparse part of a [`TextureRecord`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SparseRecord {
    /// The standard sparse block in pixels.
    pub block_px: [u32; 3],
    /// The first level of the mip tail (the level count when there is none).
    pub mip_tail_first_level: u32,
    /// The tail's offset and size in bytes within a layer; `None` without a tail.
    pub mip_tail_bytes: Option<(u64, u64)>,
}

impl TextureRecord {
    /// The record of `t`, made from `format` (or an element size) with `assumed`.
    pub fn new(t: &Texture, format: Option<&Format>, assumed: &Assumed) -> TextureRecord {
        TextureRecord {
            gpu: t.gpu().name(),
            texture_type: t.ty().name(),
            layout: t.layout().name(),
            format: format.map(|f| f.full_name()),
            is_srgb: format.is_some_and(|f| f.is_srgb()),
            elem_size_bytes: t.elem_size_bytes(),
            layers: t.layer_count(),
            layer_stride_bytes: t.layer_stride_bytes(),
            size_bytes: t.size_bytes(),
            linear_size_bytes: t.linear_size_bytes(),
            levels: t.levels().iter().map(|l| LevelRecord::new(l, t.elem_size_bytes())).collect(),
            assumed: *assumed,
            samples: SamplesRecord {
                samples: t.samples(),
                ms_mode: crate::msaa::MsMode::for_sample_count(t.samples()).map_or("?", |m| m.name()),
                // A multisampled texture has single-texel elements, one per sample.
                size_samples: t.levels().first().map_or([0; 3], |l| {
                    if t.samples() == 1 {
                        l.texels.to_array()
                    } else {
                        l.elements.to_array()
                    }
                }),
            },
            align: (t.align_bytes(), t.align_source().name()),
            sparse: t.mip_tail_first_level().map(|first| SparseRecord {
                block_px: t.sparse_block_px().unwrap_or([0; 3]),
                mip_tail_first_level: first,
                mip_tail_bytes: t.mip_tail_bytes(),
            }),
        }
    }

    /// The record's keys and values, the levels left out (each is a [`LevelRecord`]; a face
    /// puts their list under `levels`).
    pub fn fields(&self) -> [(&'static str, FieldValue<'_>); 26] {
        let [a, b, c, d, e] = self.assumed.fields();
        let s = self.sparse;
        [
            ("gpu", V::Text(self.gpu)),
            ("type", V::Text(self.texture_type)),
            ("layout", V::Text(self.layout)),
            ("format", text(self.format.as_deref())),
            ("is_srgb", V::Bool(self.is_srgb)),
            ("elem_size_bytes", V::Uint(u64::from(self.elem_size_bytes))),
            ("layers", V::Uint(u64::from(self.layers))),
            ("layer_stride_bytes", V::Uint(self.layer_stride_bytes)),
            ("size_bytes", V::Uint(self.size_bytes)),
            ("linear_size_bytes", V::Uint(self.linear_size_bytes)),
            a,
            b,
            c,
            d,
            e,
            ("samples", V::Uint(u64::from(self.samples.samples))),
            ("ms_mode", V::Text(self.samples.ms_mode)),
            ("size_samples", V::Triple(self.samples.size_samples)),
            ("align_bytes", uint(self.align.0)),
            ("align_source", V::Text(self.align.1)),
            ("sparse", V::Bool(s.is_some())),
            ("sparse_block_px", triple(s.map(|s| s.block_px))),
            ("mip_tail_first_level", uint(s.map(|s| u64::from(s.mip_tail_first_level)))),
            ("mip_tail_offset_bytes", uint(s.and_then(|s| s.mip_tail_bytes.map(|t| t.0)))),
            ("mip_tail_size_bytes", uint(s.and_then(|s| s.mip_tail_bytes.map(|t| t.1)))),
            ("sparse_note", text(s.map(|_| crate::texture::SPARSE_NOTE))),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::Gpu;
    use crate::layout::LayoutKind;
    use crate::texture::TextureType;
    use crate::{SurfaceSpec, TextureSpec};

    fn keys(f: &[(&'static str, FieldValue<'_>)]) -> Vec<&'static str> {
        f.iter().map(|(k, _)| *k).collect()
    }

    #[test]
    fn a_surface_has_the_keys_of_its_layout() {
        let bl = SurfaceSpec::with_elem_size(Gpu::Gm20b, 4, [100, 50, 1]).build().unwrap();
        let f = SurfaceRecord::new(&bl).fields();
        assert!(keys(&f).contains(&"block_gobs") && !keys(&f).contains(&"pitch_bytes"));
        assert!(f.contains(&("gob_geometry_bytes_rows", FieldValue::Pair([64, 8]))));
        let p = SurfaceSpec::with_elem_size(Gpu::Gm20b, 4, [10, 5, 1]).layout(LayoutKind::Pitch).build().unwrap();
        let f = SurfaceRecord::new(&p).fields();
        assert!(keys(&f).contains(&"pitch_bytes") && !keys(&f).contains(&"block_gobs"));
        assert!(f.contains(&("blocks", FieldValue::None)));
    }

    #[test]
    fn a_texture_record_holds_its_levels_and_what_was_assumed() {
        let spec = TextureSpec::with_elem_size(Gpu::Gm20b, TextureType::D2, 4, [64, 32, 1]).levels(3);
        let (d, assumed) = spec.resolve().unwrap();
        let t = d.build().unwrap();
        let r = TextureRecord::new(&t, None, &assumed);
        assert_eq!(r.levels.len(), 3);
        assert_eq!(r.levels[1].size_texels, [32, 16, 1]);
        let f = r.fields();
        assert!(f.contains(&("gob_order_source", FieldValue::Text("default"))));
        assert!(f.contains(&("format", FieldValue::None)));
        assert_eq!(keys(&r.levels[0].fields()).len(), 12);
    }
}
