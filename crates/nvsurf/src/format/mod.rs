//! Surface formats: the texture, color and zeta format tables of the G80+ GPUs ("the
//! document" below and in this module's files: envytools `docs/hw/memory/g80-surface.rst`,
//! "G80 surface formats"; its errata, fixed here, are listed in `docs/ERRATA.md`), and
//! [`Format`], a resolved format that knows its element size and how to turn elements into
//! pixels and back.
//!
//! # API in one screen
//! ```
//! use nvsurf::format::{Format, ComponentType, Swizzle};
//! // Any name form, case-insensitive: documents' LSB-first names, rnndb names, NVIDIA's
//! // MSB-first names, bcN/dxtN/rgtcN aliases, or `tex:0x08` / `color:0xd5` / `zeta:0x16`.
//! let f = Format::parse("RGBA8_UNORM")?;            // color format 0xd5
//! assert_eq!(f.elem_size_bytes(), 4);
//! assert_eq!(f.block_dims(), (1, 1));                // pixels per element (x, y)
//! assert_eq!(Format::parse("bc1")?.block_dims(), (4, 4));
//!
//! // Decode elements (little-endian bytes) into RGBA pixels, without allocating:
//! let mut px = [[0f32; 4]; 2];
//! f.decode_rgba_f32(&[0xff, 0x00, 0x80, 0xff, 0, 0, 0, 0], &mut px)?;
//! assert_eq!(px[0], [1.0, 0.0, 128.0 / 255.0, 1.0]);
//!
//! // Texture formats take per-component types and a swizzle (the TIC fields):
//! let t = Format::parse("tex:0x08")?
//!     .with_components([ComponentType::Snorm; 4])?
//!     .with_swizzle([Swizzle::C2, Swizzle::C1, Swizzle::C0, Swizzle::OneFloat]);
//! # Ok::<(), nvsurf::Error>(())
//! ```
//! - [`Format::parse`] / [`Format::from_id`]: resolve a name or `(kind, id)`;
//!   [`Format::full_name`] is a name that resolves back to the same format (sRGB included:
//!   `DXT1_srgb`), `NAME_srgb` turning sRGB on where [`Format::srgb_applies`].
//! - [`Format::elem_size_bytes`], [`Format::block_dims`], [`Format::pixels_per_elem`]: geometry;
//!   a surface of `w x h` pixels is `ceil(w / bw) x ceil(h / bh)` elements.
//! - Decoding: [`Format::decode_element`] (one element to its pixels as raw 32-bit
//!   [`Texel`]s, what the texture unit returns), [`Format::decode_rect`] /
//!   [`Format::decode_rect_f32`] / [`Format::decode_rect_rgba8`] (a linear image of elements
//!   to pixels), and the row helpers [`Format::decode_rgba_f32`] / [`Format::decode_rgba8`]
//!   for formats with one pixel per element. The `8_8_8_8` unorm to RGBA8 path and the BC1-BC7
//!   paths write straight into the caller's buffer.
//! - Encoding: [`Format::encode_element`], [`Format::encode_rect`],
//!   [`Format::encode_rect_f32`]; rounding is to nearest, and
//!   `decode(encode(decode(e))) == decode(e)` for every element `e` of an uncompressed format.
//!   [`Format::encode_rect_with`], [`Format::encode_rect_f32_with`] and
//!   [`Format::encode_rect_rgba8_with`] take [`EncodeOptions`] ([`BcQuality`]); BC1-BC7 (not
//!   BC6H signed) encode through maintained encoder crates with the `bc-encode` feature
//!   (`bc_rect`; `docs/encoding.md`).
//! - Tables: [`texture_formats`], [`color_formats`], [`zeta_formats`], [`all_names`]; the
//!   pre-G80 (NV10-NV40) texture formats: [`pre_g80_formats`], [`PreG80Table`].
//! - Per GPU: [`Format::parse_for`] names formats in the GPU's tables (`A8R8G8B8` on `nv2a` is
//!   the NV10-NV40 texture format); [`Format::parse`] takes the G80+ tables and the Vulkan,
//!   DXGI and short [`aliases`]. Unknown names are [`crate::Error::UnknownFormat`] with
//!   suggestions. INDEX8 decodes through a [`Palette`]. Rules and sources: `docs/formats.md`.
//!
//! # Name resolution
//! A bare name that names formats of several kinds (NVIDIA uses `A8B8G8R8` for both texture
//! 0x08 and color 0xd5; the documents use `Z24_S8` for texture 0x2b and zeta 0x16) resolves to
//! the texture format first, then zeta, then color. These pairs decode the same bits to the same
//! values with the default types. A `tex:`/`texture:`, `color:` or `zeta:` prefix picks the
//! table, and takes a name or an id (`0x16` or `22`).
//!
//! # Default interpretation
//! Color and zeta formats imply component types and a swizzle. A texture format on its own
//! reads every component as unorm, except 32-bit fields and the fields of `11_11_10`,
//! `9_9_9_E5` and BC6H, which read as float; the swizzle is C0, C1, C2, C3. A component that
//! the format lacks reads 0 (C0-C2) or 1 (C3), so `8_8` reads `(C0, C1, 0, 1)` (document,
//! "Simple color surface formats").

