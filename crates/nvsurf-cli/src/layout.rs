//! `nvsurf layout` and `nvsurf addr`.

use crate::surface_args::{parse_point, Assumed, AssumedJson, SurfaceArgs};
use crate::CmdResult;
use nvsurf::layout::{map, Surface};
use nvsurf::tile::{self, Region};
use serde_json::{json, Value};
use std::io::Write;
use std::process::ExitCode;

/// Arguments of `nvsurf layout`.
#[derive(clap::Args)]
pub struct LayoutArgs {
    #[command(flatten)]
    surface: SurfaceArgs,
    /// Print a JSON object instead of the summary.
    #[arg(long)]
    json: bool,
    /// Draw the address table in the document's style (one table per z slice).
    #[arg(long)]
    map: bool,
    /// With --map: draw slice --svg-z of the surface as an SVG picture instead (one cell per
    /// element labelled with its offset, coloured by gob in memory order, gob and block
    /// boundaries drawn; at most 4096 elements a slice).
    #[arg(long, requires = "map")]
    svg: bool,
    /// The z slice --svg draws.
    #[arg(long = "svg-z", value_name = "Z", default_value_t = 0, requires = "svg", value_parser = crate::surface_args::clap_u32)]
    svg_z: u32,
    /// Largest surface (in elements) that --map draws.
    #[arg(long = "map-limit", default_value_t = 65536, value_parser = crate::surface_args::clap_u64)]
    map_limit: u64,
}

/// Arguments of `nvsurf addr`.
#[derive(clap::Args)]
pub struct AddrArgs {
    #[command(flatten)]
    surface: SurfaceArgs,
    /// Element coordinates X,Y[,Z].
    #[arg(long, value_name = "X,Y[,Z]", required_unless_present = "region", conflicts_with = "region")]
    at: Option<String>,
    /// Instead of one element, a box X,Y,Z,W,H,D: the byte ranges of the surface that hold it
    /// (its window: the blocks, row segments or swizzled square it needs), for reading a box
    /// out of GPU memory or tracking which memory a region of a texture covers.
    #[arg(long = "box", value_name = "X,Y,Z,W,H,D")]
    region: Option<String>,
    /// Print {"address": N, "offset": N}; with --box, the ranges and the window (see the README).
    #[arg(long)]
    json: bool,
}

/// The layout summary as JSON (also used by `--json`): the library's [`nvsurf::SurfaceRecord`]
/// and the deprecated keys beside their replacements.
pub fn summary_json(s: &Surface) -> Value {
    let mut v = Value::Object(crate::keys::fields_json(nvsurf::SurfaceRecord::new(s).fields()));
    crate::keys::add_old_keys(&mut v, crate::keys::SURFACE);
    v
}

fn summary_text(s: &Surface, order_known: bool) -> String {
    let [w, h, d] = s.size().to_array();
    let es = s.elem_size_bytes();
    let mut out = String::new();
    let mut line = |k: &str, v: String| out.push_str(&format!("{k:<13}{v}\n"));
    line("layout", format!("{} on {}", s.kind().name(), s.gpu()));
    line("elements", format!("{w} x {h} x {d}, {es} bytes each (row {} bytes)", u64::from(w) * u64::from(es)));
    line("address", format!("{:#x} .. {:#x}", s.address(), s.address() + s.size_bytes()));
    match s {
        Surface::BlockLinear(b) => {
            let [bx, by, bz] = b.block_extent_bytes_rows_slices();
            let [ex, ey, ez] = b.block_elements();
            let [gx, gy, gz] = b.block_gobs();
            let [rx, ry, rz] = b.block_log2_requested();
            let [lx, ly, lz] = b.block_log2();
            line(
                "gob",
                format!(
                    "64 bytes x {} rows x 1 slice = {} bytes, order {}",
                    b.gob_height_rows(),
                    b.gob_bytes(),
                    if order_known { b.gob_order().name() } else { "unknown" }
                ),
            );
            line(
                "block log2",
                format!(
                    "requested {rx},{ry},{rz}, effective {lx},{ly},{lz} (auto-size {})",
                    if b.auto_size() { "on" } else { "off" }
                ),
            );
            line(
                "block",
                format!("{gx} x {gy} x {gz} gobs = {bx} bytes x {by} rows x {bz} slices = {ex} x {ey} x {ez} elements, {:#x} bytes", b.block_bytes()),
            );
            let [nx, ny, nz] = b.blocks();
            line("blocks", format!("{nx} x {ny} x {nz} = {}", u64::from(nx) * u64::from(ny) * u64::from(nz)));
            if let Some(bp) = b.binding() {
                line("binding", bp.name().to_string());
            }
            if b.is_byte_view() {
                line("note", "byte-oriented binding point: element size 1, width in bytes".to_string());
            }
        }
        Surface::Pitch(p) => line("pitch", format!("{} bytes", p.pitch_bytes())),
        Surface::Swizzled(sw) => {
            let [mx, my, mz] = sw.masks();
            line("index bits", format!("x {mx:#b}, y {my:#b}, z {mz:#b}"));
        }
    }
    line("size", format!("{:#x} bytes ({})", s.size_bytes(), s.size_bytes()));
    out
}

