//! sRGB formats in PNG pictures: a PNG holds the stored sRGB-encoded values (the CLI reads
//! sRGB formats without the curve: `picture/png.rs`), the same bytes the library's RGBA8
//! outputs give (`Format::decode_rect_rgba8`), and `tile` stores a PNG's samples as they are.

use nvsurf::format::Format;

mod pictures;
use pictures::*;
mod scratch;
use scratch::Scratch;

fn noise(n: usize) -> Vec<u8> {
    (0..n as u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8).collect()
}

#[test]
fn bc1_srgb_png_is_the_stored_encoding_and_the_librarys_rgba8() {
    let tmp = Scratch::new("srgb-png-bc1");
    // 16x4 pixels: 4 blocks (32 bytes) in a 64-byte pitch row. Block 0 is 0x80 x 8, whose
    // colour is R5 = 16, G6 = 4, B5 = 0: (132, 16, 0, 255) as stored.
    let mut row = noise(64);
    row[..8].fill(0x80);
    let (dump, png) = (tmp.path("bc1.bin"), tmp.path("bc1.png"));
    std::fs::write(&dump, &row).unwrap();
    let args = [
        "untile",
        "--gpu",
        "switch",
        "--format",
        "bc1_srgb",
        "--size",
        "16x4",
        "--layout",
        "pitch",
        "--input",
        s(&dump),
        "--output",
        s(&png),
    ];
    let (rc, _, err) = nvsurf(&args);
    assert_eq!(rc, 0, "{err}");
    let (w, h, px) = read_png_rgba8(&png);
    assert_eq!((w, h), (16, 4));
    for y in 0..4 {
        assert_eq!(px[y * 64..y * 64 + 4], [132, 16, 0, 255], "row {y}");
    }
    // The same bytes as the format without sRGB (the PNG path as it always was) and as the
    // library's RGBA8 decode of the sRGB format.
    for name in ["bc1", "bc1_srgb"] {
        let mut want = vec![[0u8; 4]; 64];
        Format::parse(name).unwrap().decode_rect_rgba8(&row, 64, 16, 4, &mut want).unwrap();
        assert_eq!(px, want.as_flattened(), "{name}");
    }
}

#[test]
fn rgba8_srgb_png_round_trips_the_stored_bytes() {
    let tmp = Scratch::new("srgb-png-rgba8");
    let (w, h) = (16u32, 5u32);
    let stored = noise((w * h * 4) as usize);
    let (dump, png, back) = (tmp.path("in.bin"), tmp.path("out.png"), tmp.path("back.bin"));
    std::fs::write(&dump, &stored).unwrap();
    let surf = ["--gpu", "gh100", "--format", "RGBA8_SRGB", "--size", "16x5", "--layout", "pitch"];
    let mut args = vec!["untile", "--input", s(&dump), "--output", s(&png)];
    args.extend(surf);
    let (rc, _, err) = nvsurf(&args);
    assert_eq!(rc, 0, "{err}");
    let (_, _, px) = read_png_rgba8(&png);
    assert_eq!(px, stored, "the PNG holds the stored sRGB-encoded bytes");
    let mut lib = vec![[0u8; 4]; (w * h) as usize];
    Format::parse("RGBA8_SRGB").unwrap().decode_rect_rgba8(&stored, 64, w, h, &mut lib).unwrap();
    assert_eq!(lib.as_flattened(), &stored[..], "the library's RGBA8 is the PNG's bytes");
    // tile: the PNG's samples are stored as they are.
    let mut args = vec!["tile", "--input", s(&png), "--output", s(&back)];
    args.extend(surf);
    let (rc, _, err) = nvsurf(&args);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(std::fs::read(&back).unwrap(), stored);
}
