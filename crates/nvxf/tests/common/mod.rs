//! Shared test helpers: every quote a test relies on is checked against the copy of the
//! document kept in tests/data (source: envytools docs/hw/graph/xf/intro.rst).

#![allow(dead_code)]

const OVERVIEW: &str = include_str!("../data/xf_overview.rst");
const ERRATA: &str = include_str!("../data/errata_open_xf.md");

fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Asserts that `text` is a quote of the XF overview (whitespace-insensitive) and returns it.
pub fn quote(text: &str) -> &str {
    assert!(norm(OVERVIEW).contains(&norm(text)), "not a quote of the XF overview: {text}");
    text
}

/// Asserts that `text` is a quote of the ERRATA OPEN XF items.
pub fn errata(text: &str) -> &str {
    assert!(norm(ERRATA).contains(&norm(text)), "not a quote of ERRATA: {text}");
    text
}
