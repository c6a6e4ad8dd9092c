//! The flags of `tile`/`untile`, parsed and validated once into a [`Job`]: the surface or
//! texture (built once, with what it assumed), the format, the box and linear layout, the
//! offset, the worker pool, and which file is the tiled side and what the linear side is (raw
//! bytes, a picture, or a split directory). Every check a flag needs happens here, before any
//! file is read, so each mistake gets one message.

use super::args::CopyArgs;
use crate::picture::PicKind;
use crate::surface_args::{parse_list, parse_offset, parse_size, parse_u64, Assumed};
use nvsurf::extent::{Extent, Texels};
use nvsurf::format::Format;
use nvsurf::layout::Surface;
use nvsurf::texture::Texture;
use nvsurf::tile::{LinearLayout, Region};
use nvsurf::Error;
use std::path::{Path, PathBuf};

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// Which way the bytes go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Tiled dump -> linear side.
    Untile,
    /// Linear side -> tiled dump.
    Tile,
}

/// One surface to copy: a plain surface, or one subresource of a texture.
pub struct SurfaceJob {
    /// The surface (at address 0).
    pub surface: Surface,
    /// Byte offset of the surface in the tiled file: --offset, plus the subresource's offset in
    /// the texture with --subresource.
    pub offset: usize,
    /// `offset` + the surface's size.
    pub end: usize,
    /// Width, height, depth in pixels of the whole surface, for a picture on the linear side:
    /// --size, or the level's texels.
    pub picture_px: [u32; 3],
    /// Bytes of a new tiled file (`tile` without --onto): the surface's end, or with
    /// --subresource the whole texture's end (its other subresources zero).
    pub file_bytes: usize,
    /// The box (the whole surface without --box).
    pub region: Region,
    /// Whether --box was given (only its window is read or patched).
    pub boxed: bool,
    /// The linear image's layout.
    pub lin: LinearLayout,
    /// Bytes of the linear image the copy touches (the plan's span).
    pub span: usize,
    /// (level, layer) of `--subresource`, (0, 0) without it: how an encode's PSNR is labelled.
    pub at: (u32, u32),
    /// Whether the surface is one subresource of a texture (`--texture --subresource`).
    pub in_texture: bool,
}

/// What is copied.
pub enum Shape {
    /// One surface.
    Surface(SurfaceJob),
    /// A whole texture, at `Job::offset`.
    Texture(Texture),
}

/// The linear side of the copy.
pub enum LinearSide {
    /// Raw linear elements in a file.
    Raw(PathBuf),
    /// A picture (PNG, EXR, DDS, KTX2) of the job's format.
    Picture(PathBuf, PicKind),
    /// With --texture: one file per level and layer in a directory, raw or PNG.
    Split(PathBuf, SplitKind),
}

/// What the files of a `--split` directory are (`--output-format` / `--input-format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SplitKind {
    /// Raw linear elements, `layer<L>_level<M>.bin` (the default).
    Raw,
    /// One PNG per level and layer, `layer<L>_level<M>.png`.
    Png,
}

impl SplitKind {
    /// The files' extension, without the dot.
    pub fn ext(self) -> &'static str {
        match self {
            SplitKind::Raw => "bin",
            SplitKind::Png => "png",
        }
    }
}

impl LinearSide {
    /// Whether the linear side is made of pictures (one, or a `--split` directory of PNGs).
    pub fn is_picture(&self) -> bool {
        matches!(self, LinearSide::Picture(..) | LinearSide::Split(_, SplitKind::Png))
    }
}

