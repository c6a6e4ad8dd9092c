"""One record per result (#38 item 2): `nvsurf layout --json` and `nvsurf.layout()` are the
library's `SurfaceRecord`, `nvsurf texture --json` and `nvsurf.Texture(...).summary()` its
`TextureRecord` with `LevelRecord`s (also `Texture.levels`), and both print what was assumed
(`Assumed::fields`); `nvsurf texture --at L,LAYER,Z --json` and `Texture.subresource()` are its
`SubresourceRecord`. Per record the key sets are equal, the CLI's deprecated duplicate keys
(crates/nvsurf-cli/src/keys.rs) left out, and so are the values. The CLI is the debug binary
named by NVSURF_CLI (scripts/test.sh sets it)."""

import json
import os
import pathlib
import re
import subprocess

import nvsurf

KEYS_RS = pathlib.Path(__file__).resolve().parents[2] / "crates" / "nvsurf-cli" / "src" / "keys.rs"
ASSUMED = {"gob_order", "gob_order_source", "block_policy", "block_policy_source"}


def cli() -> str:
    path = os.environ.get("NVSURF_CLI")
    assert path, "NVSURF_CLI must name the nvsurf binary (scripts/test.sh sets it: target/debug/nvsurf)"
    assert os.access(path, os.X_OK), f"NVSURF_CLI={path} is not an executable"
    return path


def deprecated(name: str) -> set[str]:
    """The old keys of `pub const NAME` in keys.rs: the CLI keeps them, Python need not."""
    text = KEYS_RS.read_text()
    m = re.search(rf"pub const {name}: &\[\(&str, &str\)\] =(.*?);", text, re.S)
    assert m, f"keys.rs has no {name}"
    return {old for old, _ in re.findall(r'\("(\w+)",\s*"(\w+)"\)', m.group(1))}


