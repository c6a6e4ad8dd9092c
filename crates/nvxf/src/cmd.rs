//! IDX2XF commands: the 16 command types, the address layout, and the operations IDX can
//! perform on the interface (32-bit and 64-bit writes, reads, the vertex trigger).
//!
//! Source: XF overview (envytools `docs/hw/graph/xf/intro.rst`), section "IDX2XF: the command
//! interface".

use crate::error::{unknown, Error, Result};
use crate::gen::{Family, Gpu};
use alloc::format;

/// A 4-bit IDX2XF command type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CmdType {
    /// 0x0 NOP: "Writes store the payload in VAB passthrough slot and do nothing."
    Nop,
    /// 0x1 VAB: "Writes or reads VAB words."
    Vab,
    /// 0x2 XFPR \[NV20:\]: program instructions.
    Xfpr,
    /// 0x3: not listed by the document (no such command is known).
    Unk3,
    /// 0x4 PARAM [NV20:NV41?]: gathers the vertex state program parameter.
    Param,
    /// 0x5 PASSTHRU: passes its payload to XF2VTX.
    Passthru,
    /// 0x6 RUN [NV20:NV41?]: starts a vertex state program.
    Run,
    /// 0x7 MODE \[NV10:NV40\]: XFMODE.
    Mode,
    /// 0x8 XTRA \[NV30:NV41\]: the extra XFPR RAM slots.
    Xtra,
    /// 0x9 XFCTX.
    Xfctx,
    /// 0xa LTCTX.
    Ltctx,
    /// 0xb LTC0 \[NV10:NV30\].
    Ltc0,
    /// 0xc LTC1.
    Ltc1,
    /// 0xd LTC2.
    Ltc2,
    /// 0xe LTC3.
    Ltc3,
    /// 0xf SYNC: "Performs a full XF barrier".
    Sync,
}

/// All 16 command types, by number.
pub const ALL_CMD_TYPES: [CmdType; 16] = [
    CmdType::Nop,
    CmdType::Vab,
    CmdType::Xfpr,
    CmdType::Unk3,
    CmdType::Param,
    CmdType::Passthru,
    CmdType::Run,
    CmdType::Mode,
    CmdType::Xtra,
    CmdType::Xfctx,
    CmdType::Ltctx,
    CmdType::Ltc0,
    CmdType::Ltc1,
    CmdType::Ltc2,
    CmdType::Ltc3,
    CmdType::Sync,
];

const CMD_NAMES: [&str; 16] = [
    "nop", "vab", "xfpr", "unk3", "param", "passthru", "run", "mode", "xtra", "xfctx", "ltctx", "ltc0", "ltc1", "ltc2",
    "ltc3", "sync",
];

/// Whether a command type is readable, as the document states it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Readable {
    /// "Readable" (or, for VAB, "Writes or reads VAB words").
    Yes,
    /// "Not readable."
    No,
    /// The document does not say (XFPR, PARAM, RUN, XTRA, none of which exists on Celsius,
    /// the only family with read commands).
    Unstated,
}

/// A chipset range `[lo:hi]` as the document writes it, with `?` marking a doubtful end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Availability {
    /// First chipset (inclusive).
    pub lo: u32,
    /// End chipset (exclusive), `None` when open-ended.
    pub hi: Option<u32>,
    /// True when the document marks the end with `?` (PARAM and RUN: `[NV20:NV41?]`).
    pub hi_doubtful: bool,
}

impl CmdType {
    /// The command type with this 4-bit number.
    pub fn from_number(n: u32) -> Result<CmdType> {
        ALL_CMD_TYPES.get(n as usize).copied().ok_or(Error::OutOfRange {
            field: "command type",
            value: u64::from(n),
            max: 15,
        })
    }

    /// The 4-bit number.
    pub fn number(self) -> u32 {
        self as u32
    }

