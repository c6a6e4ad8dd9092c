//! The texture workflow says what it does (issue #38, item 8): a whole texture to PNG points
//! to `--subresource` and `--split --output-format png`; `--split` writes one PNG per level and
//! layer (or raw `.bin`, the default) and says what it wrote; `tile --subresource` without
//! `--onto` says it zeroed the rest; a layer past the last names the flag that adds layers; the
//! summary of a whole texture gives its levels and layers; `--bc-quality --help` says what
//! `fast` changes; `convert --threads`.

use std::process::Command;

mod pictures;
use pictures::{nvsurf, read_png_any, s, write_png_rgba8};
mod scratch;
use scratch::Scratch;

/// Runs the binary with `args` and the environment `env`: (exit code, stdout, stderr).
fn run_env(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nvsurf")).args(args).envs(env.iter().copied()).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// `nvsurf` with `shape` (whitespace-separated words) and then `extra` (paths, values).
fn nv(shape: &str, extra: &[&str]) -> (i32, String, String) {
    let mut args: Vec<&str> = shape.split_whitespace().collect();
    args.extend_from_slice(extra);
    nvsurf(&args)
}

/// Asserts a refusal: exit 2, one `error:` line containing every one of `want`.
fn refused((code, _, err): (i32, String, String), want: &[&str]) {
    assert_eq!(code, 2, "{err}");
    assert!(err.starts_with("error: ") && err.lines().count() == 1, "{err}");
    for w in want {
        assert!(err.contains(w), "{w:?} not in {err}");
    }
}

/// Bytes that look like nothing in particular (a multiplicative hash of the index).
fn noise(n: usize, seed: u32) -> Vec<u8> {
    (0..n as u64).map(|i| ((i ^ u64::from(seed) << 32).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 56) as u8).collect()
}

/// The names in `dir`, sorted.
fn names(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    v.sort();
    v
}

/// A Switch RGBA8 cube of 24x24 px, 3 levels: 6 layers.
const CUBE: &str = "--texture --gpu switch --type cube --format RGBA8_UNORM --size 24x24 --levels 3";

#[test]
fn a_whole_texture_to_png_points_to_subresource_and_split() {
    let tmp = Scratch::new("flow-refusal");
    let dump = tmp.path("dump.bin");
    std::fs::write(&dump, noise(1 << 16, 7)).unwrap();
    let untile = format!("untile {CUBE}");
    refused(
        nv(&untile, &["--input", s(&dump), "--output", s(&tmp.path("x.png"))]),
        &["texture", "x.png", ".dds or .ktx2", "--subresource LEVEL,LAYER", "--split DIR --output-format png"],
    );
    // tile names its own flag; EXR has no --split form.
    refused(
        nv(&format!("tile {CUBE}"), &["--input", s(&tmp.path("x.png")), "--output", s(&dump)]),
        &["comes from .dds or .ktx2", "--subresource LEVEL,LAYER", "--split DIR --input-format png"],
    );
    let (code, _, err) = nv(&untile, &["--input", s(&dump), "--output", s(&tmp.path("x.exr"))]);
    refused((code, String::new(), err.clone()), &["for EXR give --subresource LEVEL,LAYER"]);
    assert!(!err.contains("--split"), "{err}");
    // --split takes raw (bin) or png, and png needs a format.
    refused(
        nv(&untile, &["--input", s(&dump), "--split", s(&tmp.path("d")), "--output-format", "exr"]),
        &["output-format exr", "--split writes raw (bin) or png files"],
    );
    refused(
        nv(
            "untile --texture --gpu switch --elem-size 4 --size 16x16",
            &["--input", s(&dump), "--split", s(&tmp.path("d")), "--output-format", "png"],
        ),
        &["format (none)", "give --format F"],
    );
    assert!(!tmp.path("d").exists() || names(&tmp.path("d")).is_empty());
}

/// Untiles every subresource of `shape` from `dump` with `--subresource` to a PNG and checks
/// that `dir`'s PNG of it decodes to the same samples.
fn same_as_subresource_pngs(tmp: &Scratch, shape: &str, dump: &str, dir: &std::path::Path, env: &[(&str, &str)]) {
    for name in names(dir) {
        let (layer, level) = name.trim_start_matches("layer").trim_end_matches(".png").split_once("_level").unwrap();
        let sub = tmp.path("sub.png");
        let words = format!("untile {shape}");
        let mut args: Vec<&str> = words.split_whitespace().collect();
        let sel = format!("{level},{layer}");
        args.extend(["--subresource", &sel, "--input", dump, "--output", s(&sub)]);
        let (code, _, err) = run_env(&args, env);
        assert_eq!(code, 0, "{err}");
        assert_eq!(read_png_any(&dir.join(&name)), read_png_any(&sub), "{name}");
    }
}

#[test]
fn split_png_is_one_picture_per_level_and_layer() {
    let tmp = Scratch::new("flow-split");
    let (linear, dump, dir) = (tmp.path("linear.bin"), tmp.path("dump.bin"), tmp.path("split"));
    // 24x24 + 12x12 + 6x6 RGBA8 texels, 6 faces.
    let bytes = noise((576 + 144 + 36) * 4 * 6, 11);
    std::fs::write(&linear, &bytes).unwrap();
    let (code, _, err) = nv(&format!("tile {CUBE}"), &["--input", s(&linear), "--output", s(&dump)]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) =
        nv(&format!("untile {CUBE}"), &["--input", s(&dump), "--split", s(&dir), "--output-format", "png"]);
    assert_eq!(code, 0, "{err}");
    let want: Vec<String> = (0..6).flat_map(|l| (0..3).map(move |m| format!("layer{l}_level{m}.png"))).collect();
    assert_eq!(names(&dir), want);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("(split: 18 PNG files, layer<L>_level<M>.png; 24x24 px, 3 levels, 6 layers (cube faces))"),
        "{err}"
    );
    same_as_subresource_pngs(&tmp, CUBE, s(&dump), &dir, &[]);
    // The level's own pixels: level 1 of face 4 is its part of the packed linear file.
    let (w, h, _, px) = read_png_any(&dir.join("layer4_level1.png"));
    let at = 4 * (576 + 144 + 36) * 4 + 576 * 4;
    assert_eq!((w, h), (12, 12));
    assert!(px == bytes[at..at + 144 * 4]);

    // And back: the PNGs tile to the same dump, and the summary says what was read.
    let back = tmp.path("back.bin");
    let (code, _, err) =
        nv(&format!("tile {CUBE}"), &["--split", s(&dir), "--input-format", "png", "--output", s(&back)]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains(&format!("from '{}' (split: 18 PNG files", s(&dir))), "{err}");
    assert!(std::fs::read(&back).unwrap() == std::fs::read(&dump).unwrap());
    // A PNG of the wrong size is refused, naming the level.
    std::fs::copy(dir.join("layer0_level0.png"), dir.join("layer2_level1.png")).unwrap();
    refused(
        nv(&format!("tile {CUBE}"), &["--split", s(&dir), "--input-format", "png", "--output", s(&back)]),
        &["layer2_level1.png", "24x24x1 px but the level is 12x12x1 px"],
    );

    // Raw stays the default (bin and raw name it too), and says so.
    for (flag, d) in [(None, "raw0"), (Some("bin"), "raw1"), (Some("raw"), "raw2")] {
        let d = tmp.path(d);
        let mut extra = vec!["--input", s(&dump), "--split", s(&d)];
        extra.extend(flag.map(|f| ["--output-format", f]).into_iter().flatten());
        let (code, _, err) = nv(&format!("untile {CUBE}"), &extra);
        assert_eq!(code, 0, "{err}");
        assert!(err.contains("(split: 18 raw .bin files, layer<L>_level<M>.bin; 24x24 px"), "{err}");
        assert_eq!(names(&d), want.iter().map(|n| n.replace(".png", ".bin")).collect::<Vec<_>>());
        assert!(std::fs::read(d.join("layer0_level0.bin")).unwrap() == bytes[..576 * 4]);
    }
}

