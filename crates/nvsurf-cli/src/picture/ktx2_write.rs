//! KTX2 out: the container laid out by this module (the `ktx2` crate reads only), after the
//! Khronos KTX 2.0 specification (registry.khronos.org/KTX/specs/2.0/ktxspec.v2.html),
//! sections "File Structure", "Header", "Index", "Level Index", "Data Format Descriptor",
//! "Key/Value Data" and "Mip Level Array". The Data Format Descriptor's basic block for the
//! `vkFormat` comes from the `ktx2` crate's generator (Khronos Data Format specification 1.3,
//! "Basic descriptor block"), so it matches what that crate (and the Khronos tools) expect.
//!
//! The elements are written as they are when the format has a Vulkan twin
//! ([`super::vk_format::vk_of`]); otherwise decoded to `R32G32B32A32_SFLOAT`, as DDS does.

use super::kind::{Ktx2Options, PicResult};
use super::texels::decode_f32;
use super::texture::{level_extent, DdsTexture};
use super::vk_format::{vk_name, vk_of};
use nvsurf::format::Format;
use nvsurf::Error;
use std::io::Write;
use std::path::Path;

/// The 12-byte file identifier, `«KTX 20»\r\n\x1A\n` (section "Identifier").
pub const KTX2_IDENTIFIER: [u8; 12] = [0xAB, 0x4B, 0x54, 0x58, 0x20, 0x32, 0x30, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A];

/// Bytes of the header with its index (section "Header": 12 + 9 x 4 + 4 x 4 + 2 x 8).
pub const HEADER_BYTES: usize = 80;

/// Bytes of one level index entry (byteOffset, byteLength, uncompressedByteLength: 3 x u64).
pub const LEVEL_ENTRY_BYTES: usize = 24;

/// supercompressionScheme values (section "supercompressionScheme", Table 2).
pub const SCHEME_NONE: u32 = 0;
/// Basis Universal LZ.
pub const SCHEME_BASISLZ: u32 = 1;
/// Zstandard.
pub const SCHEME_ZSTD: u32 = 2;
/// ZLIB.
pub const SCHEME_ZLIB: u32 = 3;

/// The zstd levels `--ktx2-zstd` takes (the zstd library's range of ordinary levels).
pub const ZSTD_LEVELS: std::ops::RangeInclusive<i32> = 1..=22;

/// Checks a `--ktx2-zstd` level: 1 to 22 (zstd's ordinary levels).
pub fn check_zstd_level(level: Option<i32>) -> Result<(), Error> {
    match level {
        Some(l) if !ZSTD_LEVELS.contains(&l) => {
            Err(Error::Unsupported { field: "ktx2-zstd", value: l.to_string(), rule: "zstd levels are 1 to 22".into() })
        }
        _ => Ok(()),
    }
}

/// `n` rounded up to a multiple of `a` (a > 0), checked.
fn align_up(n: usize, a: usize) -> Result<usize, Error> {
    n.checked_next_multiple_of(a)
        .ok_or(Error::Overflow { what: "KTX2 file offset", detail: format!("{n} rounded up to {a}") })
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// A texture's level data as a KTX2 file's levels are made from it: each layer of a level, in
/// order. The in-memory texture ([`Levels`]) is one; a texture untiled band by band from a dump
/// (`copy/texture_stream.rs`) is another.
pub trait LayerSource {
    /// Hands the bytes of every layer of `level` to `put`, layer after layer, in one or more
    /// pieces each.
    fn each_layer(&mut self, level: u32, put: &mut dyn FnMut(&[u8]) -> PicResult<()>) -> PicResult<()>;
}

/// What one level of the file is made from: for each layer, the elements as they are, or
/// decoded to RGBA32F.
struct Levels<'a, D> {
    f: &'a Format,
    tex: &'a DdsTexture<D>,
    decode: bool,
}

impl<D: AsRef<[u8]>> LayerSource for Levels<'_, D> {
    fn each_layer(&mut self, level: u32, put: &mut dyn FnMut(&[u8]) -> PicResult<()>) -> PicResult<()> {
        let data = self.tex.data.as_ref();
        for layer in 0..self.tex.layers {
            let (at, n) = self.tex.span(self.f, layer, level);
            let bytes = &data[at..at + n];
            if self.decode {
                let px = decode_f32(self.f, level_extent(self.tex.extent, level), bytes)?;
                put(&px.iter().flatten().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>())?;
            } else {
                put(bytes)?;
            }
        }
        Ok(())
    }
}

