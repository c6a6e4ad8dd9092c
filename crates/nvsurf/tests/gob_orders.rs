//! The CPU-side in-gob byte orders against Mesa's nil, and the Blackwell defaults (#40 items
//! 5-7).
//!
//! The tables below are facts read from Mesa's `src/nouveau/nil/copy.rs` at commit
//! 157fa86f6d5def2bec5c91f33be70c138250ab7f: for each copy routine, which 16-byte (or 8-byte)
//! line of the linear gob (byte column, row) lands at which offset of the tiled gob. They are
//! written out here as data, not derived from our formulas, so the formulas are checked
//! against nil's code. The `fermi-comment` table is nil's doc comment on `GOBType::FermiColor`
//! (`src/nouveau/nil/tiling.rs`, same commit), as sector numbers.

use nvsurf::format::Format;
use nvsurf::layout::{GobOrder, LayoutKind, ALL_GOB_ORDERS};
use nvsurf::texture::TextureType;
use nvsurf::{Error, Gpu, SurfaceSpec, TextureSpec};

/// (tiled offset, byte column, row) of each 16-byte line in the left 32-byte half of a gob;
/// the right half is the same 256 bytes later and 32 columns to the right. `CopyGOBFermi`.
const NIL_FERMI_LINES: [(u32, u32, u32); 16] = [
    (0x00, 0, 2),
    (0x10, 0, 3),
    (0x20, 0, 0),
    (0x30, 0, 1),
    (0x40, 16, 0),
    (0x50, 16, 1),
    (0x60, 16, 2),
    (0x70, 16, 3),
    (0xc0, 0, 6),
    (0xd0, 0, 7),
    (0xe0, 0, 4),
    (0xf0, 0, 5),
    (0x80, 16, 4),
    (0x90, 16, 5),
    (0xa0, 16, 6),
    (0xb0, 16, 7),
];

/// `CopyGOBTuring2D`, as above.
const NIL_TURING_LINES: [(u32, u32, u32); 16] = [
    (0x00, 0, 0),
    (0x10, 0, 1),
    (0x20, 0, 2),
    (0x30, 0, 3),
    (0x40, 16, 0),
    (0x50, 16, 1),
    (0x60, 16, 2),
    (0x70, 16, 3),
    (0x80, 0, 4),
    (0x90, 0, 5),
    (0xa0, 0, 6),
    (0xb0, 0, 7),
    (0xc0, 16, 4),
    (0xd0, 16, 5),
    (0xe0, 16, 6),
    (0xf0, 16, 7),
];

/// `CopyGOBBlackwell2D2BPP`, as above.
const NIL_BLACKWELL16_LINES: [(u32, u32, u32); 16] = [
    (0x00, 0, 0),
    (0x10, 0, 1),
    (0x20, 0, 2),
    (0x30, 0, 3),
    (0x80, 16, 0),
    (0x90, 16, 1),
    (0xa0, 16, 2),
    (0xb0, 16, 3),
    (0x40, 0, 4),
    (0x50, 0, 5),
    (0x60, 0, 6),
    (0x70, 0, 7),
    (0xc0, 16, 4),
    (0xd0, 16, 5),
    (0xe0, 16, 6),
    (0xf0, 16, 7),
];

/// nil's doc comment on `GOBType::FermiColor`: the sector (32 bytes, 16 B x 2 rows) at each
/// (row pair, 16-byte column).
const NIL_FERMI_COMMENT_SECTORS: [[u32; 4]; 4] = [[1, 2, 9, 10], [0, 3, 8, 11], [5, 6, 13, 14], [4, 7, 12, 15]];

/// Checks `order` byte by byte against a table of 16-byte lines in the left half.
fn check_lines(order: GobOrder, lines: &[(u32, u32, u32); 16]) {
    for half in 0..2u32 {
        for &(off, x0, y) in lines {
            for i in 0..16 {
                let x = 32 * half + x0 + i;
                assert_eq!(order.offset_in_gob(x, y), 256 * half + off + i, "{order} byte ({x}, {y})");
            }
        }
    }
}

