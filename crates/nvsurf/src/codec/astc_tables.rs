//! The constant tables of the ASTC decoder (`astc`), built at compile time by `const fn`s from
//! the rules of the Khronos Data Format Specification 1.3, section "ASTC Compressed Texture
//! Image Formats" (cited below by subsection title):
//!
//! - the integer sequence encoding ranges in increasing order ([`ISE`]) and the decoding of a
//!   packed trit or quint group ([`TRITS`], [`QUINTS`]), "Integer Sequence Encoding";
//! - the unquantization of colour endpoint values ([`COLOUR_UNQ`], "Endpoint Unquantization")
//!   and of weights ([`WEIGHT_UNQ`], "Weight Unquantization");
//! - the 2048 block modes ([`BLOCK_MODES`], "Block Mode", its 2D layout table and the table
//!   "Weight Range Encodings"; void extents from "Void-Extent Blocks");
//! - the colour range each (value count, bit count) pair gets ([`COLOUR_RANGE`], "Color
//!   Endpoint Mode": the largest range whose encoding fits);
//! - the weight infill coordinates per footprint side and grid side ([`AXIS`], "Weight
//!   Infill").
//!
//! Where the `astc-decode` crate (0.3.1, the decoder the library used before and the tests'
//! reference) treats a case its own way, the tables follow the crate: the notes say where.

/// The kind of an integer sequence encoding range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum IseKind {
    /// `2^bits` values, plain bits.
    Bits,
    /// `3 * 2^bits` values: five trits packed in 8 bits, interleaved with the low bits.
    Trits,
    /// `5 * 2^bits` values: three quints packed in 7 bits, interleaved with the low bits.
    Quints,
}

/// One integer sequence encoding range: its kind and the number of low bits a value has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Ise {
    /// Plain bits, trits or quints.
    pub(super) kind: IseKind,
    /// Low bits per value.
    pub(super) bits: u32,
}

impl Ise {
    /// The bits `n` values take ("Integer Sequence Encoding": `n b + ceil(8 n / 5)` with trits,
    /// `n b + ceil(7 n / 3)` with quints).
    pub(super) const fn len(self, n: u32) -> u32 {
        n * self.bits
            + match self.kind {
                IseKind::Bits => 0,
                IseKind::Trits => (8 * n).div_ceil(5),
                IseKind::Quints => (7 * n).div_ceil(3),
            }
    }
}

/// An [`Ise`] (for the table below).
const fn ise(kind: IseKind, bits: u32) -> Ise {
    Ise { kind, bits }
}

/// The 22 ranges from 1 value (0 bits) to 256 values (8 bits), in increasing order of size:
/// 1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 40, 48, 64, 80, 96, 128, 160, 192, 256.
pub(super) const ISE: [Ise; 22] = {
    use IseKind::{Bits as B, Quints as Q, Trits as T};
    [
        ise(B, 0),
        ise(B, 1),
        ise(T, 0),
        ise(B, 2),
        ise(Q, 0),
        ise(T, 1),
        ise(B, 3),
        ise(Q, 1),
        ise(T, 2),
        ise(B, 4),
        ise(Q, 2),
        ise(T, 3),
        ise(B, 5),
        ise(Q, 3),
        ise(T, 4),
        ise(B, 6),
        ise(Q, 4),
        ise(T, 5),
        ise(B, 7),
        ise(Q, 5),
        ise(T, 6),
        ise(B, 8),
    ]
};

/// Bit `i` of `v`.
const fn bit(v: u32, i: u32) -> u32 {
    (v >> i) & 1
}

/// The five trits of the packed 8-bit field T ("Integer Sequence Encoding", the trit decoding
/// procedure): `[t0, t1, t2, t3, t4]`.
const fn trits_of(t: u32) -> [u8; 5] {
    let (c, t3, t4);
    if (t >> 2) & 7 == 7 {
        c = ((t >> 5) & 7) << 2 | (t & 3);
        t3 = 2;
        t4 = 2;
    } else {
        c = t & 0x1f;
        if (t >> 5) & 3 == 3 {
            t4 = 2;
            t3 = bit(t, 7);
        } else {
            t4 = bit(t, 7);
            t3 = (t >> 5) & 3;
        }
    }
    let (t0, t1, t2);
    if c & 3 == 3 {
        t2 = 2;
        t1 = bit(c, 4);
        t0 = bit(c, 3) << 1 | (bit(c, 2) & !bit(c, 3) & 1);
    } else if (c >> 2) & 3 == 3 {
        t2 = 2;
        t1 = 2;
        t0 = c & 3;
    } else {
        t2 = bit(c, 4);
        t1 = (c >> 2) & 3;
        t0 = bit(c, 1) << 1 | (bit(c, 0) & !bit(c, 1) & 1);
    }
    [t0 as u8, t1 as u8, t2 as u8, t3 as u8, t4 as u8]
}

