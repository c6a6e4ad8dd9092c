//! The single-thread copy entry points and the front door: [`untile_with`] and [`tile_with`]
//! take a [`CopyOptions`] value for the knobs of one call (and dispatch to the parallel path
//! when it asks for the pool); [`untile`] and [`tile`], their `_part` twins and the
//! allocating [`untile_to_buf`] / `_to_vec` conveniences are the same calls with fixed options.

use super::buf::AlignedBuf;
use super::dispatch::run_single;
use super::kernels::{tile_streamed, untile_streamed};
use super::options::CopyOptions;
#[cfg(feature = "rayon")]
use super::options::Threads;
#[cfg(feature = "rayon")]
use super::parallel::{tile_parallel_job, untile_parallel_job};
use super::plan::Plan;
use super::region::{LinearLayout, Region};
use crate::error::{zeroed, Error, Result};
use crate::layout::Surface;
use alloc::vec::Vec;

/// Copies `region` of the tiled surface (`tiled` starts at the surface's address) into the
/// linear image `linear`.
/// The same as [`untile_with`] with `CopyOptions::default()`.
pub fn untile(s: &Surface, tiled: &[u8], linear: &mut [u8], region: Region, lin: LinearLayout) -> Result<()> {
    untile_job(s, tiled, linear, region, lin, &CopyOptions::default())
}

/// Copies the linear image `linear` into `region` of the tiled surface. Bytes of `tiled` outside
/// the region (including the padding of partial gobs and blocks) are left as they were.
/// The same as [`tile_with`] with `CopyOptions::default()`.
pub fn tile(s: &Surface, linear: &[u8], tiled: &mut [u8], region: Region, lin: LinearLayout) -> Result<()> {
    tile_job(s, linear, tiled, region, lin, &CopyOptions::default())
}

/// [`untile`] with the knobs of `opts` for this call only: its threads, streaming threshold,
/// vector limit, adaptive streaming and the job it is part of ([`CopyOptions`]). No
/// process-wide setting is read for a field `opts` sets, and none is changed, so calls with
/// different options may run at the same time. The bytes are [`untile`]'s whatever the options.
pub fn untile_with(
    s: &Surface,
    tiled: &[u8],
    linear: &mut [u8],
    region: Region,
    lin: LinearLayout,
    opts: &CopyOptions,
) -> Result<()> {
    #[cfg(feature = "rayon")]
    if opts.threads == Threads::CurrentPool {
        return untile_parallel_job(s, tiled, linear, region, lin, opts);
    }
    untile_job(s, tiled, linear, region, lin, opts)
}

/// [`tile`] with the knobs of `opts` for this call only (see [`untile_with`]).
pub fn tile_with(
    s: &Surface,
    linear: &[u8],
    tiled: &mut [u8],
    region: Region,
    lin: LinearLayout,
    opts: &CopyOptions,
) -> Result<()> {
    #[cfg(feature = "rayon")]
    if opts.threads == Threads::CurrentPool {
        return tile_parallel_job(s, linear, tiled, region, lin, opts);
    }
    tile_job(s, linear, tiled, region, lin, opts)
}

/// [`untile`] as one part of a larger job whose parts together write `job_output_bytes`
/// (for example every level and layer of a texture): whether the output is written with
/// streaming stores is decided from the job's size against the streaming threshold,
/// not from this part's. A job too large for the caches then streams its small parts too
/// (mip levels of 1 MiB and less would otherwise read every output line from memory before
/// writing it). The bytes are [`untile`]'s whatever the choice.
pub fn untile_part(
    s: &Surface,
    tiled: &[u8],
    linear: &mut [u8],
    region: Region,
    lin: LinearLayout,
    job_output_bytes: u64,
) -> Result<()> {
    untile_job(s, tiled, linear, region, lin, &CopyOptions::default().job_output_bytes(job_output_bytes))
}

/// [`tile`] as one part of a larger job whose parts together write `job_output_bytes` of
/// tiled memory: streaming is decided from the job's size, as in [`untile_part`].
pub fn tile_part(
    s: &Surface,
    linear: &[u8],
    tiled: &mut [u8],
    region: Region,
    lin: LinearLayout,
    job_output_bytes: u64,
) -> Result<()> {
    tile_job(s, linear, tiled, region, lin, &CopyOptions::default().job_output_bytes(job_output_bytes))
}

