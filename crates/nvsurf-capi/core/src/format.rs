//! Formats: look one up by name, read what it is, and decode a rectangle of its elements to
//! RGBA8 or RGBA32F pixels.

use crate::ptr::{check_buf, check_disjoint, check_out, give, handle, in_buf, take_back};
use crate::status::{guard, CResult, Failure, NvsurfStatus};
use nvsurf::extent::{Extent, Texels};
use nvsurf::format::Format;
use std::ffi::c_char;

/// Bytes of `NvsurfFormatInfo::name`, the terminating NUL included.
pub const NVSURF_NAME_BYTES: usize = 64;

/// A format (opaque to C): look one up with `nvsurf_format_lookup`, free it with
/// `nvsurf_format_destroy`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NvsurfFormat {
    format: Format,
}

/// Bytes of `NvsurfFormatInfo` as first published (`name` to `is_depth`): what
/// `nvsurf_format_info` writes, and the least `nvsurf_format_info_sized` takes.
pub const NVSURF_FORMAT_INFO_V1_BYTES: usize = 84;

/// What a format is, as `nvsurf_format_info_sized` (every field) and `nvsurf_format_info` (the
/// fields before `is_srgb`) report it. The struct only grows at its end; a caller passes
/// `sizeof(NvsurfFormatInfo)` of its own header to `nvsurf_format_info_sized`, so programs
/// built against an older header keep working with a newer library and the reverse.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NvsurfFormatInfo {
    /// A name that `nvsurf_format_lookup` resolves back to this very format, NUL-terminated:
    /// the table row's canonical name, with `_srgb` when sRGB is on (`DXT1_srgb`), a table
    /// prefix when the bare name means another table's row (`zeta:Z24_S8`, `nv2a:A8R8G8B8`).
    pub name: [c_char; NVSURF_NAME_BYTES],
    /// Bytes per element (per block of texels for compressed formats).
    pub elem_size_bytes: u32,
    /// Texels per element in x (4 for BC formats, else 1).
    pub block_width: u32,
    /// Texels per element in y.
    pub block_height: u32,
    /// 1 for block-compressed formats, else 0.
    pub is_compressed: u32,
    /// 1 for depth/stencil (zeta) formats, else 0.
    pub is_depth: u32,
    /// 1 when R, G, B are sRGB-encoded (`bc1_srgb`, `RGBA8_SRGB`), else 0. Written by
    /// `nvsurf_format_info_sized` only (`nvsurf_format_info` writes the fields before it).
    pub is_srgb: u32,
}

// The first published struct ends where `is_srgb` begins.
const _: () = assert!(std::mem::offset_of!(NvsurfFormatInfo, is_srgb) == NVSURF_FORMAT_INFO_V1_BYTES);

/// Looks a format up by name (case-insensitive; texture, colour and zeta names, aliases such
/// as `bc7`, `RGBA8_UNORM`) and stores a new handle in `*out` (untouched on failure). An
/// unknown name is `NVSURF_ERR_UNKNOWN_NAME`, whose message lists the closest names. The
/// caller owns the handle (`nvsurf_format_destroy`). Thread-safe.
///
/// # Safety
/// `name` NULL or a NUL-terminated string; `out` NULL or writable memory for a pointer.
#[no_mangle]
pub unsafe extern "C" fn nvsurf_format_lookup(name: *const c_char, out: *mut *mut NvsurfFormat) -> NvsurfStatus {
    guard(|| {
        check_out(out, "out")?;
        // SAFETY: the caller's promise for `name`.
        let n = unsafe { crate::ptr::c_str(name, "name") }?;
        let format = Format::parse(n)?;
        // SAFETY: `out` passed check_out; the caller's promise for its memory.
        unsafe { give(out, NvsurfFormat { format }) }
    })
}

