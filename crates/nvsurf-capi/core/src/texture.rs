//! Textures: mip chains, arrays, cubes and 3D of any platform with its defaults (G80 and
//! later blocklinear; NV2A/NV40 swizzled, where tile and untile are the swizzle and
//! unswizzle), their levels and subresources, element addresses, and whole-texture copies.

use crate::params::{copy_options, Elements, RawCommon};
use crate::ptr::{check_buf, check_disjoint, check_out, give, handle, in_buf, out_buf, read_in, take_back, write_out};
use crate::status::{guard, CResult, Failure, NvsurfStatus};
use crate::surface::{NvsurfLayout, NvsurfSurface};
use nvsurf::texture::{Texture, TextureType};
use nvsurf::TextureSpec;
use std::ffi::c_char;

/// `levels` value of `NvsurfTextureParams`: every level down to 1x1.
pub const NVSURF_ALL_LEVELS: u32 = u32::MAX;

/// A validated texture (opaque to C): create with `nvsurf_texture_create`, free with
/// `nvsurf_texture_destroy`.
#[derive(Debug, Clone, PartialEq)]
pub struct NvsurfTexture {
    pub(crate) texture: Texture,
    /// Texels per element in x and y, from the format (the texture does not keep them).
    texels_per_elem: [u32; 2],
}

/// How a texture is described. Fill it with `nvsurf_texture_params_init` first, then set the
/// fields you need; string fields are NUL-terminated names, NULL meaning "the default".
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct NvsurfTextureParams {
    /// Required: a chip (`gm20b`, `gh100`, `nv2a`, ...) or a preset (`switch`).
    pub platform: *const c_char,
    /// A format name (`A8B8G8R8`, `bc7`, ...); or NULL and `elem_size_bytes` (one texel per
    /// element).
    pub format: *const c_char,
    /// Bytes per element when `format` is NULL (must be 0 when it is not).
    pub elem_size_bytes: u32,
    /// `1d`, `2d`, `3d`, `1d_array`, `2d_array`, `cube`, `cube_array`, `rect`, `buffer`;
    /// NULL: `2d`.
    pub texture_type: *const c_char,
    /// Level-0 width in texels.
    pub width: u32,
    /// Level-0 height in texels.
    pub height: u32,
    /// Level-0 depth in texels (1 unless 3D).
    pub depth: u32,
    /// Mip levels (1 or more), or `NVSURF_ALL_LEVELS`.
    pub levels: u32,
    /// Layers; 0: the type's default (6 for a cube, else 1).
    pub layers: u32,
    /// `pitch`, `blocklinear` or `swizzled`; NULL: the platform's natural layout.
    pub layout: *const c_char,
    /// In-gob byte order; NULL: the platform's default for the format.
    pub gob_order: *const c_char,
    /// `max`, `nvn` or `nvidia`; NULL: the platform's driver's (unless `use_block_log2`).
    pub block_policy: *const c_char,
    /// 1: use `block_log2` as the requested block (then `block_policy` must be NULL); 0: not.
    pub use_block_log2: u32,
    /// Requested block, log2 gobs in x, y, z (when `use_block_log2` is 1).
    pub block_log2: [u32; 3],
}

/// What a texture is, as `nvsurf_texture_info` reports it.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NvsurfTextureInfo {
    /// The layout of the levels.
    pub layout: NvsurfLayout,
    /// Bytes per element.
    pub elem_size_bytes: u32,
    /// Texels per element in x and y (4, 4 for BC formats).
    pub texels_per_elem: [u32; 2],
    /// Number of mip levels.
    pub level_count: u32,
    /// Number of layers (cube faces count as layers).
    pub layer_count: u32,
    /// Bytes from one layer to the next in the tiled texture.
    pub layer_stride_bytes: u64,
    /// Bytes of the whole tiled texture (what a dump must hold).
    pub size_bytes: u64,
    /// Bytes of the whole packed linear texture (layer by layer, level by level: DDS order).
    pub linear_size_bytes: u64,
}