/// Refuses what a KTX2 file cannot hold: a zstd level out of range, a cube that is not 6
/// square faces of depth 1, a 3D texture with layers.
fn check_shape<D>(tex: &DdsTexture<D>, opt: Ktx2Options) -> PicResult<()> {
    check_zstd_level(opt.zstd_level)?;
    if tex.cube && (!tex.layers.is_multiple_of(6) || tex.extent.width != tex.extent.height || tex.extent.depth != 1) {
        return Err(Error::Unsupported {
            field: "KTX2 cube",
            value: format!("{} layers of {}x{}x{}", tex.layers, tex.extent.width, tex.extent.height, tex.extent.depth),
            rule: "a cube map has 6 square faces per cube and depth 1".into(),
        }
        .into());
    }
    if tex.extent.depth > 1 && tex.layers > 1 {
        return Err(Error::Unsupported {
            field: "KTX2 layers",
            value: tex.layers.to_string(),
            rule: "a 3D texture has one layer".into(),
        }
        .into());
    }
    Ok(())
}

/// Key/value data: one KTXwriter entry, "nvsurf VERSION" NUL-terminated (section
/// "KTXwriter"), its length first and padded to 4 bytes.
fn writer_kvd() -> PicResult<Vec<u8>> {
    let mut kv = b"KTXwriter\0".to_vec();
    kv.extend_from_slice(concat!("nvsurf ", env!("CARGO_PKG_VERSION"), "\0").as_bytes());
    let mut kvd = u32::try_from(kv.len())?.to_le_bytes().to_vec();
    kvd.extend_from_slice(&kv);
    kvd.resize(align_up(kvd.len(), 4)?, 0);
    Ok(kvd)
}

/// The parts of a KTX2 file that do not depend on the level data: the Vulkan format, whether
/// the elements are decoded, the DFD and key/value data and where they go, and the alignment
/// of each level's start.
struct Layout<'a, D> {
    tex: &'a DdsTexture<D>,
    opt: Ktx2Options,
    vk: ktx2::Format,
    type_size: u32,
    decode: bool,
    dfd_block: Vec<u8>,
    kvd: Vec<u8>,
    /// Where the DFD starts (after the level index).
    dfd_offset: usize,
    /// Where the first level may start.
    data_start: usize,
    /// Each level's start is a multiple of this (1 with supercompression).
    align: usize,
}

impl<'a, D> Layout<'a, D> {
    fn new(f: &Format, tex: &'a DdsTexture<D>, opt: Ktx2Options) -> PicResult<Self> {
        check_shape(tex, opt)?;
        // The file's format: the elements', or RGBA32F for decoded pixels.
        let (vk, file_fmt, decode) = match vk_of(f) {
            Some(vk) => (vk, *f, false),
            None => {
                let rgba = Format::parse("RGBA32_FLOAT")?;
                (vk_of(&rgba).ok_or("RGBA32_FLOAT has no Vulkan twin")?, rgba, true)
            }
        };
        let (basic, type_size) = ktx2::dfd::Basic::from_format(vk)
            .map_err(|e| format!("no Data Format Descriptor for {}: {e}", vk_name(vk.value())))?;
        let dfd_block = ktx2::dfd::Block::Basic(basic).to_vec();
        let kvd = writer_kvd()?;
        let dfd_offset = HEADER_BYTES + tex.levels as usize * LEVEL_ENTRY_BYTES;
        let data_start = dfd_offset + 4 + dfd_block.len() + kvd.len();
        // Level data: smallest level first, each start aligned to lcm(texel block size, 4)
        // without supercompression, unaligned with it (section "Mip Level Array", mipPadding).
        let block = file_fmt.elem_size_bytes() as usize;
        let align = if opt.zstd_level.is_some() { 1 } else { block / gcd(block, 4) * 4 };
        Ok(Layout { tex, opt, vk, type_size, decode, dfd_block, kvd, dfd_offset, data_start, align })
    }

    /// Bytes of `level` in the file (all its layers), before supercompression.
    fn raw_len(&self, f: &Format, level: u32) -> PicResult<u64> {
        let e = level_extent(self.tex.extent, level);
        let per_layer = match self.decode {
            true => [e.width, e.height, e.depth, 16].map(u64::from).iter().product::<u64>(),
            false => self.tex.span(f, 0, level).1 as u64,
        };
        Ok(per_layer.checked_mul(u64::from(self.tex.layers)).ok_or("KTX2 level size overflows")?)
    }

