//! What a GPU can do with a format, per Mesa nil's format table (`src/nouveau/nil/
//! nil_formats.csv` at 230fb83d, the columns kept in `nil_caps.txt`) and nil's rules on top of
//! it (`src/nouveau/nil/format.rs` at 157fa86f): ETC2/EAC and ASTC are texturable only on
//! Tegra parts from Kepler C (GK20A) on; filtering needs a texturable format that is not pure
//! integer; `S8_UINT` is a depth/stencil target from Maxwell B; a row with a first generation
//! (`MaxwellA`, `MaxwellB`, `TK1`) needs it.
//!
//! nvsurf's formats are the hardware's (a texture component layout, a colour or zeta target
//! format), and nil's rows are typed pipe formats; a format's capabilities are the union over
//! the rows that use it: a texture format's rows by its TIC component sizes (`tcs`), a colour
//! or zeta format's rows by its target format (`czt`). So `A8B8G8R8` can be rendered to (as
//! `R8G8B8A8_UNORM`) and filtered (as the UNORM rows), though its `_SINT` rows cannot be.

use super::caps_table::{has_generation, rows, FormatCaps};
use super::{Format, Kind};
use crate::gpu::Gpu;

impl Format {
    /// Whether `gpu` cannot sample this format for the reason nil gives (`format.rs`,
    /// `supports_texturing`): an ETC2/EAC or ASTC layout on a GPU that is not a Tegra part from
    /// GK20A on; false for formats the GPU does not have at all ([`Format::since`] says why)
    /// and for formats nil merely lacks before a generation (`Z16` before Maxwell A), which the
    /// hardware's tables still have.
    pub fn unsampleable_on(&self, gpu: Gpu) -> bool {
        let gated = self.tex.names().iter().any(|n| soc_only_layout(n));
        let exists = self.since().is_none_or(|s| gpu >= s);
        gated && exists && self.pre_g80.is_none() && !is_soc_from_gk20a(gpu)
    }

    /// What `gpu` can do with this format per Mesa nil ([`FormatCaps`]; see the module docs);
    /// `None` before GF100 (nil lays out Fermi and later) and for formats nil's table lacks.
    pub fn caps_on(&self, gpu: Gpu) -> Option<FormatCaps> {
        if !gpu.is_gf100_or_later() || self.pre_g80.is_some() {
            return None;
        }
        let own = match self.kind {
            Kind::Texture => alloc::vec::Vec::new(),
            Kind::Color => super::catalogue::color_formats().iter().find(|c| c.id == self.id).map(|c| c.names())?,
            Kind::Zeta => super::catalogue::zeta_formats().iter().find(|z| z.id == self.id).map(|z| z.names())?,
        };
        let tex = self.tex.names();
        let mut caps = FormatCaps::default();
        let mut any = false;
        for r in rows() {
            let hit = match self.kind {
                Kind::Texture => tex.contains(&r.tcs),
                _ => own.contains(&r.czt),
            };
            any |= hit;
            if !hit || !has_generation(gpu, r.hw) {
                continue;
            }
            let has = |c: char| r.caps.contains(c);
            let sample = has('T') && (!soc_only_layout(r.tcs) || is_soc_from_gk20a(gpu));
            caps.can_sample |= sample;
            caps.can_filter |= sample && !r.types.chars().all(|t| matches!(t, 'I' | 'U'));
            caps.can_render |= has('C');
            caps.can_blend |= has('A');
            caps.can_store |= has('S');
            caps.can_buffer |= has('B');
            caps.can_depth |= has('Z') && (r.czt != "S8" || gpu >= Gpu::Gm200);
        }
        any.then_some(caps)
    }
}

/// Whether a TIC component layout is one nil samples on SoCs only (`format.rs`,
/// `supports_texturing`: the ETC and ASTC layouts).
fn soc_only_layout(tcs: &str) -> bool {
    tcs.starts_with("ETC2") || tcs.starts_with("EAC") || tcs.starts_with("ASTC")
}

/// nil's `dev.type_ == NV_DEVICE_TYPE_SOC && cls_eng3d >= KEPLER_C`: the Tegra parts from
/// GK20A on, and GB20B (Blackwell's integrated part, a SoC, though it takes the desktop gob
/// orders).
fn is_soc_from_gk20a(gpu: Gpu) -> bool {
    (gpu.is_tegra() || gpu == Gpu::Gb20b) && gpu >= Gpu::Gk20a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn astc_and_etc2_sample_on_tegra_only() {
        for name in ["astc_4x4", "etc2_rgb8", "eac_r11"] {
            let f = Format::parse(name).unwrap();
            assert!(!f.caps_on(Gpu::Gh100).unwrap().can_sample, "{name} on gh100");
            assert!(!f.caps_on(Gpu::Gm204).unwrap().can_sample, "{name} on gm204");
            assert!(f.caps_on(Gpu::Gm20b).unwrap().can_sample, "{name} on gm20b");
        }
        let bc7 = Format::parse("bc7").unwrap().caps_on(Gpu::Tu102).unwrap();
        assert!(bc7.can_sample && bc7.can_filter && !bc7.can_render && !bc7.can_store);
    }

    #[test]
    fn colour_and_zeta_targets_read_their_rows() {
        let rgba8 = Format::parse("RGBA8_UNORM").unwrap().caps_on(Gpu::Tu102).unwrap();
        assert!(rgba8.can_sample && rgba8.can_render && rgba8.can_blend && rgba8.can_store && !rgba8.can_depth);
        let sint = Format::parse("RGBA8_SINT").unwrap().caps_on(Gpu::Tu102).unwrap();
        assert!(sint.can_render && !sint.can_blend && !sint.can_filter);
        let z16 = Format::parse("Z16").unwrap();
        assert!(z16.caps_on(Gpu::Gm204).unwrap().can_depth);
        assert_eq!(z16.caps_on(Gpu::Gk104).map(|c| c.can_depth), Some(false), "Z16 rows need Maxwell A");
        let r32g32b32 = Format::parse("tex:R32_G32_B32").unwrap().caps_on(Gpu::Tu102).unwrap();
        assert!(r32g32b32.can_sample && r32g32b32.can_buffer && !r32g32b32.can_render);
        assert_eq!(Format::parse("A8B8G8R8").unwrap().caps_on(Gpu::G80), None, "nil lays out Fermi and later");
    }
}
