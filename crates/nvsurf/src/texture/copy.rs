//! Whole textures between a raw dump and a packed linear file.
//!
//! The linear file holds every (level, layer) tightly packed (elements times element size, no
//! row or level padding), layer by layer and level by level: the order DDS files and the Switch
//! tools use. Each subresource is moved by the tiling engine ([`crate::tile`]) on the slice of
//! the dump that [`Subresource::offset_bytes`] and [`Subresource::size_bytes`] name; BUFFER
//! textures are copied as they are.
//!
//! The copies are [`Texture::untile_with`] / [`Texture::tile_with`] between the caller's buffers
//! (`_each_with` to be told after each subresource) and [`Texture::untile_to_buf`] /
//! [`Texture::tile_to_buf`] into a new buffer, each with a [`CopyOptions`] value; the older
//! names are deprecated aliases of these.
//!
//! With the `rayon` feature and [`Threads::CurrentPool`](crate::tile::Threads::CurrentPool),
//! `untile_with` and `tile_with` split the work by subresource (every level of every layer is a task of the current rayon pool, on its
//! own disjoint part of the dump and of the linear file), and each subresource large enough
//! is split again by the parallel tiling engine (block rows, bands, z slices). Their bytes
//! equal the single-thread copies'.

use super::level::Subresource;
use super::plan::Texture;
use crate::error::{Error, Result};
#[cfg(feature = "rayon")]
use crate::tile::Threads;
use crate::tile::{self, AlignedBuf, CopyOptions, LinearLayout, Region};

fn span(what: &'static str, off: u64, len: u64, have: usize) -> Result<core::ops::Range<usize>> {
    let end = off.checked_add(len).filter(|&e| e <= have as u64).ok_or(Error::BufferTooSmall {
        what,
        needed: off.saturating_add(len),
        got: have as u64,
    })?;
    // Both ends are at most `have`, a usize.
    Ok(off as usize..end as usize)
}

/// The part of a subresource's surface that holds its image: the whole surface, except for the
/// square swizzled levels of a non-square pre-G80 cube face (ERRATA E12), whose image is the
/// top `elements[1]` rows.
pub(crate) fn image_region(sub: &Subresource, s: &crate::layout::Surface) -> Region {
    let whole = Region::whole(s);
    match s {
        crate::layout::Surface::Swizzled(_) => {
            Region { w: sub.elements[0].min(whole.w), h: sub.elements[1].min(whole.h), ..whole }
        }
        _ => whole,
    }
}

/// `bytes` as a buffer length, or the overflow error naming `what`.
fn buf_len(what: &'static str, bytes: u64) -> Result<usize> {
    usize::try_from(bytes).map_err(|_| Error::Overflow { what, detail: alloc::format!("{bytes} bytes") })
}

/// The range of one subresource in the packed linear file.
fn linear_range(sub: &Subresource, linear_len: usize) -> Result<core::ops::Range<usize>> {
    span("linear texture", sub.linear_offset_bytes, sub.linear_size_bytes, linear_len)
}

/// Untiles one subresource from the whole dump into its own packed linear buffer
/// (`sub.linear_size_bytes` long).
pub fn untile_subresource(sub: &Subresource, dump: &[u8], linear: &mut [u8]) -> Result<()> {
    untile_subresource_in_job(sub, dump, linear, &CopyOptions::default().job_output_bytes(sub.linear_size_bytes))
}

/// [`untile_subresource`] as part of a copy writing `job_bytes` in all (streaming stores are
/// chosen for the whole job, see [`tile::untile_part`]).
fn untile_subresource_in_job(sub: &Subresource, dump: &[u8], linear: &mut [u8], opts: &CopyOptions) -> Result<()> {
    let d = span("texture dump", sub.offset_bytes, sub.size_bytes, dump.len())?;
    let l = span("linear level", 0, sub.linear_size_bytes, linear.len())?;
    match sub.surface {
        Some(s) => {
            let region = image_region(sub, &s);
            let lin = LinearLayout::packed(&region, s.elem_size_bytes());
            tile::untile_with(&s, &dump[d], &mut linear[l], region, lin, opts)
        }
        None => {
            let n = buffer_bytes(sub)?;
            linear[l].copy_from_slice(&dump[d][..n]);
            Ok(())
        }
    }
}

