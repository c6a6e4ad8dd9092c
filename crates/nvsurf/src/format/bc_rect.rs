//! Encoding rectangles with options: [`Format::encode_rect_with`] and its RGBA8 sibling. Other
//! layouts go element by element (`rect.rs`); block-compressed ones go to the maintained
//! encoder crates of `codec::bc_encode` (feature `bc-encode`), band by band of block rows:
//! each band's pixels become the encoder's input (the components C0-C3 after the swizzle is
//! undone and sRGB encoded: sRGB formats store sRGB-coded values), partial edge blocks repeat
//! the edge pixels, and whole RGBA8 blocks go to the encoder straight from the caller's rows.
//! Rationale and measurements: `docs/encoding.md`, `docs/perf/bc-encode.md`.

use super::element_layout::Layout;
use super::Format;
#[cfg(feature = "bc-encode")]
use crate::codec::{bc_encode, unit_to_int, Bc};
use crate::codec::{EncodeOptions, Texel};
use crate::error::{Error, Result};
#[cfg(feature = "bc-encode")]
use crate::extent::{Extent, Texels};

impl Format {
    /// Encodes `width_px x height_px` texels (row-major) into a linear image of elements
    /// (`row_pitch_bytes` apart), with `options`. Block-compressed formats (BC1-BC7 but BC6H
    /// signed) encode through maintained encoder crates when nvsurf is built with the
    /// `bc-encode` feature, and are refused otherwise; edge blocks repeat the edge pixels. Other
    /// formats encode as [`Format::encode_rect`] does.
    pub fn encode_rect_with(
        &self,
        px: &[Texel],
        width_px: u32,
        height_px: u32,
        out: &mut [u8],
        row_pitch_bytes: usize,
        options: &EncodeOptions,
    ) -> Result<()> {
        let Layout::Compressed(_bc) = self.tex.layout else {
            return self.encode_rect_elements(px, width_px, height_px, out, row_pitch_bytes);
        };
        self.check_rect(out.len(), row_pitch_bytes, width_px, height_px, px.len())?;
        #[cfg(feature = "bc-encode")]
        {
            let w = width_px as usize;
            // Plain RGBA unorm (no swizzle, no sRGB): each float straight to its byte.
            let plain = self.bc_rgba8_direct() == Some(_bc);
            self.encode_bc_rect(_bc, width_px, height_px, out, row_pitch_bytes, options, None, |x, y, dst| {
                let t = &px[y * w + x];
                if plain {
                    for (d, c) in dst.iter_mut().zip(t) {
                        *d = unorm_byte(f32::from_bits(*c));
                    }
                } else {
                    self.bc_input(_bc, t, dst)
                }
            })
        }
        #[cfg(not(feature = "bc-encode"))]
        {
            let _ = options;
            Err(self.no_encoder())
        }
    }

    /// [`Format::encode_rect_with`] from 8-bit RGBA pixels (the inverse of
    /// [`Format::decode_rect_rgba8`]: each byte reads `b / 255`). BC1, BC2, BC3 and BC7 with a
    /// plain swizzle take the pixels as the encoder's input as they are.
    ///
    /// For an sRGB format the bytes are the sRGB-encoded values to store (a PNG's samples), as
    /// [`Format::decode_rect_rgba8`] returns them: they are stored as they are, not encoded
    /// again. Texel and f32 inputs ([`Format::encode_rect_with`]) are linear.
    pub fn encode_rect_rgba8_with(
        &self,
        px: &[[u8; 4]],
        width_px: u32,
        height_px: u32,
        out: &mut [u8],
        row_pitch_bytes: usize,
        options: &EncodeOptions,
    ) -> Result<()> {
        if self.srgb {
            // Stored sRGB-encoded bytes: the format without the sRGB curve stores them as given.
            return self.with_srgb(false).encode_rect_rgba8_with(
                px,
                width_px,
                height_px,
                out,
                row_pitch_bytes,
                options,
            );
        }
        if let Some(inv) = self.byte_unmap_rgba8() {
            return self.encode_byte_unmap_rect_rgba8(inv, px, (width_px, height_px), out, row_pitch_bytes);
        }
        let texel = |p: &[u8; 4]| self.f32_to_texel(&p.map(|b| f32::from(b) / 255.0));
        let Layout::Compressed(_bc) = self.tex.layout else {
            let texels: alloc::vec::Vec<Texel> = px.iter().map(texel).collect();
            return self.encode_rect_elements(&texels, width_px, height_px, out, row_pitch_bytes);
        };
        self.check_rect(out.len(), row_pitch_bytes, width_px, height_px, px.len())?;
        #[cfg(feature = "bc-encode")]
        {
            let w = width_px as usize;
            let direct = (self.bc_rgba8_direct() == Some(_bc)).then_some(px.as_flattened());
            self.encode_bc_rect(_bc, width_px, height_px, out, row_pitch_bytes, options, direct, |x, y, dst| {
                self.bc_input(_bc, &texel(&px[y * w + x]), dst)
            })
        }
        #[cfg(not(feature = "bc-encode"))]
        {
            let _ = (options, texel);
            Err(self.no_encoder())
        }
    }

