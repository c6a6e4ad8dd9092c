//! The pre-G80 tables, per-GPU resolution, aliases, suggestions and palettes.
use super::*;
use crate::codec::Texel;
use alloc::vec::Vec;

fn px(f: &Format, bytes: &[u8]) -> ([f32; 4], Texel) {
    let mut out = [[0u32; 4]; 16];
    f.decode_element(bytes, &mut out).unwrap();
    (f.texel_to_f32(&out[0]), out[0])
}

const H: f32 = 1.0 / 255.0;

/// Table, name, element bytes in memory order, expected R, G, B, A (zeta: Z, S, C, 1), each
/// worked out by hand from the row's bit layout.
#[rustfmt::skip]
fn expectations() -> Vec<(PreG80Table, &'static str, Vec<u8>, [f32; 4])> {
    use PreG80Table::{Nv10 as A, Nv40 as B};
    let a8r8g8b8 = [1.0, 64.0 * H, 16.0 * H, 128.0 * H];
    let x8r8g8b8 = [1.0, 64.0 * H, 16.0 * H, 1.0];
    let a1r5g5b5 = [1.0, 0.0, 16.0 / 31.0, 1.0]; // word 0xfc10: A=1 R=31 G=0 B=16
    let a4r4g4b4 = [2.0 / 15.0, 3.0 / 15.0, 4.0 / 15.0, 1.0 / 15.0]; // word 0x1234
    let r5g6b5 = [1.0, 0.0, 1.0 / 31.0, 1.0]; // word 0xf801
    let l8 = [128.0 * H, 128.0 * H, 128.0 * H, 1.0];
    let i8 = [64.0 * H; 4];
    let a8l8 = [64.0 * H, 64.0 * H, 64.0 * H, 128.0 * H]; // word 0x8040
    let dsdt8 = [1.0, -1.0, 0.0, 1.0]; // DS 0x7f, DT 0x81
    let z24 = [1.0, 18.0, 0.0, 1.0]; // word 0xffffff12: Z=0xffffff, S=0x12
    let z16 = [1.0, 0.0, 0.0, 1.0];
    let hilo16 = [1.0, 0.0, 1.0, 1.0]; // LO=0 in the low half, HI=0xffff in the high half
    let hilo8 = [1.0, 0.0, 1.0, 1.0];
    let shilo8 = [1.0, -1.0, 1.0, 1.0]; // LO=0x81, HI=0x7f
    let a16 = [0.0, 0.0, 0.0, 32768.0 / 65535.0];
    let a16l16 = [1.0, 1.0, 1.0, 0.0]; // L=0xffff low, A=0 high
    let f16 = [1.0, 2.0, -1.0, 0.5];
    let f32x4 = [1.5, -2.0, 0.25, 1.0];
    let r32f = [1.5, 0.0, 0.0, 1.0];
    let white = [1.0; 4];
    let w = |v: &[u8]| v.to_vec();
    let bytes_f16 = w(&[0x00, 0x3c, 0x00, 0x40, 0x00, 0xbc, 0x00, 0x38]);
    let bytes_f32: Vec<u8> = [1.5f32, -2.0, 0.25, 1.0].iter().flat_map(|x| x.to_le_bytes()).collect();
    let dxt1 = w(&[0xff, 0xff, 0, 0, 0, 0, 0, 0]);
    let dxt3: Vec<u8> = [[0xff; 8].as_slice(), &dxt1].concat();
    let dxt5: Vec<u8> = [[0xff, 0, 0, 0, 0, 0, 0, 0].as_slice(), &dxt1].concat();
    let mut v = Vec::new();
    for t in [A, B] {
        for (n, b, e) in [
            ("L8", w(&[0x80]), l8), ("A1R5G5B5", w(&[0x10, 0xfc]), a1r5g5b5),
            ("A4R4G4B4", w(&[0x34, 0x12]), a4r4g4b4), ("R5G6B5", w(&[0x01, 0xf8]), r5g6b5),
            ("A8R8G8B8", w(&[0x10, 0x40, 0xff, 0x80]), a8r8g8b8), ("DXT1", dxt1.clone(), white),
            ("DXT3", dxt3.clone(), white), ("DXT5", dxt5.clone(), white), ("A8L8", w(&[0x40, 0x80]), a8l8),
            ("Z24", w(&[0x12, 0xff, 0xff, 0xff]), z24), ("Z16", w(&[0xff, 0xff]), z16),
            ("A16", w(&[0x00, 0x80]), a16), ("HILO8", w(&[0x00, 0xff]), hilo8),
            ("A1R5G5B5_RECT", w(&[0x10, 0xfc]), a1r5g5b5), ("R5G6B5_RECT", w(&[0x01, 0xf8]), r5g6b5),
            ("A8R8G8B8_RECT", w(&[0x10, 0x40, 0xff, 0x80]), a8r8g8b8), ("L8_RECT", w(&[0x80]), l8),
            ("A4R4G4B4_RECT", w(&[0x34, 0x12]), a4r4g4b4), ("A8L8_RECT", w(&[0x40, 0x80]), a8l8),
            ("Z24_RECT", w(&[0x12, 0xff, 0xff, 0xff]), z24), ("Z16_RECT", w(&[0xff, 0xff]), z16),
            ("A16_RECT", w(&[0x00, 0x80]), a16), ("HILO8_RECT", w(&[0x00, 0xff]), hilo8),
        ] {
            v.push((t, n, b, e));
        }
    }
    for (n, b, e) in [
        ("I8", w(&[0x40]), i8), ("X8R8G8B8", w(&[0x10, 0x40, 0xff, 0x00]), x8r8g8b8),
        ("INDEX8", w(&[0x80]), l8), ("I8_RECT", w(&[0x40]), i8),
        ("DSDT8_RECT", w(&[0x7f, 0x81]), dsdt8), ("DSDT8", w(&[0x7f, 0x81]), dsdt8),
        ("R8G8B8_RECT", w(&[0x10, 0x40, 0xff, 0x00]), x8r8g8b8),
        ("HILO16", w(&[0, 0, 0xff, 0xff]), hilo16), ("HILO16_RECT", w(&[0, 0, 0xff, 0xff]), hilo16),
        ("SIGNED_HILO8", w(&[0x81, 0x7f]), shilo8), ("SIGNED_HILO8_RECT", w(&[0x81, 0x7f]), shilo8),
        ("FLOAT_RGBA16_NV", bytes_f16.clone(), f16), ("FLOAT_RGBA32_NV", bytes_f32.clone(), f32x4),
        ("FLOAT_R32_NV", w(&1.5f32.to_le_bytes()), r32f),
    ] {
        v.push((A, n, b, e));
    }
    for (n, b, e) in [
        ("A16L16", w(&[0xff, 0xff, 0, 0]), a16l16), ("A16L16_RECT", w(&[0xff, 0xff, 0, 0]), a16l16),
        ("RGBA16F", bytes_f16.clone(), f16), ("RGBA16F_RECT", bytes_f16, f16),
        ("RGBA32F", bytes_f32.clone(), f32x4), ("RGBA32F_RECT", bytes_f32, f32x4),
    ] {
        v.push((B, n, b, e));
    }
    v
}