//!
//! # Where things live
//! The tables and their names are in `catalogue` (data in `tables`), name resolution in
//! `resolve`, the element layouts in `element_layout`, and the decoding and encoding of
//! elements, rectangles and the RGBA8 fast paths in `element`, `rect` and `rgba8`, all as
//! methods of [`Format`]. The number formats they use are in [`crate::codec`], which does not
//! know formats.

mod aliases;
mod bc_rect;
mod caps;
mod caps_table;
mod catalogue;
mod element;
mod element_layout;
mod extent_bytes;
mod full_name;
mod lookup;
mod nv097_catalogue;
mod nv10_catalogue;
mod palette;
mod pre_g80_rows;
mod rect;
#[cfg(feature = "rayon")]
mod rect_par;
mod resolve;
mod rgba8;
mod suggest;
mod swizzle;
mod texel_lut;
mod twin;

pub use crate::codec::{Bc, BcQuality, ComponentType, EncodeOptions, Texel, YuvMatrix};
pub use aliases::{aliases, Alias, AliasApi};
pub use caps_table::FormatCaps;
pub use catalogue::{
    all_names, color_formats, texture_format, texture_formats, zeta_formats, ColorFormat, Kind, TextureFormat,
    ZetaFormat,
};
pub use element_layout::{Layout, ZType, ZetaLayout};
pub use nv10_catalogue::{
    generation_bit, pre_g80_formats, PreG80Format, PreG80Table, GEN_NV10, GEN_NV20, GEN_NV30, GEN_NV40, KIND_3D,
    KIND_CUBE, KIND_MIPS,
};
pub use palette::{Palette, PALETTE_BYTES};
pub use suggest::suggest_names;
pub use swizzle::Swizzle;

use crate::error::{Error, Result};
use crate::gpu::Gpu;
use alloc::string::{String, ToString};

/// A resolved format: a layout plus the interpretation of its components (types, swizzle,
/// sRGB, YUV conversion). Cheap to copy.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Format {
    pub(crate) kind: Kind,
    pub(crate) id: u8,
    pub(crate) tex: &'static TextureFormat,
    pub(crate) types: [ComponentType; 4],
    pub(crate) swizzle: [Swizzle; 4],
    pub(crate) srgb: bool,
    pub(crate) yuv: YuvMatrix,
    pub(crate) x_ones: bool,
    /// The pre-G80 row (NV10-NV40 texture formats), `None` for the G80+ tables.
    pub(crate) pre_g80: Option<&'static PreG80Format>,
}

impl Format {
    /// Which table the format came from.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The id in that table.
    pub fn id(&self) -> u8 {
        self.id
    }

