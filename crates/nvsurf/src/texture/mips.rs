//! Mip generation: one level from the level above it, by a box filter over decoded
//! [`Texel`]s.
//!
//! Each axis is reduced on its own (the filter is separable; the weights of the three axes
//! multiply), from `n` texels to `max(1, n / 2)` (the level sizes of [`TextureDesc`](super::TextureDesc)):
//! - `n` even: the 2-tap box, `(a + b) / 2`, so a 2D level is the 2x2 box and a 3D level the
//!   2x2x2 box;
//! - `n` odd and above 1: the 3-tap polyphase box of Guthe and Heckbert, "Non-Power-of-Two
//!   Mipmap Creation" (NVIDIA technical report TR-01838-001, 2003,
//!   <https://download.nvidia.com/developer/Papers/2005/NP2_Mipmapping/NP2_Mipmap_Creation.pdf>):
//!   with `n = 2m + 1`, output `x` covers the input interval `[x n / m, (x + 1) n / m)` and
//!   weighs texels `2x, 2x + 1, 2x + 2` by `(m - x) / n, m / n, (x + 1) / n`. Every input texel
//!   counts exactly as much as every other (the weights of each input sum to `m / n`), which a
//!   2x2 box that drops or clamps the odd edge texel does not;
//! - `n` 1: kept as it is (a 1xN level only halves its long axis).
//!
//! What is averaged is what [`Format::decode_rect`](crate::format::Format::decode_rect)
//! returns: float channels as `f32` values (sRGB channels are already linear there, and
//! [`Format::encode_rect`](crate::format::Format::encode_rect) turns them back into sRGB, so
//! the filter works in linear light), and integer channels (`Uint`, `Sint`) as integers,
//! averaged exactly and rounded to nearest, ties away from zero. Sums are kept in `f64`, so a
//! 32-bit integer average is exact. Depth/stencil formats are refused: a stencil value is a
//! label, not a quantity, and the depth mips of a renderer are usually a min or max, not a mean.
//!
//! Only two levels exist at a time: [`downsample`] reads one and returns the next.

use crate::codec::{Texel, ValueKind};
use crate::error::{zeroed_with, Error, Result};
use crate::extent::{Extent, Texels};
use crate::format::Format;
use alloc::vec::Vec;

/// The size of the level below one of `texels` (width, height, depth): each axis halved,
/// rounded down, at least 1 (as [`TextureDesc::level_texels`](super::TextureDesc) plans the
/// levels). A 2D array or cube layer has depth 1, which stays 1.
pub fn next_extent(texels: impl Into<Extent<Texels>>) -> Extent<Texels> {
    texels.into().map(|n| (n / 2).max(1))
}

/// The taps of one axis: for each output texel, up to three (input index, weight) pairs.
#[derive(Clone, Copy)]
struct Taps {
    at: [u32; 3],
    weight: [f64; 3],
    len: usize,
}

/// The taps of an axis of `n` input texels (see the module documentation).
fn axis_taps(n: u32) -> Result<Vec<Taps>> {
    let out = (n / 2).max(1);
    let mut v = zeroed_with("mip filter taps", out, Taps { at: [0; 3], weight: [0.0; 3], len: 0 })?;
    for (x, t) in (0u32..).zip(v.iter_mut()) {
        *t = if n == 1 {
            Taps { at: [0; 3], weight: [1.0, 0.0, 0.0], len: 1 }
        } else if n.is_multiple_of(2) {
            // x < n / 2, so 2x + 1 < n.
            Taps { at: [2 * x, 2 * x + 1, 0], weight: [0.5, 0.5, 0.0], len: 2 }
        } else {
            // n = 2m + 1 with m >= 1 and x < m, so 2x + 2 <= 2m < n.
            let m = f64::from(n / 2);
            let nf = f64::from(n);
            let xf = f64::from(x);
            Taps { at: [2 * x, 2 * x + 1, 2 * x + 2], weight: [(m - xf) / nf, m / nf, (xf + 1.0) / nf], len: 3 }
        };
    }
    Ok(v)
}