/// A validated `tile`/`untile`.
pub struct Job<'a> {
    /// Which way.
    pub direction: Direction,
    /// `tile --onto`.
    pub onto: Option<&'a Path>,
    /// `tile --onto FILE --in-place`: FILE is patched where it lies, under an undo journal.
    pub in_place: bool,
    /// The surface or texture.
    pub shape: Shape,
    /// The tiled file: untile's --input, tile's --output.
    pub tiled: PathBuf,
    /// The linear side: untile's --output (or --split), tile's --input (or --split).
    pub linear: LinearSide,
    /// --offset.
    pub offset: u64,
    /// --format, parsed once (required for a picture).
    pub format: Option<Format>,
    /// The worker pool (`None`: this thread).
    pub pool: Option<rayon::ThreadPool>,
    /// What the layout flags left to the platform's defaults.
    pub assumed: Assumed,
    /// How hard a PNG output is compressed.
    pub png_compression: crate::picture::png_stream::PngCompression,
    /// INDEX8 to a picture: the palette (`untile --palette`).
    pub palette: Option<nvsurf::format::Palette>,
    /// `tile`: how pictures are encoded to block-compressed formats (`--bc-quality`), and the
    /// PSNR of what was encoded.
    pub encoding: crate::picture::Encoding,
    /// `tile --generate-mips`: which levels are rebuilt, and from which.
    pub mips: Option<super::mip_plan::MipPlan>,
}

fn unsupported(field: &'static str, value: impl Into<String>, rule: impl Into<String>) -> Error {
    Error::Unsupported { field, value: value.into(), rule: rule.into() }
}

