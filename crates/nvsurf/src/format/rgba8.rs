//! Fast paths of [`Format::decode_rect_rgba8`] (4-byte formats at or above half of memcpy's
//! speed: `cargo run --release -p nvsurf-bench -- --case codec`), each tested against the
//! generic per-texel path ([`Format::decode_element`] + [`Format::texel_to_rgba8`]):
//!
//! - byte moves ([`Format::byte_map_rgba8`]): `8_8_8_8` whose read channels decode to their byte
//!   unchanged (unorm without sRGB, uint) and constant channels;
//! - word tables ([`Format::word_lut`]): other simple formats of at most 4 bytes whose read
//!   fields are at most 16 bits wide, one table per field giving the field's share of the output
//!   word, with row kernels specialised for the `8_8_8_8`/`8_8_8_X8` and `10_10_10_2` layouts;
//! - BC1/BC2/BC3/BC7, ETC2 RGB/RGBA/RGB8A1 and ASTC with the identity swizzle: the block
//!   decoders straight into the caller's rows;
//! - BC4/BC5 (RGTC) with any swizzle ([`Format::rgtc_rgba8_map`]): each block's palette as
//!   bytes (exactly the rounded floats of the generic path), straight into the caller's rows.
//!
//! This module chooses the path and fills the tables; the row kernels are in `codec/lut.rs`.

use super::element_layout::Layout;
use super::swizzle::Swizzle;
use super::Format;
pub(super) use crate::codec::lut::LutKernel;
use crate::codec::lut::{shuffle_rgba8, WordLut, MAP_255, MAP_ONE, MAP_ZERO};
use crate::codec::{
    astc_rgba8, bc_rgba8, etc_rgba8, Bc, BlockRows, ComponentType, EtcColour, RgtcRgba8, S3tc, ValueKind, YuvMatrix,
    MAX_PIXELS_PER_ELEM,
};
use crate::error::Result;

impl Format {
    /// For `8_8_8_8`: where each output byte comes from (0-3 = element byte, or [`MAP_ZERO`],
    /// [`MAP_255`], [`MAP_ONE`]), when every channel is such a byte move: a channel that reads
    /// a unorm component (not sRGB-decoded) or a uint component outputs the byte itself
    /// (`round(b / 255 * 255) = b`; `min(b, 255) = b`), and a constant channel its constant.
    pub(super) fn byte_map_rgba8(&self) -> Option<[u8; 4]> {
        if self.tex.layout != Layout::Simple(&[8, 8, 8, 8]) || self.yuv != YuvMatrix::Raw {
            return None;
        }
        let mut map = [0u8; 4];
        for (ch, (m, s)) in map.iter_mut().zip(self.swizzle).enumerate() {
            *m = match s {
                Swizzle::Zero => MAP_ZERO,
                Swizzle::OneFloat => MAP_255,
                Swizzle::OneInt => MAP_ONE,
                c => {
                    let c = c.component()?;
                    match self.types[c] {
                        ComponentType::Unorm if !(self.srgb && ch < 3) => c as u8,
                        ComponentType::Uint => c as u8,
                        _ => return None,
                    }
                }
            };
        }
        Some(map)
    }

    /// The inverse of [`Format::byte_map_rgba8`] for encoding from 8-bit RGBA: for each element
    /// byte, the pixel byte it takes, when the swizzle reads each of the four unorm components
    /// exactly once (RGBA8, BGRA8, ...; sRGB formats once their curve is set aside, as
    /// [`Format::encode_rect_rgba8_with`] does). The generic path stores `round(b / 255 * 255)`
    /// = `b` for such a component, so the byte moves give its bytes exactly (tested against it).
    pub(super) fn byte_unmap_rgba8(&self) -> Option<[usize; 4]> {
        let map = self.byte_map_rgba8()?;
        let mut inv = [usize::MAX; 4];
        for (ch, &m) in map.iter().enumerate() {
            let m = usize::from(m);
            // A constant channel (or a component read twice) is no permutation.
            if m >= 4 || inv[m] != usize::MAX || self.types[m] != ComponentType::Unorm {
                return None;
            }
            inv[m] = ch;
        }
        Some(inv)
    }

    /// Whether [`Format::encode_rect_rgba8_with`] stores 8-bit RGBA pixels by moving bytes (no
    /// arithmetic): `8_8_8_8` unorm formats whose swizzle is a permutation.
    pub fn encodes_rgba8_by_bytes(&self) -> bool {
        self.with_srgb(false).byte_unmap_rgba8().is_some()
    }

