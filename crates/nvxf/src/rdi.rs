//! RDI views of the VAB.
//!
//! Source: XF overview, section "RDI access": "On Kelvin and Rankine, VAB can be accessed
//! through RDI as space 0x15. This space is made of 128-bit little-endian quaadwords. When
//! writing, a complete 128-bit quadword must be written at once, or data will be damaged."
//! Words are reversed with respect to IDX2XF: bits 0-31 are W (word 3) ... bits 96-127 are X
//! (word 0).
//!
//! The overview documents RDI only for the VAB; envytools' other XF pages leave "RDI access"
//! as "write me", so the other RAMs have no RDI view here (asking gives `Unsupported`).

use crate::error::{Error, Result};
use crate::gen::Gpu;
use crate::vab::Vector;
use alloc::format;
use alloc::vec::Vec;

/// The RDI space of the VAB.
pub const VAB_SPACE: u32 = 0x15;

/// Bytes per RDI quadword.
pub const QUADWORD_BYTES: usize = 16;

/// The RDI spaces this model knows: `(space, name)`.
pub const SPACES: [(u32, &str); 1] = [(VAB_SPACE, "vab")];

/// Looks an RDI space up by name (`vab`) or number (`0x15`).
pub fn space_by_name(s: &str) -> Result<u32> {
    if let Some(n) = crate::number::parse_u32(s) {
        if SPACES.iter().any(|(id, _)| *id == n) {
            return Ok(n);
        }
        return Err(Error::Unsupported {
            what: format!("RDI space {n:#x} is not documented for XF (only space 0x15, the VAB, is)"),
        });
    }
    SPACES
        .iter()
        .find(|(_, name)| name.eq_ignore_ascii_case(s.trim()))
        .map(|(id, _)| *id)
        .ok_or_else(|| crate::error::unknown("RDI space", s, &["vab"]))
}

/// Checks that `gpu` has the VAB RDI view ("On Kelvin and Rankine").
pub fn check_gpu(gpu: Gpu) -> Result<()> {
    if gpu.has_rdi_vab() {
        Ok(())
    } else {
        Err(Error::Unsupported {
            what: format!(
                "{gpu} ({}) has no documented RDI view of the VAB (only Kelvin and Rankine do)",
                gpu.family()
            ),
        })
    }
}

/// Byte offset, inside a quadword, of IDX2XF word `word` (0 = X -> 0xc, 3 = W -> 0x0).
pub fn word_offset(word: u32) -> u32 {
    (3 - (word & 3)) * 4
}

/// The RDI byte address of IDX2XF (slot, word); the slot's quadword must fit in 32 bits.
pub fn rdi_address(slot: u32, word: u32) -> Result<u32> {
    slot.checked_mul(QUADWORD_BYTES as u32)
        .and_then(|a| a.checked_add(word_offset(word)))
        .ok_or(Error::Overflow { field: "RDI address of slot", value: u64::from(slot) })
}

/// The IDX2XF (slot, word) at an RDI byte address (must be 4-byte aligned).
pub fn from_rdi_address(gpu: Gpu, addr: u32) -> Result<(u32, u32)> {
    check_gpu(gpu)?;
    if !addr.is_multiple_of(4) {
        return Err(Error::Invalid { field: "RDI address", value: u64::from(addr), rule: "is not a multiple of 4" });
    }
    let slot = addr / QUADWORD_BYTES as u32;
    let max = gpu.vab_slots() as u64 * QUADWORD_BYTES as u64 - 4;
    if u64::from(addr) > max {
        return Err(Error::OutOfRange { field: "RDI address", value: u64::from(addr), max });
    }
    Ok((slot, 3 - (addr % 16) / 4))
}

/// The 128-bit RDI quadword of a VAB vector (W in bits 0-31, X in bits 96-127).
pub fn to_quadword(v: &Vector) -> u128 {
    u128::from(v[3]) | u128::from(v[2]) << 32 | u128::from(v[1]) << 64 | u128::from(v[0]) << 96
}

/// The VAB vector of an RDI quadword.
pub fn from_quadword(q: u128) -> Vector {
    [(q >> 96) as u32, (q >> 64) as u32, (q >> 32) as u32, q as u32]
}

/// The little-endian RDI bytes of a whole VAB (16 bytes per slot).
pub fn vab_to_bytes(vab: &[Vector]) -> Vec<u8> {
    let mut out = Vec::with_capacity(vab.len() * QUADWORD_BYTES);
    for v in vab {
        out.extend_from_slice(&to_quadword(v).to_le_bytes());
    }
    out
}

/// The VAB vectors of RDI bytes; the length must be a whole number of quadwords and at most
/// the VAB of `gpu`.
pub fn bytes_to_vab(gpu: Gpu, bytes: &[u8]) -> Result<Vec<Vector>> {
    check_gpu(gpu)?;
    if !bytes.len().is_multiple_of(QUADWORD_BYTES) {
        return Err(Error::Invalid {
            field: "RDI byte count",
            value: bytes.len() as u64,
            rule: "is not a multiple of 16 (whole 128-bit quadwords)",
        });
    }
    let max = gpu.vab_slots() * QUADWORD_BYTES;
    if bytes.len() > max {
        return Err(Error::OutOfRange { field: "RDI byte count", value: bytes.len() as u64, max: max as u64 });
    }
    Ok(bytes
        .chunks_exact(QUADWORD_BYTES)
        .map(|c| {
            let mut q = [0u8; 16];
            q.copy_from_slice(c);
            from_quadword(u128::from_le_bytes(q))
        })
        .collect())
}

/// A quadword that an RDI write touched only in part: "data will be damaged".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Damage {
    /// The VAB slot (quadword index).
    pub slot: u32,
    /// How many of its 16 bytes the write covered.
    pub bytes_written: u32,
}

/// Writes `bytes` at RDI byte address `addr` of the VAB. Whole quadwords are stored exactly;
/// every quadword covered only in part is reported as [`Damage`]. The model still stores the
/// written bytes of a damaged quadword, but hardware gives no guarantee about that quadword's
/// contents afterwards.
pub fn write(gpu: Gpu, vab: &mut [Vector], addr: u32, bytes: &[u8]) -> Result<Vec<Damage>> {
    check_gpu(gpu)?;
    let total = vab.len().min(gpu.vab_slots()) * QUADWORD_BYTES;
    let start = addr as usize;
    let end = start.checked_add(bytes.len()).ok_or(Error::Invalid {
        field: "RDI address",
        value: u64::from(addr),
        rule: "plus the byte count overflows",
    })?;
    if end > total {
        return Err(Error::OutOfRange { field: "RDI end address", value: end as u64, max: total as u64 });
    }
    let mut image = vab_to_bytes(&vab[..total / QUADWORD_BYTES]);
    image[start..end].copy_from_slice(bytes);
    let mut damage = Vec::new();
    let first = start / QUADWORD_BYTES;
    let last = end.div_ceil(QUADWORD_BYTES);
    for q in first..last {
        let lo = start.max(q * QUADWORD_BYTES);
        let hi = end.min((q + 1) * QUADWORD_BYTES);
        if hi - lo != QUADWORD_BYTES {
            damage.push(Damage { slot: q as u32, bytes_written: (hi - lo) as u32 });
        }
    }
    let new = bytes_to_vab(gpu, &image)?;
    vab[..new.len()].copy_from_slice(&new);
    Ok(damage)
}
