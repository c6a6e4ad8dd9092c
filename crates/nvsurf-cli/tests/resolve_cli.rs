//! `nvsurf resolve` through the binary: synthetic tiled multisampled surfaces
//! made with `nvsurf::tile::tile_to_vec`, resolved to a PNG whose pixels are checked against
//! hand-worked averages.

use nvsurf::layout::SurfaceDesc;
use nvsurf::tile::{AlignedBuf, CopyOptions};
use nvsurf::Gpu;

mod pictures;
use pictures::*;
mod scratch;
use scratch::Scratch;

/// Grid cell of each MS4 / MS4_CS4 full sample (envytools `docs/hw/memory/g80-surface.rst`,
/// "Multisampled surfaces": sample 0 [0,0], 1 [1,0], 2 [0,1], 3 [1,1]).
const MS4_GRID: [(usize, usize); 4] = [(0, 0), (1, 0), (0, 1), (1, 1)];

/// A linear sample surface of `w x h` pixels (2x2 elements each, 4-byte elements) where the
/// element of pixel (x, y), sample s is `elem(x, y, s)`; tiled as a G80 blocklinear surface with
/// 1x2-gob blocks.
fn tiled_ms4(w: usize, h: usize, elem: impl Fn(usize, usize, usize) -> [u8; 4]) -> Vec<u8> {
    let (sw, sh) = (2 * w, 2 * h);
    let mut lin = vec![0u8; sw * sh * 4];
    for y in 0..h {
        for x in 0..w {
            for (smp, &(gx, gy)) in MS4_GRID.iter().enumerate() {
                let at = ((2 * y + gy) * sw + 2 * x + gx) * 4;
                lin[at..at + 4].copy_from_slice(&elem(x, y, smp));
            }
        }
    }
    let mut d = SurfaceDesc::new(Gpu::G80, 4, [sw as u32, sh as u32, 1]);
    d.block_log2 = Some([0, 1, 0]);
    let surf = d.build().unwrap();
    let tiled = nvsurf::tile::tile_to_buf(&surf, &lin, &CopyOptions::default()).map(AlignedBuf::into_vec).unwrap();
    assert_ne!(tiled[..lin.len()], lin[..], "the test surface must actually be tiled");
    tiled
}

const SURF: [&str; 6] = ["--gpu", "g80", "--block-log2", "0,1,0", "--format", "A8B8G8R8"];

#[test]
fn box_average_of_a_tiled_ms4_surface() {
    let tmp = Scratch::new("resolve");
    let (w, h) = (5usize, 3usize);
    // Per-sample values whose four-sample sums divide by 4, so the average is exact.
    let dump = tiled_ms4(w, h, |x, y, smp| {
        [(40 * smp + x) as u8, (20 * y + 8 * smp) as u8, (255 - 30 * smp) as u8, (100 + 50 * (smp % 2)) as u8]
    });
    let input = tmp.path("ms4.bin");
    std::fs::write(&input, &dump).unwrap();
    let out = tmp.path("ms4.png");
    let mut args = vec!["resolve", "--ms-mode", "ms4", "--size", "5x3", "--input", s(&input), "--output", s(&out)];
    args.extend(SURF);
    let (rc, stdout, err) = nvsurf(&args);
    assert_eq!(rc, 0, "{err}");
    assert!(stdout.contains("box average"), "{stdout}");
    let (pw, ph, px) = read_png_rgba8(&out);
    assert_eq!((pw, ph), (5, 3));
    for y in 0..h {
        for x in 0..w {
            let got = &px[(y * w + x) * 4..][..4];
            // R: (0+40+80+120)/4 + x; G: 20y + (0+8+16+24)/4; B: 255 - (0+30+60+90)/4; A: 125.
            assert_eq!(got, [60 + x as u8, 20 * y as u8 + 12, 210, 125], "pixel ({x}, {y})");
        }
    }
}

