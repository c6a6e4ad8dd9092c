//! The tiling engine's speed targets (ratios to memcpy and to tegra_swizzle) and the C call's
//! (at least 0.97x the Rust call), checked against the
//! rows a run measured, so that every run says which targets it met instead of leaving the reader
//! to compare 60 cells by hand. Printed after the table (text output only: `--json` keeps its array
//! of case rows).
//!
//! Each check uses the paired ratio (`ratio_memcpy_paired`, the steadier of the two, see
//! `paired_ratio`) and, against tegra_swizzle, `ratio_tegra` (one thread only). A target whose
//! cases the run did not measure (`--case`, `--smoke`'s scaled names) is reported as not
//! measured, never as met.

use serde_json::Value;

/// One target of the issue: which rows it covers and the least ratio each must reach.
pub struct Target {
    /// The issue's words, shortened.
    pub what: &'static str,
    /// Case names the target covers.
    pub cases: &'static [&'static str],
    /// Operation (`tile`, `untile`), or `None` for both.
    pub op: Option<&'static str>,
    /// `Some(1)` for one thread, `None` for the all-threads rows (threads > 1).
    pub threads: Option<u64>,
    /// The JSON key compared: `ratio_memcpy_paired`, `ratio_tegra` or `ratio_rust_paired`.
    pub key: &'static str,
    /// The least ratio that meets the target.
    pub min: f64,
}

/// The large tegra_swizzle cases (every case of the issue's list but 64x64).
const TEGRA_LARGE: &[&str] =
    &["tegra-2048x2048x4", "tegra-4096x4096x4", "tegra-1024x1024x16", "tegra-256x256x64x4", "tegra-2000x1000x4"];

/// Every case the issue names (the all-threads target covers these).
const ISSUE_CASES: &[&str] = &[
    "tegra-2048x2048x4",
    "tegra-4096x4096x4",
    "tegra-1024x1024x16",
    "tegra-64x64x4",
    "tegra-256x256x64x4",
    "tegra-2000x1000x4",
    "g80-2048x2048x4",
    "swizzled-1024x1024x4",
];

/// The issue's targets ("Targets (ratios measured in the same run ...)"), in its order.
pub const TARGETS: &[Target] = &[
    Target {
        what: "untile >= 0.90x memcpy, one thread (2048 Tegra, G80)",
        cases: &["tegra-2048x2048x4", "g80-2048x2048x4"],
        op: Some("untile"),
        threads: Some(1),
        key: "ratio_memcpy_paired",
        min: 0.90,
    },
    Target {
        what: "tile >= 0.80x memcpy, one thread (2048 Tegra, G80)",
        cases: &["tegra-2048x2048x4", "g80-2048x2048x4"],
        op: Some("tile"),
        threads: Some(1),
        key: "ratio_memcpy_paired",
        min: 0.80,
    },
    Target {
        what: ">= 0.85x memcpy, one thread (4096x4096)",
        cases: &["tegra-4096x4096x4"],
        op: None,
        threads: Some(1),
        key: "ratio_memcpy_paired",
        min: 0.85,
    },
    Target {
        what: ">= 1.2x tegra_swizzle's faster entry point (large cases)",
        cases: TEGRA_LARGE,
        op: None,
        threads: Some(1),
        key: "ratio_tegra",
        min: 1.2,
    },
    Target {
        what: ">= 10x tegra_swizzle (64x64)",
        cases: &["tegra-64x64x4"],
        op: None,
        threads: Some(1),
        key: "ratio_tegra",
        min: 10.0,
    },
    Target {
        what: "pre-G80 swizzled >= 0.6x memcpy",
        cases: &["swizzled-1024x1024x4"],
        op: None,
        threads: Some(1),
        key: "ratio_memcpy_paired",
        min: 0.6,
    },
    // The C call keeps the Rust call's speed (at least 0.97x).
    Target {
        what: "C call >= 0.97x the Rust call (2048 Tegra untile, one thread)",
        cases: &["capi-tegra-2048x2048x4"],
        op: Some("untile"),
        threads: Some(1),
        key: "ratio_rust_paired",
        min: 0.97,
    },
    Target {
        what: "BC encode wrapper adds <= 5%: >= 0.95x the crate called directly (BC7 normal, BC1)",
        cases: &["bc7-encode-normal-1024", "bc1-encode-1024"],
        op: Some("encode"),
        threads: Some(1),
        key: "ratio_crate_paired",
        min: 0.95,
    },
    // Issue 39 item 5: decoders against bcdec_rs called directly (one thread).
    Target {
        what: "BC1-BC5 decode >= 2x bcdec_rs (BC1, BC3, BC5)",
        cases: &["codec-bc1", "codec-bc3", "codec-bc5"],
        op: Some("decode"),
        threads: Some(1),
        key: "ratio_crate_paired",
        min: 2.0,
    },
    Target {
        what: "BC7 decode >= 3x bcdec_rs",
        cases: &["codec-bc7"],
        op: Some("decode"),
        threads: Some(1),
        key: "ratio_crate_paired",
        min: 3.0,
    },
    Target {
        what: "ASTC LDR decode >= 3x astc-decode (4x4, 8x8)",
        cases: &["codec-astc-4x4", "codec-astc-8x8"],
        op: Some("decode"),
        threads: Some(1),
        key: "ratio_crate_paired",
        min: 3.0,
    },
    Target {
        what: "RGB10A2 and sRGB decode >= 0.9x memcpy",
        cases: &["codec-rgb10a2", "codec-rgba8-srgb"],
        op: Some("decode"),
        threads: Some(1),
        key: "ratio_memcpy_paired",
        min: 0.9,
    },
    Target {
        what: "all threads >= 0.9x a memcpy split over the same threads",
        cases: ISSUE_CASES,
        op: None,
        threads: None,
        key: "ratio_memcpy_paired",
        min: 0.9,
    },
];

