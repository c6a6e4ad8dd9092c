//! Raw `untile` and `tile` of one surface, band by band: the working set is one band of rows
//! (about 8 MiB of linear elements, `NVSURF_BAND_BYTES`) and the window of the dump that band
//! needs, whatever the surface's size.
//!
//! - `untile`: each band's window is read from the dump with positioned reads
//!   ([`crate::io::read_pieces_at`]: only its pieces), untiled into the band buffer, and
//!   appended to the output's temporary file, which is renamed over the output at the end.
//! - `tile` to a new file: each band of the linear input is read at its offset, tiled into its
//!   window (zeroed first, so the padding of the new file is zeros), and the window's pieces are
//!   written at their offsets of the temporary file, whose other bytes stay holes.
//!
//! Bands are whole block rows of a blocklinear surface (whole rows of a pitch one), so no byte
//! of the dump is read or written twice. What does not stream takes the whole-surface path
//! (module `surface`): a pre-G80 swizzled surface (its swizzle spreads every band over the
//! whole surface; such surfaces are at most 4096x4096), a box (`--box`, read as its window), a
//! linear side with its own pitch, an input that is not a regular file, and `tile --onto
//! --in-place` (patched under its journal). `tile --onto BASE --output OUT` copies BASE's other
//! bytes and patches each band's window read from BASE ([`tile_raw_onto`]).

use super::job::{Job, SurfaceJob};
use crate::io::copy::{cannot_read, cannot_write};
use crate::io::{progress_bar, read_pieces_at, with_temp, LineAligned};
use nvsurf::layout::Surface;
use nvsurf::tile::{self, CopyOptions, LinearLayout, Region, Threads};
use std::fs::File;
use std::path::Path;

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// Whether the raw copy of `sj` streams (see the module documentation); `input` is the file
/// read (the dump for `untile`, the linear image for `tile`).
pub(super) fn streams(job: &Job, sj: &SurfaceJob, input: &Path) -> bool {
    let regular = std::fs::metadata(input).map(|m| m.is_file()).unwrap_or(false);
    regular && !sj.boxed && job.lin_is_packed(sj) && !matches!(sj.surface, Surface::Swizzled(_))
}

/// Rows of the surface that one band covers: about 8 MiB of linear elements, whole block rows.
pub(super) fn surface_band_rows(s: &Surface, region: &Region) -> u32 {
    let row_bytes = region.extent().row_bytes_of(s.elem_size_bytes());
    let align = block_rows(s);
    let rows = band_rows(row_bytes, region.h);
    (rows / align).max(1).saturating_mul(align)
}

/// Rows of one block row of `s` (a power of two; 1 for pitch and swizzled surfaces).
pub(super) fn block_rows(s: &Surface) -> u32 {
    match s {
        Surface::BlockLinear(b) => u32::try_from(b.block_extent_bytes_rows_slices()[1]).unwrap_or(u32::MAX),
        _ => 1,
    }
}

/// The bands of `region`, one slice deep, in the order of the linear image: each starts on a
/// multiple of `rows` (from the surface's first row) and ends at the next or at the region's end.
pub(super) fn bands(region: Region, rows: u32) -> impl Iterator<Item = Region> {
    let rows = rows.max(1);
    (region.z..region.z + region.d).flat_map(move |z| {
        let end = region.y + region.h;
        let mut y = region.y;
        std::iter::from_fn(move || {
            (y < end).then(|| {
                let next = (y / rows).saturating_add(1).saturating_mul(rows).min(end);
                let band = Region { y, z, h: next - y, d: 1, ..region };
                y = next;
                band
            })
        })
    })
}

/// The bytes of one row of `region`'s linear image, and a buffer for `rows` such rows.
fn band_buffer(s: &Surface, region: &Region, rows: u32) -> Res<(usize, LineAligned)> {
    let row_bytes = usize::try_from(region.extent().row_bytes_of(s.elem_size_bytes()))?;
    let lin = LineAligned::zeroed("linear band", row_bytes.checked_mul(rows as usize).ok_or("band too large")?)?;
    Ok((row_bytes, lin))
}

