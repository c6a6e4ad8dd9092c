//! Free space on an output's filesystem, checked before a large output is written: a write that
//! cannot fit stops at once, in one line naming the path, the bytes needed and the bytes free,
//! instead of after filling the disk. Where the free space cannot be found (another system, a
//! failed `statvfs`), nothing is checked. `NVSURF_FREE_BYTES=N` stands in for the filesystem's
//! answer, so the tests need no small filesystem (as `NVSURF_FAIL_WRITE_AT` does for writes,
//! [`super::hooks`]).

use std::path::Path;

/// The directory an output file lands in (its parent; `.` for a bare name).
fn dir_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Bytes an unprivileged writer may still use on the filesystem that holds `dir`, if known.
#[cfg(target_os = "linux")]
fn statvfs_free(dir: &Path) -> Option<u64> {
    let s = rustix::fs::statvfs(dir).ok()?;
    s.f_bavail.checked_mul(s.f_frsize)
}

/// Free space is not looked up off Linux.
#[cfg(not(target_os = "linux"))]
fn statvfs_free(_dir: &Path) -> Option<u64> {
    None
}

/// Bytes free for a new file at `path` (or in the directory `path`, with `is_dir`), if known.
pub fn free_bytes(path: &Path, is_dir: bool) -> Option<u64> {
    if let Some(n) = std::env::var("NVSURF_FREE_BYTES").ok().and_then(|s| s.trim().parse::<u64>().ok()) {
        return Some(n);
    }
    statvfs_free(if is_dir { path } else { dir_of(path) })
}

/// A write refused for want of space.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot write '{path}': it needs {need} bytes but its filesystem has {free} bytes free")]
pub struct NoSpace {
    /// The output.
    pub path: String,
    /// Bytes the output takes.
    pub need: u64,
    /// Bytes free.
    pub free: u64,
}

/// Refuses an output of `need` bytes at `path` (a file, or with `is_dir` the directory its
/// files go to) when its filesystem has less free; stdout (`-`) and unknown free space pass.
pub fn check_free_space(path: &Path, is_dir: bool, need: u64) -> Result<(), NoSpace> {
    if path.as_os_str() == "-" {
        return Ok(());
    }
    match free_bytes(path, is_dir) {
        Some(free) if free < need => Err(NoSpace { path: path.display().to_string(), need, free }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_land_in_their_parent() {
        assert_eq!(dir_of(Path::new("out.bin")), Path::new("."));
        assert_eq!(dir_of(Path::new("/tmp/out.bin")), Path::new("/tmp"));
        assert!(check_free_space(Path::new("-"), false, u64::MAX).is_ok());
        #[cfg(target_os = "linux")]
        assert!(statvfs_free(Path::new("/")).is_some());
    }
}
