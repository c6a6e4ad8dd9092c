//! Multisampled images on an H100 (GH100): 8-sample R32_UINT storage images captured through
//! Vulkan (`tests/data/hardware/gh100-vulkan-msaa`, see the README there). Each holds
//! `x | y << 12 | s << 24 | 0x80000000` for Vulkan sample `s` of pixel `(x, y)`.
//!
//! What they show, and what this test holds nvsurf to: the sample-space surface (4w x 2h
//! elements) is tiled in the Turing order with the block NVIDIA's rule picks for the *pixel*
//! size, the driver's size is that surface's size, and every sample sits in the cell of the
//! document's MS8 grid whose position is Vulkan's standard position of that sample.

use nvsurf::layout::{GobOrder, LayoutKind, SurfaceDesc};
use nvsurf::msaa::MsMode;
use nvsurf::texture::BlockPolicy;
use nvsurf::tile::{AlignedBuf, CopyOptions};
use nvsurf::{tile, Gpu, Platform};
use std::io::Read;

/// Vulkan's standard sample locations for 8 samples, in sixteenths of a pixel (the Vulkan
/// specification, "Multisampling", table "Standard sample locations").
const VULKAN_8X: [(u8, u8); 8] = [(9, 5), (7, 11), (13, 9), (5, 3), (3, 13), (1, 7), (11, 15), (15, 1)];

fn capture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/data/hardware/gh100-vulkan-msaa/{name}.bin.gz", env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap()).read_to_end(&mut out).unwrap();
    out
}

/// The document's MS8 sample at each Vulkan sample index, matched by position.
fn document_sample_of_vulkan() -> [u32; 8] {
    let mode = MsMode::parse("ms8").unwrap();
    VULKAN_8X.map(|(x, y)| {
        (0..8)
            .find(|&s| {
                let p = mode.sample(s).unwrap().position.unwrap();
                (p.x_sixteenths, p.y_sixteenths) == (x, y)
            })
            .unwrap_or_else(|| panic!("no MS8 sample of the document sits at ({x}, {y})/16"))
    })
}

#[test]
fn eight_samples_sit_in_the_documents_grid_with_the_pixel_sizes_block() {
    let mode = MsMode::parse("ms8").unwrap();
    let doc_sample = document_sample_of_vulkan();
    // The README's reading of the same captures: grid row 0 holds Vulkan samples 5, 3, 0, 7.
    let cell = |i: usize| mode.sample(doc_sample[i]).unwrap().grid_xy.unwrap();
    assert_eq!([5, 3, 0, 7].map(cell), [(0, 0), (1, 0), (2, 0), (3, 0)]);
    assert_eq!([4, 1, 6, 2].map(cell), [(0, 1), (1, 1), (2, 1), (3, 1)]);
    let gh100 = Platform::from(Gpu::Gh100);
    for (name, w, h, driver_size) in [("ms8_64x32", 64u32, 32u32, 65536u64), ("ms8_37x21", 37, 21, 30720)] {
        let dump = capture(name);
        // The block of the pixel size, not of the (4w x 2h) sample space.
        let block = gh100.surface_block_log2(BlockPolicy::Nvidia, 4, [w, h, 1], [1, 1]).unwrap();
        let sample_space_block = gh100.surface_block_log2(BlockPolicy::Nvidia, 4, [4 * w, 2 * h, 1], [1, 1]).unwrap();
        assert_ne!(block, sample_space_block, "{name}: the test must tell the two apart");
        let mut d = SurfaceDesc::new(Gpu::Gh100, 4, [4 * w, 2 * h, 1]);
        d.layout = LayoutKind::BlockLinear;
        d.block_log2 = Some(block);
        d.gob_order = gh100.default_gob_order(nvsurf::FormatClass::Color).unwrap();
        assert_eq!(d.gob_order, GobOrder::Turing);
        let s = d.build().unwrap();
        assert_eq!(s.size_bytes(), driver_size, "{name}: the driver's size is the sample surface's");
        let linear = tile::untile_to_buf(&s, &dump[..s.size_bytes() as usize], &CopyOptions::default())
            .map(AlignedBuf::into_vec)
            .unwrap();
        let mut checked = 0;
        for y in 0..h {
            for x in 0..w {
                for (i, &ds) in doc_sample.iter().enumerate() {
                    let (ex, ey) = mode.sample_element_xy(x.into(), y.into(), ds).unwrap();
                    let at = ((ey * u64::from(4 * w) + ex) * 4) as usize;
                    let got = u32::from_le_bytes(linear[at..at + 4].try_into().unwrap());
                    let want = x | y << 12 | (i as u32) << 24 | 0x8000_0000;
                    assert_eq!(got, want, "{name}: pixel ({x}, {y}) sample {i}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, w * h * 8);
    }
}
