//! Surface layouts: where every element of a surface lives.
//!
//! - [`pitch`]: pitch ("linear") surfaces, all generations.
//! - [`blocklinear`]: blocklinear ("tiled") surfaces, G80 and later.
//! - [`swizzled`]: pre-G80 swizzled surfaces.
//! - [`gob`]: the byte order inside a gob.
//! - [`binding`]: binding points and their limits.
//! - [`map`]: the document-style address table.
//! - [`surface`]: [`SurfaceDesc`] and [`Surface`], any layout behind one type.
//!
//! [`SurfaceDesc`] is the one descriptor the CLI and most callers fill in; [`SurfaceDesc::build`]
//! validates it into a [`Surface`], whose [`Surface::offset_of`] gives the byte offset of any
//! element and [`Surface::size_bytes`] the memory it occupies.

pub mod binding;
pub mod blocklinear;
pub(crate) mod checks;
pub mod gob;
pub mod map;
mod map_svg;
pub mod pitch;
pub mod surface;
pub mod swizzled;

pub use binding::{Binding, TextureBlockWidth};
pub use blocklinear::{BlockLinear, BlockLinearParams};
pub use gob::GobOrder;
pub use pitch::{Pitch, PitchParams};
pub use surface::{LayoutKind, Surface, SurfaceDesc};
pub use swizzled::{Swizzled, SwizzledParams};
