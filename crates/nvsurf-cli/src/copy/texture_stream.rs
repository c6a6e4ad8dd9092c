//! Whole textures band by band (`tile --texture`, `untile --texture`):
//!
//! - `untile` to a raw file or a DDS: each subresource, in the packed linear order (layer by
//!   layer, level by level: DDS order), is untiled from its window of the dump in bands of
//!   whole block rows ([`super::stream`]'s bands and [`TiledSource`]) and appended to the
//!   output. To a KTX2 file: level by level, smallest first, each level's layers in turn
//!   (zstd-compressed as they come), the level index written over a placeholder at the end
//!   (`picture::write_ktx2_streamed`).
//! - `tile` from a raw file or a DDS storing the texture as it is: each band of each
//!   subresource is read at its linear offset, tiled into its window and written at the
//!   window's pieces, into a new file (holes elsewhere) or a copy of `--onto`.
//!
//! The working set is one band and its window (and, for zstd, the compressor's), whatever the
//! texture's size; the outputs are the whole-texture path's bytes (the tests compare the two).
//! What does not stream holds the texture (module `texture`): a dump or input that is not a
//! regular file, split directories, `--generate-mips`, `--in-place`, a DDS to convert, and a
//! format with no DXGI (DDS) or Vulkan (KTX2) twin, which is written decoded.

use super::job::{Job, LinearSide};
use super::stream::{surface_band_rows, TiledSource};
use crate::io::copy::{cannot_read, cannot_write};
use crate::picture::PicKind;
use nvsurf::texture::{Subresource, Texture};
use nvsurf::tile::Region;
use std::io::Write;
use std::path::Path;

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// The dump `job.tiled` read subresource by subresource, band by band.
struct Untiler<'a> {
    job: &'a Job<'a>,
    src: TiledSource<'a>,
    band_buf: Vec<u8>,
}

impl<'a> Untiler<'a> {
    /// Opens the dump, checked to hold `t` at `job.offset`.
    fn open(job: &'a Job<'a>, t: &Texture) -> Res<Self> {
        let path = job.tiled.as_path();
        let file = std::fs::File::open(path).map_err(cannot_read(path))?;
        let len = file.metadata().map_err(cannot_read(path))?.len();
        t.check_dump(len.saturating_sub(job.offset))?;
        Ok(Untiler { job, src: TiledSource::File { file, path, offset: 0, buf: None }, band_buf: Vec::new() })
    }

    /// Hands `sub`'s packed linear bytes to `put`, a band at a time.
    fn sub(&mut self, sub: &Subresource, put: &mut dyn FnMut(&[u8]) -> Res<()>) -> Res<()> {
        let at = self.job.offset.checked_add(sub.offset_bytes).ok_or("texture offset overflows")?;
        let Some(s) = sub.surface else {
            // BUFFER: its bytes as they are.
            return copy_bytes(&mut self.src, at, sub.linear_size_bytes, put);
        };
        if let TiledSource::File { offset, .. } = &mut self.src {
            *offset = at;
        }
        let region = Region::whole(&s);
        let rows = surface_band_rows(&s, &region);
        let row_bytes = usize::try_from(region.extent().row_bytes_of(s.elem_size_bytes()))?;
        let need = row_bytes.checked_mul(rows as usize).ok_or("band too large")?;
        if self.band_buf.len() < need {
            self.band_buf = crate::picture::try_filled("texture band", need, 0u8)?;
        }
        let mut done = 0u64;
        for band in super::stream::bands(region, rows) {
            let n = row_bytes * band.h as usize;
            self.src.untile_band(self.job, &s, band, &mut self.band_buf[..n])?;
            put(&self.band_buf[..n])?;
            done += n as u64;
        }
        check_done(sub, done)
    }
}

/// A texture's levels for the KTX2 writer, untiled as they are asked for.
struct KtxLevels<'a, 't> {
    u: Untiler<'a>,
    t: &'t Texture,
}

impl crate::picture::LayerSource for KtxLevels<'_, '_> {
    fn each_layer(&mut self, level: u32, put: &mut dyn FnMut(&[u8]) -> Res<()>) -> Res<()> {
        for layer in 0..self.t.layer_count() {
            let sub = self.t.subresource(level, layer)?;
            self.u.sub(&sub, put)?;
        }
        Ok(())
    }
}

