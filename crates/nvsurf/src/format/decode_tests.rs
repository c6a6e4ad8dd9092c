//! The element, rectangle and RGBA8 codecs of [`Format`] against known values, against each
//! other (fast paths against the generic per-texel path), and round trips.
use super::*;
use crate::codec::*;
use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;

/// `2^e` as an `f32` (`e` within the normal exponents).
fn pow2f(e: i32) -> f32 {
    f32::from_bits(((e + 127) as u32) << 23)
}

#[test]
fn srgb_known_values() {
    assert_eq!(srgb_to_linear(0.0), 0.0);
    assert_eq!(srgb_to_linear(1.0), 1.0);
    assert!((srgb_to_linear(128.0 / 255.0) - 0.215_860_5).abs() < 1e-6);
    assert!((srgb_to_linear(10.0 / 255.0) - 10.0 / 255.0 / 12.92).abs() < 1e-9); // linear segment
    let f = Format::parse("RGBA8_SRGB").unwrap();
    let mut px = [[0f32; 4]; 1];
    f.decode_rgba_f32(&[0x80, 0xff, 0x00, 0x80], &mut px).unwrap();
    assert!((px[0][0] - 0.215_860_5).abs() < 1e-6);
    assert_eq!(px[0][1], 1.0);
    assert_eq!(px[0][3], 128.0 / 255.0); // alpha is never sRGB
                                         // Every 8-bit code survives linear and back.
    for c in 0..=255u8 {
        let mut e = [0u8; 4];
        let t = [srgb_to_linear(f32::from(c) / 255.0).to_bits(), 0, 0, 1.0f32.to_bits()];
        f.encode_element(&[t], &mut e).unwrap();
        assert_eq!(e[0], c);
    }
}

#[test]
fn snorm_minus_one() {
    let f = Format::parse("RGBA8_SNORM").unwrap();
    let mut px = [[0f32; 4]; 1];
    f.decode_rgba_f32(&[0x80, 0x81, 0x7f, 0x00], &mut px).unwrap();
    assert_eq!(px[0], [-1.0, -1.0, 1.0, 0.0]); // both -128 and -127 read -1.0
    let mut e = [0u8; 4];
    f.encode_element(&[f.f32_to_texel(&[-1.0, -2.0, 1.0, 0.5])], &mut e).unwrap();
    assert_eq!(e, [0x81, 0x81, 0x7f, 64]); // -1 encodes as -127; 0.5 * 127 = 63.5 -> 64
    let f = Format::parse("R16_SNORM").unwrap();
    f.decode_rgba_f32(&[0x00, 0x80], &mut px).unwrap();
    assert_eq!(px[0][0], -1.0);
}

#[test]
fn integer_components() {
    let f = Format::parse("RGBA8_SINT").unwrap();
    let mut t = [[0u32; 4]; 1];
    f.decode_element(&[0xff, 0x80, 0x7f, 0x01], &mut t).unwrap();
    assert_eq!(t[0].map(|x| x as i32), [-1, -128, 127, 1]);
    assert_eq!(f.channel_kinds(), [ValueKind::Sint; 4]);
    let f = Format::parse("color:0xed").unwrap(); // RG8 uint (`docs/ERRATA.md` E4)
    f.decode_element(&[0xff, 0x80], &mut t).unwrap();
    assert_eq!(t[0], [255, 128, 0, 1]); // missing B reads 0, A reads integer 1
    let mut e = [0u8; 2];
    f.encode_element(&[[300, 7, 0, 1]], &mut e).unwrap();
    assert_eq!(e, [255, 7]); // saturates
}

#[test]
fn unorm_rounding_and_missing_components() {
    let f = Format::parse("tex:0x15").unwrap(); // 5_6_5
    let mut t = [[0u32; 4]; 1];
    f.decode_element(&0xffffu16.to_le_bytes(), &mut t).unwrap();
    assert_eq!(f.texel_to_f32(&t[0]), [1.0, 1.0, 1.0, 1.0]);
    let mut e = [0u8; 2];
    // 0.5 * 31 = 15.5 -> 16; 0.5 * 63 = 31.5 -> 32; 0.49 * 31 = 15.19 -> 15
    f.encode_element(&[f.f32_to_texel(&[0.5, 0.5, 0.49, 1.0])], &mut e).unwrap();
    assert_eq!(u16::from_le_bytes(e), 16 | (32 << 5) | (15 << 11));
    let f = Format::parse("8_8").unwrap();
    f.decode_element(&[0, 0xff], &mut t).unwrap();
    assert_eq!(f.texel_to_f32(&t[0]), [0.0, 1.0, 0.0, 1.0]);
}

