//! Name resolution: a format name or `(kind, id)` to a [`Format`], and the default
//! interpretation of each table row (component types, swizzle, sRGB; see the module docs of
//! [`crate::format`]).

use super::catalogue::{
    color_formats, texture_format, texture_formats, zeta_formats, ColorFormat, Kind, TextureFormat, ZetaFormat,
};
use super::element_layout::Layout;
use super::swizzle::Swizzle;
use super::Format;
use crate::codec::{Bc, ComponentType, YuvMatrix};
use crate::error::{Error, Result};
use alloc::string::ToString;
use alloc::vec::Vec;

pub(super) fn parse_id(s: &str) -> Option<u8> {
    let s = s.trim();
    let (digits, radix) = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => (h, 16),
        None => (s, 10),
    };
    u8::from_str_radix(digits, radix).ok()
}

impl Format {
    /// Resolves a catalogue name, a `kind:` prefixed name or id (the module docs' forms, without
    /// the aliases of `aliases`).
    pub(super) fn parse_catalogue(name: &str) -> Result<Format> {
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
                    None => Err(unknown(name)),
                };
            }
        }
        for kind in [Kind::Texture, Kind::Zeta, Kind::Color] {
            if let Some(f) = Self::by_name(kind, n) {
                return Ok(f);
            }
        }
        if let Some(f) = Self::srgb_name(n) {
            return Ok(f);
        }
        if let Some(e) = bad_astc_size(n) {
            return Err(e);
        }
        Err(unknown(name))
    }

    /// `<compressed texture format>_srgb` (e.g. `astc_8x8_srgb`, `bc7_srgb`): that row with
    /// sRGB decoding on, the texture header's sRGB bit (open-gpu-doc `clcd97tex.h`
    /// `S_R_G_B_CONVERSION`).
    fn srgb_name(n: &str) -> Option<Format> {
        let cut = n.len().checked_sub(5)?;
        let (base, suffix) = (n.get(..cut)?, n.get(cut..)?);
        if !suffix.eq_ignore_ascii_case("_srgb") {
            return None;
        }
        let f = Self::by_name(Kind::Texture, base)?;
        matches!(f.tex.layout, Layout::Compressed(bc) if !matches!(bc, Bc::Bc4 | Bc::Bc5 | Bc::Bc6hSigned | Bc::Bc6hUnsigned | Bc::EacR11 | Bc::EacRg11))
            .then(|| f.with_srgb(true))
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
                    if z.z.is_float() { ComponentType::Float } else { ComponentType::Unorm },
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
            pre_g80: None,
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
            pre_g80: None,
        }
    }

    /// A zeta format (read as Z, S, C, 1 like its texture format).
    pub fn from_zeta(z: &'static ZetaFormat) -> Format {
        let mut f = Self::from_texture(z.texture());
        f.kind = Kind::Zeta;
        f.id = z.id;
        f
    }
}

/// The ASTC 2D footprints (ASTC specification; the catalogue has a row for each).
const ASTC_SIZES: &str = "4x4, 5x4, 5x5, 6x5, 6x6, 8x5, 8x6, 8x8, 10x5, 10x6, 10x8, 10x10, 12x10, 12x12";

/// `astc_WxH` (or `ASTC_2D_WxH`, optionally `_srgb`) with a footprint ASTC does not have.
fn bad_astc_size(n: &str) -> Option<Error> {
    let l = n.trim().to_ascii_lowercase();
    let rest = l.strip_prefix("astc_2d_").or_else(|| l.strip_prefix("astc_")).or_else(|| l.strip_prefix("astc"))?;
    let dims = rest.strip_suffix("_srgb").unwrap_or(rest);
    let (w, h) = dims.split_once('x')?;
    if w.is_empty() || h.is_empty() || !(w.bytes().chain(h.bytes())).all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(Error::Unsupported {
        field: "ASTC block size",
        value: dims.to_string(),
        rule: alloc::format!("ASTC 2D blocks are {ASTC_SIZES}"),
    })
}

/// An unknown catalogue name; `Format::parse` then tries the aliases and makes the suggestions
/// (none here: they would cost an edit distance per name on every miss).
fn unknown(name: &str) -> Error {
    Error::UnknownName { kind: "format", name: name.to_string(), suggestions: Vec::new() }
}
