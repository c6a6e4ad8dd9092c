//! Surface formats: the texture, color and zeta format tables of the G80+ documents (errata
//! fixed), and [`Format`], a resolved format that knows its element size and how to turn
//! elements into pixels and back.
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
//! - [`Format::parse`] / [`Format::from_id`]: resolve a name or `(kind, id)`.
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
//!   `decode(encode(decode(e))) == decode(e)` for every element `e`.
//! - Tables: [`texture_formats`], [`color_formats`], [`zeta_formats`], [`all_names`].
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

use crate::error::{closest, Error, Result};
use crate::gpu::Gpu;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

mod tables;

pub use crate::codec::{Texel, YuvMatrix};

/// The three format enums of the G80+ GPUs (document, "Surface formats").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Texture format (TIC): element size and bitfield layout only.
    Texture,
    /// Color format (render targets, 2D engine): the full format.
    Color,
    /// Zeta format (depth/stencil render target).
    Zeta,
}

impl Kind {
    /// Lower-case name as used in `tex:`-style prefixes and JSON (`texture`, `color`, `zeta`).
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Texture => "texture",
            Kind::Color => "color",
            Kind::Zeta => "zeta",
        }
    }
}

/// How the bits of a component are read (TIC `TYPE0`-`TYPE3`, rnndb `G80_TIC_TYPE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ComponentType {
    /// Unsigned normalized: `x / (2^n - 1)`.
    Unorm,
    /// Signed normalized: `max(x / (2^(n-1) - 1), -1)`.
    Snorm,
    /// Signed integer (sign-extended to 32 bits).
    Sint,
    /// Unsigned integer.
    Uint,
    /// Floating point (32, 16, or the unsigned 11 and 10 bit floats).
    Float,
}

impl ComponentType {
    /// Parses `unorm`, `snorm`, `sint`, `uint` or `float` (case-insensitive).
    pub fn parse(s: &str) -> Result<Self> {
        let all = [
            ("unorm", Self::Unorm),
            ("snorm", Self::Snorm),
            ("sint", Self::Sint),
            ("uint", Self::Uint),
            ("float", Self::Float),
        ];
        all.iter().find(|(n, _)| n.eq_ignore_ascii_case(s.trim())).map(|p| p.1).ok_or_else(|| Error::UnknownName {
            kind: "component type",
            name: s.to_string(),
            suggestions: closest(s, all.iter().map(|p| p.0)),
        })
    }

    /// Lower-case name.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Unorm => "unorm",
            Self::Snorm => "snorm",
            Self::Sint => "sint",
            Self::Uint => "uint",
            Self::Float => "float",
        }
    }

    /// True for sint and uint (the texel holds an integer, not a float).
    pub const fn is_integer(self) -> bool {
        matches!(self, Self::Sint | Self::Uint)
    }
}

/// The source of one output component (TIC `MAPR`..`MAPA`, rnndb `G80_TIC_MAP`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Swizzle {
    /// Component C0 of the element.
    C0,
    /// Component C1.
    C1,
    /// Component C2.
    C2,
    /// Component C3.
    C3,
    /// Constant 0.
    Zero,
    /// Integer 1 (`0x00000001`).
    OneInt,
    /// Float 1.0 (`0x3f800000`).
    OneFloat,
}

impl Swizzle {
    /// Parses `c0`..`c3`, `zero`, `one_int`, `one_float` (also `0`, `1`, `r`, `g`, `b`, `a`
    /// as C0-C3), case-insensitive.
    pub fn parse(s: &str) -> Result<Self> {
        let all = [
            ("c0", Self::C0),
            ("c1", Self::C1),
            ("c2", Self::C2),
            ("c3", Self::C3),
            ("zero", Self::Zero),
            ("one_int", Self::OneInt),
            ("one_float", Self::OneFloat),
            ("r", Self::C0),
            ("g", Self::C1),
            ("b", Self::C2),
            ("a", Self::C3),
            ("0", Self::Zero),
            ("1", Self::OneFloat),
        ];
        all.iter().find(|(n, _)| n.eq_ignore_ascii_case(s.trim())).map(|p| p.1).ok_or_else(|| Error::UnknownName {
            kind: "swizzle source",
            name: s.to_string(),
            suggestions: closest(s, all.iter().take(7).map(|p| p.0)),
        })
    }

