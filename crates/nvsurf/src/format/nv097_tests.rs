//! The NV097 (Kelvin) table: a decode test for every row against values worked out from the
//! cited definitions (`nv097_catalogue.rs`), the float depth encodings, YUV to RGB, the two
//! readings of G8B8/DSDT8, the texture kinds, and names on `nv2a` without a G80 fallback.
use super::*;
use crate::codec::{Texel, YuvMatrix};
use alloc::vec::Vec;

fn px(f: &Format, bytes: &[u8]) -> ([f32; 4], Texel) {
    let mut out = [[0u32; 4]; 16];
    f.decode_element(bytes, &mut out).unwrap();
    (f.texel_to_f32(&out[0]), out[0])
}

const H: f32 = 1.0 / 255.0;

/// Name, element bytes in memory order, expected R, G, B, A (zeta: Z, S), each from the row's
/// bit layout as the sources give it (xemu `kelvin_color_format_gl_map`: the GL format/type
/// says where each component sits, the swizzle mask what the sampler returns).
#[rustfmt::skip]
fn expectations() -> Vec<(&'static str, Vec<u8>, [f32; 4])> {
    let w = |v: &[u8]| v.to_vec();
    let argb = w(&[0x10, 0x40, 0xff, 0x80]);
    let xrgb = w(&[0x10, 0x40, 0xff, 0x00]);
    let a8r8g8b8 = [1.0, 64.0 * H, 16.0 * H, 128.0 * H];
    let x8r8g8b8 = [1.0, 64.0 * H, 16.0 * H, 1.0];
    // GL_UNSIGNED_INT_8_8_8_8 (not _REV) with GL_BGRA: B in the top byte, so bytes A, R, G, B.
    let b8g8r8a8 = [64.0 * H, 1.0, 128.0 * H, 16.0 * H];
    // ... with GL_RGBA: bytes A, B, G, R.
    let r8g8b8a8 = [128.0 * H, 1.0, 64.0 * H, 16.0 * H];
    let a8b8g8r8 = [16.0 * H, 64.0 * H, 1.0, 128.0 * H];
    let a1r5g5b5 = [1.0, 0.0, 16.0 / 31.0, 1.0]; // word 0xfc10
    let x1r5g5b5 = [1.0, 0.0, 16.0 / 31.0, 1.0]; // word 0xfc10, bit 15 unused
    let a4r4g4b4 = [2.0 / 15.0, 3.0 / 15.0, 4.0 / 15.0, 1.0 / 15.0]; // word 0x1234
    let r4g4b4a4 = [1.0 / 15.0, 2.0 / 15.0, 3.0 / 15.0, 4.0 / 15.0]; // word 0x1234, R on top
    let r5g6b5 = [1.0, 0.0, 1.0 / 31.0, 1.0]; // word 0xf801
    let r5g5b5a1 = [1.0, 0.0, 0.0, 1.0]; // word 0xf801: R=31 (11-15), G=0, B=0, A=1 (bit 0)
    let r6g5b5 = [1.0, 0.0, 1.0, 1.0]; // word 0xfc1f: R=63 (10-15), G=0, B=31
    let l8 = [128.0 * H, 128.0 * H, 128.0 * H, 1.0];
    let i8 = [64.0 * H; 4];
    let a8 = [1.0, 1.0, 1.0, 128.0 * H]; // xemu: (1, 1, 1, A)
    let a8l8 = [64.0 * H, 64.0 * H, 64.0 * H, 128.0 * H];
    let g8b8 = [64.0 * H, 128.0 * H, 64.0 * H, 128.0 * H]; // B=0x40 low byte, G=0x80: (B, G, B, G)
    let r8b8 = [128.0 * H, 64.0 * H, 64.0 * H, 128.0 * H]; // B=0x40, R=0x80: (R, B, B, R)
    let dsdt8 = [1.0, -1.0, 0.0, 1.0]; // DS 0x7f, DT 0x81
    let sg8sb8 = [1.0, -1.0, 1.0, -1.0];
    let sy8 = [-1.0, -1.0, -1.0, 1.0]; // 0x81
    let l16 = [32768.0 / 65535.0, 32768.0 / 65535.0, 32768.0 / 65535.0, 1.0];
    let hilo16 = [1.0, 0.0, 1.0, 1.0];
    let ycbcr = [64.0 * H, 16.0 * H, 128.0 * H, 1.0]; // Y 0x10, Cb 0x40, Cr 0x80, A 0xff raw
    let red = [1.0, 0.0, 0.0, 1.0]; // BT.601 limited: Y 81, U 90, V 240 (xemu gives 255, 0, 0)
    let white = [1.0; 4];
    let z24 = [1.0, 18.0, 0.0, 1.0]; // word 0xffffff12: Z=0xffffff, S=0x12
    let z16 = [1.0, 0.0, 0.0, 1.0];
    // 1.0 as NV2A's f24 is 0x3f800000 >> 7 = 0x7f0000 (bits 8-31), S=0x12; as f16
    // (0x3f800000 - 0x3c000000) >> 11 = 0x7000.
    let z24f = w(&[0x12, 0x00, 0x00, 0x7f]);
    let z16f = w(&[0x00, 0x70]);
    let dxt1 = w(&[0xff, 0xff, 0, 0, 0, 0, 0, 0]);
    let dxt3: Vec<u8> = [[0xff; 8].as_slice(), &dxt1].concat();
    let dxt5: Vec<u8> = [[0xff, 0, 0, 0, 0, 0, 0, 0].as_slice(), &dxt1].concat();
    alloc::vec![
        ("L8", w(&[0x80]), l8), ("I8", w(&[0x40]), i8), ("A1R5G5B5", w(&[0x10, 0xfc]), a1r5g5b5),
        ("X1R5G5B5", w(&[0x10, 0xfc]), x1r5g5b5), ("A4R4G4B4", w(&[0x34, 0x12]), a4r4g4b4),
        ("R5G6B5", w(&[0x01, 0xf8]), r5g6b5), ("A8R8G8B8", argb.clone(), a8r8g8b8),
        ("X8R8G8B8", xrgb.clone(), x8r8g8b8), ("INDEX8", w(&[0x80]), l8),
        ("DXT1", dxt1, white), ("DXT3", dxt3, white), ("DXT5", dxt5, white),
        ("A1R5G5B5_RECT", w(&[0x10, 0xfc]), a1r5g5b5), ("R5G6B5_RECT", w(&[0x01, 0xf8]), r5g6b5),
        ("A8R8G8B8_RECT", argb.clone(), a8r8g8b8), ("L8_RECT", w(&[0x80]), l8),
        ("SY8_RECT", w(&[0x81]), sy8), ("X7SY9_RECT", w(&[0xff, 0xfe]), white),
        ("R8B8_RECT", w(&[0x40, 0x80]), r8b8), ("G8B8_RECT", w(&[0x40, 0x80]), g8b8),
        ("DSDT8_RECT", w(&[0x7f, 0x81]), dsdt8), ("SG8SB8_RECT", w(&[0x7f, 0x81]), sg8sb8),
        ("A8", w(&[0x80]), a8), ("A8L8", w(&[0x40, 0x80]), a8l8), ("I8_RECT", w(&[0x40]), i8),
        ("X1R5G5B5_RECT", w(&[0x10, 0xfc]), x1r5g5b5), ("A4R4G4B4_RECT", w(&[0x34, 0x12]), a4r4g4b4),
        ("X8R8G8B8_RECT", xrgb, x8r8g8b8), ("A8_RECT", w(&[0x80]), a8),
        ("A8L8_RECT", w(&[0x40, 0x80]), a8l8),
        ("YUY2", w(&[81, 90, 81, 240]), red), ("UYVY", w(&[90, 81, 240, 81]), red),
        ("A8CR8CB8Y8_RECT", w(&[0x10, 0x40, 0x80, 0xff]), ycbcr),
        ("R6G5B5", w(&[0x1f, 0xfc]), r6g5b5), ("G8B8", w(&[0x40, 0x80]), g8b8),
        ("DSDT8", w(&[0x7f, 0x81]), dsdt8), ("R8B8", w(&[0x40, 0x80]), r8b8),
        ("Z24", w(&[0x12, 0xff, 0xff, 0xff]), z24), ("Z24_FLOAT", z24f.clone(), z24),
        ("Z16", w(&[0xff, 0xff]), z16), ("Z16_FLOAT", z16f.clone(), z16),
        ("Z24_RECT", w(&[0x12, 0xff, 0xff, 0xff]), z24), ("Z24_FLOAT_RECT", z24f, z24),
        ("Z16_RECT", w(&[0xff, 0xff]), z16), ("Z16_FLOAT_RECT", z16f, z16),
        ("L16", w(&[0x00, 0x80]), l16), ("HILO16", w(&[0, 0, 0xff, 0xff]), hilo16),
        ("L16_RECT", w(&[0x00, 0x80]), l16), ("HILO16_RECT", w(&[0, 0, 0xff, 0xff]), hilo16),
        ("R6G5B5_RECT", w(&[0x1f, 0xfc]), r6g5b5),
        ("R5G5B5A1", w(&[0x01, 0xf8]), r5g5b5a1), ("R4G4B4A4", w(&[0x34, 0x12]), r4g4b4a4),
        ("A8B8G8R8", argb.clone(), a8b8g8r8), ("B8G8R8A8", argb.clone(), b8g8r8a8),
        ("R8G8B8A8", argb.clone(), r8g8b8a8),
        ("R5G5B5A1_RECT", w(&[0x01, 0xf8]), r5g5b5a1), ("R4G4B4A4_RECT", w(&[0x34, 0x12]), r4g4b4a4),
        ("A8B8G8R8_RECT", argb.clone(), a8b8g8r8), ("B8G8R8A8_RECT", argb.clone(), b8g8r8a8),
        ("R8G8B8A8_RECT", argb, r8g8b8a8),
    ]
}

