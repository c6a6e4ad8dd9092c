//! [`Encoding`]: how pictures are encoded to block-compressed formats (`--bc-quality`) and
//! what came of it: the PSNR of each encoded level and layer against the source picture.
//!
//! PSNR (LDR formats): each encoded rectangle is decoded back with nvsurf's decoder and
//! compared with the source texels, channel by channel for the components the format stores
//! (BC4: R; BC5: R, G; BC1/2/3/7: R, G, B, A, each where the swizzle shows it; BC1 texels with
//! source alpha below 128 count their alpha only), as 8-bit values: unorm channels `round(v * 255)` (peak 255), snorm channels
//! `round(v * 127)` (peak 254), sRGB formats on their sRGB-coded values.
//! `PSNR = 10 log10(peak^2 / MSE)`; an exact copy has no finite PSNR: `None` (JSON `null`, the
//! summary says "identical"). BC6H (HDR) has no peak to compare with and reports none.
//! See `docs/encoding.md`.

use nvsurf::codec::{linear_to_srgb, Bc, Texel, ValueKind};
use nvsurf::format::{BcQuality, ComponentType, EncodeOptions, Format, Layout};
use std::sync::Mutex;

/// BC1's punch-through threshold: a source alpha below it is encoded transparent
/// (`codec/bc_encode.rs` in nvsurf; Microsoft, "Opaque and 1-Bit Alpha Textures").
pub const BC1_ALPHA_THRESHOLD: u8 = 128;

/// How many components (C0, C1, ...) a block-compressed format stores, `None` for the formats
/// that report no PSNR (BC6H: floats have no peak). BC4 and EAC R11: 1 (R); BC5 and EAC
/// RG11: 2; BC6H and ETC2 RGB: 3; BC1 (1-bit alpha), BC2 (4-bit alpha), BC3, BC7, ETC2 RGBA
/// and ASTC: 4.
pub fn stored_components(bc: Bc) -> Option<usize> {
    match bc {
        Bc::Bc6hSigned | Bc::Bc6hUnsigned => None,
        Bc::Bc4 | Bc::EacR11 => Some(1),
        Bc::Bc5 | Bc::EacRg11 => Some(2),
        Bc::Etc2Rgb => Some(3),
        Bc::Bc1 | Bc::Bc2 | Bc::Bc3 | Bc::Bc7 | Bc::Etc2RgbA1 | Bc::Etc2Rgba | Bc::Astc { .. } => Some(4),
    }
}

/// Sum of squared 8-bit errors over a number of channel samples.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ErrorSum {
    /// Sum of the squared differences.
    pub squared: f64,
    /// Channel samples compared.
    pub samples: u64,
    /// The largest value a sample can take (255 unorm, 254 snorm).
    pub peak: f64,
}

impl ErrorSum {
    /// The PSNR in dB; `None` when nothing differs (or nothing was compared).
    pub fn psnr_db(&self) -> Option<f64> {
        if self.samples == 0 || self.squared == 0.0 {
            return None;
        }
        let mse = self.squared / self.samples as f64;
        Some(10.0 * (self.peak * self.peak / mse).log10())
    }

    /// The errors of `back` (decoded) against `src` for format `f`; `None` for formats that
    /// report no PSNR (not block-compressed, or BC6H). Counted: each component the format
    /// stores ([`stored_components`]) once, in the first channel whose swizzle reads it (the
    /// channel the encoder took it from); for BC1, a texel whose source alpha is below 128
    /// counts its alpha only (punch-through: BC1 stores no colour for it, it decodes black).
    pub fn of(f: &Format, src: &[Texel], back: &[Texel]) -> Option<ErrorSum> {
        let Layout::Compressed(bc) = f.layout() else { return None };
        let stored = stored_components(bc)?;
        let snorm = f.components()[0] == ComponentType::Snorm;
        let kinds = f.channel_kinds();
        let swizzle = f.swizzle();
        let channels: Vec<usize> =
            (0..stored).filter_map(|n| (0..4).find(|&i| swizzle[i].component() == Some(n))).collect();
        // BC1's alpha channel, when the format shows alpha (C3) at all.
        let punch = if bc == Bc::Bc1 { (0..4).find(|&i| swizzle[i].component() == Some(3)) } else { None };
        let q = |t: &Texel, i: usize| -> f64 {
            let mut v = match kinds[i] {
                ValueKind::Float => f32::from_bits(t[i]),
                ValueKind::Sint => t[i] as i32 as f32,
                ValueKind::Uint => t[i] as f32,
            };
            if f.is_srgb() && i < 3 {
                v = linear_to_srgb(v);
            }
            let v = if v.is_nan() { 0.0 } else { v };
            if snorm {
                (v.clamp(-1.0, 1.0) * 127.0).round() as f64
            } else {
                (v.clamp(0.0, 1.0) * 255.0).round() as f64
            }
        };
        let mut e = ErrorSum { peak: if snorm { 254.0 } else { 255.0 }, ..ErrorSum::default() };
        for (a, b) in src.iter().zip(back) {
            match punch {
                Some(alpha) if q(a, alpha) < f64::from(BC1_ALPHA_THRESHOLD) => {
                    e.squared += (q(a, alpha) - q(b, alpha)).powi(2);
                    e.samples += 1;
                }
                _ => {
                    for &i in &channels {
                        e.squared += (q(a, i) - q(b, i)).powi(2);
                    }
                    e.samples += channels.len() as u64;
                }
            }
        }
        Some(e)
    }

