//! Where in a dump a surface may start (`guess --offset auto`).
//!
//! Trying every layout at every aligned offset of a large dump is far too slow (an 8 MiB dump
//! has 16,384 gob-aligned offsets). The search is pruned by where the dump's character changes:
//! the bytes are summarised per 64-byte chunk (their mean, and how much each byte differs from
//! the same byte of the previous element), and the boundaries where the summary of the chunks
//! before differs most from the chunks after (the roughness weighing four times the mean) are
//! the places a surface can begin (a picture's bytes are alike, what surrounds it is not). The strongest boundaries, and offset 0, are then
//! scored like any offset; the summary costs 2 bytes per 64 bytes of dump (32 MiB for 1 GiB) and
//! is built as the dump streams past ([`OffsetScan::feed`]).
//!
//! Memory around a surface is most often zeros (cleared VRAM), and there the zeros' end is the
//! strongest sign of a start, stronger than the changes of character inside a picture (which
//! can outscore it: a shaded or checkered picture moves its mean at every block). So the ends of
//! runs of all-zero chunks at least 1 KiB long come first, the longest runs first, then the
//! strongest boundaries.

use alloc::vec::Vec;

/// Bytes summarised together: the step of pitch starts.
pub const CHUNK_BYTES: usize = 64;
/// Chunks compared on each side of a boundary (1 KiB).
const WINDOW_CHUNKS: usize = 16;

/// The running summary of a dump, chunk by chunk.
#[derive(Debug, Clone)]
pub struct OffsetScan {
    elem_size_bytes: usize,
    /// Per chunk: mean byte (rounded up, so 0 only for a chunk of zeros) and mean absolute
    /// difference to the previous element's byte.
    stats: Vec<[u8; 2]>,
    /// The bytes of an incomplete chunk, kept until the next feed completes it.
    carry: Vec<u8>,
}

impl OffsetScan {
    /// A scan for elements of `elem_size_bytes` bytes (the byte compared is the same byte of the
    /// previous element; 1 to 64).
    pub fn new(elem_size_bytes: u32) -> OffsetScan {
        OffsetScan {
            elem_size_bytes: (elem_size_bytes as usize).clamp(1, CHUNK_BYTES),
            stats: Vec::new(),
            carry: Vec::new(),
        }
    }

    /// Adds the next bytes of the dump.
    pub fn feed(&mut self, mut bytes: &[u8]) {
        if !self.carry.is_empty() {
            let need = CHUNK_BYTES - self.carry.len();
            let take = need.min(bytes.len());
            self.carry.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
            if self.carry.len() < CHUNK_BYTES {
                return;
            }
            let chunk = core::mem::take(&mut self.carry);
            if let Ok(c) = <&[u8; CHUNK_BYTES]>::try_from(&chunk[..]) {
                self.push(c);
            }
        }
        let mut chunks = bytes.chunks_exact(CHUNK_BYTES);
        for c in &mut chunks {
            if let Ok(c) = <&[u8; CHUNK_BYTES]>::try_from(c) {
                self.push(c);
            }
        }
        self.carry.extend_from_slice(chunks.remainder());
    }

    /// Adds one chunk's summary. The chunk is copied out whole and compared with a copy of
    /// itself shifted by one element: no per-byte bounds or comparisons, so the loops
    /// vectorise (and a fuzzer's instrumentation costs little).
    fn push(&mut self, chunk: &[u8; CHUNK_BYTES]) {
        // 1 to CHUNK_BYTES (see `new`).
        let e = self.elem_size_bytes;
        let c = *chunk;
        // prev[k] = c[k - e], zero for k < e.
        let mut prev = [0u8; CHUNK_BYTES];
        prev[e..].copy_from_slice(&c[..CHUNK_BYTES - e]);
        let mean = c.iter().map(|&b| u32::from(b)).sum::<u32>().div_ceil(CHUNK_BYTES as u32);
        let all: u32 = c.iter().zip(&prev).map(|(&a, &b)| (i32::from(a) - i32::from(b)).unsigned_abs()).sum();
        // The first e bytes have no previous element: their terms are the bytes themselves.
        let head: u32 = c[..e].iter().map(|&b| u32::from(b)).sum();
        let diff = all - head;
        let pairs = (CHUNK_BYTES - e).max(1) as u32;
        self.stats.push([mean as u8, (diff / pairs) as u8]);
    }

