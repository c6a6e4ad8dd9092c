//! Element layouts: where the components of one element live ([`Layout`], the document's
//! categories: simple bitfields, shared exponent, YUV, zeta, compressed, bitmap), with the
//! depth encodings and bit positions of the zeta formats ([`ZType`], [`ZetaLayout`]).

use crate::codec::Bc;

/// Depth encodings of zeta formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ZType {
    /// 16-bit unsigned normalized (G200+).
    Unorm16,
    /// 24-bit unsigned normalized.
    Unorm24,
    /// 32-bit float.
    Float32,
    /// NV2A's 24-bit float depth (`SZ_DEPTH_X8_Y24_FLOAT`): no sign, 8-bit exponent (bias 127),
    /// 16-bit mantissa; its f32 is the 24 bits shifted left by 7 (xemu
    /// `hw/xbox/nv2a/pgraph/util.h`, `convert_f24_to_float`).
    Float24Nv2a,
    /// NV2A's 16-bit float depth (`SZ_DEPTH_Y16_FLOAT`): no sign, 4-bit exponent (bias 7),
    /// 12-bit mantissa, largest value 511.9375; its f32 is the 16 bits shifted left by 11 plus
    /// `0x3C000000`, and 0 is 0 (xemu `hw/xbox/nv2a/pgraph/util.h`, `convert_f16_to_float`).
    Float16Nv2a,
}

impl ZType {
    /// True for the float encodings (their Z is an f32 when decoded).
    pub const fn is_float(self) -> bool {
        matches!(self, ZType::Float32 | ZType::Float24Nv2a | ZType::Float16Nv2a)
    }
}

/// Where Z, S and C live in a zeta element (bit offsets from the LSB of the little-endian
/// element; S and C are 8 bits wide).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ZetaLayout {
    /// Bit offset of Z.
    pub z_lo: u8,
    /// Encoding of Z.
    pub z: ZType,
    /// Bit offset of the 8-bit stencil, if any.
    pub s_lo: Option<u8>,
    /// Bit offset of the 8-bit coverage (CSAA) value, if any; kept raw.
    pub c_lo: Option<u8>,
}

/// The element layout of a texture format: the document's categories.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Simple color: bitfield widths of C0, C1, ... from the LSB; the rest is padding.
    Simple(&'static [u8]),
    /// `9_9_9_E5`: three 9-bit mantissas and a shared 5-bit exponent.
    SharedExp,
    /// Two pixels per element: byte positions of U, YA (first pixel), V and YB.
    Yuv {
        /// Byte of U (C0).
        u: u8,
        /// Byte of the first pixel's Y (C1).
        ya: u8,
        /// Byte of V (C2).
        v: u8,
        /// Byte of the second pixel's Y.
        yb: u8,
    },
    /// Depth/stencil/coverage.
    Zeta(ZetaLayout),
    /// Compressed block: 4x4 pixels (BC, ETC2/EAC) or the ASTC footprint.
    Compressed(Bc),
    /// 64-bit element, 8x8 one-bit samples, LSB first, x then y.
    Bitmap,
}

impl Layout {
    /// The document's category name.
    pub const fn category(&self) -> &'static str {
        match self {
            Layout::Simple(_) => "simple",
            Layout::SharedExp => "shared_exponent",
            Layout::Yuv { .. } => "yuv",
            Layout::Zeta(_) => "zeta",
            Layout::Compressed(_) => "compressed",
            Layout::Bitmap => "bitmap",
        }
    }

    /// Pixels per element in x and y.
    pub const fn block_dims(&self) -> (u32, u32) {
        match self {
            Layout::Yuv { .. } => (2, 1),
            Layout::Compressed(bc) => bc.block_dims(),
            Layout::Bitmap => (8, 8),
            _ => (1, 1),
        }
    }

    /// Number of components C0.. the element holds.
    pub fn component_count(&self) -> usize {
        match self {
            Layout::Simple(b) => b.len(),
            Layout::SharedExp | Layout::Yuv { .. } => 3,
            Layout::Zeta(z) => {
                if z.c_lo.is_some() {
                    3
                } else if z.s_lo.is_some() {
                    2
                } else {
                    1
                }
            }
            Layout::Compressed(Bc::Bc4 | Bc::EacR11) | Layout::Bitmap => 1,
            Layout::Compressed(Bc::Bc5 | Bc::EacRg11) => 2,
            Layout::Compressed(Bc::Bc6hSigned | Bc::Bc6hUnsigned | Bc::Etc2Rgb) => 3,
            Layout::Compressed(_) => 4,
        }
    }
}
