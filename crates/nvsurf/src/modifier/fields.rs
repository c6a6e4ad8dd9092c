//! The fields of a DRM format modifier and their encoding (see [`super`] for the bit table and
//! the sources).

use crate::error::ModifierError;

/// `DRM_FORMAT_MOD_LINEAR`: rows one after another (pitch).
pub const DRM_FORMAT_MOD_LINEAR: u64 = 0;
/// `DRM_FORMAT_MOD_INVALID`.
pub const DRM_FORMAT_MOD_INVALID: u64 = 0x00ff_ffff_ffff_ffff;
/// `DRM_FORMAT_MOD_VENDOR_NVIDIA`, the vendor byte (bits 56-63).
pub const VENDOR_NVIDIA: u8 = 0x03;
/// The largest block height (log2 gobs) a modifier may carry: 32 gobs.
pub const MAX_BLOCK_HEIGHT_LOG2: u8 = 5;

/// `g`: the gob height and page kind generation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GobKindGeneration {
    /// 0: gob height 8, Fermi to Volta and Tegra K1+ page kinds.
    Fermi,
    /// 1: gob height 4, G80 to GT2xx page kinds.
    G80,
    /// 2: gob height 8, Turing+ page kinds.
    Turing,
}

impl GobKindGeneration {
    /// The field value (0, 1, 2).
    pub const fn value(self) -> u8 {
        match self {
            GobKindGeneration::Fermi => 0,
            GobKindGeneration::G80 => 1,
            GobKindGeneration::Turing => 2,
        }
    }

    /// `fermi`, `g80`, `turing`.
    pub const fn name(self) -> &'static str {
        match self {
            GobKindGeneration::Fermi => "fermi",
            GobKindGeneration::G80 => "g80",
            GobKindGeneration::Turing => "turing",
        }
    }

    /// The generation of a field value; 3 is reserved.
    pub fn from_value(v: u64) -> Result<Self, ModifierError> {
        match v {
            0 => Ok(GobKindGeneration::Fermi),
            1 => Ok(GobKindGeneration::G80),
            2 => Ok(GobKindGeneration::Turing),
            _ => Err(ModifierError {
                field: "gob kind generation",
                value: v,
                rule: "3 is reserved (0 fermi, 1 g80, 2 turing)",
            }),
        }
    }
}

/// `s`: the sector layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SectorLayout {
    /// 0: Tegra K1 to Tegra Parker (TX2).
    TegraK1,
    /// 1: desktop GPUs before GB20x, GB20x at 32 bpp and more, Tegra Xavier and Orin.
    Desktop,
    /// 2: GB20x (Blackwell 2) and later, 8 bpp surfaces.
    Blackwell8Bpp,
    /// 3: GB20x (Blackwell 2) and later, 16 bpp surfaces.
    Blackwell16Bpp,
}

impl SectorLayout {
    /// The field value (0-3).
    pub const fn value(self) -> u8 {
        match self {
            SectorLayout::TegraK1 => 0,
            SectorLayout::Desktop => 1,
            SectorLayout::Blackwell8Bpp => 2,
            SectorLayout::Blackwell16Bpp => 3,
        }
    }

    /// `tegra-k1`, `desktop`, `blackwell-8bpp`, `blackwell-16bpp`.
    pub const fn name(self) -> &'static str {
        match self {
            SectorLayout::TegraK1 => "tegra-k1",
            SectorLayout::Desktop => "desktop",
            SectorLayout::Blackwell8Bpp => "blackwell-8bpp",
            SectorLayout::Blackwell16Bpp => "blackwell-16bpp",
        }
    }

    /// The layout of a field value; 4-7 are reserved.
    pub fn from_value(v: u64) -> Result<Self, ModifierError> {
        match v {
            0 => Ok(SectorLayout::TegraK1),
            1 => Ok(SectorLayout::Desktop),
            2 => Ok(SectorLayout::Blackwell8Bpp),
            3 => Ok(SectorLayout::Blackwell16Bpp),
            _ => Err(ModifierError { field: "sector layout", value: v, rule: "4-7 are reserved (0-3 are defined)" }),
        }
    }
}

