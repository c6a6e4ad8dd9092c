//! `nvsurf decode`: one element, given as little-endian hex bytes, to its pixels.

use crate::CmdResult;
use nvsurf::codec::{Texel, ValueKind, YuvMatrix};
use nvsurf::format::{ComponentType, Format, Swizzle};
use nvsurf::Error;
use serde_json::{json, Value};
use std::process::ExitCode;

/// Arguments of `nvsurf decode`.
#[derive(clap::Args, Debug)]
pub struct DecodeArgs {
    /// Format: any name (8_8_8_8, RGBA8_UNORM, A8B8G8R8, bc1, Z24_S8, ...) or tex:0x08 /
    /// color:0xd5 / zeta:0x16. See `nvsurf formats`.
    #[arg(long)]
    format: String,
    /// Name formats in this GPU's tables: NV10-NV40 (nv2a, nv40, ...) have the pre-G80 texture
    /// formats (A8R8G8B8, L8, INDEX8, ...). Default: the G80 and later tables.
    #[arg(long)]
    gpu: Option<String>,
    /// INDEX8: the palette, 256 A8R8G8B8 entries as the GPU stores them (1024 bytes).
    #[arg(long, value_name = "FILE")]
    palette: Option<std::path::PathBuf>,
    /// Component types of C0-C3 (unorm, snorm, sint, uint, float); one value sets all four.
    #[arg(long, value_name = "T,T,T,T")]
    components: Option<String>,
    /// Sources of output R, G, B, A: c0, c1, c2, c3, zero, one_int, one_float.
    #[arg(long, value_name = "S,S,S,S")]
    swizzle: Option<String>,
    /// The element's bytes in memory order, as hex (spaces, ':' or '_' may separate bytes).
    #[arg(long, value_name = "BYTES")]
    hex: String,
    /// YUV formats: convert to RGB with raw (none), bt601 or bt709 (limited range). Default:
    /// the format's own, bt601 for NV2A's YUY2/UYVY (its texture unit returns RGB), else raw.
    #[arg(long)]
    yuv: Option<String>,
    /// Decode R, G, B as sRGB (texture formats; color formats carry their own flag).
    #[arg(long)]
    srgb: bool,
    /// Print `{"pixels": [[r, g, b, a], ...]}`.
    #[arg(long)]
    json: bool,
}

/// Parses hex bytes in memory order ("1a2b3c4d", "1a 2b 3c 4d", "1a:2b:3c:4d").
pub fn parse_hex(s: &str) -> Result<Vec<u8>, Error> {
    let bad = |rule| Error::Parse { field: "hex", value: s.into(), rule };
    let t = s.trim();
    if t.starts_with("0x") || t.starts_with("0X") {
        return Err(bad("give the bytes in memory order without 0x (e.g. 'ff 00 80 ff')"));
    }
    let digits: String = t.chars().filter(|c| !matches!(c, ' ' | ':' | '_' | ',' | '-')).collect();
    if digits.is_empty() || !digits.len().is_multiple_of(2) {
        return Err(bad("an even, non-zero number of hex digits"));
    }
    (0..digits.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&digits[i..i + 2], 16).map_err(|_| bad("hex digits 0-9, a-f")))
        .collect()
}

fn parse_list<T>(what: &str, s: &str, one: fn(&str) -> Result<T, Error>, broadcast: bool) -> Result<[T; 4], Error>
where
    T: Copy,
{
    let items: Vec<T> = s.split(',').map(one).collect::<Result<_, _>>()?;
    match items.len() {
        4 => Ok([items[0], items[1], items[2], items[3]]),
        1 if broadcast => Ok([items[0]; 4]),
        n => Err(Error::Unsupported {
            field: if what == "components" { "components" } else { "swizzle" },
            value: s.into(),
            rule: format!("{n} values given; give 4 comma-separated values{}", if broadcast { " (or 1)" } else { "" }),
        }),
    }
}

