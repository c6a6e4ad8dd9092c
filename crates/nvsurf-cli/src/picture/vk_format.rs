//! The Vulkan format (`VkFormat`) of each G80+ format whose elements are bit-identical to it,
//! for KTX2 files, whose header names the format as a `VkFormat` (KTX 2.0 specification,
//! section 3.1 "vkFormat").
//!
//! Keyed by our format: the texture format id, the component types, the swizzle and the sRGB
//! flag (a color or zeta format brings these with it). The pairing follows Mesa's
//! `src/nouveau/nil/nil_format.c`, which maps each pipe format (the Vulkan formats' twins) to a
//! texture format id and its component types; the numbers are the Vulkan specification's
//! `VkFormat` enum, as the `ktx2` crate's [`ktx2::Format`] constants carry them. Vulkan's
//! `_PACKnn` names are most significant bit first (`R5G6B5_UNORM_PACK16` has B in bits 0-4),
//! the others list components from the lowest byte up.

use ktx2::Format as Vk;
use nvsurf::format::{ComponentType, Format, Kind};

/// One pairing: the Vulkan format, and our format given as a name [`Format::parse`] takes,
/// with its component types changed (`Some`) or sRGB set where the table's default differs.
struct Pair {
    vk: Vk,
    name: &'static str,
    types: Option<ComponentType>,
    srgb: bool,
}

const fn p(vk: Vk, name: &'static str) -> Pair {
    Pair { vk, name, types: None, srgb: false }
}

const fn srgb(vk: Vk, name: &'static str) -> Pair {
    Pair { vk, name, types: None, srgb: true }
}

const fn typed(vk: Vk, name: &'static str, t: ComponentType) -> Pair {
    Pair { vk, name, types: Some(t), srgb: false }
}

