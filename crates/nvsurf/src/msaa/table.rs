//! The multisample mode table as data.
//!
//! Source: envytools "G80 surface formats" (`docs/hw/memory/g80-surface.rst`), section
//! "Multisampled surfaces", with the project errata applied:
//! - E3: modes 0x4 and 0x5 are swapped in the document; whole entries swap, so 0x4 is MS8_ALT
//!   (4x2, GT215+) with the 8-sample list and 0x5 is MS2_ALT (2x1, GT215+) with the 2-sample list.
//! - E9: MS4_CS12 coverage sample c lives in C bits 21-23 (the document prints "31-23").
//! - E10: the MS8_CS8 C bitfield rows are samples 8, 9, a, b, c, d, e, f (the document prints
//!   "sample 8" on every row).
//! - "Answers": mode 0x6 is 4x4 (16 samples, GF100+); mode 0xb (MS8_CS24) is 4x2 with 24
//!   coverage samples. Positions, grid coordinates, belongs-lists and C bitfields that no source
//!   gives are `None` (unknown), never invented.

use crate::gpu::Gpu;

/// A sample position inside a pixel, in the document's 4-bit fixed point: `0x0.6` is 6/16.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// X in sixteenths of a pixel (0..=15), as written after `0x0.` in the document.
    pub x_sixteenths: u8,
    /// Y in sixteenths of a pixel (0..=15).
    pub y_sixteenths: u8,
}

impl Position {
    /// X as a fraction of a pixel (0.0..1.0).
    pub fn x(self) -> f32 {
        f32::from(self.x_sixteenths) / 16.0
    }
    /// Y as a fraction of a pixel (0.0..1.0).
    pub fn y(self) -> f32 {
        f32::from(self.y_sixteenths) / 16.0
    }
}

/// A full sample: stored in the surface, one element per sample.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FullSample {
    /// Sample id (the value in the sampleid register).
    pub id: u8,
    /// Position inside the pixel; `None` where no source documents it.
    pub position: Option<Position>,
    /// Coordinates (in elements) inside the pixel's grid block; `None` where undocumented.
    pub grid_xy: Option<(u8, u8)>,
}

/// A coverage (CSAA) sample: not stored, represented by bits of the per-pixel C value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CoverageSample {
    /// Sample id (numbered after the full samples, as in the document).
    pub id: u8,
    /// Position inside the pixel; `None` where undocumented.
    pub position: Option<Position>,
    /// The full samples it belongs to, in the document's (priority) order; `None` if unknown.
    pub belongs: Option<&'static [u8]>,
    /// The C bitfield `(low_bit, high_bit)` inclusive; bit `low_bit + i` is the association with
    /// the i-th full sample of the belongs-list sorted by sample id. `None` if unknown.
    pub c_bits: Option<(u8, u8)>,
}

/// Everything known about one multisample mode.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModeInfo {
    /// Mode id as written to the MULTISAMPLE_MODE register (0x0-0x6, 0x8-0xb).
    pub id: u8,
    /// Names, canonical first, then aliases (all upper case).
    pub names: &'static [&'static str],
    /// First GPU generation that has the mode.
    pub min_gpu: Gpu,
    /// Width of the per-pixel block in the surface, in elements.
    pub grid_w: u8,
    /// Height of the per-pixel block in the surface, in elements.
    pub grid_h: u8,
    /// Full samples, by id (`grid_w * grid_h` of them).
    pub full: &'static [FullSample],
    /// Number of coverage samples (0 for plain multisampling).
    pub coverage_count: u8,
    /// Coverage samples, by id; empty when `coverage_count` is 0 or the details are unknown.
    pub coverage: &'static [CoverageSample],
    /// Bits of the per-pixel C value (16 or 32); `None` for non-CSAA modes and when unknown.
    pub c_bits_per_pixel: Option<u8>,
    /// Which errata of `docs/ERRATA.md` this entry applies (for the reader and the tests).
    pub errata: &'static [&'static str],
    /// A remark on what is unknown or assumed, empty if nothing.
    pub note: &'static str,
}

const fn p(x: u8, y: u8) -> Option<Position> {
    Some(Position { x_sixteenths: x, y_sixteenths: y })
}

const fn fs(id: u8, x: u8, y: u8, gx: u8, gy: u8) -> FullSample {
    FullSample { id, position: p(x, y), grid_xy: Some((gx, gy)) }
}

const fn unknown_full(id: u8) -> FullSample {
    FullSample { id, position: None, grid_xy: None }
}

const fn cs(id: u8, x: u8, y: u8, belongs: &'static [u8], lo: u8, hi: u8) -> CoverageSample {
    CoverageSample { id, position: p(x, y), belongs: Some(belongs), c_bits: Some((lo, hi)) }
}

const MS1: [FullSample; 1] = [fs(0, 0x8, 0x8, 0, 0)];
const MS2: [FullSample; 2] = [fs(0, 0x4, 0x4, 0, 0), fs(1, 0xc, 0xc, 1, 0)];
const MS4: [FullSample; 4] =
    [fs(0, 0x6, 0x2, 0, 0), fs(1, 0xe, 0x6, 1, 0), fs(2, 0x2, 0xa, 0, 1), fs(3, 0xa, 0xe, 1, 1)];
