//! Known values for every number format, and the RGBA8 row kernels against their reference.
use super::numbers::pow2;
use super::*;

fn f(x: u32) -> f32 {
    f32::from_bits(x)
}

fn pow2f(e: i32) -> f32 {
    pow2(e) as f32
}

#[test]
fn half_known_values() {
    // IEEE 754 binary16.
    assert_eq!(f16_to_f32(0x3c00), 1.0);
    assert_eq!(f16_to_f32(0xc000), -2.0);
    assert_eq!(f16_to_f32(0x7bff), 65504.0);
    assert_eq!(f16_to_f32(0x0400), pow2f(-14)); // smallest normal
    assert_eq!(f16_to_f32(0x0001), pow2f(-24)); // smallest denormal
    assert_eq!(f16_to_f32(0x03ff), 1023.0 * pow2f(-24)); // largest denormal
    assert_eq!(f16_to_f32(0x7c00), f32::INFINITY);
    assert_eq!(f16_to_f32(0xfc00), f32::NEG_INFINITY);
    assert!(f16_to_f32(0x7e00).is_nan());
    assert_eq!(f16_to_f32(0x8000).to_bits(), 0x8000_0000);
    assert_eq!(f32_to_f16(1.0), 0x3c00);
    assert_eq!(f32_to_f16(65504.0), 0x7bff);
    assert_eq!(f32_to_f16(65519.0), 0x7bff); // below the halfway point to 65536
    assert_eq!(f32_to_f16(65520.0), 0x7c00); // halfway rounds to even = infinity
    assert_eq!(f32_to_f16(1.0 + pow2f(-11)), 0x3c00); // tie to even
    assert_eq!(f32_to_f16(1.0 + 3.0 * pow2f(-11)), 0x3c02); // tie to even (up)
    assert_eq!(f32_to_f16(pow2f(-24)), 0x0001);
    assert_eq!(f32_to_f16(pow2f(-25)), 0x0000); // tie to even (0)
    assert_eq!(f32_to_f16(1.5 * pow2f(-25)), 0x0001);
    assert_eq!(f32_to_f16(1023.5 * pow2f(-24)), 0x0400); // denormal rounds up into normal
    assert_eq!(f32_to_f16(-0.0), 0x8000);
    assert_eq!(f32_to_f16(f32::NEG_INFINITY), 0xfc00);
    assert_eq!(f32_to_f16(f(0x7fc0_0000)), 0x7e00);
    assert_eq!(f32_to_f16(f(0x7f80_0001)) & 0x7c00, 0x7c00); // payload lost below: still NaN
    assert_ne!(f32_to_f16(f(0x7f80_0001)) & 0x3ff, 0);
}

#[test]
fn eleven_and_ten_bit_floats() {
    // Unsigned, 5-bit exponent (bias 15), 6 or 5-bit mantissa: the 11_11_10 format.
    assert_eq!(f11_to_f32(15 << 6), 1.0);
    assert_eq!(f10_to_f32(15 << 5), 1.0);
    assert_eq!(f11_to_f32(0x7bf), 65024.0); // largest finite: 2^15 * (1 + 63/64)
    assert_eq!(f10_to_f32(0x3df), 64512.0); // 2^15 * (1 + 31/32)
    assert_eq!(f11_to_f32(0x7c0), f32::INFINITY);
    assert_eq!(f10_to_f32(0x3e0), f32::INFINITY);
    assert!(f11_to_f32(0x7c1).is_nan());
    assert!(f10_to_f32(0x3ff).is_nan());
    assert_eq!(f11_to_f32(1), pow2f(-20)); // denormal: 1/64 * 2^-14
    assert_eq!(f10_to_f32(1), pow2f(-19)); // 1/32 * 2^-14
    assert_eq!(f11_to_f32(0x040), pow2f(-14)); // smallest normal
    assert_eq!(f32_to_f11(1.0), 15 << 6);
    assert_eq!(f32_to_f10(1.0), 15 << 5);
    assert_eq!(f32_to_f11(-1.0), 0); // negative -> 0
    assert_eq!(f32_to_f11(-0.0), 0);
    assert_eq!(f32_to_f10(f32::NEG_INFINITY), 0);
    assert_eq!(f32_to_f11(f32::INFINITY), 0x7c0);
    assert_eq!(f32_to_f11(1.0e6), 0x7c0); // overflow -> infinity
    assert_eq!(f32_to_f11(65024.0), 0x7bf);
    assert_eq!(f32_to_f10(pow2f(-19)), 1);
    assert_eq!(f32_to_f10(pow2f(-20)), 0); // tie to even
    assert_eq!(f32_to_f11(1.0 + pow2f(-7)), 15 << 6); // tie to even
    assert_eq!(f32_to_f11(1.0 + 3.0 * pow2f(-7)), (15 << 6) + 2);
    let nan = f32_to_f11(f32::NAN);
    assert_eq!(nan & 0x7c0, 0x7c0);
    assert_ne!(nan & 0x3f, 0);
    assert!(f32_to_f10(-f32::NAN) & 0x1f != 0); // NaN keeps being NaN, sign dropped
}

