//! End-to-end cases (`e2e-*`, issue #39 item 4): whole `nvsurf` commands on a large surface,
//! each against `cat SRC > DST` of the same bytes, measured alternately in one run.
//!
//! The surface is an N x N RGBA8 blocklinear surface (GM20B defaults), the picture smooth with
//! a little noise (`cli::make_dump`); `e2e-8192` is 256 MiB, `e2e-16384` 1 GiB. Every row runs
//! as a child process with its output removed first (a new file, as `cat` gets); the inputs are
//! in the page cache (each was just written or read). Each round runs every row once, in order;
//! the figure is the median over the rounds, the peak memory the largest resident set the child
//! reached (`wait4`'s `ru_maxrss`).
//!
//! Rows (`op` in JSON): `cat` (the baseline), `cat+fsync` (`cat` then `sync DST`: nvsurf syncs
//! every output before renaming it over its target, `docs/files.md`), `untile-raw` and
//! `tile-raw` with `--threads 1`, `untile-png-fast` (`--png-compression fast`, `--threads 1`:
//! the target's row), `untile-png-fast-mt` (the same with the default `--threads`, every core:
//! the PNG pieces are compressed in parallel; no target), `tile-png` (from that PNG, `--threads
//! 1`) and `convert-raw-png-fast` (the linear file to PNG, default threads).
//!
//! Targets: `untile-raw` and `tile-raw` at most 1.5x `cat` (`ratio_cat`, the median over the
//! rounds of the row's time over the same round's `cat`), `untile-png-fast` at most 2x
//! `untile-raw` (`ratio_raw`), and every row's peak memory at most 128 MiB. Only named
//! (`--case e2e` runs `e2e-8192`; `--case e2e-16384` the 1 GiB one): a full run would add a
//! minute of disk traffic.

use crate::cli::{make_dump, nvsurf_binary, timed};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The peak memory target of every row: 128 MiB.
const PEAK_TARGET_BYTES: u64 = 128 << 20;

/// One row: its name and how to build its command for the output path.
struct Row {
    op: &'static str,
    cmd: Box<dyn Fn(&Path) -> Command>,
}

/// The rows of one surface size, in the order each round runs them.
fn rows(bin: &Path, side: u32, dir: &Path) -> Vec<Row> {
    let size = format!("{side}x{side}");
    // `--threads 1` but for the `-mt` row (no `--threads`: every core).
    let surf = move |c: &mut Command, mt: bool| {
        c.args(["--gpu", "gm20b", "--format", "RGBA8_UNORM", "--size", &size]);
        if !mt {
            c.args(["--threads", "1"]);
        }
    };
    let nv = |args: &'static [&'static str], input: PathBuf, with_surface: Option<bool>| {
        let (bin, surf) = (bin.to_path_buf(), surf.clone());
        Box::new(move |out: &Path| {
            let mut c = Command::new(&bin);
            c.args(args);
            if let Some(mt) = with_surface {
                surf(&mut c, mt);
            }
            c.arg("--input").arg(&input).arg("--output").arg(out);
            c.stdout(Stdio::null()).stderr(Stdio::null());
            c
        }) as Box<dyn Fn(&Path) -> Command>
    };
    let (dump, lin, png) = (dir.join("dump.bin"), dir.join("lin.bin"), dir.join("in.png"));
    let cat = |sync: bool, dump: PathBuf| {
        Box::new(move |out: &Path| {
            let mut c = Command::new("sh");
            let script = if sync { "cat \"$1\" > \"$2\" && sync \"$2\"" } else { "cat \"$1\" > \"$2\"" };
            c.args(["-c", script, "sh"]).arg(&dump).arg(out);
            c
        }) as Box<dyn Fn(&Path) -> Command>
    };
    let convert_size = format!("{side}x{side}");
    let convert = {
        let (bin, lin) = (bin.to_path_buf(), lin.clone());
        Box::new(move |out: &Path| {
            let mut c = Command::new(&bin);
            c.args(["convert", "--format", "RGBA8_UNORM", "--size", &convert_size, "--png-compression", "fast"]);
            c.arg("--input").arg(&lin).arg("--output").arg(out);
            c.stdout(Stdio::null()).stderr(Stdio::null());
            c
        }) as Box<dyn Fn(&Path) -> Command>
    };
    vec![
        Row { op: "cat", cmd: cat(false, dump.clone()) },
        Row { op: "cat+fsync", cmd: cat(true, dump.clone()) },
        Row { op: "untile-raw", cmd: nv(&["untile"], dump.clone(), Some(false)) },
        Row { op: "tile-raw", cmd: nv(&["tile"], lin, Some(false)) },
        Row { op: "untile-png-fast", cmd: nv(&["untile", "--png-compression", "fast"], dump.clone(), Some(false)) },
        Row { op: "untile-png-fast-mt", cmd: nv(&["untile", "--png-compression", "fast"], dump, Some(true)) },
        Row { op: "tile-png", cmd: nv(&["tile"], png, Some(false)) },
        Row { op: "convert-raw-png-fast", cmd: convert },
    ]
}

