//! Ranking candidates by roughness: each candidate's sample is untiled (and decoded, with a
//! format) and scored; the smoothest image ranks first.

use super::candidate::Candidate;
use crate::error::{Error, Result};
use crate::format::Format;
use crate::layout::surface::Surface;
use crate::tile::{self, LinearLayout, Region};
use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;

/// Rows of the sample that is scored (from row 0).
pub const SAMPLE_ROWS: u32 = 512;
/// Bytes of each sampled row (from column 0), rounded down to whole elements (at least one).
pub const SAMPLE_ROW_BYTES: u64 = 4096;
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
            sum += squared_differences(line, &line[step_bytes..]);
            pairs += (line.len() - step_bytes) as u64;
        }
        if r + 1 < rows {
            let below = &image[(r + 1) * row_bytes..(r + 2) * row_bytes];
            sum += squared_differences(line, below);
            pairs += row_bytes as u64;
        }
    }
    Ok(if pairs == 0 { 0.0 } else { sum as f64 / pairs as f64 })
}

/// The sum of `(a[i] - b[i])^2` over the shorter of the two, 16 bytes at a time: each group
/// is copied out whole (one load, not sixteen) and its differences are taken in `i32`, with no
/// comparison per byte, so the loop vectorises; a group's sum is at most 16 * 255^2.
fn squared_differences(a: &[u8], b: &[u8]) -> u64 {
    const LANES: usize = 16;
    let sum = |x: &[u8], y: &[u8]| -> u32 {
        x.iter()
            .zip(y)
            .map(|(&p, &q)| {
                let d = i32::from(p) - i32::from(q);
                d.unsigned_abs() * d.unsigned_abs()
            })
            .sum()
    };
    let n = a.len().min(b.len());
    let (mut wa, mut wb) = (a[..n].chunks_exact(LANES), b[..n].chunks_exact(LANES));
    let mut total = 0u64;
    for (x, y) in (&mut wa).zip(&mut wb) {
        let (mut xs, mut ys) = ([0u8; LANES], [0u8; LANES]);
        xs.copy_from_slice(x);
        ys.copy_from_slice(y);
        total += u64::from(sum(&xs, &ys));
    }
    total + u64::from(sum(wa.remainder(), wb.remainder()))
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
    /// Rows of the sample scored: all of [`sample_region`]'s when the surface fits in the
    /// dump; when it does not, the leading rows the dump holds whole
    /// ([`rows_present`](super::partial::rows_present)), scored when at least half; 0 when
    /// unscored.
    pub rows_scored: u32,
    /// The fraction of the scored sample's bytes that are blank (zero runs,
    /// [`blank_fraction`](super::content::blank_fraction)); 0 when unscored.
    pub blank_fraction: f64,
}

/// Candidates ranked smoothest first.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranking {
    /// Scored candidates by roughness (then in [`candidates`](crate::identify::candidates) order), then the unscored ones.
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

/// The roughness of a packed sample of `w` x `h` elements of `elem_size_bytes` bytes: of its
/// RGBA8 pixels decoded with `format` when given, else of its bytes.
pub(crate) fn score_sample(
    sample: &[u8],
    w: u32,
    h: u32,
    elem_size_bytes: u32,
    format: Option<&Format>,
) -> Result<f64> {
    let row = w as usize * elem_size_bytes as usize;
    match format {
        Some(f) => {
            let (bw, bh) = f.block_dims();
            let (wp, hp) = (w * bw, h * bh);
            let mut px = vec![[0u8; 4]; wp as usize * hp as usize];
            f.decode_rect_rgba8(sample, row, wp, hp, &mut px)?;
            roughness(px.as_flattened(), wp as usize * 4, hp as usize, 4)
        }
        None => roughness(sample, row, h as usize, elem_size_bytes as usize),
    }
}

