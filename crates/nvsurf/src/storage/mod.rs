//! Storage types: the G80 table (7-bit type + 2-bit compression), the GF100 kinds, the
//! validation of a (gpu, storage type, compression, format, sample mode, memory, layout, binding)
//! combination with every broken rule explained, and the type a driver would pick.
//!
//! Sources: envytools `docs/hw/memory/g80-surface.rst` "G80 storage types" (pitch and blocklinear
//! color types, the rules quoted in [`validate`]); envytools rnndb `memory/g80_vm.xml` and
//! `memory/gf100_vm.xml` (ids and names, including the zeta types the document leaves out); Mesa
//! `nv50_miptree.c` and `nvc0_miptree.c` (what [`suggest`] picks); Mesa's nil `image.rs` (what
//! NVK picks: [`suggest_nvk`]).

pub(crate) mod g80;
pub(crate) mod gf100;
pub(crate) mod lookup;
mod nvk;
pub(crate) mod request;
mod suggest;
pub(crate) mod types;
mod validate;

pub use lookup::{lookup, parse_type};
pub(crate) use nvk::{colour_kind_1x, is_blackwell_or_later};
pub use nvk::{suggest_for, suggest_nvk, Driver};
pub use request::{FormatSpec, Memory, SurfaceLayout};
pub use suggest::{suggest, Suggestion};
pub use types::{
    Class, Compression, CompressionRule, ElemRule, Reorder, SampleRule, StorageType, Table, ZetaFamily, ZETA_FAMILIES,
};
pub use validate::{validate, Combination, Reason, Report};
