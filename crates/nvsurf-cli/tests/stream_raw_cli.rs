//! Raw `untile` and `tile` streamed band by band (`copy/stream.rs`): with bands of one block
//! row (`NVSURF_BAND_BYTES=1`) and with the default bands, the bytes are the library's
//! whole-surface copy's, for blocklinear surfaces of several block shapes (3D blocks, 12-byte
//! elements straddling gobs, G80 and GF100 gobs), pitch surfaces and a surface at an offset.

use nvsurf::layout::{LayoutKind, Surface, SurfaceDesc};
use nvsurf::tile::{self, CopyOptions, LinearLayout, Region};
use nvsurf::Gpu;
use std::process::Command;

mod scratch;
use scratch::Scratch;

/// Deterministic bytes that differ from row to row and slice to slice.
fn noise(n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

struct Case {
    gpu: &'static str,
    elem: u32,
    size: [u32; 3],
    /// `--block-log2` for blocklinear, `None` for pitch.
    block: Option<[u32; 3]>,
}

impl Case {
    fn surface(&self) -> Surface {
        let gpu = Gpu::parse(self.gpu).unwrap();
        let mut d = SurfaceDesc::new(gpu, self.elem, self.size);
        match self.block {
            Some(b) => {
                d.layout = LayoutKind::BlockLinear;
                d.block_log2 = Some(b);
                d.auto_size = Some(false);
            }
            None => d.layout = LayoutKind::Pitch,
        }
        d.build().unwrap()
    }

    fn args(&self) -> Vec<String> {
        let [w, h, d] = self.size;
        let mut a = vec!["--gpu".into(), self.gpu.into(), "--elem-size".into(), self.elem.to_string()];
        a.extend(["--size".into(), format!("{w}x{h}x{d}")]);
        match self.block {
            Some([x, y, z]) => {
                a.extend(["--layout".into(), "blocklinear".into(), "--block-log2".into(), format!("{x},{y},{z}")]);
                // The descriptor's gob order (the CLI's default differs by GPU).
                a.extend(["--gob".into(), "vm".into()]);
            }
            None => a.extend(["--layout".into(), "pitch".into()]),
        }
        a
    }
}

fn run(args: &[String], band: Option<&str>) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_nvsurf"));
    c.args(args);
    if let Some(b) = band {
        c.env("NVSURF_BAND_BYTES", b);
    }
    let out = c.output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn streamed_raw_copies_match_the_library() {
    let cases = [
        Case { gpu: "gh100", elem: 4, size: [300, 200, 1], block: Some([0, 2, 0]) },
        Case { gpu: "gh100", elem: 16, size: [70, 45, 5], block: Some([1, 1, 2]) },
        Case { gpu: "gm20b", elem: 12, size: [50, 33, 1], block: Some([0, 3, 0]) },
        Case { gpu: "g80", elem: 8, size: [77, 61, 3], block: Some([0, 1, 1]) },
        Case { gpu: "gh100", elem: 2, size: [333, 40, 1], block: None },
        Case { gpu: "nv40", elem: 4, size: [45, 30, 1], block: None },
    ];
    let tmp = Scratch::new("stream-raw");
    let (dump, back, lin) = (tmp.path("dump.bin"), tmp.path("back.bin"), tmp.path("lin.bin"));
    let p = |x: &std::path::Path| x.to_str().unwrap().to_string();
    for (i, c) in cases.iter().enumerate() {
        let s = c.surface();

        let offset = 4096 * i;
        let surface_bytes = s.size_bytes() as usize;
        let bytes = noise(offset + surface_bytes + 100, i as u64);
        std::fs::write(&dump, &bytes).unwrap();
        let region = Region::whole(&s);
        let packed = LinearLayout::packed(&region, c.elem);
        let mut want = vec![0u8; packed.image_bytes(&region).unwrap() as usize];
        tile::untile_with(&s, &bytes[offset..], &mut want, region, packed, &CopyOptions::default()).unwrap();
        for band in [Some("1"), None] {
            let mut a = vec!["untile".to_string()];
            a.extend(c.args());
            a.extend(["--offset".into(), offset.to_string(), "--input".into(), p(&dump), "--output".into(), p(&lin)]);
            run(&a, band);
            let got = std::fs::read(&lin).unwrap();
            let first = got.iter().zip(&want).position(|(a, b)| a != b);
            assert!(
                got == want,
                "untile {i} band {band:?}: {} vs {} bytes, first difference at {first:?}",
                got.len(),
                want.len()
            );
            // Back into a new file: the surface at its offset, zeros (holes) before it, and
            // the surface's padding zero.
            let mut a = vec!["tile".to_string()];
            a.extend(c.args());
            a.extend(["--offset".into(), offset.to_string(), "--input".into(), p(&lin), "--output".into(), p(&back)]);
            run(&a, band);
            let mut tiled = vec![0u8; surface_bytes];
            tile::tile_with(&s, &want, &mut tiled, region, packed, &CopyOptions::default()).unwrap();
            let got = std::fs::read(&back).unwrap();
            assert_eq!(got.len(), offset + surface_bytes, "tile {i} band {band:?}");
            assert!(got[..offset].iter().all(|&b| b == 0), "tile {i}: bytes before the surface");
            assert!(got[offset..] == tiled[..], "tile {i} band {band:?}");
        }
    }
}

/// `untile` to PNG or DDS reads the dump band by band (a window per band) when it can; the
/// file is the one the in-memory path writes (`--box` of the whole surface takes that path),
/// with bands of one block row and with the default bands.
#[test]
fn streamed_png_and_dds_untile_match_the_in_memory_path() {
    for ext in ["png", "dds", "ktx2"] {
        streamed_untile_matches(ext);
    }
}

fn streamed_untile_matches(ext: &str) {
    let tmp = Scratch::new("stream-png");
    let (dump, a_png, b_png) = (tmp.path("dump.bin"), tmp.path(&format!("a.{ext}")), tmp.path(&format!("b.{ext}")));
    let p = |x: &std::path::Path| x.to_str().unwrap().to_string();
    for (gpu, format, size, boxed) in [
        ("gh100", "R8G8B8A8_UNORM", [200u32, 150u32], "0,0,0,200,150,1"),
        ("gm20b", "BC1_RGBA_UNORM_BLOCK", [120, 72], "0,0,0,30,18,1"),
    ] {
        std::fs::write(&dump, noise(1 << 20, 7)).unwrap();
        let [w, h] = size;
        let base: Vec<String> = ["untile", "--gpu", gpu, "--format", format, "--size", &format!("{w}x{h}"), "--input"]
            .iter()
            .map(|s| s.to_string())
            .chain([p(&dump)])
            .collect();
        let with = |extra: &[&str], out: &std::path::Path| {
            let mut a = base.clone();
            a.extend(extra.iter().map(|s| s.to_string()));
            a.extend(["--output".to_string(), p(out)]);
            a
        };
        run(&with(&["--box", boxed], &a_png), None);
        let want = std::fs::read(&a_png).unwrap();
        for band in [Some("1"), None] {
            run(&with(&[], &b_png), band);
            assert!(std::fs::read(&b_png).unwrap() == want, "{ext}: {gpu} {format} band {band:?}");
        }
    }
}

/// `tile` from a PNG into a new file writes band by band (a zeroed window per band of whole
/// block rows); the file is the one `--onto` an all-zero dump of the same size gives (the
/// whole-surface path), with bands of one block row and with the default bands.
#[test]
fn streamed_png_tile_matches_the_whole_surface_path() {
    let tmp = Scratch::new("stream-png-tile");
    let (dump, png, zeros) = (tmp.path("dump.bin"), tmp.path("a.png"), tmp.path("zeros.bin"));
    let (want_path, got_path) = (tmp.path("want.bin"), tmp.path("got.bin"));
    let p = |x: &std::path::Path| x.to_str().unwrap().to_string();
    for (gpu, format, size) in [("gh100", "R8G8B8A8_UNORM", "200x150"), ("gm20b", "BC1_RGBA_UNORM_BLOCK", "120x72")] {
        std::fs::write(&dump, noise(1 << 20, 11)).unwrap();
        let surf = ["--gpu", gpu, "--format", format, "--size", size].map(String::from);
        let cmd = |verb: &str, input: &std::path::Path, output: &std::path::Path, extra: &[String]| {
            let mut a = vec![verb.to_string()];
            a.extend(surf.iter().cloned());
            a.extend(extra.iter().cloned());
            a.extend(["--input".into(), p(input), "--output".into(), p(output)]);
            a
        };
        run(&cmd("untile", &dump, &png, &[]), None);
        run(&cmd("tile", &png, &got_path, &[]), None);
        let len = std::fs::metadata(&got_path).unwrap().len() as usize;
        std::fs::write(&zeros, vec![0u8; len]).unwrap();
        run(&cmd("tile", &png, &want_path, &["--onto".into(), p(&zeros)]), None);
        let want = std::fs::read(&want_path).unwrap();
        for band in [Some("1"), None] {
            run(&cmd("tile", &png, &got_path, &[]), band);
            assert!(std::fs::read(&got_path).unwrap() == want, "{gpu} {format} band {band:?}");
        }
    }
}

/// A streamed copy holds bands, so `--max-memory` bounds it by the band working set (64 MiB),
/// not by the surface: a 48 MiB surface untiles and tiles back under a 72 MiB budget, which a
/// whole-surface copy (input and output, 96 MiB) would exceed; a box of it (not streamed) is
/// still refused.
#[test]
fn a_streamed_copy_fits_a_budget_smaller_than_its_surface() {
    let tmp = Scratch::new("stream-budget");
    let (dump, lin, back) = (tmp.path("dump.bin"), tmp.path("lin.bin"), tmp.path("back.bin"));
    let p = |x: &std::path::Path| x.to_str().unwrap().to_string();
    let surface_bytes = 4096 * 3072 * 4;
    std::fs::File::create(&dump).unwrap().set_len(surface_bytes).unwrap();
    let surf =
        ["--gpu", "gh100", "--elem-size", "4", "--size", "4096x3072", "--max-memory", "75497472"].map(String::from);
    let cmd = |verb: &str, input: &std::path::Path, output: &std::path::Path, extra: &[&str]| {
        let mut a = vec![verb.to_string()];
        a.extend(surf.iter().cloned());
        a.extend(extra.iter().map(|s| s.to_string()));
        a.extend(["--input".into(), p(input), "--output".into(), p(output)]);
        a
    };
    run(&cmd("untile", &dump, &lin, &[]), None);
    assert_eq!(std::fs::metadata(&lin).unwrap().len(), surface_bytes);
    run(&cmd("tile", &lin, &back, &[]), None);
    assert_eq!(std::fs::metadata(&back).unwrap().len(), surface_bytes);
    let out = Command::new(env!("CARGO_BIN_EXE_nvsurf"))
        .args(cmd("untile", &dump, &lin, &["--box", "0,0,0,4096,3072,1"]))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("max-memory 75497472 bytes is less than"), "{err}");
}

