//! The palette of the pre-G80 INDEX8 (P8) textures: 256 A8R8G8B8 entries, each a 32-bit
//! little-endian word as the GPU stores it (bytes B, G, R, A), 1024 bytes in all. An INDEX8
//! element is an index into it (envytools `rnndb/graph/nv_3ddefs.xml`, `nv10_tex_format`
//! INDEX8; the entry format is the A8R8G8B8 texture format's, `nv30-40_3d.xml` has the
//! per-unit `TEX_PALETTE_OFFSET`).
//!
//! Encoding (pixels to indices) is not offered: it needs a palette search, and a lossy one
//! whenever a picture has colours the palette lacks.

use crate::error::{zeroed, Error, Result};
use alloc::vec::Vec;

/// Bytes of a palette: 256 entries of 4 bytes.
pub const PALETTE_BYTES: usize = 1024;

/// 256 A8R8G8B8 entries, in memory order (each entry's bytes are B, G, R, A).
#[derive(Clone, PartialEq, Eq)]
pub struct Palette {
    entries: [[u8; 4]; 256],
}

impl core::fmt::Debug for Palette {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Palette(256 entries, first {:02x?})", self.entries[0])
    }
}

impl Palette {
    /// A palette from its 1024 bytes; any other length is an error naming it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Palette> {
        if bytes.len() != PALETTE_BYTES {
            return Err(Error::Unsupported {
                field: "palette",
                value: alloc::format!("{} bytes", bytes.len()),
                rule: "a palette is 256 A8R8G8B8 entries, 1024 bytes".into(),
            });
        }
        let mut entries = [[0u8; 4]; 256];
        for (e, b) in entries.iter_mut().zip(bytes.chunks_exact(4)) {
            e.copy_from_slice(b);
        }
        Ok(Palette { entries })
    }

    /// The entry for `index`: its 4 bytes in memory order (B, G, R, A).
    pub fn entry(&self, index: u8) -> [u8; 4] {
        self.entries[usize::from(index)]
    }

    /// The A8R8G8B8 elements (4 bytes each, B, G, R, A) of a run of INDEX8 elements.
    pub fn expand(&self, indices: &[u8]) -> Result<Vec<u8>> {
        let n = (indices.len() as u64).checked_mul(4).ok_or_else(|| Error::Overflow {
            what: "palette expansion",
            detail: alloc::format!("{} indices x 4 bytes", indices.len()),
        })?;
        let mut out = zeroed("palette expansion", n)?;
        for (o, &i) in out.chunks_exact_mut(4).zip(indices) {
            o.copy_from_slice(&self.entries[usize::from(i)]);
        }
        Ok(out)
    }
}