#[test]
fn shared_exponent_known_values() {
    // value = m * 2^(e - 24)
    let one = f32_to_rgb9e5([1.0, 0.0, 0.0]);
    assert_eq!(one, 256 | (16 << 27));
    assert_eq!(rgb9e5_to_f32(one), [1.0, 0.0, 0.0]);
    assert_eq!(rgb9e5_to_f32(511 | (511 << 9) | (511 << 18) | (31 << 27)), [65408.0; 3]); // max
    assert_eq!(f32_to_rgb9e5([1.0e9, f32::INFINITY, 65408.0]), 511 | (511 << 9) | (511 << 18) | (31 << 27));
    assert_eq!(rgb9e5_to_f32(1), [pow2f(-24), 0.0, 0.0]); // smallest: denormal-like, e = 0
    assert_eq!(f32_to_rgb9e5([pow2f(-24), 0.0, 0.0]), 1);
    assert_eq!(f32_to_rgb9e5([0.0, -5.0, f32::NAN]), 0); // all zero: exponent 0
                                                         // Mantissa rounding up to 512 bumps the exponent: 1.99999 -> 2.0.
    let e = f32_to_rgb9e5([1.99999, 0.5, 0.0]);
    assert_eq!(e >> 27, 17);
    assert_eq!(rgb9e5_to_f32(e), [2.0, 0.5, 0.0]);
    // The smaller components lose precision to the shared exponent.
    assert_eq!(rgb9e5_to_f32(f32_to_rgb9e5([100.0, 0.01, 1.0])), [100.0, 0.0, 1.0]);
}
#[test]
fn word_shuffles_match_the_byte_shuffle() {
    let src: Vec<u8> = (0..268u32).map(|i| (i * 97 + 13) as u8).collect();
    // 67 pixels: four 16-pixel blocks and a remainder.
    for map in [[2, 1, 0, 3], [2, 1, 0, 5], [0, 1, 2, 5], [3, 4, 0, 5], [6, 1, 4, 2]] {
        let mut a = [[0u8; 4]; 67];
        let mut b = [[0u8; 4]; 67];
        lut::shuffle_rgba8(&src, &mut a, map);
        lut::shuffle_rgba8_bytes(&src, &mut b, map);
        assert_eq!(a, b, "{map:?}");
    }
}

#[test]
fn srgb8_table_is_exact() {
    // Every 8-bit unorm value, as the field decoder produces it, through the table and the formula.
    for k in 0..256u32 {
        let c = f(field::decode_field(k, 8, ComponentType::Unorm));
        assert_eq!(srgb_to_linear(c).to_bits(), srgb_to_linear_exact(c).to_bits(), "k = {k}");
        // The floats next to k / 255 miss the table and still agree with the formula.
        for n in [f(c.to_bits().wrapping_sub(1)), f(c.to_bits() + 1)] {
            assert_eq!(srgb_to_linear(n).to_bits(), srgb_to_linear_exact(n).to_bits(), "near k = {k}");
        }
    }
    // A sweep of [0, 1.1] and the specials.
    let mut x = 0u32;
    while f(x) <= 1.1 {
        assert_eq!(srgb_to_linear(f(x)).to_bits(), srgb_to_linear_exact(f(x)).to_bits(), "{:#x}", x);
        x += 4099;
    }
    for v in [-0.0f32, -1.0, 2.0, 255.0, f32::INFINITY, f32::NEG_INFINITY] {
        assert_eq!(srgb_to_linear(v).to_bits(), srgb_to_linear_exact(v).to_bits(), "{v}");
    }
    assert!(srgb_to_linear(f32::NAN).is_nan());
    // Known values (IEC 61966-2-1): 0.5 -> 0.2140; 1 -> 1.
    assert!((srgb_to_linear(0.5) - 0.214_041_14).abs() < 1e-6);
    assert_eq!(srgb_to_linear(1.0), 1.0);
}
