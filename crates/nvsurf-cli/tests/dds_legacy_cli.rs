//! Legacy DDS headers (no DX10 extension), read and written: cube maps by caps2's
//! DDSCAPS2_CUBEMAP and its six face flags, volumes by DDSCAPS2_VOLUME and DDSD_DEPTH
//! (Microsoft's DDS reference, DDS_HEADER), and the BC4/BC5 FourCCs `BC4U`, `BC4S`, `BC5U`,
//! `BC5S` (microsoft/DirectXTex `DirectXTex/DirectXTexDDS.cpp`, the legacy format table).

use ddsfile::{Caps2, D3DFormat, Dds, NewD3dParams};
use std::path::{Path, PathBuf};

mod pictures;
use pictures::*;
mod scratch;
use scratch::Scratch;

/// Writes a legacy DDS of 8x8 DXT1 with `levels` levels and `caps2`, holding `data`; its FourCC
/// replaced by `fourcc` when given.
fn legacy_dds(path: &Path, levels: u32, caps2: Option<Caps2>, data: &[u8], fourcc: Option<&[u8; 4]>) {
    let mut dds = Dds::new_d3d(NewD3dParams {
        height: 8,
        width: 8,
        depth: None,
        format: D3DFormat::DXT1,
        mipmap_levels: Some(levels),
        caps2,
    })
    .unwrap();
    assert!(dds.header10.is_none());
    dds.data = data.to_vec();
    let mut bytes = Vec::new();
    dds.write(&mut bytes).unwrap();
    if let Some(code) = fourcc {
        bytes[84..88].copy_from_slice(code);
    }
    std::fs::write(path, bytes).unwrap();
}

fn pattern(n: usize, seed: u32) -> Vec<u8> {
    (0..n as u32).map(|i| (i.wrapping_add(seed).wrapping_mul(2_654_435_761) >> 11) as u8).collect()
}

/// Runs `nvsurf` with `args` then `--input input --output output`; the exit code and stderr.
fn run(args: &[&str], input: &Path, output: &Path) -> (i32, String) {
    let mut a = args.to_vec();
    a.extend(["--input", s(input), "--output", s(output)]);
    let (code, _, err) = nvsurf(&a);
    (code, err)
}

const CUBE: [&str; 14] = [
    "--gpu",
    "gf100",
    "--format",
    "bc1",
    "--size",
    "8x8",
    "--texture",
    "--type",
    "cube",
    "--levels",
    "2",
    "--block-log2",
    "0,0,0",
    "--force",
];

#[test]
fn a_legacy_cube_keeps_its_six_faces() {
    let tmp = Scratch::new("dds-legacy-cube");
    // Six faces of 8x8 DXT1 with 2 levels: 4 + 1 blocks of 8 bytes each, every byte its own.
    let data = pattern(6 * 40, 1);
    let (dds, lin, a, b) = (tmp.path("cube.dds"), tmp.path("cube.lin"), tmp.path("a.bin"), tmp.path("b.bin"));
    legacy_dds(&dds, 2, Some(Caps2::CUBEMAP | Caps2::CUBEMAP_ALLFACES), &data, None);
    std::fs::write(&lin, &data).unwrap();
    let tile: Vec<&str> = ["tile"].into_iter().chain(CUBE).collect();
    let (code, err) = run(&tile, &dds, &a);
    assert_eq!(code, 0, "{err}");
    let (code, err) = run(&tile, &lin, &b);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap(), "the six faces differ from the raw input");
    // A cube with five faces: one line naming caps2 and the rule.
    legacy_dds(&dds, 2, Some(Caps2::CUBEMAP | Caps2::from_bits_truncate(0x7c00)), &data, None);
    let (code, err) = run(&tile, &dds, &a);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("caps2 0x7e00") && err.contains("six faces"), "{err}");
}

/// The caps and caps2 words (file offsets 108 and 112) and the header flags (offset 8).
fn caps(path: &PathBuf) -> (u32, u32, u32) {
    let b = std::fs::read(path).unwrap();
    let word = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    (word(8), word(108), word(112))
}

