//! The PSNR that `tile` / `convert` report counts the components the format stores, once each:
//! BC4 R, BC5 R and G (unorm and snorm), BC1/BC2/BC3/BC7 R, G, B, A (BC1: a texel below alpha
//! 128 counts its alpha only). Each test computes the PSNR itself from the decoded blocks and
//! the source and compares it with the reported one. And BC1 keeps its 1-bit alpha at every
//! `--bc-quality` (a review found `normal` and `fast` made a hole of alpha 0 opaque).

use nvsurf::codec::Texel;
use nvsurf::format::{ComponentType, EncodeOptions, Format, Swizzle};
use nvsurf_cli::picture::ErrorSum;

mod pictures;
use pictures::*;
mod scratch;
use scratch::Scratch;

/// A picture whose four channels differ (so a PSNR over channels the format does not store is
/// far off): gradients with noise, `w x h` RGBA8, alpha from `alpha(x, y)`.
fn picture(w: usize, h: usize, alpha: impl Fn(usize, usize) -> u8) -> Vec<u8> {
    let mut seed = 0x51ed_270bu32;
    let mut v = Vec::with_capacity(w * h * 4);
    for y in 0..h {
        for x in 0..w {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            let n = (seed % 9) as usize;
            v.extend([(x * 255 / w + n).min(255) as u8, (255 - y * 255 / h) as u8, ((x * y) % 256) as u8, alpha(x, y)]);
        }
    }
    v
}

/// PSNR in dB with `peak` from a sum of squared errors over `n` samples.
fn db(sse: f64, n: usize, peak: f64) -> f64 {
    10.0 * (peak * peak / (sse / n as f64)).log10()
}

/// The PSNR in `--json` output (level 0, layer 0).
fn reported(stdout: &str) -> f64 {
    let v: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    v["levels"][0]["psnr_db"].as_f64().unwrap_or_else(|| panic!("no PSNR: {v}"))
}

/// Linear blocks of `name` decoded to floats by the library.
fn decoded(name: &str, data: &[u8], w: usize, h: usize) -> Vec<[f32; 4]> {
    let f = Format::parse(name).unwrap();
    let row = w.div_ceil(4) * f.elem_size_bytes() as usize;
    let mut back = vec![[0f32; 4]; w * h];
    f.decode_rect_f32(data, row, w as u32, h as u32, &mut back).unwrap();
    back
}

#[test]
fn bc4_and_bc5_count_r_and_rg_only() {
    // The review's case: a 200x136 picture tiled as BC4 for the Switch reported 6.71 dB (over
    // R, G, B, A) where R alone gives 44.72 dB.
    let tmp = Scratch::new("bc-psnr");
    let (w, h) = (200usize, 136usize);
    let px = picture(w, h, |x, y| ((x + 2 * y) % 256) as u8);
    let png = tmp.path("s200.png");
    write_png_rgba8(&png, w as u32, h as u32, &px);
    for (name, channels) in [("bc4", 1usize), ("bc5", 2)] {
        let (tiled, linear) = (tmp.path(&format!("t-{name}.bin")), tmp.path(&format!("l-{name}.bin")));
        let surf = ["--gpu", "switch", "--format", name, "--size", "200x136"];
        let mut args = vec!["tile", "--input", s(&png), "--output", s(&tiled), "--json"];
        args.extend(surf);
        let (rc, out, err) = nvsurf(&args);
        assert_eq!(rc, 0, "{err}");
        let mut args = vec!["untile", "--input", s(&tiled), "--output", s(&linear)];
        args.extend(surf);
        let (rc, _, err) = nvsurf(&args);
        assert_eq!(rc, 0, "{err}");
        let back = decoded(name, &std::fs::read(&linear).unwrap(), w, h);
        let mut sse = 0f64;
        for (p, b) in px.chunks(4).zip(&back) {
            for c in 0..channels {
                sse += (f64::from(p[c]) - f64::from((b[c] * 255.0).round())).powi(2);
            }
        }
        let want = db(sse, w * h * channels, 255.0);
        let got = reported(&out);
        assert!((got - want).abs() < 0.006, "{name}: reported {got} dB, R..{channels} give {want:.3} dB");
        assert!(want > 38.0, "{name}: {want:.2} dB");
    }
}

#[test]
fn signed_bc4_bc5_count_their_components_with_peak_254() {
    // Library encode of snorm values, ErrorSum against an independent sum (snorm: round(v*127)).
    let (w, h) = (36usize, 20usize);
    let src: Vec<[f32; 4]> = picture(w, h, |_, _| 77)
        .chunks(4)
        .map(|p| [f32::from(p[0]) / 127.5 - 1.0, 1.0 - f32::from(p[1]) / 127.5, 0.25, 0.5])
        .collect();
    for (name, channels) in [("bc4", 1usize), ("bc5", 2)] {
        let f = Format::parse(name).unwrap().with_components([ComponentType::Snorm; 4]).unwrap();
        let row = w.div_ceil(4) * f.elem_size_bytes() as usize;
        let mut data = vec![0u8; row * h.div_ceil(4)];
        f.encode_rect_f32_with(&src, w as u32, h as u32, &mut data, row, &EncodeOptions::default()).unwrap();
        let mut back = vec![[0f32; 4]; w * h];
        f.decode_rect_f32(&data, row, w as u32, h as u32, &mut back).unwrap();
        let q = |v: f32| f64::from((v.clamp(-1.0, 1.0) * 127.0).round());
        let sse: f64 =
            src.iter().zip(&back).map(|(a, b)| (0..channels).map(|c| (q(a[c]) - q(b[c])).powi(2)).sum::<f64>()).sum();
        let want = db(sse, w * h * channels, 254.0);
        let texels = |v: &[[f32; 4]]| -> Vec<Texel> { v.iter().map(|p| f.f32_to_texel(p)).collect() };
        let e = ErrorSum::of(&f, &texels(&src), &texels(&back)).unwrap();
        assert_eq!(e.samples, (w * h * channels) as u64, "{name} snorm");
        let got = e.psnr_db().unwrap();
        assert!((got - want).abs() < 1e-9, "{name} snorm: {got} vs {want}");
        assert!(want > 36.0, "{name} snorm: {want:.2} dB");
    }
}

