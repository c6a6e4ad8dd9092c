//! IDX command wrapping: XF commands sent by FE (or written by the driver to PGRAPH's PIPE
//! register) wrapped in an IDX command address.
//!
//! Source: XF overview, section "IDX command wrapping":
//! Celsius "bits 0-9: XF address, bits 10-13: XF command type, bit 14: set to 1";
//! Kelvin "bits 0-11 ... bits 12-15 ... bit 16"; Rankine "bits 0-12 ... bits 13-16 ... bit 17";
//! Curie "target code: set to 3?" with "Figure out how this works on Curie": not modelled.

use crate::cmd::{Addr, CmdType};
use crate::error::{Error, Result};
use crate::gen::{Family, Gpu};
use alloc::format;

/// The bit layout of a wrapped XF command for one family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct WrapLayout {
    /// Number of XF address bits (starting at bit 0).
    pub addr_bits: u32,
    /// First bit of the 4-bit command type.
    pub type_shift: u32,
    /// The marker bit, "set to 1 (identifies wrapped XF command)".
    pub marker_bit: u32,
}

impl WrapLayout {
    /// The layout for `gpu`; Curie is undocumented and gives [`Error::Unsupported`].
    pub fn of(gpu: Gpu) -> Result<WrapLayout> {
        let addr_bits = match gpu.family() {
            Family::Celsius => 10,
            Family::Kelvin => 12,
            Family::Rankine => 13,
            Family::Curie => {
                return Err(Error::Unsupported {
                    what: format!(
                        "IDX command wrapping on {gpu} (Curie) is undocumented: the XF overview \
                         gives only \"target code: set to 3?\" and asks to figure out how it works"
                    ),
                })
            }
        };
        Ok(WrapLayout { addr_bits, type_shift: addr_bits, marker_bit: addr_bits + 4 })
    }

    /// The address field mask.
    pub fn addr_mask(&self) -> u32 {
        (1 << self.addr_bits) - 1
    }
}

/// Wraps an XF command (type and address) into an IDX command address.
pub fn wrap(gpu: Gpu, cmd: CmdType, addr: Addr) -> Result<u32> {
    let l = WrapLayout::of(gpu)?;
    // The address field is exactly as wide as the IDX2XF address of the generation.
    let raw = Addr::new(gpu, addr.vector, addr.word)?.encode();
    Ok(1 << l.marker_bit | cmd.number() << l.type_shift | (raw & l.addr_mask()))
}

/// Unwraps an IDX command address into the XF command type and address it carries.
/// The marker bit must be set, bits above it must be clear, and the address word-aligned.
pub fn unwrap(gpu: Gpu, wrapped: u32) -> Result<(CmdType, Addr)> {
    let l = WrapLayout::of(gpu)?;
    if wrapped >> l.marker_bit & 1 == 0 {
        return Err(Error::Invalid {
            field: "wrapped command",
            value: u64::from(wrapped),
            rule: marker_rule(l.marker_bit),
        });
    }
    if wrapped >> (l.marker_bit + 1) != 0 {
        return Err(Error::OutOfRange {
            field: "wrapped command",
            value: u64::from(wrapped),
            max: u64::from((2u32 << l.marker_bit) - 1),
        });
    }
    let cmd = CmdType::from_number(wrapped >> l.type_shift & 0xf)?;
    let addr = Addr::decode(gpu, wrapped & l.addr_mask())?;
    Ok((cmd, addr))
}

fn marker_rule(bit: u32) -> &'static str {
    match bit {
        14 => "has bit 14 clear (a wrapped Celsius XF command sets bit 14)",
        16 => "has bit 16 clear (a wrapped Kelvin XF command sets bit 16)",
        _ => "has bit 17 clear (a wrapped Rankine XF command sets bit 17)",
    }
}
