//! `nvsurf formats`: the texture, color and zeta format catalogue (errata fixed).

use crate::CmdResult;
use nvsurf::format::{
    aliases, color_formats, pre_g80_formats, texture_formats, zeta_formats, Format, Kind, Layout, PreG80Table,
    TextureFormat,
};
use nvsurf::Error;
use serde_json::{json, Value};
use std::process::ExitCode;

/// Arguments of `nvsurf formats`.
#[derive(clap::Args, Debug)]
pub struct FormatsArgs {
    /// Only this table: texture (alias tex), color or zeta.
    #[arg(long)]
    kind: Option<String>,
    /// Print a JSON array of objects (`kind`, `id`, `names`, `aliases`, `elem_size`, ...).
    #[arg(long)]
    json: bool,
    /// List this GPU's tables: NV10-NV40 (nv10, nv2a, nv30, nv40, ...) have the pre-G80 texture
    /// formats with their ids. Default: the G80 and later tables.
    #[arg(long)]
    gpu: Option<String>,
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

/// Every alias spelling of the row `(kind, id)` (Vulkan, DXGI and short names).
fn row_aliases(resolved: &[(Vec<String>, Format)], kind: Kind, id: u8) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for (spellings, _) in resolved.iter().filter(|(_, f)| f.kind() == kind && f.id() == id) {
        for s in spellings {
            if !v.iter().any(|x| x.eq_ignore_ascii_case(s)) {
                v.push(s.clone());
            }
        }
    }
    v
}

