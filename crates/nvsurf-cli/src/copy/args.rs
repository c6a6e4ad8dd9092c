//! The flags of `tile` and `untile`: [`CopyArgs`] shared, [`UntileArgs`] and [`TileArgs`]
//! (which adds `--onto`) their own, so that each command's `--help` offers only its flags.

use crate::surface_args::SurfaceArgs;
use std::path::PathBuf;

/// The flags `tile` and `untile` share.
#[derive(clap::Args)]
pub struct CopyArgs {
    #[command(flatten)]
    pub surface: SurfaceArgs,
    /// Input file (untile: the tiled dump; tile: the linear rows, a picture or, with --texture,
    /// the packed linear texture, a .dds or a .ktx2: these two bring their format, size,
    /// levels, layers and type, so those flags may be left out); `-` is stdin. Not needed by `tile --texture --split DIR`.
    #[arg(long, required_unless_present = "split")]
    pub input: Option<PathBuf>,
    /// Output file (replaced atomically if it exists); `-` is stdout. Not needed by
    /// `untile --texture --split DIR`.
    #[arg(long, required_unless_present = "split")]
    pub output: Option<PathBuf>,
    /// A whole texture (levels and layers, see `nvsurf texture`): --size is level 0 in texels,
    /// the linear side is packed layer by layer, level by level (the order DDS uses).
    #[arg(long)]
    pub texture: bool,
    #[command(flatten)]
    pub tex: crate::texture::TextureShapeArgs,
    /// With --texture: the linear side is one file per level and layer in DIR, instead of
    /// --output (untile) or --input (tile): raw elements, layer<L>_level<M>.bin (the default), or
    /// with --output-format png (untile) / --input-format png (tile) PNGs, layer<L>_level<M>.png
    /// (needs --format). The summary line says how many files of which kind.
    #[arg(long, value_name = "DIR", requires = "texture")]
    pub split: Option<PathBuf>,
    /// With --texture: only this mip level of this layer (cube faces count as layers), as a
    /// single surface at its place in the dump: --box, --linear-pitch and PNG/EXR/DDS pictures
    /// apply to it as to any surface. `tile` keeps the rest of --onto, or zeros the rest of the
    /// texture.
    #[arg(long, value_name = "LEVEL,LAYER", requires = "texture", conflicts_with = "split")]
    pub subresource: Option<String>,
    /// Bytes between rows of the linear file (default: tightly packed).
    #[arg(long = "linear-pitch", value_name = "BYTES")]
    pub linear_pitch: Option<String>,
    /// Only this box of elements: X,Y,Z,W,H,D (the linear file holds just the box; of the tiled
    /// file, untile and tile --onto hold only the blocks, row segments or swizzled square that
    /// the box needs, and read only those from a regular file).
    #[arg(long = "box", value_name = "X,Y,Z,W,H,D")]
    pub region: Option<String>,
    #[command(flatten)]
    pub threads: crate::threads::ThreadsArg,
    #[command(flatten)]
    pub memory: crate::memory::MaxMemoryArg,
    /// What the linear side read from `--input -` (stdin) is: png, exr, dds, ktx2 or raw
    /// (default); for a named file it overrides the extension.
    #[arg(long = "input-format", value_name = "png|exr|dds|ktx2|raw")]
    pub input_format: Option<String>,
    /// What the linear side written to `--output -` (stdout) is: png, exr, dds, ktx2 or raw
    /// (default); for a named file it overrides the extension.
    #[arg(long = "output-format", value_name = "png|exr|dds|ktx2|raw")]
    pub output_format: Option<String>,
    /// Byte offset of the surface inside the tiled file (untile: in --input; tile: in --onto).
    #[arg(long = "offset", value_name = "BYTES", default_value = "0")]
    pub offset: String,
}

/// Arguments of `nvsurf untile`.
#[derive(clap::Args)]
pub struct UntileArgs {
    #[command(flatten)]
    pub copy: CopyArgs,
    /// PNG compression: fast (default; about the untile's own speed), default or best.
    #[arg(long = "png-compression", value_name = "fast|default|best", default_value = "fast")]
    pub png_compression: String,
    /// A .ktx2 output's levels zstd-supercompressed at this level (1-22; 3 is zstd's default);
    /// without it the levels are stored as they are.
    #[arg(long = "ktx2-zstd", value_name = "LEVEL", allow_hyphen_values = true)]
    pub ktx2_zstd: Option<i32>,
    /// INDEX8 (P8) to a picture: the palette, 256 A8R8G8B8 entries as the GPU stores them
    /// (1024 bytes). Raw outputs keep the indices.
    #[arg(long, value_name = "FILE")]
    pub palette: Option<PathBuf>,
    /// Also print the summary as JSON on stdout (`command`, `output`, `platform`, `assumed`,
    /// `format`, `size_bytes`, `linear_size_bytes`); needs an --output file.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `nvsurf tile` (with `--in-place`, `--output` may be left out: it is `--onto`;
/// from a .dds or .ktx2, `--size` may be left out: the header has it).
#[derive(clap::Args)]
#[command(mut_arg("output", |a| a.required_unless_present_any(["split", "in_place"])))]
#[command(mut_arg("size", |a| a.required(false).default_value("").hide_default_value(true)))]
pub struct TileArgs {
    #[command(flatten)]
    pub copy: CopyArgs,
    /// Start from this tiled file instead of zeros (bytes outside the surface or box are kept).
    #[arg(long, value_name = "FILE")]
    pub onto: Option<PathBuf>,
    /// With --onto: patch FILE where it lies instead of writing a new file (for very large
    /// dumps). The old bytes of the surface (or box) go first to an undo journal beside it,
    /// `.FILE.nvsurf-journal`, which a later run rolls back if this one is killed: FILE is
    /// always whole, old or new. --output, if given, must name FILE.
    #[arg(long = "in-place", requires = "onto")]
    pub in_place: bool,
    /// With --texture: build the lower mip levels from level 0 (or, with --subresource L,LAYER,
    /// the levels below L of LAYER from level L as written) with a box filter, in linear light
    /// for sRGB formats; a .dds input may then hold level 0 only. Needs --format.
    #[arg(long = "generate-mips")]
    pub generate_mips: bool,
    #[arg(long = "bc-quality", value_name = "fast|normal|slow", default_value = "normal", help = crate::picture::BC_QUALITY_HELP)]
    pub bc_quality: String,
    /// Also print the summary as JSON on stdout (with `psnr_db` per encoded level and layer).
    #[arg(long)]
    pub json: bool,
}
