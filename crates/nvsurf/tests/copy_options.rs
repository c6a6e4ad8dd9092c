//! `tile::CopyOptions`: per-call knobs give the reference's bytes at every vector level,
//! thread count, streaming threshold and adaptive setting; two threads copying with different
//! options at once each get their own (their plans say so) and change no process-wide
//! setting; and the line-aligned buffers of `untile_to_buf` / `tile_to_buf`. (No test here sets
//! a process-wide switch, so the process defaults are known throughout.)
#![cfg(feature = "rayon")]

use nvsurf::cpu::{self, VectorLevel};
use nvsurf::layout::{GobOrder, LayoutKind, Surface, SurfaceDesc};
use nvsurf::tile::{self, AlignedBuf, CopyOptions, LinearLayout, Region, Threads};
use nvsurf::Gpu;

mod common;
use common::noise;

/// Blocklinear (Tegra and VM orders, 3D blocks), swizzled and pitch surfaces large enough for
/// the vector kernels and, at a threshold of 1 byte, for streaming.
fn surfaces() -> Vec<Surface> {
    let mut out = Vec::new();
    let mut d = SurfaceDesc::new(Gpu::Gm20b, 4, [1024, 96, 1]);
    d.gob_order = GobOrder::Tegra;
    d.block_log2 = Some([0, 2, 0]);
    out.push(d.build().unwrap());
    let mut d = SurfaceDesc::new(Gpu::G80, 16, [300, 70, 2]);
    d.block_log2 = Some([0, 1, 1]);
    out.push(d.build().unwrap());
    let mut d = SurfaceDesc::new(Gpu::Nv40, 4, [256, 128, 1]);
    d.layout = LayoutKind::Swizzled;
    out.push(d.build().unwrap());
    let mut d = SurfaceDesc::new(Gpu::Nv40, 1, [128, 128, 2]);
    d.layout = LayoutKind::Swizzled;
    out.push(d.build().unwrap());
    let mut d = SurfaceDesc::new(Gpu::G80, 4, [200, 50, 1]);
    d.layout = LayoutKind::Pitch;
    d.pitch_bytes = Some(1024);
    out.push(d.build().unwrap());
    out
}

/// The whole surface, and a box off every edge.
fn regions(s: &Surface) -> [Region; 2] {
    let [w, h, d] = s.size().to_array();
    [Region::whole(s), Region { x: 3, y: 5, z: 0, w: w - 3 - 7, h: h - 5 - 2, d }]
}

/// Every combination of the options' fields, the pool sizes the threads run in.
fn option_sets() -> Vec<(CopyOptions, usize)> {
    let mut out = Vec::new();
    for level in [VectorLevel::Baseline, VectorLevel::Avx2, VectorLevel::Avx512] {
        for (threads, pool) in
            [(Threads::One, 1), (Threads::CurrentPool, 1), (Threads::CurrentPool, 2), (Threads::CurrentPool, 3)]
        {
            for threshold in [None, Some(1), Some(usize::MAX)] {
                for adaptive in [None, Some(false)] {
                    let opts = CopyOptions {
                        threads,
                        streaming_threshold_bytes: threshold,
                        vector_limit: Some(level),
                        adaptive_streaming: adaptive,
                        job_output_bytes: None,
                        ..Default::default()
                    };
                    out.push((opts, pool));
                }
            }
        }
    }
    out
}

#[test]
fn every_option_gives_the_references_bytes() {
    let pools: Vec<rayon::ThreadPool> =
        (1..=3).map(|n| rayon::ThreadPoolBuilder::new().num_threads(n).build().unwrap()).collect();
    for (i, s) in surfaces().into_iter().enumerate() {
        let tiled = AlignedBuf::from_slice(&noise(s.size_bytes() as usize, i as u64 + 1)).unwrap();
        for region in regions(&s) {
            let lin = LinearLayout::packed(&region, s.elem_size_bytes());
            let lin_len = lin.image_bytes(&region).unwrap() as usize;
            let linear = AlignedBuf::from_slice(&noise(lin_len, i as u64 + 100)).unwrap();
            let mut want_lin = vec![0u8; lin_len];
            tile::untile_reference(&s, &tiled, &mut want_lin, region, lin).unwrap();
            let mut want_tiled = tiled.to_vec();
            tile::tile_reference(&s, &linear, &mut want_tiled, region, lin).unwrap();
            for (opts, pool) in option_sets() {
                let at = format!("{s:?} {region:?} {opts:?} pool of {pool}");
                pools[pool - 1].install(|| {
                    let mut got = AlignedBuf::zeroed(lin_len).unwrap();
                    tile::untile_with(&s, &tiled, &mut got, region, lin, &opts).unwrap();
                    assert!(got[..] == want_lin[..], "{at}: untile");
                    let mut got = tiled.clone();
                    tile::tile_with(&s, &linear, &mut got, region, lin, &opts).unwrap();
                    assert!(got[..] == want_tiled[..], "{at}: tile");
                    // As one part of a larger job.
                    let part = opts.job_output_bytes(64 << 20);
                    let mut got = AlignedBuf::zeroed(lin_len).unwrap();
                    tile::untile_with(&s, &tiled, &mut got, region, lin, &part).unwrap();
                    assert!(got[..] == want_lin[..], "{at}: untile part");
                });
            }
        }
    }
}