/// `c`: the lossless framebuffer compression type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Compression {
    /// 0: none.
    None,
    /// 1: ROP/3D, layout 1 (the format implied by the page kind).
    Rop3dLayout1,
    /// 2: ROP/3D, layout 2.
    Rop3dLayout2,
    /// 3: CDE horizontal.
    CdeHorizontal,
    /// 4: CDE vertical.
    CdeVertical,
}

impl Compression {
    /// The field value (0-4).
    pub const fn value(self) -> u8 {
        match self {
            Compression::None => 0,
            Compression::Rop3dLayout1 => 1,
            Compression::Rop3dLayout2 => 2,
            Compression::CdeHorizontal => 3,
            Compression::CdeVertical => 4,
        }
    }

    /// `none`, `rop3d-layout1`, `rop3d-layout2`, `cde-horizontal`, `cde-vertical`.
    pub const fn name(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Rop3dLayout1 => "rop3d-layout1",
            Compression::Rop3dLayout2 => "rop3d-layout2",
            Compression::CdeHorizontal => "cde-horizontal",
            Compression::CdeVertical => "cde-vertical",
        }
    }

    /// The compression of a field value; 5-7 are reserved.
    pub fn from_value(v: u64) -> Result<Self, ModifierError> {
        match v {
            0 => Ok(Compression::None),
            1 => Ok(Compression::Rop3dLayout1),
            2 => Ok(Compression::Rop3dLayout2),
            3 => Ok(Compression::CdeHorizontal),
            4 => Ok(Compression::CdeVertical),
            _ => Err(ModifierError { field: "compression", value: v, rule: "5-7 are reserved (0-4 are defined)" }),
        }
    }
}

/// The fields of a `DRM_FORMAT_MOD_NVIDIA_BLOCK_LINEAR_2D` modifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BlockLinear {
    /// `h`: log2 of the block height in gobs (0-5).
    pub block_height_log2: u8,
    /// `k`: the PTE kind.
    pub pte_kind: u8,
    /// `g`: gob height and page kind generation.
    pub gob_kind_generation: GobKindGeneration,
    /// `s`: sector layout.
    pub sector_layout: SectorLayout,
    /// `c`: compression.
    pub compression: Compression,
}

/// Bits that must be zero in a block-linear modifier: 5-11 and 28-55.
const RESERVED_LOW: u64 = 0x7f << 5;
const RESERVED_HIGH: u64 = ((1u64 << 28) - 1) << 28;

impl BlockLinear {
    /// The 64-bit modifier. Refuses a block height above [`MAX_BLOCK_HEIGHT_LOG2`].
    pub fn encode(&self) -> Result<u64, ModifierError> {
        if self.block_height_log2 > MAX_BLOCK_HEIGHT_LOG2 {
            return Err(ModifierError {
                field: "block height log2",
                value: self.block_height_log2.into(),
                rule: "must be 0..=5 (1 to 32 gobs)",
            });
        }
        let s = u64::from(self.sector_layout.value());
        Ok((u64::from(VENDOR_NVIDIA) << 56)
            | u64::from(self.block_height_log2)
            | 0x10
            | (u64::from(self.pte_kind) << 12)
            | (u64::from(self.gob_kind_generation.value()) << 20)
            | ((s & 1) << 22)
            | ((s >> 1) << 26)
            | (u64::from(self.compression.value()) << 23))
    }