const MS8: [FullSample; 8] = [
    fs(0, 0x1, 0x7, 0, 0),
    fs(1, 0x5, 0x3, 1, 0),
    fs(2, 0x3, 0xd, 0, 1),
    fs(3, 0x7, 0xb, 1, 1),
    fs(4, 0x9, 0x5, 2, 0),
    fs(5, 0xf, 0x1, 3, 0),
    fs(6, 0xb, 0xf, 2, 1),
    fs(7, 0xd, 0x9, 3, 1),
];
// E3: this list is printed under "mode 0x5" in the document; it belongs with MS8_ALT (0x4).
const MS8_ALT: [FullSample; 8] = [
    fs(0, 0x9, 0x5, 2, 0),
    fs(1, 0x7, 0xb, 1, 1),
    fs(2, 0xd, 0x9, 3, 1),
    fs(3, 0x5, 0x3, 1, 0),
    fs(4, 0x3, 0xd, 0, 1),
    fs(5, 0x1, 0x7, 0, 0),
    fs(6, 0xb, 0xf, 2, 1),
    fs(7, 0xf, 0x1, 3, 0),
];
// E3: printed under "mode 0x4"; it belongs with MS2_ALT (0x5).
const MS2_ALT: [FullSample; 2] = [fs(0, 0xc, 0xc, 1, 0), fs(1, 0x4, 0x4, 0, 0)];
const MS16: [FullSample; 16] = {
    let mut a = [unknown_full(0); 16];
    let mut i = 0;
    while i < 16 {
        a[i] = unknown_full(i as u8);
        i += 1;
    }
    a
};
const MS4_CS12_FULL: [FullSample; 4] =
    [fs(0, 0x6, 0x1, 0, 0), fs(1, 0xf, 0x6, 1, 0), fs(2, 0x1, 0xa, 0, 1), fs(3, 0xa, 0xf, 1, 1)];
const MS8_CS8_FULL: [FullSample; 8] = [
    fs(0, 0x1, 0x3, 0, 0),
    fs(1, 0x6, 0x4, 1, 0),
    fs(2, 0x3, 0xf, 0, 1),
    fs(3, 0x4, 0xb, 1, 1),
    fs(4, 0xc, 0x1, 2, 0),
    fs(5, 0xe, 0x7, 3, 0),
    fs(6, 0x8, 0x8, 2, 1),
    fs(7, 0xf, 0xd, 3, 1),
];
const MS8_CS24_FULL: [FullSample; 8] = [
    unknown_full(0),
    unknown_full(1),
    unknown_full(2),
    unknown_full(3),
    unknown_full(4),
    unknown_full(5),
    unknown_full(6),
    unknown_full(7),
];

const MS4_CS4_COV: [CoverageSample; 4] = [
    cs(4, 0x5, 0x7, &[1, 3, 0, 2], 0, 3),
    cs(5, 0x9, 0x4, &[3, 2, 1, 0], 4, 7),
    cs(6, 0x7, 0xc, &[0, 1, 2, 3], 8, 11),
    cs(7, 0xb, 0x9, &[2, 0, 3, 1], 12, 15),
];
const MS4_CS12_COV: [CoverageSample; 12] = [
    cs(0x4, 0x4, 0xe, &[2, 3], 0, 1),
    cs(0x5, 0xc, 0x3, &[1, 0], 2, 3),
    cs(0x6, 0xd, 0xd, &[3, 1], 4, 5),
    cs(0x7, 0x4, 0x4, &[0, 2], 6, 7),
    cs(0x8, 0x9, 0x5, &[0, 1, 2], 8, 10),
    cs(0x9, 0x7, 0x7, &[0, 2, 1, 3], 11, 14),
    cs(0xa, 0xb, 0x8, &[1, 3, 0], 15, 17),
    cs(0xb, 0x3, 0x8, &[2, 0, 3], 18, 20),
    // E9: the document prints "31-23"; the field is bits 21-23.
    cs(0xc, 0x8, 0xc, &[3, 2, 1], 21, 23),
    cs(0xd, 0x2, 0x2, &[0, 2], 24, 25),
    cs(0xe, 0x5, 0xb, &[2, 3, 0, 1], 26, 29),
    cs(0xf, 0xe, 0x9, &[1, 3], 30, 31),
];
// E10: the bitfield rows are samples 8..f in order (the document prints "sample 8" on each).
const MS8_CS8_COV: [CoverageSample; 8] = [
    cs(0x8, 0x5, 0x7, &[1, 6, 3, 0], 0, 3),
    cs(0x9, 0x7, 0x2, &[1, 0, 4, 6], 4, 7),
    cs(0xa, 0xb, 0x6, &[5, 6, 1, 4], 8, 11),
    cs(0xb, 0xd, 0x3, &[4, 5, 6, 1], 12, 15),
    cs(0xc, 0x2, 0x9, &[3, 0, 2, 1], 16, 19),
    cs(0xd, 0x7, 0xc, &[3, 2, 6, 7], 20, 23),
    cs(0xe, 0xa, 0xe, &[7, 3, 2, 6], 24, 27),
    cs(0xf, 0xc, 0xa, &[5, 6, 7, 3], 28, 31),
];

