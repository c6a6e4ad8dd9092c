"""Untile speed through Python against the Rust front door (target: >= 0.95x).

A 2048x2048 RGBA8 texture on a Tegra GPU (gm20b: the Tegra gob order, NVIDIA's block policy),
one thread. Each round times `tex.untile(dump)` (wall clock around the Python call: argument
parsing, buffer export, numpy allocation, the copy) and `nvsurf._rust_untile_ns` (the Rust
`Texture::untile_to_buf` timed inside Rust); both allocate their output. The order inside a
round alternates; the figure is the median over rounds of rust_time / python_time (1.0 =
the same speed, above 1 = Python faster).

    python python/bench_untile.py [--rounds N] [--size W] [--gpu NAME] [--threads N] [--json]
"""

import argparse
import json
import statistics
import sys
import time

import os

import numpy as np

# This script sits beside the package's source folder (python/nvsurf), which has no native
# module: import the installed wheel instead.
_here = os.path.dirname(os.path.abspath(__file__))
sys.path = [p for p in sys.path if os.path.abspath(p or os.curdir) != _here]
import nvsurf  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=41)
    ap.add_argument("--size", type=int, default=2048, help="width and height in pixels")
    ap.add_argument("--gpu", default="gm20b")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--target", type=float, default=0.95, help="exit 1 below this ratio")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()

    tex = nvsurf.Texture(a.gpu, format="RGBA8_UNORM", size=(a.size, a.size))
    dump = np.random.default_rng(29).integers(0, 256, tex.size_bytes, dtype=np.uint8)

    def python_ns() -> int:
        t0 = time.perf_counter_ns()
        out = tex.untile(dump, threads=a.threads)
        t1 = time.perf_counter_ns()
        del out
        return t1 - t0

    def rust_ns() -> int:
        return nvsurf._rust_untile_ns(tex, dump, threads=a.threads)

    # Warm-up: page in the dump, the code and the allocator.
    for _ in range(3):
        python_ns()
        rust_ns()
    py_t, rs_t, ratios = [], [], []
    for r in range(a.rounds):
        if r % 2 == 0:
            p, q = python_ns(), rust_ns()
        else:
            q, p = rust_ns(), python_ns()
        py_t.append(p)
        rs_t.append(q)
        ratios.append(q / p)
    mib = tex.linear_size_bytes / 2**20
    res = {
        "case": f"untile {a.size}x{a.size} RGBA8 {a.gpu} threads={a.threads}",
        "rounds": a.rounds,
        "python_median_ms": statistics.median(py_t) / 1e6,
        "rust_median_ms": statistics.median(rs_t) / 1e6,
        "python_gib_s": mib / 1024 / (statistics.median(py_t) / 1e9),
        "rust_gib_s": mib / 1024 / (statistics.median(rs_t) / 1e9),
        "paired_ratio_median": statistics.median(ratios),
        "paired_ratio_min": min(ratios),
        "paired_ratio_max": max(ratios),
        "target": a.target,
    }
    if a.json:
        print(json.dumps(res, indent=2))
    else:
        print(res["case"], f"({a.rounds} alternating rounds, {mib:.0f} MiB out)")
        print(f"  python tex.untile     median {res['python_median_ms']:.3f} ms  {res['python_gib_s']:.2f} GiB/s")
        print(f"  rust untile_to_buf    median {res['rust_median_ms']:.3f} ms  {res['rust_gib_s']:.2f} GiB/s")
        print(
            f"  python speed / rust speed, median of paired rounds: {res['paired_ratio_median']:.3f}"
            f" (min {res['paired_ratio_min']:.3f}, max {res['paired_ratio_max']:.3f}); target >= {a.target}: "
            + ("met" if res["paired_ratio_median"] >= a.target else "NOT MET")
        )
    return 0 if res["paired_ratio_median"] >= a.target else 1


if __name__ == "__main__":
    sys.exit(main())