    /// The fields of an NVIDIA block-linear modifier; each malformed field is refused with its
    /// rule (wrong vendor, block-linear bit clear, reserved bits set, reserved field values,
    /// block height above 5).
    pub fn decode(modifier: u64) -> Result<BlockLinear, ModifierError> {
        let vendor = modifier >> 56;
        if vendor != u64::from(VENDOR_NVIDIA) {
            return Err(ModifierError {
                field: "vendor",
                value: vendor,
                rule: "must be 0x3 (DRM_FORMAT_MOD_VENDOR_NVIDIA)",
            });
        }
        if modifier & 0x10 == 0 {
            return Err(ModifierError {
                field: "block-linear bit 4",
                value: 0,
                rule: "must be 1 (DRM_FORMAT_MOD_NVIDIA_BLOCK_LINEAR_2D); older NVIDIA modifiers such as TEGRA_TILED are not modelled",
            });
        }
        if modifier & RESERVED_LOW != 0 {
            return Err(ModifierError {
                field: "reserved bits 5-11",
                value: (modifier & RESERVED_LOW) >> 5,
                rule: "must be zero",
            });
        }
        if modifier & RESERVED_HIGH != 0 {
            return Err(ModifierError {
                field: "reserved bits 28-55",
                value: (modifier & RESERVED_HIGH) >> 28,
                rule: "must be zero",
            });
        }
        let h = modifier & 0xf;
        if h > u64::from(MAX_BLOCK_HEIGHT_LOG2) {
            return Err(ModifierError { field: "block height log2", value: h, rule: "must be 0..=5 (1 to 32 gobs)" });
        }
        let s = ((modifier >> 22) & 1) | (((modifier >> 26) & 3) << 1);
        Ok(BlockLinear {
            block_height_log2: h as u8,
            pte_kind: ((modifier >> 12) & 0xff) as u8,
            gob_kind_generation: GobKindGeneration::from_value((modifier >> 20) & 3)?,
            sector_layout: SectorLayout::from_value(s)?,
            compression: Compression::from_value((modifier >> 23) & 7)?,
        })
    }
}

/// A decoded modifier: linear, or NVIDIA block linear.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Modifier {
    /// `DRM_FORMAT_MOD_LINEAR`.
    Linear,
    /// `DRM_FORMAT_MOD_NVIDIA_BLOCK_LINEAR_2D`.
    BlockLinear(BlockLinear),
}

impl Modifier {
    /// Decodes `DRM_FORMAT_MOD_LINEAR` or an NVIDIA block-linear modifier ([`BlockLinear::decode`]).
    pub fn decode(modifier: u64) -> Result<Modifier, ModifierError> {
        if modifier == DRM_FORMAT_MOD_LINEAR {
            return Ok(Modifier::Linear);
        }
        BlockLinear::decode(modifier).map(Modifier::BlockLinear)
    }

    /// The 64-bit value.
    pub fn encode(&self) -> Result<u64, ModifierError> {
        match self {
            Modifier::Linear => Ok(DRM_FORMAT_MOD_LINEAR),
            Modifier::BlockLinear(b) => b.encode(),
        }
    }

    /// `linear` or `blocklinear`.
    pub const fn layout_name(&self) -> &'static str {
        match self {
            Modifier::Linear => "linear",
            Modifier::BlockLinear(_) => "blocklinear",
        }
    }
}

/// Parses a modifier written as `0x`-hex or decimal (underscores allowed), as the CLI, C and
/// Python faces take it.
pub fn parse(text: &str) -> crate::error::Result<u64> {
    let t = text.trim().replace('_', "");
    let r = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16),
        None => t.parse(),
    };
    r.map_err(|_| crate::error::Error::Parse {
        field: "modifier",
        value: text.into(),
        rule: "expected a 64-bit number in 0x-hex or decimal",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_headers_16bx2_block_modifiers_decode() {
        // DRM_FORMAT_MOD_NVIDIA_16BX2_BLOCK(v) = BLOCK_LINEAR_2D(0, 0, 0, 0, v).
        for v in 0..=5u8 {
            let m = 0x0300_0000_0000_0010 | u64::from(v);
            let b = BlockLinear::decode(m).unwrap();
            assert_eq!(b.block_height_log2, v);
            assert_eq!(
                (b.pte_kind, b.gob_kind_generation, b.sector_layout),
                (0, GobKindGeneration::Fermi, SectorLayout::TegraK1)
            );
            assert_eq!(b.encode().unwrap(), m);
        }
    }
}
