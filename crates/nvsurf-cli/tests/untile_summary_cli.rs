//! What `untile` says beyond its summary line: a note when a whole texture is read from a dump
//! that holds more than it (a cube dump untiled as one layer), and the `--json` summary.

mod pictures;
use pictures::*;
mod scratch;
use scratch::Scratch;

const TEX: [&str; 10] =
    ["--gpu", "switch", "--format", "bc7", "--size", "64x64", "--texture", "--levels", "7", "--force"];

fn texture_bytes(extra: &[&str]) -> u64 {
    let mut a = vec!["texture", "--json", "--gpu", "switch", "--format", "bc7", "--size", "64x64", "--levels", "7"];
    a.extend_from_slice(extra);
    let (code, out, err) = nvsurf(&a);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str::<serde_json::Value>(&out).unwrap()["size_bytes"].as_u64().unwrap()
}

#[test]
fn a_whole_texture_from_a_larger_dump_gets_one_note() {
    let tmp = Scratch::new("untile-note");
    let (cube, one) = (texture_bytes(&["--type", "cube"]), texture_bytes(&[]));
    let (dump, out) = (tmp.path("cube.bin"), tmp.path("out.bin"));
    std::fs::write(&dump, vec![7u8; cube as usize]).unwrap();
    let untile = |extra: &[&str]| {
        let mut a = vec!["untile"];
        a.extend(TEX);
        a.extend_from_slice(extra);
        a.extend(["--input", s(&dump), "--output", s(&out)]);
        let (code, _, err) = nvsurf(&a);
        assert_eq!(code, 0, "{err}");
        err
    };
    // The cube dump untiled as one layer: one note naming both sizes.
    let err = untile(&[]);
    let notes: Vec<&str> = err.lines().filter(|l| l.starts_with("note:")).collect();
    assert_eq!(notes.len(), 1, "{err}");
    assert!(notes[0].contains(&format!("{one} bytes")) && notes[0].contains(&format!("holds {cube} bytes")), "{err}");
    // With its offset: the note names it, and the bytes after the texture.
    let err = untile(&["--offset", "4096"]);
    let note = err.lines().find(|l| l.starts_with("note:")).unwrap_or_else(|| panic!("{err}"));
    assert!(note.contains("at offset 4096") && note.contains(&format!("last {}", cube - one - 4096)), "{note}");
    // As a cube: the texture is the whole dump, no note.
    let err = untile(&["--type", "cube"]);
    assert!(!err.contains("note:"), "{err}");
    // A surface (level 0 alone) read from a larger dump is normal: no note.
    let (code, _, err) = nvsurf(&[
        "untile",
        "--gpu",
        "switch",
        "--format",
        "bc7",
        "--size",
        "64x64",
        "--input",
        s(&dump),
        "--output",
        s(&out),
        "--force",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("note:"), "{err}");
}

#[test]
fn untile_prints_a_json_summary() {
    let tmp = Scratch::new("untile-json");
    let one = texture_bytes(&[]);
    let (dump, out) = (tmp.path("t.bin"), tmp.path("t.dds"));
    std::fs::write(&dump, vec![1u8; one as usize]).unwrap();
    let mut a = vec!["untile", "--json"];
    a.extend(TEX);
    a.extend(["--input", s(&dump), "--output", s(&out)]);
    let (code, stdout, err) = nvsurf(&a);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    assert_eq!(v["command"], "untile");
    assert_eq!(v["output"], s(&out));
    assert_eq!(v["platform"], "switch");
    assert_eq!(v["format"], "BPTC");
    assert_eq!(v["size_bytes"], one);
    // 64x64 BC7 with 7 levels: 16x16 + 8x8 + 4x4 + 2x2 + 1 + 1 + 1 blocks of 16 bytes.
    assert_eq!(v["linear_size_bytes"], (256 + 64 + 16 + 4 + 3) * 16);
    assert!(v["assumed"].as_str().unwrap().contains("nvn"), "{v}");
    // A surface: its own sizes.
    let (code, stdout, err) = nvsurf(&[
        "untile",
        "--json",
        "--gpu",
        "gf100",
        "--format",
        "RGBA8_UNORM",
        "--size",
        "16x8",
        "--block-log2",
        "0,0,0",
        "--input",
        s(&dump),
        "--output",
        s(&tmp.path("s.bin")),
        "--force",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!((v["size_bytes"].as_u64(), v["linear_size_bytes"].as_u64()), (Some(512), Some(512)));
    // stdout holding the data: refused in one line.
    let (code, _, err) = nvsurf(&[
        "untile",
        "--json",
        "--gpu",
        "gf100",
        "--format",
        "RGBA8_UNORM",
        "--size",
        "16x8",
        "--input",
        s(&dump),
        "--output",
        "-",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("json"), "{err}");
}
