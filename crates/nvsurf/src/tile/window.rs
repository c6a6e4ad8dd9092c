//! Windows: the part of a surface's bytes that a [`Region`] needs, as a smaller surface.
//!
//! A box of a large surface lies in few of its bytes: the blocks (blocklinear) or row
//! segments (pitch) it touches. [`window()`] names those byte ranges of the surface (the
//! [`Piece`]s, each with its place in the window) and a smaller surface of the same layout
//! whose bytes are exactly the pieces, with the box moved into its coordinates. Reading only the pieces of a
//! dump and untiling the moved box from the window gives the bytes that untiling the box from
//! the whole surface gives (`tests/tile_props.rs` checks this, and the way back through
//! [`Window::scatter`], on random surfaces and boxes), so a 256x256 box of a 16384x16384
//! surface costs its blocks, not the surface.
//!
//! - Blocklinear: whole blocks. The window is the block columns, block rows and block
//!   layers that the box touches, with the same effective block size (no auto-sizing), gob
//!   order and element size; one piece per block row and layer, merged where the window spans
//!   every block column. For 12-byte elements, which straddle gobs, the first block column is
//!   moved back until its first byte starts an element. A box at most half as deep as the
//!   block layers it meets (one slice of a 3D texture whose blocks are 16 slices deep) takes
//!   only its own slices of those blocks: a block's gobs go slice by slice, so each slice of a
//!   block is one run of its bytes, and the window is blocks one slice deep (block depth 0),
//!   one piece per slice and block, in another order in the dump than in the window.
//! - Pitch: the box's rows from a byte column on the pitch alignment (64 bytes on G80 and
//!   later, the element size before; also a multiple of the element size), with the smallest
//!   valid pitch for that width; one piece per row, merged when that is the whole pitch. Row
//!   segments under 16 bytes (pre-G80, small elements) are taken as whole rows, so that the
//!   list of pieces never outweighs the bytes it names.
//! - Swizzled: the smallest aligned cube (a square in 2D; side 2^k along every dimension
//!   longer than 1, at most the shortest of those) that holds the box, as a swizzled surface of
//!   that size. The element index takes one bit of each such dimension in turn from the
//!   lowest (nouveau mailing list, 2010-01-08, Luca Barbieri, "Findings on pre-NV50 miptree
//!   layout"), so the cube's elements are one run of indices whose low bits are the cube's own
//!   swizzle. A box that no such cube holds (one that straddles the middle of the
//!   surface, say) gets the whole surface. One piece either way.

use super::region::Region;
use crate::error::{Error, Result};
use crate::layout::blocklinear::{BlockLinear, BlockLinearParams};
use crate::layout::pitch::{Pitch, PitchParams};
use crate::layout::swizzled::{Swizzled, SwizzledParams};
use crate::layout::Surface;
use alloc::string::String;
use alloc::vec::Vec;

/// A byte range of the original surface: `len_bytes` bytes from `offset_bytes` (from the
/// surface's start), which are the window's bytes from `window_offset_bytes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Offset in bytes from the original surface's start.
    pub offset_bytes: u64,
    /// Length in bytes.
    pub len_bytes: u64,
    /// Offset in bytes from the window's start.
    pub window_offset_bytes: u64,
}

/// A smaller surface holding the bytes a region of a larger one needs (see the module
/// documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    /// The window as a surface of the same layout: its `size_bytes` is the pieces' total.
    pub surface: Surface,
    /// The region, in the window's coordinates.
    pub region: Region,
    /// Byte ranges of the original surface, increasing and disjoint, that together make the
    /// window's bytes: one after the other, except for a box thinner than its blocks (see the
    /// module documentation), whose pieces are in the window slice by slice.
    pub pieces: Vec<Piece>,
}

impl Window {
    /// The window's size in bytes (the pieces' total).
    pub fn size_bytes(&self) -> u64 {
        self.surface.size_bytes()
    }

    /// Copies the pieces of `tiled` (the original surface's bytes) into `out` (the window's
    /// bytes). Errors when either buffer is too short.
    pub fn gather(&self, tiled: &[u8], out: &mut [u8]) -> Result<()> {
        for (src, at, len) in self.spans(tiled.len(), out.len())? {
            out[at..at + len].copy_from_slice(&tiled[src..src + len]);
        }
        Ok(())
    }

