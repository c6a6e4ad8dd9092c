//! ETC2/EAC blocks: one block to RGBA8 rows or to component registers (ASTC is nvsurf's own
//! decoder, `astc`).
//!
//! - ETC2 RGB8, RGB8A1 and RGBA8 through `texture2ddecoder` (no_std + alloc); its RGB8A1
//!   transparent pixels keep their colour, which the specification sets to 0 (fixed here).
//! - EAC R11/RG11 here, after the Khronos Data Format Specification 1.3, section "ETC2
//!   Compressed Texture Image Formats" (R11 and signed R11 EAC): `texture2ddecoder` 0.1.2 reads
//!   the pixel indices of an EAC block in the wrong byte order (its `decode_eac_block`) and
//!   keeps only 8 of the 11 bits, so nvsurf decodes these 8-byte blocks itself, to full
//!   precision (`unorm: v / 2047`, `snorm: v / 1023`).

/// The largest block: ASTC 12x12.
pub(crate) const MAX_BLOCK_PIXELS: usize = 144;

/// The ETC2 colour block kinds ([`super::Bc::Etc2Rgb`], `Etc2RgbA1`, `Etc2Rgba`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EtcColour {
    /// ETC2 RGB8, 8 bytes.
    Rgb,
    /// ETC2 RGB8 with punch-through alpha, 8 bytes.
    RgbA1,
    /// An EAC alpha block, then ETC2 RGB8: 16 bytes.
    Rgba,
}

/// `texture2ddecoder` packs a pixel as `u32::from_le_bytes([b, g, r, a])`.
#[inline]
fn bgra_to_rgba(p: u32) -> [u8; 4] {
    let [b, g, r, a] = p.to_le_bytes();
    [r, g, b, a]
}

/// An ETC2 RGB/RGB8A1/RGBA8 block to RGBA8 rows, `pitch` bytes apart.
#[inline(always)]
pub(crate) fn etc_rgba8(kind: EtcColour, src: &[u8], dst: &mut [u8], pitch: usize) {
    let mut px = [0u32; 16];
    match kind {
        EtcColour::RgbA1 => {
            texture2ddecoder::decode_etc2_rgba1_block(src, &mut px);
            // A punch-through pixel is (0, 0, 0, 0) (Khronos Data Format Specification 1.3,
            // "ETC2 RGB8A1": R = G = B = A = 0); texture2ddecoder 0.1.2 keeps its colour.
            for p in px.iter_mut().filter(|p| **p >> 24 == 0) {
                *p = 0;
            }
        }
        EtcColour::Rgba => texture2ddecoder::decode_etc2_rgba8_block(src, &mut px),
        EtcColour::Rgb => texture2ddecoder::decode_etc2_rgb_block(src, &mut px),
    }
    for (y, row) in px.chunks_exact(4).enumerate() {
        let d = &mut dst[y * pitch..y * pitch + 16];
        for (x, &p) in row.iter().enumerate() {
            d[4 * x..4 * x + 4].copy_from_slice(&bgra_to_rgba(p));
        }
    }
}

/// The EAC modifier tables (Khronos Data Format Specification 1.3, table "Intensity modifier
/// sets for the alpha component" / EAC), indexed by the 4-bit table index.
const EAC_MODIFIERS: [[i8; 8]; 16] = [
    [-3, -6, -9, -15, 2, 5, 8, 14],
    [-3, -7, -10, -13, 2, 6, 9, 12],
    [-2, -5, -8, -13, 1, 4, 7, 12],
    [-2, -4, -6, -13, 1, 3, 5, 12],
    [-3, -6, -8, -12, 2, 5, 7, 11],
    [-3, -7, -9, -11, 2, 6, 8, 10],
    [-4, -7, -8, -11, 3, 6, 7, 10],
    [-3, -5, -8, -11, 2, 4, 7, 10],
    [-2, -6, -8, -10, 1, 5, 7, 9],
    [-2, -5, -8, -10, 1, 4, 7, 9],
    [-2, -4, -8, -10, 1, 3, 7, 9],
    [-2, -5, -7, -10, 1, 4, 6, 9],
    [-3, -4, -7, -10, 2, 3, 6, 9],
    [-1, -2, -3, -10, 0, 1, 2, 9],
    [-4, -6, -8, -9, 3, 5, 7, 8],
    [-3, -5, -7, -9, 2, 4, 6, 8],
];

