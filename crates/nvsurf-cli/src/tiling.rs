//! `nvsurf untile` and `nvsurf tile`: raw files between a layout and linear rows.
//!
//! Memory: the input's bytes that the copy uses are read once into memory and the output is
//! built in one buffer, so the peak is about input + output. With `tile --onto`, only the
//! surface's bytes of the base dump are held; the rest is copied file to file ([`patch_onto`]).
//! The output is written to a temporary file beside the target and
//! renamed over it, so an existing file is replaced atomically (a symlink's target is replaced,
//! and devices such as `/dev/stdout` are written in place; see [`with_temp`]); on Linux, Ctrl-C,
//! SIGTERM or SIGHUP during the write removes the temporary file before the signal ends the
//! process (signals the parent ignores stay ignored). A progress bar (indicatif) shows on a
//! terminal for surfaces and whole textures of 64 MiB and more (`NVSURF_PROGRESS=always`: on
//! any copy).

use crate::surface_args::{parse_list, parse_u64, SurfaceArgs};
use crate::CmdResult;
use nvsurf::layout::Surface;
use nvsurf::tile::{self, LinearLayout, Region};
use nvsurf::Error;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Flags shared by `tile` and `untile`.
#[derive(clap::Args)]
pub struct TilingArgs {
    #[command(flatten)]
    pub surface: SurfaceArgs,
    /// Input file (untile: the tiled dump; tile: the linear rows or, with --texture, the packed
    /// linear texture). Not needed by `tile --texture --split DIR`.
    #[arg(long, required_unless_present = "split")]
    pub input: Option<PathBuf>,
    /// Output file (replaced atomically if it exists). Not needed by `untile --texture --split DIR`.
    #[arg(long, required_unless_present = "split")]
    pub output: Option<PathBuf>,
    /// A whole texture (levels and layers, see `nvsurf texture`): --size is level 0 in texels,
    /// the linear side is packed layer by layer, level by level (the order DDS uses).
    #[arg(long)]
    pub texture: bool,
    #[command(flatten)]
    pub tex: crate::texture::TextureShapeArgs,
    /// With --texture: the linear side is one file per level and layer in DIR
    /// (layer<L>_level<M>.bin), instead of --output (untile) or --input (tile).
    #[arg(long, value_name = "DIR", requires = "texture")]
    pub split: Option<PathBuf>,
    /// With --texture: only this mip level of this layer (cube faces count as layers), as a
    /// single surface at its place in the dump: --box, --linear-pitch and PNG/EXR/DDS pictures
    /// apply to it as to any surface. `tile` keeps the rest of --onto, or zeros the rest of the
    /// texture.
    #[arg(long, value_name = "LEVEL,LAYER", requires = "texture", conflicts_with = "split")]
    pub subresource: Option<String>,
    /// Bytes between rows of the linear file (default: tightly packed).
    #[arg(long = "linear-pitch", value_name = "BYTES")]
    pub linear_pitch: Option<String>,
    /// Only this box of elements: X,Y,Z,W,H,D (the linear file holds just the box; of the tiled
    /// file, untile and tile --onto hold only the blocks, row segments or swizzled square that
    /// the box needs, and read only those from a regular file).
    #[arg(long = "box", value_name = "X,Y,Z,W,H,D")]
    pub region: Option<String>,
    /// Worker threads (default: all cores; 1 = the single-thread path).
    #[arg(long, value_parser = crate::surface_args::clap_usize)]
    pub threads: Option<usize>,
    /// Byte offset of the surface inside the tiled file (untile: in --input; tile: in --onto).
    #[arg(long = "offset", value_name = "BYTES", default_value = "0")]
    pub offset: String,
    /// tile only: start from this tiled file instead of zeros (bytes outside the box are kept).
    #[arg(long, value_name = "FILE")]
    pub onto: Option<PathBuf>,
}

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