#[test]
fn split_png_of_a_block_format_across_bands() {
    // BC1 2D array, 3 layers, 20x12 px (partial blocks below), 3 levels, with bands of a few
    // block rows: the split PNGs decode as the --subresource ones do.
    let tmp = Scratch::new("flow-bc1");
    const TEX: &str = "--texture --gpu switch --type 2d_array --layers 3 --format bc1 --size 20x14 --levels 3";
    let (dump, dir) = (tmp.path("dump.bin"), tmp.path("split"));
    std::fs::write(&dump, noise(1 << 17, 3)).unwrap();
    let env = [("NVSURF_BAND_BYTES", "40")];
    let args = format!("untile {TEX} --output-format png");
    let mut argv: Vec<&str> = args.split_whitespace().collect();
    argv.extend(["--input", s(&dump), "--split", s(&dir)]);
    let (code, _, err) = run_env(&argv, &env);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("split: 9 PNG files") && err.contains("20x14 px, 3 levels, 3 layers)"), "{err}");
    assert_eq!(names(&dir).len(), 9);
    same_as_subresource_pngs(&tmp, TEX, s(&dump), &dir, &env);
}

#[test]
fn a_float_format_warns_once_as_a_subresource_png_does() {
    let tmp = Scratch::new("flow-float");
    const TEX: &str = "--texture --gpu switch --format RGBA16_FLOAT --size 8x8 --levels 2";
    let dump = tmp.path("dump.bin");
    std::fs::write(&dump, noise(1 << 16, 5)).unwrap();
    let (code, _, err) =
        nv(&format!("untile {TEX}"), &["--input", s(&dump), "--split", s(&tmp.path("d")), "--output-format", "png"]);
    assert_eq!(code, 0, "{err}");
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning:")).collect();
    assert_eq!(warnings.len(), 1, "{err}");
    let (_, _, sub_err) =
        nv(&format!("untile {TEX}"), &["--subresource", "0,0", "--input", s(&dump), "--output", s(&tmp.path("s.png"))]);
    assert!(sub_err.contains(warnings[0]), "{sub_err}");
}

