//! The 8-bit RGBA outputs of sRGB formats are the stored sRGB-encoded values (what a PNG of
//! the CLI, Pillow and image_dds give); texels and f32 outputs stay linear; the RGBA8 encoder
//! takes stored values. `docs/formats.md`, "sRGB formats".
use super::*;
use crate::codec::{linear_to_srgb, srgb_to_linear};
use alloc::vec::Vec;

fn noise(n: usize, seed: u32) -> Vec<u8> {
    (0..n as u32).map(|i| (i.wrapping_add(seed).wrapping_mul(2_654_435_761) >> 13) as u8).collect()
}

/// Every sRGB format of the tables: the sRGB color formats, and every texture format whose
/// components are unorm (the ones sRGB applies to) with sRGB set, compressed ones included.
fn srgb_formats() -> Vec<Format> {
    let mut v: Vec<Format> = color_formats().iter().map(Format::from_color).filter(Format::is_srgb).collect();
    for t in texture_formats() {
        let f = Format::from_texture(t);
        if !f.is_zeta() && f.components().iter().all(|&c| c == ComponentType::Unorm) {
            v.push(f.with_srgb(true));
        }
    }
    v
}

#[test]
fn bc1_srgb_gives_the_pngs_bytes() {
    // color0 = color1 = 0x8080: R5 = 16 -> 132, G6 = 4 -> 16, B5 = 0 (BC1 expands 5/6-bit
    // values by bit replication: 16 * 255 / 31 = 131.6, 4 * 255 / 63 = 16.2). The CLI's PNG of
    // this block has had (132, 16, 0, 255) all along; before, this call gave (59, 1, 0, 255).
    let f = Format::parse("bc1_srgb").unwrap();
    assert!(f.is_srgb());
    let mut out = [[0u8; 4]; 16];
    f.decode_rect_rgba8(&[0x80; 8], 8, 4, 4, &mut out).unwrap();
    assert!(out.iter().all(|p| *p == [132, 16, 0, 255]), "{out:?}");
    // The float output is linear light.
    let mut lin = [[0f32; 4]; 16];
    f.decode_rect_f32(&[0x80; 8], 8, 4, 4, &mut lin).unwrap();
    assert_eq!(lin[0][0], srgb_to_linear(132.0 / 255.0));
    assert_eq!(lin[0][3], 1.0);
}

#[test]
fn rgba8_srgb_bytes_come_out_as_stored() {
    let f = Format::parse("RGBA8_SRGB").unwrap();
    assert!(f.is_srgb());
    // Large enough for every fast path (byte moves, tables), and one pixel (generic path).
    for (w, h) in [(1u32, 1u32), (67, 9)] {
        let elems = noise(4 * (w * h) as usize, w);
        let mut out = alloc::vec![[0u8; 4]; (w * h) as usize];
        f.decode_rect_rgba8(&elems, 4 * w as usize, w, h, &mut out).unwrap();
        assert_eq!(out.as_flattened(), &elems[..], "{w}x{h}");
        // The row helper too.
        let mut row = alloc::vec![[0u8; 4]; (w * h) as usize];
        f.decode_rgba8(&elems, &mut row).unwrap();
        assert_eq!(row, out);
        // Texels are linear: the sRGB curve of each stored byte, alpha as stored.
        let mut t = alloc::vec![[0f32; 4]; (w * h) as usize];
        f.decode_rect_f32(&elems, 4 * w as usize, w, h, &mut t).unwrap();
        for (p, e) in t.iter().zip(elems.chunks_exact(4)) {
            assert_eq!(p[..3], [0, 1, 2].map(|i| srgb_to_linear(f32::from(e[i]) / 255.0)));
            assert_eq!(p[3], f32::from(e[3]) / 255.0);
        }
    }
}

