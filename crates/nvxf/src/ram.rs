//! The RAMs behind the passthrough slot, their sizes per generation, and when a write command
//! sends the assembled vector to them (the commit point).
//!
//! Sizes are in 128-bit vectors (entries). The overview gives only some of them; the others
//! come from envytools, cited per entry in [`Ram::size`]. Each size carries its source.

use crate::cmd::CmdType;
use crate::gen::{Family, Gpu};

/// A RAM (or storage) fed through the passthrough slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Ram {
    /// XFCTX: "parameters for fixed-function processing and user programs".
    Xfctx,
    /// LTCTX: LT parameters, "3-element vectors of 22-bit floats".
    Ltctx,
    /// LTC0 \[NV10:NV30\].
    Ltc0,
    /// LTC1.
    Ltc1,
    /// LTC2.
    Ltc2,
    /// LTC3.
    Ltc3,
    /// XFPR \[NV20:\]: program instructions.
    Xfpr,
    /// XTRA \[NV30:NV41\]: "the extra XFPR RAM slots".
    Xtra,
    /// XFMODE \[NV10:NV40\]: one vector, or "two vectors on Rankine".
    Mode,
}

/// All RAMs.
pub const ALL_RAMS: [Ram; 9] =
    [Ram::Xfctx, Ram::Ltctx, Ram::Ltc0, Ram::Ltc1, Ram::Ltc2, Ram::Ltc3, Ram::Xfpr, Ram::Xtra, Ram::Mode];

/// A RAM size with where it comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RamSize {
    /// Number of entries (128-bit vectors; for LTC the entries the tables list).
    pub vectors: u32,
    /// The source of the number.
    pub source: &'static str,
}

const CTX_RST: &str = "envytools docs/hw/graph/xf/ctx.rst (highest listed entry + 1)";
const PGRAPH_H: &str = "envytools include/nvhw/pgraph.h (celsius_pipe_* arrays)";
const ISA_RST: &str = "envytools docs/hw/graph/xf/isa.rst";
const OVERVIEW: &str = "XF overview (envytools docs/hw/graph/xf/intro.rst)";
const KELVIN_C: &str = "envytools nvhw/pgraph_kelvin.c model, checked by hwtest (NV25/NV2A: 0x4c)";
const MODE_RST: &str = "envytools docs/hw/graph/xf/mode.rst";
/// Sources of the LT RAM sizes, by family (Curie has no LT).
const LT_SOURCES: [&str; 4] = [PGRAPH_H, CTX_RST, CTX_RST, ""];

impl Ram {
    /// The command type that feeds this RAM.
    pub fn cmd(self) -> CmdType {
        match self {
            Ram::Xfctx => CmdType::Xfctx,
            Ram::Ltctx => CmdType::Ltctx,
            Ram::Ltc0 => CmdType::Ltc0,
            Ram::Ltc1 => CmdType::Ltc1,
            Ram::Ltc2 => CmdType::Ltc2,
            Ram::Ltc3 => CmdType::Ltc3,
            Ram::Xfpr => CmdType::Xfpr,
            Ram::Xtra => CmdType::Xtra,
            Ram::Mode => CmdType::Mode,
        }
    }

    /// The RAM a command type feeds, if any.
    pub fn of_cmd(cmd: CmdType) -> Option<Ram> {
        ALL_RAMS.into_iter().find(|r| r.cmd() == cmd)
    }

