//! Value codecs: the number formats of the G80+ surface formats, independent of the format
//! tables. [`crate::format`] builds its element decoders and encoders
//! ([`Format::decode_element`](crate::format::Format::decode_element) and the rest) on these;
//! this module never looks at a format.
//!
//! The number formats (envytools `docs/hw/memory/g80-surface.rst`, "Surface formats"; rnndb
//! `G80_TIC_TYPE`):
//! - unorm `n` bits: `x / (2^n - 1)`; snorm: `max(x / (2^(n-1) - 1), -1)` (so both -2^(n-1)
//!   and -2^(n-1)+1 read -1.0, and -1.0 encodes as -2^(n-1)+1).
//! - float 32 (IEEE single), 16 (IEEE half), and the unsigned 11-bit (5-bit exponent, 6-bit
//!   mantissa) and 10-bit (5/5) floats of `11_11_10`, with denormals, infinities and NaNs.
//!   Encoding rounds to nearest even, overflows to infinity, and (for 11/10 bits) sends
//!   negative values and -0 to +0; NaN stays NaN with the top mantissa bits kept.
//! - `9_9_9_E5`: value = mantissa * 2^(E - 15 - 9); encoding follows the shared-exponent rule
//!   (clamp to [0, 65408], exponent from the largest component, round to nearest).
//! - sRGB: the IEC 61966-2-1 curve on R, G, B (not A).
//! - YUV: C0 = U, C1 = Y, C2 = V (same document, "YUV color formats"); the optional
//!   [`YuvMatrix`] converts limited-range ("studio", Y 16-235, U/V 16-240) BT.601 or BT.709
//!   YCbCr to RGB (ITU-R BT.601-7 / BT.709-6 coefficients).
//!
//! A decoded pixel is a [`Texel`]: four 32-bit registers, as the texture unit returns them
//! (floats as their bits, integers as two's complement; `OneInt` is `1`, `OneFloat` is
//! `0x3f800000`, rnndb `G80_TIC_MAP`). A format's `channel_kinds` says how to read each
//! ([`ValueKind`]).
//!
//! Modules: `numbers` (one value), `field` ([`ComponentType`] and one bitfield), `yuv`,
//! `bc` ([`Bc`] blocks; our BC1-BC5 decoders in `bc_s3tc`, their x86_64 rows in
//! `bc_s3tc_x86`; our BC7 decoder in `bc7`, the specification's tables in `bc7_tables`; our
//! ASTC decoder in `astc`, with `astc_tables`, `astc_ise` and `astc_infill`; ETC2/EAC in
//! `astc_etc`), `bc_encode` (BC encoding through maintained crates, feature `bc-encode`),
//! `astc_encode` (ASTC LDR encoding through Intel's ISPC encoder, feature `bc-encode`),
//! `encode_options` ([`EncodeOptions`], [`BcQuality`])
//! and `lut` (the RGBA8 row kernels).

mod astc;
#[cfg(feature = "bc-encode")]
mod astc_encode;
mod astc_etc;
mod astc_infill;
mod astc_ise;
mod astc_tables;
mod bc;
mod bc7;
mod bc7_tables;
#[cfg(target_arch = "x86_64")]
mod bc7_x86;
#[cfg(feature = "bc-encode")]
pub(crate) mod bc_encode;
mod bc_s3tc;
#[cfg(target_arch = "x86_64")]
mod bc_s3tc_x86;
mod encode_options;
mod field;
pub(crate) mod lut;
mod numbers;
mod yuv;

pub(crate) use astc::astc_rgba8;
#[cfg(feature = "bc-encode")]
pub use astc_encode::{astc_footprint_refusal, encode_astc_rgba8, ISPC_ASTC_MAX_SIDE};
pub(crate) use astc_etc::{etc_rgba8, EtcColour};
#[cfg(test)]
pub(crate) use bc::s3tc_row_rgba8;
pub use bc::Bc;
pub(crate) use bc::{bc_rgba8, decode_bc, BlockRows};
pub(crate) use bc_s3tc::{RgtcRgba8, S3tc};
pub use encode_options::{BcQuality, EncodeOptions};
pub use field::ComponentType;
pub(crate) use field::{decode_field, encode_field, one_of};
pub use numbers::{
    f10_to_f32, f11_to_f32, f16_to_f32, f32_to_f10, f32_to_f11, f32_to_f16, f32_to_rgb9e5, linear_to_srgb,
    rgb9e5_to_f32, srgb_to_linear, srgb_to_linear_exact,
};
pub(crate) use numbers::{mask, read_le, sign_extend, unit_to_int, ONE_F};
pub use yuv::YuvMatrix;
pub(crate) use yuv::{rgb_to_yuv, yuv_to_rgb};

/// One decoded pixel: the R, G, B, A registers (float bits or integers).
pub type Texel = [u32; 4];

/// How to read one channel of a [`Texel`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValueKind {
    /// `f32::from_bits`.
    Float,
    /// `i32` (two's complement).
    Sint,
    /// `u32`.
    Uint,
}

/// The largest number of pixels in one element (a 12x12 ASTC block).
pub const MAX_PIXELS_PER_ELEM: usize = astc_etc::MAX_BLOCK_PIXELS;

#[cfg(all(test, feature = "std"))]
mod astc_tests;
#[cfg(test)]
mod tests;
