//! `nvsurf msaa`: multisample modes, sample positions, belongs-lists, C bitfields, pictures.

use crate::CmdResult;
use nvsurf::msaa::{self, ChunkRule, MsMode, Position};
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::process::ExitCode;

/// Arguments of `nvsurf msaa`.
#[derive(clap::Args)]
pub struct MsaaArgs {
    /// Only this mode (name, alias or id: ms8_cs8, 16xq-csaa, 0xa); `--mode` is the old
    /// spelling, still accepted.
    #[arg(long = "ms-mode", alias = "mode", value_name = "M")]
    mode: Option<String>,
    /// Print a JSON array of modes.
    #[arg(long)]
    json: bool,
    /// Draw the pixel with its full and coverage samples (.svg or .png).
    #[arg(long, value_name = "OUT.svg|OUT.png")]
    picture: Option<std::path::PathBuf>,
}

fn raw(p: Option<Position>) -> Value {
    p.map_or(Value::Null, |p| json!([p.x_sixteenths, p.y_sixteenths]))
}

fn float(p: Option<Position>) -> Value {
    p.map_or(Value::Null, |p| json!([p.x(), p.y()]))
}

/// The JSON object of one mode.
pub fn mode_json(m: MsMode) -> Value {
    let i = m.info();
    let samples: Vec<Value> = i
        .full
        .iter()
        .map(|s| {
            json!({
                "id": s.id,
                "position_raw": raw(s.position),
                "position": float(s.position),
                "grid_xy": s.grid_xy.map_or(Value::Null, |(x, y)| json!([x, y])),
                // The Vulkan sample index stored in this cell, where this is the mode Vulkan
                // uses for its count (nvsurf::msaa::MsMode::vulkan_index_at).
                "vulkan_index": s.grid_xy.and_then(|c| m.vulkan_index_at(c)),
            })
        })
        .collect();
    let coverage: Vec<Value> = if i.coverage.is_empty() {
        // Known count, unknown details (MS8_CS24): ids follow the full samples, the rest is null.
        (0..i.coverage_count)
            .map(|k| {
                json!({"id": i.full.len() as u8 + k, "position_raw": null, "position": null,
                       "belongs": null, "c_bits": null, "c_associations": null})
            })
            .collect()
    } else {
        i.coverage
            .iter()
            .map(|c| {
                let mut sorted = c.belongs.map(<[u8]>::to_vec);
                if let Some(s) = sorted.as_mut() {
                    s.sort_unstable();
                }
                json!({
                    "id": c.id,
                    "position_raw": raw(c.position),
                    "position": float(c.position),
                    "belongs": c.belongs,
                    "c_bits": c.c_bits.map(|(lo, hi)| json!([lo, hi])),
                    "c_associations": sorted,
                })
            })
            .collect()
    };
    let chunks = msaa::c_chunk_samples(m, ChunkRule::Document).ok().map(|v| {
        v.iter().map(|c| json!({"sample": c.sample, "c_shift": c.c_shift, "bits": c.bits})).collect::<Vec<_>>()
    });
    json!({
        "id": i.id,
        "names": i.names,
        "grid": [i.grid_w, i.grid_h],
        "min_gpu": i.min_gpu.name(),
        "full_samples": i.full.len(),
        "coverage_count": i.coverage_count,
        "samples": samples,
        "coverage": coverage,
        "c_bits_per_pixel": i.c_bits_per_pixel,
        "c_chunks": chunks,
        "elem_sizes": m.allowed_elem_sizes(),
        // The sample count `--samples N` maps to this mode for (null where Vulkan uses another).
        "vulkan_samples": m.is_vulkan_mode().then(|| m.full_samples()),
        "errata": i.errata,
        "note": if i.note.is_empty() { Value::Null } else { json!(i.note) },
    })
}

fn pos_text(p: Option<Position>) -> String {
    match p {
        Some(p) => format!("(0x0.{:x}, 0x0.{:x}) = ({:.4}, {:.4})", p.x_sixteenths, p.y_sixteenths, p.x(), p.y()),
        None => "(unknown)".into(),
    }
}

