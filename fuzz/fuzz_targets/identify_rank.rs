//! `identify::rank` on a dump of any length and bytes, for a small surface of any GPU and
//! element size: candidates the dump ends inside are scored on the rows it holds (at least half
//! their sample) or listed unscored, nothing past the dump is read, and OffsetScan takes the
//! same bytes.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use nvsurf::identify;

#[derive(Arbitrary, Debug)]
struct Input {
    gpu: u8,
    elem: u8,
    w: u8,
    h: u8,
    /// The dump: the fuzzer's bytes, repeated up to `len` bytes (a surface of 255x255 16-byte
    /// elements reaches 1 MiB).
    len: u32,
    bytes: Vec<u8>,
}

fuzz_target!(|i: Input| {
    let elem = [1u32, 2, 4, 8, 12, 16][usize::from(i.elem) % 6];
    let size = [u32::from(i.w).max(1), u32::from(i.h).max(1), 1];
    let len = (i.len % (1 << 21)) as usize;
    let dump: Vec<u8> =
        if i.bytes.is_empty() { vec![0; len] } else { i.bytes.iter().copied().cycle().take(len).collect() };
    let Ok(cands) = identify::candidates(nvsurf_fuzz::gpu(i.gpu), elem, size, len as u64) else { return };
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
