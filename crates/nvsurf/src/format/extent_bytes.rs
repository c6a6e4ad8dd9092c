//! The conversions of a typed [`Extent`] that need a format: texels to elements (the format's
//! block of texels per element) and the bytes of a packed image. They live here, not in
//! `extent`, so that `extent` stays a leaf every module may import.

use super::Format;
use crate::error::{Error, Result};
use crate::extent::{Elements, Extent, Offset, Texels};

impl Offset<Texels> {
    /// The element of `format` that holds this texel (rounding down).
    pub fn to_elements(self, format: &Format) -> Offset<Elements> {
        let (bw, bh) = format.block_dims();
        self.to_elements_by([bw, bh])
    }
}

impl Offset<Elements> {
    /// The first texel of this element of `format`.
    pub fn to_texels(self, format: &Format) -> Offset<Texels> {
        let (bw, bh) = format.block_dims();
        self.to_texels_by([bw, bh])
    }
}

impl Extent<Elements> {
    /// The texels these elements of `format` cover (whole blocks).
    pub fn to_texels(self, format: &Format) -> Extent<Texels> {
        let (bw, bh) = format.block_dims();
        self.to_texels_by([bw, bh])
    }
}

impl Extent<Texels> {
    /// The elements of `format` that hold these texels (its [`Format::block_dims`] texels
    /// each, rounding up): a compressed 10x7 texels of 4x4 blocks is 3x2 elements.
    pub fn to_elements(self, format: &Format) -> Extent<Elements> {
        let (bw, bh) = format.block_dims();
        self.to_elements_by([bw, bh])
    }

    /// The old name of [`Extent::to_elements`].
    #[deprecated(note = "use to_elements(&format)")]
    pub fn elements_of(self, format: &Format) -> Extent<Elements> {
        self.to_elements(format)
    }

    /// Bytes per row of elements of `format`, exact.
    fn row_bytes_exact(self, format: &Format) -> u128 {
        u128::from(self.to_elements(format).width) * u128::from(format.elem_size_bytes())
    }

    /// Bytes per slice of elements of `format`, exact.
    fn slice_bytes_exact(self, format: &Format) -> u128 {
        self.row_bytes_exact(format) * u128::from(self.to_elements(format).height)
    }

    /// Bytes of the whole packed image of `format` (rows of whole elements, no padding), exact:
    /// at most about 2^96, so no overflow.
    pub fn exact_bytes(self, format: &Format) -> u128 {
        self.slice_bytes_exact(format) * u128::from(self.depth)
    }

    /// Bytes per row of elements of `format`, saturating at `usize::MAX`
    /// ([`Extent::checked_bytes`] says whether the image fits at all).
    pub fn row_bytes(self, format: &Format) -> usize {
        saturate(self.row_bytes_exact(format))
    }

    /// Bytes per slice of `format` (saturating, as [`Extent::row_bytes`]).
    pub fn slice_bytes(self, format: &Format) -> usize {
        saturate(self.slice_bytes_exact(format))
    }

    /// Bytes of the whole packed image of `format` (saturating, as [`Extent::row_bytes`]).
    pub fn bytes(self, format: &Format) -> usize {
        saturate(self.exact_bytes(format))
    }

    /// Bytes of the whole packed image of `format`, or [`Error::Unsupported`] naming the
    /// extent when a buffer that large cannot exist (more than `isize::MAX` bytes), for the
    /// image or for its texels decoded to RGBA f32 (16 bytes each). A size from a file header
    /// or a flag can pass here before anything is allocated or indexed.
    pub fn checked_bytes(self, format: &Format) -> Result<usize> {
        let what = || alloc::format!("{}x{}x{} px of {}", self.width, self.height, self.depth, format.name());
        memory_bytes("image size", self.exact_bytes(format), what)?;
        memory_bytes("decoded image size", u128::from(self.count()) * 16, what)?;
        Ok(self.bytes(format))
    }
}

/// `n` as a `usize`, saturating.
fn saturate(n: u128) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// `n` bytes as a `usize` when a buffer that large can exist (at most `isize::MAX`), else
/// [`Error::Unsupported`] of `what`, described by `detail`.
fn memory_bytes(what: &'static str, n: u128, detail: impl Fn() -> alloc::string::String) -> Result<usize> {
    usize::try_from(n).ok().filter(|&n| n <= isize::MAX as usize).ok_or_else(|| Error::Unsupported {
        field: what,
        value: alloc::format!("{n} bytes ({})", detail()),
        rule: alloc::format!("a buffer holds at most {} bytes", isize::MAX),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texels_of_a_format() {
        let bc1 = Format::parse("bc1").unwrap();
        let t: Extent<Texels> = Extent::new(10, 7, 2);
        assert_eq!(t.to_elements(&bc1), [3, 2, 2]);
        assert_eq!(t.to_elements(&bc1).to_texels(&bc1), [12, 8, 2]);
        assert_eq!(Offset::<Texels>::new(9, 4, 1).to_elements(&bc1).to_array(), [2, 1, 1]);
        assert_eq!((t.row_bytes(&bc1), t.slice_bytes(&bc1), t.bytes(&bc1)), (24, 48, 96));
        assert_eq!(t.checked_bytes(&bc1).unwrap(), 96);
        let huge: Extent<Texels> = Extent::new(u32::MAX, u32::MAX, u32::MAX);
        assert!(matches!(huge.checked_bytes(&bc1), Err(Error::Unsupported { .. })));
        assert_eq!(huge.bytes(&bc1), usize::MAX);
    }
}
