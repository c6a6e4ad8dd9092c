//! [`MsMode`]: a multisample mode id, its name, its sample grid and the element sizes it allows.

use super::table::{FullSample, ModeInfo, MODES};
use crate::error::{closest, Error, Result};
use crate::extent::{Extent, Samples, Texels};
use crate::gpu::Gpu;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// A multisample mode id (the MULTISAMPLE_MODE register value): 0x0-0x6 or 0x8-0xb.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MsMode(u8);

impl MsMode {
    /// MS1: no multisampling.
    pub const MS1: MsMode = MsMode(0x0);
    /// MS2 (2x1).
    pub const MS2: MsMode = MsMode(0x1);
    /// MS4 (2x2).
    pub const MS4: MsMode = MsMode(0x2);
    /// MS8 (4x2).
    pub const MS8: MsMode = MsMode(0x3);
    /// MS8_ALT (4x2, GT215+; ERRATA E3).
    pub const MS8_ALT: MsMode = MsMode(0x4);
    /// MS2_ALT (2x1, GT215+; ERRATA E3).
    pub const MS2_ALT: MsMode = MsMode(0x5);
    /// Mode 0x6: 4x4, 16 samples, GF100+ (ERRATA "Answers").
    pub const MS16: MsMode = MsMode(0x6);
    /// MS4_CS4: 4 full + 4 coverage samples.
    pub const MS4_CS4: MsMode = MsMode(0x8);
    /// MS4_CS12: 4 full + 12 coverage samples.
    pub const MS4_CS12: MsMode = MsMode(0x9);
    /// MS8_CS8: 8 full + 8 coverage samples.
    pub const MS8_CS8: MsMode = MsMode(0xa);
    /// MS8_CS24: 8 full + 24 coverage samples, GF100+.
    pub const MS8_CS24: MsMode = MsMode(0xb);

    /// The mode with register value `id`; 0x7 and values above 0xb do not exist.
    pub fn from_id(id: u32) -> Result<MsMode> {
        match id {
            0x0..=0x6 | 0x8..=0xb => Ok(MsMode(id as u8)),
            _ => Err(Error::Unsupported {
                field: "multisample mode",
                value: alloc::format!("{id:#x}"),
                rule: "modes are 0x0-0x6 and 0x8-0xb".into(),
            }),
        }
    }

    /// Parses a mode name or alias (case-insensitive, `-` accepted for `_`), or a number
    /// (`0xa`, `10`). Unknown names list the closest known ones.
    pub fn parse(text: &str) -> Result<MsMode> {
        let t = text.trim();
        let norm: String = t.chars().map(|c| if c == '-' { '_' } else { c.to_ascii_uppercase() }).collect();
        for m in &MODES {
            if m.names.contains(&norm.as_str()) {
                return Ok(MsMode(m.id));
            }
        }
        let num = if let Some(h) = norm.strip_prefix("0X") {
            u32::from_str_radix(h, 16).ok()
        } else {
            norm.parse::<u32>().ok()
        };
        if let Some(n) = num {
            return MsMode::from_id(n);
        }
        Err(Error::UnknownName {
            kind: "multisample mode",
            name: t.to_string(),
            suggestions: closest(&norm, MODES.iter().flat_map(|m| m.names.iter().copied())),
        })
    }

    /// All modes, in id order.
    pub fn all() -> impl Iterator<Item = MsMode> {
        MODES.iter().map(|m| MsMode(m.id))
    }

    /// The register value.
    pub const fn id(self) -> u8 {
        self.0
    }