    fn add(&mut self, o: ErrorSum) {
        self.squared += o.squared;
        self.samples += o.samples;
        self.peak = o.peak;
    }
}

/// The PSNR of one encoded level of one layer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Measured {
    /// Mip level.
    pub level: u32,
    /// Array layer (cube faces count as layers).
    pub layer: u32,
    /// PSNR in dB, `None` when the decoded blocks equal the source exactly.
    pub psnr_db: Option<f64>,
}

#[derive(Default)]
struct State {
    pending: Option<ErrorSum>,
    done: Vec<Measured>,
}

/// The help of `--bc-quality` (`tile`, `convert`): what each level changes, per format
/// (`docs/encoding.md`, "Formats and encoders").
pub const BC_QUALITY_HELP: &str = "Effort of the encoder when a picture becomes a compressed format: fast, \
normal (default) or slow. BC1 and BC3 give the same bytes at fast as at normal (one ISPC kernel; only slow, \
libsquish's iterative cluster fit, differs; BC1 blocks with alpha below 128 excepted); BC7 and BC6H take \
ISPC's fast/basic/slow presets; ASTC tries 5/16/64 modes per block; BC2 range/cluster/iterative cluster fit; \
BC4 and BC5 have one setting (see docs/encoding.md). The summary reports the PSNR.";

/// The encode options of a command and the PSNR of what it encoded (filled as pictures are
/// read; [`Encoding::finish`] closes one level of one layer).
#[derive(Default)]
pub struct Encoding {
    /// Options handed to the library's encoders.
    pub options: EncodeOptions,
    /// Encode block-compressed formats in strips over the current rayon pool (off: this
    /// thread, as `--threads 1` asks).
    pub parallel: bool,
    state: Mutex<State>,
}

impl Encoding {
    /// Encoding at `quality`.
    pub fn new(quality: BcQuality) -> Encoding {
        Encoding { options: EncodeOptions::with_bc_quality(quality), parallel: false, state: Mutex::default() }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Adds the errors of one encoded rectangle (a band, a slice) to the open level.
    pub fn record(&self, e: ErrorSum) {
        let mut s = self.state();
        s.pending.get_or_insert_with(ErrorSum::default).add(e);
    }

    /// Closes the open level as (`level`, `layer`); nothing when nothing was encoded.
    pub fn finish(&self, level: u32, layer: u32) {
        let mut s = self.state();
        if let Some(e) = s.pending.take() {
            s.done.push(Measured { level, layer, psnr_db: e.psnr_db() });
        }
    }

    /// Every closed level, layer by layer, level by level (the order of a DDS).
    pub fn measured(&self) -> Vec<Measured> {
        let mut v = self.state().done.clone();
        v.sort_by_key(|m| (m.layer, m.level));
        v
    }

    /// Takes the entry of (`level`, `layer`) out, if there is one (the others stay).
    pub fn take(&self, level: u32, layer: u32) -> Option<Measured> {
        let mut s = self.state();
        let at = s.done.iter().position(|m| (m.level, m.layer) == (level, layer))?;
        Some(s.done.remove(at))
    }

    /// Adds an entry measured elsewhere, as (`level`, `layer`).
    pub fn push(&self, m: Measured, level: u32, layer: u32) {
        self.state().done.push(Measured { level, layer, ..m });
    }

    /// The summary's words (empty when nothing was encoded), e.g.
    /// `; PSNR level 0 layer 0 41.20 dB, level 1 layer 0 43.02 dB (bc-quality normal)`.
    pub fn summary(&self) -> String {
        let m = self.measured();
        if m.is_empty() {
            return String::new();
        }
        let db = |x: &Measured| x.psnr_db.map_or("identical".to_string(), |d| format!("{d:.2} dB"));
        let parts: Vec<String> = m.iter().map(|x| format!("level {} layer {} {}", x.level, x.layer, db(x))).collect();
        format!("; PSNR {} (bc-quality {})", parts.join(", "), self.options.bc_quality.name())
    }

    /// The JSON of the measurements: `bc_quality` and `levels` (each `level`, `layer`,
    /// `psnr_db` in dB to two decimals, null for an exact copy), added to `v` (an object).
    pub fn add_json(&self, v: &mut serde_json::Value) {
        let levels: Vec<serde_json::Value> = self
            .measured()
            .iter()
            // Two decimals, as the summary line prints them.
            .map(|m| {
                let db = m.psnr_db.map(|d| (d * 100.0).round() / 100.0);
                serde_json::json!({"level": m.level, "layer": m.layer, "psnr_db": db})
            })
            .collect();
        if let Some(o) = v.as_object_mut() {
            o.insert("bc_quality".into(), self.options.bc_quality.name().into());
            o.insert("levels".into(), levels.into());
        }
    }
}