fn texture_json(t: &TextureFormat, resolved: &[(Vec<String>, Format)]) -> Value {
    let mut v = json!({
        "kind": "texture",
        "id": t.id,
        "id_name": format!("tex:{:#04x}", t.id),
        "names": t.names(),
        "aliases": row_aliases(resolved, Kind::Texture, t.id),
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
    let resolved: Vec<(Vec<String>, Format)> =
        aliases().iter().filter_map(|a| a.resolve().map(|f| (a.spellings(), f))).collect();
    let mut out = Vec::new();
    if kind.is_none_or(|k| k == Kind::Texture) {
        out.extend(texture_formats().iter().map(|t| texture_json(t, &resolved)));
    }
    if kind.is_none_or(|k| k == Kind::Color) {
        for c in color_formats() {
            out.push(units(json!({
                "kind": "color",
                "id": c.id,
                "id_name": format!("color:{:#04x}", c.id),
                "names": c.names(),
                "aliases": row_aliases(&resolved, Kind::Color, c.id),
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
                "aliases": row_aliases(&resolved, Kind::Zeta, z.id),
                "elem_size": z.texture().elem_size_bytes,
                "block": [1, 1],
                "textures": tex,
                "since": z.since.map(|g| g.name()),
            })));
        }
    }
    out
}

/// Swizzled, linear (`_RECT`, NV097 `LU_IMAGE`/`LC_IMAGE`) or compressed (stored in 4x4
/// blocks).
fn layout_kind(r: &nvsurf::format::PreG80Format) -> &'static str {
    match (r.linear, r.texture.layout) {
        (true, _) => "linear",
        (false, Layout::Compressed(_)) => "compressed",
        _ => "swizzled",
    }
}

/// The pre-G80 texture formats of `gpu` as JSON objects (`table`, `id`, `names`, `aliases`,
/// `elem_size`, `layout`, `linear`, `generations`, `palette`, `layout_kind`: swizzled, linear
/// or compressed, `kinds`: the texture kinds it may be, `2d` then `cube`, `3d`, `mips`).
pub fn pre_g80_catalogue(gpu: nvsurf::Gpu) -> Vec<Value> {
    pre_g80_formats(gpu)
        .into_iter()
        .map(|r| {
            let t = &r.texture;
            let mut v = json!({
                "kind": "texture",
                "table": r.table.name(),
                "id": r.id,
                "id_name": format!("{}:{:#04x}", r.table.name(), r.id),
                "names": r.names(),
                "aliases": r.aliases,
                "elem_size": t.elem_size_bytes,
                "block": [t.layout.block_dims().0, t.layout.block_dims().1],
                "category": t.layout.category(),
                "layout": layout_text(t),
                "swizzle": r.swizzle,
                "type": r.ty.name(),
                "linear": r.linear,
                "generations": r.generation_names(),
                "palette": r.palette,
                "layout_kind": layout_kind(r),
                "kinds": r.kind_names(),
            });
            if let Layout::Simple(bits) = t.layout {
                v["bits"] = json!(bits);
            }
            units(v)
        })
        .collect()
}

fn run_pre_g80(gpu: nvsurf::Gpu, table: PreG80Table, a: &FormatsArgs) -> CmdResult {
    if let Some(k) = a.kind.as_deref().map(parse_kind).transpose()? {
        if k != Kind::Texture {
            return Err(Error::Unsupported {
                field: "kind",
                value: k.name().into(),
                rule: format!("{} has one table of texture formats (`{}`)", gpu.name(), table.name()),
            }
            .into());
        }
    }
    let rows = pre_g80_catalogue(gpu);
    if a.json {
        crate::outln!("{}", serde_json::to_string_pretty(&rows)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    crate::outln!("{} texture formats of {} (TEX_FORMAT FORMAT field):", table.name(), gpu.name())?;
    for r in &rows {
        let names: Vec<&str> = r["names"].as_array().into_iter().flatten().filter_map(|n| n.as_str()).collect();
        let gens: Vec<&str> = r["generations"].as_array().into_iter().flatten().filter_map(|n| n.as_str()).collect();
        crate::outln!(
            "  {:#04x}  {:>2} B  {:<28} {:<8} {} RGBA={}{}, {}; {}",
            r["id"].as_u64().unwrap_or(0),
            r["elem_size"].as_u64().unwrap_or(0),
            names.join(" "),
            r["layout_kind"].as_str().unwrap_or(""),
            r["layout"].as_str().unwrap_or(""),
            r["swizzle"].as_str().unwrap_or(""),
            if r["palette"].as_bool() == Some(true) { ", palette indices (--palette)" } else { "" },
            gens.join(" "),
            r["kinds"].as_array().into_iter().flatten().filter_map(|n| n.as_str()).collect::<Vec<_>>().join(" ")
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `nvsurf formats`.
pub fn run(a: FormatsArgs) -> CmdResult {
    if let Some(g) = a.gpu.as_deref() {
        let gpu = nvsurf::Platform::parse(g)?.gpu();
        if let Some(table) = PreG80Table::of(gpu) {
            return run_pre_g80(gpu, table, &a);
        }
    }
    let kind = a.kind.as_deref().map(parse_kind).transpose()?;
    let mut rows = catalogue(kind);
    if let Some(g) = a.gpu.as_deref() {
        add_caps(&mut rows, nvsurf::Platform::parse(g)?.gpu());
    }
    if a.json {
        crate::outln!("{}", serde_json::to_string_pretty(&rows)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut last = "";
    for r in &rows {
        let k = r["kind"].as_str().unwrap_or("");
        if k != last {
            crate::outln!("{} formats:", k)?;
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
        crate::outln!(
            "  {:#04x}  {:>2} B  {:<40} {}",
            r["id"].as_u64().unwrap_or(0),
            r["elem_size"].as_u64().unwrap_or(0),
            names.join(" "),
            detail + &caps_text(r)
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The capability keys of each row on `gpu` (Mesa nil's format table, [`Format::caps_on`]):
/// `can_sample`, `can_filter`, `can_render`, `can_blend`, `can_store`, `can_depth`,
/// `can_buffer`; null where nil's table has no row for the format.
fn add_caps(rows: &mut [Value], gpu: nvsurf::Gpu) {
    const KEYS: [&str; 7] =
        ["can_sample", "can_filter", "can_render", "can_blend", "can_store", "can_depth", "can_buffer"];
    for r in rows.iter_mut() {
        let caps = r["id_name"].as_str().and_then(|n| Format::parse(n).ok()).and_then(|f| f.caps_on(gpu));
        let values = caps
            .map(|c| [c.can_sample, c.can_filter, c.can_render, c.can_blend, c.can_store, c.can_depth, c.can_buffer]);
        for (i, k) in KEYS.into_iter().enumerate() {
            r[k] = values.map_or(Value::Null, |v| Value::Bool(v[i]));
        }
    }
}

/// ` [sample filter ...]` for a row with capabilities, else nothing.
fn caps_text(r: &Value) -> String {
    let words: Vec<&str> = ["sample", "filter", "render", "blend", "store", "depth", "buffer"]
        .into_iter()
        .filter(|w| r[format!("can_{w}")].as_bool() == Some(true))
        .collect();
    match r.get("can_sample") {
        Some(Value::Bool(_)) if words.is_empty() => " [nothing on this GPU]".into(),
        Some(Value::Bool(_)) => format!(" [{}]", words.join(" ")),
        _ => String::new(),
    }
}

/// `v` with the unit-named keys beside the old ones.
fn units(mut v: Value) -> Value {
    crate::keys::add_unit_keys(&mut v, crate::keys::ELEMENT);
    v
}
