//! Adaptive streaming (`tile::adapt`): copies large enough to adapt take both ways of writing
//! their output while they learn, and every call's bytes equal the checked twins'; a fixed
//! threshold or the switch turns it off. (Its own test binary: the switch, the threshold and
//! the timings are process-wide.)
#![cfg(feature = "rayon")]

use nvsurf::layout::{BlockLinear, BlockLinearParams, GobOrder, Surface};
use nvsurf::tile::adapt::{self, Key, Way, ADAPT_MIN_BYTES, EXPLORE_RUN, LEARN_RUNS};
use nvsurf::tile::{self, LinearLayout, Region};
use nvsurf::tile::{CopyOptions, Threads};
use nvsurf::Gpu;

mod common;
use common::{aligned, noise};

/// The tests here change process-wide settings: one at a time.
static SETTINGS: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A Tegra-order GM20B surface of 4-byte elements, blocks 16 gobs tall.
fn tegra(w: u32, h: u32, d: u32, block_depth_log2: u32) -> Surface {
    let mut p = BlockLinearParams::new(Gpu::Gm20b, 4, [w, h, d], [0, 4, block_depth_log2]);
    p.gob_order = GobOrder::Tegra;
    p.auto_size = Some(false);
    Surface::BlockLinear(BlockLinear::new(&p).unwrap())
}

/// Enough calls to learn every way (three at the most) and exploit.
const CALLS: u64 = 3 * LEARN_RUNS * EXPLORE_RUN + 6;

/// Untiles and tiles `region` of `s` `CALLS` times through the entry point `parallel` picks
/// (a pool of two threads), each result against the checked twin, and returns the keys the
/// copies were timed under (keyed by the region's bytes).
fn copies_equal_the_twins(s: &Surface, region: Region, parallel: bool, seed: u64) -> [Key; 2] {
    let lin = LinearLayout::packed(&region, s.elem_size_bytes());
    let (lin_len, tiled_len) = (lin.image_bytes(&region).unwrap() as usize, s.size_bytes() as usize);
    let linear = noise(lin_len, seed);
    let base = noise(tiled_len, seed + 1);
    let mut want_tiled = base.clone();
    tile::tile_checked(s, &linear, &mut want_tiled, region, lin).unwrap();
    let mut want_linear = vec![0u8; lin_len];
    tile::untile_checked(s, &want_tiled, &mut want_linear, region, lin).unwrap();
    let mut out_lin = aligned(&vec![0u8; lin_len]);
    let mut out_tiled = aligned(&base);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    for call in 0..CALLS {
        let l = &mut out_lin[..lin_len];
        l.fill(0);
        let t = &mut out_tiled[..tiled_len];
        t.copy_from_slice(&base);
        if parallel {
            pool.install(|| {
                tile::untile_with(s, &want_tiled, l, region, lin, &CopyOptions::default().threads(Threads::CurrentPool))
            })
            .unwrap();
            pool.install(|| {
                tile::tile_with(s, &linear, t, region, lin, &CopyOptions::default().threads(Threads::CurrentPool))
            })
            .unwrap();
        } else {
            tile::untile_with(s, &want_tiled, l, region, lin, &CopyOptions::default()).unwrap();
            tile::tile_with(s, &linear, t, region, lin, &CopyOptions::default()).unwrap();
        }
        assert!(*l == want_linear[..], "untile, call {call}");
        assert!(*t == want_tiled[..], "tile, call {call}");
    }
    let Surface::BlockLinear(b) = s else { panic!("blocklinear surfaces only") };
    let class = if b.block_extent_bytes_rows_slices()[2] > 1 {
        1
    } else if (region.w as usize * s.elem_size_bytes() as usize) < tile::NARROW_ROW_BYTES {
        2
    } else {
        0
    };
    [Key::new(false, parallel, class, lin_len as u64), Key::new(true, parallel, class, lin_len as u64)]
}

/// Whether copies of `bytes` adapt on this machine (from 2 MiB to less than its L3).
fn adapts(bytes: u64) -> bool {
    (ADAPT_MIN_BYTES..adapt::adapt_max_bytes()).contains(&bytes)
}

