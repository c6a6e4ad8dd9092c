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
//!   as equal ([`Ranked::same_as`]); candidates that need more bytes than the dump holds are
//!   listed after the others, unscored.

pub mod any;
pub mod offset;

pub use any::candidates_any;
pub use offset::OffsetScan;

use crate::error::{Error, Result};
use crate::format::Format;
use crate::gpu::Gpu;
use crate::layout::{GobOrder, LayoutKind, Surface, SurfaceDesc};
use crate::tile::{self, LinearLayout, Region};
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

/// Rows of the sample that is scored (from row 0).
pub const SAMPLE_ROWS: u32 = 512;
/// Bytes of each sampled row (from column 0), rounded down to whole elements (at least one).
pub const SAMPLE_ROW_BYTES: u64 = 4096;
/// The pitch alignments tried besides the smallest pitch, in bytes.
pub const PITCH_ALIGNMENTS: [u64; 5] = [64, 128, 256, 512, 1024];

/// One layout that the dump may hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The descriptor (what the CLI's surface flags say).
    pub desc: SurfaceDesc,
    /// The validated surface.
    pub surface: Surface,
    /// A short name, e.g. `blocklinear tegra block 0,4,0`, `pitch 512`, `swizzled`.
    pub label: String,
}

/// Every candidate layout for a 2D surface of `size` elements of `elem_size` bytes on `gpu`,
/// with `dump_bytes` bytes available (for the pitch that fills the dump exactly). Layouts the
/// GPU rejects for this size are left out; an error only when none is possible (for example a
/// depth other than 1, or an element size no layout accepts).
pub fn candidates(gpu: Gpu, elem_size: u32, size: [u32; 3], dump_bytes: u64) -> Result<Vec<Candidate>> {
    if size[2] != 1 {
        return Err(Error::Unsupported {
            field: "depth",
            value: size[2].to_string(),
            rule: "layouts are guessed for 2D surfaces (depth 1)".to_string(),
        });
    }
    let mut out = Vec::new();
    let mut first_error = None;
    let mut push = |desc: SurfaceDesc, label: String| match desc.build() {
        Ok(surface) => {
            if !out.iter().any(|c: &Candidate| c.surface == surface) {
                out.push(Candidate { desc, surface, label });
            }
        }
        Err(e) => {
            first_error.get_or_insert(e);
        }
    };
    if gpu.is_g80_or_later() {
        let orders: &[GobOrder] =
            if gpu.is_gf100_or_later() { &crate::layout::gob::ALL_GOB_ORDERS } else { &[GobOrder::Vm] };
        for &order in orders {
            for y in 0..=5 {
                let mut d = SurfaceDesc::new(gpu, elem_size, size);
                d.layout = LayoutKind::BlockLinear;
                d.block_log2 = Some([0, y, 0]);
                d.auto_size = Some(false);
                d.gob_order = order;
                push(d, alloc::format!("blocklinear {} block 0,{y},0", order.name()));
            }
        }
    } else {
        let mut d = SurfaceDesc::new(gpu, elem_size, size);
        d.layout = LayoutKind::Swizzled;
        push(d, "swizzled".to_string());
    }
    let row = u64::from(size[0]) * u64::from(elem_size);
    let min = crate::layout::pitch::min_pitch_bytes(gpu, row, elem_size);
    let mut pitches = vec![min];
    // Checked: `elem_size` is any u32 here, so the row may lie near u64::MAX and an aligned pitch
    // past it (such pitches are no candidates; the element size is refused below anyway).
    pitches.extend(PITCH_ALIGNMENTS.iter().filter_map(|a| min.div_ceil(*a).checked_mul(*a)));
    // The pitch that makes the rows fill the dump exactly, when it is a plausible pitch (at most
    // four times the row aligned to 1024 bytes): a dump much larger than the surface says
    // nothing about its pitch, and reading it all would cost time for nothing.
    let widest = min.div_ceil(1024).saturating_mul(1024 * 4);
    if size[1] > 0 && dump_bytes.is_multiple_of(u64::from(size[1])) && dump_bytes / u64::from(size[1]) <= widest {
        pitches.push(dump_bytes / u64::from(size[1]));
    }
    pitches.sort_unstable();
    pitches.dedup();
    for p in pitches.into_iter().filter(|&p| p >= row) {
        let mut d = SurfaceDesc::new(gpu, elem_size, size);
        d.layout = LayoutKind::Pitch;
        d.pitch_bytes = Some(p);
        push(d, alloc::format!("pitch {p}"));
    }
    match (out.is_empty(), first_error) {
        (true, Some(e)) => Err(e),
        _ => Ok(out),
    }
}

