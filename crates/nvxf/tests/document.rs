//! One test per checkable statement of the XF overview (envytools docs/hw/graph/xf/intro.rst,
//! kept in tests/data/xf_overview.rst). Each test quotes the statement it checks; the quote is
//! itself verified against the copy of the document.

mod common;
use common::{errata, quote};
use nvxf::cmd::{Addr, CmdType, Op, Payload, Readable, ALL_CMD_TYPES};
use nvxf::float::{self, LtRounding};
use nvxf::gen::{Fact, Family, Feature, Gpu, ALL_GPUS};
use nvxf::ram::{CommitRule, Ram};
use nvxf::sim::{Event, Options, XfState};
use nvxf::vab::{self, Nv2aFog};
use nvxf::{rdi, wrap};

fn g(name: &str) -> Gpu {
    Gpu::from_name(name).unwrap()
}

fn w(gpu: Gpu, cmd: CmdType, vector: u32, word: u32, data: u32) -> Op {
    Op::write(cmd, Addr::new(gpu, vector, word).unwrap(), Payload::One(data)).unwrap()
}

fn w2(gpu: Gpu, cmd: CmdType, vector: u32, word: u32, a: u32, b: u32) -> Op {
    Op::write(cmd, Addr::new(gpu, vector, word).unwrap(), Payload::Pair(a, b)).unwrap()
}

// ---------------------------------------------------------------- generations

#[test]
fn families_group_the_generations() {
    quote("NV10: the original incarnation of XF.");
    for (n, f) in [
        ("NV10", Family::Celsius),
        ("NV15", Family::Celsius),
        ("NV1A", Family::Celsius),
        ("NV20", Family::Kelvin),
        ("NV25", Family::Kelvin),
        ("NV2A", Family::Kelvin),
        ("NV30", Family::Rankine),
        ("NV34", Family::Rankine),
        ("NV35", Family::Rankine),
        ("NV40", Family::Curie),
        ("NV41", Family::Curie),
        ("NV43", Family::Curie),
        ("NV44", Family::Curie),
    ] {
        assert_eq!(g(n).family(), f, "{n}");
        assert_eq!(g(n).name(), n);
    }
    assert_eq!(Gpu::from_name("xbox").unwrap(), Gpu::Nv2a);
    assert!(Gpu::from_name("NV50").is_err());
}

#[test]
fn nv20_introduces_programmability() {
    quote("NV20: Introduces support for programmability, aka vertex shaders.");
    quote("two-sided lighting is supported");
    assert_eq!(g("NV15").has(Feature::Programs), Fact::No);
    assert_eq!(g("NV20").has(Feature::Programs), Fact::Yes);
    assert_eq!(g("NV20").has(Feature::TwoSidedLighting), Fact::Yes);
    assert_eq!(g("NV10").has(Feature::TwoSidedLighting), Fact::No);
}

#[test]
fn weighting_and_texcoord_sets() {
    quote("can transform via a weighted combination of two matrices");
    quote("weighting supports up to 4 matrices and 4 weights");
    quote("4 sets of output texture coordinates are supported");
    quote("8 sets of output texture coordinates are supported");
    assert_eq!(g("NV10").blend_matrices(), 2);
    assert_eq!(g("NV20").blend_matrices(), 4);
    assert_eq!(g("NV20").texcoord_sets(), 4);
    assert_eq!(g("NV30").texcoord_sets(), 8);
}

#[test]
fn nv25_two_xf_units() {
    quote("NV25: Includes two XF units on GPU, for double processing power.");
    assert_eq!(g("NV25").has(Feature::TwoXfUnits), Fact::Yes);
    assert_eq!(g("NV20").has(Feature::TwoXfUnits), Fact::No);
}

#[test]
fn nv30_changes() {
    quote("bypass mode has been removed");
    quote("to prevent infinite loops, a configurable timeout was added");
    quote("up to 6 clip distances can be output by user program");
    quote("a new Rankine ISA (a proper superset of Kelvin ISA)");
    quote("Kelvin ISA is supported as a compatibility mode");
    for n in ["NV10", "NV20", "NV2A"] {
        assert_eq!(g(n).has(Feature::BypassMode), Fact::Yes, "{n}");
    }
    assert_eq!(g("NV30").has(Feature::BypassMode), Fact::No);
    assert_eq!(g("NV30").has(Feature::ProgramTimeout), Fact::Yes);
    assert_eq!(g("NV25").has(Feature::ProgramTimeout), Fact::No);
    assert_eq!(g("NV30").has(Feature::ClipDistances), Fact::Yes);
    assert_eq!(g("NV30").has(Feature::KelvinIsa), Fact::Yes);
    assert_eq!(g("NV30").has(Feature::RankineIsa), Fact::Yes);
}

#[test]
fn nv34_removes_alternate_attenuation() {
    quote("NV34: Minor revision, removing support for alternate light attenuation mode");
    assert_eq!(g("NV30").has(Feature::AltLightAttenuation), Fact::Yes);
    assert_eq!(g("NV34").has(Feature::AltLightAttenuation), Fact::No);
    assert_eq!(g("NV35").has(Feature::AltLightAttenuation), Fact::Unknown);
}