/// One EAC R11 block (8 bytes, big-endian) to 16 values in row-major order: unsigned
/// `0..=2047`, or signed `-1023..=1023`.
///
/// The block: base codeword (bits 63-56), multiplier (55-52), table index (51-48), then 16
/// 3-bit modifier indices from bit 47 down, pixel order column by column (x, then y fastest).
/// Value = base * 8 (+ 4 unsigned) + modifier * multiplier * 8, or + modifier alone when the
/// multiplier is 0; clamped to the range. A signed base of -128 reads -127.
pub(crate) fn eac_r11(src: &[u8], signed: bool) -> [i32; 16] {
    let mut b = [0u8; 8];
    b.copy_from_slice(&src[..8]);
    let v = u64::from_be_bytes(b);
    let mult = ((v >> 52) & 0xf) as i32;
    let table = &EAC_MODIFIERS[((v >> 48) & 0xf) as usize];
    let (base, lo, hi) = if signed {
        let b = i32::from((v >> 56) as u8 as i8).max(-127);
        (b * 8, -1023, 1023)
    } else {
        (((v >> 56) as i32) * 8 + 4, 0, 2047)
    };
    let mut out = [0i32; 16];
    for i in 0..16 {
        let idx = ((v >> (45 - 3 * i)) & 7) as usize;
        let m = i32::from(table[idx]);
        let val = if mult == 0 { base + m } else { base + m * mult * 8 };
        // Pixel i is column i / 4, row i % 4.
        out[(i % 4) * 4 + i / 4] = val.clamp(lo, hi);
    }
    out
}

/// EAC R11 (`rg` false) or RG11 blocks to component registers (floats): C0 = R, C1 = G
/// (RG11), C2 = 0, C3 = `one`.
pub(crate) fn eac_components(rg: bool, signed: bool, src: &[u8], out: &mut [[u32; 4]], one: u32) {
    let to_f = |v: i32| {
        let f = if signed { v as f32 / 1023.0 } else { v as f32 / 2047.0 };
        f.to_bits()
    };
    let r = eac_r11(src, signed);
    let g = if rg { Some(eac_r11(&src[8..], signed)) } else { None };
    for (i, o) in out.iter_mut().take(16).enumerate() {
        *o = [to_f(r[i]), g.map_or(0, |g| to_f(g[i])), 0, one];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A block built by hand from the specification's bit layout.
    fn block(base: u8, mult: u64, table: u64, idx: [u64; 16]) -> [u8; 8] {
        let mut v = (u64::from(base) << 56) | (mult << 52) | (table << 48);
        for (i, &x) in idx.iter().enumerate() {
            v |= x << (45 - 3 * i);
        }
        v.to_be_bytes()
    }

    #[test]
    fn eac_unsigned_follows_the_specification() {
        // Pixel a (x 0, y 0) index 7, pixel b (x 0, y 1) index 3, the rest 0; table 0.
        let mut idx = [0u64; 16];
        idx[0] = 7;
        idx[1] = 3;
        let v = eac_r11(&block(100, 2, 0, idx), false);
        assert_eq!(v[0], 100 * 8 + 4 + 14 * 16);
        assert_eq!(v[4], 100 * 8 + 4 - 15 * 16, "pixel b is x 0, y 1");
        assert_eq!(v[1], 100 * 8 + 4 - 3 * 16, "pixel e is x 1, y 0");
        // Multiplier 0: the modifier is added unscaled.
        assert_eq!(eac_r11(&block(0, 0, 0, [3; 16]), false), [4 - 15; 16].map(|v: i32| v.max(0)));
        // Clamp at 2047.
        assert_eq!(eac_r11(&block(255, 15, 0, [7; 16]), false), [2047; 16]);
    }

    #[test]
    fn eac_signed_follows_the_specification() {
        let v = eac_r11(&block(0x80, 1, 0, [0; 16]), true);
        assert_eq!(v, [-127 * 8 - 3 * 8; 16].map(|v: i32| v.max(-1023)));
        let v = eac_r11(&block(10, 1, 0, [7; 16]), true);
        assert_eq!(v, [80 + 14 * 8; 16]);
    }
}
