//! Every validation rule of `nvsurf::storage::validate` with a passing and a failing case, and
//! the Mesa-based `suggest` (envytools `docs/hw/memory/g80-surface.rst` "G80 storage types"; Mesa
//! nv50_miptree.c/nvc0_miptree.c).

use nvsurf::layout::Binding;
use nvsurf::msaa::MsMode;
use nvsurf::storage::{suggest, validate, Combination, Compression, FormatSpec, Memory, SurfaceLayout, ZetaFamily};
use nvsurf::Gpu;

fn rules(c: &Combination) -> Vec<&'static str> {
    let r = validate(c);
    assert_eq!(r.valid, r.reasons.is_empty());
    r.reasons.iter().map(|x| x.rule).collect()
}

fn base(gpu: Gpu, ty: u32) -> Combination {
    let mut c = Combination::new(gpu, ty);
    c.binding = Some(Binding::ColorRt);
    c.format = Some(FormatSpec::color(4));
    c
}

fn zeta(gpu: Gpu, ty: u32, fam: ZetaFamily, ms: MsMode) -> Combination {
    let mut c = Combination::new(gpu, ty);
    c.binding = Some(Binding::ZetaRt);
    c.format = Some(FormatSpec::zeta(fam));
    c.ms_mode = ms;
    c
}

#[test]
fn valid_combinations() {
    assert!(rules(&base(Gpu::G80, 0x70)).is_empty());
    let mut c = base(Gpu::G84, 0x78);
    c.compression = Compression::Single;
    c.ms_mode = MsMode::MS4_CS12;
    assert!(rules(&c).is_empty());
    assert!(rules(&zeta(Gpu::G80, 0x26, ZetaFamily::Z24C8, MsMode::MS8_CS8)).is_empty());
    assert!(rules(&zeta(Gpu::Gf100, 0x19, ZetaFamily::Z24S8, MsMode::MS4)).is_empty());
}

#[test]
fn gpu_rule() {
    assert_eq!(rules(&base(Gpu::Nv40, 0x70)), ["gpu"]);
    assert_eq!(rules(&base(Gpu::Tu102, 0x06)), ["gpu"]);
    assert!(rules(&base(Gpu::Gm20b, 0xfe)).is_empty());
}

#[test]
fn type_id_rule() {
    assert_eq!(rules(&base(Gpu::G80, 0x71)), ["type-id"]);
    assert_eq!(rules(&base(Gpu::G80, 0x80)), ["type-id"]);
    assert_eq!(rules(&base(Gpu::G80, 0x7f)), ["type-id"]); // USEVM: DMA objects only
    assert_eq!(rules(&base(Gpu::Gf100, 0x100)), ["type-id"]);
    assert_eq!(rules(&base(Gpu::Gf100, 0x06)), ["type-id"]);
    assert!(rules(&base(Gpu::G80, 0x72)).is_empty());
}

#[test]
fn type_generation_rule_blocklinear_24_is_g200_plus() {
    // ERRATA OPEN: BLOCKLINEAR_24 (0x44-0x46, 0x4b-0x4d) exist on G200+ only per rnndb.
    let mut c = base(Gpu::G92, 0x44);
    c.format.as_mut().unwrap().texture_format = Some(0x07);
    assert_eq!(rules(&c), ["type-generation"]);
    c.gpu = Gpu::G200;
    assert!(rules(&c).is_empty());
}

#[test]
fn compression_type_rule() {
    let mut c = base(Gpu::G80, 0x70);
    c.compression = Compression::Single;
    assert_eq!(rules(&c), ["compression-type"]);
    c.storage_type = 0x78;
    assert!(rules(&c).is_empty());
    c.compression = Compression::Double;
    assert_eq!(rules(&c), ["compression-type"]);
    // GF100: no separate field.
    let mut g = base(Gpu::Gf100, 0xfe);
    g.compression = Compression::Single;
    assert_eq!(rules(&g), ["compression-type"]);
    // Undocumented zeta compression: a note, not a reason.
    let mut z = zeta(Gpu::G80, 0x28, ZetaFamily::Z24S8, MsMode::MS1);
    z.compression = Compression::Double;
    let r = validate(&z);
    assert!(r.valid && r.notes.iter().any(|n| n.contains("DOUBLE")));
}

#[test]
fn compression_memory_rule() {
    let mut c = base(Gpu::G84, 0x78);
    c.compression = Compression::Single;
    c.memory = Memory::Sysram;
    assert_eq!(rules(&c), ["compression-memory"]);
    c.memory = Memory::Vram;
    assert!(rules(&c).is_empty());
    // GF100 compressed kind in system RAM faults (COMPRESSED_SYSRAM).
    let mut z = zeta(Gpu::Gf100, 0x17, ZetaFamily::Z24S8, MsMode::MS1);
    z.memory = Memory::Sysram;
    assert_eq!(rules(&z), ["compression-memory"]);
    z.storage_type = 0x11;
    assert!(rules(&z).is_empty());
}