/// The bytes a subresource without a surface (a BUFFER texture) copies as they are: its
/// linear size, which must fit in its share of the dump (a hand-built [`Subresource`] may
/// claim more; that is an error, not a copy into the next subresource).
fn buffer_bytes(sub: &Subresource) -> Result<usize> {
    match sub.linear_size_bytes <= sub.size_bytes {
        // At most `size_bytes`, whose range in the dump was checked.
        true => Ok(sub.linear_size_bytes as usize),
        false => Err(Error::OutOfRange {
            field: "subresource linear_size_bytes",
            value: sub.linear_size_bytes,
            min: 0,
            max: sub.size_bytes,
        }),
    }
}

/// Tiles one subresource from its packed linear buffer into the whole dump.
pub fn tile_subresource(sub: &Subresource, linear: &[u8], dump: &mut [u8]) -> Result<()> {
    tile_subresource_in_job(sub, linear, dump, &CopyOptions::default().job_output_bytes(sub.size_bytes))
}

/// [`tile_subresource`] as part of a copy writing `job_bytes` of dump in all.
fn tile_subresource_in_job(sub: &Subresource, linear: &[u8], dump: &mut [u8], opts: &CopyOptions) -> Result<()> {
    let d = span("texture dump", sub.offset_bytes, sub.size_bytes, dump.len())?;
    let l = span("linear level", 0, sub.linear_size_bytes, linear.len())?;
    match sub.surface {
        Some(s) => {
            let region = image_region(sub, &s);
            let lin = LinearLayout::packed(&region, s.elem_size_bytes());
            tile::tile_with(&s, &linear[l], &mut dump[d], region, lin, opts)
        }
        None => {
            let n = buffer_bytes(sub)?;
            dump[d][..n].copy_from_slice(&linear[l]);
            Ok(())
        }
    }
}

impl Texture {
    /// [`Texture::untile_with`] with `CopyOptions::default()`.
    #[deprecated(note = "use `Texture::untile_with(dump, linear, &CopyOptions::default())`")]
    pub fn untile(&self, dump: &[u8], linear: &mut [u8]) -> Result<()> {
        self.untile_with(dump, linear, &CopyOptions::default())
    }

    /// [`Texture::untile_each_with`] with `CopyOptions::default()`.
    #[deprecated(note = "use `Texture::untile_each_with(dump, linear, &CopyOptions::default(), done)`")]
    pub fn untile_each(&self, dump: &[u8], linear: &mut [u8], done: impl FnMut(&Subresource)) -> Result<()> {
        self.untile_each_with(dump, linear, &CopyOptions::default(), done)
    }

    /// [`Texture::untile_with`], calling `done` after each subresource (for a progress bar), in
    /// the order of [`Texture::subresources`]; each subresource in turn, split over the current
    /// rayon pool when `opts.threads` says so (streaming is decided for the whole texture).
    pub fn untile_each_with(
        &self,
        dump: &[u8],
        linear: &mut [u8],
        opts: &CopyOptions,
        mut done: impl FnMut(&Subresource),
    ) -> Result<()> {
        self.check_dump(dump.len() as u64)?;
        let opts = opts.job_output_bytes(self.linear_size_bytes());
        for sub in self.subresources() {
            let l = linear_range(&sub, linear.len())?;
            untile_subresource_in_job(&sub, dump, &mut linear[l], &opts)?;
            done(&sub);
        }
        Ok(())
    }

    /// The front door: the whole texture untiled into a new line-aligned buffer (the packed
    /// linear texture, layer by layer, level by level: DDS order), with `opts` for this call.
    /// With `Threads::CurrentPool` the subresources are split over the current rayon pool.
    pub fn untile_to_buf(&self, dump: &[u8], opts: &CopyOptions) -> Result<AlignedBuf> {
        // The dump is checked before the output is allocated.
        self.check_dump(dump.len() as u64)?;
        if let Some(l) = opts.limits {
            l.check("linear texture size", self.linear_size_bytes())?;
        }
        let mut out = AlignedBuf::zeroed(buf_len("linear texture size", self.linear_size_bytes())?)?;
        self.untile_with(dump, &mut out, opts)?;
        Ok(out)
    }

    /// The front door's other direction: the packed linear texture tiled into a new,
    /// zero-filled line-aligned buffer of [`Texture::size_bytes`].
    pub fn tile_to_buf(&self, linear: &[u8], opts: &CopyOptions) -> Result<AlignedBuf> {
        if self.linear_size_bytes() > linear.len() as u64 {
            return Err(Error::BufferTooSmall {
                what: "linear texture",
                needed: self.linear_size_bytes(),
                got: linear.len() as u64,
            });
        }
        if let Some(l) = opts.limits {
            l.check("texture size", self.size_bytes())?;
        }
        let mut out = AlignedBuf::zeroed(buf_len("texture size", self.size_bytes())?)?;
        self.tile_with(linear, &mut out, opts)?;
        Ok(out)
    }

