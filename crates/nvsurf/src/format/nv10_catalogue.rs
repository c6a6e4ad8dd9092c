//! The texture formats of the pre-G80 GPUs (NV10-NV40 3D classes): one table per format enum,
//! each row with its id, its name, the generations that have it, its element layout as a CPU
//! sees it, and whether it is a linear (`_RECT`) format.
//!
//! Sources, per table:
//! - NV10, NV20 (NV2A) and NV30: envytools `rnndb/graph/nv_3ddefs.xml`, enum `nv10_tex_format`
//!   (ids and the `variants` that say which 3D classes have them), used by the `TEX_FORMAT`
//!   register's FORMAT field (bits 8-15) of `rnndb/graph/nv30-40_3d.xml` on NV30.
//! - NV20/NV2A (Kelvin): the NV097 class's own enum, `format/nv097_catalogue.rs` (the Kelvin
//!   GPUs read it instead of `nv10_tex_format`).
//! - NV40: `rnndb/graph/nv30-40_3d.xml`, enum `nv40_tex_format` (FORMAT is bits 8-12 of
//!   `TEX_FORMAT`; bit 13 is LINEAR). nvsurf names the linear form of each NV40 format
//!   `<NAME>_RECT` and gives it the FORMAT byte with the LINEAR bit set (`id | 0x20`).
//!
//! Element layouts. The names are MSB-first packed words, as D3D names them: `A8R8G8B8` is a
//! 32-bit little-endian word with B in bits 0-7 and A in bits 24-31, so its bytes in memory
//! are B, G, R, A. Layouts list the bitfields from the LSB (C0 first), and a swizzle puts them
//! in R, G, B, A. Where rnndb gives only a name, the layout follows the name and the choice is
//! said on the row: `R8G8B8_RECT` is 4 bytes (an X8R8G8B8 word; no pre-G80 layout has 3-byte
//! elements), `Z24` is D3D's D24S8 word (Z in bits 8-31, S in 0-7), `HILO` puts HI in the high
//! half, `DSDT8` puts DS in the low byte (as D3D's V8U8 puts U), and L/I/A read as luminance
//! (R=G=B=L, A=1), intensity (all four) and alpha (0, 0, 0, A).
//!
//! Linear or swizzled: `_RECT` formats are linear (pitch layout), the others swizzled. The NV30
//! float formats are linear too: NV_float_buffer (OpenGL extension registry,
//! `NV/NV_float_buffer.txt`) allows float textures only as texture rectangles on NV30.

use super::catalogue::TextureFormat;
use super::element_layout::{Layout, ZType, ZetaLayout};
use super::swizzle::Swizzle;
use crate::codec::{Bc, ComponentType};
use crate::gpu::{Family, Gpu};

/// Which pre-G80 format enum a row belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PreG80Table {
    /// `nv10_tex_format`: the NV10 (Celsius) and NV30 (Rankine) 3D classes (rnndb also lists it
    /// for NV20; the Kelvin GPUs read [`PreG80Table::Nv097`]).
    Nv10,
    /// The Kelvin class's `NV097_SET_TEXTURE_FORMAT_COLOR` enum: NV20, NV25, NV28 and the
    /// Xbox's NV2A (`format/nv097_catalogue.rs`).
    Nv097,
    /// `nv40_tex_format`: the NV40 (Curie) 3D classes.
    Nv40,
}

impl PreG80Table {
    /// The table a GPU's texture unit reads: `None` for NV04/NV05 and for G80 and later.
    pub fn of(gpu: Gpu) -> Option<PreG80Table> {
        match gpu.family() {
            Family::Celsius | Family::Rankine => Some(PreG80Table::Nv10),
            Family::Kelvin => Some(PreG80Table::Nv097),
            Family::Curie => Some(PreG80Table::Nv40),
            _ => None,
        }
    }