/// A buffer of at least `len` bytes, grown (reallocated) only when a band needs more.
fn at_least<'a>(buf: &'a mut Option<LineAligned>, what: &str, len: usize) -> Res<&'a mut [u8]> {
    if buf.as_ref().is_none_or(|b| b.len() < len) {
        *buf = Some(LineAligned::zeroed(what, len)?);
    }
    Ok(&mut buf.as_mut().ok_or("no buffer")?[..len])
}

/// Copy options for the job's pool (or one thread).
fn options(job: &Job) -> CopyOptions {
    match job.pool {
        Some(_) => CopyOptions::default().threads(Threads::CurrentPool),
        None => CopyOptions::default(),
    }
}

/// Where the tiled bytes of a band come from: the dump in memory, or the dump file, each band
/// read as its window's pieces (positioned reads into a buffer reused from band to band).
pub(super) enum TiledSource<'a> {
    /// The surface's bytes, all in memory.
    Memory(&'a [u8]),
    /// The surface at `offset` of `file` (`path` for messages).
    File { file: File, path: &'a Path, offset: u64, buf: Option<LineAligned> },
}

impl<'a> TiledSource<'a> {
    /// The dump `path` holding `sj`'s surface, its length checked first (the message of the
    /// whole-surface path).
    pub(super) fn open(path: &'a Path, sj: &SurfaceJob) -> Res<TiledSource<'a>> {
        let file = File::open(path).map_err(cannot_read(path))?;
        let file_end = file.metadata().map_err(cannot_read(path))?.len();
        if file_end < sj.end as u64 {
            return Err(format!(
                "input '{}' holds {} bytes but {} bytes are expected (surface of {} bytes at offset {})",
                path.display(),
                file_end,
                sj.end,
                sj.surface.size_bytes(),
                sj.offset
            )
            .into());
        }
        Ok(TiledSource::File { file, path, offset: sj.offset as u64, buf: None })
    }

    /// Untiles `band` (one slice deep) of `s` into `out`, its rows packed.
    pub(super) fn untile_band(&mut self, job: &Job, s: &Surface, band: Region, out: &mut [u8]) -> Res<()> {
        let opts = options(job);
        let es = s.elem_size_bytes();
        match self {
            TiledSource::Memory(tiled) => {
                let packed = LinearLayout::packed(&band, es);
                job.install(|| tile::untile_with(s, tiled, out, band, packed, &opts))?
            }
            TiledSource::File { file, path, offset, buf } => {
                let w = tile::window(s, band)?;
                let tiled = at_least(buf, "tiled band", usize::try_from(w.size_bytes())?)?;
                read_pieces_at(file, *offset, &w.pieces, tiled).map_err(cannot_read(path))?;
                let packed = LinearLayout::packed(&w.region, es);
                job.install(|| tile::untile_with(&w.surface, tiled, out, w.region, packed, &opts))?
            }
        }
        Ok(())
    }
}

/// `untile` of `sj` from the dump `in_path` to the raw file `out_path`, band by band.
pub(super) fn untile_raw(job: &Job, sj: &SurfaceJob, in_path: &Path, out_path: &Path) -> Res<()> {
    let (s, region) = (sj.surface, sj.region);
    let mut src = TiledSource::open(in_path, sj)?;
    let rows = surface_band_rows(&s, &region);
    let (row_bytes, mut lin) = band_buffer(&s, &region, rows)?;
    let bar = progress_bar(s.size_bytes(), u64::from(region.h) * u64::from(region.d), "untile");
    with_temp(out_path, |out| {
        let wrote = cannot_write(out_path);
        // A regular file takes positioned writes into its final length (measured faster than
        // appending); a device or FIFO is written in order.
        let regular = out.0.metadata().map_err(&wrote)?.is_file();
        if regular {
            let total = u64::try_from(row_bytes)? * u64::from(region.h) * u64::from(region.d);
            out.0.set_len(total).map_err(&wrote)?;
        }
        let mut at = 0u64;
        for band in bands(region, rows) {
            let n = row_bytes * band.h as usize;
            src.untile_band(job, &s, band, &mut lin[..n])?;
            if regular {
                use std::os::unix::fs::FileExt;
                crate::io::hooks::before_write().map_err(&wrote)?;
                out.0.write_all_at(&lin[..n], at).map_err(&wrote)?;
                crate::io::writeback::start(&out.0, at, n as u64);
            } else {
                std::io::Write::write_all(out, &lin[..n]).map_err(&wrote)?;
            }
            at += n as u64;
            if let Some(b) = &bar {
                b.inc(u64::from(band.h));
            }
        }
        Ok(())
    })?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    Ok(())
}

/// The one level of one layer of a surface's KTX2 file, untiled band by band.
struct SurfaceLevel<'a> {
    job: &'a Job<'a>,
    sj: &'a SurfaceJob,
    src: TiledSource<'a>,
}

impl crate::picture::LayerSource for SurfaceLevel<'_> {
    fn each_layer(&mut self, _level: u32, put: &mut dyn FnMut(&[u8]) -> Res<()>) -> Res<()> {
        let (s, region) = (self.sj.surface, self.sj.region);
        let rows = surface_band_rows(&s, &region);
        let (row_bytes, mut lin) = band_buffer(&s, &region, rows)?;
        for band in bands(region, rows) {
            let n = row_bytes * band.h as usize;
            self.src.untile_band(self.job, &s, band, &mut lin[..n])?;
            put(&lin[..n])?;
        }
        Ok(())
    }
}

