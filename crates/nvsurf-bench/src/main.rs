//! nvsurf-bench: tiling throughput against memcpy and tegra_swizzle, measured in one run.
//!
//! `cargo run --release -p nvsurf-bench -- [--json] [--quick] [--smoke] [--case NAME]
//! [--vector-limit baseline|avx2|avx512] [--streaming-threshold BYTES] [--fixed-streaming]`
//!
//! `--vector-limit` caps the library's run-time choice of vector kernels
//! (`nvsurf::cpu::set_vector_limit`), to measure what the wider kernels buy on this CPU.
//! `--streaming-threshold BYTES` sets where the library starts writing with streaming
//! (non-temporal) stores (`nvsurf::tile::set_streaming_threshold_bytes`; the parallel entry
//! points multiply it by the threads), to measure both sides of that choice on this machine:
//! a huge value never streams, 1 streams every large enough copy. Either that or
//! `--fixed-streaming` turns off adaptive streaming (`nvsurf::tile::adapt`: large copies
//! choose between cached and streamed stores from their own timings), to measure the fixed
//! rule beside it.
//!
//! For every case and operation (tile, untile) and thread count (1 and all), the contenders are
//! measured in interleaved rounds (ours, memcpy, tegra_swizzle's allocating API, its `ffi`
//! non-allocating kernel, again and again, each round in a new pseudo-random order: see `race`)
//! so that a noisy neighbour hurts all of them alike; the
//! figure reported for each is the median over its rounds, in GB/s of linear image bytes
//! (1 GB = 1e9 bytes). The memcpy baseline is `copy_from_slice` of the same number of bytes
//! between the same two buffers as ours (tile: linear image -> tiled surface; untile: tiled
//! surface -> linear image), allocated and touched beforehand, so that both contenders work on
//! one cache state; with all threads it is the same copy split in equal chunks over the same
//! rayon pool. (Session 1's baseline copied the linear image into a buffer of its own. Which
//! buffers memcpy touches moves its speed by up to a third on this machine, ours' not at all:
//! interleaved runs, untile of tegra-2048x2048x4 measured 0.94-1.17x against that baseline
//! and 0.73-0.81x against this one, swizzled-1024x1024x4 0.50-0.53x and 0.77-0.79x.) tegra_swizzle has no parallel API, so its figure is
//! given for one thread only (null in the all-threads rows). Before timing, each tegra case checks
//! that our bytes equal tegra_swizzle's.
//!
//! Two ratios to memcpy are printed: `x mcpy` (JSON `ratio_memcpy`) is our median speed over
//! memcpy's median speed; `paired` (JSON `ratio_memcpy_paired`) is the median over the rounds of
//! our speed over memcpy's within the same round, whose batches run back to back. On the development machine
//! (a 2-vCPU VM whose L3 cache and memory other tenants share) speeds drift by up to a factor
//! of two from one second to the next, and the paired figure moves less between runs.

/// `println!` that ends the process quietly with status 141 (as a shell reports SIGPIPE) when
/// stdout is closed early (`nvsurf-bench | head`), instead of panicking; any other write error
/// is named and ends it with status 1.
macro_rules! say {
    ($($t:tt)*) => { $crate::say_line(format_args!($($t)*)) };
}

mod bc_encode;
mod capi;
mod cli;
mod codec;
mod codec_blocks;
mod e2e;
mod targets;

/// The line printer behind [`say!`].
pub(crate) fn say_line(line: std::fmt::Arguments) {
    use std::io::Write;
    if let Err(e) = writeln!(std::io::stdout().lock(), "{line}") {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(141);
        }
        eprintln!("error: cannot write to stdout: {e}");
        std::process::exit(1);
    }
}

