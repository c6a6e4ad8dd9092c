//! Surfaces: create one from a platform, a format (or element size) and a size with the
//! platform's defaults, read back its layout, the offset of an element, and tile or untile the
//! whole surface or a box between caller-owned buffers.

use crate::params::{copy_options, Elements, RawCommon};
use crate::ptr::{check_buf, check_disjoint, check_out, give, handle, in_buf, out_buf, read_in, take_back, write_out};
use crate::status::{guard, CResult, NvsurfStatus};
use nvsurf::layout::{LayoutKind, Surface};
use nvsurf::tile::{self, LinearLayout, Region};
use nvsurf::SurfaceSpec;
use std::ffi::c_char;

/// A validated surface (opaque to C): create with `nvsurf_surface_create` or
/// `nvsurf_texture_surface`, free with `nvsurf_surface_destroy`.
#[derive(Debug, Clone, PartialEq)]
pub struct NvsurfSurface {
    surface: Surface,
}

impl NvsurfSurface {
    /// Wraps a surface (for the texture module's per-level surfaces).
    pub(crate) fn new(surface: Surface) -> NvsurfSurface {
        NvsurfSurface { surface }
    }

    /// The surface, for Rust callers of the rlib (the benchmark compares the C and Rust calls
    /// on the same surface).
    pub fn surface(&self) -> &Surface {
        &self.surface
    }
}

/// How a surface is described. Fill it with `nvsurf_surface_params_init` first, then set the
/// fields you need; string fields are NUL-terminated names, NULL meaning "the default".
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct NvsurfSurfaceParams {
    /// Required: a chip (`gm20b`, `gh100`, `nv2a`, ...) or a preset (`switch`).
    pub platform: *const c_char,
    /// A format name (`A8B8G8R8`, `bc7`, ...), then width and height are in pixels; or NULL
    /// and `elem_size_bytes`, then they are in elements.
    pub format: *const c_char,
    /// Bytes per element when `format` is NULL (must be 0 when it is not).
    pub elem_size_bytes: u32,
    /// Width (pixels with a format, else elements).
    pub width: u32,
    /// Height.
    pub height: u32,
    /// Depth in slices (1 for 2D).
    pub depth: u32,
    /// `pitch`, `blocklinear` or `swizzled`; NULL: the platform's natural layout.
    pub layout: *const c_char,
    /// In-gob byte order (`vm`, `tegra`, `turing`, `fermi`, `fermi-comment`, `blackwell16`, `blackwell8`); NULL: the
    /// platform's default for the format.
    pub gob_order: *const c_char,
    /// `max`, `nvn` or `nvidia`; NULL: the platform's driver's (unless `use_block_log2`).
    pub block_policy: *const c_char,
    /// 1: use `block_log2` as the block (then `block_policy` must be NULL); 0: do not.
    pub use_block_log2: u32,
    /// Explicit block, log2 gobs in x, y, z (when `use_block_log2` is 1).
    pub block_log2: [u32; 3],
    /// Pitch in bytes of a pitch surface; 0: the smallest valid pitch.
    pub pitch_bytes: u64,
}

/// A surface's layout, as `nvsurf_surface_info` reports it.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)] // C's constant names, exactly as the header spells them.
pub enum NvsurfLayout {
    /// Pitch ("linear").
    NVSURF_LAYOUT_PITCH = 0,
    /// Blocklinear ("tiled"), G80 and later.
    NVSURF_LAYOUT_BLOCKLINEAR = 1,
    /// Swizzled, before G80.
    NVSURF_LAYOUT_SWIZZLED = 2,
}

impl From<LayoutKind> for NvsurfLayout {
    fn from(k: LayoutKind) -> NvsurfLayout {
        match k {
            LayoutKind::Pitch => NvsurfLayout::NVSURF_LAYOUT_PITCH,
            LayoutKind::BlockLinear => NvsurfLayout::NVSURF_LAYOUT_BLOCKLINEAR,
            LayoutKind::Swizzled => NvsurfLayout::NVSURF_LAYOUT_SWIZZLED,
        }
    }
}

