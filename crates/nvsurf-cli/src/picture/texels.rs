//! Texel conversion: a linear element image of any [`Format`] to decoded texels (or RGBA
//! `f32`) and back, slices stacked, with the image's length checked against its extent first.

use super::astc_encode::{astc_footprint, encode_astc};
use super::kind::PicResult;
use super::size::{try_filled, Extent};
use nvsurf::codec::Texel;
use nvsurf::format::Format;
use nvsurf::Error;

/// Checks that `data` holds the whole linear element image of `e` in `f` (an error naming both
/// lengths otherwise).
pub fn check_len(f: &Format, e: Extent, data: &[u8]) -> Result<(), Error> {
    let need = e.checked_bytes(f)?;
    if data.len() < need {
        return Err(Error::BufferTooSmall {
            what: "linear element image",
            needed: need as u64,
            got: data.len() as u64,
        });
    }
    Ok(())
}

/// Decodes a linear element image into texels (`width * height * depth`, slices stacked).
pub fn decode_texels(f: &Format, e: Extent, data: &[u8]) -> PicResult<Vec<Texel>> {
    // The length check also proves the texel count below fits in memory.
    check_len(f, e, data)?;
    let px = e.width_px as usize * e.height_px as usize;
    let mut out = try_filled("decoded texels", px * e.depth as usize, [0u32; 4])?;
    let sb = e.slice_bytes(f);
    for z in 0..e.depth as usize {
        f.decode_rect(&data[z * sb..], e.row_bytes(f), e.width_px, e.height_px, &mut out[z * px..(z + 1) * px])?;
    }
    Ok(out)
}

/// Encodes texels (`width * height * depth`, slices stacked) into a linear element image.
pub fn encode_texels(f: &Format, e: Extent, px: &[Texel]) -> PicResult<Vec<u8>> {
    let bytes = e.checked_bytes(f)?;
    // `checked_bytes` proved `width * height * depth` fits.
    let n = e.width_px as usize * e.height_px as usize;
    if px.len() < n * e.depth as usize {
        return Err(Error::BufferTooSmall {
            what: "pixels",
            needed: (n * e.depth as usize) as u64,
            got: px.len() as u64,
        }
        .into());
    }
    let mut out = try_filled("encoded elements", bytes, 0u8)?;
    let sb = e.slice_bytes(f);
    for z in 0..e.depth as usize {
        if astc_footprint(f).is_some() {
            // ASTC: ARM's encoder over the whole slice (picture/astc_encode.rs).
            encode_astc(f, &px[z * n..(z + 1) * n], e.width_px, e.height_px, &mut out[z * sb..(z + 1) * sb])?;
            continue;
        }
        f.encode_rect(
            &px[z * n..(z + 1) * n],
            e.width_px,
            e.height_px,
            &mut out[z * sb..(z + 1) * sb],
            e.row_bytes(f),
        )?;
    }
    Ok(out)
}

/// Decoded RGBA f32 pixels of a linear element image (slices stacked).
pub fn decode_f32(f: &Format, e: Extent, data: &[u8]) -> PicResult<Vec<[f32; 4]>> {
    Ok(decode_texels(f, e, data)?.iter().map(|t| f.texel_to_f32(t)).collect())
}