/// `convert` of a raw file to PNG streams it (positioned reads a band at a time); read back,
/// the PNG (three slices stacked) gives the raw bytes again for a lossless format, with bands
/// of one row and with the default bands.
#[test]
fn streamed_convert_raw_to_png_round_trips() {
    let tmp = Scratch::new("stream-convert");
    let (raw, png, back) = (tmp.path("in.bin"), tmp.path("a.png"), tmp.path("back.bin"));
    let p = |x: &std::path::Path| x.to_str().unwrap().to_string();
    let data = noise(300 * 70 * 3 * 4, 5);
    std::fs::write(&raw, &data).unwrap();
    for band in [Some("1"), None] {
        let to_png = ["convert", "--format", "R8G8B8A8_UNORM", "--size", "300x70x3", "--input"];
        let mut a: Vec<String> = to_png.iter().map(|s| s.to_string()).collect();
        a.extend([p(&raw), "--output".into(), p(&png)]);
        run(&a, band);
        let from_png = ["convert", "--format", "R8G8B8A8_UNORM", "--depth", "3", "--input"];
        let mut a: Vec<String> = from_png.iter().map(|s| s.to_string()).collect();
        a.extend([p(&png), "--output".into(), p(&back)]);
        run(&a, None);
        assert!(std::fs::read(&back).unwrap() == data, "band {band:?}");
    }
}

