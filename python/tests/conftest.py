"""Shared helpers: the installed nvsurf wheel (never the source folder beside these tests), the
hardware captures of crates/nvsurf/tests/data/hardware, and their patterns (docs/HARDWARE.md)."""

import gzip
import json
import os
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
HARDWARE = ROOT / "crates" / "nvsurf" / "tests" / "data" / "hardware"

# python/ holds the package's source (no native module): import the installed wheel.
_src = str(ROOT / "python")
sys.path = [p for p in sys.path if os.path.abspath(p or os.curdir) != _src]


def gunzip(rel: str) -> bytes:
    return gzip.decompress((HARDWARE / rel).read_bytes())


def index(rel: str) -> list[dict]:
    return [json.loads(line) for line in (HARDWARE / rel).read_text().splitlines() if line.strip()]


def splitmix64(z: np.ndarray) -> np.ndarray:
    """splitmix64 over a uint64 array (numpy's uint64 arithmetic wraps)."""
    z = z + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def cuda_elements(level: int, xs, ys, zs, elem: int) -> np.ndarray:
    """The CUDA captures' elements (docs/HARDWARE.md, "Patterns"): (N, elem) bytes."""
    x, y, z = (np.asarray(a, dtype=np.uint64) for a in (xs, ys, zs))
    ident = ((np.uint64(level) * np.uint64(4096) + z) * np.uint64(65536) + y) * np.uint64(65536) + x
    r = splitmix64(ident)
    out = np.empty((ident.size, elem), dtype=np.uint8)
    for k in range(0, elem, 8):
        if k:
            r = splitmix64(r)
        n = min(8, elem - k)
        out[:, k : k + n] = r.astype("<u8").view(np.uint8).reshape(-1, 8)[:, :n]
    if elem >= 4:
        tag = (x & np.uint64(0xFFFF)) | (y & np.uint64(0xFFF)) << np.uint64(16) | (z & np.uint64(15)) << np.uint64(28)
        out[:, :4] = tag.astype("<u4").view(np.uint8).reshape(-1, 4)
    return out