/// Runs `nvsurf layout`.
pub fn run_layout(a: LayoutArgs) -> CmdResult {
    // A map draws where each element's bytes lie, which needs the byte order; the summary
    // needs only the geometry.
    let args = a.surface.answering()?;
    let (s, assumed) = if a.map || a.svg { args.surface_assumed()? } else { args.surface_geometry()? };
    let samples = a.surface.samples.unwrap_or(1);
    let mode = nvsurf::msaa::MsMode::for_sample_count(samples)?;
    if a.json {
        let mut v = summary_json(&s);
        assumed.add_json(&mut v);
        // The sample grid the surface stores; its size in samples is its size in elements.
        v["samples"] = json!(samples);
        v["ms_mode"] = json!(mode.name());
        v["size_samples"] = json!(s.size().to_array());
        crate::outln!("{}", serde_json::to_string_pretty(&v)?)?;
    } else if a.svg {
        let svg = map::render_svg(&s, a.svg_z)?;
        let mut out = std::io::stdout().lock();
        out.write_all(svg.as_bytes())
            .and_then(|()| out.flush())
            .map_err(|e| format!("cannot write the map to stdout: {e}"))?;
        // What was assumed goes beside the map, once it is written: an error comes alone.
        eprintln!("assumed: {}", assumed.describe());
    } else if a.map {
        // Written as it is made: a large --map-limit map is hundreds of MB of text.
        let mut out = FmtOut { w: std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock()), err: None };
        let drawn = map::render_to(&s, a.map_limit, &mut out);
        let flushed = out.err.take().map_or_else(|| std::io::Write::flush(&mut out.w), Err);
        // A failed write (a full disk, a closed pipe) is the cause of a failed rendering.
        flushed.map_err(|e| format!("cannot write the map to stdout: {e}"))?;
        drawn?;
        // stdout is the map; what was assumed goes beside it, once it is drawn (a map over
        // --map-limit is refused in one line, alone).
        eprintln!("assumed: {}", assumed.describe());
    } else {
        crate::out!("{}", summary_text(&s, !assumed.gob_order_unknown))?;
        if samples > 1 {
            let (gw, gh) = mode.grid();
            crate::outln!(
                "{:<13}{samples} per pixel ({}, {gw}x{gh} grid): elements are samples",
                "samples",
                mode.name()
            )?;
        }
        crate::outln!("{:<13}{}", "assumed", assumed.describe())?;
        if let Some(note) = crate::surface_args::unknown_order_note(&assumed) {
            crate::outln!("{note}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `nvsurf addr`.
pub fn run_addr(a: AddrArgs) -> CmdResult {
    let (s, assumed) = a.surface.answering()?.surface_assumed()?;
    let Some(at) = &a.at else {
        // clap makes --at required without --box.
        let [x, y, z, w, h, d] = crate::surface_args::parse_list::<6>("box", a.region.as_deref().unwrap_or_default())?;
        return print_window(&s, Region::new([x, y, z], [w, h, d]), a.json, &assumed);
    };
    let [x, y, z] = parse_point("at", at)?;
    let offset = s.offset_of(x, y, z)?;
    let address = s.address() + offset;
    if a.json {
        let mut v = json!({"address": address, "offset": offset, "offset_bytes": offset});
        assumed.add_json(&mut v);
        crate::outln!("{v}")?;
    } else {
        // stdout is the address alone (scripts read it); what was assumed goes beside it.
        crate::outln!("{address:#x}")?;
        eprintln!("assumed: {}", assumed.describe());
    }
    Ok(ExitCode::SUCCESS)
}

/// `addr --box`: the window of `region` in `s` ([`tile::window()`]) as byte ranges (offsets
/// from the surface's start and GPU addresses), their total, and the window as a surface.
fn print_window(s: &Surface, region: Region, json: bool, assumed: &Assumed) -> CmdResult {
    let w = tile::window(s, region)?;
    if json {
        // Streamed: the object's other keys first, then each range as it is printed (a box of
        // twenty million rows is twenty million ranges; their JSON values are never gathered).
        let r = w.region;
        let mut v = json!({
            "box": [region.x, region.y, region.z, region.w, region.h, region.d],
            "bytes": w.size_bytes(),
            "surface_bytes": s.size_bytes(),
            "window": summary_json(&w.surface),
            "window_box": [r.x, r.y, r.z, r.w, r.h, r.d],
        });
        assumed.add_json(&mut v);
        crate::keys::add_unit_keys(&mut v, crate::keys::WINDOW);
        let head = serde_json::to_string_pretty(&v)?;
        let head = head.strip_suffix('}').ok_or("JSON object without its brace")?.trim_end();
        let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        let io = |e: std::io::Error| format!("cannot write the ranges to stdout: {e}");
        write!(out, "{head},\n  \"pieces\": [").map_err(io)?;
        for (i, p) in w.pieces.iter().enumerate() {
            let mut v = json!({
                "offset": p.offset_bytes,
                "address": s.address() + p.offset_bytes,
                "bytes": p.len_bytes,
                "window_offset": p.window_offset_bytes,
            });
            crate::keys::add_unit_keys(&mut v, crate::keys::PIECE);
            write!(out, "{}\n    {v}", if i == 0 { "" } else { "," }).map_err(io)?;
        }
        writeln!(out, "\n  ]\n}}").map_err(io)?;
        out.flush().map_err(io)?;
        return Ok(ExitCode::SUCCESS);
    }
    let n = w.pieces.len();
    crate::outln!(
        "# box {},{},{},{},{},{}: {} bytes of the surface's {} in {n} range{}",
        region.x,
        region.y,
        region.z,
        region.w,
        region.h,
        region.d,
        w.size_bytes(),
        s.size_bytes(),
        if n == 1 { "" } else { "s" }
    )?;
    crate::outln!("# assumed: {}", assumed.describe())?;
    crate::outln!("# address range (end exclusive)      offset             bytes  window offset")?;
    for p in &w.pieces {
        let a = s.address() + p.offset_bytes;
        crate::outln!(
            "{a:#012x}..{:#012x}  {:#012x}  {:>12}  {:>12}",
            a + p.len_bytes,
            p.offset_bytes,
            p.len_bytes,
            p.window_offset_bytes
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// A `core::fmt::Write` over a byte writer that keeps the first I/O error (the library's map
/// renderer writes text through `core::fmt`, which has no room for the cause).
struct FmtOut<W: std::io::Write> {
    w: W,
    err: Option<std::io::Error>,
}

impl<W: std::io::Write> std::fmt::Write for FmtOut<W> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        if self.err.is_some() {
            return Err(std::fmt::Error);
        }
        self.w.write_all(s.as_bytes()).map_err(|e| {
            self.err = Some(e);
            std::fmt::Error
        })
    }
}
