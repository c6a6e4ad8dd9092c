//! Self-describing pictures: what a DDS or KTX2 header says the file holds (format, size,
//! levels, layers, kind), the flags checked against it (one line naming both on a mismatch),
//! and the one conversion rule for reading a texture as another format.
//!
//! A format other than the file's is converted (decoded, then encoded) unless both are
//! block-compressed: re-encoding one compressed format as another would lose what the file
//! holds, so a different compressed `--format` is a mismatch, not a conversion. An
//! uncompressed file is encoded to a compressed `--format` (the BC encoders,
//! `docs/encoding.md`), each level's PSNR kept in the [`Encoding`].

use super::encoding::Encoding;
use super::kind::PicResult;
use super::size::try_with_capacity;
use super::texels::convert_image;
use super::texture::{level_extent, DdsTexture};
use nvsurf::extent::{Extent, Texels};
use nvsurf::format::Format;
use nvsurf::texture::TextureType;

/// What a DDS or KTX2 header says the file holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Described {
    /// "DDS" or "KTX2".
    pub container: &'static str,
    /// The container's name for the format (`BC7_UNorm`, `VK_FORMAT_BC7_UNORM_BLOCK`).
    pub format_name: String,
    /// The file's format.
    pub format: Format,
    /// Level 0 in pixels.
    pub extent: Extent<Texels>,
    /// Mip levels.
    pub levels: u32,
    /// Layers (6 per cube).
    pub layers: u32,
    /// A cube map or cube map array.
    pub cube: bool,
}

impl Described {
    /// `BC7 1024x1024 with 11 levels` (and the layers and kind when there are more).
    pub fn summary(&self) -> String {
        let e = self.extent;
        let size = match e.depth {
            1 => format!("{}x{}", e.width, e.height),
            d => format!("{}x{}x{d}", e.width, e.height),
        };
        let levels = if self.levels == 1 { "1 level".to_string() } else { format!("{} levels", self.levels) };
        let layers = match (self.cube, self.layers) {
            (true, 6) => " (cube)".to_string(),
            (true, n) => format!(", {n} layers (cube array)"),
            (false, 1) => String::new(),
            (false, n) => format!(", {n} layers"),
        };
        format!("{} {size} with {levels}{layers}", self.short_name())
    }

    /// The name users type for the file's format (`BC7`, `RGBA16F`: the first short alias that
    /// reads the same bits), else the container's own name (`BC7_UNorm`).
    pub fn short_name(&self) -> String {
        let short = nvsurf::format::aliases()
            .iter()
            .filter(|a| a.api == nvsurf::format::AliasApi::Short)
            .map(|a| a.name)
            .chain(self.format.texture().aliases.iter().copied());
        for name in short {
            if Format::parse(name).is_ok_and(|f| same_bits(&f, &self.format)) {
                return name.to_ascii_uppercase();
            }
        }
        self.format_name.clone()
    }

    /// The texture type the header implies: `cube`, `cube_array`, `3d`, `2d_array` or `2d`.
    pub fn texture_type(&self) -> TextureType {
        match (self.cube, self.layers, self.extent.depth) {
            (true, 6, _) => TextureType::Cube,
            (true, _, _) => TextureType::CubeArray,
            (false, _, d) if d > 1 => TextureType::D3,
            (false, 1, _) => TextureType::D2,
            (false, _, _) => TextureType::D2Array,
        }
    }

    /// The texture's shape with no data.
    pub fn shape(&self) -> DdsTexture {
        DdsTexture { extent: self.extent, levels: self.levels, layers: self.layers, cube: self.cube, data: Vec::new() }
    }

    /// The line for a flag that says otherwise: "the DDS holds BC7 1024x1024 with 11
    /// levels; --format says BC3".
    pub fn mismatch(&self, flag: &str, says: &str) -> String {
        format!("the {} holds {}; --{flag} says {says}", self.container, self.summary())
    }

    /// Whether the file's texture may be read as `f`: the same format, or a conversion that is
    /// not from one block-compressed format to another (see the module's rule).
    pub fn reads_as(&self, f: &Format) -> bool {
        same_bits(&self.format, f) || !f.is_compressed() || !self.format.is_compressed()
    }
}

/// Whether two formats store the same bits with the same meaning.
fn same_bits(a: &Format, b: &Format) -> bool {
    a == b
        || (a.texture().id == b.texture().id
            && a.components() == b.components()
            && a.swizzle() == b.swizzle()
            && a.is_srgb() == b.is_srgb())
}

/// A texture read in the file's own format (`d.format`), as `f`: as it is when the formats
/// store the same bits, decoded and encoded when [`Described::reads_as`] allows, and the
/// mismatch line otherwise. Each encoded level of each layer has its PSNR closed in `enc`.
pub fn convert_texture(d: &Described, src: DdsTexture, f: &Format, enc: &Encoding) -> PicResult<DdsTexture> {
    if same_bits(&d.format, f) {
        return Ok(src);
    }
    if !d.reads_as(f) {
        return Err(d.mismatch("format", f.name()).into());
    }
    let mut data = try_with_capacity("converted texture", src.checked_bytes(f)?)?;
    for layer in 0..src.layers {
        for level in 0..src.levels {
            let (at, n) = src.span(&d.format, layer, level);
            let le = level_extent(src.extent, level);
            convert_image(&d.format, f, le, &src.data[at..at + n], enc, &mut data)?;
            enc.finish(level, layer);
        }
    }
    Ok(DdsTexture { data, ..src })
}
