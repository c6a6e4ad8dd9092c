//! Pictures into block-compressed formats through `tile` and `convert`: the round trip a
//! modder makes (PNG -> BC7 dump -> PNG), the PSNR in the summary and in `--json`, the
//! quality flag, and the refusals (wrong size, BC6H signed) that write nothing.

use nvsurf::format::Format;

mod pictures;
use pictures::*;
mod scratch;
use scratch::Scratch;

/// A smooth gradient with noise (what a texture looks like to an encoder), `w x h` RGBA8.
fn picture(w: usize, h: usize) -> Vec<u8> {
    let mut seed = 0x9e37_79b9u32;
    let mut noise = move || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        (seed % 17) as i32 - 8
    };
    let mut v = Vec::with_capacity(w * h * 4);
    for y in 0..h {
        for x in 0..w {
            let px = [x * 255 / w, y * 255 / h, (x + y) * 127 / (w + h), 255 - x * 100 / w];
            v.extend(px.map(|c| (c as i32 + noise()).clamp(0, 255) as u8));
        }
    }
    v
}

/// PSNR in dB of two RGBA8 pictures.
fn psnr(a: &[u8], b: &[u8]) -> f64 {
    assert_eq!(a.len(), b.len());
    let sse: f64 = a.iter().zip(b).map(|(x, y)| (f64::from(*x) - f64::from(*y)).powi(2)).sum();
    10.0 * (255.0f64.powi(2) / (sse / a.len() as f64)).log10()
}

/// Switch BC7 surface of 37x21 px: partial blocks on both edges.
const SURF: [&str; 6] = ["--gpu", "switch", "--size", "37x21", "--format", "bc7"];

