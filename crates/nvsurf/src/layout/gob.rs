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
    /// Fermi-Volta colour images as Mesa's nil copies them (`src/nouveau/nil/copy.rs`,
    /// `CopyGOBFermi`, Mesa commit 157fa86f6d5d), the code NVK's host image copy runs on
    /// Maxwell to Volta: sectors of 16 B x 2 rows; each 32-byte-wide half holds 8 sectors, the
    /// upper four rows as in [`GobOrder::FermiComment`], the lower four with the two 16-byte
    /// columns swapped and the column-0 row pairs reversed. Byte (0, 4) sits at 224.
    /// Unverified: no hardware capture checked it (`docs/ERRATA.md`, "The Fermi order").
    Fermi,
    /// The order nil's doc comment on `GOBType::FermiColor` draws (`src/nouveau/nil/tiling.rs`,
    /// Mesa commit 157fa86f6d5d): the same sectors, but rows 4-7 repeat the pattern of rows 0-3
    /// (byte (0, 4) at 160). nil's code ([`GobOrder::Fermi`]) disagrees for rows 4-7; kept
    /// selectable for comparison (`--gob fermi-comment`). Unverified.
    FermiComment,
    /// Blackwell 1-byte formats as Mesa's nil copies them (`src/nouveau/nil/copy.rs`,
    /// `CopyGOBBlackwell2D1BPP`; `tiling.rs` `GOBType::Blackwell8Bit`, Mesa commit
    /// 157fa86f6d5d): sectors of 8 B x 4 rows, two sectors down each 8-byte column, the eight
    /// columns left to right. Offset = `(x % 8) + 8 * y + 64 * (x / 8)`. Runs are 8 bytes long,
    /// not 16 ([`GobOrder::run_bytes`]), so an element wider than 8 bytes is split over two runs
    /// (its offset is that of its first byte; nil uses the order for 1-byte formats only).
    /// Unverified: no hardware capture checked it.
    Blackwell8,
}

/// Every gob order, for listings and tests.
pub const ALL_GOB_ORDERS: [GobOrder; 7] = [
    GobOrder::Vm,
    GobOrder::Tegra,
    GobOrder::Turing,
    GobOrder::Fermi,
    GobOrder::Blackwell16,
    GobOrder::FermiComment,
    GobOrder::Blackwell8,
];

/// The CLI names of [`ALL_GOB_ORDERS`], for messages and suggestions.
pub const GOB_ORDER_NAMES: [&str; 7] = ["vm", "tegra", "turing", "fermi", "blackwell16", "fermi-comment", "blackwell8"];

