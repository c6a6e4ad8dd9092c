//! The questions an NVK developer asks, through the command line (#40): `--samples` with the
//! size in pixels (checked against the H100's 8-sample Vulkan captures, byte for byte),
//! `msaa --json`'s Vulkan sample indices, `--block-policy nvk`'s size and alignment, every
//! policy's `align_bytes`/`align_source`, `--sparse`, and `texture --at`'s slice start.

use serde_json::Value;
use std::io::Read;
use std::process::Command;

mod scratch;
use scratch::Scratch;

const BIN: &str = env!("CARGO_BIN_EXE_nvsurf");

fn nvsurf(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN).args(args).output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

fn json(args: &[&str]) -> Value {
    let (code, out, err) = nvsurf(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

fn capture(name: &str) -> Vec<u8> {
    let path = format!("{}/../nvsurf/tests/data/hardware/gh100-vulkan-msaa/{name}.bin.gz", env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap()).read_to_end(&mut out).unwrap();
    out
}

/// `untile --samples 8` of the H100's captures is the captures' pattern laid out as the sample
/// grid, Vulkan sample `s` in the cell `msaa --json` gives it; `texture --samples 8` gives the
/// driver's size and alignment.
#[test]
fn eight_samples_from_pixels_give_the_h100_bytes() {
    let tmp = Scratch::new("nvk");
    let mode = json(&["msaa", "--ms-mode", "ms8_alt", "--json"]);
    let mode = &mode.as_array().map_or(&mode, |a| &a[0]);
    assert_eq!(mode["vulkan_samples"], 8);
    // The cell of each Vulkan sample, from the JSON.
    let mut cell_of = [(0u32, 0u32); 8];
    for s in mode["samples"].as_array().unwrap() {
        let g = &s["grid_xy"];
        cell_of[s["vulkan_index"].as_u64().unwrap() as usize] =
            (g[0].as_u64().unwrap() as u32, g[1].as_u64().unwrap() as u32);
    }
    for (name, w, h, size) in [("ms8_37x21", 37u32, 21u32, 30720u64), ("ms8_64x32", 64, 32, 65536)] {
        let mut linear = vec![0u8; (4 * w * 2 * h * 4) as usize];
        for y in 0..h {
            for x in 0..w {
                for (s, &(cx, cy)) in cell_of.iter().enumerate() {
                    let (ex, ey) = (4 * x + cx, 2 * y + cy);
                    let v = x | y << 12 | (s as u32) << 24 | 0x8000_0000;
                    let at = ((ey * 4 * w + ex) * 4) as usize;
                    linear[at..at + 4].copy_from_slice(&v.to_le_bytes());
                }
            }
        }
        let (dump, out) = (tmp.path("dump.bin"), tmp.path("untiled.bin"));
        let want_dump = capture(name);
        std::fs::write(&dump, &want_dump).unwrap();
        let px = format!("{w}x{h}");
        let common = ["--gpu", "gh100", "--format", "R32_UINT", "--size", &px, "--samples", "8"];
        let io = ["--input", dump.to_str().unwrap(), "--output", out.to_str().unwrap()];
        let (code, _, err) = nvsurf(&[&["untile"][..], &common, &io].concat());
        assert_eq!(code, 0, "{err}");
        // Every sample of every pixel (the capture's padding between rows of blocks is not
        // the pattern, so the tiled side is compared through untile).
        assert!(std::fs::read(&out).unwrap() == linear, "{name}: samples differ from the H100's");
        assert_eq!(want_dump.len() as u64, size);
        let t = json(&[&["texture"][..], &common, &["--json"]].concat());
        assert_eq!((t["samples"].as_u64(), t["ms_mode"].as_str()), (Some(8), Some("MS8_ALT")), "{name}");
        assert_eq!(t["size_samples"], serde_json::json!([4 * w, 2 * h, 1]));
        assert_eq!(t["size_bytes"].as_u64(), Some(size), "{name}: the driver's size");
        assert_eq!((t["align_bytes"].as_u64(), t["align_source"].as_str()), (Some(1024), Some("nvidia-h100")));
        let l = json(&[&["layout"][..], &common, &["--json"]].concat());
        assert_eq!((l["samples"].as_u64(), l["size_samples"].clone()), (Some(8), serde_json::json!([4 * w, 2 * h, 1])));
    }
    // A mode Vulkan does not use has no Vulkan indices.
    let ms8 = json(&["msaa", "--ms-mode", "ms8", "--json"]);
    let ms8 = ms8.as_array().map_or(&ms8, |a| &a[0]);
    assert!(ms8["samples"].as_array().unwrap().iter().all(|s| s["vulkan_index"].is_null()));
    assert!(ms8["vulkan_samples"].is_null());
}

/// The smallest case: GA102, R32G32, 3x14 pixels, 8 samples takes the block of the
/// pixel height (0,1,0), as nil does; bad sample counts and layouts are one line.
#[test]
fn samples_choose_the_block_from_pixels_and_refuse_in_one_line() {
    let t =
        json(&["texture", "--gpu", "ga102", "--format", "R32G32_FLOAT", "--size", "3x14", "--samples", "8", "--json"]);
    assert_eq!(t["levels"][0]["block_log2"], serde_json::json!([0, 1, 0]));
    assert_eq!(t["levels"][0]["size_elements"], serde_json::json!([12, 28, 1]));
    for (args, want) in [
        (vec!["--samples", "3"], "1, 2, 4, 8 or 16"),
        (vec!["--samples", "4", "--levels", "2"], "one level"),
        (vec!["--samples", "4", "--layout", "pitch"], "blocklinear"),
        (vec!["--samples", "4", "--type", "3d"], "2D"),
    ] {
        let mut a = vec!["texture", "--gpu", "ga102", "--elem-size", "4", "--size", "16x16"];
        a.extend(&args);
        let (code, _, err) = nvsurf(&a);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.lines().count() == 1 && err.contains(want), "{args:?}: {err}");
    }
    let (code, _, err) = nvsurf(&[
        "layout",
        "--gpu",
        "ga102",
        "--elem-size",
        "4",
        "--size",
        "16x16",
        "--samples",
        "4",
        "--layout",
        "pitch",
    ]);
    assert!(code == 2 && err.contains("samples"), "{err}");
}

/// Every policy says its alignment and whose it is; nvk rounds the size up to it.
#[test]
fn every_policy_gives_align_bytes_and_its_source() {
    let base = ["texture", "--gpu", "tu102", "--format", "rgba8", "--size", "256x256", "--levels", "9", "--json"];
    let with = |p: &str| json(&[&base[..], &["--block-policy", p]].concat());
    let nvk = with("nvk");
    assert_eq!((nvk["align_bytes"].as_u64(), nvk["align_source"].as_str()), (Some(8192), Some("nil")));
    assert_eq!(nvk["size_bytes"].as_u64(), Some(352_256));
    let nvidia = with("nvidia");
    assert!(nvidia["align_bytes"].is_null() && nvidia["align_source"] == "unknown");
    assert_eq!(nvidia["size_bytes"].as_u64(), Some(351_232), "the nvidia policy keeps the end of the last level");
    let max = with("max");
    assert_eq!((max["align_bytes"].as_u64(), max["align_source"].as_str()), (Some(512), Some("document")));
    // Linear under nvk: rows of 128 bytes (256 on Kepler).
    for (gpu, pitch) in [("tu102", 128u64), ("gk104", 256)] {
        let t = json(&[
            "texture",
            "--gpu",
            gpu,
            "--elem-size",
            "4",
            "--size",
            "17x3",
            "--layout",
            "pitch",
            "--block-policy",
            "nvk",
            "--json",
        ]);
        assert_eq!(
            (t["levels"][0]["row_bytes"].as_u64(), t["align_bytes"].as_u64()),
            (Some(pitch), Some(pitch)),
            "{gpu}"
        );
    }
}

/// `--sparse`: the standard block in pixels and the mip tail, 64 KiB alignment.
#[test]
fn sparse_gives_the_block_and_the_mip_tail() {
    let t = json(&[
        "texture", "--gpu", "tu102", "--format", "rgba8", "--size", "1000x700", "--levels", "all", "--sparse", "--json",
    ]);
    assert_eq!(t["sparse"], true);
    assert!(t["sparse_note"].as_str().unwrap().contains("open"), "the open rule is said");
    assert_eq!(t["sparse_block_px"], serde_json::json!([128, 128, 1]));
    assert_eq!(t["mip_tail_first_level"].as_u64(), Some(3));
    let (off, size) = (t["mip_tail_offset_bytes"].as_u64().unwrap(), t["mip_tail_size_bytes"].as_u64().unwrap());
    assert_eq!(off, t["levels"][3]["offset_bytes"].as_u64().unwrap());
    assert_eq!(off + size, t["layer_stride_bytes"].as_u64().unwrap());
    assert_eq!((t["align_bytes"].as_u64(), t["size_bytes"].as_u64().unwrap() % 65536), (Some(65536), 0));
    // Level 3 is 500 bytes wide, narrower than the 512-byte block: nil resets the width.
    assert_eq!(t["levels"][3]["block_log2"], serde_json::json!([0, 4, 0]));
    let bc = json(&["texture", "--gpu", "tu102", "--format", "bc1", "--size", "4096x4096", "--sparse", "--json"]);
    assert_eq!(bc["sparse_block_px"], serde_json::json!([512, 256, 1]), "128x64 BC1 blocks of 4x4 texels");
    let plain = json(&["texture", "--gpu", "tu102", "--format", "rgba8", "--size", "64x64", "--json"]);
    assert!(plain["sparse"] == false && plain["mip_tail_first_level"].is_null());
    let (code, _, err) =
        nvsurf(&["texture", "--gpu", "tu102", "--elem-size", "4", "--size", "64", "--type", "1d", "--sparse"]);
    assert!(code == 2 && err.lines().count() == 1 && err.contains("sparse"), "{err}");
}

/// `texture --at L,LAYER,Z` gives where slice Z starts (nil's `level_z_offset_B`) and, apart,
/// the address of texel (0, 0, Z): 32 bytes further in the Fermi order.
#[test]
fn at_reports_the_slice_start_and_the_texel() {
    for (gob, texel_extra) in [("vm", 0u64), ("fermi", 32)] {
        let args = ["texture", "--gpu", "gf100", "--elem-size", "4", "--size", "64x64x8", "--type", "3d"];
        let args = [&args[..], &["--gob", gob, "--at", "0,0,5"]].concat();
        let v = json(&[&args[..], &["--json"]].concat());
        // The level's block is 0,0,3 (8 slices deep, one gob of 64 bytes x 8 rows each): slice
        // 5 is the sixth gob layer of the first block layer, 5 x 512 bytes in.
        assert_eq!(v["slice_start_bytes"].as_u64(), Some(5 * 512), "{gob}");
        assert_eq!(v["texel_offset_bytes"].as_u64(), Some(5 * 512 + texel_extra), "{gob}");
        let (_, text, _) = nvsurf(&args);
        assert!(text.contains(&format!("z slice 5 starts at {}", 5 * 512)), "{text}");
    }
}

/// `formats --gpu G --json` says what the GPU can do with each format (Mesa nil's table): ASTC
/// and ETC2 sample on Tegra only; `untile` refuses such a format in one line unless
/// `--any-format`; `texture` answers with a note.
#[test]
fn format_capabilities_per_gpu_and_the_refusal() {
    let caps = |gpu: &str, name: &str| {
        let rows = json(&["formats", "--gpu", gpu, "--json"]);
        let row =
            rows.as_array().unwrap().iter().find(|r| r["names"].as_array().unwrap().iter().any(|n| n == name)).cloned();
        row.unwrap_or_else(|| panic!("{name} not listed"))
    };
    let astc = caps("gh100", "ASTC_2D_4X4");
    assert_eq!((astc["can_sample"].as_bool(), astc["can_render"].as_bool()), (Some(false), Some(false)));
    assert_eq!(caps("gm20b", "ASTC_2D_4X4")["can_sample"].as_bool(), Some(true));
    assert_eq!(caps("gm204", "ETC2_RGB")["can_sample"].as_bool(), Some(false));
    let rgba8 = caps("tu102", "RGBA8_UNORM");
    for k in ["can_sample", "can_filter", "can_render", "can_blend", "can_store"] {
        assert_eq!(rgba8[k].as_bool(), Some(true), "{k}");
    }
    assert_eq!(rgba8["can_depth"].as_bool(), Some(false));
    let z16 = caps("tu102", "Z16_UNORM");
    assert_eq!((z16["can_depth"].as_bool(), z16["can_render"].as_bool()), (Some(true), Some(false)));
    assert!(caps("g80", "A8B8G8R8")["can_sample"].is_null(), "nil lays out Fermi and later");

    let tmp = Scratch::new("nvk-caps");
    let (dump, out) = (tmp.path("dump.bin"), tmp.path("out.bin"));
    std::fs::write(&dump, vec![0u8; 1 << 16]).unwrap();
    let io = ["--input", dump.to_str().unwrap(), "--output", out.to_str().unwrap()];
    let surf = ["--gpu", "gh100", "--format", "astc_4x4", "--size", "64x64"];
    let (code, _, err) = nvsurf(&[&["untile"][..], &surf, &io].concat());
    assert!(code == 2 && err.lines().count() == 1 && err.contains("cannot be sampled on GH100"), "{err}");
    let (code, _, err) = nvsurf(&[&["untile"][..], &surf, &io, &["--any-format"]].concat());
    assert_eq!(code, 0, "{err}");
    let (code, text, err) = nvsurf(&[&["texture"][..], &surf].concat());
    assert!(code == 0 && text.contains("total") && err.starts_with("note: ASTC_2D_4X4 cannot be sampled"), "{err}");
    let (code, _, err) = nvsurf(&["texture", "--gpu", "switch", "--format", "astc_4x4", "--size", "64x64"]);
    assert!(code == 0 && err.is_empty(), "{err}");
}
