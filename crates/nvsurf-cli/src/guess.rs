//! `nvsurf guess`: which layout a raw dump holds. Every layout the GPU could have used for a
//! surface of the given size is untiled from the dump and ranked by how smooth the image is
//! (the rules and their limits: [`nvsurf::identify`]). Each candidate comes with the flags that
//! `untile` takes for it; `--pictures DIR` writes the best few as PNG to look at.

use crate::picture::{write_surface, Extent};
use crate::surface_args::SurfaceArgs;
use crate::CmdResult;
use nvsurf::identify::{self, Candidate, Ranking};
use nvsurf::layout::Surface;
use nvsurf::tile::{self, LinearLayout, Region};
use nvsurf::{Error, Gpu};
use serde_json::{json, Value};
use std::io::Read;
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
        auto_size: false,
        no_auto_size: false,
        binding: None,
        gob: "vm".into(),
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
    let file_bytes =
        std::fs::metadata(&a.input).map_err(|e| format!("cannot read '{}': {e}", a.input.display()))?.len();
    let available = file_bytes
        .checked_sub(offset)
        .ok_or_else(|| format!("--offset {offset} is past the end of '{}' ({file_bytes} bytes)", a.input.display()))?;
    let cands = identify::candidates(gpu, elem, size, available)?;
    // Only what the largest candidate can use is read.
    let want = cands.iter().map(|c| c.surface.size_bytes()).max().unwrap_or(0).min(available);
    let dump = read_range(&a.input, offset, want)?;
    let ranking = identify::rank(&dump, cands, format.as_ref())?;
    let shown = if a.top == 0 { ranking.ranked.len() } else { a.top.min(ranking.ranked.len()) };
    let pictures = match &a.pictures {
        Some(dir) => {
            let [w, h, _] = crate::surface_args::parse_size(&a.size)?;
            write_pictures(dir, &ranking, &dump, format.as_ref(), Extent::new(w, h), shown.min(10))?
        }
        None => Vec::new(),
    };
    let subject = format!(
        "--gpu {} {} --size {}",
        gpu.name(),
        match (&a.format, a.elem_size) {
            (Some(f), _) => format!("--format {f}"),
            (None, e) => format!("--elem-size {}", e.unwrap_or(elem)),
        },
        a.size
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
    match ranking.margin() {
        Some(m) if m >= 1.1 => println!("the first is {m:.2}x smoother than the next different layout"),
        Some(m) => println!(
            "the first is only {m:.2}x smoother than the next different layout: compare their pictures \
             (--pictures DIR); gob orders differ only inside 512-byte gobs, and noise, a flat image or a wrong \
             --size hide the rest"
        ),
        None => println!("fewer than two layouts could be scored: the dump is too short for the others"),
    }
    for p in &pictures {
        println!("wrote {}", p.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads `len` bytes from `offset` of `path` (fewer if the file is shorter).
fn read_range(path: &std::path::Path, offset: u64, len: u64) -> Result<Vec<u8>, Box<dyn std::error::Error>> {
    let name = |e: std::io::Error| format!("cannot read '{}': {e}", path.display());
    let mut f = std::fs::File::open(path).map_err(name)?;
    std::io::copy(&mut (&mut f).take(offset), &mut std::io::sink()).map_err(name)?;
    let mut buf = crate::picture::try_with_capacity("dump", usize::try_from(len)?)?;
    f.take(len).read_to_end(&mut buf).map_err(name)?;
    Ok(buf)
}

/// Untiles the best distinct candidates whole and writes them as PNG pictures of `extent`
/// pixels in `dir`.
fn write_pictures(
    dir: &std::path::Path,
    ranking: &Ranking,
    dump: &[u8],
    format: Option<&nvsurf::format::Format>,
    extent: Extent,
    count: usize,
) -> Result<Vec<PathBuf>, Box<dyn std::error::Error>> {
    let Some(f) = format else { return Ok(Vec::new()) };
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create '{}': {e}", dir.display()))?;
    let mut written = Vec::new();
    for (i, r) in ranking.ranked.iter().enumerate() {
        if written.len() >= count || r.roughness.is_none() {
            break;
        }
        if r.same_as.is_some() {
            continue;
        }
        let s = r.candidate.surface;
        let region = Region::whole(&s);
        let lin = LinearLayout::packed(&region, s.elem_size());
        let n = usize::try_from(lin.image_bytes(&region).ok_or("picture size overflows")?)?;
        let mut linear = crate::picture::try_filled("picture", n, 0u8)?;
        tile::untile(&s, dump, &mut linear, region, lin)?;
        let path = dir.join(picture_name(i + 1, &r.candidate));
        written.extend(write_surface(&path, f, extent, &linear)?);
    }
    Ok(written)
}
