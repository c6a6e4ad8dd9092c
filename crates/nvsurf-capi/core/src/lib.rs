//! The functions of nvsurf's C library: `libnvsurf.so` / `libnvsurf.a` (linked by the
//! `nvsurf-capi` package, `crates/nvsurf-capi`) with the header
//! `crates/nvsurf-capi/include/nvsurf.h` (generated from this crate by cbindgen, checked in,
//! kept current by `crates/nvsurf-capi/tests/header.rs`). The same front door Rust callers have (`nvsurf::TextureSpec`,
//! `nvsurf::SurfaceSpec`), behind a boundary that checks everything C can get wrong: every
//! function returns an [`NvsurfStatus`], the message of a failure is per thread
//! ([`nvsurf_last_error`]), buffers are (pointer, length) pairs checked before use, NULL is an
//! error, no panic crosses, handles are opaque with create and destroy functions.
//!
//! - `status`: status codes, the last error, the guard around every entry point.
//! - `ptr`: the pointer, buffer, string and handle checks.
//! - `params`: the fields surfaces and textures share.
//! - `surface`, `texture`, `format`: the three kinds of handle and their functions.

#![warn(missing_docs)]

mod abi;
mod format;
mod params;
mod ptr;
mod status;
mod surface;
mod texture;
mod texture_alloc;

pub use abi::NVSURF_ABI_MAJOR;
pub use format::*;
pub use params::NVSURF_COPY_PARALLEL;
pub use status::NvsurfStatus;
pub use surface::*;
pub use texture::*;
pub use texture_alloc::*;

use std::ffi::c_char;

/// The library's version with a terminating NUL.
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");

/// The library's version, `MAJOR.MINOR.PATCH`, as a static NUL-terminated string (never
/// NULL; do not free it). Thread-safe; cannot fail.
#[no_mangle]
pub extern "C" fn nvsurf_version() -> *const c_char {
    VERSION.as_ptr() as *const c_char
}

/// The message of the last failed call on the calling thread, one line naming the field, the
/// value and the rule (`""` if no call on this thread has failed). The string belongs to the
/// library: it stays valid until the next failed call on the same thread (or the thread's
/// end); copy it to keep it. Calls that succeed leave it as it was. Each thread has its own;
/// cannot fail, never NULL.
#[no_mangle]
pub extern "C" fn nvsurf_last_error() -> *const c_char {
    // Cannot panic: a thread-local read (during thread teardown the std accessor could panic,
    // so guard it anyway and fall back to a static message).
    std::panic::catch_unwind(status::last_error_ptr)
        .unwrap_or(c"the last error is not available while the thread ends".as_ptr())
}
