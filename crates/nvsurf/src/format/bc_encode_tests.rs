//! Block-compression encoding (feature `bc-encode`): encode a synthetic picture (a gradient
//! with noise, sized so that the right and bottom blocks are partial), decode it back with the
//! decoder, and measure the PSNR against the source.

use super::{BcQuality, ComponentType, EncodeOptions, Format, Texel};
use alloc::vec::Vec;

const W: u32 = 67;
const H: u32 = 45;

/// A small xorshift: the same noise every run.
fn noise(seed: &mut u32) -> f32 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 17;
    *seed ^= *seed << 5;
    (*seed % 1000) as f32 / 1000.0
}

/// Gradient + noise in [0, 1] (alpha varies too).
fn picture(w: u32, h: u32) -> Vec<[f32; 4]> {
    let mut seed = 0x1234_5678;
    (0..w * h)
        .map(|i| {
            let (x, y) = ((i % w) as f32 / w as f32, (i / w) as f32 / h as f32);
            let n = 0.08 * (noise(&mut seed) - 0.5);
            [x + n, y - n, (x + y) * 0.5 + n, 1.0 - 0.5 * x].map(|v| v.clamp(0.0, 1.0))
        })
        .collect()
}

fn encode(f: &Format, px: &[[f32; 4]], w: u32, h: u32, q: BcQuality) -> Vec<u8> {
    let row = w.div_ceil(4) as usize * f.elem_size_bytes() as usize;
    let mut out = alloc::vec![0u8; row * h.div_ceil(4) as usize];
    f.encode_rect_f32_with(px, w, h, &mut out, row, &EncodeOptions::with_bc_quality(q)).unwrap();
    out
}

/// PSNR in dB over `channels` of 8-bit values (peak 255) of the decoded picture against
/// the source (values as `f32`, scaled by `scale` and offset by `bias` to 8 bits).
fn psnr(f: &Format, data: &[u8], src: &[[f32; 4]], w: u32, h: u32, channels: usize) -> f64 {
    let row = w.div_ceil(4) as usize * f.elem_size_bytes() as usize;
    let mut back = alloc::vec![[0f32; 4]; (w * h) as usize];
    f.decode_rect_f32(data, row, w, h, &mut back).unwrap();
    let snorm = f.components()[0] == ComponentType::Snorm;
    let q = |v: f32| if snorm { (v.clamp(-1.0, 1.0) * 127.0).round() } else { (v.clamp(0.0, 1.0) * 255.0).round() };
    let mut sse = 0f64;
    for (a, b) in src.iter().zip(&back) {
        for c in 0..channels {
            sse += f64::from(q(a[c]) - q(b[c])).powi(2);
        }
    }
    let mse = sse / (src.len() * channels) as f64;
    let peak: f64 = if snorm { 254.0 } else { 255.0 };
    10.0 * (peak * peak / mse).log10()
}

#[test]
fn ldr_formats_round_trip_above_a_floor() {
    let src = picture(W, H);
    // (format, channels compared, floor in dB); the floors sit a few dB under what the
    // encoders reach on this picture, far above what a wrong block layout would give.
    for (name, ch, floor) in
        [("bc1", 3, 30.0), ("bc2", 4, 29.0), ("bc3", 4, 32.0), ("bc4", 1, 38.0), ("bc5", 2, 38.0), ("bc7", 4, 38.0)]
    {
        let f = Format::parse(name).unwrap();
        for q in [BcQuality::Fast, BcQuality::Normal, BcQuality::Slow] {
            let p = psnr(&f, &encode(&f, &src, W, H, q), &src, W, H, ch);
            assert!(p > floor, "{name} {q:?}: {p:.2} dB <= {floor}");
        }
    }
}

