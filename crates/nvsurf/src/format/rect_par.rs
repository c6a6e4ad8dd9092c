//! [`Format::decode_rect_rgba8_par`]: RGBA8 decoding split by bands of element rows over the
//! current rayon pool, as the tiling copies split by bands (feature `rayon`).
//!
//! Each band is a whole number of element rows (a row of compressed blocks is one element row
//! of `block_dims().1` pixel rows), decoded by [`Format::decode_rect_rgba8`] on its own slices,
//! so every band takes the same fast path and gives the same bytes as one call over the whole
//! rectangle. A band writes at least [`MIN_BAND_OUT_BYTES`] of pixels, so that the per-call set-up
//! (the word tables of a lookup format) stays small beside the band's work.

use super::Format;
use crate::error::{Error, Result};
use rayon::prelude::*;

/// The least output a band writes: 1 MiB of RGBA8 pixels.
pub(crate) const MIN_BAND_OUT_BYTES: usize = 1 << 20;

impl Format {
    /// [`Format::decode_rect_rgba8`], with bands of element rows decoded on the threads of the
    /// current rayon pool (called inside `ThreadPool::install`, that pool's; elsewhere rayon's
    /// global pool). The same checks, errors and bytes as [`Format::decode_rect_rgba8`]; a
    /// rectangle too small for two bands, or a one-thread pool, is decoded on this thread.
    pub fn decode_rect_rgba8_par(
        &self,
        elems: &[u8],
        row_pitch_bytes: usize,
        width_px: u32,
        height_px: u32,
        out: &mut [[u8; 4]],
    ) -> Result<()> {
        let (_, rows) = self.check_rect(elems.len(), row_pitch_bytes, width_px, height_px, out.len())?;
        let bh = self.block_dims().1.max(1) as usize;
        let w = width_px as usize;
        let h = height_px as usize;
        let row_out_bytes = w.saturating_mul(bh).saturating_mul(4).max(1);
        let threads = rayon::current_num_threads();
        // Element rows per band: at least MIN_BAND_OUT_BYTES each, about four bands a thread.
        let per_band = rows.div_ceil(threads.saturating_mul(4).max(1)).max(MIN_BAND_OUT_BYTES.div_ceil(row_out_bytes));
        if threads < 2 || per_band >= rows || w == 0 || h == 0 {
            return self.decode_rect_rgba8(elems, row_pitch_bytes, width_px, height_px, out);
        }
        let band_px = per_band * bh * w;
        // `check_rect` bounded every product below: `rows * row_pitch` fits the input's span
        // and `w * h` the output.
        let band_elems = per_band * row_pitch_bytes;
        out[..w * h].par_chunks_mut(band_px).enumerate().try_for_each(|(i, px)| {
            let from = i * band_elems;
            let px_rows = u32::try_from(px.len() / w).map_err(|_| Error::BufferTooSmall {
                what: "pixel buffer",
                needed: px.len() as u64,
                got: 0,
            })?;
            let src = elems.get(from..).unwrap_or(&[]);
            self.decode_rect_rgba8(src, row_pitch_bytes, width_px, px_rows, px)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn noise(n: usize, seed: u32) -> Vec<u8> {
        let mut x = seed | 1;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                x as u8
            })
            .collect()
    }

    /// Bands over 3 threads give the bytes of one whole call: plain, lookup, block and odd
    /// sizes (a last band inside a block row), padded pitches.
    #[test]
    fn bands_equal_one_call() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        for name in ["RGBA8_UNORM", "BGRA8_UNORM", "RGB10_A2_UNORM", "B5G6R5_UNORM", "bc1", "bc3", "bc7", "bc5"] {
            let f = Format::parse(name).unwrap();
            for (w, h, pad) in [(1024u32, 1030u32, 0usize), (700, 2003, 48), (64, 9000, 16), (3, 5, 0)] {
                let e = crate::extent::Extent::<crate::extent::Texels>::new_2d(w, h).to_elements(&f);
                let pitch = e.width as usize * f.elem_size_bytes() as usize + pad;
                let elems = noise(pitch * e.height as usize, w ^ h);
                let mut one = vec![[0u8; 4]; (w * h) as usize];
                let mut par = vec![[1u8; 4]; (w * h) as usize];
                f.decode_rect_rgba8(&elems, pitch, w, h, &mut one).unwrap();
                pool.install(|| f.decode_rect_rgba8_par(&elems, pitch, w, h, &mut par)).unwrap();
                assert!(one == par, "{name} {w}x{h} pad {pad}");
            }
        }
    }

    /// Bad input gets the whole call's error, before any thread starts.
    #[test]
    fn errors_equal_one_call() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        let f = Format::parse("RGBA8_UNORM").unwrap();
        let elems = vec![0u8; 4096 * 1024 * 4];
        let mut out = vec![[0u8; 4]; 4096 * 1024];
        for (pitch, h, n) in [(4096 * 4, 1025, out.len()), (4096 * 4, 1024, out.len() - 1), (100, 1024, out.len())] {
            let one = f.decode_rect_rgba8(&elems, pitch, 4096, h, &mut out[..n]).unwrap_err();
            let par = pool.install(|| f.decode_rect_rgba8_par(&elems, pitch, 4096, h, &mut out[..n])).unwrap_err();
            assert_eq!(one.to_string(), par.to_string());
        }
    }
}