#[test]
fn tile_subresource_without_onto_says_the_rest_is_zero() {
    let tmp = Scratch::new("flow-zeroed");
    let (png, dump, out) = (tmp.path("l1.png"), tmp.path("dump.bin"), tmp.path("out.bin"));
    write_png_rgba8(&png, 12, 12, &noise(12 * 12 * 4, 9));
    let tile = format!("tile {CUBE} --subresource 1,2");
    let (code, _, err) = nv(&tile, &["--input", s(&png), "--output", s(&dump)]);
    assert_eq!(code, 0, "{err}");
    assert!(err
        .lines()
        .any(|l| l.starts_with("tile: wrote ") && l.contains("; other subresources zeroed (no --onto)")));
    let (code, _, err) = nv(&tile, &["--input", s(&png), "--onto", s(&dump), "--output", s(&out)]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("other subresources zeroed"), "{err}");
    // A plain surface has no other subresources.
    let (code, _, err) =
        nv("tile --gpu switch --format RGBA8_UNORM --size 12x12", &["--input", s(&png), "--output", s(&out)]);
    assert!(code == 0 && !err.contains("other subresources zeroed"), "{err}");
}

#[test]
fn a_layer_past_the_last_names_the_flag() {
    let tmp = Scratch::new("flow-layer");
    let dump = tmp.path("dump.bin");
    std::fs::write(&dump, noise(1 << 16, 1)).unwrap();
    let flat = "untile --texture --gpu switch --format RGBA8_UNORM --size 24x24 --levels 3 --subresource 0,4";
    refused(
        nv(flat, &["--input", s(&dump), "--output", s(&tmp.path("x.png"))]),
        &["subresource 0,4", "layer 4 is outside", "a cube needs --type cube, an array --layers N"],
    );
    refused(
        nv(&format!("untile {CUBE} --subresource 0,6"), &["--input", s(&dump), "--output", s(&tmp.path("x.png"))]),
        &["subresource 0,6", "layer 6 is outside", "a cube has 6 faces", "--type cube_array"],
    );
    refused(
        nv("texture --gpu switch --format RGBA8_UNORM --size 24x24 --at 0,1", &[]),
        &["at 0,1", "layer 1 is outside", "a cube needs --type cube, an array --layers N"],
    );
    assert!(!tmp.path("x.png").exists());
}

