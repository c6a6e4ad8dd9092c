//! The storage type a driver would pick for a format and sample mode.
//!
//! Facts from Mesa's nouveau gallium driver (MIT):
//! - G80:GF100, `nv50/nv50_miptree.c`, `nv50_mt_choose_storage_type`: the memtype is
//!   `type | compression << 7` (libdrm/kernel ABI: bits 7-8 are the 2-bit compression mode),
//!   `ms` = log2(samples). Z16: 0x6c + ms; S8_Z24 layouts (PIPE S8_UINT_Z24_UNORM, X8Z24):
//!   0x18 + ms; Z24_S8 layouts (PIPE Z24_UNORM_S8_UINT, Z24X8): 0x128 + ms (type 0x28 + ms,
//!   DOUBLE); Z32 float: 0x40 + ms; Z32_S8_X24: 0x60 + ms. Color: 16 bytes 0x74; 8 bytes
//!   0xfc (MS4: 0x7c SINGLE) / 0xfd (MS8: 0x7d SINGLE) / else 0x70; 4 bytes 0xf8 (MS4: 0x78
//!   SINGLE) / 0xf9 (MS8) / 0x7a for scanout / else 0x70; 1 and 2 bytes 0x70. Compression is
//!   kept only for RGBA8/BGRA8/RGBX8/BGRX8 (+sRGB), RGB10A2/BGR10A2, RGBA16F/RGBX16F,
//!   R11G11B10F; other color formats get the uncompressed type.
//! - GF100:TU102, `nvc0/nvc0_miptree.c`, `nvc0_choose_tiled_storage_type`: Z16 0x02 + ms /
//!   0x01; S8_Z24 0x51 + ms / 0x46; Z24_S8 0x17 + ms / 0x11; Z32 0x86 + ms / 0x7b; Z32_S8_X24
//!   0xce + ms / 0xc3 (compressed / not). Color: 16 bytes 0xf4 + 2 ms / 0xfe; 8 bytes
//!   0xe6, 0xeb, 0xed, 0xf2 by ms / 0xfe; 4 bytes with ms > 0: 0xdd, 0xdf, 0xe4 / 0xfe;
//!   1 and 2 bytes 0xfe; other sizes 0 (pitch).
//! - 12-byte elements (32_32_32, GF100+ only): Mesa's switch on the block size has no 96-bit
//!   case, so single-sampled surfaces get kind 0 (pitch), which is what we suggest. Mesa creates
//!   no multisampled 12-byte surfaces and pitch cannot be multisampled, so with more than one
//!   sample we suggest 0xfe, the generic tiled kind that takes any element size (not a Mesa
//!   choice; a note says so). On G80 12-byte elements do not exist and suggest fails, as the
//!   `elem-size` rule of [`super::validate`] does.
//! - TU102+, `tu102_choose_tiled_storage_type` (NVIDIA `NV_MMU_PTE_KIND_*` names, MSB first):
//!   Z16 0x0b / 0x01; S8_UINT_Z24 (our S8_Z24) 0x0e / 0x05 Z24S8; Z24_S8 0x0c / 0x03 S8Z24;
//!   Z32_S8_X24 0x0d / 0x04; everything else 0x06 GENERIC_MEMORY.
//!
//! Mesa does not create CSAA surfaces; for the coverage zeta layouts the rnndb types are used
//! (G80: the `_LSR` Z24_C8 types like Mesa's Z24_S8 choice, GF100: the uncompressed kinds).

use super::lookup::lookup;
use super::request::FormatSpec;
use super::types::{Compression, Table, ZetaFamily};
use crate::error::{Error, Result};
use crate::gpu::Gpu;
use crate::msaa::MsMode;
use alloc::string::String;
use alloc::vec::Vec;

/// A suggested storage type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suggestion {
    /// Storage type (G80) or kind (GF100+) id.
    pub id: u32,
    /// Its name (rnndb, or NVIDIA's for TU102+ kinds).
    pub name: &'static str,
    /// The G80 compression mode picked (NONE on GF100+, where the kind decides).
    pub compression: Compression,
    /// The uncompressed alternative, when the pick is compressed.
    pub uncompressed: Option<(u32, &'static str)>,
    /// The driver code the choice follows.
    pub source: &'static str,
    /// Remarks (assumptions, rnndb-only choices).
    pub notes: Vec<String>,
}

