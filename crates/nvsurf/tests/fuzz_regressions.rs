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

/// `format_name` target: `\x12ASTC_12x12_UNORM_BLOCK` (GPU index 0x12, then an ASTC 12x12
/// name) crashed the target, which decoded every parsed format's zero element into its own
/// 64-pixel buffer and unwrapped the result: an ASTC 12x12 element is 144 pixels. The library
/// was right (a short buffer is a typed error, nothing is written past it); the target now
/// sizes its buffer by `pixels_per_elem`. Every name the catalogue accepts decodes a zero
/// element into exactly its own pixel count, and refuses one pixel less.
#[test]
fn every_format_decodes_a_zero_element_into_its_own_pixel_count() {
    use nvsurf::format::{all_names, Format};
    use nvsurf::gpu::ALL_GPUS;
    use nvsurf::Error;
    let gpu = ALL_GPUS[0x12 % ALL_GPUS.len()];
    // That GPU is pre-G80: its own table only, so the name is refused now (#41 item 2; it used to
    // fall back to G80's ASTC row); the decode below takes the G80+ format.
    if nvsurf::format::PreG80Table::of(gpu).is_some() {
        assert!(Format::parse_for("ASTC_12x12_UNORM_BLOCK", gpu).is_err(), "{gpu}");
    }
    let astc = Format::parse("ASTC_12x12_UNORM_BLOCK").unwrap();
    assert_eq!(astc.pixels_per_elem(), 144);
    let mut short = [[0u32; 4]; 64];
    let got = astc.decode_element(&[0u8; 16], &mut short);
    assert!(matches!(got, Err(Error::BufferTooSmall { needed: 144, got: 64, .. })), "{got:?}");
    let mut checked = 0;
    for name in all_names() {
        let f = Format::parse(name).unwrap();
        let n = f.pixels_per_elem();
        let elem = vec![0u8; f.elem_size_bytes() as usize];
        let mut px = vec![[0u32; 4]; n];
        assert_eq!(f.decode_element(&elem, &mut px).unwrap(), n, "{name}");
        let got = f.decode_element(&elem, &mut px[..n - 1]);
        assert!(matches!(got, Err(Error::BufferTooSmall { .. })), "{name}: {got:?}");
        checked += 1;
    }
    assert!(checked > 100, "{checked}");
}