use nvsurf::layout::{BlockLinear, BlockLinearParams, GobOrder, LayoutKind, Surface, SurfaceDesc};
use nvsurf::tile::{self, LinearLayout, Region};
use nvsurf::tile::{AlignedBuf, CopyOptions, Threads};
use nvsurf::Gpu;
use rayon::prelude::*;
use serde_json::json;
use std::time::{Duration, Instant};
use tegra_swizzle::BlockHeight;

/// A benchmark case.
struct Case {
    name: String,
    surface: Surface,
    /// tegra_swizzle parameters (width, height, depth, bytes per pixel, block height) where it applies.
    tegra: Option<(u32, u32, u32, u32, u32)>,
}

/// tegra_swizzle's choice of block height (gobs) for a height in rows (NVN convention).
fn nvn_block_height(height: u32) -> u32 {
    let h = height + height / 2;
    [16, 8, 4, 2].into_iter().find(|&b| h >= b * 8).unwrap_or(1)
}

/// tegra_swizzle's block depth (gobs) for a depth.
fn nvn_block_depth(depth: u32) -> u32 {
    let d = depth + depth / 2;
    [16, 8, 4, 2].into_iter().find(|&b| d >= b).unwrap_or(1)
}

fn tegra_case(w: u32, h: u32, d: u32, bpp: u32) -> Case {
    let bh = nvn_block_height(h);
    let bd = nvn_block_depth(d);
    let mut p = BlockLinearParams::new(Gpu::Gm20b, bpp, [w, h, d], [0, bh.trailing_zeros(), bd.trailing_zeros()]);
    p.gob_order = GobOrder::Tegra;
    p.auto_size = Some(false);
    let name = if d > 1 { format!("tegra-{w}x{h}x{d}x{bpp}") } else { format!("tegra-{w}x{h}x{bpp}") };
    Case {
        name,
        surface: Surface::BlockLinear(BlockLinear::new(&p).expect("valid case")),
        tegra: Some((w, h, d, bpp, bh)),
    }
}

fn cases(scale: u32) -> Vec<Case> {
    let s = |v: u32| (v / scale).max(1);
    let mut v = vec![
        tegra_case(s(2048), s(2048), 1, 4),
        tegra_case(s(4096), s(4096), 1, 4),
        tegra_case(s(1024), s(1024), 1, 16),
        tegra_case(64, 64, 1, 4),
        tegra_case(s(256), s(256), s(64), 4),
        tegra_case(s(2000), s(1000), 1, 4),
        // Beyond the list: a wide, short surface (one block row of 16-gob blocks),
        // which parallel tile splits by block columns.
        tegra_case(s(8192), s(128), 1, 4),
    ];
    let g80 = BlockLinear::new(&BlockLinearParams::new(Gpu::G80, 4, [s(2048), s(2048), 1], [0, 4, 0])).expect("valid");
    v.push(Case { name: format!("g80-{}x{}x4", s(2048), s(2048)), surface: Surface::BlockLinear(g80), tegra: None });
    // The swizzled case (4-byte elements), then 1-, 2- and 8-byte elements (NV2A/NV40
    // textures: A8/L8, R5G6B5/A1R5G5B5/A4R4G4B4, 16-bit float RGBA), 4 MiB each.
    for (es, w, h) in [(4, 1024, 1024), (1, 2048, 2048), (2, 2048, 1024), (8, 1024, 512)] {
        let mut sw = SurfaceDesc::new(Gpu::Nv40, es, [s(w), s(h), 1]);
        sw.layout = LayoutKind::Swizzled;
        v.push(Case {
            name: format!("swizzled-{}x{}x{es}", s(w), s(h)),
            surface: sw.build().expect("valid"),
            tegra: None,
        });
    }
    v
}

/// Fills a buffer with a cheap pseudo-random pattern (and faults its pages in).
fn noise(n: usize) -> Vec<u8> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

