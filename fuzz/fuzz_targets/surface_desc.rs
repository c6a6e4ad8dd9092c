//! Surface descriptors (`SurfaceDesc::build`) from fuzzed fields, then the addresses of the
//! built surface's corners: a built surface answers every in-range question without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nvsurf_fuzz::DescFields;

fuzz_target!(|f: DescFields| {
    let Ok(s) = f.desc().build() else { return };
    let [w, h, d] = s.size().to_array();
    let size = s.size_bytes();
    for (x, y, z) in [(0, 0, 0), (w - 1, h - 1, d - 1), (w / 2, h / 2, d / 2), (w - 1, 0, d - 1)] {
        let off = s.offset_of(x, y, z).expect("an element inside the surface has an offset");
        assert!(off + u64::from(s.elem_size_bytes()) <= size, "element ({x},{y},{z}) at {off} past {size}");
        let _ = s.address_of(x, y, z);
    }
    assert!(s.offset_of(w, 0, 0).is_err());
});
