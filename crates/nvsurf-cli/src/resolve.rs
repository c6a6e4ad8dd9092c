//! `nvsurf resolve`: a tiled multisampled dump to one color per pixel.
//!
//! The color surface holds `(width x grid width) x (height x grid height)` elements, one per full
//! sample, each pixel a grid-sized block of them (envytools `docs/hw/memory/g80-surface.rst`,
//! "Multisampled surfaces"; [`MsMode::sample_element_xy`]). It is untiled with the surface flags,
//! decoded with `--format` and averaged per pixel: weighted by coverage (CSAA) when a zeta surface
//! holding C is given with `--zeta` and a CSAA mode, else the box average ([`resolve_image`]). The
//! zeta surface has the same size and block flags; each sample's 8-bit C field is read raw and the
//! pixel's C value assembled by the document's chunk rule ([`assemble_c`]).
//!
//! The resolved pixels are encoded back to `--format` (rounding to nearest, sRGB formats averaged
//! in linear light) and written as a picture chosen by the extension (.png, .exr, .dds; see
//! [`crate::picture`]) or, for any other extension, as raw linear elements.

use crate::picture::{write_surface, PicKind};
use crate::surface_args::{parse_size, SurfaceArgs};
use crate::CmdResult;
use nvsurf::extent::{Extent, Texels};
use nvsurf::format::{Format, Layout};
use nvsurf::layout::{LayoutKind, Surface, SurfaceDesc};
use nvsurf::msaa::{assemble_c, resolve_image, ChunkRule, MsMode, Rgba};
use nvsurf::tile::{AlignedBuf, CopyOptions};
use nvsurf::{tile, Error};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `nvsurf resolve`.
#[derive(clap::Args)]
pub struct ResolveArgs {
    /// The color surface: --format F (required) and --size in pixels; the surface holds
    /// (width x grid width) x (height x grid height) samples.
    #[command(flatten)]
    pub surface: SurfaceArgs,
    /// Multisample mode (ms4, ms8_cs8, 0xa, ...; see `nvsurf msaa`).
    #[arg(long = "ms-mode", value_name = "M")]
    pub ms_mode: String,
    /// The tiled color dump.
    #[arg(long)]
    pub input: PathBuf,
    /// Byte offset of the color surface in --input.
    #[arg(long, value_name = "BYTES", default_value = "0")]
    pub offset: String,
    /// The tiled zeta dump holding the coverage (C) of a CSAA mode (same size and block flags).
    #[arg(long, value_name = "FILE", requires = "zeta_format")]
    pub zeta: Option<PathBuf>,
    /// Format of --zeta: one with a C component (Z24_C8, Z24_X8_S8_C8_X16, Z32_X8_C8_X16, ...).
    #[arg(long = "zeta-format", value_name = "F", requires = "zeta")]
    pub zeta_format: Option<String>,
    /// Byte offset of the zeta surface in --zeta.
    #[arg(long = "zeta-offset", value_name = "BYTES", default_value = "0")]
    pub zeta_offset: String,
    /// Where the C value's bits are stored: document (8-bit chunks in the top-row samples, the
    /// default) or four-bits (ERRATA OPEN reading for CS4/CS8: 4 bits in every sample).
    #[arg(long = "coverage-layout", value_name = "document|four-bits", default_value = "document")]
    pub coverage_layout: String,
    /// The resolved picture (.png, .exr, .dds) or raw linear elements (any other extension except
    /// unsupported picture types such as .jpg, which are an error).
    #[arg(long)]
    pub output: PathBuf,
}

fn unsupported(field: &'static str, value: impl Into<String>, rule: impl Into<String>) -> Error {
    Error::Unsupported { field, value: value.into(), rule: rule.into() }
}