/// A byte buffer whose start is 64-byte aligned (a cache line, the library's
/// `tile::AlignedBuf`), as graphics code allocates its staging buffers; memcpy gets the same
/// alignment. Zeroed, or holding `fill` (`len` bytes).
fn aligned(len: usize, fill: Option<&[u8]>) -> tile::AlignedBuf {
    let mut a = tile::AlignedBuf::zeroed(len).expect("benchmark buffer");
    if let Some(f) = fill {
        a.copy_from_slice(f);
    }
    a
}

/// One contender: a name and the work of one iteration.
struct Contender<'a> {
    name: &'static str,
    run: Box<dyn FnMut() + 'a>,
    times: Vec<f64>,
}

/// Interleaved rounds until each contender has had `budget` of time; returns median GB/s each.
///
/// Each round runs the contenders in a fresh pseudo-random order (a fixed seed, so runs are
/// repeatable), so that none of them always follows the same other one. A fixed order biased
/// the L3-resident cases: tegra_swizzle's allocating entry point (a new buffer, its pages
/// faulted in, every call) and its `ffi` kernel (a third output buffer) always ran just before
/// ours, and memcpy just after ours, on buffers ours had just warmed. Measured (session 17,
/// `nvsurf-bench --quick --case tegra-2000x1000x4`, fixed order, two runs each): untile at one
/// thread 0.68-0.69x memcpy with the tegra_swizzle contenders in the rounds and 0.86x without
/// them, tile 0.65-0.72x and 0.89x; a warm-up call before each timed batch did not remove it
/// (0.66-0.71x). The all-threads rows race only ours and memcpy, which alternate either way.
fn race(contenders: &mut [Contender<'_>], bytes: usize, budget: Duration) -> Vec<f64> {
    // Warm up and size one round's batch so that a batch lasts about 5 ms.
    let mut batch = vec![1usize; contenders.len()];
    for (i, c) in contenders.iter_mut().enumerate() {
        (c.run)();
        let t = Instant::now();
        (c.run)();
        let one = t.elapsed().as_secs_f64().max(1e-9);
        batch[i] = ((0.005 / one) as usize).clamp(1, 1_000_000);
    }
    let start = Instant::now();
    let rounds_min = 5;
    let mut round = 0;
    let mut order: Vec<usize> = (0..contenders.len()).collect();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    while round < rounds_min || start.elapsed() < budget * contenders.len() as u32 {
        shuffle(&mut order, &mut seed);
        for &i in &order {
            let c = &mut contenders[i];
            let t = Instant::now();
            for _ in 0..batch[i] {
                (c.run)();
            }
            c.times.push(t.elapsed().as_secs_f64() / batch[i] as f64);
        }
        round += 1;
    }
    contenders.iter().map(|c| bytes as f64 / median(c.times.clone()) / 1e9).collect()
}

/// Puts `order` in a pseudo-random order (Fisher-Yates over an xorshift64 stream in `seed`).
fn shuffle(order: &mut [usize], seed: &mut u64) {
    for i in (1..order.len()).rev() {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        order.swap(i, (*seed % (i as u64 + 1)) as usize);
    }
}

/// The median of `v` (upper median for an even count).
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// The median over the rounds of a race of `b`'s time over `a`'s in the same round: `a`'s
/// speed as a multiple of `b`'s, each round's batches run back to back. On a machine whose
/// speed drifts (other tenants sharing the L3 cache and memory), this paired figure moves
/// less from run to run than the ratio of the two medians, where a slow spell can fall on
/// one contender's median and not the other's.
fn paired_ratio(a: &Contender<'_>, b: &Contender<'_>) -> f64 {
    median(a.times.iter().zip(&b.times).map(|(ta, tb)| tb / ta).collect())
}

/// Whole textures (`Texture::untile` / `Texture::tile`, and with all threads their parallel
/// twins, which split by level and layer and within large levels): a Switch-style cube of
/// A8B8G8R8 with its full mip chain (GM20B, Tegra gob order, NVN block heights). The memcpy
/// baseline copies the packed linear size between the same two buffers, split over the same
/// pool with all threads. Rows have `tegra_gbps` null (tegra_swizzle has no whole-texture
/// entry point for cubes with mips in one call).
fn texture_cases(
    only: Option<&String>,
    smoke: bool,
    budget: Duration,
    json_out: bool,
    pool: &rayon::ThreadPool,
    rows: &mut Vec<serde_json::Value>,
) {
    use nvsurf::texture::{max_levels, BlockPolicy, TextureDesc, TextureType};
    let side = if smoke { 64 } else { 1024 };
    let name = format!("tex-cube-{side}x{side}x4");
    if only.is_some_and(|o| *o != name) {
        return;
    }
    let mut d = TextureDesc::new(Gpu::Gm20b, TextureType::Cube, 4, [side, side, 1]);
    d.levels = max_levels([side, side, 1]);
    d.gob_order = GobOrder::Tegra;
    d.block = BlockPolicy::Nvn;
    let t = d.build().expect("valid texture");
    let (lin_len, dump_len) = (t.linear_size_bytes() as usize, t.size_bytes() as usize);
    let linear = aligned(lin_len, Some(&noise(lin_len)));
    let dump = aligned(
        dump_len,
        Some(&t.tile_to_buf(linear.as_ref(), &CopyOptions::default()).map(AlignedBuf::into_vec).expect("tile")),
    );
    let mut lin_dst = aligned(lin_len, None);
    let mut dump_dst = aligned(dump_len, None);
    let threads_all = pool.current_num_threads();
    for op in ["tile", "untile"] {
        for threads in [1usize, threads_all] {
            if threads > 1 && threads_all == 1 {
                continue;
            }
            let (src, dst): (&[u8], &mut [u8]) =
                if op == "tile" { (linear.as_ref(), dump_dst.as_mut()) } else { (dump.as_ref(), lin_dst.as_mut()) };
            let dst = std::cell::RefCell::new(dst);
            let dst = &dst;
            let t = &t;
            let ours: Box<dyn FnMut()> = Box::new(move || {
                let mut d = dst.borrow_mut();
                let d: &mut [u8] = &mut d;
                match (op, threads) {
                    ("tile", 1) => t.tile_with(src, d, &CopyOptions::default()).expect("tile"),
                    ("untile", 1) => t.untile_with(src, d, &CopyOptions::default()).expect("untile"),
                    ("tile", _) => pool
                        .install(|| t.tile_with(src, d, &CopyOptions::default().threads(Threads::CurrentPool)))
                        .expect("tile"),
                    _ => pool
                        .install(|| t.untile_with(src, d, &CopyOptions::default().threads(Threads::CurrentPool)))
                        .expect("untile"),
                }
            });
            let chunk = lin_len.div_ceil(threads).max(1);
            let memcpy: Box<dyn FnMut()> = Box::new(move || {
                let mut d = dst.borrow_mut();
                let d: &mut [u8] = &mut d[..lin_len];
                if threads == 1 {
                    d.copy_from_slice(&src[..lin_len]);
                } else {
                    pool.install(|| {
                        d.par_chunks_mut(chunk)
                            .zip(src[..lin_len].par_chunks(chunk))
                            .for_each(|(d, s)| d.copy_from_slice(s))
                    });
                }
            });
            let mut contenders = vec![
                Contender { name: "ours", run: ours, times: vec![] },
                Contender { name: "memcpy", run: memcpy, times: vec![] },
            ];
            let gbps = race(&mut contenders, lin_len, budget);
            let paired = paired_ratio(&contenders[0], &contenders[1]);
            let (o, m) = (gbps[0], gbps[1]);
            if !json_out {
                say!(
                    "{:<22} {:<6} {:>3} {:>9.2} {:>9.2} {:>7.2} {:>7.2} {:>9} {:>7}",
                    name,
                    op,
                    threads,
                    o,
                    m,
                    o / m,
                    paired,
                    "-",
                    "-"
                );
            }
            rows.push(json!({
                "case": name, "op": op, "threads": threads, "gbps": o, "memcpy_gbps": m,
                "tegra_gbps": null, "tegra_alloc_gbps": null, "tegra_ffi_gbps": null,
                "ratio_memcpy": o / m, "ratio_memcpy_paired": paired, "ratio_tegra": null,
            }));
        }
    }
}

/// Applies the flags that set nvsurf's knobs (`--vector-limit`, `--streaming-threshold`,
/// `--fixed-streaming`); an unknown flag or a bad value ends the run with status 2.
fn apply_flags(args: &[String]) {
    if let Some(bad) = args.iter().find(|a| {
        a.starts_with("--")
            && ![
                "--json",
                "--quick",
                "--smoke",
                "--case",
                "--vector-limit",
                "--streaming-threshold",
                "--fixed-streaming",
            ]
            .contains(&a.as_str())
    }) {
        eprintln!(
            "error: unknown flag {bad} (flags: --json, --quick, --smoke, --case NAME, --vector-limit LEVEL, --streaming-threshold BYTES, --fixed-streaming)"
        );
        std::process::exit(2);
    }
    if let Some(v) = args.iter().position(|a| a == "--vector-limit").and_then(|i| args.get(i + 1)) {
        use nvsurf::cpu::{set_vector_limit, VectorLevel};
        let level = match v.as_str() {
            "baseline" => VectorLevel::Baseline,
            "avx2" => VectorLevel::Avx2,
            "avx512" => VectorLevel::Avx512,
            other => {
                eprintln!("--vector-limit {other}: expected baseline, avx2 or avx512");
                std::process::exit(2);
            }
        };
        set_vector_limit(level);
    }
    if let Some(v) = args.iter().position(|a| a == "--streaming-threshold").and_then(|i| args.get(i + 1)) {
        match v.parse::<usize>() {
            Ok(b) if b > 0 => {
                tile::set_streaming_threshold_bytes(Some(b));
            }
            _ => {
                eprintln!("--streaming-threshold {v}: expected a byte count of at least 1");
                std::process::exit(2);
            }
        }
    }
    if args.iter().any(|a| a == "--fixed-streaming") {
        nvsurf::tile::adapt::set_adaptive_streaming(false);
    }
}

/// The table's heading: the knobs in effect, then the column names.
fn print_heading() {
    say!("vector kernels: {:?} (nvsurf::cpu::active_level)", nvsurf::cpu::active_level());
    say!(
        "streaming threshold: {} bytes, level-3 cache {} (nvsurf::tile::streaming_threshold_bytes, nvsurf::cpu::l3_cache_bytes)",
        tile::streaming_threshold_bytes(),
        nvsurf::cpu::l3_cache_bytes().map_or("unknown".to_string(), |b| format!("{b} bytes"))
    );
    say!(
        "adaptive streaming: {} (nvsurf::tile::adapt; off with --fixed-streaming or --streaming-threshold)",
        if nvsurf::tile::adapt::adaptive_streaming() { "on" } else { "off" }
    );
    say!(
        "{:<22} {:<6} {:>3} {:>9} {:>9} {:>7} {:>7} {:>9} {:>7}",
        "case",
        "op",
        "thr",
        "ours",
        "memcpy",
        "x mcpy",
        "paired",
        "tegra",
        "x tegra"
    );
}

/// What every race of a run shares.
struct Run<'p> {
    budget: Duration,
    json_out: bool,
    pool: &'p rayon::ThreadPool,
}