#[test]
fn sysram_type_rule_g80_vs_g84() {
    let mut c = base(Gpu::G80, 0x70);
    c.memory = Memory::Sysram;
    assert_eq!(rules(&c), ["sysram-type"]);
    c.gpu = Gpu::G84;
    assert!(rules(&c).is_empty());
}

#[test]
fn pitch_type_rule() {
    let mut c = base(Gpu::G80, 0x70);
    c.layout = Some(SurfaceLayout::Pitch);
    assert_eq!(rules(&c), ["pitch-type"]);
    c.storage_type = 0;
    assert!(rules(&c).is_empty());
}

#[test]
fn blocklinear_type_rule_and_the_g80_sysram_exception() {
    let mut c = base(Gpu::G80, 0);
    c.layout = Some(SurfaceLayout::Blocklinear);
    // VRAM, ROP: needs a blocklinear type.
    assert_eq!(rules(&c), ["blocklinear-type"]);
    // System RAM: texturing and m2mf work ...
    c.memory = Memory::Sysram;
    c.binding = Some(Binding::Texture);
    assert!(rules(&c).is_empty());
    c.binding = Some(Binding::M2mf);
    assert!(rules(&c).is_empty());
    // ... rendering with the 2d or 3d engine is impossible.
    c.binding = Some(Binding::TwoD);
    assert_eq!(rules(&c), ["blocklinear-type"]);
    // Engines that do not enforce types accept it in VRAM too.
    c.memory = Memory::Vram;
    c.binding = Some(Binding::Pcopy);
    assert!(rules(&c).is_empty());
}

#[test]
fn zeta_layout_rule() {
    let mut z = zeta(Gpu::G80, 0, ZetaFamily::Z24S8, MsMode::MS1);
    z.layout = Some(SurfaceLayout::Pitch);
    assert_eq!(rules(&z), ["zeta-layout"]);
    z.binding = Some(Binding::Texture);
    assert!(rules(&z).is_empty());
}

#[test]
fn multisample_rules() {
    let mut c = base(Gpu::G200, 0x70);
    c.ms_mode = MsMode::MS8_ALT;
    assert_eq!(rules(&c), ["ms-generation"]);
    c.gpu = Gpu::Gt215;
    assert!(rules(&c).is_empty());
    let mut p = base(Gpu::G80, 0);
    p.ms_mode = MsMode::MS4;
    assert_eq!(rules(&p), ["ms-layout"]);
    p.ms_mode = MsMode::MS1;
    assert!(rules(&p).is_empty());
    let mut e = base(Gpu::G80, 0x74);
    e.format = Some(FormatSpec::color(16));
    e.ms_mode = MsMode::MS8;
    assert_eq!(rules(&e), ["ms-elem-size"]);
    e.ms_mode = MsMode::MS4;
    assert!(rules(&e).is_empty());
}

#[test]
fn elem_size_rule() {
    let mut c = base(Gpu::G80, 0x70);
    c.format = Some(FormatSpec::color(3));
    assert_eq!(rules(&c), ["elem-size", "type-format"]);
    c.format = Some(FormatSpec::color(12));
    assert_eq!(rules(&c), ["elem-size", "type-format"]);
    c.gpu = Gpu::Gf100;
    c.storage_type = 0xfe;
    assert!(rules(&c).is_empty());
}

#[test]
fn zeta_coverage_and_generation_rules() {
    assert_eq!(rules(&zeta(Gpu::G80, 0x22, ZetaFamily::Z24C8, MsMode::MS4)), ["zeta-coverage", "type-format"]);
    assert_eq!(rules(&zeta(Gpu::G80, 0x24, ZetaFamily::Z24S8, MsMode::MS4_CS4)), ["zeta-coverage", "type-format"]);
    assert!(rules(&zeta(Gpu::G80, 0x24, ZetaFamily::Z24C8, MsMode::MS4_CS4)).is_empty());
    assert_eq!(rules(&zeta(Gpu::G92, 0x68, ZetaFamily::Z16, MsMode::MS1)), ["type-generation", "zeta-generation"]);
    assert!(rules(&zeta(Gpu::G200, 0x68, ZetaFamily::Z16, MsMode::MS1)).is_empty());
}

