//! PNG files through the CLI's picture reader (`picture::read_surface`, as `tile` and
//! `convert` call it), read as a fuzzed format and depth (the first three bytes pick them).
#![no_main]

use libfuzzer_sys::fuzz_target;
use nvsurf_fuzz::{format, scratch_file};

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let f = format(u16::from_le_bytes([data[0], data[1]]));
    let depth = u32::from(data[2] % 4);
    let path = scratch_file("png", &data[3..]);
    if let Ok((e, bytes)) = nvsurf_cli::picture::read_surface(&path, &f, depth, None) {
        assert!(nvsurf_cli::picture::check_len(&f, e, &bytes).is_ok());
    }
});