    /// `nv10`, `nv2a` or `nv40`, the prefix of [`crate::format::Format::id_name`] for these rows.
    pub const fn name(self) -> &'static str {
        match self {
            PreG80Table::Nv10 => "nv10",
            PreG80Table::Nv097 => "nv2a",
            PreG80Table::Nv40 => "nv40",
        }
    }

    /// Every table, in the order a prefix-less lookup reads them.
    pub const ALL: [PreG80Table; 3] = [PreG80Table::Nv10, PreG80Table::Nv097, PreG80Table::Nv40];

    /// The name prefixes (with their `:`) that select this table: its [`name`](Self::name),
    /// and for the Kelvin table also `nv097:` and `nv10:` (the rnndb enum's name, which the
    /// Kelvin GPUs answered to before they had their own table).
    pub const fn prefixes(self) -> &'static [&'static str] {
        match self {
            PreG80Table::Nv10 => &["nv10:"],
            PreG80Table::Nv097 => &["nv2a:", "nv097:", "nv10:"],
            PreG80Table::Nv40 => &["nv40:"],
        }
    }
}

/// Generation bit: NV10-NV1F (Celsius).
pub const GEN_NV10: u8 = 1;
/// Generation bit: NV20-NV2A (Kelvin, the Xbox's NV2A included).
pub const GEN_NV20: u8 = 2;
/// Generation bit: NV30-NV36 (Rankine).
pub const GEN_NV30: u8 = 4;
/// Generation bit: NV40 and its relatives up to MCP73 (Curie).
pub const GEN_NV40: u8 = 8;

/// The generation bit of `gpu` (0 for GPUs without a pre-G80 texture table).
pub fn generation_bit(gpu: Gpu) -> u8 {
    match gpu.family() {
        Family::Celsius => GEN_NV10,
        Family::Kelvin => GEN_NV20,
        Family::Rankine => GEN_NV30,
        Family::Curie => GEN_NV40,
        _ => 0,
    }
}

/// One pre-G80 texture format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PreG80Format {
    /// The table (format enum) of the row.
    pub table: PreG80Table,
    /// The value of the `TEX_FORMAT` FORMAT field (NV40: with the LINEAR bit, `0x20`, for the
    /// `_RECT` rows).
    pub id: u8,
    /// rnndb's name (the `_RECT` names of NV40 are nvsurf's).
    pub name: &'static str,
    /// Other accepted names.
    pub aliases: &'static [&'static str],
    /// Generation bits ([`GEN_NV10`], ...) of the GPUs that have it.
    pub generations: u8,
    /// The element size and bit layout (its `id` and `name` are this row's).
    pub texture: TextureFormat,
    /// Output R, G, B, A: `0`-`3` for C0-C3, `z` zero, `o` one.
    pub swizzle: &'static str,
    /// The type of every component (zeta rows keep the zeta types).
    pub ty: ComponentType,
    /// A linear (pitch) format; the others are swizzled.
    pub linear: bool,
    /// Elements are indices into a palette of 256 A8R8G8B8 entries (INDEX8).
    pub palette: bool,
    /// The texture kinds it may be besides one 2D level: [`KIND_CUBE`], [`KIND_3D`],
    /// [`KIND_MIPS`]; `TextureSpec` refuses the others.
    pub kinds: u8,
}

/// [`PreG80Format::kinds`]: the format may be a cube map.
pub const KIND_CUBE: u8 = 1;
/// [`PreG80Format::kinds`]: the format may be a 3D texture.
pub const KIND_3D: u8 = 2;
/// [`PreG80Format::kinds`]: the format may have more than one level.
pub const KIND_MIPS: u8 = 4;

/// The kinds of a row by nvsurf's rule: a swizzled or compressed format may be 2D, cube or 3D
/// with mips; a linear one has one level and no depth (its size is `IMAGE_RECT` and its pitch
/// `CONTROL1`: the NV097 and NV40 methods have no pitch per level or slice for it), and may be a
/// cube of plain 2D faces (`docs/ERRATA.md` E12).
pub(crate) const fn kinds_of(linear: bool) -> u8 {
    if linear {
        KIND_CUBE
    } else {
        KIND_CUBE | KIND_3D | KIND_MIPS
    }
}

