//! The single-thread copy entry points: [`untile`] and [`tile`] over a region, their `_part`
//! twins for one part of a larger job, and the allocating `_to_vec` conveniences. Each builds
//! a [`Plan`], picks streamed or cached stores, and runs the raw kernels.

use super::dispatch::run_single;
use super::kernels::{tile_streamed, untile_streamed};
use super::plan::Plan;
use super::region::{LinearLayout, Region};
use super::streaming::streaming_threshold_bytes;
use crate::error::{zeroed, Result};
use crate::layout::Surface;
use alloc::vec::Vec;

/// Copies `region` of the tiled surface (`tiled` starts at the surface's address) into the
/// linear image `linear`.
pub fn untile(s: &Surface, tiled: &[u8], linear: &mut [u8], region: Region, lin: LinearLayout) -> Result<()> {
    untile_job(s, tiled, linear, region, lin, None)
}

/// Copies the linear image `linear` into `region` of the tiled surface. Bytes of `tiled` outside
/// the region (including the padding of partial gobs and blocks) are left as they were.
pub fn tile(s: &Surface, linear: &[u8], tiled: &mut [u8], region: Region, lin: LinearLayout) -> Result<()> {
    tile_job(s, linear, tiled, region, lin, None)
}

/// [`untile`] as one part of a larger job whose parts together write `job_output_bytes`
/// (for example every level and layer of a texture): whether the output is written with
/// streaming stores is decided from the job's size against [`streaming_threshold_bytes`],
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
    untile_job(s, tiled, linear, region, lin, Some(job_output_bytes))
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
    tile_job(s, linear, tiled, region, lin, Some(job_output_bytes))
}

/// [`untile`] and [`untile_part`]: streaming is decided from `job` bytes, or from the plan's
/// own output when `None`.
fn untile_job(
    s: &Surface,
    tiled: &[u8],
    linear: &mut [u8],
    region: Region,
    lin: LinearLayout,
    job: Option<u64>,
) -> Result<()> {
    let plan = Plan::new(s, region, lin, tiled.len(), linear.len())?;
    let whole = job.is_none();
    let job = job.unwrap_or(plan.linear_span as u64);
    let stream = plan.stream_linear_job(job, streaming_threshold_bytes());
    run_single(&plan, false, whole, stream, true, |stream| untile_streamed(&plan, tiled, linear, stream));
    Ok(())
}

/// [`tile`] and [`tile_part`] (see [`untile_job`]).
fn tile_job(
    s: &Surface,
    linear: &[u8],
    tiled: &mut [u8],
    region: Region,
    lin: LinearLayout,
    job: Option<u64>,
) -> Result<()> {
    let plan = Plan::new(s, region, lin, tiled.len(), linear.len())?;
    let whole = job.is_none();
    let job = job.unwrap_or(plan.tiled_span as u64);
    let stream = plan.stream_tiled_job(tiled, job, streaming_threshold_bytes());
    let can_stream = plan.stream_tiled_job(tiled, job, 1);
    run_single(&plan, true, whole, stream, can_stream, |stream| tile_streamed(&plan, linear, tiled, stream));
    Ok(())
}

/// Untiles the whole surface into a new, tightly packed linear image.
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
/// (padding zero-filled).
pub fn tile_to_vec(s: &Surface, linear: &[u8]) -> Result<Vec<u8>> {
    let region = Region::whole(s);
    let lin = LinearLayout::packed(&region, s.elem_size());
    // As in `untile_to_vec`: the input is checked first.
    Plan::new(s, region, lin, usize::MAX, linear.len())?;
    let mut out = zeroed("surface size", s.size_bytes())?;
    tile(s, linear, &mut out, region, lin)?;
    Ok(out)
}