/// The median of `v` (not empty).
fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.total_cmp(b));
    s[s.len() / 2]
}

/// Runs the e2e cases `only` names (`e2e` or `e2e-8192`, `e2e-16384`), a line per row unless
/// `json_out`, appending JSON rows to `rows_out`.
pub fn run(only: Option<&String>, quick: bool, json_out: bool, rows_out: &mut Vec<Value>) {
    let side = match only.map(String::as_str) {
        Some("e2e" | "e2e-8192") => 8192u32,
        Some("e2e-16384") => 16384,
        _ => return,
    };
    let Some(bin) = nvsurf_binary() else {
        if !json_out {
            say!("e2e cases: skipped (no nvsurf binary beside this one: cargo build --release -p nvsurf-cli)");
        }
        return;
    };
    let dir = std::env::temp_dir().join(format!("nvsurf-bench-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    make_dump(&bin, side, &dir.join("picture.raw"), &dir.join("dump.bin"));
    let rows = rows(&bin, side, &dir);
    // The inputs of the tile rows: the linear file and the PNG of the same surface.
    for (op, name) in [("untile-raw", "lin.bin"), ("untile-png-fast", "in.png")] {
        let row = rows.iter().find(|r| r.op == op).expect("row");
        timed(&mut (row.cmd)(&dir.join(name)));
    }
    let rounds = if side > 8192 || quick { 1 } else { 3 };
    let mut secs = vec![Vec::new(); rows.len()];
    let mut peak = vec![0u64; rows.len()];
    for _ in 0..rounds {
        for (i, row) in rows.iter().enumerate() {
            let out =
                dir.join(if row.op.contains("png") && !row.op.starts_with("tile") { "out.png" } else { "out.bin" });
            let _ = std::fs::remove_file(&out);
            let (t, m) = timed(&mut (row.cmd)(&out));
            secs[i].push(t);
            peak[i] = peak[i].max(m);
        }
    }
    let ratio_to = |i: usize, base: usize| -> f64 {
        let r: Vec<f64> = secs[i].iter().zip(&secs[base]).map(|(a, b)| a / b).collect();
        median(&r)
    };
    let raw = rows.iter().position(|r| r.op == "untile-raw").expect("row");
    for (i, row) in rows.iter().enumerate() {
        let (t, rc, rr) = (median(&secs[i]), ratio_to(i, 0), ratio_to(i, raw));
        let target = match row.op {
            "untile-raw" | "tile-raw" => Some(("cat", 1.5, rc)),
            "untile-png-fast" => Some(("untile-raw", 2.0, rr)),
            _ => None,
        };
        let mem_ok = row.op.starts_with("cat") || peak[i] <= PEAK_TARGET_BYTES;
        if !json_out {
            let tgt = target.map_or(String::new(), |(of, x, r)| {
                format!(" (target <= {x}x {of}: {})", if r <= x { "met" } else { "NOT MET" })
            });
            say!(
                "e2e-{side} {:<22} {t:.3} s  {rc:.2}x cat  {rr:.2}x untile-raw  peak {:.0} MiB{tgt}{}",
                row.op,
                peak[i] as f64 / f64::from(1u32 << 20),
                if mem_ok { "" } else { " (peak above 128 MiB)" }
            );
        }
        rows_out.push(json!({
            "case": format!("e2e-{side}"), "op": row.op,
            "threads": if row.op.ends_with("-mt") || row.op.starts_with("convert") { Value::Null } else { json!(1) }, "rounds": rounds,
            "bytes": u64::from(side) * u64::from(side) * 4, "seconds": t, "seconds_all": secs[i],
            "peak_bytes": peak[i], "ratio_cat": rc, "ratio_raw": rr,
            "target": target.map(|(of, x, _)| json!({"of": of, "at_most": x})),
            "time_target_met": target.map(|(_, x, r)| r <= x),
            "memory_target_met": mem_ok,
        }));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
