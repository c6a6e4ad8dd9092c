//! `libnvsurf.so` and `libnvsurf.a`: every exported function of `nvsurf-capi-core`
//! (`#[no_mangle] extern "C"`, declared in `include/nvsurf.h`), linked into one C library.

pub use nvsurf_capi_core::*;
