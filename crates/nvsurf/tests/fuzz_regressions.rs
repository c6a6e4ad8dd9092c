//! Regressions found by the fuzz targets (`fuzz/`, docs/perf/fuzzing.md), each run here in the
//! normal test suite.

use nvsurf::layout::{LayoutKind, SurfaceDesc};
use nvsurf::tile::CopyOptions;
use nvsurf::tile::{self, LinearLayout, Region};
use nvsurf::Gpu;

mod common;
use common::{aligned, noise};

/// `window` target: a swizzled surface of 4-byte elements, 4 rows tall and at least 1024 wide
/// (index bits x0 y0 x1 y1 x2 x3 ...), went to the AVX-512 chunk kernel, which assumes bit 5
/// steps y; it wrote the rows' bytes to the wrong places. The fast copies equal the reference
/// for every such shape now (on any CPU; the kernel runs where the CPU has AVX-512F).
#[test]
fn swizzled_wide_short_surfaces_equal_the_reference() {
    for (w, h) in [(1024, 4), (2048, 4), (4096, 4), (1024, 8), (2048, 2), (1024, 1), (512, 4), (1024, 16)] {
        for es in [1u32, 2, 4, 8, 16] {
            let mut d = SurfaceDesc::new(Gpu::Nv40, es, [w, h, 1]);
            d.layout = LayoutKind::Swizzled;
            let s = d.build().unwrap();
            let r = Region::whole(&s);
            let lin = LinearLayout::packed(&r, es);
            let n = lin.image_bytes(&r).unwrap() as usize;
            // Line-aligned buffers: the kernel runs only on 64-byte aligned rows.
            let tiled = aligned(&noise(s.size_bytes() as usize, u64::from(w * 31 + h + es)));
            let (mut fast, mut want) = (aligned(&vec![0u8; n]), vec![0u8; n]);
            tile::untile_with(&s, &tiled, &mut fast, r, lin, &CopyOptions::default()).unwrap();
            tile::untile_reference(&s, &tiled, &mut want, r, lin).unwrap();
            assert!(fast[..] == want[..], "untile {w}x{h} es {es}");
            let linear = noise(n, u64::from(w + h * 7 + es));
            let (mut fast, mut want) = (aligned(&tiled), tiled.to_vec());
            tile::tile_with(&s, &linear, &mut fast, r, lin, &CopyOptions::default()).unwrap();
            tile::tile_reference(&s, &linear, &mut want, r, lin).unwrap();
            assert!(fast[..] == want[..], "tile {w}x{h} es {es}");
        }
    }
}
