#!/usr/bin/env python3
"""Two builds of the benchmark, run alternately in one sitting, compared case by case.

    python3 scripts/bench_compare.py OLD_BENCH NEW_BENCH [ROUNDS] [-- BENCH_FLAGS...]

Each round runs OLD then NEW with `--json` (default flags `--quick`); the table gives, per case
(case, op, threads), the median over the rounds of each build's `ratio_memcpy_paired` (its speed
over a memcpy of the same bytes within the same run) and the difference new - old. Build the
two with `cargo build --release -p nvsurf-bench` at each commit (CARGO_TARGET_DIR apart)."""
import json, statistics, subprocess, sys

args = sys.argv[1:]
flags = ["--quick"]
if "--" in args:
    i = args.index("--")
    args, flags = args[:i], args[i + 1:]
old, new = args[0], args[1]
rounds = int(args[2]) if len(args) > 2 else 3
res = {"old": {}, "new": {}}
for r in range(rounds):
    for name, exe in (("old", old), ("new", new)):
        out = subprocess.run([exe, "--json"] + flags, capture_output=True, text=True, check=True).stdout
        for row in json.loads(out):
            v = row.get("ratio_memcpy_paired")
            if v is None:
                continue
            key = (row["case"], row["op"], row["threads"])
            res[name].setdefault(key, []).append(v)
    print(f"round {r + 1}/{rounds} done", file=sys.stderr, flush=True)
print("| case | op | threads | old paired | new paired | new - old |")
print("|---|---|---|---|---|---|")
worst = None
for key in sorted(set(res["old"]) & set(res["new"])):
    o, n = statistics.median(res["old"][key]), statistics.median(res["new"][key])
    d = n - o
    worst = d if worst is None or d < worst else worst
    print(f"| {key[0]} | {key[1]} | {key[2]} | {o:.3f} | {n:.3f} | {d:+.3f} |")
print(f"\nlargest drop: {worst:+.3f} ({rounds} rounds of each, alternating)")
