//! Helpers shared by the integration tests.

/// `n` bytes of a cheap pseudo-random pattern (xorshift), different per seed.
#[allow(dead_code)] // Not every test binary that includes this module uses it.
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

/// The 14 footprints (width, height in pixels) of 2D ASTC blocks (Khronos Data Format
/// Specification 1.3, "ASTC", the block footprints table).
#[allow(dead_code)] // Not every test binary that includes this module uses it.
pub const ASTC_FOOTPRINTS: [(u32, u32); 14] = [
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
