//! How much picture a sample holds: its blank (zero) bytes, and the roughness that random
//! bytes give in the same format, against which a candidate's roughness is judged.
//!
//! Decisions (nvsurf's; `guess --offset auto` uses both): memory around a surface is most
//! often zeros (cleared VRAM), which untile to a perfectly smooth image; a window that holds
//! a few rows of a picture and zeros elsewhere is then smoother than the picture itself. So
//! the bytes of a sample are cut into pieces of 16 bytes (whole elements; one element when 16
//! is no multiple of its size) along its rows, and a piece whose bytes are all zero is blank
//! ([`blank_fraction`]). A transparent black picture (RGBA 0,0,0,0) cannot be told from
//! cleared memory. A dump of random bytes has no smooth region: the smoothest of its
//! candidates scores about what random bytes do (`rank::random_roughness`), and then no
//! surface stands out ([`stands_out`]).

/// A candidate stands out from random bytes when its roughness is below this fraction of
/// theirs ([`stands_out`]). Pictures score far below: the review's 320x200 test picture 44 and
/// the same with strong noise 713, against 10919 for random RGBA8; the smoothest of 1,200
/// windows of a random dump scored 0.995 of it (measured with `guess --json`).
pub const STANDS_OUT_BELOW: f64 = 0.75;

/// Bytes of a blank piece (see the module documentation).
const PIECE_BYTES: usize = 16;

/// The fraction (0 to 1) of `sample`'s bytes (rows of `row_bytes` bytes, elements of
/// `elem_size_bytes` bytes) that lie in blank pieces: runs of 16 bytes along a row (one element
/// when 16 is no multiple of the element size; a row's last piece may be shorter) whose bytes
/// are all zero. 0 for an empty sample.
pub fn blank_fraction(sample: &[u8], row_bytes: usize, elem_size_bytes: usize) -> f64 {
    let piece = if elem_size_bytes > 0 && PIECE_BYTES.is_multiple_of(elem_size_bytes) {
        PIECE_BYTES
    } else {
        elem_size_bytes.max(1)
    };
    let mut blank = 0usize;
    let mut total = 0usize;
    for row in sample.chunks(row_bytes.max(1)) {
        for p in row.chunks(piece) {
            total += p.len();
            if p.iter().all(|&b| b == 0) {
                blank += p.len();
            }
        }
    }
    if total == 0 {
        0.0
    } else {
        blank as f64 / total as f64
    }
}

/// Whether a roughness stands out from the `random` roughness of the same format
/// (`rank::random_roughness`): below [`STANDS_OUT_BELOW`] times it.
pub fn stands_out(roughness: f64, random: f64) -> bool {
    roughness < random * STANDS_OUT_BELOW
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_pieces_are_all_zero_runs_of_a_row() {
        // Two rows of 32 bytes: row 0 half zero, row 1 with one non-zero byte per piece.
        let mut s = alloc::vec![0u8; 64];
        s[16..32].fill(7);
        s[32] = 1;
        s[48 + 15] = 1;
        assert_eq!(blank_fraction(&s, 32, 4), 0.25);
        // 12-byte elements: pieces of one element; a row's last piece is shorter.
        let mut t = alloc::vec![0u8; 30];
        t[12] = 5;
        assert_eq!(blank_fraction(&t, 30, 12), 18.0 / 30.0);
        assert_eq!(blank_fraction(&[], 16, 4), 0.0);
        assert_eq!(blank_fraction(&[0; 8], 8, 1), 1.0);
    }
}
