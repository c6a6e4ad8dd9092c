"""The H100 captures untiled through Python with nothing but the GPU (and the format) give the
linear patterns the captures were written with (docs/HARDWARE.md)."""

import numpy as np
import pytest

import nvsurf
from conftest import cuda_elements, gunzip, index

CUDA = index("gh100/index.jsonl")


def cuda_case(v: dict):
    flags, d = v["flags"], v["d"]
    if flags == 0:
        return ("3d", d, 1) if d > 1 else ("2d", 1, 1)
    return {1: ("2d_array", 1, d), 4: ("cube", 1, d), 5: ("cube_array", 1, d)}[flags]


@pytest.mark.parametrize("v", CUDA, ids=[v["name"] for v in CUDA])
def test_cuda_arrays_untile_to_their_pattern(v):
    ty, depth, layers = cuda_case(v)
    what = {(4, 8): {"format": "bc1"}, (4, 16): {"format": "bc7"}}.get((v["bc"], v["elem"]), {"elem_size": v["elem"]})
    tex = nvsurf.Texture(
        "gh100", size=(v["w"], v["h"], depth), type=ty, levels=v["levels"], layers=layers, **what
    )
    dump = gunzip(f"gh100/{v['name']}.bin.gz")
    assert len(dump) == v["dump_size"]
    # The model's size rounded up to the driver's 64 KiB alignment is the driver's size.
    assert -(-tex.size_bytes // v["req_align"]) * v["req_align"] == v["req_size"]
    parts = []
    bc = v["bc"]
    for layer in range(layers):
        for lv in range(v["levels"]):
            lw, lh, ld = max(v["w"] >> lv, 1), max(v["h"] >> lv, 1), max(depth >> lv, 1)
            z, y, x = np.meshgrid(np.arange(ld), np.arange(-(-lh // bc)), np.arange(-(-lw // bc)), indexing="ij")
            zs = np.full(x.size, layer) if layers > 1 else z.ravel()
            parts.append(cuda_elements(lv, x.ravel(), y.ravel(), zs, v["elem"]).ravel())
    want = np.concatenate(parts)
    got = tex.untile(dump)
    assert got.dtype == np.uint8 and got.shape == (tex.linear_size_bytes,)
    assert np.array_equal(got, want), f"first difference at {np.flatnonzero(got != want)[:1]}"


def test_r4_64x64_with_only_the_gpu():
    """The issue's example: gh100/r4_64x64 untiled with only the GPU and the element size."""
    tex = nvsurf.Texture("gh100", elem_size=4, size=(64, 64))
    got = tex.untile(gunzip("gh100/r4_64x64.bin.gz")).view("<u4").reshape(64, 64)
    y, x = np.mgrid[0:64, 0:64]
    assert np.array_equal(got, (x | y << 16).astype(np.uint32))
    # The same dump through the documents' VM order does not give the pattern.
    vm = nvsurf.Texture("gh100", elem_size=4, size=(64, 64), gob="vm").untile(gunzip("gh100/r4_64x64.bin.gz"))
    assert not np.array_equal(vm.view("<u4").reshape(64, 64), got)


VULKAN = {v["name"]: v for v in index("gh100-vulkan/index.jsonl")}


def vk_levels(w, h, levels, pixel):
    out = []
    for lv in range(levels):
        y, x = np.mgrid[0 : max(h >> lv, 1), 0 : max(w >> lv, 1)]
        out.append(pixel(x.astype(np.uint32), y.astype(np.uint32), lv).ravel().view(np.uint8))
    return np.concatenate(out)


@pytest.mark.parametrize(
    "name,fmt,pixel",
    [
        ("vk_rgba8_256x256_l9", "A8B8G8R8", lambda x, y, lv: ((x & 0xFFFF) | (y & 0xFFF) << 16 | lv << 28).astype("<u4")),
        ("vk_d16_256x256_l9", "Z16", lambda x, y, lv: ((x & 0xFF) | (y & 0xFF) << 8).astype("<u2")),
        (
            "vk_d32f_300x200",
            "Z32",
            lambda x, y, lv: (((x & 0xFFF) | (y & 0xFFF) << 12 | lv << 22) / 2.0**24).astype("<f4"),
        ),
    ],
)
def test_vulkan_images_untile_with_the_formats_gob_order(name, fmt, pixel):
    v = VULKAN[name]
    tex = nvsurf.Texture("gh100", format=fmt, size=(v["w"], v["h"]), levels=v["levels"])
    assert tex.size_bytes == v["size"]
    got = tex.untile(gunzip(f"gh100-vulkan/{name}.bin.gz"))
    assert np.array_equal(got, vk_levels(v["w"], v["h"], v["levels"], pixel))
    # Tiling the pattern back gives the capture's bytes where the image lies.
    dump = np.frombuffer(gunzip(f"gh100-vulkan/{name}.bin.gz"), dtype=np.uint8)
    assert np.array_equal(nvsurf.Texture("gh100", format=fmt, size=(v["w"], v["h"]), levels=v["levels"]).untile(tex.tile(got)), got)
    assert dump.size >= tex.size_bytes