/// What a surface is, as `nvsurf_surface_info` reports it.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NvsurfSurfaceInfo {
    /// The layout.
    pub layout: NvsurfLayout,
    /// Bytes per element (compressed formats: per block of texels). The box and coordinate
    /// arguments count in these elements.
    pub elem_size_bytes: u32,
    /// Width, height, depth in elements.
    pub size_elements: [u32; 3],
    /// Bytes of memory the surface occupies (what a tiled buffer must hold).
    pub size_bytes: u64,
    /// Bytes of the whole surface as a packed linear image (width x height x depth elements).
    pub linear_size_bytes: u64,
    /// Pitch in bytes (pitch layout; 0 otherwise).
    pub pitch_bytes: u64,
    /// The effective block, log2 gobs in x, y, z (blocklinear; zeros otherwise).
    pub block_log2: [u32; 3],
    /// Bytes of one gob (blocklinear; 0 otherwise).
    pub gob_bytes: u64,
    /// Bytes of one block (blocklinear; 0 otherwise).
    pub block_bytes: u64,
}

/// A box of elements: origin x, y, z and extent w, h, d.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NvsurfBox {
    /// First column, in elements.
    pub x: u32,
    /// First row.
    pub y: u32,
    /// First slice.
    pub z: u32,
    /// Width in elements (at least 1).
    pub w: u32,
    /// Height in rows (at least 1).
    pub h: u32,
    /// Depth in slices (at least 1).
    pub d: u32,
}

/// Fills `*out` with the defaults: every string NULL, sizes 0 except depth 1, no explicit
/// block, pitch 0. Thread-safe; `out` is the caller's.
///
/// # Safety
/// `out` must be NULL or point to writable memory for one `NvsurfSurfaceParams`.
#[no_mangle]
pub unsafe extern "C" fn nvsurf_surface_params_init(out: *mut NvsurfSurfaceParams) -> NvsurfStatus {
    guard(|| {
        let p = NvsurfSurfaceParams {
            platform: std::ptr::null(),
            format: std::ptr::null(),
            elem_size_bytes: 0,
            width: 0,
            height: 0,
            depth: 1,
            layout: std::ptr::null(),
            gob_order: std::ptr::null(),
            block_policy: std::ptr::null(),
            use_block_log2: 0,
            block_log2: [0; 3],
            pitch_bytes: 0,
        };
        // SAFETY: the caller's promise for `out`; NULL and misalignment are errors.
        unsafe { write_out(out, p, "out") }
    })
}

/// Validates `*params` into a new surface and stores its handle in `*out` (untouched on
/// failure). The caller owns the handle: free it with `nvsurf_surface_destroy`. Thread-safe;
/// `params` and its strings are only read during the call.
///
/// # Safety
/// `params` must be NULL or point to an initialised `NvsurfSurfaceParams` whose non-NULL
/// strings are NUL-terminated; `out` must be NULL or point to writable memory for a pointer.
#[no_mangle]
pub unsafe extern "C" fn nvsurf_surface_create(
    params: *const NvsurfSurfaceParams,
    out: *mut *mut NvsurfSurface,
) -> NvsurfStatus {
    // SAFETY: the caller's promises, passed on unchanged.
    unsafe { create_surface(params, None, out) }
}

