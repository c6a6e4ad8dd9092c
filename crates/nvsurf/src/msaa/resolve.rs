//! Resolving a multisampled pixel or image to one color per pixel.
//!
//! Seed 000: "for each full sample, the number of samples contributing to it is counted, and used
//! as its weight when performing the downsample calculation." Without coverage (or without a zeta
//! surface holding C) every full sample has weight 1: the box average.

use super::coverage;
use super::mode::MsMode;
use crate::error::{Error, Result};
use alloc::vec::Vec;

/// An RGBA color with components as floats.
pub type Rgba = [f32; 4];

/// The plain average of `samples` (the non-CSAA resolve).
pub fn resolve_box(samples: &[Rgba]) -> Result<Rgba> {
    let w = alloc::vec![1u32; samples.len()];
    weighted_average(samples, &w)
}

/// The CSAA resolve of one pixel: `samples[s]` is full sample `s`, `c` the pixel's C value.
/// For non-CSAA modes this is the box average.
pub fn resolve_weighted(mode: MsMode, samples: &[Rgba], c: u32) -> Result<Rgba> {
    let n = mode.full_samples() as usize;
    if samples.len() != n {
        return Err(Error::OutOfRange {
            field: "full samples given",
            value: samples.len() as u64,
            min: n as u64,
            max: n as u64,
        });
    }
    let w = coverage::weights(mode, c)?;
    weighted_average(samples, &w)
}

/// `sum(w[i] * samples[i]) / sum(w)`.
pub fn weighted_average(samples: &[Rgba], weights: &[u32]) -> Result<Rgba> {
    let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
    if samples.is_empty() || total == 0 || weights.len() != samples.len() {
        return Err(Error::OutOfRange {
            field: "samples to average",
            value: samples.len() as u64,
            min: 1,
            max: weights.len() as u64,
        });
    }
    let mut acc = [0f64; 4];
    for (s, &w) in samples.iter().zip(weights) {
        for k in 0..4 {
            acc[k] += f64::from(s[k]) * f64::from(w);
        }
    }
    Ok(acc.map(|a| (a / total as f64) as f32))
}

/// Resolves a whole `width_px x height_px` image. `sample_at(ex, ey)` reads the sample surface
/// at element coordinates; `c_at(x, y)`, when given, returns a pixel's C value (CSAA weights),
/// otherwise every pixel is box-averaged. Output is row-major, one color per pixel.
pub fn resolve_image<S, C>(
    mode: MsMode,
    width_px: u64,
    height_px: u64,
    mut sample_at: S,
    mut c_at: Option<C>,
) -> Result<Vec<Rgba>>
where
    S: FnMut(u64, u64) -> Result<Rgba>,
    C: FnMut(u64, u64) -> Result<u32>,
{
    let n = mode.full_samples();
    let pixels = width_px.checked_mul(height_px).ok_or_else(|| Error::Overflow {
        what: "resolved image size",
        detail: alloc::format!("{width_px} x {height_px} pixels"),
    })?;
    let mut out = Vec::new();
    out.try_reserve(usize::try_from(pixels).unwrap_or(usize::MAX)).map_err(|_| Error::Overflow {
        what: "resolved image size",
        detail: alloc::format!("{pixels} pixels do not fit in memory"),
    })?;
    let mut buf: Vec<Rgba> = Vec::with_capacity(n as usize);
    for y in 0..height_px {
        for x in 0..width_px {
            buf.clear();
            for s in 0..n {
                let (ex, ey) = mode.sample_element_xy(x, y, s)?;
                buf.push(sample_at(ex, ey)?);
            }
            let px = match c_at.as_mut() {
                Some(f) if mode.is_csaa() => resolve_weighted(mode, &buf, f(x, y)?)?,
                _ => resolve_box(&buf)?,
            };
            out.push(px);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_and_weighted() {
        let s = [[0.0, 0.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]];
        assert_eq!(resolve_box(&s).unwrap(), [0.5, 0.5, 0.5, 1.0]);
        assert_eq!(weighted_average(&s, &[3, 1]).unwrap(), [0.25, 0.25, 0.25, 1.0]);
        assert!(resolve_box(&[]).is_err());
        assert!(resolve_weighted(MsMode::MS4, &s, 0).is_err());
    }
}
