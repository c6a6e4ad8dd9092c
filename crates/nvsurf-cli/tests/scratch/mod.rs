//! A test's own scratch directory, shared by the CLI tests that write files.

use std::path::{Path, PathBuf};

/// A directory of the system temp dir for one test's files, `nvsurf-TAG-` and a few random
/// characters, removed with everything in it when the value is dropped at the end of the test.
/// A test that fails (the value is dropped while its thread panics) keeps the directory and
/// names it on stderr, for a look at what the test wrote. A directory that cannot be removed
/// after a passing test fails that test.
pub struct Scratch(Option<tempfile::TempDir>);

impl Scratch {
    /// A new, empty scratch directory named after `tag` (the test file, or the test).
    pub fn new(tag: &str) -> Self {
        let dir = tempfile::Builder::new().prefix(&format!("nvsurf-{tag}-")).tempdir();
        Scratch(Some(dir.expect("cannot create a scratch directory in the system temp dir")))
    }

    /// The directory itself.
    #[allow(dead_code)] // not every test file needs the directory
    pub fn dir(&self) -> &Path {
        self.0.as_ref().expect("the directory is there until the value is dropped").path()
    }

    /// The path of `name` in the directory (nothing is created).
    #[allow(dead_code)] // not every test file names its files through this
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir().join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let Some(dir) = self.0.take() else { return };
        if std::thread::panicking() {
            eprintln!("the failed test's files are kept in {}", dir.keep().display());
            return;
        }
        let shown = dir.path().display().to_string();
        if let Err(e) = dir.close() {
            panic!("cannot remove the scratch directory {shown}: {e}");
        }
    }
}

/// `stderr` without the summary lines that `tile` and `untile` print on success
/// (`tile: wrote ...`, `untile: wrote ...`), so that a test can still ask for no other output.
/// The summary's content has tests of its own (`defaults_cli.rs`).
#[allow(dead_code)] // not every test file runs tile or untile
pub fn without_summary(stderr: &str) -> String {
    stderr.lines().filter(|l| !l.starts_with("tile: wrote ") && !l.starts_with("untile: wrote ")).fold(
        String::new(),
        |mut out, l| {
            out.push_str(l);
            out.push('\n');
            out
        },
    )
}