const NV50: &str = "Mesa src/gallium/drivers/nouveau/nv50/nv50_miptree.c (nv50_mt_choose_storage_type)";
const NVC0: &str = "Mesa src/gallium/drivers/nouveau/nvc0/nvc0_miptree.c (nvc0_choose_tiled_storage_type)";
const TU102: &str = "Mesa src/gallium/drivers/nouveau/nvc0/nvc0_miptree.c (tu102_choose_tiled_storage_type)";

fn csaa_index_g80(m: MsMode) -> u32 {
    // rnndb g80_vm.xml order: MS4_CS4, MS4_CS12, MS8_CS8.
    match m {
        MsMode::MS4_CS4 => 0,
        MsMode::MS4_CS12 => 1,
        _ => 2,
    }
}

fn csaa_index_gf100(m: MsMode) -> u32 {
    // rnndb gf100_vm.xml order: MS4_CS12, MS4_CS4, MS8_CS8, MS8_CS24.
    match m {
        MsMode::MS4_CS12 => 0,
        MsMode::MS4_CS4 => 1,
        MsMode::MS8_CS8 => 2,
        _ => 3,
    }
}

/// The storage type a driver would pick for `format` with `ms_mode` on `gpu`, compression
/// allowed when `compressed` (Mesa compresses when the kernel supports it). `scanout` selects
/// the G80 scanout choice for 4-byte color (0x7a).
pub fn suggest(gpu: Gpu, format: &FormatSpec, ms_mode: MsMode, compressed: bool, scanout: bool) -> Result<Suggestion> {
    // Checked first: before G80 there is no storage type to pick, whatever the sample mode.
    if !gpu.is_g80_or_later() {
        return Err(Error::Unsupported {
            field: "gpu",
            value: gpu.name().into(),
            rule: "storage types exist on G80 and later".into(),
        });
    }
    if !ms_mode.available_on(gpu) {
        return Err(Error::Unsupported {
            field: "multisample mode",
            value: ms_mode.name().into(),
            rule: alloc::format!("{ms_mode} exists on {}+ only", ms_mode.info().min_gpu),
        });
    }
    // The element size exists on this GPU (12 bytes on GF100+) and fits the mode (no 16 bytes
    // with MS8 modes); the error names the rule that fails.
    ms_mode.check_elem_size(gpu, format.elem_size_bytes)?;
    let ms = ms_mode.full_samples().trailing_zeros();
    let mut notes = Vec::new();
    if format.is_zeta.is_none() {
        notes.push("format class unknown: treated as a color (non-zeta) format".into());
    }
    let zeta = if format.is_zeta == Some(true) {
        Some(format.zeta.ok_or_else(|| Error::Unsupported {
            field: "format",
            value: format.describe(),
            rule: "the zeta layout of this format is unknown; give a zeta format name".into(),
        })?)
    } else {
        None
    };
    match Table::for_gpu(gpu) {
        None => Ok(suggest_tu102(zeta, compressed, notes)),
        Some(Table::G80) => suggest_g80(gpu, format, zeta, ms_mode, ms, compressed, scanout, notes),
        Some(Table::Gf100) => suggest_gf100(gpu, format, zeta, ms_mode, ms, compressed, notes),
    }
}

fn named(gpu: Gpu, id: u32) -> Result<&'static str> {
    lookup(gpu, id).map(|s| s.name).ok_or_else(|| Error::Unsupported {
        field: "storage type",
        value: alloc::format!("{id:#x}"),
        rule: alloc::format!("no such type on {gpu}"),
    })
}

