//! Whole-texture copies split over a rayon pool (`Texture::untile_parallel` /
//! `Texture::tile_parallel`, feature `rayon`) give the same bytes as the single-thread copies,
//! for every texture type the model builds (mip chains, arrays, cubes, cube arrays, 3D, RECT,
//! BUFFER), on G80, GF100 (VM and Tegra gob orders) and pre-G80 (swizzled and linear) rules,
//! including levels large enough to be split again by the tiling engine, and padding bytes of
//! the dump are left as they were.
#![cfg(feature = "rayon")]

use nvsurf::layout::{GobOrder, LayoutKind};
use nvsurf::texture::{max_levels, BlockPolicy, LevelPlacement, Texture, TextureDesc, TextureType};
use nvsurf::tile::{CopyOptions, Threads};
use nvsurf::{Error, Gpu};

mod common;
use common::{aligned, noise};

struct Shape {
    gpu: Gpu,
    ty: TextureType,
    layout: Option<LayoutKind>,
    gob: GobOrder,
    elem: u32,
    size: [u32; 3],
    layers: Option<u32>,
    block: BlockPolicy,
    /// Level placement, layer stride and pitch overrides (gaps between subresources).
    placement: LevelPlacement,
    layer_stride: Option<u64>,
    pitch: Option<u64>,
}

fn shapes() -> Vec<Shape> {
    let s = |gpu, ty, elem, size: [u32; 3]| Shape {
        gpu,
        ty,
        layout: None,
        gob: GobOrder::Vm,
        elem,
        size,
        layers: None,
        block: BlockPolicy::Max,
        placement: LevelPlacement::Packed,
        layer_stride: None,
        pitch: None,
    };
    vec![
        // A 2D chain whose level 0 (1 MiB) is split again by the tiling engine.
        s(Gpu::Gf100, TextureType::D2, 4, [512, 512, 1]),
        Shape { gob: GobOrder::Tegra, block: BlockPolicy::Nvn, ..s(Gpu::Gm20b, TextureType::D2, 16, [300, 200, 1]) },
        Shape { layers: Some(5), ..s(Gpu::G80, TextureType::D2Array, 8, [100, 37, 1]) },
        s(Gpu::Gf100, TextureType::Cube, 4, [128, 128, 1]),
        Shape { layers: Some(12), ..s(Gpu::Gt215, TextureType::CubeArray, 2, [64, 64, 1]) },
        s(Gpu::Gf100, TextureType::D3, 4, [64, 48, 40]),
        Shape { block: BlockPolicy::Explicit([1, 3, 2]), ..s(Gpu::G80, TextureType::D3, 16, [33, 17, 9]) },
        s(Gpu::Gf100, TextureType::Rect, 4, [300, 100, 1]),
        s(Gpu::Gf100, TextureType::Buffer, 4, [1000, 1, 1]),
        s(Gpu::Gf100, TextureType::D1Array, 4, [777, 1, 1]),
        // Pre-G80: swizzled cube and 3D, a linear (pitch) RECT.
        s(Gpu::Nv40, TextureType::Cube, 4, [256, 256, 1]),
        s(Gpu::Nv40, TextureType::D3, 2, [32, 16, 8]),
        Shape { layout: Some(LayoutKind::Pitch), ..s(Gpu::Nv40, TextureType::D2, 4, [200, 50, 1]) },
        s(Gpu::Nv20, TextureType::Rect, 4, [100, 30, 1]),
        s(Gpu::Gf100, TextureType::D1, 2, [300, 1, 1]),
        // Gaps between subresources: placements and layer strides the caller chose.
        Shape {
            placement: LevelPlacement::Offsets(vec![0, 0x11000, 0x16000, 0x18000, 0x19000, 0x1a000, 0x1b000, 0x1c000]),
            layer_stride: Some(0x20000),
            ..s(Gpu::Gf100, TextureType::Cube, 4, [128, 128, 1])
        },
        Shape { placement: LevelPlacement::AlignEach(4096), ..s(Gpu::Gf100, TextureType::D2Array, 4, [90, 60, 1]) },
        Shape { layer_stride: Some(200_000), ..s(Gpu::Nv40, TextureType::Cube, 4, [64, 64, 1]) },
        Shape {
            layout: Some(LayoutKind::Pitch),
            pitch: Some(1280),
            ..s(Gpu::Gf100, TextureType::Rect, 4, [300, 100, 1])
        },
    ]
}

