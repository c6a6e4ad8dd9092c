//! RDI views of the XF RAMs: every space the documentation names, read and written as 32-bit
//! words of the RDI data port (address order, 4 bytes per word).
//!
//! - 0x10 XFPR: entry `i` at `i * 0x10`; the quadword's word at `+4 * c` is IDX2XF word
//!   `3 - c`, as stored (envytools `hwtest` `pgraph_dump_kelvin` reads it with
//!   `pgraph_dump_rdi4` into the columns `nvhw/pgraph_kelvin.c` `pgraph_ld_xfpr` fills with
//!   `W, Z, Y, X`). On Rankine, XTRA follows at +0x1180 (2 quadwords, the packed form of
//!   `pgraph_ld_xfunk8`) and the TIMEOUT register at +0x11a0 (its first word).
//! - 0x15 VAB: the overview's "RDI access" section (also [`crate::rdi`]).
//! - 0x17 XFCTX: one quadword per entry at `entry * 0x10`, words reversed as in the VAB (W at
//!   +0, Z at +4, Y at +8, X at +0xc). Checked on NV2A reads only: nxdk_vsh_tests
//!   (github.com/abaire/nxdk_vsh_tests) `src/test_host.cpp` `fetch_constants` sets the RDI
//!   index to `0x170000` and reads 192 entries of four words on an Xbox, and its comment says
//!   the values "appear to be retrieved in inverse order" (the first word is component 3);
//!   XboxDev/nv2a-trace `Trace.py` `_read_pgraph_rdi` dumps the same 192 x 4 words at
//!   `0x170000`. Other chips and the write direction are the model's assumption
//!   ([`Space::verified_on`]).
//! - 0x16/0x18 LTCTX, 0x19 LTC: model choices, unverified. envytools' stored revisions do not
//!   hold them: `hwtest/pgraph_state.cc` `pgraph_load_kelvin`/`pgraph_dump_kelvin` use RDI
//!   spaces 0x10, 0x15, 0x20-0x27, 0x2ea and 0x3d only; `include/nvhw/pgraph.h`
//!   `struct pgraph_state` has no XFCTX, LTCTX or LTC array; `nvhw/pgraph_kelvin.c`
//!   `pgraph_ld_ltctx`/`pgraph_ld_ltc` only queue the IDX2XF command and fill the passthrough
//!   slot. (docs/xf-rules.md lists every file searched.) The model packs an LTCTX entry's
//!   three 22-bit values into one quadword, Z in bits 0-21, Y in 22-43, X in 44-65 (the
//!   reversed order of every XF RDI view); LTC keeps one 22-bit value (bits 0-21) per 32-bit
//!   word, LTC0-3 one after the other, each starting at a quadword boundary. Two LTCTX
//!   spaces: on \[NV25:NV30\] LTCTX "is split into two RAMs: LTCTX_A and LTCTX_B" (overview);
//!   the model puts the first half of the entries in 0x16 (A) and the second half in 0x18
//!   (B); elsewhere 0x16 holds them all. No source gives the split.

use crate::error::{unknown, Error, Result};
use crate::gen::{Family, Gpu};
use crate::ram::Ram;
use crate::rules;
use crate::sim::{Event, XfState};
use alloc::format;
use alloc::vec::Vec;

/// An XF RDI space.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Space {
    /// 0x10: XFPR, then XTRA (+0x1180) and TIMEOUT (+0x11a0) on Rankine.
    Xfpr,
    /// 0x15: the VAB.
    Vab,
    /// 0x16: LTCTX (LTCTX_A on NV25:NV30).
    LtctxA,
    /// 0x17: XFCTX.
    Xfctx,
    /// 0x18: LTCTX_B (NV25:NV30 only).
    LtctxB,
    /// 0x19: LTC0-3.
    Ltc,
}

/// Every space, by number.
pub const ALL_SPACES: [Space; 6] = [Space::Xfpr, Space::Vab, Space::LtctxA, Space::Xfctx, Space::LtctxB, Space::Ltc];

const NAMES: [&str; 6] = ["xfpr", "vab", "ltctx_a", "xfctx", "ltctx_b", "ltc"];

/// Byte offset of XTRA in space 0x10 (after the 0x118 Rankine XFPR entries).
pub const XTRA_OFFSET: u32 = 0x1180;
/// Byte offset of the TIMEOUT register in space 0x10.
pub const TIMEOUT_OFFSET: u32 = 0x11a0;

