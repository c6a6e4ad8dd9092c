//! A whole texture (every level and layer) between the tiled file and the linear side: one
//! packed file (layer by layer, level by level: the order DDS uses), one file per level and
//! layer in a directory (`--split`), or one `.dds` or `.ktx2` with its mips, layers and cube
//! faces.
//! Split by level and layer over the worker pool; a progress bar counts subresources.

use super::job::{Job, LinearSide, Shape, SplitKind};
use super::shape::{dds_shape, describe, texture_words};
use crate::io::{patch_onto, progress_bar, read_part, write_atomic, LineAligned};
use crate::picture::{read_dds_with, read_ktx2_with, write_dds, write_ktx2, PicKind};
use crate::CmdResult;
use nvsurf::extent::{Extent, Texels};
use nvsurf::texture::{Subresource, Texture};
use nvsurf::tile::{CopyOptions, Threads};
use nvsurf::Error;
use std::path::Path;
use std::process::ExitCode;

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// Name of the file of (level, layer) in a `--split` directory: `layer<L>_level<M>.bin`, or
/// `.png` for PNGs.
pub fn split_name(level: u32, layer: u32, kind: SplitKind) -> String {
    format!("layer{layer}_level{level}.{}", kind.ext())
}

fn texture_of<'a>(job: &'a Job) -> Res<&'a Texture> {
    match &job.shape {
        Shape::Texture(t) => Ok(t),
        Shape::Surface(_) => Err("a surface is not a whole texture".into()),
    }
}

