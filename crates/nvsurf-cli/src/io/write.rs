//! Writing files safely: [`write_atomic`] and [`with_temp`] write a temporary file beside the
//! target and rename it over the target, so an existing file is replaced atomically, and
//! [`Group`] does the same for several files at once (every temporary file first, then the
//! renames). The temporary file is created exclusively (`O_EXCL`, the `tempfile` crate) under a
//! random name, `.NAME.nvsurf-tmp-PID-XXXXXX.EXT`: a symlink planted at a guessed name cannot
//! redirect the write, and a killed run's leftovers are recognisable ([`super::clean`]). The
//! replaced file keeps its mode and (where permitted) its owner; a file without its owner's
//! write bit is refused unless `--force` ([`set_force`]); a file with other hard links is
//! replaced with a one-line warning. A symlink's target is replaced (the link stays), devices
//! such as `/dev/stdout` are written in place. On Linux, Ctrl-C, SIGTERM or SIGHUP during the
//! write removes the temporary files before the signal ends the process (signals the parent
//! ignores stay ignored). Shared by every command that writes a file; it imports no command
//! module.

pub use super::files::{check_mode, set_force, sync_dir, TEMP_MARK};
use super::hooks::{before_write, Counted};
use std::io::Write;
use std::path::{Path, PathBuf};

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// The file a writer of [`with_temp`] or [`Group::stage`] fills: the exclusive temporary file
/// (or the device written in place), its writes counted by the test hooks
/// ([`super::hooks`]). `.0` is the [`std::fs::File`] itself, for `fsync`, metadata and the
/// kernel's file-to-file copies.
pub type OutFile = Counted<std::fs::File>;

/// `cannot write 'PATH': cause`.
fn cannot(path: &Path, e: &dyn std::fmt::Display) -> Box<dyn std::error::Error> {
    format!("cannot write '{}': {e}", path.display()).into()
}
/// Where [`with_temp`] writes: the file to replace atomically, or the path itself.
enum Target {
    /// A regular file (existing, or new): write a temporary file in its directory and rename it
    /// over this path. For a symlink this is the resolved target, so the link stays a link.
    Replace(PathBuf),
    /// An existing file that is not a regular file (a device such as `/dev/stdout`, a FIFO, ...):
    /// written in place, since renaming over it would replace the device with a regular file.
    InPlace,
}

/// How to write `path`: symlinks are resolved ([`std::fs::canonicalize`]) and their target is
/// replaced; non-regular files are written in place; regular and new files are replaced.
fn target(path: &Path) -> Result<Target, Box<dyn std::error::Error>> {
    let link = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Target::Replace(path.to_path_buf())),
        Err(e) => return Err(e.into()),
    };
    let is_link = link.file_type().is_symlink();
    let meta = if is_link {
        match std::fs::metadata(path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let to = std::fs::read_link(path)?;
                return Err(format!("it is a symlink to '{}', which does not exist", to.display()).into());
            }
            Err(e) => return Err(e.into()),
        }
    } else {
        link
    };
    if meta.is_dir() {
        return Err("it is a directory".into());
    }
    if !meta.is_file() {
        // Devices, FIFOs, sockets; also `/dev/stdout` (a symlink to a pipe or terminal, which
        // canonicalize cannot resolve to a path).
        return Ok(Target::InPlace);
    }
    if is_link {
        Ok(Target::Replace(std::fs::canonicalize(path)?))
    } else {
        Ok(Target::Replace(path.to_path_buf()))
    }
}

/// Runs `write` on an exclusive temporary file in the directory of `path` (same extension),
/// then renames it over `path`: an existing file is replaced atomically, and nothing is left
/// behind when `write` fails (see the module's documentation for symlinks, devices, modes,
/// owners, hard links and `--force`). Errors of its own read "cannot write 'PATH': cause";
/// errors of `write` are passed on as they are.
pub fn with_temp(path: &Path, write: impl FnOnce(&mut OutFile) -> Res<()>) -> Res<()> {
    let mut g = Group::new();
    g.stage(path, write)?;
    g.commit()
}

/// One output of a [`Group`]: its temporary file written and synced, not yet renamed.
struct Staged {
    /// The path as the user gave it (for messages).
    shown: PathBuf,
    /// The file the rename replaces (a symlink resolved).
    real: PathBuf,
    /// The temporary file; removed when dropped unrenamed.
    tmp: tempfile::TempPath,
    /// Its registration for the signal clean-up.
    _pending: Pending,
}

/// Several outputs replaced as a group: [`Group::stage`] writes each one's temporary file,
/// [`Group::commit`] renames them all. An error before the commit (a writer's, a full disk,
/// `--force` missing) leaves every old file as it was and removes the temporary files; an
/// error during the renames names the files already replaced. A kill leaves each file whole,
/// old or new. Used for the Z24_S8 depth and stencil pair and for `untile --split`.
#[derive(Default)]
pub struct Group {
    staged: Vec<Staged>,
}

