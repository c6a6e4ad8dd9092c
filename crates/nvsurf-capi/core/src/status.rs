//! Status codes, the per-thread last error and the guard every entry point runs its body in:
//! a failure becomes a status code plus a one-line message (field, value, rule) that
//! `nvsurf_last_error` returns, and a panic is caught before it can cross into C.

use std::cell::RefCell;
use std::ffi::{c_char, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// What a call came to. `NVSURF_OK` is zero; every other value is an error whose message
/// `nvsurf_last_error()` returns on the same thread.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)] // C's constant names, exactly as the header spells them.
pub enum NvsurfStatus {
    /// Success.
    NVSURF_OK = 0,
    /// A pointer argument was NULL.
    NVSURF_ERR_NULL = 1,
    /// A value is out of its range, not a multiple or power of two it must be, or not allowed
    /// with the other values (for example a flag bit that does not exist).
    NVSURF_ERR_INVALID = 2,
    /// A name (platform, format, texture type, layout, gob order, block policy) is unknown.
    NVSURF_ERR_UNKNOWN_NAME = 3,
    /// A buffer is shorter than the call needs.
    NVSURF_ERR_BUFFER_TOO_SMALL = 4,
    /// A coordinate, level, layer or box lies outside the surface or texture.
    NVSURF_ERR_OUT_OF_BOUNDS = 5,
    /// A size or address does not fit (the 40-bit address space, 64 bits, or memory).
    NVSURF_ERR_OVERFLOW = 6,
    /// The combination is not supported (a format the GPU lacks, no known gob order, ...).
    NVSURF_ERR_UNSUPPORTED = 7,
    /// Two buffers of one call overlap (an input and an output must be distinct memory).
    NVSURF_ERR_OVERLAP = 8,
    /// A text argument is not valid UTF-8.
    NVSURF_ERR_BAD_STRING = 9,
    /// An internal error: the library caught a panic (a bug; the message says where).
    NVSURF_ERR_INTERNAL = 10,
}

/// A failure inside an entry point: its status and its one-line message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The status the call returns.
    pub status: NvsurfStatus,
    /// The message `nvsurf_last_error` returns (field, value, rule).
    pub message: String,
}

impl Failure {
    /// A failure of `status` with `message`.
    pub fn new(status: NvsurfStatus, message: impl Into<String>) -> Failure {
        Failure { status, message: message.into() }
    }

    /// The NULL-pointer failure of argument `name`.
    pub fn null(name: &str) -> Failure {
        Failure::new(NvsurfStatus::NVSURF_ERR_NULL, format!("{name} is NULL: pointer arguments must not be NULL"))
    }
}

impl From<nvsurf::Error> for Failure {
    fn from(e: nvsurf::Error) -> Failure {
        use nvsurf::Error as E;
        use NvsurfStatus as S;
        let status = match &e {
            // A box past the surface's edge is reported as a range of its end.
            E::OutOfRange { field, .. } if field.starts_with("box ") => S::NVSURF_ERR_OUT_OF_BOUNDS,
            E::OutOfRange { .. } | E::NotMultiple { .. } | E::NotPowerOfTwo { .. } | E::ElemSize { .. } => {
                S::NVSURF_ERR_INVALID
            }
            E::Parse { .. } => S::NVSURF_ERR_INVALID,
            E::Overflow { .. } => S::NVSURF_ERR_OVERFLOW,
            E::OutOfBounds { .. } => S::NVSURF_ERR_OUT_OF_BOUNDS,
            E::BufferTooSmall { .. } => S::NVSURF_ERR_BUFFER_TOO_SMALL,
            E::UnknownName { .. } | E::UnknownFormat { .. } => S::NVSURF_ERR_UNKNOWN_NAME,
            E::Unsupported { .. } => S::NVSURF_ERR_UNSUPPORTED,
            // The error type is non-exhaustive: a later kind is at least an invalid argument.
            _ => S::NVSURF_ERR_INVALID,
        };
        Failure { status, message: e.to_string() }
    }
}

/// The result of an entry point's body.
pub type CResult<T = ()> = Result<T, Failure>;

thread_local! {
    /// The message of the last failed call on this thread (NUL-terminated for C).
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// Stores `message` as this thread's last error (interior NULs, which no message of the
/// library has, are replaced so the text is never cut short).
fn set_last_error(message: &str) {
    let c = CString::new(message.replace('\0', "?")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = c);
}

/// A pointer to this thread's last error message, valid until this thread's next failed call
/// into the library (the buffer is replaced then) or the thread's end.
pub(crate) fn last_error_ptr() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

/// Runs an entry point's body: `NVSURF_OK` on success; on failure the status, with the message
/// stored for `nvsurf_last_error`; a panic is caught and reported as `NVSURF_ERR_INTERNAL`.
pub(crate) fn guard(body: impl FnOnce() -> CResult) -> NvsurfStatus {
    // AssertUnwindSafe: after a panic nothing the body touched is used again (the handles it
    // read are immutable, a half-written output buffer is the caller's and the status says
    // the call failed).
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => NvsurfStatus::NVSURF_OK,
        Ok(Err(f)) => {
            set_last_error(&f.message);
            f.status
        }
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            set_last_error(&format!("internal error: {what} (a bug in nvsurf: please report it)"));
            NvsurfStatus::NVSURF_ERR_INTERNAL
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    fn last() -> String {
        // SAFETY: last_error_ptr points at this thread's live NUL-terminated CString.
        unsafe { CStr::from_ptr(last_error_ptr()) }.to_string_lossy().into_owned()
    }

    #[test]
    fn failures_and_panics_become_statuses_with_a_message() {
        assert_eq!(guard(|| Ok(())), NvsurfStatus::NVSURF_OK);
        assert_eq!(guard(|| Err(Failure::null("tiled"))), NvsurfStatus::NVSURF_ERR_NULL);
        assert_eq!(last(), "tiled is NULL: pointer arguments must not be NULL");
        let e = nvsurf::Error::NotMultiple { field: "pitch", value: 100, multiple: 64 };
        assert_eq!(guard(|| Err(e.into())), NvsurfStatus::NVSURF_ERR_INVALID);
        assert_eq!(last(), "pitch 100 is not a multiple of 64");
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let s = guard(|| panic!("boom"));
        std::panic::set_hook(prev);
        assert_eq!(s, NvsurfStatus::NVSURF_ERR_INTERNAL);
        assert!(last().contains("boom"), "{}", last());
        // Another thread has its own message.
        std::thread::spawn(|| assert_eq!(last(), "")).join().unwrap();
    }
}
