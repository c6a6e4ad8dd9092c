//! DDS and KTX2 inputs describe themselves: `tile` and `convert` take the format, size, levels,
//! layers and type from the header; flags that are given are checked against it, a mismatch
//! being one line naming both; a header that is cut short or claims more than the file holds is
//! one line, and nothing is written.

use ddsfile::{AlphaMode, D3D10ResourceDimension, Dds, DxgiFormat, NewDxgiParams};
use std::path::Path;

mod pictures;
use pictures::*;
mod scratch;
use scratch::Scratch;

/// A DX10 DDS of `format`, `w`x`h`, `levels` levels and `layers` layers (cube: 6 faces each),
/// its data `data` (the length the shape needs).
fn dds(path: &Path, format: DxgiFormat, (w, h): (u32, u32), levels: u32, layers: u32, cube: bool, data: Vec<u8>) {
    let mut d = Dds::new_dxgi(NewDxgiParams {
        height: h,
        width: w,
        depth: None,
        format,
        mipmap_levels: Some(levels),
        // ddsfile counts a cube's faces as layers (and writes array size layers / 6).
        array_layers: if cube { Some(6 * layers) } else { (layers > 1).then_some(layers) },
        caps2: None,
        is_cubemap: cube,
        resource_dimension: D3D10ResourceDimension::Texture2D,
        alpha_mode: AlphaMode::Unknown,
    })
    .unwrap();
    assert_eq!(d.data.len(), data.len(), "the test's data must fill the texture");
    d.data = data;
    d.write(&mut std::fs::File::create(path).unwrap()).unwrap();
}

fn bytes(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8).collect()
}

fn run(args: &[&str]) -> (i32, String) {
    let (rc, _, err) = nvsurf(args);
    (rc, err)
}

