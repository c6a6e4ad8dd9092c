//! A texture tool's round trip: a picture in, a tiled texture out, and back. The picture is a
//! gradient made here (a tool would read a PNG); it is encoded to the texture's format, tiled
//! as the GPU lays it out, untiled and decoded again, and must come back unchanged. Run:
//! `cargo run -p nvsurf --example texture_round_trip`.

use nvsurf::format::Format;
use nvsurf::texture::TextureType;
use nvsurf::tile::CopyOptions;
use nvsurf::{Gpu, TextureSpec};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (w, h) = (320u32, 180u32);
    let picture: Vec<[u8; 4]> =
        (0..w * h).map(|i| [(i % w * 255 / w) as u8, (i / w * 255 / h) as u8, 128, 255]).collect();
    let fmt = Format::parse("A8B8G8R8")?;
    let tex = TextureSpec::new(Gpu::Gm20b, TextureType::D2, &fmt, [w, h, 1]).build()?;
    // Picture -> elements (A8B8G8R8 keeps R in the lowest byte) -> tiled texture.
    let elems: Vec<u8> = picture.iter().flatten().copied().collect();
    let opts = CopyOptions::default();
    let tiled = tex.tile_to_buf(&elems, &opts)?;
    // ... and back.
    let linear = tex.untile_to_buf(&tiled, &opts)?;
    let back = nvsurf::decode_rgba8(&fmt, tex.level_bytes(&linear, 0, 0)?, [w, h])?;
    assert_eq!(back, picture, "the round trip keeps every pixel");
    println!("{w}x{h} picture -> {} tiled bytes -> the same {} pixels", tiled.len(), back.len());
    Ok(())
}
