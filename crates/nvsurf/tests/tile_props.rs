//! Every tiling fast path against the plain address function, on random shapes, boxes and
//! pitches; the parallel paths against the single-thread ones.

use nvsurf::cpu::{set_vector_limit, VectorLevel};
use nvsurf::layout::ALL_GOB_ORDERS;
use nvsurf::layout::{GobOrder, LayoutKind, Surface, SurfaceDesc};
use nvsurf::tile::{self, LinearLayout, Region};
use nvsurf::tile::{AlignedBuf, CopyOptions, Threads};
use nvsurf::{Error, Gpu};
use proptest::prelude::*;

mod common;
use common::noise;

fn gpu_strategy() -> impl Strategy<Value = Gpu> {
    prop_oneof![Just(Gpu::G80), Just(Gpu::Gt215), Just(Gpu::Gf100), Just(Gpu::Gm20b), Just(Gpu::Tu102)]
}

prop_compose! {
    fn blocklinear()(gpu in gpu_strategy(), es in prop_oneof![Just(1u32), Just(2), Just(4), Just(8), Just(12), Just(16)],
                     w in 1u32..150, h in 1u32..40, d in 1u32..4, bw in 0u32..3, bh in 0u32..4, bd in 0u32..3,
                     auto in any::<bool>(), order in 0usize..ALL_GOB_ORDERS.len(), addr_blocks in 0u64..3) -> SurfaceDesc {
        let es = if es == 12 && !gpu.is_gf100_or_later() { 4 } else { es };
        let mut desc = SurfaceDesc::new(gpu, es, [w, h, d]);
        desc.layout = LayoutKind::BlockLinear;
        desc.block_log2 = Some([bw, bh, bd]);
        desc.auto_size = Some(auto);
        desc.gob_order = if gpu.is_gf100_or_later() { ALL_GOB_ORDERS[order] } else { GobOrder::Vm };
        desc.address = addr_blocks * 0x200;
        desc
    }
}

prop_compose! {
    fn pitch()(gpu in gpu_strategy(), es in prop_oneof![Just(1u32), Just(4), Just(16)], w in 1u32..100, h in 1u32..30, extra in 0u64..3) -> SurfaceDesc {
        let mut desc = SurfaceDesc::new(gpu, es, [w, h, 1]);
        desc.layout = LayoutKind::Pitch;
        desc.pitch_bytes = Some((u64::from(w) * u64::from(es)).div_ceil(64) * 64 + 64 * extra);
        desc
    }
}

prop_compose! {
    fn swizzled()(es in prop_oneof![Just(1u32), Just(2), Just(4), Just(8), Just(16)], lw in 0u32..7, lh in 0u32..6, ld in 0u32..3) -> SurfaceDesc {
        let mut desc = SurfaceDesc::new(Gpu::Nv40, es, [1 << lw, 1 << lh, 1 << ld]);
        desc.layout = LayoutKind::Swizzled;
        desc
    }
}

fn any_surface() -> impl Strategy<Value = SurfaceDesc> {
    prop_oneof![3 => blocklinear(), 1 => pitch(), 1 => swizzled()]
}

/// A random box inside `s` (from fractions), and a linear layout with random padding.
fn region_of(s: &Surface, f: [f64; 6], pad: [u64; 2], whole: bool) -> (Region, LinearLayout) {
    let size = s.size();
    let region = if whole {
        Region::whole(s)
    } else {
        let mut o = [0u32; 3];
        let mut e = [0u32; 3];
        for i in 0..3 {
            o[i] = (f[i] * size[i] as f64) as u32;
            e[i] = 1 + (f[i + 3] * (size[i] - o[i]) as f64) as u32;
            e[i] = e[i].min(size[i] - o[i]);
        }
        Region { x: o[0], y: o[1], z: o[2], w: e[0], h: e[1], d: e[2] }
    };
    let row = u64::from(region.w) * u64::from(s.elem_size_bytes()) + pad[0];
    let slice = row * u64::from(region.h) + pad[1];
    (region, LinearLayout { row_pitch_bytes: row, slice_pitch_bytes: slice })
}

/// Serializes the tests that step the process-wide vector cap (the harness runs tests on
/// several threads; the other tests only ever see a cap that gives the same bytes).
static LEVELS: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Every vector level, lowest first.
const ALL_LEVELS: [VectorLevel; 3] = [VectorLevel::Baseline, VectorLevel::Avx2, VectorLevel::Avx512];

fn levels_lock() -> std::sync::MutexGuard<'static, ()> {
    LEVELS.lock().unwrap_or_else(|e| e.into_inner())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

    #[test]
    fn fast_paths_equal_the_address_function(desc in any_surface(), f in prop::array::uniform6(0.0f64..1.0), pad in prop::array::uniform2(0u64..40), whole in any::<bool>(), seed in any::<u64>()) {
        let s = desc.build().unwrap();
        let (region, lin) = region_of(&s, f, pad, whole);
        let tiled = noise(s.size_bytes() as usize + 7, seed);
        let lin_len = (u64::from(region.d) * lin.slice_pitch_bytes) as usize;
        let background = noise(lin_len, seed ^ 0x55);

        let mut fast = background.clone();
        let mut slow = background.clone();
        tile::untile_with(&s, &tiled, &mut fast, region, lin, &CopyOptions::default()).unwrap();
        tile::untile_reference(&s, &tiled, &mut slow, region, lin).unwrap();
        prop_assert!(fast == slow, "untile differs");
        let mut checked = background.clone();
        tile::untile_checked(&s, &tiled, &mut checked, region, lin).unwrap();
        prop_assert!(checked == slow, "safe twin of untile differs");

        let linear = noise(lin_len, seed ^ 0xaa);
        let mut fast_t = tiled.clone();
        let mut slow_t = tiled.clone();
        tile::tile_with(&s, &linear, &mut fast_t, region, lin, &CopyOptions::default()).unwrap();
        tile::tile_reference(&s, &linear, &mut slow_t, region, lin).unwrap();
        prop_assert!(fast_t == slow_t, "tile differs");
        let mut checked_t = tiled.clone();
        tile::tile_checked(&s, &linear, &mut checked_t, region, lin).unwrap();
        prop_assert!(checked_t == slow_t, "safe twin of tile differs");

        // Round trip: untile what was tiled and get the linear image back (padding untouched).
        let mut back = background.clone();
        tile::untile_with(&s, &fast_t, &mut back, region, lin, &CopyOptions::default()).unwrap();
        let mut want = background.clone();
        tile::untile_reference(&s, &slow_t, &mut want, region, lin).unwrap();
        prop_assert!(back == want);

        #[cfg(feature = "rayon")]
        {
            let mut par = background.clone();
            tile::untile_with(&s, &tiled, &mut par, region, lin, &CopyOptions::default().threads(Threads::CurrentPool)).unwrap();
            prop_assert!(par == fast, "parallel untile differs");
            let mut par_t = tiled.clone();
            tile::tile_with(&s, &linear, &mut par_t, region, lin, &CopyOptions::default().threads(Threads::CurrentPool)).unwrap();
            prop_assert!(par_t == fast_t, "parallel tile differs");
        }
    }
}

