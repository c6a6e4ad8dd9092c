//! The PTE kinds NVK picks (Mesa `src/nouveau/nil/image.rs`, `choose_pte_kind`,
//! `nvc0_choose_pte_kind`, `tu102_choose_pte_kind`, `gb202_choose_pte_kind`, commit
//! 157fa86f6d5def2bec5c91f33be70c138250ab7f), with the kind numbers of NVIDIA's open-gpu-doc
//! `manuals/volta/gv100/dev_mmu.ref.txt` (the pre-Turing numbering of Mesa's `gp100` header) and
//! `manuals/turing/tu104/dev_mmu.ref.txt`. Every expected value below is read from those files
//! by hand, not from the library.

use nvsurf::gpu::{Family, ALL_GPUS};
use nvsurf::msaa::MsMode;
use nvsurf::storage::{suggest, suggest_for, suggest_nvk, Driver, FormatSpec, ZetaFamily};
use nvsurf::Gpu;

const MODES: [MsMode; 5] = [MsMode::MS1, MsMode::MS2, MsMode::MS4, MsMode::MS8, MsMode::MS16];

fn nvk(gpu: Gpu, f: &FormatSpec, m: MsMode) -> (u32, u32) {
    let c = suggest_nvk(gpu, f, m, true).unwrap();
    let u = suggest_nvk(gpu, f, m, false).unwrap();
    assert_eq!(u.uncompressed, None);
    assert_eq!(c.uncompressed.map_or(c.id, |(id, _)| id), u.id, "{gpu} {f:?} {m}");
    (c.id, u.id)
}

#[test]
fn fermi_to_volta_colour_by_size_and_samples() {
    // C32/C64/C128 _2C kinds for 1, 2, 4, 8 samples; 16 samples share the MS8_MS16 kind;
    // GENERIC_16BX2 (0xfe) uncompressed; 1- and 2-byte formats 0xfe either way; 12 bytes PITCH.
    let c32 = [0xd8, 0xdd, 0xdf, 0xe4, 0xe4];
    let c64 = [0xe6, 0xeb, 0xed, 0xf2, 0xf2];
    let c128 = [0xf4, 0xf6, 0xf8, 0xfa, 0xfa];
    for gpu in [Gpu::Gf100, Gpu::Gk104, Gpu::Gm107, Gpu::Gm204, Gpu::Gp104, Gpu::Gv100] {
        for (i, m) in MODES.into_iter().enumerate() {
            assert_eq!(nvk(gpu, &FormatSpec::color(4), m), (c32[i], 0xfe), "{gpu} {m}");
            assert_eq!(nvk(gpu, &FormatSpec::color(8), m), (c64[i], 0xfe), "{gpu} {m}");
            assert_eq!(nvk(gpu, &FormatSpec::color(16), m), (c128[i], 0xfe), "{gpu} {m}");
            assert_eq!(nvk(gpu, &FormatSpec::color(2), m), (0xfe, 0xfe), "{gpu} {m}");
            assert_eq!(nvk(gpu, &FormatSpec::color(1), m), (0xfe, 0xfe), "{gpu} {m}");
        }
        assert_eq!(nvk(gpu, &FormatSpec::color(12), MsMode::MS1), (0x00, 0x00));
    }
    // Where gallium and NVK differ: single-sampled 4-byte colour (gallium leaves it
    // uncompressed) and 16-byte colour with 8 samples (gallium refuses the MS8 modes).
    let g = suggest(Gpu::Gm107, &FormatSpec::color(4), MsMode::MS1, true, false).unwrap();
    assert_eq!(g.id, 0xfe);
    assert!(suggest(Gpu::Gm107, &FormatSpec::color(16), MsMode::MS8, true, false).is_err());
}

