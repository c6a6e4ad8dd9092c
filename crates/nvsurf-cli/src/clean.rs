//! `nvsurf clean DIR`: what interrupted runs left in a directory (see
//! [`crate::io::leftovers`]): undo journals of `tile --in-place` are rolled back, leftover
//! temporary files removed; nothing else is touched, and symlinks are never followed.

use std::path::PathBuf;

/// Arguments of `nvsurf clean`.
#[derive(clap::Args, Debug)]
pub struct CleanArgs {
    /// The directory to clean (not recursive).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
}

/// Runs `nvsurf clean`: one summary line on stderr.
pub fn run(a: CleanArgs) -> crate::CmdResult {
    let (rolled, removed, bytes) = crate::io::leftovers::clean_dir(&a.dir)?;
    let s = if removed == 1 { "" } else { "s" };
    let j = if rolled == 1 { "" } else { "s" };
    eprintln!(
        "clean: {}: removed {removed} leftover temp file{s} ({bytes} bytes), rolled back {rolled} undo journal{j}",
        a.dir.display()
    );
    Ok(std::process::ExitCode::SUCCESS)
}