/// Builds the format from `--format` (named in the tables of `--gpu`, if given),
/// `--components`, `--swizzle`, `--yuv`, `--srgb`.
pub fn build_format(
    name: &str,
    gpu: Option<&str>,
    components: Option<&str>,
    swizzle: Option<&str>,
    yuv: Option<&str>,
    srgb: bool,
) -> Result<Format, Error> {
    let mut f = match gpu {
        Some(g) => Format::parse_for(name, nvsurf::Platform::parse(g)?.gpu())?,
        None => Format::parse(name)?,
    };
    if let Some(c) = components {
        f = f.with_components(parse_list("components", c, ComponentType::parse, true)?)?;
    }
    if let Some(s) = swizzle {
        f = f.with_swizzle(parse_list("swizzle", s, Swizzle::parse, false)?);
    }
    if srgb {
        f = f.with_srgb(true);
    }
    match yuv {
        Some(y) => f.with_yuv_matrix(YuvMatrix::parse(y)?),
        None => Ok(f),
    }
}

/// A channel value as JSON: floats as the shortest decimal that reads back as the same f32,
/// integers as integers. JSON has no number for NaN and the infinities: they are the strings
/// "nan", "inf" and "-inf" (distinguishable, unlike null; Python's json and jq read them back
/// with float()).
pub fn channel_json(kind: ValueKind, bits: u32) -> Value {
    match kind {
        ValueKind::Float => {
            let x = f32::from_bits(bits);
            if x.is_finite() {
                serde_json::from_str(&format!("{x:?}")).unwrap_or(Value::Null)
            } else if x.is_nan() {
                json!("nan")
            } else if x > 0.0 {
                json!("inf")
            } else {
                json!("-inf")
            }
        }
        ValueKind::Sint => json!(bits as i32),
        ValueKind::Uint => json!(bits),
    }
}

fn channel_text(kind: ValueKind, bits: u32) -> String {
    match kind {
        ValueKind::Float => format!("{:?}", f32::from_bits(bits)),
        ValueKind::Sint => (bits as i32).to_string(),
        ValueKind::Uint => bits.to_string(),
    }
}

/// Runs `nvsurf decode`.
pub fn run(a: DecodeArgs) -> CmdResult {
    let f = build_format(
        &a.format,
        a.gpu.as_deref(),
        a.components.as_deref(),
        a.swizzle.as_deref(),
        a.yuv.as_deref(),
        a.srgb,
    )?;
    let palette = crate::palette::for_format(&f, a.palette.as_deref())?;
    let bytes = parse_hex(&a.hex)?;
    let size = f.elem_size_bytes() as usize;
    if bytes.len() != size {
        return Err(Error::Unsupported {
            field: "hex",
            value: format!("{} bytes", bytes.len()),
            rule: format!("format {} has {size}-byte elements", f.name()),
        }
        .into());
    }
    let mut px: Vec<Texel> = vec![[0; 4]; f.pixels_per_elem()];
    // INDEX8: the pixel is the palette entry the index names.
    let (shown, bytes) = match &palette {
        Some(p) => crate::palette::expand(&f, p, &bytes)?,
        None => (f, bytes),
    };
    shown.decode_element(&bytes, &mut px)?;
    let kinds = shown.channel_kinds();
    if a.json {
        let pixels: Vec<Value> =
            px.iter().map(|t| Value::Array((0..4).map(|i| channel_json(kinds[i], t[i])).collect())).collect();
        crate::outln!("{}", json!({ "pixels": pixels }))?;
    } else {
        let (bw, _) = f.block_dims();
        let types: Vec<&str> = f.components().iter().map(|t| t.name()).collect();
        let sw: Vec<&str> = f.swizzle().iter().map(|s| s.name()).collect();
        crate::outln!(
            "{} ({}), {} B, components {}, swizzle {}{}",
            f.name(),
            f.id_name(),
            size,
            types.join(","),
            sw.join(","),
            if f.is_srgb() { ", sRGB" } else { "" }
        )?;
        for (i, t) in px.iter().enumerate() {
            let v: Vec<String> = (0..4).map(|c| channel_text(kinds[c], t[c])).collect();
            crate::outln!("x={} y={}: r={} g={} b={} a={}", i as u32 % bw, i as u32 / bw, v[0], v[1], v[2], v[3])?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