#[test]
fn fermi_is_nils_copy_code_and_fermi_comment_its_doc_comment() {
    // The byte: (0, 4).
    assert_eq!(GobOrder::Fermi.offset_in_gob(0, 4), 224);
    assert_eq!(GobOrder::FermiComment.offset_in_gob(0, 4), 160);
    check_lines(GobOrder::Fermi, &NIL_FERMI_LINES);
    for y in 0..8u32 {
        for x in 0..64u32 {
            let sector = NIL_FERMI_COMMENT_SECTORS[(y / 2) as usize][(x / 16) as usize];
            let want = 32 * sector + 16 * (y % 2) + x % 16;
            assert_eq!(GobOrder::FermiComment.offset_in_gob(x, y), want, "fermi-comment ({x}, {y})");
        }
    }
    // They agree on rows 0-3 and differ on every byte of rows 4-7: 256 of 512.
    let differ = (0..8u32)
        .flat_map(|y| (0..64u32).map(move |x| (x, y)))
        .filter(|&(x, y)| GobOrder::Fermi.offset_in_gob(x, y) != GobOrder::FermiComment.offset_in_gob(x, y))
        .count();
    assert_eq!(differ, 256);
    assert_eq!(GobOrder::parse("fermi-comment").unwrap(), GobOrder::FermiComment);
    assert!(!GobOrder::Fermi.is_verified() && !GobOrder::FermiComment.is_verified());
}

#[test]
fn turing_and_blackwell16_are_nils_copy_code() {
    check_lines(GobOrder::Turing, &NIL_TURING_LINES);
    check_lines(GobOrder::Blackwell16, &NIL_BLACKWELL16_LINES);
}

#[test]
fn blackwell8_is_nils_copy_code() {
    // `CopyGOBBlackwell2D1BPP`: the 8-byte line of byte column 8 * c, row r lands at
    // 0x40 * c + 8 * r.
    for c in 0..8u32 {
        for r in 0..8u32 {
            for i in 0..8 {
                assert_eq!(
                    GobOrder::Blackwell8.offset_in_gob(8 * c + i, r),
                    0x40 * c + 8 * r + i,
                    "({}, {r})",
                    8 * c + i
                );
            }
        }
    }
    assert_eq!(GobOrder::Blackwell8.run_bytes(), 8);
    assert_eq!(GobOrder::parse("Blackwell-8bit").unwrap(), GobOrder::Blackwell8);
    // The 8-byte run table the tiling walks use.
    let runs = GobOrder::Blackwell8.run8_offsets(8);
    assert_eq!((runs[0], runs[1], runs[8], runs[63]), (0, 64, 8, 7 * 64 + 56));
}

#[test]
fn every_order_is_a_permutation_of_the_512_bytes() {
    assert_eq!(ALL_GOB_ORDERS.len(), 7);
    for order in ALL_GOB_ORDERS {
        let mut seen = [false; 512];
        for y in 0..8u32 {
            for x in 0..64u32 {
                let o = order.offset_in_gob(x, y) as usize;
                assert!(o < 512 && !seen[o], "{order}: ({x}, {y}) -> {o} twice or out of the gob");
                seen[o] = true;
            }
        }
        assert!(seen.iter().all(|&s| s), "{order}");
        assert_eq!(GobOrder::parse(order.name()).unwrap(), order);
    }
}

fn fmt(name: &str) -> Format {
    Format::parse(name).unwrap()
}

#[test]
fn blackwell_defaults_follow_nils_choose() {
    // nil `GOBType::choose`: 1-byte elements Blackwell8Bit, 2-byte Blackwell16Bit, else
    // TuringColor2D; the Z24 formats BlackwellZ24.
    for gpu in [Gpu::Gb100, Gpu::Gb102, Gpu::Gb202, Gpu::Gb203, Gpu::Gb205, Gpu::Gb206, Gpu::Gb207] {
        for (name, want) in [
            ("R8_UNORM", GobOrder::Blackwell8),
            ("R8G8_UNORM", GobOrder::Blackwell16),
            ("R16_UNORM", GobOrder::Blackwell16),
            ("Z16", GobOrder::Blackwell16),
            ("A8B8G8R8", GobOrder::Turing),
            ("Z32", GobOrder::Turing),
            ("Z32_S8_X24", GobOrder::Turing),
            ("bc1", GobOrder::Turing),
            ("bc7", GobOrder::Turing),
        ] {
            let d = TextureSpec::new(gpu, TextureType::D2, &fmt(name), [64, 64, 1]).desc().unwrap();
            assert_eq!(d.gob_order, want, "{gpu} {name}");
        }
        let d = SurfaceSpec::with_elem_size(gpu, 1, [64, 64, 1]).desc().unwrap();
        assert_eq!(d.gob_order, GobOrder::Blackwell8, "{gpu} elem-size 1");
        for z24 in ["Z24_S8", "S8_Z24", "Z24_X8"] {
            let e = TextureSpec::new(gpu, TextureType::D2, &fmt(z24), [64, 64, 1]).resolve().unwrap_err();
            assert!(matches!(e, Error::Unsupported { field: "gob order", .. }), "{e:?}");
            let msg = e.to_string();
            assert!(msg.contains("BlackwellZ24") && !msg.contains('\n'), "{msg}");
        }
    }
}

