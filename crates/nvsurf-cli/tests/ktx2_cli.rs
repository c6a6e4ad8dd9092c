//! KTX2 through the commands: `untile` to a .ktx2 (plain and `--ktx2-zstd`), `tile` back from
//! it with no shape flags, `convert` to and from .ktx2, the files read by the `ktx2` crate, and
//! a BasisLZ file refused with nothing written.

mod pictures;
use pictures::*;
mod scratch;
use scratch::Scratch;

const GPU: [&str; 2] = ["--gpu", "gf100"];

fn ok(args: &[&str]) -> String {
    let (rc, _, err) = nvsurf(args);
    assert_eq!(rc, 0, "{args:?}: {err}");
    err
}

/// A BC7 cube map with mips: dump -> KTX2 -> dump, with and without zstd, gives the same dump;
/// the KTX2 is a cube of BC7 blocks to the `ktx2` crate; `tile` needs only --gpu and --texture.
#[test]
fn ktx2_written_and_read_back_through_untile_and_tile() {
    let tmp = Scratch::new("ktx2");
    let shape = ["--format", "bc7", "--size", "32x32", "--levels", "6", "--type", "cube", "--texture"];
    let (lin, dump) = (tmp.path("lin.bin"), tmp.path("dump.bin"));
    // Per face 8x8 + 4x4 + 2x2 + 1 + 1 + 1 blocks of 16 bytes.
    let n = 6 * (64 + 16 + 4 + 3) * 16;
    std::fs::write(&lin, (0..n).map(|i| (i * 7 % 253) as u8).collect::<Vec<u8>>()).unwrap();
    // `cmd --input IN --output OUT --gpu gf100 SHAPE... EXTRA...`
    let run = |cmd: &str, input: &std::path::Path, output: &std::path::Path, extra: &[&str]| {
        let mut args = vec![cmd, "--input", s(input), "--output", s(output)];
        args.extend(GPU);
        args.extend(shape);
        args.extend(extra);
        ok(&args)
    };
    run("tile", &lin, &dump, &[]);
    for (name, zstd) in [("plain.ktx2", None), ("zstd.ktx2", Some("19"))] {
        let ktx = tmp.path(name);
        run("untile", &dump, &ktx, zstd.map(|l| ["--ktx2-zstd", l]).as_ref().map_or(&[][..], |a| &a[..]));
        let bytes = std::fs::read(&ktx).unwrap();
        let r = ktx2::Reader::new(&bytes[..]).unwrap();
        let h = r.header();
        assert_eq!(h.format, Some(ktx2::Format::BC7_UNORM_BLOCK));
        assert_eq!((h.pixel_width, h.pixel_height, h.face_count, h.level_count), (32, 32, 6, 6));
        assert_eq!(h.supercompression_scheme.is_some(), zstd.is_some(), "{name}");
        // Level 0 holds the six faces' first 8x8 blocks as the linear file has them.
        let l0 = r.levels().next().unwrap();
        let l0 = match zstd {
            Some(_) => zstd::bulk::decompress(l0.data, l0.uncompressed_byte_length as usize).unwrap(),
            None => l0.data.to_vec(),
        };
        let lin_bytes = std::fs::read(&lin).unwrap();
        let face = (64 + 16 + 4 + 3) * 16;
        for f in 0..6 {
            assert_eq!(l0[f * 1024..(f + 1) * 1024], lin_bytes[f * face..f * face + 1024], "{name} face {f}");
        }
        // Back: the KTX2 says format, size, levels, layers and type.
        let back = tmp.path("back.bin");
        ok(&["tile", "--gpu", "gf100", "--texture", "--input", s(&ktx), "--output", s(&back)]);
        assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&dump).unwrap(), "{name}");
    }
    // --ktx2-zstd outside zstd's levels is refused before anything is written.
    let bad = tmp.path("bad.ktx2");
    let (rc, _, err) = nvsurf(&[
        "untile",
        "--gpu",
        "gf100",
        "--format",
        "bc7",
        "--size",
        "32x32",
        "--input",
        s(&dump),
        "--output",
        s(&bad),
        "--ktx2-zstd",
        "30",
    ]);
    assert!(rc == 2 && err.contains("ktx2-zstd 30") && !bad.exists(), "{err}");
}

/// `convert` writes a picture to KTX2 and reads it back, the format from the file.
#[test]
fn convert_to_and_from_ktx2() {
    let tmp = Scratch::new("ktx2");
    let (png, ktx, back) = (tmp.path("in.png"), tmp.path("p.ktx2"), tmp.path("back.png"));
    let px: Vec<u8> = (0..9 * 7 * 4).map(|i| (i * 37 % 256) as u8).collect();
    write_png_rgba8(&png, 9, 7, &px);
    ok(&["convert", "--format", "RGBA8_UNORM", "--input", s(&png), "--output", s(&ktx)]);
    let bytes = std::fs::read(&ktx).unwrap();
    let r = ktx2::Reader::new(&bytes[..]).unwrap();
    assert_eq!(r.header().format, Some(ktx2::Format::R8G8B8A8_UNORM));
    assert_eq!(r.levels().next().unwrap().data, &px[..]);
    let err = ok(&["convert", "--input", s(&ktx), "--output", s(&back)]);
    assert!(err.contains("9x7x1 px, RGBA8_UNORM"), "{err}");
    assert_eq!(read_png_rgba8(&back), (9, 7, px));
}

/// A BasisLZ KTX2 (supercompressionScheme 1) is refused by name, and nothing is written.
#[test]
fn basislz_is_refused_and_nothing_is_written() {
    let tmp = Scratch::new("ktx2");
    let (png, ktx, out) = (tmp.path("in.png"), tmp.path("b.ktx2"), tmp.path("out.bin"));
    write_png_rgba8(&png, 4, 4, &[7u8; 64]);
    ok(&["convert", "--format", "RGBA8_UNORM", "--input", s(&png), "--output", s(&ktx)]);
    let mut bytes = std::fs::read(&ktx).unwrap();
    bytes[44..48].copy_from_slice(&1u32.to_le_bytes());
    std::fs::write(&ktx, &bytes).unwrap();
    for args in [
        vec!["convert", "--input", s(&ktx), "--output", s(&out)],
        vec!["tile", "--gpu", "gf100", "--input", s(&ktx), "--output", s(&out)],
        vec![
            "tile",
            "--gpu",
            "gf100",
            "--format",
            "RGBA8_UNORM",
            "--size",
            "4x4",
            "--input",
            s(&ktx),
            "--output",
            s(&out),
        ],
    ] {
        let (rc, _, err) = nvsurf(&args);
        assert_eq!(rc, 2, "{args:?}: {err}");
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 1, "{err}");
        assert!(lines[0].contains("KTX2 supercompressionScheme 1 (BasisLZ) is not supported"), "{err}");
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
}
