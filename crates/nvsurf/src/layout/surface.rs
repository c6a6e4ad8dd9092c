//! [`SurfaceDesc`], the one descriptor the CLI and most callers fill in, and [`Surface`], the
//! validated surface of any layout that [`SurfaceDesc::build`] returns.

use super::binding::{Binding, TextureBlockWidth};
use super::blocklinear::{BlockLinear, BlockLinearParams};
use super::checks::{check_coords, check_elem_size};
use super::gob::GobOrder;
use super::pitch::{self, Pitch, PitchParams};
use super::swizzled::{Swizzled, SwizzledParams};
use crate::error::{Error, Result};
use crate::extent::{Elements, Extent};
use crate::gpu::Gpu;
use alloc::string::ToString;

/// The three layouts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LayoutKind {
    /// Pitch ("linear").
    Pitch,
    /// Blocklinear ("tiled"), G80+.
    BlockLinear,
    /// Swizzled, pre-G80.
    Swizzled,
}

impl LayoutKind {
    /// CLI name.
    pub const fn name(self) -> &'static str {
        match self {
            LayoutKind::Pitch => "pitch",
            LayoutKind::BlockLinear => "blocklinear",
            LayoutKind::Swizzled => "swizzled",
        }
    }

    /// Parses `pitch`/`linear`, `blocklinear`/`tiled`/`bl`, `swizzled`/`swizzle`.
    pub fn parse(name: &str) -> Result<LayoutKind> {
        match name.trim().to_ascii_lowercase().as_str() {
            "pitch" | "linear" => Ok(LayoutKind::Pitch),
            "blocklinear" | "block-linear" | "block_linear" | "tiled" | "bl" => Ok(LayoutKind::BlockLinear),
            "swizzled" | "swizzle" => Ok(LayoutKind::Swizzled),
            _ => Err(Error::UnknownName {
                kind: "layout",
                name: name.to_string(),
                suggestions: crate::error::closest(name, ["pitch", "linear", "blocklinear", "tiled", "swizzled"]),
            }),
        }
    }

    /// The natural layout of a GPU: blocklinear on G80+, swizzled before.
    pub fn default_for(gpu: Gpu) -> LayoutKind {
        if gpu.is_g80_or_later() {
            LayoutKind::BlockLinear
        } else {
            LayoutKind::Swizzled
        }
    }
}

/// One descriptor for any surface: what the CLI's surface flags fill in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SurfaceDesc {
    /// The GPU.
    pub gpu: Gpu,
    /// The layout.
    pub layout: LayoutKind,
    /// Base address in bytes (40-bit).
    pub address: u64,
    /// Element size in bytes.
    pub elem_size_bytes: u32,
    /// Width, height, depth in elements.
    pub size: Extent<Elements>,
    /// Pitch in bytes (pitch layout); `None` = the smallest valid pitch for the row.
    pub pitch_bytes: Option<u64>,
    /// Requested block log2 gobs (x, y, z) (blocklinear layout; required there).
    pub block_log2: Option<[u32; 3]>,
    /// Auto-sizing; `None` = the binding point's default.
    pub auto_size: Option<bool>,
    /// Binding point.
    pub binding: Option<Binding>,
    /// In-gob byte order.
    pub gob_order: GobOrder,
    /// How texture units treat block width (OPEN question).
    pub texture_block_width: TextureBlockWidth,
}

impl SurfaceDesc {
    /// A descriptor with the GPU's natural layout, address 0, no binding point.
    /// `size` is in elements: an [`Extent<Elements>`], or a plain `[w, h, d]` taken as one.
    pub fn new(gpu: Gpu, elem_size_bytes: u32, size: impl Into<Extent<Elements>>) -> SurfaceDesc {
        SurfaceDesc {
            gpu,
            layout: LayoutKind::default_for(gpu),
            address: 0,
            elem_size_bytes,
            size: size.into(),
            pitch_bytes: None,
            block_log2: None,
            auto_size: None,
            binding: None,
            gob_order: GobOrder::Vm,
            texture_block_width: TextureBlockWidth::Document,
        }
    }