    /// [`Format::encode_rect_rgba8_with`] by byte moves ([`Format::byte_unmap_rgba8`]), after
    /// the same checks as the generic path.
    pub(super) fn encode_byte_unmap_rect_rgba8(
        &self,
        inv: [usize; 4],
        px: &[[u8; 4]],
        (width_px, height_px): (u32, u32),
        out: &mut [u8],
        row_pitch_bytes: usize,
    ) -> Result<()> {
        self.check_rect(out.len(), row_pitch_bytes, width_px, height_px, px.len())?;
        let w = width_px as usize;
        if w == 0 {
            return Ok(());
        }
        // check_rect proved `height` rows of `row_pitch_bytes` (the last `w * 4` bytes long)
        // fit in `out` and `w * height` pixels in `px`.
        for (row_px, row_out) in px.chunks_exact(w).zip(out.chunks_mut(row_pitch_bytes)).take(height_px as usize) {
            for (p, dst) in row_px.iter().zip(row_out[..w * 4].chunks_exact_mut(4)) {
                dst.copy_from_slice(&inv.map(|ch| p[ch]));
            }
        }
        Ok(())
    }

    /// Word tables for [`Format::decode_rect_rgba8`] of simple formats with elements of at
    /// most 4 bytes whose read fields are at most 16 bits wide, when `worth(decodes)` says the
    /// `decodes` generic decodes that fill them pay off.
    ///
    /// Each output channel of such a format depends on one field alone (fields decode
    /// independently; swizzle, sRGB and the RGBA8 conversion work per channel) or on none
    /// (a constant), so table entry `x` of field `f` is taken from the generic path itself
    /// ([`Format::decode_element`] + [`Format::texel_to_rgba8`]) on an element whose fields all
    /// hold `x` (masked to their width): the tables agree with the generic path by
    /// construction.
    pub(super) fn word_lut(&self, worth: impl Fn(usize) -> bool) -> Option<WordLut> {
        let Layout::Simple(bits) = self.tex.layout else { return None };
        let size = self.elem_size_bytes() as usize;
        if size > 4 || self.pixels_per_elem() != 1 {
            return None;
        }
        let mut shift = [0u32; 4];
        let mut lo = 0u32;
        for (s, &b) in shift.iter_mut().zip(bits) {
            *s = lo;
            lo += u32::from(b);
        }
        // The field each output channel reads (None: a constant).
        let reads = self.swizzle.map(|s| s.component().filter(|&c| c < bits.len()));
        let mut mask = [0u32; 4];
        for c in reads.into_iter().flatten() {
            if bits[c] > 16 {
                return None;
            }
            mask[c] = (1u32 << bits[c]) - 1;
        }
        let kernel = match bits {
            [8, 8, 8, 8] | [8, 8, 8] if size == 4 => LutKernel::Bytes,
            [10, 10, 10, 2] => LutKernel::Rgb10A2,
            _ => LutKernel::Any,
        };
        let decodes = mask.iter().max().map_or(1, |&m| m as usize + 1);
        if !worth(decodes) {
            return None;
        }
        let len = kernel.table_len();
        let mut tables = alloc::vec![0u32; 4 * len];
        let mut konst = 0u32;
        let mut texel = [[0u32; 4]; 1];
        for x in 0..decodes as u32 {
            let v = (0..4).fold(0u32, |v, f| v | (x & mask[f]) << shift[f]);
            // Cannot fail: 4 bytes is at least the element size, one pixel per element.
            let _ = self.decode_element(&v.to_le_bytes()[..size], &mut texel);
            let px = self.texel_to_rgba8(&texel[0]);
            for (ch, read) in reads.iter().enumerate() {
                match *read {
                    Some(f) if x <= mask[f] => tables[f * len + x as usize] |= u32::from(px[ch]) << (8 * ch),
                    Some(_) => {}
                    None => konst |= u32::from(px[ch]) << (8 * ch),
                }
            }
        }
        Some(WordLut::new(kernel, shift, mask, tables, konst, size))
    }

