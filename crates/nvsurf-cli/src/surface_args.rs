//! The surface flags shared by every command that takes a surface, and small parsers.

use nvsurf::extent::{Extent, Texels};
use nvsurf::format::Format;
use nvsurf::layout::{Binding, GobOrder, LayoutKind, Surface, SurfaceDesc};
use nvsurf::spec::Overrides;
use nvsurf::texture::BlockPolicy;
pub use nvsurf::Assumed;
use nvsurf::{Error, Platform, SurfaceSpec};
use serde_json::Value;

/// The `--gpu` help: chips, presets and aliases, and what the defaults are.
pub const GPU_HELP: &str = "GPU or preset: a chip (g80/nv50, g84, g200/nva0, gt215/nva3, gf100/nvc0, gk104, \
gm20b/tegra-x1, gp10b, tu102, ga102, ad102, gh100, gb100, gb202, gb203, gb205, gb206, gb207, gb20b, nv40, nv2a, \
...), or a preset: switch/nx (GM20B with NVN's block policy and the Tegra gob order), xbox (NV2A). The GPU \
implies the gob order a CPU sees (Blackwell: 1-byte formats blackwell8, 2-byte blackwell16, else turing; \
Turing-Hopper desktop: turing, 16-bit depth blackwell16; Fermi-Volta desktop: fermi; Tegra: tegra; \
G80-GT215: vm) and the driver's \
block policy (GF100+: nvidia, switch: nvn, G80-GT215: max). These defaults changed: the old bytes come with \
--gob vm --block-policy max";

/// Surface flags: `--gpu`, `--layout`, `--elem-size` or `--format`, `--size`, `--pitch`,
/// `--block-log2` or `--block-policy`, `--auto-size`, `--binding`, `--gob`, `--address`.
#[derive(clap::Args, Debug, Clone)]
pub struct SurfaceArgs {
    #[arg(long, visible_alias = "platform", help = GPU_HELP)]
    pub gpu: String,
    /// Layout: pitch (alias linear), blocklinear (alias tiled) or swizzled. Default: blocklinear
    /// on G80+, swizzled before.
    #[arg(long)]
    pub layout: Option<String>,
    /// Element size in bytes (1, 2, 4, 8, 16; 12 on GF100+). Or give --format.
    #[arg(long = "elem-size", value_name = "BYTES", value_parser = clap_u32)]
    pub elem_size: Option<u32>,
    /// Format, in place of --elem-size (any name `nvsurf formats` lists: A8B8G8R8, RGBA8_UNORM, bc1,
    /// tex:0x08, zeta:0x16, ...). The element size comes from the format and --size is then in
    /// pixels (texels): formats with several pixels per element (4x4 BC/ETC2, ASTC 4x4-12x12, 2x1 YUV, 8x8
    /// bitmap) take ceil(width / block width) x ceil(height / block height) elements.
    #[arg(long, value_name = "F")]
    pub format: Option<String>,
    /// Size: W, WxH or WxHxD, in elements (with --elem-size) or in pixels (with --format).
    #[arg(long, value_name = "W[xH[xD]]")]
    pub size: String,
    /// Pitch in bytes (pitch layout). Default: the row rounded up to 64 (G80+) or to the element.
    #[arg(long, value_name = "BYTES")]
    pub pitch: Option<String>,
    /// Block size as log2 gobs per block in x, y, z (blocklinear), e.g. 0,4,0. Default: the
    /// block the GPU's block policy picks for a one-level texture of this size. A single-layer
    /// texture is padded to level 0's block, except under --gpu switch (NVN's rule).
    #[arg(long = "block-log2", value_name = "X,Y,Z")]
    pub block_log2: Option<String>,
    /// Named block-size policy instead of --block-log2: max (request 0,5,5 and let auto-sizing
    /// shrink it; the document's and older NVK's), nvn (the Switch/NVN convention; single layers
    /// unpadded, 3D textures one gob tall), nvidia (NVIDIA's driver's choice as Mesa's nil reproduces it, verified on an
    /// H100: block height from the texel height, 3D textures one gob tall, single layers end at
    /// their last level), nvk (Mesa NVK's whole rule, nil: nvidia's blocks clamped as nil
    /// clamps them, every layer padded, the size rounded up to max(4 KiB, level 0's block), 64
    /// KiB when sparse; linear rows 128 bytes, 256 on Kepler). Default: the GPU's (see --gpu).
    #[arg(long = "block-policy", value_name = "max|nvn|nvidia|nvk")]
    pub block_policy: Option<String>,
    /// Auto-size the block (shrink it while half a block covers the surface). On by default for
    /// the texture binding point.
    #[arg(long = "auto-size")]
    pub auto_size: bool,
    /// Never auto-size, even for the texture binding point.
    #[arg(long = "no-auto-size", conflicts_with = "auto_size")]
    pub no_auto_size: bool,
    /// Binding point: m2mf, 2d, texture, color, zeta, global, image, pcopy, display.
    #[arg(long)]
    pub binding: Option<String>,
    /// Byte order inside a gob as a CPU sees it: vm (the document's GPU view), tegra, turing,
    /// fermi (nil's CopyGOBFermi; unverified), fermi-comment (nil's doc comment; unverified),
    /// blackwell16 (16-bit depth on Turing+, 2-byte formats on Blackwell), blackwell8 (1-byte
    /// formats on Blackwell; unverified). Default: the GPU's for the format's class (see
    /// --gpu); where none is known (depth/stencil on desktop Fermi to Hopper, 24-bit depth on
    /// Blackwell) tile, untile and addr refuse, while layout and texture answer the geometry.
    #[arg(long, visible_alias = "gob-order")]
    pub gob: Option<String>,
    /// Base address in bytes (decimal or 0x-hex).
    #[arg(long, default_value = "0", value_name = "BASE")]
    pub address: String,
    /// Samples per pixel: 1, 2, 4, 8 or 16, with --size in pixels. The surface stores the
    /// sample grid of the mode Vulkan drivers use for the count (2: MS2_ALT, 4: MS4, 8:
    /// MS8_ALT, 16: MS16; see `nvsurf msaa`), and the block is chosen from the pixel size.
    #[arg(long, value_name = "N", value_parser = clap_u32)]
    pub samples: Option<u32>,
    /// Move the bytes of a format the GPU cannot sample (ETC2/EAC and ASTC on desktop GPUs,
    /// per Mesa nil's format table; see `nvsurf formats --gpu G --json`), which is refused
    /// otherwise. `texture` and `layout` answer for such formats anyway, with a note.
    #[arg(long = "any-format")]
    pub any_format: bool,
    /// DRM format modifier (0x-hex) of a 2D image: sets the layout (0 = linear: pitch, with
    /// NVK's row pitch unless --pitch is given), the block (0, h, 0) and the gob order, after
    /// checking it fits the GPU and format as NVK does (`nvsurf modifier list`). --layout,
    /// --block-log2 and --gob, if given, must agree with it.
    #[arg(long, value_name = "0xMOD")]
    pub modifier: Option<String>,
}

