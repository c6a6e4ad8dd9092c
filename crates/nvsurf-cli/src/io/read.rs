//! Reading inputs: only the bytes a command needs, into line-aligned buffers ([`LineAligned`]).
//! Regular files are sought; pipes, FIFOs and devices are read forward. A short file is
//! reported with what it holds and what was expected.

use nvsurf::tile;
use std::path::Path;

/// `len` bytes at `offset` of `path` (only those are read), or the error "input 'PATH' holds N
/// bytes but the WHAT needs LEN bytes at offset OFFSET".
pub fn read_part(path: &Path, offset: u64, len: u64, what: &str) -> Result<LineAligned, Box<dyn std::error::Error>> {
    let (part, end) = LineAligned::read_range(path, offset, len)?;
    if (part.len() as u64) < len {
        return Err(format!(
            "input '{}' holds {end} bytes but the {what} needs {len} bytes at offset {offset}",
            path.display()
        )
        .into());
    }
    Ok(part)
}

/// `len` bytes at `offset` of `path` in a plain vector (for readers that need no alignment),
/// fewer when the file ends first, and where it ended (as [`LineAligned::read_range`]). A pipe
/// or device is read in bands (1 MiB, then doubling up to `len`), so a stream that ends early
/// costs about what it held; the caller checks `len` against the memory budget first.
pub fn read_vec(path: &Path, offset: u64, len: u64) -> Result<(Vec<u8>, u64), Box<dyn std::error::Error>> {
    let (f, meta) = open_input(path)?;
    read_vec_from(f, &meta, path, offset, len)
}

/// [`read_vec`] of the opened `path` (`f`, with its `meta`).
fn read_vec_from(
    mut f: std::fs::File,
    meta: &std::fs::Metadata,
    path: &Path,
    offset: u64,
    len: u64,
) -> Result<(Vec<u8>, u64), Box<dyn std::error::Error>> {
    use std::io::{Read, Seek};
    let err = |e: std::io::Error| format!("cannot read '{}': {e}", path.display());
    let n = if meta.is_file() { meta.len().saturating_sub(offset).min(len) } else { len };
    if meta.is_file() && n > 0 {
        f.seek(std::io::SeekFrom::Start(offset)).map_err(err)?;
    } else if !meta.is_file() {
        let skipped = std::io::copy(&mut (&mut f).take(offset), &mut std::io::sink()).map_err(err)?;
        if skipped < offset {
            return Ok((Vec::new(), skipped));
        }
    }
    // A regular file's bytes at once; a stream's in bands that double (1 MiB first), never
    // past `len`.
    let first = if meta.is_file() { n } else { n.min(1 << 20) };
    let mut buf: Vec<u8> = Vec::new();
    while (buf.len() as u64) < n {
        let filled = buf.len();
        let grow = usize::try_from((n - filled as u64).min((filled as u64).max(first)))?;
        buf.try_reserve_exact(grow)
            .map_err(|_| format!("cannot allocate {} bytes for '{}'", filled + grow, path.display()))?;
        buf.resize(filled + grow, 0);
        let got = read_full(&mut f, &mut buf[filled..]).map_err(err)?;
        if got < grow {
            buf.truncate(filled + got);
            break;
        }
    }
    let end = offset.saturating_add(buf.len() as u64);
    Ok((buf, end))
}

/// The library's line-aligned buffer ([`tile::AlignedBuf`]: the AVX-512 gob and chunk kernels
/// and the streaming stores run only on line-aligned buffers), with the CLI's file readers.
pub struct LineAligned(tile::AlignedBuf);

impl LineAligned {
    /// `len` zero bytes, or an error naming `what` when memory runs out.
    pub fn zeroed(what: &str, len: usize) -> Result<Self, Box<dyn std::error::Error>> {
        // The message names the bytes allocated, the buffer's and the 63 of alignment slack.
        let n = len.checked_add(63).unwrap_or(len);
        let buf = tile::AlignedBuf::zeroed(len).map_err(|_| format!("cannot allocate {n} bytes for the {what}"))?;
        Ok(LineAligned(buf))
    }

    /// Bytes `offset..offset + len` of a file, fewer when the file ends first, and where the
    /// file ended: `offset + len` when it holds them all, else its length. Only these bytes are
    /// read and held (a 16 KiB surface in an 8 GiB dump costs 16 KiB). Regular files are sought;
    /// pipes, FIFOs and devices (`--input /dev/stdin`) are read, skipping `offset` bytes first.
    /// Every caller bounds `len` by a surface or sample size, so a device that never ends
    /// (`/dev/zero`) is read only that far; the one whole-file reader, `patch_onto` (module `patch`), refuses
    /// devices itself.
    pub fn read_range(path: &Path, offset: u64, len: u64) -> Result<(Self, u64), Box<dyn std::error::Error>> {
        use std::io::{Read, Seek};
        let err = |e: std::io::Error| format!("cannot read '{}': {e}", path.display());
        let (mut f, meta) = open_input(path)?;
        let want_end = offset.saturating_add(len);
        if meta.is_file() {
            let n = usize::try_from(meta.len().saturating_sub(offset).min(len))?;
            let mut out = Self::zeroed("input file", n)?;
            if n > 0 {
                f.seek(std::io::SeekFrom::Start(offset)).map_err(err)?;
                f.read_exact(&mut out).map_err(err)?;
            }
            return Ok((out, meta.len().min(want_end)));
        }
        // Read in bands that double, never past `len` ([`read_vec`]): a device that never ends
        // (`/dev/zero`) costs the declared size, which the caller checked against the budget.
        let (buf, end) = read_vec_from(f, &meta, path, offset, len)?;
        Ok((Self::from_vec(buf)?, end))
    }

