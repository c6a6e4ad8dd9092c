//! One surface (or one subresource of a texture) between the tiled file and the linear side:
//! only the surface's bytes of the dump are read (with --box, only its window), the copy runs
//! band by band under a progress bar when one shows, and the linear side is raw bytes or a
//! picture of the job's format (its size is the surface's, or the box's, in pixels).

use super::job::{region_extent, Job, LinearSide, Shape, SurfaceJob};
use super::stream::TiledSource;
use crate::io::{inplace, patch_onto, patch_window_onto, progress_bar, write_atomic, write_sparse, LineAligned};
use crate::picture::png_stream::{self, PngReader, PngWriter};
use crate::picture::{read_surface_as_with, write_surface_as, PicKind};
use crate::CmdResult;
use nvsurf::extent::{Extent, Texels};
use nvsurf::format::Format;
use nvsurf::layout::Surface;
use nvsurf::tile::{self, LinearLayout, Region};
use nvsurf::tile::{CopyOptions, Threads};
use nvsurf::Error;
use std::process::ExitCode;

type Res<T> = Result<T, Box<dyn std::error::Error>>;

fn surface_of<'a>(job: &'a Job) -> Res<&'a SurfaceJob> {
    match &job.shape {
        Shape::Surface(s) => Ok(s),
        Shape::Texture(_) => Err("a whole texture is not one surface".into()),
    }
}

/// `nvsurf untile` of one surface.
pub fn untile(job: &Job) -> CmdResult {
    let sj = surface_of(job)?;
    let (s, region, lin) = (sj.surface, sj.region, sj.lin);
    let in_path = &job.tiled;
    if untile_streamed(job, sj, in_path)? {
        return Ok(ExitCode::SUCCESS);
    }
    // Only the surface's bytes are read; with --box, only the blocks (or row segments) that the
    // box touches: its window, a smaller surface of the same layout.
    let window = if sj.boxed { Some(tile::window(&s, region)?) } else { None };
    let (input, file_end) = match &window {
        Some(w) => LineAligned::read_pieces(in_path, sj.offset as u64, &w.pieces, s.size_bytes())?,
        None => LineAligned::read_range(in_path, sj.offset as u64, s.size_bytes())?,
    };
    // The surface and box the kernels see: the window's, or the whole surface's.
    let (ts, tregion) = match window {
        Some(w) => (w.surface, w.region),
        None => (s, region),
    };
    if file_end < sj.end as u64 || (input.len() as u64) < ts.size_bytes() {
        return Err(format!(
            "input '{}' holds {} bytes but {} bytes are expected (surface of {} bytes at offset {})",
            in_path.display(),
            file_end,
            sj.end,
            s.size_bytes(),
            sj.offset
        )
        .into());
    }
    let tiled = &input[..];
    if let LinearSide::Picture(path, kind) = &job.linear {
        let f = job.picture_format()?;
        if *kind == PicKind::Png && png_stream::streams(&f) && job.lin_is_packed(sj) && job.palette.is_none() {
            warn_if_lossy(&f);
            let e = region_extent(&f, sj.picture_px, &region);
            untile_to_png(job, &ts, tregion, &mut TiledSource::Memory(tiled), path, &f, e)?;
            report(std::slice::from_ref(path), e, &f);
            return Ok(ExitCode::SUCCESS);
        }
    }
    let mut out = LineAligned::zeroed("linear image", linear_bytes(&region, &lin)?)?;
    with_progress(&ts, tregion, lin, "untile", |band, off| match &job.pool {
        None => tile::untile_with(&ts, tiled, &mut out[off..], band, lin, &CopyOptions::default()),
        Some(p) => p.install(|| {
            tile::untile_with(
                &ts,
                tiled,
                &mut out[off..],
                band,
                lin,
                &CopyOptions::default().threads(Threads::CurrentPool),
            )
        }),
    })?;
    match &job.linear {
        LinearSide::Picture(path, kind) => {
            let f = job.picture_format()?;
            if *kind == PicKind::Png {
                warn_if_lossy(&f);
            }
            let e = region_extent(&f, sj.picture_px, &region);
            let files = match &job.palette {
                // INDEX8: the picture shows the palette entries.
                Some(p) => {
                    let (argb, px) = crate::palette::expand(&f, p, &out)?;
                    write_surface_as(*kind, path, &argb, e, &px)?
                }
                None => write_surface_as(*kind, path, &f, e, &out)?,
            };
            report(&files, e, &f);
        }
        LinearSide::Raw(path) => write_atomic(path, &out)?,
        LinearSide::Split(..) => return Err("--split needs a whole texture".into()),
    }
    Ok(ExitCode::SUCCESS)
}