/// `convert --png-compression`: `best` writes a smaller PNG than `fast` of a smooth picture,
/// on the streamed path (raw input) and the in-memory one (DDS input), and both give the
/// same pixels back.
#[test]
fn convert_png_compression_is_honoured() {
    let tmp = Scratch::new("convert-png-compression");
    let p = |x: &std::path::Path| x.to_str().unwrap().to_string();
    let (raw, dds, back) = (tmp.path("in.bin"), tmp.path("in.dds"), tmp.path("back.bin"));
    let (w, h) = (256usize, 64usize);
    let data: Vec<u8> = (0..w * h).flat_map(|i| [(i % w) as u8, (i / w * 3) as u8, 128, 255]).collect();
    std::fs::write(&raw, &data).unwrap();
    let conv = |input: &std::path::Path, out: &std::path::Path, extra: &[&str]| {
        let mut a: Vec<String> = ["convert", "--format", "R8G8B8A8_UNORM"].iter().map(|s| s.to_string()).collect();
        a.extend(extra.iter().map(|s| s.to_string()));
        a.extend(["--input".into(), p(input), "--output".into(), p(out)]);
        run(&a, None);
    };
    conv(&raw, &dds, &["--size", "256x64"]);
    for (input, size) in [(&raw, Some("256x64")), (&dds, None)] {
        let mut lens = Vec::new();
        for level in ["fast", "best"] {
            let png = tmp.path(&format!("{level}.png"));
            let mut extra = vec!["--png-compression", level];
            extra.extend(size.iter().flat_map(|s| ["--size", *s]));
            conv(input, &png, &extra);
            lens.push(std::fs::metadata(&png).unwrap().len());
            conv(&png, &back, &[]);
            assert!(std::fs::read(&back).unwrap() == data, "{level} from {}", input.display());
        }
        assert!(lens[1] < lens[0], "best {} bytes, fast {} bytes, from {}", lens[1], lens[0], input.display());
    }
}