    /// Canonical lower-case name.
    pub const fn name(self) -> &'static str {
        match self {
            Self::C0 => "c0",
            Self::C1 => "c1",
            Self::C2 => "c2",
            Self::C3 => "c3",
            Self::Zero => "zero",
            Self::OneInt => "one_int",
            Self::OneFloat => "one_float",
        }
    }

    /// The component index for C0-C3.
    pub const fn component(self) -> Option<usize> {
        match self {
            Self::C0 => Some(0),
            Self::C1 => Some(1),
            Self::C2 => Some(2),
            Self::C3 => Some(3),
            _ => None,
        }
    }
}

/// Depth encodings of zeta formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ZType {
    /// 16-bit unsigned normalized (G200+).
    Unorm16,
    /// 24-bit unsigned normalized.
    Unorm24,
    /// 32-bit float.
    Float32,
}

/// Where Z, S and C live in a zeta element (bit offsets from the LSB of the little-endian
/// element; S and C are 8 bits wide).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ZetaLayout {
    /// Bit offset of Z.
    pub z_lo: u8,
    /// Encoding of Z.
    pub z: ZType,
    /// Bit offset of the 8-bit stencil, if any.
    pub s_lo: Option<u8>,
    /// Bit offset of the 8-bit coverage (CSAA) value, if any; kept raw.
    pub c_lo: Option<u8>,
}

/// Block-compressed formats (4x4 pixels per element).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bc {
    /// DXT1 / BC1, 8 bytes.
    Bc1,
    /// DXT3 / BC2, 16 bytes.
    Bc2,
    /// DXT5 / BC3, 16 bytes.
    Bc3,
    /// RGTC1 / BC4, 8 bytes (signed when C0 is snorm).
    Bc4,
    /// RGTC2 / BC5, 16 bytes (signed when C0 is snorm).
    Bc5,
    /// BC6H signed half float, 16 bytes (GF100+).
    Bc6hSigned,
    /// BC6H unsigned half float, 16 bytes (GF100+).
    Bc6hUnsigned,
    /// BC7, 16 bytes (GF100+).
    Bc7,
}

/// The element layout of a texture format: the document's categories.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Simple color: bitfield widths of C0, C1, ... from the LSB; the rest is padding.
    Simple(&'static [u8]),
    /// `9_9_9_E5`: three 9-bit mantissas and a shared 5-bit exponent.
    SharedExp,
    /// Two pixels per element: byte positions of U, YA (first pixel), V and YB.
    Yuv {
        /// Byte of U (C0).
        u: u8,
        /// Byte of the first pixel's Y (C1).
        ya: u8,
        /// Byte of V (C2).
        v: u8,
        /// Byte of the second pixel's Y.
        yb: u8,
    },
    /// Depth/stencil/coverage.
    Zeta(ZetaLayout),
    /// 4x4 compressed block.
    Compressed(Bc),
    /// 64-bit element, 8x8 one-bit samples, LSB first, x then y.
    Bitmap,
}

impl Layout {
    /// The document's category name.
    pub const fn category(&self) -> &'static str {
        match self {
            Layout::Simple(_) => "simple",
            Layout::SharedExp => "shared_exponent",
            Layout::Yuv { .. } => "yuv",
            Layout::Zeta(_) => "zeta",
            Layout::Compressed(_) => "compressed",
            Layout::Bitmap => "bitmap",
        }
    }

    /// Pixels per element in x and y.
    pub const fn block_dims(&self) -> (u32, u32) {
        match self {
            Layout::Yuv { .. } => (2, 1),
            Layout::Compressed(_) => (4, 4),
            Layout::Bitmap => (8, 8),
            _ => (1, 1),
        }
    }

    /// Number of components C0.. the element holds.
    pub fn component_count(&self) -> usize {
        match self {
            Layout::Simple(b) => b.len(),
            Layout::SharedExp | Layout::Yuv { .. } => 3,
            Layout::Zeta(z) => {
                if z.c_lo.is_some() {
                    3
                } else if z.s_lo.is_some() {
                    2
                } else {
                    1
                }
            }
            Layout::Compressed(Bc::Bc4) | Layout::Bitmap => 1,
            Layout::Compressed(Bc::Bc5) => 2,
            Layout::Compressed(Bc::Bc6hSigned | Bc::Bc6hUnsigned) => 3,
            Layout::Compressed(_) => 4,
        }
    }
}

