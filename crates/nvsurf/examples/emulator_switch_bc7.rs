//! An emulator's one-liner: a Switch BC7 texture (a raw dump of GPU memory) to RGBA8 pixels.
//! The `switch` preset implies the Tegra gob order and NVN's block policy; the format implies
//! the 4x4 blocks. Run: `cargo run -p nvsurf --example emulator_switch_bc7 [DUMP]`.

use nvsurf::format::Format;
use nvsurf::texture::TextureType;
use nvsurf::tile::CopyOptions;
use nvsurf::{Platform, TextureSpec};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let bc7 = Format::parse("bc7")?;
    let tex =
        TextureSpec::new(Platform::parse("switch")?, TextureType::D2, &bc7, [256, 256, 1]).full_mip_chain().build()?;
    // The dump: a file named on the command line, or zeros of the texture's size.
    let dump = match std::env::args().nth(1) {
        Some(path) => std::fs::read(path)?,
        None => vec![0u8; tex.size_bytes() as usize],
    };
    // The one line: dump -> packed linear texture (DDS order) -> level 0 as RGBA8.
    let linear = tex.untile_to_buf(&dump, &CopyOptions::default())?;
    let rgba = nvsurf::decode_rgba8(&bc7, tex.level_bytes(&linear, 0, 0)?, [256, 256])?;
    println!(
        "{} levels, {} bytes tiled; level 0: {} RGBA8 pixels, first {:?}",
        tex.level_count(),
        tex.size_bytes(),
        rgba.len(),
        rgba[0]
    );
    Ok(())
}
