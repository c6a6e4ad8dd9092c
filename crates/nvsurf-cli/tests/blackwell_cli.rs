//! #40 items 5-7 through the CLI: the Blackwell chips and their defaults (Mesa nil
//! `src/nouveau/nil/tiling.rs` `GOBType::choose`, commit 157fa86f6d5d), the Fermi order as nil's
//! `CopyGOBFermi` runs it (`copy.rs`) beside the doc comment's, and depth layouts whose CPU byte
//! order is unknown: `texture` and `layout` answer, commands that move bytes refuse.

use serde_json::Value;
use std::process::Command;

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

#[test]
fn fermi_is_nils_code_and_fermi_comment_its_comment() {
    // One 8-row gob of 1-byte elements: element (0, 4) is byte column 0 of row 4.
    for (gob, want) in [("fermi", 224), ("fermi-comment", 160)] {
        let v = json(&format!("addr --gpu gf100 --elem-size 1 --size 64x8 --gob {gob} --at 0,4 --json"));
        assert_eq!(v["offset"], want, "{gob}");
        assert_eq!(v["gob_order"], gob);
    }
    // GF100's default colour order is the code's.
    let v = json("addr --gpu gf100 --elem-size 1 --size 64x8 --at 0,4 --json");
    assert_eq!((v["offset"].as_u64(), v["gob_order"].as_str()), (Some(224), Some("fermi")));
}

#[test]
fn blackwell_chips_take_nils_orders_by_element_size() {
    for gpu in ["gb100", "gb102", "gb202", "gb203", "gb205", "gb206", "gb207", "gb20b"] {
        for (format, want) in [
            ("R8_UNORM", "blackwell8"),
            ("R16_UNORM", "blackwell16"),
            ("Z16", "blackwell16"),
            ("A8B8G8R8", "turing"),
            ("bc7", "turing"),
        ] {
            let v = json(&format!("texture --gpu {gpu} --format {format} --size 64x64 --json"));
            assert_eq!(
                (v["gob_order"].as_str(), v["gob_order_source"].as_str()),
                (Some(want), Some("default")),
                "{gpu} {format}"
            );
            assert_eq!((v["gob_order_known"].as_bool(), v["block_policy"].as_str()), (Some(true), Some("nvidia")));
        }
    }
}

#[test]
fn blackwell8_tiles_as_nils_copy_code() {
    // CopyGOBBlackwell2D1BPP: the 8-byte line at byte column 8c, row r lands at 64c + 8r.
    let tmp = Scratch::new("blackwell8");
    let (lin, tiled, back) = (tmp.path("lin.bin"), tmp.path("tiled.bin"), tmp.path("back.bin"));
    let data: Vec<u8> = (0..64 * 8).map(|i| (i * 7 + i / 64) as u8).collect();
    std::fs::write(&lin, &data).unwrap();
    let s = |p: &std::path::Path| p.to_str().unwrap().to_string();
    let surf = ["--gpu", "gb202", "--format", "R8_UNORM", "--size", "64x8"];
    let (code, _, err) = nvsurf(&[&["tile"][..], &surf, &["--input", &s(&lin), "--output", &s(&tiled)]].concat());
    assert_eq!(code, 0, "{err}");
    let t = std::fs::read(&tiled).unwrap();
    assert_eq!(t.len(), 512);
    for y in 0..8usize {
        for x in 0..64usize {
            assert_eq!(t[64 * (x / 8) + 8 * y + x % 8], data[64 * y + x], "({x}, {y})");
        }
    }
    let (code, _, err) = nvsurf(&[&["untile"][..], &surf, &["--input", &s(&tiled), "--output", &s(&back)]].concat());
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read(&back).unwrap(), data);
}

#[test]
fn z24_on_blackwell_answers_its_geometry_and_refuses_to_move_bytes() {
    for format in ["Z24_S8", "S8_Z24", "Z24_X8"] {
        let v = json(&format!("texture --gpu gb202 --format {format} --size 300x200 --levels all --json"));
        assert!(v["gob_order"].is_null(), "{format}");
        assert_eq!((v["gob_order_source"].as_str(), v["gob_order_known"].as_bool()), (Some("unknown"), Some(false)));
        // The geometry is what any given order gives.
        let given =
            json(&format!("texture --gpu gb202 --format {format} --size 300x200 --levels all --gob turing --json"));
        assert_eq!((&v["size_bytes"], &v["levels"]), (&given["size_bytes"], &given["levels"]), "{format}");
        let (code, out, err) = nvsurf(&["texture", "--gpu", "gb202", "--format", format, "--size", "300x200"]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("gob order unknown") && out.lines().any(|l| l.starts_with("note: ")), "{out}");
        let (code, out, err) = nvsurf(&["layout", "--gpu", "gb202", "--format", format, "--size", "300x200"]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("order unknown") && out.lines().any(|l| l.starts_with("note: ")), "{out}");
        let l = json(&format!("layout --gpu gb202 --format {format} --size 300x200 --json"));
        assert_eq!((l["gob_order"].is_null(), l["gob_order_known"].as_bool()), (true, Some(false)));
        assert_eq!(
            l["size_bytes"],
            json(&format!("layout --gpu gb202 --format {format} --size 300x200 --gob vm --json"))["size_bytes"]
        );
        // Commands that move bytes (or place one) refuse in one line that says why.
        for cmd in [
            vec!["addr", "--at", "0,0"],
            vec!["untile", "--input", "/nonexistent", "--output", "/nonexistent.bin"],
            vec!["tile", "--input", "/nonexistent", "--output", "/nonexistent.bin"],
            vec!["layout", "--map"],
        ] {
            let args = [&cmd[..1], &["--gpu", "gb202", "--format", format, "--size", "300x200"], &cmd[1..]].concat();
            let (code, _, err) = nvsurf(&args);
            assert_eq!(code, 2, "{args:?}");
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
            assert!(err.contains("BlackwellZ24") && err.contains("--gob"), "{args:?}: {err}");
        }
    }
    // With the order given, bytes move.
    let v = json("addr --gpu gb202 --format Z24_S8 --size 300x200 --gob turing --at 0,4 --json");
    assert_eq!(v["offset"], 128); // Turing: row 4 starts the second 128-byte half of the column.
}
