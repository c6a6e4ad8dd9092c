//! The choices surfaces and textures share, read from C strings: the platform, the elements
//! (a format by name, or an element size), and the overrides of the platform's defaults
//! (layout, gob order, block policy or an explicit block).

use crate::ptr::{c_bool, c_str, opt_str};
use crate::status::{CResult, Failure, NvsurfStatus};
use nvsurf::format::Format;
use nvsurf::layout::{GobOrder, LayoutKind};
use nvsurf::spec::Overrides;
use nvsurf::texture::BlockPolicy;
use nvsurf::tile::{CopyOptions, Threads};
use nvsurf::Platform;
use std::ffi::c_char;

/// `flags` bit of the copy functions: split the copy over the threads of the global rayon
/// pool (by default the copy runs on the calling thread only).
pub const NVSURF_COPY_PARALLEL: u32 = 1;

/// What the elements are: a format, or only a size in bytes.
pub(crate) enum Elements {
    Format(Format),
    Size(u32),
}

/// The shared fields of the surface and texture parameters, parsed.
pub(crate) struct Common {
    pub platform: Platform,
    pub elements: Elements,
    /// The layout, gob order and block policy given in place of the library's defaults.
    pub overrides: Overrides,
}

/// The raw shared fields, as the two parameter structs hold them.
pub(crate) struct RawCommon {
    pub platform: *const c_char,
    pub format: *const c_char,
    pub elem_size_bytes: u32,
    pub layout: *const c_char,
    pub gob_order: *const c_char,
    pub block_policy: *const c_char,
    pub use_block_log2: u32,
    pub block_log2: [u32; 3],
}

impl RawCommon {
    /// Parses every field.
    ///
    /// # Safety
    /// Each non-NULL string pointer must point to a NUL-terminated string alive for the call.
    pub(crate) unsafe fn parse(&self) -> CResult<Common> {
        // SAFETY (all `c_str` / `opt_str` calls below): the caller's promise for the strings.
        let platform = Platform::parse(unsafe { c_str(self.platform, "params.platform") }?)?;
        let elements = match unsafe { opt_str(self.format, "params.format") }? {
            Some(name) => {
                if self.elem_size_bytes != 0 {
                    return Err(Failure::new(
                        NvsurfStatus::NVSURF_ERR_INVALID,
                        format!(
                            "params.elem_size_bytes {} is not allowed with params.format '{name}': give one of \
                             the two (elem_size_bytes 0 with a format)",
                            self.elem_size_bytes
                        ),
                    ));
                }
                // In the GPU's tables, as the CLI's `--format` (`A8R8G8B8` on `nv2a` is the
                // NV10-NV40 texture format).
                Elements::Format(Format::parse_for(name, platform.gpu())?)
            }
            None if self.elem_size_bytes == 0 => {
                return Err(Failure::new(
                    NvsurfStatus::NVSURF_ERR_INVALID,
                    "params.elem_size_bytes 0 is out of range 1..=16: give a format name or an element size",
                ))
            }
            None => Elements::Size(self.elem_size_bytes),
        };
        let layout = unsafe { opt_str(self.layout, "params.layout") }?.map(LayoutKind::parse).transpose()?;
        let gob_order = unsafe { opt_str(self.gob_order, "params.gob_order") }?.map(GobOrder::parse).transpose()?;
        let named =
            unsafe { opt_str(self.block_policy, "params.block_policy") }?.map(BlockPolicy::parse).transpose()?;
        let block_policy = match (c_bool(self.use_block_log2, "params.use_block_log2")?, named) {
            (true, Some(_)) => {
                return Err(Failure::new(
                    NvsurfStatus::NVSURF_ERR_INVALID,
                    "params.use_block_log2 1 is not allowed with params.block_policy: give one of the two",
                ))
            }
            (true, None) => Some(BlockPolicy::Explicit(self.block_log2)),
            (false, p) => p,
        };
        Ok(Common { platform, elements, overrides: Overrides { layout, gob_order, block_policy, modifier: None } })
    }
}

/// The copy options a `flags` word asks for.
pub(crate) fn copy_options(flags: u32) -> CResult<CopyOptions> {
    crate::ptr::check_flags(flags, NVSURF_COPY_PARALLEL, "flags")?;
    let threads = if flags & NVSURF_COPY_PARALLEL != 0 { Threads::CurrentPool } else { Threads::One };
    Ok(CopyOptions::default().threads(threads))
}