/// What one target came to in a run.
#[derive(Debug, PartialEq)]
pub struct Verdict {
    /// Rows checked.
    pub checked: usize,
    /// The rows below the target: (case, op, threads, ratio).
    pub misses: Vec<(String, String, u64, f64)>,
}

impl Target {
    /// Checks the rows of a run (the objects `--json` prints) against this target.
    pub fn check(&self, rows: &[Value]) -> Verdict {
        let mut v = Verdict { checked: 0, misses: Vec::new() };
        for r in rows {
            let (Some(case), Some(op), Some(threads)) = (r["case"].as_str(), r["op"].as_str(), r["threads"].as_u64())
            else {
                continue;
            };
            let thread_ok = match self.threads {
                Some(t) => threads == t,
                None => threads > 1,
            };
            if !self.cases.contains(&case) || !thread_ok || self.op.is_some_and(|o| o != op) {
                continue;
            }
            // A row without the ratio (tegra_swizzle not run) is not a check of this target.
            let Some(ratio) = r[self.key].as_f64() else { continue };
            v.checked += 1;
            if ratio < self.min {
                v.misses.push((case.to_string(), op.to_string(), threads, ratio));
            }
        }
        v
    }
}

/// The summary lines: one per target, `met`, `NOT MET` (with the rows below it) or `not
/// measured`.
pub fn summary(rows: &[Value]) -> Vec<String> {
    TARGETS
        .iter()
        .map(|t| {
            let v = t.check(rows);
            if v.checked == 0 {
                format!("  not measured  {}", t.what)
            } else if v.misses.is_empty() {
                format!("  met ({:>2} rows) {}", v.checked, t.what)
            } else {
                let cells: Vec<String> = v.misses.iter().map(|(c, o, th, r)| format!("{c} {o} {th}T {r:.2}")).collect();
                format!("  NOT MET ({}/{} rows) {}: {}", v.misses.len(), v.checked, t.what, cells.join(", "))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn row(case: &str, op: &str, threads: u64, paired: f64, tegra: Option<f64>) -> Value {
        json!({"case": case, "op": op, "threads": threads, "ratio_memcpy_paired": paired, "ratio_tegra": tegra})
    }

    #[test]
    fn a_target_counts_its_rows_and_names_the_misses() {
        let rows = vec![
            row("tegra-2048x2048x4", "untile", 1, 0.95, Some(2.0)),
            row("g80-2048x2048x4", "untile", 1, 0.85, None),
            row("g80-2048x2048x4", "tile", 1, 0.50, None),
            row("tegra-2048x2048x4", "untile", 2, 0.10, None),
        ];
        let v = TARGETS[0].check(&rows);
        assert_eq!(v.checked, 2, "one-thread untile rows of the two cases only");
        assert_eq!(v.misses, vec![("g80-2048x2048x4".to_string(), "untile".to_string(), 1, 0.85)]);
    }

    #[test]
    fn all_threads_rows_and_tegra_ratios() {
        let rows = vec![
            row("swizzled-1024x1024x4", "tile", 2, 0.89, None),
            row("swizzled-1024x1024x4", "tile", 1, 0.10, None),
            row("tegra-8192x128x4", "tile", 2, 0.10, None),
            row("tegra-64x64x4", "tile", 1, 0.3, Some(12.0)),
            row("tegra-64x64x4", "untile", 1, 0.3, Some(9.0)),
        ];
        let all = TARGETS.iter().find(|t| t.threads.is_none()).unwrap().check(&rows);
        assert_eq!(all.checked, 1, "two-thread rows of the issue's cases, not the extra 8192x128 case");
        assert_eq!(all.misses.len(), 1);
        let small = TARGETS.iter().find(|t| t.min == 10.0).unwrap().check(&rows);
        assert_eq!((small.checked, small.misses.len()), (2, 1));
    }

    #[test]
    fn unmeasured_targets_are_not_met() {
        let lines = summary(&[row("tegra-64x64x4", "tile", 1, 1.0, Some(20.0))]);
        assert_eq!(lines.len(), TARGETS.len());
        assert!(lines.iter().filter(|l| l.contains("not measured")).count() == TARGETS.len() - 1);
        assert!(lines.iter().any(|l| l.contains("met ( 1 rows) >= 10x")));
        let bad = summary(&[row("tegra-2000x1000x4", "untile", 2, 0.84, None)]);
        assert!(bad.iter().any(|l| l.contains("NOT MET (1/1 rows)") && l.contains("tegra-2000x1000x4 untile 2T 0.84")));
    }
}