/// Decoding split over threads by bands (`Format::decode_rect_rgba8_par`) writes the PNG one
/// thread writes, byte for byte: `untile` and `convert` of BC1, BC7 and RGB10A2 pictures large
/// enough for several bands (1 MiB of pixels each).
#[test]
fn threaded_png_decode_matches_one_thread() {
    let tmp = Scratch::new("threaded-png-decode");
    let p = |x: &std::path::Path| x.to_str().unwrap().to_string();
    for (fmt, elem_bytes_per_px4) in [("BC1_UNORM", 2usize), ("BC7_UNORM", 4), ("RGB10_A2_UNORM", 16)] {
        let (w, h) = (1024usize, 1100usize);
        let data = noise(w * h * elem_bytes_per_px4 / 4, 11);
        let raw = tmp.path("in.bin");
        std::fs::write(&raw, &data).unwrap();
        let mut pngs = Vec::new();
        for threads in ["1", "3"] {
            let png = tmp.path(&format!("{threads}.png"));
            let a: Vec<String> = ["convert", "--format", fmt, "--size", "1024x1100", "--threads", threads, "--input"]
                .iter()
                .map(|s| s.to_string())
                .chain([p(&raw), "--output".into(), p(&png)])
                .collect();
            run(&a, None);
            let tiled = tmp.path("tiled.bin");
            let t: Vec<String> = ["tile", "--gpu", "gm20b", "--format", fmt, "--size", "1024x1100", "--input"]
                .iter()
                .map(|s| s.to_string())
                .chain([p(&raw), "--output".into(), p(&tiled)])
                .collect();
            run(&t, None);
            let upng = tmp.path(&format!("u{threads}.png"));
            let u: Vec<String> =
                ["untile", "--gpu", "gm20b", "--format", fmt, "--size", "1024x1100", "--threads", threads]
                    .iter()
                    .map(|s| s.to_string())
                    .chain(["--input".into(), p(&tiled), "--output".into(), p(&upng)])
                    .collect();
            run(&u, None);
            pngs.push((std::fs::read(&png).unwrap(), std::fs::read(&upng).unwrap()));
        }
        assert!(pngs[0].0 == pngs[1].0, "convert {fmt}");
        assert!(pngs[0].1 == pngs[1].1, "untile {fmt}");
        assert!(pngs[0].0 == pngs[0].1, "convert and untile of {fmt} give one picture");
    }
}

