//! KTX2 write -> read round trips (2D with mips, arrays, cubes, 3D, BC7 stored as it is, zstd on
//! and off), the files read by the `ktx2` crate, the header laid out as the KTX 2.0
//! specification says, and broken or unsupported headers refused by field.
use super::ktx2_read::{ktx2_header, ktx2_texture};
use super::ktx2_write::{ktx2_bytes, KTX2_IDENTIFIER};
use super::texture::DdsTexture;
use super::*;
use nvsurf::extent::{Extent, Texels};
use nvsurf::format::Format;

fn texture(f: &Format, extent: Extent<Texels>, levels: u32, layers: u32, cube: bool) -> DdsTexture {
    let shape = DdsTexture { extent, levels, layers, cube, data: Vec::new() };
    let n = shape.bytes(f);
    DdsTexture { data: (0..n).map(|i| (i.wrapping_mul(2_654_435_761) >> 7) as u8).collect(), ..shape }
}

const PLAIN: Ktx2Options = Ktx2Options { zstd_level: None };
const ZSTD: Ktx2Options = Ktx2Options { zstd_level: Some(9) };

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}

/// The cases: (format, texture) of every shape the issue names.
fn cases() -> Vec<(&'static str, Format, DdsTexture)> {
    let f = |n: &str| Format::parse(n).unwrap();
    vec![
        ("2d mips rgba8", f("RGBA8_UNORM"), texture(&f("RGBA8_UNORM"), Extent::<Texels>::new_2d(37, 21), 6, 1, false)),
        ("array rg16f", f("RG16_FLOAT"), texture(&f("RG16_FLOAT"), Extent::<Texels>::new_2d(16, 8), 3, 4, false)),
        ("cube bc1", f("bc1"), texture(&f("bc1"), Extent::<Texels>::new_2d(16, 16), 5, 6, true)),
        ("cube array bc3", f("bc3"), texture(&f("bc3"), Extent::<Texels>::new_2d(8, 8), 2, 12, true)),
        ("3d rgba16f", f("RGBA16_FLOAT"), texture(&f("RGBA16_FLOAT"), Extent::<Texels>::new(8, 4, 5), 3, 1, false)),
        ("bc7 mips", f("bc7"), texture(&f("bc7"), Extent::<Texels>::new_2d(20, 12), 5, 2, false)),
        // RGB32F: 12-byte texels, so level data aligns to lcm(12, 4) = 12.
        ("rgb32f", f("tex:0x02"), texture(&f("tex:0x02"), Extent::<Texels>::new_2d(5, 3), 3, 1, false)),
    ]
}

#[test]
fn write_read_round_trips_byte_exactly_with_and_without_zstd() {
    for (name, f, tex) in cases() {
        let plain = ktx2_bytes(&f, &tex, PLAIN).unwrap();
        let packed = ktx2_bytes(&f, &tex, ZSTD).unwrap();
        for (what, bytes) in [("plain", &plain), ("zstd", &packed)] {
            let (d, back) = ktx2_texture(bytes).unwrap_or_else(|e| panic!("{name} {what}: {e}"));
            assert_eq!(back, tex, "{name} {what}");
            assert_eq!(d.format.texture().id, f.texture().id, "{name}");
            assert_eq!((d.extent, d.levels, d.layers, d.cube), (tex.extent, tex.levels, tex.layers, tex.cube));
        }
        assert_eq!(u32_at(&plain, 44), 0, "{name}: supercompressionScheme none");
        assert_eq!(u32_at(&packed, 44), 2, "{name}: supercompressionScheme zstd");
    }
}

/// BC7 blocks are stored as they are: each level of the file is the level's blocks, layer by
/// layer, with no conversion.
#[test]
fn bc7_blocks_are_stored_as_they_are() {
    let f = Format::parse("bc7").unwrap();
    let tex = texture(&f, Extent::<Texels>::new_2d(16, 16), 3, 2, false);
    let file = ktx2_bytes(&f, &tex, PLAIN).unwrap();
    assert_eq!(u32_at(&file, 12), 145, "VK_FORMAT_BC7_UNORM_BLOCK");
    for level in 0..3u32 {
        let entry = 80 + 24 * level as usize;
        let (at, len) = (u64_at(&file, entry) as usize, u64_at(&file, entry + 8) as usize);
        let mut want = Vec::new();
        for layer in 0..2 {
            let (o, n) = tex.span(&f, layer, level);
            want.extend_from_slice(&tex.data[o..o + n]);
        }
        assert_eq!(&file[at..at + len], &want[..], "level {level}");
    }
}

