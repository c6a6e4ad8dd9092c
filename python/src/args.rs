//! Python arguments into the library's values, each refusal one line naming the argument, the
//! value and the rule (`size -1 is out of range 0..=4294967295`).

use crate::error::{bad, OrPy};
use nvsurf::format::Format;
use nvsurf::layout::{Binding, GobOrder, LayoutKind};
use nvsurf::texture::BlockPolicy;
use nvsurf::{Gpu, Platform};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString};

/// `repr(obj)`, or a placeholder when even that fails.
pub fn repr(obj: &Bound<'_, PyAny>) -> String {
    obj.repr().map_or_else(|_| "(unprintable)".to_string(), |r| r.to_string())
}

/// An integer argument in `0..=max`.
pub fn uint(field: &str, obj: &Bound<'_, PyAny>, max: u64) -> PyResult<u64> {
    if !obj.is_instance_of::<PyInt>() {
        return Err(bad(field, repr(obj), "is not an integer"));
    }
    match obj.extract::<u64>() {
        Ok(v) if v <= max => Ok(v),
        // Negative, or past u64: the text of the number itself.
        _ => Err(bad(field, repr(obj), &format!("is out of range 0..={max}"))),
    }
}

/// A `u32` argument.
pub fn u32_arg(field: &str, obj: &Bound<'_, PyAny>) -> PyResult<u32> {
    // At most u32::MAX by the check.
    uint(field, obj, u32::MAX.into()).map(|v| v as u32)
}

/// A tuple or list of `min..=max` non-negative 32-bit integers; missing ones are `fill`.
pub fn dims<const N: usize>(field: &str, obj: &Bound<'_, PyAny>, min: usize, fill: u32) -> PyResult<[u32; N]> {
    let items: Vec<Bound<'_, PyAny>> = if obj.is_instance_of::<PyString>() {
        Vec::new()
    } else {
        match obj.try_iter() {
            Ok(it) => it.collect::<PyResult<_>>()?,
            Err(_) => Vec::new(),
        }
    };
    if items.len() < min || items.len() > N {
        let want = if min == N { format!("{N}") } else { format!("{min} to {N}") };
        return Err(bad(field, repr(obj), &format!("is not a tuple of {want} integers")));
    }
    let mut out = [fill; N];
    for (o, item) in out.iter_mut().zip(&items) {
        *o = u32_arg(field, item)?;
    }
    Ok(out)
}

/// A GPU or preset name (`gh100`, `switch`, ...).
pub fn platform(name: &str) -> PyResult<Platform> {
    Platform::parse(name).py()
}

/// A format name in the tables of `gpu` (as the CLI's `--format`: `A8R8G8B8` on `nv2a` is the
/// NV10-NV40 texture format), or of G80 and later without one.
pub fn format_for(gpu: Option<Gpu>, name: &str) -> PyResult<Format> {
    match gpu {
        Some(g) => Format::parse_for(name, g).py(),
        None => Format::parse(name).py(),
    }
}

/// What the elements are: a format, or only a size in bytes (exactly one of the two).
#[derive(Clone, Copy)]
pub enum Elems {
    /// A format (its element size and texels per element follow).
    Format(Format),
    /// An element size in bytes.
    Size(u32),
}

impl Elems {
    /// From the `format=` and `elem_size=` arguments; a format name is looked up in the tables
    /// of `gpu` when there is one ([`format_for`]).
    pub fn parse(gpu: Option<Gpu>, format: Option<&str>, elem_size: Option<&Bound<'_, PyAny>>) -> PyResult<Elems> {
        match (format, elem_size) {
            (Some(_), Some(e)) => {
                Err(bad("elem_size", repr(e), "is not supported: give format= or elem_size=, not both"))
            }
            (Some(f), None) => Ok(Elems::Format(format_for(gpu, f)?)),
            (None, Some(e)) => Ok(Elems::Size(u32_arg("elem_size", e)?)),
            (None, None) => Err(bad("elem_size", "(none)", "is not supported: give format=NAME or elem_size=BYTES")),
        }
    }

    /// The format, if one was given.
    pub fn format(self) -> Option<Format> {
        match self {
            Elems::Format(f) => Some(f),
            Elems::Size(_) => None,
        }
    }

    /// Bytes per element.
    pub fn elem_size_bytes(self) -> u32 {
        match self {
            Elems::Format(f) => f.elem_size_bytes(),
            Elems::Size(s) => s,
        }
    }

    /// Pixels per element in x and y.
    pub fn texels_per_elem(self) -> [u32; 2] {
        match self {
            Elems::Format(f) => {
                let (w, h) = f.block_dims();
                [w, h]
            }
            Elems::Size(_) => [1, 1],
        }
    }
}

/// `block_policy=`: a policy name (`max`, `nvn`, `nvidia`) or an explicit block `(x, y, z)`
/// in log2 gobs.
pub fn block_policy(obj: &Bound<'_, PyAny>) -> PyResult<BlockPolicy> {
    if let Ok(s) = obj.cast::<PyString>() {
        return BlockPolicy::parse(&s.to_cow()?).py();
    }
    Ok(BlockPolicy::Explicit(dims::<3>("block_policy", obj, 3, 0)?))
}

/// A keyword and its alias (`gob` / `gob_order`, `type` / `texture_type`): the one given; both
/// given must agree (docs/names.md).
pub fn either<'a>(
    name: &str,
    value: Option<&'a str>,
    alias: &str,
    alias_value: Option<&'a str>,
) -> PyResult<Option<&'a str>> {
    match (value, alias_value) {
        (Some(a), Some(b)) if a != b => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "{alias} '{b}' disagrees with {name} '{a}': {alias} is another name for {name}; give one"
        ))),
        (a, b) => Ok(a.or(b)),
    }
}

/// `gob=`: an in-gob byte order name.
pub fn gob(name: &str) -> PyResult<GobOrder> {
    GobOrder::parse(name).py()
}

/// `layout=`: `pitch`/`linear`, `blocklinear`/`tiled`, `swizzled`.
pub fn layout(name: &str) -> PyResult<LayoutKind> {
    LayoutKind::parse(name).py()
}

/// `binding=`: a binding point name.
pub fn binding(name: &str) -> PyResult<Binding> {
    Binding::parse(name).py()
}