/// One surface case's copy: the surface, its region and linear layout, and the source bytes of
/// each direction (`lin_len` bytes move either way).
#[derive(Clone, Copy)]
struct Job<'a> {
    s: Surface,
    region: Region,
    lin: LinearLayout,
    ls: &'a [u8],
    ts: &'a [u8],
    lin_len: usize,
}

/// The destination both ours and memcpy write (tile: the tiled surface; untile: the linear
/// image), so that neither finds its buffers in a cache state the other does not share.
type Dst<'a> = std::cell::RefCell<&'a mut [u8]>;

/// Races every surface case (but those `--case` leaves out): tile and untile, at one thread
/// and at all, against memcpy and tegra_swizzle where it applies.
fn surface_cases(only: Option<&String>, smoke: bool, run: &Run, rows: &mut Vec<serde_json::Value>) {
    for case in cases(if smoke { 16 } else { 1 }) {
        if only.is_some_and(|o| *o != case.name) {
            continue;
        }
        surface_case(&case, run, rows);
    }
}

/// Races one surface case.
fn surface_case(case: &Case, run: &Run, rows: &mut Vec<serde_json::Value>) {
    let s = case.surface;
    let region = Region::whole(&s);
    let lin = LinearLayout::packed(&region, s.elem_size_bytes());
    let lin_len = (lin.slice_pitch_bytes * u64::from(region.d)) as usize;
    let tiled_len = s.size_bytes() as usize;
    let linear_src = aligned(lin_len, Some(&noise(lin_len)));
    let tiled = tile::tile_to_buf(&s, linear_src.as_ref(), &CopyOptions::default()).expect("tile");
    let tiled_src = aligned(tiled_len, Some(tiled.as_ref()));
    let mut linear_dst = aligned(lin_len, None);
    let mut tiled_dst = aligned(tiled_len, None);
    let mut ffi_tiled = aligned(tiled_len, None);
    let mut ffi_linear = aligned(lin_len, None);

    // Correctness check against tegra_swizzle before timing anything.
    if let Some((w, h, d, bpp, bh)) = case.tegra {
        let theirs = tegra_swizzle::swizzle::swizzle_block_linear(
            w,
            h,
            d,
            linear_src.as_ref(),
            BlockHeight::new(bh).expect("bh"),
            bpp,
        )
        .expect("tegra_swizzle");
        assert!(theirs == tiled_src.as_ref(), "{}: our tiled bytes differ from tegra_swizzle's", case.name);
    }
    let job = Job { s, region, lin, ls: linear_src.as_ref(), ts: tiled_src.as_ref(), lin_len };
    let threads_all = run.pool.current_num_threads();
    for op in ["tile", "untile"] {
        for threads in [1usize, threads_all] {
            if threads > 1 && threads_all == 1 {
                continue;
            }
            let dst = std::cell::RefCell::new(if op == "tile" { tiled_dst.as_mut() } else { linear_dst.as_mut() });
            let mut contenders = vec![
                ours_contender(job, op, threads, &dst, run.pool),
                memcpy_contender(job, op, threads, &dst, run.pool),
            ];
            if let (Some(tegra), 1) = (case.tegra, threads) {
                let out = if op == "tile" { ffi_tiled.as_mut() } else { ffi_linear.as_mut() };
                tegra_contenders(job, op, tegra, out, &mut contenders);
            }
            report(&case.name, op, threads, &mut contenders, lin_len, run, rows);
        }
    }
}

