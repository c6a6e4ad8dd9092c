//! Textures: mip chains, arrays, cubes, 3D, RECT and BUFFER, for G80/GF100 and pre-G80 GPUs.
//!
//! A texture is what users hold: a dump of a whole mipmapped, layered resource. A
//! [`TextureDesc`] describes level 0 of layer 0 (as a TIC does) plus the level and layer counts;
//! [`TextureDesc::build`] validates it into a [`Texture`], the layout plan that gives every
//! offset: per level ([`Level`]) the offset inside a layer, size, extent in texels and elements,
//! effective block log2 and row bytes; per (level, layer) a [`Subresource`] with its byte offset
//! in the dump, its surface descriptor and its size in a packed linear file; the layer stride and
//! the total size.
//!
//! - [`TextureDesc`]: the descriptor; `build` validates it and plans the levels.
//! - [`Level`], [`Subresource`] and [`Texture`]: the result.
//! - [`TextureType`]: the texture types and their shape rules.
//! - [`BlockPolicy`]: how the requested block size is chosen (explicit, `max`, NVN/Switch).
//! - The G80/GF100 rules of envytools `docs/hw/memory/g80-surface.rst` ("Textures,
//!   mipmapping and arrays", `docs/ERRATA.md` E8).
//! - The pre-G80 rules: the NV40 rules of "Findings on pre-NV50 miptree layout" (nouveau mailing
//!   list, 2010-01-08).
//! - NV2A's arrangement of 3D compressed levels ([`vtc_block_offset`], [`vtc_to_slices`],
//!   [`slices_to_vtc`]): each block's slices together, four at a time.
//! - [`mips`]: the box filter that builds a level from the one above it (mip generation).
//! - [`Texture::untile_with`] and [`Texture::tile_with`]: whole textures between a dump and a
//!   packed linear file (via [`crate::tile`]).
//!
//! ```
//! use nvsurf::texture::{TextureDesc, TextureType, BlockPolicy};
//! use nvsurf::Gpu;
//! // `docs/VECTORS.md`: GF100, 2D 300x200, 4-byte elements, 9 levels, block log2 (0,5,0).
//! let mut d = TextureDesc::new(Gpu::Gf100, TextureType::D2, 4, [300, 200, 1]);
//! d.levels = 9;
//! d.block = BlockPolicy::Explicit([0, 5, 0]);
//! let t = d.build()?;
//! assert_eq!(t.level(1)?.offset_bytes, 311296);
//! assert_eq!(t.layer_stride_bytes(), 425984);
//! # Ok::<(), nvsurf::Error>(())
//! ```
//!
//! Compressed formats count in elements of several texels ([`TextureDesc::texels_per_elem`],
//! 4x4 for the BC/DXT formats): a level `w` texels wide is `ceil(w / 4)` elements wide. Levels
//! halve in texels, then convert, so every level is at least one element.

mod build;
#[cfg_attr(not(feature = "testing"), allow(dead_code))]
pub(crate) mod copy;
pub(crate) mod desc;
pub(crate) mod g80;
pub(crate) mod kind;
pub(crate) mod level;
pub mod mips;
pub(crate) mod nil;
pub(crate) mod plan;
pub(crate) mod policy;
pub(crate) mod pre_g80;
mod vtc;

#[cfg(feature = "testing")]
#[doc(hidden)]
pub use copy::{tile_subresource, untile_subresource};
pub use desc::{LevelPlacement, TextureDesc};
pub use kind::{max_levels, TextureType, ALL_TEXTURE_TYPES};
pub use level::{Level, Subresource};
pub use nil::{clamp_block_log2, linear_row_align_bytes, sparse_block_elements, AlignSource, SPARSE_NOTE};
pub use plan::Texture;
pub use policy::BlockPolicy;
pub use vtc::{slices_to_vtc, vtc_block_offset, vtc_to_slices};
