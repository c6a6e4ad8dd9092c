//! The simulator: [`XfState`] and its step function, which consumes IDX2XF operations and
//! reports what reaches XF2VTX, what lands in the RAMs, and every hazard, as [`Event`]s.
//!
//! The step function never panics and never refuses an operation: whatever hardware would do
//! badly (hang, desync, dropped write) is an event, and the model goes on.
//!
//! The rule set ([`Rules`], default the hardware-tested rules) decides commit points,
//! wrapping, stored widths and LT conversions (see [`crate::rules`]).
//!
//! Model choices the sources leave open (documented in the crate README):
//! - RAMs and the VAB start as zeros; a read of a never-written entry gives 0 (the fixed
//!   Celsius LTC entry 0 included: envytools' model does not know its value either).
//! - A write of a command that does not exist on the generation is an `ignored` event.
//! - On Curie only VAB writes and the vertex trigger are modelled ("How are things
//!   assembled on Curie?" is open) unless [`CuriePass::Envytools`] is chosen.
//! - Reading a word past an entry's components (W of LTCTX, Y-W of a hardware LTC entry) is
//!   treated as an invalid read (hang).

use crate::cmd::{Addr, CmdType, Op, Payload, Readable};
use crate::float::{lt_store, LtRounding};
use crate::gen::{Family, Gpu};
use crate::ram::{CommitRule, Ram, ALL_RAMS};
use crate::rdi;
use crate::rules::{self, CuriePass, Rules};
use crate::vab::{apply_write, Nv2aFog, Reset, Vector};
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

/// The selectable behaviours: the rule set, and fine-grained overrides on top of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Options {
    /// The rule set (wrapping, stored widths, LTC entry 0, LT conversions, TIMEOUT).
    pub rules: Rules,
    /// When write commands send the passthrough slot downstream (the rule set's own by
    /// default: [`CommitRule::Hardware`] or [`CommitRule::Document`]).
    pub commit: CommitRule,
    /// Rounding of the 32-to-22-bit conversion into LT RAMs (the rule set's own by default).
    pub lt_rounding: LtRounding,
    /// What a write of X does to the NV2A fog slot.
    pub nv2a_fog: Nv2aFog,
    /// Whether Curie has envytools' passthrough slot.
    pub curie_pass: CuriePass,
}

impl Options {
    /// The options of a rule set: its own commit points and LT rounding, the documented NV2A
    /// fog rule, no Curie passthrough slot.
    pub fn for_rules(rules: Rules) -> Options {
        let (commit, lt_rounding) = match rules {
            Rules::Hardware => (CommitRule::Hardware, LtRounding::Nearest),
            Rules::Overview => (CommitRule::Document, LtRounding::Truncate),
        };
        Options { rules, commit, lt_rounding, nv2a_fog: Nv2aFog::Document, curie_pass: CuriePass::None }
    }

    /// The hardware-tested rules (the default).
    pub fn hardware() -> Options {
        Options::for_rules(Rules::Hardware)
    }

    /// The XF overview's rules (`--rules overview`, alias `document`).
    pub fn overview() -> Options {
        Options::for_rules(Rules::Overview)
    }
}

impl Default for Options {
    fn default() -> Options {
        Options::hardware()
    }
}

/// One RAM's contents: entries of up to four 32-bit words and which ones were written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RamStore {
    entries: Vec<Vector>,
    written: Vec<bool>,
}

impl RamStore {
    fn new(n: usize) -> RamStore {
        RamStore { entries: vec![[0; 4]; n], written: vec![false; n] }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when the RAM has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry at `index` (zeros if never written), or `None` beyond the RAM.
    pub fn get(&self, index: usize) -> Option<&Vector> {
        self.entries.get(index)
    }

    /// The written entries, in index order.
    pub fn written(&self) -> impl Iterator<Item = (usize, &Vector)> {
        self.entries.iter().enumerate().filter(|(i, _)| self.written.get(*i).copied().unwrap_or(false))
    }
}

/// Why a write was dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DropReason {
    /// The vector index is past the end of the RAM (or VAB).
    BeyondEnd,
    /// The entry is a fixed constant that ignores writes (Celsius LTC entry 0).
    FixedEntry,
}

