//! Hand-worked CSAA pixels (weights worked out on paper from the document's belongs-lists and
//! C bitfields, envytools `docs/hw/memory/g80-surface.rst` "Multisampled surfaces", ERRATA E9/E10)
//! and resolves of a synthetic surface.

use nvsurf::msaa::{self, ChunkRule, MsMode};

fn targets(mode: MsMode, c: u32) -> Vec<(u8, u8)> {
    msaa::contributions(mode, c).unwrap().iter().map(|x| (x.coverage, x.full)).collect()
}

#[test]
fn ms4_cs4_none_all_mixed() {
    let m = MsMode::MS4_CS4;
    // No bits: each coverage sample defaults to the first of its belongs-list: 4->1 5->3 6->0 7->2.
    assert_eq!(targets(m, 0), [(4, 1), (5, 3), (6, 0), (7, 2)]);
    assert_eq!(msaa::weights(m, 0).unwrap(), [2, 2, 2, 2]);
    assert!(msaa::contributions(m, 0).unwrap().iter().all(|c| !c.matched));
    // All bits: the first of each belongs-list matches, same targets, but matched.
    assert_eq!(msaa::weights(m, 0xffff).unwrap(), [2, 2, 2, 2]);
    assert!(msaa::contributions(m, 0xffff).unwrap().iter().all(|c| c.matched));
    // Mixed 0x0811: s4 bits 0001 (s0) -> 0; s5 bits 0001 (s0): 3,2,1 unset -> 0;
    // s6 bits 1000 (s3) -> 3; s7 none -> default 2.
    assert_eq!(targets(m, 0x0811), [(4, 0), (5, 0), (6, 3), (7, 2)]);
    assert_eq!(msaa::weights(m, 0x0811).unwrap(), [3, 1, 2, 2]);
    // s4 bits 1100 (s2, s3): belongs 1,3,0,2 -> 3 comes first.
    assert_eq!(targets(m, 0x000c)[0], (4, 3));
}

#[test]
fn ms4_cs12_none_all_mixed() {
    let m = MsMode::MS4_CS12;
    let defaults =
        [(4, 2), (5, 1), (6, 3), (7, 0), (8, 0), (9, 0), (0xa, 1), (0xb, 2), (0xc, 3), (0xd, 0), (0xe, 2), (0xf, 1)];
    assert_eq!(targets(m, 0), defaults);
    assert_eq!(msaa::weights(m, 0).unwrap(), [5, 4, 4, 3]);
    assert_eq!(targets(m, u32::MAX), defaults);
    assert_eq!(msaa::weights(m, u32::MAX).unwrap(), [5, 4, 4, 3]);
    // Mixed: bit 2 (s5 <-> s0), bit 14 (s9 <-> s3), bit 21 (sc <-> s1; E9: field 21-23),
    // bit 27 (se <-> s1).
    let c = (1 << 2) | (1 << 14) | (1 << 21) | (1 << 27);
    assert_eq!(
        targets(m, c),
        [(4, 2), (5, 0), (6, 3), (7, 0), (8, 0), (9, 3), (0xa, 1), (0xb, 2), (0xc, 1), (0xd, 0), (0xe, 1), (0xf, 1)]
    );
    assert_eq!(msaa::weights(m, c).unwrap(), [5, 5, 3, 3]);
}

#[test]
fn ms8_cs8_none_all_mixed() {
    let m = MsMode::MS8_CS8;
    let defaults = [(8, 1), (9, 1), (0xa, 5), (0xb, 4), (0xc, 3), (0xd, 3), (0xe, 7), (0xf, 5)];
    assert_eq!(targets(m, 0), defaults);
    assert_eq!(msaa::weights(m, 0).unwrap(), [1, 3, 1, 3, 2, 3, 1, 2]);
    assert_eq!(targets(m, u32::MAX), defaults);
    // Mixed (E10: rows are samples 8..f): bit 3 (s8 <-> s6), bit 18 (sc <-> s2),
    // bit 23 (sd <-> s7), bits 28 and 31 (sf <-> s3 and s7; belongs 5,6,7,3 picks 7).
    let c: u32 = (1 << 3) | (1 << 18) | (1 << 23) | (1 << 28) | (1 << 31);
    assert_eq!(c, 0x9084_0008);
    assert_eq!(targets(m, c), [(8, 6), (9, 1), (0xa, 5), (0xb, 4), (0xc, 2), (0xd, 7), (0xe, 7), (0xf, 7)]);
    assert_eq!(msaa::weights(m, c).unwrap(), [1, 2, 2, 1, 2, 2, 2, 4]);
}

