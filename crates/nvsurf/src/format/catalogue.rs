//! The format catalogue: the three tables of the G80+ GPUs (texture, color and zeta formats),
//! their row types, and every name a row answers to (documents' LSB-first names, rnndb names,
//! NVIDIA's MSB-first names, aliases). The rows are data, below the row types.
//!
//! Sources of the rows, in order of authority (see `docs/ERRATA.md` for why):
//! - envytools `docs/hw/memory/g80-surface.rst` ("G80 surface formats"), section "Surface formats" and its subsections: ids, element
//!   sizes, LSB-first bitfield names, the color-format component assignments and types.
//! - `docs/ERRATA.md` E1 (0x21 is 11_11_10 only; YUV formats are 0x22/0x23), E2 (zeta 0x15 -> texture
//!   0x2a, zeta 0x16 -> texture 0x2b), E4 (color 0xec is RG8 sint, 0xed RG8 uint) and
//!   "Answers" (compressed ids 0x24-0x28, 0x10/0x11/0x17 on GF100+, 0x02, 0x1c Y8_VIDEO, 0x3a Z16,
//!   MS8_CS24 texture formats 0x3b-0x3e, color 0x1c Y1_8X8 and 0x1d AY8).
//! - envytools `rnndb/graph/g80_texture.xml` (TIC FMT enum: the `rnndb` names and the
//!   `variants="GF100-"` generations) and `rnndb/g80_defs.xml` (`G80_SURFACE_FORMAT`,
//!   `G80_ZETA_FORMAT` names; `Z16_UNORM` is `G200-`).
//! - NVIDIA open-gpu-doc class headers: the MSB-first `nvidia` names come from
//!   `cl9097tex.h`/`clcd97tex.h` (`TEXHEAD*_COMPONENT_SIZES_*`, same values across classes) and
//!   `cl9097.h`/`clc797.h` (`SET_COLOR_TARGET_FORMAT_V_*`, `SET_ZT_FORMAT_V_*`), and the 2D-engine
//!   names `Y1_8X8`/`AY8` from `cl902d.h` (as quoted by `docs/ERRATA.md` "Answers").
//! - ETC2/EAC (0x06, 0x0a, 0x0b, 0x19, 0x1a) and ASTC 2D (0x40-0x46, 0x50-0x57): NVIDIA
//!   open-gpu-doc `classes/3d/clcd97tex.h` (`NVCD97_TEXHEAD_V2_BL_COMPONENTS_SIZES_ETC2_*`,
//!   `_EAC`, `_EACX2`, `_ASTC_2D_*`; the same values as Maxwell's `clb097tex.h`
//!   `NVB097_TEXHEAD_BL_COMPONENTS_SIZES_*`, which Mesa `src/nouveau/nil/nil_format.c` uses for
//!   these rows). The pre-Maxwell headers (`cl9097tex.h`) have none of them, so they are
//!   `GM107+` here (Maxwell, incl. GM20B / Tegra X1); see `docs/formats/astc-etc2.md`.

use super::element_layout::{Layout, ZType, ZetaLayout};
use crate::codec::{Bc, ComponentType, ComponentType as T};
use crate::gpu::Gpu;
use alloc::vec::Vec;

/// The three format enums of the G80+ GPUs (document, "Surface formats").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Texture format (TIC): element size and bitfield layout only.
    Texture,
    /// Color format (render targets, 2D engine): the full format.
    Color,
    /// Zeta format (depth/stencil render target).
    Zeta,
}

impl Kind {
    /// Lower-case name as used in `tex:`-style prefixes and JSON (`texture`, `color`, `zeta`).
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Texture => "texture",
            Kind::Color => "color",
            Kind::Zeta => "zeta",
        }
    }
}

/// One row of the texture format table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextureFormat {
    /// TIC format id.
    pub id: u8,
    /// The documents' name (bitfields LSB first).
    pub name: &'static str,
    /// The rnndb name (`g80_texture.xml`), empty if rnndb lacks the id.
    pub rnndb: &'static str,
    /// NVIDIA's name (`cl9097tex.h` `COMPONENT_SIZES_*`, MSB first).
    pub nvidia: &'static str,
    /// Other accepted names.
    pub aliases: &'static [&'static str],
    /// Element size in bytes.
    pub elem_size_bytes: u8,
    /// Bitfield layout.
    pub layout: Layout,
    /// First generation that has it (`None`: all G80+).
    pub since: Option<Gpu>,
}

/// One row of the color format table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ColorFormat {
    /// Color format id.
    pub id: u8,
    /// The rnndb name (`g80_defs.xml` `G80_SURFACE_FORMAT`).
    pub rnndb: &'static str,
    /// NVIDIA's name (`cl9097.h` `SET_COLOR_TARGET_FORMAT_V_*`, MSB first).
    pub nvidia: &'static str,
    /// Other accepted names.
    pub aliases: &'static [&'static str],
    /// The texture format with the same layout.
    pub texture_id: u8,
    /// What C0, C1, ... carry: letters R, G, B, A, X (unused), Y (copied to all).
    pub assign: &'static str,
    /// Component type of every component.
    pub ty: ComponentType,
    /// sRGB encoded R, G, B.
    pub srgb: bool,
    /// X bits are written as ones (NVIDIA `O...` formats) rather than zeros.
    pub x_ones: bool,
}

