//! The copies behind the progress bar: on a terminal, large surfaces go in bands of 256 rows
//! and large textures subresource by subresource. `NVSURF_PROGRESS=always` takes those paths
//! off a terminal too, so their bytes are compared here with the one-go copies: surfaces with
//! boxes, padded linear pitches and slices, whole textures and their DDS form, one thread and
//! two.

use std::path::Path;
use std::process::Command;

mod scratch;
use scratch::Scratch;

const BIN: &str = env!("CARGO_BIN_EXE_nvsurf");

/// Runs `words` then `--flag path` pairs, with `NVSURF_PROGRESS=always` when `banded`; asserts
/// success and returns stderr.
fn run(banded: bool, words: &str, paths: &[(&str, &Path)]) -> String {
    let mut c = Command::new(BIN);
    c.args(words.split_whitespace());
    for (flag, p) in paths {
        c.arg(flag).arg(p);
    }
    c.env_remove("NVSURF_PROGRESS");
    if banded {
        c.env("NVSURF_PROGRESS", "always");
    }
    let out = c.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{words} {paths:?}: {err}");
    err
}

fn bytes(n: usize, seed: usize) -> Vec<u8> {
    (0..n).map(|i| ((i * 31 + seed) ^ (i >> 9)) as u8).collect()
}

#[test]
fn banded_surface_copies_equal_the_one_go_copies() {
    let tmp = Scratch::new("progress-surface");
    let d = tmp.dir();
    // (surface flags, box, linear pitch): 700 rows = bands of 256, 256 and 188; a 3D surface
    // of 3 slices; a box starting mid-band; a padded pitch.
    let cases = [
        ("--gpu gm20b --gob tegra --elem-size 4 --size 300x700 --block-log2 0,4,0", None, None),
        ("--gpu g80 --elem-size 8 --size 90x520x3 --block-log2 0,2,1", None, None),
        ("--gpu gf100 --elem-size 4 --size 300x700 --block-log2 0,3,0", Some("5,100,0,200,500,1"), Some("1000")),
        ("--gpu nv40 --layout swizzled --elem-size 2 --size 256x512", Some("0,3,0,256,300,1"), None),
        ("--gpu gf100 --layout pitch --pitch 1280 --elem-size 4 --size 300x600", None, Some("1300")),
    ];
    for (surface, region, pitch) in cases {
        let mut extra = String::new();
        if let Some(b) = region {
            extra += &format!(" --box {b}");
        }
        if let Some(p) = pitch {
            extra += &format!(" --linear-pitch {p}");
        }
        let tiled = d.join("tiled.bin");
        std::fs::write(&tiled, bytes(8 << 20, 1)).unwrap();
        for threads in ["1", "2"] {
            let flags = format!("{surface}{extra} --threads {threads}");
            let (one, banded) = (d.join("one.bin"), d.join("banded.bin"));
            run(false, &format!("untile {flags}"), &[("--input", &tiled), ("--output", &one)]);
            run(true, &format!("untile {flags}"), &[("--input", &tiled), ("--output", &banded)]);
            let linear = std::fs::read(&one).unwrap();
            assert!(linear == std::fs::read(&banded).unwrap(), "untile {flags}");
            // And back onto a dump of other bytes: everything outside the box is kept.
            let base = d.join("base.bin");
            std::fs::write(&base, bytes(8 << 20, 2)).unwrap();
            let (one, banded) = (d.join("one_t.bin"), d.join("banded_t.bin"));
            let paths = |out| [("--input", d.join("one.bin")), ("--onto", base.clone()), ("--output", out)];
            let p1 = paths(one.clone());
            let p2 = paths(banded.clone());
            run(false, &format!("tile {flags}"), &p1.iter().map(|(f, p)| (*f, p.as_path())).collect::<Vec<_>>());
            run(true, &format!("tile {flags}"), &p2.iter().map(|(f, p)| (*f, p.as_path())).collect::<Vec<_>>());
            assert!(std::fs::read(&one).unwrap() == std::fs::read(&banded).unwrap(), "tile {flags}");
        }
    }
}

#[test]
fn texture_copies_with_a_bar_equal_the_one_go_copies() {
    let tmp = Scratch::new("progress-texture");
    let d = tmp.dir();
    // A cube with a mip chain, an array of a compressed format (DDS), a 3D texture, a pre-G80
    // one and a BUFFER.
    let cases = [
        ("--gpu gm20b --gob tegra --elem-size 4 --size 200x200 --type cube --levels 5 --block-policy nvn", "bin"),
        ("--gpu gf100 --format bc1 --size 256x128 --type 2d_array --layers 3 --levels 4", "dds"),
        ("--gpu gk104 --elem-size 8 --size 64x40x20 --type 3d --levels 3", "bin"),
        ("--gpu nv40 --elem-size 4 --size 128x64 --type 2d --levels 4", "bin"),
        ("--gpu gf100 --elem-size 4 --size 5000 --type buffer", "bin"),
    ];
    for (tex, ext) in cases {
        let dump = d.join("dump.bin");
        std::fs::write(&dump, bytes(4 << 20, 3)).unwrap();
        for threads in ["1", "2"] {
            let flags = format!("--texture {tex} --threads {threads}");
            let (one, banded) = (d.join(format!("one.{ext}")), d.join(format!("banded.{ext}")));
            run(false, &format!("untile {flags}"), &[("--input", &dump), ("--output", &one)]);
            run(true, &format!("untile {flags}"), &[("--input", &dump), ("--output", &banded)]);
            assert!(std::fs::read(&one).unwrap() == std::fs::read(&banded).unwrap(), "untile {flags}");
            let (t1, t2) = (d.join("t1.bin"), d.join("t2.bin"));
            run(false, &format!("tile {flags}"), &[("--input", &one), ("--onto", &dump), ("--output", &t1)]);
            run(true, &format!("tile {flags}"), &[("--input", &one), ("--onto", &dump), ("--output", &t2)]);
            let t = std::fs::read(&t1).unwrap();
            assert!(t == std::fs::read(&t2).unwrap(), "tile {flags}");
            // Tiled back onto the dump it came from, the texture changes no byte of it.
            assert!(t == std::fs::read(&dump).unwrap(), "tile {flags} onto its own dump");
        }
    }
}
