//! `nvsurf texture`: the layout of a whole texture (levels, layers, offsets, block sizes).
//!
//! [`TextureShapeArgs`] holds the flags a texture adds to the shared surface flags; `untile` and
//! `tile` flatten it too for `--texture`, and [`build_texture_assumed`] turns both into a validated
//! [`Texture`].

use crate::surface_args::{parse_point, parse_size, parse_u64, Assumed, SurfaceArgs};
use crate::CmdResult;
use nvsurf::layout::{Binding, TextureBlockWidth};
use nvsurf::texture::{max_levels, LevelPlacement, Subresource, Texture, TextureType};
use nvsurf::{Error, SubresourceRecord, TextureRecord, TextureSpec};
use serde_json::Value;
use std::process::ExitCode;

/// The flags that make a surface a texture.
#[derive(clap::Args, Debug, Clone)]
pub struct TextureShapeArgs {
    /// Sparse residency as NVK lays it out (Mesa nil): the block is the Vulkan standard sparse
    /// block shape, clamped per level by nil's rule, the allocation 64 KiB aligned; the JSON
    /// gives the sparse block and the mip tail.
    #[arg(long)]
    pub sparse: bool,
    /// Texture type: 1d, 2d, 3d, 1d_array, 2d_array, cube, cube_array (GT215+), rect, buffer
    /// (default 2d; `tile` from a .dds or .ktx2: the file's).
    #[arg(long = "type", visible_alias = "texture-type", value_name = "TYPE")]
    pub ty: Option<String>,
    /// Elements are blocks of 4x4 texels (BC/DXT formats given with --elem-size).
    #[arg(long)]
    pub compressed: bool,
    /// Texels per element, WxH (e.g. 4x4); --compressed is 4x4.
    #[arg(long = "block-texels", value_name = "WxH", conflicts_with = "compressed")]
    pub block_texels: Option<String>,
    /// Number of mip levels (1 to floor(log2(max dimension)) + 1; default 1; `tile` from a
    /// .dds or .ktx2: the file's), or `all`: every level down to 1x1 (the C API's
    /// NVSURF_ALL_LEVELS; 1 for rect and buffer, which have no mips).
    #[arg(long, value_name = "N|all", value_parser = parse_levels)]
    pub levels: Option<Levels>,
    /// Number of layers; default 6 for cube and cube_array, else 1.
    #[arg(long, value_parser = crate::surface_args::clap_u32)]
    pub layers: Option<u32>,
    /// Round each level's start up to a multiple of this many bytes (files that align levels).
    #[arg(long = "level-align", value_name = "BYTES", conflicts_with = "level_offsets")]
    pub level_align: Option<String>,
    /// Explicit level offsets inside a layer, comma-separated bytes, one per level; blocklinear
    /// levels start on whole gobs (multiples of 0x100 bytes on G80:GF100, 0x200 on GF100+).
    #[arg(long = "level-offsets", value_name = "O0,O1,...")]
    pub level_offsets: Option<String>,
    /// Layer stride override in bytes (at least the end of the last level).
    #[arg(long = "layer-stride", value_name = "BYTES")]
    pub layer_stride: Option<String>,
    /// How the texture unit treats block width > 0 (OPEN in ERRATA): document (used, the
    /// default) or ignored (rnndb / NVIDIA headers: rejected).
    #[arg(long = "tex-block-width", value_name = "document|ignored", default_value = "document")]
    pub tex_block_width: String,
}

/// `--levels`: a count, or `all` (the full mip chain, as `NVSURF_ALL_LEVELS` in the C API and
/// `TextureSpec::full_mip_chain` in the library).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Levels {
    /// This many levels.
    Count(u32),
    /// Every level down to 1x1.
    All,
}

impl Levels {
    /// The number of levels of a `ty` texture whose level 0 is `size_texels`.
    pub fn count(self, ty: TextureType, size_texels: [u32; 3]) -> u32 {
        match self {
            Levels::Count(n) => n,
            Levels::All if ty.has_mip_levels() => max_levels(size_texels),
            Levels::All => 1,
        }
    }
}

impl std::fmt::Display for Levels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Levels::Count(n) => write!(f, "{n}"),
            Levels::All => f.write_str("all"),
        }
    }
}

/// Parses `--levels`: `all` (any case) or a number as the other integer flags take it.
fn parse_levels(s: &str) -> Result<Levels, String> {
    if s.trim().eq_ignore_ascii_case("all") {
        return Ok(Levels::All);
    }
    crate::surface_args::clap_u32(s).map(Levels::Count).map_err(|e| format!("{e} (or `all` for the full mip chain)"))
}