impl Space {
    /// The space number.
    pub fn id(self) -> u32 {
        match self {
            Space::Xfpr => 0x10,
            Space::Vab => 0x15,
            Space::LtctxA => 0x16,
            Space::Xfctx => 0x17,
            Space::LtctxB => 0x18,
            Space::Ltc => 0x19,
        }
    }

    /// Lower-case name (`xfpr`, `vab`, `ltctx_a`, `xfctx`, `ltctx_b`, `ltc`).
    pub fn name(self) -> &'static str {
        NAMES[ALL_SPACES.iter().position(|s| *s == self).unwrap_or(0)]
    }

    /// Looks a space up by number (`0x16`) or name (`ltctx_a`; `ltctx` is 0x16 too).
    pub fn parse(s: &str) -> Result<Space> {
        let t = s.trim();
        if let Some(n) = crate::number::parse_u32(t) {
            return ALL_SPACES.into_iter().find(|sp| sp.id() == n).ok_or_else(|| Error::Unsupported {
                what: format!("RDI space {n:#x} is not an XF space (0x10, 0x15, 0x16, 0x17, 0x18, 0x19)"),
            });
        }
        let l = t.to_ascii_lowercase();
        if l == "ltctx" {
            return Ok(Space::LtctxA);
        }
        NAMES.iter().position(|n| *n == l).map(|i| ALL_SPACES[i]).ok_or_else(|| unknown("RDI space", t, &NAMES))
    }

    /// True when the layout is verified on every chip that has the space (envytools'
    /// hardware-tested code or the overview); false for the model's own choices and for
    /// layouts checked on some chips only (see [`Space::verified_on`]).
    pub fn verified(self) -> bool {
        matches!(self, Space::Xfpr | Space::Vab)
    }

    /// True when a public source checked this space's layout on `gpu`: 0x10 and 0x15 on
    /// every chip, 0x17 on NV2A (hardware reads, see the module documentation), 0x16, 0x18
    /// and 0x19 nowhere.
    pub fn verified_on(self, gpu: Gpu) -> bool {
        self.verified() || (self == Space::Xfctx && gpu == Gpu::Nv2a)
    }

    /// Where the layout comes from, one line.
    pub fn source(self) -> &'static str {
        match self {
            Space::Xfpr => "envytools hwtest pgraph_dump_kelvin + nvhw/pgraph_kelvin.c pgraph_ld_xfpr/xfunk8",
            Space::Vab => "XF overview, RDI access (space 0x15)",
            Space::Xfctx => {
                "NV2A reads: nxdk_vsh_tests src/test_host.cpp fetch_constants, nv2a-trace Trace.py \
                 _read_pgraph_rdi (W first, as the VAB); other chips and writes: model assumption"
            }
            Space::LtctxA | Space::LtctxB | Space::Ltc => {
                "model choice: not in envytools' stored hwtest/nvhw revisions (unverified)"
            }
        }
    }

    /// Checks that `gpu` has this space, naming the rule when it does not.
    pub fn check(self, gpu: Gpu) -> Result<()> {
        let refuse = |why: &str| {
            Err(Error::Unsupported { what: format!("RDI space {:#x} ({}) on {gpu}: {why}", self.id(), self.name()) })
        };
        match gpu.family() {
            Family::Celsius => {
                return refuse("Celsius has no RDI view of XF; its RAMs are context-switched \"via the readback functionality\" (XF overview)")
            }
            Family::Curie => {
                return refuse("on Curie the XF RAMs \"can be context-switched by the context microcode\"; only Kelvin and Rankine have the RDI views (XF overview)")
            }
            _ => {}
        }
        if self == Space::LtctxB && !is_split(gpu) {
            return refuse("LTCTX is \"split into two RAMs: LTCTX_A and LTCTX_B\" only on NV25:NV30 (XF overview)");
        }
        Ok(())
    }
}

/// True on the chips whose LTCTX is split into LTCTX_A and LTCTX_B ([NV25:NV30]).
fn is_split(gpu: Gpu) -> bool {
    gpu.in_range(0x25, Some(0x30))
}

/// The LTCTX entries a space shows: `(first, count)`.
fn ltctx_range(gpu: Gpu, space: Space) -> (usize, usize) {
    let n = Ram::Ltctx.size(gpu).map_or(0, |s| s.vectors as usize);
    match (space, is_split(gpu)) {
        (Space::LtctxA, true) => (0, n / 2),
        (Space::LtctxB, true) => (n / 2, n - n / 2),
        _ => (0, n),
    }
}

