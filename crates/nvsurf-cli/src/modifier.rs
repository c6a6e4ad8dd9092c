//! `nvsurf modifier decode|list`: DRM format modifiers, their fields, and the ones NVK offers
//! for a GPU and format ([`nvsurf::modifier`]).

use crate::CmdResult;
use nvsurf::format::Format;
use nvsurf::modifier::{self, BlockLinear, Modifier};
use nvsurf::Platform;
use serde_json::{json, Value};
use std::process::ExitCode;

/// Arguments of `nvsurf modifier`.
#[derive(clap::Args)]
pub struct ModifierArgs {
    #[command(subcommand)]
    cmd: ModifierCmd,
}

#[derive(clap::Subcommand)]
enum ModifierCmd {
    /// Print the fields of a modifier: linear or block linear, PTE kind, gob kind generation,
    /// sector layout, compression, block height (Linux drm_fourcc.h).
    Decode {
        /// The modifier (0x-hex or decimal).
        #[arg(value_name = "0xMOD")]
        modifier: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// The modifiers NVK (Mesa's nil) offers for a format on a GPU, best first: block heights
    /// 32 to 1 gobs, then linear.
    List {
        /// The GPU.
        #[arg(long)]
        gpu: String,
        /// The format.
        #[arg(long)]
        format: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// The modifier as JSON and text show it: 16 hex digits.
fn hex(m: u64) -> String {
    format!("{m:#018x}")
}

/// The JSON object of a decoded modifier.
fn decoded_json(value: u64, m: &Modifier) -> Value {
    match m {
        Modifier::Linear => json!({
            "modifier": hex(value),
            "layout": "linear",
            "pte_kind": null,
            "gob_kind_generation": null,
            "sector_layout": null,
            "compression": null,
            "block_height_log2": null,
        }),
        Modifier::BlockLinear(b) => json!({
            "modifier": hex(value),
            "layout": "blocklinear",
            "vendor": "nvidia",
            "pte_kind": b.pte_kind,
            "gob_kind_generation": b.gob_kind_generation.value(),
            "gob_kind_generation_name": b.gob_kind_generation.name(),
            "sector_layout": b.sector_layout.value(),
            "sector_layout_name": b.sector_layout.name(),
            "compression": b.compression.value(),
            "compression_name": b.compression.name(),
            "block_height_log2": b.block_height_log2,
            "block_height_gobs": 1u32 << b.block_height_log2,
        }),
    }
}

/// One line of text for a block-linear modifier's fields.
fn fields_text(b: &BlockLinear) -> String {
    format!(
        "block linear, PTE kind {:#04x}, gob kind generation {} ({}), sector layout {} ({}), compression {} ({}), \
         block height log2 {} ({} gobs)",
        b.pte_kind,
        b.gob_kind_generation.value(),
        b.gob_kind_generation.name(),
        b.sector_layout.value(),
        b.sector_layout.name(),
        b.compression.value(),
        b.compression.name(),
        b.block_height_log2,
        1u32 << b.block_height_log2
    )
}

fn decode(text: &str, as_json: bool) -> CmdResult {
    let value = modifier::parse(text)?;
    let m = Modifier::decode(value).map_err(nvsurf::Error::from)?;
    if as_json {
        crate::outln!("{}", serde_json::to_string_pretty(&decoded_json(value, &m))?)?;
        return Ok(ExitCode::SUCCESS);
    }
    match m {
        Modifier::Linear => crate::outln!("{}: linear (DRM_FORMAT_MOD_LINEAR)", hex(value))?,
        Modifier::BlockLinear(b) => crate::outln!("{}: {}", hex(value), fields_text(&b))?,
    }
    Ok(ExitCode::SUCCESS)
}

fn list(gpu: &str, format: &str, as_json: bool) -> CmdResult {
    let gpu = Platform::parse(gpu)?.gpu();
    let f = Format::parse_for(format, gpu)?;
    let mods = modifier::modifiers_for(gpu, &f)?;
    if as_json {
        let v: Vec<Value> = mods
            .iter()
            .enumerate()
            .map(|(i, &m)| {
                let mut o = decoded_json(m, &Modifier::decode(m).unwrap_or(Modifier::Linear));
                if let Some(obj) = o.as_object_mut() {
                    obj.insert("rank".into(), json!(i + 1));
                }
                o
            })
            .collect();
        let out = json!({"gpu": gpu.name(), "format": f.name(), "driver": "nvk", "modifiers": v});
        crate::outln!("{}", serde_json::to_string_pretty(&out)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    crate::outln!("{} {} (NVK, best first):", gpu.name(), f.name())?;
    for (i, &m) in mods.iter().enumerate() {
        match Modifier::decode(m).map_err(nvsurf::Error::from)? {
            Modifier::Linear => crate::outln!("  {}. {}  linear", i + 1, hex(m))?,
            Modifier::BlockLinear(b) => crate::outln!("  {}. {}  {}", i + 1, hex(m), fields_text(&b))?,
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `nvsurf modifier`.
pub fn run(a: ModifierArgs) -> CmdResult {
    match a.cmd {
        ModifierCmd::Decode { modifier, json } => decode(&modifier, json),
        ModifierCmd::List { gpu, format, json } => list(&gpu, &format, json),
    }
}