impl SurfaceArgs {
    /// The format given with `--format`, if any, named in the tables of `--gpu`'s generation
    /// (NV10-NV40: the pre-G80 texture formats; G80 and later: the G80 tables and aliases).
    pub fn format(&self) -> Result<Option<Format>, Error> {
        let Some(name) = self.format.as_deref() else { return Ok(None) };
        Format::parse_for(name, self.platform()?.gpu()).map(Some)
    }

    /// The element size in bytes: from `--format`, or `--elem-size` (exactly one of the two).
    pub fn elem_size_bytes(&self) -> Result<u32, Error> {
        match (self.format()?, self.elem_size) {
            (Some(_), Some(e)) => Err(Error::Unsupported {
                field: "elem-size",
                value: e.to_string(),
                rule: "give --format or --elem-size, not both".into(),
            }),
            (Some(f), None) => Ok(f.elem_size_bytes()),
            (None, Some(e)) => Ok(e),
            (None, None) => Err(Error::Unsupported {
                field: "elem-size",
                value: "(none)".into(),
                rule: "give --elem-size BYTES or --format NAME".into(),
            }),
        }
    }

    /// `--size` in elements: as given with `--elem-size`; with `--format` the pixels divided by
    /// the format's pixels per element, rounding up.
    pub fn size_elements(&self) -> Result<[u32; 3], Error> {
        let [w, h, d] = parse_size(&self.size)?;
        Ok(match self.format()? {
            Some(f) => Extent::<Texels>::new(w, h, d).to_elements(&f).to_array(),
            None => [w, h, d],
        })
    }

    /// The platform `--gpu` names (a chip or a preset).
    pub fn platform(&self) -> Result<Platform, Error> {
        Platform::parse(&self.gpu)
    }

