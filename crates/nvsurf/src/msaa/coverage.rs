//! Coverage (CSAA): the per-pixel C value, where its bits are stored, and what it means.
//!
//! Rules from envytools `docs/hw/memory/g80-surface.rst`, "Multisampled surfaces":
//! - "The C component is 16 or 32 bits per pixel ... split into 8-bit chunks, starting from LSB,
//!   and each chunk is assigned to one of the full samples. For MS4_CS4 and MS8_CS8, only samples
//!   in the top line of each block get a chunk assigned, for MS4_CS12 all samples get a chunk.
//!   The chunks are assigned to samples ordered first by x coordinate of the sample, then by its y
//!   coordinate" (x varies fastest, as everywhere in the document).
//! - Each coverage sample "will contribute to the first full sample that they belong to, in order
//!   listed above, that has the relevant bit set in C ... If none of the C bits for a given
//!   coverage sample are set, the sample will default to contributing to the first sample in its
//!   belongs list." Full samples contribute to themselves; the count is the weight.
//! - "the bits in C component don't use this ordering and are sorted by sample id instead."
//!
//! ERRATA OPEN (CS4/CS8 coverage layout): NVIDIA's format names suggest 4 valid bits in every
//! sample instead; [`ChunkRule::FourBitsPerSample`] selects that reading. The document's rule is
//! the default.

use super::mode::MsMode;
use crate::error::{Error, Result};
use alloc::vec::Vec;

/// How the per-pixel C value is spread over the samples' 8-bit C fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ChunkRule {
    /// The document's rule: 8-bit chunks from the LSB; top-row samples for MS4_CS4/MS8_CS8,
    /// all samples for MS4_CS12.
    #[default]
    Document,
    /// ERRATA OPEN alternative for MS4_CS4 and MS8_CS8: 4 bits (the low nibble of the C field)
    /// in every full sample, samples ordered by x then y. MS4_CS12 keeps the document's rule.
    FourBitsPerSample,
}

/// Where one piece of the C value is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkSlot {
    /// The full sample whose C field holds the piece.
    pub sample: u8,
    /// Bit position of the piece in the per-pixel C value.
    pub c_shift: u8,
    /// Number of bits (8, or 4 under [`ChunkRule::FourBitsPerSample`]); taken from the low bits
    /// of the sample's C field.
    pub bits: u8,
}

fn c_bits(mode: MsMode) -> Result<u8> {
    mode.info().c_bits_per_pixel.ok_or_else(|| Error::Unsupported {
        field: "multisample mode",
        value: mode.name().into(),
        rule: if mode.is_csaa() {
            alloc::format!("the C component of {} is undocumented", mode.name())
        } else {
            alloc::format!("{} has no coverage samples (no C component)", mode.name())
        },
    })
}

/// The samples holding the C value of `mode`, in chunk order (LSB first).
pub fn c_chunk_samples(mode: MsMode, rule: ChunkRule) -> Result<Vec<ChunkSlot>> {
    let total = c_bits(mode)?;
    let info = mode.info();
    let nibbles = rule == ChunkRule::FourBitsPerSample && mode != MsMode::MS4_CS12;
    let (top_row_only, bits) = match (nibbles, mode) {
        (true, _) => (false, 4u8),
        (false, MsMode::MS4_CS12) => (false, 8),
        (false, _) => (true, 8),
    };
    let mut cells: Vec<(u8, u8, u8)> = info
        .full
        .iter()
        .filter_map(|f| f.grid_xy.map(|(x, y)| (y, x, f.id)))
        .filter(|&(y, _, _)| !top_row_only || y == 0)
        .collect();
    // x first, then y: sort by (y, x) so that x varies fastest.
    cells.sort_unstable();
    let slots: Vec<ChunkSlot> = cells
        .iter()
        .enumerate()
        .map(|(i, &(_, _, id))| ChunkSlot { sample: id, c_shift: i as u8 * bits, bits })
        .collect();
    debug_assert_eq!(slots.len() * usize::from(bits), usize::from(total));
    Ok(slots)
}

/// Builds the per-pixel C value from the samples' 8-bit C fields (`c_field_by_sample[s]` is the
/// C byte stored with full sample `s`).
pub fn assemble_c(mode: MsMode, rule: ChunkRule, c_field_by_sample: &[u8]) -> Result<u32> {
    let n = mode.full_samples() as usize;
    if c_field_by_sample.len() < n {
        return Err(Error::BufferTooSmall {
            what: "C fields of the pixel's samples",
            needed: n as u64,
            got: c_field_by_sample.len() as u64,
        });
    }
    let mut c = 0u32;
    for slot in c_chunk_samples(mode, rule)? {
        let mask = (1u32 << slot.bits) - 1;
        c |= (u32::from(c_field_by_sample[usize::from(slot.sample)]) & mask) << slot.c_shift;
    }
    Ok(c)
}

/// The inverse of [`assemble_c`]: the C field each full sample stores for the pixel value `c`
/// (samples that hold no chunk get 0).
pub fn split_c(mode: MsMode, rule: ChunkRule, c: u32) -> Result<Vec<u8>> {
    check_c(mode, c)?;
    let mut out = alloc::vec![0u8; mode.full_samples() as usize];
    for slot in c_chunk_samples(mode, rule)? {
        let mask = (1u32 << slot.bits) - 1;
        out[usize::from(slot.sample)] = ((c >> slot.c_shift) & mask) as u8;
    }
    Ok(out)
}

