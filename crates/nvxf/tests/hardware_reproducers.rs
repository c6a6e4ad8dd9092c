//! The 14 hardware reproducers (tests/data/hardware, see its README for the source): each
//! trace runs under the default (hardware) rules, and the final state must hold exactly the
//! entries its `.expected` listing states: every listed entry with its words, every other
//! entry zero.

use nvxf::ram::Ram;
use nvxf::sim::{Options, XfState};
use nvxf::trace;
use std::collections::BTreeMap;

const NAMES: [&str; 14] = [
    "C1_vab_wrap",
    "C2_xfctx_w2_commit_0x24_0x2b",
    "C3_ltctx_w3_commit",
    "C4_ltc_wrap",
    "C5_ltc_entry0_readonly",
    "C6_ltc_word2_no_commit",
    "C7_ltc_sx_conversion",
    "K1_lt_rounding",
    "K2_ltctx_nv25_0x4c",
    "K3_ltctx_w3",
    "K4_xfpr_unstored_bits",
    "K5_xfpr_every_word",
    "R1_xtra_timeout",
    "R2_xfpr_unstored_bits",
];

fn data(name: &str) -> String {
    let p = format!("{}/tests/data/hardware/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

/// A state as the listing convention sees it: key (`xfctx.38`) -> words, in the project's
/// word order (IDX2XF word 0 first), only entries with a non-zero word.
type Listing = BTreeMap<String, Vec<u32>>;

/// The `.expected` listing in the project's terms (XFPR columns turned into word order).
fn expected(name: &str) -> Listing {
    let mut out = Listing::new();
    for line in data(&format!("{name}.expected")).lines().filter(|l| !l.trim().is_empty()) {
        let mut it = line.split_whitespace();
        let key = it.next().unwrap().to_string();
        let mut words: Vec<u32> = it.map(|w| u32::from_str_radix(w, 16).unwrap()).collect();
        if key.starts_with("xfpr.") {
            words.reverse();
        }
        assert!(out.insert(key.clone(), words).is_none(), "{name}: {key} listed twice");
    }
    out
}

/// The model's state as a listing.
fn listing(st: &XfState) -> Listing {
    let mut out = Listing::new();
    let mut add = |key: String, words: &[u32]| {
        if words.iter().any(|w| *w != 0) {
            out.insert(key, words.to_vec());
        }
    };
    for (i, v) in st.vab().iter().enumerate() {
        add(format!("vab.{i}"), v);
    }
    for ram in nvxf::ram::ALL_RAMS {
        let Some(s) = st.ram(ram) else { continue };
        for i in 0..s.len() {
            let v = s.get(i).unwrap();
            add(format!("{}.{i}", ram.name()), &v[..st.components(ram)]);
        }
    }
    if let Some(t) = st.xtra_timeout() {
        add("xtra_timeout".into(), &[t]);
    }
    out
}

fn run(name: &str) -> XfState {
    let t = trace::parse(&data(&format!("{name}.xft")), None).unwrap();
    let mut st = XfState::new(t.gpu, Options::default());
    for it in &t.items {
        st.step(&it.op);
    }
    st.finish();
    st
}

#[test]
fn every_reproducer_matches_its_expected_state() {
    for name in NAMES {
        let want = expected(name);
        assert!(!want.is_empty(), "{name}: an empty listing would test nothing");
        let got = listing(&run(name));
        for (k, w) in &want {
            assert_eq!(got.get(k), Some(w), "{name}: {k}");
        }
        for (k, w) in &got {
            assert!(want.contains_key(k), "{name}: {k} = {w:08x?} is not in the expected state (must be zero)");
        }
    }
}

#[test]
fn the_folder_holds_exactly_these_reproducers() {
    let dir = format!("{}/tests/data/hardware", env!("CARGO_MANIFEST_DIR"));
    let mut found: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".xft").map(String::from))
        .collect();
    found.sort();
    assert_eq!(found, NAMES);
}

/// The overview's rules disagree with the hardware on the reproducers that show a rule the
/// overview lacks (C3, C5, C6 and K2 happen to agree: word 3 commits there under both, and the
/// 0x4c LTCTX size is a per-chip fact): the rule switch really switches.
#[test]
fn the_overview_rules_give_other_states() {
    let mut differ = Vec::new();
    for name in NAMES {
        let t = trace::parse(&data(&format!("{name}.xft")), None).unwrap();
        let mut st = XfState::new(t.gpu, Options::overview());
        for it in &t.items {
            st.step(&it.op);
        }
        if listing(&st) != expected(name) {
            differ.push(name);
        }
    }
    let agree = ["C3_ltctx_w3_commit", "C5_ltc_entry0_readonly", "C6_ltc_word2_no_commit", "K2_ltctx_nv25_0x4c"];
    let want: Vec<&str> = NAMES.into_iter().filter(|n| !agree.contains(n)).collect();
    assert_eq!(differ, want);
    let st = run("K2_ltctx_nv25_0x4c");
    assert_eq!(st.ram(Ram::Ltctx).unwrap().len(), 0x4c);
}
