#!/usr/bin/env python3
"""End-to-end timings and peak memory of whole `nvsurf` commands (issue #39, item 4).

    python3 scripts/e2e_bench.py target/release/nvsurf [--mib 256] [--runs 3] [--dir /tmp]

Writes a random dump of MIB MiB (an 8192-wide RGBA8 surface on GH100) into a scratch directory,
then runs, alternately in each round so that the machine's load falls on all of them alike:

- `cat SRC > DST` of the same bytes (the baseline: both files in the page cache), and the same
  followed by `sync DST` (`cat+fsync`: nvsurf syncs every output before renaming it over the
  old one, so that a power cut leaves the old file or the new, never a torn one);
- `untile` and `tile` to and from a raw file, `--threads 1`;
- `untile` to PNG and `tile` from it, `--png-compression fast`;
- `convert` of the raw linear file to PNG.

Every output is removed before its command runs (a fresh file, as `cat` gets), and `sync`
runs before each command, so that no command pays for the previous one's dirty pages. Each row gives
the median, minimum and maximum wall time, the median ratios to `cat` and to `cat+fsync` of the
same round, and the largest peak resident memory (the process's own `ru_maxrss`, read with
`wait4`; about 16 MiB is the floor of the forked interpreter, as the cat rows show). Scratch files
are removed at the end. Nothing here is run by CI.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


def run(argv, stdout=None):
    """Runs argv; (wall seconds, peak RSS in MiB). Fails loudly on a non-zero exit."""
    start = time.perf_counter()
    p = subprocess.Popen(argv, stdout=stdout, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(argv)} failed: {err}")
    return wall, usage.ru_maxrss / 1024.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("nvsurf")
    ap.add_argument("--mib", type=int, default=256)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--dir", default=None)
    args = ap.parse_args()
    width = 8192
    height = args.mib * (1 << 20) // (width * 4)
    surf = ["--gpu", "gh100", "--format", "R8G8B8A8_UNORM", "--size", f"{width}x{height}"]
    with tempfile.TemporaryDirectory(dir=args.dir, prefix="nvsurf-e2e-") as tmp:
        p = lambda name: os.path.join(tmp, name)
        with open(p("dump.bin"), "wb") as f:
            for _ in range(args.mib):
                f.write(os.urandom(1 << 20))
        nv = args.nvsurf
        # The linear file and the PNG the tile rows read.
        run([nv, "untile", *surf, "--input", p("dump.bin"), "--output", p("lin.bin")])
        run([nv, "untile", *surf, "--png-compression", "fast", "--input", p("dump.bin"), "--output", p("in.png")])
        rows = {
            "cat": None,
            "cat+fsync": "sync",
            "untile raw": [nv, "untile", *surf, "--threads", "1", "--input", p("dump.bin"), "--output", p("out")],
            "tile raw": [nv, "tile", *surf, "--threads", "1", "--input", p("lin.bin"), "--output", p("out")],
            "untile png fast": [nv, "untile", *surf, "--threads", "1", "--png-compression", "fast",
                                "--input", p("dump.bin"), "--output", p("out.png")],
            "tile png": [nv, "tile", *surf, "--threads", "1", "--input", p("in.png"), "--output", p("out")],
            "convert raw to png": [nv, "convert", "--format", "R8G8B8A8_UNORM", "--size", f"{width}x{height}",
                                   "--input", p("lin.bin"), "--output", p("out.png")],
        }
        times = {k: [] for k in rows}
        peaks = {k: 0.0 for k in rows}
        ratios = {k: [] for k in rows}
        for _ in range(args.runs):
            for name, argv in rows.items():
                for out in ("out", "out.png"):
                    if os.path.exists(p(out)):
                        os.remove(p(out))
                os.sync()
                if argv is None or argv == "sync":
                    start = time.perf_counter()
                    with open(p("out"), "wb") as dst:
                        wall, peak = run(["cat", p("dump.bin")], stdout=dst)
                        if argv == "sync":
                            os.fsync(dst.fileno())
                    wall = time.perf_counter() - start
                else:
                    wall, peak = run(argv)
                times[name].append(wall)
                peaks[name] = max(peaks[name], peak)
            for name in rows:
                ratios[name].append((times[name][-1] / times["cat"][-1], times[name][-1] / times["cat+fsync"][-1]))
        print(f"{args.mib} MiB surface ({width}x{height} RGBA8, GH100 blocklinear), {args.runs} rounds")
        print(f"| row | median s | min s | max s | x cat | x cat+fsync | peak MiB |")
        print("|---|---|---|---|---|---|---|")
        for name in rows:
            t = times[name]
            rc = statistics.median(r[0] for r in ratios[name])
            rf = statistics.median(r[1] for r in ratios[name])
            print(f"| {name} | {statistics.median(t):.3f} | {min(t):.3f} | {max(t):.3f} | {rc:.2f} | {rf:.2f} "
                  f"| {peaks[name]:.1f} |")


if __name__ == "__main__":
    main()
