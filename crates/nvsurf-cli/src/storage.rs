//! `nvsurf storage list|check|suggest`: storage types, validation with reasons, driver choice.

use crate::CmdResult;
use nvsurf::layout::Binding;
use nvsurf::msaa::MsMode;
use nvsurf::storage::{
    self, Combination, Compression, FormatSpec, Memory, StorageType, SurfaceLayout, Table, ZetaFamily,
};
use nvsurf::{Error, Gpu};
use serde_json::{json, Value};
use std::process::ExitCode;

/// Arguments of `nvsurf storage`.
#[derive(clap::Args)]
pub struct StorageArgs {
    #[command(subcommand)]
    cmd: StorageCmd,
}

#[derive(clap::Subcommand)]
enum StorageCmd {
    /// List the storage types (G80) or kinds (GF100) with their rules.
    List {
        /// Only the table of this GPU (both tables without it).
        #[arg(long)]
        gpu: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Check a combination; exit 0 when valid, 1 when invalid (every broken rule is listed).
    Check(CheckArgs),
    /// The storage type (PTE kind) a driver would pick: Mesa's gallium nouveau (default) or NVK.
    Suggest {
        /// The GPU.
        #[arg(long)]
        gpu: String,
        /// Whose choice: gallium (Mesa's nouveau gallium driver, nv50/nvc0_miptree.c) or nvk
        /// (Mesa's nil, image.rs choose_pte_kind).
        #[arg(long, default_value = "gallium", value_name = "gallium|nvk")]
        driver: String,
        /// Format name (zeta names like Z24_S8, or any nvsurf format) or element size in bytes.
        #[arg(long)]
        format: String,
        /// Multisample mode.
        #[arg(long = "ms-mode", default_value = "ms1")]
        ms_mode: String,
        /// Binding point: zeta makes a bare element size a zeta format, color a color one.
        #[arg(long)]
        binding: Option<String>,
        /// Old spelling of --binding zeta / color (true / false), still accepted.
        #[arg(long, value_name = "true|false", hide = true)]
        zeta: Option<bool>,
        /// Pick the uncompressed type (Mesa compresses when the kernel allows).
        #[arg(long = "no-compression")]
        no_compression: bool,
        /// A scanout buffer (G80 4-byte color: 0x7a).
        #[arg(long)]
        scanout: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Arguments of `nvsurf storage check`.
#[derive(clap::Args)]
struct CheckArgs {
    /// The GPU.
    #[arg(long)]
    gpu: String,
    /// Storage type id (0x70) or name (BLOCKLINEAR, TILED_32_MS4, Z24_S8_MS1).
    #[arg(long = "storage-type")]
    storage_type: String,
    /// none, single or double (G80 only).
    #[arg(long, default_value = "none")]
    compression: String,
    /// Format name or element size in bytes.
    #[arg(long)]
    format: Option<String>,
    /// Old spelling of --binding zeta / color (true / false), still accepted.
    #[arg(long, value_name = "true|false", hide = true)]
    zeta: Option<bool>,
    /// Multisample mode.
    #[arg(long = "ms-mode", default_value = "ms1")]
    ms_mode: String,
    /// vram or sysram.
    #[arg(long, default_value = "vram")]
    memory: String,
    /// Binding point (texture, color, zeta, 2d, m2mf, pcopy, global, image, display); zeta makes
    /// a bare element size a zeta format, color a color one.
    #[arg(long)]
    binding: Option<String>,
    /// pitch or blocklinear (default: pitch for type 0, blocklinear otherwise).
    #[arg(long)]
    layout: Option<String>,
    /// Print {"valid": bool, "reasons": [...]} (plus rules and notes).
    #[arg(long)]
    json: bool,
}

/// Mesa nv50's compressible color formats (`nv50_mt_choose_storage_type`), as document color
/// format ids: BGRA8 (0xcf, 0xd0), RGBA8 (0xd5, 0xd6), BGRX8 (0xe6, 0xe7), RGBX8 (0xf9, 0xfa),
/// RGB10A2 (0xd1), BGR10A2 (0xdf), RGBA16F (0xca), RGBX16F (0xce), R11G11B10F (0xe0).
const MESA_NV50_COMPRESSIBLE_COLOR: [u8; 13] =
    [0xcf, 0xd0, 0xd5, 0xd6, 0xe6, 0xe7, 0xf9, 0xfa, 0xd1, 0xdf, 0xca, 0xce, 0xe0];

/// Turns `--format` into what the storage rules need: a bare element size, a zeta layout name,
/// or any name the nvsurf format catalogue knows.
pub fn format_spec(text: &str, zeta: Option<bool>) -> Result<FormatSpec, Box<dyn std::error::Error>> {
    let t = text.trim();
    if let Ok(n) = t.parse::<u32>() {
        let mut f = FormatSpec::elem_size(n);
        f.is_zeta = zeta;
        return Ok(f);
    }
    if let Some(fam) = ZetaFamily::from_format_name(t.strip_prefix("zeta:").unwrap_or(t)) {
        let mut f = FormatSpec::zeta(fam);
        f.name = Some(t.to_ascii_uppercase());
        return Ok(f);
    }
    let f = nvsurf::format::Format::parse(t)?;
    let mut spec = FormatSpec {
        name: Some(f.id_name()),
        elem_size_bytes: f.elem_size_bytes(),
        is_zeta: Some(f.is_zeta()),
        zeta: None,
        texture_format: Some(f.texture().id),
        mesa_nv50_compressible: None,
    };
    match f.kind() {
        nvsurf::format::Kind::Zeta => spec.zeta = ZetaFamily::from_format_name(f.name()),
        nvsurf::format::Kind::Color => {
            spec.mesa_nv50_compressible = Some(MESA_NV50_COMPRESSIBLE_COLOR.contains(&f.id()))
        }
        nvsurf::format::Kind::Texture => {}
    }
    if spec.is_zeta == Some(true) && spec.zeta.is_none() {
        // Texture-side zeta formats: find the zeta format with the same texture format.
        spec.zeta = nvsurf::format::zeta_formats()
            .iter()
            .find(|z| z.textures.iter().any(|(_, id)| *id == f.texture().id))
            .and_then(|z| ZetaFamily::from_format_name(z.name));
    }
    Ok(spec)
}

fn type_json(t: &StorageType) -> Value {
    json!({
        "id": t.id,
        "name": t.name,
        "aliases": t.aliases,
        "table": t.table.name(),
        "class": t.class.name(),
        "reorder": t.reorder.map(|r| r.name()),
        "compression": t.compression_names(),
        "formats": t.formats_text(),
        "sample_modes": t.samples.mode_names(),
        "min_gpu": t.min_gpu.name(),
        "provisional": t.provisional,
        "source": t.source,
    })
}

fn list(gpu: Option<String>, as_json: bool) -> CmdResult {
    let gpu = gpu.map(|g| nvsurf::Platform::parse(&g).map(|p| p.gpu())).transpose()?;
    let tables: Vec<Table> = match gpu {
        Some(g) => vec![Table::for_gpu(g).ok_or_else(|| nvsurf::Error::Unsupported {
            field: "gpu",
            value: g.name().into(),
            rule: "storage types are modelled for G80 up to (not including) TU102".into(),
        })?],
        None => vec![Table::G80, Table::Gf100],
    };
    let types: Vec<&StorageType> =
        tables.iter().flat_map(|t| t.types().iter()).filter(|t| gpu.is_none_or(|g| t.exists_on(g))).collect();
    if as_json {
        let v: Vec<Value> = types.iter().map(|t| type_json(t)).collect();
        crate::outln!("{}", serde_json::to_string_pretty(&v)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut last = None;
    for t in types {
        if last != Some(t.table) {
            crate::outln!(
                "{} storage {} ({}):",
                t.table.name().to_uppercase(),
                if t.table == Table::G80 { "types" } else { "kinds" },
                t.source
            )?;
            crate::outln!(
                "  id    name                           class  LRR   compression      formats / sample modes"
            )?;
            last = Some(t.table);
        }
        let modes = t.samples.mode_names();
        let modes = if modes.len() == MsMode::all().count() { "any".to_string() } else { modes.join(",") };
        crate::outln!(
            "  {:#04x}  {:<30} {:<6} {:<5} {:<16} {}; {}{}{}",
            t.id,
            t.name,
            t.class.name(),
            t.reorder.map_or("?", |r| r.name()),
            t.compression_names().join(","),
            t.formats_text(),
            modes,
            if t.min_gpu > Gpu::G80 && t.table == Table::G80 { format!("; {}+", t.min_gpu) } else { String::new() },
            if t.provisional { "; provisional (rnndb UNK)" } else { "" },
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

fn check(a: CheckArgs) -> CmdResult {
    let gpu = nvsurf::Platform::parse(&a.gpu)?.gpu();
    let mut c = Combination::new(gpu, storage::parse_type(gpu, &a.storage_type)?);
    c.compression = Compression::parse(&a.compression)?;
    let binding = a.binding.as_deref().map(Binding::parse).transpose()?;
    let zeta = zeta_of(binding, a.zeta)?;
    c.format = a.format.as_deref().map(|f| format_spec(f, zeta)).transpose()?;
    c.ms_mode = MsMode::parse(&a.ms_mode)?;
    c.memory = Memory::parse(&a.memory)?;
    c.binding = binding;
    c.layout = a.layout.as_deref().map(SurfaceLayout::parse).transpose()?;
    let r = storage::validate(&c);
    if a.json {
        let v = json!({
            "valid": r.valid,
            "reasons": r.reasons.iter().map(|x| x.message.clone()).collect::<Vec<_>>(),
            "rules": r.reasons.iter().map(|x| x.rule).collect::<Vec<_>>(),
            "notes": r.notes,
            "storage_type": r.storage_type.map(type_json),
        });
        crate::outln!("{}", serde_json::to_string_pretty(&v)?)?;
    } else {
        let name = r.storage_type.map_or(String::new(), |t| format!(" {}", t.name));
        if r.valid {
            crate::outln!("valid: storage type {:#x}{name} on {gpu}", c.storage_type)?;
        } else {
            crate::outln!(
                "invalid: storage type {:#x}{name} on {gpu}; {} broken rule(s):",
                c.storage_type,
                r.reasons.len()
            )?;
            for x in &r.reasons {
                crate::outln!("  [{}] {}", x.rule, x.message)?;
            }
        }
        for n in &r.notes {
            crate::outln!("  note: {n}")?;
        }
    }
    Ok(if r.valid { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

#[allow(clippy::too_many_arguments)]
fn suggest(
    driver: storage::Driver,
    gpu: String,
    format: String,
    ms_mode: String,
    zeta: Option<bool>,
    no_compression: bool,
    scanout: bool,
    as_json: bool,
) -> CmdResult {
    let gpu = nvsurf::Platform::parse(&gpu)?.gpu();
    let f = format_spec(&format, zeta)?;
    let m = MsMode::parse(&ms_mode)?;
    let s = storage::suggest_for(driver, gpu, &f, m, !no_compression, scanout)?;
    if as_json {
        let v = json!({
            "driver": driver.name(),
            "gpu": gpu.name(),
            "format": f.describe(),
            "ms_mode": m.name(),
            "storage_type": s.id,
            "name": s.name,
            "compression": s.compression.name(),
            "uncompressed": s.uncompressed.map(|(id, n)| json!({"storage_type": id, "name": n})),
            "source": s.source,
            "notes": s.notes,
        });
        crate::outln!("{}", serde_json::to_string_pretty(&v)?)?;
    } else {
        let g80 = Table::for_gpu(gpu) == Some(Table::G80);
        let comp = if g80 { format!(" compression {}", s.compression.name()) } else { String::new() };
        crate::outln!("{gpu} {} {m}: storage type {:#x} {}{comp}", f.describe(), s.id, s.name)?;
        if let Some((id, n)) = s.uncompressed {
            crate::outln!("  uncompressed: {id:#x} {n}{}", if g80 { " compression NONE" } else { "" })?;
        }
        crate::outln!("  source: {}", s.source)?;
        crate::outln!("  driver: {}", driver.name())?;
        for n in &s.notes {
            crate::outln!("  note: {n}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Whether a bare element size is a zeta format: from `--binding` (zeta: yes, color: no), or
/// the old `--zeta true|false`; both given must agree.
fn zeta_of(binding: Option<Binding>, zeta: Option<bool>) -> Result<Option<bool>, Error> {
    let from_binding = match binding {
        Some(Binding::ZetaRt) => Some(true),
        Some(Binding::ColorRt) => Some(false),
        _ => None,
    };
    match (from_binding, zeta) {
        (Some(b), Some(z)) if b != z => Err(Error::Unsupported {
            field: "zeta",
            value: z.to_string(),
            rule: "disagrees with --binding; --zeta is the old spelling of --binding zeta|color".into(),
        }),
        (b, z) => Ok(b.or(z)),
    }
}

/// Runs `nvsurf storage`.
pub fn run(a: StorageArgs) -> CmdResult {
    match a.cmd {
        StorageCmd::List { gpu, json } => list(gpu, json),
        StorageCmd::Check(c) => check(c),
        StorageCmd::Suggest { gpu, driver, format, ms_mode, binding, zeta, no_compression, scanout, json } => {
            let binding = binding.as_deref().map(Binding::parse).transpose()?;
            let driver = storage::Driver::parse(&driver)?;
            suggest(driver, gpu, format, ms_mode, zeta_of(binding, zeta)?, no_compression, scanout, json)
        }
    }
}
