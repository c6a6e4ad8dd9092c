//! Block-compression encoding (feature `bc-encode`): whole 4x4 blocks of one [`Plane`] of
//! encoder input to BC blocks, through maintained crates, never a hand-written encoder.
//!
//! - BC1, BC3, BC4, BC5, BC6H (unsigned) and BC7: `intel_tex_2`, Rust bindings of Intel's
//!   ISPC Texture Compressor (SIMD kernels, prebuilt for the common targets; the reference for
//!   BC7/BC6H quality per second). BC7 and BC6H take its `fast` / `basic` / `slow` presets.
//! - BC2, and BC1/BC3 at [`BcQuality::Slow`]: `texpresso` (a pure-Rust port of libsquish) with
//!   its iterative cluster fit, which searches more endpoint pairs than the ISPC BC1 kernel.
//! - BC1 blocks with a texel of alpha below 128 at `Fast` / `Normal`: `texpresso` too (range
//!   fit / cluster fit), since the ISPC BC1 kernel has no punch-through mode (see
//!   [`bc1_punch_through`]).
//! - BC6H signed: no maintained crate encodes it (the ISPC kernel is unsigned only): refused.
//!
//! Measurements: `docs/perf/bc-encode.md`. Facts: Microsoft's "Texture Block Compression in
//! Direct3D 11" (BC4/BC5 signed endpoints are two's complement bytes, same index layout).

use super::bc::Bc;
use super::encode_options::BcQuality;
use crate::error::{Error, Result};
use alloc::vec::Vec;

// intel_tex_2's prebuilt Linux archives refer to the C++ runtime (`__gxx_personality_v0`)
// without linking it: the link fails with an undefined symbol unless libstdc++ comes along.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[link(name = "stdc++")]
extern "C" {}

/// Encoder input: `width_px x height_px` pixels (both multiples of 4), rows `stride_bytes`
/// apart, [`input_bytes_per_px`] bytes a pixel.
pub(crate) struct Plane<'a> {
    /// The pixels.
    pub data: &'a [u8],
    /// Width in pixels (a multiple of 4).
    pub width_px: u32,
    /// Height in pixels (a multiple of 4).
    pub height_px: u32,
    /// Bytes from one row to the next.
    pub stride_bytes: usize,
}

/// Bytes of one input pixel for `bc`: RGBA8 (BC1/2/3/7), RG8 (BC5), R8 (BC4) or RGBA half
/// floats (BC6H, 8 bytes).
pub(crate) fn input_bytes_per_px(bc: Bc) -> usize {
    match bc {
        Bc::Bc4 => 1,
        Bc::Bc5 => 2,
        Bc::Bc6hSigned | Bc::Bc6hUnsigned => 8,
        // RGBA8; ETC2/EAC and ASTC never reach the encoders (see `refusal`).
        _ => 4,
    }
}

/// Bytes of one encoded block of `bc`.
pub(crate) fn block_bytes(bc: Bc) -> usize {
    match bc {
        Bc::Bc1 | Bc::Bc4 | Bc::Etc2Rgb | Bc::Etc2RgbA1 | Bc::EacR11 => 8,
        _ => 16,
    }
}

/// Why `bc` cannot be encoded, if it cannot (the rule of the one-line error).
pub(crate) fn refusal(bc: Bc) -> Option<&'static str> {
    match bc {
        Bc::Bc6hSigned => Some(
            "no maintained encoder exists for BC6H signed (intel_tex_2 encodes BC6H unsigned only); \
             use BC6H_UF16 or keep the texture's blocks",
        ),
        Bc::Etc2Rgb | Bc::Etc2RgbA1 | Bc::Etc2Rgba | Bc::EacR11 | Bc::EacRg11 => {
            Some("ETC2/EAC are decoded only: no maintained Rust ETC2 encoder is wired in (docs/encoding.md)")
        }
        Bc::Astc { .. } => Some("ASTC blocks are not 4x4: they are encoded by `codec::encode_astc_rgba8`"),
        _ => None,
    }
}

