//! The PTE kind NVK (Mesa's `nil`) picks for an image, compressed and uncompressed.
//!
//! Facts from Mesa `src/nouveau/nil/image.rs` (MIT), commit
//! `157fa86f6d5def2bec5c91f33be70c138250ab7f`, `Image::choose_pte_kind` and the three rules it
//! dispatches to by 3D class:
//! - Fermi to Volta (`nvc0_choose_pte_kind`, kinds of NVIDIA's `gp100` `dev_mmu.h`), with
//!   `ms` = log2(samples): Z16 `Z16_2C + ms` / `Z16`; the S8_Z24 layout (PIPE
//!   `S8_UINT_Z24_UNORM`, `X8Z24`) `Z24S8_2CZ + ms` / `Z24S8`; the Z24_S8 layout (PIPE
//!   `Z24_UNORM_S8_UINT`, `Z24X8`) `S8Z24_2CZ + ms` / `S8Z24`; Z32 float `ZF32_2CZ + ms` /
//!   `ZF32`; Z32_S8_X24 `ZF32_X24S8_2CSZV + ms` / `ZF32_X24S8`. Colour by element size: 16, 8
//!   and 4 bytes the `C128` / `C64` / `C32` `_2C` kind of the sample count (8 and 16 samples
//!   share `MS8_MS16`), uncompressed `GENERIC_16BX2`; 1 and 2 bytes `GENERIC_16BX2` either way;
//!   any other size (12 bytes) `PITCH`.
//! - Turing to Hopper (`tu102_choose_pte_kind`, `tu102` `dev_mmu.h`): the depth kinds
//!   `*_COMPRESSIBLE_DISABLE_PLC` / plain, Z32 float and every colour format
//!   `GENERIC_MEMORY_COMPRESSIBLE` / `GENERIC_MEMORY`; no sample count.
//! - Blackwell (`gb202_choose_pte_kind`, 3D class `BLACKWELL_A` and later): every format
//!   `GENERIC_MEMORY_COMPRESSIBLE` / `GENERIC_MEMORY`.
//!
//! The numbers are NVIDIA's: open-gpu-doc `manuals/volta/gv100/dev_mmu.ref.txt` (the
//! pre-Turing kind numbering Mesa's `gp100` header carries) and
//! `manuals/turing/tu104/dev_mmu.ref.txt` (commit `b7d1bd16fe62135ebaec306b39dfdbd9e5657827`).
//! nil also has a stencil-only rule (`S8_UINT`); nvsurf has no stencil-only format.

use super::request::FormatSpec;
use super::suggest::Suggestion;
use super::types::{Compression, ZetaFamily};
use crate::error::{Error, Result};
use crate::gpu::{Family, Gpu};
use crate::msaa::MsMode;
use alloc::string::String;
use alloc::vec::Vec;

/// Which driver's choice [`suggest_for`] follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Driver {
    /// Mesa's gallium driver (`nv50_miptree.c`, `nvc0_miptree.c`): [`super::suggest`].
    #[default]
    Gallium,
    /// NVK, through Mesa's `nil` (`image.rs`, `choose_pte_kind`).
    Nvk,
}

impl Driver {
    /// Parses `gallium` (alias `nouveau`) or `nvk` (alias `nil`).
    pub fn parse(text: &str) -> Result<Driver> {
        match text.trim().to_ascii_lowercase().as_str() {
            "gallium" | "nouveau" => Ok(Driver::Gallium),
            "nvk" | "nil" => Ok(Driver::Nvk),
            _ => Err(Error::UnknownName {
                kind: "driver",
                name: text.into(),
                suggestions: crate::error::closest(text, ["gallium", "nvk"]),
            }),
        }
    }

    /// `gallium` or `nvk`.
    pub const fn name(self) -> &'static str {
        match self {
            Driver::Gallium => "gallium",
            Driver::Nvk => "nvk",
        }
    }
}

const NIL: &str = "Mesa src/nouveau/nil/image.rs (choose_pte_kind), commit 157fa86f6d5def2bec5c91f33be70c138250ab7f";

