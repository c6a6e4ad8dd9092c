//! Binding points: where a surface is bound, and the limits each one puts on it.
//!
//! Envytools `docs/hw/memory/g80-surface.rst` ("Introduction", "Surface elements", "Blocklinear
//! surfaces") lists the binding points and their limits:
//! - block width > 0 only on render targets (0 or 1) and texture units;
//! - block depth must be 0 on the G80 compute g[] spaces;
//! - byte-oriented binding points (m2mf, PCOPY) ignore the element size: "a 16x16 surface of
//!   4-byte elements is treated as a 64x16 surface of bytes";
//! - texture units auto-size the block ("since all mipmap levels of a texture use a single block
//!   size field in TIC, the auto-sizing is needed").
//!
//! Decisions where the document is silent (documented here and in the README):
//! - The G80 g[] spaces are treated as byte-oriented too (they are plain memory windows
//!   addressed by byte).
//! - Only the texture unit auto-sizes by default; auto-sizing can be forced on or off for any
//!   binding point.
//! - OPEN (`docs/ERRATA.md`): the document says texture units accept block width > 0, while rnndb
//!   and NVIDIA's headers say the texture unit ignores it (one gob wide). The model follows the
//!   document (0-5 accepted on textures); [`TextureBlockWidth::Ignored`] selects the other view.

use crate::error::{closest, Error, Result};
use crate::gpu::Gpu;
use alloc::format;
use alloc::string::ToString;

/// A binding point of a surface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Binding {
    /// m2mf input/output buffers (byte-oriented).
    M2mf,
    /// 2D engine source/destination surfaces.
    TwoD,
    /// 3D/compute texture units (auto-sizing).
    Texture,
    /// 3D color render targets.
    ColorRt,
    /// 3D zeta (depth/stencil) render target (blocklinear only).
    ZetaRt,
    /// Compute g[] spaces, G80:GF100 only (block depth 0; byte-oriented).
    Global,
    /// 3D/compute image units, GF100+.
    Image,
    /// PCOPY input/output buffers (byte-oriented), GT215+.
    Pcopy,
    /// PDISPLAY: the framebuffer.
    Display,
}

/// Every binding point.
pub const ALL_BINDINGS: [Binding; 9] = [
    Binding::M2mf,
    Binding::TwoD,
    Binding::Texture,
    Binding::ColorRt,
    Binding::ZetaRt,
    Binding::Global,
    Binding::Image,
    Binding::Pcopy,
    Binding::Display,
];

/// How the texture unit treats a block width > 0 (an OPEN question, see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TextureBlockWidth {
    /// The document: block width 0-5 is accepted and used.
    #[default]
    Document,
    /// rnndb / NVIDIA headers: the texture unit ignores it; any value > 0 is rejected.
    Ignored,
}