    /// The error for a compressed format when nvsurf was built without an encoder.
    #[cfg(not(feature = "bc-encode"))]
    fn no_encoder(&self) -> Error {
        Error::Unsupported {
            field: "format",
            value: self.name().into(),
            rule: "encoding to block-compressed formats needs nvsurf built with the `bc-encode` feature".into(),
        }
    }

    /// The encoder's input for one texel of `bc` into `dst` (its bytes per pixel): unorm
    /// bytes, snorm bytes biased by 128 (BC4/BC5), or RGBA half floats (BC6H; negative and NaN
    /// values read 0, the format has no sign).
    #[cfg(feature = "bc-encode")]
    fn bc_input(&self, bc: Bc, t: &Texel, dst: &mut [u8]) {
        use crate::codec::{f32_to_f16, ComponentType};
        let (c, read) = self.unswizzled(t);
        let f = |i: usize| f32::from_bits(c[i]);
        match bc {
            Bc::Bc4 | Bc::Bc5 => {
                for (i, d) in dst.iter_mut().enumerate() {
                    *d = if self.types[0] == ComponentType::Snorm {
                        let s = if f(i).is_nan() { 0.0 } else { libm::roundf(f(i).clamp(-1.0, 1.0) * 127.0) };
                        (s as i32 + 128) as u8
                    } else {
                        unit_to_int(f(i), 255.0) as u8
                    };
                }
            }
            Bc::Bc6hSigned | Bc::Bc6hUnsigned => {
                for i in 0..4 {
                    let v = if i == 3 { 1.0 } else { f(i) };
                    let h = if v.is_nan() || v <= 0.0 { 0 } else { f32_to_f16(v) };
                    dst[2 * i..2 * i + 2].copy_from_slice(&h.to_le_bytes());
                }
            }
            _ => {
                for (i, d) in dst.iter_mut().enumerate() {
                    *d = match (read[i], i) {
                        (true, _) => unit_to_int(f(i), 255.0) as u8,
                        (false, 3) => 255,
                        (false, _) => 0,
                    };
                }
            }
        }
    }

    /// The blocks of a `w x h` rectangle of `bc`, columns and rows; `None` when it is empty.
    /// Refuses what the encoders do not take: formats without an encoder, widths past their
    /// 32-bit sizes.
    #[cfg(feature = "bc-encode")]
    fn bc_rect_blocks(&self, bc: Bc, width_px: u32, height_px: u32) -> Result<Option<(usize, usize)>> {
        if let Some(rule) = bc_encode::refusal(bc) {
            return Err(Error::Unsupported { field: "format", value: self.name().into(), rule: rule.into() });
        }
        if width_px == 0 || height_px == 0 {
            return Ok(None);
        }
        let blocks = Extent::<Texels>::new_2d(width_px, height_px).to_elements(self);
        let (cols, rows) = (blocks.width as usize, blocks.height as usize);
        // The encoders take 32-bit sizes (a band of 4 rows at least, 16 bytes a pixel at most):
        // a wider picture is refused before any buffer exists.
        let max_w = i32::MAX as usize / 16 / 4;
        if cols * 4 > max_w {
            return Err(Error::OutOfRange { field: "width", value: u64::from(width_px), min: 1, max: max_w as u64 });
        }
        Ok(Some((cols, rows)))
    }

