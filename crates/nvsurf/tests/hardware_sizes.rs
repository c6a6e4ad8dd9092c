//! The driver's sizes on an H100 (GH100): 600 CUDA mipmapped-array shapes whose size the driver
//! reported (`tests/data/hardware/gh100/sizes.jsonl`, see the README there). With nothing but
//! the GPU's defaults (the `nvidia` block policy, the Turing order), nvsurf's texture size
//! rounded up to the driver's alignment must equal the driver's size, every time.

use nvsurf::texture::{TextureDesc, TextureType};
use nvsurf::{FormatClass, Gpu, Platform};
use serde_json::Value;

#[test]
fn every_driver_size_is_the_models_size_rounded_to_the_alignment() {
    let text = include_str!("data/hardware/gh100/sizes.jsonl");
    let platform = Platform::from(Gpu::Gh100);
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["err"], "", "{line}");
        let n = |k: &str| u32::try_from(v[k].as_u64().unwrap()).unwrap();
        let (w, h, d) = (n("w"), n("h"), n("d"));
        // kind 0: 2D; 1: 3D (CUDA makes a depth of 1 a one-layer array); 2: 2D array of d
        // layers; 3: cube (d = 6).
        let (ty, size, layers) = match (v["kind"].as_u64().unwrap(), d) {
            (0, _) => (TextureType::D2, [w, h, 1], 1),
            (1, 1) => (TextureType::D2Array, [w, h, 1], 1),
            (1, _) => (TextureType::D3, [w, h, d], 1),
            (2, _) => (TextureType::D2Array, [w, h, 1], d),
            (3, _) => (TextureType::Cube, [w, h, 1], d),
            (k, _) => panic!("kind {k}: {line}"),
        };
        let mut desc = TextureDesc::new(Gpu::Gh100, ty, n("elem"), size);
        desc.levels = n("levels");
        desc.layers = layers;
        desc.block = platform.default_block_policy();
        desc.gob_order = platform.default_gob_order(FormatClass::ElemSizeOnly).unwrap();
        let t = desc.build().unwrap_or_else(|e| panic!("{line}: {e}"));
        let align = v["req_align"].as_u64().unwrap();
        let rounded = t.size_bytes().div_ceil(align) * align;
        assert_eq!(rounded, v["req_size"].as_u64().unwrap(), "{line}: model size {}", t.size_bytes());
        checked += 1;
    }
    assert_eq!(checked, 600);
}