#[test]
fn every_pre_g80_format_decodes_a_known_pixel() {
    let want = expectations();
    for table in [PreG80Table::Nv10, PreG80Table::Nv40] {
        for row in table.rows() {
            let (_, _, bytes, e) = want
                .iter()
                .find(|(t, n, _, _)| *t == table && *n == row.name)
                .unwrap_or_else(|| panic!("no expectation for {} {}", table.name(), row.name));
            let f = Format::from_pre_g80(row);
            assert_eq!(bytes.len(), f.elem_size_bytes() as usize, "{}", row.name);
            let (got, raw) = px(&f, bytes);
            if matches!(row.texture.layout, Layout::Zeta(_)) {
                // Z as a float, S as the raw 8-bit integer.
                assert_eq!((f32::from_bits(raw[0]), raw[1] as f32), (e[0], e[1]), "{}", row.name);
                continue;
            }
            for c in 0..4 {
                assert!((got[c] - e[c]).abs() < 1e-6, "{} {}: {got:?} != {e:?}", table.name(), row.name);
            }
        }
    }
}

#[test]
fn rect_formats_are_linear_and_the_others_swizzled() {
    for table in [PreG80Table::Nv10, PreG80Table::Nv40] {
        for row in table.rows() {
            let f = Format::from_pre_g80(row);
            let float_nv30 = row.table == PreG80Table::Nv10 && row.ty == ComponentType::Float;
            assert_eq!(f.is_linear_only(), row.name.ends_with("_RECT") || float_nv30, "{}", row.name);
        }
    }
    // NV40: the linear form is the FORMAT byte with the LINEAR bit (0x20).
    let nv40 = Format::parse_for("A8R8G8B8_RECT", Gpu::Nv40).unwrap();
    assert_eq!((nv40.id(), nv40.id_name().as_str()), (0x25, "nv40:0x25"));
}