    /// Copies the window's bytes `window` back to their places in `tiled` (the original
    /// surface's bytes); bytes outside the pieces are left as they were. Errors when either
    /// buffer is too short.
    pub fn scatter(&self, window: &[u8], tiled: &mut [u8]) -> Result<()> {
        for (dst, at, len) in self.spans(tiled.len(), window.len())? {
            tiled[dst..dst + len].copy_from_slice(&window[at..at + len]);
        }
        Ok(())
    }

    /// The pieces as `usize` (offset, window offset, length) triples, after checking that each
    /// ends inside `tiled_len` bytes, that their places tile the window ([`check_places`]) and
    /// that `window_len` holds it (the fields are public, so a hand-made window is checked too).
    fn spans(&self, tiled_len: usize, window_len: usize) -> Result<impl Iterator<Item = (usize, usize, usize)> + '_> {
        let size = self.size_bytes();
        if (window_len as u64) < size {
            return Err(Error::BufferTooSmall { what: "window buffer", needed: size, got: window_len as u64 });
        }
        for p in &self.pieces {
            let end = p.offset_bytes.saturating_add(p.len_bytes);
            if (tiled_len as u64) < end {
                return Err(Error::BufferTooSmall { what: "tiled buffer", needed: end, got: tiled_len as u64 });
            }
        }
        check_places(&self.pieces, size)?;
        // Every piece ends at or below `tiled_len` and inside the window (at most
        // `window_len`), so each value fits in usize.
        Ok(self.pieces.iter().map(|p| (p.offset_bytes as usize, p.window_offset_bytes as usize, p.len_bytes as usize)))
    }
}

/// Checks that the pieces' places in the window (`window_offset_bytes`, `len_bytes`) cover
/// `0..window_bytes` exactly once: no gap, no overlap, nothing outside. Pieces in window order
/// (every window but a thin blocklinear box's) are checked in one pass; others are sorted
/// first (a copy of their places, allocated fallibly).
pub fn check_places(pieces: &[Piece], window_bytes: u64) -> Result<()> {
    let bad = |what: String| Error::Unsupported {
        field: "window pieces",
        value: what,
        rule: alloc::format!("their places must cover the window's {window_bytes} bytes exactly once"),
    };
    let tiles = |places: &mut dyn Iterator<Item = (u64, u64)>| -> Result<()> {
        let mut at = 0u64;
        for (o, n) in places {
            if o != at {
                return Err(bad(alloc::format!("a piece at window offset {o} where {at} was expected")));
            }
            at = at.checked_add(n).ok_or_else(|| bad(alloc::format!("a piece of {n} bytes at {o}")))?;
        }
        if at == window_bytes {
            Ok(())
        } else {
            Err(bad(alloc::format!("{at} bytes")))
        }
    };
    if pieces.windows(2).all(|w| w[0].window_offset_bytes < w[1].window_offset_bytes) {
        return tiles(&mut pieces.iter().map(|p| (p.window_offset_bytes, p.len_bytes)));
    }
    let mut places = Vec::new();
    places.try_reserve_exact(pieces.len()).map_err(|_| bad(alloc::format!("{} pieces", pieces.len())))?;
    places.extend(pieces.iter().map(|p| (p.window_offset_bytes, p.len_bytes)));
    places.sort_unstable();
    tiles(&mut places.into_iter())
}

/// Pieces given as (offset, length) in the window's order, with their window offsets
/// (the running total), sorted by offset.
fn in_window_order(ranges: impl Iterator<Item = (u64, u64)>, mut pieces: Vec<Piece>) -> Vec<Piece> {
    let mut at = 0;
    for (offset_bytes, len_bytes) in ranges {
        pieces.push(Piece { offset_bytes, len_bytes, window_offset_bytes: at });
        at += len_bytes;
    }
    pieces.sort_unstable_by_key(|p| p.offset_bytes);
    pieces
}

/// The window of `s` that holds `region` (checked against `s` first). See the module
/// documentation for what each layout's window is.
pub fn window(s: &Surface, region: Region) -> Result<Window> {
    region.check(s)?;
    match s {
        Surface::BlockLinear(b) => blocklinear_window(b, region),
        Surface::Pitch(p) => pitch_window(p, region),
        Surface::Swizzled(z) => swizzled_window(z, region),
    }
}

