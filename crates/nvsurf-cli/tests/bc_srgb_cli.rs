//! sRGB block formats from a PNG: the PNG's samples are sRGB-encoded already, so BC7_SRGB and
//! BC1_SRGB encode them as they are (one sRGB encoding, the picture's, none added): the blocks
//! equal those of the same format without sRGB, and decoded without the sRGB curve they give
//! the PNG's samples back within the format's error.

use nvsurf::format::Format;

mod pictures;
use pictures::*;
mod scratch;
use scratch::Scratch;

/// A gradient with noise and an alpha ramp with a transparent corner, `w x h` RGBA8.
fn picture(w: usize, h: usize) -> Vec<u8> {
    let mut seed = 0x0bad_5eedu32;
    let mut v = Vec::with_capacity(w * h * 4);
    for y in 0..h {
        for x in 0..w {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            let n = (seed % 7) as usize;
            let a = if x < 8 && y < 8 { 0 } else { (150 + x + y).min(255) as u8 };
            v.extend([(x * 255 / w + n).min(255) as u8, (y * 255 / h) as u8, (40 + n * 20) as u8, a]);
        }
    }
    v
}

#[test]
fn srgb_formats_store_the_png_samples_as_they_are() {
    let tmp = Scratch::new("bc-srgb");
    let (w, h) = (40usize, 24usize);
    let px = picture(w, h);
    let png = tmp.path("in.png");
    write_png_rgba8(&png, w as u32, h as u32, &px);
    for (srgb, plain, floor) in [("BC7_UNORM_SRGB", "bc7", 30.0), ("BC1_UNORM_SRGB", "bc1", 28.0)] {
        let mut blocks = Vec::new();
        let mut psnr = Vec::new();
        for name in [srgb, plain] {
            let out = tmp.path(&format!("{name}.bin"));
            let (rc, stdout, err) =
                nvsurf(&["convert", "--format", name, "--input", s(&png), "--output", s(&out), "--json"]);
            assert_eq!(rc, 0, "{name}: {err}");
            blocks.push(std::fs::read(&out).unwrap());
            let v: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
            psnr.push(v["levels"][0]["psnr_db"].as_f64().unwrap());
        }
        assert_eq!(blocks[0], blocks[1], "{srgb}: the sRGB format's blocks differ from {plain}'s");
        assert_eq!(psnr[0], psnr[1], "{srgb}: PSNR on the stored (sRGB-coded) values");
        // Decoded without the curve, the stored values are the PNG's samples (R, G, B of the
        // opaque texels: BC1's transparent corner decodes black).
        let f = Format::parse(plain).unwrap();
        let row = w.div_ceil(4) * f.elem_size_bytes() as usize;
        let mut back = vec![[0u8; 4]; w * h];
        f.decode_rect_rgba8(&blocks[0], row, w as u32, h as u32, &mut back).unwrap();
        let (mut sse, mut n) = (0f64, 0usize);
        for (p, b) in px.chunks(4).zip(&back) {
            if p[3] >= 128 {
                sse += (0..3).map(|c| (f64::from(p[c]) - f64::from(b[c])).powi(2)).sum::<f64>();
                n += 3;
            }
        }
        let db = 10.0 * (255.0f64 * 255.0 / (sse / n as f64)).log10();
        // (Encoded twice, mid-grey 128 would be stored as 188: about 20 dB.)
        assert!(db > floor, "{srgb}: stored values {db:.2} dB from the PNG's samples");
        // Tiled for the Switch, the sRGB and plain formats give the same dump too.
        let mut dumps = Vec::new();
        for name in [srgb, plain] {
            let out = tmp.path(&format!("{name}.tiled"));
            let size = format!("{w}x{h}");
            let args =
                ["tile", "--gpu", "switch", "--format", name, "--size", &size, "--input", s(&png), "--output", s(&out)];
            let (rc, _, err) = nvsurf(&args);
            assert_eq!(rc, 0, "{name}: {err}");
            dumps.push(std::fs::read(&out).unwrap());
        }
        assert_eq!(dumps[0], dumps[1], "{srgb}: tiled");
    }
}
