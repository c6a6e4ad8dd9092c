//! [`Swizzle`]: the source of each output channel R, G, B, A of a texel (the TIC's
//! `MAPR`..`MAPA`, rnndb `G80_TIC_MAP`): one of the element's components C0-C3 or a constant.

use crate::error::{closest, Error, Result};
use alloc::string::ToString;

/// The source of one output component (TIC `MAPR`..`MAPA`, rnndb `G80_TIC_MAP`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Swizzle {
    /// Component C0 of the element.
    C0,
    /// Component C1.
    C1,
    /// Component C2.
    C2,
    /// Component C3.
    C3,
    /// Constant 0.
    Zero,
    /// Integer 1 (`0x00000001`).
    OneInt,
    /// Float 1.0 (`0x3f800000`).
    OneFloat,
}

impl Swizzle {
    /// Parses `c0`..`c3`, `zero`, `one_int`, `one_float` (also `0`, `1`, `r`, `g`, `b`, `a`
    /// as C0-C3), case-insensitive.
    pub fn parse(s: &str) -> Result<Self> {
        let all = [
            ("c0", Self::C0),
            ("c1", Self::C1),
            ("c2", Self::C2),
            ("c3", Self::C3),
            ("zero", Self::Zero),
            ("one_int", Self::OneInt),
            ("one_float", Self::OneFloat),
            ("r", Self::C0),
            ("g", Self::C1),
            ("b", Self::C2),
            ("a", Self::C3),
            ("0", Self::Zero),
            ("1", Self::OneFloat),
        ];
        all.iter().find(|(n, _)| n.eq_ignore_ascii_case(s.trim())).map(|p| p.1).ok_or_else(|| Error::UnknownName {
            kind: "swizzle source",
            name: s.to_string(),
            suggestions: closest(s, all.iter().take(7).map(|p| p.0)),
        })
    }

    /// Canonical lower-case name.
    pub const fn name(self) -> &'static str {
        match self {
            Self::C0 => "c0",
            Self::C1 => "c1",
            Self::C2 => "c2",
            Self::C3 => "c3",
            Self::Zero => "zero",
            Self::OneInt => "one_int",
            Self::OneFloat => "one_float",
        }
    }

    /// The component index for C0-C3.
    pub const fn component(self) -> Option<usize> {
        match self {
            Self::C0 => Some(0),
            Self::C1 => Some(1),
            Self::C2 => Some(2),
            Self::C3 => Some(3),
            _ => None,
        }
    }
}
