//! # nvsurf
//!
//! An executable model of how NVIDIA GPUs lay out and interpret memory, following the envytools
//! documents ("G80 surface formats", the NV40 miptree findings, the XF overview) with their known
//! errata fixed (each fix is named in the doc comment that implements it).
//!
//! The core builds with `no_std` + `alloc`; the `std` feature (on by default) adds I/O
//! conveniences and threads.
//!
//! Map of the crate, one hardware concept per module:
//! - [`gpu`]: generations and the facts that depend on them.
//! - [`layout`]: pitch, blocklinear and pre-G80 swizzled surfaces, in-gob byte orders, binding
//!   points; `offset_of(x, y, z)` and sizes.
//! - [`tile`]: moving bytes between linear images and any layout.
//! - [`texture`]: mip chains, arrays, cubes, 3D; G80/GF100 and pre-G80 rules.
//! - [`codec`]: number formats (unorm, snorm, small floats, shared exponent, sRGB, YUV, BC
//!   blocks), independent of the tables; [`format`](mod@format): the format tables and
//!   [`format::Format`], whose element and rectangle codecs build on [`codec`].
//! - [`msaa`]: multisample modes, sample positions, coverage and resolve.
//! - [`storage`]: storage types and the validation of combinations; the PTE kinds Mesa's
//!   gallium driver and NVK pick.
//! - [`modifier`]: DRM format modifiers (decode, encode, the ones NVK offers and accepts).
//! - [`identify`]: which layout a raw dump holds, ranked by how smooth each untiles.
//! - [`cpu`]: which vector kernels the hot loops may use (chosen at run time).
#![cfg_attr(not(feature = "std"), no_std)]
#![warn(missing_docs)]

extern crate alloc;

pub mod codec;
pub mod cpu;
pub mod error;
pub mod extent;
pub mod format;
pub mod gpu;
pub mod identify;
pub mod layout;
pub mod limits;
pub mod modifier;
pub mod msaa;
pub mod platform;
mod records;
pub mod spec;
pub mod storage;
pub mod texture;
pub mod tile;

pub use error::{Error, Result};
pub use gpu::Gpu;
pub use limits::Limits;
pub use platform::{FormatClass, Platform};
pub use records::{BlockLinearRecord, FieldValue, LevelRecord, SubresourceRecord, SurfaceRecord, TextureRecord};
pub use spec::{
    check_picture_size, decode_rgba8, decode_rgba8_3d, decode_rgba_f32, decode_rgba_f32_3d, Assumed, SurfaceSpec,
    TextureSpec,
};
