//! XF's 32-bit float rules and LT's 22-bit floats.
//!
//! Source: XF overview, section "Structure and operation": "denormals are not supported (and
//! are considered equal to 0)", "Whenever a NaN is created, the value 0x7fffffff is used", and
//! "The 22-bit float format ... works like the 32-bit float format with the low 10 bits cut
//! off (and assumed to be 0)". The rounding of the 32-to-22-bit conversion follows envytools
//! `nvhw/xf.c` `xf_s2lt` (checked against hardware): add 0x200 before dropping the 10 bits,
//! except when bits 10-17 are all ones; the document's plain truncation stays selectable.

/// The NaN XF produces: "Whenever a NaN is created, the value 0x7fffffff is used".
pub const XF_NAN: u32 = 0x7fff_ffff;

/// 1.0 as a 32-bit float (0x3f800000), the W that VAB writes set.
pub const ONE: u32 = 0x3f80_0000;

/// True when the bits are a NaN (exponent all ones, fraction not zero).
pub fn is_nan(bits: u32) -> bool {
    bits & 0x7f80_0000 == 0x7f80_0000 && bits & 0x007f_ffff != 0
}

/// True when XF treats the bits as zero: zero exponent, i.e. a true zero or a denormal
/// ("denormals are not supported (and are considered equal to 0)").
pub fn is_zero(bits: u32) -> bool {
    bits & 0x7f80_0000 == 0
}

/// The value XF computes with: denormals become a zero of the same sign, every NaN becomes
/// [`XF_NAN`]; other values are unchanged.
pub fn canonical(bits: u32) -> u32 {
    if is_nan(bits) {
        XF_NAN
    } else if is_zero(bits) {
        bits & 0x8000_0000
    } else {
        bits
    }
}

/// Equality as XF sees it: all zeros and denormals are equal; NaN equals nothing.
pub fn xf_eq(a: u32, b: u32) -> bool {
    if is_nan(a) || is_nan(b) {
        return false;
    }
    (is_zero(a) && is_zero(b)) || a == b
}

/// Converts a host float result into XF's representation (NaN -> 0x7fffffff, denormal ->
/// signed zero).
pub fn from_f32(v: f32) -> u32 {
    canonical(v.to_bits())
}

/// The host value of XF bits (denormals read as zero, NaNs as a NaN).
pub fn to_f32(bits: u32) -> f32 {
    f32::from_bits(canonical(bits))
}

/// How the 32-bit to 22-bit LT conversion treats the 10 dropped bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum LtRounding {
    /// The document's wording: the low 10 bits are cut off (`--rules overview`).
    Truncate,
    /// envytools `nvhw/xf.c` `xf_s2lt`, checked against hardware (the default): add 0x200
    /// then drop 10 bits, unless bits 10-17 are all ones (then truncate). The condition is on
    /// bits 10-17, not on the exponent: a NaN whose truncation is an infinity stays a NaN.
    /// The Celsius `pgraph_celsius_convert_light_v` (`(v & 0x3ffff) < 0x3fe00`) gives the same
    /// 22 bits.
    #[default]
    Nearest,
}

impl LtRounding {
    /// Lower-case name (`truncate`, `nearest`).
    pub fn name(self) -> &'static str {
        match self {
            LtRounding::Truncate => "truncate",
            LtRounding::Nearest => "nearest",
        }
    }
}

/// The 22-bit LT float (in the low 22 bits) of a 32-bit float.
pub fn to_lt22(bits: u32, rounding: LtRounding) -> u32 {
    let r = match rounding {
        LtRounding::Truncate => bits,
        LtRounding::Nearest if bits >> 10 & 0xff != 0xff => bits.wrapping_add(0x200),
        LtRounding::Nearest => bits,
    };
    r >> 10
}

/// The 32-bit float a 22-bit LT float stands for ("the low 10 bits cut off (and assumed to
/// be 0)").
pub fn from_lt22(lt: u32) -> u32 {
    (lt & 0x3f_ffff) << 10
}

/// A 32-bit word as LT stores it: converted to 22 bits and back (low 10 bits zero).
pub fn lt_store(bits: u32, rounding: LtRounding) -> u32 {
    from_lt22(to_lt22(bits, rounding))
}

/// A 32-bit word as a Celsius LTC entry stores it (envytools `nvhw/pgraph_celsius.c`
/// `pgraph_celsius_convert_light_sx`, checked by `hwtest` `PipeWriteLightS*Test`): a zero
/// exponent (zero or denormal) becomes +0; an infinity loses its sign (0x7f800000); a NaN
/// with any of bits 9-22 set becomes 0x7ffffc00 (one with only bits 0-8 set reads as an
/// infinity); other values are rounded as [`lt_store`].
pub fn celsius_ltc_store(bits: u32, rounding: LtRounding) -> u32 {
    match bits >> 23 & 0xff {
        0 => 0,
        0xff if bits >> 9 & 0x3fff != 0 => 0x7fff_fc00,
        0xff => 0x7f80_0000,
        _ => lt_store(bits, rounding),
    }
}