#[test]
fn written_dds_carry_the_cube_and_volume_flags() {
    let tmp = Scratch::new("dds-legacy-write");
    let (lin, tiled, out, back) = (tmp.path("l.bin"), tmp.path("t.bin"), tmp.path("o.dds"), tmp.path("back.bin"));
    // A cube: DDSCAPS2_CUBEMAP with all six faces (0xfe00), DDSCAPS_COMPLEX | DDSCAPS_TEXTURE.
    let data = pattern(6 * 40, 2);
    std::fs::write(&lin, &data).unwrap();
    let tile: Vec<&str> = ["tile"].into_iter().chain(CUBE).collect();
    let untile: Vec<&str> = ["untile"].into_iter().chain(CUBE).collect();
    assert_eq!(run(&tile, &lin, &tiled).0, 0);
    let (code, err) = run(&untile, &tiled, &out);
    assert_eq!(code, 0, "{err}");
    let (_, c, c2) = caps(&out);
    assert_eq!(c2, 0xfe00, "caps2 {c2:#x}");
    assert_eq!(c & 0x1008, 0x1008, "caps {c:#x}");
    // It reads back (its faces in order).
    assert_eq!(run(&tile, &out, &back).0, 0);
    assert!(std::fs::read(&back).unwrap() == std::fs::read(&tiled).unwrap());
    // A volume: DDSCAPS2_VOLUME, DDSD_DEPTH, DDSCAPS_COMPLEX.
    let vol = ["--gpu", "gf100", "--format", "RGBA8_UNORM", "--size", "8x8x4", "--texture", "--type", "3d", "--force"];
    std::fs::write(&lin, pattern(8 * 8 * 4 * 4, 3)).unwrap();
    let tile: Vec<&str> = ["tile"].into_iter().chain(vol).collect();
    let untile: Vec<&str> = ["untile"].into_iter().chain(vol).collect();
    assert_eq!(run(&tile, &lin, &tiled).0, 0);
    let (code, err) = run(&untile, &tiled, &out);
    assert_eq!(code, 0, "{err}");
    let (flags, c, c2) = caps(&out);
    assert_eq!(c2, 0x20_0000, "caps2 {c2:#x}");
    assert_eq!(flags & 0x80_0000, 0x80_0000, "flags {flags:#x}");
    assert_eq!(c & 0x1008, 0x1008, "caps {c:#x}");
    // A plain 2D texture of one level: no caps2 flags, no DDSCAPS_COMPLEX.
    let flat = ["--gpu", "gf100", "--format", "RGBA8_UNORM", "--size", "8x8", "--texture", "--force"];
    std::fs::write(&lin, pattern(8 * 8 * 4, 4)).unwrap();
    let tile: Vec<&str> = ["tile"].into_iter().chain(flat).collect();
    let untile: Vec<&str> = ["untile"].into_iter().chain(flat).collect();
    assert_eq!(run(&tile, &lin, &tiled).0, 0);
    assert_eq!(run(&untile, &tiled, &out).0, 0);
    let (_, c, c2) = caps(&out);
    assert_eq!((c & 0x8, c2), (0, 0), "caps {c:#x} caps2 {c2:#x}");
}

#[test]
fn bc4_and_bc5_fourccs_are_read() {
    let tmp = Scratch::new("dds-legacy-bc45");
    let (dds, lin, a, b) = (tmp.path("x.dds"), tmp.path("x.lin"), tmp.path("a.bin"), tmp.path("b.bin"));
    for (code, format, elem) in
        [(b"BC4U", "bc4", 8), (b"BC4S", "BC4_SNORM", 8), (b"BC5U", "bc5", 16), (b"BC5S", "BC5_SNORM", 16)]
    {
        let data = pattern(4 * elem, elem as u32);
        legacy_dds(&dds, 1, None, &data, Some(code));
        std::fs::write(&lin, &data).unwrap();
        let args = ["tile", "--gpu", "gf100", "--format", format, "--size", "8x8", "--block-log2", "0,0,0", "--force"];
        let (rc, err) = run(&args, &dds, &a);
        assert_eq!(rc, 0, "{format}: {err}");
        assert_eq!(run(&args, &lin, &b).0, 0);
        assert!(std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap(), "{format}");
    }
}