fn build(sh: &Shape) -> Texture {
    let mut d = TextureDesc::new(sh.gpu, sh.ty, sh.elem, sh.size);
    if sh.ty != TextureType::Buffer && sh.ty != TextureType::Rect {
        d.levels = max_levels(sh.size);
    }
    if let Some(l) = sh.layers {
        d.layers = l;
    }
    if let Some(l) = sh.layout {
        d.layout = l;
    }
    d.gob_order = sh.gob;
    d.block = sh.block;
    d.placement = sh.placement.clone();
    d.layer_stride_bytes = sh.layer_stride;
    d.pitch_bytes = sh.pitch;
    d.build().unwrap_or_else(|e| panic!("{:?} {:?} {:?}: {e}", sh.gpu, sh.ty, sh.size))
}

#[test]
fn parallel_texture_copies_equal_the_single_thread_ones() {
    let mut checked = 0;
    for threads in [2, 3, 4] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        for (i, sh) in shapes().iter().enumerate() {
            let t = build(sh);
            let what = format!("{:?} {:?} {:?} x{} ({threads} threads)", sh.gpu, sh.ty, sh.size, t.layer_count());
            let dump = noise(t.size_bytes() as usize, i as u64 + 1);
            let mut want = vec![0u8; t.linear_size_bytes() as usize];
            t.untile_with(&dump, &mut want, &CopyOptions::default()).unwrap();
            // Start from different bytes than `want`, so that every byte must be written.
            let mut got = noise(want.len(), 1000 + i as u64);
            pool.install(|| t.untile_with(&dump, &mut got, &CopyOptions::default().threads(Threads::CurrentPool)))
                .unwrap();
            assert!(got == want, "untile_parallel differs: {what}");

            let linear = noise(t.linear_size_bytes() as usize, 2000 + i as u64);
            // Both start from the same random dump: padding must survive in both alike.
            let mut want = noise(t.size_bytes() as usize, 3000 + i as u64);
            let mut got = want.clone();
            t.tile_with(&linear, &mut want, &CopyOptions::default()).unwrap();
            pool.install(|| t.tile_with(&linear, &mut got, &CopyOptions::default().threads(Threads::CurrentPool)))
                .unwrap();
            assert!(got == want, "tile_parallel differs: {what}");
            checked += 1;
        }
    }
    assert_eq!(checked, 3 * shapes().len());
}

