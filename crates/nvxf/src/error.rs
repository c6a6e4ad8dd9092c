//! The typed error of every fallible nvxf function.
//!
//! Messages name the field, the value and the rule, e.g.
//! `address 0x6 is not word-aligned (bits 0-1 must be 0)`.

use alloc::string::String;
use alloc::vec::Vec;

/// Everything that can go wrong in nvxf. Bad input never panics: it ends up here.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A number is outside the range the hardware field can hold.
    #[error("{field} {value:#x} is out of range (at most {max:#x})")]
    OutOfRange {
        /// Name of the field.
        field: &'static str,
        /// The offending value.
        value: u64,
        /// The largest allowed value.
        max: u64,
    },
    /// An address computation does not fit its type.
    #[error("{field} {value:#x} overflows 32 bits")]
    Overflow {
        /// Name of the field.
        field: &'static str,
        /// The offending value.
        value: u64,
    },
    /// A number breaks an alignment or format rule.
    #[error("{field} {value:#x} {rule}")]
    Invalid {
        /// Name of the field.
        field: &'static str,
        /// The offending value.
        value: u64,
        /// The rule it breaks, as a sentence fragment.
        rule: &'static str,
    },
    /// The thing asked for is not documented for (or does not exist on) this generation.
    #[error("{what}")]
    Unsupported {
        /// What is unsupported, as a sentence.
        what: String,
    },
    /// A name (GPU, command, slot) is not known.
    #[error("unknown {kind} '{name}'{}", suggest(.suggestions))]
    UnknownName {
        /// What kind of name was looked up.
        kind: &'static str,
        /// The name given.
        name: String,
        /// Close matches, best first.
        suggestions: Vec<&'static str>,
    },
    /// A trace line could not be parsed.
    #[error("line {line}: {msg}")]
    Parse {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        msg: String,
    },
}

fn suggest(s: &[&'static str]) -> String {
    if s.is_empty() {
        String::new()
    } else {
        let mut out = String::from(" (did you mean ");
        for (i, n) in s.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(n);
        }
        out.push(')');
        out
    }
}

/// Result with the nvxf [`Error`].
pub type Result<T> = core::result::Result<T, Error>;

/// Edit distance between two ASCII-case-insensitive strings (in characters).
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().map(|c| c.to_ascii_lowercase()).collect();
    let b: Vec<char> = b.chars().map(|c| c.to_ascii_lowercase()).collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = alloc::vec![0usize; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        core::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The known names closest to `name` (at most 3, within an edit distance of 3).
pub fn closest(name: &str, known: &[&'static str]) -> Vec<&'static str> {
    let mut scored: Vec<(usize, &'static str)> =
        known.iter().map(|k| (distance(name, k), *k)).filter(|(d, _)| *d <= 3).collect();
    scored.sort();
    scored.into_iter().take(3).map(|(_, k)| k).collect()
}

/// Builds an [`Error::UnknownName`] with suggestions from `known`.
pub fn unknown(kind: &'static str, name: &str, known: &[&'static str]) -> Error {
    Error::UnknownName { kind, name: String::from(name), suggestions: closest(name, known) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_finds_typos() {
        assert_eq!(closest("nv2o", &["NV20", "NV2A", "NV40"])[0], "NV20");
        assert!(closest("zzzzzz", &["NV20"]).is_empty());
    }

    #[test]
    fn messages_name_field_value_rule() {
        let e = Error::Invalid { field: "address", value: 6, rule: "is not word-aligned (bits 0-1 must be 0)" };
        assert_eq!(alloc::format!("{e}"), "address 0x6 is not word-aligned (bits 0-1 must be 0)");
        let u = unknown("gpu", "nv2o", &["NV20", "NV2A"]);
        assert!(alloc::format!("{u}").contains("did you mean NV20"));
    }
}