/// One mip level (the same in every layer), as `nvsurf_texture_level` reports it.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NvsurfLevelInfo {
    /// Byte offset of the level from the start of its layer.
    pub offset_bytes: u64,
    /// Bytes the level occupies in the tiled texture.
    pub size_bytes: u64,
    /// Bytes of the level in the packed linear texture.
    pub linear_size_bytes: u64,
    /// Bytes one row of elements spans in the layout (pitch, blocklinear or swizzled row).
    pub row_bytes: u64,
    /// Width, height, depth in texels.
    pub texels: [u32; 3],
    /// Width, height, depth in elements.
    pub elements: [u32; 3],
    /// 1 if the level is blocklinear (then `block_log2` holds its block), else 0.
    pub is_blocklinear: u32,
    /// The level's effective block, log2 gobs x, y, z (zeros unless blocklinear).
    pub block_log2: [u32; 3],
}

/// One (level, layer), as `nvsurf_texture_subresource` reports it.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NvsurfSubresourceInfo {
    /// Byte offset in the tiled texture: layer x layer stride + level offset.
    pub offset_bytes: u64,
    /// Bytes it occupies in the tiled texture.
    pub size_bytes: u64,
    /// Byte offset in the packed linear texture.
    pub linear_offset_bytes: u64,
    /// Bytes in the packed linear texture.
    pub linear_size_bytes: u64,
    /// Width, height, depth in elements.
    pub elements: [u32; 3],
}

/// Fills `*out` with the defaults: every string NULL (a 2D texture), sizes 0 except depth 1,
/// one level, the type's layer count, no explicit block. Thread-safe.
///
/// # Safety
/// `out` must be NULL or point to writable memory for one `NvsurfTextureParams`.
#[no_mangle]
pub unsafe extern "C" fn nvsurf_texture_params_init(out: *mut NvsurfTextureParams) -> NvsurfStatus {
    guard(|| {
        let p = NvsurfTextureParams {
            platform: std::ptr::null(),
            format: std::ptr::null(),
            elem_size_bytes: 0,
            texture_type: std::ptr::null(),
            width: 0,
            height: 0,
            depth: 1,
            levels: 1,
            layers: 0,
            layout: std::ptr::null(),
            gob_order: std::ptr::null(),
            block_policy: std::ptr::null(),
            use_block_log2: 0,
            block_log2: [0; 3],
        };
        // SAFETY: the caller's promise for `out`; NULL and misalignment are errors.
        unsafe { write_out(out, p, "out") }
    })
}

/// Validates `*params` into a new texture (the platform's gob order and block policy unless
/// overridden) and stores its handle in `*out` (untouched on failure). The caller owns the
/// handle: free it with `nvsurf_texture_destroy`. Thread-safe; `params` is only read during
/// the call.
///
/// # Safety
/// `params` must be NULL or point to an initialised `NvsurfTextureParams` whose non-NULL
/// strings are NUL-terminated; `out` must be NULL or point to writable memory for a pointer.
#[no_mangle]
pub unsafe extern "C" fn nvsurf_texture_create(
    params: *const NvsurfTextureParams,
    out: *mut *mut NvsurfTexture,
) -> NvsurfStatus {
    // SAFETY: the caller's promises, passed on unchanged.
    unsafe { create_texture(params, None, out) }
}

/// `nvsurf_texture_create` for a 2D image with a DRM format modifier (Linux `drm_fourcc.h`):
/// `DRM_FORMAT_MOD_LINEAR` (0) makes it pitch (NVK's row pitch unless `pitch_bytes` is given
/// where the params have one); an NVIDIA block-linear modifier sets the block (0, h, 0) and the
/// gob order. The modifier is checked as NVK (Mesa's nil) checks it for the GPU and format, and
/// `layout`, `gob_order` and the block, when given, must agree with it; a refusal is
/// `NVSURF_ERR_UNSUPPORTED` (a malformed modifier: `NVSURF_ERR_INVALID`) with a one-line
/// message. Thread-safe, like `nvsurf_texture_create`.
///
/// # Safety
/// As `nvsurf_texture_create`.
#[no_mangle]
pub unsafe extern "C" fn nvsurf_texture_create_with_modifier(
    params: *const NvsurfTextureParams,
    modifier: u64,
    out: *mut *mut NvsurfTexture,
) -> NvsurfStatus {
    // SAFETY: the caller's promises, passed on unchanged.
    unsafe { create_texture(params, Some(modifier), out) }
}