    /// The table entry of this mode.
    pub fn info(self) -> &'static ModeInfo {
        // MsMode values are only built from valid ids; MODES holds them all in id order.
        MODES.iter().find(|m| m.id == self.0).unwrap_or(&MODES[0])
    }

    /// Canonical name (e.g. `MS8_CS8`).
    pub fn name(self) -> &'static str {
        self.info().names[0]
    }

    /// Full samples per pixel (= elements per pixel in the surface).
    pub fn full_samples(self) -> u32 {
        self.info().full.len() as u32
    }

    /// Coverage samples per pixel (0 unless CSAA).
    pub fn coverage_samples(self) -> u32 {
        u32::from(self.info().coverage_count)
    }

    /// True for the coverage-sampling (CSAA) modes 0x8-0xb.
    pub fn is_csaa(self) -> bool {
        self.info().coverage_count > 0
    }

    /// The pixel block in the surface, `(width, height)` in elements.
    pub fn grid(self) -> (u32, u32) {
        let m = self.info();
        (u32::from(m.grid_w), u32::from(m.grid_h))
    }

    /// Whether the mode exists on `gpu`.
    pub fn available_on(self, gpu: Gpu) -> bool {
        gpu >= self.info().min_gpu
    }

    /// The multisample "family" of the storage-type rules: 1, 2, 4, 8 or 16 full samples
    /// ("MS2*" in the document means MS2 and MS2_ALT, "MS4*" MS4 and the MS4_CS* modes, ...).
    pub fn family(self) -> u32 {
        self.full_samples()
    }

    /// Whether surfaces with `elem_size_bytes`-byte elements may use this mode. Element sizes are
    /// 1, 2, 4, 8, 12 and 16 bytes, and the one multisample rule on them is "MS8 and MS8_C* modes
    /// cannot be used with surfaces that have 16-byte element size" (envytools
    /// `docs/hw/memory/g80-surface.rst`); MS8_ALT is an MS8 mode. 12-byte elements (32_32_32) exist
    /// on GF100+ only: that is a GPU rule, checked by [`MsMode::check_elem_size`], not a mode rule.
    /// Mode 0x6 is not covered by the document and is allowed here.
    pub fn allows_elem_size(self, elem_size_bytes: u32) -> bool {
        matches!(elem_size_bytes, 1 | 2 | 4 | 8 | 12 | 16) && !(self.family() == 8 && elem_size_bytes == 16)
    }

    /// Element sizes in bytes that this mode allows (12 on GF100+ only).
    pub fn allowed_elem_sizes(self) -> Vec<u32> {
        [1u32, 2, 4, 8, 12, 16].into_iter().filter(|&s| self.allows_elem_size(s)).collect()
    }

    /// Checks that `elem_size_bytes`-byte elements may use this mode on `gpu`: the size exists
    /// (1, 2, 4, 8 or 16 bytes, 12 on GF100+) and is not 16 bytes with an MS8 mode. The error
    /// names the size and the rule that rejects it.
    pub fn check_elem_size(self, gpu: Gpu, elem_size_bytes: u32) -> Result<()> {
        crate::layout::checks::check_elem_size(gpu, elem_size_bytes)?;
        if self.allows_elem_size(elem_size_bytes) {
            return Ok(());
        }
        // Only MS8 modes reject a size that exists (16 bytes).
        let rule = "MS8 and MS8_C* modes (MS8, MS8_ALT, MS8_CS8, MS8_CS24) cannot be used with 16-byte elements";
        Err(Error::ElemSize { value: u64::from(elem_size_bytes), rule })
    }

    /// Checks that a surface may use this mode on `gpu`: the mode exists there, the element size
    /// is allowed ([`MsMode::check_elem_size`]), and the surface is blocklinear ("multisampling
    /// is only possible with blocklinear surfaces", envytools `docs/hw/memory/g80-surface.rst`).
    /// MS1 is allowed with any layout.
    pub fn check_surface(self, gpu: Gpu, elem_size_bytes: u32, blocklinear: bool) -> Result<()> {
        if !self.available_on(gpu) {
            return Err(Error::Unsupported {
                field: "multisample mode",
                value: self.name().into(),
                rule: alloc::format!("{} exists on {}+ only, not on {}", self.name(), self.info().min_gpu, gpu),
            });
        }
        self.check_elem_size(gpu, elem_size_bytes)?;
        if self != MsMode::MS1 && !blocklinear {
            return Err(Error::Unsupported {
                field: "layout",
                value: "pitch".into(),
                rule: alloc::format!("multisampling ({}) is only possible with blocklinear surfaces", self.name()),
            });
        }
        Ok(())
    }

    /// The full sample with id `s`, or an error naming the valid range.
    pub fn sample(self, s: u32) -> Result<&'static FullSample> {
        let full = self.info().full;
        full.get(s as usize).ok_or(Error::OutOfRange {
            field: "sample",
            value: u64::from(s),
            min: 0,
            max: full.len() as u64 - 1,
        })
    }

    /// Element coordinates in the sample surface of pixel `(x_px, y_px)`, full sample `s`:
    /// `(x * grid_w + gx, y * grid_h + gy)` (envytools `docs/hw/memory/g80-surface.rst`: "each
    /// pixel is represented in the surface as a block grid_w elements wide and grid_h elements
    /// tall"). Fails for samples whose grid position is undocumented (modes 0x6 and 0xb).
    pub fn sample_element_xy(self, x_px: u64, y_px: u64, s: u32) -> Result<(u64, u64)> {
        let fsample = self.sample(s)?;
        let (gx, gy) = fsample.grid_xy.ok_or_else(|| self.undocumented_grid())?;
        let (w, h) = self.grid();
        let ex = x_px
            .checked_mul(u64::from(w))
            .and_then(|v| v.checked_add(u64::from(gx)))
            .ok_or_else(|| overflow("sample x", x_px))?;
        let ey = y_px
            .checked_mul(u64::from(h))
            .and_then(|v| v.checked_add(u64::from(gy)))
            .ok_or_else(|| overflow("sample y", y_px))?;
        Ok((ex, ey))
    }

    /// The inverse of [`MsMode::sample_element_xy`]: which pixel and sample the element at
    /// `(ex, ey)` of the sample surface holds.
    pub fn element_sample(self, ex: u64, ey: u64) -> Result<(u64, u64, u32)> {
        let (w, h) = self.grid();
        let (gx, gy) = ((ex % u64::from(w)) as u8, (ey % u64::from(h)) as u8);
        let s =
            self.info().full.iter().find(|f| f.grid_xy == Some((gx, gy))).ok_or_else(|| self.undocumented_grid())?;
        Ok((ex / u64::from(w), ey / u64::from(h), u32::from(s.id)))
    }

    /// Sample surface size in elements for a `width_px x height_px` image.
    pub fn surface_size_elements(self, width_px: u64, height_px: u64) -> Result<(u64, u64)> {
        let (w, h) = self.grid();
        let sw = width_px.checked_mul(u64::from(w)).ok_or_else(|| overflow("surface width", width_px))?;
        let sh = height_px.checked_mul(u64::from(h)).ok_or_else(|| overflow("surface height", height_px))?;
        Ok((sw, sh))
    }

    /// The sample grid of a `pixels` image: each pixel `grid()` samples across and down, the
    /// depth unchanged. Fails naming the side that passes `u32::MAX` samples.
    pub fn samples_of(self, pixels: Extent<Texels>) -> Result<Extent<Samples>> {
        let (w, h) = self.grid();
        let side = |field: &'static str, px: u32, g: u32| {
            let n = u64::from(px) * u64::from(g);
            u32::try_from(n).map_err(|_| Error::OutOfRange { field, value: n, min: 1, max: u32::MAX.into() })
        };
        Ok(Extent::new(
            side("sample surface width", pixels.width, w)?,
            side("sample surface height", pixels.height, h)?,
            pixels.depth,
        ))
    }

    fn undocumented_grid(self) -> Error {
        Error::Unsupported {
            field: "multisample mode",
            value: self.name().into(),
            rule: alloc::format!("the grid position of {}'s samples is undocumented", self.name()),
        }
    }
}

