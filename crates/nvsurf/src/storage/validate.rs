//! Validation of a storage combination, reporting every broken rule.
//!
//! The rules, each with the id used in [`Reason::rule`] (envytools `docs/hw/memory/g80-surface.rst`
//! "G80 storage types" and "Multisampled surfaces" unless another source is named):
//! - `gpu`: storage types exist from G80 on; TU102+ kinds are not modelled.
//! - `type-id`: the id fits the field (7 bits on G80, 8 on GF100) and is in the table (rnndb).
//! - `type-generation`: the type exists on this GPU (BLOCKLINEAR_24 and Z16 types: G200+ per
//!   rnndb `variants="G200-"`; ERRATA OPEN).
//! - `compression-type`: "The set of valid compression modes varies with the storage type";
//!   on GF100 there is no compression field, the kind decides.
//! - `compression-memory`: "Compression modes other than NONE can only be used on VRAM"
//!   (GF100: fault `COMPRESSED_SYSRAM`, rnndb `gf100_vm.xml`).
//! - `sysram-type`: "On the original G80, non-0 storage types can only be used on VRAM, on G84
//!   and later cards they can also be used on system RAM".
//! - `pitch-type`: "Pitch surfaces always use storage type 0".
//! - `blocklinear-type`: blocklinear surfaces "need to be placed in memory area with special
//!   storage type"; except "blocklinear surfaces stored in system RAM are allowed to use storage
//!   type 0, and will work correctly for texturing and m2mf ... rendering to them with 2d or 3d
//!   engine is impossible".
//! - `zeta-layout`: pitch surfaces "cannot be used for zeta buffers".
//! - `ms-generation`, `ms-layout`, `ms-elem-size`: the mode exists on the GPU; "multisampling is
//!   only possible with blocklinear surfaces"; "MS8 and MS8_C* modes cannot be used with
//!   surfaces that have 16-byte element size".
//! - `elem-size`: elements are 1, 2, 4, 8 or 16 bytes (12 on GF100+, ERRATA "Answers").
//! - `zeta-coverage`: "It's not allowed to use a coverage sampling mode with a zeta format
//!   without C component, or the other way around"; `zeta-generation`: Z16 is G200+.
//! - `type-class`, `type-format`, `type-samples`: the format and mode the type accepts. "Correct
//!   storage types are only enforced by texture units and ROPs [ie. 2d and 3d engine render
//!   targets + CUDA global/local/stack spaces] ... The other engines ... will accept any storage
//!   type": for m2mf, PCOPY and the display these mismatches are notes, not broken rules.

use super::request::{FormatSpec, Memory, SurfaceLayout};
use super::types::{Class, Compression, CompressionRule, ElemRule, StorageType, Table};
use crate::gpu::Gpu;
use crate::layout::Binding;
use crate::msaa::MsMode;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// Everything a validation looks at.
#[derive(Debug, Clone, PartialEq)]
pub struct Combination {
    /// The GPU.
    pub gpu: Gpu,
    /// Storage type (G80) or kind (GF100) id.
    pub storage_type: u32,
    /// The G80 compression mode (must be NONE on GF100, where the kind decides).
    pub compression: Compression,
    /// The surface format, if known.
    pub format: Option<FormatSpec>,
    /// The multisample mode.
    pub ms_mode: MsMode,
    /// VRAM or system RAM.
    pub memory: Memory,
    /// The surface layout; `None` = pitch for storage type 0, blocklinear otherwise.
    pub layout: Option<SurfaceLayout>,
    /// The binding point; `None` = checked as strictly as a texture unit or ROP.
    pub binding: Option<Binding>,
}

impl Combination {
    /// A combination with defaults: no compression, no format, MS1, VRAM, layout from the
    /// type, no binding.
    pub fn new(gpu: Gpu, storage_type: u32) -> Combination {
        Combination {
            gpu,
            storage_type,
            compression: Compression::None,
            format: None,
            ms_mode: MsMode::MS1,
            memory: Memory::Vram,
            layout: None,
            binding: None,
        }
    }
}

/// One broken rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reason {
    /// Short rule id (see the module docs), e.g. `compression-memory`.
    pub rule: &'static str,
    /// The explanation, naming the values and the rule.
    pub message: String,
}

