//! Element codecs: one element of a [`Format`] to its pixels ([`Texel`]s, what the texture
//! unit returns) and back, per element layout (simple bitfields, shared exponent, YUV pairs,
//! zeta, bitmaps, compressed blocks), with the swizzle, sRGB and YUV conversion applied, and
//! the conversions of a texel to `f32` or 8-bit RGBA. The number formats are in
//! [`crate::codec`].

use super::element_layout::{Layout, ZType};
use super::swizzle::Swizzle;
use super::Format;
use crate::codec::{
    decode_bc, decode_field, encode_field, f32_to_rgb9e5, linear_to_srgb, mask, one_of, read_le, rgb9e5_to_f32,
    rgb_to_yuv, sign_extend, srgb_to_linear, unit_to_int, yuv_to_rgb, ComponentType, Texel, ValueKind, YuvMatrix,
    MAX_PIXELS_PER_ELEM, ONE_F,
};
use crate::error::{Error, Result};

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

    pub(super) fn missing(&self, i: usize) -> u32 {
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
    pub(super) fn swizzled(&self, c: [u32; 4]) -> Texel {
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
    pub(super) fn unswizzled(&self, t: &Texel) -> ([u32; 4], [bool; 4]) {
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
    /// (BC, ETC2/EAC), the ASTC footprint (16 to 144) or 64 (bitmap). Returns the number of
    /// pixels written.
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
                    ZType::Float24Nv2a => nv2a_f24_to_f32_bits(((v >> zl) & 0xff_ffff) as u32),
                    ZType::Float16Nv2a => nv2a_f16_to_f32_bits(((v >> zl) & 0xffff) as u32),
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
                let mut comps = [[0u32; 4]; MAX_PIXELS_PER_ELEM];
                decode_bc(bc, self.types[0] == ComponentType::Snorm, elem, &mut comps, self.missing(3));
                for (o, c) in out.iter_mut().zip(comps).take(n) {
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
                    ZType::Float24Nv2a => u128::from(f32_bits_to_nv2a_f24(c[0])),
                    ZType::Float16Nv2a => u128::from(f32_bits_to_nv2a_f16(c[0])),
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
                // One 4x4 block: the rectangle encoder (feature `bc-encode`), default options.
                return self.encode_rect_with(&px[..n], 4, 4, &mut out[..size], size, &Default::default());
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

    /// Converts a texel to 8-bit RGBA: floats clamp to [0, 1] and scale by 255, integers
    /// saturate to 0..=255. The texel's values as they are: R, G, B of an sRGB format's texel
    /// are linear light, so this gives linear bytes; [`Format::decode_rect_rgba8`] gives the
    /// stored sRGB encoding instead (it converts through the format without sRGB).
    pub fn texel_to_rgba8(&self, t: &Texel) -> [u8; 4] {
        let k = self.channel_kinds();
        [0, 1, 2, 3].map(|i| match k[i] {
            ValueKind::Float => unit_to_int(f32::from_bits(t[i]), 255.0) as u8,
            ValueKind::Sint => (t[i] as i32).clamp(0, 255) as u8,
            ValueKind::Uint => t[i].min(255) as u8,
        })
    }
}

/// NV2A's 24-bit float depth to f32 bits: the 24 bits (no sign, 8-bit exponent, 16-bit
/// mantissa) shifted left by 7 (xemu `hw/xbox/nv2a/pgraph/util.h`, `convert_f24_to_float`).
fn nv2a_f24_to_f32_bits(raw: u32) -> u32 {
    (raw & 0xff_ffff) << 7
}

/// NV2A's 16-bit float depth to f32 bits: 0 is 0, else the 16 bits (no sign, 4-bit exponent of
/// bias 7, 12-bit mantissa) shifted left by 11 plus `0x3C000000` (xemu
/// `hw/xbox/nv2a/pgraph/util.h`, `convert_f16_to_float`).
fn nv2a_f16_to_f32_bits(raw: u32) -> u32 {
    if raw & 0xffff == 0 {
        return 0;
    }
    ((raw & 0xffff) << 11).saturating_add(0x3c00_0000)
}

/// f32 bits to NV2A's 24-bit float depth, rounded to nearest; negative, zero and NaN give 0,
/// values past the largest give the largest.
fn f32_bits_to_nv2a_f24(bits: u32) -> u32 {
    let f = f32::from_bits(bits);
    if f.is_nan() || f <= 0.0 {
        return 0;
    }
    (bits.saturating_add(0x40) >> 7).min(0xff_ffff)
}

/// f32 bits to NV2A's 16-bit float depth, rounded to nearest; zero, negative, NaN and values
/// below half the smallest step give 0, values past 511.9375 give the largest.
fn f32_bits_to_nv2a_f16(bits: u32) -> u32 {
    let f = f32::from_bits(bits);
    if f.is_nan() || f <= 0.0 {
        return 0;
    }
    let Some(above) = bits.checked_sub(0x3c00_0000) else { return 0 };
    (above.saturating_add(0x400) >> 11).min(0xffff)
}
