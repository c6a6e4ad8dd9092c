//! The safe twin of the BC7 decoder (tests only): one pixel at a time, straight from the rule
//! of Khronos Data Format Specification 1.3, section "BC7", and Microsoft's "BC7 Format"
//! (Direct3D 11): the block read bit by bit, the mode's fields found by walking the layout,
//! the index of a pixel found by adding up the widths of the indices before it, the weights
//! computed as `round(64 k / (2^bits - 1))` (the specification's table), the channels
//! widened by repeating their bits. Nothing is shared with the fast path but the anchor
//! tables; the partition shapes are written out again here, as the specification draws them
//! (rows of four pixels, top row first).

use super::super::bc7_tables::{ANCHORS2, ANCHORS3_SECOND, ANCHORS3_THIRD};

/// One mode's layout (the specification's table of mode descriptions).
struct Mode {
    /// Subsets.
    subsets: usize,
    /// Partition number bits.
    partition_bits: usize,
    /// Rotation bits.
    rotation_bits: usize,
    /// Index selection bits.
    selection_bits: usize,
    /// Bits per colour channel of an endpoint.
    colour_bits: usize,
    /// Bits per alpha channel of an endpoint (0: no alpha, it reads 255).
    alpha_bits: usize,
    /// A p-bit per endpoint.
    endpoint_pbits: bool,
    /// A p-bit per subset.
    shared_pbits: bool,
    /// Bits per index.
    index_bits: usize,
    /// Bits per second index (0: none).
    second_index_bits: usize,
}

/// The eight modes.
const MODES: [Mode; 8] = [
    Mode {
        subsets: 3,
        partition_bits: 4,
        rotation_bits: 0,
        selection_bits: 0,
        colour_bits: 4,
        alpha_bits: 0,
        endpoint_pbits: true,
        shared_pbits: false,
        index_bits: 3,
        second_index_bits: 0,
    },
    Mode {
        subsets: 2,
        partition_bits: 6,
        rotation_bits: 0,
        selection_bits: 0,
        colour_bits: 6,
        alpha_bits: 0,
        endpoint_pbits: false,
        shared_pbits: true,
        index_bits: 3,
        second_index_bits: 0,
    },
    Mode {
        subsets: 3,
        partition_bits: 6,
        rotation_bits: 0,
        selection_bits: 0,
        colour_bits: 5,
        alpha_bits: 0,
        endpoint_pbits: false,
        shared_pbits: false,
        index_bits: 2,
        second_index_bits: 0,
    },
    Mode {
        subsets: 2,
        partition_bits: 6,
        rotation_bits: 0,
        selection_bits: 0,
        colour_bits: 7,
        alpha_bits: 0,
        endpoint_pbits: true,
        shared_pbits: false,
        index_bits: 2,
        second_index_bits: 0,
    },
    Mode {
        subsets: 1,
        partition_bits: 0,
        rotation_bits: 2,
        selection_bits: 1,
        colour_bits: 5,
        alpha_bits: 6,
        endpoint_pbits: false,
        shared_pbits: false,
        index_bits: 2,
        second_index_bits: 3,
    },
    Mode {
        subsets: 1,
        partition_bits: 0,
        rotation_bits: 2,
        selection_bits: 0,
        colour_bits: 7,
        alpha_bits: 8,
        endpoint_pbits: false,
        shared_pbits: false,
        index_bits: 2,
        second_index_bits: 2,
    },
    Mode {
        subsets: 1,
        partition_bits: 0,
        rotation_bits: 0,
        selection_bits: 0,
        colour_bits: 7,
        alpha_bits: 7,
        endpoint_pbits: true,
        shared_pbits: false,
        index_bits: 4,
        second_index_bits: 0,
    },
    Mode {
        subsets: 2,
        partition_bits: 6,
        rotation_bits: 0,
        selection_bits: 0,
        colour_bits: 5,
        alpha_bits: 5,
        endpoint_pbits: true,
        shared_pbits: false,
        index_bits: 2,
        second_index_bits: 0,
    },
];

