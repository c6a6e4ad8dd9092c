//! The storage type entry ([`StorageType`]) and its fields: the table it belongs to, its class,
//! reordering, compression, element and sample rules, and the zeta families.

use crate::error::{Error, Result};
use crate::gpu::Gpu;
use crate::msaa::mode::MsMode;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// Which storage type table applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Table {
    /// G80:GF100: 7-bit storage type plus a separate 2-bit compression mode.
    G80,
    /// GF100:TU102: 8-bit kinds, compression implied by the kind.
    Gf100,
}

impl Table {
    /// The table used by `gpu`; `None` before G80 (no storage types) and from Turing on
    /// (a different kind numbering, not modelled).
    pub fn for_gpu(gpu: Gpu) -> Option<Table> {
        if gpu < Gpu::G80 || gpu >= Gpu::Tu102 {
            None
        } else if gpu.is_gf100_or_later() {
            Some(Table::Gf100)
        } else {
            Some(Table::G80)
        }
    }

    /// Largest id the hardware field can hold: 0x7f (7 bits) on G80, 0xff on GF100.
    pub fn max_id(self) -> u32 {
        match self {
            Table::G80 => 0x7f,
            Table::Gf100 => 0xff,
        }
    }

    /// Lower-case name for JSON and messages.
    pub fn name(self) -> &'static str {
        match self {
            Table::G80 => "g80",
            Table::Gf100 => "gf100",
        }
    }
}

/// The group a storage type belongs to (envytools `docs/hw/memory/g80-surface.rst`: pitch,
/// blocklinear color, zeta).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    /// Storage type 0: pitch surfaces and non-surface buffers.
    Pitch,
    /// Blocklinear color (non-zeta) surfaces.
    Color,
    /// Zeta (depth/stencil/coverage) surfaces.
    Zeta,
}

impl Class {
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Class::Pitch => "pitch",
            Class::Color => "color",
            Class::Zeta => "zeta",
        }
    }
}

/// Long range reordering (envytools `docs/hw/memory/g80-surface.rst`): only VRAM is reordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reorder {
    /// No reordering (storage type 0 only).
    None,
    /// Small scale: gobs rearranged inside a 4 kB page.
    Ssr,
    /// Large scale: based on the VRAM geometry.
    Lsr,
}

impl Reorder {
    /// Upper-case name as in the document.
    pub fn name(self) -> &'static str {
        match self {
            Reorder::None => "NONE",
            Reorder::Ssr => "SSR",
            Reorder::Lsr => "LSR",
        }
    }
}

/// The G80 compression mode (2-bit field, envytools `docs/hw/memory/g80-surface.rst` / rnndb
/// `G80_COMPRESSION`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Compression {
    /// 0: no compression.
    None,
    /// 1: 2 tag bits per gob, 1 tag cell per 64 kB page.
    Single,
    /// 2: 4 tag bits per gob, 2 tag cells per 64 kB page.
    Double,
}

impl Compression {
    /// Parses `none`, `single`, `double` or `0`-`2`.
    pub fn parse(text: &str) -> Result<Compression> {
        match text.trim().to_ascii_lowercase().as_str() {
            "none" | "0" => Ok(Compression::None),
            "single" | "1" => Ok(Compression::Single),
            "double" | "2" => Ok(Compression::Double),
            _ => Err(Error::UnknownName {
                kind: "compression mode",
                name: text.to_string(),
                suggestions: crate::error::closest(text, ["none", "single", "double"]),
            }),
        }
    }

    /// The field value (0-2).
    pub fn id(self) -> u8 {
        self as u8
    }

    /// Upper-case name.
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "NONE",
            Compression::Single => "SINGLE",
            Compression::Double => "DOUBLE",
        }
    }
}

/// Which compression modes a storage type accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompressionRule {
    /// The listed G80 modes (NONE is always among them).
    Modes(&'static [Compression]),
    /// G80 zeta types: no source says; NONE is certainly valid.
    Undocumented,
    /// GF100 kinds: compression is part of the kind (true = a compressed kind).
    InKind(bool),
}