    /// Untiles the whole texture: `dump` (at least [`Texture::size_bytes`]) into `linear` (at
    /// least [`Texture::linear_size_bytes`]), layer by layer, level by level, with `opts` for
    /// this call. With [`Threads::CurrentPool`](crate::tile::Threads::CurrentPool) (feature
    /// `rayon`) every (level, layer) is a task of the current rayon pool, and large levels are
    /// split again; the bytes and errors are the same (the first one found).
    pub fn untile_with(&self, dump: &[u8], linear: &mut [u8], opts: &CopyOptions) -> Result<()> {
        #[cfg(feature = "rayon")]
        if opts.threads == Threads::CurrentPool {
            return self.untile_parallel_with(dump, linear, opts);
        }
        self.untile_each_with(dump, linear, opts, |_| {})
    }

    /// Tiles the whole texture from `linear` into `dump`, with `opts` for this call. Padding
    /// bytes of `dump` (between levels and layers, and inside partial gobs and blocks) are left
    /// as they were. With [`Threads::CurrentPool`](crate::tile::Threads::CurrentPool) a buffer
    /// too short for any subresource is reported before anything is written.
    pub fn tile_with(&self, linear: &[u8], dump: &mut [u8], opts: &CopyOptions) -> Result<()> {
        #[cfg(feature = "rayon")]
        if opts.threads == Threads::CurrentPool {
            return self.tile_parallel_with(linear, dump, opts);
        }
        self.tile_each_with(linear, dump, opts, |_| {})
    }

    /// [`Texture::tile_with`] with `CopyOptions::default()`.
    #[deprecated(note = "use `Texture::tile_with(linear, dump, &CopyOptions::default())`")]
    pub fn tile(&self, linear: &[u8], dump: &mut [u8]) -> Result<()> {
        self.tile_with(linear, dump, &CopyOptions::default())
    }

    /// [`Texture::tile_each_with`] with `CopyOptions::default()`.
    #[deprecated(note = "use `Texture::tile_each_with(linear, dump, &CopyOptions::default(), done)`")]
    pub fn tile_each(&self, linear: &[u8], dump: &mut [u8], done: impl FnMut(&Subresource)) -> Result<()> {
        self.tile_each_with(linear, dump, &CopyOptions::default(), done)
    }

    /// [`Texture::tile_with`], calling `done` after each subresource (see
    /// [`Texture::untile_each_with`]).
    pub fn tile_each_with(
        &self,
        linear: &[u8],
        dump: &mut [u8],
        opts: &CopyOptions,
        mut done: impl FnMut(&Subresource),
    ) -> Result<()> {
        self.check_dump(dump.len() as u64)?;
        let opts = opts.job_output_bytes(self.size_bytes());
        for sub in self.subresources() {
            let l = linear_range(&sub, linear.len())?;
            tile_subresource_in_job(&sub, &linear[l], dump, &opts)?;
            done(&sub);
        }
        Ok(())
    }

    /// [`Texture::untile_to_buf`] with `CopyOptions::default()`, as a `Vec`.
    #[deprecated(note = "use `Texture::untile_to_buf(dump, &CopyOptions::default())`")]
    pub fn untile_to_vec(&self, dump: &[u8]) -> Result<alloc::vec::Vec<u8>> {
        self.untile_to_buf(dump, &CopyOptions::default()).map(AlignedBuf::into_vec)
    }

    /// [`Texture::tile_to_buf`] with `CopyOptions::default()`, as a `Vec`.
    #[deprecated(note = "use `Texture::tile_to_buf(linear, &CopyOptions::default())`")]
    pub fn tile_to_vec(&self, linear: &[u8]) -> Result<alloc::vec::Vec<u8>> {
        self.tile_to_buf(linear, &CopyOptions::default()).map(AlignedBuf::into_vec)
    }
}

/// The parallel paths of [`Texture::untile_with`] and [`Texture::tile_with`] (feature `rayon`).
#[cfg(feature = "rayon")]
mod par {
    // The parent's items by their full path (`crate::texture::copy`), not `super::`: the
    // module-cycle check reads `super::` from a file as the file's parent module.
    use crate::error::{Error, Result};
    use crate::texture::copy::{buffer_bytes, image_region, linear_range, span, Subresource, Texture};
    use crate::tile::kernels::cut;
    use crate::tile::{self, CopyOptions, LinearLayout, Threads};
    use alloc::vec::Vec;
    use rayon::prelude::*;

