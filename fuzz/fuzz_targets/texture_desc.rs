//! Texture descriptors (`TextureDesc::build`) from fuzzed fields, then the offsets of every
//! level's corners in the first and last layers: inside the texture's bytes.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use nvsurf::layout::{GobOrder, LayoutKind, TextureBlockWidth};
use nvsurf::texture::{BlockPolicy, LevelPlacement, TextureDesc, ALL_TEXTURE_TYPES};

#[derive(Arbitrary, Debug)]
struct Fields {
    gpu: u8,
    ty: u8,
    layout: u8,
    elem_size: u32,
    texels_per_elem: [u32; 2],
    size_texels: [u32; 3],
    levels: u32,
    layers: Option<u32>,
    block: u8,
    block_log2: [u32; 3],
    gob_order: u8,
    block_width_ignored: bool,
    pitch_bytes: Option<u64>,
    placement: u8,
    align_or_offsets: Vec<u64>,
    layer_stride_bytes: Option<u64>,
}

fuzz_target!(|f: Fields| {
    let gpu = nvsurf_fuzz::gpu(f.gpu);
    let ty = ALL_TEXTURE_TYPES[usize::from(f.ty) % ALL_TEXTURE_TYPES.len()];
    let mut d = TextureDesc::new(gpu, ty, f.elem_size, f.size_texels);
    d.layout = [LayoutKind::Pitch, LayoutKind::BlockLinear, LayoutKind::Swizzled][usize::from(f.layout % 3)];
    d.texels_per_elem = f.texels_per_elem;
    d.levels = f.levels;
    if let Some(l) = f.layers {
        d.layers = l;
    }
    d.block = match f.block % 4 {
        0 => BlockPolicy::Explicit(f.block_log2),
        1 => BlockPolicy::Max,
        2 => BlockPolicy::Nvn,
        _ => BlockPolicy::Nvidia,
    };
    let orders = nvsurf::layout::ALL_GOB_ORDERS;
    d.gob_order = orders[usize::from(f.gob_order) % orders.len()];
    let _: GobOrder = d.gob_order;
    d.texture_block_width =
        if f.block_width_ignored { TextureBlockWidth::Ignored } else { TextureBlockWidth::Document };
    d.pitch_bytes = f.pitch_bytes;
    d.placement = match f.placement % 3 {
        0 => LevelPlacement::Packed,
        1 => LevelPlacement::AlignEach(f.align_or_offsets.first().copied().unwrap_or(0)),
        _ => LevelPlacement::Offsets(f.align_or_offsets.iter().copied().take(40).collect()),
    };
    d.layer_stride_bytes = f.layer_stride_bytes;
    let Ok(t) = d.build() else { return };
    let size = t.size_bytes();
    let layers = t.layer_count();
    for level in 0..t.level_count() {
        let lv = t.level(level).expect("a level below the count exists");
        let [w, h, dd] = lv.elements.to_array();
        for layer in [0, layers - 1] {
            for at in [[0, 0, 0], [w - 1, h - 1, dd - 1]] {
                let off = t.offset_of(level, layer, at).expect("an element inside the texture has an offset");
                assert!(
                    off + u64::from(t.elem_size_bytes()) <= size,
                    "level {level} layer {layer} {at:?} at {off} past {size}"
                );
            }
        }
    }
    let _ = t.check_dump(size);
    let _ = t.linear_size_bytes();
});
