//! Vulkan's sample counts on NVIDIA GPUs: which multisample mode each count uses and which grid
//! cell of a pixel holds Vulkan sample `i`.
//!
//! Mesa nil (`src/nouveau/nil/image.rs` at 157fa86f, `SampleLayout::choose_sample_layout` and
//! `sa_offset`) maps 1, 2, 4, 8 and 16 samples to the 1x1, 2x1 D3D, 2x2, 4x2 D3D and 4x4 sample
//! layouts, which are the modes with register values 0x0, 0x5 (`MS2_ALT`), 0x2 (`MS4`), 0x4
//! (`MS8_ALT`) and 0x6 (`MS16`) (NVIDIA open-gpu-doc `cl9097.h`, `SET_ANTI_ALIAS` modes
//! `2X1_D3D` = 5, `4X2_D3D` = 4). The cell of Vulkan sample `i`, from nil's `sa_offset`:
//! 2 samples: `(1 - i, 0)`; 4: `(i & 1, i >> 1)`; 8: the table below, which the H100 capture
//! confirms (`docs/HARDWARE.md`: grid row 0 holds Vulkan samples 5, 3, 0, 7 and row 1 holds
//! 4, 1, 6, 2); 16: not known (nil leaves it a `todo!`).

use super::mode::MsMode;
use crate::error::{Error, Result};

/// The Vulkan 8-sample cells, `(x, y)` of sample `i` (nil `sa_offset`, `_4x2D3d`).
const CELLS_8: [(u8, u8); 8] = [(2, 0), (1, 1), (3, 1), (1, 0), (0, 1), (0, 0), (2, 1), (3, 0)];

impl MsMode {
    /// The mode a Vulkan driver (NVK, and NVIDIA's, whose H100 bytes agree for 8 samples) uses
    /// for `samples` samples per pixel: 1 `MS1`, 2 `MS2_ALT`, 4 `MS4`, 8 `MS8_ALT`, 16 `MS16`.
    pub fn for_sample_count(samples: u32) -> Result<MsMode> {
        match samples {
            1 => Ok(MsMode::MS1),
            2 => Ok(MsMode::MS2_ALT),
            4 => Ok(MsMode::MS4),
            8 => Ok(MsMode::MS8_ALT),
            16 => Ok(MsMode::MS16),
            n => Err(Error::Unsupported {
                field: "samples",
                value: alloc::format!("{n}"),
                rule: "a sample count is 1, 2, 4, 8 or 16".into(),
            }),
        }
    }

    /// Whether a Vulkan driver uses this mode for its sample count ([`Self::for_sample_count`]).
    pub fn is_vulkan_mode(self) -> bool {
        MsMode::for_sample_count(self.full_samples()).is_ok_and(|m| m == self)
    }

    /// The grid cell of Vulkan sample `index` under this mode; `None` where the mode is not the
    /// one Vulkan uses for its count or the cells are unknown (16 samples).
    pub fn vulkan_cell(self, index: u32) -> Option<(u8, u8)> {
        if !self.is_vulkan_mode() || index >= self.full_samples() {
            return None;
        }
        let i = index as u8;
        match self.full_samples() {
            1 => Some((0, 0)),
            2 => Some((1 - i, 0)),
            4 => Some((i & 1, i >> 1)),
            8 => Some(CELLS_8[usize::from(i)]),
            _ => None,
        }
    }

    /// The Vulkan sample index stored in grid cell `cell` under this mode (the inverse of
    /// [`Self::vulkan_cell`]).
    pub fn vulkan_index_at(self, cell: (u8, u8)) -> Option<u32> {
        (0..self.full_samples()).find(|&i| self.vulkan_cell(i) == Some(cell))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_map_to_the_d3d_modes_and_cells_are_permutations() {
        for (n, m) in [(1, MsMode::MS1), (2, MsMode::MS2_ALT), (4, MsMode::MS4), (8, MsMode::MS8_ALT)] {
            assert_eq!(MsMode::for_sample_count(n).unwrap(), m);
            assert_eq!(m.full_samples(), n);
            let (gw, gh) = m.grid();
            let mut seen = alloc::vec![false; (gw * gh) as usize];
            for i in 0..n {
                let (x, y) = m.vulkan_cell(i).unwrap();
                assert!(u32::from(x) < gw && u32::from(y) < gh);
                seen[usize::from(y) * gw as usize + usize::from(x)] = true;
                assert_eq!(m.vulkan_index_at((x, y)), Some(i));
            }
            assert!(seen.iter().all(|&s| s), "{n} samples fill the grid");
        }
        assert_eq!(MsMode::for_sample_count(16).unwrap(), MsMode::MS16);
        assert_eq!(MsMode::MS16.vulkan_cell(0), None);
        assert!(MsMode::for_sample_count(3).is_err());
        assert!(!MsMode::MS8.is_vulkan_mode());
        assert_eq!(MsMode::MS8.vulkan_cell(0), None);
        // The H100 capture's rows (docs/HARDWARE.md): row 0 holds 5, 3, 0, 7; row 1 holds 4, 1, 6, 2.
        let row = |y| (0..4).map(|x| MsMode::MS8_ALT.vulkan_index_at((x, y)).unwrap()).collect::<alloc::vec::Vec<_>>();
        assert_eq!((row(0), row(1)), (alloc::vec![5, 3, 0, 7], alloc::vec![4, 1, 6, 2]));
    }
}