#[test]
fn names_resolve_per_gpu() {
    let x = Format::parse_for("A8R8G8B8", Gpu::Nv2a).unwrap();
    assert_eq!((x.id(), x.id_name().as_str(), x.is_linear_only()), (0x06, "nv2a:0x06", false));
    assert_eq!(x.swizzle(), [Swizzle::C2, Swizzle::C1, Swizzle::C0, Swizzle::C3]);
    let g = Format::parse_for("A8R8G8B8", Gpu::G80).unwrap();
    assert_eq!((g.kind(), g.id(), g.name()), (Kind::Color, 0xcf, "BGRA8_UNORM"));
    assert_eq!(Format::parse("A8R8G8B8").unwrap(), g);
    assert_eq!(Format::parse_for("a8r8g8b8", Gpu::Nv40).unwrap().id(), 0x05);
    assert_eq!(Format::parse_for("P8", Gpu::Nv2a).unwrap().name(), "INDEX8");
    // 0x13 is I8_RECT on NV10 and L8_RECT from NV20; I8_RECT moved to 0x1b.
    assert_eq!(Format::parse_for("tex:0x13", Gpu::Nv10).unwrap().name(), "I8_RECT");
    assert_eq!(Format::parse_for("tex:0x13", Gpu::Nv2a).unwrap().name(), "L8_RECT");
    assert_eq!(Format::parse_for("I8_RECT", Gpu::Nv2a).unwrap().id(), 0x1b);
    assert_eq!(Format::parse_for("nv10:0x12", Gpu::Nv25).unwrap().name(), "A8R8G8B8_RECT");
    // Without a GPU, an explicit table prefix reaches the pre-G80 rows.
    assert_eq!(Format::parse("nv40:A4R4G4B4").unwrap().id(), 0x03);
    // A row of another generation says which have it.
    let e = Format::parse_for("A8L8", Gpu::Nv10).unwrap_err().to_string();
    assert_eq!(e, "format A8L8 is not supported: NV20, NV30 and NV40 have it, nv10 does not");
    assert!(Format::parse_for("FLOAT_R32_NV", Gpu::Nv2a).is_err());
    assert!(Format::parse_for("FLOAT_R32_NV", Gpu::Nv30).unwrap().exists_on(Gpu::Nv35));
    let e = Format::parse_for("tex:0x99", Gpu::Nv2a).unwrap_err().to_string();
    assert!(e.starts_with("format id nv2a:0x99 is not supported"), "{e}");
    // A name only G80's tables have is not a format of a pre-G80 GPU (#41 item 2: no fallback).
    assert!(Format::parse_for("RGBA8_UNORM", Gpu::Nv2a).is_err());
    assert!(Format::parse_for("tex:0x08", Gpu::Nv2a).is_err());
    assert!(Format::parse_for("INDEX8", Gpu::Gf100).is_err());
    // NV04/NV05 have no table here: they keep the G80+ names.
    assert_eq!(Format::parse_for("A8R8G8B8", Gpu::Nv04).unwrap().id(), 0xcf);
}