/// One row of the zeta format table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ZetaFormat {
    /// Zeta format id.
    pub id: u8,
    /// The documents' name.
    pub name: &'static str,
    /// The rnndb name (`g80_defs.xml` `G80_ZETA_FORMAT`).
    pub rnndb: &'static str,
    /// NVIDIA's name (`cl9097.h` `SET_ZT_FORMAT_V_*`).
    pub nvidia: &'static str,
    /// Other accepted names.
    pub aliases: &'static [&'static str],
    /// Texture format per coverage mode (`""` when the format has no coverage).
    pub textures: &'static [(&'static str, u8)],
    /// First generation that has it.
    pub since: Option<Gpu>,
}

/// The texture format table, ordered by id.
pub fn texture_formats() -> &'static [TextureFormat] {
    TEXTURE_FORMATS
}

/// The color format table, ordered by id.
pub fn color_formats() -> &'static [ColorFormat] {
    COLOR_FORMATS
}

/// The zeta format table, ordered by id.
pub fn zeta_formats() -> &'static [ZetaFormat] {
    ZETA_FORMATS
}

/// The texture format with TIC id `id`.
pub fn texture_format(id: u8) -> Option<&'static TextureFormat> {
    TEXTURE_FORMATS.iter().find(|t| t.id == id)
}

fn push_unique(v: &mut Vec<&'static str>, n: &'static str) {
    if !n.is_empty() && !v.iter().any(|x| x.eq_ignore_ascii_case(n)) {
        v.push(n);
    }
}

impl TextureFormat {
    /// Every name of this format, canonical first, without duplicates.
    pub fn names(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        for n in [self.name, self.rnndb, self.nvidia].iter().chain(self.aliases) {
            push_unique(&mut v, n);
        }
        v
    }
}

impl ColorFormat {
    /// Every name of this format, canonical (rnndb) first.
    pub fn names(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        for n in [self.rnndb, self.nvidia].iter().chain(self.aliases) {
            push_unique(&mut v, n);
        }
        v
    }

    /// The texture format this color format maps to.
    pub fn texture(&self) -> &'static TextureFormat {
        // Every color row names a texture id present in the table (checked by a unit test).
        texture_format(self.texture_id).unwrap_or(&TEXTURE_FORMATS[0])
    }
}

impl ZetaFormat {
    /// Every name of this format, canonical (documents) first.
    pub fn names(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        for n in [self.name, self.rnndb, self.nvidia].iter().chain(self.aliases) {
            push_unique(&mut v, n);
        }
        v
    }

    /// The texture format for the first (or only) coverage mode; all share one layout.
    pub fn texture(&self) -> &'static TextureFormat {
        texture_format(self.textures[0].1).unwrap_or(&TEXTURE_FORMATS[0])
    }
}

/// Every accepted bare name (all kinds), for suggestions and listings.
pub fn all_names() -> Vec<&'static str> {
    let mut v = Vec::new();
    for t in texture_formats() {
        v.extend(t.names());
    }
    for z in zeta_formats() {
        v.extend(z.names());
    }
    for c in color_formats() {
        v.extend(c.names());
    }
    v
}

/// Every name of every row of the table of `kind`, for suggestions.
pub(super) fn kind_names(kind: Kind) -> Vec<&'static str> {
    let mut v = Vec::new();
    match kind {
        Kind::Texture => texture_formats().iter().for_each(|t| v.extend(t.names())),
        Kind::Color => color_formats().iter().for_each(|t| v.extend(t.names())),
        Kind::Zeta => zeta_formats().iter().for_each(|t| v.extend(t.names())),
    }
    v
}

// ---------------------------------------------------------------------------------------------
// The rows
// ---------------------------------------------------------------------------------------------

const fn simple(bits: &'static [u8]) -> Layout {
    Layout::Simple(bits)
}

const fn zeta(z_lo: u8, z: ZType, s_lo: Option<u8>, c_lo: Option<u8>) -> Layout {
    Layout::Zeta(ZetaLayout { z_lo, z, s_lo, c_lo })
}

macro_rules! tex {
    ($id:literal, $name:literal, $rnn:literal, $nv:literal, [$($a:literal),*], $size:literal,
     $layout:expr, $since:expr) => {
        TextureFormat {
            id: $id,
            name: $name,
            rnndb: $rnn,
            nvidia: $nv,
            aliases: &[$($a),*],
            elem_size_bytes: $size,
            layout: $layout,
            since: $since,
        }
    };
}