/// The one error line of a refused command, which wrote nothing.
fn refused(args: &[&str], out: &Path) -> String {
    let (rc, err) = run(args);
    assert_eq!(rc, 2, "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(!out.exists(), "{args:?} wrote {}", out.display());
    err.trim_end().to_string()
}

/// `tile` from a DDS with no --format, --size, --levels or --type gives the dump that the
/// same flags typed out give (a BC1 cube with mips, and a plain RGBA8 surface).
#[test]
fn tile_from_a_dds_needs_no_shape_flags() {
    let tmp = Scratch::new("described");
    // BC1 cube 16x16, 5 levels: per face 16 + 4 + 1 + 1 + 1 blocks of 8 bytes.
    let cube = tmp.path("cube.dds");
    dds(&cube, DxgiFormat::BC1_UNorm, (16, 16), 5, 1, true, bytes(6 * 23 * 8));
    let (bare, typed) = (tmp.path("bare.bin"), tmp.path("typed.bin"));
    let (rc, err) = run(&["tile", "--gpu", "gf100", "--texture", "--input", s(&cube), "--output", s(&bare)]);
    assert_eq!(rc, 0, "{err}");
    let mut args = vec!["tile", "--gpu", "gf100", "--texture", "--input", s(&cube), "--output", s(&typed)];
    args.extend(["--format", "bc1", "--size", "16x16", "--levels", "5", "--type", "cube", "--layers", "6"]);
    let (rc, err) = run(&args);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(std::fs::read(&bare).unwrap(), std::fs::read(&typed).unwrap());
    assert!(!std::fs::read(&bare).unwrap().is_empty());

    // A plain surface: --format and --size from the header.
    let flat = tmp.path("flat.dds");
    dds(&flat, DxgiFormat::R8G8B8A8_UNorm, (13, 9), 1, 1, false, bytes(13 * 9 * 4));
    let (bare, typed) = (tmp.path("flat-bare.bin"), tmp.path("flat-typed.bin"));
    let (rc, err) = run(&["tile", "--gpu", "gf100", "--input", s(&flat), "--output", s(&bare)]);
    assert_eq!(rc, 0, "{err}");
    let (rc, err) = run(&[
        "tile",
        "--gpu",
        "gf100",
        "--format",
        "RGBA8_UNORM",
        "--size",
        "13x9",
        "--input",
        s(&flat),
        "--output",
        s(&typed),
    ]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(std::fs::read(&bare).unwrap(), std::fs::read(&typed).unwrap());

    // `convert` takes the format from the header too.
    let png = tmp.path("flat.png");
    let (rc, err) = run(&["convert", "--input", s(&flat), "--output", s(&png)]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(read_png_rgba8(&png), (13, 9, bytes(13 * 9 * 4)));

    // With neither a header nor --size, the flag is named.
    let raw = tmp.path("raw.bin");
    std::fs::write(&raw, bytes(64)).unwrap();
    let out = tmp.path("raw-out.bin");
    let err =
        refused(&["tile", "--gpu", "gf100", "--format", "RGBA8_UNORM", "--input", s(&raw), "--output", s(&out)], &out);
    assert!(err.contains("size") && err.contains("give --size"), "{err}");
}

/// The case: a BC7 1024x1024 DDS with 11 levels and `--format BC3` (it used to read
/// "encode DXT5 is not supported"). Other flags that disagree are named the same way.
#[test]
fn a_flag_that_disagrees_with_the_header_is_one_line_naming_both() {
    let tmp = Scratch::new("described");
    let p = tmp.path("bc7.dds");
    let blocks: usize = (0..11).map(|l| ((1024usize >> l).max(1).div_ceil(4)).pow(2)).sum();
    dds(&p, DxgiFormat::BC7_UNorm, (1024, 1024), 11, 1, false, bytes(blocks * 16));
    let out = tmp.path("out.bin");
    let tile = |extra: &[&str]| {
        let mut a = vec!["tile", "--gpu", "gf100", "--texture", "--input", s(&p), "--output", s(&out)];
        a.extend(extra);
        refused(&a, &out)
    };
    assert_eq!(
        tile(&["--format", "BC3"]),
        "error: the DDS holds BC7_UNorm 1024x1024 with 11 levels; --format says BC3"
    );
    assert_eq!(
        tile(&["--size", "512x512"]),
        "error: the DDS holds BC7_UNorm 1024x1024 with 11 levels; --size says 512x512"
    );
    assert_eq!(tile(&["--levels", "3"]), "error: the DDS holds BC7_UNorm 1024x1024 with 11 levels; --levels says 3");
    assert_eq!(tile(&["--type", "cube"]), "error: the DDS holds BC7_UNorm 1024x1024 with 11 levels; --type says cube");
    // `convert` checks --format the same way.
    let png = tmp.path("out.png");
    assert_eq!(
        refused(&["convert", "--format", "bc1", "--input", s(&p), "--output", s(&png)], &png),
        "error: the DDS holds BC7_UNorm 1024x1024 with 11 levels; --format says bc1"
    );
    // The same format by another name, or an uncompressed format to decode into, is fine.
    for f in ["bc7", "tex:0x17", "RGBA8_UNORM"] {
        let (rc, err) =
            run(&["tile", "--gpu", "gf100", "--texture", "--format", f, "--input", s(&p), "--output", s(&out)]);
        assert_eq!(rc, 0, "{f}: {err}");
    }
}

/// A DDS header cut short, or one that claims more data than the file holds, is one line
/// when the header alone is asked (no shape flags), and nothing is written.
#[test]
fn cut_short_and_lying_dds_headers_are_refused_from_the_header() {
    let tmp = Scratch::new("described");
    let whole = tmp.path("whole.dds");
    dds(&whole, DxgiFormat::R8G8B8A8_UNorm, (8, 8), 4, 1, false, bytes((64 + 16 + 4 + 1) * 4));
    let all = std::fs::read(&whole).unwrap();
    let out = tmp.path("out.bin");
    let cut = tmp.path("cut.dds");
    for (len, needle) in [
        (3, "the DDS magic number needs 4"),
        (100, "the DDS header needs 128"),
        (140, "the DDS header with its DX10 extension needs 148"),
        (200, "the header says R8G8B8A8_UNorm 8x8 with 4 levels (340 bytes of data) but the file holds 52 bytes"),
    ] {
        std::fs::write(&cut, &all[..len]).unwrap();
        let err = refused(&["tile", "--gpu", "gf100", "--texture", "--input", s(&cut), "--output", s(&out)], &out);
        assert!(err.contains("cannot read DDS") && err.contains(needle), "{len}: {err}");
    }
    // A header claiming 2^31 x 2^29 texels: refused by size before anything is allocated.
    let mut lie = all.clone();
    lie[12..16].copy_from_slice(&(1u32 << 29).to_le_bytes()); // height
    lie[16..20].copy_from_slice(&(1u32 << 31).to_le_bytes()); // width
    std::fs::write(&cut, &lie).unwrap();
    let err = refused(&["tile", "--gpu", "gf100", "--input", s(&cut), "--output", s(&out)], &out);
    assert!(err.contains("image size") && err.contains("2147483648x536870912x1 px"), "{err}");
}