/// Encodes every 4x4 block of `p` into `out` (blocks row by row, tightly packed). `opaque`
/// tells the BC7 encoder that alpha is 255 everywhere (it then spends no bits on alpha).
pub(crate) fn encode_blocks(bc: Bc, quality: BcQuality, opaque: bool, p: &Plane, out: &mut [u8]) -> Result<()> {
    if let Some(rule) = refusal(bc) {
        return Err(Error::Unsupported { field: "encode", value: alloc::format!("{bc:?}"), rule: rule.into() });
    }
    let bpp = input_bytes_per_px(bc);
    let (w, h) = (p.width_px as usize, p.height_px as usize);
    // The kernels index with 32-bit signed sizes and trust these bounds: they are proved here.
    let max = i32::MAX as usize / 16;
    if w % 4 != 0 || h % 4 != 0 || w > max || h > max || w.saturating_mul(h) > max {
        return Err(Error::OutOfRange { field: "encoder plane width", value: w as u64, min: 4, max: max as u64 });
    }
    let row = w * bpp;
    if p.stride_bytes < row || p.stride_bytes > i32::MAX as usize {
        return Err(Error::OutOfRange {
            field: "encoder plane stride",
            value: p.stride_bytes as u64,
            min: row as u64,
            max: i32::MAX as u64,
        });
    }
    let need = if h == 0 { 0 } else { (h - 1) * p.stride_bytes + row };
    if p.data.len() < need {
        return Err(Error::BufferTooSmall { what: "encoder plane", needed: need as u64, got: p.data.len() as u64 });
    }
    let blocks = (w / 4) * (h / 4) * block_bytes(bc);
    if out.len() != blocks {
        return Err(Error::BufferTooSmall { what: "encoded blocks", needed: blocks as u64, got: out.len() as u64 });
    }
    if blocks == 0 {
        return Ok(());
    }
    let stride = p.stride_bytes as u32;
    let (wu, hu) = (p.width_px, p.height_px);
    match (bc, quality) {
        (Bc::Bc1 | Bc::Bc3, BcQuality::Slow) | (Bc::Bc2, _) => squish(bc, quality, p, out),
        (Bc::Bc1, _) => bc1_punch_through(quality, p, out),
        (Bc::Bc3, _) => intel_tex_2::bc3::compress_blocks_into(&surface::<4>(p, wu, hu, stride), out),
        (Bc::Bc4, _) => intel_tex_2::bc4::compress_blocks_into(&surface::<1>(p, wu, hu, stride), out),
        (Bc::Bc5, _) => intel_tex_2::bc5::compress_blocks_into(&surface::<2>(p, wu, hu, stride), out),
        (Bc::Bc7, q) => {
            use intel_tex_2::bc7;
            let settings = match (q, opaque) {
                (BcQuality::Fast, true) => bc7::opaque_fast_settings(),
                (BcQuality::Normal, true) => bc7::opaque_basic_settings(),
                (BcQuality::Slow, true) => bc7::opaque_slow_settings(),
                (BcQuality::Fast, false) => bc7::alpha_fast_settings(),
                (BcQuality::Normal, false) => bc7::alpha_basic_settings(),
                (BcQuality::Slow, false) => bc7::alpha_slow_settings(),
            };
            bc7::compress_blocks_into(&settings, &surface::<4>(p, wu, hu, stride), out)
        }
        (_, q) => {
            // BC6H unsigned (signed was refused above): RGBA half floats, 8 bytes a pixel.
            use intel_tex_2::bc6h;
            let settings = match q {
                BcQuality::Fast => bc6h::fast_settings(),
                BcQuality::Normal => bc6h::basic_settings(),
                BcQuality::Slow => bc6h::slow_settings(),
            };
            // The crate's surface type counts bytes per pixel in its parameter; BC6H reads 8.
            bc6h::compress_blocks_into(&settings, &surface::<4>(p, wu, hu, stride), out)
        }
    }
    Ok(())
}

/// The crate's view of `p` (its bounds were checked by [`encode_blocks`]).
fn surface<'a, const N: usize>(p: &Plane<'a>, w: u32, h: u32, stride: u32) -> intel_tex_2::Surface<'a, N> {
    intel_tex_2::Surface { data: p.data, width: w, height: h, stride }
}

/// BC1/BC2/BC3 through `texpresso` (it wants tightly packed RGBA8 rows), with
/// [`squish_params`].
fn squish(bc: Bc, quality: BcQuality, p: &Plane, out: &mut [u8]) {
    let (w, h) = (p.width_px as usize, p.height_px as usize);
    let packed: Vec<u8>;
    let rgba = if p.stride_bytes == w * 4 {
        &p.data[..w * h * 4]
    } else {
        packed = (0..h).flat_map(|y| p.data[y * p.stride_bytes..y * p.stride_bytes + w * 4].iter().copied()).collect();
        &packed[..]
    };
    let format = match bc {
        Bc::Bc1 => texpresso::Format::Bc1,
        Bc::Bc2 => texpresso::Format::Bc2,
        _ => texpresso::Format::Bc3,
    };
    format.compress(rgba, w, h, squish_params(quality), out);
}

