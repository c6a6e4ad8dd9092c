//! The candidate layouts of a dump: every layout a GPU could have used for a 2D surface of a
//! given element size and size.

use crate::error::{Error, Result};
use crate::gpu::Gpu;
use crate::layout::gob::GobOrder;
use crate::layout::surface::{LayoutKind, Surface, SurfaceDesc};
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

/// The pitch alignments tried besides the smallest pitch, in bytes.
pub const PITCH_ALIGNMENTS: [u64; 5] = [64, 128, 256, 512, 1024];

/// One layout that the dump may hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The descriptor (what the CLI's surface flags say).
    pub desc: SurfaceDesc,
    /// The validated surface.
    pub surface: Surface,
    /// A short name, e.g. `blocklinear tegra block 0,4,0`, `pitch 512`, `swizzled`.
    pub label: String,
}

impl Candidate {
    /// The `nvsurf untile` flags that select this layout (`--layout ...`, and for blocklinear
    /// the block, `--no-auto-size` and the gob order), as `guess` prints them.
    pub fn untile_flags(&self) -> String {
        match self.surface {
            Surface::BlockLinear(b) => {
                let [x, y, z] = b.block_log2_requested();
                alloc::format!(
                    "--layout blocklinear --block-log2 {x},{y},{z} --no-auto-size --gob {}",
                    b.gob_order().name()
                )
            }
            Surface::Pitch(p) => alloc::format!("--layout pitch --pitch {}", p.pitch_bytes()),
            Surface::Swizzled(_) => "--layout swizzled".to_string(),
        }
    }
}

/// Every candidate layout for a 2D surface of `size` elements of `elem_size_bytes` bytes on `gpu`,
/// with `dump_bytes` bytes available (for the pitch that fills the dump exactly). Layouts the
/// GPU rejects for this size are left out; an error only when none is possible (for example a
/// depth other than 1, or an element size no layout accepts).
pub fn candidates(gpu: Gpu, elem_size_bytes: u32, size: [u32; 3], dump_bytes: u64) -> Result<Vec<Candidate>> {
    if size[2] != 1 {
        return Err(Error::Unsupported {
            field: "depth",
            value: size[2].to_string(),
            rule: "layouts are guessed for 2D surfaces (depth 1)".to_string(),
        });
    }
    let mut out = Vec::new();
    let mut first_error = None;
    let mut push = |desc: SurfaceDesc, label: String| match desc.build() {
        Ok(surface) => {
            if !out.iter().any(|c: &Candidate| c.surface == surface) {
                out.push(Candidate { desc, surface, label });
            }
        }
        Err(e) => {
            first_error.get_or_insert(e);
        }
    };
    if gpu.is_g80_or_later() {
        let orders: &[GobOrder] =
            if gpu.is_gf100_or_later() { &crate::layout::gob::ALL_GOB_ORDERS } else { &[GobOrder::Vm] };
        for &order in orders {
            for y in 0..=5 {
                let mut d = SurfaceDesc::new(gpu, elem_size_bytes, size);
                d.layout = LayoutKind::BlockLinear;
                d.block_log2 = Some([0, y, 0]);
                d.auto_size = Some(false);
                d.gob_order = order;
                push(d, alloc::format!("blocklinear {} block 0,{y},0", order.name()));
            }
        }
    } else {
        let mut d = SurfaceDesc::new(gpu, elem_size_bytes, size);
        d.layout = LayoutKind::Swizzled;
        push(d, "swizzled".to_string());
    }
    let row = u64::from(size[0]) * u64::from(elem_size_bytes);
    let min = crate::layout::pitch::min_pitch_bytes(gpu, row, elem_size_bytes);
    let mut pitches = vec![min];
    // Checked: `elem_size_bytes` is any u32 here, so the row may lie near u64::MAX and an aligned pitch
    // past it (such pitches are no candidates; the element size is refused below anyway).
    pitches.extend(PITCH_ALIGNMENTS.iter().filter_map(|a| min.div_ceil(*a).checked_mul(*a)));
    // The pitch that makes the rows fill the dump exactly, when it is a plausible pitch (at most
    // four times the row aligned to 1024 bytes): a dump much larger than the surface says
    // nothing about its pitch, and reading it all would cost time for nothing.
    let widest = min.div_ceil(1024).saturating_mul(1024 * 4);
    if size[1] > 0 && dump_bytes.is_multiple_of(u64::from(size[1])) && dump_bytes / u64::from(size[1]) <= widest {
        pitches.push(dump_bytes / u64::from(size[1]));
    }
    pitches.sort_unstable();
    pitches.dedup();
    for p in pitches.into_iter().filter(|&p| p >= row) {
        let mut d = SurfaceDesc::new(gpu, elem_size_bytes, size);
        d.layout = LayoutKind::Pitch;
        d.pitch_bytes = Some(p);
        push(d, alloc::format!("pitch {p}"));
    }
    match (out.is_empty(), first_error) {
        (true, Some(e)) => Err(e),
        _ => Ok(out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression (found by the red team and the `identify` fuzz target): an element size no
    /// layout accepts, with a row near u64::MAX, panicked on overflow while aligning the
    /// candidate pitches. It is an error naming the element size now.
    #[test]
    fn huge_element_size_is_an_error_not_an_overflow() {
        for gpu in [Gpu::G80, Gpu::Gf100, Gpu::Nv40] {
            let got = candidates(gpu, u32::MAX, [u32::MAX, 1, 1], u64::MAX);
            assert!(
                matches!(got, Err(Error::ElemSize { value, .. }) if value == u64::from(u32::MAX)),
                "{gpu}: {got:?}"
            );
        }
        let got = crate::identify::candidates_any(u32::MAX, [u32::MAX, 3, 1], 0);
        assert!(matches!(got, Err(Error::ElemSize { .. })), "{got:?}");
    }
}
