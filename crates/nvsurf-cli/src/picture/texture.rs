//! A whole texture in memory ([`DdsTexture`]): levels and layers (cube faces count as
//! layers) of linear element images, layer-major then level, the order DDS stores them; KTX2
//! (level-major) is reordered to it. Its sizes are exact and checked before anything is used.

use super::size::{memory_bytes, saturate};
use nvsurf::extent::{Extent, Texels};
use nvsurf::format::Format;
use nvsurf::Error;

/// A whole texture in DDS order: for each layer (cube faces are layers), each mip level, the
/// linear element image of that level (all its slices). `D` holds the bytes: owned (a file
/// read), or borrowed (`&[u8]`: the writers take an untiled buffer as it is, no copy).
#[derive(Debug, Clone, PartialEq)]
pub struct DdsTexture<D = Vec<u8>> {
    /// Level 0 extent.
    pub extent: Extent<Texels>,
    /// Number of mip levels.
    pub levels: u32,
    /// Number of layers (6 per cube).
    pub layers: u32,
    /// True for cube maps (and cube arrays).
    pub cube: bool,
    /// Linear element data, layer-major then level.
    pub data: D,
}

/// The fields [`DdsTexture::checked_bytes_named`] checks, as a DDS header names them: width,
/// height, depth, mip levels and the texture's size.
pub const DDS_FIELDS: [&str; 5] = ["DDS width", "DDS height", "DDS depth", "DDS mip levels", "DDS texture size"];

/// [`DDS_FIELDS`] as a KTX2 header names them.
pub const KTX2_FIELDS: [&str; 5] =
    ["KTX2 pixelWidth", "KTX2 pixelHeight", "KTX2 pixelDepth", "KTX2 levelCount", "KTX2 texture size"];

/// Extent of mip level `level` (each dimension halves, rounding down, at least 1).
pub fn level_extent(e: Extent<Texels>, level: u32) -> Extent<Texels> {
    let h = |x: u32| (x >> level.min(31)).max(1);
    Extent::<Texels>::new(h(e.width), h(e.height), h(e.depth))
}

impl<D> DdsTexture<D> {
    /// Bytes of levels `0..levels` of one layer, exact in 128 bits.
    fn levels_bytes(&self, f: &Format, levels: u32) -> u128 {
        (0..levels).map(|l| level_extent(self.extent, l).exact_bytes(f)).sum()
    }

    /// Byte offset and size of (layer, level) in `data` (saturating; see
    /// [`DdsTexture::checked_bytes`]).
    pub fn span(&self, f: &Format, layer: u32, level: u32) -> (usize, usize) {
        let at = u128::from(layer) * self.levels_bytes(f, self.levels) + self.levels_bytes(f, level);
        (saturate(at), level_extent(self.extent, level).bytes(f))
    }

    /// Total bytes (saturating; see [`DdsTexture::checked_bytes`]).
    pub fn bytes(&self, f: &Format) -> usize {
        saturate(self.levels_bytes(f, self.levels) * u128::from(self.layers))
    }

    /// Total bytes, or an error naming the field when the shape cannot be: a zero width or
    /// height, more mip levels than the largest dimension has (a full chain of a `2^n` texture
    /// has `n + 1`), or more bytes than memory holds. A DDS header passes here before its
    /// sizes are used.
    pub fn checked_bytes(&self, f: &Format) -> Result<usize, Error> {
        self.checked_bytes_named(f, &DDS_FIELDS)
    }

    /// [`DdsTexture::checked_bytes`] naming the fields as the container does (`names`:
    /// [`DDS_FIELDS`] or [`KTX2_FIELDS`]), so a KTX2 header's fault names KTX2's fields. Every
    /// size is exact (128 bits): none wraps.
    pub fn checked_bytes_named(&self, f: &Format, names: &[&'static str; 5]) -> Result<usize, Error> {
        let e = self.extent;
        for (field, v) in [(names[0], e.width), (names[1], e.height), (names[2], e.depth)] {
            if v == 0 {
                return Err(Error::OutOfRange { field, value: 0, min: 1, max: u64::from(u32::MAX) });
            }
        }
        let max_levels = 32 - e.width.max(e.height).max(e.depth).leading_zeros();
        if self.levels > max_levels {
            return Err(Error::OutOfRange {
                field: names[3],
                value: u64::from(self.levels),
                min: 1,
                max: u64::from(max_levels),
            });
        }
        let what = || {
            format!(
                "{} layers of {} levels of {}x{}x{} px of {}",
                self.layers,
                self.levels,
                e.width,
                e.height,
                e.depth,
                f.name()
            )
        };
        memory_bytes(names[4], self.levels_bytes(f, self.levels) * u128::from(self.layers), what)?;
        // The largest level decodes to 16 bytes per pixel (the library's "decoded image size").
        e.checked_bytes(f)?;
        Ok(self.bytes(f))
    }
}
