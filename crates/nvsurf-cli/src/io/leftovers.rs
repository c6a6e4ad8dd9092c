//! What a killed run leaves in a directory, found and cleared: temporary outputs of
//! [`super::write`] (`.NAME.nvsurf-tmp-PID-XXXXXX.EXT`, whose process PID no longer runs) and
//! undo journals of [`super::inplace`] (`.NAME.nvsurf-journal`), which are rolled back, never
//! just removed. The first write into a directory reports its leftovers in one line
//! ([`notice_dir`]); `nvsurf clean DIR` removes them ([`clean_dir`]). Only regular files
//! directly in the directory are considered: symlinks (even with a matching name) and
//! subdirectories are left alone, so nothing outside the directory is ever touched.

use super::files::{running, TEMP_MARK};
use std::path::{Path, PathBuf};

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// The process id in a temporary file's name `.NAME.nvsurf-tmp-PID-XXXXXX[.EXT]`, if the name
/// is one.
fn temp_owner(name: &str) -> Option<u32> {
    if !name.starts_with('.') {
        return None;
    }
    let (_, rest) = name.rsplit_once(TEMP_MARK)?;
    let (pid, rand) = rest.split_once('-')?;
    let rand = rand.split('.').next()?;
    (rand.len() == 6 && rand.chars().all(|c| c.is_ascii_alphanumeric())).then_some(())?;
    pid.parse().ok()
}

/// Regular files (not symlinks) directly in `dir` whose names `keep` accepts.
fn regular_files(dir: &Path, keep: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut v: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter(|e| e.file_name().to_str().is_some_and(&keep))
        .map(|e| e.path())
        .collect();
    v.sort();
    v
}

/// Temporary files in `dir` left by runs that no longer run.
pub fn leftover_temps(dir: &Path) -> Vec<PathBuf> {
    regular_files(dir, |n| temp_owner(n).is_some_and(|pid| !running(pid)))
}

/// Undo journals in `dir`.
pub fn journals(dir: &Path) -> Vec<PathBuf> {
    regular_files(dir, |n| n.starts_with('.') && n.ends_with(super::files::JOURNAL_SUFFIX))
}

/// Once per directory and process, before the first write there: rolls back the undo
/// journals of interrupted in-place patches (saying so on stderr) and reports leftover
/// temporary files in one line, naming `nvsurf clean DIR`.
pub fn notice_dir(dir: &Path) {
    static SEEN: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());
    let key = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    {
        let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
        if seen.contains(&key) {
            return;
        }
        seen.push(key);
    }
    for j in journals(dir) {
        // A failed roll-back is reported; the journal stays for the next run or `clean`.
        if let Err(e) = super::inplace::roll_back(&j) {
            eprintln!("warning: {e}");
        }
    }
    let n = leftover_temps(dir).len();
    if n > 0 {
        let d = dir.display().to_string();
        let d = if d.is_empty() { ".".to_string() } else { d };
        let s = if n == 1 { "" } else { "s" };
        eprintln!("{n} leftover temp file{s} from an interrupted run in {d}; `nvsurf clean {d}` removes them");
    }
}

/// `nvsurf clean DIR`: rolls back every undo journal in `dir`, then removes the leftover
/// temporary files. Returns (journals rolled back, files removed, bytes freed).
pub fn clean_dir(dir: &Path) -> Res<(usize, usize, u64)> {
    let meta = std::fs::metadata(dir).map_err(|e| format!("cannot read '{}': {e}", dir.display()))?;
    if !meta.is_dir() {
        return Err(format!("'{}' is not a directory", dir.display()).into());
    }
    let mut rolled = 0;
    for j in journals(dir) {
        if super::inplace::roll_back(&j)? {
            rolled += 1;
        }
    }
    let (mut removed, mut bytes) = (0, 0);
    for t in leftover_temps(dir) {
        let len = std::fs::symlink_metadata(&t).map(|m| m.len()).unwrap_or(0);
        std::fs::remove_file(&t).map_err(|e| format!("cannot remove '{}': {e}", t.display()))?;
        removed += 1;
        bytes += len;
    }
    if removed > 0 {
        super::files::sync_dir(dir);
    }
    Ok((rolled, removed, bytes))
}

#[cfg(test)]
mod tests {
    #[test]
    fn temporary_names_are_recognised() {
        assert_eq!(super::temp_owner(".z.png.nvsurf-tmp-1234-aB3xYz.png"), Some(1234));
        assert_eq!(super::temp_owner(".dump.nvsurf-tmp-77-000000"), Some(77));
        assert_eq!(super::temp_owner("z.png.nvsurf-tmp-1234-aB3xYz.png"), None);
        assert_eq!(super::temp_owner(".z.png.nvsurf-tmp-1234.png"), None);
        assert_eq!(super::temp_owner(".z.png.nvsurf-tmp-x-aB3xYz.png"), None);
        assert_eq!(super::temp_owner(".z.png.nvsurf-journal"), None);
    }
}