#[test]
fn slow_is_at_least_as_good_as_fast() {
    let src = picture(W, H);
    for (name, ch) in [("bc1", 3), ("bc2", 4), ("bc3", 4), ("bc7", 4)] {
        let f = Format::parse(name).unwrap();
        let fast = psnr(&f, &encode(&f, &src, W, H, BcQuality::Fast), &src, W, H, ch);
        let slow = psnr(&f, &encode(&f, &src, W, H, BcQuality::Slow), &src, W, H, ch);
        assert!(slow >= fast - 0.01, "{name}: slow {slow:.2} dB < fast {fast:.2} dB");
    }
}

#[test]
fn signed_bc4_bc5_keep_their_sign() {
    let src: Vec<[f32; 4]> = picture(W, H).iter().map(|p| [2.0 * p[0] - 1.0, 1.0 - 2.0 * p[1], 0.0, 1.0]).collect();
    for (name, ch) in [("bc4", 1), ("bc5", 2)] {
        let f = Format::parse(name).unwrap().with_components([ComponentType::Snorm; 4]).unwrap();
        let p = psnr(&f, &encode(&f, &src, W, H, BcQuality::Normal), &src, W, H, ch);
        assert!(p > 36.0, "{name} snorm: {p:.2} dB");
    }
}

#[test]
fn bc6h_unsigned_keeps_hdr_values() {
    // Away from 0: BC6H interpolates half-float bit patterns, so a block holding both 0 and 6
    // has palette steps of a whole exponent (that is the format, not the encoder).
    let src: Vec<[f32; 4]> =
        picture(W, H).iter().map(|p| [0.5 + p[0] * 40.0, 0.5 + p[1] * 3.0, 0.5 + p[2] * 0.25, 1.0]).collect();
    let f = Format::parse("bc6h").unwrap();
    let row = W.div_ceil(4) as usize * 16;
    for q in [BcQuality::Fast, BcQuality::Normal, BcQuality::Slow] {
        let data = encode(&f, &src, W, H, q);
        let mut back = alloc::vec![[0f32; 4]; (W * H) as usize];
        f.decode_rect_f32(&data, row, W, H, &mut back).unwrap();
        // Error relative to the pixel's brightest channel (BC6H shares endpoints between
        // channels, so a dim channel beside a bright one keeps fewer digits), and the mean.
        let (mut worst, mut sum) = (0f32, 0f32);
        for (a, b) in src.iter().zip(&back) {
            let scale = 1.0 + a[0].max(a[1]).max(a[2]);
            for c in 0..3 {
                let e = (a[c] - b[c]).abs() / scale;
                worst = worst.max(e);
                sum += e;
            }
        }
        let mean = sum / (3 * src.len()) as f32;
        assert!(worst < 0.15 && mean < 0.01, "{q:?}: relative error worst {worst}, mean {mean}");
    }
}

#[test]
fn srgb_bc7_stores_srgb_coded_values() {
    let src = picture(W, H);
    let f = Format::parse("bc7").unwrap().with_srgb(true);
    let raw = Format::parse("bc7").unwrap();
    let data = encode(&f, &src, W, H, BcQuality::Normal);
    // Read without the sRGB decode, the blocks hold the sRGB-coded source.
    let coded: Vec<[f32; 4]> = src
        .iter()
        .map(|p| {
            [
                crate::codec::linear_to_srgb(p[0]),
                crate::codec::linear_to_srgb(p[1]),
                crate::codec::linear_to_srgb(p[2]),
                p[3],
            ]
        })
        .collect();
    let p = psnr(&raw, &data, &coded, W, H, 4);
    assert!(p > 38.0, "{p:.2} dB");
}

#[test]
fn edge_blocks_repeat_the_edge_pixels() {
    // 5x5: one whole block and partial ones; the last row and column are red, the rest blue.
    let (w, h) = (5u32, 5u32);
    let src: Vec<[f32; 4]> = (0..w * h)
        .map(|i| if i % w == 4 || i / w == 4 { [1.0, 0.0, 0.0, 1.0] } else { [0.0, 0.0, 1.0, 1.0] })
        .collect();
    let f = Format::parse("bc7").unwrap();
    let data = encode(&f, &src, w, h, BcQuality::Normal);
    // Decoded as 8x8, the padding of the partial blocks is the repeated red edge.
    let mut back = alloc::vec![[0u8; 4]; 64];
    f.decode_rect_rgba8(&data, 32, 8, 8, &mut back).unwrap();
    for y in 0..8 {
        for x in 0..8 {
            let want = if x >= 4 || y >= 4 { [255, 0, 0, 255] } else { [0, 0, 255, 255] };
            assert_eq!(back[y * 8 + x], want, "({x}, {y})");
        }
    }
}

