//! Block compression: [`Bc`], the block formats (the 4x4-pixel BC1-BC7 (DXT, RGTC, BPTC) and
//! ETC2/EAC blocks, and ASTC 2D blocks of 4x4 to 12x12 pixels), and the decoding of one block,
//! to component registers or straight to RGBA8 rows: BC1-BC5, BC7 and ASTC by our own
//! decoders (`bc_s3tc`, `bc7`, `astc`), BC6H through the `bcdec_rs` crate (a safe port of
//! bcdec); ETC2/EAC in `astc_etc`. BC encoding is in `bc_encode` (feature
//! `bc-encode`); ASTC encoding is the CLI's (`astc-encode`).

use super::astc::{astc_rgba8, astc_row_rgba8};
use super::astc_etc::{eac_components, etc_rgba8, EtcColour, MAX_BLOCK_PIXELS};
use super::bc7::{bc7_rgba8, bc7_row_rgba8};
use super::bc_s3tc::{bc1_rgba8, bc2_rgba8, bc3_rgba8, rgtc_components, S3tc};
use super::numbers::unorm8;

/// Block-compressed formats: 4x4 pixels per element, except ASTC (its footprint).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bc {
    /// DXT1 / BC1, 8 bytes.
    Bc1,
    /// DXT3 / BC2, 16 bytes.
    Bc2,
    /// DXT5 / BC3, 16 bytes.
    Bc3,
    /// RGTC1 / BC4, 8 bytes (signed when C0 is snorm).
    Bc4,
    /// RGTC2 / BC5, 16 bytes (signed when C0 is snorm).
    Bc5,
    /// BC6H signed half float, 16 bytes (GF100+).
    Bc6hSigned,
    /// BC6H unsigned half float, 16 bytes (GF100+).
    Bc6hUnsigned,
    /// BC7, 16 bytes (GF100+).
    Bc7,
    /// ETC2 RGB8 (and ETC1), 8 bytes; alpha reads 1.
    Etc2Rgb,
    /// ETC2 RGB8 with punch-through alpha (RGB8A1), 8 bytes.
    Etc2RgbA1,
    /// ETC2 RGBA8: an EAC alpha block then an ETC2 RGB block, 16 bytes.
    Etc2Rgba,
    /// EAC R11, 8 bytes (signed when C0 is snorm).
    EacR11,
    /// EAC RG11: two R11 blocks, 16 bytes (signed when C0 is snorm).
    EacRg11,
    /// ASTC 2D LDR, 16 bytes, a footprint of `w` x `h` pixels (one of the 14 sizes of the
    /// ASTC specification, 4x4 to 12x12).
    Astc {
        /// Footprint width in pixels.
        w: u8,
        /// Footprint height in pixels.
        h: u8,
    },
}

impl Bc {
    /// Pixels per block in x and y.
    pub const fn block_dims(self) -> (u32, u32) {
        match self {
            Bc::Astc { w, h } => (w as u32, h as u32),
            _ => (4, 4),
        }
    }

    /// True for the formats whose 8-bit RGBA decode is exact (every pixel is a unorm8 value
    /// in each channel): BC1/2/3/7, ETC2 RGB/RGBA/RGB8A1 and ASTC (LDR).
    pub(crate) const fn rgba8_exact(self) -> bool {
        matches!(
            self,
            Bc::Bc1 | Bc::Bc2 | Bc::Bc3 | Bc::Bc7 | Bc::Etc2Rgb | Bc::Etc2RgbA1 | Bc::Etc2Rgba | Bc::Astc { .. }
        )
    }
}