/// `nvsurf_surface_create` for a 2D image with a DRM format modifier (Linux `drm_fourcc.h`):
/// `DRM_FORMAT_MOD_LINEAR` (0) makes it pitch (NVK's row pitch unless `pitch_bytes` is given
/// where the params have one); an NVIDIA block-linear modifier sets the block (0, h, 0) and the
/// gob order. The modifier is checked as NVK (Mesa's nil) checks it for the GPU and format, and
/// `layout`, `gob_order` and the block, when given, must agree with it; a refusal is
/// `NVSURF_ERR_UNSUPPORTED` (a malformed modifier: `NVSURF_ERR_INVALID`) with a one-line
/// message. Thread-safe, like `nvsurf_surface_create`.
///
/// # Safety
/// As `nvsurf_surface_create`.
#[no_mangle]
pub unsafe extern "C" fn nvsurf_surface_create_with_modifier(
    params: *const NvsurfSurfaceParams,
    modifier: u64,
    out: *mut *mut NvsurfSurface,
) -> NvsurfStatus {
    // SAFETY: the caller's promises, passed on unchanged.
    unsafe { create_surface(params, Some(modifier), out) }
}

/// The body of both create functions.
///
/// # Safety
/// As `nvsurf_surface_create`.
unsafe fn create_surface(
    params: *const NvsurfSurfaceParams,
    modifier: Option<u64>,
    out: *mut *mut NvsurfSurface,
) -> NvsurfStatus {
    guard(|| {
        check_out(out, "out")?;
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
        let size = [p.width, p.height, p.depth];
        let mut spec = match &c.elements {
            Elements::Format(f) => SurfaceSpec::new(c.platform, f, size),
            Elements::Size(s) => SurfaceSpec::with_elem_size(c.platform, *s, size),
        };
        spec = spec.overrides(c.overrides);
        if p.pitch_bytes != 0 {
            spec = spec.pitch_bytes(p.pitch_bytes);
        }
        let surface = spec.build()?;
        // SAFETY: `out` passed check_out above; the caller's promise for its memory.
        unsafe { give(out, NvsurfSurface { surface }) }
    })
}

/// Frees a surface handle; NULL is allowed and does nothing. Returns `NVSURF_OK`.
/// Not thread-safe for that handle: no other call may use it during or after this one.
///
/// # Safety
/// `surface` must be NULL or a live handle from this library, destroyed once.
#[no_mangle]
pub unsafe extern "C" fn nvsurf_surface_destroy(surface: *mut NvsurfSurface) -> NvsurfStatus {
    guard(|| {
        // SAFETY: the caller's promise: a live handle from `give`, freed once.
        unsafe { take_back(surface) };
        Ok(())
    })
}

/// Writes what `surface` is to `*out`. Thread-safe: a handle may be read by many threads at
/// once.
///
/// # Safety
/// `surface` must be NULL or a live handle; `out` NULL or writable memory for one
/// `NvsurfSurfaceInfo`.
#[no_mangle]
pub unsafe extern "C" fn nvsurf_surface_info(
    surface: *const NvsurfSurface,
    out: *mut NvsurfSurfaceInfo,
) -> NvsurfStatus {
    guard(|| {
        // SAFETY: the caller's promise for the handle.
        let s = unsafe { handle(surface, "surface") }?.surface;
        let info = surface_info(&s)?;
        // SAFETY: the caller's promise for `out`.
        unsafe { write_out(out, info, "out") }
    })
}

/// The info of a surface.
pub(crate) fn surface_info(s: &Surface) -> CResult<NvsurfSurfaceInfo> {
    let region = Region::whole(s);
    let linear = LinearLayout::packed(&region, s.elem_size_bytes()).image_bytes(&region).ok_or_else(|| {
        crate::status::Failure::new(NvsurfStatus::NVSURF_ERR_OVERFLOW, "linear image size overflows 64 bits")
    })?;
    // The record `nvsurf layout --json` and `nvsurf.layout()` print.
    let r = nvsurf::SurfaceRecord::new(s);
    let bl = r.blocklinear;
    Ok(NvsurfSurfaceInfo {
        layout: s.kind().into(),
        elem_size_bytes: r.elem_size_bytes,
        size_elements: r.size_elements,
        size_bytes: r.size_bytes,
        linear_size_bytes: linear,
        pitch_bytes: r.pitch_bytes.unwrap_or(0),
        block_log2: bl.map_or([0; 3], |b| b.block_log2_effective),
        gob_bytes: bl.map_or(0, |b| b.gob_bytes),
        block_bytes: bl.map_or(0, |b| b.block_bytes),
    })
}