#[test]
fn four_channel_formats_count_rgba_and_each_component_counts_once() {
    let (w, h) = (24usize, 16usize);
    let px = picture(w, h, |x, y| (64 + 3 * x + y) as u8);
    let src: Vec<[f32; 4]> = px.chunks(4).map(|p| [0, 1, 2, 3].map(|c| f32::from(p[c]) / 255.0)).collect();
    let bc1_rgb =
        Format::parse("bc1").unwrap().with_swizzle([Swizzle::C0, Swizzle::C1, Swizzle::C2, Swizzle::OneFloat]);
    // BC4 showing R in R, G and B (a grey texture): R once, not G and B against the source's.
    let bc4_grey =
        Format::parse("bc4").unwrap().with_swizzle([Swizzle::C0, Swizzle::C0, Swizzle::C0, Swizzle::OneFloat]);
    for (f, channels) in [
        (bc4_grey, 1usize),
        (Format::parse("bc2").unwrap(), 4),
        (Format::parse("bc3").unwrap(), 4),
        (Format::parse("bc7").unwrap(), 4),
        (bc1_rgb, 3),
    ] {
        let row = w.div_ceil(4) * f.elem_size_bytes() as usize;
        let mut data = vec![0u8; row * h.div_ceil(4)];
        f.encode_rect_f32_with(&src, w as u32, h as u32, &mut data, row, &EncodeOptions::default()).unwrap();
        let mut back = vec![[0f32; 4]; w * h];
        f.decode_rect_f32(&data, row, w as u32, h as u32, &mut back).unwrap();
        let q = |v: f32| f64::from((v.clamp(0.0, 1.0) * 255.0).round());
        let sse: f64 =
            src.iter().zip(&back).map(|(a, b)| (0..channels).map(|c| (q(a[c]) - q(b[c])).powi(2)).sum::<f64>()).sum();
        let want = db(sse, w * h * channels, 255.0);
        let texels = |v: &[[f32; 4]]| -> Vec<Texel> { v.iter().map(|p| f.f32_to_texel(p)).collect() };
        let e = ErrorSum::of(&f, &texels(&src), &texels(&back)).unwrap();
        assert_eq!(e.samples, (w * h * channels) as u64, "{}", f.name());
        assert!((e.psnr_db().unwrap() - want).abs() < 1e-9, "{}: {:?} vs {want}", f.name(), e.psnr_db());
    }
}

#[test]
fn bc1_keeps_a_hole_of_alpha_0_and_its_psnr_counts_alpha_there() {
    // The review's picture: 64x64 with a 32x32 hole of alpha 0; `normal` and `fast` made the
    // hole opaque (12 dB). Now every quality keeps it, and the PSNR is R, G, B, A over the
    // opaque texels plus alpha alone over the hole (BC1 stores no colour there).
    let tmp = Scratch::new("bc-psnr");
    let (w, h) = (64usize, 64usize);
    let hole = |x: usize, y: usize| (16..48).contains(&x) && (16..48).contains(&y);
    let px = picture(w, h, |x, y| if hole(x, y) { 0 } else { 255 });
    let png = tmp.path("hole.png");
    write_png_rgba8(&png, w as u32, h as u32, &px);
    for q in ["fast", "normal", "slow"] {
        let (blocks, back_png) = (tmp.path(&format!("hole-{q}.bc1")), tmp.path(&format!("back-{q}.png")));
        let args =
            ["convert", "--format", "bc1", "--bc-quality", q, "--input", s(&png), "--output", s(&blocks), "--json"];
        let (rc, out, err) = nvsurf(&args);
        assert_eq!(rc, 0, "{err}");
        let back = decoded("bc1", &std::fs::read(&blocks).unwrap(), w, h);
        let (mut sse, mut n) = (0f64, 0usize);
        for (i, (p, b)) in px.chunks(4).zip(&back).enumerate() {
            let b = b.map(|v| f64::from((v * 255.0).round()));
            if hole(i % w, i / w) {
                assert_eq!(b, [0.0; 4], "{q}: texel ({}, {}) of the hole", i % w, i / w);
                n += 1;
            } else {
                sse += (0..4).map(|c| (f64::from(p[c]) - b[c]).powi(2)).sum::<f64>();
                n += 4;
            }
        }
        let want = db(sse, n, 255.0);
        let got = reported(&out);
        assert!((got - want).abs() < 0.006, "{q}: reported {got} dB, the test's {want:.3} dB");
        assert!(want > 30.0, "{q}: {want:.2} dB");
        // The picture the CLI writes back keeps the hole transparent.
        let args = ["convert", "--format", "bc1", "--size", "64x64", "--input", s(&blocks), "--output", s(&back_png)];
        let (rc, _, err) = nvsurf(&args);
        assert_eq!(rc, 0, "{err}");
        let (_, _, rgba) = read_png_rgba8(&back_png);
        assert_eq!(rgba[(32 * 64 + 32) * 4 + 3], 0, "{q}: alpha in the hole of the written PNG");
    }
}
