//! GPU generations and the facts the layouts depend on.
//!
//! Chip names and chipset ids follow envytools (`docs/hw/gpu.rst`, `rnndb/nv_defs.xml`). The
//! order of the [`Gpu`] variants is the order of the hardware generations, so comparisons such as
//! `gpu >= Gpu::Gf100` read like the documents' "GF100+" and "G80:GF100" ranges.
//!
//! Names are accepted case-insensitively in every spelling the documents use: the newer codenames
//! (`g80`, `gt215`, `gf100`), the older `nvXX` numbers (`nv50`, `nva3`, `nvc0`), and a few common
//! aliases (`tegra-x1`, `xbox`). Presets that carry a driver's conventions as well as a chip
//! (`switch`) are [`crate::platform::Platform`]s.

use crate::error::{closest, Error, Result};
use alloc::string::ToString;
use alloc::vec::Vec;

/// Architecture families, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    /// NV04/NV05 (Riva TNT).
    Fahrenheit,
    /// NV10 family (GeForce 256/2/4 MX).
    Celsius,
    /// NV20 family (GeForce 3/4 Ti, Xbox NV2A).
    Kelvin,
    /// NV30 family (GeForce FX).
    Rankine,
    /// NV40 family (GeForce 6/7).
    Curie,
    /// G80 family (GeForce 8-300, "NV50").
    Tesla,
    /// GF100 family.
    Fermi,
    /// GK104 family.
    Kepler,
    /// GM107 family (includes GM20B / Tegra X1).
    Maxwell,
    /// GP100 family.
    Pascal,
    /// GV100 family.
    Volta,
    /// TU102 family.
    Turing,
    /// GA100 family.
    Ampere,
    /// AD102 family.
    Ada,
    /// GH100 family.
    Hopper,
    /// GB100 / GB20x family (Blackwell).
    Blackwell,
}

macro_rules! gpus {
    ($($var:ident = $name:literal, $id:literal, $fam:ident, [$($alias:literal),*];)*) => {
        /// A GPU chip. Variants are ordered by generation.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum Gpu {
            $(
                #[doc = concat!("`", $name, "` (chipset id ", stringify!($id), ")")]
                $var,
            )*
        }

        /// Every chip, in generation order.
        pub const ALL_GPUS: &[Gpu] = &[$(Gpu::$var),*];

        impl Gpu {
            /// Canonical (envytools) name, lower case.
            pub const fn name(self) -> &'static str {
                match self { $(Gpu::$var => $name,)* }
            }
            /// The chipset id as found in PMC.BOOT_0 (e.g. 0x50 for G80, 0xc0 for GF100).
            pub const fn chipset_id(self) -> u32 {
                match self { $(Gpu::$var => $id,)* }
            }
            /// The architecture family.
            pub const fn family(self) -> Family {
                match self { $(Gpu::$var => Family::$fam,)* }
            }
            /// Other accepted names (besides [`Gpu::name`]).
            pub const fn aliases(self) -> &'static [&'static str] {
                match self { $(Gpu::$var => &[$($alias),*],)* }
            }
        }
    };
}

