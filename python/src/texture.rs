//! `nvsurf.Texture`: a texture named by GPU (or preset), format or element size and size, with
//! the GPU's defaults applied (`nvsurf::TextureSpec`), and its untile / tile front door.

use crate::args::{self, Elems};
use crate::bytes::{AlignedOut, InBytes, Threads};
use crate::error::{bad, OrPy};
use numpy::PyArray1;
use nvsurf::spec::Overrides;
use nvsurf::texture::{Texture as Tex, TextureType};
use nvsurf::{TextureRecord, TextureSpec};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PySlice};

/// A texture's layout: every level of every layer, where it is in a dump and in the packed
/// linear texture (layer by layer, level by level: DDS order).
#[pyclass(frozen, module = "nvsurf", name = "Texture")]
pub struct Texture {
    tex: Tex,
    gpu: String,
    format: Option<nvsurf::format::Format>,
    /// The record of `nvsurf texture --json`, what was assumed included.
    record: TextureRecord,
}

#[pymethods]
impl Texture {
    /// Texture(gpu, *, format=None, elem_size=None, size, type="2d", levels=1, layers=None,
    /// layout=None, block_policy=None, gob=None, gob_order=None, texture_type=None, samples=1,
    /// sparse=False, any_format=False, modifier=None)
    ///
    /// `modifier`: a DRM format modifier (int) of a 2D texture; it sets the layout, block and
    /// gob order, checked as NVK checks it (see `nvsurf modifier`).
    ///
    /// `gob_order` and `texture_type` are other names of `gob` and `type` (the C library's
    /// field names, docs/names.md); both given must agree.
    ///
    /// `gpu`: a chip (`gh100`, `gm20b`, `g80`, `nv40`, ...) or a preset (`switch`). Give
    /// `format` (any name `nvsurf formats` lists; `size` is then in pixels) or `elem_size`
    /// (bytes; `size` in elements). `size`: `(w, h)` or `(w, h, d)`. `block_policy`: `"max"`,
    /// `"nvn"`, `"nvidia"` or an explicit block `(x, y, z)` in log2 gobs; `gob`: `"vm"`,
    /// `"tegra"`, `"turing"`, `"fermi"`, `"fermi-comment"`, `"blackwell16"`, `"blackwell8"`.
    /// Both default to the GPU's (`"nvk"`: Mesa NVK's sizes and alignment). `samples`: 1, 2,
    /// 4, 8 or 16 per pixel (the size stays in pixels); `sparse`: NVK's sparse layout.
    /// `summary()` gives `samples`, `size_samples`, `align_bytes`, `align_source`,
    /// `sparse_block_px` and the mip tail. A format the GPU cannot sample (ETC2/EAC, ASTC on
    /// desktop GPUs, per Mesa nil) is refused unless `any_format=True`.
    #[new]
    #[pyo3(signature = (gpu, *, format=None, elem_size=None, size, r#type=None, levels=None, layers=None, layout=None, block_policy=None, gob=None, gob_order=None, texture_type=None, samples=None, sparse=false, any_format=false, modifier=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        gpu: &str,
        format: Option<&str>,
        elem_size: Option<&Bound<'_, PyAny>>,
        size: &Bound<'_, PyAny>,
        r#type: Option<&str>,
        levels: Option<&Bound<'_, PyAny>>,
        layers: Option<&Bound<'_, PyAny>>,
        layout: Option<&str>,
        block_policy: Option<&Bound<'_, PyAny>>,
        gob: Option<&str>,
        gob_order: Option<&str>,
        texture_type: Option<&str>,
        samples: Option<&Bound<'_, PyAny>>,
        sparse: bool,
        any_format: bool,
        modifier: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Texture> {
        let gob = args::either("gob", gob, "gob_order", gob_order)?;
        let r#type = args::either("type", r#type, "texture_type", texture_type)?.unwrap_or("2d");
        let platform = args::platform(gpu)?;
        let elems = Elems::parse(Some(platform.gpu()), format, elem_size)?;
        let ty = TextureType::parse(r#type).py()?;
        let size = args::dims::<3>("size", size, 1, 1)?;
        let mut spec = match elems {
            Elems::Format(f) => TextureSpec::new(platform, ty, &f, size),
            Elems::Size(e) => TextureSpec::with_elem_size(platform, ty, e, size),
        };
        if let Some(l) = levels {
            spec = spec.levels(args::u32_arg("levels", l)?);
        }
        if let Some(l) = layers {
            spec = spec.layers(args::u32_arg("layers", l)?);
        }
        if let Some(n) = samples {
            spec = spec.samples(args::u32_arg("samples", n)?);
        }
        spec = spec.sparse(sparse).any_format(any_format);
        let overrides = Overrides {
            layout: layout.map(args::layout).transpose()?,
            gob_order: gob.map(args::gob).transpose()?,
            block_policy: block_policy.map(args::block_policy).transpose()?,
            modifier: modifier.map(|m| args::uint("modifier", m, u64::MAX)).transpose()?,
        };
        let (desc, assumed) = spec.overrides(overrides).resolve().py()?;
        let tex = desc.build().py()?;
        let format = elems.format();
        let record = TextureRecord::new(&tex, format.as_ref(), &assumed);
        Ok(Texture { tex, gpu: platform.name().to_string(), format, record })
    }

    /// Bytes the texture occupies in a dump (layers times the layer stride).
    #[getter]
    fn size_bytes(&self) -> u64 {
        self.tex.size_bytes()
    }

    /// Bytes from one layer to the next in a dump.
    #[getter]
    fn layer_stride_bytes(&self) -> u64 {
        self.tex.layer_stride_bytes()
    }

    /// Bytes of the packed linear texture (what `untile` returns).
    #[getter]
    fn linear_size_bytes(&self) -> u64 {
        self.tex.linear_size_bytes()
    }

    /// Bytes per element (a texel, or a compressed block).
    #[getter]
    fn elem_size_bytes(&self) -> u32 {
        self.tex.elem_size_bytes()
    }

    /// Number of layers (6 per cube).
    #[getter]
    fn layers(&self) -> u32 {
        self.tex.layer_count()
    }

    /// The GPU (or preset) name.
    #[getter]
    fn gpu(&self) -> &str {
        &self.gpu
    }

    /// The format's full name, one that names this very format again (sRGB included:
    /// `bc1_srgb` is `DXT1_srgb`; pre-G80 rows with their table: `nv2a:A8R8G8B8`), or None
    /// when only an element size was given.
    #[getter]
    fn format(&self) -> Option<String> {
        self.format.map(|f| f.full_name())
    }

    /// True when the format's R, G, B are sRGB-encoded (False for an element size).
    #[getter]
    fn is_srgb(&self) -> bool {
        self.format.is_some_and(|f| f.is_srgb())
    }

    /// The texture type (`2d`, `cube`, ...).
    #[getter]
    fn r#type(&self) -> &'static str {
        self.tex.ty().name()
    }