#[allow(clippy::too_many_arguments)]
fn suggest_g80(
    gpu: Gpu,
    format: &FormatSpec,
    zeta: Option<ZetaFamily>,
    m: MsMode,
    ms: u32,
    compressed: bool,
    scanout: bool,
    mut notes: Vec<String>,
) -> Result<Suggestion> {
    let mut source = NV50;
    // memtype as Mesa builds it: type | compression << 7.
    let memtype: u32 = match zeta {
        Some(z) if z.has_coverage() => {
            source = "rnndb memory/g80_vm.xml (Mesa creates no CSAA surfaces)";
            if !m.is_csaa() {
                return Err(coverage_mismatch(format, m));
            }
            let i = csaa_index_g80(m);
            match z {
                ZetaFamily::Z24C8 => 0x2c + i,
                ZetaFamily::Z24X8S8C8X16 => 0x54 + i,
                _ => 0x64 + i,
            }
        }
        _ if m.is_csaa() && zeta.is_some() => return Err(coverage_mismatch(format, m)),
        Some(ZetaFamily::Z16) => 0x6c + ms,
        Some(ZetaFamily::S8Z24) => 0x18 + ms,
        Some(ZetaFamily::Z24S8) => 0x128 + ms,
        Some(ZetaFamily::Z32) => 0x40 + ms,
        Some(_) => 0x60 + ms,
        None => {
            let comp_ok = format.mesa_nv50_compressible.unwrap_or(false);
            if format.mesa_nv50_compressible.is_none() {
                notes.push(
                    "Mesa compresses only RGBA8/BGRA8/RGBX8/BGRX8, RGB10A2/BGR10A2, RGBA16F/RGBX16F and \
                     R11G11B10F color formats; without a format name no compression is assumed"
                        .into(),
                );
            }
            let t = match (format.elem_size_bytes, ms) {
                (16, _) => 0x74,
                (8, 2) => 0xfc,
                (8, 3) => 0xfd,
                (4, _) if scanout => 0x7a,
                (4, 2) => 0xf8,
                (4, 3) => 0xf9,
                (1 | 2 | 4 | 8, _) => 0x70,
                (e, _) => {
                    return Err(Error::ElemSize { value: u64::from(e), rule: "Mesa nv50 has no tiled type for it" })
                }
            };
            if comp_ok {
                t
            } else {
                t & !0x180
            }
        }
    };
    let memtype = if compressed { memtype } else { memtype & !0x180 };
    let id = memtype & 0x7f;
    let compression = match (memtype >> 7) & 3 {
        1 => Compression::Single,
        2 => Compression::Double,
        _ => Compression::None,
    };
    let name = named(gpu, id)?;
    if gpu < Gpu::G200 && zeta == Some(ZetaFamily::Z16) {
        notes.push("Z16 exists on G200+ only".into());
    }
    Ok(Suggestion {
        id,
        name,
        compression,
        uncompressed: (compression != Compression::None).then_some((id, name)),
        source,
        notes,
    })
}

fn coverage_mismatch(format: &FormatSpec, m: MsMode) -> Error {
    Error::Unsupported {
        field: "format",
        value: format.describe(),
        rule: alloc::format!(
            "a coverage mode needs a zeta format with C and a C format needs a coverage mode (mode {m})"
        ),
    }
}

