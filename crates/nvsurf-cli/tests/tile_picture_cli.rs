//! Pictures through `nvsurf tile` / `nvsurf untile`: a tiled dump becomes a
//! PNG in one command, and a PNG or DDS becomes a tiled dump.

use nvsurf::format::Format;
use nvsurf::layout::SurfaceDesc;
use nvsurf::tile::{AlignedBuf, CopyOptions};
use nvsurf::Gpu;

mod pictures;
use pictures::*;
mod scratch;
use scratch::Scratch;

/// A 37x21 picture (no dimension a multiple of a gob) with varied bytes in every channel.
fn picture(w: usize, h: usize) -> Vec<u8> {
    (0..w * h * 4).map(|i| (i.wrapping_mul(2_654_435_761) >> 9) as u8).collect()
}

/// GF100 in the document's VM gob order (named: GF100's default is nil's Fermi order).
const SURF: [&str; 10] =
    ["--gpu", "gf100", "--gob", "vm", "--size", "37x21", "--block-log2", "0,2,0", "--format", "A8B8G8R8"];

#[test]
fn png_to_tiled_dump_and_back_in_one_command_each() {
    let tmp = Scratch::new("tile-picture");
    let (w, h) = (37usize, 21usize);
    let px = picture(w, h);
    let (png_in, dump, png_out) = (tmp.path("in.png"), tmp.path("dump.bin"), tmp.path("out.png"));
    write_png_rgba8(&png_in, w as u32, h as u32, &px);

    // tile: PNG in, tiled dump out. A8B8G8R8 (NVIDIA's MSB-first name) stores R in the lowest
    // byte, so the linear elements are the PNG's RGBA bytes and the dump must be exactly their
    // tiling by the library.
    let mut args = vec!["tile", "--input", s(&png_in), "--output", s(&dump)];
    args.extend(SURF);
    let (rc, _, err) = nvsurf(&args);
    assert_eq!(rc, 0, "{err}");
    let mut d = SurfaceDesc::new(Gpu::Gf100, 4, [37, 21, 1]);
    d.block_log2 = Some([0, 2, 0]);
    let want =
        nvsurf::tile::tile_to_buf(&d.build().unwrap(), &px, &CopyOptions::default()).map(AlignedBuf::into_vec).unwrap();
    let got = std::fs::read(&dump).unwrap();
    assert_eq!(got, want);
    assert_ne!(got[..px.len()], px[..], "tiling must have moved bytes");

    // untile: the one-command picture of a tiled dump.
    let mut args = vec!["untile", "--input", s(&dump), "--output", s(&png_out)];
    args.extend(SURF);
    let (rc, out, err) = nvsurf(&args);
    assert_eq!(rc, 0, "{err}");
    assert!(err.contains("37x21x1 px") && out.is_empty(), "status lines go to stderr: {out} {err}");
    assert_eq!(read_png_rgba8(&png_out), (37, 21, px.clone()));

    // A box of elements gives the picture of just the box.
    let boxed = tmp.path("box.png");
    let mut args = vec!["untile", "--input", s(&dump), "--output", s(&boxed), "--box", "5,3,0,10,7,1"];
    args.extend(SURF);
    let (rc, _, err) = nvsurf(&args);
    assert_eq!(rc, 0, "{err}");
    let (bw, bh, bpx) = read_png_rgba8(&boxed);
    assert_eq!((bw, bh), (10, 7));
    for y in 0..7 {
        assert_eq!(bpx[y * 40..(y + 1) * 40], px[((y + 3) * w + 5) * 4..][..40], "box row {y}");
    }

    // Other picture types by extension: EXR and DDS round-trip the elements exactly.
    for ext in ["exr", "dds"] {
        let (pic, back) = (tmp.path(&format!("out.{ext}")), tmp.path(&format!("back-{ext}.bin")));
        let mut args = vec!["untile", "--input", s(&dump), "--output", s(&pic)];
        args.extend(SURF);
        assert_eq!(nvsurf(&args).0, 0, "{ext}");
        let mut args = vec!["tile", "--input", s(&pic), "--output", s(&back)];
        args.extend(SURF);
        let (rc, _, err) = nvsurf(&args);
        assert_eq!(rc, 0, "{ext}: {err}");
        assert_eq!(std::fs::read(&back).unwrap(), want, "{ext}");
    }
}