    /// Validates the descriptor into a [`Surface`].
    pub fn build(&self) -> Result<Surface> {
        match self.layout {
            LayoutKind::Pitch => {
                if self.size[2] != 1 {
                    return Err(Error::Unsupported {
                        field: "depth",
                        value: self.size[2].to_string(),
                        rule: "pitch surfaces have 2 dimensions only (depth 1)".to_string(),
                    });
                }
                check_elem_size(self.gpu, self.elem_size_bytes)?;
                let row = u64::from(self.size[0]) * u64::from(self.elem_size_bytes);
                let pitch_bytes =
                    self.pitch_bytes.unwrap_or_else(|| pitch::min_pitch_bytes(self.gpu, row, self.elem_size_bytes));
                Ok(Surface::Pitch(Pitch::new(&PitchParams {
                    gpu: self.gpu,
                    address: self.address,
                    pitch_bytes,
                    elem_size_bytes: self.elem_size_bytes,
                    width: self.size[0],
                    height: self.size[1],
                    binding: self.binding,
                })?))
            }
            LayoutKind::BlockLinear => {
                let block_log2 = self.block_log2.ok_or(Error::Unsupported {
                    field: "block_log2",
                    value: "(none)".to_string(),
                    rule: "a blocklinear surface needs its block size (log2 gobs x,y,z)".to_string(),
                })?;
                Ok(Surface::BlockLinear(BlockLinear::new(&BlockLinearParams {
                    gpu: self.gpu,
                    address: self.address,
                    elem_size_bytes: self.elem_size_bytes,
                    width: self.size[0],
                    height: self.size[1],
                    depth: self.size[2],
                    block_log2,
                    auto_size: self.auto_size,
                    binding: self.binding,
                    gob_order: self.gob_order,
                    texture_block_width: self.texture_block_width,
                })?))
            }
            LayoutKind::Swizzled => Ok(Surface::Swizzled(Swizzled::new(&SwizzledParams {
                gpu: self.gpu,
                address: self.address,
                elem_size_bytes: self.elem_size_bytes,
                width: self.size[0],
                height: self.size[1],
                depth: self.size[2],
            })?)),
        }
    }
}

/// A validated surface of any layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Surface {
    /// Pitch.
    Pitch(Pitch),
    /// Blocklinear.
    BlockLinear(BlockLinear),
    /// Swizzled.
    Swizzled(Swizzled),
}

impl Surface {
    /// The layout kind.
    pub fn kind(&self) -> LayoutKind {
        match self {
            Surface::Pitch(_) => LayoutKind::Pitch,
            Surface::BlockLinear(_) => LayoutKind::BlockLinear,
            Surface::Swizzled(_) => LayoutKind::Swizzled,
        }
    }
    /// The GPU.
    pub fn gpu(&self) -> Gpu {
        match self {
            Surface::Pitch(s) => s.gpu(),
            Surface::BlockLinear(s) => s.gpu(),
            Surface::Swizzled(s) => s.gpu(),
        }
    }
    /// Base address in bytes.
    pub fn address(&self) -> u64 {
        match self {
            Surface::Pitch(s) => s.address(),
            Surface::BlockLinear(s) => s.address(),
            Surface::Swizzled(s) => s.address(),
        }
    }
    /// Element size in bytes (after any byte-oriented conversion).
    pub fn elem_size_bytes(&self) -> u32 {
        match self {
            Surface::Pitch(s) => s.elem_size_bytes(),
            Surface::BlockLinear(s) => s.elem_size_bytes(),
            Surface::Swizzled(s) => s.elem_size_bytes(),
        }
    }
    /// Element size in bytes: the old name of [`Self::elem_size_bytes`].
    #[deprecated(note = "use elem_size_bytes")]
    pub fn elem_size(&self) -> u32 {
        self.elem_size_bytes()
    }
    /// Width, height, depth in elements.
    pub fn size(&self) -> Extent<Elements> {
        match self {
            Surface::Pitch(s) => Extent::new(s.width(), s.height(), 1),
            Surface::BlockLinear(s) => Extent::new(s.width(), s.height(), s.depth()),
            Surface::Swizzled(s) => s.size().into(),
        }
    }
    /// Bytes the surface occupies from its address.
    pub fn size_bytes(&self) -> u64 {
        match self {
            Surface::Pitch(s) => s.size_bytes(),
            Surface::BlockLinear(s) => s.size_bytes(),
            Surface::Swizzled(s) => s.size_bytes(),
        }
    }
    /// Byte offset of element (x, y, z) from the surface's address, bounds-checked.
    pub fn offset_of(&self, x: u32, y: u32, z: u32) -> Result<u64> {
        match self {
            Surface::Pitch(s) => s.offset_of(x, y, z),
            Surface::BlockLinear(s) => s.offset_of(x, y, z),
            Surface::Swizzled(s) => s.offset_of(x, y, z),
        }
    }
    /// Address (base + offset) of element (x, y, z), bounds-checked.
    pub fn address_of(&self, x: u32, y: u32, z: u32) -> Result<u64> {
        Ok(self.address() + self.offset_of(x, y, z)?)
    }

