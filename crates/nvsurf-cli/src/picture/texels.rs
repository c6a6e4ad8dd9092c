//! Texel conversion: a linear element image of any [`Format`] to decoded texels (or RGBA
//! `f32`) and back, slices stacked, with the image's length checked against its extent first.

use super::astc_encode::{encode_astc, uses_astcenc};
use super::encoding::{Encoding, ErrorSum};
use super::kind::PicResult;
use super::size::{try_filled, try_with_capacity};
use nvsurf::codec::Texel;
use nvsurf::extent::{Extent, Texels};
use nvsurf::format::Format;
use nvsurf::Error;

/// Checks that `data` holds the whole linear element image of `e` in `f` (an error naming both
/// lengths otherwise).
pub fn check_len(f: &Format, e: Extent<Texels>, data: &[u8]) -> Result<(), Error> {
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
pub fn decode_texels(f: &Format, e: Extent<Texels>, data: &[u8]) -> PicResult<Vec<Texel>> {
    // The length check also proves the texel count below fits in memory.
    check_len(f, e, data)?;
    let px = e.width as usize * e.height as usize;
    let mut out = try_filled("decoded texels", px * e.depth as usize, [0u32; 4])?;
    let sb = e.slice_bytes(f);
    for z in 0..e.depth as usize {
        f.decode_rect(&data[z * sb..], e.row_bytes(f), e.width, e.height, &mut out[z * px..(z + 1) * px])?;
    }
    Ok(out)
}

/// Encodes texels (`width * height * depth`, slices stacked) into a linear element image with
/// `enc`'s options. Block-compressed formats are decoded back and their errors against `px`
/// added to `enc` (see [`Encoding`]; the caller closes the level with [`Encoding::finish`]).
pub fn encode_texels(f: &Format, e: Extent<Texels>, px: &[Texel], enc: &Encoding) -> PicResult<Vec<u8>> {
    let bytes = e.checked_bytes(f)?;
    // `checked_bytes` proved `width * height * depth` fits.
    let n = e.width as usize * e.height as usize;
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
    if f.is_compressed() && enc.parallel && !uses_astcenc(f) {
        encode_strips(f, e, px, &mut out, enc)?;
    } else {
        for z in 0..e.depth as usize {
            if uses_astcenc(f) {
                // ASTC through ARM's encoder (feature `astcenc`) over the whole slice.
                encode_astc(f, &px[z * n..(z + 1) * n], e.width, e.height, &mut out[z * sb..(z + 1) * sb])?;
                continue;
            }
            f.encode_rect_with(
                &px[z * n..(z + 1) * n],
                e.width,
                e.height,
                &mut out[z * sb..(z + 1) * sb],
                e.row_bytes(f),
                &enc.options,
            )?;
        }
    }
    if f.is_compressed() {
        let back = decode_texels(f, e, &out)?;
        if let Some(err) = ErrorSum::of(f, &px[..n * e.depth as usize], &back) {
            enc.record(err);
        }
    }
    Ok(out)
}

/// [`encode_texels`] of a block-compressed format in strips of 16 block rows over the current
/// rayon pool (BC7 `normal` takes most of a second a megapixel on one core).
fn encode_strips(f: &Format, e: Extent<Texels>, px: &[Texel], out: &mut [u8], enc: &Encoding) -> PicResult<()> {
    use rayon::prelude::*;
    let (_, bh) = f.block_dims();
    let strip_px = 16 * bh as usize;
    let (w, h) = (e.width as usize, e.height as usize);
    let (rb, sb) = (e.row_bytes(f), e.slice_bytes(f));
    let n = w * h;
    for z in 0..e.depth as usize {
        let src = &px[z * n..(z + 1) * n];
        let dst = &mut out[z * sb..(z + 1) * sb];
        dst.par_chunks_mut(16 * rb).zip(src.par_chunks(strip_px * w)).try_for_each(|(d, s)| {
            let rows = (s.len() / w.max(1)) as u32;
            f.encode_rect_with(s, e.width, rows, d, rb, &enc.options)
        })?;
    }
    Ok(())
}

/// Decoded RGBA f32 pixels of a linear element image (slices stacked).
pub fn decode_f32(f: &Format, e: Extent<Texels>, data: &[u8]) -> PicResult<Vec<[f32; 4]>> {
    Ok(decode_texels(f, e, data)?.iter().map(|t| f.texel_to_f32(t)).collect())
}

/// Pixel rows a band of [`convert_image`] aims at: about a million pixels (48 MiB of decoded,
/// converted and checked texels), in whole units of `unit` rows. `NVSURF_BAND_BYTES` (as for
/// the tiling bands, default 8 MiB) sets the budget at one pixel per 8 bytes, so tests can
/// make the bands small.
pub(super) fn band_rows_px(width_px: u32, height_px: u32, unit: u32) -> u32 {
    let budget = std::env::var("NVSURF_BAND_BYTES").ok().and_then(|v| v.parse::<u64>().ok()).unwrap_or(8 << 20) / 8;
    let want = u32::try_from(budget / u64::from(width_px.max(1))).unwrap_or(u32::MAX).max(1);
    want.div_ceil(unit).saturating_mul(unit).min(height_px.max(1))
}

/// A linear element image of `from` (extent `e`, slices stacked) in `to`, appended to `out`,
/// band by band: each band of pixel rows is decoded, converted to `to`'s texels and encoded
/// ([`encode_texels`], whose errors go to `enc`), so only a band is held as texels. A band is
/// whole strips of 16 blocks rows of `to` and whole block rows of `from`, so the encoded bytes
/// are the same as from the whole image at once.
pub fn convert_image(
    from: &Format,
    to: &Format,
    e: Extent<Texels>,
    src: &[u8],
    enc: &Encoding,
    out: &mut Vec<u8>,
) -> PicResult<()> {
    check_len(from, e, src)?;
    let (_, bh_from) = from.block_dims();
    let (_, bh_to) = to.block_dims();
    let band = band_rows_px(e.width, e.height, bh_from / gcd(bh_from, bh_to) * bh_to * 16);
    let (rb, sb) = (e.row_bytes(from), e.slice_bytes(from));
    for z in 0..e.depth as usize {
        let mut y = 0;
        while y < e.height {
            let h = band.min(e.height - y);
            let be = Extent::<Texels>::new(e.width, h, 1);
            let at = z * sb + (y / bh_from) as usize * rb;
            let px = decode_f32(from, be, &src[at..])?;
            let texels: Vec<Texel> = px.iter().map(|p| to.f32_to_texel(p)).collect();
            drop(px);
            out.extend(encode_texels(to, be, &texels, enc)?);
            y += h;
        }
    }
    Ok(())
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a.max(1)
    } else {
        gcd(b, a % b)
    }
}

