//! Suggestions for an unknown name: the three candidates closest to it by edit distance, where
//! the distance is at most half the name's length (at least 2), or whose start is the name.
//! Our own Levenshtein (`crate::error::edit_distance`, already used for GPU names) keeps the
//! library free of a dependency for twenty lines; the name is cut to 64 characters first, so a
//! lookup costs at most 64 x (candidate length) steps per candidate whatever it is given.

use crate::error::edit_distance;
use alloc::string::String;
use alloc::vec::Vec;

/// Longest name (in characters) compared for suggestions.
const SUGGEST_CHARS: usize = 64;
/// Most suggestions given.
const SUGGESTIONS: usize = 3;

/// The (at most three) names of `candidates` closest to `name`, case-insensitively, best first.
pub fn suggest_names<S: AsRef<str>>(name: &str, candidates: impl IntoIterator<Item = S>) -> Vec<String> {
    let n: String = name.trim().chars().take(SUGGEST_CHARS).collect::<String>().to_ascii_lowercase();
    if n.is_empty() {
        return Vec::new();
    }
    let limit = 2.max(n.len() / 2);
    let mut scored: Vec<(usize, String)> = candidates
        .into_iter()
        .filter_map(|c| {
            let c = c.as_ref();
            let lc = c.to_ascii_lowercase();
            let d = edit_distance(&n, &lc);
            (d <= limit || (n.len() >= 3 && lc.starts_with(&n))).then(|| (d, String::from(c)))
        })
        .collect();
    scored.sort();
    let mut out: Vec<String> = Vec::new();
    for (_, c) in scored {
        if !out.iter().any(|o| o.eq_ignore_ascii_case(&c)) {
            out.push(c);
        }
        if out.len() == SUGGESTIONS {
            break;
        }
    }
    out
}
