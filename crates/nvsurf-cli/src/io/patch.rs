//! `tile --onto`: a dump patched with new bytes for one surface (or one box's window), the rest
//! copied as it is, the output replaced atomically.

use super::copy::{cannot_write, copy_extents, copy_stream};
use super::read::{read_full, LineAligned};
use super::write::with_temp;
use nvsurf::tile;
use std::io::Write;
use std::path::Path;

/// `tile ... --onto BASE --output OUT`: OUT becomes a copy of BASE whose `len` bytes at
/// `offset` are replaced by what `fill` makes of BASE's own bytes there (a tiled box keeps the
/// bytes around it). Only those `len` bytes are held in memory: the rest of BASE goes to OUT as
/// it is read; between regular files only BASE's data extents are copied, so a sparse dump
/// stays sparse ([`super::copy::copy_extents`]). Patching a
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
        let wrote = cannot_write(out);
        let dst_regular = counted.0.metadata().map_err(&wrote)?.is_file();
        if meta.is_file() && dst_regular {
            // Regular files: BASE's data extents around the surface, at their offsets (holes
            // stay holes), then the surface's new bytes.
            use std::os::unix::fs::FileExt;
            copy_extents(&src, base, &counted.0, out, 0, offset as u64)?;
            copy_extents(&src, base, &counted.0, out, end as u64, meta.len())?;
            src.read_exact_at(&mut span, offset as u64).map_err(err)?;
            fill(&mut span)?;
            super::hooks::before_write().map_err(&wrote)?;
            counted.0.write_all_at(&span, offset as u64).map_err(&wrote)?;
            counted.0.set_len(meta.len()).map_err(&wrote)?;
            return Ok(());
        }
        let mut src = &src;
        let head = copy_stream(&mut src, base, counted, out, Some(offset as u64))?;
        let got = if head == offset as u64 { read_full(&mut src, &mut span).map_err(err)? } else { 0 };
        if head < offset as u64 || got < len {
            return Err(short(head + got as u64));
        }
        fill(&mut span)?;
        counted.write_all(&span).map_err(&wrote)?;
        copy_stream(&mut src, base, counted, out, None)?;
        Ok(())
    })
}

/// [`patch_onto`] band by band, between regular files: OUT gets BASE's data extents (holes stay
/// holes) outside the pieces of `windows` (windows of the `len` bytes at `offset`, none
/// overlapping; what they leave uncovered, such as the gaps between a texture's levels, keeps
/// BASE's bytes); then for each `(band, window)`, the window's pieces are read from BASE,
/// `fill` tiles the band into them, and they are written at their offsets of OUT.
/// One window is held at a time. `Ok(false)`, with nothing read or written, when BASE or OUT is
/// not a regular file (or a new path): the caller then holds the surface ([`patch_onto`]).
pub fn patch_bands_onto<T>(
    base: &Path,
    out: &Path,
    (offset, len): (usize, usize),
    windows: Vec<(T, tile::Window)>,
    mut fill: impl FnMut(&T, &tile::Window, &mut [u8]) -> Result<(), Box<dyn std::error::Error>>,
) -> Result<bool, Box<dyn std::error::Error>> {
    let end = offset.checked_add(len).ok_or("--offset + surface size overflows")?;
    let err =
        |e: std::io::Error| -> Box<dyn std::error::Error> { format!("cannot read '{}': {e}", base.display()).into() };
    let meta = std::fs::metadata(base).map_err(err)?;
    if !meta.is_file() || std::fs::metadata(out).is_ok_and(|m| !m.is_file()) {
        return Ok(false);
    }
    if meta.len() < end as u64 {
        return Err(
            format!("--onto '{}' holds {} bytes but {end} bytes are expected", base.display(), meta.len()).into()
        );
    }
    let mut src = std::fs::File::open(base).map_err(err)?;
    let mut win: Option<LineAligned> = None;
    with_temp(out, |counted| {
        let wrote = cannot_write(out);
        for (from, to) in uncovered(&windows, offset as u64, (end as u64, meta.len())) {
            copy_extents(&src, base, &counted.0, out, from, to)?;
        }
        for (band, w) in &windows {
            let n = usize::try_from(w.size_bytes())?;
            if win.as_ref().is_none_or(|b| b.len() < n) {
                win = Some(LineAligned::zeroed("--onto band window", n)?);
            }
            let buf = &mut win.as_mut().ok_or("no window buffer")?[..n];
            super::read::read_pieces_at(&mut src, offset as u64, &w.pieces, buf).map_err(err)?;
            fill(band, w, buf)?;
            write_window_pieces(&counted.0, out, offset as u64, w, buf)?;
        }
        counted.0.set_len(meta.len()).map_err(&wrote)?;
        Ok(())
    })?;
    Ok(true)
}

