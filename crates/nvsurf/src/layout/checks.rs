//! Checks shared by the three layouts: element size, dimensions, base address and coordinates.

use crate::error::{Error, Result, ADDRESS_SPACE_BYTES};
use crate::gpu::Gpu;

/// Element sizes: 1, 2, 4, 8, 16 bytes, and 12 on GF100+ (the 32_32_32 format).
#[inline]
pub(crate) fn check_elem_size(gpu: Gpu, elem_size_bytes: u32) -> Result<()> {
    match elem_size_bytes {
        1 | 2 | 4 | 8 | 16 => Ok(()),
        12 if gpu.allows_12_byte_elements() => Ok(()),
        12 => Err(Error::ElemSize { value: 12, rule: "12-byte elements (32_32_32) exist on GF100 and later only" }),
        v => Err(Error::ElemSize { value: v.into(), rule: "must be 1, 2, 4, 8 or 16 bytes (12 on GF100+)" }),
    }
}

/// A dimension must be at least 1.
#[inline]
pub(crate) fn check_dim(field: &'static str, v: u32) -> Result<()> {
    if v == 0 {
        Err(Error::OutOfRange { field, value: 0, min: 1, max: u32::MAX.into() })
    } else {
        Ok(())
    }
}

/// The address must be inside the 40-bit space and a multiple of `align`.
#[inline]
pub(crate) fn check_address(address: u64, align: u64) -> Result<()> {
    if address >= ADDRESS_SPACE_BYTES {
        return Err(Error::OutOfRange { field: "address", value: address, min: 0, max: ADDRESS_SPACE_BYTES - 1 });
    }
    if !address.is_multiple_of(align) {
        return Err(Error::NotMultiple { field: "address", value: address, multiple: align });
    }
    Ok(())
}

/// Each coordinate must be below its limit.
#[inline]
pub(crate) fn check_coords(c: [u32; 3], limit: [u32; 3]) -> Result<()> {
    for (i, field) in ["x", "y", "z"].into_iter().enumerate() {
        if c[i] >= limit[i] {
            return Err(Error::OutOfBounds { field, value: c[i].into(), limit: limit[i].into() });
        }
    }
    Ok(())
}
