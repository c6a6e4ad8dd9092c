//! Suggestions for an unknown name: the three candidates closest to it by edit distance, where
//! the distance is at most half the name's length (at least 2), or whose start is the name.
//! Our own Levenshtein (twenty lines, on one stack row) keeps the library free of a dependency
//! such as `strsim` and of an allocation per candidate; the name is cut to 64 bytes first, so a
//! lookup costs at most 64 x (candidate length) steps per candidate whatever it is given.

use alloc::string::String;
use alloc::vec::Vec;

/// Longest name (in characters) compared for suggestions.
const SUGGEST_CHARS: usize = 64;
/// Most suggestions given.
const SUGGESTIONS: usize = 3;

/// Levenshtein distance between the (lower-case, at most [`SUGGEST_CHARS`] bytes) query `q`
/// and `c` compared case-insensitively, on one row of stack memory (no allocation: suggestions
/// run over hundreds of names).
fn distance(q: &[u8], c: &str) -> usize {
    let mut row = [0usize; SUGGEST_CHARS + 1];
    for (j, r) in row.iter_mut().enumerate().take(q.len() + 1) {
        *r = j;
    }
    for (i, cb) in c.bytes().enumerate() {
        let cb = cb.to_ascii_lowercase();
        let mut diag = row[0];
        row[0] = i + 1;
        for j in 1..=q.len() {
            let up = row[j];
            row[j] = (up + 1).min(row[j - 1] + 1).min(diag + usize::from(q[j - 1] != cb));
            diag = up;
        }
    }
    row[q.len()]
}

/// The (at most three) names of `candidates` closest to `name`, case-insensitively, best first.
pub fn suggest_names<S: AsRef<str>>(name: &str, candidates: impl IntoIterator<Item = S>) -> Vec<String> {
    let mut q: Vec<u8> = name.trim().bytes().take(SUGGEST_CHARS).collect();
    q.make_ascii_lowercase();
    if q.is_empty() {
        return Vec::new();
    }
    let limit = 2.max(q.len() / 2);
    let mut scored: Vec<(usize, String)> = Vec::new();
    for c in candidates {
        let c = c.as_ref();
        let prefix = q.len() >= 3 && c.len() >= q.len() && c.as_bytes()[..q.len()].eq_ignore_ascii_case(&q);
        // Far longer names cannot be within the limit: only a prefix match keeps them.
        let d = if c.len() > q.len() + limit && !prefix { usize::MAX } else { distance(&q, c) };
        if d <= limit || prefix {
            scored.push((d, String::from(c)));
        }
    }
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