    /// Bytes summarised so far (whole chunks).
    pub fn scanned_bytes(&self) -> u64 {
        self.stats.len() as u64 * CHUNK_BYTES as u64
    }

    /// Byte offsets where a surface may start, strongest first, offset 0 always among them:
    /// the ends of runs of zero chunks at least `WINDOW_CHUNKS` (16) long, longest first (at
    /// most `max / 2`), then up to `max - 1` chunk boundaries where the summaries of the 16
    /// chunks before and after differ most, each the strongest within a window of its
    /// neighbours (at most `max + max / 2` offsets in all). The runs come in addition to the
    /// boundaries: a tiled surface's zero padding ends runs inside it, which must not crowd
    /// out the boundary of a surface in noise.
    pub fn offsets(&self, max: usize) -> Vec<u64> {
        let mut out = alloc::vec![0u64];
        let mut runs = self.zero_run_ends();
        runs.truncate(max / 2);
        for end in runs {
            if !out.contains(&end) {
                out.push(end);
            }
        }
        for b in self.boundaries(max) {
            if !out.contains(&b) {
                out.push(b);
            }
        }
        out
    }

    /// The byte offsets where runs of at least `WINDOW_CHUNKS` zero chunks end inside the dump
    /// (the next chunk holds a non-zero byte), longest run first, then in dump order.
    fn zero_run_ends(&self) -> Vec<u64> {
        let mut runs: Vec<(usize, usize)> = Vec::new();
        let mut start = None;
        for (i, s) in self.stats.iter().enumerate() {
            match (s[0] == 0, start) {
                (true, None) => start = Some(i),
                (false, Some(a)) => {
                    if i - a >= WINDOW_CHUNKS {
                        runs.push((i - a, i));
                    }
                    start = None;
                }
                _ => {}
            }
        }
        runs.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        runs.into_iter().map(|(_, end)| (end * CHUNK_BYTES) as u64).collect()
    }

    /// Offset 0 and up to `max - 1` boundaries where the character changes most (see
    /// [`OffsetScan::offsets`]).
    fn boundaries(&self, max: usize) -> Vec<u64> {
        let n = self.stats.len();
        let k = WINDOW_CHUNKS;
        // Prefix sums of both stats, for the window means.
        let mut prefix = Vec::with_capacity(n + 1);
        prefix.push([0u64; 2]);
        for s in &self.stats {
            let last = prefix[prefix.len() - 1];
            prefix.push([last[0] + u64::from(s[0]), last[1] + u64::from(s[1])]);
        }
        let window = |a: usize, b: usize, i: usize| (prefix[b][i] - prefix[a][i]) as f64 / (b - a).max(1) as f64;
        let score: Vec<f64> = (0..=n)
            .map(|i| {
                if i == 0 || i == n {
                    return 0.0;
                }
                let (a, b) = (i.saturating_sub(k), (i + k).min(n));
                // Noise against a picture differs above all in roughness; inside a picture the
                // mean moves (shading, a checker) while the roughness stays low.
                let d = |j| (window(a, i, j) - window(i, b, j)).abs();
                d(0) / 4.0 + d(1)
            })
            .collect();
        let mut peaks: Vec<(f64, usize)> = (1..n)
            .filter(|&i| {
                let (a, b) = (i.saturating_sub(k), (i + k).min(n));
                // The first of equal scores in its neighbourhood, and above noise.
                score[i] >= 1.0 && (a..b).all(|j| score[j] < score[i] || (score[j] == score[i] && j >= i))
            })
            .map(|i| (score[i], i))
            .collect();
        peaks.sort_by(|x, y| y.0.partial_cmp(&x.0).unwrap_or(core::cmp::Ordering::Equal).then(x.1.cmp(&y.1)));
        let mut out = alloc::vec![0u64];
        out.extend(peaks.into_iter().map(|(_, i)| (i * CHUNK_BYTES) as u64).take(max.saturating_sub(1)));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn noise(n: usize, seed: u64) -> Vec<u8> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect()
    }