/// The roughness of an image: the mean squared difference between each byte and the same byte
/// of the element `step_bytes` to its right and of the row below (`row_bytes` later), over a
/// packed image of `rows` rows. 0 is flat; uniform random bytes score about 10923 (twice the
/// variance of a uniform byte, 2 * (256^2 - 1) / 12). An image of one element scores 0.
pub fn roughness(image: &[u8], row_bytes: usize, rows: usize, step_bytes: usize) -> Result<f64> {
    let need = row_bytes.checked_mul(rows).ok_or_else(|| Error::Overflow {
        what: "roughness sample",
        detail: alloc::format!("{rows} rows of {row_bytes} bytes"),
    })?;
    if image.len() < need {
        return Err(Error::BufferTooSmall { what: "roughness image", needed: need as u64, got: image.len() as u64 });
    }
    let (mut sum, mut pairs) = (0u64, 0u64);
    let image = &image[..need];
    for (r, line) in image.chunks_exact(row_bytes.max(1)).enumerate() {
        if step_bytes > 0 && step_bytes < line.len() {
            sum += line.iter().zip(&line[step_bytes..]).map(|(a, b)| u64::from(a.abs_diff(*b)).pow(2)).sum::<u64>();
            pairs += (line.len() - step_bytes) as u64;
        }
        if r + 1 < rows {
            let below = &image[(r + 1) * row_bytes..(r + 2) * row_bytes];
            sum += line.iter().zip(below).map(|(a, b)| u64::from(a.abs_diff(*b)).pow(2)).sum::<u64>();
            pairs += row_bytes as u64;
        }
    }
    Ok(if pairs == 0 { 0.0 } else { sum as f64 / pairs as f64 })
}

/// One candidate with its score.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranked {
    /// The candidate.
    pub candidate: Candidate,
    /// Bytes the candidate needs in the dump (its surface size).
    pub size_bytes: u64,
    /// The roughness of its sample ([`roughness`]); `None` when the dump is too short for it.
    pub roughness: Option<f64>,
    /// Index in the ranking of an earlier candidate whose sample untiled to the same bytes.
    pub same_as: Option<usize>,
    /// Every byte of the sample is the same: it holds no picture (zeros, padding), and its
    /// roughness of 0 says nothing about the layout.
    pub flat: bool,
}

/// Candidates ranked smoothest first.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranking {
    /// Scored candidates by roughness (then in [`candidates`] order), then the unscored ones.
    pub ranked: Vec<Ranked>,
}

impl Ranking {
    /// How far ahead the first candidate is: the roughness of the next candidate with other
    /// bytes divided by the first's (2.0 = the runner-up is twice as rough). `None` with fewer
    /// than two distinct scored candidates, infinite when the first is perfectly flat and the
    /// next is not.
    pub fn margin(&self) -> Option<f64> {
        let first = self.ranked.first()?.roughness?;
        let next = self.ranked.iter().skip(1).find(|r| r.same_as.is_none())?.roughness?;
        Some(if first == 0.0 {
            if next == 0.0 {
                1.0
            } else {
                f64::INFINITY
            }
        } else {
            next / first
        })
    }
}