fn json_of(out: &str) -> serde_json::Value {
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

#[test]
fn png_to_bc7_dump_and_back_with_the_psnr() {
    let tmp = Scratch::new("bc-encode");
    let (w, h) = (37usize, 21usize);
    let px = picture(w, h);
    let (png_in, dump, png_out) = (tmp.path("in.png"), tmp.path("dump.bin"), tmp.path("out.png"));
    write_png_rgba8(&png_in, w as u32, h as u32, &px);

    let mut args = vec!["tile", "--input", s(&png_in), "--output", s(&dump), "--json"];
    args.extend(SURF);
    let (rc, out, err) = nvsurf(&args);
    assert_eq!(rc, 0, "{err}");
    let mut args = vec!["untile", "--input", s(&dump), "--output", s(&png_out)];
    args.extend(SURF);
    let (rc, _, err2) = nvsurf(&args);
    assert_eq!(rc, 0, "{err2}");
    let (bw, bh, back) = read_png_rgba8(&png_out);
    assert_eq!((bw, bh), (37, 21));
    let measured = psnr(&px, &back);
    assert!(measured > 33.0, "BC7 round trip only {measured:.2} dB");

    // The summary line and the JSON give the same PSNR as the test measures (two decimals).
    let line = err.lines().find(|l| l.starts_with("tile: wrote")).unwrap();
    assert!(line.contains(&format!("PSNR level 0 layer 0 {measured:.2} dB (bc-quality normal)")), "{line}");
    let v = json_of(&out);
    assert_eq!(v["command"], "tile");
    assert_eq!(v["bc_quality"], "normal");
    let levels = v["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 1, "{v}");
    assert_eq!((levels[0]["level"].as_u64(), levels[0]["layer"].as_u64()), (Some(0), Some(0)));
    let db = levels[0]["psnr_db"].as_f64().unwrap();
    assert!((db - measured).abs() < 0.006, "JSON {db} vs measured {measured}");

    // One thread (--threads 1) and a pool (strips encoded in parallel) give the same blocks.
    for threads in ["1", "2"] {
        let d = tmp.path(&format!("dump-{threads}.bin"));
        let mut args = vec!["tile", "--input", s(&png_in), "--output", s(&d), "--threads", threads];
        args.extend(SURF);
        assert_eq!(nvsurf(&args).0, 0);
        assert_eq!(std::fs::read(&d).unwrap(), std::fs::read(&dump).unwrap(), "--threads {threads}");
    }

    // A box of blocks (4x2 blocks at block 1,1: 16x8 px) from a picture onto the dump: only
    // its blocks change, and they hold the new picture.
    let patch: Vec<u8> = picture(16, 8).chunks(4).flat_map(|p| [p[2], p[0], p[1], p[3]]).collect();
    let (box_png, patched, box_back) = (tmp.path("box.png"), tmp.path("patched.bin"), tmp.path("box_back.png"));
    write_png_rgba8(&box_png, 16, 8, &patch);
    let mut args =
        vec!["tile", "--input", s(&box_png), "--output", s(&patched), "--onto", s(&dump), "--box", "1,1,0,4,2,1"];
    args.extend(SURF);
    let (rc, _, err) = nvsurf(&args);
    assert_eq!(rc, 0, "{err}");
    let mut args = vec!["untile", "--input", s(&patched), "--output", s(&box_back), "--box", "1,1,0,4,2,1"];
    args.extend(SURF);
    assert_eq!(nvsurf(&args).0, 0);
    assert!(psnr(&patch, &read_png_rgba8(&box_back).2) > 33.0);
    let mut args = vec!["untile", "--input", s(&patched), "--output", s(&png_out)];
    args.extend(SURF);
    assert_eq!(nvsurf(&args).0, 0);
    let after = read_png_rgba8(&png_out).2;
    for y in 0..21 {
        for x in 0..37 {
            let inside = (4..20).contains(&x) && (4..12).contains(&y);
            let i = (y * 37 + x) * 4;
            if !inside {
                assert_eq!(after[i..i + 4], back[i..i + 4], "({x}, {y}) outside the box changed");
            }
        }
    }
}

#[test]
fn quality_flag_changes_the_blocks_and_slow_is_not_worse() {
    let tmp = Scratch::new("bc-encode");
    let (w, h) = (64usize, 32usize);
    let png_in = tmp.path("in.png");
    let px = picture(w, h);
    write_png_rgba8(&png_in, w as u32, h as u32, &px);
    let mut got = Vec::new();
    for q in ["fast", "slow"] {
        let out = tmp.path(&format!("{q}.bin"));
        let (rc, stdout, err) = nvsurf(&[
            "convert",
            "--format",
            "bc7",
            "--input",
            s(&png_in),
            "--output",
            s(&out),
            "--bc-quality",
            q,
            "--json",
        ]);
        assert_eq!(rc, 0, "{err}");
        let v = json_of(&stdout);
        assert_eq!(v["bc_quality"], q);
        got.push((std::fs::read(&out).unwrap(), v["levels"][0]["psnr_db"].as_f64().unwrap()));
    }
    assert_ne!(got[0].0, got[1].0, "fast and slow gave the same blocks");
    assert!(got[1].1 >= got[0].1, "slow {} dB < fast {} dB", got[1].1, got[0].1);
    let (rc, _, err) =
        nvsurf(&["convert", "--format", "bc7", "--input", s(&png_in), "--output", "x.bin", "--bc-quality", "best"]);
    assert_eq!(rc, 2);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("bc-quality") && err.contains("best") && err.contains("fast, normal or slow"), "{err}");
}

#[test]
fn convert_png_to_bc1_matches_the_library() {
    let tmp = Scratch::new("bc-encode");
    let (w, h) = (30usize, 18usize);
    let px = picture(w, h);
    let opaque: Vec<u8> = px.chunks(4).flat_map(|p| [p[0], p[1], p[2], 255]).collect();
    let (png_in, out) = (tmp.path("in.png"), tmp.path("out.bc1"));
    write_png_rgba8(&png_in, w as u32, h as u32, &opaque);
    let (rc, stdout, err) =
        nvsurf(&["convert", "--format", "bc1", "--input", s(&png_in), "--output", s(&out), "--json"]);
    assert_eq!(rc, 0, "{err}");
    let data = std::fs::read(&out).unwrap();
    assert_eq!(data.len(), 8 * 5 * 8, "8x5 blocks of 8 bytes");
    // Decoded by the library, the blocks are the picture within BC1's error.
    let f = Format::parse("bc1").unwrap();
    let mut back = vec![[0u8; 4]; w * h];
    f.decode_rect_rgba8(&data, 8 * 8, w as u32, h as u32, &mut back).unwrap();
    let back: Vec<u8> = back.concat();
    let measured = psnr(&opaque, &back);
    assert!(measured > 30.0, "{measured:.2} dB");
    let v = json_of(&stdout);
    assert_eq!(
        (v["width_px"].as_u64(), v["height_px"].as_u64(), v["format"].as_str()),
        (Some(30), Some(18), Some("DXT1"))
    );
    // Alpha is 255 on both sides: the JSON's PSNR over R, G, B, A is the test's over RGBA.
    let db = v["levels"][0]["psnr_db"].as_f64().unwrap();
    assert!((db - measured).abs() < 0.006, "JSON {db} vs measured {measured}");
}

#[test]
fn a_texture_from_a_dds_reports_every_level() {
    let tmp = Scratch::new("bc-encode");
    // An RGBA8 texture with 3 levels, made into a DDS by nvsurf itself.
    let (lin, rgba_dump, dds, bc) = (tmp.path("lin.bin"), tmp.path("t.bin"), tmp.path("t.dds"), tmp.path("bc.bin"));
    let mut bytes = Vec::new();
    for (w, h) in [(64, 48), (32, 24), (16, 12)] {
        bytes.extend(picture(w, h));
    }
    std::fs::write(&lin, &bytes).unwrap();
    let tex = ["--gpu", "switch", "--size", "64x48", "--levels", "3", "--texture"];
    let (rc, _, err) =
        nvsurf(&[&["tile", "--format", "A8B8G8R8", "--input", s(&lin), "--output", s(&rgba_dump)][..], &tex].concat());
    assert_eq!(rc, 0, "{err}");
    let (rc, _, err) = nvsurf(
        &[&["untile", "--format", "A8B8G8R8", "--input", s(&rgba_dump), "--output", s(&dds)][..], &tex].concat(),
    );
    assert_eq!(rc, 0, "{err}");
    let (rc, out, err) =
        nvsurf(&[&["tile", "--format", "bc7", "--input", s(&dds), "--output", s(&bc), "--json"][..], &tex].concat());
    assert_eq!(rc, 0, "{err}");
    let v = json_of(&out);
    let levels: Vec<(u64, u64)> = v["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            assert!(l["psnr_db"].as_f64().unwrap() > 30.0, "{l}");
            (l["level"].as_u64().unwrap(), l["layer"].as_u64().unwrap())
        })
        .collect();
    assert_eq!(levels, [(0, 0), (1, 0), (2, 0)]);

    // One level back from PNG onto the dump: labelled with its --subresource.
    let l1 = tmp.path("l1.png");
    let (rc, _, err) = nvsurf(
        &[&["untile", "--format", "bc7", "--input", s(&bc), "--output", s(&l1), "--subresource", "1,0"][..], &tex]
            .concat(),
    );
    assert_eq!(rc, 0, "{err}");
    let args = [
        "tile",
        "--format",
        "bc7",
        "--input",
        s(&l1),
        "--output",
        s(&bc),
        "--onto",
        s(&bc),
        "--subresource",
        "1,0",
        "--json",
    ];
    let (rc, out, err) = nvsurf(&[&args[..], &tex].concat());
    assert_eq!(rc, 0, "{err}");
    let v = json_of(&out);
    assert_eq!((v["levels"][0]["level"].as_u64(), v["levels"][0]["layer"].as_u64()), (Some(1), Some(0)), "{v}");
    // Decoded BC7 blocks encode again to (nearly) themselves.
    assert!(v["levels"][0]["psnr_db"].is_null() || v["levels"][0]["psnr_db"].as_f64().unwrap() > 50.0, "{v}");

    // The modder's round trip: level 0 to PNG, back with the lower levels generated; every
    // encoded level (0 from the picture, 1 and 2 from the filter) reports its PSNR.
    let l0 = tmp.path("l0.png");
    let (rc, _, err) = nvsurf(
        &[&["untile", "--format", "bc7", "--input", s(&bc), "--output", s(&l0), "--subresource", "0,0"][..], &tex]
            .concat(),
    );
    assert_eq!(rc, 0, "{err}");
    let regen = tmp.path("regen.bin");
    let args =
        ["tile", "--format", "bc7", "--input", s(&l0), "--output", s(&regen), "--onto", s(&bc), "--subresource", "0,0"];
    let (rc, out, err) = nvsurf(&[&args[..], &tex, &["--generate-mips", "--json"]].concat());
    assert_eq!(rc, 0, "{err}");
    let v = json_of(&out);
    let got: Vec<(u64, u64, bool)> = v["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (l["level"].as_u64().unwrap(), l["layer"].as_u64().unwrap(), l["psnr_db"].as_f64().is_none_or(|d| d > 25.0))
        })
        .collect();
    assert_eq!(got, [(0, 0, true), (1, 0, true), (2, 0, true)], "{v}");
    assert!(err.contains("generated mips") && err.contains("PSNR level 0 layer 0"), "{err}");
}

