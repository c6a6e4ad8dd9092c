//! PNG band by band: `untile` writes a picture as the rows come out of the untile, and `tile`
//! reads one as the rows are tiled, so neither holds the whole picture (a 16384x16384 RGBA8
//! surface is 1 GiB of elements; its PNG samples were 2 GiB more). Interlaced PNGs cannot be
//! read row by row and are decoded whole; depth/stencil formats (two pictures) go the whole
//! way too ([`super::write_surface`], [`super::read_surface`]).

use super::encoding::Encoding;
use super::kind::{cannot_read, png_error, PicResult};
use super::png::{from_png, png_needs_16_bits, to_png, PngImage};
use nvsurf::codec::ComponentType;
use nvsurf::extent::{Extent, Texels};
use nvsurf::format::{Format, Layout};
use nvsurf::Error;
use std::fs::File;
use std::io::{BufReader, Write};
use std::path::Path;

/// How hard the PNG encoder works: `fast` (our own Huffman-only encoder, the default:
/// [`super::png_fast`], a large picture is written at about the speed of the untile), `default` (the png crate's balanced level) or `best`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PngCompression {
    /// Extremely fast compression with a decent ratio.
    #[default]
    Fast,
    /// Balanced speed and size.
    Default,
    /// The smallest files, slowest.
    Best,
}

impl PngCompression {
    /// Parses `fast`, `default` or `best`.
    pub fn parse(s: &str) -> Result<PngCompression, Error> {
        match s.trim().to_ascii_lowercase().as_str() {
            "fast" => Ok(PngCompression::Fast),
            "default" | "balanced" => Ok(PngCompression::Default),
            "best" | "high" => Ok(PngCompression::Best),
            _ => Err(Error::UnknownName {
                kind: "PNG compression",
                name: s.into(),
                suggestions: nvsurf::error::closest(s, ["fast", "default", "best"]),
            }),
        }
    }

    fn to_png(self) -> png::Compression {
        match self {
            PngCompression::Fast => png::Compression::Fast,
            PngCompression::Default => png::Compression::Balanced,
            PngCompression::Best => png::Compression::High,
        }
    }
}

/// Whether a surface of `f` goes to PNG band by band (one picture: not depth/stencil).
pub fn streams(f: &Format) -> bool {
    !matches!(f.layout(), Layout::Zeta(_))
}

/// Why writing `f` to PNG loses information, if it does: float and signed channels are
/// clamped to [0, 1], 32-bit integers saturate at 65535.
pub fn lossy(f: &Format) -> Option<String> {
    let types = f.components();
    let name = f.name();
    if types.contains(&ComponentType::Float) {
        return Some(format!("{name} has float channels: PNG clamps them to [0, 1] and quantizes"));
    }
    if types.contains(&ComponentType::Snorm) {
        return Some(format!("{name} has signed channels: PNG clamps negative values to 0"));
    }
    match f.layout() {
        Layout::Simple(bits) if bits.iter().any(|&b| b > 16) => {
            Some(format!("{name} has 32-bit channels: PNG saturates them at 65535"))
        }
        _ => None,
    }
}

/// The PNG rows of a band of a linear element image (`e`: the band's pixels, one slice):
/// 8-bit RGBA for formats of at most 8 bits per channel, 16-bit big-endian RGBA otherwise.
fn band_bytes(f: &Format, e: Extent<Texels>, data: &[u8], out: &mut Vec<u8>) -> PicResult<()> {
    let (img, _) = to_png(f, e, data)?;
    out.clear();
    if img.bits == 16 {
        out.extend(img.samples.iter().flat_map(|s| s.to_be_bytes()));
    } else {
        out.extend(img.samples.iter().map(|&s| s as u8));
    }
    Ok(())
}

/// Whether the RGBA8 decoder gives exactly the PNG's 8-bit samples for `f`: every channel a
/// normalized (unorm) value of at most 8 bits, no sRGB decode (PNG stores sRGB as it is).
fn rgba8_direct(f: &Format) -> bool {
    !png_needs_16_bits(f)
        && f.components().iter().all(|t| *t == ComponentType::Unorm)
        && f.yuv_matrix() == nvsurf::codec::YuvMatrix::Raw
}

