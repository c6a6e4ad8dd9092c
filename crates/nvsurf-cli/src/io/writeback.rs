//! Early writeback of a streamed output: every output is synced before it is renamed over its
//! target (`docs/files.md`), and a sync at the end of a long copy waits for the whole file to
//! reach the disk after the copy is done. [`start`] hands each band to the kernel's writeback
//! as soon as it is written, so the disk works while the next bands are computed and the final
//! sync finds little left to do.
//!
//! On Linux, `posix_fadvise(POSIX_FADV_DONTNEED)` on a range first starts writeback of its
//! dirty pages without waiting for it (Linux `mm/fadvise.c`, `generic_fadvise`:
//! `__filemap_fdatawrite_range(..., WB_SYNC_NONE)`), then drops the range's clean pages; pages
//! still under writeback are not dropped. It is the safe call (rustix) that does what
//! `sync_file_range(SYNC_FILE_RANGE_WRITE)` does. Elsewhere [`start`] does nothing.

use std::fs::File;

/// Starts writing `len` bytes of `file` at `offset` to the disk, without waiting. Advice only:
/// an error is ignored (the final sync still reports any failure to write).
pub fn start(file: &File, offset: u64, len: u64) {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    if let Some(len) = std::num::NonZeroU64::new(len) {
        let _ = rustix::fs::fadvise(file, offset, Some(len), rustix::fs::Advice::DontNeed);
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    let _ = (file, offset, len);
}
