//! Everyday names of the G80+ formats: Vulkan (`VK_FORMAT_...`, the prefix optional), DXGI
//! (`DXGI_FORMAT_...`, the prefix optional) and the short names people type (`RGBA16F`,
//! `RGBA8`, `RG11B10F`, `ASTC_4x4`). Each alias names its target by a catalogue name, so an
//! alias whose row is absent from the catalogue (ASTC before its rows exist) is skipped.
//!
//! Which row a name maps to: a Vulkan or DXGI name says the component types, so it maps to the
//! color format when one exists (it carries the types, swizzle and sRGB flag; the texture format
//! of the same layout decodes the same bits to the same values with those types), and otherwise
//! to the texture format, with the types or sRGB the name implies (`BC4_SNORM_BLOCK` is texture
//! `RGTC1` read as snorm). Every command resolves an alias the same way.
//!
//! Sources: the Vulkan specification's `VkFormat` and DXGI's `DXGI_FORMAT` enumerations for the
//! names and their bit layouts; Mesa `src/nouveau/nil/nil_format.c` (the pipe format to NVIDIA
//! color/texture/zeta format table) for which NVIDIA format each one is: e.g. Z24_UNORM_S8_UINT
//! is NVIDIA's S8Z24 (zeta `Z24_S8`), B10G11R11_UFLOAT is BF10GF11RF11 (color 0xe0).

use crate::codec::ComponentType;

/// Which naming scheme an alias belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AliasApi {
    /// Vulkan `VkFormat` (accepted with or without `VK_FORMAT_`).
    Vulkan,
    /// DXGI `DXGI_FORMAT` (accepted with or without `DXGI_FORMAT_`).
    Dxgi,
    /// A short name (OpenGL-style sized names and common abbreviations).
    Short,
}

impl AliasApi {
    /// The prefix the API's names carry (`""` for short names).
    pub const fn prefix(self) -> &'static str {
        match self {
            AliasApi::Vulkan => "VK_FORMAT_",
            AliasApi::Dxgi => "DXGI_FORMAT_",
            AliasApi::Short => "",
        }
    }
}

/// One alias: its name (without the API prefix), the catalogue name it resolves to, and the
/// component type or sRGB flag it imposes on a texture format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Alias {
    /// The scheme.
    pub api: AliasApi,
    /// The name, without its API prefix.
    pub name: &'static str,
    /// A catalogue name (`color:RGBA8_UNORM`, `tex:DXT1`, `zeta:Z24_S8`, `astc_4x4`).
    pub target: &'static str,
    /// Component type of every component (texture targets only).
    pub ty: Option<ComponentType>,
    /// Decode R, G, B as sRGB (texture targets only).
    pub srgb: bool,
}

impl Alias {
    /// Every spelling users may type: the bare name, and the prefixed one for Vulkan and DXGI.
    pub fn spellings(&self) -> alloc::vec::Vec<alloc::string::String> {
        let mut v = alloc::vec![alloc::string::String::from(self.name)];
        if self.api != AliasApi::Short {
            v.push(alloc::format!("{}{}", self.api.prefix(), self.name));
        }
        v
    }
}

/// The alias table.
pub fn aliases() -> &'static [Alias] {
    ALIASES
}

const fn a(api: AliasApi, name: &'static str, target: &'static str) -> Alias {
    Alias { api, name, target, ty: None, srgb: false }
}

const fn typed(api: AliasApi, name: &'static str, target: &'static str, ty: ComponentType) -> Alias {
    Alias { api, name, target, ty: Some(ty), srgb: false }
}

const fn srgb(api: AliasApi, name: &'static str, target: &'static str) -> Alias {
    Alias { api, name, target, ty: None, srgb: true }
}

use AliasApi::{Dxgi as D, Short as S, Vulkan as V};

