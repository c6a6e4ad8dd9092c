//! Element <-> pixel codecs for every format of [`crate::format`].
//!
//! The number formats (document, "Surface formats"; rnndb `G80_TIC_TYPE`):
//! - unorm `n` bits: `x / (2^n - 1)`; snorm: `max(x / (2^(n-1) - 1), -1)` (so both -2^(n-1)
//!   and -2^(n-1)+1 read -1.0, and -1.0 encodes as -2^(n-1)+1).
//! - float 32 (IEEE single), 16 (IEEE half), and the unsigned 11-bit (5-bit exponent, 6-bit
//!   mantissa) and 10-bit (5/5) floats of `11_11_10`, with denormals, infinities and NaNs.
//!   Encoding rounds to nearest even, overflows to infinity, and (for 11/10 bits) sends
//!   negative values and -0 to +0; NaN stays NaN with the top mantissa bits kept.
//! - `9_9_9_E5`: value = mantissa * 2^(E - 15 - 9); encoding follows the shared-exponent rule
//!   (clamp to [0, 65408], exponent from the largest component, round to nearest).
//! - sRGB: the IEC 61966-2-1 curve on R, G, B (not A).
//! - YUV: C0 = U, C1 = Y, C2 = V (document, "YUV color formats"); the optional
//!   [`YuvMatrix`] converts limited-range ("studio", Y 16-235, U/V 16-240) BT.601 or BT.709
//!   YCbCr to RGB (ITU-R BT.601-7 / BT.709-6 coefficients).
//!
//! A decoded pixel is a [`Texel`]: four 32-bit registers, as the texture unit returns them
//! (floats as their bits, integers as two's complement; `OneInt` is `1`, `OneFloat` is
//! `0x3f800000`, rnndb `G80_TIC_MAP`). [`Format::channel_kinds`] says how to read each.

use crate::error::{Error, Result};
use crate::format::{Bc, ComponentType, Format, Layout, Swizzle, ZType};

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

const ONE_F: u32 = 0x3f80_0000;

// ---------------------------------------------------------------------------------------------
// Number formats
// ---------------------------------------------------------------------------------------------

/// Decodes a small float (`e_bits` exponent, `m_bits` mantissa, optional sign bit above them)
/// to `f32`. Exact for every input. Crate-private: callers pass the widths of a known format
/// (`e_bits` 1..=8, `m_bits` 0..=23); the public way in is [`Format::decode_element`].
pub(crate) fn small_float_to_f32(bits: u32, e_bits: u32, m_bits: u32, signed: bool) -> f32 {
    let m = bits & ((1 << m_bits) - 1);
    let e = (bits >> m_bits) & ((1 << e_bits) - 1);
    let sign = if signed { (bits >> (m_bits + e_bits)) & 1 } else { 0 };
    let e_max = (1 << e_bits) - 1;
    let bias = (1i32 << (e_bits - 1)) - 1;
    let out = if e == e_max {
        0x7f80_0000 | (m << (23 - m_bits))
    } else if e == 0 {
        // Denormal: m * 2^(1 - bias - m_bits), exact in f32 for the formats used here.
        let scale = f32::from_bits(((1 - bias - m_bits as i32 + 127) as u32) << 23);
        return apply_sign(m as f32 * scale, sign);
    } else {
        (((e as i32 - bias + 127) as u32) << 23) | (m << (23 - m_bits))
    };
    f32::from_bits(out | (sign << 31))
}

fn apply_sign(v: f32, sign: u32) -> f32 {
    if sign == 1 {
        -v
    } else {
        v
    }
}