/// The three quints of the packed 7-bit field Q ("Integer Sequence Encoding", the quint
/// decoding procedure): `[q0, q1, q2]`.
const fn quints_of(q: u32) -> [u8; 3] {
    if (q >> 1) & 3 == 3 && (q >> 5) & 3 == 0 {
        let not_q0 = bit(q, 0) ^ 1;
        let q2 = bit(q, 0) << 2 | (bit(q, 4) & not_q0) << 1 | (bit(q, 3) & not_q0);
        return [4, 4, q2 as u8];
    }
    let (c, q2);
    if (q >> 1) & 3 == 3 {
        q2 = 4;
        c = ((q >> 3) & 3) << 3 | (!(q >> 5) & 3) << 1 | bit(q, 0);
    } else {
        q2 = (q >> 5) & 3;
        c = q & 0x1f;
    }
    if c & 7 == 5 {
        [((c >> 3) & 3) as u8, 4, q2 as u8]
    } else {
        [(c & 7) as u8, ((c >> 3) & 3) as u8, q2 as u8]
    }
}

/// [`trits_of`] of every 8-bit field.
pub(super) const TRITS: [[u8; 5]; 256] = {
    let mut t = [[0u8; 5]; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = trits_of(i as u32);
        i += 1;
    }
    t
};

/// [`quints_of`] of every 7-bit field.
pub(super) const QUINTS: [[u8; 3]; 128] = {
    let mut q = [[0u8; 3]; 128];
    let mut i = 0;
    while i < 128 {
        q[i] = quints_of(i as u32);
        i += 1;
    }
    q
};

/// `v` (`n` bits) repeated from bit `to - 1` down, to `to` bits ("Endpoint Unquantization" and
/// "Weight Unquantization": bit replication).
const fn replicate(v: u32, n: u32, to: u32) -> u32 {
    if n == 0 {
        return 0;
    }
    let mut out = 0;
    let mut have = 0;
    while have < to {
        out = (out << n) | v;
        have += n;
    }
    out >> (have - to)
}

/// The bit pattern B of the unquantization tables, written as in the specification: most
/// significant bit first, `0`, or a letter naming a bit of the value's low bits (`a` bit 0,
/// `b` bit 1, ...).
const fn pattern(p: &[u8], m: u32) -> u32 {
    let mut out = 0;
    let mut i = 0;
    while i < p.len() {
        out <<= 1;
        if p[i] != b'0' {
            out |= bit(m, (p[i] - b'a') as u32);
        }
        i += 1;
    }
    out
}

/// Trit or quint value `d` with low bits `m`, unquantized with the table's B pattern and C: `T
/// = D C + B`, `T ^= A` (A: bit 0 of `m` in every bit), then `(A & top) | (T >> 2)`. `top` is
/// 0x80 for colours (9-bit A), 0x20 for weights (7-bit A).
const fn unq_tq(d: u32, m: u32, b: &[u8], c: u32, top: u32) -> u32 {
    let a = if m & 1 == 1 { (1 << b.len()) - 1 } else { 0 };
    let t = (d * c + pattern(b, m)) ^ a;
    (a & top) | (t >> 2)
}

/// The trit rows of "Color Unquantization Parameters" by low-bit count (1 to 6): B and C.
const COLOUR_TRIT: [(&[u8], u32); 6] = [
    (b"000000000", 204),
    (b"b000b0bb0", 93),
    (b"cb000cbcb", 44),
    (b"dcb000dcb", 22),
    (b"edcb000ed", 11),
    (b"fedcb000f", 5),
];

/// The quint rows of "Color Unquantization Parameters" by low-bit count (1 to 5): B and C.
const COLOUR_QUINT: [(&[u8], u32); 5] =
    [(b"000000000", 113), (b"b0000bb00", 54), (b"cb0000cbc", 26), (b"dcb0000dc", 13), (b"edcb0000e", 6)];

