//! DDS files through the CLI's reader (`picture::read_dds`), read as a fuzzed format from the
//! catalogue (the first two bytes pick it; the rest is the file). Errors are fine; a panic or
//! an out-of-bounds read is the finding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nvsurf_fuzz::{format, scratch_file};

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let f = format(u16::from_le_bytes([data[0], data[1]]));
    let path = scratch_file("dds", &data[2..]);
    if let Ok(tex) = nvsurf_cli::picture::read_dds(&path, &f) {
        // What the commands do next with a texture: every level of every layer is in the data.
        assert!(tex.checked_bytes(&f).is_ok_and(|n| n <= tex.data.len()));
    }
});
