//! PNG pictures (8 or 16 bits per channel, the `png` crate): a linear element image to an
//! RGBA or grey picture and back. Channels follow [`Format::channel_kinds`]: float channels
//! are normalized (clamped to [0, 1]), integer channels hold raw values (saturated). sRGB
//! formats are written without the sRGB decode and read back the same way. Depth goes to a
//! 16-bit grey picture and the stencil, if any, to `<name>.stencil.png`.

use super::encoding::Encoding;
use super::kind::{cannot_read, png_error, PicResult};
use super::size::{check_decoded_size, try_filled, try_with_capacity};
use super::texels::{decode_texels, encode_texels};
use nvsurf::codec::{Texel, ValueKind};
use nvsurf::extent::{Extent, Texels};
use nvsurf::format::{Format, Layout};
use nvsurf::Error;
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

/// True when the PNG of `f` needs 16 bits per channel.
pub fn png_needs_16_bits(f: &Format) -> bool {
    match f.layout() {
        Layout::Simple(bits) => bits.iter().any(|&b| b > 8),
        Layout::SharedExp | Layout::Zeta(_) => true,
        // BC6H is float; EAC R11/RG11 have 11 bits.
        Layout::Compressed(bc) => {
            use nvsurf::format::Bc;
            matches!(bc, Bc::Bc6hSigned | Bc::Bc6hUnsigned | Bc::EacR11 | Bc::EacRg11)
        }
        Layout::Yuv { .. } => f.yuv_matrix() != nvsurf::codec::YuvMatrix::Raw,
        Layout::Bitmap => false,
    }
}

/// Texel channel to a PNG sample of `max` (255 or 65535).
fn to_sample(kind: ValueKind, v: u32, max: u32) -> u32 {
    match kind {
        ValueKind::Float => {
            let x = f32::from_bits(v);
            if x.is_nan() {
                0
            } else {
                (f64::from(x).clamp(0.0, 1.0) * f64::from(max)).round() as u32
            }
        }
        ValueKind::Sint => (v as i32).clamp(0, max as i32) as u32,
        ValueKind::Uint => v.min(max),
    }
}

fn from_sample(kind: ValueKind, s: u32, max: u32) -> u32 {
    match kind {
        ValueKind::Float => (s as f32 / max as f32).to_bits(),
        _ => s,
    }
}

/// An 8 or 16-bit PNG image in memory: RGBA (4 channels) or grey (1 channel).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PngImage {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// 8 or 16.
    pub bits: u8,
    /// 4 (RGBA) or 1 (grey).
    pub channels: u8,
    /// Samples, row-major, channel-interleaved.
    pub samples: Vec<u16>,
}

/// Writes a PNG (the unit tests; commands stage [`png_bytes`] through `crate::io`).
#[cfg(test)]
pub fn write_png(path: &Path, img: &PngImage) -> PicResult<()> {
    crate::io::write_atomic(path, &png_bytes(img)?)
}

/// A PNG file's bytes, encoded in memory.
pub fn png_bytes(img: &PngImage) -> PicResult<Vec<u8>> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, img.width, img.height);
    enc.set_color(if img.channels == 4 { png::ColorType::Rgba } else { png::ColorType::Grayscale });
    enc.set_depth(if img.bits == 16 { png::BitDepth::Sixteen } else { png::BitDepth::Eight });
    // The fast level by default, as for streamed pictures (`png_stream::PngCompression`).
    enc.set_compression(png::Compression::Fast);
    let mut wr = enc.write_header()?;
    let bytes: Vec<u8> = if img.bits == 16 {
        img.samples.iter().flat_map(|s| s.to_be_bytes()).collect()
    } else {
        img.samples.iter().map(|&s| s as u8).collect()
    };
    wr.write_image_data(&bytes)?;
    wr.finish()?;
    Ok(out)
}