#[test]
fn nv40_and_nv41_changes() {
    quote("LT is no longer present");
    quote("Kelvin ISA is no longer supported");
    quote("Rankine ISA is supported as a compatibility mode");
    quote("XF state is now specified by pipeline bundles, like most other pipeline state -- XFMODE is gone");
    quote("the fixed-function mode is completely gone");
    quote("Rankine ISA is no longer supported");
    let nv40 = g("NV40");
    assert_eq!(nv40.has(Feature::LtUnit), Fact::No);
    assert_eq!(g("NV35").has(Feature::LtUnit), Fact::Yes);
    assert_eq!(nv40.has(Feature::KelvinIsa), Fact::No);
    assert_eq!(nv40.has(Feature::RankineIsa), Fact::Yes);
    assert_eq!(nv40.has(Feature::XfMode), Fact::No);
    assert_eq!(nv40.has(Feature::FixedFunction), Fact::Yes);
    assert_eq!(g("NV41").has(Feature::FixedFunction), Fact::No);
    assert_eq!(g("NV41").has(Feature::RankineIsa), Fact::No);
    assert_eq!(g("NV41").native_isa(), nvxf::gen::NativeIsa::Curie);
    assert_eq!(nv40.native_isa(), nvxf::gen::NativeIsa::Combined);
    assert_eq!(nv40.has(Feature::TextureLookup), Fact::Yes);
}

#[test]
fn nv43_shortens_xfctx() {
    quote("NV43: Shortened XFCTX from 0x220 words to 0x1d4 words.");
    assert_eq!(Ram::Xfctx.size(g("NV40")).unwrap().vectors, 0x220);
    assert_eq!(Ram::Xfctx.size(g("NV41")).unwrap().vectors, 0x220);
    assert_eq!(Ram::Xfctx.size(g("NV43")).unwrap().vectors, 0x1d4);
}

// ---------------------------------------------------------------- addresses

#[test]
fn address_widths_per_generation() {
    quote("an address (10 to 14-bit, depending on GPU)");
    quote("bits 4-9 [NV10:NV20], 4-11 [NV20:NV30], 4-12 [NV30:NV40], or 4-13 [NV40:]: select the 128-bit vector in a space.");
    for (n, last_bit) in
        [("NV10", 9), ("NV1A", 9), ("NV20", 11), ("NV2A", 11), ("NV35", 12), ("NV40", 13), ("NV44", 13)]
    {
        let gpu = g(n);
        assert_eq!(gpu.address_bits(), last_bit + 1, "{n}");
        let top = (1u32 << (last_bit + 1)) - 4;
        let a = Addr::decode(gpu, top).unwrap();
        assert_eq!(a.vector, (1 << (last_bit - 3)) - 1);
        assert!(Addr::decode(gpu, top + 4).is_err(), "{n}: bit {} is past the field", last_bit + 1);
    }
}

#[test]
fn address_word_order() {
    quote("bits 0-1: always 0 (ie. all addresses are word-aligned).");
    quote("bits 2-3: select a 32-bit word in a 128-bit vector.  0 is the highest word (or the X component), while 3 is the lowest word (or the W component).");
    let gpu = g("NV20");
    let a = Addr::decode(gpu, 0x12c).unwrap();
    assert_eq!((a.vector, a.word, a.word_name()), (0x12, 3, "W"));
    assert_eq!(Addr::decode(gpu, 0x120).unwrap().word_name(), "X");
    assert_eq!(a.encode(), 0x12c);
    for bad in [0x121, 0x122, 0x123] {
        let e = Addr::decode(gpu, bad).unwrap_err().to_string();
        assert!(e.contains("word-aligned"), "{e}");
    }
    // Round trip over the whole address space of every generation.
    for gpu in ALL_GPUS {
        for raw in (0..1u32 << gpu.address_bits()).step_by(4) {
            assert_eq!(Addr::decode(gpu, raw).unwrap().encode(), raw);
        }
    }
}

#[test]
fn writes_are_32_or_aligned_64_bit() {
    quote("Write commands can target a 32-bit word, or an aligned pair of 32-bit words.");
    let gpu = g("NV20");
    for word in [0, 2] {
        assert!(Op::write(CmdType::Xfctx, Addr::new(gpu, 0, word).unwrap(), Payload::Pair(1, 2)).is_ok());
    }
    for word in [1, 3] {
        assert!(Op::write(CmdType::Xfctx, Addr::new(gpu, 0, word).unwrap(), Payload::Pair(1, 2)).is_err());
        assert!(Op::write(CmdType::Xfctx, Addr::new(gpu, 0, word).unwrap(), Payload::One(1)).is_ok());
    }
}

// ---------------------------------------------------------------- command types

#[test]
fn sixteen_command_types_with_names() {
    quote("write command: contains a 4-bit command type");
    let names = [
        "nop", "vab", "xfpr", "unk3", "param", "passthru", "run", "mode", "xtra", "xfctx", "ltctx", "ltc0", "ltc1",
        "ltc2", "ltc3", "sync",
    ];
    for (i, c) in ALL_CMD_TYPES.iter().enumerate() {
        assert_eq!(c.number(), i as u32);
        assert_eq!(c.name(), names[i]);
        assert_eq!(CmdType::parse(names[i]).unwrap(), *c);
        assert_eq!(CmdType::parse(&format!("{i:#x}")).unwrap(), *c);
    }
    assert!(CmdType::from_number(16).is_err());
    // 0x3 is not in the document's list of command types.
    assert!(!CmdType::Unk3.exists_on(g("NV20")));
}

