//! Pictures: PNG (8 or 16 bits per channel), OpenEXR (32-bit float) and DDS, to and from the
//! linear element images of any [`Format`].
//!
//! The element images here are "linear": rows of elements, tightly packed
//! (`row_pitch_bytes = ceil(width_px / bw) * elem_size`), slices one after another; that is
//! what `nvsurf::tile` produces when it untiles a surface and consumes when it tiles one.
//!
//! Rules (decisions of issue 5, item 4):
//! - PNG channels follow [`Format::channel_kinds`]: float channels are normalized (clamped to
//!   [0, 1]), integer channels hold raw values (saturated). 8 bits per channel when every
//!   component of the format has at most 8 bits (and for BC1-BC5/BC7), 16 bits otherwise.
//!   sRGB formats are written without the sRGB decode (PNG samples are sRGB already) and read
//!   back the same way.
//! - Depth/stencil: the picture is the depth as 16-bit grey; the stencil (if any) goes to a
//!   second 8-bit grey picture `<name>.stencil.png`. Coverage is not pictured.
//! - EXR: RGBA f32, the decoded values (sRGB decoded, integers converted to float).
//! - DDS: the elements themselves when the format has a DXGI twin ([`dxgi_of`]), otherwise
//!   decoded to `R32G32B32A32_FLOAT`. Mips, arrays (cube faces count as layers) and depth are
//!   kept. Reading takes the elements as they are when the DXGI format matches, and otherwise
//!   decodes any DXGI format of [`dxgi_of`]'s table (or BC) and encodes it to the wanted format.
//! - Surfaces with depth > 1 are written to PNG/EXR as the slices stacked top to bottom.

use ddsfile::{AlphaMode, D3D10ResourceDimension, Dds, DxgiFormat, NewDxgiParams};
use nvsurf::codec::{Texel, ValueKind};
use nvsurf::format::{color_formats, ComponentType, Format, Kind, Layout};
use nvsurf::Error;
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

/// Errors of this module: the library's, or I/O and container errors as text.
pub type PicResult<T> = Result<T, Box<dyn std::error::Error>>;

/// Picture file types, from the file extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PicKind {
    /// `.png`
    Png,
    /// `.exr`
    Exr,
    /// `.dds`
    Dds,
}

impl PicKind {
    /// The kind of `path` from its extension.
    pub fn of(path: &Path) -> Result<PicKind, Error> {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
        match ext.as_str() {
            "png" => Ok(PicKind::Png),
            "exr" => Ok(PicKind::Exr),
            "dds" => Ok(PicKind::Dds),
            _ => Err(Error::UnknownName {
                kind: "picture type (file extension)",
                name: path.display().to_string(),
                suggestions: vec!["png".into(), "exr".into(), "dds".into()],
            }),
        }
    }

    /// Whether `path` is a picture (`Some`), raw linear bytes (`None`, any extension that is not
    /// a picture), or an error: a picture type that is not supported (`.jpg`, `.bmp`, `.tiff`,
    /// ...) would otherwise silently hold raw bytes.
    pub fn of_linear_side(path: &Path) -> Result<Option<PicKind>, Error> {
        if let Ok(k) = PicKind::of(path) {
            return Ok(Some(k));
        }
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
        if UNSUPPORTED_PICTURE_EXTENSIONS.contains(&ext.as_str()) {
            return Err(Error::Unsupported {
                field: "picture file",
                value: format!("'{}'", path.display()),
                rule: "use .png, .exr or .dds, or any other extension for raw bytes".into(),
            });
        }
        Ok(None)
    }
}

/// Extensions of picture types that are not read or written (an error rather than raw bytes).
pub const UNSUPPORTED_PICTURE_EXTENSIONS: [&str; 8] = ["jpg", "jpeg", "bmp", "gif", "tga", "tif", "tiff", "webp"];

/// The error of a picture that cannot be read: names the file and its type.
fn cannot_read(kind: &str, path: &Path, e: impl std::fmt::Display) -> Box<dyn std::error::Error> {
    format!("cannot read {kind} '{}': {e}", path.display()).into()
}

/// Geometry of a linear element image: pixels, slices, and the element grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Extent {
    /// Width in pixels.
    pub width_px: u32,
    /// Height in pixels.
    pub height_px: u32,
    /// Depth in slices.
    pub depth: u32,
}

impl Extent {
    /// A 2D extent.
    pub fn new(width_px: u32, height_px: u32) -> Extent {
        Extent { width_px, height_px, depth: 1 }
    }

    /// Bytes per row of elements, exact in 128 bits.
    fn row_bytes_wide(&self, f: &Format) -> u128 {
        u128::from(self.width_px.div_ceil(f.block_dims().0)) * u128::from(f.elem_size_bytes())
    }

    /// Bytes per slice, exact in 128 bits.
    fn slice_bytes_wide(&self, f: &Format) -> u128 {
        self.row_bytes_wide(f) * u128::from(self.height_px.div_ceil(f.block_dims().1))
    }

    /// Bytes per row of elements (saturating at `usize::MAX`: [`Extent::checked_bytes`] says
    /// whether the image fits at all).
    pub fn row_bytes(&self, f: &Format) -> usize {
        saturate(self.row_bytes_wide(f))
    }

    /// Bytes per slice (saturating, as [`Extent::row_bytes`]).
    pub fn slice_bytes(&self, f: &Format) -> usize {
        saturate(self.slice_bytes_wide(f))
    }

    /// Bytes of the whole image (saturating, as [`Extent::row_bytes`]).
    pub fn bytes(&self, f: &Format) -> usize {
        saturate(self.slice_bytes_wide(f) * u128::from(self.depth))
    }

    /// Bytes of the whole image, or an error naming the extent when a buffer that large
    /// cannot exist (more than `isize::MAX` bytes). Every size from a file header or a flag
    /// passes here before anything is allocated or indexed.
    pub fn checked_bytes(&self, f: &Format) -> Result<usize, Error> {
        let what = || format!("{}x{}x{} px of {}", self.width_px, self.height_px, self.depth, f.name());
        memory_bytes("image size", self.slice_bytes_wide(f) * u128::from(self.depth), what)?;
        // The decoded texels (16 bytes per pixel) must fit as well.
        let px = u128::from(self.width_px) * u128::from(self.height_px) * u128::from(self.depth);
        memory_bytes("decoded image size", px * 16, what)?;
        Ok(self.bytes(f))
    }
}