/// Looks a format up by name in the tables of `gpu` (a chip or preset, as
/// `NvsurfSurfaceParams.platform`: `nv2a`, `nv40`, `switch`, ...), as the surface and texture
/// functions and the CLI's `--format` do: on NV10-NV40 GPUs that GPU's pre-G80 texture formats
/// only (`A8R8G8B8` on `nv2a` is NV097's texture format 0x06, not G80's colour format; a name
/// the table lacks is NVSURF_ERR_UNKNOWN_NAME with its closest names, never a G80 format); on
/// G80 and later as `nvsurf_format_lookup`. Stores a new
/// handle in `*out` (untouched on failure); the caller owns it (`nvsurf_format_destroy`).
/// Thread-safe.
///
/// # Safety
/// `gpu` and `name` NULL or NUL-terminated strings; `out` NULL or writable memory for a
/// pointer.
#[no_mangle]
pub unsafe extern "C" fn nvsurf_format_lookup_for(
    gpu: *const c_char,
    name: *const c_char,
    out: *mut *mut NvsurfFormat,
) -> NvsurfStatus {
    guard(|| {
        check_out(out, "out")?;
        // SAFETY: the caller's promise for the strings.
        let platform = nvsurf::Platform::parse(unsafe { crate::ptr::c_str(gpu, "gpu") }?)?;
        // SAFETY: as above.
        let n = unsafe { crate::ptr::c_str(name, "name") }?;
        let format = Format::parse_for(n, platform.gpu())?;
        // SAFETY: `out` passed check_out; the caller's promise for its memory.
        unsafe { give(out, NvsurfFormat { format }) }
    })
}

/// Frees a format handle; NULL is allowed and does nothing. Returns `NVSURF_OK`. Not
/// thread-safe for that handle: no other call may use it during or after this one.
///
/// # Safety
/// `format` must be NULL or a live handle from this library, destroyed once.
#[no_mangle]
pub unsafe extern "C" fn nvsurf_format_destroy(format: *mut NvsurfFormat) -> NvsurfStatus {
    guard(|| {
        // SAFETY: the caller's promise: a live handle from `give`, freed once.
        unsafe { take_back(format) };
        Ok(())
    })
}

/// What `f` is, every field.
fn info_of(f: &Format) -> NvsurfFormatInfo {
    let mut name = [0 as c_char; NVSURF_NAME_BYTES];
    // Names are short ASCII (a test holds every full name under 64 bytes); one longer than
    // the field is cut, keeping the NUL.
    for (d, s) in name.iter_mut().zip(f.full_name().bytes().take(NVSURF_NAME_BYTES - 1)) {
        *d = s as c_char;
    }
    let (bw, bh) = f.block_dims();
    NvsurfFormatInfo {
        name,
        elem_size_bytes: f.elem_size_bytes(),
        block_width: bw,
        block_height: bh,
        is_compressed: u32::from(f.is_compressed()),
        is_depth: u32::from(f.is_zeta()),
        is_srgb: u32::from(f.is_srgb()),
    }
}

/// Writes the first `len` bytes of `info` to `out` (checked: not NULL, aligned).
///
/// # Safety
/// `out` NULL or writable memory for `len` bytes, `len <= size_of::<NvsurfFormatInfo>()`.
unsafe fn write_prefix(out: *mut NvsurfFormatInfo, info: &NvsurfFormatInfo, len: usize) -> CResult {
    check_out(out, "out")?;
    // SAFETY: `out` is not NULL and aligned (checked), the caller promises `len` writable
    // bytes there, and `len` is at most the size of `info`, a local that cannot overlap them.
    unsafe { std::ptr::copy_nonoverlapping(info as *const NvsurfFormatInfo as *const u8, out as *mut u8, len) };
    Ok(())
}

/// Writes what `format` is to `*out`: the fields of the struct as first published (`name` to
/// `is_depth`, `NVSURF_FORMAT_INFO_V1_BYTES` bytes), so that programs built against that header
/// keep working; `is_srgb` and later fields are left as they were (`nvsurf_format_info_sized`
/// writes them). Thread-safe.
///
/// # Safety
/// `format` NULL or a live handle; `out` NULL or writable memory for
/// `NVSURF_FORMAT_INFO_V1_BYTES` bytes, aligned for `NvsurfFormatInfo`.
#[no_mangle]
pub unsafe extern "C" fn nvsurf_format_info(format: *const NvsurfFormat, out: *mut NvsurfFormatInfo) -> NvsurfStatus {
    guard(|| {
        // SAFETY: the caller's promise for the handle.
        let f = unsafe { handle(format, "format") }?.format;
        // SAFETY: the caller's promise for `out`; V1 bytes are less than the struct's size.
        unsafe { write_prefix(out, &info_of(&f), NVSURF_FORMAT_INFO_V1_BYTES) }
    })
}