pub use crate::io::{with_temp, write_atomic};

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
    with_temp(out, |tmp| {
        let wrote = |e: std::io::Error| -> Box<dyn std::error::Error> {
            format!("cannot write '{}': {e}", out.display()).into()
        };
        let mut dst = std::fs::File::create(tmp).map_err(wrote)?;
        let mut src = &src;
        // Both copies go through `std::io::copy`, which hands file-to-file copies to the kernel.
        let head = std::io::copy(&mut src.take(offset as u64), &mut dst).map_err(err)?;
        let got = if head == offset as u64 { read_full(&mut src, &mut span).map_err(err)? } else { 0 };
        if head < offset as u64 || got < len {
            return Err(short(head + got as u64));
        }
        fill(&mut span)?;
        dst.write_all(&span).map_err(wrote)?;
        std::io::copy(&mut src, &mut dst).map_err(err)?;
        if dst.metadata().map_err(wrote)?.is_file() {
            dst.sync_all().map_err(wrote)?;
        }
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
    with_temp(out, |tmp| {
        let wrote = |e: std::io::Error| -> Box<dyn std::error::Error> {
            format!("cannot write '{}': {e}", out.display()).into()
        };
        let mut dst = std::fs::File::create(tmp).map_err(wrote)?;
        let mut src = &src;
        // BASE up to each piece, then the piece's new bytes; BASE's rest after the last. The
        // copies go through `std::io::copy` (the kernel's `copy_file_range` between files).
        let mut pos = 0u64;
        for p in &w.pieces {
            let start = offset as u64 + p.offset_bytes;
            src.seek(std::io::SeekFrom::Start(pos)).map_err(err)?;
            std::io::copy(&mut src.take(start - pos), &mut dst).map_err(err)?;
            // Inside `win` (`read_pieces` checked every piece against it).
            let (at, n) = (p.window_offset_bytes as usize, p.len_bytes as usize);
            dst.write_all(&win[at..at + n]).map_err(wrote)?;
            pos = start + p.len_bytes;
        }
        src.seek(std::io::SeekFrom::Start(pos)).map_err(err)?;
        std::io::copy(&mut src, &mut dst).map_err(err)?;
        if dst.metadata().map_err(wrote)?.is_file() {
            dst.sync_all().map_err(wrote)?;
        }
        Ok(())
    })
}

impl TilingArgs {
    fn region(&self, s: &Surface) -> Result<Region, Error> {
        match &self.region {
            None => Ok(Region::whole(s)),
            Some(b) => {
                let [x, y, z, w, h, d] = parse_list::<6>("box", b)?;
                Ok(Region { x, y, z, w, h, d })
            }
        }
    }

    fn linear(&self, s: &Surface, r: &Region) -> Result<LinearLayout, Error> {
        Ok(match &self.linear_pitch {
            None => LinearLayout::packed(r, s.elem_size()),
            Some(p) => LinearLayout::with_row_pitch(r, parse_u64("linear-pitch", p)?),
        })
    }
}

/// Bytes a linear image of `r` with layout `lin` occupies.
fn linear_bytes(r: &Region, lin: &LinearLayout) -> Result<usize, Box<dyn std::error::Error>> {
    lin.image_bytes(r)
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| format!("the linear image of {r:?} with {lin:?} does not fit in memory").into())
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
    /// (`/dev/zero`) is read only that far; the one whole-file reader, [`patch_onto`], refuses
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
        let skipped = std::io::copy(&mut (&mut f).take(offset), &mut std::io::sink()).map_err(err)?;
        if skipped < offset {
            return Ok((Self::zeroed("input file", 0)?, skipped));
        }
        // Grown as the bytes come (the length of a pipe is not known), without aborting when
        // memory runs out.
        let mut buf: Vec<u8> = Vec::new();
        let mut filled = 0;
        let mut rest = f.take(len);
        loop {
            if filled == buf.len() {
                // 1 MiB more, zeroed once (a pipe hands over at most 64 KiB per read).
                let chunk = 1 << 20;
                buf.try_reserve(chunk)
                    .map_err(|_| format!("cannot allocate {} bytes for '{}'", filled + chunk, path.display()))?;
                buf.resize(filled + chunk, 0);
            }
            let n = match rest.read(&mut buf[filled..]) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                r => r.map_err(err)?,
            };
            if n == 0 {
                break;
            }
            filled += n;
        }
        buf.truncate(filled);
        let end = offset + buf.len() as u64;
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
    /// error ([`tile::window::check_places`]).
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
        tile::window::check_places(pieces, total)?;
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
fn read_full(r: &mut impl std::io::Read, buf: &mut [u8]) -> std::io::Result<usize> {
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

/// Checks the region and the linear layout against the surface before any buffer exists, and
/// returns the plan's linear span (bytes of the linear image the copy touches).
fn check_plan(s: &Surface, region: Region, lin: LinearLayout) -> Result<usize, Error> {
    Ok(tile::Plan::new(s, region, lin, usize::MAX, usize::MAX)?.linear_span)
}

/// The surface a plain `tile`/`untile` copies, and where it is.
struct Placed {
    /// The surface (at address 0).
    surface: Surface,
    /// Byte offset of the surface in the tiled file: --offset, plus the subresource's offset in
    /// the texture with --subresource.
    offset: usize,
    /// Width, height, depth in pixels of the whole surface, for a picture on the linear side:
    /// --size, or the level's texels.
    picture_px: [u32; 3],
    /// Bytes of a new tiled file (`tile` without --onto): the surface's end, or with
    /// --subresource the whole texture's end (its other subresources zero).
    file_bytes: usize,
}

/// The surface of a plain `tile`/`untile`: the one the surface flags describe, or with
/// `--texture --subresource LEVEL,LAYER` that level of that layer of the texture.
fn target_surface(a: &TilingArgs) -> Result<Placed, Box<dyn std::error::Error>> {
    let offset = crate::surface_args::parse_offset("offset", &a.offset)?;
    let Some(sel) = &a.subresource else {
        let surface = a.surface.surface()?;
        nvsurf::error::check_span("offset + surface size", offset, surface.size_bytes())?;
        let offset = usize::try_from(offset)?;
        let picture_px = crate::surface_args::parse_size(&a.surface.size)?;
        return Ok(Placed { surface, offset, picture_px, file_bytes: tiled_end(offset, &surface)? });
    };
    let [level, layer] = parse_list::<2>("subresource", sel)?;
    let t = crate::texture::build_texture(&a.surface, &a.tex)?;
    let sub = t.subresource(level, layer)?;
    let surface = sub.surface.ok_or_else(|| Error::Unsupported {
        field: "subresource",
        value: sel.clone(),
        rule: "a BUFFER texture has no layout: its bytes are already linear".into(),
    })?;
    nvsurf::error::check_span("offset + texture size", offset, t.size_bytes())?;
    // Within 2^40 (checked above), so within usize on the 64-bit hosts the CLI builds for.
    let at = |what: &str, n: u64| {
        offset
            .checked_add(n)
            .and_then(|v| usize::try_from(v).ok())
            .ok_or_else(|| format!("--offset {offset} + {what} {n} overflows"))
    };
    Ok(Placed {
        surface,
        offset: at("subresource offset", sub.offset_bytes)?,
        picture_px: t.level(level)?.texels.to_array(),
        file_bytes: at("texture size", t.size_bytes())?,
    })
}

/// `offset + size` of the surface inside a tiled file, checked.
fn tiled_end(offset: usize, s: &Surface) -> Result<usize, Box<dyn std::error::Error>> {
    usize::try_from(s.size_bytes())
        .ok()
        .and_then(|n| n.checked_add(offset))
        .ok_or_else(|| format!("offset {offset} + surface size {} overflows", s.size_bytes()).into())
}

/// Copies of at least this many bytes show a progress bar on a terminal.
pub const PROGRESS_MIN_BYTES: u64 = 64 << 20;

/// A progress bar of `len` steps labelled `label`, for a copy of `bytes` bytes: on a terminal
/// from [`PROGRESS_MIN_BYTES`]; always when the environment sets `NVSURF_PROGRESS=always`
/// (progress in logs, and the tests of the banded copies, which run off a terminal: there
/// indicatif draws nothing but the copy still goes band by band). `None`: copy in one go.
pub fn progress_bar(bytes: u64, len: u64, label: &str) -> Option<indicatif::ProgressBar> {
    let forced = std::env::var_os("NVSURF_PROGRESS").is_some_and(|v| v == "always");
    if !(forced || bytes >= PROGRESS_MIN_BYTES && std::io::stderr().is_terminal()) {
        return None;
    }
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{msg} [{bar:40}] {percent}% {eta}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_message(label.to_string());
    Some(bar)
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

/// The worker pool for `--threads`: `None` for 1 (the single-thread path), else a pool of that
/// many threads (all cores by default).
pub fn pool(threads: Option<usize>) -> Result<Option<rayon::ThreadPool>, Box<dyn std::error::Error>> {
    match threads {
        Some(n @ (0 | 1025..)) => {
            Err(Error::OutOfRange { field: "threads", value: n as u64, min: 1, max: 1024 }.into())
        }
        Some(1) => Ok(None),
        n => Ok(Some(rayon::ThreadPoolBuilder::new().num_threads(n.unwrap_or(0)).build()?)),
    }
}

/// Runs `nvsurf untile`.
/// What `tile` or `untile` with these flags assumes (the texture's, with `--texture`).
fn assumed_of(a: &TilingArgs) -> Result<crate::surface_args::Assumed, Error> {
    if a.texture {
        Ok(crate::texture::build_texture_assumed(&a.surface, &a.tex)?.1)
    } else {
        Ok(a.surface.surface_assumed()?.1)
    }
}

/// The summary line of `tile` and `untile` (on stderr, so that stdout stays the data): what was
/// written and what was assumed about the layout.
fn summary(verb: &str, a: &TilingArgs, assumed: &crate::surface_args::Assumed) -> String {
    let out = match (&a.output, &a.split) {
        (Some(o), _) => format!("'{}'", o.display()),
        (None, Some(d)) => format!("'{}' (split)", d.display()),
        (None, None) => "(nothing)".into(),
    };
    format!("{verb}: wrote {out} for {}: {}", assumed.platform.name(), assumed.describe())
}

/// Runs `nvsurf untile`, then prints its summary line.
pub fn run_untile(a: TilingArgs) -> CmdResult {
    let assumed = assumed_of(&a)?;
    let line = summary("untile", &a, &assumed);
    let code = untile(a)?;
    eprintln!("{line}");
    Ok(code)
}

/// Runs `nvsurf tile`, then prints its summary line.
pub fn run_tile(a: TilingArgs) -> CmdResult {
    let assumed = assumed_of(&a)?;
    let line = summary("tile", &a, &assumed);
    let code = tile_cmd(a)?;
    eprintln!("{line}");
    Ok(code)
}

fn untile(a: TilingArgs) -> CmdResult {
    if let Some(onto) = &a.onto {
        return Err(Error::Unsupported {
            field: "--onto",
            value: format!("'{}'", onto.display()),
            rule: "--onto is for `tile` only (the tiled file to tile onto); `untile` reads --input".into(),
        }
        .into());
    }
    let pool = pool(a.threads)?;
    if a.texture && a.subresource.is_none() {
        let pool = pool.as_ref();
        return crate::tile_picture::untile_texture_dds(&a, pool)
            .unwrap_or_else(|| crate::texture::run_untile_texture(&a, pool));
    }
    let (in_path, out_path) = crate::texture::plain_paths(&a)?;
    let Placed { surface: s, offset, picture_px, .. } = target_surface(&a)?;
    let region = a.region(&s)?;
    let lin = a.linear(&s, &region)?;
    check_plan(&s, region, lin)?;
    let needed = tiled_end(offset, &s)?;
    // Only the surface's bytes are read; with --box, only the blocks (or row segments) that the
    // box touches: its window, a smaller surface of the same layout.
    let window = a.region.as_ref().map(|_| tile::window(&s, region)).transpose()?;
    let (input, file_end) = match &window {
        Some(w) => LineAligned::read_pieces(&in_path, offset as u64, &w.pieces, s.size_bytes())?,
        None => LineAligned::read_range(&in_path, offset as u64, s.size_bytes())?,
    };
    // The surface and box the kernels see: the window's, or the whole surface's.
    let (ts, tregion) = match window {
        Some(w) => (w.surface, w.region),
        None => (s, region),
    };
    if file_end < needed as u64 || (input.len() as u64) < ts.size_bytes() {
        return Err(format!(
            "input '{}' holds {} bytes but {} bytes are expected (surface of {} bytes at offset {})",
            in_path.display(),
            file_end,
            needed,
            s.size_bytes(),
            offset
        )
        .into());
    }
    let tiled = &input[..];
    let mut out = LineAligned::zeroed("linear image", linear_bytes(&region, &lin)?)?;
    with_progress(&ts, tregion, lin, "untile", |band, off| match &pool {
        None => tile::untile(&ts, tiled, &mut out[off..], band, lin),
        Some(p) => p.install(|| tile::untile_parallel(&ts, tiled, &mut out[off..], band, lin)),
    })?;
    if !crate::tile_picture::write_untiled(&a, picture_px, &region, &out_path, &out)? {
        write_atomic(&out_path, &out)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `nvsurf tile`.
fn tile_cmd(a: TilingArgs) -> CmdResult {
    let pool = pool(a.threads)?;
    if a.texture && a.subresource.is_none() {
        let pool = pool.as_ref();
        return crate::tile_picture::tile_texture_dds(&a, pool)
            .unwrap_or_else(|| crate::texture::run_tile_texture(&a, pool));
    }
    let (in_path, out_path) = crate::texture::plain_paths(&a)?;
    let Placed { surface: s, offset, picture_px, file_bytes } = target_surface(&a)?;
    let region = a.region(&s)?;
    let lin = a.linear(&s, &region)?;
    // The last row need not be padded to the pitch: the plan's span is what must be there.
    let span = check_plan(&s, region, lin)?;
    let end = tiled_end(offset, &s)?;
    let (input, file_end) = crate::tile_picture::read_linear(&a, picture_px, &region, &in_path, span)?;
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
    let fill = |ts: &Surface, r: Region, tiled: &mut [u8]| -> Result<(), Box<dyn std::error::Error>> {
        with_progress(ts, r, lin, "tile", |band, off| match &pool {
            None => tile::tile(ts, &input[off..], tiled, band, lin),
            Some(p) => p.install(|| tile::tile_parallel(ts, &input[off..], tiled, band, lin)),
        })?;
        Ok(())
    };
    match &a.onto {
        // A box: only its window of the dump is read and rewritten.
        Some(base) if a.region.is_some() => {
            let w = tile::window(&s, region)?;
            patch_window_onto(base, &out_path, offset, end - offset, &w, |buf| fill(&w.surface, w.region, buf))?
        }
        Some(base) => patch_onto(base, &out_path, offset, end - offset, |buf| fill(&s, region, buf))?,
        None => {
            let mut out = LineAligned::zeroed("tiled output", file_bytes.max(end))?;
            fill(&s, region, &mut out[offset..end])?;
            write_atomic(&out_path, &out)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