    /// The layout of the levels (`blocklinear`, `pitch`, `swizzled`).
    #[getter]
    fn layout(&self) -> &'static str {
        self.tex.layout().name()
    }

    /// The gob order (`None` where the layout has no gobs).
    #[getter]
    fn gob_order(&self) -> Option<&'static str> {
        self.record.assumed.gob_order.map(|(o, _)| o.name())
    }

    /// `given` or `default`: where the gob order came from (`None` without gobs).
    #[getter]
    fn gob_order_source(&self) -> Option<&'static str> {
        self.record.assumed.gob_order.map(|(_, s)| s.name())
    }

    /// The block policy (`explicit` for a given block; `None` without gobs).
    #[getter]
    fn block_policy(&self) -> Option<&'static str> {
        self.record.assumed.block_policy.map(|(p, _)| p.name())
    }

    /// `given` or `default`: where the block policy came from (`None` without gobs).
    #[getter]
    fn block_policy_source(&self) -> Option<&'static str> {
        self.record.assumed.block_policy.map(|(_, s)| s.name())
    }

    /// Every level of a layer, as dicts: `level`, `offset_bytes` (from the layer's start),
    /// `size_bytes`, `block_log2` and `block_log2_requested` (`(x, y, z)` or None),
    /// `width_texels`, `height_texels`, `depth_texels`, `size_elements` (`(w, h, d)`),
    /// `row_bytes`, `slice_bytes` (or None), `linear_size_bytes`, the keys of the CLI's
    /// `texture --json` (`nvsurf::LevelRecord`); and the older `width`, `height`, `depth` and
    /// `elements`, the same values (kept; the CLI's JSON calls them deprecated).
    #[getter]
    fn levels<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for l in &self.record.levels {
            let d = crate::guess::fields_dict(py, l.fields())?;
            for (old, new) in [
                ("width", "width_texels"),
                ("height", "height_texels"),
                ("depth", "depth_texels"),
                ("elements", "size_elements"),
            ] {
                d.set_item(old, d.get_item(new)?)?;
            }
            list.append(d)?;
        }
        Ok(list)
    }

    /// The texture's summary as a dict, the keys of the CLI's `texture --json`
    /// (`nvsurf::TextureRecord`): `gpu` (the chip), `type`, `layout`, `format`, `is_srgb`,
    /// `elem_size_bytes`, `layers`, `layer_stride_bytes`, `size_bytes`, `linear_size_bytes`,
    /// `levels` (as the `levels` attribute gives them) and what was assumed: `gob_order`,
    /// `gob_order_source`, `block_policy`, `block_policy_source`.
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = crate::guess::fields_dict(py, self.record.fields())?;
        d.set_item("levels", self.levels(py)?)?;
        Ok(d)
    }

    /// The dump untiled: a new uint8 numpy array of `linear_size_bytes`, the packed linear
    /// texture layer by layer, level by level (DDS order). `dump`: bytes, bytearray,
    /// memoryview or a uint8 numpy array of at least `size_bytes` (read in place when
    /// contiguous). `threads`: 1 (default), 0 for every core, or N. Releases the GIL.
    #[pyo3(signature = (dump, *, threads=None))]
    fn untile<'py>(
        &self,
        py: Python<'py>,
        dump: &Bound<'py, PyAny>,
        threads: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<u8>>> {
        let threads = Threads::parse(threads)?;
        let input = InBytes::get("dump", dump)?;
        // The dump is checked before the output is allocated.
        self.tex.check_dump(input.as_slice().len() as u64).py()?;
        let n = byte_len("linear texture size", self.tex.linear_size_bytes())?;
        let dump = input.as_slice();
        let out = py
            .detach(|| {
                let mut out = AlignedOut::zeroed(n)?;
                threads.run(|opts| self.tex.untile_with(dump, out.as_mut_slice(), opts))?;
                Ok(out)
            })
            .py()?;
        out.into_numpy(py)
    }

    /// The packed linear texture tiled: a new uint8 numpy array of `size_bytes` (padding
    /// zero). `linear` as `untile` returns it (at least `linear_size_bytes`; any buffer of
    /// bytes). Releases the GIL.
    #[pyo3(signature = (linear, *, threads=None))]
    fn tile<'py>(
        &self,
        py: Python<'py>,
        linear: &Bound<'py, PyAny>,
        threads: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<u8>>> {
        let threads = Threads::parse(threads)?;
        let input = InBytes::get("linear", linear)?;
        let have = input.as_slice().len() as u64;
        if have < self.tex.linear_size_bytes() {
            return Err(crate::error::err(nvsurf::Error::BufferTooSmall {
                what: "linear texture",
                needed: self.tex.linear_size_bytes(),
                got: have,
            }));
        }
        let n = byte_len("texture size", self.tex.size_bytes())?;
        let linear = input.as_slice();
        let out = py
            .detach(|| {
                let mut out = AlignedOut::zeroed(n)?;
                threads.run(|opts| self.tex.tile_with(linear, out.as_mut_slice(), opts))?;
                Ok(out)
            })
            .py()?;
        out.into_numpy(py)
    }

    /// Where (level, layer) is, and its z slice `z`: a dict of the keys of the CLI's
    /// `texture --at LEVEL,LAYER,Z --json` (`nvsurf::SubresourceRecord`): `level`, `layer`,
    /// `offset_bytes` and `size_bytes` (in the dump), `linear_offset_bytes` and
    /// `linear_size_bytes` (in the packed linear texture), `width_texels`, `height_texels`,
    /// `depth_texels`, `size_elements` (`(w, h, d)`), `block_log2` (or None), `row_bytes`, `z`,
    /// `slice_offset_bytes`; and the older `elements`, the same as `size_elements`.
    #[pyo3(signature = (level=None, layer=None, z=None))]
    fn subresource<'py>(
        &self,
        py: Python<'py>,
        level: Option<&Bound<'py, PyAny>>,
        layer: Option<&Bound<'py, PyAny>>,
        z: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (level, layer) = level_layer(level, layer)?;
        let z = z.map_or(Ok(0), |z| args::u32_arg("z", z))?;
        let r = nvsurf::SubresourceRecord::new(&self.tex, level, layer, z).py()?;
        let d = crate::guess::fields_dict(py, r.fields())?;
        d.set_item("elements", d.get_item("size_elements")?)?;
        Ok(d)
    }

    /// The bytes of (level, layer) in `linear` (a packed linear texture, as `untile` returns
    /// it): `linear[start:end]`, a view for numpy arrays and memoryviews.
    #[pyo3(signature = (linear, level=None, layer=None))]
    fn level_bytes<'py>(
        &self,
        linear: &Bound<'py, PyAny>,
        level: Option<&Bound<'py, PyAny>>,
        layer: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (level, layer) = level_layer(level, layer)?;
        let input = InBytes::get("linear", linear)?;
        let s = self.tex.subresource(level, layer).py()?;
        // Checks the range against the buffer.
        self.tex.level_bytes(input.as_slice(), level, layer).py()?;
        drop(input);
        let start = s.linear_offset_bytes as isize;
        let end = (s.linear_offset_bytes + s.linear_size_bytes) as isize;
        linear.get_item(PySlice::new(linear.py(), start, end, 1))
    }

    fn __repr__(&self) -> String {
        let what = match &self.format {
            Some(f) => format!("format={:?}", f.full_name()),
            None => format!("elem_size={}", self.tex.elem_size_bytes()),
        };
        let l0 = &self.tex.levels()[0];
        let [w, h, d] = l0.texels.to_array();
        format!(
            "nvsurf.Texture({:?}, {what}, size=({w}, {h}, {d}), type={:?}, levels={}, layers={}) # {} bytes",
            self.gpu,
            self.tex.ty().name(),
            self.tex.level_count(),
            self.tex.layer_count(),
            self.tex.size_bytes()
        )
    }

    /// The table of levels the CLI's `texture` command prints.
    fn __str__(&self) -> String {
        self.tex.to_string()
    }
}

impl Texture {
    /// The library's texture.
    pub fn inner(&self) -> &Tex {
        &self.tex
    }
}

/// `bytes` as a buffer length, or the error naming `what`.
pub fn byte_len(what: &str, bytes: u64) -> PyResult<usize> {
    usize::try_from(bytes).map_err(|_| bad(what, bytes, "bytes does not fit in memory"))
}

/// The `level=` and `layer=` arguments (0 when not given).
fn level_layer(level: Option<&Bound<'_, PyAny>>, layer: Option<&Bound<'_, PyAny>>) -> PyResult<(u32, u32)> {
    let get = |name, o: Option<&Bound<'_, PyAny>>| o.map_or(Ok(0), |o| args::u32_arg(name, o));
    Ok((get("level", level)?, get("layer", layer)?))
}