    /// `opts` split over the current pool, as part of a job writing `job_bytes`.
    fn pooled(opts: &CopyOptions, job_bytes: u64) -> CopyOptions {
        opts.threads(Threads::CurrentPool).job_output_bytes(job_bytes)
    }

    fn untile_one(sub: &Subresource, tiled: &[u8], linear: &mut [u8], opts: &CopyOptions) -> Result<()> {
        match sub.surface {
            Some(s) => {
                let region = image_region(sub, &s);
                let lin = LinearLayout::packed(&region, s.elem_size_bytes());
                tile::untile_with(&s, tiled, linear, region, lin, opts)
            }
            None => {
                // `tiled` is the subresource's dump share, `linear` its linear bytes.
                let n = buffer_bytes(sub)?;
                linear.copy_from_slice(&tiled[..n]);
                Ok(())
            }
        }
    }

    fn tile_one(sub: &Subresource, linear: &[u8], tiled: &mut [u8], opts: &CopyOptions) -> Result<()> {
        match sub.surface {
            Some(s) => {
                let region = image_region(sub, &s);
                let lin = LinearLayout::packed(&region, s.elem_size_bytes());
                tile::tile_with(&s, linear, tiled, region, lin, opts)
            }
            None => {
                let n = buffer_bytes(sub)?;
                tiled[..n].copy_from_slice(linear);
                Ok(())
            }
        }
    }