    /// Encodes a checked rectangle of `bc` band by band: `fetch(x, y, dst)` writes the
    /// encoder's input for pixel (x, y); `direct`, when given, is the input itself (RGBA8 rows
    /// of `width_px * 4` bytes), read in place for every whole block.
    #[cfg(feature = "bc-encode")]
    #[allow(clippy::too_many_arguments)]
    fn encode_bc_rect(
        &self,
        bc: Bc,
        width_px: u32,
        height_px: u32,
        out: &mut [u8],
        row_pitch_bytes: usize,
        options: &EncodeOptions,
        direct: Option<&[u8]>,
        fetch: impl Fn(usize, usize, &mut [u8]),
    ) -> Result<()> {
        use alloc::vec::Vec;
        use bc_encode::{encode_blocks, input_bytes_per_px, Plane};
        if let Bc::Astc { w: fw, h: fh } = bc {
            return self.encode_astc_rect((fw, fh), width_px, height_px, out, row_pitch_bytes, options, direct, fetch);
        }
        let (w, h) = (width_px as usize, height_px as usize);
        let Some((cols, rows)) = self.bc_rect_blocks(bc, width_px, height_px)? else { return Ok(()) };
        let size = bc_encode::block_bytes(bc);
        let bpp = input_bytes_per_px(bc);
        // About a million pixels of input a band: a few MiB whatever the picture's size.
        let band = (65536 / cols).clamp(1, rows);
        let full_cols = if direct.is_some() { w / 4 } else { 0 };
        let mut input: Vec<u8> = Vec::new();
        let mut blocks: Vec<u8> = Vec::new();
        let mut by = 0;
        while by < rows {
            let nb = band.min(rows - by);
            // Whole rows of whole blocks from the caller's pixels into tightly packed output:
            // straight into `out`, nothing copied.
            if let Some(src) = direct {
                if full_cols == cols && (by + nb) * 4 <= h && row_pitch_bytes == cols * size {
                    let rows_px = &src[by * 4 * w * 4..];
                    let plane = Plane {
                        data: rows_px,
                        width_px: (cols * 4) as u32,
                        height_px: (nb * 4) as u32,
                        stride_bytes: w * 4,
                    };
                    let opaque = bc != Bc::Bc7 || opaque_rows(rows_px, w, nb * 4);
                    let at = by * row_pitch_bytes;
                    encode_blocks(bc, options.bc_quality, opaque, &plane, &mut out[at..at + nb * row_pitch_bytes])?;
                    by += nb;
                    continue;
                }
            }
            blocks.resize(cols * nb * size, 0);
            let encoded = &mut blocks[..cols * nb * size];
            // Whole blocks straight from the caller's rows when the band lies inside the picture.
            let inside = match direct {
                Some(src) if full_cols > 0 && (by + nb) * 4 <= h => Some(src),
                _ => None,
            };
            let first_col = if inside.is_some() { full_cols } else { 0 };
            let mut head = alloc::vec![0u8; if inside.is_some() { full_cols * nb * size } else { 0 }];
            if let Some(src) = inside {
                let plane = Plane {
                    data: &src[by * 4 * w * 4..],
                    width_px: (full_cols * 4) as u32,
                    height_px: (nb * 4) as u32,
                    stride_bytes: w * 4,
                };
                let opaque = bc != Bc::Bc7 || opaque_rows(&src[by * 4 * w * 4..], w, nb * 4);
                encode_blocks(bc, options.bc_quality, opaque, &plane, &mut head)?;
            }
            // The rest (every block, or the partial right column) through `fetch`.
            let rest_cols = cols - first_col;
            let mut tail = alloc::vec![0u8; rest_cols * nb * size];
            if rest_cols > 0 {
                let pw = rest_cols * 4;
                input.clear();
                input.resize(pw * nb * 4 * bpp, 0);
                for py in 0..nb * 4 {
                    let y = (by * 4 + py).min(h - 1);
                    for px in 0..pw {
                        let x = (first_col * 4 + px).min(w - 1);
                        let at = (py * pw + px) * bpp;
                        fetch(x, y, &mut input[at..at + bpp]);
                    }
                }
                let opaque = bc != Bc::Bc7 || input.chunks_exact(4).all(|p| p[3] == 255);
                let plane =
                    Plane { data: &input, width_px: pw as u32, height_px: (nb * 4) as u32, stride_bytes: pw * bpp };
                encode_blocks(bc, options.bc_quality, opaque, &plane, &mut tail)?;
            }
            if self.types[0] == crate::codec::ComponentType::Snorm {
                bc_encode::unbias_signed(bc, &mut tail);
            }
            join_rows(encoded, &head, first_col * size, &tail, rest_cols * size);
            for (r, src) in encoded.chunks_exact(cols * size).enumerate() {
                let at = (by + r) * row_pitch_bytes;
                out[at..at + cols * size].copy_from_slice(src);
            }
            by += nb;
        }
        Ok(())
    }
}