fn parse_rule(s: &str) -> Result<ChunkRule, Error> {
    match s.trim().to_ascii_lowercase().as_str() {
        "document" | "doc" => Ok(ChunkRule::Document),
        "four-bits" | "four_bits" | "nibbles" => Ok(ChunkRule::FourBitsPerSample),
        _ => Err(Error::UnknownName {
            kind: "coverage layout",
            name: s.into(),
            suggestions: nvsurf::error::closest(s, ["document", "four-bits"]),
        }),
    }
}

/// The sample surface of `desc` with `elem_size_bytes` bytes per element, checked against the mode.
fn sample_surface(desc: &SurfaceDesc, elem_size_bytes: u32, mode: MsMode) -> Result<Surface, Error> {
    let d = SurfaceDesc { elem_size_bytes, ..*desc };
    mode.check_surface(d.gpu, elem_size_bytes, d.layout == LayoutKind::BlockLinear)?;
    d.build()
}

/// Reads `path`, checks it holds the surface at `offset`, and untiles it to packed rows.
fn untile_dump(
    s: &Surface,
    path: &Path,
    offset: &str,
    field: &'static str,
) -> Result<Vec<u8>, Box<dyn std::error::Error>> {
    let offset = crate::surface_args::parse_offset(field, offset)?;
    // Only the surface's bytes are read.
    let dump = crate::io::read_part(path, offset, s.size_bytes(), "surface")?;
    Ok(tile::untile_to_buf(s, &dump, &CopyOptions::default()).map(AlignedBuf::into_vec)?)
}

/// The raw 8-bit C field of every element of a linear zeta image (`elem_size`-byte elements,
/// C at bit `c_lo` of the little-endian element).
fn c_fields(linear: &[u8], elem_size: usize, c_lo: u8) -> Vec<u8> {
    linear
        .chunks_exact(elem_size)
        .map(|e| {
            let mut b = [0u8; 16];
            b[..e.len()].copy_from_slice(e);
            (u128::from_le_bytes(b) >> c_lo) as u8
        })
        .collect()
}

/// The zeta format of `--zeta-format` and the lowest bit of its C (coverage) field.
fn coverage_format(name: &str) -> Result<(Format, u8), Error> {
    let zf = Format::parse(name)?;
    let c_lo = match zf.layout() {
        Layout::Zeta(z) => z.c_lo,
        _ => None,
    }
    .ok_or_else(|| unsupported("zeta-format", zf.name(), "has no C (coverage) component"))?;
    Ok((zf, c_lo))
}

/// The resolved picture's size, `--size WxH` in pixels (each 1 or more).
fn picture_size(size: &str) -> Result<[u32; 2], Error> {
    let [w, h, d] = parse_size(size)?;
    if d != 1 || w == 0 || h == 0 {
        return Err(Error::Parse {
            field: "size",
            value: size.to_string(),
            rule: "expected WxH pixels, each 1 or more",
        });
    }
    Ok([w, h])
}