#[test]
fn whole_surface_round_trip_and_bad_buffers() {
    let mut desc = SurfaceDesc::new(Gpu::Gf100, 4, [100, 50, 1]);
    desc.block_log2 = Some([0, 4, 0]);
    let s = desc.build().unwrap();
    let linear = noise(100 * 50 * 4, 9);
    let tiled = tile::tile_to_buf(&s, &linear, &CopyOptions::default()).map(AlignedBuf::into_vec).unwrap();
    assert_eq!(tiled.len() as u64, s.size_bytes());
    assert_eq!(tile::untile_to_buf(&s, &tiled, &CopyOptions::default()).map(AlignedBuf::into_vec).unwrap(), linear);

    let short = &tiled[..tiled.len() - 1];
    assert!(matches!(
        tile::untile_to_buf(&s, short, &CopyOptions::default()).map(AlignedBuf::into_vec),
        Err(Error::BufferTooSmall { what: "tiled buffer", .. })
    ));
    assert!(matches!(
        tile::tile_to_buf(&s, &linear[1..], &CopyOptions::default()).map(AlignedBuf::into_vec),
        Err(Error::BufferTooSmall { what: "linear buffer", .. })
    ));
    let region = Region { x: 90, y: 0, z: 0, w: 11, h: 1, d: 1 };
    let mut out = vec![0u8; 64];
    let lin = LinearLayout::packed(&region, 4);
    assert!(matches!(
        tile::untile_with(&s, &tiled, &mut out, region, lin, &CopyOptions::default()),
        Err(Error::OutOfRange { field: "box x+w", .. })
    ));
    let region = Region { w: 0, ..region };
    assert!(matches!(
        tile::untile_with(&s, &tiled, &mut out, region, lin, &CopyOptions::default()),
        Err(Error::OutOfRange { field: "box w", .. })
    ));
    let region = Region { x: 0, y: 0, z: 0, w: 10, h: 2, d: 1 };
    let lin = LinearLayout { row_pitch_bytes: 39, slice_pitch_bytes: 80 };
    assert!(matches!(
        tile::untile_with(&s, &tiled, &mut out, region, lin, &CopyOptions::default()),
        Err(Error::OutOfRange { field: "linear row pitch", .. })
    ));
}

/// Large outputs take the streaming-store paths (tile: tiled side; untile: linear side, from the
/// AVX-512 gob kernels): they must write the same bytes as the checked twins (also through the
/// parallel entry points), for Tegra-order and VM-order gobs.
#[test]
fn streaming_paths_equal_the_checked_twins() {
    let mut desc = SurfaceDesc::new(Gpu::Gm20b, 4, [2048, 3100, 1]);
    desc.block_log2 = Some([0, 4, 0]);
    desc.gob_order = GobOrder::Tegra;
    streaming_case(desc.build().unwrap(), 0);
    let mut desc = SurfaceDesc::new(Gpu::G80, 4, [2048, 1100, 1]);
    desc.block_log2 = Some([0, 4, 0]);
    streaming_case(desc.build().unwrap(), 0);
}

/// Untile streaming into a linear image off a line boundary (as the layers of a packed texture
/// file after a small mip level are): 4-byte multiples take the shifting kernel (lines put
/// together from two gobs), other offsets ordinary stores; Tegra and VM (4-row G80 gobs)
/// orders, every vector level, single-thread and parallel.
#[test]
fn streaming_into_unaligned_linear_images_equals_the_checked_twins() {
    let mut desc = SurfaceDesc::new(Gpu::Gm20b, 4, [1024, 1900, 1]);
    desc.block_log2 = Some([0, 4, 0]);
    desc.gob_order = GobOrder::Tegra;
    let tegra = desc.build().unwrap();
    let mut desc = SurfaceDesc::new(Gpu::G80, 4, [1024, 1862, 1]);
    desc.block_log2 = Some([0, 3, 0]);
    let g80 = desc.build().unwrap();
    for (s, mis) in [(tegra, 4), (tegra, 20), (tegra, 60), (tegra, 3), (g80, 16), (g80, 44), (g80, 1)] {
        streaming_case(s, mis);
    }
}

/// The streaming threshold these tests' sizes are chosen for (the automatic one depends on
/// the machine's level-3 cache). Every test that sets it sets this value, so tests running at
/// the same time agree; streaming never changes the bytes.
fn pin_streaming_threshold() {
    tile::set_streaming_threshold_bytes(Some(tile::STREAMING_THRESHOLD_BYTES));
}

