//! `nvsurf layout` and `nvsurf addr` through the binary.

use std::process::Command;

const DOC: &str = include_str!("../../nvsurf/tests/data/doc_example_13x17x3.txt");
const EXAMPLE: [&str; 10] =
    ["--gpu", "g80", "--layout", "blocklinear", "--elem-size", "16", "--size", "13x17x3", "--block-log2", "1,1,1"];

fn nvsurf(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nvsurf")).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

fn cells(text: &str) -> Vec<Vec<Vec<String>>> {
    // Tables of hex cells, one per "z == N:" line.
    let mut out: Vec<Vec<Vec<String>>> = Vec::new();
    for line in text.lines() {
        if line.starts_with("z == ") {
            out.push(Vec::new());
        } else if (line.starts_with('V') || line.starts_with(' ')) && line[1..].starts_with('|') {
            let f: Vec<String> = line[2..].split('|').filter(|c| !c.is_empty()).map(|c| c.trim().to_string()).collect();
            if f[0].parse::<u32>().is_ok() {
                out.last_mut().unwrap().push(f[1..].to_vec());
            }
        }
    }
    out
}

#[test]
fn map_reproduces_the_document_example_with_e5_fixed() {
    let mut args = vec!["layout"];
    args.extend(EXAMPLE);
    args.push("--map");
    let (code, out, err) = nvsurf(&args);
    assert_eq!(code, 0, "{err}");
    let ours = cells(&out);
    let doc = cells(DOC);
    assert_eq!(ours.len(), 3);
    let mut diffs = Vec::new();
    for z in 0..3 {
        for y in 0..17 {
            for x in 0..13 {
                if ours[z][y][x] != doc[z][y][x] {
                    diffs.push(format!("{x},{y},{z}:{}->{}", doc[z][y][x], ours[z][y][x]));
                }
            }
        }
    }
    // ERRATA E5: exactly these 9 cells differ from the document.
    assert_eq!(
        diffs,
        [
            "9,4,1:0a10->0e10",
            "11,4,1:0a30->0e30",
            "9,5,1:0a50->0e50",
            "11,5,1:0a70->0e70",
            "9,6,1:0a90->0e90",
            "11,6,1:0ab0->0eb0",
            "9,7,1:0ad0->0ed0",
            "11,7,1:0af0->0ef0",
            "3,16,2:2030->5030",
        ]
    );
    // Same separators as the document: the lines that hold no E5 cell are identical.
    let doc_lines: Vec<&str> = DOC.lines().filter(|l| !l.starts_with('#')).collect();
    let our_lines: Vec<&str> = out.lines().collect();
    assert_eq!(doc_lines.len(), our_lines.len());
    let same = doc_lines.iter().zip(&our_lines).filter(|(a, b)| a.replace("bounduary", "boundary") == **b).count();
    assert_eq!(same, doc_lines.len() - 5, "only the 5 lines holding E5 cells may differ");
}

#[test]
fn json_has_the_contract_keys() {
    let mut args = vec!["layout"];
    args.extend(EXAMPLE);
    args.push("--json");
    let (code, out, _) = nvsurf(&args);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["size_bytes"], 0x6000);
    assert_eq!(v["gob_bytes"], 256);
    assert_eq!(v["block_bytes"], 0x800);
    assert_eq!(v["block_log2_effective"], serde_json::json!([1, 1, 1]));
    assert_eq!(v["blocks"], serde_json::json!([2, 3, 2]));
}

#[test]
fn addr_prints_hex_and_json() {
    for (at, want) in [("12,16,2", 0x5900u64), ("8,4,1", 0xe00), ("3,16,2", 0x5030), ("9,5,1", 0xe50)] {
        let mut args = vec!["addr"];
        args.extend(EXAMPLE);
        args.extend(["--at", at]);
        let (code, out, _) = nvsurf(&args);
        assert_eq!((code, out.trim()), (0, format!("{want:#x}").as_str()));
        args.extend(["--address", "0x100000", "--json"]);
        let (_, out, _) = nvsurf(&args);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["offset"], want);
        assert_eq!(v["address"], want + 0x100000);
    }
    let (code, out, _) =
        nvsurf(&["addr", "--gpu", "nv40", "--layout", "swizzled", "--elem-size", "4", "--size", "8x4", "--at", "3,2"]);
    assert_eq!((code, out.trim()), (0, "0x34")); // index 13 x 4 bytes (`docs/VECTORS.md`)
}

