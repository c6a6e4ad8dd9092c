//! The bytes inside a gob.
//!
//! The document (envytools `docs/hw/memory/g80-surface.rst`, "Blocklinear surfaces") gives the
//! order seen through the GPU's virtual memory: byte (x, y) of a gob sits at `x + 64 * y`. A CPU
//! that reads the memory directly (system RAM, Tegra SoCs, or VRAM with storage type 0) sees a
//! storage-type dependent permutation of the 512-byte GF100+ gob instead (`docs/ERRATA.md`, "Beyond
//! the documents"). The known permutations are selectable here; G80's 256-byte gob permutations are
//! undocumented, so only [`GobOrder::Vm`] is accepted for 4-row gobs.

use crate::error::{closest, Error, Result};
use alloc::string::ToString;

/// Order of the bytes inside one gob.
///
/// `Default` is the document's VM view; the order a CPU sees on a given GPU comes from
/// [`crate::platform::Platform::default_gob_order`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum GobOrder {
    /// The VM view of the document: `x + 64 * y` (any gob height).
    #[default]
    Vm,
    /// Tegra / Switch CPU view of a 512-byte gob (NVIDIA Tegra X1 TRM "block linear", used by
    /// every Switch tool): `(x % 16) + 16 * (y % 2) + 32 * ((x / 16) % 2) + 64 * ((y / 2) % 4)
    /// + 256 * (x / 32)`. Also the order Mesa's nil derives for Ampere/Orin.
    Tegra,
    /// Turing+ 2D color images as Mesa's nil copies them (`src/nouveau/nil/copy.rs`,
    /// `CopyGOBTuring2D`; `tiling.rs` `GOBType::TuringColor2D`): 32-byte sectors of 16 B x 2 rows,
    /// sectors ordered down a 16-byte column before the next column.
    /// Offset = `(x % 16) + 16 * (y % 4) + 64 * ((x / 16) % 2) + 128 * (y / 4) + 256 * (x / 32)`.
    /// Verified on hardware: CUDA arrays and Vulkan colour and 32-bit float depth images of an
    /// H100 (GH100) read through a linear mapping (the captures: `docs/HARDWARE.md`).
    Turing,
    /// The Turing order with offset bits 6 and 7 swapped: what Mesa's nil calls
    /// `GOBType::Blackwell16Bit` (`src/nouveau/nil/tiling.rs`), and what the H100's Vulkan driver
    /// uses for 16-bit depth (D16_UNORM; measured on GH100 only).
    /// Offset = `(x % 16) + 16 * (y % 4) + 64 * ((y / 4) % 2) + 128 * ((x / 16) % 2) + 256 * (x / 32)`.
    Blackwell16,
    /// Fermi-Volta color images per Mesa's nil `GOBType::FermiColor` sector table (`tiling.rs`):
    /// sectors of 16 B x 2 rows; in each 32-byte-wide, 4-row quarter the sectors run
    /// (col 0, pair 1), (col 0, pair 0), (col 1, pair 0), (col 1, pair 1).
    /// Unverified: taken from Mesa's description, not checked against hardware here.
    Fermi,
}

/// Every gob order, for listings and tests.
pub const ALL_GOB_ORDERS: [GobOrder; 5] =
    [GobOrder::Vm, GobOrder::Tegra, GobOrder::Turing, GobOrder::Fermi, GobOrder::Blackwell16];

impl GobOrder {
    /// The CLI name (`vm`, `tegra`, `turing`, `fermi`, `blackwell16`).
    pub const fn name(self) -> &'static str {
        match self {
            GobOrder::Vm => "vm",
            GobOrder::Tegra => "tegra",
            GobOrder::Turing => "turing",
            GobOrder::Fermi => "fermi",
            GobOrder::Blackwell16 => "blackwell16",
        }
    }

    /// Parses a name, case-insensitively (`vm`/`document`/`gpu`, `tegra`/`switch`/`cpu`,
    /// `turing`, `fermi`, `blackwell16`/`blackwell-16bit`/`depth16`).
    pub fn parse(name: &str) -> Result<GobOrder> {
        match name.trim().to_ascii_lowercase().as_str() {
            "vm" | "document" | "doc" | "gpu" | "identity" => Ok(GobOrder::Vm),
            "tegra" | "switch" | "nx" | "cpu" => Ok(GobOrder::Tegra),
            "turing" | "turing2d" | "turing-2d" => Ok(GobOrder::Turing),
            "fermi" | "fermi-color" => Ok(GobOrder::Fermi),
            "blackwell16" | "blackwell16bit" | "blackwell-16bit" | "blackwell-16" | "depth16" | "d16" => {
                Ok(GobOrder::Blackwell16)
            }
            _ => Err(Error::UnknownName {
                kind: "gob order",
                name: name.to_string(),
                suggestions: closest(name, ["vm", "tegra", "turing", "fermi", "blackwell16"]),
            }),
        }
    }

    /// True where the order comes from a document, from tools that agree on it (VM, Tegra), or
    /// from hardware captures (Turing and Blackwell16, on GH100); false for Mesa nil's Fermi
    /// order, which no capture has checked.
    pub const fn is_verified(self) -> bool {
        !matches!(self, GobOrder::Fermi)
    }

    /// Checks that the order is defined for gobs of `gob_height_rows` rows.
    pub fn check_gob_height(self, gob_height_rows: u32) -> Result<()> {
        if self == GobOrder::Vm || gob_height_rows == 8 {
            Ok(())
        } else {
            Err(Error::Unsupported {
                field: "gob order",
                value: self.name().to_string(),
                rule: "CPU-side gob orders are known only for GF100+ 512-byte gobs; G80 gobs use vm".to_string(),
            })
        }
    }

    /// Byte offset inside the gob of byte column `x` (0..64) in row `y` (0..gob height).
    /// For non-VM orders the gob must have 8 rows (see [`GobOrder::check_gob_height`]).
    /// Coordinates are taken modulo the largest gob (64 bytes by 8 rows), so the offset is
    /// always below 512 (a VM-order gob of 4 rows: pass `y` below 4).
    #[inline(always)]
    pub const fn offset_in_gob(self, x: u32, y: u32) -> u32 {
        let (x, y) = (x % 64, y % 8);
        match self {
            GobOrder::Vm => x + 64 * y,
            GobOrder::Tegra => (x % 16) + 16 * (y % 2) + 32 * ((x / 16) % 2) + 64 * ((y / 2) % 4) + 256 * (x / 32),
            GobOrder::Turing => (x % 16) + 16 * (y % 4) + 64 * ((x / 16) % 2) + 128 * (y / 4) + 256 * (x / 32),
            GobOrder::Blackwell16 => {
                (x % 16) + 16 * (y % 4) + 64 * ((y / 4) % 2) + 128 * ((x / 16) % 2) + 256 * (x / 32)
            }
            GobOrder::Fermi => {
                let col = (x / 16) % 2;
                let pair = (y / 2) % 2;
                let sector = 8 * (x / 32) + 4 * (y / 4) + 2 * col + (1 ^ pair ^ col);
                32 * sector + (x % 16) + 16 * (y % 2)
            }
        }
    }

    /// For every 16-byte run of the gob (index `y * 4 + x / 16`), the offset of its first byte.
    /// All orders keep 16-byte runs contiguous, which the tiling fast paths rely on.
    pub fn run16_offsets(self, gob_height_rows: u32) -> [u16; 32] {
        let mut out = [0u16; 32];
        for y in 0..gob_height_rows.min(8) {
            for c in 0..4 {
                out[(y * 4 + c) as usize] = self.offset_in_gob(c * 16, y) as u16;
            }
        }
        out
    }
}