    /// The header, level index (`entries`: byteOffset, byteLength, uncompressedByteLength per
    /// level), DFD and key/value data: the file's first [`Layout::data_start`] bytes.
    fn head(&self, entries: &[(u64, u64, u64)]) -> PicResult<Vec<u8>> {
        let (tex, e) = (self.tex, self.tex.extent);
        let layer_count = if tex.cube { tex.layers / 6 } else { tex.layers };
        let dfd_len = 4 + self.dfd_block.len();
        let kvd_offset = self.dfd_offset + dfd_len;
        let mut head = Vec::with_capacity(self.data_start);
        head.extend_from_slice(&KTX2_IDENTIFIER);
        for v in [
            self.vk.value(),
            self.type_size,
            e.width,
            e.height,
            // pixelDepth and layerCount are 0 for a texture that is not 3D / not an array.
            if e.depth > 1 { e.depth } else { 0 },
            if layer_count > 1 { layer_count } else { 0 },
            if tex.cube { 6 } else { 1 },
            tex.levels,
            if self.opt.zstd_level.is_some() { SCHEME_ZSTD } else { SCHEME_NONE },
            u32::try_from(self.dfd_offset)?,
            u32::try_from(dfd_len)?,
            u32::try_from(kvd_offset)?,
            u32::try_from(self.kvd.len())?,
        ] {
            head.extend_from_slice(&v.to_le_bytes());
        }
        // No supercompression global data: sgdByteOffset and sgdByteLength 0.
        head.extend_from_slice(&[0u8; 16]);
        for (offset, len, raw) in entries {
            for v in [offset, len, raw] {
                head.extend_from_slice(&v.to_le_bytes());
            }
        }
        head.extend_from_slice(&u32::try_from(dfd_len)?.to_le_bytes());
        head.extend_from_slice(&self.dfd_block);
        head.extend_from_slice(&self.kvd);
        Ok(head)
    }
}

/// A writer that counts what goes through it.
struct Counting<'w, W: Write> {
    w: &'w mut W,
    n: u64,
}

impl<W: Write> Write for Counting<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let k = self.w.write(buf)?;
        self.n += k as u64;
        Ok(k)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.w.flush()
    }
}

/// Writes every level of `src` to `w` from position `pos` (smallest level first, each padded
/// to `layout.align` and zstd-compressed if asked), returning the level index entries. The
/// bytes each level gets must be its [`Layout::raw_len`].
fn write_levels<W: Write, D>(
    w: &mut W,
    f: &Format,
    layout: &Layout<D>,
    src: &mut dyn LayerSource,
    mut pos: u64,
) -> PicResult<Vec<(u64, u64, u64)>> {
    let n_levels = layout.tex.levels as usize;
    let mut entries = vec![(0u64, 0u64, 0u64); n_levels];
    for level in (0..n_levels).rev() {
        let raw = layout.raw_len(f, level as u32)?;
        let start = align_up(usize::try_from(pos)?, layout.align)? as u64;
        std::io::copy(&mut std::io::Read::take(std::io::repeat(0), start - pos), w)?;
        let mut c = Counting { w: &mut *w, n: 0 };
        let mut fed = 0u64;
        match layout.opt.zstd_level {
            Some(l) => {
                // A frame that holds its size.
                let mut enc = zstd::stream::Encoder::new(&mut c, l).map_err(|e| format!("zstd level {l}: {e}"))?;
                enc.set_pledged_src_size(Some(raw)).map_err(|e| format!("zstd: {e}"))?;
                enc.include_contentsize(true).map_err(|e| format!("zstd: {e}"))?;
                src.each_layer(level as u32, &mut |b| {
                    fed += b.len() as u64;
                    Ok(enc.write_all(b).map_err(|e| format!("zstd: {e}"))?)
                })?;
                enc.finish().map_err(|e| format!("zstd: {e}"))?;
            }
            None => src.each_layer(level as u32, &mut |b| {
                fed += b.len() as u64;
                Ok(c.write_all(b)?)
            })?,
        }
        if fed != raw {
            return Err(format!("KTX2 level {level}: {fed} bytes given but the level holds {raw}").into());
        }
        entries[level] = (start, c.n, raw);
        pos = start + c.n;
    }
    Ok(entries)
}

