//! Block compression: [`Bc`], the 4x4-pixel BC1-BC7 (DXT, RGTC, BPTC) block formats, and the
//! decoding of one block, to component registers or straight to RGBA8 rows, through the
//! `bcdec_rs` crate (a safe port of bcdec). Encoding is in `bc_encode` (feature `bc-encode`).

use super::numbers::unorm8;

/// Block-compressed formats (4x4 pixels per element).
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
}

/// Decodes one compressed block into 16 component sets (C0-C3 register values).
#[inline]
pub(crate) fn decode_bc(bc: Bc, signed: bool, src: &[u8], out: &mut [[u32; 4]; 16], one: u32) {
    match bc {
        Bc::Bc1 | Bc::Bc2 | Bc::Bc3 | Bc::Bc7 => {
            let mut b = [0u8; 64];
            bc_rgba8(bc, src, &mut b, 16);
            for (i, o) in out.iter_mut().enumerate() {
                *o = [0, 1, 2, 3].map(|c| unorm8(b[i * 4 + c]));
            }
        }
        Bc::Bc4 => {
            let mut f = [0f32; 16];
            bcdec_rs::bc4_float(src, &mut f, 4, signed);
            for (o, v) in out.iter_mut().zip(f) {
                *o = [v.to_bits(), 0, 0, one];
            }
        }
        Bc::Bc5 => {
            let mut f = [0f32; 32];
            bcdec_rs::bc5_float(src, &mut f, 8, signed);
            for (i, o) in out.iter_mut().enumerate() {
                *o = [f[2 * i].to_bits(), f[2 * i + 1].to_bits(), 0, one];
            }
        }
        Bc::Bc6hSigned | Bc::Bc6hUnsigned => {
            let mut f = [0f32; 48];
            bcdec_rs::bc6h_float(src, &mut f, 12, bc == Bc::Bc6hSigned);
            for (i, o) in out.iter_mut().enumerate() {
                *o = [f[3 * i].to_bits(), f[3 * i + 1].to_bits(), f[3 * i + 2].to_bits(), one];
            }
        }
    }
}

/// BC1/2/3/7 to RGBA8 with `pitch` bytes per output row (`dst` holds 4 rows of 16 bytes).
#[inline]
pub(crate) fn bc_rgba8(bc: Bc, src: &[u8], dst: &mut [u8], pitch: usize) {
    match bc {
        Bc::Bc1 => bcdec_rs::bc1(src, dst, pitch),
        Bc::Bc2 => bcdec_rs::bc2(src, dst, pitch),
        Bc::Bc3 => bcdec_rs::bc3(src, dst, pitch),
        _ => bcdec_rs::bc7(src, dst, pitch),
    }
}
