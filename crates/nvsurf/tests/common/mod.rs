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

/// A copy of `fill` in the library's line-aligned buffer: the streaming stores need
/// line-aligned destinations.
#[allow(dead_code)] // Not every test binary that includes this module uses it.
pub fn aligned(fill: &[u8]) -> nvsurf::tile::AlignedBuf {
    nvsurf::tile::AlignedBuf::from_slice(fill).expect("test buffer")
}