#[test]
fn compressed_surface_sizes_are_pixels() {
    let tmp = Scratch::new("tile-picture");
    // BC1 at 10x10 pixels is 3x3 elements of 8 bytes; the picture is clipped to 10x10.
    let f = Format::parse("bc1").unwrap();
    let linear: Vec<u8> = (0..3 * 3 * 8).map(|i| (i * 37 + 11) as u8).collect();
    let mut d = SurfaceDesc::new(Gpu::Gf100, 8, [3, 3, 1]);
    d.block_log2 = Some([0, 0, 0]);
    let dump = nvsurf::tile::tile_to_buf(&d.build().unwrap(), &linear, &CopyOptions::default())
        .map(AlignedBuf::into_vec)
        .unwrap();
    let (dump_p, png_p) = (tmp.path("bc1.bin"), tmp.path("bc1.png"));
    std::fs::write(&dump_p, &dump).unwrap();
    let args = [
        "untile",
        "--gpu",
        "gf100",
        "--gob",
        "vm",
        "--format",
        "dxt1",
        "--size",
        "10x10",
        "--block-log2",
        "0,0,0",
        "--input",
        s(&dump_p),
        "--output",
        s(&png_p),
    ];
    let (rc, _, err) = nvsurf(&args);
    assert_eq!(rc, 0, "{err}");
    let (w, h, px) = read_png_rgba8(&png_p);
    assert_eq!((w, h), (10, 10));
    let mut want = vec![[0u8; 4]; 100];
    f.decode_rect_rgba8(&linear, 24, 10, 10, &mut want).unwrap();
    assert_eq!(px, want.as_flattened());
}

#[test]
fn whole_texture_through_one_dds() {
    let tmp = Scratch::new("tile-picture");
    // A BC1 2D texture with 3 levels: dump -> DDS -> dump gives the same bytes.
    let tex = ["--texture", "--gpu", "gf100", "--format", "bc1", "--size", "64x32", "--levels", "3"];
    let (lin, dump, dds, back) =
        (tmp.path("tex.lin"), tmp.path("tex.bin"), tmp.path("tex.dds"), tmp.path("tex-back.bin"));
    // Packed linear levels: 16x8 + 8x4 + 4x2 blocks of 8 bytes.
    let n = (16 * 8 + 8 * 4 + 4 * 2) * 8;
    std::fs::write(&lin, (0..n).map(|i| (i * 13 % 251) as u8).collect::<Vec<u8>>()).unwrap();
    let run = |extra: &[&str]| {
        let mut args: Vec<&str> = extra.to_vec();
        args.extend(tex);
        let (rc, _, err) = nvsurf(&args);
        assert_eq!(rc, 0, "{extra:?}: {err}");
    };
    run(&["tile", "--input", s(&lin), "--output", s(&dump)]);
    run(&["untile", "--input", s(&dump), "--output", s(&dds)]);
    run(&["tile", "--input", s(&dds), "--output", s(&back)]);
    assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&dump).unwrap());
    // The DDS holds the elements themselves (BC1 has a DXGI twin), after its header.
    let dds_bytes = std::fs::read(&dds).unwrap();
    let lin_bytes = std::fs::read(&lin).unwrap();
    assert_eq!(dds_bytes[dds_bytes.len() - n..], lin_bytes[..]);
    // A DDS of another shape than the flags say is refused with one line naming both.
    let (rc, _, err) = nvsurf(&[
        "tile",
        "--texture",
        "--gpu",
        "gf100",
        "--format",
        "bc1",
        "--size",
        "64x32",
        "--levels",
        "2",
        "--input",
        s(&dds),
        "--output",
        s(&back),
    ]);
    assert_eq!(rc, 2);
    assert!(err.contains("the DDS holds BC1 64x32 with 3 levels; --levels says 2"), "{err}");
}