const U24: ZType = ZType::Unorm24;
/// The first generation with the ETC2/EAC and ASTC texture formats (module docs).
const MAXWELL: Gpu = Gpu::Gm107;

const fn astc(w: u8, h: u8) -> Layout {
    Layout::Compressed(Bc::Astc { w, h })
}
const F32: ZType = ZType::Float32;

/// Every texture format id (TIC FMT), ordered by id.
pub(crate) static TEXTURE_FORMATS: &[TextureFormat] = &[
    tex!(0x01, "32_32_32_32", "32_32_32_32", "R32_G32_B32_A32", [], 16, simple(&[32, 32, 32, 32]), None),
    // rnndb: variants="GF100-"; `docs/ERRATA.md` "Answers": 12 B, GF100+.
    tex!(0x02, "32_32_32", "32_32_32", "R32_G32_B32", [], 12, simple(&[32, 32, 32]), Some(Gpu::Gf100)),
    tex!(0x03, "16_16_16_16", "16_16_16_16", "R16_G16_B16_A16", [], 8, simple(&[16, 16, 16, 16]), None),
    tex!(0x04, "32_32", "32_32", "R32_G32", [], 8, simple(&[32, 32]), None),
    tex!(0x05, "32_8_X24", "32_8_X24", "R32_B24G8", [], 8, simple(&[32, 8]), None),
    // open-gpu-doc `clcd97tex.h` COMPONENTS_SIZES_ETC2_RGB; Maxwell+ (module docs).
    tex!(0x06, "ETC2_RGB", "", "ETC2_RGB", ["etc2_rgb8", "etc2"], 8, Layout::Compressed(Bc::Etc2Rgb), Some(MAXWELL)),
    // In the document, absent from rnndb's FMT list.
    tex!(0x07, "8_8_8_X8", "", "X8B8G8R8", [], 4, simple(&[8, 8, 8]), None),
    tex!(0x08, "8_8_8_8", "8_8_8_8", "A8B8G8R8", [], 4, simple(&[8, 8, 8, 8]), None),
    tex!(0x09, "10_10_10_2", "10_10_10_2", "A2B10G10R10", [], 4, simple(&[10, 10, 10, 2]), None),
    // open-gpu-doc `clcd97tex.h` COMPONENTS_SIZES_ETC2_RGB_PTA (punch-through alpha) and
    // ETC2_RGBA (an EAC alpha block, then ETC2 RGB); Maxwell+.
    tex!(
        0x0a,
        "ETC2_RGB_PTA",
        "",
        "ETC2_RGB_PTA",
        ["etc2_rgb8a1", "etc2_rgb8_a1"],
        8,
        Layout::Compressed(Bc::Etc2RgbA1),
        Some(MAXWELL)
    ),
    tex!(
        0x0b,
        "ETC2_RGBA",
        "",
        "ETC2_RGBA",
        ["etc2_rgba8", "etc2_eac"],
        16,
        Layout::Compressed(Bc::Etc2Rgba),
        Some(MAXWELL)
    ),
    tex!(0x0c, "16_16", "16_16", "R16_G16", [], 4, simple(&[16, 16]), None),
    tex!(0x0d, "24_8", "24_8", "G8R24", [], 4, simple(&[24, 8]), None),
    tex!(0x0e, "8_24", "8_24", "G24R8", [], 4, simple(&[8, 24]), None),
    tex!(0x0f, "32", "32", "R32", [], 4, simple(&[32]), None),
    // `docs/ERRATA.md` "Answers": BC6H signed (0x10) / unsigned (0x11) float, GF100+ (rnndb GF100-).
    tex!(
        0x10,
        "BPTC_FLOAT",
        "BPTC_FLOAT",
        "BC6H_SF16",
        ["bc6h_sf", "bc6h_sf16", "bc6hs"],
        16,
        Layout::Compressed(Bc::Bc6hSigned),
        Some(Gpu::Gf100)
    ),
    tex!(
        0x11,
        "BPTC_UFLOAT",
        "BPTC_UFLOAT",
        "BC6H_UF16",
        ["bc6h", "bc6h_uf", "bc6h_uf16", "bc6hu"],
        16,
        Layout::Compressed(Bc::Bc6hUnsigned),
        Some(Gpu::Gf100)
    ),
    tex!(0x12, "4_4_4_4", "4_4_4_4", "A4B4G4R4", [], 2, simple(&[4, 4, 4, 4]), None),
    tex!(0x13, "1_5_5_5", "1_5_5_5", "A5B5G5R1", [], 2, simple(&[1, 5, 5, 5]), None),
    tex!(0x14, "5_5_5_1", "5_5_5_1", "A1B5G5R5", [], 2, simple(&[5, 5, 5, 1]), None),
    tex!(0x15, "5_6_5", "5_6_5", "B5G6R5", [], 2, simple(&[5, 6, 5]), None),
    tex!(0x16, "5_5_6", "5_5_6", "B6G5R5", [], 2, simple(&[5, 5, 6]), None),
    // `docs/ERRATA.md` "Answers": BC7, 16 B, GF100+ (rnndb "BPTC", GF100-).
    tex!(0x17, "BPTC", "BPTC", "BC7U", ["bc7", "bc7_unorm"], 16, Layout::Compressed(Bc::Bc7), Some(Gpu::Gf100)),
    tex!(0x18, "8_8", "8_8", "G8R8", [], 2, simple(&[8, 8]), None),
    // open-gpu-doc `clcd97tex.h` COMPONENTS_SIZES_EAC (R11) and EACX2 (RG11); Maxwell+.
    tex!(0x19, "EAC", "", "EAC", ["eac_r11", "etc2_r11"], 8, Layout::Compressed(Bc::EacR11), Some(MAXWELL)),
    tex!(0x1a, "EACX2", "", "EACX2", ["eac_rg11", "etc2_rg11"], 16, Layout::Compressed(Bc::EacRg11), Some(MAXWELL)),
    tex!(0x1b, "16", "16", "R16", [], 2, simple(&[16]), None),
    // `docs/ERRATA.md` "Answers": 0x1c Y8_VIDEO (1 B). Not in rnndb; the generation it appeared in is
    // not documented, so no lower bound is enforced.
    tex!(0x1c, "Y8_VIDEO", "", "Y8_VIDEO", [], 1, simple(&[8]), None),
    tex!(0x1d, "8", "8", "R8", [], 1, simple(&[8]), None),
    tex!(0x1e, "4_4", "4_4", "G4R4", [], 1, simple(&[4, 4]), None),
    // rnndb TSC doc calls it BITMAP_8X8.
    tex!(0x1f, "BITMAP", "BITMAP", "R1", ["bitmap_8x8"], 8, Layout::Bitmap, None),
    tex!(0x20, "9_9_9_E5", "9_9_9_E5", "E5B9G9R9_SHAREDEXP", ["rgb9e5"], 4, Layout::SharedExp, None),
    // `docs/ERRATA.md` E1: 0x21 is 11_11_10 only.
    tex!(0x21, "11_11_10", "11_11_10", "BF10GF11RF11", ["r11g11b10"], 4, simple(&[11, 11, 10]), None),
    // `docs/ERRATA.md` E1: the YUV ids are 0x22 (UYVY byte order) and 0x23 (YUY2 byte order).
    tex!(
        0x22,
        "U8_YA8_V8_YB8",
        "U8_YA8_V8_YB8",
        "G8B8G8R8",
        ["uyvy"],
        4,
        Layout::Yuv { u: 0, ya: 1, v: 2, yb: 3 },
        None
    ),
    tex!(
        0x23,
        "YA8_U8_YB8_V8",
        "YA8_U8_YB8_V8",
        "B8G8R8G8",
        ["yuy2", "yuyv"],
        4,
        Layout::Yuv { ya: 0, u: 1, yb: 2, v: 3 },
        None
    ),
    // `docs/ERRATA.md` "Answers": compressed 4x4 formats.
    tex!(0x24, "DXT1", "DXT1", "DXT1", ["bc1"], 8, Layout::Compressed(Bc::Bc1), None),
    tex!(0x25, "DXT3", "DXT3", "DXT23", ["bc2", "dxt2"], 16, Layout::Compressed(Bc::Bc2), None),
    tex!(0x26, "DXT5", "DXT5", "DXT45", ["bc3", "dxt4"], 16, Layout::Compressed(Bc::Bc3), None),
    tex!(0x27, "RGTC1", "RGTC1", "DXN1", ["bc4", "ati1"], 8, Layout::Compressed(Bc::Bc4), None),
    tex!(0x28, "RGTC2", "RGTC2", "DXN2", ["bc5", "ati2"], 16, Layout::Compressed(Bc::Bc5), None),
    // Zeta texture formats: Z is C0, S is C1, C is C2 (document, "Zeta surface format").
    tex!(0x29, "S8_Z24", "S8_Z24", "Z24S8", [], 4, zeta(8, U24, Some(0), None), None),
    tex!(0x2a, "Z24_X8", "Z24_X8", "X8Z24", [], 4, zeta(0, U24, None, None), None),
    tex!(0x2b, "Z24_S8", "Z24_S8", "S8Z24", [], 4, zeta(0, U24, Some(24), None), None),
    tex!(0x2c, "Z24_C8_MS4_CS4", "Z24_C8_MS4_CS4", "X4V4Z24__COV4R4V", [], 4, zeta(0, U24, None, Some(24)), None),
    tex!(0x2d, "Z24_C8_MS8_CS8", "Z24_C8_MS8_CS8", "X4V4Z24__COV8R8V", [], 4, zeta(0, U24, None, Some(24)), None),
    tex!(0x2e, "Z24_C8_MS4_CS12", "Z24_C8_MS4_CS12", "V8Z24__COV4R12V", [], 4, zeta(0, U24, None, Some(24)), None),
    tex!(0x2f, "Z32", "Z32", "ZF32", [], 4, zeta(0, F32, None, None), None),
    tex!(0x30, "Z32_S8_X24", "Z32_S8_X24", "ZF32_X24S8", [], 8, zeta(0, F32, Some(32), None), None),
    tex!(
        0x31,
        "Z24_X8_S8_C8_X16_MS4_CS4",
        "Z24_X8_S8_C8_X16_MS4_CS4",
        "X8Z24_X20V4S8__COV4R4V",
        [],
        8,
        zeta(0, U24, Some(32), Some(40)),
        None
    ),
    tex!(
        0x32,
        "Z24_X8_S8_C8_X16_MS8_CS8",
        "Z24_X8_S8_C8_X16_MS8_CS8",
        "X8Z24_X20V4S8__COV8R8V",
        [],
        8,
        zeta(0, U24, Some(32), Some(40)),
        None
    ),
    tex!(
        0x33,
        "Z32_X8_C8_X16_MS4_CS4",
        "Z32_X8_C8_X16_MS4_CS4",
        "ZF32_X20V4X8__COV4R4V",
        [],
        8,
        zeta(0, F32, None, Some(40)),
        None
    ),
    tex!(
        0x34,
        "Z32_X8_C8_X16_MS8_CS8",
        "Z32_X8_C8_X16_MS8_CS8",
        "ZF32_X20V4X8__COV8R8V",
        [],
        8,
        zeta(0, F32, None, Some(40)),
        None
    ),
    tex!(
        0x35,
        "Z32_S8_C8_X16_MS4_CS4",
        "Z32_S8_C8_X16_MS4_CS4",
        "ZF32_X20V4S8__COV4R4V",
        [],
        8,
        zeta(0, F32, Some(32), Some(40)),
        None
    ),
    tex!(
        0x36,
        "Z32_S8_C8_X16_MS8_CS8",
        "Z32_S8_C8_X16_MS8_CS8",
        "ZF32_X20V4S8__COV8R8V",
        [],
        8,
        zeta(0, F32, Some(32), Some(40)),
        None
    ),
    tex!(
        0x37,
        "Z24_X8_S8_C8_X16_MS4_CS12",
        "Z24_X8_S8_C8_X16_MS4_CS12",
        "X8Z24_X16V8S8__COV4R12V",
        [],
        8,
        zeta(0, U24, Some(32), Some(40)),
        None
    ),
    tex!(
        0x38,
        "Z32_X8_C8_X16_MS4_CS12",
        "Z32_X8_C8_X16_MS4_CS12",
        "ZF32_X16V8X8__COV4R12V",
        [],
        8,
        zeta(0, F32, None, Some(40)),
        None
    ),
    tex!(
        0x39,
        "Z32_S8_C8_X16_MS4_CS12",
        "Z32_S8_C8_X16_MS4_CS12",
        "ZF32_X16V8S8__COV4R12V",
        [],
        8,
        zeta(0, F32, Some(32), Some(40)),
        None
    ),
    // Document: Z16 is G200+ (rnndb Z16_UNORM variants="G200-").
    tex!(0x3a, "Z16", "Z16", "Z16", [], 2, zeta(0, ZType::Unorm16, None, None), Some(Gpu::G200)),
    // `docs/ERRATA.md` "Answers": the MS8_CS24 texture formats (mode 0xb is GF100+ per rnndb
    // g80_msaa_mode). Not in rnndb's FMT list; names follow the document's pattern.
    tex!(0x3b, "Z24_C8_MS8_CS24", "", "V8Z24__COV8R24V", [], 4, zeta(0, U24, None, Some(24)), Some(Gpu::Gf100)),
    tex!(
        0x3c,
        "Z24_X8_S8_C8_X16_MS8_CS24",
        "",
        "X8Z24_X16V8S8__COV8R24V",
        [],
        8,
        zeta(0, U24, Some(32), Some(40)),
        Some(Gpu::Gf100)
    ),
    tex!(
        0x3d,
        "Z32_X8_C8_X16_MS8_CS24",
        "",
        "ZF32_X16V8X8__COV8R24V",
        [],
        8,
        zeta(0, F32, None, Some(40)),
        Some(Gpu::Gf100)
    ),
    tex!(
        0x3e,
        "Z32_S8_C8_X16_MS8_CS24",
        "",
        "ZF32_X16V8S8__COV8R24V",
        [],
        8,
        zeta(0, F32, Some(32), Some(40)),
        Some(Gpu::Gf100)
    ),
    // open-gpu-doc `clcd97tex.h` COMPONENTS_SIZES_ASTC_2D_<W>X<H> (16-byte blocks, LDR; sRGB is the
    // header's S_R_G_B_CONVERSION bit, so `astc_8x8_srgb` is this row with sRGB on); Maxwell+.
    tex!(0x40, "ASTC_2D_4X4", "", "ASTC_2D_4X4", ["astc_4x4"], 16, astc(4, 4), Some(MAXWELL)),
    tex!(0x41, "ASTC_2D_5X5", "", "ASTC_2D_5X5", ["astc_5x5"], 16, astc(5, 5), Some(MAXWELL)),
    tex!(0x42, "ASTC_2D_6X6", "", "ASTC_2D_6X6", ["astc_6x6"], 16, astc(6, 6), Some(MAXWELL)),
    tex!(0x44, "ASTC_2D_8X8", "", "ASTC_2D_8X8", ["astc_8x8"], 16, astc(8, 8), Some(MAXWELL)),
    tex!(0x45, "ASTC_2D_10X10", "", "ASTC_2D_10X10", ["astc_10x10"], 16, astc(10, 10), Some(MAXWELL)),
    tex!(0x46, "ASTC_2D_12X12", "", "ASTC_2D_12X12", ["astc_12x12"], 16, astc(12, 12), Some(MAXWELL)),
    tex!(0x50, "ASTC_2D_5X4", "", "ASTC_2D_5X4", ["astc_5x4"], 16, astc(5, 4), Some(MAXWELL)),
    tex!(0x51, "ASTC_2D_6X5", "", "ASTC_2D_6X5", ["astc_6x5"], 16, astc(6, 5), Some(MAXWELL)),
    tex!(0x52, "ASTC_2D_8X6", "", "ASTC_2D_8X6", ["astc_8x6"], 16, astc(8, 6), Some(MAXWELL)),
    tex!(0x53, "ASTC_2D_10X8", "", "ASTC_2D_10X8", ["astc_10x8"], 16, astc(10, 8), Some(MAXWELL)),
    tex!(0x54, "ASTC_2D_12X10", "", "ASTC_2D_12X10", ["astc_12x10"], 16, astc(12, 10), Some(MAXWELL)),
    tex!(0x55, "ASTC_2D_8X5", "", "ASTC_2D_8X5", ["astc_8x5"], 16, astc(8, 5), Some(MAXWELL)),
    tex!(0x56, "ASTC_2D_10X5", "", "ASTC_2D_10X5", ["astc_10x5"], 16, astc(10, 5), Some(MAXWELL)),
    tex!(0x57, "ASTC_2D_10X6", "", "ASTC_2D_10X6", ["astc_10x6"], 16, astc(10, 6), Some(MAXWELL)),
];

