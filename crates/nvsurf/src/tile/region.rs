//! What a copy covers on each side: the [`Region`] (a box of elements inside a surface) and
//! the [`LinearLayout`] (row and slice pitch of the linear image). Plain values with their own
//! checks; the plan (module `plan`) combines them with a surface and the buffers.

use crate::error::{Error, Result};
use crate::extent::{Elements, Extent, Offset, Texels};
use crate::format::Format;
use crate::layout::Surface;

/// A box of elements inside a surface: origin (x, y, z) and extent (w, h, d), all counted in
/// elements (the unit a surface's layout addresses). The fields are plain numbers for the copy
/// kernels; [`Region::new`], [`Region::origin`] and [`Region::extent`] give them their unit,
/// and [`Region::covering_texels`] converts a box of texels given the format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Region {
    /// First column, in elements.
    pub x: u32,
    /// First row.
    pub y: u32,
    /// First slice.
    pub z: u32,
    /// Width in elements.
    pub w: u32,
    /// Height in rows.
    pub h: u32,
    /// Depth in slices.
    pub d: u32,
}

impl Region {
    /// The box at `origin` of `extent`, both in elements (or plain arrays taken as elements).
    pub fn new(origin: impl Into<Offset<Elements>>, extent: impl Into<Extent<Elements>>) -> Region {
        let ([x, y, z], [w, h, d]) = (origin.into().to_array(), extent.into().to_array());
        Region { x, y, z, w, h, d }
    }

    /// The whole surface.
    pub fn whole(s: &Surface) -> Region {
        Region::new([0, 0, 0], s.size())
    }

    /// The first element of the box.
    pub fn origin(&self) -> Offset<Elements> {
        Offset::new(self.x, self.y, self.z)
    }

    /// The size of the box in elements.
    pub fn extent(&self) -> Extent<Elements> {
        Extent::new(self.w, self.h, self.d)
    }

    /// The elements of `format` that hold the texel box at `origin` of `extent`: the first
    /// element rounds down, the end rounds up, so a box that does not start or end on a
    /// compressed block's edge takes the whole edge blocks. Fails naming the axis whose end
    /// passes `u32::MAX` texels.
    pub fn covering_texels(origin: Offset<Texels>, extent: Extent<Texels>, format: &Format) -> Result<Region> {
        let first = origin.to_elements(format);
        let ends = [("box x+w", origin.x, extent.width), ("box y+h", origin.y, extent.height)];
        let mut end = [0u32; 2];
        for (i, (field, o, e)) in ends.into_iter().enumerate() {
            let n = u64::from(o) + u64::from(e);
            end[i] =
                u32::try_from(n).map_err(|_| Error::OutOfRange { field, value: n, min: 1, max: u32::MAX.into() })?;
        }
        let last = Extent::<Texels>::new(end[0], end[1], 1).to_elements(format);
        let size = [last.width - first.x, last.height - first.y, extent.depth];
        Ok(Region::new(first, size))
    }

    /// Checks that the box is non-empty and inside `s`.
    pub fn check(&self, s: &Surface) -> Result<()> {
        let size = s.size();
        let fields = [
            ("box x", "box w", self.x, self.w),
            ("box y", "box h", self.y, self.h),
            ("box z", "box d", self.z, self.d),
        ];
        for (i, (of, ef, o, e)) in fields.into_iter().enumerate() {
            if e == 0 {
                return Err(Error::OutOfRange { field: ef, value: 0, min: 1, max: size[i].into() });
            }
            let end = u64::from(o) + u64::from(e);
            if end > u64::from(size[i]) {
                let _ = of;
                return Err(Error::OutOfRange {
                    field: ["box x+w", "box y+h", "box z+d"][i],
                    value: end,
                    min: 1,
                    max: size[i].into(),
                });
            }
        }
        Ok(())
    }
}

/// How the linear image is laid out: bytes between rows and between slices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LinearLayout {
    /// Bytes from one row to the next (at least the region's row bytes).
    pub row_pitch_bytes: u64,
    /// Bytes from one slice to the next (at least the region's slice span).
    pub slice_pitch_bytes: u64,
}

impl LinearLayout {
    /// Tightly packed rows and slices for `region` of `elem_size_bytes`-byte elements.
    /// (A product past `u64::MAX` saturates, and `Plan::new` then rejects it.)
    pub fn packed(region: &Region, elem_size_bytes: u32) -> LinearLayout {
        let row = region.extent().row_bytes_of(elem_size_bytes);
        LinearLayout { row_pitch_bytes: row, slice_pitch_bytes: row.saturating_mul(region.h.into()) }
    }

    /// Rows of `row_pitch_bytes`, slices packed (`row_pitch * h`, saturating like [`Self::packed`]).
    pub fn with_row_pitch(region: &Region, row_pitch_bytes: u64) -> LinearLayout {
        LinearLayout { row_pitch_bytes, slice_pitch_bytes: row_pitch_bytes.saturating_mul(region.h.into()) }
    }

    /// Bytes a linear image of `region` takes with this layout: `d` slices of `slice_pitch`,
    /// or `None` past `u64::MAX`.
    pub fn image_bytes(&self, region: &Region) -> Option<u64> {
        self.slice_pitch_bytes.checked_mul(region.d.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_corners_and_texel_boxes() {
        let r = Region::new([1, 2, 0], [3, 4, 1]);
        assert_eq!((r.origin().to_array(), r.extent().to_array()), ([1, 2, 0], [3, 4, 1]));
        let bc1 = Format::parse("bc1").unwrap();
        // Texels 5..14 x 4..8 of 4x4 blocks: block columns 1..4 (5/4 down, 14/4 up), rows 1..2.
        let t = Region::covering_texels(Offset::new(5, 4, 0), Extent::new(9, 4, 1), &bc1).unwrap();
        assert_eq!(t, Region { x: 1, y: 1, z: 0, w: 3, h: 1, d: 1 });
        let rgba = Format::parse("R8G8B8A8_UNORM").unwrap();
        let p = Region::covering_texels(Offset::new(5, 4, 2), Extent::new(9, 4, 3), &rgba).unwrap();
        assert_eq!(p, Region { x: 5, y: 4, z: 2, w: 9, h: 4, d: 3 });
        let e = Region::covering_texels(Offset::new(u32::MAX, 0, 0), Extent::new(2, 1, 1), &rgba).unwrap_err();
        assert!(e.to_string().contains("box x+w"), "{e}");
    }
}