/// One row of the texture format table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextureFormat {
    /// TIC format id.
    pub id: u8,
    /// The documents' name (bitfields LSB first).
    pub name: &'static str,
    /// The rnndb name (`g80_texture.xml`), empty if rnndb lacks the id.
    pub rnndb: &'static str,
    /// NVIDIA's name (`cl9097tex.h` `COMPONENT_SIZES_*`, MSB first).
    pub nvidia: &'static str,
    /// Other accepted names.
    pub aliases: &'static [&'static str],
    /// Element size in bytes.
    pub elem_size_bytes: u8,
    /// Bitfield layout.
    pub layout: Layout,
    /// First generation that has it (`None`: all G80+).
    pub since: Option<Gpu>,
}

/// One row of the color format table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ColorFormat {
    /// Color format id.
    pub id: u8,
    /// The rnndb name (`g80_defs.xml` `G80_SURFACE_FORMAT`).
    pub rnndb: &'static str,
    /// NVIDIA's name (`cl9097.h` `SET_COLOR_TARGET_FORMAT_V_*`, MSB first).
    pub nvidia: &'static str,
    /// Other accepted names.
    pub aliases: &'static [&'static str],
    /// The texture format with the same layout.
    pub texture_id: u8,
    /// What C0, C1, ... carry: letters R, G, B, A, X (unused), Y (copied to all).
    pub assign: &'static str,
    /// Component type of every component.
    pub ty: ComponentType,
    /// sRGB encoded R, G, B.
    pub srgb: bool,
    /// X bits are written as ones (NVIDIA `O...` formats) rather than zeros.
    pub x_ones: bool,
}

/// One row of the zeta format table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ZetaFormat {
    /// Zeta format id.
    pub id: u8,
    /// The documents' name.
    pub name: &'static str,
    /// The rnndb name (`g80_defs.xml` `G80_ZETA_FORMAT`).
    pub rnndb: &'static str,
    /// NVIDIA's name (`cl9097.h` `SET_ZT_FORMAT_V_*`).
    pub nvidia: &'static str,
    /// Other accepted names.
    pub aliases: &'static [&'static str],
    /// Texture format per coverage mode (`""` when the format has no coverage).
    pub textures: &'static [(&'static str, u8)],
    /// First generation that has it.
    pub since: Option<Gpu>,
}

/// The texture format table, ordered by id.
pub fn texture_formats() -> &'static [TextureFormat] {
    tables::TEXTURE_FORMATS
}

/// The color format table, ordered by id.
pub fn color_formats() -> &'static [ColorFormat] {
    tables::COLOR_FORMATS
}

/// The zeta format table, ordered by id.
pub fn zeta_formats() -> &'static [ZetaFormat] {
    tables::ZETA_FORMATS
}

/// The texture format with TIC id `id`.
pub fn texture_format(id: u8) -> Option<&'static TextureFormat> {
    tables::TEXTURE_FORMATS.iter().find(|t| t.id == id)
}

fn push_unique(v: &mut Vec<&'static str>, n: &'static str) {
    if !n.is_empty() && !v.iter().any(|x| x.eq_ignore_ascii_case(n)) {
        v.push(n);
    }
}

impl TextureFormat {
    /// Every name of this format, canonical first, without duplicates.
    pub fn names(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        for n in [self.name, self.rnndb, self.nvidia].iter().chain(self.aliases) {
            push_unique(&mut v, n);
        }
        v
    }
}

impl ColorFormat {
    /// Every name of this format, canonical (rnndb) first.
    pub fn names(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        for n in [self.rnndb, self.nvidia].iter().chain(self.aliases) {
            push_unique(&mut v, n);
        }
        v
    }

    /// The texture format this color format maps to.
    pub fn texture(&self) -> &'static TextureFormat {
        // Every color row names a texture id present in the table (checked by a unit test).
        texture_format(self.texture_id).unwrap_or(&tables::TEXTURE_FORMATS[0])
    }
}

impl ZetaFormat {
    /// Every name of this format, canonical (documents) first.
    pub fn names(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        for n in [self.name, self.rnndb, self.nvidia].iter().chain(self.aliases) {
            push_unique(&mut v, n);
        }
        v
    }

    /// The texture format for the first (or only) coverage mode; all share one layout.
    pub fn texture(&self) -> &'static TextureFormat {
        texture_format(self.textures[0].1).unwrap_or(&tables::TEXTURE_FORMATS[0])
    }
}