/// `nvsurf untile --texture`: the texture at the offset of the dump to the linear side.
pub fn untile(job: &Job) -> CmdResult {
    let t = texture_of(job)?;
    if super::job::texture_streams(&job.tiled, &job.linear, job.format.as_ref()) {
        note_larger_dump(job, t);
        super::texture_stream::untile(job, t)?;
        return Ok(ExitCode::SUCCESS);
    }
    let linear = {
        let dump = read_part(&job.tiled, job.offset, t.size_bytes(), "texture")?;
        note_larger_dump(job, t);
        untile_whole(job, t, &dump)?
        // The dump is freed here, before anything is written.
    };
    match &job.linear {
        LinearSide::Raw(p) => write_atomic(p, &linear)?,
        LinearSide::Split(dir, kind) => write_split(job, t, dir, *kind, &linear)?,
        LinearSide::Picture(p, kind) => {
            let f = job.picture_format()?;
            // The writers stream from the untiled buffer itself (no copy).
            let tex = dds_shape(t, &linear[..]);
            crate::picture::warn_if_decoded(*kind, &f);
            match kind {
                PicKind::Ktx2(opt) => write_ktx2(p, &f, &tex, *opt)?,
                _ => write_dds(p, &f, &tex)?,
            }
            eprintln!("wrote {} ({}, {} {})", p.display(), texture_words(t), f.name(), f.id_name());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// One note line when the dump (a regular file) holds more than the texture at its offset: a
/// cube or array dump untiled as one layer, or levels left out, reads only part of it.
fn note_larger_dump(job: &Job, t: &Texture) {
    let Ok(meta) = std::fs::metadata(&job.tiled) else { return };
    let end = job.offset.saturating_add(t.size_bytes());
    if meta.is_file() && meta.len() > end {
        eprintln!(
            "note: the texture is {} bytes{} but '{}' holds {} bytes: the last {} are not read \
             (check --type, --layers and --levels)",
            t.size_bytes(),
            if job.offset > 0 { format!(" at offset {}", job.offset) } else { String::new() },
            job.tiled.display(),
            meta.len(),
            meta.len() - end
        );
    }
}

/// `nvsurf tile --texture`: the linear side into a dump (zeros, or `--onto`) at the offset.
pub fn tile(job: &Job) -> CmdResult {
    let t = texture_of(job)?;
    if super::texture_stream::tile(job, t)? {
        return Ok(ExitCode::SUCCESS);
    }
    let linear: Vec<u8> = match &job.linear {
        LinearSide::Raw(p) => match &job.mips {
            Some(m) => m.raw_levels(t, read_linear(t, p)?.to_vec())?,
            None => read_linear(t, p)?.to_vec(),
        },
        LinearSide::Split(dir, kind) => read_split(job, t, dir, *kind)?.to_vec(),
        LinearSide::Picture(p, kind) => {
            let f = job.picture_format()?;
            // Encoding (BC) runs over the job's pool; errors cross threads as text.
            let dds = job.install(|| {
                match kind {
                    PicKind::Ktx2(_) => read_ktx2_with(p, &f, &job.encoding),
                    _ => read_dds_with(p, &f, &job.encoding),
                }
                .map_err(|e| e.to_string())
            })?;
            let want = dds_shape(t, Vec::<u8>::new());
            // --generate-mips rebuilds the lower levels: level 0 alone is enough.
            let levels_ok = dds.levels == want.levels || (job.mips.is_some() && dds.levels == 1);
            if (dds.extent, dds.layers, dds.cube) != (want.extent, want.layers, want.cube) || !levels_ok {
                return Err(format!(
                    "'{}' holds {} but the texture is {}",
                    p.display(),
                    describe(&dds),
                    describe(&want)
                )
                .into());
            }
            match &job.mips {
                Some(m) => m.dds_levels(t, dds)?,
                None => dds.data,
            }
        }
    };
    if (linear.len() as u64) < t.linear_size_bytes() {
        return Err(Error::BufferTooSmall {
            what: "linear texture input",
            needed: t.linear_size_bytes(),
            got: linear.len() as u64,
        }
        .into());
    }
    let mut linear = linear;
    if let Some(m) = &job.mips {
        m.regenerate_linear(&mut linear, job.pool.as_ref())?;
    }
    let end = usize::try_from(job.offset.checked_add(t.size_bytes()).ok_or("offset + texture size overflows")?)?;
    let offset = usize::try_from(job.offset)?;
    let fill = |tiled: &mut [u8]| tile_whole(job, t, &linear, tiled);
    match job.onto {
        Some(base) if job.in_place => crate::io::inplace::patch_in_place(base, offset, end - offset, fill)?,
        Some(base) => patch_onto(base, &job.tiled, offset, end - offset, fill)?,
        None => {
            let mut dump = LineAligned::zeroed("texture dump", end - offset)?;
            fill(&mut dump)?;
            crate::io::write_sparse(&job.tiled, end as u64, offset as u64, &dump)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The packed linear texture from one file: only the bytes the texture uses are read.
fn read_linear(t: &Texture, p: &Path) -> Res<LineAligned> {
    Ok(LineAligned::read_range(p, 0, t.linear_size_bytes())?.0)
}

/// Writes the packed linear texture `linear` as one file per level and layer in `dir`: raw
/// bytes, or PNGs written band by band (one at a time). Every file's temporary file first,
/// then the renames: an error leaves the old set.
fn write_split(job: &Job, t: &Texture, dir: &Path, kind: SplitKind, linear: &[u8]) -> Res<()> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create '{}': {e}", dir.display()))?;
    let png = match kind {
        SplitKind::Png => {
            let f = job.picture_format()?;
            super::surface::warn_if_lossy(&f);
            Some(f)
        }
        SplitKind::Raw => None,
    };
    let mut group = crate::io::Group::new();
    for sub in t.subresources() {
        let a = sub.linear_offset_bytes as usize;
        let bytes = &linear[a..a + sub.linear_size_bytes as usize];
        let path = dir.join(split_name(sub.level, sub.layer, kind));
        match &png {
            None => crate::io::stage_bytes(&mut group, &path, bytes)?,
            Some(f) => {
                let e = level_extent(t, sub.level)?;
                let rows = super::stream::band_rows(e.row_bytes(f) as u64, e.to_elements(f).height);
                crate::picture::stage_png(
                    &mut group,
                    &path,
                    f,
                    e,
                    bytes,
                    (job.png_compression, rows, job.pool.as_ref()),
                )?;
            }
        }
    }
    group.commit()
}

/// The size in pixels of `level` of `t`.
fn level_extent(t: &Texture, level: u32) -> Res<Extent<Texels>> {
    let [w, h, d] = t.level(level)?.texels.to_array();
    Ok(Extent::<Texels>::new(w, h, d))
}

/// One file of a `--split` directory: its raw bytes (one byte more than the level, at most:
/// enough to tell a longer file), or a PNG of the level's size encoded to the format.
fn read_split_file(job: &Job, t: &Texture, sub: &Subresource, p: &Path, kind: SplitKind) -> Res<Vec<u8>> {
    match kind {
        SplitKind::Raw => Ok(LineAligned::read_range(p, 0, sub.linear_size_bytes.saturating_add(1))?.0.to_vec()),
        SplitKind::Png => {
            let f = job.picture_format()?;
            let e = level_extent(t, sub.level)?;
            let at = (sub.level, sub.layer);
            let read = || {
                crate::picture::read_surface_as_with(
                    PicKind::Png,
                    p,
                    &f,
                    e.depth,
                    Some((e, "level")),
                    &job.encoding,
                    at,
                )
                .map_err(|e| e.to_string())
            };
            Ok(job.install(read)?.1)
        }
    }
}

/// The packed linear texture from a `--split` directory; each file must be exactly its level.
fn read_split(job: &Job, t: &Texture, dir: &Path, kind: SplitKind) -> Res<LineAligned> {
    let n = usize::try_from(t.linear_size_bytes())?;
    let mut v = LineAligned::zeroed("linear texture", n)?;
    for sub in t.subresources() {
        let p = dir.join(split_name(sub.level, sub.layer, kind));
        let b = read_split_file(job, t, &sub, &p, kind)?;
        if b.len() as u64 != sub.linear_size_bytes {
            let size = if b.len() as u64 > sub.linear_size_bytes { "more than" } else { "only" };
            return Err(format!(
                "'{}' holds {size} {} bytes but level {} of layer {} is {} bytes",
                p.display(),
                b.len().min(sub.linear_size_bytes as usize),
                sub.level,
                sub.layer,
                sub.linear_size_bytes
            )
            .into());
        }
        let at = sub.linear_offset_bytes as usize;
        v[at..at + b.len()].copy_from_slice(&b);
    }
    Ok(v)
}

/// Untiles a whole texture into a new packed linear buffer: split by level and layer (and
/// within large levels) over the pool, or on this thread when there is none (`--threads 1`).
/// With a progress bar the subresources go one after the other, each split over the pool, and
/// the bar counts their bytes.
fn untile_whole(job: &Job, t: &Texture, dump: &[u8]) -> Res<LineAligned> {
    // The dump is checked before the output is allocated.
    t.check_dump(dump.len() as u64)?;
    let n = usize::try_from(t.linear_size_bytes()).map_err(|_| Error::Overflow {
        what: "linear texture size",
        detail: format!("{} bytes do not fit in memory", t.linear_size_bytes()),
    })?;
    let mut out = LineAligned::zeroed("linear texture", n)?;
    match progress_bar(t.size_bytes(), t.size_bytes(), "untile") {
        None if job.pool.is_none() => t.untile_with(dump, &mut out, &CopyOptions::default())?,
        None => job.install(|| t.untile_with(dump, &mut out, &CopyOptions::default().threads(Threads::CurrentPool)))?,
        Some(bar) => {
            let done = |sub: &Subresource| bar.inc(sub.size_bytes);
            job.install(|| match job.pool {
                None => t.untile_each_with(dump, &mut out, &CopyOptions::default(), done),
                Some(_) => {
                    t.untile_each_with(dump, &mut out, &CopyOptions::default().threads(Threads::CurrentPool), done)
                }
            })?;
            bar.finish_and_clear();
        }
    }
    Ok(out)
}

/// Tiles a whole texture into `dump`, over the pool when there is one (see [`untile_whole`]).
fn tile_whole(job: &Job, t: &Texture, linear: &[u8], dump: &mut [u8]) -> Res<()> {
    let Some(bar) = progress_bar(t.size_bytes(), t.size_bytes(), "tile") else {
        return Ok(job.install(|| match job.pool {
            None => t.tile_with(linear, dump, &CopyOptions::default()),
            Some(_) => t.tile_with(linear, dump, &CopyOptions::default().threads(Threads::CurrentPool)),
        })?);
    };
    // Every subresource's ranges are checked before the first is written.
    t.check_dump(dump.len() as u64)?;
    if (linear.len() as u64) < t.linear_size_bytes() {
        let got = linear.len() as u64;
        return Err(Error::BufferTooSmall { what: "linear texture input", needed: t.linear_size_bytes(), got }.into());
    }
    let done = |sub: &Subresource| bar.inc(sub.size_bytes);
    job.install(|| match job.pool {
        None => t.tile_each_with(linear, dump, &CopyOptions::default(), done),
        Some(_) => t.tile_each_with(linear, dump, &CopyOptions::default().threads(Threads::CurrentPool), done),
    })?;
    bar.finish_and_clear();
    Ok(())
}
