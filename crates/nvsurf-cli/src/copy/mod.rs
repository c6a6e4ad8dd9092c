//! `nvsurf untile` and `nvsurf tile`: a straight pipeline. The flags are parsed once into a
//! validated [`job::Job`] (surface or texture, format, region, linear layout, offset, and a
//! linear side that is raw bytes, a picture or a split directory); [`surface`] and
//! [`texture`] then read, copy through the library and write ([`crate::io`],
//! [`crate::picture`]). `tile` and `untile` have their own flags ([`TileArgs`] adds `--onto`),
//! sharing [`CopyArgs`].

pub mod args;
pub mod job;
pub mod surface;
pub mod texture;

use crate::CmdResult;
pub use args::{TileArgs, UntileArgs};
use job::{Direction, Job, Shape};

/// Runs `nvsurf untile`, then prints its summary line (on stderr: stdout stays the data).
pub fn run_untile(a: UntileArgs) -> CmdResult {
    let mut job = Job::new(&a.copy, None, Direction::Untile)?;
    job.png_compression = crate::picture::png_stream::PngCompression::parse(&a.png_compression)?;
    let code = run(&job)?;
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
            Some(o) if same_file(o, &onto) => {}
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
    let mut job = Job::new(&a.copy, a.onto.as_deref(), Direction::Tile)?;
    job.in_place = a.in_place;
    job.encoding = crate::picture::Encoding::new(quality);
    job.encoding.parallel = job.pool.is_some();
    let code = run(&job)?;
    eprintln!("{}{}", job.summary(), job.encoding.summary());
    if a.json {
        println!("{}", job.summary_json());
    }
    Ok(code)
}

/// True when `a` and `b` name the same existing file (or the same path).
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    a == b || matches!((std::fs::canonicalize(a), std::fs::canonicalize(b)), (Ok(x), Ok(y)) if x == y)
}

fn run(job: &Job) -> CmdResult {
    match (&job.shape, job.direction) {
        (Shape::Surface(_), Direction::Untile) => surface::untile(job),
        (Shape::Surface(_), Direction::Tile) => surface::tile(job),
        (Shape::Texture(_), Direction::Untile) => texture::untile(job),
        (Shape::Texture(_), Direction::Tile) => texture::tile(job),
    }
}