/// The table. Color formats first (each brings its types, swizzle and sRGB flag), then the
/// texture formats that no color format covers (BC, shared exponent, RGB32F), then depth.
const PAIRS: &[Pair] = &[
    p(Vk::R32G32B32A32_SFLOAT, "color:0xc0"),
    p(Vk::R32G32B32A32_SINT, "color:0xc1"),
    p(Vk::R32G32B32A32_UINT, "color:0xc2"),
    p(Vk::R16G16B16A16_UNORM, "color:0xc6"),
    p(Vk::R16G16B16A16_SNORM, "color:0xc7"),
    p(Vk::R16G16B16A16_SINT, "color:0xc8"),
    p(Vk::R16G16B16A16_UINT, "color:0xc9"),
    p(Vk::R16G16B16A16_SFLOAT, "color:0xca"),
    p(Vk::R32G32_SFLOAT, "color:0xcb"),
    p(Vk::R32G32_SINT, "color:0xcc"),
    p(Vk::R32G32_UINT, "color:0xcd"),
    p(Vk::B8G8R8A8_UNORM, "color:0xcf"),
    p(Vk::B8G8R8A8_SRGB, "color:0xd0"),
    // RGB10A2: R in bits 0-9, A in bits 30-31; Vulkan's packed name lists A first.
    p(Vk::A2B10G10R10_UNORM_PACK32, "color:0xd1"),
    p(Vk::A2B10G10R10_UINT_PACK32, "color:0xd2"),
    p(Vk::R8G8B8A8_UNORM, "color:0xd5"),
    p(Vk::R8G8B8A8_SRGB, "color:0xd6"),
    p(Vk::R8G8B8A8_SNORM, "color:0xd7"),
    p(Vk::R8G8B8A8_SINT, "color:0xd8"),
    p(Vk::R8G8B8A8_UINT, "color:0xd9"),
    p(Vk::R16G16_UNORM, "color:0xda"),
    p(Vk::R16G16_SNORM, "color:0xdb"),
    p(Vk::R16G16_SINT, "color:0xdc"),
    p(Vk::R16G16_UINT, "color:0xdd"),
    p(Vk::R16G16_SFLOAT, "color:0xde"),
    // R11G11B10F: R in bits 0-10.
    p(Vk::B10G11R11_UFLOAT_PACK32, "color:0xe0"),
    p(Vk::R32_SINT, "color:0xe3"),
    p(Vk::R32_UINT, "color:0xe4"),
    p(Vk::R32_SFLOAT, "color:0xe5"),
    // B5G6R5 (LSB first: B in bits 0-4) is Vulkan's R5G6B5 (MSB first).
    p(Vk::R5G6B5_UNORM_PACK16, "color:0xe8"),
    // B5G5R5A1 (B in bits 0-4, A in bit 15) is Vulkan's A1R5G5B5.
    p(Vk::A1R5G5B5_UNORM_PACK16, "color:0xe9"),
    p(Vk::R8G8_UNORM, "color:0xea"),
    p(Vk::R8G8_SNORM, "color:0xeb"),
    p(Vk::R8G8_SINT, "color:0xec"),
    p(Vk::R8G8_UINT, "color:0xed"),
    p(Vk::R16_UNORM, "color:0xee"),
    p(Vk::R16_SNORM, "color:0xef"),
    p(Vk::R16_SINT, "color:0xf0"),
    p(Vk::R16_UINT, "color:0xf1"),
    p(Vk::R16_SFLOAT, "color:0xf2"),
    p(Vk::R8_UNORM, "color:0xf3"),
    p(Vk::R8_SNORM, "color:0xf4"),
    p(Vk::R8_SINT, "color:0xf5"),
    p(Vk::R8_UINT, "color:0xf6"),
    p(Vk::R32G32B32_SFLOAT, "tex:0x02"),
    p(Vk::E5B9G9R9_UFLOAT_PACK32, "tex:0x20"),
    p(Vk::BC6H_SFLOAT_BLOCK, "tex:0x10"),
    p(Vk::BC6H_UFLOAT_BLOCK, "tex:0x11"),
    p(Vk::BC7_UNORM_BLOCK, "tex:0x17"),
    srgb(Vk::BC7_SRGB_BLOCK, "tex:0x17"),
    // BC1 with its 1-bit alpha (the texture unit decodes the punch-through alpha).
    p(Vk::BC1_RGBA_UNORM_BLOCK, "tex:0x24"),
    srgb(Vk::BC1_RGBA_SRGB_BLOCK, "tex:0x24"),
    p(Vk::BC2_UNORM_BLOCK, "tex:0x25"),
    srgb(Vk::BC2_SRGB_BLOCK, "tex:0x25"),
    p(Vk::BC3_UNORM_BLOCK, "tex:0x26"),
    srgb(Vk::BC3_SRGB_BLOCK, "tex:0x26"),
    p(Vk::BC4_UNORM_BLOCK, "tex:0x27"),
    typed(Vk::BC4_SNORM_BLOCK, "tex:0x27", ComponentType::Snorm),
    p(Vk::BC5_UNORM_BLOCK, "tex:0x28"),
    typed(Vk::BC5_SNORM_BLOCK, "tex:0x28", ComponentType::Snorm),
    // ETC2/EAC and ASTC (Maxwell+ rows; ids from open-gpu-doc `clcd97tex.h`, pairing as Mesa
    // `nil_format.c` makes it; the Vulkan numbers are the `ktx2` crate's, i.e. the spec's).
    p(Vk::ETC2_R8G8B8_UNORM_BLOCK, "tex:0x06"),
    srgb(Vk::ETC2_R8G8B8_SRGB_BLOCK, "tex:0x06"),
    p(Vk::ETC2_R8G8B8A1_UNORM_BLOCK, "tex:0x0a"),
    srgb(Vk::ETC2_R8G8B8A1_SRGB_BLOCK, "tex:0x0a"),
    p(Vk::ETC2_R8G8B8A8_UNORM_BLOCK, "tex:0x0b"),
    srgb(Vk::ETC2_R8G8B8A8_SRGB_BLOCK, "tex:0x0b"),
    p(Vk::EAC_R11_UNORM_BLOCK, "tex:0x19"),
    typed(Vk::EAC_R11_SNORM_BLOCK, "tex:0x19", ComponentType::Snorm),
    p(Vk::EAC_R11G11_UNORM_BLOCK, "tex:0x1a"),
    typed(Vk::EAC_R11G11_SNORM_BLOCK, "tex:0x1a", ComponentType::Snorm),
    p(Vk::ASTC_4x4_UNORM_BLOCK, "tex:0x40"),
    srgb(Vk::ASTC_4x4_SRGB_BLOCK, "tex:0x40"),
    p(Vk::ASTC_5x4_UNORM_BLOCK, "tex:0x50"),
    srgb(Vk::ASTC_5x4_SRGB_BLOCK, "tex:0x50"),
    p(Vk::ASTC_5x5_UNORM_BLOCK, "tex:0x41"),
    srgb(Vk::ASTC_5x5_SRGB_BLOCK, "tex:0x41"),
    p(Vk::ASTC_6x5_UNORM_BLOCK, "tex:0x51"),
    srgb(Vk::ASTC_6x5_SRGB_BLOCK, "tex:0x51"),
    p(Vk::ASTC_6x6_UNORM_BLOCK, "tex:0x42"),
    srgb(Vk::ASTC_6x6_SRGB_BLOCK, "tex:0x42"),
    p(Vk::ASTC_8x5_UNORM_BLOCK, "tex:0x55"),
    srgb(Vk::ASTC_8x5_SRGB_BLOCK, "tex:0x55"),
    p(Vk::ASTC_8x6_UNORM_BLOCK, "tex:0x52"),
    srgb(Vk::ASTC_8x6_SRGB_BLOCK, "tex:0x52"),
    p(Vk::ASTC_8x8_UNORM_BLOCK, "tex:0x44"),
    srgb(Vk::ASTC_8x8_SRGB_BLOCK, "tex:0x44"),
    p(Vk::ASTC_10x5_UNORM_BLOCK, "tex:0x56"),
    srgb(Vk::ASTC_10x5_SRGB_BLOCK, "tex:0x56"),
    p(Vk::ASTC_10x6_UNORM_BLOCK, "tex:0x57"),
    srgb(Vk::ASTC_10x6_SRGB_BLOCK, "tex:0x57"),
    p(Vk::ASTC_10x8_UNORM_BLOCK, "tex:0x53"),
    srgb(Vk::ASTC_10x8_SRGB_BLOCK, "tex:0x53"),
    p(Vk::ASTC_10x10_UNORM_BLOCK, "tex:0x45"),
    srgb(Vk::ASTC_10x10_SRGB_BLOCK, "tex:0x45"),
    p(Vk::ASTC_12x10_UNORM_BLOCK, "tex:0x54"),
    srgb(Vk::ASTC_12x10_SRGB_BLOCK, "tex:0x54"),
    p(Vk::ASTC_12x12_UNORM_BLOCK, "tex:0x46"),
    srgb(Vk::ASTC_12x12_SRGB_BLOCK, "tex:0x46"),
    // Depth: the zeta formats and the texture formats behind them (the same bits, as for DDS).
    p(Vk::D32_SFLOAT, "zeta:0x0a"),
    p(Vk::D16_UNORM, "zeta:0x13"),
    p(Vk::D24_UNORM_S8_UINT, "zeta:0x16"),
    p(Vk::D32_SFLOAT_S8_UINT, "zeta:0x19"),
];

