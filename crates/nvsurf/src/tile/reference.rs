//! The twins the tests hold the fast paths against: the checked twins run the same kernels
//! with bounds-checked slice copies, the references go byte by byte through
//! [`Surface::offset_of_byte`]. Slow, and not part of the front door.

use super::kernels::{tile_planned, untile_planned, Safe};
use super::plan::Plan;
use super::region::{LinearLayout, Region};
use crate::error::Result;
use crate::layout::Surface;

/// The safe twin of [`untile`](super::untile): the same kernels with bounds-checked slice copies instead of
/// raw pointer copies. Tests compare the two.
pub fn untile_checked(s: &Surface, tiled: &[u8], linear: &mut [u8], region: Region, lin: LinearLayout) -> Result<()> {
    let plan = Plan::new(s, region, lin, tiled.len(), linear.len())?;
    untile_planned::<Safe>(&plan, tiled, linear);
    Ok(())
}

/// The safe twin of [`tile`](super::tile).
pub fn tile_checked(s: &Surface, linear: &[u8], tiled: &mut [u8], region: Region, lin: LinearLayout) -> Result<()> {
    let plan = Plan::new(s, region, lin, tiled.len(), linear.len())?;
    tile_planned::<Safe>(&plan, linear, tiled);
    Ok(())
}

/// Plain reference implementation: byte by byte through [`Surface::offset_of_byte`]. Slow; the
/// property tests compare every fast path against it.
pub fn untile_reference(s: &Surface, tiled: &[u8], linear: &mut [u8], region: Region, lin: LinearLayout) -> Result<()> {
    let plan = Plan::new(s, region, lin, tiled.len(), linear.len())?;
    for z in region.z..region.z + region.d {
        for y in region.y..region.y + region.h {
            for xb in plan.xb[0]..plan.xb[1] {
                let t = s.offset_of_byte(xb as u64, y, z)? as usize;
                linear[plan.linear_offset(xb, y, z)] = tiled[t];
            }
        }
    }
    Ok(())
}

/// Reference twin of [`tile`](super::tile).
pub fn tile_reference(s: &Surface, linear: &[u8], tiled: &mut [u8], region: Region, lin: LinearLayout) -> Result<()> {
    let plan = Plan::new(s, region, lin, tiled.len(), linear.len())?;
    for z in region.z..region.z + region.d {
        for y in region.y..region.y + region.h {
            for xb in plan.xb[0]..plan.xb[1] {
                let t = s.offset_of_byte(xb as u64, y, z)? as usize;
                tiled[t] = linear[plan.linear_offset(xb, y, z)];
            }
        }
    }
    Ok(())
}
