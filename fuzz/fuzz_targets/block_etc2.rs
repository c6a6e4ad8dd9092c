//! ETC2/EAC blocks: any bytes as ETC2 RGB8, RGB8A1, RGBA8, EAC R11 or RG11 (first byte: format,
//! bit 7: snorm for EAC; second: rectangle width and height in pixels, 1-16 each) through
//! `Format::decode_rect_rgba8` and `Format::decode_rect` (texels); no panic, and the RGBA8
//! path agrees with the texels converted one by one.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nvsurf::format::{ComponentType, Format};

const NAMES: [&str; 5] = ["etc2_rgb", "etc2_rgb8a1", "etc2_rgba8", "eac_r11", "eac_rg11"];

fuzz_target!(|data: &[u8]| {
    let [sel, dims, rest @ ..] = data else { return };
    let mut f = Format::parse(NAMES[usize::from(sel & 0x7f) % NAMES.len()]).expect("a catalogue row");
    if sel & 0x80 != 0 {
        // Refused (one line) for the ETC2 colour formats; taken by EAC.
        if let Ok(s) = f.with_components([ComponentType::Snorm; 4]) {
            f = s;
        }
    }
    let (w, h) = (u32::from(dims & 0xf) + 1, u32::from(dims >> 4) + 1);
    let size = f.elem_size_bytes() as usize;
    let cols = w.div_ceil(4) as usize;
    let rows = h.div_ceil(4) as usize;
    let mut elems = vec![0u8; cols * rows * size];
    let n = rest.len().min(elems.len());
    elems[..n].copy_from_slice(&rest[..n]);
    let mut texels = vec![[0u32; 4]; (w * h) as usize];
    f.decode_rect(&elems, cols * size, w, h, &mut texels).expect("rect decodes");
    let mut rgba = vec![[0u8; 4]; (w * h) as usize];
    f.decode_rect_rgba8(&elems, cols * size, w, h, &mut rgba).expect("rect decodes");
    for (i, (p, t)) in rgba.iter().zip(&texels).enumerate() {
        assert_eq!(*p, f.texel_to_rgba8(t), "pixel {i}");
    }
});