#[test]
fn refusals_are_one_line_and_write_nothing() {
    let tmp = Scratch::new("bc-encode");
    let png_in = tmp.path("in.png");
    write_png_rgba8(&png_in, 20, 20, &picture(20, 20));
    let dump = tmp.path("dump.bin");
    std::fs::write(&dump, b"old bytes").unwrap();

    // A picture of the wrong size for the surface (37x21).
    let mut args = vec!["tile", "--input", s(&png_in), "--output", s(&dump)];
    args.extend(SURF);
    let (rc, out, err) = nvsurf(&args);
    assert_ne!(rc, 0);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("20x20x1 px") && err.contains("37x21x1 px"), "{err}");
    assert!(out.is_empty());
    assert_eq!(std::fs::read(&dump).unwrap(), b"old bytes");

    // BC6H signed: no maintained encoder.
    let out_file = tmp.path("bc6s.bin");
    std::fs::write(&out_file, b"keep").unwrap();
    let (rc, _, err) = nvsurf(&["convert", "--format", "bc6h_sf", "--input", s(&png_in), "--output", s(&out_file)]);
    assert_ne!(rc, 0);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("BC6H signed") && err.contains("no maintained encoder"), "{err}");
    assert_eq!(std::fs::read(&out_file).unwrap(), b"keep");
    let leftovers: Vec<_> = std::fs::read_dir(tmp.dir()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(leftovers.len(), 3, "no temporary files left: {leftovers:?}");
}

