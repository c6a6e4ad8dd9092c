//! `nvsurf untile` and `nvsurf tile`: a straight pipeline. The flags are parsed once into a
//! validated [`job::Job`] (surface or texture, format, region, linear layout, offset, and a
//! linear side that is raw bytes, a picture or a split directory); [`surface`] and
//! [`texture`] then read, copy through the library and write ([`crate::io`],
//! [`crate::picture`]). `tile` and `untile` have their own flags ([`TileArgs`] adds `--onto`),
//! sharing [`CopyArgs`].

pub mod args;
pub mod from_header;
pub mod job;
pub mod mip_plan;
pub mod mips;
mod shape;
mod stream;
pub mod surface;
pub mod texture;
mod texture_stream;

use crate::CmdResult;
pub use args::{TileArgs, UntileArgs};
use job::{Direction, Job, Shape};

/// Runs `nvsurf untile`, then prints its summary line (on stderr: stdout stays the data).
pub fn run_untile(a: UntileArgs) -> CmdResult {
    if a.json && a.copy.output.as_deref().is_some_and(|p| p.as_os_str() == "-") {
        return Err(nvsurf::Error::Unsupported {
            field: "json",
            value: "with --output -".into(),
            rule: "stdout holds the untiled data: write it to a file to get the JSON summary".into(),
        }
        .into());
    }
    let mut job = Job::new(&a.copy, (None, false, false), Direction::Untile)?;
    job.png_compression = crate::picture::png_stream::PngCompression::parse(&a.png_compression)?;
    crate::picture::check_zstd_level(a.ktx2_zstd)?;
    if let job::LinearSide::Picture(_, kind) = &mut job.linear {
        *kind = kind.with_ktx2_zstd(a.ktx2_zstd);
    }
    job.palette = untile_palette(&job, a.palette.as_deref())?;
    let code = run(&job)?;
    // The JSON first: when stdout cannot be written, its error is the one line on stderr.
    if a.json {
        crate::outln!("{}", job.summary_json())?;
    }
    eprintln!("{}", job.summary());
    Ok(code)
}

/// Runs `nvsurf tile`, then prints its summary line.
pub fn run_tile(mut a: TileArgs) -> CmdResult {
    // Interrupted in-place patches beside --onto and --output are rolled back before anything.
    for p in a.onto.iter().chain(a.copy.output.iter()) {
        crate::io::leftovers::notice_dir(p.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(".".as_ref()));
    }
    if a.in_place {
        let onto = a.onto.clone().ok_or("--in-place needs --onto FILE")?;
        match &a.copy.output {
            None => a.copy.output = Some(onto),
            Some(o) if crate::io::files::same_file(o, &onto) => {}
            Some(o) => {
                return Err(format!(
                    "--output '{}' is not --onto '{}': --in-place patches --onto where it lies",
                    o.display(),
                    onto.display()
                )
                .into())
            }
        }
    }
    let quality = nvsurf::format::BcQuality::parse(&a.bc_quality)?;
    if a.json && a.copy.output.as_deref().is_some_and(|p| p.as_os_str() == "-") {
        return Err(nvsurf::Error::Unsupported {
            field: "json",
            value: "with --output -".into(),
            rule: "stdout holds the tiled data: write it to a file to get the JSON summary".into(),
        }
        .into());
    }
    // A DDS/KTX2 input describes itself: the flags it makes optional are filled or checked.
    let header_format = from_header::fill_from_header(&mut a.copy, a.generate_mips)?;
    let mut job = Job::new(&a.copy, (a.onto.as_deref(), a.in_place, a.generate_mips), Direction::Tile)?;
    if let (Some(f), true) = (&job.format, job.linear.is_picture()) {
        if f.needs_palette() {
            return Err(crate::palette::no_encoding(f).into());
        }
    }
    if header_format.is_some() {
        job.format = header_format;
    }
    job.mips = mip_plan::plan(&a, header_format, job::memory_budget(a.copy.memory.max_memory))?;
    job.encoding = crate::picture::Encoding::new(quality);
    job.encoding.parallel = job.pool.is_some();
    if let Some(m) = job.mips.as_mut() {
        m.encoding = crate::picture::Encoding::new(quality);
    }
    let code = run(&job)?;
    // Generated mip levels that were encoded report their PSNR with the rest.
    for m in job.mips.as_ref().map(|p| p.encoding.measured()).unwrap_or_default() {
        job.encoding.push(m, m.level, m.layer);
    }
    // The JSON first: when stdout cannot be written, its error is the one line on stderr.
    if a.json {
        crate::outln!("{}", job.summary_json())?;
    }
    eprintln!("{}{}", job.summary(), job.encoding.summary());
    Ok(code)
}

/// The palette an untile of INDEX8 to a picture needs (`None` for raw outputs and other
/// formats); a whole INDEX8 texture goes to raw files only.
fn untile_palette(
    job: &Job,
    path: Option<&std::path::Path>,
) -> Result<Option<nvsurf::format::Palette>, Box<dyn std::error::Error>> {
    let picture = job.linear.is_picture();
    let Some(f) = job.format.filter(|_| picture || path.is_some()) else {
        return match path {
            Some(p) => Err(format!("--palette '{}' needs --format INDEX8", p.display()).into()),
            None => Ok(None),
        };
    };
    let palette = crate::palette::for_format(&f, path)?;
    if palette.is_some() && picture && matches!(job.shape, Shape::Texture(_)) {
        return Err("INDEX8: a whole texture goes to raw files (--output FILE.bin, or --split DIR with raw files); a picture takes one --subresource".into());
    }
    Ok(palette.filter(|_| picture))
}

fn run(job: &Job) -> CmdResult {
    match (&job.shape, job.direction) {
        (Shape::Surface(_), Direction::Untile) => surface::untile(job),
        (Shape::Surface(_), Direction::Tile) => surface::tile(job),
        (Shape::Texture(_), Direction::Untile) => texture::untile(job),
        (Shape::Texture(_), Direction::Tile) => texture::tile(job),
    }
}
