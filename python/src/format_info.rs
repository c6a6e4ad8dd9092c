//! `nvsurf.format_info`: what a format is (the fields of the C library's `NvsurfFormatInfo`),
//! looked up as `Texture` and `decode` look names up.

use crate::args;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// format_info(format, *, gpu=None) -> dict
///
/// What `format` is: `name` (its full name, one that names this very format again: `bc1_srgb`
/// is `DXT1_srgb`, `A8R8G8B8` on `nv2a` is `nv2a:A8R8G8B8`), `elem_size_bytes`, `block_width`
/// and `block_height` (texels per element), `is_compressed`, `is_depth`, `is_srgb`. `gpu`:
/// look the name up in that GPU's tables (as `Texture` does); without one, G80 and later.
#[pyfunction]
#[pyo3(signature = (format, *, gpu=None))]
pub fn format_info<'py>(py: Python<'py>, format: &str, gpu: Option<&str>) -> PyResult<Bound<'py, PyDict>> {
    let gpu = gpu.map(args::platform).transpose()?.map(|p| p.gpu());
    let f = args::format_for(gpu, format)?;
    let (bw, bh) = f.block_dims();
    let d = PyDict::new(py);
    d.set_item("name", f.full_name())?;
    d.set_item("elem_size_bytes", f.elem_size_bytes())?;
    d.set_item("block_width", bw)?;
    d.set_item("block_height", bh)?;
    d.set_item("is_compressed", f.is_compressed())?;
    d.set_item("is_depth", f.is_zeta())?;
    d.set_item("is_srgb", f.is_srgb())?;
    Ok(d)
}