/// `tile` from a PNG into a block format works band by band (whole strips of 16 block rows,
/// sized by the pixels' memory): tiny bands (`NVSURF_BAND_BYTES`) and one band give the same
/// dump and the same PSNR, on one thread and on two, for BC1 and BC7 (the picture is opaque
/// at the top and translucent at the bottom, so bands and strips see both kinds).
#[test]
fn png_bands_give_the_same_blocks_as_one_band() {
    let tmp = Scratch::new("bc-bands");
    let (w, h) = (70usize, 150usize); // 38 block rows: two whole strips and a partial one
    let mut px = picture(w, h);
    for (i, p) in px.chunks_exact_mut(4).enumerate() {
        p[3] = if i / w < h / 2 { 255 } else { (i % 200) as u8 };
    }
    let png_in = tmp.path("in.png");
    write_png_rgba8(&png_in, w as u32, h as u32, &px);
    for fmt in ["bc1", "bc7"] {
        let mut seen: Option<(Vec<u8>, String)> = None;
        for (band, threads) in [("1000000000", "1"), ("100", "1"), ("100", "2"), ("1000000000", "2")] {
            let dump = tmp.path(&format!("{fmt}-{band}-{threads}.bin"));
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_nvsurf"))
                .args(["tile", "--gpu", "gf100", "--size", "70x150", "--format", fmt, "--threads", threads])
                .args(["--input", s(&png_in), "--output", s(&dump)])
                .env("NVSURF_BAND_BYTES", band)
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr).to_string();
            assert!(out.status.success(), "{err}");
            let psnr =
                err.lines().find(|l| l.starts_with("tile: wrote")).unwrap().split("PSNR").nth(1).unwrap().to_string();
            let got = (std::fs::read(&dump).unwrap(), psnr);
            match &seen {
                None => seen = Some(got),
                Some(first) => assert!(*first == got, "{fmt}: band {band}, {threads} thread(s) differ"),
            }
        }
    }
}

