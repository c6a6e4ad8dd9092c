//! `nvsurf guess`: which layout a raw dump holds. Every layout the GPU could have used for a
//! surface of the given size is untiled from the dump and ranked by how smooth the image is
//! (the rules and their limits: [`nvsurf::identify`]). Each candidate comes with the flags that
//! `untile` takes for it; `--pictures DIR` writes the best few as PNG to look at.
//!
//! `--json` keys: `gpu` (`any` for every family), `elem_size`, `size_elements`, `dump_bytes`
//! (from the offset; the whole dump with `--offset auto`), `offset` (as given, or `"auto"`),
//! `offset_bytes` (the best candidate's), `offsets_tried`, `candidates_tried`, `margin` (the
//! first's lead over the next different layout, a ratio of roughness; `"inf"`, or null when
//! fewer than two differ), `pictures` (paths written), `address` (`--address`),
//! `random_roughness` (what random bytes score in this format), `stands_out` (the best picture
//! scores below 0.75 of that), `hint` (the verdict lines the table ends with), and
//! `candidates`, best first: `rank`,
//! `label`, `layout`, `gpu`, `gob_order` and `block_policy` (`explicit`; null unless
//! blocklinear), `block_log2` (`[x, y, z]`), `pitch_bytes` (null unless pitch), `offset_bytes`,
//! `flags` (the full `untile` flags,
//! `--gpu` and `--offset` included), `size_bytes`, `fits` (the whole surface lies in the dump),
//! `rows_scored` (rows of the sample scored: fewer when the dump ends inside the surface),
//! `roughness` (lower is smoother; null when the dump holds fewer than half the sample's rows),
//! `flat` (the sample is one byte repeated: no picture), `blank_fraction` (of the sample's
//! bytes, in all-zero runs), `same_as` (the rank of an earlier candidate whose sample untiled
//! to the same bytes). Each candidate is one [`identify::CandidateRecord`], as the Python
//! package's `nvsurf.guess` dicts are.
//!
//! `--offset auto` is pruned by where the dump changes character ([`identify::OffsetScan`]):
//! only the ends of zero runs and the strongest boundaries, rounded to each layout's start
//! alignment from the dump's GPU address (`--address`), are scored ([`auto`]); windows mostly
//! blank rank below pictures. The verdict ([`verdict`]) says when nothing stands out from
//! random bytes.

pub mod auto;
pub mod verdict;

use crate::picture::write_surface;
use crate::surface_args::SurfaceArgs;
use crate::CmdResult;
use nvsurf::extent::{Extent, Texels};
use nvsurf::identify::{self, Candidate, CandidateRecord, Ranking};
use nvsurf::tile::CopyOptions;
use nvsurf::tile::{self, LinearLayout, Region};
use nvsurf::{Error, Gpu};

use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `nvsurf guess`.
#[derive(clap::Args)]
pub struct GuessArgs {
    /// GPU: g80, gf100, gm20b, switch, tu102, nv40, nv2a, ... (which layouts are tried), or
    /// `any`: every family's layouts (G80, GF100 VM and Fermi, Tegra, Turing and Blackwell16, Blackwell8,
    /// pre-G80 swizzled, both pitch rules), each candidate naming the GPU whose layout it is.
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
    /// The dump (`-`: stdin; `--offset auto` needs a regular file, so `--input - < FILE`).
    #[arg(long)]
    input: PathBuf,
    /// Byte offset of the surface in the dump, or `auto`: search the dump for where a surface
    /// starts (blocklinear candidates at gob-aligned addresses, 512 bytes on GF100+, pitch at
    /// 64, swizzled at 128, counted from --address), trying each layout where a run of zeros
    /// ends or the dump's bytes change character.
    #[arg(long, value_name = "BYTES|auto", default_value = "0")]
    offset: String,
    /// GPU address of the dump's first byte (decimal or 0x-hex), as other commands'
    /// --address: `--offset auto` tries each layout where this plus the offset is aligned.
    #[arg(long, value_name = "BASE", default_value = "0")]
    address: String,
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

/// A file name for a candidate's picture.
fn picture_name(rank: usize, c: &Candidate) -> String {
    let label: String = c.label.chars().map(|ch| if ch.is_ascii_alphanumeric() { ch } else { '_' }).collect();
    format!("{rank:02}_{label}.png")
}

/// Which GPUs' layouts are tried: one chip's, or every family's (`--gpu any`).
#[derive(Clone, Copy)]
pub enum Gpus {
    One(Gpu),
    Any,
}

impl Gpus {
    fn parse(s: &str) -> Result<Gpus, Error> {
        if s.trim().eq_ignore_ascii_case("any") {
            return Ok(Gpus::Any);
        }
        Ok(Gpus::One(nvsurf::Platform::parse(s)?.gpu()))
    }

