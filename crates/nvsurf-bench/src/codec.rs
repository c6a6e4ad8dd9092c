//! Codec cases (the RGBA8 fast paths, kept at or above half of memcpy): decoding linear
//! elements to RGBA8 pixels with `Format::decode_rect_rgba8`, in GB/s of output (1 GB = 1e9
//! bytes), against memcpy of the same number of output bytes, raced in the same interleaved
//! rounds as the tiling cases.
//!
//! - `codec-rgba8`: `8_8_8_8` unorm with the identity swizzle (A8B8G8R8 / RGBA8_UNORM).
//! - `codec-bgra8`: color format BGRA8_UNORM (A8R8G8B8): the swizzled 4-byte path.
//! - `codec-bgrx8`: color format BGRX8_UNORM (X8R8G8B8): swizzle plus constant alpha.
//! - `codec-rgba8-srgb` (RGBA8 of an sRGB format is its stored encoding, so a byte move since
//!   the 8-bit outputs of sRGB formats became the stored values; it took the sRGB byte tables
//!   before), `codec-rgba8-uint` (byte moves), `codec-rgb10a2` (unorm arithmetic
//!   checked against the tables, AVX2 where available): the other 4-byte paths of
//!   `Format::decode_rect_rgba8` (chosen in `format/rgba8.rs`, row kernels in `codec/lut.rs`).
//!   `nvsurf::cpu::active_level()` is printed with the table header.
//! - `codec-bc1`, `codec-bc3`, `codec-bc5`, `codec-bc7`: block decode straight into the
//!   caller's rows, raced against memcpy and against bcdec_rs called directly on the same
//!   blocks into the same RGBA8 rows (`codec_blocks::bcdec_direct`); JSON `crate_gbps` and
//!   `ratio_crate_paired` (ours over the crate's, above 1 is faster), as the ASTC rows report.
//!
//! `--case codec` runs only these cases; `--case codec-bc1` one of them.
//!
//! The element data is the same pseudo-random noise for every case (any bit pattern is a valid
//! BC1 block; for BC7 it spreads over all eight modes, reserved mode bits included).

use crate::codec_blocks::bcdec_direct;
use crate::{noise, paired_ratio, race, Contender};
use nvsurf::extent::{Extent, Texels};
use nvsurf::format::Format;
use serde_json::{json, Value};
use std::time::Duration;

/// (case name, format name) of every codec case.
const CASES: [(&str, &str); 10] = [
    ("codec-rgba8", "A8B8G8R8"),
    ("codec-bgra8", "BGRA8_UNORM"),
    ("codec-bgrx8", "BGRX8_UNORM"),
    ("codec-rgba8-srgb", "RGBA8_SRGB"),
    ("codec-rgba8-uint", "RGBA8_UINT"),
    ("codec-rgb10a2", "RGB10_A2_UNORM"),
    ("codec-bc1", "bc1"),
    ("codec-bc3", "bc3"),
    ("codec-bc5", "bc5"),
    ("codec-bc7", "bc7"),
];

/// Runs the codec cases (all, or the one named by `only`; `--case codec` runs just these), printing table rows unless
/// `json_out`, and appends one JSON row per case to `rows` (`op` = `decode`, 1 thread).
pub fn run(only: Option<&String>, smoke: bool, budget: Duration, json_out: bool, rows: &mut Vec<Value>) {
    let side = if smoke { 256u32 } else { 2048 };
    for (name, fmt) in CASES {
        if only.is_some_and(|o| o != name && o != "codec") {
            continue;
        }
        let f = Format::parse(fmt).expect("known format");
        let e = Extent::<Texels>::new_2d(side, side);
        let row_pitch = e.row_bytes(&f);
        let elems = noise(e.bytes(&f));
        let out_bytes = side as usize * side as usize * 4;
        let mut out = vec![[0u8; 4]; side as usize * side as usize];
        let src = noise(out_bytes);
        let mut dst = vec![0u8; out_bytes];
        // Check the fast path against the generic texel path once before timing (sRGB formats
        // give their stored encoding: the texels of the format without the sRGB curve).
        let stored = f.with_srgb(false);
        let mut reference = vec![[0u32; 4]; 64];
        stored.decode_rect(&elems, row_pitch, 8, 8, &mut reference).expect("decode");
        f.decode_rect_rgba8(&elems, row_pitch, side, side, &mut out).expect("decode");
        for y in 0..8 {
            for x in 0..8 {
                let want = stored.texel_to_rgba8(&reference[y * 8 + x]);
                assert_eq!(out[y * side as usize + x], want, "{name}: fast path differs at ({x}, {y})");
            }
        }
        // The BC rows also race bcdec_rs called directly (same pixels checked first).
        let bc = fmt.starts_with("bc");
        let mut theirs = vec![0u8; if bc { out_bytes } else { 0 }];
        if bc {
            bcdec_direct(fmt, &elems, side as usize, &mut theirs);
            assert!(out.as_flattened() == &theirs[..], "{name}: ours differs from bcdec_rs");
        }
        let mut contenders = vec![
            Contender {
                name: "ours",
                run: Box::new(|| f.decode_rect_rgba8(&elems, row_pitch, side, side, &mut out).expect("decode")),
                times: vec![],
            },
            Contender { name: "memcpy", run: Box::new(|| dst.copy_from_slice(&src)), times: vec![] },
        ];
        if bc {
            contenders.push(Contender {
                name: "crate",
                run: Box::new(|| bcdec_direct(fmt, &elems, side as usize, &mut theirs)),
                times: vec![],
            });
        }
        let gbps = race(&mut contenders, out_bytes, budget);
        let paired = paired_ratio(&contenders[0], &contenders[1]);
        let crate_paired = bc.then(|| paired_ratio(&contenders[0], &contenders[2]));
        drop(contenders);
        let (o, m) = (gbps[0], gbps[1]);
        if !json_out {
            say!(
                "{:<22} {:<6} {:>3} {:>9.2} {:>9.2} {:>7.2} {:>7.2} {:>9} {:>7}",
                name,
                "decode",
                1,
                o,
                m,
                o / m,
                paired,
                "-",
                "-"
            );
        }
        let mut row = json!({
            "case": name, "op": "decode", "threads": 1, "format": f.name(), "gbps": o, "memcpy_gbps": m,
            "tegra_gbps": null, "tegra_alloc_gbps": null, "tegra_ffi_gbps": null,
            "ratio_memcpy": o / m, "ratio_memcpy_paired": paired, "ratio_tegra": null,
        });
        if let Some(cp) = crate_paired {
            let c = gbps[2];
            if !json_out {
                say!(
                    "{:<22} {:<6} {:>3} {:>9.2} {:>9.2} {:>7.2} {:>7.2}   (vs bcdec_rs)",
                    name,
                    "decode",
                    1,
                    o,
                    c,
                    o / c,
                    cp
                );
            }
            row["crate_gbps"] = json!(c);
            row["ratio_crate"] = json!(o / c);
            row["ratio_crate_paired"] = json!(cp);
        }
        rows.push(row);
    }
}
