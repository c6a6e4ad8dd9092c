//! The C call against the Rust call: `capi-tegra-2048x2048x4`
//! untiles 2048x2048 RGBA8 (GM20B, Tegra gob order, the Switch's NVN block: 16 gobs high), one
//! thread, through the exported `extern "C"` function `nvsurf_surface_untile` (the one
//! `libnvsurf` exports, called from Rust exactly as C calls it) and through
//! `nvsurf::tile::untile_with`, in the same interleaved rounds (see `race`), into the same
//! line-aligned output buffer. The row's `ratio_rust_paired` is the median over the rounds of
//! the C call's speed over the Rust call's in the same round; the target is >= 0.97.

use crate::{aligned, noise, paired_ratio, race, Contender};
use nvsurf::tile::{self, CopyOptions, LinearLayout, Region};
use nvsurf_capi_core::{
    nvsurf_surface_create, nvsurf_surface_destroy, nvsurf_surface_params_init, nvsurf_surface_untile, NvsurfStatus,
    NvsurfSurface, NvsurfSurfaceParams,
};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::time::Duration;

/// Runs the case unless `only` names another one; prints a table row unless `json_out` and
/// appends its JSON row (`op` untile, 1 thread).
pub fn run(only: Option<&String>, smoke: bool, budget: Duration, json_out: bool, rows: &mut Vec<Value>) {
    let side: u32 = if smoke { 128 } else { 2048 };
    let name = format!("capi-tegra-{side}x{side}x4");
    if only.is_some_and(|o| *o != name && o != "capi") {
        return;
    }
    let mut params = std::mem::MaybeUninit::<NvsurfSurfaceParams>::uninit();
    // SAFETY: `params` has room for one NvsurfSurfaceParams, which the call fills.
    assert_eq!(unsafe { nvsurf_surface_params_init(params.as_mut_ptr()) }, NvsurfStatus::NVSURF_OK);
    // SAFETY: initialised by the successful call above.
    let mut params = unsafe { params.assume_init() };
    params.platform = c"switch".as_ptr();
    params.format = c"A8B8G8R8".as_ptr();
    params.width = side;
    params.height = side;
    let mut handle: *mut NvsurfSurface = std::ptr::null_mut();
    // SAFETY: `params` is initialised with NUL-terminated literals; `handle` is a local.
    assert_eq!(unsafe { nvsurf_surface_create(&params, &mut handle) }, NvsurfStatus::NVSURF_OK);
    // SAFETY: a live handle from nvsurf_surface_create, destroyed at the end of this function.
    let s = *unsafe { &*handle }.surface();
    let region = Region::whole(&s);
    let lin = LinearLayout::packed(&region, s.elem_size_bytes());
    let lin_len = lin.image_bytes(&region).expect("size") as usize;
    let tiled = aligned(s.size_bytes() as usize, Some(&noise(s.size_bytes() as usize)));
    let mut out = aligned(lin_len, None);
    let mut check = aligned(lin_len, None);
    tile::untile_checked(&s, &tiled, &mut check, region, lin).expect("untile");
    let dst = RefCell::new(out.as_mut());
    let dst = &dst;
    let ts: &[u8] = &tiled;
    let opts = CopyOptions::default();
    let c_call: Box<dyn FnMut()> = Box::new(move || {
        let mut d = dst.borrow_mut();
        // SAFETY: a live handle; `ts` and `d` are distinct buffers of the lengths passed.
        let st = unsafe { nvsurf_surface_untile(handle, ts.as_ptr(), ts.len(), d.as_mut_ptr(), d.len(), 0) };
        assert_eq!(st, NvsurfStatus::NVSURF_OK);
    });
    let rust_call: Box<dyn FnMut()> =
        Box::new(move || tile::untile_with(&s, ts, &mut dst.borrow_mut(), region, lin, &opts).expect("untile"));
    let mut contenders = vec![
        Contender { name: "c", run: c_call, times: vec![] },
        Contender { name: "rust", run: rust_call, times: vec![] },
    ];
    let gbps = race(&mut contenders, lin_len, budget);
    let paired = paired_ratio(&contenders[0], &contenders[1]);
    drop(contenders);
    assert!(out[..] == check[..], "{name}: the C call's bytes differ from the checked twin's");
    // SAFETY: the handle is live and no longer used after this.
    assert_eq!(unsafe { nvsurf_surface_destroy(handle) }, NvsurfStatus::NVSURF_OK);
    let (c, r) = (gbps[0], gbps[1]);
    if !json_out {
        say!(
            "{:<22} {:<6} {:>3} {:>9.2} {:>9.2} {:>7.2} {:>7.2} {:>9} {:>7}",
            name,
            "untile",
            1,
            c,
            r,
            c / r,
            paired,
            "-",
            "-"
        );
    }
    rows.push(json!({
        "case": name, "op": "untile", "threads": 1, "gbps": c, "rust_gbps": r,
        "ratio_rust": c / r, "ratio_rust_paired": paired,
    }));
}
