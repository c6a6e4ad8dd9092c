//! Naming the GPU (or the console) is enough: the defaults each platform implies, what every
//! command says it assumed, and the Switch preset against the Switch tools' own layout
//! (`tegra_swizzle` 0.4, the crate Switch tools use).

use serde_json::Value;
use std::process::Command;
use tegra_swizzle::surface::{swizzle_surface, BlockDim};

mod scratch;
use scratch::Scratch;

fn nvsurf(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nvsurf")).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

fn json(args: &str) -> Value {
    let a: Vec<&str> = args.split_whitespace().collect();
    let (code, out, err) = nvsurf(&a);
    assert_eq!(code, 0, "{args}: {err}");
    serde_json::from_str(&out).unwrap()
}

fn pattern(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i as u32).wrapping_mul(2654435761).rotate_left(7) as u8 ^ (i >> 8) as u8).collect()
}

#[test]
fn switch_preset_gives_tegra_swizzles_bytes_with_no_layout_flag() {
    let tmp = Scratch::new("defaults-switch");
    // (type, size, format, bytes per element, texels per element edge, levels, layers)
    for (ty, w, h, fmt, bpp, texels, levels, layers) in [
        ("2d", 256, 256, "A8B8G8R8", 4, 1, 9, 1),
        ("2d", 300, 200, "A8B8G8R8", 4, 1, 9, 1),
        ("2d", 260, 130, "bc1", 8, 4, 5, 1),
        ("2d", 256, 256, "bc7", 16, 4, 9, 1),
        ("2d_array", 64, 100, "R16_UNORM", 2, 1, 7, 3),
        ("2d_array", 96, 96, "bc7", 16, 4, 4, 2),
        ("cube", 64, 64, "A8B8G8R8", 4, 1, 7, 6),
        ("cube", 128, 128, "bc7", 16, 4, 8, 6),
    ] {
        let size = format!("{w}x{h}");
        let surf = ["--gpu", "switch", "--type", ty, "--format", fmt, "--size", &size];
        let (levels_s, layers_s) = (levels.to_string(), layers.to_string());
        let mut t_args = vec!["texture"];
        t_args.extend(surf);
        t_args.extend(["--levels", &levels_s, "--layers", &layers_s, "--json"]);
        let (code, out, err) = nvsurf(&t_args);
        assert_eq!(code, 0, "{err}");
        let t: Value = serde_json::from_str(&out).unwrap();
        assert_eq!((t["gob_order"].as_str(), t["block_policy"].as_str()), (Some("tegra"), Some("nvn")));
        let linear = pattern(t["linear_size_bytes"].as_u64().unwrap() as usize);
        let dim = if texels == 4 { BlockDim::block_4x4() } else { BlockDim::uncompressed() };
        let theirs = swizzle_surface(w, h, 1, &linear, dim, None, bpp, levels, layers).unwrap();
        let (lin, out) = (tmp.path("lin.bin"), tmp.path("dump.bin"));
        std::fs::write(&lin, &linear).unwrap();
        let mut a = vec!["tile", "--texture"];
        a.extend(surf);
        a.extend(["--levels", &levels_s, "--layers", &layers_s]);
        a.extend(["--input", lin.to_str().unwrap(), "--output", out.to_str().unwrap()]);
        let (code, _, err) = nvsurf(&a);
        assert_eq!(code, 0, "{err}");
        assert!(
            err.contains("for switch: gob order tegra (default for switch,")
                && err.contains("block policy nvn (default for switch)"),
            "{err}"
        );
        let mine = std::fs::read(&out).unwrap();
        assert!(mine == theirs, "{ty} {size} {fmt}: bytes differ from tegra_swizzle");
    }
}

#[test]
fn every_surface_command_says_what_it_assumed() {
    // layout: text and JSON.
    let (code, out, _) = nvsurf(&["layout", "--gpu", "gh100", "--elem-size", "4", "--size", "300x200"]);
    assert_eq!(code, 0);
    assert!(
        out.contains(
            "gob order turing (default for gh100, element size only), block policy nvidia (default for gh100)"
        ),
        "{out}"
    );
    let v = json("layout --gpu gh100 --elem-size 4 --size 300x200 --json");
    assert_eq!((v["gob_order"].as_str(), v["block_policy"].as_str()), (Some("turing"), Some("nvidia")));
    assert_eq!(v["block_log2_effective"], serde_json::json!([0, 4, 0]), "nvidia: 200 rows ask for 16 gobs");
    // The old defaults, named.
    let old = json("layout --gpu gh100 --elem-size 4 --size 300x200 --gob vm --block-policy max --json");
    assert_eq!((old["gob_order"].as_str(), old["gob_order_source"].as_str()), (Some("vm"), Some("given")));
    assert_eq!(old["block_policy"], "max");
    // addr: the address alone on stdout, the assumption on stderr; JSON keys.
    let (code, out, err) = nvsurf(&["addr", "--gpu", "gm20b", "--elem-size", "4", "--size", "64x64", "--at", "1,0"]);
    assert_eq!((code, out.as_str()), (0, "0x4\n"));
    assert!(err.contains("gob order tegra (default for gm20b") && err.contains("block policy nvidia"), "{err}");
    let a = json("addr --gpu switch --elem-size 4 --size 64x64 --at 4,0 --json");
    assert_eq!((a["gob_order"].as_str(), a["block_policy"].as_str()), (Some("tegra"), Some("nvn")));
    assert_eq!(a["offset_bytes"], 32, "Tegra order: x byte 16 sits at 32");
    // G80: the VM view and the max policy; pre-G80: no gobs.
    let g = json("layout --gpu g80 --elem-size 4 --size 64x64 --json");
    assert_eq!((g["gob_order"].as_str(), g["block_policy"].as_str()), (Some("vm"), Some("max")));
    let x = json("texture --gpu xbox --elem-size 4 --size 64x64 --json");
    assert!(x["gob_order"].is_null() && x["block_policy"].is_null());
    // A G80 with a CPU order is refused (no CPU view of 256-byte gobs is known).
    let (code, _, err) = nvsurf(&["layout", "--gpu", "g80", "--elem-size", "4", "--size", "64x64", "--gob", "tegra"]);
    assert_eq!(code, 2, "{err}");
    // texture JSON: every level's requested block beside its effective one.
    let t = json("texture --gpu gh100 --elem-size 4 --size 300x200 --levels 9 --json");
    let l = &t["levels"].as_array().unwrap()[5];
    assert_eq!(
        (l["block_log2_requested"].clone(), l["block_log2"].clone()),
        (serde_json::json!([0, 4, 0]), serde_json::json!([0, 0, 0]))
    );
}

#[test]
fn presets_are_listed_in_the_help() {
    let (code, out, _) = nvsurf(&["layout", "--help"]);
    assert_eq!(code, 0);
    for word in ["switch/nx", "xbox", "--gob vm --block-policy max"] {
        assert!(out.contains(word), "{word}: {out}");
    }
    let (_, top, _) = nvsurf(&["--help"]);
    assert!(top.contains("switch"), "{top}");
}
