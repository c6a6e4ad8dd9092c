//! One surface (or one subresource of a texture) between the tiled file and the linear side:
//! only the surface's bytes of the dump are read (with --box, only its window), the copy runs
//! band by band under a progress bar when one shows, and the linear side is raw bytes or a
//! picture of the job's format (its size is the surface's, or the box's, in pixels).

use super::job::{Job, LinearSide, Shape, SurfaceJob};
use crate::io::{patch_onto, patch_window_onto, progress_bar, write_atomic, LineAligned};
use crate::picture::{read_surface, write_surface, Extent};
use crate::CmdResult;
use nvsurf::format::Format;
use nvsurf::layout::Surface;
use nvsurf::tile::{self, LinearLayout, Region};
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
    let mut out = LineAligned::zeroed("linear image", linear_bytes(&region, &lin)?)?;
    with_progress(&ts, tregion, lin, "untile", |band, off| match &job.pool {
        None => tile::untile(&ts, tiled, &mut out[off..], band, lin),
        Some(p) => p.install(|| tile::untile_parallel(&ts, tiled, &mut out[off..], band, lin)),
    })?;
    match &job.linear {
        LinearSide::Picture(path) => {
            let f = job.picture_format()?;
            let e = region_extent(&f, sj.picture_px, &region);
            let files = write_surface(path, &f, e, &out)?;
            report(&files, e, &f);
        }
        LinearSide::Raw(path) => write_atomic(path, &out)?,
        LinearSide::Split(_) => return Err("--split needs a whole texture".into()),
    }
    Ok(ExitCode::SUCCESS)
}

/// `nvsurf tile` of one surface.
pub fn tile(job: &Job) -> CmdResult {
    let sj = surface_of(job)?;
    let (s, region, lin, span) = (sj.surface, sj.region, sj.lin, sj.span);
    let out_path = &job.tiled;
    let (input, file_end, in_path) = match &job.linear {
        LinearSide::Raw(p) => {
            let (b, end) = LineAligned::read_range(p, 0, span as u64)?;
            (b, end, p)
        }
        LinearSide::Picture(p) => {
            let f = job.picture_format()?;
            let want = region_extent(&f, sj.picture_px, &region);
            let what = if sj.boxed { "box" } else { "surface" };
            let (_, data) = read_surface(p, &f, want.depth, Some((want, what)))?;
            let mut b = LineAligned::zeroed("picture elements", data.len())?;
            b.copy_from_slice(&data);
            let n = b.len() as u64;
            (b, n, p)
        }
        LinearSide::Split(_) => return Err("--split needs a whole texture".into()),
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
            None => tile::tile(ts, &input[off..], tiled, band, lin),
            Some(p) => p.install(|| tile::tile_parallel(ts, &input[off..], tiled, band, lin)),
        })?;
        Ok(())
    };
    let (offset, end) = (sj.offset, sj.end);
    match job.onto {
        // A box: only its window of the dump is read and rewritten.
        Some(base) if sj.boxed => {
            let w = tile::window(&s, region)?;
            patch_window_onto(base, out_path, offset, end - offset, &w, |buf| fill(&w.surface, w.region, buf))?
        }
        Some(base) => patch_onto(base, out_path, offset, end - offset, |buf| fill(&s, region, buf))?,
        None => {
            let mut out = LineAligned::zeroed("tiled output", sj.file_bytes.max(end))?;
            fill(&s, region, &mut out[offset..end])?;
            write_atomic(out_path, &out)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Bytes a linear image of `r` with layout `lin` occupies.
fn linear_bytes(r: &Region, lin: &LinearLayout) -> Res<usize> {
    lin.image_bytes(r)
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| format!("the linear image of {r:?} with {lin:?} does not fit in memory").into())
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

/// The picture files written, one line each.
pub fn report(files: &[std::path::PathBuf], e: Extent, f: &Format) {
    for p in files {
        println!("wrote {} ({}x{}x{} px, {} {})", p.display(), e.width_px, e.height_px, e.depth, f.name(), f.id_name());
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
