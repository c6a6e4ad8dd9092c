//! Dumps cut short: which leading rows of a candidate's sample the dump holds whole.
//!
//! A dump cut inside a blocklinear surface's last block row often lacks only padding (rows
//! below the picture that the block still reserves), which the picture does not need; such a
//! candidate is scored on the rows it holds, when they are at least half its sample's rows
//! (`guess` says how many). Swizzled surfaces put their last bytes anywhere, so they need
//! the whole surface.

use crate::error::Result;
use crate::layout::surface::Surface;
use crate::tile::Region;

/// How many leading rows of `region` (from its row 0) of `s` lie wholly in the first
/// `available_bytes` bytes of the surface. A row's last byte lies in its last gob column
/// (blocklinear: blocks and then gobs advance with x before y; pitch: the last element), so
/// only the elements of the row's last 64 bytes and one more are looked at. Swizzled: all
/// rows when the whole surface fits, else none.
pub fn rows_present(s: &Surface, region: Region, available_bytes: u64) -> Result<u32> {
    if s.size_bytes() <= available_bytes {
        return Ok(region.h);
    }
    if region.w == 0 {
        return Ok(region.h);
    }
    if let Surface::Swizzled(_) = s {
        return Ok(0);
    }
    let e = u64::from(s.elem_size_bytes());
    let last = region.x + (region.w - 1);
    let back = (64 / e.max(1)) as u32 + 1;
    let first = last.saturating_sub(back).max(region.x);
    for dy in 0..region.h {
        let y = region.y + dy;
        for x in first..=last {
            // Checked: an offset past u64::MAX cannot lie in the dump.
            let end = s.offset_of(x, y, region.z)?.checked_add(e);
            if end.is_none_or(|end| end > available_bytes) {
                return Ok(dy);
            }
        }
    }
    Ok(region.h)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::Gpu;
    use crate::identify::candidates;

    /// Against every element's offset: the rows counted are exactly those whose every
    /// element ends inside the dump, for every candidate and many cut points.
    #[test]
    fn counts_the_rows_whose_every_element_is_present() {
        for (gpu, size) in [(Gpu::Gf100, [70u32, 45u32, 1u32]), (Gpu::Gm20b, [33, 20, 1]), (Gpu::G80, [17, 30, 1])] {
            for elem in [1u32, 4, 12, 16] {
                let Ok(cands) = candidates(gpu, elem, size, 0) else { continue };
                for c in cands {
                    let s = c.surface;
                    let r = Region::whole(&s);
                    let total = s.size_bytes();
                    for cut in [0, 1, total / 3, total / 2, total - 700.min(total), total - 1, total] {
                        let got = rows_present(&s, r, cut).unwrap();
                        let mut want = 0;
                        'rows: for y in 0..size[1] {
                            for x in 0..size[0] {
                                if s.offset_of(x, y, 0).unwrap() + u64::from(elem) > cut {
                                    break 'rows;
                                }
                            }
                            want = y + 1;
                        }
                        if matches!(s, Surface::Swizzled(_)) && cut < total {
                            want = 0;
                        }
                        assert_eq!(got, want, "{gpu} elem {elem} {} cut {cut} of {total}", c.label);
                    }
                }
            }
        }
    }
}
