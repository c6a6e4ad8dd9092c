//! `identify::candidates` and `candidates_any` for any GPU, element size, size and dump length
//! (the CLI passes only element sizes of real formats; the library takes any u32). Every
//! candidate is a surface that builds.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use nvsurf::identify;

#[derive(Arbitrary, Debug)]
struct Input {
    gpu: u8,
    elem_size: u32,
    size: [u32; 3],
    dump_bytes: u64,
    any: bool,
}

fuzz_target!(|i: Input| {
    let got = if i.any {
        identify::candidates_any(i.elem_size, i.size, i.dump_bytes)
    } else {
        identify::candidates(nvsurf_fuzz::gpu(i.gpu), i.elem_size, i.size, i.dump_bytes)
    };
    for c in got.into_iter().flatten() {
        assert_eq!(c.desc.build().as_ref(), Ok(&c.surface));
        assert_eq!(c.surface.size(), i.size);
        let _ = identify::start_alignment_bytes(&c);
    }
});
