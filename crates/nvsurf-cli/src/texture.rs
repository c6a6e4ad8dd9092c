//! `nvsurf texture`: the layout of a whole texture (levels, layers, offsets, block sizes).
//!
//! [`TextureShapeArgs`] holds the flags a texture adds to the shared surface flags; `untile` and
//! `tile` flatten it too for `--texture`, and [`build_texture`] turns both into a validated
//! [`Texture`].

use crate::surface_args::{parse_point, parse_size, parse_u64, Assumed, SurfaceArgs};
use crate::tiling::{write_atomic, TilingArgs};
use crate::CmdResult;
use nvsurf::layout::{Binding, LayoutKind, TextureBlockWidth};
use nvsurf::texture::{LevelPlacement, Subresource, Texture, TextureDesc, TextureType};
use nvsurf::Error;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The flags that make a surface a texture.
#[derive(clap::Args, Debug, Clone)]
pub struct TextureShapeArgs {
    /// Texture type: 1d, 2d, 3d, 1d_array, 2d_array, cube, cube_array (GT215+), rect, buffer.
    #[arg(long = "type", value_name = "TYPE", default_value = "2d")]
    pub ty: String,
    /// Elements are blocks of 4x4 texels (BC/DXT formats given with --elem-size).
    #[arg(long)]
    pub compressed: bool,
    /// Texels per element, WxH (e.g. 4x4); --compressed is 4x4.
    #[arg(long = "block-texels", value_name = "WxH", conflicts_with = "compressed")]
    pub block_texels: Option<String>,
    /// Number of mip levels (1 to floor(log2(max dimension)) + 1).
    #[arg(long, default_value_t = 1, value_parser = crate::surface_args::clap_u32)]
    pub levels: u32,
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
/// texels; `--block-log2` is the requested block (as a TIC holds it).
pub fn build_texture(s: &SurfaceArgs, t: &TextureShapeArgs) -> Result<Texture, Error> {
    Ok(build_texture_assumed(s, t)?.0)
}

/// [`build_texture`], with the gob order and block policy it assumed.
pub fn build_texture_assumed(s: &SurfaceArgs, t: &TextureShapeArgs) -> Result<(Texture, Assumed), Error> {
    let platform = s.platform()?;
    let gpu = platform.gpu();
    let ty = TextureType::parse(&t.ty)?;
    // --format (a shared surface flag) gives the element size and the texels per element.
    let elem_size = s.elem_size()?;
    let texels = s.format()?.map_or([1, 1], |f| {
        let (bw, bh) = f.block_dims();
        [bw, bh]
    });
    let texels = match (&t.block_texels, t.compressed) {
        (Some(b), _) => {
            let [w, h, d] = parse_size(b)?;
            if d != 1 {
                return Err(unsupported("block-texels", b, "expected WxH"));
            }
            [w, h]
        }
        (None, true) => [4, 4],
        (None, false) => texels,
    };
    let mut d = TextureDesc::new(gpu, ty, elem_size, parse_size(&s.size)?);
    d.texels_per_elem = texels;
    d.levels = t.levels;
    if let Some(l) = t.layers {
        d.layers = l;
    }
    if let Some(l) = &s.layout {
        d.layout = LayoutKind::parse(l)?;
    }
    d.pitch_bytes = s.pitch.as_deref().map(|p| parse_u64("pitch", p)).transpose()?;
    let has_gobs = d.layout == LayoutKind::BlockLinear && ty != TextureType::Buffer;
    let assumed = s.assumed(has_gobs)?;
    if let Some((policy, _)) = assumed.block_policy {
        d.block = policy;
    }
    if let Some((order, _)) = assumed.gob_order {
        d.gob_order = order;
    }
    d.texture_block_width = match t.tex_block_width.to_ascii_lowercase().as_str() {
        "document" | "doc" => TextureBlockWidth::Document,
        "ignored" | "rnndb" => TextureBlockWidth::Ignored,
        other => {
            return Err(Error::UnknownName {
                kind: "texture block width rule",
                name: other.to_string(),
                suggestions: nvsurf::error::closest(other, ["document", "ignored"]),
            })
        }
    };
    d.placement = match (&t.level_align, &t.level_offsets) {
        (Some(a), _) => LevelPlacement::AlignEach(parse_u64("level-align", a)?),
        (None, Some(o)) => {
            LevelPlacement::Offsets(o.split(',').map(|v| parse_u64("level-offsets", v)).collect::<Result<Vec<_>, _>>()?)
        }
        (None, None) => LevelPlacement::Packed,
    };
    d.layer_stride_bytes = t.layer_stride.as_deref().map(|v| parse_u64("layer-stride", v)).transpose()?;
    // Flags of the shared surface set that a texture fixes.
    if let Some(b) = &s.binding {
        if Binding::parse(b)? != Binding::Texture {
            return Err(unsupported("binding", b, "a texture is bound to the texture unit (binding texture)"));
        }
    }
    if s.no_auto_size {
        return Err(unsupported("no-auto-size", "", "texture units always auto-size every level (seed 000)"));
    }
    if parse_u64("address", &s.address)? != 0 {
        return Err(unsupported(
            "address",
            &s.address,
            "texture offsets are relative to the texture's start: omit --address",
        ));
    }
    Ok((d.build()?, assumed))
}

fn unsupported(field: &'static str, value: &str, rule: &str) -> Error {
    Error::Unsupported { field, value: value.to_string(), rule: rule.to_string() }
}

/// The JSON contract (`size_bytes`, `layer_stride`, `levels[]` with `level`, `offset`,
/// `size`, `width`, `height`, `depth` (texels), `block_log2`), plus more keys.
pub fn texture_json(t: &Texture) -> Value {
    let levels: Vec<Value> = t
        .levels()
        .iter()
        .map(|l| {
            json!({
                "level": l.level,
                "offset": l.offset_bytes,
                "size": l.size_bytes,
                "width": l.texels[0],
                "height": l.texels[1],
                "depth": l.texels[2],
                "block_log2": l.block_log2,
                "block_log2_requested": match l.surface {
                    Some(nvsurf::layout::Surface::BlockLinear(b)) => Some(b.block_log2_requested()),
                    _ => None,
                },
                "elements": l.elements.to_array(),
                "row_bytes": l.row_bytes,
                "slice_bytes": l.slice_bytes,
                "linear_size": l.linear_size_bytes(t.elem_size()),
            })
        })
        .map(|mut v| {
            crate::keys::add_unit_keys(&mut v, crate::keys::LEVEL);
            v
        })
        .collect();
    let mut v = json!({
        "size_bytes": t.size_bytes(),
        "layer_stride": t.layer_stride_bytes(),
        "levels": levels,
        "gpu": t.gpu().name(),
        "type": t.ty().name(),
        "layout": t.layout().name(),
        "elem_size": t.elem_size(),
        "layers": t.layer_count(),
        "linear_size_bytes": t.linear_size_bytes(),
    });
    crate::keys::add_unit_keys(&mut v, crate::keys::TEXTURE);
    v
}

/// One subresource (and one z slice of it) as JSON.
pub fn subresource_json(t: &Texture, level: u32, layer: u32, z: u32) -> Result<Value, Error> {
    let sub = t.subresource(level, layer)?;
    let l = t.level(level)?;
    let mut v = json!({
        "level": level,
        "layer": layer,
        "offset": sub.offset_bytes,
        "size": sub.size_bytes,
        "linear_offset": sub.linear_offset_bytes,
        "linear_size": sub.linear_size_bytes,
        "width": l.texels[0],
        "height": l.texels[1],
        "depth": l.texels[2],
        "elements": sub.elements.to_array(),
        "block_log2": l.block_log2,
        "row_bytes": l.row_bytes,
        "z": z,
        "slice_offset": t.slice_offset(level, layer, z)?,
    });
    crate::keys::add_unit_keys(&mut v, crate::keys::SUBRESOURCE);
    crate::keys::add_unit_keys(&mut v, &[("elements", "size_elements")]);
    Ok(v)
}

/// Runs `nvsurf texture`.
pub fn run(a: TextureArgs) -> CmdResult {
    let (t, assumed) = build_texture_assumed(&a.surface, &a.shape)?;
    if let Some(at) = &a.at {
        let [level, layer, z] = parse_point("at", at)?;
        let v = subresource_json(&t, level, layer, z)?;
        if a.json {
            println!("{}", serde_json::to_string_pretty(&v)?);
        } else {
            println!(
                "level {level} layer {layer}: offset {} size {} (packed linear: offset {} size {}); z slice {z} at {}",
                v["offset"], v["size"], v["linear_offset"], v["linear_size"], v["slice_offset"]
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    if a.json {
        let mut v = texture_json(&t);
        assumed.add_json(&mut v);
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!("{t}");
        println!("assumed: {}", assumed.describe());
    }
    Ok(ExitCode::SUCCESS)
}

/// Name of the file of (level, layer) in a `--split` directory.
pub fn split_name(level: u32, layer: u32) -> String {
    format!("layer{layer}_level{level}.bin")
}

/// Where the linear side of `untile --texture` / `tile --texture` lives.
pub enum LinearSide<'a> {
    /// One packed file, layer by layer, level by level (the order DDS uses).
    File(&'a Path),
    /// One file per (level, layer) in a directory, named by [`split_name`].
    Split(&'a Path),
}

/// `nvsurf untile --texture`: the texture at `offset` in the dump `input` to the linear side.
pub fn untile_texture(
    s: &SurfaceArgs,
    shape: &TextureShapeArgs,
    input: &Path,
    offset: u64,
    out: LinearSide,
    pool: Option<&rayon::ThreadPool>,
) -> CmdResult {
    let t = build_texture(s, shape)?;
    let dump = crate::tiling::read_part(input, offset, t.size_bytes(), "texture")?;
    let linear = untile_whole(&t, &dump, pool)?;
    match out {
        LinearSide::File(p) => write_atomic(p, &linear)?,
        LinearSide::Split(dir) => {
            std::fs::create_dir_all(dir).map_err(|e| format!("cannot create '{}': {e}", dir.display()))?;
            for sub in t.subresources() {
                let a = sub.linear_offset_bytes as usize;
                write_atomic(
                    &dir.join(split_name(sub.level, sub.layer)),
                    &linear[a..a + sub.linear_size_bytes as usize],
                )?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `nvsurf tile --texture`: the linear side into a dump (zeros, or `onto`) at `offset`.
pub fn tile_texture(
    s: &SurfaceArgs,
    shape: &TextureShapeArgs,
    input: LinearSide,
    offset: u64,
    onto: Option<&Path>,
    output: &Path,
    pool: Option<&rayon::ThreadPool>,
) -> CmdResult {
    let t = build_texture(s, shape)?;
    nvsurf::error::check_span("offset + texture size", offset, t.size_bytes())?;
    // Only the bytes the texture uses are read (a longer file's tail is not held).
    let read = |p: &Path, n: u64| crate::tiling::LineAligned::read_range(p, 0, n).map(|r| r.0);
    let linear = match input {
        LinearSide::File(p) => read(p, t.linear_size_bytes())?,
        LinearSide::Split(dir) => {
            let n = usize::try_from(t.linear_size_bytes())?;
            let mut v = crate::tiling::LineAligned::zeroed("linear texture", n)?;
            for sub in t.subresources() {
                let p = dir.join(split_name(sub.level, sub.layer));
                // One byte more than the level: enough to tell a longer file.
                let b = read(&p, sub.linear_size_bytes.saturating_add(1))?;
                if b.len() as u64 != sub.linear_size_bytes {
                    let size = if b.len() as u64 > sub.linear_size_bytes { "more than" } else { "only" };
                    return Err(format!(
                        "'{}' holds {size} {} bytes but level {} of layer {} is {} bytes",
                        p.display(),
                        b.len().min(sub.linear_size_bytes as usize),
                        sub.level,
                        sub.layer,
                        sub.linear_size_bytes
                    )
                    .into());
                }
                let at = sub.linear_offset_bytes as usize;
                v[at..at + b.len()].copy_from_slice(&b);
            }
            v
        }
    };
    if (linear.len() as u64) < t.linear_size_bytes() {
        return Err(Error::BufferTooSmall {
            what: "linear texture input",
            needed: t.linear_size_bytes(),
            got: linear.len() as u64,
        }
        .into());
    }
    let end = usize::try_from(offset.checked_add(t.size_bytes()).ok_or("offset + texture size overflows")?)?;
    let offset = usize::try_from(offset)?;
    let fill = |tiled: &mut [u8]| tile_whole(&t, &linear, tiled, pool);
    match onto {
        Some(base) => crate::tiling::patch_onto(base, output, offset, end - offset, fill)?,
        None => {
            let mut dump = crate::picture::try_filled("texture dump", end, 0u8)?;
            fill(&mut dump[offset..end])?;
            write_atomic(output, &dump)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Untiles a whole texture into a new packed linear buffer: split by level and layer (and
/// within large levels) over `pool`, or on this thread when there is none (`--threads 1`).
/// With a progress bar ([`crate::tiling::progress_bar`]) the subresources go one after the
/// other, each split over `pool`, and the bar counts their bytes.
pub fn untile_whole(
    t: &Texture,
    dump: &[u8],
    pool: Option<&rayon::ThreadPool>,
) -> Result<Vec<u8>, Box<dyn std::error::Error>> {
    let bar = crate::tiling::progress_bar(t.size_bytes(), t.size_bytes(), "untile");
    if pool.is_none() && bar.is_none() {
        return Ok(t.untile_to_vec(dump)?);
    }
    // The dump is checked before the output is allocated.
    t.check_dump(dump.len() as u64)?;
    let n = usize::try_from(t.linear_size_bytes()).map_err(|_| Error::Overflow {
        what: "linear texture size",
        detail: format!("{} bytes do not fit in memory", t.linear_size_bytes()),
    })?;
    let mut out = crate::picture::try_filled("linear texture", n, 0u8)?;
    match bar {
        None => install(pool, || t.untile_parallel(dump, &mut out))?,
        Some(bar) => {
            let done = |sub: &Subresource| bar.inc(sub.size_bytes);
            install(pool, || match pool {
                None => t.untile_each(dump, &mut out, done),
                Some(_) => t.untile_each_parallel(dump, &mut out, done),
            })?;
            bar.finish_and_clear();
        }
    }
    Ok(out)
}

/// Tiles a whole texture into `dump`, over `pool` when there is one (see [`untile_whole`]).
pub fn tile_whole(
    t: &Texture,
    linear: &[u8],
    dump: &mut [u8],
    pool: Option<&rayon::ThreadPool>,
) -> Result<(), Box<dyn std::error::Error>> {
    let Some(bar) = crate::tiling::progress_bar(t.size_bytes(), t.size_bytes(), "tile") else {
        return Ok(install(pool, || match pool {
            None => t.tile(linear, dump),
            Some(_) => t.tile_parallel(linear, dump),
        })?);
    };
    // Every subresource's ranges are checked before the first is written.
    t.check_dump(dump.len() as u64)?;
    if (linear.len() as u64) < t.linear_size_bytes() {
        let got = linear.len() as u64;
        return Err(Error::BufferTooSmall { what: "linear texture input", needed: t.linear_size_bytes(), got }.into());
    }
    let done = |sub: &Subresource| bar.inc(sub.size_bytes);
    install(pool, || match pool {
        None => t.tile_each(linear, dump, done),
        Some(_) => t.tile_each_parallel(linear, dump, done),
    })?;
    bar.finish_and_clear();
    Ok(())
}

/// Runs `f` in `pool`, or here.
fn install<R: Send>(pool: Option<&rayon::ThreadPool>, f: impl FnOnce() -> R + Send) -> R {
    match pool {
        None => f(),
        Some(p) => p.install(f),
    }
}

/// `--input` and `--output` of a plain (non-texture) `tile`/`untile`; clap requires both unless
/// `--split` is given, and `--split` requires `--texture`.
pub fn plain_paths(a: &TilingArgs) -> Result<(PathBuf, PathBuf), Error> {
    let need = |p: &Option<PathBuf>, field: &'static str| {
        p.clone().ok_or_else(|| unsupported(field, "(none)", "give --input FILE and --output FILE"))
    };
    Ok((need(&a.input, "input")?, need(&a.output, "output")?))
}

fn check_texture_flags(a: &TilingArgs) -> Result<(), Error> {
    let off = |what: &'static str| {
        unsupported(what, "with --texture", "applies to a single surface: add --subresource LEVEL,LAYER")
    };
    if a.region.is_some() {
        return Err(off("box"));
    }
    if a.linear_pitch.is_some() {
        return Err(off("linear-pitch"));
    }
    Ok(())
}

/// Runs `nvsurf untile --texture`.
pub fn run_untile_texture(a: &TilingArgs, pool: Option<&rayon::ThreadPool>) -> CmdResult {
    check_texture_flags(a)?;
    let input = a.input.as_deref().ok_or_else(|| unsupported("input", "(none)", "give --input DUMP"))?;
    let out = match (&a.split, &a.output) {
        (Some(d), _) => LinearSide::Split(d),
        (None, Some(o)) => LinearSide::File(o),
        (None, None) => return Err(unsupported("output", "(none)", "give --output FILE or --split DIR").into()),
    };
    untile_texture(&a.surface, &a.tex, input, crate::surface_args::parse_offset("offset", &a.offset)?, out, pool)
}

/// Runs `nvsurf tile --texture`.
pub fn run_tile_texture(a: &TilingArgs, pool: Option<&rayon::ThreadPool>) -> CmdResult {
    check_texture_flags(a)?;
    let output = a.output.as_deref().ok_or_else(|| unsupported("output", "(none)", "give --output DUMP"))?;
    let input = match (&a.split, &a.input) {
        (Some(d), _) => LinearSide::Split(d),
        (None, Some(i)) => LinearSide::File(i),
        (None, None) => return Err(unsupported("input", "(none)", "give --input FILE or --split DIR").into()),
    };
    tile_texture(
        &a.surface,
        &a.tex,
        input,
        crate::surface_args::parse_offset("offset", &a.offset)?,
        a.onto.as_deref(),
        output,
        pool,
    )
}
