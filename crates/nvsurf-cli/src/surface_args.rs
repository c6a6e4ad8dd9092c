//! The surface flags shared by every command that takes a surface, and small parsers.

use nvsurf::format::Format;
use nvsurf::layout::{Binding, GobOrder, LayoutKind, Surface, SurfaceDesc};
use nvsurf::{Error, Gpu};

/// Surface flags: `--gpu`, `--layout`, `--elem-size` or `--format`, `--size`, `--pitch`,
/// `--block-log2`, `--auto-size`, `--binding`, `--gob`, `--address`.
#[derive(clap::Args, Debug, Clone)]
pub struct SurfaceArgs {
    /// GPU: g80/nv50, g84, g200/nva0, gt215/nva3, gf100/nvc0, gk104, gm20b/tegra-x1, tu102, nv40, ...
    #[arg(long)]
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
    /// pixels (texels): formats with several pixels per element (4x4 compressed, 2x1 YUV, 8x8
    /// bitmap) take ceil(width / block width) x ceil(height / block height) elements.
    #[arg(long, value_name = "F")]
    pub format: Option<String>,
    /// Size: W, WxH or WxHxD, in elements (with --elem-size) or in pixels (with --format).
    #[arg(long, value_name = "W[xH[xD]]")]
    pub size: String,
    /// Pitch in bytes (pitch layout). Default: the row rounded up to 64 (G80+) or to the element.
    #[arg(long, value_name = "BYTES")]
    pub pitch: Option<String>,
    /// Block size as log2 gobs per block in x, y, z (blocklinear), e.g. 0,4,0.
    #[arg(long = "block-log2", value_name = "X,Y,Z")]
    pub block_log2: Option<String>,
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
    /// Byte order inside a gob: vm (the document's, default), tegra, turing, fermi.
    #[arg(long, default_value = "vm")]
    pub gob: String,
    /// Base address in bytes (decimal or 0x-hex).
    #[arg(long, default_value = "0", value_name = "BASE")]
    pub address: String,
}

impl SurfaceArgs {
    /// The format given with `--format`, if any.
    pub fn format(&self) -> Result<Option<Format>, Error> {
        self.format.as_deref().map(Format::parse).transpose()
    }

    /// The element size in bytes: from `--format`, or `--elem-size` (exactly one of the two).
    pub fn elem_size(&self) -> Result<u32, Error> {
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
            Some(f) => {
                let (bw, bh) = f.block_dims();
                [w.div_ceil(bw), h.div_ceil(bh), d]
            }
            None => [w, h, d],
        })
    }

    /// Builds the validated surface descriptor.
    pub fn desc(&self) -> Result<SurfaceDesc, Error> {
        let gpu = Gpu::parse(&self.gpu)?;
        let mut d = SurfaceDesc::new(gpu, self.elem_size()?, self.size_elements()?);
        if let Some(l) = &self.layout {
            d.layout = LayoutKind::parse(l)?;
        }
        d.address = parse_u64("address", &self.address)?;
        d.pitch_bytes = self.pitch.as_deref().map(|p| parse_u64("pitch", p)).transpose()?;
        d.block_log2 = self.block_log2.as_deref().map(|b| parse_triple("block-log2", b)).transpose()?;
        d.auto_size = match (self.auto_size, self.no_auto_size) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        };
        d.binding = self.binding.as_deref().map(Binding::parse).transpose()?;
        d.gob_order = GobOrder::parse(&self.gob)?;
        Ok(d)
    }

    /// Builds and validates the surface.
    pub fn surface(&self) -> Result<Surface, Error> {
        self.desc()?.build()
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