/// Writes what `format` is to `*out`, every field this library has that fits in
/// `out_size_bytes` (pass `sizeof(NvsurfFormatInfo)`): a larger struct of a newer header keeps
/// its extra bytes as they were, a smaller one of an older header gets only its own fields.
/// `out_size_bytes` below `NVSURF_FORMAT_INFO_V1_BYTES` is `NVSURF_ERR_BUFFER_TOO_SMALL`.
/// Thread-safe.
///
/// # Safety
/// `format` NULL or a live handle; `out` NULL or writable memory for `out_size_bytes` bytes,
/// aligned for `NvsurfFormatInfo`.
#[no_mangle]
pub unsafe extern "C" fn nvsurf_format_info_sized(
    format: *const NvsurfFormat,
    out: *mut NvsurfFormatInfo,
    out_size_bytes: usize,
) -> NvsurfStatus {
    guard(|| {
        // SAFETY: the caller's promise for the handle.
        let f = unsafe { handle(format, "format") }?.format;
        check_out(out, "out")?;
        if out_size_bytes < NVSURF_FORMAT_INFO_V1_BYTES {
            return Err(Failure::new(
                NvsurfStatus::NVSURF_ERR_BUFFER_TOO_SMALL,
                format!(
                    "out_size_bytes {out_size_bytes} is too small: NvsurfFormatInfo is at least \
                     {NVSURF_FORMAT_INFO_V1_BYTES} bytes (pass sizeof(NvsurfFormatInfo))"
                ),
            ));
        }
        let len = out_size_bytes.min(std::mem::size_of::<NvsurfFormatInfo>());
        // SAFETY: the caller's promise for `out_size_bytes` bytes at `out`; `len` is at most
        // both that and the struct's size.
        unsafe { write_prefix(out, &info_of(&f), len) }
    })
}

/// The row pitch of a decode: the given one, or packed rows of whole elements.
fn row_pitch(f: &Format, width_px: u32, given: usize) -> CResult<usize> {
    if given != 0 {
        return Ok(given);
    }
    let cols = Extent::<Texels>::new_2d(width_px, 1).to_elements(f).width;
    usize::try_from(u64::from(cols) * u64::from(f.elem_size_bytes())).map_err(|_| {
        Failure::new(
            NvsurfStatus::NVSURF_ERR_OVERFLOW,
            format!("width_px {width_px}: the row bytes do not fit in size_t"),
        )
    })
}

/// Pixels of a width x height decode, checked against an output of `out_len` items of
/// `per_px` each.
fn pixels(width_px: u32, height_px: u32, out_len: usize, per_px: u64, unit: &str) -> CResult<usize> {
    // A width or height of 0 is an error, as on every face (issue #41 item 7).
    nvsurf::check_picture_size([width_px, height_px])?;
    let n = u64::from(width_px) * u64::from(height_px);
    let need = n.checked_mul(per_px).ok_or_else(|| {
        Failure::new(NvsurfStatus::NVSURF_ERR_OVERFLOW, format!("{width_px}x{height_px} pixels overflow 64 bits"))
    })?;
    if need > out_len as u64 {
        return Err(Failure::new(
            NvsurfStatus::NVSURF_ERR_BUFFER_TOO_SMALL,
            format!("out_len {out_len} {unit} is too small: {width_px}x{height_px} pixels need {need} {unit}"),
        ));
    }
    // At most out_len, a usize.
    Ok(n as usize)
}

