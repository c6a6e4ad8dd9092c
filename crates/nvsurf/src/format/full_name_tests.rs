//! `Format::full_name` resolves back to the same format, for every row of every table and its
//! sRGB variant; `NAME_srgb` parses where sRGB applies and is one line where it does not.
use super::*;
use alloc::vec::Vec;

/// Every row of the G80+ tables, every pre-G80 row of both tables, every alias's format.
fn every_format() -> Vec<Format> {
    let mut v: Vec<Format> = texture_formats().iter().map(Format::from_texture).collect();
    v.extend(color_formats().iter().map(Format::from_color));
    v.extend(zeta_formats().iter().map(Format::from_zeta));
    for t in PreG80Table::ALL {
        v.extend(t.rows().iter().map(Format::from_pre_g80));
    }
    v.extend(aliases().iter().filter_map(Alias::resolve));
    v
}

#[test]
fn full_names_parse_back_to_the_same_format() {
    let mut checked = 0;
    for f in every_format() {
        let mut variants = alloc::vec![f];
        if f.srgb_applies() && !f.is_srgb() {
            variants.push(f.with_srgb(true));
        }
        for g in variants {
            let n = g.full_name();
            assert_eq!(Format::parse(&n).ok(), Some(g), "{n} ({} srgb {})", g.id_name(), g.is_srgb());
            assert!(n.len() < 64, "{n} is longer than the C name field");
            // On a GPU that has it, the GPU's lookup gives the same format.
            if let Some(r) = g.pre_g80() {
                let gpu = match r.table {
                    PreG80Table::Nv10 => Gpu::Nv30,
                    PreG80Table::Nv097 => Gpu::Nv2a,
                    PreG80Table::Nv40 => Gpu::Nv40,
                };
                if g.exists_on(gpu) {
                    assert_eq!(Format::parse_for(&n, gpu).ok(), Some(g), "{n} on {gpu}");
                }
            } else {
                assert_eq!(Format::parse_for(&n, Gpu::Gm20b).ok(), Some(g), "{n} on gm20b");
            }
            checked += 1;
        }
    }
    assert!(checked > 400, "only {checked} formats");
}

#[test]
fn full_names_say_what_the_row_name_does_not() {
    let p = |n: &str| Format::parse(n).unwrap();
    // sRGB: the reviewers' case (`bc1_srgb` was reported as plain `DXT1`).
    assert_eq!(p("bc1_srgb").name(), "DXT1");
    assert_eq!(p("bc1_srgb").full_name(), "DXT1_srgb");
    assert_eq!(p("bc1").full_name(), "DXT1");
    assert_eq!(p("BC7_SRGB_BLOCK").full_name(), p("bc7_srgb").full_name());
    assert_eq!(p("RGBA8_SRGB").full_name(), "RGBA8_SRGB");
    // A bare name that means another table's row gets its table.
    assert_eq!(p("zeta:Z24_S8").full_name(), "zeta:Z24_S8");
    assert_eq!(p("Z24_S8").full_name(), "Z24_S8");
    // Pre-G80 rows name their table.
    let a8r8g8b8 = Format::parse_for("A8R8G8B8", Gpu::Nv2a).unwrap();
    assert_eq!(a8r8g8b8.full_name(), "nv2a:A8R8G8B8");
    assert_eq!(Format::parse_for("A8R8G8B8", Gpu::Nv40).unwrap().full_name(), "nv40:A8R8G8B8");
    // A name the pre-G80 table lacks is refused (#41 item 2), not read as G80's.
    assert!(Format::parse_for("A8B8G8R8", Gpu::Nv40).is_err());
    // Types a row does not imply: the alias that says them.
    let snorm = p("VK_FORMAT_BC4_SNORM_BLOCK");
    assert_eq!(p(&snorm.full_name()), snorm);
    assert_ne!(snorm.full_name(), snorm.name());
}

#[test]
fn srgb_suffix_applies_to_unorm_colour_formats_only() {
    let p = |n: &str| Format::parse(n);
    let f = p("A8B8G8R8_srgb").unwrap();
    assert!(f.is_srgb() && f.name() == "8_8_8_8" && f.full_name() == "8_8_8_8_srgb");
    assert!(p("color:RGBA8_UNORM_SRGB").unwrap().is_srgb());
    let nv = Format::parse_for("A8R8G8B8_srgb", Gpu::Nv2a).unwrap();
    assert!(nv.is_srgb() && nv.pre_g80().is_some());
    for bad in ["Z16_srgb", "RGBA16_FLOAT_srgb", "bc4_srgb", "RGBA8_SRGB_srgb", "RGBA8_SNORM_srgb"] {
        let e = p(bad).unwrap_err().to_string();
        assert!(e.contains(bad) && e.contains("_srgb needs"), "{bad}: {e}");
        assert!(!e.contains('\n'));
    }
    // Unknown bases stay unknown names, with suggestions.
    assert!(matches!(p("NOPE_srgb"), Err(crate::Error::UnknownFormat { .. })));
}