/// The two-subset partitions, pixel rows top first.
const TWO: [&str; 64] = [
    "0011 0011 0011 0011",
    "0001 0001 0001 0001",
    "0111 0111 0111 0111",
    "0001 0011 0011 0111",
    "0000 0001 0001 0011",
    "0011 0111 0111 1111",
    "0001 0011 0111 1111",
    "0000 0001 0011 0111",
    "0000 0000 0001 0011",
    "0011 0111 1111 1111",
    "0000 0001 0111 1111",
    "0000 0000 0001 0111",
    "0001 0111 1111 1111",
    "0000 0000 1111 1111",
    "0000 1111 1111 1111",
    "0000 0000 0000 1111",
    "0000 1000 1110 1111",
    "0111 0001 0000 0000",
    "0000 0000 1000 1110",
    "0111 0011 0001 0000",
    "0011 0001 0000 0000",
    "0000 1000 1100 1110",
    "0000 0000 1000 1100",
    "0111 0011 0011 0001",
    "0011 0001 0001 0000",
    "0000 1000 1000 1100",
    "0110 0110 0110 0110",
    "0011 0110 0110 1100",
    "0001 0111 1110 1000",
    "0000 1111 1111 0000",
    "0111 0001 1000 1110",
    "0011 1001 1001 1100",
    "0101 0101 0101 0101",
    "0000 1111 0000 1111",
    "0101 1010 0101 1010",
    "0011 0011 1100 1100",
    "0011 1100 0011 1100",
    "0101 0101 1010 1010",
    "0110 1001 0110 1001",
    "0101 1010 1010 0101",
    "0111 0011 1100 1110",
    "0001 0011 1100 1000",
    "0011 0010 0100 1100",
    "0011 1011 1101 1100",
    "0110 1001 1001 0110",
    "0011 1100 1100 0011",
    "0110 0110 1001 1001",
    "0000 0110 0110 0000",
    "0100 1110 0100 0000",
    "0010 0111 0010 0000",
    "0000 0010 0111 0010",
    "0000 0100 1110 0100",
    "0110 1100 1001 0011",
    "0011 0110 1100 1001",
    "0110 0011 1001 1100",
    "0011 1001 1100 0110",
    "0110 1100 1100 1001",
    "0110 0011 0011 1001",
    "0111 1110 1000 0001",
    "0001 1000 1110 0111",
    "0000 1111 0011 0011",
    "0011 0011 1111 0000",
    "0010 0010 1110 1110",
    "0100 0100 0111 0111",
];

/// The three-subset partitions, pixel rows top first.
const THREE: [&str; 64] = [
    "0011 0011 0221 2222",
    "0001 0011 2211 2221",
    "0000 2001 2211 2211",
    "0222 0022 0011 0111",
    "0000 0000 1122 1122",
    "0011 0011 0022 0022",
    "0022 0022 1111 1111",
    "0011 0011 2211 2211",
    "0000 0000 1111 2222",
    "0000 1111 1111 2222",
    "0000 1111 2222 2222",
    "0012 0012 0012 0012",
    "0112 0112 0112 0112",
    "0122 0122 0122 0122",
    "0011 0112 1122 1222",
    "0011 2001 2200 2220",
    "0001 0011 0112 1122",
    "0111 0011 2001 2200",
    "0000 1122 1122 1122",
    "0022 0022 0022 1111",
    "0111 0111 0222 0222",
    "0001 0001 2221 2221",
    "0000 0011 0122 0122",
    "0000 1100 2210 2210",
    "0122 0122 0011 0000",
    "0012 0012 1122 2222",
    "0110 1221 1221 0110",
    "0000 0110 1221 1221",
    "0022 1102 1102 0022",
    "0110 0110 2002 2222",
    "0011 0122 0122 0011",
    "0000 2000 2211 2221",
    "0000 0002 1122 1222",
    "0222 0022 0012 0011",
    "0011 0012 0022 0222",
    "0120 0120 0120 0120",
    "0000 1111 2222 0000",
    "0120 1201 2012 0120",
    "0120 2012 1201 0120",
    "0011 2200 1122 0011",
    "0011 1122 2200 0011",
    "0101 0101 2222 2222",
    "0000 0000 2121 2121",
    "0022 1122 0022 1122",
    "0022 0011 0022 0011",
    "0220 1221 0220 1221",
    "0101 2222 2222 0101",
    "0000 2121 2121 2121",
    "0101 0101 0101 2222",
    "0222 0111 0222 0111",
    "0002 1112 0002 1112",
    "0000 2112 2112 2112",
    "0222 0111 0111 0222",
    "0002 1112 1112 0002",
    "0110 0110 0110 2222",
    "0000 0000 2112 2112",
    "0110 0110 2222 2222",
    "0022 0011 0011 0022",
    "0022 1122 1122 0022",
    "0000 0000 0000 2112",
    "0002 0001 0002 0001",
    "0222 1222 0222 1222",
    "0101 2222 2222 2222",
    "0111 2011 2201 2220",
];

/// Bit `at` of the block (bit 0 is the low bit of byte 0).
fn bit(block: &[u8; 16], at: usize) -> u32 {
    u32::from((block[at / 8] >> (at % 8)) & 1)
}

/// `n` bits of the block from bit `at`, the first one lowest.
fn bits(block: &[u8; 16], at: usize, n: usize) -> u32 {
    (0..n).map(|k| bit(block, at + k) << k).sum()
}