/// The outcome of [`validate`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// True when no rule is broken.
    pub valid: bool,
    /// Every broken rule.
    pub reasons: Vec<Reason>,
    /// Remarks that do not make the combination invalid (undocumented points, unenforced
    /// mismatches, assumptions).
    pub notes: Vec<String>,
    /// The storage type entry, when the id is in the table.
    pub storage_type: Option<&'static StorageType>,
}

struct Acc {
    reasons: Vec<Reason>,
    notes: Vec<String>,
}

impl Acc {
    fn fail(&mut self, rule: &'static str, message: String) {
        self.reasons.push(Reason { rule, message });
    }
    fn note(&mut self, message: String) {
        self.notes.push(message);
    }
    /// A type/format mismatch: broken when the binding enforces storage types, else a note.
    fn mismatch(&mut self, enforced: bool, rule: &'static str, message: String) {
        if enforced {
            self.fail(rule, message);
        } else {
            self.note(format!("{message} (not enforced by this binding point)"));
        }
    }
}

/// Binding points with dedicated paths to memory that enforce storage types: texture units and
/// ROPs (2D/3D render targets, G80 compute g[] spaces). GF100 image units are counted with them.
fn enforces(b: Binding) -> bool {
    matches!(
        b,
        Binding::Texture | Binding::ColorRt | Binding::ZetaRt | Binding::TwoD | Binding::Global | Binding::Image
    )
}

fn renders(b: Binding) -> bool {
    matches!(b, Binding::TwoD | Binding::ColorRt | Binding::ZetaRt)
}

/// Validates a combination and reports every broken rule (see the module docs for the list).
pub fn validate(c: &Combination) -> Report {
    let mut acc = Acc { reasons: Vec::new(), notes: Vec::new() };
    let gpu = c.gpu;
    let table = Table::for_gpu(gpu);
    let enforced = c.binding.is_none_or(enforces);
    if c.binding.is_none() {
        acc.note("no binding point given: checked as strictly as a texture unit or ROP".into());
    }
    let st = match table {
        None if gpu < Gpu::G80 => {
            acc.fail("gpu", format!("gpu {gpu} has no storage types: they exist on G80 and later"));
            None
        }
        None => {
            acc.fail("gpu", format!("gpu {gpu}: TU102+ storage kinds use a different numbering that is not modelled"));
            None
        }
        Some(t) => check_type_id(&mut acc, gpu, t, c.storage_type),
    };
    let class = st.map(|s| s.class).unwrap_or(if c.storage_type == 0 { Class::Pitch } else { Class::Color });
    let layout =
        c.layout.unwrap_or(if class == Class::Pitch { SurfaceLayout::Pitch } else { SurfaceLayout::Blocklinear });

    if let Some(t) = table {
        check_compression(&mut acc, c, t, st);
        check_memory(&mut acc, c, st);
    }
    check_layout(&mut acc, c, class, layout);
    check_mode_and_format(&mut acc, c, layout);
    if let Some(s) = st {
        check_type_fit(&mut acc, c, s, enforced);
    }
    Report { valid: acc.reasons.is_empty(), reasons: acc.reasons, notes: acc.notes, storage_type: st }
}

fn check_type_id(acc: &mut Acc, gpu: Gpu, t: Table, id: u32) -> Option<&'static StorageType> {
    if id > t.max_id() {
        acc.fail(
            "type-id",
            format!("storage type {id:#x} does not fit the {} field (max {:#x})", t.name(), t.max_id()),
        );
        return None;
    }
    if t == Table::G80 && id == 0x7f {
        acc.fail("type-id", "storage type 0x7f (USEVM) is valid only in DMA objects (rnndb g80_vm.xml)".into());
        return None;
    }
    let Some(s) = t.types().iter().find(|s| u32::from(s.id) == id) else {
        acc.fail("type-id", format!("storage type {id:#x} is not in the {} table (rnndb)", t.name()));
        return None;
    };
    if !s.exists_on(gpu) {
        acc.fail(
            "type-generation",
            format!("storage type {id:#x} {} exists on {}+ only, not on {gpu} ({})", s.name, s.min_gpu, s.source),
        );
    }
    if s.provisional {
        acc.note(format!("{} is a partly understood rnndb kind (UNK name)", s.name));
    }
    Some(s)
}

