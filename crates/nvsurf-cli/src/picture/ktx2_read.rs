//! KTX2 in: the header checked here field by field first (each refusal names the field, its
//! value and the rule), then the container parsed and bounds-checked by the `ktx2` crate, and
//! the levels taken as they are or zstd-decompressed (supercompression scheme 2). BasisLZ
//! (scheme 1) needs transcoding and ZLIB (scheme 3) is not read: both are refused by name.
//! Sections cited are the Khronos KTX 2.0 specification's.

use super::described::{convert_texture, Described};
use super::encoding::Encoding;
use super::kind::{cannot_read, PicResult};
use super::ktx2_write::{
    HEADER_BYTES, KTX2_IDENTIFIER, LEVEL_ENTRY_BYTES, SCHEME_BASISLZ, SCHEME_NONE, SCHEME_ZLIB, SCHEME_ZSTD,
};
use super::size::{try_with_capacity, MAX_DECODE_RATIO};
use super::texture::{level_extent, DdsTexture, KTX2_FIELDS};
use super::vk_format::{format_of_vk, vk_name};
use nvsurf::extent::{Extent, Texels};
use nvsurf::format::Format;
use nvsurf::Error;
use std::path::Path;

/// The header's u32 at byte `at` (the caller checked the length).
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// The header's u64 at byte `at` (the caller checked the length).
fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from(u32_at(b, at)) | u64::from(u32_at(b, at + 4)) << 32
}

fn bad(field: &'static str, value: impl ToString, rule: impl Into<String>) -> Error {
    Error::Unsupported { field, value: value.to_string(), rule: rule.into() }
}

/// What a KTX2 file's header says, checked against the rest of the file: the texture's
/// description, the supercompression scheme, and each level's (offset, stored length).
#[derive(Debug, Clone)]
pub struct Ktx2Header {
    /// Format, size, levels, layers and kind.
    pub described: Described,
    /// supercompressionScheme (0 or 2 here).
    pub scheme: u32,
    /// Per level (0 = largest): byte offset and stored length in the file.
    pub levels: Vec<(u64, u64)>,
}

/// Checks a KTX2 file's header and level index (`bytes` is the whole file) and says what it
/// holds. Every size is checked against the file and the format before it is used.
pub fn ktx2_header(bytes: &[u8]) -> Result<Ktx2Header, Error> {
    ktx2_header_of_prefix(bytes, bytes.len() as u64)
}

/// How many bytes from the start of a KTX2 file [`ktx2_header_of_prefix`] reads, from its first
/// [`HEADER_BYTES`] (`first`): the header, the level index (of at most 33 levels: more is
/// refused before the index is read) and the DFD (up to 64 KiB past the index), but no more
/// than the file's `file_len` bytes.
pub fn ktx2_prefix_len(first: &[u8], file_len: u64) -> u64 {
    if first.len() < HEADER_BYTES {
        return file_len.min(HEADER_BYTES as u64);
    }
    let levels = u64::from(u32_at(first, 40).clamp(1, 33));
    let index_end = HEADER_BYTES as u64 + levels * LEVEL_ENTRY_BYTES as u64;
    let dfd_end = u64::from(u32_at(first, 48)) + u64::from(u32_at(first, 52));
    index_end.max(dfd_end.min(index_end + 65536)).min(file_len)
}

