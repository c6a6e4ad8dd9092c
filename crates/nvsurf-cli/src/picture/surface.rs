//! One-call entry points for the commands: write one surface (a linear element image) as the
//! picture its path names, or read a picture of any kind into a linear element image, with a
//! picture of the wrong size refused from its header before any pixel is decoded.

use super::dds::{read_dds_with, write_dds};
use super::encoding::Encoding;
use super::exr::{exr_size, read_exr, write_exr};
use super::kind::{PicKind, PicResult};
use super::ktx2_read::read_ktx2_with;
use super::ktx2_write::write_ktx2;
use super::png::{from_png, png_bytes, png_size, read_png, stencil_path, to_png, PngImage};
use super::png_stream::{band_elements, PngCompression, PngReader};
use super::size::is_regular;
use super::texels::{band_rows_px, decode_f32, encode_f32};
use super::texture::DdsTexture;
use nvsurf::extent::{Extent, Texels};
use nvsurf::format::Format;
use nvsurf::Error;
use std::path::{Path, PathBuf};

/// Writes one surface (a linear element image) as a picture chosen by the extension of
/// `path`. Returns the files written (the stencil picture too, for PNG of S formats: the pair
/// is replaced as a group, [`crate::io::Group`], so an error leaves both old files).
pub fn write_surface(path: &Path, f: &Format, e: Extent<Texels>, data: &[u8]) -> PicResult<Vec<PathBuf>> {
    write_surface_as(PicKind::of(path)?, path, f, e, data)
}

/// [`write_surface`] as a picture of `kind` whatever the path's extension (`-`: stdout).
/// Writes `data` (elements of `f`, `e` texels) as the PNG `path` at `compression` (several
/// files for a format that needs them), band by band (about 8 MiB of elements a band) where the
/// format streams, each band decoded on `pool`'s threads where there is one.
pub fn write_png_with(
    path: &Path,
    f: &Format,
    e: Extent<Texels>,
    data: &[u8],
    (compression, pool): (PngCompression, Option<&rayon::ThreadPool>),
) -> PicResult<Vec<PathBuf>> {
    let mut group = crate::io::Group::new();
    let rows = u32::try_from((8usize << 20) / e.row_bytes(f).max(1)).unwrap_or(u32::MAX).max(1);
    let files = stage_png(&mut group, path, f, e, data, (compression, rows, pool))?;
    group.commit()?;
    Ok(files)
}

/// Writes `data` as the picture kind `kind` (see [`write_surface`]).
pub fn write_surface_as(
    kind: PicKind,
    path: &Path,
    f: &Format,
    e: Extent<Texels>,
    data: &[u8],
) -> PicResult<Vec<PathBuf>> {
    match kind {
        PicKind::Png => write_png_with(path, f, e, data, (PngCompression::default(), None)),
        PicKind::Exr => {
            let px = decode_f32(f, e, data)?;
            write_exr(path, e.width, e.height * e.depth, &px)?;
            Ok(vec![path.to_path_buf()])
        }
        PicKind::Dds | PicKind::Ktx2(_) => {
            let tex = DdsTexture { extent: e, levels: 1, layers: 1, cube: false, data };
            super::decoded_warning::warn_if_decoded(kind, f);
            match kind {
                PicKind::Ktx2(opt) => write_ktx2(path, f, &tex, opt)?,
                _ => write_dds(path, f, &tex)?,
            }
            Ok(vec![path.to_path_buf()])
        }
    }
}

/// Stages one surface (a linear element image) as the PNG `path` in `group` (renamed over
/// `path` when the group commits): band by band, `band_rows` element rows at a time, through
/// the streaming writer; a depth/stencil format whole, with its `.stencil.png`. Returns the
/// files staged.
pub fn stage_png(
    group: &mut crate::io::Group,
    path: &Path,
    f: &Format,
    e: Extent<Texels>,
    data: &[u8],
    how: (PngCompression, u32, Option<&rayon::ThreadPool>),
) -> PicResult<Vec<PathBuf>> {
    if !super::png_stream::streams(f) {
        return stage_png_whole(group, path, f, e, data);
    }
    group.stage(path, |out| {
        super::png_stream::write_image(out, path, f, e, super::png_stream::ElementSource::Memory(data), how)
    })?;
    Ok(vec![path.to_path_buf()])
}