    /// The pieces of a surface of `surface_bytes` bytes at `offset` in a file, each at its
    /// place in a [`tile::Window`]'s bytes, and where the file ended: `offset + surface_bytes`
    /// when it holds the whole surface, else its length (the buffer is then empty or partly
    /// filled, and the caller reports the short file as for [`LineAligned::read_range`]).
    /// Regular files are sought piece by piece, their length taken from their metadata; pipes,
    /// FIFOs and devices are read forward (the pieces are in increasing order), the gaps
    /// between pieces and the rest of the surface after the last one read and dropped, so that
    /// a short pipe is found too. Only the pieces are held: a 256x256 box of a 4 GiB surface
    /// costs its blocks. Pieces whose places do not tile the window they add up to are an
    /// error ([`tile::check_places`]).
    pub fn read_pieces(
        path: &Path,
        offset: u64,
        pieces: &[tile::Piece],
        surface_bytes: u64,
    ) -> Result<(Self, u64), Box<dyn std::error::Error>> {
        use std::io::Read;
        let err = |e: std::io::Error| format!("cannot read '{}': {e}", path.display());
        let (mut f, meta) = open_input(path)?;
        let want_end = offset.saturating_add(surface_bytes);
        let total = pieces.iter().map(|p| p.len_bytes).sum::<u64>();
        tile::check_places(pieces, total)?;
        if meta.is_file() && meta.len() < want_end {
            return Ok((Self::zeroed("input file", 0)?, meta.len()));
        }
        let mut out = Self::zeroed("input file", usize::try_from(total)?)?;
        if meta.is_file() {
            read_pieces_at(&mut f, offset, pieces, &mut out).map_err(err)?;
            return Ok((out, want_end));
        }
        // Each piece's place in `out`, checked above.
        let place = |p: &tile::Piece| p.window_offset_bytes as usize..(p.window_offset_bytes + p.len_bytes) as usize;
        // Forward only: `pos` bytes of the stream have gone (from its start).
        let skip = |f: &mut std::fs::File, n: u64| std::io::copy(&mut f.take(n), &mut std::io::sink());
        let mut pos = skip(&mut f, offset).map_err(err)?;
        for p in pieces {
            let start = offset + p.offset_bytes;
            if pos < start {
                pos += skip(&mut f, start - pos).map_err(err)?;
            }
            let got = read_full(&mut f, &mut out[place(p)]).map_err(err)?;
            pos += got as u64;
            if (got as u64) < p.len_bytes || pos < start + p.len_bytes {
                return Ok((out, pos));
            }
        }
        if pos < want_end {
            pos += skip(&mut f, want_end - pos).map_err(err)?;
        }
        Ok((out, pos))
    }

    /// Moves `buf`'s bytes onto a line boundary inside its own allocation (63 bytes more).
    fn from_vec(buf: Vec<u8>) -> Result<Self, Box<dyn std::error::Error>> {
        let len = buf.len();
        let buf = tile::AlignedBuf::from_vec(buf)
            .map_err(|_| format!("cannot allocate {} bytes for the input file", len + 63))?;
        Ok(LineAligned(buf))
    }
}

/// `path` opened for reading, with its metadata; a directory is refused.
fn open_input(path: &Path) -> Result<(std::fs::File, std::fs::Metadata), Box<dyn std::error::Error>> {
    let err = |e: std::io::Error| format!("cannot read '{}': {e}", path.display());
    let f = std::fs::File::open(path).map_err(err)?;
    let meta = f.metadata().map_err(err)?;
    if meta.is_dir() {
        return Err(format!("cannot read '{}': it is a directory", path.display()).into());
    }
    Ok((f, meta))
}

/// Reads `pieces` of the surface at `offset` in the seekable file `f` into `out`, each at its
/// place in the window ([`tile::Window::gather`] from a file). A place outside `out` is an
/// `InvalidInput` error, not a panic.
pub fn read_pieces_at(
    f: &mut std::fs::File,
    offset: u64,
    pieces: &[tile::Piece],
    out: &mut [u8],
) -> std::io::Result<()> {
    use std::io::{Read, Seek};
    for p in pieces {
        let place = usize::try_from(p.window_offset_bytes)
            .ok()
            .and_then(|at| Some(at..at.checked_add(usize::try_from(p.len_bytes).ok()?)?))
            .and_then(|r| out.get_mut(r))
            .ok_or_else(|| {
                std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("{p:?} lies outside the window"))
            })?;
        f.seek(std::io::SeekFrom::Start(offset + p.offset_bytes))?;
        f.read_exact(place)?;
    }
    Ok(())
}

/// Reads until `buf` is full or the stream ends; how many bytes came.
pub(crate) fn read_full(r: &mut impl std::io::Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match r.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

impl std::ops::Deref for LineAligned {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl std::ops::DerefMut for LineAligned {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.0
    }
}