/// [`ktx2_header`] from the first bytes of a file of `file_len` bytes (`bytes`, at least
/// [`ktx2_prefix_len`] of them), so a large file's header is checked without reading its data.
pub fn ktx2_header_of_prefix(bytes: &[u8], file_len: u64) -> Result<Ktx2Header, Error> {
    if bytes.len() < HEADER_BYTES {
        return Err(bad(
            "KTX2 header",
            format!("{} bytes", bytes.len()),
            format!("the header is {HEADER_BYTES} bytes: the file is cut short"),
        ));
    }
    if bytes[..12] != KTX2_IDENTIFIER {
        return Err(bad(
            "KTX2 identifier",
            format!("{:02x?}", &bytes[..12]),
            "a KTX2 file starts with «KTX 20»\\r\\n\\x1a\\n",
        ));
    }
    let h = |i: usize| u32_at(bytes, 12 + 4 * i);
    let (vk, width, height, depth, layer_count, faces, level_count, scheme) =
        (h(0), h(2), h(3), h(4), h(5), h(6), h(7), h(8));
    check_scheme(scheme)?;
    let format = format_of_vk(vk)
        .ok_or_else(|| bad("KTX2 vkFormat", vk_name(vk), "no nvsurf format has these bits (see `nvsurf formats`)"))?;
    if width == 0 {
        return Err(Error::OutOfRange { field: "KTX2 pixelWidth", value: 0, min: 1, max: u32::MAX.into() });
    }
    if faces != 1 && faces != 6 {
        return Err(bad("KTX2 faceCount", faces, "1, or 6 for a cube map"));
    }
    let cube = faces == 6;
    if cube && (width != height || depth != 0) {
        return Err(bad(
            "KTX2 faceCount",
            6,
            format!("cube faces are square and 2D; the header says {width}x{height}x{depth}"),
        ));
    }
    if depth != 0 && layer_count != 0 {
        return Err(bad("KTX2 layerCount", layer_count, "an array of 3D textures is not supported"));
    }
    if depth != 0 && height == 0 {
        return Err(bad("KTX2 pixelHeight", 0, "a 3D texture has a height"));
    }
    let layers = layer_count.max(1).checked_mul(faces).ok_or_else(|| Error::OutOfRange {
        field: "KTX2 layerCount",
        value: layer_count.into(),
        min: 0,
        max: (u32::MAX / faces).into(),
    })?;
    // levelCount 0 asks the reader to make the chain; the file holds level 0 only.
    let n_levels = level_count.max(1);
    let extent = Extent::<Texels>::new(width, height.max(1), depth.max(1));
    let shape = DdsTexture { extent, levels: n_levels, layers, cube, data: Vec::<u8>::new() };
    // Level count against the size, and the whole texture against memory, before any use.
    shape.checked_bytes_named(&format, &KTX2_FIELDS)?;
    let index_end = (n_levels as usize)
        .checked_mul(LEVEL_ENTRY_BYTES)
        .and_then(|n| n.checked_add(HEADER_BYTES))
        .filter(|&end| end <= bytes.len())
        .ok_or_else(|| {
            bad(
                "KTX2 levelCount",
                n_levels,
                format!("its level index ({LEVEL_ENTRY_BYTES} bytes a level) must fit in the file's {file_len} bytes"),
            )
        })?;
    let levels = level_index(&bytes[HEADER_BYTES..index_end], &format, extent, layers, scheme, file_len)?;
    check_dfd(bytes, u32_at(bytes, 48), u32_at(bytes, 52))?;
    let described =
        Described { container: "KTX2", format_name: vk_name(vk), format, extent, levels: n_levels, layers, cube };
    Ok(Ktx2Header { described, scheme, levels })
}

/// Refuses a supercompression scheme nvsurf does not read (it reads none and zstd).
fn check_scheme(scheme: u32) -> Result<(), Error> {
    match scheme {
        SCHEME_NONE | SCHEME_ZSTD => {}
        SCHEME_BASISLZ => {
            return Err(bad(
                "KTX2 supercompressionScheme",
                "1 (BasisLZ)",
                "BasisLZ must be transcoded to a GPU format first (e.g. `ktx transcode`); nvsurf reads none (0) or zstd (2)",
            ))
        }
        SCHEME_ZLIB => {
            return Err(bad("KTX2 supercompressionScheme", "3 (ZLIB)", "nvsurf reads none (0) or zstd (2)"))
        }
        s => return Err(bad("KTX2 supercompressionScheme", s, "known schemes are 0-3; nvsurf reads 0 and 2")),
    }
    Ok(())
}

/// The level index (`index`, one entry a level): each level's offset and length in the file,
/// checked against the level's size (`layers` layers of `format`, level 0 `extent`), the
/// supercompression `scheme` and the file's length.
fn level_index(
    index: &[u8],
    format: &Format,
    extent: Extent<Texels>,
    layers: u32,
    scheme: u32,
    file_len: u64,
) -> Result<Vec<(u64, u64)>, Error> {
    let mut levels = Vec::with_capacity(index.len() / LEVEL_ENTRY_BYTES);
    for (level, entry) in index.chunks_exact(LEVEL_ENTRY_BYTES).enumerate() {
        let (offset, len, raw) = (u64_at(entry, 0), u64_at(entry, 8), u64_at(entry, 16));
        let le = level_extent(extent, level as u32);
        // Exact in u128: a level of all layers.
        let want = le.bytes(format) as u128 * u128::from(layers);
        if u128::from(raw) != want {
            return Err(bad(
                "KTX2 uncompressedByteLength",
                format!("{raw} (level {level})"),
                format!("level {level} of {} is {want} bytes", shape_text(format, le, layers)),
            ));
        }
        if scheme == SCHEME_ZSTD && raw / MAX_DECODE_RATIO > len {
            return Err(bad(
                "KTX2 byteLength",
                format!("{len} (level {level})"),
                format!(
                    "zstd data of {len} bytes cannot hold uncompressedByteLength {raw}: \
                     no compression is trusted past {MAX_DECODE_RATIO}:1, so the header is broken"
                ),
            ));
        }
        if scheme == SCHEME_NONE && len != raw {
            return Err(bad(
                "KTX2 byteLength",
                format!("{len} (level {level})"),
                format!("without supercompression it equals uncompressedByteLength, {raw}"),
            ));
        }
        if offset.checked_add(len).is_none_or(|end| end > file_len) {
            return Err(bad(
                "KTX2 byteOffset",
                format!("{offset} + byteLength {len} (level {level})"),
                format!("level data must lie within the file's {file_len} bytes"),
            ));
        }
        levels.push((offset, len));
    }
    Ok(levels)
}