/// The subresource-by-subresource copies (for progress bars) equal the whole-texture ones and
/// report every subresource once, in order.
#[test]
fn subresource_by_subresource_copies_equal_the_whole_ones() {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    for (i, sh) in shapes().iter().enumerate() {
        let t = build(sh);
        let order: Vec<(u32, u32)> = t.subresources().map(|s| (s.level, s.layer)).collect();
        let dump = noise(t.size_bytes() as usize, 5000 + i as u64);
        let mut want = vec![0u8; t.linear_size_bytes() as usize];
        t.untile_with(&dump, &mut want, &CopyOptions::default()).unwrap();
        let linear = noise(t.linear_size_bytes() as usize, 6000 + i as u64);
        let base = noise(t.size_bytes() as usize, 7000 + i as u64);
        let mut want_tiled = base.clone();
        t.tile_with(&linear, &mut want_tiled, &CopyOptions::default()).unwrap();
        for parallel in [false, true] {
            let mut seen = Vec::new();
            let mut got = noise(want.len(), 8000 + i as u64);
            let done = |s: &nvsurf::texture::Subresource| seen.push((s.level, s.layer));
            match parallel {
                false => t.untile_each_with(&dump, &mut got, &CopyOptions::default(), done).unwrap(),
                true => pool
                    .install(|| {
                        t.untile_each_with(&dump, &mut got, &CopyOptions::default().threads(Threads::CurrentPool), done)
                    })
                    .unwrap(),
            }
            assert!(got == want, "untile_each (parallel {parallel}) differs: {:?} {:?} {:?}", sh.gpu, sh.ty, sh.size);
            assert_eq!(seen, order);
            let mut seen = Vec::new();
            let mut got = base.clone();
            let done = |s: &nvsurf::texture::Subresource| seen.push((s.level, s.layer));
            match parallel {
                false => t.tile_each_with(&linear, &mut got, &CopyOptions::default(), done).unwrap(),
                true => pool
                    .install(|| {
                        t.tile_each_with(&linear, &mut got, &CopyOptions::default().threads(Threads::CurrentPool), done)
                    })
                    .unwrap(),
            }
            assert!(
                got == want_tiled,
                "tile_each (parallel {parallel}) differs: {:?} {:?} {:?}",
                sh.gpu,
                sh.ty,
                sh.size
            );
            assert_eq!(seen, order);
        }
    }
}

/// For every shape and every buffer one byte short (and empty), the parallel copies return the
/// very error the single-thread ones return.
#[test]
fn parallel_texture_copies_fail_like_the_single_thread_ones() {
    let mut n = 0;
    for sh in shapes() {
        let t = build(&sh);
        let (dn, ln) = (t.size_bytes() as usize, t.linear_size_bytes() as usize);
        for (dump_len, lin_len) in [(dn - 1, ln), (dn, ln - 1), (0, ln), (dn, 0)] {
            let dump = vec![0u8; dump_len];
            let (mut a, mut b) = (vec![0u8; lin_len], vec![0u8; lin_len]);
            let want = t.untile_with(&dump, &mut a, &CopyOptions::default()).unwrap_err();
            assert_eq!(
                t.untile_with(&dump, &mut b, &CopyOptions::default().threads(Threads::CurrentPool)).unwrap_err(),
                want,
                "untile {:?} {:?}",
                sh.gpu,
                sh.ty
            );
            let linear = vec![0u8; lin_len];
            let (mut a, mut b) = (vec![0u8; dump_len], vec![0u8; dump_len]);
            let want = t.tile_with(&linear, &mut a, &CopyOptions::default()).unwrap_err();
            assert_eq!(
                t.tile_with(&linear, &mut b, &CopyOptions::default().threads(Threads::CurrentPool)).unwrap_err(),
                want,
                "tile {:?} {:?}",
                sh.gpu,
                sh.ty
            );
            // Nothing written by the parallel tile when a buffer is short.
            assert!(b.iter().all(|&x| x == 0));
            n += 1;
        }
    }
    assert_eq!(n, 4 * shapes().len());
}

#[test]
fn parallel_texture_copies_check_their_buffers() {
    let t = build(&shapes()[3]);
    let dump = vec![0u8; t.size_bytes() as usize];
    let mut short = vec![0u8; t.linear_size_bytes() as usize - 1];
    match t.untile_with(
        &dump[..dump.len() - 1],
        &mut vec![0u8; t.linear_size_bytes() as usize],
        &CopyOptions::default().threads(Threads::CurrentPool),
    ) {
        Err(Error::BufferTooSmall { what: "texture dump", needed, got }) => {
            assert_eq!((needed, got), (t.size_bytes(), t.size_bytes() - 1))
        }
        other => panic!("short dump: {other:?}"),
    }
    assert!(matches!(
        t.untile_with(&dump, &mut short, &CopyOptions::default().threads(Threads::CurrentPool)),
        Err(Error::BufferTooSmall { .. })
    ));
    let mut dump = dump;
    assert!(matches!(
        t.tile_with(&short, &mut dump, &CopyOptions::default().threads(Threads::CurrentPool)),
        Err(Error::BufferTooSmall { .. })
    ));
    let n = dump.len();
    assert!(matches!(
        t.tile_with(
            &vec![0u8; t.linear_size_bytes() as usize],
            &mut dump[..n - 1],
            &CopyOptions::default().threads(Threads::CurrentPool)
        ),
        Err(Error::BufferTooSmall { what: "texture dump", .. })
    ));
}

