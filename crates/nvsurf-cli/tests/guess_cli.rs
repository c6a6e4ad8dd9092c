//! `nvsurf guess` through the binary: the layout a picture was tiled with ranks first, and its
//! `flags` untile the dump back to the picture; the JSON keys; errors name their field.

use nvsurf::tile::CopyOptions;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

mod scratch;
use scratch::Scratch;

const BIN: &str = env!("CARGO_BIN_EXE_nvsurf");

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// Runs `words` (whitespace-separated) then `--flag path` pairs; asserts success, returns stdout.
fn ok(words: &str, paths: &[(&str, &Path)]) -> String {
    let mut args: Vec<&str> = words.split_whitespace().collect();
    for (flag, p) in paths {
        args.extend([*flag, s(p)]);
    }
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

/// A smooth RGBA8 picture with a little deterministic grain (an LCG), `w` x `h` pixels.
fn picture(w: u32, h: u32) -> Vec<u8> {
    let mut seed = 12345u32;
    let mut grain = || {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
        (seed >> 16) % 9
    };
    let mut v = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let checker = if (x / 40 + y / 30) % 2 == 0 { 60 } else { 180 };
            v.extend_from_slice(&[
                (x * 200 / w + grain()) as u8,
                (y * 200 / h + grain()) as u8,
                (checker + grain()) as u8,
                255,
            ]);
        }
    }
    v
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn the_tiled_layout_ranks_first_and_its_flags_untile_it() {
    let tmp = Scratch::new("guess-rank");
    let d = tmp.dir();
    let (w, h) = (200, 150);
    let pic = d.join("pic.raw");
    std::fs::write(&pic, picture(w, h)).unwrap();
    let size = format!("{w}x{h}");
    // (GPU, the layout flags `tile` used): blocklinear in several gob orders and heights,
    // pitch, and pre-G80 swizzled (on a power-of-two size) below.
    let cases: [(&str, &str); 5] = [
        ("gm20b", "--layout blocklinear --block-log2 0,4,0 --no-auto-size --gob tegra"),
        ("gf100", "--layout blocklinear --block-log2 0,2,0 --no-auto-size --gob vm"),
        ("g80", "--layout blocklinear --block-log2 0,3,0 --no-auto-size --gob vm"),
        ("gf100", "--layout pitch --pitch 1024"),
        ("nv40", "--layout pitch --pitch 896"),
    ];
    for (gpu, flags) in cases {
        // A pre-G80 GPU takes only its own table's names (#41 item 2): NV40's 4-byte format.
        let fmt = if gpu.starts_with("nv") { "A8R8G8B8" } else { "RGBA8_UNORM" };
        let dump = d.join("dump.bin");
        let mut args = vec!["tile", "--gpu", gpu, "--format", fmt, "--size", &size];
        args.extend(flags.split(' '));
        args.extend(["--input", s(&pic), "--output", s(&dump)]);
        let (code, _, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        let (code, out, err) =
            run(&["guess", "--gpu", gpu, "--format", fmt, "--size", &size, "--input", s(&dump), "--json"]);
        assert_eq!(code, 0, "{err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        let first = &v["candidates"][0];
        let got = first["flags"].as_str().unwrap();
        assert!(got.ends_with(flags), "{gpu} {flags}: ranked first {got}");
        assert_eq!(first["rank"], 1);
        assert_eq!(first["fits"], true);
        assert!(v["margin"].as_f64().unwrap() > 1.0, "{v}");
        // The first candidate's flags untile the dump to the picture.
        let back = d.join("back.raw");
        let mut args = vec!["untile"];
        args.extend(got.split(' '));
        args.extend(["--input", s(&dump), "--output", s(&back)]);
        let (code, _, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        assert!(std::fs::read(&back).unwrap() == picture(w, h), "{gpu} {flags}");
    }
}

#[test]
fn swizzled_text_table_and_pictures() {
    let tmp = Scratch::new("guess-swz");
    let d = tmp.dir();
    std::fs::write(d.join("pic.raw"), picture(128, 64)).unwrap();
    let dump = d.join("dump.bin");
    ok(
        "tile --gpu nv2a --format A8B8G8R8 --size 128x64 --layout swizzled",
        &[("--input", &d.join("pic.raw")), ("--output", &dump)],
    );
    let pics = d.join("pics");
    let out =
        ok("guess --gpu nv2a --format A8B8G8R8 --size 128x64 --top 2", &[("--input", &dump), ("--pictures", &pics)]);
    let first = out.lines().find(|l| l.trim_start().starts_with("1 ")).unwrap();
    assert!(first.contains("swizzled") && first.ends_with("--layout swizzled"), "{out}");
    // Swizzled, pitch 512 (the row) and pitch 1024 (aligned to 1024): one not shown.
    assert!(out.starts_with("# 3 candidate layouts") && out.contains("1 more (--top 0 lists all)"), "{out}");
    let mut names: Vec<String> =
        std::fs::read_dir(&pics).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names.len(), 2, "{names:?}");
    assert_eq!(names[0], "01_swizzled.png");
}

#[test]
fn short_dumps_offsets_and_errors() {
    let tmp = Scratch::new("guess-err");
    let d = tmp.dir();
    // 64x64 RGBA8 on GF100 with 0,3,0 blocks is 16 KiB; with 8 KiB more in front.
    std::fs::write(d.join("pic.raw"), picture(64, 64)).unwrap();
    let tiled = d.join("tiled.bin");
    ok(
        "tile --gpu gf100 --gob vm --elem-size 4 --size 64x64 --block-log2 0,3,0 --no-auto-size",
        &[("--input", &d.join("pic.raw")), ("--output", &tiled)],
    );
    let mut with_head = vec![0x5au8; 8192];
    with_head.extend(std::fs::read(&tiled).unwrap());
    let dump = d.join("dump.bin");
    std::fs::write(&dump, &with_head).unwrap();
    let out = ok("guess --gpu gf100 --elem-size 4 --size 64x64 --offset 8192 --json --top 0", &[("--input", &dump)]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["dump_bytes"], 16384);
    assert_eq!(v["offset"], 8192);
    let c = v["candidates"].as_array().unwrap();
    assert_eq!(c.len() as u64, v["candidates_tried"].as_u64().unwrap());
    let flags = c[0]["flags"].as_str().unwrap();
    assert!(
        flags.ends_with("--offset 8192 --layout blocklinear --block-log2 0,3,0 --no-auto-size --gob vm"),
        "{flags}"
    );
    // The flags, offset included, untile the picture from the dump.
    let back = d.join("back.raw");
    let mut args: Vec<&str> = vec!["untile"];
    args.extend(flags.split(' '));
    args.extend(["--input", s(&dump), "--output", s(&back)]);
    let (code, _, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read(&back).unwrap() == picture(64, 64));
    // The same from a pipe: its length is what it held.
    let piped = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "cat {} | {BIN} guess --gpu gf100 --elem-size 4 --size 64x64 --offset 8192 --json --input /dev/stdin",
            s(&dump)
        ))
        .output()
        .unwrap();
    assert!(piped.status.success(), "{}", String::from_utf8_lossy(&piped.stderr));
    let p: Value = serde_json::from_slice(&piped.stdout).unwrap();
    assert_eq!(p["dump_bytes"], 16384);
    assert_eq!(p["candidates"][0]["flags"], c[0]["flags"]);
    // Taller blocks need more than 16 KiB: those whose sample's rows the dump holds less than
    // half of are listed last, unscored; the others are scored on the rows it holds.
    let short: Vec<&Value> = c.iter().filter(|x| x["fits"] == false).collect();
    assert!(!short.is_empty());
    assert!(short.iter().all(|x| x["size_bytes"].as_u64().unwrap() > 16384));
    assert!(short.iter().any(|x| x["roughness"].is_null()));
    for x in &short {
        let rows = x["rows_scored"].as_u64().unwrap();
        assert_eq!(x["roughness"].is_null(), rows == 0, "{x}");
        assert!(rows == 0 || (32..64).contains(&rows), "{x}");
    }
    assert!(c.iter().skip_while(|x| !x["roughness"].is_null()).all(|x| x["roughness"].is_null()));

    let fails = |args: &[&str], want: &str| {
        let (code, _, err) = run(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(want), "{args:?}: {err}");
    };
    let base = ["guess", "--gpu", "gf100", "--input", s(&dump)];
    let with = |more: &[&'static str]| -> Vec<String> {
        base.iter().map(|x| x.to_string()).chain(more.iter().map(|x| x.to_string())).collect()
    };
    let call = |v: Vec<String>, want: &str| fails(&v.iter().map(String::as_str).collect::<Vec<_>>(), want);
    call(with(&["--elem-size", "4", "--size", "64x64", "--pictures", "/tmp/x"]), "--format");
    call(with(&["--elem-size", "4", "--size", "64x64", "--offset", "1000000"]), "past the end");
    call(with(&["--elem-size", "4", "--size", "8x8x2"]), "depth");
    call(with(&["--elem-size", "3", "--size", "8x8"]), "elem_size 3");
    call(with(&["--size", "8x8"]), "elem-size");
    // A dump every candidate reads the same (one element): said so, not blamed on its length.
    let out = ok("guess --gpu g80 --elem-size 4 --size 1x1", &[("--input", &dump)]);
    assert!(
        out.trim_end().ends_with("there is no picture to rank, and the dump does not tell the layouts apart"),
        "{out}"
    );
}