#[test]
fn texture_swizzle_and_types() {
    use crate::format::{ComponentType as T, Swizzle as S};
    let f = Format::parse("tex:0x08")
        .unwrap()
        .with_components([T::Unorm, T::Uint, T::Snorm, T::Sint])
        .unwrap()
        .with_swizzle([S::C3, S::C1, S::OneInt, S::OneFloat]);
    let mut t = [[0u32; 4]; 1];
    f.decode_element(&[0x00, 0x05, 0x00, 0xfe], &mut t).unwrap();
    assert_eq!(t[0], [(-2i32) as u32, 5, 1, 0x3f80_0000]);
    assert_eq!(f.channel_kinds(), [ValueKind::Sint, ValueKind::Uint, ValueKind::Uint, ValueKind::Float]);
    assert!(Format::parse("8_8").unwrap().with_components([T::Float; 4]).is_err());
    assert!(Format::parse("9_9_9_E5").unwrap().with_components([T::Unorm; 4]).is_err());
    assert!(Format::parse("16_16").unwrap().with_components([T::Float; 4]).is_ok());
}

#[test]
fn float_formats_decode() {
    let f = Format::parse("R11G11B10_FLOAT").unwrap();
    let v: u32 = (15 << 6) | (0x7c0 << 11) | (0x3e1 << 22); // 1.0, inf, NaN
    let mut px = [[0f32; 4]; 1];
    f.decode_rgba_f32(&v.to_le_bytes(), &mut px).unwrap();
    assert_eq!(px[0][0], 1.0);
    assert_eq!(px[0][1], f32::INFINITY);
    assert!(px[0][2].is_nan());
    assert_eq!(px[0][3], 1.0);
    let f = Format::parse("RGBA16_FLOAT").unwrap();
    f.decode_rgba_f32(&[0x00, 0x3c, 0x00, 0xc0, 0x01, 0x00, 0x00, 0x7c], &mut px).unwrap();
    assert_eq!(px[0], [1.0, -2.0, pow2f(-24), f32::INFINITY]);
}

#[test]
fn yuv_orders() {
    let bytes = [0x10, 0x20, 0x30, 0x40];
    let mut t = [[0u32; 4]; 2];
    // `docs/ERRATA.md` E1: 0x22 is U8_YA8_V8_YB8 (UYVY): U, Y0, V, Y1. Raw: R, G, B = U, Y, V.
    let f = Format::parse("uyvy").unwrap();
    assert_eq!(f.id(), 0x22);
    assert_eq!(f.block_dims(), (2, 1));
    f.decode_element(&bytes, &mut t).unwrap();
    let u = |x: u32| x as f32 / 255.0;
    assert_eq!(f.texel_to_f32(&t[0]), [u(0x10), u(0x20), u(0x30), 1.0]);
    assert_eq!(f.texel_to_f32(&t[1]), [u(0x10), u(0x40), u(0x30), 1.0]);
    // 0x23 is YA8_U8_YB8_V8 (YUY2): Y0, U, Y1, V.
    let f = Format::parse("YUY2").unwrap();
    assert_eq!(f.id(), 0x23);
    f.decode_element(&bytes, &mut t).unwrap();
    assert_eq!(f.texel_to_f32(&t[0]), [u(0x20), u(0x10), u(0x40), 1.0]);
    assert_eq!(f.texel_to_f32(&t[1]), [u(0x20), u(0x30), u(0x40), 1.0]);
    // Encoding averages the shared U and V.
    let mut e = [0u8; 4];
    let a = f.f32_to_texel(&[u(10), u(100), u(20), 1.0]);
    let b = f.f32_to_texel(&[u(13), u(200), u(30), 1.0]);
    f.encode_element(&[a, b], &mut e).unwrap();
    assert_eq!(e, [100, 12, 200, 25]); // (10+13+1)/2 = 12, (20+30+1)/2 = 25
}

#[test]
fn yuv_bt601_bt709() {
    let close = |a: [f32; 4], b: [f32; 3]| (0..3).all(|i| (a[i] - b[i]).abs() < 0.01);
    let mut t = [[0u32; 4]; 2];
    let f = Format::parse("uyvy").unwrap().with_yuv_matrix(YuvMatrix::Bt601).unwrap();
    // Limited range: Y 235 is white, 16 is black; (81, 90, 240) is BT.601 red.
    f.decode_element(&[128, 235, 128, 16], &mut t).unwrap();
    assert!(close(f.texel_to_f32(&t[0]), [1.0, 1.0, 1.0]));
    assert!(close(f.texel_to_f32(&t[1]), [0.0, 0.0, 0.0]));
    f.decode_element(&[90, 81, 240, 81], &mut t).unwrap();
    assert!(close(f.texel_to_f32(&t[0]), [1.0, 0.0, 0.0]), "{:?}", f.texel_to_f32(&t[0]));
    // BT.709 red is (63, 102, 240).
    let f = f.with_yuv_matrix(YuvMatrix::Bt709).unwrap();
    f.decode_element(&[102, 63, 240, 63], &mut t).unwrap();
    assert!(close(f.texel_to_f32(&t[0]), [1.0, 0.0, 0.0]), "{:?}", f.texel_to_f32(&t[0]));
    let mut e = [0u8; 4];
    f.encode_element(&t, &mut e).unwrap();
    assert_eq!(e, [102, 63, 240, 63]);
    assert!(Format::parse("8_8_8_8").unwrap().with_yuv_matrix(YuvMatrix::Bt601).is_err());
}

