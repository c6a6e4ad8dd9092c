//! `nvsurf.layout` and `nvsurf.address`: a plain surface described as the CLI's surface flags
//! describe it (`nvsurf layout --json`, `nvsurf addr`), with the GPU's defaults applied.

use crate::args::{self, Elems};
use crate::error::{bad, OrPy};
use nvsurf::layout::{Surface, SurfaceDesc};
use nvsurf::spec::Overrides;
use nvsurf::texture::BlockPolicy;
use nvsurf::{Assumed, SurfaceSpec};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// A surface and what the library assumed for it (the layout, and the gob order and block
/// policy, each given or the platform's default, None where the layout has no gobs).
pub(crate) struct Built {
    pub(crate) surface: Surface,
    assumed: Assumed,
}

/// The surface keyword arguments shared by `layout` and `address`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn build(
    gpu: &str,
    format: Option<&str>,
    elem_size: Option<&Bound<'_, PyAny>>,
    size: &Bound<'_, PyAny>,
    layout: Option<&str>,
    pitch: Option<&Bound<'_, PyAny>>,
    block_log2: Option<&Bound<'_, PyAny>>,
    block_policy: Option<&Bound<'_, PyAny>>,
    auto_size: Option<bool>,
    binding: Option<&str>,
    gob: Option<&str>,
    address: Option<&Bound<'_, PyAny>>,
    modifier: Option<&Bound<'_, PyAny>>,
    samples: u32,
    answer_any_format: bool,
) -> PyResult<Built> {
    build_with(
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
        address,
        modifier,
        samples,
        answer_any_format,
        false,
    )
}

/// [`build`]; with `geometry_only`, a format whose CPU byte order is unknown gets its geometry
/// (`SurfaceSpec::resolve_geometry`: `layout()` only, which moves no bytes).
#[allow(clippy::too_many_arguments)]
fn build_with(
    gpu: &str,
    format: Option<&str>,
    elem_size: Option<&Bound<'_, PyAny>>,
    size: &Bound<'_, PyAny>,
    layout: Option<&str>,
    pitch: Option<&Bound<'_, PyAny>>,
    block_log2: Option<&Bound<'_, PyAny>>,
    block_policy: Option<&Bound<'_, PyAny>>,
    auto_size: Option<bool>,
    binding: Option<&str>,
    gob: Option<&str>,
    address: Option<&Bound<'_, PyAny>>,
    modifier: Option<&Bound<'_, PyAny>>,
    samples: u32,
    answer_any_format: bool,
    geometry_only: bool,
) -> PyResult<Built> {
    let platform = args::platform(gpu)?;
    let elems = Elems::parse(Some(platform.gpu()), format, elem_size)?;
    let size = args::dims::<3>("size", size, 1, 1)?;
    let mut spec = match elems {
        Elems::Format(f) => SurfaceSpec::new(platform, &f, size),
        Elems::Size(e) => SurfaceSpec::with_elem_size(platform, e, size),
    };
    if let Some(p) = pitch {
        spec = spec.pitch_bytes(args::uint("pitch", p, u64::MAX)?);
    }
    // Only the byte-moving calls (`tile_surface`, `untile_surface`) refuse a format the GPU
    // cannot sample; `layout` and `address` answer, as the CLI's `layout` and `addr` do.
    spec = spec.samples(samples).any_format(answer_any_format);
    let block_policy = match (block_log2, block_policy) {
        (Some(b), Some(_)) => {
            return Err(bad(
                "block_policy",
                args::repr(b),
                "is not supported: give block_log2= or block_policy=, not both",
            ))
        }
        (Some(b), None) => Some(BlockPolicy::Explicit(args::dims::<3>("block_log2", b, 3, 0)?)),
        (None, Some(p)) => Some(args::block_policy(p)?),
        (None, None) => None,
    };
    let layout = layout.map(args::layout).transpose()?;
    let gob_order = gob.map(args::gob).transpose()?;
    let modifier = modifier.map(|m| args::uint("modifier", m, u64::MAX)).transpose()?;
    let spec = spec.overrides(Overrides { layout, gob_order, block_policy, modifier });
    let (mut desc, assumed): (SurfaceDesc, Assumed) =
        if geometry_only { spec.resolve_geometry() } else { spec.resolve() }.py()?;
    desc.auto_size = auto_size;
    desc.binding = binding.map(args::binding).transpose()?;
    if let Some(a) = address {
        desc.address = args::uint("address", a, u64::MAX)?;
    }
    let surface = desc.build().py()?;
    Ok(Built { surface, assumed })
}

