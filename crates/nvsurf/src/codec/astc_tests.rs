//! Our ASTC decoder (`astc`) against the `astc-decode` crate 0.3.1 (the decoder the library
//! called before, and the reference: ours is safe code, so the crate is its independent twin),
//! bit for bit and in what each returns, on every one of the 14 footprints: seeded random
//! blocks (mostly illegal encodings), seeded random *legal* blocks (a block mode the footprint
//! takes, a random partition count and endpoint mode field, the rest random; kept when the
//! crate decodes them), and void extents (LDR, HDR, and without their fixed bits). Then the row
//! path against the block path (padded pitch, short destination), and the tables against the
//! specification's worked values.

use super::astc::{apply_one, astc_block_rgba8, astc_row_rgba8, crate_rule, describe};
use super::astc_tables::{ModeKind, BLOCK_MODES, COLOUR_UNQ, ISE, QUINTS, TRITS, WEIGHT_UNQ};

/// The 14 footprints of the ASTC specification.
const FOOTPRINTS: [(u8, u8); 14] = [
    (4, 4),
    (5, 4),
    (5, 5),
    (6, 5),
    (6, 6),
    (8, 5),
    (8, 6),
    (8, 8),
    (10, 5),
    (10, 6),
    (10, 8),
    (10, 10),
    (12, 10),
    (12, 12),
];

/// A seeded xorshift64* stream.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn block(&mut self) -> u128 {
        u128::from(self.next()) << 64 | u128::from(self.next())
    }
}

/// Blocks per footprint and kind: 20,000 times `NVSURF_ASTC_SOAK` (default 1) random blocks,
/// half as many legal ones.
fn count() -> usize {
    20_000 * std::env::var("NVSURF_ASTC_SOAK").ok().and_then(|v| v.parse().ok()).unwrap_or(1usize)
}

/// The crate's decode of `block`: the pixels (row-major) and what it returned. Every pixel
/// is written once.
fn theirs(block: &[u8; 16], (w, h): (u8, u8)) -> (Vec<[u8; 4]>, bool) {
    let n = usize::from(w) * usize::from(h);
    let (mut px, mut writes) = (vec![[0u8; 4]; n], vec![0u8; n]);
    let fp = astc_decode::Footprint::new(u32::from(w), u32::from(h));
    let ok = astc_decode::astc_decode_block(block, fp, |x, y, c| {
        let i = (y * u32::from(w) + x) as usize;
        px[i] = c;
        writes[i] += 1;
    });
    assert!(writes.iter().all(|&k| k == 1), "the crate writes every pixel once");
    (px, ok)
}

/// Our decode of `block`, as [`theirs`], into a picture filled with `fill` beforehand.
fn ours(block: &[u8; 16], (w, h): (u8, u8), fill: u8) -> (Vec<[u8; 4]>, bool) {
    let mut px = vec![[fill; 4]; usize::from(w) * usize::from(h)];
    let ok = astc_block_rgba8(w, h, block, px.as_flattened_mut(), 4 * usize::from(w));
    (px, ok)
}

/// Ours and the crate's agree on `block` (pixels and outcome; ours over two different
/// fillings, so that a pixel left unwritten shows); returns the crate's outcome.
fn same(block: u128, fp: (u8, u8)) -> bool {
    let b = block.to_le_bytes();
    let t = theirs(&b, fp);
    for fill in [0x00, 0xa5] {
        assert_eq!(ours(&b, fp, fill), t, "footprint {fp:?}, block {block:#034x}");
    }
    t.1
}

#[test]
fn random_blocks_match_the_crate() {
    for (i, &fp) in FOOTPRINTS.iter().enumerate() {
        let mut g = Rng(0x9e37_79b9_7f4a_7c15 ^ i as u64);
        let n = count();
        let legal = (0..n).filter(|_| same(g.block(), fp)).count();
        // Random bytes are mostly illegal encodings, but not only.
        assert!(legal > n / 200 && legal < n / 2, "{fp:?}: {legal} legal of {n}");
    }
}