/// `unit_to_int(v, 255)` without its call: `v` clamped to [0, 1], scaled and rounded half
/// up in f64 (exact for every f32 here, so the same byte), NaN to 0.
#[cfg(feature = "bc-encode")]
#[inline]
fn unorm_byte(v: f32) -> u8 {
    (f64::from(v.clamp(0.0, 1.0)) * 255.0 + 0.5) as u8
}

#[cfg(feature = "bc-encode")]
impl Format {
    /// [`Format::encode_bc_rect`] for ASTC: the picture's RGBA8 encoder input (`direct`, or
    /// `fetch`ed pixel by pixel) to the built-in encoder (`codec::astc_encode`), then the block
    /// rows to `out`, `row_pitch_bytes` apart.
    #[cfg(feature = "bc-encode")]
    #[allow(clippy::too_many_arguments)]
    fn encode_astc_rect(
        &self,
        footprint: (u8, u8),
        width_px: u32,
        height_px: u32,
        out: &mut [u8],
        row_pitch_bytes: usize,
        options: &EncodeOptions,
        direct: Option<&[u8]>,
        fetch: impl Fn(usize, usize, &mut [u8]),
    ) -> Result<()> {
        use crate::codec::encode_astc_rgba8;
        if let Some(rule) = crate::codec::astc_footprint_refusal(footprint.0, footprint.1) {
            return Err(Error::Unsupported { field: "format", value: self.name().into(), rule });
        }
        let (w, h) = (width_px as usize, height_px as usize);
        let owned;
        let rgba = match direct {
            Some(src) => src,
            None => {
                let mut v = alloc::vec![0u8; w * h * 4];
                for (i, dst) in v.chunks_exact_mut(4).enumerate() {
                    fetch(i % w, i / w, dst);
                }
                owned = v;
                &owned[..]
            }
        };
        let blocks = Extent::<Texels>::new_2d(width_px, height_px).to_elements(self);
        let (cols, rows) = (blocks.width as usize, blocks.height as usize);
        let row_bytes = cols * 16;
        if row_pitch_bytes == row_bytes {
            return encode_astc_rgba8(
                footprint,
                rgba,
                width_px,
                height_px,
                options.bc_quality,
                &mut out[..rows * row_bytes],
            );
        }
        let mut blocks = alloc::vec![0u8; rows * row_bytes];
        encode_astc_rgba8(footprint, rgba, width_px, height_px, options.bc_quality, &mut blocks)?;
        for (r, src) in blocks.chunks_exact(row_bytes).enumerate() {
            out[r * row_pitch_bytes..r * row_pitch_bytes + row_bytes].copy_from_slice(src);
        }
        Ok(())
    }
}

/// Each row of a band of encoded blocks: its first `head_row` bytes from `head` (the blocks
/// encoded straight from the caller's rows), the rest, `tail_row` bytes, from `tail`.
#[cfg(feature = "bc-encode")]
fn join_rows(encoded: &mut [u8], head: &[u8], head_row: usize, tail: &[u8], tail_row: usize) {
    for (r, dst) in encoded.chunks_exact_mut(head_row + tail_row).enumerate() {
        let (a, b) = dst.split_at_mut(head_row);
        a.copy_from_slice(&head[r * head_row..(r + 1) * head_row]);
        b.copy_from_slice(&tail[r * tail_row..(r + 1) * tail_row]);
    }
}

/// Whether every pixel of `rows` RGBA8 rows of `w` pixels has alpha 255.
#[cfg(feature = "bc-encode")]
fn opaque_rows(src: &[u8], w: usize, rows: usize) -> bool {
    src[..w * rows * 4].chunks_exact(4).all(|p| p[3] == 255)
}
