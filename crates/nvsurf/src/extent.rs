//! Sizes that carry their unit: an [`Extent`] of [`Texels`] is not an extent of [`Elements`],
//! so passing one where the other is meant is a compile error (the idea of Mesa nil's
//! `Extent4D<Units>`, `src/nouveau/nil/extent.rs`). A compressed format holds several texels per
//! element (4x4 for BC), so the two differ exactly where a mix-up would hurt.

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
    /// The elements that hold these texels, `texels_per_elem` (x, y) texels each, rounding up.
    pub fn to_elements(self, texels_per_elem: [u32; 2]) -> Extent<Elements> {
        let [bw, bh] = texels_per_elem.map(|v| v.max(1));
        Extent::new(self.width.div_ceil(bw), self.height.div_ceil(bh), self.depth)
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
}
