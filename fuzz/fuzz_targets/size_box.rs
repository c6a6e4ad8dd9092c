//! Sizes, boxes, points and numbers as the CLI's flags take them (`surface_args::parse_size`,
//! `parse_list`, `parse_point`, `parse_u64`, `parse_offset`, the clap value parsers).
#![no_main]

use libfuzzer_sys::fuzz_target;
use nvsurf_cli::surface_args as a;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else { return };
    // What parses prints back to text that parses to the same value.
    if let Ok([w, h, d]) = a::parse_size(s) {
        assert_eq!(a::parse_size(&format!("{w}x{h}x{d}")).ok(), Some([w, h, d]));
    }
    if let Ok(v) = a::parse_list::<3>("box", s) {
        assert_eq!(a::parse_list::<3>("box", &format!("{},{},{}", v[0], v[1], v[2])).ok(), Some(v));
    }
    let _ = a::parse_list::<6>("box", s);
    let _ = a::parse_list::<2>("tpe", s);
    let _ = a::parse_point("at", s);
    let _ = a::parse_triple("block-log2", s);
    let _ = a::parse_u64("pitch", s);
    if let Ok(v) = a::parse_offset("offset", s) {
        assert!(v < nvsurf::error::ADDRESS_SPACE_BYTES);
    }
    let _ = a::clap_usize(s);
    let _ = a::clap_u32(s);
});
