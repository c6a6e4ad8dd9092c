//! [`TextureDesc::build`]: validates a descriptor, plans its levels by the GPU generation's
//! rules ([`super::g80`], [`super::pre_g80`]), places them in a layer and sizes the texture.

use super::desc::{LevelPlacement, TextureDesc};
use super::kind::{max_levels, TextureType};
use super::level::{Level, PlannedLevel};
use super::nil::{self, AlignSource};
use super::plan::Texture;
use super::policy::BlockPolicy;
use super::{g80, pre_g80};
use crate::error::{check_span, mul, Error, Result};
use crate::extent::{Elements, Extent};
use crate::layout::surface::{LayoutKind, Surface};
use alloc::vec::Vec;

impl TextureDesc {
    /// Validates the descriptor and computes the whole layout.
    pub fn build(&self) -> Result<Texture> {
        self.ty.check_gpu(self.gpu)?;
        self.ty.check_shape_on(self.gpu, self.size_texels, self.layers)?;
        crate::layout::checks::check_elem_size(self.gpu, self.elem_size_bytes)?;
        for (field, v) in ["texels per element x", "texels per element y"].into_iter().zip(self.texels_per_elem) {
            if !(1..=16).contains(&v) {
                return Err(Error::OutOfRange { field, value: v.into(), min: 1, max: 16 });
            }
        }
        let max = if self.ty.has_mip_levels() { max_levels(self.size_texels) } else { 1 };
        if self.levels == 0 || self.levels > max {
            return Err(Error::OutOfRange { field: "levels", value: self.levels.into(), min: 1, max: max.into() });
        }
        self.check_samples_and_sparse()?;
        let elements: Vec<Extent<Elements>> = (0..self.levels).map(|l| self.level_elements(l)).collect();
        let (planned, align) =
            if self.gpu.is_g80_or_later() { g80::plan(self, &elements)? } else { pre_g80::plan(self, &elements)? };
        let offsets = self.place(&planned)?;
        let tail = planned.iter().position(|p| p.clamped).map_or(self.levels, |l| l as u32);
        let mut levels = Vec::with_capacity(planned.len());
        for (i, (p, offset)) in planned.into_iter().zip(offsets).enumerate() {
            let level = i as u32;
            let e = self.stored_elements(elements[i])?;
            let slice_bytes = match p.surface {
                Some(Surface::Pitch(s)) => Some(s.pitch_bytes() * u64::from(e[1])),
                None => Some(p.size_bytes),
                _ => None,
            };
            levels.push(Level {
                level,
                offset_bytes: offset,
                size_bytes: p.size_bytes,
                texels: self.level_texels(level),
                elements: e,
                block_log2: p.block_log2,
                row_bytes: p.row_bytes,
                slice_bytes,
                surface: p.surface,
            });
        }
        let last = levels.last().map_or(0, |l| l.offset_bytes + l.size_bytes);
        let computed = align_up("layer stride", last, align)?;
        let layer_stride_bytes = match self.layer_stride_bytes {
            Some(s) if s < last => {
                return Err(Error::OutOfRange { field: "layer stride", value: s, min: last, max: u64::MAX })
            }
            // Later layers start at multiples of the stride: blocklinear ones must stay gob-aligned.
            Some(s) if self.layers > 1 && matches!(levels[0].surface, Some(Surface::BlockLinear(_))) => {
                match self.gpu.blocklinear_align_bytes() {
                    Some(a) if s % a != 0 => {
                        return Err(Error::NotMultiple { field: "blocklinear layer stride", value: s, multiple: a })
                    }
                    _ => s,
                }
            }
            Some(s) => s,
            None => computed,
        };
        let size_bytes = mul("texture size", layer_stride_bytes, self.layers.into())?;
        let (align_bytes, align_source) = self.allocation_align(&levels[0]);
        // nil rounds a tiled image's size up to its alignment (Mesa `src/nouveau/nil/image.rs`).
        let size_bytes = match (align_bytes, levels[0].surface) {
            (Some(a), Some(Surface::BlockLinear(_))) if self.uses_nil_rules() => {
                align_up("texture size", size_bytes, a)?
            }
            _ => size_bytes,
        };
        check_span("texture", 0, size_bytes)?;
        let elem_size_bytes = levels[0].surface.map_or(self.elem_size_bytes, |s| s.elem_size_bytes());
        Ok(Texture {
            gpu: self.gpu,
            ty: self.ty,
            layout: if self.ty == TextureType::Buffer { LayoutKind::Pitch } else { self.layout },
            texels_per_elem: self.texels_per_elem,
            elem_size_bytes,
            layers: self.layers,
            levels,
            layer_stride_bytes,
            size_bytes,
            samples: self.samples,
            sparse: self.sparse,
            mip_tail_first_level: self.sparse.then_some(tail),
            align_bytes,
            align_source,
        })
    }

