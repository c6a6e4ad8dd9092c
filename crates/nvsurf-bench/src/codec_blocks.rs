//! ASTC and ETC2 decode cases: `Format::decode_rect_rgba8` of a 1024x1024 picture against the
//! decoder crate called directly on the same blocks into the same RGBA8 rows, raced in the
//! same interleaved rounds as the other cases (`race`). The wrapper's cost is the paired ratio
//! (ours over the crate's, JSON `ratio_crate_paired`); issue 30 allows at most 5%.
//!
//! - `codec-astc-4x4`, `codec-astc-8x8`: `astc-decode` (`astc_decode_block`, one closure call a
//!   pixel, as its API is), blocks of the ASTC test vectors (`crates/nvsurf/tests/data/astc`,
//!   made by astcenc) repeated over the picture: real blocks, where noise would be mostly
//!   illegal encodings (the error colour, a much cheaper path).
//! - `codec-etc2`: ETC2 RGB8, `texture2ddecoder::decode_etc2_rgb_block` and the BGRA-to-RGBA
//!   move, blocks of the ETC2 test vectors (etcpak) repeated.
//!
//! `--case codec` (or `codec-blocks`) runs these with the other codec cases.

use crate::{paired_ratio, race, Contender};
use nvsurf::format::Format;
use serde_json::{json, Value};
use std::time::Duration;

const ASTC_4X4: &[u8] = include_bytes!("../../nvsurf/tests/data/astc/ldr_4x4.astc");
const ASTC_8X8: &[u8] = include_bytes!("../../nvsurf/tests/data/astc/ldr_8x8.astc");
const ETC2_RGB: &[u8] = include_bytes!("../../nvsurf/tests/data/etc2/etc2_rgb.blocks");

/// `count` blocks of `size` bytes, cycling through `blocks`.
fn repeat_blocks(blocks: &[u8], size: usize, count: usize) -> Vec<u8> {
    blocks.chunks_exact(size).cycle().take(count).flatten().copied().collect()
}

/// The crate called directly: every block of a `side` x `side` picture into `out` (RGBA8
/// rows), `side` a multiple of the block size.
fn direct(fmt: &str, elems: &[u8], side: usize, out: &mut [u8]) {
    let pitch = side * 4;
    match fmt {
        "etc2_rgb" => {
            let cols = side / 4;
            let mut px = [0u32; 16];
            for (i, blk) in elems.chunks_exact(8).enumerate() {
                texture2ddecoder::decode_etc2_rgb_block(blk, &mut px);
                let (bx, by) = (i % cols, i / cols);
                for (y, row) in px.chunks_exact(4).enumerate() {
                    let at = (by * 4 + y) * pitch + bx * 16;
                    for (x, p) in row.iter().enumerate() {
                        let [b, g, r, a] = p.to_le_bytes();
                        out[at + 4 * x..at + 4 * x + 4].copy_from_slice(&[r, g, b, a]);
                    }
                }
            }
        }
        _ => {
            let n = if fmt == "astc_4x4" { 4 } else { 8 };
            let cols = side / n;
            let fp = astc_decode::Footprint::new(n as u32, n as u32);
            for (i, blk) in elems.chunks_exact(16).enumerate() {
                let (bx, by) = (i % cols, i / cols);
                let base = by * n * pitch + bx * n * 4;
                let block: &[u8; 16] = blk.try_into().expect("16 bytes");
                astc_decode::astc_decode_block(block, fp, |x, y, c| {
                    let at = base + y as usize * pitch + 4 * x as usize;
                    out[at..at + 4].copy_from_slice(&c);
                });
            }
        }
    }
}