/// The Data Format Descriptor's basic blocks checked where the `ktx2` crate (0.5.0) would
/// panic: it reads each texelBlockDimension byte `d` as the block size `d + 1` in a `u8`, so 255
/// overflows (found by the `ktx2_read` fuzz target). No format here has a block of more than 12
/// texels a side, so a 256-texel dimension is refused by name. Other structural faults are left
/// to the crate, which reports them.
fn check_dfd(bytes: &[u8], offset: u32, len: u32) -> Result<(), Error> {
    let (start, end) = (offset as usize, (offset as usize).saturating_add(len as usize));
    let Some(dfd) = bytes.get(start..end.min(bytes.len())) else { return Ok(()) };
    // dfdTotalSize, then the blocks: a header word (vendorId: 17 bits, descriptorType: 15),
    // versionNumber and descriptorBlockSize (u16 each), then the block's fields.
    let mut at = 4;
    while let Some(block) = dfd.get(at..at + 8) {
        let size = usize::from(u16::from_le_bytes([block[6], block[7]]));
        let basic = u32_at(block, 0) == 0 && u16::from_le_bytes([block[4], block[5]]) == 2;
        if let Some(dims) = dfd.get(at + 12..at + 16).filter(|_| basic && size >= 16) {
            if let Some(i) = dims.iter().position(|&d| d == 0xff) {
                return Err(bad(
                    "KTX2 DFD texelBlockDimension",
                    format!("{i}: 255 (a 256-texel block)"),
                    "no format has blocks of more than 12 texels a side",
                ));
            }
        }
        if size == 0 {
            break;
        }
        at += size;
    }
    Ok(())
}

fn shape_text(f: &Format, e: Extent<Texels>, layers: u32) -> String {
    format!("{}x{}x{} px x {layers} layers of {}", e.width, e.height, e.depth, f.name())
}

/// Reads a KTX2 file's texture in the file's own format (see [`ktx2_header`]), with what the
/// header says.
pub fn ktx2_texture(bytes: &[u8]) -> PicResult<(Described, DdsTexture)> {
    let header = ktx2_header(bytes)?;
    // The crate checks the rest of the structure (DFD, key/value data bounds).
    let reader = ktx2::Reader::new(bytes).map_err(|e| format!("its KTX2 structure is broken: {e}"))?;
    let d = header.described.clone();
    let f = d.format;
    let shape = d.shape();
    let total = shape.checked_bytes_named(&f, &KTX2_FIELDS)?;
    crate::memory::check("KTX2 texture", held_bytes(&header, bytes.len() as u64, total as u64))?;
    // Stored level-major (level, then layer and face, then slices: section "Mip Level
    // Array"); held here layer-major, as DDS is.
    let mut images = Vec::with_capacity(d.levels as usize);
    for (level, stored) in reader.levels().enumerate() {
        let want = level_extent(d.extent, level as u32).bytes(&f) * d.layers as usize;
        let image = match header.scheme {
            SCHEME_ZSTD => {
                let out = zstd::bulk::decompress(stored.data, want)
                    .map_err(|e| format!("level {level}: zstd data is broken: {e}"))?;
                if out.len() != want {
                    return Err(bad(
                        "KTX2 level data",
                        format!("{} bytes after zstd (level {level})", out.len()),
                        format!("uncompressedByteLength says {want}"),
                    )
                    .into());
                }
                std::borrow::Cow::Owned(out)
            }
            _ => std::borrow::Cow::Borrowed(stored.data),
        };
        images.push(image);
    }
    let mut data = try_with_capacity("KTX2 texture", total)?;
    for layer in 0..d.layers as usize {
        for (level, image) in images.iter().enumerate() {
            let n = level_extent(d.extent, level as u32).bytes(&f);
            data.extend_from_slice(image.get(layer * n..(layer + 1) * n).ok_or("KTX2 level shorter than its header")?);
        }
    }
    Ok((d, DdsTexture { data, ..shape }))
}

/// Reads a KTX2 texture as elements of `f`: as they are when the vkFormat is `f`'s twin,
/// otherwise converted as [`convert_texture`] allows.
pub fn read_ktx2(path: &Path, f: &Format) -> PicResult<DdsTexture> {
    read_ktx2_with(path, f, &Encoding::default())
}

