//! Moving bytes between linear images and any layout.
//!
//! - [`untile`]: layout (a raw dump) -> linear image; [`tile`]: linear image -> layout.
//! - Whole surfaces or any [`Region`] (box) inside one, with an explicit [`LinearLayout`] (row
//!   and slice pitch of the linear image, not only tightly packed).
//! - The kernels write into the caller's buffer and never allocate; [`untile_to_vec`] and
//!   [`tile_to_vec`] are the allocating conveniences.
//! - Sizes and bounds are checked up front ([`Plan::new`]); nothing outside the surface's
//!   `size_bytes` of the tiled buffer or the region's span of the linear buffer is touched.
//! - With the `rayon` feature, `untile_parallel` / `tile_parallel` split the work by z slices
//!   and gob-row bands (untile) or by block rows / pitch rows / swizzle sub-cubes (tile) over the
//!   current rayon pool (block rows cut into parts of whole block columns when the surface has
//!   fewer block rows than the pool wants tasks); their bytes equal the single-thread path's. Bands and swizzle sub-cubes
//!   are sized for about two tasks per thread of the pool (bands of at least 256 KiB where the
//!   region is that large): on the development machine, long walks per thread beat many small
//!   tasks.
//!
//! Fast paths (all in [`kernels`]): blocklinear copies whole gob rows (64 bytes, VM order) or
//! 16-byte runs (CPU-side gob orders) and handles partial gobs with sub-row copies, never byte
//! by byte; pitch copies whole rows; swizzled steps the element index with a masked add and
//! copies the longest runs that are contiguous in both images. Every element size is moved as
//! bytes (a 12-byte element is 12 bytes of its row), so any element size works through the
//! byte-oriented view. Swizzled surfaces go by 4096-element chunks of 4x4 tiles.
//!
//! Vector kernels ([`crate::cpu`]): on x86_64, whole gob rows move with AVX-512F (or AVX2) at
//! any alignment (streaming only whole lines: rows off a line boundary but 4-byte aligned and a
//! whole number of lines apart have their lines put together from two gobs), and whole swizzle
//! chunks of 4-byte elements move with AVX-512F (pairs of 64x64 chunks side by side also with
//! AVX2), and of 1-, 2- and 8-byte elements with AVX-512 (VBMI, BW, F) or AVX2; otherwise SSE2
//! (the x86_64 baseline) or plain copies. Outputs of at least
//! [`streaming_threshold_bytes`] (7/32 of the level-3 cache) are written with streaming stores ([`Plan::stream_tiled`],
//! [`Plan::stream_linear`]); a copy that is one part of a larger job (a level of a texture)
//! decides from the job's size instead ([`untile_part`], [`tile_part`]). With `std`, whole
//! blocklinear copies that write from 2 MiB up to the level-3 cache's size choose from their
//! own timings instead (module `adapt`: the fixed rule first, then whichever of cached
//! stores, a parallel cached share and streamed stores runs fastest on this machine; tile
//! needs a line-aligned tiled buffer to stream). Every path gives the same bytes, and the
//! tests compare each against the byte-by-byte [`untile_reference`] / [`tile_reference`] and
//! the checked twins [`untile_checked`] / [`tile_checked`].
//!
//! [`window()`]: the bytes of a large surface that one box needs, as a smaller surface of the
//! same layout, so that a box of a large dump is read and untiled without the rest.

#[cfg(feature = "std")]
pub mod adapt;
mod copy;
mod dispatch;
pub mod kernels;
#[cfg(feature = "rayon")]
mod parallel;
mod plan;
mod reference;
mod region;
mod streaming;
pub mod window;

pub use copy::{tile, tile_part, tile_to_vec, untile, untile_part, untile_to_vec};
#[cfg(feature = "rayon")]
pub use parallel::{tile_parallel, tile_part_parallel, untile_parallel, untile_part_parallel};
pub use plan::Plan;
pub use reference::{tile_checked, tile_reference, untile_checked, untile_reference};
pub use region::{LinearLayout, Region};
#[cfg(feature = "rayon")]
pub use streaming::{parallel_cached_share, parallel_streaming_threshold_bytes};
pub use streaming::{
    set_streaming_threshold_bytes, streaming_threshold_bytes, streaming_threshold_for_l3, NARROW_ROW_BYTES,
    PARALLEL_THRESHOLD_BYTES, STREAMING_THRESHOLD_BYTES,
};
pub use window::{window, Piece, Window};