/// Runs `args` with `NVSURF_BAND_BYTES=band`; the output file's bytes and the summary's PSNR.
fn banded(args: &[&str], band: &str, output: &std::path::Path) -> (Vec<u8>, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_nvsurf"))
        .args(args)
        .env("NVSURF_BAND_BYTES", band)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{args:?}: {err}");
    let psnr = err.split("PSNR").nth(1).unwrap_or("").to_string();
    (std::fs::read(output).unwrap(), psnr)
}

/// `convert` from PNG and EXR, and `tile --texture` from a DDS into a block format, convert
/// band by band (only a band held as texels): tiny bands give the bytes and PSNR of one band.
#[test]
fn conversions_in_bands_equal_one_band() {
    let tmp = Scratch::new("bc-conv-bands");
    let (w, h) = (70usize, 150usize);
    let px = picture(w, h);
    let (png, raw, exr, dds) = (tmp.path("in.png"), tmp.path("in.raw"), tmp.path("in.exr"), tmp.path("in.dds"));
    write_png_rgba8(&png, w as u32, h as u32, &px);
    let floats: Vec<u8> = px.iter().flat_map(|&b| (f32::from(b) / 64.0).to_le_bytes()).collect();
    std::fs::write(&raw, &floats).unwrap();
    let size = "70x150";
    let conv = |fmt: &str, input: &std::path::Path, out: &std::path::Path| {
        let (rc, _, err) =
            nvsurf(&["convert", "--format", fmt, "--size", size, "--input", s(input), "--output", s(out)]);
        assert_eq!(rc, 0, "{err}");
    };
    conv("RGBA32_FLOAT", &raw, &exr);
    conv("RGBA8_UNORM", &png, &dds);
    let out = tmp.path("out.bin");
    let cases: [Vec<&str>; 5] = [
        vec!["convert", "--format", "bc1", "--size", size, "--input", s(&png)],
        vec!["convert", "--format", "bc7", "--size", size, "--input", s(&png)],
        vec!["convert", "--format", "RGBA8_UNORM", "--size", size, "--input", s(&png)],
        vec!["convert", "--format", "bc6h_uf16", "--size", size, "--input", s(&exr)],
        vec!["tile", "--gpu", "gf100", "--texture", "--format", "bc7", "--input", s(&dds)],
    ];
    for mut args in cases {
        args.extend(["--output", s(&out)]);
        let one = banded(&args, "1000000000", &out);
        let tiny = banded(&args, "100", &out);
        assert!(one == tiny, "{args:?}: tiny bands differ from one band");
        assert!(!one.0.is_empty());
    }
}