gpus! {
    Nv04 = "nv04", 0x04, Fahrenheit, ["tnt"];
    Nv05 = "nv05", 0x05, Fahrenheit, ["tnt2"];
    Nv10 = "nv10", 0x10, Celsius, [];
    Nv11 = "nv11", 0x11, Celsius, [];
    Nv15 = "nv15", 0x15, Celsius, [];
    Nv17 = "nv17", 0x17, Celsius, [];
    Nv18 = "nv18", 0x18, Celsius, [];
    Nv1a = "nv1a", 0x1a, Celsius, [];
    Nv1f = "nv1f", 0x1f, Celsius, [];
    Nv20 = "nv20", 0x20, Kelvin, [];
    Nv25 = "nv25", 0x25, Kelvin, [];
    Nv28 = "nv28", 0x28, Kelvin, [];
    Nv2a = "nv2a", 0x2a, Kelvin, ["xbox"];
    Nv30 = "nv30", 0x30, Rankine, [];
    Nv31 = "nv31", 0x31, Rankine, [];
    Nv34 = "nv34", 0x34, Rankine, [];
    Nv35 = "nv35", 0x35, Rankine, [];
    Nv36 = "nv36", 0x36, Rankine, [];
    Nv40 = "nv40", 0x40, Curie, [];
    Nv41 = "nv41", 0x41, Curie, [];
    Nv42 = "nv42", 0x42, Curie, [];
    Nv43 = "nv43", 0x43, Curie, [];
    Nv44 = "nv44", 0x44, Curie, [];
    Nv4a = "nv4a", 0x4a, Curie, [];
    Nv47 = "g70", 0x47, Curie, ["nv47"];
    Nv49 = "g71", 0x49, Curie, ["nv49"];
    Nv4b = "g73", 0x4b, Curie, ["nv4b"];
    Nv46 = "g72", 0x46, Curie, ["nv46"];
    Nv4e = "c51", 0x4e, Curie, ["nv4e"];
    Nv4c = "mcp61", 0x4c, Curie, ["nv4c"];
    Nv67 = "mcp67", 0x67, Curie, ["nv67"];
    Nv63 = "mcp73", 0x63, Curie, ["nv63"];
    G80 = "g80", 0x50, Tesla, ["nv50"];
    G84 = "g84", 0x84, Tesla, ["nv84"];
    G86 = "g86", 0x86, Tesla, ["nv86"];
    G92 = "g92", 0x92, Tesla, ["nv92"];
    G94 = "g94", 0x94, Tesla, ["nv94"];
    G96 = "g96", 0x96, Tesla, ["nv96"];
    G98 = "g98", 0x98, Tesla, ["nv98"];
    G200 = "g200", 0xa0, Tesla, ["nva0", "gt200"];
    Mcp77 = "mcp77", 0xaa, Tesla, ["nvaa"];
    Mcp79 = "mcp79", 0xac, Tesla, ["nvac"];
    Gt215 = "gt215", 0xa3, Tesla, ["nva3"];
    Gt216 = "gt216", 0xa5, Tesla, ["nva5"];
    Gt218 = "gt218", 0xa8, Tesla, ["nva8"];
    Mcp89 = "mcp89", 0xaf, Tesla, ["nvaf"];
    Gf100 = "gf100", 0xc0, Fermi, ["nvc0"];
    Gf104 = "gf104", 0xc4, Fermi, ["nvc4"];
    Gf106 = "gf106", 0xc3, Fermi, ["nvc3"];
    Gf108 = "gf108", 0xc1, Fermi, ["nvc1"];
    Gf110 = "gf110", 0xc8, Fermi, ["nvc8"];
    Gf114 = "gf114", 0xce, Fermi, ["nvce"];
    Gf116 = "gf116", 0xcf, Fermi, ["nvcf"];
    Gf117 = "gf117", 0xd7, Fermi, ["nvd7"];
    Gf119 = "gf119", 0xd9, Fermi, ["nvd9"];
    Gk104 = "gk104", 0xe4, Kepler, ["nve4"];
    Gk107 = "gk107", 0xe7, Kepler, ["nve7"];
    Gk106 = "gk106", 0xe6, Kepler, ["nve6"];
    Gk110 = "gk110", 0xf0, Kepler, ["nvf0"];
    Gk110b = "gk110b", 0xf1, Kepler, ["nvf1"];
    Gk208 = "gk208", 0x108, Kepler, ["nv108"];
    Gk208b = "gk208b", 0x106, Kepler, ["nv106"];
    Gk20a = "gk20a", 0xea, Kepler, ["nvea", "tegra-k1"];
    Gm107 = "gm107", 0x117, Maxwell, ["nv117"];
    Gm108 = "gm108", 0x118, Maxwell, ["nv118"];
    Gm200 = "gm200", 0x120, Maxwell, ["nv120"];
    Gm204 = "gm204", 0x124, Maxwell, ["nv124"];
    Gm206 = "gm206", 0x126, Maxwell, ["nv126"];
    Gm20b = "gm20b", 0x12b, Maxwell, ["nv12b", "tegra-x1", "tegrax1"];
    Gp100 = "gp100", 0x130, Pascal, ["nv130"];
    Gp102 = "gp102", 0x132, Pascal, ["nv132"];
    Gp104 = "gp104", 0x134, Pascal, ["nv134"];
    Gp106 = "gp106", 0x136, Pascal, ["nv136"];
    Gp107 = "gp107", 0x137, Pascal, ["nv137"];
    Gp108 = "gp108", 0x138, Pascal, ["nv138"];
    Gp10b = "gp10b", 0x13b, Pascal, ["nv13b", "tegra-x2"];
    Gv100 = "gv100", 0x140, Volta, ["nv140"];
    Gv11b = "gv11b", 0x15b, Volta, ["nv15b", "xavier"];
    Tu102 = "tu102", 0x162, Turing, ["nv162"];
    Tu104 = "tu104", 0x164, Turing, ["nv164"];
    Tu106 = "tu106", 0x166, Turing, ["nv166"];
    Tu116 = "tu116", 0x168, Turing, ["nv168"];
    Tu117 = "tu117", 0x167, Turing, ["nv167"];
    Ga100 = "ga100", 0x170, Ampere, ["nv170"];
    Ga102 = "ga102", 0x172, Ampere, ["nv172"];
    Ga103 = "ga103", 0x173, Ampere, ["nv173"];
    Ga104 = "ga104", 0x174, Ampere, ["nv174"];
    Ga106 = "ga106", 0x176, Ampere, ["nv176"];
    Ga107 = "ga107", 0x177, Ampere, ["nv177"];
    Ga10b = "ga10b", 0x17b, Ampere, ["nv17b", "orin"];
    Ad102 = "ad102", 0x192, Ada, ["nv192"];
    Ad103 = "ad103", 0x193, Ada, ["nv193"];
    Ad104 = "ad104", 0x194, Ada, ["nv194"];
    Ad106 = "ad106", 0x196, Ada, ["nv196"];
    Ad107 = "ad107", 0x197, Ada, ["nv197"];
    Gh100 = "gh100", 0x180, Hopper, ["nv180"];
    // Blackwell: the chipset id is NVIDIA's architecture | implementation (open-gpu-kernel-modules
    // `src/common/sdk/nvidia/inc/ctrl/ctrl2080/ctrl2080mc.h`, commit 41595798880394d9c6fa5e76b37ffc1bc428cfb2:
    // ARCHITECTURE_GB100 0x1a0 with GB100 0x0, GB102 0x2; ARCHITECTURE_GB200 0x1b0 with GB202 0x2,
    // GB203 0x3, GB205 0x5, GB206 0x6, GB207 0x7 and the integrated GB20B 0xb). The chip names
    // match NVIDIA's gpu-admin-tools `gpu/devid_chips.py`.
    Gb100 = "gb100", 0x1a0, Blackwell, ["nv1a0"];
    Gb102 = "gb102", 0x1a2, Blackwell, ["nv1a2"];
    Gb202 = "gb202", 0x1b2, Blackwell, ["nv1b2"];
    Gb203 = "gb203", 0x1b3, Blackwell, ["nv1b3"];
    Gb205 = "gb205", 0x1b5, Blackwell, ["nv1b5"];
    Gb206 = "gb206", 0x1b6, Blackwell, ["nv1b6"];
    Gb207 = "gb207", 0x1b7, Blackwell, ["nv1b7"];
    Gb20b = "gb20b", 0x1bb, Blackwell, ["nv1bb"];
}