/// A 64-bit FNV-1a hash of the sample, to find candidates that untile to the same bytes.
fn sample_hash(b: &[u8]) -> u64 {
    b.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &x| (h ^ u64::from(x)).wrapping_mul(0x0000_0100_0000_01b3))
}

/// The leading part of a candidate's surface that holds its scored sample (rows
/// 0..[`SAMPLE_ROWS`]): a surface with the same offsets for those rows and no more bytes than
/// they need. Blocklinear: the block rows that cover them (offsets do not depend on the
/// height); pitch: those rows; swizzled: the whole surface (its offsets depend on both sizes).
pub fn sample_surface(c: &Candidate) -> Result<Surface> {
    let [_, h, _] = c.surface.size();
    let rows = match c.surface {
        Surface::BlockLinear(b) => {
            let block_rows = u64::from(b.gob_height_rows()) << b.block_log2()[1];
            u64::from(h.min(SAMPLE_ROWS)).div_ceil(block_rows).saturating_mul(block_rows).min(u64::from(h)) as u32
        }
        Surface::Pitch(_) => h.min(SAMPLE_ROWS),
        Surface::Swizzled(_) => return Ok(c.surface),
    };
    let mut d = c.desc;
    d.size[1] = rows;
    d.build()
}

/// The box of `s` that is scored: rows 0..[`SAMPLE_ROWS`] and the first [`SAMPLE_ROW_BYTES`]
/// bytes of each (whole elements, at least one), as far as the surface reaches.
pub fn sample_region(s: &Surface) -> Region {
    let [w, h, _] = s.size();
    Region {
        x: 0,
        y: 0,
        z: 0,
        // At most w, so it fits in u32.
        w: (SAMPLE_ROW_BYTES / u64::from(s.elem_size())).clamp(1, u64::from(w)) as u32,
        h: h.min(SAMPLE_ROWS),
        d: 1,
    }
}

/// The bytes of candidate `c`'s surface that its score reads: the [`tile::window()`] of its
/// [`sample_region`], whose pieces all lie inside its [`sample_surface`]. A caller holding a
/// large dump reads these pieces (at their offsets) and leaves the rest: for a 16384-wide
/// surface of 16-byte elements, a few MiB instead of the 128 MiB of 512 whole rows.
pub fn sample_window(c: &Candidate) -> Result<tile::Window> {
    tile::window(&c.surface, sample_region(&c.surface))
}

/// Scores every candidate whose surface fits in the `available_bytes` bytes of the dump, on
/// `dump` (the dump's first bytes, the surface starting at byte 0: at least each fitting
/// candidate's [`sample_surface`], so callers read only what the samples need), decoding
/// pixels with `format` when given (its element size must be the candidates'). The sample of
/// each candidate is untiled with [`tile::untile`]; nothing outside `dump` is read, and of it
/// only each candidate's [`sample_window`]. [`rank_by`] is the same for a caller that reads
/// the windows itself.
pub fn rank(dump: &[u8], available_bytes: u64, cands: Vec<Candidate>, format: Option<&Format>) -> Result<Ranking> {
    rank_by(available_bytes, cands, format, |c, w, out| {
        let need = sample_surface(c)?.size_bytes();
        if (dump.len() as u64) < need {
            return Err(Error::BufferTooSmall { what: "dump sample", needed: need, got: dump.len() as u64 });
        }
        w.gather(dump, out)
    })
}