/// `tile` from a DDS or a plain KTX2 file that stores the surface's elements as they are
/// streams its data as a raw image: the bytes of `tile` from the raw file (RGBA8 2D and 3D, BC1 with a
/// last block row cut short; bands of one block row and the default), and a 48 MiB surface
/// within a 72 MiB budget, which holding the picture and the output (96 MiB) would exceed.
#[test]
fn tile_from_a_plain_dds_streams() {
    let tmp = Scratch::new("stream-dds-tile");
    let p = |x: &std::path::Path| x.to_str().unwrap().to_string();
    let args = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<String>>();
    for (fmt, size, bytes) in [
        ("R8G8B8A8_UNORM", "300x70", 300 * 70 * 4),
        ("R8G8B8A8_UNORM", "64x40x3", 64 * 40 * 3 * 4),
        ("BC1_UNORM", "200x70", 50 * 18 * 8),
    ] {
        let (raw, dds, ktx2) = (tmp.path("in.bin"), tmp.path("in.dds"), tmp.path("in.ktx2"));
        std::fs::write(&raw, noise(bytes, 3)).unwrap();
        for pic in [&dds, &ktx2] {
            let mut a = args(&["convert", "--format", fmt, "--size", size, "--input"]);
            a.extend([p(&raw), "--output".into(), p(pic)]);
            run(&a, None);
        }
        let mut outs = Vec::new();
        for (input, band) in [(&raw, None), (&dds, Some("1")), (&dds, None), (&ktx2, Some("1")), (&ktx2, None)] {
            let out = tmp.path("out.bin");
            let mut a = args(&["tile", "--gpu", "gm20b", "--format", fmt, "--size", size, "--input"]);
            a.extend([p(input), "--output".into(), p(&out)]);
            run(&a, band);
            outs.push(std::fs::read(&out).unwrap());
        }
        assert!(outs.iter().all(|o| *o == outs[0]), "{fmt} {size}");
    }
    let (raw, dds, out) = (tmp.path("big.bin"), tmp.path("big.dds"), tmp.path("big.out"));
    std::fs::File::create(&raw).unwrap().set_len(4096 * 3072 * 4).unwrap();
    let mut a = args(&["convert", "--format", "R8G8B8A8_UNORM", "--size", "4096x3072", "--input"]);
    a.extend([p(&raw), "--output".into(), p(&dds)]);
    run(&a, None);
    let surf = ["tile", "--gpu", "gh100", "--format", "R8G8B8A8_UNORM", "--size", "4096x3072"];
    let mut a = args(&surf);
    a.extend(["--max-memory".into(), "75497472".into(), "--input".into(), p(&dds), "--output".into(), p(&out)]);
    run(&a, None);
    assert_eq!(std::fs::metadata(&out).unwrap().len(), 4096 * 3072 * 4);
}

