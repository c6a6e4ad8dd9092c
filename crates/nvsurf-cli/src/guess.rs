//! `nvsurf guess`: which layout a raw dump holds. Every layout the GPU could have used for a
//! surface of the given size is untiled from the dump and ranked by how smooth the image is
//! (the rules and their limits: [`nvsurf::identify`]). Each candidate comes with the flags that
//! `untile` takes for it; `--pictures DIR` writes the best few as PNG to look at.
//!
//! `--json` keys: `gpu`, `elem_size`, `size_elements`, `dump_bytes` (from the offset),
//! `offset`, `candidates_tried`, `margin` (the first's lead over the next different layout, a
//! ratio of roughness; `"inf"`, or null when fewer than two differ), `pictures` (paths written),
//! and `candidates`, best first: `rank`, `label`, `layout`, `flags` (the full `untile` flags,
//! `--offset` included), `size_bytes`, `fits`, `roughness` (null when the dump is too short),
//! `same_as` (the rank of an earlier candidate whose sample untiled to the same bytes).

use crate::picture::{write_surface, Extent};
use crate::surface_args::SurfaceArgs;
use crate::CmdResult;
use nvsurf::identify::{self, Candidate, Ranking};
use nvsurf::layout::Surface;
use nvsurf::tile::{self, LinearLayout, Region};
use nvsurf::{Error, Gpu};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `nvsurf guess`.
#[derive(clap::Args)]
pub struct GuessArgs {
    /// GPU: g80, gf100, gm20b (Switch), tu102, nv40, nv2a, ... (which layouts are tried).
    #[arg(long)]
    gpu: String,
    /// Format (any name `nvsurf formats` lists); the sample is compared as decoded pixels, and
    /// --size is in pixels. Or give --elem-size.
    #[arg(long, value_name = "F")]
    format: Option<String>,
    /// Element size in bytes, in place of --format (bytes are compared as they are).
    #[arg(long = "elem-size", value_name = "BYTES", value_parser = crate::surface_args::clap_u32)]
    elem_size: Option<u32>,
    /// Size: WxH, in pixels (with --format) or elements (with --elem-size).
    #[arg(long, value_name = "WxH")]
    size: String,
    /// The dump.
    #[arg(long)]
    input: PathBuf,
    /// Byte offset of the surface in the dump.
    #[arg(long, value_name = "BYTES", default_value = "0")]
    offset: String,
    /// How many ranked candidates to print (0 = all).
    #[arg(long, default_value_t = 10, value_parser = crate::surface_args::clap_usize)]
    top: usize,
    /// Write the best distinct candidates (as many as --top, at most 10) as PNG pictures in DIR,
    /// named by rank and layout (needs --format).
    #[arg(long, value_name = "DIR")]
    pictures: Option<PathBuf>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// The `untile` flags that select a candidate's layout.
fn layout_flags(c: &Candidate) -> String {
    match c.surface {
        Surface::BlockLinear(b) => {
            let [x, y, z] = b.block_log2_requested();
            format!("--layout blocklinear --block-log2 {x},{y},{z} --no-auto-size --gob {}", b.gob_order().name())
        }
        Surface::Pitch(p) => format!("--layout pitch --pitch {}", p.pitch_bytes()),
        Surface::Swizzled(_) => "--layout swizzled".to_string(),
    }
}

/// A file name for a candidate's picture.
fn picture_name(rank: usize, c: &Candidate) -> String {
    let label: String = c.label.chars().map(|ch| if ch.is_ascii_alphanumeric() { ch } else { '_' }).collect();
    format!("{rank:02}_{label}.png")
}

/// Runs `nvsurf guess`.
pub fn run(a: GuessArgs) -> CmdResult {
    let surface = SurfaceArgs {
        gpu: a.gpu.clone(),
        layout: None,
        elem_size: a.elem_size,
        format: a.format.clone(),
        size: a.size.clone(),
        pitch: None,
        block_log2: None,
        block_policy: None,
        auto_size: false,
        no_auto_size: false,
        binding: None,
        gob: None,
        address: "0".into(),
    };
    let gpu = Gpu::parse(&a.gpu)?;
    let elem = surface.elem_size()?;
    let size = surface.size_elements()?;
    let format = surface.format()?;
    if a.pictures.is_some() && format.is_none() {
        return Err(Error::Unsupported {
            field: "pictures",
            value: "(no --format)".into(),
            rule: "pictures need --format F to decode the elements".into(),
        }
        .into());
    }
    let offset = crate::surface_args::parse_offset("offset", &a.offset)?;
    let (dump, available, cands) = read_dump(&a.input, offset, gpu, elem, size)?;
    let ranking = match dump {
        Dump::Held(bytes) => identify::rank(&bytes, available, cands, format.as_ref())?,
        Dump::File => {
            let path = a.input.display();
            let mut f = std::fs::File::open(&a.input).map_err(|e| format!("cannot read '{path}': {e}"))?;
            // The library's error type has no room for an I/O error: it is kept here, and a
            // placeholder ends the ranking.
            let mut failed = None;
            let ranked = identify::rank_by(available, cands, format.as_ref(), |_, w, out| {
                crate::tiling::read_pieces_at(&mut f, offset, &w.pieces, out).map_err(|e| {
                    failed = Some(e);
                    Error::BufferTooSmall { what: "sample window", needed: w.size_bytes(), got: 0 }
                })
            });
            if let Some(e) = failed {
                return Err(format!("cannot read '{path}': {e}").into());
            }
            ranked?
        }
    };
    let shown = if a.top == 0 { ranking.ranked.len() } else { a.top.min(ranking.ranked.len()) };
    let pictures = match &a.pictures {
        Some(dir) => {
            let [w, h, _] = crate::surface_args::parse_size(&a.size)?;
            let pick = Pictures { dir, input: &a.input, offset, extent: Extent::new(w, h), count: shown.min(10) };
            write_pictures(&pick, &ranking, format.as_ref())?
        }
        None => Vec::new(),
    };
    // The flags that select this surface in the dump, before each candidate's layout flags.
    let subject = format!(
        "--gpu {} {} --size {}{}",
        gpu.name(),
        match (&a.format, a.elem_size) {
            (Some(f), _) => format!("--format {f}"),
            (None, e) => format!("--elem-size {}", e.unwrap_or(elem)),
        },
        a.size,
        if offset == 0 { String::new() } else { format!(" --offset {offset}") }
    );
    if a.json {
        let cands: Vec<Value> = ranking
            .ranked
            .iter()
            .take(shown)
            .enumerate()
            .map(|(i, r)| {
                json!({
                    "rank": i + 1,
                    "label": r.candidate.label,
                    "layout": r.candidate.surface.kind().name(),
                    "flags": format!("{subject} {}", layout_flags(&r.candidate)),
                    "size_bytes": r.size_bytes,
                    "fits": r.roughness.is_some(),
                    "roughness": r.roughness,
                    "same_as": r.same_as.map(|j| j + 1),
                })
            })
            .collect();
        let v = json!({
            "gpu": gpu.name(),
            "elem_size": elem,
            "size_elements": size,
            "dump_bytes": available,
            "offset": offset,
            "candidates_tried": ranking.ranked.len(),
            "margin": ranking.margin().map(|m| if m.is_finite() { json!(m) } else { json!("inf") }),
            "candidates": cands,
            "pictures": pictures.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "# {} candidate layouts for {} ({}x{} elements of {elem} bytes) in '{}' ({available} bytes from offset {offset})",
        ranking.ranked.len(),
        gpu.name(),
        size[0],
        size[1],
        a.input.display()
    );
    println!("# roughness: mean squared byte difference to the right and below; lower is smoother");
    println!("{:>4} {:>9} {:>12}  {:<30} untile flags", "rank", "roughness", "size_bytes", "layout");
    for (i, r) in ranking.ranked.iter().take(shown).enumerate() {
        let score = match (r.roughness, r.same_as) {
            (None, _) => "too short".to_string(),
            (Some(_), Some(j)) => format!("= #{}", j + 1),
            (Some(s), None) => format!("{s:.3}"),
        };
        println!(
            "{:>4} {score:>9} {:>12}  {:<30} {subject} {}",
            i + 1,
            r.size_bytes,
            r.candidate.label,
            layout_flags(&r.candidate)
        );
    }
    if shown < ranking.ranked.len() {
        println!("... {} more (--top 0 lists all)", ranking.ranked.len() - shown);
    }
    let scored = ranking.ranked.iter().filter(|r| r.roughness.is_some()).count();
    let gob_orders = if gpu.is_gf100_or_later() { "gob orders differ only inside 512-byte gobs, and " } else { "" };
    match ranking.margin() {
        Some(m) if m >= 1.1 => println!("the first is {m:.2}x smoother than the next different layout"),
        Some(m) => println!(
            "the first is only {m:.2}x smoother than the next different layout: compare their pictures \
             (--pictures DIR); {gob_orders}noise, a flat image or a wrong --size hide the rest"
        ),
        None if scored >= 2 => {
            println!("every layout scored untiles the sample to the same bytes: the dump does not tell them apart")
        }
        None => println!("fewer than two layouts could be scored: the dump is too short for the others"),
    }
    for p in &pictures {
        println!("wrote {}", p.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// Where the candidates' samples come from.
enum Dump {
    /// A regular file: each candidate's sample window is read from it when scored.
    File,
    /// The bytes of a pipe, FIFO or device, from the surface's offset on.
    Held(crate::tiling::LineAligned),
}

/// Where the samples come from, how many bytes the dump holds from `offset`, and the
/// candidates for that length. A regular file's length is taken from its metadata and nothing
/// is read yet: each candidate then reads only its sample window ([`identify::sample_window`],
/// [`crate::tiling::read_pieces_at`]), a few MiB for a 16384x16384 surface of 16-byte elements where its first
/// 512 whole rows would be 128 MiB. A pipe is read up to the largest candidate's size (its
/// length decides which candidates fit), and its length is what it held.
fn read_dump(
    path: &std::path::Path,
    offset: u64,
    gpu: Gpu,
    elem: u32,
    size: [u32; 3],
) -> Result<(Dump, u64, Vec<identify::Candidate>), Box<dyn std::error::Error>> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    let past_end = |held: u64| format!("--offset {offset} is past the end of '{}' ({held} bytes)", path.display());
    if meta.is_file() {
        let available = meta.len().checked_sub(offset).ok_or_else(|| past_end(meta.len()))?;
        return Ok((Dump::File, available, identify::candidates(gpu, elem, size, available)?));
    }
    let largest = identify::candidates(gpu, elem, size, 0)?.iter().map(|c| c.surface.size_bytes()).max().unwrap_or(0);
    let (dump, end) = crate::tiling::LineAligned::read_range(path, offset, largest)?;
    if end < offset {
        return Err(past_end(end).into());
    }
    let available = dump.len() as u64;
    // Again with the length known: the pitch that fills it exactly is a candidate too.
    Ok((Dump::Held(dump), available, identify::candidates(gpu, elem, size, available)?))
}

/// Where `--pictures` writes, and what it reads for them.
struct Pictures<'a> {
    /// The directory.
    dir: &'a std::path::Path,
    /// The dump.
    input: &'a std::path::Path,
    /// The surface's byte offset in the dump.
    offset: u64,
    /// The pictures' size in pixels.
    extent: Extent,
    /// How many distinct candidates to write.
    count: usize,
}

/// Untiles the best distinct candidates whole (each read from the dump on its own) and writes
/// them as PNG pictures in the directory.
fn write_pictures(
    pick: &Pictures,
    ranking: &Ranking,
    format: Option<&nvsurf::format::Format>,
) -> Result<Vec<PathBuf>, Box<dyn std::error::Error>> {
    let Some(f) = format else { return Ok(Vec::new()) };
    let dir = pick.dir;
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create '{}': {e}", dir.display()))?;
    let mut written = Vec::new();
    for (i, r) in ranking.ranked.iter().enumerate() {
        if written.len() >= pick.count || r.roughness.is_none() {
            break;
        }
        if r.same_as.is_some() {
            continue;
        }
        let s = r.candidate.surface;
        let dump = crate::tiling::read_part(pick.input, pick.offset, s.size_bytes(), "surface")?;
        let region = Region::whole(&s);
        let lin = LinearLayout::packed(&region, s.elem_size());
        let n = usize::try_from(lin.image_bytes(&region).ok_or("picture size overflows")?)?;
        let mut linear = crate::picture::try_filled("picture", n, 0u8)?;
        tile::untile(&s, &dump, &mut linear, region, lin)?;
        let path = dir.join(picture_name(i + 1, &r.candidate));
        written.extend(write_surface(&path, f, pick.extent, &linear)?);
    }
    Ok(written)
}
