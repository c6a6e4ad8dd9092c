//! The library's typed error.
//!
//! Every error names the field, the value and the rule that was broken, so that its `Display`
//! form is a complete one-line explanation ("pitch 100 is not a multiple of 64").

use alloc::string::String;
use alloc::vec::Vec;

/// Result type of the library.
pub type Result<T, E = Error> = core::result::Result<T, E>;

/// Everything that can go wrong when building a descriptor or moving bytes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A numeric field lies outside its allowed closed range `min..=max`.
    #[error("{field} {value} is out of range {min}..={max}")]
    OutOfRange {
        /// The field, as the CLI and docs name it.
        field: &'static str,
        /// The value given.
        value: u64,
        /// Smallest allowed value.
        min: u64,
        /// Largest allowed value.
        max: u64,
    },
    /// A field must be a multiple of some alignment.
    #[error("{field} {value} is not a multiple of {multiple}")]
    NotMultiple {
        /// The field.
        field: &'static str,
        /// The value given.
        value: u64,
        /// The required multiple.
        multiple: u64,
    },
    /// A field must be a power of two.
    #[error("{field} {value} is not a power of two")]
    NotPowerOfTwo {
        /// The field.
        field: &'static str,
        /// The value given.
        value: u64,
    },
    /// An element size that the layout or GPU does not accept.
    #[error("elem_size {value} is not allowed: {rule}")]
    ElemSize {
        /// The element size in bytes.
        value: u64,
        /// The rule, e.g. "must be 1, 2, 4, 8 or 16 (12 on GF100+)".
        rule: &'static str,
    },
    /// A size or address computation left the GPU's 40-bit address space (or u64).
    #[error("{what} overflows the 40-bit address space ({detail})")]
    Overflow {
        /// What was being computed ("surface size", "address").
        what: &'static str,
        /// The numbers involved, for the reader.
        detail: String,
    },
    /// A coordinate (or box) lies outside the surface.
    #[error("{field} {value} is outside the surface ({field} must be below {limit})")]
    OutOfBounds {
        /// The coordinate's name ("x", "y", "z", "box x+w", ...).
        field: &'static str,
        /// The value given.
        value: u64,
        /// The exclusive limit.
        limit: u64,
    },
    /// A caller's buffer is too small for the operation.
    #[error("{what} holds {got} bytes but {needed} bytes are needed")]
    BufferTooSmall {
        /// Which buffer ("tiled input", "linear output", ...).
        what: &'static str,
        /// Bytes needed.
        needed: u64,
        /// Bytes available.
        got: u64,
    },
    /// A combination that the hardware (or the model) does not support.
    #[error("{field} {value} is not supported: {rule}")]
    Unsupported {
        /// The field ("layout", "gob order", "binding", ...).
        field: &'static str,
        /// The value given, as text.
        value: String,
        /// The rule that rejects it.
        rule: String,
    },
    /// A name that matched nothing; the closest known names are listed.
    #[error("unknown {kind} '{name}'{}", suggest(.suggestions))]
    UnknownName {
        /// What kind of name ("gpu", "format", "binding point", ...).
        kind: &'static str,
        /// The name given.
        name: String,
        /// Up to a few close matches.
        suggestions: Vec<String>,
    },
    /// A format name that the chosen GPU's tables lack; the closest names and aliases are
    /// listed (`unknown format 'RGBA8_UNROM' for G80+; did you mean RGBA8_UNORM, ...?`).
    #[error("unknown format '{name}' for {gpu}{}", did_you_mean(.suggestions))]
    UnknownFormat {
        /// The name given.
        name: String,
        /// The GPU (or `G80+` for the G80 and later tables).
        gpu: String,
        /// Up to three close names.
        suggestions: Vec<String>,
    },
    /// A malformed DRM format modifier ([`ModifierError`]).
    #[error(transparent)]
    Modifier(#[from] ModifierError),
    /// Text that could not be parsed.
    #[error("cannot parse {field} '{value}': {rule}")]
    Parse {
        /// What was being parsed.
        field: &'static str,
        /// The text given.
        value: String,
        /// What form was expected.
        rule: &'static str,
    },
}

/// A DRM format modifier (`crate::modifier`) that is not a well-formed NVIDIA block-linear (or linear) modifier: the field,
/// its value and the rule it breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModifierError {
    /// The field (`vendor`, `block-linear bit`, `reserved bits 5-11`, `gob kind generation`, ...).
    pub field: &'static str,
    /// The field's value.
    pub value: u64,
    /// The rule it breaks.
    pub rule: &'static str,
}

