//! Table decode of [`Format::decode_rect`] (elements to [`Texel`]s) for simple formats of at
//! most 4 bytes, one pixel per element and fields of at most 16 bits (`RGBA8`, `RGBA8_SRGB`,
//! `RGB10_A2`, `R5G6B5`, ...): each texel channel depends on one field alone, or on none, so a
//! table per channel, filled from the generic path, decodes a row without the per-element
//! field, swizzle and sRGB work. It is what mip generation and every picture conversion read
//! through; `format::decode_tests::texel_lut_equals_the_generic_decode` is its twin check.

use super::element_layout::Layout;
use super::Format;
use crate::codec::{Texel, YuvMatrix};
use alloc::vec::Vec;

/// Per texel channel: the field it reads (shift and mask) and its table, or a constant.
pub(super) struct TexelLut {
    size: usize,
    chans: [Chan; 4],
}

enum Chan {
    Const(u32),
    Field { shift: u32, mask: u32, table: Vec<u32> },
}

impl Format {
    /// The tables of this format, when it qualifies (see the module documentation) and
    /// `worth(decodes)` says the generic decodes that fill them pay off.
    pub(super) fn texel_lut(&self, worth: impl Fn(usize) -> bool) -> Option<TexelLut> {
        let Layout::Simple(bits) = self.tex.layout else { return None };
        let size = self.elem_size_bytes() as usize;
        // YUV matrices mix channels: not one field per channel.
        if size > 4 || self.pixels_per_elem() != 1 || self.yuv != YuvMatrix::Raw {
            return None;
        }
        let mut shift = [0u32; 4];
        let mut lo = 0u32;
        for (s, &b) in shift.iter_mut().zip(bits) {
            *s = lo;
            lo += u32::from(b);
        }
        let reads = self.swizzle.map(|s| s.component().filter(|&c| c < bits.len()));
        let mut decodes = 1usize;
        for c in reads.into_iter().flatten() {
            if bits[c] > 16 {
                return None;
            }
            decodes = decodes.max(1 << bits[c]);
        }
        if !worth(decodes) {
            return None;
        }
        // Entry x of a channel reading field f: the generic decode of an element whose fields
        // all hold x (masked to their widths), so the tables agree with it by construction.
        let mask = |f: usize| (1u32 << bits[f]) - 1;
        let mut texel = [[0u32; 4]; 1];
        let mut decode = |x: u32| -> Texel {
            let v = (0..bits.len()).fold(0u32, |v, f| v | (x & mask(f)) << shift[f]);
            // Cannot fail: 4 bytes is at least the element size, one pixel per element.
            let _ = self.decode_element(&v.to_le_bytes()[..size], &mut texel);
            texel[0]
        };
        let zero = decode(0);
        let mut chans = [0, 1, 2, 3].map(|ch| match reads[ch] {
            None => Chan::Const(zero[ch]),
            Some(f) => Chan::Field { shift: shift[f], mask: mask(f), table: Vec::with_capacity(1 << bits[f]) },
        });
        for x in 0..decodes as u32 {
            let t = decode(x);
            for (ch, c) in chans.iter_mut().enumerate() {
                if let Chan::Field { mask, table, .. } = c {
                    if x <= *mask {
                        table.push(t[ch]);
                    }
                }
            }
        }
        Some(TexelLut { size, chans })
    }
}

impl TexelLut {
    /// Decodes one row: `src` holds `dst.len()` elements.
    pub(super) fn row(&self, src: &[u8], dst: &mut [Texel]) {
        for (e, t) in src.chunks_exact(self.size).zip(dst.iter_mut()) {
            let mut w = [0u8; 4];
            w[..self.size].copy_from_slice(e);
            let v = u32::from_le_bytes(w);
            for (c, out) in self.chans.iter().zip(t.iter_mut()) {
                *out = match c {
                    Chan::Const(k) => *k,
                    // The index is masked to the table's length (2^bits entries).
                    Chan::Field { shift, mask, table } => table[((v >> shift) & mask) as usize],
                };
            }
        }
    }
}