impl DropReason {
    /// Snake-case name for JSON (`beyond_end`, `fixed_entry`).
    pub fn name(self) -> &'static str {
        match self {
            DropReason::BeyondEnd => "beyond_end",
            DropReason::FixedEntry => "fixed_entry",
        }
    }
}

/// Something the model reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// The passthrough slot was sent to a RAM (or XFMODE).
    Commit {
        /// The RAM.
        ram: Ram,
        /// Entry index.
        vector: u32,
        /// The entry as stored (LT RAMs: 22-bit floats widened back to 32 bits; LTCTX keeps
        /// only X, Y, Z).
        words: Vector,
    },
    /// PASSTHRU data delivered to XF2VTX.
    Passthru {
        /// Address vector of the PASSTHRU write.
        vector: u32,
        /// Address word of the PASSTHRU write.
        word: u32,
        /// The whole passthrough slot as sent.
        words: Vector,
    },
    /// A read delivered one word to XF2VTX (Celsius).
    Read {
        /// Command type read.
        cmd: CmdType,
        /// Vector index.
        vector: u32,
        /// Word (0 = X).
        word: u32,
        /// The word delivered.
        value: u32,
    },
    /// A vertex went to IBUF with these input attributes (the VAB without the passthrough
    /// slot).
    Vertex {
        /// The attributes, slot order.
        attributes: Vec<Vector>,
    },
    /// A vertex state program was started by RUN.
    Run {
        /// The RUN payload ("The low bits of the payload contain starting PC").
        payload: u32,
        /// The parameter copied from the passthrough slot to IBUF.
        param: Vector,
    },
    /// SYNC: a full XF barrier.
    Sync,
    /// XTRA vector 2 was written: the program TIMEOUT register took a new value (hardware
    /// rules, Rankine).
    Timeout {
        /// The register's new value (`word 0 & 0xffff`).
        value: u32,
    },
    /// VTX (and with it the machine) would hang.
    Hang {
        /// Why.
        reason: String,
    },
    /// PASSTHRU without the matching IDX2VTX bundle token: VTX desyncs.
    Desync {
        /// Address vector of the PASSTHRU write.
        vector: u32,
        /// Address word.
        word: u32,
    },
    /// A write that did not land anywhere.
    Dropped {
        /// Command type.
        cmd: CmdType,
        /// The vector index written.
        vector: u32,
        /// The number of entries of the target.
        limit: u32,
        /// Why.
        reason: DropReason,
    },
    /// An operation the model (or the generation) does not have.
    Ignored {
        /// Why.
        reason: String,
    },
    /// An RDI write covered a VAB quadword only in part: "data will be damaged".
    RdiDamage {
        /// The slot.
        slot: u32,
        /// Bytes of the quadword that were written.
        bytes_written: u32,
    },
}

impl Event {
    /// The event kind as used in JSON (`commit`, `passthru`, `read`, `vertex`, `run`, `sync`,
    /// `timeout`, `hang`, `desync`, `dropped`, `ignored`, `rdi_damage`).
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Commit { .. } => "commit",
            Event::Passthru { .. } => "passthru",
            Event::Read { .. } => "read",
            Event::Vertex { .. } => "vertex",
            Event::Run { .. } => "run",
            Event::Sync => "sync",
            Event::Timeout { .. } => "timeout",
            Event::Hang { .. } => "hang",
            Event::Desync { .. } => "desync",
            Event::Dropped { .. } => "dropped",
            Event::Ignored { .. } => "ignored",
            Event::RdiDamage { .. } => "rdi_damage",
        }
    }

    /// True for the hazards (hang, desync, dropped write, RDI damage).
    pub fn is_hazard(&self) -> bool {
        matches!(self, Event::Hang { .. } | Event::Desync { .. } | Event::Dropped { .. } | Event::RdiDamage { .. })
    }
}

/// The state of one XF unit's command side: VAB (with its passthrough slot), RAMs, pending
/// IDX2VTX bundle tokens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XfState {
    gpu: Gpu,
    options: Options,
    vab: Vec<Vector>,
    rams: Vec<(Ram, RamStore)>,
    xtra_timeout: Option<u32>,
    pending_bundles: u32,
}