impl core::fmt::Display for ModifierError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "modifier {} {:#x} is invalid: {}", self.field, self.value, self.rule)
    }
}

impl core::error::Error for ModifierError {}

fn suggest(s: &[String]) -> String {
    if s.is_empty() {
        String::new()
    } else {
        alloc::format!(" (did you mean {}?)", s.join(", "))
    }
}

fn did_you_mean(s: &[String]) -> String {
    if s.is_empty() {
        String::new()
    } else {
        alloc::format!("; did you mean {}?", s.join(", "))
    }
}

/// The top of the GPU virtual address space: 2^40 bytes.
pub const ADDRESS_SPACE_BYTES: u64 = 1 << 40;

/// Checks that `[address, address + size)` fits in the 40-bit space.
pub fn check_span(what: &'static str, address: u64, size_bytes: u64) -> Result<()> {
    match address.checked_add(size_bytes) {
        Some(end) if end <= ADDRESS_SPACE_BYTES => Ok(()),
        _ => Err(Error::Overflow {
            what,
            detail: alloc::format!("address {address:#x} + {size_bytes:#x} bytes is past {ADDRESS_SPACE_BYTES:#x}"),
        }),
    }
}

/// Multiplies with overflow reported as [`Error::Overflow`] of `what`.
pub(crate) fn mul(what: &'static str, a: u64, b: u64) -> Result<u64> {
    a.checked_mul(b).ok_or_else(|| Error::Overflow { what, detail: alloc::format!("{a} x {b} overflows 64 bits") })
}

/// A zero-filled buffer of `bytes` for `what`, or [`Error::Overflow`] when it does not fit in
/// `usize` and [`Error::Unsupported`] when the allocator refuses it (never an abort).
pub(crate) fn zeroed(what: &'static str, bytes: u64) -> Result<Vec<u8>> {
    zeroed_with(what, bytes, 0u8)
}

/// `n` copies of `fill`, or [`Error::Unsupported`] when the allocator refuses them.
pub(crate) fn zeroed_with<T: Clone>(
    what: &'static str,
    n: impl TryInto<usize> + Copy + core::fmt::Display,
    fill: T,
) -> Result<Vec<T>> {
    let bytes = n;
    let n: usize = n
        .try_into()
        .map_err(|_| Error::Overflow { what, detail: alloc::format!("{bytes} items do not fit in usize") })?;
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| Error::Unsupported {
        field: what,
        value: alloc::format!("{bytes} items"),
        rule: "the allocation failed".into(),
    })?;
    v.resize(n, fill);
    Ok(v)
}

/// Ranks `candidates` by edit distance to `name` (case-insensitive) and returns up to 3 close ones.
pub fn closest<'a, I: IntoIterator<Item = &'a str>>(name: &str, candidates: I) -> Vec<String> {
    let name = name.to_ascii_lowercase();
    let mut scored: Vec<(usize, String)> = candidates
        .into_iter()
        .map(|c| (edit_distance(&name, &c.to_ascii_lowercase()), String::from(c)))
        .filter(|(d, c)| *d <= 1.max(name.len() / 3) || (name.len() >= 2 && c.to_ascii_lowercase().starts_with(&name)))
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1.eq_ignore_ascii_case(&b.1));
    scored.into_iter().take(3).map(|(_, c)| c).collect()
}

/// Levenshtein distance on bytes.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = alloc::vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        core::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_field_value_rule() {
        let e = Error::NotMultiple { field: "pitch", value: 100, multiple: 64 };
        assert_eq!(e.to_string(), "pitch 100 is not a multiple of 64");
        let e = Error::UnknownName {
            kind: "gpu",
            name: "gf10".into(),
            suggestions: closest("gf10", ["gf100", "g80", "gk104"]),
        };
        assert_eq!(e.to_string(), "unknown gpu 'gf10' (did you mean gf100?)");
    }

    #[test]
    fn span_checks_40_bits() {
        assert!(check_span("surface", (1 << 40) - 16, 16).is_ok());
        assert!(matches!(check_span("surface", (1 << 40) - 16, 17), Err(Error::Overflow { .. })));
        assert!(matches!(check_span("surface", u64::MAX, 2), Err(Error::Overflow { .. })));
    }
}
