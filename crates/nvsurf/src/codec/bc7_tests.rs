//! The fast BC7 decoder against its safe twin and against the `bcdec_rs` crate (the decoder
//! the library used before), bit for bit: seeded random blocks of every mode (the mode bits
//! forced, the rest random), every partition, rotation and index selection bit, edge cases,
//! and the row path against the single block.

use super::twin::twin_bc7;
use super::*;

/// A seeded xorshift64* stream of blocks.
struct Blocks(u64);

impl Blocks {
    fn next(&mut self) -> [u8; 16] {
        let mut b = [0u8; 16];
        for half in b.chunks_exact_mut(8) {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            half.copy_from_slice(&self.0.wrapping_mul(0x2545_f491_4f6c_dd1d).to_le_bytes());
        }
        b
    }
}

/// Block `b` with mode `m` (0-7): bit `m` set, the bits below it cleared.
fn with_mode(mut b: [u8; 16], m: u32) -> [u8; 16] {
    b[0] = (b[0] & !((2u16 << m) - 1) as u8) | (1 << m);
    b
}

/// `n` random blocks of each mode, then edge cases: all zeros and all ones (both a reserved
/// mode and mode 0), each mode with every other bit 0 or 1, and blocks of the reserved mode
/// (low byte 0) with random bits above.
fn cases(seed: u64, n: usize) -> Vec<[u8; 16]> {
    let mut g = Blocks(seed);
    let mut v = Vec::new();
    for m in 0..8 {
        for _ in 0..n {
            v.push(with_mode(g.next(), m));
        }
        v.push(with_mode([0; 16], m));
        v.push(with_mode([0xff; 16], m));
    }
    v.extend([[0u8; 16], [0xff; 16]]);
    for _ in 0..64 {
        let mut b = g.next();
        b[0] = 0;
        v.push(b);
    }
    v
}

/// `f` on one block into 4x4 RGBA8 (pitch 16) as pixels.
fn pixels(f: impl Fn(&[u8], &mut [u8], usize), b: &[u8]) -> [[u8; 4]; 16] {
    let mut out = [0u8; 64];
    f(b, &mut out, 16);
    let mut px = [[0u8; 4]; 16];
    for (p, o) in px.iter_mut().zip(out.chunks_exact(4)) {
        p.copy_from_slice(o);
    }
    px
}

/// Block `b`: the fast path (SIMD where the CPU has it), the portable path, the twin and
/// bcdec_rs give the same pixels.
fn check(b: &[u8; 16]) {
    let ours = pixels(bc7_rgba8, b);
    assert_eq!(ours, pixels(portable_row_rgba8, b), "BC7 vs portable, block {b:02x?}");
    assert_eq!(ours, twin_bc7(b), "BC7 vs twin, block {b:02x?}");
    assert_eq!(ours, pixels(bcdec_rs::bc7, b), "BC7 vs bcdec_rs, block {b:02x?}");
}

#[test]
fn bc7_matches_twin_and_bcdec_on_every_mode() {
    let blocks = cases(0x5eed_0b07, 2600);
    let mut per_mode = [0usize; 9];
    for b in &blocks {
        per_mode[(b[0].trailing_zeros() as usize).min(8)] += 1;
        check(b);
    }
    assert!(blocks.len() >= 20_000, "{}", blocks.len());
    assert!(per_mode[..8].iter().all(|&n| n >= 2600), "{per_mode:?}");
    assert!(per_mode[8] >= 64, "{per_mode:?}");
}

#[test]
fn bc7_every_partition_rotation_and_selection_bit() {
    // Each value of each header field (partition, rotation, index selection bit) of each
    // mode, on a few random blocks: the field's bits forced above the mode bits.
    let mut g = Blocks(0x5eed_0b08);
    // (mode, header bits after the mode bits).
    for (m, header) in [(0u32, 4u32), (1, 6), (2, 6), (3, 6), (4, 3), (5, 2), (7, 6)] {
        for value in 0..1u128 << header {
            for _ in 0..6 {
                let mut x = u128::from_le_bytes(with_mode(g.next(), m));
                let mask = ((1u128 << header) - 1) << (m + 1);
                x = (x & !mask) | (value << (m + 1));
                check(&x.to_le_bytes());
            }
        }
    }
}

