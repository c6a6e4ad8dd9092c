//! ASTC and ETC2 through the binary: a Switch ASTC 8x8 dump to PNG in one command (laid out by
//! `tegra_swizzle`, the Switch tools' crate, and compared with ARM's astcenc's decode), the
//! one-line refusals, and the ASTC encode round trip (`convert` / `tile` from PNG).

use std::process::Command;
use tegra_swizzle::surface::{swizzle_surface, BlockDim};

mod scratch;
use scratch::Scratch;

fn nvsurf(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nvsurf")).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../nvsurf/tests/data/astc/");

/// RGBA8 pixels of an 8-bit RGBA PNG.
fn png_rgba8(path: &std::path::Path) -> (u32, u32, Vec<u8>) {
    let dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut r = dec.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size().unwrap()];
    let info = r.next_frame(&mut buf).unwrap();
    assert_eq!((info.color_type, info.bit_depth), (png::ColorType::Rgba, png::BitDepth::Eight));
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// astcenc's 8-bit decode (KTX 1, one level).
fn ktx_rgba8(name: &str) -> Vec<u8> {
    let b = std::fs::read(format!("{DATA}{name}")).unwrap();
    let kv = u32::from_le_bytes(b[60..64].try_into().unwrap()) as usize;
    let size = u32::from_le_bytes(b[64 + kv..68 + kv].try_into().unwrap()) as usize;
    b[68 + kv..68 + kv + size].to_vec()
}

fn psnr(a: &[u8], b: &[u8]) -> f64 {
    let mse = a.iter().zip(b).map(|(&x, &y)| (f64::from(x) - f64::from(y)).powi(2)).sum::<f64>() / a.len() as f64;
    10.0 * (255.0f64 * 255.0 / mse).log10()
}

#[test]
fn a_switch_astc_dump_is_a_png_in_one_command() {
    let tmp = Scratch::new("astc-switch");
    let astc = std::fs::read(format!("{DATA}ldr_8x8.astc")).unwrap();
    let (w, h) = (36u32, 30u32);
    let dim = BlockDim {
        width: std::num::NonZeroU32::new(8).unwrap(),
        height: std::num::NonZeroU32::new(8).unwrap(),
        depth: std::num::NonZeroU32::new(1).unwrap(),
    };
    let tiled = swizzle_surface(w, h, 1, &astc[16..], dim, None, 16, 1, 1).unwrap();
    let (dump, png) = (tmp.path("dump.bin"), tmp.path("out.png"));
    std::fs::write(&dump, &tiled).unwrap();
    let args = ["untile", "--gpu", "switch", "--format", "astc_8x8", "--size", "36x30"];
    let mut a = args.to_vec();
    a.extend(["--input", dump.to_str().unwrap(), "--output", png.to_str().unwrap()]);
    let (code, _, err) = nvsurf(&a);
    assert_eq!(code, 0, "{err}");
    let (pw, ph, px) = png_rgba8(&png);
    assert_eq!((pw, ph), (w, h));
    let reference = ktx_rgba8("ldr_8x8.ktx");
    // Within one code of astcenc (crates/nvsurf/tests/astc_vectors.rs says why).
    for (i, (o, r)) in px.iter().zip(&reference).enumerate() {
        assert!((i32::from(*o) - i32::from(*r)).abs() <= 1, "byte {i}: {o} against astcenc {r}");
    }
}

