//! YUV to RGB: [`YuvMatrix`] and the limited-range ("studio": Y 16-235, U/V 16-240) BT.601 /
//! BT.709 YCbCr conversions of 8-bit codes (ITU-R BT.601-7 / BT.709-6 coefficients), both
//! ways. The YUV formats' element layout (C0 = U, C1 = Y, C2 = V) is the format's business;
//! this module only converts the three codes of one pixel.

use crate::error::{Error, Result};

/// Conversion of the YUV formats' components to RGB.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum YuvMatrix {
    /// No conversion: R, G, B read U, Y, V through the swizzle.
    Raw,
    /// ITU-R BT.601, limited range.
    Bt601,
    /// ITU-R BT.709, limited range.
    Bt709,
}

impl YuvMatrix {
    /// Parses `raw`, `bt601` or `bt709` (also `601`, `709`).
    pub fn parse(s: &str) -> Result<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "raw" | "none" => Ok(Self::Raw),
            "bt601" | "601" | "bt.601" => Ok(Self::Bt601),
            "bt709" | "709" | "bt.709" => Ok(Self::Bt709),
            _ => Err(Error::UnknownName {
                kind: "yuv matrix",
                name: s.into(),
                suggestions: crate::error::closest(s, ["raw", "bt601", "bt709"]),
            }),
        }
    }

    /// Lower-case name.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Raw => "raw",
            Self::Bt601 => "bt601",
            Self::Bt709 => "bt709",
        }
    }

    /// (Kr, Kb) luma coefficients.
    const fn kr_kb(self) -> (f64, f64) {
        match self {
            Self::Bt709 => (0.2126, 0.0722),
            _ => (0.299, 0.114),
        }
    }
}

/// Limited-range YCbCr (8-bit codes) to RGB.
#[inline]
pub(crate) fn yuv_to_rgb(m: YuvMatrix, y: u32, u: u32, v: u32) -> [f32; 3] {
    let (kr, kb) = m.kr_kb();
    let kg = 1.0 - kr - kb;
    let yy = (f64::from(y) - 16.0) / 219.0;
    let pb = (f64::from(u) - 128.0) / 224.0;
    let pr = (f64::from(v) - 128.0) / 224.0;
    let r = yy + 2.0 * (1.0 - kr) * pr;
    let b = yy + 2.0 * (1.0 - kb) * pb;
    let g = (yy - kr * r - kb * b) / kg;
    [r as f32, g as f32, b as f32]
}

/// RGB to limited-range YCbCr 8-bit codes (Y, U, V), rounded and clamped.
#[inline]
pub(crate) fn rgb_to_yuv(m: YuvMatrix, rgb: [f32; 3]) -> (u32, u32, u32) {
    let (kr, kb) = m.kr_kb();
    let kg = 1.0 - kr - kb;
    let [r, g, b] = rgb.map(|x| if x.is_nan() { 0.0 } else { f64::from(x) });
    let yy = kr * r + kg * g + kb * b;
    let pb = (b - yy) / (2.0 * (1.0 - kb));
    let pr = (r - yy) / (2.0 * (1.0 - kr));
    let q = |x: f64| libm::round(x).clamp(0.0, 255.0) as u32;
    (q(16.0 + 219.0 * yy), q(128.0 + 224.0 * pb), q(128.0 + 224.0 * pr))
}
