//! DRM format modifiers: the 64-bit values Linux's KMS, EGL and Vulkan (WSI, dma-buf import and
//! export, PRIME) use to say how a buffer is laid out, decoded and encoded for NVIDIA's
//! block-linear layout, and the modifiers NVK (Mesa's nil) offers for a GPU and format.
//!
//! The bit fields follow the Linux kernel's `include/uapi/drm/drm_fourcc.h`,
//! `DRM_FORMAT_MOD_NVIDIA_BLOCK_LINEAR_2D(c, s, g, k, h)` (torvalds/linux, e.g. commit
//! `0089d6ee3bb6d961f6e193d9384705ed41496adf`), with vendor `DRM_FORMAT_MOD_VENDOR_NVIDIA`
//! (0x03) in bits 56-63 and `DRM_FORMAT_MOD_LINEAR` = 0:
//!
//! | bits | field |
//! |---|---|
//! | 3:0 | `h`: log2 of the block height in gobs (0-5: 1 to 32 gobs) |
//! | 4 | must be 1: block linear |
//! | 11:5 | reserved, zero |
//! | 19:12 | `k`: the PTE (page) kind |
//! | 21:20 | `g`: gob height and page kind generation (0 Fermi-Volta and Tegra K1+, 1 G80-GT2xx, 2 Turing+) |
//! | 22, 27:26 | `s`: sector layout (0 Tegra K1-Parker, 1 desktop and Xavier+, 2 and 3 Blackwell GB20x 8 and 16 bpp) |
//! | 25:23 | `c`: compression (0 none, 1 and 2 ROP/3D layouts 1 and 2, 3 CDE horizontal, 4 CDE vertical) |
//! | 55:28 | reserved, zero |
//!
//! The two high bits of `s` (bits 26-27) came with Blackwell: the kernel header's GB20x update
//! (`(((s) & 0x6) << 25)`, "55:28 Reserved") and Mesa's nil (`src/nouveau/nil/modifiers.rs`,
//! commit `157fa86f6d5def2bec5c91f33be70c138250ab7f`, `BlockLinearModifier::block_linear_2d`)
//! both place them there; older headers reserve those bits as zero, so every older modifier
//! decodes the same.
//!
//! What NVK offers and accepts ([`modifiers_for`], [`fit`]) follows nil's `modifiers.rs`
//! (`drm_format_mods_for_format`, `drm_format_mod_is_supported`) with `GOBType::choose`
//! (`tiling.rs`) and `Image::choose_pte_kind` (`image.rs`) at the same commit.

mod fields;
mod fit;

pub use crate::error::ModifierError;
pub use fields::{
    parse, BlockLinear, Compression, GobKindGeneration, Modifier, SectorLayout, DRM_FORMAT_MOD_INVALID,
    DRM_FORMAT_MOD_LINEAR, MAX_BLOCK_HEIGHT_LOG2, VENDOR_NVIDIA,
};
pub use fit::{expected, fit, modifiers_for, Expected};