/// Every accepted bare name (all kinds), for suggestions and listings.
pub fn all_names() -> Vec<&'static str> {
    let mut v = Vec::new();
    for t in texture_formats() {
        v.extend(t.names());
    }
    for z in zeta_formats() {
        v.extend(z.names());
    }
    for c in color_formats() {
        v.extend(c.names());
    }
    v
}

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
}

fn parse_id(s: &str) -> Option<u8> {
    let s = s.trim();
    let (digits, radix) = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => (h, 16),
        None => (s, 10),
    };
    u8::from_str_radix(digits, radix).ok()
}

impl Format {
    /// Resolves a format name (see the module docs for every accepted form).
    pub fn parse(name: &str) -> Result<Format> {
        let n = name.trim();
        let prefixes =
            [("tex:", Kind::Texture), ("texture:", Kind::Texture), ("color:", Kind::Color), ("zeta:", Kind::Zeta)];
        for (p, kind) in prefixes {
            // `get`, not indexing: a name with a multi-byte character where the prefix would
            // end is simply not this prefix (never a char-boundary panic).
            if let Some(rest) = n.get(..p.len()).filter(|h| h.eq_ignore_ascii_case(p)).map(|_| &n[p.len()..]) {
                // Names first: the texture formats `8`, `16` and `32` are names, not decimal ids.
                if let Some(f) = Self::by_name(kind, rest) {
                    return Ok(f);
                }
                return match parse_id(rest) {
                    Some(id) => Format::from_id(kind, id),
                    None => Err(unknown(name, kind_names(kind))),
                };
            }
        }
        for kind in [Kind::Texture, Kind::Zeta, Kind::Color] {
            if let Some(f) = Self::by_name(kind, n) {
                return Ok(f);
            }
        }
        Err(unknown(name, all_names()))
    }

    fn by_name(kind: Kind, n: &str) -> Option<Format> {
        let eq = |x: &str| !x.is_empty() && x.eq_ignore_ascii_case(n.trim());
        match kind {
            Kind::Texture => texture_formats().iter().find(|t| t.names().into_iter().any(eq)).map(Self::from_texture),
            Kind::Color => color_formats().iter().find(|c| c.names().into_iter().any(eq)).map(Self::from_color),
            Kind::Zeta => zeta_formats().iter().find(|z| z.names().into_iter().any(eq)).map(Self::from_zeta),
        }
    }

    /// The format with id `id` in the table of `kind`.
    pub fn from_id(kind: Kind, id: u8) -> Result<Format> {
        let found = match kind {
            Kind::Texture => texture_format(id).map(Self::from_texture),
            Kind::Color => color_formats().iter().find(|c| c.id == id).map(Self::from_color),
            Kind::Zeta => zeta_formats().iter().find(|z| z.id == id).map(Self::from_zeta),
        };
        found.ok_or_else(|| Error::Unsupported {
            field: "format id",
            value: alloc::format!("{}:{id:#04x}", kind.name()),
            rule: alloc::format!("no {} format has this id (see `nvsurf formats`)", kind.name()),
        })
    }

    /// A texture format with its default interpretation (module docs).
    pub fn from_texture(t: &'static TextureFormat) -> Format {
        let mut types = [ComponentType::Unorm; 4];
        match t.layout {
            Layout::Simple(bits) => {
                let float = t.id == 0x21;
                for (i, &b) in bits.iter().enumerate() {
                    if b == 32 || float {
                        types[i] = ComponentType::Float;
                    }
                }
                // A missing component takes the type of C0 (so 32-bit float formats read
                // 1.0 for a missing alpha, integer formats read 1).
                for ty in types.iter_mut().skip(bits.len()) {
                    *ty = if bits.first() == Some(&32) || float { ComponentType::Float } else { ComponentType::Unorm };
                }
            }
            Layout::SharedExp | Layout::Compressed(Bc::Bc6hSigned | Bc::Bc6hUnsigned) => {
                types = [ComponentType::Float; 4];
            }
            Layout::Zeta(z) => {
                types = [
                    if z.z == ZType::Float32 { ComponentType::Float } else { ComponentType::Unorm },
                    ComponentType::Uint,
                    ComponentType::Uint,
                    ComponentType::Unorm,
                ];
            }
            _ => {}
        }
        Format {
            kind: Kind::Texture,
            id: t.id,
            tex: t,
            types,
            swizzle: [Swizzle::C0, Swizzle::C1, Swizzle::C2, Swizzle::C3],
            srgb: false,
            yuv: YuvMatrix::Raw,
            x_ones: false,
        }
    }

