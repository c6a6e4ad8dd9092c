//! A heap byte buffer whose first byte is on a 64-byte line ([`AlignedBuf`]): what the widest
//! gob and swizzle-chunk kernels and the streaming stores need, and what a plain `Vec<u8>`
//! does not promise (a large one from the C allocator starts 16 bytes into a page). Safe code
//! only: the buffer over-allocates 63 bytes and starts at the first line boundary inside its
//! storage, which never moves because the storage is never grown.

use crate::error::{Error, Result};
use alloc::vec::Vec;
use core::ops::{Deref, DerefMut};

/// The alignment of an [`AlignedBuf`]'s start, in bytes: one cache line.
pub const LINE_BYTES: usize = 64;

/// A fixed-length heap byte buffer whose start is 64-byte aligned ([`LINE_BYTES`]); reads and
/// writes as a `[u8]` (`Deref`, `DerefMut`). It costs 63 bytes more than a `Vec<u8>`.
///
/// ```
/// use nvsurf::tile::AlignedBuf;
/// let mut b = AlignedBuf::zeroed(100).unwrap();
/// assert_eq!(b.as_ptr() as usize % 64, 0);
/// b[99] = 7;
/// assert_eq!(b.len(), 100);
/// assert_eq!(b.into_vec()[99], 7);
/// ```
pub struct AlignedBuf {
    /// `start + len` bytes or more; never grown (its address is fixed).
    storage: Vec<u8>,
    /// Index in `storage` of the first line boundary.
    start: usize,
    /// Length of the buffer in bytes.
    len: usize,
}

impl AlignedBuf {
    /// `len` zero bytes; an error when `len + 63` does not fit in `usize` or the allocation
    /// fails (never an abort).
    pub fn zeroed(len: usize) -> Result<AlignedBuf> {
        let total = len.checked_add(LINE_BYTES - 1).ok_or_else(|| Error::Overflow {
            what: "aligned buffer",
            detail: alloc::format!("{len} bytes and 63 bytes of alignment slack do not fit in usize"),
        })?;
        let mut storage = Vec::new();
        storage.try_reserve_exact(total).map_err(|_| Error::Unsupported {
            field: "aligned buffer",
            value: alloc::format!("{len} bytes"),
            rule: "the allocation failed".into(),
        })?;
        storage.resize(total, 0);
        Ok(AlignedBuf::at_line(storage, len))
    }

    /// A copy of `bytes`, line-aligned.
    pub fn from_slice(bytes: &[u8]) -> Result<AlignedBuf> {
        let mut b = AlignedBuf::zeroed(bytes.len())?;
        b.copy_from_slice(bytes);
        Ok(b)
    }

    /// `bytes`, moved onto a line boundary inside their own allocation where its capacity
    /// allows (else after growing it once by 63 bytes): no second buffer of the whole size.
    pub fn from_vec(mut bytes: Vec<u8>) -> Result<AlignedBuf> {
        let len = bytes.len();
        bytes.try_reserve_exact(LINE_BYTES - 1).map_err(|_| Error::Unsupported {
            field: "aligned buffer",
            value: alloc::format!("{len} bytes"),
            rule: "the allocation failed".into(),
        })?;
        // From here on the capacity holds `len + 63` bytes, so the storage does not move.
        let at = line_offset(bytes.as_ptr());
        bytes.resize(len + LINE_BYTES - 1, 0);
        bytes.copy_within(0..len, at);
        Ok(AlignedBuf { storage: bytes, start: at, len })
    }

    /// Takes `storage` (at least `len + 63` bytes) and places the buffer at its first line.
    fn at_line(storage: Vec<u8>, len: usize) -> AlignedBuf {
        let start = line_offset(storage.as_ptr());
        debug_assert!(start + len <= storage.len());
        AlignedBuf { storage, start, len }
    }

    /// The bytes as a `Vec<u8>` (moved to the front of the same allocation: no copy to a new
    /// one; the vector's start is then wherever the allocator put it).
    pub fn into_vec(mut self) -> Vec<u8> {
        self.storage.copy_within(self.start..self.start + self.len, 0);
        self.storage.truncate(self.len);
        self.storage
    }

    /// The bytes.
    pub fn as_slice(&self) -> &[u8] {
        &self.storage[self.start..self.start + self.len]
    }

    /// The bytes, writable.
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        &mut self.storage[self.start..self.start + self.len]
    }
}

/// Bytes from `p` to the next multiple of [`LINE_BYTES`] (0 to 63).
fn line_offset(p: *const u8) -> usize {
    (LINE_BYTES - (p as usize) % LINE_BYTES) % LINE_BYTES
}

impl Deref for AlignedBuf {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.as_slice()
    }
}

impl DerefMut for AlignedBuf {
    fn deref_mut(&mut self) -> &mut [u8] {
        self.as_mut_slice()
    }
}

impl AsRef<[u8]> for AlignedBuf {
    fn as_ref(&self) -> &[u8] {
        self.as_slice()
    }
}

impl AsMut<[u8]> for AlignedBuf {
    fn as_mut(&mut self) -> &mut [u8] {
        self.as_mut_slice()
    }
}

impl Clone for AlignedBuf {
    /// A copy in a new allocation, aligned there (the offset of the original's start in its
    /// storage would not be a line boundary in another).
    fn clone(&self) -> AlignedBuf {
        let mut storage = alloc::vec![0u8; self.len + LINE_BYTES - 1];
        let start = line_offset(storage.as_ptr());
        storage[start..start + self.len].copy_from_slice(self);
        AlignedBuf { storage, start, len: self.len }
    }
}

impl core::fmt::Debug for AlignedBuf {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("AlignedBuf").field("len", &self.len).finish_non_exhaustive()
    }
}

impl PartialEq for AlignedBuf {
    fn eq(&self, other: &AlignedBuf) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for AlignedBuf {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_on_a_line_and_keeps_its_bytes() {
        for len in [0usize, 1, 63, 64, 65, 4095, 1 << 20] {
            let b = AlignedBuf::zeroed(len).unwrap();
            assert_eq!(b.as_ptr() as usize % LINE_BYTES, 0, "{len}");
            assert_eq!(b.len(), len);
            assert!(b.iter().all(|&x| x == 0));
            let src: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
            let s = AlignedBuf::from_slice(&src).unwrap();
            assert_eq!(s.as_ptr() as usize % LINE_BYTES, 0);
            assert_eq!(&s[..], &src[..]);
            let c = s.clone();
            assert_eq!(c.as_ptr() as usize % LINE_BYTES, 0);
            assert_eq!(c, s);
            let v = AlignedBuf::from_vec(src.clone()).unwrap();
            assert_eq!(v.as_ptr() as usize % LINE_BYTES, 0);
            assert_eq!(&v[..], &src[..]);
            assert_eq!(v.into_vec(), src);
        }
    }

    #[test]
    fn bounds_are_the_length_not_the_storage() {
        let mut b = AlignedBuf::zeroed(10).unwrap();
        assert!(b.get(10).is_none(), "the slack after the buffer is not part of it");
        assert!(b.get_mut(9).is_some());
        #[cfg(feature = "std")]
        assert!(std::panic::catch_unwind(move || b[10]).is_err());
        // Too large to add the slack: an error, not a panic or an abort.
        assert!(AlignedBuf::zeroed(usize::MAX).is_err());
        assert!(AlignedBuf::zeroed(usize::MAX - 62).is_err());
    }
}