/// The body of both create functions.
///
/// # Safety
/// As `nvsurf_texture_create`.
unsafe fn create_texture(
    params: *const NvsurfTextureParams,
    modifier: Option<u64>,
    out: *mut *mut NvsurfTexture,
) -> NvsurfStatus {
    guard(|| {
        check_out(out, "out")?;
        // SAFETY: the caller's promise for `params` and its strings.
        let made = unsafe { create(params, modifier, |spec| spec) }?;
        // SAFETY: `out` passed check_out above; the caller's promise for its memory.
        unsafe { give(out, made) }
    })
}

/// The texture `*params` describes, with `modifier` (`nvsurf_texture_create_with_modifier`)
/// and `adjust` applied to its spec before it is built (the sample count and flags of
/// `nvsurf_texture_create_ex`).
///
/// # Safety
/// `params` must be NULL or point to an initialised `NvsurfTextureParams` whose non-NULL
/// strings are NUL-terminated.
pub(crate) unsafe fn create(
    params: *const NvsurfTextureParams,
    modifier: Option<u64>,
    adjust: impl FnOnce(TextureSpec) -> TextureSpec,
) -> CResult<NvsurfTexture> {
    // SAFETY: the caller's promise for `params`; NULL and misalignment are errors.
    let p = unsafe { read_in(params, "params") }?;
    let raw = RawCommon {
        platform: p.platform,
        format: p.format,
        elem_size_bytes: p.elem_size_bytes,
        layout: p.layout,
        gob_order: p.gob_order,
        block_policy: p.block_policy,
        use_block_log2: p.use_block_log2,
        block_log2: p.block_log2,
    };
    // SAFETY: the caller's promise for the strings of `params`.
    let mut c = unsafe { raw.parse() }?;
    c.overrides.modifier = modifier;
    // SAFETY: as above.
    let ty = match unsafe { crate::ptr::opt_str(p.texture_type, "params.texture_type") }? {
        Some(n) => TextureType::parse(n)?,
        None => TextureType::D2,
    };
    let size = [p.width, p.height, p.depth];
    let mut spec = match &c.elements {
        Elements::Format(f) => TextureSpec::new(c.platform, ty, f, size),
        Elements::Size(s) => TextureSpec::with_elem_size(c.platform, ty, *s, size),
    };
    spec = if p.levels == NVSURF_ALL_LEVELS { spec.full_mip_chain() } else { spec.levels(p.levels) };
    if p.layers != 0 {
        spec = spec.layers(p.layers);
    }
    let texture = adjust(spec.overrides(c.overrides)).build()?;
    let texels_per_elem = match &c.elements {
        Elements::Format(f) => {
            let (w, h) = f.block_dims();
            [w, h]
        }
        Elements::Size(_) => [1, 1],
    };
    Ok(NvsurfTexture { texture, texels_per_elem })
}

/// Frees a texture handle; NULL is allowed and does nothing. Returns `NVSURF_OK`.
/// Not thread-safe for that handle: no other call may use it during or after this one.
///
/// # Safety
/// `texture` must be NULL or a live handle from this library, destroyed once.
#[no_mangle]
pub unsafe extern "C" fn nvsurf_texture_destroy(texture: *mut NvsurfTexture) -> NvsurfStatus {
    guard(|| {
        // SAFETY: the caller's promise: a live handle from `give`, freed once.
        unsafe { take_back(texture) };
        Ok(())
    })
}

