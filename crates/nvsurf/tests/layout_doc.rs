//! The document's 13x17x3 example (envytools `docs/hw/memory/g80-surface.rst`, "Blocklinear
//! surfaces"), all 663 cells, against a verbatim copy kept in `tests/data/doc_example_13x17x3.txt`.

use nvsurf::layout::{map, BlockLinear, BlockLinearParams, Surface};
use nvsurf::Gpu;

const DOC: &str = include_str!("data/doc_example_13x17x3.txt");

/// ERRATA E5: the 9 wrong cells of the document, as (x, y, z, document value, formula value).
const E5: [(u32, u32, u32, u64, u64); 9] = [
    (9, 4, 1, 0x0a10, 0x0e10),
    (9, 5, 1, 0x0a50, 0x0e50),
    (9, 6, 1, 0x0a90, 0x0e90),
    (9, 7, 1, 0x0ad0, 0x0ed0),
    (11, 4, 1, 0x0a30, 0x0e30),
    (11, 5, 1, 0x0a70, 0x0e70),
    (11, 6, 1, 0x0ab0, 0x0eb0),
    (11, 7, 1, 0x0af0, 0x0ef0),
    (3, 16, 2, 0x2030, 0x5030),
];

fn example() -> Surface {
    Surface::BlockLinear(BlockLinear::new(&BlockLinearParams::new(Gpu::G80, 16, [13, 17, 3], [1, 1, 1])).unwrap())
}

fn doc_text() -> String {
    DOC.lines().filter(|l| !l.starts_with('#')).map(|l| format!("{l}\n")).collect()
}

#[test]
fn all_663_cells_match_except_the_nine_e5_cells() {
    let tables = map::parse_cells(&doc_text());
    assert_eq!(tables.len(), 3);
    let s = example();
    let (mut same, mut differ) = (0, Vec::new());
    for (z, rows) in tables.iter().enumerate() {
        assert_eq!(rows.len(), 17);
        for (y, cells) in rows.iter().enumerate() {
            assert_eq!(cells.len(), 13);
            for (x, &doc) in cells.iter().enumerate() {
                let ours = s.address_of(x as u32, y as u32, z as u32).unwrap();
                if ours == doc {
                    same += 1;
                } else {
                    differ.push((x as u32, y as u32, z as u32, doc, ours));
                }
            }
        }
    }
    assert_eq!(same, 654);
    let mut want = E5.to_vec();
    want.sort();
    differ.sort();
    assert_eq!(differ, want, "the cells that differ must be exactly ERRATA E5's, with the formula's values");
}

#[test]
fn rendered_map_is_the_document_table_with_e5_fixed() {
    // Apply E5 to the document's text, cell by cell, and fix its spelling of "boundary".
    let mut lines: Vec<String> = doc_text().replace("bounduary", "boundary").lines().map(String::from).collect();
    for (x, y, z, bad, good) in E5 {
        let mut table = -1i32;
        for line in lines.iter_mut() {
            if line.starts_with("z == ") {
                table += 1;
            }
            let label = format!("|{y:>2}|");
            if table == z as i32 && line.len() > 4 && line[1..].starts_with(&label) {
                let cells: Vec<&str> = line[5..].split('|').filter(|c| !c.is_empty()).collect();
                assert_eq!(cells[x as usize], format!("{bad:04x}"));
                let mut fixed = String::new();
                let mut idx = 0;
                for part in line.split_inclusive('|') {
                    if part.len() == 5 && part.ends_with('|') && line.find(part).is_some() && !part.starts_with(' ') {
                        if idx == x {
                            fixed.push_str(&format!("{good:04x}|"));
                        } else {
                            fixed.push_str(part);
                        }
                        idx += 1;
                    } else {
                        fixed.push_str(part);
                    }
                }
                *line = fixed;
            }
        }
    }
    let want: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let got = map::render(&example(), 1 << 16).unwrap();
    assert_eq!(got, want);
}