/// `tile --onto BASE --output OUT` from a raw file or a plain DDS streams band by band and
/// writes the bytes `--in-place` (which holds the surface) writes into a copy of BASE: BASE's
/// bytes around the surface and in its blocks' padding kept, for bands of one block row and the
/// default; and a 48 MiB surface patched within a 72 MiB budget.
#[test]
fn tile_onto_streams_and_keeps_the_base() {
    let tmp = Scratch::new("stream-onto");
    let p = |x: &std::path::Path| x.to_str().unwrap().to_string();
    let args = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<String>>();
    let (raw, dds, base) = (tmp.path("in.bin"), tmp.path("in.dds"), tmp.path("base.bin"));
    std::fs::write(&raw, noise(300 * 70 * 4, 8)).unwrap();
    std::fs::write(&base, noise(3 << 20, 9)).unwrap();
    let mut a = args(&["convert", "--format", "R8G8B8A8_UNORM", "--size", "300x70", "--input"]);
    a.extend([p(&raw), "--output".into(), p(&dds)]);
    run(&a, None);
    let surf = ["tile", "--gpu", "gm20b", "--format", "R8G8B8A8_UNORM", "--size", "300x70", "--offset", "4096"];
    let expected = tmp.path("expected.bin");
    std::fs::copy(&base, &expected).unwrap();
    let mut a = args(&surf);
    a.extend(["--onto".into(), p(&expected), "--in-place".into(), "--input".into(), p(&raw)]);
    run(&a, None);
    let expected = std::fs::read(&expected).unwrap();
    assert!(expected != std::fs::read(&base).unwrap());
    for (input, band) in [(&raw, Some("1")), (&raw, None), (&dds, Some("1")), (&dds, None)] {
        let out = tmp.path("out.bin");
        let mut a = args(&surf);
        a.extend(["--onto".into(), p(&base), "--input".into(), p(input), "--output".into(), p(&out)]);
        run(&a, band);
        assert!(std::fs::read(&out).unwrap() == expected, "{} band {band:?}", input.display());
    }
    let (lin, big, out) = (tmp.path("big.bin"), tmp.path("bigbase.bin"), tmp.path("big.out"));
    std::fs::File::create(&lin).unwrap().set_len(4096 * 3072 * 4).unwrap();
    std::fs::File::create(&big).unwrap().set_len(4096 * 3072 * 4 + 4096).unwrap();
    let mut a = args(&["tile", "--gpu", "gh100", "--format", "R8G8B8A8_UNORM", "--size", "4096x3072"]);
    a.extend(["--max-memory", "75497472", "--onto"].map(String::from));
    a.extend([p(&big), "--input".into(), p(&lin), "--output".into(), p(&out)]);
    run(&a, None);
    assert_eq!(std::fs::metadata(&out).unwrap().len(), 4096 * 3072 * 4 + 4096);
}

