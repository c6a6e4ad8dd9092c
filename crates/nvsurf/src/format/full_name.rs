//! A format's full name: one that [`Format::parse`] resolves back to the same format, sRGB
//! included, where [`Format::name`] names only the table row (`bc1_srgb` is row `DXT1`, full
//! name `DXT1_srgb`); and the `NAME_srgb` rule that reads such names back ([`Format::srgb_applies`]).

use super::aliases::aliases;
use super::element_layout::Layout;
use super::{Format, Kind};
use crate::codec::{Bc, ComponentType, YuvMatrix};
use alloc::string::{String, ToString};

/// Strips a case-insensitive `_srgb` suffix.
pub(super) fn strip_srgb_suffix(n: &str) -> Option<&str> {
    let cut = n.len().checked_sub(5)?;
    let (base, suffix) = (n.get(..cut)?, n.get(cut..)?);
    (suffix.eq_ignore_ascii_case("_srgb") && !base.is_empty()).then_some(base)
}

impl Format {
    /// Whether sRGB decoding applies to this format: colour layouts (simple bitfields and the
    /// colour block formats, not BC4/BC5/BC6H or EAC) whose R, G, B components read as unorm,
    /// as the hardware's sRGB textures are (open-gpu-doc `clcd97tex.h` `S_R_G_B_CONVERSION`
    /// applies to unorm data). `NAME_srgb` resolves for these only.
    pub fn srgb_applies(&self) -> bool {
        if self.yuv != YuvMatrix::Raw {
            return false;
        }
        let n = self.tex.layout.component_count().clamp(1, 3);
        let unorm = self.types[..n].iter().all(|&t| t == ComponentType::Unorm);
        unorm
            && match self.tex.layout {
                Layout::Simple(_) => true,
                Layout::Compressed(bc) => {
                    !matches!(bc, Bc::Bc4 | Bc::Bc5 | Bc::Bc6hSigned | Bc::Bc6hUnsigned | Bc::EacR11 | Bc::EacRg11)
                }
                Layout::SharedExp | Layout::Yuv { .. } | Layout::Zeta(_) | Layout::Bitmap => false,
            }
    }

    /// The table row this format came from, with the row's own interpretation (types,
    /// swizzle, sRGB as the table gives them).
    fn row_default(&self) -> Format {
        if let Some(r) = self.pre_g80 {
            return Format::from_pre_g80(r);
        }
        // Cannot fail: this format came from that row (kept as a fallback all the same).
        Format::from_id(self.kind, self.id).unwrap_or(*self)
    }

    /// Names of the row, best first: the bare canonical name when it resolves to the row
    /// (else `tex:`/`color:`/`zeta:` before it; `nv10:`/`nv40:` for pre-G80 rows), then the
    /// id form ([`Format::id_name`]).
    fn row_names(&self, row: &Format) -> [String; 2] {
        if let Some(r) = self.pre_g80 {
            return [alloc::format!("{}:{}", r.table.name(), r.name), self.id_name()];
        }
        let bare = self.name();
        let first = if Format::parse(bare).ok().as_ref() == Some(row) {
            bare.to_string()
        } else {
            let k = if self.kind == Kind::Texture { "tex" } else { self.kind.name() };
            alloc::format!("{k}:{bare}")
        };
        [first, self.id_name()]
    }

    /// A name that [`Format::parse`] resolves back to this very format: the canonical name
    /// ([`Format::name`], with a `tex:`/`color:`/`zeta:` prefix when the bare name means another
    /// table's row, `nv10:`/`nv40:` for the pre-G80 rows) with `_srgb` appended when sRGB is on
    /// and the row is not sRGB itself (`DXT1_srgb`, `A8B8G8R8_srgb`; `RGBA8_SRGB` stays), or,
    /// for component types the row does not imply, the alias that says them
    /// (`BC4_SNORM_BLOCK`). Types or a swizzle set by hand that no name says
    /// ([`Format::with_components`], [`Format::with_swizzle`]) are not in any name: then the
    /// row's name, which does not resolve back.
    pub fn full_name(&self) -> String {
        let row = self.row_default();
        let suffix = if self.srgb && !row.srgb { "_srgb" } else { "" };
        let names = self.row_names(&row);
        for n in &names {
            let n = alloc::format!("{n}{suffix}");
            if Format::parse(&n).ok().as_ref() == Some(self) {
                return n;
            }
        }
        for a in aliases() {
            if a.resolve().as_ref() != Some(self) {
                continue;
            }
            if let Some(s) = a.spellings().into_iter().find(|s| Format::parse(s).ok().as_ref() == Some(self)) {
                return s;
            }
        }
        let [first, _] = names;
        alloc::format!("{first}{suffix}")
    }
}
