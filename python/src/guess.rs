//! `nvsurf.guess`: which layout a dump holds, ranked smoothest first (`nvsurf::identify`), as
//! the candidates of `nvsurf guess --json`.

use crate::args::{self, Elems};
use crate::bytes::InBytes;
use crate::error::{bad, OrPy};
use nvsurf::identify;
use nvsurf::layout::Surface;
use nvsurf::Gpu;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// guess(gpu, *, format=None, elem_size=None, size, data, offset=0, top=None) -> list[dict]
///
/// Ranks every layout `gpu` could have used for a 2D surface of `size` (`(w, h)`, pixels with
/// `format`, elements with `elem_size`) starting at byte `offset` of `data`, smoothest first.
/// `gpu` is a chip, a preset, or `"any"` (every family's layouts). Each candidate is a dict with
/// the keys of `nvsurf guess --json`: `rank`, `label`, `layout`, `gpu`, `gob_order` and
/// `block_policy` (None unless blocklinear), `block_log2`, `offset_bytes`, `flags` (the CLI's
/// `untile` flags), `size_bytes`, `fits` (the whole surface lies in the data), `rows_scored`
/// (fewer than the sample's when the data ends inside the surface), `roughness` (None when the
/// data holds fewer than half the sample's rows), `flat`, `blank_fraction`, `same_as`; and `pitch_bytes` (None unless pitch). `top` keeps the first N. Releases the GIL while scoring.
#[pyfunction]
#[pyo3(signature = (gpu, *, format=None, elem_size=None, size, data, offset=None, top=None))]
#[allow(clippy::too_many_arguments)]
pub fn guess<'py>(
    py: Python<'py>,
    gpu: &str,
    format: Option<&str>,
    elem_size: Option<&Bound<'py, PyAny>>,
    size: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    offset: Option<&Bound<'py, PyAny>>,
    top: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let any = gpu.trim().eq_ignore_ascii_case("any");
    let chip: Option<Gpu> = if any { None } else { Some(args::platform(gpu)?.gpu()) };
    let elems = Elems::parse(chip, format, elem_size)?;
    let [w, h] = args::dims::<2>("size", size, 2, 1)?;
    let [tw, th] = elems.texels_per_elem();
    let size_elements = [w.div_ceil(tw), h.div_ceil(th), 1];
    let offset = match offset {
        Some(o) => args::uint("offset", o, nvsurf::error::ADDRESS_SPACE_BYTES - 1)?,
        None => 0,
    };
    let top = top.map(|t| args::uint("top", t, u64::MAX)).transpose()?;
    let input = InBytes::get("data", data)?;
    let bytes = input.as_slice();
    let from = usize::try_from(offset)
        .ok()
        .filter(|&o| o <= bytes.len())
        .ok_or_else(|| bad("offset", offset, &format!("is past the end of the data ({} bytes)", bytes.len())))?;
    let dump = &bytes[from..];
    let available = dump.len() as u64;
    let elem = elems.elem_size();
    let f = elems.format();
    let ranking = py
        .detach(|| {
            let cands = match chip {
                Some(g) => identify::candidates(g, elem, size_elements, available)?,
                None => identify::candidates_any(elem, size_elements, available)?,
            };
            identify::rank(dump, available, cands, f.as_ref())
        })
        .py()?;
    let what = match format {
        Some(name) => format!("--format {name}"),
        None => format!("--elem-size {elem}"),
    };
    let off = if offset == 0 { String::new() } else { format!(" --offset {offset}") };
    let list = PyList::empty(py);
    let shown = top.map_or(usize::MAX, |t| usize::try_from(t).unwrap_or(usize::MAX));
    for (i, r) in ranking.ranked.iter().take(shown).enumerate() {
        let c = &r.candidate;
        let (order, block) = match c.surface {
            Surface::BlockLinear(b) => (Some(b.gob_order().name()), Some(b.block_log2_requested())),
            _ => (None, None),
        };
        let gpu_flag = if any { c.desc.gpu.name().to_string() } else { gpu.trim().to_ascii_lowercase() };
        let d = PyDict::new(py);
        d.set_item("rank", i + 1)?;
        d.set_item("label", &c.label)?;
        d.set_item("layout", c.surface.kind().name())?;
        d.set_item("gpu", c.desc.gpu.name())?;
        d.set_item("gob_order", order)?;
        d.set_item("block_policy", block.map(|_| "explicit"))?;
        d.set_item("block_log2", block.map(|[x, y, z]| (x, y, z)))?;
        d.set_item("offset_bytes", offset)?;
        d.set_item("flags", format!("--gpu {gpu_flag} {what} --size {w}x{h}{off} {}", c.untile_flags()))?;
        d.set_item("size_bytes", r.size_bytes)?;
        d.set_item("fits", r.size_bytes <= available)?;
        d.set_item("rows_scored", r.rows_scored)?;
        d.set_item("roughness", r.roughness)?;
        d.set_item("flat", r.flat)?;
        d.set_item("blank_fraction", r.blank_fraction)?;
        d.set_item("same_as", r.same_as.map(|j| j + 1))?;
        // Beyond the CLI's keys: the pitch of a pitch candidate, for `untile_surface`.
        d.set_item(
            "pitch_bytes",
            match c.surface {
                Surface::Pitch(p) => Some(p.pitch_bytes()),
                _ => None,
            },
        )?;
        list.append(d)?;
    }
    Ok(list)
}