/// Reads a PNG of any color type as RGBA (grey is copied to R, G, B; missing alpha is opaque),
/// keeping 16-bit samples.
pub fn read_png(path: &Path) -> PicResult<PngImage> {
    read_png_file(path).map_err(|e| match e.downcast::<png::DecodingError>() {
        Ok(d) => png_error(path, *d),
        Err(e) => cannot_read("PNG", path, e),
    })
}

fn read_png_file(path: &Path) -> PicResult<PngImage> {
    let file = File::open(path)?;
    let mut dec = png::Decoder::new(BufReader::new(file));
    dec.set_transformations(png::Transformations::EXPAND);
    let mut reader = dec.read_info()?;
    // The header's size is not bounded by the file's (a 69-byte PNG can claim 100000 x 100000
    // pixels): a claim no compression could reach is refused before anything is allocated,
    // and the rest is allocated without aborting.
    let need = reader.output_buffer_size().ok_or("PNG too large")?;
    let info = reader.info();
    // The stored (compressed) pixel data, before EXPAND makes 1-bit and palette rows 8 to 32
    // times longer: flat bitmaps legitimately compress far better than their expanded size.
    let stored = (info.raw_row_length() as u64).saturating_mul(u64::from(info.height));
    check_decoded_size(path, info.width, info.height, stored)?;
    let mut buf = try_filled("PNG pixels", need, 0u8)?;
    let info = reader.next_frame(&mut buf)?;
    let bits16 = info.bit_depth == png::BitDepth::Sixteen;
    let ch = match info.color_type {
        png::ColorType::Grayscale => 1,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Rgb => 3,
        _ => 4,
    };
    let max: u16 = if bits16 { 65535 } else { 255 };
    // At most 4 samples per byte of `buf`, which was allocated.
    let mut samples = try_with_capacity("PNG samples", info.width as usize * info.height as usize * 4)?;
    for y in 0..info.height as usize {
        let line = &buf[y * info.line_size..];
        for x in 0..info.width as usize {
            let s = |c: usize| -> u16 {
                let i = x * ch + c;
                if bits16 {
                    u16::from_be_bytes([line[2 * i], line[2 * i + 1]])
                } else {
                    u16::from(line[i])
                }
            };
            let px = match ch {
                1 => [s(0), s(0), s(0), max],
                2 => [s(0), s(0), s(0), s(1)],
                3 => [s(0), s(1), s(2), max],
                _ => [s(0), s(1), s(2), s(3)],
            };
            samples.extend_from_slice(&px);
        }
    }
    Ok(PngImage { width: info.width, height: info.height, bits: if bits16 { 16 } else { 8 }, channels: 4, samples })
}

/// The format as used for PNG: sRGB decoding off (PNG samples are sRGB-encoded already).
fn png_view(f: &Format) -> Format {
    f.with_srgb(false)
}

/// Whether a PNG of `f` comes with a second picture, `<name>.stencil.png` (depth/stencil
/// formats with a stencil).
pub fn has_stencil_picture(f: &Format) -> bool {
    matches!(f.layout(), Layout::Zeta(z) if z.s_lo.is_some())
}

/// Decoded surface to PNG images: the picture, plus the stencil picture for formats with S.
/// Slices are stacked vertically.
pub fn to_png(f: &Format, e: Extent<Texels>, data: &[u8]) -> PicResult<(PngImage, Option<PngImage>)> {
    let f = png_view(f);
    let texels = decode_texels(&f, e, data)?;
    let (w, h) = (e.width, e.height * e.depth);
    if let Layout::Zeta(z) = f.layout() {
        let kinds = f.channel_kinds();
        let depth: Vec<u16> = texels.iter().map(|t| to_sample(kinds[0], t[0], 65535) as u16).collect();
        let stencil = z.s_lo.map(|_| PngImage {
            width: w,
            height: h,
            bits: 8,
            channels: 1,
            samples: texels.iter().map(|t| t[1].min(255) as u16).collect(),
        });
        return Ok((PngImage { width: w, height: h, bits: 16, channels: 1, samples: depth }, stencil));
    }
    let bits = if png_needs_16_bits(&f) { 16 } else { 8 };
    let max = if bits == 16 { 65535 } else { 255 };
    let kinds = f.channel_kinds();
    let samples = texels.iter().flat_map(|t| (0..4).map(move |c| to_sample(kinds[c], t[c], max) as u16)).collect();
    Ok((PngImage { width: w, height: h, bits, channels: 4, samples }, None))
}

