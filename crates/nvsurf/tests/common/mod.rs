//! Helpers shared by the integration tests.

/// `n` bytes of a cheap pseudo-random pattern (xorshift), different per seed.
pub fn noise(n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

/// A buffer holding `fill` from a 64-byte (cache line) boundary, and that boundary's index:
/// the streaming stores need line-aligned destinations.
#[allow(dead_code)] // Not every test binary that includes this module uses it.
pub fn aligned(fill: &[u8]) -> (Vec<u8>, usize) {
    let mut buf = vec![0u8; fill.len() + 64];
    let at = buf.as_ptr().align_offset(64);
    buf[at..at + fill.len()].copy_from_slice(fill);
    (buf, at)
}