def run_json(*args: str) -> dict:
    out = subprocess.run([cli(), *args, "--json"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def plain(v):
    """JSON has lists where Python has tuples."""
    if isinstance(v, tuple):
        return [plain(x) for x in v]
    if isinstance(v, list):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    return v


def same_record(from_cli: dict, from_py: dict, old: set[str], what: str):
    c = {k: v for k, v in from_cli.items() if k not in old}
    p = {k: v for k, v in plain(from_py).items() if k not in old}
    assert set(c) == set(p), (what, sorted(set(c) - set(p)), sorted(set(p) - set(c)))
    for k in c:
        if isinstance(c[k], (int, float, str, bool, list)) or c[k] is None:
            assert c[k] == p[k], (what, k, c[k], p[k])
    assert ASSUMED <= set(c) or what.startswith(("level", "subresource")), (what, "assumed keys missing")


SURFACES = [
    # (gpu, CLI flags, Python keyword arguments)
    ("gm20b", ["--format", "RGBA8_UNORM", "--size", "100x50"], {"format": "RGBA8_UNORM", "size": (100, 50)}),
    ("gh100", ["--format", "A8B8G8R8", "--size", "300x200x3"], {"format": "A8B8G8R8", "size": (300, 200, 3)}),
    (
        "gf100",
        ["--elem-size", "4", "--size", "300x200", "--block-log2", "0,5,0", "--binding", "texture", "--gob", "tegra"],
        {"elem_size": 4, "size": (300, 200), "block_log2": (0, 5, 0), "binding": "texture", "gob": "tegra"},
    ),
    ("g80", ["--layout", "pitch", "--elem-size", "4", "--size", "10x5"], {"layout": "pitch", "elem_size": 4, "size": (10, 5)}),
    ("gm20b", ["--layout", "pitch", "--format", "RGBA8_UNORM", "--size", "33x7"], {"layout": "pitch", "format": "RGBA8_UNORM", "size": (33, 7)}),
    # #40: eight samples, the size in pixels.
    ("ga102", ["--format", "R32G32_FLOAT", "--size", "3x14", "--samples", "8"], {"format": "R32G32_FLOAT", "size": (3, 14), "samples": 8}),
    ("nv40", ["--elem-size", "4", "--size", "16x16"], {"elem_size": 4, "size": (16, 16)}),
]

TEXTURES = [
    ("gm20b", ["--format", "RGBA8_UNORM", "--size", "64x32", "--levels", "4"], {"format": "RGBA8_UNORM", "size": (64, 32), "levels": 4}),
    ("gh100", ["--format", "BC1", "--size", "128x64", "--levels", "5"], {"format": "BC1", "size": (128, 64), "levels": 5}),
    ("gh100", ["--format", "A8B8G8R8", "--type", "cube", "--size", "32x32", "--levels", "3"], {"format": "A8B8G8R8", "type": "cube", "size": (32, 32), "levels": 3}),
    ("gf100", ["--elem-size", "4", "--type", "3d", "--size", "16x16x8", "--levels", "2"], {"elem_size": 4, "type": "3d", "size": (16, 16, 8), "levels": 2}),
    ("g80", ["--format", "RGBA8_UNORM", "--layout", "pitch", "--size", "40x30"], {"format": "RGBA8_UNORM", "layout": "pitch", "size": (40, 30)}),
    ("nv40", ["--elem-size", "4", "--size", "16x16", "--levels", "3"], {"elem_size": 4, "size": (16, 16), "levels": 3}),
    # #40: samples, NVK's sizes and alignment, sparse.
    ("ga102", ["--format", "R32G32_FLOAT", "--size", "3x14", "--samples", "8", "--block-policy", "nvk"], {"format": "R32G32_FLOAT", "size": (3, 14), "samples": 8, "block_policy": "nvk"}),
    ("tu102", ["--format", "RGBA8_UNORM", "--size", "1000x700", "--levels", "10", "--sparse"], {"format": "RGBA8_UNORM", "size": (1000, 700), "levels": 10, "sparse": True}),
]


def test_surface_summary_is_one_record():
    old = deprecated("SURFACE")
    layouts = set()
    for gpu, flags, kwargs in SURFACES:
        from_cli = run_json("layout", "--gpu", gpu, *flags)
        from_py = nvsurf.layout(gpu, **kwargs)
        layouts.add(from_cli["layout"])
        same_record(from_cli, from_py, old, f"surface {gpu} {flags}")
        # The deprecated keys the CLI keeps carry the new keys' values.
        assert from_cli["elem_size"] == from_cli["elem_size_bytes"] and from_cli["size"] == from_cli["size_elements"]
    assert layouts == {"blocklinear", "pitch", "swizzled"}


def test_texture_summary_and_levels_are_one_record():
    old_texture, old_level = deprecated("TEXTURE"), deprecated("LEVEL")
    types = set()
    for gpu, flags, kwargs in TEXTURES:
        from_cli = run_json("texture", "--gpu", gpu, *flags)
        t = nvsurf.Texture(gpu, **kwargs)
        from_py = t.summary()
        types.add((from_cli["type"], from_cli["layout"]))
        what = f"texture {gpu} {flags}"
        same_record(
            {k: v for k, v in from_cli.items() if k != "levels"},
            {k: v for k, v in from_py.items() if k != "levels"},
            old_texture,
            what,
        )
        assert len(from_cli["levels"]) == len(from_py["levels"]) == len(t.levels) == kwargs.get("levels", 1)
        for i, (c, p, attr) in enumerate(zip(from_cli["levels"], from_py["levels"], t.levels)):
            assert p == attr
            same_record(c, p, old_level, f"level {i} of {what}")
        # What was assumed is the Texture's attributes too.
        assert {k: getattr(t, k) for k in ASSUMED} == {k: from_cli[k] for k in ASSUMED}
        for k in ("size_bytes", "layer_stride_bytes", "linear_size_bytes", "elem_size_bytes", "layers", "layout", "format", "is_srgb"):
            assert getattr(t, k) == from_py[k], k
    assert {"cube", "3d", "2d"} <= {ty for ty, _ in types}
    assert {"blocklinear", "pitch", "swizzled"} <= {lay for _, lay in types}


def test_subresource_is_one_record():
    old = deprecated("SUBRESOURCE")
    for gpu, flags, kwargs in TEXTURES:
        t = nvsurf.Texture(gpu, **kwargs)
        last_level = kwargs.get("levels", 1) - 1
        for level, layer in {(0, 0), (last_level, t.layers - 1)}:
            depth = t.levels[level]["size_elements"][2]
            for z in {0, depth - 1}:
                from_cli = run_json("texture", "--gpu", gpu, *flags, "--at", f"{level},{layer},{z}")
                from_py = t.subresource(level, layer, z)
                same_record(from_cli, from_py, old, f"subresource {level},{layer},{z} of {gpu} {flags}")
                assert from_py["elements"] == from_py["size_elements"]