#[test]
fn bitmap_bit_order() {
    // Document: bits from the LSB, x first then y.
    let f = Format::parse("BITMAP").unwrap();
    assert_eq!((f.elem_size_bytes(), f.block_dims()), (8, (8, 8)));
    let v: u64 = (1 << 1) | (1 << 8) | (1 << 63);
    let mut t = [[0u32; 4]; 64];
    f.decode_element(&v.to_le_bytes(), &mut t).unwrap();
    for (i, p) in t.iter().enumerate() {
        let want = if matches!(i, 1 | 8 | 63) { 1.0 } else { 0.0 };
        assert_eq!(f32::from_bits(p[0]), want, "sample x={} y={}", i % 8, i / 8);
    }
    let mut e = [0u8; 8];
    f.encode_element(&t, &mut e).unwrap();
    assert_eq!(u64::from_le_bytes(e), v);
    // The 2D-engine color format Y1_8X8 reads the bit into all components.
    let c = Format::parse("Y1_8X8").unwrap();
    c.decode_element(&v.to_le_bytes(), &mut t).unwrap();
    assert_eq!(c.texel_to_f32(&t[8]), [1.0; 4]);
}

#[test]
fn zeta_layouts() {
    let mut t = [[0u32; 4]; 1];
    let z = |name: &str, bytes: &[u8], t: &mut [Texel]| {
        let f = Format::parse(name).unwrap();
        f.decode_element(bytes, t).unwrap();
        f.texel_to_f32(&t[0])
    };
    // `docs/ERRATA.md` E2: zeta 0x16 Z24_S8 is texture 0x2b: Z in bits 0-23, S in 24-31.
    assert_eq!(z("zeta:0x16", &[0xff, 0xff, 0xff, 0x07], &mut t), [1.0, 7.0, 0.0, 1.0]);
    assert_eq!(z("S8_Z24", &[0x07, 0xff, 0xff, 0xff], &mut t), [1.0, 7.0, 0.0, 1.0]);
    assert_eq!(z("zeta:0x15", &[0x00, 0x00, 0x00, 0x07], &mut t), [0.0, 0.0, 0.0, 1.0]); // X ignored
    assert_eq!(z("Z16", &[0xff, 0xff], &mut t), [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(z("Z32", &0.25f32.to_le_bytes(), &mut t), [0.25, 0.0, 0.0, 1.0]);
    let mut e8 = [0u8; 8];
    e8[..4].copy_from_slice(&0.5f32.to_le_bytes());
    e8[4] = 9; // S
    e8[5] = 0xa5; // C, kept raw
    assert_eq!(z("Z32_S8_C8_X16_MS4_CS4", &e8, &mut t), [0.5, 9.0, 165.0, 1.0]);
    let f = Format::parse("Z24_S8").unwrap();
    let mut e = [0u8; 4];
    f.encode_element(&[f.f32_to_texel(&[0.5, 200.0, 0.0, 1.0])], &mut e).unwrap();
    assert_eq!(e, [0x00, 0x00, 0x80, 200]); // 0.5 * (2^24 - 1) = 8388607.5 -> 8388608
}

#[test]
fn bc1_known_block() {
    // Worked by hand from the BC1 definition: color0 = 0xf800 (565 red -> 255, 0, 0),
    // color1 = 0x001f (blue -> 0, 0, 255); color0 > color1 selects 4-color mode with
    // c2 = (2 c0 + c1) / 3 = (170, 0, 85) and c3 = (c0 + 2 c1) / 3 = (85, 0, 170). Every row's
    // index byte 0xe4 = 0b11_10_01_00 gives indices 0, 1, 2, 3 for x = 0..3 (2 bits each,
    // LSB first).
    let block = [0x00, 0xf8, 0x1f, 0x00, 0xe4, 0xe4, 0xe4, 0xe4];
    let row = [[255, 0, 0, 255], [0, 0, 255, 255], [170, 0, 85, 255], [85, 0, 170, 255]];
    let f = Format::parse("bc1").unwrap();
    let mut out = [[0u8; 4]; 16];
    f.decode_rect_rgba8(&block, 8, 4, 4, &mut out).unwrap();
    for y in 0..4 {
        assert_eq!(out[y * 4..y * 4 + 4], row, "row {y}");
    }
    // The generic texel path agrees with the fast path.
    let mut t = [[0u32; 4]; 16];
    f.decode_element(&block, &mut t).unwrap();
    assert_eq!(f.texel_to_rgba8(&t[2]), row[2]);
    // 3-color mode (color0 <= color1): index 2 is the average, index 3 transparent black.
    // (255 + 0) / 2 = 127.5 rounds to nearest: 128.
    let block = [0x1f, 0x00, 0x00, 0xf8, 0xe4, 0xe4, 0xe4, 0xe4];
    f.decode_rect_rgba8(&block, 8, 4, 4, &mut out).unwrap();
    assert_eq!(out[..4], [[0, 0, 255, 255], [255, 0, 0, 255], [128, 0, 128, 255], [0, 0, 0, 0]]);
    // A partial 3x2 picture from the same block (edge blocks go through the small buffer).
    let mut small = [[0u8; 4]; 6];
    f.decode_rect_rgba8(&block, 8, 3, 2, &mut small).unwrap();
    assert_eq!(small[3..], out[..3]);
}

#[test]
fn bc_fast_path_matches_texels_on_wide_pictures() {
    // 3 x 2 blocks of varied data, 10 x 7 pixels (partial edges), fast path vs generic path.
    let data: Vec<u8> = (0..6 * 16u32).map(|i| (i.wrapping_mul(37) ^ 0x5a) as u8).collect();
    for name in ["bc1", "bc2", "bc3", "bc7"] {
        let f = Format::parse(name).unwrap();
        let pitch = 3 * f.elem_size_bytes() as usize;
        let mut fast = vec![[0u8; 4]; 70];
        f.decode_rect_rgba8(&data, pitch, 10, 7, &mut fast).unwrap();
        let mut t = vec![[0u32; 4]; 70];
        f.decode_rect(&data, pitch, 10, 7, &mut t).unwrap();
        let slow: Vec<[u8; 4]> = t.iter().map(|x| f.texel_to_rgba8(x)).collect();
        assert_eq!(fast, slow, "{name}");
    }
}

/// The byte-move path of `decode_rect_rgba8` against the generic per-texel path: every color
/// format, and `8_8_8_8` with every component type on every channel, sRGB on and off, and
/// swizzles with constants.
#[test]
fn rgba8_fast_path_matches_generic() {
    use crate::format::{color_formats, ComponentType as T, Swizzle as S};
    let (w, h) = (37u32, 3u32);
    let data: Vec<u8> = (0..w * h * 4).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    let mut formats: Vec<Format> = color_formats().iter().map(Format::from_color).collect();
    let base = Format::parse("tex:0x08").unwrap();
    let types = [T::Unorm, T::Uint, T::Sint, T::Snorm, T::Float];
    for (i, &t) in types.iter().enumerate() {
        let mixed = [t, types[(i + 1) % 5], T::Uint, T::Unorm];
        for swz in [
            [S::C0, S::C1, S::C2, S::C3],
            [S::C2, S::C1, S::C0, S::OneFloat],
            [S::C3, S::Zero, S::C1, S::OneInt],
            [S::C1, S::C1, S::C0, S::C2],
        ] {
            for srgb in [false, true] {
                for ty in [[t; 4], mixed] {
                    if let Ok(f) = base.with_components(ty) {
                        formats.push(f.with_swizzle(swz).with_srgb(srgb));
                    }
                }
            }
        }
    }
    let mut checked = 0;
    for f in formats {
        let Some(map) = f.byte_map_rgba8() else { continue };
        let mut fast = vec![[0u8; 4]; (w * h) as usize];
        f.decode_byte_map_rect_rgba8(map, &data, 4 * w as usize, w, h, &mut fast).unwrap();
        let mut slow = vec![[0u8; 4]; (w * h) as usize];
        f.decode_rect_with(&data, 4 * w as usize, w, h, &mut slow, |t| f.texel_to_rgba8(t)).unwrap();
        assert_eq!(fast, slow, "{} {:?} {:?} srgb {}", f.name(), f.components(), f.swizzle(), f.is_srgb());
        checked += 1;
    }
    assert!(checked > 20, "only {checked} formats took the byte-move path");
}

/// The byte-move path of `encode_rect_rgba8_with` (`byte_unmap_rgba8`) against the generic
/// path (each byte read as `b / 255`, encoded per texel): every color format and `8_8_8_8` with
/// every component type and swizzle, sRGB on and off, into a padded row pitch whose padding
/// stays untouched; every byte value on every channel.
#[test]
fn rgba8_byte_encode_matches_generic() {
    use crate::format::{color_formats, ComponentType as T, Swizzle as S};
    let (w, h, pitch) = (64u32, 5u32, 64 * 4 + 12);
    let px: Vec<[u8; 4]> =
        (0..w * h).map(|i| [0u32, 1, 2, 3].map(|c| ((i * 4 + c).wrapping_mul(2_654_435_761) >> 9) as u8)).collect();
    let mut formats: Vec<Format> = color_formats().iter().map(Format::from_color).collect();
    let base = Format::parse("tex:0x08").unwrap();
    for t in [T::Unorm, T::Uint, T::Snorm] {
        for swz in [
            [S::C0, S::C1, S::C2, S::C3],
            [S::C2, S::C1, S::C0, S::C3],
            [S::C3, S::C0, S::C1, S::C2],
            [S::C2, S::C1, S::C0, S::OneFloat],
            [S::C1, S::C1, S::C0, S::C2],
        ] {
            for srgb in [false, true] {
                formats.push(base.with_components([t; 4]).unwrap().with_swizzle(swz).with_srgb(srgb));
            }
        }
    }
    let mut checked = 0;
    for f in formats {
        if !f.encodes_rgba8_by_bytes() {
            continue;
        }
        let plain = f.with_srgb(false);
        let mut fast = vec![0xA5u8; pitch * h as usize];
        f.encode_rect_rgba8_with(&px, w, h, &mut fast, pitch, &Default::default()).unwrap();
        let texels: Vec<Texel> = px.iter().map(|p| plain.f32_to_texel(&p.map(|b| f32::from(b) / 255.0))).collect();
        let mut slow = vec![0xA5u8; pitch * h as usize];
        plain.encode_rect_elements(&texels, w, h, &mut slow, pitch).unwrap();
        assert_eq!(fast, slow, "{} {:?} {:?} srgb {}", f.name(), f.components(), f.swizzle(), f.is_srgb());
        checked += 1;
    }
    assert!(checked >= 8, "only {checked} formats took the byte-move encode");
}

/// The table path of `decode_rect` (`texel_lut.rs`) against the generic per-element path:
/// every texture and colour format, and `8_8_8_8`/`10_10_10_2` with every component type,
/// sRGB on and off and swizzles with constants, over a random image with a padded row pitch.
#[test]
fn texel_lut_equals_the_generic_decode() {
    use crate::format::{color_formats, texture_formats, ComponentType as T, Swizzle as S};
    let (w, h, pitch) = (29u32, 5u32, 29 * 4 + 7);
    let data: Vec<u8> = (0..pitch * h as usize).map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8).collect();
    let mut formats: Vec<Format> = color_formats().iter().map(Format::from_color).collect();
    formats.extend(texture_formats().iter().map(Format::from_texture));
    let types = [T::Unorm, T::Uint, T::Sint, T::Snorm, T::Float];
    for base in ["tex:0x08", "tex:0x09"] {
        let base = Format::parse(base).unwrap();
        for (i, &t) in types.iter().enumerate() {
            for swz in
                [[S::C0, S::C1, S::C2, S::C3], [S::C3, S::Zero, S::C1, S::OneInt], [S::C2, S::C2, S::C0, S::OneFloat]]
            {
                for srgb in [false, true] {
                    if let Ok(f) = base.with_components([t, types[(i + 1) % 5], T::Uint, t]) {
                        formats.push(f.with_swizzle(swz).with_srgb(srgb));
                    }
                }
            }
        }
    }
    let mut checked = 0;
    for f in &formats {
        let Some(lut) = f.texel_lut(|_| true) else { continue };
        let size = f.elem_size_bytes() as usize;
        let mut fast = vec![[0u32; 4]; (w * h) as usize];
        for y in 0..h as usize {
            lut.row(&data[y * pitch..y * pitch + size * w as usize], &mut fast[y * w as usize..(y + 1) * w as usize]);
        }
        let mut slow = vec![[0u32; 4]; (w * h) as usize];
        f.decode_rect_generic(&data, pitch, w, h, &mut slow).unwrap();
        assert_eq!(fast, slow, "{} {:?} {:?} srgb {}", f.name(), f.components(), f.swizzle(), f.is_srgb());
        checked += 1;
    }
    assert!(checked > 60, "only {checked} formats took the table path");
    // A large image takes the tables through `decode_rect` itself, with the same result.
    let f = Format::parse("RGBA8_SRGB").unwrap();
    let (w, h) = (256u32, 64u32);
    let big: Vec<u8> = (0..w * h * 4).map(|i| (i.wrapping_mul(2_654_435_761) >> 9) as u8).collect();
    let (mut a, mut b) = (vec![[0u32; 4]; (w * h) as usize], vec![[0u32; 4]; (w * h) as usize]);
    f.decode_rect(&big, 4 * w as usize, w, h, &mut a).unwrap();
    f.decode_rect_generic(&big, 4 * w as usize, w, h, &mut b).unwrap();
    assert_eq!(a, b);
}

#[test]
fn x_ones_formats_write_ones() {
    let f = Format::parse("O8R8G8B8").unwrap(); // color 0xfe
    let mut e = [0u8; 4];
    f.encode_element(&[f.f32_to_texel(&[1.0, 0.0, 0.0, 0.0])], &mut e).unwrap();
    assert_eq!(e, [0x00, 0x00, 0xff, 0xff]);
    let f = Format::parse("Z8R8G8B8").unwrap();
    f.encode_element(&[f.f32_to_texel(&[1.0, 0.0, 0.0, 0.0])], &mut e).unwrap();
    assert_eq!(e, [0x00, 0x00, 0xff, 0x00]);
}

#[test]
fn bad_input_is_an_error() {
    let f = Format::parse("RGBA8_UNORM").unwrap();
    let mut t = [[0u32; 4]; 1];
    assert!(matches!(f.decode_element(&[1, 2], &mut t), Err(Error::BufferTooSmall { .. })));
    let mut px = [[0f32; 4]; 1];
    assert!(matches!(f.decode_rgba_f32(&[1, 2, 3, 4, 5], &mut px), Err(Error::NotMultiple { .. })));
    assert!(matches!(f.decode_rgba_f32(&[0; 8], &mut px), Err(Error::BufferTooSmall { .. })));
    let b = Format::parse("bc1").unwrap();
    let mut out = [[0u8; 4]; 16];
    assert!(b.decode_rect_rgba8(&[0; 7], 8, 4, 4, &mut out).is_err());
    assert!(b.decode_rect_rgba8(&[0; 8], 4, 4, 4, &mut out).is_err()); // pitch below a row
    assert!(b.decode_rgba8(&[0; 8], &mut out).is_err()); // several pixels per element
                                                         // Encoding BC blocks needs the `bc-encode` feature (a one-line refusal without it).
    assert_eq!(b.encode_element(&[[0; 4]; 16], &mut [0; 8]).is_ok(), cfg!(feature = "bc-encode"));
    assert!(b.encode_element(&[[0; 4]; 16], &mut [0; 7]).is_err());
    assert!(b.encode_element(&[[0; 4]; 15], &mut [0; 8]).is_err());
}

// ---------------------------------------------------------------------------------------------
// Property: decode(encode(decode(e))) == decode(e), bit for bit, for every non-compressed
// format, with random component types and swizzles for texture formats.
// ---------------------------------------------------------------------------------------------

fn roundtrip_holds(f: &Format, elem: &[u8]) -> Result<(), alloc::string::String> {
    let n = f.pixels_per_elem();
    let mut d1 = [[0u32; 4]; 64];
    let mut d2 = [[0u32; 4]; 64];
    let mut e2 = [0u8; 16];
    f.decode_element(elem, &mut d1).map_err(|e| e.to_string())?;
    f.encode_element(&d1[..n], &mut e2).map_err(|e| e.to_string())?;
    f.decode_element(&e2, &mut d2).map_err(|e| e.to_string())?;
    if d1[..n] == d2[..n] {
        Ok(())
    } else {
        Err(alloc::format!(
            "{} {:?}: {elem:02x?} -> {:02x?}: {:x?} vs {:x?}",
            f.name(),
            f.swizzle(),
            &e2,
            &d1[..n],
            &d2[..n]
        ))
    }
}

fn valid_formats() -> Vec<Format> {
    let mut v: Vec<Format> = texture_formats()
        .iter()
        .filter(|t| !matches!(t.layout, crate::format::Layout::Compressed(_)))
        .map(Format::from_texture)
        .collect();
    v.extend(crate::format::color_formats().iter().map(Format::from_color));
    v.extend(crate::format::zeta_formats().iter().map(Format::from_zeta));
    v
}

#[test]
fn every_format_round_trips_edge_values() {
    for f in valid_formats() {
        let size = f.elem_size_bytes() as usize;
        for fill in [0x00u8, 0xff, 0x80, 0x7f, 0x01, 0x55, 0xaa, 0x7c, 0xfe] {
            let e = vec![fill; size];
            roundtrip_holds(&f, &e).unwrap();
        }
    }
}

mod prop {
    use super::*;
    use crate::format::{ComponentType as T, Swizzle as S};
    use proptest::prelude::*;

    fn ty() -> impl Strategy<Value = T> {
        prop_oneof![Just(T::Unorm), Just(T::Snorm), Just(T::Sint), Just(T::Uint), Just(T::Float)]
    }
    fn sw() -> impl Strategy<Value = S> {
        prop_oneof![
            Just(S::C0),
            Just(S::C1),
            Just(S::C2),
            Just(S::C3),
            Just(S::Zero),
            Just(S::OneInt),
            Just(S::OneFloat)
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

        #[test]
        fn table_formats_round_trip(idx in 0usize..1000, bytes in proptest::array::uniform16(any::<u8>())) {
            let all = valid_formats();
            let f = all[idx % all.len()];
            prop_assert!(roundtrip_holds(&f, &bytes).is_ok(), "{:?}", roundtrip_holds(&f, &bytes));
        }

        #[test]
        fn texture_types_and_swizzles_round_trip(
            idx in 0usize..1000,
            types in proptest::array::uniform4(ty()),
            swz in proptest::array::uniform4(sw()),
            srgb in any::<bool>(),
            bytes in proptest::array::uniform16(any::<u8>()),
        ) {
            let texs: Vec<_> = texture_formats()
                .iter()
                .filter(|t| !matches!(t.layout, crate::format::Layout::Compressed(_)))
                .collect();
            let t = texs[idx % texs.len()];
            let Ok(f) = Format::from_texture(t).with_components(types) else { return Ok(()) };
            // sRGB only on unorm formats (the hardware's sRGB textures are unorm).
            let srgb = srgb && types.iter().all(|&x| x == T::Unorm);
            let f = f.with_swizzle(swz).with_srgb(srgb);
            prop_assert!(roundtrip_holds(&f, &bytes).is_ok(), "{:?}", roundtrip_holds(&f, &bytes));
        }

        #[test]
        fn yuv_matrices_round_trip(bytes in proptest::array::uniform4(any::<u8>()), m in 0usize..2, fmt in 0usize..2) {
            let m = [YuvMatrix::Bt601, YuvMatrix::Bt709][m];
            let f = Format::from_id(Kind::Texture, [0x22, 0x23][fmt]).unwrap().with_yuv_matrix(m).unwrap();
            prop_assert!(roundtrip_holds(&f, &bytes).is_ok(), "{:?}", roundtrip_holds(&f, &bytes));
        }

        #[test]
        fn half_round_trips_every_value(h in any::<u16>()) {
            prop_assert_eq!(f32_to_f16(f16_to_f32(h)), h);
        }

        #[test]
        fn half_rounds_to_nearest(x in -65504.0f32..65504.0) {
            let h = f32_to_f16(x);
            let back = f64::from(f16_to_f32(h));
            // No other half value is strictly closer.
            for n in [h.wrapping_add(1), h.wrapping_sub(1)] {
                let other = f16_to_f32(n);
                if other.is_finite() && (other.to_bits() >> 31) == (x.to_bits() >> 31) {
                    prop_assert!((back - f64::from(x)).abs() <= (f64::from(other) - f64::from(x)).abs());
                }
            }
        }
    }
}

/// The lookup-table path of `decode_rect_rgba8` against the generic per-texel path (its safe
/// twin): every simple format of up to 4 bytes in the tables, plus mixed component types,
/// swizzles and sRGB on the texture formats.
#[test]
fn rgba8_lookup_tables_match_the_generic_path() {
    use crate::cpu::{set_vector_limit, VectorLevel};
    use crate::format::{color_formats, ComponentType as T, Swizzle as S};
    // 67 pixels a row: four 16-pixel vector groups and a tail of 3.
    let (w, h) = (67u32, 3u32);
    let elems: Vec<u8> = (0..w * h * 4).map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8).collect();
    let mut formats: Vec<Format> = color_formats().iter().map(Format::from_color).collect();
    for t in texture_formats() {
        let base = Format::from_texture(t);
        formats.push(base);
        for (types, swz) in [
            ([T::Snorm, T::Uint, T::Sint, T::Unorm], [S::C3, S::Zero, S::C0, S::OneInt]),
            ([T::Float, T::Snorm, T::Snorm, T::Uint], [S::C1, S::C2, S::OneFloat, S::C0]),
        ] {
            if let Ok(f) = base.with_components(types) {
                formats.push(f.with_swizzle(swz));
                formats.push(f.with_swizzle(swz).with_srgb(true));
            }
        }
    }
    let mut checked = 0;
    for f in formats {
        let Some(lut) = f.word_lut(|_| true) else { continue };
        let pitch = w as usize * f.elem_size_bytes() as usize;
        let mut slow = vec![[0u8; 4]; (w * h) as usize];
        f.decode_rect_with(&elems, pitch, w, h, &mut slow, |t| f.texel_to_rgba8(t)).unwrap();
        // Every vector level this CPU has: the portable rows, AVX2, AVX-512 VBMI.
        for level in [VectorLevel::Baseline, VectorLevel::Avx2, VectorLevel::Avx512] {
            let mut fast = vec![[0u8; 4]; (w * h) as usize];
            set_vector_limit(level);
            f.decode_word_lut_rect_rgba8(&lut, &elems, pitch, w, h, &mut fast).unwrap();
            set_vector_limit(VectorLevel::Avx512);
            assert_eq!(
                fast,
                slow,
                "{} {:?} {:?} srgb {} {level:?}",
                f.name(),
                f.components(),
                f.swizzle(),
                f.is_srgb()
            );
        }
        checked += 1;
    }
    assert!(checked > 40, "only {checked} formats took the table path");
    // Too few pixels for the tables: the generic path runs (and agrees).
    let f = Format::parse("RGB10_A2_UNORM").unwrap();
    assert!(f.word_lut(|decodes| 1 >= 4 * decodes).is_none());
    let mut one = [[0u8; 4]; 1];
    f.decode_rect_rgba8(&[0x80, 0x40, 0xff, 0x11], 4, 1, 1, &mut one).unwrap();
    assert_eq!(
        one[0],
        f.texel_to_rgba8(&{
            let mut t = [[0u32; 4]; 1];
            f.decode_element(&[0x80, 0x40, 0xff, 0x11], &mut t).unwrap();
            t[0]
        })
    );
}

#[test]
fn fast_paths_are_taken() {
    // The benchmark's formats take the intended paths (each compared with the generic path
    // by the tests above).
    let p = |n: &str| Format::parse(n).unwrap();
    assert_eq!(p("RGBA8_UINT").byte_map_rgba8(), Some([0, 1, 2, 3]));
    assert_eq!(p("BGRX8_UNORM").byte_map_rgba8(), Some([2, 1, 0, 5]));
    assert_eq!(p("RGBA8_SRGB").byte_map_rgba8(), None);
    assert!(p("RGB10_A2_UNORM").word_lut(|_| true).unwrap().unorm10.is_some());
    assert!(p("RGB10_A2_UINT").word_lut(|_| true).unwrap().unorm10.is_none());
    assert_eq!(p("RGBA8_SRGB").word_lut(|_| true).unwrap().kernel, rgba8::LutKernel::BytesKeepA);
    assert!(p("RGBA8_SRGB").word_lut(|_| true).unwrap().bytes.is_some());
    assert_eq!(p("RGBA8_SINT").word_lut(|_| true).unwrap().kernel, rgba8::LutKernel::Bytes);
}

/// The BC4/BC5 RGBA8 path (byte palettes straight into the rows) against the generic
/// per-texel path: unorm and snorm, swizzles with constants, edge blocks of an odd-sized
/// picture and a padded row pitch.
#[test]
fn rgtc_rgba8_path_matches_generic() {
    use crate::format::{ComponentType as T, Swizzle as S};
    let (w, h) = (23u32, 10u32);
    let mut checked = 0;
    for name in ["bc4", "bc5", "BC4_SNORM", "BC5_SNORM"] {
        let base = Format::parse(name).unwrap();
        let size = base.elem_size_bytes() as usize;
        let pitch = 6 * size + 5;
        let data: Vec<u8> = (0..pitch * 3).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        for swz in [
            None,
            Some([S::C1, S::C0, S::Zero, S::OneFloat]),
            Some([S::C0, S::C0, S::C0, S::C1]),
            Some([S::OneInt, S::C2, S::C3, S::C0]),
        ] {
            let f = swz.map_or(base, |s| base.with_swizzle(s));
            if f.rgtc_rgba8_map().is_none() {
                assert!(swz.is_some_and(|s| s[0] == S::OneInt), "{name} {swz:?} has no RGTC map");
                continue;
            }
            let mut fast = vec![[0u8; 4]; (w * h) as usize];
            f.decode_rect_rgba8(&data, pitch, w, h, &mut fast).unwrap();
            let mut slow = vec![[0u8; 4]; (w * h) as usize];
            f.decode_rect_with(&data, pitch, w, h, &mut slow, |t| f.texel_to_rgba8(t)).unwrap();
            assert_eq!(fast, slow, "{name} {swz:?}");
            checked += 1;
        }
        assert_eq!(base.types[0] == T::Snorm, name.ends_with("SNORM"), "{name}");
    }
    assert!(checked >= 12, "{checked}");
}
