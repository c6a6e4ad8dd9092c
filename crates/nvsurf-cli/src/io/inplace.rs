//! `tile --onto FILE --in-place`: a very large dump patched where it lies, under an undo
//! journal. Before the first byte of FILE changes, the old bytes of the window (the surface's
//! byte range, or a box's pieces) go to `.FILE.nvsurf-journal` beside it, with a header naming
//! the target, the offsets and lengths, and a checksum; the journal and its directory are
//! fsynced. FILE is then patched in place and fsynced, and the journal removed. A run that
//! finds a journal ([`super::leftovers::notice_dir`], `tile`, `nvsurf clean`) rolls the patch
//! back first ([`roll_back`]): FILE is then whole, old, whatever moment a kill came at. A
//! journal that is not whole (a kill while it was written) means FILE was not touched yet; it
//! is removed. The journal is the write-ahead undo log of databases (e.g. SQLite's rollback
//! journal, <https://www.sqlite.org/atomiccommit.html>), reduced to one set of byte ranges.

use super::files::JOURNAL_SUFFIX;
use super::hooks::before_write;
use super::read::LineAligned;
use nvsurf::tile;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// The first bytes of a journal (format version 1).
const MAGIC: &[u8; 16] = b"NVSURF-JOURNAL1\n";

/// FNV-1a, 64 bits (Fowler, Noll and Vo; parameters from
/// <http://www.isthe.com/chongo/tech/comp/fnv/>): enough to tell a journal cut short or torn
/// by a crash, which is all it guards against.
fn fnv1a(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// The journal of `file`: `.NAME.nvsurf-journal` in its directory.
pub fn journal_path(file: &Path) -> Res<PathBuf> {
    let name = file.file_name().ok_or_else(|| format!("--onto '{}' is not a file name", file.display()))?;
    Ok(file.with_file_name(format!(".{}{JOURNAL_SUFFIX}", name.to_string_lossy())))
}

/// `tile --onto FILE --in-place` of a whole surface: the `len` bytes of FILE at `offset` are
/// given to `fill` and written back in place, under an undo journal.
pub fn patch_in_place(file: &Path, offset: usize, len: usize, fill: impl FnOnce(&mut [u8]) -> Res<()>) -> Res<()> {
    let whole = [tile::Piece { offset_bytes: 0, len_bytes: len as u64, window_offset_bytes: 0 }];
    patch_pieces(file, offset as u64, len as u64, &whole, fill)
}

/// [`patch_in_place`] for a box: only the pieces of its window `w` are read, journaled and
/// rewritten (`fill` gets the window's bytes, as for [`super::patch_window_onto`]).
pub fn patch_window_in_place(
    file: &Path,
    offset: usize,
    len: usize,
    w: &tile::Window,
    fill: impl FnOnce(&mut [u8]) -> Res<()>,
) -> Res<()> {
    patch_pieces(file, offset as u64, len as u64, &w.pieces, fill)
}

/// The ranges of FILE the pieces cover: (file offset, length, offset in the window buffer).
fn ranges(offset: u64, pieces: &[tile::Piece]) -> Res<Vec<(u64, u64, usize)>> {
    pieces
        .iter()
        .map(|p| {
            let at = offset.checked_add(p.offset_bytes).ok_or("--offset + piece offset overflows")?;
            Ok((at, p.len_bytes, usize::try_from(p.window_offset_bytes)?))
        })
        .collect()
}

fn patch_pieces(
    file: &Path,
    offset: u64,
    surface_bytes: u64,
    pieces: &[tile::Piece],
    fill: impl FnOnce(&mut [u8]) -> Res<()>,
) -> Res<()> {
    let cannot = |e: &dyn std::fmt::Display| -> Box<dyn std::error::Error> {
        format!("cannot write '{}': {e}", file.display()).into()
    };
    let meta = std::fs::metadata(file).map_err(|e| format!("cannot read '{}': {e}", file.display()))?;
    if !meta.is_file() {
        return Err(
            format!("--onto '{}' is not a regular file; --in-place patches regular files", file.display()).into()
        );
    }
    super::files::check_mode(file, &meta)?;
    let end = offset.checked_add(surface_bytes).ok_or("--offset + surface size overflows")?;
    if meta.len() < end {
        return Err(
            format!("--onto '{}' holds {} bytes but {end} bytes are expected", file.display(), meta.len()).into()
        );
    }
    let dir = file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    // An earlier patch of this directory's files that a kill interrupted was rolled back by
    // the caller (`leftovers::notice_dir`) before this.
    let (mut win, got) = LineAligned::read_pieces(file, offset, pieces, surface_bytes)?;
    if got < end {
        return Err(format!("--onto '{}' holds {got} bytes but {end} bytes are expected", file.display()).into());
    }
    let ranges = ranges(offset, pieces)?;
    let journal = journal_path(file)?;
    write_journal(file, &journal, meta.len(), &ranges, &win).map_err(|e| cannot(&e))?;
    fill(&mut win).inspect_err(|_| {
        // Nothing was patched yet: the journal has no use.
        let _ = std::fs::remove_file(&journal);
    })?;
    let patched = (|| -> std::io::Result<()> {
        let f = std::fs::OpenOptions::new().write(true).open(file)?;
        for &(at, n, w) in &ranges {
            before_write()?;
            write_at(&f, &win[w..w + n as usize], at)?;
        }
        before_write()?;
        f.sync_all()
    })();
    if let Err(e) = patched {
        // Put the old bytes back now (the journal stays if that fails too, for the next run).
        return Err(match roll_back(&journal) {
            Ok(_) => format!("cannot write '{}': {e} (the patch was rolled back)", file.display()).into(),
            Err(r) => format!("cannot write '{}': {e}; {r}", file.display()).into(),
        });
    }
    before_write().map_err(|e| cannot(&e))?;
    std::fs::remove_file(&journal).map_err(|e| cannot(&e))?;
    super::files::sync_dir(dir);
    Ok(())
}

#[cfg(unix)]
fn write_at(f: &std::fs::File, bytes: &[u8], at: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::write_all_at(f, bytes, at)
}

#[cfg(not(unix))]
fn write_at(mut f: &std::fs::File, bytes: &[u8], at: u64) -> std::io::Result<()> {
    use std::io::Seek;
    f.seek(std::io::SeekFrom::Start(at))?;
    f.write_all(bytes)
}

/// Writes the journal of a patch of `file` (`len` bytes long): the header, the old bytes of
/// each range (from `win`), the checksum; then fsyncs it and its directory. Created
/// exclusively: a journal that is there already belongs to a run still going.
fn write_journal(
    file: &Path,
    journal: &Path,
    len: u64,
    ranges: &[(u64, u64, usize)],
    win: &[u8],
) -> std::io::Result<()> {
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut head = Vec::new();
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&std::process::id().to_le_bytes());
    head.extend_from_slice(&(name.len() as u32).to_le_bytes());
    head.extend_from_slice(name.as_bytes());
    head.extend_from_slice(&len.to_le_bytes());
    head.extend_from_slice(&(ranges.len() as u64).to_le_bytes());
    for &(at, n, _) in ranges {
        head.extend_from_slice(&at.to_le_bytes());
        head.extend_from_slice(&n.to_le_bytes());
    }
    let mut sum = fnv1a(FNV_START, &head);
    let mut f = std::fs::OpenOptions::new().write(true).create_new(true).open(journal).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AlreadyExists {
            std::io::Error::other(format!("another nvsurf run is patching it (journal '{}')", journal.display()))
        } else {
            e
        }
    })?;
    let written = (|| -> std::io::Result<()> {
        before_write()?;
        f.write_all(&head)?;
        for &(_, n, w) in ranges {
            let old = &win[w..w + n as usize];
            sum = fnv1a(sum, old);
            before_write()?;
            f.write_all(old)?;
        }
        before_write()?;
        f.write_all(&sum.to_le_bytes())?;
        before_write()?;
        f.sync_all()
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(journal);
        return Err(e);
    }
    super::files::sync_dir(journal.parent().unwrap_or(Path::new(".")));
    Ok(())
}