#[test]
fn fermi_to_volta_depth_by_samples() {
    // (compressed base + log2 samples, uncompressed), gv100 dev_mmu.ref.txt:
    // Z16_2C 0x02.., Z16 0x01; Z24S8_2CZ 0x51.., Z24S8 0x46 (nvsurf's S8_Z24, PIPE
    // S8_UINT_Z24_UNORM); S8Z24_2CZ 0x17.., S8Z24 0x11 (nvsurf's Z24_S8); ZF32_2CZ 0x86.., ZF32
    // 0x7b; ZF32_X24S8_2CSZV 0xce.., ZF32_X24S8 0xc3.
    let rows = [
        (ZetaFamily::Z16, 0x02, 0x01),
        (ZetaFamily::S8Z24, 0x51, 0x46),
        (ZetaFamily::Z24S8, 0x17, 0x11),
        (ZetaFamily::Z32, 0x86, 0x7b),
        (ZetaFamily::Z32S8X24, 0xce, 0xc3),
    ];
    for gpu in [Gpu::Gf100, Gpu::Gm107, Gpu::Gp104] {
        for (fam, base, plain) in rows {
            for (i, m) in MODES.into_iter().enumerate() {
                assert_eq!(nvk(gpu, &FormatSpec::zeta(fam), m), (base + i as u32, plain), "{gpu} {fam:?} {m}");
            }
        }
    }
    let s = suggest_nvk(Gpu::Gm107, &FormatSpec::zeta(ZetaFamily::Z32S8X24), MsMode::MS16, true).unwrap();
    assert_eq!((s.id, s.name), (0xd2, "ZF32_X24S8_MS16_2CSZV"));
    assert!(s.source.contains("nil/image.rs"));
}

#[test]
fn turing_and_later_ignore_samples() {
    // tu104 dev_mmu.ref.txt: GENERIC_MEMORY 0x06, GENERIC_MEMORY_COMPRESSIBLE 0x08, Z16 0x01,
    // S8Z24 0x03, ZF32_X24S8 0x04, Z24S8 0x05, Z16_CDP 0x0b, S8Z24_CDP 0x0c, ZF32_X24S8_CDP
    // 0x0d, Z24S8_CDP 0x0e. Z32 float is generic memory in nil.
    let rows = [
        (FormatSpec::color(4), (0x08, 0x06)),
        (FormatSpec::color(16), (0x08, 0x06)),
        (FormatSpec::color(1), (0x08, 0x06)),
        (FormatSpec::zeta(ZetaFamily::Z32), (0x08, 0x06)),
        (FormatSpec::zeta(ZetaFamily::Z16), (0x0b, 0x01)),
        (FormatSpec::zeta(ZetaFamily::S8Z24), (0x0e, 0x05)),
        (FormatSpec::zeta(ZetaFamily::Z24S8), (0x0c, 0x03)),
        (FormatSpec::zeta(ZetaFamily::Z32S8X24), (0x0d, 0x04)),
    ];
    for gpu in [Gpu::Tu102, Gpu::Ga102, Gpu::Ad102, Gpu::Gh100] {
        for (f, want) in &rows {
            for m in MODES {
                assert_eq!(nvk(gpu, f, m), *want, "{gpu} {f:?} {m}");
            }
        }
    }
    let s = suggest_nvk(Gpu::Tu102, &FormatSpec::color(4), MsMode::MS1, true).unwrap();
    assert_eq!(s.name, "GENERIC_MEMORY_COMPRESSIBLE");
    // Gallium keeps colour uncompressed on Turing (generic memory either way).
    assert_eq!(suggest(Gpu::Tu102, &FormatSpec::color(4), MsMode::MS1, true, false).unwrap().id, 0x06);
    // Blackwell (if the GPU names exist): generic memory for every format, depth included.
    for &gpu in ALL_GPUS.iter().filter(|g| g.family() > Family::Hopper) {
        for (f, _) in &rows {
            assert_eq!(nvk(gpu, f, MsMode::MS1), (0x08, 0x06), "{gpu} {f:?}");
        }
    }
}

#[test]
fn the_driver_switch_and_refusals() {
    let f = FormatSpec::color(4);
    let g = suggest_for(Driver::Gallium, Gpu::Gm107, &f, MsMode::MS1, true, false).unwrap();
    let n = suggest_for(Driver::Nvk, Gpu::Gm107, &f, MsMode::MS1, true, false).unwrap();
    assert_eq!((g.id, n.id), (0xfe, 0xd8));
    assert_eq!(Driver::default(), Driver::Gallium);
    for (gpu, f, m, says) in [
        (Gpu::G84, FormatSpec::color(4), MsMode::MS1, "Fermi (GF100) and later"),
        (Gpu::Gm107, FormatSpec::color(4), MsMode::MS4_CS12, "no coverage (CSAA) modes"),
        (Gpu::Gm107, FormatSpec::zeta(ZetaFamily::Z24C8), MsMode::MS1, "no coverage (CSAA) depth formats"),
    ] {
        let e = suggest_nvk(gpu, &f, m, true).unwrap_err().to_string();
        assert!(e.contains(says), "{e}");
        assert!(!e.contains('\n'));
    }
}
