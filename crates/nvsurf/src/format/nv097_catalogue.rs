//! The Kelvin (NV20, NV25, NV28 and the Xbox's NV2A) texture formats: the values of the NV097
//! class's `SET_TEXTURE_FORMAT` COLOR field (bits 8-15), one row each, with the element layout
//! as a CPU sees it and whether the format is swizzled (`SZ_`), linear (`LU_IMAGE_`,
//! `LC_IMAGE_`: nvsurf's `_RECT` names) or compressed (`L_DXT`).
//!
//! Sources (values and bit fields only):
//! - the `NV097_SET_TEXTURE_FORMAT_COLOR_*` values as xemu's `hw/xbox/nv2a/nv2a_regs.h` and
//!   nxdk's `lib/pbkit/nv_regs.h` define them, and the texture format table of xemu's
//!   `hw/xbox/nv2a/pgraph/gl/constants.h` (`kelvin_color_format_gl_map`: bytes per pixel,
//!   linear or not, the GL format/type pair that says where each component sits, and the
//!   swizzle mask the sampler returns);
//! - Cxbx-Reloaded's copy of the older xemu table (`src/core/hle/D3D8/XbD3D8Types.h` maps the
//!   Xbox D3D formats to these values: `D3DFMT_YUY2` is 0x24, `D3DFMT_V8U8` 0x28,
//!   `D3DFMT_F24S8` 0x2B, `D3DFMT_F16` 0x2D, `D3DFMT_L6V5U5` 0x27, `D3DFMT_V16U16` 0x33);
//! - envytools `rnndb/graph/nv_3ddefs.xml`, enum `nv10_tex_format` (the rows nvsurf had before:
//!   rnndb's names stay the canonical names where the id means the same thing).
//!
//! Names are MSB-first packed words (`A8R8G8B8` is bytes B, G, R, A), as in the other pre-G80
//! tables; every row also answers to its NV097 spelling (`SZ_A8R8G8B8`, `LU_IMAGE_G8B8`, ...)
//! and to the Xbox D3D name where one exists. Where two readings of an id exist, both are rows
//! with the same id and the first is what the id means (`docs/ERRATA.md` E25: `G8B8`/`DSDT8`).
//! Left out: 0x34 `LC_IMAGE_A4V6YB6A4U6YA6` (a 4:2:2 layout with 4-bit alpha that no source
//! decodes), and rnndb's 0x44-0x47 `HILO8`/`SIGNED_HILO8` (not in the NV097 enum).

use super::catalogue::TextureFormat;
use super::element_layout::{Layout, ZType, ZetaLayout};
use super::nv10_catalogue::{
    kinds_of, row, PreG80Format, PreG80Table, GEN_NV20, S1555, S16, S1616, S4444, S565, S8, S88, S888, S8888, Z16,
    Z24S8,
};
use crate::codec::{Bc, ComponentType};

use ComponentType::{Snorm as SN, Unorm as UN};

const K: u8 = GEN_NV20;
/// `X1R5G5B5`: R, G, B in bits 10-14, 5-9, 0-4; bit 15 unused.
const S555: Layout = Layout::Simple(&[5, 5, 5]);
/// `R6G5B5` (D3D's L6V5U5): B in bits 0-4, G in 5-9, R in 10-15.
const S556: Layout = Layout::Simple(&[5, 5, 6]);
/// `R5G5B5A1` (GL `UNSIGNED_SHORT_5_5_5_1`): A in bit 0, B 1-5, G 6-10, R 11-15.
const S1_555: Layout = Layout::Simple(&[1, 5, 5, 5]);
/// `X7SY9`: a signed 9-bit Y in bits 0-8 (by the name; no source decodes it).
const S9: Layout = Layout::Simple(&[9]);
/// `SZ_DEPTH_X8_Y24_FLOAT`: NV2A's 24-bit float Z in bits 8-31, bits 0-7 read as S.
const Z24F: Layout = Layout::Zeta(ZetaLayout { z_lo: 8, z: ZType::Float24Nv2a, s_lo: Some(0), c_lo: None });
/// `SZ_DEPTH_Y16_FLOAT`: NV2A's 16-bit float Z.
const Z16F: Layout = Layout::Zeta(ZetaLayout { z_lo: 0, z: ZType::Float16Nv2a, s_lo: None, c_lo: None });
/// `LC_IMAGE_CR8YB8CB8YA8` (YUY2): bytes Y0, U, Y1, V.
const YUY2: Layout = Layout::Yuv { ya: 0, u: 1, yb: 2, v: 3 };
/// `LC_IMAGE_YB8CR8YA8CB8` (UYVY): bytes U, Y0, V, Y1.
const UYVY: Layout = Layout::Yuv { u: 0, ya: 1, v: 2, yb: 3 };
const DXT1: Layout = Layout::Compressed(Bc::Bc1);
const DXT3: Layout = Layout::Compressed(Bc::Bc2);
const DXT5: Layout = Layout::Compressed(Bc::Bc3);

