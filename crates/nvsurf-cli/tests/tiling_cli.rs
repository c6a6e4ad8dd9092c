//! `nvsurf tile` / `nvsurf untile` through the binary.

use std::path::PathBuf;
use std::process::Command;

fn nvsurf(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nvsurf")).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nvsurf-tiling-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn pattern(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 7 + i / 251) as u8).collect()
}

const SURF: [&str; 8] = ["--gpu", "gm20b", "--elem-size", "4", "--size", "100x70", "--block-log2", "0,3,0"];

#[test]
fn round_trip_threads_box_and_pitch() {
    let lin = tmp("lin.bin");
    let tiled = tmp("tiled.bin");
    let back = tmp("back.bin");
    let data = pattern(100 * 70 * 4);
    std::fs::write(&lin, &data).unwrap();
    for gob in ["vm", "tegra"] {
        for threads in ["1", "2"] {
            let mut a = vec!["tile"];
            a.extend(SURF);
            a.extend([
                "--gob",
                gob,
                "--threads",
                threads,
                "--input",
                lin.to_str().unwrap(),
                "--output",
                tiled.to_str().unwrap(),
            ]);
            assert_eq!(nvsurf(&a).0, 0);
            // 100 x 4 bytes = 400 bytes = 7 gobs wide; 70 rows = 2 blocks of 8 gobs of 8 rows.
            assert_eq!(std::fs::metadata(&tiled).unwrap().len(), 7 * 2 * 8 * 512);
            let mut a = vec!["untile"];
            a.extend(SURF);
            a.extend([
                "--gob",
                gob,
                "--threads",
                threads,
                "--input",
                tiled.to_str().unwrap(),
                "--output",
                back.to_str().unwrap(),
            ]);
            assert_eq!(nvsurf(&a).0, 0);
            assert_eq!(std::fs::read(&back).unwrap(), data);
        }
    }
    // A box with a padded linear pitch: rows of 10 elements stored 48 bytes apart.
    let mut a = vec!["untile"];
    a.extend(SURF);
    a.extend([
        "--input",
        tiled.to_str().unwrap(),
        "--output",
        back.to_str().unwrap(),
        "--box",
        "5,3,0,10,4,1",
        "--linear-pitch",
        "48",
    ]);
    let _ = nvsurf(&[
        "tile",
        "--gpu",
        "gm20b",
        "--elem-size",
        "4",
        "--size",
        "100x70",
        "--block-log2",
        "0,3,0",
        "--input",
        lin.to_str().unwrap(),
        "--output",
        tiled.to_str().unwrap(),
    ]);
    assert_eq!(nvsurf(&a).0, 0);
    let got = std::fs::read(&back).unwrap();
    assert_eq!(got.len(), 48 * 4);
    for r in 0..4 {
        let want = &data[((3 + r) * 100 + 5) * 4..((3 + r) * 100 + 15) * 4];
        assert_eq!(&got[r * 48..r * 48 + 40], want, "row {r}");
    }
}

#[test]
fn short_input_says_how_many_bytes_were_expected() {
    let tiled = tmp("short.bin");
    std::fs::write(&tiled, vec![0u8; 1000]).unwrap();
    let out = tmp("never.bin");
    let mut a = vec!["untile"];
    a.extend(SURF);
    a.extend(["--input", tiled.to_str().unwrap(), "--output", out.to_str().unwrap()]);
    let (code, err) = nvsurf(&a);
    assert_eq!(code, 2);
    assert!(err.contains("holds 1000 bytes but 57344 bytes are expected"), "{err}");
    assert!(!out.exists(), "no output on error");
    let mut a = vec!["tile"];
    a.extend(SURF);
    a.extend(["--input", tiled.to_str().unwrap(), "--output", out.to_str().unwrap()]);
    let (code, err) = nvsurf(&a);
    assert_eq!(code, 2);
    assert!(err.contains("holds 1000 bytes but 28000 bytes are expected"), "{err}");
}

#[test]
fn existing_output_is_replaced() {
    let lin = tmp("lin2.bin");
    let out = tmp("out2.bin");
    std::fs::write(&lin, pattern(64 * 8)).unwrap();
    std::fs::write(&out, vec![0xffu8; 100_000]).unwrap();
    let (code, _) = nvsurf(&[
        "tile",
        "--gpu",
        "gf100",
        "--elem-size",
        "1",
        "--size",
        "64x8",
        "--block-log2",
        "0,0,0",
        "--input",
        lin.to_str().unwrap(),
        "--output",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert_eq!(std::fs::read(&out).unwrap(), pattern(64 * 8), "one gob, VM order: the same bytes");
}
