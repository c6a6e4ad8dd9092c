//! `nvsurf formats`: the texture, color and zeta format catalogue (errata fixed).

use crate::CmdResult;
use nvsurf::format::{color_formats, texture_formats, zeta_formats, Kind, Layout, TextureFormat};
use nvsurf::Error;
use serde_json::{json, Value};
use std::process::ExitCode;

/// Arguments of `nvsurf formats`.
#[derive(clap::Args, Debug)]
pub struct FormatsArgs {
    /// Only this table: texture (alias tex), color or zeta.
    #[arg(long)]
    kind: Option<String>,
    /// Print a JSON array of objects (`kind`, `id`, `names`, `elem_size`, ...).
    #[arg(long)]
    json: bool,
}

fn parse_kind(s: &str) -> Result<Kind, Error> {
    match s.to_ascii_lowercase().as_str() {
        "texture" | "tex" => Ok(Kind::Texture),
        "color" | "colour" => Ok(Kind::Color),
        "zeta" | "depth" => Ok(Kind::Zeta),
        _ => Err(Error::UnknownName {
            kind: "format kind",
            name: s.into(),
            suggestions: nvsurf::error::closest(s, ["texture", "color", "zeta"]),
        }),
    }
}

fn layout_text(t: &TextureFormat) -> String {
    match t.layout {
        Layout::Simple(bits) => {
            let b: Vec<String> = bits.iter().map(|b| b.to_string()).collect();
            format!("C0.. = {} bits from LSB", b.join("_"))
        }
        Layout::SharedExp => "9-bit mantissas C0-C2, 5-bit shared exponent".into(),
        Layout::Yuv { u, ya, v, yb } => format!("bytes: U={u} YA={ya} V={v} YB={yb}"),
        Layout::Zeta(z) => {
            let mut s = format!("Z {:?} at bit {}", z.z, z.z_lo);
            if let Some(b) = z.s_lo {
                s += &format!(", S8 at {b}");
            }
            if let Some(b) = z.c_lo {
                s += &format!(", C8 at {b}");
            }
            s
        }
        Layout::Compressed(nvsurf::format::Bc::Astc { w, h }) => format!("ASTC {w}x{h} block"),
        Layout::Compressed(bc) => format!("{bc:?} 4x4 block"),
        Layout::Bitmap => "8x8 one-bit samples, LSB first, x then y".into(),
    }
}

fn texture_json(t: &TextureFormat) -> Value {
    let mut v = json!({
        "kind": "texture",
        "id": t.id,
        "id_name": format!("tex:{:#04x}", t.id),
        "names": t.names(),
        "elem_size": t.elem_size_bytes,
        "block": [t.layout.block_dims().0, t.layout.block_dims().1],
        "category": t.layout.category(),
        "layout": layout_text(t),
        "since": t.since.map(|g| g.name()),
    });
    if let Layout::Simple(bits) = t.layout {
        v["bits"] = json!(bits);
    }
    crate::keys::add_unit_keys(&mut v, crate::keys::ELEMENT);
    v
}

/// The catalogue as JSON objects, in texture, color, zeta order.
pub fn catalogue(kind: Option<Kind>) -> Vec<Value> {
    let mut out = Vec::new();
    if kind.is_none_or(|k| k == Kind::Texture) {
        out.extend(texture_formats().iter().map(texture_json));
    }
    if kind.is_none_or(|k| k == Kind::Color) {
        for c in color_formats() {
            out.push(units(json!({
                "kind": "color",
                "id": c.id,
                "id_name": format!("color:{:#04x}", c.id),
                "names": c.names(),
                "elem_size": c.texture().elem_size_bytes,
                "block": [c.texture().layout.block_dims().0, c.texture().layout.block_dims().1],
                "texture": c.texture_id,
                "components": c.assign,
                "type": c.ty.name(),
                "srgb": c.srgb,
            })));
        }
    }
    if kind.is_none_or(|k| k == Kind::Zeta) {
        for z in zeta_formats() {
            let tex: Vec<Value> = z
                .textures
                .iter()
                .map(|(m, t)| json!({"coverage": if m.is_empty() { "none" } else { m }, "texture": t}))
                .collect();
            out.push(units(json!({
                "kind": "zeta",
                "id": z.id,
                "id_name": format!("zeta:{:#04x}", z.id),
                "names": z.names(),
                "elem_size": z.texture().elem_size_bytes,
                "block": [1, 1],
                "textures": tex,
                "since": z.since.map(|g| g.name()),
            })));
        }
    }
    out
}

/// Runs `nvsurf formats`.
pub fn run(a: FormatsArgs) -> CmdResult {
    let kind = a.kind.as_deref().map(parse_kind).transpose()?;
    let rows = catalogue(kind);
    if a.json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(ExitCode::SUCCESS);
    }
    let mut last = "";
    for r in &rows {
        let k = r["kind"].as_str().unwrap_or("");
        if k != last {
            println!("{} formats:", k);
            last = k;
        }
        let names: Vec<&str> = r["names"].as_array().into_iter().flatten().filter_map(|n| n.as_str()).collect();
        let detail = match k {
            "texture" => format!(
                "{} {}{}",
                r["category"].as_str().unwrap_or(""),
                r["layout"].as_str().unwrap_or(""),
                r["since"].as_str().map(|g| format!(", {g}+")).unwrap_or_default()
            ),
            "color" => format!(
                "tex:{:#04x} {} {}{}",
                r["texture"].as_u64().unwrap_or(0),
                r["components"].as_str().unwrap_or(""),
                r["type"].as_str().unwrap_or(""),
                if r["srgb"].as_bool() == Some(true) { " sRGB" } else { "" }
            ),
            _ => {
                let t: Vec<String> = r["textures"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|t| {
                        let m = t["coverage"].as_str().unwrap_or("");
                        let id = t["texture"].as_u64().unwrap_or(0);
                        if m == "none" {
                            format!("tex:{id:#04x}")
                        } else {
                            format!("{m} tex:{id:#04x}")
                        }
                    })
                    .collect();
                t.join(", ")
            }
        };
        println!(
            "  {:#04x}  {:>2} B  {:<40} {}",
            r["id"].as_u64().unwrap_or(0),
            r["elem_size"].as_u64().unwrap_or(0),
            names.join(" "),
            detail
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `v` with the unit-named keys beside the old ones.
fn units(mut v: Value) -> Value {
    crate::keys::add_unit_keys(&mut v, crate::keys::ELEMENT);
    v
}
