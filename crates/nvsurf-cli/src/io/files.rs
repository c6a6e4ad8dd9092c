//! Small file facts the other io modules share (and nothing else): the marks in the names of
//! temporary files and undo journals, whether a process still runs, the write-permission check,
//! and syncing a directory. It imports no other io module, so they can all import it.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// `--force`: replace files whose mode forbids writing.
static FORCE: AtomicBool = AtomicBool::new(false);

/// Sets `--force` for this process: outputs whose mode has no write bit for their owner
/// (0444 and the like) are then replaced; without it they are refused.
pub fn set_force(on: bool) {
    FORCE.store(on, Ordering::Relaxed);
}

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// The mark in the name of every temporary file (`.NAME.nvsurf-tmp-PID-XXXXXX.EXT`).
pub const TEMP_MARK: &str = ".nvsurf-tmp-";

/// The end of a journal's name: `.FILE.nvsurf-journal`.
pub const JOURNAL_SUFFIX: &str = ".nvsurf-journal";

/// True when process `pid` runs (Linux: `/proc/PID` exists). Where that cannot be known,
/// only this process counts as running.
pub fn running(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    cfg!(target_os = "linux") && Path::new(&format!("/proc/{pid}")).exists()
}

/// Refuses to write over a file without its owner's write bit (0444 and the like) unless
/// `--force`: the mode bits decide, not the OS's answer (root may write anything).
pub fn check_mode(path: &Path, m: &std::fs::Metadata) -> Res<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if m.mode() & 0o200 == 0 && !FORCE.load(Ordering::Relaxed) {
            return Err(format!(
                "cannot write '{}': its mode {:04o} forbids writing; --force replaces it",
                path.display(),
                m.mode() & 0o7777
            )
            .into());
        }
    }
    #[cfg(not(unix))]
    if m.permissions().readonly() && !FORCE.load(Ordering::Relaxed) {
        return Err(format!("cannot write '{}': it is read-only; --force replaces it", path.display()).into());
    }
    Ok(())
}

/// Syncs a directory, so that renames and removals in it survive a power cut. Best effort:
/// some filesystems refuse to sync a directory.
pub fn sync_dir(dir: &Path) {
    let d = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    if let Ok(f) = std::fs::File::open(d) {
        let _ = f.sync_all();
    }
}

/// True when `a` and `b` name the same existing file (or the same path).
pub fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    a == b || matches!((std::fs::canonicalize(a), std::fs::canonicalize(b)), (Ok(x), Ok(y)) if x == y)
}
