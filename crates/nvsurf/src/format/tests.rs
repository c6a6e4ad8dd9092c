//! Table consistency and name resolution.
use super::*;

#[test]
fn every_name_of_every_row_resolves_with_its_kind_prefix() {
    for t in texture_formats() {
        for n in t.names() {
            for p in ["tex:", "TEXTURE:"] {
                let f = Format::parse(&alloc::format!("{p}{n}")).unwrap();
                assert_eq!((f.kind(), f.id()), (Kind::Texture, t.id), "{p}{n}");
            }
        }
    }
    for c in color_formats() {
        for n in c.names() {
            let f = Format::parse(&alloc::format!("color:{n}")).unwrap();
            assert_eq!((f.kind(), f.id()), (Kind::Color, c.id), "color:{n}");
        }
    }
    for z in zeta_formats() {
        for n in z.names() {
            let f = Format::parse(&alloc::format!("Zeta:{}", n.to_ascii_lowercase())).unwrap();
            assert_eq!((f.kind(), f.id()), (Kind::Zeta, z.id), "zeta:{n}");
        }
    }
}

#[test]
fn bare_names_resolve_texture_then_zeta_then_color() {
    let rows: Vec<(Kind, u8, Vec<&str>)> = texture_formats()
        .iter()
        .map(|t| (Kind::Texture, t.id, t.names()))
        .chain(zeta_formats().iter().map(|z| (Kind::Zeta, z.id, z.names())))
        .chain(color_formats().iter().map(|c| (Kind::Color, c.id, c.names())))
        .collect();
    for (kind, id, names) in &rows {
        for n in names {
            let f = Format::parse(&n.to_ascii_lowercase()).unwrap();
            // The first row (in texture, zeta, color order) carrying this name wins.
            let first = rows.iter().find(|r| r.2.iter().any(|m| m.eq_ignore_ascii_case(n))).unwrap();
            assert_eq!((f.kind(), f.id()), (first.0, first.1), "{n}");
            // Exception: "Y" color formats (Y1_8X8 = BITMAP, 0xff = NVIDIA R32) copy C0 into
            // all components, the texture format of the same name reads C0 as R only.
            let y_color = *kind == Kind::Color && color_formats().iter().any(|c| c.id == *id && c.assign == "Y");
            if (first.0, first.1) != (*kind, *id) && !y_color {
                // Shared names decode the same bits the same way by default.
                let other = Format::from_id(*kind, *id).unwrap();
                assert_eq!(other.elem_size_bytes(), f.elem_size_bytes(), "{n}");
                let bytes: Vec<u8> = (0..16u8).map(|i| i.wrapping_mul(29).wrapping_add(3)).collect();
                let mut a = [[0u32; 4]; 64];
                let mut b = [[0u32; 4]; 64];
                let size = f.elem_size_bytes() as usize;
                f.decode_element(&bytes[..size], &mut a).unwrap();
                other.decode_element(&bytes[..size], &mut b).unwrap();
                assert_eq!(a, b, "{n}: {:?} vs {:?}", f.id_name(), other.id_name());
            }
        }
    }
}

#[test]
fn ids_resolve_in_every_spelling() {
    for t in texture_formats() {
        for s in
            [alloc::format!("tex:{:#04x}", t.id), alloc::format!("tex:{}", t.id), alloc::format!("TEX:0X{:02X}", t.id)]
        {
            // A decimal that is also a texture name (8, 16, 32) is the name.
            let want = texture_formats().iter().find(|x| x.name == &s[4..]).map_or(t.id, |x| x.id);
            assert_eq!(Format::parse(&s).unwrap().id(), want, "{s}");
        }
        assert_eq!(Format::parse("tex:8").unwrap().id(), 0x1d);
        assert_eq!(Format::parse("tex:0x8").unwrap().id(), 0x08);
        assert_eq!(Format::parse(&Format::from_texture(t).id_name()).unwrap().texture().id, t.id);
    }
    assert_eq!(Format::parse("color:0xd5").unwrap().name(), "RGBA8_UNORM");
    assert_eq!(Format::parse("zeta:0x16").unwrap().name(), "Z24_S8");
    assert!(matches!(Format::parse("tex:0x3f"), Err(Error::Unsupported { .. })));
    assert!(matches!(Format::parse("color:0x300"), Err(Error::UnknownFormat { .. })));
}

#[test]
fn names_are_unique_within_a_kind() {
    let check = |all: Vec<Vec<&str>>| {
        let mut seen: Vec<String> = Vec::new();
        for names in all {
            for n in names {
                let l = n.to_ascii_lowercase();
                assert!(!seen.contains(&l), "duplicate name {n}");
                seen.push(l);
            }
        }
    };
    check(texture_formats().iter().map(|t| t.names()).collect());
    check(color_formats().iter().map(|t| t.names()).collect());
    check(zeta_formats().iter().map(|t| t.names()).collect());
}