/// The multisample modes, in id order (0x7 does not exist).
pub static MODES: [ModeInfo; 11] = [
    ModeInfo {
        id: 0x0,
        names: &["MS1", "1X", "NONE"],
        min_gpu: Gpu::G80,
        grid_w: 1,
        grid_h: 1,
        full: &MS1,
        coverage_count: 0,
        coverage: &[],
        c_bits_per_pixel: None,
        errata: &[],
        note: "",
    },
    ModeInfo {
        id: 0x1,
        names: &["MS2", "2X"],
        min_gpu: Gpu::G80,
        grid_w: 2,
        grid_h: 1,
        full: &MS2,
        coverage_count: 0,
        coverage: &[],
        c_bits_per_pixel: None,
        errata: &[],
        note: "",
    },
    ModeInfo {
        id: 0x2,
        names: &["MS4", "4X"],
        min_gpu: Gpu::G80,
        grid_w: 2,
        grid_h: 2,
        full: &MS4,
        coverage_count: 0,
        coverage: &[],
        c_bits_per_pixel: None,
        errata: &[],
        note: "",
    },
    ModeInfo {
        id: 0x3,
        names: &["MS8", "8X"],
        min_gpu: Gpu::G80,
        grid_w: 4,
        grid_h: 2,
        full: &MS8,
        coverage_count: 0,
        coverage: &[],
        c_bits_per_pixel: None,
        errata: &[],
        note: "",
    },
    ModeInfo {
        id: 0x4,
        names: &["MS8_ALT", "8X_ALT"],
        min_gpu: Gpu::Gt215,
        grid_w: 4,
        grid_h: 2,
        full: &MS8_ALT,
        coverage_count: 0,
        coverage: &[],
        c_bits_per_pixel: None,
        errata: &["E3"],
        note: "the document lists this entry under mode 0x5 (ERRATA E3)",
    },
    ModeInfo {
        id: 0x5,
        names: &["MS2_ALT", "2X_ALT"],
        min_gpu: Gpu::Gt215,
        grid_w: 2,
        grid_h: 1,
        full: &MS2_ALT,
        coverage_count: 0,
        coverage: &[],
        c_bits_per_pixel: None,
        errata: &["E3"],
        note: "the document lists this entry under mode 0x4 (ERRATA E3)",
    },
    ModeInfo {
        id: 0x6,
        names: &["MS16", "16X", "MODE6"],
        min_gpu: Gpu::Gf100,
        grid_w: 4,
        grid_h: 4,
        full: &MS16,
        coverage_count: 0,
        coverage: &[],
        c_bits_per_pixel: None,
        errata: &["Answers: mode 0x6"],
        note: "4x4 with 16 samples per ERRATA \"Answers\"; sample positions and grid coordinates \
               are undocumented (the name MS16 is this project's, the document writes ???)",
    },
    ModeInfo {
        id: 0x8,
        names: &["MS4_CS4", "8X_CSAA", "CSAA8"],
        min_gpu: Gpu::G80,
        grid_w: 2,
        grid_h: 2,
        full: &MS4,
        coverage_count: 4,
        coverage: &MS4_CS4_COV,
        c_bits_per_pixel: Some(16),
        errata: &["OPEN: CS4/CS8 coverage layout"],
        note: "C chunks follow the document (top-row samples); ERRATA OPEN notes the alternative",
    },
    ModeInfo {
        id: 0x9,
        names: &["MS4_CS12", "16X_CSAA", "CSAA16"],
        min_gpu: Gpu::G80,
        grid_w: 2,
        grid_h: 2,
        full: &MS4_CS12_FULL,
        coverage_count: 12,
        coverage: &MS4_CS12_COV,
        c_bits_per_pixel: Some(32),
        errata: &["E9"],
        note: "",
    },
    ModeInfo {
        id: 0xa,
        names: &["MS8_CS8", "16XQ_CSAA", "CSAA16Q"],
        min_gpu: Gpu::G80,
        grid_w: 4,
        grid_h: 2,
        full: &MS8_CS8_FULL,
        coverage_count: 8,
        coverage: &MS8_CS8_COV,
        c_bits_per_pixel: Some(32),
        errata: &["E10", "OPEN: CS4/CS8 coverage layout"],
        note: "C chunks follow the document (top-row samples); ERRATA OPEN notes the alternative",
    },
    ModeInfo {
        id: 0xb,
        names: &["MS8_CS24", "32X_CSAA", "CSAA32"],
        min_gpu: Gpu::Gf100,
        grid_w: 4,
        grid_h: 2,
        full: &MS8_CS24_FULL,
        coverage_count: 24,
        coverage: &[],
        c_bits_per_pixel: None,
        errata: &["Answers: mode 0xb"],
        note: "4x2 with 24 coverage samples per ERRATA \"Answers\"; positions, grid coordinates, \
               belongs-lists and the C component are undocumented",
    },
];