    /// The candidates of these GPUs.
    pub fn candidates(self, elem: u32, size: [u32; 3], available: u64) -> Result<Vec<Candidate>, Error> {
        match self {
            Gpus::One(g) => identify::candidates(g, elem, size, available),
            Gpus::Any => identify::candidates_any(elem, size, available),
        }
    }
}

/// One scored candidate and the offset of its surface in the dump.
pub struct Found {
    /// Offset of the surface in the dump, in bytes.
    pub offset: u64,
    /// The candidate and its score.
    pub r: identify::Ranked,
}

/// Refuses a dump with no bytes (from `offset`, when given): nothing to guess from.
fn refuse_empty(path: &std::path::Path, bytes: u64, offset: Option<u64>) -> Result<(), Box<dyn std::error::Error>> {
    if bytes > 0 {
        return Ok(());
    }
    let from = match offset {
        Some(o) if o > 0 => format!(" from --offset {o}"),
        _ => String::new(),
    };
    Err(format!(
        "input '{}' holds 0 bytes{from}: a dump to guess from holds at least the surface's first row",
        path.display()
    )
    .into())
}

/// `--input -` is stdin (as for tile and untile).
fn input_path(p: &std::path::Path) -> PathBuf {
    if p.as_os_str() == "-" {
        PathBuf::from("/dev/stdin")
    } else {
        p.to_path_buf()
    }
}

/// What `guess` was asked, parsed.
struct Query {
    /// The arguments (`input` is the path read: `/dev/stdin` for `-`).
    a: GuessArgs,
    /// The input as given, for the table's heading.
    input_name: String,
    /// `--address`.
    base: u64,
    /// Whose layouts are tried.
    gpus: Gpus,
    /// Element size in bytes.
    elem: u32,
    /// Size in elements.
    size: [u32; 3],
    /// `--format`.
    format: Option<nvsurf::format::Format>,
    /// `--offset auto`.
    auto: bool,
}

/// Parses and checks the arguments of `nvsurf guess`.
fn parse(mut a: GuessArgs) -> Result<Query, Box<dyn std::error::Error>> {
    let input_name = a.input.display().to_string();
    a.input = input_path(&a.input);
    let base = crate::surface_args::parse_u64("address", &a.address)?;
    let surface = SurfaceArgs {
        gpu: if a.gpu.eq_ignore_ascii_case("any") { "gf100".into() } else { a.gpu.clone() },
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
        samples: None,
        any_format: true,
        modifier: None,
    };
    let gpus = Gpus::parse(&a.gpu)?;
    let elem = surface.elem_size_bytes()?;
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
    let auto = a.offset.trim().eq_ignore_ascii_case("auto");
    if a.pictures.is_some() && !std::fs::metadata(&a.input).is_ok_and(|m| m.is_file()) {
        return Err(Error::Unsupported {
            field: "pictures",
            value: a.input.display().to_string(),
            rule: "pictures read the dump again: give a regular file (`--input - < FILE` is one), not a pipe".into(),
        }
        .into());
    }
    Ok(Query { a, input_name, base, gpus, elem, size, format, auto })
}

/// What `guess` found: the ranked candidates, their records and the verdict.
struct Outcome {
    /// Every candidate scored, best first.
    found: Vec<Found>,
    /// The records of the first `shown` candidates.
    records: Vec<CandidateRecord>,
    /// How many candidates were scored.
    tried: usize,
    /// Bytes of the dump (from the offset; the whole dump with `--offset auto`).
    available: u64,
    /// The first candidate's lead over the next different layout.
    margin: Option<f64>,
    /// How many offsets were tried.
    offsets_tried: usize,
    /// The pictures written.
    pictures: Vec<PathBuf>,
    /// What random bytes score in this format.
    random: f64,
    /// The best picture stands out from random bytes.
    stands_out: bool,
    /// The verdict lines.
    hint: Vec<String>,
}

/// Ranks the candidates (at every offset tried with `--offset auto`), writes the pictures
/// asked for, and builds the records and the verdict.
fn rank_dump(q: &Query) -> Result<Outcome, Box<dyn std::error::Error>> {
    let (a, gpus, elem, size, format) = (&q.a, q.gpus, q.elem, q.size, q.format.as_ref());
    let (found, tried, available, margin, offsets_tried) = if q.auto {
        let r = auto::rank_auto(&a.input, gpus, elem, size, format, q.base)?;
        (r.found, r.tried, r.len, r.margin, r.offsets)
    } else {
        let offset = crate::surface_args::parse_offset("offset", &a.offset)?;
        let (ranking, available) = rank_at(&a.input, offset, gpus, elem, size, format)?;
        let margin = ranking.margin();
        let tried = ranking.ranked.len();
        let found = ranking.ranked.into_iter().map(|r| Found { offset, r }).collect::<Vec<_>>();
        (found, tried, available, margin, 1)
    };
    let shown = if a.top == 0 { found.len() } else { a.top.min(found.len()) };
    let pictures = match &a.pictures {
        Some(dir) => {
            let [w, h, _] = crate::surface_args::parse_size(&a.size)?;
            let pick = Pictures { dir, input: &a.input, extent: Extent::<Texels>::new_2d(w, h), count: shown.min(10) };
            write_pictures(&pick, &found, format)?
        }
        None => Vec::new(),
    };
    let random = identify::random_roughness(format, elem)?;
    let best_picture = found.iter().find(|f| f.r.roughness.is_some() && !f.r.flat);
    let stands_out = best_picture.is_some_and(|f| identify::stands_out(f.r.roughness.unwrap_or(f64::MAX), random));
    let facts = verdict::Facts {
        found: &found,
        auto_offsets: q.auto.then_some(offsets_tried),
        available,
        margin,
        random,
        base: q.base,
        gob_orders: !matches!(gpus, Gpus::One(g) if !g.is_gf100_or_later()),
        shown,
    };
    let hint = verdict::lines(&facts);
    let records = records(q, &found[..shown], available);
    Ok(Outcome { found, records, tried, available, margin, offsets_tried, pictures, random, stands_out, hint })
}

/// The records of `found`, ranked from 1; `available` bytes of the dump from the offset (the
/// whole dump with `--offset auto`).
fn records(q: &Query, found: &[Found], available: u64) -> Vec<CandidateRecord> {
    // The flags that select this surface in the dump, before each candidate's layout flags.
    let element = match (&q.a.format, q.a.elem_size) {
        (Some(f), _) => format!("--format {f}"),
        (None, e) => format!("--elem-size {}", e.unwrap_or(q.elem)),
    };
    let gpu = match q.gpus {
        Gpus::One(_) => Some(q.a.gpu.as_str()),
        Gpus::Any => None,
    };
    let subject = identify::Subject { gpu, element: &element, size: &q.a.size };
    let records = found.iter().enumerate().map(|(i, f)| {
        // Bytes of the dump from the candidate's offset: whether its whole surface lies in it.
        let from = if q.auto { available.saturating_sub(f.offset) } else { available };
        CandidateRecord::new(i + 1, &f.r, f.offset, from, subject)
    });
    records.collect()
}

/// The name `--gpu` gave: the chip's, or `any`.
fn gpu_name(gpus: Gpus) -> &'static str {
    match gpus {
        Gpus::One(g) => g.name(),
        Gpus::Any => "any",
    }
}