impl core::fmt::Display for GobOrder {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn is_permutation(order: GobOrder, rows: u32) -> bool {
        let mut seen = vec![false; (64 * rows) as usize];
        for y in 0..rows {
            for x in 0..64 {
                let o = order.offset_in_gob(x, y) as usize;
                if o >= seen.len() || seen[o] {
                    return false;
                }
                seen[o] = true;
            }
        }
        true
    }

    #[test]
    fn every_order_is_a_permutation_of_512_bytes() {
        for o in ALL_GOB_ORDERS {
            assert!(is_permutation(o, 8), "{o}");
        }
        assert!(is_permutation(GobOrder::Vm, 4));
    }

    #[test]
    fn sixteen_byte_runs_stay_contiguous() {
        for o in ALL_GOB_ORDERS {
            for y in 0..8 {
                for x in 0..64 {
                    assert_eq!(o.offset_in_gob(x, y), o.offset_in_gob(x & !15, y) + (x & 15));
                }
            }
        }
    }

    #[test]
    fn tegra_vectors() {
        // `docs/VECTORS.md`, "Tegra in-gob byte order, start of each 16-byte run".
        let want: [[u32; 4]; 8] = [
            [0, 32, 256, 288],
            [16, 48, 272, 304],
            [64, 96, 320, 352],
            [80, 112, 336, 368],
            [128, 160, 384, 416],
            [144, 176, 400, 432],
            [192, 224, 448, 480],
            [208, 240, 464, 496],
        ];
        for (y, row) in want.iter().enumerate() {
            for (c, &w) in row.iter().enumerate() {
                assert_eq!(GobOrder::Tegra.offset_in_gob(c as u32 * 16, y as u32), w);
            }
        }
    }

    #[test]
    fn mesa_sector_tables() {
        // Mesa nil tiling.rs sector tables (rows = row pairs, columns = 16-byte columns).
        let turing = [[0, 2, 8, 10], [1, 3, 9, 11], [4, 6, 12, 14], [5, 7, 13, 15]];
        let fermi = [[1, 2, 9, 10], [0, 3, 8, 11], [5, 6, 13, 14], [4, 7, 12, 15]];
        for pair in 0..4u32 {
            for col in 0..4u32 {
                let t = GobOrder::Turing.offset_in_gob(col * 16, pair * 2);
                let f = GobOrder::Fermi.offset_in_gob(col * 16, pair * 2);
                assert_eq!(t, 32 * turing[pair as usize][col as usize]);
                assert_eq!(f, 32 * fermi[pair as usize][col as usize]);
            }
        }
    }

    #[test]
    fn blackwell16_is_turing_with_bits_6_and_7_swapped() {
        let swap67 = |o: u32| (o & !0xc0) | ((o >> 1) & 0x40) | ((o << 1) & 0x80);
        for y in 0..8 {
            for x in 0..64 {
                assert_eq!(GobOrder::Blackwell16.offset_in_gob(x, y), swap67(GobOrder::Turing.offset_in_gob(x, y)));
            }
        }
        assert_eq!(GobOrder::parse("Blackwell-16bit").unwrap(), GobOrder::Blackwell16);
        assert!(GobOrder::Turing.is_verified() && !GobOrder::Fermi.is_verified());
    }

    #[test]
    fn g80_gobs_accept_vm_only() {
        assert!(GobOrder::Vm.check_gob_height(4).is_ok());
        assert!(matches!(GobOrder::Tegra.check_gob_height(4), Err(Error::Unsupported { .. })));
        assert_eq!(GobOrder::parse("Switch").unwrap(), GobOrder::Tegra);
        assert!(GobOrder::parse("tegar").is_err());
    }
}