/// nvsurf's copy of `job` in direction `op` at `threads` threads, into `dst`.
fn ours_contender<'a, 'b: 'a>(
    job: Job<'a>,
    op: &str,
    threads: usize,
    dst: &'a Dst<'b>,
    pool: &'a rayon::ThreadPool,
) -> Contender<'a> {
    let Job { s, region, lin, ls, ts, .. } = job;
    let one = CopyOptions::default();
    let par = CopyOptions::default().threads(Threads::CurrentPool);
    let ours: Box<dyn FnMut()> = match (op, threads) {
        ("tile", 1) => {
            Box::new(move || tile::tile_with(&s, ls, &mut dst.borrow_mut(), region, lin, &one).expect("tile"))
        }
        ("untile", 1) => {
            Box::new(move || tile::untile_with(&s, ts, &mut dst.borrow_mut(), region, lin, &one).expect("untile"))
        }
        ("tile", _) => Box::new(move || {
            let mut d = dst.borrow_mut();
            let d: &mut [u8] = &mut d;
            pool.install(|| tile::tile_with(&s, ls, d, region, lin, &par).expect("tile"))
        }),
        _ => Box::new(move || {
            let mut d = dst.borrow_mut();
            let d: &mut [u8] = &mut d;
            pool.install(|| tile::untile_with(&s, ts, d, region, lin, &par).expect("untile"))
        }),
    };
    Contender { name: "ours", run: ours, times: vec![] }
}