#[test]
fn bc7_rows_match_the_portable_blocks() {
    // The row path (pdep and byte shuffles where the CPU has AVX2 and BMI2) against the
    // portable path block by block, into rows with a padded pitch.
    let blocks = cases(0x5eed_0b09, 40);
    let n = blocks.len();
    let src: Vec<u8> = blocks.iter().flatten().copied().collect();
    let pitch = 16 * n + 12;
    let mut rows = vec![0u8; 3 * pitch + 16 * n];
    bc7_row_rgba8(&src, &mut rows, pitch);
    for (i, b) in blocks.iter().enumerate() {
        let want = pixels(portable_row_rgba8, b);
        for y in 0..4 {
            let got = &rows[y * pitch + 16 * i..y * pitch + 16 * i + 16];
            assert_eq!(got, want[4 * y..4 * y + 4].as_flattened(), "block {b:02x?} row {y}");
        }
    }
    // The padding between rows is left alone.
    for y in 0..3 {
        assert!(rows[y * pitch + 16 * n..(y + 1) * pitch].iter().all(|&v| v == 0), "padding of row {y}");
    }
    // A destination too short for the run gets the rows that fit, without a panic.
    let mut short = vec![0u8; pitch + 40];
    bc7_row_rgba8(&src, &mut short, pitch);
    assert_eq!(&short[..16 * n], &rows[..16 * n]);
    assert_eq!(&short[pitch..pitch + 32], &rows[pitch..pitch + 32]);
    assert!(short[pitch + 32..].iter().all(|&v| v == 0));
    // A pitch whose rows overflow the address space, and a source too short: no panic.
    bc7_row_rgba8(&src, &mut short, usize::MAX / 2);
    let mut one = [0u8; 64];
    bc7_rgba8(&src[..15], &mut one, 16);
    assert_eq!(one, [0; 64]);
}

#[test]
fn bc7_decode_rect_rgba8_matches_bcdec() {
    // 5 x 3 blocks of every mode (and the reserved one), a padded row pitch; whole pictures
    // (the row path) and pictures with partial edge blocks (the block buffer), through
    // `Format::decode_rect_rgba8` and the texel path, against bcdec_rs block by block.
    let f = crate::format::Format::parse("bc7").unwrap();
    let mut g = Blocks(0x5eed_0b0a);
    let (cols, rows) = (5usize, 3usize);
    let pitch = 16 * cols + 16;
    let mut data = vec![0u8; pitch * rows];
    for (k, blk) in data.chunks_exact_mut(16).enumerate() {
        let b = g.next();
        blk.copy_from_slice(&if k % 9 == 8 { [0; 16] } else { with_mode(b, k as u32 % 9) });
    }
    let w_all = 4 * cols;
    let mut want = vec![0u8; 4 * w_all * 4 * rows];
    for by in 0..rows {
        for bx in 0..cols {
            let at = by * pitch + 16 * bx;
            let o = (4 * by * w_all + 4 * bx) * 4;
            bcdec_rs::bc7(&data[at..at + 16], &mut want[o..], 4 * w_all);
        }
    }
    for (w, h) in [(20usize, 12usize), (18, 10), (17, 9), (20, 11)] {
        let mut out = vec![[0u8; 4]; w * h];
        f.decode_rect_rgba8(&data, pitch, w as u32, h as u32, &mut out).unwrap();
        let mut texels = vec![[0u32; 4]; w * h];
        f.decode_rect(&data, pitch, w as u32, h as u32, &mut texels).unwrap();
        for y in 0..h {
            for x in 0..w {
                let o = (y * w_all + x) * 4;
                let theirs = [want[o], want[o + 1], want[o + 2], want[o + 3]];
                assert_eq!(out[y * w + x], theirs, "{w}x{h} at ({x}, {y})");
                assert_eq!(f.texel_to_rgba8(&texels[y * w + x]), theirs, "texel {w}x{h} at ({x}, {y})");
            }
        }
    }
}
