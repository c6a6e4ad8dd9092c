//! Sizes: allocation that fails with a message instead of aborting, and the bound on how much
//! pixel data a picture header may claim for the size of its file. The geometry of a linear
//! element image is the library's [`nvsurf::extent::Extent`] of [`Texels`](nvsurf::extent::Texels) (the CLI has no
//! extent type of its own).

use super::kind::PicResult;
use nvsurf::Error;
use std::path::Path;

/// `n` as a `usize`, saturating.
pub(super) fn saturate(n: u128) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// `n` bytes as a `usize` when a buffer that large can exist (at most `isize::MAX`), else
/// [`Error::Unsupported`] of `what`, described by `detail`.
pub(super) fn memory_bytes(what: &'static str, n: u128, detail: impl Fn() -> String) -> Result<usize, Error> {
    usize::try_from(n).ok().filter(|&n| n <= isize::MAX as usize).ok_or_else(|| Error::Unsupported {
        field: what,
        value: format!("{n} bytes ({})", detail()),
        rule: format!("a buffer holds at most {} bytes", isize::MAX),
    })
}

/// `n` copies of `v`, or an error naming `what` when memory is short (never an abort).
pub fn try_filled<T: Clone>(what: &str, n: usize, v: T) -> PicResult<Vec<T>> {
    let mut out = try_with_capacity(what, n)?;
    out.resize(n, v);
    Ok(out)
}

/// An empty vector with room for `n` items, or an error naming `what` when they would pass the
/// memory budget (`--max-memory`, [`crate::memory::check`]) or memory is short. Every picture
/// decoder and encoder allocates its pixels through here, so each is bounded by the budget.
pub fn try_with_capacity<T>(what: &str, n: usize) -> PicResult<Vec<T>> {
    let mut out = Vec::new();
    let bytes = n.saturating_mul(size_of::<T>());
    crate::memory::check(what, bytes as u64)?;
    out.try_reserve_exact(n).map_err(|_| format!("cannot allocate {bytes} bytes for the {what}"))?;
    Ok(out)
}

/// The most bytes of pixel data a picture file may claim per byte of file. DEFLATE (PNG, EXR
/// ZIP) reaches about 1032:1 at best; EXR's PIZ can go further on a flat picture, so the bound
/// leaves four times that. A header claiming more is a crafted or broken file (crafted EXR
/// files of 0.1-1.8 MB claiming 8000^2-30000^2 pixels made the reader fill 1-14 GB first).
pub const MAX_DECODE_RATIO: u64 = 4096;

/// Refuses a header of `w` x `h` pixels whose stored pixel data, `decoded` bytes, would come
/// from a regular file more than [`MAX_DECODE_RATIO`] times smaller. Pipes and FIFOs have no
/// length to compare with: their pixels are allocated without aborting, and nothing more.
pub(super) fn check_decoded_size(path: &Path, w: u32, h: u32, decoded: u64) -> PicResult<()> {
    let file = match std::fs::metadata(path) {
        Ok(m) if m.is_file() => m.len(),
        _ => return Ok(()),
    };
    if decoded / MAX_DECODE_RATIO > file {
        return Err(format!(
            "the header claims {w}x{h} pixels ({decoded} bytes of pixel data) but the file holds {file} bytes: \
             no compression reaches more than {MAX_DECODE_RATIO}:1, so the header is broken"
        )
        .into());
    }
    Ok(())
}

/// Whether `path` is a regular file (not a pipe, FIFO or device).
pub(super) fn is_regular(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file())
}