/// `untile` of one surface band by band where it streams (`copy/stream.rs`): a raw output, a
/// PNG, or a DDS whose DXGI format stores the elements as they are. `Ok(false)` when it does
/// not stream (the caller reads the surface whole).
fn untile_streamed(job: &Job, sj: &SurfaceJob, in_path: &std::path::Path) -> Res<bool> {
    let (s, region) = (sj.surface, sj.region);
    if let LinearSide::Raw(out_path) = &job.linear {
        if super::stream::streams(job, sj, in_path) {
            super::stream::untile_raw(job, sj, in_path, out_path)?;
            return Ok(true);
        }
    }
    if let LinearSide::Picture(path, PicKind::Dds) = &job.linear {
        let f = job.picture_format()?;
        if crate::picture::dxgi_of(&f).is_some() && job.palette.is_none() && super::stream::streams(job, sj, in_path) {
            let e = region_extent(&f, sj.picture_px, &region);
            super::stream::untile_dds(job, sj, in_path, (path, &f, e))?;
            report(std::slice::from_ref(path), e, &f);
            return Ok(true);
        }
    }
    if let LinearSide::Picture(path, PicKind::Ktx2(opt)) = &job.linear {
        let f = job.picture_format()?;
        if crate::picture::vk_of(&f).is_some() && job.palette.is_none() && super::stream::streams(job, sj, in_path) {
            let e = region_extent(&f, sj.picture_px, &region);
            super::stream::untile_ktx2(job, sj, in_path, (path, &f, e, *opt))?;
            report(std::slice::from_ref(path), e, &f);
            return Ok(true);
        }
    }
    if let LinearSide::Picture(path, PicKind::Png) = &job.linear {
        let f = job.picture_format()?;
        if png_stream::streams(&f) && job.palette.is_none() && super::stream::streams(job, sj, in_path) {
            // The dump is read band by band too: a band of the picture and its window are held.
            let mut src = TiledSource::open(in_path, sj)?;
            warn_if_lossy(&f);
            let e = region_extent(&f, sj.picture_px, &region);
            untile_to_png(job, &s, region, &mut src, path, &f, e)?;
            report(std::slice::from_ref(path), e, &f);
            return Ok(true);
        }
    }
    Ok(false)
}

/// `tile` from a raw image, band by band: a raw file, or a DDS or a KTX2 file without
/// supercompression that stores the surface's elements as they are (its data is a raw image), into a new file or a copy
/// of `--onto` (not in place, not a texture's subresource). `Ok(false)`, with nothing done, for
/// any other input or output (the caller holds the surface).
fn tile_streamed_raw(job: &Job, sj: &SurfaceJob) -> Res<bool> {
    let (p, at) = match &job.linear {
        LinearSide::Raw(p) => (p, 0),
        LinearSide::Picture(p, PicKind::Dds) => {
            let f = job.picture_format()?;
            let want = region_extent(&f, sj.picture_px, &sj.region);
            match crate::picture::dds_stream_offset(p, &f, want)? {
                Some(at) => (p, at),
                None => return Ok(false),
            }
        }
        LinearSide::Picture(p, PicKind::Ktx2(_)) => {
            let f = job.picture_format()?;
            let want = region_extent(&f, sj.picture_px, &sj.region);
            let shape = crate::picture::DdsTexture { extent: want, levels: 1, layers: 1, cube: false, data: () };
            match crate::picture::ktx2_plain_offsets(p, &f, &shape)?.and_then(|l| l.first().copied()) {
                Some(at) => (p, at),
                None => return Ok(false),
            }
        }
        _ => return Ok(false),
    };
    if job.mips.is_some() || !super::stream::streams(job, sj, p) {
        return Ok(false);
    }
    match job.onto {
        None => super::stream::tile_raw_new(job, sj, (p, at), &job.tiled),
        Some(base) if !job.in_place && !sj.in_texture => super::stream::tile_raw_onto(job, sj, (p, at), base),
        Some(_) => Ok(false),
    }
}