/// [`read_ktx2`] encoding with `enc`'s options (see [`super::read_dds_with`]).
pub fn read_ktx2_with(path: &Path, f: &Format, enc: &Encoding) -> PicResult<DdsTexture> {
    let run = || -> PicResult<DdsTexture> {
        let bytes = read_ktx2_file(path)?;
        let (d, tex) = ktx2_texture(&bytes)?;
        convert_texture(&d, tex, f, enc)
    };
    run().map_err(|e| cannot_read("KTX2", path, e))
}

/// Where each subresource of a KTX2 file starts, when the file can be read band by band as
/// raw images of `f`: a regular file without supercompression whose header describes exactly
/// `want`'s extent, levels, layers and cube flag in `f` itself. `offsets[level]` is the level's
/// start; its layers (array elements, and faces within each) follow one another, each
/// `level_extent(level).bytes(f)` long (section "Mip Level Array"). `None` otherwise (the
/// whole-file reader then reads it, converts it or names what is wrong).
pub fn ktx2_plain_offsets(path: &Path, f: &Format, want: &DdsTexture<()>) -> PicResult<Option<Vec<u64>>> {
    use std::io::Read;
    let mut file = std::fs::File::open(path).map_err(|e| cannot_read("KTX2", path, e))?;
    let Some(len) = file.metadata().ok().filter(|m| m.is_file()).map(|m| m.len()) else { return Ok(None) };
    let mut head = Vec::with_capacity(HEADER_BYTES);
    (&mut file).take(HEADER_BYTES as u64).read_to_end(&mut head).map_err(|e| cannot_read("KTX2", path, e))?;
    let want_len = ktx2_prefix_len(&head, len);
    (&mut file)
        .take(want_len.saturating_sub(head.len() as u64))
        .read_to_end(&mut head)
        .map_err(|e| cannot_read("KTX2", path, e))?;
    let Ok(h) = ktx2_header_of_prefix(&head, len) else { return Ok(None) };
    let d = &h.described;
    let same = (d.extent, d.levels, d.layers, d.cube) == (want.extent, want.levels, want.layers, want.cube);
    if h.scheme != SCHEME_NONE || !same || d.format != *f {
        return Ok(None);
    }
    // The header check has held every level's stored length against the file's; each must
    // hold its layers.
    for (level, &(at, stored)) in h.levels.iter().enumerate() {
        let need = (level_extent(want.extent, level as u32).bytes(f) as u64).saturating_mul(u64::from(want.layers));
        if stored < need || at.saturating_add(need) > len {
            return Ok(None);
        }
    }
    Ok(Some(h.levels.iter().map(|&(at, _)| at).collect()))
}

/// What reading a KTX2 texture holds at once: the file's `file_len` bytes, the texture's
/// `total`, and with zstd the decompressed levels before they are reordered (`total` again).
fn held_bytes(header: &Ktx2Header, file_len: u64, total: u64) -> u64 {
    let levels = if header.scheme == SCHEME_ZSTD { total } else { 0 };
    file_len.saturating_add(total).saturating_add(levels)
}

/// The bytes of a KTX2 file, its header checked first: what it declares against the file's
/// length ([`ktx2_header_of_prefix`], with the zstd ratio cap), then what reading it would
/// hold against the memory budget ([`crate::memory::check`]), all before the level data is
/// read. A pipe or FIFO is read only as far as its level index reaches (its sections too).
fn read_ktx2_file(path: &Path) -> PicResult<Vec<u8>> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    let regular = file.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
    let file_len = regular.unwrap_or(u64::MAX);
    let mut head = Vec::with_capacity(HEADER_BYTES);
    (&mut file).take(HEADER_BYTES as u64).read_to_end(&mut head)?;
    let want = ktx2_prefix_len(&head, file_len);
    (&mut file).take(want.saturating_sub(head.len() as u64)).read_to_end(&mut head)?;
    let header = ktx2_header_of_prefix(&head, file_len)?;
    let total = header.described.shape().checked_bytes_named(&header.described.format, &KTX2_FIELDS)? as u64;
    // Where the data ends: the level data and the DFD, key/value and supercompression sections.
    let sections = [
        u64::from(u32_at(&head, 48)) + u64::from(u32_at(&head, 52)),
        u64::from(u32_at(&head, 56)) + u64::from(u32_at(&head, 60)),
        u64_at(&head, 64).saturating_add(u64_at(&head, 72)),
    ];
    let levels_end = header.levels.iter().map(|&(at, len)| at.saturating_add(len)).max().unwrap_or(0);
    let end = regular.unwrap_or_else(|| sections.into_iter().fold(levels_end, u64::max));
    crate::memory::check("KTX2 texture", held_bytes(&header, end, total))?;
    let mut bytes = try_with_capacity("KTX2 file", usize::try_from(end)?)?;
    bytes.extend_from_slice(&head);
    file.take(end.saturating_sub(head.len() as u64)).read_to_end(&mut bytes)?;
    Ok(bytes)
}