/// The texture format ids of the zeta formats above, for their texture twins (`tex:0x2f` is
/// `zeta:0x0a`, ...), as `picture/dds.rs` pairs them.
const ZETA_TEXTURE_TWINS: [(u8, u8); 4] = [(0x2f, 0x0a), (0x3a, 0x13), (0x2b, 0x16), (0x30, 0x19)];

/// The format of one pairing.
fn pair_format(pair: &Pair) -> Option<Format> {
    let f = Format::parse(pair.name).ok()?;
    let f = if pair.srgb { f.with_srgb(true) } else { f };
    match pair.types {
        Some(t) => f.with_components([t; 4]).ok(),
        None => Some(f),
    }
}

/// Whether two formats store and mean the same: texture id, component types, swizzle, sRGB.
fn same_meaning(a: &Format, b: &Format) -> bool {
    a.texture().id == b.texture().id
        && a.components() == b.components()
        && a.swizzle() == b.swizzle()
        && a.is_srgb() == b.is_srgb()
}

/// The Vulkan format whose elements are bit-identical to `f`'s with the same meaning, if any.
pub fn vk_of(f: &Format) -> Option<Vk> {
    let zeta_id = match f.kind() {
        Kind::Zeta => Some(f.id()),
        Kind::Texture => ZETA_TEXTURE_TWINS.iter().find(|(t, _)| *t == f.id()).map(|p| p.1),
        Kind::Color => None,
    };
    if let Some(z) = zeta_id {
        let name = format!("zeta:{z:#04x}");
        return PAIRS.iter().find(|p| p.name == name).map(|p| p.vk);
    }
    PAIRS.iter().find(|pair| pair_format(pair).is_some_and(|g| same_meaning(&g, f))).map(|p| p.vk)
}

