//! Unit tests of the mip filter: small inputs with hand-computed outputs.

use super::*;
use crate::codec::ValueKind::{Float, Sint, Uint};
use alloc::vec;

const F: [ValueKind; 4] = [Float; 4];

/// One-channel float texels (G, B, A zero).
fn floats(v: &[f32]) -> Vec<Texel> {
    v.iter().map(|x| [x.to_bits(), 0, 0, 0]).collect()
}

fn red(v: &[Texel]) -> Vec<f32> {
    v.iter().map(|t| f32::from_bits(t[0])).collect()
}

fn close(got: &[f32], want: &[f32]) {
    assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() < 1e-5, "{got:?} vs {want:?}");
    }
}

#[test]
fn next_extent_halves_rounding_down_to_at_least_one() {
    assert_eq!(next_extent([8, 5, 1]), [4, 2, 1]);
    assert_eq!(next_extent([1, 7, 3]), [1, 3, 1]);
    assert_eq!(next_extent([1, 1, 1]), [1, 1, 1]);
}

#[test]
fn even_2x2_is_the_mean() {
    let (out, e) = downsample(F, &floats(&[1.0, 2.0, 3.0, 6.0]), [2, 2, 1]).unwrap();
    assert_eq!(e, [1, 1, 1]);
    close(&red(&out), &[3.0]);
}

#[test]
fn even_4x2_averages_each_2x2_block() {
    // Rows: 0 2 4 8 / 2 4 0 0 -> blocks (0+2+2+4)/4 = 2 and (4+8+0+0)/4 = 3.
    let (out, e) = downsample(F, &floats(&[0.0, 2.0, 4.0, 8.0, 2.0, 4.0, 0.0, 0.0]), [4, 2, 1]).unwrap();
    assert_eq!(e, [2, 1, 1]);
    close(&red(&out), &[2.0, 3.0]);
}

#[test]
fn odd_3_is_a_three_tap_box() {
    // n = 3, m = 1: weights (1/3, 1/3, 1/3).
    let (out, e) = downsample(F, &floats(&[3.0, 6.0, 9.0]), [3, 1, 1]).unwrap();
    assert_eq!(e, [1, 1, 1]);
    close(&red(&out), &[6.0]);
}

#[test]
fn odd_5_uses_the_polyphase_weights() {
    // n = 5, m = 2: x = 0 weighs texels 0,1,2 by 2/5, 2/5, 1/5; x = 1 texels 2,3,4 by 1/5, 2/5, 2/5.
    let src = floats(&[10.0, 20.0, 30.0, 40.0, 50.0]);
    let (out, e) = downsample(F, &src, [5, 1, 1]).unwrap();
    assert_eq!(e, [2, 1, 1]);
    close(&red(&out), &[(2.0 * 10.0 + 2.0 * 20.0 + 30.0) / 5.0, (30.0 + 2.0 * 40.0 + 2.0 * 50.0) / 5.0]);
}

#[test]
fn odd_filter_weighs_every_input_texel_equally() {
    // A single 1 at any position of 7 texels contributes m / n = 3/7 in total.
    for at in 0..7 {
        let mut v = [0.0f32; 7];
        v[at] = 1.0;
        let (out, _) = downsample(F, &floats(&v), [7, 1, 1]).unwrap();
        let sum: f32 = red(&out).iter().sum();
        assert!((sum - 3.0 / 7.0).abs() < 1e-6, "texel {at}: {sum}");
    }
}

#[test]
fn odd_3x3_is_the_mean_of_all_nine() {
    let v: Vec<f32> = (1..=9).map(|x| x as f32).collect();
    let (out, e) = downsample(F, &floats(&v), [3, 3, 1]).unwrap();
    assert_eq!(e, [1, 1, 1]);
    close(&red(&out), &[5.0]);
}

#[test]
fn one_by_n_halves_only_the_long_axis() {
    // 1x4: pairs along y.
    let (out, e) = downsample(F, &floats(&[1.0, 3.0, 5.0, 7.0]), [1, 4, 1]).unwrap();
    assert_eq!(e, [1, 2, 1]);
    close(&red(&out), &[2.0, 6.0]);
    // 4x1.
    let (out, e) = downsample(F, &floats(&[1.0, 3.0, 5.0, 7.0]), [4, 1, 1]).unwrap();
    assert_eq!(e, [2, 1, 1]);
    close(&red(&out), &[2.0, 6.0]);
}

#[test]
fn one_by_one_stays() {
    let (out, e) = downsample(F, &floats(&[4.5]), [1, 1, 1]).unwrap();
    assert_eq!(e, [1, 1, 1]);
    close(&red(&out), &[4.5]);
}

#[test]
fn three_d_halves_depth_with_a_2x2x2_box() {
    // 2x2x2: slice 0 all 1, slice 1 all 3 -> 2.
    let (out, e) = downsample(F, &floats(&[1.0, 1.0, 1.0, 1.0, 3.0, 3.0, 3.0, 3.0]), [2, 2, 2]).unwrap();
    assert_eq!(e, [1, 1, 1]);
    close(&red(&out), &[2.0]);
    // 2x2x4: depth 4 -> 2, each output slice averages two input slices.
    let v: Vec<f32> = (0..16).map(|i| (i / 4) as f32).collect();
    let (out, e) = downsample(F, &floats(&v), [2, 2, 4]).unwrap();
    assert_eq!(e, [1, 1, 2]);
    close(&red(&out), &[0.5, 2.5]);
}

#[test]
fn three_d_of_depth_one_keeps_depth() {
    let (out, e) = downsample(F, &floats(&[2.0, 4.0]), [2, 1, 1]).unwrap();
    assert_eq!(e, [1, 1, 1]);
    close(&red(&out), &[3.0]);
}