/// Checks that `f` can be averaged: refuses depth/stencil formats (see the module
/// documentation), naming the rule.
pub fn check_format(f: &Format) -> Result<()> {
    if f.is_zeta() {
        return Err(Error::Unsupported {
            field: "format",
            value: f.name().into(),
            rule: "mips are not generated for depth/stencil formats: a stencil value does not average and depth \
                   mips are a renderer's min or max"
                .into(),
        });
    }
    Ok(())
}

/// The level below `src` (`texels` = width, height, depth of `src`, x fastest, then y, then
/// z) for a format whose channels read as `kinds` ([`Format::channel_kinds`]): the box filter
/// of the module documentation. Returns the new level and its size ([`next_extent`]).
pub fn downsample(
    kinds: [ValueKind; 4],
    src: &[Texel],
    texels: impl Into<Extent<Texels>>,
) -> Result<(Vec<Texel>, Extent<Texels>)> {
    let texels: Extent<Texels> = texels.into();
    let [w, h, d] = texels.to_array();
    if texels.to_array().contains(&0) {
        return Err(Error::OutOfRange { field: "mip level size", value: 0, min: 1, max: u64::from(u32::MAX) });
    }
    let count = u64::from(w) * u64::from(h) * u64::from(d);
    if (src.len() as u64) < count {
        return Err(Error::BufferTooSmall { what: "mip level texels", needed: count, got: src.len() as u64 });
    }
    let next = next_extent(texels);
    let [dw, dh, dd] = next.to_array();
    let out_count = u64::from(dw) * u64::from(dh) * u64::from(dd);
    let mut out = zeroed_with("mip level texels", out_count, [0u32; 4])?;
    let (tx, ty, tz) = (axis_taps(w)?, axis_taps(h)?, axis_taps(d)?);
    // Indices stay below `count`, which fits in usize (`src` holds that many texels).
    let (w, h) = (w as usize, h as usize);
    let mut o = 0usize;
    for z in &tz {
        for y in &ty {
            for x in &tx {
                let mut acc = [0f64; 4];
                for (&sz, &wz) in z.at.iter().zip(&z.weight).take(z.len) {
                    for (&sy, &wy) in y.at.iter().zip(&y.weight).take(y.len) {
                        let row = (sz as usize * h + sy as usize) * w;
                        for (&sx, &wx) in x.at.iter().zip(&x.weight).take(x.len) {
                            let t = &src[row + sx as usize];
                            let wt = wz * wy * wx;
                            for ((a, &k), &bits) in acc.iter_mut().zip(&kinds).zip(t) {
                                *a += wt * value(k, bits);
                            }
                        }
                    }
                }
                out[o] = [0, 1, 2, 3].map(|c| back(kinds[c], acc[c]));
                o += 1;
            }
        }
    }
    Ok((out, next))
}

/// [`downsample`] for the channels of `f`, after [`check_format`].
pub fn downsample_format(
    f: &Format,
    src: &[Texel],
    texels: impl Into<Extent<Texels>>,
) -> Result<(Vec<Texel>, Extent<Texels>)> {
    check_format(f)?;
    downsample(f.channel_kinds(), src, texels)
}

/// One channel of a texel as a number.
fn value(kind: ValueKind, bits: u32) -> f64 {
    match kind {
        ValueKind::Float => f64::from(f32::from_bits(bits)),
        ValueKind::Sint => f64::from(bits as i32),
        ValueKind::Uint => f64::from(bits),
    }
}

/// An averaged channel back into texel bits: floats rounded to `f32`, integers to nearest
/// (ties away from zero) and kept in range (an average of in-range values is in range; the
/// clamp only guards the last bit of `f64` rounding).
fn back(kind: ValueKind, v: f64) -> u32 {
    match kind {
        ValueKind::Float => (v as f32).to_bits(),
        ValueKind::Sint => libm::round(v).clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32 as u32,
        ValueKind::Uint => libm::round(v).clamp(0.0, f64::from(u32::MAX)) as u32,
    }
}

#[cfg(test)]
#[path = "mips_tests.rs"]
mod tests;