/// A regular file is read only where the candidates' samples lie (their windows): guessing a
/// 16384x2048 surface of 16-byte elements (512 MiB; a sparse dump holding a smooth picture in
/// its top-left 256x512 elements, tiled in Tegra order with blocks of 16 gobs) runs under a
/// 100 MB address-space limit, where the first 512 whole rows alone are 128 MiB (the reading
/// that the previous version did), and scores every candidate as ranking the dump's bytes in
/// memory does. (The true layout does not rank first here: the zeros around the picture are
/// what the wrong layouts untile, and zeros are perfectly smooth.)
#[test]
fn a_large_dump_is_read_only_where_the_samples_lie() {
    use nvsurf::layout::{GobOrder, LayoutKind, SurfaceDesc};
    use nvsurf::tile::{self, LinearLayout, Region};
    use std::io::{Seek, SeekFrom, Write};
    let mut desc = SurfaceDesc::new(nvsurf::Gpu::Gf100, 16, [16384, 2048, 1]);
    desc.layout = LayoutKind::BlockLinear;
    desc.block_log2 = Some([0, 4, 0]);
    desc.auto_size = Some(false);
    desc.gob_order = GobOrder::Tegra;
    let surf = desc.build().unwrap();
    let region = Region { x: 0, y: 0, z: 0, w: 256, h: 512, d: 1 };
    let w = tile::window(&surf, region).unwrap();
    let mut part = vec![0u8; w.size_bytes() as usize];
    let lin = LinearLayout::packed(&region, 16);
    tile::tile_with(&w.surface, &picture(1024, 512), &mut part, w.region, lin, &CopyOptions::default()).unwrap();
    // The dump's first 128 MiB in memory (untouched pages cost nothing), as the reference.
    let mut prefix = vec![0u8; 128 << 20];
    let tmp = Scratch::new("guess-large");
    let d = tmp.dir();
    let dump = d.join("dump.bin");
    let mut f = std::fs::File::create(&dump).unwrap();
    f.set_len(surf.size_bytes()).unwrap();
    for p in &w.pieces {
        let bytes = &part[p.window_offset_bytes as usize..][..p.len_bytes as usize];
        f.seek(SeekFrom::Start(p.offset_bytes)).unwrap();
        f.write_all(bytes).unwrap();
        prefix[p.offset_bytes as usize..][..bytes.len()].copy_from_slice(bytes);
    }
    drop(f);
    let out = Command::new("sh")
        .arg("-c")
        // One malloc arena: glibc reserves 64 MiB of address space for each thread
        // that allocates, which would race the program's own buffers under the limit.
        .env("MALLOC_ARENA_MAX", "1")
        .arg("ulimit -v 100000 && exec \"$0\" \"$@\"")
        .arg(BIN)
        .args(["guess", "--gpu", "gf100", "--elem-size", "16", "--size", "16384x2048", "--json", "--top", "0"])
        .args(["--input", s(&dump)])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let size = surf.size_bytes();
    let cands = nvsurf::identify::candidates(nvsurf::Gpu::Gf100, 16, [16384, 2048, 1], size).unwrap();
    let want = nvsurf::identify::rank(&prefix, size, cands, None).unwrap();
    let got = v["candidates"].as_array().unwrap();
    assert_eq!(got.len(), want.ranked.len());
    for (g, r) in got.iter().zip(&want.ranked) {
        assert_eq!(g["label"], r.candidate.label.as_str());
        // Equal up to the JSON text's last digit.
        let (label, g, r) = (&r.candidate.label, g["roughness"].as_f64().unwrap(), r.roughness.unwrap());
        assert!((g - r).abs() <= 1e-12 * r.abs(), "{label}: {g} against {r}");
    }
}