#[test]
fn all_four_channels_are_filtered() {
    let src = vec![[1f32.to_bits(), 2f32.to_bits(), 3f32.to_bits(), 0f32.to_bits()], [3f32.to_bits(); 4]];
    let (out, _) = downsample(F, &src, [2, 1, 1]).unwrap();
    assert_eq!(out[0].map(f32::from_bits), [2.0, 2.5, 3.0, 1.5]);
}

#[test]
fn integers_average_and_round_half_away_from_zero() {
    // Uint: (1 + 2) / 2 = 1.5 -> 2; Sint: (-1 + -2) / 2 = -1.5 -> -2.
    let k = [Uint, Sint, Uint, Uint];
    let src = vec![[1, (-1i32) as u32, 7, u32::MAX], [2, (-2i32) as u32, 7, u32::MAX]];
    let (out, _) = downsample(k, &src, [2, 1, 1]).unwrap();
    assert_eq!(out[0], [2, (-2i32) as u32, 7, u32::MAX]);
}

#[test]
fn large_integers_average_exactly() {
    // Values past f32's 24-bit mantissa: (2^32 - 1 + 2^32 - 3) / 2 = 2^32 - 2.
    let src = vec![[u32::MAX; 4], [u32::MAX - 2; 4]];
    let (out, _) = downsample([Uint; 4], &src, [2, 1, 1]).unwrap();
    assert_eq!(out[0], [u32::MAX - 1; 4]);
}

#[test]
fn srgb_averages_in_linear_light() {
    // A 2x2 of sRGB black and white: the linear mean is 0.5, which is sRGB ~188, not 128.
    let f = Format::parse("RGBA8_SRGB").unwrap();
    let bytes = [0u8, 0, 0, 255, 255, 255, 255, 255, 0, 0, 0, 255, 255, 255, 255, 255];
    let mut px = [[0u32; 4]; 4];
    f.decode_rect(&bytes, 8, 2, 2, &mut px).unwrap();
    let (out, e) = downsample_format(&f, &px, [2, 2, 1]).unwrap();
    assert_eq!(e, [1, 1, 1]);
    let mut enc = [0u8; 4];
    f.encode_rect(&out, 1, 1, &mut enc, 4).unwrap();
    assert_eq!(enc, [188, 188, 188, 255]);
    // The same bytes as UNORM average to 128 (127.5 rounds up).
    let u = Format::parse("RGBA8_UNORM").unwrap();
    u.decode_rect(&bytes, 8, 2, 2, &mut px).unwrap();
    let (out, _) = downsample_format(&u, &px, [2, 2, 1]).unwrap();
    u.encode_rect(&out, 1, 1, &mut enc, 4).unwrap();
    assert_eq!(enc, [128, 128, 128, 255]);
}

#[test]
fn short_input_and_zero_size_are_errors() {
    assert!(matches!(downsample(F, &floats(&[1.0, 2.0, 3.0]), [2, 2, 1]), Err(Error::BufferTooSmall { .. })));
    assert!(matches!(downsample(F, &[], [0, 1, 1]), Err(Error::OutOfRange { .. })));
}

#[test]
fn depth_stencil_is_refused() {
    let z = Format::parse("zeta:0x16").unwrap();
    let e = downsample_format(&z, &[[0; 4]; 4], [2, 2, 1]).unwrap_err();
    assert!(e.to_string().contains("depth/stencil"), "{e}");
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The filter is a weighted mean: every output lies within the inputs' range, and a
        /// constant image stays constant, for any size (odd, even, 1).
        #[test]
        fn outputs_are_convex_combinations(w in 1u32..12, h in 1u32..12, d in 1u32..6, seed in any::<u64>()) {
            let n = (w * h * d) as usize;
            let vals: Vec<f32> = (0..n).map(|i| ((seed.wrapping_mul(i as u64 + 1) >> 40) % 1000) as f32).collect();
            let (out, e) = downsample(F, &floats(&vals), [w, h, d]).unwrap();
            prop_assert_eq!(e, next_extent([w, h, d]));
            prop_assert_eq!(out.len(), (e[0] * e[1] * e[2]) as usize);
            let (lo, hi) = vals.iter().fold((f32::MAX, f32::MIN), |(a, b), &v| (a.min(v), b.max(v)));
            for v in red(&out) {
                prop_assert!(v >= lo - 1e-3 && v <= hi + 1e-3, "{} outside {}..{}", v, lo, hi);
            }
            let (c, _) = downsample(F, &floats(&vec![7.25; n]), [w, h, d]).unwrap();
            prop_assert!(red(&c).iter().all(|&v| (v - 7.25).abs() < 1e-5));
        }

        /// The mean is kept for every size: with the polyphase box each input texel weighs
        /// `m / n` in all (of `m` outputs), so the outputs' mean is the inputs'. A 2x2 box that
        /// dropped or clamped the odd edge would fail this.
        #[test]
        fn every_size_keeps_the_mean(w in 1u32..16, h in 1u32..16, d in 1u32..5, seed in any::<u64>()) {
            let n = (w * h * d) as usize;
            let vals: Vec<f32> = (0..n).map(|i| ((seed.wrapping_mul(i as u64 + 7) >> 41) % 256) as f32).collect();
            let (out, _) = downsample(F, &floats(&vals), [w, h, d]).unwrap();
            let mean_in: f64 = vals.iter().map(|&v| f64::from(v)).sum::<f64>() / n as f64;
            let o = red(&out);
            let mean_out: f64 = o.iter().map(|&v| f64::from(v)).sum::<f64>() / o.len() as f64;
            prop_assert!((mean_in - mean_out).abs() < 1e-3, "{} vs {}", mean_in, mean_out);
        }
    }
}