/// The block modes (11 bits) the crate decodes for footprint `fp`, found by the crate itself:
/// a block of that mode, one partition, endpoint mode 0 (2 values), all else zero.
fn legal_modes(fp: (u8, u8)) -> Vec<u128> {
    (0..2048u128).filter(|&m| m & 0x1ff != 0x1fc && theirs(&m.to_le_bytes(), fp).1).collect()
}

/// A random legal-looking block: mode from `modes`, random partition count and endpoint mode
/// field (shared mode, or a class with per-partition steps), the other bits random.
fn candidate(g: &mut Rng, modes: &[u128]) -> u128 {
    let mode = modes[g.below(modes.len() as u64) as usize];
    let parts = g.below(4) as u128;
    let mut b = g.block() & !0x1fff | mode | parts << 11;
    if parts > 0 && g.below(2) == 0 {
        // The shared endpoint mode, class bits 00: keep all modes likely, LDR above all.
        b &= !(3 << 23);
    }
    b
}

/// What the legal blocks of one footprint covered.
#[derive(Default)]
struct Coverage {
    weight_ranges: [bool; 13],
    colour_ranges: [bool; 22],
    parts: [bool; 5],
    dual: [bool; 2],
    cems: [bool; 16],
}

#[test]
fn legal_blocks_match_the_crate() {
    let mut all = Coverage::default();
    for (i, &fp) in FOOTPRINTS.iter().enumerate() {
        let modes = legal_modes(fp);
        assert!(modes.len() > 100, "{fp:?}: {} modes", modes.len());
        let mut g = Rng(0x2545_f491_4f6c_dd1d ^ (i as u64) << 32);
        let mut kept = 0;
        while kept < count() / 2 {
            let b = candidate(&mut g, &modes);
            if !same(b, fp) {
                continue;
            }
            kept += 1;
            let (wr, cr, parts, dual, cems) = describe(&b.to_le_bytes(), fp.0, fp.1).expect("legal for us too");
            all.weight_ranges[usize::from(wr)] = true;
            all.colour_ranges[usize::from(cr)] = true;
            all.parts[parts] = true;
            all.dual[usize::from(dual)] = true;
            for &c in &cems[..parts] {
                all.cems[usize::from(c)] = true;
            }
        }
    }
    assert!(all.weight_ranges[1..].iter().all(|&c| c), "every weight range");
    assert!(all.colour_ranges[5..].iter().all(|&c| c), "every colour range from 6 values up");
    assert!(all.parts[1..].iter().all(|&c| c) && all.dual.iter().all(|&c| c));
    assert!(all.cems.iter().all(|&c| c), "every endpoint mode, HDR ones included");
}

#[test]
fn void_extents_match_the_crate() {
    let mut g = Rng(77);
    for &fp in &FOOTPRINTS {
        for _ in 0..500 {
            let rest = g.block() & !0xfff;
            // LDR (bit 9 clear) and HDR, with bits 10-11 both set or not.
            for top in 0..4u128 {
                for hdr in 0..2u128 {
                    let b = rest | 0x1fc | hdr << 9 | top << 10;
                    let ok = same(b, fp);
                    assert_eq!(ok, hdr == 0 && top == 3);
                }
            }
        }
    }
}

#[test]
fn rows_match_blocks() {
    let mut g = Rng(5);
    for &(w, h) in &FOOTPRINTS {
        let (bw, bh) = (usize::from(w), usize::from(h));
        let n = 7;
        let modes = legal_modes((w, h));
        let blocks: Vec<u8> =
            (0..n).flat_map(|i| if i % 2 == 0 { candidate(&mut g, &modes) } else { g.block() }.to_le_bytes()).collect();
        let pitch = 4 * bw * n + 12;
        let mut rows = vec![0xeeu8; pitch * bh];
        astc_row_rgba8(w, h, &blocks, &mut rows, pitch);
        for (i, b) in blocks.chunks_exact(16).enumerate() {
            let (px, _) = theirs(b.try_into().expect("16 bytes"), (w, h));
            for y in 0..bh {
                let at = y * pitch + 4 * bw * i;
                assert_eq!(
                    &rows[at..at + 4 * bw],
                    px[y * bw..(y + 1) * bw].as_flattened(),
                    "{w}x{h} block {i} row {y}"
                );
            }
        }
        for y in 0..bh {
            assert!(rows[y * pitch + 4 * bw * n..(y + 1) * pitch].iter().all(|&p| p == 0xee), "padding untouched");
        }
        // A destination too short: the whole pixels that fit, the same bytes, no panic.
        for cut in [1, 5, 4 * bw + 3, pitch * (bh - 1) + 9] {
            let mut short = vec![0xeeu8; rows.len() - cut];
            astc_row_rgba8(w, h, &blocks, &mut short, pitch);
            let keep = short.len() - short.len() % 4;
            assert_eq!(short[..keep], rows[..keep]);
        }
        astc_row_rgba8(w, h, &blocks, &mut [], pitch);
        astc_block_rgba8(w, h, &blocks[..5], &mut rows, pitch);
    }
}

