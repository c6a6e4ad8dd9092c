//! `untile --texture` of a whole texture to a raw file or a DDS, band by band: each
//! subresource, in the packed linear order (layer by layer, level by level: DDS order), is
//! untiled from its window of the dump in bands of whole block rows ([`super::stream`]'s
//! bands and [`TiledSource`]) and appended to the output. The working set is one band and its
//! window, whatever the texture's size; the output is written as the whole-texture path writes
//! it (the tests compare the two).
//!
//! What streams: a dump that is a regular file, and an output that is raw or a DDS whose DXGI
//! format stores the elements as they are. KTX2 (its level index and supercompression), split
//! directories and a DDS of decoded floats hold the texture (module `texture`).

use super::job::{Job, LinearSide};
use super::stream::{surface_band_rows, TiledSource};
use crate::io::copy::{cannot_read, cannot_write};
use crate::picture::PicKind;
use nvsurf::texture::{Subresource, Texture};
use nvsurf::tile::Region;
use std::io::Write;
use std::path::Path;

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// Untiles every subresource of `t` from the dump `job.tiled` (at `job.offset`) into `w`, in
/// the packed linear order.
fn untile_into(job: &Job, t: &Texture, w: &mut dyn Write, out_path: &Path) -> Res<()> {
    let path = job.tiled.as_path();
    let file = std::fs::File::open(path).map_err(cannot_read(path))?;
    let len = file.metadata().map_err(cannot_read(path))?.len();
    t.check_dump(len.saturating_sub(job.offset))?;
    let wrote = cannot_write(out_path);
    let mut band_buf: Vec<u8> = Vec::new();
    let mut src = TiledSource::File { file, path, offset: 0, buf: None };
    for sub in t.subresources() {
        let at = job.offset.checked_add(sub.offset_bytes).ok_or("texture offset overflows")?;
        let Some(s) = sub.surface else {
            // BUFFER: its bytes as they are.
            copy_bytes(&mut src, at, sub.linear_size_bytes, w, out_path)?;
            continue;
        };
        if let TiledSource::File { offset, .. } = &mut src {
            *offset = at;
        }
        let region = Region::whole(&s);
        let rows = surface_band_rows(&s, &region);
        let row_bytes = usize::try_from(region.extent().row_bytes_of(s.elem_size_bytes()))?;
        let need = row_bytes.checked_mul(rows as usize).ok_or("band too large")?;
        if band_buf.len() < need {
            band_buf = crate::picture::try_filled("texture band", need, 0u8)?;
        }
        let mut done = 0u64;
        for band in super::stream::bands(region, rows) {
            let n = row_bytes * band.h as usize;
            src.untile_band(job, &s, band, &mut band_buf[..n])?;
            w.write_all(&band_buf[..n]).map_err(&wrote)?;
            done += n as u64;
        }
        check_done(&sub, done)?;
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

/// Copies `len` bytes of the dump at `at` to `w`, 1 MiB at a time.
fn copy_bytes(src: &mut TiledSource, at: u64, len: u64, w: &mut dyn Write, out_path: &Path) -> Res<()> {
    use std::os::unix::fs::FileExt;
    let TiledSource::File { file, path, .. } = src else {
        return Err("a BUFFER texture needs its dump as a file".into());
    };
    let mut buf = vec![0u8; 1 << 20];
    let mut done = 0u64;
    while done < len {
        let n = usize::try_from((len - done).min(buf.len() as u64))?;
        file.read_exact_at(&mut buf[..n], at + done).map_err(cannot_read(path))?;
        w.write_all(&buf[..n]).map_err(cannot_write(out_path))?;
        done += n as u64;
    }
    Ok(())
}

/// `untile --texture` of `t` to the raw file or DDS of `job.linear`, band by band.
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
        _ => Err("a streamed texture goes to a raw file or a DDS".into()),
    }
}