/// bcdec_rs called directly: every block of a `side` x `side` picture of `fmt` (`bc1`, `bc3`,
/// `bc5` or `bc7`, unsigned) into `out` (RGBA8 rows; BC5's red and green, blue 0, alpha 255,
/// from the crate's RG8 block), `side` a multiple of 4.
pub(crate) fn bcdec_direct(fmt: &str, elems: &[u8], side: usize, out: &mut [u8]) {
    let pitch = side * 4;
    let cols = side / 4;
    let size = if fmt == "bc1" { 8 } else { 16 };
    for (i, blk) in elems.chunks_exact(size).enumerate() {
        let (bx, by) = (i % cols, i / cols);
        let at = by * 4 * pitch + bx * 16;
        let dst = &mut out[at..at + 3 * pitch + 16];
        match fmt {
            "bc1" => bcdec_rs::bc1(blk, dst, pitch),
            "bc3" => bcdec_rs::bc3(blk, dst, pitch),
            "bc7" => bcdec_rs::bc7(blk, dst, pitch),
            _ => {
                let mut rg = [0u8; 32];
                bcdec_rs::bc5(blk, &mut rg, 8, false);
                for (p, v) in rg.chunks_exact(2).enumerate() {
                    let o = (p / 4) * pitch + (p % 4) * 4;
                    dst[o..o + 4].copy_from_slice(&[v[0], v[1], 0, 255]);
                }
            }
        }
    }
}

/// Runs the cases (all, or the one `only` names; `codec`/`codec-blocks`: all), printing table
/// rows unless `json_out` (the memcpy column holds the crate's speed), and appends one JSON row
/// each to `rows`.
pub fn run(only: Option<&String>, smoke: bool, budget: Duration, json_out: bool, rows: &mut Vec<Value>) {
    let side = if smoke { 256usize } else { 1024 };
    let cases = [
        ("codec-astc-4x4", "astc_4x4", ASTC_4X4, 16, 4),
        ("codec-astc-8x8", "astc_8x8", ASTC_8X8, 16, 8),
        ("codec-etc2", "etc2_rgb", ETC2_RGB, 8, 4),
    ];
    let mut header = false;
    for (name, fmt, data, size, bdim) in cases {
        if only.is_some_and(|o| o != name && o != "codec" && o != "codec-blocks") {
            continue;
        }
        if !json_out && !header {
            say!("({name} and the other block-decoder rows: the memcpy column = the crate called directly)");
            header = true;
        }
        let f = Format::parse(fmt).expect("known format");
        let blocks = if size == 16 && fmt != "etc2_rgb" { &data[16..] } else { data };
        let count = (side / bdim) * (side / bdim);
        let elems = repeat_blocks(blocks, size, count);
        let row_pitch = side / bdim * size;
        let mut out = vec![[0u8; 4]; side * side];
        let mut theirs = vec![0u8; side * side * 4];
        // Same pixels both ways before timing.
        f.decode_rect_rgba8(&elems, row_pitch, side as u32, side as u32, &mut out).expect("decode");
        direct(fmt, &elems, side, &mut theirs);
        assert!(out.as_flattened() == &theirs[..], "{name}: ours differs from the crate's");
        let out_bytes = side * side * 4;
        let mut contenders = vec![
            Contender {
                name: "ours",
                run: Box::new(|| {
                    f.decode_rect_rgba8(&elems, row_pitch, side as u32, side as u32, &mut out).expect("decode")
                }),
                times: vec![],
            },
            Contender { name: "crate", run: Box::new(|| direct(fmt, &elems, side, &mut theirs)), times: vec![] },
        ];
        let gbps = race(&mut contenders, out_bytes, budget);
        let paired = paired_ratio(&contenders[0], &contenders[1]);
        drop(contenders);
        let (o, c) = (gbps[0], gbps[1]);
        if !json_out {
            say!(
                "{:<22} {:<6} {:>3} {:>9.3} {:>9.3} {:>7.3} {:>7.3} {:>9} {:>7}",
                name,
                "decode",
                1,
                o,
                c,
                o / c,
                paired,
                "-",
                "-"
            );
        }
        rows.push(json!({
            "case": name, "op": "decode", "threads": 1, "format": f.name(), "gbps": o, "crate_gbps": c,
            "ratio_crate": o / c, "ratio_crate_paired": paired,
        }));
    }
}