impl XfState {
    /// A fresh unit: everything zero, no pending tokens.
    pub fn new(gpu: Gpu, options: Options) -> XfState {
        let rams =
            ALL_RAMS.iter().filter_map(|r| r.size(gpu).map(|s| (*r, RamStore::new(s.vectors as usize)))).collect();
        let slots = gpu.vab_slots() + usize::from(Self::curie_pass(gpu, options).is_some());
        let xtra_timeout = rules::has_timeout(options.rules, gpu).then_some(0);
        XfState { gpu, options, vab: vec![[0; 4]; slots], rams, xtra_timeout, pending_bundles: 0 }
    }

    /// Curie's passthrough slot when envytools' 17th slot is selected.
    fn curie_pass(gpu: Gpu, options: Options) -> Option<usize> {
        (gpu.family() == Family::Curie && options.curie_pass == CuriePass::Envytools).then_some(16)
    }

    /// The passthrough slot under these options: the generation's, or on Curie envytools'
    /// slot 16 when [`CuriePass::Envytools`] is selected.
    pub fn pass_slot(&self) -> Option<usize> {
        self.gpu.pass_slot().or_else(|| Self::curie_pass(self.gpu, self.options))
    }

    /// Number of 32-bit values an entry of `ram` keeps under these options' rules.
    pub fn components(&self, ram: Ram) -> usize {
        rules::components(self.options.rules, ram)
    }

    /// The XTRA TIMEOUT register (hardware rules, generations with XTRA), else `None`.
    pub fn xtra_timeout(&self) -> Option<u32> {
        self.xtra_timeout
    }

    /// The generation.
    pub fn gpu(&self) -> Gpu {
        self.gpu
    }

    /// The options.
    pub fn options(&self) -> Options {
        self.options
    }

    /// The VAB slots (including the passthrough slot where there is one).
    pub fn vab(&self) -> &[Vector] {
        &self.vab
    }

    /// The passthrough slot, if there is one.
    pub fn pass(&self) -> Option<&Vector> {
        self.pass_slot().and_then(|s| self.vab.get(s))
    }

    /// A RAM's contents, or `None` when the generation does not have it.
    pub fn ram(&self, ram: Ram) -> Option<&RamStore> {
        self.rams.iter().find(|(r, _)| *r == ram).map(|(_, s)| s)
    }

    /// IDX2VTX bundle tokens still waiting for their PASSTHRU payload.
    pub fn pending_bundles(&self) -> u32 {
        self.pending_bundles
    }

    /// Consumes one operation and returns what it caused.
    pub fn step(&mut self, op: &Op) -> Vec<Event> {
        let mut ev = Vec::new();
        match *op {
            Op::Vertex => ev.push(Event::Vertex {
                attributes: self.vab[..self.gpu.ibuf_attributes().min(self.vab.len())].to_vec(),
            }),
            Op::Idx2VtxBundle => self.pending_bundles = self.pending_bundles.saturating_add(1),
            Op::Read { cmd, addr } => self.read(cmd, addr, &mut ev),
            Op::Write { cmd, addr, data } => self.write(cmd, addr, data, &mut ev),
        }
        ev
    }

    /// Ends a stream: bundle tokens whose PASSTHRU never came leave VTX waiting forever.
    pub fn finish(&mut self) -> Vec<Event> {
        let mut ev = Vec::new();
        if self.pending_bundles > 0 {
            ev.push(Event::Hang {
                reason: format!(
                    "VTX waits for {} PASSTHRU payload(s) announced on IDX2VTX that never came",
                    self.pending_bundles
                ),
            });
            self.pending_bundles = 0;
        }
        ev
    }

    /// Writes RDI bytes into the VAB (space 0x15, Kelvin and Rankine).
    pub fn rdi_write(&mut self, addr: u32, bytes: &[u8]) -> crate::Result<Vec<Event>> {
        let damage = rdi::write(self.gpu, &mut self.vab, addr, bytes)?;
        Ok(damage.into_iter().map(|d| Event::RdiDamage { slot: d.slot, bytes_written: d.bytes_written }).collect())
    }