    /// The overrides of the platform's defaults the flags give: `--layout`, `--gob`, and
    /// `--block-log2` or `--block-policy` (not both).
    pub fn overrides(&self) -> Result<Overrides, Error> {
        let block = match (&self.block_log2, &self.block_policy) {
            (Some(_), Some(_)) => {
                return Err(Error::Unsupported {
                    field: "block-policy",
                    value: "with --block-log2".into(),
                    rule: "give --block-log2 or --block-policy, not both".into(),
                })
            }
            (Some(b), None) => Some(BlockPolicy::Explicit(parse_triple("block-log2", b)?)),
            (None, Some(p)) => Some(BlockPolicy::parse(p)?),
            (None, None) => None,
        };
        Ok(Overrides {
            layout: self.layout.as_deref().map(LayoutKind::parse).transpose()?,
            gob_order: self.gob.as_deref().map(GobOrder::parse).transpose()?,
            block_policy: block,
            modifier: self.modifier.as_deref().map(nvsurf::modifier::parse).transpose()?,
        })
    }

    /// The library's spec of the surface the flags describe (`--size` in pixels with
    /// `--format`, in elements with `--elem-size`); the library resolves every default.
    pub fn spec(&self) -> Result<SurfaceSpec, Error> {
        let platform = self.platform()?;
        let elem_size = self.elem_size_bytes()?;
        let size = parse_size(&self.size)?;
        let mut spec = match self.format()? {
            Some(f) => SurfaceSpec::new(platform, &f, size),
            None => SurfaceSpec::with_elem_size(platform, elem_size, size),
        };
        spec = spec.overrides(self.overrides()?).samples(self.samples.unwrap_or(1)).any_format(self.any_format);
        if let Some(p) = self.pitch.as_deref() {
            spec = spec.pitch_bytes(parse_u64("pitch", p)?);
        }
        Ok(spec)
    }

    /// Builds the surface descriptor ([`SurfaceSpec::resolve`], then `--address`,
    /// `--auto-size`/`--no-auto-size` and `--binding`), with what it assumed.
    pub fn desc_assumed(&self) -> Result<(SurfaceDesc, Assumed), Error> {
        self.desc_with(false)
    }

    fn desc_with(&self, geometry_only: bool) -> Result<(SurfaceDesc, Assumed), Error> {
        let spec = self.spec()?;
        let (mut d, assumed) = if geometry_only { spec.resolve_geometry()? } else { spec.resolve()? };
        d.address = parse_u64("address", &self.address)?;
        d.auto_size = match (self.auto_size, self.no_auto_size) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        };
        d.binding = self.binding.as_deref().map(Binding::parse).transpose()?;
        Ok((d, assumed))
    }

    /// These flags for a command that only answers (`texture`, `layout`, `addr`): a format
    /// the GPU cannot sample is laid out anyway, and the note that says so is printed to
    /// stderr (`note: ...`).
    pub fn answering(&self) -> Result<SurfaceArgs, Error> {
        if let (Some(f), false) = (self.format()?, self.any_format) {
            let gpu = self.platform()?.gpu();
            if f.unsampleable_on(gpu) {
                eprintln!(
                    "note: {} cannot be sampled on {gpu} (Mesa nil's format table: ETC2/EAC and ASTC on Tegra \
                     only); laid out as nil lays it out; tile and untile need --any-format",
                    f.name()
                );
            }
        }
        Ok(SurfaceArgs { any_format: true, ..self.clone() })
    }

    /// Builds the surface descriptor.
    pub fn desc(&self) -> Result<SurfaceDesc, Error> {
        Ok(self.desc_assumed()?.0)
    }

    /// Builds and validates the surface, with what it assumed.
    pub fn surface_assumed(&self) -> Result<(Surface, Assumed), Error> {
        let (d, a) = self.desc_assumed()?;
        Ok((d.build()?, a))
    }

    /// [`SurfaceArgs::surface_assumed`] for the surface's geometry alone (`nvsurf layout`): a
    /// format whose CPU byte order is unknown still gets its blocks and size
    /// ([`SurfaceSpec::resolve_geometry`]); the surface must not move bytes.
    pub fn surface_geometry(&self) -> Result<(Surface, Assumed), Error> {
        let (d, a) = self.desc_with(true)?;
        Ok((d.build()?, a))
    }
}

/// The `note:` line of a layout whose CPU byte order is unknown ([`Assumed::gob_order_unknown`]),
/// else `None`.
pub fn unknown_order_note(a: &Assumed) -> Option<String> {
    a.gob_order_unknown.then(|| {
        format!(
            "note: the CPU byte order inside a gob is unknown for {} formats on {}: offsets, blocks and \
             sizes do not depend on it, but tile, untile and addr refuse without --gob",
            a.class,
            a.platform.name()
        )
    })
}

