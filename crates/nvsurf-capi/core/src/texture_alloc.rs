//! Multisampled and sparse textures and what a driver allocates for a texture: the sample
//! count, sparse residency, the allocation alignment, the sparse block and the mip tail
//! (`nvsurf texture --samples N --sparse --json` in C). New entry points beside
//! `nvsurf_texture_create` and `nvsurf_texture_info`, so that the published structs keep their
//! layout (`crates/nvsurf-capi/README.md`, "Growing structs").

use crate::ptr::{check_out, give, handle, write_out};
use crate::status::{guard, Failure, NvsurfStatus};
use crate::texture::{create, NvsurfTexture, NvsurfTextureParams};
use nvsurf::texture::AlignSource;

/// Where `NvsurfTextureAllocation::align_bytes` comes from.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)] // C's constant names, exactly as the header spells them.
pub enum NvsurfAlignSource {
    /// Not known for the block policy (NVIDIA's driver, NVN): `align_bytes` is 0.
    NVSURF_ALIGN_UNKNOWN = 0,
    /// The hardware's minimum address alignment of the layout (the document's).
    NVSURF_ALIGN_DOCUMENT = 1,
    /// Mesa nil's rule (the `nvk` policy, sparse images).
    NVSURF_ALIGN_NIL = 2,
    /// Measured: NVIDIA's Vulkan driver on an H100 (the `nvidia` policy on GH100).
    NVSURF_ALIGN_NVIDIA_H100 = 3,
}

/// What a driver allocates for a texture, as `nvsurf_texture_allocation` reports it.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NvsurfTextureAllocation {
    /// Samples per pixel (1 unless multisampled).
    pub samples: u32,
    /// 1 if laid out for sparse residency, else 0.
    pub sparse: u32,
    /// The allocation alignment in bytes; 0 where unknown.
    pub align_bytes: u64,
    /// Whose rule `align_bytes` follows.
    pub align_source: NvsurfAlignSource,
    /// The standard sparse block in pixels (zeros unless sparse).
    pub sparse_block_px: [u32; 3],
    /// The first level of the mip tail (the level count without a tail; 0 unless sparse).
    pub mip_tail_first_level: u32,
    /// The mip tail's offset within a layer in bytes (0 without a tail).
    pub mip_tail_offset_bytes: u64,
    /// The mip tail's size in bytes (0 without a tail).
    pub mip_tail_size_bytes: u64,
}

/// `flags` bit of `nvsurf_texture_create_ex`: sparse residency as NVK lays it out.
pub const NVSURF_TEXTURE_SPARSE: u32 = 1;
/// `flags` bit of `nvsurf_texture_create_ex`: lay out a format the GPU cannot sample (ETC2/EAC
/// and ASTC on desktop GPUs, per Mesa nil's format table), which is refused otherwise.
pub const NVSURF_TEXTURE_ANY_FORMAT: u32 = 2;

/// `nvsurf_texture_create` with `samples` samples per pixel (1, 2, 4, 8, 16: a one-level 2D
/// texture; the size stays in pixels and the levels hold the sample grid) and `flags`
/// (`NVSURF_TEXTURE_SPARSE`, `NVSURF_TEXTURE_ANY_FORMAT`, or 0). Thread-safe.
///
/// # Safety
/// As `nvsurf_texture_create`.
#[no_mangle]
pub unsafe extern "C" fn nvsurf_texture_create_ex(
    params: *const NvsurfTextureParams,
    samples: u32,
    flags: u32,
    out: *mut *mut NvsurfTexture,
) -> NvsurfStatus {
    guard(|| {
        check_out(out, "out")?;
        let known = NVSURF_TEXTURE_SPARSE | NVSURF_TEXTURE_ANY_FORMAT;
        if flags & !known != 0 {
            return Err(Failure::new(NvsurfStatus::NVSURF_ERR_UNSUPPORTED, format!(
                "flags {flags:#x} is not supported: the flags are NVSURF_TEXTURE_SPARSE (1) and NVSURF_TEXTURE_ANY_FORMAT (2)"
            )));
        }
        let (sparse, any) = (flags & NVSURF_TEXTURE_SPARSE != 0, flags & NVSURF_TEXTURE_ANY_FORMAT != 0);
        // SAFETY: the caller's promise for `params` and its strings.
        let made = unsafe { create(params, None, |spec| spec.samples(samples).sparse(sparse).any_format(any)) }?;
        // SAFETY: `out` passed check_out above; the caller's promise for its memory.
        unsafe { give(out, made) }
    })
}

/// Writes what a driver allocates for `texture` to `*out`. Thread-safe.
///
/// # Safety
/// `texture` NULL or a live handle; `out` NULL or writable memory for one
/// `NvsurfTextureAllocation`.
#[no_mangle]
pub unsafe extern "C" fn nvsurf_texture_allocation(
    texture: *const NvsurfTexture,
    out: *mut NvsurfTextureAllocation,
) -> NvsurfStatus {
    guard(|| {
        // SAFETY: the caller's promise for the handle.
        let t = &unsafe { handle(texture, "texture") }?.texture;
        let (tail_offset, tail_size) = t.mip_tail_bytes().unwrap_or((0, 0));
        let info = NvsurfTextureAllocation {
            samples: t.samples(),
            sparse: u32::from(t.is_sparse()),
            align_bytes: t.align_bytes().unwrap_or(0),
            align_source: match t.align_source() {
                AlignSource::Nil => NvsurfAlignSource::NVSURF_ALIGN_NIL,
                AlignSource::Document => NvsurfAlignSource::NVSURF_ALIGN_DOCUMENT,
                AlignSource::NvidiaH100 => NvsurfAlignSource::NVSURF_ALIGN_NVIDIA_H100,
                AlignSource::Unknown => NvsurfAlignSource::NVSURF_ALIGN_UNKNOWN,
            },
            sparse_block_px: t.sparse_block_px().unwrap_or([0; 3]),
            mip_tail_first_level: t.mip_tail_first_level().unwrap_or(0),
            mip_tail_offset_bytes: tail_offset,
            mip_tail_size_bytes: tail_size,
        };
        // SAFETY: the caller's promise for `out`.
        unsafe { write_out(out, info, "out") }
    })
}