#[test]
fn type_fit_rules_and_enforcement() {
    // Color type with a zeta format.
    let mut c = zeta(Gpu::G80, 0x70, ZetaFamily::Z24S8, MsMode::MS1);
    assert_eq!(rules(&c), ["type-class"]);
    // Zeta type with a color format.
    let mut k = base(Gpu::G80, 0x20);
    assert_eq!(rules(&k), ["type-class"]);
    k.format = Some(FormatSpec::zeta(ZetaFamily::Z24S8));
    k.binding = Some(Binding::ZetaRt);
    assert!(rules(&k).is_empty());
    // Element size: BLOCKLINEAR_32_MS4 takes 4-byte elements only.
    let mut e = base(Gpu::G80, 0x78);
    e.format = Some(FormatSpec::color(8));
    assert_eq!(rules(&e), ["type-format"]);
    // Sample mode: BLOCKLINEAR_32_MS8 takes MS8* only; Z24_S8_MS4 takes MS4 only.
    let mut s = base(Gpu::G80, 0x79);
    s.ms_mode = MsMode::MS4;
    assert_eq!(rules(&s), ["type-samples"]);
    s.ms_mode = MsMode::MS8_CS8;
    assert!(rules(&s).is_empty());
    assert_eq!(rules(&zeta(Gpu::G80, 0x22, ZetaFamily::Z24S8, MsMode::MS2)), ["type-samples"]);
    // BLOCKLINEAR_24 needs 8_8_8_X8.
    let mut f = base(Gpu::G200, 0x44);
    f.format.as_mut().unwrap().texture_format = Some(0x08);
    assert_eq!(rules(&f), ["type-format"]);
    // m2mf does not enforce storage types: the same mismatches become notes.
    c.binding = Some(Binding::M2mf);
    let r = validate(&c);
    assert!(r.valid && r.notes.iter().any(|n| n.contains("not enforced")));
}

#[test]
fn every_broken_rule_is_reported() {
    let mut c = Combination::new(Gpu::G80, 0x79);
    c.compression = Compression::Double;
    c.memory = Memory::Sysram;
    c.layout = Some(SurfaceLayout::Pitch);
    c.ms_mode = MsMode::MS4_CS4;
    c.format = Some(FormatSpec::color(16));
    c.binding = Some(Binding::ColorRt);
    let got = rules(&c);
    for want in [
        "compression-type",
        "compression-memory",
        "sysram-type",
        "pitch-type",
        "ms-layout",
        "type-samples",
        "type-format",
    ] {
        assert!(got.contains(&want), "{want} missing from {got:?}");
    }
    let r = validate(&c);
    assert!(r.reasons.iter().all(|x| !x.message.is_empty()));
}