/// The text description of one mode.
pub fn mode_text(m: MsMode) -> String {
    let i = m.info();
    let mut o = String::new();
    let _ = writeln!(
        o,
        "mode {:#x}: {} [{}x{}] {}+{}",
        i.id,
        i.names[0],
        i.grid_w,
        i.grid_h,
        i.min_gpu,
        if i.names.len() > 1 { format!("  (aliases: {})", i.names[1..].join(", ")) } else { String::new() }
    );
    if !i.errata.is_empty() {
        let _ = writeln!(o, "  errata: {}", i.errata.join("; "));
    }
    if !i.note.is_empty() {
        let _ = writeln!(o, "  note: {}", i.note);
    }
    let _ = writeln!(o, "  full samples: {}", i.full.len());
    for s in i.full {
        let g = s.grid_xy.map_or("[?]".to_string(), |(x, y)| format!("[{x},{y}]"));
        let vk =
            s.grid_xy.and_then(|c| m.vulkan_index_at(c)).map_or(String::new(), |v| format!(" (Vulkan sample {v})"));
        let _ = writeln!(o, "    sample {:x}: {} {g}{vk}", s.id, pos_text(s.position));
    }
    if i.coverage_count > 0 {
        let _ = writeln!(o, "  coverage samples: {}", i.coverage_count);
        if i.coverage.is_empty() {
            let _ = writeln!(o, "    positions and belongs-lists unknown");
        }
        for c in i.coverage {
            let b: Vec<String> = c.belongs.unwrap_or(&[]).iter().map(|s| format!("{s:x}")).collect();
            let _ =
                writeln!(o, "    coverage sample {:x}: {}, belongs to {}", c.id, pos_text(c.position), b.join(", "));
        }
        match i.c_bits_per_pixel {
            Some(bits) => {
                let _ = writeln!(o, "  C component: {bits} bits per pixel, bitfields:");
                for c in i.coverage {
                    if let (Some((lo, hi)), Some(b)) = (c.c_bits, c.belongs) {
                        let mut s = b.to_vec();
                        s.sort_unstable();
                        let s: Vec<String> = s.iter().map(|v| format!("{v:x}")).collect();
                        let _ = writeln!(o, "    {lo}-{hi}: sample {:x} associations: {}", c.id, s.join(", "));
                    }
                }
                if let Ok(chunks) = msaa::c_chunk_samples(m, ChunkRule::Document) {
                    let t: Vec<String> = chunks
                        .iter()
                        .map(|c| format!("bits {}-{} in sample {}", c.c_shift, c.c_shift + c.bits - 1, c.sample))
                        .collect();
                    let _ = writeln!(o, "  C storage (8-bit chunks from the LSB): {}", t.join(", "));
                }
            }
            None => {
                let _ = writeln!(o, "  C component: unknown");
            }
        }
    }
    let sizes: Vec<String> =
        m.allowed_elem_sizes().iter().map(|&e| if e == 12 { "12 (GF100+)".into() } else { e.to_string() }).collect();
    let _ = writeln!(o, "  element sizes: {} bytes; blocklinear surfaces only", sizes.join(", "));
    o
}

