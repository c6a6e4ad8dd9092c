//! Which modifiers fit a GPU and format, as NVK (Mesa's nil) decides: the list it offers, best
//! first, and the reason it refuses one.
//!
//! Facts from Mesa `src/nouveau/nil/modifiers.rs` (MIT), commit
//! `157fa86f6d5def2bec5c91f33be70c138250ab7f`:
//! - `drm_format_mods_for_format`: no modifiers for depth/stencil formats, formats that cannot be
//!   colour targets, and `R11G11B10_FLOAT` / `R9G9B9E5_FLOAT` (no fourcc); otherwise six
//!   uncompressed block-linear modifiers with block heights 5, 4, 3, 2, 1, 0 ("bigger tiling is
//!   better"), then `DRM_FORMAT_MOD_LINEAR`.
//! - The gob kind generation and sector layout come from the gob type nil picks
//!   (`tiling.rs`, `GOBType::choose`) through its table `GOB_TYPE_MODIFIER_INFOS`: Fermi colour
//!   (desktop Fermi-Volta) 0 / desktop; Tegra colour (SoCs before Turing) 0 / Tegra K1; Turing
//!   2D colour (Turing and later; Blackwell 4 bytes and up) 2 / desktop; Blackwell 8-bit and
//!   16-bit (1- and 2-byte formats on Blackwell) 2 / Blackwell 8 and 16 bpp.
//! - The PTE kind is `Image::choose_pte_kind(dev, format, 1 sample, uncompressed)`
//!   ([`crate::storage::suggest_nvk`]).
//! - `drm_format_mod_is_supported`: linear always; a block-linear modifier when its block height
//!   is 0-5, its generation, sector layout and PTE kind are the ones above and it is
//!   uncompressed.
//!
//! "Can be a colour target" is read from nvsurf's tables: the format's texture layout has a
//! colour (render target) format (nil reads its own format table,
//! `Format::supports_color_targets`).

use super::fields::{
    BlockLinear, Compression, GobKindGeneration, Modifier, SectorLayout, DRM_FORMAT_MOD_LINEAR, MAX_BLOCK_HEIGHT_LOG2,
};
use crate::error::{Error, Result};
use crate::format::{color_formats, Format};
use crate::gpu::{Family, Gpu};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// What a block-linear modifier must carry for a GPU and format under nil's rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Expected {
    /// The gob kind generation of nil's gob type.
    pub gob_kind_generation: GobKindGeneration,
    /// The sector layout of nil's gob type.
    pub sector_layout: SectorLayout,
    /// nil's uncompressed single-sample PTE kind.
    pub pte_kind: u8,
}

/// Texture format id of R11G11B10_FLOAT (`BF10GF11RF11`): no fourcc, so no modifiers.
const TEX_R11G11B10F: u8 = 0x21;
/// Texture format id of E5B9G9R9_SHAREDEXP (`9_9_9_E5`).
const TEX_E5B9G9R9: u8 = 0x20;

fn refuse(field: &'static str, value: String, rule: String) -> Error {
    Error::Unsupported { field, value, rule }
}

/// What a modifier must carry for `elem_size_bytes`-byte colour elements on `gpu`.
fn expected_for_size(gpu: Gpu, elem_size_bytes: u32) -> Result<Expected> {
    let pte = crate::storage::colour_kind_1x(gpu, elem_size_bytes).ok_or_else(|| {
        refuse(
            "gpu",
            gpu.name().into(),
            "NVK (Mesa's nil) lays out images, and chooses modifiers, for Fermi (GF100) and later".into(),
        )
    })?;
    let pte_kind = u8::try_from(pte).map_err(|_| refuse("pte kind", format!("{pte:#x}"), "above 0xff".into()))?;
    let (gob_kind_generation, sector_layout) = if crate::storage::is_blackwell_or_later(gpu) {
        let s = match elem_size_bytes {
            1 => SectorLayout::Blackwell8Bpp,
            2 => SectorLayout::Blackwell16Bpp,
            _ => SectorLayout::Desktop,
        };
        (GobKindGeneration::Turing, s)
    } else if gpu.family() >= Family::Turing {
        (GobKindGeneration::Turing, SectorLayout::Desktop)
    } else if gpu.is_tegra() {
        (GobKindGeneration::Fermi, SectorLayout::TegraK1)
    } else {
        (GobKindGeneration::Fermi, SectorLayout::Desktop)
    };
    Ok(Expected { gob_kind_generation, sector_layout, pte_kind })
}