/// Colour endpoint values 0-255 per range ([`ISE`] index) and encoded value (`d << bits | m`:
/// trit or quint `d`, low bits `m`). Ranges below 6 values never hold colours (the bit budget
/// check guarantees at least 6); they read 0.
pub(super) const COLOUR_UNQ: [[u8; 256]; 22] = {
    let mut out = [[0u8; 256]; 22];
    let mut r = 0;
    while r < 22 {
        let Ise { kind, bits } = ISE[r];
        let mut v = 0;
        while v < 256 {
            let (d, m) = (v as u32 >> bits, v as u32 & ((1 << bits) - 1));
            out[r][v] = match kind {
                IseKind::Bits => replicate(m, bits, 8),
                IseKind::Trits if bits > 0 && d < 3 => {
                    let (b, c) = COLOUR_TRIT[bits as usize - 1];
                    unq_tq(d, m, b, c, 0x80)
                }
                IseKind::Quints if bits > 0 && d < 5 => {
                    let (b, c) = COLOUR_QUINT[bits as usize - 1];
                    unq_tq(d, m, b, c, 0x80)
                }
                _ => 0,
            } as u8;
            v += 1;
        }
        r += 1;
    }
    out
};

/// Weights 0-64 per range ([`ISE`] index, 1 to 12 hold weights) and encoded value (as in
/// [`COLOUR_UNQ`]): "Weight Unquantization", its table of B and C, the 0-bit trit (0, 32, 63)
/// and quint (0, 16, 32, 47, 63) values, then +1 above 32.
pub(super) const WEIGHT_UNQ: [[u8; 32]; 13] = {
    let mut out = [[0u8; 32]; 13];
    let mut r = 1;
    while r < 13 {
        let Ise { kind, bits } = ISE[r];
        let mut v = 0;
        while v < 32 {
            let (d, m) = (v as u32 >> bits, v as u32 & ((1 << bits) - 1));
            let w = match (kind, bits) {
                (IseKind::Bits, _) => replicate(m, bits, 6),
                (IseKind::Trits, 0) if d < 3 => [0, 32, 63][d as usize],
                (IseKind::Trits, 1) if d < 3 => unq_tq(d, m, b"0000000", 50, 0x20),
                (IseKind::Trits, 2) if d < 3 => unq_tq(d, m, b"b000b0b", 23, 0x20),
                (IseKind::Trits, 3) if d < 3 => unq_tq(d, m, b"cb000cb", 11, 0x20),
                (IseKind::Quints, 0) if d < 5 => [0, 16, 32, 47, 63][d as usize],
                (IseKind::Quints, 1) if d < 5 => unq_tq(d, m, b"0000000", 28, 0x20),
                (IseKind::Quints, 2) if d < 5 => unq_tq(d, m, b"b0000b0", 13, 0x20),
                _ => 0,
            };
            out[r][v] = (if w > 32 { w + 1 } else { w }) as u8;
            v += 1;
        }
        r += 1;
    }
    out
};

/// What the 11 block mode bits say, before the footprint is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ModeKind {
    /// A weight grid: see the other fields.
    Grid,
    /// An illegal encoding: reserved modes, more than 64 weights, or weights taking fewer than
    /// 24 or more than 96 bits ("Illegal Encodings").
    Error,
    /// A void extent (bits 0-8 `1_1111_1100`, bit 10 set; bit 11 must be set too): LDR or HDR
    /// by bit 9.
    Void {
        /// Bit 9: HDR (16-bit floats, which the crate does not decode: the error colour).
        hdr: bool,
    },
}

/// One block mode: the weight grid and how its weights are encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct BlockMode {
    /// Grid, error or void extent.
    pub(super) kind: ModeKind,
    /// Weight grid width.
    pub(super) gw: u8,
    /// Weight grid height.
    pub(super) gh: u8,
    /// Two weight planes.
    pub(super) dual: bool,
    /// The weight range, an [`ISE`] index (1 to 12).
    pub(super) range: u8,
    /// Weights in the block: `gw gh`, twice that with two planes.
    pub(super) count: u8,
    /// Bits the weights take.
    pub(super) bits: u8,
}

const ERROR_MODE: BlockMode =
    BlockMode { kind: ModeKind::Error, gw: 0, gh: 0, dual: false, range: 0, count: 0, bits: 0 };