#[test]
fn unknown_names_suggest_the_closest() {
    let e = Format::parse_for("A4R4G4B5", Gpu::Nv2a).unwrap_err().to_string();
    assert!(e.starts_with("unknown format 'A4R4G4B5' for nv2a; did you mean A4R4G4B4"), "{e}");
    let e = Format::parse("RGBA16_FLAOT").unwrap_err().to_string();
    assert!(e.starts_with("unknown format 'RGBA16_FLAOT' for G80+; did you mean RGBA16_FLOAT"), "{e}");
    let e = Format::parse_for("R16G16B16A16_SFLAT", Gpu::Gf100).unwrap_err().to_string();
    assert!(e.starts_with("unknown format 'R16G16B16A16_SFLAT' for gf100; did you mean R16G16B16A16_SFLOAT"), "{e}");
    // Nothing close: no suggestion, still one line.
    assert_eq!(Format::parse("qqqqqqqqqqqq").unwrap_err().to_string(), "unknown format 'qqqqqqqqqqqq' for G80+");
    // Long and odd names stay cheap and bounded.
    let long: alloc::string::String = core::iter::repeat_n('é', 5000).collect();
    match Format::parse(&long) {
        Err(Error::UnknownFormat { suggestions, .. }) => assert!(suggestions.len() <= 3),
        other => panic!("{other:?}"),
    }
    assert_eq!(suggest_names("dxt7", ["DXT1", "DXT3", "DXT5", "BC7", "dxt1"]), ["DXT1", "DXT3", "DXT5"]);
}

#[test]
fn vulkan_dxgi_and_short_names() {
    let cases: [(&str, Kind, u8); 16] = [
        ("R16G16B16A16_SFLOAT", Kind::Color, 0xca),
        ("vk_format_r16g16b16a16_sfloat", Kind::Color, 0xca),
        ("RGBA16F", Kind::Color, 0xca),
        ("DXGI_FORMAT_R16G16B16A16_FLOAT", Kind::Color, 0xca),
        ("VK_FORMAT_BC7_UNORM_BLOCK", Kind::Texture, 0x17),
        ("DXGI_FORMAT_BC7_UNORM", Kind::Texture, 0x17),
        ("BC7", Kind::Texture, 0x17),
        ("R8G8B8A8_UNORM", Kind::Color, 0xd5),
        ("DXGI_FORMAT_R8G8B8A8_UNORM", Kind::Color, 0xd5),
        ("RGBA8", Kind::Color, 0xd5),
        ("RG11B10F", Kind::Color, 0xe0),
        ("VK_FORMAT_B10G11R11_UFLOAT_PACK32", Kind::Color, 0xe0),
        ("VK_FORMAT_B8G8R8A8_SRGB", Kind::Color, 0xd0),
        ("VK_FORMAT_D24_UNORM_S8_UINT", Kind::Zeta, 0x16),
        ("VK_FORMAT_R32_SINT", Kind::Color, 0xe3),
        ("DXGI_FORMAT_R9G9B9E5_SHAREDEXP", Kind::Texture, 0x20),
    ];
    for (n, kind, id) in cases {
        let f = Format::parse(n).unwrap_or_else(|e| panic!("{n}: {e}"));
        assert_eq!((f.kind(), f.id()), (kind, id), "{n}");
    }
    let bc4s = Format::parse("VK_FORMAT_BC4_SNORM_BLOCK").unwrap();
    assert_eq!((bc4s.id(), bc4s.components()[0]), (0x27, ComponentType::Snorm));
    assert!(Format::parse("DXGI_FORMAT_BC1_UNORM_SRGB").unwrap().is_srgb());
    assert!(!Format::parse("DXGI_FORMAT_BC1_UNORM").unwrap().is_srgb());
    // The same pixel through the Vulkan name and the catalogue name.
    let bytes = [0x00, 0x3c, 0x00, 0xc0, 0x00, 0x38, 0x00, 0x3c];
    assert_eq!(px(&Format::parse("RGBA16F").unwrap(), &bytes).0, [1.0, -2.0, 0.5, 1.0]);
}

