//! Pre-G80 swizzled surfaces.
//!
//! "Findings on pre-NV50 miptree layout", nouveau mailing list, 2010-01-08 ("Swizzled 1D/2D/3D
//! textures"): "take an x bit, then an y bit, then a z bit and so on. If you exceed a dimension,
//! skip taking their bits." Width, height and depth are powers of two; the element index is the
//! interleaving of the coordinate bits from the LSB, and the byte offset is `index * elem_size_bytes`. 3D
//! surfaces are swizzled in all three coordinates (`...zyxzyx`).

use super::checks::{check_address, check_coords, check_dim};
use crate::error::{check_span, Error, Result};
use crate::gpu::Gpu;
use alloc::string::ToString;

/// What a caller asks for; [`Swizzled::new`] validates it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SwizzledParams {
    /// The GPU (pre-G80).
    pub gpu: Gpu,
    /// Address, a multiple of 64 ("Findings on pre-NV50 miptree layout", nouveau mailing list,
    /// 2010-01-08: "SWIZZLED_SURFACE wants a 64-byte aligned destination").
    pub address: u64,
    /// Element size in bytes: 1, 2, 4, 8 or 16.
    pub elem_size_bytes: u32,
    /// Width in elements (power of two).
    pub width: u32,
    /// Height in elements (power of two).
    pub height: u32,
    /// Depth in elements (power of two).
    pub depth: u32,
}

/// A validated swizzled surface, with its bit masks precomputed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Swizzled {
    gpu: Gpu,
    address: u64,
    elem_size_bytes: u32,
    size: [u32; 3],
    masks: [u64; 3],
    size_bytes: u64,
}

/// The index bits that belong to x, y and z for a `2^lw x 2^lh x 2^ld` surface. An index has
/// 64 bits: when the log2 sizes add up to more, the bits past 63 are not assigned (a surface
/// that large is refused by [`Swizzled::new`] long before).
pub fn swizzle_masks(log2: [u32; 3]) -> [u64; 3] {
    let mut masks = [0u64; 3];
    let mut left = log2;
    let mut bit = 0;
    while bit < 64 && left.iter().any(|&l| l > 0) {
        for d in 0..3 {
            if left[d] > 0 && bit < 64 {
                masks[d] |= 1 << bit;
                bit += 1;
                left[d] -= 1;
            }
        }
    }
    masks
}

/// Scatters the low bits of `v` into the set bits of `mask` (a software PDEP).
#[inline]
pub fn deposit(mut v: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if v & 1 != 0 {
            out |= low;
        }
        v >>= 1;
        mask &= mask - 1;
    }
    out
}

impl Swizzled {
    /// Validates `p`.
    pub fn new(p: &SwizzledParams) -> Result<Swizzled> {
        if !p.gpu.has_swizzled_layout() {
            return Err(Error::Unsupported {
                field: "layout",
                value: alloc::format!("swizzled on {}", p.gpu),
                rule: "the swizzled layout exists before G80 only; G80+ uses blocklinear".to_string(),
            });
        }
        if !matches!(p.elem_size_bytes, 1 | 2 | 4 | 8 | 16) {
            return Err(Error::ElemSize { value: p.elem_size_bytes.into(), rule: "must be 1, 2, 4, 8 or 16 bytes" });
        }
        let size = [p.width, p.height, p.depth];
        for (field, v) in ["width", "height", "depth"].into_iter().zip(size) {
            check_dim(field, v)?;
            if !v.is_power_of_two() {
                return Err(Error::NotPowerOfTwo { field, value: v.into() });
            }
        }
        check_address(p.address, 64)?;
        let size_bytes = u64::from(p.width)
            .checked_mul(p.height.into())
            .and_then(|n| n.checked_mul(p.depth.into()))
            .and_then(|n| n.checked_mul(p.elem_size_bytes.into()))
            .ok_or_else(|| Error::Overflow {
                what: "surface size",
                detail: alloc::format!("{}x{}x{} elements of {} bytes", p.width, p.height, p.depth, p.elem_size_bytes),
            })?;
        check_span("surface", p.address, size_bytes)?;
        let masks = swizzle_masks(size.map(u32::trailing_zeros));
        Ok(Swizzled { gpu: p.gpu, address: p.address, elem_size_bytes: p.elem_size_bytes, size, masks, size_bytes })
    }

