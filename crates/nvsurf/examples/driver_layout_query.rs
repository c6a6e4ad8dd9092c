//! A driver developer's layout query: a texture's levels, offsets, block sizes and layer
//! stride as NVIDIA's driver lays it out on a GPU (the `nvidia` block policy on GF100 and
//! later, the Turing gob order on Turing and later). Run:
//! `cargo run -p nvsurf --example driver_layout_query`.

use nvsurf::format::Format;
use nvsurf::texture::TextureType;
use nvsurf::{Gpu, TextureSpec};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rgba = Format::parse("RGBA8_UNORM")?;
    let tex =
        TextureSpec::new(Gpu::Gh100, TextureType::D2Array, &rgba, [300, 200, 1]).full_mip_chain().layers(4).build()?;
    println!("size {} bytes, layer stride {} bytes", tex.size_bytes(), tex.layer_stride_bytes());
    for l in tex.levels() {
        println!(
            "level {}: {:?} texels, offset {:#x}, {} bytes, block log2 {:?}",
            l.level, l.texels, l.offset_bytes, l.size_bytes, l.block_log2
        );
    }
    Ok(())
}
