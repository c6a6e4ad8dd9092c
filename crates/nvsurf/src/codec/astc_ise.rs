//! Integer sequence decoding for the ASTC decoder (`astc`): a run of values packed as plain
//! bits, trits or quints, each unquantized through a table on the way out. Khronos Data Format
//! Specification 1.3, "ASTC Compressed Texture Image Formats", subsection "Integer Sequence
//! Encoding": values are stored from bit 0 up; a trit group is five values `m0 T0-1 m1 T2-3 m2
//! T4 m3 T5-6 m4 T7` (each `m` the value's low bits, T the packed trits), a quint group three
//! values `m0 Q0-2 m1 Q3-4 m2 Q5-6`.
//!
//! Whole groups are read, as the `astc-decode` crate reads them: the packed trits or quints of
//! a last, partial group come from whatever bits the stream holds there (the caller passes a
//! stream cut to its length, so past the stream they are zero).

use super::astc_tables::{Ise, IseKind, QUINTS, TRITS};

/// The most values one sequence holds: 64 weights, rounded up to whole trit (65) and quint
/// (66) groups.
pub(super) const MAX_VALUES: usize = 66;

/// Up to 64 bits of the sequence from bit `at` (zeros past bit 127).
#[inline(always)]
fn window(data: u128, at: u32) -> u64 {
    data.checked_shr(at).unwrap_or(0) as u64
}

/// The next `n` bits (at most 8) of a window.
#[inline(always)]
fn take(w: &mut u64, n: u32) -> u32 {
    let v = (*w as u32) & ((1u32 << n) - 1);
    *w >>= n;
    v
}

/// Decodes `n` values of range `ise` from `data` (bit 0 first) into `out` (at least
/// [`MAX_VALUES`] long), each value through `table`, indexed by `d << bits | m` (`d` the trit
/// or quint, 0 for plain bits; `m` the low bits). `ise.bits` is at most 8. A group of values
/// (five with trits, three with quints, up to eight plain ones: at most 48 bits) is read from
/// one 64-bit window.
#[inline]
pub(super) fn decode<const N: usize>(data: u128, ise: Ise, n: usize, table: &[u8; N], out: &mut [u8; MAX_VALUES]) {
    let b = ise.bits.min(8);
    let n = n.min(MAX_VALUES);
    let look = |v: u32| table[v as usize & (N - 1)];
    match ise.kind {
        IseKind::Bits => {
            // Six values a window (at most 48 bits).
            for (k, group) in out.chunks_mut(6).take(n.div_ceil(6)).enumerate() {
                let mut w = window(data, 6 * b * k as u32);
                for o in group {
                    *o = look(take(&mut w, b));
                }
            }
        }
        IseKind::Trits => {
            for (k, group) in out.chunks_exact_mut(5).take(n.div_ceil(5)).enumerate() {
                let mut w = window(data, (5 * b + 8) * k as u32);
                let m0 = take(&mut w, b);
                let mut t = take(&mut w, 2);
                let m1 = take(&mut w, b);
                t |= take(&mut w, 2) << 2;
                let m2 = take(&mut w, b);
                t |= take(&mut w, 1) << 4;
                let m3 = take(&mut w, b);
                t |= take(&mut w, 2) << 5;
                let m4 = take(&mut w, b);
                t |= take(&mut w, 1) << 7;
                let d = TRITS[t as usize];
                for (o, (m, d)) in group.iter_mut().zip([m0, m1, m2, m3, m4].into_iter().zip(d)) {
                    *o = look(u32::from(d) << b | m);
                }
            }
        }
        IseKind::Quints => {
            for (k, group) in out.chunks_exact_mut(3).take(n.div_ceil(3)).enumerate() {
                let mut w = window(data, (3 * b + 7) * k as u32);
                let m0 = take(&mut w, b);
                let mut q = take(&mut w, 3);
                let m1 = take(&mut w, b);
                q |= take(&mut w, 2) << 3;
                let m2 = take(&mut w, b);
                q |= take(&mut w, 2) << 5;
                let d = QUINTS[q as usize];
                for (o, (m, d)) in group.iter_mut().zip([m0, m1, m2].into_iter().zip(d)) {
                    *o = look(u32::from(d) << b | m);
                }
            }
        }
    }
}