/// Whether the elements of `f` are the PNG's RGBA8 bytes as they are (R8G8B8A8 unorm): a
/// direct format of 4-byte, one-pixel elements whose decode gives back every byte of every
/// lane, tried on the 256 values of each. Its bands go to the encoder without a decode.
fn rgba8_identity(f: &Format) -> bool {
    if !rgba8_direct(f) || f.block_dims() != (1, 1) || f.elem_size_bytes() != 4 {
        return false;
    }
    let probe: Vec<[u8; 4]> = (0..=255u8).map(|v| [v, v ^ 0x55, v ^ 0xaa, v ^ 0xff]).collect();
    let mut px = vec![[0u8; 4]; probe.len()];
    f.decode_rect_rgba8(probe.as_flattened(), probe.len() * 4, probe.len() as u32, 1, &mut px).is_ok() && px == probe
}

/// The output of a [`PngWriter`]: the file, with the first write error it met kept aside. The
/// png crate's stream writer can drop an error of its inner writer (a full disk then gave a
/// PNG without its image data and status 0); the writer asks this latch after every step.
struct Latched {
    out: crate::io::write::OutFile,
    failed: std::rc::Rc<std::cell::RefCell<Option<std::io::Error>>>,
}

impl Write for Latched {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.out.write(buf).inspect_err(|e| {
            self.failed.borrow_mut().get_or_insert_with(|| std::io::Error::new(e.kind(), e.to_string()));
        })
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush().inspect_err(|e| {
            self.failed.borrow_mut().get_or_insert_with(|| std::io::Error::new(e.kind(), e.to_string()));
        })
    }
}

/// Where a [`PngWriter`]'s rows go: the png crate's stream encoder (`default`, `best`), or
/// our own for `fast` ([`super::png_fast`]).
enum Sink {
    Crate {
        stream: Box<png::StreamWriter<'static, Latched>>,
        failed: std::rc::Rc<std::cell::RefCell<Option<std::io::Error>>>,
    },
    Fast(Box<super::png_fast::FastPng<crate::io::write::OutFile>>),
}

/// A PNG written row band by row band into a file, `width` x `height` pixels of `f`. The
/// encoder hands the file whole chunks, so no buffer stands between them.
pub struct PngWriter {
    sink: Sink,
    format: Format,
    direct: bool,
    identity: bool,
    /// The bytes of the file handed to writeback so far (`fast`).
    synced: u64,
    rows: Vec<u8>,
    px: Vec<[u8; 4]>,
}

impl PngWriter {
    /// Writes the PNG header for a `width` x `height` picture of `f` to `out`.
    pub fn new(
        out: crate::io::write::OutFile,
        f: &Format,
        width_px: u32,
        height_px: u32,
        c: PngCompression,
    ) -> PicResult<Self> {
        let view = f.with_srgb(false);
        let bits16 = png_needs_16_bits(&view);
        let sink = if c == PngCompression::Fast {
            Sink::Fast(Box::new(super::png_fast::FastPng::new(out, width_px, height_px, bits16)?))
        } else {
            let failed = std::rc::Rc::new(std::cell::RefCell::new(None));
            let mut enc = png::Encoder::new(Latched { out, failed: failed.clone() }, width_px, height_px);
            enc.set_color(png::ColorType::Rgba);
            enc.set_depth(if bits16 { png::BitDepth::Sixteen } else { png::BitDepth::Eight });
            enc.set_compression(c.to_png());
            let stream = Box::new(enc.write_header()?.into_stream_writer_with_size(1 << 20)?);
            Sink::Crate { stream, failed }
        };
        let (direct, identity) = (rgba8_direct(&view), rgba8_identity(&view));
        let w = PngWriter { sink, format: view, direct, identity, synced: 0, rows: Vec::new(), px: Vec::new() };
        w.check()?;
        Ok(w)
    }

    /// The first write error the file met, if any (see [`Latched`]).
    fn check(&self) -> PicResult<()> {
        match &self.sink {
            Sink::Crate { failed, .. } => match failed.borrow_mut().take() {
                Some(e) => Err(Box::new(e)),
                None => Ok(()),
            },
            Sink::Fast(_) => Ok(()),
        }
    }