#[test]
fn command_availability() {
    quote("0x2: XFPR [NV20:].");
    quote("0x4: PARAM [NV20:NV41?].");
    quote("0x6: RUN [NV20:NV41?].");
    quote("0x7: MODE [NV10:NV40].");
    quote("0x8: XTRA [NV30:NV41].");
    quote("0xb: LTC0 [NV10:NV30].");
    let table: &[(CmdType, &[&str], &[&str])] = &[
        (CmdType::Xfpr, &["NV20", "NV2A", "NV30", "NV40", "NV44"], &["NV10", "NV1A"]),
        (CmdType::Param, &["NV20", "NV35", "NV40"], &["NV1A", "NV41", "NV43"]),
        (CmdType::Run, &["NV25", "NV40"], &["NV15", "NV41"]),
        (CmdType::Mode, &["NV10", "NV2A", "NV35"], &["NV40", "NV44"]),
        (CmdType::Xtra, &["NV30", "NV34", "NV40"], &["NV2A", "NV41"]),
        (CmdType::Ltc0, &["NV10", "NV25", "NV2A"], &["NV30", "NV40"]),
    ];
    for (c, yes, no) in table {
        for n in *yes {
            assert!(c.exists_on(g(n)), "{c} on {n}");
        }
        for n in *no {
            assert!(!c.exists_on(g(n)), "{c} not on {n}");
        }
    }
    for c in [
        CmdType::Nop,
        CmdType::Vab,
        CmdType::Passthru,
        CmdType::Xfctx,
        CmdType::Ltctx,
        CmdType::Ltc1,
        CmdType::Ltc2,
        CmdType::Ltc3,
        CmdType::Sync,
    ] {
        for gpu in ALL_GPUS {
            assert!(c.exists_on(gpu), "{c} on {gpu}");
        }
    }
    assert_eq!(CmdType::Param.availability_text(), "[NV20:NV41?]");
    assert_eq!(CmdType::Xfpr.availability_text(), "[NV20:]");
}

#[test]
fn readability() {
    quote("0x0: NOP.  Writes store the payload in VAB passthrough slot and do nothing. Not readable.");
    quote("0x1: VAB.  Writes or reads VAB words.");
    quote(
        "Using it without the accompanying IDX2VTX command will desync and hang VTX, so don't do that.  Not readable.",
    );
    quote("0x9: XFCTX.  Assembles a vector and sends it through IBUF to XFCTX. Readable.");
    quote("0xb: LTC0 [NV10:NV30].  Goes  through IBUF and WBUF/VBUF to LTC0.  Readable.");
    quote("0xf: SYNC.  Performs a full XF barrier -- waits for all pending vertices to be processed before processing any more commands.  Not readable.");
    for c in [CmdType::Vab, CmdType::Xfctx, CmdType::Ltctx, CmdType::Ltc0, CmdType::Ltc1, CmdType::Ltc2, CmdType::Ltc3]
    {
        assert_eq!(c.readable(), Readable::Yes, "{c}");
    }
    for c in [CmdType::Nop, CmdType::Passthru, CmdType::Mode, CmdType::Sync] {
        assert_eq!(c.readable(), Readable::No, "{c}");
    }
}

// ---------------------------------------------------------------- wrapping

#[test]
fn wrapping_celsius() {
    quote("On Celsius, the wrapped command addresses are: - bits 0-9: XF address - bits 10-13: XF command type - bit 14: set to 1 (identifies wrapped XF command).");
    let gpu = g("NV10");
    let a = Addr::new(gpu, 0x3b, 2).unwrap();
    let wr = wrap::wrap(gpu, CmdType::Xfctx, a).unwrap();
    assert_eq!(wr, 1 << 14 | 9 << 10 | 0x3b8);
    assert_eq!(wrap::unwrap(gpu, wr).unwrap(), (CmdType::Xfctx, a));
    assert!(wrap::unwrap(gpu, wr & !(1 << 14)).unwrap_err().to_string().contains("bit 14"));
}

#[test]
fn wrapping_kelvin() {
    quote("On Kelvin: - bits 0-11: XF address - bits 12-15: XF command type - bit 16: set to 1.");
    let gpu = g("NV2A");
    let a = Addr::new(gpu, 0xbf, 3).unwrap();
    let wr = wrap::wrap(gpu, CmdType::Xfpr, a).unwrap();
    assert_eq!(wr, 1 << 16 | 2 << 12 | 0xbfc);
    assert_eq!(wrap::unwrap(gpu, wr).unwrap(), (CmdType::Xfpr, a));
    assert!(wrap::unwrap(gpu, 0x0_9000).is_err());
    assert!(wrap::unwrap(gpu, 0x3_9000).is_err(), "bits above the marker");
}