#[test]
fn tables_are_sorted_and_consistent() {
    assert!(texture_formats().windows(2).all(|w| w[0].id < w[1].id));
    assert!(color_formats().windows(2).all(|w| w[0].id < w[1].id));
    assert!(zeta_formats().windows(2).all(|w| w[0].id < w[1].id));
    for t in texture_formats() {
        if let Layout::Simple(bits) = t.layout {
            let sum: u32 = bits.iter().map(|&b| u32::from(b)).sum();
            assert!(sum <= u32::from(t.elem_size_bytes) * 8, "{}", t.name);
        }
        assert!(matches!(t.elem_size_bytes, 1 | 2 | 4 | 8 | 12 | 16));
    }
    for c in color_formats() {
        let t = texture_format(c.texture_id).expect("color maps to a known texture format");
        assert_eq!(c.texture().id, t.id);
        let n = t.layout.component_count();
        assert_eq!(c.assign.len(), n, "color {:#x} assigns every component of {}", c.id, t.name);
    }
    for z in zeta_formats() {
        let first = z.texture().layout;
        for &(_, id) in z.textures {
            let t = texture_format(id).expect("zeta maps to a known texture format");
            assert!(matches!(t.layout, Layout::Zeta(_)));
            assert_eq!(t.layout, first, "all coverage modes of {} share one layout", z.name);
        }
    }
}

#[test]
fn errata_are_applied() {
    // E1: 0x21 is 11_11_10; the YUV formats are 0x22 (UYVY) and 0x23 (YUY2).
    assert_eq!(Format::parse("11_11_10").unwrap().id(), 0x21);
    assert_eq!(Format::parse("U8_YA8_V8_YB8").unwrap().id(), 0x22);
    assert_eq!(Format::parse("YA8_U8_YB8_V8").unwrap().id(), 0x23);
    // E2: zeta Z24_X8 -> texture 0x2a, Z24_S8 -> texture 0x2b.
    assert_eq!(Format::parse("zeta:0x15").unwrap().texture().id, 0x2a);
    assert_eq!(Format::parse("zeta:0x16").unwrap().texture().id, 0x2b);
    // E4: color 0xec is RG8 sint, 0xed RG8 uint.
    assert_eq!(Format::parse("color:0xec").unwrap().components()[0], ComponentType::Sint);
    assert_eq!(Format::parse("color:0xed").unwrap().components()[0], ComponentType::Uint);
    // Answers: compressed ids and sizes, 0x1d AY8, 0x1c Y8_VIDEO / Y1_8X8, MS8_CS24.
    for (name, id, size) in [
        ("dxt1", 0x24, 8),
        ("BC2", 0x25, 16),
        ("dxt5", 0x26, 16),
        ("rgtc1", 0x27, 8),
        ("bc4", 0x27, 8),
        ("rgtc2", 0x28, 16),
        ("bc5", 0x28, 16),
        ("bc6h_sf16", 0x10, 16),
        ("bc6h", 0x11, 16),
        ("bc7", 0x17, 16),
    ] {
        let f = Format::parse(name).unwrap();
        assert_eq!((f.id(), f.elem_size_bytes(), f.block_dims()), (id, size, (4, 4)), "{name}");
    }
    assert_eq!(Format::parse("AY8").unwrap().id(), 0x1d);
    assert_eq!(Format::parse("AY8").unwrap().kind(), Kind::Color);
    assert_eq!(Format::parse("Y8_VIDEO").unwrap().elem_size_bytes(), 1);
    assert_eq!(Format::parse("32_32_32").unwrap().elem_size_bytes(), 12);
    let z = zeta_formats().iter().find(|z| z.id == 0x18).unwrap();
    assert!(z.textures.contains(&("MS8_CS24", 0x3b)));
}

#[test]
fn generations() {
    use crate::gpu::Gpu;
    let bc7 = Format::parse("bc7").unwrap();
    assert!(!bc7.exists_on(Gpu::Gt215) && bc7.exists_on(Gpu::Gf100));
    let z16 = Format::parse("zeta:Z16").unwrap();
    assert!(!z16.exists_on(Gpu::G84) && z16.exists_on(Gpu::G200));
    assert!(Format::parse("8_8_8_8").unwrap().exists_on(Gpu::G80));
    assert!(!Format::parse("8_8_8_8").unwrap().exists_on(Gpu::Nv40));
}

#[test]
fn unknown_names_get_suggestions() {
    match Format::parse("RGBA8_UNROM") {
        Err(Error::UnknownFormat { suggestions, .. }) => {
            assert!(suggestions.iter().any(|s| s == "RGBA8_UNORM"), "{suggestions:?}")
        }
        other => panic!("{other:?}"),
    }
    match Format::parse("dxt7") {
        Err(e @ Error::UnknownFormat { .. }) => assert!(e.to_string().contains("; did you mean"), "{e}"),
        other => panic!("{other:?}"),
    }
    assert!(ComponentType::parse("unrom").is_err());
    assert_eq!(Swizzle::parse("ONE_FLOAT").unwrap(), Swizzle::OneFloat);
}

#[test]
fn color_formats_imply_swizzle() {
    let f = Format::parse("BGRA8_UNORM").unwrap();
    assert_eq!(f.swizzle(), [Swizzle::C2, Swizzle::C1, Swizzle::C0, Swizzle::C3]);
    let f = Format::parse("RGBX8_UNORM").unwrap();
    assert_eq!(f.swizzle(), [Swizzle::C0, Swizzle::C1, Swizzle::C2, Swizzle::OneFloat]);
    let f = Format::parse("A8_UNORM").unwrap();
    assert_eq!(f.swizzle(), [Swizzle::Zero, Swizzle::Zero, Swizzle::Zero, Swizzle::C0]);
    let f = Format::parse("color:0xff").unwrap(); // Y uint: copied to all components
    assert_eq!(f.swizzle(), [Swizzle::C0; 4]);
    let f = Format::parse("RG32_UINT").unwrap();
    assert_eq!(f.swizzle()[3], Swizzle::OneInt);
}
