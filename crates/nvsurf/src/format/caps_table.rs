//! The rows of Mesa nil's format table that [`FormatCaps`] reads (`nil_caps.txt`, from
//! `src/nouveau/nil/nil_formats.csv` at 230fb83d), and the capabilities themselves; the rules
//! that combine them are in `caps.rs`.

use crate::gpu::Gpu;

/// The columns of nil's table that the capabilities read, one row per pipe format.
const TABLE: &str = include_str!("nil_caps.txt");

/// What a GPU can do with a format (nil's table and rules).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FormatCaps {
    /// Sample it in a shader (a texture).
    pub can_sample: bool,
    /// Filter it when sampling (texturable and not pure integer).
    pub can_filter: bool,
    /// Render to it (a colour target).
    pub can_render: bool,
    /// Blend into it.
    pub can_blend: bool,
    /// Load and store it as a storage image.
    pub can_store: bool,
    /// Use it as a depth/stencil target.
    pub can_depth: bool,
    /// Read it as a texel buffer.
    pub can_buffer: bool,
}

/// One row of the table: name, target, TIC component sizes, types, caps, first generation.
pub(super) struct Row<'a> {
    pub(super) czt: &'a str,
    pub(super) tcs: &'a str,
    pub(super) types: &'a str,
    pub(super) caps: &'a str,
    pub(super) hw: &'a str,
}

pub(super) fn rows() -> impl Iterator<Item = Row<'static>> {
    TABLE.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).filter_map(|l| {
        let mut f = l.split_whitespace().skip(1);
        Some(Row { czt: f.next()?, tcs: f.next()?, types: f.next()?, caps: f.next()?, hw: f.next()? })
    })
}

/// Whether `gpu` has the generation a row needs.
pub(super) fn has_generation(gpu: Gpu, hw: &str) -> bool {
    match hw {
        "MaxwellA" => gpu >= Gpu::Gm107,
        "MaxwellB" => gpu >= Gpu::Gm200,
        // `TK1` (ASTC): nil's rule for the ASTC and ETC2 layouts, Tegra from GK20A, is applied
        // to every such row in `caps_on`.
        _ => true,
    }
}