/// memcpy of the bytes `job` moves in direction `op` (`lin_len` bytes), at `threads` threads,
/// into `dst`.
fn memcpy_contender<'a, 'b: 'a>(
    job: Job<'a>,
    op: &str,
    threads: usize,
    dst: &'a Dst<'b>,
    pool: &'a rayon::ThreadPool,
) -> Contender<'a> {
    let lin_len = job.lin_len;
    let src: &[u8] = if op == "tile" { job.ls } else { &job.ts[..lin_len] };
    let memcpy: Box<dyn FnMut()> = if threads == 1 {
        Box::new(move || dst.borrow_mut()[..lin_len].copy_from_slice(src))
    } else {
        let chunk = lin_len.div_ceil(threads).max(1);
        Box::new(move || {
            let mut d = dst.borrow_mut();
            let d: &mut [u8] = &mut d;
            pool.install(|| {
                d[..lin_len].par_chunks_mut(chunk).zip(src.par_chunks(chunk)).for_each(|(d, s)| d.copy_from_slice(s))
            })
        })
    };
    Contender { name: "memcpy", run: memcpy, times: vec![] }
}

/// tegra_swizzle's allocating entry point for `job` in direction `op`, and its `ffi` kernel
/// (writing `out`) where the layout matches (depth 1).
fn tegra_contenders<'a>(
    job: Job<'a>,
    op: &str,
    (w, h, d, bpp, bh): (u32, u32, u32, u32, u32),
    out: &'a mut [u8],
    contenders: &mut Vec<Contender<'a>>,
) {
    let (ls, ts) = (job.ls, job.ts);
    let bhe = BlockHeight::new(bh).expect("bh");
    let alloc: Box<dyn FnMut()> = if op == "tile" {
        Box::new(move || {
            std::hint::black_box(tegra_swizzle::swizzle::swizzle_block_linear(w, h, d, ls, bhe, bpp).expect("swizzle"));
        })
    } else {
        Box::new(move || {
            std::hint::black_box(
                tegra_swizzle::swizzle::deswizzle_block_linear(w, h, d, ts, bhe, bpp).expect("deswizzle"),
            );
        })
    };
    contenders.push(Contender { name: "tegra-alloc", run: alloc, times: vec![] });
    // The ffi kernels pass the depth as the block depth; they match the layout
    // only for depth 1 (the allocating API picks the block depth itself).
    if d != 1 {
        return;
    }
    let ffi: Box<dyn FnMut()> = if op == "tile" {
        Box::new(move || {
            // SAFETY: `ls` holds w*h*bpp bytes (deswizzled_mip_size) and `out`
            // holds size_bytes == swizzled_mip_size bytes (checked above by the
            // byte comparison); bh is a valid BlockHeight value.
            unsafe {
                tegra_swizzle::ffi::swizzle_block_linear(
                    w,
                    h,
                    d,
                    ls.as_ptr(),
                    ls.len(),
                    out.as_mut_ptr(),
                    out.len(),
                    bh,
                    bpp,
                )
            }
        })
    } else {
        Box::new(move || {
            // SAFETY: as above, with source and destination exchanged.
            unsafe {
                tegra_swizzle::ffi::deswizzle_block_linear(
                    w,
                    h,
                    d,
                    ts.as_ptr(),
                    ts.len(),
                    out.as_mut_ptr(),
                    out.len(),
                    bh,
                    bpp,
                )
            }
        })
    };
    contenders.push(Contender { name: "tegra-ffi", run: ffi, times: vec![] });
}

