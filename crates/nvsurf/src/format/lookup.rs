//! Format names per GPU: the G80+ tables with their everyday aliases ([`Format::parse`]), or,
//! for an NV10-NV40 GPU, that GPU's pre-G80 texture table ([`Format::parse_for`]); and the
//! suggestions of an unknown name.
//!
//! Order, G80+: catalogue names and `kind:` prefixes first (texture, zeta, color), then an
//! explicit `nv10:`/`nv40:` table prefix, then the aliases (a `VK_FORMAT_`/`DXGI_FORMAT_`
//! prefix looks at its own API's aliases first, then at the catalogue names). Pre-G80: the
//! rows of the GPU's table that its generation has, by name, or by id after `tex:`/`nv10:`/
//! `nv40:` (`nv2a:`, `nv097:` or `nv10:` on the Kelvin GPUs). A name the GPU's table lacks is
//! refused with that table's closest names: it never falls back to a G80+ format (`YUY2` on
//! `nv2a` is NV097's 0x24, and `RGBA8_UNORM` there is an error). Names are case-insensitive
//! everywhere.
//!
//! Suggestions: the three names (catalogue names and every alias spelling; pre-G80: the GPU's
//! rows) closest to the name (`suggest`).

use super::aliases::{aliases, Alias, AliasApi};
use super::catalogue::{all_names, color_formats, kind_names, texture_formats, zeta_formats, Kind};
use super::full_name::strip_srgb_suffix;
use super::nv10_catalogue::{pre_g80_formats, PreG80Format, PreG80Table};
use super::resolve::parse_id;
use super::suggest::suggest_names;
use super::Format;
use super::Layout;
use crate::error::{Error, Result};
use crate::gpu::Gpu;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// Strips `prefix` case-insensitively.
fn strip<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    s.get(..prefix.len()).filter(|h| h.eq_ignore_ascii_case(prefix)).map(|_| &s[prefix.len()..])
}

impl Alias {
    /// The format this alias names, `None` when its target row is absent from the catalogue.
    pub fn resolve(&self) -> Option<Format> {
        let mut f = Format::parse_catalogue(self.target).ok()?;
        if let Some(t) = self.ty {
            f = f.with_components([t; 4]).ok()?;
        }
        if self.srgb {
            f = f.with_srgb(true);
        }
        Some(f)
    }
}

/// The alias named `n` among those of `apis`.
fn by_alias(n: &str, apis: &[AliasApi]) -> Option<Format> {
    aliases().iter().filter(|a| apis.contains(&a.api) && a.name.eq_ignore_ascii_case(n)).find_map(Alias::resolve)
}

/// Every name and alias spelling of the G80+ tables (for suggestions).
fn g80_candidates() -> Vec<&'static str> {
    let mut v = all_names();
    v.extend(aliases().iter().filter(|a| target_exists(a.target)).map(|a| a.name));
    v
}

/// True when a catalogue row answers to `target` (a name, `kind:` prefixed or bare), checked
/// without allocating.
pub(super) fn target_exists(target: &str) -> bool {
    let (t, kind) = match target.split_once(':') {
        Some((k, rest)) => (rest, Some(k)),
        None => (target, None),
    };
    let check = |n: &[&str], extra: &[&str]| n.iter().chain(extra).any(|x| x.eq_ignore_ascii_case(t));
    let tex = || texture_formats().iter().any(|r| check(&[r.name, r.rnndb, r.nvidia], r.aliases));
    let color = || color_formats().iter().any(|r| check(&[r.rnndb, r.nvidia], r.aliases));
    let zeta = || zeta_formats().iter().any(|r| check(&[r.name, r.rnndb, r.nvidia], r.aliases));
    match kind {
        Some("tex") => tex(),
        Some("color") => color(),
        Some("zeta") => zeta(),
        _ => tex() || color() || zeta(),
    }
}

/// `NAME_srgb` ([`Format::full_name`]'s form) for a `NAME` that `resolve` knows: that format
/// with sRGB on. `Ok(None)` when `n` has no such suffix or `NAME` is unknown; an error when sRGB
/// does not apply to `NAME` ([`Format::srgb_applies`]) or it is sRGB already.
fn srgb_suffix(n: &str, resolve: impl Fn(&str) -> Option<Format>) -> Result<Option<Format>> {
    let Some(f) = strip_srgb_suffix(n).and_then(resolve) else { return Ok(None) };
    if f.srgb_applies() && !f.srgb {
        return Ok(Some(f.with_srgb(true)));
    }
    Err(Error::Unsupported {
        field: "format",
        value: n.to_string(),
        rule: alloc::format!(
            "_srgb needs a colour format with unorm R, G, B that is not sRGB already ({} is not)",
            f.name()
        ),
    })
}