/// [`rank`], with each fitting candidate's sample window ([`sample_window`]) filled by
/// `fill(candidate, window, out)`: `out` (the window's `size_bytes`) is to receive the
/// window's pieces of the dump, each at its place ([`tile::Window::gather`]). A caller
/// holding a large dump in a file reads just those pieces; an error from `fill` ends the
/// ranking.
pub fn rank_by(
    available_bytes: u64,
    cands: Vec<Candidate>,
    format: Option<&Format>,
    mut fill: impl FnMut(&Candidate, &tile::Window, &mut [u8]) -> Result<()>,
) -> Result<Ranking> {
    let mut scored: Vec<(Ranked, u64)> = Vec::new();
    let mut unscored = Vec::new();
    for c in cands {
        let s = c.surface;
        let size_bytes = s.size_bytes();
        if let Some(f) = format {
            if f.elem_size_bytes() != s.elem_size() {
                return Err(Error::Unsupported {
                    field: "format",
                    value: f.name().to_string(),
                    rule: alloc::format!(
                        "its elements are {} bytes but the candidates' are {}",
                        f.elem_size_bytes(),
                        s.elem_size()
                    ),
                });
            }
        }
        if size_bytes > available_bytes {
            unscored.push(Ranked { candidate: c, size_bytes, roughness: None, same_as: None, flat: false });
            continue;
        }
        let w = sample_window(&c)?;
        let mut part = crate::error::zeroed("sample window", w.size_bytes())?;
        fill(&c, &w, &mut part)?;
        let e = u64::from(s.elem_size());
        let region = w.region;
        let lin = LinearLayout::packed(&region, s.elem_size());
        // At most 4096 bytes (or one element) by 512 rows.
        let row = region.w as usize * e as usize;
        let mut sample = vec![0u8; row * region.h as usize];
        // One part of the ranking's work, read straight back: the fixed streaming rule for
        // the sample's own size (cached), not adaptive streaming's trials.
        let sample_bytes = sample.len() as u64;
        tile::untile_part(&w.surface, &part, &mut sample, region, lin, sample_bytes)?;
        let hash = sample_hash(&sample);
        let flat = sample.iter().all(|&b| b == sample[0]);
        let score = match format {
            Some(f) => {
                let (bw, bh) = f.block_dims();
                let (wp, hp) = (region.w * bw, region.h * bh);
                let mut px = vec![[0u8; 4]; wp as usize * hp as usize];
                f.decode_rect_rgba8(&sample, row, wp, hp, &mut px)?;
                roughness(px.as_flattened(), wp as usize * 4, hp as usize, 4)?
            }
            None => roughness(&sample, row, region.h as usize, e as usize)?,
        };
        scored.push((Ranked { candidate: c, size_bytes, roughness: Some(score), same_as: None, flat }, hash));
    }
    // Stable: equal scores keep the candidates' order.
    scored.sort_by(|a, b| a.0.roughness.partial_cmp(&b.0.roughness).unwrap_or(core::cmp::Ordering::Equal));
    let hashes: Vec<u64> = scored.iter().map(|s| s.1).collect();
    let mut ranked: Vec<Ranked> = scored.into_iter().map(|s| s.0).collect();
    for i in 0..ranked.len() {
        ranked[i].same_as = (0..i).find(|&j| {
            ranked[j].same_as.is_none() && hashes[j] == hashes[i] && ranked[j].roughness == ranked[i].roughness
        });
    }
    ranked.extend(unscored);
    Ok(Ranking { ranked })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A smooth test picture: two gradients and a soft diagonal, 4 bytes per element.
    fn picture(w: u32, h: u32) -> Vec<u8> {
        let mut v = Vec::new();
        for y in 0..h {
            for x in 0..w {
                let d = (x + y) / 3;
                v.extend_from_slice(&[(x * 255 / w) as u8, (y * 255 / h) as u8, d as u8, 255]);
            }
        }
        v
    }

    fn tiled(desc: &SurfaceDesc, linear: &[u8], extra: usize) -> Vec<u8> {
        let s = desc.build().unwrap();
        let mut out = vec![0u8; s.size_bytes() as usize + extra];
        let r = Region::whole(&s);
        tile::tile(&s, linear, &mut out, r, LinearLayout::packed(&r, s.elem_size())).unwrap();
        out
    }

    #[test]
    fn the_true_layout_ranks_first() {
        let (w, h) = (300, 200);
        let lin = picture(w, h);
        for gpu in [Gpu::G80, Gpu::Gf100, Gpu::Gm20b] {
            for c in candidates(gpu, 4, [w, h, 1], 0).unwrap() {
                let dump = tiled(&c.desc, &lin, 0);
                let r = rank(&dump, dump.len() as u64, candidates(gpu, 4, [w, h, 1], dump.len() as u64).unwrap(), None)
                    .unwrap();
                let first = &r.ranked[0];
                assert_eq!(first.candidate.surface, c.surface, "{gpu:?} {}: ranked {}", c.label, first.candidate.label);
                assert!(r.margin().unwrap() > 1.2, "{gpu:?} {}: margin {:?}", c.label, r.margin());
            }
        }
    }

    #[test]
    fn roughness_counts_right_and_below() {
        // 2x2 elements of one byte: right pairs (0,10), (20,50); below pairs (0,20), (10,50).
        let img = [0u8, 10, 20, 50];
        assert_eq!(roughness(&img, 2, 2, 1).unwrap(), (100.0 + 900.0 + 400.0 + 1600.0) / 4.0);
        // Two-byte elements: bytes compare with the same byte of the next element only.
        let img = [1u8, 200, 3, 200];
        assert_eq!(roughness(&img, 4, 1, 2).unwrap(), (4.0 + 0.0) / 2.0);
        assert_eq!(roughness(&[7], 1, 1, 1).unwrap(), 0.0);
        assert!(matches!(roughness(&img, 2, 3, 1), Err(Error::BufferTooSmall { needed: 6, got: 4, .. })));
    }

    #[test]
    fn short_dumps_are_listed_unscored_and_depth_is_refused() {
        let lin = picture(64, 64);
        let mut d = SurfaceDesc::new(Gpu::Gf100, 4, [64, 64, 1]);
        d.block_log2 = Some([0, 3, 0]);
        d.auto_size = Some(false);
        let dump = tiled(&d, &lin, 0);
        let r =
            rank(&dump, dump.len() as u64, candidates(Gpu::Gf100, 4, [64, 64, 1], dump.len() as u64).unwrap(), None)
                .unwrap();
        assert_eq!(r.ranked[0].candidate.surface, d.build().unwrap());
        let unscored: Vec<&Ranked> = r.ranked.iter().filter(|x| x.roughness.is_none()).collect();
        assert!(!unscored.is_empty() && unscored.iter().all(|x| x.size_bytes > dump.len() as u64));
        assert!(r.ranked.iter().skip_while(|x| x.roughness.is_some()).all(|x| x.roughness.is_none()));
        assert!(matches!(candidates(Gpu::Gf100, 4, [8, 8, 2], 0), Err(Error::Unsupported { field: "depth", .. })));
    }

    #[test]
    fn any_dump_length_is_scored_or_listed_never_read_past() {
        let lin = picture(40, 24);
        let cands = candidates(Gpu::Gm20b, 4, [40, 24, 1], 0).unwrap();
        let full = tiled(&cands[0].desc, &lin, 4096);
        for len in [0, 1, 511, 512, 4095, 4096, 8191, full.len()] {
            let r = rank(&full[..len], len as u64, cands.clone(), None).unwrap();
            assert_eq!(r.ranked.len(), cands.len());
            for x in &r.ranked {
                assert_eq!(x.roughness.is_some(), x.size_bytes <= len as u64, "{len} {}", x.candidate.label);
            }
        }
        let f = Format::parse("R16_UNORM").unwrap();
        assert!(matches!(
            rank(&full, full.len() as u64, cands, Some(&f)),
            Err(Error::Unsupported { field: "format", .. })
        ));
    }

    #[test]
    fn sample_surfaces_keep_the_offsets_of_their_rows() {
        for (gpu, size) in [(Gpu::G80, [300, 2000, 1]), (Gpu::Gm20b, [70, 600, 1]), (Gpu::Nv40, [64, 1024, 1])] {
            for c in candidates(gpu, 4, size, 0).unwrap() {
                let s = sample_surface(&c).unwrap();
                assert!(s.size_bytes() <= c.surface.size_bytes(), "{}", c.label);
                let rows = s.size()[1].min(SAMPLE_ROWS);
                assert!(rows >= size[1].min(SAMPLE_ROWS), "{}", c.label);
                for y in (0..rows).step_by(7) {
                    for x in (0..size[0]).step_by(13) {
                        assert_eq!(s.offset_of(x, y, 0).unwrap(), c.surface.offset_of(x, y, 0).unwrap(), "{}", c.label);
                    }
                }
            }
        }
        // Only the samples are needed: a dump cut after the largest sample scores the same.
        let lin = picture(300, 2000);
        let cands = candidates(Gpu::Gf100, 4, [300, 2000, 1], 0).unwrap();
        let dump = tiled(&cands[3].desc, &lin, 0);
        let need = cands.iter().map(|c| sample_surface(c).unwrap().size_bytes()).max().unwrap() as usize;
        assert!(need < dump.len() / 2);
        let whole = rank(&dump, dump.len() as u64, cands.clone(), None).unwrap();
        let cut = rank(&dump[..need], dump.len() as u64, cands, None).unwrap();
        assert_eq!(whole, cut);
        assert_eq!(whole.ranked[0].candidate.label, "blocklinear vm block 0,3,0");
    }

    #[test]
    fn equal_samples_are_named() {
        // 16x8 elements of 4 bytes on GF100: one gob row; every block height untiles the same.
        let lin = picture(16, 8);
        let cands = candidates(Gpu::Gf100, 4, [16, 8, 1], 0).unwrap();
        let dump = tiled(&cands[0].desc, &lin, 1 << 16);
        let r = rank(&dump, dump.len() as u64, cands, None).unwrap();
        let vm: Vec<&Ranked> = r.ranked.iter().filter(|x| x.candidate.label.starts_with("blocklinear vm")).collect();
        assert_eq!(vm.len(), 6);
        assert!(vm[0].same_as.is_none() && vm[1..].iter().all(|x| x.same_as.is_some()));
    }

    #[test]
    fn pre_g80_swizzled_and_pitch() {
        let lin = picture(128, 64);
        for layout in [LayoutKind::Swizzled, LayoutKind::Pitch] {
            let mut d = SurfaceDesc::new(Gpu::Nv40, 4, [128, 64, 1]);
            d.layout = layout;
            if layout == LayoutKind::Pitch {
                d.pitch_bytes = Some(1024);
            }
            let dump = tiled(&d, &lin, 0);
            let r = rank(
                &dump,
                dump.len() as u64,
                candidates(Gpu::Nv40, 4, [128, 64, 1], dump.len() as u64).unwrap(),
                None,
            )
            .unwrap();
            assert_eq!(r.ranked[0].candidate.surface, d.build().unwrap(), "{layout:?}");
        }
    }

    /// Regression (issue 27, found by the red team and the `identify` fuzz target): an element
    /// size no layout accepts, with a row near u64::MAX, panicked on overflow while aligning
    /// the candidate pitches. It is an error naming the element size now.
    #[test]
    fn huge_element_size_is_an_error_not_an_overflow() {
        for gpu in [Gpu::G80, Gpu::Gf100, Gpu::Nv40] {
            let got = candidates(gpu, u32::MAX, [u32::MAX, 1, 1], u64::MAX);
            assert!(
                matches!(got, Err(Error::ElemSize { value, .. }) if value == u64::from(u32::MAX)),
                "{gpu}: {got:?}"
            );
        }
        let got = crate::identify::candidates_any(u32::MAX, [u32::MAX, 3, 1], 0);
        assert!(matches!(got, Err(Error::ElemSize { .. })), "{got:?}");
    }
}