impl Binding {
    /// CLI name.
    pub const fn name(self) -> &'static str {
        match self {
            Binding::M2mf => "m2mf",
            Binding::TwoD => "2d",
            Binding::Texture => "texture",
            Binding::ColorRt => "color",
            Binding::ZetaRt => "zeta",
            Binding::Global => "global",
            Binding::Image => "image",
            Binding::Pcopy => "pcopy",
            Binding::Display => "display",
        }
    }

    const fn aliases(self) -> &'static [&'static str] {
        match self {
            Binding::M2mf => &["m2mf", "memory-to-memory"],
            Binding::TwoD => &["2d", "twod", "2d-engine"],
            Binding::Texture => &["texture", "tex", "tic"],
            Binding::ColorRt => &["color", "color-rt", "rt", "colorrt", "render-target"],
            Binding::ZetaRt => &["zeta", "zeta-rt", "depth", "zetart", "zs"],
            Binding::Global => &["global", "g[]", "g", "gmem"],
            Binding::Image => &["image", "surface", "img"],
            Binding::Pcopy => &["pcopy", "copy", "ce", "copy-engine"],
            Binding::Display => &["display", "disp", "pdisplay", "scanout", "framebuffer"],
        }
    }

    /// Parses any accepted name, case-insensitively.
    pub fn parse(name: &str) -> Result<Binding> {
        let n = name.trim().to_ascii_lowercase();
        ALL_BINDINGS.iter().copied().find(|b| b.aliases().contains(&n.as_str())).ok_or_else(|| Error::UnknownName {
            kind: "binding point",
            name: name.to_string(),
            suggestions: closest(&n, ALL_BINDINGS.iter().flat_map(|b| b.aliases().iter().copied())),
        })
    }

    /// Byte-oriented binding points ignore the element size and see a surface of bytes.
    pub const fn is_byte_oriented(self) -> bool {
        matches!(self, Binding::M2mf | Binding::Pcopy | Binding::Global)
    }

    /// Whether the binding point auto-sizes the block by default (texture units only).
    pub const fn auto_sizes(self) -> bool {
        matches!(self, Binding::Texture)
    }

    /// Largest block width log2 accepted.
    pub const fn max_block_width_log2(self, tex: TextureBlockWidth) -> u32 {
        match self {
            Binding::ColorRt | Binding::ZetaRt => 1,
            Binding::Texture => match tex {
                TextureBlockWidth::Document => 5,
                TextureBlockWidth::Ignored => 0,
            },
            _ => 0,
        }
    }

    /// Largest block depth log2 accepted (0 on the G80 g[] spaces).
    pub const fn max_block_depth_log2(self) -> u32 {
        match self {
            Binding::Global => 0,
            _ => 5,
        }
    }

    /// Checks that the binding point exists on `gpu`.
    pub fn check_gpu(self, gpu: Gpu) -> Result<()> {
        let rule = match self {
            Binding::Global if gpu.is_gf100_or_later() || !gpu.is_g80_or_later() => {
                "g[] spaces exist on G80:GF100 only"
            }
            Binding::Image if !gpu.is_gf100_or_later() => "image units exist on GF100 and later only",
            Binding::Pcopy if !gpu.is_gt215_or_later() => "PCOPY exists on GT215 and later only",
            _ => return Ok(()),
        };
        Err(Error::Unsupported {
            field: "binding",
            value: format!("{} on {}", self.name(), gpu),
            rule: rule.to_string(),
        })
    }

    /// Checks a requested block log2 (x, y, z) against this binding point's limits.
    pub fn check_block(self, block_log2: [u32; 3], tex: TextureBlockWidth) -> Result<()> {
        let maxw = self.max_block_width_log2(tex);
        if block_log2[0] > maxw {
            let rule = match self {
                Binding::ColorRt | Binding::ZetaRt => "render targets accept block width log2 0 or 1 only",
                Binding::Texture => "the texture unit ignores block width (rnndb view selected): use 0",
                _ => "block width > 0 is supported only by render targets and texture units",
            };
            return Err(Error::Unsupported {
                field: "block_width_log2",
                value: block_log2[0].to_string(),
                rule: format!("{rule} (binding {})", self.name()),
            });
        }
        if block_log2[2] > self.max_block_depth_log2() {
            return Err(Error::Unsupported {
                field: "block_depth_log2",
                value: block_log2[2].to_string(),
                rule: "the G80 g[] spaces accept block depth log2 0 only".to_string(),
            });
        }
        Ok(())
    }
}

impl core::fmt::Display for Binding {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_rules() {
        for b in ALL_BINDINGS {
            assert_eq!(Binding::parse(b.name()).unwrap(), b);
        }
        assert_eq!(Binding::parse("G[]").unwrap(), Binding::Global);
        assert!(Binding::ColorRt.check_block([1, 5, 5], TextureBlockWidth::Document).is_ok());
        assert!(Binding::ColorRt.check_block([2, 0, 0], TextureBlockWidth::Document).is_err());
        assert!(Binding::Texture.check_block([5, 0, 0], TextureBlockWidth::Document).is_ok());
        assert!(Binding::Texture.check_block([1, 0, 0], TextureBlockWidth::Ignored).is_err());
        assert!(Binding::TwoD.check_block([1, 0, 0], TextureBlockWidth::Document).is_err());
        assert!(Binding::Global.check_block([0, 5, 1], TextureBlockWidth::Document).is_err());
        assert!(Binding::Global.check_block([0, 5, 0], TextureBlockWidth::Document).is_ok());
        assert!(Binding::Global.check_gpu(Gpu::Gf100).is_err());
        assert!(Binding::Image.check_gpu(Gpu::G80).is_err());
        assert!(Binding::Pcopy.check_gpu(Gpu::G200).is_err());
        assert!(Binding::Pcopy.check_gpu(Gpu::Gt215).is_ok());
    }
}