/// A journal read back: the target's name, the process that wrote it, and the ranges with
/// their old bytes.
struct Journal {
    pid: u32,
    name: String,
    ranges: Vec<(u64, Vec<u8>)>,
}

/// Reads and checks a journal; `None` when it is not whole (cut short, torn, wrong checksum).
fn read_journal(bytes: &[u8]) -> Option<Journal> {
    let (body, sum) = bytes.split_at_checked(bytes.len().checked_sub(8)?)?;
    if fnv1a(FNV_START, body) != u64::from_le_bytes(sum.try_into().ok()?) {
        return None;
    }
    let mut r = body.strip_prefix(MAGIC)?;
    let mut take = |n: usize| -> Option<&[u8]> {
        let (a, b) = r.split_at_checked(n)?;
        r = b;
        Some(a)
    };
    let pid = u32::from_le_bytes(take(4)?.try_into().ok()?);
    let name_len = u32::from_le_bytes(take(4)?.try_into().ok()?) as usize;
    let name = String::from_utf8(take(name_len)?.to_vec()).ok()?;
    let _len = take(8)?;
    let count = u64::from_le_bytes(take(8)?.try_into().ok()?);
    let mut heads = Vec::new();
    for _ in 0..count {
        let at = u64::from_le_bytes(take(8)?.try_into().ok()?);
        let n = u64::from_le_bytes(take(8)?.try_into().ok()?);
        heads.push((at, n));
    }
    let mut ranges = Vec::new();
    for (at, n) in heads {
        ranges.push((at, take(usize::try_from(n).ok()?)?.to_vec()));
    }
    take(0)?;
    r.is_empty().then_some(Journal { pid, name, ranges })
}

