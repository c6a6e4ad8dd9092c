//! Seeded random command sequences, in the style of envytools' `hwtest` (random state and
//! random writes, then the model's state compared with what the rules imply). A fixed seed
//! keeps CI reproducible; `NVXF_RANDOM_SEQUENCES` raises the count for a longer local run.
//!
//! Invariants checked after every operation, on every generation:
//! - nothing panics;
//! - a write past the end of a RAM (or the VAB) changes no RAM and no VAB slot but the
//!   passthrough slot, unless the rules wrap its address, in which case it does exactly what
//!   the write to the wrapped address does;
//! - the passthrough slot holds the words written, and a committed entry equals those words
//!   cut to the stored width (LT RAMs: converted to 22-bit floats), and is what the RAM holds;
//! - running the same sequence twice gives the same events and the same state.

use nvxf::cmd::{commands_on, Addr, CmdType, Op, Payload};
use nvxf::float::{celsius_ltc_store, lt_store};
use nvxf::gen::{Family, Gpu, ALL_GPUS};
use nvxf::ram::Ram;
use nvxf::rules::{self, Rules};
use nvxf::sim::{Event, Options, XfState};

/// Sequences per chip and rule set in CI (32 chips: 7 Celsius, 4 Kelvin, 5 Rankine, 16 Curie).
const SEQUENCES_PER_CHIP: usize = 1000;
const SEED: u64 = 0x5eed_0032_2026_0001;

/// SplitMix64: a tiny, well-known generator, enough for reproducible test input.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    /// A data word: often a special float (zero, denormal, infinity, NaN, bits 10-17 set).
    fn data(&mut self) -> u32 {
        let specials = [0, 0x8000_0000, 0x807f_ffff, 0x7f80_0000, 0xff80_0000, 0x7fc0_0000, 0x7f80_0200, 0x3f83_fe00];
        match self.below(4) {
            0 => specials[self.below(specials.len() as u64) as usize],
            _ => self.next() as u32,
        }
    }
}

/// The entries of the RAM (or VAB) a command targets, if any.
fn limit(st: &XfState, cmd: CmdType) -> Option<u32> {
    match cmd {
        CmdType::Vab => Some(st.vab().len() as u32),
        _ => Ram::of_cmd(cmd).and_then(|r| st.ram(r)).map(|s| s.len() as u32),
    }
}

fn random_op(rng: &mut Rng, gpu: Gpu, st: &XfState) -> Op {
    let cmds: Vec<CmdType> = commands_on(gpu).collect();
    match rng.below(20) {
        0 => return Op::Vertex,
        1 => return Op::Idx2VtxBundle,
        _ => {}
    }
    let cmd = cmds[rng.below(cmds.len() as u64) as usize];
    let max_vector = (1u32 << gpu.vector_bits()) - 1;
    let vector = match (rng.below(4), limit(st, cmd)) {
        // Near the end of the target, on both sides.
        (0, Some(n)) => (n + rng.below(4) as u32).saturating_sub(2).min(max_vector),
        (1, _) => rng.below(u64::from(max_vector) + 1) as u32,
        _ => rng.below(u64::from(limit(st, cmd).unwrap_or(4).min(max_vector + 1))) as u32,
    };
    let word = rng.below(4) as u32;
    let addr = Addr::new(gpu, vector, word).expect("vector within the field");
    if gpu.has_reads() && rng.below(8) == 0 {
        return Op::Read { cmd, addr };
    }
    if word.is_multiple_of(2) && rng.below(3) == 0 {
        Op::write(cmd, addr, Payload::Pair(rng.data(), rng.data())).expect("even word")
    } else {
        Op::write(cmd, addr, Payload::One(rng.data())).expect("one word")
    }
}

/// The VAB without its passthrough slot, every RAM's entries, the TIMEOUT register.
type Rest = (Vec<[u32; 4]>, Vec<Vec<[u32; 4]>>, Option<u32>);

/// Everything but the passthrough slot, which every non-VAB write changes.
fn without_pass(st: &XfState) -> Rest {
    let pass = st.pass_slot();
    let vab = st.vab().iter().enumerate().filter(|(i, _)| Some(*i) != pass).map(|(_, v)| *v).collect();
    let rams = nvxf::ram::ALL_RAMS
        .iter()
        .filter_map(|r| st.ram(*r))
        .map(|s| (0..s.len()).filter_map(|i| s.get(i).copied()).collect())
        .collect();
    (vab, rams, st.xtra_timeout())
}

/// What a commit of `shadow` into `ram` must store (independent of the event's words).
fn expected_entry(st: &XfState, ram: Ram, shadow: [u32; 4]) -> [u32; 4] {
    let o = st.options();
    let comps = st.components(ram);
    let mask = rules::stored_mask(o.rules, st.gpu(), ram);
    let mut out = [0u32; 4];
    for i in 0..comps {
        let w = if rules::fixed_entry0(o.rules, st.gpu(), ram) {
            celsius_ltc_store(shadow[i], o.lt_rounding)
        } else if ram.is_lt() {
            lt_store(shadow[i], o.lt_rounding)
        } else {
            shadow[i]
        };
        out[i] = w & mask[i];
    }
    out
}

