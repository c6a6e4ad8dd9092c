//! Windows (`tile::window`) of fuzzed surfaces and boxes. The pieces are increasing, disjoint,
//! inside the surface and add up to the window; for small surfaces, untiling the box from the
//! gathered window gives the same bytes as untiling it from the whole surface, and scattering
//! the window back gives the surface unchanged.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use nvsurf::tile::{self, LinearLayout, Region};
use nvsurf_fuzz::DescFields;

#[derive(Arbitrary, Debug)]
struct Input {
    surface: DescFields,
    at: [u32; 3],
    extent: [u32; 3],
    seed: u64,
}

fuzz_target!(|i: Input| {
    // Up to 1024 elements a side (a window's pieces are counted in rows and slices).
    let Ok(s) = i.surface.small(1024, 1 << 20).build() else { return };
    let size = s.size();
    let [x, y, z] = [0, 1, 2].map(|k| i.at[k] % size[k]);
    let [w, h, d] = [0, 1, 2].map(|k| i.extent[k] % (size[k] - [x, y, z][k]) + 1);
    if u64::from(h) * u64::from(d) > 1 << 16 {
        return;
    }
    let region = Region { x, y, z, w, h, d };
    let Ok(win) = tile::window(&s, region) else { return };
    let total = s.size_bytes();
    let mut pieces = win.pieces.clone();
    let mut end = 0;
    for p in &pieces {
        assert!(p.offset_bytes >= end, "pieces overlap or are out of order: {:?}", win.pieces);
        end = p.offset_bytes + p.len_bytes;
        assert!(end <= total, "piece {p:?} past the surface's {total} bytes");
    }
    pieces.sort_unstable_by_key(|p| p.window_offset_bytes);
    let mut at = 0;
    for p in &pieces {
        assert_eq!(p.window_offset_bytes, at, "window offsets leave a gap: {pieces:?}");
        at += p.len_bytes;
    }
    assert_eq!(at, win.size_bytes());
    if total > 1 << 18 {
        return;
    }
    // The bytes: a surface of pseudo-random bytes, its box untiled both ways.
    let mut state = i.seed | 1;
    let full: Vec<u8> = (0..total)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect();
    let lin = LinearLayout::packed(&region, s.elem_size_bytes());
    let n = lin.image_bytes(&region).unwrap() as usize;
    let mut want = vec![0u8; n];
    tile::untile_with(&s, &full, &mut want, region, lin, &tile::CopyOptions::default()).expect("a checked box untiles");
    let mut wbytes = vec![0u8; win.size_bytes() as usize];
    win.gather(&full, &mut wbytes).expect("the window fits the surface");
    let mut got = vec![0u8; n];
    tile::untile_with(&win.surface, &wbytes, &mut got, win.region, lin, &tile::CopyOptions::default())
        .expect("the window's box untiles");
    assert!(got == want, "window untile differs from the surface's");
    let mut back = full.clone();
    win.scatter(&wbytes, &mut back).expect("the window scatters back");
    assert!(back == full);
});