impl<'a> Job<'a> {
    /// Parses and checks every flag; builds the surface or texture once.
    /// `patch`: `--onto`, `--in-place` and `--generate-mips` (`tile`'s; `untile` has none).
    pub fn new(a: &'a CopyArgs, patch: (Option<&'a Path>, bool, bool), direction: Direction) -> Res<Job<'a>> {
        let (onto, in_place, _) = patch;
        a.memory.apply();
        let threads = crate::threads::check_threads(a.threads.threads)?;
        let offset = parse_offset("offset", &a.offset)?;
        let format = a.surface.format()?;
        let whole_texture = a.texture && a.subresource.is_none();
        let (tiled, linear) = paths(a, direction, whole_texture)?;
        let flag = match direction {
            Direction::Untile => ("output-format", a.output_format.as_deref()),
            Direction::Tile => ("input-format", a.input_format.as_deref()),
        };
        let linear = linear_side(a, linear, whole_texture, format.as_ref(), flag, direction)?;
        let (shape, assumed) = if whole_texture {
            for (set, what) in [(a.region.is_some(), "box"), (a.linear_pitch.is_some(), "linear-pitch")] {
                if set {
                    return Err(unsupported(
                        what,
                        "with --texture",
                        "applies to a single surface: add --subresource LEVEL,LAYER",
                    )
                    .into());
                }
            }
            let (t, assumed) = crate::texture::build_texture_assumed(&a.surface, &a.tex)?;
            nvsurf::error::check_span("offset + texture size", offset, t.size_bytes())?;
            (Shape::Texture(t), assumed)
        } else {
            let (placed, assumed) = place(a, offset)?;
            (Shape::Surface(surface_job(a, placed)?), assumed)
        };
        // A short input first (no budget would help), then the budget, then the output's room.
        check_input_len(direction, &tiled, &linear, &shape, offset)?;
        let streamed = streams_bands((direction, patch), &shape, (&tiled, &linear), format.as_ref());
        check_memory(a.memory.max_memory, &shape, &linear, streamed)?;
        check_output_space(direction, &tiled, onto, &linear, &shape, offset)?;
        // The threads start last, once every flag has been checked.
        let pool = crate::threads::pool(threads)?;
        Ok(Job {
            direction,
            onto,
            in_place,
            shape,
            tiled,
            linear,
            offset,
            format,
            pool,
            assumed,
            png_compression: Default::default(),
            palette: None,
            encoding: Default::default(),
            mips: None,
        })
    }

    /// The summary line: what was written, and what was assumed about the layout.
    pub fn summary(&self) -> String {
        let verb = match self.direction {
            Direction::Untile => "untile",
            Direction::Tile => "tile",
        };
        let out = match (self.direction, &self.linear, &self.shape) {
            (Direction::Tile, LinearSide::Split(d, kind), Shape::Texture(t)) => {
                format!("'{}' from '{}' ({})", self.tiled.display(), d.display(), self.split_words(t, *kind))
            }
            (Direction::Tile, ..) => format!("'{}'", self.tiled.display()),
            (Direction::Untile, LinearSide::Split(d, kind), Shape::Texture(t)) => {
                format!("'{}' ({})", d.display(), self.split_words(t, *kind))
            }
            (Direction::Untile, LinearSide::Split(p, _) | LinearSide::Raw(p) | LinearSide::Picture(p, _), _) => {
                format!("'{}'", p.display())
            }
        };
        let mips = self.mips.as_ref().map(|m| m.describe()).unwrap_or_default();
        let zeroed = match &self.shape {
            Shape::Surface(sj) if sj.in_texture && self.direction == Direction::Tile && self.onto.is_none() => {
                "; other subresources zeroed (no --onto)"
            }
            _ => "",
        };
        format!("{verb}: wrote {out} for {}: {}{mips}{zeroed}", self.assumed.platform.name(), self.assumed.describe())
    }

    /// The summary as JSON: `command`, `output`, `platform`, `assumed` (the summary line's
    /// facts), `format` (when given), `size_bytes` (the tiled surface's or texture's bytes),
    /// `linear_size_bytes` (its packed linear bytes), and the encoding's `bc_quality` and `levels` (each
    /// `level`, `layer`, `psnr_db`; see [`crate::picture::Encoding`]).
    pub fn summary_json(&self) -> serde_json::Value {
        let verb = match self.direction {
            Direction::Untile => "untile",
            Direction::Tile => "tile",
        };
        let out = match (self.direction, &self.linear) {
            (Direction::Tile, _) => &self.tiled,
            (Direction::Untile, LinearSide::Split(p, _) | LinearSide::Raw(p) | LinearSide::Picture(p, _)) => p,
        };
        let mut v = serde_json::json!({
            "command": verb,
            "output": out.display().to_string(),
            "platform": self.assumed.platform.name(),
            "assumed": self.assumed.describe(),
            "format": self.format.map(|f| f.name()),
        });
        let (size, linear) = match &self.shape {
            Shape::Texture(t) => (t.size_bytes(), t.linear_size_bytes()),
            Shape::Surface(sj) => {
                let r = sj.region;
                let elems = [r.w, r.h, r.d, sj.surface.elem_size_bytes()].map(u64::from);
                (sj.surface.size_bytes(), elems.iter().fold(1u64, |a, &b| a.saturating_mul(b)))
            }
        };
        v["size_bytes"] = serde_json::json!(size);
        v["linear_size_bytes"] = serde_json::json!(linear);
        self.encoding.add_json(&mut v);
        v
    }

    /// What a `--split` directory holds, for the summary: `split: 6 PNG files,
    /// layer<L>_level<M>.png; 256x256 px, 3 levels, 6 layers (cube faces)`.
    fn split_words(&self, t: &Texture, kind: SplitKind) -> String {
        let n = u64::from(t.level_count()) * u64::from(t.layer_count());
        let names = format!("layer<L>_level<M>.{}", kind.ext());
        let files = match kind {
            SplitKind::Raw => format!("{n} raw .bin files, {names}"),
            SplitKind::Png if self.format.as_ref().is_some_and(crate::picture::has_stencil_picture) => {
                format!("{} PNG files, {names} and .stencil.png", 2 * n)
            }
            SplitKind::Png => format!("{n} PNG files, {names}"),
        };
        format!("split: {files}; {}", super::shape::texture_words(t))
    }

    /// The format of a picture on the linear side (checked when the job was built).
    pub fn picture_format(&self) -> Res<Format> {
        Ok(self.format.ok_or("a picture needs --format")?)
    }

    /// Whether the surface's linear image is packed rows (pictures always are; a raw file
    /// may have --linear-pitch).
    pub fn lin_is_packed(&self, sj: &SurfaceJob) -> bool {
        sj.lin == LinearLayout::packed(&sj.region, sj.surface.elem_size_bytes())
    }

    /// Runs `f` in the pool, or here.
    pub fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        crate::threads::install(self.pool.as_ref(), f)
    }
}

