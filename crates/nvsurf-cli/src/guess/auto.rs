//! `guess --offset auto`: where in the dump the surface starts. The dump is summarised as it
//! streams past ([`identify::OffsetScan`]); at the ends of zero runs and the strongest
//! boundaries (and 0), each candidate is scored where the boundary, rounded down and up, puts
//! its start on its alignment (gob, 128 or 64 bytes) counted from the dump's GPU address
//! (`--address`). Windows that are mostly blank rank below windows with a picture.

use super::{rank_from_file, Found, Gpus};
use nvsurf::identify::{self, Candidate};
use nvsurf::Error;

/// Boundaries tried by `--offset auto`, besides up to half as many ends of zero runs
/// ([`identify::OffsetScan::offsets`]).
const AUTO_BOUNDARIES: usize = 16;

/// A window holds a picture when at most this fraction of its sample is blank (zero runs,
/// [`identify::blank_fraction`]): "most of the picture" is there.
pub const MOSTLY_BLANK: f64 = 0.5;

/// The order of a found candidate: a picture (0), a mostly blank window (1), a sample of one
/// byte repeated (2), unscored (3).
pub fn class(f: &Found) -> u8 {
    match (f.r.roughness, f.r.flat) {
        (Some(_), false) if f.r.blank_fraction <= MOSTLY_BLANK => 0,
        (Some(_), false) => 1,
        (Some(_), true) => 2,
        (None, _) => 3,
    }
}

/// What the search found.
pub struct AutoResult {
    /// Distinct candidates (duplicates at one offset left out), best first: by [`class`], then
    /// by roughness.
    pub found: Vec<Found>,
    /// Candidates scored or listed, over every offset.
    pub tried: usize,
    /// The dump's length in bytes.
    pub len: u64,
    /// The first's lead over the next picture (both class 0); infinite when the first is flat.
    pub margin: Option<f64>,
    /// Offsets tried.
    pub offsets: usize,
}

/// The offsets near `boundary` where a surface whose start needs `align` bytes of alignment
/// may start in a dump whose first byte is at GPU address `base`: the boundary rounded down
/// and up to where `base + offset` is a multiple of `align` (none that would lie before the
/// dump or past u64).
fn aligned_near(boundary: u64, base: u64, align: u64) -> impl Iterator<Item = u64> {
    let at = base.checked_add(boundary);
    let down = at.map(|a| a / align * align).and_then(|a| a.checked_sub(base));
    let up = at.and_then(|a| a.div_ceil(align).checked_mul(align)).and_then(|a| a.checked_sub(base));
    down.into_iter().chain(up)
}

/// Runs the search on the regular file `path` (a pipe cannot be read twice: refused).
pub fn rank_auto(
    path: &std::path::Path,
    gpus: Gpus,
    elem: u32,
    size: [u32; 3],
    format: Option<&nvsurf::format::Format>,
    base: u64,
) -> Result<AutoResult, Box<dyn std::error::Error>> {
    use std::io::Read;
    let shown = path.display();
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read '{shown}': {e}"))?;
    if !meta.is_file() {
        return Err(Error::Unsupported {
            field: "offset",
            value: "auto".into(),
            rule: "the offset search reads the dump twice (a scan, then each candidate's sample): give a regular \
                   file (`--input - < FILE` is one), not a pipe or device, or give --offset BYTES"
                .into(),
        }
        .into());
    }
    let len = meta.len();
    super::refuse_empty(path, len, None)?;
    let mut scan = identify::OffsetScan::new(elem);
    let mut f = std::fs::File::open(path).map_err(|e| format!("cannot read '{shown}': {e}"))?;
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = match f.read(&mut buf) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            r => r.map_err(|e| format!("cannot read '{shown}': {e}"))?,
        };
        if n == 0 {
            break;
        }
        scan.feed(&buf[..n]);
    }
    let mut offsets: Vec<u64> = Vec::new();
    for b in scan.offsets(AUTO_BOUNDARIES) {
        for align in [64u64, 128, 256, 512] {
            offsets.extend(aligned_near(b, base, align));
        }
    }
    offsets.retain(|&o| o < len);
    offsets.sort_unstable();
    offsets.dedup();
    let aligned =
        |o: u64, c: &Candidate| base.checked_add(o).is_some_and(|a| a % identify::start_alignment_bytes(c) == 0);
    let mut found = Vec::new();
    let mut tried = 0;
    for &o in &offsets {
        let available = len - o;
        let cands: Vec<Candidate> =
            gpus.candidates(elem, size, available)?.into_iter().filter(|c| aligned(o, c)).collect();
        if cands.is_empty() {
            continue;
        }
        tried += cands.len();
        let ranking = rank_from_file(path, o, available, cands, format)?;
        found.extend(ranking.ranked.into_iter().filter(|r| r.same_as.is_none()).map(|r| Found { offset: o, r }));
    }
    found.sort_by(|x, y| {
        class(x).cmp(&class(y)).then(x.r.roughness.partial_cmp(&y.r.roughness).unwrap_or(std::cmp::Ordering::Equal))
    });
    let margin = match (found.first(), found.get(1)) {
        (Some(a), Some(b)) if class(a) == 0 && class(b) == 0 => {
            let (x, y) = (a.r.roughness.unwrap_or(0.0), b.r.roughness.unwrap_or(0.0));
            Some(if x == 0.0 { f64::INFINITY } else { y / x })
        }
        _ => None,
    };
    Ok(AutoResult { found, tried, len, margin, offsets: offsets.len() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_align_from_the_dump_address() {
        let near = |b, base, align| aligned_near(b, base, align).collect::<Vec<_>>();
        assert_eq!(near(1000, 0, 512), [512, 1024]);
        // The dump starts at GPU address 0x1100: offset 0xf00 is address 0x2000.
        assert_eq!(near(0xf10, 0x1100, 512), [0xf00, 0x1100]);
        // Address 0x1000 lies before the dump's start: only the offset after.
        assert_eq!(near(10, 0x1100, 512), [0x100]);
        assert_eq!(near(10, u64::MAX - 4, 512), Vec::<u64>::new());
    }
}
