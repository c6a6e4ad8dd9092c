//! Pre-G80 (NV40-era) textures: the nouveau mailing list, 2010-01-08,
//! "Findings on pre-NV50 miptree layout" (NV40).
//!
//! - Swizzled 1D/2D/3D textures: "Mipmaps are laid sequentially with no gap in between", each
//!   level swizzled on its own (3D textures in all three coordinates).
//! - Swizzled cube maps: "sequences of 2D textures, each aligned to 128 bytes": each face is a
//!   full mip chain and the face stride is the chain rounded up to 128 bytes. Non-square faces
//!   are laid out "as if their height were equal to the width" (ERRATA E12): each level is the
//!   square swizzled surface of its width, of which the image uses the top rows; a height above
//!   the width leaves no room in that square and is refused.
//! - Linear textures: "all images have the same pitch, which can apparently be any value (even
//!   4), aligned to bytes per pixel"; 3D linear textures are "laid with contiguous mipmaps, each
//!   containing a 2D texture for each zslice"; linear cube faces are contiguous with "no special
//!   face alignment".
//! - DXT (compressed) textures are never swizzled (nvsurf's rule; the findings do not cover them):
//!   each level is rows of 4x4 blocks, tightly packed, at least one block.
//!
//! Decisions where the findings are silent (it says "Not sure what happens with compressed
//! textures"): a DXT texture in the non-linear ("swizzled") mode keeps the 128-byte face
//! alignment of swizzled cubes, since the alignment belongs to that mode; a DXT texture in the
//! linear mode shares one pitch like every linear texture.
//!
//! A level with z slices stored one after another is described as one pitch surface of
//! `height * depth` rows; [`super::Level::slice_bytes`] gives the distance between slices.

use super::desc::TextureDesc;
use super::kind::TextureType;
use super::level::PlannedLevel;
use crate::error::{mul, Error, Result};
use crate::extent::{Elements, Extent};
use crate::layout::{LayoutKind, Pitch, PitchParams, Surface, Swizzled, SwizzledParams};
use alloc::string::ToString;
use alloc::vec::Vec;

/// Face stride alignment of swizzled cube maps, bytes ("Findings on pre-NV50 miptree layout",
/// nouveau mailing list, 2010-01-08).
pub const CUBE_FACE_ALIGN_BYTES: u64 = 128;

/// Builds the surface of every level and returns them with the layer (face) stride alignment.
pub(super) fn plan(d: &TextureDesc, elements: &[Extent<Elements>]) -> Result<(Vec<PlannedLevel>, u64)> {
    let compressed = d.texels_per_elem != [1, 1];
    let linear = match d.layout {
        LayoutKind::Pitch => true,
        LayoutKind::Swizzled => false,
        LayoutKind::BlockLinear => {
            return Err(Error::Unsupported {
                field: "layout",
                value: alloc::format!("blocklinear on {}", d.gpu),
                rule: "blocklinear surfaces exist on G80 (NV50) and later; pre-G80 textures are swizzled or linear"
                    .to_string(),
            })
        }
    };
    if d.ty == TextureType::Rect && !linear {
        return Err(Error::Unsupported {
            field: "layout",
            value: "swizzled rect".to_string(),
            rule: "RECT textures are linear (pitch) surfaces".to_string(),
        });
    }
    if d.pitch_bytes.is_some() && !linear {
        return Err(Error::Unsupported {
            field: "pitch",
            value: alloc::format!("{}", d.pitch_bytes.unwrap_or(0)),
            rule: "a pitch applies to linear textures only (swizzled and DXT levels have their own rows)".to_string(),
        });
    }
    let mut out = Vec::with_capacity(elements.len());
    if linear {
        // One pitch for every level: the given one, or level 0's row.
        let row0 = mul("row bytes", elements[0][0].into(), d.elem_size_bytes.into())?;
        let pitch = d.pitch_bytes.unwrap_or(row0);
        for &e in elements {
            out.push(pitch_level(d, e.to_array(), pitch)?);
        }
    } else if compressed {
        for &e in elements {
            let pitch = mul("row bytes", e[0].into(), d.elem_size_bytes.into())?;
            out.push(pitch_level(d, e.to_array(), pitch)?);
        }
    } else {
        // Name the rule in the error: only the level-0 size can break it (levels halve).
        for (field, v) in
            ["swizzled width", "swizzled height", "swizzled depth"].into_iter().zip(elements[0].to_array())
        {
            if !v.is_power_of_two() {
                return Err(Error::NotPowerOfTwo { field, value: v.into() });
            }
        }
        let square_faces = d.ty.is_cube() && elements[0][0] != elements[0][1];
        if square_faces && elements[0][1] > elements[0][0] {
            return Err(Error::Unsupported {
                field: "size",
                value: alloc::format!("{}x{}", elements[0][0], elements[0][1]),
                rule: "swizzled cube faces are laid out as if the height equalled the width (nouveau list 2010-01-08, \"Findings on pre-NV50 miptree layout\"), so the \
                       height may not exceed the width; use the linear layout for taller faces"
                    .to_string(),
            });
        }
        for [w, h, z] in elements.iter().map(|e| e.to_array()) {
            // ERRATA E12: a non-square face level is the square of its width.
            let h = if square_faces { w } else { h };
            let s = Swizzled::new(&SwizzledParams {
                gpu: d.gpu,
                address: 0,
                elem_size_bytes: d.elem_size_bytes,
                width: w,
                height: h,
                depth: z,
            })?;
            let row_bytes = u64::from(w) * u64::from(d.elem_size_bytes);
            out.push(PlannedLevel {
                clamped: false,
                surface: Some(Surface::Swizzled(s)),
                size_bytes: s.size_bytes(),
                row_bytes,
                block_log2: None,
            });
        }
    }
    let align = if d.ty.is_cube() && !linear { CUBE_FACE_ALIGN_BYTES } else { 1 };
    Ok((out, align))
}

/// A level stored as rows of `pitch` bytes, its z slices one after another.
fn pitch_level(d: &TextureDesc, [w, h, z]: [u32; 3], pitch: u64) -> Result<PlannedLevel> {
    let rows = u64::from(h) * u64::from(z);
    let rows = u32::try_from(rows).map_err(|_| Error::Overflow {
        what: "texture size",
        detail: alloc::format!("{h} rows x {z} slices exceed 2^32 rows"),
    })?;
    let p = Pitch::new(&PitchParams {
        gpu: d.gpu,
        address: 0,
        pitch_bytes: pitch,
        elem_size_bytes: d.elem_size_bytes,
        width: w,
        height: rows,
        binding: None,
    })?;
    Ok(PlannedLevel {
        clamped: false,
        surface: Some(Surface::Pitch(p)),
        size_bytes: p.size_bytes(),
        row_bytes: pitch,
        block_log2: None,
    })
}