/// The tiled file and the linear side's path, by direction; clap requires --input and
/// --output unless --split is given, and --split requires --texture.
fn paths(a: &CopyArgs, dir: Direction, whole_texture: bool) -> Res<(PathBuf, Option<PathBuf>)> {
    let need = |p: &Option<PathBuf>, field: &'static str, rule: &'static str| {
        p.clone().ok_or_else(|| unsupported(field, "(none)", rule))
    };
    let (input, output) = (dash(&a.input, true), dash(&a.output, false));
    if !whole_texture {
        let rule = "give --input FILE and --output FILE";
        let (i, o) = (need(&input, "input", rule)?, need(&output, "output", rule)?);
        return Ok(match dir {
            Direction::Untile => (i, Some(o)),
            Direction::Tile => (o, Some(i)),
        });
    }
    Ok(match dir {
        Direction::Untile => {
            let i = need(&input, "input", "give --input DUMP")?;
            if a.split.is_none() && output.is_none() {
                return Err(unsupported("output", "(none)", "give --output FILE or --split DIR").into());
            }
            (i, output.clone().filter(|_| a.split.is_none()))
        }
        Direction::Tile => {
            let o = need(&output, "output", "give --output DUMP")?;
            if a.split.is_none() && input.is_none() {
                return Err(unsupported("input", "(none)", "give --input FILE or --split DIR").into());
            }
            (o, input.clone().filter(|_| a.split.is_none()))
        }
    })
}

