//! `--threads N`, the flag `tile`, `untile` and `convert` share, and the worker pool it starts.

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// The `--threads` flag (flattened into each command that takes it).
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub struct ThreadsArg {
    /// Worker threads (default: all cores; 1 = the single-thread path; at most 4x the cores).
    #[arg(long, value_parser = crate::surface_args::clap_usize)]
    pub threads: Option<usize>,
}

impl ThreadsArg {
    /// The worker pool of a checked `--threads` ([`check_threads`], [`pool`]): `None` for 1.
    pub fn pool(&self) -> Res<Option<rayon::ThreadPool>> {
        pool(check_threads(self.threads)?)
    }
}

/// `--threads`: 1 to [`nvsurf::tile::max_threads`] (4x the machine's cores); `None` is every
/// core.
pub fn check_threads(threads: Option<usize>) -> Res<Option<usize>> {
    let max = nvsurf::tile::max_threads();
    match threads {
        Some(n) if n == 0 || n > max => {
            Err(nvsurf::Error::OutOfRange { field: "threads", value: n as u64, min: 1, max: max as u64 }.into())
        }
        t => Ok(t),
    }
}

/// The worker pool for checked `--threads`: `None` for 1 (the single-thread path), else a pool
/// of that many threads (all cores by default); a failure to start them names the flag.
pub fn pool(threads: Option<usize>) -> Res<Option<rayon::ThreadPool>> {
    match threads {
        Some(1) => Ok(None),
        n => {
            let want = n.unwrap_or(0);
            let p = rayon::ThreadPoolBuilder::new().num_threads(want).build().map_err(|e| {
                format!(
                    "threads {}: cannot start the worker threads: {e}",
                    n.map_or("(all cores)".into(), |v| v.to_string())
                )
            })?;
            Ok(Some(p))
        }
    }
}

/// Runs `f` in `pool`, or on this thread without one.
pub fn install<R: Send>(pool: Option<&rayon::ThreadPool>, f: impl FnOnce() -> R + Send) -> R {
    match pool {
        None => f(),
        Some(p) => p.install(f),
    }
}
