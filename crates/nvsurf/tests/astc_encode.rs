//! ASTC encoding through the built-in encoder (Intel's ISPC ASTC encoder, `codec::astc_encode`,
//! feature `bc-encode`): every footprint it takes round-trips through our decoder with a PSNR
//! that a real encoder gives (a broken block order, a wrong channel count or an unpadded edge
//! falls far below), partial edge blocks included; larger footprints are refused in one line
//! that names the feature to enable.
#![cfg(feature = "bc-encode")]

use nvsurf::codec::{encode_astc_rgba8, BcQuality, EncodeOptions};
use nvsurf::format::Format;

/// The footprints the built-in encoder takes (ASTC 2D footprints with both sides at most 8).
const FOOTPRINTS: [(u8, u8); 8] = [(4, 4), (5, 4), (5, 5), (6, 5), (6, 6), (8, 5), (8, 6), (8, 8)];

/// A deterministic test picture: smooth gradients, a hard diagonal edge and a little noise;
/// alpha varies when `alpha` is set, else 255.
fn picture(w: u32, h: u32, alpha: bool) -> Vec<[u8; 4]> {
    let mut seed = 0x9e37_79b9u32;
    let mut noise = || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        (seed % 9) as i32 - 4
    };
    let mut v = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let edge = if x * h > y * w { 60 } else { 0 };
            let c = |base: u32, n: i32| (base as i32 + n).clamp(0, 255) as u8;
            let r = c(x * 255 / w.max(1) / 2 + edge, noise());
            let g = c(y * 255 / h.max(1) / 2 + 40, noise());
            let b = c((x + y) * 255 / (w + h) / 2 + 100 - edge, noise());
            let a = if alpha { c(255 - y * 200 / h.max(1), 0) } else { 255 };
            v.push([r, g, b, a]);
        }
    }
    v
}

fn psnr(a: &[[u8; 4]], b: &[[u8; 4]]) -> f64 {
    let (a, b) = (a.as_flattened(), b.as_flattened());
    let mse = a.iter().zip(b).map(|(&x, &y)| (f64::from(x) - f64::from(y)).powi(2)).sum::<f64>() / a.len() as f64;
    10.0 * (255.0f64 * 255.0 / mse.max(1e-9)).log10()
}

/// Encodes through the library's front door and decodes back; returns the PSNR.
fn round_trip(f: &Format, src: &[[u8; 4]], w: u32, h: u32, quality: BcQuality) -> f64 {
    let (bw, bh) = f.block_dims();
    let pitch = w.div_ceil(bw) as usize * 16;
    let mut blocks = vec![0u8; pitch * h.div_ceil(bh) as usize];
    f.encode_rect_rgba8_with(src, w, h, &mut blocks, pitch, &EncodeOptions::with_bc_quality(quality)).unwrap();
    let mut back = vec![[0u8; 4]; src.len()];
    f.decode_rect_rgba8(&blocks, pitch, w, h, &mut back).unwrap();
    psnr(src, &back)
}

#[test]
fn every_footprint_up_to_8x8_round_trips() {
    // 37x29: a partial block column and row for every footprint but none.
    let (w, h) = (37, 29);
    for alpha in [false, true] {
        let src = picture(w, h, alpha);
        for (bw, bh) in FOOTPRINTS {
            let f = Format::parse(&format!("astc_{bw}x{bh}")).unwrap();
            let p = round_trip(&f, &src, w, h, BcQuality::Normal);
            // Measured 32.6 (8x8, alpha) to 42.1 dB (4x4, opaque) on this picture, about 3 dB
            // above each floor; a misplaced block or a lost channel gives < 15 dB.
            eprintln!("astc_{bw}x{bh} alpha={alpha}: {p:.2} dB");
            let px = bw * bh;
            let floor = if px <= 20 {
                36.0
            } else if px <= 30 {
                33.0
            } else {
                30.0
            };
            assert!(p > floor, "astc_{bw}x{bh} alpha={alpha}: {p:.2} dB");
        }
    }
}