#[test]
fn every_nv097_format_decodes_a_known_pixel() {
    let want = expectations();
    let rows = PreG80Table::Nv097.rows();
    assert_eq!(want.len(), rows.len(), "one expectation per row");
    for row in rows {
        let (_, bytes, e) =
            want.iter().find(|(n, _, _)| *n == row.name).unwrap_or_else(|| panic!("no expectation for {}", row.name));
        let f = Format::from_pre_g80(row);
        assert_eq!(bytes.len(), f.elem_size_bytes() as usize, "{}", row.name);
        let (got, raw) = px(&f, bytes);
        if matches!(row.texture.layout, Layout::Zeta(_)) {
            assert_eq!((f32::from_bits(raw[0]), raw[1] as f32), (e[0], e[1]), "{}", row.name);
            continue;
        }
        // YUV: BT.601 in floating point against xemu's integer coefficients.
        let tol = if matches!(row.texture.layout, Layout::Yuv { .. }) { 0.01 } else { 1e-6 };
        for c in 0..4 {
            assert!((got[c] - e[c]).abs() < tol, "{}: {got:?} != {e:?}", row.name);
        }
    }
}

#[test]
fn nv2a_float_depth_reads_and_writes_as_xemu() {
    let f = Format::parse_for("Z16_FLOAT", Gpu::Nv2a).unwrap();
    assert_eq!(f.id_name(), "nv2a:0x2d");
    // The largest f16 is 511.9375 (xemu's f16_max); 0 is 0.
    assert_eq!(f32::from_bits(px(&f, &[0xff, 0xff]).1[0]), 511.9375);
    assert_eq!(f32::from_bits(px(&f, &[0, 0]).1[0]), 0.0);
    let g = Format::parse_for("SZ_DEPTH_X8_Y24_FLOAT", Gpu::Nv2a).unwrap();
    assert_eq!((g.id(), g.name(), g.is_linear_only()), (0x2b, "Z24_FLOAT", false));
    // Round trips: texel -> element -> texel.
    for (fmt, v) in [(&f, 0.75f32), (&f, 300.0), (&g, 0.5), (&g, 1.0e20)] {
        let t = [v.to_bits(), 0, 0, 0];
        let mut e = [0u8; 16];
        fmt.encode_element(&[t], &mut e[..fmt.elem_size_bytes() as usize]).unwrap();
        let back = f32::from_bits(px(fmt, &e[..fmt.elem_size_bytes() as usize]).1[0]);
        assert!((back - v).abs() <= v * 1e-3, "{} {v} -> {back}", fmt.name());
    }
}