    /// Each chunk's summary is its mean byte (rounded up) and the mean |difference| to the
    /// same byte of the previous element, for every element size, fed in any pieces.
    #[test]
    fn chunk_summaries_are_the_means_they_document() {
        let mut bytes = noise(64 * 40, 7);
        bytes[64 * 3..64 * 5].fill(0);
        bytes[64 * 9..64 * 10].fill(255);
        for e in [1usize, 2, 3, 4, 8, 12, 16, 63, 64] {
            let mut scan = OffsetScan::new(e as u32);
            for piece in bytes.chunks(37) {
                scan.feed(piece);
            }
            let want: Vec<[u8; 2]> = bytes
                .chunks_exact(CHUNK_BYTES)
                .map(|c| {
                    let mean = c.iter().map(|&b| u32::from(b)).sum::<u32>().div_ceil(64);
                    let diff: u32 = (e..64).map(|k| u32::from(c[k].abs_diff(c[k - e]))).sum();
                    [mean as u8, (diff / (64 - e as u32).max(1)) as u8]
                })
                .collect();
            assert_eq!(scan.stats, want, "element size {e}");
        }
    }

    #[test]
    fn a_picture_between_noise_is_found_at_its_start() {
        // Noise, then a smooth gradient 100,032 bytes in (64-byte aligned, not 512), then noise.
        let mut dump = noise(100_032, 1);
        dump.extend((0..200_000u32).map(|i| (i / 512 + (i % 512) / 8) as u8));
        dump.extend(noise(50_000, 2));
        let mut scan = OffsetScan::new(4);
        // Fed in uneven pieces: the summary does not depend on them.
        for piece in dump.chunks(1000 + 37) {
            scan.feed(piece);
        }
        let offs = scan.offsets(4);
        assert_eq!(offs[0], 0);
        assert!(offs.contains(&100_032), "{offs:?}");
        let mut whole = OffsetScan::new(4);
        whole.feed(&dump);
        assert_eq!(whole.offsets(4), offs);
        assert_eq!(whole.scanned_bytes(), (dump.len() / 64 * 64) as u64);
    }

    /// Regression (review): a GF100 surface 1 MiB + 512 into zeros was not among the offsets
    /// searched: the changes of character inside its picture outscored the zeros' end.
    #[test]
    fn the_end_of_zeros_comes_first() {
        // Zeros, then 300 KiB whose mean swings every 2 KiB (a dark and light checker; each
        // swing scores higher than the zeros' end into the dark), then zeros.
        let at = (1 << 20) + 512;
        let mut dump = alloc::vec![0u8; at];
        dump.extend(
            (0..300 * 1024u32).map(|i| if (i / 2048) % 2 == 0 { 20 + (i % 7) as u8 } else { 230 - (i % 5) as u8 }),
        );
        dump.extend(alloc::vec![0u8; 1 << 20]);
        let mut scan = OffsetScan::new(4);
        scan.feed(&dump);
        let offs = scan.offsets(16);
        assert!(offs.len() >= 16 && offs.len() <= 24, "{offs:?}");
        assert_eq!(&offs[..2], &[0, at as u64], "{offs:?}");
        // Without the zeros' rule, it is not among the 16 strongest boundaries.
        assert!(!scan.boundaries(16).contains(&(at as u64)));
    }

    #[test]
    fn flat_and_tiny_dumps() {
        let mut s = OffsetScan::new(4);
        s.feed(&[0u8; 10]);
        assert_eq!(s.offsets(8), [0]);
        s.feed(&[0u8; 100_000]);
        assert_eq!(s.offsets(8), [0], "no boundary in a flat dump");
        assert_eq!(OffsetScan::new(0).offsets(0), [0]);
    }
}