/// layout(gpu, *, format=None, elem_size=None, size, layout=None, pitch=None, block_log2=None,
/// block_policy=None, auto_size=None, binding=None, gob=None, gob_order=None, address=0,
/// samples=1, modifier=None) -> dict
///
/// The layout of a plain surface, the keys of `nvsurf layout --json`: `layout`, `gpu`,
/// `address`, `elem_size`/`elem_size_bytes`, `size`/`size_elements`, `size_bytes`,
/// `gob_bytes`, `block_bytes`, `block_log2_effective`, `blocks` (None unless blocklinear),
/// blocklinear's `block_log2_requested`, `block_gobs`, `gob_order`, ..., `pitch_bytes` (pitch),
/// `index_bit_masks` (swizzled), and what was assumed: `gob_order_source`, `gob_order_known`,
/// `block_policy`, `block_policy_source`. Where no CPU byte order is known for the format (24-bit
/// depth on Blackwell, depth/stencil on desktop Fermi to Hopper) the geometry still comes, with
/// `gob_order` None, `gob_order_source` `"unknown"` and `gob_order_known` False. `size` is in pixels with `format`, in elements with `elem_size`;
/// without `block_log2` the block is what the GPU's block policy picks for a one-level
/// texture of that size.
#[pyfunction]
#[pyo3(signature = (gpu, *, format=None, elem_size=None, size, layout=None, pitch=None, block_log2=None, block_policy=None, auto_size=None, binding=None, gob=None, gob_order=None, address=None, samples=None, modifier=None))]
#[allow(clippy::too_many_arguments)]
pub fn layout<'py>(
    py: Python<'py>,
    gpu: &str,
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
    address: Option<&Bound<'py, PyAny>>,
    samples: Option<&Bound<'py, PyAny>>,
    modifier: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let gob = args::either("gob", gob, "gob_order", gob_order)?;
    let samples = samples.map(|n| args::u32_arg("samples", n)).transpose()?.unwrap_or(1);
    let mode = nvsurf::msaa::MsMode::for_sample_count(samples).py()?;
    let b = build_with(
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
        address,
        modifier,
        samples,
        true,
        true,
    )?;
    let record = nvsurf::SurfaceRecord::new(&b.surface);
    let d = crate::guess::fields_dict(py, record.fields().into_iter().chain(b.assumed.fields()))?;
    // The older names, kept (the CLI's JSON calls them deprecated).
    d.set_item("elem_size", d.get_item("elem_size_bytes")?)?;
    d.set_item("size", d.get_item("size_elements")?)?;
    // The sample grid the surface stores, as `nvsurf layout --samples N --json` gives it.
    d.set_item("samples", samples)?;
    d.set_item("ms_mode", mode.name())?;
    d.set_item("size_samples", b.surface.size().to_array().to_vec())?;
    Ok(d)
}