impl PreG80Format {
    /// True when `gpu` has this format.
    pub fn exists_on(&self, gpu: Gpu) -> bool {
        PreG80Table::of(gpu) == Some(self.table) && self.generations & generation_bit(gpu) != 0
    }

    /// The texture kinds it may be, as text: `2d`, then `cube`, `3d`, `mips` where allowed.
    pub fn kind_names(&self) -> alloc::vec::Vec<&'static str> {
        let mut v = alloc::vec!["2d"];
        for (bit, n) in [(KIND_CUBE, "cube"), (KIND_3D, "3d"), (KIND_MIPS, "mips")] {
            if self.kinds & bit != 0 {
                v.push(n);
            }
        }
        v
    }

    /// The generations that have it, as text: `NV10, NV20, NV30`.
    pub fn generation_names(&self) -> alloc::vec::Vec<&'static str> {
        [(GEN_NV10, "NV10"), (GEN_NV20, "NV20"), (GEN_NV30, "NV30"), (GEN_NV40, "NV40")]
            .into_iter()
            .filter(|(b, _)| self.generations & b != 0)
            .map(|(_, n)| n)
            .collect()
    }

    /// Every name of the row, canonical first.
    pub fn names(&self) -> alloc::vec::Vec<&'static str> {
        let mut v = alloc::vec![self.name];
        v.extend(self.aliases.iter().copied());
        v
    }

    /// The swizzle as [`Swizzle`]s (an integer type reads `one` as the integer 1).
    pub fn swizzles(&self) -> [Swizzle; 4] {
        let mut out = [Swizzle::Zero; 4];
        for (o, c) in out.iter_mut().zip(self.swizzle.bytes()) {
            *o = match c {
                b'0' => Swizzle::C0,
                b'1' => Swizzle::C1,
                b'2' => Swizzle::C2,
                b'3' => Swizzle::C3,
                b'o' => Swizzle::OneFloat,
                _ => Swizzle::Zero,
            };
        }
        out
    }
}

/// The pre-G80 formats of `gpu`, in table order (empty for GPUs without a table).
pub fn pre_g80_formats(gpu: Gpu) -> alloc::vec::Vec<&'static PreG80Format> {
    PreG80Table::of(gpu).map_or(&[][..], PreG80Table::rows).iter().filter(|r| r.exists_on(gpu)).collect()
}

// ---------------------------------------------------------------------------------------------
// The rows
// ---------------------------------------------------------------------------------------------

pub(crate) const S8: Layout = Layout::Simple(&[8]);
pub(crate) const S88: Layout = Layout::Simple(&[8, 8]);
pub(crate) const S1555: Layout = Layout::Simple(&[5, 5, 5, 1]);
pub(crate) const S4444: Layout = Layout::Simple(&[4, 4, 4, 4]);
pub(crate) const S565: Layout = Layout::Simple(&[5, 6, 5]);
pub(crate) const S8888: Layout = Layout::Simple(&[8, 8, 8, 8]);
pub(crate) const S888: Layout = Layout::Simple(&[8, 8, 8]);
pub(crate) const S16: Layout = Layout::Simple(&[16]);
pub(crate) const S1616: Layout = Layout::Simple(&[16, 16]);
const F16X4: Layout = Layout::Simple(&[16, 16, 16, 16]);
const F32X4: Layout = Layout::Simple(&[32, 32, 32, 32]);
const F32: Layout = Layout::Simple(&[32]);
/// D3D's D24S8 word: Z in bits 8-31, S in bits 0-7.
pub(crate) const Z24S8: Layout = Layout::Zeta(ZetaLayout { z_lo: 8, z: ZType::Unorm24, s_lo: Some(0), c_lo: None });
pub(crate) const Z16: Layout = Layout::Zeta(ZetaLayout { z_lo: 0, z: ZType::Unorm16, s_lo: None, c_lo: None });