    /// Appends the rows of a band: `data` holds `e.height` pixel rows of linear elements
    /// (packed rows of whole elements; a block format's last band may end inside a block).
    pub fn write_band(&mut self, e: Extent<Texels>, data: &[u8]) -> PicResult<()> {
        self.write_band_in(e, data, None)
    }

    /// [`PngWriter::write_band`], the band decoded by bands of element rows on `pool`'s threads
    /// (`Format::decode_rect_rgba8_par`) where it has one, and for `fast` compressed in pieces
    /// there too; the pixels are the same.
    pub fn write_band_in(&mut self, e: Extent<Texels>, data: &[u8], pool: Option<&rayon::ThreadPool>) -> PicResult<()> {
        let bytes: &[u8] = if self.identity {
            let len = e.width as usize * e.height as usize * 4;
            data.get(..len).ok_or_else(|| format!("{} bytes are not {}x{} px", data.len(), e.width, e.height))?
        } else if self.direct {
            let n = e.width as usize * e.height as usize;
            // Every pixel is decoded over: a buffer of the band's size is not zeroed again.
            if self.px.len() != n {
                self.px.clear();
                self.px.resize(n, [0; 4]);
            }
            let (f, px, pitch) = (&self.format, &mut self.px, e.row_bytes(&self.format));
            match pool {
                Some(p) => p.install(|| f.decode_rect_rgba8_par(data, pitch, e.width, e.height, px))?,
                None => f.decode_rect_rgba8(data, pitch, e.width, e.height, px)?,
            }
            self.px.as_flattened()
        } else {
            band_bytes(&self.format, Extent::<Texels>::new(e.width, e.height, 1), data, &mut self.rows)?;
            &self.rows
        };
        match &mut self.sink {
            Sink::Crate { stream, .. } => stream.write_all(bytes)?,
            Sink::Fast(w) => {
                w.write_rows(bytes, pool)?;
                // What this band wrote goes to the disk while the next is computed, as a
                // streamed raw output's does (`io::writeback`).
                let (file, written) = w.output();
                crate::io::writeback::start(&file.0, self.synced, written - self.synced);
                self.synced = written;
            }
        }
        self.check()
    }

    /// Ends the PNG (every row must have been written) and flushes it to the file.
    pub fn finish(self) -> PicResult<()> {
        match self.sink {
            Sink::Crate { stream, failed } => {
                let result = stream.finish();
                if let Some(e) = failed.borrow_mut().take() {
                    return Err(Box::new(e));
                }
                result?;
            }
            Sink::Fast(w) => {
                w.finish()?;
            }
        }
        Ok(())
    }
}

/// An error of a [`PngWriter`] writing `path`, with the file's I/O errors (a full disk, ...)
/// as "cannot write 'PATH': cause"; other errors as they are.
pub fn write_error(path: &Path, e: Box<dyn std::error::Error>) -> Box<dyn std::error::Error> {
    if let Some(x) = e.downcast_ref::<std::io::Error>() {
        return format!("cannot write '{}': {x}", path.display()).into();
    }
    match e.downcast_ref::<png::EncodingError>() {
        Some(png::EncodingError::IoError(x)) => format!("cannot write '{}': {x}", path.display()).into(),
        _ => e,
    }
}

/// Where the bytes of a linear element image come from: memory, or a file read band by band
/// with positioned reads (the bytes from `offset` on).
pub enum ElementSource<'a> {
    /// The whole image in memory.
    Memory(&'a [u8]),
    /// The image at `offset` of `file` (`path` for messages), read into `buf` a band at a time.
    File { file: &'a File, path: &'a Path, offset: u64, buf: Vec<u8> },
}