/// [`stage_png`] of the whole picture at once (and its stencil picture, if any).
fn stage_png_whole(
    group: &mut crate::io::Group,
    path: &Path,
    f: &Format,
    e: Extent<Texels>,
    data: &[u8],
) -> PicResult<Vec<PathBuf>> {
    let (img, stencil) = to_png(f, e, data)?;
    crate::io::stage_bytes(group, path, &png_bytes(&img)?)?;
    let mut files = vec![path.to_path_buf()];
    if let Some(s) = stencil {
        let sp = stencil_path(path);
        crate::io::stage_bytes(group, &sp, &png_bytes(&s)?)?;
        files.push(sp);
    }
    Ok(files)
}

/// The error for a picture of `got` pixels where the `what` ("surface", "box") is `want`.
fn size_mismatch(path: &Path, got: Extent<Texels>, want: Extent<Texels>, what: &str) -> Box<dyn std::error::Error> {
    format!(
        "picture '{}' is {}x{}x{} px but the {what} is {}x{}x{} px",
        path.display(),
        got.width,
        got.height,
        got.depth,
        want.width,
        want.height,
        want.depth
    )
    .into()
}

/// Reads a picture into a linear element image of `f` (`depth` slices stacked in PNG/EXR;
/// DDS and KTX2 carry their own). A PNG of an S format takes its stencil from `<name>.stencil.png`
/// when that file exists. With `want` (an extent and what it is, "surface" or "box"), a
/// picture of another size is an error, found from the PNG header before any pixel is
/// decoded (a crafted header cannot make the tool allocate for a size it will refuse).
pub fn read_surface(
    path: &Path,
    f: &Format,
    depth: u32,
    want: Option<(Extent<Texels>, &str)>,
) -> PicResult<(Extent<Texels>, Vec<u8>)> {
    read_surface_as(PicKind::of(path)?, path, f, depth, want)
}

/// [`read_surface`] with `enc`'s options for block-compressed formats; the PSNR of what was
/// encoded is closed as (`level`, `layer`) in `enc`.
pub fn read_surface_with(
    path: &Path,
    f: &Format,
    depth: u32,
    want: Option<(Extent<Texels>, &str)>,
    enc: &Encoding,
    at: (u32, u32),
) -> PicResult<(Extent<Texels>, Vec<u8>)> {
    read_surface_as_with(PicKind::of(path)?, path, f, depth, want, enc, at)
}

/// [`read_surface`] of a picture of `kind` whatever the path's extension (`-`: stdin).
pub fn read_surface_as(
    kind: PicKind,
    path: &Path,
    f: &Format,
    depth: u32,
    want: Option<(Extent<Texels>, &str)>,
) -> PicResult<(Extent<Texels>, Vec<u8>)> {
    read_surface_as_with(kind, path, f, depth, want, &Encoding::default(), (0, 0))
}

/// [`read_surface_as`] with `enc` (see [`read_surface_with`]).
pub fn read_surface_as_with(
    kind: PicKind,
    path: &Path,
    f: &Format,
    depth: u32,
    want: Option<(Extent<Texels>, &str)>,
    enc: &Encoding,
    (level, layer): (u32, u32),
) -> PicResult<(Extent<Texels>, Vec<u8>)> {
    let (e, data) = read_any_surface(kind, path, f, depth, want, enc)?;
    match want {
        Some((w, what)) if w != e => Err(size_mismatch(path, e, w, what)),
        _ => {
            if matches!(kind, PicKind::Dds | PicKind::Ktx2(_)) {
                // The DDS/KTX2 reader closed its own levels: its level 0 of layer 0 is this surface.
                if let Some(m) = enc.take(0, 0) {
                    enc.push(m, level, layer);
                }
            } else {
                enc.finish(level, layer);
            }
            Ok((e, data))
        }
    }
}

