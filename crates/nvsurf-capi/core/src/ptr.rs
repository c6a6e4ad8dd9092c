//! The checks at the C boundary: NULL pointers, (pointer, length) buffers, overlapping
//! buffers, C strings, in- and out-structs, and the opaque handles. Each function turns raw
//! pointers into references only after the checks that safe Rust relies on; what no function
//! can check (that memory of that length really is the caller's) is the caller's promise,
//! written next to every function in the header.

use crate::status::{CResult, Failure, NvsurfStatus};
use std::ffi::{c_char, CStr};

/// The largest buffer a slice may describe (`isize::MAX` bytes, the rule of
/// `core::slice::from_raw_parts`).
const MAX_BUF_BYTES: usize = isize::MAX as usize;

/// Checks a buffer's pointer and length before a slice is made of it.
pub(crate) fn check_buf(ptr: *const u8, len: usize, name: &str) -> CResult {
    if ptr.is_null() {
        return Err(Failure::null(name));
    }
    if len > MAX_BUF_BYTES {
        return Err(Failure::new(
            NvsurfStatus::NVSURF_ERR_INVALID,
            format!("{name}_len {len} is out of range 0..={MAX_BUF_BYTES} (a buffer is at most PTRDIFF_MAX bytes)"),
        ));
    }
    if (ptr as usize).checked_add(len).is_none() {
        return Err(Failure::new(
            NvsurfStatus::NVSURF_ERR_INVALID,
            format!("{name}_len {len} runs past the end of the address space from {ptr:p}"),
        ));
    }
    Ok(())
}

/// Checks that the byte ranges `a` and `b` (pointer, length) do not overlap: an input and an
/// output of one call must be distinct memory (Rust may not hold a shared and a mutable view of
/// the same bytes). Call before making slices of them.
pub(crate) fn check_disjoint(a: (*const u8, usize, &str), b: (*const u8, usize, &str)) -> CResult {
    let (a0, b0) = (a.0 as usize, b.0 as usize);
    // check_buf has ruled out wrap-around for both ranges.
    let overlap = a.1 > 0 && b.1 > 0 && a0 < b0 + b.1 && b0 < a0 + a.1;
    if overlap {
        return Err(Failure::new(
            NvsurfStatus::NVSURF_ERR_OVERLAP,
            format!(
                "{} [{:p}, +{}) overlaps {} [{:p}, +{}): input and output buffers must not overlap",
                a.2, a.0, a.1, b.2, b.0, b.1
            ),
        ));
    }
    Ok(())
}

