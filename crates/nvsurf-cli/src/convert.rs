//! `nvsurf convert`: linear elements <-> pictures, or picture <-> picture, through the
//! picture module; raw input is read as far as the image reaches, and every output is written
//! atomically.

use crate::picture::{check_len, describe_file, read_surface_with, write_surface_as, Encoding, PicKind};
use nvsurf::extent::{Extent, Texels};
use nvsurf::format::BcQuality;
use nvsurf::Error;
use std::path::PathBuf;

/// Arguments of `nvsurf convert`.
#[derive(clap::Args, Debug)]
pub struct ConvertArgs {
    /// Format of the elements (any name, or tex:0x08 / color:0xd5 / zeta:0x16). A .dds or .ktx2
    /// input brings its own: then it may be left out, and if given it is checked.
    #[arg(long)]
    format: Option<String>,
    /// Name formats in this GPU's tables (nv2a, nv40, ...: the pre-G80 texture formats).
    /// Default: the G80 and later tables.
    #[arg(long)]
    gpu: Option<String>,
    /// INDEX8 to a picture: the palette, 256 A8R8G8B8 entries as the GPU stores them (1024 bytes).
    #[arg(long, value_name = "FILE")]
    palette: Option<PathBuf>,
    /// Input: a picture (.png, .exr, .dds, .ktx2) or raw linear elements (any other extension).
    #[arg(long)]
    input: PathBuf,
    /// Output: a picture (.png, .exr, .dds, .ktx2) or raw linear elements (any other extension).
    #[arg(long)]
    output: PathBuf,
    /// PNG compression of a .png output: fast (default), default or best.
    #[arg(long = "png-compression", value_name = "fast|default|best", default_value = "fast")]
    png_compression: String,
    /// A .ktx2 output zstd-supercompressed at this level (1-22); without it, stored as it is.
    #[arg(long = "ktx2-zstd", value_name = "LEVEL", allow_hyphen_values = true)]
    ktx2_zstd: Option<i32>,
    /// Size in pixels, W[xH[xD]], for raw input (pictures carry their own).
    #[arg(long, value_name = "W[xH[xD]]")]
    size: Option<String>,
    /// Slices stacked in a PNG/EXR input (3D surfaces).
    #[arg(long, default_value_t = 1, value_parser = crate::surface_args::clap_u32)]
    depth: u32,
    /// Component types of C0-C3 (texture formats), as for `nvsurf decode`.
    #[arg(long, value_name = "T,T,T,T")]
    components: Option<String>,
    /// Swizzle, as for `nvsurf decode`.
    #[arg(long, value_name = "S,S,S,S")]
    swizzle: Option<String>,
    /// YUV to RGB conversion: raw, bt601, bt709 (default: the format's own, bt601 for NV2A's
    /// YUY2/UYVY, else raw).
    #[arg(long)]
    yuv: Option<String>,
    #[arg(long = "bc-quality", value_name = "fast|normal|slow", default_value = "normal", help = crate::picture::BC_QUALITY_HELP)]
    bc_quality: String,
    #[command(flatten)]
    threads: crate::threads::ThreadsArg,
    #[command(flatten)]
    memory: crate::memory::MaxMemoryArg,
    /// Also print the summary as JSON on stdout (with `psnr_db` per encoded level and layer).
    #[arg(long)]
    json: bool,
}

fn parse_extent(s: &str) -> Result<Extent<Texels>, Error> {
    let bad = || Error::Parse { field: "size", value: s.into(), rule: "W, WxH or WxHxD in pixels, each 1 or more" };
    let v: Vec<u32> =
        s.split(['x', 'X']).map(|p| p.trim().parse::<u32>().map_err(|_| bad())).collect::<Result<_, _>>()?;
    if v.is_empty() || v.len() > 3 || v.contains(&0) {
        return Err(bad());
    }
    Ok(Extent::<Texels>::new(v[0], *v.get(1).unwrap_or(&1), *v.get(2).unwrap_or(&1)))
}