/// texpresso's settings for `quality`: range fit, cluster fit, iterative cluster fit. Uniform
/// channel weights: the error it minimises is then the one PSNR measures.
fn squish_params(quality: BcQuality) -> texpresso::Params {
    let algorithm = match quality {
        BcQuality::Fast => texpresso::Algorithm::RangeFit,
        BcQuality::Normal => texpresso::Algorithm::ClusterFit,
        BcQuality::Slow => texpresso::Algorithm::IterativeClusterFit,
    };
    texpresso::Params { algorithm, weights: texpresso::COLOUR_WEIGHTS_UNIFORM, weigh_colour_by_alpha: false }
}

/// Below this alpha a BC1 texel is encoded transparent (the punch-through index of a
/// three-colour block: Microsoft, "Opaque and 1-Bit Alpha Textures (Direct3D 9)"); 128 is
/// libsquish's threshold (texpresso `src/colourset.rs`) and DirectXTex's default of 0.5.
pub(crate) const BC1_ALPHA_THRESHOLD: u8 = 128;

/// The top bits of both alphas of two RGBA8 pixels read as a little-endian `u64`.
const ALPHA_TOP_BITS: u64 = 0x8000_0000_8000_0000;

/// Input bytes of a BC1 strip (at least one block row): the kernel reads the strip, and the
/// alpha scan after it finds it in the L1 cache (1024 px wide: one block row).
const BC1_STRIP_BYTES: usize = 16 * 1024;

/// BC1 at `Fast` / `Normal`: the ISPC kernel, strip by strip; then each block holding a texel
/// with alpha below [`BC1_ALPHA_THRESHOLD`] is encoded again by texpresso's BC1, which uses
/// the three-colour mode for it (the ISPC kernel has none: it would make the block opaque).
/// An opaque strip costs one alpha scan and keeps the ISPC bytes exactly.
fn bc1_punch_through(quality: BcQuality, p: &Plane, out: &mut [u8]) {
    let (w, h) = (p.width_px as usize, p.height_px as usize);
    let (cols, rows) = (w / 4, h / 4);
    let per_strip = (BC1_STRIP_BYTES / p.stride_bytes.saturating_mul(4).max(1)).max(1);
    let mut by = 0;
    while by < rows {
        let nb = per_strip.min(rows - by);
        let data = &p.data[by * 4 * p.stride_bytes..];
        let strip = Plane { data, width_px: p.width_px, height_px: (nb * 4) as u32, stride_bytes: p.stride_bytes };
        let blocks = &mut out[by * cols * 8..(by + nb) * cols * 8];
        let (wu, hu, stride) = (strip.width_px, strip.height_px, strip.stride_bytes as u32);
        intel_tex_2::bc1::compress_blocks_into(&surface::<4>(&strip, wu, hu, stride), blocks);
        let holed = any_alpha_below_128(data, p.stride_bytes, nb * 4, w * 4);
        if holed {
            punch_blocks(quality, &strip, blocks);
        }
        by += nb;
    }
}

/// Whether a texel of `rows` RGBA8 rows (`row_bytes` long, a multiple of 8, `stride` apart)
/// has alpha below 128: the rows ANDed as 64-bit words (two pixels each), an alpha's top bit
/// clear at the end. Wide vectors where the CPU has them (`crate::cpu`): on an opaque picture
/// this scan is the whole cost of keeping BC1's alpha (`docs/perf/bc-encode.md`).
fn any_alpha_below_128(data: &[u8], stride: usize, rows: usize, row_bytes: usize) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        if crate::cpu::avx512f() {
            // SAFETY: the CPU has AVX-512F (the function's only contract).
            return unsafe { alpha_scan_avx512(data, stride, rows, row_bytes) };
        }
        if crate::cpu::avx2() {
            // SAFETY: the CPU has AVX2 (the function's only contract).
            return unsafe { alpha_scan_avx2(data, stride, rows, row_bytes) };
        }
    }
    alpha_scan(data, stride, rows, row_bytes)
}

/// [`any_alpha_below_128`] in portable code (a loop the compiler vectorises).
#[inline(always)]
fn alpha_scan(data: &[u8], stride: usize, rows: usize, row_bytes: usize) -> bool {
    let mut all = u64::MAX;
    for y in 0..rows {
        let row = &data[y * stride..y * stride + row_bytes];
        all = row.chunks_exact(8).fold(all, |a, c| a & <[u8; 8]>::try_from(c).map_or(0, u64::from_le_bytes));
    }
    all & ALPHA_TOP_BITS != ALPHA_TOP_BITS
}