macro_rules! color {
    ($id:literal, $rnn:literal, $nv:literal, [$($a:literal),*], $tex:literal, $assign:literal, $ty:ident,
     $srgb:literal, $ones:literal) => {
        ColorFormat {
            id: $id,
            rnndb: $rnn,
            nvidia: $nv,
            aliases: &[$($a),*],
            texture_id: $tex,
            assign: $assign,
            ty: T::$ty,
            srgb: $srgb,
            x_ones: $ones,
        }
    };
}

/// Every color (render target / 2D engine) format id, ordered by id.
///
/// `assign` lists what C0, C1, ... carry (R, G, B, A, X = unused, Y = copied to all components
/// on read, filled from R on write), exactly as the document's per-format lines.
pub(crate) static COLOR_FORMATS: &[ColorFormat] = &[
    // `docs/ERRATA.md` "Answers": 0x1c is the bitmap format Y1_8X8 (NVIDIA cl902d.h name).
    color!(0x1c, "BITMAP", "Y1_8X8", [], 0x1f, "Y", Unorm, false, false),
    // `docs/ERRATA.md` "Answers": 0x1d is AY8, a 2D-engine source-only format (rnndb "UNK1D"). Its one
    // byte is read as Y (copied to all components, alpha included).
    color!(0x1d, "UNK1D", "AY8", [], 0x1d, "Y", Unorm, false, false),
    color!(0xc0, "RGBA32_FLOAT", "RF32_GF32_BF32_AF32", [], 0x01, "RGBA", Float, false, false),
    color!(0xc1, "RGBA32_SINT", "RS32_GS32_BS32_AS32", [], 0x01, "RGBA", Sint, false, false),
    color!(0xc2, "RGBA32_UINT", "RU32_GU32_BU32_AU32", [], 0x01, "RGBA", Uint, false, false),
    color!(0xc3, "RGBX32_FLOAT", "RF32_GF32_BF32_X32", [], 0x01, "RGBX", Float, false, false),
    color!(0xc4, "RGBX32_SINT", "RS32_GS32_BS32_X32", [], 0x01, "RGBX", Sint, false, false),
    color!(0xc5, "RGBX32_UINT", "RU32_GU32_BU32_X32", [], 0x01, "RGBX", Uint, false, false),
    color!(0xc6, "RGBA16_UNORM", "R16_G16_B16_A16", [], 0x03, "RGBA", Unorm, false, false),
    color!(0xc7, "RGBA16_SNORM", "RN16_GN16_BN16_AN16", [], 0x03, "RGBA", Snorm, false, false),
    color!(0xc8, "RGBA16_SINT", "RS16_GS16_BS16_AS16", [], 0x03, "RGBA", Sint, false, false),
    color!(0xc9, "RGBA16_UINT", "RU16_GU16_BU16_AU16", [], 0x03, "RGBA", Uint, false, false),
    color!(0xca, "RGBA16_FLOAT", "RF16_GF16_BF16_AF16", [], 0x03, "RGBA", Float, false, false),
    color!(0xcb, "RG32_FLOAT", "RF32_GF32", [], 0x04, "RG", Float, false, false),
    color!(0xcc, "RG32_SINT", "RS32_GS32", [], 0x04, "RG", Sint, false, false),
    color!(0xcd, "RG32_UINT", "RU32_GU32", [], 0x04, "RG", Uint, false, false),
    color!(0xce, "RGBX16_FLOAT", "RF16_GF16_BF16_X16", [], 0x03, "RGBX", Float, false, false),
    color!(0xcf, "BGRA8_UNORM", "A8R8G8B8", [], 0x08, "BGRA", Unorm, false, false),
    color!(0xd0, "BGRA8_SRGB", "A8RL8GL8BL8", [], 0x08, "BGRA", Unorm, true, false),
    color!(0xd1, "RGB10_A2_UNORM", "A2B10G10R10", [], 0x09, "RGBA", Unorm, false, false),
    color!(0xd2, "RGB10_A2_UINT", "AU2BU10GU10RU10", [], 0x09, "RGBA", Uint, false, false),
    color!(0xd5, "RGBA8_UNORM", "A8B8G8R8", [], 0x08, "RGBA", Unorm, false, false),
    color!(0xd6, "RGBA8_SRGB", "A8BL8GL8RL8", [], 0x08, "RGBA", Unorm, true, false),
    color!(0xd7, "RGBA8_SNORM", "AN8BN8GN8RN8", [], 0x08, "RGBA", Snorm, false, false),
    color!(0xd8, "RGBA8_SINT", "AS8BS8GS8RS8", [], 0x08, "RGBA", Sint, false, false),
    color!(0xd9, "RGBA8_UINT", "AU8BU8GU8RU8", [], 0x08, "RGBA", Uint, false, false),
    color!(0xda, "RG16_UNORM", "R16_G16", [], 0x0c, "RG", Unorm, false, false),
    color!(0xdb, "RG16_SNORM", "RN16_GN16", [], 0x0c, "RG", Snorm, false, false),
    color!(0xdc, "RG16_SINT", "RS16_GS16", [], 0x0c, "RG", Sint, false, false),
    color!(0xdd, "RG16_UINT", "RU16_GU16", [], 0x0c, "RG", Uint, false, false),
    color!(0xde, "RG16_FLOAT", "RF16_GF16", [], 0x0c, "RG", Float, false, false),
    color!(0xdf, "BGR10_A2_UNORM", "A2R10G10B10", [], 0x09, "BGRA", Unorm, false, false),
    color!(0xe0, "R11G11B10_FLOAT", "BF10GF11RF11", [], 0x21, "RGB", Float, false, false),
    color!(0xe3, "R32_SINT", "RS32", [], 0x0f, "R", Sint, false, false),
    color!(0xe4, "R32_UINT", "RU32", [], 0x0f, "R", Uint, false, false),
    color!(0xe5, "R32_FLOAT", "RF32", [], 0x0f, "R", Float, false, false),
    color!(0xe6, "BGRX8_UNORM", "X8R8G8B8", [], 0x08, "BGRX", Unorm, false, false),
    color!(0xe7, "BGRX8_SRGB", "X8RL8GL8BL8", [], 0x08, "BGRX", Unorm, true, false),
    color!(0xe8, "B5G6R5_UNORM", "R5G6B5", [], 0x15, "BGR", Unorm, false, false),
    color!(0xe9, "BGR5_A1_UNORM", "A1R5G5B5", [], 0x14, "BGRA", Unorm, false, false),
    color!(0xea, "RG8_UNORM", "G8R8", [], 0x18, "RG", Unorm, false, false),
    color!(0xeb, "RG8_SNORM", "GN8RN8", [], 0x18, "RG", Snorm, false, false),
    // `docs/ERRATA.md` E4: 0xec is RG8 sint and 0xed RG8 uint (the document swaps them; rnndb and
    // NVIDIA's GS8RS8/GU8RU8 agree with the correction).
    color!(0xec, "RG8_SINT", "GS8RS8", [], 0x18, "RG", Sint, false, false),
    color!(0xed, "RG8_UINT", "GU8RU8", [], 0x18, "RG", Uint, false, false),
    color!(0xee, "R16_UNORM", "R16", [], 0x1b, "R", Unorm, false, false),
    color!(0xef, "R16_SNORM", "RN16", [], 0x1b, "R", Snorm, false, false),
    color!(0xf0, "R16_SINT", "RS16", [], 0x1b, "R", Sint, false, false),
    color!(0xf1, "R16_UINT", "RU16", [], 0x1b, "R", Uint, false, false),
    color!(0xf2, "R16_FLOAT", "RF16", [], 0x1b, "R", Float, false, false),
    color!(0xf3, "R8_UNORM", "R8", [], 0x1d, "R", Unorm, false, false),
    color!(0xf4, "R8_SNORM", "RN8", [], 0x1d, "R", Snorm, false, false),
    color!(0xf5, "R8_SINT", "RS8", [], 0x1d, "R", Sint, false, false),
    color!(0xf6, "R8_UINT", "RU8", [], 0x1d, "R", Uint, false, false),
    color!(0xf7, "A8_UNORM", "A8", [], 0x1d, "A", Unorm, false, false),
    color!(0xf8, "BGR5_X1_UNORM", "X1R5G5B5", [], 0x14, "BGRX", Unorm, false, false),
    color!(0xf9, "RGBX8_UNORM", "X8B8G8R8", [], 0x08, "RGBX", Unorm, false, false),
    color!(0xfa, "RGBX8_SRGB", "X8BL8GL8RL8", [], 0x08, "RGBX", Unorm, true, false),
    // The document's [XXX] formats: NVIDIA's names say the X bits are written as zero (Z...)
    // or one (O...).
    color!(0xfb, "BGR5_X1_UNORM_UNKFB", "Z1R5G5B5", [], 0x14, "BGRX", Unorm, false, false),
    color!(0xfc, "BGR5_X1_UNORM_UNKFC", "O1R5G5B5", [], 0x14, "BGRX", Unorm, false, true),
    color!(0xfd, "BGRX8_UNORM_UNKFD", "Z8R8G8B8", [], 0x08, "BGRX", Unorm, false, false),
    color!(0xfe, "BGRX8_UNORM_UNKFE", "O8R8G8B8", [], 0x08, "BGRX", Unorm, false, true),
    color!(0xff, "Y32_UINT_UNKFF", "R32", [], 0x0f, "Y", Uint, false, false),
];

