//! Safe movers: every access is a checked slice. They are the twins the raw movers are tested
//! against (`tests/tile_props.rs` runs both).

use super::mover::{gob_row_moves, GobRow, Mover};

/// Untile: tiled (read) -> linear (write).
pub(crate) struct Untile<'a> {
    pub(crate) tiled: &'a [u8],
    pub(crate) linear: &'a mut [u8],
    pub(crate) linear_base: usize,
}

impl Mover for Untile<'_> {
    #[inline(always)]
    fn tiled_ptr(&self, t: usize) -> *const u8 {
        self.tiled.as_ptr().wrapping_add(t)
    }
    #[inline(always)]
    fn mv(&mut self, t: usize, l: usize, len: usize) {
        let l = l - self.linear_base;
        self.linear[l..l + len].copy_from_slice(&self.tiled[t..t + len]);
    }
    /// The chunk-group walk with checked copies (its fallback path), so that its chunk
    /// offsets are bounds-checked in the tests.
    #[inline(always)]
    fn wants_small_chunks<const ES: usize>(&self) -> bool {
        matches!(ES, 1 | 2 | 8)
    }
    /// The gob-row walk with checked copies, on any CPU: its offsets (and the stacking of
    /// VM gobs) are bounds-checked in the tests.
    #[inline(always)]
    fn gob_row_vector(&mut self, row: &GobRow) -> bool {
        gob_row_moves(self, row);
        true
    }
}

/// Tile: linear (read) -> tiled (write).
pub(crate) struct Tile<'a> {
    pub(crate) linear: &'a [u8],
    pub(crate) tiled: &'a mut [u8],
    pub(crate) tiled_base: usize,
}

impl Mover for Tile<'_> {
    #[inline(always)]
    fn tiled_ptr(&self, t: usize) -> *const u8 {
        self.tiled.as_ptr().wrapping_add(t.wrapping_sub(self.tiled_base))
    }
    #[inline(always)]
    fn mv(&mut self, t: usize, l: usize, len: usize) {
        let t = t - self.tiled_base;
        self.tiled[t..t + len].copy_from_slice(&self.linear[l..l + len]);
    }
    /// As for [`Untile`].
    #[inline(always)]
    fn wants_small_chunks<const ES: usize>(&self) -> bool {
        matches!(ES, 1 | 2 | 8)
    }
    /// As for [`Untile`].
    #[inline(always)]
    fn gob_row_vector(&mut self, row: &GobRow) -> bool {
        gob_row_moves(self, row);
        true
    }
}
