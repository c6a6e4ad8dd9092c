//! `nvsurf.guess`: which layout a dump holds, ranked smoothest first (`nvsurf::identify`), as
//! the candidates of `nvsurf guess --json`.

use crate::args::{self, Elems};
use crate::bytes::InBytes;
use crate::error::{bad, OrPy};
use nvsurf::extent::{Extent, Texels};
use nvsurf::identify;
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
/// data holds fewer than half the sample's rows), `flat`, `blank_fraction`, `same_as`,
/// `pitch_bytes` (None unless pitch): one record, `nvsurf::identify::CandidateRecord`. `top`
/// keeps the first N. Releases the GIL while scoring.
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
    let size_elements = Extent::<Texels>::new_2d(w, h).to_elements_by(elems.texels_per_elem()).to_array();
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
    let elem = elems.elem_size_bytes();
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
    let size_text = format!("{w}x{h}");
    let subject = identify::Subject { gpu: (!any).then_some(gpu), element: &what, size: &size_text };
    let list = PyList::empty(py);
    let shown = top.map_or(usize::MAX, |t| usize::try_from(t).unwrap_or(usize::MAX));
    for (i, r) in ranking.ranked.iter().take(shown).enumerate() {
        let record = identify::CandidateRecord::new(i + 1, r, offset, available, subject);
        list.append(record_dict(py, &record)?)?;
    }
    Ok(list)
}

/// A candidate record as a dict: the keys of `nvsurf guess --json`'s candidates, `block_log2` a
/// tuple.
fn record_dict<'py>(py: Python<'py>, record: &identify::CandidateRecord) -> PyResult<Bound<'py, PyDict>> {
    fields_dict(py, record.fields())
}

/// A library record's `fields()` as a dict: the keys of the CLI's JSON, triples as tuples.
pub(crate) fn fields_dict<'py, 'a>(
    py: Python<'py>,
    fields: impl IntoIterator<Item = (&'static str, nvsurf::FieldValue<'a>)>,
) -> PyResult<Bound<'py, PyDict>> {
    use nvsurf::FieldValue as V;
    let d = PyDict::new(py);
    for (key, value) in fields {
        match value {
            V::Uint(n) => d.set_item(key, n)?,
            V::Float(x) => d.set_item(key, x)?,
            V::Bool(b) => d.set_item(key, b)?,
            V::Text(s) => d.set_item(key, s)?,
            V::Triple([x, y, z]) => d.set_item(key, (x, y, z))?,
            V::Triple64([x, y, z]) => d.set_item(key, (x, y, z))?,
            V::Pair([x, y]) => d.set_item(key, (x, y))?,
            V::None => d.set_item(key, py.None())?,
        }
    }
    Ok(d)
}