/// For every sRGB format, the RGBA8 output is the sRGB encoding of the (linear) f32 output,
/// rounded: the two outputs are tied by the curve, not computed the same way (RGBA8 reads the
/// stored values, f32 decodes them).
#[test]
fn rgba8_is_the_srgb_encoding_of_the_linear_output() {
    let mut checked = 0;
    for f in srgb_formats() {
        let (bw, bh) = f.block_dims();
        let (w, h) = (2 * bw + 1, bh + 1);
        let size = f.elem_size_bytes() as usize;
        let pitch = w.div_ceil(bw) as usize * size;
        let elems = noise(pitch * h.div_ceil(bh) as usize, f.id().into());
        let n = (w * h) as usize;
        let mut rgba = alloc::vec![[0u8; 4]; n];
        let mut lin = alloc::vec![[0f32; 4]; n];
        if f.decode_rect_f32(&elems, pitch, w, h, &mut lin).is_err() {
            // A format this build cannot decode (ASTC without its decoder) fails both ways.
            assert!(f.decode_rect_rgba8(&elems, pitch, w, h, &mut rgba).is_err(), "{}", f.name());
            continue;
        }
        f.decode_rect_rgba8(&elems, pitch, w, h, &mut rgba).unwrap();
        let kinds = f.channel_kinds();
        for (i, (b, l)) in rgba.iter().zip(&lin).enumerate() {
            for c in 0..4 {
                if kinds[c] != crate::codec::ValueKind::Float {
                    continue;
                }
                let curved = c < 3 && f.swizzle()[c].component().is_some();
                let v = if curved { linear_to_srgb(l[c]) } else { l[c] };
                let want = f64::from(v.clamp(0.0, 1.0)) * 255.0;
                assert!(
                    (f64::from(b[c]) - want).abs() <= 0.5 + 1e-3,
                    "{} pixel {i} channel {c}: rgba8 {} vs linear {} (sRGB-coded {want:.3})",
                    f.name(),
                    b[c],
                    l[c]
                );
            }
        }
        checked += 1;
    }
    assert!(checked > 15, "only {checked} sRGB formats checked");
}

#[test]
fn rgba8_encode_takes_stored_values() {
    // Uncompressed: the stored bytes are the given bytes, and decode gives them back.
    for name in ["RGBA8_SRGB", "BGRA8_SRGB"] {
        let f = Format::parse(name).unwrap();
        let (w, h) = (13u32, 3u32);
        let px: Vec<[u8; 4]> = noise(4 * (w * h) as usize, 7).as_chunks::<4>().0.to_vec();
        let mut elems = alloc::vec![0u8; 4 * (w * h) as usize];
        f.encode_rect_rgba8_with(&px, w, h, &mut elems, 4 * w as usize, &EncodeOptions::default()).unwrap();
        let mut plain = alloc::vec![0u8; elems.len()];
        f.with_srgb(false)
            .encode_rect_rgba8_with(&px, w, h, &mut plain, 4 * w as usize, &EncodeOptions::default())
            .unwrap();
        assert_eq!(elems, plain, "{name}: stored as the format without sRGB stores them");
        let mut back = alloc::vec![[0u8; 4]; px.len()];
        f.decode_rect_rgba8(&elems, 4 * w as usize, w, h, &mut back).unwrap();
        assert_eq!(back, px, "{name}");
    }
    let f = Format::parse("RGBA8_SRGB").unwrap();
    let mut e = [0u8; 4];
    f.encode_rect_rgba8_with(&[[0x80, 0x10, 0xff, 0x40]], 1, 1, &mut e, 4, &EncodeOptions::default()).unwrap();
    assert_eq!(e, [0x80, 0x10, 0xff, 0x40]);
}

#[cfg(feature = "bc-encode")]
#[test]
fn rgba8_encode_of_srgb_blocks_stores_the_bytes_as_given() {
    // The same RGBA8 input gives the same blocks with and without sRGB: the bytes are the
    // sRGB-coded values to store.
    let (w, h) = (12u32, 8u32);
    let px: Vec<[u8; 4]> =
        noise(4 * (w * h) as usize, 3).as_chunks::<4>().0.iter().map(|p| [p[0], p[1], p[2], 255]).collect();
    for name in ["bc1", "bc3", "bc7"] {
        let plain = Format::parse(name).unwrap();
        let srgb = Format::parse(&alloc::format!("{name}_srgb")).unwrap();
        let row = w.div_ceil(4) as usize * plain.elem_size_bytes() as usize;
        let n = row * h.div_ceil(4) as usize;
        let (mut a, mut b) = (alloc::vec![0u8; n], alloc::vec![0u8; n]);
        srgb.encode_rect_rgba8_with(&px, w, h, &mut a, row, &EncodeOptions::default()).unwrap();
        plain.encode_rect_rgba8_with(&px, w, h, &mut b, row, &EncodeOptions::default()).unwrap();
        assert_eq!(a, b, "{name}_srgb");
    }
}
