//! `nvsurf modifier decode|list`, `--modifier` on `layout`, `addr`, `texture`, `tile` and
//! `untile`, and `storage suggest --driver nvk`, through the binary. Expected values: the Linux
//! kernel's `drm_fourcc.h` (`DRM_FORMAT_MOD_NVIDIA_BLOCK_LINEAR_2D`: h bits 0-3, bit 4, kind bits
//! 12-19, g bits 20-21, s bit 22 and 26-27, c bits 23-25, vendor 0x03 in bits 56-63) and Mesa's
//! nil (`modifiers.rs`, `image.rs`, commit 157fa86f6d5def2bec5c91f33be70c138250ab7f), worked
//! out by hand.

use serde_json::Value;
use std::process::Command;

mod scratch;
use scratch::Scratch;

fn nvsurf(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nvsurf")).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

fn json(args: &[&str]) -> Value {
    let (rc, out, err) = nvsurf(args);
    assert_eq!(rc, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

/// One line on stderr, status 2, containing `says`.
fn refused(args: &[&str], says: &str) {
    let (rc, _, err) = nvsurf(args);
    assert_eq!(rc, 2, "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains(says), "{args:?}: {err}");
}

#[test]
fn decode_prints_every_field() {
    // Turing, kind 6 (GENERIC_MEMORY), g 2, s 1, 16 gobs.
    let v = json(&["modifier", "decode", "0x0300000000606014", "--json"]);
    for (k, want) in [
        ("modifier", Value::from("0x0300000000606014")),
        ("layout", Value::from("blocklinear")),
        ("pte_kind", Value::from(6)),
        ("gob_kind_generation", Value::from(2)),
        ("sector_layout", Value::from(1)),
        ("compression", Value::from(0)),
        ("block_height_log2", Value::from(4)),
    ] {
        assert_eq!(v[k], want, "{k}");
    }
    // Blackwell 8 bpp: s = 2 lives in bits 26-27 (0x4000000); ROP/3D compression 1 in bit 23.
    let v = json(&["modifier", "decode", "0x0300000004a06015", "--json"]);
    assert_eq!((v["sector_layout"].as_u64(), v["compression"].as_u64()), (Some(2), Some(1)));
    let v = json(&["modifier", "decode", "0", "--json"]);
    assert_eq!((v["layout"].as_str(), v["pte_kind"].is_null()), (Some("linear"), true));
    let (rc, out, _) = nvsurf(&["modifier", "decode", "0x03000000004fe015"]);
    assert_eq!(rc, 0);
    assert!(out.contains("PTE kind 0xfe, gob kind generation 0 (fermi), sector layout 1 (desktop)"), "{out}");
    assert!(out.contains("block height log2 5 (32 gobs)"), "{out}");
    refused(&["modifier", "decode", "0x0100000000000001"], "modifier vendor 0x1 is invalid");
    refused(&["modifier", "decode", "0x0300000000606016"], "modifier block height log2 0x6 is invalid");
    refused(&["modifier", "decode", "0x0300000010606014"], "reserved bits 28-55");
    refused(&["modifier", "decode", "zz"], "cannot parse modifier");
}

#[test]
fn list_is_nils_order() {
    let want = |g: u64, s: u64, k: u64| -> Vec<String> {
        let mut v: Vec<String> = (0..=5u64)
            .rev()
            .map(|h| {
                format!(
                    "{:#018x}",
                    (3u64 << 56) | 0x10 | h | (k << 12) | (g << 20) | ((s & 1) << 22) | ((s >> 1) << 26)
                )
            })
            .collect();
        v.push("0x0000000000000000".into());
        v
    };
    for (gpu, expect) in [
        ("gm204", want(0, 1, 0xfe)), // Maxwell desktop: FermiColor, GENERIC_16BX2
        ("gm20b", want(0, 0, 0xfe)), // Tegra X1: TegraColor (sector layout Tegra K1)
        ("tu102", want(2, 1, 0x06)), // Turing: TuringColor2D, GENERIC_MEMORY
        ("ga102", want(2, 1, 0x06)), // Ampere
    ] {
        let v = json(&["modifier", "list", "--gpu", gpu, "--format", "A8B8G8R8", "--json"]);
        let got: Vec<String> =
            v["modifiers"].as_array().unwrap().iter().map(|m| m["modifier"].as_str().unwrap().to_string()).collect();
        assert_eq!(got, expect, "{gpu}");
        assert_eq!(v["modifiers"][0]["rank"], 1);
        assert_eq!(v["driver"], "nvk");
    }
    assert_eq!(want(2, 1, 6)[0], "0x0300000000606015");
    refused(&["modifier", "list", "--gpu", "tu102", "--format", "Z24_S8"], "depth and stencil");
    refused(&["modifier", "list", "--gpu", "tu102", "--format", "bc1"], "colour targets");
}

#[test]
fn round_trip_list_then_layout_gives_the_modifiers_block() {
    let v = json(&["modifier", "list", "--gpu", "ga102", "--format", "A8B8G8R8", "--json"]);
    for (rank, h) in [(1usize, 5u64), (2, 4), (4, 2), (6, 0)] {
        let m = v["modifiers"][rank - 1]["modifier"].as_str().unwrap().to_string();
        assert_eq!(v["modifiers"][rank - 1]["block_height_log2"], h);
        let l = json(&[
            "layout",
            "--gpu",
            "ga102",
            "--format",
            "A8B8G8R8",
            "--size",
            "1024x1024",
            "--modifier",
            &m,
            "--json",
        ]);
        assert_eq!(l["block_log2_effective"], serde_json::json!([0, h, 0]), "{m}");
        assert_eq!((l["gob_order"].as_str(), l["gob_order_source"].as_str()), (Some("turing"), Some("modifier")));
        assert_eq!(l["modifier"].as_str(), Some(m.as_str()));
    }
    // Linear: pitch layout with NVK's 128-byte rows (300 x 4 = 1200 -> 1280).
    let l =
        json(&["layout", "--gpu", "ga102", "--format", "A8B8G8R8", "--size", "300x20", "--modifier", "0", "--json"]);
    assert_eq!((l["layout"].as_str(), l["pitch_bytes"].as_u64()), (Some("pitch"), Some(1280)), "{l}");
    // addr: element (16, 8) with 8-gob blocks on GA102: the second block (4096) plus one gob (512).
    let (rc, out, err) = nvsurf(&[
        "addr",
        "--gpu",
        "ga102",
        "--format",
        "A8B8G8R8",
        "--size",
        "256x256",
        "--modifier",
        "0x0300000000606013",
        "--at",
        "16,8",
    ]);
    assert_eq!(rc, 0, "{err}");
    assert!(out.starts_with("0x1200"), "{out}");
    // texture: the block comes from the modifier.
    let t = json(&[
        "texture",
        "--gpu",
        "tu102",
        "--format",
        "A8B8G8R8",
        "--size",
        "512x512",
        "--modifier",
        "0x0300000000606012",
        "--json",
    ]);
    assert_eq!(t["levels"][0]["block_log2"], serde_json::json!([0, 2, 0]), "{t}");
}

#[test]
fn tile_and_untile_take_the_modifier() {
    let tmp = Scratch::new("modifier");
    let (lin, dump, back) = (tmp.path("lin.raw"), tmp.path("dump.raw"), tmp.path("back.raw"));
    let bytes: Vec<u8> = (0..128u32 * 64 * 4).map(|i| (i * 7 % 251) as u8).collect();
    std::fs::write(&lin, &bytes).unwrap();
    let surf = ["--gpu", "gm204", "--format", "A8B8G8R8", "--size", "128x64", "--modifier", "0x03000000004fe013"];
    let mut a = vec!["tile"];
    a.extend(surf);
    a.extend(["--input", lin.to_str().unwrap(), "--output", dump.to_str().unwrap()]);
    let (rc, _, err) = nvsurf(&a);
    assert_eq!(rc, 0, "{err}");
    // The same bytes with the modifier's settings spelled out.
    let explicit = tmp.path("explicit.raw");
    let (rc, _, err) = nvsurf(&[
        "tile",
        "--gpu",
        "gm204",
        "--format",
        "A8B8G8R8",
        "--size",
        "128x64",
        "--block-log2",
        "0,3,0",
        "--gob",
        "fermi",
        "--input",
        lin.to_str().unwrap(),
        "--output",
        explicit.to_str().unwrap(),
    ]);
    assert_eq!(rc, 0, "{err}");
    assert!(std::fs::read(&dump).unwrap() == std::fs::read(&explicit).unwrap());
    let mut a = vec!["untile"];
    a.extend(surf);
    a.extend(["--input", dump.to_str().unwrap(), "--output", back.to_str().unwrap()]);
    let (rc, _, err) = nvsurf(&a);
    assert_eq!(rc, 0, "{err}");
    assert!(std::fs::read(&back).unwrap() == bytes);
}

#[test]
fn modifiers_that_do_not_fit_are_refused_in_one_line() {
    let base = ["layout", "--gpu", "gm204", "--format", "A8B8G8R8", "--size", "256x256"];
    let with = |extra: &[&'static str]| -> Vec<&'static str> { [&base[..], extra].concat() };
    // A Turing modifier on Maxwell; a desktop one on Tegra X1; a Turing kind 8 on Turing.
    refused(&with(&["--modifier", "0x0300000000606013"]), "gob kind generation 2 (turing) does not fit");
    refused(
        &["layout", "--gpu", "gm20b", "--format", "A8B8G8R8", "--size", "64x64", "--modifier", "0x03000000004fe013"],
        "sector layout 1 (desktop) does not fit",
    );
    refused(
        &["layout", "--gpu", "tu102", "--format", "A8B8G8R8", "--size", "64x64", "--modifier", "0x0300000000608013"],
        "PTE kind 0x8 does not fit",
    );
    refused(&with(&["--modifier", "0x0300000000cfe013"]), "compression 1 (rop3d-layout1) is not supported");
    // Flags that contradict the modifier.
    refused(&with(&["--modifier", "0x03000000004fe013", "--layout", "pitch"]), "conflicts with modifier");
    refused(&with(&["--modifier", "0x03000000004fe013", "--block-log2", "0,4,0"]), "the modifier's block is 0,3,0");
    refused(&with(&["--modifier", "0x03000000004fe013", "--gob", "turing"]), "names the fermi order");
    refused(&with(&["--modifier", "0", "--gob", "fermi"]), "a linear image has no gobs");
    // Depth formats and 3D textures.
    refused(
        &["layout", "--gpu", "tu102", "--format", "Z16", "--size", "64x64", "--modifier", "0x0300000000606013"],
        "depth and stencil",
    );
    refused(
        &[
            "texture",
            "--gpu",
            "tu102",
            "--type",
            "3d",
            "--format",
            "A8B8G8R8",
            "--size",
            "64x64x4",
            "--modifier",
            "0x0300000000606013",
        ],
        "describes a 2D image",
    );
    // Agreeing flags are fine.
    let (rc, _, err) = nvsurf(&with(&["--modifier", "0x03000000004fe013", "--block-log2", "0,3,0", "--gob", "fermi"]));
    assert_eq!(rc, 0, "{err}");
}

#[test]
fn storage_suggest_driver_nvk() {
    // Maxwell 4-byte colour: nil's C32_2C (0xd8) where gallium keeps GENERIC_16BX2 (0xfe).
    let n = json(&["storage", "suggest", "--gpu", "gm107", "--format", "A8B8G8R8", "--driver", "nvk", "--json"]);
    assert_eq!(
        (n["storage_type"].as_u64(), n["name"].as_str(), n["driver"].as_str()),
        (Some(0xd8), Some("C32_2C"), Some("nvk"))
    );
    assert_eq!(n["uncompressed"]["storage_type"], 0xfe);
    let g = json(&["storage", "suggest", "--gpu", "gm107", "--format", "A8B8G8R8", "--json"]);
    assert_eq!((g["storage_type"].as_u64(), g["driver"].as_str()), (Some(0xfe), Some("gallium")));
    // Every key gallium's JSON had is still there.
    for k in ["gpu", "format", "ms_mode", "storage_type", "name", "compression", "uncompressed", "source", "notes"] {
        assert!(n.get(k).is_some() && g.get(k).is_some(), "{k}");
    }
    // Turing colour: GENERIC_MEMORY_COMPRESSIBLE (8); Z32 float too; Z16 with 4 samples on Pascal: Z16_MS4_2C (4).
    let n = json(&["storage", "suggest", "--gpu", "tu102", "--format", "A8B8G8R8", "--driver", "nvk", "--json"]);
    assert_eq!(n["storage_type"], 8);
    let n = json(&["storage", "suggest", "--gpu", "tu102", "--format", "Z32", "--driver", "nvk", "--json"]);
    assert_eq!(n["storage_type"], 8);
    let n = json(&[
        "storage",
        "suggest",
        "--gpu",
        "gp104",
        "--format",
        "Z16",
        "--ms-mode",
        "ms4",
        "--driver",
        "nvk",
        "--json",
    ]);
    assert_eq!((n["storage_type"].as_u64(), n["name"].as_str()), (Some(4), Some("Z16_MS4_2C")));
    refused(&["storage", "suggest", "--gpu", "gm107", "--format", "4", "--driver", "nvx"], "unknown driver");
    refused(&["storage", "suggest", "--gpu", "g84", "--format", "4", "--driver", "nvk"], "Fermi (GF100) and later");
}