impl ElementSource<'_> {
    /// Bytes `at..at + len` of the image.
    fn band(&mut self, at: usize, len: usize) -> PicResult<&[u8]> {
        match self {
            ElementSource::Memory(d) => d
                .get(at..at.saturating_add(len))
                .ok_or_else(|| format!("{} bytes end before byte {}", d.len(), at + len).into()),
            ElementSource::File { file, path, offset, buf } => {
                use std::os::unix::fs::FileExt;
                if buf.len() < len {
                    buf.try_reserve_exact(len - buf.len())
                        .map_err(|_| format!("cannot allocate {len} bytes for a band"))?;
                    buf.resize(len, 0);
                }
                file.read_exact_at(&mut buf[..len], *offset + at as u64).map_err(|e| cannot_read("raw", path, e))?;
                Ok(&buf[..len])
            }
        }
    }
}

/// Writes a linear element image of `f` (`e`: slices stacked top to bottom) from `src` as a
/// PNG into `out`, `band_rows` element rows at a time, so that only a band of samples (and, from
/// a file, a band of elements) is held.
pub fn write_image(
    out: &crate::io::write::OutFile,
    path: &Path,
    f: &Format,
    e: Extent<Texels>,
    mut src: ElementSource,
    (c, band_rows, pool): (PngCompression, u32, Option<&rayon::ThreadPool>),
) -> PicResult<()> {
    let io = |e| write_error(path, e);
    let file = crate::io::hooks::Counted(out.0.try_clone().map_err(|e| write_error(path, Box::new(e)))?);
    let height = e.height.checked_mul(e.depth).ok_or("picture height overflows")?;
    let (_, bh) = f.block_dims();
    let (row_bytes, slice_bytes) = (e.row_bytes(f), e.slice_bytes(f));
    let elem_rows = e.to_elements(f).height;
    if let ElementSource::Memory(data) = src {
        if data.len() < slice_bytes.saturating_mul(e.depth as usize) {
            return Err(format!("{} bytes are not a {}x{}x{} px image", data.len(), e.width, e.height, e.depth).into());
        }
    }
    let mut w = PngWriter::new(file, f, e.width, height, c).map_err(io)?;
    for z in 0..e.depth as usize {
        let mut ey = 0;
        while ey < elem_rows {
            let h = band_rows.max(1).min(elem_rows - ey);
            let px_rows = ((ey + h) * bh).min(e.height) - ey * bh;
            let band = src.band(z * slice_bytes + ey as usize * row_bytes, h as usize * row_bytes)?;
            w.write_band_in(Extent::<Texels>::new(e.width, px_rows, 1), band, pool).map_err(io)?;
            ey += h;
        }
    }
    w.finish().map_err(io)
}

/// A PNG read row band by row band (non-interlaced; see the module docs), as RGBA samples.
pub struct PngReader {
    reader: png::Reader<BufReader<File>>,
    /// Width in pixels.
    pub width_px: u32,
    /// Height in pixels.
    pub height_px: u32,
    bits16: bool,
    channels: usize,
    /// The image data as stored (before EXPAND), in bytes.
    stored_bytes: u64,
}

impl PngReader {
    /// Opens `path` and reads its header; `None` for an interlaced PNG (decode it whole).
    pub fn open(path: &Path) -> PicResult<Option<PngReader>> {
        let file = File::open(path).map_err(|e| cannot_read("PNG", path, e))?;
        let mut dec = png::Decoder::new(BufReader::new(file));
        dec.set_transformations(png::Transformations::EXPAND);
        let reader = dec.read_info().map_err(|e| png_error(path, e))?;
        let info = reader.info();
        if info.interlaced {
            return Ok(None);
        }
        let (width_px, height_px) = (info.width, info.height);
        let stored_bytes = (info.raw_row_length() as u64).saturating_mul(u64::from(height_px));
        let (color, depth) = reader.output_color_type();
        let channels = match color {
            png::ColorType::Grayscale => 1,
            png::ColorType::GrayscaleAlpha => 2,
            png::ColorType::Rgb => 3,
            _ => 4,
        };
        Ok(Some(PngReader {
            reader,
            width_px,
            height_px,
            bits16: depth == png::BitDepth::Sixteen,
            channels,
            stored_bytes,
        }))
    }