/// [`alpha_scan`] compiled for AVX2 (the same code, so the same answer).
///
/// # Safety
/// The CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn alpha_scan_avx2(data: &[u8], stride: usize, rows: usize, row_bytes: usize) -> bool {
    alpha_scan(data, stride, rows, row_bytes)
}

/// [`alpha_scan`] compiled for AVX-512F (the same code, so the same answer).
///
/// # Safety
/// The CPU has AVX-512F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn alpha_scan_avx512(data: &[u8], stride: usize, rows: usize, row_bytes: usize) -> bool {
    alpha_scan(data, stride, rows, row_bytes)
}

/// Encodes again with texpresso each block of `strip` that holds a texel with alpha below
/// [`BC1_ALPHA_THRESHOLD`] (into its 8 bytes of `blocks`).
fn punch_blocks(quality: BcQuality, strip: &Plane, blocks: &mut [u8]) {
    let cols = strip.width_px as usize / 4;
    let params = squish_params(quality);
    for (i, block) in blocks.chunks_exact_mut(8).enumerate() {
        let (bx, by) = (i % cols, i / cols);
        let mut rgba = [[0u8; 4]; 16];
        for (t, px) in rgba.iter_mut().enumerate() {
            let at = (by * 4 + t / 4) * strip.stride_bytes + (bx * 4 + t % 4) * 4;
            px.copy_from_slice(&strip.data[at..at + 4]);
        }
        if rgba.iter().any(|px| px[3] < BC1_ALPHA_THRESHOLD) {
            texpresso::Format::Bc1.compress_block_masked(rgba, 0xffff, params, block);
        }
    }
}

/// Turns blocks that [`encode_blocks`] made of BC4/BC5 input biased by 128 (a snorm byte `s`
/// given as `s + 128`) into signed blocks: each endpoint byte `e` becomes `e - 128` as two's
/// complement (`e ^ 0x80`). The map keeps the endpoints' order, so the block's mode and
/// indices mean the same values, shifted by -128.
pub(crate) fn unbias_signed(bc: Bc, blocks: &mut [u8]) {
    let (size, halves): (usize, &[usize]) = match bc {
        Bc::Bc4 => (8, &[0]),
        Bc::Bc5 => (16, &[0, 8]),
        _ => return,
    };
    for b in blocks.chunks_exact_mut(size) {
        for &h in halves {
            b[h] ^= 0x80;
            b[h + 1] ^= 0x80;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The alpha scan at every vector level against a texel-by-texel check: one texel of
    /// alpha 127 (or 128, which is not below the threshold) anywhere in the rows, and bytes
    /// of alpha 0 in the stride's padding, which are not texels and must not count.
    #[test]
    fn alpha_scan_finds_one_texel_below_128_at_every_level() {
        let (w, rows, stride) = (20usize, 5usize, 20 * 4 + 12);
        let mut data = alloc::vec![0u8; stride * rows];
        for y in 0..rows {
            for x in 0..w {
                data[y * stride + x * 4..y * stride + x * 4 + 4].copy_from_slice(&[x as u8, y as u8, 9, 200]);
            }
        }
        let naive = |d: &[u8]| (0..rows).any(|y| (0..w).any(|x| d[y * stride + x * 4 + 3] < 128));
        let levels = |d: &[u8]| {
            let mut v = alloc::vec![alpha_scan(d, stride, rows, w * 4)];
            #[cfg(target_arch = "x86_64")]
            {
                if crate::cpu::avx2() {
                    // SAFETY: the CPU has AVX2.
                    v.push(unsafe { alpha_scan_avx2(d, stride, rows, w * 4) });
                }
                if crate::cpu::avx512f() {
                    // SAFETY: the CPU has AVX-512F.
                    v.push(unsafe { alpha_scan_avx512(d, stride, rows, w * 4) });
                }
            }
            v.push(any_alpha_below_128(d, stride, rows, w * 4));
            v
        };
        assert!(levels(&data).iter().all(|&b| !b));
        for y in 0..rows {
            for x in 0..w {
                for (alpha, below) in [(127u8, true), (128, false), (0, true)] {
                    let mut d = data.clone();
                    d[y * stride + x * 4 + 3] = alpha;
                    assert_eq!(naive(&d), below);
                    assert!(levels(&d).iter().all(|&b| b == below), "({x}, {y}) alpha {alpha}: {:?}", levels(&d));
                }
            }
        }
    }
}