/// PNG image(s) to a linear element image of `f` (the inverse of [`to_png`]). `depth` slices
/// are taken from the picture stacked top to bottom.
pub fn from_png(
    f: &Format,
    img: &PngImage,
    stencil: Option<&PngImage>,
    depth: u32,
    enc: &Encoding,
) -> PicResult<(Extent<Texels>, Vec<u8>)> {
    let f = png_view(f);
    if depth == 0 || !img.height.is_multiple_of(depth) {
        return Err(Error::NotMultiple {
            field: "picture height",
            value: u64::from(img.height),
            multiple: u64::from(depth),
        }
        .into());
    }
    let e = Extent::<Texels>::new(img.width, img.height / depth, depth);
    if img.bits == 8 && img.channels == 4 && stencil.is_none() && f.encodes_rgba8_by_bytes() {
        // 8-bit RGBA into an 8_8_8_8 unorm permutation: byte moves (the library's, tested
        // against the per-texel path), no float conversion.
        let px: Vec<[u8; 4]> = img.samples.chunks_exact(4).map(|c| [c[0], c[1], c[2], c[3]].map(|v| v as u8)).collect();
        let mut out = super::size::try_filled("encoded elements", e.checked_bytes(&f)?, 0u8)?;
        let rows = img.height;
        f.encode_rect_rgba8_with(&px, e.width, rows, &mut out, e.row_bytes(&f), &enc.options)?;
        return Ok((e, out));
    }
    let max = if img.bits == 16 { 65535 } else { 255 };
    let kinds = f.channel_kinds();
    let ch = img.channels as usize;
    let n = img.width as usize * img.height as usize;
    let mut texels: Vec<Texel> = (0..n)
        .map(|i| {
            let s = |c: usize| u32::from(img.samples[i * ch + c.min(ch - 1)]);
            if ch == 1 {
                [from_sample(kinds[0], s(0), max), 0, 0, 1.0f32.to_bits()]
            } else {
                [0, 1, 2, 3].map(|c| from_sample(kinds[c], s(c), max))
            }
        })
        .collect();
    if let (Layout::Zeta(_), Some(st)) = (f.layout(), stencil) {
        if (st.width, st.height) != (img.width, img.height) {
            return Err(Error::Unsupported {
                field: "stencil picture",
                value: format!("{}x{}", st.width, st.height),
                rule: format!("must match the depth picture, {}x{}", img.width, img.height),
            }
            .into());
        }
        for (i, t) in texels.iter_mut().enumerate() {
            t[1] = u32::from(st.samples[i * st.channels as usize]).min(255);
        }
    }
    Ok((e, encode_texels(&f, e, &texels, enc)?))
}

/// Path of the stencil picture that goes with `path` (`out.png` -> `out.stencil.png`).
pub fn stencil_path(path: &Path) -> PathBuf {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("out");
    path.with_file_name(format!("{stem}.stencil.png"))
}

/// The width and height in the header of the PNG `path`, without decoding its pixels.
pub(super) fn png_size(path: &Path) -> PicResult<(u32, u32)> {
    let file = File::open(path).map_err(|e| cannot_read("PNG", path, e))?;
    let dec = png::Decoder::new(BufReader::new(file));
    let info = dec.read_info().map_err(|e| png_error(path, e))?;
    Ok((info.info().width, info.info().height))
}
