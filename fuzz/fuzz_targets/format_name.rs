//! Format names (`nvsurf::format::Format::parse`: catalogue names, `tex:0x..` numbers, aliases),
//! and what the CLI asks of a parsed format.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nvsurf::format::Format;

fuzz_target!(|data: &[u8]| {
    let Ok(name) = std::str::from_utf8(data) else { return };
    if let Ok(f) = Format::parse(name) {
        let _ = f.channel_kinds();
        let _ = nvsurf::FormatClass::of(&f);
    }
});
