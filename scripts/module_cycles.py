#!/usr/bin/env python3
"""Lists module import cycles in a crate's src/ (a module that imports one that imports it back).

Edges: every `crate::a::b` and `super::...` path in a file's code (tests and doc comments left
out), mapped to the longest module that exists. A parent using its child's items and the child
using the parent's items is a cycle too. Usage: scripts/module_cycles.py crates/nvsurf/src ...
Exits 1 when a cycle is found."""
import os, re, sys

def modules(src):
    mods = {}
    for dp, _, fs in os.walk(src):
        for f in fs:
            if not f.endswith('.rs'):
                continue
            rel = os.path.relpath(os.path.join(dp, f), src)[:-3].split(os.sep)
            if rel[-1] in ('mod', 'lib', 'main'):
                rel = rel[:-1]
            mods['::'.join(['crate'] + rel)] = os.path.join(dp, f)
    return mods

TEST_MOD = re.compile(r'#\[cfg\(test\)\]\s*(?:#\[[^\n]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{')

def code(path):
    s = open(path).read()
    s = '\n'.join(l for l in s.split('\n') if not l.strip().startswith('//'))
    # Every `#[cfg(test)] mod NAME { ... }`, top-level or nested, is left out (braces matched).
    while True:
        m = TEST_MOD.search(s)
        if not m:
            return s
        depth, i = 1, m.end()
        while i < len(s) and depth:
            depth += {'{': 1, '}': -1}.get(s[i], 0)
            i += 1
        s = s[:m.start()] + s[i:]

def resolve(path, mods):
    while path not in mods and '::' in path:
        path = path.rsplit('::', 1)[0]
    return path

def edges(src):
    mods = modules(src)
    out = {m: set() for m in mods}
    for m, f in mods.items():
        text = code(f)
        # `use` groups: expand `a::{b, c::d}` one level.
        paths = []
        for u in re.findall(r'\buse\s+([^;]+);', text):
            u = re.sub(r'\s+', '', u)
            g = re.match(r'(.*)::\{(.*)\}$', u)
            if g:
                for part in g.group(2).split(','):
                    paths.append(g.group(1) + '::' + part.split('::{')[0])
            else:
                paths.append(u)
        paths += re.findall(r'\b((?:crate|super)(?:::\w+)+)', text)
        parent = m.rsplit('::', 1)[0] if '::' in m else m
        for p in paths:
            p = p.split(' as ')[0]
            if p.startswith('crate::'):
                t = p
            elif p.startswith('super::'):
                base = parent
                while p.startswith('super::super::'):
                    base = base.rsplit('::', 1)[0]
                    p = p[len('super::'):]
                t = base + '::' + p[len('super::'):]
            elif p.startswith('self::'):
                t = m + '::' + p[len('self::'):]
            else:
                first = p.split('::')[0]
                if m + '::' + first in mods:
                    t = m + '::' + p
                else:
                    continue
            t = resolve(t, mods)
            if t != m and t in mods and t != 'crate':
                out[m].add(t)
    return out

def cycles(g):
    index, low, on, stack, res, n = {}, {}, set(), [], [], [0]
    def visit(v):
        index[v] = low[v] = n[0]; n[0] += 1; stack.append(v); on.add(v)
        for w in g[v]:
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                res.append(sorted(comp))
    sys.setrecursionlimit(10000)
    for v in g:
        if v not in index:
            visit(v)
    return res

bad = False
for src in sys.argv[1:]:
    cs = cycles(edges(src))
    print(f"{src}: {len(cs)} cycle(s)")
    for c in cs:
        print("  " + " <-> ".join(c))
        bad = True
sys.exit(1 if bad else 0)