/// A candidate record as JSON.
fn record_json(r: &CandidateRecord) -> Value {
    Value::Object(crate::keys::fields_json(r.fields()))
}

/// Prints what `guess` found as JSON.
fn render_json(q: &Query, o: &Outcome) -> Result<(), Box<dyn std::error::Error>> {
    let first_offset = o.found.first().map_or(0, |f| f.offset);
    let v = json!({
        "gpu": gpu_name(q.gpus),
        "elem_size": q.elem,
        "elem_size_bytes": q.elem,
        "size_elements": q.size,
        "dump_bytes": o.available,
        "offset": if q.auto { json!("auto") } else { json!(first_offset) },
        "offset_bytes": o.found.first().filter(|f| f.r.roughness.is_some()).map(|f| f.offset),
        "offsets_tried": o.offsets_tried,
        "candidates_tried": o.tried,
        "margin": o.margin.map(|m| if m.is_finite() { json!(m) } else { json!("inf") }),
        "candidates": o.records.iter().map(record_json).collect::<Vec<_>>(),
        "pictures": o.pictures.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
        "address": q.base,
        "random_roughness": o.random,
        "stands_out": o.stands_out,
        "hint": o.hint,
    });
    crate::outln!("{}", serde_json::to_string_pretty(&v)?)?;
    Ok(())
}