fn suggest_gf100(
    gpu: Gpu,
    format: &FormatSpec,
    zeta: Option<ZetaFamily>,
    m: MsMode,
    ms: u32,
    compressed: bool,
    mut notes: Vec<String>,
) -> Result<Suggestion> {
    let mut source = NVC0;
    if ms > 3 {
        notes.push(alloc::format!("Mesa has no {m} surfaces; the uncompressed kind is given"));
    }
    let comp = compressed && ms <= 3;
    // (compressed pick, uncompressed pick)
    let (c_id, u_id): (Option<u32>, u32) = match zeta {
        Some(z) if z.has_coverage() => {
            if !m.is_csaa() {
                return Err(coverage_mismatch(format, m));
            }
            source = "rnndb memory/gf100_vm.xml (Mesa creates no CSAA surfaces)";
            let i = csaa_index_gf100(m);
            let base = match z {
                ZetaFamily::Z24C8 => 0x26,
                ZetaFamily::Z24X8S8C8X16 => 0x8b,
                _ => 0xa7,
            };
            (None, base + i)
        }
        _ if m.is_csaa() && zeta.is_some() => return Err(coverage_mismatch(format, m)),
        Some(ZetaFamily::Z16) => (Some(0x02 + ms), 0x01),
        Some(ZetaFamily::S8Z24) => (Some(0x51 + ms), 0x46),
        Some(ZetaFamily::Z24S8) => (Some(0x17 + ms), 0x11),
        Some(ZetaFamily::Z32) => (Some(0x86 + ms), 0x7b),
        Some(_) => (Some(0xce + ms), 0xc3),
        None => match (format.elem_size_bytes, ms) {
            (16, _) => (Some(0xf4 + ms * 2), 0xfe),
            (8, _) => (Some([0xe6, 0xeb, 0xed, 0xf2][ms.min(3) as usize]), 0xfe),
            (4, 1..=3) => (Some([0xdd, 0xdf, 0xe4][(ms - 1) as usize]), 0xfe),
            (1 | 2 | 4, _) => (None, 0xfe),
            (12, 1..) => {
                notes.push(
                    "Mesa creates no multisampled 12-byte surfaces and pitch surfaces cannot be \
                     multisampled: the generic tiled kind 0xfe is given"
                        .into(),
                );
                (None, 0xfe)
            }
            (e, _) => {
                notes.push(alloc::format!("Mesa uses pitch (kind 0) for {e}-byte elements"));
                (None, 0x00)
            }
        },
    };
    let id = match c_id {
        Some(c) if comp => c,
        _ => u_id,
    };
    let name = named(gpu, id)?;
    let uncompressed = (id != u_id).then(|| (u_id, named(gpu, u_id).unwrap_or("?")));
    Ok(Suggestion { id, name, compression: Compression::None, uncompressed, source, notes })
}

fn suggest_tu102(zeta: Option<ZetaFamily>, compressed: bool, mut notes: Vec<String>) -> Suggestion {
    let (c, u): ((u32, &'static str), (u32, &'static str)) = match zeta {
        Some(ZetaFamily::Z16) => ((0x0b, "Z16_COMPRESSIBLE_DISABLE_PLC"), (0x01, "Z16")),
        Some(ZetaFamily::S8Z24) => ((0x0e, "Z24S8_COMPRESSIBLE_DISABLE_PLC"), (0x05, "Z24S8")),
        Some(ZetaFamily::Z24S8) => ((0x0c, "S8Z24_COMPRESSIBLE_DISABLE_PLC"), (0x03, "S8Z24")),
        Some(ZetaFamily::Z32S8X24) => ((0x0d, "ZF32_X24S8_COMPRESSIBLE_DISABLE_PLC"), (0x04, "ZF32_X24S8")),
        _ => ((0x06, "GENERIC_MEMORY"), (0x06, "GENERIC_MEMORY")),
    };
    if zeta.is_some_and(|z| z.has_coverage()) {
        notes.push("TU102+ has no CSAA zeta kinds in Mesa; generic memory is given".into());
    }
    let pick = if compressed { c } else { u };
    Suggestion {
        id: pick.0,
        name: pick.1,
        compression: Compression::None,
        uncompressed: (pick != u).then_some(u),
        source: TU102,
        notes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pre_g80_gpus_have_no_storage_types_whatever_the_sample_mode() {
        for gpu in [Gpu::Nv04, Gpu::Nv20, Gpu::Nv40] {
            for (f, m) in [
                (FormatSpec::color(4), MsMode::MS1),
                (FormatSpec::zeta(ZetaFamily::Z24S8), MsMode::MS4),
                (FormatSpec::color(8), MsMode::MS8),
            ] {
                let e = suggest(gpu, &f, m, true, false).unwrap_err();
                assert!(matches!(e, Error::Unsupported { field: "gpu", .. }), "{gpu} {m}: {e}");
                assert!(e.to_string().contains("storage types exist on G80 and later"), "{e}");
            }
        }
        // G80 itself is fine.
        assert!(suggest(Gpu::G80, &FormatSpec::color(4), MsMode::MS1, true, false).is_ok());
    }
}