/// An input buffer as a slice, after the NULL and length checks.
///
/// # Safety
/// If `ptr` is not NULL it must point to `len` readable bytes that nothing writes while the
/// slice lives (the caller's promise, stated in the header).
pub(crate) unsafe fn in_buf<'a>(ptr: *const u8, len: usize, name: &str) -> CResult<&'a [u8]> {
    check_buf(ptr, len, name)?;
    // SAFETY: `ptr` is not NULL and `len` is at most isize::MAX without wrapping (checked
    // above); the caller promises `len` readable bytes not written during the call. u8 has
    // alignment 1.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// An output buffer as a mutable slice, after the NULL and length checks.
///
/// # Safety
/// If `ptr` is not NULL it must point to `len` writable bytes that nothing else reads or
/// writes while the slice lives, and that no other argument of the call covers (see
/// [`check_disjoint`]).
pub(crate) unsafe fn out_buf<'a>(ptr: *mut u8, len: usize, name: &str) -> CResult<&'a mut [u8]> {
    check_buf(ptr, len, name)?;
    // SAFETY: as in `in_buf`, and the caller promises exclusive access; the entry points
    // check that no input of the same call overlaps it before calling this.
    Ok(unsafe { std::slice::from_raw_parts_mut(ptr, len) })
}

/// A required NUL-terminated UTF-8 string argument.
///
/// # Safety
/// If `p` is not NULL it must point to a NUL-terminated string that lives through the call.
pub(crate) unsafe fn c_str<'a>(p: *const c_char, name: &str) -> CResult<&'a str> {
    if p.is_null() {
        return Err(Failure::null(name));
    }
    // SAFETY: not NULL (checked); the caller promises a NUL-terminated string alive for the
    // call, which is all CStr::from_ptr reads.
    let c = unsafe { CStr::from_ptr(p) };
    c.to_str().map_err(|e| {
        Failure::new(
            NvsurfStatus::NVSURF_ERR_BAD_STRING,
            format!("{name} '{}' is not valid UTF-8 (byte {})", c.to_string_lossy(), e.valid_up_to()),
        )
    })
}

/// An optional string argument: NULL means "the default".
///
/// # Safety
/// As [`c_str`] when `p` is not NULL.
pub(crate) unsafe fn opt_str<'a>(p: *const c_char, name: &str) -> CResult<Option<&'a str>> {
    if p.is_null() {
        return Ok(None);
    }
    // SAFETY: forwarded: the caller's promise for a non-NULL `p`.
    unsafe { c_str(p, name) }.map(Some)
}

/// Checks a pointer to a `T` the call reads or writes: not NULL, aligned for `T`.
fn check_obj<T>(p: *const T, name: &str) -> CResult {
    if p.is_null() {
        return Err(Failure::null(name));
    }
    if !p.is_aligned() {
        return Err(Failure::new(
            NvsurfStatus::NVSURF_ERR_INVALID,
            format!("{name} {p:p} is not aligned to {} bytes, the alignment of its type", std::mem::align_of::<T>()),
        ));
    }
    Ok(())
}

/// Reads the struct an input pointer points at.
///
/// # Safety
/// If `p` is not NULL and aligned it must point to an initialised `T` (every `T` used here is
/// plain integers and pointers, for which any initialised bits are a valid value).
pub(crate) unsafe fn read_in<T: Copy>(p: *const T, name: &str) -> CResult<T> {
    check_obj(p, name)?;
    // SAFETY: not NULL and aligned (checked); the caller promises an initialised T, and T is
    // Copy plain data.
    Ok(unsafe { p.read() })
}

/// Writes `value` through an output pointer (the memory may be uninitialised).
///
/// # Safety
/// If `p` is not NULL and aligned it must point to writable memory for one `T`.
pub(crate) unsafe fn write_out<T>(p: *mut T, value: T, name: &str) -> CResult {
    check_obj(p, name)?;
    // SAFETY: not NULL and aligned (checked); the caller promises room for one T. `write`
    // does not read or drop the old contents, so uninitialised memory is fine.
    unsafe { p.write(value) };
    Ok(())
}

/// Checks an output pointer before work whose result it receives (so that a NULL is reported
/// before, not after, an expensive step).
pub(crate) fn check_out<T>(p: *mut T, name: &str) -> CResult {
    check_obj(p as *const T, name)
}

/// Borrows the object behind an opaque handle.
///
/// # Safety
/// If `p` is not NULL it must be a handle that this library's matching `_create` function
/// returned and that has not been destroyed, and no call may destroy it during this one.
pub(crate) unsafe fn handle<'a, T>(p: *const T, name: &str) -> CResult<&'a T> {
    if p.is_null() {
        return Err(Failure::null(name));
    }
    // SAFETY: a live handle is a pointer from Box::into_raw (aligned, initialised), which
    // nothing mutates until its destroy function runs; the caller promises it is live.
    Ok(unsafe { &*p })
}

/// Gives a new object to C as an opaque handle, written through `out`.
///
/// # Safety
/// `out` must have passed [`check_out`] and still point to writable memory for one pointer.
pub(crate) unsafe fn give<T>(out: *mut *mut T, value: T) -> CResult {
    let raw = Box::into_raw(Box::new(value));
    // SAFETY: the caller promises `out` points to room for one pointer.
    unsafe { write_out(out, raw, "out") }.inspect_err(|_| {
        // SAFETY: `raw` came from Box::into_raw just above and was not handed out.
        drop(unsafe { Box::from_raw(raw) });
    })
}

/// Takes back and frees an object given out by [`give`]; NULL is a no-op.
///
/// # Safety
/// `p` must be NULL or a handle from [`give`] for the same `T` not yet taken back, and no
/// other call may use it during or after this one.
pub(crate) unsafe fn take_back<T>(p: *mut T) {
    if !p.is_null() {
        // SAFETY: the caller promises `p` came from Box::into_raw of a Box<T> and is freed once.
        drop(unsafe { Box::from_raw(p) });
    }
}

/// A flag word with only the bits in `known`.
pub(crate) fn check_flags(flags: u32, known: u32, name: &str) -> CResult {
    if flags & !known != 0 {
        return Err(Failure::new(
            NvsurfStatus::NVSURF_ERR_INVALID,
            format!("{name} {flags:#x} has unknown bits {:#x}: the known bits are {known:#x}", flags & !known),
        ));
    }
    Ok(())
}

/// A C boolean field: 0 or 1.
pub(crate) fn c_bool(v: u32, name: &str) -> CResult<bool> {
    match v {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(Failure::new(NvsurfStatus::NVSURF_ERR_INVALID, format!("{name} {v} is out of range 0..=1"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_are_checked_before_use() {
        let b = [1u8, 2, 3, 4];
        // SAFETY: `b` is 4 readable bytes.
        assert_eq!(unsafe { in_buf(b.as_ptr(), 4, "tiled") }.unwrap(), &b);
        // SAFETY: NULL is rejected before any read.
        let e = unsafe { in_buf(std::ptr::null(), 4, "tiled") }.unwrap_err();
        assert_eq!(e.status, NvsurfStatus::NVSURF_ERR_NULL);
        // SAFETY: the length is rejected before any read.
        let e = unsafe { in_buf(b.as_ptr(), usize::MAX, "tiled") }.unwrap_err();
        assert!(e.message.starts_with("tiled_len 18446744073709551615 is out of range"), "{}", e.message);
        let p = b.as_ptr();
        // SAFETY: pointer arithmetic inside `b`.
        let mid = unsafe { p.add(2) };
        assert!(check_disjoint((p, 2, "a"), (mid, 2, "b")).is_ok());
        assert_eq!(check_disjoint((p, 3, "a"), (mid, 2, "b")).unwrap_err().status, NvsurfStatus::NVSURF_ERR_OVERLAP);
        assert!(check_disjoint((p, 0, "a"), (p, 4, "b")).is_ok(), "empty ranges overlap nothing");
        assert!(check_flags(3, 1, "flags").is_err());
        assert!(c_bool(2, "use_block_log2").is_err());
    }
}