/// `untile` of `sj` from the dump `in_path` to the KTX2 file `path` of `f` (a format with a
/// Vulkan twin, [`crate::picture::vk_of`]), `e` pixels, band by band (zstd-compressed as the
/// bands come where `opt` asks).
pub(super) fn untile_ktx2<'a>(
    job: &'a Job<'a>,
    sj: &'a SurfaceJob,
    in_path: &'a Path,
    (path, f, e, opt): (
        &Path,
        &nvsurf::format::Format,
        nvsurf::extent::Extent<nvsurf::extent::Texels>,
        crate::picture::Ktx2Options,
    ),
) -> Res<()> {
    let src = TiledSource::open(in_path, sj)?;
    let shape = crate::picture::DdsTexture { extent: e, levels: 1, layers: 1, cube: false, data: () };
    crate::picture::write_ktx2_streamed(path, f, &shape, opt, &mut SurfaceLevel { job, sj, src })
}

/// `untile` of `sj` from the dump `in_path` to the DDS `path` of `f` (a format whose DXGI twin
/// stores the elements as they are, [`crate::picture::dxgi_of`]), `e` pixels: the header, then
/// the surface band by band.
pub(super) fn untile_dds(
    job: &Job,
    sj: &SurfaceJob,
    in_path: &Path,
    (path, f, e): (&Path, &nvsurf::format::Format, nvsurf::extent::Extent<nvsurf::extent::Texels>),
) -> Res<()> {
    let (s, region) = (sj.surface, sj.region);
    let mut src = TiledSource::open(in_path, sj)?;
    let rows = surface_band_rows(&s, &region);
    let (row_bytes, mut lin) = band_buffer(&s, &region, rows)?;
    let shape = crate::picture::DdsTexture { extent: e, levels: 1, layers: 1, cube: false, data: () };
    crate::picture::write_dds_streamed(path, f, &shape, |w| {
        for band in bands(region, rows) {
            let n = row_bytes * band.h as usize;
            src.untile_band(job, &s, band, &mut lin[..n])?;
            w.write_all(&lin[..n]).map_err(cannot_write(path))?;
        }
        Ok(())
    })
}