/// Writes the pieces of window `w` (its bytes `buf`) into `file` (`out` for messages) at
/// `offset` plus each piece's offset, then starts the writeback of the span they cover, once
/// for the window (not once a piece: a pitch window has a piece a row).
pub fn write_window_pieces(
    file: &std::fs::File,
    out: &Path,
    offset: u64,
    w: &tile::Window,
    buf: &[u8],
) -> Result<(), Box<dyn std::error::Error>> {
    use std::os::unix::fs::FileExt;
    let wrote = cannot_write(out);
    let (mut first, mut last) = (u64::MAX, 0u64);
    for p in &w.pieces {
        let at = usize::try_from(p.window_offset_bytes)?;
        let piece = buf.get(at..at + usize::try_from(p.len_bytes)?).ok_or("a window piece lies outside its window")?;
        super::hooks::before_write().map_err(&wrote)?;
        let to = offset + p.offset_bytes;
        file.write_all_at(piece, to).map_err(&wrote)?;
        (first, last) = (first.min(to), last.max(to + p.len_bytes));
    }
    if first < last {
        super::writeback::start(file, first, last - first);
    }
    Ok(())
}

/// The byte ranges of a file of `len` bytes that no piece of `windows` (counted from `offset`)
/// covers, in order: before `offset`, the gaps between pieces, and from the last piece's end
/// (at least `end`) to `len`.
fn uncovered<T>(windows: &[(T, tile::Window)], offset: u64, (end, len): (u64, u64)) -> Vec<(u64, u64)> {
    let mut pieces: Vec<(u64, u64)> = windows
        .iter()
        .flat_map(|(_, w)| w.pieces.iter().map(|p| (offset + p.offset_bytes, offset + p.offset_bytes + p.len_bytes)))
        .collect();
    pieces.sort_unstable();
    let mut gaps = Vec::new();
    let mut at = 0u64;
    for (a, b) in pieces {
        if a > at {
            gaps.push((at, a));
        }
        at = at.max(b);
    }
    let last = at.max(end).min(len);
    if at < last {
        gaps.push((at, last));
    }
    if last < len {
        gaps.push((last, len));
    }
    gaps
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
    use std::io::Seek;
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
        let wrote = cannot_write(out);
        if counted.0.metadata().map_err(&wrote)?.is_file() {
            // BASE's data extents (holes stay holes), then the pieces' new bytes in place.
            use std::os::unix::fs::FileExt;
            copy_extents(&src, base, &counted.0, out, 0, meta.len())?;
            for p in &w.pieces {
                // Inside `win` (`read_pieces` checked every piece against it).
                let (at, n) = (p.window_offset_bytes as usize, p.len_bytes as usize);
                super::hooks::before_write().map_err(&wrote)?;
                counted.0.write_all_at(&win[at..at + n], offset as u64 + p.offset_bytes).map_err(&wrote)?;
            }
            counted.0.set_len(meta.len()).map_err(&wrote)?;
            return Ok(());
        }
        // A device output (written in place): BASE up to each piece, then the piece's new
        // bytes; BASE's rest after the last.
        let mut src = &src;
        let mut pos = 0u64;
        for p in &w.pieces {
            let start = offset as u64 + p.offset_bytes;
            src.seek(std::io::SeekFrom::Start(pos)).map_err(err)?;
            copy_stream(&mut src, base, counted, out, Some(start - pos))?;
            // Inside `win` (`read_pieces` checked every piece against it).
            let (at, n) = (p.window_offset_bytes as usize, p.len_bytes as usize);
            counted.write_all(&win[at..at + n]).map_err(&wrote)?;
            pos = start + p.len_bytes;
        }
        src.seek(std::io::SeekFrom::Start(pos)).map_err(err)?;
        copy_stream(&mut src, base, counted, out, None)?;
        Ok(())
    })
}

/// Writes `bytes` at `offset` of a new file `out` of `total` bytes (`offset + bytes.len() <=
/// total`), replaced atomically as by [`super::write_atomic`]: the rest is zeros, left as holes
/// in a regular file (a surface 2 GiB into a dump costs its own bytes, not 2 GiB of zeros);
/// a device or FIFO output gets the zeros written.
pub fn write_sparse(out: &Path, total: u64, offset: u64, bytes: &[u8]) -> Result<(), Box<dyn std::error::Error>> {
    let end =
        offset.checked_add(bytes.len() as u64).filter(|&e| e <= total).ok_or("the surface lies outside the file")?;
    with_temp(out, |counted| {
        let wrote = cannot_write(out);
        if counted.0.metadata().map_err(&wrote)?.is_file() {
            use std::os::unix::fs::FileExt;
            counted.0.set_len(total).map_err(&wrote)?;
            super::hooks::before_write().map_err(&wrote)?;
            counted.0.write_all_at(bytes, offset).map_err(&wrote)?;
            return Ok(());
        }
        let dst = counted;
        let zeros = vec![0u8; 1 << 20];
        let put_zeros = |mut n: u64, dst: &mut super::write::OutFile| -> Result<(), Box<dyn std::error::Error>> {
            while n > 0 {
                let k = n.min(zeros.len() as u64) as usize;
                dst.write_all(&zeros[..k]).map_err(&wrote)?;
                n -= k as u64;
            }
            Ok(())
        };
        put_zeros(offset, dst)?;
        dst.write_all(bytes).map_err(&wrote)?;
        put_zeros(total - end, dst)
    })
}