fn check_compression(acc: &mut Acc, c: &Combination, t: Table, st: Option<&StorageType>) {
    if t == Table::Gf100 {
        if c.compression != Compression::None {
            acc.fail(
                "compression-type",
                format!(
                    "compression {} cannot be set on {}: GF100+ has no compression field, the kind decides \
                     (rnndb gf100_vm.xml GF100_PTE)",
                    c.compression.name(),
                    c.gpu
                ),
            );
        }
        return;
    }
    let Some(s) = st else { return };
    match s.compression {
        CompressionRule::Modes(m) if !m.contains(&c.compression) => acc.fail(
            "compression-type",
            format!(
                "compression {} is not valid for storage type {:#x} {} (valid: {})",
                c.compression.name(),
                s.id,
                s.name,
                s.compression_names().join(", ")
            ),
        ),
        CompressionRule::Undocumented if c.compression != Compression::None => acc.note(format!(
            "no source says whether {} is valid for zeta storage type {:#x} {} (Mesa nv50 uses DOUBLE for Z24_S8)",
            c.compression.name(),
            s.id,
            s.name
        )),
        _ => {}
    }
}

fn check_memory(acc: &mut Acc, c: &Combination, st: Option<&StorageType>) {
    if c.memory != Memory::Sysram {
        return;
    }
    let compressed_kind = matches!(st.map(|s| s.compression), Some(CompressionRule::InKind(true)));
    if c.compression != Compression::None {
        acc.fail(
            "compression-memory",
            format!("compression {} is only possible in VRAM, not in system RAM", c.compression.name()),
        );
    } else if compressed_kind {
        let name = st.map_or("", |s| s.name);
        acc.fail(
            "compression-memory",
            format!(
                "kind {:#x} {name} is compressed; compressed kinds in system RAM fault (COMPRESSED_SYSRAM, rnndb gf100_vm.xml)",
                c.storage_type
            ),
        );
    }
    if c.storage_type != 0 && !c.gpu.is_g84_or_later() {
        acc.fail(
            "sysram-type",
            format!(
                "storage type {:#x} in system RAM on {}: the original G80 allows only type 0 there (G84+ allow non-0 types)",
                c.storage_type, c.gpu
            ),
        );
    }
}

fn check_layout(acc: &mut Acc, c: &Combination, class: Class, layout: SurfaceLayout) {
    if layout == SurfaceLayout::Pitch && class != Class::Pitch {
        acc.fail("pitch-type", format!("pitch surfaces always use storage type 0, not {:#x}", c.storage_type));
    }
    if layout == SurfaceLayout::Pitch && c.binding == Some(Binding::ZetaRt) {
        acc.fail("zeta-layout", "pitch surfaces cannot be used for zeta buffers (zeta RT needs blocklinear)".into());
    }
    if layout == SurfaceLayout::Blocklinear && class == Class::Pitch {
        match (c.memory, c.binding) {
            (Memory::Sysram, Some(b)) if renders(b) => acc.fail(
                "blocklinear-type",
                format!(
                    "blocklinear surface with storage type 0 in system RAM: rendering to it (binding {}) is impossible \
                     (only texturing and m2mf work)",
                    b.name()
                ),
            ),
            (Memory::Sysram, _) => acc.note(
                "blocklinear surface with storage type 0 in system RAM: works for texturing and m2mf only".into(),
            ),
            (Memory::Vram, Some(b)) if !enforces(b) => {
                acc.note(format!("blocklinear surface with storage type 0: the {} accepts any storage type", b.name()))
            }
            (Memory::Vram, _) => acc.fail(
                "blocklinear-type",
                "blocklinear surfaces in VRAM need a blocklinear storage type; type 0 is pitch \
                 (texture units and ROPs enforce it)"
                    .into(),
            ),
        }
    }
}

