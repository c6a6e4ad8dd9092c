//! Which layout holds a dump: for a surface of known GPU, element size and size, every layout
//! the GPU could have used is tried, and the candidates are ranked by how smooth the image they
//! untile to is.
//!
//! This is a heuristic for a reverse engineer holding a raw dump, not a proof: real images are
//! smooth (neighbouring pixels are alike), and a wrong layout puts unrelated bytes next to each
//! other at every gob, block or row boundary it gets wrong, which makes the image rougher.
//! Noise, or data that is not an image, ranks at random; [`Ranking::margin`] says how far
//! ahead the first candidate is.
//!
//! Decisions (no public tool defines this; these are nvsurf's):
//! - Candidates ([`candidates`]): on G80+, blocklinear with every block height 2^0..2^5 gobs
//!   (block width and depth 1 gob, auto-sizing off so that each height is its own layout) in
//!   each gob order the GPU's gobs allow (G80: VM; GF100+: VM, Tegra, and the unverified Turing
//!   and Fermi orders); on every GPU pitch with the smallest pitch, the pitches aligned to
//!   64..1024 bytes, and the pitch that makes the height fill the dump exactly (when at most four
//!   times the row aligned to 1024 bytes); before G80, the
//!   swizzled layout when the size allows it. Only 2D surfaces (depth 1).
//! - Roughness ([`roughness`]): the mean squared difference between each byte and the same byte
//!   of the element to its right and the element below (squared, so that the few large jumps a
//!   wrong layout makes at its boundaries outweigh an image's fine grain or noise), over a sample of at most
//!   [`SAMPLE_ROWS`] rows and [`SAMPLE_ROW_BYTES`] bytes of each row from the surface's top-left
//!   corner (larger than the tallest block, 256 rows, and wide enough for any pitch error to
//!   show at row starts). With a format, the sample is decoded to RGBA8 pixels first, so that
//!   compressed blocks are compared as pixels.
//! - Candidates whose sample untiles to the same bytes are reported once, with the others named
//!   as equal ([`Ranked::same_as`]); a candidate that needs more bytes than the dump holds is
//!   scored on the leading rows the dump holds whole when they are at least half its sample
//!   (a dump cut in a block's padding), else listed after the others, unscored.
//! - Content ([`blank_fraction`], [`stands_out`]): each sample's blank (all-zero) fraction, so that a window of
//!   cleared memory around a few rows of picture ranks below the picture; and the roughness
//!   of random bytes in the same format, so that a dump with no picture says so.

pub(crate) mod any;
pub(crate) mod candidate;
pub(crate) mod content;
pub(crate) mod offset;
pub(crate) mod partial;
pub(crate) mod rank;
mod record;

pub use any::{candidates_any, start_alignment_bytes};
pub use candidate::{candidates, Candidate, PITCH_ALIGNMENTS};
pub use content::{blank_fraction, stands_out, STANDS_OUT_BELOW};
pub use offset::OffsetScan;
pub use partial::rows_present;
pub use rank::{
    random_roughness, rank, rank_by, roughness, sample_region, sample_surface, sample_window, Ranked, Ranking,
    SAMPLE_ROWS, SAMPLE_ROW_BYTES,
};
pub use record::{CandidateRecord, FieldValue, Subject};