/// `tile` of `sj` from the raw linear image `in_path` (its first element at byte `data_at`: 0,
/// or a DDS header's length) into a new file `out_path` (no `--onto`), band by band.
/// `Ok(false)` when the output is not a regular file (a device or FIFO cannot take positioned
/// writes): the caller takes the whole-surface path.
pub(super) fn tile_raw_new(job: &Job, sj: &SurfaceJob, (in_path, data_at): (&Path, u64), out_path: &Path) -> Res<bool> {
    use std::os::unix::fs::FileExt;
    let region = sj.region;
    let input = open_linear(sj, in_path, data_at)?;
    let row_bytes = usize::try_from(region.extent().row_bytes_of(sj.surface.elem_size_bytes()))?;
    let slice_bytes = row_bytes.checked_mul(region.h as usize).ok_or("slice too large")?;
    let rows = surface_band_rows(&sj.surface, &region);
    tile_new_file(job, sj, out_path, rows, |band, lin| {
        let at = (band.z - region.z) as usize * slice_bytes + (band.y - region.y) as usize * row_bytes;
        input.read_exact_at(lin, data_at + at as u64).map_err(|e| cannot_read(in_path)(e))
    })
}

/// The raw linear image `in_path` of `sj` (its first element at `data_at`), its length checked.
fn open_linear(sj: &SurfaceJob, in_path: &Path, data_at: u64) -> Res<File> {
    let input = File::open(in_path).map_err(cannot_read(in_path))?;
    let file_end = input.metadata().map_err(cannot_read(in_path))?.len().saturating_sub(data_at);
    if file_end < sj.span as u64 {
        return Err(format!(
            "input '{}' holds {} bytes but {} bytes are expected ({} rows x {} slices of the linear image)",
            in_path.display(),
            file_end,
            sj.span,
            sj.region.h,
            sj.region.d
        )
        .into());
    }
    Ok(input)
}

/// `tile --onto BASE` (not in place) of `sj` from the raw linear image `in_path` (its first
/// element at `data_at`) into `out_path`, band by band ([`crate::io::patch_bands_onto`]):
/// BASE's bytes outside the surface are copied, and each band's window is read from BASE,
/// tiled over and written back. `Ok(false)`, with nothing done, when BASE or the output is not
/// a regular file.
pub(super) fn tile_raw_onto(job: &Job, sj: &SurfaceJob, (in_path, data_at): (&Path, u64), base: &Path) -> Res<bool> {
    use std::os::unix::fs::FileExt;
    let (s, region) = (sj.surface, sj.region);
    let input = open_linear(sj, in_path, data_at)?;
    let es = s.elem_size_bytes();
    let rows = surface_band_rows(&s, &region);
    let (row_bytes, mut lin) = band_buffer(&s, &region, rows)?;
    let slice_bytes = row_bytes.checked_mul(region.h as usize).ok_or("slice too large")?;
    let opts = options(job);
    let windows = bands(region, rows).map(|band| Ok((band, tile::window(&s, band)?))).collect::<Res<Vec<_>>>()?;
    crate::io::patch_bands_onto(base, &job.tiled, (sj.offset, sj.end - sj.offset), windows, |band, w, buf| {
        let n = row_bytes * band.h as usize;
        let at = (band.z - region.z) as usize * slice_bytes + (band.y - region.y) as usize * row_bytes;
        input.read_exact_at(&mut lin[..n], data_at + at as u64).map_err(cannot_read(in_path))?;
        let packed = LinearLayout::packed(&w.region, es);
        job.install(|| tile::tile_with(&w.surface, &lin[..n], buf, w.region, packed, &opts))?;
        Ok(())
    })
}

