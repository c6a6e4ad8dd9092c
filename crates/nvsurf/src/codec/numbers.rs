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

/// sRGB-encoded value to linear. The 256 values an 8-bit unorm field decodes to
/// (`k / 255`, as the unorm field decoder rounds them) come from a table, the
/// rest from [`srgb_to_linear_exact`]; both give the same bits (test `srgb8_table_is_exact`).
#[inline]
pub fn srgb_to_linear(c: f32) -> f32 {
    // `c * 255` lands within half a unit of k for the unorm value k / 255; any other input
    // (NaN, -0.0, out of range, not a multiple of 1/255) fails the bit compare below.
    let k = c * 255.0;
    if (0.0..=255.0).contains(&k) {
        let i = (k + 0.5) as usize;
        if UNORM8_F32[i].to_bits() == c.to_bits() {
            return f32::from_bits(SRGB8_TO_LINEAR_BITS[i]);
        }
    }
    srgb_to_linear_exact(c)
}

/// sRGB-encoded value to linear, by the formula of the sRGB standard (IEC 61966-2-1) in
/// `f64`, rounded once to `f32`: the reference that [`srgb_to_linear`]'s table reproduces.
#[inline]
pub fn srgb_to_linear_exact(c: f32) -> f32 {
    let c = f64::from(c);
    let l = if c <= 0.04045 { c / 12.92 } else { libm::pow((c + 0.055) / 1.055, 2.4) };
    l as f32
}

/// `k / 255` for k in 0..=255, computed as the unorm field decoder does (`f64` divide, one
/// rounding to `f32`), at compile time.
const UNORM8_F32: [f32; 256] = {
    let mut t = [0.0f32; 256];
    let mut k = 0;
    while k < 256 {
        t[k] = (k as f64 / 255.0) as f32;
        k += 1;
    }
    t
};