/// The JSON form of what the library assumed ([`Assumed`]).
pub trait AssumedJson {
    /// Adds `gob_order`, `gob_order_source`, `block_policy` and `block_policy_source` (null
    /// where the layout has no gobs) to a JSON object, and `modifier` when one set them.
    fn add_json(&self, v: &mut Value);
}

impl AssumedJson for Assumed {
    fn add_json(&self, v: &mut Value) {
        if let Some(obj) = v.as_object_mut() {
            obj.extend(crate::keys::fields_json(self.fields()));
            if let Some(m) = self.modifier {
                obj.insert("modifier".into(), Value::String(format!("{m:#018x}")));
            }
        }
    }
}

/// Parses a decimal or `0x`-hex number (underscores allowed).
pub fn parse_u64(field: &'static str, s: &str) -> Result<u64, Error> {
    let t = s.trim().replace('_', "");
    let r = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u64::from_str_radix(h, 16)
    } else {
        t.parse()
    };
    r.map_err(|_| Error::Parse { field, value: s.into(), rule: "expected a decimal or 0x-hex number" })
}

/// Parses a byte offset into a dump ([`parse_u64`]): dumps are of GPU memory, so an offset
/// lies below 2^40 (a larger one is a typo, and `tile` would write that many zeros).
pub fn parse_offset(field: &'static str, s: &str) -> Result<u64, Error> {
    let v = parse_u64(field, s)?;
    let max = nvsurf::error::ADDRESS_SPACE_BYTES - 1;
    if v > max {
        return Err(Error::OutOfRange { field, value: v, min: 0, max });
    }
    Ok(v)
}

/// A clap value parser for counts and limits: decimal or `0x`-hex like every other number the
/// CLI takes (clap's own parser refuses hex).
pub fn clap_usize(s: &str) -> Result<usize, String> {
    let v = parse_u64("value", s).map_err(|_| format!("'{s}' is not a decimal or 0x-hex number"))?;
    usize::try_from(v).map_err(|_| format!("{v} is too large"))
}

/// [`clap_usize`] for u64 values.
pub fn clap_u64(s: &str) -> Result<u64, String> {
    parse_u64("value", s).map_err(|_| format!("'{s}' is not a decimal or 0x-hex number"))
}

/// [`clap_usize`] for u32 values.
pub fn clap_u32(s: &str) -> Result<u32, String> {
    let v = clap_u64(s)?;
    u32::try_from(v).map_err(|_| format!("{v} is out of range 0..={}", u32::MAX))
}

/// Parses a u32 like [`parse_u64`].
pub fn parse_u32(field: &'static str, s: &str) -> Result<u32, Error> {
    let v = parse_u64(field, s)?;
    u32::try_from(v).map_err(|_| Error::OutOfRange { field, value: v, min: 0, max: u32::MAX.into() })
}

/// Parses `W`, `WxH` or `WxHxD`; missing dimensions are 1.
pub fn parse_size(s: &str) -> Result<[u32; 3], Error> {
    let parts: Vec<&str> = s.split(['x', 'X']).collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(Error::Parse { field: "size", value: s.into(), rule: "expected W, WxH or WxHxD" });
    }
    let mut out = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        out[i] = parse_u32("size", p).map_err(|_| Error::Parse {
            field: "size",
            value: s.into(),
            rule: "expected W, WxH or WxHxD",
        })?;
    }
    Ok(out)
}

/// Parses `N,N,...` into exactly `K` numbers.
pub fn parse_list<const K: usize>(field: &'static str, s: &str) -> Result<[u32; K], Error> {
    let parts: Vec<&str> = s.split(',').collect();
    if parts.len() != K {
        return Err(Error::Parse { field, value: s.into(), rule: "wrong number of comma-separated values" });
    }
    let mut out = [0u32; K];
    for (i, p) in parts.iter().enumerate() {
        out[i] = parse_u32(field, p)?;
    }
    Ok(out)
}

/// Parses `X,Y,Z`.
pub fn parse_triple(field: &'static str, s: &str) -> Result<[u32; 3], Error> {
    parse_list::<3>(field, s)
}

/// Parses `X,Y` or `X,Y,Z` (z defaults to 0).
pub fn parse_point(field: &'static str, s: &str) -> Result<[u32; 3], Error> {
    match s.split(',').count() {
        2 => {
            let [x, y] = parse_list::<2>(field, s)?;
            Ok([x, y, 0])
        }
        _ => parse_triple(field, s),
    }
}
