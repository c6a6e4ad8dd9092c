//! Surface layouts: where every element of a surface lives.
//!
//! - [`Pitch`]: pitch ("linear") surfaces, all generations.
//! - [`BlockLinear`]: blocklinear ("tiled") surfaces, G80 and later.
//! - [`Swizzled`]: pre-G80 swizzled surfaces.
//! - [`GobOrder`]: the byte order inside a gob.
//! - [`Binding`]: binding points and their limits.
//! - [`map`]: the document-style address table.
//! - [`SurfaceDesc`] and [`Surface`]: any layout behind one type.
//!
//! [`SurfaceDesc`] is the one descriptor the CLI and most callers fill in; [`SurfaceDesc::build`]
//! validates it into a [`Surface`], whose [`Surface::offset_of`] gives the byte offset of any
//! element and [`Surface::size_bytes`] the memory it occupies.

pub(crate) mod binding;
pub(crate) mod blocklinear;
pub(crate) mod checks;
pub(crate) mod gob;
pub mod map;
mod map_svg;
pub(crate) mod pitch;
pub(crate) mod surface;
pub(crate) mod swizzled;

pub use binding::{Binding, TextureBlockWidth, ALL_BINDINGS};
pub use blocklinear::{BlockLinear, BlockLinearParams};
pub use gob::{GobOrder, ALL_GOB_ORDERS, GOB_ORDER_NAMES};
pub use pitch::{min_pitch_bytes, Pitch, PitchParams};
pub use surface::{LayoutKind, Surface, SurfaceDesc};
pub use swizzled::{Swizzled, SwizzledParams};
#[cfg(feature = "testing")]
#[doc(hidden)]
pub use {blocklinear::auto_size_log2, swizzled::deposit, swizzled::swizzle_masks};
