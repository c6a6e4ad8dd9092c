//! `nvsurf` for Python: the library's front door (textures by GPU, format and size; untile and
//! tile to and from numpy arrays; pixel decoding; layout guessing; layout and address queries)
//! as the native module `nvsurf._nvsurf`, re-exported by the `nvsurf` package
//! (`python/nvsurf/__init__.py`; types in `__init__.pyi`).
//!
//! Long calls release the GIL; contiguous input buffers are read in place (`bytes`).

mod args;
mod bench;
mod bytes;
mod decode;
mod error;
mod format_info;
mod guess;
mod surface;
mod surface_tile;
mod texture;

use pyo3::prelude::*;

/// The native module.
#[pymodule]
fn _nvsurf(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("NvsurfError", m.py().get_type::<error::NvsurfError>())?;
    m.add_class::<texture::Texture>()?;
    m.add_function(wrap_pyfunction!(decode::decode, m)?)?;
    m.add_function(wrap_pyfunction!(format_info::format_info, m)?)?;
    m.add_function(wrap_pyfunction!(guess::guess, m)?)?;
    m.add_function(wrap_pyfunction!(surface::layout, m)?)?;
    m.add_function(wrap_pyfunction!(surface::address, m)?)?;
    m.add_function(wrap_pyfunction!(surface::untile_surface, m)?)?;
    m.add_function(wrap_pyfunction!(surface_tile::tile_surface, m)?)?;
    m.add_function(wrap_pyfunction!(bench::rust_untile_ns, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
