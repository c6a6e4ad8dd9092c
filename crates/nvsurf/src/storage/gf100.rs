//! The GF100 storage "kinds" table (8-bit kind, compression implied by the kind), GF100:TU102.
//!
//! Source: envytools rnndb `memory/gf100_vm.xml`, enum `GF100_STORAGE_TYPE` (ids and names).
//! rnndb names the partly understood kinds `UNKxx_...`; they are kept, marked provisional.
//! What the table derives from the names: the zeta layout (`Z16`, `Z24_S8`, ...), compression
//! (`_COMP`), element size of the color kinds (`TILED_32/64/128`) and the multisample modes
//! (`_MSn`, `_MSn_CSm`; no suffix = any mode). rnndb says nothing about long-range reordering
//! on GF100, so it is `None` (unknown). GF100 has no separate compression field (`GF100_PTE`
//! has none); compressed kinds in system RAM fault (`GF100_VM_FAULT` 0xa `COMPRESSED_SYSRAM`).
//! Turing (TU102+) uses a different kind numbering (Mesa `nvc0_miptree.c`,
//! `tu102_choose_tiled_storage_type`) that this table does not describe.

use super::types::{Class, CompressionRule, ElemRule, SampleRule, StorageType, Table, ZetaFamily};
use crate::gpu::Gpu;

const SRC: &str = "rnndb memory/gf100_vm.xml (GF100_STORAGE_TYPE)";

const fn kind(
    id: u8,
    name: &'static str,
    class: Class,
    elem: ElemRule,
    comp: bool,
    samples: SampleRule,
) -> StorageType {
    let b = name.as_bytes();
    let provisional = b.len() > 3 && b[0] == b'U' && b[1] == b'N' && b[2] == b'K';
    StorageType {
        table: Table::Gf100,
        id,
        name,
        aliases: &[],
        class,
        reorder: None,
        compression: CompressionRule::InKind(comp),
        elem,
        samples,
        min_gpu: Gpu::Gf100,
        source: SRC,
        provisional,
    }
}

const fn z(id: u8, name: &'static str, fam: ZetaFamily, comp: bool, samples: SampleRule) -> StorageType {
    kind(id, name, Class::Zeta, ElemRule::Zeta(fam), comp, samples)
}

const fn c(id: u8, name: &'static str, size: &'static [u8], family: &'static [u32]) -> StorageType {
    kind(id, name, Class::Color, ElemRule::Sizes(size), true, SampleRule::Families(family))
}

use SampleRule::{Exact, Plain, PlainAny};
use ZetaFamily as F;

const S32: &[u8] = &[4];
const S64: &[u8] = &[8];
const S128: &[u8] = &[16];

