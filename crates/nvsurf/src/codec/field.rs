//! Component fields: [`ComponentType`] (how the bits of one component are read, the TIC's
//! `TYPE0`-`TYPE3`) and the codec of one `bits`-wide field of that type to and from a 32-bit
//! register value (unorm, snorm, sint, uint, and the 32-, 16-, 11- and 10-bit floats).

use super::numbers::ONE_F;
use super::numbers::{f10_to_f32, f11_to_f32, f16_to_f32, f32_to_f10, f32_to_f11, f32_to_f16, mask, sign_extend};
use crate::error::{closest, Error, Result};
use alloc::string::ToString;

/// How the bits of a component are read (TIC `TYPE0`-`TYPE3`, rnndb `G80_TIC_TYPE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ComponentType {
    /// Unsigned normalized: `x / (2^n - 1)`.
    Unorm,
    /// Signed normalized: `max(x / (2^(n-1) - 1), -1)`.
    Snorm,
    /// Signed integer (sign-extended to 32 bits).
    Sint,
    /// Unsigned integer.
    Uint,
    /// Floating point (32, 16, or the unsigned 11 and 10 bit floats).
    Float,
}

impl ComponentType {
    /// Parses `unorm`, `snorm`, `sint`, `uint` or `float` (case-insensitive).
    pub fn parse(s: &str) -> Result<Self> {
        let all = [
            ("unorm", Self::Unorm),
            ("snorm", Self::Snorm),
            ("sint", Self::Sint),
            ("uint", Self::Uint),
            ("float", Self::Float),
        ];
        all.iter().find(|(n, _)| n.eq_ignore_ascii_case(s.trim())).map(|p| p.1).ok_or_else(|| Error::UnknownName {
            kind: "component type",
            name: s.to_string(),
            suggestions: closest(s, all.iter().map(|p| p.0)),
        })
    }

    /// Lower-case name.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Unorm => "unorm",
            Self::Snorm => "snorm",
            Self::Sint => "sint",
            Self::Uint => "uint",
            Self::Float => "float",
        }
    }

    /// True for sint and uint (the texel holds an integer, not a float).
    pub const fn is_integer(self) -> bool {
        matches!(self, Self::Sint | Self::Uint)
    }
}

/// Decodes one `bits`-wide field (1..=32 bits, from a format's component list) of type `ty`
/// to a register value.
#[inline]
pub(crate) fn decode_field(raw: u32, bits: u32, ty: ComponentType) -> u32 {
    match ty {
        ComponentType::Unorm => ((f64::from(raw) / mask(bits) as f64) as f32).to_bits(),
        ComponentType::Snorm => {
            let max = f64::from((1u32 << (bits - 1)) - 1);
            ((f64::from(sign_extend(raw, bits)) / max).max(-1.0) as f32).to_bits()
        }
        ComponentType::Sint => sign_extend(raw, bits) as u32,
        ComponentType::Uint => raw,
        ComponentType::Float => match bits {
            16 => f16_to_f32(raw as u16).to_bits(),
            11 => f11_to_f32(raw).to_bits(),
            10 => f10_to_f32(raw).to_bits(),
            _ => raw,
        },
    }
}

/// Encodes a register value into a `bits`-wide field (1..=32 bits, from a format's component
/// list) of type `ty` (round to nearest, saturating).
#[inline]
pub(crate) fn encode_field(v: u32, bits: u32, ty: ComponentType) -> u32 {
    let m = mask(bits);
    let out = match ty {
        ComponentType::Unorm => {
            let f = f32::from_bits(v);
            let f = if f.is_nan() { 0.0 } else { f64::from(f).clamp(0.0, 1.0) };
            libm::round(f * m as f64) as u64
        }
        ComponentType::Snorm => {
            let f = f32::from_bits(v);
            let f = if f.is_nan() { 0.0 } else { f64::from(f).clamp(-1.0, 1.0) };
            let max = ((1u64 << (bits - 1)) - 1) as f64;
            (libm::round(f * max) as i64) as u64
        }
        ComponentType::Sint => {
            let lo = -(1i64 << (bits - 1));
            let hi = (1i64 << (bits - 1)) - 1;
            (i64::from(v as i32).clamp(lo, hi)) as u64
        }
        ComponentType::Uint => u64::from(v).min(m),
        ComponentType::Float => match bits {
            16 => u64::from(f32_to_f16(f32::from_bits(v))),
            11 => u64::from(f32_to_f11(f32::from_bits(v))),
            10 => u64::from(f32_to_f10(f32::from_bits(v))),
            _ => u64::from(v),
        },
    };
    (out & m) as u32
}

/// The register value of "one" for a component of type `ty` (integer 1 or float 1.0).
#[inline]
pub(crate) fn one_of(ty: ComponentType) -> u32 {
    if ty.is_integer() {
        1
    } else {
        ONE_F
    }
}
