//! DRM format modifiers: the bit fields of the Linux kernel's `include/uapi/drm/drm_fourcc.h`
//! (`DRM_FORMAT_MOD_NVIDIA_BLOCK_LINEAR_2D(c, s, g, k, h)`: h bits 0-3, bit 4 set, k bits 12-19,
//! g bits 20-21, s bit 22 and bits 26-27, c bits 23-25, vendor 0x03 in bits 56-63), the list NVK
//! offers and the checks it makes (Mesa `src/nouveau/nil/modifiers.rs`, `tiling.rs`,
//! `image.rs`, commit 157fa86f6d5def2bec5c91f33be70c138250ab7f), and the resolver applying a
//! modifier to a surface or texture.

use nvsurf::format::Format;
use nvsurf::gpu::{Family, ALL_GPUS};
use nvsurf::layout::{GobOrder, LayoutKind, Surface};
use nvsurf::modifier::{
    fit, modifiers_for, BlockLinear, Compression, GobKindGeneration, Modifier, ModifierError, SectorLayout,
    DRM_FORMAT_MOD_LINEAR,
};
use nvsurf::spec::Source;
use nvsurf::texture::{BlockPolicy, TextureType};
use nvsurf::{Error, Gpu, SurfaceSpec, TextureSpec};

const GENS: [GobKindGeneration; 3] = [GobKindGeneration::Fermi, GobKindGeneration::G80, GobKindGeneration::Turing];
const SECTORS: [SectorLayout; 4] =
    [SectorLayout::TegraK1, SectorLayout::Desktop, SectorLayout::Blackwell8Bpp, SectorLayout::Blackwell16Bpp];
const COMPRESSIONS: [Compression; 5] = [
    Compression::None,
    Compression::Rop3dLayout1,
    Compression::Rop3dLayout2,
    Compression::CdeHorizontal,
    Compression::CdeVertical,
];

/// The header's macro, written out independently of the library.
fn macro_2d(c: u64, s: u64, g: u64, k: u64, h: u64) -> u64 {
    (3u64 << 56)
        | 0x10
        | (h & 0xf)
        | ((k & 0xff) << 12)
        | ((g & 3) << 20)
        | ((s & 1) << 22)
        | ((s & 6) << 25)
        | ((c & 7) << 23)
}

#[test]
fn every_field_value_round_trips_and_matches_the_headers_macro() {
    let mut n = 0;
    for h in 0..=5u8 {
        for k in 0..=255u8 {
            for g in GENS {
                for s in SECTORS {
                    for c in COMPRESSIONS {
                        let b = BlockLinear {
                            block_height_log2: h,
                            pte_kind: k,
                            gob_kind_generation: g,
                            sector_layout: s,
                            compression: c,
                        };
                        let v = b.encode().unwrap();
                        let want = macro_2d(c.value().into(), s.value().into(), g.value().into(), k.into(), h.into());
                        assert_eq!(v, want, "{b:?}");
                        assert_eq!(Modifier::decode(v).unwrap(), Modifier::BlockLinear(b));
                        n += 1;
                    }
                }
            }
        }
    }
    assert_eq!(n, 6 * 256 * 3 * 4 * 5);
    assert_eq!(Modifier::decode(0).unwrap(), Modifier::Linear);
    assert_eq!(Modifier::Linear.encode().unwrap(), DRM_FORMAT_MOD_LINEAR);
}