    /// Lower-case name (`xfctx`).
    pub fn name(self) -> &'static str {
        self.cmd().name()
    }

    /// True for the LT RAMs, which hold 22-bit floats.
    pub fn is_lt(self) -> bool {
        matches!(self, Ram::Ltctx | Ram::Ltc0 | Ram::Ltc1 | Ram::Ltc2 | Ram::Ltc3)
    }

    /// True for LTC0-3.
    pub fn is_ltc(self) -> bool {
        matches!(self, Ram::Ltc0 | Ram::Ltc1 | Ram::Ltc2 | Ram::Ltc3)
    }

    /// Number of 32-bit components per entry under the overview: LTCTX is "Made of 3-element
    /// vectors", the others keep the whole 128-bit passthrough vector. The hardware rules keep
    /// one value per LTC entry: see [`crate::rules::components`].
    pub fn components(self) -> usize {
        match self {
            Ram::Ltctx => 3,
            _ => 4,
        }
    }

    /// The size of the RAM on `gpu`, or `None` when it does not exist there.
    ///
    /// - XFCTX: Celsius 0x3c (pgraph.h `celsius_pipe_xfrm[0x3c][4]`, and ctx.rst lists NV10
    ///   entries up to 0x3b); Kelvin 0xc0 (ctx.rst: USER starts at 0x60 on NV20, followed by
    ///   the 96 user constants of GL_NV_vertex_program); Rankine 0x19c (ctx.rst: USER at 0x9c
    ///   on NV30, followed by the 256 constants of GL_NV_vertex_program2: a derived value);
    ///   NV40/NV41 0x220 and NV43 0x1d4 (overview: "Shortened XFCTX from 0x220 words to 0x1d4
    ///   words"); NV44 is assumed equal to NV43 ("unknown changes from NV43").
    /// - LTCTX: NV10 0x30 (pgraph.h `celsius_pipe_light_v[0x30][3]`), NV20 0x4a, NV30 0x38
    ///   (ctx.rst); NV25, NV28 and NV2A 0x4c (envytools' Kelvin model as checked by `hwtest`:
    ///   two more entries than NV20; the overview: NV25 "has some minor changes in context
    ///   layout"); absent on Curie ("LT is no longer present").
    /// - LTC0-3: from the ctx.rst LTC table (NV10 cross-checked with pgraph.h
    ///   `celsius_pipe_light_sa[3]`, `sb[19]`, `sc[12]`, `sd[12]`); LTC0 is \[NV10:NV30\].
    /// - XFPR: "0x88" Kelvin, "0x118" Rankine, "0x220" Curie (isa.rst).
    /// - XTRA: "2 vectors" \[NV30:NV41\] (isa.rst).
    /// - MODE: one vector, two on Rankine (mode.rst); none on Curie (overview: "XFMODE is
    ///   gone").
    pub fn size(self, gpu: Gpu) -> Option<RamSize> {
        let f = gpu.family();
        let s = |vectors, source| Some(RamSize { vectors, source });
        // Sizes indexed by family (Celsius, Kelvin, Rankine, Curie); 0 = absent.
        let by_family = |sizes: [u32; 4], sources: [&'static str; 4]| {
            let i = f as usize;
            (sizes[i] != 0).then_some(RamSize { vectors: sizes[i], source: sources[i] })
        };
        match self {
            Ram::Xfctx => match (f, gpu) {
                (Family::Celsius, _) => s(0x3c, PGRAPH_H),
                (Family::Kelvin, _) => s(0xc0, CTX_RST),
                (Family::Rankine, _) => s(0x19c, CTX_RST),
                (_, Gpu::Nv40 | Gpu::Nv41) => s(0x220, OVERVIEW),
                (_, Gpu::Nv43) => s(0x1d4, OVERVIEW),
                _ => s(0x1d4, "assumed equal to NV43 (overview: NV44 'unknown changes from NV43')"),
            },
            Ram::Ltctx if matches!(gpu, Gpu::Nv25 | Gpu::Nv28 | Gpu::Nv2a) => s(0x4c, KELVIN_C),
            Ram::Ltctx => by_family([0x30, 0x4a, 0x38, 0], LT_SOURCES),
            Ram::Ltc0 => by_family([3, 4, 0, 0], LT_SOURCES),
            Ram::Ltc1 => by_family([0x13, 0x14, 0x15, 0], LT_SOURCES),
            Ram::Ltc2 => by_family([0x0c, 0x0f, 0x0d, 0], LT_SOURCES),
            Ram::Ltc3 => by_family([0x0c, 0x0e, 0x0f, 0], LT_SOURCES),
            Ram::Xfpr => match f {
                Family::Celsius => None,
                Family::Kelvin => s(0x88, ISA_RST),
                Family::Rankine => s(0x118, ISA_RST),
                Family::Curie => s(0x220, ISA_RST),
            },
            Ram::Xtra => gpu.in_range(0x30, Some(0x41)).then_some(RamSize { vectors: 2, source: ISA_RST }),
            Ram::Mode => match f {
                Family::Celsius | Family::Kelvin => s(1, MODE_RST),
                Family::Rankine => s(2, MODE_RST),
                Family::Curie => None,
            },
        }
    }
}