/// Vulkan, DXGI and short names, grouped by target.
static ALIASES: &[Alias] = &[
    // 128-bit
    a(V, "R32G32B32A32_SFLOAT", "color:RGBA32_FLOAT"),
    a(D, "R32G32B32A32_FLOAT", "color:RGBA32_FLOAT"),
    a(S, "RGBA32F", "color:RGBA32_FLOAT"),
    a(V, "R32G32B32A32_SINT", "color:RGBA32_SINT"),
    a(D, "R32G32B32A32_SINT", "color:RGBA32_SINT"),
    a(S, "RGBA32I", "color:RGBA32_SINT"),
    a(V, "R32G32B32A32_UINT", "color:RGBA32_UINT"),
    a(D, "R32G32B32A32_UINT", "color:RGBA32_UINT"),
    a(S, "RGBA32UI", "color:RGBA32_UINT"),
    // 96-bit (GF100+ texture 0x02)
    typed(V, "R32G32B32_SFLOAT", "tex:32_32_32", ComponentType::Float),
    typed(D, "R32G32B32_FLOAT", "tex:32_32_32", ComponentType::Float),
    typed(S, "RGB32F", "tex:32_32_32", ComponentType::Float),
    // 64-bit
    a(V, "R16G16B16A16_UNORM", "color:RGBA16_UNORM"),
    a(D, "R16G16B16A16_UNORM", "color:RGBA16_UNORM"),
    a(S, "RGBA16", "color:RGBA16_UNORM"),
    a(V, "R16G16B16A16_SNORM", "color:RGBA16_SNORM"),
    a(D, "R16G16B16A16_SNORM", "color:RGBA16_SNORM"),
    a(V, "R16G16B16A16_SINT", "color:RGBA16_SINT"),
    a(D, "R16G16B16A16_SINT", "color:RGBA16_SINT"),
    a(S, "RGBA16I", "color:RGBA16_SINT"),
    a(V, "R16G16B16A16_UINT", "color:RGBA16_UINT"),
    a(D, "R16G16B16A16_UINT", "color:RGBA16_UINT"),
    a(S, "RGBA16UI", "color:RGBA16_UINT"),
    a(V, "R16G16B16A16_SFLOAT", "color:RGBA16_FLOAT"),
    a(D, "R16G16B16A16_FLOAT", "color:RGBA16_FLOAT"),
    a(S, "RGBA16F", "color:RGBA16_FLOAT"),
    a(V, "R32G32_SFLOAT", "color:RG32_FLOAT"),
    a(D, "R32G32_FLOAT", "color:RG32_FLOAT"),
    a(S, "RG32F", "color:RG32_FLOAT"),
    a(V, "R32G32_SINT", "color:RG32_SINT"),
    a(D, "R32G32_SINT", "color:RG32_SINT"),
    a(S, "RG32I", "color:RG32_SINT"),
    a(V, "R32G32_UINT", "color:RG32_UINT"),
    a(D, "R32G32_UINT", "color:RG32_UINT"),
    a(S, "RG32UI", "color:RG32_UINT"),
    // 32-bit, 8 bits per component
    a(V, "B8G8R8A8_UNORM", "color:BGRA8_UNORM"),
    a(D, "B8G8R8A8_UNORM", "color:BGRA8_UNORM"),
    a(S, "BGRA8", "color:BGRA8_UNORM"),
    a(V, "B8G8R8A8_SRGB", "color:BGRA8_SRGB"),
    a(D, "B8G8R8A8_UNORM_SRGB", "color:BGRA8_SRGB"),
    a(D, "B8G8R8X8_UNORM", "color:BGRX8_UNORM"),
    a(S, "BGRX8", "color:BGRX8_UNORM"),
    a(D, "B8G8R8X8_UNORM_SRGB", "color:BGRX8_SRGB"),
    a(V, "R8G8B8A8_UNORM", "color:RGBA8_UNORM"),
    a(V, "A8B8G8R8_UNORM_PACK32", "color:RGBA8_UNORM"),
    a(D, "R8G8B8A8_UNORM", "color:RGBA8_UNORM"),
    a(S, "RGBA8", "color:RGBA8_UNORM"),
    a(V, "R8G8B8A8_SRGB", "color:RGBA8_SRGB"),
    a(V, "A8B8G8R8_SRGB_PACK32", "color:RGBA8_SRGB"),
    a(D, "R8G8B8A8_UNORM_SRGB", "color:RGBA8_SRGB"),
    a(S, "SRGB8_ALPHA8", "color:RGBA8_SRGB"),
    a(V, "R8G8B8A8_SNORM", "color:RGBA8_SNORM"),
    a(V, "A8B8G8R8_SNORM_PACK32", "color:RGBA8_SNORM"),
    a(D, "R8G8B8A8_SNORM", "color:RGBA8_SNORM"),
    a(V, "R8G8B8A8_SINT", "color:RGBA8_SINT"),
    a(D, "R8G8B8A8_SINT", "color:RGBA8_SINT"),
    a(S, "RGBA8I", "color:RGBA8_SINT"),
    a(V, "R8G8B8A8_UINT", "color:RGBA8_UINT"),
    a(D, "R8G8B8A8_UINT", "color:RGBA8_UINT"),
    a(S, "RGBA8UI", "color:RGBA8_UINT"),
    // 32-bit, other
    a(V, "A2B10G10R10_UNORM_PACK32", "color:RGB10_A2_UNORM"),
    a(D, "R10G10B10A2_UNORM", "color:RGB10_A2_UNORM"),
    a(S, "RGB10_A2", "color:RGB10_A2_UNORM"),
    a(V, "A2B10G10R10_UINT_PACK32", "color:RGB10_A2_UINT"),
    a(D, "R10G10B10A2_UINT", "color:RGB10_A2_UINT"),
    a(S, "RGB10_A2UI", "color:RGB10_A2_UINT"),
    a(V, "A2R10G10B10_UNORM_PACK32", "color:BGR10_A2_UNORM"),
    a(V, "B10G11R11_UFLOAT_PACK32", "color:R11G11B10_FLOAT"),
    a(S, "RG11B10F", "color:R11G11B10_FLOAT"),
    a(S, "R11F_G11F_B10F", "color:R11G11B10_FLOAT"),
    a(V, "E5B9G9R9_UFLOAT_PACK32", "tex:9_9_9_E5"),
    a(D, "R9G9B9E5_SHAREDEXP", "tex:9_9_9_E5"),
    a(S, "RGB9_E5", "tex:9_9_9_E5"),
    a(V, "R16G16_UNORM", "color:RG16_UNORM"),
    a(D, "R16G16_UNORM", "color:RG16_UNORM"),
    a(S, "RG16", "color:RG16_UNORM"),
    a(V, "R16G16_SNORM", "color:RG16_SNORM"),
    a(D, "R16G16_SNORM", "color:RG16_SNORM"),
    a(V, "R16G16_SINT", "color:RG16_SINT"),
    a(D, "R16G16_SINT", "color:RG16_SINT"),
    a(S, "RG16I", "color:RG16_SINT"),
    a(V, "R16G16_UINT", "color:RG16_UINT"),
    a(D, "R16G16_UINT", "color:RG16_UINT"),
    a(S, "RG16UI", "color:RG16_UINT"),
    a(V, "R16G16_SFLOAT", "color:RG16_FLOAT"),
    a(D, "R16G16_FLOAT", "color:RG16_FLOAT"),
    a(S, "RG16F", "color:RG16_FLOAT"),
    a(V, "R32_SFLOAT", "color:R32_FLOAT"),
    a(S, "R32F", "color:R32_FLOAT"),
    a(S, "R32I", "color:R32_SINT"),
    a(S, "R32UI", "color:R32_UINT"),
    // 16-bit
    a(V, "R5G6B5_UNORM_PACK16", "color:B5G6R5_UNORM"),
    a(S, "RGB565", "color:B5G6R5_UNORM"),
    a(V, "A1R5G5B5_UNORM_PACK16", "color:BGR5_A1_UNORM"),
    a(D, "B5G5R5A1_UNORM", "color:BGR5_A1_UNORM"),
    a(S, "RGB5_A1", "color:BGR5_A1_UNORM"),
    a(V, "R8G8_UNORM", "color:RG8_UNORM"),
    a(D, "R8G8_UNORM", "color:RG8_UNORM"),
    a(S, "RG8", "color:RG8_UNORM"),
    a(V, "R8G8_SNORM", "color:RG8_SNORM"),
    a(D, "R8G8_SNORM", "color:RG8_SNORM"),
    a(V, "R8G8_SINT", "color:RG8_SINT"),
    a(D, "R8G8_SINT", "color:RG8_SINT"),
    a(S, "RG8I", "color:RG8_SINT"),
    a(V, "R8G8_UINT", "color:RG8_UINT"),
    a(D, "R8G8_UINT", "color:RG8_UINT"),
    a(S, "RG8UI", "color:RG8_UINT"),
    a(V, "R16_SFLOAT", "color:R16_FLOAT"),
    a(S, "R16F", "color:R16_FLOAT"),
    a(S, "R16I", "color:R16_SINT"),
    a(S, "R16UI", "color:R16_UINT"),
    // 8-bit
    a(S, "R8I", "color:R8_SINT"),
    a(S, "R8UI", "color:R8_UINT"),
    a(V, "A8_UNORM_KHR", "color:A8_UNORM"),
    // YUV 4:2:2 (bytes U Y V Y and Y U Y V)
    a(V, "B8G8R8G8_422_UNORM", "tex:U8_YA8_V8_YB8"),
    a(V, "G8B8G8R8_422_UNORM", "tex:YA8_U8_YB8_V8"),
    a(D, "YUY2", "tex:YA8_U8_YB8_V8"),
    // Depth and stencil (Mesa nil: Z24_UNORM_S8_UINT is S8Z24, X8Z24_UNORM is X8Z24)
    a(V, "D32_SFLOAT", "zeta:Z32"),
    a(D, "D32_FLOAT", "zeta:Z32"),
    a(S, "D32F", "zeta:Z32"),
    a(S, "DEPTH_COMPONENT32F", "zeta:Z32"),
    a(V, "D16_UNORM", "Z16"),
    a(D, "D16_UNORM", "Z16"),
    a(S, "D16", "Z16"),
    a(S, "DEPTH_COMPONENT16", "Z16"),
    a(V, "D24_UNORM_S8_UINT", "zeta:Z24_S8"),
    a(D, "D24_UNORM_S8_UINT", "zeta:Z24_S8"),
    a(S, "D24S8", "zeta:Z24_S8"),
    a(S, "DEPTH24_STENCIL8", "zeta:Z24_S8"),
    a(V, "X8_D24_UNORM_PACK32", "zeta:Z24_X8"),
    a(V, "D32_SFLOAT_S8_UINT", "zeta:Z32_S8_X24"),
    a(D, "D32_FLOAT_S8X24_UINT", "zeta:Z32_S8_X24"),
    a(S, "DEPTH32F_STENCIL8", "zeta:Z32_S8_X24"),
    // BC (texture formats; the types and sRGB the name says)
    a(V, "BC1_RGBA_UNORM_BLOCK", "tex:DXT1"),
    a(D, "BC1_UNORM", "tex:DXT1"),
    srgb(V, "BC1_RGBA_SRGB_BLOCK", "tex:DXT1"),
    srgb(D, "BC1_UNORM_SRGB", "tex:DXT1"),
    a(V, "BC2_UNORM_BLOCK", "tex:DXT3"),
    a(D, "BC2_UNORM", "tex:DXT3"),
    srgb(V, "BC2_SRGB_BLOCK", "tex:DXT3"),
    srgb(D, "BC2_UNORM_SRGB", "tex:DXT3"),
    a(V, "BC3_UNORM_BLOCK", "tex:DXT5"),
    a(D, "BC3_UNORM", "tex:DXT5"),
    srgb(V, "BC3_SRGB_BLOCK", "tex:DXT5"),
    srgb(D, "BC3_UNORM_SRGB", "tex:DXT5"),
    a(V, "BC4_UNORM_BLOCK", "tex:RGTC1"),
    a(D, "BC4_UNORM", "tex:RGTC1"),
    typed(V, "BC4_SNORM_BLOCK", "tex:RGTC1", ComponentType::Snorm),
    typed(D, "BC4_SNORM", "tex:RGTC1", ComponentType::Snorm),
    a(V, "BC5_UNORM_BLOCK", "tex:RGTC2"),
    a(D, "BC5_UNORM", "tex:RGTC2"),
    typed(V, "BC5_SNORM_BLOCK", "tex:RGTC2", ComponentType::Snorm),
    typed(D, "BC5_SNORM", "tex:RGTC2", ComponentType::Snorm),
    a(V, "BC6H_SFLOAT_BLOCK", "tex:BPTC_FLOAT"),
    a(D, "BC6H_SF16", "tex:BPTC_FLOAT"),
    a(V, "BC6H_UFLOAT_BLOCK", "tex:BPTC_UFLOAT"),
    a(D, "BC6H_UF16", "tex:BPTC_UFLOAT"),
    a(V, "BC7_UNORM_BLOCK", "tex:BPTC"),
    a(D, "BC7_UNORM", "tex:BPTC"),
    srgb(V, "BC7_SRGB_BLOCK", "tex:BPTC"),
    srgb(D, "BC7_UNORM_SRGB", "tex:BPTC"),
    // ETC2/EAC (Maxwell+): Vulkan names (`VkFormat`, Vulkan specification) and the OpenGL ES 3.0
    // sized names (`GL_COMPRESSED_RGB8_ETC2`, ...; OpenGL ES 3.0 specification, table 3.19).
    a(V, "ETC2_R8G8B8_UNORM_BLOCK", "tex:ETC2_RGB"),
    srgb(V, "ETC2_R8G8B8_SRGB_BLOCK", "tex:ETC2_RGB"),
    a(V, "ETC2_R8G8B8A1_UNORM_BLOCK", "tex:ETC2_RGB_PTA"),
    srgb(V, "ETC2_R8G8B8A1_SRGB_BLOCK", "tex:ETC2_RGB_PTA"),
    a(V, "ETC2_R8G8B8A8_UNORM_BLOCK", "tex:ETC2_RGBA"),
    srgb(V, "ETC2_R8G8B8A8_SRGB_BLOCK", "tex:ETC2_RGBA"),
    a(V, "EAC_R11_UNORM_BLOCK", "tex:EAC"),
    typed(V, "EAC_R11_SNORM_BLOCK", "tex:EAC", ComponentType::Snorm),
    a(V, "EAC_R11G11_UNORM_BLOCK", "tex:EACX2"),
    typed(V, "EAC_R11G11_SNORM_BLOCK", "tex:EACX2", ComponentType::Snorm),
    a(S, "RGB8_ETC2", "tex:ETC2_RGB"),
    srgb(S, "SRGB8_ETC2", "tex:ETC2_RGB"),
    a(S, "RGB8_PUNCHTHROUGH_ALPHA1_ETC2", "tex:ETC2_RGB_PTA"),
    a(S, "RGBA8_ETC2_EAC", "tex:ETC2_RGBA"),
    srgb(S, "SRGB8_ALPHA8_ETC2_EAC", "tex:ETC2_RGBA"),
    a(S, "R11_EAC", "tex:EAC"),
    typed(S, "SIGNED_R11_EAC", "tex:EAC", ComponentType::Snorm),
    a(S, "RG11_EAC", "tex:EACX2"),
    typed(S, "SIGNED_RG11_EAC", "tex:EACX2", ComponentType::Snorm),
    // ASTC (Maxwell+ rows named `astc_WxH`; skipped while the catalogue lacks them)
    a(S, "ASTC_4x4", "astc_4x4"),
    a(V, "ASTC_4x4_UNORM_BLOCK", "astc_4x4"),
    srgb(V, "ASTC_4x4_SRGB_BLOCK", "astc_4x4"),
    a(S, "ASTC_5x4", "astc_5x4"),
    a(V, "ASTC_5x4_UNORM_BLOCK", "astc_5x4"),
    srgb(V, "ASTC_5x4_SRGB_BLOCK", "astc_5x4"),
    a(S, "ASTC_5x5", "astc_5x5"),
    a(V, "ASTC_5x5_UNORM_BLOCK", "astc_5x5"),
    srgb(V, "ASTC_5x5_SRGB_BLOCK", "astc_5x5"),
    a(S, "ASTC_6x5", "astc_6x5"),
    a(V, "ASTC_6x5_UNORM_BLOCK", "astc_6x5"),
    srgb(V, "ASTC_6x5_SRGB_BLOCK", "astc_6x5"),
    a(S, "ASTC_6x6", "astc_6x6"),
    a(V, "ASTC_6x6_UNORM_BLOCK", "astc_6x6"),
    srgb(V, "ASTC_6x6_SRGB_BLOCK", "astc_6x6"),
    a(S, "ASTC_8x5", "astc_8x5"),
    a(V, "ASTC_8x5_UNORM_BLOCK", "astc_8x5"),
    srgb(V, "ASTC_8x5_SRGB_BLOCK", "astc_8x5"),
    a(S, "ASTC_8x6", "astc_8x6"),
    a(V, "ASTC_8x6_UNORM_BLOCK", "astc_8x6"),
    srgb(V, "ASTC_8x6_SRGB_BLOCK", "astc_8x6"),
    a(S, "ASTC_8x8", "astc_8x8"),
    a(V, "ASTC_8x8_UNORM_BLOCK", "astc_8x8"),
    srgb(V, "ASTC_8x8_SRGB_BLOCK", "astc_8x8"),
    a(S, "ASTC_10x5", "astc_10x5"),
    a(V, "ASTC_10x5_UNORM_BLOCK", "astc_10x5"),
    srgb(V, "ASTC_10x5_SRGB_BLOCK", "astc_10x5"),
    a(S, "ASTC_10x6", "astc_10x6"),
    a(V, "ASTC_10x6_UNORM_BLOCK", "astc_10x6"),
    srgb(V, "ASTC_10x6_SRGB_BLOCK", "astc_10x6"),
    a(S, "ASTC_10x8", "astc_10x8"),
    a(V, "ASTC_10x8_UNORM_BLOCK", "astc_10x8"),
    srgb(V, "ASTC_10x8_SRGB_BLOCK", "astc_10x8"),
    a(S, "ASTC_10x10", "astc_10x10"),
    a(V, "ASTC_10x10_UNORM_BLOCK", "astc_10x10"),
    srgb(V, "ASTC_10x10_SRGB_BLOCK", "astc_10x10"),
    a(S, "ASTC_12x10", "astc_12x10"),
    a(V, "ASTC_12x10_UNORM_BLOCK", "astc_12x10"),
    srgb(V, "ASTC_12x10_SRGB_BLOCK", "astc_12x10"),
    a(S, "ASTC_12x12", "astc_12x12"),
    a(V, "ASTC_12x12_UNORM_BLOCK", "astc_12x12"),
    srgb(V, "ASTC_12x12_SRGB_BLOCK", "astc_12x12"),
];
