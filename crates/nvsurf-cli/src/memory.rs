//! One memory budget for every command and every picture reader: `--max-memory BYTES`, or by
//! default half the machine's physical memory ([`nvsurf::Limits::from_machine`]). A command
//! resolves its flag once ([`MaxMemoryArg::apply`]); the picture decoders (PNG, EXR, DDS, KTX2
//! with zstd) and the readers of pipes and devices check what they are about to allocate against
//! it ([`check`]) and refuse in one line, before allocating: Linux overcommits, so "the
//! allocator refused" is no limit.

use nvsurf::Limits;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The resolved budget in bytes, once a command has set it ([`set`]).
static BUDGET: AtomicU64 = AtomicU64::new(u64::MAX);
/// Whether a command set [`BUDGET`] (otherwise the default applies).
static SET: AtomicBool = AtomicBool::new(false);
/// Whether the budget came from `--max-memory` (the error says which).
static GIVEN: AtomicBool = AtomicBool::new(false);

/// The `--max-memory` flag (flattened into `tile`, `untile` and `convert`).
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub struct MaxMemoryArg {
    /// The memory the command may hold at once, in bytes (default: half the machine's physical
    /// memory). It bounds the copy's buffers and every picture decoder (PNG, EXR, DDS, KTX2 and
    /// its zstd levels): a size that would need more stops before allocating, naming the size.
    #[arg(long = "max-memory", value_name = "BYTES", value_parser = crate::surface_args::clap_u64)]
    pub max_memory: Option<u64>,
}

impl MaxMemoryArg {
    /// Resolves the flag ([`resolve`]) and makes it the budget of this process's readers.
    pub fn apply(&self) -> Limits {
        set(self.max_memory)
    }
}

/// `--max-memory`, or half the machine's physical memory (no limit where that is unknown).
pub fn resolve(max_memory: Option<u64>) -> Limits {
    max_memory.map_or_else(Limits::from_machine, |max_bytes| Limits { max_bytes })
}

/// Resolves `max_memory` and makes it the budget [`check`] applies; returns it.
pub fn set(max_memory: Option<u64>) -> Limits {
    let l = resolve(max_memory);
    BUDGET.store(l.max_bytes, Ordering::Relaxed);
    GIVEN.store(max_memory.is_some(), Ordering::Relaxed);
    SET.store(true, Ordering::Relaxed);
    l
}

/// The budget in force: the one a command set, else the default.
pub fn limits() -> Limits {
    match SET.load(Ordering::Relaxed) {
        true => Limits { max_bytes: BUDGET.load(Ordering::Relaxed) },
        false => {
            // Read once: every allocation of the decoders asks.
            static DEFAULT: std::sync::OnceLock<Limits> = std::sync::OnceLock::new();
            *DEFAULT.get_or_init(Limits::from_machine)
        }
    }
}

/// A size refused by the memory budget.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{what} needs {bytes} bytes but --max-memory is {max} bytes{}; give --max-memory BYTES to allow more",
    if *given { "" } else { " (the default: half the machine's memory)" }
)]
pub struct OverBudget {
    /// What would be allocated ("KTX2 texture", "PNG pixels").
    pub what: String,
    /// Its bytes.
    pub bytes: u64,
    /// The budget.
    pub max: u64,
    /// Whether the budget is `--max-memory`'s (else the default).
    pub given: bool,
}

/// Refuses `bytes` for `what` above the budget in force ([`limits`]), before anything is
/// allocated.
pub fn check(what: &str, bytes: u64) -> Result<(), OverBudget> {
    let max = limits().max_bytes;
    if bytes > max {
        return Err(OverBudget { what: what.to_string(), bytes, max, given: GIVEN.load(Ordering::Relaxed) });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_wins_over_the_default() {
        assert_eq!(resolve(Some(1000)).max_bytes, 1000);
        assert_eq!(resolve(None), Limits::from_machine());
        let e = OverBudget { what: "KTX2 texture".into(), bytes: 1001, max: 1000, given: true };
        assert_eq!(
            e.to_string(),
            "KTX2 texture needs 1001 bytes but --max-memory is 1000 bytes; give --max-memory BYTES to allow more"
        );
        assert!(check("nothing", 0).is_ok());
    }
}