/// The KTX2 file of a texture (for each layer, each level: as [`DdsTexture`] holds it).
pub fn ktx2_bytes<D: AsRef<[u8]>>(f: &Format, tex: &DdsTexture<D>, opt: Ktx2Options) -> PicResult<Vec<u8>> {
    let mut out = Vec::new();
    write_ktx2_to(&mut out, f, tex, opt)?;
    Ok(out)
}

/// Writes the KTX2 file of a texture to `w`: the header, index, DFD and key/value data, then
/// each level straight from `tex` (smallest first). The index holds the levels' lengths, so the
/// levels are written to memory first (zstd: compressed, as they come) and the header then; no
/// copy of an uncompressed texture is made (docs/perf/cli-pictures.md).
pub fn write_ktx2_to<W: Write, D: AsRef<[u8]>>(
    w: &mut W,
    f: &Format,
    tex: &DdsTexture<D>,
    opt: Ktx2Options,
) -> PicResult<()> {
    let need = tex.checked_bytes(f)?;
    let have = tex.data.as_ref().len();
    if have < need {
        return Err(Error::BufferTooSmall { what: "texture data", needed: need as u64, got: have as u64 }.into());
    }
    let layout = Layout::new(f, tex, opt)?;
    let mut levels = Levels { f, tex, decode: layout.decode };
    if opt.zstd_level.is_some() {
        // The compressed levels' lengths go in the index before them.
        let mut body = Vec::new();
        let entries = write_levels(&mut body, f, &layout, &mut levels, layout.data_start as u64)?;
        w.write_all(&layout.head(&entries)?)?;
        return Ok(w.write_all(&body)?);
    }
    // Uncompressed: every length is known, so the index comes first and the levels stream.
    let mut entries = vec![(0u64, 0u64, 0u64); tex.levels as usize];
    let mut pos = layout.data_start as u64;
    for level in (0..tex.levels).rev() {
        let raw = layout.raw_len(f, level)?;
        let start = align_up(usize::try_from(pos)?, layout.align)? as u64;
        entries[level as usize] = (start, raw, raw);
        pos = start.checked_add(raw).ok_or("KTX2 file size overflows")?;
    }
    w.write_all(&layout.head(&entries)?)?;
    write_levels(w, f, &layout, &mut levels, layout.data_start as u64)?;
    Ok(())
}

/// Writes a texture as KTX2 (atomically, as every output), streamed from `tex`.
pub fn write_ktx2<D: AsRef<[u8]>>(path: &Path, f: &Format, tex: &DdsTexture<D>, opt: Ktx2Options) -> PicResult<()> {
    crate::io::with_temp(path, |out| {
        let mut w = std::io::BufWriter::with_capacity(1 << 20, out);
        write_ktx2_to(&mut w, f, tex, opt).map_err(|e| io_named(path, e))?;
        w.flush().map_err(crate::io::copy::cannot_write(path))
    })
}

/// An I/O error of writing `path` named as one; other errors as they are.
fn io_named(path: &Path, e: Box<dyn std::error::Error>) -> Box<dyn std::error::Error> {
    match e.downcast::<std::io::Error>() {
        Ok(io) => crate::io::copy::cannot_write(path)(*io),
        Err(e) => e,
    }
}

/// Writes the KTX2 file `path` of a texture of shape `shape` in `f` (a format with a Vulkan
/// twin: the elements as they are) whose levels `src` gives, without holding them: a
/// placeholder header, then each level as it comes (zstd-compressed if asked), then the header
/// with the level index written over the placeholder.
pub fn write_ktx2_streamed(
    path: &Path,
    f: &Format,
    shape: &DdsTexture<()>,
    opt: Ktx2Options,
    src: &mut dyn LayerSource,
) -> PicResult<()> {
    use std::os::unix::fs::FileExt;
    let layout = Layout::new(f, shape, opt)?;
    if layout.decode {
        return Err(format!("{} has no Vulkan format to stream into a KTX2 file", f.name()).into());
    }
    crate::io::with_temp(path, |out| {
        let placeholder = layout.head(&vec![(0, 0, 0); shape.levels as usize])?;
        let mut w = std::io::BufWriter::with_capacity(1 << 20, &mut *out);
        w.write_all(&placeholder).map_err(crate::io::copy::cannot_write(path))?;
        let entries = write_levels(&mut w, f, &layout, src, placeholder.len() as u64).map_err(|e| io_named(path, e))?;
        w.flush().map_err(crate::io::copy::cannot_write(path))?;
        drop(w);
        out.0.write_all_at(&layout.head(&entries)?, 0).map_err(crate::io::copy::cannot_write(path))
    })
}