#[test]
fn wrapping_rankine() {
    quote("On Rankine: - bits 0-12: XF address - bits 13-16: XF command type - bit 17: set to 1.");
    let gpu = g("NV34");
    let a = Addr::new(gpu, 0x1ff, 1).unwrap();
    let wr = wrap::wrap(gpu, CmdType::Xtra, a).unwrap();
    assert_eq!(wr, 1 << 17 | 8 << 13 | 0x1ff4);
    assert_eq!(wrap::unwrap(gpu, wr).unwrap(), (CmdType::Xtra, a));
    // Every wrapped address of every documented family round-trips.
    for gpu in [g("NV15"), g("NV25"), g("NV35")] {
        for c in ALL_CMD_TYPES {
            for raw in (0..1u32 << gpu.address_bits()).step_by(36) {
                let a = Addr::decode(gpu, raw).unwrap();
                let wr = wrap::wrap(gpu, c, a).unwrap();
                assert_eq!(wrap::unwrap(gpu, wr).unwrap(), (c, a));
            }
        }
    }
}

#[test]
fn wrapping_curie_is_an_error() {
    quote(".. todo:: Figure out how this works on Curie.");
    for n in ["NV40", "NV41", "NV43", "NV44"] {
        let e = wrap::unwrap(g(n), 0x4_0000).unwrap_err().to_string();
        assert!(e.contains("undocumented"), "{e}");
        assert!(wrap::wrap(g(n), CmdType::Vab, Addr::new(g(n), 0, 0).unwrap()).is_err());
    }
}

// ---------------------------------------------------------------- VAB

#[test]
fn vab_slots_celsius() {
    quote("On Celsius, VAB is made of 8 128-bit vectors");
    quote("- 0: OPOS, the object position.");
    quote("- 7: PASS, the passthrough slot, used to assemble full vectors for commands other than VAB.");
    let gpu = g("NV10");
    assert_eq!(gpu.vab_slots(), 8);
    assert_eq!(gpu.pass_slot(), Some(7));
    let names: Vec<_> = (0..8).map(|s| vab::slot_name(gpu, s).unwrap()).collect();
    assert_eq!(names, ["OPOS", "COL0", "COL1F", "TXC0", "TXC1", "NRML", "WGHT", "PASS"]);
}

#[test]
fn vab_slots_kelvin_rankine_curie() {
    quote("On Kelvin and Rankine, VAB is made of 17 128-bit vectors:");
    quote("- 16: PASS, the passthrough slot.");
    quote("On Curie, VAB is made of 16 128-bit vectors, corresponding directly to the input vertex attributes (there is no passthrough slot).");
    for n in ["NV20", "NV2A", "NV30", "NV35"] {
        assert_eq!(g(n).vab_slots(), 17);
        assert_eq!(g(n).pass_slot(), Some(16));
        assert_eq!(vab::slot_name(g(n), 16), Some("PASS"));
    }
    assert_eq!(g("NV40").vab_slots(), 16);
    assert_eq!(g("NV40").pass_slot(), None);
}

#[test]
fn fixed_function_tables() {
    quote("- 5: FOGC, the fog coordinate (only X is used).");
    quote("- 9-12: TXC0-TXC3, the texture coordinates.");
    quote("- 8-15: TXC0-TXC7.");
    let k = g("NV20");
    assert_eq!(vab::slot_name(k, 1), Some("WGHT"));
    assert_eq!(vab::slot_name(k, 3), Some("COL0"));
    assert_eq!(vab::slot_name(k, 5), Some("FOGC"));
    assert_eq!(vab::slot_name(k, 7), None);
    assert_eq!(vab::slot_name(k, 9), Some("TXC0"));
    assert_eq!(vab::slot_name(k, 12), Some("TXC3"));
    assert_eq!(vab::slot_name(k, 13), None);
    for n in ["NV30", "NV40"] {
        assert_eq!(vab::slot_name(g(n), 7), None);
        assert_eq!(vab::slot_name(g(n), 8), Some("TXC0"));
        assert_eq!(vab::slot_name(g(n), 15), Some("TXC7"));
    }
    assert_eq!(vab::slot_by_name(k, "txc1"), Some(10));
    assert_eq!(vab::slot_by_name(k, "attr7"), Some(7));
}

fn vab_after(gpu: Gpu, ops: &[Op]) -> Vec<[u32; 4]> {
    let mut s = XfState::new(gpu, Options::overview());
    for op in ops {
        s.step(op);
    }
    s.vab().to_vec()
}

const JUNK: [u32; 4] = [0x11, 0x22, 0x33, 0x44];

/// Writes X, Y, Z, W in that order, so that the slot ends up holding exactly JUNK.
fn fill(gpu: Gpu, slot: u32) -> Vec<Op> {
    (0..4).map(|i| w(gpu, CmdType::Vab, slot, i, JUNK[i as usize])).collect()
}