    /// A color format: types, swizzle and sRGB from its table row.
    pub fn from_color(c: &'static ColorFormat) -> Format {
        let comps = [Swizzle::C0, Swizzle::C1, Swizzle::C2, Swizzle::C3];
        let find = |letter: u8| c.assign.bytes().position(|b| b == letter).map(|i| comps[i]);
        let one = if c.ty.is_integer() { Swizzle::OneInt } else { Swizzle::OneFloat };
        let swizzle = if let Some(y) = find(b'Y') {
            [y; 4]
        } else {
            [
                find(b'R').unwrap_or(Swizzle::Zero),
                find(b'G').unwrap_or(Swizzle::Zero),
                find(b'B').unwrap_or(Swizzle::Zero),
                find(b'A').unwrap_or(one),
            ]
        };
        Format {
            kind: Kind::Color,
            id: c.id,
            tex: c.texture(),
            types: [c.ty; 4],
            swizzle,
            srgb: c.srgb,
            yuv: YuvMatrix::Raw,
            x_ones: c.x_ones,
        }
    }

    /// A zeta format (read as Z, S, C, 1 like its texture format).
    pub fn from_zeta(z: &'static ZetaFormat) -> Format {
        let mut f = Self::from_texture(z.texture());
        f.kind = Kind::Zeta;
        f.id = z.id;
        f
    }

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

    /// Canonical name (documents' name for texture and zeta, rnndb's for color).
    pub fn name(&self) -> &'static str {
        match self.kind {
            Kind::Texture => self.tex.name,
            Kind::Color => color_formats().iter().find(|c| c.id == self.id).map_or("", |c| c.rnndb),
            Kind::Zeta => zeta_formats().iter().find(|z| z.id == self.id).map_or("", |z| z.name),
        }
    }

    /// `kind:0xid`, a name that always resolves back to this table row.
    pub fn id_name(&self) -> String {
        let k = if self.kind == Kind::Texture { "tex" } else { self.kind.name() };
        alloc::format!("{k}:{:#04x}", self.id)
    }

    /// Element size in bytes.
    pub fn elem_size_bytes(&self) -> u32 {
        u32::from(self.tex.elem_size_bytes)
    }

    /// Pixels per element in x and y: (1, 1), (2, 1) for YUV, (4, 4) for compressed,
    /// (8, 8) for bitmap.
    pub fn block_dims(&self) -> (u32, u32) {
        self.tex.layout.block_dims()
    }

    /// Pixels per element (`bw * bh`).
    pub fn pixels_per_elem(&self) -> usize {
        let (w, h) = self.block_dims();
        (w * h) as usize
    }

    /// True for the 4x4 block-compressed formats.
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
                    Bc::Bc4 | Bc::Bc5 => {
                        matches!(types[0], ComponentType::Unorm | ComponentType::Snorm)
                            && (bc == Bc::Bc4 || types[1] == types[0])
                    }
                    Bc::Bc6hSigned | Bc::Bc6hUnsigned => types[..3].iter().all(|&t| t == ComponentType::Float),
                    _ => types.iter().all(|&t| t == ComponentType::Unorm),
                };
                if !ok {
                    return Err(bad(0, types[0], "compressed formats fix their types (BC4/BC5: unorm or snorm)"));
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

    /// True when this format exists on `gpu` (G80+ only; per-id generations from the tables).
    pub fn exists_on(&self, gpu: Gpu) -> bool {
        let since = match self.kind {
            Kind::Zeta => zeta_formats().iter().find(|z| z.id == self.id).and_then(|z| z.since),
            _ => self.tex.since,
        };
        gpu >= Gpu::G80 && since.is_none_or(|s| gpu >= s)
    }
}

fn kind_names(kind: Kind) -> Vec<&'static str> {
    let mut v = Vec::new();
    match kind {
        Kind::Texture => texture_formats().iter().for_each(|t| v.extend(t.names())),
        Kind::Color => color_formats().iter().for_each(|t| v.extend(t.names())),
        Kind::Zeta => zeta_formats().iter().for_each(|t| v.extend(t.names())),
    }
    v
}

fn unknown(name: &str, candidates: Vec<&'static str>) -> Error {
    Error::UnknownName { kind: "format", name: name.to_string(), suggestions: closest(name, candidates) }
}

#[cfg(test)]
mod tests;