fn streaming_case(s: Surface, mis: usize) {
    pin_streaming_threshold();
    let [w, h, _] = s.size().to_array();
    let size = s.size_bytes() as usize;
    let lin_len = w as usize * h as usize * 4;
    assert!(size >= tile::STREAMING_THRESHOLD_BYTES && lin_len >= tile::STREAMING_THRESHOLD_BYTES);
    let linear = Aligned64::at(&noise(lin_len, 3), mis);
    let tiled_src = Aligned64::new(&noise(size, 4));
    let region = Region::whole(&s);
    let lin = LinearLayout::packed(&region, 4);
    let plan = tile::Plan::new(&s, region, lin, size, lin_len).unwrap();
    assert!(plan.stream_tiled(tiled_src.get()), "the tile streaming path is taken");
    assert!(plan.stream_linear(linear.get()), "the untile streaming path is taken");
    let _levels = levels_lock();
    let mut want = vec![0u8; size];
    tile::tile_checked(&s, linear.get(), &mut want, region, lin).unwrap();
    let mut want_lin = vec![0u8; lin_len];
    tile::untile_checked(&s, tiled_src.get(), &mut want_lin, region, lin).unwrap();
    for level in [VectorLevel::Baseline, VectorLevel::Avx2, VectorLevel::Avx512] {
        set_vector_limit(level);
        let mut got = Aligned64::new(&vec![0u8; size]);
        tile::tile_with(&s, linear.get(), got.get_mut(), region, lin, &CopyOptions::default()).unwrap();
        let mut got_lin = Aligned64::at(&vec![0u8; lin_len], mis);
        tile::untile_with(&s, tiled_src.get(), got_lin.get_mut(), region, lin, &CopyOptions::default()).unwrap();
        #[cfg(feature = "rayon")]
        let (par, par_lin) = {
            let mut a = Aligned64::new(&vec![0u8; size]);
            tile::tile_with(
                &s,
                linear.get(),
                a.get_mut(),
                region,
                lin,
                &CopyOptions::default().threads(Threads::CurrentPool),
            )
            .unwrap();
            let mut b = Aligned64::at(&vec![0u8; lin_len], mis);
            tile::untile_with(
                &s,
                tiled_src.get(),
                b.get_mut(),
                region,
                lin,
                &CopyOptions::default().threads(Threads::CurrentPool),
            )
            .unwrap();
            (a, b)
        };
        set_vector_limit(VectorLevel::Avx512);
        assert!(got.get() == &want[..], "tile at {level:?}");
        assert!(got_lin.get() == &want_lin[..], "untile at {level:?}");
        #[cfg(feature = "rayon")]
        {
            assert!(par.get() == &want[..], "parallel tile at {level:?}");
            assert!(par_lin.get() == &want_lin[..], "parallel untile at {level:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    /// Swizzled surfaces big enough for the whole-chunk path (4096-element chunks in index
    /// order), with and without a box.
    #[test]
    fn large_swizzled_surfaces_equal_the_address_function(es in prop_oneof![Just(1u32), Just(2), Just(4), Just(8), Just(16)], lw in 6u32..9, lh in 6u32..8, ld in 0u32..3,
                                                            f in prop::array::uniform6(0.0f64..1.0), whole in any::<bool>(), seed in any::<u64>()) {
        let mut desc = SurfaceDesc::new(Gpu::Nv40, es, [1 << lw, 1 << lh, 1 << ld]);
        desc.layout = LayoutKind::Swizzled;
        let s = desc.build().unwrap();
        let (region, lin) = region_of(&s, f, [0, 0], whole);
        // Line-aligned buffers, so that whole chunks take the AVX-512 kernel where the CPU has it.
        let tiled_a = Aligned64::new(&noise(s.size_bytes() as usize, seed));
        let tiled = tiled_a.get().to_vec();
        let lin_len = (u64::from(region.d) * lin.slice_pitch_bytes) as usize;
        let mut slow = vec![0u8; lin_len];
        tile::untile_reference(&s, &tiled, &mut slow, region, lin).unwrap();
        let _levels = levels_lock();
        // Every vector level this CPU has (the AVX-512 chunk kernels and the SSE2 tiles).
        for level in [VectorLevel::Baseline, VectorLevel::Avx2, VectorLevel::Avx512] {
            set_vector_limit(level);
            let mut fast = Aligned64::new(&vec![0u8; lin_len]);
            tile::untile_with(&s, tiled_a.get(), fast.get_mut(), region, lin, &CopyOptions::default()).unwrap();
            let linear = Aligned64::new(&noise(lin_len, !seed));
            let mut fast_t = Aligned64::new(&tiled);
            let mut slow_t = tiled.clone();
            tile::tile_with(&s, linear.get(), fast_t.get_mut(), region, lin, &CopyOptions::default()).unwrap();
            tile::tile_reference(&s, linear.get(), &mut slow_t, region, lin).unwrap();
            set_vector_limit(VectorLevel::Avx512);
            prop_assert!(fast.get() == &slow[..], "untile at {:?}", level);
            prop_assert!(fast_t.get() == &slow_t[..], "tile at {:?}", level);
        }
        let mut checked = vec![0u8; lin_len];
        tile::untile_checked(&s, &tiled, &mut checked, region, lin).unwrap();
        prop_assert!(checked == slow, "safe twin of untile differs");
        let linear = noise(lin_len, !seed);
        let mut slow_t = tiled.clone();
        tile::tile_reference(&s, &linear, &mut slow_t, region, lin).unwrap();
        let mut checked_t = tiled.clone();
        tile::tile_checked(&s, &linear, &mut checked_t, region, lin).unwrap();
        prop_assert!(checked_t == slow_t, "safe twin of tile differs");
        #[cfg(feature = "rayon")]
        {
            let mut par_t = tiled.clone();
            tile::tile_with(&s, &linear, &mut par_t, region, lin, &CopyOptions::default().threads(Threads::CurrentPool)).unwrap();
            prop_assert!(par_t == slow_t);
            let mut par = vec![0u8; lin_len];
            tile::untile_with(&s, &tiled, &mut par, region, lin, &CopyOptions::default().threads(Threads::CurrentPool)).unwrap();
            prop_assert!(par == slow, "parallel untile differs");
        }
    }
}

/// Swizzled 4-byte surfaces whose chunk rows hold more whole chunks than one vector run takes
/// (16): 2048 elements wide is 32 chunks, two runs per chunk row; boxes that start and end
/// inside chunks (a partial chunk, then runs, then a partial chunk), a box of 17 whole chunks (a
/// run of 16 and a run of 1), 4096 wide (four runs), and a tall surface whose chunk index bits above 12 are all y (one
/// chunk per run). Every vector level, tile and untile, single-thread and parallel, against the
/// plain address function, with a linear row pitch a multiple of 64 bytes (the run kernels'
/// condition) and one that is not.
#[test]
fn swizzled_chunk_runs_equal_the_address_function() {
    let shapes = [[2048u32, 128, 1], [4096, 64, 1], [64, 1024, 1]];
    for (n, size) in shapes.into_iter().enumerate() {
        let mut desc = SurfaceDesc::new(Gpu::Nv40, 4, size);
        desc.layout = LayoutKind::Swizzled;
        let s = desc.build().unwrap();
        let [w, h, d] = size;
        let boxes = [
            Region::whole(&s),
            Region { x: 37, y: 0, z: 0, w: w - 37 - 5, h, d },
            Region { x: 64 % w, y: 64.min(h - 64), z: d - 1, w: (17 * 64).min(w - 64 % w), h: 64, d: 1 },
        ];
        for (b, region) in boxes.into_iter().enumerate() {
            for extra in [0u64, 16] {
                let row = u64::from(region.w) * 4 + extra;
                let lin = LinearLayout { row_pitch_bytes: row, slice_pitch_bytes: row * u64::from(region.h) };
                let lin_len = (lin.slice_pitch_bytes * u64::from(region.d)) as usize;
                let seed = (n * 8 + b * 2) as u64 + extra;
                let tiled = Aligned64::new(&noise(s.size_bytes() as usize, seed));
                let linear = Aligned64::new(&noise(lin_len, !seed));
                let at = format!("{size:?}, {region:?}, row pitch {row}");
                every_level_equals_the_reference(&s, &tiled, &linear, 0, region, lin, &at);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

    /// Absurd pitches (up to u64::MAX) are errors, never wrapped offsets: the caller's buffer is
    /// left untouched outside what a valid plan may write.
    #[test]
    fn extreme_pitches_are_rejected(desc in any_surface(), row in prop_oneof![Just(u64::MAX), Just(u64::MAX / 2 + 1), Just(1u64 << 63), any::<u64>()],
                                    slice in prop_oneof![Just(u64::MAX), any::<u64>()], whole in any::<bool>(), f in prop::array::uniform6(0.0f64..1.0)) {
        let s = desc.build().unwrap();
        let (region, _) = region_of(&s, f, [0, 0], whole);
        let lin = LinearLayout { row_pitch_bytes: row, slice_pitch_bytes: slice };
        let tiled = noise(s.size_bytes() as usize, 1);
        let mut guard = vec![0xa5u8; 4096];
        let mid = 1024..3072;
        let r = tile::untile_with(&s, &tiled, &mut guard[mid.clone()], region, lin, &CopyOptions::default());
        if r.is_ok() {
            // Only a plan whose whole span fits in the 2048-byte buffer may succeed.
            let plan = tile::Plan::new(&s, region, lin, tiled.len(), 2048).unwrap();
            prop_assert!(plan.linear_span <= 2048);
        }
        prop_assert!(guard[..1024].iter().all(|&b| b == 0xa5) && guard[3072..].iter().all(|&b| b == 0xa5));
        let mut out = tiled.clone();
        let _ = tile::tile_with(&s, &guard[mid.clone()], &mut out, region, lin, &CopyOptions::default());
        let _ = tile::tile_checked(&s, &guard[mid], &mut out, region, lin);
    }
}

/// `n` bytes of `fill` starting on a 64-byte boundary (the library's line-aligned buffer), or
/// `mis` bytes past one: the vector kernels for whole gobs and chunks run only on line-aligned
/// addresses.
struct Aligned64 {
    buf: tile::AlignedBuf,
    at: usize,
    n: usize,
}

impl Aligned64 {
    fn new(fill: &[u8]) -> Self {
        Aligned64::at(fill, 0)
    }
    /// `fill` starting `mis` bytes past a 64-byte boundary.
    fn at(fill: &[u8], mis: usize) -> Self {
        let mut buf = tile::AlignedBuf::zeroed(fill.len() + mis).unwrap();
        buf[mis..].copy_from_slice(fill);
        Aligned64 { buf, at: mis, n: fill.len() }
    }
    fn get(&self) -> &[u8] {
        &self.buf[self.at..self.at + self.n]
    }
    fn get_mut(&mut self) -> &mut [u8] {
        &mut self.buf[self.at..self.at + self.n]
    }
}

/// Untiles `tiled` and tiles `linear` (a linear image starting `mis` bytes past a line, as
/// [`Aligned64::at`] makes it) at every vector level, single-thread and (with `rayon`)
/// parallel, and asserts the bytes equal the byte-by-byte reference's; `at` names the case.
fn every_level_equals_the_reference(
    s: &Surface,
    tiled: &Aligned64,
    linear: &Aligned64,
    mis: usize,
    region: Region,
    lin: LinearLayout,
    at: &str,
) {
    let lin_len = linear.get().len();
    let mut want_lin = vec![0u8; lin_len];
    tile::untile_reference(s, tiled.get(), &mut want_lin, region, lin).unwrap();
    let mut want_tiled = tiled.get().to_vec();
    tile::tile_reference(s, linear.get(), &mut want_tiled, region, lin).unwrap();
    let _levels = levels_lock();
    for level in ALL_LEVELS {
        set_vector_limit(level);
        let mut got_lin = Aligned64::at(&vec![0u8; lin_len], mis);
        tile::untile_with(s, tiled.get(), got_lin.get_mut(), region, lin, &CopyOptions::default()).unwrap();
        let mut got_tiled = Aligned64::new(tiled.get());
        tile::tile_with(s, linear.get(), got_tiled.get_mut(), region, lin, &CopyOptions::default()).unwrap();
        #[cfg(feature = "rayon")]
        let (par_lin, par_tiled) = {
            let mut a = Aligned64::at(&vec![0u8; lin_len], mis);
            tile::untile_with(
                s,
                tiled.get(),
                a.get_mut(),
                region,
                lin,
                &CopyOptions::default().threads(Threads::CurrentPool),
            )
            .unwrap();
            let mut b = Aligned64::new(tiled.get());
            tile::tile_with(
                s,
                linear.get(),
                b.get_mut(),
                region,
                lin,
                &CopyOptions::default().threads(Threads::CurrentPool),
            )
            .unwrap();
            (a, b)
        };
        set_vector_limit(VectorLevel::Avx512);
        assert!(got_lin.get() == &want_lin[..], "{at} at {level:?}: untile");
        assert!(got_tiled.get() == &want_tiled[..], "{at} at {level:?}: tile");
        #[cfg(feature = "rayon")]
        {
            assert!(par_lin.get() == &want_lin[..], "{at} at {level:?}: parallel untile");
            assert!(par_tiled.get() == &want_tiled[..], "{at} at {level:?}: parallel tile");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    /// Line-aligned buffers and row pitches (multiples of 64 bytes), so that the AVX-512 gob
    /// and chunk kernels run where the CPU has them: every vector level against the
    /// byte-by-byte reference, whole surfaces and boxes, single-thread and parallel.
    #[test]
    fn aligned_buffers_take_the_vector_kernels(kind in 0u8..3, es in prop_oneof![Just(1u32), Just(2), Just(4), Just(8), Just(16)],
                                               wl in 1u32..6, h in 1u32..200, bw in 0u32..2, bh in 0u32..5, whole in any::<bool>(),
                                               f in prop::array::uniform6(0.0f64..1.0), pad in 0u64..3, seed in any::<u64>()) {
        let w = (64 / es) * wl * 4;
        let s = if kind < 2 {
            // Tegra-order GF100 gobs, or VM-order G80 gobs.
            let mut d = SurfaceDesc::new(if kind == 0 { Gpu::Gm20b } else { Gpu::G80 }, es, [w, h, 1]);
            if kind == 0 {
                d.gob_order = GobOrder::Tegra;
            }
            d.block_log2 = Some([bw, bh, 0]);
            d.build().unwrap()
        } else {
            let mut d = SurfaceDesc::new(Gpu::Nv40, es, [w.next_power_of_two(), h.next_power_of_two().max(64), 1]);
            d.layout = LayoutKind::Swizzled;
            d.build().unwrap()
        };
        let (region, mut lin) = region_of(&s, f, [0, 0], whole);
        // Rows padded to whole lines (and by `pad` more lines).
        lin.row_pitch_bytes = (u64::from(region.w) * u64::from(es)).div_ceil(64) * 64 + 64 * pad;
        lin.slice_pitch_bytes = lin.row_pitch_bytes * u64::from(region.h);
        let lin_len = (u64::from(region.d) * lin.slice_pitch_bytes) as usize;
        let tiled = Aligned64::new(&noise(s.size_bytes() as usize, seed));
        let linear = Aligned64::new(&noise(lin_len, !seed));
        let mut want_lin = vec![0u8; lin_len];
        tile::untile_reference(&s, tiled.get(), &mut want_lin, region, lin).unwrap();
        let mut want_tiled = tiled.get().to_vec();
        tile::tile_reference(&s, linear.get(), &mut want_tiled, region, lin).unwrap();
        every_level_equals(&s, region, lin, &tiled, &linear, &want_lin, &want_tiled)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2, .. ProptestConfig::default() })]

    /// Surfaces and boxes big enough for the parallel paths (over 256 KiB of linear image),
    /// with gob- or chunk-aligned boxes, padded row and slice pitches (whole lines) and several
    /// slices: the vector gob and chunk kernels run inside later parallel tasks too. Against
    /// the checked twins (themselves compared with the byte reference above), at every level.
    #[test]
    fn large_parallel_boxes_equal_the_checked_twins(d in 1u32..3, pad in prop::array::uniform2(0u64..3), seed in any::<u64>()) {
      for (kind, es) in (0u8..3).flat_map(|k| [(k, 4u32), (k, 16)]) {
        let s = match kind {
            0 | 1 => {
                let mut desc = SurfaceDesc::new(if kind == 0 { Gpu::Gm20b } else { Gpu::G80 }, es, [1024 / es * 4, 300, d]);
                if kind == 0 {
                    desc.gob_order = GobOrder::Tegra;
                }
                desc.block_log2 = Some([0, 2, 0]);
                desc.build().unwrap()
            }
            _ => {
                let mut desc = SurfaceDesc::new(Gpu::Nv40, es, [512, 256, 1]);
                desc.layout = LayoutKind::Swizzled;
                desc.build().unwrap()
            }
        };
        let [w, h, depth] = s.size().to_array();
        // A box starting at a gob / chunk boundary (64 bytes or 64 elements, 64 rows), ending
        // anywhere.
        let x0 = if kind == 2 { 64 } else { 64 / es };
        let region = Region { x: x0, y: 64, z: 0, w: w - x0 - 3, h: h - 64 - 5, d: depth };
        let row = (u64::from(region.w) * u64::from(es)).div_ceil(64) * 64 + 64 * pad[0];
        let lin = LinearLayout { row_pitch_bytes: row, slice_pitch_bytes: row * u64::from(region.h) + 64 * pad[1] };
        let lin_len = (u64::from(region.d) * lin.slice_pitch_bytes) as usize;
        prop_assert!(lin_len >= tile::PARALLEL_THRESHOLD_BYTES);
        let tiled = Aligned64::new(&noise(s.size_bytes() as usize, seed));
        let linear = Aligned64::new(&noise(lin_len, !seed));
        let mut want_lin = vec![0u8; lin_len];
        tile::untile_checked(&s, tiled.get(), &mut want_lin, region, lin).unwrap();
        let mut want_tiled = tiled.get().to_vec();
        tile::tile_checked(&s, linear.get(), &mut want_tiled, region, lin).unwrap();
            every_level_equals(&s, region, lin, &tiled, &linear, &want_lin, &want_tiled)?;
      }
    }
}

/// Two 4-row VM gobs move as one 8-row column where the block layout stacks them (blocks one
/// gob wide and at least two tall), unless untile streams. G80 surfaces with such blocks and
/// with their neighbours (one gob tall, two gobs wide: no stacking), 2D and 3D, whole and in
/// boxes that start on an odd gob row (so the first gob row goes alone) and end inside a gob
/// row; line-aligned buffers; every vector level, single-thread and parallel, against the byte
/// reference.
#[test]
fn stacked_vm_gobs_equal_the_reference() {
    let shapes = [
        ([0, 0, 0], [640, 37, 1]),
        ([0, 1, 0], [640, 37, 1]),
        ([1, 1, 0], [640, 37, 1]),
        ([0, 3, 1], [320, 70, 5]),
        ([0, 4, 0], [1024, 300, 1]),
    ];
    for (block, size) in shapes {
        let mut desc = SurfaceDesc::new(Gpu::G80, 4, size);
        desc.block_log2 = Some(block);
        let s = desc.build().unwrap();
        let Surface::BlockLinear(b) = &s else { panic!("blocklinear") };
        assert_eq!((b.gob_height_rows(), b.block_log2()), (4, block), "no auto-sizing");
        for whole in [true, false] {
            stacked_case(&s, &format!("block {block:?}, size {size:?}"), whole, 4, false);
        }
    }
}

/// One case of the stacked-gob tests (4-byte elements): the whole surface, or a box from column
/// 16 and row `y` to 3 elements and rows short of the far edges, with line-aligned linear rows;
/// checks every level (and, when `checked`, the checked twins) against the byte reference and
/// returns the plan.
fn stacked_case(s: &Surface, label: &str, whole: bool, y: u32, checked: bool) -> tile::Plan {
    let [w, h, d] = s.size().to_array();
    let region = if whole { Region::whole(s) } else { Region { x: 16, y, z: 0, w: w - 16 - 3, h: h - y - 3, d } };
    let row = (u64::from(region.w) * 4).div_ceil(64) * 64;
    let lin = LinearLayout { row_pitch_bytes: row, slice_pitch_bytes: row * u64::from(region.h) };
    let lin_len = (lin.slice_pitch_bytes * u64::from(region.d)) as usize;
    let tiled = Aligned64::new(&noise(s.size_bytes() as usize, 11));
    let linear = Aligned64::new(&noise(lin_len, 12));
    let mut want_lin = vec![0u8; lin_len];
    tile::untile_reference(s, tiled.get(), &mut want_lin, region, lin).unwrap();
    let mut want_tiled = tiled.get().to_vec();
    tile::tile_reference(s, linear.get(), &mut want_tiled, region, lin).unwrap();
    let what = format!("{label}, whole {whole}");
    every_level_equals(s, region, lin, &tiled, &linear, &want_lin, &want_tiled)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    if checked {
        let mut got = tiled.get().to_vec();
        tile::tile_checked(s, linear.get(), &mut got, region, lin).unwrap();
        assert!(got == want_tiled, "checked tile, {what}");
        let mut got_lin = vec![0u8; lin_len];
        tile::untile_checked(s, tiled.get(), &mut got_lin, region, lin).unwrap();
        assert!(got_lin == want_lin, "checked untile, {what}");
    }
    tile::Plan::new(s, region, lin, tiled.get().len(), lin_len).unwrap()
}

/// Tegra gobs of narrow surfaces (linear rows of at most 4 KiB, blocks one gob wide) move as
/// columns of 2 or 4 stacked gobs: always through the checked movers, and through the raw tile
/// mover when it streams its output. Blocks 1, 2 and 16 gobs tall, 2D and 3D, and a neighbour
/// two gobs wide (no stacking); whole surfaces and boxes that start on gob row 1 (columns of
/// 1, then 2, then 4 gobs) and end inside a gob row; the 3D case is large enough for tile to
/// stream; every vector level, single-thread and parallel, against the byte reference.
#[test]
fn stacked_tegra_gobs_equal_the_reference() {
    pin_streaming_threshold();
    let shapes = [
        ([0, 0, 0], [256, 37, 1]),
        ([0, 1, 0], [200, 70, 1]),
        ([0, 2, 1], [256, 100, 3]),
        ([1, 2, 0], [256, 100, 1]),
        ([0, 4, 4], [256, 136, 32]),
    ];
    for (block, size) in shapes {
        let mut desc = SurfaceDesc::new(Gpu::Gm20b, 4, size);
        desc.block_log2 = Some(block);
        desc.gob_order = GobOrder::Tegra;
        let s = desc.build().unwrap();
        let Surface::BlockLinear(b) = &s else { panic!("blocklinear") };
        assert_eq!((b.gob_height_rows(), b.block_log2()), (8, block), "no auto-sizing");
        for whole in [true, false] {
            let plan = stacked_case(&s, &format!("block {block:?}, size {size:?}"), whole, 8, true);
            let tiled_at_64 = Aligned64::new(&vec![0u8; s.size_bytes() as usize]);
            assert_eq!(plan.stream_tiled(tiled_at_64.get()), size[2] == 32, "the 3D case (only) streams its tile");
        }
    }
}

/// `tile`, `untile` and (with `rayon`) their parallel entry points at every vector level, on
/// line-aligned copies of `tiled` and `linear`, against the expected bytes.
fn every_level_equals(
    s: &Surface,
    region: Region,
    lin: LinearLayout,
    tiled: &Aligned64,
    linear: &Aligned64,
    want_lin: &[u8],
    want_tiled: &[u8],
) -> Result<(), TestCaseError> {
    let lin_len = want_lin.len();
    let _levels = levels_lock();
    for level in [VectorLevel::Baseline, VectorLevel::Avx2, VectorLevel::Avx512] {
        set_vector_limit(level);
        let mut got_lin = Aligned64::new(&vec![0u8; lin_len]);
        tile::untile_with(s, tiled.get(), got_lin.get_mut(), region, lin, &CopyOptions::default()).unwrap();
        let mut got_tiled = Aligned64::new(tiled.get());
        tile::tile_with(s, linear.get(), got_tiled.get_mut(), region, lin, &CopyOptions::default()).unwrap();
        // As parts of a job too large for the caches (streaming stores on these small
        // surfaces too) and of a tiny one (never streaming).
        let mut parts = Vec::new();
        for job in [u64::MAX, 0] {
            let mut a = Aligned64::new(&vec![0u8; lin_len]);
            tile::untile_with(s, tiled.get(), a.get_mut(), region, lin, &CopyOptions::default().job_output_bytes(job))
                .unwrap();
            let mut b = Aligned64::new(tiled.get());
            tile::tile_with(s, linear.get(), b.get_mut(), region, lin, &CopyOptions::default().job_output_bytes(job))
                .unwrap();
            parts.push((job, "", a, b));
            #[cfg(feature = "rayon")]
            {
                let mut a = Aligned64::new(&vec![0u8; lin_len]);
                tile::untile_with(
                    s,
                    tiled.get(),
                    a.get_mut(),
                    region,
                    lin,
                    &CopyOptions::default().threads(Threads::CurrentPool).job_output_bytes(job),
                )
                .unwrap();
                let mut b = Aligned64::new(tiled.get());
                tile::tile_with(
                    s,
                    linear.get(),
                    b.get_mut(),
                    region,
                    lin,
                    &CopyOptions::default().threads(Threads::CurrentPool).job_output_bytes(job),
                )
                .unwrap();
                parts.push((job, "parallel ", a, b));
            }
        }
        #[cfg(feature = "rayon")]
        let (par_lin, par_tiled) = {
            let mut a = Aligned64::new(&vec![0u8; lin_len]);
            tile::untile_with(
                s,
                tiled.get(),
                a.get_mut(),
                region,
                lin,
                &CopyOptions::default().threads(Threads::CurrentPool),
            )
            .unwrap();
            let mut b = Aligned64::new(tiled.get());
            tile::tile_with(
                s,
                linear.get(),
                b.get_mut(),
                region,
                lin,
                &CopyOptions::default().threads(Threads::CurrentPool),
            )
            .unwrap();
            (a, b)
        };
        set_vector_limit(VectorLevel::Avx512);
        prop_assert!(got_lin.get() == want_lin, "untile at {:?}", level);
        prop_assert!(got_tiled.get() == want_tiled, "tile at {:?}", level);
        for (job, how, a, b) in &parts {
            prop_assert!(a.get() == want_lin, "{}untile_part (job {} bytes) at {:?}", how, job, level);
            prop_assert!(b.get() == want_tiled, "{}tile_part (job {} bytes) at {:?}", how, job, level);
        }
        #[cfg(feature = "rayon")]
        {
            prop_assert!(par_lin.get() == want_lin, "parallel untile at {:?}", level);
            prop_assert!(par_tiled.get() == want_tiled, "parallel tile at {:?}", level);
        }
    }
    Ok(())
}

/// The parallel entry points size their tasks by the pool's thread count (swizzled tile picks
/// how many top index bits to split on, untile and pitch tile size their row bands). Whatever
/// the split, the bytes must equal the checked twins': pools of 1 to 16 threads, whole
/// surfaces and boxes that meet only some of the parts (pitch: a band of a tall surface).
#[cfg(feature = "rayon")]
#[test]
fn parallel_paths_equal_the_checked_twins_for_any_pool_size() {
    let swizzled = |es: u32, size: [u32; 3]| {
        let mut desc = SurfaceDesc::new(Gpu::Nv40, es, size);
        desc.layout = LayoutKind::Swizzled;
        desc.build().unwrap()
    };
    let mut tegra = SurfaceDesc::new(Gpu::Gm20b, 4, [700, 500, 2]);
    tegra.gob_order = GobOrder::Tegra;
    tegra.block_log2 = Some([0, 3, 1]);
    let mut pitch = SurfaceDesc::new(Gpu::Nv40, 4, [300, 4000, 1]);
    pitch.layout = LayoutKind::Pitch;
    // Fewer block rows than the pool wants tasks: parallel tile cuts block rows into parts of
    // whole block columns (one partial block row; blocks two gobs wide over three slabs of
    // two slices; 12-byte elements straddling gobs and blocks).
    let mut wide = SurfaceDesc::new(Gpu::Gm20b, 4, [4000, 120, 1]);
    wide.gob_order = GobOrder::Tegra;
    wide.block_log2 = Some([0, 4, 0]);
    let mut g80_slabs = SurfaceDesc::new(Gpu::G80, 16, [1500, 40, 5]);
    g80_slabs.block_log2 = Some([1, 2, 1]);
    g80_slabs.auto_size = Some(false);
    let mut twelve = SurfaceDesc::new(Gpu::Gf100, 12, [3000, 48, 1]);
    twelve.block_log2 = Some([2, 1, 0]);
    twelve.auto_size = Some(false);
    let surfaces = [
        wide.build().unwrap(),
        g80_slabs.build().unwrap(),
        twelve.build().unwrap(),
        swizzled(4, [512, 512, 1]),
        swizzled(4, [1024, 128, 1]),
        swizzled(4, [2048, 64, 1]),
        swizzled(2, [64, 64, 64]),
        swizzled(2, [1024, 256, 1]),
        swizzled(1, [2048, 256, 1]),
        swizzled(8, [1024, 256, 1]),
        tegra.build().unwrap(),
        pitch.build().unwrap(),
    ];
    for (n, s) in surfaces.iter().enumerate() {
        let [w, h, d] = s.size().to_array();
        let boxes = [
            Region::whole(s),
            // The lower right quarter and a band of the last slice: fewer parts meet them than
            // the pool has threads.
            Region { x: w / 2, y: h / 2, z: 0, w: w / 2, h: h / 2, d },
            Region { x: 3, y: h - h / 3 - 1, z: d - 1, w: w - 5, h: h / 3, d: 1 },
        ];
        for region in boxes {
            let es = u64::from(s.elem_size_bytes());
            let row = u64::from(region.w) * es + 64;
            let lin = LinearLayout { row_pitch_bytes: row, slice_pitch_bytes: row * u64::from(region.h) };
            let lin_len = (lin.slice_pitch_bytes * u64::from(region.d)) as usize;
            let tiled = Aligned64::new(&noise(s.size_bytes() as usize, n as u64));
            let linear = Aligned64::new(&noise(lin_len, !(n as u64)));
            let mut want_lin = vec![0u8; lin_len];
            tile::untile_checked(s, tiled.get(), &mut want_lin, region, lin).unwrap();
            let mut want_tiled = tiled.get().to_vec();
            tile::tile_checked(s, linear.get(), &mut want_tiled, region, lin).unwrap();
            let _levels = levels_lock();
            for (threads, level) in [1, 2, 3, 5, 16].into_iter().flat_map(|t| ALL_LEVELS.map(|l| (t, l))) {
                set_vector_limit(level);
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                let mut got_lin = Aligned64::new(&vec![0u8; lin_len]);
                let mut got_tiled = Aligned64::new(tiled.get());
                pool.install(|| {
                    tile::untile_with(
                        s,
                        tiled.get(),
                        got_lin.get_mut(),
                        region,
                        lin,
                        &CopyOptions::default().threads(Threads::CurrentPool),
                    )
                    .unwrap();
                    tile::tile_with(
                        s,
                        linear.get(),
                        got_tiled.get_mut(),
                        region,
                        lin,
                        &CopyOptions::default().threads(Threads::CurrentPool),
                    )
                    .unwrap();
                });
                set_vector_limit(VectorLevel::Avx512);
                let at = format!("surface {n}, {region:?}, {threads} threads, {level:?}");
                assert!(got_lin.get() == &want_lin[..], "{at}: untile");
                assert!(got_tiled.get() == &want_tiled[..], "{at}: tile");
            }
        }
    }
}

/// A huge row pitch with a one-row box: the plan holds (one row of linear bytes), and the
/// kernels must not trip over offsets that wrap for rows the box does not have (a whole chunk
/// pair is then out of reach). Against the byte references.
#[test]
fn huge_pitch_one_row_boxes_equal_the_reference() {
    let mut desc = SurfaceDesc::new(Gpu::Nv40, 4, [128, 64, 1]);
    desc.layout = LayoutKind::Swizzled;
    let s = desc.build().unwrap();
    let tiled = Aligned64::new(&noise(s.size_bytes() as usize, 7));
    for row_pitch in [1u64 << 59, 1 << 62, 4096 + 64] {
        for y in [0u32, 5, 63] {
            let region = Region { x: 0, y, z: 0, w: 128, h: 1, d: 1 };
            let lin = LinearLayout { row_pitch_bytes: row_pitch, slice_pitch_bytes: row_pitch };
            let mut want = vec![0u8; 512];
            tile::untile_reference(&s, tiled.get(), &mut want, region, lin).unwrap();
            let mut got = Aligned64::new(&[0u8; 512]);
            tile::untile_with(&s, tiled.get(), got.get_mut(), region, lin, &CopyOptions::default()).unwrap();
            assert!(got.get() == &want[..], "untile, pitch {row_pitch}, row {y}");
            let linear = Aligned64::new(&noise(512, 9));
            let mut want_t = tiled.get().to_vec();
            tile::tile_reference(&s, linear.get(), &mut want_t, region, lin).unwrap();
            let mut got_t = Aligned64::new(tiled.get());
            tile::tile_with(&s, linear.get(), got_t.get_mut(), region, lin, &CopyOptions::default()).unwrap();
            assert!(got_t.get() == &want_t[..], "tile, pitch {row_pitch}, row {y}");
        }
    }
}

/// Boxes whose linear image is a window of a full-width image (row and slice
/// pitches whole lines; the linear buffer starts `x * es % 64` bytes past a line, as a
/// sub-slice of a larger aligned image does). The box's whole gobs then sit on line-aligned
/// linear addresses while the box starts and ends inside gobs, so the gob-row kernels run with
/// partial edge gobs on both sides. Every gob order (Turing and Fermi must not take the Tegra
/// kernel), 2D and 3D, stacked and unstacked VM gobs, every level, single-thread and parallel.
#[test]
fn windowed_boxes_with_partial_edge_gobs_equal_the_reference() {
    let cases = [
        (Gpu::G80, GobOrder::Vm, [0, 2, 0], [300, 70, 1]),
        (Gpu::G80, GobOrder::Vm, [0, 1, 1], [200, 40, 3]),
        (Gpu::G80, GobOrder::Vm, [1, 1, 0], [300, 40, 1]),
        (Gpu::G80, GobOrder::Vm, [0, 3, 0], [1024, 300, 1]),
        (Gpu::Gf100, GobOrder::Vm, [0, 2, 0], [300, 70, 1]),
        (Gpu::Gm20b, GobOrder::Tegra, [0, 2, 0], [300, 70, 1]),
        (Gpu::Gm20b, GobOrder::Tegra, [1, 1, 1], [1024, 130, 2]),
        (Gpu::Tu102, GobOrder::Turing, [0, 2, 0], [300, 70, 1]),
        (Gpu::Gf100, GobOrder::Fermi, [0, 2, 0], [300, 70, 1]),
        (Gpu::Gf100, GobOrder::Fermi, [0, 2, 0], [1024, 300, 1]),
        (Gpu::Gf100, GobOrder::FermiComment, [0, 2, 0], [300, 70, 1]),
        // Blackwell8 moves 8-byte runs, not 16 (nil's CopyGOBBlackwell2D1BPP).
        (Gpu::Gb202, GobOrder::Blackwell8, [0, 2, 0], [300, 70, 1]),
        (Gpu::Gb202, GobOrder::Blackwell8, [1, 1, 1], [1024, 130, 2]),
        (Gpu::Gb202, GobOrder::Blackwell16, [0, 2, 0], [300, 70, 1]),
    ];
    for (gpu, order, block, size) in cases {
        let mut desc = SurfaceDesc::new(gpu, 4, size);
        desc.gob_order = order;
        desc.block_log2 = Some(block);
        let s = desc.build().unwrap();
        let [w, h, d] = s.size().to_array();
        for x in [1u32, 4, 13] {
            let region = Region { x, y: 4, z: d - 1, w: w - x - 5, h: h - 4 - 3, d: 1 };
            let rp = (u64::from(w) * 4).div_ceil(64) * 64;
            let lin = LinearLayout { row_pitch_bytes: rp, slice_pitch_bytes: rp * u64::from(h) };
            let lin_len = ((u64::from(region.h) - 1) * rp + u64::from(region.w) * 4) as usize;
            let mis = (x as usize * 4) % 64;
            let tiled = Aligned64::new(&noise(s.size_bytes() as usize, 21));
            let linear = Aligned64::at(&noise(lin_len, 22), mis);
            let at = format!("{gpu:?} {order:?} block {block:?} size {size:?} x {x}");
            every_level_equals_the_reference(&s, &tiled, &linear, mis, region, lin, &at);
        }
    }
}

prop_compose! {
    /// Pre-G80 pitch surfaces (the pitch a multiple of the element size, not of 64) and
    /// pitch or blocklinear surfaces seen through a byte-oriented binding point (element size
    /// 1, width in bytes).
    fn odd_pitch()(es in prop_oneof![Just(1u32), Just(2), Just(4), Just(8), Just(16)], w in 1u32..100, h in 1u32..30, extra in 0u64..5, bytes in any::<bool>(), bl in any::<bool>()) -> SurfaceDesc {
        let mut desc = if bytes { SurfaceDesc::new(Gpu::G80, es, [w, h, 1]) } else { SurfaceDesc::new(Gpu::Nv40, es, [w, h, 1]) };
        desc.layout = LayoutKind::Pitch;
        if bytes {
            desc.binding = Some(nvsurf::layout::Binding::Global);
            if bl {
                desc.layout = LayoutKind::BlockLinear;
                desc.block_log2 = Some([0, 1, 0]);
            }
        } else {
            desc.pitch_bytes = Some(u64::from(es) * (u64::from(w) + extra));
        }
        desc
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

    /// A box untiled from its window (the window's pieces gathered from the dump) equals the
    /// box untiled from the whole surface; tiling into the window and scattering it back
    /// equals tiling into the whole surface; the pieces are increasing, disjoint, inside the
    /// surface, and hold exactly the window's bytes.
    #[test]
    fn windows_hold_what_their_boxes_need(desc in prop_oneof![4 => any_surface(), 1 => odd_pitch()], f in prop::array::uniform6(0.0f64..1.0), seed in any::<u64>()) {
        let s = desc.build().unwrap();
        let (region, lin) = region_of(&s, f, [0, 0], false);
        let w = tile::window(&s, region).unwrap();
        let mut end = 0;
        for p in &w.pieces {
            prop_assert!(p.len_bytes > 0 && p.offset_bytes >= end, "{:?}", w.pieces);
            end = p.offset_bytes + p.len_bytes;
        }
        prop_assert!(end <= s.size_bytes());
        prop_assert_eq!(w.pieces.iter().map(|p| p.len_bytes).sum::<u64>(), w.size_bytes());
        // In the window they tile its bytes exactly.
        let mut places: Vec<(u64, u64)> = w.pieces.iter().map(|p| (p.window_offset_bytes, p.len_bytes)).collect();
        places.sort_unstable();
        let mut at = 0;
        for (o, n) in places {
            prop_assert_eq!(o, at);
            at += n;
        }
        prop_assert_eq!(w.surface.kind(), s.kind());
        prop_assert_eq!(w.surface.elem_size_bytes(), s.elem_size_bytes());
        prop_assert!(w.size_bytes() <= s.size_bytes());

        let dump = noise(s.size_bytes() as usize, seed);
        let n = lin.image_bytes(&region).unwrap() as usize;
        let mut want = vec![0u8; n];
        tile::untile_reference(&s, &dump, &mut want, region, lin).unwrap();
        let mut part = vec![0u8; w.size_bytes() as usize];
        w.gather(&dump, &mut part).unwrap();
        let mut got = vec![1u8; n];
        tile::untile_with(&w.surface, &part, &mut got, w.region, lin, &CopyOptions::default()).unwrap();
        prop_assert_eq!(&got, &want);

        let image = noise(n, !seed);
        let mut whole = dump.clone();
        tile::tile_reference(&s, &image, &mut whole, region, lin).unwrap();
        tile::tile_with(&w.surface, &image, &mut part, w.region, lin, &CopyOptions::default()).unwrap();
        let mut scattered = dump.clone();
        w.scatter(&part, &mut scattered).unwrap();
        prop_assert_eq!(scattered, whole);

        // Short buffers are refused, not read past.
        if w.size_bytes() > 0 {
            prop_assert!(w.gather(&dump, &mut part[..w.size_bytes() as usize - 1]).is_err());
            prop_assert!(w.gather(&dump[..end as usize - 1], &mut part).is_err());
        }
    }
}

#[test]
fn a_small_box_of_a_large_surface_has_a_small_window() {
    // 16384x16384 RGBA32F, GF100 blocks of 1 x 16 x 1 gobs (128 rows): a 256x256 box at
    // (1002, 3000) needs 65 block columns (its 4096 bytes of row start 32 bytes into one) in
    // 3 block rows: 3 pieces of 65 blocks of 8 KiB.
    let mut desc = SurfaceDesc::new(Gpu::Gf100, 16, [16384, 16384, 1]);
    desc.layout = LayoutKind::BlockLinear;
    desc.block_log2 = Some([0, 4, 0]);
    let s = desc.build().unwrap();
    assert_eq!(s.size_bytes(), 4 << 30);
    let region = Region { x: 1002, y: 3000, z: 0, w: 256, h: 256, d: 1 };
    let w = tile::window(&s, region).unwrap();
    assert_eq!(w.pieces.len(), 3);
    assert!(w.pieces.iter().all(|p| p.len_bytes == 65 * 8192), "{:?}", w.pieces);
    // Block column 1002 * 16 / 64 = 250 of 4096 per block row; block rows 23..26.
    assert_eq!(w.pieces[0].offset_bytes, (23 * 4096 + 250) * 8192);
    assert_eq!(w.region, Region { x: 2, y: 3000 - 23 * 128, z: 0, w: 256, h: 256, d: 1 });
    // A box outside the surface is refused with the field that is out.
    let e = tile::window(&s, Region { x: 16300, ..region }).unwrap_err();
    assert!(e.to_string().contains("box x+w"), "{e}");

    // Swizzled 4096x4096 of 4 bytes (64 MiB): a 16x16 box at (1040, 2064) lies in the aligned
    // 16x16 square at (1040, 2064): 1 KiB at that square's first element. A box across the
    // surface's middle lies in no square smaller than the surface: the whole surface.
    let mut desc = SurfaceDesc::new(Gpu::Nv40, 4, [4096, 4096, 1]);
    desc.layout = LayoutKind::Swizzled;
    let s = desc.build().unwrap();
    let w = tile::window(&s, Region { x: 1040, y: 2064, z: 0, w: 16, h: 16, d: 1 }).unwrap();
    assert_eq!(w.surface.size(), [16, 16, 1]);
    assert_eq!(
        w.pieces,
        [tile::Piece { offset_bytes: s.offset_of(1040, 2064, 0).unwrap(), len_bytes: 1024, window_offset_bytes: 0 }]
    );
    assert_eq!(w.region, Region { x: 0, y: 0, z: 0, w: 16, h: 16, d: 1 });
    let w = tile::window(&s, Region { x: 2040, y: 100, z: 0, w: 16, h: 1, d: 1 }).unwrap();
    assert_eq!(w.pieces, [tile::Piece { offset_bytes: 0, len_bytes: 64 << 20, window_offset_bytes: 0 }]);

    // Pieces that do not fit the buffers, or do not add up to the window, are refused by
    // gather and scatter, not followed (the fields are public).
    let mut w = tile::window(&s, Region { x: 1040, y: 2064, z: 0, w: 16, h: 16, d: 1 }).unwrap();
    let (mut tiled, mut out) = (vec![0u8; 64 << 20], vec![0u8; 2048]);
    tiled[..1024].copy_from_slice(&noise(1024, 5));
    w.pieces = vec![tile::Piece { offset_bytes: (64 << 20) - 512, len_bytes: 1024, window_offset_bytes: 0 }];
    assert!(w.gather(&tiled, &mut out).is_err());
    w.pieces = vec![
        tile::Piece { offset_bytes: 0, len_bytes: 1024, window_offset_bytes: 0 },
        tile::Piece { offset_bytes: 0, len_bytes: 1024, window_offset_bytes: 0 },
    ];
    assert!(w.gather(&tiled, &mut out).is_err());
    w.pieces = vec![tile::Piece { offset_bytes: u64::MAX, len_bytes: 1024, window_offset_bytes: 0 }];
    assert!(w.scatter(&out, &mut vec![0u8; 4096]).is_err());
    w.pieces = vec![tile::Piece { offset_bytes: 0, len_bytes: 1024, window_offset_bytes: 512 }];
    assert!(w.gather(&tiled, &mut out).is_err());
    // Places that add up to the window but overlap (so leave a gap) are refused too.
    let half = |offset_bytes, window_offset_bytes| tile::Piece { offset_bytes, len_bytes: 512, window_offset_bytes };
    w.pieces = vec![half(0, 0), half(512, 0)];
    assert!(w.gather(&tiled, &mut out).is_err());
    w.pieces = vec![half(0, 512), half(512, 0)];
    assert!(w.gather(&tiled, &mut out).is_ok());
    assert_eq!((&out[..512], &out[512..1024]), (&tiled[512..1024], &tiled[..512]));

    // A 3D texture, 256x256x64 of 4 bytes in GF100 blocks of 1x2x16 gobs (16 rows, 16 slices
    // of 64 bytes): slice 21 of it, 64x32 at (64, 16), needs its own slice of 4 block columns
    // x 2 block rows: 8 pieces of 1 KiB, the 16 KiB blocks' slice 5, not the blocks whole.
    let mut desc = SurfaceDesc::new(Gpu::Gf100, 4, [256, 256, 64]);
    desc.layout = LayoutKind::BlockLinear;
    desc.block_log2 = Some([0, 1, 4]);
    let s = desc.build().unwrap();
    let region = Region { x: 64, y: 16, z: 21, w: 64, h: 32, d: 1 };
    let w = tile::window(&s, region).unwrap();
    assert_eq!(w.size_bytes(), 8 * 1024);
    assert_eq!(w.pieces.len(), 8);
    assert!(w.pieces.iter().all(|p| p.len_bytes == 1024 && (p.offset_bytes / 1024) % 16 == 5), "{:?}", w.pieces);
    assert_eq!(w.region, Region { x: 0, y: 0, z: 0, ..region });

    // A pre-G80 pitch surface of 1-byte elements one row per 2 bytes, 2^32 - 1 rows: its
    // one-column box is whole rows, one piece, not 2^32 - 1 pieces of 1 byte.
    let mut desc = SurfaceDesc::new(Gpu::Nv40, 1, [1, u32::MAX, 1]);
    desc.layout = LayoutKind::Pitch;
    desc.pitch_bytes = Some(2);
    let s = desc.build().unwrap();
    let w = tile::window(&s, Region { x: 0, y: 0, z: 0, w: 1, h: u32::MAX, d: 1 }).unwrap();
    assert_eq!(w.pieces, [tile::Piece { offset_bytes: 0, len_bytes: 2 * u64::from(u32::MAX), window_offset_bytes: 0 }]);
}