/// The zeta layouts the zeta storage types are made for, named as the document's zeta formats
/// (bitfields listed from the LSB, the document's convention).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ZetaFamily {
    /// S8_Z24 (zeta format 0x14), 4 bytes.
    S8Z24,
    /// Z24_S8 (0x16) and Z24_X8 (0x15), 4 bytes.
    Z24S8,
    /// Z24_C8 (0x18), 4 bytes, with coverage.
    Z24C8,
    /// Z32 float (0x0a), 4 bytes.
    Z32,
    /// Z16 (0x13), 2 bytes, G200+.
    Z16,
    /// Z32_S8_X24 (0x19), 8 bytes.
    Z32S8X24,
    /// Z24_X8_S8_C8_X16 (0x1d), 8 bytes, with coverage.
    Z24X8S8C8X16,
    /// Z32_S8_C8_X16 (0x1f) and Z32_X8_C8_X16 (0x1e), 8 bytes, with coverage.
    Z32S8C8X16,
}

/// Every zeta family.
pub const ZETA_FAMILIES: [ZetaFamily; 8] = [
    ZetaFamily::S8Z24,
    ZetaFamily::Z24S8,
    ZetaFamily::Z24C8,
    ZetaFamily::Z32,
    ZetaFamily::Z16,
    ZetaFamily::Z32S8X24,
    ZetaFamily::Z24X8S8C8X16,
    ZetaFamily::Z32S8C8X16,
];

impl ZetaFamily {
    /// Element size in bytes.
    pub fn elem_size_bytes(self) -> u32 {
        match self {
            ZetaFamily::Z16 => 2,
            ZetaFamily::S8Z24 | ZetaFamily::Z24S8 | ZetaFamily::Z24C8 | ZetaFamily::Z32 => 4,
            ZetaFamily::Z32S8X24 | ZetaFamily::Z24X8S8C8X16 | ZetaFamily::Z32S8C8X16 => 8,
        }
    }

    /// Whether the layout has a C (coverage) component.
    pub fn has_coverage(self) -> bool {
        matches!(self, ZetaFamily::Z24C8 | ZetaFamily::Z24X8S8C8X16 | ZetaFamily::Z32S8C8X16)
    }

    /// The zeta format names (document spelling) of this family, canonical first.
    pub fn format_names(self) -> &'static [&'static str] {
        match self {
            ZetaFamily::S8Z24 => &["S8_Z24"],
            ZetaFamily::Z24S8 => &["Z24_S8", "Z24_X8"],
            ZetaFamily::Z24C8 => &["Z24_C8"],
            ZetaFamily::Z32 => &["Z32"],
            ZetaFamily::Z16 => &["Z16"],
            ZetaFamily::Z32S8X24 => &["Z32_S8_X24"],
            ZetaFamily::Z24X8S8C8X16 => &["Z24_X8_S8_C8_X16"],
            ZetaFamily::Z32S8C8X16 => &["Z32_S8_C8_X16", "Z32_X8_C8_X16"],
        }
    }

    /// The family of a zeta format name (case-insensitive; `Z32F` is accepted for `Z32`).
    pub fn from_format_name(name: &str) -> Option<ZetaFamily> {
        let n = name.trim().to_ascii_uppercase();
        let n = if n == "Z32F" || n == "Z32_FLOAT" { String::from("Z32") } else { n };
        ZETA_FAMILIES.into_iter().find(|f| f.format_names().contains(&n.as_str()))
    }

    /// First generation with the layout (Z16 is G200+, envytools `docs/hw/memory/g80-surface.rst`).
    pub fn min_gpu(self) -> Gpu {
        if self == ZetaFamily::Z16 {
            Gpu::G200
        } else {
            Gpu::G80
        }
    }
}

