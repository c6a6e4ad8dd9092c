//! Every multisample mode of `nvsurf::msaa` checked against the document's own text.
//!
//! The data file `tests/data/msaa/g80_surface_multisample.txt` is a verbatim copy of the section
//! "Multisampled surfaces" of envytools' "G80 surface formats" (`docs/hw/memory/g80-surface.rst`).
//! This test parses it, applies the project errata by name (E3, E9, E10) and compares the result
//! with the table.

use nvsurf::msaa::{MsMode, Position};
use nvsurf::Gpu;

const DOC: &str = include_str!("data/msaa/g80_surface_multisample.txt");

/// (id, position in sixteenths, grid coordinates)
type DocSample = (u8, (u8, u8), (u8, u8));

#[derive(Debug, Clone, Default)]
struct DocMode {
    id: u8,
    name: String,
    grid: Option<(u8, u8)>,
    gen: Option<String>,
    samples: Vec<DocSample>,
    coverage: Vec<(u8, (u8, u8), Vec<u8>)>,
    c_bits: Option<u8>,
    /// (low, high as written, sample id as written, associations)
    fields: Vec<(u8, u8, u8, Vec<u8>)>,
}

fn frac(s: &str) -> u8 {
    // "0x0.6" -> 6
    let h = s.trim().strip_prefix("0x0.").expect("fixed-point fraction");
    u8::from_str_radix(h, 16).unwrap()
}

fn list(s: &str) -> Vec<u8> {
    s.split(',').map(|v| u8::from_str_radix(v.trim(), 16).unwrap()).collect()
}

fn parse_doc() -> Vec<DocMode> {
    let mut modes: Vec<DocMode> = Vec::new();
    for raw in DOC.lines().filter(|l| !l.starts_with('#')) {
        let line = raw.trim().trim_start_matches('•').trim();
        if let Some(rest) = line.strip_prefix("mode 0x") {
            let (id, rest) = rest.split_once(':').unwrap();
            let rest = rest.trim();
            let name = rest.split_whitespace().next().unwrap().to_string();
            let mut m = DocMode { id: u8::from_str_radix(id, 16).unwrap(), name, ..Default::default() };
            for part in rest.split('[').skip(1) {
                let inner = part.split(']').next().unwrap();
                if let Some((w, h)) = inner.split_once('×') {
                    m.grid = Some((w.parse().unwrap(), h.parse().unwrap()));
                } else if inner.ends_with('-') {
                    m.gen = Some(inner.trim_end_matches('-').to_string());
                }
            }
            modes.push(m);
        } else if let Some(rest) = line.strip_prefix("coverage sample ") {
            let (id, rest) = rest.split_once(':').unwrap();
            let (pos, belongs) = rest.split_once("), belongs to").unwrap();
            let (x, y) = pos.trim().trim_start_matches('(').split_once(',').unwrap();
            let m = modes.last_mut().unwrap();
            m.coverage.push((u8::from_str_radix(id, 16).unwrap(), (frac(x), frac(y)), list(belongs)));
        } else if let Some(rest) = line.strip_prefix("sample ") {
            let (id, rest) = rest.split_once(':').unwrap();
            let (pos, grid) = rest.split_once(") [").unwrap();
            let (x, y) = pos.trim().trim_start_matches('(').split_once(',').unwrap();
            let (gx, gy) = grid.trim_end_matches(']').split_once(',').unwrap();
            let m = modes.last_mut().unwrap();
            m.samples.push((id.parse().unwrap(), (frac(x), frac(y)), (gx.parse().unwrap(), gy.parse().unwrap())));
        } else if let Some(rest) = line.strip_prefix("C component is ") {
            modes.last_mut().unwrap().c_bits = Some(rest.split_whitespace().next().unwrap().parse().unwrap());
        } else if line.contains("associations:") {
            let (range, rest) = line.split_once(": sample ").unwrap();
            let (lo, hi) = range.split_once('-').unwrap();
            let (id, assoc) = rest.split_once(" associations:").unwrap();
            modes.last_mut().unwrap().fields.push((
                lo.parse().unwrap(),
                hi.parse().unwrap(),
                u8::from_str_radix(id, 16).unwrap(),
                list(assoc),
            ));
        }
    }
    modes
}

/// Applies the errata to the parsed document, returning the corrected modes.
fn apply_errata(mut modes: Vec<DocMode>) -> Vec<DocMode> {
    // E3: modes 0x4 and 0x5 are swapped; whole entries swap.
    for m in modes.iter_mut() {
        m.id = match m.id {
            0x4 => 0x5,
            0x5 => 0x4,
            other => other,
        };
    }
    modes.sort_by_key(|m| m.id);
    for m in modes.iter_mut() {
        // E9: MS4_CS12 "31-23: sample c" means bits 21-23.
        if m.name == "MS4_CS12" {
            for f in m.fields.iter_mut().filter(|f| f.0 == 31 && f.1 == 23) {
                f.0 = 21;
            }
        }
        // E10: MS8_CS8 rows all say "sample 8"; they are samples 8..f in order.
        if m.name == "MS8_CS8" {
            for (i, f) in m.fields.iter_mut().enumerate() {
                f.2 = 8 + i as u8;
            }
        }
    }
    modes
}