/// Vulkan formats read as another of the table with the same bits: BC1 without alpha is
/// stored as BC1 with it (the 8-byte blocks are the same; Vulkan's RGB variant only ignores the
/// punch-through alpha, which the texture unit decodes). Other tools write these for opaque
/// textures; nvsurf never writes them.
const READ_ALIASES: [(Vk, Vk); 2] =
    [(Vk::BC1_RGB_UNORM_BLOCK, Vk::BC1_RGBA_UNORM_BLOCK), (Vk::BC1_RGB_SRGB_BLOCK, Vk::BC1_RGBA_SRGB_BLOCK)];

/// Our format for a Vulkan format, if the table has it (or [`READ_ALIASES`] maps it there).
pub fn format_of_vk(vk: u32) -> Option<Format> {
    let vk = READ_ALIASES.iter().find(|(from, _)| from.value() == vk).map_or(vk, |(_, to)| to.value());
    PAIRS.iter().find(|p| p.vk.value() == vk).and_then(pair_format)
}

/// The Vulkan name of a `VkFormat` number with the number (`VK_FORMAT_BC7_UNORM_BLOCK (145)`),
/// or the number alone for one the `ktx2` crate does not name.
pub fn vk_name(vk: u32) -> String {
    match Vk::new(vk) {
        None => "VK_FORMAT_UNDEFINED (0)".into(),
        Some(v) => {
            let d = format!("{v:?}");
            // The crate's Debug is the constant's name, or `Format(N)` for one it lacks.
            if d.starts_with("Format(") {
                format!("VkFormat {vk}")
            } else {
                format!("VK_FORMAT_{d} ({vk})")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pairing resolves, maps back to itself, and the numbers are the Vulkan
    /// specification's (`VkFormat` enum: R8G8B8A8_UNORM = 37, BC7_UNORM_BLOCK = 145, ...).
    #[test]
    fn every_pair_round_trips_and_numbers_match_the_spec() {
        for pair in PAIRS {
            let f = pair_format(pair).unwrap_or_else(|| panic!("{} does not resolve", pair.name));
            assert_eq!(vk_of(&f), Some(pair.vk), "{}", pair.name);
            let back = format_of_vk(pair.vk.value()).unwrap();
            assert!(same_meaning(&back, &f), "{}", pair.name);
        }
        let num = |n: &str| vk_of(&Format::parse(n).unwrap()).map(|v| v.value());
        assert_eq!(num("RGBA8_UNORM"), Some(37));
        assert_eq!(num("tex:0x08"), Some(37), "the texture format's default reading is RGBA8 unorm");
        assert_eq!(num("BGRA8_UNORM"), Some(44));
        assert_eq!(num("bc1"), Some(133));
        assert_eq!(num("bc7"), Some(145));
        assert_eq!(num("RGBA16_FLOAT"), Some(97));
        assert_eq!(num("zeta:0x16"), Some(129));
        assert_eq!(num("tex:0x2b"), Some(129));
        let snorm_bc4 = Format::parse("bc4").unwrap().with_components([ComponentType::Snorm; 4]).unwrap();
        assert_eq!(vk_of(&snorm_bc4).map(|v| v.value()), Some(140));
        // BC1 without alpha (131, 132) reads as BC1.
        assert_eq!(format_of_vk(131).map(|f| f.texture().id), Some(0x24));
        assert!(format_of_vk(132).is_some_and(|f| f.is_srgb()));
        // A format with no Vulkan twin: the 5_5_6 texture format read as unorm C0-C2.
        assert_eq!(num("tex:0x16"), None);
        assert_eq!(vk_name(145), "VK_FORMAT_BC7_UNORM_BLOCK (145)");
        assert_eq!(vk_name(0), "VK_FORMAT_UNDEFINED (0)");
        assert_eq!(vk_name(999_999), "VkFormat 999999");
    }
}