/// The roughness ([`roughness`]) of random bytes scored as a candidate's
/// sample is: 64 rows of [`SAMPLE_ROW_BYTES`] (whole elements of
/// `elem_size_bytes` bytes) of deterministic pseudo-random bytes, decoded with `format` when given
/// (whose element size must be `elem_size_bytes`). About 10923 for bytes compared as they are; a
/// format that decodes random bytes to few values (floats clamp to 0 or 1) scores otherwise.
pub fn random_roughness(format: Option<&Format>, elem_size_bytes: u32) -> Result<f64> {
    let e = elem_size_bytes.max(1) as usize;
    let elems = (SAMPLE_ROW_BYTES as usize / e).max(1);
    let (w, h) = (elems as u32, 64u32);
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let n = elems * e * h as usize;
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(n)
        .map_err(|_| crate::error::Error::Overflow { what: "random sample", detail: alloc::format!("{n} bytes") })?;
    bytes.extend((0..n).map(|_| {
        // xorshift64: any fixed sequence of well-mixed bytes serves.
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x >> 24) as u8
    }));
    score_sample(&bytes, w, h, elem_size_bytes, format)
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
    let [_, h, _] = c.surface.size().to_array();
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
    let [w, h, _] = s.size().to_array();
    Region {
        x: 0,
        y: 0,
        z: 0,
        // At most w, so it fits in u32.
        w: (SAMPLE_ROW_BYTES / u64::from(s.elem_size_bytes())).clamp(1, u64::from(w)) as u32,
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
    rank_by(available_bytes, cands, format, |_, w, out| {
        for p in &w.pieces {
            // The pieces of a candidate cut short by the dump's end stop at `available_bytes`
            // (see `rank_by`); `dump` must hold them.
            let end = p.offset_bytes.saturating_add(p.len_bytes);
            let (Some(src), Some(dst)) = (
                usize::try_from(p.offset_bytes).ok().zip(usize::try_from(end).ok()).and_then(|(a, b)| dump.get(a..b)),
                usize::try_from(p.window_offset_bytes)
                    .ok()
                    .and_then(|a| Some(a..a.checked_add(usize::try_from(p.len_bytes).ok()?)?))
                    .and_then(|r| out.get_mut(r)),
            ) else {
                return Err(Error::BufferTooSmall { what: "dump sample", needed: end, got: dump.len() as u64 });
            };
            dst.copy_from_slice(src);
        }
        Ok(())
    })
}