    /// Refuses a header whose size no compression could reach from the file's length, as
    /// [`super::png::read_png`] does before it allocates (the stored rows, before EXPAND).
    pub fn check_claim(&self, path: &Path) -> PicResult<()> {
        super::size::check_decoded_size(path, self.width_px, self.height_px, self.stored_bytes)
            .map_err(|e| cannot_read("PNG", path, e))
    }

    /// The next `rows` rows as a picture of RGBA samples (grey copied to R, G, B; missing
    /// alpha opaque), the same as [`super::png::read_png`] gives for those rows.
    pub fn read_rows(&mut self, path: &Path, rows: u32) -> PicResult<PngImage> {
        let max: u16 = if self.bits16 { 65535 } else { 255 };
        let w = self.width_px as usize;
        let mut samples = Vec::with_capacity(w * rows as usize * 4);
        for _ in 0..rows {
            let row = self
                .reader
                .next_row()
                .map_err(|e| png_error(path, e))?
                .ok_or_else(|| cannot_read("PNG", path, "it ends before its last row"))?;
            let line = row.data();
            let ch = self.channels;
            for x in 0..w {
                let s = |c: usize| -> u16 {
                    let i = x * ch + c;
                    if self.bits16 {
                        u16::from_be_bytes([line[2 * i], line[2 * i + 1]])
                    } else {
                        u16::from(line[i])
                    }
                };
                samples.extend_from_slice(&match ch {
                    1 => [s(0), s(0), s(0), max],
                    2 => [s(0), s(0), s(0), s(1)],
                    3 => [s(0), s(1), s(2), max],
                    _ => [s(0), s(1), s(2), s(3)],
                });
            }
        }
        Ok(PngImage {
            width: self.width_px,
            height: rows,
            bits: if self.bits16 { 16 } else { 8 },
            channels: 4,
            samples,
        })
    }
}

/// A band of PNG rows to linear elements of `f` (the inverse of the writer's band), encoded
/// with `enc` (whose PSNR sums take the band's errors).
pub fn band_elements(f: &Format, img: &PngImage, enc: &Encoding) -> PicResult<Vec<u8>> {
    Ok(from_png(f, img, None, 1, enc)?.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The direct RGBA8 path writes the same samples as the generic conversion, for every
    /// format it takes.
    #[test]
    fn direct_rows_equal_the_generic_ones() {
        let mut checked = 0;
        for name in nvsurf::format::all_names() {
            let Ok(f) = Format::parse(name) else { continue };
            let view = f.with_srgb(false);
            if !rgba8_direct(&view) || !streams(&view) {
                continue;
            }
            let (bw, bh) = view.block_dims();
            let e = Extent::<Texels>::new(3 * bw, 2 * bh, 1);
            let data: Vec<u8> = (0..e.bytes(&view)).map(|i| (i * 37 + 11) as u8).collect();
            let mut generic = Vec::new();
            band_bytes(&view, e, &data, &mut generic).unwrap();
            let mut px = vec![[0u8; 4]; (e.width * e.height) as usize];
            view.decode_rect_rgba8(&data, e.row_bytes(&view), e.width, e.height, &mut px).unwrap();
            assert_eq!(px.as_flattened(), &generic[..], "{name}");
            assert_eq!(rgba8_identity(&view), px.as_flattened() == &data[..], "{name}");
            // Every pixel is written (the writer decodes over its last band's pixels).
            let mut over = vec![[0xa5u8; 4]; px.len()];
            view.decode_rect_rgba8(&data, e.row_bytes(&view), e.width, e.height, &mut over).unwrap();
            assert_eq!(over, px, "{name}");
            checked += 1;
        }
        assert!(checked > 10, "{checked}");
    }

    #[test]
    fn compression_names_and_lossy_formats() {
        assert_eq!(PngCompression::parse("BEST").unwrap(), PngCompression::Best);
        assert!(PngCompression::parse("fastest!").is_err());
        assert!(lossy(&Format::parse("RGBA16_FLOAT").unwrap()).is_some());
        assert!(lossy(&Format::parse("RGBA16_SNORM").unwrap()).is_some());
        assert!(lossy(&Format::parse("RGBA16_UNORM").unwrap()).is_none());
        assert!(lossy(&Format::parse("A8B8G8R8").unwrap()).is_none());
    }
}