/// Untiles every subresource of `t` from the dump `job.tiled` (at `job.offset`) into `w`, in
/// the packed linear order.
fn untile_into(job: &Job, t: &Texture, w: &mut dyn Write, out_path: &Path) -> Res<()> {
    let mut u = Untiler::open(job, t)?;
    let wrote = cannot_write(out_path);
    for sub in t.subresources() {
        u.sub(&sub, &mut |b| w.write_all(b).map_err(&wrote))?;
    }
    Ok(())
}

/// The bytes a subresource's bands wrote are its packed linear size (the order the DDS and
/// raw outputs rely on).
fn check_done(sub: &Subresource, done: u64) -> Res<()> {
    if done != sub.linear_size_bytes {
        return Err(format!(
            "level {} layer {}: {done} bytes untiled but its linear image is {} bytes",
            sub.level, sub.layer, sub.linear_size_bytes
        )
        .into());
    }
    Ok(())
}

/// Hands `len` bytes of the dump at `at` to `put`, 1 MiB at a time.
fn copy_bytes(src: &mut TiledSource, at: u64, len: u64, put: &mut dyn FnMut(&[u8]) -> Res<()>) -> Res<()> {
    use std::os::unix::fs::FileExt;
    let TiledSource::File { file, path, .. } = src else {
        return Err("a BUFFER texture needs its dump as a file".into());
    };
    let mut buf = vec![0u8; 1 << 20];
    let mut done = 0u64;
    while done < len {
        let n = usize::try_from((len - done).min(buf.len() as u64))?;
        file.read_exact_at(&mut buf[..n], at + done).map_err(cannot_read(path))?;
        put(&buf[..n])?;
        done += n as u64;
    }
    Ok(())
}

/// `untile --texture` of `t` to the raw file, DDS or KTX2 file of `job.linear`, band by band.
pub(super) fn untile(job: &Job, t: &Texture) -> Res<()> {
    match &job.linear {
        LinearSide::Raw(p) => crate::io::with_temp(p, |out| {
            let mut w = std::io::BufWriter::with_capacity(1 << 20, out);
            untile_into(job, t, &mut w, p)?;
            w.flush().map_err(cannot_write(p))
        }),
        LinearSide::Picture(p, PicKind::Dds) => {
            let f = job.picture_format()?;
            let shape = super::shape::dds_shape(t, ());
            crate::picture::write_dds_streamed(p, &f, &shape, |w| untile_into(job, t, w, p))?;
            eprintln!("wrote {} ({}, {} {})", p.display(), super::shape::texture_words(t), f.name(), f.id_name());
            Ok(())
        }
        LinearSide::Picture(p, PicKind::Ktx2(opt)) => {
            let f = job.picture_format()?;
            let shape = super::shape::dds_shape(t, ());
            let mut levels = KtxLevels { u: Untiler::open(job, t)?, t };
            crate::picture::write_ktx2_streamed(p, &f, &shape, *opt, &mut levels)?;
            eprintln!("wrote {} ({}, {} {})", p.display(), super::shape::texture_words(t), f.name(), f.id_name());
            Ok(())
        }
        _ => Err("a streamed texture goes to a raw file, a DDS or a KTX2 file".into()),
    }
}

/// One band of one subresource for [`tile`]: the subresource and the band (in its surface's
/// elements), with the band's window, whose pieces are counted from the texture's start.
type TexBand = ((Subresource, Region), nvsurf::tile::Window);

/// Every band of every subresource of `t` (each surface in bands of whole block rows), in the
/// packed linear order; `None` for a texture with a BUFFER level (no surface to band).
fn texture_bands(t: &Texture) -> Option<Vec<Res<TexBand>>> {
    let mut out = Vec::new();
    for sub in t.subresources() {
        let s = sub.surface?;
        let region = Region::whole(&s);
        for band in super::stream::bands(region, surface_band_rows(&s, &region)) {
            out.push(nvsurf::tile::window(&s, band).map_err(Into::into).map(|mut w| {
                for p in &mut w.pieces {
                    p.offset_bytes += sub.offset_bytes;
                }
                ((sub, band), w)
            }));
        }
    }
    Some(out)
}