#[test]
fn tables_follow_the_specification() {
    // "Integer Sequence Encoding": every packed group decodes to digits in range, and the 243
    // trit and 125 quint combinations all occur.
    let mut seen = [false; 243];
    for t in TRITS {
        assert!(t.iter().all(|&d| d < 3));
        seen[t.iter().rev().fold(0, |a, &d| 3 * a + usize::from(d))] = true;
    }
    assert!(seen.iter().all(|&s| s));
    let mut seen = [false; 125];
    for q in QUINTS {
        assert!(q.iter().all(|&d| d < 5));
        seen[q.iter().rev().fold(0, |a, &d| 5 * a + usize::from(d))] = true;
    }
    assert!(seen.iter().all(|&s| s));
    // Unquantization: a range of L levels has codes 0..L (`d << bits | m`); colours take L
    // different values from 0 to 255, weights values from 0 to 64 (63 + 1).
    let levels = |r: usize| (1usize << ISE[r].bits) * [1, 3, 5][ISE[r].kind as usize];
    for r in 5..22 {
        let mut vals = COLOUR_UNQ[r][..levels(r)].to_vec();
        vals.sort_unstable();
        vals.dedup();
        assert_eq!((vals.len(), vals[0], vals[vals.len() - 1]), (levels(r), 0, 255), "colour range {r}");
    }
    for r in 1..13 {
        let vals = &WEIGHT_UNQ[r][..levels(r)];
        assert!(vals.contains(&0) && vals.contains(&64) && !vals.iter().any(|&v| v > 64), "weight range {r}");
    }
    // "Block Mode", row bits 3-2 = 00: W = B + 4, H = A + 2; R = bits 1-0, bit 4 (R2 R1, R0).
    // A = 2, B = 1, R = 0b110: 5x4, range 0-5 (ISE 5): 20 + ceil(160 / 5) = 52 bits.
    let m = BLOCK_MODES[0b11 | 2 << 5 | 1 << 7];
    assert_eq!((m.kind, m.gw, m.gh, m.range, m.dual, m.count, m.bits), (ModeKind::Grid, 5, 4, 5, false, 20, 52));
    // A = B = 0: 4x2 takes 8 + ceil(64 / 5) = 21 bits, too few ("Illegal Encodings"); with
    // bit 9 (range 0-23, ISE 11) and bit 10 (two planes): 16 weights, 48 + 26 = 74 bits.
    assert_eq!(BLOCK_MODES[0b11].kind, ModeKind::Error);
    let m = BLOCK_MODES[0b11 | 1 << 9 | 1 << 10];
    assert_eq!((m.kind, m.gw, m.gh, m.range, m.dual, m.count, m.bits), (ModeKind::Grid, 4, 2, 11, true, 16, 74));
}

#[test]
fn weight_application_is_the_crate_rule() {
    // Every endpoint pair and weight: the 16-bit lane form against the rule as written.
    for e0 in 0..=255u8 {
        for e1 in 0..=255u8 {
            for w in 0..=64u8 {
                assert_eq!(apply_one(e0, e1, w), crate_rule(e0, e1, u32::from(w)), "{e0} {e1} {w}");
            }
        }
    }
}