impl Gpu {
    /// Parses any accepted name, case-insensitively; unknown names list the closest known ones.
    pub fn parse(name: &str) -> Result<Gpu> {
        let n = name.trim().to_ascii_lowercase();
        for &g in ALL_GPUS {
            if g.name() == n || g.aliases().contains(&n.as_str()) {
                return Ok(g);
            }
        }
        Err(Error::UnknownName {
            kind: "gpu",
            name: name.to_string(),
            suggestions: closest(
                &n,
                ALL_GPUS.iter().flat_map(|g| core::iter::once(g.name()).chain(g.aliases().iter().copied())),
            ),
        })
    }

    /// True for G80 and later: pitch and blocklinear layouts, no swizzled textures.
    pub fn is_g80_or_later(self) -> bool {
        self >= Gpu::G80
    }

    /// True for GF100 and later (8-row gobs, 0x200 alignment, 12-byte elements, image units).
    pub fn is_gf100_or_later(self) -> bool {
        self >= Gpu::Gf100
    }

    /// True for GT215 and later (CUBE_ARRAY textures, MS2_ALT/MS8_ALT).
    pub fn is_gt215_or_later(self) -> bool {
        self >= Gpu::Gt215
    }

    /// True for G84 and later (non-0 storage types in system RAM).
    pub fn is_g84_or_later(self) -> bool {
        self >= Gpu::G84
    }

    /// True for G200 and later (BLOCKLINEAR_24 storage types per rnndb).
    pub fn is_g200_or_later(self) -> bool {
        self >= Gpu::G200
    }

    /// True for the pre-G80 generations that have the swizzled layout (NV04-NV4x).
    pub fn has_swizzled_layout(self) -> bool {
        self < Gpu::G80
    }

    /// Rows (of 64 bytes) in one gob: 4 on G80:GF100, 8 on GF100+ (envytools
    /// `docs/hw/memory/g80-surface.rst`, "Blocklinear surfaces"); `None` before G80, which has no
    /// blocklinear layout.
    pub fn gob_height_rows(self) -> Option<u32> {
        if self.is_gf100_or_later() {
            Some(8)
        } else if self.is_g80_or_later() {
            Some(4)
        } else {
            None
        }
    }