/// The row of `table` (any generation) named `n`, or with id `n`.
fn table_row(table: PreG80Table, n: &str) -> Option<&'static PreG80Format> {
    let rows = table.rows();
    rows.iter()
        .find(|r| r.names().iter().any(|x| x.eq_ignore_ascii_case(n)))
        .or_else(|| parse_id(n).and_then(|id| rows.iter().find(|r| r.id == id)))
}

impl Format {
    /// Resolves a format name in the G80+ tables: every catalogue name form (module docs),
    /// `nv10:NAME|ID` / `nv40:NAME|ID` for a pre-G80 row, and the Vulkan, DXGI and short
    /// aliases ([`crate::format::aliases`]). An unknown name is [`Error::UnknownFormat`] with
    /// up to three suggestions.
    pub fn parse(name: &str) -> Result<Format> {
        Self::parse_g80(name, "G80+")
    }

    /// Resolves a format name for `gpu`: the NV10-NV40 texture table of that GPU's generation
    /// for NV10-NV4x (NV2A included, which reads the NV097 table), and only that table: a name
    /// it lacks is an error with its closest names, never a G80+ format. Other GPUs as
    /// [`Format::parse`]. `A8R8G8B8` is the pre-G80 texture format on `nv2a` and G80's color
    /// format `BGRA8_UNORM` on `g80`.
    pub fn parse_for(name: &str, gpu: Gpu) -> Result<Format> {
        match PreG80Table::of(gpu) {
            Some(table) => parse_pre_g80(name, gpu, table),
            None => Self::parse_g80(name, gpu.name()),
        }
    }

    /// A pre-G80 row with its swizzle and component types (zeta rows keep the zeta types).
    pub fn from_pre_g80(row: &'static PreG80Format) -> Format {
        let mut f = Format::from_texture(&row.texture);
        f.pre_g80 = Some(row);
        f.swizzle = row.swizzles();
        if !matches!(row.texture.layout, Layout::Zeta(_)) {
            f.types = [row.ty; 4];
        }
        // NV2A's YUV formats (LC_IMAGE: the texture unit returns RGB) convert with ITU-R BT.601,
        // limited range, by default: xemu's `convert_yuy2_to_rgb`/`convert_uyvy_to_rgb`
        // (`hw/xbox/nv2a/pgraph/util.h`) use the BT.601 integer coefficients 298, 409, 100, 208
        // and 516 (/256) on Y - 16, U - 128, V - 128.
        if matches!(row.texture.layout, Layout::Yuv { .. }) {
            f.yuv = crate::codec::YuvMatrix::Bt601;
        }
        f
    }

    /// For INDEX8: the A8R8G8B8 format of the same table, the format of its palette entries
    /// ([`crate::format::Palette`]); `None` for every other format.
    pub fn palette_entry_format(&self) -> Option<Format> {
        let row = self.pre_g80.filter(|r| r.palette)?;
        row.table.rows().iter().find(|r| r.name == "A8R8G8B8").map(Format::from_pre_g80)
    }

    fn parse_g80(name: &str, gpu: &str) -> Result<Format> {
        let n = name.trim();
        if let Some(f) = Self::find_g80(n)? {
            return Ok(f);
        }
        if let Some(f) = srgb_suffix(n, |b| Self::find_g80(b).ok().flatten())? {
            return Ok(f);
        }
        // After a `kind:` prefix, the names of that table; else every name and alias.
        let kinds =
            [("tex:", Kind::Texture), ("texture:", Kind::Texture), ("color:", Kind::Color), ("zeta:", Kind::Zeta)];
        Err(Error::UnknownFormat {
            name: name.to_string(),
            gpu: gpu.to_string(),
            suggestions: match kinds.iter().find_map(|(p, k)| strip(n, p).map(|r| (r, *k))) {
                Some((rest, kind)) => suggest_names(rest, kind_names(kind)),
                None => suggest_names(n, g80_candidates()),
            },
        })
    }

    /// The G80+ lookup without suggestions: `Ok(None)` for an unknown name, `Err` for a known
    /// form that is wrong (an id no row has).
    fn find_g80(n: &str) -> Result<Option<Format>> {
        match Self::parse_catalogue(n) {
            Ok(f) => return Ok(Some(f)),
            Err(Error::UnknownName { .. }) => {}
            Err(e) => return Err(e),
        }
        // `nv10:` is the NV10 table here (the Kelvin table's own prefixes are `nv2a:`/`nv097:`).
        for table in PreG80Table::ALL {
            if let Some(rest) = table.prefixes().iter().find_map(|p| strip(n, p)) {
                return Ok(table_row(table, rest.trim()).map(Format::from_pre_g80));
            }
        }
        let all = [AliasApi::Vulkan, AliasApi::Dxgi, AliasApi::Short];
        for api in [AliasApi::Vulkan, AliasApi::Dxgi] {
            if let Some(bare) = strip(n, api.prefix()) {
                return Ok(by_alias(bare, &[api])
                    .or_else(|| Self::parse_catalogue(bare).ok())
                    .or_else(|| by_alias(bare, &all)));
            }
        }
        Ok(by_alias(n, &all))
    }

