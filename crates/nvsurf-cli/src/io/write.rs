//! Writing files safely: [`write_atomic`] and [`with_temp`] write through a temporary file
//! beside the target and rename it over the target, so an existing file is replaced atomically
//! (a symlink's target is replaced, devices such as `/dev/stdout` are written in place), and
//! on Linux, Ctrl-C, SIGTERM or SIGHUP during the write removes the temporary file before the
//! signal ends the process (signals the parent ignores stay ignored). Shared by every command
//! that writes a file; it imports no command module.

use std::io::Write;
use std::path::{Path, PathBuf};

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

/// Runs `write` on a temporary path in the same directory as `path` (same extension), then
/// renames it over `path`: an existing file is replaced atomically, and nothing is left behind
/// when `write` fails. If `path` is a symlink, the file it points to is replaced (temporary file
/// in that file's directory) and the link is kept. If `path` exists and is not a regular file
/// (a device such as `/dev/stdout`, a FIFO), `write` writes it directly, without a rename.
/// Errors of its own (resolving `path`, the rename) read "cannot write 'PATH': cause"; errors
/// of `write` are passed on as they are.
pub fn with_temp(
    path: &Path,
    write: impl FnOnce(&Path) -> Result<(), Box<dyn std::error::Error>>,
) -> Result<(), Box<dyn std::error::Error>> {
    let cannot = |e: &dyn std::fmt::Display| -> Box<dyn std::error::Error> {
        format!("cannot write '{}': {e}", path.display()).into()
    };
    let real = match target(path).map_err(|e| cannot(&e))? {
        Target::InPlace => return write(path),
        Target::Replace(p) => p,
    };
    let dir = real.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = real.file_name().ok_or_else(|| format!("output '{}' is not a file name", path.display()))?;
    let ext = real.extension().map(|e| format!(".{}", e.to_string_lossy())).unwrap_or_default();
    let tmp = dir.join(format!(".{}.nvsurf-tmp-{}{ext}", name.to_string_lossy(), std::process::id()));
    let pending = Pending::new(&tmp);
    let result = write(&tmp).and_then(|()| {
        // Under the lock, so that an interrupt's clean-up comes wholly before the rename (and
        // the process dies without renaming) or wholly after it (nothing left to remove).
        let _held = PENDING.lock().unwrap_or_else(|e| e.into_inner());
        std::fs::rename(&tmp, &real).map_err(|e| cannot(&e))
    });
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    drop(pending);
    result
}

/// The temporary files [`with_temp`] is writing, which an interrupt removes.
static PENDING: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// A temporary file registered in [`PENDING`] while it lives. The first one starts the
/// clean-up on interrupt ([`clean_up_on_signals`]). Without it a run interrupted while it wrote
/// a large output left a hidden `.NAME.nvsurf-tmp-PID` file of that size behind. Commands that
/// write no file keep the default signal behaviour.
struct Pending(PathBuf);

impl Pending {
    fn new(tmp: &Path) -> Pending {
        static HANDLER: std::sync::Once = std::sync::Once::new();
        HANDLER.call_once(clean_up_on_signals);
        PENDING.lock().unwrap_or_else(|e| e.into_inner()).push(tmp.to_path_buf());
        Pending(tmp.to_path_buf())
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
/// [`with_temp`] for symlinks and devices). The error names `path` once.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Box<dyn std::error::Error>> {
    with_temp(path, |tmp| {
        let write = || -> std::io::Result<()> {
            let mut f = std::fs::File::create(tmp)?;
            f.write_all(bytes)?;
            if f.metadata()?.is_file() {
                f.sync_all()?;
            }
            Ok(())
        };
        write().map_err(|e| format!("cannot write '{}': {e}", path.display()).into())
    })
}
