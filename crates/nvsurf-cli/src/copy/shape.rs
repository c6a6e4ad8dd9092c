//! A whole texture's shape: as a DDS or KTX2 holds it, and in the summary lines
//! (`256x256 px, 9 levels, 6 layers (cube faces)`). Its own file so that `job` (the `--split`
//! summary) and `texture` both use it without importing each other.

use crate::picture::DdsTexture;
use nvsurf::extent::{Extent, Texels};
use nvsurf::texture::Texture;

/// The texture's shape as a DDS holds it (`data` its packed linear bytes).
pub fn dds_shape<D>(t: &Texture, data: D) -> DdsTexture<D> {
    let [w, h, d] = t.levels()[0].texels.to_array();
    DdsTexture {
        extent: Extent::<Texels>::new(w, h, d),
        levels: t.level_count(),
        layers: t.layer_count(),
        cube: t.ty().is_cube(),
        data,
    }
}

/// A whole texture's shape in the summaries: `256x256 px, 9 levels, 6 layers (cube faces)`.
pub fn texture_words(t: &Texture) -> String {
    describe(&dds_shape(t, ()))
}

/// `WxH px` (`WxHxD px` with depth), the levels and the layers (cube faces for cubes).
pub fn describe<D>(t: &DdsTexture<D>) -> String {
    let (e, levels, layers, cube) = (t.extent, t.levels, t.layers, t.cube);
    let size = match e.depth {
        1 => format!("{}x{} px", e.width, e.height),
        d => format!("{}x{}x{d} px", e.width, e.height),
    };
    let plural = |n: u32, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let faces = if cube { " (cube faces)" } else { "" };
    format!("{size}, {}, {}{faces}", plural(levels, "level"), plural(layers, "layer"))
}
