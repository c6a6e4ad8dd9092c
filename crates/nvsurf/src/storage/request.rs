//! What a validation or suggestion is asked about: the surface format ([`FormatSpec`]), the
//! memory ([`Memory`]) and the surface layout ([`SurfaceLayout`]).

use super::types::ZetaFamily;
use crate::error::{Error, Result};
use alloc::string::{String, ToString};

/// What a validation or suggestion knows about the surface format.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FormatSpec {
    /// The format's name, if one was given (for messages).
    pub name: Option<String>,
    /// Element size in bytes.
    pub elem_size_bytes: u32,
    /// `Some(true)` zeta, `Some(false)` color/non-zeta, `None` unknown.
    pub is_zeta: Option<bool>,
    /// The zeta layout, for zeta formats whose layout is known.
    pub zeta: Option<ZetaFamily>,
    /// The texture format id, when known (0x07 = 8_8_8_X8 for the BLOCKLINEAR_24 types).
    pub texture_format: Option<u8>,
    /// Whether Mesa's nv50 driver compresses this color format (its list in
    /// `nv50_mt_choose_storage_type`); `None` when unknown.
    pub mesa_nv50_compressible: Option<bool>,
}

impl FormatSpec {
    /// A non-zeta format known only by its element size.
    pub fn color(elem_size_bytes: u32) -> FormatSpec {
        FormatSpec { elem_size_bytes, is_zeta: Some(false), ..Default::default() }
    }

    /// A format known only by its element size (zeta or not unknown).
    pub fn elem_size(elem_size_bytes: u32) -> FormatSpec {
        FormatSpec { elem_size_bytes, ..Default::default() }
    }

    /// A zeta format of the given layout.
    pub fn zeta(family: ZetaFamily) -> FormatSpec {
        FormatSpec {
            name: Some(family.format_names()[0].into()),
            elem_size_bytes: family.elem_size_bytes(),
            is_zeta: Some(true),
            zeta: Some(family),
            ..Default::default()
        }
    }

    /// Text for messages: the name, or "N-byte elements".
    pub fn describe(&self) -> String {
        match &self.name {
            Some(n) => alloc::format!("{n} ({} bytes)", self.elem_size_bytes),
            None => alloc::format!("{}-byte elements", self.elem_size_bytes),
        }
    }
}

/// Where the memory is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Memory {
    /// Video RAM.
    Vram,
    /// System RAM.
    Sysram,
}

impl Memory {
    /// Parses `vram` or `sysram` (also `sys`, `gart`, `system`).
    pub fn parse(text: &str) -> Result<Memory> {
        match text.trim().to_ascii_lowercase().as_str() {
            "vram" | "video" => Ok(Memory::Vram),
            "sysram" | "sys" | "system" | "gart" | "host" => Ok(Memory::Sysram),
            _ => Err(Error::UnknownName {
                kind: "memory",
                name: text.to_string(),
                suggestions: crate::error::closest(text, ["vram", "sysram"]),
            }),
        }
    }

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Memory::Vram => "vram",
            Memory::Sysram => "sysram",
        }
    }
}

/// The surface layout, as far as storage types care.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SurfaceLayout {
    /// Pitch (linear).
    Pitch,
    /// Blocklinear (tiled).
    Blocklinear,
}

impl SurfaceLayout {
    /// Parses `pitch`/`linear` or `blocklinear`/`tiled`.
    pub fn parse(text: &str) -> Result<SurfaceLayout> {
        match text.trim().to_ascii_lowercase().as_str() {
            "pitch" | "linear" => Ok(SurfaceLayout::Pitch),
            "blocklinear" | "tiled" | "block-linear" => Ok(SurfaceLayout::Blocklinear),
            _ => Err(Error::UnknownName {
                kind: "layout",
                name: text.to_string(),
                suggestions: crate::error::closest(text, ["pitch", "blocklinear", "linear", "tiled"]),
            }),
        }
    }

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            SurfaceLayout::Pitch => "pitch",
            SurfaceLayout::Blocklinear => "blocklinear",
        }
    }
}