    fn read(&mut self, cmd: CmdType, addr: Addr, ev: &mut Vec<Event>) {
        if !self.gpu.has_reads() {
            ev.push(Event::Ignored {
                reason: format!("read commands exist on Celsius only, not on {} ({})", self.gpu, self.gpu.family()),
            });
            return;
        }
        let hang = |why: String| Event::Hang {
            reason: format!(
                "read {} vector {} word {}: {why}; XF delivers nothing and VTX hangs",
                cmd.name(),
                addr.vector,
                addr.word
            ),
        };
        if !cmd.exists_on(self.gpu) || cmd.readable() != Readable::Yes {
            ev.push(hang(format!("{} is not readable on {}", cmd.name(), self.gpu)));
            return;
        }
        let vector = self.wrapped(cmd, addr.vector);
        let value = if cmd == CmdType::Vab {
            self.vab.get(vector as usize).map(|v| v[addr.word as usize & 3])
        } else {
            Ram::of_cmd(cmd).and_then(|r| {
                if self.components(r) <= addr.word as usize {
                    return None;
                }
                self.ram(r).and_then(|s| s.get(vector as usize)).map(|v| v[addr.word as usize & 3])
            })
        };
        match value {
            Some(value) => ev.push(Event::Read { cmd, vector: addr.vector, word: addr.word, value }),
            None => ev.push(hang("the address is past the end of the RAM".into())),
        }
    }

    fn write(&mut self, cmd: CmdType, addr: Addr, data: Payload, ev: &mut Vec<Event>) {
        if !cmd.exists_on(self.gpu) {
            ev.push(Event::Ignored {
                reason: format!(
                    "command {} ({:#x}) does not exist on {} (exists: {})",
                    cmd.name(),
                    cmd.number(),
                    self.gpu,
                    cmd.availability_text()
                ),
            });
            return;
        }
        let mut values = [0u32; 2];
        let mut n = 0usize;
        for (_, v) in data.placed(addr.word) {
            values[n] = v;
            n += 1;
        }
        let values = &values[..n];
        let last_word = addr.word + n as u32 - 1;
        if last_word > 3 {
            // Only reachable by an unchecked Op::Write with a pair at word 3.
            ev.push(Event::Ignored { reason: format!("64-bit write at word {} is not an aligned pair", addr.word) });
            return;
        }
        if cmd == CmdType::Vab {
            let slot = self.wrapped(cmd, addr.vector) as usize;
            match self.vab.get_mut(slot) {
                Some(v) => {
                    let _: Reset = apply_write(self.gpu, slot, v, addr.word, values, self.options.nv2a_fog);
                }
                None => ev.push(Event::Dropped {
                    cmd,
                    vector: addr.vector,
                    limit: self.vab.len() as u32,
                    reason: DropReason::BeyondEnd,
                }),
            }
            return;
        }
        let Some(pass) = self.pass_slot() else {
            ev.push(Event::Ignored {
                reason: format!(
                    "{} write on {}: Curie has no passthrough slot and how it assembles \
                     vectors is undocumented",
                    cmd.name(),
                    self.gpu
                ),
            });
            return;
        };
        if cmd.writes_pass_slot() {
            for (i, v) in values.iter().enumerate() {
                self.vab[pass][addr.word as usize + i] = *v;
            }
        }
        let slot = self.vab[pass];
        let commits = (addr.word..=last_word).any(|w| self.options.commit.commits(self.gpu, cmd, addr.vector, w));
        match cmd {
            CmdType::Nop | CmdType::Param | CmdType::Vab | CmdType::Unk3 => {}
            CmdType::Sync => ev.push(Event::Sync),
            CmdType::Run => ev.push(Event::Run { payload: values[0], param: slot }),
            CmdType::Passthru => {
                ev.push(Event::Passthru { vector: addr.vector, word: addr.word, words: slot });
                if self.pending_bundles > 0 {
                    self.pending_bundles -= 1;
                } else {
                    ev.push(Event::Desync { vector: addr.vector, word: addr.word });
                }
            }
            _ => {
                if commits {
                    if let Some(ram) = Ram::of_cmd(cmd) {
                        self.commit(ram, addr.vector, slot, ev);
                    }
                }
            }
        }
    }

    /// The vector index a `cmd` address selects: wrapped where the rules say so.
    fn wrapped(&self, cmd: CmdType, vector: u32) -> u32 {
        match rules::address_mask(self.options.rules, self.gpu, cmd) {
            Some(mask) => vector & mask,
            None => vector,
        }
    }