/// `nvsurf tile` of one surface.
pub fn tile(job: &Job) -> CmdResult {
    let sj = surface_of(job)?;
    let (s, region, lin, span) = (sj.surface, sj.region, sj.lin, sj.span);
    let out_path = &job.tiled;
    if let LinearSide::Picture(path, kind) = &job.linear {
        let f = job.picture_format()?;
        if *kind == PicKind::Png && png_stream::streams(&f) && region.d == 1 {
            if let Some(reader) = png_stream::PngReader::open(path)? {
                return tile_from_png(job, sj, reader, path, &f);
            }
        }
    }
    if tile_streamed_raw(job, sj)? {
        return Ok(ExitCode::SUCCESS);
    }
    let (input, file_end, in_path) = match &job.linear {
        LinearSide::Raw(p) => {
            let (b, end) = LineAligned::read_range(p, 0, span as u64)?;
            (b, end, p)
        }
        LinearSide::Picture(p, kind) => {
            let f = job.picture_format()?;
            let want = region_extent(&f, sj.picture_px, &region);
            let what = if sj.boxed { "box" } else { "surface" };
            // Encoding (BC) runs over the job's pool.
            let read = || {
                read_surface_as_with(*kind, p, &f, want.depth, Some((want, what)), &job.encoding, sj.at)
                    .map_err(|e| e.to_string())
            };
            let (_, data) = job.install(read)?;
            let mut b = LineAligned::zeroed("picture elements", data.len())?;
            b.copy_from_slice(&data);
            let n = b.len() as u64;
            (b, n, p)
        }
        LinearSide::Split(..) => return Err("--split needs a whole texture".into()),
    };
    if input.len() < span {
        return Err(format!(
            "input '{}' holds {} bytes but {} bytes are expected ({} rows x {} slices of the linear image)",
            in_path.display(),
            file_end,
            span,
            region.h,
            region.d
        )
        .into());
    }
    // Tiles the box `r` of surface `ts` (the surface, or a box's window) into `tiled`.
    let fill = |ts: &Surface, r: Region, tiled: &mut [u8]| -> Res<()> {
        with_progress(ts, r, lin, "tile", |band, off| match &job.pool {
            None => tile::tile_with(ts, &input[off..], tiled, band, lin, &CopyOptions::default()),
            Some(p) => p.install(|| {
                tile::tile_with(
                    ts,
                    &input[off..],
                    tiled,
                    band,
                    lin,
                    &CopyOptions::default().threads(Threads::CurrentPool),
                )
            }),
        })?;
        Ok(())
    };
    let (offset, end) = (sj.offset, sj.end);
    match job.onto {
        // --generate-mips: the whole level and the levels below it are patched at once.
        _ if job.mips.is_some() => super::mips::patch_subresource(job, sj, |buf| fill(&s, region, buf))?,
        Some(base) if job.in_place && sj.boxed => {
            let w = tile::window(&s, region)?;
            inplace::patch_window_in_place(base, offset, end - offset, &w, |buf| fill(&w.surface, w.region, buf))?
        }
        Some(base) if job.in_place => inplace::patch_in_place(base, offset, end - offset, |buf| fill(&s, region, buf))?,
        // A box: only its window of the dump is read and rewritten.
        Some(base) if sj.boxed => {
            let w = tile::window(&s, region)?;
            patch_window_onto(base, out_path, offset, end - offset, &w, |buf| fill(&w.surface, w.region, buf))?
        }
        Some(base) => patch_onto(base, out_path, offset, end - offset, |buf| fill(&s, region, buf))?,
        None => {
            // Only the surface is held; the bytes before it (an --offset) and after it (the rest
            // of a texture, with --subresource) are holes of the new file.
            let mut out = LineAligned::zeroed("tiled output", end - offset)?;
            fill(&s, region, &mut out)?;
            write_sparse(out_path, sj.file_bytes.max(end) as u64, offset as u64, &out)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Element rows a band of [`tile_from_png`]: the band's working set is its elements plus its
/// pixels as PNG samples (8 bytes each) and as texels (16), so the pixels set the band; for a
/// block-compressed format they outweigh the elements 24-48 times. A compressed band is whole
/// strips of 16 block rows, one at least for every worker (`picture/texels.rs`, `encode_strips`).
fn png_band_rows(job: &Job, f: &Format, region: Region, width_px: u32) -> u32 {
    let (_, bh) = f.block_dims();
    let elem_row = u64::from(region.w) * u64::from(f.elem_size_bytes());
    let px_row = u64::from(bh) * u64::from(width_px) * (8 + 16);
    let rows = super::stream::band_rows(elem_row.max(px_row), region.h);
    if f.is_compressed() {
        let workers = job.pool.as_ref().map_or(1, |p| p.current_num_threads()) as u32;
        // Whole strips, so where the strips fall does not depend on the band.
        (rows.max(workers.saturating_mul(16)) / 16 * 16).max(16).min(region.h.max(1))
    } else {
        rows
    }
}

/// One line on stderr when a PNG cannot hold the format's values exactly.
pub(super) fn warn_if_lossy(f: &Format) {
    if let Some(why) = png_stream::lossy(f) {
        eprintln!("warning: {why}; write .exr (or .dds) to keep the values");
    }
}

/// `untile` to a PNG, band by band: each band of element rows of the box `region` of `ts` is
/// untiled from `src` (the dump in memory, or read band by band) into a small buffer, converted and handed to the PNG encoder, which
/// writes the file as it goes. The picture is `e` (pixels; slices stacked top to bottom).
fn untile_to_png(
    job: &Job,
    ts: &Surface,
    region: Region,
    src: &mut TiledSource,
    path: &std::path::Path,
    f: &Format,
    e: Extent<Texels>,
) -> Res<()> {
    let es = ts.elem_size_bytes();
    let (_, bh) = f.block_dims();
    let row_bytes = u64::from(region.w) * u64::from(es);
    let rows = match src {
        TiledSource::Memory(_) => super::stream::band_rows(row_bytes, region.h),
        // Whole block rows, so that no block row of the dump is read twice.
        TiledSource::File { .. } => super::stream::surface_band_rows(ts, &region),
    };
    let mut buf = LineAligned::zeroed("picture band", usize::try_from(row_bytes * u64::from(rows))?)?;
    let bar = progress_bar(ts.size_bytes(), u64::from(region.h) * u64::from(region.d), "untile");
    crate::io::with_temp(path, |out| {
        let wrote = |e: std::io::Error| -> Box<dyn std::error::Error> {
            format!("cannot write '{}': {e}", path.display()).into()
        };
        let file = crate::io::hooks::Counted(out.0.try_clone().map_err(wrote)?);
        let height = e.height.checked_mul(e.depth).ok_or("picture height overflows")?;
        // The encoder's I/O errors are the file's: "cannot write" (a full disk, ...).
        let io = |e| png_stream::write_error(path, e);
        let mut w = PngWriter::new(file, f, e.width, height, job.png_compression).map_err(io)?;
        for z in 0..region.d {
            let mut ey = 0;
            while ey < region.h {
                let h = rows.min(region.h - ey);
                let band = Region { y: region.y + ey, z: region.z + z, h, d: 1, ..region };
                let n = (row_bytes * u64::from(h)) as usize;
                src.untile_band(job, ts, band, &mut buf[..n])?;
                let px_rows = ((ey + h) * bh).min(e.height) - ey * bh;
                w.write_band_in(Extent::<Texels>::new(e.width, px_rows, 1), &buf[..n], job.pool.as_ref())
                    .map_err(io)?;
                if let Some(b) = &bar {
                    b.inc(u64::from(h));
                }
                ey += h;
            }
        }
        w.finish().map_err(io)?;
        Ok(())
    })?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    Ok(())
}

/// `tile` from a PNG, band by band: rows are read, converted to elements and tiled into the
/// output one band at a time, so only the output and a band are held.
fn tile_from_png(job: &Job, sj: &SurfaceJob, mut reader: PngReader, path: &std::path::Path, f: &Format) -> CmdResult {
    let (s, region) = (sj.surface, sj.region);
    let want = region_extent(f, sj.picture_px, &region);
    if (reader.width_px, reader.height_px) != (want.width, want.height) {
        let what = if sj.boxed { "box" } else { "surface" };
        return Err(format!(
            "picture '{}' is {}x{}x1 px but the {what} is {}x{}x1 px",
            path.display(),
            reader.width_px,
            reader.height_px,
            want.width,
            want.height
        )
        .into());
    }
    reader.check_claim(path)?;
    let es = s.elem_size_bytes();
    let (_, bh) = f.block_dims();
    if job.onto.is_none() && job.mips.is_none() && !sj.boxed && !matches!(s, Surface::Swizzled(_)) {
        // A new file, band by band: whole block rows (and whole strips of 16 block rows for a
        // compressed format, see `png_band_rows`), so the output is never held whole.
        let align = super::stream::block_rows(&s).max(if f.is_compressed() { 16 } else { 1 });
        let rows = png_band_rows(job, f, region, want.width).div_ceil(align).saturating_mul(align);
        let done = super::stream::tile_new_file(job, sj, &job.tiled, rows, |band, lin| {
            let ey = band.y - region.y;
            let px_rows = ((ey + band.h) * bh).min(want.height) - ey * bh;
            let img = reader.read_rows(path, px_rows)?;
            let elems = job.install(|| png_stream::band_elements(f, &img, &job.encoding).map_err(|e| e.to_string()))?;
            let got = elems.get(..lin.len()).ok_or("a picture band is shorter than its elements")?;
            lin.copy_from_slice(got);
            Ok(())
        })?;
        if done {
            job.encoding.finish(sj.at.0, sj.at.1);
            return Ok(ExitCode::SUCCESS);
        }
    }
    let rows = png_band_rows(job, f, region, want.width);
    let bar = progress_bar(s.size_bytes(), u64::from(region.h), "tile");
    let mut fill = |tiled: &mut [u8], ts: &Surface, tregion: Region| -> Res<()> {
        let mut ey = 0;
        while ey < region.h {
            let h = rows.min(region.h - ey);
            let px_rows = ((ey + h) * bh).min(want.height) - ey * bh;
            let img = reader.read_rows(path, px_rows)?;
            let elems = job.install(|| png_stream::band_elements(f, &img, &job.encoding).map_err(|e| e.to_string()))?;
            let band = Region { y: tregion.y + ey, h, ..tregion };
            let lin = LinearLayout::packed(&band, es);
            match &job.pool {
                None => tile::tile_with(ts, &elems, tiled, band, lin, &CopyOptions::default()),
                Some(p) => p.install(|| {
                    tile::tile_with(ts, &elems, tiled, band, lin, &CopyOptions::default().threads(Threads::CurrentPool))
                }),
            }?;
            if let Some(b) = &bar {
                b.inc(u64::from(h));
            }
            ey += h;
        }
        Ok(())
    };
    let (offset, end) = (sj.offset, sj.end);
    match job.onto {
        _ if job.mips.is_some() => super::mips::patch_subresource(job, sj, |buf| fill(buf, &s, region))?,
        Some(base) if job.in_place && sj.boxed => {
            let w = tile::window(&s, region)?;
            inplace::patch_window_in_place(base, offset, end - offset, &w, |buf| fill(buf, &w.surface, w.region))?
        }
        Some(base) if job.in_place => inplace::patch_in_place(base, offset, end - offset, |buf| fill(buf, &s, region))?,
        Some(base) if sj.boxed => {
            let w = tile::window(&s, region)?;
            patch_window_onto(base, &job.tiled, offset, end - offset, &w, |buf| fill(buf, &w.surface, w.region))?
        }
        Some(base) => patch_onto(base, &job.tiled, offset, end - offset, |buf| fill(buf, &s, region))?,
        None => {
            let mut out = LineAligned::zeroed("tiled output", end - offset)?;
            fill(&mut out, &s, region)?;
            write_sparse(&job.tiled, sj.file_bytes.max(end) as u64, offset as u64, &out)?;
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    job.encoding.finish(sj.at.0, sj.at.1);
    Ok(ExitCode::SUCCESS)
}

/// Bytes a linear image of `r` with layout `lin` occupies.
fn linear_bytes(r: &Region, lin: &LinearLayout) -> Res<usize> {
    lin.image_bytes(r)
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| format!("the linear image of {r:?} with {lin:?} does not fit in memory").into())
}

/// The picture files written, one line each.
pub fn report(files: &[std::path::PathBuf], e: Extent<Texels>, f: &Format) {
    for p in files {
        eprintln!("wrote {} ({}x{}x{} px, {} {})", p.display(), e.width, e.height, e.depth, f.name(), f.id_name());
    }
}

/// Runs `work` over the region, either at once or in bands of 256 rows with a progress bar
/// (see [`progress_bar`]).
fn with_progress(
    s: &Surface,
    region: Region,
    lin: LinearLayout,
    label: &str,
    mut work: impl FnMut(Region, usize) -> Result<(), Error>,
) -> Result<(), Error> {
    let Some(bar) = progress_bar(s.size_bytes(), u64::from(region.h) * u64::from(region.d), label) else {
        return work(region, 0);
    };
    for z in region.z..region.z + region.d {
        let mut y = region.y;
        while y < region.y + region.h {
            let h = 256.min(region.y + region.h - y);
            let band = Region { y, z, h, d: 1, ..region };
            let off = (z - region.z) as usize * lin.slice_pitch_bytes as usize
                + (y - region.y) as usize * lin.row_pitch_bytes as usize;
            work(band, off)?;
            bar.inc(u64::from(h));
            y += h;
        }
    }
    bar.finish_and_clear();
    Ok(())
}