/// Prints what `guess` found as a table, the verdict after it.
fn render_table(q: &Query, o: &Outcome) -> Result<(), crate::io::out::StdoutError> {
    let (tried, offsets_tried, elem, size) = (o.tried, o.offsets_tried, q.elem, q.size);
    let from = if q.auto {
        format!("searched at {offsets_tried} offset{}", if offsets_tried == 1 { "" } else { "s" })
    } else {
        format!("{} bytes from offset {}", o.available, o.found.first().map_or(0, |f| f.offset))
    };
    crate::outln!(
        "# {tried} candidate layouts for {} ({}x{} elements of {elem} bytes) in '{}' ({from})",
        gpu_name(q.gpus),
        size[0],
        size[1],
        q.input_name
    )?;
    crate::outln!("# roughness: mean squared byte difference to the right and below; lower is smoother")?;
    crate::outln!("{:>4} {:>9} {:>12}  {:<30} untile flags", "rank", "roughness", "size_bytes", "layout")?;
    for (f, rec) in o.found.iter().zip(&o.records) {
        let r = &f.r;
        let part = if r.roughness.is_some() && r.rows_scored < identify::sample_region(&r.candidate.surface).h {
            "*"
        } else {
            ""
        };
        let score = match (r.roughness, r.same_as) {
            (None, _) => "too short".to_string(),
            (Some(_), Some(j)) => format!("= #{}", j + 1),
            (Some(_), None) if r.flat => "flat".to_string(),
            (Some(s), None) => format!("{s:.3}{part}"),
        };
        crate::outln!("{:>4} {score:>9} {:>12}  {:<30} {}", rec.rank, rec.size_bytes, rec.label, rec.flags)?;
    }
    if o.records.len() < o.found.len() {
        crate::outln!("... {} more (--top 0 lists all)", o.found.len() - o.records.len())?;
    }
    for line in &o.hint {
        crate::outln!("{line}")?;
    }
    for p in &o.pictures {
        eprintln!("wrote {}", p.display());
    }
    Ok(())
}