/// Decodes one compressed block into its component sets (C0-C3 register values), as many as
/// the block has pixels (`out` holds at least that many: 16, or the ASTC footprint).
#[inline]
pub(crate) fn decode_bc(bc: Bc, signed: bool, src: &[u8], out: &mut [[u32; 4]], one: u32) {
    match bc {
        Bc::Bc1 | Bc::Bc2 | Bc::Bc3 | Bc::Bc7 | Bc::Etc2Rgb | Bc::Etc2RgbA1 | Bc::Etc2Rgba | Bc::Astc { .. } => {
            let (w, h) = bc.block_dims();
            let n = (w * h) as usize;
            let mut b = [0u8; 4 * MAX_BLOCK_PIXELS];
            bc_rgba8(bc, src, &mut b, 4 * w as usize);
            for (i, o) in out.iter_mut().take(n).enumerate() {
                *o = [0, 1, 2, 3].map(|c| unorm8(b[i * 4 + c]));
            }
        }
        Bc::EacR11 | Bc::EacRg11 => eac_components(bc == Bc::EacRg11, signed, src, out, one),
        Bc::Bc4 => rgtc_components(src, 1, signed, out, one),
        Bc::Bc5 => rgtc_components(src, 2, signed, out, one),
        Bc::Bc6hSigned | Bc::Bc6hUnsigned => {
            let mut f = [0f32; 48];
            bcdec_rs::bc6h_float(src, &mut f, 12, bc == Bc::Bc6hSigned);
            for (i, o) in out.iter_mut().take(16).enumerate() {
                *o = [f[3 * i].to_bits(), f[3 * i + 1].to_bits(), f[3 * i + 2].to_bits(), one];
            }
        }
    }
}

/// A block of a [`Bc::rgba8_exact`] format to RGBA8 with `pitch` bytes per output row (`dst`
/// holds `bh` rows of `4 * bw` bytes, `pitch` apart).
#[inline]
pub(crate) fn bc_rgba8(bc: Bc, src: &[u8], dst: &mut [u8], pitch: usize) {
    match bc {
        Bc::Bc1 => bc1_rgba8(src, dst, pitch),
        Bc::Bc2 => bc2_rgba8(src, dst, pitch),
        Bc::Bc3 => bc3_rgba8(src, dst, pitch),
        Bc::Etc2Rgb => etc_rgba8(EtcColour::Rgb, src, dst, pitch),
        Bc::Etc2RgbA1 => etc_rgba8(EtcColour::RgbA1, src, dst, pitch),
        Bc::Etc2Rgba => etc_rgba8(EtcColour::Rgba, src, dst, pitch),
        Bc::Astc { w, h } => astc_rgba8(w, h, src, dst, pitch),
        _ => bc7_rgba8(src, dst, pitch),
    }
}

/// A run of whole BC1-BC5 blocks of `kind` (`src`, consecutive) side by side into RGBA8
/// rows: block `i` at byte `16 i` of each of four rows `pitch` bytes apart; by byte shuffles
/// (`bc_s3tc_x86`) where `cpu::avx2()` allows, else block by block. Blocks whose pixels `dst`
/// does not hold get only the rows that fit (never from the library's callers).
pub(crate) fn s3tc_row_rgba8(kind: S3tc, src: &[u8], dst: &mut [u8], pitch: usize) {
    let size = kind.block_bytes();
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::avx2() {
        let n = src.len() / size;
        let need = pitch.checked_mul(3).and_then(|p| p.checked_add(n.checked_mul(16)?));
        if need.is_some_and(|need| need <= dst.len()) {
            // SAFETY: the CPU has AVX2 (so SSSE3), and `dst` holds `3 pitch + 16 n` bytes.
            unsafe { super::bc_s3tc_x86::row_rgba8(kind, src, dst, pitch) };
            return;
        }
    }
    for (i, b) in src.chunks_exact(size).enumerate() {
        if let Some(d) = dst.get_mut(16 * i..) {
            kind.block_rgba8(b, d, pitch);
        }
    }
}

/// The block kinds decoded a whole row of blocks at a time into RGBA8 rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BlockRows {
    /// BC1-BC5 ([`s3tc_row_rgba8`]).
    S3tc(S3tc),
    /// BC7 (`bc7::bc7_row_rgba8`).
    Bc7,
    /// ASTC of footprint `w` x `h` (`astc::astc_row_rgba8`).
    Astc {
        /// Footprint width in pixels.
        w: u8,
        /// Footprint height in pixels.
        h: u8,
    },
}

impl BlockRows {
    /// A run of whole blocks (`src`, consecutive) side by side into RGBA8 rows: block `i` at
    /// byte `4 bw i` of each of the block's rows, `pitch` bytes apart. Blocks whose pixels
    /// `dst` does not hold get only the pixels that fit.
    #[inline]
    pub(crate) fn row_rgba8(self, src: &[u8], dst: &mut [u8], pitch: usize) {
        match self {
            BlockRows::S3tc(kind) => s3tc_row_rgba8(kind, src, dst, pitch),
            BlockRows::Bc7 => bc7_row_rgba8(src, dst, pitch),
            BlockRows::Astc { w, h } => astc_row_rgba8(w, h, src, dst, pitch),
        }
    }
}