/// `untile --texture` of a whole texture from a regular file streams band by band (and
/// subresource by subresource) to a raw file, a DDS or a KTX2 file (plain and zstd): the bytes of the whole-texture path
/// (the same dump read from a pipe, which holds it), for mips, arrays, cubes, 3D, BC and pitch
/// textures, with bands of one block row and the default; a 48 MiB texture within a 72 MiB
/// budget.
#[test]
fn whole_texture_untile_streams() {
    let tmp = Scratch::new("stream-texture");
    let p = |x: &std::path::Path| x.to_str().unwrap().to_string();
    let cases: [&[&str]; 6] = [
        &["--gpu", "switch", "--format", "RGBA8_UNORM", "--size", "300x70", "--levels", "5"],
        &[
            "--gpu", "gm20b", "--format", "bc1", "--size", "200x70", "--levels", "4", "--type", "2d_array", "--layers",
            "3",
        ],
        &["--gpu", "ga102", "--format", "RGBA8_UNORM", "--size", "40x40", "--levels", "3", "--type", "cube"],
        &["--gpu", "gf100", "--format", "RGBA16_FLOAT", "--size", "36x20x9", "--levels", "3", "--type", "3d"],
        &["--gpu", "gk104", "--format", "bc7", "--size", "64x32", "--levels", "2"],
        &["--gpu", "gm20b", "--format", "RGBA8_UNORM", "--size", "100x30", "--layout", "pitch"],
    ];
    for case in cases {
        let tex = |verb: &str, extra: &[String]| {
            let mut a = vec![verb.to_string(), "--texture".into()];
            a.extend(case.iter().map(|s| s.to_string()));
            a.extend(extra.iter().cloned());
            a
        };
        // A dump larger than every texture here (the rest is not read).
        let dump = tmp.path("dump.bin");
        std::fs::write(&dump, noise(8 << 20, 21)).unwrap();
        for (ext, zstd) in [("bin", None), ("dds", None), ("ktx2", None), ("ktx2", Some("5"))] {
            let want = tmp.path(&format!("want.{ext}"));
            let z: Vec<String> = zstd.iter().flat_map(|l| ["--ktx2-zstd".to_string(), l.to_string()]).collect();
            let mut c = Command::new(env!("CARGO_BIN_EXE_nvsurf"));
            let mut a = vec!["--input".into(), "-".into(), "--output".into(), p(&want)];
            a.extend(z.iter().cloned());
            c.args(tex("untile", &a));
            c.stdin(std::fs::File::open(&dump).unwrap());
            let out = c.output().unwrap();
            assert!(out.status.success(), "{case:?}: {}", String::from_utf8_lossy(&out.stderr));
            for band in [Some("1"), None] {
                let got = tmp.path(&format!("got.{ext}"));
                let mut a = vec!["--input".into(), p(&dump), "--output".into(), p(&got)];
                a.extend(z.iter().cloned());
                run(&tex("untile", &a), band);
                assert!(std::fs::read(&got).unwrap() == std::fs::read(&want).unwrap(), "{case:?} {ext} {band:?}");
            }
        }
    }
    let (big, out) = (tmp.path("big.bin"), tmp.path("big.dds"));
    std::fs::File::create(&big).unwrap().set_len(64 << 20).unwrap();
    let mut a: Vec<String> =
        ["untile", "--texture", "--gpu", "gh100", "--format", "RGBA8_UNORM", "--size", "4096x3072"]
            .map(String::from)
            .to_vec();
    a.extend(["--max-memory".into(), "75497472".into(), "--input".into(), p(&big), "--output".into(), p(&out)]);
    run(&a, None);
    assert!(std::fs::metadata(&out).unwrap().len() > 4096 * 3072 * 4);
}