#[test]
fn csaa_weights_from_the_zeta_coverage() {
    let tmp = Scratch::new("resolve");
    // MS4_CS4 with a Z24_C8 zeta surface (zeta 0x18: Z in bits 0-23, C in bits 24-31). The
    // 16-bit C value of a pixel is split in 8-bit chunks from the LSB, held by the top-row
    // samples in x order: bits 0-7 in sample 0's C, bits 8-15 in sample 1's (envytools
    // `docs/hw/memory/g80-surface.rst`). Coverage samples 4-7 own C bits 0-3, 4-7, 8-11, 12-15; bit
    // k of each field stands for full sample k; belongs-lists 4: [1,3,0,2], 5: [3,2,1,0], 6:
    // [0,1,2,3], 7: [2,0,3,1]. Hand-worked weights (full sample 0..3; each full sample counts
    // itself once): C = 0x1111: every coverage sample matches sample 0 -> [5, 1, 1, 1] C = 0x2222:
    // every coverage sample matches sample 1 -> [1, 5, 1, 1] C = 0x0008: 4 -> 3 (bit 3); 5, 6, 7
    // default to 3, 0, 2 -> [2, 1, 2, 3] C = 0x0000: defaults 1, 3, 0, 2 -> [2, 2, 2, 2] (box)
    let cs: [u16; 4] = [0x1111, 0x2222, 0x0008, 0x0000];
    let (w, h) = (2usize, 2usize);
    // Green per sample: 0, 80, 160, 240; red 200 in sample 0, else 40.
    let color = tiled_ms4(w, h, |_, _, smp| [if smp == 0 { 200 } else { 40 }, (80 * smp) as u8, 7, 255]);
    let zeta = tiled_ms4(w, h, |x, y, smp| {
        let c = cs[y * w + x];
        let field = match smp {
            0 => c as u8,
            1 => (c >> 8) as u8,
            _ => 0xff, // bottom-row samples hold no chunk: must be ignored
        };
        [0x12, 0x34, (x * 16 + smp) as u8, field]
    });
    let (cin, zin, out) = (tmp.path("cs4-color.bin"), tmp.path("cs4-zeta.bin"), tmp.path("cs4.png"));
    std::fs::write(&cin, &color).unwrap();
    std::fs::write(&zin, &zeta).unwrap();
    let mut args = vec![
        "resolve",
        "--ms-mode",
        "ms4_cs4",
        "--size",
        "2x2",
        "--input",
        s(&cin),
        "--zeta",
        s(&zin),
        "--zeta-format",
        "Z24_C8",
        "--output",
        s(&out),
    ];
    args.extend(SURF);
    let (rc, stdout, err) = nvsurf(&args);
    assert_eq!(rc, 0, "{err}");
    assert!(stdout.contains("coverage-weighted"), "{stdout}");
    let (_, _, px) = read_png_rgba8(&out);
    let weights = [[5u32, 1, 1, 1], [1, 5, 1, 1], [2, 1, 2, 3], [2, 2, 2, 2]];
    let want_r = [(5 * 200 + 3 * 40) / 8, (200 + 7 * 40) / 8, (2 * 200 + 6 * 40) / 8, (2 * 200 + 6 * 40) / 8];
    for (i, wt) in weights.iter().enumerate() {
        let g: u32 = wt.iter().zip([0u32, 80, 160, 240]).map(|(a, b)| a * b).sum::<u32>() / 8;
        assert_eq!(&px[i * 4..i * 4 + 4], [want_r[i] as u8, g as u8, 7, 255], "pixel {i}, C {:#06x}", cs[i]);
    }
    // Without --zeta the same surface is the box average.
    let out2 = tmp.path("cs4-box.png");
    let mut args = vec!["resolve", "--ms-mode", "ms4_cs4", "--size", "2x2", "--input", s(&cin), "--output", s(&out2)];
    args.extend(SURF);
    assert_eq!(nvsurf(&args).0, 0);
    let (_, _, px) = read_png_rgba8(&out2);
    assert_eq!(&px[..4], [80, 120, 7, 255]);
}

#[test]
fn bad_combinations_are_one_line_errors() {
    let tmp = Scratch::new("resolve");
    let input = tmp.path("small.bin");
    std::fs::write(&input, vec![0u8; 64]).unwrap();
    let out = tmp.path("bad.png");
    let base = [
        "resolve",
        "--size",
        "2x2",
        "--input",
        s(&input),
        "--output",
        s(&out),
        "--gpu",
        "g80",
        "--block-log2",
        "0,1,0",
    ];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--ms-mode", "ms4", "--elem-size", "4"], "needs --format"),
        (vec!["--ms-mode", "ms4", "--format", "bc1"], "one pixel per element"),
        (vec!["--ms-mode", "ms8", "--format", "RGBA32_FLOAT"], "16-byte"),
        (vec!["--ms-mode", "ms4", "--format", "RGBA8_UNORM", "--layout", "pitch"], "blocklinear"),
        (vec!["--ms-mode", "ms4", "--format", "RGBA8_UNORM", "--zeta", s(&input), "--zeta-format", "Z24_C8"], "CSAA"),
        (
            vec!["--ms-mode", "ms4_cs4", "--format", "RGBA8_UNORM", "--zeta", s(&input), "--zeta-format", "Z24_S8"],
            "no C",
        ),
        (vec!["--ms-mode", "ms4", "--format", "RGBA8_UNORM"], "holds 64 bytes"),
        (vec!["--ms-mode", "ms5", "--format", "RGBA8_UNORM"], "ms"),
    ];
    for (extra, want) in cases {
        let mut args: Vec<&str> = base.to_vec();
        args.extend(&extra);
        let (rc, _, err) = nvsurf(&args);
        assert_eq!(rc, 2, "{extra:?}: {err}");
        assert!(err.contains(want), "{extra:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
}

#[test]
fn unsupported_picture_extension_is_an_error() {
    let tmp = Scratch::new("resolve");
    // Review finding 7b: `--output r.jpg` wrote raw bytes to a .jpg and exited 0.
    let dump = tiled_ms4(2, 2, |_, _, _| [1, 2, 3, 4]);
    let input = tmp.path("jpg_in.bin");
    std::fs::write(&input, &dump).unwrap();
    for ext in ["jpg", "JPEG", "bmp"] {
        let out = tmp.path(&format!("r.{ext}"));
        let _ = std::fs::remove_file(&out);
        let mut args = vec!["resolve", "--ms-mode", "ms4", "--size", "2x2", "--input", s(&input), "--output", s(&out)];
        args.extend(SURF);
        let (rc, _, err) = nvsurf(&args);
        assert_eq!(rc, 2, "{ext}: {err}");
        assert!(err.contains("picture file") && err.contains(&format!("r.{ext}'")), "{err}");
        assert!(err.contains("use .png, .exr, .dds or .ktx2"), "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(!out.exists(), "{ext}: nothing may be written");
    }
    // Other extensions still mean raw linear elements.
    let out = tmp.path("r.raw");
    let mut args = vec!["resolve", "--ms-mode", "ms4", "--size", "2x2", "--input", s(&input), "--output", s(&out)];
    args.extend(SURF);
    let (rc, _, err) = nvsurf(&args);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), [1, 2, 3, 4].repeat(4));
}