#[test]
fn rgba8_and_texel_inputs_give_the_same_blocks() {
    // Partial edge blocks (67x45) and whole ones (64x32: the RGBA8 input goes to the encoder
    // in place, and tightly packed output is written in place).
    for (w, h) in [(W, H), (64, 32)] {
        let src = picture(w, h);
        let bytes: Vec<[u8; 4]> = src.iter().map(|p| p.map(|v| (v * 255.0).round() as u8)).collect();
        for name in ["bc1", "bc3", "bc7"] {
            let f = Format::parse(name).unwrap();
            let row = w.div_ceil(4) as usize * f.elem_size_bytes() as usize;
            let n = row * h.div_ceil(4) as usize;
            let (mut a, mut b) = (alloc::vec![0u8; n], alloc::vec![0u8; n]);
            f.encode_rect_rgba8_with(&bytes, w, h, &mut a, row, &EncodeOptions::default()).unwrap();
            let texels: Vec<Texel> = bytes.iter().map(|p| f.f32_to_texel(&p.map(|v| f32::from(v) / 255.0))).collect();
            f.encode_rect(&texels, w, h, &mut b, row).unwrap();
            assert_eq!(a, b, "{name} {w}x{h}");
            // A wider row pitch: the same blocks, row by row.
            let mut c = alloc::vec![0u8; (row + 8) * h.div_ceil(4) as usize];
            f.encode_rect_rgba8_with(&bytes, w, h, &mut c, row + 8, &EncodeOptions::default()).unwrap();
            for (r, blocks) in a.chunks(row).enumerate() {
                assert_eq!(&c[r * (row + 8)..r * (row + 8) + row], blocks, "{name} {w}x{h} pitched row {r}");
            }
        }
    }
}

#[test]
fn one_element_and_a_pitched_rect() {
    let f = Format::parse("bc1").unwrap();
    let px = [[0x3f80_0000u32, 0, 0, 0x3f80_0000]; 16];
    let mut block = [0u8; 8];
    f.encode_element(&px, &mut block).unwrap();
    let mut back = [[0u32; 4]; 16];
    f.decode_element(&block, &mut back).unwrap();
    assert!(back.iter().all(|t| f.texel_to_rgba8(t) == [255, 0, 0, 255]), "{back:?}");
    // A row pitch wider than the blocks leaves the gap untouched.
    let src = picture(8, 8);
    let mut out = alloc::vec![0xaau8; 2 * 20];
    f.encode_rect_f32_with(&src, 8, 8, &mut out, 20, &EncodeOptions::default()).unwrap();
    assert!(out[16..20].iter().all(|&b| b == 0xaa));
}

#[test]
fn bc6h_signed_is_refused_in_one_line() {
    let f = Format::parse("bc6h_sf").unwrap();
    let mut out = [0u8; 16];
    let e = f.encode_rect_f32_with(&[[0.5f32; 4]; 16], 4, 4, &mut out, 16, &EncodeOptions::default()).unwrap_err();
    let msg = alloc::format!("{e}");
    let want = alloc::format!("format {} is not supported: no maintained encoder exists for BC6H signed", f.name());
    assert!(msg.starts_with(&want), "{msg}");
    assert!(!msg.contains('\n'));
    // Bad sizes are errors, not panics.
    let e = Format::parse("bc7").unwrap().encode_rect_f32_with(
        &[[0f32; 4]; 3],
        4,
        4,
        &mut out,
        16,
        &EncodeOptions::default(),
    );
    assert!(e.is_err());
}