impl Group {
    /// An empty group.
    pub fn new() -> Group {
        Group::default()
    }

    /// Writes the temporary file of `path` through `write` (a device such as `/dev/stdout` is
    /// written now, in place). The old file is checked first: a directory is refused, and so
    /// is a file without its owner's write bit unless `--force`; other hard links are warned
    /// of on stderr.
    pub fn stage(&mut self, path: &Path, write: impl FnOnce(&mut OutFile) -> Res<()>) -> Res<()> {
        let real = match target(path).map_err(|e| cannot(path, &e))? {
            Target::InPlace => {
                let f = std::fs::OpenOptions::new().write(true).open(path).map_err(|e| cannot(path, &e))?;
                return write(&mut Counted(f));
            }
            Target::Replace(p) => p,
        };
        let dir = real.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf();
        let name = real.file_name().ok_or_else(|| format!("output '{}' is not a file name", path.display()))?;
        let old = old_file(path, &real)?;
        super::leftovers::notice_dir(&dir);

        let ext = real.extension().map(|e| format!(".{}", e.to_string_lossy())).unwrap_or_default();
        let prefix = format!(".{}{}{}-", name.to_string_lossy(), TEMP_MARK, std::process::id());
        let mut b = tempfile::Builder::new();
        b.prefix(&prefix).suffix(&ext).rand_bytes(6);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            // A new file as `File::create` makes it (0666 less the umask); a replaced file's
            // mode from the start, so a 0600 file's new content is never readable by others.
            let mode = old.as_ref().map_or(0o666, |m| std::os::unix::fs::MetadataExt::mode(m) & 0o777);
            b.permissions(std::fs::Permissions::from_mode(mode));
        }
        // Created and registered under the lock the interrupt clean-up takes, with its handler
        // installed first: an interrupt comes wholly before the file exists or after it is
        // registered for removal, never in between.
        let (tmp, pending) = Pending::create(|| b.tempfile_in(&dir).map_err(|e| cannot(path, &e)))?;
        let (file, tmp) = tmp.into_parts();
        let mut out = Counted(file);
        write(&mut out)?;
        let file = out.0;
        if let Some(m) = &old {
            keep_owner_and_mode(&file, m).map_err(|e| cannot(path, &e))?;
        }
        file.sync_all().map_err(|e| cannot(path, &e))?;
        drop(file);
        self.staged.push(Staged { shown: path.to_path_buf(), real, tmp, _pending: pending });
        Ok(())
    }

    /// Renames every staged temporary file over its target, in the order staged, then syncs
    /// their directories. An error names the file it failed on and the files already replaced;
    /// the temporary files not yet renamed are removed.
    pub fn commit(self) -> Res<()> {
        let mut done: Vec<PathBuf> = Vec::new();
        let mut dirs: Vec<PathBuf> = Vec::new();
        // Registrations to drop once the lock is released (dropping one takes the lock).
        let mut registered = Vec::new();
        let mut result = Ok(());
        let mut staged = self.staged.into_iter();
        // Under the lock, so that an interrupt's clean-up comes wholly before the renames (and
        // the process dies without renaming) or wholly after them.
        let held = PENDING.lock().unwrap_or_else(|e| e.into_inner());
        for Staged { shown, real, tmp, _pending } in staged.by_ref() {
            registered.push(_pending);
            let renamed = before_write().and_then(|()| tmp.persist(&real).map_err(|e| e.error));
            if let Err(e) = renamed {
                let also = if done.is_empty() {
                    String::new()
                } else {
                    let names: Vec<String> = done.iter().map(|p| format!("'{}'", p.display())).collect();
                    format!(" (already replaced: {}; the others keep their old content)", names.join(", "))
                };
                result = Err(format!("cannot write '{}': {e}{also}", shown.display()).into());
                break;
            }
            if let Some(d) = real.parent() {
                if !dirs.iter().any(|x| x == d) {
                    dirs.push(d.to_path_buf());
                }
            }
            done.push(shown);
        }
        drop(held);
        // The rest (after an error) is removed now.
        drop(staged);
        drop(registered);
        for d in dirs {
            sync_dir(&d);
        }
        result
    }
}

/// The file `real` (the target of `path`) that a write will replace, if any, checked: refused
/// without its owner's write bit unless `--force`; a warning when other hard links share it.
fn old_file(path: &Path, real: &Path) -> Res<Option<std::fs::Metadata>> {
    let m = match std::fs::metadata(real) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(cannot(path, &e)),
    };
    check_mode(path, &m)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if m.nlink() > 1 {
            eprintln!(
                "warning: '{}' has {} hard links; it is replaced by a new file, the other names keep the old content",
                path.display(),
                m.nlink()
            );
        }
    }
    Ok(Some(m))
}

