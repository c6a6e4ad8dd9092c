//! Rectangle codecs: a linear image of elements (rows `row_pitch_bytes` apart) of a
//! [`Format`] to `width_px x height_px` pixels and back, with the checked size arithmetic of
//! both, and the row helpers for formats of one pixel per element. The RGBA8 decode takes the
//! fast paths of `rgba8.rs` where one applies.

use super::element_layout::Layout;
use super::Format;
use crate::codec::{Bc, EncodeOptions, Texel, MAX_PIXELS_PER_ELEM};
use crate::error::{Error, Result};
use crate::extent::{Extent, Texels};

impl Format {
    pub(super) fn check_rect(
        &self,
        elems: usize,
        row_pitch: usize,
        w: u32,
        h: u32,
        out: usize,
    ) -> Result<(usize, usize)> {
        let blocks = Extent::<Texels>::new_2d(w, h).to_elements(self);
        let (cols, rows) = (blocks.width as usize, blocks.height as usize);
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
    pub(super) fn decode_rect_with<T: Copy>(
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
        // Tables pay off once the image has a few times more pixels than the decodes that
        // fill them (`texel_lut.rs`).
        let pixels = width_px as usize * height_px as usize;
        if let Some(lut) = self.texel_lut(|decodes| pixels >= 4 * decodes) {
            let (_, rows) = self.check_rect(elems.len(), row_pitch_bytes, width_px, height_px, out.len())?;
            let (w, size) = (width_px as usize, self.elem_size_bytes() as usize);
            for y in 0..rows {
                lut.row(&elems[y * row_pitch_bytes..y * row_pitch_bytes + size * w], &mut out[y * w..(y + 1) * w]);
            }
            return Ok(());
        }
        self.decode_rect_with(elems, row_pitch_bytes, width_px, height_px, out, |t| *t)
    }

    /// [`Format::decode_rect`] through the generic per-element path only: the reference its
    /// table path is tested against.
    pub fn decode_rect_generic(
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
    ///
    /// For an sRGB format, R, G and B are the stored sRGB-encoded values (the bytes a PNG of
    /// the CLI, Pillow or image_dds give), not linear light: 8 bits cannot hold linear light
    /// without banding in the darks, and pictures are sRGB-coded. The float outputs
    /// ([`Format::decode_rect`], [`Format::decode_rect_f32`]) stay linear. `docs/formats.md`,
    /// "sRGB formats".
    pub fn decode_rect_rgba8(
        &self,
        elems: &[u8],
        row_pitch_bytes: usize,
        width_px: u32,
        height_px: u32,
        out: &mut [[u8; 4]],
    ) -> Result<()> {
        if self.srgb {
            // The stored encoding is the format read without the sRGB curve.
            return self.with_srgb(false).decode_rect_rgba8(elems, row_pitch_bytes, width_px, height_px, out);
        }
        if let Some(map) = self.byte_map_rgba8() {
            return self.decode_byte_map_rect_rgba8(map, elems, row_pitch_bytes, width_px, height_px, out);
        }
        if let Some(bc) = self.bc_rgba8_direct() {
            return self.decode_bc_rect_rgba8(bc, elems, row_pitch_bytes, width_px, height_px, out);
        }
        if let (Some(_), Layout::Compressed(bc @ (Bc::Bc4 | Bc::Bc5))) = (self.rgtc_rgba8_map(), self.tex.layout) {
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

    /// Decodes a row of elements of a one-pixel-per-element format into RGBA8 (sRGB formats:
    /// the stored sRGB-encoded values, as [`Format::decode_rect_rgba8`]).
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
    /// right and bottom edges of partial blocks repeat the edge pixel. Block-compressed formats
    /// take [`EncodeOptions::default`] (see [`Format::encode_rect_with`]).
    pub fn encode_rect(
        &self,
        px: &[Texel],
        width_px: u32,
        height_px: u32,
        out: &mut [u8],
        row_pitch_bytes: usize,
    ) -> Result<()> {
        self.encode_rect_with(px, width_px, height_px, out, row_pitch_bytes, &EncodeOptions::default())
    }

    /// [`Format::encode_rect`] element by element (every layout but the compressed ones).
    pub(super) fn encode_rect_elements(
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
        self.encode_rect_f32_with(px, width_px, height_px, out, row_pitch_bytes, &EncodeOptions::default())
    }

    /// [`Format::encode_rect_f32`] with [`EncodeOptions`] (see [`Format::encode_rect_with`]).
    pub fn encode_rect_f32_with(
        &self,
        px: &[[f32; 4]],
        width_px: u32,
        height_px: u32,
        out: &mut [u8],
        row_pitch_bytes: usize,
        options: &EncodeOptions,
    ) -> Result<()> {
        let texels: alloc::vec::Vec<Texel> = px.iter().map(|p| self.f32_to_texel(p)).collect();
        self.encode_rect_with(&texels, width_px, height_px, out, row_pitch_bytes, options)
    }
}
