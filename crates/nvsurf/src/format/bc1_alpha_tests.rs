//! BC1's 1-bit alpha at every `BcQuality`: blocks with a texel of alpha below 128 use the
//! three-colour mode (transparent texels decode with alpha 0), the other blocks keep exactly
//! the ISPC kernel's bytes (an opaque picture encodes as before punch-through existed).

use super::{BcQuality, EncodeOptions, Format, Texel};
use alloc::vec::Vec;

const QUALITIES: [BcQuality; 3] = [BcQuality::Fast, BcQuality::Normal, BcQuality::Slow];

/// A gradient with noise, `w x h` RGBA8, alpha from `alpha(x, y)`.
fn picture(w: usize, h: usize, alpha: impl Fn(usize, usize) -> u8) -> Vec<[u8; 4]> {
    let mut seed = 0x2545_f491u32;
    (0..w * h)
        .map(|i| {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            let n = (seed % 13) as usize;
            let (x, y) = (i % w, i / w);
            [(x * 255 / w + n).min(255) as u8, (y * 255 / h) as u8, ((x + y) * 127 / (w + h) + n) as u8, alpha(x, y)]
        })
        .collect()
}

/// The 64x64 picture of the review: a 32x32 hole of alpha 0 at (16, 16).
fn holed(x: usize, y: usize) -> u8 {
    if (16..48).contains(&x) && (16..48).contains(&y) {
        0
    } else {
        255
    }
}

fn encode_rgba8(px: &[[u8; 4]], w: u32, h: u32, q: BcQuality) -> Vec<u8> {
    let f = Format::parse("bc1").unwrap();
    let row = w.div_ceil(4) as usize * 8;
    let mut out = alloc::vec![0u8; row * h.div_ceil(4) as usize];
    f.encode_rect_rgba8_with(px, w, h, &mut out, row, &EncodeOptions::with_bc_quality(q)).unwrap();
    out
}

fn decode(data: &[u8], w: u32, h: u32) -> Vec<[u8; 4]> {
    let f = Format::parse("bc1").unwrap();
    let mut back = alloc::vec![[0u8; 4]; (w * h) as usize];
    f.decode_rect_rgba8(data, w.div_ceil(4) as usize * 8, w, h, &mut back).unwrap();
    back
}

/// PSNR (peak 255) of RGB over the texels with alpha >= 128, and the count of texels whose
/// decoded alpha is not the source's alpha made 1-bit (0 below 128, else 255).
fn rgb_psnr_and_alpha_misses(src: &[[u8; 4]], back: &[[u8; 4]]) -> (f64, usize) {
    let (mut sse, mut n, mut misses) = (0f64, 0usize, 0usize);
    for (a, b) in src.iter().zip(back) {
        let want = if a[3] < 128 { 0 } else { 255 };
        if b[3] != want {
            misses += 1;
        }
        if a[3] >= 128 {
            sse += (0..3).map(|c| (f64::from(a[c]) - f64::from(b[c])).powi(2)).sum::<f64>();
            n += 3;
        }
    }
    (10.0 * (255.0f64 * 255.0 / (sse / n as f64)).log10(), misses)
}

/// The ISPC kernel alone on whole blocks of tightly packed RGBA8 rows.
fn ispc(px: &[[u8; 4]], w: u32, h: u32) -> Vec<u8> {
    let mut out = alloc::vec![0u8; (w / 4 * h / 4 * 8) as usize];
    let s = intel_tex_2::RgbaSurface { data: px.as_flattened(), width: w, height: h, stride: w * 4 };
    intel_tex_2::bc1::compress_blocks_into(&s, &mut out);
    out
}

#[test]
fn a_hole_of_alpha_0_stays_transparent_at_every_quality() {
    let (w, h) = (64u32, 64u32);
    let src = picture(64, 64, holed);
    for q in QUALITIES {
        let back = decode(&encode_rgba8(&src, w, h, q), w, h);
        let (psnr, misses) = rgb_psnr_and_alpha_misses(&src, &back);
        assert_eq!(misses, 0, "{q:?}: {misses} texels with the wrong 1-bit alpha");
        assert!(psnr > 30.0, "{q:?}: RGB of the opaque texels {psnr:.2} dB");
        // Transparent texels of a three-colour block decode as transparent black.
        assert_eq!(back[32 * 64 + 32], [0, 0, 0, 0], "{q:?}");
    }
}

