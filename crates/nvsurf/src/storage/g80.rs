//! The G80 storage type table (7-bit type + 2-bit compression), G80:GF100.
//!
//! Sources:
//! - envytools `docs/hw/memory/g80-surface.rst`, "G80 storage types": the pitch type 0x00 and the
//!   blocklinear color types (reordering, valid compression modes, element sizes, multisample
//!   modes).
//! - envytools rnndb `memory/g80_vm.xml`, enum `G80_STORAGE_TYPE`: every id and name, including
//!   the zeta types the document leaves out ("Zeta storage types: write me") and the
//!   `variants="G200-"` marks. rnndb names the color types `TILED*` where the document says
//!   `BLOCKLINEAR*`; both are accepted.
//!
//! For the zeta types, the reordering comes from the rnndb names (`_LSR` = LSR, otherwise SSR),
//! the element size from the zeta layout in the name, and the multisample modes from the
//! `_MSn`/`_MSn_CSm` suffix. Which compression modes a zeta type accepts is written nowhere:
//! [`CompressionRule::Undocumented`] (validation reports it as a note, not as a broken rule;
//! Mesa's nv50 driver does use DOUBLE for Z24_S8, `nv50_miptree.c`, memtype 0x128 + ms).

use super::types::Compression::{None as CN, Single as CS};
use super::types::{
    Class, Compression, CompressionRule, ElemRule, Reorder, SampleRule, StorageType, Table, ZetaFamily,
};
use crate::gpu::Gpu;

const DOC: &str = "envytools docs/hw/memory/g80-surface.rst \"G80 storage types\"; rnndb memory/g80_vm.xml";
const RNNDB: &str = "rnndb memory/g80_vm.xml (G80_STORAGE_TYPE)";

#[allow(clippy::too_many_arguments)]
const fn color(
    id: u8,
    name: &'static str,
    rnndb: &'static [&'static str],
    reorder: Reorder,
    comp: &'static [Compression],
    elem: ElemRule,
    samples: SampleRule,
    min_gpu: Gpu,
) -> StorageType {
    StorageType {
        table: Table::G80,
        id,
        name,
        aliases: rnndb,
        class: Class::Color,
        reorder: Some(reorder),
        compression: CompressionRule::Modes(comp),
        elem,
        samples,
        min_gpu,
        source: DOC,
        provisional: false,
    }
}

const fn zeta(
    id: u8,
    name: &'static str,
    fam: ZetaFamily,
    lsr: bool,
    samples: SampleRule,
    min_gpu: Gpu,
) -> StorageType {
    StorageType {
        table: Table::G80,
        id,
        name,
        aliases: &[],
        class: Class::Zeta,
        reorder: Some(if lsr { Reorder::Lsr } else { Reorder::Ssr }),
        compression: CompressionRule::Undocumented,
        elem: ElemRule::Zeta(fam),
        samples,
        min_gpu,
        source: RNNDB,
        provisional: false,
    }
}

use ElemRule::{Format24, Sizes};
use Reorder::{Lsr, Ssr};
use SampleRule::{Any, Exact, Families, Plain};
use ZetaFamily as Z;

const SMALL: ElemRule = Sizes(&[1, 2, 4, 8]);
const MS124: SampleRule = Families(&[1, 2, 4]);
const MS8: SampleRule = Families(&[8]);
const G80: Gpu = Gpu::G80;
// OPEN (ERRATA): the BLOCKLINEAR_24 types exist on G200+ only per rnndb (variants="G200-").
const G200: Gpu = Gpu::G200;

