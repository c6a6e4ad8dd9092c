//! `nvsurf storage list|check|suggest` through the binary: exit codes and JSON keys.

use serde_json::Value;
use std::process::Command;

fn nvsurf(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nvsurf")).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn check_valid_exits_0() {
    let args =
        ["storage", "check", "--gpu", "g84", "--storage-type", "0x78", "--compression", "single", "--format", "4"];
    let (rc, out, _) = nvsurf(&[&args[..], &["--ms-mode", "ms4", "--binding", "color", "--json"]].concat());
    assert_eq!(rc, 0, "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["valid"], true);
    assert_eq!(v["reasons"].as_array().unwrap().len(), 0);
}

#[test]
fn check_invalid_exits_1_with_every_reason() {
    let (rc, out, _) = nvsurf(&[
        "storage",
        "check",
        "--gpu",
        "g80",
        "--storage-type",
        "0x79",
        "--compression",
        "double",
        "--format",
        "16",
        "--ms-mode",
        "ms4_cs4",
        "--memory",
        "sysram",
        "--binding",
        "color",
        "--layout",
        "pitch",
        "--json",
    ]);
    assert_eq!(rc, 1);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["valid"], false);
    let rules: Vec<&str> = v["rules"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
    assert_eq!(
        rules,
        [
            "compression-type",
            "compression-memory",
            "sysram-type",
            "pitch-type",
            "ms-layout",
            "type-samples",
            "type-format"
        ]
    );
    assert_eq!(v["reasons"].as_array().unwrap().len(), 7);
    // Text form lists them too.
    let (rc, out, _) = nvsurf(&["storage", "check", "--gpu", "g80", "--storage-type", "0x70", "--memory", "sysram"]);
    assert_eq!(rc, 1);
    assert!(out.contains("[sysram-type]"), "{out}");
}

#[test]
fn check_with_format_names_and_bad_input() {
    // A zeta name from the catalogue and a zeta type.
    let (rc, out, _) = nvsurf(&[
        "storage",
        "check",
        "--gpu",
        "g80",
        "--storage-type",
        "Z24_C8_MS8_CS8",
        "--format",
        "Z24_C8",
        "--ms-mode",
        "ms8_cs8",
        "--binding",
        "zeta",
    ]);
    assert_eq!(rc, 0, "{out}");
    let (rc, _, err) =
        nvsurf(&["storage", "check", "--gpu", "g80", "--storage-type", "0x70", "--compression", "triple"]);
    assert_eq!(rc, 2);
    assert!(err.contains("compression"), "{err}");
}

#[test]
fn list_and_suggest() {
    let (rc, out, _) = nvsurf(&["storage", "list", "--gpu", "g80", "--json"]);
    assert_eq!(rc, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    let ids: Vec<u64> = v.as_array().unwrap().iter().map(|t| t["id"].as_u64().unwrap()).collect();
    assert!(ids.contains(&0x24) && ids.contains(&0x70));
    assert!(!ids.contains(&0x44), "BLOCKLINEAR_24 is G200+");
    let (rc, out, _) = nvsurf(&["storage", "list"]);
    assert_eq!(rc, 0);
    assert!(out.contains("GF100 storage kinds") && out.contains("Z24_C8_MS8_CS24"));
    let (rc, out, _) =
        nvsurf(&["storage", "suggest", "--gpu", "nv50", "--format", "Z24_S8", "--ms-mode", "ms4", "--json"]);
    assert_eq!(rc, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!((v["storage_type"].as_u64(), v["compression"].as_str()), (Some(0x2a), Some("DOUBLE")));
    let (rc, out, _) = nvsurf(&["storage", "suggest", "--gpu", "gf100", "--format", "8", "--ms-mode", "ms4"]);
    assert_eq!(rc, 0);
    assert!(out.contains("0xed"), "{out}");
}

#[test]
fn suggest_12_byte_format_agrees_with_check() {
    // Review finding 5: suggest rejected 32_32_32 with the MS8 16-byte rule at ms1.
    let (rc, out, err) = nvsurf(&["storage", "suggest", "--gpu", "gf100", "--format", "32_32_32", "--json"]);
    assert_eq!(rc, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let id = v["storage_type"].as_u64().unwrap();
    let (rc, out, _) =
        nvsurf(&["storage", "check", "--gpu", "gf100", "--storage-type", &id.to_string(), "--format", "32_32_32"]);
    assert_eq!(rc, 0, "{out}");
    let (rc, _, err) = nvsurf(&["storage", "suggest", "--gpu", "gf100", "--format", "32_32_32", "--ms-mode", "ms4"]);
    assert_eq!(rc, 0, "{err}");
    for bad in ["0", "3", "4294967295"] {
        let (rc, _, err) = nvsurf(&["storage", "suggest", "--gpu", "gf100", "--format", bad]);
        assert_eq!(rc, 2, "{bad}");
        assert!(err.contains(&format!("elem_size {bad} is not allowed: must be 1, 2, 4, 8 or 16 bytes")), "{err}");
        assert!(!err.contains("MS8"), "{err}");
    }
}