#[test]
fn large_copies_learn_both_ways_and_write_the_same_bytes() {
    let _one = SETTINGS.lock().unwrap_or_else(|e| e.into_inner());
    tile::set_streaming_threshold_bytes(None);
    adapt::set_adaptive_streaming(true);
    // 2D wide rows (one thread and two), 3D blocks two slices deep, narrow rows: one key each.
    // A copy as large as the level-3 cache keeps the fixed rule (tested below).
    let cases = [
        (tegra(1024, 512, 1, 0), false),
        (tegra(1024, 640, 1, 0), true),
        (tegra(256, 256, 10, 1), true),
        (tegra(256, 2304, 1, 0), false),
    ];
    for (i, (s, parallel)) in cases.iter().enumerate() {
        let region = Region::whole(s);
        let bytes = LinearLayout::packed(&region, 4).image_bytes(&region).unwrap();
        for key in copies_equal_the_twins(s, region, *parallel, 10 + i as u64) {
            let a = adapt::averages(key);
            if !adapts(bytes) {
                // A level-3 cache of 2.5 MiB or less: the fixed rule, no timings.
                assert_eq!(a, [None; 3]);
                continue;
            }
            assert!(a[Way::Cached as usize].is_some(), "{key:?}: cached stores timed: {a:?}");
            assert!(a[Way::Streamed as usize].is_some(), "{key:?}: streamed stores timed: {a:?}");
        }
    }
}

#[test]
fn a_box_is_keyed_and_timed_by_its_own_bytes() {
    let _one = SETTINGS.lock().unwrap_or_else(|e| e.into_inner());
    tile::set_streaming_threshold_bytes(None);
    adapt::set_adaptive_streaming(true);
    // A 4 MiB box of a 16 MiB surface, two threads: timed under the box's size, not the
    // surface's (keys no other test here uses).
    let s = tegra(2048, 2048, 1, 0);
    let region = Region { x: 512, y: 256, z: 0, w: 1024, h: 1024, d: 1 };
    let keys = copies_equal_the_twins(&s, region, true, 77);
    assert_eq!(keys[0].size_log2(), 22);
    if adapts(4 << 20) {
        for key in keys {
            let a = adapt::averages(key);
            assert!(a[Way::Cached as usize].is_some() && a[Way::Streamed as usize].is_some(), "{key:?}: {a:?}");
        }
    }
    for tile in [false, true] {
        assert_eq!(adapt::averages(Key::new(tile, true, 0, 16 << 20)), [None; 3], "not the surface's size");
    }
}

#[test]
fn a_fixed_threshold_or_the_switch_turns_it_off() {
    let _one = SETTINGS.lock().unwrap_or_else(|e| e.into_inner());
    tile::set_streaming_threshold_bytes(None);
    adapt::set_adaptive_streaming(true);
    assert!(adapt::adaptive_streaming());
    tile::set_streaming_threshold_bytes(Some(1 << 20));
    assert!(!adapt::adaptive_streaming(), "a fixed threshold");
    // A fixed threshold: copies are timed under no key (a size no other test uses).
    let s = tegra(1024, 1024, 1, 0);
    let keys = copies_equal_the_twins(&s, Region::whole(&s), false, 3);
    tile::set_streaming_threshold_bytes(None);
    assert!(adapt::adaptive_streaming());
    assert!(adapt::set_adaptive_streaming(false), "it was on");
    assert!(!adapt::adaptive_streaming());
    // Switched off: the same.
    let keys_off = copies_equal_the_twins(&s, Region::whole(&s), false, 4);
    assert_eq!(keys, keys_off);
    for key in keys {
        assert_eq!(adapt::averages(key), [None; 3], "{key:?}");
    }
    assert!(!adapt::set_adaptive_streaming(true), "it was off");
}

#[test]
fn copies_as_large_as_the_level_3_cache_keep_the_fixed_rule() {
    let _one = SETTINGS.lock().unwrap_or_else(|e| e.into_inner());
    tile::set_streaming_threshold_bytes(None);
    adapt::set_adaptive_streaming(true);
    // The smallest Tegra surface 1024 elements wide (blocks of 128 rows) at least that large.
    let rows = adapt::adapt_max_bytes().div_ceil(4096).next_multiple_of(128);
    let s = tegra(1024, u32::try_from(rows).unwrap(), 1, 0);
    let region = Region::whole(&s);
    let lin = LinearLayout::packed(&region, 4);
    let tiled = vec![7u8; s.size_bytes() as usize];
    let mut linear = vec![0u8; lin.image_bytes(&region).unwrap() as usize];
    for _ in 0..3 {
        tile::untile_with(&s, &tiled, &mut linear, region, lin, &CopyOptions::default()).unwrap();
    }
    assert!(linear.iter().all(|b| *b == 7));
    assert_eq!(adapt::averages(Key::new(false, false, 0, linear.len() as u64)), [None; 3]);
}
