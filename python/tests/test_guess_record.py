"""One record per result: `nvsurf guess --json`'s candidates and `nvsurf.guess`'s dicts are the
same record (`nvsurf::identify::CandidateRecord`), with the same keys and values. The CLI is the
debug binary named by NVSURF_CLI (scripts/test.sh sets it)."""

import json
import os
import subprocess

import numpy as np

import nvsurf

W, H = 64, 32


def cli() -> str:
    path = os.environ.get("NVSURF_CLI")
    assert path, "NVSURF_CLI must name the nvsurf binary (scripts/test.sh sets it: target/debug/nvsurf)"
    assert os.access(path, os.X_OK), f"NVSURF_CLI={path} is not an executable"
    return path


def dump() -> bytes:
    """A small smooth picture tiled as a Tegra blocklinear surface, after 256 zero bytes."""
    y, x = np.mgrid[0:H, 0:W]
    img = np.stack([x * 4, y * 8, x + y, np.full_like(x, 255)], axis=-1).astype(np.uint8).ravel()
    tiled = nvsurf.Texture("gm20b", format="RGBA8_UNORM", size=(W, H)).tile(img)
    return bytes(256) + bytes(tiled)


def cli_candidates(tmp_path, gpu: str, element: list[str]) -> list[dict]:
    f = tmp_path / "dump.bin"
    f.write_bytes(dump())
    args = [cli(), "guess", "--gpu", gpu, *element, "--size", f"{W}x{H}", "--input", str(f)]
    out = subprocess.run([*args, "--offset", "256", "--top", "0", "--json"], check=True, capture_output=True)
    return json.loads(out.stdout)["candidates"]


def py_candidates(gpu: str, **element) -> list[dict]:
    cands = nvsurf.guess(gpu, **element, size=(W, H), data=dump(), offset=256)
    # JSON has lists where Python has tuples.
    return [{k: list(v) if isinstance(v, tuple) else v for k, v in c.items()} for c in cands]


def test_cli_and_python_guess_records_have_the_same_keys_and_values(tmp_path):
    for gpu, cli_element, py_element in [
        ("gm20b", ["--format", "RGBA8_UNORM"], {"format": "RGBA8_UNORM"}),
        ("any", ["--elem-size", "4"], {"elem_size": 4}),
    ]:
        from_cli = cli_candidates(tmp_path, gpu, cli_element)
        from_py = py_candidates(gpu, **py_element)
        assert len(from_cli) == len(from_py) > 10
        # The CLI's deprecated duplicate keys (crates/nvsurf-cli/src/keys.rs) are none of the
        # candidate record's; Python does not gain them.
        keys = set(from_cli[0])
        assert "pitch_bytes" in keys and "flags" in keys
        for c, p in zip(from_cli, from_py):
            assert set(c) == keys and set(p) == keys, (sorted(set(c) ^ set(p)), c["label"])
            assert c == p
