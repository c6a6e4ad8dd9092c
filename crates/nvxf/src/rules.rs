//! The two rule sets of the model: the hardware-tested rules (the default) and the XF
//! overview's general description.
//!
//! envytools holds rules that its `hwtest` checked on real NV10-NV3x chips (Celsius PIPE
//! writes in `hwtest/pgraph_state_tests.cc`, the Kelvin/Rankine model in
//! `nvhw/pgraph_kelvin.c` that `hwtest` runs against the chips). Where they and the overview
//! (`docs/hw/graph/xf/intro.rst`) disagree, the hardware wins (the project's ERRATA); the
//! overview's behaviour stays selectable as [`Rules::Overview`].

use crate::cmd::CmdType;
use crate::error::{unknown, Result};
use crate::gen::{Family, Gpu};
use crate::ram::Ram;

/// Which rule set the model follows for everything that is not a fine-grained option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Rules {
    /// The rules envytools' `hwtest` checked on real chips: per-RAM commit points, Celsius
    /// address wrapping, the fixed LTC entry 0, the LT conversions, the XFPR stored width, the
    /// XTRA TIMEOUT register. The default.
    #[default]
    Hardware,
    /// The XF overview's general rules ("writing to word 3 completes the 128-bit vector"),
    /// also accepted under its old name `document`.
    Overview,
}

impl Rules {
    /// Lower-case name (`hardware`, `overview`).
    pub fn name(self) -> &'static str {
        match self {
            Rules::Hardware => "hardware",
            Rules::Overview => "overview",
        }
    }

    /// Parses `hardware`, `overview` or its alias `document` (case-insensitive).
    pub fn parse(s: &str) -> Result<Rules> {
        match s.trim().to_ascii_lowercase().as_str() {
            "hardware" => Ok(Rules::Hardware),
            "overview" | "document" => Ok(Rules::Overview),
            _ => Err(unknown("rules", s, &["hardware", "overview", "document"])),
        }
    }
}

/// Whether Curie (NV40+) has a passthrough VAB slot.
///
/// The overview says "there is no passthrough slot" on Curie. envytools' model keeps a 17th
/// slot on every Kelvin-and-later chip and stores PASSTHRU data there, but marks that `XXX`,
/// and its state tests never ran on Curie (`hwtest/pgraph_state_tests.cc`,
/// `PGraphStateTests::supported` is `card_type < 0x40`). No hardware evidence backs the slot,
/// so the default is the overview's [`CuriePass::None`]; [`CuriePass::Envytools`] selects it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum CuriePass {
    /// No passthrough slot: 16 VAB slots, non-VAB writes are ignored (overview).
    #[default]
    None,
    /// envytools' untested 17th slot (16): non-VAB writes assemble there as on Rankine.
    Envytools,
}

impl CuriePass {
    /// Lower-case name (`none`, `envytools`).
    pub fn name(self) -> &'static str {
        match self {
            CuriePass::None => "none",
            CuriePass::Envytools => "envytools",
        }
    }
}

/// The mask applied to the vector index of a `cmd` write (or read) when the hardware wraps
/// the address instead of dropping it; `None` when a write past the end is dropped.
///
/// Celsius wraps VAB addresses to bits 4-6, LTC0 to bits 4-5, LTC1 to bits 4-8 and LTC2/LTC3
/// to bits 4-7 (envytools `hwtest/pgraph_state_tests.cc`: `PipeWriteVtxTest` extracts 3 bits,
/// `PipeWriteLightSATest` 2, `...SBTest` 5, `...SCTest`/`...SDTest` 4). Kelvin and later drop
/// (envytools `nvhw/pgraph_kelvin.c`: `which >= 0x88` / `0x118` returns).
pub fn address_mask(rules: Rules, gpu: Gpu, cmd: CmdType) -> Option<u32> {
    if rules != Rules::Hardware || gpu.family() != Family::Celsius {
        return None;
    }
    match cmd {
        CmdType::Vab => Some(0x7),
        CmdType::Ltc0 => Some(0x3),
        CmdType::Ltc1 => Some(0x1f),
        CmdType::Ltc2 | CmdType::Ltc3 => Some(0xf),
        _ => None,
    }
}

/// True when entry 0 of `ram` is a fixed constant that ignores writes: the Celsius LTCs
/// (`hwtest/pgraph_state_tests.cc`, `PipeWriteLightS*Test` store only when `which != 0`;
/// `docs/hw/graph/xf/ctx.rst` lists NV10 LTC entry 0 as "[const 1.0]" / "[const 0.0]").
pub fn fixed_entry0(rules: Rules, gpu: Gpu, ram: Ram) -> bool {
    rules == Rules::Hardware && gpu.family() == Family::Celsius && ram.is_ltc()
}

/// Number of 32-bit values an entry of `ram` keeps: LTCTX 3 ("3-element vectors"); under
/// the hardware rules an LTC entry is one value (word 0 of the slot: `PipeWriteLightS*Test`
/// store `junk[0]`, `pgraph_ld_ltc` writes word 0); everything else 4.
pub fn components(rules: Rules, ram: Ram) -> usize {
    if ram.is_ltc() && rules == Rules::Hardware {
        1
    } else {
        ram.components()
    }
}

/// The bits of each IDX2XF word (0 = X .. 3 = W) that `ram` stores on `gpu`.
///
/// - XFPR, Kelvin: X is dropped and Y keeps its low 28 bits (`pgraph_ld_xfpr`: columns
///   `W, Z, Y & 0x0fffffff, 0`).
/// - XFPR, Rankine (and Curie with envytools' slot): X keeps its low 25 bits, 121 bits in all
///   (`pgraph_ld_xfpr`: `X & 0x01ffffff`; ERRATA E20).
/// - XTRA vectors 0-1 keep bits 0-8 and 16-24 of every word (`pgraph_ld_xfunk8` packs those
///   72 bits).
pub fn stored_mask(rules: Rules, gpu: Gpu, ram: Ram) -> [u32; 4] {
    let all = [u32::MAX; 4];
    if rules != Rules::Hardware {
        return all;
    }
    match (ram, gpu.family()) {
        (Ram::Xfpr, Family::Kelvin) => [0, 0x0fff_ffff, u32::MAX, u32::MAX],
        (Ram::Xfpr, Family::Rankine | Family::Curie) => [0x01ff_ffff, u32::MAX, u32::MAX, u32::MAX],
        (Ram::Xtra, _) => [0x01ff_01ff; 4],
        _ => all,
    }
}

/// The XTRA vector that is the program TIMEOUT register under the hardware rules
/// (`pgraph_ld_xfunk8`: vector 2 stores `word 0 & 0xffff`; RDI reads it at 0x10:0x11a0).
pub const XTRA_TIMEOUT_VECTOR: u32 = 2;

/// The TIMEOUT register's bits (`& 0xffff`).
pub const XTRA_TIMEOUT_MASK: u32 = 0xffff;

/// True when the generation has the XTRA TIMEOUT register under `rules`.
pub fn has_timeout(rules: Rules, gpu: Gpu) -> bool {
    rules == Rules::Hardware && Ram::Xtra.size(gpu).is_some()
}