    /// Refuses what multisampled and sparse textures cannot be (one line each): a sample count
    /// other than 1, 2, 4, 8, 16; samples on anything but a one-level 2D texture of
    /// single-texel elements in the blocklinear layout on GF100 and later (Vulkan's rules, and
    /// "NVIDIA can't do linear and multisampling", Mesa `src/nouveau/nil/image.rs`); sparse
    /// residency outside the blocklinear layout on GF100 and later.
    fn check_samples_and_sparse(&self) -> Result<()> {
        let refuse = |field: &'static str, value: alloc::string::String, rule: &str| {
            Err(Error::Unsupported { field, value, rule: rule.into() })
        };
        if self.samples != 1 {
            self.sample_mode()?;
            if !matches!(self.ty, TextureType::D2 | TextureType::D2Array) {
                return refuse(
                    "samples",
                    alloc::format!("{} with a {} texture", self.samples, self.ty),
                    "multisampled textures are 2D or 2D arrays",
                );
            }
            if self.levels != 1 {
                return refuse(
                    "samples",
                    alloc::format!("{} with {} levels", self.samples, self.levels),
                    "a multisampled texture has one level",
                );
            }
            if self.layout != LayoutKind::BlockLinear || !self.gpu.is_gf100_or_later() {
                return refuse(
                    "samples",
                    alloc::format!("{} with the {} layout on {}", self.samples, self.layout.name(), self.gpu),
                    "multisampled textures are blocklinear, on GF100 and later (no linear multisampling)",
                );
            }
            if self.texels_per_elem != [1, 1] {
                return refuse(
                    "samples",
                    alloc::format!("{} with compressed elements", self.samples),
                    "compressed formats have no multisampled images",
                );
            }
        }
        if self.sparse && (self.layout != LayoutKind::BlockLinear || !self.gpu.is_gf100_or_later()) {
            return refuse(
                "sparse",
                alloc::format!("the {} layout on {}", self.layout.name(), self.gpu),
                "sparse images are blocklinear, on GF100 and later",
            );
        }
        Ok(())
    }

    /// The allocation alignment and where it comes from: nil's for the `nvk` policy and sparse
    /// images (level 0's block, 64 KiB when sparse, at least 4 KiB; a linear image's row
    /// alignment); the hardware's minimum address alignment for `max` and explicit blocks; none
    /// known for NVIDIA's driver and NVN.
    fn allocation_align(&self, level0: &Level) -> (Option<u64>, AlignSource) {
        match level0.surface {
            Some(Surface::BlockLinear(s)) if self.uses_nil_rules() => {
                let sparse = if self.sparse { nil::SPARSE_ALIGN_BYTES } else { 0 };
                (Some(s.block_bytes().max(sparse).max(nil::MIN_ALIGN_BYTES)), AlignSource::Nil)
            }
            Some(Surface::Pitch(_)) if self.block == BlockPolicy::Nvk => {
                (Some(nil::linear_row_align_bytes(self.gpu)), AlignSource::Nil)
            }
            Some(Surface::BlockLinear(_)) if self.block == BlockPolicy::Nvidia && self.gpu == crate::Gpu::Gh100 => {
                (Some(1024), AlignSource::NvidiaH100)
            }
            _ if matches!(self.block, BlockPolicy::Nvidia | BlockPolicy::Nvn) && self.gpu.is_g80_or_later() => {
                (None, AlignSource::Unknown)
            }
            Some(Surface::BlockLinear(_)) => (self.gpu.blocklinear_align_bytes(), AlignSource::Document),
            Some(Surface::Pitch(_)) if self.gpu.is_g80_or_later() => (Some(64), AlignSource::Document),
            _ => (None, AlignSource::Unknown),
        }
    }

    /// Level offsets inside a layer, per the placement.
    fn place(&self, planned: &[PlannedLevel]) -> Result<Vec<u64>> {
        let mut out = Vec::with_capacity(planned.len());
        let mut end = 0u64;
        for (i, p) in planned.iter().enumerate() {
            let offset = match &self.placement {
                LevelPlacement::Packed => end,
                LevelPlacement::AlignEach(0) => {
                    return Err(Error::OutOfRange { field: "level alignment", value: 0, min: 1, max: u64::MAX })
                }
                LevelPlacement::AlignEach(a) => align_up("level offset", end, *a)?,
                LevelPlacement::Offsets(v) => {
                    if v.len() != planned.len() {
                        return Err(Error::Unsupported {
                            field: "level offsets",
                            value: alloc::format!("{} offsets", v.len()),
                            rule: alloc::format!("give one offset per level ({} levels)", planned.len()),
                        });
                    }
                    if v[i] < end {
                        return Err(Error::OutOfRange { field: "level offset", value: v[i], min: end, max: u64::MAX });
                    }
                    v[i]
                }
            };
            // A blocklinear level is a surface of its own, whose address must be gob-aligned
            // (envytools `docs/hw/memory/g80-surface.rst`; ERRATA E11: 0x100 bytes on G80:GF100,
            // 0x200 on GF100+). Packed levels always are (their sizes are whole gobs); offsets and
            // alignments given by the user may not be.
            if let (Some(Surface::BlockLinear(_)), Some(align)) = (p.surface, self.gpu.blocklinear_align_bytes()) {
                if offset % align != 0 {
                    return Err(Error::Unsupported {
                        field: "level offset",
                        value: alloc::format!("{offset} ({offset:#x}) of level {i}"),
                        rule: alloc::format!(
                            "a blocklinear level starts on a multiple of {align:#x} bytes on {} (the gob size: \
                             0x100 on G80:GF100, 0x200 on GF100+)",
                            self.gpu
                        ),
                    });
                }
            }
            end = offset.checked_add(p.size_bytes).ok_or_else(|| Error::Overflow {
                what: "level offset",
                detail: alloc::format!("{offset} + {} bytes", p.size_bytes),
            })?;
            out.push(offset);
        }
        Ok(out)
    }
}

/// Rounds `v` up to a multiple of `align` (any non-zero value).
fn align_up(what: &'static str, v: u64, align: u64) -> Result<u64> {
    v.div_ceil(align)
        .checked_mul(align)
        .ok_or_else(|| Error::Overflow { what, detail: alloc::format!("{v} rounded up to a multiple of {align}") })
}
