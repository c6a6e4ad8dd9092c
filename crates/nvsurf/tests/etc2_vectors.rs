//! ETC2/EAC decoding against `data/etc2`: blocks encoded by etcpak (PyPI `etcpak` 0.9.15) and
//! pixels decoded by an independent reference decoder written from the Khronos Data Format
//! Specification 1.3 (`data/etc2/make_vectors.py`, which names both). Exact agreement.

use nvsurf::format::{ComponentType, Format};

const W: u32 = 36;
const H: u32 = 32;

macro_rules! data {
    ($name:literal) => {
        &include_bytes!(concat!("data/etc2/", $name))[..]
    };
}

fn rgba8(format: &str, blocks: &[u8], block_bytes: usize) -> Vec<[u8; 4]> {
    let f = Format::parse(format).unwrap();
    assert_eq!((f.block_dims(), f.elem_size_bytes() as usize), ((4, 4), block_bytes));
    let mut out = vec![[0u8; 4]; (W * H) as usize];
    f.decode_rect_rgba8(blocks, (W / 4) as usize * block_bytes, W, H, &mut out).unwrap();
    out
}

#[test]
fn etc2_rgb_and_rgba_decode_as_the_reference() {
    for (name, blocks, expect, size) in [
        ("etc2_rgb8", data!("etc2_rgb.blocks"), data!("etc2_rgb.expect"), 8),
        // The same bytes as punch-through blocks: about a quarter of the pixels transparent.
        ("etc2_rgb8a1", data!("etc2_rgb.blocks"), data!("etc2_rgb8a1.expect"), 8),
        ("ETC2_RGBA", data!("etc2_rgba.blocks"), data!("etc2_rgba.expect"), 16),
    ] {
        let ours = rgba8(name, blocks, size);
        for (i, (o, e)) in ours.iter().zip(expect.chunks_exact(4)).enumerate() {
            assert_eq!(&o[..], e, "{name}: pixel {i} (x {}, y {})", i as u32 % W, i as u32 / W);
        }
    }
}

#[test]
fn etc2_rgb_reads_opaque_through_every_path() {
    // The generic texel path and the RGBA8 path agree, and alpha is 1.
    let f = Format::parse("etc2_rgb").unwrap();
    let blocks = data!("etc2_rgb.blocks");
    let mut px = [[0u32; 4]; 16];
    assert_eq!(f.decode_element(&blocks[..8], &mut px).unwrap(), 16);
    let fast = rgba8("etc2_rgb", blocks, 8);
    for (i, t) in px.iter().enumerate() {
        assert_eq!(f.texel_to_rgba8(t), fast[(i / 4) * W as usize + i % 4]);
        assert_eq!(f32::from_bits(t[3]), 1.0);
    }
}

/// EAC: one value per channel, stored as little-endian int16 (11-bit unsigned or signed).
fn eac(name: &str, blocks: &[u8], expect: &[u8], channels: usize, signed: bool) {
    let mut f = Format::parse(name).unwrap();
    if signed {
        f = f.with_components([ComponentType::Snorm; 4]).unwrap();
    }
    let mut out = vec![[0f32; 4]; (W * H) as usize];
    f.decode_rect_f32(blocks, (W / 4) as usize * 8 * channels, W, H, &mut out).unwrap();
    let scale = if signed { 1023.0 } else { 2047.0 };
    for (i, p) in out.iter().enumerate() {
        for (c, &v) in p.iter().enumerate().take(channels) {
            let at = 2 * (i * channels + c);
            let want = i16::from_le_bytes([expect[at], expect[at + 1]]);
            assert_eq!((v * scale).round() as i16, want, "{name} signed {signed}: pixel {i} channel {c}");
            assert_eq!(v, f32::from(want) / scale);
        }
        assert_eq!(p[3], 1.0);
    }
}

#[test]
fn eac_r11_and_rg11_decode_as_the_reference_to_eleven_bits() {
    eac("eac_r11", data!("eac_r11.blocks"), data!("eac_r11.expect"), 1, false);
    eac("EACX2", data!("eac_rg11.blocks"), data!("eac_rg11.expect"), 2, false);
    eac("eac_r11", data!("eac_r11.blocks"), data!("eac_r11_snorm.expect"), 1, true);
    eac("eac_rg11", data!("eac_rg11.blocks"), data!("eac_rg11_snorm.expect"), 2, true);
}

#[test]
fn etc2_and_eac_formats_are_maxwell_and_later() {
    use nvsurf::gpu::Gpu;
    for n in ["etc2_rgb", "etc2_rgb8a1", "etc2_rgba8", "eac_r11", "eac_rg11", "astc_4x4", "astc_12x12_srgb"] {
        let f = Format::parse(n).unwrap();
        assert!(f.exists_on(Gpu::Gm20b) && f.exists_on(Gpu::Gm107) && f.exists_on(Gpu::Ga102), "{n}");
        assert!(!f.exists_on(Gpu::Gk104) && !f.exists_on(Gpu::Gk20a) && !f.exists_on(Gpu::Gf100), "{n}");
        assert!(f.availability_rule().contains("gm107") || f.availability_rule().contains("GM107"), "{n}");
    }
    // Unsigned-only formats refuse snorm, in one line naming the rule.
    let e = Format::parse("etc2_rgb").unwrap().with_components([ComponentType::Snorm; 4]).unwrap_err();
    assert!(e.to_string().contains("EAC R11/RG11"), "{e}");
}

#[test]
fn decode_element_writes_only_the_block_pixels() {
    // Buffers sized for the largest block (ASTC 12x12) keep what lies past the block.
    for (name, n) in
        [("bc1", 16), ("bc5", 16), ("etc2_rgb", 16), ("eac_rg11", 16), ("astc_5x4", 20), ("astc_12x12", 144)]
    {
        let f = Format::parse(name).unwrap();
        let mut out = [[7u32; 4]; nvsurf::codec::MAX_PIXELS_PER_ELEM];
        assert_eq!(f.decode_element(&[0x5a; 16], &mut out).unwrap(), n, "{name}");
        assert!(out[n..].iter().all(|t| *t == [7; 4]), "{name} wrote past its {n} pixels");
    }
}
