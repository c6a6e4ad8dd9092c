//! Every XF RDI space, both directions (src/rdi_space.rs).

use nvxf::cmd::{Addr, CmdType, Op, Payload};
use nvxf::gen::{Gpu, ALL_GPUS};
use nvxf::ram::Ram;
use nvxf::rdi_space::{self, Space, ALL_SPACES, TIMEOUT_OFFSET, XTRA_OFFSET};
use nvxf::sim::{Event, Options, XfState};
use nvxf::trace;

fn g(n: &str) -> Gpu {
    Gpu::from_name(n).unwrap()
}

fn run(path: &str) -> XfState {
    let text = std::fs::read_to_string(format!("{}/tests/data/hardware/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let t = trace::parse(&text, None).unwrap();
    let mut st = XfState::new(t.gpu, Options::default());
    for it in &t.items {
        st.step(&it.op);
    }
    st
}

fn w(st: &mut XfState, cmd: CmdType, vector: u32, word: u32, data: u32) {
    let op = Op::write(cmd, Addr::new(st.gpu(), vector, word).unwrap(), Payload::One(data)).unwrap();
    st.step(&op);
}

/// envytools reads space 0x10 into the columns its listings show (`pgraph_dump_rdi4`), so the
/// K4/R2 listings are the RDI words of XFPR entry 0, and R1's TIMEOUT sits at +0x11a0.
#[test]
fn xfpr_space_matches_envytools_columns() {
    let k4 = rdi_space::read(&run("K4_xfpr_unstored_bits.xft"), Space::Xfpr).unwrap();
    assert_eq!(k4.len(), 0x88 * 4, "Kelvin: 0x88 XFPR quadwords, no XTRA");
    assert_eq!(k4[..4], [0, 0, 0x0fff_ffff, 0]);
    let r2 = rdi_space::read(&run("R2_xfpr_unstored_bits.xft"), Space::Xfpr).unwrap();
    assert_eq!(r2[..4], [0, 0, 0, 0x01ff_ffff]);
    assert_eq!(r2.len() * 4, TIMEOUT_OFFSET as usize + 16, "Rankine: XFPR, XTRA, TIMEOUT");
    let r1 = rdi_space::read(&run("R1_xtra_timeout.xft"), Space::Xfpr).unwrap();
    assert_eq!(r1[TIMEOUT_OFFSET as usize / 4], 0x5678);
}

#[test]
fn xtra_is_packed_at_0x1180_and_round_trips() {
    let mut st = XfState::new(g("NV30"), Options::default());
    for (word, v) in [(0, 0x0123_4567), (1, 0x89ab_cdef), (2, 0xffff_ffff), (3, 0x5555_aaaa)] {
        w(&mut st, CmdType::Xtra, 1, word, v);
    }
    let stored = *st.ram(Ram::Xtra).unwrap().get(1).unwrap();
    assert_eq!(stored, [0x0123_4567 & 0x01ff_01ff, 0x89ab_cdef & 0x01ff_01ff, 0x01ff_01ff, 0x5555_aaaa & 0x01ff_01ff]);
    let words = rdi_space::read(&st, Space::Xfpr).unwrap();
    let q = XTRA_OFFSET as usize / 4 + 4;
    assert_eq!(words[q + 3], 0, "72 bits: the fourth word is empty");
    assert_eq!(words[q] & 0x1ff, 0x167, "bits 0-8 of X first");
    let mut back = XfState::new(g("NV30"), Options::default());
    assert!(rdi_space::write(&mut back, Space::Xfpr, 0, &words).unwrap().is_empty());
    assert_eq!(back.ram(Ram::Xtra).unwrap().get(1), Some(&stored));
    assert_eq!(rdi_space::read(&back, Space::Xfpr).unwrap(), words);
}

/// Random contents written through each space read back unchanged, and fill the RAM as the
/// IDX2XF commands would see it.
#[test]
fn every_space_round_trips_on_kelvin_and_rankine() {
    let mut seed = 0x1234_5678_9abc_def0u64;
    let mut rnd = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed as u32
    };
    for gpu in ALL_GPUS.into_iter().filter(|g| ALL_SPACES.iter().any(|s| s.check(*g).is_ok())) {
        for space in ALL_SPACES.into_iter().filter(|s| s.check(gpu).is_ok()) {
            let mut st = XfState::new(gpu, Options::default());
            let n = rdi_space::read(&st, space).unwrap().len();
            assert!(n > 0 && n.is_multiple_of(4), "{gpu} {space:?}");
            let words: Vec<u32> = (0..n).map(|_| rnd()).collect();
            let ev = rdi_space::write(&mut st, space, 0, &words).unwrap();
            assert!(ev.is_empty(), "{gpu} {space:?}: whole quadwords do no damage");
            let once = rdi_space::read(&st, space).unwrap();
            let mut again = XfState::new(gpu, Options::default());
            rdi_space::write(&mut again, space, 0, &once).unwrap();
            assert_eq!(rdi_space::read(&again, space).unwrap(), once, "{gpu} {space:?}: write(read) is stable");
        }
    }
}

#[test]
fn ltctx_packs_three_22_bit_values() {
    let mut st = XfState::new(g("NV20"), Options::default());
    let op =
        Op::write(CmdType::Ltctx, Addr::new(st.gpu(), 5, 0).unwrap(), Payload::Pair(0x3f80_0000, 0x4000_0000)).unwrap();
    st.step(&op);
    w(&mut st, CmdType::Ltctx, 5, 2, 0x4040_0000);
    let words = rdi_space::read(&st, Space::LtctxA).unwrap();
    assert_eq!(words.len(), 0x4a * 4);
    let q = u128::from(words[20]) | u128::from(words[21]) << 32 | u128::from(words[22]) << 64;
    assert_eq!(q & 0x3f_ffff, 0x4040_0000 >> 10, "Z in bits 0-21");
    assert_eq!(q >> 22 & 0x3f_ffff, 0x4000_0000 >> 10, "Y in bits 22-43");
    assert_eq!(q >> 44 & 0x3f_ffff, 0x3f80_0000 >> 10, "X in bits 44-65");
    assert_eq!(q >> 66, 0);
    // NV25 splits LTCTX: 0x26 entries in each of 0x16 and 0x18.
    let nv25 = XfState::new(g("NV25"), Options::default());
    assert_eq!(rdi_space::read(&nv25, Space::LtctxA).unwrap().len(), 0x26 * 4);
    assert_eq!(rdi_space::read(&nv25, Space::LtctxB).unwrap().len(), 0x26 * 4);
}

/// nxdk_vsh_tests `src/test_host.cpp` `fetch_constants`, run on an Xbox (NV2A), sets the RDI
/// index to 0x170000 and reads 192 entries of four words; the first word of an entry is
/// component 3 (W), the fourth component 0 (X) ("values appear to be retrieved in inverse
/// order"). XboxDev/nv2a-trace `Trace.py` dumps the same 192 x 4 words. Pin that layout.
#[test]
fn xfctx_space_matches_nv2a_hardware_reads() {
    let (x, y, z, wv) = (0x3f80_0000, 0x4000_0000, 0x4040_0000, 0x4080_0000);
    let mut st = XfState::new(g("NV2A"), Options::default());
    for (word, v) in [(0, x), (1, y), (2, z), (3, wv)] {
        w(&mut st, CmdType::Xfctx, 188, word, v);
    }
    let words = rdi_space::read(&st, Space::Xfctx).unwrap();
    assert_eq!(words.len(), 192 * 4, "192 quadwords, as nv2a-trace dumps");
    let at = 188 * 0x10 / 4;
    assert_eq!(words[at..at + 4], [wv, z, y, x], "entry 188 at 0xbc0: W, Z, Y, X");
    // The write direction is the inverse (an assumption: no source writes this space).
    let mut back = XfState::new(g("NV2A"), Options::default());
    assert!(rdi_space::write(&mut back, Space::Xfctx, 188 * 0x10, &[wv, z, y, x]).unwrap().is_empty());
    assert_eq!(back.ram(Ram::Xfctx).unwrap().get(188), Some(&[x, y, z, wv]));
}

/// Only what a source checked is `verified`: 0x10 and 0x15 everywhere, 0x17 on NV2A, the
/// LTCTX and LTC layouts nowhere.
#[test]
fn verification_follows_the_sources() {
    for gpu in ALL_GPUS.into_iter().filter(|g| Space::Vab.check(*g).is_ok()) {
        assert!(Space::Xfpr.verified_on(gpu) && Space::Vab.verified_on(gpu), "{gpu}");
        for s in [Space::LtctxA, Space::LtctxB, Space::Ltc] {
            assert!(!s.verified_on(gpu), "{gpu} {s:?}");
        }
        assert_eq!(Space::Xfctx.verified_on(gpu), gpu == g("NV2A"), "{gpu}");
    }
    assert!(!Space::Xfctx.verified(), "not verified on every chip");
    assert!(Space::Ltc.source().contains("unverified"));
}

#[test]
fn spaces_are_refused_with_the_rule() {
    for (gpu, space, want) in [
        ("NV15", Space::Xfpr, "readback"),
        ("NV40", Space::Vab, "context microcode"),
        ("NV20", Space::LtctxB, "NV25:NV30"),
        ("NV30", Space::LtctxB, "NV25:NV30"),
    ] {
        let st = XfState::new(g(gpu), Options::default());
        let e = rdi_space::read(&st, space).unwrap_err().to_string();
        assert!(e.contains(want) && e.contains(&format!("{:#x}", space.id())), "{gpu}: {e}");
    }
    assert!(Space::parse("0x11").unwrap_err().to_string().contains("not an XF space"));
    assert_eq!(Space::parse("ltctx").unwrap(), Space::LtctxA);
    assert_eq!(Space::parse("0x19").unwrap(), Space::Ltc);
}

#[test]
fn partial_quadwords_are_damage_and_bad_addresses_errors() {
    let mut st = XfState::new(g("NV20"), Options::default());
    let ev = rdi_space::write(&mut st, Space::Xfctx, 0x14, &[1, 2]).unwrap();
    assert_eq!(ev, [Event::RdiDamage { slot: 1, bytes_written: 8 }]);
    assert_eq!(st.ram(Ram::Xfctx).unwrap().get(1), Some(&[0, 2, 1, 0]), "+4 is Z, +8 is Y");
    assert!(rdi_space::write(&mut st, Space::Xfctx, 2, &[1]).is_err());
    assert!(rdi_space::write(&mut st, Space::Xfctx, 0xc00, &[1]).unwrap_err().to_string().contains("out of range"));
    assert!(rdi_space::write(&mut st, Space::Xfctx, 0, &[]).is_err());
    let mut ovw = XfState::new(g("NV30"), Options::overview());
    let e = rdi_space::write(&mut ovw, Space::Xfpr, TIMEOUT_OFFSET, &[5]).unwrap_err().to_string();
    assert!(e.contains("TIMEOUT"), "{e}");
}