/// Races `contenders` (ours first, memcpy second) on `bytes` bytes, prints the row and keeps
/// it for the JSON.
fn report(
    name: &str,
    op: &str,
    threads: usize,
    contenders: &mut [Contender<'_>],
    bytes: usize,
    run: &Run,
    rows: &mut Vec<serde_json::Value>,
) {
    let gbps = race(contenders, bytes, run.budget);
    let paired = paired_ratio(&contenders[0], &contenders[1]);
    let names: Vec<&str> = contenders.iter().map(|c| c.name).collect();
    let get = |n: &str| names.iter().position(|x| *x == n).map(|i| gbps[i]);
    let (o, m) = (gbps[0], gbps[1]);
    let t_alloc = get("tegra-alloc");
    let t_ffi = get("tegra-ffi");
    let tegra = match (t_alloc, t_ffi) {
        (Some(a), Some(f)) => Some(a.max(f)),
        (a, f) => a.or(f),
    };
    if !run.json_out {
        say!(
            "{:<22} {:<6} {:>3} {:>9.2} {:>9.2} {:>7.2} {:>7.2} {:>9} {:>7}",
            name,
            op,
            threads,
            o,
            m,
            o / m,
            paired,
            tegra.map_or("-".to_string(), |t| format!("{t:.2}")),
            tegra.map_or("-".to_string(), |t| format!("{:.2}", o / t)),
        );
    }
    rows.push(json!({
        "case": name, "op": op, "threads": threads, "gbps": o, "memcpy_gbps": m,
        "tegra_gbps": tegra, "tegra_alloc_gbps": t_alloc, "tegra_ffi_gbps": t_ffi,
        "ratio_memcpy": o / m, "ratio_memcpy_paired": paired, "ratio_tegra": tegra.map(|t| o / t),
    }));
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let json_out = args.iter().any(|a| a == "--json");
    let quick = args.iter().any(|a| a == "--quick");
    let smoke = args.iter().any(|a| a == "--smoke");
    let only: Option<&String> = args.iter().position(|a| a == "--case").and_then(|i| args.get(i + 1));
    apply_flags(&args);
    let budget = Duration::from_millis(if smoke {
        5
    } else if quick {
        150
    } else {
        600
    });
    let threads_all = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads_all).build().expect("thread pool");
    let mut rows = Vec::new();
    if !json_out {
        print_heading();
    }
    surface_cases(only, smoke, &Run { budget, json_out, pool: &pool }, &mut rows);
    texture_cases(only, smoke, budget, json_out, &pool, &mut rows);
    codec::run(only, smoke, budget, json_out, &mut rows);
    if !json_out && only.is_none_or(|o| o.starts_with("bc")) {
        say!("(bc encode rows: ours = nvsurf from RGBA8, memcpy column = the crate called directly, paired = ours over the crate; last two: from texels, GB/s and paired)");
    }
    bc_encode::run(only, smoke, budget, json_out, &mut rows);
    codec_blocks::run(only, smoke, budget, json_out, &mut rows);
    cli::run(only, smoke, quick, json_out, &mut rows);
    e2e::run(only, quick, json_out, &mut rows);
    if !json_out && only.is_none_or(|o| o.starts_with("capi")) {
        say!("(capi rows: ours = the C call, memcpy column = the Rust call, paired = C over Rust)");
    }
    capi::run(only, smoke, budget, json_out, &mut rows);
    if json_out {
        say!("{}", serde_json::to_string_pretty(&rows).expect("json"));
    } else {
        say!(
            "the issues' targets (paired ratios; x tegra at one thread){}:",
            if smoke { ", --smoke sizes: not the issue's measurement" } else { "" }
        );
        for line in targets::summary(&rows) {
            say!("{line}");
        }
    }
}
