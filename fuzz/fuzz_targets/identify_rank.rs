//! `identify::rank` on a dump of any length and bytes, for a small surface of any GPU and
//! element size: candidates the dump ends inside are scored on the rows it holds (at least half
//! their sample) or listed unscored, nothing past the dump is read, and OffsetScan takes the
//! same bytes.
//!
//! Sizes are bounded so the target runs thousands of times a second (every byte the ranking
//! and the scan touch costs coverage callbacks): surfaces of at most 24x12 elements, and a dump
//! cut at any point of one candidate's surface (or just past it), not megabytes of repeats.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use nvsurf::identify;
use nvsurf::layout::{LayoutKind, SurfaceDesc};

#[derive(Arbitrary, Debug)]
struct Input {
    gpu: u8,
    elem: u8,
    w: u8,
    h: u8,
    /// The block height (log2 gobs, modulo 6) of the surface the dump's length is taken from.
    pick: u8,
    /// Where in (or just past) that surface the dump ends: `cut / 65535` of its size, plus
    /// `extra` bytes.
    cut: u16,
    extra: u8,
    /// The dump: the fuzzer's bytes, repeated up to the length.
    bytes: Vec<u8>,
}

/// `len` bytes of `pattern` repeated (zeros for an empty pattern), copied a pattern at a time.
fn repeat(pattern: &[u8], len: usize) -> Vec<u8> {
    let mut dump = vec![0u8; len];
    if !pattern.is_empty() {
        for chunk in dump.chunks_mut(pattern.len()) {
            chunk.copy_from_slice(&pattern[..chunk.len()]);
        }
    }
    dump
}

fuzz_target!(|i: Input| {
    let elem = [1u32, 2, 4, 8, 12, 16][usize::from(i.elem) % 6];
    let size = [u32::from(i.w % 24) + 1, u32::from(i.h % 12) + 1, 1];
    let gpu = nvsurf_fuzz::gpu(i.gpu);
    // The dump ends inside a surface of the size (blocklinear with a block 1 to 32 gobs tall,
    // as the candidates are; swizzled before G80), or up to 255 bytes past it: the cut-short
    // rules are what this target is about.
    let mut d = SurfaceDesc::new(gpu, elem, size);
    if gpu.is_g80_or_later() {
        d.layout = LayoutKind::BlockLinear;
        d.block_log2 = Some([0, u32::from(i.pick % 6), 0]);
        d.auto_size = Some(false);
    }
    let Ok(picked) = d.build() else { return };
    let full = picked.size_bytes();
    let len = (full.saturating_mul(u64::from(i.cut)) / u64::from(u16::MAX)).saturating_add(u64::from(i.extra)) as usize;
    let dump = repeat(&i.bytes, len);
    let Ok(cands) = identify::candidates(gpu, elem, size, len as u64) else { return };
    let n = cands.len();
    let r = identify::rank(&dump, len as u64, cands, None).expect("rank reads only the dump");
    assert_eq!(r.ranked.len(), n);
    for x in &r.ranked {
        let sample_rows = identify::sample_region(&x.candidate.surface).h;
        match x.roughness {
            Some(s) => {
                assert!(s.is_finite() && s >= 0.0);
                assert!(x.rows_scored >= 1 && x.rows_scored <= sample_rows);
                assert!(x.size_bytes <= len as u64 || x.rows_scored * 2 >= sample_rows);
                assert!((0.0..=1.0).contains(&x.blank_fraction));
            }
            None => assert!(x.rows_scored == 0 && x.size_bytes > len as u64),
        }
    }
    let mut scan = identify::OffsetScan::new(elem);
    scan.feed(&dump);
    let offs = scan.offsets(16);
    assert!(offs[0] == 0 && offs.len() <= 24 && offs.iter().all(|&o| o <= len as u64));
});
