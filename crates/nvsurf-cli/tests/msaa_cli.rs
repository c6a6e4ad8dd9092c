//! `nvsurf msaa` through the binary: the JSON keys and the pictures.

use serde_json::Value;
use std::process::Command;

mod scratch;
use scratch::Scratch;

fn nvsurf(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nvsurf")).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn json_has_the_contract_keys() {
    let (rc, out, _) = nvsurf(&["msaa", "--json"]);
    assert_eq!(rc, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    let modes = v.as_array().unwrap();
    assert_eq!(modes.len(), 11);
    for m in modes {
        for k in ["id", "names", "grid", "samples", "coverage"] {
            assert!(m.get(k).is_some(), "{k} missing in {m}");
        }
    }
    let cs8 = modes.iter().find(|m| m["id"] == 0xa).unwrap();
    assert_eq!(cs8["names"][0], "MS8_CS8");
    assert_eq!(cs8["grid"], serde_json::json!([4, 2]));
    // The document writes sample 1 as (0x0.6, 0x0.4) [1,0].
    assert_eq!(cs8["samples"][1]["position_raw"], serde_json::json!([6, 4]));
    assert_eq!(cs8["samples"][1]["grid_xy"], serde_json::json!([1, 0]));
    assert_eq!(cs8["coverage"][0]["id"], 8);
    assert_eq!(cs8["coverage"][0]["belongs"], serde_json::json!([1, 6, 3, 0]));
    // E3: mode 0x4 is MS8_ALT with 8 samples.
    let m4 = modes.iter().find(|m| m["id"] == 4).unwrap();
    assert_eq!(m4["names"][0], "MS8_ALT");
    assert_eq!(m4["samples"].as_array().unwrap().len(), 8);
    // Unknowns are null, never invented.
    let cs24 = modes.iter().find(|m| m["id"] == 0xb).unwrap();
    assert!(cs24["samples"][0]["position_raw"].is_null());
    assert_eq!(cs24["coverage"].as_array().unwrap().len(), 24);
    assert!(cs24["coverage"][0]["belongs"].is_null());
}

#[test]
fn text_for_one_mode_and_bad_names() {
    let (rc, out, _) = nvsurf(&["msaa", "--mode", "ms4_cs12"]);
    assert_eq!(rc, 0);
    assert!(out.contains("21-23: sample c associations: 1, 2, 3"), "{out}"); // E9
    assert!(!out.contains("mode 0x8"));
    let (rc, _, err) = nvsurf(&["msaa", "--mode", "ms8_cs9"]);
    assert_eq!(rc, 2);
    assert!(err.contains("MS8_CS8"), "{err}");
}

#[test]
fn pictures() {
    let tmp = Scratch::new("msaa");
    let dir = tmp.dir();
    let svg = dir.join("p.svg");
    let png = dir.join("p.png");
    assert_eq!(nvsurf(&["msaa", "--mode", "ms4_cs4", "--picture", svg.to_str().unwrap()]).0, 0);
    let text = std::fs::read_to_string(&svg).unwrap();
    // 4 full samples (filled) and 4 coverage samples (rings).
    assert_eq!(text.matches("fill=\"#c33\"").count(), 4);
    assert_eq!(text.matches("stroke=\"#36c\"").count(), 4);
    assert_eq!(nvsurf(&["msaa", "--mode", "ms8", "--picture", png.to_str().unwrap()]).0, 0);
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    assert_eq!(nvsurf(&["msaa", "--picture", dir.join("p.bmp").to_str().unwrap()]).0, 2);
}
