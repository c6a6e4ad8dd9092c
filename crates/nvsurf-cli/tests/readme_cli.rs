//! What the README shows works as it says: its picture is what `layout --map --svg` draws
//! today (docs/img/blocklinear.svg), every example command that needs no input file runs, and
//! one GPU name means the same in `layout` and `xf` (`--gpu g70` is NV47 in both), and the
//! flag aliases of docs/names.md answer as the flags they stand for.

use std::process::Command;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../");

fn nvsurf(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nvsurf")).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// The README's picture command, as the README's caption gives it.
const PICTURE: &[&str] = &[
    "layout",
    "--gpu",
    "gf100",
    "--gob",
    "vm",
    "--elem-size",
    "16",
    "--size",
    "8x32",
    "--block-log2",
    "0,1,0",
    "--map",
    "--svg",
];

#[test]
fn the_readme_picture_is_what_nvsurf_draws() {
    let (code, svg, err) = nvsurf(PICTURE);
    assert_eq!(code, 0, "{err}");
    let committed = std::fs::read_to_string(format!("{ROOT}docs/img/blocklinear.svg")).unwrap();
    assert_eq!(svg, committed, "regenerate docs/img/blocklinear.svg with: nvsurf {}", PICTURE.join(" "));
    let readme = std::fs::read_to_string(format!("{ROOT}README.md")).unwrap();
    let caption = format!("nvsurf {}", PICTURE.join(" "));
    assert!(readme.replace('\n', " ").contains(&caption), "the README's caption names: {caption}");
}

#[test]
fn svg_needs_map_and_refuses_large_slices() {
    let (code, _, err) = nvsurf(&["layout", "--gpu", "gf100", "--elem-size", "4", "--size", "8x8", "--svg"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) =
        nvsurf(&["layout", "--gpu", "gf100", "--elem-size", "4", "--size", "128x64", "--map", "--svg"]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("4096"), "{err}");
}

#[test]
fn the_readme_examples_without_files_run() {
    let readme = std::fs::read_to_string(format!("{ROOT}README.md")).unwrap();
    let mut ran = 0;
    for line in readme.lines() {
        let Some(cmd) = line.trim().strip_prefix("nvsurf ") else { continue };
        if cmd.contains("--input") || cmd.contains("--svg") {
            continue;
        }
        let args: Vec<String> = cmd
            .split_whitespace()
            .map(|a| if a.ends_with(".xft") { format!("{ROOT}{a}") } else { a.to_string() })
            .collect();
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, _, err) = nvsurf(&refs);
        assert_eq!(code, 0, "README: nvsurf {cmd}: {err}");
        ran += 1;
    }
    assert!(ran >= 2, "the README's file-free examples: {ran}");
}

#[test]
fn one_gpu_name_table_serves_layout_and_xf() {
    let trace = format!("{ROOT}crates/nvsurf-cli/tests/data/xf/hazards.xft");
    let (c47, o47, e47) = nvsurf(&["xf", "decode", "--gpu", "nv47", &trace]);
    let (c70, o70, e70) = nvsurf(&["xf", "decode", "--gpu", "g70", &trace]);
    assert_eq!((c70, &o70), (c47, &o47), "g70 against nv47: {e70} / {e47}");
    let (code, _, err) = nvsurf(&["layout", "--gpu", "g70", "--elem-size", "4", "--size", "64x64"]);
    assert_eq!(code, 0, "{err}");
    // A GPU the surfaces know but without an XF unit: one line naming it.
    let (code, _, err) = nvsurf(&["xf", "decode", "--gpu", "g80", &trace]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("g80") && err.contains("no XF unit") && err.lines().count() == 1, "{err}");
    // A name nobody knows keeps nvxf's suggestions.
    let (code, _, err) = nvsurf(&["xf", "decode", "--gpu", "nv2o", &trace]);
    assert!(code == 2 && err.contains("did you mean"), "{err}");
}

#[test]
fn the_names_of_docs_names_md_are_flag_aliases() {
    // `--platform`, `--gob-order` and `--texture-type` (the C field names) are `--gpu`, `--gob`
    // and `--type`: the same answer, byte for byte.
    let old = ["texture", "--gpu", "gm20b", "--format", "bc7", "--size", "64x64", "--type", "cube", "--gob", "vm"];
    let new = [
        "texture",
        "--platform",
        "gm20b",
        "--format",
        "bc7",
        "--size",
        "64x64",
        "--texture-type",
        "cube",
        "--gob-order",
        "vm",
    ];
    for json in [false, true] {
        let mut a: Vec<&str> = old.to_vec();
        let mut b: Vec<&str> = new.to_vec();
        if json {
            a.push("--json");
            b.push("--json");
        }
        let (ca, oa, ea) = nvsurf(&a);
        let (cb, ob, eb) = nvsurf(&b);
        assert_eq!(ca, 0, "{ea}");
        assert_eq!((cb, ob), (ca, oa), "{eb}");
    }
    let names = std::fs::read_to_string(format!("{ROOT}docs/names.md")).unwrap();
    for alias in ["`--platform`", "`--gob-order`", "`--texture-type`", "`gob_order`", "`texture_type`"] {
        assert!(names.contains(alias), "docs/names.md names {alias}");
    }
}