const CKR: u8 = GEN_NV10 | GEN_NV20 | GEN_NV30;
const KR: u8 = GEN_NV20 | GEN_NV30;
const C: u8 = GEN_NV10;
const R: u8 = GEN_NV30;
const NV40: u8 = GEN_NV40;

use ComponentType::{Float as F, Snorm as SN, Unorm as UN};

/// One row: table, id, name, aliases, generations, element bytes, layout, swizzle, type,
/// linear, palette.
macro_rules! row {
    ($table:ident, $id:literal, $name:literal, [$($a:literal),*], $gens:expr, $size:literal, $layout:expr,
     $swz:literal, $ty:expr, $linear:literal, $palette:literal) => {
        PreG80Format {
            table: PreG80Table::$table,
            id: $id,
            name: $name,
            aliases: &[$($a),*],
            generations: $gens,
            texture: TextureFormat {
                id: $id,
                name: $name,
                rnndb: $name,
                nvidia: "",
                aliases: &[],
                elem_size_bytes: $size,
                layout: $layout,
                since: None,
            },
            swizzle: $swz,
            ty: $ty,
            linear: $linear,
            palette: $palette,
            kinds: kinds_of($linear),
        }
    };
}
pub(crate) use row;

/// `nv10_tex_format` (envytools `rnndb/graph/nv_3ddefs.xml`): rows without `variants` are on
/// every class from NV10; `variants="NV20_3D-"` is NV20 and NV30 (NV40 has its own enum);
/// `NV10_3D-NV17_3D` is NV10 only; `NV30_3D-` is NV30 only. `UNK3F` (layout unknown) is left
/// out.
pub(crate) static NV10_FORMATS: &[PreG80Format] = &[
    row!(Nv10, 0x00, "L8", ["Y8"], CKR, 1, S8, "000o", UN, false, false),
    row!(Nv10, 0x01, "I8", ["AY8"], CKR, 1, S8, "0000", UN, false, false),
    row!(Nv10, 0x02, "A1R5G5B5", [], CKR, 2, S1555, "2103", UN, false, false),
    row!(Nv10, 0x04, "A4R4G4B4", [], CKR, 2, S4444, "2103", UN, false, false),
    row!(Nv10, 0x05, "R5G6B5", [], CKR, 2, S565, "210o", UN, false, false),
    row!(Nv10, 0x06, "A8R8G8B8", [], CKR, 4, S8888, "2103", UN, false, false),
    row!(Nv10, 0x07, "X8R8G8B8", [], CKR, 4, S888, "210o", UN, false, false),
    // Indices into a palette of 256 A8R8G8B8 entries (`--palette`); read alone, the index is L.
    row!(Nv10, 0x0b, "INDEX8", ["P8", "I8_A8R8G8B8"], CKR, 1, S8, "000o", UN, false, true),
    row!(Nv10, 0x0c, "DXT1", ["BC1"], CKR, 8, Layout::Compressed(Bc::Bc1), "0123", UN, false, false),
    row!(Nv10, 0x0e, "DXT3", ["BC2"], CKR, 16, Layout::Compressed(Bc::Bc2), "0123", UN, false, false),
    row!(Nv10, 0x0f, "DXT5", ["BC3"], CKR, 16, Layout::Compressed(Bc::Bc3), "0123", UN, false, false),
    row!(Nv10, 0x10, "A1R5G5B5_RECT", [], CKR, 2, S1555, "2103", UN, true, false),
    row!(Nv10, 0x11, "R5G6B5_RECT", [], CKR, 2, S565, "210o", UN, true, false),
    row!(Nv10, 0x12, "A8R8G8B8_RECT", [], CKR, 4, S8888, "2103", UN, true, false),
    // 0x13 is I8_RECT on NV10 (`NV10_3D-NV17_3D`) and L8_RECT from NV20.
    row!(Nv10, 0x13, "I8_RECT", [], C, 1, S8, "0000", UN, true, false),
    row!(Nv10, 0x13, "L8_RECT", ["Y8_RECT"], KR, 1, S8, "000o", UN, true, false),
    row!(Nv10, 0x17, "DSDT8_RECT", [], KR, 2, S88, "01zo", SN, true, false),
    row!(Nv10, 0x1a, "A8L8", ["A8Y8"], KR, 2, S88, "0001", UN, false, false),
    row!(Nv10, 0x1b, "I8_RECT", ["AY8_RECT"], KR, 1, S8, "0000", UN, true, false),
    row!(Nv10, 0x1d, "A4R4G4B4_RECT", [], KR, 2, S4444, "2103", UN, true, false),
    // Four bytes, X8R8G8B8 (no pre-G80 layout has 3-byte elements).
    row!(Nv10, 0x1e, "R8G8B8_RECT", ["X8R8G8B8_RECT"], KR, 4, S888, "210o", UN, true, false),
    row!(Nv10, 0x20, "A8L8_RECT", ["A8Y8_RECT"], KR, 2, S88, "0001", UN, true, false),
    row!(Nv10, 0x28, "DSDT8", [], KR, 2, S88, "01zo", SN, false, false),
    row!(Nv10, 0x2a, "Z24", ["Z24S8"], KR, 4, Z24S8, "0123", UN, false, false),
    // rnndb: "possibly just a guess" for both _RECT depth ids.
    row!(Nv10, 0x2b, "Z24_RECT", ["Z24S8_RECT"], KR, 4, Z24S8, "0123", UN, true, false),
    row!(Nv10, 0x2c, "Z16", [], KR, 2, Z16, "0123", UN, false, false),
    row!(Nv10, 0x2d, "Z16_RECT", [], KR, 2, Z16, "0123", UN, true, false),
    row!(Nv10, 0x32, "A16", [], R, 2, S16, "zzz0", UN, false, false),
    row!(Nv10, 0x33, "HILO16", [], KR, 4, S1616, "10oo", UN, false, false),
    row!(Nv10, 0x35, "A16_RECT", [], R, 2, S16, "zzz0", UN, true, false),
    row!(Nv10, 0x36, "HILO16_RECT", [], KR, 4, S1616, "10oo", UN, true, false),
    row!(Nv10, 0x44, "HILO8", [], KR, 2, S88, "10oo", UN, false, false),
    row!(Nv10, 0x45, "SIGNED_HILO8", [], KR, 2, S88, "10oo", SN, false, false),
    row!(Nv10, 0x46, "HILO8_RECT", [], KR, 2, S88, "10oo", UN, true, false),
    row!(Nv10, 0x47, "SIGNED_HILO8_RECT", [], KR, 2, S88, "10oo", SN, true, false),
    // Float textures are rectangles only on NV30 (NV_float_buffer), so linear.
    row!(Nv10, 0x4a, "FLOAT_RGBA16_NV", ["RGBA16F"], R, 8, F16X4, "0123", F, true, false),
    row!(Nv10, 0x4b, "FLOAT_RGBA32_NV", ["RGBA32F"], R, 16, F32X4, "0123", F, true, false),
    row!(Nv10, 0x4c, "FLOAT_R32_NV", ["R32F"], R, 4, F32, "0zzo", F, true, false),
];