/// The GF100 storage kinds, by id.
pub static GF100_KINDS: &[StorageType] = &[
    kind(0x00, "LINEAR", Class::Pitch, ElemRule::Any, false, SampleRule::Any),
    z(0x01, "Z16", F::Z16, false, PlainAny),
    z(0x02, "UNK02_Z16_COMP_MS1", F::Z16, true, Plain(1)),
    z(0x03, "UNK03_Z16_COMP_MS2", F::Z16, true, Plain(2)),
    z(0x04, "UNK04_Z16_COMP_MS4", F::Z16, true, Plain(4)),
    z(0x05, "UNK05_Z16_COMP_MS8", F::Z16, true, Plain(8)),
    z(0x07, "UNK07_Z16_COMP_MS1", F::Z16, true, Plain(1)),
    z(0x08, "UNK08_Z16_COMP_MS2", F::Z16, true, Plain(2)),
    z(0x09, "UNK09_Z16_COMP_MS4", F::Z16, true, Plain(4)),
    z(0x0a, "UNK0A_Z16_COMP_MS8", F::Z16, true, Plain(8)),
    // rnndb: "also X8Z24".
    z(0x11, "Z24_S8", F::Z24S8, false, PlainAny),
    z(0x17, "Z24_S8_COMP_MS1", F::Z24S8, true, Plain(1)),
    z(0x18, "Z24_S8_COMP_MS2", F::Z24S8, true, Plain(2)),
    z(0x19, "Z24_S8_COMP_MS4", F::Z24S8, true, Plain(4)),
    z(0x1a, "Z24_S8_COMP_MS8", F::Z24S8, true, Plain(8)),
    z(0x26, "Z24_C8_MS4_CS12", F::Z24C8, false, Exact(0x9)),
    z(0x27, "Z24_C8_MS4_CS4", F::Z24C8, false, Exact(0x8)),
    z(0x28, "Z24_C8_MS8_CS8", F::Z24C8, false, Exact(0xa)),
    z(0x29, "Z24_C8_MS8_CS24", F::Z24C8, false, Exact(0xb)),
    z(0x3a, "UNK3A_Z24_C8_COMP_MS4_CS12", F::Z24C8, true, Exact(0x9)),
    z(0x3b, "UNK3B_Z24_C8_COMP_MS4_CS4", F::Z24C8, true, Exact(0x8)),
    z(0x3c, "UNK3C_Z24_C8_COMP_MS8_CS8", F::Z24C8, true, Exact(0xa)),
    z(0x3d, "UNK3D_Z24_C8_COMP_MS8_CS24", F::Z24C8, true, Exact(0xb)),
    z(0x3e, "UNK3E_Z24_C8_COMP_MS4_CS12", F::Z24C8, true, Exact(0x9)),
    z(0x3f, "UNK3F_Z24_C8_COMP_MS4_CS4", F::Z24C8, true, Exact(0x8)),
    z(0x40, "UNK40_Z24_C8_COMP_MS8_CS8", F::Z24C8, true, Exact(0xa)),
    z(0x41, "UNK41_Z24_C8_COMP_MS8_CS24", F::Z24C8, true, Exact(0xb)),
    z(0x46, "S8_Z24", F::S8Z24, false, PlainAny),
    z(0x51, "S8_Z24_COMP_MS1", F::S8Z24, true, Plain(1)),
    z(0x52, "S8_Z24_COMP_MS2", F::S8Z24, true, Plain(2)),
    z(0x53, "S8_Z24_COMP_MS4", F::S8Z24, true, Plain(4)),
    z(0x54, "S8_Z24_COMP_MS8", F::S8Z24, true, Plain(8)),
    z(0x7b, "Z32", F::Z32, false, PlainAny),
    z(0x86, "Z32_COMP_MS1", F::Z32, true, Plain(1)),
    z(0x87, "Z32_COMP_MS2", F::Z32, true, Plain(2)),
    z(0x88, "Z32_COMP_MS4", F::Z32, true, Plain(4)),
    z(0x89, "Z32_COMP_MS8", F::Z32, true, Plain(8)),
    z(0x8b, "Z24_S8_C8_MS4_CS12", F::Z24X8S8C8X16, false, Exact(0x9)),
    z(0x8c, "Z24_S8_C8_MS4_CS4", F::Z24X8S8C8X16, false, Exact(0x8)),
    z(0x8d, "Z24_S8_C8_MS8_CS8", F::Z24X8S8C8X16, false, Exact(0xa)),
    z(0x8e, "Z24_S8_C8_MS8_CS24", F::Z24X8S8C8X16, false, Exact(0xb)),
    z(0xa3, "Z24_S8_C8_COMP_MS4_CS12", F::Z24X8S8C8X16, true, Exact(0x9)),
    z(0xa4, "Z24_S8_C8_COMP_MS4_CS4", F::Z24X8S8C8X16, true, Exact(0x8)),
    z(0xa5, "Z24_S8_C8_COMP_MS8_CS8", F::Z24X8S8C8X16, true, Exact(0xa)),
    z(0xa6, "Z24_S8_C8_COMP_MS8_CS24", F::Z24X8S8C8X16, true, Exact(0xb)),
    z(0xa7, "Z32_S8_C8_MS4_CS12", F::Z32S8C8X16, false, Exact(0x9)),
    z(0xa8, "Z32_S8_C8_MS4_CS4", F::Z32S8C8X16, false, Exact(0x8)),
    z(0xa9, "Z32_S8_C8_MS8_CS8", F::Z32S8C8X16, false, Exact(0xa)),
    z(0xaa, "Z32_S8_C8_MS8_CS24", F::Z32S8C8X16, false, Exact(0xb)),
    z(0xbf, "Z32_S8_C8_COMP_MS4_CS12", F::Z32S8C8X16, true, Exact(0x9)),
    z(0xc0, "Z32_S8_C8_COMP_MS4_CS4", F::Z32S8C8X16, true, Exact(0x8)),
    z(0xc1, "Z32_S8_C8_COMP_MS8_CS8", F::Z32S8C8X16, true, Exact(0xa)),
    z(0xc2, "Z32_S8_C8_COMP_MS8_CS24", F::Z32S8C8X16, true, Exact(0xb)),
    z(0xc3, "Z32_S8", F::Z32S8X24, false, PlainAny),
    c(0xcc, "UNKCC_TILED_32_COMP_MS2", S32, &[2]),
    c(0xcd, "UNKCD_TILED_64_COMP_MS2", S64, &[2]),
    z(0xce, "Z32_S8_COMP_MS1", F::Z32S8X24, true, Plain(1)),
    z(0xcf, "Z32_S8_COMP_MS2", F::Z32S8X24, true, Plain(2)),
    z(0xd0, "Z32_S8_COMP_MS4", F::Z32S8X24, true, Plain(4)),
    z(0xd1, "Z32_S8_COMP_MS8", F::Z32S8X24, true, Plain(8)),
    c(0xd8, "UNKD8_TILED_32_COMP", S32, &[1]),
    c(0xdb, "UNKDB_TILED_32_COMP", S32, &[1]),
    c(0xdd, "UNKDD_TILED_32_COMP_MS2", S32, &[2]),
    c(0xdf, "UNKDF_TILED_32_COMP_MS4", S32, &[4]),
    c(0xe0, "UNKE0_TILED_32_COMP_MS4", S32, &[4]),
    c(0xe2, "UNKE2_TILED_32_COMP_MS4", S32, &[4]),
    c(0xe3, "UNKE3_TILED_32_COMP_MS4", S32, &[4]),
    c(0xe4, "UNKE4_TILED_32_COMP_MS8", S32, &[8]),
    c(0xe5, "UNKE5_TILED_32_COMP_MS8", S32, &[8]),
    c(0xe6, "UNKE6_TILED_64_COMP", S64, &[1]),
    c(0xe9, "UNKE9_TILED_64_COMP", S64, &[1]),
    c(0xeb, "UNKEB_TILED_64_COMP_MS2", S64, &[2]),
    c(0xed, "UNKED_TILED_64_COMP_MS4", S64, &[4]),
    c(0xee, "UNKEE_TILED_64_COMP_MS4", S64, &[4]),
    c(0xf0, "UNKF0_TILED_64_COMP_MS4", S64, &[4]),
    c(0xf1, "UNKF1_TILED_64_COMP_MS4", S64, &[4]),
    c(0xf2, "UNKF2_TILED_64_COMP_MS8", S64, &[8]),
    c(0xf3, "UNKF3_TILED_64_COMP_MS8", S64, &[8]),
    c(0xf4, "UNKF4_TILED_128_COMP", S128, &[1]),
    c(0xf5, "UNKF5_TILED_128_COMP", S128, &[1]),
    c(0xf6, "UNKF6_TILED_128_COMP_MS2", S128, &[2]),
    c(0xf7, "UNKF7_TILED_128_COMP_MS2", S128, &[2]),
    c(0xf8, "UNKF8_TILED_128_COMP_MS4", S128, &[4]),
    c(0xf9, "UNKF9_TILED_128_COMP_MS4", S128, &[4]),
    c(0xfa, "UNKFA_TILED_128_COMP_MS8", S128, &[8]),
    c(0xfb, "UNKFB_TILED_128_COMP_MS8", S128, &[8]),
    kind(0xfd, "UNKFD_LINEAR", Class::Pitch, ElemRule::Any, false, SampleRule::Any),
    kind(0xfe, "TILED", Class::Color, ElemRule::Sizes(&[1, 2, 4, 8, 12, 16]), false, SampleRule::Any),
];