#[test]
fn malformed_modifiers_are_refused_naming_the_field() {
    let ok = macro_2d(0, 1, 0, 0xfe, 4);
    let cases: [(u64, &str, u64); 9] = [
        (ok & !(0xff << 56) | (0x01 << 56), "vendor", 1), // Intel's vendor byte
        (ok & !0x10, "block-linear bit 4", 0),            // not block linear
        (ok | (1 << 5), "reserved bits 5-11", 1),         // reserved low
        (ok | (1 << 11), "reserved bits 5-11", 0x40),     // reserved low, top bit
        (ok | (1 << 28), "reserved bits 28-55", 1),       // reserved high
        (ok | (3 << 20), "gob kind generation", 3),       // g = 3
        (macro_2d(0, 4, 0, 0xfe, 4), "sector layout", 4), // s = 4
        (macro_2d(5, 1, 0, 0xfe, 4), "compression", 5),   // c = 5
        (macro_2d(0, 1, 0, 0xfe, 6), "block height log2", 6), // h = 6
    ];
    for (v, field, value) in cases {
        let e = Modifier::decode(v).unwrap_err();
        assert_eq!((e.field, e.value), (field, value), "{v:#x}: {e}");
        let msg = Error::from(e).to_string();
        assert!(msg.starts_with(&format!("modifier {field} {value:#x} is invalid: ")), "{msg}");
        assert!(!msg.contains('\n'));
    }
    let e: ModifierError = BlockLinear {
        block_height_log2: 6,
        pte_kind: 0,
        gob_kind_generation: GobKindGeneration::Fermi,
        sector_layout: SectorLayout::Desktop,
        compression: Compression::None,
    }
    .encode()
    .unwrap_err();
    assert_eq!(e.field, "block height log2");
}

fn fmt(name: &str) -> Format {
    Format::parse(name).unwrap()
}

/// nil's list: heights 5..0 with the generation's (g, s, k), then linear.
fn nil_list(g: u64, s: u64, k: u64) -> Vec<u64> {
    let mut v: Vec<u64> = (0..=5).rev().map(|h| macro_2d(0, s, g, k, h)).collect();
    v.push(0);
    v
}

#[test]
fn nils_list_per_generation() {
    let rgba8 = fmt("A8B8G8R8");
    // Fermi to Volta desktop: FermiColor gobs (g 0, s 1 desktop), GENERIC_16BX2 (0xfe).
    for gpu in [Gpu::Gf100, Gpu::Gk104, Gpu::Gm107, Gpu::Gm204, Gpu::Gp104, Gpu::Gv100] {
        assert_eq!(modifiers_for(gpu, &rgba8).unwrap(), nil_list(0, 1, 0xfe), "{gpu}");
    }
    assert_eq!(modifiers_for(Gpu::Gm204, &rgba8).unwrap()[0], 0x0300_0000_004f_e015);
    // Tegra before Turing: TegraColor gobs (g 0, s 0 Tegra K1), Xavier (gv11b) included as nil
    // has it (the kernel header says s 1 from Xavier on: docs/ERRATA.md).
    for gpu in [Gpu::Gk20a, Gpu::Gm20b, Gpu::Gp10b, Gpu::Gv11b] {
        assert_eq!(modifiers_for(gpu, &rgba8).unwrap(), nil_list(0, 0, 0xfe), "{gpu}");
    }
    // Turing to Hopper (and Orin, an Ampere-class SoC): TuringColor2D (g 2, s 1), GENERIC_MEMORY (6).
    for gpu in [Gpu::Tu102, Gpu::Tu117, Gpu::Ga102, Gpu::Ga10b, Gpu::Ad102, Gpu::Gh100] {
        assert_eq!(modifiers_for(gpu, &rgba8).unwrap(), nil_list(2, 1, 0x06), "{gpu}");
    }
    assert_eq!(modifiers_for(Gpu::Ga102, &rgba8).unwrap()[0], 0x0300_0000_0060_6015);
    // Every element size the same on Turing+ before Blackwell.
    for f in ["R8_UNORM", "R5G6B5", "RGBA16_FLOAT", "RGBA32_FLOAT"] {
        assert_eq!(modifiers_for(Gpu::Tu104, &fmt(f)).unwrap(), nil_list(2, 1, 0x06), "{f}");
        assert_eq!(modifiers_for(Gpu::Gm107, &fmt(f)).unwrap(), nil_list(0, 1, 0xfe), "{f}");
    }
    // Blackwell (if the GPU names exist): 1- and 2-byte formats take sector layouts 2 and 3.
    for &gpu in ALL_GPUS.iter().filter(|g| g.family() > Family::Hopper) {
        assert_eq!(modifiers_for(gpu, &fmt("R8_UNORM")).unwrap(), nil_list(2, 2, 0x06), "{gpu}");
        assert_eq!(modifiers_for(gpu, &fmt("R5G6B5")).unwrap(), nil_list(2, 3, 0x06), "{gpu}");
        assert_eq!(modifiers_for(gpu, &rgba8).unwrap(), nil_list(2, 1, 0x06), "{gpu}");
    }
}

