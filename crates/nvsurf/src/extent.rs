//! Sizes that carry their unit: an [`Extent`] of [`Texels`] is not an extent of [`Elements`],
//! [`Bytes`] or [`Samples`], so passing one where another is meant is a compile error (the idea
//! of Mesa nil's `Extent4D<Units>`, `src/nouveau/nil/extent.rs`). A compressed format holds
//! several texels per element (4x4 for BC) and a multisampled surface several samples per
//! pixel, so the units differ exactly where a mix-up would hurt.
//!
//! This module is a leaf: it imports nothing from the crate. The conversions that need a
//! format live beside [`crate::format::Format`] (`Extent<Texels>::to_elements(&format)`,
//! `row_bytes`, `checked_bytes`), the one that needs a sample mode beside
//! [`crate::msaa::MsMode`] (`Extent<Texels>::to_samples(mode)`).
//!
//! A plain `[u32; 3]` converts into an extent of any unit (`From`): an array has no unit, so
//! it is the caller's word. An extent of one unit never converts into another except through
//! the named conversions.

use core::marker::PhantomData;

/// The unit of an extent counted in texels (pixels of a texture or picture).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Texels {}

/// The unit of an extent counted in elements (a texel, a compressed block of texels, or one
/// sample of a multisampled surface): what a surface's layout addresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Elements {}

/// The unit of an extent counted in samples (a multisampled surface's sample grid: pixels
/// times the mode's samples across and down).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Samples {}

/// The unit of an extent whose width is counted in bytes (rows and slices stay counted in
/// rows and slices): a row of elements seen as memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bytes {}

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

/// A position (x, y, z) in the unit `U`: the first corner of a region or box.
pub struct Offset<U> {
    /// Column.
    pub x: u32,
    /// Row.
    pub y: u32,
    /// Slice.
    pub z: u32,
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

    /// Each of width, height and depth through `f`, the unit kept.
    pub fn map(self, f: impl Fn(u32) -> u32) -> Extent<U> {
        Extent::new(f(self.width), f(self.height), f(self.depth))
    }

    /// Width x height x depth, as u64.
    pub fn count(self) -> u64 {
        u64::from(self.width) * u64::from(self.height) * u64::from(self.depth)
    }
}

impl<U> Clone for Offset<U> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<U> Copy for Offset<U> {}
impl<U> PartialEq for Offset<U> {
    fn eq(&self, o: &Self) -> bool {
        self.to_array() == o.to_array()
    }
}
impl<U> Eq for Offset<U> {}
impl<U> core::fmt::Debug for Offset<U> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "({}, {}, {})", self.x, self.y, self.z)
    }
}

impl<U> Offset<U> {
    /// The position (`x`, `y`, `z`).
    pub const fn new(x: u32, y: u32, z: u32) -> Offset<U> {
        Offset { x, y, z, unit: PhantomData }
    }

    /// `[x, y, z]`, the unit dropped.
    pub const fn to_array(self) -> [u32; 3] {
        [self.x, self.y, self.z]
    }
}

impl<U> From<[u32; 3]> for Offset<U> {
    fn from([x, y, z]: [u32; 3]) -> Offset<U> {
        Offset::new(x, y, z)
    }
}

impl Offset<Texels> {
    /// The element that holds this texel, `texels_per_elem` (x, y) texels to an element
    /// (rounding down; `z` is a slice and stays).
    pub fn to_elements_by(self, texels_per_elem: [u32; 2]) -> Offset<Elements> {
        let [bw, bh] = texels_per_elem.map(|v| v.max(1));
        Offset::new(self.x / bw, self.y / bh, self.z)
    }
}

impl Offset<Elements> {
    /// The first texel of this element, `texels_per_elem` (x, y) texels to an element
    /// (saturating at `u32::MAX`).
    pub fn to_texels_by(self, texels_per_elem: [u32; 2]) -> Offset<Texels> {
        let [bw, bh] = texels_per_elem.map(|v| v.max(1));
        Offset::new(self.x.saturating_mul(bw), self.y.saturating_mul(bh), self.z)
    }
}

impl Extent<Texels> {
    /// A 2D extent (depth 1) of `width` x `height` texels.
    pub const fn new_2d(width: u32, height: u32) -> Extent<Texels> {
        Extent::new(width, height, 1)
    }

    /// The elements that hold these texels, `texels_per_elem` (x, y) texels each, rounding up.
    /// `to_elements(&format)` takes them from a format.
    pub fn to_elements_by(self, texels_per_elem: [u32; 2]) -> Extent<Elements> {
        let [bw, bh] = texels_per_elem.map(|v| v.max(1));
        Extent::new(self.width.div_ceil(bw), self.height.div_ceil(bh), self.depth)
    }
}

impl Extent<Elements> {
    /// The texels these elements cover, `texels_per_elem` (x, y) texels each (a whole block's
    /// worth: the texels of an edge block past the image count too).
    pub fn to_texels_by(self, texels_per_elem: [u32; 2]) -> Extent<Texels> {
        let [bw, bh] = texels_per_elem.map(|v| v.max(1));
        Extent::new(self.width.saturating_mul(bw), self.height.saturating_mul(bh), self.depth)
    }

    /// The same rows seen as memory: width times `elem_size_bytes` bytes, as u64 (a row of
    /// `u32::MAX` 16-byte elements does not fit a u32).
    pub fn row_bytes_of(self, elem_size_bytes: u32) -> u64 {
        u64::from(self.width) * u64::from(elem_size_bytes)
    }

    /// The same grid with its width in bytes, or `None` when that width passes `u32::MAX`.
    pub fn to_bytes(self, elem_size_bytes: u32) -> Option<Extent<Bytes>> {
        let w = u32::try_from(self.row_bytes_of(elem_size_bytes)).ok()?;
        Some(Extent::new(w, self.height, self.depth))
    }
}

impl Extent<Samples> {
    /// The elements of a multisampled surface: one sample is one element.
    pub const fn to_elements(self) -> Extent<Elements> {
        Extent::new(self.width, self.height, self.depth)
    }
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

impl<U> core::ops::IndexMut<usize> for Extent<U> {
    /// 0: width, 1: height, 2: depth; panics past 2 like an array.
    fn index_mut(&mut self, i: usize) -> &mut u32 {
        match i {
            0 => &mut self.width,
            1 => &mut self.height,
            2 => &mut self.depth,
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
        assert_eq!(t.to_elements_by([4, 4]), [3, 2, 1]);
        assert_eq!(t.to_elements_by([1, 1]).count(), 70);
        assert_eq!(t.to_elements_by([4, 4]).to_texels_by([4, 4]), [12, 8, 1]);
        assert_eq!(t[1], 7);
        let a: [u32; 3] = t.into();
        assert_eq!(a, [10, 7, 1]);
        let o: Offset<Texels> = Offset::new(9, 4, 2);
        assert_eq!(o.to_elements_by([4, 4]).to_array(), [2, 1, 2]);
    }

    #[test]
    fn elements_to_bytes_and_samples_to_elements() {
        let e: Extent<Elements> = Extent::new(300, 5, 2);
        assert_eq!(e.to_bytes(16).map(Extent::to_array), Some([4800, 5, 2]));
        assert_eq!(e.row_bytes_of(16), 4800);
        let wide: Extent<Elements> = Extent::new(u32::MAX, 1, 1);
        assert_eq!(wide.to_bytes(16), None);
        assert_eq!(wide.row_bytes_of(16), u64::from(u32::MAX) * 16);
        let s: Extent<Samples> = Extent::new(8, 6, 1);
        assert_eq!(s.to_elements(), [8, 6, 1]);
    }
}