/// [`rank`], with each fitting candidate's sample window ([`sample_window`]) filled by
/// `fill(candidate, window, out)`: `out` (the window's `size_bytes`, zeroed) is to receive the
/// window's pieces of the dump, each at its place ([`tile::Window::gather`]). A caller
/// holding a large dump in a file reads just those pieces; an error from `fill` ends the
/// ranking. A candidate larger than the dump is scored on the leading rows the dump holds
/// whole when they are at least half the sample's ([`Ranked::rows_scored`]): its window is
/// that of those rows, with the pieces cut at `available_bytes` (the bytes past it, which those
/// rows do not use, stay zero; `gather` refuses such a window, as its places leave gaps).
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
            if f.elem_size_bytes() != s.elem_size_bytes() {
                return Err(Error::Unsupported {
                    field: "format",
                    value: f.name().to_string(),
                    rule: alloc::format!(
                        "its elements are {} bytes but the candidates' are {}",
                        f.elem_size_bytes(),
                        s.elem_size_bytes()
                    ),
                });
            }
        }
        let mut region = sample_region(&s);
        let rows = super::partial::rows_present(&s, region, available_bytes)?;
        if rows == 0 || rows.saturating_mul(2) < region.h {
            unscored.push(Ranked {
                candidate: c,
                size_bytes,
                roughness: None,
                same_as: None,
                flat: false,
                rows_scored: 0,
                blank_fraction: 0.0,
            });
            continue;
        }
        region.h = rows;
        let mut w = tile::window(&s, region)?;
        if size_bytes > available_bytes {
            // Only the rows scored are read, and they end inside the dump.
            w.pieces.retain(|p| p.offset_bytes < available_bytes);
            for p in &mut w.pieces {
                p.len_bytes = p.len_bytes.min(available_bytes - p.offset_bytes);
            }
        }
        let mut part = crate::error::zeroed("sample window", w.size_bytes())?;
        fill(&c, &w, &mut part)?;
        let e = u64::from(s.elem_size_bytes());
        let region = w.region;
        let lin = LinearLayout::packed(&region, s.elem_size_bytes());
        // At most 4096 bytes (or one element) by 512 rows.
        let row = region.w as usize * e as usize;
        let mut sample = vec![0u8; row * region.h as usize];
        // One part of the ranking's work, read straight back: the fixed streaming rule for
        // the sample's own size (cached), not adaptive streaming's trials.
        let sample_bytes = sample.len() as u64;
        tile::untile_with(
            &w.surface,
            &part,
            &mut sample,
            region,
            lin,
            &crate::tile::CopyOptions::default().job_output_bytes(sample_bytes),
        )?;
        let hash = sample_hash(&sample);
        let flat = sample.iter().all(|&b| b == sample[0]);
        let blank_fraction = super::content::blank_fraction(&sample, row, e as usize);
        let score = score_sample(&sample, region.w, region.h, s.elem_size_bytes(), format)?;
        scored.push((
            Ranked {
                candidate: c,
                size_bytes,
                roughness: Some(score),
                same_as: None,
                flat,
                rows_scored: rows,
                blank_fraction,
            },
            hash,
        ));
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
    use crate::gpu::Gpu;
    use crate::identify::candidate::candidates;
    use crate::layout::surface::{LayoutKind, SurfaceDesc};

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
        tile::tile_with(
            &s,
            linear,
            &mut out,
            r,
            LinearLayout::packed(&r, s.elem_size_bytes()),
            &crate::tile::CopyOptions::default(),
        )
        .unwrap();
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

    /// The grouped sum of squared differences equals the plain one for every length (whole
    /// groups of 16 and a remainder) and every byte pair, extremes included.
    #[test]
    fn squared_differences_match_the_plain_sum() {
        let a: Vec<u8> = (0..1000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8).collect();
        let b: Vec<u8> = (0..1000u32).map(|i| if i % 7 == 0 { 255 } else { (i * 37 % 256) as u8 }).collect();
        for n in [0usize, 1, 15, 16, 17, 31, 32, 100, 999, 1000] {
            let want: u64 = a[..n].iter().zip(&b[..n]).map(|(x, y)| u64::from(x.abs_diff(*y)).pow(2)).sum();
            assert_eq!(squared_differences(&a[..n], &b), want, "{n}");
            assert_eq!(squared_differences(&b, &a[..n]), want, "{n}");
        }
        assert_eq!(squared_differences(&[0; 40], &[255; 40]), 40 * 255 * 255);
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
        assert!(
            !unscored.is_empty() && unscored.iter().all(|x| x.size_bytes > dump.len() as u64 && x.rows_scored == 0)
        );
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
                // Scored when it fits, or when the dump holds at least half its sample's rows.
                let s = x.candidate.surface;
                let rows = crate::identify::rows_present(&s, sample_region(&s), len as u64).unwrap();
                let want = x.size_bytes <= len as u64 || (rows > 0 && rows * 2 >= sample_region(&s).h);
                assert_eq!(x.roughness.is_some(), want, "{len} {}", x.candidate.label);
                assert_eq!(x.rows_scored, if want { rows } else { 0 }, "{len} {}", x.candidate.label);
            }
        }
        let f = Format::parse("R16_UNORM").unwrap();
        assert!(matches!(
            rank(&full, full.len() as u64, cands, Some(&f)),
            Err(Error::Unsupported { field: "format", .. })
        ));
    }

    /// Regression (review): a dump cut inside the last block row's padding (rows below the
    /// picture) marked the true layouts "too short" and ranked a wrong one first. The rows the
    /// dump holds are scored now: the true layout ranks first, on every row of the picture.
    #[test]
    fn a_dump_cut_in_the_padding_scores_the_rows_it_holds() {
        let (w, h) = (320, 200);
        let lin = picture(w, h);
        let mut d = SurfaceDesc::new(Gpu::Gf100, 4, [w, h, 1]);
        d.block_log2 = Some([0, 4, 0]);
        d.auto_size = Some(false);
        let full = tiled(&d, &lin, 0);
        // 2 block rows of 128 rows: rows 200..256 are padding, the last bytes of each block.
        let cut = &full[..full.len() - 680];
        let cands = candidates(Gpu::Gf100, 4, [w, h, 1], cut.len() as u64).unwrap();
        let r = rank(cut, cut.len() as u64, cands, None).unwrap();
        let first = &r.ranked[0];
        assert_eq!(first.candidate.surface, d.build().unwrap(), "ranked {}", first.candidate.label);
        assert_eq!(first.rows_scored, h);
        assert!(first.size_bytes > cut.len() as u64);
        assert!(r.margin().unwrap() > 1.2, "{:?}", r.margin());
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

    #[test]
    fn random_bytes_score_as_random() {
        let r = random_roughness(None, 4).unwrap();
        // Twice the variance of a uniform byte.
        assert!((r - 10922.5).abs() < 150.0, "{r}");
        assert!(!super::super::content::stands_out(r * 0.98, r) && super::super::content::stands_out(r * 0.5, r));
        let f = Format::parse("RGBA8_UNORM").unwrap();
        let rf = random_roughness(Some(&f), 4).unwrap();
        assert!((rf - r).abs() < 300.0, "{rf} {r}");
        // A float format clamps random bits to 0 or 1: a different reference, computed.
        let f = Format::parse("R32_FLOAT").unwrap();
        assert!(random_roughness(Some(&f), 4).is_ok());
    }
}