#[test]
fn nil_offers_nothing_for_depth_non_targets_and_old_gpus() {
    for (gpu, f, why) in [
        (Gpu::Tu102, "Z24_S8", "depth and stencil"),
        (Gpu::Tu102, "Z16", "depth and stencil"),
        (Gpu::Tu102, "bc7", "colour targets"),
        (Gpu::Tu102, "R11G11B10_FLOAT", "no DRM fourcc"),
        (Gpu::Gm107, "rgb9e5", "colour targets"),
        (Gpu::G84, "A8B8G8R8", "Fermi (GF100) and later"),
    ] {
        let e = modifiers_for(gpu, &fmt(f)).unwrap_err();
        assert!(e.to_string().contains(why), "{gpu} {f}: {e}");
    }
}

#[test]
fn fit_refuses_what_nvk_refuses() {
    let rgba8 = fmt("A8B8G8R8");
    let fits = |gpu, m| fit(gpu, Some(&rgba8), 4, m);
    assert_eq!(fits(Gpu::Gm107, 0).unwrap(), Modifier::Linear);
    assert!(fits(Gpu::Gm107, macro_2d(0, 1, 0, 0xfe, 3)).is_ok());
    for (gpu, m, says) in [
        (
            Gpu::Gm107,
            macro_2d(0, 1, 2, 0x06, 3),
            "gob kind generation 2 (turing) does not fit 8_8_8_8 on gm107: NVK uses 0 (fermi)",
        ),
        (
            Gpu::Tu102,
            macro_2d(0, 1, 0, 0xfe, 3),
            "gob kind generation 0 (fermi) does not fit 8_8_8_8 on tu102: NVK uses 2 (turing)",
        ),
        (
            Gpu::Gm20b,
            macro_2d(0, 1, 0, 0xfe, 3),
            "sector layout 1 (desktop) does not fit 8_8_8_8 on gm20b: NVK uses 0 (tegra-k1)",
        ),
        (Gpu::Tu102, macro_2d(1, 1, 2, 0x06, 3), "compression 1 (rop3d-layout1) is not supported"),
        (Gpu::Tu102, macro_2d(0, 1, 2, 0x08, 3), "PTE kind 0x8 does not fit 8_8_8_8 on tu102: NVK chooses kind 0x6"),
        (Gpu::Gm107, macro_2d(0, 1, 0, 0x00, 3), "PTE kind 0x0 does not fit 8_8_8_8 on gm107: NVK chooses kind 0xfe"),
    ] {
        let e = fits(gpu, m).unwrap_err();
        let msg = e.to_string();
        assert!(matches!(e, Error::Unsupported { field: "modifier", .. }), "{msg}");
        assert!(msg.contains(says), "{gpu} {m:#x}: {msg}");
        assert!(!msg.contains('\n'));
    }
}

#[test]
fn a_surface_takes_layout_block_and_gob_order_from_the_modifier() {
    let rgba8 = fmt("A8B8G8R8");
    let m = macro_2d(0, 1, 0, 0xfe, 3);
    let (d, a) = SurfaceSpec::new(Gpu::Gm204, &rgba8, [256, 256, 1]).modifier(m).resolve().unwrap();
    assert_eq!((d.layout, d.block_log2, d.gob_order), (LayoutKind::BlockLinear, Some([0, 3, 0]), GobOrder::Fermi));
    assert_eq!((a.modifier, a.layout_source), (Some(m), Source::Modifier));
    assert_eq!(a.block_policy, Some((BlockPolicy::Explicit([0, 3, 0]), Source::Modifier)));
    assert_eq!(a.describe(), format!("gob order fermi (modifier {m:#x}), block log2 0,3,0 (modifier {m:#x})"));
    match d.build().unwrap() {
        Surface::BlockLinear(b) => assert_eq!(b.block_log2(), [0, 3, 0]),
        s => panic!("{s:?}"),
    }
    // Turing: the turing order; 32 gobs on a 16-row image clamp to 2 gobs (nil's Tiling::clamp).
    let m5 = macro_2d(0, 1, 2, 0x06, 5);
    let (d, _) = SurfaceSpec::new(Gpu::Ga102, &rgba8, [64, 16, 1]).modifier(m5).resolve().unwrap();
    assert_eq!((d.block_log2, d.gob_order), (Some([0, 1, 0]), GobOrder::Turing));
    // Linear: pitch, nil's row pitch (128 bytes; 256 on Kepler and GM10x).
    let (d, a) = SurfaceSpec::new(Gpu::Gm204, &rgba8, [80, 10, 1]).modifier(0).resolve().unwrap();
    assert_eq!((d.layout, d.pitch_bytes, a.gob_order), (LayoutKind::Pitch, Some(384), None));
    let (d, _) = SurfaceSpec::new(Gpu::Gk104, &rgba8, [80, 10, 1]).modifier(0).resolve().unwrap();
    assert_eq!(d.pitch_bytes, Some(512));
    let (d, _) = SurfaceSpec::new(Gpu::Gm107, &rgba8, [80, 10, 1]).modifier(0).resolve().unwrap();
    assert_eq!(d.pitch_bytes, Some(512));
    // Settings beside the modifier that agree are fine.
    assert!(SurfaceSpec::new(Gpu::Gm204, &rgba8, [256, 256, 1])
        .modifier(m)
        .layout(LayoutKind::BlockLinear)
        .block_log2([0, 3, 0])
        .gob_order(GobOrder::Fermi)
        .resolve()
        .is_ok());
}