#[test]
fn every_alias_resolves_to_its_own_target() {
    for a in aliases() {
        assert_eq!(super::lookup::target_exists(a.target), a.resolve().is_some(), "{a:?}");
        let Some(f) = a.resolve() else {
            // Only rows that other work adds (ASTC) may be absent.
            assert!(a.target.starts_with("astc_"), "{a:?}");
            continue;
        };
        for s in a.spellings() {
            let g = Format::parse(&s).unwrap_or_else(|e| panic!("{s}: {e}"));
            assert_eq!(g, f, "{s} resolves elsewhere than its alias entry");
            assert!(f.alias_spellings().iter().any(|x| x.eq_ignore_ascii_case(&s)), "{s}");
        }
    }
    // One name, one meaning: two entries with the same name agree.
    for a in aliases() {
        for b in aliases().iter().filter(|b| b.name.eq_ignore_ascii_case(a.name)) {
            assert_eq!(a.resolve(), b.resolve(), "{} ({:?} vs {:?})", a.name, a.api, b.api);
        }
    }
}

#[test]
fn palettes() {
    let mut bytes = [0u8; PALETTE_BYTES];
    bytes[5 * 4..5 * 4 + 4].copy_from_slice(&[0x10, 0x20, 0x30, 0x40]);
    let p = Palette::from_bytes(&bytes).unwrap();
    assert_eq!(p.entry(5), [0x10, 0x20, 0x30, 0x40]);
    assert_eq!(p.expand(&[5, 0]).unwrap(), [0x10, 0x20, 0x30, 0x40, 0, 0, 0, 0]);
    let e = Palette::from_bytes(&bytes[..1000]).unwrap_err().to_string();
    assert_eq!(e, "palette 1000 bytes is not supported: a palette is 256 A8R8G8B8 entries, 1024 bytes");
    assert!(Palette::from_bytes(&[0u8; 1028]).is_err());
    assert!(Format::parse_for("INDEX8", Gpu::Nv2a).unwrap().needs_palette());
    assert!(!Format::parse_for("L8", Gpu::Nv2a).unwrap().needs_palette());
}

#[test]
fn pre_g80_formats_have_g80_twins_where_the_bits_agree() {
    let twin = |n: &str| Format::parse_for(n, Gpu::Nv2a).unwrap().g80_twin().map(|t| (t.kind(), t.id()));
    assert_eq!(twin("A8R8G8B8"), Some((Kind::Color, 0xcf)));
    assert_eq!(twin("X8R8G8B8"), Some((Kind::Color, 0xe6)));
    assert_eq!(twin("R5G6B5"), Some((Kind::Color, 0xe8)));
    assert_eq!(twin("A1R5G5B5"), Some((Kind::Color, 0xe9)));
    assert_eq!(twin("DXT1"), Some((Kind::Texture, 0x24)));
    assert_eq!(twin("DXT5"), Some((Kind::Texture, 0x26)));
    // L8 replicates L into R, G, B: no G80 format without a swizzle does.
    assert_eq!(twin("L8"), None);
    let g = Format::parse("RGBA8").unwrap();
    assert_eq!(g.g80_twin(), Some(g));
}
