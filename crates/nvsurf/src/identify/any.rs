//! Candidates across GPU families, for a dump whose GPU is unknown (`guess --gpu any`).
//!
//! The layouts a GPU can use depend on its family, not on the chip: G80-GT215 blocklinear with
//! 4-row gobs in the VM view; GF100+ with 8-row gobs in the VM view and each CPU order, named by
//! the GPU whose default it is (Fermi order: GF100; Tegra: GM20B, also the Switch preset's;
//! Turing and Blackwell16: TU102; Blackwell8: GB202); pre-G80 swizzled; pitch by the G80+ rule (64-byte pitches)
//! and the pre-G80 one (any multiple of the element). One representative chip per family
//! stands for all of it, so each layout is tried once.

use super::candidate::{candidates, Candidate};
use crate::error::Result;
use crate::gpu::Gpu;
use crate::layout::{GobOrder, LayoutKind, Surface};
use alloc::vec::Vec;

/// The representative chips and which of their candidates they contribute: (chip, gob orders
/// of its blocklinear candidates, whether its pitch candidates, whether its swizzled one).
const FAMILIES: [(Gpu, &[GobOrder], bool, bool); 6] = [
    (Gpu::Gb202, &[GobOrder::Blackwell8], false, false),
    (Gpu::Tu102, &[GobOrder::Turing, GobOrder::Blackwell16], false, false),
    (Gpu::Gm20b, &[GobOrder::Tegra], false, false),
    (Gpu::Gf100, &[GobOrder::Fermi, GobOrder::Vm], true, false),
    (Gpu::G80, &[GobOrder::Vm], false, false),
    (Gpu::Nv40, &[], true, true),
];

/// Every candidate layout of a 2D surface of `size` elements of `elem_size_bytes` bytes on any GPU
/// family (see the module docs), each once; a family that cannot hold the surface (for example
/// 12-byte elements before GF100, or a size the swizzled layout refuses) adds nothing. An
/// error only when no family can.
pub fn candidates_any(elem_size_bytes: u32, size: [u32; 3], dump_bytes: u64) -> Result<Vec<Candidate>> {
    let mut out: Vec<Candidate> = Vec::new();
    let mut first_error = None;
    for (gpu, orders, pitch, swizzled) in FAMILIES {
        let cands = match candidates(gpu, elem_size_bytes, size, dump_bytes) {
            Ok(c) => c,
            Err(e) => {
                first_error.get_or_insert(e);
                continue;
            }
        };
        for c in cands {
            let keep = match c.surface {
                Surface::BlockLinear(b) => orders.contains(&b.gob_order()),
                Surface::Pitch(p) => {
                    // A pitch the G80+ rule gave already is the same layout.
                    pitch
                        && !out
                            .iter()
                            .any(|o| matches!(o.surface, Surface::Pitch(q) if q.pitch_bytes() == p.pitch_bytes()))
                }
                Surface::Swizzled(_) => swizzled,
            };
            if keep {
                out.push(c);
            }
        }
    }
    match (out.is_empty(), first_error) {
        (true, Some(e)) => Err(e),
        _ => Ok(out),
    }
}

/// The alignment in bytes a surface's start needs in a dump: the gob for blocklinear (256 bytes
/// on G80-GT215, 512 on GF100+), 128 for swizzled and 64 for pitch surfaces (the steps
/// `guess --offset auto` searches).
pub fn start_alignment_bytes(c: &Candidate) -> u64 {
    match c.desc.layout {
        LayoutKind::BlockLinear => c.desc.gpu.blocklinear_align_bytes().unwrap_or(512),
        LayoutKind::Swizzled => 128,
        LayoutKind::Pitch => 64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_once() {
        let c = candidates_any(4, [128, 64, 1], 0).unwrap();
        let count =
            |gpu: Gpu, kind: LayoutKind| c.iter().filter(|x| x.desc.gpu == gpu && x.desc.layout == kind).count();
        assert_eq!(count(Gpu::Gb202, LayoutKind::BlockLinear), 6);
        assert_eq!(count(Gpu::Tu102, LayoutKind::BlockLinear), 12);
        assert_eq!(count(Gpu::Gm20b, LayoutKind::BlockLinear), 6);
        assert_eq!(count(Gpu::Gf100, LayoutKind::BlockLinear), 12);
        assert_eq!(count(Gpu::G80, LayoutKind::BlockLinear), 6);
        assert_eq!(count(Gpu::Nv40, LayoutKind::Swizzled), 1);
        let pitches: Vec<u64> = c
            .iter()
            .filter_map(|x| match x.surface {
                Surface::Pitch(p) => Some(p.pitch_bytes()),
                _ => None,
            })
            .collect();
        let mut unique = pitches.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(pitches.len(), unique.len(), "{pitches:?}");
        // 12-byte elements exist on GF100+ only: the others add nothing, without an error.
        assert!(candidates_any(12, [100, 10, 1], 0).unwrap().iter().all(|x| x.desc.gpu >= Gpu::Gf100));
    }
}
