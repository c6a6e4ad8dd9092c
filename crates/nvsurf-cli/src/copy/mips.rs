//! `tile --texture --subresource L,LAYER --generate-mips`: level L of LAYER is tiled as usual,
//! read back from the tiled bytes (so `--box` and `--onto` count), and the levels below it of
//! that layer are rebuilt from it ([`MipPlan`]); the dump is patched once, over the span of
//! those levels (from zeros, `--onto`, or in place), and nothing else of the texture changes.

use super::job::{Job, SurfaceJob};
use super::mip_plan::MipPlan;
use crate::io::{inplace, patch_onto, write_sparse, LineAligned};
use crate::picture::texels::decode_texels;
use nvsurf::tile::{self, LinearLayout, Region};
use nvsurf::tile::{CopyOptions, Threads};

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// `tile --subresource L,LAYER --generate-mips`: patches the span of levels L and below of
/// LAYER in the output (from zeros, --onto, or in place), `fill` tiling level L into its
/// bytes first; the lower levels are then built from level L as tiled.
pub fn patch_subresource(job: &Job, sj: &SurfaceJob, fill: impl FnOnce(&mut [u8]) -> Res<()>) -> Res<()> {
    job.mips.as_ref().ok_or("no --generate-mips")?.patch(job, sj, fill)
}

impl MipPlan {
    /// See [`patch_subresource`].
    fn patch(&self, job: &Job, sj: &SurfaceJob, fill: impl FnOnce(&mut [u8]) -> Res<()>) -> Res<()> {
        let layer = self.layer.ok_or("--generate-mips with --subresource has a layer")?;
        let t = &self.texture;
        // The span of the rebuilt levels, in the file: min start to max end (explicit level
        // offsets may reorder levels; any other bytes inside are kept as they are).
        let mut start = u64::MAX;
        let mut end = 0u64;
        for level in self.from_level..t.level_count() {
            let sub = t.subresource(level, layer)?;
            start = start.min(sub.offset_bytes);
            end = end.max(sub.offset_bytes.checked_add(sub.size_bytes).ok_or("level end overflows")?);
        }
        let at = |n: u64| -> Res<usize> {
            job.offset
                .checked_add(n)
                .and_then(|v| usize::try_from(v).ok())
                .ok_or_else(|| format!("--offset {} + {n} overflows", job.offset).into())
        };
        let (start, end) = (at(start)?, at(end)?);
        // Level L's place inside the span.
        let l0 = sj.offset.checked_sub(start).ok_or("the source level lies before its span")?;
        let l_len = sj.end - sj.offset;
        let build = |buf: &mut [u8]| -> Res<()> {
            fill(part_mut(buf, l0, l_len as u64)?)?;
            self.rebuild_tiled(job, layer, &sj.surface, start, buf)
        };
        match job.onto {
            Some(base) if job.in_place => inplace::patch_in_place(base, start, end - start, build)?,
            Some(base) => patch_onto(base, &job.tiled, start, end - start, build)?,
            None => {
                let mut out = LineAligned::zeroed("tiled output", end - start)?;
                build(&mut out)?;
                write_sparse(&job.tiled, sj.file_bytes.max(end) as u64, start as u64, &out)?;
            }
        }
        Ok(())
    }

    /// Reads level L back from `span` (the file's bytes from `span_at`) and tiles the levels
    /// built from it into their places in `span`.
    fn rebuild_tiled(
        &self,
        job: &Job,
        layer: u32,
        s: &nvsurf::layout::Surface,
        span_at: usize,
        span: &mut [u8],
    ) -> Res<()> {
        let t = &self.texture;
        let place = |level: u32| -> Res<(nvsurf::layout::Surface, usize)> {
            let sub = t.subresource(level, layer)?;
            let surface = sub.surface.ok_or("a BUFFER texture has no mip levels")?;
            let at = usize::try_from(job.offset.checked_add(sub.offset_bytes).ok_or("offset overflows")?)?;
            Ok((surface, at.checked_sub(span_at).ok_or("a level lies before the patched span")?))
        };
        let (_, at) = place(self.from_level)?;
        let region = Region::whole(s);
        let lin = LinearLayout::packed(&region, s.elem_size_bytes());
        let lin_bytes = usize::try_from(lin.image_bytes(&region).ok_or("source level size overflows")?)?;
        let mut out = LineAligned::zeroed("source level", lin_bytes)?;
        let tiled = part(span, at, s.size_bytes())?;
        job.install(|| match job.pool {
            None => tile::untile_with(s, tiled, &mut out, region, lin, &CopyOptions::default()),
            Some(_) => tile::untile_with(
                s,
                tiled,
                &mut out,
                region,
                lin,
                &CopyOptions::default().threads(Threads::CurrentPool),
            ),
        })?;
        let mut texels = decode_texels(&self.format, self.extent(self.from_level)?, &out)?;
        drop(out);
        for level in self.from_level + 1..t.level_count() {
            let (bytes, next) = self.next_level(&texels, level, layer)?;
            let (ls, at) = place(level)?;
            let r = Region::whole(&ls);
            let l = LinearLayout::packed(&r, ls.elem_size_bytes());
            let dst = part_mut(span, at, ls.size_bytes())?;
            job.install(|| match job.pool {
                None => tile::tile_with(&ls, &bytes, dst, r, l, &CopyOptions::default()),
                Some(_) => {
                    tile::tile_with(&ls, &bytes, dst, r, l, &CopyOptions::default().threads(Threads::CurrentPool))
                }
            })?;
            texels = next;
        }
        Ok(())
    }
}

/// `n` bytes of the patched span from `at`, or an error naming the span.
fn part(span: &[u8], at: usize, n: u64) -> Res<&[u8]> {
    let len = span.len();
    usize::try_from(n)
        .ok()
        .and_then(|n| at.checked_add(n))
        .and_then(|end| span.get(at..end))
        .ok_or_else(|| format!("level bytes {at}+{n} lie outside the patched span of {len} bytes").into())
}

fn part_mut(span: &mut [u8], at: usize, n: u64) -> Res<&mut [u8]> {
    let len = span.len();
    usize::try_from(n)
        .ok()
        .and_then(|n| at.checked_add(n))
        .and_then(|end| span.get_mut(at..end))
        .ok_or_else(|| format!("level bytes {at}+{n} lie outside the patched span of {len} bytes").into())
}