/// `srgb_to_linear_exact(k / 255)` as `f32` bits, k = 0..=255. Generated from
/// [`srgb_to_linear_exact`] and checked against it by the test `srgb8_table_is_exact`
/// (and, when written, against Python's `math.pow` in `f64`: identical).
#[rustfmt::skip]
const SRGB8_TO_LINEAR_BITS: [u32; 256] = [
    0x00000000, 0x399f22b4, 0x3a1f22b4, 0x3a6eb40e, 0x3a9f22b4, 0x3ac6eb61, 0x3aeeb40e, 0x3b0b3e5d,
    0x3b1f22b4, 0x3b33070b, 0x3b46eb61, 0x3b5b518e, 0x3b70f18f, 0x3b83e1c6, 0x3b8fe616, 0x3b9c87fe,
    0x3ba9c9b7, 0x3bb7ad70, 0x3bc6354b, 0x3bd56361, 0x3be539c2, 0x3bf5ba71, 0x3c0373b6, 0x3c0c6153,
    0x3c15a705, 0x3c1f45be, 0x3c293e6b, 0x3c3391f8, 0x3c3e4149, 0x3c494d45, 0x3c54b6c9, 0x3c607eb4,
    0x3c6ca5e0, 0x3c792d24, 0x3c830aa9, 0x3c89afa0, 0x3c9085dd, 0x3c978dc7, 0x3c9ec7c3, 0x3ca63434,
    0x3cadd37e, 0x3cb5a602, 0x3cbdac22, 0x3cc5e63b, 0x3cce54ad, 0x3cd6f7d5, 0x3cdfd011, 0x3ce8ddba,
    0x3cf2212d, 0x3cfb9ac3, 0x3d02a56a, 0x3d0798dd, 0x3d0ca7e6, 0x3d11d2af, 0x3d171965, 0x3d1c7c30,
    0x3d21fb3c, 0x3d2796b2, 0x3d2d4ebb, 0x3d332381, 0x3d39152b, 0x3d3f23e4, 0x3d454fd2, 0x3d4b991d,
    0x3d51ffee, 0x3d588469, 0x3d5f26b7, 0x3d65e6fe, 0x3d6cc565, 0x3d73c210, 0x3d7add26, 0x3d810b66,
    0x3d84b794, 0x3d88732f, 0x3d8c3e49, 0x3d9018f5, 0x3d940344, 0x3d97fd49, 0x3d9c0716, 0x3da020bb,
    0x3da44a4b, 0x3da883d7, 0x3daccd70, 0x3db12728, 0x3db59110, 0x3dba0b39, 0x3dbe95b3, 0x3dc33090,
    0x3dc7dbe1, 0x3dcc97b5, 0x3dd1641e, 0x3dd6412c, 0x3ddb2eee, 0x3de02d77, 0x3de53cd5, 0x3dea5d19,
    0x3def8e52, 0x3df4d091, 0x3dfa23e5, 0x3dff885e, 0x3e027f06, 0x3e05427f, 0x3e080ea2, 0x3e0ae377,
    0x3e0dc105, 0x3e10a753, 0x3e13966a, 0x3e168e51, 0x3e198f0f, 0x3e1c98ad, 0x3e1fab30, 0x3e22c6a1,
    0x3e25eb08, 0x3e29186a, 0x3e2c4ed0, 0x3e2f8e42, 0x3e32d6c5, 0x3e362862, 0x3e39831f, 0x3e3ce703,
    0x3e405417, 0x3e43ca60, 0x3e4749e6, 0x3e4ad2af, 0x3e4e64c3, 0x3e520029, 0x3e55a4e7, 0x3e595305,
    0x3e5d0a8b, 0x3e60cb7c, 0x3e6495e0, 0x3e6869c0, 0x3e6c4720, 0x3e702e09, 0x3e741e80, 0x3e78188d,
    0x3e7c1c35, 0x3e8014c0, 0x3e82203a, 0x3e84308c, 0x3e8645b9, 0x3e885fc4, 0x3e8a7eb1, 0x3e8ca282,
    0x3e8ecb3c, 0x3e90f8e0, 0x3e932b73, 0x3e9562f7, 0x3e979f70, 0x3e99e0e1, 0x3e9c274d, 0x3e9e72b7,
    0x3ea0c322, 0x3ea31891, 0x3ea57308, 0x3ea7d289, 0x3eaa3717, 0x3eaca0b7, 0x3eaf0f69, 0x3eb18333,
    0x3eb3fc16, 0x3eb67a15, 0x3eb8fd35, 0x3ebb8577, 0x3ebe12de, 0x3ec0a56f, 0x3ec33d2b, 0x3ec5da15,
    0x3ec87c31, 0x3ecb2381, 0x3ecdd009, 0x3ed081cb, 0x3ed338ca, 0x3ed5f509, 0x3ed8b68b, 0x3edb7d53,
    0x3ede4964, 0x3ee11ac0, 0x3ee3f16a, 0x3ee6cd66, 0x3ee9aeb5, 0x3eec955c, 0x3eef815c, 0x3ef272b9,
    0x3ef56975, 0x3ef86593, 0x3efb6717, 0x3efe6e01, 0x3f00bd2b, 0x3f02460c, 0x3f03d1a5, 0x3f055ff8,
    0x3f06f105, 0x3f0884ce, 0x3f0a1b54, 0x3f0bb49a, 0x3f0d509f, 0x3f0eef66, 0x3f1090ef, 0x3f12353d,
    0x3f13dc50, 0x3f15862a, 0x3f1732cc, 0x3f18e238, 0x3f1a946e, 0x3f1c4970, 0x3f1e0140, 0x3f1fbbdf,
    0x3f21794d, 0x3f23398d, 0x3f24fc9f, 0x3f26c285, 0x3f288b41, 0x3f2a56d3, 0x3f2c253c, 0x3f2df67f,
    0x3f2fca9c, 0x3f31a195, 0x3f337b6a, 0x3f35581e, 0x3f3737b1, 0x3f391a24, 0x3f3aff7a, 0x3f3ce7b3,
    0x3f3ed2d0, 0x3f40c0d2, 0x3f42b1bc, 0x3f44a58e, 0x3f469c49, 0x3f4895ef, 0x3f4a9281, 0x3f4c91ff,
    0x3f4e946d, 0x3f5099c9, 0x3f52a216, 0x3f54ad56, 0x3f56bb88, 0x3f58ccaf, 0x3f5ae0cc, 0x3f5cf7df,
    0x3f5f11ea, 0x3f612eef, 0x3f634eee, 0x3f6571e9, 0x3f6797e0, 0x3f69c0d5, 0x3f6becca, 0x3f6e1bbf,
    0x3f704db5, 0x3f7282ae, 0x3f74baab, 0x3f76f5ae, 0x3f7933b6, 0x3f7b74c6, 0x3f7db8de, 0x3f800000,
];

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