/// `nv40_tex_format` (envytools `rnndb/graph/nv30-40_3d.xml`), and the same formats with the
/// `TEX_FORMAT` LINEAR bit (bit 13, `0x20` of the FORMAT byte) as `_RECT` rows.
pub(crate) static NV40_FORMATS: &[PreG80Format] = &[
    row!(Nv40, 0x01, "L8", ["Y8"], NV40, 1, S8, "000o", UN, false, false),
    row!(Nv40, 0x02, "A1R5G5B5", [], NV40, 2, S1555, "2103", UN, false, false),
    row!(Nv40, 0x03, "A4R4G4B4", [], NV40, 2, S4444, "2103", UN, false, false),
    row!(Nv40, 0x04, "R5G6B5", [], NV40, 2, S565, "210o", UN, false, false),
    row!(Nv40, 0x05, "A8R8G8B8", [], NV40, 4, S8888, "2103", UN, false, false),
    row!(Nv40, 0x06, "DXT1", ["BC1"], NV40, 8, Layout::Compressed(Bc::Bc1), "0123", UN, false, false),
    row!(Nv40, 0x07, "DXT3", ["BC2"], NV40, 16, Layout::Compressed(Bc::Bc2), "0123", UN, false, false),
    row!(Nv40, 0x08, "DXT5", ["BC3"], NV40, 16, Layout::Compressed(Bc::Bc3), "0123", UN, false, false),
    row!(Nv40, 0x0b, "A8L8", ["A8Y8"], NV40, 2, S88, "0001", UN, false, false),
    row!(Nv40, 0x10, "Z24", ["Z24S8"], NV40, 4, Z24S8, "0123", UN, false, false),
    row!(Nv40, 0x12, "Z16", [], NV40, 2, Z16, "0123", UN, false, false),
    row!(Nv40, 0x14, "A16", [], NV40, 2, S16, "zzz0", UN, false, false),
    row!(Nv40, 0x15, "A16L16", [], NV40, 4, S1616, "0001", UN, false, false),
    row!(Nv40, 0x18, "HILO8", [], NV40, 2, S88, "10oo", UN, false, false),
    row!(Nv40, 0x1a, "RGBA16F", ["FLOAT_RGBA16_NV"], NV40, 8, F16X4, "0123", F, false, false),
    row!(Nv40, 0x1b, "RGBA32F", ["FLOAT_RGBA32_NV"], NV40, 16, F32X4, "0123", F, false, false),
    row!(Nv40, 0x21, "L8_RECT", ["Y8_RECT"], NV40, 1, S8, "000o", UN, true, false),
    row!(Nv40, 0x22, "A1R5G5B5_RECT", [], NV40, 2, S1555, "2103", UN, true, false),
    row!(Nv40, 0x23, "A4R4G4B4_RECT", [], NV40, 2, S4444, "2103", UN, true, false),
    row!(Nv40, 0x24, "R5G6B5_RECT", [], NV40, 2, S565, "210o", UN, true, false),
    row!(Nv40, 0x25, "A8R8G8B8_RECT", [], NV40, 4, S8888, "2103", UN, true, false),
    row!(Nv40, 0x2b, "A8L8_RECT", ["A8Y8_RECT"], NV40, 2, S88, "0001", UN, true, false),
    row!(Nv40, 0x30, "Z24_RECT", ["Z24S8_RECT"], NV40, 4, Z24S8, "0123", UN, true, false),
    row!(Nv40, 0x32, "Z16_RECT", [], NV40, 2, Z16, "0123", UN, true, false),
    row!(Nv40, 0x34, "A16_RECT", [], NV40, 2, S16, "zzz0", UN, true, false),
    row!(Nv40, 0x35, "A16L16_RECT", [], NV40, 4, S1616, "0001", UN, true, false),
    row!(Nv40, 0x38, "HILO8_RECT", [], NV40, 2, S88, "10oo", UN, true, false),
    row!(Nv40, 0x3a, "RGBA16F_RECT", ["FLOAT_RGBA16_NV_RECT"], NV40, 8, F16X4, "0123", F, true, false),
    row!(Nv40, 0x3b, "RGBA32F_RECT", ["FLOAT_RGBA32_NV_RECT"], NV40, 16, F32X4, "0123", F, true, false),
];
