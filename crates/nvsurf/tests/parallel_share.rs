//! The parallel entry points' split between cached and streamed tasks
//! (`tile::parallel_cached_share`): the rule's values, and the bytes of jobs that mix the two
//! kinds of task, which must equal the checked single-thread twins'. (Its own test binary:
//! the streaming threshold it sets is process-wide.)
#![cfg(feature = "rayon")]

use nvsurf::cpu::{set_vector_limit, VectorLevel};
use nvsurf::layout::{GobOrder, Surface, SurfaceDesc};
use nvsurf::tile::{self, LinearLayout, Region};
use nvsurf::tile::{CopyOptions, Threads};
use nvsurf::Gpu;

mod common;
use common::{aligned, noise};

const MIB: u64 = 1 << 20;

/// The tests here set the process-wide threshold to different values: one at a time.
static THRESHOLD: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap()
}

#[test]
fn the_cached_share_is_the_cache_budget_less_the_job() {
    let _one = THRESHOLD.lock().unwrap_or_else(|e| e.into_inner());
    // The development machine's automatic threshold (7 MiB of a 32 MiB level-3 cache).
    tile::set_streaming_threshold_bytes(Some(7 << 20));
    pool(2).install(|| {
        // Streaming starts at 14 MiB with two threads; the budget is 28 MiB.
        assert_eq!(tile::parallel_streaming_threshold_bytes(), 14 << 20);
        assert_eq!(tile::parallel_cached_share(14 * MIB), (14 * MIB, 14 * MIB), "continuous at the threshold");
        assert_eq!(tile::parallel_cached_share(16 * MIB), (12 * MIB, 16 * MIB), "a quarter of 16 MiB streams");
        assert_eq!(tile::parallel_cached_share(20 * MIB), (8 * MIB, 20 * MIB));
        assert_eq!(tile::parallel_cached_share(28 * MIB), (0, 28 * MIB));
        assert_eq!(tile::parallel_cached_share(64 * MIB), (0, 64 * MIB), "nothing fits: all streams");
        assert_eq!(tile::parallel_cached_share(u64::MAX), (0, u64::MAX));
        assert_eq!(tile::parallel_cached_share(0), (1, 1), "an empty job counts as one byte");
    });
    // A pool of one thread streams everything, as the single-thread entry points do.
    pool(1).install(|| assert_eq!(tile::parallel_cached_share(8 * MIB), (0, 8 * MIB)));
    // Budgets that overflow saturate.
    tile::set_streaming_threshold_bytes(Some(usize::MAX));
    pool(2).install(|| assert_eq!(tile::parallel_cached_share(64 * MIB), (64 * MIB, 64 * MIB)));
    tile::set_streaming_threshold_bytes(None);
}

/// Surfaces of 3-3.3 MiB with a 1 MiB threshold: two threads stream from 2 MiB and keep
/// 4 MiB less the job cached, so every job here is a mixed one: 2D surfaces split it over
/// their tasks, blocks more than one slice deep stream whole; regions are whole surfaces and
/// boxes, and a part of a larger job (whose share applies to the part) is mixed too.
#[test]
fn mixed_jobs_equal_the_checked_twins() {
    let _one = THRESHOLD.lock().unwrap_or_else(|e| e.into_inner());
    tile::set_streaming_threshold_bytes(Some(1 << 20));
    let two = pool(2);
    let mut shapes: Vec<(Surface, [u32; 6])> = Vec::new();
    let mut d = SurfaceDesc::new(Gpu::Gm20b, 4, [1024, 800, 1]);
    d.gob_order = GobOrder::Tegra;
    d.block_log2 = Some([0, 4, 0]);
    shapes.push((d.build().unwrap(), [0, 0, 0, 1024, 800, 1]));
    shapes.push((d.build().unwrap(), [16, 8, 0, 1000, 780, 1]));
    let mut d = SurfaceDesc::new(Gpu::G80, 16, [256, 800, 1]);
    d.block_log2 = Some([0, 3, 0]);
    shapes.push((d.build().unwrap(), [0, 0, 0, 256, 800, 1]));
    let mut d = SurfaceDesc::new(Gpu::Gm20b, 4, [128, 128, 52]);
    d.gob_order = GobOrder::Tegra;
    d.block_log2 = Some([0, 4, 4]);
    shapes.push((d.build().unwrap(), [0, 0, 0, 128, 128, 52]));
    for (s, [x, y, z, w, h, dd]) in shapes {
        let region = Region { x, y, z, w, h, d: dd };
        let lin = LinearLayout::packed(&region, s.elem_size_bytes());
        let (size, lin_n) = (s.size_bytes() as usize, (lin.slice_pitch_bytes * u64::from(dd)) as usize);
        let job = lin_n as u64;
        two.install(|| {
            let (cached, of) = tile::parallel_cached_share(job);
            assert!(job >= 2 * MIB && 0 < cached && cached < of, "{s:?}: a mixed job ({cached} of {of})");
        });
        let tiled = aligned(&noise(size, 5));
        let tiled = &tiled[..size];
        let linear = aligned(&noise(lin_n, 6));
        let linear = &linear[..lin_n];
        let mut want_lin = vec![0u8; lin_n];
        tile::untile_checked(&s, tiled, &mut want_lin, region, lin).unwrap();
        let mut want = tiled.to_vec();
        tile::tile_checked(&s, linear, &mut want, region, lin).unwrap();
        for level in [VectorLevel::Baseline, VectorLevel::Avx2, VectorLevel::Avx512] {
            set_vector_limit(level);
            let mut got_lin = aligned(&vec![0u8; lin_n]);
            let mut got = aligned(tiled);
            two.install(|| {
                tile::untile_with(
                    &s,
                    tiled,
                    &mut got_lin[..lin_n],
                    region,
                    lin,
                    &CopyOptions::default().threads(Threads::CurrentPool),
                )
                .unwrap();
                tile::tile_with(
                    &s,
                    linear,
                    &mut got[..size],
                    region,
                    lin,
                    &CopyOptions::default().threads(Threads::CurrentPool),
                )
                .unwrap();
            });
            assert!(got_lin[..lin_n] == want_lin[..], "{s:?} {region:?}: parallel untile at {level:?}");
            assert!(got[..size] == want[..], "{s:?} {region:?}: parallel tile at {level:?}");
            // As one part of a larger job: the job's share applies to the part.
            let mut part_lin = aligned(&vec![0u8; lin_n]);
            two.install(|| {
                tile::untile_with(
                    &s,
                    tiled,
                    &mut part_lin[..lin_n],
                    region,
                    lin,
                    &CopyOptions::default().threads(Threads::CurrentPool).job_output_bytes(job + job / 8),
                )
                .unwrap()
            });
            assert!(part_lin[..lin_n] == want_lin[..], "{s:?} {region:?}: parallel untile part at {level:?}");
        }
        set_vector_limit(VectorLevel::Avx512);
    }
    tile::set_streaming_threshold_bytes(None);
}