macro_rules! zt {
    ($id:literal, $name:literal, $rnn:literal, $nv:literal, [$($a:literal),*], [$(($mode:literal, $t:literal)),*],
     $since:expr) => {
        ZetaFormat {
            id: $id,
            name: $name,
            rnndb: $rnn,
            nvidia: $nv,
            aliases: &[$($a),*],
            textures: &[$(($mode, $t)),*],
            since: $since,
        }
    };
}

/// Every zeta format id, ordered by id, with its texture format per coverage mode ("" = no
/// coverage sampling).
pub(crate) static ZETA_FORMATS: &[ZetaFormat] = &[
    zt!(0x0a, "Z32", "Z32_FLOAT", "ZF32", [], [("", 0x2f)], None),
    zt!(0x13, "Z16", "Z16_UNORM", "Z16", [], [("", 0x3a)], Some(Gpu::G200)),
    zt!(0x14, "S8_Z24", "S8_Z24_UNORM", "Z24S8", [], [("", 0x29)], None),
    // `docs/ERRATA.md` E2: Z24_X8 goes with texture 0x2a and Z24_S8 with 0x2b (the document swaps them).
    zt!(0x15, "Z24_X8", "Z24_X8_UNORM", "X8Z24", [], [("", 0x2a)], None),
    zt!(0x16, "Z24_S8", "Z24_S8_UNORM", "S8Z24", [], [("", 0x2b)], None),
    zt!(
        0x18,
        "Z24_C8",
        "Z24_C8_UNORM",
        "V8Z24",
        [],
        [("MS4_CS4", 0x2c), ("MS8_CS8", 0x2d), ("MS4_CS12", 0x2e), ("MS8_CS24", 0x3b)],
        None
    ),
    zt!(0x19, "Z32_S8_X24", "Z32_S8_X24_FLOAT", "ZF32_X24S8", [], [("", 0x30)], None),
    zt!(
        0x1d,
        "Z24_X8_S8_C8_X16",
        "Z24_X8_S8_C8_X16_UNORM",
        "X8Z24_X16V8S8",
        [],
        [("MS4_CS4", 0x31), ("MS8_CS8", 0x32), ("MS4_CS12", 0x37), ("MS8_CS24", 0x3c)],
        None
    ),
    zt!(
        0x1e,
        "Z32_X8_C8_X16",
        "Z32_X8_C8_X16_FLOAT",
        "ZF32_X16V8X8",
        [],
        [("MS4_CS4", 0x33), ("MS8_CS8", 0x34), ("MS4_CS12", 0x38), ("MS8_CS24", 0x3d)],
        None
    ),
    zt!(
        0x1f,
        "Z32_S8_C8_X16",
        "Z32_S8_C8_X16_FLOAT",
        "ZF32_X16V8S8",
        [],
        [("MS4_CS4", 0x35), ("MS8_CS8", 0x36), ("MS4_CS12", 0x39), ("MS8_CS24", 0x3e)],
        None
    ),
];
