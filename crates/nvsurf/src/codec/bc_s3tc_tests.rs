//! The fast BC1-BC5 decoders against their safe twins and against the `bcdec_rs` crate (the
//! decoder the library used before), bit for bit, on seeded random blocks of every mode and
//! on edge cases.

use super::twin;
use super::*;
use crate::codec::s3tc_row_rgba8;

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

/// Random blocks, then the same with their first endpoint pair swapped (the other mode of
/// every block), then edge cases: equal endpoints, all zero, all ones, extreme endpoints.
fn cases(seed: u64, n: usize) -> Vec<[u8; 16]> {
    let mut g = Blocks(seed);
    let mut v = Vec::new();
    for _ in 0..n {
        let b = g.next();
        let mut s = b;
        s.swap(0, 2);
        s.swap(1, 3);
        s.swap(8, 10);
        s.swap(9, 11);
        let mut a = b;
        a.swap(0, 1);
        a.swap(8, 9);
        v.extend([b, s, a]);
    }
    for fill in [0x00u8, 0xff, 0x80, 0x7f, 0x81, 0x55] {
        let mut b = [fill; 16];
        v.push(b);
        b[1] = b[0];
        b[9] = b[8];
        v.push(b);
        for e in [[0x80u8, 0x81], [0x81, 0x80], [0x7f, 0x80], [0xff, 0], [0, 0xff], [0x80, 0x80]] {
            let mut c = g.next();
            c[..2].copy_from_slice(&e);
            c[8..10].copy_from_slice(&e);
            v.push(c);
        }
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

#[test]
fn bc1_bc2_bc3_match_twin_and_bcdec_on_every_mode() {
    let blocks = cases(0x5eed_0001, 4000);
    let (mut three, mut four, mut alpha6, mut alpha4) = (0, 0, 0, 0);
    for b in &blocks {
        let c0 = u16::from_le_bytes([b[0], b[1]]);
        let c1 = u16::from_le_bytes([b[2], b[3]]);
        if c0 <= c1 {
            three += 1
        } else {
            four += 1
        }
        if b[0] > b[1] {
            alpha6 += 1
        } else {
            alpha4 += 1
        }
        let one = pixels(bc1_rgba8, b);
        assert_eq!(one, twin::bc1(b), "BC1 fast vs twin, block {b:02x?}");
        assert_eq!(one, pixels(bcdec_rs::bc1, b), "BC1 vs bcdec_rs, block {b:02x?}");
        let two = pixels(bc2_rgba8, b);
        assert_eq!(two, twin::bc2(b), "BC2 fast vs twin, block {b:02x?}");
        assert_eq!(two, pixels(bcdec_rs::bc2, b), "BC2 vs bcdec_rs, block {b:02x?}");
        let three_px = pixels(bc3_rgba8, b);
        assert_eq!(three_px, twin::bc3(b), "BC3 fast vs twin, block {b:02x?}");
        assert_eq!(three_px, pixels(bcdec_rs::bc3, b), "BC3 vs bcdec_rs, block {b:02x?}");
    }
    // Both BC1 colour modes and both BC3 alpha modes, thousands each.
    assert!(three > 4000 && four > 4000 && alpha6 > 4000 && alpha4 > 4000, "{three} {four} {alpha6} {alpha4}");
}

#[test]
fn bc1_palette_matches_twin_for_every_endpoint_pair_of_each_channel() {
    // Every (a, b) pair of the 5-bit and 6-bit channels, all four indices, both modes.
    for a in 0..64u16 {
        for b in 0..64u16 {
            let (r0, r1) = (a & 31, b & 31);
            for (c0, c1) in
                [(r0 << 11 | a << 5 | r1, r1 << 11 | b << 5 | r0), (r1 << 11 | b << 5 | r0, r0 << 11 | a << 5 | r1)]
            {
                let mut blk = [0u8; 8];
                blk[..2].copy_from_slice(&c0.to_le_bytes());
                blk[2..4].copy_from_slice(&c1.to_le_bytes());
                blk[4..].copy_from_slice(&0xe4e4_e4e4u32.to_le_bytes());
                assert_eq!(pixels(bc1_rgba8, &blk), twin::bc1(&blk), "{c0:04x} {c1:04x}");
                assert_eq!(pixels(bc1_rgba8, &blk), pixels(bcdec_rs::bc1, &blk), "{c0:04x} {c1:04x}");
            }
        }
    }
}

#[test]
fn bc3_alpha_matches_twin_for_every_endpoint_pair() {
    // Every alpha endpoint pair (both modes), indices covering all 8 values, both paths.
    let idx: u64 = (0..16).fold(0, |acc, i| acc | ((i % 8) as u64) << (3 * i));
    for e in 0..=0xffffu16 {
        let mut b = [0x5au8; 16];
        b[..2].copy_from_slice(&e.to_le_bytes());
        b[2..8].copy_from_slice(&idx.to_le_bytes()[..6]);
        let want = twin::bc3(&b);
        assert_eq!(pixels(bc3_rgba8, &b), want, "BC3 alpha {e:04x}");
        let mut row = [0u8; 64];
        s3tc_row_rgba8(S3tc::Bc3, &b, &mut row, 16);
        assert_eq!(&row, want.as_flattened(), "BC3 row alpha {e:04x}");
    }
}

#[test]
fn bc4_bc5_match_twin_and_bcdec_for_every_endpoint_pair() {
    // Every endpoint pair (both modes), signed and unsigned, indices covering all 8 values.
    let idx: u64 = (0..16).fold(0, |acc, i| acc | ((i % 8) as u64) << (3 * i));
    for signed in [false, true] {
        for e in 0..=0xffffu16 {
            let mut b = [0u8; 16];
            b[..2].copy_from_slice(&e.to_le_bytes());
            b[2..8].copy_from_slice(&idx.to_le_bytes()[..6]);
            b[8..10].copy_from_slice(&e.swap_bytes().to_le_bytes());
            b[10..16].copy_from_slice(&idx.to_le_bytes()[..6]);
            check_rgtc(&b, signed);
        }
    }
}

#[test]
fn bc4_bc5_match_twin_and_bcdec_on_random_blocks() {
    for signed in [false, true] {
        for b in cases(0x5eed_0002 + u64::from(signed), 3000) {
            check_rgtc(&b, signed);
        }
    }
}

/// BC4 and BC5 of block `b`: components against the twin and bcdec_rs's floats, and RGBA8
/// bytes against the float values rounded as the library rounds them.
fn check_rgtc(b: &[u8; 16], signed: bool) {
    let mut comps = [[0u32; 4]; 16];
    rgtc_components(b, 2, signed, &mut comps, 7);
    let (t0, t1) = (twin::rgtc(&b[..8], signed), twin::rgtc(&b[8..], signed));
    let mut theirs = [0f32; 32];
    bcdec_rs::bc5_float(b, &mut theirs, 8, signed);
    for i in 0..16 {
        let want = [t0[i].to_bits(), t1[i].to_bits(), 0, 7];
        assert_eq!(comps[i], want, "BC5 fast vs twin, pixel {i}, block {b:02x?}, signed {signed}");
        assert_eq!([theirs[2 * i].to_bits(), theirs[2 * i + 1].to_bits()], [want[0], want[1]], "vs bcdec_rs");
    }
    let mut one = [[0u32; 4]; 16];
    rgtc_components(b, 1, signed, &mut one, 9);
    assert!(one.iter().zip(&comps).all(|(o, c)| *o == [c[0], 0, 0, 9]), "BC4 components, block {b:02x?}");
    // RGBA8: R = C0, G = C1, B = C0, A = 0x42.
    let map = RgtcRgba8 { base: 0x4200_0000, c0: 0x0001_0001, c1: 0x0000_0100, signed };
    let px = pixels(|s, d, p| rgtc_rgba8(s, 2, map, d, p), b);
    let byte = |f: f32| crate::codec::unit_to_int(f, 255.0) as u8;
    for i in 0..16 {
        let want = [byte(t0[i]), byte(t1[i]), byte(t0[i]), 0x42];
        assert_eq!(px[i], want, "BC5 RGBA8, pixel {i}, block {b:02x?}, signed {signed}");
    }
    // The row path (byte shuffles where the CPU has them) gives the same bytes.
    let mut row = [0u8; 64];
    s3tc_row_rgba8(S3tc::Rgtc { channels: 2, map }, b, &mut row, 16);
    assert_eq!(&row, px.as_flattened(), "BC5 row, block {b:02x?}, signed {signed}");
    let px = pixels(|s, d, p| rgtc_rgba8(s, 1, map, d, p), b);
    assert!(px.iter().zip(&t0).all(|(p, t)| *p == [byte(*t), 0, byte(*t), 0x42]), "BC4 RGBA8");
    s3tc_row_rgba8(S3tc::Rgtc { channels: 1, map }, &b[..8], &mut row, 16);
    assert_eq!(&row, px.as_flattened(), "BC4 row, block {b:02x?}, signed {signed}");
}

#[test]
fn short_destination_gets_the_rows_that_fit() {
    let b = [0x12u8; 16];
    let mut short = [0u8; 16 + 20];
    bc1_rgba8(&b, &mut short, 20);
    let full = pixels(bc1_rgba8, &b);
    assert_eq!(&short[..16], full[..4].as_flattened());
    assert_eq!(&short[16..20], &[0; 4]);
    assert_eq!(&short[20..36], full[4..8].as_flattened());
}

#[test]
fn rows_match_the_portable_blocks_for_every_kind() {
    // The row path (byte shuffles where the CPU has AVX2) against the portable block path,
    // on random blocks of every mode, into rows with a padded pitch.
    let blocks = cases(0x5eed_0003, 700);
    let maps = [
        RgtcRgba8 { base: 0xff00_0000, c0: 0x0000_0001, c1: 0x0000_0100, signed: false },
        RgtcRgba8 { base: 0x0012_0000, c0: 0x0101_0000, c1: 0x0000_0001, signed: true },
        RgtcRgba8 { base: 0, c0: 0x0101_0101, c1: 0, signed: false },
    ];
    let mut kinds = vec![S3tc::Bc1, S3tc::Bc2, S3tc::Bc3];
    for map in maps {
        kinds.extend([S3tc::Rgtc { channels: 1, map }, S3tc::Rgtc { channels: 2, map }]);
    }
    for kind in kinds {
        let size = kind.block_bytes();
        let src: Vec<u8> = blocks.iter().flat_map(|b| b[..size].to_vec()).collect();
        let n = blocks.len();
        let pitch = 16 * n + 12;
        let mut rows = vec![0u8; 3 * pitch + 16 * n];
        s3tc_row_rgba8(kind, &src, &mut rows, pitch);
        for (i, b) in blocks.iter().enumerate() {
            let want = pixels(|s, d, p| kind.block_rgba8(s, d, p), b);
            for y in 0..4 {
                let got = &rows[y * pitch + 16 * i..y * pitch + 16 * i + 16];
                assert_eq!(got, want[4 * y..4 * y + 4].as_flattened(), "{kind:?} block {b:02x?} row {y}");
            }
        }
        // The padding between rows is left alone.
        assert!(rows[16 * n..pitch].iter().all(|&v| v == 0), "{kind:?}");
        // A destination too short for the run gets the rows that fit, without a panic.
        let mut short = vec![0u8; pitch + 40];
        s3tc_row_rgba8(kind, &src, &mut short, pitch);
        assert_eq!(&short[..16 * n], &rows[..16 * n], "{kind:?}");
    }
}