/// The NV097 texture formats (module docs). Swizzles: output R, G, B, A from `0`-`3` (C0-C3,
/// from the LSB), `z` zero, `o` one. `G8B8` and `R8B8` replicate their two bytes into the
/// missing components as xemu's table does (`G8B8` reads (B, G, B, G), `R8B8` (R, B, B, R)).
pub(crate) static NV097_FORMATS: &[PreG80Format] = &[
    row!(Nv097, 0x00, "L8", ["Y8", "SZ_Y8"], K, 1, S8, "000o", UN, false, false),
    row!(Nv097, 0x01, "I8", ["AY8", "SZ_AY8", "AL8"], K, 1, S8, "0000", UN, false, false),
    row!(Nv097, 0x02, "A1R5G5B5", ["SZ_A1R5G5B5"], K, 2, S1555, "2103", UN, false, false),
    row!(Nv097, 0x03, "X1R5G5B5", ["SZ_X1R5G5B5"], K, 2, S555, "210o", UN, false, false),
    row!(Nv097, 0x04, "A4R4G4B4", ["SZ_A4R4G4B4"], K, 2, S4444, "2103", UN, false, false),
    row!(Nv097, 0x05, "R5G6B5", ["SZ_R5G6B5"], K, 2, S565, "210o", UN, false, false),
    row!(Nv097, 0x06, "A8R8G8B8", ["SZ_A8R8G8B8"], K, 4, S8888, "2103", UN, false, false),
    row!(Nv097, 0x07, "X8R8G8B8", ["SZ_X8R8G8B8", "X8L8V8U8"], K, 4, S888, "210o", UN, false, false),
    // Indices into a palette of 256 A8R8G8B8 entries (`--palette`); read alone, the index is L.
    row!(Nv097, 0x0b, "INDEX8", ["P8", "I8_A8R8G8B8", "SZ_I8_A8R8G8B8"], K, 1, S8, "000o", UN, false, true),
    row!(Nv097, 0x0c, "DXT1", ["BC1", "L_DXT1_A1R5G5B5"], K, 8, DXT1, "0123", UN, false, false),
    row!(Nv097, 0x0e, "DXT3", ["BC2", "DXT2", "L_DXT23_A8R8G8B8"], K, 16, DXT3, "0123", UN, false, false),
    row!(Nv097, 0x0f, "DXT5", ["BC3", "DXT4", "L_DXT45_A8R8G8B8"], K, 16, DXT5, "0123", UN, false, false),
    row!(Nv097, 0x10, "A1R5G5B5_RECT", ["LU_IMAGE_A1R5G5B5", "LIN_A1R5G5B5"], K, 2, S1555, "2103", UN, true, false),
    row!(Nv097, 0x11, "R5G6B5_RECT", ["LU_IMAGE_R5G6B5", "LIN_R5G6B5"], K, 2, S565, "210o", UN, true, false),
    row!(Nv097, 0x12, "A8R8G8B8_RECT", ["LU_IMAGE_A8R8G8B8", "LIN_A8R8G8B8"], K, 4, S8888, "2103", UN, true, false),
    row!(Nv097, 0x13, "L8_RECT", ["Y8_RECT", "LU_IMAGE_Y8", "LIN_L8"], K, 1, S8, "000o", UN, true, false),
    row!(Nv097, 0x14, "SY8_RECT", ["LU_IMAGE_SY8"], K, 1, S8, "000o", SN, true, false),
    row!(Nv097, 0x15, "X7SY9_RECT", ["LU_IMAGE_X7SY9"], K, 2, S9, "000o", SN, true, false),
    row!(Nv097, 0x16, "R8B8_RECT", ["LU_IMAGE_R8B8", "LIN_R8B8"], K, 2, S88, "1001", UN, true, false),
    // `docs/ERRATA.md` E25: unsigned (B, G, B, G) as xemu reads it; `DSDT8_RECT` is rnndb's.
    row!(Nv097, 0x17, "G8B8_RECT", ["LU_IMAGE_G8B8", "LIN_G8B8", "LIN_V8U8"], K, 2, S88, "0101", UN, true, false),
    row!(Nv097, 0x17, "DSDT8_RECT", [], K, 2, S88, "01zo", SN, true, false),
    row!(Nv097, 0x18, "SG8SB8_RECT", ["LU_IMAGE_SG8SB8"], K, 2, S88, "0101", SN, true, false),
    row!(Nv097, 0x19, "A8", ["SZ_A8"], K, 1, S8, "ooo0", UN, false, false),
    row!(Nv097, 0x1a, "A8L8", ["A8Y8", "SZ_A8Y8"], K, 2, S88, "0001", UN, false, false),
    row!(Nv097, 0x1b, "I8_RECT", ["AY8_RECT", "LU_IMAGE_AY8", "LIN_AL8"], K, 1, S8, "0000", UN, true, false),
    row!(Nv097, 0x1c, "X1R5G5B5_RECT", ["LU_IMAGE_X1R5G5B5", "LIN_X1R5G5B5"], K, 2, S555, "210o", UN, true, false),
    row!(Nv097, 0x1d, "A4R4G4B4_RECT", ["LU_IMAGE_A4R4G4B4", "LIN_A4R4G4B4"], K, 2, S4444, "2103", UN, true, false),
    // rnndb's `R8G8B8_RECT`: four bytes, an X8R8G8B8 word.
    row!(
        Nv097,
        0x1e,
        "X8R8G8B8_RECT",
        ["R8G8B8_RECT", "LU_IMAGE_X8R8G8B8", "LIN_X8R8G8B8"],
        K,
        4,
        S888,
        "210o",
        UN,
        true,
        false
    ),
    row!(Nv097, 0x1f, "A8_RECT", ["LU_IMAGE_A8", "LIN_A8"], K, 1, S8, "ooo0", UN, true, false),
    row!(Nv097, 0x20, "A8L8_RECT", ["A8Y8_RECT", "LU_IMAGE_A8Y8", "LIN_A8L8"], K, 2, S88, "0001", UN, true, false),
    // YUV 4:2:2, two pixels per element, linear only; RGB through `--yuv` (bt601 by default).
    row!(Nv097, 0x24, "YUY2", ["LC_IMAGE_CR8YB8CB8YA8", "CR8YB8CB8YA8"], K, 4, YUY2, "0123", UN, true, false),
    row!(Nv097, 0x25, "UYVY", ["LC_IMAGE_YB8CR8YA8CB8", "YB8CR8YA8CB8"], K, 4, UYVY, "0123", UN, true, false),
    // No source converts it: read raw as the YUV rows are (R = Cb, G = Y, B = Cr, A).
    row!(Nv097, 0x26, "A8CR8CB8Y8_RECT", ["LU_IMAGE_A8CR8CB8Y8"], K, 4, S8888, "1023", UN, true, false),
    row!(Nv097, 0x27, "R6G5B5", ["SZ_R6G5B5", "L6V5U5"], K, 2, S556, "210o", UN, false, false),
    row!(Nv097, 0x28, "G8B8", ["SZ_G8B8", "V8U8"], K, 2, S88, "0101", UN, false, false),
    row!(Nv097, 0x28, "DSDT8", [], K, 2, S88, "01zo", SN, false, false),
    row!(Nv097, 0x29, "R8B8", ["SZ_R8B8"], K, 2, S88, "1001", UN, false, false),
    row!(Nv097, 0x2a, "Z24", ["Z24S8", "SZ_DEPTH_X8_Y24_FIXED", "D24S8"], K, 4, Z24S8, "0123", UN, false, false),
    row!(Nv097, 0x2b, "Z24_FLOAT", ["SZ_DEPTH_X8_Y24_FLOAT", "F24S8"], K, 4, Z24F, "0123", UN, false, false),
    row!(Nv097, 0x2c, "Z16", ["SZ_DEPTH_Y16_FIXED", "D16"], K, 2, Z16, "0123", UN, false, false),
    row!(Nv097, 0x2d, "Z16_FLOAT", ["SZ_DEPTH_Y16_FLOAT", "F16"], K, 2, Z16F, "0123", UN, false, false),
    row!(Nv097, 0x2e, "Z24_RECT", ["Z24S8_RECT", "LU_IMAGE_DEPTH_X8_Y24_FIXED"], K, 4, Z24S8, "0123", UN, true, false),
    row!(Nv097, 0x2f, "Z24_FLOAT_RECT", ["LU_IMAGE_DEPTH_X8_Y24_FLOAT"], K, 4, Z24F, "0123", UN, true, false),
    row!(Nv097, 0x30, "Z16_RECT", ["LU_IMAGE_DEPTH_Y16_FIXED"], K, 2, Z16, "0123", UN, true, false),
    row!(Nv097, 0x31, "Z16_FLOAT_RECT", ["LU_IMAGE_DEPTH_Y16_FLOAT"], K, 2, Z16F, "0123", UN, true, false),
    row!(Nv097, 0x32, "L16", ["Y16", "SZ_Y16"], K, 2, S16, "000o", UN, false, false),
    // rnndb's HILO16 (HI in the high half); NV097 `SZ_YB16YA16`, Xbox D3D's V16U16.
    row!(Nv097, 0x33, "HILO16", ["SZ_YB16YA16", "SZ_G16B16", "V16U16"], K, 4, S1616, "10oo", UN, false, false),
    row!(Nv097, 0x35, "L16_RECT", ["Y16_RECT", "LU_IMAGE_Y16", "LIN_L16"], K, 2, S16, "000o", UN, true, false),
    row!(Nv097, 0x36, "HILO16_RECT", ["LU_IMAGE_YB16YA16"], K, 4, S1616, "10oo", UN, true, false),
    row!(Nv097, 0x37, "R6G5B5_RECT", ["LU_IMAGE_R6G5B5", "LIN_R6G5B5"], K, 2, S556, "210o", UN, true, false),
    row!(Nv097, 0x38, "R5G5B5A1", ["SZ_R5G5B5A1"], K, 2, S1_555, "3210", UN, false, false),
    row!(Nv097, 0x39, "R4G4B4A4", ["SZ_R4G4B4A4"], K, 2, S4444, "3210", UN, false, false),
    row!(Nv097, 0x3a, "A8B8G8R8", ["SZ_A8B8G8R8", "Q8W8V8U8"], K, 4, S8888, "0123", UN, false, false),
    row!(Nv097, 0x3b, "B8G8R8A8", ["SZ_B8G8R8A8"], K, 4, S8888, "1230", UN, false, false),
    row!(Nv097, 0x3c, "R8G8B8A8", ["SZ_R8G8B8A8"], K, 4, S8888, "3210", UN, false, false),
    row!(Nv097, 0x3d, "R5G5B5A1_RECT", ["LU_IMAGE_R5G5B5A1", "LIN_R5G5B5A1"], K, 2, S1_555, "3210", UN, true, false),
    row!(Nv097, 0x3e, "R4G4B4A4_RECT", ["LU_IMAGE_R4G4B4A4", "LIN_R4G4B4A4"], K, 2, S4444, "3210", UN, true, false),
    row!(Nv097, 0x3f, "A8B8G8R8_RECT", ["LU_IMAGE_A8B8G8R8", "LIN_A8B8G8R8"], K, 4, S8888, "0123", UN, true, false),
    row!(Nv097, 0x40, "B8G8R8A8_RECT", ["LU_IMAGE_B8G8R8A8", "LIN_B8G8R8A8"], K, 4, S8888, "1230", UN, true, false),
    row!(Nv097, 0x41, "R8G8B8A8_RECT", ["LU_IMAGE_R8G8B8A8", "LIN_R8G8B8A8"], K, 4, S8888, "3210", UN, true, false),
];
