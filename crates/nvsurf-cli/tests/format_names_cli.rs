//! Format names per GPU through the binary: the pre-G80 tables (`formats --gpu nv2a`, `untile
//! --gpu nv2a --format A4R4G4B4` with nothing else), INDEX8 palettes, Vulkan/DXGI/short aliases
//! and the suggestions of an unknown name.

use serde_json::Value;

mod pictures;
mod scratch;
use pictures::{nvsurf, read_png_rgba8, s};
use scratch::Scratch;

fn json(args: &[&str]) -> Value {
    let (code, out, err) = nvsurf(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
}

fn fails(args: &[&str]) -> String {
    let (code, _, err) = nvsurf(args);
    assert_eq!(code, 2, "{args:?} should fail: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    err
}

/// The NV2A swizzle of a square power-of-two surface up to 64x64 (one chunk): x in the even
/// bits of the element index, y in the odd ones (envytools' swizzled layout, `docs/VECTORS.md`).
fn morton(x: u32, y: u32) -> usize {
    (0..6).map(|i| (((x >> i) & 1) << (2 * i)) | (((y >> i) & 1) << (2 * i + 1))).sum::<u32>() as usize
}

/// A4R4G4B4 of (x, y): A=15, R=x/4, G=y/4, B=(x^y)&15.
fn a4r4g4b4(x: u32, y: u32) -> u16 {
    (0xf000 | ((x >> 2) & 15) << 8 | ((y >> 2) & 15) << 4 | ((x ^ y) & 15)) as u16
}

#[test]
fn nv2a_a4r4g4b4_untiles_to_png_with_nothing_else() {
    let tmp = Scratch::new("names-nv2a");
    let (dump, png) = (tmp.path("x.bin"), tmp.path("x.png"));
    let mut bytes = vec![0u8; 64 * 64 * 2];
    for y in 0..64 {
        for x in 0..64 {
            let i = morton(x, y) * 2;
            bytes[i..i + 2].copy_from_slice(&a4r4g4b4(x, y).to_le_bytes());
        }
    }
    std::fs::write(&dump, &bytes).unwrap();
    let (code, _, err) = nvsurf(&[
        "untile",
        "--gpu",
        "nv2a",
        "--format",
        "A4R4G4B4",
        "--size",
        "64x64",
        "--input",
        s(&dump),
        "--output",
        s(&png),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("A4R4G4B4 nv2a:0x04") && err.contains("swizzled"), "{err}");
    let (w, h, px) = read_png_rgba8(&png);
    assert_eq!((w, h), (64, 64));
    // 4-bit n reads n/15, written to 8 bits as n * 17.
    for y in 0..64u32 {
        for x in 0..64u32 {
            let i = (y * 64 + x) as usize * 4;
            let want = [((x >> 2) & 15) as u8 * 17, ((y >> 2) & 15) as u8 * 17, ((x ^ y) & 15) as u8 * 17, 255];
            assert_eq!(px[i..i + 4], want, "pixel {x},{y}");
        }
    }
    // A _RECT format is linear: the same untile reads rows.
    let (code, _, err) = nvsurf(&[
        "untile",
        "--gpu",
        "nv2a",
        "--format",
        "A4R4G4B4_RECT",
        "--size",
        "64x64",
        "--input",
        s(&dump),
        "--output",
        s(&tmp.path("r.bin")),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("pitch layout"), "{err}");
    assert_eq!(std::fs::read(tmp.path("r.bin")).unwrap(), bytes, "pitch untile of packed rows copies them");
    let err = fails(&[
        "untile",
        "--gpu",
        "nv2a",
        "--format",
        "A4R4G4B4_RECT",
        "--layout",
        "swizzled",
        "--size",
        "64x64",
        "--input",
        s(&dump),
        "--output",
        s(&tmp.path("r2.bin")),
    ]);
    assert!(err.contains("layout swizzled is not supported: format A4R4G4B4_RECT is linear"), "{err}");
}

#[test]
fn names_resolve_per_gpu_in_decode() {
    let px = |args: &[&str]| json(args)["pixels"][0].clone();
    // A8R8G8B8 on nv2a: bytes B, G, R, A.
    let p = px(&["decode", "--gpu", "nv2a", "--format", "A8R8G8B8", "--hex", "10 40 ff 80", "--json"]);
    assert_eq!(p[0].as_f64(), Some(1.0));
    assert_eq!(p[2].as_f64().map(|v| v as f32), Some(16.0 / 255.0));
    // On G80 it is the color format BGRA8_UNORM: the same bytes mean the same thing.
    let (code, out, _) = nvsurf(&["decode", "--gpu", "g80", "--format", "A8R8G8B8", "--hex", "10 40 ff 80"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("BGRA8_UNORM (color:0xcf)"), "{out}");
    let (_, out, _) = nvsurf(&["decode", "--gpu", "xbox", "--format", "A8R8G8B8", "--hex", "10 40 ff 80"]);
    assert!(out.starts_with("A8R8G8B8 (nv2a:0x06)"), "{out}");
    let p = px(&["decode", "--gpu", "nv2a", "--format", "A8L8", "--hex", "40 80", "--json"]);
    assert_eq!(p[1].as_f64().map(|v| v as f32), Some(64.0 / 255.0));
    assert_eq!(p[3].as_f64().map(|v| v as f32), Some(128.0 / 255.0));
    let err = fails(&["decode", "--gpu", "nv10", "--format", "A8L8", "--hex", "4080"]);
    assert!(err.contains("NV20, NV30 and NV40 have it, nv10 does not"), "{err}");
    let err = fails(&["decode", "--gpu", "nv2a", "--format", "A4R4G4B5", "--hex", "0000"]);
    assert!(err.starts_with("error: unknown format 'A4R4G4B5' for nv2a; did you mean A4R4G4B4"), "{err}");
}

#[test]
fn formats_lists_the_gpu_table_and_every_alias() {
    let rows = json(&["formats", "--gpu", "nv2a", "--json"]);
    let rows = rows.as_array().unwrap();
    let find = |n: &str| rows.iter().find(|r| r["names"][0] == n).unwrap_or_else(|| panic!("{n}"));
    assert_eq!(find("A4R4G4B4")["id"], 0x04);
    assert_eq!(find("A8R8G8B8_RECT")["linear"], true);
    assert_eq!(find("INDEX8")["palette"], true);
    assert_eq!(find("L8_RECT")["id"], 0x13); // NV20+: 0x13 is L8_RECT
    assert!(!rows.iter().any(|r| r["names"][0] == "FLOAT_R32_NV"), "NV30 only");
    let (code, out, _) = nvsurf(&["formats", "--gpu", "nv2a"]);
    assert_eq!(code, 0);
    assert!(out.lines().any(|l| l.contains("0x04") && l.contains("A4R4G4B4") && l.contains("swizzled")), "{out}");
    let nv40 = json(&["formats", "--gpu", "nv40", "--json"]);
    assert!(nv40.as_array().unwrap().iter().any(|r| r["names"][0] == "A8R8G8B8_RECT" && r["id"] == 0x25));
    // G80+: every row has `aliases`, the existing keys stay.
    let all = json(&["formats", "--json"]);
    let all = all.as_array().unwrap();
    assert!(all.iter().all(|r| r["aliases"].is_array() && r["names"].is_array() && r["elem_size"].is_number()));
    let rgba16f = all.iter().find(|r| r["kind"] == "color" && r["id"] == 0xca).unwrap();
    let a: Vec<&str> = rgba16f["aliases"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    for want in ["R16G16B16A16_SFLOAT", "VK_FORMAT_R16G16B16A16_SFLOAT", "DXGI_FORMAT_R16G16B16A16_FLOAT", "RGBA16F"] {
        assert!(a.contains(&want), "{a:?}");
    }
    let bc7 = all.iter().find(|r| r["kind"] == "texture" && r["id"] == 0x17).unwrap();
    let a = bc7["aliases"].to_string();
    assert!(a.contains("VK_FORMAT_BC7_UNORM_BLOCK") && a.contains("DXGI_FORMAT_BC7_UNORM"), "{a}");
    assert_eq!(json(&["formats", "--gpu", "gf100", "--json"]).as_array().unwrap().len(), all.len());
}

#[test]
fn everyday_names_in_decode() {
    for name in ["RGBA16F", "R16G16B16A16_SFLOAT", "VK_FORMAT_R16G16B16A16_SFLOAT", "dxgi_format_r16g16b16a16_float"] {
        let v = json(&["decode", "--format", name, "--hex", "003c 00c0 0038 003c", "--json"]);
        assert_eq!(v["pixels"][0], serde_json::json!([1.0, -2.0, 0.5, 1.0]), "{name}");
    }
    let err = fails(&["decode", "--format", "RGBA16_FLAOT", "--hex", "00"]);
    assert!(err.starts_with("error: unknown format 'RGBA16_FLAOT' for G80+; did you mean RGBA16_FLOAT"), "{err}");
}

#[test]
fn index8_takes_a_palette() {
    let tmp = Scratch::new("names-palette");
    let mut pal = vec![0u8; 1024];
    pal[4 * 7..4 * 7 + 4].copy_from_slice(&[0x10, 0x20, 0xff, 0x80]); // entry 7: B, G, R, A
    std::fs::write(tmp.path("pal.bin"), &pal).unwrap();
    std::fs::write(tmp.path("short.bin"), &pal[..1000]).unwrap();
    let pal_p = tmp.path("pal.bin").to_str().unwrap().to_string();
    let short = tmp.path("short.bin").to_str().unwrap().to_string();
    let v = json(&["decode", "--gpu", "nv2a", "--format", "P8", "--palette", &pal_p, "--hex", "07", "--json"]);
    let p = &v["pixels"][0];
    assert_eq!(p[0], 1.0);
    assert_eq!(p[2].as_f64().map(|x| x as f32), Some(16.0 / 255.0));
    let err = fails(&["decode", "--gpu", "nv2a", "--format", "INDEX8", "--hex", "07"]);
    assert!(err.contains("palette (none) is not supported: format INDEX8 holds palette indices"), "{err}");
    let err = fails(&["decode", "--gpu", "nv2a", "--format", "INDEX8", "--palette", &short, "--hex", "07"]);
    assert!(err.contains("of 1000 bytes is not supported: a palette is 256 A8R8G8B8 entries, 1024 bytes"), "{err}");
    let err = fails(&["decode", "--gpu", "nv2a", "--format", "L8", "--palette", &pal_p, "--hex", "07"]);
    assert!(err.contains("only INDEX8 (P8) takes a palette"), "{err}");
    // convert: indices to a PNG of the palette's colours; a picture back to INDEX8 is refused.
    let idx = tmp.path("idx.bin");
    std::fs::write(&idx, [7u8, 0, 7, 7]).unwrap();
    let png = tmp.path("idx.png");
    let args = ["convert", "--gpu", "nv2a", "--format", "INDEX8", "--size", "2x2", "--input"];
    let (code, _, err) = nvsurf(&[&args[..], &[s(&idx), "--output", s(&png), "--palette", &pal_p]].concat());
    assert_eq!(code, 0, "{err}");
    let (_, _, px) = read_png_rgba8(&png);
    assert_eq!(px[..8], [0xff, 0x20, 0x10, 0x80, 0, 0, 0, 0]);
    let err = fails(&[&args[..], &[s(&idx), "--output", s(&tmp.path("no.png"))]].concat());
    assert!(err.contains("give --palette FILE"), "{err}");
    let err = fails(&["convert", "--gpu", "nv2a", "--format", "INDEX8", "--input", s(&png), "--output", "x.bin"]);
    assert!(err.contains("pictures are not encoded to palette indices"), "{err}");
    // untile: a swizzled 2x2 INDEX8 surface (Morton order: (0,0) (1,0) (0,1) (1,1)) to PNG.
    let out = tmp.path("u.png");
    let (code, _, err) = nvsurf(&[
        "untile",
        "--gpu",
        "nv2a",
        "--format",
        "INDEX8",
        "--size",
        "2x2",
        "--input",
        s(&idx),
        "--output",
        s(&out),
        "--palette",
        &pal_p,
    ]);
    assert_eq!(code, 0, "{err}");
    let (_, _, px) = read_png_rgba8(&out);
    assert_eq!(px, [[0xff, 0x20, 0x10, 0x80], [0; 4], [0xff, 0x20, 0x10, 0x80], [0xff, 0x20, 0x10, 0x80]].concat());
    let err = fails(&[
        "tile",
        "--gpu",
        "nv2a",
        "--format",
        "INDEX8",
        "--size",
        "2x2",
        "--input",
        s(&out),
        "--output",
        s(&idx),
    ]);
    assert!(err.contains("pictures are not encoded to palette indices"), "{err}");
}

#[test]
fn pre_g80_formats_write_dds_as_their_g80_twins() {
    let tmp = Scratch::new("names-dds");
    let dump = tmp.path("r.bin");
    std::fs::write(&dump, (0..8192u32).map(|i| (i * 37 % 251) as u8).collect::<Vec<u8>>()).unwrap();
    // nv10's DXT1 is id 0x0c, which on G80 is texture 16_16: the DDS must say BC1 (71), and
    // A8R8G8B8 B8G8R8A8_UNORM (87), in the DX10 header's dxgiFormat (byte 128).
    for (format, dxgi) in [("DXT1", 71u8), ("A8R8G8B8", 87)] {
        let out = tmp.path(&format!("{format}.dds"));
        let (code, _, err) = nvsurf(&[
            "untile",
            "--gpu",
            "nv2a",
            "--format",
            format,
            "--size",
            "32x32",
            "--input",
            s(&dump),
            "--output",
            s(&out),
        ]);
        assert_eq!(code, 0, "{err}");
        let dds = std::fs::read(&out).unwrap();
        assert_eq!((&dds[84..88], dds[128]), (&b"DX10"[..], dxgi), "{format}");
    }
}

#[test]
fn nv2a_reads_the_nv097_table_without_a_g80_fallback() {
    let px = |args: &[&str]| json(args)["pixels"].clone();
    // YUY2 is NV097's 0x24 (bytes Y0 U Y1 V), converted with BT.601 by default: red.
    let p = px(&["decode", "--gpu", "nv2a", "--format", "YUY2", "--hex", "51 5a 51 f0", "--json"]);
    let r = p[0][0].as_f64().unwrap();
    let g = p[0][1].as_f64().unwrap();
    assert!(r > 0.99 && g < 0.01, "{p}");
    // --yuv raw gives U, Y, V as they are.
    let p = px(&["decode", "--gpu", "nv2a", "--format", "YUY2", "--yuv", "raw", "--hex", "51 5a 51 f0", "--json"]);
    assert_eq!(p[0][1].as_f64().map(|v| (v * 255.0).round()), Some(81.0));
    // The float depth formats by id; G8B8 and its signed reading.
    let (code, out, _) = nvsurf(&["decode", "--gpu", "nv2a", "--format", "nv2a:0x2d", "--hex", "00 70"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("Z16_FLOAT (nv2a:0x2d)"), "{out}");
    let g8b8 = px(&["decode", "--gpu", "nv2a", "--format", "G8B8", "--hex", "40 80", "--json"]);
    assert_eq!(g8b8[0][0], g8b8[0][2]);
    let dsdt8 = px(&["decode", "--gpu", "nv2a", "--format", "DSDT8", "--hex", "7f 81", "--json"]);
    assert_eq!((dsdt8[0][0].as_f64(), dsdt8[0][1].as_f64()), (Some(1.0), Some(-1.0)));
    // A G80 name is refused on nv2a, with nv2a's closest names.
    let err = fails(&["decode", "--gpu", "nv2a", "--format", "RGBA8_UNORM", "--hex", "00000000"]);
    assert!(err.starts_with("error: unknown format 'RGBA8_UNORM' for nv2a"), "{err}");
    let rows = json(&["formats", "--gpu", "nv2a", "--json"]);
    let yuy2 = rows.as_array().unwrap().iter().find(|r| r["names"][0] == "YUY2").unwrap().clone();
    assert_eq!((yuy2["id"].as_u64(), yuy2["layout_kind"].as_str()), (Some(0x24), Some("linear")));
}