/// Encodes `x` as a small float (see [`small_float_to_f32`]), rounding to nearest even.
/// Unsigned formats send negative values (and -0, -inf) to +0.
pub(crate) fn f32_to_small_float(x: f32, e_bits: u32, m_bits: u32, signed: bool) -> u32 {
    let b = x.to_bits();
    let sign = b >> 31;
    let exp = ((b >> 23) & 0xff) as i32;
    let man = b & 0x7f_ffff;
    let e_max: u32 = (1 << e_bits) - 1;
    let bias = (1i32 << (e_bits - 1)) - 1;
    let sign_out = if signed { sign << (e_bits + m_bits) } else { 0 };
    if exp == 0xff && man != 0 {
        // NaN: keep the top mantissa bits, force a non-zero mantissa.
        let m = (man >> (23 - m_bits)).max(1);
        return sign_out | (e_max << m_bits) | m;
    }
    if !signed && sign == 1 {
        return 0;
    }
    if exp == 0xff {
        return sign_out | (e_max << m_bits);
    }
    if exp == 0 {
        // f32 denormals are far below the smallest small-float denormal.
        return sign_out;
    }
    let new_exp = exp - 127 + bias;
    if new_exp >= e_max as i32 {
        return sign_out | (e_max << m_bits);
    }
    let full = man | 0x80_0000;
    let (shift, e_out) =
        if new_exp <= 0 { ((23 - m_bits as i32 + 1 - new_exp) as u32, 0u32) } else { (23 - m_bits, new_exp as u32) };
    if shift > 24 {
        return sign_out;
    }
    let mut m = full >> shift;
    let rem = full & ((1 << shift) - 1);
    let half = 1 << (shift - 1);
    if rem > half || (rem == half && m & 1 == 1) {
        m += 1;
    }
    // For normals `m` carries the implicit bit; a carry out of the mantissa bumps the
    // exponent (to infinity at the top), which the addition does by itself.
    let v = if e_out == 0 { m } else { (e_out << m_bits) + m - (1 << m_bits) };
    sign_out | v
}

/// IEEE half to f32.
pub fn f16_to_f32(h: u16) -> f32 {
    small_float_to_f32(u32::from(h), 5, 10, true)
}

/// f32 to IEEE half, round to nearest even.
pub fn f32_to_f16(x: f32) -> u16 {
    f32_to_small_float(x, 5, 10, true) as u16
}

/// Unsigned 11-bit float (5e6m) to f32.
pub fn f11_to_f32(v: u32) -> f32 {
    small_float_to_f32(v & 0x7ff, 5, 6, false)
}

/// f32 to unsigned 11-bit float.
pub fn f32_to_f11(x: f32) -> u32 {
    f32_to_small_float(x, 5, 6, false)
}

/// Unsigned 10-bit float (5e5m) to f32.
pub fn f10_to_f32(v: u32) -> f32 {
    small_float_to_f32(v & 0x3ff, 5, 5, false)
}

/// f32 to unsigned 10-bit float.
pub fn f32_to_f10(x: f32) -> u32 {
    f32_to_small_float(x, 5, 5, false)
}

fn pow2(e: i32) -> f64 {
    f64::from_bits(((e + 1023) as u64) << 52)
}

/// Decodes a `9_9_9_E5` element to three floats.
pub fn rgb9e5_to_f32(v: u32) -> [f32; 3] {
    let e = (v >> 27) as i32;
    let s = pow2(e - 15 - 9);
    [0, 9, 18].map(|sh| (f64::from((v >> sh) & 0x1ff) * s) as f32)
}

/// Encodes three floats as `9_9_9_E5` (clamp to [0, 65408], NaN to 0, round to nearest).
pub fn f32_to_rgb9e5(c: [f32; 3]) -> u32 {
    const MAX: f64 = 65408.0; // (2^9 - 1) / 2^9 * 2^16
    let c = c.map(|x| if x.is_nan() { 0.0 } else { f64::from(x).clamp(0.0, MAX) });
    let maxc = c[0].max(c[1]).max(c[2]);
    // floor(log2(maxc)) from the exponent bits (exact); tiny values clamp to -16.
    let fl = if maxc < pow2(-16) { -16 } else { ((maxc.to_bits() >> 52) as i32) - 1023 };
    let mut e = fl.max(-16) + 1 + 15;
    let maxm = libm::floor(maxc / pow2(e - 15 - 9) + 0.5);
    if maxm >= 512.0 {
        e += 1;
    }
    let s = pow2(e - 15 - 9);
    let m = c.map(|x| (libm::floor(x / s + 0.5) as u32).min(511));
    m[0] | (m[1] << 9) | (m[2] << 18) | ((e as u32) << 27)
}

