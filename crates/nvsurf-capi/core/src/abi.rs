/// The major version of the C interface (header and library), the `N` of the shared library's
/// SONAME `libnvsurf.so.N`: it changes only when a change would break programs built against
/// an earlier header (a removed function, a changed signature or struct layout), never for
/// additions. 1 is the interface as first published (crate version 0.1.0); appending
/// `is_srgb` to `NvsurfFormatInfo` kept it (`crates/nvsurf-capi/README.md`, "Growing
/// structs"). Also read by `crates/nvsurf-capi/build.rs`, which sets the SONAME.
pub const NVSURF_ABI_MAJOR: u32 = 1;