/// Gives the new file `f` the old file's owner (where permitted: EPERM is ignored) and then
/// its mode (after the owner, which may clear set-id bits).
fn keep_owner_and_mode(f: &std::fs::File, old: &std::fs::Metadata) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let now = f.metadata()?;
        if (now.uid(), now.gid()) != (old.uid(), old.gid()) {
            match std::os::unix::fs::fchown(f, Some(old.uid()), Some(old.gid())) {
                Err(e) if e.raw_os_error() == Some(1) => {} // EPERM: not ours to give away
                r => r?,
            }
        }
        f.set_permissions(std::fs::Permissions::from_mode(old.mode() & 0o7777))?;
    }
    #[cfg(not(unix))]
    f.set_permissions(old.permissions())?;
    Ok(())
}

/// The temporary files [`with_temp`] is writing, which an interrupt removes.
static PENDING: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// A temporary file registered in [`PENDING`] while it lives. The first one starts the
/// clean-up on interrupt ([`clean_up_on_signals`]). Without it a run interrupted while it wrote
/// a large output left a hidden `.NAME.nvsurf-tmp-PID` file of that size behind. Commands that
/// write no file keep the default signal behaviour.
struct Pending(PathBuf);

impl Pending {
    /// Runs `make` (which creates the temporary file) with the interrupt clean-up installed
    /// and its list locked, and registers the file before the lock is released.
    fn create(make: impl FnOnce() -> Res<tempfile::NamedTempFile>) -> Res<(tempfile::NamedTempFile, Pending)> {
        static HANDLER: std::sync::Once = std::sync::Once::new();
        HANDLER.call_once(clean_up_on_signals);
        let mut held = PENDING.lock().unwrap_or_else(|e| e.into_inner());
        let tmp = make()?;
        held.push(tmp.path().to_path_buf());
        let pending = Pending(tmp.path().to_path_buf());
        Ok((tmp, pending))
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        let mut pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = pending.iter().position(|p| *p == self.0) {
            pending.swap_remove(i);
        }
    }
}

/// On Linux, for each of SIGINT, SIGTERM and SIGHUP that the process does not ignore: a thread
/// (signal-hook's iterator, so nothing runs in signal context) removes the pending temporary
/// files when the signal comes, then lets it act as if there were no handler (the process
/// dies by it, so a shell stops the script it runs in, and `$?` reads 128 + the signal).
/// Signals the parent ignores stay ignored (`nohup`, `trap '' INT`, background jobs of a
/// script): they are read from the `SigIgn` mask of /proc/self/status, which needs no
/// `unsafe`. Elsewhere, or if that file cannot be read, nothing is installed and an interrupt
/// may leave the temporary file behind, as before. (A signal in the instant between the
/// clean-up and the file's creation can still leave it.)
fn clean_up_on_signals() {
    #[cfg(target_os = "linux")]
    {
        use signal_hook::consts::signal::{SIGHUP, SIGINT, SIGTERM};
        let Some(ignored) = ignored_signals() else { return };
        let wanted: Vec<i32> =
            [SIGINT, SIGTERM, SIGHUP].into_iter().filter(|&s| ignored & (1 << (s - 1)) == 0).collect();
        let Ok(mut signals) = signal_hook::iterator::Signals::new(&wanted) else { return };
        // A small stack, and no panic when the thread cannot be made (the address space of a
        // process under `ulimit -v` can be short of even that once the worker pool exists):
        // the closure and its `signals` are then dropped, which restores the default
        // behaviour, as where nothing is installed.
        let _ = std::thread::Builder::new().name("nvsurf-signals".into()).stack_size(64 << 10).spawn(move || {
            if let Some(sig) = signals.forever().next() {
                // Held until the process ends: no rename or registration comes after this.
                let pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
                for p in pending.iter() {
                    let _ = std::fs::remove_file(p);
                }
                let _ = signal_hook::low_level::emulate_default_handler(sig);
                std::process::exit(128 + sig);
            }
        });
    }
}

/// The `SigIgn` mask of /proc/self/status (bit `n - 1` set: signal `n` is ignored).
#[cfg(target_os = "linux")]
fn ignored_signals() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let hex = status.lines().find_map(|l| l.strip_prefix("SigIgn:"))?;
    u64::from_str_radix(hex.trim(), 16).ok()
}

/// Writes `bytes` to `path` through a temporary file in the same directory and a rename (see
/// [`with_temp`]). The error names `path` once.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Res<()> {
    with_temp(path, |f| f.write_all(bytes).map_err(|e| cannot(path, &e)))
}

/// [`write_atomic`] as one file of a [`Group`].
pub fn stage_bytes(g: &mut Group, path: &Path, bytes: &[u8]) -> Res<()> {
    g.stage(path, |f| f.write_all(bytes).map_err(|e| cannot(path, &e)))
}
