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

/// The KTX2 file of a texture (for each layer, each level: as [`DdsTexture`] holds it).
pub fn ktx2_bytes<D: AsRef<[u8]>>(f: &Format, tex: &DdsTexture<D>, opt: Ktx2Options) -> PicResult<Vec<u8>> {
    let mut out = Vec::new();
    write_ktx2_to(&mut out, f, tex, opt)?;
    Ok(out)
}

/// What one level of the file is made from: for each layer, the elements as they are, or
/// decoded to RGBA32F.
struct Levels<'a, D> {
    f: &'a Format,
    tex: &'a DdsTexture<D>,
    decode: bool,
}

impl<D: AsRef<[u8]>> Levels<'_, D> {
    /// Bytes of `level` in the file (all its layers), before supercompression.
    fn raw_len(&self, level: u32) -> PicResult<u64> {
        let e = level_extent(self.tex.extent, level);
        let per_layer = match self.decode {
            true => [e.width, e.height, e.depth, 16].map(u64::from).iter().product::<u64>(),
            false => self.tex.span(self.f, 0, level).1 as u64,
        };
        Ok(per_layer.checked_mul(u64::from(self.tex.layers)).ok_or("KTX2 level size overflows")?)
    }

    /// Hands each layer's bytes of `level` to `put`, in order.
    fn each_layer(&self, level: u32, mut put: impl FnMut(&[u8]) -> PicResult<()>) -> PicResult<()> {
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
fn check_shape<D: AsRef<[u8]>>(tex: &DdsTexture<D>, opt: Ktx2Options) -> PicResult<()> {
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

/// `level` (its `raw` bytes, all layers) compressed at zstd level `l`, as a frame that holds
/// its size.
fn zstd_level<D: AsRef<[u8]>>(levels: &Levels<D>, level: u32, raw: u64, l: i32) -> PicResult<Vec<u8>> {
    let mut enc = zstd::stream::Encoder::new(Vec::new(), l).map_err(|e| format!("zstd level {l}: {e}"))?;
    enc.set_pledged_src_size(Some(raw)).map_err(|e| format!("zstd: {e}"))?;
    enc.include_contentsize(true).map_err(|e| format!("zstd: {e}"))?;
    levels.each_layer(level, |b| Ok(enc.write_all(b).map_err(|e| format!("zstd: {e}"))?))?;
    Ok(enc.finish().map_err(|e| format!("zstd: {e}"))?)
}

/// Writes the KTX2 file of a texture to `w`: the header, index, DFD and key/value data, then
/// each level straight from `tex` (smallest first; zstd levels compressed first, since the
/// index holds their lengths). No copy of the texture is made (docs/perf/cli-pictures.md).
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
    check_shape(tex, opt)?;
    // The file's format: the elements', or RGBA32F for decoded pixels.
    let (vk, file_fmt, decode) = match vk_of(f) {
        Some(vk) => (vk, *f, false),
        None => {
            let rgba = Format::parse("RGBA32_FLOAT")?;
            (vk_of(&rgba).ok_or("RGBA32_FLOAT has no Vulkan twin")?, rgba, true)
        }
    };
    let levels = Levels { f, tex, decode };
    let (basic, type_size) = ktx2::dfd::Basic::from_format(vk)
        .map_err(|e| format!("no Data Format Descriptor for {}: {e}", vk_name(vk.value())))?;
    let dfd_block = ktx2::dfd::Block::Basic(basic).to_vec();
    let kvd = writer_kvd()?;

    let n_levels = tex.levels as usize;
    let index_end = HEADER_BYTES + n_levels * LEVEL_ENTRY_BYTES;
    let dfd_offset = index_end;
    let dfd_len = 4 + dfd_block.len();
    let kvd_offset = dfd_offset + dfd_len;
    let mut at = kvd_offset + kvd.len();
    // Level data: smallest level first, each start aligned to lcm(texel block size, 4) without
    // supercompression, unaligned with it (section "Mip Level Array", mipPadding).
    let block = file_fmt.elem_size_bytes() as usize;
    let align = if opt.zstd_level.is_some() { 1 } else { block / gcd(block, 4) * 4 };
    let mut entries = vec![(0u64, 0u64, 0u64); n_levels];
    // zstd: each level compressed from its layers as they come (the frame holds its size).
    let mut packed: Vec<Vec<u8>> = vec![Vec::new(); n_levels];
    for level in (0..n_levels).rev() {
        let raw = levels.raw_len(level as u32)?;
        let stored = match opt.zstd_level {
            Some(l) => {
                packed[level] = zstd_level(&levels, level as u32, raw, l)?;
                packed[level].len()
            }
            None => usize::try_from(raw)?,
        };
        at = align_up(at, align)?;
        entries[level] = (at as u64, stored as u64, raw);
        at = at.checked_add(stored).ok_or("KTX2 file size overflows")?;
    }
    let e = tex.extent;
    let layer_count = if tex.cube { tex.layers / 6 } else { tex.layers };
    let mut head = Vec::with_capacity(kvd_offset + kvd.len());
    head.extend_from_slice(&KTX2_IDENTIFIER);
    for v in [
        vk.value(),
        type_size,
        e.width,
        e.height,
        // pixelDepth and layerCount are 0 for a texture that is not 3D / not an array.
        if e.depth > 1 { e.depth } else { 0 },
        if layer_count > 1 { layer_count } else { 0 },
        if tex.cube { 6 } else { 1 },
        u32::try_from(n_levels)?,
        if opt.zstd_level.is_some() { SCHEME_ZSTD } else { SCHEME_NONE },
        u32::try_from(dfd_offset)?,
        u32::try_from(dfd_len)?,
        u32::try_from(kvd_offset)?,
        u32::try_from(kvd.len())?,
    ] {
        head.extend_from_slice(&v.to_le_bytes());
    }
    // No supercompression global data: sgdByteOffset and sgdByteLength 0.
    head.extend_from_slice(&[0u8; 16]);
    for (offset, len, raw) in &entries {
        for v in [offset, len, raw] {
            head.extend_from_slice(&v.to_le_bytes());
        }
    }
    head.extend_from_slice(&u32::try_from(dfd_len)?.to_le_bytes());
    head.extend_from_slice(&dfd_block);
    head.extend_from_slice(&kvd);
    w.write_all(&head)?;
    let mut pos = head.len() as u64;
    for level in (0..n_levels).rev() {
        let pad = entries[level].0 - pos;
        std::io::copy(&mut std::io::Read::take(std::io::repeat(0), pad), w)?;
        pos += pad;
        match opt.zstd_level {
            Some(_) => w.write_all(&packed[level])?,
            None => levels.each_layer(level as u32, |b| Ok(w.write_all(b)?))?,
        }
        pos += entries[level].1;
    }
    Ok(())
}

/// Writes a texture as KTX2 (atomically, as every output), streamed from `tex`.
pub fn write_ktx2<D: AsRef<[u8]>>(path: &Path, f: &Format, tex: &DdsTexture<D>, opt: Ktx2Options) -> PicResult<()> {
    crate::io::with_temp(path, |out| {
        let mut w = std::io::BufWriter::with_capacity(1 << 20, out);
        write_ktx2_to(&mut w, f, tex, opt).map_err(|e| match e.downcast::<std::io::Error>() {
            Ok(io) => crate::io::copy::cannot_write(path)(*io),
            Err(e) => e,
        })?;
        w.flush().map_err(crate::io::copy::cannot_write(path))
    })
}
