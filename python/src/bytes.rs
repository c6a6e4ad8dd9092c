//! Bytes in and out: any object with the buffer protocol (bytes, bytearray, memoryview, numpy
//! arrays) read in place when it is contiguous, and zero-filled numpy arrays out whose first
//! byte is on a 64-byte line (what the widest copy kernels and streaming stores want; see
//! `nvsurf::tile::AlignedBuf`).

use crate::error::bad;
use numpy::{PyArray1, PyUntypedArray};
use pyo3::buffer::PyUntypedBuffer;
use pyo3::prelude::*;
use pyo3::types::PySlice;

/// A held buffer export of a Python object: its bytes stay valid (and a bytearray cannot be
/// resized) until this is dropped.
pub struct InBytes {
    buf: PyUntypedBuffer,
}

/// Buffer item formats that are plain bytes: unsigned, signed and char, with an optional
/// byte-order prefix.
fn is_byte_format(format: &[u8]) -> bool {
    let f = match format.first() {
        Some(b'@' | b'=' | b'<' | b'>' | b'!') => &format[1..],
        _ => format,
    };
    matches!(f, b"B" | b"b" | b"c")
}

impl InBytes {
    /// The bytes of `obj` (named `field` in errors): in place when C-contiguous, else one copy
    /// in C order. Items must be one byte (uint8/int8 arrays, bytes, ...).
    pub fn get(field: &str, obj: &Bound<'_, PyAny>) -> PyResult<InBytes> {
        let kind = || obj.get_type().name().map_or_else(|_| "?".to_string(), |n| n.to_string());
        let buf = PyUntypedBuffer::get(obj).map_err(|_| {
            bad(
                field,
                format!("of type {}", kind()),
                "is not a buffer: give bytes, bytearray, memoryview or a uint8 numpy array",
            )
        })?;
        if buf.item_size() != 1 || !is_byte_format(buf.format().to_bytes()) {
            let what = match obj.getattr("dtype") {
                Ok(d) => format!("of dtype {}", d.str().map_or_else(|_| "?".into(), |s| s.to_string())),
                Err(_) => format!("of item format '{}'", buf.format().to_string_lossy()),
            };
            return Err(bad(field, what, "is not bytes: give uint8 data (numpy: arr.view(numpy.uint8))"));
        }
        if buf.is_c_contiguous() {
            return Ok(InBytes { buf });
        }
        drop(buf);
        // Strided views (a numpy slice with a step, a transposed array): one copy in C order.
        let copy = obj.py().import("builtins")?.getattr("memoryview")?.call1((obj,))?.call_method0("tobytes")?;
        let buf = PyUntypedBuffer::get(&copy)?;
        Ok(InBytes { buf })
    }

    /// The bytes.
    pub fn as_slice(&self) -> &[u8] {
        let len = self.buf.len_bytes();
        if len == 0 {
            return &[];
        }
        // SAFETY: the buffer is C-contiguous (checked in `get`, or a fresh `bytes`), one byte
        // per item, `len` bytes from `buf_ptr`, and stays exported (so allocated and not
        // resizable) while `self` lives, which outlives the slice. Bytes may change under us
        // only if another thread writes the object while the GIL is released; they are read as
        // plain bytes, so that gives torn data, never a read outside the buffer.
        unsafe { std::slice::from_raw_parts(self.buf.buf_ptr() as *const u8, len) }
    }
}

/// The alignment of an output's first byte: one cache line.
const LINE_BYTES: usize = 64;

/// A zero-filled output buffer whose first byte is on a 64-byte line, allocated the way the
/// library's front door allocates (`nvsurf::tile::AlignedBuf::zeroed`: 63 bytes of slack in a
/// `Vec<u8>`), and handed to numpy without a copy ([`AlignedOut::into_numpy`]).
pub struct AlignedOut {
    storage: Vec<u8>,
    start: usize,
    len: usize,
}

impl AlignedOut {
    /// `len` zero bytes; an error (not an abort) when the allocation fails.
    pub fn zeroed(len: usize) -> Result<AlignedOut, nvsurf::Error> {
        let failed = || nvsurf::Error::Unsupported {
            field: "output buffer",
            value: format!("{len} bytes"),
            rule: "the allocation failed".into(),
        };
        let total = len.checked_add(LINE_BYTES - 1).ok_or_else(failed)?;
        let mut storage = Vec::new();
        storage.try_reserve_exact(total).map_err(|_| failed())?;
        storage.resize(total, 0);
        let start = (LINE_BYTES - storage.as_ptr() as usize % LINE_BYTES) % LINE_BYTES;
        Ok(AlignedOut { storage, start, len })
    }

    /// The buffer, writable.
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        &mut self.storage[self.start..self.start + self.len]
    }

    /// A one-dimensional uint8 numpy array of the buffer: a view (`arr[start:start + len]`)
    /// of an array that owns the `Vec` (no copy; its `base` keeps the memory alive).
    pub fn into_numpy(self, py: Python<'_>) -> PyResult<Bound<'_, PyArray1<u8>>> {
        let (start, end) = (self.start as isize, (self.start + self.len) as isize);
        let whole = PyArray1::from_vec(py, self.storage);
        let view = whole.get_item(PySlice::new(py, start, end, 1))?;
        view.cast_into::<PyArray1<u8>>().map_err(PyErr::from)
    }
}

/// `numpy.zeros(shape, dtype)`.
pub fn zeros<'py>(py: Python<'py>, shape: impl IntoPyObject<'py>, dtype: &str) -> PyResult<Bound<'py, PyUntypedArray>> {
    let np = py.import("numpy")?;
    let a = np.getattr("zeros")?.call1((shape, dtype))?;
    a.cast_into::<PyUntypedArray>().map_err(PyErr::from)
}

/// The `threads=` argument: 1 (default) is the calling thread, 0 every core (rayon's global
/// pool), N a pool of N threads made for the call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Threads(pub usize);

impl Threads {
    /// From a Python int: 0 to [`nvsurf::tile::max_threads`] (4x the machine's cores, the
    /// CLI's `--threads` limit too).
    pub fn parse(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Threads> {
        let Some(o) = obj else { return Ok(Threads(1)) };
        let max = nvsurf::tile::max_threads();
        if !o.is_instance_of::<pyo3::types::PyInt>() {
            return Err(bad("threads", crate::args::repr(o), "is not an integer"));
        }
        match o.extract::<u64>() {
            Ok(n) if n <= max as u64 => Ok(Threads(n as usize)),
            // Past the limit, negative, or past u64: the text of the number itself.
            _ => Err(bad(
                "threads",
                crate::args::repr(o),
                &format!("is out of range 0..={max} (0 is every core; at most 4x the machine's cores)"),
            )),
        }
    }

    /// Runs `f` with the copy options for these threads, inside the pool they name.
    pub fn run<T: Send>(
        self,
        f: impl FnOnce(&nvsurf::tile::CopyOptions) -> Result<T, nvsurf::Error> + Send,
    ) -> Result<T, nvsurf::Error> {
        use nvsurf::tile::{CopyOptions, Threads as T2};
        match self.0 {
            1 => f(&CopyOptions::default()),
            0 => f(&CopyOptions::default().threads(T2::CurrentPool)),
            n => {
                let pool =
                    rayon::ThreadPoolBuilder::new().num_threads(n).build().map_err(|e| nvsurf::Error::Unsupported {
                        field: "threads",
                        value: n.to_string(),
                        rule: format!("the thread pool could not start: {e}"),
                    })?;
                pool.install(|| f(&CopyOptions::default().threads(T2::CurrentPool)))
            }
        }
    }
}