/// Writes what `texture` is to `*out`. Thread-safe.
///
/// # Safety
/// `texture` NULL or a live handle; `out` NULL or writable memory for one `NvsurfTextureInfo`.
#[no_mangle]
pub unsafe extern "C" fn nvsurf_texture_info(
    texture: *const NvsurfTexture,
    out: *mut NvsurfTextureInfo,
) -> NvsurfStatus {
    guard(|| {
        // SAFETY: the caller's promise for the handle.
        let h = unsafe { handle(texture, "texture") }?;
        let t = &h.texture;
        let info = NvsurfTextureInfo {
            layout: t.layout().into(),
            elem_size_bytes: t.elem_size_bytes(),
            texels_per_elem: h.texels_per_elem,
            level_count: t.level_count(),
            layer_count: t.layer_count(),
            layer_stride_bytes: t.layer_stride_bytes(),
            size_bytes: t.size_bytes(),
            linear_size_bytes: t.linear_size_bytes(),
        };
        // SAFETY: the caller's promise for `out`.
        unsafe { write_out(out, info, "out") }
    })
}

/// Writes level `level` of `texture` to `*out`. Thread-safe.
///
/// # Safety
/// `texture` NULL or a live handle; `out` NULL or writable memory for one `NvsurfLevelInfo`.
#[no_mangle]
pub unsafe extern "C" fn nvsurf_texture_level(
    texture: *const NvsurfTexture,
    level: u32,
    out: *mut NvsurfLevelInfo,
) -> NvsurfStatus {
    guard(|| {
        // SAFETY: the caller's promise for the handle.
        let t = &unsafe { handle(texture, "texture") }?.texture;
        // The record `nvsurf texture --json` and `nvsurf.Texture.levels` print.
        let l = nvsurf::LevelRecord::new(t.level(level)?, t.elem_size_bytes());
        let info = NvsurfLevelInfo {
            offset_bytes: l.offset_bytes,
            size_bytes: l.size_bytes,
            linear_size_bytes: l.linear_size_bytes,
            row_bytes: l.row_bytes,
            texels: l.size_texels,
            elements: l.size_elements,
            is_blocklinear: u32::from(l.block_log2.is_some()),
            block_log2: l.block_log2.unwrap_or([0; 3]),
        };
        // SAFETY: the caller's promise for `out`.
        unsafe { write_out(out, info, "out") }
    })
}

/// Writes subresource (`level`, `layer`) of `texture` to `*out`. Thread-safe.
///
/// # Safety
/// `texture` NULL or a live handle; `out` NULL or writable memory for one
/// `NvsurfSubresourceInfo`.
#[no_mangle]
pub unsafe extern "C" fn nvsurf_texture_subresource(
    texture: *const NvsurfTexture,
    level: u32,
    layer: u32,
    out: *mut NvsurfSubresourceInfo,
) -> NvsurfStatus {
    guard(|| {
        // SAFETY: the caller's promise for the handle.
        let t = &unsafe { handle(texture, "texture") }?.texture;
        let s = t.subresource(level, layer)?;
        let info = NvsurfSubresourceInfo {
            offset_bytes: s.offset_bytes,
            size_bytes: s.size_bytes,
            linear_offset_bytes: s.linear_offset_bytes,
            linear_size_bytes: s.linear_size_bytes,
            elements: s.elements.to_array(),
        };
        // SAFETY: the caller's promise for `out`.
        unsafe { write_out(out, info, "out") }
    })
}

/// Creates a surface handle for subresource (`level`, `layer`): the level's surface, which
/// starts `offset_bytes` (see `nvsurf_texture_subresource`) into the tiled texture. Use it to
/// copy a box of one level. The caller owns the new handle (`nvsurf_surface_destroy`); it
/// does not refer to the texture. Thread-safe. `NVSURF_ERR_UNSUPPORTED` for BUFFER textures,
/// which have no surface.
///
/// # Safety
/// `texture` NULL or a live handle; `out` NULL or writable memory for a pointer.
#[no_mangle]
pub unsafe extern "C" fn nvsurf_texture_surface(
    texture: *const NvsurfTexture,
    level: u32,
    layer: u32,
    out: *mut *mut NvsurfSurface,
) -> NvsurfStatus {
    guard(|| {
        check_out(out, "out")?;
        // SAFETY: the caller's promise for the handle.
        let t = &unsafe { handle(texture, "texture") }?.texture;
        let s = t.subresource(level, layer)?.surface.ok_or_else(|| {
            Failure::new(
                NvsurfStatus::NVSURF_ERR_UNSUPPORTED,
                "texture_type buffer has no surface: a BUFFER texture's bytes are copied as they are",
            )
        })?;
        // SAFETY: `out` passed check_out; the caller's promise for its memory.
        unsafe { give(out, NvsurfSurface::new(s)) }
    })
}

