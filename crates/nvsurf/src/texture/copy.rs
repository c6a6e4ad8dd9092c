//! Whole textures between a raw dump and a packed linear file.
//!
//! The linear file holds every (level, layer) tightly packed (elements times element size, no
//! row or level padding), layer by layer and level by level: the order DDS files and the Switch
//! tools use. Each subresource is moved by the tiling engine ([`crate::tile`]) on the slice of
//! the dump that [`Subresource::offset_bytes`] and [`Subresource::size_bytes`] name; BUFFER
//! textures are copied as they are.

use super::{Subresource, Texture};
use crate::error::{Error, Result};
use crate::tile::{self, LinearLayout, Region};

fn span(what: &'static str, off: u64, len: u64, have: usize) -> Result<core::ops::Range<usize>> {
    let end = off.checked_add(len).filter(|&e| e <= have as u64).ok_or(Error::BufferTooSmall {
        what,
        needed: off.saturating_add(len),
        got: have as u64,
    })?;
    // Both ends are at most `have`, a usize.
    Ok(off as usize..end as usize)
}

/// The range of one subresource in the packed linear file.
fn linear_range(sub: &Subresource, linear_len: usize) -> Result<core::ops::Range<usize>> {
    span("linear texture", sub.linear_offset_bytes, sub.linear_size_bytes, linear_len)
}

/// Untiles one subresource from the whole dump into its own packed linear buffer
/// (`sub.linear_size_bytes` long).
pub fn untile_subresource(sub: &Subresource, dump: &[u8], linear: &mut [u8]) -> Result<()> {
    let d = span("texture dump", sub.offset_bytes, sub.size_bytes, dump.len())?;
    let l = span("linear level", 0, sub.linear_size_bytes, linear.len())?;
    match sub.surface {
        Some(s) => {
            let region = Region::whole(&s);
            tile::untile(&s, &dump[d], &mut linear[l], region, LinearLayout::packed(&region, s.elem_size()))
        }
        None => {
            linear[l].copy_from_slice(&dump[d][..sub.linear_size_bytes as usize]);
            Ok(())
        }
    }
}

/// Tiles one subresource from its packed linear buffer into the whole dump.
pub fn tile_subresource(sub: &Subresource, linear: &[u8], dump: &mut [u8]) -> Result<()> {
    let d = span("texture dump", sub.offset_bytes, sub.size_bytes, dump.len())?;
    let l = span("linear level", 0, sub.linear_size_bytes, linear.len())?;
    match sub.surface {
        Some(s) => {
            let region = Region::whole(&s);
            tile::tile(&s, &linear[l], &mut dump[d], region, LinearLayout::packed(&region, s.elem_size()))
        }
        None => {
            let n = sub.linear_size_bytes as usize;
            dump[d][..n].copy_from_slice(&linear[l]);
            Ok(())
        }
    }
}

impl Texture {
    /// Untiles the whole texture: `dump` (at least [`Texture::size_bytes`]) into `linear` (at
    /// least [`Texture::linear_size_bytes`]), layer by layer, level by level.
    pub fn untile(&self, dump: &[u8], linear: &mut [u8]) -> Result<()> {
        self.check_dump(dump.len() as u64)?;
        for sub in self.subresources() {
            let l = linear_range(&sub, linear.len())?;
            untile_subresource(&sub, dump, &mut linear[l])?;
        }
        Ok(())
    }

    /// Tiles the whole texture from `linear` into `dump`. Padding bytes of `dump` (between
    /// levels and layers, and inside partial gobs and blocks) are left as they were.
    pub fn tile(&self, linear: &[u8], dump: &mut [u8]) -> Result<()> {
        self.check_dump(dump.len() as u64)?;
        for sub in self.subresources() {
            let l = linear_range(&sub, linear.len())?;
            tile_subresource(&sub, &linear[l], dump)?;
        }
        Ok(())
    }

    /// [`Texture::untile`] into a new buffer.
    pub fn untile_to_vec(&self, dump: &[u8]) -> Result<alloc::vec::Vec<u8>> {
        let mut out = alloc::vec![0u8; usize::try_from(self.linear_size_bytes()).map_err(|_| overflow())?];
        self.untile(dump, &mut out)?;
        Ok(out)
    }

    /// [`Texture::tile`] into a new, zero-filled buffer of [`Texture::size_bytes`].
    pub fn tile_to_vec(&self, linear: &[u8]) -> Result<alloc::vec::Vec<u8>> {
        let mut out = alloc::vec![0u8; usize::try_from(self.size_bytes()).map_err(|_| overflow())?];
        self.tile(linear, &mut out)?;
        Ok(out)
    }
}

fn overflow() -> Error {
    Error::Overflow { what: "texture size", detail: "does not fit in usize".into() }
}