/// Rolls back the interrupted patch a journal records: its old bytes are written back to the
/// target, which is fsynced, and the journal removed (said on stderr). A journal that is not
/// whole is removed (the target was not touched yet). A journal of a run still going is left.
/// Returns whether the journal was dealt with.
pub fn roll_back(journal: &Path) -> Res<bool> {
    let shown = journal.display();
    let mut bytes = Vec::new();
    std::fs::File::open(journal)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read undo journal '{shown}': {e}"))?;
    let dir = journal.parent().unwrap_or(Path::new("."));
    let remove = || -> Res<()> {
        before_write().map_err(|e| format!("cannot remove undo journal '{shown}': {e}"))?;
        std::fs::remove_file(journal).map_err(|e| format!("cannot remove undo journal '{shown}': {e}"))?;
        super::files::sync_dir(dir);
        Ok(())
    };
    let Some(j) = read_journal(&bytes) else {
        // Only this run's own journal or a dead run's is removed; a live one is still writing.
        if bytes.len() >= MAGIC.len() + 4 {
            let pid = u32::from_le_bytes(bytes[16..20].try_into().unwrap_or_default());
            if pid != std::process::id() && super::files::running(pid) {
                return Ok(false);
            }
        }
        remove()?;
        eprintln!("removed the incomplete undo journal '{shown}' (its patch had not started)");
        return Ok(true);
    };
    if j.pid != std::process::id() && super::files::running(j.pid) {
        return Ok(false);
    }
    let name = journal.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if name != format!(".{}{JOURNAL_SUFFIX}", j.name) || j.name.contains('/') {
        return Err(format!("undo journal '{shown}' names another file, '{}'; left as it is", j.name).into());
    }
    let target = journal.with_file_name(&j.name);
    let restored = (|| -> std::io::Result<u64> {
        let f = std::fs::OpenOptions::new().write(true).open(&target)?;
        let mut n = 0;
        for (at, old) in &j.ranges {
            before_write()?;
            write_at(&f, old, *at)?;
            n += old.len() as u64;
        }
        before_write()?;
        f.sync_all()?;
        Ok(n)
    })()
    .map_err(|e| format!("cannot roll back '{}' from its undo journal '{shown}': {e}", target.display()))?;
    remove()?;
    eprintln!(
        "rolled back an interrupted in-place patch of '{}' ({restored} bytes restored from its undo journal)",
        target.display()
    );
    Ok(true)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_journal_cut_or_torn_anywhere_is_not_whole() {
        let tmp = std::env::temp_dir().join(format!("nvsurf-journal-unit-{}", std::process::id()));
        std::fs::create_dir_all(&tmp).unwrap();
        let file = tmp.join("dump.bin");
        let journal = super::journal_path(&file).unwrap();
        let win: Vec<u8> = (0..40u8).collect();
        super::write_journal(&file, &journal, 1000, &[(100, 16, 0), (500, 24, 16)], &win).unwrap();
        let bytes = std::fs::read(&journal).unwrap();
        std::fs::remove_dir_all(&tmp).unwrap();
        let j = super::read_journal(&bytes).unwrap();
        assert_eq!(j.name, "dump.bin");
        assert_eq!(j.ranges, vec![(100, win[..16].to_vec()), (500, win[16..].to_vec())]);
        for cut in 0..bytes.len() {
            assert!(super::read_journal(&bytes[..cut]).is_none(), "cut at {cut}");
        }
        for i in 0..bytes.len() {
            let mut torn = bytes.clone();
            torn[i] ^= 0x40;
            assert!(super::read_journal(&torn).is_none(), "byte {i}");
        }
    }
}
