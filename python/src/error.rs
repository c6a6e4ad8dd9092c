//! `nvsurf.NvsurfError`: a `ValueError` carrying the library's one-line message, the line the
//! CLI prints after `error: ` (long words shortened the same way).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

pyo3::create_exception!(
    nvsurf,
    NvsurfError,
    PyValueError,
    "Bad input to nvsurf: one line naming the field, the value and the rule (a ValueError)."
);

/// The library's error as a Python exception.
pub fn err(e: nvsurf::Error) -> PyErr {
    NvsurfError::new_err(shorten_long_words(&e.to_string()))
}

/// An error of the bindings' own (a Python value the library never sees), as one line:
/// `{field} {value} {rule}`.
pub fn bad(field: &str, value: impl std::fmt::Display, rule: &str) -> PyErr {
    NvsurfError::new_err(shorten_long_words(&format!("{field} {value} {rule}")))
}

/// Maps the library's `Result` into a Python one.
pub trait OrPy<T> {
    /// The value, or `NvsurfError`.
    fn py(self) -> PyResult<T>;
}

impl<T> OrPy<T> for Result<T, nvsurf::Error> {
    fn py(self) -> PyResult<T> {
        self.map_err(err)
    }
}

/// Words longer than this many characters are shortened (as the CLI does: a message quotes the
/// value it refuses, and a 2 MB string must not become a 2 MB message).
const LONGEST_WORD: usize = 200;

/// `msg` with each run of non-blank characters longer than [`LONGEST_WORD`] cut to its first
/// 100 and last 60 characters around `...(N characters)...`.
pub fn shorten_long_words(msg: &str) -> String {
    if msg.len() <= LONGEST_WORD {
        return msg.to_string();
    }
    let mut out = String::with_capacity(LONGEST_WORD * 2);
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let n = word.chars().count();
        if n > LONGEST_WORD {
            out.extend(word.chars().take(100));
            out.push_str(&format!("...({n} characters)..."));
            out.extend(word.chars().skip(n - 60));
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in msg.chars() {
        if c.is_whitespace() {
            flush(&mut word, &mut out);
            out.push(c);
        } else {
            word.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}