/// The `ktx2` crate reads every file written: header fields, the DFD (the crate's own for the
/// format), the writer's name, and the level data (decompressed for zstd).
#[test]
fn the_ktx2_crate_reads_what_is_written() {
    for (name, f, tex) in cases() {
        for opt in [PLAIN, ZSTD] {
            let bytes = ktx2_bytes(&f, &tex, opt).unwrap();
            let r = ktx2::Reader::new(&bytes[..]).unwrap_or_else(|e| panic!("{name}: {e}"));
            let h = r.header();
            let vk = vk_of(&f).unwrap();
            assert_eq!(h.format, Some(vk), "{name}");
            assert_eq!((h.pixel_width, h.pixel_height), (tex.extent.width, tex.extent.height));
            assert_eq!(h.pixel_depth, if tex.extent.depth > 1 { tex.extent.depth } else { 0 }, "{name}");
            let faces = if tex.cube { 6 } else { 1 };
            assert_eq!(h.face_count, faces, "{name}");
            let layers = tex.layers / faces;
            assert_eq!(h.layer_count, if layers > 1 { layers } else { 0 }, "{name}");
            assert_eq!(h.level_count, tex.levels, "{name}");
            assert_eq!(h.supercompression_scheme.is_some(), opt.zstd_level.is_some());
            let (dfd, type_size) = ktx2::dfd::Basic::from_format(vk).unwrap();
            assert_eq!(r.basic_dfd(), Some(&dfd), "{name}");
            assert_eq!(h.type_size, type_size, "{name}");
            // The value is NUL-terminated (section "KTXwriter"); the crate returns it whole.
            assert_eq!(r.writer(), Some(concat!("nvsurf ", env!("CARGO_PKG_VERSION"), "\0")), "{name}");
            let block = f.elem_size_bytes() as u64;
            let align = if block.is_multiple_of(4) { block } else { block * 4 / gcd(block, 4) };
            let mut last_offset = u64::MAX;
            for (level, l) in r.levels().enumerate() {
                let data = match opt.zstd_level {
                    Some(_) => zstd::bulk::decompress(l.data, l.uncompressed_byte_length as usize).unwrap(),
                    None => l.data.to_vec(),
                };
                let mut want = Vec::new();
                for layer in 0..tex.layers {
                    let (o, n) = tex.span(&f, layer, level as u32);
                    want.extend_from_slice(&tex.data[o..o + n]);
                }
                assert_eq!(data, want, "{name} level {level}");
                // Smallest level first in the file; without supercompression each level
                // starts on a multiple of lcm(texel block size, 4).
                let entry = 80 + 24 * level;
                let offset = u64_at(&bytes, entry);
                assert!(offset < last_offset, "{name}: level {level} must lie before level {}", level - 1);
                last_offset = offset;
                if opt.zstd_level.is_none() {
                    assert_eq!(offset % align, 0, "{name} level {level} at {offset}");
                }
            }
        }
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The smallest file, byte by byte against the specification's layout: the identifier, the
/// nine header words, the index, one level entry, the DFD after it, the key/value data after
/// the DFD, and the one texel last.
#[test]
fn the_header_is_laid_out_as_the_specification_says() {
    let f = Format::parse("R8_UNORM").unwrap();
    let tex =
        DdsTexture { extent: Extent::<Texels>::new_2d(1, 1), levels: 1, layers: 1, cube: false, data: vec![0x5a] };
    let b = ktx2_bytes(&f, &tex, PLAIN).unwrap();
    assert_eq!(b[..12], KTX2_IDENTIFIER);
    // vkFormat R8_UNORM = 9, typeSize 1, 1x1, depth 0, layerCount 0, faceCount 1, levelCount 1,
    // supercompressionScheme 0.
    let words: Vec<u32> = (0..9).map(|i| u32_at(&b, 12 + 4 * i)).collect();
    assert_eq!(words, [9, 1, 1, 1, 0, 0, 1, 1, 0]);
    let (dfd_offset, dfd_len, kvd_offset, kvd_len) = (u32_at(&b, 48), u32_at(&b, 52), u32_at(&b, 56), u32_at(&b, 60));
    assert_eq!(dfd_offset, 80 + 24, "the DFD follows the one-level index");
    // dfdTotalSize, then one basic block: 24 bytes of header and fields + 16 per sample.
    assert_eq!(dfd_len, 4 + 24 + 16);
    assert_eq!(u32_at(&b, dfd_offset as usize), dfd_len);
    assert_eq!(kvd_offset, dfd_offset + dfd_len);
    assert_eq!((u64_at(&b, 64), u64_at(&b, 72)), (0, 0), "no supercompression global data");
    let kv_len = u32_at(&b, kvd_offset as usize) as usize;
    let kv = &b[kvd_offset as usize + 4..][..kv_len];
    assert_eq!(kv, concat!("KTXwriter\0nvsurf ", env!("CARGO_PKG_VERSION"), "\0").as_bytes());
    assert_eq!(kvd_len as usize, (4 + kv_len).next_multiple_of(4));
    let (at, len, raw) = (u64_at(&b, 80), u64_at(&b, 88), u64_at(&b, 96));
    assert_eq!((len, raw), (1, 1));
    assert_eq!(at as usize, (kvd_offset + kvd_len) as usize);
    assert_eq!(b[at as usize], 0x5a);
    assert_eq!(b.len(), at as usize + 1);
}

/// A format with no Vulkan twin is written decoded to RGBA32F and read back converted.
#[test]
fn formats_without_a_vulkan_twin_go_through_rgba32f() {
    let g = Format::parse("tex:0x16").unwrap();
    assert!(vk_of(&g).is_none());
    let tex = texture(&g, Extent::<Texels>::new_2d(5, 3), 1, 1, false);
    let tmp = tempfile::Builder::new().prefix("nvsurf-ktx2-").tempdir().unwrap();
    let p = tmp.path().join("g.ktx2");
    write_ktx2(&p, &g, &tex, PLAIN).unwrap();
    assert_eq!(u32_at(&std::fs::read(&p).unwrap(), 12), 109, "VK_FORMAT_R32G32B32A32_SFLOAT");
    assert_eq!(read_ktx2(&p, &g).unwrap(), tex);
}

/// Patches the header word `i` (0 = vkFormat) of a valid file.
fn patched(word: usize, value: u32) -> Vec<u8> {
    let f = Format::parse("RGBA8_UNORM").unwrap();
    let mut b = ktx2_bytes(&f, &texture(&f, Extent::<Texels>::new_2d(8, 8), 4, 1, false), PLAIN).unwrap();
    b[12 + 4 * word..16 + 4 * word].copy_from_slice(&value.to_le_bytes());
    b
}

fn refused(bytes: &[u8]) -> String {
    match ktx2_header(bytes) {
        Ok(h) => panic!("accepted: {h:?}"),
        Err(e) => {
            // ktx2_texture must refuse it the same way.
            assert!(ktx2_texture(bytes).is_err());
            e.to_string()
        }
    }
}

#[test]
fn broken_and_unsupported_headers_name_the_field_value_and_rule() {
    let basis = refused(&patched(8, 1));
    assert!(basis.contains("KTX2 supercompressionScheme") && basis.contains("1 (BasisLZ)"), "{basis}");
    assert!(basis.contains("transcoded"), "{basis}");
    assert!(refused(&patched(8, 3)).contains("3 (ZLIB)"));
    assert!(refused(&patched(8, 77)).contains("KTX2 supercompressionScheme 77"));
    let vk = refused(&patched(0, 1_000_156_000));
    assert!(vk.contains("KTX2 vkFormat") && vk.contains("1000156000"), "{vk}");
    assert!(refused(&patched(0, 0)).contains("VK_FORMAT_UNDEFINED"));
    assert!(refused(&patched(2, 0)).contains("KTX2 pixelWidth"));
    assert!(refused(&patched(6, 5)).contains("KTX2 faceCount 5"));
    // 8x8 has 4 levels at most.
    let levels = refused(&patched(7, 9));
    assert!(levels.contains("KTX2 levelCount") && levels.contains('9') && levels.contains('4'), "{levels}");
    // Layers that would need more memory than exists.
    assert!(refused(&patched(5, u32::MAX)).contains("KTX2"));
    // A level whose data lies beyond the end of the file.
    let mut b = patched(8, 0);
    b[80..88].copy_from_slice(&(u64::MAX - 4).to_le_bytes());
    let beyond = refused(&b);
    assert!(beyond.contains("KTX2 byteOffset") && beyond.contains("within the file"), "{beyond}");
    // A level length that disagrees with the format and size.
    let mut b = patched(8, 0);
    b[96..104].copy_from_slice(&7u64.to_le_bytes());
    assert!(refused(&b).contains("KTX2 uncompressedByteLength 7 (level 0)"));
    let mut b = patched(8, 0);
    b[..4].copy_from_slice(b"DDS ");
    assert!(refused(&b).contains("KTX2 identifier"));
}

/// A DFD texelBlockDimension of 255 panicked inside the `ktx2` crate (its `d + 1` overflows a
/// `u8`; found by the `ktx2_read` fuzz target): it is refused by name first.
#[test]
fn a_dfd_block_dimension_of_255_is_refused_not_a_panic() {
    for i in 0..4 {
        let mut b = patched(8, 0);
        let dfd = u32_at(&b, 48) as usize;
        // dfdTotalSize (4), the block header (8), model/primaries/transfer/flags (4).
        b[dfd + 16 + i] = 0xff;
        let err = refused(&b);
        assert!(err.contains("KTX2 DFD texelBlockDimension") && err.contains(&format!("{i}: 255")), "{err}");
    }
}

/// Every prefix of valid files (plain and zstd) is refused, none panics.
#[test]
fn every_truncation_is_refused() {
    let f = Format::parse("bc1").unwrap();
    let tex = texture(&f, Extent::<Texels>::new_2d(16, 16), 3, 6, true);
    for opt in [PLAIN, ZSTD] {
        let b = ktx2_bytes(&f, &tex, opt).unwrap();
        for len in 0..b.len() {
            assert!(ktx2_texture(&b[..len]).is_err(), "{len} of {} bytes accepted", b.len());
        }
        assert!(ktx2_header(&b[..79]).unwrap_err().to_string().contains("the header is 80 bytes"));
    }
    // Corrupt zstd data is an error too.
    let mut b = ktx2_bytes(&f, &tex, ZSTD).unwrap();
    let at = u64_at(&b, 80) as usize;
    b[at..at + 4].copy_from_slice(b"junk");
    assert!(ktx2_texture(&b).unwrap_err().to_string().contains("zstd"));
}

#[test]
fn the_header_reads_from_a_prefix_as_from_the_whole_file() {
    use super::ktx2_read::{ktx2_header_of_prefix, ktx2_prefix_len};
    for (name, f, tex) in cases() {
        for opt in [PLAIN, ZSTD] {
            let b = ktx2_bytes(&f, &tex, opt).unwrap();
            let n = ktx2_prefix_len(&b[..80], b.len() as u64) as usize;
            // Header, index and DFD, without the level data (which follows the DFD here).
            let first_level = (0..tex.levels as usize).map(|l| u64_at(&b, 80 + 24 * l)).min().unwrap();
            assert!(n as u64 <= first_level, "{name}: prefix {n} reaches level data at {first_level}");
            let dfd_end = (u32_at(&b, 48) + u32_at(&b, 52)) as usize;
            assert!(n >= dfd_end, "{name}: prefix {n} misses the DFD ending at {dfd_end}");
            let whole = ktx2_header(&b).unwrap();
            let part = ktx2_header_of_prefix(&b[..n], b.len() as u64).unwrap();
            assert_eq!(format!("{:?}", part), format!("{:?}", whole), "{name}");
            // A file cut inside its level data is still refused from the prefix alone.
            let cut = b.len() as u64 - 1;
            assert!(ktx2_header_of_prefix(&b[..n.min(cut as usize)], cut).is_err(), "{name}");
        }
    }
    // Shorter than a header: the prefix is the file.
    assert_eq!(ktx2_prefix_len(&[0u8; 10], 10), 10);
}
