//! `nvsurf.decode`: a packed linear image of a format to RGBA pixels in a numpy array,
//! uint8 for 8-bit unorm/sRGB formats and float32 for the rest.

use crate::args;
use crate::bytes::{zeros, InBytes};
use crate::error::{bad, err, OrPy};
use numpy::{PyArray3, PyArrayMethods, PyUntypedArray};
use nvsurf::extent::{Extent, Texels};
use nvsurf::format::{Bc, ComponentType, Format, Layout};
use pyo3::prelude::*;

/// Whether RGBA8 holds every value `f` decodes to: each component the format has is unorm
/// (sRGB included) and at most 8 bits wide (simple layouts, BC1/BC2/BC3/BC7, unsigned BC4/BC5,
/// ETC2 RGB/RGBA/RGB8A1, ASTC, the 1-bit bitmap). Everything else (wider or signed or float
/// fields, depth, BC6H, EAC R11/RG11, YUV,
/// shared exponent) decodes to float32.
pub fn fits_rgba8(f: &Format) -> bool {
    let n = f.layout().component_count().min(4);
    let unorm = f.components()[..n].iter().all(|c| *c == ComponentType::Unorm);
    unorm
        && match f.layout() {
            Layout::Simple(bits) => bits.iter().all(|&b| b <= 8),
            Layout::Compressed(bc) => !matches!(bc, Bc::Bc6hSigned | Bc::Bc6hUnsigned | Bc::EacR11 | Bc::EacRg11),
            Layout::Bitmap => true,
            Layout::SharedExp | Layout::Zeta(_) | Layout::Yuv { .. } => false,
        }
}

/// decode(format, data, size) -> numpy.ndarray
///
/// Decodes `data`, a packed linear image of `format` (`size` = `(w, h)` pixels; rows of whole
/// elements, no padding: one level as `Texture.level_bytes` gives it), to an array of shape
/// `(h, w, 4)`, RGBA: uint8 for formats whose components are all unorm (or sRGB) of at most 8
/// bits (`A8B8G8R8`, `RGBA8_UNORM`, `bc1`-`bc3`, `bc7`, `B5G6R5`, ...), float32 for every other
/// format. sRGB formats: the uint8 values are the stored sRGB-encoded ones (as a PNG, Pillow
/// and image_dds give them), float32 values are linear light. `gpu`: look `format` up in that
/// GPU's tables, as `Texture` does (`A8R8G8B8` on `nv2a` is the NV10-NV40 texture format, on
/// G80 and later, or without a GPU, the colour format `BGRA8_UNORM`). Releases the GIL.
#[pyfunction]
#[pyo3(signature = (format, data, size, *, gpu=None))]
pub fn decode<'py>(
    py: Python<'py>,
    format: &str,
    data: &Bound<'py, PyAny>,
    size: &Bound<'py, PyAny>,
    gpu: Option<&str>,
) -> PyResult<Bound<'py, PyUntypedArray>> {
    let gpu = gpu.map(args::platform).transpose()?.map(|p| p.gpu());
    let f = args::format_for(gpu, format)?;
    let [w, h] = args::dims::<2>("size", size, 2, 1)?;
    nvsurf::check_picture_size([w, h]).map_err(err)?;
    let input = InBytes::get("data", data)?;
    let elems = input.as_slice();
    let el = Extent::<Texels>::new_2d(w, h).to_elements(&f);
    let row = u64::from(el.width) * u64::from(f.elem_size_bytes());
    let need = row.checked_mul(u64::from(el.height)).ok_or_else(|| {
        err(nvsurf::Error::Overflow { what: "encoded image size", detail: format!("{w}x{h} pixels of {}", f.name()) })
    })?;
    if (elems.len() as u64) < need {
        return Err(err(nvsurf::Error::BufferTooSmall {
            what: "encoded image",
            needed: need,
            got: elems.len() as u64,
        }));
    }
    // At most the input's length, a usize.
    let row = row as usize;
    let shape = (h as usize, w as usize, 4usize);
    if fits_rgba8(&f) {
        let out = zeros(py, shape, "uint8")?;
        let arr = out.cast::<PyArray3<u8>>().map_err(PyErr::from)?;
        let mut rw = arr.readwrite();
        let px = rw.as_slice_mut().map_err(|e| bad("output", e, "is not writable"))?.as_chunks_mut::<4>().0;
        py.detach(|| f.decode_rect_rgba8(elems, row, w, h, px)).py()?;
        drop(rw);
        Ok(out)
    } else {
        let out = zeros(py, shape, "float32")?;
        let arr = out.cast::<PyArray3<f32>>().map_err(PyErr::from)?;
        let mut rw = arr.readwrite();
        let px = rw.as_slice_mut().map_err(|e| bad("output", e, "is not writable"))?.as_chunks_mut::<4>().0;
        py.detach(|| f.decode_rect_f32(elems, row, w, h, px)).py()?;
        drop(rw);
        Ok(out)
    }
}