#[test]
fn conflicting_settings_are_refused_in_one_line() {
    let rgba8 = fmt("A8B8G8R8");
    let m = macro_2d(0, 1, 0, 0xfe, 3);
    let base = || SurfaceSpec::new(Gpu::Gm204, &rgba8, [256, 256, 1]).modifier(m);
    let cases = [
        (base().layout(LayoutKind::Pitch).resolve(), "layout pitch is not supported: conflicts with modifier"),
        (base().block_log2([0, 4, 0]).resolve(), "block 0,4,0 is not supported: conflicts with modifier"),
        (base().block_policy(BlockPolicy::Max).resolve(), "block max is not supported"),
        (base().gob_order(GobOrder::Turing).resolve(), "gob order turing is not supported"),
        (
            SurfaceSpec::new(Gpu::Gm204, &rgba8, [256, 256, 1]).modifier(0).gob_order(GobOrder::Fermi).resolve(),
            "a linear image has no gobs",
        ),
        (SurfaceSpec::new(Gpu::Gm204, &rgba8, [16, 16, 4]).modifier(m).resolve(), "describes a 2D image"),
    ];
    for (r, says) in cases {
        let msg = r.unwrap_err().to_string();
        assert!(msg.contains(says), "{msg}");
        assert!(!msg.contains('\n'));
    }
}

#[test]
fn a_texture_takes_the_modifier_too() {
    let rgba8 = fmt("A8B8G8R8");
    let m = macro_2d(0, 1, 2, 0x06, 4);
    let (d, a) = TextureSpec::new(Gpu::Tu102, TextureType::D2, &rgba8, [512, 512, 1]).modifier(m).resolve().unwrap();
    assert_eq!(
        (d.layout, d.block, d.gob_order),
        (LayoutKind::BlockLinear, BlockPolicy::Explicit([0, 4, 0]), GobOrder::Turing)
    );
    assert_eq!(a.gob_order, Some((GobOrder::Turing, Source::Modifier)));
    let t = TextureSpec::new(Gpu::Tu102, TextureType::D2, &rgba8, [512, 512, 1]).modifier(m).build().unwrap();
    assert_eq!(t.size_bytes(), 512 * 4 * 512);
    let e = TextureSpec::new(Gpu::Tu102, TextureType::D3, &rgba8, [64, 64, 4]).modifier(m).resolve().unwrap_err();
    assert!(e.to_string().contains("describes a 2D image"), "{e}");
    let e =
        TextureSpec::new(Gpu::Tu102, TextureType::D2, &rgba8, [64, 64, 1]).levels(3).modifier(0).resolve().unwrap_err();
    assert!(e.to_string().contains("one level and one layer"), "{e}");
    let (d, _) = TextureSpec::new(Gpu::Tu102, TextureType::D2, &rgba8, [64, 64, 1]).modifier(0).resolve().unwrap();
    assert_eq!((d.layout, d.pitch_bytes), (LayoutKind::Pitch, Some(256)));
}