/// Decodes `width_px` x `height_px` pixels of `format` from `elems` (rows of whole elements
/// `row_pitch_bytes` apart; 0: packed) to RGBA8 pixels in `out` (4 bytes a pixel, row-major,
/// `out_len` bytes, at least width x height x 4). A run of elements is a rectangle one row
/// high. Thread-safe; the buffers are the caller's and must not overlap.
///
/// sRGB formats: R, G, B are the stored sRGB-encoded values (as a PNG, Pillow and image_dds
/// give them), not linear light; `nvsurf_decode_rgba_f32` gives linear light. Alpha is never
/// curved.
///
/// # Safety
/// `format` NULL or a live handle; `elems` NULL or `elems_len` readable bytes; `out` NULL or
/// `out_len` writable bytes that no other thread uses during the call.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn nvsurf_decode_rgba8(
    format: *const NvsurfFormat,
    elems: *const u8,
    elems_len: usize,
    row_pitch_bytes: usize,
    width_px: u32,
    height_px: u32,
    out: *mut u8,
    out_len: usize,
) -> NvsurfStatus {
    guard(|| {
        // SAFETY: the caller's promise for the handle.
        let f = unsafe { handle(format, "format") }?.format;
        check_buf(elems, elems_len, "elems")?;
        check_buf(out, out_len, "out")?;
        check_disjoint((elems, elems_len, "elems"), (out, out_len, "out"))?;
        let n = pixels(width_px, height_px, out_len, 4, "bytes")?;
        let row = row_pitch(&f, width_px, row_pitch_bytes)?;
        // SAFETY: the caller's promise for both buffers; disjoint (checked). `[u8; 4]` has
        // alignment 1 and `n * 4 <= out_len` (checked by `pixels`).
        let (src, dst) =
            unsafe { (in_buf(elems, elems_len, "elems")?, std::slice::from_raw_parts_mut(out as *mut [u8; 4], n)) };
        f.decode_rect_rgba8(src, row, width_px, height_px, dst)?;
        Ok(())
    })
}

/// Decodes a packed 3D level of `format` (`width_px` x `height_px` x `depth_px` pixels, the
/// slices one after another, each of packed rows of whole elements: one level as
/// a linear subresource of `nvsurf_texture_untile` holds it, at `nvsurf_texture_subresource`'s
/// `linear_offset_bytes`) to RGBA8 pixels in `out` (4 bytes a pixel, `out_len`
/// bytes, at least width x height x depth x 4), slice by slice, the slices one after another.
/// Decoding such a level with `nvsurf_decode_rgba8` as width x (height x depth) is wrong for a
/// compressed format whose height is not a multiple of 4: each slice ends on a partial block
/// row. Zero sizes are errors. Thread-safe; the buffers must not overlap.
///
/// # Safety
/// As `nvsurf_decode_rgba8`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn nvsurf_decode_rgba8_3d(
    format: *const NvsurfFormat,
    elems: *const u8,
    elems_len: usize,
    width_px: u32,
    height_px: u32,
    depth_px: u32,
    out: *mut u8,
    out_len: usize,
) -> NvsurfStatus {
    guard(|| {
        // SAFETY: the caller's promise for the handle.
        let f = unsafe { handle(format, "format") }?.format;
        check_buf(elems, elems_len, "elems")?;
        check_buf(out, out_len, "out")?;
        check_disjoint((elems, elems_len, "elems"), (out, out_len, "out"))?;
        nvsurf::check_picture_size([width_px, height_px])?;
        if depth_px == 0 {
            return Err(nvsurf::Error::OutOfRange { field: "depth_px", value: 0, min: 1, max: u32::MAX.into() }.into());
        }
        let need = [width_px, height_px, depth_px, 4].into_iter().try_fold(1u64, |a, v| a.checked_mul(u64::from(v)));
        let need = need.ok_or_else(|| {
            Failure::new(
                NvsurfStatus::NVSURF_ERR_OVERFLOW,
                format!("{width_px}x{height_px}x{depth_px} pixels overflow 64 bits"),
            )
        })?;
        if need > out_len as u64 {
            return Err(Failure::new(
                NvsurfStatus::NVSURF_ERR_BUFFER_TOO_SMALL,
                format!(
                    "out_len {out_len} bytes is too small: {width_px}x{height_px}x{depth_px} pixels need {need} bytes"
                ),
            ));
        }
        // SAFETY: the caller's promise for the input buffer.
        let src = unsafe { in_buf(elems, elems_len, "elems")? };
        let px = nvsurf::decode_rgba8_3d(&f, src, [width_px, height_px, depth_px])?;
        // SAFETY: the caller's promise for `out`; disjoint from `elems` (checked); `[u8; 4]`
        // has alignment 1 and `px.len() * 4 == need <= out_len` (checked above).
        let dst = unsafe { std::slice::from_raw_parts_mut(out as *mut [u8; 4], px.len()) };
        dst.copy_from_slice(&px);
        Ok(())
    })
}