    /// Log2 of [`Gpu::gob_height_rows`].
    pub fn gob_height_log2(self) -> Option<u32> {
        self.gob_height_rows().map(u32::trailing_zeros)
    }

    /// Bytes in one gob: 256 on G80:GF100, 512 on GF100+.
    pub fn gob_bytes(self) -> Option<u64> {
        self.gob_height_rows().map(|r| 64 * u64::from(r))
    }

    /// Alignment of a blocklinear surface's address in bytes: the gob size, 0x100 on G80:GF100
    /// and 0x200 on GF100 and later (ERRATA E11: the document says "GF100" only).
    pub fn blocklinear_align_bytes(self) -> Option<u64> {
        self.gob_bytes()
    }

    /// Whether 12-byte elements (the 32_32_32 format) exist: GF100+ (ERRATA "Answers").
    pub fn allows_12_byte_elements(self) -> bool {
        self.is_gf100_or_later()
    }

    /// Is this a Tegra (SoC) part, whose CPU sees the Tegra in-gob byte order? The integrated
    /// Blackwell GB20B is not: Mesa's nil picks the Blackwell orders on every Blackwell part,
    /// SoC or not (`src/nouveau/nil/tiling.rs`, `GOBType::choose`, Mesa commit 157fa86f6d5d).
    pub fn is_tegra(self) -> bool {
        matches!(self, Gpu::Gk20a | Gpu::Gm20b | Gpu::Gp10b | Gpu::Gv11b | Gpu::Ga10b)
    }

    /// All names of this chip: the canonical one first.
    pub fn all_names(self) -> Vec<&'static str> {
        core::iter::once(self.name()).chain(self.aliases().iter().copied()).collect()
    }
}

impl core::fmt::Display for Gpu {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.name().to_ascii_uppercase())
    }
}

impl core::str::FromStr for Gpu {
    type Err = Error;
    fn from_str(s: &str) -> Result<Gpu> {
        Gpu::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn document_aliases() {
        // seed README: G80 = NV50; GF100 = NVC0; GT215 = NVA3; G200 = NVA0; G84 = NV84.
        for (a, b) in [("g80", "NV50"), ("gf100", "nvc0"), ("GT215", "nva3"), ("g200", "nva0"), ("g84", "NV84")] {
            assert_eq!(Gpu::parse(a).unwrap(), Gpu::parse(b).unwrap());
        }
        assert_eq!(Gpu::parse("Tegra-X1").unwrap(), Gpu::Gm20b);
        assert!(matches!(Gpu::parse("gf10"), Err(Error::UnknownName { .. })));
    }

    #[test]
    fn names_unique_and_ranges() {
        let mut names: Vec<&str> = ALL_GPUS.iter().flat_map(|g| g.all_names()).collect();
        let n = names.len();
        names.sort();
        names.dedup();
        assert_eq!(n, names.len(), "a name is used twice");
        assert_eq!(Gpu::G80.gob_height_rows(), Some(4));
        assert_eq!(Gpu::Gt215.gob_height_rows(), Some(4));
        assert_eq!(Gpu::Gf100.gob_height_rows(), Some(8));
        assert_eq!(Gpu::Tu102.blocklinear_align_bytes(), Some(0x200)); // E11
        assert_eq!(Gpu::G200.blocklinear_align_bytes(), Some(0x100));
        assert_eq!(Gpu::Nv40.gob_height_rows(), None);
        assert!(Gpu::Mcp79 < Gpu::Gt215 && Gpu::Mcp89 < Gpu::Gf100);
    }

    #[test]
    fn blackwell_chips() {
        // ctrl2080mc.h: architecture | implementation.
        let want = [
            ("gb100", 0x1a0),
            ("gb102", 0x1a2),
            ("gb202", 0x1b2),
            ("gb203", 0x1b3),
            ("gb205", 0x1b5),
            ("gb206", 0x1b6),
            ("gb207", 0x1b7),
            ("gb20b", 0x1bb),
        ];
        for (name, id) in want {
            let g = Gpu::parse(name).unwrap();
            assert_eq!((g.chipset_id(), g.family(), g.gob_height_rows()), (id, Family::Blackwell, Some(8)), "{name}");
            assert!(g > Gpu::Gh100 && !g.is_tegra(), "{name}");
        }
        assert_eq!(Gpu::parse("NV1B2").unwrap(), Gpu::Gb202);
    }
}