    /// The lower-case name used in traces and JSON (`xfctx`).
    pub fn name(self) -> &'static str {
        CMD_NAMES[self as usize]
    }

    /// All names (for suggestions).
    pub fn names() -> &'static [&'static str] {
        &CMD_NAMES
    }

    /// Looks a command type up by name (case-insensitive) or number (`9`, `0x9`).
    pub fn parse(s: &str) -> Result<CmdType> {
        let t = s.trim();
        if let Some(n) = crate::number::parse_u32(t) {
            return CmdType::from_number(n);
        }
        let l = t.to_ascii_lowercase();
        CMD_NAMES
            .iter()
            .position(|n| *n == l)
            .map(|i| ALL_CMD_TYPES[i])
            .ok_or_else(|| unknown("command", t, &CMD_NAMES))
    }

    /// The generations where the document says this command exists, as a chipset range;
    /// `None` for 0x3, which the document does not list.
    pub fn availability(self) -> Option<Availability> {
        let (lo, hi, d) = match self {
            CmdType::Unk3 => return None,
            CmdType::Xfpr => (0x20, None, false),
            CmdType::Param | CmdType::Run => (0x20, Some(0x41), true),
            CmdType::Mode => (0x10, Some(0x40), false),
            CmdType::Xtra => (0x30, Some(0x41), false),
            CmdType::Ltc0 => (0x10, Some(0x30), false),
            _ => (0x10, None, false),
        };
        Some(Availability { lo, hi, hi_doubtful: d })
    }

    /// True when the command exists on `gpu`.
    pub fn exists_on(self, gpu: Gpu) -> bool {
        self.availability().is_some_and(|a| gpu.in_range(a.lo, a.hi))
    }

    /// The availability as the document writes it (`[NV20:NV41?]`, `all`, `none`).
    pub fn availability_text(self) -> alloc::string::String {
        match self.availability() {
            None => "none".into(),
            Some(Availability { lo: 0x10, hi: None, .. }) => "all".into(),
            Some(a) => format!(
                "[NV{:X}:{}{}]",
                a.lo,
                a.hi.map(|h| format!("NV{h:X}")).unwrap_or_default(),
                if a.hi_doubtful { "?" } else { "" }
            ),
        }
    }

    /// Whether reads of this type are valid, as the document states it.
    pub fn readable(self) -> Readable {
        match self {
            CmdType::Vab
            | CmdType::Xfctx
            | CmdType::Ltctx
            | CmdType::Ltc0
            | CmdType::Ltc1
            | CmdType::Ltc2
            | CmdType::Ltc3 => Readable::Yes,
            CmdType::Nop | CmdType::Passthru | CmdType::Mode | CmdType::Sync | CmdType::Unk3 => Readable::No,
            CmdType::Xfpr | CmdType::Param | CmdType::Run | CmdType::Xtra => Readable::Unstated,
        }
    }

    /// True for the commands that assemble their payload in the VAB passthrough slot
    /// (section "The passthrough slot"): every write command but VAB and RUN ("RUN (doesn't
    /// write the slot, merely reads the value left by the PARAM command)").
    pub fn writes_pass_slot(self) -> bool {
        !matches!(self, CmdType::Vab | CmdType::Run | CmdType::Unk3)
    }
}

impl core::fmt::Display for CmdType {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// Names of the four words of a vector: "0 is the highest word (or the X component), while 3
/// is the lowest word (or the W component)".
pub const WORD_NAMES: [&str; 4] = ["X", "Y", "Z", "W"];

/// A decoded IDX2XF address: a vector index and a word (0 = X, the highest; 3 = W).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Addr {
    /// The 128-bit vector index in its space (bits 4 and up).
    pub vector: u32,
    /// The 32-bit word in the vector (bits 2-3): 0 = X (highest) .. 3 = W (lowest).
    pub word: u32,
}

impl Addr {
    /// Builds an address, checking the vector fits the generation's field and word < 4.
    pub fn new(gpu: Gpu, vector: u32, word: u32) -> Result<Addr> {
        let max = (1u32 << gpu.vector_bits()) - 1;
        if vector > max {
            return Err(Error::OutOfRange { field: "vector index", value: u64::from(vector), max: u64::from(max) });
        }
        if word > 3 {
            return Err(Error::OutOfRange { field: "word", value: u64::from(word), max: 3 });
        }
        Ok(Addr { vector, word })
    }