#[test]
fn texels_with_partial_blocks_keep_the_threshold() {
    // 37x21 from texels (the CLI's path, partial edge blocks); alpha 127 is transparent,
    // 128 opaque (the threshold), in a checkerboard of 3x3-texel cells.
    let (w, h) = (37u32, 21u32);
    let src = picture(37, 21, |x, y| if (x / 3 + y / 3) % 2 == 0 { 127 } else { 128 });
    let f = Format::parse("bc1").unwrap();
    let texels: Vec<Texel> = src.iter().map(|p| f.f32_to_texel(&p.map(|b| f32::from(b) / 255.0))).collect();
    let row = w.div_ceil(4) as usize * 8;
    for q in QUALITIES {
        let mut out = alloc::vec![0u8; row * h.div_ceil(4) as usize];
        f.encode_rect_with(&texels, w, h, &mut out, row, &EncodeOptions::with_bc_quality(q)).unwrap();
        let (_, misses) = rgb_psnr_and_alpha_misses(&src, &decode(&out, w, h));
        assert_eq!(misses, 0, "{q:?}");
    }
}

#[test]
fn an_opaque_picture_keeps_the_ispc_bytes() {
    // Alpha 255 and alpha 128..=254 (BC1 stores them as opaque): the ISPC kernel's bytes, at
    // Fast and Normal (Slow is texpresso's iterative cluster fit, as before).
    // 512x40: strips of two block rows, the last one of a single row.
    for (w, h) in [(64u32, 48u32), (512, 40)] {
        for alpha in [255u8, 128, 200] {
            let src = picture(w as usize, h as usize, |x, y| if (x + y) % 5 == 0 { alpha } else { 255 });
            let want = ispc(&src, w, h);
            for q in [BcQuality::Fast, BcQuality::Normal] {
                assert_eq!(encode_rgba8(&src, w, h, q), want, "{w}x{h} alpha {alpha} {q:?}");
            }
        }
    }
}

#[test]
fn only_blocks_with_transparent_texels_leave_the_ispc_kernel() {
    // 64x64: one strip of the encoder; 512x64: eight strips of two block rows, the hole
    // (rows 22-29) in two of them, starting and ending inside blocks.
    check_blocks(64, 64, holed, (64, 192));
    check_blocks(512, 64, |x, y| if (100..203).contains(&x) && (22..30).contains(&y) { 3 } else { 255 }, (78, 1970));
}

/// Encodes a `w x h` picture at Fast and Normal and checks each block: texpresso's BC1 (range
/// fit, cluster fit) where a texel has alpha below 128, the ISPC kernel's bytes elsewhere;
/// `counts` is (texpresso blocks, ISPC blocks).
fn check_blocks(w: usize, h: usize, alpha: impl Fn(usize, usize) -> u8, counts: (usize, usize)) {
    let src = picture(w, h, alpha);
    let ispc_blocks = ispc(&src, w as u32, h as u32);
    for (q, algorithm) in
        [(BcQuality::Fast, texpresso::Algorithm::RangeFit), (BcQuality::Normal, texpresso::Algorithm::ClusterFit)]
    {
        let ours = encode_rgba8(&src, w as u32, h as u32, q);
        let params =
            texpresso::Params { algorithm, weights: texpresso::COLOUR_WEIGHTS_UNIFORM, weigh_colour_by_alpha: false };
        let (mut texpresso_blocks, mut ispc_kept) = (0, 0);
        for (i, block) in ours.chunks_exact(8).enumerate() {
            let (bx, by) = (i % (w / 4), i / (w / 4));
            let mut rgba = [[0u8; 4]; 16];
            for (t, px) in rgba.iter_mut().enumerate() {
                *px = src[(by * 4 + t / 4) * w + bx * 4 + t % 4];
            }
            if rgba.iter().any(|p| p[3] < 128) {
                let mut want = [0u8; 8];
                texpresso::Format::Bc1.compress_block_masked(rgba, 0xffff, params, &mut want);
                assert_eq!(block, want, "{w}x{h} {q:?} block ({bx}, {by}): texpresso's");
                texpresso_blocks += 1;
            } else {
                assert_eq!(
                    block,
                    &ispc_blocks[i * 8..i * 8 + 8],
                    "{w}x{h} {q:?} block ({bx}, {by}): the ISPC kernel's"
                );
                ispc_kept += 1;
            }
        }
        assert_eq!((texpresso_blocks, ispc_kept), counts, "{w}x{h} {q:?}");
    }
}
