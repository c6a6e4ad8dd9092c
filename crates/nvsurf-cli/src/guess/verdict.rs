//! The verdict lines `guess` prints after its table (and its JSON `hint`): one true statement
//! for each state a ranking can be in, from "no bytes to score" to "the first is 3x smoother".
//!
//! Whether anything stands out is judged against random bytes ([`identify::random_roughness`]
//! in the same format): a dump with no picture ranks its smoothest window first all the same,
//! and only this comparison says that its roughness is that of noise.

use super::auto::{class, MOSTLY_BLANK};
use super::Found;
use nvsurf::identify;

/// What the verdict is drawn from.
pub struct Facts<'a> {
    /// Candidates best first (as printed).
    pub found: &'a [Found],
    /// `--offset auto`: the offsets searched; `None` with a given offset.
    pub auto_offsets: Option<usize>,
    /// Bytes of the dump from the given offset (with `--offset auto`, the whole dump).
    pub available: u64,
    /// The first's lead over the next different layout.
    pub margin: Option<f64>,
    /// The roughness of random bytes in this format.
    pub random: f64,
    /// The GPU address of the dump's first byte (`--address`).
    pub base: u64,
    /// Whether GF100+ gob orders are among the candidates (they differ only inside gobs).
    pub gob_orders: bool,
    /// How many candidates the table shows (the note on rows scored is for those).
    pub shown: usize,
}

/// The rows a candidate's sample has (what it is scored on when the dump holds it whole).
fn sample_rows(f: &Found) -> u32 {
    identify::sample_region(&f.r.candidate.surface).h
}

/// The verdict: one line per statement, each true of the ranking.
pub fn lines(v: &Facts) -> Vec<String> {
    let mut out = Vec::new();
    let auto = v.auto_offsets.is_some();
    let scored: Vec<&Found> = v.found.iter().filter(|f| f.r.roughness.is_some()).collect();
    let unscored = v.found.len() - scored.len();
    let where_ = match v.auto_offsets {
        Some(1) => " at the one offset tried".to_string(),
        Some(n) => format!(" at the {n} offsets tried"),
        None => String::new(),
    };
    if scored.is_empty() {
        let smallest = v.found.iter().map(|f| f.r.size_bytes).min().unwrap_or(0);
        out.push(format!(
            "no layout could be scored: the dump holds {} bytes{}, fewer than half the sample rows of every layout \
             (the smallest surface is {smallest} bytes)",
            v.available,
            if auto { "" } else { " from the offset" }
        ));
        return out;
    }
    let pictures: Vec<&&Found> = scored.iter().filter(|f| !f.r.flat).collect();
    let Some(best) = pictures.first() else {
        out.push(format!(
            "every layout's sample is one byte repeated{where_}, as zeros, cleared memory and padding are: there \
             is no picture to rank, and the dump does not tell the layouts apart"
        ));
        return out;
    };
    let r = best.r.roughness.unwrap_or(0.0);
    if !identify::stands_out(r, v.random) {
        out.push(format!(
            "no layout stands out{where_}: the smoothest scores {r:.0}, as random bytes do ({:.0} in this format): \
             this is no picture of this format and size{}",
            v.random,
            if auto { "" } else { " (--offset auto searches the dump)" }
        ));
        if auto {
            out.push(align_hint(v.base));
        }
        return out;
    }
    if auto {
        out.push(start_line(best));
    }
    if r == 0.0 {
        out.push(
            "its picture is one colour (roughness 0): every layout untiles it alike, so the dump does not tell which \
             layout it has"
                .to_string(),
        );
        return out;
    }
    margin_lines(v, scored.len(), unscored, &mut out);
    coverage_lines(v, unscored, &mut out);
    out
}

/// Where blocklinear surfaces are tried, and how to say where the dump starts.
fn align_hint(base: u64) -> String {
    if base == 0 {
        "blocklinear surfaces are tried where their offset is a multiple of the gob (256 bytes on G80-GT215, 512 \
         on GF100+): if the dump does not start at such a GPU address, give it with --address BASE"
            .to_string()
    } else {
        format!(
            "blocklinear surfaces are tried where {base:#x} (--address) plus their offset is a multiple of the gob \
             (256 bytes on G80-GT215, 512 on GF100+)"
        )
    }
}

/// With `--offset auto`: where the best picture starts, and whether its window is mostly blank.
fn start_line(best: &Found) -> String {
    let o = best.offset;
    if class(best) == 0 {
        format!("the surface most likely starts at offset {o} ({o:#x})")
    } else {
        format!(
            "the best window starts at offset {o} ({o:#x}), but {:.0}% of its sample is zero bytes (more than \
             {:.0}%): the picture is mostly transparent black, or only its end lies there",
            best.r.blank_fraction * 100.0,
            MOSTLY_BLANK * 100.0
        )
    }
}

/// How far ahead the first picture is (`scored` candidates scored, `unscored` not).
fn margin_lines(v: &Facts, scored: usize, unscored: usize, out: &mut Vec<String>) {
    let auto = v.auto_offsets.is_some();
    let gob_orders = if v.gob_orders { "gob orders differ only inside 512-byte gobs, and " } else { "" };
    match v.margin {
        Some(m) if m >= 1.1 => out.push(format!("the first is {m:.2}x smoother than the next different layout")),
        Some(m) => {
            out.push(format!(
                "the first is only {m:.2}x smoother than the next different layout: compare their pictures \
                 (--pictures DIR); {gob_orders}noise, a flat image or a wrong --size hide the rest"
            ));
            if auto {
                out.push(align_hint(v.base));
            }
        }
        None if auto => out.push(
            "no other layout gives a picture with content at the offsets tried: their samples are mostly blank, one \
             byte repeated or cut short"
                .to_string(),
        ),
        None if scored >= 2 => out.push(
            "every layout scored untiles the sample to the same bytes: the dump does not tell them apart".to_string(),
        ),
        None if unscored == 0 => out.push("only one layout was tried: nothing to compare it with".to_string()),
        None => {}
    }
}

/// Which candidates the dump is too short for: many unscored, or some scored on fewer rows.
fn coverage_lines(v: &Facts, unscored: usize, out: &mut Vec<String>) {
    let auto = v.auto_offsets.is_some();
    if unscored > 0 && unscored * 2 >= v.found.len() {
        out.push(format!(
            "{unscored} of {} layouts went unscored: the dump ({} bytes{}) ends before half of their sample rows",
            v.found.len(),
            v.available,
            if auto { "" } else { " from the offset" }
        ));
    }
    if v.found.iter().take(v.shown).any(|f| f.r.roughness.is_some() && f.r.rows_scored < sample_rows(f)) {
        out.push(
            "* scored on the rows the dump holds: it ends inside those surfaces (past the rows, only padding may be \
             missing)"
                .to_string(),
        );
    }
}
