//! The storage type tables checked against copies of their sources:
//! - `tests/data/storage/g80_storage_types_doc.txt`: envytools `docs/hw/memory/g80-surface.rst`
//!   "G80 storage types" (verbatim);
//! - `tests/data/storage/g80_vm_storage_type.xml`, `gf100_vm_storage_type.xml`: the
//!   `G80_STORAGE_TYPE` / `GF100_STORAGE_TYPE` enums of envytools rnndb `memory/g80_vm.xml` and
//!   `memory/gf100_vm.xml`.

use nvsurf::msaa::MsMode;
use nvsurf::storage::{self, Class, CompressionRule, ElemRule, Reorder, Table};
use nvsurf::Gpu;

const DOC: &str = include_str!("data/storage/g80_storage_types_doc.txt");
const G80_XML: &str = include_str!("data/storage/g80_vm_storage_type.xml");
const GF100_XML: &str = include_str!("data/storage/gf100_vm_storage_type.xml");

fn rnndb_values(xml: &str) -> Vec<(u32, String, Option<String>)> {
    xml.lines()
        .filter_map(|l| {
            let l = l.trim();
            let v = l.strip_prefix("<value value=\"0x")?;
            let (id, rest) = v.split_once('"')?;
            let name = rest.split("name=\"").nth(1)?.split('"').next()?.to_string();
            let variants = rest.split("variants=\"").nth(1).map(|s| s.split('"').next().unwrap().to_string());
            Some((u32::from_str_radix(id, 16).unwrap(), name, variants))
        })
        .collect()
}

#[test]
fn g80_table_matches_rnndb_including_zeta_types() {
    let values = rnndb_values(G80_XML);
    assert_eq!(values.len(), 66);
    let types = Table::G80.types();
    for (id, name, variants) in &values {
        if name == "USEVM" {
            // Valid only in DMA objects: not a storage type of a page.
            assert!(storage::lookup(Gpu::G80, *id).is_none());
            continue;
        }
        let t = types.iter().find(|t| u32::from(t.id) == *id).unwrap_or_else(|| panic!("{id:#x} {name} missing"));
        assert!(t.name == name || t.aliases.contains(&name.as_str()), "{id:#x}: {} vs rnndb {name}", t.name);
        let want = if variants.as_deref() == Some("G200-") { Gpu::G200 } else { Gpu::G80 };
        assert_eq!(t.min_gpu, want, "{name}");
        // Zeta types: reordering, samples and layout follow the rnndb name.
        if t.class == Class::Zeta {
            assert_eq!(t.reorder, Some(if name.contains("LSR") { Reorder::Lsr } else { Reorder::Ssr }), "{name}");
            let ElemRule::Zeta(f) = t.elem else { panic!("{name}") };
            assert!(
                name.starts_with(f.format_names()[0])
                    || name.starts_with(f.format_names()[0].replace("_X24", "").as_str()),
                "{name} {f:?}"
            );
            for m in MsMode::all() {
                let tag = format!("_{}", m.name());
                // "_MS4" names the mode unless a "_CS" suffix follows (then it is MS4_CSn).
                let named = name.match_indices(&tag).any(|(i, _)| {
                    let after = &name[i + tag.len()..];
                    after.is_empty() || (after.starts_with('_') && !after.starts_with("_CS"))
                });
                if m.is_csaa() || [MsMode::MS1, MsMode::MS2, MsMode::MS4, MsMode::MS8].contains(&m) {
                    assert_eq!(t.samples.accepts(m), named, "{name} {m}");
                }
            }
        }
    }
    assert_eq!(types.len(), values.len() - 1);
}