    /// The GPU.
    pub fn gpu(&self) -> Gpu {
        self.gpu
    }
    /// Base address.
    pub fn address(&self) -> u64 {
        self.address
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
    /// Width, height, depth in elements.
    pub fn size(&self) -> [u32; 3] {
        self.size
    }
    /// The index bits of x, y and z.
    pub fn masks(&self) -> [u64; 3] {
        self.masks
    }
    /// Size in bytes.
    pub fn size_bytes(&self) -> u64 {
        self.size_bytes
    }
    /// Element index of (x, y, z), bounds-checked.
    pub fn index_of(&self, x: u32, y: u32, z: u32) -> Result<u64> {
        check_coords([x, y, z], self.size)?;
        Ok(deposit(x.into(), self.masks[0]) | deposit(y.into(), self.masks[1]) | deposit(z.into(), self.masks[2]))
    }
    /// Byte offset of (x, y, z): `index * elem_size_bytes`.
    pub fn offset_of(&self, x: u32, y: u32, z: u32) -> Result<u64> {
        Ok(self.index_of(x, y, z)? * u64::from(self.elem_size_bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sw(w: u32, h: u32, d: u32) -> Swizzled {
        Swizzled::new(&SwizzledParams { gpu: Gpu::Nv40, address: 0, elem_size_bytes: 4, width: w, height: h, depth: d })
            .unwrap()
    }

    #[test]
    fn vectors() {
        // `docs/VECTORS.md`, "Pre-G80 swizzled surfaces".
        for (w, h, d, (x, y, z), want) in [
            (8, 4, 1, (3, 2, 0), 13),
            (4, 8, 1, (3, 2, 0), 13),
            (16, 4, 1, (13, 3, 0), 59),
            (2, 16, 1, (1, 9, 0), 19),
            (8, 8, 1, (5, 6, 0), 57),
            (32, 32, 1, (31, 31, 0), 1023),
            (4, 4, 4, (1, 2, 3), 53),
        ] {
            assert_eq!(sw(w, h, d).index_of(x, y, z).unwrap(), want, "{w}x{h}x{d} ({x},{y},{z})");
        }
        let s = sw(8, 4, 1);
        let row0: alloc::vec::Vec<u64> = (0..8).map(|x| s.index_of(x, 0, 0).unwrap()).collect();
        assert_eq!(row0, [0, 1, 4, 5, 16, 17, 20, 21]);
        let col0: alloc::vec::Vec<u64> = (0..4).map(|y| s.index_of(0, y, 0).unwrap()).collect();
        assert_eq!(col0, [0, 2, 8, 10]);
    }

    #[test]
    fn bad_input() {
        let p = SwizzledParams { gpu: Gpu::Nv40, address: 0, elem_size_bytes: 4, width: 12, height: 4, depth: 1 };
        assert!(matches!(Swizzled::new(&p), Err(Error::NotPowerOfTwo { field: "width", value: 12 })));
        assert!(matches!(
            Swizzled::new(&SwizzledParams { gpu: Gpu::G80, width: 8, ..p }),
            Err(Error::Unsupported { .. })
        ));
        assert!(matches!(
            Swizzled::new(&SwizzledParams { elem_size_bytes: 3, width: 8, ..p }),
            Err(Error::ElemSize { .. })
        ));
        assert!(matches!(
            Swizzled::new(&SwizzledParams { address: 32, width: 8, ..p }),
            Err(Error::NotMultiple { .. })
        ));
        let huge = SwizzledParams { width: 1 << 31, height: 1 << 31, depth: 1 << 31, elem_size_bytes: 16, ..p };
        assert!(matches!(Swizzled::new(&huge), Err(Error::Overflow { .. })));
    }
}