/// What element sizes or formats a storage type accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElemRule {
    /// Anything (storage type 0).
    Any,
    /// Non-zeta formats with these element sizes in bytes.
    Sizes(&'static [u8]),
    /// Texture format 8_8_8_X8 (0x07) and its color formats only (the BLOCKLINEAR_24 types).
    Format24,
    /// Zeta formats of this layout.
    Zeta(ZetaFamily),
}

/// Which multisample modes a storage type accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SampleRule {
    /// Any mode.
    Any,
    /// Modes whose full-sample count is listed ("MS1, MS2*, MS4*" = `[1, 2, 4]`; CSAA modes
    /// count by their full samples, MS4_CS12 is an MS4* mode).
    Families(&'static [u32]),
    /// The non-CSAA modes with this many full samples (MS2 and MS2_ALT for 2).
    Plain(u32),
    /// Any non-CSAA mode.
    PlainAny,
    /// Exactly this mode id.
    Exact(u8),
}

impl SampleRule {
    /// Whether `mode` is accepted.
    pub fn accepts(self, mode: MsMode) -> bool {
        match self {
            SampleRule::Any => true,
            SampleRule::Families(f) => f.contains(&mode.family()),
            SampleRule::Plain(n) => !mode.is_csaa() && mode.family() == n,
            SampleRule::PlainAny => !mode.is_csaa(),
            SampleRule::Exact(id) => mode.id() == id,
        }
    }

    /// The accepted modes, by name.
    pub fn mode_names(self) -> Vec<&'static str> {
        MsMode::all().filter(|m| self.accepts(*m)).map(|m| m.name()).collect()
    }
}

/// One storage type (G80) or kind (GF100).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StorageType {
    /// The table it belongs to.
    pub table: Table,
    /// The id (7-bit on G80, 8-bit on GF100).
    pub id: u8,
    /// Name: the document's for the G80 pitch/color types, rnndb's otherwise.
    pub name: &'static str,
    /// Other names (rnndb's `TILED*` for the document's `BLOCKLINEAR*`, `LINEAR` for `PITCH`).
    pub aliases: &'static [&'static str],
    /// Pitch, color or zeta.
    pub class: Class,
    /// Long range reordering; `None` where no source says (GF100).
    pub reorder: Option<Reorder>,
    /// Valid compression modes.
    pub compression: CompressionRule,
    /// Valid element sizes or formats.
    pub elem: ElemRule,
    /// Valid multisample modes.
    pub samples: SampleRule,
    /// First generation with this type.
    pub min_gpu: Gpu,
    /// Where the entry comes from.
    pub source: &'static str,
    /// True for rnndb's partly understood `UNKxx` kinds.
    pub provisional: bool,
}

impl StorageType {
    /// Whether the type exists on `gpu` (right table and generation).
    pub fn exists_on(&self, gpu: Gpu) -> bool {
        Table::for_gpu(gpu) == Some(self.table) && gpu >= self.min_gpu
    }

    /// Valid compression modes as names (`["NONE", "SINGLE"]`); on GF100 the kind's own.
    pub fn compression_names(&self) -> Vec<&'static str> {
        match self.compression {
            CompressionRule::Modes(m) => m.iter().map(|c| c.name()).collect(),
            CompressionRule::Undocumented => alloc::vec!["NONE", "(others undocumented)"],
            CompressionRule::InKind(true) => alloc::vec!["(compressed kind)"],
            CompressionRule::InKind(false) => alloc::vec!["NONE"],
        }
    }

    /// Valid formats as text (`"non-zeta, 4 bytes"`, `"zeta Z24_S8/Z24_X8"`, ...).
    pub fn formats_text(&self) -> String {
        match self.elem {
            ElemRule::Any => "any".into(),
            ElemRule::Sizes(s) => {
                let v: Vec<String> = s.iter().map(|b| b.to_string()).collect();
                alloc::format!("non-zeta, {} bytes", v.join("/"))
            }
            ElemRule::Format24 => "texture format 8_8_8_X8 (0x07) and its color formats".into(),
            ElemRule::Zeta(f) => alloc::format!("zeta {}", f.format_names().join("/")),
        }
    }
}