#[test]
fn suggest_follows_mesa() {
    let s = |gpu, f: &FormatSpec, m| suggest(gpu, f, m, true, false).unwrap();
    // nv50: Z24_S8 -> memtype 0x128 + ms = type 0x28 + ms, DOUBLE.
    let z = s(Gpu::G84, &FormatSpec::zeta(ZetaFamily::Z24S8), MsMode::MS4);
    assert_eq!((z.id, z.name, z.compression), (0x2a, "Z24_S8_MS4_LSR", Compression::Double));
    assert_eq!(s(Gpu::G84, &FormatSpec::zeta(ZetaFamily::Z32), MsMode::MS8).id, 0x43);
    assert_eq!(s(Gpu::G200, &FormatSpec::zeta(ZetaFamily::Z16), MsMode::MS1).id, 0x6c);
    assert_eq!(s(Gpu::G84, &FormatSpec::zeta(ZetaFamily::S8Z24), MsMode::MS2).id, 0x19);
    // nv50 color: 4 bytes MS4 -> 0xf8 = 0x78 SINGLE when the format is compressible.
    let mut rgba8 = FormatSpec::color(4);
    rgba8.mesa_nv50_compressible = Some(true);
    let c = s(Gpu::G84, &rgba8, MsMode::MS4);
    assert_eq!((c.id, c.compression), (0x78, Compression::Single));
    assert_eq!(s(Gpu::G84, &FormatSpec::color(4), MsMode::MS4).compression, Compression::None);
    assert_eq!(s(Gpu::G84, &FormatSpec::color(16), MsMode::MS1).id, 0x74);
    assert_eq!(s(Gpu::G84, &FormatSpec::color(2), MsMode::MS8).id, 0x70);
    assert_eq!(suggest(Gpu::G84, &FormatSpec::color(4), MsMode::MS1, true, true).unwrap().id, 0x7a);
    // CSAA (rnndb, not Mesa).
    assert_eq!(s(Gpu::G84, &FormatSpec::zeta(ZetaFamily::Z24C8), MsMode::MS8_CS8).id, 0x2e);
    assert!(suggest(Gpu::G84, &FormatSpec::zeta(ZetaFamily::Z24C8), MsMode::MS4, true, false).is_err());
    assert!(suggest(Gpu::G84, &FormatSpec::color(16), MsMode::MS8, true, false).is_err());
    // nvc0.
    let g = s(Gpu::Gf100, &FormatSpec::zeta(ZetaFamily::Z24S8), MsMode::MS4);
    assert_eq!((g.id, g.uncompressed.map(|u| u.0)), (0x19, Some(0x11)));
    assert_eq!(suggest(Gpu::Gf100, &FormatSpec::zeta(ZetaFamily::Z24S8), MsMode::MS4, false, false).unwrap().id, 0x11);
    assert_eq!(s(Gpu::Gk104, &FormatSpec::color(8), MsMode::MS4).id, 0xed);
    assert_eq!(s(Gpu::Gk104, &FormatSpec::color(16), MsMode::MS2).id, 0xf6);
    assert_eq!(s(Gpu::Gk104, &FormatSpec::color(4), MsMode::MS1).id, 0xfe);
    assert_eq!(s(Gpu::Gk104, &FormatSpec::color(4), MsMode::MS8).id, 0xe4);
    // Every suggestion validates.
    for (gpu, f, m) in [
        (Gpu::G84, FormatSpec::zeta(ZetaFamily::Z24S8), MsMode::MS4),
        (Gpu::Gf100, FormatSpec::zeta(ZetaFamily::Z32), MsMode::MS8),
        (Gpu::Gk104, FormatSpec::color(8), MsMode::MS4),
        (Gpu::G84, FormatSpec::zeta(ZetaFamily::Z32S8C8X16), MsMode::MS4_CS12),
    ] {
        let sg = s(gpu, &f, m);
        let mut c = Combination::new(gpu, sg.id);
        c.compression = sg.compression;
        c.format = Some(f.clone());
        c.ms_mode = m;
        c.binding = Some(if f.is_zeta == Some(true) { Binding::ZetaRt } else { Binding::ColorRt });
        let r = validate(&c);
        assert!(r.valid, "{gpu} {m} {:?}", r.reasons);
    }
    // TU102+.
    assert_eq!(s(Gpu::Tu102, &FormatSpec::zeta(ZetaFamily::Z16), MsMode::MS1).id, 0x0b);
}

#[test]
fn suggest_finds_a_valid_type_for_12_byte_elements_on_gf100_plus() {
    // Review finding 5: 32_32_32 (12 bytes) was rejected with the MS8 16-byte rule at MS1.
    // Mesa picks pitch (kind 0) at one sample; multisampled 12-byte surfaces get 0xfe TILED.
    for &gpu in nvsurf::gpu::ALL_GPUS.iter().filter(|g| g.is_gf100_or_later()) {
        for m in MsMode::all().filter(|m| m.available_on(gpu)) {
            let sg = suggest(gpu, &FormatSpec::color(12), m, true, false)
                .unwrap_or_else(|e| panic!("{gpu} {m}: suggest failed: {e}"));
            if gpu < Gpu::Tu102 {
                assert_eq!(sg.id, if m == MsMode::MS1 { 0x00 } else { 0xfe }, "{gpu} {m}");
                let mut c = Combination::new(gpu, sg.id);
                c.format = Some(FormatSpec::color(12));
                c.ms_mode = m;
                let r = validate(&c);
                assert!(r.valid, "{gpu} {m} {:#x}: {:?}", sg.id, r.reasons);
            }
        }
    }
}

#[test]
fn suggest_element_size_errors_state_the_rule_that_failed() {
    let err = |gpu, e, m| suggest(gpu, &FormatSpec::color(e), m, true, false).unwrap_err().to_string();
    for e in [0, 3, 5, 4294967295] {
        let msg = err(Gpu::Gf100, e, MsMode::MS1);
        assert!(msg.contains(&format!("elem_size {e} ")), "{msg}");
        assert!(msg.contains("must be 1, 2, 4, 8 or 16 bytes (12 on GF100+)"), "{msg}");
        assert!(!msg.contains("MS8"), "{msg}");
    }
    // 12 bytes on G80: the generation rule, not the MS8 rule.
    let msg = err(Gpu::G84, 12, MsMode::MS1);
    assert!(msg.contains("elem_size 12") && msg.contains("GF100 and later only"), "{msg}");
    assert!(!msg.contains("MS8"), "{msg}");
    // 16 bytes with an MS8 mode names the mode.
    let msg = err(Gpu::Gf100, 16, MsMode::MS8_CS24);
    assert!(msg.contains("elem_size 16") && msg.contains("MS8_CS24) cannot be used with 16-byte elements"), "{msg}");
}
