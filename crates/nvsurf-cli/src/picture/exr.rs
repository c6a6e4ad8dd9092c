//! OpenEXR pictures (RGBA `f32`, the `exr` crate): the decoded values (sRGB decoded, integers
//! converted to float), written atomically, and read with the header's claimed size checked
//! against the file before the pixels are allocated.

use super::kind::{cannot_read, PicResult};
use super::size::{check_decoded_size, try_filled};
use std::path::Path;

/// Writes an RGBA f32 OpenEXR picture.
pub fn write_exr(path: &Path, width: u32, height: u32, px: &[[f32; 4]]) -> PicResult<()> {
    let w = width as usize;
    crate::io::with_temp(path, |out| {
        use exr::prelude::*;
        let channels = SpecificChannels::rgba(|Vec2(x, y): Vec2<usize>| {
            let p = px[y * w + x];
            (p[0], p[1], p[2], p[3])
        });
        let mut buffered = std::io::BufWriter::new(out);
        Image::from_channels((w, height as usize), channels)
            .write()
            .to_buffered(&mut buffered)
            .map_err(|e| format!("cannot write '{}': {e}", path.display()))?;
        std::io::Write::flush(&mut buffered).map_err(|e| format!("cannot write '{}': {e}", path.display()))?;
        Ok(())
    })
}

/// What an OpenEXR file's header claims, read once.
pub(super) struct ExrClaim {
    /// Width and height in pixels of its largest layer.
    pub(super) size: (u32, u32),
    /// Bytes of pixel data, all layers at their channels' sample sizes.
    data: u64,
    /// Layers (headers).
    pub(super) layers: usize,
}

/// The header of an OpenEXR file ([`ExrClaim`]).
pub(super) fn exr_size(path: &Path) -> PicResult<ExrClaim> {
    let meta = exr::meta::MetaData::read_from_file(path, false).map_err(|e| cannot_read("EXR", path, e))?;
    let (w, h) = meta
        .headers
        .iter()
        .map(|h| (h.layer_size.0, h.layer_size.1))
        .max_by_key(|&(w, h)| w.saturating_mul(h))
        .unwrap_or((0, 0));
    let data: u64 = meta
        .headers
        .iter()
        .map(|h| {
            (h.layer_size.0 as u64)
                .saturating_mul(h.layer_size.1 as u64)
                .saturating_mul(h.channels.bytes_per_pixel as u64)
        })
        .fold(0, u64::saturating_add);
    let fit = |v: usize| u32::try_from(v).map_err(|_| format!("EXR '{}' claims a size of {v} pixels", path.display()));
    Ok(ExrClaim { size: (fit(w)?, fit(h)?), data, layers: meta.headers.len() })
}

/// Reads the first RGBA layer of an OpenEXR picture as f32 (missing alpha reads 1). The size
/// in the header is checked against the file's ([`MAX_DECODE_RATIO`]) before the pixels are
/// allocated, from `claim`, the header the caller read before (only from a regular file: a
/// FIFO would lose those bytes, and has no length to compare with); that allocation fails with
/// an error, never an abort.
pub(super) fn read_exr(path: &Path, claim: Option<&ExrClaim>) -> PicResult<(u32, u32, Vec<[f32; 4]>)> {
    if let Some(c) = claim {
        check_decoded_size(path, c.size.0, c.size.1, c.data).map_err(|e| cannot_read("EXR", path, e))?;
        let px = u64::from(c.size.0).saturating_mul(u64::from(c.size.1));
        crate::memory::check("EXR pixels", px.saturating_mul(16)).map_err(|e| cannot_read("EXR", path, e))?;
    }
    // The reader's callback cannot return an error: a failed allocation leaves the pixels
    // empty (every write then falls outside and is dropped) and is reported after.
    let img = exr::prelude::read_first_rgba_layer_from_file(
        path,
        |res, _| {
            let n = res.width().saturating_mul(res.height());
            (res.width(), try_filled("EXR pixels", n, [0f32; 4]).ok())
        },
        |(w, px): &mut (usize, Option<Vec<[f32; 4]>>), pos, (r, g, b, a): (f32, f32, f32, f32)| {
            if let Some(p) = px.as_mut().and_then(|px| px.get_mut(pos.y() * *w + pos.x())) {
                *p = [r, g, b, a];
            }
        },
    )
    .map_err(|e| cannot_read("EXR", path, e))?;
    let size = img.layer_data.size;
    let px = img.layer_data.channel_data.pixels.1.ok_or_else(|| {
        format!(
            "cannot allocate {}x{} pixels of 16 bytes for EXR '{}' (memory is short, or they pass --max-memory, {} bytes)",
            size.width(),
            size.height(),
            path.display(),
            crate::memory::limits().max_bytes
        )
    })?;
    Ok((size.width() as u32, size.height() as u32, px))
}
