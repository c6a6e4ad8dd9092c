//! The VAB (vertex attribute buffer): its slots, their fixed-function meanings, and the VAB
//! command's write rules.
//!
//! Source: XF overview, section "VAB: vertex assembly buffer" and "VAB command"; the NV2A fog
//! alternative is the OPEN erratum "NV2A (Xbox) fog coordinate".

use crate::float::ONE;
use crate::gen::{Family, Gpu};

/// One 128-bit VAB slot: four 32-bit words, word 0 = X (the highest) .. word 3 = W.
pub type Vector = [u32; 4];

/// Celsius slot names: "0: OPOS ... 7: PASS".
pub const CELSIUS_SLOTS: [&str; 8] = ["OPOS", "COL0", "COL1F", "TXC0", "TXC1", "NRML", "WGHT", "PASS"];

/// Kelvin fixed-function interpretation of the 16 input attributes ("6-8: not used",
/// "13-15: not used" are empty strings).
pub const KELVIN_FF: [&str; 16] =
    ["OPOS", "WGHT", "NRML", "COL0", "COL1", "FOGC", "", "", "", "TXC0", "TXC1", "TXC2", "TXC3", "", "", ""];

/// Rankine and Curie fixed-function interpretation ("6-7: not used", "8-15: TXC0-TXC7").
pub const RANKINE_FF: [&str; 16] = [
    "OPOS", "WGHT", "NRML", "COL0", "COL1", "FOGC", "", "", "TXC0", "TXC1", "TXC2", "TXC3", "TXC4", "TXC5", "TXC6",
    "TXC7",
];

/// The fixed-function name of a slot (`OPOS`, `TXC0`, `PASS`), or `None` for slots the
/// document calls "not used" and for slots beyond the VAB.
pub fn slot_name(gpu: Gpu, slot: usize) -> Option<&'static str> {
    let n = match gpu.family() {
        Family::Celsius => *CELSIUS_SLOTS.get(slot)?,
        Family::Kelvin | Family::Rankine if slot == 16 => "PASS",
        Family::Kelvin => *KELVIN_FF.get(slot)?,
        Family::Rankine | Family::Curie => *RANKINE_FF.get(slot)?,
    };
    (!n.is_empty()).then_some(n)
}

/// A label for a slot: its fixed-function name, or `ATTR<n>` for generic/unused ones.
pub fn slot_label(gpu: Gpu, slot: usize) -> alloc::string::String {
    match slot_name(gpu, slot) {
        Some(n) => n.into(),
        None => alloc::format!("ATTR{slot}"),
    }
}

/// The slot with a given name (`OPOS`, `pass`, `attr3`, or a number), if the VAB has it.
pub fn slot_by_name(gpu: Gpu, name: &str) -> Option<usize> {
    let t = name.trim();
    if let Some(n) = crate::number::parse_u32(t) {
        return ((n as usize) < gpu.vab_slots()).then_some(n as usize);
    }
    let u = t.to_ascii_uppercase();
    if let Some(rest) = u.strip_prefix("ATTR") {
        let n: usize = rest.parse().ok()?;
        return (n < gpu.vab_slots()).then_some(n);
    }
    (0..gpu.vab_slots()).find(|s| slot_name(gpu, *s) == Some(u.as_str()))
}

/// How the NV2A fog-coordinate slot (Kelvin slot 5, FOGC) reacts to a write of X.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Nv2aFog {
    /// The document's Kelvin rule (and the envytools model): Y, Z, W become 0, 0, 1.0.
    #[default]
    Document,
    /// xemu's hardware tests: X is replicated into all four components.
    ReplicateX,
}

impl Nv2aFog {
    /// Lower-case name (`document`, `replicate-x`).
    pub fn name(self) -> &'static str {
        match self {
            Nv2aFog::Document => "document",
            Nv2aFog::ReplicateX => "replicate-x",
        }
    }
}

/// What the reset step of a VAB write did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reset {
    /// No reset: the written words are simply stored.
    None,
    /// Y cleared (NV15 and up / Kelvin and up), Z cleared, W = 1.0.
    YZW,
    /// Celsius NV10: Z cleared and W = 1.0, Y left alone.
    ZW,
    /// NV2A FOGC with [`Nv2aFog::ReplicateX`]: all four components = X.
    ReplicateX,
}

/// Which reset the VAB command performs before storing `words` (word index, value) into
/// `slot`.
///
/// Celsius: "If component X or Y of slots 0, 1, 3, or 4 (OPOS, COL0, TXC*) is being written:
/// On NV15 and up, set component Y to 0. Set component Z to 0. Set component W to 0x3f800000".
/// Kelvin and up: "If component X of any slot other than the passthrough one is being written:
/// Set component Y to 0. Set component Z to 0. Set component W to 0x3f800000 (1.0f)."
pub fn reset_for(gpu: Gpu, slot: usize, first_word: u32, n_words: u32, fog: Nv2aFog) -> Reset {
    let writes = |w: u32| first_word <= w && w < first_word + n_words;
    match gpu.family() {
        Family::Celsius => {
            if matches!(slot, 0 | 1 | 3 | 4) && (writes(0) || writes(1)) {
                if gpu.is_nv15_or_later() {
                    Reset::YZW
                } else {
                    Reset::ZW
                }
            } else {
                Reset::None
            }
        }
        _ => {
            // Slot 16 is the passthrough slot where there is one (envytools' on Curie too).
            if Some(slot) == gpu.pass_slot() || slot >= 16 || !writes(0) {
                Reset::None
            } else if gpu == Gpu::Nv2a && slot == 5 && fog == Nv2aFog::ReplicateX {
                Reset::ReplicateX
            } else {
                Reset::YZW
            }
        }
    }
}

/// Applies the VAB write command to one slot: first the reset step, then "Set the selected
/// component(s) of the selected slot to the submitted value(s)". `words` are (word, value).
pub fn apply_write(gpu: Gpu, slot: usize, vec: &mut Vector, first_word: u32, values: &[u32], fog: Nv2aFog) -> Reset {
    let n = values.len() as u32;
    let reset = reset_for(gpu, slot, first_word, n, fog);
    match reset {
        Reset::None => {}
        Reset::YZW => {
            vec[1] = 0;
            vec[2] = 0;
            vec[3] = ONE;
        }
        Reset::ZW => {
            vec[2] = 0;
            vec[3] = ONE;
        }
        Reset::ReplicateX => {
            // X is among the written words (the rule only fires on a write of X).
            let x = values.first().copied().unwrap_or(0);
            *vec = [x; 4];
        }
    }
    for (i, v) in values.iter().enumerate() {
        if let Some(w) = vec.get_mut(first_word as usize + i) {
            *w = *v;
        }
    }
    reset
}