/// Writes to `*out` the byte offset in the tiled texture of element (x, y, z) of
/// (`level`, `layer`), bounds-checked. Thread-safe.
///
/// # Safety
/// `texture` NULL or a live handle; `out` NULL or writable memory for a `uint64_t`.
#[no_mangle]
pub unsafe extern "C" fn nvsurf_texture_offset_of(
    texture: *const NvsurfTexture,
    level: u32,
    layer: u32,
    x: u32,
    y: u32,
    z: u32,
    out: *mut u64,
) -> NvsurfStatus {
    guard(|| {
        // SAFETY: the caller's promise for the handle.
        let t = &unsafe { handle(texture, "texture") }?.texture;
        let off = t.offset_of(level, layer, [x, y, z])?;
        // SAFETY: the caller's promise for `out`.
        unsafe { write_out(out, off, "out") }
    })
}

/// The body of the two texture copies: `src` is read, `dst` written.
///
/// # Safety
/// The caller's promises for the handle and both buffers.
unsafe fn copy(
    untile: bool,
    texture: *const NvsurfTexture,
    src: (*const u8, usize, &str),
    dst: (*mut u8, usize, &str),
    flags: u32,
) -> CResult {
    // SAFETY: the caller's promise for the handle.
    let t = &unsafe { handle(texture, "texture") }?.texture;
    let opts = copy_options(flags)?;
    check_buf(src.0, src.1, src.2)?;
    check_buf(dst.0, dst.1, dst.2)?;
    check_disjoint(src, (dst.0, dst.1, dst.2))?;
    // SAFETY: the caller promises readable `src` and writable `dst` bytes of those lengths;
    // check_disjoint ruled out the two views aliasing.
    let (s, d) = unsafe { (in_buf(src.0, src.1, src.2)?, out_buf(dst.0, dst.1, dst.2)?) };
    if untile {
        t.untile_with(s, d, &opts)?;
    } else {
        t.tile_with(s, d, &opts)?;
    }
    Ok(())
}

/// Untiles the whole texture: the tiled texture `tiled` (at least `size_bytes`) into the
/// packed linear texture `linear` (at least `linear_size_bytes`; layer by layer, level by
/// level). On a pre-G80 (NV2A, NV40) texture this is the unswizzle. `flags`: 0 or
/// `NVSURF_COPY_PARALLEL`. Thread-safe; the buffers are the caller's, only used during the
/// call, and must not overlap.
///
/// # Safety
/// `texture` NULL or a live handle; `tiled` NULL or `tiled_len` readable bytes; `linear` NULL
/// or `linear_len` writable bytes that no other thread uses during the call.
#[no_mangle]
pub unsafe extern "C" fn nvsurf_texture_untile(
    texture: *const NvsurfTexture,
    tiled: *const u8,
    tiled_len: usize,
    linear: *mut u8,
    linear_len: usize,
    flags: u32,
) -> NvsurfStatus {
    // SAFETY: forwarded promises (see above).
    guard(|| unsafe { copy(true, texture, (tiled, tiled_len, "tiled"), (linear, linear_len, "linear"), flags) })
}

/// Tiles the packed linear texture `linear` into `tiled` (on a pre-G80 texture: the
/// swizzle); padding bytes of `tiled` between levels and layers and in partial gobs keep their
/// values. Otherwise as `nvsurf_texture_untile`.
///
/// # Safety
/// As `nvsurf_texture_untile`, with `linear` read and `tiled` written.
#[no_mangle]
pub unsafe extern "C" fn nvsurf_texture_tile(
    texture: *const NvsurfTexture,
    linear: *const u8,
    linear_len: usize,
    tiled: *mut u8,
    tiled_len: usize,
    flags: u32,
) -> NvsurfStatus {
    // SAFETY: forwarded promises (see above).
    guard(|| unsafe { copy(false, texture, (linear, linear_len, "linear"), (tiled, tiled_len, "tiled"), flags) })
}