/// Arguments of `nvsurf texture`.
#[derive(clap::Args)]
pub struct TextureArgs {
    #[command(flatten)]
    surface: SurfaceArgs,
    #[command(flatten)]
    shape: TextureShapeArgs,
    /// Only one subresource: LEVEL,LAYER[,Z] (its offset in the dump and in the packed linear
    /// file, its size, and the offset of z slice Z).
    #[arg(long, value_name = "LEVEL,LAYER[,Z]")]
    at: Option<String>,
    /// Print a JSON object instead of the table.
    #[arg(long)]
    json: bool,
}

/// Builds the texture that the surface flags and texture flags describe. `--size` is level 0 in
/// texels; `--block-log2` is the requested block (as a TIC holds it). Also what it assumed.
/// The library ([`TextureSpec::resolve`]) resolves every default; this adds the texture flags
/// it has no setter for and refuses the surface flags a texture fixes.
pub fn build_texture_assumed(s: &SurfaceArgs, t: &TextureShapeArgs) -> Result<(Texture, Assumed), Error> {
    build_texture_with(s, t, false)
}

/// [`build_texture_assumed`] for the texture's geometry alone (`nvsurf texture`): a format whose
/// CPU byte order is unknown gets its offsets, blocks and sizes
/// ([`TextureSpec::resolve_geometry`]); the texture must not move bytes.
pub fn build_texture_geometry(s: &SurfaceArgs, t: &TextureShapeArgs) -> Result<(Texture, Assumed), Error> {
    build_texture_with(s, t, true)
}

fn build_texture_with(s: &SurfaceArgs, t: &TextureShapeArgs, geometry_only: bool) -> Result<(Texture, Assumed), Error> {
    let spec = texture_spec(s, t)?;
    let (mut d, assumed) = if geometry_only { spec.resolve_geometry()? } else { spec.resolve()? };
    if let Some(texels) = t.texels_per_elem()? {
        d.texels_per_elem = texels;
    }
    // A linear modifier's pitch (NVK's) stays unless --pitch is given.
    d.pitch_bytes = s.pitch.as_deref().map(|p| parse_u64("pitch", p)).transpose()?.or(d.pitch_bytes);
    d.texture_block_width = t.texture_block_width()?;
    d.placement = t.placement()?;
    d.layer_stride_bytes = t.layer_stride.as_deref().map(|v| parse_u64("layer-stride", v)).transpose()?;
    refuse_surface_only_flags(s)?;
    Ok((d.build()?, assumed))
}

/// The library's spec of the texture the flags describe.
fn texture_spec(s: &SurfaceArgs, t: &TextureShapeArgs) -> Result<TextureSpec, Error> {
    let platform = s.platform()?;
    let ty = TextureType::parse(t.ty.as_deref().unwrap_or("2d"))?;
    let elem_size = s.elem_size_bytes()?;
    let size = parse_size(&s.size)?;
    let mut spec = match s.format()? {
        Some(f) => TextureSpec::new(platform, ty, &f, size),
        None => TextureSpec::with_elem_size(platform, ty, elem_size, size),
    };
    spec = spec.levels(t.levels.map_or(1, |l| l.count(ty, size)));
    if let Some(l) = t.layers {
        spec = spec.layers(l);
    }
    Ok(spec.overrides(s.overrides()?).samples(s.samples.unwrap_or(1)).sparse(t.sparse).any_format(s.any_format))
}

impl TextureShapeArgs {
    /// Texels per element from `--block-texels` or `--compressed` (4x4), if given; else the
    /// format's (or 1x1 with `--elem-size`).
    fn texels_per_elem(&self) -> Result<Option<[u32; 2]>, Error> {
        match (&self.block_texels, self.compressed) {
            (Some(b), _) => match parse_size(b)? {
                [w, h, 1] => Ok(Some([w, h])),
                _ => Err(unsupported("block-texels", b, "expected WxH")),
            },
            (None, true) => Ok(Some([4, 4])),
            (None, false) => Ok(None),
        }
    }

    /// `--tex-block-width`.
    fn texture_block_width(&self) -> Result<TextureBlockWidth, Error> {
        match self.tex_block_width.to_ascii_lowercase().as_str() {
            "document" | "doc" => Ok(TextureBlockWidth::Document),
            "ignored" | "rnndb" => Ok(TextureBlockWidth::Ignored),
            other => Err(Error::UnknownName {
                kind: "texture block width rule",
                name: other.to_string(),
                suggestions: nvsurf::error::closest(other, ["document", "ignored"]),
            }),
        }
    }

    /// `--level-align` or `--level-offsets` (packed without either).
    fn placement(&self) -> Result<LevelPlacement, Error> {
        Ok(match (&self.level_align, &self.level_offsets) {
            (Some(a), _) => LevelPlacement::AlignEach(parse_u64("level-align", a)?),
            (None, Some(o)) => LevelPlacement::Offsets(
                o.split(',').map(|v| parse_u64("level-offsets", v)).collect::<Result<Vec<_>, _>>()?,
            ),
            (None, None) => LevelPlacement::Packed,
        })
    }
}