/// How often each invariant was exercised (so the test cannot pass by checking nothing).
#[derive(Default, Debug)]
struct Seen {
    past_end: usize,
    wrapped: usize,
    commits: usize,
    lt_commits: usize,
    timeouts: usize,
}

fn check_step(st: &mut XfState, op: &Op, shadow: &mut [u32; 4], seen: &mut Seen, ctx: &str) -> Vec<Event> {
    let before = st.clone();
    let ev = st.step(op);
    let Op::Write { cmd, addr, data } = *op else { return ev };
    let (gpu, o) = (st.gpu(), st.options());
    if !cmd.exists_on(gpu) {
        assert_eq!(*st, before, "{ctx}: a command the generation lacks changed the state");
        return ev;
    }
    // The passthrough slot assembles the payload (a VAB write to the slot, wrapped or not,
    // stores its words there plainly: no slot reset applies to it).
    let mask = rules::address_mask(o.rules, gpu, cmd);
    let landed = mask.map_or(addr.vector, |m| addr.vector & m);
    if let Some(pass) = st.pass_slot() {
        if cmd.writes_pass_slot() || (cmd == CmdType::Vab && landed as usize == pass) {
            for (w, v) in data.placed(addr.word) {
                shadow[w as usize] = v;
            }
        }
        assert_eq!(st.vab()[pass], *shadow, "{ctx}: passthrough slot");
    }
    // Writes past the end: nothing but the passthrough slot changes, or they wrap.
    let is_timeout = cmd == CmdType::Xtra && addr.vector == rules::XTRA_TIMEOUT_VECTOR && st.xtra_timeout().is_some();
    if let Some(n) = limit(&before, cmd) {
        if landed >= n && !is_timeout {
            assert_eq!(without_pass(st), without_pass(&before), "{ctx}: a write past the end changed state");
            seen.past_end += 1;
        }
        if let Some(m) = mask {
            if addr.vector > m {
                let mut alias = before.clone();
                let wrapped = Addr::new(gpu, addr.vector & m, addr.word).unwrap();
                alias.step(&Op::Write { cmd, addr: wrapped, data });
                assert_eq!(*st, alias, "{ctx}: a wrapped write differs from the write it wraps to");
                seen.wrapped += 1;
            }
        }
    }
    // Committed entries are the words written, cut to the stored width.
    for e in &ev {
        if let Event::Commit { ram, vector, words } = e {
            let want = expected_entry(st, *ram, *shadow);
            assert_eq!(*words, want, "{ctx}: commit into {}", ram.name());
            assert_eq!(st.ram(*ram).unwrap().get(*vector as usize), Some(words), "{ctx}: stored entry");
            seen.commits += 1;
            seen.lt_commits += usize::from(ram.is_lt());
        }
        if let Event::Timeout { value } = e {
            assert_eq!(*value, shadow[0] & rules::XTRA_TIMEOUT_MASK, "{ctx}: TIMEOUT");
            seen.timeouts += 1;
        }
    }
    ev
}

fn run_chip(gpu: Gpu, rules: Rules, sequences: usize, rng: &mut Rng, seen: &mut Seen) -> usize {
    let mut ops_run = 0;
    for n in 0..sequences {
        let mut st = XfState::new(gpu, Options::for_rules(rules));
        let mut shadow = [0u32; 4];
        let len = 1 + rng.below(24) as usize;
        let mut ops = Vec::with_capacity(len);
        let mut events = Vec::new();
        for i in 0..len {
            let op = random_op(rng, gpu, &st);
            let ctx = format!("{gpu} {} sequence {n} op {i} {op:?}", rules.name());
            events.extend(check_step(&mut st, &op, &mut shadow, seen, &ctx));
            ops.push(op);
        }
        events.extend(st.finish());
        let mut again = XfState::new(gpu, Options::for_rules(rules));
        let mut events2: Vec<Event> = ops.iter().flat_map(|op| again.step(op)).collect();
        events2.extend(again.finish());
        assert_eq!(again, st, "{gpu} sequence {n}: a second run ends in another state");
        assert_eq!(events2, events, "{gpu} sequence {n}: a second run gives other events");
        ops_run += len;
    }
    ops_run
}

#[test]
fn random_sequences_keep_the_rules_invariants() {
    let per_chip =
        std::env::var("NVXF_RANDOM_SEQUENCES").ok().and_then(|s| s.parse().ok()).unwrap_or(SEQUENCES_PER_CHIP);
    let mut rng = Rng(SEED);
    let mut per_family = [0usize; 4];
    let mut seen = Seen::default();
    for gpu in ALL_GPUS {
        run_chip(gpu, Rules::Hardware, per_chip, &mut rng, &mut seen);
        run_chip(gpu, Rules::Overview, per_chip / 10, &mut rng, &mut seen);
        per_family[gpu.family() as usize] += per_chip;
    }
    for (f, n) in [Family::Celsius, Family::Kelvin, Family::Rankine, Family::Curie].iter().zip(per_family) {
        assert!(n >= 4 * per_chip, "{f}: {n} sequences");
    }
    eprintln!("{per_family:?} hardware-rule sequences per family; {seen:?}");
    let min = per_chip / 10;
    assert!(seen.past_end >= min && seen.wrapped >= min && seen.commits >= min, "{seen:?}");
    assert!(seen.lt_commits >= min && seen.timeouts >= min / 10, "{seen:?}");
}