fn entries(st: &XfState, ram: Ram) -> usize {
    st.ram(ram).map_or(0, |s| s.len())
}

fn entry(st: &XfState, ram: Ram, i: usize) -> [u32; 4] {
    st.ram(ram).and_then(|s| s.get(i)).copied().unwrap_or([0; 4])
}

/// The LTC RAMs a generation has, with the word offset of each in space 0x19.
fn ltc_layout(st: &XfState) -> Vec<(Ram, usize)> {
    let mut out = Vec::new();
    let mut at = 0usize;
    for r in [Ram::Ltc0, Ram::Ltc1, Ram::Ltc2, Ram::Ltc3] {
        let n = entries(st, r);
        if n > 0 {
            out.push((r, at));
            at += n.div_ceil(4) * 4;
        }
    }
    out
}

/// Packs an XTRA vector (IDX2XF words) into the three stored words of `pgraph_ld_xfunk8`.
fn xtra_pack(v: [u32; 4]) -> [u32; 4] {
    let f = |w: u32, lo: u32| (w >> lo) & 0x1ff;
    let r0 = f(v[0], 0) | f(v[0], 16) << 9 | f(v[1], 0) << 18 | (v[1] >> 16 & 0x1f) << 27;
    let r1 = (v[1] >> 21 & 0xf) | f(v[2], 0) << 4 | f(v[2], 16) << 13 | f(v[3], 0) << 22 | (v[3] >> 16 & 1) << 31;
    let r2 = v[3] >> 17 & 0xff;
    [r0, r1, r2, 0]
}

/// The inverse of [`xtra_pack`] (the bits XTRA keeps).
fn xtra_unpack(p: [u32; 4]) -> [u32; 4] {
    let w = |lo: u32, hi: u32| lo | hi << 16;
    let v0 = w(p[0] & 0x1ff, p[0] >> 9 & 0x1ff);
    let v1 = w(p[0] >> 18 & 0x1ff, (p[0] >> 27 & 0x1f) | (p[1] & 0xf) << 5);
    let v2 = w(p[1] >> 4 & 0x1ff, p[1] >> 13 & 0x1ff);
    let v3 = w(p[1] >> 22 & 0x1ff, (p[1] >> 31 & 1) | (p[2] & 0xff) << 1);
    [v0, v1, v2, v3]
}

/// Reverses an IDX2XF vector into RDI word order (W first).
fn rev(v: [u32; 4]) -> [u32; 4] {
    [v[3], v[2], v[1], v[0]]
}

/// The whole space as RDI words, lowest address first.
pub fn read(st: &XfState, space: Space) -> Result<Vec<u32>> {
    space.check(st.gpu())?;
    let mut out = Vec::new();
    match space {
        Space::Vab => st.vab().iter().for_each(|v| out.extend_from_slice(&rev(*v))),
        Space::Xfctx => {
            (0..entries(st, Ram::Xfctx)).for_each(|i| out.extend_from_slice(&rev(entry(st, Ram::Xfctx, i))))
        }
        Space::Xfpr => {
            (0..entries(st, Ram::Xfpr)).for_each(|i| out.extend_from_slice(&rev(entry(st, Ram::Xfpr, i))));
            if st.ram(Ram::Xtra).is_some() {
                (0..entries(st, Ram::Xtra)).for_each(|i| out.extend_from_slice(&xtra_pack(entry(st, Ram::Xtra, i))));
                out.extend_from_slice(&[st.xtra_timeout().unwrap_or(0), 0, 0, 0]);
            }
        }
        Space::LtctxA | Space::LtctxB => {
            let (first, n) = ltctx_range(st.gpu(), space);
            for i in first..first + n {
                out.extend_from_slice(&pack22(entry(st, Ram::Ltctx, i)));
            }
        }
        Space::Ltc => {
            for (r, at) in ltc_layout(st) {
                out.resize(at, 0);
                (0..entries(st, r)).for_each(|i| out.push(entry(st, r, i)[0] >> 10 & 0x3f_ffff));
            }
            out.resize(out.len().div_ceil(4) * 4, 0);
        }
    }
    Ok(out)
}

/// Three 22-bit values (X, Y, Z of an LTCTX entry) packed into RDI words.
fn pack22(v: [u32; 4]) -> [u32; 4] {
    let q = u128::from(v[2] >> 10) | u128::from(v[1] >> 10) << 22 | u128::from(v[0] >> 10) << 44;
    [q as u32, (q >> 32) as u32, (q >> 64) as u32, 0]
}