#[test]
fn opaque_pictures_decode_opaque_and_srgb_stores_the_bytes() {
    let (w, h) = (24, 16);
    let src = picture(w, h, false);
    let f = Format::parse("astc_6x6").unwrap();
    let pitch = 4 * 16;
    let mut blocks = vec![0u8; pitch * 3];
    f.encode_rect_rgba8_with(&src, w, h, &mut blocks, pitch, &EncodeOptions::default()).unwrap();
    let mut back = vec![[0u8; 4]; src.len()];
    f.decode_rect_rgba8(&blocks, pitch, w, h, &mut back).unwrap();
    assert!(back.iter().all(|p| p[3] == 255), "an opaque picture keeps alpha 255");
    // sRGB formats store the picture's (sRGB-encoded) bytes: the same blocks as the UNORM format.
    let srgb = Format::parse("astc_6x6_srgb").unwrap();
    let mut s_blocks = vec![0u8; blocks.len()];
    srgb.encode_rect_rgba8_with(&src, w, h, &mut s_blocks, pitch, &EncodeOptions::default()).unwrap();
    assert_eq!(s_blocks, blocks);
}

#[test]
fn row_pitch_and_quality_are_honoured() {
    let (w, h) = (40, 24);
    let src = picture(w, h, true);
    let f = Format::parse("astc_8x8").unwrap();
    let tight = 5 * 16;
    let mut a = vec![0u8; tight * 3];
    f.encode_rect_rgba8_with(&src, w, h, &mut a, tight, &EncodeOptions::default()).unwrap();
    // A wider row pitch holds the same block rows with the padding untouched.
    let wide = tight + 32;
    let mut b = vec![0xeeu8; wide * 3];
    f.encode_rect_rgba8_with(&src, w, h, &mut b, wide, &EncodeOptions::default()).unwrap();
    for r in 0..3 {
        assert_eq!(&b[r * wide..r * wide + tight], &a[r * tight..(r + 1) * tight]);
        assert!(b[r * wide + tight..(r + 1) * wide].iter().all(|&x| x == 0xee));
    }
    // The slower search never does worse on this picture.
    let fast = round_trip(&f, &src, w, h, BcQuality::Fast);
    let slow = round_trip(&f, &src, w, h, BcQuality::Slow);
    assert!(slow >= fast - 0.01, "slow {slow:.2} dB below fast {fast:.2} dB");
}

#[test]
fn larger_footprints_are_refused_naming_the_feature() {
    for name in ["astc_10x5", "astc_10x10", "astc_12x12", "astc_12x10"] {
        let f = Format::parse(name).unwrap();
        let (bw, bh) = f.block_dims();
        let mut out = vec![0u8; 16];
        let e = f.encode_rect_rgba8_with(&[[0; 4]; 1], 1, 1, &mut out, 16, &EncodeOptions::default()).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("--features astcenc") && msg.contains(&format!("{bw}x{bh}")), "{msg}");
        assert_eq!(msg.lines().count(), 1, "{msg}");
    }
}

#[test]
fn the_raw_entry_point_checks_its_buffers() {
    let src = picture(9, 9, false);
    let rgba = src.as_flattened();
    // 9x9 in 4x4 blocks: 3x3 blocks of 16 bytes.
    let mut short = vec![0u8; 3 * 3 * 16 - 1];
    assert!(encode_astc_rgba8((4, 4), rgba, 9, 9, BcQuality::Fast, &mut short).is_err());
    let mut out = vec![0u8; 3 * 3 * 16];
    assert!(encode_astc_rgba8((4, 4), &rgba[..rgba.len() - 1], 9, 9, BcQuality::Fast, &mut out).is_err());
    assert!(encode_astc_rgba8((3, 4), rgba, 9, 9, BcQuality::Fast, &mut out).is_err());
    encode_astc_rgba8((4, 4), rgba, 9, 9, BcQuality::Fast, &mut out).unwrap();
    assert!(out.iter().any(|&b| b != 0));
    // Nothing to encode is not an error.
    encode_astc_rgba8((8, 8), &[], 0, 0, BcQuality::Fast, &mut []).unwrap();
}