/// Runs `nvsurf guess`: parses the arguments, ranks the candidates, prints them.
pub fn run(a: GuessArgs) -> CmdResult {
    let q = parse(a)?;
    let o = rank_dump(&q)?;
    if q.a.json {
        render_json(&q, &o)?;
    } else {
        render_table(&q, &o)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Ranks every candidate with the surface at `offset` of the dump; returns the ranking and
/// how many bytes the dump holds from there.
fn rank_at(
    path: &std::path::Path,
    offset: u64,
    gpus: Gpus,
    elem: u32,
    size: [u32; 3],
    format: Option<&nvsurf::format::Format>,
) -> Result<(Ranking, u64), Box<dyn std::error::Error>> {
    let (dump, available, cands) = read_dump(path, offset, gpus, elem, size)?;
    refuse_empty(path, available, Some(offset))?;
    let ranking = match dump {
        Dump::Held(bytes) => identify::rank(&bytes, available, cands, format)?,
        Dump::File => rank_from_file(path, offset, available, cands, format)?,
    };
    Ok((ranking, available))
}

/// [`identify::rank_by`] reading each candidate's sample window from the file at `offset`.
pub fn rank_from_file(
    path: &std::path::Path,
    offset: u64,
    available: u64,
    cands: Vec<Candidate>,
    format: Option<&nvsurf::format::Format>,
) -> Result<Ranking, Box<dyn std::error::Error>> {
    let shown = path.display();
    let mut f = std::fs::File::open(path).map_err(|e| format!("cannot read '{shown}': {e}"))?;
    // The library's error type has no room for an I/O error: it is kept here, and a
    // placeholder ends the ranking.
    let mut failed = None;
    let ranked = identify::rank_by(available, cands, format, |_, w, out| {
        crate::io::read_pieces_at(&mut f, offset, &w.pieces, out).map_err(|e| {
            failed = Some(e);
            Error::BufferTooSmall { what: "sample window", needed: w.size_bytes(), got: 0 }
        })
    });
    if let Some(e) = failed {
        return Err(format!("cannot read '{shown}': {e}").into());
    }
    Ok(ranked?)
}

/// Where the candidates' samples come from.
enum Dump {
    /// A regular file: each candidate's sample window is read from it when scored.
    File,
    /// The bytes of a pipe, FIFO or device, from the surface's offset on.
    Held(crate::io::LineAligned),
}

/// Where the samples come from, how many bytes the dump holds from `offset`, and the
/// candidates for that length. A regular file's length is taken from its metadata and nothing
/// is read yet: each candidate then reads only its sample window ([`identify::sample_window`],
/// [`crate::io::read_pieces_at`]), a few MiB for a 16384x16384 surface of 16-byte elements where its first
/// 512 whole rows would be 128 MiB. A pipe is read up to the largest candidate's size (its
/// length decides which candidates fit), and its length is what it held.
fn read_dump(
    path: &std::path::Path,
    offset: u64,
    gpus: Gpus,
    elem: u32,
    size: [u32; 3],
) -> Result<(Dump, u64, Vec<identify::Candidate>), Box<dyn std::error::Error>> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    let past_end = |held: u64| format!("--offset {offset} is past the end of '{}' ({held} bytes)", path.display());
    if meta.is_file() {
        let available = meta.len().checked_sub(offset).ok_or_else(|| past_end(meta.len()))?;
        return Ok((Dump::File, available, gpus.candidates(elem, size, available)?));
    }
    let largest = gpus.candidates(elem, size, 0)?.iter().map(|c| c.surface.size_bytes()).max().unwrap_or(0);
    let (dump, end) = crate::io::LineAligned::read_range(path, offset, largest)?;
    if end < offset {
        return Err(past_end(end).into());
    }
    let available = dump.len() as u64;
    // Again with the length known: the pitch that fills it exactly is a candidate too.
    Ok((Dump::Held(dump), available, gpus.candidates(elem, size, available)?))
}

/// Where `--pictures` writes, and what it reads for them.
struct Pictures<'a> {
    /// The directory.
    dir: &'a std::path::Path,
    /// The dump.
    input: &'a std::path::Path,
    /// The pictures' size in pixels.
    extent: Extent<Texels>,
    /// How many distinct candidates to write.
    count: usize,
}

/// Untiles the best distinct candidates whole (each read from the dump on its own) and writes
/// them as PNG pictures in the directory.
fn write_pictures(
    pick: &Pictures,
    found: &[Found],
    format: Option<&nvsurf::format::Format>,
) -> Result<Vec<PathBuf>, Box<dyn std::error::Error>> {
    let Some(f) = format else { return Ok(Vec::new()) };
    let dir = pick.dir;
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create '{}': {e}", dir.display()))?;
    let mut written = Vec::new();
    for (i, Found { offset, r }) in found.iter().enumerate() {
        if written.len() >= pick.count || r.roughness.is_none() {
            break;
        }
        if r.same_as.is_some() {
            continue;
        }
        let s = r.candidate.surface;
        // A surface the dump ends inside (scored on the rows it holds): the rest reads as zeros.
        let (held, _) = crate::io::LineAligned::read_range(pick.input, *offset, s.size_bytes())?;
        let n = usize::try_from(s.size_bytes())?;
        let mut dump = crate::io::LineAligned::zeroed("surface", n)?;
        dump[..held.len()].copy_from_slice(&held);
        let region = Region::whole(&s);
        let lin = LinearLayout::packed(&region, s.elem_size_bytes());
        let n = usize::try_from(lin.image_bytes(&region).ok_or("picture size overflows")?)?;
        let mut linear = crate::picture::try_filled("picture", n, 0u8)?;
        tile::untile_with(&s, &dump, &mut linear, region, lin, &CopyOptions::default())?;
        let path = dir.join(picture_name(i + 1, &r.candidate));
        written.extend(write_surface(&path, f, pick.extent, &linear)?);
    }
    Ok(written)
}
