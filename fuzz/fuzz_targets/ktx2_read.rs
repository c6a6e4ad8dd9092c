//! KTX2 files through the CLI's reader (`picture::ktx2_texture`: the header checks, the `ktx2`
//! crate's parse, zstd). Errors are fine; a panic or an out-of-bounds read is the finding. A
//! file that reads is written again and must read back the same texture.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nvsurf_cli::picture::{ktx2_bytes, ktx2_texture, Ktx2Options};

fuzz_target!(|data: &[u8]| {
    let Ok((d, tex)) = ktx2_texture(data) else { return };
    // Every level of every layer is in the data.
    assert!(tex.checked_bytes(&d.format).is_ok_and(|n| n == tex.data.len()));
    let _ = d.summary();
    let again = ktx2_bytes(&d.format, &tex, Ktx2Options::default()).expect("a texture that was read can be written");
    let (d2, tex2) = ktx2_texture(&again).expect("what was written reads back");
    assert_eq!(tex2, tex);
    assert_eq!((d2.extent, d2.levels, d2.layers, d2.cube), (d.extent, d.levels, d.layers, d.cube));
});
