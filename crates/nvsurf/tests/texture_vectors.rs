//! The texture vectors of `docs/VECTORS.md` (copied into
//! tests/data/texture/vectors.txt, source named there), and bad descriptors.

use nvsurf::layout::LayoutKind;
use nvsurf::texture::{BlockPolicy, LevelPlacement, TextureDesc, TextureType};
use nvsurf::{Error, Gpu};
use std::collections::HashMap;

fn list(s: &str) -> Vec<u64> {
    s.split(',').map(|v| v.parse().unwrap()).collect()
}

fn dims<const N: usize>(s: &str, sep: char) -> [u32; N] {
    let v: Vec<u32> = s.split(sep).map(|v| v.parse().unwrap()).collect();
    v.try_into().unwrap()
}

fn desc_of(f: &HashMap<&str, &str>) -> TextureDesc {
    let gpu = Gpu::parse(f["gpu"]).unwrap();
    let ty = TextureType::parse(f["type"]).unwrap();
    let mut d = TextureDesc::new(gpu, ty, f["elem"].parse().unwrap(), dims(f["size"], 'x'));
    d.texels_per_elem = dims(f["texels"], 'x');
    d.levels = f["levels"].parse().unwrap();
    d.layers = f["layers"].parse().unwrap();
    d.layout = LayoutKind::parse(f["layout"]).unwrap();
    d.block = match f["block"] {
        "max" => BlockPolicy::Max,
        "nvn" => BlockPolicy::Nvn,
        "nvidia" => BlockPolicy::Nvidia,
        b => BlockPolicy::Explicit(dims(b, ',')),
    };
    d
}

#[test]
fn vectors_md_textures() {
    assert_eq!(
        check_vectors(include_str!("data/texture/vectors.txt")),
        18,
        "every expected value in the data file was checked"
    );
}

/// NVIDIA's driver's block choice as Mesa's NVK makes it (`BlockPolicy::Nvidia`), against
/// values from a transcription of Mesa's nil rules (source named in the data file): blocks
/// from the texel height (a BC1 36x36 texture asks for 2 gobs, as NVN's element rows would
/// not), 3D textures one gob tall, single layers ending at their last level.
#[test]
fn nvidia_policy_textures() {
    assert_eq!(check_vectors(include_str!("data/texture/nvidia_vectors.txt")), 7 * 5);
}

/// Checks every line of a vectors file; returns how many expected values it checked.
fn check_vectors(text: &str) -> usize {
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
        let f: HashMap<&str, &str> = line.split_whitespace().map(|kv| kv.split_once('=').unwrap()).collect();
        let t = desc_of(&f).build().unwrap_or_else(|e| panic!("{line}: {e}"));
        if let Some(o) = f.get("offsets") {
            let got: Vec<u64> = t.levels().iter().map(|l| l.offset_bytes).collect();
            assert_eq!(got, list(o), "{line}");
            checked += 1;
        }
        if let Some(y) = f.get("ylog2") {
            let got: Vec<u64> = t.levels().iter().map(|l| l.block_log2.unwrap()[1].into()).collect();
            assert_eq!(got, list(y), "{line}");
            checked += 1;
        }
        if let Some(r) = f.get("row0") {
            assert_eq!(t.levels()[0].row_bytes, r.parse::<u64>().unwrap(), "{line}");
            checked += 1;
        }
        if let Some(s) = f.get("stride") {
            assert_eq!(t.layer_stride_bytes(), s.parse::<u64>().unwrap(), "{line}");
            checked += 1;
        }
        if let Some(s) = f.get("total") {
            assert_eq!(t.size_bytes(), s.parse::<u64>().unwrap(), "{line}");
            checked += 1;
        }
        if let Some(c) = f.get("chain") {
            let last = t.levels().last().unwrap();
            assert_eq!(last.offset_bytes + last.size_bytes, c.parse::<u64>().unwrap(), "{line}");
            checked += 1;
        }
        if let Some(la) = f.get("layer_at") {
            let (layer, off) = la.split_once(':').unwrap();
            assert_eq!(t.subresource(0, layer.parse().unwrap()).unwrap().offset_bytes, off.parse::<u64>().unwrap());
            checked += 1;
        }
    }
    checked
}

fn gf100_2d(size: [u32; 3], levels: u32) -> TextureDesc {
    let mut d = TextureDesc::new(Gpu::Gf100, TextureType::D2, 4, size);
    d.levels = levels;
    d
}