#[test]
fn weights_always_sum_to_all_samples() {
    for m in [MsMode::MS4_CS4, MsMode::MS4_CS12, MsMode::MS8_CS8] {
        let bits = m.info().c_bits_per_pixel.unwrap();
        let mut x: u32 = 0x1234_5678;
        for _ in 0..500 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let c = if bits == 16 { x & 0xffff } else { x };
            let w = msaa::weights(m, c).unwrap();
            assert_eq!(w.iter().sum::<u32>(), m.full_samples() + m.coverage_samples());
        }
    }
    assert_eq!(msaa::weights(MsMode::MS8, 0).unwrap(), [1; 8]);
    assert!(msaa::weights(MsMode::MS8_CS24, 0).is_err());
}

/// A synthetic MS8_CS8 color surface and its C values, resolved through the element grid.
#[test]
fn resolve_synthetic_surface() {
    let m = MsMode::MS8_CS8;
    let (w_px, h_px) = (3u64, 2u64);
    let (sw, sh) = m.surface_size_elements(w_px, h_px).unwrap();
    assert_eq!((sw, sh), (12, 4));
    // Color element (ex, ey) = red: the sample id it holds, green: pixel index.
    let mut color = vec![[0f32; 4]; (sw * sh) as usize];
    for ey in 0..sh {
        for ex in 0..sw {
            let (x, y, s) = m.element_sample(ex, ey).unwrap();
            color[(ey * sw + ex) as usize] = [s as f32, (y * w_px + x) as f32, 0.0, 1.0];
        }
    }
    // C per pixel, stored in the zeta surface's per-sample C bytes and read back.
    let cs = [0u32, u32::MAX, 0x9084_0008, 0, 0x9084_0008, 0x1];
    let mut zeta_c = vec![0u8; (sw * sh) as usize];
    for (p, &c) in cs.iter().enumerate() {
        let (x, y) = (p as u64 % w_px, p as u64 / w_px);
        for (s, byte) in msaa::split_c(m, ChunkRule::Document, c).unwrap().into_iter().enumerate() {
            let (ex, ey) = m.sample_element_xy(x, y, s as u32).unwrap();
            zeta_c[(ey * sw + ex) as usize] = byte;
        }
    }
    let read = |ex: u64, ey: u64| Ok(color[(ey * sw + ex) as usize]);
    let c_at = |x: u64, y: u64| {
        let mut fields = [0u8; 8];
        for (s, f) in fields.iter_mut().enumerate() {
            let (ex, ey) = m.sample_element_xy(x, y, s as u32)?;
            *f = zeta_c[(ey * sw + ex) as usize];
        }
        msaa::assemble_c(m, ChunkRule::Document, &fields)
    };
    let out = msaa::resolve_image(m, w_px, h_px, read, Some(c_at)).unwrap();
    // Pixel 2 uses the mixed C 0x90840008: weights [1,2,2,1,2,2,2,4] over 16 samples, so the
    // red channel (sample id) averages to (0+2+4+3+8+10+12+28)/16 = 67/16.
    assert_eq!(out[2], [67.0 / 16.0, 2.0, 0.0, 1.0]);
    // Pixel 0, no C bits: weights [1,3,1,3,2,3,1,2] -> (0+3+2+9+8+15+6+14)/16 = 57/16.
    assert_eq!(out[0], [57.0 / 16.0, 0.0, 0.0, 1.0]);
    // Without C the resolve is the box average: (0+..+7)/8 = 3.5.
    let boxed = msaa::resolve_image(m, w_px, h_px, read, None::<fn(u64, u64) -> nvsurf::Result<u32>>).unwrap();
    assert!(boxed.iter().enumerate().all(|(p, c)| *c == [3.5, p as f32, 0.0, 1.0]));
}