/// The grid width and height of a block mode, after the 2D layout table of "Block Mode"
/// (A: bits 5-6, B: bits 7-8, or bits 9-10 in the `10` row): rows by bits 0-3 and 7-8.
const fn grid(m: u32) -> (u32, u32) {
    let a = (m >> 5) & 3;
    let b = (m >> 7) & 3;
    if m & 3 != 0 {
        match (m >> 2) & 3 {
            0 => (b + 4, a + 2),
            1 => (b + 8, a + 2),
            2 => (a + 2, b + 8),
            _ if m & 0x100 == 0 => (a + 2, (b & 1) + 6),
            _ => ((b & 1) + 2, a + 2),
        }
    } else {
        match b {
            0 => (12, a + 2),
            1 => (a + 2, 12),
            2 => (a + 6, ((m >> 9) & 3) + 6),
            _ if m & 0x20 == 0 => (6, 10),
            _ => (10, 6),
        }
    }
}

/// Block mode `m` (11 bits), "Block Mode". As in the crate, a void extent's block mode is
/// only bits 0-8 `1_1111_1100` and bit 10 (its coordinates are not checked).
const fn block_mode(m: u32) -> BlockMode {
    if m & 0x1ff == 0x1fc {
        return if m & 0x400 == 0 {
            ERROR_MODE
        } else {
            BlockMode { kind: ModeKind::Void { hdr: m & 0x200 != 0 }, ..ERROR_MODE }
        };
    }
    // Reserved: bits 0-3 zero, and bits 0-1 zero with bits 6-8 all set.
    if m & 0xf == 0 || (m & 3 == 0 && m & 0x1c0 == 0x1c0) {
        return ERROR_MODE;
    }
    let r = if m & 3 != 0 { (m >> 4) & 1 | (m & 3) << 1 } else { (m >> 4) & 1 | ((m >> 2) & 3) << 1 };
    let (gw, gh) = grid(m);
    // The `10` row (A+6 x B+6) uses bits 9-10 for B: no dual plane, low precision.
    let wide = m & 3 == 0 && (m >> 7) & 3 == 2;
    let dual = !wide && m & 0x400 != 0;
    let high = !wide && m & 0x200 != 0;
    let range = 1 + (r - 2) + if high { 6 } else { 0 };
    let count = gw * gh * if dual { 2 } else { 1 };
    if count > 64 {
        return ERROR_MODE;
    }
    let bits = ISE[range as usize].len(count);
    if bits < 24 || bits > 96 {
        return ERROR_MODE;
    }
    BlockMode {
        kind: ModeKind::Grid,
        gw: gw as u8,
        gh: gh as u8,
        dual,
        range: range as u8,
        count: count as u8,
        bits: bits as u8,
    }
}

/// [`block_mode`] of every 11-bit block mode.
pub(super) const BLOCK_MODES: [BlockMode; 2048] = {
    let mut t = [ERROR_MODE; 2048];
    let mut m = 0;
    while m < 2048 {
        t[m] = block_mode(m as u32);
        m += 1;
    }
    t
};

/// The colour range ([`ISE`] index) of `2 (k + 1)` endpoint values in `b` bits: the largest
/// whose encoding fits ("Color Endpoint Mode"); only read where `b` is at least
/// `ceil(13 (2 k + 2) / 5)`, so at least range 5 (6 values).
pub(super) const COLOUR_RANGE: [[u8; 128]; 9] = {
    let mut t = [[0u8; 128]; 9];
    let mut k = 0;
    while k < 9 {
        let mut b = 0;
        while b < 128 {
            let mut r = 0;
            while r + 1 < 22 && ISE[r + 1].len(2 * (k as u32 + 1)) <= b as u32 {
                r += 1;
            }
            t[k][b] = r as u8;
            b += 1;
        }
        k += 1;
    }
    t
};

/// The infill coordinate `gs` (grid position in sixteenths, "Weight Infill": `ds = (1024 +
/// n / 2) / (n - 1)`, `gs = (ds s (g - 1) + 32) >> 6`) of texel `s` for a footprint side `n`
/// (index) and grid side `g` (index); 0 where `n < 2` or `g < 1`. Where `gs >> 4` is the last
/// grid column its fraction is 0 for every side of the 14 footprints, so a neighbour past the
/// grid never weighs in.
pub(super) const AXIS: [[[u8; 12]; 13]; 13] = {
    let mut t = [[[0u8; 12]; 13]; 13];
    let mut n = 2;
    while n < 13 {
        let ds = (1024 + n / 2) / (n - 1);
        let mut g = 1;
        while g < 13 {
            let mut s = 0;
            while s < n {
                t[n][g][s] = ((ds * s * (g - 1) + 32) >> 6) as u8;
                s += 1;
            }
            g += 1;
        }
        n += 1;
    }
    t
};