/// When a write command sends the passthrough slot downstream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum CommitRule {
    /// The hardware-tested commit points, per RAM and generation (the default):
    /// - Celsius (envytools `hwtest/pgraph_state_tests.cc`): XFCTX on word 3, and vectors
    ///   0x24-0x2b also on word 2 (`PipeWriteXfrmTest`); LTCTX on word 2 or 3
    ///   (`PipeWriteLightVTest`: `comp >= 2`); LTC on words 0, 1 and 3, not 2
    ///   (`PipeWriteLightS*Test`: `comp != 2`).
    /// - Kelvin and later (envytools `nvhw/pgraph_kelvin.c`): XFCTX on word 3 (a 64-bit pair
    ///   at word 2 includes it), LTCTX on word 2, XFPR and XTRA on every word, LTC on word 0.
    ///
    /// MODE commits on word 3 everywhere (`pgraph_flush_xf_mode` writes pairs ending at word 3).
    #[default]
    Hardware,
    /// The overview: "writing to word 3 completes the 128-bit vector in the VAB and send it
    /// downstream", for every command that sends anything (`--rules overview`).
    Document,
    /// The Kelvin rules of envytools `nvhw/pgraph_kelvin.c` on every generation (the option
    /// this model offered before the hardware rules became the default): XFCTX on word 3,
    /// LTCTX on word 2, XFPR, XTRA and LTC on every word, MODE on word 3.
    Envytools,
}

impl CommitRule {
    /// Lower-case name (`hardware`, `document`, `envytools`).
    pub fn name(self) -> &'static str {
        match self {
            CommitRule::Hardware => "hardware",
            CommitRule::Document => "document",
            CommitRule::Envytools => "envytools",
        }
    }

    /// True when writing `word` of `vector` with `cmd` on `gpu` sends the passthrough slot
    /// downstream.
    ///
    /// PASSTHRU sends on every write under every rule: IDX emits one PASSTHRU command per
    /// bundle ("the bundle will be submitted as payload in the PASSTHRU command, and a
    /// corresponding bundle token will be emitted on IDX2VTX"). NOP, SYNC and PARAM never send
    /// anything; RUN does not use the slot as a write target.
    pub fn commits(self, gpu: Gpu, cmd: CmdType, vector: u32, word: u32) -> bool {
        match cmd {
            CmdType::Passthru => true,
            CmdType::Nop | CmdType::Sync | CmdType::Param | CmdType::Run | CmdType::Vab => false,
            CmdType::Unk3 => false,
            _ => match self {
                CommitRule::Document => word == 3,
                CommitRule::Envytools => match cmd {
                    CmdType::Xfctx | CmdType::Mode => word == 3,
                    CmdType::Ltctx => word == 2,
                    _ => true,
                },
                CommitRule::Hardware if gpu.family() == Family::Celsius => match cmd {
                    CmdType::Xfctx => word == 3 || (word == 2 && (0x24..=0x2b).contains(&vector)),
                    CmdType::Ltctx => word >= 2,
                    CmdType::Ltc0 | CmdType::Ltc1 | CmdType::Ltc2 | CmdType::Ltc3 => word != 2,
                    _ => word == 3,
                },
                CommitRule::Hardware => match cmd {
                    CmdType::Xfctx | CmdType::Mode => word == 3,
                    CmdType::Ltctx => word == 2,
                    CmdType::Xfpr | CmdType::Xtra => true,
                    _ => word == 0,
                },
            },
        }
    }
}
