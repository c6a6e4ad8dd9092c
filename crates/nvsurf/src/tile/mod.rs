//! Moving bytes between linear images and any layout.
//!
//! The front door: [`untile_to_buf`] / [`tile_to_buf`] for a whole surface into a new
//! line-aligned [`AlignedBuf`], and [`untile_with`] / [`tile_with`] for any [`Region`] (box)
//! with an explicit [`LinearLayout`] into the caller's buffers. Each takes a [`CopyOptions`]
//! value for the knobs of that call (threads, streaming threshold, vector limit, adaptive
//! streaming, the job a part or band belongs to). Every option and every path gives the same
//! bytes. A picture streamed band by band is one [`untile_with`] / [`tile_with`] per band of
//! rows (a [`Region`] of the band), with [`CopyOptions::job_output_bytes`] naming the whole job.
//!
//! - Sizes and bounds are checked up front; nothing outside the surface's `size_bytes` of the
//!   tiled buffer or the region's span of the linear buffer is touched, and the copies never
//!   allocate.
//! - With the `rayon` feature, [`Threads::CurrentPool`] splits the work over the current rayon pool into tasks that own disjoint
//!   parts of the output; the bytes equal the single-thread path's.
//! - Blocklinear copies move whole gob rows (vector kernels on x86_64), pitch copies whole
//!   rows, swizzled surfaces go by 4096-element chunks; any element size works, as bytes.
//! - Large outputs are written with streaming stores (from 7/32 of the level-3 cache; a part of
//!   a larger job decides from the job's size), and with `std` whole blocklinear copies from
//!   2 MiB up to the level-3 cache's size choose from their own timings (module `adapt`).
//! - [`window()`]: the bytes of a large surface that one box needs, as a smaller surface of the
//!   same layout, so that a box of a large dump is read and untiled without the rest.
//!
//! The older `untile`, `tile`, `_part`, `_parallel` and `_to_vec` functions are deprecated
//! aliases of these calls with fixed options. The process-wide setters, `Plan`, `adapt` and the
//! checked and reference twins the tests compare every path against are for tests and
//! debugging: they are public only with the `testing` feature, and hidden from these docs.

#[cfg(all(feature = "std", feature = "testing"))]
#[doc(hidden)]
pub mod adapt;
#[cfg(all(feature = "std", not(feature = "testing")))]
#[allow(dead_code)]
mod adapt;
mod buf;
mod copy;
mod dispatch;
pub(crate) mod kernels;
mod options;
#[cfg(feature = "rayon")]
mod parallel;
#[cfg_attr(not(feature = "testing"), allow(dead_code))]
mod plan;
#[cfg_attr(not(feature = "testing"), allow(dead_code))]
mod reference;
mod region;
#[cfg_attr(not(feature = "testing"), allow(dead_code))]
mod streaming;
mod window;

pub use buf::{AlignedBuf, LINE_BYTES};
#[allow(deprecated)]
pub use copy::{tile, tile_part, tile_to_vec, untile, untile_part, untile_to_vec};
#[cfg(feature = "rayon")]
#[allow(deprecated)]
pub use copy::{tile_parallel, tile_part_parallel, untile_parallel, untile_part_parallel};
pub use copy::{tile_to_buf, tile_with, untile_to_buf, untile_with};
#[cfg(feature = "std")]
pub use options::max_threads;
pub use options::{CopyOptions, Threads};
#[cfg(feature = "testing")]
#[doc(hidden)]
pub use plan::Plan;
#[cfg(feature = "testing")]
#[doc(hidden)]
pub use reference::{tile_checked, tile_reference, untile_checked, untile_reference};
pub use region::{LinearLayout, Region};
#[cfg(all(feature = "rayon", feature = "testing"))]
#[doc(hidden)]
pub use streaming::{parallel_cached_share, parallel_streaming_threshold_bytes};
#[cfg(feature = "testing")]
#[doc(hidden)]
pub use streaming::{
    set_streaming_threshold_bytes, streaming_threshold_bytes, streaming_threshold_for_l3, NARROW_ROW_BYTES,
    PARALLEL_THRESHOLD_BYTES, STREAMING_THRESHOLD_BYTES,
};
pub use window::{check_places, window, Piece, Window};
