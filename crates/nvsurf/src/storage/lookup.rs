//! Finding a storage type: the entries of a table ([`Table::types`]), by id ([`lookup`]) or by
//! number or name ([`parse_type`]).

use super::types::{StorageType, Table};
use super::{g80, gf100};
use crate::error::{Error, Result};
use crate::gpu::Gpu;
use alloc::string::ToString;

impl Table {
    /// The entries of the table.
    pub fn types(self) -> &'static [StorageType] {
        match self {
            Table::G80 => g80::G80_TYPES,
            Table::Gf100 => gf100::GF100_KINDS,
        }
    }
}

/// Looks a storage type up by id in the table of `gpu`.
pub fn lookup(gpu: Gpu, id: u32) -> Option<&'static StorageType> {
    let table = Table::for_gpu(gpu)?;
    table.types().iter().find(|t| u32::from(t.id) == id)
}

/// Parses a storage type given as a number (`0x70`, `112`) or a name/alias of the table of
/// `gpu` (case-insensitive). Returns the id; the id need not exist (validation says why).
pub fn parse_type(gpu: Gpu, text: &str) -> Result<u32> {
    let t = text.trim();
    let num = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(h, 16).ok(),
        None => t.parse::<u32>().ok(),
    };
    if let Some(n) = num {
        return Ok(n);
    }
    let table = Table::for_gpu(gpu).ok_or_else(|| Error::Unsupported {
        field: "gpu",
        value: gpu.name().into(),
        rule: "storage types are modelled for G80 up to (not including) TU102".into(),
    })?;
    let up = t.to_ascii_uppercase();
    table.types().iter().find(|s| s.name == up || s.aliases.contains(&up.as_str())).map(|s| u32::from(s.id)).ok_or_else(
        || Error::UnknownName {
            kind: "storage type",
            name: t.to_string(),
            suggestions: crate::error::closest(
                &up,
                table.types().iter().flat_map(|s| core::iter::once(s.name).chain(s.aliases.iter().copied())),
            ),
        },
    )
}