#[test]
fn raw_document_has_the_known_mistakes() {
    let raw = parse_doc();
    let by_id = |id| raw.iter().find(|m| m.id == id).unwrap();
    // E3 as printed: 0x4 is called MS2_ALT but has a 2x1 grid, 0x5 MS8_ALT with 8 samples.
    assert_eq!(by_id(0x4).name, "MS2_ALT");
    assert_eq!(by_id(0x4).samples.len(), 2);
    assert_eq!(by_id(0x5).name, "MS8_ALT");
    // E9 as printed: a field whose low bit is above its high bit.
    assert!(by_id(0x9).fields.iter().any(|f| f.0 == 31 && f.1 == 23 && f.2 == 0xc));
    // E10 as printed: every MS8_CS8 row says "sample 8".
    assert!(by_id(0xa).fields.iter().all(|f| f.2 == 8));
    assert_eq!(by_id(0xa).fields.len(), 8);
    // Mode 0x6 and 0xb have no positions in the document.
    assert!(by_id(0x6).samples.is_empty() && by_id(0xb).samples.is_empty());
}

#[test]
fn table_matches_document_after_errata_e3_e9_e10() {
    let doc = apply_errata(parse_doc());
    assert_eq!(doc.len(), 11, "modes 0x0-0x6 and 0x8-0xb");
    for d in &doc {
        let mode = MsMode::from_id(u32::from(d.id)).unwrap();
        let info = mode.info();
        assert_eq!(info.id, d.id);
        if d.name != "???" {
            assert_eq!(info.names[0], d.name, "mode {:#x}", d.id);
        }
        if let Some((w, h)) = d.grid {
            assert_eq!((info.grid_w, info.grid_h), (w, h), "{}", d.name);
        }
        match d.gen.as_deref() {
            Some("GT215") => assert_eq!(info.min_gpu, Gpu::Gt215, "{}", d.name),
            Some("GF100") => assert_eq!(info.min_gpu, Gpu::Gf100, "{}", d.name),
            None => assert_eq!(info.min_gpu, Gpu::G80, "{}", d.name),
            Some(g) => panic!("unexpected generation {g}"),
        }
        for &(id, (x, y), (gx, gy)) in &d.samples {
            let s = mode.sample(u32::from(id)).unwrap();
            assert_eq!(s.position, Some(Position { x_sixteenths: x, y_sixteenths: y }), "{} s{id}", d.name);
            assert_eq!(s.grid_xy, Some((gx, gy)), "{} s{id}", d.name);
        }
        if !d.samples.is_empty() {
            assert_eq!(d.samples.len(), info.full.len(), "{}", d.name);
        }
        assert_eq!(d.coverage.len(), info.coverage.len(), "{}", d.name);
        for (c, t) in d.coverage.iter().zip(info.coverage) {
            assert_eq!(c.0, t.id);
            assert_eq!(t.position, Some(Position { x_sixteenths: c.1 .0, y_sixteenths: c.1 .1 }));
            assert_eq!(t.belongs.unwrap(), c.2.as_slice(), "{} c{:#x}", d.name, c.0);
        }
        assert_eq!(info.c_bits_per_pixel, d.c_bits, "{}", d.name);
        assert_eq!(d.fields.len(), info.coverage.len(), "{}", d.name);
        for f in &d.fields {
            let t = info.coverage.iter().find(|c| c.id == f.2).unwrap();
            assert_eq!(t.c_bits, Some((f.0, f.1)), "{} field of sample {:#x}", d.name, f.2);
            // "the bits in C component ... are sorted by sample id": associations = sorted belongs.
            let mut sorted = t.belongs.unwrap().to_vec();
            sorted.sort_unstable();
            assert_eq!(sorted, f.3, "{} sample {:#x}", d.name, f.2);
        }
    }
}

#[test]
fn answers_for_modes_6_and_b() {
    // ERRATA "Answers": mode 0x6 is 4x4 (16 samples, GF100+); 0xb is 4x2 with 24 coverage samples.
    let m6 = MsMode::MS16.info();
    assert_eq!((m6.grid_w, m6.grid_h, m6.full.len()), (4, 4, 16));
    assert!(m6.full.iter().all(|s| s.position.is_none() && s.grid_xy.is_none()));
    let mb = MsMode::MS8_CS24.info();
    assert_eq!((mb.grid_w, mb.grid_h, mb.full.len(), mb.coverage_count), (4, 2, 8, 24));
    assert!(mb.full.iter().all(|s| s.position.is_none()));
    assert!(mb.coverage.is_empty() && mb.c_bits_per_pixel.is_none());
}

#[test]
fn float_positions_are_sixteenths() {
    let s = MsMode::MS4.sample(0).unwrap().position.unwrap();
    assert_eq!((s.x(), s.y()), (0.375, 0.125));
}