/// address(gpu, at, *, format=None, elem_size=None, size, layout=None, pitch=None,
/// block_log2=None, block_policy=None, auto_size=None, binding=None, gob=None, gob_order=None, address=0) -> int
///
/// The address (`address` + byte offset) of element `at` = `(x, y)` or `(x, y, z)` of the
/// surface `layout()` describes with the same arguments: what `nvsurf addr --at` prints.
#[pyfunction]
#[pyo3(signature = (gpu, at, *, format=None, elem_size=None, size, layout=None, pitch=None, block_log2=None, block_policy=None, auto_size=None, binding=None, gob=None, gob_order=None, address=None, modifier=None))]
#[allow(clippy::too_many_arguments)]
pub fn address(
    gpu: &str,
    at: &Bound<'_, PyAny>,
    format: Option<&str>,
    elem_size: Option<&Bound<'_, PyAny>>,
    size: &Bound<'_, PyAny>,
    layout: Option<&str>,
    pitch: Option<&Bound<'_, PyAny>>,
    block_log2: Option<&Bound<'_, PyAny>>,
    block_policy: Option<&Bound<'_, PyAny>>,
    auto_size: Option<bool>,
    binding: Option<&str>,
    gob: Option<&str>,
    gob_order: Option<&str>,
    address: Option<&Bound<'_, PyAny>>,
    modifier: Option<&Bound<'_, PyAny>>,
) -> PyResult<u64> {
    let gob = args::either("gob", gob, "gob_order", gob_order)?;
    let [x, y, z] = args::dims::<3>("at", at, 2, 0)?;
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
        address,
        modifier,
        1,
        true,
    )?;
    b.surface.address_of(x, y, z).py()
}

/// untile_surface(gpu, data, *, format=None, elem_size=None, size, layout=None, pitch=None,
/// block_log2=None, block_policy=None, auto_size=None, binding=None, gob=None, gob_order=None, offset=0,
/// threads=None) -> numpy.ndarray
///
/// A plain surface (the one `layout()` describes with the same arguments) starting at byte
/// `offset` of `data`, untiled into a new uint8 array: rows of whole elements, no padding,
/// slice after slice (what `nvsurf untile` writes). Takes a `guess` candidate's layout:
/// `layout`, `block_log2` with `auto_size=False`, `gob`, `pitch`. Releases the GIL.
#[pyfunction]
#[pyo3(signature = (gpu, data, *, format=None, elem_size=None, size, layout=None, pitch=None, block_log2=None, block_policy=None, auto_size=None, binding=None, gob=None, gob_order=None, offset=None, threads=None, modifier=None))]
#[allow(clippy::too_many_arguments)]
pub fn untile_surface<'py>(
    py: Python<'py>,
    gpu: &str,
    data: &Bound<'py, PyAny>,
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
    offset: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    modifier: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, numpy::PyArray1<u8>>> {
    let gob = args::either("gob", gob, "gob_order", gob_order)?;
    use nvsurf::tile::{LinearLayout, Region};
    let threads = crate::bytes::Threads::parse(threads)?;
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
    let input = crate::bytes::InBytes::get("data", data)?;
    let bytes = input.as_slice();
    let offset = match offset {
        Some(o) => args::uint("offset", o, u64::MAX)?,
        None => 0,
    };
    let from = usize::try_from(offset)
        .ok()
        .filter(|&o| o <= bytes.len())
        .ok_or_else(|| bad("offset", offset, &format!("is past the end of the data ({} bytes)", bytes.len())))?;
    let dump = &bytes[from..];
    let need = s.size_bytes();
    if (dump.len() as u64) < need {
        return Err(crate::error::err(nvsurf::Error::BufferTooSmall {
            what: "surface dump",
            needed: need,
            got: dump.len() as u64,
        }));
    }
    let region = Region::whole(&s);
    let lin = LinearLayout::packed(&region, s.elem_size_bytes());
    let n = lin.image_bytes(&region).ok_or_else(|| bad("linear image", "size", "overflows u64"))?;
    let n = crate::texture::byte_len("linear image size", n)?;
    let out = py
        .detach(|| {
            let mut out = crate::bytes::AlignedOut::zeroed(n)?;
            threads.run(|opts| nvsurf::tile::untile_with(&s, dump, out.as_mut_slice(), region, lin, opts))?;
            Ok(out)
        })
        .py()?;
    out.into_numpy(py)
}