fn check_mode_and_format(acc: &mut Acc, c: &Combination, layout: SurfaceLayout) {
    let m = c.ms_mode;
    if !m.available_on(c.gpu) && c.gpu.is_g80_or_later() {
        acc.fail(
            "ms-generation",
            format!("multisample mode {m} exists on {}+ only, not on {}", m.info().min_gpu, c.gpu),
        );
    }
    if m != MsMode::MS1 && layout == SurfaceLayout::Pitch {
        acc.fail("ms-layout", format!("multisampling ({m}) is only possible with blocklinear surfaces"));
    }
    let Some(f) = &c.format else {
        acc.note("no format given: format rules not checked".into());
        return;
    };
    let e = f.elem_size_bytes;
    let sizes_ok = matches!(e, 1 | 2 | 4 | 8 | 16) || (e == 12 && c.gpu.allows_12_byte_elements());
    if !sizes_ok {
        acc.fail("elem-size", format!("element size {e} is not 1, 2, 4, 8 or 16 bytes (12 on GF100+)"));
    }
    if e == 16 && !m.allows_elem_size(e) {
        acc.fail(
            "ms-elem-size",
            format!("{m} cannot be used with {e}-byte elements (MS8 and MS8_C* exclude 16 bytes)"),
        );
    }
    if let Some(z) = f.zeta {
        if z.has_coverage() != m.is_csaa() {
            let msg = if m.is_csaa() {
                format!("coverage mode {m} needs a zeta format with a C component, {} has none", f.describe())
            } else {
                format!("zeta format {} has a C component, which needs a coverage (CSAA) mode, not {m}", f.describe())
            };
            acc.fail("zeta-coverage", msg);
        }
        if c.gpu < z.min_gpu() {
            acc.fail("zeta-generation", format!("zeta format {} exists on {}+ only", f.describe(), z.min_gpu()));
        }
    }
}

fn check_type_fit(acc: &mut Acc, c: &Combination, s: &StorageType, enforced: bool) {
    let what = format!("storage type {:#x} {}", s.id, s.name);
    if !s.samples.accepts(c.ms_mode) {
        acc.mismatch(
            enforced,
            "type-samples",
            format!("{what} does not accept {} (valid: {})", c.ms_mode, s.samples.mode_names().join(", ")),
        );
    }
    let Some(f) = &c.format else { return };
    let e = f.elem_size_bytes;
    match (s.class, f.is_zeta) {
        (Class::Color, Some(true)) => acc.mismatch(
            enforced,
            "type-class",
            format!("{what} is a color type; zeta format {} needs a zeta type", f.describe()),
        ),
        (Class::Zeta, Some(false)) => acc.mismatch(
            enforced,
            "type-class",
            format!("{what} is a zeta type; {} is not a zeta format", f.describe()),
        ),
        _ => {}
    }
    match s.elem {
        ElemRule::Any => {}
        ElemRule::Sizes(sizes) => {
            if !sizes.iter().any(|&b| u32::from(b) == e) {
                acc.mismatch(
                    enforced,
                    "type-format",
                    format!("{what} takes {}, not {}", s.formats_text(), f.describe()),
                );
            }
        }
        ElemRule::Format24 => match f.texture_format {
            Some(0x07) => {}
            Some(id) => acc.mismatch(
                enforced,
                "type-format",
                format!("{what} takes {}, not texture format {id:#04x}", s.formats_text()),
            ),
            None if e != 4 => acc.mismatch(
                enforced,
                "type-format",
                format!("{what} takes {}, not {}", s.formats_text(), f.describe()),
            ),
            None => acc.note(format!("{what} takes 8_8_8_X8 formats only; give the format name to confirm")),
        },
        ElemRule::Zeta(fam) => match f.zeta {
            Some(z) if z != fam => acc.mismatch(
                enforced,
                "type-format",
                format!("{what} takes {}, not {}", s.formats_text(), f.describe()),
            ),
            Some(_) => {}
            None if e != fam.elem_size_bytes() => acc.mismatch(
                enforced,
                "type-format",
                format!("{what} takes {}, not {}", s.formats_text(), f.describe()),
            ),
            None => acc.note(format!("{what} takes {}; give the zeta format name to confirm", s.formats_text())),
        },
    }
}