/// A kind and its NVIDIA name.
type Kind = (u32, &'static str);

// NVIDIA's pre-Turing kinds (open-gpu-doc gv100 dev_mmu.ref.txt).
const GENERIC_16BX2: Kind = (0xfe, "GENERIC_16BX2");
const PITCH: Kind = (0x00, "PITCH");
const C32: [Kind; 4] = [(0xd8, "C32_2C"), (0xdd, "C32_MS2_2C"), (0xdf, "C32_MS4_2C"), (0xe4, "C32_MS8_MS16_2C")];
const C64: [Kind; 4] = [(0xe6, "C64_2C"), (0xeb, "C64_MS2_2C"), (0xed, "C64_MS4_2C"), (0xf2, "C64_MS8_MS16_2C")];
const C128: [Kind; 4] = [(0xf4, "C128_2C"), (0xf6, "C128_MS2_2C"), (0xf8, "C128_MS4_2C"), (0xfa, "C128_MS8_MS16_2C")];
const Z16_2C: [&str; 5] = ["Z16_2C", "Z16_MS2_2C", "Z16_MS4_2C", "Z16_MS8_2C", "Z16_MS16_2C"];
const Z24S8_2CZ: [&str; 5] = ["Z24S8_2CZ", "Z24S8_MS2_2CZ", "Z24S8_MS4_2CZ", "Z24S8_MS8_2CZ", "Z24S8_MS16_2CZ"];
const S8Z24_2CZ: [&str; 5] = ["S8Z24_2CZ", "S8Z24_MS2_2CZ", "S8Z24_MS4_2CZ", "S8Z24_MS8_2CZ", "S8Z24_MS16_2CZ"];
const ZF32_2CZ: [&str; 5] = ["ZF32_2CZ", "ZF32_MS2_2CZ", "ZF32_MS4_2CZ", "ZF32_MS8_2CZ", "ZF32_MS16_2CZ"];
const ZF32_X24S8_2CSZV: [&str; 5] = [
    "ZF32_X24S8_2CSZV",
    "ZF32_X24S8_MS2_2CSZV",
    "ZF32_X24S8_MS4_2CSZV",
    "ZF32_X24S8_MS8_2CSZV",
    "ZF32_X24S8_MS16_2CSZV",
];

// NVIDIA's Turing kinds (open-gpu-doc tu104 dev_mmu.ref.txt).
const GENERIC_MEMORY: Kind = (0x06, "GENERIC_MEMORY");
const GENERIC_MEMORY_COMPRESSIBLE: Kind = (0x08, "GENERIC_MEMORY_COMPRESSIBLE");

/// The storage type `driver` would pick: [`super::suggest`] for [`Driver::Gallium`] (`scanout` applies
/// there only), [`suggest_nvk`] for [`Driver::Nvk`].
pub fn suggest_for(
    driver: Driver,
    gpu: Gpu,
    format: &FormatSpec,
    ms_mode: MsMode,
    compressed: bool,
    scanout: bool,
) -> Result<Suggestion> {
    match driver {
        Driver::Gallium => super::suggest::suggest(gpu, format, ms_mode, compressed, scanout),
        Driver::Nvk => suggest_nvk(gpu, format, ms_mode, compressed),
    }
}

/// Whether `gpu` takes nil's Blackwell rule (3D class `BLACKWELL_A` and later: every family
/// after Hopper).
pub(crate) fn is_blackwell_or_later(gpu: Gpu) -> bool {
    gpu.family() > Family::Hopper
}

/// The uncompressed kind nil gives a single-sampled colour image of `elem_size_bytes`-byte
/// elements on `gpu` (what a DRM format modifier carries), or `None` before Fermi.
pub(crate) fn colour_kind_1x(gpu: Gpu, elem_size_bytes: u32) -> Option<u32> {
    if !gpu.is_gf100_or_later() {
        return None;
    }
    if gpu.family() >= Family::Turing {
        return Some(GENERIC_MEMORY.0);
    }
    Some(match elem_size_bytes {
        1 | 2 | 4 | 8 | 16 => GENERIC_16BX2.0,
        _ => PITCH.0,
    })
}

/// The kind NVK (nil) picks for `format` with `ms_mode` on `gpu`, compressed when
/// `compressed`; the uncompressed kind rides along when the pick is compressed. nil lays out
/// images for Fermi (GF100) and later, with 1, 2, 4, 8 or 16 samples and no coverage modes.
pub fn suggest_nvk(gpu: Gpu, format: &FormatSpec, ms_mode: MsMode, compressed: bool) -> Result<Suggestion> {
    if !gpu.is_gf100_or_later() {
        return Err(Error::Unsupported {
            field: "gpu",
            value: gpu.name().into(),
            rule: "NVK (Mesa's nil) chooses PTE kinds for Fermi (GF100) and later".into(),
        });
    }
    if ms_mode.is_csaa() {
        return Err(Error::Unsupported {
            field: "multisample mode",
            value: ms_mode.name().into(),
            rule: "NVK (Vulkan) has no coverage (CSAA) modes; give ms1, ms2, ms4, ms8 or ms16".into(),
        });
    }
    if !ms_mode.available_on(gpu) {
        return Err(Error::Unsupported {
            field: "multisample mode",
            value: ms_mode.name().into(),
            rule: alloc::format!("{ms_mode} exists on {}+ only", ms_mode.info().min_gpu),
        });
    }
    // Only the size's existence: nil has a kind for 16-byte elements with 8 or 16 samples
    // (`C128_MS8_MS16_2C`), so the document's MS8 rule is not applied here.
    crate::layout::checks::check_elem_size(gpu, format.elem_size_bytes)?;
    let mut notes: Vec<String> = Vec::new();
    if format.is_zeta.is_none() {
        notes.push("format class unknown: treated as a color (non-zeta) format".into());
    }
    let zeta = match format.is_zeta {
        Some(true) => Some(format.zeta.ok_or_else(|| Error::Unsupported {
            field: "format",
            value: format.describe(),
            rule: "the zeta layout of this format is unknown; give a zeta format name".into(),
        })?),
        _ => None,
    };
    if zeta.is_some_and(|z| z.has_coverage()) {
        return Err(Error::Unsupported {
            field: "format",
            value: format.describe(),
            rule: "NVK (Vulkan) has no coverage (CSAA) depth formats".into(),
        });
    }
    let (c, u) = if is_blackwell_or_later(gpu) {
        (GENERIC_MEMORY_COMPRESSIBLE, GENERIC_MEMORY)
    } else if gpu.family() >= Family::Turing {
        turing_kinds(zeta)
    } else {
        let ms = ms_mode.full_samples().trailing_zeros();
        fermi_kinds(zeta, format.elem_size_bytes, ms)
    };
    if !is_blackwell_or_later(gpu) && gpu.family() < Family::Turing && u == PITCH {
        notes.push(alloc::format!("nil uses pitch (kind 0) for {}-byte elements", format.elem_size_bytes));
    }
    let pick = if compressed { c } else { u };
    Ok(Suggestion {
        id: pick.0,
        name: pick.1,
        compression: Compression::None,
        uncompressed: (pick != u).then_some(u),
        source: NIL,
        notes,
    })
}

/// `nvc0_choose_pte_kind`: (compressed, uncompressed).
fn fermi_kinds(zeta: Option<ZetaFamily>, elem_size_bytes: u32, ms: u32) -> (Kind, Kind) {
    let i = ms.min(4) as usize;
    // 8 and 16 samples share the colour kinds' last entry.
    let ci = i.min(3);
    let z = |base: u32, names: [&'static str; 5], plain: Kind| ((base + i as u32, names[i]), plain);
    match zeta {
        Some(ZetaFamily::Z16) => z(0x02, Z16_2C, (0x01, "Z16")),
        Some(ZetaFamily::S8Z24) => z(0x51, Z24S8_2CZ, (0x46, "Z24S8")),
        Some(ZetaFamily::Z24S8) => z(0x17, S8Z24_2CZ, (0x11, "S8Z24")),
        Some(ZetaFamily::Z32) => z(0x86, ZF32_2CZ, (0x7b, "ZF32")),
        Some(_) => z(0xce, ZF32_X24S8_2CSZV, (0xc3, "ZF32_X24S8")),
        None => match elem_size_bytes {
            16 => (C128[ci], GENERIC_16BX2),
            8 => (C64[ci], GENERIC_16BX2),
            4 => (C32[ci], GENERIC_16BX2),
            1 | 2 => (GENERIC_16BX2, GENERIC_16BX2),
            _ => (PITCH, PITCH),
        },
    }
}

/// `tu102_choose_pte_kind`: (compressed, uncompressed).
fn turing_kinds(zeta: Option<ZetaFamily>) -> (Kind, Kind) {
    match zeta {
        Some(ZetaFamily::Z16) => ((0x0b, "Z16_COMPRESSIBLE_DISABLE_PLC"), (0x01, "Z16")),
        Some(ZetaFamily::S8Z24) => ((0x0e, "Z24S8_COMPRESSIBLE_DISABLE_PLC"), (0x05, "Z24S8")),
        Some(ZetaFamily::Z24S8) => ((0x0c, "S8Z24_COMPRESSIBLE_DISABLE_PLC"), (0x03, "S8Z24")),
        Some(ZetaFamily::Z32S8X24) => ((0x0d, "ZF32_X24S8_COMPRESSIBLE_DISABLE_PLC"), (0x04, "ZF32_X24S8")),
        _ => (GENERIC_MEMORY_COMPRESSIBLE, GENERIC_MEMORY),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_what_nil_never_sees() {
        let c4 = FormatSpec::color(4);
        let e = suggest_nvk(Gpu::G80, &c4, MsMode::MS1, true).unwrap_err();
        assert!(e.to_string().contains("Fermi (GF100) and later"), "{e}");
        let e = suggest_nvk(Gpu::Gf100, &FormatSpec::zeta(ZetaFamily::Z24C8), MsMode::MS4_CS4, true).unwrap_err();
        assert!(e.to_string().contains("coverage"), "{e}");
        assert_eq!(Driver::parse("NVK").unwrap(), Driver::Nvk);
        assert_eq!(Driver::parse("gallium").unwrap().name(), "gallium");
        assert!(Driver::parse("nvx").is_err());
    }

    #[test]
    fn colour_kind_of_a_modifier() {
        assert_eq!(colour_kind_1x(Gpu::Gm107, 4), Some(0xfe));
        assert_eq!(colour_kind_1x(Gpu::Gm107, 12), Some(0));
        assert_eq!(colour_kind_1x(Gpu::Tu102, 4), Some(0x06));
        assert_eq!(colour_kind_1x(Gpu::G84, 4), None);
    }
}
