//! `--levels all`: the full mip chain down to 1x1 wherever `--levels N` is taken (`texture`,
//! `untile --texture`, `tile --texture`, a DDS input's check), as the C API's
//! `NVSURF_ALL_LEVELS`; types without mips (rect, buffer) get one level.

use serde_json::Value;
use std::process::Command;

mod scratch;
use scratch::Scratch;

fn nvsurf(args: &str, extra: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nvsurf")).args(args.split_whitespace()).args(extra).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

fn json(args: &str) -> Value {
    let (code, out, err) = nvsurf(&format!("texture {args} --json"), &[]);
    assert_eq!(code, 0, "{args}: {err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn all_is_the_full_chain() {
    // 300x200: floor(log2(300)) + 1 = 9 levels (docs/VECTORS.md's GF100 texture).
    let base = "--gpu gf100 --type 2d --elem-size 4 --size 300x200 --block-log2 0,5,0";
    let all = json(&format!("{base} --levels all"));
    assert_eq!(all["levels"].as_array().unwrap().len(), 9);
    assert_eq!(all, json(&format!("{base} --levels 9")));
    assert_eq!(json(&format!("{base} --levels ALL")), all);
    // 3D: the depth counts (32 -> 6 levels); a cube of 64: 7; rect has no mips: 1.
    assert_eq!(
        json("--gpu gf100 --type 3d --elem-size 4 --size 16x8x32 --levels all")["levels"].as_array().unwrap().len(),
        6
    );
    let cube = json("--gpu switch --type cube --format bc7 --size 64x64 --levels all");
    assert_eq!(cube["levels"].as_array().unwrap().len(), 7);
    assert_eq!(
        json("--gpu gf100 --type rect --elem-size 4 --size 300x200 --levels all")["levels"].as_array().unwrap().len(),
        1
    );
    // Pre-G80 swizzled textures too.
    assert_eq!(json("--gpu nv2a --format A8R8G8B8 --size 64x16 --levels all")["levels"].as_array().unwrap().len(), 7);
}

#[test]
fn a_bad_value_names_all() {
    let (code, _, err) = nvsurf("texture --gpu gf100 --elem-size 4 --size 8x8 --levels lots", &[]);
    assert_eq!(code, 2);
    assert!(err.contains("--levels") && err.contains("lots") && err.contains("all"), "{err}");
    // Too many levels is still the library's range error.
    let (code, _, err) = nvsurf("texture --gpu gf100 --elem-size 4 --size 8x8 --levels 5", &[]);
    assert!(code == 2 && err.contains("levels 5") && err.contains("1..=4"), "{err}");
}

#[test]
fn untile_and_tile_take_all() {
    let tmp = Scratch::new("levels-all");
    let p = |n: &str| tmp.path(n).to_str().unwrap().to_string();
    const TEX: &str = "--gpu switch --format bc7 --size 64x64 --texture";
    let n = json("--gpu switch --format bc7 --size 64x64 --levels 7")["size_bytes"].as_u64().unwrap() as usize;
    let dump: Vec<u8> = (0..n).map(|i| (i * 131 + 7) as u8).collect();
    std::fs::write(p("dump.bin"), &dump).unwrap();
    for (levels, out) in [("7", "seven.bin"), ("all", "all.bin")] {
        let (code, _, err) =
            nvsurf(&format!("untile {TEX} --levels {levels}"), &["--input", &p("dump.bin"), "--output", &p(out)]);
        assert_eq!(code, 0, "{err}");
    }
    assert!(std::fs::read(p("all.bin")).unwrap() == std::fs::read(p("seven.bin")).unwrap());
    // A DDS with the full chain is tiled back with --levels all (checked against its header).
    let (code, _, err) =
        nvsurf(&format!("untile {TEX} --levels all"), &["--input", &p("dump.bin"), "--output", &p("full.dds")]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) =
        nvsurf(&format!("tile {TEX} --levels all"), &["--input", &p("full.dds"), "--output", &p("back.bin")]);
    assert_eq!(code, 0, "{err}");
    // The same levels (the dump's padding between levels is not in the DDS: compare untiled).
    let (code, _, err) =
        nvsurf(&format!("untile {TEX} --levels all"), &["--input", &p("back.bin"), "--output", &p("back_lin.bin")]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read(p("back_lin.bin")).unwrap() == std::fs::read(p("all.bin")).unwrap());
    // A DDS with 3 levels is not the full chain: one line naming both.
    let (code, _, err) =
        nvsurf(&format!("untile {TEX} --levels 3"), &["--input", &p("dump.bin"), "--output", &p("three.dds")]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) =
        nvsurf(&format!("tile {TEX} --levels all"), &["--input", &p("three.dds"), "--output", &p("x.bin")]);
    assert_eq!(code, 2);
    assert!(err.lines().count() == 1 && err.contains("levels") && err.contains("all"), "{err}");
}