#[test]
fn vab_rule_celsius() {
    quote("If component X or Y of slots 0, 1, 3, or 4 (OPOS, COL0, TXC*) is being written:");
    quote("On NV15 and up, set component Y to 0.");
    quote("Set component Z to 0.");
    quote("Set component W to 0x3f800000 (1.0f).");
    quote("Set the selected component(s) of the selected slot to the submitted value(s).");
    for n in ["NV15", "NV1A"] {
        let gpu = g(n);
        for slot in [0, 1, 3, 4] {
            let mut ops = fill(gpu, slot);
            ops.push(w(gpu, CmdType::Vab, slot, 0, 0xaa));
            assert_eq!(vab_after(gpu, &ops)[slot as usize], [0xaa, 0, 0, float::ONE], "{n} slot {slot} X");
            let mut ops = fill(gpu, slot);
            ops.push(w(gpu, CmdType::Vab, slot, 1, 0xbb));
            assert_eq!(vab_after(gpu, &ops)[slot as usize], [0x11, 0xbb, 0, float::ONE], "{n} slot {slot} Y");
            // Writing Z or W alone does not reset.
            let mut ops = fill(gpu, slot);
            ops.push(w(gpu, CmdType::Vab, slot, 2, 0xcc));
            assert_eq!(vab_after(gpu, &ops)[slot as usize], [0x11, 0x22, 0xcc, 0x44]);
        }
        // Slots 2, 5, 6 never reset.
        for slot in [2, 5, 6] {
            let mut ops = fill(gpu, slot);
            ops.push(w(gpu, CmdType::Vab, slot, 0, 0xaa));
            assert_eq!(vab_after(gpu, &ops)[slot as usize], [0xaa, 0x22, 0x33, 0x44], "{n} slot {slot}");
        }
    }
    // NV10 keeps Y.
    let nv10 = g("NV10");
    let mut ops = fill(nv10, 0);
    ops.push(w(nv10, CmdType::Vab, 0, 0, 0xaa));
    assert_eq!(vab_after(nv10, &ops)[0], [0xaa, 0x22, 0, float::ONE]);
    // A 64-bit X,Y write: reset then both words.
    let nv15 = g("NV15");
    let mut ops = fill(nv15, 3);
    ops.push(w2(nv15, CmdType::Vab, 3, 0, 0xaa, 0xbb));
    assert_eq!(vab_after(nv15, &ops)[3], [0xaa, 0xbb, 0, float::ONE]);
}

#[test]
fn vab_rule_kelvin_and_up() {
    quote("If component X of any slot other than the passthrough one is being written:");
    quote("Set component Y to 0.");
    for n in ["NV20", "NV2A", "NV30", "NV40", "NV44"] {
        let gpu = g(n);
        for slot in 0..16 {
            let mut ops = fill(gpu, slot);
            ops.push(w(gpu, CmdType::Vab, slot, 0, 0xaa));
            assert_eq!(vab_after(gpu, &ops)[slot as usize], [0xaa, 0, 0, float::ONE], "{n} {slot}");
            let mut ops = fill(gpu, slot);
            ops.push(w(gpu, CmdType::Vab, slot, 1, 0xbb));
            assert_eq!(vab_after(gpu, &ops)[slot as usize], [0x11, 0xbb, 0x33, 0x44], "{n} {slot} Y only");
            let mut ops = fill(gpu, slot);
            ops.push(w2(gpu, CmdType::Vab, slot, 0, 0xaa, 0xbb));
            assert_eq!(vab_after(gpu, &ops)[slot as usize], [0xaa, 0xbb, 0, float::ONE]);
        }
        if let Some(pass) = gpu.pass_slot() {
            let mut ops = fill(gpu, pass as u32);
            ops.push(w(gpu, CmdType::Vab, pass as u32, 0, 0xaa));
            assert_eq!(vab_after(gpu, &ops)[pass], [0xaa, 0x22, 0x33, 0x44], "{n} PASS");
        }
    }
}

#[test]
fn nv2a_fog_is_selectable() {
    errata("NV2A (Xbox) fog coordinate: xemu's hardware tests replicate X into all four components; the envytools model resets Y, Z, W to 0, 0, 1.0 as for every other attribute.");
    let gpu = g("NV2A");
    let run = |fog| {
        let mut s = XfState::new(gpu, Options { nv2a_fog: fog, ..Options::overview() });
        s.step(&w(gpu, CmdType::Vab, 5, 0, 0x4040_0000));
        s.vab()[5]
    };
    assert_eq!(run(Nv2aFog::Document), [0x4040_0000, 0, 0, float::ONE]);
    assert_eq!(run(Nv2aFog::ReplicateX), [0x4040_0000; 4]);
    // Only NV2A's fog slot.
    let mut s = XfState::new(g("NV20"), Options { nv2a_fog: Nv2aFog::ReplicateX, ..Options::overview() });
    s.step(&w(g("NV20"), CmdType::Vab, 5, 0, 7));
    assert_eq!(s.vab()[5], [7, 0, 0, float::ONE]);
}

#[test]
fn vertex_copies_vab_except_pass() {
    quote("Whenever IDX signals that a vertex is to be processed, the contents of the VAB (except for the passthrough slot) are copied to an IBUF slot for processing");
    for (n, attrs) in [("NV10", 7), ("NV20", 16), ("NV35", 16), ("NV40", 16)] {
        let gpu = g(n);
        let mut s = XfState::new(gpu, Options::overview());
        s.step(&w(gpu, CmdType::Vab, 0, 3, 0x1234));
        if let Some(p) = gpu.pass_slot() {
            s.step(&w(gpu, CmdType::Vab, p as u32, 0, 0x5555));
        }
        let ev = s.step(&Op::Vertex);
        let Event::Vertex { attributes } = &ev[0] else { panic!("{ev:?}") };
        assert_eq!(attributes.len(), attrs, "{n}");
        assert_eq!(attributes[0][3], 0x1234);
        assert!(attributes.iter().all(|a| a[0] != 0x5555));
    }
}