fn check_c(mode: MsMode, c: u32) -> Result<()> {
    let bits = c_bits(mode)?;
    if bits < 32 && c >> bits != 0 {
        return Err(Error::OutOfRange { field: "C value", value: u64::from(c), min: 0, max: (1u64 << bits) - 1 });
    }
    Ok(())
}

/// One coverage sample's resolve decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Contribution {
    /// The coverage sample id.
    pub coverage: u8,
    /// The full sample it contributes to.
    pub full: u8,
    /// False when no C bit was set and the default (first of the belongs-list) was taken.
    pub matched: bool,
}

/// For each coverage sample of `mode` (in id order), the full sample it contributes to, given
/// the per-pixel C value `c`.
pub fn contributions(mode: MsMode, c: u32) -> Result<Vec<Contribution>> {
    check_c(mode, c)?;
    let info = mode.info();
    let mut out = Vec::with_capacity(info.coverage.len());
    for cov in info.coverage {
        let (belongs, (lo, _)) = match (cov.belongs, cov.c_bits) {
            (Some(b), Some(bits)) => (b, bits),
            _ => {
                return Err(Error::Unsupported {
                    field: "multisample mode",
                    value: mode.name().into(),
                    rule: alloc::format!("the belongs-lists of {} are undocumented", mode.name()),
                })
            }
        };
        // Bit lo + i is the association with the i-th full sample of the sorted belongs-list.
        let mut sorted: Vec<u8> = belongs.to_vec();
        sorted.sort_unstable();
        let bit_of = |full: u8| -> bool {
            let i = sorted.iter().position(|&s| s == full).unwrap_or(0) as u32;
            (c >> (u32::from(lo) + i)) & 1 == 1
        };
        let chosen = belongs.iter().copied().find(|&f| bit_of(f));
        out.push(Contribution { coverage: cov.id, full: chosen.unwrap_or(belongs[0]), matched: chosen.is_some() });
    }
    Ok(out)
}

/// The weight of each full sample (indexed by sample id): 1 for itself plus the coverage samples
/// that contribute to it. Plain multisample modes give 1 for every sample (box average). The
/// weights sum to full + coverage samples.
pub fn weights(mode: MsMode, c: u32) -> Result<Vec<u32>> {
    let mut w = alloc::vec![1u32; mode.full_samples() as usize];
    if !mode.is_csaa() {
        return Ok(w);
    }
    for con in contributions(mode, c)? {
        w[usize::from(con.full)] += 1;
    }
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunk_slots_follow_the_document() {
        let s =
            |m, r| -> Vec<(u8, u8)> { c_chunk_samples(m, r).unwrap().iter().map(|c| (c.sample, c.c_shift)).collect() };
        // MS4_CS4: top row of the 2x2 block is samples 0 [0,0] and 1 [1,0].
        assert_eq!(s(MsMode::MS4_CS4, ChunkRule::Document), [(0, 0), (1, 8)]);
        // MS8_CS8: top row of the 4x2 block is 0 [0,0], 1 [1,0], 4 [2,0], 5 [3,0].
        assert_eq!(s(MsMode::MS8_CS8, ChunkRule::Document), [(0, 0), (1, 8), (4, 16), (5, 24)]);
        // MS4_CS12: every sample, x first: 0 [0,0], 1 [1,0], 2 [0,1], 3 [1,1].
        assert_eq!(s(MsMode::MS4_CS12, ChunkRule::Document), [(0, 0), (1, 8), (2, 16), (3, 24)]);
        assert_eq!(s(MsMode::MS4_CS4, ChunkRule::FourBitsPerSample), [(0, 0), (1, 4), (2, 8), (3, 12)]);
        assert!(matches!(c_chunk_samples(MsMode::MS4, ChunkRule::Document), Err(Error::Unsupported { .. })));
        assert!(matches!(c_chunk_samples(MsMode::MS8_CS24, ChunkRule::Document), Err(Error::Unsupported { .. })));
    }

    #[test]
    fn assemble_and_split_are_inverse() {
        for m in [MsMode::MS4_CS4, MsMode::MS4_CS12, MsMode::MS8_CS8] {
            for rule in [ChunkRule::Document, ChunkRule::FourBitsPerSample] {
                for c in [0u32, 0x1234, 0xffff, 0x8000_0001, 0xdead_beef] {
                    let bits = m.info().c_bits_per_pixel.unwrap();
                    let c = if bits == 16 { c & 0xffff } else { c };
                    let fields = split_c(m, rule, c).unwrap();
                    assert_eq!(assemble_c(m, rule, &fields).unwrap(), c, "{m} {rule:?} {c:#x}");
                }
            }
        }
        assert!(matches!(split_c(MsMode::MS4_CS4, ChunkRule::Document, 0x1_0000), Err(Error::OutOfRange { .. })));
        assert!(matches!(assemble_c(MsMode::MS8_CS8, ChunkRule::Document, &[0; 4]), Err(Error::BufferTooSmall { .. })));
    }
}