/// Writes to `*out` the byte offset of element (x, y, z) from the surface's start
/// (bounds-checked). Thread-safe.
///
/// # Safety
/// `surface` must be NULL or a live handle; `out` NULL or writable memory for a `uint64_t`.
#[no_mangle]
pub unsafe extern "C" fn nvsurf_surface_offset_of(
    surface: *const NvsurfSurface,
    x: u32,
    y: u32,
    z: u32,
    out: *mut u64,
) -> NvsurfStatus {
    guard(|| {
        // SAFETY: the caller's promise for the handle.
        let s = unsafe { handle(surface, "surface") }?;
        let off = s.surface.offset_of(x, y, z)?;
        // SAFETY: the caller's promise for `out`.
        unsafe { write_out(out, off, "out") }
    })
}

/// Which way a copy goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Dir {
    Untile,
    Tile,
}

/// The body shared by the four surface copies.
///
/// # Safety
/// The caller's promises for the handle, the box and both buffers (see the entry points).
#[allow(clippy::too_many_arguments)]
unsafe fn copy(
    dir: Dir,
    surface: *const NvsurfSurface,
    bx: Option<*const NvsurfBox>,
    row_pitch_bytes: u64,
    slice_pitch_bytes: u64,
    tiled: (*const u8, usize),
    linear: (*const u8, usize),
    flags: u32,
) -> CResult {
    // SAFETY: the caller's promise for the handle.
    let s = unsafe { handle(surface, "surface") }?.surface;
    let region = match bx {
        // SAFETY: the caller's promise for the box.
        Some(b) => {
            let b = unsafe { read_in(b, "region_box") }?;
            Region::new([b.x, b.y, b.z], [b.w, b.h, b.d])
        }
        None => Region::whole(&s),
    };
    let packed = LinearLayout::packed(&region, s.elem_size_bytes());
    let lin = LinearLayout {
        row_pitch_bytes: if row_pitch_bytes == 0 { packed.row_pitch_bytes } else { row_pitch_bytes },
        slice_pitch_bytes: match (slice_pitch_bytes, row_pitch_bytes) {
            (0, 0) => packed.slice_pitch_bytes,
            (0, r) => r.saturating_mul(region.h.into()),
            (sp, _) => sp,
        },
    };
    let opts = copy_options(flags)?;
    // Both ranges are checked (NULL, length) before they are compared and made into slices.
    let (in_, out) = match dir {
        Dir::Untile => ((tiled.0, tiled.1, "tiled"), (linear.0, linear.1, "linear")),
        Dir::Tile => ((linear.0, linear.1, "linear"), (tiled.0, tiled.1, "tiled")),
    };
    check_buf(in_.0, in_.1, in_.2)?;
    check_buf(out.0, out.1, out.2)?;
    check_disjoint(in_, out)?;
    // SAFETY (in_buf, out_buf): the caller promises `len` readable (input) and writable
    // (output) bytes; check_disjoint ruled out the two views aliasing.
    let src = unsafe { in_buf(in_.0, in_.1, in_.2) }?;
    let dst = unsafe { out_buf(out.0 as *mut u8, out.1, out.2) }?;
    match dir {
        Dir::Untile => tile::untile_with(&s, src, dst, region, lin, &opts)?,
        Dir::Tile => tile::tile_with(&s, src, dst, region, lin, &opts)?,
    }
    Ok(())
}