// ---------------------------------------------------------------- passthrough slot

#[test]
fn passthrough_assembly_and_commit_on_word_3() {
    quote("for most commands, writing to words 0-2 merely store the payload in the VAB passthrough slot, while writing to word 3 completes the 128-bit vector in the VAB and send it downstream.");
    let gpu = g("NV20");
    let opts = Options::overview();
    for cmd in [CmdType::Xfctx, CmdType::Xfpr, CmdType::Mode, CmdType::Ltc1, CmdType::Ltctx] {
        let mut s = XfState::new(gpu, opts);
        for word in 0..3 {
            let ev = s.step(&w(gpu, cmd, 0, word, 0x4000_0000 + word));
            assert!(ev.is_empty(), "{cmd} word {word}: {ev:?}");
        }
        assert_eq!(s.pass().unwrap()[..3], [0x4000_0000, 0x4000_0001, 0x4000_0002]);
        let ev = s.step(&w(gpu, cmd, 0, 3, 0x4000_0003));
        assert!(matches!(ev[0], Event::Commit { vector: 0, .. }), "{cmd}: {ev:?}");
    }
}

#[test]
fn errata_commit_points() {
    errata("XFCTX commits on word 3 (or a 64-bit pair written at word 2), LTCTX on word 2 (3-component vectors), XFPR, XTRA and LTC on every word");
    let gpu = g("NV30");
    // The overview's rule set commits on word 3; the hardware rules are the default, and
    // the envytools-everywhere rule stays an option.
    assert_eq!(Options::overview().commit, CommitRule::Document);
    assert_eq!(Options::default().commit, CommitRule::Hardware);
    let opts = Options { commit: CommitRule::Envytools, ..Options::overview() };
    let commits = |cmd, word| {
        let mut s = XfState::new(gpu, opts);
        s.step(&w(gpu, cmd, 1, word, 0x3f80_0000)).iter().any(|e| matches!(e, Event::Commit { .. }))
    };
    for word in 0..4 {
        assert_eq!(commits(CmdType::Xfctx, word), word == 3);
        assert_eq!(commits(CmdType::Ltctx, word), word == 2);
        assert!(commits(CmdType::Xfpr, word));
        assert!(commits(CmdType::Xtra, word));
        assert!(commits(CmdType::Ltc2, word));
        assert_eq!(commits(CmdType::Mode, word), word == 3);
    }
    let mut s = XfState::new(gpu, opts);
    let ev = s.step(&w2(gpu, CmdType::Xfctx, 1, 2, 5, 6));
    assert!(matches!(ev[0], Event::Commit { vector: 1, words: [0, 0, 5, 6], .. }));
    // LTCTX keeps 3 components.
    let mut s = XfState::new(gpu, opts);
    s.step(&w(gpu, CmdType::Ltctx, 0, 3, 0x4000_0000));
    s.step(&w(gpu, CmdType::Ltctx, 0, 2, 0x3f80_0000));
    assert_eq!(s.ram(Ram::Ltctx).unwrap().get(0).unwrap(), &[0, 0, 0x3f80_0000, 0]);
}

#[test]
fn nop_param_sync_only_gather() {
    quote("NOP (though the written data is ignored in this case)");
    quote("PARAM (merely gathers the components, does not send them anywhere)");
    quote("RUN (doesn't write the slot, merely reads the value left by the PARAM command)");
    let gpu = g("NV25");
    let mut s = XfState::new(gpu, Options::overview());
    assert!(s.step(&w(gpu, CmdType::Nop, 0, 3, 9)).is_empty());
    assert_eq!(s.pass().unwrap()[3], 9);
    for (i, v) in [1u32, 2, 3, 4].iter().enumerate() {
        assert!(s.step(&w(gpu, CmdType::Param, 0, i as u32, *v)).is_empty());
    }
    let ev = s.step(&w(gpu, CmdType::Run, 0, 3, 0x10));
    assert_eq!(ev, vec![Event::Run { payload: 0x10, param: [1, 2, 3, 4] }]);
    assert_eq!(s.pass().unwrap(), &[1, 2, 3, 4], "RUN does not write the slot");
    let ev = s.step(&w(gpu, CmdType::Sync, 0, 3, 0xdead));
    assert_eq!(ev, vec![Event::Sync]);
}

#[test]
fn writes_beyond_a_ram_are_dropped() {
    errata("writes past the end of a RAM are dropped");
    let gpu = g("NV20");
    let mut s = XfState::new(gpu, Options::overview());
    let ev = s.step(&w(gpu, CmdType::Xfctx, 0xc0, 3, 1));
    assert!(matches!(ev[0], Event::Dropped { vector: 0xc0, limit: 0xc0, .. }), "{ev:?}");
    let ev = s.step(&w(gpu, CmdType::Xfctx, 0xbf, 3, 1));
    assert!(matches!(ev[0], Event::Commit { vector: 0xbf, .. }));
    let ev = s.step(&w(gpu, CmdType::Vab, 17, 0, 1));
    assert!(matches!(ev[0], Event::Dropped { vector: 17, limit: 17, .. }));
    assert_eq!(s.ram(Ram::Xfctx).unwrap().written().count(), 1);
}