#[test]
fn bad_descriptors_give_clear_errors() {
    // 7 layers for a cube.
    let mut d = TextureDesc::new(Gpu::Gf100, TextureType::Cube, 4, [64, 64, 1]);
    d.layers = 7;
    let e = d.build().unwrap_err();
    assert!(matches!(e, Error::Unsupported { field: "layers", .. }), "{e}");
    assert!(e.to_string().contains("exactly 6 layers"), "{e}");
    // 20 levels for 256x256.
    let e = gf100_2d([256, 256, 1], 20).build().unwrap_err();
    assert_eq!(e, Error::OutOfRange { field: "levels", value: 20, min: 1, max: 9 });
    assert_eq!(e.to_string(), "levels 20 is out of range 1..=9");
    // CUBE_ARRAY on G80.
    let e = TextureDesc::new(Gpu::G80, TextureType::CubeArray, 4, [64, 64, 1]).build().unwrap_err();
    assert!(e.to_string().contains("GT215"), "{e}");
    assert!(TextureDesc::new(Gpu::Gt215, TextureType::CubeArray, 4, [64, 64, 1]).build().is_ok());
    // CUBE_ARRAY layers not a multiple of 6.
    let mut d = TextureDesc::new(Gpu::Gt215, TextureType::CubeArray, 4, [64, 64, 1]);
    d.layers = 8;
    assert_eq!(d.build().unwrap_err().to_string(), "layers 8 is not a multiple of 6");
    // Non-power-of-two swizzled.
    let e = TextureDesc::new(Gpu::Nv40, TextureType::D2, 4, [100, 64, 1]).build().unwrap_err();
    assert_eq!(e, Error::NotPowerOfTwo { field: "swizzled width", value: 100 });
    assert_eq!(e.to_string(), "swizzled width 100 is not a power of two");
    // Non-square cube, 1D with a height, 2D with a depth.
    assert!(TextureDesc::new(Gpu::Gf100, TextureType::Cube, 4, [64, 32, 1]).build().is_err());
    assert!(TextureDesc::new(Gpu::Gf100, TextureType::D1, 4, [64, 2, 1]).build().is_err());
    assert!(gf100_2d([64, 64, 2], 1).build().is_err());
    // Zero sizes, bad element sizes, blocklinear before G80, swizzled on G80.
    assert!(matches!(gf100_2d([0, 64, 1], 1).build(), Err(Error::OutOfRange { field: "width", .. })));
    assert!(matches!(TextureDesc::new(Gpu::Gf100, TextureType::D2, 3, [8, 8, 1]).build(), Err(Error::ElemSize { .. })));
    let mut d = TextureDesc::new(Gpu::Nv40, TextureType::D2, 4, [8, 8, 1]);
    d.layout = LayoutKind::BlockLinear;
    assert!(matches!(d.build(), Err(Error::Unsupported { field: "layout", .. })));
    let mut d = gf100_2d([8, 8, 1], 1);
    d.layout = LayoutKind::Swizzled;
    assert!(matches!(d.build(), Err(Error::Unsupported { field: "layout", .. })));
    // Mipmapped pitch texture on G80+.
    let mut d = gf100_2d([64, 64, 1], 2);
    d.layout = LayoutKind::Pitch;
    assert!(matches!(d.build(), Err(Error::Unsupported { field: "layout", .. })));
    // Block log2 out of range, block width on a texture unit that ignores it.
    let mut d = gf100_2d([64, 64, 1], 1);
    d.block = BlockPolicy::Explicit([0, 6, 0]);
    assert!(matches!(d.build(), Err(Error::OutOfRange { field: "block_height_log2", .. })));
    // Arrays on NV40, BUFFER with a height.
    assert!(TextureDesc::new(Gpu::Nv40, TextureType::D2Array, 4, [8, 8, 1]).build().is_err());
    assert!(TextureDesc::new(Gpu::Gf100, TextureType::Buffer, 4, [8, 2, 1]).build().is_err());
    // Huge textures overflow the 40-bit space instead of wrapping.
    let mut d = TextureDesc::new(Gpu::Gf100, TextureType::D2Array, 16, [65536, 65536, 1]);
    d.layers = 65536;
    assert!(matches!(d.build(), Err(Error::Overflow { .. })));
    // Placement overrides that overlap or are malformed.
    let mut d = gf100_2d([64, 64, 1], 3);
    d.placement = LevelPlacement::Offsets(vec![0, 100, 40000]);
    assert!(matches!(d.build(), Err(Error::OutOfRange { field: "level offset", .. })));
    d.placement = LevelPlacement::Offsets(vec![0, 40000]);
    assert!(d.build().is_err());
    d.placement = LevelPlacement::AlignEach(0);
    assert!(d.build().is_err());
    d.placement = LevelPlacement::Packed;
    d.layer_stride_bytes = Some(10);
    assert!(matches!(d.build(), Err(Error::OutOfRange { field: "layer stride", .. })));
}
