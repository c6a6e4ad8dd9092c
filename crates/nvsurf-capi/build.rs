//! Gives `libnvsurf.so` the SONAME `libnvsurf.so.N`, N the C interface's major version
//! (`core/src/abi.rs`), so that a program linked against it records that name and keeps
//! loading a newer library of the same major version, and never one that would break it.
//! `tests/c_programs.rs` checks the SONAME and links a program against the installed layout.

include!("core/src/abi.rs");

fn main() {
    println!("cargo:rerun-if-changed=core/src/abi.rs");
    println!("cargo:rerun-if-changed=build.rs");
    // ELF targets take `-soname` (GNU ld, gold, lld); Apple's linker names a library by its
    // install name instead, and Windows DLLs have neither.
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let family = std::env::var("CARGO_CFG_TARGET_FAMILY").unwrap_or_default();
    let apple = matches!(os.as_str(), "macos" | "ios" | "tvos" | "watchos" | "visionos");
    if family.split(',').any(|f| f == "unix") && !apple {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libnvsurf.so.{NVSURF_ABI_MAJOR}");
    }
}