/// The linear side: a split directory, a picture (its format checked now), or raw bytes.
fn linear_side(
    a: &CopyArgs,
    path: Option<PathBuf>,
    whole_texture: bool,
    format: Option<&Format>,
    (flag, kind_flag): (&'static str, Option<&str>),
    direction: Direction,
) -> Res<LinearSide> {
    let Some(path) = path else {
        // `paths` returns no linear path only with --split.
        let dir = a.split.clone().ok_or("--split DIR is missing")?;
        return Ok(LinearSide::Split(dir, split_kind(flag, kind_flag, format, direction)?));
    };
    let kind = match kind_flag {
        Some(k) => PicKind::parse_flag(flag, k)?,
        None if is_std(&path) => None,
        None => PicKind::of_linear_side(&path)?,
    };
    let Some(kind) = kind else {
        return Ok(LinearSide::Raw(path));
    };
    if whole_texture && !kind.holds_texture() {
        return Err(unsupported("texture", path.display().to_string(), whole_texture_rule(kind, direction)).into());
    }
    if a.linear_pitch.is_some() {
        return Err(
            unsupported("linear-pitch", "with a picture", "pictures hold packed rows; drop --linear-pitch").into()
        );
    }
    if format.is_none() {
        return Err(unsupported(
            "format",
            "(none)",
            format!(
                "'{}' is a picture: give --format F (instead of --elem-size) to convert its pixels",
                path.display()
            ),
        )
        .into());
    }
    Ok(LinearSide::Picture(path, kind))
}

/// Why a whole texture cannot go to (or come from) a picture of `kind` (PNG, EXR), and what
/// can: one level of one layer, or with PNG a `--split` directory of them.
fn whole_texture_rule(kind: PicKind, direction: Direction) -> String {
    let (way, flag) = match direction {
        Direction::Untile => ("goes to", "output-format"),
        Direction::Tile => ("comes from", "input-format"),
    };
    let split = match kind {
        PicKind::Png => format!(" or --split DIR --{flag} png (one PNG per level and layer)"),
        _ => String::new(),
    };
    format!(
        "a whole texture {way} .dds or .ktx2; for {} give --subresource LEVEL,LAYER (one level of one layer){split}",
        kind.name()
    )
}

/// The files of a `--split` directory: raw (`bin`, the default) or `png` (which needs
/// --format, as any picture does).
fn split_kind(flag: &'static str, kind: Option<&str>, format: Option<&Format>, direction: Direction) -> Res<SplitKind> {
    let Some(k) = kind else { return Ok(SplitKind::Raw) };
    let verb = if direction == Direction::Untile { "writes" } else { "reads" };
    match PicKind::parse_flag(flag, k)? {
        None => Ok(SplitKind::Raw),
        Some(PicKind::Png) if format.is_none() => Err(unsupported(
            "format",
            "(none)",
            format!("--split with --{flag} png {verb} pictures: give --format F (instead of --elem-size)"),
        )
        .into()),
        Some(PicKind::Png) => Ok(SplitKind::Png),
        Some(_) => {
            Err(unsupported(flag, k, format!("--split {verb} raw (bin) or png files, one per level and layer")).into())
        }
    }
}

/// Whether `path` is one of the standard streams `-` stands for.
fn is_std(path: &Path) -> bool {
    path == Path::new("/dev/stdin") || path == Path::new("/dev/stdout")
}

/// `-` as the standard stream of its direction: stdin for an input, stdout for an output.
fn dash(p: &Option<PathBuf>, input: bool) -> Option<PathBuf> {
    p.as_ref().map(|p| match (p.as_os_str() == "-", input) {
        (true, true) => PathBuf::from("/dev/stdin"),
        (true, false) => PathBuf::from("/dev/stdout"),
        (false, _) => p.clone(),
    })
}

/// The surface of a plain `tile`/`untile` (the surface flags) or of `--texture --subresource
/// LEVEL,LAYER` (that level of that layer), where it is, and what was assumed.
struct Placed {
    surface: Surface,
    offset: usize,
    picture_px: [u32; 3],
    file_bytes: usize,
    at: (u32, u32),
    in_texture: bool,
}

fn place(a: &CopyArgs, offset: u64) -> Res<(Placed, Assumed)> {
    let Some(sel) = &a.subresource else {
        let (surface, assumed) = a.surface.surface_assumed()?;
        nvsurf::error::check_span("offset + surface size", offset, surface.size_bytes())?;
        let offset = usize::try_from(offset)?;
        // A multisampled surface's linear side is its sample grid, one element per sample.
        let picture_px = match a.surface.samples {
            Some(n) if n > 1 => surface.size().to_array(),
            _ => parse_size(&a.surface.size)?,
        };
        let file_bytes = tiled_end(offset, &surface)?;
        return Ok((Placed { surface, offset, picture_px, file_bytes, at: (0, 0), in_texture: false }, assumed));
    };
    let [level, layer] = parse_list::<2>("subresource", sel)?;
    let (t, assumed) = crate::texture::build_texture_assumed(&a.surface, &a.tex)?;
    let sub = crate::texture::subresource_of(&t, "subresource", level, layer)?;
    let surface = sub.surface.ok_or_else(|| {
        unsupported("subresource", sel.clone(), "a BUFFER texture has no layout: its bytes are already linear")
    })?;
    nvsurf::error::check_span("offset + texture size", offset, t.size_bytes())?;
    // Within 2^40 (checked above), so within usize on the 64-bit hosts the CLI builds for.
    let at = |what: &str, n: u64| {
        offset
            .checked_add(n)
            .and_then(|v| usize::try_from(v).ok())
            .ok_or_else(|| format!("--offset {offset} + {what} {n} overflows"))
    };
    let placed = Placed {
        surface,
        offset: at("subresource offset", sub.offset_bytes)?,
        picture_px: match t.samples() {
            1 => t.level(level)?.texels.to_array(),
            _ => t.level(level)?.elements.to_array(),
        },
        file_bytes: at("texture size", t.size_bytes())?,
        at: (level, layer),
        in_texture: true,
    };
    Ok((placed, assumed))
}

/// The box, linear layout and plan span of a placed surface, checked before any buffer exists.
fn surface_job(a: &CopyArgs, p: Placed) -> Res<SurfaceJob> {
    let s = p.surface;
    let region = match &a.region {
        None => Region::whole(&s),
        Some(b) => {
            let [x, y, z, w, h, d] = parse_list::<6>("box", b)?;
            Region::new([x, y, z], [w, h, d])
        }
    };
    let lin = match &a.linear_pitch {
        None => LinearLayout::packed(&region, s.elem_size_bytes()),
        Some(pitch) => LinearLayout::with_row_pitch(&region, parse_u64("linear-pitch", pitch)?),
    };
    // The last row need not be padded to the pitch: the plan's span is what must be there.
    let span = lin.span_bytes(&s, &region)?;
    let end = tiled_end(p.offset, &s)?;
    Ok(SurfaceJob {
        surface: s,
        offset: p.offset,
        end,
        picture_px: p.picture_px,
        file_bytes: p.file_bytes,
        region,
        boxed: a.region.is_some(),
        lin,
        span,
        at: p.at,
        in_texture: p.in_texture,
    })
}

/// `offset + size` of the surface inside a tiled file, checked.
fn tiled_end(offset: usize, s: &Surface) -> Res<usize> {
    usize::try_from(s.size_bytes())
        .ok()
        .and_then(|n| n.checked_add(offset))
        .ok_or_else(|| format!("offset {offset} + surface size {} overflows", s.size_bytes()).into())
}

/// The memory budget: `--max-memory`, or half the physical memory ([`crate::memory::resolve`],
/// the one place every command resolves it; unknown: no limit).
pub fn memory_budget(max_memory: Option<u64>) -> Option<u64> {
    Some(crate::memory::resolve(max_memory)).filter(|l| *l != nvsurf::Limits::NONE).map(|l| l.max_bytes)
}

/// Refuses a copy whose buffers (what it reads and what it builds, held at once) exceed the
/// budget, before anything is allocated: Linux's overcommit would otherwise let the allocation
/// succeed and the process die later.
fn check_memory(max: Option<u64>, shape: &Shape, linear: &LinearSide, streamed: bool) -> Res<()> {
    let Some(budget) = memory_budget(max) else { return Ok(()) };
    let picture = matches!(linear, LinearSide::Picture(..));
    let need = match shape {
        Shape::Surface(sj) => {
            let tiled = (sj.end - sj.offset) as u64;
            let lin = sj.lin.image_bytes(&sj.region).unwrap_or(u64::MAX);
            // A PNG streams its side; other pictures are built whole (and converted once more).
            let lin = if picture { lin.saturating_mul(2) } else { lin };
            // Both directions hold the surface's tiled bytes and its linear image; a streamed
            // copy holds bands of about 8 MiB, their windows and the PNG coder's buffers
            // (`copy/stream.rs`), or less for a small surface.
            let whole = tiled.saturating_add(lin);
            if streamed {
                whole.min(STREAMED_WORKING_SET_BYTES)
            } else {
                whole
            }
        }
        // `untile --texture` to raw or a DDS streams (`copy/texture_stream.rs`).
        Shape::Texture(t) if streamed => {
            t.size_bytes().saturating_add(t.linear_size_bytes()).min(STREAMED_WORKING_SET_BYTES)
        }
        Shape::Texture(t) => t.size_bytes().saturating_add(t.linear_size_bytes()),
    };
    if need > budget {
        return Err(format!(
            "max-memory {budget} bytes is less than the {need} bytes this copy holds at once (input and output); \
             give --max-memory BYTES to allow more"
        )
        .into());
    }
    Ok(())
}

/// What a streamed copy holds at most, whatever the surface's size: a band of linear rows
/// (8 MiB, or one block row more), its window, and the PNG coder's rows (measured: 23 MiB for
/// raw and 33-45 MiB for PNG of a 256 MiB surface, `docs/perf/issue39-streaming.md`).
const STREAMED_WORKING_SET_BYTES: u64 = 64 << 20;

/// Whether a single surface's copy runs band by band (`copy/stream.rs`): a blocklinear or
/// pitch surface, no box, rows packed, raw or PNG on the linear side, and for `tile` a new
/// file of one surface or a copy of `--onto` (`patched`) from a raw image, not `--in-place`
/// (a texture's subresource may grow mips), and a regular input file.
fn streams_bands(
    (direction, (onto, in_place, mips)): (Direction, (Option<&Path>, bool, bool)),
    shape: &Shape,
    (tiled, linear): (&Path, &LinearSide),
    format: Option<&Format>,
) -> bool {
    let sj = match shape {
        Shape::Surface(sj) => sj,
        Shape::Texture(_) if direction == Direction::Untile => return texture_streams(tiled, linear, format),
        // `tile --texture` from a raw file or a DDS as it is (`copy/texture_stream.rs`).
        Shape::Texture(t) => {
            let raw_like = match linear {
                LinearSide::Raw(p) => regular_len(p).is_some(),
                LinearSide::Picture(p, crate::picture::PicKind::Dds) => format.is_some_and(|f| {
                    let want = super::shape::dds_shape(t, ());
                    matches!(crate::picture::dds_texture_offset(p, f, &want), Ok(Some(_)))
                }),
                LinearSide::Picture(p, crate::picture::PicKind::Ktx2(_)) => format.is_some_and(|f| {
                    let want = super::shape::dds_shape(t, ());
                    matches!(crate::picture::ktx2_plain_offsets(p, f, &want), Ok(Some(_)))
                }),
                _ => false,
            };
            return raw_like && !in_place && !mips;
        }
    };
    let patched = onto.is_some();
    // A DDS or plain KTX2 file that stores the surface's elements as they are is read as a raw
    // image.
    let plain_dds = |p: &Path| {
        format.is_some_and(|f| {
            let want = region_extent(f, sj.picture_px, &sj.region);
            matches!(crate::picture::dds_stream_offset(p, f, want), Ok(Some(_)))
        })
    };
    let plain_ktx2 = |p: &Path| {
        format.is_some_and(|f| {
            let extent = region_extent(f, sj.picture_px, &sj.region);
            let want = crate::picture::DdsTexture { extent, levels: 1, layers: 1, cube: false, data: () };
            matches!(crate::picture::ktx2_plain_offsets(p, f, &want), Ok(Some(_)))
        })
    };
    // Positioned reads: the input is a regular file (a PNG is read by its own reader).
    let input_ok = match (direction, linear) {
        (Direction::Untile, _) => regular_len(tiled).is_some(),
        (Direction::Tile, LinearSide::Raw(p)) => regular_len(p).is_some(),
        (Direction::Tile, _) => true,
    };
    let linear_ok = match linear {
        LinearSide::Raw(_) | LinearSide::Picture(_, crate::picture::PicKind::Png) => true,
        LinearSide::Picture(p, crate::picture::PicKind::Dds) if direction == Direction::Tile => plain_dds(p),
        LinearSide::Picture(p, crate::picture::PicKind::Ktx2(_)) if direction == Direction::Tile => plain_ktx2(p),
        // `untile` to a DDS or KTX2 file storing the elements as they are.
        LinearSide::Picture(_, crate::picture::PicKind::Dds) => {
            format.is_some_and(|f| crate::picture::dxgi_of(f).is_some())
        }
        LinearSide::Picture(_, crate::picture::PicKind::Ktx2(_)) if direction == Direction::Untile => {
            format.is_some_and(|f| crate::picture::vk_of(f).is_some())
        }
        _ => false,
    };
    let packed = sj.lin == LinearLayout::packed(&sj.region, sj.surface.elem_size_bytes());
    let layout_ok = !matches!(sj.surface, nvsurf::layout::Surface::Swizzled(_));
    // A new file, or a copy of `--onto` patched band by band from a raw image (not in place,
    // under a journal; not a texture's subresource, which may grow mips).
    let raw_like = matches!(linear, LinearSide::Raw(_) | LinearSide::Picture(_, crate::picture::PicKind::Dds));
    let new_file = direction == Direction::Untile || !sj.in_texture && (!patched || !in_place && raw_like);
    input_ok && linear_ok && packed && layout_ok && !sj.boxed && new_file
}

// What `tile` and `untile` check about their files before anything is read or allocated, in
// the order that gives the right advice first: a regular input too short for what the flags
// declare (no budget would help), then the memory budget ([`check_memory`]), then the output's
// free space.

/// The picture's extent in pixels for `region` (in elements) of a surface of `surface_px`
/// pixels (`--size`, or the level's with `--subresource`).
pub(super) fn region_extent(f: &Format, surface_px: [u32; 3], region: &Region) -> Extent<Texels> {
    let [pw, ph, _] = surface_px;
    // Whole blocks from the region's first texel, clipped to the picture's right and bottom.
    let (first, full) = (region.origin().to_texels(f), region.extent().to_texels(f));
    let left = |total: u32, start: u32| total.saturating_sub(start);
    Extent::new(full.width.min(left(pw, first.x)), full.height.min(left(ph, first.y)), region.d)
}

/// Whether `untile --texture` of `t` streams (`copy/texture_stream.rs`): `f` is the
/// picture's format where the output is a picture.
pub(super) fn texture_streams(tiled: &Path, linear: &LinearSide, f: Option<&nvsurf::format::Format>) -> bool {
    let regular = std::fs::metadata(tiled).is_ok_and(|m| m.is_file());
    let out_ok = match linear {
        LinearSide::Raw(_) => true,
        LinearSide::Picture(_, crate::picture::PicKind::Dds) => f.is_some_and(|f| crate::picture::dxgi_of(f).is_some()),
        LinearSide::Picture(_, crate::picture::PicKind::Ktx2(_)) => {
            f.is_some_and(|f| crate::picture::vk_of(f).is_some())
        }
        _ => false,
    };
    regular && out_ok
}

/// The length of `path` when it is a regular file (pipes, FIFOs and devices have none).
fn regular_len(path: &Path) -> Option<u64> {
    std::fs::metadata(path).ok().filter(|m| m.is_file()).map(|m| m.len())
}

/// Refuses a regular input shorter than the surface or texture the flags declare (`untile`: the
/// dump at `offset`; `tile`: a surface's raw linear rows), with the line the reader would give
/// after reading. A whole texture's linear input is left to the reader (with
/// `--generate-mips` it may hold level 0 only).
fn check_input_len(direction: Direction, tiled: &Path, linear: &LinearSide, shape: &Shape, offset: u64) -> Res<()> {
    match (direction, shape) {
        (Direction::Untile, Shape::Surface(sj)) => {
            let need = sj.end as u64;
            match regular_len(tiled) {
                Some(len) if len < need => Err(format!(
                    "input '{}' holds {len} bytes but {need} bytes are expected (surface of {} bytes at offset {})",
                    tiled.display(),
                    sj.surface.size_bytes(),
                    sj.offset
                )
                .into()),
                _ => Ok(()),
            }
        }
        (Direction::Untile, Shape::Texture(t)) => {
            let need = offset.checked_add(t.size_bytes()).ok_or("offset + texture size overflows")?;
            match regular_len(tiled) {
                Some(len) if len < need => Err(format!(
                    "input '{}' holds {len} bytes but the texture needs {} bytes at offset {offset}",
                    tiled.display(),
                    t.size_bytes()
                )
                .into()),
                _ => Ok(()),
            }
        }
        (Direction::Tile, Shape::Surface(sj)) => match linear {
            LinearSide::Raw(p) if regular_len(p).is_some_and(|len| len < sj.span as u64) => Err(format!(
                "input '{}' holds {} bytes but {} bytes are expected ({} rows x {} slices of the linear image)",
                p.display(),
                regular_len(p).unwrap_or(0),
                sj.span,
                sj.region.h,
                sj.region.d
            )
            .into()),
            _ => Ok(()),
        },
        (Direction::Tile, Shape::Texture(_)) => Ok(()),
    }
}

/// Refuses an output whose filesystem has less free space than the output takes: `untile`'s raw
/// linear file or split directory, `tile`'s tiled file (not when it patches `--onto` in place).
/// Pictures are compressed to a size not known before: they are not checked.
fn check_output_space(
    direction: Direction,
    tiled: &Path,
    onto: Option<&Path>,
    linear: &LinearSide,
    shape: &Shape,
    offset: u64,
) -> Res<()> {
    let check = crate::io::check_free_space;
    match direction {
        Direction::Untile => {
            let need = match shape {
                Shape::Surface(sj) => sj.lin.image_bytes(&sj.region).unwrap_or(u64::MAX),
                Shape::Texture(t) => t.linear_size_bytes(),
            };
            match linear {
                LinearSide::Raw(p) => check(p, false, need)?,
                LinearSide::Split(dir, SplitKind::Raw) => check(dir, true, need)?,
                _ => {}
            }
        }
        Direction::Tile => {
            if onto.is_some_and(|o| crate::io::files::same_file(o, tiled)) {
                return Ok(());
            }
            let need = match shape {
                Shape::Surface(sj) => sj.file_bytes as u64,
                Shape::Texture(t) => offset.saturating_add(t.size_bytes()),
            };
            check(tiled, false, need)?;
        }
    }
    Ok(())
}