#[test]
fn options_resolve_per_call_and_leave_the_process_alone() {
    let auto_threshold = tile::streaming_threshold_bytes();
    let widest = cpu::active_level();
    assert_eq!(cpu::vector_limit(), VectorLevel::Avx512, "no process-wide cap in this binary");
    let narrow = CopyOptions::default()
        .vector_limit(VectorLevel::Baseline)
        .streaming_threshold_bytes(1)
        .adaptive_streaming(false)
        .threads(Threads::CurrentPool);
    let wide = CopyOptions::default().vector_limit(VectorLevel::Avx512).streaming_threshold_bytes(usize::MAX);
    let mut d = SurfaceDesc::new(Gpu::Gm20b, 4, [1024, 512, 1]);
    d.gob_order = GobOrder::Tegra;
    d.block_log2 = Some([0, 4, 0]);
    let s = d.build().unwrap();
    let region = Region::whole(&s);
    let lin = LinearLayout::packed(&region, 4);
    let tiled = AlignedBuf::from_slice(&noise(s.size_bytes() as usize, 9)).unwrap();
    let want = tile::untile_to_buf(&s, &tiled, &CopyOptions::default()).map(AlignedBuf::into_vec).unwrap();
    // Both threads copy at once, many times, each checking its own plan's options and bytes.
    let run = |opts: CopyOptions, level: VectorLevel, threshold: usize, adaptive: bool| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        for _ in 0..40 {
            let plan = tile::Plan::with_options(&s, region, lin, tiled.len(), want.len(), &opts).unwrap();
            assert_eq!(plan.vector_level(), level);
            assert_eq!(plan.streaming_threshold_bytes(), threshold);
            assert_eq!(plan.adaptive_streaming(), adaptive);
            let got = pool.install(|| tile::untile_to_buf(&s, &tiled, &opts)).unwrap();
            assert!(got[..] == want[..]);
        }
    };
    std::thread::scope(|sc| {
        sc.spawn(|| run(narrow, VectorLevel::Baseline, 1, false));
        sc.spawn(|| run(wide, widest, usize::MAX, false));
        // Defaults: the process's values (a threshold given turns adaptive streaming off, none
        // given leaves it on).
        sc.spawn(|| run(CopyOptions::default(), widest, auto_threshold, true));
        sc.spawn(|| run(CopyOptions::default().adaptive_streaming(true).streaming_threshold_bytes(0), widest, 1, true));
    });
    assert_eq!(cpu::vector_limit(), VectorLevel::Avx512);
    assert_eq!(tile::streaming_threshold_bytes(), auto_threshold);
    assert!(tile::adapt::adaptive_streaming());
}

#[test]
fn the_allocating_front_door_returns_line_aligned_buffers() {
    for (i, s) in surfaces().into_iter().enumerate() {
        let tiled = noise(s.size_bytes() as usize, i as u64 + 20);
        let lin = tile::untile_to_buf(&s, &tiled, &CopyOptions::default()).unwrap();
        assert_eq!(lin.as_ptr() as usize % tile::LINE_BYTES, 0);
        assert!(
            lin[..] == tile::untile_to_buf(&s, &tiled, &CopyOptions::default()).map(AlignedBuf::into_vec).unwrap()[..],
            "{s:?}"
        );
        let back = tile::tile_to_buf(&s, &lin, &CopyOptions::default().threads(Threads::CurrentPool)).unwrap();
        assert_eq!(back.as_ptr() as usize % tile::LINE_BYTES, 0);
        assert_eq!(back.len() as u64, s.size_bytes());
        assert!(
            back.into_vec() == tile::tile_to_buf(&s, &lin, &CopyOptions::default()).map(AlignedBuf::into_vec).unwrap(),
            "{s:?}"
        );
        // A short dump is an error before anything is allocated.
        assert!(tile::untile_to_buf(&s, &tiled[..tiled.len() - 1], &CopyOptions::default()).is_err());
    }
}

#[test]
fn aligned_buffers_hold_exactly_their_bytes() {
    let src: Vec<u8> = (0..1000u32).map(|i| (i * 13) as u8).collect();
    for len in [0, 1, 64, 999, 1000] {
        let b = AlignedBuf::from_slice(&src[..len]).unwrap();
        assert_eq!(b.as_ptr() as usize % 64, 0, "{len}");
        assert_eq!(b.len(), len);
        assert!(b.get(len).is_none(), "{len}: nothing past the end");
        let v = AlignedBuf::from_vec(src[..len].to_vec()).unwrap();
        assert_eq!(v.as_ptr() as usize % 64, 0, "{len}");
        assert_eq!(v, b);
        assert_eq!(v.into_vec(), src[..len].to_vec());
    }
    assert!(AlignedBuf::zeroed(usize::MAX).is_err(), "too large: an error, not an abort");
}

/// A memory budget in the options stops the allocating calls before they allocate.
#[test]
fn limits_refuse_before_allocating() {
    use nvsurf::texture::TextureType;
    use nvsurf::{Gpu, Limits, TextureSpec};
    let t =
        TextureSpec::with_elem_size(Gpu::Gm20b, TextureType::D2, 4, [256, 256, 1]).full_mip_chain().build().unwrap();
    let dump = vec![0u8; t.size_bytes() as usize];
    let small = CopyOptions::default().limits(Limits { max_bytes: 1000 });
    let e = t.untile_to_buf(&dump, &small).unwrap_err();
    assert!(e.to_string().starts_with("linear texture size 349524 is out of range 0..=1000"), "{e}");
    let lin = vec![0u8; t.linear_size_bytes() as usize];
    assert!(t.tile_to_buf(&lin, &small).is_err());
    let roomy = CopyOptions::default().limits(Limits { max_bytes: 1 << 20 });
    assert_eq!(t.untile_to_buf(&dump, &roomy).unwrap().len(), lin.len());
}