/// Runs `nvsurf resolve`.
pub fn run(a: ResolveArgs) -> CmdResult {
    let f = a.surface.format()?.ok_or_else(|| {
        unsupported("format", "(none)", "resolve needs --format F (the color format); --size is in pixels")
    })?;
    if f.block_dims() != (1, 1) {
        return Err(unsupported(
            "format",
            f.name(),
            "multisampled surfaces hold one pixel per element (no compressed, YUV or bitmap formats)",
        )
        .into());
    }
    let mode = MsMode::parse(&a.ms_mode)?;
    let rule = parse_rule(&a.coverage_layout)?;
    // A picture (.png, .exr, .dds), raw bytes (any other extension), or an error for picture
    // types that are not written (.jpg, ...), as `untile` and `convert` decide.
    let out_kind = PicKind::of_linear_side(&a.output)?;
    if a.zeta.is_some() && !mode.is_csaa() {
        return Err(unsupported(
            "ms-mode",
            mode.name(),
            "--zeta gives coverage weights, which only CSAA modes (MS4_CS4, MS4_CS12, MS8_CS8) use",
        )
        .into());
    }
    let zeta_format = a.zeta_format.as_deref().map(coverage_format).transpose()?;
    if let Some(n) = a.surface.samples {
        return Err(unsupported("samples", n.to_string(), "resolve takes the multisample mode: give --ms-mode").into());
    }
    let [w, h] = picture_size(&a.surface.size)?;
    let mut desc = a.surface.desc()?;
    let samples_grid = Extent::<Texels>::new_2d(w, h).to_samples(mode)?;
    desc.size = samples_grid.to_elements();
    let (sw, sh) = (samples_grid.width, samples_grid.height);

    // Color samples, decoded once.
    let cs = sample_surface(&desc, f.elem_size_bytes(), mode)?;
    let linear = untile_dump(&cs, &a.input, &a.offset, "offset")?;
    // 16 bytes per sample whatever the element size: allocated without aborting.
    let n_samples = (sw as usize).checked_mul(sh as usize).ok_or("sample count overflows")?;
    let mut samples = crate::picture::try_filled("decoded samples", n_samples, [0f32; 4])?;
    f.decode_rect_f32(&linear, sw as usize * f.elem_size_bytes() as usize, sw, sh, &mut samples)?;
    let at = |ex: u64, ey: u64| (ey * u64::from(sw) + ex) as usize;
    let sample_at = |ex: u64, ey: u64| -> Result<Rgba, Error> {
        samples.get(at(ex, ey)).copied().ok_or(Error::OutOfBounds { field: "sample y", value: ey, limit: sh.into() })
    };

    // Coverage: the C field of every sample of the zeta surface.
    let coverage = match (&a.zeta, zeta_format) {
        (Some(path), Some((zf, c_lo))) => {
            let zs = sample_surface(&desc, zf.elem_size_bytes(), mode)?;
            let zl = untile_dump(&zs, path, &a.zeta_offset, "zeta-offset")?;
            Some(c_fields(&zl, zf.elem_size_bytes() as usize, c_lo))
        }
        _ => None,
    };
    let n = mode.full_samples();
    let c_at = coverage.as_ref().map(|c| {
        move |x: u64, y: u64| -> Result<u32, Error> {
            let mut fields = [0u8; 16];
            for s in 0..n {
                let (ex, ey) = mode.sample_element_xy(x, y, s)?;
                fields[s as usize] = c[at(ex, ey)];
            }
            assemble_c(mode, rule, &fields[..n as usize])
        }
    });
    let resolved = resolve_image(mode, u64::from(w), u64::from(h), sample_at, c_at)?;

    // Back to the format's elements, then to the picture.
    let e = Extent::<Texels>::new_2d(w, h);
    let mut out = crate::picture::try_filled("resolved picture", e.checked_bytes(&f)?, 0u8)?;
    f.encode_rect_f32(&resolved, w, h, &mut out, e.row_bytes(&f))?;
    let files = if out_kind.is_some() {
        write_surface(&a.output, &f, e, &out)?
    } else {
        crate::io::write_atomic(&a.output, &out)?;
        vec![a.output.clone()]
    };
    let how = if coverage.is_some() { "coverage-weighted" } else { "box average" };
    for p in files {
        crate::outln!(
            "wrote {} ({w}x{h} px, {} {} resolve of {}, {})",
            p.display(),
            f.name(),
            mode.name(),
            how,
            f.id_name()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_fields_read_the_byte_at_c_lo() {
        // Z24_C8-like: C in bits 24-31 of a 4-byte element.
        assert_eq!(c_fields(&[1, 2, 3, 0xab, 4, 5, 6, 0xcd], 4, 24), [0xab, 0xcd]);
        // 8-byte element with C at bit 40.
        assert_eq!(c_fields(&[0, 0, 0, 0, 0, 0x5a, 0, 0], 8, 40), [0x5a]);
        assert_eq!(parse_rule("Four-Bits").unwrap(), ChunkRule::FourBitsPerSample);
        assert!(matches!(parse_rule("docs"), Err(Error::UnknownName { .. })));
    }
}