    /// Every alias spelling that resolves to this format's table row (with any types or sRGB
    /// the alias implies): what `formats --json` lists as `aliases`.
    pub fn alias_spellings(&self) -> Vec<String> {
        if self.pre_g80.is_some() {
            return Vec::new();
        }
        let mut v = Vec::new();
        for a in aliases() {
            if a.resolve().is_some_and(|f| f.kind == self.kind && f.id == self.id && f.pre_g80.is_none()) {
                for s in a.spellings() {
                    if !v.iter().any(|x: &String| x.eq_ignore_ascii_case(&s)) {
                        v.push(s);
                    }
                }
            }
        }
        v
    }
}

/// The generations whose own table has a row named `n`: `["NV20", "NV30"]`.
fn generations_with(n: &str) -> Vec<&'static str> {
    use super::nv10_catalogue::{GEN_NV10, GEN_NV20, GEN_NV30, GEN_NV40};
    let gens = [
        (GEN_NV10, "NV10", PreG80Table::Nv10),
        (GEN_NV20, "NV20", PreG80Table::Nv097),
        (GEN_NV30, "NV30", PreG80Table::Nv10),
        (GEN_NV40, "NV40", PreG80Table::Nv40),
    ];
    gens.into_iter()
        .filter(|(bit, _, t)| {
            t.rows().iter().any(|r| r.generations & bit != 0 && r.names().iter().any(|x| x.eq_ignore_ascii_case(n)))
        })
        .map(|(_, label, _)| label)
        .collect()
}

/// `A`, `A and B`, `A, B and C`.
fn join_and(v: &[&str]) -> String {
    match v.split_last() {
        Some((last, rest)) if !rest.is_empty() => alloc::format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.to_string(),
        None => String::new(),
    }
}

fn parse_pre_g80(name: &str, gpu: Gpu, table: PreG80Table) -> Result<Format> {
    let n = name.trim();
    let mut rest = n;
    let mut prefixed = false;
    for p in ["tex:", "texture:"].iter().chain(table.prefixes()) {
        if let Some(r) = strip(n, p) {
            rest = r.trim();
            prefixed = true;
            break;
        }
    }
    if !prefixed && PreG80Table::ALL.iter().flat_map(|t| t.prefixes()).any(|p| strip(n, p).is_some()) {
        return Err(Error::Unsupported {
            field: "format",
            value: name.to_string(),
            rule: alloc::format!("{} reads the {} table (`nvsurf formats --gpu {0}`)", gpu.name(), table.name()),
        });
    }
    let rows = pre_g80_formats(gpu);
    if let Some(r) = rows.iter().find(|r| r.names().iter().any(|x| x.eq_ignore_ascii_case(rest))) {
        return Ok(Format::from_pre_g80(r));
    }
    if prefixed {
        if let Some(id) = parse_id(rest) {
            return match rows.iter().find(|r| r.id == id) {
                Some(r) => Ok(Format::from_pre_g80(r)),
                None => Err(Error::Unsupported {
                    field: "format id",
                    value: alloc::format!("{}:{id:#04x}", table.name()),
                    rule: alloc::format!(
                        "no texture format of {} has this id (see `nvsurf formats --gpu {0}`)",
                        gpu.name()
                    ),
                }),
            };
        }
    }
    let have = generations_with(rest);
    if !have.is_empty() {
        return Err(Error::Unsupported {
            field: "format",
            value: PreG80Table::ALL
                .iter()
                .flat_map(|t| t.rows())
                .find(|r| r.names().iter().any(|x| x.eq_ignore_ascii_case(rest)))
                .map_or(rest, |r| r.name)
                .to_string(),
            rule: alloc::format!("{} have it, {} does not", join_and(&have), gpu.name()),
        });
    }
    if let Some(f) = srgb_suffix(n, |b| parse_pre_g80(b, gpu, table).ok())? {
        return Ok(f);
    }
    // No fallback to the G80+ tables: a G80 name (`RGBA8_UNORM`, `YA8_U8_YB8_V8`) is not a
    // format of this GPU, and its layout rules (swizzled cubes with mips) would not be its own.
    let suggestions = suggest_names(rest, rows.iter().flat_map(|r| r.names()));
    Err(Error::UnknownFormat { name: name.to_string(), gpu: gpu.name().to_string(), suggestions })
}