/// `tile --texture` of a whole texture from a raw file, a DDS or a plain KTX2 file as it is
/// streams band by band,
/// into a new file or a copy of `--onto`: the bytes of the whole-texture path (the linear file
/// read from a pipe; `--in-place` on a copy of the base), for mips, arrays, cubes, 3D, BC and
/// pitch textures; a 48 MiB texture within a 72 MiB budget.
#[test]
fn whole_texture_tile_streams() {
    let tmp = Scratch::new("stream-texture-tile");
    let p = |x: &std::path::Path| x.to_str().unwrap().to_string();
    let cases: [&[&str]; 5] = [
        &["--gpu", "switch", "--format", "RGBA8_UNORM", "--size", "300x70", "--levels", "5"],
        &[
            "--gpu", "gm20b", "--format", "bc1", "--size", "200x70", "--levels", "4", "--type", "2d_array", "--layers",
            "3",
        ],
        &["--gpu", "ga102", "--format", "RGBA8_UNORM", "--size", "40x40", "--levels", "3", "--type", "cube"],
        &["--gpu", "gf100", "--format", "RGBA16_FLOAT", "--size", "36x20x9", "--levels", "3", "--type", "3d"],
        &["--gpu", "gm20b", "--format", "RGBA8_UNORM", "--size", "100x30", "--layout", "pitch"],
    ];
    let (dump, lin, dds, base) = (tmp.path("dump.bin"), tmp.path("lin.bin"), tmp.path("t.dds"), tmp.path("base.bin"));
    let ktx2 = tmp.path("t.ktx2");
    std::fs::write(&dump, noise(8 << 20, 31)).unwrap();
    std::fs::write(&base, noise(8 << 20, 32)).unwrap();
    for case in cases {
        let tex = |verb: &str, extra: &[String]| {
            let mut a = vec![verb.to_string(), "--texture".into()];
            a.extend(case.iter().map(|s| s.to_string()));
            a.extend(extra.iter().cloned());
            a
        };
        for out in [&lin, &dds, &ktx2] {
            run(&tex("untile", &["--input".into(), p(&dump), "--output".into(), p(out)]), None);
        }
        let want = tmp.path("want.bin");
        let mut c = Command::new(env!("CARGO_BIN_EXE_nvsurf"));
        c.args(tex(
            "tile",
            &["--offset".into(), "4096".into(), "--input".into(), "-".into(), "--output".into(), p(&want)],
        ));
        c.stdin(std::fs::File::open(&lin).unwrap());
        let out = c.output().unwrap();
        assert!(out.status.success(), "{case:?}: {}", String::from_utf8_lossy(&out.stderr));
        let patched = tmp.path("patched.bin");
        std::fs::copy(&base, &patched).unwrap();
        let mut a = vec!["--offset".into(), "4096".into(), "--onto".into(), p(&patched), "--in-place".into()];
        a.extend(["--input".into(), p(&lin)]);
        run(&tex("tile", &a), None);
        for (input, band) in [(&lin, Some("1")), (&lin, None), (&dds, None), (&ktx2, Some("1")), (&ktx2, None)] {
            let got = tmp.path("got.bin");
            let io = ["--offset".into(), "4096".into(), "--input".into(), p(input), "--output".into(), p(&got)];
            run(&tex("tile", &io), band);
            assert!(std::fs::read(&got).unwrap() == std::fs::read(&want).unwrap(), "{case:?} {band:?}");
            let mut a = vec!["--onto".into(), p(&base)];
            a.extend(io.iter().cloned());
            run(&tex("tile", &a), band);
            assert!(std::fs::read(&got).unwrap() == std::fs::read(&patched).unwrap(), "onto {case:?} {band:?}");
        }
    }
    let (big, out) = (tmp.path("big.bin"), tmp.path("big.out"));
    std::fs::File::create(&big).unwrap().set_len(4096 * 3072 * 4).unwrap();
    let mut a: Vec<String> = ["tile", "--texture", "--gpu", "gh100", "--format", "RGBA8_UNORM", "--size", "4096x3072"]
        .map(String::from)
        .to_vec();
    a.extend(["--max-memory".into(), "75497472".into(), "--input".into(), p(&big), "--output".into(), p(&out)]);
    run(&a, None);
    assert!(std::fs::metadata(&out).unwrap().len() >= 4096 * 3072 * 4);
    // The same from a plain KTX2 file, written by the streamed untile within the same budget.
    let big_ktx2 = tmp.path("big.ktx2");
    let mut u = a.clone();
    u[0] = "untile".into();
    let n = u.len();
    (u[n - 3], u[n - 1]) = (p(&out), p(&big_ktx2));
    run(&u, None);
    let m = a.len();
    a[m - 3] = p(&big_ktx2);
    run(&a, None);
    assert!(std::fs::metadata(&out).unwrap().len() >= 4096 * 3072 * 4);
}
