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
pub fn ktx2_bytes(f: &Format, tex: &DdsTexture, opt: Ktx2Options) -> PicResult<Vec<u8>> {
    let need = tex.checked_bytes(f)?;
    if tex.data.len() < need {
        return Err(
            Error::BufferTooSmall { what: "texture data", needed: need as u64, got: tex.data.len() as u64 }.into()
        );
    }
    check_zstd_level(opt.zstd_level)?;
    if tex.cube
        && (!tex.layers.is_multiple_of(6) || tex.extent.width_px != tex.extent.height_px || tex.extent.depth != 1)
    {
        return Err(Error::Unsupported {
            field: "KTX2 cube",
            value: format!(
                "{} layers of {}x{}x{}",
                tex.layers, tex.extent.width_px, tex.extent.height_px, tex.extent.depth
            ),
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
    // The level images of the file's format: the elements, or the decoded RGBA32F pixels.
    let (vk, file_fmt, levels) = match vk_of(f) {
        Some(vk) => (vk, *f, level_images(f, tex, |_, bytes| Ok(bytes.to_vec()))?),
        None => {
            let rgba = Format::parse("RGBA32_FLOAT")?;
            let vk = vk_of(&rgba).ok_or("RGBA32_FLOAT has no Vulkan twin")?;
            let images = level_images(f, tex, |e, bytes| {
                Ok(decode_f32(f, e, bytes)?.iter().flatten().flat_map(|v| v.to_le_bytes()).collect())
            })?;
            (vk, rgba, images)
        }
    };
    let (basic, type_size) = ktx2::dfd::Basic::from_format(vk)
        .map_err(|e| format!("no Data Format Descriptor for {}: {e}", vk_name(vk.value())))?;
    let dfd_block = ktx2::dfd::Block::Basic(basic).to_vec();
    // Key/value data: one KTXwriter entry, "nvsurf VERSION" NUL-terminated (section
    // "KTXwriter"), its length first and padded to 4 bytes.
    let mut kv = b"KTXwriter\0".to_vec();
    kv.extend_from_slice(concat!("nvsurf ", env!("CARGO_PKG_VERSION"), "\0").as_bytes());
    let mut kvd = u32::try_from(kv.len())?.to_le_bytes().to_vec();
    kvd.extend_from_slice(&kv);
    kvd.resize(align_up(kvd.len(), 4)?, 0);

    let n_levels = levels.len();
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
    let mut stored: Vec<Vec<u8>> = Vec::with_capacity(n_levels);
    for level in (0..n_levels).rev() {
        let raw = &levels[level];
        let data = match opt.zstd_level {
            Some(l) => zstd::bulk::compress(raw, l).map_err(|e| format!("zstd level {l}: {e}"))?,
            None => raw.clone(),
        };
        at = align_up(at, align)?;
        entries[level] = (at as u64, data.len() as u64, raw.len() as u64);
        at = at.checked_add(data.len()).ok_or("KTX2 file size overflows")?;
        stored.push(data);
    }
    let e = tex.extent;
    let layer_count = if tex.cube { tex.layers / 6 } else { tex.layers };
    let mut out = Vec::new();
    out.try_reserve_exact(at).map_err(|_| format!("cannot allocate {at} bytes for the KTX2 file"))?;
    out.extend_from_slice(&KTX2_IDENTIFIER);
    for v in [
        vk.value(),
        type_size,
        e.width_px,
        e.height_px,
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
        out.extend_from_slice(&v.to_le_bytes());
    }
    // No supercompression global data: sgdByteOffset and sgdByteLength 0.
    out.extend_from_slice(&[0u8; 16]);
    for (offset, len, raw) in &entries {
        for v in [offset, len, raw] {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    out.extend_from_slice(&u32::try_from(dfd_len)?.to_le_bytes());
    out.extend_from_slice(&dfd_block);
    out.extend_from_slice(&kvd);
    for (level, data) in (0..n_levels).rev().zip(&stored) {
        out.resize(entries[level].0 as usize, 0);
        out.extend_from_slice(data);
    }
    Ok(out)
}

/// The image of each level (all its layers and faces, each with all its slices), as
/// `convert` makes it from the element bytes of one (layer, level) at the level's extent.
fn level_images(
    f: &Format,
    tex: &DdsTexture,
    convert: impl Fn(super::size::Extent, &[u8]) -> PicResult<Vec<u8>>,
) -> PicResult<Vec<Vec<u8>>> {
    let mut levels = Vec::with_capacity(tex.levels as usize);
    for level in 0..tex.levels {
        let mut image = Vec::new();
        for layer in 0..tex.layers {
            let (at, n) = tex.span(f, layer, level);
            image.extend(convert(level_extent(tex.extent, level), &tex.data[at..at + n])?);
        }
        levels.push(image);
    }
    Ok(levels)
}

/// Writes a texture as KTX2 (atomically, as every output).
pub fn write_ktx2(path: &Path, f: &Format, tex: &DdsTexture, opt: Ktx2Options) -> PicResult<()> {
    crate::io::write_atomic(path, &ktx2_bytes(f, tex, opt)?)
}