#[test]
fn blackwell_layouts_follow_adas() {
    // Same format, size, levels and layers: the same offsets, blocks and sizes on AD102 and
    // GB202 (nil lays both out with one rule). A 4-byte format keeps the Turing order on both.
    for (name, size, ty, levels, layers) in [
        ("A8B8G8R8", [300, 200, 1], TextureType::D2, 9, 1),
        ("bc7", [256, 256, 1], TextureType::D2Array, 9, 3),
        ("R16_UNORM", [100, 60, 20], TextureType::D3, 6, 1),
        ("R8_UNORM", [1000, 3, 1], TextureType::D2, 10, 1),
    ] {
        let spec = |gpu| {
            TextureSpec::new(gpu, ty, &fmt(name), size).levels(levels).layers(layers).gob_order(GobOrder::Vm).build()
        };
        let (ada, bw) = (spec(Gpu::Ad102).unwrap(), spec(Gpu::Gb202).unwrap());
        assert_eq!((ada.size_bytes(), ada.layer_stride_bytes()), (bw.size_bytes(), bw.layer_stride_bytes()), "{name}");
        assert_eq!(ada.levels().len(), bw.levels().len());
        for (a, b) in ada.levels().iter().zip(bw.levels()) {
            let key =
                |l: &nvsurf::texture::Level| (l.offset_bytes, l.size_bytes, l.block_log2, l.row_bytes, l.slice_bytes);
            assert_eq!(key(a), key(b), "{name} level {}", a.level);
        }
    }
}

#[test]
fn depth_without_a_byte_order_has_its_geometry() {
    // 24-bit depth on Blackwell, and depth/stencil on desktop Fermi to Hopper: resolve()
    // refuses, resolve_geometry() answers with the geometry any byte order would give.
    for (gpu, name) in [(Gpu::Gb202, "Z24_S8"), (Gpu::Gh100, "Z24_S8"), (Gpu::Gh100, "Z32_S8_X24"), (Gpu::Gf100, "Z16")]
    {
        let spec = TextureSpec::new(gpu, TextureType::D2Array, &fmt(name), [300, 200, 1]).levels(9).layers(2);
        assert!(spec.resolve().is_err(), "{gpu} {name}");
        let (d, a) = spec.resolve_geometry().unwrap();
        assert!(a.gob_order_unknown && a.gob_order.is_none(), "{gpu} {name}");
        assert!(a.describe().contains("gob order unknown"), "{}", a.describe());
        let fields = a.fields();
        assert_eq!(format!("{:?}", fields[1]), "(\"gob_order_source\", Text(\"unknown\"))");
        assert_eq!(format!("{:?}", fields[2]), "(\"gob_order_known\", Bool(false))");
        let geometry = d.build().unwrap();
        let given = spec.clone().gob_order(GobOrder::Turing).build().unwrap();
        assert_eq!(geometry.size_bytes(), given.size_bytes());
        for (a, b) in geometry.levels().iter().zip(given.levels()) {
            assert_eq!((a.offset_bytes, a.size_bytes, a.block_log2), (b.offset_bytes, b.size_bytes, b.block_log2));
        }
        // A surface too.
        let s = SurfaceSpec::new(gpu, &fmt(name), [300, 200, 1]);
        assert!(s.resolve().is_err());
        let (d, a) = s.resolve_geometry().unwrap();
        assert!(a.gob_order_unknown && d.layout == LayoutKind::BlockLinear);
        assert_eq!(
            d.build().unwrap().size_bytes(),
            s.clone().gob_order(GobOrder::Turing).build().unwrap().size_bytes()
        );
    }
    // A known order is not unknown, and given orders are never.
    let (_, a) = TextureSpec::new(Gpu::Gb202, TextureType::D2, &fmt("Z16"), [8, 8, 1]).resolve_geometry().unwrap();
    assert!(!a.gob_order_unknown && a.gob_order == Some((GobOrder::Blackwell16, nvsurf::spec::Source::Default)));
}
