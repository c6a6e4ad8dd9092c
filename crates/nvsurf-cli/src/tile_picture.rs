//! Pictures on the linear side of `nvsurf untile` and `nvsurf tile` (issue 5, item 5): with
//! `--format F`, an output (untile) or input (tile) named `.png`, `.exr` or `.dds` is a picture
//! instead of raw linear elements; the picture types that are not supported (`.jpg`, `.jpeg`,
//! `.bmp`, `.gif`, `.tga`, `.tif`, `.tiff`, `.webp`) are an error; any other extension keeps the
//! raw bytes.
//!
//! - A surface: the picture covers the whole surface (`--size` pixels) or the `--box` (its
//!   elements times the format's pixels per element, clipped to the surface's pixels); slices of
//!   a 3D surface or box are stacked top to bottom in PNG/EXR. The conversion rules are
//!   [`crate::picture`]'s (PNG 8/16 bits, depth as 16-bit grey plus `<name>.stencil.png`, EXR as
//!   RGBA f32, DDS with the DXGI twin or RGBA32F).
//! - A whole texture (`--texture`) goes to or comes from one DDS file with its mips, layers and
//!   cube faces (`--size` is level 0 in texels); PNG/EXR hold one surface and are refused there.
//!   With `--subresource LEVEL,LAYER` the picture is that one level of that layer (its size in
//!   pixels is the level's), as for a surface.
//!
//! The picture side is always packed rows, so `--linear-pitch` applies to raw files only.

use crate::picture::{read_dds, read_surface, write_dds, write_surface, DdsTexture, Extent, PicKind};
use crate::tiling::{write_atomic, TilingArgs};
use crate::CmdResult;
use nvsurf::format::Format;
use nvsurf::texture::Texture;
use nvsurf::tile::Region;
use nvsurf::Error;
use std::path::Path;
use std::process::ExitCode;

type Res<T> = Result<T, Box<dyn std::error::Error>>;

fn unsupported(field: &'static str, value: impl Into<String>, rule: impl Into<String>) -> Error {
    Error::Unsupported { field, value: value.into(), rule: rule.into() }
}

/// The format that decodes the picture's elements, and the packed-rows check.
fn picture_format(a: &TilingArgs, path: &Path) -> Res<Format> {
    if a.linear_pitch.is_some() {
        return Err(
            unsupported("linear-pitch", "with a picture", "pictures hold packed rows; drop --linear-pitch").into()
        );
    }
    a.surface.format()?.ok_or_else(|| {
        unsupported(
            "format",
            "(none)",
            format!(
                "'{}' is a picture: give --format F (instead of --elem-size) to convert its pixels",
                path.display()
            ),
        )
        .into()
    })
}

/// The picture's extent in pixels for `region` (in elements) of a surface of `surface_px`
/// pixels (`--size`, or the level's with `--subresource`).
fn region_extent(f: &Format, surface_px: [u32; 3], region: &Region) -> Extent {
    let [pw, ph, _] = surface_px;
    let (bw, bh) = f.block_dims();
    let clip = |start: u32, n: u32, b: u32, total: u32| {
        u64::from(n).saturating_mul(u64::from(b)).min(u64::from(total).saturating_sub(u64::from(start) * u64::from(b)))
            as u32
    };
    Extent { width_px: clip(region.x, region.w, bw, pw), height_px: clip(region.y, region.h, bh, ph), depth: region.d }
}

fn report(files: &[std::path::PathBuf], e: Extent, f: &Format) {
    for p in files {
        println!("wrote {} ({}x{}x{} px, {} {})", p.display(), e.width_px, e.height_px, e.depth, f.name(), f.id_name());
    }
}

/// `untile`: writes the untiled `linear` elements of `region` (of a surface of `surface_px`
/// pixels) as the picture `out` when its extension names one. Returns false (nothing written)
/// for a raw output.
pub fn write_untiled(a: &TilingArgs, surface_px: [u32; 3], region: &Region, out: &Path, linear: &[u8]) -> Res<bool> {
    if PicKind::of_linear_side(out)?.is_none() {
        return Ok(false);
    }
    let f = picture_format(a, out)?;
    let e = region_extent(&f, surface_px, region);
    let files = write_surface(out, &f, e, linear)?;
    report(&files, e, &f);
    Ok(true)
}

/// `tile`: the linear elements of `region` from `input`: the first `span` raw bytes (fewer if
/// the file is shorter), or the picture's pixels encoded to `--format` (its size must be the
/// region's, of a surface of `surface_px` pixels). Also the length of the input, as far as it
/// was read (the file's length when it is shorter than `span`).
pub fn read_linear(
    a: &TilingArgs,
    surface_px: [u32; 3],
    region: &Region,
    input: &Path,
    span: usize,
) -> Res<(crate::tiling::LineAligned, u64)> {
    if PicKind::of_linear_side(input)?.is_none() {
        return crate::tiling::LineAligned::read_range(input, 0, span as u64);
    }
    let f = picture_format(a, input)?;
    let want = region_extent(&f, surface_px, region);
    let what = if a.region.is_some() { "box" } else { "surface" };
    let (_, data) = read_surface(input, &f, want.depth, Some((want, what)))?;
    let mut out = crate::tiling::LineAligned::zeroed("picture elements", data.len())?;
    out.copy_from_slice(&data);
    let n = out.len() as u64;
    Ok((out, n))
}