    /// Decodes a rectangle through `lut` (made by [`Format::word_lut`] for this format).
    pub(super) fn decode_word_lut_rect_rgba8(
        &self,
        lut: &WordLut,
        elems: &[u8],
        row_pitch_bytes: usize,
        width_px: u32,
        height_px: u32,
        out: &mut [[u8; 4]],
    ) -> Result<()> {
        let (_, rows) = self.check_rect(elems.len(), row_pitch_bytes, width_px, height_px, out.len())?;
        let w = width_px as usize;
        let size = self.elem_size_bytes() as usize;
        for y in 0..rows {
            let src = &elems[y * row_pitch_bytes..y * row_pitch_bytes + size * w];
            let dst = &mut out[y * w..(y + 1) * w];
            lut.row(size, src, dst);
        }
        Ok(())
    }

    /// Byte moves of [`Format::byte_map_rgba8`] over a rectangle.
    pub(super) fn decode_byte_map_rect_rgba8(
        &self,
        map: [u8; 4],
        elems: &[u8],
        row_pitch_bytes: usize,
        width_px: u32,
        height_px: u32,
        out: &mut [[u8; 4]],
    ) -> Result<()> {
        let (_, rows) = self.check_rect(elems.len(), row_pitch_bytes, width_px, height_px, out.len())?;
        let w = width_px as usize;
        if map == [0, 1, 2, 3] && row_pitch_bytes == 4 * w {
            // Packed rows of an identity map: one copy (the C library streams large copies
            // past the cache; row by row it cannot).
            out[..rows * w].as_flattened_mut().copy_from_slice(&elems[..rows * 4 * w]);
            return Ok(());
        }
        for y in 0..rows {
            let src = &elems[y * row_pitch_bytes..y * row_pitch_bytes + 4 * w];
            shuffle_rgba8(src, &mut out[y * w..(y + 1) * w], map);
        }
        Ok(())
    }

    /// BC1/2/3/7, ETC2 RGB/RGBA/RGB8A1 and ASTC with the identity swizzle and no sRGB: these
    /// decode to RGBA8 directly.
    pub(super) fn bc_rgba8_direct(&self) -> Option<Bc> {
        match self.tex.layout {
            Layout::Compressed(bc)
                if bc.rgba8_exact()
                    && !self.srgb
                    && self.swizzle == [Swizzle::C0, Swizzle::C1, Swizzle::C2, Swizzle::C3] =>
            {
                Some(bc)
            }
            _ => None,
        }
    }

    /// BC4/BC5 (without sRGB or YUV) whose channels showing C0 or C1 read as floats: the
    /// number of channel blocks (1 or 2) and how each block becomes RGBA8 words. The constant
    /// channels' bytes are the generic path's for a block of zeros (they do not depend on it).
    pub(super) fn rgtc_rgba8_map(&self) -> Option<(usize, RgtcRgba8)> {
        let channels = match self.tex.layout {
            Layout::Compressed(Bc::Bc4) => 1,
            Layout::Compressed(Bc::Bc5) => 2,
            _ => return None,
        };
        if self.srgb || self.yuv != YuvMatrix::Raw {
            return None;
        }
        let kinds = self.channel_kinds();
        let constants = self.texel_to_rgba8(&self.swizzled([0, 0, 0, self.missing(3)]));
        let signed = self.types[0] == ComponentType::Snorm;
        let mut map = RgtcRgba8 { base: 0, c0: 0, c1: 0, signed };
        for (i, s) in self.swizzle.iter().enumerate() {
            match s.component() {
                Some(c) if c < channels => {
                    if kinds[i] != ValueKind::Float {
                        return None;
                    }
                    *(if c == 0 { &mut map.c0 } else { &mut map.c1 }) |= 1 << (8 * i);
                }
                _ => map.base |= u32::from(constants[i]) << (8 * i),
            }
        }
        Some((channels, map))
    }

