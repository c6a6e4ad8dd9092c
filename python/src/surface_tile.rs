//! `nvsurf.tile_surface`: the inverse of `nvsurf.untile_surface`, a packed linear image tiled
//! into a new dump of the plain surface `nvsurf.layout` describes (what `nvsurf tile` writes).

use crate::bytes::{AlignedOut, InBytes, Threads};
use crate::error::OrPy;
use crate::surface::build;
use numpy::PyArray1;
use pyo3::prelude::*;

/// tile_surface(gpu, linear, *, format=None, elem_size=None, size, layout=None, pitch=None,
/// block_log2=None, block_policy=None, auto_size=None, binding=None, gob=None, gob_order=None, threads=None)
/// -> numpy.ndarray
///
/// `linear`, a packed linear image of the plain surface `layout()` describes with the same
/// arguments (rows of whole elements, no padding, slice after slice: what `untile_surface`
/// returns; bytes, bytearray, memoryview or numpy, at least that long), tiled into a new uint8
/// array of the surface's `size_bytes`, padding zero: the bytes `nvsurf tile` writes with the
/// same flags. `threads`: 1 (default), 0 for every core, or N. Releases the GIL.
#[pyfunction]
#[pyo3(signature = (gpu, linear, *, format=None, elem_size=None, size, layout=None, pitch=None, block_log2=None, block_policy=None, auto_size=None, binding=None, gob=None, gob_order=None, threads=None, modifier=None))]
#[allow(clippy::too_many_arguments)]
pub fn tile_surface<'py>(
    py: Python<'py>,
    gpu: &str,
    linear: &Bound<'py, PyAny>,
    format: Option<&str>,
    elem_size: Option<&Bound<'py, PyAny>>,
    size: &Bound<'py, PyAny>,
    layout: Option<&str>,
    pitch: Option<&Bound<'py, PyAny>>,
    block_log2: Option<&Bound<'py, PyAny>>,
    block_policy: Option<&Bound<'py, PyAny>>,
    auto_size: Option<bool>,
    binding: Option<&str>,
    gob: Option<&str>,
    gob_order: Option<&str>,
    threads: Option<&Bound<'py, PyAny>>,
    modifier: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray1<u8>>> {
    let gob = crate::args::either("gob", gob, "gob_order", gob_order)?;
    use nvsurf::tile::{LinearLayout, Region};
    let threads = Threads::parse(threads)?;
    let b = build(
        gpu,
        format,
        elem_size,
        size,
        layout,
        pitch,
        block_log2,
        block_policy,
        auto_size,
        binding,
        gob,
        None,
        modifier,
        1,
        false,
    )?;
    let s = b.surface;
    let region = Region::whole(&s);
    let lin = LinearLayout::packed(&region, s.elem_size_bytes());
    let need = lin.image_bytes(&region).ok_or_else(|| crate::error::bad("linear image", "size", "overflows u64"))?;
    let input = InBytes::get("linear", linear)?;
    let linear = input.as_slice();
    // The input is checked before the output is allocated.
    if (linear.len() as u64) < need {
        return Err(crate::error::err(nvsurf::Error::BufferTooSmall {
            what: "linear image",
            needed: need,
            got: linear.len() as u64,
        }));
    }
    let n = crate::texture::byte_len("surface size", s.size_bytes())?;
    let out = py
        .detach(|| {
            let mut out = AlignedOut::zeroed(n)?;
            threads.run(|opts| nvsurf::tile::tile_with(&s, linear, out.as_mut_slice(), region, lin, opts))?;
            Ok(out)
        })
        .py()?;
    out.into_numpy(py)
}