/// The DDS path of a `--texture` command, if its linear side is a picture (`None`: raw).
fn texture_picture(a: &TilingArgs, side: Option<&Path>) -> Res<Option<(Format, Texture)>> {
    let Some(p) = side.filter(|_| a.split.is_none()) else {
        return Ok(None);
    };
    let Some(kind) = PicKind::of_linear_side(p)? else {
        return Ok(None);
    };
    if kind != PicKind::Dds {
        return Err(unsupported("texture", p.display().to_string(), "a whole texture goes to or from .dds").into());
    }
    let f = picture_format(a, p)?;
    Ok(Some((f, crate::texture::build_texture(&a.surface, &a.tex)?)))
}

fn dds_shape(t: &Texture, linear: Vec<u8>) -> DdsTexture {
    let [w, h, d] = t.levels()[0].texels.to_array();
    DdsTexture {
        extent: Extent { width_px: w, height_px: h, depth: d },
        levels: t.level_count(),
        layers: t.layer_count(),
        cube: t.ty().is_cube(),
        data: linear,
    }
}

fn dump_offset(a: &TilingArgs) -> Res<usize> {
    Ok(usize::try_from(crate::surface_args::parse_offset("offset", &a.offset)?)?)
}

/// `untile --texture --output x.dds`: the whole texture as one DDS. `None` when the output is
/// not a picture (the raw path handles it). Runs over `pool` when there is one (`--threads`).
pub fn untile_texture_dds(a: &TilingArgs, pool: Option<&rayon::ThreadPool>) -> Option<CmdResult> {
    match texture_picture(a, a.output.as_deref()) {
        Ok(None) => None,
        Ok(Some((f, t))) => Some(untile_dds(a, &f, &t, pool)),
        Err(e) => Some(Err(e)),
    }
}

fn untile_dds(a: &TilingArgs, f: &Format, t: &Texture, pool: Option<&rayon::ThreadPool>) -> CmdResult {
    let input = a.input.as_deref().ok_or_else(|| unsupported("input", "(none)", "give --input DUMP"))?;
    let out = a.output.as_deref().ok_or_else(|| unsupported("output", "(none)", "give --output FILE.dds"))?;
    let off = dump_offset(a)?;
    let dump = crate::tiling::read_part(input, off as u64, t.size_bytes(), "texture")?;
    let tex = dds_shape(t, crate::texture::untile_whole(t, &dump, pool)?);
    write_dds(out, f, &tex)?;
    report(&[out.to_path_buf()], tex.extent, f);
    Ok(ExitCode::SUCCESS)
}

/// `tile --texture --input x.dds`: a DDS with the texture's shape into the dump. `None` when the
/// input is not a picture.
pub fn tile_texture_dds(a: &TilingArgs, pool: Option<&rayon::ThreadPool>) -> Option<CmdResult> {
    match texture_picture(a, a.input.as_deref()) {
        Ok(None) => None,
        Ok(Some((f, t))) => Some(tile_dds(a, &f, &t, pool)),
        Err(e) => Some(Err(e)),
    }
}

fn describe(t: &DdsTexture) -> String {
    let e = t.extent;
    let cube = if t.cube { " (cube)" } else { "" };
    format!("{}x{}x{} px, {} levels, {} layers{cube}", e.width_px, e.height_px, e.depth, t.levels, t.layers)
}

fn tile_dds(a: &TilingArgs, f: &Format, t: &Texture, pool: Option<&rayon::ThreadPool>) -> CmdResult {
    let input = a.input.as_deref().ok_or_else(|| unsupported("input", "(none)", "give --input FILE.dds"))?;
    let output = a.output.as_deref().ok_or_else(|| unsupported("output", "(none)", "give --output DUMP"))?;
    let dds = read_dds(input, f)?;
    let want = dds_shape(t, Vec::new());
    if (dds.extent, dds.levels, dds.layers, dds.cube) != (want.extent, want.levels, want.layers, want.cube) {
        return Err(
            format!("'{}' holds {} but the texture is {}", input.display(), describe(&dds), describe(&want)).into()
        );
    }
    let off = dump_offset(a)?;
    nvsurf::error::check_span("offset + texture size", off as u64, t.size_bytes())?;
    let end = off.checked_add(usize::try_from(t.size_bytes())?).ok_or("offset + texture size overflows")?;
    let fill = |tiled: &mut [u8]| crate::texture::tile_whole(t, &dds.data, tiled, pool);
    match &a.onto {
        Some(base) => crate::tiling::patch_onto(base, output, off, end - off, fill)?,
        None => {
            let mut dump = crate::picture::try_filled("texture dump", end, 0u8)?;
            fill(&mut dump[off..end])?;
            write_atomic(output, &dump)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