#[test]
fn picture_errors_are_one_line() {
    let tmp = Scratch::new("tile-picture");
    let dump = tmp.path("err.bin");
    std::fs::write(&dump, vec![0u8; 1 << 16]).unwrap();
    let small = tmp.path("small.png");
    write_png_rgba8(&small, 4, 4, &[9u8; 64]);
    let out = tmp.path("err.png");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["untile", "--gpu", "gf100", "--elem-size", "4", "--size", "8x8", "--block-log2", "0,0,0"],
            "give --format",
        ),
        (vec!["untile", "--linear-pitch", "256"], "linear-pitch"),
        (vec!["tile"], "is 4x4x1 px but the surface is 37x21x1 px"),
    ];
    for (mut args, want) in cases {
        let (input, output) = if args[0] == "tile" { (s(&small), s(&dump)) } else { (s(&dump), s(&out)) };
        args.extend(["--input", input, "--output", output]);
        if !args.contains(&"--gpu") {
            args.extend(SURF);
        }
        let (rc, _, err) = nvsurf(&args);
        assert_eq!(rc, 2, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
}

#[test]
fn unreadable_pictures_name_the_file() {
    let tmp = Scratch::new("tile-picture");
    let dump = tmp.path("named.bin");
    let cases = [
        ("bad.png", b"not a png at all".to_vec(), "picture '"),
        // A PNG cut off after its signature and the start of IHDR.
        ("cut.png", b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR\0\0".to_vec(), "picture '"),
        ("bad.dds", b"DDS ".to_vec(), "cannot read DDS '"),
        ("bad.exr", b"v/1\x01".to_vec(), "cannot read EXR '"),
    ];
    for (name, bytes, want) in cases {
        let p = tmp.path(name);
        std::fs::write(&p, bytes).unwrap();
        let mut args = vec!["tile", "--input", s(&p), "--output", s(&dump)];
        args.extend(SURF);
        let (rc, _, err) = nvsurf(&args);
        assert_eq!(rc, 2, "{name}: {err}");
        // PNG: what is wrong with the file ("is not a valid PNG", "is not a whole PNG").
        let named = format!("{want}{}'", p.display());
        assert!(err.contains(&named), "{name}: {err}");
        if name.ends_with(".png") {
            assert!(err.contains("PNG") && (err.contains("not a valid") || err.contains("not a whole")), "{err}");
        }
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
}

#[test]
fn unsupported_picture_extensions_are_errors_not_raw_bytes() {
    let tmp = Scratch::new("tile-picture");
    let dump = tmp.path("ext.bin");
    std::fs::write(&dump, vec![0u8; 1 << 16]).unwrap();
    for ext in ["jpg", "JPEG", "bmp", "gif", "tga", "tif", "tiff", "webp"] {
        let out = tmp.path(&format!("out.{ext}"));
        let _ = std::fs::remove_file(&out);
        let mut args = vec!["untile", "--input", s(&dump), "--output", s(&out)];
        args.extend(SURF);
        let (rc, _, err) = nvsurf(&args);
        assert_eq!(rc, 2, "{ext}: {err}");
        assert!(err.contains(".png, .exr, .dds or .ktx2, or any other extension for raw bytes"), "{ext}: {err}");
        assert!(err.contains(&format!("'{}'", out.display())), "{ext}: {err}");
        assert!(!out.exists(), "{ext}: nothing may be written");
        // The other direction, and whole textures, too.
        let mut args = vec!["tile", "--input", s(&out), "--output", s(&dump)];
        args.extend(SURF);
        assert_eq!(nvsurf(&args).0, 2, "{ext}");
        args.push("--texture");
        assert_eq!(nvsurf(&args).0, 2, "{ext}");
    }
    // Other extensions are still raw bytes.
    let raw = tmp.path("out.raw");
    let mut args = vec!["untile", "--input", s(&dump), "--output", s(&raw)];
    args.extend(SURF);
    let (rc, _, err) = nvsurf(&args);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(std::fs::read(&raw).unwrap().len(), 37 * 21 * 4);
    // `convert` follows the same rule.
    let jpg = tmp.path("convert.jpg");
    let (rc, _, err) =
        nvsurf(&["convert", "--format", "A8B8G8R8", "--input", s(&raw), "--size", "37x21", "--output", s(&jpg)]);
    assert_eq!(rc, 2, "{err}");
    assert!(!jpg.exists());
}

/// Legacy DDS files (no DX10 header, as most texture tools write them) are read through the
/// DXGI twin of their Direct3D 9 format (Microsoft's "Programming Guide for DDS" table): DXT1
/// as BC1 UNORM (the ddsfile crate says sRGB, which no codec took), A8B8G8R8 as RGBA8, and
/// A8R8G8B8 as BGRA8, converted.
#[test]
fn legacy_dds_files_are_read() {
    use ddsfile::{D3DFormat, Dds, NewD3dParams};
    let tmp = Scratch::new("tile-picture");
    let legacy = |name: &str, format: D3DFormat, mips: u32, data: &[u8]| {
        let mut dds = Dds::new_d3d(NewD3dParams {
            height: 8,
            width: 8,
            depth: None,
            format,
            mipmap_levels: Some(mips),
            caps2: None,
        })
        .unwrap();
        assert!(dds.header10.is_none());
        dds.data = data.to_vec();
        let p = tmp.path(name);
        dds.write(&mut std::fs::File::create(&p).unwrap()).unwrap();
        p
    };
    let (out, raw, lin) = (tmp.path("legacy.bin"), tmp.path("legacy-raw.bin"), tmp.path("legacy.lin"));
    let surface =
        |f: &str| ["tile", "--gpu", "gf100", "--format", f, "--size", "8x8", "--block-log2", "0,0,0"].map(String::from);
    let tile = |f: &str, input: &std::path::Path, output: &std::path::Path| {
        let mut args: Vec<String> = surface(f).to_vec();
        args.extend(["--input", s(input), "--output", s(output)].map(String::from));
        let (rc, _, err) = nvsurf(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(rc, 0, "{f}: {err}");
        std::fs::read(output).unwrap()
    };
    // DXT1: 2x2 blocks of 8 bytes, taken as they are.
    let bc1: Vec<u8> = (0..32u8).map(|i| i.wrapping_mul(37)).collect();
    let dds = legacy("dxt1.dds", D3DFormat::DXT1, 1, &bc1);
    std::fs::write(&lin, &bc1).unwrap();
    assert_eq!(tile("bc1", &dds, &out), tile("bc1", &lin, &raw));
    // A8B8G8R8 (R in the low byte): RGBA8 as it is.
    let rgba: Vec<u8> = (0..256u32).map(|i| (i * 7 + 3) as u8).collect();
    let dds = legacy("abgr.dds", D3DFormat::A8B8G8R8, 1, &rgba);
    std::fs::write(&lin, &rgba).unwrap();
    assert_eq!(tile("RGBA8_UNORM", &dds, &out), tile("RGBA8_UNORM", &lin, &raw));
    // A8R8G8B8 (B in the low byte): converted to RGBA8, R and B swapped.
    let dds = legacy("argb.dds", D3DFormat::A8R8G8B8, 1, &rgba);
    let swapped: Vec<u8> = rgba.chunks(4).flat_map(|p| [p[2], p[1], p[0], p[3]]).collect();
    std::fs::write(&lin, &swapped).unwrap();
    assert_eq!(tile("RGBA8_UNORM", &dds, &out), tile("RGBA8_UNORM", &lin, &raw));
    // A legacy format without a DXGI twin names itself.
    let dds = legacy("a8r3g3b2.dds", D3DFormat::A8R3G3B2, 1, &rgba[..128]);
    let mut args: Vec<String> = surface("RGBA8_UNORM").to_vec();
    args.extend(["--input", s(&dds), "--output", s(&out)].map(String::from));
    let (rc, _, err) = nvsurf(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(rc == 2 && err.contains("legacy format (A8R3G3B2)"), "{err}");
}

/// PNG pictures stream band by band (`untile` writes rows as they are untiled, `tile` reads
/// them as they are tiled). With tiny bands (`NVSURF_BAND_BYTES`), the streamed picture equals
/// the one `convert` writes from the whole linear image, for 8-bit, 16-bit and block formats,
/// odd sizes, boxes and 3D slices; and `tile` from it gives back the dump.
#[test]
fn streamed_pictures_equal_whole_ones() {
    let tmp = Scratch::new("png-stream");
    for (fmt, size, block, boxed) in [
        ("A8B8G8R8", "37x21", "0,1,0", None),
        ("RGBA16_UNORM", "19x30", "0,2,0", None),
        ("dxt1", "30x22", "0,0,0", None),
        ("A8B8G8R8", "40x33", "0,2,0", Some("3,5,0,20,17,1")),
        ("A8B8G8R8", "16x12x3", "0,1,1", None),
    ] {
        let surf = ["--gpu", "gf100", "--format", fmt, "--size", size, "--block-log2", block];
        let raw_size = {
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_nvsurf"))
                .args(["layout", "--json"])
                .args(surf)
                .output()
                .unwrap();
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            v["size_bytes"].as_u64().unwrap() as usize
        };
        let dump: Vec<u8> = (0..raw_size).map(|i| (i * 131 + i / 7) as u8).collect();
        let (d, lin, whole, streamed) =
            (tmp.path("d.bin"), tmp.path("lin.bin"), tmp.path("whole.png"), tmp.path("s.png"));
        std::fs::write(&d, &dump).unwrap();
        let mut base: Vec<&str> = surf.to_vec();
        if let Some(b) = boxed {
            base.extend(["--box", b]);
        }
        let run = |args: Vec<&str>, band: &str| {
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_nvsurf"))
                .args(args)
                .env("NVSURF_BAND_BYTES", band)
                .output()
                .unwrap();
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        };
        let mut a = vec!["untile", "--input", s(&d), "--output", s(&lin)];
        a.extend(&base);
        run(a, "100");
        let mut a = vec!["untile", "--input", s(&d), "--output", s(&streamed)];
        a.extend(&base);
        run(a, "100");
        // The whole-image path: `convert` of the raw linear image.
        let [w, h, dep] = {
            let r = boxed.map(|b| b.split(',').map(|v| v.parse::<u32>().unwrap()).collect::<Vec<_>>());
            let parts: Vec<u32> = size.split('x').map(|v| v.parse().unwrap()).collect();
            match r {
                Some(r) => [r[3], r[4], r[5]],
                None => [parts[0], parts[1], *parts.get(2).unwrap_or(&1)],
            }
        };
        let conv_size = format!("{w}x{h}x{dep}");
        run(vec!["convert", "--format", fmt, "--size", &conv_size, "--input", s(&lin), "--output", s(&whole)], "100");
        assert_eq!(read_png_any(&streamed), read_png_any(&whole), "{fmt} {size} {boxed:?}");
        // BC1 cannot be encoded (yet): no tile back for it.
        if dep == 1 && boxed.is_none() && fmt != "dxt1" {
            let back = tmp.path("back.bin");
            let mut a = vec!["tile", "--input", s(&streamed), "--output", s(&back)];
            a.extend(&base);
            run(a, "100");
            let (lin2, again) = (tmp.path("lin2.bin"), tmp.path("again.png"));
            let mut a = vec!["untile", "--input", s(&back), "--output", s(&lin2)];
            a.extend(&base);
            run(a, "100");
            // The linear elements survive the PNG round trip exactly for these formats.
            assert!(std::fs::read(&lin2).unwrap() == std::fs::read(&lin).unwrap(), "{fmt}");
            let mut a = vec!["untile", "--input", s(&back), "--output", s(&again)];
            a.extend(&base);
            run(a, "100");
            assert_eq!(read_png_any(&again), read_png_any(&whole), "{fmt}");
        }
    }
}
