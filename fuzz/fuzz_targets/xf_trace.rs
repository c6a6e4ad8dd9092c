//! XF command traces (`nvxf::trace::parse`), then every parsed operation run through the
//! simulator (`XfState::step`), as `nvsurf xf run` does. The first byte picks the `--gpu`
//! (or none: the trace's own `gpu` line).
#![no_main]

use libfuzzer_sys::fuzz_target;
use nvxf::{Options, XfState};

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let all = nvxf::gen::ALL_GPUS;
    let gpu = (usize::from(pick) < all.len()).then(|| all[usize::from(pick)]);
    let _ = nvxf::trace::header_gpu(text);
    let Ok(trace) = nvxf::trace::parse(text, gpu) else { return };
    let mut st = XfState::new(trace.gpu, Options::default());
    for item in trace.items.iter().take(4096) {
        let _ = st.step(&item.op);
    }
});
