//! Sizes that carry their unit: an [`Extent`] of [`Texels`] is not an extent of [`Elements`],
//! so passing one where the other is meant is a compile error (the idea of Mesa nil's
//! `Extent4D<Units>`, `src/nouveau/nil/extent.rs`). A compressed format holds several texels per
//! element (4x4 for BC), so the two differ exactly where a mix-up would hurt.

use crate::error::{Error, Result};
use crate::format::Format;
use core::marker::PhantomData;

/// The unit of an extent counted in texels (pixels of a texture).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Texels {}

/// The unit of an extent counted in elements (a texel, or a compressed block of texels).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Elements {}

/// Width, height and depth in the unit `U`.
pub struct Extent<U> {
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// Depth (slices; 1 for 2D).
    pub depth: u32,
    unit: PhantomData<U>,
}

// By hand: derives would ask the unit (an empty marker) for the traits too.
impl<U> Clone for Extent<U> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<U> Copy for Extent<U> {}
impl<U> PartialEq for Extent<U> {
    fn eq(&self, o: &Self) -> bool {
        self.to_array() == o.to_array()
    }
}
impl<U> Eq for Extent<U> {}
impl<U> core::hash::Hash for Extent<U> {
    fn hash<H: core::hash::Hasher>(&self, h: &mut H) {
        self.to_array().hash(h)
    }
}
impl<U> core::fmt::Debug for Extent<U> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}x{}x{}", self.width, self.height, self.depth)
    }
}

impl<U> Extent<U> {
    /// An extent of `width` x `height` x `depth`.
    pub const fn new(width: u32, height: u32, depth: u32) -> Extent<U> {
        Extent { width, height, depth, unit: PhantomData }
    }

    /// `[width, height, depth]`, the unit dropped (for arithmetic and output).
    pub const fn to_array(self) -> [u32; 3] {
        [self.width, self.height, self.depth]
    }

    /// Width x height x depth, as u64.
    pub fn count(self) -> u64 {
        u64::from(self.width) * u64::from(self.height) * u64::from(self.depth)
    }
}

impl Extent<Texels> {
    /// A 2D extent (depth 1) of `width` x `height` texels.
    pub const fn new_2d(width: u32, height: u32) -> Extent<Texels> {
        Extent::new(width, height, 1)
    }

    /// The elements that hold these texels, `texels_per_elem` (x, y) texels each, rounding up.
    /// [`Extent::elements_of`] takes them from a [`Format`].
    pub fn to_elements(self, texels_per_elem: [u32; 2]) -> Extent<Elements> {
        let [bw, bh] = texels_per_elem.map(|v| v.max(1));
        Extent::new(self.width.div_ceil(bw), self.height.div_ceil(bh), self.depth)
    }

    /// The elements of `format` that hold these texels (its [`Format::block_dims`] texels
    /// each, rounding up): a compressed 10x7 texels of 4x4 blocks is 3x2 elements.
    pub fn elements_of(self, format: &Format) -> Extent<Elements> {
        let (bw, bh) = format.block_dims();
        self.to_elements([bw, bh])
    }

    /// Bytes per row of elements of `format`, exact.
    fn row_bytes_exact(self, format: &Format) -> u128 {
        u128::from(self.elements_of(format).width) * u128::from(format.elem_size_bytes())
    }

    /// Bytes per slice of elements of `format`, exact.
    fn slice_bytes_exact(self, format: &Format) -> u128 {
        self.row_bytes_exact(format) * u128::from(self.elements_of(format).height)
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

impl<U> From<[u32; 3]> for Extent<U> {
    fn from([w, h, d]: [u32; 3]) -> Extent<U> {
        Extent::new(w, h, d)
    }
}

impl<U> From<Extent<U>> for [u32; 3] {
    fn from(e: Extent<U>) -> [u32; 3] {
        e.to_array()
    }
}

impl<U> PartialEq<[u32; 3]> for Extent<U> {
    fn eq(&self, other: &[u32; 3]) -> bool {
        self.to_array() == *other
    }
}

impl<U> core::ops::Index<usize> for Extent<U> {
    type Output = u32;
    /// 0: width, 1: height, 2: depth; panics past 2 like an array.
    fn index(&self, i: usize) -> &u32 {
        match i {
            0 => &self.width,
            1 => &self.height,
            2 => &self.depth,
            _ => panic!("extent index {i} out of range 0..3"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texels_to_elements() {
        let t: Extent<Texels> = Extent::new(10, 7, 1);
        assert_eq!(t.to_elements([4, 4]), [3, 2, 1]);
        assert_eq!(t.to_elements([1, 1]).count(), 70);
        assert_eq!(t[1], 7);
        let a: [u32; 3] = t.into();
        assert_eq!(a, [10, 7, 1]);
    }

    #[test]
    fn texels_of_a_format() {
        let bc1 = Format::parse("bc1").unwrap();
        let t: Extent<Texels> = Extent::new(10, 7, 2);
        assert_eq!(t.elements_of(&bc1), [3, 2, 2]);
        assert_eq!((t.row_bytes(&bc1), t.slice_bytes(&bc1), t.bytes(&bc1)), (24, 48, 96));
        assert_eq!(t.checked_bytes(&bc1).unwrap(), 96);
        let huge: Extent<Texels> = Extent::new(u32::MAX, u32::MAX, u32::MAX);
        assert!(matches!(huge.checked_bytes(&bc1), Err(Error::Unsupported { .. })));
        assert_eq!(huge.bytes(&bc1), usize::MAX);
    }
}
