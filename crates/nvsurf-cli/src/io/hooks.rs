//! Test hooks for the write paths, compiled in always so that the tests run the shipped
//! binary: every write the io module makes (a `write` call on an output file, a rename, a
//! journal or in-place write, an fsync of a patched file) is counted, and
//!
//! - `NVSURF_FAIL_WRITE_AT=N` makes the Nth one fail with ENOSPC ("No space left on device"),
//!   as a full disk would (the full-disk tests, without mounting a small filesystem);
//! - `NVSURF_CRASH_AT_WRITE=N` ends the process at the Nth one, before it happens, with
//!   status [`CRASH_STATUS`] and without any clean-up (no destructor runs, temporary files
//!   and undo journals stay), as a SIGKILL or a power cut would.
//! - `NVSURF_FREE_BYTES=N` (module `space`) stands in for the free space of every output's
//!   filesystem, as a nearly full disk would.
//!
//! Neither is meant for users; unset (or not a number), they cost one relaxed atomic add.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// Exit status of a run ended by `NVSURF_CRASH_AT_WRITE`.
pub const CRASH_STATUS: i32 = 86;

/// Writes counted so far in this process.
static WRITES: AtomicU64 = AtomicU64::new(0);

/// `(fail at, crash at)`: the two variables, read once.
fn settings() -> (Option<u64>, Option<u64>) {
    static SET: OnceLock<(Option<u64>, Option<u64>)> = OnceLock::new();
    *SET.get_or_init(|| {
        let n = |v: &str| std::env::var(v).ok().and_then(|s| s.trim().parse::<u64>().ok());
        (n("NVSURF_FAIL_WRITE_AT"), n("NVSURF_CRASH_AT_WRITE"))
    })
}

/// Called before each write the io module makes: counts it, then ends the process or returns
/// ENOSPC if a hook names this write.
pub fn before_write() -> std::io::Result<()> {
    let n = WRITES.fetch_add(1, Ordering::Relaxed) + 1;
    let (fail, crash) = settings();
    if crash == Some(n) {
        std::process::exit(CRASH_STATUS);
    }
    if fail == Some(n) {
        // ENOSPC on Linux and the BSDs.
        return Err(std::io::Error::from_raw_os_error(28));
    }
    Ok(())
}

/// A writer (the temporary output file) whose every `write` goes through [`before_write`].
pub struct Counted<W>(pub W);

impl<W: std::io::Write> std::io::Write for Counted<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        before_write()?;
        self.0.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

impl<W: std::io::Seek> std::io::Seek for Counted<W> {
    fn seek(&mut self, pos: std::io::SeekFrom) -> std::io::Result<u64> {
        self.0.seek(pos)
    }
}