impl GobOrder {
    /// The CLI name (`vm`, `tegra`, `turing`, `fermi`, `blackwell16`, `fermi-comment`,
    /// `blackwell8`).
    pub const fn name(self) -> &'static str {
        match self {
            GobOrder::Vm => "vm",
            GobOrder::Tegra => "tegra",
            GobOrder::Turing => "turing",
            GobOrder::Fermi => "fermi",
            GobOrder::Blackwell16 => "blackwell16",
            GobOrder::FermiComment => "fermi-comment",
            GobOrder::Blackwell8 => "blackwell8",
        }
    }

    /// Parses a name, case-insensitively (`vm`/`document`/`gpu`, `tegra`/`switch`/`cpu`,
    /// `turing`, `fermi`, `blackwell16`/`blackwell-16bit`/`depth16`, `fermi-comment`,
    /// `blackwell8`/`blackwell-8bit`).
    pub fn parse(name: &str) -> Result<GobOrder> {
        match name.trim().to_ascii_lowercase().as_str() {
            "vm" | "document" | "doc" | "gpu" | "identity" => Ok(GobOrder::Vm),
            "tegra" | "switch" | "nx" | "cpu" => Ok(GobOrder::Tegra),
            "turing" | "turing2d" | "turing-2d" => Ok(GobOrder::Turing),
            "fermi" | "fermi-color" | "fermi-code" => Ok(GobOrder::Fermi),
            "fermi-comment" | "fermicomment" | "fermi-doc" => Ok(GobOrder::FermiComment),
            "blackwell8" | "blackwell8bit" | "blackwell-8bit" | "blackwell-8" => Ok(GobOrder::Blackwell8),
            "blackwell16" | "blackwell16bit" | "blackwell-16bit" | "blackwell-16" | "depth16" | "d16" => {
                Ok(GobOrder::Blackwell16)
            }
            _ => Err(Error::UnknownName {
                kind: "gob order",
                name: name.to_string(),
                suggestions: closest(name, GOB_ORDER_NAMES),
            }),
        }
    }

    /// True where the order comes from a document, from tools that agree on it (VM, Tegra), or
    /// from hardware captures (Turing and Blackwell16, on GH100); false for Mesa nil's Fermi
    /// orders (code and comment) and its Blackwell 8-bit order, which no capture has checked.
    pub const fn is_verified(self) -> bool {
        !matches!(self, GobOrder::Fermi | GobOrder::FermiComment | GobOrder::Blackwell8)
    }

    /// Bytes in each run that stays contiguous inside the gob: 64 for VM rows, 8 for
    /// [`GobOrder::Blackwell8`], 16 for the other CPU orders. The tiling walks move whole runs.
    pub const fn run_bytes(self) -> u32 {
        match self {
            GobOrder::Vm => 64,
            GobOrder::Blackwell8 => 8,
            _ => 16,
        }
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
                // Rows 0-3 as the comment; rows 4-7 swap the columns' sector pairs.
                let (col, pair, quarter) = ((x / 16) % 2, (y / 2) % 2, y / 4);
                let sector = 8 * (x / 32) + 4 * quarter + 2 * (col ^ quarter) + (1 ^ pair ^ col);
                32 * sector + (x % 16) + 16 * (y % 2)
            }
            GobOrder::FermiComment => {
                let (col, pair) = ((x / 16) % 2, (y / 2) % 2);
                let sector = 8 * (x / 32) + 4 * (y / 4) + 2 * col + (1 ^ pair ^ col);
                32 * sector + (x % 16) + 16 * (y % 2)
            }
            GobOrder::Blackwell8 => (x % 8) + 8 * y + 64 * (x / 8),
        }
    }

    /// For every 16-byte run of the gob (index `y * 4 + x / 16`), the offset of its first byte.
    /// Every order but [`GobOrder::Blackwell8`] keeps 16-byte runs contiguous, which the tiling
    /// fast paths rely on (they take [`GobOrder::run8_offsets`] for that one).
    pub fn run16_offsets(self, gob_height_rows: u32) -> [u16; 32] {
        let mut out = [0u16; 32];
        for y in 0..gob_height_rows.min(8) {
            for c in 0..4 {
                out[(y * 4 + c) as usize] = self.offset_in_gob(c * 16, y) as u16;
            }
        }
        out
    }

    /// For every 8-byte run of the gob (index `y * 8 + x / 8`), the offset of its first byte:
    /// every order keeps 8-byte runs contiguous.
    pub fn run8_offsets(self, gob_height_rows: u32) -> [u16; 64] {
        let mut out = [0u16; 64];
        for y in 0..gob_height_rows.min(8) {
            for c in 0..8 {
                out[(y * 8 + c) as usize] = self.offset_in_gob(c * 8, y) as u16;
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
    fn runs_stay_contiguous() {
        for o in ALL_GOB_ORDERS {
            let w = o.run_bytes();
            for y in 0..8 {
                for x in 0..64 {
                    assert_eq!(o.offset_in_gob(x, y), o.offset_in_gob(x & !(w - 1), y) + (x & (w - 1)), "{o}");
                }
            }
        }
        // Blackwell8 splits 16-byte runs: (8, 0) is not (0, 0) + 8.
        assert_ne!(GobOrder::Blackwell8.offset_in_gob(8, 0), 8);
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
        // nil's doc comment on `GOBType::FermiColor` (our `FermiComment`).
        let fermi_comment = [[1, 2, 9, 10], [0, 3, 8, 11], [5, 6, 13, 14], [4, 7, 12, 15]];
        // nil's `CopyGOBFermi` line offsets (copy.rs), as sectors: rows 4-7 differ.
        let fermi_code = [[1, 2, 9, 10], [0, 3, 8, 11], [7, 4, 15, 12], [6, 5, 14, 13]];
        for pair in 0..4u32 {
            for col in 0..4u32 {
                let at = |o: GobOrder| o.offset_in_gob(col * 16, pair * 2);
                assert_eq!(at(GobOrder::Turing), 32 * turing[pair as usize][col as usize]);
                assert_eq!(at(GobOrder::FermiComment), 32 * fermi_comment[pair as usize][col as usize]);
                assert_eq!(at(GobOrder::Fermi), 32 * fermi_code[pair as usize][col as usize]);
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
