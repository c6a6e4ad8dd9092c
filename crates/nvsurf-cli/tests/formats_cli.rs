//! `nvsurf formats`, `nvsurf decode` and `nvsurf convert` through the binary.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

mod scratch;
use scratch::Scratch;

fn nvsurf(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nvsurf")).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

fn json(args: &[&str]) -> Value {
    let (code, out, err) = nvsurf(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
}

fn pixels(args: &[&str]) -> Vec<Vec<Value>> {
    let v = json(args);
    v["pixels"].as_array().unwrap().iter().map(|p| p.as_array().unwrap().clone()).collect()
}

#[test]
fn formats_json_has_the_contract_keys() {
    let all = json(&["formats", "--json"]);
    let rows = all.as_array().unwrap();
    for r in rows {
        for k in ["kind", "id", "names", "elem_size"] {
            assert!(r.get(k).is_some(), "missing {k} in {r}");
        }
    }
    let count = |k: &str| rows.iter().filter(|r| r["kind"] == k).count();
    // 62 texture ids 0x01-0x3e (0x06, 0x0a, 0x0b, 0x19, 0x1a are ETC2/EAC) and 14 ASTC ids,
    // 62 color, 10 zeta.
    assert_eq!((count("texture"), count("color"), count("zeta")), (76, 62, 10));
    let zeta = json(&["formats", "--kind", "zeta", "--json"]);
    assert!(zeta.as_array().unwrap().iter().all(|r| r["kind"] == "zeta"));
    let z16 = zeta.as_array().unwrap().iter().find(|r| r["id"] == 0x16).unwrap();
    assert_eq!(z16["textures"][0]["texture"], 0x2b); // ERRATA E2
    let (code, out, _) = nvsurf(&["formats", "--kind", "color"]);
    assert_eq!(code, 0);
    assert!(out.contains("RGBA8_UNORM") && out.contains("A8B8G8R8"));
    let (code, _, err) = nvsurf(&["formats", "--kind", "colour-ish"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: unknown format kind"), "{err}");
}

#[test]
fn decode_every_name_form() {
    for name in ["8_8_8_8", "RGBA8_UNORM", "a8b8g8r8", "tex:0x08", "color:0xd5", "color:213"] {
        let p = pixels(&["decode", "--format", name, "--hex", "ff 00 80 ff", "--json"]);
        assert_eq!(p.len(), 1, "{name}");
        assert_eq!(p[0][0].as_f64(), Some(1.0), "{name}");
        // Floats print as the shortest decimal that reads back as the same f32.
        assert_eq!(p[0][2].as_f64().map(|x| x as f32), Some(128f32 / 255.0), "{name}");
    }
    // BGRA: the color format implies the swizzle.
    let p = pixels(&["decode", "--format", "BGRA8_UNORM", "--hex", "ff000000", "--json"]);
    assert_eq!(p[0][2].as_f64(), Some(1.0));
}

#[test]
fn decode_components_and_swizzle() {
    let p = pixels(&[
        "decode",
        "--format",
        "tex:0x08",
        "--components",
        "sint,uint,snorm,unorm",
        "--swizzle",
        "c1,c0,one_int,c2",
        "--hex",
        "fe05807f",
        "--json",
    ]);
    // Integers for sint/uint (and one_int), floats otherwise; snorm -128 reads -1.
    assert_eq!(p[0], vec![Value::from(5), Value::from(-2), Value::from(1), Value::from(-1.0)]);
    let (code, _, err) = nvsurf(&["decode", "--format", "8_8", "--components", "float", "--hex", "0000"]);
    assert_eq!(code, 2);
    assert!(err.contains("float needs a 32, 16, 11 or 10-bit field"), "{err}");
    let (code, _, err) = nvsurf(&["decode", "--format", "8_8", "--swizzle", "c0,c1", "--hex", "0000"]);
    assert_eq!(code, 2);
    assert!(err.contains("give 4"), "{err}");
}

#[test]
fn decode_multi_pixel_elements() {
    // YUV: two pixels; bitmap: 64; BC1: 16, row by row.
    let p = pixels(&["decode", "--format", "uyvy", "--hex", "10203040", "--json"]);
    assert_eq!(p.len(), 2);
    assert_eq!(p[1][1].as_f64().map(|x| x as f32), Some(0x40 as f32 / 255.0));
    let p = pixels(&["decode", "--format", "bitmap", "--hex", "0201000000000000", "--json"]);
    assert_eq!(p.len(), 64);
    let lit: Vec<usize> = (0..64).filter(|&i| p[i][0].as_f64() == Some(1.0)).collect();
    assert_eq!(lit, vec![1, 8]); // bit 1 = (1, 0), bit 8 = (0, 1)
    let p = pixels(&["decode", "--format", "dxt1", "--hex", "00f81f00e4e4e4e4", "--json"]);
    assert_eq!(p.len(), 16);
    let f32s: Vec<f32> = p[6].iter().map(|v| v.as_f64().unwrap() as f32).collect();
    assert_eq!(f32s, [170.0 / 255.0, 0.0, 85.0 / 255.0, 1.0]); // x=2, y=1: c2 = (2 red + blue) / 3
    let p = pixels(&["decode", "--format", "zeta:0x16", "--hex", "ffffff07", "--json"]);
    assert_eq!(p[0], vec![Value::from(1.0), Value::from(7), Value::from(0), Value::from(1.0)]);
}

#[test]
fn decode_bad_input_is_one_line() {
    for (args, want) in [
        (vec!["decode", "--format", "RGBA8_UNROM", "--hex", "00000000"], "did you mean RGBA8_UNORM"),
        (vec!["decode", "--format", "RGBA8_UNORM", "--hex", "000000"], "4-byte elements"),
        (vec!["decode", "--format", "RGBA8_UNORM", "--hex", "0x00000000"], "memory order"),
        (vec!["decode", "--format", "RGBA8_UNORM", "--hex", "zz000000"], "hex digits"),
        (vec!["decode", "--format", "tex:0x3f", "--hex", "00"], "no texture format has this id"),
    ] {
        let (code, out, err) = nvsurf(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty());
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

#[test]
fn decode_text_output() {
    let (code, out, _) = nvsurf(&["decode", "--format", "RGBA8_SINT", "--hex", "ff807f01"]);
    assert_eq!(code, 0);
    assert!(out.contains("r=-1 g=-128 b=127 a=1"), "{out}");
}

#[test]
fn convert_linear_elements_to_png_and_back() {
    let tmp = Scratch::new("formats-cli");
    // 6x4 RGBA8 elements -> PNG -> raw: identical bytes.
    let raw: Vec<u8> = (0..6 * 4 * 4).map(|i| (i * 11 % 256) as u8).collect();
    let bin = tmp.path("in.bin");
    std::fs::write(&bin, &raw).unwrap();
    let png = tmp.path("out.png");
    let back = tmp.path("back.bin");
    let s = |p: &PathBuf| p.to_str().unwrap().to_string();
    let (code, out, err) =
        nvsurf(&["convert", "--format", "RGBA8_UNORM", "--input", &s(&bin), "--size", "6x4", "--output", &s(&png)]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("wrote") && out.is_empty(), "status lines go to stderr: {out} {err}");
    let (code, _, err) = nvsurf(&["convert", "--format", "RGBA8_UNORM", "--input", &s(&png), "--output", &s(&back)]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read(&back).unwrap(), raw);
    // Raw input without --size is an error.
    let (code, _, err) = nvsurf(&["convert", "--format", "RGBA8_UNORM", "--input", &s(&bin), "--output", &s(&png)]);
    assert_eq!(code, 2);
    assert!(err.contains("--size"), "{err}");
}
