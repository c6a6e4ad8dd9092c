//! Pitch ("linear") surfaces.
//!
//! Envytools `docs/hw/memory/g80-surface.rst`, "Pitch surfaces": a 2D array of elements, each row
//! contiguous, rows `pitch` bytes apart; address 40-bit and 64-byte aligned, pitch a multiple of
//! 64; the address of element (x, y) is `address + pitch * y + elem_size_bytes * x`.
//!
//! Pre-G80 linear surfaces ("Findings on pre-NV50 miptree layout", nouveau mailing list,
//! 2010-01-08, "Linear textures") allow any pitch that is a multiple of the element size ("can
//! apparently be any value (even 4), aligned to bytes per pixel"); the 64-byte address alignment
//! is kept for them too (the same findings: "The offset must however be a multiple of 64").
//!
//! Decision (the documents are silent): the size of a pitch surface is `pitch * height` bytes,
//! what drivers allocate; the pitch must hold a whole row (`pitch >= width * elem_size_bytes`).

use super::binding::Binding;
use super::checks::{check_address, check_coords, check_dim, check_elem_size};
use crate::error::{check_span, mul, Error, Result};
use crate::gpu::Gpu;
use alloc::string::ToString;

/// What a caller asks for; [`Pitch::new`] validates it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PitchParams {
    /// The GPU.
    pub gpu: Gpu,
    /// 40-bit address, a multiple of 64.
    pub address: u64,
    /// Bytes between rows: a multiple of 64 on G80+, of the element size before.
    pub pitch_bytes: u64,
    /// Element size in bytes.
    pub elem_size_bytes: u32,
    /// Width in elements.
    pub width: u32,
    /// Height in rows.
    pub height: u32,
    /// Binding point, if any (byte-oriented ones see bytes; zeta RTs reject pitch surfaces).
    pub binding: Option<Binding>,
}

/// A validated pitch surface.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pitch {
    gpu: Gpu,
    address: u64,
    pitch_bytes: u64,
    elem_size_bytes: u32,
    width: u32,
    height: u32,
    byte_view: bool,
    size_bytes: u64,
}

/// The smallest valid pitch for a row of `row_bytes` on `gpu`.
pub fn min_pitch_bytes(gpu: Gpu, row_bytes: u64, elem_size_bytes: u32) -> u64 {
    let align = if gpu.is_g80_or_later() { 64 } else { u64::from(elem_size_bytes.max(1)) };
    row_bytes.div_ceil(align) * align
}

impl Pitch {
    /// Validates `p`.
    pub fn new(p: &PitchParams) -> Result<Pitch> {
        check_elem_size(p.gpu, p.elem_size_bytes)?;
        check_dim("width", p.width)?;
        check_dim("height", p.height)?;
        check_address(p.address, 64)?;
        if let Some(b) = p.binding {
            b.check_gpu(p.gpu)?;
            if b == Binding::ZetaRt {
                return Err(Error::Unsupported {
                    field: "layout",
                    value: "pitch".to_string(),
                    rule: "pitch surfaces cannot be used for zeta buffers (envytools docs/hw/memory/g80-surface.rst)"
                        .to_string(),
                });
            }
        }
        let multiple = if p.gpu.is_g80_or_later() { 64 } else { u64::from(p.elem_size_bytes) };
        if p.pitch_bytes == 0 {
            return Err(Error::OutOfRange { field: "pitch", value: 0, min: 1, max: u64::MAX });
        }
        if !p.pitch_bytes.is_multiple_of(multiple) {
            return Err(Error::NotMultiple { field: "pitch", value: p.pitch_bytes, multiple });
        }
        let row = u64::from(p.width) * u64::from(p.elem_size_bytes);
        if p.pitch_bytes < row {
            return Err(Error::Unsupported {
                field: "pitch",
                value: p.pitch_bytes.to_string(),
                rule: alloc::format!(
                    "a row of {} elements of {} bytes needs at least {} bytes",
                    p.width,
                    p.elem_size_bytes,
                    row
                ),
            });
        }
        let size_bytes = mul("surface size", p.pitch_bytes, p.height.into())?;
        check_span("surface", p.address, size_bytes)?;
        let byte_view = p.binding.is_some_and(Binding::is_byte_oriented) && p.elem_size_bytes != 1;
        // The byte view's width is the row in bytes, which must itself fit a width (u32).
        let width = match byte_view {
            true => u32::try_from(row).map_err(|_| Error::OutOfRange {
                field: "row bytes (byte-oriented binding)",
                value: row,
                min: 0,
                max: u64::from(u32::MAX),
            })?,
            false => p.width,
        };
        let elem_size_bytes = if byte_view { 1 } else { p.elem_size_bytes };
        Ok(Pitch {
            gpu: p.gpu,
            address: p.address,
            pitch_bytes: p.pitch_bytes,
            elem_size_bytes,
            width,
            height: p.height,
            byte_view,
            size_bytes,
        })
    }

    /// The GPU.
    pub fn gpu(&self) -> Gpu {
        self.gpu
    }
    /// Base address in bytes.
    pub fn address(&self) -> u64 {
        self.address
    }
    /// Bytes between rows.
    pub fn pitch_bytes(&self) -> u64 {
        self.pitch_bytes
    }
    /// Element size in bytes.
    pub fn elem_size_bytes(&self) -> u32 {
        self.elem_size_bytes
    }
    /// Element size in bytes: the old name of [`Self::elem_size_bytes`].
    #[deprecated(note = "use elem_size_bytes")]
    pub fn elem_size(&self) -> u32 {
        self.elem_size_bytes()
    }
    /// True when a byte-oriented binding point forced the element size to 1.
    pub fn is_byte_view(&self) -> bool {
        self.byte_view
    }
    /// Width in elements.
    pub fn width(&self) -> u32 {
        self.width
    }
    /// Height in rows.
    pub fn height(&self) -> u32 {
        self.height
    }
    /// Size in bytes (`pitch * height`).
    pub fn size_bytes(&self) -> u64 {
        self.size_bytes
    }
    /// Offset of element (x, y): `pitch * y + elem_size_bytes * x`, bounds-checked (z must be 0).
    pub fn offset_of(&self, x: u32, y: u32, z: u32) -> Result<u64> {
        check_coords([x, y, z], [self.width, self.height, 1])?;
        Ok(self.pitch_bytes * u64::from(y) + u64::from(self.elem_size_bytes) * u64::from(x))
    }
}
