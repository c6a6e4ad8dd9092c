//! G80/GF100 textures: envytools `docs/hw/memory/g80-surface.rst`, "Textures, mipmapping and
//! arrays" (errata E8 applied).
//!
//! Only level 0 of layer 0 is described (by the TIC); everything else follows:
//! - each level halves every dimension of the previous one, rounding down, at least 1;
//! - each level is a blocklinear surface whose block is the requested block auto-sized to the
//!   level ("texture units use auto-sizing for the block size");
//! - each level starts right after the previous one ends;
//! - the layer ("subtexture") size is the sum of its levels rounded up to level 0's block size
//!   (`calc_surface_block_bytes(mip[0])`); ERRATA E8: the loop's `calc_surface_bytes(mip[1])`
//!   means `mip[i]`, each level's own size;
//! - layers follow each other at that stride.
//!
//! RECT is a single pitch surface or a single blocklinear surface of depth 1; BUFFER is a packed
//! array of elements and no surface. Pitch surfaces "don't support arrays nor mipmapping when used
//! as textures" (envytools `docs/hw/memory/g80-surface.rst`, "Surfaces"), so a pitch texture has
//! one level and one layer.

use super::desc::TextureDesc;
use super::kind::TextureType;
use super::level::PlannedLevel;
use super::nil;
use super::policy::BlockPolicy;
use crate::error::{mul, Error, Result};
use crate::extent::{Elements, Extent};
use crate::layout::{Binding, BlockLinear, BlockLinearParams, LayoutKind, Pitch, PitchParams, Surface};
use alloc::string::ToString;
use alloc::vec::Vec;

/// Builds the surface of every level (element sizes in `elements`) and returns them with the
/// alignment of the layer stride in bytes.
pub(super) fn plan(d: &TextureDesc, elements: &[Extent<Elements>]) -> Result<(Vec<PlannedLevel>, u64)> {
    if d.ty == TextureType::Buffer {
        // A packed 1D array: width elements of elem_size_bytes bytes, nothing else.
        let bytes = mul("texture size", elements[0][0].into(), d.elem_size_bytes.into())?;
        return Ok((
            alloc::vec![PlannedLevel {
                surface: None,
                size_bytes: bytes,
                row_bytes: bytes,
                block_log2: None,
                clamped: false,
            }],
            1,
        ));
    }
    match d.layout {
        LayoutKind::Pitch => plan_pitch(d, elements),
        LayoutKind::BlockLinear => plan_blocklinear(d, elements),
        LayoutKind::Swizzled => Err(Error::Unsupported {
            field: "layout",
            value: alloc::format!("swizzled on {}", d.gpu),
            rule: "the swizzled layout exists before G80 only; G80+ textures are blocklinear or pitch".to_string(),
        }),
    }
}

fn plan_pitch(d: &TextureDesc, elements: &[Extent<Elements>]) -> Result<(Vec<PlannedLevel>, u64)> {
    if elements.len() != 1 || d.layers != 1 || !matches!(d.ty, TextureType::Rect | TextureType::D1 | TextureType::D2) {
        return Err(Error::Unsupported {
            field: "layout",
            value: alloc::format!("pitch {} texture with {} levels and {} layers", d.ty, elements.len(), d.layers),
            rule: "pitch surfaces don't support arrays nor mipmapping as textures (envytools docs/hw/memory/g80-surface.rst): use type rect, \
                   or 1d/2d with one level and one layer"
                .to_string(),
        });
    }
    let [w, h, _] = elements[0].to_array();
    let row = u64::from(w) * u64::from(d.elem_size_bytes);
    // NVK picks its own row alignment (Mesa nil `Image::new_linear`); the document's minimum
    // otherwise.
    let pitch_bytes = match d.pitch_bytes {
        Some(p) => p,
        None if d.block == BlockPolicy::Nvk => {
            let a = nil::linear_row_align_bytes(d.gpu);
            row.div_ceil(a) * a
        }
        None => crate::layout::pitch::min_pitch_bytes(d.gpu, row, d.elem_size_bytes),
    };
    let p = Pitch::new(&PitchParams {
        gpu: d.gpu,
        address: 0,
        pitch_bytes,
        elem_size_bytes: d.elem_size_bytes,
        width: w,
        height: h,
        binding: Some(Binding::Texture),
    })?;
    let level = PlannedLevel {
        surface: Some(Surface::Pitch(p)),
        size_bytes: p.size_bytes(),
        row_bytes: pitch_bytes,
        block_log2: None,
        clamped: false,
    };
    Ok((alloc::vec![level], 1))
}

fn plan_blocklinear(d: &TextureDesc, elements: &[Extent<Elements>]) -> Result<(Vec<PlannedLevel>, u64)> {
    if d.pitch_bytes.is_some() {
        return Err(Error::Unsupported {
            field: "pitch",
            value: alloc::format!("{:?}", d.pitch_bytes.unwrap_or(0)),
            rule: "a pitch applies to the pitch (linear) layout only".to_string(),
        });
    }
    // The block asked for comes from the pixel size (NVIDIA's driver and nil agree: the H100
    // capture in docs/HARDWARE.md); each level is stored as its sample grid.
    let requested = if d.sparse {
        nil::sparse_block_log2(d.gpu, d.ty, d.elem_size_bytes)?
    } else {
        d.block.requested_log2_for(d.gpu, d.ty, d.size_texels, elements[0])?
    };
    let nil_rules = d.uses_nil_rules();
    let gob_rows = d.gpu.gob_height_rows().unwrap_or(8);
    let mut out = Vec::with_capacity(elements.len());
    for &pixels in elements {
        let size = d.stored_elements(pixels)?;
        let block = if nil_rules {
            let width_bytes = u64::from(size.width) * u64::from(d.elem_size_bytes);
            nil::clamp_block_log2(requested, [width_bytes, size.height.into(), size.depth.into()], gob_rows)
        } else {
            requested
        };
        let mut p = BlockLinearParams::new(d.gpu, d.elem_size_bytes, size, block);
        // nil clamps by its own rule; the hardware auto-sizes every other texture's levels.
        p.auto_size = Some(!nil_rules);
        p.binding = Some(Binding::Texture);
        p.gob_order = d.gob_order;
        p.texture_block_width = d.texture_block_width;
        let s = BlockLinear::new(&p)?;
        out.push(PlannedLevel {
            surface: Some(Surface::BlockLinear(s)),
            size_bytes: s.size_bytes(),
            row_bytes: u64::from(s.blocks()[0]) * s.block_extent_bytes_rows_slices()[0],
            block_log2: Some(s.block_log2()),
            clamped: s.block_log2() != requested,
        });
    }
    // The layer is rounded up to level 0's (auto-sized) block; the NVN convention leaves a
    // single layer unpadded.
    let pads_single = nil_rules || d.pad_single_layer.unwrap_or_else(|| d.block.pads_single_layer());
    let align = match out[0].surface {
        Some(Surface::BlockLinear(s)) if d.layers > 1 || pads_single => s.block_bytes(),
        _ => 1,
    };
    Ok((out, align))
}
