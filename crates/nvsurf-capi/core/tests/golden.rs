//! Writes the golden files of the C programs (`../tests/data/`) with the library's reference
//! twins, not with the code under test: every subresource goes through
//! `nvsurf::tile::tile_reference` (byte by byte through `Surface::offset_of_byte`), and decoded
//! pixels through the generic texel path (`Format::decode_rect` + `texel_to_rgba8`), not the
//! RGBA8 fast paths the C library calls. Ignored by default:
//! `cargo test -p nvsurf-capi-core --test golden -- --ignored` regenerates them.
//!
//! The linear input of every file is the pattern the C programs make too:
//! byte `i` = `(i * 131 + 7) % 251`.

use nvsurf::format::Format;
use nvsurf::texture::TextureType;
use nvsurf::tile::{tile_reference, LinearLayout, Region};
use nvsurf::{Gpu, Platform, TextureSpec};
use std::path::PathBuf;

fn pattern(n: usize) -> Vec<u8> {
    (0..n).map(|i| ((i * 131 + 7) % 251) as u8).collect()
}

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data")
}

/// The tiled texture from a packed linear one, subresource by subresource, with the
/// reference twin (the texture's layout plan gives each subresource's place and surface).
fn tile_by_reference(t: &nvsurf::texture::Texture, linear: &[u8]) -> Vec<u8> {
    let mut dump = vec![0u8; t.size_bytes() as usize];
    for sub in t.subresources() {
        let s = sub.surface.expect("a texture with surfaces");
        // Square swizzled levels of a non-square cube face hold their image in the top rows;
        // every texture here has square or plain levels, so the image is the whole surface.
        let region = Region::whole(&s);
        assert_eq!([region.w, region.h, region.d], sub.elements.to_array(), "whole-surface images only");
        let lin = LinearLayout::packed(&region, s.elem_size_bytes());
        let l = sub.linear_offset_bytes as usize..(sub.linear_offset_bytes + sub.linear_size_bytes) as usize;
        let d = sub.offset_bytes as usize..(sub.offset_bytes + sub.size_bytes) as usize;
        tile_reference(&s, &linear[l], &mut dump[d], region, lin).expect("reference tile");
    }
    dump
}

#[test]
#[ignore = "regenerates the golden files of tests/c; run by hand"]
fn write_golden_files() {
    let dir = data_dir();
    // NV2A (xemu): a 16x16 cube map of 4-byte texels with every mip level, swizzled.
    let cube =
        TextureSpec::with_elem_size(Gpu::Nv2a, TextureType::Cube, 4, [16, 16, 1]).full_mip_chain().build().unwrap();
    let lin = pattern(cube.linear_size_bytes() as usize);
    std::fs::write(dir.join("nv2a_cube16_swizzled.bin"), tile_by_reference(&cube, &lin)).unwrap();
    // NV2A: a 3D texture 8x8x4 of 2-byte texels with every mip level, swizzled.
    let vol = TextureSpec::with_elem_size(Gpu::Nv2a, TextureType::D3, 2, [8, 8, 4]).full_mip_chain().build().unwrap();
    let lin = pattern(vol.linear_size_bytes() as usize);
    std::fs::write(dir.join("nv2a_3d8x8x4_swizzled.bin"), tile_by_reference(&vol, &lin)).unwrap();
    // Switch: a 64x64 BC7 texture with every mip level (NVN block heights, Tegra gob order).
    let bc7 = Format::parse("bc7").unwrap();
    let tex = TextureSpec::new(Platform::parse("switch").unwrap(), TextureType::D2, &bc7, [64, 64, 1])
        .full_mip_chain()
        .build()
        .unwrap();
    let lin = pattern(tex.linear_size_bytes() as usize);
    std::fs::write(dir.join("switch_bc7_64_tiled.bin"), tile_by_reference(&tex, &lin)).unwrap();
    // Its level 0 decoded through the generic texel path.
    let level0 = tex.level_bytes(&lin, 0, 0).unwrap();
    let mut texels = vec![Default::default(); 64 * 64];
    bc7.decode_rect(level0, 16 * 16, 64, 64, &mut texels).unwrap();
    let rgba: Vec<u8> = texels.iter().flat_map(|t| bc7.texel_to_rgba8(t)).collect();
    std::fs::write(dir.join("switch_bc7_64_level0_rgba8.bin"), rgba).unwrap();
}
