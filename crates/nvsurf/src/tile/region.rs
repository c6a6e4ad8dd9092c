//! What a copy covers on each side: the [`Region`] (a box of elements inside a surface) and
//! the [`LinearLayout`] (row and slice pitch of the linear image). Plain values with their own
//! checks; the plan (module `plan`) combines them with a surface and the buffers.

use crate::error::{Error, Result};
use crate::layout::Surface;

/// A box of elements inside a surface: origin (x, y, z) and extent (w, h, d).
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
    /// The whole surface.
    pub fn whole(s: &Surface) -> Region {
        let [w, h, d] = s.size();
        Region { x: 0, y: 0, z: 0, w, h, d }
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
    /// Tightly packed rows and slices for `region` of `elem_size`-byte elements.
    /// (A product past `u64::MAX` saturates, and `Plan::new` then rejects it.)
    pub fn packed(region: &Region, elem_size: u32) -> LinearLayout {
        let row = u64::from(region.w) * u64::from(elem_size);
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