/// Runs `nvsurf convert`: linear elements <-> pictures, or picture <-> picture.
pub fn run_convert(a: ConvertArgs) -> crate::CmdResult {
    if a.depth == 0 {
        return Err(Error::OutOfRange { field: "depth", value: 0, min: 1, max: u32::MAX.into() }.into());
    }
    crate::picture::check_zstd_level(a.ktx2_zstd)?;
    // Every allocation from here on (the raw input, each decoder and encoder) is within it.
    a.memory.apply();
    let mut enc = Encoding::new(BcQuality::parse(&a.bc_quality)?);
    let png = crate::picture::png_stream::PngCompression::parse(&a.png_compression)?;
    if a.json && a.output.as_os_str() == "-" {
        return Err(Error::Unsupported {
            field: "json",
            value: "with --output -".into(),
            rule: "stdout holds the converted data: write it to a file to get the JSON summary".into(),
        }
        .into());
    }
    let in_kind = PicKind::of_linear_side(&a.input)?;
    let f = input_format(&a, in_kind)?;
    let out_kind = PicKind::of_linear_side(&a.output)?;
    let out_picture = out_kind.is_some();
    if f.needs_palette() && in_kind.is_some() {
        return Err(crate::palette::no_encoding(&f).into());
    }
    // INDEX8 pictures show the palette entries; raw output keeps the indices.
    let palette =
        if out_picture || a.palette.is_some() { crate::palette::for_format(&f, a.palette.as_deref())? } else { None };
    // The threads start once every flag has been checked; encoding (BC, ASTC) runs over them.
    let pool = a.threads.pool()?;
    enc.parallel = pool.is_some();
    let (e, files) = if let Some(e) = streams_raw_to_png(&a, (in_kind, out_kind), &f, palette.is_some())? {
        raw_to_png(&a, &f, e, (png, pool.as_ref()))?;
        (e, vec![a.output.clone()])
    } else {
        let read = || read_input(&a, in_kind.is_some(), &f, &enc).map_err(|e| e.to_string());
        let (e, data) = crate::threads::install(pool.as_ref(), read)?;
        let (f, data) = match &palette {
            Some(p) if out_picture => crate::palette::expand(&f, p, &data)?,
            _ => (f, data),
        };
        let files = if let Some(PicKind::Png) = out_kind {
            crate::picture::write_png_with(&a.output, &f, e, &data, (png, pool.as_ref()))?
        } else if let Some(kind) = out_kind {
            write_surface_as(kind.with_ktx2_zstd(a.ktx2_zstd), &a.output, &f, e, &data)?
        } else {
            crate::io::check_free_space(&a.output, false, data.len() as u64)?;
            crate::io::write_atomic(&a.output, &data)?;
            vec![a.output.clone()]
        };
        (e, files)
    };
    // The JSON first: when stdout cannot be written, its error is the one line on stderr.
    if a.json {
        let mut v = serde_json::json!({
            "command": "convert",
            "output": files.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
            "width_px": e.width,
            "height_px": e.height,
            "depth_px": e.depth,
            "format": f.name(),
        });
        enc.add_json(&mut v);
        crate::outln!("{v}")?;
    }
    for p in &files {
        eprintln!(
            "wrote {} ({}x{}x{} px, {} {}){}",
            p.display(),
            e.width,
            e.height,
            e.depth,
            f.name(),
            f.id_name(),
            enc.summary()
        );
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// The format of the elements: --format (checked against a DDS/KTX2 input's header), or the
/// header's.
fn input_format(
    a: &ConvertArgs,
    in_kind: Option<PicKind>,
) -> Result<nvsurf::format::Format, Box<dyn std::error::Error>> {
    // A DDS/KTX2 input describes itself: its format unless --format is given (then checked).
    let described = match in_kind {
        Some(k) => describe_file(&a.input, k)?,
        None => None,
    };
    match (&a.format, &described) {
        (Some(name), d) => {
            let f = crate::decode::build_format(
                name,
                a.gpu.as_deref(),
                a.components.as_deref(),
                a.swizzle.as_deref(),
                a.yuv.as_deref(),
                false,
            )?;
            if let Some(d) = d.as_ref().filter(|d| !d.reads_as(&f)) {
                return Err(d.mismatch("format", name).into());
            }
            Ok(f)
        }
        (None, Some(d)) => Ok(d.format),
        (None, None) => Err(Error::Unsupported {
            field: "format",
            value: "(none)".into(),
            rule: "give --format F (a .dds or .ktx2 input brings its own)".into(),
        }
        .into()),
    }
}

/// The input's extent and linear elements: a picture decoded (and encoded to `f` with `enc`),
/// or raw elements read as far as the image reaches.
fn read_input(
    a: &ConvertArgs,
    in_picture: bool,
    f: &nvsurf::format::Format,
    enc: &Encoding,
) -> Result<(Extent<Texels>, Vec<u8>), Box<dyn std::error::Error>> {
    if in_picture {
        return read_surface_with(&a.input, f, a.depth, None, enc, (0, 0));
    }
    let size = a.size.as_deref().ok_or(Error::Unsupported {
        field: "size",
        value: "(none)".into(),
        rule: "raw input needs --size W[xH[xD]] in pixels".into(),
    })?;
    let (e, need) = raw_extent(a, size, f)?;
    crate::memory::check("convert input", need as u64)?;
    let (data, _) = crate::io::read::read_vec(&a.input, 0, need as u64)?;
    check_len(f, e, &data)?;
    Ok((e, data))
}

/// The extent of a raw input (`--size`) and its bytes. Only the image's bytes are read: a
/// regular file too short for them is said first, then (by the callers) the memory they would
/// take, both before anything is read or allocated; a pipe or device (`/dev/zero`) is read in
/// bands up to that size.
fn raw_extent(
    a: &ConvertArgs,
    size: &str,
    f: &nvsurf::format::Format,
) -> Result<(Extent<Texels>, usize), Box<dyn std::error::Error>> {
    let e = parse_extent(size)?;
    let need = e.checked_bytes(f)?;
    if let Some(len) = std::fs::metadata(&a.input).ok().filter(|m| m.is_file()).map(|m| m.len()) {
        if len < need as u64 {
            return Err(format!(
                "input '{}' holds {len} bytes but {}x{}x{} px of {} are {need} bytes",
                a.input.display(),
                e.width,
                e.height,
                e.depth,
                f.name()
            )
            .into());
        }
    }
    Ok((e, need))
}

/// The raw input's extent when `convert` streams it to a PNG band by band: a regular raw file
/// with `--size`, a PNG output, a format the streaming writer takes, no palette to expand.
fn streams_raw_to_png(
    a: &ConvertArgs,
    (in_kind, out_kind): (Option<PicKind>, Option<PicKind>),
    f: &nvsurf::format::Format,
    palette: bool,
) -> Result<Option<Extent<Texels>>, Box<dyn std::error::Error>> {
    let regular = std::fs::metadata(&a.input).is_ok_and(|m| m.is_file());
    let (Some(size), None, Some(PicKind::Png)) = (a.size.as_deref(), in_kind, out_kind) else { return Ok(None) };
    if !regular || palette || !crate::picture::png_stream::streams(f) {
        return Ok(None);
    }
    Ok(Some(raw_extent(a, size, f)?.0))
}

/// `convert` of a raw file to a PNG, band by band (about 8 MiB of elements a band, read with
/// positioned reads): only a band is held, whatever the image's size.
fn raw_to_png(
    a: &ConvertArgs,
    f: &nvsurf::format::Format,
    e: Extent<Texels>,
    (png, pool): (crate::picture::png_stream::PngCompression, Option<&rayon::ThreadPool>),
) -> Result<(), Box<dyn std::error::Error>> {
    use crate::picture::png_stream::{write_image, ElementSource};
    let file = std::fs::File::open(&a.input).map_err(crate::io::copy::cannot_read(&a.input))?;
    let rows = u32::try_from((8usize << 20) / e.row_bytes(f).max(1)).unwrap_or(u32::MAX).max(1);
    crate::io::with_temp(&a.output, |out| {
        let src = ElementSource::File { file: &file, path: &a.input, offset: 0, buf: Vec::new() };
        write_image(out, &a.output, f, e, src, (png, rows, pool))
    })
}