/// Deterministic noise (xorshift64), what surrounds a surface in a real dump.
fn noise(n: usize, mut x: u64) -> Vec<u8> {
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

/// A surface 1.5 MiB into an 8 MiB dump of noise, GPU unknown: `--gpu any --offset auto`
/// finds its GPU family, gob order, block and offset, and the hint names the offset.
#[test]
fn any_gpu_and_auto_offset_find_a_surface_inside_a_dump() {
    let tmp = Scratch::new("guess-auto");
    let d = tmp.dir();
    let (w, h) = (320u32, 180u32);
    std::fs::write(d.join("pic.raw"), picture(w, h)).unwrap();
    let tiled = d.join("tiled.bin");
    // Tiled as the Switch makes it: nothing but the preset.
    ok(
        &format!("tile --gpu switch --format RGBA8_UNORM --size {w}x{h}"),
        &[("--input", &d.join("pic.raw")), ("--output", &tiled)],
    );
    let surface = std::fs::read(&tiled).unwrap();
    let at = 3 << 19; // 1.5 MiB
    let mut dump = noise(at, 7);
    dump.extend(&surface);
    dump.extend(noise((8 << 20) - dump.len(), 9));
    let path = d.join("dump.bin");
    std::fs::write(&path, &dump).unwrap();
    let out = ok(
        &format!("guess --gpu any --offset auto --format RGBA8_UNORM --size {w}x{h} --json --top 5"),
        &[("--input", &path)],
    );
    let v: Value = serde_json::from_str(&out).unwrap();
    let best = &v["candidates"][0];
    assert_eq!(best["offset_bytes"], at as u64, "{best}");
    assert_eq!((best["gpu"].as_str(), best["gob_order"].as_str()), (Some("gm20b"), Some("tegra")), "{best}");
    assert_eq!(best["block_log2"], serde_json::json!([0, 4, 0]), "NVN: 180 rows ask for 16 gobs");
    assert_eq!(v["offset_bytes"], at as u64);
    assert!(v["margin"].as_f64().unwrap() > 1.1, "{}", v["margin"]);
    // Its flags untile the picture from the dump.
    let flags = best["flags"].as_str().unwrap();
    let back = d.join("back.raw");
    let mut args: Vec<&str> = vec!["untile"];
    args.extend(flags.split_whitespace());
    args.extend(["--input", s(&path), "--output", s(&back)]);
    let (code, _, err) = run(&args);
    assert_eq!(code, 0, "{flags}: {err}");
    assert!(std::fs::read(&back).unwrap() == picture(w, h), "{flags}");
    // The text hint names the offset.
    let text = ok(&format!("guess --gpu any --offset auto --format RGBA8_UNORM --size {w}x{h}"), &[("--input", &path)]);
    assert!(text.contains("starts at offset 1572864 (0x180000)"), "{text}");
}