    /// The entry `slot` becomes in `ram`: LT conversions, stored widths, components.
    fn stored(&self, ram: Ram, slot: Vector) -> Vector {
        let (r, gpu) = (self.options.lt_rounding, self.gpu);
        let comps = self.components(ram);
        let mut words = slot;
        if rules::fixed_entry0(self.options.rules, gpu, ram) {
            // Celsius LTC: the conversion of pgraph_celsius_convert_light_sx.
            words = [crate::float::celsius_ltc_store(slot[0], r), 0, 0, 0];
        } else if ram.is_lt() {
            for w in words.iter_mut() {
                *w = lt_store(*w, r);
            }
        }
        let mask = rules::stored_mask(self.options.rules, gpu, ram);
        for (i, w) in words.iter_mut().enumerate() {
            *w = if i < comps { *w & mask[i] } else { 0 };
        }
        words
    }

    fn commit(&mut self, ram: Ram, vector: u32, slot: Vector, ev: &mut Vec<Event>) {
        if ram == Ram::Xtra && vector == rules::XTRA_TIMEOUT_VECTOR && self.xtra_timeout.is_some() {
            let value = slot[0] & rules::XTRA_TIMEOUT_MASK;
            self.xtra_timeout = Some(value);
            ev.push(Event::Timeout { value });
            return;
        }
        let i = self.wrapped(ram.cmd(), vector) as usize;
        let fixed = rules::fixed_entry0(self.options.rules, self.gpu, ram) && i == 0;
        let words = self.stored(ram, slot);
        let Some(store) = self.rams.iter_mut().find(|(r, _)| *r == ram).map(|(_, s)| s) else {
            ev.push(Event::Dropped { cmd: ram.cmd(), vector, limit: 0, reason: DropReason::BeyondEnd });
            return;
        };
        let limit = store.len() as u32;
        if i >= store.entries.len() {
            ev.push(Event::Dropped { cmd: ram.cmd(), vector, limit, reason: DropReason::BeyondEnd });
            return;
        }
        if fixed {
            ev.push(Event::Dropped { cmd: ram.cmd(), vector, limit, reason: DropReason::FixedEntry });
            return;
        }
        store.entries[i] = words;
        store.written[i] = true;
        ev.push(Event::Commit { ram, vector: i as u32, words });
    }

    /// Replaces entry `index` of `ram` (as RDI writes do); the words are cut to what the RAM
    /// stores. Errors when the generation lacks the RAM or the index is past its end.
    pub fn set_entry(&mut self, ram: Ram, index: usize, words: Vector) -> crate::Result<()> {
        let mask = rules::stored_mask(self.options.rules, self.gpu, ram);
        let comps = self.components(ram);
        let gpu = self.gpu;
        let store = self
            .rams
            .iter_mut()
            .find(|(r, _)| *r == ram)
            .map(|(_, s)| s)
            .ok_or_else(|| crate::Error::Unsupported { what: format!("{gpu} has no {} RAM", ram.name()) })?;
        let max = store.entries.len().saturating_sub(1) as u64;
        let e = store.entries.get_mut(index).ok_or(crate::Error::OutOfRange {
            field: "entry index",
            value: index as u64,
            max,
        })?;
        for (i, w) in e.iter_mut().enumerate() {
            *w = if i < comps { words[i] & mask[i] } else { 0 };
        }
        if let Some(wr) = store.written.get_mut(index) {
            *wr = true;
        }
        Ok(())
    }

    /// Replaces VAB slot `slot` (including the passthrough slot).
    pub fn set_vab(&mut self, slot: usize, words: Vector) -> crate::Result<()> {
        let max = self.vab.len().saturating_sub(1) as u64;
        let v =
            self.vab.get_mut(slot).ok_or(crate::Error::OutOfRange { field: "VAB slot", value: slot as u64, max })?;
        *v = words;
        Ok(())
    }

    /// Sets the XTRA TIMEOUT register (cut to its 16 bits); errors where it does not exist.
    pub fn set_xtra_timeout(&mut self, value: u32) -> crate::Result<()> {
        match self.xtra_timeout.as_mut() {
            Some(t) => {
                *t = value & rules::XTRA_TIMEOUT_MASK;
                Ok(())
            }
            None => Err(crate::Error::Unsupported {
                what: format!(
                    "{} has no XTRA TIMEOUT register under the {} rules (Rankine, hardware rules only)",
                    self.gpu,
                    self.options.rules.name()
                ),
            }),
        }
    }
}