#[test]
fn yuv_defaults_to_bt601_on_nv2a_and_raw_stays_selectable() {
    let y = Format::parse_for("YUY2", Gpu::Nv2a).unwrap();
    assert_eq!((y.id_name().as_str(), y.yuv_matrix(), y.is_linear_only()), ("nv2a:0x24", YuvMatrix::Bt601, true));
    let raw = y.with_yuv_matrix(YuvMatrix::Raw).unwrap();
    // Raw: R=U, G=Y, B=V.
    assert_eq!(raw.texel_to_rgba8(&px(&raw, &[81, 90, 81, 240]).1), [90, 81, 240, 255]);
    assert_eq!(Format::parse_for("uyvy", Gpu::Nv2a).unwrap().id(), 0x25);
    // G80's YUV rows keep raw as their default.
    assert_eq!(Format::parse("YUY2").unwrap().yuv_matrix(), YuvMatrix::Raw);
}

#[test]
fn g8b8_is_the_id_and_dsdt8_the_other_reading() {
    let id = Format::parse_for("nv2a:0x28", Gpu::Nv2a).unwrap();
    assert_eq!(id.name(), "G8B8");
    let ds = Format::parse_for("DSDT8", Gpu::Nv2a).unwrap();
    assert_eq!((ds.id(), ds.full_name().as_str()), (0x28, "nv2a:DSDT8"));
    assert_eq!(Format::parse(&ds.full_name()).unwrap(), ds);
    assert_eq!(Format::parse_for("V8U8", Gpu::Nv2a).unwrap().name(), "G8B8");
    assert_eq!(Format::parse_for("tex:0x17", Gpu::Nv2a).unwrap().name(), "G8B8_RECT");
}

