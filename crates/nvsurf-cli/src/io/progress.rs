//! Progress bars for long copies (indicatif), on a terminal or when `NVSURF_PROGRESS=always`.

use std::io::IsTerminal;

/// Copies of at least this many bytes show a progress bar on a terminal.
pub const PROGRESS_MIN_BYTES: u64 = 64 << 20;

/// A progress bar of `len` steps labelled `label`, for a copy of `bytes` bytes: on a terminal
/// from [`PROGRESS_MIN_BYTES`]; always when the environment sets `NVSURF_PROGRESS=always`
/// (progress in logs, and the tests of the banded copies, which run off a terminal: there
/// indicatif draws nothing but the copy still goes band by band). `None`: copy in one go.
pub fn progress_bar(bytes: u64, len: u64, label: &str) -> Option<indicatif::ProgressBar> {
    let forced = std::env::var_os("NVSURF_PROGRESS").is_some_and(|v| v == "always");
    if !(forced || bytes >= PROGRESS_MIN_BYTES && std::io::stderr().is_terminal()) {
        return None;
    }
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{msg} [{bar:40}] {percent}% {eta}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_message(label.to_string());
    Some(bar)
}