fn read_any_surface(
    kind: PicKind,
    path: &Path,
    f: &Format,
    depth: u32,
    want: Option<(Extent<Texels>, &str)>,
    enc: &Encoding,
) -> PicResult<(Extent<Texels>, Vec<u8>)> {
    match kind {
        PicKind::Png => {
            // The header is read on its own only from a regular file (a FIFO would lose those
            // bytes); the size is compared again after reading.
            if let (Some((w, what)), true) = (want, is_regular(path)) {
                let (pw, ph) = png_size(path)?;
                if depth == 0 || (pw, ph) != (w.width, w.height.saturating_mul(depth)) {
                    let got = Extent::<Texels>::new(pw, ph / depth.max(1), depth);
                    return Err(size_mismatch(path, got, w, what));
                }
            }
            if !f.is_zeta() && depth == 1 {
                if let Some(reader) = PngReader::open(path)? {
                    return png_bands(reader, path, f, enc);
                }
            }
            let img = read_png(path)?;
            let sp = stencil_path(path);
            let stencil = if f.is_zeta() && sp.exists() { Some(read_png(&sp)?) } else { None };
            // Depth pictures are grey: use one channel.
            let img = if f.is_zeta() {
                PngImage { channels: 1, samples: img.samples.iter().step_by(4).copied().collect(), ..img }
            } else {
                img
            };
            let stencil =
                stencil.map(|s| PngImage { channels: 1, samples: s.samples.iter().step_by(4).copied().collect(), ..s });
            from_png(f, &img, stencil.as_ref(), depth, enc)
        }
        PicKind::Exr => {
            // As for PNG: a picture of another size is refused from its header (a regular file
            // of one layer; others are compared after they are read).
            let claim = if is_regular(path) { Some(exr_size(path)?) } else { None };
            if let (Some((w, what)), Some(c)) = (want, claim.as_ref().filter(|c| c.layers == 1)) {
                let (pw, ph) = c.size;
                if depth == 0 || (pw, ph) != (w.width, w.height.saturating_mul(depth)) {
                    let got = Extent::<Texels>::new(pw, ph / depth.max(1), depth);
                    return Err(size_mismatch(path, got, w, what));
                }
            }
            let (w, h, px) = read_exr(path, claim.as_ref())?;
            if depth == 0 || h % depth != 0 {
                return Err(Error::NotMultiple {
                    field: "picture height",
                    value: u64::from(h),
                    multiple: u64::from(depth),
                }
                .into());
            }
            let e = Extent::<Texels>::new(w, h / depth, depth);
            Ok((e, encode_f32(f, e, &px, enc)?))
        }
        PicKind::Dds | PicKind::Ktx2(_) => {
            // Only layer 0, level 0 is kept: its PSNR alone is reported.
            let scratch = Encoding::new(enc.options.bc_quality);
            let tex = match kind {
                PicKind::Ktx2(_) => read_ktx2_with(path, f, &scratch)?,
                _ => read_dds_with(path, f, &scratch)?,
            };
            if let Some(m) = scratch.take(0, 0) {
                enc.push(m, 0, 0);
            }
            if tex.layers > 1 || tex.levels > 1 {
                eprintln!(
                    "note: '{}' holds {} layer(s) of {} level(s); only layer 0, level 0 is read (`tile --texture` reads them all)",
                    path.display(),
                    tex.layers,
                    tex.levels
                );
            }
            let (_, n) = tex.span(f, 0, 0);
            let mut data = tex.data;
            data.truncate(n);
            Ok((tex.extent, data))
        }
    }
}

/// A non-interlaced PNG of one slice to elements of `f`, band by band ([`PngReader`]): only the
/// elements and a band of samples and texels are held.
fn png_bands(mut reader: PngReader, path: &Path, f: &Format, enc: &Encoding) -> PicResult<(Extent<Texels>, Vec<u8>)> {
    reader.check_claim(path)?;
    let e = Extent::<Texels>::new(reader.width_px, reader.height_px, 1);
    crate::memory::check("picture elements", e.checked_bytes(f)? as u64)?;
    let (_, bh) = f.block_dims();
    let band = band_rows_px(e.width, e.height, bh * 16);
    let mut out = Vec::new();
    let mut y = 0;
    while y < e.height {
        let h = band.min(e.height - y);
        let img = reader.read_rows(path, h)?;
        let elems = band_elements(f, &img, enc)?;
        out.try_reserve(elems.len()).map_err(|_| Error::Overflow {
            what: "picture elements",
            detail: format!("{} bytes do not fit in memory", out.len() + elems.len()),
        })?;
        out.extend_from_slice(&elems);
        y += h;
    }
    Ok((e, out))
}
