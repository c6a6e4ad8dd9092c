//! DDS textures (the `ddsfile` crate): the elements themselves when the format has a DXGI
//! twin ([`dxgi_of`]), otherwise decoded to `R32G32B32A32_FLOAT`. Mips, arrays (cube faces
//! count as layers) and depth are kept. Reading takes the elements as they are when the DXGI
//! format matches, and otherwise decodes any DXGI format of [`dxgi_of`]'s table (or BC) and
//! encodes it to the wanted format.

use super::described::{convert_texture, Described};
use super::encoding::Encoding;
use super::kind::{cannot_read, PicResult};
use super::size::try_with_capacity;
use super::texels::decode_f32;
use super::texture::{level_extent, DdsTexture};
use ddsfile::{AlphaMode, D3D10ResourceDimension, Dds, DxgiFormat, Header, Header10};
use nvsurf::extent::{Extent, Texels};
use nvsurf::format::{color_formats, ComponentType, Format, Kind, Layout};
use nvsurf::Error;
use std::fs::File;
use std::io::BufReader;
use std::io::Write;
use std::path::Path;

/// The DXGI format whose elements are bit-identical to `f`'s with the same meaning, if any
/// (DXGI names are LSB first: `B5G6R5` has B in bits 0-4, like color 0xe8).
pub fn dxgi_of(f: &Format) -> Option<DxgiFormat> {
    use DxgiFormat as D;
    if f.pre_g80().is_some() {
        // Pre-G80 ids are not G80 ids: the G80 format that reads the same bytes the same way.
        return f.g80_twin().and_then(|t| dxgi_of(&t));
    }
    let default = Format::from_id(f.kind(), f.id()).ok()?;
    if let Some(d) = signed_rgtc(f, &default) {
        return Some(d);
    }
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

/// BC4_SNORM / BC5_SNORM: the RGTC texture formats (0x27, 0x28) with signed components and
/// the default swizzle (the names `BC4_SNORM`, `BC5_SNORM` parse to them).
fn signed_rgtc(f: &Format, default: &Format) -> Option<DxgiFormat> {
    let signed = f.components().iter().all(|&c| c == ComponentType::Snorm) && f.swizzle() == default.swizzle();
    match (f.kind(), f.id(), signed) {
        (Kind::Texture, 0x27, true) => Some(DxgiFormat::BC4_SNorm),
        (Kind::Texture, 0x28, true) => Some(DxgiFormat::BC5_SNorm),
        _ => None,
    }
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
pub(super) fn dxgi_table() -> Vec<(DxgiFormat, Format)> {
    let mut v = Vec::new();
    let all = color_formats()
        .iter()
        .map(Format::from_color)
        .chain(nvsurf::format::texture_formats().iter().map(Format::from_texture))
        .chain(["BC4_SNORM", "BC5_SNORM"].into_iter().filter_map(|n| Format::parse(n).ok()));
    for f in all {
        if let Some(d) = dxgi_of(&f) {
            v.push((d, f));
        }
    }
    v
}

/// Writes a texture as DDS: the elements themselves for formats with a DXGI twin, otherwise
/// the decoded pixels as `R32G32B32A32_FLOAT`. The headers, then the data straight from
/// `tex` (decoded level by level), streamed to the file: no copy of the texture is made
/// (docs/perf/cli-pictures.md, "untile --texture to DDS/KTX2").
pub fn write_dds<D: AsRef<[u8]>>(path: &Path, f: &Format, tex: &DdsTexture<D>) -> PicResult<()> {
    let data = tex.data.as_ref();
    let need = tex.bytes(f);
    if data.len() < need {
        return Err(Error::BufferTooSmall { what: "texture data", needed: need as u64, got: data.len() as u64 }.into());
    }
    if dxgi_of(f).is_some() {
        let shape = DdsTexture { extent: tex.extent, levels: tex.levels, layers: tex.layers, cube: tex.cube, data: () };
        let io = crate::io::copy::cannot_write(path);
        return write_dds_streamed(path, f, &shape, |w| w.write_all(&data[..need]).map_err(&io));
    }
    // No DXGI twin: the texels are written as RGBA32F.
    let e = tex.extent;
    let dds = dds_container(DxgiFormat::R32G32B32A32_Float, tex)?;
    // The container's own count of its data (ddsfile's), against what is written.
    let expected = u64::from(dds.get_array_stride()?) * u64::from(tex.layers);
    let written = (0..tex.levels)
        .map(|l| {
            let x = level_extent(e, l);
            [x.width, x.height, x.depth, 16].map(u64::from).iter().product::<u64>()
        })
        .sum::<u64>()
        .saturating_mul(u64::from(tex.layers));
    if expected != written {
        return Err(format!("DDS size mismatch: container expects {expected} bytes, have {written}").into());
    }
    let io = crate::io::copy::cannot_write(path);
    crate::io::with_temp(path, |out| {
        let mut w = std::io::BufWriter::with_capacity(1 << 20, out);
        dds.write(&mut w)?;
        for layer in 0..tex.layers {
            for level in 0..tex.levels {
                let (at, n) = tex.span(f, layer, level);
                let px = decode_f32(f, level_extent(e, level), &data[at..at + n])?;
                let bytes: Vec<u8> = px.iter().flatten().flat_map(|v| v.to_le_bytes()).collect();
                w.write_all(&bytes).map_err(&io)?;
            }
        }
        w.flush().map_err(&io)
    })
}

/// The DDS container (header and DX10 header, no data) of a texture of `tex`'s shape in `dxgi`.
fn dds_container<D>(dxgi: DxgiFormat, tex: &DdsTexture<D>) -> PicResult<Dds> {
    let e = tex.extent;
    let header = Header::new_dxgi(
        e.height,
        e.width,
        (e.depth > 1).then_some(e.depth),
        dxgi,
        (tex.levels > 1).then_some(tex.levels),
        (tex.layers > 1).then_some(tex.layers),
        dds_caps2(tex.cube, e.depth),
    )?;
    let dimension = if e.depth > 1 { D3D10ResourceDimension::Texture3D } else { D3D10ResourceDimension::Texture2D };
    let array_size = if tex.cube { tex.layers / 6 } else { tex.layers };
    let header10 = Header10::new(dxgi, tex.cube, dimension, array_size, AlphaMode::Unknown);
    Ok(Dds { header, header10: Some(header10), data: Vec::new() })
}

/// Writes a DDS of `f`, whose DXGI format stores the elements as they are ([`dxgi_of`]), with
/// the shape of `tex`: the header, then `data`, which writes the texture's bytes (exactly
/// [`DdsTexture::bytes`] of them, layer-major then level) into the writer it is given, band by
/// band if it likes. Atomic, as every output. A format without a DXGI twin is refused here
/// (its DDS holds decoded floats: [`write_dds`]).
pub fn write_dds_streamed(
    path: &Path,
    f: &Format,
    tex: &DdsTexture<()>,
    data: impl FnOnce(&mut dyn Write) -> PicResult<()>,
) -> PicResult<()> {
    let dxgi = dxgi_of(f).ok_or_else(|| format!("{} has no DXGI format to stream into a DDS", f.name()))?;
    let dds = dds_container(dxgi, tex)?;
    // The container's own count of its data (ddsfile's), against what is written.
    let expected = u64::from(dds.get_array_stride()?) * u64::from(tex.layers);
    let need = tex.bytes(f) as u64;
    if expected != need {
        return Err(format!("DDS size mismatch: container expects {expected} bytes, have {need}").into());
    }
    let io = crate::io::copy::cannot_write(path);
    crate::io::with_temp(path, |out| {
        let mut w = std::io::BufWriter::with_capacity(1 << 20, out);
        dds.write(&mut w)?;
        data(&mut w)?;
        w.flush().map_err(&io)
    })
}

/// The caps2 flags of the DDS we write (Microsoft's DDS reference, DDS_HEADER, dwCaps2): a
/// cube map has DDSCAPS2_CUBEMAP and all six face flags, a volume DDSCAPS2_VOLUME, so readers
/// of the legacy header alone see them too. DDSCAPS_COMPLEX (more than one surface: levels,
/// faces, slices) and DDSD_DEPTH come from the ddsfile crate's header builder.
fn dds_caps2(cube: bool, depth: u32) -> Option<ddsfile::Caps2> {
    use ddsfile::Caps2;
    match (cube, depth > 1) {
        (true, _) => Some(Caps2::CUBEMAP | Caps2::CUBEMAP_ALLFACES),
        (false, true) => Some(Caps2::VOLUME),
        (false, false) => None,
    }
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
        // ATI1/ATI2: the crate's own mapping (UNORM already); BC4U/BC4S/BC5U/BC5S, which
        // the crate leaves unnamed: DirectXTex's legacy table (microsoft/DirectXTex
        // `DirectXTex/DirectXTexDDS.cpp`, `g_LegacyDDSMap`: BC4_UNORM, BC4_SNORM, BC5_UNORM,
        // BC5_SNORM).
        _ => {
            return dds
                .get_dxgi_format()
                .filter(|d| !matches!(d, D::BC1_UNorm_sRGB | D::BC2_UNorm_sRGB | D::BC3_UNorm_sRGB))
                .or_else(|| legacy_bc45(dds))
        }
    };
    Some(twin)
}

/// The BC4/BC5 FourCCs `BC4U`, `BC4S`, `BC5U`, `BC5S` of a legacy header.
fn legacy_bc45(dds: &Dds) -> Option<DxgiFormat> {
    use DxgiFormat as D;
    let code = dds.header.spf.fourcc.as_ref()?.0.to_le_bytes();
    Some(match &code {
        b"BC4U" => D::BC4_UNorm,
        b"BC4S" => D::BC4_SNorm,
        b"BC5U" => D::BC5_UNorm,
        b"BC5S" => D::BC5_SNorm,
        _ => return None,
    })
}

/// The layers of a legacy DDS (no DX10 header) and whether it is a cube map: a cube when
/// caps2 holds DDSCAPS2_CUBEMAP (0x200), which then needs all six faces
/// (DDSCAPS2_CUBEMAP_POSITIVEX..NEGATIVEZ, 0xfc00; Microsoft's DDS reference, DDS_HEADER,
/// dwCaps2: "Direct3D 10 and later: all faces must be defined"). Otherwise one layer.
fn legacy_layers(dds: &Dds) -> Result<(u32, bool), String> {
    const CUBEMAP: u32 = 0x200;
    const ALL_FACES: u32 = 0xfc00;
    let caps2 = dds.header.caps2.bits();
    match (caps2 & CUBEMAP != 0, caps2 & ALL_FACES) {
        (false, _) => Ok((1, false)),
        (true, ALL_FACES) => Ok((6, true)),
        (true, faces) => Err(format!(
            "DDS caps2 {caps2:#x}: a cube map (DDSCAPS2_CUBEMAP 0x200) needs all six faces (0xfc00), \
             this one names {faces:#x}; partial cube maps are not read"
        )),
    }
}

/// Reads a DDS texture as elements of `f`: taken as they are when the DXGI format matches,
/// otherwise converted as [`convert_texture`] allows (a different block-compressed format is
/// the mismatch line, "the DDS holds BC7 ...; --format says ...").
pub fn read_dds(path: &Path, f: &Format) -> PicResult<DdsTexture> {
    read_dds_with(path, f, &Encoding::default())
}

/// [`read_dds`] encoding with `enc`'s options; each level of each layer that is encoded has
/// its PSNR closed in `enc`.
pub fn read_dds_with(path: &Path, f: &Format, enc: &Encoding) -> PicResult<DdsTexture> {
    read_dds_file(path, f, enc).map_err(|e| cannot_read("DDS", path, e))
}

/// What a parsed DDS header says: format (the first of [`dxgi_table`] for its DXGI format,
/// or `f` itself when `f` is that format's twin), size, levels, layers and kind.
fn dds_described(dds: &Dds, f: Option<&Format>) -> PicResult<Described> {
    let dxgi = dds_dxgi(dds).ok_or_else(|| {
        format!(
            "its legacy format ({}) has no DXGI twin here; save it with a DX10 header",
            dds.get_d3d_format().map_or("a pixel mask".to_string(), |d| format!("{d:?}"))
        )
    })?;
    let extent = Extent::<Texels>::new(dds.get_width(), dds.get_height(), dds.get_depth().max(1));
    let levels = dds.get_num_mipmap_levels().max(1);
    // Layers from the DX10 header itself: ddsfile's `get_num_array_layers` multiplies a
    // cube array's size by 6 unchecked (a panic or a wrapped count for a crafted header).
    let (layers, cube) = match &dds.header10 {
        Some(h) => {
            let cube = h.misc_flag.contains(ddsfile::MiscFlag::TEXTURECUBE);
            let array_size = h.array_size.max(1);
            let layers = match cube {
                true => array_size.checked_mul(6).ok_or(Error::OutOfRange {
                    field: "DDS cube count",
                    value: u64::from(array_size),
                    min: 1,
                    max: u64::from(u32::MAX / 6),
                })?,
                false => array_size,
            };
            (layers, cube)
        }
        None => legacy_layers(dds)?,
    };
    let format = match f {
        Some(f) if dxgi_of(f) == Some(dxgi) => *f,
        _ => dxgi_table().into_iter().find(|(d, _)| *d == dxgi).map(|p| p.1).ok_or_else(|| Error::Unsupported {
            field: "DDS format",
            value: format!("{dxgi:?}"),
            rule: "no codec for this DXGI format".into(),
        })?,
    };
    let d = Described { container: "DDS", format_name: format!("{dxgi:?}"), format, extent, levels, layers, cube };
    // Checked before any size from the header is used: the header may claim anything.
    d.shape().checked_bytes(&format)?;
    Ok(d)
}

/// What a DDS file's header says it holds, from the file's first bytes (at least its first
/// 148 where it has them; the pixel data is not needed): the fixed parts checked, then parsed.
pub fn describe_dds(head: &[u8]) -> PicResult<Described> {
    check_dds_header(head)?;
    let end = if &head[84..88] == b"DX10" { 148 } else { 128 };
    let dds = Dds::read(&head[..end])?;
    dds_described(&dds, None)
}

/// Where a DDS's elements start, when the file can be read band by band as a raw image of `f`
/// of `want` texels: a regular file whose header describes one level of one layer (not a cube)
/// of exactly `want`, stored in `f` itself (no conversion), and long enough for it. `None`
/// otherwise (the whole-file reader then reads it, converts it or names what is wrong).
pub fn dds_stream_offset(path: &Path, f: &Format, want: Extent<Texels>) -> PicResult<Option<u64>> {
    let shape = DdsTexture { extent: want, levels: 1, layers: 1, cube: false, data: () };
    dds_texture_offset(path, f, &shape)
}

/// [`dds_stream_offset`] for a whole texture: the header describes exactly `want`'s extent,
/// levels, layers and cube flag, in `f` itself, and the file holds all of it.
pub fn dds_texture_offset(path: &Path, f: &Format, want: &DdsTexture<()>) -> PicResult<Option<u64>> {
    use std::io::Read;
    let mut file = File::open(path).map_err(|e| cannot_read("DDS", path, e))?;
    let Ok(meta) = file.metadata() else { return Ok(None) };
    let mut head = Vec::with_capacity(148);
    (&mut file).take(148).read_to_end(&mut head).map_err(|e| cannot_read("DDS", path, e))?;
    if !meta.is_file() || check_dds_header(&head).is_err() {
        return Ok(None);
    }
    let end = if &head[84..88] == b"DX10" { 148 } else { 128 };
    let Ok(d) = Dds::read(&head[..end]).map_err(|_| ()).and_then(|dds| dds_described(&dds, Some(f)).map_err(|_| ()))
    else {
        return Ok(None);
    };
    let plain =
        (d.extent, d.levels, d.layers, d.cube) == (want.extent, want.levels, want.layers, want.cube) && d.format == *f;
    let need = d.shape().checked_bytes(&d.format).ok().map(|n| n as u64 + end as u64);
    Ok(match need {
        Some(n) if plain && meta.len() >= n => Some(end as u64),
        _ => None,
    })
}

fn read_dds_file(path: &Path, f: &Format, enc: &Encoding) -> PicResult<DdsTexture> {
    use std::io::Read;
    let mut file = File::open(path)?;
    let mut head = Vec::with_capacity(148);
    (&mut file).take(148).read_to_end(&mut head)?;
    check_dds_header(&head)?;
    // The header alone first: what it declares is checked against the file's length and the
    // memory budget before the data is read, and then only that much is read (no seek, so pipes
    // and FIFOs read as before; one that never ends is read no further than the header says).
    let end = if &head[84..88] == b"DX10" { 148 } else { 128 };
    let d = dds_described(&Dds::read(&head[..end])?, Some(f))?;
    let need = d.shape().checked_bytes(&d.format)?;
    let on_disk = file.metadata().ok().filter(|m| m.is_file()).map(|m| m.len().saturating_sub(end as u64));
    if let Some(got) = on_disk.filter(|&got| got < need as u64) {
        return Err(Error::BufferTooSmall { what: "DDS data", needed: need as u64, got }.into());
    }
    crate::memory::check("DDS texture", need as u64)?;
    let mut data = try_with_capacity("DDS texture", need)?;
    std::io::Cursor::new(&head[end..]).chain(BufReader::new(file)).take(need as u64).read_to_end(&mut data)?;
    if data.len() < need {
        return Err(Error::BufferTooSmall { what: "DDS data", needed: need as u64, got: data.len() as u64 }.into());
    }
    convert_texture(&d, DdsTexture { data, ..d.shape() }, f, enc)
}