    /// The texture format giving the layout.
    pub fn texture(&self) -> &'static TextureFormat {
        self.tex
    }

    /// The element layout.
    pub fn layout(&self) -> Layout {
        self.tex.layout
    }

    /// Canonical name of the table row (documents' name for texture and zeta, rnndb's for
    /// color). It names the row only: [`Format::full_name`] gives a name that resolves back to
    /// this format, sRGB included.
    pub fn name(&self) -> &'static str {
        match self.kind {
            Kind::Texture => self.tex.name,
            Kind::Color => color_formats().iter().find(|c| c.id == self.id).map_or("", |c| c.rnndb),
            Kind::Zeta => zeta_formats().iter().find(|z| z.id == self.id).map_or("", |z| z.name),
        }
    }

    /// `kind:0xid`, a name that always resolves back to this table row (`nv10:0x06` /
    /// `nv40:0x25` for the pre-G80 rows).
    pub fn id_name(&self) -> String {
        if let Some(r) = self.pre_g80 {
            return alloc::format!("{}:{:#04x}", r.table.name(), r.id);
        }
        let k = if self.kind == Kind::Texture { "tex" } else { self.kind.name() };
        alloc::format!("{k}:{:#04x}", self.id)
    }

    /// Element size in bytes.
    pub fn elem_size_bytes(&self) -> u32 {
        u32::from(self.tex.elem_size_bytes)
    }

    /// Pixels per element in x and y: (1, 1), (2, 1) for YUV, (4, 4) for BC and ETC2/EAC,
    /// the footprint for ASTC (4x4 to 12x12), (8, 8) for bitmap.
    pub fn block_dims(&self) -> (u32, u32) {
        self.tex.layout.block_dims()
    }

    /// Pixels per element (`bw * bh`).
    pub fn pixels_per_elem(&self) -> usize {
        let (w, h) = self.block_dims();
        (w * h) as usize
    }

    /// True for the block-compressed formats (BC, ETC2/EAC, ASTC).
    pub fn is_compressed(&self) -> bool {
        matches!(self.tex.layout, Layout::Compressed(_))
    }

    /// True for zeta layouts (depth, stencil, coverage).
    pub fn is_zeta(&self) -> bool {
        matches!(self.tex.layout, Layout::Zeta(_))
    }

    /// Component types of C0-C3.
    pub fn components(&self) -> [ComponentType; 4] {
        self.types
    }

    /// Swizzle: the source of output R, G, B, A.
    pub fn swizzle(&self) -> [Swizzle; 4] {
        self.swizzle
    }

    /// True when R, G, B are sRGB encoded.
    pub fn is_srgb(&self) -> bool {
        self.srgb
    }

    /// The YUV to RGB conversion applied (YUV formats only).
    pub fn yuv_matrix(&self) -> YuvMatrix {
        self.yuv
    }

    /// Sets the component types of C0-C3, checking that each type is valid for its bitfield:
    /// float needs a 32, 16, 11 or 10-bit field (11/10 are unsigned floats), snorm at least
    /// 2 bits; shared-exponent components must be float; zeta components are fixed; of the
    /// compressed formats only BC4/BC5 take a type (unorm or snorm, from C0).
    pub fn with_components(mut self, types: [ComponentType; 4]) -> Result<Format> {
        let bad = |i: usize, ty: ComponentType, rule: &str| Error::Unsupported {
            field: "component type",
            value: alloc::format!("C{i} {}", ty.name()),
            rule: alloc::format!("{rule} (format {})", self.name()),
        };
        match self.tex.layout {
            Layout::Simple(bits) => {
                for (i, &ty) in types.iter().enumerate() {
                    let Some(&b) = bits.get(i) else { continue };
                    if ty == ComponentType::Float && !matches!(b, 10 | 11 | 16 | 32) {
                        return Err(bad(i, ty, "float needs a 32, 16, 11 or 10-bit field"));
                    }
                    if ty == ComponentType::Snorm && b < 2 {
                        return Err(bad(i, ty, "snorm needs at least 2 bits"));
                    }
                }
            }
            Layout::SharedExp => {
                if let Some(i) = types.iter().take(3).position(|&t| t != ComponentType::Float) {
                    return Err(bad(i, types[i], "9_9_9_E5 components must be float"));
                }
            }
            Layout::Yuv { .. } => {
                if let Some(i) = types.iter().take(3).position(|&t| t == ComponentType::Float) {
                    return Err(bad(i, types[i], "8-bit YUV components cannot be float"));
                }
            }
            Layout::Bitmap => {
                if matches!(types[0], ComponentType::Float | ComponentType::Snorm) {
                    return Err(bad(0, types[0], "a 1-bit sample is unorm, uint or sint"));
                }
            }
            Layout::Zeta(_) => {
                if types[..3] != self.types[..3] {
                    let i = (0..3).find(|&i| types[i] != self.types[i]).unwrap_or(0);
                    return Err(bad(i, types[i], "zeta components have fixed types (Z, S uint, C uint)"));
                }
            }
            Layout::Compressed(bc) => {
                let ok = match bc {
                    Bc::Bc4 | Bc::Bc5 | Bc::EacR11 | Bc::EacRg11 => {
                        matches!(types[0], ComponentType::Unorm | ComponentType::Snorm)
                            && (matches!(bc, Bc::Bc4 | Bc::EacR11) || types[1] == types[0])
                    }
                    Bc::Bc6hSigned | Bc::Bc6hUnsigned => types[..3].iter().all(|&t| t == ComponentType::Float),
                    _ => types.iter().all(|&t| t == ComponentType::Unorm),
                };
                if !ok {
                    return Err(bad(
                        0,
                        types[0],
                        "compressed formats fix their types (BC4/BC5, EAC R11/RG11: unorm or snorm)",
                    ));
                }
            }
        }
        self.types = types;
        Ok(self)
    }

    /// Sets the swizzle (sources of output R, G, B, A).
    pub fn with_swizzle(mut self, swizzle: [Swizzle; 4]) -> Format {
        self.swizzle = swizzle;
        self
    }

    /// Sets or clears sRGB decoding of R, G, B.
    pub fn with_srgb(mut self, srgb: bool) -> Format {
        self.srgb = srgb;
        self
    }

    /// Selects the YUV to RGB conversion (YUV formats only; needs unorm components).
    pub fn with_yuv_matrix(mut self, m: YuvMatrix) -> Result<Format> {
        if m != YuvMatrix::Raw {
            if !matches!(self.tex.layout, Layout::Yuv { .. }) {
                return Err(Error::Unsupported {
                    field: "yuv matrix",
                    value: m.name().to_string(),
                    rule: alloc::format!("format {} is not a YUV format", self.name()),
                });
            }
            if self.types[..3].iter().any(|&t| t != ComponentType::Unorm) {
                return Err(Error::Unsupported {
                    field: "yuv matrix",
                    value: m.name().to_string(),
                    rule: "the conversion to RGB needs unorm Y, U, V".to_string(),
                });
            }
        }
        self.yuv = m;
        Ok(self)
    }

    /// The pre-G80 (NV10-NV40) row this format came from, if any.
    pub fn pre_g80(&self) -> Option<&'static PreG80Format> {
        self.pre_g80
    }

    /// True for the pre-G80 linear (`_RECT`) formats, which imply the pitch layout.
    pub fn is_linear_only(&self) -> bool {
        self.pre_g80.is_some_and(|r| r.linear)
    }

    /// True for INDEX8: its elements are palette indices ([`Palette`]).
    pub fn needs_palette(&self) -> bool {
        self.pre_g80.is_some_and(|r| r.palette)
    }

    /// True when this format exists on `gpu` (G80+ tables: per-id generations; pre-G80 rows:
    /// the generations rnndb lists).
    pub fn exists_on(&self, gpu: Gpu) -> bool {
        if let Some(r) = self.pre_g80 {
            return r.exists_on(gpu);
        }
        gpu >= Gpu::G80 && self.since().is_none_or(|s| gpu >= s)
    }

    /// The first generation that has this format (`None`: every G80+ GPU; pre-G80 rows say
    /// theirs through [`Format::pre_g80`]).
    pub fn since(&self) -> Option<Gpu> {
        match self.kind {
            Kind::Zeta => zeta_formats().iter().find(|z| z.id == self.id).and_then(|z| z.since),
            _ => self.tex.since,
        }
    }

    /// The rule [`Format::exists_on`] applies, in words, for error messages: e.g. "ASTC and
    /// ETC2/EAC texture formats exist from gm107 (Maxwell texture headers) on".
    pub fn availability_rule(&self) -> String {
        if self.pre_g80.is_some() {
            return alloc::format!("{} is an NV10-NV40 texture format (rnndb nv_3ddefs.xml)", self.name());
        }
        let Some(since) = self.since() else { return "G80 and later GPUs have it".to_string() };
        match self.tex.layout {
            Layout::Compressed(
                Bc::Astc { .. } | Bc::Etc2Rgb | Bc::Etc2RgbA1 | Bc::Etc2Rgba | Bc::EacR11 | Bc::EacRg11,
            ) => {
                alloc::format!(
                    "ASTC and ETC2/EAC texture formats exist from {since} (Maxwell texture headers, incl. Tegra X1) on"
                )
            }
            _ => alloc::format!("{} exists from {since} on", self.name()),
        }
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod decode_tests;

#[cfg(all(test, feature = "bc-encode"))]
mod bc1_alpha_tests;
#[cfg(all(test, feature = "bc-encode"))]
mod bc_encode_tests;
#[cfg(test)]
mod full_name_tests;
#[cfg(test)]
mod names_tests;
#[cfg(test)]
mod nv097_tests;
#[cfg(test)]
mod srgb_rgba8_tests;
