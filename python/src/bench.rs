//! The Rust side of `python/bench_untile.py`: one untile through the library's front door
//! (`Texture::untile_to_buf`, which allocates its line-aligned output), timed in Rust.

use crate::bytes::{InBytes, Threads};
use crate::error::OrPy;
use crate::texture::Texture;
use pyo3::prelude::*;

/// _rust_untile_ns(texture, dump, *, threads=1) -> int
///
/// Nanoseconds one `Texture::untile_to_buf` takes in Rust (GIL released; the output is
/// allocated inside the timed call and freed after it): the baseline `tex.untile` is held to.
#[pyfunction]
#[pyo3(name = "_rust_untile_ns", signature = (texture, dump, *, threads=None))]
pub fn rust_untile_ns(
    py: Python<'_>,
    texture: &Texture,
    dump: &Bound<'_, PyAny>,
    threads: Option<&Bound<'_, PyAny>>,
) -> PyResult<u64> {
    let threads = Threads::parse(threads)?;
    let input = InBytes::get("dump", dump)?;
    let dump = input.as_slice();
    let tex = texture.inner();
    py.detach(|| {
        threads.run(|opts| {
            let t0 = std::time::Instant::now();
            let out = tex.untile_to_buf(dump, opts)?;
            let ns = t0.elapsed().as_nanos() as u64;
            drop(out);
            Ok(ns)
        })
    })
    .py()
}
