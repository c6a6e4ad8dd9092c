#!/usr/bin/env python3
"""The code-shape limits of issue #38 (item 7), checked on every source file:

- no `fn` over 100 lines outside `#[cfg(test)]` code (tables are const/static data, not
  functions), in crates/*/src, python/src and fuzz/src;
- no source file over 800 lines;
- at most 20 `pub mod` lines in crates/nvsurf/src (nested ones included).

The limits are not met everywhere yet: the functions and files that broke them when this check
was written are listed in scripts/code_limits_known.txt with their length then. Each may only
shrink (a listed item that grows fails), and anything not listed must keep the limits, so the
list can only get shorter. `--report` prints every item over a limit without failing;
`--update` rewrites the list from today's code (after a clean-up, to drop fixed items).
Exit 1 names each new or grown item.
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
FN_LIMIT, FILE_LIMIT, PUB_MOD_LIMIT = 100, 800, 20
KNOWN = os.path.join(ROOT, "scripts", "code_limits_known.txt")
FN_RE = re.compile(r'^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?(extern\s+"C"\s+)?fn\s+(\w+)')


def source_files():
    dirs = [os.path.join("crates", c, "src") for c in sorted(os.listdir(os.path.join(ROOT, "crates")))]
    dirs += ["crates/nvsurf-capi/core/src", "python/src", "fuzz/src", "fuzz/fuzz_targets"]
    for d in dirs:
        for base, _, names in os.walk(os.path.join(ROOT, d)):
            for n in sorted(names):
                if n.endswith(".rs"):
                    yield os.path.relpath(os.path.join(base, n), ROOT)


def code_only(line):
    """The line without string and char literals and comments (so braces in them don't count)."""
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    line = re.sub(r"'(\\.|[^'\\])'", "''", line)
    return line.split("//")[0]


def functions(path):
    """(name, first line, length in lines) of every fn outside #[cfg(test)] items."""
    lines = open(os.path.join(ROOT, path), encoding="utf-8").read().split("\n")
    out, i, test_attr = [], 0, False
    while i < len(lines):
        text = lines[i]
        if re.match(r"^\s*#\[cfg\(test\)\]", text):
            test_attr = True
            i += 1
            continue
        m = FN_RE.match(text)
        opens = code_only(text).count("{")
        if test_attr and (m or re.match(r"^\s*(pub(\([^)]*\))?\s+)?mod\s+\w+\s*\{", text) or opens):
            i = skip_item(lines, i)
            test_attr = False
            continue
        if m:
            end = skip_item(lines, i)
            out.append((m.group(7), i + 1, end - i))
            i = end
            continue
        if text.strip() and not text.strip().startswith("#"):
            test_attr = False
        i += 1
    return out


def skip_item(lines, i):
    """The index after the item starting at line i (its braces balanced, or a `;` before any)."""
    depth, seen = 0, False
    while i < len(lines):
        c = code_only(lines[i])
        if not seen and ";" in c and "{" not in c:
            return i + 1
        depth += c.count("{") - c.count("}")
        seen = seen or "{" in c
        i += 1
        if seen and depth <= 0:
            return i
    return i


def measure():
    items = {}
    pub_mods = 0
    for path in source_files():
        n = len(open(os.path.join(ROOT, path), encoding="utf-8").read().rstrip("\n").split("\n"))
        if n > FILE_LIMIT:
            items[f"file {path}"] = n
        for name, line, length in functions(path):
            if length > FN_LIMIT:
                key = f"fn {path}::{name}"
                items[key] = max(items.get(key, 0), length)
        if path.startswith(os.path.join("crates", "nvsurf", "src")):
            pub_mods += sum(1 for l in open(os.path.join(ROOT, path)) if re.match(r"^\s*pub mod \w+", l))
    items["pub mod lines in crates/nvsurf/src"] = pub_mods
    return items


def limit_of(key):
    if key.startswith("file "):
        return FILE_LIMIT
    if key.startswith("fn "):
        return FN_LIMIT
    return PUB_MOD_LIMIT


def main():
    items = measure()
    over = {k: v for k, v in items.items() if v > limit_of(k)}
    if "--report" in sys.argv:
        for k, v in sorted(over.items(), key=lambda kv: -kv[1]):
            print(f"{v:6}  {k}  (limit {limit_of(k)})")
        longest = max((n, f"{p}::{f}") for p in source_files() for f, _, n in functions(p))
        print(f"longest fn: {longest[1]}, {longest[0]} lines; pub mod lines: {items['pub mod lines in crates/nvsurf/src']}")
        return 0
    if "--update" in sys.argv:
        with open(KNOWN, "w") as f:
            f.write("# Items over the limits of scripts/code_limits.py when it was last updated; each may only shrink.\n")
            for k, v in sorted(over.items()):
                f.write(f"{v}\t{k}\n")
        print(f"wrote {len(over)} items to {os.path.relpath(KNOWN, ROOT)}")
        return 0
    known = {}
    for line in open(KNOWN, encoding="utf-8"):
        if line.strip() and not line.startswith("#"):
            v, k = line.rstrip("\n").split("\t", 1)
            known[k] = int(v)
    bad = []
    for k, v in sorted(over.items()):
        if k not in known:
            bad.append(f"{k}: {v} lines, over the limit of {limit_of(k)}")
        elif v > known[k]:
            bad.append(f"{k}: grew from {known[k]} to {v} (limit {limit_of(k)}); it may only shrink")
    for b in bad:
        print(f"error: {b}", file=sys.stderr)
    fixed = [k for k in known if k not in over]
    print(f"code limits: {len(over)} items over a limit, all listed and none grown" if not bad else
          f"code limits: {len(bad)} new or grown items")
    if fixed:
        print(f"now within the limits (drop them with --update): {', '.join(sorted(fixed))}")
    return 1 if bad else 0


sys.exit(main())