#[test]
fn linear_formats_are_one_level_and_swizzled_ones_may_be_anything() {
    for row in PreG80Table::Nv097.rows() {
        let f = Format::from_pre_g80(row);
        assert_eq!(f.is_linear_only(), row.linear, "{}", row.name);
        let all = KIND_CUBE | KIND_3D | KIND_MIPS;
        assert_eq!(row.kinds, if row.linear { KIND_CUBE } else { all }, "{}", row.name);
        assert_eq!(row.linear, row.name.ends_with("_RECT") || matches!(row.name, "YUY2" | "UYVY"), "{}", row.name);
    }
    let y = Format::parse_for("YUY2", Gpu::Nv2a).unwrap();
    assert_eq!(y.pre_g80().unwrap().kind_names(), ["2d", "cube"]);
    let a = Format::parse_for("A8R8G8B8", Gpu::Nv2a).unwrap();
    assert_eq!(a.pre_g80().unwrap().kind_names(), ["2d", "cube", "3d", "mips"]);
}

#[test]
fn names_on_nv2a_never_fall_back_to_g80() {
    // YUY2 is NV097's 0x24, not G80's YA8_U8_YB8_V8.
    let y = Format::parse_for("YUY2", Gpu::Nv2a).unwrap();
    assert!(y.pre_g80().is_some());
    let e = Format::parse_for("RGBA8_UNORM", Gpu::Nv2a).unwrap_err().to_string();
    assert!(e.starts_with("unknown format 'RGBA8_UNORM' for nv2a"), "{e}");
    let e = Format::parse_for("YA8_U8_YB8_V8", Gpu::Nv40).unwrap_err().to_string();
    assert!(e.starts_with("unknown format 'YA8_U8_YB8_V8' for nv40"), "{e}");
    let e = Format::parse_for("A8R8G8B9", Gpu::Nv2a).unwrap_err().to_string();
    assert!(e.starts_with("unknown format 'A8R8G8B9' for nv2a; did you mean A8R8G8B8"), "{e}");
    // A name another generation has says which.
    let e = Format::parse_for("FLOAT_R32_NV", Gpu::Nv2a).unwrap_err().to_string();
    assert_eq!(e, "format FLOAT_R32_NV is not supported: NV30 have it, nv2a does not");
    let e = Format::parse_for("YUY2", Gpu::Nv40).unwrap_err().to_string();
    assert_eq!(e, "format YUY2 is not supported: NV20 have it, nv40 does not");
    // Every spelling of the ids: tex:, nv2a:, nv097: and the old nv10: prefix.
    for n in ["tex:0x24", "nv2a:0x24", "NV097:0x24", "nv10:0x24", "nv2a:YUY2", "LC_IMAGE_CR8YB8CB8YA8"] {
        assert_eq!(Format::parse_for(n, Gpu::Nv2a).unwrap().id(), 0x24, "{n}");
    }
    assert!(Format::parse_for("nv40:0x05", Gpu::Nv2a).is_err());
    // Without a GPU, nv2a: reaches the Kelvin table and nv10: rnndb's.
    assert_eq!(Format::parse("nv2a:0x2b").unwrap().name(), "Z24_FLOAT");
    assert_eq!(Format::parse("nv10:0x2b").unwrap().name(), "Z24_RECT");
}

#[test]
fn textures_refuse_the_kinds_a_linear_format_may_not_be() {
    use crate::texture::TextureType;
    use crate::TextureSpec;
    let yuy2 = Format::parse_for("YUY2", Gpu::Nv2a).unwrap();
    let e = TextureSpec::new(Gpu::Nv2a, TextureType::Cube, &yuy2, [16, 16, 1]).levels(5).resolve().unwrap_err();
    assert_eq!(e.to_string(), "levels 5 is not supported: format YUY2 is linear: it has one level");
    let e = TextureSpec::new(Gpu::Nv2a, TextureType::D3, &yuy2, [16, 16, 4]).resolve().unwrap_err().to_string();
    assert!(e.starts_with("texture type 3d is not supported: format YUY2 is linear"), "{e}");
    assert!(TextureSpec::new(Gpu::Nv2a, TextureType::D2, &yuy2, [60, 30, 1]).resolve().is_ok());
    // Swizzled formats may be cubes with mips.
    let a = Format::parse_for("A8R8G8B8", Gpu::Nv2a).unwrap();
    assert!(TextureSpec::new(Gpu::Nv2a, TextureType::Cube, &a, [16, 16, 1]).levels(5).resolve().is_ok());
}
