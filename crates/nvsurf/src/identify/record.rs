//! The record of one ranked candidate, as `nvsurf guess --json` and the Python package's
//! `nvsurf.guess` give it: one type, built once from a [`Ranked`] candidate, that every face
//! renders ([`CandidateRecord::fields`] names the keys in one place).

use super::rank::Ranked;
use crate::layout::Surface;
use alloc::string::String;

/// What the `nvsurf untile` flags of every candidate begin with: the surface in the dump, as
/// the user named it (the layout flags follow, [`super::Candidate::untile_flags`]).
#[derive(Debug, Clone, Copy)]
pub struct Subject<'a> {
    /// The `--gpu` name as given; `None` for `any` (each candidate names its own GPU).
    pub gpu: Option<&'a str>,
    /// The element flag: `--format NAME` or `--elem-size BYTES`.
    pub element: &'a str,
    /// The size as given: `WxH`.
    pub size: &'a str,
}

/// One ranked candidate: what `guess` reports for it. Every field carries its unit.
#[derive(Debug, Clone, PartialEq)]
pub struct CandidateRecord {
    /// The rank, from 1.
    pub rank: usize,
    /// The candidate's short name ([`super::Candidate::label`]).
    pub label: String,
    /// The layout's name: `blocklinear`, `pitch`, `swizzled`.
    pub layout: &'static str,
    /// The GPU whose layout it is.
    pub gpu: &'static str,
    /// The gob order; `None` unless blocklinear.
    pub gob_order: Option<&'static str>,
    /// `explicit` (the block is given, not sized); `None` unless blocklinear.
    pub block_policy: Option<&'static str>,
    /// The block's log2 size in gobs, `[x, y, z]`; `None` unless blocklinear.
    pub block_log2: Option<[u32; 3]>,
    /// The pitch; `None` unless pitch.
    pub pitch_bytes: Option<u64>,
    /// Offset of the surface in the dump.
    pub offset_bytes: u64,
    /// The full `nvsurf untile` flags: `--gpu`, the element, `--size`, `--offset` (when not 0)
    /// and the layout's flags.
    pub flags: String,
    /// Bytes the surface needs.
    pub size_bytes: u64,
    /// The whole surface lies in the dump.
    pub fits: bool,
    /// Rows of the sample scored ([`Ranked::rows_scored`]).
    pub rows_scored: u32,
    /// The roughness (lower is smoother); `None` when the dump is too short for it.
    pub roughness: Option<f64>,
    /// The sample is one byte repeated: no picture.
    pub flat: bool,
    /// The fraction of the sample's bytes in all-zero runs.
    pub blank_fraction: f64,
    /// The rank (from 1) of an earlier candidate whose sample untiled to the same bytes.
    pub same_as: Option<usize>,
}

pub use crate::records::FieldValue;

impl CandidateRecord {
    /// The record of `r`, ranked `rank` (from 1), with its surface at `offset_bytes` of a dump
    /// holding `available_bytes` from there.
    pub fn new(rank: usize, r: &Ranked, offset_bytes: u64, available_bytes: u64, subject: Subject) -> CandidateRecord {
        let c = &r.candidate;
        let (gob_order, block_log2) = match c.surface {
            Surface::BlockLinear(b) => (Some(b.gob_order().name()), Some(b.block_log2_requested())),
            _ => (None, None),
        };
        let pitch_bytes = match c.surface {
            Surface::Pitch(p) => Some(p.pitch_bytes()),
            _ => None,
        };
        let gpu = match subject.gpu {
            Some(g) => g.trim().to_ascii_lowercase(),
            None => String::from(c.desc.gpu.name()),
        };
        let off = if offset_bytes == 0 { String::new() } else { alloc::format!(" --offset {offset_bytes}") };
        CandidateRecord {
            rank,
            label: c.label.clone(),
            layout: c.surface.kind().name(),
            gpu: c.desc.gpu.name(),
            gob_order,
            block_policy: block_log2.map(|_| "explicit"),
            block_log2,
            pitch_bytes,
            offset_bytes,
            flags: alloc::format!("--gpu {gpu} {} --size {}{off} {}", subject.element, subject.size, c.untile_flags()),
            size_bytes: r.size_bytes,
            fits: r.size_bytes <= available_bytes,
            rows_scored: r.rows_scored,
            roughness: r.roughness,
            flat: r.flat,
            blank_fraction: r.blank_fraction,
            same_as: r.same_as.map(|j| j + 1),
        }
    }

    /// The record's keys and values, in the order `guess --json` prints them: the one list of
    /// keys that every face renders.
    pub fn fields(&self) -> [(&'static str, FieldValue<'_>); 17] {
        use FieldValue as V;
        let text = |s: Option<&'static str>| s.map_or(V::None, V::Text);
        let uint = |n: Option<u64>| n.map_or(V::None, V::Uint);
        [
            ("rank", V::Uint(self.rank as u64)),
            ("label", V::Text(&self.label)),
            ("layout", V::Text(self.layout)),
            ("gpu", V::Text(self.gpu)),
            ("gob_order", text(self.gob_order)),
            ("block_policy", text(self.block_policy)),
            ("block_log2", self.block_log2.map_or(V::None, V::Triple)),
            ("pitch_bytes", uint(self.pitch_bytes)),
            ("offset_bytes", V::Uint(self.offset_bytes)),
            ("flags", V::Text(&self.flags)),
            ("size_bytes", V::Uint(self.size_bytes)),
            ("fits", V::Bool(self.fits)),
            ("rows_scored", V::Uint(u64::from(self.rows_scored))),
            ("roughness", self.roughness.map_or(V::None, V::Float)),
            ("flat", V::Bool(self.flat)),
            ("blank_fraction", V::Float(self.blank_fraction)),
            ("same_as", uint(self.same_as.map(|j| j as u64))),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::Gpu;

    #[test]
    fn record_of_a_ranked_pitch_candidate() {
        let cands = crate::identify::candidates(Gpu::Gf100, 4, [16, 8, 1], 16 * 8 * 4).unwrap();
        let bytes = alloc::vec![0u8; 16 * 8 * 4];
        let ranking = crate::identify::rank(&bytes, bytes.len() as u64, cands, None).unwrap();
        let r = ranking.ranked.iter().find(|r| matches!(r.candidate.surface, Surface::Pitch(_))).unwrap();
        let subject = Subject { gpu: Some(" GF100"), element: "--elem-size 4", size: "16x8" };
        let rec = CandidateRecord::new(3, r, 64, 0, subject);
        assert_eq!(rec.layout, "pitch");
        assert_eq!(rec.pitch_bytes, r.candidate.desc.pitch_bytes);
        assert!(rec.flags.starts_with("--gpu gf100 --elem-size 4 --size 16x8 --offset 64 --layout pitch --pitch "));
        assert!(!rec.fits && rec.gob_order.is_none() && rec.block_log2.is_none());
        let keys: alloc::vec::Vec<_> = rec.fields().iter().map(|(k, _)| *k).collect();
        assert_eq!(keys.len(), 17);
        assert_eq!(rec.fields()[0], ("rank", FieldValue::Uint(3)));
    }
}