/// `n` as a `usize`, saturating.
fn saturate(n: u128) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// `n` bytes as a `usize` when a buffer that large can exist (at most `isize::MAX`), else
/// [`Error::Unsupported`] of `what`, described by `detail`.
fn memory_bytes(what: &'static str, n: u128, detail: impl Fn() -> String) -> Result<usize, Error> {
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

/// An empty vector with room for `n` items, or an error naming `what` when memory is short.
pub fn try_with_capacity<T>(what: &str, n: usize) -> PicResult<Vec<T>> {
    let mut out = Vec::new();
    let bytes = n.saturating_mul(size_of::<T>());
    out.try_reserve_exact(n).map_err(|_| format!("cannot allocate {bytes} bytes for the {what}"))?;
    Ok(out)
}

fn check_len(f: &Format, e: Extent, data: &[u8]) -> Result<(), Error> {
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

/// True when the PNG of `f` needs 16 bits per channel.
pub fn png_needs_16_bits(f: &Format) -> bool {
    match f.layout() {
        Layout::Simple(bits) => bits.iter().any(|&b| b > 8),
        Layout::SharedExp | Layout::Zeta(_) => true,
        Layout::Compressed(bc) => matches!(bc, nvsurf::format::Bc::Bc6hSigned | nvsurf::format::Bc::Bc6hUnsigned),
        Layout::Yuv { .. } => f.yuv_matrix() != nvsurf::codec::YuvMatrix::Raw,
        Layout::Bitmap => false,
    }
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

/// Writes a PNG.
pub fn write_png(path: &Path, img: &PngImage) -> PicResult<()> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, img.width, img.height);
    enc.set_color(if img.channels == 4 { png::ColorType::Rgba } else { png::ColorType::Grayscale });
    enc.set_depth(if img.bits == 16 { png::BitDepth::Sixteen } else { png::BitDepth::Eight });
    let mut wr = enc.write_header()?;
    let bytes: Vec<u8> = if img.bits == 16 {
        img.samples.iter().flat_map(|s| s.to_be_bytes()).collect()
    } else {
        img.samples.iter().map(|&s| s as u8).collect()
    };
    wr.write_image_data(&bytes)?;
    wr.finish()?;
    crate::tiling::write_atomic(path, &out)
}

/// Reads a PNG of any color type as RGBA (grey is copied to R, G, B; missing alpha is opaque),
/// keeping 16-bit samples.
pub fn read_png(path: &Path) -> PicResult<PngImage> {
    read_png_file(path).map_err(|e| cannot_read("PNG", path, e))
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

/// Decoded surface to PNG images: the picture, plus the stencil picture for formats with S.
/// Slices are stacked vertically.
pub fn to_png(f: &Format, e: Extent, data: &[u8]) -> PicResult<(PngImage, Option<PngImage>)> {
    let f = png_view(f);
    let texels = decode_texels(&f, e, data)?;
    let (w, h) = (e.width_px, e.height_px * e.depth);
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
pub fn from_png(f: &Format, img: &PngImage, stencil: Option<&PngImage>, depth: u32) -> PicResult<(Extent, Vec<u8>)> {
    let f = png_view(f);
    if depth == 0 || !img.height.is_multiple_of(depth) {
        return Err(Error::NotMultiple {
            field: "picture height",
            value: u64::from(img.height),
            multiple: u64::from(depth),
        }
        .into());
    }
    let e = Extent { width_px: img.width, height_px: img.height / depth, depth };
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
    Ok((e, encode_texels(&f, e, &texels)?))
}

/// Path of the stencil picture that goes with `path` (`out.png` -> `out.stencil.png`).
pub fn stencil_path(path: &Path) -> PathBuf {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("out");
    path.with_file_name(format!("{stem}.stencil.png"))
}

/// Decoded RGBA f32 pixels of a linear element image (slices stacked).
pub fn decode_f32(f: &Format, e: Extent, data: &[u8]) -> PicResult<Vec<[f32; 4]>> {
    Ok(decode_texels(f, e, data)?.iter().map(|t| f.texel_to_f32(t)).collect())
}

/// Writes an RGBA f32 OpenEXR picture.
pub fn write_exr(path: &Path, width: u32, height: u32, px: &[[f32; 4]]) -> PicResult<()> {
    let w = width as usize;
    crate::tiling::with_temp(path, |tmp| {
        exr::prelude::write_rgba_file(tmp, w, height as usize, |x, y| {
            let p = px[y * w + x];
            (p[0], p[1], p[2], p[3])
        })
        .map_err(|e| format!("{}: {e}", path.display()).into())
    })
}

/// The most bytes of pixel data a picture file may claim per byte of file. DEFLATE (PNG, EXR
/// ZIP) reaches about 1032:1 at best; EXR's PIZ can go further on a flat picture, so the bound
/// leaves four times that. A header claiming more is a crafted or broken file (crafted EXR
/// files of 0.1-1.8 MB claiming 8000^2-30000^2 pixels made the reader fill 1-14 GB first).
pub const MAX_DECODE_RATIO: u64 = 4096;

/// Refuses a header of `w` x `h` pixels whose stored pixel data, `decoded` bytes, would come
/// from a regular file more than [`MAX_DECODE_RATIO`] times smaller. Pipes and FIFOs have no
/// length to compare with: their pixels are allocated without aborting, and nothing more.
fn check_decoded_size(path: &Path, w: u32, h: u32, decoded: u64) -> PicResult<()> {
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
fn is_regular(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

/// What an OpenEXR file's header claims, read once.
struct ExrClaim {
    /// Width and height in pixels of its largest layer.
    size: (u32, u32),
    /// Bytes of pixel data, all layers at their channels' sample sizes.
    data: u64,
    /// Layers (headers).
    layers: usize,
}

/// The header of an OpenEXR file ([`ExrClaim`]).
fn exr_size(path: &Path) -> PicResult<ExrClaim> {
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
fn read_exr(path: &Path, claim: Option<&ExrClaim>) -> PicResult<(u32, u32, Vec<[f32; 4]>)> {
    if let Some(c) = claim {
        check_decoded_size(path, c.size.0, c.size.1, c.data).map_err(|e| cannot_read("EXR", path, e))?;
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
        format!("cannot allocate {}x{} pixels of 16 bytes for EXR '{}'", size.width(), size.height(), path.display())
    })?;
    Ok((size.width() as u32, size.height() as u32, px))
}

// ---------------------------------------------------------------------------------------------
// DDS
// ---------------------------------------------------------------------------------------------

/// The DXGI format whose elements are bit-identical to `f`'s with the same meaning, if any
/// (DXGI names are LSB first: `B5G6R5` has B in bits 0-4, like color 0xe8).
pub fn dxgi_of(f: &Format) -> Option<DxgiFormat> {
    use DxgiFormat as D;
    let default = Format::from_id(f.kind(), f.id()).ok()?;
    if f.components() != default.components() || f.swizzle() != default.swizzle() || f.is_srgb() != default.is_srgb() {
        // A texture format with chosen types/swizzle: only the plain color equivalents map.
        return color_twin(f).and_then(|c| dxgi_of(&c));
    }
    let t = f.texture().id;
    Some(match (f.kind(), f.id()) {
        (Kind::Color, id) => match id {
            0xc0 => D::R32G32B32A32_Float,
            0xc1 => D::R32G32B32A32_SInt,
            0xc2 => D::R32G32B32A32_UInt,
            0xc6 => D::R16G16B16A16_UNorm,
            0xc7 => D::R16G16B16A16_SNorm,
            0xc8 => D::R16G16B16A16_SInt,
            0xc9 => D::R16G16B16A16_UInt,
            0xca => D::R16G16B16A16_Float,
            0xcb => D::R32G32_Float,
            0xcc => D::R32G32_SInt,
            0xcd => D::R32G32_UInt,
            0xcf => D::B8G8R8A8_UNorm,
            0xd0 => D::B8G8R8A8_UNorm_sRGB,
            0xd1 => D::R10G10B10A2_UNorm,
            0xd2 => D::R10G10B10A2_UInt,
            0xd5 => D::R8G8B8A8_UNorm,
            0xd6 => D::R8G8B8A8_UNorm_sRGB,
            0xd7 => D::R8G8B8A8_SNorm,
            0xd8 => D::R8G8B8A8_SInt,
            0xd9 => D::R8G8B8A8_UInt,
            0xda => D::R16G16_UNorm,
            0xdb => D::R16G16_SNorm,
            0xdc => D::R16G16_SInt,
            0xdd => D::R16G16_UInt,
            0xde => D::R16G16_Float,
            0xe0 => D::R11G11B10_Float,
            0xe3 => D::R32_SInt,
            0xe4 => D::R32_UInt,
            0xe5 => D::R32_Float,
            0xe6 => D::B8G8R8X8_UNorm,
            0xe7 => D::B8G8R8X8_UNorm_sRGB,
            0xe8 => D::B5G6R5_UNorm,
            0xe9 => D::B5G5R5A1_UNorm,
            0xea => D::R8G8_UNorm,
            0xeb => D::R8G8_SNorm,
            0xec => D::R8G8_SInt,
            0xed => D::R8G8_UInt,
            0xee => D::R16_UNorm,
            0xef => D::R16_SNorm,
            0xf0 => D::R16_SInt,
            0xf1 => D::R16_UInt,
            0xf2 => D::R16_Float,
            0xf3 => D::R8_UNorm,
            0xf4 => D::R8_SNorm,
            0xf5 => D::R8_SInt,
            0xf6 => D::R8_UInt,
            0xf7 => D::A8_UNorm,
            _ => return None,
        },
        // Zeta formats and the texture formats behind them.
        (Kind::Zeta, 0x0a) | (Kind::Texture, 0x2f) => D::D32_Float,
        (Kind::Zeta, 0x13) | (Kind::Texture, 0x3a) => D::D16_UNorm,
        (Kind::Zeta, 0x16) | (Kind::Texture, 0x2b) => D::D24_UNorm_S8_UInt,
        (Kind::Zeta, 0x19) | (Kind::Texture, 0x30) => D::D32_Float_S8X24_UInt,
        (Kind::Texture, _) => match t {
            0x01 => D::R32G32B32A32_Float,
            0x02 => D::R32G32B32_Float,
            0x03 => D::R16G16B16A16_UNorm,
            0x04 => D::R32G32_Float,
            0x08 => D::R8G8B8A8_UNorm,
            0x09 => D::R10G10B10A2_UNorm,
            0x0c => D::R16G16_UNorm,
            0x0f => D::R32_Float,
            0x10 => D::BC6H_SF16,
            0x11 => D::BC6H_UF16,
            0x17 => D::BC7_UNorm,
            0x18 => D::R8G8_UNorm,
            0x1b => D::R16_UNorm,
            0x1d => D::R8_UNorm,
            0x20 => D::R9G9B9E5_SharedExp,
            0x21 => D::R11G11B10_Float,
            0x24 => D::BC1_UNorm,
            0x25 => D::BC2_UNorm,
            0x26 => D::BC3_UNorm,
            0x27 => D::BC4_UNorm,
            0x28 => D::BC5_UNorm,
            _ => return None,
        },
        _ => return None,
    })
}

/// The color format with the same layout, types, swizzle and sRGB flag as `f`, if any.
fn color_twin(f: &Format) -> Option<Format> {
    if let Layout::Compressed(bc) = f.layout() {
        // Signed RGTC.
        use nvsurf::format::Bc;
        if f.components()[0] == ComponentType::Snorm && matches!(bc, Bc::Bc4 | Bc::Bc5) {
            return None;
        }
    }
    color_formats().iter().map(Format::from_color).find(|c| {
        c.texture().id == f.texture().id
            && c.components() == f.components()
            && c.swizzle() == f.swizzle()
            && c.is_srgb() == f.is_srgb()
    })
}

/// Every format [`dxgi_of`] maps, for reading DDS files of other formats.
fn dxgi_table() -> Vec<(DxgiFormat, Format)> {
    let mut v = Vec::new();
    let all = color_formats()
        .iter()
        .map(Format::from_color)
        .chain(nvsurf::format::texture_formats().iter().map(Format::from_texture));
    for f in all {
        if let Some(d) = dxgi_of(&f) {
            v.push((d, f));
        }
    }
    v
}

/// A whole texture in DDS order: for each layer (cube faces are layers), each mip level, the
/// linear element image of that level (all its slices).
#[derive(Debug, Clone, PartialEq)]
pub struct DdsTexture {
    /// Level 0 extent.
    pub extent: Extent,
    /// Number of mip levels.
    pub levels: u32,
    /// Number of layers (6 per cube).
    pub layers: u32,
    /// True for cube maps (and cube arrays).
    pub cube: bool,
    /// Linear element data, layer-major then level.
    pub data: Vec<u8>,
}

/// Extent of mip level `level` (each dimension halves, rounding down, at least 1).
pub fn level_extent(e: Extent, level: u32) -> Extent {
    let h = |x: u32| (x >> level.min(31)).max(1);
    Extent { width_px: h(e.width_px), height_px: h(e.height_px), depth: h(e.depth) }
}

impl DdsTexture {
    /// Bytes of levels `0..levels` of one layer, exact in 128 bits.
    fn levels_bytes(&self, f: &Format, levels: u32) -> u128 {
        (0..levels)
            .map(|l| level_extent(self.extent, l).slice_bytes_wide(f) * u128::from(level_extent(self.extent, l).depth))
            .sum()
    }

    /// Byte offset and size of (layer, level) in `data` (saturating; see
    /// [`DdsTexture::checked_bytes`]).
    pub fn span(&self, f: &Format, layer: u32, level: u32) -> (usize, usize) {
        let at = u128::from(layer) * self.levels_bytes(f, self.levels) + self.levels_bytes(f, level);
        (saturate(at), level_extent(self.extent, level).bytes(f))
    }

    /// Total bytes (saturating; see [`DdsTexture::checked_bytes`]).
    pub fn bytes(&self, f: &Format) -> usize {
        saturate(self.levels_bytes(f, self.levels) * u128::from(self.layers))
    }

    /// Total bytes, or an error naming the field when the shape cannot be: a zero width or
    /// height, more mip levels than the largest dimension has (a full chain of a `2^n` texture
    /// has `n + 1`), or more bytes than memory holds. A DDS header passes here before its
    /// sizes are used.
    pub fn checked_bytes(&self, f: &Format) -> Result<usize, Error> {
        let e = self.extent;
        for (field, v) in [("DDS width", e.width_px), ("DDS height", e.height_px), ("DDS depth", e.depth)] {
            if v == 0 {
                return Err(Error::OutOfRange { field, value: 0, min: 1, max: u64::from(u32::MAX) });
            }
        }
        let max_levels = 32 - e.width_px.max(e.height_px).max(e.depth).leading_zeros();
        if self.levels > max_levels {
            return Err(Error::OutOfRange {
                field: "DDS mip levels",
                value: u64::from(self.levels),
                min: 1,
                max: u64::from(max_levels),
            });
        }
        let what = || {
            format!(
                "{} layers of {} levels of {}x{}x{} px of {}",
                self.layers,
                self.levels,
                e.width_px,
                e.height_px,
                e.depth,
                f.name()
            )
        };
        memory_bytes("DDS texture size", self.levels_bytes(f, self.levels) * u128::from(self.layers), what)?;
        // The largest level decodes to 16 bytes per pixel.
        e.checked_bytes(f)?;
        Ok(self.bytes(f))
    }
}

/// Writes a texture as DDS: the elements themselves for formats with a DXGI twin, otherwise
/// the decoded pixels as `R32G32B32A32_FLOAT`.
pub fn write_dds(path: &Path, f: &Format, tex: &DdsTexture) -> PicResult<()> {
    if tex.data.len() < tex.bytes(f) {
        return Err(Error::BufferTooSmall {
            what: "texture data",
            needed: tex.bytes(f) as u64,
            got: tex.data.len() as u64,
        }
        .into());
    }
    let (dxgi, data) = match dxgi_of(f) {
        Some(d) => (d, tex.data[..tex.bytes(f)].to_vec()),
        None => {
            let mut out = Vec::new();
            for layer in 0..tex.layers {
                for level in 0..tex.levels {
                    let (at, n) = tex.span(f, layer, level);
                    let px = decode_f32(f, level_extent(tex.extent, level), &tex.data[at..at + n])?;
                    out.extend(px.iter().flatten().flat_map(|v| v.to_le_bytes()));
                }
            }
            (DxgiFormat::R32G32B32A32_Float, out)
        }
    };
    let e = tex.extent;
    let mut dds = Dds::new_dxgi(NewDxgiParams {
        height: e.height_px,
        width: e.width_px,
        depth: (e.depth > 1).then_some(e.depth),
        format: dxgi,
        mipmap_levels: (tex.levels > 1).then_some(tex.levels),
        array_layers: (tex.layers > 1).then_some(tex.layers),
        caps2: None,
        is_cubemap: tex.cube,
        resource_dimension: if e.depth > 1 {
            D3D10ResourceDimension::Texture3D
        } else {
            D3D10ResourceDimension::Texture2D
        },
        alpha_mode: AlphaMode::Unknown,
    })?;
    if dds.data.len() != data.len() {
        return Err(
            format!("DDS size mismatch: container expects {} bytes, have {}", dds.data.len(), data.len()).into()
        );
    }
    dds.data = data;
    let mut out = Vec::new();
    dds.write(&mut out)?;
    crate::tiling::write_atomic(path, &out)
}

/// The DDS container's fixed parts, checked before ddsfile parses them (its errors for a
/// short file read "failed to fill whole buffer"): the magic "DDS " and the 124-byte header,
/// plus the 20-byte DX10 header when the pixel format's FourCC (header offset 80, file offset
/// 84) says "DX10" (Microsoft's DDS reference: DDS_HEADER, DDS_PIXELFORMAT,
/// DDS_HEADER_DXT10). `bytes` is the file's start, at least its first 148 bytes where it has
/// them.
fn check_dds_header(bytes: &[u8]) -> Result<(), String> {
    let short = |what: &str, need: usize| {
        format!("the file holds {} bytes but the DDS {what} needs {need}: it is cut short", bytes.len())
    };
    if bytes.len() < 4 || &bytes[..4] != b"DDS " {
        return Err(match bytes.len() < 4 {
            true => short("magic number", 4),
            false => format!("it does not start with the DDS magic number \"DDS \" (found {:02x?})", &bytes[..4]),
        });
    }
    if bytes.len() < 128 {
        return Err(short("header", 128));
    }
    if &bytes[84..88] == b"DX10" && bytes.len() < 148 {
        return Err(short("header with its DX10 extension", 148));
    }
    Ok(())
}

/// The DXGI format of a DDS file: its DX10 header's, or for a legacy file (no DX10 header,
/// as most texture tools still write) the DXGI twin of its Direct3D 9 format, by Microsoft's
/// tables ("Programming Guide for DDS", learn.microsoft.com, the legacy FourCC and D3DFMT to
/// DXGI mapping; "Map Direct3D 9 Formats to Direct3D 10"). DXT1/DXT3/DXT5 are read as the
/// UNORM BC1/BC2/BC3, as DirectXTex does (the ddsfile crate calls them sRGB; the bytes are the
/// same). L8, L16 and A8L8 read as R8, R16 and R8G8 (the same bytes; a picture shows them in red
/// and green, not grey). Premultiplied DXT2/DXT4 read as BC2/BC3.
fn dds_dxgi(dds: &Dds) -> Option<DxgiFormat> {
    use ddsfile::D3DFormat as L;
    use DxgiFormat as D;
    if let Some(h) = &dds.header10 {
        return Some(h.dxgi_format);
    }
    let twin = match dds.get_d3d_format() {
        Some(L::DXT1) => D::BC1_UNorm,
        Some(L::DXT2 | L::DXT3) => D::BC2_UNorm,
        Some(L::DXT4 | L::DXT5) => D::BC3_UNorm,
        Some(L::A8B8G8R8) => D::R8G8B8A8_UNorm,
        Some(L::A8R8G8B8) => D::B8G8R8A8_UNorm,
        Some(L::X8R8G8B8) => D::B8G8R8X8_UNorm,
        Some(L::G16R16) => D::R16G16_UNorm,
        Some(L::A2B10G10R10) => D::R10G10B10A2_UNorm,
        Some(L::R5G6B5) => D::B5G6R5_UNorm,
        Some(L::A1R5G5B5) => D::B5G5R5A1_UNorm,
        Some(L::A4R4G4B4) => D::B4G4R4A4_UNorm,
        Some(L::A8) => D::A8_UNorm,
        Some(L::L8) => D::R8_UNorm,
        Some(L::L16) => D::R16_UNorm,
        Some(L::A8L8) => D::R8G8_UNorm,
        Some(L::A16B16G16R16) => D::R16G16B16A16_UNorm,
        Some(L::Q16W16V16U16) => D::R16G16B16A16_SNorm,
        Some(L::R16F) => D::R16_Float,
        Some(L::G16R16F) => D::R16G16_Float,
        Some(L::A16B16G16R16F) => D::R16G16B16A16_Float,
        Some(L::R32F) => D::R32_Float,
        Some(L::G32R32F) => D::R32G32_Float,
        Some(L::A32B32G32R32F) => D::R32G32B32A32_Float,
        Some(L::R8G8_B8G8) => D::G8R8_G8B8_UNorm,
        Some(L::G8R8_G8B8) => D::R8G8_B8G8_UNorm,
        Some(L::YUY2) => D::YUY2,
        // ATI1/ATI2 and the BC4/BC5 FourCCs: the crate's own mapping (UNORM already).
        _ => {
            return dds
                .get_dxgi_format()
                .filter(|d| !matches!(d, D::BC1_UNorm_sRGB | D::BC2_UNorm_sRGB | D::BC3_UNorm_sRGB))
        }
    };
    Some(twin)
}

/// Reads a DDS texture as elements of `f`: taken as they are when the DXGI format matches,
/// otherwise decoded with the DXGI format's codec and encoded to `f`.
pub fn read_dds(path: &Path, f: &Format) -> PicResult<DdsTexture> {
    read_dds_file(path, f).map_err(|e| cannot_read("DDS", path, e))
}

fn read_dds_file(path: &Path, f: &Format) -> PicResult<DdsTexture> {
    use std::io::Read;
    let mut file = File::open(path)?;
    let mut head = Vec::with_capacity(148);
    (&mut file).take(148).read_to_end(&mut head)?;
    check_dds_header(&head)?;
    // The checked bytes, then the rest: no seek, so pipes and FIFOs read as before.
    let dds = Dds::read(std::io::Cursor::new(head).chain(BufReader::new(file)))?;
    let dxgi = dds_dxgi(&dds).ok_or_else(|| {
        format!(
            "its legacy format ({}) has no DXGI twin here; save it with a DX10 header",
            dds.get_d3d_format().map_or("a pixel mask".to_string(), |d| format!("{d:?}"))
        )
    })?;
    let extent = Extent { width_px: dds.get_width(), height_px: dds.get_height(), depth: dds.get_depth().max(1) };
    let levels = dds.get_num_mipmap_levels().max(1);
    // Layers from the DX10 header itself: ddsfile's `get_num_array_layers` multiplies a
    // cube array's size by 6 unchecked (a panic or a wrapped count for a crafted header).
    let cube = dds.header10.as_ref().is_some_and(|h| h.misc_flag.contains(ddsfile::MiscFlag::TEXTURECUBE));
    let array_size = dds.header10.as_ref().map_or(1, |h| h.array_size.max(1));
    let layers = match cube {
        true => array_size.checked_mul(6).ok_or(Error::OutOfRange {
            field: "DDS cube count",
            value: u64::from(array_size),
            min: 1,
            max: u64::from(u32::MAX / 6),
        })?,
        false => array_size,
    };
    let src_fmt = if dxgi_of(f) == Some(dxgi) {
        *f
    } else {
        dxgi_table().into_iter().find(|(d, _)| *d == dxgi).map(|p| p.1).ok_or_else(|| Error::Unsupported {
            field: "DDS format",
            value: format!("{dxgi:?}"),
            rule: "no codec for this DXGI format".into(),
        })?
    };
    let src = DdsTexture { extent, levels, layers, cube, data: dds.data.clone() };
    // Checked before any size from the header is used: the header may claim anything.
    let need = src.checked_bytes(&src_fmt)?;
    if src.data.len() < need {
        return Err(Error::BufferTooSmall { what: "DDS data", needed: need as u64, got: src.data.len() as u64 }.into());
    }
    if src_fmt == *f {
        return Ok(src);
    }
    let mut data = try_with_capacity("DDS texture", src.checked_bytes(f)?)?;
    for layer in 0..layers {
        for level in 0..levels {
            let (at, n) = src.span(&src_fmt, layer, level);
            let le = level_extent(extent, level);
            let px = decode_f32(&src_fmt, le, &src.data[at..at + n])?;
            let texels: Vec<Texel> = px.iter().map(|p| f.f32_to_texel(p)).collect();
            data.extend(encode_texels(f, le, &texels)?);
        }
    }
    Ok(DdsTexture { extent, levels, layers, cube, data })
}

// ---------------------------------------------------------------------------------------------
// One-call entry points for the untile/tile commands
// ---------------------------------------------------------------------------------------------

/// Writes one surface (a linear element image) as a picture chosen by the extension of
/// `path`. Returns the files written (the stencil picture too, for PNG of S formats).
pub fn write_surface(path: &Path, f: &Format, e: Extent, data: &[u8]) -> PicResult<Vec<PathBuf>> {
    match PicKind::of(path)? {
        PicKind::Png => {
            let (img, stencil) = to_png(f, e, data)?;
            write_png(path, &img)?;
            let mut files = vec![path.to_path_buf()];
            if let Some(s) = stencil {
                let sp = stencil_path(path);
                write_png(&sp, &s)?;
                files.push(sp);
            }
            Ok(files)
        }
        PicKind::Exr => {
            let px = decode_f32(f, e, data)?;
            write_exr(path, e.width_px, e.height_px * e.depth, &px)?;
            Ok(vec![path.to_path_buf()])
        }
        PicKind::Dds => {
            let tex = DdsTexture { extent: e, levels: 1, layers: 1, cube: false, data: data.to_vec() };
            write_dds(path, f, &tex)?;
            Ok(vec![path.to_path_buf()])
        }
    }
}

/// The width and height in the header of the PNG `path`, without decoding its pixels.
fn png_size(path: &Path) -> PicResult<(u32, u32)> {
    let file = File::open(path).map_err(|e| cannot_read("PNG", path, e))?;
    let dec = png::Decoder::new(BufReader::new(file));
    let info = dec.read_info().map_err(|e| cannot_read("PNG", path, e))?;
    Ok((info.info().width, info.info().height))
}

/// The error for a picture of `got` pixels where the `what` ("surface", "box") is `want`.
fn size_mismatch(path: &Path, got: Extent, want: Extent, what: &str) -> Box<dyn std::error::Error> {
    format!(
        "picture '{}' is {}x{}x{} px but the {what} is {}x{}x{} px",
        path.display(),
        got.width_px,
        got.height_px,
        got.depth,
        want.width_px,
        want.height_px,
        want.depth
    )
    .into()
}

/// Reads a picture into a linear element image of `f` (`depth` slices stacked in PNG/EXR;
/// DDS carries its own). A PNG of an S format takes its stencil from `<name>.stencil.png`
/// when that file exists. With `want` (an extent and what it is, "surface" or "box"), a
/// picture of another size is an error, found from the PNG header before any pixel is
/// decoded (a crafted header cannot make the tool allocate for a size it will refuse).
pub fn read_surface(path: &Path, f: &Format, depth: u32, want: Option<(Extent, &str)>) -> PicResult<(Extent, Vec<u8>)> {
    let (e, data) = read_any_surface(path, f, depth, want)?;
    match want {
        Some((w, what)) if w != e => Err(size_mismatch(path, e, w, what)),
        _ => Ok((e, data)),
    }
}

fn read_any_surface(path: &Path, f: &Format, depth: u32, want: Option<(Extent, &str)>) -> PicResult<(Extent, Vec<u8>)> {
    match PicKind::of(path)? {
        PicKind::Png => {
            // The header is read on its own only from a regular file (a FIFO would lose those
            // bytes); the size is compared again after reading.
            if let (Some((w, what)), true) = (want, is_regular(path)) {
                let (pw, ph) = png_size(path)?;
                if depth == 0 || (pw, ph) != (w.width_px, w.height_px.saturating_mul(depth)) {
                    let got = Extent { width_px: pw, height_px: ph / depth.max(1), depth };
                    return Err(size_mismatch(path, got, w, what));
                }
            }
            let img = read_png(path)?;
            let sp = stencil_path(path);
            let stencil = if f.is_zeta() && sp.exists() { Some(read_png(&sp)?) } else { None };
            // Depth pictures are grey: use one channel.
            let img = if f.is_zeta() {
                PngImage { channels: 1, samples: img.samples.iter().step_by(4).copied().collect(), ..img }
            } else {
                img
            };
            let stencil =
                stencil.map(|s| PngImage { channels: 1, samples: s.samples.iter().step_by(4).copied().collect(), ..s });
            from_png(f, &img, stencil.as_ref(), depth)
        }
        PicKind::Exr => {
            // As for PNG: a picture of another size is refused from its header (a regular file
            // of one layer; others are compared after they are read).
            let claim = if is_regular(path) { Some(exr_size(path)?) } else { None };
            if let (Some((w, what)), Some(c)) = (want, claim.as_ref().filter(|c| c.layers == 1)) {
                let (pw, ph) = c.size;
                if depth == 0 || (pw, ph) != (w.width_px, w.height_px.saturating_mul(depth)) {
                    let got = Extent { width_px: pw, height_px: ph / depth.max(1), depth };
                    return Err(size_mismatch(path, got, w, what));
                }
            }
            let (w, h, px) = read_exr(path, claim.as_ref())?;
            if depth == 0 || h % depth != 0 {
                return Err(Error::NotMultiple {
                    field: "picture height",
                    value: u64::from(h),
                    multiple: u64::from(depth),
                }
                .into());
            }
            let e = Extent { width_px: w, height_px: h / depth, depth };
            let texels: Vec<Texel> = px.iter().map(|p| f.f32_to_texel(p)).collect();
            Ok((e, encode_texels(f, e, &texels)?))
        }
        PicKind::Dds => {
            let tex = read_dds(path, f)?;
            if tex.layers > 1 || tex.levels > 1 {
                eprintln!(
                    "note: '{}' holds {} layer(s) of {} level(s); only layer 0, level 0 is read (`tile --texture` reads them all)",
                    path.display(),
                    tex.layers,
                    tex.levels
                );
            }
            let (_, n) = tex.span(f, 0, 0);
            let mut data = tex.data;
            data.truncate(n);
            Ok((tex.extent, data))
        }
    }
}

/// Arguments of `nvsurf convert`.
#[derive(clap::Args, Debug)]
pub struct ConvertArgs {
    /// Format of the elements (any name, or tex:0x08 / color:0xd5 / zeta:0x16).
    #[arg(long)]
    format: String,
    /// Input: a picture (.png, .exr, .dds) or raw linear elements (any other extension).
    #[arg(long)]
    input: PathBuf,
    /// Output: a picture (.png, .exr, .dds) or raw linear elements (any other extension).
    #[arg(long)]
    output: PathBuf,
    /// Size in pixels, W[xH[xD]], for raw input (pictures carry their own).
    #[arg(long, value_name = "W[xH[xD]]")]
    size: Option<String>,
    /// Slices stacked in a PNG/EXR input (3D surfaces).
    #[arg(long, default_value_t = 1, value_parser = crate::surface_args::clap_u32)]
    depth: u32,
    /// Component types of C0-C3 (texture formats), as for `nvsurf decode`.
    #[arg(long, value_name = "T,T,T,T")]
    components: Option<String>,
    /// Swizzle, as for `nvsurf decode`.
    #[arg(long, value_name = "S,S,S,S")]
    swizzle: Option<String>,
    /// YUV to RGB conversion: raw, bt601, bt709.
    #[arg(long, default_value = "raw")]
    yuv: String,
}

fn parse_extent(s: &str) -> Result<Extent, Error> {
    let bad = || Error::Parse { field: "size", value: s.into(), rule: "W, WxH or WxHxD in pixels, each 1 or more" };
    let v: Vec<u32> =
        s.split(['x', 'X']).map(|p| p.trim().parse::<u32>().map_err(|_| bad())).collect::<Result<_, _>>()?;
    if v.is_empty() || v.len() > 3 || v.contains(&0) {
        return Err(bad());
    }
    Ok(Extent { depth: *v.get(2).unwrap_or(&1), ..Extent::new(v[0], *v.get(1).unwrap_or(&1)) })
}

/// Runs `nvsurf convert`: linear elements <-> pictures, or picture <-> picture.
pub fn run_convert(a: ConvertArgs) -> crate::CmdResult {
    if a.depth == 0 {
        return Err(Error::OutOfRange { field: "depth", value: 0, min: 1, max: u32::MAX.into() }.into());
    }
    let f = crate::decode::build_format(&a.format, a.components.as_deref(), a.swizzle.as_deref(), &a.yuv, false)?;
    let (e, data) = if PicKind::of_linear_side(&a.input)?.is_some() {
        read_surface(&a.input, &f, a.depth, None)?
    } else {
        let size = a.size.as_deref().ok_or(Error::Unsupported {
            field: "size",
            value: "(none)".into(),
            rule: "raw input needs --size W[xH[xD]] in pixels".into(),
        })?;
        let e = parse_extent(size)?;
        // Only the image's bytes are read.
        let need = e.checked_bytes(&f)?;
        let (data, _) = crate::tiling::LineAligned::read_range(&a.input, 0, need as u64)?;
        check_len(&f, e, &data)?;
        (e, data.to_vec())
    };
    let files = if PicKind::of_linear_side(&a.output)?.is_some() {
        write_surface(&a.output, &f, e, &data)?
    } else {
        crate::tiling::write_atomic(&a.output, &data)?;
        vec![a.output.clone()]
    };
    for p in files {
        println!("wrote {} ({}x{}x{} px, {} {})", p.display(), e.width_px, e.height_px, e.depth, f.name(), f.id_name());
    }
    Ok(std::process::ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new scratch directory of the system temp dir for one test's files, removed (with its
    /// files) when the value is dropped at the end of the test.
    fn scratch() -> tempfile::TempDir {
        tempfile::Builder::new().prefix("nvsurf-picture-").tempdir().unwrap()
    }

    /// Issue 5: PNG -> tile -> untile -> PNG for every non-compressed color format. The PNG
    /// read back must equal the PNG of the format's own quantization of the input picture
    /// (decode(encode(picture))), and tiling must move the elements unchanged.
    #[test]
    fn png_tile_untile_png_round_trip_for_every_color_format() {
        use nvsurf::layout::SurfaceDesc;
        use nvsurf::Gpu;
        let tmp = scratch();
        let (w, h) = (37u32, 21u32); // not a multiple of any gob or block
        for c in color_formats() {
            let f = Format::from_color(c);
            let (bw, bh) = f.block_dims();
            let bits16 = png_needs_16_bits(&f);
            let max = if bits16 { 65535u32 } else { 255 };
            // A picture with varied samples in every channel.
            let samples: Vec<u16> =
                (0..w * h * 4).map(|i| ((i.wrapping_mul(2_654_435_761) >> 7) % (max + 1)) as u16).collect();
            let input = PngImage { width: w, height: h, bits: if bits16 { 16 } else { 8 }, channels: 4, samples };
            let p_in = tmp.path().join(format!("rt-in-{:02x}.png", c.id));
            write_png(&p_in, &input).unwrap();
            let (e, linear) = read_surface(&p_in, &f, 1, None).unwrap();
            // Tile into a GF100 blocklinear surface with 2x4 gob blocks, untile back.
            let mut d = SurfaceDesc::new(Gpu::Gf100, f.elem_size_bytes(), [w.div_ceil(bw), h.div_ceil(bh), 1]);
            d.block_log2 = Some([0, 2, 0]);
            let s = d.build().unwrap();
            let tiled = nvsurf::tile::tile_to_vec(&s, &linear).unwrap();
            assert_ne!(tiled[..linear.len().min(tiled.len())], linear[..], "{}: tiling moved nothing", f.name());
            let back = nvsurf::tile::untile_to_vec(&s, &tiled).unwrap();
            assert_eq!(back, linear, "{}", f.name());
            let p_out = tmp.path().join(format!("rt-out-{:02x}.png", c.id));
            write_surface(&p_out, &f, e, &back).unwrap();
            let got = read_png(&p_out).unwrap();
            let (want, _) = to_png(&f, e, &linear).unwrap();
            assert_eq!(got, want, "{}", f.name());
            // Formats whose every channel holds 8 or 16 PNG bits exactly keep the picture.
            if matches!(c.id, 0xd5 | 0xc6 | 0xcf) {
                assert_eq!(got, input, "{}", f.name());
            }
        }
    }

    #[test]
    fn dxgi_twins_have_the_same_element_size() {
        use ddsfile::DataFormat;
        for (d, f) in dxgi_table() {
            let bits = d.get_bits_per_pixel().map(u32::from);
            let block = d.get_block_size();
            match (bits, block) {
                (Some(b), _) => assert_eq!(b, f.elem_size_bytes() * 8, "{d:?} vs {}", f.name()),
                (None, Some(b)) => assert_eq!(b, f.elem_size_bytes(), "{d:?} vs {}", f.name()),
                _ => panic!("{d:?} has no size"),
            }
        }
        assert_eq!(dxgi_of(&Format::parse("BGRA8_UNORM").unwrap()), Some(DxgiFormat::B8G8R8A8_UNorm));
        assert_eq!(dxgi_of(&Format::parse("tex:0x15").unwrap()), None); // R in the low bits
        assert_eq!(dxgi_of(&Format::parse("R5G6B5").unwrap()), Some(DxgiFormat::B5G6R5_UNorm));
    }

    #[test]
    fn png_16_bit_round_trip_and_depth_stencil() {
        let tmp = scratch();
        let f = Format::parse("Z24_S8").unwrap();
        let e = Extent::new(3, 2);
        let texels: Vec<Texel> =
            (0..6u32).map(|i| f.f32_to_texel(&[i as f32 / 5.0, (i * 40) as f32, 0.0, 1.0])).collect();
        let data = encode_texels(&f, e, &texels).unwrap();
        let p = tmp.path().join("z.png");
        let files = write_surface(&p, &f, e, &data).unwrap();
        assert_eq!(files, vec![p.clone(), stencil_path(&p)]);
        let depth = read_png(&p).unwrap();
        assert_eq!(depth.bits, 16);
        assert_eq!(depth.samples[4 * 5], 65535); // Z = 1.0
        let st = read_png(&stencil_path(&p)).unwrap();
        assert_eq!(st.samples[4 * 5], 200);
        // Depth at 16 bits loses the low 8 bits of Z24; stencil is exact.
        let (e2, back) = read_surface(&p, &f, 1, None).unwrap();
        assert_eq!(e2, e);
        let t2 = decode_texels(&f, e, &back).unwrap();
        for (a, b) in texels.iter().zip(&t2) {
            assert_eq!(a[1], b[1]);
            assert!((f32::from_bits(a[0]) - f32::from_bits(b[0])).abs() < 1.0 / 65535.0);
        }
    }

    #[test]
    fn exr_and_dds_round_trip() {
        let tmp = scratch();
        let f = Format::parse("RGBA16_FLOAT").unwrap();
        let e = Extent::new(5, 3);
        let texels: Vec<Texel> = (0..15u32).map(|i| f.f32_to_texel(&[i as f32 * 0.5, -1.5, 1e4, 0.25])).collect();
        let data = encode_texels(&f, e, &texels).unwrap();
        for name in ["a.exr", "a.dds"] {
            let p = tmp.path().join(name);
            write_surface(&p, &f, e, &data).unwrap();
            let (e2, back) = read_surface(&p, &f, 1, None).unwrap();
            assert_eq!((e2, &back), (e, &data), "{name}");
        }
        // DDS of a format without a DXGI twin goes through RGBA32F and back.
        let g = Format::parse("tex:0x16").unwrap(); // 5_5_6
        let gd: Vec<u8> = (0..30u8).collect();
        let p = tmp.path().join("b.dds");
        write_surface(&p, &g, e, &gd).unwrap();
        let (_, back) = read_surface(&p, &g, 1, None).unwrap();
        assert_eq!(back, gd);
    }

    #[test]
    fn dds_texture_with_mips_and_cube_faces() {
        let tmp = scratch();
        let f = Format::parse("bc1").unwrap();
        let tex0 = DdsTexture { extent: Extent::new(16, 16), levels: 5, layers: 6, cube: true, data: Vec::new() };
        let n = tex0.bytes(&f);
        assert_eq!(n, 6 * 8 * (16 + 4 + 1 + 1 + 1));
        let tex = DdsTexture { data: (0..n).map(|i| (i * 13 % 251) as u8).collect(), ..tex0 };
        let p = tmp.path().join("cube.dds");
        write_dds(&p, &f, &tex).unwrap();
        let back = read_dds(&p, &f).unwrap();
        assert_eq!(back, tex);
        // Read as another format: decoded and re-encoded.
        let g = Format::parse("RGBA8_UNORM").unwrap();
        let as_rgba = read_dds(&p, &g).unwrap();
        assert_eq!(as_rgba.data.len(), as_rgba.bytes(&g));
        let (at, _) = as_rgba.span(&g, 0, 0);
        let mut want = [[0u8; 4]; 16];
        f.decode_rect_rgba8(&tex.data[..8], 8, 4, 4, &mut want).unwrap();
        assert_eq!(&as_rgba.data[at..at + 16], want[..4].as_flattened());
    }
}
