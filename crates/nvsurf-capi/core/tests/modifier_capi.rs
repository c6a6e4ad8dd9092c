//! `nvsurf_surface_create_with_modifier` and `nvsurf_texture_create_with_modifier`, called as C
//! calls them: the modifier reaches the library's one resolver (the same layout, block and gob
//! order as `SurfaceSpec::modifier`), and a modifier that does not fit is refused in one line.
//! Expected values: Linux `drm_fourcc.h` and Mesa nil `modifiers.rs` (commit
//! 157fa86f6d5def2bec5c91f33be70c138250ab7f), worked out by hand.

use nvsurf_capi_core::*;
use std::ffi::{CStr, CString};
use std::mem::MaybeUninit;

fn last_error() -> String {
    // SAFETY: the library returns a NUL-terminated thread-local string.
    unsafe { CStr::from_ptr(nvsurf_last_error()) }.to_string_lossy().into_owned()
}

fn surface(
    gpu: &CString,
    format: &CString,
    w: u32,
    h: u32,
    modifier: u64,
) -> Result<NvsurfSurfaceInfo, (NvsurfStatus, String)> {
    let mut p = MaybeUninit::<NvsurfSurfaceParams>::uninit();
    // SAFETY: `p` is writable memory for one params struct.
    assert_eq!(unsafe { nvsurf_surface_params_init(p.as_mut_ptr()) }, NvsurfStatus::NVSURF_OK);
    // SAFETY: initialised by the call above.
    let mut p = unsafe { p.assume_init() };
    (p.platform, p.format, p.width, p.height) = (gpu.as_ptr(), format.as_ptr(), w, h);
    let mut s: *mut NvsurfSurface = std::ptr::null_mut();
    // SAFETY: valid params with live strings; `s` is writable.
    let st = unsafe { nvsurf_surface_create_with_modifier(&p, modifier, &mut s) };
    if st != NvsurfStatus::NVSURF_OK {
        return Err((st, last_error()));
    }
    let mut info = MaybeUninit::<NvsurfSurfaceInfo>::uninit();
    // SAFETY: `s` is a live handle; `info` is writable.
    assert_eq!(unsafe { nvsurf_surface_info(s, info.as_mut_ptr()) }, NvsurfStatus::NVSURF_OK);
    // SAFETY: the handle is live and destroyed once.
    unsafe { nvsurf_surface_destroy(s) };
    // SAFETY: written by nvsurf_surface_info.
    Ok(unsafe { info.assume_init() })
}

#[test]
fn the_modifier_sets_the_block_and_layout() {
    let (ga102, gm204, rgba8) =
        (CString::new("ga102").unwrap(), CString::new("gm204").unwrap(), CString::new("A8B8G8R8").unwrap());
    // Turing-generation modifier, kind 6, 16 gobs: block 0,4,0 on GA102.
    let i = surface(&ga102, &rgba8, 1024, 1024, 0x0300_0000_0060_6014).unwrap();
    assert_eq!((i.layout, i.block_log2), (NvsurfLayout::NVSURF_LAYOUT_BLOCKLINEAR, [0, 4, 0]));
    // Linear: pitch with NVK's 128-byte rows (300 x 4 = 1200 -> 1280).
    let i = surface(&ga102, &rgba8, 300, 20, 0).unwrap();
    assert_eq!((i.layout, i.pitch_bytes), (NvsurfLayout::NVSURF_LAYOUT_PITCH, 1280));
    // A Turing modifier on Maxwell: unsupported, one line.
    let (st, msg) = surface(&gm204, &rgba8, 64, 64, 0x0300_0000_0060_6014).unwrap_err();
    assert_eq!(st, NvsurfStatus::NVSURF_ERR_UNSUPPORTED);
    assert!(msg.contains("gob kind generation 2 (turing) does not fit"), "{msg}");
    assert!(!msg.contains('\n'));
    // A malformed one (reserved bit 5): invalid.
    let (st, msg) = surface(&gm204, &rgba8, 64, 64, 0x0300_0000_004f_e033).unwrap_err();
    assert_eq!(st, NvsurfStatus::NVSURF_ERR_INVALID);
    assert!(msg.contains("reserved bits 5-11"), "{msg}");
}

#[test]
fn textures_take_it_too() {
    let (tu102, rgba8) = (CString::new("tu102").unwrap(), CString::new("A8B8G8R8").unwrap());
    let mut p = MaybeUninit::<NvsurfTextureParams>::uninit();
    // SAFETY: `p` is writable memory for one params struct.
    assert_eq!(unsafe { nvsurf_texture_params_init(p.as_mut_ptr()) }, NvsurfStatus::NVSURF_OK);
    // SAFETY: initialised by the call above.
    let mut p = unsafe { p.assume_init() };
    (p.platform, p.format, p.width, p.height) = (tu102.as_ptr(), rgba8.as_ptr(), 512, 512);
    let mut t: *mut NvsurfTexture = std::ptr::null_mut();
    // SAFETY: valid params with live strings; `t` is writable.
    let st = unsafe { nvsurf_texture_create_with_modifier(&p, 0x0300_0000_0060_6012, &mut t) };
    assert_eq!(st, NvsurfStatus::NVSURF_OK, "{}", last_error());
    let mut info = MaybeUninit::<NvsurfTextureInfo>::uninit();
    // SAFETY: `t` is a live handle; `info` is writable.
    assert_eq!(unsafe { nvsurf_texture_info(t, info.as_mut_ptr()) }, NvsurfStatus::NVSURF_OK);
    // SAFETY: written above.
    let info = unsafe { info.assume_init() };
    assert_eq!(info.size_bytes, 512 * 4 * 512);
    // SAFETY: the handle is live and destroyed once.
    unsafe { nvsurf_texture_destroy(t) };
    // A 3D texture cannot take a modifier.
    let d3 = CString::new("3d").unwrap();
    (p.texture_type, p.depth) = (d3.as_ptr(), 4);
    // SAFETY: as above.
    let st = unsafe { nvsurf_texture_create_with_modifier(&p, 0x0300_0000_0060_6012, &mut t) };
    assert_eq!(st, NvsurfStatus::NVSURF_ERR_UNSUPPORTED);
    assert!(last_error().contains("describes a 2D image"), "{}", last_error());
}