/// Where each subresource's packed linear bytes start in a raw texture source.
enum SubStart {
    /// The packed linear texture (DDS order) from this byte on: a raw file (0) or a DDS's data.
    Packed(u64),
    /// A KTX2 file without supercompression: each level's start; its layers follow each other.
    Ktx2(Vec<u64>),
}

impl SubStart {
    /// The file offset of `sub`'s first byte.
    fn of(&self, sub: &Subresource) -> u64 {
        match self {
            SubStart::Packed(at) => at + sub.linear_offset_bytes,
            SubStart::Ktx2(levels) => {
                levels.get(sub.level as usize).copied().unwrap_or(u64::MAX / 2)
                    + u64::from(sub.layer) * sub.linear_size_bytes
            }
        }
    }
}

/// The linear side of `tile --texture` when it can be read band by band: a raw file, or a DDS
/// or a KTX2 file without supercompression storing exactly the texture in its format. `None`
/// otherwise.
fn raw_texture_source<'j>(job: &'j Job, t: &Texture) -> Res<Option<(&'j std::path::PathBuf, SubStart)>> {
    let want = super::shape::dds_shape(t, ());
    Ok(match &job.linear {
        LinearSide::Raw(p) => Some((p, SubStart::Packed(0))),
        LinearSide::Picture(p, PicKind::Dds) => {
            crate::picture::dds_texture_offset(p, &job.picture_format()?, &want)?.map(|at| (p, SubStart::Packed(at)))
        }
        LinearSide::Picture(p, PicKind::Ktx2(_)) => {
            crate::picture::ktx2_plain_offsets(p, &job.picture_format()?, &want)?.map(|l| (p, SubStart::Ktx2(l)))
        }
        _ => None,
    })
}

/// `tile --texture` from a raw file or a DDS storing the texture as it is (no `--generate-mips`,
/// not `--in-place`) into a new file or a copy of `--onto`, band by band. `Ok(false)`, with
/// nothing done, for any other input or output.
pub(super) fn tile(job: &Job, t: &Texture) -> Res<bool> {
    use std::os::unix::fs::FileExt;
    if job.mips.is_some() || job.in_place {
        return Ok(false);
    }
    let Some((p, start)) = raw_texture_source(job, t)? else { return Ok(false) };
    let input = std::fs::File::open(p).map_err(cannot_read(p))?;
    let meta = input.metadata().map_err(cannot_read(p))?;
    let Some(bands) = texture_bands(t).filter(|_| meta.is_file()) else { return Ok(false) };
    if let SubStart::Packed(at) = start {
        let got = meta.len().saturating_sub(at);
        if got < t.linear_size_bytes() {
            let needed = t.linear_size_bytes();
            return Err(nvsurf::Error::BufferTooSmall { what: "linear texture input", needed, got }.into());
        }
    }
    let opts = nvsurf::tile::CopyOptions::default();
    let mut lin: Vec<u8> = Vec::new();
    let fill = |(sub, band): &(Subresource, Region), w: &nvsurf::tile::Window, buf: &mut [u8]| -> Res<()> {
        let s = sub.surface.ok_or("a BUFFER level has no surface")?;
        let es = s.elem_size_bytes();
        let full = Region::whole(&s);
        let row_bytes = full.extent().row_bytes_of(es);
        let from = start.of(sub) + u64::from(band.z) * row_bytes * u64::from(full.h) + u64::from(band.y) * row_bytes;
        let n = usize::try_from(row_bytes * u64::from(band.h))?;
        if lin.len() < n {
            lin = crate::picture::try_filled("texture band", n, 0u8)?;
        }
        input.read_exact_at(&mut lin[..n], from).map_err(cannot_read(p))?;
        let packed = nvsurf::tile::LinearLayout::packed(&w.region, es);
        job.install(|| nvsurf::tile::tile_with(&w.surface, &lin[..n], buf, w.region, packed, &opts))?;
        Ok(())
    };
    let len = usize::try_from(t.size_bytes())?;
    let offset = usize::try_from(job.offset)?;
    match job.onto {
        Some(base) => {
            let windows = bands.into_iter().collect::<Res<Vec<_>>>()?;
            crate::io::patch_bands_onto(base, &job.tiled, (offset, len), windows, fill)
        }
        None => super::stream::write_windows_new(
            &job.tiled,
            (job.offset, job.offset + t.size_bytes()),
            bands.into_iter(),
            fill,
        ),
    }
}