    /// Byte offset of byte column `xb` (in bytes, `0..width * elem_size_bytes`) of row `y` in slice
    /// `z`, bounds-checked: the byte-oriented view of any surface. For blocklinear surfaces the
    /// bytes of one element need not be contiguous (12-byte elements straddle gobs).
    pub fn offset_of_byte(&self, xb: u64, y: u32, z: u32) -> Result<u64> {
        let es = u64::from(self.elem_size_bytes());
        let [w, h, d] = self.size().to_array();
        let limit = u64::from(w) * es;
        if xb >= limit {
            return Err(Error::OutOfBounds { field: "x byte", value: xb, limit });
        }
        check_coords([0, y, z], [1, h, d])?;
        Ok(match self {
            Surface::Pitch(p) => p.pitch_bytes() * u64::from(y) + xb,
            Surface::BlockLinear(b) => b.byte_offset(xb, y, z),
            Surface::Swizzled(s) => s.offset_of((xb / es) as u32, y, z)? + xb % es,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pitch_surface() {
        let mut d = SurfaceDesc::new(Gpu::G80, 4, [10, 5, 1]);
        d.layout = LayoutKind::Pitch;
        let s = d.build().unwrap();
        assert_eq!(s.size_bytes(), 64 * 5);
        assert_eq!(s.offset_of(3, 2, 0).unwrap(), 64 * 2 + 12);
        d.pitch_bytes = Some(100);
        assert_eq!(d.build().unwrap_err().to_string(), "pitch 100 is not a multiple of 64");
        d.pitch_bytes = Some(0);
        assert!(matches!(d.build(), Err(Error::OutOfRange { field: "pitch", .. })));
        d.pitch_bytes = Some(128);
        d.size[2] = 2;
        assert!(matches!(d.build(), Err(Error::Unsupported { field: "depth", .. })));
        // Pre-G80 linear: any multiple of the element size.
        let mut d = SurfaceDesc::new(Gpu::Nv40, 4, [1, 5, 1]);
        d.layout = LayoutKind::Pitch;
        d.pitch_bytes = Some(4);
        assert_eq!(d.build().unwrap().size_bytes(), 20);
        d.pitch_bytes = Some(6);
        assert!(matches!(d.build(), Err(Error::NotMultiple { multiple: 4, .. })));
    }

    #[test]
    fn layout_names() {
        assert_eq!(LayoutKind::parse("linear").unwrap(), LayoutKind::Pitch);
        assert_eq!(LayoutKind::parse("TILED").unwrap(), LayoutKind::BlockLinear);
        assert!(LayoutKind::parse("swizle").is_err());
        let d = SurfaceDesc::new(Gpu::Gf100, 4, [8, 8, 1]);
        assert!(matches!(d.build(), Err(Error::Unsupported { field: "block_log2", .. })));
    }
}