/// The G80 storage types, by id.
pub static G80_TYPES: &[StorageType] = &[
    StorageType {
        table: Table::G80,
        id: 0x00,
        name: "PITCH",
        aliases: &["LINEAR"],
        class: Class::Pitch,
        reorder: Some(Reorder::None),
        compression: CompressionRule::Modes(&[CN]),
        elem: ElemRule::Any,
        samples: Any,
        min_gpu: G80,
        source: DOC,
        provisional: false,
    },
    zeta(0x10, "S8_Z24_MS1", Z::S8Z24, false, Plain(1), G80),
    zeta(0x11, "S8_Z24_MS2", Z::S8Z24, false, Plain(2), G80),
    zeta(0x12, "S8_Z24_MS4", Z::S8Z24, false, Plain(4), G80),
    zeta(0x13, "S8_Z24_MS8", Z::S8Z24, false, Plain(8), G80),
    zeta(0x18, "S8_Z24_LSR_MS1", Z::S8Z24, true, Plain(1), G80),
    zeta(0x19, "S8_Z24_LSR_MS2", Z::S8Z24, true, Plain(2), G80),
    zeta(0x1a, "S8_Z24_LSR_MS4", Z::S8Z24, true, Plain(4), G80),
    zeta(0x1b, "S8_Z24_LSR_MS8", Z::S8Z24, true, Plain(8), G80),
    zeta(0x20, "Z24_S8_MS1", Z::Z24S8, false, Plain(1), G80),
    zeta(0x21, "Z24_S8_MS2", Z::Z24S8, false, Plain(2), G80),
    zeta(0x22, "Z24_S8_MS4", Z::Z24S8, false, Plain(4), G80),
    zeta(0x23, "Z24_S8_MS8", Z::Z24S8, false, Plain(8), G80),
    zeta(0x24, "Z24_C8_MS4_CS4", Z::Z24C8, false, Exact(0x8), G80),
    zeta(0x25, "Z24_C8_MS4_CS12", Z::Z24C8, false, Exact(0x9), G80),
    zeta(0x26, "Z24_C8_MS8_CS8", Z::Z24C8, false, Exact(0xa), G80),
    zeta(0x28, "Z24_S8_MS1_LSR", Z::Z24S8, true, Plain(1), G80),
    zeta(0x29, "Z24_S8_MS2_LSR", Z::Z24S8, true, Plain(2), G80),
    zeta(0x2a, "Z24_S8_MS4_LSR", Z::Z24S8, true, Plain(4), G80),
    zeta(0x2b, "Z24_S8_MS8_LSR", Z::Z24S8, true, Plain(8), G80),
    zeta(0x2c, "Z24_C8_MS4_CS4_LSR", Z::Z24C8, true, Exact(0x8), G80),
    zeta(0x2d, "Z24_C8_MS4_CS12_LSR", Z::Z24C8, true, Exact(0x9), G80),
    zeta(0x2e, "Z24_C8_MS8_CS8_LSR", Z::Z24C8, true, Exact(0xa), G80),
    zeta(0x40, "Z32_MS1", Z::Z32, false, Plain(1), G80),
    zeta(0x41, "Z32_MS2", Z::Z32, false, Plain(2), G80),
    zeta(0x42, "Z32_MS4", Z::Z32, false, Plain(4), G80),
    zeta(0x43, "Z32_MS8", Z::Z32, false, Plain(8), G80),
    color(0x44, "BLOCKLINEAR_24", &["TILED_24"], Ssr, &[CN], Format24, Any, G200),
    color(0x45, "BLOCKLINEAR_24_MS4", &["TILED_24_MS4"], Ssr, &[CN, CS], Format24, MS124, G200),
    color(0x46, "BLOCKLINEAR_24_MS8", &["TILED_24_MS8"], Ssr, &[CN, CS], Format24, MS8, G200),
    zeta(0x47, "Z32_MS1_LSR", Z::Z32, true, Plain(1), G80),
    zeta(0x48, "Z32_MS2_LSR", Z::Z32, true, Plain(2), G80),
    zeta(0x49, "Z32_MS4_LSR", Z::Z32, true, Plain(4), G80),
    zeta(0x4a, "Z32_MS8_LSR", Z::Z32, true, Plain(8), G80),
    color(0x4b, "BLOCKLINEAR_24_LSR", &["TILED_24_LSR"], Lsr, &[CN], Format24, Any, G200),
    color(0x4c, "BLOCKLINEAR_24_MS4_LSR", &["TILED_24_MS4_LSR"], Lsr, &[CN, CS], Format24, MS124, G200),
    color(0x4d, "BLOCKLINEAR_24_MS8_LSR", &["TILED_24_MS8_LSR"], Lsr, &[CN, CS], Format24, MS8, G200),
    zeta(0x54, "Z24_X8_S8_C8_X16_MS4_CS4", Z::Z24X8S8C8X16, false, Exact(0x8), G80),
    zeta(0x55, "Z24_X8_S8_C8_X16_MS4_CS12", Z::Z24X8S8C8X16, false, Exact(0x9), G80),
    zeta(0x56, "Z24_X8_S8_C8_X16_MS8_CS8", Z::Z24X8S8C8X16, false, Exact(0xa), G80),
    zeta(0x60, "Z32_S8_X24_MS1", Z::Z32S8X24, false, Plain(1), G80),
    zeta(0x61, "Z32_S8_X24_MS2", Z::Z32S8X24, false, Plain(2), G80),
    zeta(0x62, "Z32_S8_X24_MS4", Z::Z32S8X24, false, Plain(4), G80),
    zeta(0x63, "Z32_S8_X24_MS8", Z::Z32S8X24, false, Plain(8), G80),
    zeta(0x64, "Z32_S8_C8_X16_MS4_CS4", Z::Z32S8C8X16, false, Exact(0x8), G80),
    zeta(0x65, "Z32_S8_C8_X16_MS4_CS12", Z::Z32S8C8X16, false, Exact(0x9), G80),
    zeta(0x66, "Z32_S8_C8_X16_MS8_CS8", Z::Z32S8C8X16, false, Exact(0xa), G80),
    zeta(0x68, "Z16_MS1", Z::Z16, false, Plain(1), G200),
    zeta(0x69, "Z16_MS2", Z::Z16, false, Plain(2), G200),
    zeta(0x6a, "Z16_MS4", Z::Z16, false, Plain(4), G200),
    zeta(0x6b, "Z16_MS8", Z::Z16, false, Plain(8), G200),
    zeta(0x6c, "Z16_MS1_LSR", Z::Z16, true, Plain(1), G200),
    zeta(0x6d, "Z16_MS2_LSR", Z::Z16, true, Plain(2), G200),
    zeta(0x6e, "Z16_MS4_LSR", Z::Z16, true, Plain(4), G200),
    zeta(0x6f, "Z16_MS8_LSR", Z::Z16, true, Plain(8), G200),
    color(0x70, "BLOCKLINEAR", &["TILED"], Ssr, &[CN], SMALL, Any, G80),
    color(0x72, "BLOCKLINEAR_LSR", &["TILED_LSR"], Lsr, &[CN], SMALL, Any, G80),
    color(0x74, "BLOCKLINEAR_128", &["TILED_128"], Ssr, &[CN], Sizes(&[16]), Any, G80),
    color(0x76, "BLOCKLINEAR_128_LSR", &["TILED_128_LSR"], Lsr, &[CN], Sizes(&[16]), Any, G80),
    color(0x78, "BLOCKLINEAR_32_MS4", &["TILED_32_MS4"], Ssr, &[CN, CS], Sizes(&[4]), MS124, G80),
    color(0x79, "BLOCKLINEAR_32_MS8", &["TILED_32_MS8"], Ssr, &[CN, CS], Sizes(&[4]), MS8, G80),
    color(0x7a, "BLOCKLINEAR_32_MS4_LSR", &["TILED_32_MS4_LSR"], Lsr, &[CN, CS], Sizes(&[4]), MS124, G80),
    color(0x7b, "BLOCKLINEAR_32_MS8_LSR", &["TILED_32_MS8_LSR"], Lsr, &[CN, CS], Sizes(&[4]), MS8, G80),
    color(0x7c, "BLOCKLINEAR_64_MS4", &["TILED_64_MS4"], Ssr, &[CN, CS], Sizes(&[8]), MS124, G80),
    color(0x7d, "BLOCKLINEAR_64_MS8", &["TILED_64_MS8"], Ssr, &[CN, CS], Sizes(&[8]), MS8, G80),
];