/// Textures past the streaming threshold (12.6 MB and 8.4 MB with their mips) stream every
/// level, the small ones too (`tile::untile_part`): the bytes still equal those of the levels
/// copied one by one as surfaces of their own (`untile_subresource`, which streams only levels
/// of `tile::STREAMING_THRESHOLD_BYTES` or more), single-thread and parallel. In the cube with a full mip chain, layers
/// 1-5 start off a line boundary in the packed linear file (each layer's levels end with a
/// 1x1 level of 4 bytes): their rows go through the unaligned, non-streaming stores.
#[test]
fn large_textures_stream_every_level_with_the_same_bytes() {
    for (ty, side) in [(TextureType::D2, 1536), (TextureType::Cube, 512)] {
        large_texture_case(ty, side);
    }
}

fn large_texture_case(ty: TextureType, side: u32) {
    // The sizes here are chosen for the 7 MiB threshold; the automatic one depends on the
    // machine's level-3 cache (streaming never changes the bytes).
    nvsurf::tile::set_streaming_threshold_bytes(Some(nvsurf::tile::STREAMING_THRESHOLD_BYTES));
    let mut d = TextureDesc::new(Gpu::Gm20b, ty, 4, [side, side, 1]);
    d.levels = max_levels([side, side, 1]);
    d.gob_order = GobOrder::Tegra;
    d.block = BlockPolicy::Nvn;
    let t = d.build().unwrap();
    assert!(ty != TextureType::Cube || !t.linear_layer_bytes().is_multiple_of(64), "layers must start off a line");
    let threshold = nvsurf::tile::STREAMING_THRESHOLD_BYTES as u64;
    assert!(t.size_bytes() > threshold && t.linear_size_bytes() > threshold);
    let (dump_n, lin_n) = (t.size_bytes() as usize, t.linear_size_bytes() as usize);
    let dump = aligned(&noise(dump_n, 7));
    let dump = &dump[..dump_n];

    let mut want = vec![0u8; lin_n];
    for sub in t.subresources() {
        let a = sub.linear_offset_bytes as usize;
        nvsurf::texture::untile_subresource(&sub, dump, &mut want[a..a + sub.linear_size_bytes as usize]).unwrap();
    }
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    for parallel in [false, true] {
        let mut got = aligned(&vec![0u8; lin_n]);
        let got = &mut got[..lin_n];
        if parallel {
            pool.install(|| t.untile_with(dump, got, &CopyOptions::default().threads(Threads::CurrentPool))).unwrap();
        } else {
            t.untile_with(dump, got, &CopyOptions::default()).unwrap();
        }
        assert!(got == want.as_slice(), "untile (parallel: {parallel})");
    }

    let linear = aligned(&noise(lin_n, 10));
    let linear = &linear[..lin_n];
    let background = noise(dump_n, 12);
    let mut want = background.clone();
    for sub in t.subresources() {
        let a = sub.linear_offset_bytes as usize;
        nvsurf::texture::tile_subresource(&sub, &linear[a..a + sub.linear_size_bytes as usize], &mut want).unwrap();
    }
    for parallel in [false, true] {
        let mut got = aligned(&background);
        let got = &mut got[..dump_n];
        if parallel {
            pool.install(|| t.tile_with(linear, got, &CopyOptions::default().threads(Threads::CurrentPool))).unwrap();
        } else {
            t.tile_with(linear, got, &CopyOptions::default()).unwrap();
        }
        assert!(got == want.as_slice(), "tile (parallel: {parallel})");
    }
}
