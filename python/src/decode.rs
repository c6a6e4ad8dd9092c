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
/// Decodes `data`, a packed linear image of `format` (`size` = `(w, h)` or `(w, h, d)` pixels;
/// rows of whole elements, no padding: one level as `Texture.level_bytes` gives it), to an
/// array of shape `(h, w, 4)` (`(h * d, w, 4)` for a 3D level, decoded slice by slice, the
/// slices stacked top to bottom), RGBA: uint8 for formats whose components are all unorm (or sRGB) of at most 8
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
    let [w, h, d] = args::dims::<3>("size", size, 2, 1)?;
    nvsurf::check_picture_size([w, h]).map_err(err)?;
    if d == 0 {
        return Err(err(nvsurf::Error::OutOfRange { field: "depth", value: 0, min: 1, max: u32::MAX.into() }));
    }
    let input = InBytes::get("data", data)?;
    let elems = input.as_slice();
    let el = Extent::<Texels>::new_2d(w, h).to_elements(&f);
    let row = u64::from(el.width) * u64::from(f.elem_size_bytes());
    let need = row.checked_mul(u64::from(el.height)).and_then(|s| s.checked_mul(u64::from(d))).ok_or_else(|| {
        err(nvsurf::Error::Overflow {
            what: "encoded image size",
            detail: format!("{w}x{h}x{d} pixels of {}", f.name()),
        })
    })?;
    if (elems.len() as u64) < need {
        return Err(err(nvsurf::Error::BufferTooSmall {
            what: "encoded image",
            needed: need,
            got: elems.len() as u64,
        }));
    }
    // At most the input's length, a usize.
    let (row, slice) = (row as usize, (need / u64::from(d)) as usize);
    let shape = ((h as usize) * (d as usize), w as usize, 4usize);
    let px_per_slice = w as usize * h as usize;
    // A 3D image decodes slice by slice (issue #41 item 7): one image of w x (h x d) would
    // misplace the blocks of a compressed format whose height is not a multiple of 4.
    let slices = || (0..d as usize).map(move |z| (z * slice, z * px_per_slice..(z + 1) * px_per_slice));
    if fits_rgba8(&f) {
        let out = zeros(py, shape, "uint8")?;
        let arr = out.cast::<PyArray3<u8>>().map_err(PyErr::from)?;
        let mut rw = arr.readwrite();
        let px = rw.as_slice_mut().map_err(|e| bad("output", e, "is not writable"))?.as_chunks_mut::<4>().0;
        py.detach(|| slices().try_for_each(|(at, r)| f.decode_rect_rgba8(&elems[at..], row, w, h, &mut px[r]))).py()?;
        drop(rw);
        Ok(out)
    } else {
        let out = zeros(py, shape, "float32")?;
        let arr = out.cast::<PyArray3<f32>>().map_err(PyErr::from)?;
        let mut rw = arr.readwrite();
        let px = rw.as_slice_mut().map_err(|e| bad("output", e, "is not writable"))?.as_chunks_mut::<4>().0;
        py.detach(|| slices().try_for_each(|(at, r)| f.decode_rect_f32(&elems[at..], row, w, h, &mut px[r]))).py()?;
        drop(rw);
        Ok(out)
    }
}
