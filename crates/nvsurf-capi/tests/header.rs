//! The checked-in header must be what cbindgen makes of the crate now: this test regenerates
//! it in memory (the `cbindgen` crate, no binary needed) and fails on any difference.
//! `NVSURF_BLESS=1 cargo test -p nvsurf-capi --test header` rewrites `include/nvsurf.h`.

use std::path::Path;

#[test]
fn the_header_is_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(root.join("cbindgen.toml")).expect("cbindgen.toml");
    let mut fresh = Vec::new();
    cbindgen::Builder::new()
        .with_config(config)
        .with_crate(root.join("core"))
        .generate()
        .expect("cbindgen parses the crate")
        .write(&mut fresh);
    let fresh = String::from_utf8(fresh).expect("UTF-8 header");
    let path = root.join("include/nvsurf.h");
    if std::env::var_os("NVSURF_BLESS").is_some() {
        std::fs::write(&path, &fresh).expect("write include/nvsurf.h");
        return;
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    if checked_in != fresh {
        let first = checked_in.lines().zip(fresh.lines()).position(|(a, b)| a != b);
        panic!(
            "include/nvsurf.h is out of date (first differing line: {:?}); regenerate it with \
             `NVSURF_BLESS=1 cargo test -p nvsurf-capi --test header` and commit it",
            first.map(|i| i + 1)
        );
    }
}