/// Refuses the flags of the shared surface set that a texture fixes: a binding other than
/// texture, `--no-auto-size`, a nonzero `--address`.
fn refuse_surface_only_flags(s: &SurfaceArgs) -> Result<(), Error> {
    if let Some(b) = &s.binding {
        if Binding::parse(b)? != Binding::Texture {
            return Err(unsupported("binding", b, "a texture is bound to the texture unit (binding texture)"));
        }
    }
    if s.no_auto_size {
        return Err(unsupported(
            "no-auto-size",
            "",
            "texture units always auto-size every level (envytools docs/hw/memory/g80-surface.rst)",
        ));
    }
    if parse_u64("address", &s.address)? != 0 {
        return Err(unsupported(
            "address",
            &s.address,
            "texture offsets are relative to the texture's start: omit --address",
        ));
    }
    Ok(())
}

fn unsupported(field: &'static str, value: &str, rule: &str) -> Error {
    Error::Unsupported { field, value: value.to_string(), rule: rule.to_string() }
}

/// The JSON contract (`size_bytes`, `layer_stride`, `levels[]` with `level`, `offset`,
/// `size`, `width`, `height`, `depth` (texels), `block_log2`), plus more keys: the library's
/// [`TextureRecord`] (what was assumed included) and [`nvsurf::LevelRecord`]s, the deprecated
/// keys beside their replacements.
pub fn texture_json(r: &TextureRecord) -> Value {
    let levels: Vec<Value> = r
        .levels
        .iter()
        .map(|l| {
            let mut v = Value::Object(crate::keys::fields_json(l.fields()));
            crate::keys::add_old_keys(&mut v, crate::keys::LEVEL);
            v
        })
        .collect();
    let mut obj = crate::keys::fields_json(r.fields());
    obj.insert("levels".into(), Value::Array(levels));
    let mut v = Value::Object(obj);
    crate::keys::add_old_keys(&mut v, crate::keys::TEXTURE);
    v
}

/// (level, layer) of `t`, as `field` (`subresource`, `at`) selects it: a layer past the last
/// is one line that names the selection and the flag that gives the texture more layers.
pub fn subresource_of(
    t: &Texture,
    field: &str,
    level: u32,
    layer: u32,
) -> Result<Subresource, Box<dyn std::error::Error>> {
    let n = t.layer_count();
    if layer < n {
        return Ok(t.subresource(level, layer)?);
    }
    let hint = match t.ty() {
        TextureType::Cube => "a cube has 6 faces, layers 0 to 5 (more: --type cube_array --layers N)",
        ty if ty.is_layered() => "--layers N gives the texture N layers",
        _ => "a cube needs --type cube, an array --layers N",
    };
    let s = if n == 1 { "" } else { "s" };
    Err(format!(
        "{field} {level},{layer}: layer {layer} is outside the texture's {n} layer{s} (layer must be below {n}); {hint}"
    )
    .into())
}

/// One subresource (and one z slice of it) as JSON: the library's [`SubresourceRecord`], the
/// deprecated keys beside their replacements.
pub fn subresource_json(t: &Texture, level: u32, layer: u32, z: u32) -> Result<Value, Box<dyn std::error::Error>> {
    subresource_of(t, "at", level, layer)?;
    let mut v = Value::Object(crate::keys::fields_json(SubresourceRecord::new(t, level, layer, z)?.fields()));
    crate::keys::add_old_keys(&mut v, crate::keys::SUBRESOURCE);
    Ok(v)
}

/// Runs `nvsurf texture`.
pub fn run(a: TextureArgs) -> CmdResult {
    let (t, assumed) = build_texture_geometry(&a.surface.answering()?, &a.shape)?;
    if let Some(at) = &a.at {
        let [level, layer, z] = parse_point("at", at)?;
        let mut v = subresource_json(&t, level, layer, z)?;
        if assumed.gob_order_unknown {
            crate::surface_args::AssumedJson::add_json(&assumed, &mut v);
        }
        if a.json {
            crate::outln!("{}", serde_json::to_string_pretty(&v)?)?;
        } else {
            crate::outln!(
                "level {level} layer {layer}: offset {} size {} (packed linear: offset {} size {}); z slice {z} starts at {}, \
                 texel (0,0,{z}) at {}",
                v["offset"],
                v["size"],
                v["linear_offset"],
                v["linear_size"],
                v["slice_start_bytes"],
                v["slice_offset"]
            )?;
            if let Some(note) = crate::surface_args::unknown_order_note(&assumed) {
                crate::outln!("{note}")?;
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    if a.json {
        let v = texture_json(&TextureRecord::new(&t, a.surface.format()?.as_ref(), &assumed));
        crate::outln!("{}", serde_json::to_string_pretty(&v)?)?;
    } else {
        crate::outln!("{t}")?;
        crate::outln!("assumed: {}", assumed.describe())?;
        if let Some(note) = crate::surface_args::unknown_order_note(&assumed) {
            crate::outln!("{note}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
