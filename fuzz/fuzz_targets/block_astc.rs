//! ASTC blocks: any 16 bytes with any of the 14 footprints (first byte: footprint, bit 7: sRGB)
//! through `Format::decode_element` and `Format::decode_rect_rgba8` (the direct RGBA8 path);
//! no panic, and the two paths agree pixel for pixel (sRGB: RGBA8 is the stored encoding, the
//! texels of the footprint without the sRGB curve).
#![no_main]

use libfuzzer_sys::fuzz_target;
use nvsurf::format::Format;

const SIZES: [(u32, u32); 14] = [
    (4, 4),
    (5, 4),
    (5, 5),
    (6, 5),
    (6, 6),
    (8, 5),
    (8, 6),
    (8, 8),
    (10, 5),
    (10, 6),
    (10, 8),
    (10, 10),
    (12, 10),
    (12, 12),
];

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else { return };
    let (w, h) = SIZES[usize::from(sel & 0x7f) % SIZES.len()];
    let srgb = if sel & 0x80 != 0 { "_srgb" } else { "" };
    let f = Format::parse(&format!("astc_{w}x{h}{srgb}")).expect("every footprint has a row");
    let mut block = [0u8; 16];
    let n = rest.len().min(16);
    block[..n].copy_from_slice(&rest[..n]);
    let mut texels = [[0u32; 4]; 144];
    let got = f.decode_element(&block, &mut texels).expect("a 16-byte block decodes");
    assert_eq!(got, (w * h) as usize);
    let stored = f.with_srgb(false);
    stored.decode_element(&block, &mut texels).expect("a 16-byte block decodes");
    // A rectangle smaller than the block (edge path) and the whole block (direct path).
    for (rw, rh) in [(w, h), (w - 1, h - 2)] {
        let mut rgba = vec![[0u8; 4]; (rw * rh) as usize];
        f.decode_rect_rgba8(&block, 16, rw, rh, &mut rgba).expect("rect decodes");
        for y in 0..rh {
            for x in 0..rw {
                let t = &texels[(y * w + x) as usize];
                assert_eq!(rgba[(y * rw + x) as usize], stored.texel_to_rgba8(t), "pixel {x},{y} of {w}x{h}{srgb}");
            }
        }
    }
});
