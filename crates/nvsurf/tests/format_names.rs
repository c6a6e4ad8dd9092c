//! Every format id and name the sources give resolves, with its kind prefix and (when the name
//! is not shared with another kind) bare, case-insensitively. The list in
//! `data/formats/names.txt` is typed from the documents, ERRATA, rnndb and NVIDIA's headers
//! (see its header), independently of the library's tables.

use nvsurf::format::{zeta_formats, Format, Kind};

const NAMES: &str = include_str!("data/formats/names.txt");

fn rows() -> Vec<(Kind, u8, &'static str)> {
    NAMES
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let kind = match f[0] {
                "texture" => Kind::Texture,
                "color" => Kind::Color,
                _ => Kind::Zeta,
            };
            (kind, u8::from_str_radix(f[1].trim_start_matches("0x"), 16).unwrap(), f[2])
        })
        .collect()
}

fn prefix(k: Kind) -> &'static str {
    match k {
        Kind::Texture => "tex",
        Kind::Color => "color",
        Kind::Zeta => "zeta",
    }
}

#[test]
fn every_source_name_resolves_to_its_id() {
    let rows = rows();
    assert!(rows.len() > 300);
    for &(kind, id, name) in &rows {
        for spelling in [name.to_string(), name.to_ascii_lowercase(), name.to_ascii_uppercase()] {
            let f = Format::parse(&format!("{}:{spelling}", prefix(kind))).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!((f.kind(), f.id()), (kind, id), "{}:{spelling}", prefix(kind));
        }
        // Bare: unique names go to their row; shared names follow texture > zeta > color.
        let kinds: Vec<Kind> =
            rows.iter().filter(|r| r.2.eq_ignore_ascii_case(name) && r.1 != 0).map(|r| r.0).collect();
        let first = [Kind::Texture, Kind::Zeta, Kind::Color].into_iter().find(|k| kinds.contains(k)).unwrap();
        let f = Format::parse(name).unwrap();
        assert_eq!(f.kind(), first, "{name}");
        if first == kind {
            assert_eq!(f.id(), id, "{name}");
        }
    }
}

#[test]
fn every_source_id_resolves_by_id() {
    for (kind, id, _) in rows() {
        for s in [format!("{}:{id:#04x}", prefix(kind)), format!("{}:0X{id:02X}", prefix(kind).to_uppercase())] {
            let f = Format::parse(&s).unwrap_or_else(|e| panic!("{s}: {e}"));
            assert_eq!((f.kind(), f.id()), (kind, id), "{s}");
        }
    }
}

#[test]
fn zeta_texture_pairs_follow_errata_e2() {
    // envytools `docs/hw/memory/g80-surface.rst` "Zeta surface format", with ERRATA E2 (0x15 <->
    // 0x2a, 0x16 <-> 0x2b swapped back) and "Answers" (MS8_CS24 texture formats 0x3b-0x3e).
    let want: &[(u8, &[u8])] = &[
        (0x13, &[0x3a]),
        (0x0a, &[0x2f]),
        (0x14, &[0x29]),
        (0x15, &[0x2a]),
        (0x16, &[0x2b]),
        (0x18, &[0x2c, 0x2d, 0x2e, 0x3b]),
        (0x19, &[0x30]),
        (0x1d, &[0x31, 0x32, 0x37, 0x3c]),
        (0x1e, &[0x33, 0x34, 0x38, 0x3d]),
        (0x1f, &[0x35, 0x36, 0x39, 0x3e]),
    ];
    for &(z, tex) in want {
        let row = zeta_formats().iter().find(|r| r.id == z).unwrap();
        let got: Vec<u8> = row.textures.iter().map(|t| t.1).collect();
        assert_eq!(got, tex, "zeta {z:#x}");
    }
}

#[test]
fn element_sizes_follow_the_document() {
    // envytools `docs/hw/memory/g80-surface.rst` "Surface formats": element size groups; ERRATA
    // Answers for the compressed ids.
    let groups: &[(u32, &[u8])] = &[
        (16, &[0x01, 0x10, 0x11, 0x17, 0x25, 0x26, 0x28]),
        (12, &[0x02]),
        (8, &[0x03, 0x04, 0x05, 0x1f, 0x24, 0x27, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39]),
        (
            4,
            &[
                0x07, 0x08, 0x09, 0x0c, 0x0d, 0x0e, 0x0f, 0x20, 0x21, 0x22, 0x23, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e,
                0x2f,
            ],
        ),
        (2, &[0x12, 0x13, 0x14, 0x15, 0x16, 0x18, 0x1b, 0x3a]),
        (1, &[0x1c, 0x1d, 0x1e]),
    ];
    for &(size, ids) in groups {
        for &id in ids {
            let f = Format::from_id(Kind::Texture, id).unwrap();
            assert_eq!(f.elem_size_bytes(), size, "tex:{id:#x}");
        }
    }
    assert_eq!(Format::parse("bc1").unwrap().block_dims(), (4, 4));
    assert_eq!(Format::parse("bitmap").unwrap().block_dims(), (8, 8));
    assert_eq!(Format::parse("yuy2").unwrap().block_dims(), (2, 1));
}