#[test]
fn bad_input_is_one_line_naming_field_value_rule() {
    let base = ["layout", "--gpu", "g80", "--elem-size", "4", "--size", "16x16", "--block-log2", "0,4,0"];
    for (extra, want) in [
        (&["--layout", "pitch", "--pitch", "100"][..], "pitch 100 is not a multiple of 64"),
        (&["--block-log2", "0,6,0"][..], "block_height_log2 6 is out of range 0..=5"),
        (&["--address", "0x80"][..], "address 128 is not a multiple of 256"),
        (&["--elem-size", "3"][..], "elem_size 3 is not allowed"),
        (&["--size", "0x16"][..], "width 0 is out of range"),
        (&["--size", "4294967295x4294967295x64"][..], "overflows the 40-bit address space"),
        (&["--gpu", "nv40", "--layout", "swizzled", "--size", "12x4"][..], "width 12 is not a power of two"),
        (&["--gpu", "gf10"][..], "unknown gpu 'gf10' (did you mean gf100"),
        (&["--binding", "color", "--block-log2", "2,0,0"][..], "block_width_log2 2 is not supported"),
        (&["--gob", "tegra"][..], "gob order tegra is not supported"),
    ] {
        let mut args: Vec<&str> = base.to_vec();
        args.extend(extra);
        let (code, out, err) = nvsurf(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: ") && err.contains(want), "{args:?}: {err}");
    }
    let (code, _, err) = nvsurf(&[
        "addr",
        "--gpu",
        "g80",
        "--elem-size",
        "4",
        "--size",
        "16x16",
        "--block-log2",
        "0,4,0",
        "--at",
        "16,0",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("x 16 is outside the surface"), "{err}");
}

#[test]
fn closed_stdout_is_not_a_panic() {
    use std::io::Read;
    let mut child = Command::new(env!("CARGO_BIN_EXE_nvsurf"))
        .args(["layout", "--gpu", "g80", "--elem-size", "16", "--size", "64x64x8", "--block-log2", "1,1,1", "--map"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.as_mut().unwrap().read_exact(&mut first).unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    // A closed pipe is a failed write like any other: one line naming stdout, status 2.
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: cannot write the map to stdout: Broken pipe"), "{err}");
}

/// A map over --map-limit is refused in one line, alone: no "assumed" line before it (that
/// line goes beside a map that was drawn).
#[test]
fn a_map_over_its_limit_is_one_error_line() {
    let (code, out, err) =
        nvsurf(&["layout", "--gpu", "gf100", "--elem-size", "4", "--size", "300x300", "--map", "--map-limit", "65536"]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(
        err,
        "error: map 300x300x1 is not supported: a map is drawn for at most 65536 elements; use a smaller --size or \
         raise --map-limit\n"
    );
    // Under the limit, the map is drawn and what was assumed follows on stderr.
    let (code, out, err) = nvsurf(&["layout", "--gpu", "gf100", "--elem-size", "4", "--size", "30x30", "--map"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("z == 0:"), "{out}");
    assert!(err.starts_with("assumed: ") && err.lines().count() == 1, "{err}");
}

/// `--map` is written as it is drawn: a 2048x2048 map (about 38 MB of text) under a 36 MB
/// address-space limit (the debug binary and its libraries map about 24 MB of it: 20 MB, the
/// limit before, stopped the loader once the binary's text passed 18 MB), the same bytes as a
/// small map built whole; a failed write is an error that names its cause.
#[test]
fn large_maps_stream_and_write_errors_are_named() {
    let sh = |script: &str| {
        // One malloc arena, so that glibc's per-thread reservations do not race the limit.
        let out = Command::new("sh")
            .arg("-c")
            .arg(script)
            .env("N", env!("CARGO_BIN_EXE_nvsurf"))
            .env("MALLOC_ARENA_MAX", "1")
            .output()
            .unwrap();
        (out.status.code().unwrap_or(-1), out.stdout, String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let big = "layout --gpu gf100 --elem-size 4 --size 2048x2048 --block-log2 0,4,0 --map --map-limit 0x400000";
    let (code, out, err) = sh(&format!("ulimit -v 36000 && $N {big} | wc -l"));
    assert_eq!(code, 0, "{err}");
    // (Building it whole, as before session 11, fails there.) The legend (6 lines), then the table: "z == 0:", " x -->", 3 header lines, 1024 rows
    // and a rule after every gob row of 8.
    let lines: usize = String::from_utf8(out).unwrap().trim().parse().unwrap();
    assert_eq!(lines, 6 + 2 + 3 + 2048 + 2048 / 8, "{err}");
    let (code, _, err) = sh(&format!("$N {big} > /dev/full"));
    assert!(code == 2 && err.starts_with("error: cannot write the map to stdout: No space left on device"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// `addr --box`: the byte ranges that hold a box. On the document's example (13x17x3 of
/// 16-byte elements, blocks of 2x2x2 gobs at address 0x1000) the ranges are the box's slice of
/// each block it touches, they add up to `bytes`, every element of the box lies in one of
/// them as `addr --at` places it, and the text form lists the same ranges.
#[test]
fn addr_box_lists_the_ranges_that_hold_the_box() {
    let mut args: Vec<&str> = EXAMPLE.to_vec();
    args.extend(["--address", "0x1000"]);
    let run = |extra: &[&str]| {
        let mut a = vec!["addr"];
        a.extend(&args);
        a.extend(extra);
        let (code, out, err) = nvsurf(&a);
        assert_eq!(code, 0, "{a:?}: {err}");
        out
    };
    // Rows 5..9 lie in block rows 0 and 1 (8 rows each), x 3..12 (bytes 48..192) in both block
    // columns (128 bytes each): 4 blocks of 0x800 bytes, 2 slices deep, of which the box (slice
    // 1) needs the second half of each. x 3..8 (bytes 48..128) is block column 0: 2 halves.
    let half = |block: u64| (0x1000 + block * 0x800 + 0x400, block * 0x800 + 0x400, 0x400);
    for (boxed, want) in
        [("3,5,1,9,4,1", vec![half(0), half(1), half(2), half(3)]), ("3,5,1,5,4,1", vec![half(0), half(2)])]
    {
        let v: serde_json::Value = serde_json::from_str(&run(&["--box", boxed, "--json"])).unwrap();
        let pieces: Vec<(u64, u64, u64)> = v["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p["address"].as_u64().unwrap(), p["offset"].as_u64().unwrap(), p["bytes"].as_u64().unwrap()))
            .collect();
        assert_eq!(pieces, want, "{boxed}");
        assert_eq!(pieces.iter().map(|p| p.2).sum::<u64>(), v["bytes"].as_u64().unwrap());
        let [x0, y0, z, w, h, _] =
            v["box"].as_array().unwrap().iter().map(|n| n.as_u64().unwrap()).collect::<Vec<_>>()[..]
        else {
            panic!("{v}")
        };
        for y in y0..y0 + h {
            for x in x0..x0 + w {
                let at = format!("{x},{y},{z}");
                let a: serde_json::Value = serde_json::from_str(&run(&["--at", &at, "--json"])).unwrap();
                let addr = a["address"].as_u64().unwrap();
                assert!(pieces.iter().any(|p| p.0 <= addr && addr + 16 <= p.0 + p.2), "({at}) at {addr:#x}");
            }
        }
        let text = run(&["--box", boxed]);
        let ranges: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(ranges.len(), pieces.len(), "{text}");
        for (line, p) in ranges.iter().zip(&pieces) {
            assert!(line.starts_with(&format!("{:#012x}..{:#012x}", p.0, p.0 + p.2)), "{line}");
        }
    }
    // --at and --box together, or a box outside the surface, are refused.
    let mut a = vec!["addr"];
    a.extend(&args);
    a.extend(["--at", "1,1,1", "--box", "0,0,0,1,1,1"]);
    assert_eq!(nvsurf(&a).0, 2);
    let mut a = vec!["addr"];
    a.extend(&args);
    a.extend(["--box", "10,0,0,4,1,1"]);
    let (code, _, err) = nvsurf(&a);
    assert_eq!(code, 2);
    assert!(err.contains("box x+w"), "{err}");
}