/// Blocklinear untile that streams whole (threshold 1 byte) with rows wide enough for a part of
/// at least 4096 bytes per thread splits by byte columns: every gob order, 2D and 3D blocks,
/// boxes whose edges (and so the column parts' outer edges) fall inside gobs and gob rows, a
/// linear image off a line (the shifting kernels at the cuts), pools of 2, 3 and 5 threads
/// (5 is too many for some rows: bands of rows then), every vector level, whole jobs and parts
/// of larger ones. The bytes must equal the checked single-thread twin's.
#[test]
fn streamed_untile_split_by_columns_equals_the_checked_twin() {
    let _one = THRESHOLD.lock().unwrap_or_else(|e| e.into_inner());
    tile::set_streaming_threshold_bytes(Some(1));
    let mut shapes: Vec<(Surface, [u32; 6], usize)> = Vec::new();
    let mut d = SurfaceDesc::new(Gpu::Gm20b, 4, [4096, 128, 1]);
    d.gob_order = GobOrder::Tegra;
    d.block_log2 = Some([0, 4, 0]);
    shapes.push((d.build().unwrap(), [0, 0, 0, 4096, 128, 1], 0));
    shapes.push((d.build().unwrap(), [5, 3, 0, 3500, 101, 1], 0));
    shapes.push((d.build().unwrap(), [16, 8, 0, 4000, 96, 1], 20));
    let mut d = SurfaceDesc::new(Gpu::G80, 16, [1100, 64, 1]);
    d.block_log2 = Some([0, 3, 0]);
    shapes.push((d.build().unwrap(), [3, 1, 0, 1090, 61, 1], 0));
    let mut d = SurfaceDesc::new(Gpu::Gf100, 4, [3000, 64, 1]);
    d.gob_order = GobOrder::Fermi;
    d.block_log2 = Some([1, 2, 0]);
    shapes.push((d.build().unwrap(), [0, 0, 0, 3000, 64, 1], 0));
    let mut d = SurfaceDesc::new(Gpu::Tu102, 8, [1500, 16, 8]);
    d.gob_order = GobOrder::Turing;
    d.block_log2 = Some([0, 1, 2]);
    shapes.push((d.build().unwrap(), [7, 2, 1, 1480, 13, 6], 0));
    for (s, [x, y, z, w, h, dd], mis) in shapes {
        let region = Region { x, y, z, w, h, d: dd };
        let lin = LinearLayout::packed(&region, s.elem_size_bytes());
        let (size, lin_n) = (s.size_bytes() as usize, (lin.slice_pitch_bytes * u64::from(dd)) as usize);
        assert!(lin_n >= tile::PARALLEL_THRESHOLD_BYTES, "{s:?}: large enough to split");
        let tiled = aligned(&noise(size, 7));
        let tiled = &tiled[..size];
        let mut want = vec![0u8; lin_n];
        tile::untile_checked(&s, tiled, &mut want, region, lin).unwrap();
        for threads in [2, 3, 5] {
            let p = pool(threads);
            p.install(|| assert_eq!(tile::parallel_cached_share(lin_n as u64).0, 0, "the job streams whole"));
            for level in [VectorLevel::Baseline, VectorLevel::Avx2, VectorLevel::Avx512] {
                set_vector_limit(level);
                let mut got = aligned(&vec![0u8; lin_n + mis]);
                let mut part = aligned(&vec![0u8; lin_n + mis]);
                p.install(|| {
                    tile::untile_with(
                        &s,
                        tiled,
                        &mut got[mis..mis + lin_n],
                        region,
                        lin,
                        &CopyOptions::default().threads(Threads::CurrentPool),
                    )
                    .unwrap();
                    let job = 2 * lin_n as u64;
                    tile::untile_with(
                        &s,
                        tiled,
                        &mut part[mis..mis + lin_n],
                        region,
                        lin,
                        &CopyOptions::default().threads(Threads::CurrentPool).job_output_bytes(job),
                    )
                    .unwrap();
                });
                set_vector_limit(VectorLevel::Avx512);
                let at = format!("{s:?} {region:?}, linear {mis} bytes off a line, {threads} threads, {level:?}");
                assert!(got[mis..mis + lin_n] == want[..], "{at}: parallel untile");
                assert!(part[mis..mis + lin_n] == want[..], "{at}: parallel untile part");
            }
        }
    }
    tile::set_streaming_threshold_bytes(None);
}