/// The single-thread untile: streaming is decided from the job's bytes
/// ([`CopyOptions::job_output_bytes`]), or from the plan's own output when `None`.
fn untile_job(
    s: &Surface,
    tiled: &[u8],
    linear: &mut [u8],
    region: Region,
    lin: LinearLayout,
    opts: &CopyOptions,
) -> Result<()> {
    let plan = Plan::with_options(s, region, lin, tiled.len(), linear.len(), opts)?;
    let whole = opts.job_output_bytes.is_none();
    let job = opts.job_output_bytes.unwrap_or(plan.linear_span as u64);
    let stream = plan.stream_linear_job(job, plan.knobs.threshold_bytes);
    run_single(&plan, false, whole, stream, true, |stream| untile_streamed(&plan, tiled, linear, stream));
    Ok(())
}

/// The single-thread tile (see [`untile_job`]).
fn tile_job(
    s: &Surface,
    linear: &[u8],
    tiled: &mut [u8],
    region: Region,
    lin: LinearLayout,
    opts: &CopyOptions,
) -> Result<()> {
    let plan = Plan::with_options(s, region, lin, tiled.len(), linear.len(), opts)?;
    let whole = opts.job_output_bytes.is_none();
    let job = opts.job_output_bytes.unwrap_or(plan.tiled_span as u64);
    let stream = plan.stream_tiled_job(tiled, job, plan.knobs.threshold_bytes);
    let can_stream = plan.stream_tiled_job(tiled, job, 1);
    run_single(&plan, true, whole, stream, can_stream, |stream| tile_streamed(&plan, linear, tiled, stream));
    Ok(())
}

/// Untiles the whole surface into a new, tightly packed, line-aligned linear image, with the
/// knobs of `opts`: the one-call front door. The buffer's start is on a 64-byte line, so the
/// vector kernels and streaming stores can take it.
pub fn untile_to_buf(s: &Surface, tiled: &[u8], opts: &CopyOptions) -> Result<AlignedBuf> {
    let region = Region::whole(s);
    let lin = LinearLayout::packed(&region, s.elem_size());
    // The input is checked before the output exists, as in `untile_to_vec`.
    let plan = Plan::new(s, region, lin, tiled.len(), usize::MAX)?;
    if let Some(l) = opts.limits {
        l.check("linear image size", plan.linear_span as u64)?;
    }
    let mut out = AlignedBuf::zeroed(plan.linear_span)?;
    untile_with(s, tiled, &mut out, region, lin, opts)?;
    Ok(out)
}

/// Tiles a tightly packed linear image of the whole surface into a new, line-aligned buffer of
/// `size_bytes` (padding zero-filled), with the knobs of `opts`.
pub fn tile_to_buf(s: &Surface, linear: &[u8], opts: &CopyOptions) -> Result<AlignedBuf> {
    let region = Region::whole(s);
    let lin = LinearLayout::packed(&region, s.elem_size());
    Plan::new(s, region, lin, usize::MAX, linear.len())?;
    let size = usize::try_from(s.size_bytes())
        .map_err(|_| Error::Overflow { what: "surface size", detail: alloc::format!("{} bytes", s.size_bytes()) })?;
    if let Some(l) = opts.limits {
        l.check("surface size", s.size_bytes())?;
    }
    let mut out = AlignedBuf::zeroed(size)?;
    tile_with(s, linear, &mut out, region, lin, opts)?;
    Ok(out)
}

/// Untiles the whole surface into a new, tightly packed linear image. Its start is wherever the
/// allocator put it: [`untile_to_buf`] returns a line-aligned one, which the fastest kernels
/// need.
pub fn untile_to_vec(s: &Surface, tiled: &[u8]) -> Result<Vec<u8>> {
    let region = Region::whole(s);
    let lin = LinearLayout::packed(&region, s.elem_size());
    // The plan checks the input before the output exists (any output length passes): a short
    // dump of a huge surface is an error, not an allocation of the whole surface.
    let plan = Plan::new(s, region, lin, tiled.len(), usize::MAX)?;
    let mut out = zeroed("linear image size", plan.linear_span as u64)?;
    untile(s, tiled, &mut out, region, lin)?;
    Ok(out)
}

/// Tiles a tightly packed linear image of the whole surface into a new buffer of `size_bytes`
/// (padding zero-filled; see [`tile_to_buf`] for a line-aligned one).
pub fn tile_to_vec(s: &Surface, linear: &[u8]) -> Result<Vec<u8>> {
    let region = Region::whole(s);
    let lin = LinearLayout::packed(&region, s.elem_size());
    // As in `untile_to_vec`: the input is checked first.
    Plan::new(s, region, lin, usize::MAX, linear.len())?;
    let mut out = zeroed("surface size", s.size_bytes())?;
    tile(s, linear, &mut out, region, lin)?;
    Ok(out)
}