/// `tile` of `sj` into a new file `out_path` (holes around the surface), `rows` rows a band (a
/// multiple of the block's rows): `fill` puts each band's linear elements (rows packed) into
/// the buffer it is given; the band is tiled into its zeroed window, whose pieces are written
/// at their offsets. `Ok(false)`, with nothing read or written, when `out_path` is not a
/// regular file or a new path.
pub(super) fn tile_new_file(
    job: &Job,
    sj: &SurfaceJob,
    out_path: &Path,
    rows: u32,
    mut fill: impl FnMut(Region, &mut [u8]) -> Res<()>,
) -> Res<bool> {
    let (s, region) = (sj.surface, sj.region);
    let es = s.elem_size_bytes();
    let (row_bytes, mut lin) = band_buffer(&s, &region, rows)?;
    let total = sj.file_bytes.max(sj.end) as u64;
    let bar = progress_bar(s.size_bytes(), u64::from(region.h) * u64::from(region.d), "tile");
    let opts = options(job);
    let windows = bands(region, rows).map(|band| Ok((band, tile::window(&s, band)?)));
    let done = write_windows_new(out_path, (sj.offset as u64, total), windows, |band, w, buf| {
        let n = row_bytes * band.h as usize;
        fill(*band, &mut lin[..n])?;
        let packed = LinearLayout::packed(&w.region, es);
        job.install(|| tile::tile_with(&w.surface, &lin[..n], buf, w.region, packed, &opts))?;
        if let Some(b) = &bar {
            b.inc(u64::from(band.h));
        }
        Ok(())
    })?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    Ok(done)
}

/// A new file `out_path` of `total` bytes (holes but for what is written) from `windows`: each
/// window's buffer is zeroed, filled by `fill` and its pieces written at `offset` plus their
/// offsets. One window is held at a time. `Ok(false)`, with nothing written, when `out_path`
/// exists and is not a regular file (a device or FIFO takes no positioned writes).
pub(super) fn write_windows_new<T>(
    out_path: &Path,
    (offset, total): (u64, u64),
    windows: impl Iterator<Item = Res<(T, tile::Window)>>,
    mut fill: impl FnMut(&T, &tile::Window, &mut [u8]) -> Res<()>,
) -> Res<bool> {
    if std::fs::metadata(out_path).is_ok_and(|m| !m.is_file()) {
        return Ok(false);
    }
    let mut tiled: Option<LineAligned> = None;
    with_temp(out_path, |out| {
        let wrote = cannot_write(out_path);
        out.0.set_len(total).map_err(&wrote)?;
        for item in windows {
            let (t, w) = item?;
            let buf = at_least(&mut tiled, "tiled band", usize::try_from(w.size_bytes())?)?;
            buf.fill(0);
            fill(&t, &w, buf)?;
            crate::io::patch::write_window_pieces(&out.0, out_path, offset, &w, buf)?;
        }
        Ok(())
    })?;
    Ok(true)
}

/// Element rows per band of a streamed picture: about 8 MiB of linear elements (at least one
/// row). Each band is untiled (or tiled) and converted on its own, so a picture of any size
/// costs a few bands of memory.
/// `NVSURF_BAND_BYTES` sets another band size (the tests use small bands to cross many band
/// boundaries on small pictures).
pub(super) fn band_rows(row_bytes: u64, total_rows: u32) -> u32 {
    let band = std::env::var("NVSURF_BAND_BYTES").ok().and_then(|v| v.parse::<u64>().ok()).unwrap_or(8 << 20);
    (band / row_bytes.max(1)).clamp(1, u64::from(total_rows.max(1))) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_cover_the_region_once_on_row_multiples() {
        let r = Region { x: 2, y: 5, z: 1, w: 7, h: 20, d: 2 };
        let got: Vec<(u32, u32, u32)> = bands(r, 8).map(|b| (b.z, b.y, b.h)).collect();
        let want = [(1, 5, 3), (1, 8, 8), (1, 16, 8), (1, 24, 1), (2, 5, 3), (2, 8, 8), (2, 16, 8), (2, 24, 1)];
        assert_eq!(got, want);
        assert!(bands(r, 8).all(|b| b.x == 2 && b.w == 7 && b.d == 1));
        assert_eq!(bands(r, 100).count(), 2);
    }
}
