//! Tile and untile of small fuzzed surfaces and boxes against their twins: the fast copies
//! (`tile::untile`, `tile::tile`), the bounds-checked ones (`untile_checked`, `tile_checked`)
//! and the byte-by-byte references (`untile_reference`, `tile_reference`) agree on whether a
//! call is refused and, when it is not, on every byte. Sides up to 2048 elements (a 1024x4
//! swizzled surface once took a wrong vector kernel), at most 256 KiB of surface.
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
    /// Extra bytes per linear row and slice (0 = packed).
    row_pad: u8,
    slice_pad: u16,
    /// Bytes cut from (negative) or added to (positive) the tiled buffer.
    tiled_slack: i8,
    seed: u64,
}

fn bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut state = seed | 1;
    (0..n)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect()
}

fuzz_target!(|i: Input| {
    let Some(s) = nvsurf_fuzz::small_surface(&i.surface, 2048, 1 << 14, 1 << 18) else { return };
    let size = s.size();
    let [x, y, z] = [0, 1, 2].map(|k| i.at[k] % size[k]);
    let [w, h, d] = [0, 1, 2].map(|k| i.extent[k] % (size[k] - [x, y, z][k]) + 1);
    let region = Region { x, y, z, w, h, d };
    let packed = LinearLayout::packed(&region, s.elem_size_bytes());
    let row = packed.row_pitch_bytes + u64::from(i.row_pad);
    let lin = LinearLayout { row_pitch_bytes: row, slice_pitch_bytes: row * u64::from(h) + u64::from(i.slice_pad) };
    let Some(n) = lin.image_bytes(&region) else { return };
    let tiled_len = (s.size_bytes() as i64 + i64::from(i.tiled_slack)).max(0) as usize;
    let tiled = bytes(tiled_len, i.seed);
    let linear = bytes(n as usize, !i.seed);

    // untile: three twins from the same starting linear buffer.
    let mut fast = linear.clone();
    let mut checked = linear.clone();
    let mut reference = linear.clone();
    let rf = tile::untile_with(&s, &tiled, &mut fast, region, lin, &tile::CopyOptions::default());
    let rc = tile::untile_checked(&s, &tiled, &mut checked, region, lin);
    let rr = tile::untile_reference(&s, &tiled, &mut reference, region, lin);
    assert_eq!(rf.is_ok(), rr.is_ok(), "untile {rf:?} but the reference {rr:?}");
    assert_eq!(rc.is_ok(), rr.is_ok(), "untile_checked {rc:?} but the reference {rr:?}");
    if rr.is_ok() {
        assert!(fast == reference, "untile differs from untile_reference");
        assert!(checked == reference, "untile_checked differs from untile_reference");
    }

    // tile: the same, writing into the same starting tiled buffer.
    let mut fast = tiled.clone();
    let mut checked = tiled.clone();
    let mut reference = tiled.clone();
    let rf = tile::tile_with(&s, &linear, &mut fast, region, lin, &tile::CopyOptions::default());
    let rc = tile::tile_checked(&s, &linear, &mut checked, region, lin);
    let rr = tile::tile_reference(&s, &linear, &mut reference, region, lin);
    assert_eq!(rf.is_ok(), rr.is_ok(), "tile {rf:?} but the reference {rr:?}");
    assert_eq!(rc.is_ok(), rr.is_ok(), "tile_checked {rc:?} but the reference {rr:?}");
    if rr.is_ok() {
        assert!(fast == reference, "tile differs from tile_reference");
        assert!(checked == reference, "tile_checked differs from tile_reference");
    }
});
