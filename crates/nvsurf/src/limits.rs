//! An explicit memory budget. Linux overcommits memory: an allocation larger than the machine
//! can back may succeed and the process die later, so "the allocator refused" is no limit. The
//! front door's allocating calls (`Texture::untile_to_buf`, `tile_to_buf`) check the bytes they
//! are about to allocate against a [`Limits`] first, and refuse with an error naming the size.

use crate::error::{Error, Result};

/// How much memory one call may allocate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Limits {
    /// Bytes one call may allocate at once.
    pub max_bytes: u64,
}

impl Limits {
    /// No limit.
    pub const NONE: Limits = Limits { max_bytes: u64::MAX };

    /// Half the machine's physical memory (Linux `/proc/meminfo`; no limit where unknown, and
    /// in builds without `std`): the CLI's default for `--max-memory`.
    pub fn from_machine() -> Limits {
        physical_memory_bytes().map_or(Limits::NONE, |b| Limits { max_bytes: b / 2 })
    }

    /// Refuses `bytes` for `what` past the budget, before anything is allocated.
    pub fn check(&self, what: &'static str, bytes: u64) -> Result<()> {
        if bytes > self.max_bytes {
            return Err(Error::OutOfRange { field: what, value: bytes, min: 0, max: self.max_bytes });
        }
        Ok(())
    }
}

impl Default for Limits {
    /// [`Limits::from_machine`].
    fn default() -> Limits {
        Limits::from_machine()
    }
}

/// The machine's physical memory in bytes, if known.
#[cfg(feature = "std")]
pub fn physical_memory_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The machine's physical memory: unknown without `std`.
#[cfg(not(feature = "std"))]
pub fn physical_memory_bytes() -> Option<u64> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_refuse_before_allocating() {
        let l = Limits { max_bytes: 1000 };
        assert!(l.check("linear texture size", 1000).is_ok());
        let e = l.check("linear texture size", 1001).unwrap_err();
        assert_eq!(e.to_string(), "linear texture size 1001 is out of range 0..=1000");
        assert!(Limits::NONE.check("x", u64::MAX).is_ok());
        #[cfg(all(feature = "std", target_os = "linux"))]
        assert!(Limits::from_machine().max_bytes < u64::MAX);
    }
}