#[test]
fn the_summary_of_a_whole_texture_gives_levels_and_layers() {
    let tmp = Scratch::new("flow-summary");
    let dump = tmp.path("dump.bin");
    std::fs::write(&dump, noise(1 << 16, 2)).unwrap();
    let (code, _, err) = nv(&format!("untile {CUBE}"), &["--input", s(&dump), "--output", s(&tmp.path("c.dds"))]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("c.dds (24x24 px, 3 levels, 6 layers (cube faces), RGBA8_UNORM"), "{err}");
    let (code, _, err) = nv(
        "untile --texture --gpu switch --format RGBA8_UNORM --size 16x8",
        &["--input", s(&dump), "--output", s(&tmp.path("p.ktx2"))],
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("p.ktx2 (16x8 px, 1 level, 1 layer, RGBA8_UNORM"), "{err}");
    let (code, _, err) = nv(
        "untile --texture --gpu switch --type 3d --format RGBA8_UNORM --size 8x8x4 --levels 2",
        &["--input", s(&dump), "--output", s(&tmp.path("v.dds"))],
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("v.dds (8x8x4 px, 2 levels, 1 layer, "), "{err}");
}

#[test]
fn bc_quality_help_says_what_fast_changes() {
    for cmd in ["tile", "convert"] {
        let (code, out, err) = nv(&format!("{cmd} --help"), &[]);
        assert_eq!(code, 0, "{err}");
        let flat = out.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains("BC1 and BC3 give the same bytes at fast as at normal"), "{cmd}: {flat}");
        assert!(flat.contains("ASTC tries 5/16/64 modes per block"), "{cmd}: {flat}");
    }
    // What the help says: an opaque picture to BC1 and BC3, fast and normal, the same bytes.
    let tmp = Scratch::new("flow-bcq");
    let png = tmp.path("in.png");
    let px: Vec<u8> = noise(32 * 16 * 4, 4).chunks(4).flat_map(|p| [p[0], p[1], p[2], 255]).collect();
    write_png_rgba8(&png, 32, 16, &px);
    for format in ["bc1", "bc3"] {
        let out = |q: &str| {
            let o = tmp.path(&format!("{format}_{q}.dds"));
            let (code, _, err) =
                nv(&format!("convert --format {format} --bc-quality {q}"), &["--input", s(&png), "--output", s(&o)]);
            assert_eq!(code, 0, "{err}");
            std::fs::read(o).unwrap()
        };
        assert!(out("fast") == out("normal"), "{format}");
    }
}

#[test]
fn convert_takes_threads() {
    let tmp = Scratch::new("flow-threads");
    let png = tmp.path("in.png");
    write_png_rgba8(&png, 64, 72, &noise(64 * 72 * 4, 6));
    let out = |threads: &str| {
        let o = tmp.path(&format!("t{threads}.dds"));
        let (code, _, err) = nv(
            &format!("convert --format bc7 --bc-quality fast --threads {threads}"),
            &["--input", s(&png), "--output", s(&o)],
        );
        assert_eq!(code, 0, "{err}");
        std::fs::read(o).unwrap()
    };
    let one = out("1");
    assert!(one == out("2"));
    assert!(one.len() > 64 * 72);
    refused(
        nv("convert --format bc7 --threads 0", &["--input", s(&png), "--output", s(&tmp.path("x.dds"))]),
        &["threads 0 is out of range"],
    );
    let (code, out, _) = nv("convert --help", &[]);
    assert!(code == 0 && out.contains("--threads"), "{out}");
}
