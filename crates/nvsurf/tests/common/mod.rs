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
