//! Multisample modes, where each sample lives, coverage (CSAA) and resolve.
//!
//! Source: envytools "G80 surface formats" (`docs/hw/memory/g80-surface.rst`), "Multisampled
//! surfaces", corrected by the project errata E3, E9, E10 and the "Answers" on modes 0x6 and 0xb
//! (see [`MODES`]).
//!
//! A multisampled surface stores each pixel as a `grid_w x grid_h` block of elements, one element
//! per full sample ([`ModeInfo::grid_w`]). Coverage samples are not stored; the per-pixel C value
//! of the zeta surface records, for each coverage sample, which full samples it matches
//! ([`contributions`], [`weights`]). Resolving averages the full samples, weighted by how many samples contribute
//! to each ([`resolve_weighted`], [`resolve_image`]).

pub(crate) mod coverage;
pub(crate) mod mode;
pub(crate) mod resolve;
pub(crate) mod table;
pub(crate) mod vulkan;

pub use coverage::{assemble_c, c_chunk_samples, contributions, split_c, weights, ChunkRule, ChunkSlot, Contribution};
pub use mode::MsMode;
pub use resolve::{resolve_box, resolve_image, resolve_weighted, weighted_average, Rgba};
pub use table::{CoverageSample, FullSample, ModeInfo, Position, MODES};
