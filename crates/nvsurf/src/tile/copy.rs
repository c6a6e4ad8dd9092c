//! The copy entry points: [`untile_with`] and [`tile_with`] into the caller's buffers, and
//! [`untile_to_buf`] and [`tile_to_buf`] into a new one, each with a [`CopyOptions`] value for
//! the knobs of one call (and dispatching to the parallel path when it asks for the pool).
//! The older names ([`untile`], [`tile`], the `_part`, `_parallel` and `_to_vec` forms) are
//! deprecated aliases of these with fixed options.

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
use crate::error::{Error, Result};
use crate::layout::Surface;
use alloc::vec::Vec;

/// [`untile_with`] with `CopyOptions::default()`.
#[deprecated(note = "use `tile::untile_with(.., &CopyOptions::default())`")]
pub fn untile(s: &Surface, tiled: &[u8], linear: &mut [u8], region: Region, lin: LinearLayout) -> Result<()> {
    untile_with(s, tiled, linear, region, lin, &CopyOptions::default())
}

/// [`tile_with`] with `CopyOptions::default()`.
#[deprecated(note = "use `tile::tile_with(.., &CopyOptions::default())`")]
pub fn tile(s: &Surface, linear: &[u8], tiled: &mut [u8], region: Region, lin: LinearLayout) -> Result<()> {
    tile_with(s, linear, tiled, region, lin, &CopyOptions::default())
}

/// Copies `region` of the tiled surface (`tiled` starts at the surface's address) into the
/// linear image `linear`, laid out as `lin` says, with the knobs of `opts` for this call only:
/// its threads, streaming threshold, vector limit, adaptive streaming and the job it is part
/// of ([`CopyOptions`]). No process-wide setting is read for a field `opts` sets, and none is
/// changed, so calls with different options may run at the same time. The bytes are the same
/// whatever the options.
///
/// A band of rows is a [`Region`] like any other: a picture streamed band by band is one call
/// per band, with [`CopyOptions::job_output_bytes`] set to the whole picture's bytes so that
/// streaming stores are chosen for the job, not the band.
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

/// Copies the linear image `linear` (laid out as `lin` says) into `region` of the tiled
/// surface, with the knobs of `opts` for this call only (see [`untile_with`]). Bytes of
/// `tiled` outside the region (including the padding of partial gobs and blocks) are left as
/// they were.
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

/// [`untile_with`] as one part of a larger job whose parts together write `job_output_bytes`
/// ([`CopyOptions::job_output_bytes`]).
#[deprecated(note = "use `tile::untile_with(.., &CopyOptions::default().job_output_bytes(n))`")]
pub fn untile_part(
    s: &Surface,
    tiled: &[u8],
    linear: &mut [u8],
    region: Region,
    lin: LinearLayout,
    job_output_bytes: u64,
) -> Result<()> {
    untile_with(s, tiled, linear, region, lin, &CopyOptions::default().job_output_bytes(job_output_bytes))
}

/// [`tile_with`] as one part of a larger job whose parts together write `job_output_bytes` of
/// tiled memory ([`CopyOptions::job_output_bytes`]).
#[deprecated(note = "use `tile::tile_with(.., &CopyOptions::default().job_output_bytes(n))`")]
pub fn tile_part(
    s: &Surface,
    linear: &[u8],
    tiled: &mut [u8],
    region: Region,
    lin: LinearLayout,
    job_output_bytes: u64,
) -> Result<()> {
    tile_with(s, linear, tiled, region, lin, &CopyOptions::default().job_output_bytes(job_output_bytes))
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
    let lin = LinearLayout::packed(&region, s.elem_size_bytes());
    // The plan checks the input before the output exists (any output length passes): a short
    // dump of a huge surface is an error, not an allocation of the whole surface.
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
    let lin = LinearLayout::packed(&region, s.elem_size_bytes());
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

/// [`untile_to_buf`] with `CopyOptions::default()`, as a `Vec` (moved to the front of the
/// same allocation: [`AlignedBuf::into_vec`]).
#[deprecated(note = "use `tile::untile_to_buf(s, tiled, &CopyOptions::default())`")]
pub fn untile_to_vec(s: &Surface, tiled: &[u8]) -> Result<Vec<u8>> {
    untile_to_buf(s, tiled, &CopyOptions::default()).map(AlignedBuf::into_vec)
}

/// [`tile_to_buf`] with `CopyOptions::default()`, as a `Vec`.
#[deprecated(note = "use `tile::tile_to_buf(s, linear, &CopyOptions::default())`")]
pub fn tile_to_vec(s: &Surface, linear: &[u8]) -> Result<Vec<u8>> {
    tile_to_buf(s, linear, &CopyOptions::default()).map(AlignedBuf::into_vec)
}

/// [`untile_with`] split over the current rayon pool ([`Threads::CurrentPool`]).
#[cfg(feature = "rayon")]
#[deprecated(note = "use `tile::untile_with(.., &CopyOptions::default().threads(Threads::CurrentPool))`")]
pub fn untile_parallel(s: &Surface, tiled: &[u8], linear: &mut [u8], region: Region, lin: LinearLayout) -> Result<()> {
    untile_with(s, tiled, linear, region, lin, &CopyOptions::default().threads(Threads::CurrentPool))
}

/// [`tile_with`] split over the current rayon pool ([`Threads::CurrentPool`]).
#[cfg(feature = "rayon")]
#[deprecated(note = "use `tile::tile_with(.., &CopyOptions::default().threads(Threads::CurrentPool))`")]
pub fn tile_parallel(s: &Surface, linear: &[u8], tiled: &mut [u8], region: Region, lin: LinearLayout) -> Result<()> {
    tile_with(s, linear, tiled, region, lin, &CopyOptions::default().threads(Threads::CurrentPool))
}

/// [`untile_with`] split over the current rayon pool, as one part of a job writing
/// `job_output_bytes`.
#[cfg(feature = "rayon")]
#[deprecated(
    note = "use `tile::untile_with(.., &CopyOptions::default().threads(Threads::CurrentPool).job_output_bytes(n))`"
)]
pub fn untile_part_parallel(
    s: &Surface,
    tiled: &[u8],
    linear: &mut [u8],
    region: Region,
    lin: LinearLayout,
    job_output_bytes: u64,
) -> Result<()> {
    let opts = CopyOptions::default().threads(Threads::CurrentPool).job_output_bytes(job_output_bytes);
    untile_with(s, tiled, linear, region, lin, &opts)
}

/// [`tile_with`] split over the current rayon pool, as one part of a job writing
/// `job_output_bytes`.
#[cfg(feature = "rayon")]
#[deprecated(
    note = "use `tile::tile_with(.., &CopyOptions::default().threads(Threads::CurrentPool).job_output_bytes(n))`"
)]
pub fn tile_part_parallel(
    s: &Surface,
    linear: &[u8],
    tiled: &mut [u8],
    region: Region,
    lin: LinearLayout,
    job_output_bytes: u64,
) -> Result<()> {
    let opts = CopyOptions::default().threads(Threads::CurrentPool).job_output_bytes(job_output_bytes);
    tile_with(s, linear, tiled, region, lin, &opts)
}
