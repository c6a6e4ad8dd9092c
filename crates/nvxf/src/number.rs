//! Numbers as traces and flags write them: decimal or `0x` hex, `_` separators allowed, with
//! a one-line message that tells a text that is not a number from one that is too large.

use alloc::format;
use alloc::string::String;

/// Parses a decimal or `0x`-hex unsigned 32-bit number (`_` separators allowed).
pub fn parse_u32(s: &str) -> Option<u32> {
    parse_u32_checked(s).ok()
}

/// Why [`parse_u32_checked`] rejected a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NumberError {
    /// Not a decimal or `0x`-hex number at all.
    NotANumber,
    /// A well-formed number above `u32::MAX`.
    TooLarge,
}

/// Like [`parse_u32`], but tells a text that is not a number from a number too large for 32
/// bits, so that the caller can name the allowed range ([`number_error`]).
pub fn parse_u32_checked(s: &str) -> core::result::Result<u32, NumberError> {
    let t = s.trim();
    let (digits, radix) = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => (h, 16),
        None => (t, 10),
    };
    if digits.is_empty() || digits.starts_with('_') {
        return Err(NumberError::NotANumber);
    }
    let clean: String = digits.chars().filter(|c| *c != '_').collect();
    if clean.is_empty() || !clean.chars().all(|c| c.is_digit(radix)) {
        return Err(NumberError::NotANumber);
    }
    // Only digits are left, so the one way to fail is a value above u32::MAX.
    u32::from_str_radix(&clean, radix).map_err(|_| NumberError::TooLarge)
}

/// The one-line message for a `field` whose text `s` was rejected with `e`: "is not a number
/// (decimal or 0x hex)", or "is out of range (at most MAX)" for a number above `max`, the
/// largest value the field allows.
pub fn number_error(field: &str, s: &str, e: NumberError, max: u64) -> String {
    match e {
        NumberError::NotANumber => format!("{field} '{s}' is not a number (decimal or 0x hex)"),
        NumberError::TooLarge => format!("{field} '{s}' is out of range (at most {max:#x})"),
    }
}