/// The LTCTX entry (32-bit words, low 10 bits zero) of packed RDI words.
fn unpack22(w: [u32; 4]) -> [u32; 4] {
    let q = u128::from(w[0]) | u128::from(w[1]) << 32 | u128::from(w[2]) << 64;
    let v = |sh: u32| ((q >> sh) as u32 & 0x3f_ffff) << 10;
    [v(44), v(22), v(0), 0]
}

/// Writes RDI `words` at byte address `addr` of `space`. A quadword covered only in part is
/// an [`Event::RdiDamage`] (the model still stores the written words; the overview states the
/// damage for the VAB and the model assumes it for every quadword space).
pub fn write(st: &mut XfState, space: Space, addr: u32, words: &[u32]) -> Result<Vec<Event>> {
    space.check(st.gpu())?;
    if !addr.is_multiple_of(4) {
        return Err(Error::Invalid { field: "RDI address", value: u64::from(addr), rule: "is not a multiple of 4" });
    }
    let mut image = read(st, space)?;
    let start = (addr / 4) as usize;
    let end =
        start.checked_add(words.len()).ok_or(Error::Overflow { field: "RDI end address", value: u64::from(addr) })?;
    if end > image.len() || words.is_empty() {
        let max = (image.len() as u64 * 4).saturating_sub(4);
        return Err(Error::OutOfRange { field: "RDI end address", value: end as u64 * 4, max });
    }
    if space == Space::Xfpr && end > TIMEOUT_OFFSET as usize / 4 && st.xtra_timeout().is_none() {
        return Err(Error::Unsupported {
            what: format!("{} has no XTRA TIMEOUT register under the {} rules", st.gpu(), st.options().rules.name()),
        });
    }
    image[start..end].copy_from_slice(words);
    let mut events = Vec::new();
    for q in start / 4..end.div_ceil(4) {
        let covered = (end.min(q * 4 + 4) - start.max(q * 4)) as u32 * 4;
        if covered != 16 {
            events.push(Event::RdiDamage { slot: q as u32, bytes_written: covered });
        }
    }
    let quad = |i: usize| [image[4 * i], image[4 * i + 1], image[4 * i + 2], image[4 * i + 3]];
    match space {
        Space::Vab => (0..st.vab().len()).try_for_each(|i| st.set_vab(i, rev(quad(i))))?,
        Space::Xfctx => {
            (0..entries(st, Ram::Xfctx)).try_for_each(|i| set_if_changed(st, Ram::Xfctx, i, rev(quad(i))))?
        }
        Space::Xfpr => {
            let n = entries(st, Ram::Xfpr);
            (0..n).try_for_each(|i| set_if_changed(st, Ram::Xfpr, i, rev(quad(i))))?;
            if st.ram(Ram::Xtra).is_some() {
                let x = XTRA_OFFSET as usize / 16;
                (0..entries(st, Ram::Xtra))
                    .try_for_each(|i| set_if_changed(st, Ram::Xtra, i, xtra_unpack(quad(x + i))))?;
                if st.xtra_timeout().is_some() {
                    st.set_xtra_timeout(image[TIMEOUT_OFFSET as usize / 4])?;
                }
            }
        }
        Space::LtctxA | Space::LtctxB => {
            let (first, n) = ltctx_range(st.gpu(), space);
            (0..n).try_for_each(|i| set_if_changed(st, Ram::Ltctx, first + i, unpack22(quad(i))))?;
        }
        Space::Ltc => {
            for (r, at) in ltc_layout(st) {
                for i in 0..entries(st, r) {
                    let mut v = entry(st, r, i);
                    v[0] = (image[at + i] & 0x3f_ffff) << 10;
                    set_if_changed(st, r, i, v)?;
                }
            }
        }
    }
    Ok(events)
}

/// Stores an entry only when RDI changed it (so untouched entries stay "never written").
fn set_if_changed(st: &mut XfState, ram: Ram, i: usize, v: [u32; 4]) -> Result<()> {
    let comps = st.components(ram);
    let mask = rules::stored_mask(st.options().rules, st.gpu(), ram);
    let cur = entry(st, ram, i);
    let same = (0..4).all(|c| if c < comps { cur[c] == v[c] & mask[c] } else { true });
    if same {
        return Ok(());
    }
    st.set_entry(ram, i, v)
}
