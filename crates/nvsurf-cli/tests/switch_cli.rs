//! `--gpu switch` against the Switch tools' layout (the `tegra_swizzle` crate, 0.4): 3D textures
//! (one gob tall, sizes from the rule of ScanMountGoat/tegra_swizzle `src/surface.rs` computed
//! here by hand) and explicit blocks (`--block-log2`), which keep NVN's single-layer rule as
//! `tegra_swizzle` does with a given block height.

use std::process::Command;
use tegra_swizzle::surface::{deswizzled_surface_size, swizzle_surface, swizzled_surface_size, BlockDim};
use tegra_swizzle::BlockHeight;

mod scratch;
use scratch::Scratch;

fn nvsurf(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nvsurf")).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

fn texture_json(args: &[&str]) -> serde_json::Value {
    let mut a = vec!["texture", "--gpu", "switch", "--json"];
    a.extend_from_slice(args);
    let (code, out, err) = nvsurf(&a);
    assert_eq!(code, 0, "{a:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

/// NVN's thresholds (`h + h/2` against 16, 8, 4, 2 gob extents): gobs per block.
fn nvn_gobs(extent: u64) -> u64 {
    let e = extent + extent / 2;
    [16, 8, 4, 2].into_iter().find(|&g| e >= g).unwrap_or(1)
}

/// The size of a 3D texture (depth > 1) by the rule `tegra_swizzle` applies, computed here:
/// every level is one gob (8 rows) tall per block, 64-byte gob columns, its depth rounded up to
/// a block depth chosen from the level's own depth by NVN's thresholds; levels packed, no
/// padding of the single layer.
fn three_d_size_by_rule(size: [u64; 3], bpp: u64, levels: u32) -> u64 {
    (0..levels)
        .map(|l| {
            let [w, h, d] = size.map(|v| (v >> l).max(1));
            (w * bpp).div_ceil(64) * h.div_ceil(8) * d.next_multiple_of(nvn_gobs(d)) * 512
        })
        .sum()
}

#[test]
fn three_d_textures_are_one_gob_tall() {
    // The review's case: 173056 bytes (tegra_swizzle), not 225280 (block 0,4,2).
    let j = texture_json(&["--format", "RGBA8_UNORM", "--size", "20x300x3", "--levels", "4", "--type", "3d"]);
    assert_eq!(j["size_bytes"], 173056);
    assert_eq!(j["levels"][0]["block_log2"], serde_json::json!([0, 0, 2]));
    // Random sizes (fixed seed), plain formats of 1, 4, 8 and 16 bytes.
    let mut seed = 0x9e37_79b9_u64;
    let mut next = |n: u64| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) % n + 1
    };
    for _ in 0..12 {
        let (fmt, bpp) = [("R8_UNORM", 1), ("RGBA8_UNORM", 4), ("RGBA16F", 8), ("RGBA32F", 16)][next(4) as usize - 1];
        let size = [next(400), next(400), next(40) + 1];
        let max = 64 - size.iter().max().unwrap().leading_zeros();
        let levels = next(u64::from(max)) as u32;
        let s = format!("{}x{}x{}", size[0], size[1], size[2]);
        let j = texture_json(&["--format", fmt, "--size", &s, "--levels", &levels.to_string(), "--type", "3d"]);
        assert_eq!(j["size_bytes"], three_d_size_by_rule(size, bpp, levels), "{fmt} {s} levels {levels}");
        assert_eq!(j["levels"][0]["block_log2"][1], 0, "{fmt} {s}");
        let theirs = swizzled_surface_size(
            size[0] as u32,
            size[1] as u32,
            size[2] as u32,
            BlockDim::uncompressed(),
            None,
            bpp as u32,
            levels,
            1,
        );
        assert_eq!(j["size_bytes"], theirs as u64, "{fmt} {s} levels {levels}: tegra_swizzle");
    }
}

fn bc7() -> BlockDim {
    BlockDim::block_4x4()
}

#[test]
fn explicit_block_keeps_nvns_single_layer_rule() {
    // 256x256 BC7, 9 levels, block height 8 gobs given: tegra_swizzle's 89600 bytes (the
    // document's padding to level 0's block would give 90112).
    let theirs = swizzled_surface_size(256, 256, 1, bc7(), Some(BlockHeight::Eight), 16, 9, 1) as u64;
    assert_eq!(theirs, 89600);
    let args = ["--format", "bc7", "--size", "256x256", "--levels", "9", "--block-log2", "0,3,0"];
    assert_eq!(texture_json(&args)["size_bytes"], theirs);
    // Other platforms keep the document's padding of an explicit block.
    let (code, out, err) = nvsurf(&[&["texture", "--gpu", "gm20b", "--json"][..], &args[..]].concat());
    assert_eq!(code, 0, "{err}");
    assert_eq!(serde_json::from_str::<serde_json::Value>(&out).unwrap()["size_bytes"], 90112);
    // Arrays keep the aligned layer stride; explicit heights against tegra_swizzle, plain formats
    // (whose rows are pixels) and block heights that level 0 needs.
    for (size, fmt, bpp, levels, layers, bh) in [
        ([64u32, 64], "RGBA8_UNORM", 4, 7, 3, BlockHeight::Eight),
        ([100, 40], "RGBA8_UNORM", 4, 5, 2, BlockHeight::Four),
        ([33, 200], "R8_UNORM", 1, 8, 4, BlockHeight::Sixteen),
        ([16, 16], "RGBA32F", 16, 1, 1, BlockHeight::Two),
    ] {
        let s = format!("{}x{}", size[0], size[1]);
        let block = format!("0,{},0", (bh as u32).trailing_zeros());
        let (lv, ly) = (levels.to_string(), layers.to_string());
        let j = texture_json(&[
            "--format",
            fmt,
            "--size",
            &s,
            "--levels",
            &lv,
            "--type",
            "2d_array",
            "--layers",
            &ly,
            "--block-log2",
            &block,
        ]);
        let theirs =
            swizzled_surface_size(size[0], size[1], 1, BlockDim::uncompressed(), Some(bh), bpp, levels, layers);
        assert_eq!(j["size_bytes"], theirs as u64, "{fmt} {s} levels {levels} layers {layers} block {block}");
    }
}

/// The review's untile: a 256x256 BC7 dump of 89600 bytes laid out by `tegra_swizzle` with a
/// block height of 8 gobs untiles with `--block-log2 0,3,0` (no `--layer-stride`) to the linear
/// input, and tiles back to the same bytes.
#[test]
fn explicit_block_untiles_a_tegra_swizzle_dump() {
    let dir = Scratch::new("switch-explicit");
    let n = deswizzled_surface_size(256, 256, 1, bc7(), 16, 9, 1) as u32;
    let linear: Vec<u8> = (0..n).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
    let tiled = swizzle_surface(256, 256, 1, &linear, bc7(), Some(BlockHeight::Eight), 16, 9, 1).unwrap();
    assert_eq!(tiled.len(), 89600);
    let (t, l, back) = (dir.path("t.bin"), dir.path("l.bin"), dir.path("back.bin"));
    std::fs::write(&t, &tiled).unwrap();
    let common = [
        "--gpu",
        "switch",
        "--format",
        "bc7",
        "--size",
        "256x256",
        "--texture",
        "--levels",
        "9",
        "--block-log2",
        "0,3,0",
    ];
    let (code, _, err) = nvsurf(
        &[&["untile"][..], &common[..], &["--input", t.to_str().unwrap(), "--output", l.to_str().unwrap()][..]]
            .concat(),
    );
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read(&l).unwrap() == linear, "untiled bytes differ");
    let (code, _, err) = nvsurf(
        &[&["tile"][..], &common[..], &["--input", l.to_str().unwrap(), "--output", back.to_str().unwrap()][..]]
            .concat(),
    );
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read(&back).unwrap() == tiled, "tiled bytes differ");
}
