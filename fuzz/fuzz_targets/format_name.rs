//! Format names (`nvsurf::format::Format::parse`: catalogue names, `tex:0x..` numbers, the
//! Vulkan/DXGI/short aliases; `Format::parse_for`: the same per GPU, with the NV10-NV40 tables),
//! and what the CLI asks of a parsed format. First byte: the GPU (index into `ALL_GPUS`); the
//! rest: the name. The whole input is also parsed as a G80+ name. Never panics; an unknown name
//! has at most three suggestions.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nvsurf::format::Format;
use nvsurf::gpu::ALL_GPUS;
use nvsurf::Error;

fn check(r: Result<Format, Error>) {
    match r {
        Ok(f) => {
            let _ = f.channel_kinds();
            let _ = nvsurf::FormatClass::of(&f);
            assert!(!f.name().is_empty());
            // A buffer of the format's own pixel count (an ASTC 12x12 element is 144 pixels):
            // that decodes, one pixel less is a typed error.
            let n = f.pixels_per_elem();
            assert!((1..=144).contains(&n), "{n} pixels");
            let mut px = vec![[0u32; 4]; n];
            let zero = [0u8; 16];
            assert_eq!(f.decode_element(&zero, &mut px).unwrap(), n);
            assert!(matches!(f.decode_element(&zero, &mut px[..n - 1]), Err(Error::BufferTooSmall { .. })));
            let _ = f.palette_entry_format();
            let _ = f.id_name();
        }
        Err(Error::UnknownFormat { suggestions, .. }) => assert!(suggestions.len() <= 3),
        Err(_) => {}
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(name) = std::str::from_utf8(data) {
        check(Format::parse(name));
    }
    let Some((&g, rest)) = data.split_first() else { return };
    let gpu = ALL_GPUS[usize::from(g) % ALL_GPUS.len()];
    if let Ok(name) = std::str::from_utf8(rest) {
        check(Format::parse_for(name, gpu));
    }
});