    impl Texture {
        /// [`Texture::untile_with`] split over the current rayon pool.
        #[deprecated(
            note = "use `Texture::untile_with(dump, linear, &CopyOptions::default().threads(Threads::CurrentPool))`"
        )]
        pub fn untile_parallel(&self, dump: &[u8], linear: &mut [u8]) -> Result<()> {
            self.untile_with(dump, linear, &CopyOptions::default().threads(Threads::CurrentPool))
        }

        /// The parallel [`Texture::untile_with`], with the other knobs of `opts` for this call.
        pub(super) fn untile_parallel_with(&self, dump: &[u8], linear: &mut [u8], opts: &CopyOptions) -> Result<()> {
            self.check_dump(dump.len() as u64)?;
            let subs: Vec<Subresource> = self.subresources().collect();
            let mut lin_ranges = Vec::with_capacity(subs.len());
            let mut dump_ranges = Vec::with_capacity(subs.len());
            for sub in &subs {
                lin_ranges.push(linear_range(sub, linear.len())?);
                dump_ranges.push(span("texture dump", sub.offset_bytes, sub.size_bytes, dump.len())?);
            }
            // Streaming is decided from the whole texture's output (see `tile::untile_part`).
            let opts = pooled(opts, self.linear_size_bytes());
            // The packed linear file holds the subresources one after the other, in this order.
            let parts = cut(linear, &lin_ranges).ok_or_else(|| Error::Overflow {
                what: "linear texture",
                detail: "subresources overlap in the packed linear file".into(),
            })?;
            subs.par_iter()
                .zip(dump_ranges.into_par_iter())
                .zip(parts.into_par_iter())
                .try_for_each(|((sub, d), l)| untile_one(sub, &dump[d], l, &opts))
        }

        /// [`Texture::untile_each_with`] split over the current rayon pool.
        #[deprecated(
            note = "use `Texture::untile_each_with(dump, linear, &CopyOptions::default().threads(Threads::CurrentPool), done)`"
        )]
        pub fn untile_each_parallel(
            &self,
            dump: &[u8],
            linear: &mut [u8],
            done: impl FnMut(&Subresource),
        ) -> Result<()> {
            self.untile_each_with(dump, linear, &CopyOptions::default().threads(Threads::CurrentPool), done)
        }

        /// [`Texture::tile_each_with`] split over the current rayon pool.
        #[deprecated(
            note = "use `Texture::tile_each_with(linear, dump, &CopyOptions::default().threads(Threads::CurrentPool), done)`"
        )]
        pub fn tile_each_parallel(&self, linear: &[u8], dump: &mut [u8], done: impl FnMut(&Subresource)) -> Result<()> {
            self.tile_each_with(linear, dump, &CopyOptions::default().threads(Threads::CurrentPool), done)
        }

        /// [`Texture::tile_with`] split over the current rayon pool.
        #[deprecated(
            note = "use `Texture::tile_with(linear, dump, &CopyOptions::default().threads(Threads::CurrentPool))`"
        )]
        pub fn tile_parallel(&self, linear: &[u8], dump: &mut [u8]) -> Result<()> {
            self.tile_with(linear, dump, &CopyOptions::default().threads(Threads::CurrentPool))
        }

        /// The parallel [`Texture::tile_with`], with the other knobs of `opts` for this call.
        pub(super) fn tile_parallel_with(&self, linear: &[u8], dump: &mut [u8], opts: &CopyOptions) -> Result<()> {
            self.check_dump(dump.len() as u64)?;
            let mut subs: Vec<(Subresource, core::ops::Range<usize>)> = Vec::new();
            for sub in self.subresources() {
                let l = linear_range(&sub, linear.len())?;
                span("texture dump", sub.offset_bytes, sub.size_bytes, dump.len())?;
                subs.push((sub, l));
            }
            subs.sort_by_key(|(sub, _)| sub.offset_bytes);
            let dump_ranges: Vec<_> = subs
                .iter()
                .map(|(sub, _)| sub.offset_bytes as usize..(sub.offset_bytes + sub.size_bytes) as usize)
                .collect();
            let pooled_opts = pooled(opts, self.size_bytes());
            match cut(dump, &dump_ranges) {
                Some(parts) => subs
                    .par_iter()
                    .zip(parts.into_par_iter())
                    .try_for_each(|((sub, l), t)| tile_one(sub, &linear[l.clone()], t, &pooled_opts)),
                None => self.tile_each_with(linear, dump, opts, |_| {}),
            }
        }
    }

    #[cfg(test)]
    #[allow(clippy::single_range_in_vec_init)]
    mod tests {
        use super::cut;

        #[test]
        fn cut_gives_disjoint_parts_or_none() {
            let mut buf: alloc::vec::Vec<u8> = (0..10).collect();
            // Ascending, with gaps, touching and empty ranges.
            let parts = cut(&mut buf, &[1..3, 3..3, 3..5, 8..10]).unwrap();
            let got: alloc::vec::Vec<&[u8]> = parts.iter().map(|p| &p[..]).collect();
            assert_eq!(got, [&[1u8, 2][..], &[], &[3, 4], &[8, 9]]);
            assert_eq!(cut(&mut buf, &[]).unwrap().len(), 0);
            // Overlapping, out of order, reversed and out-of-bounds ranges: None, no panic.
            assert!(cut(&mut buf, &[0..4, 3..6]).is_none());
            assert!(cut(&mut buf, &[5..6, 1..2]).is_none());
            #[allow(clippy::reversed_empty_ranges)]
            let reversed = [4..2];
            assert!(cut(&mut buf, &reversed).is_none());
            assert!(cut(&mut buf, &[8..11]).is_none());
            assert!(cut(&mut buf, &[11..12]).is_none());
            assert!(cut(&mut [], &[0..1]).is_none());
        }

        /// The textures the model builds never share dump bytes between subresources, so
        /// `tile_parallel` always takes its parallel path (never the sequential fallback).
        #[test]
        fn model_textures_cut_into_disjoint_subresources() {
            use crate::texture::{max_levels, LevelPlacement, TextureDesc, TextureType};
            use crate::Gpu;
            let mut descs = alloc::vec::Vec::new();
            for (gpu, ty, size) in [
                (Gpu::Gf100, TextureType::Cube, [64, 64, 1]),
                (Gpu::G80, TextureType::D3, [33, 17, 9]),
                (Gpu::Nv40, TextureType::Cube, [32, 32, 1]),
                (Gpu::Gf100, TextureType::D2Array, [100, 37, 1]),
            ] {
                let mut d = TextureDesc::new(gpu, ty, 4, size);
                d.levels = max_levels(size);
                if ty == TextureType::D2Array {
                    d.layers = 3;
                    d.placement = LevelPlacement::AlignEach(4096);
                }
                descs.push(d);
            }
            for d in descs {
                let t = d.build().unwrap();
                let mut ranges: alloc::vec::Vec<_> = t
                    .subresources()
                    .map(|s| s.offset_bytes as usize..(s.offset_bytes + s.size_bytes) as usize)
                    .collect();
                ranges.sort_by_key(|r| r.start);
                let mut dump = alloc::vec![0u8; t.size_bytes() as usize];
                assert!(cut(&mut dump, &ranges).is_some(), "{:?} {:?}", d.gpu, d.ty);
            }
        }
    }
}