#[test]
fn ram_sizes_fit_the_address_field() {
    quote("XFPR [NV20:]: RAM containing user programs.");
    for gpu in ALL_GPUS {
        for ram in nvxf::ram::ALL_RAMS {
            if let Some(sz) = ram.size(gpu) {
                assert!(sz.vectors <= 1 << gpu.vector_bits(), "{ram:?} on {gpu}");
                assert!(ram.cmd().exists_on(gpu), "{ram:?} sized on {gpu} but its command is absent");
            }
        }
        assert_eq!(Ram::Xfpr.size(gpu).is_some(), gpu.chipset() >= 0x20);
    }
}

// ---------------------------------------------------------------- reads, hazards

#[test]
fn reads_deliver_a_word() {
    quote("Read commands always target a 32-bit word, which will be read and delivered to XF2VTX interface.");
    let gpu = g("NV10");
    let mut s = XfState::new(gpu, Options::overview());
    for word in 0..4 {
        s.step(&w(gpu, CmdType::Xfctx, 0x3b, word, 0x100 + word));
    }
    let a = Addr::new(gpu, 0x3b, 1).unwrap();
    let ev = s.step(&Op::Read { cmd: CmdType::Xfctx, addr: a });
    assert_eq!(ev, vec![Event::Read { cmd: CmdType::Xfctx, vector: 0x3b, word: 1, value: 0x101 }]);
    s.step(&w(gpu, CmdType::Vab, 4, 2, 0x77));
    let ev = s.step(&Op::Read { cmd: CmdType::Vab, addr: Addr::new(gpu, 4, 2).unwrap() });
    assert!(matches!(ev[0], Event::Read { value: 0x77, .. }));
}

#[test]
fn invalid_read_hangs_and_model_goes_on() {
    quote("If the address is not valid for reading, XF will ignore the read command and deliver nothing to VTX.  This will cause VTX to hang");
    let gpu = g("NV15");
    let mut s = XfState::new(gpu, Options::overview());
    for (cmd, v) in [(CmdType::Mode, 0), (CmdType::Passthru, 0), (CmdType::Xfctx, 0x3c), (CmdType::Ltc0, 3)] {
        let ev = s.step(&Op::Read { cmd, addr: Addr::new(gpu, v, 0).unwrap() });
        assert!(matches!(&ev[0], Event::Hang { .. }), "{cmd}: {ev:?}");
        assert_eq!(ev.len(), 1, "nothing delivered");
    }
    let ev = s.step(&Op::Read { cmd: CmdType::Ltc0, addr: Addr::new(gpu, 2, 0).unwrap() });
    assert!(matches!(ev[0], Event::Read { .. }));
}

#[test]
fn reads_are_celsius_only() {
    quote("read command [Celsius only]");
    let gpu = g("NV20");
    let mut s = XfState::new(gpu, Options::overview());
    let ev = s.step(&Op::Read { cmd: CmdType::Xfctx, addr: Addr::new(gpu, 0, 0).unwrap() });
    assert_eq!(ev[0].kind(), "ignored");
}

#[test]
fn passthru_without_bundle_desyncs() {
    quote("This command is used by IDX along with the BUNDLE command on the IDX2VTX interface to send bundles to the VTX complex.");
    let gpu = g("NV20");
    let mut s = XfState::new(gpu, Options::overview());
    s.step(&Op::Idx2VtxBundle);
    let ev = s.step(&w(gpu, CmdType::Passthru, 0x10, 3, 0xabc));
    assert_eq!(ev.len(), 1);
    assert!(matches!(ev[0], Event::Passthru { words: [0, 0, 0, 0xabc], .. }));
    let ev = s.step(&w(gpu, CmdType::Passthru, 0x10, 3, 0xabd));
    assert_eq!(ev[1], Event::Desync { vector: 0x10, word: 3 });
    s.step(&Op::Idx2VtxBundle);
    assert!(matches!(s.finish()[0], Event::Hang { .. }));
}

// ---------------------------------------------------------------- RDI

#[test]
fn rdi_word_order() {
    quote("bits 0-31 (RDI address 0x0 modulo 0x10): W component, IDX2XF word 3");
    quote("bits 32-63 (RDI address 0x4 modulo 0x10): Z component, IDX2XF word 2");
    quote("bits 64-95 (RDI address 0x8 modulo 0x10): Y component, IDX2XF word 1");
    quote("bits 96-127 (RDI address 0xc modulo 0x10): X component, IDX2XF word 0");
    let v = [0xaaaa_aaaa, 0xbbbb_bbbb, 0xcccc_cccc, 0xdddd_dddd];
    let q = rdi::to_quadword(&v);
    assert_eq!(q as u32, 0xdddd_dddd);
    assert_eq!((q >> 32) as u32, 0xcccc_cccc);
    assert_eq!((q >> 64) as u32, 0xbbbb_bbbb);
    assert_eq!((q >> 96) as u32, 0xaaaa_aaaa);
    assert_eq!(rdi::from_quadword(q), v);
    assert!(rdi::rdi_address(u32::MAX, 0).is_err());
    for word in 0..4 {
        assert_eq!(rdi::word_offset(word), [0xc, 0x8, 0x4, 0x0][word as usize]);
        assert_eq!(rdi::from_rdi_address(g("NV20"), rdi::rdi_address(5, word).unwrap()).unwrap(), (5, word));
    }
}

