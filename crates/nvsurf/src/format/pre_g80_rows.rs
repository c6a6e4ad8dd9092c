//! The rows of each pre-G80 table ([`PreG80Table::rows`]), kept apart from the tables so that
//! the NV097 table can share the NV10 table's row type without a module cycle.

use super::nv097_catalogue::NV097_FORMATS;
use super::nv10_catalogue::{PreG80Format, PreG80Table, NV10_FORMATS, NV40_FORMATS};

impl PreG80Table {
    /// The rows of this table.
    pub fn rows(self) -> &'static [PreG80Format] {
        match self {
            PreG80Table::Nv10 => NV10_FORMATS,
            PreG80Table::Nv097 => NV097_FORMATS,
            PreG80Table::Nv40 => NV40_FORMATS,
        }
    }
}
