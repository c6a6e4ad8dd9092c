//! NV2A's arrangement of a 3D compressed (DXT) level: each 4x4 block keeps its slices together,
//! four at a time (issue #41 item 4; `docs/ERRATA.md`, "3D compressed textures before G80").
//!
//! - NVIDIA's `NV_texture_compression_vtc` defines "VTC" blocks of 4x4x4 texels (4x4x2 and
//!   4x4x1 for a depth of 2 and 1): S3TC blocks with "some retiling in the Z direction".
//! - xemu (`hw/xbox/nv2a/pgraph/s3tc.c`, `s3tc_decompress_3d`, read for the arrangement only)
//!   walks groups of up to four slices, then block rows, then blocks, then the group's slices;
//!   its issue #40 names the extension. For a 16x16x8 DXT1 level, block (0,0,1) lies at byte 8
//!   and block (1,0,0) at byte 32.
//!
//! Group `g` holds slices `4g .. min(4g + 4, depth)`; it starts after `4g` whole slices of
//! blocks, and inside it block (x, y) of slice `z` is element `(y * blocks_wide + x) * n + z - 4g`
//! where `n` is the group's slice count. A level's size is the same as with slices one after
//! another, so only the order of its blocks differs: [`vtc_to_slices`] and [`slices_to_vtc`]
//! convert a level between the two (the slice order is what nvsurf's linear images and
//! [`crate::decode_rgba8_3d`] hold).

use crate::error::{Error, Result};
use alloc::vec::Vec;

/// Slices a VTC group holds at most.
const GROUP: u32 = 4;

/// The byte offset of block `[x, y, z]` in a VTC level of `blocks` (`[wide, high, depth]`,
/// in blocks and slices) of `block_bytes` each.
pub fn vtc_block_offset(blocks: [u32; 3], block_bytes: u32, [x, y, z]: [u32; 3]) -> Result<u64> {
    let [bw, bh, d] = blocks;
    for (field, v, limit) in [("x", x, bw), ("y", y, bh), ("z", z, d)] {
        if v >= limit {
            return Err(Error::OutOfBounds { field, value: v.into(), limit: limit.into() });
        }
    }
    let first = z - z % GROUP;
    let n = (d - first).min(GROUP);
    let per_slice = u64::from(bw) * u64::from(bh);
    let index = u64::from(first) * per_slice + (u64::from(y) * u64::from(bw) + u64::from(x)) * u64::from(n);
    (index + u64::from(z - first)).checked_mul(u64::from(block_bytes)).ok_or_else(|| Error::Overflow {
        what: "VTC block offset",
        detail: alloc::format!("block {x},{y},{z} of {bw}x{bh}x{d} blocks of {block_bytes} bytes"),
    })
}

/// A VTC level (`blocks` = `[wide, high, depth]`, `block_bytes` each) rearranged into slices
/// one after another, each rows of blocks.
pub fn vtc_to_slices(vtc: &[u8], blocks: [u32; 3], block_bytes: u32) -> Result<Vec<u8>> {
    permute(vtc, blocks, block_bytes, true)
}

/// A level of slices one after another rearranged into NV2A's VTC arrangement (the inverse of
/// [`vtc_to_slices`]).
pub fn slices_to_vtc(slices: &[u8], blocks: [u32; 3], block_bytes: u32) -> Result<Vec<u8>> {
    permute(slices, blocks, block_bytes, false)
}

/// Moves every block between the two orders: `from_vtc` reads VTC and writes slices.
fn permute(src: &[u8], [bw, bh, d]: [u32; 3], block_bytes: u32, from_vtc: bool) -> Result<Vec<u8>> {
    let overflow = || Error::Overflow {
        what: "VTC level size",
        detail: alloc::format!("{bw}x{bh}x{d} blocks of {block_bytes} bytes"),
    };
    let need = [bw, bh, d, block_bytes].into_iter().try_fold(1u64, |a, v| a.checked_mul(u64::from(v)));
    let need = need.ok_or_else(overflow)?;
    if (src.len() as u64) < need {
        return Err(Error::BufferTooSmall { what: "VTC level", needed: need, got: src.len() as u64 });
    }
    let mut out = crate::error::zeroed("VTC level", need)?;
    let bs = block_bytes as usize;
    let mut linear = 0usize;
    for z in 0..d {
        for y in 0..bh {
            for x in 0..bw {
                // Below `need` (checked above), so it fits a usize.
                let vtc = vtc_block_offset([bw, bh, d], block_bytes, [x, y, z])? as usize;
                let (from, to) = if from_vtc { (vtc, linear) } else { (linear, vtc) };
                out[to..to + bs].copy_from_slice(&src[from..from + bs]);
                linear += bs;
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_are_xemus_and_the_extensions() {
        // 16x16x8 DXT1: 4x4 blocks of 8 bytes, 8 slices (issue #41's numbers).
        let b = [4, 4, 8];
        assert_eq!(vtc_block_offset(b, 8, [0, 0, 0]).unwrap(), 0);
        assert_eq!(vtc_block_offset(b, 8, [0, 0, 1]).unwrap(), 8);
        assert_eq!(vtc_block_offset(b, 8, [1, 0, 0]).unwrap(), 32);
        assert_eq!(vtc_block_offset(b, 8, [0, 1, 0]).unwrap(), 4 * 32);
        // The second group of four slices starts after the first's 4 x 16 blocks.
        assert_eq!(vtc_block_offset(b, 8, [0, 0, 4]).unwrap(), 64 * 8);
        // Depth 6: the last group holds 2 slices (4x4x2 blocks).
        assert_eq!(vtc_block_offset([4, 4, 6], 8, [1, 0, 5]).unwrap(), (64 + 2 + 1) * 8);
        // Depth 1 and 2: rows of blocks, and pairs.
        assert_eq!(vtc_block_offset([4, 4, 1], 16, [1, 0, 0]).unwrap(), 16);
        assert_eq!(vtc_block_offset([4, 4, 2], 16, [1, 0, 1]).unwrap(), 3 * 16);
        let e = vtc_block_offset(b, 8, [0, 0, 8]).unwrap_err();
        assert!(matches!(e, Error::OutOfBounds { field: "z", value: 8, limit: 8 }), "{e:?}");
    }

    #[test]
    fn the_two_orders_convert_both_ways() {
        for blocks in [[4u32, 4, 8], [3, 2, 6], [1, 1, 1], [2, 3, 2], [5, 1, 9]] {
            let n = (blocks[0] * blocks[1] * blocks[2] * 8) as usize;
            let slices: Vec<u8> = (0..n).map(|i| (i * 7 + i / 8) as u8).collect();
            let vtc = slices_to_vtc(&slices, blocks, 8).unwrap();
            assert_eq!(vtc_to_slices(&vtc, blocks, 8).unwrap(), slices, "{blocks:?}");
            // Block (x, y, z) of the slice order lands at its VTC offset.
            let [bw, bh, _] = blocks;
            let at = |x: u32, y: u32, z: u32| (((z * bh + y) * bw + x) * 8) as usize;
            let (x, y, z) = (bw - 1, bh - 1, blocks[2] - 1);
            let o = vtc_block_offset(blocks, 8, [x, y, z]).unwrap() as usize;
            assert_eq!(vtc[o..o + 8], slices[at(x, y, z)..at(x, y, z) + 8]);
        }
        assert!(vtc_to_slices(&[0; 7], [1, 1, 1], 8).is_err());
    }
}