#[test]
fn rdi_is_little_endian_space_0x15_on_kelvin_rankine() {
    quote("On Kelvin and Rankine, VAB can be accessed through RDI as space ``0x15``. This space is made of 128-bit little-endian quaadwords.");
    assert_eq!(rdi::VAB_SPACE, 0x15);
    let bytes = rdi::vab_to_bytes(&[[1, 2, 3, 0x0403_0201]]);
    assert_eq!(&bytes[..4], &[1, 2, 3, 4], "W first, little-endian");
    assert_eq!(&bytes[12..], &[1, 0, 0, 0]);
    for n in ["NV20", "NV2A", "NV30", "NV35"] {
        assert_eq!(rdi::bytes_to_vab(g(n), &bytes).unwrap(), vec![[1, 2, 3, 0x0403_0201]]);
    }
    for n in ["NV10", "NV40"] {
        assert!(rdi::bytes_to_vab(g(n), &bytes).is_err());
    }
}

#[test]
fn rdi_partial_write_damages() {
    quote("When writing, a complete 128-bit quadword must be written at once, or data will be damaged.");
    let gpu = g("NV25");
    let mut s = XfState::new(gpu, Options::overview());
    assert!(s.rdi_write(0x10, &[0xff; 16]).unwrap().is_empty());
    assert_eq!(s.vab()[1], [u32::MAX; 4]);
    let ev = s.rdi_write(0x24, &[0; 8]).unwrap();
    assert_eq!(ev, vec![Event::RdiDamage { slot: 2, bytes_written: 8 }]);
    let ev = s.rdi_write(0x18, &[0; 16]).unwrap();
    assert_eq!(ev.len(), 2, "straddles two quadwords: {ev:?}");
    assert!(s.rdi_write(17 * 16 - 4, &[0; 8]).is_err());
}

// ---------------------------------------------------------------- floats

#[test]
fn xf_float_rules() {
    quote("denormals are not supported (and are considered equal to 0).");
    quote("Whenever a NaN is created, the value ``0x7fffffff`` is used.");
    assert!(float::is_zero(0x0000_0001));
    assert!(float::xf_eq(0x0000_0001, 0x8000_0000));
    assert!(!float::xf_eq(0x7fc0_0000, 0x7fc0_0000));
    assert_eq!(float::canonical(0x0040_0000), 0);
    assert_eq!(float::canonical(0x8040_0000), 0x8000_0000);
    assert_eq!(float::canonical(0xffc0_0001), 0x7fff_ffff);
    assert_eq!(float::from_f32(f32::NAN), 0x7fff_ffff);
    assert_eq!(float::canonical(0x3f80_0000), 0x3f80_0000);
    assert_eq!(float::canonical(0x7f80_0000), 0x7f80_0000, "infinity stays");
}

#[test]
fn lt_float_rules() {
    quote("works like the 32-bit float format with the low 10 bits cut off (and assumed to be 0).");
    errata(
        "The 32-to-22-bit LT float conversion rounds to nearest (add 0x200, then drop 10 bits) rather than truncating.",
    );
    assert_eq!(float::to_lt22(0x3f80_03ff, LtRounding::Truncate), 0x3f80_03ff >> 10);
    assert_eq!(float::to_lt22(0x3f80_01ff, LtRounding::Nearest), 0x3f80_0000 >> 10);
    assert_eq!(float::to_lt22(0x3f80_0200, LtRounding::Nearest), (0x3f80_0000 >> 10) + 1);
    assert_eq!(float::from_lt22(0x3f80_0000 >> 10), 0x3f80_0000);
    assert_eq!(Options::overview().lt_rounding, LtRounding::Truncate, "the overview's rule truncates");
    assert_eq!(LtRounding::default(), LtRounding::Nearest, "the hardware rule is the default");
    // The rounding condition is on bits 10-17 (xf_s2lt), not on the exponent: a NaN whose
    // truncation would be an infinity stays a NaN, an infinity stays an infinity.
    assert_eq!(float::to_lt22(0x7f80_03ff, LtRounding::Nearest), (0x7f80_0000 >> 10) + 1);
    assert_eq!(float::to_lt22(0x7f80_0000, LtRounding::Nearest), 0x7f80_0000 >> 10);
    assert_eq!(float::to_lt22(0x3f83_fe00, LtRounding::Nearest), 0x3f83_fc00 >> 10, "bits 10-17 set: truncate");
    // The LT RAMs store the 22-bit value.
    let gpu = g("NV10");
    for (r, expect) in [(LtRounding::Truncate, 0x3f80_0000), (LtRounding::Nearest, 0x3f80_0400)] {
        let mut s = XfState::new(gpu, Options { lt_rounding: r, ..Options::overview() });
        s.step(&w(gpu, CmdType::Ltc1, 0, 3, 0x3f80_0300));
        assert_eq!(s.ram(Ram::Ltc1).unwrap().get(0).unwrap()[3], expect);
    }
}