fn overflow(what: &'static str, v: u64) -> Error {
    Error::Overflow { what, detail: alloc::format!("{v} x grid size overflows 64 bits") }
}

impl Extent<Texels> {
    /// The sample grid of these pixels under `mode` ([`MsMode::samples_of`]).
    pub fn to_samples(self, mode: MsMode) -> Result<Extent<Samples>> {
        mode.samples_of(self)
    }
}

impl core::fmt::Display for MsMode {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for MsMode {
    type Err = Error;
    fn from_str(s: &str) -> Result<MsMode> {
        MsMode::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixels_to_samples() {
        let px: Extent<Texels> = Extent::new(3, 14, 1);
        let ms8 = MsMode::parse("ms8").unwrap();
        let (gw, gh) = ms8.grid();
        assert_eq!(px.to_samples(ms8).unwrap(), [3 * gw, 14 * gh, 1]);
        assert_eq!(px.to_samples(ms8).unwrap().to_elements(), [3 * gw, 14 * gh, 1]);
        let wide: Extent<Texels> = Extent::new(u32::MAX, 1, 1);
        assert!(matches!(wide.to_samples(ms8), Err(Error::OutOfRange { field: "sample surface width", .. })));
    }

    #[test]
    fn parse_names_numbers_and_errors() {
        assert_eq!(MsMode::parse("ms8_cs8").unwrap(), MsMode::MS8_CS8);
        assert_eq!(MsMode::parse("16xq-csaa").unwrap(), MsMode::MS8_CS8);
        assert_eq!(MsMode::parse("0x4").unwrap(), MsMode::MS8_ALT);
        assert_eq!(MsMode::parse("5").unwrap(), MsMode::MS2_ALT);
        assert!(matches!(MsMode::parse("0x7"), Err(Error::Unsupported { .. })));
        assert!(matches!(MsMode::parse("0xc"), Err(Error::Unsupported { .. })));
        match MsMode::parse("ms8_cs9") {
            Err(Error::UnknownName { suggestions, .. }) => {
                assert!(suggestions.iter().any(|s| s == "MS8_CS8"))
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn every_mode_is_consistent() {
        for m in MsMode::all() {
            let i = m.info();
            assert_eq!(i.full.len(), usize::from(i.grid_w) * usize::from(i.grid_h), "{m}");
            for (k, f) in i.full.iter().enumerate() {
                assert_eq!(usize::from(f.id), k);
            }
            // Grid coordinates, where known, are a permutation of the block.
            let mut cells: Vec<_> = i.full.iter().filter_map(|f| f.grid_xy).collect();
            let n = cells.len();
            cells.sort();
            cells.dedup();
            assert_eq!(cells.len(), n, "{m}: two samples share a cell");
            assert!(n == 0 || n == i.full.len());
            for c in i.coverage {
                let b = c.belongs.unwrap();
                let (lo, hi) = c.c_bits.unwrap();
                assert_eq!(usize::from(hi - lo + 1), b.len(), "{m} sample {:#x}", c.id);
                assert!(b.iter().all(|&s| usize::from(s) < i.full.len()));
            }
        }
    }

    #[test]
    fn element_coordinates_round_trip() {
        for m in [MsMode::MS1, MsMode::MS2, MsMode::MS4, MsMode::MS8, MsMode::MS8_ALT, MsMode::MS8_CS8] {
            for s in 0..m.full_samples() {
                let (ex, ey) = m.sample_element_xy(5, 3, s).unwrap();
                assert_eq!(m.element_sample(ex, ey).unwrap(), (5, 3, s));
            }
        }
        // MS8 sample 5 sits at [3,0]: pixel (2,1) -> element (2*4+3, 1*2+0).
        assert_eq!(MsMode::MS8.sample_element_xy(2, 1, 5).unwrap(), (11, 2));
        assert!(matches!(MsMode::MS8.sample_element_xy(0, 0, 8), Err(Error::OutOfRange { .. })));
        assert!(matches!(MsMode::MS16.sample_element_xy(0, 0, 0), Err(Error::Unsupported { .. })));
        assert!(matches!(MsMode::MS8.sample_element_xy(u64::MAX, 0, 0), Err(Error::Overflow { .. })));
    }

    #[test]
    fn surface_rules() {
        assert!(MsMode::MS8.check_surface(Gpu::G80, 8, true).is_ok());
        assert!(matches!(MsMode::MS8.check_surface(Gpu::G80, 16, true), Err(Error::ElemSize { .. })));
        assert!(matches!(MsMode::MS8_ALT.check_surface(Gpu::Gt215, 16, true), Err(Error::ElemSize { .. })));
        assert!(MsMode::MS4.check_surface(Gpu::G80, 16, true).is_ok());
        assert!(matches!(MsMode::MS4.check_surface(Gpu::G80, 4, false), Err(Error::Unsupported { .. })));
        assert!(MsMode::MS1.check_surface(Gpu::G80, 16, false).is_ok());
        assert!(matches!(MsMode::MS2_ALT.check_surface(Gpu::G200, 4, true), Err(Error::Unsupported { .. })));
        assert!(MsMode::MS2_ALT.check_surface(Gpu::Gt215, 4, true).is_ok());
        assert!(!MsMode::MS8_CS24.available_on(Gpu::Gt215));
    }

    #[test]
    fn elem_size_errors_state_the_rule_that_failed() {
        // 12-byte elements are GF100+ and not excluded by any mode; the MS8 rule is 16 bytes only.
        assert!(MsMode::MS8.check_surface(Gpu::Gf100, 12, true).is_ok());
        assert!(MsMode::MS1.check_surface(Gpu::Gf100, 12, false).is_ok());
        let msg = |m: MsMode, gpu, e| m.check_surface(gpu, e, true).unwrap_err().to_string();
        let e = msg(MsMode::MS1, Gpu::Gt215, 12);
        assert!(e.contains("elem_size 12") && e.contains("GF100 and later only") && !e.contains("MS8"), "{e}");
        let e = msg(MsMode::MS4, Gpu::Gf100, 3);
        assert!(e.contains("elem_size 3") && e.contains("must be 1, 2, 4, 8 or 16") && !e.contains("MS8"), "{e}");
        let e = msg(MsMode::MS8_CS8, Gpu::G84, 16);
        assert!(e.contains("elem_size 16") && e.contains("MS8_CS8, MS8_CS24) cannot be used with 16-byte"), "{e}");
        assert_eq!(MsMode::MS8.allowed_elem_sizes(), [1, 2, 4, 8, 12]);
        assert_eq!(MsMode::MS4.allowed_elem_sizes(), [1, 2, 4, 8, 12, 16]);
    }
}