/// Decodes as `nvsurf_decode_rgba8`, to RGBA float pixels: 4 floats a pixel in `out`
/// (`out_len` floats, at least width x height x 4, aligned for float). sRGB formats give
/// linear light (the sRGB curve applied to the stored values).
///
/// # Safety
/// As `nvsurf_decode_rgba8`, with `out` `out_len` writable floats.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn nvsurf_decode_rgba_f32(
    format: *const NvsurfFormat,
    elems: *const u8,
    elems_len: usize,
    row_pitch_bytes: usize,
    width_px: u32,
    height_px: u32,
    out: *mut f32,
    out_len: usize,
) -> NvsurfStatus {
    guard(|| {
        // SAFETY: the caller's promise for the handle.
        let f = unsafe { handle(format, "format") }?.format;
        check_buf(elems, elems_len, "elems")?;
        check_out(out, "out")?;
        let out_bytes = out_len.checked_mul(4).ok_or_else(|| {
            Failure::new(NvsurfStatus::NVSURF_ERR_INVALID, format!("out_len {out_len} floats do not fit in memory"))
        })?;
        check_buf(out as *const u8, out_bytes, "out")?;
        check_disjoint((elems, elems_len, "elems"), (out as *const u8, out_bytes, "out"))?;
        let n = pixels(width_px, height_px, out_len, 4, "floats")?;
        let row = row_pitch(&f, width_px, row_pitch_bytes)?;
        // SAFETY: the caller's promise for both buffers; disjoint (checked). `out` is aligned
        // for f32 (check_out), and so for `[f32; 4]`, and `n * 4 <= out_len` floats.
        let (src, dst) =
            unsafe { (in_buf(elems, elems_len, "elems")?, std::slice::from_raw_parts_mut(out as *mut [f32; 4], n)) };
        f.decode_rect_f32(src, row, width_px, height_px, dst)?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_checks_the_output_size() {
        let mut f: *mut NvsurfFormat = std::ptr::null_mut();
        // SAFETY: a NUL-terminated literal and a local out pointer.
        assert_eq!(unsafe { nvsurf_format_lookup(c"A8B8G8R8".as_ptr(), &mut f) }, NvsurfStatus::NVSURF_OK);
        let src = [1u8, 2, 3, 4, 5, 6, 7, 8];
        let mut dst = [0u8; 8];
        // SAFETY: live handle, buffers of the stated lengths.
        let s = unsafe { nvsurf_decode_rgba8(f, src.as_ptr(), 8, 0, 2, 1, dst.as_mut_ptr(), 7) };
        assert_eq!(s, NvsurfStatus::NVSURF_ERR_BUFFER_TOO_SMALL);
        // SAFETY: as above.
        let s = unsafe { nvsurf_decode_rgba8(f, src.as_ptr(), 8, 0, 2, 1, dst.as_mut_ptr(), 8) };
        assert_eq!((s, dst), (NvsurfStatus::NVSURF_OK, src));
        // A width or height of 0 is an error, not NVSURF_OK (issue #41 item 7).
        for (w, h) in [(0, 1), (2, 0)] {
            // SAFETY: as above.
            let s = unsafe { nvsurf_decode_rgba8(f, src.as_ptr(), 8, 0, w, h, dst.as_mut_ptr(), 8) };
            assert_ne!(s, NvsurfStatus::NVSURF_OK, "{w}x{h}");
            let mut lin = [0f32; 8];
            // SAFETY: as above.
            let s = unsafe { nvsurf_decode_rgba_f32(f, src.as_ptr(), 8, 0, w, h, lin.as_mut_ptr(), 8) };
            assert_ne!(s, NvsurfStatus::NVSURF_OK, "{w}x{h}");
        }
        // SAFETY: the handle from lookup, freed once.
        assert_eq!(unsafe { nvsurf_format_destroy(f) }, NvsurfStatus::NVSURF_OK);
    }

    #[test]
    fn a_3d_level_decodes_slice_by_slice() {
        let mut f: *mut NvsurfFormat = std::ptr::null_mut();
        // SAFETY: a NUL-terminated literal and a local out pointer.
        assert_eq!(unsafe { nvsurf_format_lookup(c"bc1".as_ptr(), &mut f) }, NvsurfStatus::NVSURF_OK);
        // BC1 10x6x2: 3x2 blocks a slice, slice 0 red, slice 1 green (issue #41 item 7).
        let (red, green) = ([0x00u8, 0xF8, 0, 0, 0, 0, 0, 0], [0xE0u8, 0x07, 0, 0, 0, 0, 0, 0]);
        let src: Vec<u8> = (0..12).flat_map(|b| if b < 6 { red } else { green }).collect();
        let mut dst = vec![0u8; 10 * 6 * 2 * 4];
        // SAFETY: live handle, buffers of the stated lengths.
        let s = unsafe { nvsurf_decode_rgba8_3d(f, src.as_ptr(), src.len(), 10, 6, 2, dst.as_mut_ptr(), dst.len()) };
        assert_eq!(s, NvsurfStatus::NVSURF_OK);
        assert!(dst[..240].chunks(4).all(|p| p == [255, 0, 0, 255]), "slice 0");
        assert!(dst[240..].chunks(4).all(|p| p == [0, 255, 0, 255]), "slice 1");
        for (w, h, d, len) in [(10, 6, 0, 480), (0, 6, 2, 480), (10, 6, 2, 479)] {
            // SAFETY: as above, `len` at most the buffer's length.
            let s = unsafe { nvsurf_decode_rgba8_3d(f, src.as_ptr(), src.len(), w, h, d, dst.as_mut_ptr(), len) };
            assert_ne!(s, NvsurfStatus::NVSURF_OK, "{w}x{h}x{d}, {len}");
        }
        // SAFETY: the handle from lookup, freed once.
        assert_eq!(unsafe { nvsurf_format_destroy(f) }, NvsurfStatus::NVSURF_OK);
    }

    #[test]
    fn srgb_rgba8_is_the_stored_encoding_and_f32_is_linear() {
        let mut f: *mut NvsurfFormat = std::ptr::null_mut();
        // SAFETY: a NUL-terminated literal and a local out pointer.
        assert_eq!(unsafe { nvsurf_format_lookup(c"bc1_srgb".as_ptr(), &mut f) }, NvsurfStatus::NVSURF_OK);
        let block = [0x80u8; 8];
        let mut rgba = [0u8; 64];
        // SAFETY: live handle, buffers of the stated lengths.
        let s = unsafe { nvsurf_decode_rgba8(f, block.as_ptr(), 8, 0, 4, 4, rgba.as_mut_ptr(), 64) };
        assert_eq!(s, NvsurfStatus::NVSURF_OK);
        // R5 = 16 -> 132, G6 = 4 -> 16: the stored values, what the CLI's PNG holds.
        assert!(rgba.chunks(4).all(|p| p == [132, 16, 0, 255]), "{rgba:?}");
        let mut lin = [0f32; 64];
        // SAFETY: as above.
        let s = unsafe { nvsurf_decode_rgba_f32(f, block.as_ptr(), 8, 0, 4, 4, lin.as_mut_ptr(), 64) };
        assert_eq!(s, NvsurfStatus::NVSURF_OK);
        assert_eq!(lin[0], nvsurf::codec::srgb_to_linear(132.0 / 255.0));
        // SAFETY: the handle from lookup, freed once.
        assert_eq!(unsafe { nvsurf_format_destroy(f) }, NvsurfStatus::NVSURF_OK);
    }
}