/// RGBA `f32` pixels (extent `e`, slices stacked) to a linear element image of `f`, band by
/// band as [`convert_image`] does, so only a band is held as texels.
pub fn encode_f32(f: &Format, e: Extent<Texels>, px: &[[f32; 4]], enc: &Encoding) -> PicResult<Vec<u8>> {
    let mut out = try_with_capacity("encoded elements", e.checked_bytes(f)?)?;
    let (w, n) = (e.width as usize, e.width as usize * e.height as usize);
    if px.len() < n * e.depth as usize {
        return Err(Error::BufferTooSmall {
            what: "pixels",
            needed: (n * e.depth as usize) as u64,
            got: px.len() as u64,
        }
        .into());
    }
    let (_, bh) = f.block_dims();
    let band = band_rows_px(e.width, e.height, bh * 16);
    for z in 0..e.depth as usize {
        let mut y = 0;
        while y < e.height {
            let h = band.min(e.height - y);
            let at = z * n + y as usize * w;
            let texels: Vec<Texel> = px[at..at + h as usize * w].iter().map(|p| f.f32_to_texel(p)).collect();
            out.extend(encode_texels(f, Extent::<Texels>::new(e.width, h, 1), &texels, enc)?);
            y += h;
        }
    }
    Ok(out)
}
