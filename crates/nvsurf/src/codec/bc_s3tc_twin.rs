//! The safe twins of the BC1-BC5 decoders of `bc_s3tc`: one pixel at a time, each value
//! computed from the rule in the module's documentation with no tables and no packing, so
//! that the tests can hold the fast paths to it.

/// The RGB565 endpoint `c` as 5-, 6- and 5-bit integers.
fn rgb565(c: u16) -> [u32; 3] {
    [u32::from(c >> 11), u32::from((c >> 5) & 63), u32::from(c & 31)]
}

/// `round(255 * n / d)`, halves up.
fn to_byte(n: u32, d: u32) -> u8 {
    ((510 * n + d) / (2 * d)) as u8
}

/// A BC1-BC3 colour block (8 bytes): pixel `i`'s RGBA8 (alpha 255, or 0 for transparent
/// black). `opaque`: always the four-colour mode.
pub(crate) fn colour(c: &[u8], opaque: bool) -> [[u8; 4]; 16] {
    let c0 = u16::from_le_bytes([c[0], c[1]]);
    let c1 = u16::from_le_bytes([c[2], c[3]]);
    let (e0, e1) = (rgb565(c0), rgb565(c1));
    let max = [31, 63, 31];
    let mut out = [[0u8; 4]; 16];
    for (i, px) in out.iter_mut().enumerate() {
        let idx = (u32::from_le_bytes([c[4], c[5], c[6], c[7]]) >> (2 * i)) & 3;
        let four = opaque || c0 > c1;
        for ch in 0..3 {
            let (a, b) = (e0[ch], e1[ch]);
            px[ch] = match (idx, four) {
                (0, _) => to_byte(a, max[ch]),
                (1, _) => to_byte(b, max[ch]),
                (2, true) => to_byte(2 * a + b, 3 * max[ch]),
                (3, true) => to_byte(a + 2 * b, 3 * max[ch]),
                (2, false) => to_byte(a + b, 2 * max[ch]),
                _ => 0,
            };
        }
        px[3] = if idx == 3 && !four { 0 } else { 255 };
    }
    out
}

/// A BC1 block's 16 pixels.
pub(crate) fn bc1(b: &[u8]) -> [[u8; 4]; 16] {
    colour(&b[..8], false)
}

/// A BC2 block's 16 pixels.
pub(crate) fn bc2(b: &[u8]) -> [[u8; 4]; 16] {
    let mut out = colour(&b[8..16], true);
    for (i, px) in out.iter_mut().enumerate() {
        let nibble = (b[i / 2] >> (4 * (i % 2))) & 15;
        px[3] = to_byte(u32::from(nibble), 15);
    }
    out
}

/// A BC3 block's 16 pixels.
pub(crate) fn bc3(b: &[u8]) -> [[u8; 4]; 16] {
    let mut out = colour(&b[8..16], true);
    let (a0, a1) = (u32::from(b[0]), u32::from(b[1]));
    for (i, px) in out.iter_mut().enumerate() {
        let bit = 16 + 3 * i;
        let idx = (u64::from_le_bytes(b[..8].try_into().expect("8 bytes")) >> bit) as u32 & 7;
        px[3] = match idx {
            0 => a0,
            1 => a1,
            k if a0 > a1 => ((8 - k) * a0 + (k - 1) * a1 + 1) / 7,
            6 => 0,
            7 => 255,
            k => ((6 - k) * a0 + (k - 1) * a1 + 1) / 5,
        } as u8;
    }
    out
}

/// One BC4 channel block (8 bytes): pixel `i`'s value as a float.
pub(crate) fn rgtc(b: &[u8], signed: bool) -> [f32; 16] {
    let end = |e: u8| if signed { (e as i8 as f32 / 127.0).max(-1.0) } else { f32::from(e) / 255.0 };
    let (a0, a1) = (end(b[0]), end(b[1]));
    let mut out = [0f32; 16];
    for (i, v) in out.iter_mut().enumerate() {
        let bit = 16 + 3 * i;
        let idx = (u64::from_le_bytes(b[..8].try_into().expect("8 bytes")) >> bit) as u32 & 7;
        *v = match idx {
            0 => a0,
            1 => a1,
            k if a0 > a1 => ((8 - k) as f32 * a0 + (k - 1) as f32 * a1) / 7.0,
            6 => {
                if signed {
                    -1.0
                } else {
                    0.0
                }
            }
            7 => 1.0,
            k => ((6 - k) as f32 * a0 + (k - 1) as f32 * a1) / 5.0,
        };
    }
    out
}
