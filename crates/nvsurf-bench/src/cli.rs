//! CLI cases (`cli-*`): the `nvsurf` binary as a user runs it, as a child process, so that its
//! whole cost shows: reading the dump, untiling, converting and writing. `untile` of an
//! N x N RGBA8 blocklinear surface (GM20B defaults, one thread) to a PNG, beside the same
//! untile to raw bytes, in alternating rounds of one run; the time is the median, the peak
//! memory the largest resident set the child reached (`wait4`'s `ru_maxrss`).
//!
//! Targets: the PNG's time at most 2.5x the raw untile's, and its peak memory at most the input
//! file, the PNG file and 64 MiB. `cli-8192` runs in full runs; `--case cli-16384` (1 GiB of
//! input) only when named; `--smoke` runs `cli-256`. The picture is smooth with a little noise
//! (a photograph compresses like it; pure noise does not compress at all).

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The `nvsurf` binary beside this benchmark's (both in the target directory's profile dir).
pub(crate) fn nvsurf_binary() -> Option<PathBuf> {
    let me = std::env::current_exe().ok()?;
    let p = me.parent()?.join("nvsurf");
    p.exists().then_some(p)
}

/// Runs `cmd`, returns (wall seconds, peak resident set in bytes); panics on failure.
pub(crate) fn timed(cmd: &mut Command) -> (f64, u64) {
    let t = Instant::now();
    let child = cmd.spawn().expect("spawn nvsurf");
    let pid = child.id() as libc::pid_t;
    let mut status: libc::c_int = 0;
    // SAFETY: `rusage` is a plain C struct for which all-zero bytes are a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our own child, not yet reaped (std's `Child` has not waited for it and
    // is dropped below without waiting); `status` and `usage` are valid, writable locals that
    // outlive the call.
    let got = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let secs = t.elapsed().as_secs_f64();
    assert_eq!(got, pid, "wait4 failed");
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0, "nvsurf failed: {cmd:?}");
    drop(child);
    // Linux reports ru_maxrss in KiB.
    (secs, usage.ru_maxrss as u64 * 1024)
}

/// A smooth RGBA8 picture of `side` x `side` with a little noise, written row by row, then
/// tiled for GM20B with its defaults (Tegra order, NVIDIA's block) by `nvsurf tile` as a child:
/// this process never holds the picture, because a child's peak memory counts the parent's
/// peak up to its `exec` (Linux keeps the old address space's high-water mark).
pub(crate) fn make_dump(bin: &Path, side: u32, pic: &Path, dump: &Path) {
    use std::io::Write;
    let mut w = std::io::BufWriter::new(std::fs::File::create(pic).expect("picture file"));
    let mut seed = 1u32;
    let mut row = Vec::with_capacity(side as usize * 4);
    for y in 0..side {
        row.clear();
        for x in 0..side {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let n = (seed >> 28) as u8;
            row.extend_from_slice(&[
                ((x * 255) / side) as u8 ^ n,
                ((y * 255) / side) as u8,
                (((x + y) / 64) % 256) as u8,
                255,
            ]);
        }
        w.write_all(&row).expect("write picture");
    }
    w.flush().expect("write picture");
    drop(w);
    let size = format!("{side}x{side}");
    let ok = Command::new(bin)
        .args(["tile", "--gpu", "gm20b", "--format", "RGBA8_UNORM", "--size", &size, "--threads", "1"])
        .arg("--input")
        .arg(pic)
        .arg("--output")
        .arg(dump)
        .stderr(std::process::Stdio::null())
        .status()
        .expect("nvsurf tile");
    assert!(ok.success(), "nvsurf tile failed");
    let _ = std::fs::remove_file(pic);
}

/// Runs the CLI cases selected by `only` (`cli`, `cli-8192`, `cli-16384`; all but the largest
/// in a full run), printing a line each unless `json_out`, and appending JSON rows to `rows`.
pub fn run(only: Option<&String>, smoke: bool, quick: bool, json_out: bool, rows: &mut Vec<Value>) {
    let default = if smoke { 256 } else { 8192 };
    let sides: Vec<u32> = [256u32, 8192, 16384]
        .into_iter()
        .filter(|s| match only {
            None => *s == default,
            Some(o) => o == "cli" && *s == default || *o == format!("cli-{s}"),
        })
        .collect();
    if sides.is_empty() {
        return;
    }
    let Some(bin) = nvsurf_binary() else {
        if !json_out {
            say!("cli cases: skipped (no nvsurf binary beside this one: cargo build --release -p nvsurf-cli)");
        }
        return;
    };
    let dir = std::env::temp_dir().join(format!("nvsurf-bench-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for side in sides {
        let name = format!("cli-{side}x{side}x4");
        let dump = dir.join("dump.bin");
        make_dump(&bin, side, &dir.join("picture.raw"), &dump);
        let (raw, png) = (dir.join("out.raw"), dir.join("out.png"));
        let untile = |out: &Path| {
            let mut c = Command::new(&bin);
            let size = format!("{side}x{side}");
            c.args(["untile", "--gpu", "gm20b", "--format", "RGBA8_UNORM", "--size", &size, "--threads", "1"]);
            c.arg("--input").arg(&dump).arg("--output").arg(out);
            c.stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null());
            c
        };
        let rounds = if smoke || side > 8192 {
            1
        } else if quick {
            2
        } else {
            3
        };
        let (mut raw_t, mut png_t, mut raw_m, mut png_m) = (vec![], vec![], 0u64, 0u64);
        for _ in 0..rounds {
            let (t, m) = timed(&mut untile(&raw));
            raw_t.push(t);
            raw_m = raw_m.max(m);
            let (t, m) = timed(&mut untile(&png));
            png_t.push(t);
            png_m = png_m.max(m);
        }
        let med = |v: &mut Vec<f64>| {
            v.sort_by(|a, b| a.total_cmp(b));
            v[v.len() / 2]
        };
        let (rt, pt) = (med(&mut raw_t), med(&mut png_t));
        let input = std::fs::metadata(&dump).map(|m| m.len()).unwrap_or(0);
        let png_bytes = std::fs::metadata(&png).map(|m| m.len()).unwrap_or(0);
        let budget = input + png_bytes + (64 << 20);
        let mb = |b: u64| b as f64 / (1u64 << 20) as f64;
        let time_ok = pt <= 2.5 * rt;
        let mem_ok = png_m <= budget;
        if !json_out {
            say!(
                "{name:<22} untile raw {rt:.2} s {:.0} MiB | png {pt:.2} s {:.0} MiB ({:.0} MiB file): {:.2}x raw time \
                 (target <= 2.5: {}), peak {:.0} <= input {:.0} + png {:.0} + 64 MiB: {}",
                mb(raw_m),
                mb(png_m),
                mb(png_bytes),
                pt / rt,
                if time_ok { "met" } else { "NOT MET" },
                mb(png_m),
                mb(input),
                mb(png_bytes),
                if mem_ok { "met" } else { "NOT MET" },
            );
        }
        rows.push(json!({
            "case": name, "op": "untile-png-vs-raw", "threads": 1, "rounds": rounds,
            "raw_seconds": rt, "png_seconds": pt, "raw_peak_bytes": raw_m, "png_peak_bytes": png_m,
            "input_bytes": input, "png_bytes": png_bytes, "time_ratio": pt / rt,
            "time_target_met": time_ok, "memory_target_met": mem_ok,
        }));
        for p in [&dump, &raw, &png] {
            let _ = std::fs::remove_file(p);
        }
    }
    let _ = std::fs::remove_dir(&dir);
}