    /// Decodes compressed blocks to RGBA8: whole blocks straight into the caller's rows, edge
    /// blocks through a block buffer. ETC2 and ASTC get a loop of their own each, so that the
    /// block function inlines into it (one shared loop cost ETC2 a third of its speed:
    /// `docs/perf/astc-etc2-decode.md`); BC1-BC5 and ASTC decode whole rows of blocks at once.
    pub(super) fn decode_bc_rect_rgba8(
        &self,
        bc: Bc,
        elems: &[u8],
        row_pitch_bytes: usize,
        width_px: u32,
        height_px: u32,
        out: &mut [[u8; 4]],
    ) -> Result<()> {
        let args = (elems, row_pitch_bytes, width_px, height_px);
        let kind = match bc {
            Bc::Etc2Rgb => {
                return self.block_rect_rgba8(bc, args, out, |s, d, p| etc_rgba8(EtcColour::Rgb, s, d, p), None)
            }
            Bc::Etc2RgbA1 => {
                return self.block_rect_rgba8(bc, args, out, |s, d, p| etc_rgba8(EtcColour::RgbA1, s, d, p), None)
            }
            Bc::Etc2Rgba => {
                return self.block_rect_rgba8(bc, args, out, |s, d, p| etc_rgba8(EtcColour::Rgba, s, d, p), None)
            }
            Bc::Astc { w, h } => {
                let rows = Some(BlockRows::Astc { w, h });
                return self.block_rect_rgba8(bc, args, out, |s, d, p| astc_rgba8(w, h, s, d, p), rows);
            }
            Bc::Bc7 => {
                return self.block_rect_rgba8(bc, args, out, |s, d, p| bc_rgba8(bc, s, d, p), Some(BlockRows::Bc7))
            }
            Bc::Bc1 => S3tc::Bc1,
            Bc::Bc2 => S3tc::Bc2,
            Bc::Bc3 => S3tc::Bc3,
            Bc::Bc4 | Bc::Bc5 => match self.rgtc_rgba8_map() {
                Some((channels, map)) => S3tc::Rgtc { channels, map },
                None => {
                    return self
                        .decode_rect_with(elems, row_pitch_bytes, width_px, height_px, out, |t| self.texel_to_rgba8(t))
                }
            },
            _ => return self.block_rect_rgba8(bc, args, out, |s, d, p| bc_rgba8(bc, s, d, p), None),
        };
        self.block_rect_rgba8(bc, args, out, move |s, d, p| kind.block_rgba8(s, d, p), Some(BlockRows::S3tc(kind)))
    }

    /// The loop of [`Format::decode_bc_rect_rgba8`] with `decode(block, rows, pitch)`; the
    /// whole blocks of each whole block row go to `rows_of`'s row decoder at once when given
    /// ([`BlockRows`]: BC1-BC5, BC7, ASTC).
    #[inline(always)]
    fn block_rect_rgba8(
        &self,
        bc: Bc,
        (elems, row_pitch_bytes, width_px, height_px): (&[u8], usize, u32, u32),
        out: &mut [[u8; 4]],
        mut decode: impl FnMut(&[u8], &mut [u8], usize),
        rows_of: Option<BlockRows>,
    ) -> Result<()> {
        let (cols, rows) = self.check_rect(elems.len(), row_pitch_bytes, width_px, height_px, out.len())?;
        let size = self.elem_size_bytes() as usize;
        let (w, h) = (width_px as usize, height_px as usize);
        let (bw, bh) = bc.block_dims();
        let (bw, bh) = (bw as usize, bh as usize);
        let mut block = [0u8; 4 * MAX_PIXELS_PER_ELEM];
        for ey in 0..rows {
            let mut first = 0;
            if let Some(k) = rows_of.filter(|_| ey * bh + bh <= h) {
                // The whole blocks of a whole block row, side by side into the caller's rows.
                first = w / bw;
                let at = ey * row_pitch_bytes;
                let start = ey * bh * w * 4;
                let end = start + (bh - 1) * w * 4 + 4 * bw * first;
                k.row_rgba8(&elems[at..at + first * size], &mut out.as_flattened_mut()[start..end], w * 4);
            }
            for ex in first..cols {
                let at = ey * row_pitch_bytes + ex * size;
                let src = &elems[at..at + size];
                let full = ex * bw + bw <= w && ey * bh + bh <= h;
                if full {
                    // Decode straight into the caller's rows.
                    let flat = out.as_flattened_mut();
                    let start = (ey * bh * w + ex * bw) * 4;
                    let pitch = w * 4;
                    let end = start + (bh - 1) * pitch + 4 * bw;
                    decode(src, &mut flat[start..end], pitch);
                } else {
                    decode(src, &mut block, 4 * bw);
                    for py in 0..bh {
                        for px in 0..bw {
                            let (x, y) = (ex * bw + px, ey * bh + py);
                            if x < w && y < h {
                                let b = (py * bw + px) * 4;
                                out[y * w + x] = [block[b], block[b + 1], block[b + 2], block[b + 3]];
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }
}