/// The subset of pixel `i` in partition `p` of a mode with `subsets` subsets.
fn subset_of(subsets: usize, p: usize, i: usize) -> usize {
    let shape = match subsets {
        2 => TWO[p],
        3 => THREE[p],
        _ => return 0,
    };
    let digits: Vec<u8> = shape.bytes().filter(|c| c.is_ascii_digit()).collect();
    usize::from(digits[i] - b'0')
}

/// True when pixel `i` is the anchor of its subset (its index has one bit less).
fn is_anchor(subsets: usize, p: usize, i: usize) -> bool {
    match subsets {
        2 => i == 0 || i == usize::from(ANCHORS2[p]),
        3 => i == 0 || i == usize::from(ANCHORS3_SECOND[p]) || i == usize::from(ANCHORS3_THIRD[p]),
        _ => i == 0,
    }
}

/// An `n`-bit value widened to 8 bits by repeating its bits from the top: bit `7 - k` of the
/// result is bit `n - 1 - (k mod n)` of `v`.
fn widen(v: u32, n: usize) -> u32 {
    (0..8).map(|k| ((v >> (n - 1 - k % n)) & 1) << (7 - k)).sum()
}

/// The weight of index `k` of `n` bits: `64 k / (2^n - 1)` rounded to nearest.
fn weight(k: u32, n: usize) -> u32 {
    let top = (1u32 << n) - 1;
    (128 * k + top) / (2 * top)
}

/// Pixel `i` (`4y + x`) of a BC7 block as R, G, B, A.
pub(crate) fn twin_pixel(block: &[u8; 16], i: usize) -> [u8; 4] {
    let Some(m) = (0..8).find(|&m| bit(block, m) == 1) else {
        return [0; 4];
    };
    let mode = &MODES[m];
    let mut at = m + 1;
    let partition = bits(block, at, mode.partition_bits) as usize;
    at += mode.partition_bits;
    let rotation = bits(block, at, mode.rotation_bits);
    at += mode.rotation_bits;
    let selection = bits(block, at, mode.selection_bits);
    at += mode.selection_bits;
    let endpoints = 2 * mode.subsets;
    let s = subset_of(mode.subsets, partition, i);
    // Endpoints 2s and 2s + 1: channel c of endpoint e, p-bit below it.
    let pbits_at = at + endpoints * (3 * mode.colour_bits + mode.alpha_bits);
    let channel = |e: usize, c: usize| -> u32 {
        let (n, from) = if c < 3 {
            (mode.colour_bits, at + (c * endpoints + e) * mode.colour_bits)
        } else {
            (mode.alpha_bits, at + 3 * endpoints * mode.colour_bits + e * mode.alpha_bits)
        };
        if n == 0 {
            return 255;
        }
        let v = bits(block, from, n);
        if mode.endpoint_pbits {
            widen(2 * v + bit(block, pbits_at + e), n + 1)
        } else if mode.shared_pbits {
            widen(2 * v + bit(block, pbits_at + e / 2), n + 1)
        } else {
            widen(v, n)
        }
    };
    let index_at =
        pbits_at + if mode.endpoint_pbits { endpoints } else { 0 } + if mode.shared_pbits { mode.subsets } else { 0 };
    // The index of pixel i: after the indices of the pixels before it.
    let width = |j: usize, n: usize, subsets: usize| n - usize::from(is_anchor(subsets, partition, j));
    let first_at = index_at + (0..i).map(|j| width(j, mode.index_bits, mode.subsets)).sum::<usize>();
    let first = weight(bits(block, first_at, width(i, mode.index_bits, mode.subsets)), mode.index_bits);
    let (colour_w, alpha_w) = if mode.second_index_bits == 0 {
        (first, first)
    } else {
        let second_start = index_at + 16 * mode.index_bits - 1;
        let n = mode.second_index_bits;
        let second_at = second_start + (0..i).map(|j| width(j, n, 1)).sum::<usize>();
        let second = weight(bits(block, second_at, width(i, n, 1)), n);
        if selection == 0 {
            (first, second)
        } else {
            (second, first)
        }
    };
    let mut px = [0u8; 4];
    for (c, p) in px.iter_mut().enumerate() {
        let w = if c < 3 { colour_w } else { alpha_w };
        let (e0, e1) = (channel(2 * s, c), channel(2 * s + 1, c));
        *p = (((64 - w) * e0 + w * e1 + 32) >> 6) as u8;
    }
    if rotation > 0 {
        px.swap(rotation as usize - 1, 3);
    }
    px
}

/// A BC7 block as its 16 pixels (`4y + x`).
pub(crate) fn twin_bc7(block: &[u8; 16]) -> [[u8; 4]; 16] {
    core::array::from_fn(|i| twin_pixel(block, i))
}