/// Refuses the formats nil offers no modifier for: depth/stencil, no colour target,
/// R11G11B10_FLOAT and E5B9G9R9.
fn check_format(format: &Format) -> Result<()> {
    let why = if format.is_zeta() {
        Some("depth and stencil formats have no DRM format modifiers in NVK")
    } else if format.is_compressed() || !color_formats().iter().any(|c| c.texture_id == format.texture().id) {
        Some("NVK offers modifiers only for formats that can be colour targets")
    } else if matches!(format.texture().id, TEX_R11G11B10F | TEX_E5B9G9R9) {
        Some("R11G11B10_FLOAT and R9G9B9E5 have no DRM fourcc, so NVK offers no modifier")
    } else {
        None
    };
    match why {
        Some(rule) => Err(refuse("format", format.name().into(), rule.into())),
        None => Ok(()),
    }
}

/// What a modifier must carry for `format` (or, with `None`, colour elements of
/// `elem_size_bytes` bytes) on `gpu`; refuses what nil offers no modifier for.
pub fn expected(gpu: Gpu, format: Option<&Format>, elem_size_bytes: u32) -> Result<Expected> {
    if let Some(f) = format {
        check_format(f)?;
    }
    expected_for_size(gpu, elem_size_bytes)
}

/// The modifiers NVK offers for `format` on `gpu`, best first: block heights 32 to 1 gobs,
/// uncompressed, then linear (nil's `drm_format_mods_for_format`).
pub fn modifiers_for(gpu: Gpu, format: &Format) -> Result<Vec<u64>> {
    let e = expected(gpu, Some(format), format.elem_size_bytes())?;
    let mut out = Vec::with_capacity(7);
    for h in (0..=MAX_BLOCK_HEIGHT_LOG2).rev() {
        let b = BlockLinear {
            block_height_log2: h,
            pte_kind: e.pte_kind,
            gob_kind_generation: e.gob_kind_generation,
            sector_layout: e.sector_layout,
            compression: Compression::None,
        };
        out.push(b.encode().map_err(Error::from)?);
    }
    out.push(DRM_FORMAT_MOD_LINEAR);
    Ok(out)
}

/// Decodes `modifier` and checks that NVK would accept it for `format` (or colour elements of
/// `elem_size_bytes` bytes) on `gpu` (nil's `drm_format_mod_is_supported`); a refusal says
/// which field differs and what nil expects.
pub fn fit(gpu: Gpu, format: Option<&Format>, elem_size_bytes: u32, modifier: u64) -> Result<Modifier> {
    let m = Modifier::decode(modifier)?;
    let Modifier::BlockLinear(b) = m else { return Ok(m) };
    let e = expected(gpu, format, elem_size_bytes)?;
    let what = match format {
        Some(f) => format!("{} on {}", f.name(), gpu.name()),
        None => format!("{elem_size_bytes}-byte elements on {}", gpu.name()),
    };
    let value = format!("{modifier:#x}");
    if b.gob_kind_generation != e.gob_kind_generation {
        return Err(refuse(
            "modifier",
            value,
            format!(
                "gob kind generation {} ({}) does not fit {what}: NVK uses {} ({})",
                b.gob_kind_generation.value(),
                b.gob_kind_generation.name(),
                e.gob_kind_generation.value(),
                e.gob_kind_generation.name()
            ),
        ));
    }
    if b.sector_layout != e.sector_layout {
        return Err(refuse(
            "modifier",
            value,
            format!(
                "sector layout {} ({}) does not fit {what}: NVK uses {} ({})",
                b.sector_layout.value(),
                b.sector_layout.name(),
                e.sector_layout.value(),
                e.sector_layout.name()
            ),
        ));
    }
    if b.compression != Compression::None {
        return Err(refuse(
            "modifier",
            value,
            format!(
                "compression {} ({}) is not supported: NVK accepts uncompressed modifiers only",
                b.compression.value(),
                b.compression.name()
            ),
        ));
    }
    if b.pte_kind != e.pte_kind {
        return Err(refuse(
            "modifier",
            value,
            format!("PTE kind {:#x} does not fit {what}: NVK chooses kind {:#x}", b.pte_kind, e.pte_kind),
        ));
    }
    Ok(m)
}