/// Greatest common divisor (both non-zero).
fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Room for `n` pieces, or an error when the allocator refuses it (never an abort: a pre-G80
/// pitch surface of 1-byte elements a row apart can ask for one 16-byte piece per byte).
fn pieces_for(n: u64) -> Result<Vec<Piece>> {
    let mut v = Vec::new();
    usize::try_from(n).ok().and_then(|n| v.try_reserve_exact(n).ok()).ok_or_else(|| Error::Unsupported {
        field: "box",
        value: alloc::format!("{n} pieces"),
        rule: "the list of the box's byte ranges does not fit in memory".into(),
    })?;
    Ok(v)
}

fn blocklinear_window(b: &BlockLinear, r: Region) -> Result<Window> {
    let es = u64::from(b.elem_size_bytes());
    let [bx, by, bz] = b.block_extent_bytes_rows_slices();
    let blocks = b.blocks().map(u64::from);
    // First block column, moved back to one whose first byte starts an element (only 12-byte
    // elements ever move: every other size divides the 64-byte gob).
    let step = es / gcd(bx, es);
    let c0 = (u64::from(r.x) * es / bx) / step * step;
    let c1 = ((u64::from(r.x) + u64::from(r.w)) * es).div_ceil(bx);
    let (r0, r1) = (u64::from(r.y) / by, (u64::from(r.y) + u64::from(r.h)).div_ceil(by));
    let (l0, l1) = (u64::from(r.z) / bz, (u64::from(r.z) + u64::from(r.d)).div_ceil(bz));
    // A box thinner than the block layers it meets: its own slices of each block (a block's
    // slices are consecutive runs of its bytes) as a window of blocks one slice deep.
    // At most half as deep, so that the pieces (one per slice and block, at least 256 bytes
    // each) pay for themselves against whole blocks merged into few pieces.
    let thin = bz > 1 && 2 * u64::from(r.d) <= (l1 - l0) * bz;
    // The window's origin in elements, rows and slices; all below the surface's extent.
    let origin = [c0 * bx / es, r0 * by, if thin { r.z.into() } else { l0 * bz }];
    let mut block_log2 = b.block_log2();
    if thin {
        block_log2[2] = 0;
    }
    let mut p = BlockLinearParams::new(
        b.gpu(),
        b.elem_size_bytes(),
        [r.x + r.w - origin[0] as u32, r.y + r.h - origin[1] as u32, r.z + r.d - origin[2] as u32],
        block_log2,
    );
    p.address = b.address();
    p.auto_size = Some(false);
    p.gob_order = b.gob_order();
    let surface = Surface::BlockLinear(BlockLinear::new(&p)?);
    let block_bytes = b.block_bytes();
    // One per block row and layer (each of at least one 512-byte block), or one per layer
    // where they span the whole width, or one in all where they also span every block row.
    // Offsets are below size_bytes, which the surface's own checks keep in 64 bits.
    let block_at = |l: u64, row: u64, c: u64| ((l * blocks[1] + row) * blocks[0] + c) * block_bytes;
    let pieces = match (c0 == 0 && c1 == blocks[0], r0 == 0 && r1 == blocks[1]) {
        // One per slice and block (of at least 256 bytes), slice by slice, row by row.
        _ if thin => {
            let slice_bytes = block_bytes / bz;
            let zs = u64::from(r.z)..u64::from(r.z) + u64::from(r.d);
            let ranges = zs.flat_map(|z| {
                (r0..r1).flat_map(move |row| {
                    (c0..c1).map(move |c| (block_at(z / bz, row, c) + z % bz * slice_bytes, slice_bytes))
                })
            });
            in_window_order(ranges, pieces_for(u64::from(r.d) * (r1 - r0) * (c1 - c0))?)
        }
        (true, true) => in_window_order([(block_at(l0, 0, 0), block_at(l1 - l0, 0, 0))].into_iter(), Vec::new()),
        (true, false) => {
            in_window_order((l0..l1).map(|l| (block_at(l, r0, 0), block_at(0, r1 - r0, 0))), pieces_for(l1 - l0)?)
        }
        (false, _) => in_window_order(
            (l0..l1).flat_map(|l| (r0..r1).map(move |row| (block_at(l, row, c0), (c1 - c0) * block_bytes))),
            pieces_for((l1 - l0) * (r1 - r0))?,
        ),
    };
    debug_assert_eq!(pieces.iter().map(|p| p.len_bytes).sum::<u64>(), surface.size_bytes());
    let region = Region { x: r.x - origin[0] as u32, y: r.y - origin[1] as u32, z: r.z - origin[2] as u32, ..r };
    Ok(Window { surface, region, pieces })
}

fn pitch_window(s: &Pitch, r: Region) -> Result<Window> {
    let es = u64::from(s.elem_size_bytes());
    let align = if s.gpu().is_g80_or_later() { 64 } else { es };
    // A byte column on the pitch alignment that starts an element.
    let unit = align / gcd(align, es) * es;
    let x0b = u64::from(r.x) * es / unit * unit;
    let x1b = (u64::from(r.x) + u64::from(r.w)) * es;
    // At most the original pitch less x0b (both are multiples of `align` and the row ends
    // within the pitch), so every piece stays inside its row.
    let narrow = crate::layout::pitch::min_pitch_bytes(s.gpu(), x1b - x0b, s.elem_size_bytes());
    // A piece costs 16 bytes to list: row segments shorter than that (pre-G80 surfaces of small
    // elements) are read as whole rows instead, one piece in all.
    let (x0b, pitch_bytes) = if narrow < 16 { (0, s.pitch_bytes()) } else { (x0b, narrow) };
    let origin_x = (x0b / es) as u32;
    let surface = Surface::Pitch(Pitch::new(&PitchParams {
        gpu: s.gpu(),
        address: s.address(),
        pitch_bytes,
        elem_size_bytes: s.elem_size_bytes(),
        width: r.x + r.w - origin_x,
        height: r.h,
        binding: None,
    })?);
    // One per row (each at least 16 bytes), or one in all where the window's pitch is the
    // surface's.
    let pieces = if pitch_bytes == s.pitch_bytes() {
        in_window_order([(u64::from(r.y) * pitch_bytes, u64::from(r.h) * pitch_bytes)].into_iter(), Vec::new())
    } else {
        let rows = (r.y..r.y + r.h).map(|y| (u64::from(y) * s.pitch_bytes() + x0b, pitch_bytes));
        in_window_order(rows, pieces_for(r.h.into())?)
    };
    let region = Region { x: r.x - origin_x, y: 0, ..r };
    Ok(Window { surface, region, pieces })
}

fn swizzled_window(s: &Swizzled, r: Region) -> Result<Window> {
    let log2 = s.size().map(u32::trailing_zeros);
    let (lo, hi) = ([r.x, r.y, r.z], [r.x + r.w - 1, r.y + r.h - 1, r.z + r.d - 1]);
    // Dimensions longer than 1 take index bits in turn; the others stay 0 (a box of extent 1).
    let kmax = log2.iter().copied().filter(|&l| l > 0).min().unwrap_or(0);
    let fits = |k: u32| (0..3).all(|d| log2[d] == 0 || lo[d] >> k == hi[d] >> k);
    let Some(k) = (0..=kmax).find(|&k| fits(k)) else {
        return Ok(Window {
            surface: Surface::Swizzled(*s),
            region: r,
            pieces: alloc::vec![Piece { offset_bytes: 0, len_bytes: s.size_bytes(), window_offset_bytes: 0 }],
        });
    };
    let side = log2.map(|l| if l == 0 { 1 } else { 1u32 << k });
    let origin: [u32; 3] = core::array::from_fn(|d| lo[d] >> k << k);
    let surface = Surface::Swizzled(Swizzled::new(&SwizzledParams {
        gpu: s.gpu(),
        address: s.address(),
        elem_size_bytes: s.elem_size_bytes(),
        width: side[0],
        height: side[1],
        depth: side[2],
    })?);
    let offset_bytes = s.offset_of(origin[0], origin[1], origin[2])?;
    let pieces = alloc::vec![Piece { offset_bytes, len_bytes: surface.size_bytes(), window_offset_bytes: 0 }];
    let region = Region { x: r.x - origin[0], y: r.y - origin[1], z: r.z - origin[2], ..r };
    Ok(Window { surface, region, pieces })
}