#[test]
fn gf100_table_matches_rnndb() {
    let values = rnndb_values(GF100_XML);
    let kinds = Table::Gf100.types();
    assert_eq!(kinds.len(), values.len());
    for (id, name, _) in &values {
        let k = storage::lookup(Gpu::Gf100, *id).unwrap_or_else(|| panic!("{id:#x} missing"));
        assert_eq!(k.name, name);
        assert_eq!(k.provisional, name.starts_with("UNK"));
        assert_eq!(k.compression, CompressionRule::InKind(name.contains("_COMP")), "{name}");
        assert_eq!(k.reorder, None, "rnndb gives no reordering for GF100");
        if let ElemRule::Sizes(s) = k.elem {
            for (tag, size) in [("TILED_32", 4u8), ("TILED_64", 8), ("TILED_128", 16)] {
                if name.contains(tag) && !name.contains(&format!("{tag}8")) {
                    assert_eq!(s, [size], "{name}");
                }
            }
        }
    }
    // GF100 table is used from GF100 up to (not including) TU102.
    assert_eq!(Table::for_gpu(Gpu::Gk104), Some(Table::Gf100));
    assert_eq!(Table::for_gpu(Gpu::Tu102), None);
    assert_eq!(Table::for_gpu(Gpu::Gt215), Some(Table::G80));
    assert_eq!(Table::for_gpu(Gpu::Nv40), None);
}

/// Parses the document's color storage type paragraphs and compares each field.
#[test]
fn g80_color_types_match_the_document() {
    let mut n = 0;
    let lines: Vec<&str> = DOC.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        let Some(rest) = l.strip_prefix("storage type 0x") else { continue };
        let (id, name) = rest.split_once(": ").unwrap();
        let id = u32::from_str_radix(id, 16).unwrap();
        let body = lines[i + 1];
        let t = storage::lookup(Gpu::G200, id).unwrap();
        assert_eq!(t.name, name.trim());
        n += 1;
        let lrr = body.split("long range reordering: ").nth(1).unwrap().split_whitespace().next().unwrap();
        assert_eq!(t.reorder.unwrap().name(), lrr, "{name}");
        let comp = body.split("valid compression modes: ").nth(1).unwrap();
        let comp = comp.split(" valid").next().unwrap().split(" There").next().unwrap();
        let want: Vec<&str> = comp.split(", ").map(str::trim).collect();
        assert_eq!(t.compression_names(), want, "{name}");
        if let Some(fmts) = body.split("valid surface formats: ").nth(1) {
            let fmts = fmts.split(" valid multisampling").next().unwrap();
            match t.elem {
                ElemRule::Sizes(s) => {
                    let sizes: Vec<String> = s.iter().map(|b| b.to_string()).collect();
                    let text = if sizes.len() == 1 {
                        format!("any non-zeta with element size of {} bytes", sizes[0])
                    } else {
                        format!(
                            "any non-zeta with element size of {}, or {} bytes",
                            sizes[..sizes.len() - 1].join(", "),
                            sizes.last().unwrap()
                        )
                    };
                    assert_eq!(fmts, text, "{name}");
                }
                ElemRule::Format24 => assert_eq!(fmts, "texture format 8_8_8_X8 and corresponding color formats"),
                other => panic!("{name}: {other:?}"),
            }
            let ms = body.split("valid multisampling modes: ").nth(1).unwrap().trim();
            let accepts: Vec<MsMode> = MsMode::all().filter(|m| t.samples.accepts(*m)).collect();
            match ms {
                "any" => assert_eq!(accepts.len(), 11, "{name}"),
                "MS1, MS2*, MS4*" => assert!(
                    accepts.iter().all(|m| [1, 2, 4].contains(&m.family())) && accepts.len() == 6,
                    "{name} {accepts:?}"
                ),
                "MS8*" => assert!(accepts.iter().all(|m| m.family() == 8) && accepts.len() == 4, "{name} {accepts:?}"),
                other => panic!("{other}"),
            }
        }
    }
    assert_eq!(n, 17, "pitch + 16 blocklinear color types");
}

#[test]
fn parse_type_names_and_numbers() {
    assert_eq!(storage::parse_type(Gpu::G80, "0x70").unwrap(), 0x70);
    assert_eq!(storage::parse_type(Gpu::G80, "blocklinear").unwrap(), 0x70);
    assert_eq!(storage::parse_type(Gpu::G80, "TILED_32_MS4").unwrap(), 0x78);
    assert_eq!(storage::parse_type(Gpu::Gf100, "z24_s8").unwrap(), 0x11);
    assert!(storage::parse_type(Gpu::G80, "BLOCKLINEAR_33").is_err());
}