/// Untiles the whole surface: `tiled` (at least `size_bytes`, starting at the surface's
/// start) into the packed linear image `linear` (at least `linear_size_bytes`). `flags`: 0 or
/// `NVSURF_COPY_PARALLEL`. Thread-safe; the buffers are the caller's, only used during the
/// call, and must not overlap. Nothing outside the two buffers' first `size_bytes` /
/// `linear_size_bytes` bytes is touched.
///
/// # Safety
/// `surface` NULL or a live handle; `tiled` NULL or `tiled_len` readable bytes; `linear` NULL
/// or `linear_len` writable bytes that no other thread uses during the call.
#[no_mangle]
pub unsafe extern "C" fn nvsurf_surface_untile(
    surface: *const NvsurfSurface,
    tiled: *const u8,
    tiled_len: usize,
    linear: *mut u8,
    linear_len: usize,
    flags: u32,
) -> NvsurfStatus {
    // SAFETY: forwarded promises (see above).
    guard(|| unsafe { copy(Dir::Untile, surface, None, 0, 0, (tiled, tiled_len), (linear, linear_len), flags) })
}

/// Tiles the packed linear image `linear` into the whole surface in `tiled`; padding bytes of
/// `tiled` (partial gobs and blocks) keep their values. Otherwise as `nvsurf_surface_untile`.
///
/// # Safety
/// As `nvsurf_surface_untile`, with `linear` read and `tiled` written.
#[no_mangle]
pub unsafe extern "C" fn nvsurf_surface_tile(
    surface: *const NvsurfSurface,
    linear: *const u8,
    linear_len: usize,
    tiled: *mut u8,
    tiled_len: usize,
    flags: u32,
) -> NvsurfStatus {
    // SAFETY: forwarded promises (see above).
    guard(|| unsafe { copy(Dir::Tile, surface, None, 0, 0, (tiled, tiled_len), (linear, linear_len), flags) })
}

/// Untiles the box `*region_box` of the surface into `linear`, whose rows are `row_pitch_bytes`
/// apart (0: packed, `w` x element size) and slices `slice_pitch_bytes` apart (0: rows
/// times `h`). `linear` holds the box only: element (x, y, z) of the box is its first.
/// Otherwise as `nvsurf_surface_untile`.
///
/// # Safety
/// As `nvsurf_surface_untile`; `region_box` NULL or an initialised `NvsurfBox`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn nvsurf_surface_untile_box(
    surface: *const NvsurfSurface,
    region_box: *const NvsurfBox,
    row_pitch_bytes: u64,
    slice_pitch_bytes: u64,
    tiled: *const u8,
    tiled_len: usize,
    linear: *mut u8,
    linear_len: usize,
    flags: u32,
) -> NvsurfStatus {
    guard(|| {
        // SAFETY: forwarded promises (see above).
        unsafe {
            copy(
                Dir::Untile,
                surface,
                Some(region_box),
                row_pitch_bytes,
                slice_pitch_bytes,
                (tiled, tiled_len),
                (linear, linear_len),
                flags,
            )
        }
    })
}

/// Tiles `linear` (the box's image, laid out as in `nvsurf_surface_untile_box`) into the box
/// `*region_box` of the surface in `tiled`; bytes of `tiled` outside the box keep their values.
///
/// # Safety
/// As `nvsurf_surface_untile_box`, with `linear` read and `tiled` written.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn nvsurf_surface_tile_box(
    surface: *const NvsurfSurface,
    region_box: *const NvsurfBox,
    row_pitch_bytes: u64,
    slice_pitch_bytes: u64,
    linear: *const u8,
    linear_len: usize,
    tiled: *mut u8,
    tiled_len: usize,
    flags: u32,
) -> NvsurfStatus {
    guard(|| {
        // SAFETY: forwarded promises (see above).
        unsafe {
            copy(
                Dir::Tile,
                surface,
                Some(region_box),
                row_pitch_bytes,
                slice_pitch_bytes,
                (tiled, tiled_len),
                (linear, linear_len),
                flags,
            )
        }
    })
}