#[test]
fn astc_and_etc2_refusals_are_one_line() {
    for (args, want) in [
        (vec!["untile", "--gpu", "gk104", "--format", "astc_8x8", "--size", "8x8"], "GM107"),
        (vec!["untile", "--gpu", "tegra-k1", "--format", "etc2_rgb8", "--size", "8x8"], "Maxwell"),
        (vec!["untile", "--gpu", "switch", "--format", "astc_7x7", "--size", "8x8"], "ASTC 2D blocks are 4x4"),
        (vec!["decode", "--format", "astc_13x13", "--hex", "00"], "block size 13x13"),
        (vec!["texture", "--gpu", "gm20b", "--format", "astc_10x5_srgb", "--size", "8x8"], "*"),
        (vec!["texture", "--gpu", "gk110", "--format", "eac_rg11", "--size", "8x8"], "GM107"),
    ] {
        let mut a = args.clone();
        if args[0] == "untile" {
            a.extend(["--input", "/nonexistent-input", "--output", "/nonexistent-output"]);
        }
        if want == "*" {
            // Accepted on Tegra X1.
            let (code, _, err) = nvsurf(&a);
            assert_eq!(code, 0, "{args:?}: {err}");
            continue;
        }
        let (code, _, err) = nvsurf(&a);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

#[test]
fn astc_encodes_from_png_and_round_trips() {
    let tmp = Scratch::new("astc-encode");
    let src = format!("{DATA}source.png");
    let (_, _, source) = png_rgba8(std::path::Path::new(&src));
    for (fmt, reference) in [("astc_8x8", "ldr_8x8.ktx"), ("astc_4x4", "ldr_4x4.ktx"), ("astc_12x12", "ldr_12x12.ktx")]
    {
        let (blocks, back) = (tmp.path("blocks.bin"), tmp.path("back.png"));
        let (code, _, err) =
            nvsurf(&["convert", "--format", fmt, "--input", &src, "--output", blocks.to_str().unwrap()]);
        if cfg!(not(feature = "astcenc")) && fmt == "astc_12x12" {
            // The built-in encoder stops at 8x8: one line naming the feature that encodes it.
            assert_eq!(code, 2, "{err}");
            assert!(err.contains("--features astcenc") && err.lines().count() == 1, "{err}");
            continue;
        }
        assert_eq!(code, 0, "{err}");
        let (code, _, err) = nvsurf(&[
            "convert",
            "--format",
            fmt,
            "--size",
            "36x30",
            "--input",
            blocks.to_str().unwrap(),
            "--output",
            back.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        let (_, _, ours) = png_rgba8(&back);
        // Near ARM's own command-line encode at its medium preset (the picture is a fifth noise,
        // so 8x8 and 12x12 stay below 20 dB either way). ARM's encoder (feature `astcenc`) is
        // within 1 dB; the built-in ISPC encoder measured 0.8-1.8 dB below it on this picture
        // (and above it on smooth ones: docs/encoding.md).
        let (p_ours, p_ref) = (psnr(&ours, &source), psnr(&ktx_rgba8(reference), &source));
        let slack = if cfg!(feature = "astcenc") { 1.0 } else { 2.5 };
        assert!(p_ours > p_ref - slack && p_ours > 15.0, "{fmt}: {p_ours:.2} dB, astcenc {p_ref:.2} dB");
    }
    // `tile` takes the PNG too, and `untile` gives it back.
    let (dump, back) = (tmp.path("dump.bin"), tmp.path("back2.png"));
    let surf = ["--gpu", "switch", "--format", "astc_6x6_srgb", "--size", "36x30"];
    let mut a = vec!["tile"];
    a.extend(surf);
    a.extend(["--input", &src, "--output", dump.to_str().unwrap()]);
    let (code, _, err) = nvsurf(&a);
    assert_eq!(code, 0, "{err}");
    let mut a = vec!["untile"];
    a.extend(surf);
    a.extend(["--input", dump.to_str().unwrap(), "--output", back.to_str().unwrap()]);
    let (code, _, err) = nvsurf(&a);
    assert_eq!(code, 0, "{err}");
    let (_, _, ours) = png_rgba8(&back);
    assert!(psnr(&ours, &source) > 15.0, "{:.2} dB", psnr(&ours, &source));
}

/// ASTC and ETC2 blocks go into a KTX2 as they are (the `VkFormat` of the footprint, Vulkan
/// specification: ASTC_8x8_UNORM_BLOCK = 171, ETC2_R8G8B8_UNORM_BLOCK = 147), and `tile` from
/// that KTX2 gives the dump back byte for byte, with no shape flags.
#[test]
fn astc_and_etc2_blocks_go_through_ktx2_as_they_are() {
    let tmp = Scratch::new("astc-ktx2");
    let astc = std::fs::read(format!("{DATA}ldr_8x8.astc")).unwrap();
    for (format, vk, blocks) in [("astc_8x8", 171u32, astc[16..].to_vec()), ("etc2_rgb", 147, vec![0x5a; 9 * 8 * 8])] {
        let (lin, dump, ktx, back) =
            (tmp.path("lin.bin"), tmp.path("dump.bin"), tmp.path("t.ktx2"), tmp.path("back.bin"));
        std::fs::write(&lin, &blocks).unwrap();
        let s = |p: &std::path::Path| p.to_str().unwrap().to_string();
        let run = |args: &[String]| {
            let a: Vec<&str> = args.iter().map(String::as_str).collect();
            let (code, _, err) = nvsurf(&a);
            assert_eq!(code, 0, "{args:?}: {err}");
        };
        let shape = ["--gpu", "switch", "--format", format, "--size", "36x30"].map(String::from);
        run(&[&["tile".to_string()][..], &shape, &["--input".into(), s(&lin), "--output".into(), s(&dump)]].concat());
        run(&[&["untile".to_string()][..], &shape, &["--input".into(), s(&dump), "--output".into(), s(&ktx)]].concat());
        let k = std::fs::read(&ktx).unwrap();
        assert_eq!(u32::from_le_bytes(k[12..16].try_into().unwrap()), vk, "{format}: vkFormat");
        // The level's bytes are the blocks themselves (one level, stored uncompressed, at the end).
        assert_eq!(&k[k.len() - blocks.len()..], &blocks[..], "{format}: blocks stored as they are");
        run(&["tile", "--gpu", "switch", "--input", &s(&ktx), "--output", &s(&back)].map(String::from));
        assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&dump).unwrap(), "{format}");
    }
}

/// A DDS of ASTC or ETC2 holds decoded floats (DDS has no DXGI id for them): `untile` says so
/// in one warning line that points to `.ktx2`, for a surface and a whole texture; a `.ktx2`
/// keeps the blocks and gets no warning.
#[test]
fn astc_and_etc2_to_dds_warn_once_and_point_to_ktx2() {
    let tmp = Scratch::new("astc-dds-warning");
    let (lin, dump) = (tmp.path("lin.bin"), tmp.path("dump.bin"));
    let s = |p: &std::path::Path| p.to_str().unwrap().to_string();
    for (format, elem) in [("astc_8x8", 16usize), ("etc2_rgb", 8)] {
        for texture in [false, true] {
            let mut shape: Vec<String> =
                ["--gpu", "switch", "--format", format, "--size", "32x32", "--force"].map(String::from).to_vec();
            if texture {
                shape.push("--texture".into());
            }
            // 32x32 texels: 4x4 blocks of 8x8 (ASTC), 8x8 blocks of 4x4 (ETC2).
            let blocks = if format == "astc_8x8" { 4 * 4 } else { 8 * 8 } * elem;
            std::fs::write(&lin, vec![0x3c; blocks]).unwrap();
            let run = |verb: &str, input: &std::path::Path, output: &std::path::Path| {
                let a: Vec<String> = [
                    vec![verb.to_string()],
                    shape.clone(),
                    vec!["--input".into(), s(input), "--output".into(), s(output)],
                ]
                .concat();
                let (code, _, err) = nvsurf(&a.iter().map(String::as_str).collect::<Vec<_>>());
                assert_eq!(code, 0, "{a:?}: {err}");
                err
            };
            run("tile", &lin, &dump);
            let err = run("untile", &dump, &tmp.path("x.dds"));
            let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning:")).collect();
            assert_eq!(warnings.len(), 1, "{format} texture {texture}: {err}");
            assert!(warnings[0].contains(".ktx2") && warnings[0].contains("R32G32B32A32_FLOAT"), "{err}");
            let err = run("untile", &dump, &tmp.path("x.ktx2"));
            assert!(!err.contains("warning:"), "{format} texture {texture}: {err}");
        }
    }
}