/// sRGB-encoded value to linear.
pub fn srgb_to_linear(c: f32) -> f32 {
    let c = f64::from(c);
    let l = if c <= 0.04045 { c / 12.92 } else { libm::pow((c + 0.055) / 1.055, 2.4) };
    l as f32
}

/// Linear value to sRGB-encoded.
pub fn linear_to_srgb(l: f32) -> f32 {
    let l = f64::from(l);
    let c = if l <= 0.003_130_8 { l * 12.92 } else { 1.055 * libm::pow(l, 1.0 / 2.4) - 0.055 };
    c as f32
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

fn sign_extend(raw: u32, bits: u32) -> i32 {
    let sh = 32 - bits;
    ((raw << sh) as i32) >> sh
}

/// Decodes one `bits`-wide field (1..=32 bits, from a format's component list) of type `ty`
/// to a register value.
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

fn one_of(ty: ComponentType) -> u32 {
    if ty.is_integer() {
        1
    } else {
        ONE_F
    }
}

fn read_le(bytes: &[u8]) -> u128 {
    let mut b = [0u8; 16];
    let n = bytes.len().min(16);
    b[..n].copy_from_slice(&bytes[..n]);
    u128::from_le_bytes(b)
}

fn unorm8(b: u8) -> u32 {
    (f32::from(b) / 255.0).to_bits()
}

// ---------------------------------------------------------------------------------------------
// Element codecs
// ---------------------------------------------------------------------------------------------

/// The largest number of pixels in one element (8x8 bitmap).
pub const MAX_PIXELS_PER_ELEM: usize = 64;

impl Format {
    /// How to read each channel of a decoded [`Texel`].
    pub fn channel_kinds(&self) -> [ValueKind; 4] {
        if self.yuv != YuvMatrix::Raw {
            return [ValueKind::Float; 4];
        }
        let of = |t: ComponentType| match t {
            ComponentType::Sint => ValueKind::Sint,
            ComponentType::Uint => ValueKind::Uint,
            _ => ValueKind::Float,
        };
        self.swizzle.map(|s| match s {
            Swizzle::OneFloat => ValueKind::Float,
            Swizzle::OneInt => {
                if self.types[0] == ComponentType::Sint {
                    ValueKind::Sint
                } else {
                    ValueKind::Uint
                }
            }
            Swizzle::Zero => of(self.types[0]),
            c => of(self.types[c.component().unwrap_or(0)]),
        })
    }

    fn missing(&self, i: usize) -> u32 {
        if i < 3 {
            0
        } else {
            one_of(self.types[3])
        }
    }

    fn defaults(&self) -> [u32; 4] {
        [0, 1, 2, 3].map(|i| self.missing(i))
    }

    /// Applies the swizzle (and sRGB decoding) to decoded components C0-C3.
    fn swizzled(&self, c: [u32; 4]) -> Texel {
        let mut t = self.swizzle.map(|s| match s {
            Swizzle::Zero => 0,
            Swizzle::OneInt => 1,
            Swizzle::OneFloat => ONE_F,
            s => c[s.component().unwrap_or(0)],
        });
        if self.srgb {
            let kinds = self.channel_kinds();
            for i in 0..3 {
                if kinds[i] == ValueKind::Float && self.swizzle[i].component().is_some() {
                    t[i] = srgb_to_linear(f32::from_bits(t[i])).to_bits();
                }
            }
        }
        t
    }

    /// Inverse of [`Self::swizzled`]: components C0-C3 from a texel; a component that no output
    /// reads gets 0 (or all ones for NVIDIA's `O...` formats).
    fn unswizzled(&self, t: &Texel) -> ([u32; 4], [bool; 4]) {
        let mut t = *t;
        if self.srgb {
            let kinds = self.channel_kinds();
            for i in 0..3 {
                if kinds[i] == ValueKind::Float && self.swizzle[i].component().is_some() {
                    t[i] = linear_to_srgb(f32::from_bits(t[i])).to_bits();
                }
            }
        }
        let mut c = [0u32; 4];
        let mut read = [false; 4];
        for (i, s) in self.swizzle.iter().enumerate() {
            if let Some(n) = s.component() {
                if !read[n] {
                    read[n] = true;
                    c[n] = t[i];
                }
            }
        }
        (c, read)
    }

    fn check_elem(&self, elem: &[u8]) -> Result<()> {
        let need = self.elem_size_bytes() as usize;
        if elem.len() < need {
            return Err(Error::BufferTooSmall { what: "element", needed: need as u64, got: elem.len() as u64 });
        }
        Ok(())
    }

    /// Decodes one element into its pixels (row by row, x fastest): 1, 2 (YUV), 16
    /// (compressed) or 64 (bitmap). Returns the number of pixels written.
    pub fn decode_element(&self, elem: &[u8], out: &mut [Texel]) -> Result<usize> {
        self.check_elem(elem)?;
        let n = self.pixels_per_elem();
        if out.len() < n {
            return Err(Error::BufferTooSmall { what: "pixel output", needed: n as u64, got: out.len() as u64 });
        }
        let elem = &elem[..self.elem_size_bytes() as usize];
        match self.tex.layout {
            Layout::Simple(bits) => {
                let v = read_le(elem);
                let mut c = self.defaults();
                let mut lo = 0u32;
                for (i, &b) in bits.iter().enumerate() {
                    let raw = ((v >> lo) as u64 & mask(u32::from(b))) as u32;
                    c[i] = decode_field(raw, u32::from(b), self.types[i]);
                    lo += u32::from(b);
                }
                out[0] = self.swizzled(c);
            }
            Layout::SharedExp => {
                let f = rgb9e5_to_f32(read_le(elem) as u32);
                let c = [f[0].to_bits(), f[1].to_bits(), f[2].to_bits(), self.missing(3)];
                out[0] = self.swizzled(c);
            }
            Layout::Yuv { u, ya, v, yb } => {
                let byte = |i: u8| u32::from(elem[usize::from(i)]);
                for (p, y) in [ya, yb].into_iter().enumerate() {
                    out[p] = if self.yuv == YuvMatrix::Raw {
                        let c = [
                            decode_field(byte(u), 8, self.types[0]),
                            decode_field(byte(y), 8, self.types[1]),
                            decode_field(byte(v), 8, self.types[2]),
                            self.missing(3),
                        ];
                        self.swizzled(c)
                    } else {
                        let rgb = yuv_to_rgb(self.yuv, byte(y), byte(u), byte(v));
                        [rgb[0].to_bits(), rgb[1].to_bits(), rgb[2].to_bits(), ONE_F]
                    };
                }
            }
            Layout::Zeta(z) => {
                let v = read_le(elem) as u64;
                let mut c = self.defaults();
                let zl = u32::from(z.z_lo);
                c[0] = match z.z {
                    ZType::Unorm16 => decode_field(((v >> zl) & 0xffff) as u32, 16, ComponentType::Unorm),
                    ZType::Unorm24 => decode_field(((v >> zl) & 0xff_ffff) as u32, 24, ComponentType::Unorm),
                    ZType::Float32 => (v >> zl) as u32,
                };
                if let Some(s) = z.s_lo {
                    c[1] = ((v >> s) & 0xff) as u32;
                }
                if let Some(cl) = z.c_lo {
                    c[2] = ((v >> cl) & 0xff) as u32;
                }
                out[0] = self.swizzled(c);
            }
            Layout::Bitmap => {
                let v = read_le(elem) as u64;
                let d = self.defaults();
                for (i, o) in out.iter_mut().take(64).enumerate() {
                    let c = [decode_field(((v >> i) & 1) as u32, 1, self.types[0]), d[1], d[2], d[3]];
                    *o = self.swizzled(c);
                }
            }
            Layout::Compressed(bc) => {
                let mut comps = [[0u32; 4]; 16];
                decode_bc(bc, self.types[0] == ComponentType::Snorm, elem, &mut comps, self.missing(3));
                for (o, c) in out.iter_mut().zip(comps) {
                    *o = self.swizzled(c);
                }
            }
        }
        Ok(n)
    }

    /// Encodes the pixels of one element (as many as [`Format::pixels_per_elem`], row by row)
    /// into `out` (at least [`Format::elem_size_bytes`] bytes).
    pub fn encode_element(&self, px: &[Texel], out: &mut [u8]) -> Result<()> {
        let size = self.elem_size_bytes() as usize;
        let n = self.pixels_per_elem();
        if px.len() < n {
            return Err(Error::BufferTooSmall { what: "pixel input", needed: n as u64, got: px.len() as u64 });
        }
        if out.len() < size {
            return Err(Error::BufferTooSmall { what: "element output", needed: size as u64, got: out.len() as u64 });
        }
        let v: u128 = match self.tex.layout {
            Layout::Simple(bits) => {
                let (c, read) = self.unswizzled(&px[0]);
                let mut v = 0u128;
                let mut lo = 0u32;
                for (i, &b) in bits.iter().enumerate() {
                    let b = u32::from(b);
                    let f = if !read[i] && self.x_ones { mask(b) as u32 } else { encode_field(c[i], b, self.types[i]) };
                    v |= u128::from(f) << lo;
                    lo += b;
                }
                if self.x_ones && lo < size as u32 * 8 {
                    v |= (u128::MAX >> (128 - size as u32 * 8)) & !((1u128 << lo) - 1);
                }
                v
            }
            Layout::SharedExp => {
                let (c, _) = self.unswizzled(&px[0]);
                u128::from(f32_to_rgb9e5([0, 1, 2].map(|i| f32::from_bits(c[i]))))
            }
            Layout::Yuv { u, ya, v, yb } => {
                let mut ys = [0u32; 2];
                let mut us = [0i32; 2];
                let mut vs = [0i32; 2];
                for p in 0..2 {
                    let (yy, uu, vv) = if self.yuv == YuvMatrix::Raw {
                        let (c, _) = self.unswizzled(&px[p]);
                        let f = |i: usize| encode_field(c[i], 8, self.types[i]);
                        (f(1), f(0), f(2))
                    } else {
                        let t = px[p];
                        rgb_to_yuv(self.yuv, [0, 1, 2].map(|i| f32::from_bits(t[i])))
                    };
                    ys[p] = yy;
                    let signed = |i: usize, x: u32| {
                        if matches!(self.types[i], ComponentType::Snorm | ComponentType::Sint) {
                            sign_extend(x, 8)
                        } else {
                            x as i32
                        }
                    };
                    us[p] = signed(0, uu);
                    vs[p] = signed(2, vv);
                }
                let avg = |a: [i32; 2]| ((a[0] + a[1] + 1).div_euclid(2) as u32) & 0xff;
                let mut b = [0u8; 4];
                b[usize::from(u)] = avg(us) as u8;
                b[usize::from(v)] = avg(vs) as u8;
                b[usize::from(ya)] = ys[0] as u8;
                b[usize::from(yb)] = ys[1] as u8;
                u128::from(u32::from_le_bytes(b))
            }
            Layout::Zeta(z) => {
                let (c, _) = self.unswizzled(&px[0]);
                let zl = u32::from(z.z_lo);
                let mut v = match z.z {
                    ZType::Unorm16 => u128::from(encode_field(c[0], 16, ComponentType::Unorm)),
                    ZType::Unorm24 => u128::from(encode_field(c[0], 24, ComponentType::Unorm)),
                    ZType::Float32 => u128::from(c[0]),
                } << zl;
                if let Some(s) = z.s_lo {
                    v |= u128::from(c[1].min(255)) << s;
                }
                if let Some(cl) = z.c_lo {
                    v |= u128::from(c[2].min(255)) << cl;
                }
                v
            }
            Layout::Bitmap => {
                let mut v = 0u128;
                for (i, p) in px.iter().take(64).enumerate() {
                    let (c, _) = self.unswizzled(p);
                    v |= u128::from(encode_field(c[0], 1, self.types[0])) << i;
                }
                v
            }
            Layout::Compressed(_) => {
                return Err(Error::Unsupported {
                    field: "encode",
                    value: self.name().into(),
                    rule: "encoding to block-compressed formats is not implemented".into(),
                })
            }
        };
        out[..size].copy_from_slice(&v.to_le_bytes()[..size]);
        Ok(())
    }

    /// Converts a texel to four f32 (integers converted by value).
    pub fn texel_to_f32(&self, t: &Texel) -> [f32; 4] {
        let k = self.channel_kinds();
        [0, 1, 2, 3].map(|i| match k[i] {
            ValueKind::Float => f32::from_bits(t[i]),
            ValueKind::Sint => t[i] as i32 as f32,
            ValueKind::Uint => t[i] as f32,
        })
    }

    /// Converts four f32 to a texel (integers rounded to nearest and saturated).
    pub fn f32_to_texel(&self, p: &[f32; 4]) -> Texel {
        let k = self.channel_kinds();
        [0, 1, 2, 3].map(|i| {
            let x = if p[i].is_nan() { 0.0 } else { f64::from(p[i]) };
            match k[i] {
                ValueKind::Float => p[i].to_bits(),
                ValueKind::Sint => libm::round(x).clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32 as u32,
                ValueKind::Uint => libm::round(x).clamp(0.0, f64::from(u32::MAX)) as u32,
            }
        })
    }

    /// Converts a texel to 8-bit RGBA for pictures: floats clamp to [0, 1] and scale by 255,
    /// integers saturate to 0..=255.
    pub fn texel_to_rgba8(&self, t: &Texel) -> [u8; 4] {
        let k = self.channel_kinds();
        [0, 1, 2, 3].map(|i| match k[i] {
            ValueKind::Float => unit_to_int(f32::from_bits(t[i]), 255.0) as u8,
            ValueKind::Sint => (t[i] as i32).clamp(0, 255) as u8,
            ValueKind::Uint => t[i].min(255) as u8,
        })
    }

    fn check_rect(&self, elems: usize, row_pitch: usize, w: u32, h: u32, out: usize) -> Result<(usize, usize)> {
        let (bw, bh) = self.block_dims();
        let cols = w.div_ceil(bw) as usize;
        let rows = h.div_ceil(bh) as usize;
        let row_bytes = cols.checked_mul(self.elem_size_bytes() as usize).ok_or(Error::OutOfRange {
            field: "width",
            value: u64::from(w),
            min: 0,
            max: (usize::MAX / self.elem_size_bytes() as usize) as u64,
        })?;
        if row_pitch < row_bytes {
            return Err(Error::OutOfRange {
                field: "row pitch",
                value: row_pitch as u64,
                min: row_bytes as u64,
                max: u64::MAX,
            });
        }
        // Checked: a row pitch whose span overflows is an error, not a wrapped length that
        // passes the check and an index that panics later.
        let need = match rows {
            0 => 0,
            _ => (rows - 1).checked_mul(row_pitch).and_then(|n| n.checked_add(row_bytes)).ok_or_else(|| {
                Error::OutOfRange {
                    field: "row pitch",
                    value: row_pitch as u64,
                    min: row_bytes as u64,
                    max: ((usize::MAX - row_bytes) / (rows - 1)) as u64,
                }
            })?,
        };
        if elems < need {
            return Err(Error::BufferTooSmall { what: "element input", needed: need as u64, got: elems as u64 });
        }
        let px = (w as usize).saturating_mul(h as usize);
        if out < px {
            return Err(Error::BufferTooSmall { what: "pixel buffer", needed: px as u64, got: out as u64 });
        }
        Ok((cols, rows))
    }

    /// Decodes a linear image of elements (`row_pitch_bytes` apart) into `width_px x
    /// height_px` pixels, converting each texel with `conv`.
    fn decode_rect_with<T: Copy>(
        &self,
        elems: &[u8],
        row_pitch_bytes: usize,
        width_px: u32,
        height_px: u32,
        out: &mut [T],
        conv: impl Fn(&Texel) -> T,
    ) -> Result<()> {
        let (cols, rows) = self.check_rect(elems.len(), row_pitch_bytes, width_px, height_px, out.len())?;
        let (bw, bh) = self.block_dims();
        let (bw, bh) = (bw as usize, bh as usize);
        let size = self.elem_size_bytes() as usize;
        let w = width_px as usize;
        let h = height_px as usize;
        let mut tmp = [[0u32; 4]; MAX_PIXELS_PER_ELEM];
        for ey in 0..rows {
            let row = &elems[ey * row_pitch_bytes..];
            for ex in 0..cols {
                self.decode_element(&row[ex * size..(ex + 1) * size], &mut tmp)?;
                for py in 0..bh {
                    let y = ey * bh + py;
                    if y >= h {
                        break;
                    }
                    for px in 0..bw {
                        let x = ex * bw + px;
                        if x < w {
                            out[y * w + x] = conv(&tmp[py * bw + px]);
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Decodes a linear image of elements into texels (`width_px * height_px`, row-major).
    pub fn decode_rect(
        &self,
        elems: &[u8],
        row_pitch_bytes: usize,
        width_px: u32,
        height_px: u32,
        out: &mut [Texel],
    ) -> Result<()> {
        self.decode_rect_with(elems, row_pitch_bytes, width_px, height_px, out, |t| *t)
    }

    /// Decodes a linear image of elements into RGBA f32 pixels.
    pub fn decode_rect_f32(
        &self,
        elems: &[u8],
        row_pitch_bytes: usize,
        width_px: u32,
        height_px: u32,
        out: &mut [[f32; 4]],
    ) -> Result<()> {
        self.decode_rect_with(elems, row_pitch_bytes, width_px, height_px, out, |t| self.texel_to_f32(t))
    }

    /// Decodes a linear image of elements into RGBA8 pixels (see [`Format::texel_to_rgba8`]).
    /// `8_8_8_8` unorm formats and BC1/BC2/BC3/BC7 with a plain swizzle take fast paths.
    pub fn decode_rect_rgba8(
        &self,
        elems: &[u8],
        row_pitch_bytes: usize,
        width_px: u32,
        height_px: u32,
        out: &mut [[u8; 4]],
    ) -> Result<()> {
        if let Some(map) = self.byte_map_rgba8() {
            return self.decode_byte_map_rect_rgba8(map, elems, row_pitch_bytes, width_px, height_px, out);
        }
        if let Some(bc) = self.bc_rgba8_direct() {
            return self.decode_bc_rect_rgba8(bc, elems, row_pitch_bytes, width_px, height_px, out);
        }
        // Lookup tables pay off once the image has a few times more pixels than the generic
        // decodes that fill them.
        let pixels = width_px as usize * height_px as usize;
        if let Some(lut) = self.word_lut(|decodes| pixels >= 4 * decodes) {
            return self.decode_word_lut_rect_rgba8(&lut, elems, row_pitch_bytes, width_px, height_px, out);
        }
        self.decode_rect_with(elems, row_pitch_bytes, width_px, height_px, out, |t| self.texel_to_rgba8(t))
    }

    /// Decodes a row of elements of a one-pixel-per-element format into RGBA f32.
    pub fn decode_rgba_f32(&self, elems: &[u8], out: &mut [[f32; 4]]) -> Result<()> {
        let n = self.row_len(elems)?;
        self.decode_rect_f32(elems, elems.len(), n, 1, out)
    }

    /// Decodes a row of elements of a one-pixel-per-element format into RGBA8.
    pub fn decode_rgba8(&self, elems: &[u8], out: &mut [[u8; 4]]) -> Result<()> {
        let n = self.row_len(elems)?;
        self.decode_rect_rgba8(elems, elems.len(), n, 1, out)
    }

    fn row_len(&self, elems: &[u8]) -> Result<u32> {
        if self.block_dims() != (1, 1) {
            return Err(Error::Unsupported {
                field: "format",
                value: self.name().into(),
                rule: "holds several pixels per element: use decode_rect".into(),
            });
        }
        let size = self.elem_size_bytes() as usize;
        if !elems.len().is_multiple_of(size) {
            return Err(Error::NotMultiple {
                field: "element bytes",
                value: elems.len() as u64,
                multiple: size as u64,
            });
        }
        u32::try_from(elems.len() / size).map_err(|_| Error::OutOfRange {
            field: "elements",
            value: (elems.len() / size) as u64,
            min: 0,
            max: u64::from(u32::MAX),
        })
    }

    /// Encodes `width_px x height_px` texels into a linear image of elements; pixels past the
    /// right and bottom edges of partial blocks repeat the edge pixel.
    pub fn encode_rect(
        &self,
        px: &[Texel],
        width_px: u32,
        height_px: u32,
        out: &mut [u8],
        row_pitch_bytes: usize,
    ) -> Result<()> {
        let (cols, rows) = self.check_rect(out.len(), row_pitch_bytes, width_px, height_px, px.len())?;
        let (bw, bh) = self.block_dims();
        let (bw, bh) = (bw as usize, bh as usize);
        let size = self.elem_size_bytes() as usize;
        let w = width_px as usize;
        let h = height_px as usize;
        let mut tmp = [[0u32; 4]; MAX_PIXELS_PER_ELEM];
        for ey in 0..rows {
            for ex in 0..cols {
                for py in 0..bh {
                    for qx in 0..bw {
                        let y = (ey * bh + py).min(h - 1);
                        let x = (ex * bw + qx).min(w - 1);
                        tmp[py * bw + qx] = px[y * w + x];
                    }
                }
                let at = ey * row_pitch_bytes + ex * size;
                self.encode_element(&tmp, &mut out[at..at + size])?;
            }
        }
        Ok(())
    }

    /// Encodes RGBA f32 pixels (see [`Format::f32_to_texel`]) into a linear image of elements.
    pub fn encode_rect_f32(
        &self,
        px: &[[f32; 4]],
        width_px: u32,
        height_px: u32,
        out: &mut [u8],
        row_pitch_bytes: usize,
    ) -> Result<()> {
        let texels: alloc::vec::Vec<Texel> = px.iter().map(|p| self.f32_to_texel(p)).collect();
        self.encode_rect(&texels, width_px, height_px, out, row_pitch_bytes)
    }
}

fn unit_to_int(f: f32, max: f64) -> u32 {
    if f.is_nan() {
        return 0;
    }
    libm::round(f64::from(f).clamp(0.0, 1.0) * max) as u32
}

/// Decodes one compressed block into 16 component sets (C0-C3 register values).
fn decode_bc(bc: Bc, signed: bool, src: &[u8], out: &mut [[u32; 4]; 16], one: u32) {
    match bc {
        Bc::Bc1 | Bc::Bc2 | Bc::Bc3 | Bc::Bc7 => {
            let mut b = [0u8; 64];
            bc_rgba8(bc, src, &mut b, 16);
            for (i, o) in out.iter_mut().enumerate() {
                *o = [0, 1, 2, 3].map(|c| unorm8(b[i * 4 + c]));
            }
        }
        Bc::Bc4 => {
            let mut f = [0f32; 16];
            bcdec_rs::bc4_float(src, &mut f, 4, signed);
            for (o, v) in out.iter_mut().zip(f) {
                *o = [v.to_bits(), 0, 0, one];
            }
        }
        Bc::Bc5 => {
            let mut f = [0f32; 32];
            bcdec_rs::bc5_float(src, &mut f, 8, signed);
            for (i, o) in out.iter_mut().enumerate() {
                *o = [f[2 * i].to_bits(), f[2 * i + 1].to_bits(), 0, one];
            }
        }
        Bc::Bc6hSigned | Bc::Bc6hUnsigned => {
            let mut f = [0f32; 48];
            bcdec_rs::bc6h_float(src, &mut f, 12, bc == Bc::Bc6hSigned);
            for (i, o) in out.iter_mut().enumerate() {
                *o = [f[3 * i].to_bits(), f[3 * i + 1].to_bits(), f[3 * i + 2].to_bits(), one];
            }
        }
    }
}

/// Limited-range YCbCr (8-bit codes) to RGB.
fn yuv_to_rgb(m: YuvMatrix, y: u32, u: u32, v: u32) -> [f32; 3] {
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
fn rgb_to_yuv(m: YuvMatrix, rgb: [f32; 3]) -> (u32, u32, u32) {
    let (kr, kb) = m.kr_kb();
    let kg = 1.0 - kr - kb;
    let [r, g, b] = rgb.map(|x| if x.is_nan() { 0.0 } else { f64::from(x) });
    let yy = kr * r + kg * g + kb * b;
    let pb = (b - yy) / (2.0 * (1.0 - kb));
    let pr = (r - yy) / (2.0 * (1.0 - kr));
    let q = |x: f64| libm::round(x).clamp(0.0, 255.0) as u32;
    (q(16.0 + 219.0 * yy), q(128.0 + 224.0 * pb), q(128.0 + 224.0 * pr))
}

mod rgba8;
use rgba8::bc_rgba8;

#[cfg(test)]
mod tests;
