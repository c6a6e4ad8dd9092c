//! BC encode cases: nvsurf's wrapper against the encoder crate called directly, in the same
//! interleaved rounds (see `race`), on the same 1024x1024 RGBA8 picture (a gradient with noise,
//! opaque, as most textures are), one thread, in GB/s of input pixels (4 bytes a pixel).
//!
//! - `bc7-encode-normal-1024`: `Format::encode_rect_rgba8_with` at `BcQuality::Normal` against
//!   `intel_tex_2::bc7::compress_blocks_into` with `opaque_basic_settings` (what Normal picks
//!   for an opaque picture).
//! - `bc1-encode-1024`: the same with BC1 (`intel_tex_2::bc1`, which has one setting).
//! - `bc1-alpha-encode-1024`: BC1 of a sprite (the picture with alpha 0 outside a disc of 0.45
//!   times the side: 36% of the texels, 37% of the blocks): nvsurf encodes the blocks with
//!   transparent texels through texpresso (punch-through), the crate row is the ISPC kernel
//!   alone (which makes them opaque), so the ratio is what keeping the alpha costs.
//!
//! Each row has `gbps` (the wrapper), `crate_gbps`, `ratio_crate_paired` (the wrapper's speed
//! over the crate's, per round; the target is >= 0.95: the wrapper adds no more than
//! 5%) and `texels_gbps`: the same encode from `Texel`s (`Format::encode_rect_with`, the path
//! of pictures read as texels), which converts every pixel first. Before timing, the
//! wrapper's blocks are checked equal to the crate's. Record: `docs/perf/bc-encode.md`.

use crate::{paired_ratio, race, Contender};
use nvsurf::codec::Texel;
use nvsurf::format::{BcQuality, EncodeOptions, Format};
use serde_json::{json, Value};
use std::time::Duration;

/// The test picture: a gradient with noise, `side x side` RGBA8, opaque, or with alpha 0
/// outside a disc (`sprite`).
fn picture(side: usize, sprite: bool) -> Vec<[u8; 4]> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    (0..side * side)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let n = (x % 24) as usize;
            let (px, py) = (i % side, i / side);
            let (dx, dy) = (px as f64 / side as f64 - 0.5, py as f64 / side as f64 - 0.5);
            let a = if sprite && dx * dx + dy * dy > 0.45 * 0.45 { 0 } else { 255 };
            [(px * 255 / side + n).min(255) as u8, (py * 255 / side + n / 2) as u8, ((px + py) * 127 / side) as u8, a]
        })
        .collect()
}

/// Runs the BC encode cases (all, or the one named by `only`; `--case bc-encode` runs just
/// these), printing table rows unless `json_out`, and appends one JSON row per case to `rows`
/// (`op` = `encode`, 1 thread).
pub fn run(only: Option<&String>, smoke: bool, budget: Duration, json_out: bool, rows: &mut Vec<Value>) {
    let side: u32 = if smoke { 128 } else { 1024 };
    let cases = [
        (format!("bc7-encode-normal-{side}"), "bc7", false),
        (format!("bc1-encode-{side}"), "bc1", false),
        (format!("bc1-alpha-encode-{side}"), "bc1", true),
    ];
    for (name, fmt, sprite) in cases {
        if only.is_some_and(|o| *o != name && o != "bc-encode") {
            continue;
        }
        let f = Format::parse(fmt).expect("known format");
        let s = side as usize;
        let px = picture(s, sprite);
        let bytes: &[u8] = px.as_flattened();
        let texels: Vec<Texel> = px.iter().map(|p| f.f32_to_texel(&p.map(|b| f32::from(b) / 255.0))).collect();
        let pitch = s / 4 * f.elem_size_bytes() as usize;
        let n = pitch * s / 4;
        let opts = EncodeOptions::with_bc_quality(BcQuality::Normal);
        let surface = intel_tex_2::RgbaSurface { data: bytes, width: side, height: side, stride: side * 4 };
        let settings = intel_tex_2::bc7::opaque_basic_settings();
        let direct = |out: &mut [u8]| match fmt {
            "bc7" => intel_tex_2::bc7::compress_blocks_into(&settings, &surface, out),
            _ => intel_tex_2::bc1::compress_blocks_into(&surface, out),
        };
        let (mut ours, mut theirs, mut via_texels) = (vec![0u8; n], vec![0u8; n], vec![0u8; n]);
        f.encode_rect_rgba8_with(&px, side, side, &mut ours, pitch, &opts).expect("encode");
        direct(&mut theirs);
        f.encode_rect_with(&texels, side, side, &mut via_texels, pitch, &opts).expect("encode");
        if sprite {
            // The corner block is transparent (alpha 0) in ours, opaque in the ISPC kernel's.
            let mut corner = [[0u8; 4]; 16];
            f.decode_rect_rgba8(&ours[..8], 8, 4, 4, &mut corner).expect("decode");
            assert!(corner.iter().all(|p| p[3] == 0) && ours != theirs, "{name}: the transparent texels were lost");
            assert!(via_texels == ours, "{name}: texels and RGBA8 give different blocks");
        } else {
            assert!(ours == theirs && via_texels == theirs, "{name}: the wrapper's blocks differ from the crate's");
        }
        let mut contenders = vec![
            Contender {
                name: "ours",
                run: Box::new(|| f.encode_rect_rgba8_with(&px, side, side, &mut ours, pitch, &opts).expect("encode")),
                times: vec![],
            },
            Contender { name: "crate", run: Box::new(|| direct(&mut theirs)), times: vec![] },
            Contender {
                name: "texels",
                run: Box::new(|| {
                    f.encode_rect_with(&texels, side, side, &mut via_texels, pitch, &opts).expect("encode")
                }),
                times: vec![],
            },
        ];
        let gbps = race(&mut contenders, s * s * 4, budget);
        let paired = paired_ratio(&contenders[0], &contenders[1]);
        let paired_texels = paired_ratio(&contenders[2], &contenders[1]);
        drop(contenders);
        let (o, c, t) = (gbps[0], gbps[1], gbps[2]);
        if !json_out {
            say!(
                "{:<22} {:<6} {:>3} {:>9.4} {:>9.4} {:>7.3} {:>7.3} {:>9} {:>7}",
                name,
                "encode",
                1,
                o,
                c,
                o / c,
                paired,
                format!("{t:.4}"),
                format!("{paired_texels:.3}")
            );
        }
        rows.push(json!({
            "case": name, "op": "encode", "threads": 1, "format": f.name(), "gbps": o, "crate_gbps": c,
            "ratio_crate": o / c, "ratio_crate_paired": paired, "texels_gbps": t,
            "ratio_crate_paired_texels": paired_texels,
        }));
    }
}
