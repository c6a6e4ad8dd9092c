//! ASTC through the format paths (`decode_rect_rgba8`: rows of whole blocks, edge blocks;
//! `decode_rect`: the component registers) against the `astc-decode` crate called
//! block by block, for each of the 14 footprints, on a picture whose sides are not multiples
//! of the footprint, with padded block rows. The blocks: the astcenc test vectors' blocks and
//! seeded random ones (mostly illegal encodings: the error colour).
#![cfg(feature = "std")]

use nvsurf::format::Format;

mod common;
use common::ASTC_FOOTPRINTS as FOOTPRINTS;

const VECTORS: [&[u8]; 3] = [
    include_bytes!("data/astc/ldr_4x4.astc"),
    include_bytes!("data/astc/ldr_8x8.astc"),
    include_bytes!("data/astc/hdr_6x6.astc"),
];

/// `n` blocks: the vectors' blocks (after their 16-byte headers) and seeded random ones,
/// alternating.
fn blocks(n: usize, seed: u64) -> Vec<u8> {
    let real: Vec<&[u8]> = VECTORS.iter().flat_map(|v| v[16..].chunks_exact(16)).collect();
    let mut s = seed;
    let mut out = Vec::new();
    for i in 0..n {
        if i % 2 == 0 {
            out.extend_from_slice(real[(i / 2) % real.len()]);
        } else {
            for _ in 0..2 {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                out.extend_from_slice(&s.to_le_bytes());
            }
        }
    }
    out
}

/// The crate's picture: each block decoded by `astc_decode_block`, cut to `w` x `h`.
fn reference(elems: &[u8], pitch: usize, (bw, bh): (u32, u32), (w, h): (u32, u32)) -> Vec<[u8; 4]> {
    let mut out = vec![[0u8; 4]; (w * h) as usize];
    let fp = astc_decode::Footprint::new(bw, bh);
    for by in 0..h.div_ceil(bh) {
        for bx in 0..w.div_ceil(bw) {
            let at = by as usize * pitch + bx as usize * 16;
            let block: &[u8; 16] = elems[at..at + 16].try_into().unwrap();
            astc_decode::astc_decode_block(block, fp, |x, y, c| {
                let (x, y) = (bx * bw + x, by * bh + y);
                if x < w && y < h {
                    out[(y * w + x) as usize] = c;
                }
            });
        }
    }
    out
}

#[test]
fn format_paths_match_the_crate() {
    for (i, &(bw, bh)) in FOOTPRINTS.iter().enumerate() {
        let f = Format::parse(&format!("astc_{bw}x{bh}")).unwrap();
        let (w, h) = (5 * bw + 3, 3 * bh + 1);
        let (cols, rows) = (w.div_ceil(bw) as usize, h.div_ceil(bh) as usize);
        let pitch = cols * 16 + 32;
        let elems = blocks(pitch / 16 * rows, 0x1234_5678 + i as u64);
        let want = reference(&elems, pitch, (bw, bh), (w, h));
        let mut out = vec![[0u8; 4]; (w * h) as usize];
        f.decode_rect_rgba8(&elems, pitch, w, h, &mut out).unwrap();
        assert!(out == want, "{bw}x{bh}: decode_rect_rgba8");
        // The component registers: unorm floats of the same bytes.
        let mut texels = vec![[0u32; 4]; (w * h) as usize];
        f.decode_rect(&elems, pitch, w, h, &mut texels).unwrap();
        for (t, p) in texels.iter().zip(&want) {
            let got = t.map(|c| (f32::from_bits(c) * 255.0).round() as u8);
            assert_eq!(got, *p, "{bw}x{bh}: decode_rect");
        }
    }
}
