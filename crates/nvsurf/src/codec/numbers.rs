//! Number formats of one value: the small floats (IEEE half, the unsigned 11- and 10-bit
//! floats of `11_11_10`), the shared exponent of `9_9_9_E5`, the sRGB curve, and the integer
//! helpers (masks, sign extension, little-endian reads, unorm 8-bit) that the field and block
//! codecs build on. Pure functions of numbers: nothing here knows a format table.

/// The register value of float 1.0.
pub(crate) const ONE_F: u32 = 0x3f80_0000;

/// Decodes a small float (`e_bits` exponent, `m_bits` mantissa, optional sign bit above them)
/// to `f32`. Exact for every input. Crate-private: callers pass the widths of a known format
/// (`e_bits` 1..=8, `m_bits` 0..=23); the public ways in are
/// [`f16_to_f32`], [`f11_to_f32`] and [`f10_to_f32`].
#[inline]
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

/// `-v` when `sign` is 1.
#[inline]
fn apply_sign(v: f32, sign: u32) -> f32 {
    if sign == 1 {
        -v
    } else {
        v
    }
}

/// Encodes `x` as a small float (see [`small_float_to_f32`]), rounding to nearest even.
/// Unsigned formats send negative values (and -0, -inf) to +0.
#[inline]
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
#[inline]
pub fn f16_to_f32(h: u16) -> f32 {
    small_float_to_f32(u32::from(h), 5, 10, true)
}

/// f32 to IEEE half, round to nearest even.
#[inline]
pub fn f32_to_f16(x: f32) -> u16 {
    f32_to_small_float(x, 5, 10, true) as u16
}

/// Unsigned 11-bit float (5e6m) to f32.
#[inline]
pub fn f11_to_f32(v: u32) -> f32 {
    small_float_to_f32(v & 0x7ff, 5, 6, false)
}

/// f32 to unsigned 11-bit float.
#[inline]
pub fn f32_to_f11(x: f32) -> u32 {
    f32_to_small_float(x, 5, 6, false)
}

/// Unsigned 10-bit float (5e5m) to f32.
#[inline]
pub fn f10_to_f32(v: u32) -> f32 {
    small_float_to_f32(v & 0x3ff, 5, 5, false)
}

/// f32 to unsigned 10-bit float.
#[inline]
pub fn f32_to_f10(x: f32) -> u32 {
    f32_to_small_float(x, 5, 5, false)
}

/// `2^e` as an `f64`, exact (`e` within the normal exponents).
#[inline]
pub(crate) fn pow2(e: i32) -> f64 {
    f64::from_bits(((e + 1023) as u64) << 52)
}

/// Decodes a `9_9_9_E5` element to three floats.
#[inline]
pub fn rgb9e5_to_f32(v: u32) -> [f32; 3] {
    let e = (v >> 27) as i32;
    let s = pow2(e - 15 - 9);
    [0, 9, 18].map(|sh| (f64::from((v >> sh) & 0x1ff) * s) as f32)
}

/// Encodes three floats as `9_9_9_E5` (clamp to [0, 65408], NaN to 0, round to nearest).
#[inline]
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
#[inline]
pub fn srgb_to_linear(c: f32) -> f32 {
    let c = f64::from(c);
    let l = if c <= 0.04045 { c / 12.92 } else { libm::pow((c + 0.055) / 1.055, 2.4) };
    l as f32
}

/// Linear value to sRGB-encoded.
#[inline]
pub fn linear_to_srgb(l: f32) -> f32 {
    let l = f64::from(l);
    let c = if l <= 0.003_130_8 { l * 12.92 } else { 1.055 * libm::pow(l, 1.0 / 2.4) - 0.055 };
    c as f32
}

/// The low `bits` bits set (all 64 from 64 up).
#[inline]
pub(crate) fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// The low `bits` bits of `raw` (1..=32) as a two's complement number.
#[inline]
pub(crate) fn sign_extend(raw: u32, bits: u32) -> i32 {
    let sh = 32 - bits;
    ((raw << sh) as i32) >> sh
}

/// Up to 16 little-endian bytes as a number (missing high bytes read 0).
#[inline]
pub(crate) fn read_le(bytes: &[u8]) -> u128 {
    let mut b = [0u8; 16];
    let n = bytes.len().min(16);
    b[..n].copy_from_slice(&bytes[..n]);
    u128::from_le_bytes(b)
}

/// An 8-bit unorm code as the bits of its `f32` value.
#[inline]
pub(crate) fn unorm8(b: u8) -> u32 {
    (f32::from(b) / 255.0).to_bits()
}

/// `f` clamped to [0, 1] and scaled to `0..=max`, rounded to nearest (NaN reads 0).
#[inline]
pub(crate) fn unit_to_int(f: f32, max: f64) -> u32 {
    if f.is_nan() {
        return 0;
    }
    libm::round(f64::from(f).clamp(0.0, 1.0) * max) as u32
}