/// Runs `nvsurf msaa`.
pub fn run(a: MsaaArgs) -> CmdResult {
    let modes: Vec<MsMode> = match &a.mode {
        Some(m) => vec![MsMode::parse(m)?],
        None => MsMode::all().collect(),
    };
    if a.json {
        let v: Vec<Value> = modes.iter().map(|m| mode_json(*m)).collect();
        crate::outln!("{}", serde_json::to_string_pretty(&v)?)?;
    } else {
        let texts: Vec<String> = modes.iter().map(|m| mode_text(*m)).collect();
        crate::out!("{}", texts.join("\n"))?;
    }
    if let Some(path) = &a.picture {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
        match ext.as_str() {
            "svg" => crate::io::write_atomic(path, svg(&modes).as_bytes())?,
            "png" => write_png(path, &modes)?,
            _ => {
                return Err(format!("picture {} must end in .svg or .png", path.display()).into());
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

const CELL: f32 = 320.0; // one pixel drawn 320 units wide: 20 units per sixteenth
const PAD: f32 = 30.0;

/// An SVG with one pixel per mode: full samples filled, coverage samples hollow and joined to
/// the first full sample of their belongs-list.
pub fn svg(modes: &[MsMode]) -> String {
    let w = PAD + modes.len() as f32 * (CELL + PAD);
    let h = CELL + 2.0 * PAD + 20.0;
    let mut o = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
         font-family=\"monospace\" font-size=\"12\">\n<rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>\n"
    );
    for (k, m) in modes.iter().enumerate() {
        let i = m.info();
        let x0 = PAD + k as f32 * (CELL + PAD);
        let y0 = PAD + 10.0;
        let _ = writeln!(o, "<text x=\"{x0}\" y=\"{}\">{:#x} {}</text>", y0 - 12.0, i.id, i.names[0]);
        let _ = writeln!(
            o,
            "<rect x=\"{x0}\" y=\"{y0}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"none\" stroke=\"black\"/>"
        );
        for t in 1..16 {
            let d = t as f32 * CELL / 16.0;
            let _ = writeln!(o, "<path d=\"M{} {y0}v{CELL}M{x0} {}h{CELL}\" stroke=\"#eee\"/>", x0 + d, y0 + d);
        }
        let at =
            |p: Position| (x0 + f32::from(p.x_sixteenths) * CELL / 16.0, y0 + f32::from(p.y_sixteenths) * CELL / 16.0);
        for c in i.coverage {
            if let (Some(p), Some(b)) = (c.position, c.belongs) {
                let (cx, cy) = at(p);
                if let Some(fp) = i.full.get(usize::from(b[0])).and_then(|f| f.position) {
                    let (fx, fy) = at(fp);
                    let _ = writeln!(o, "<line x1=\"{cx}\" y1=\"{cy}\" x2=\"{fx}\" y2=\"{fy}\" stroke=\"#9ab\" stroke-dasharray=\"4 3\"/>");
                }
                let _ = writeln!(
                    o,
                    "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"7\" fill=\"white\" stroke=\"#36c\" stroke-width=\"2\"/>"
                );
                let _ = writeln!(o, "<text x=\"{}\" y=\"{}\" fill=\"#36c\">{:x}</text>", cx + 9.0, cy + 4.0, c.id);
            }
        }
        for s in i.full {
            if let Some(p) = s.position {
                let (cx, cy) = at(p);
                let _ = writeln!(o, "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"7\" fill=\"#c33\"/>");
                let _ = writeln!(o, "<text x=\"{}\" y=\"{}\">{:x}</text>", cx + 9.0, cy + 4.0, s.id);
            }
        }
        if i.full.iter().all(|s| s.position.is_none()) {
            let _ = writeln!(o, "<text x=\"{}\" y=\"{}\">positions unknown</text>", x0 + 10.0, y0 + CELL / 2.0);
        }
    }
    o.push_str("</svg>\n");
    o
}

/// The same picture as a PNG (no labels): red discs for full samples, blue rings for coverage.
fn write_png(path: &std::path::Path, modes: &[MsMode]) -> Result<(), Box<dyn std::error::Error>> {
    let cell = 256usize;
    let pad = 16usize;
    let w = pad + modes.len() * (cell + pad);
    let h = cell + 2 * pad;
    let mut img = vec![255u8; w * h * 3];
    let mut put = |x: i64, y: i64, c: [u8; 3]| {
        if x >= 0 && y >= 0 && (x as usize) < w && (y as usize) < h {
            let o = (y as usize * w + x as usize) * 3;
            img[o..o + 3].copy_from_slice(&c);
        }
    };
    for (k, m) in modes.iter().enumerate() {
        let i = m.info();
        let x0 = (pad + k * (cell + pad)) as i64;
        let y0 = pad as i64;
        for t in 0..=16 {
            let d = (t * cell / 16) as i64;
            let shade = if t == 0 || t == 16 { [0, 0, 0] } else { [225, 225, 225] };
            for q in 0..=cell as i64 {
                put(x0 + d, y0 + q, shade);
                put(x0 + q, y0 + d, shade);
            }
        }
        let centre = |p: Position| {
            (x0 + i64::from(p.x_sixteenths) * cell as i64 / 16, y0 + i64::from(p.y_sixteenths) * cell as i64 / 16)
        };
        let mut disc = |cx: i64, cy: i64, r_in: i64, r_out: i64, c: [u8; 3]| {
            for dy in -r_out..=r_out {
                for dx in -r_out..=r_out {
                    let d2 = dx * dx + dy * dy;
                    if d2 <= r_out * r_out && d2 >= r_in * r_in {
                        put(cx + dx, cy + dy, c);
                    }
                }
            }
        };
        for c in i.coverage {
            if let Some(p) = c.position {
                let (cx, cy) = centre(p);
                disc(cx, cy, 4, 6, [51, 102, 204]);
            }
        }
        for s in i.full {
            if let Some(p) = s.position {
                let (cx, cy) = centre(p);
                disc(cx, cy, 0, 6, [204, 51, 51]);
            }
        }
    }
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w as u32, h as u32);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.write_header()?.write_image_data(&img)?;
    crate::io::write_atomic(path, &out)
}