    /// Splits a raw byte address: bits 0-1 must be 0, bits 2-3 are the word, bits 4 and up
    /// (up to [`Gpu::address_bits`]) are the vector.
    pub fn decode(gpu: Gpu, raw: u32) -> Result<Addr> {
        if raw & 3 != 0 {
            return Err(Error::Invalid {
                field: "address",
                value: u64::from(raw),
                rule: "is not word-aligned (bits 0-1 must be 0)",
            });
        }
        let max = (1u64 << gpu.address_bits()) - 4;
        if u64::from(raw) > max {
            return Err(Error::OutOfRange { field: "address", value: u64::from(raw), max });
        }
        Ok(Addr { vector: raw >> 4, word: (raw >> 2) & 3 })
    }

    /// The raw byte address (`vector << 4 | word << 2`).
    pub fn encode(self) -> u32 {
        self.vector << 4 | self.word << 2
    }

    /// The component name of the word (`X`, `Y`, `Z`, `W`).
    pub fn word_name(self) -> &'static str {
        WORD_NAMES[(self.word & 3) as usize]
    }
}

/// The payload of a write: "a 32-bit or 64-bit payload".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Payload {
    /// One 32-bit word.
    One(u32),
    /// "an aligned pair of 32-bit words": the first goes to the addressed (even) word, the
    /// second to the next one.
    Pair(u32, u32),
}

impl Payload {
    /// The (word index, value) pairs written, starting at `first_word`.
    pub fn placed(&self, first_word: u32) -> impl Iterator<Item = (u32, u32)> {
        let (a, b) = match *self {
            Payload::One(a) => (a, None),
            Payload::Pair(a, b) => (a, Some(b)),
        };
        core::iter::once((first_word, a)).chain(b.map(|b| (first_word + 1, b)))
    }

    /// Number of 32-bit words (1 or 2).
    pub fn len(&self) -> u32 {
        match self {
            Payload::One(_) => 1,
            Payload::Pair(..) => 2,
        }
    }

    /// Always false: a payload has at least one word.
    pub fn is_empty(&self) -> bool {
        false
    }
}

/// One operation on the IDX2XF interface (plus the IDX2VTX bundle token that must accompany
/// PASSTHRU).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    /// A write command.
    Write {
        /// Command type.
        cmd: CmdType,
        /// Target address.
        addr: Addr,
        /// 32-bit or 64-bit payload.
        data: Payload,
    },
    /// A read command [Celsius only].
    Read {
        /// Command type.
        cmd: CmdType,
        /// Target address.
        addr: Addr,
    },
    /// The vertex trigger: "starts processing a vertex".
    Vertex,
    /// A BUNDLE token on the IDX2VTX side FIFO: it tells VTX to expect one PASSTHRU payload.
    Idx2VtxBundle,
}

impl Op {
    /// Builds a checked write: a 64-bit payload must start at an even word ("an aligned pair
    /// of 32-bit words").
    pub fn write(cmd: CmdType, addr: Addr, data: Payload) -> Result<Op> {
        if matches!(data, Payload::Pair(..)) && !addr.word.is_multiple_of(2) {
            return Err(Error::Invalid {
                field: "64-bit write word",
                value: u64::from(addr.word),
                rule: "is not even (a 64-bit write targets an aligned pair of words)",
            });
        }
        Ok(Op::Write { cmd, addr, data })
    }

    /// The operation name used in traces and JSON (`write`, `read`, `vertex`, `idx2vtx`).
    pub fn name(&self) -> &'static str {
        match self {
            Op::Write { .. } => "write",
            Op::Read { .. } => "read",
            Op::Vertex => "vertex",
            Op::Idx2VtxBundle => "idx2vtx",
        }
    }
}

/// The family-level summary of which command types exist, for listings.
pub fn commands_on(gpu: Gpu) -> impl Iterator<Item = CmdType> {
    ALL_CMD_TYPES.into_iter().filter(move |c| c.exists_on(gpu))
}

/// True when the generation's write commands other than VAB can be modelled: Curie has no
/// passthrough slot and the document asks "How are things assembled on Curie?".
pub fn pass_assembly_documented(gpu: Gpu) -> bool {
    gpu.family() != Family::Curie
}
