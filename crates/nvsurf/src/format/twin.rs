//! The G80+ twin of a pre-G80 format: the G80 color or texture format that reads the same
//! bytes as the same pixels (`A8R8G8B8` -> `BGRA8_UNORM`, `DXT1` -> `DXT1`). Code that maps
//! formats by table id (DDS's DXGI formats) asks for the twin instead of reading a pre-G80 id
//! as a G80 one.

use super::catalogue::{color_formats, texture_formats};
use super::Format;

/// Sample elements (16 bytes each, enough for any element) that tell layouts apart.
const PROBES: [[u8; 16]; 3] = [
    [0x10, 0x40, 0xff, 0x80, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0x5a, 0xa5, 0x3c, 0xc3],
    [0xfe, 0x01, 0x7f, 0x81, 0x00, 0x3c, 0x00, 0xc0, 0xff, 0xff, 0x00, 0x00, 0x12, 0x34, 0x56, 0x78],
    [0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0x40, 0xaa, 0x55, 0xaa, 0x55, 0x0f, 0xf0, 0x0f, 0xf0],
];

fn same_pixels(a: &Format, b: &Format) -> bool {
    if a.elem_size_bytes() != b.elem_size_bytes() || a.block_dims() != b.block_dims() {
        return false;
    }
    let n = a.elem_size_bytes() as usize;
    let (mut pa, mut pb) = ([[0u32; 4]; 64], [[0u32; 4]; 64]);
    PROBES.iter().all(|p| {
        let ok = a.decode_element(&p[..n], &mut pa).is_ok() && b.decode_element(&p[..n], &mut pb).is_ok();
        ok && pa == pb && a.channel_kinds() == b.channel_kinds()
    })
}

impl Format {
    /// For a pre-G80 format: the G80 color format (else texture format) that decodes every
    /// element to the same pixels, if there is one; a G80+ format is its own twin.
    pub fn g80_twin(&self) -> Option<Format> {
        if self.pre_g80.is_none() {
            return Some(*self);
        }
        let colors = color_formats().iter().map(Format::from_color);
        let textures = texture_formats().iter().map(Format::from_texture);
        colors.chain(textures).find(|g| same_pixels(self, g))
    }
}
