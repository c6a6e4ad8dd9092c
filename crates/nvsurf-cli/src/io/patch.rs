//! `tile --onto`: a dump patched with new bytes for one surface (or one box's window), the rest
//! copied as it is, the output replaced atomically.

use super::read::{read_full, LineAligned};
use super::write::with_temp;
use nvsurf::tile;
use std::io::Write;
use std::path::Path;

/// `tile ... --onto BASE --output OUT`: OUT becomes a copy of BASE whose `len` bytes at
/// `offset` are replaced by what `fill` makes of BASE's own bytes there (a tiled box keeps the
/// bytes around it). Only those `len` bytes are held in memory: the rest of BASE goes to OUT as
/// it is read, by the kernel where both are regular files (Linux `copy_file_range`). Patching a
/// 256 KiB surface into a dump of gigabytes used to read the whole dump into memory and write
/// it back from there; it now holds 256 KiB. OUT is replaced atomically as by [`write_atomic`]
/// (`--onto` and `--output` may name the same file). BASE may be a pipe or FIFO; a device
/// (`/dev/zero`) has no known end and is refused. A BASE shorter than `offset + len` is an
/// error naming both lengths, raised before OUT is touched when BASE is a regular file (a
/// pipe's length is only known once read: a temporary file is then removed, but a device OUT
/// such as `/dev/stdout` has had BASE's first bytes).
pub fn patch_onto(
    base: &Path,
    out: &Path,
    offset: usize,
    len: usize,
    fill: impl FnOnce(&mut [u8]) -> Result<(), Box<dyn std::error::Error>>,
) -> Result<(), Box<dyn std::error::Error>> {
    use std::io::Read;
    let end = offset.checked_add(len).ok_or("--offset + surface size overflows")?;
    let short = |got: u64| -> Box<dyn std::error::Error> {
        format!("--onto '{}' holds {got} bytes but {end} bytes are expected", base.display()).into()
    };
    let err =
        |e: std::io::Error| -> Box<dyn std::error::Error> { format!("cannot read '{}': {e}", base.display()).into() };
    let src = std::fs::File::open(base).map_err(err)?;
    let meta = src.metadata().map_err(err)?;
    if meta.is_dir() {
        return Err(format!("cannot read '{}': it is a directory", base.display()).into());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_char_device() || t.is_block_device() {
            return Err(format!(
                "cannot read '{}' whole: it is a device, whose end is unknown; give a regular file or a pipe",
                base.display()
            )
            .into());
        }
    }
    if meta.is_file() && meta.len() < end as u64 {
        return Err(short(meta.len()));
    }
    let mut span = LineAligned::zeroed("--onto surface", len)?;
    with_temp(out, |counted| {
        let wrote = |e: std::io::Error| -> Box<dyn std::error::Error> {
            format!("cannot write '{}': {e}", out.display()).into()
        };
        // The kernel's copies go to the file itself (`&counted.0`), the patched bytes through
        // the write hooks.
        let mut src = &src;
        // Both copies go through `std::io::copy`, which hands file-to-file copies to the kernel.
        let head = std::io::copy(&mut src.take(offset as u64), &mut &counted.0).map_err(err)?;
        let got = if head == offset as u64 { read_full(&mut src, &mut span).map_err(err)? } else { 0 };
        if head < offset as u64 || got < len {
            return Err(short(head + got as u64));
        }
        fill(&mut span)?;
        counted.write_all(&span).map_err(wrote)?;
        std::io::copy(&mut src, &mut &counted.0).map_err(err)?;
        Ok(())
    })
}

/// [`patch_onto`] for a box: only the box's window `w` (a [`tile::Window`] of the surface of
/// `len` bytes at `offset`) is read from BASE, given to `fill` (the window's bytes, each piece
/// at its place) and written back in place of its pieces; everything else of BASE goes
/// to OUT as it is. A 256x256 box of a 4 GiB surface then holds its blocks, not the surface.
/// BASE is read at the pieces' offsets where it is a regular file; a pipe or FIFO goes through
/// [`patch_onto`] (which holds the surface) with the window gathered from it and scattered back.
pub fn patch_window_onto(
    base: &Path,
    out: &Path,
    offset: usize,
    len: usize,
    w: &tile::Window,
    fill: impl FnOnce(&mut [u8]) -> Result<(), Box<dyn std::error::Error>>,
) -> Result<(), Box<dyn std::error::Error>> {
    use std::io::{Read, Seek};
    let end = offset.checked_add(len).ok_or("--offset + surface size overflows")?;
    let err =
        |e: std::io::Error| -> Box<dyn std::error::Error> { format!("cannot read '{}': {e}", base.display()).into() };
    let meta = std::fs::metadata(base).map_err(err)?;
    if !meta.is_file() {
        return patch_onto(base, out, offset, len, |span| {
            let mut win = LineAligned::zeroed("--onto window", usize::try_from(w.size_bytes())?)?;
            w.gather(span, &mut win)?;
            fill(&mut win)?;
            w.scatter(&win, span)?;
            Ok(())
        });
    }
    if meta.len() < end as u64 {
        return Err(
            format!("--onto '{}' holds {} bytes but {end} bytes are expected", base.display(), meta.len()).into()
        );
    }
    let (mut win, got) = LineAligned::read_pieces(base, offset as u64, &w.pieces, len as u64)?;
    if got < end as u64 {
        // BASE shrank since its length was read.
        return Err(format!("--onto '{}' holds {got} bytes but {end} bytes are expected", base.display()).into());
    }
    fill(&mut win)?;
    let src = std::fs::File::open(base).map_err(err)?;
    with_temp(out, |counted| {
        let wrote = |e: std::io::Error| -> Box<dyn std::error::Error> {
            format!("cannot write '{}': {e}", out.display()).into()
        };
        // The kernel's copies go to the file itself (`&counted.0`), the patched bytes through
        // the write hooks.
        let mut src = &src;
        // BASE up to each piece, then the piece's new bytes; BASE's rest after the last. The
        // copies go through `std::io::copy` (the kernel's `copy_file_range` between files).
        let mut pos = 0u64;
        for p in &w.pieces {
            let start = offset as u64 + p.offset_bytes;
            src.seek(std::io::SeekFrom::Start(pos)).map_err(err)?;
            std::io::copy(&mut src.take(start - pos), &mut &counted.0).map_err(err)?;
            // Inside `win` (`read_pieces` checked every piece against it).
            let (at, n) = (p.window_offset_bytes as usize, p.len_bytes as usize);
            counted.write_all(&win[at..at + n]).map_err(wrote)?;
            pos = start + p.len_bytes;
        }
        src.seek(std::io::SeekFrom::Start(pos)).map_err(err)?;
        std::io::copy(&mut src, &mut &counted.0).map_err(err)?;
        Ok(())
    })
}
