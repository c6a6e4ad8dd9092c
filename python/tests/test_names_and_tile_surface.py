"""Format names per GPU (as the CLI's --format), full names that name the same format again
(sRGB included), format_info, the CLI JSON's level keys, and tile_surface against the CLI's
bytes."""

import hashlib

import numpy as np
import pytest

import nvsurf


def pattern(n: int) -> np.ndarray:
    """byte i = (i * 131 + 7) % 251: the input the CLI hashes below were made from."""
    return ((np.arange(n, dtype=np.uint64) * 131 + 7) % 251).astype(np.uint8)


@pytest.mark.parametrize(
    "gpu,fmt,full,nbytes",
    [
        ("nv2a", "A8R8G8B8", "nv2a:A8R8G8B8", 64 * 64 * 4),
        ("nv2a", "DXT1", "nv2a:DXT1", 16 * 16 * 8),
        ("nv2a", "L8", "nv2a:L8", 64 * 64),
        ("nv2a", "A8B8G8R8", "nv2a:A8B8G8R8", 64 * 64 * 4),
        ("nv40", "A8R8G8B8", "nv40:A8R8G8B8", 64 * 64 * 4),
    ],
)
def test_pre_g80_names_resolve_for_the_gpu(gpu, fmt, full, nbytes):
    t = nvsurf.Texture(gpu, format=fmt, size=(64, 64))
    assert t.size_bytes == nbytes and t.layout == "swizzled" and t.format == full
    assert nvsurf.layout(gpu, format=fmt, size=(64, 64))["size_bytes"] == nbytes
    assert nvsurf.format_info(fmt, gpu=gpu)["name"] == full
    # The full name names the same format again, with or without the GPU.
    assert nvsurf.Texture(gpu, format=full, size=(64, 64)).format == full


def test_decode_takes_a_gpu():
    # A8R8G8B8 is B, G, R, A in memory on nv2a (NV10 texture format 0x06) and G80's
    # BGRA8_UNORM without a GPU: the same bytes either way, named differently.
    px = bytes([0x10, 0x40, 0xFF, 0x80])
    assert nvsurf.decode("A8R8G8B8", px, (1, 1), gpu="nv2a")[0, 0].tolist() == [0xFF, 0x40, 0x10, 0x80]
    assert nvsurf.decode("A8R8G8B8", px, (1, 1))[0, 0].tolist() == [0xFF, 0x40, 0x10, 0x80]
    # L8 exists only in the pre-G80 tables: (L, L, L, 1).
    assert nvsurf.decode("L8", bytes([0x80]), (1, 1), gpu="nv2a")[0, 0].tolist() == [0x80, 0x80, 0x80, 255]
    with pytest.raises(nvsurf.NvsurfError, match="L8"):
        nvsurf.decode("L8", bytes([0x80]), (1, 1))
    with pytest.raises(nvsurf.NvsurfError, match="nv9999"):
        nvsurf.decode("L8", bytes([0x80]), (1, 1), gpu="nv9999")


def test_full_names_keep_srgb_and_is_srgb_says_it():
    t = nvsurf.Texture("switch", format="bc1_srgb", size=(4, 4))
    assert t.format == "DXT1_srgb" and t.is_srgb
    assert nvsurf.Texture("switch", format=t.format, size=(4, 4)).is_srgb
    plain = nvsurf.Texture("switch", format="bc1", size=(4, 4))
    assert plain.format == "DXT1" and not plain.is_srgb
    assert not nvsurf.Texture("switch", elem_size=4, size=(4, 4)).is_srgb
    info = nvsurf.format_info("BC7_SRGB_BLOCK")
    assert info == {
        "name": "BPTC_srgb",
        "elem_size_bytes": 16, "block_width": 4, "block_height": 4,
        "is_compressed": True, "is_depth": False, "is_srgb": True,
    }
    assert nvsurf.format_info(info["name"]) == info
    for name in ["RGBA8_SRGB", "astc_8x8_srgb", "zeta:Z24_S8", "Z24_S8", "A8B8G8R8_srgb", "VK_FORMAT_BC4_SNORM_BLOCK"]:
        i = nvsurf.format_info(name)
        assert nvsurf.format_info(i["name"]) == i, name
    assert nvsurf.format_info("zeta:Z24_S8")["is_depth"]
    with pytest.raises(nvsurf.NvsurfError, match="_srgb needs"):
        nvsurf.format_info("Z16_srgb")


def test_levels_have_the_cli_json_keys_and_the_old_ones():
    t = nvsurf.Texture("switch", format="bc1_srgb", size=(64, 64), levels=2)
    l0 = t.levels[0]
    # `nvsurf texture --gpu switch --format bc1_srgb --size 64x64 --levels 2 --json`, level 0.
    assert (l0["width_texels"], l0["height_texels"], l0["depth_texels"]) == (64, 64, 1)
    assert l0["size_elements"] == (16, 16, 1)
    assert (l0["width"], l0["height"], l0["depth"], l0["elements"]) == (64, 64, 1, (16, 16, 1))
    assert t.levels[1]["width_texels"] == 32 and t.levels[1]["size_elements"] == (8, 8, 1)


# sha256 of `nvsurf tile --gpu GPU FLAGS --input lin.bin --output out.bin` with lin.bin =
# pattern(n) (the release CLI of 2026-11-27 and this branch's agree), and the output's length.
CLI_TILE = [
    ("gh100", dict(format="A8B8G8R8", size=(37, 21)), 37 * 21 * 4, 6144,
     "a97859a6e54d7dbaf25f694386992932065c6c6c95f934b709f6f478bc94f1ec"),
    ("switch", dict(format="bc7", size=(64, 48)), 16 * 12 * 16, 4096,
     "1168f78c049c5a873a05b051232ce03c54f7ebc5a54cde22fd23f5e74b4a689c"),
    ("nv2a", dict(format="A8R8G8B8", size=(32, 16)), 32 * 16 * 4, 2048,
     "c620d7a9f3071282ad113068609b1eea0ecc05f12b5d36a604424d1612fc1e5e"),
    ("g80", dict(elem_size=8, size=(19, 7, 3), block_log2=(0, 1, 1)), 19 * 7 * 3 * 8, 6144,
     "5751c65b96365404042d83446df1a74c35907a0beb72ea0c907a00deb3ce624a"),
    ("gf100", dict(elem_size=4, size=(100, 10), layout="pitch", pitch=512), 100 * 10 * 4, 5120,
     "55cd0d7e833ecf74eaa852aa924c40326806aa42e9ef79aec4b318346e8ea38f"),
]


@pytest.mark.parametrize("gpu,kw,n,size_bytes,sha", CLI_TILE)
def test_tile_surface_gives_the_cli_bytes(gpu, kw, n, size_bytes, sha):
    lin = pattern(n)
    dump = nvsurf.tile_surface(gpu, lin, **kw)
    assert dump.dtype == np.uint8 and dump.shape == (size_bytes,)
    assert size_bytes == nvsurf.layout(gpu, **kw)["size_bytes"]
    assert hashlib.sha256(dump.tobytes()).hexdigest() == sha
    # Every input form, and threads, give the same bytes; untile_surface undoes it.
    for form in (bytes(lin), bytearray(lin), memoryview(lin)):
        assert np.array_equal(nvsurf.tile_surface(gpu, form, **kw), dump)
    assert np.array_equal(nvsurf.tile_surface(gpu, lin, threads=0, **kw), dump)
    assert np.array_equal(nvsurf.untile_surface(gpu, dump, **kw), lin)


def test_tile_surface_refuses_a_short_input_in_one_line():
    # 37x20 4-byte elements: 2960 bytes needed.
    with pytest.raises(nvsurf.NvsurfError, match=r"linear image.*2959.*2960|linear image.*2960.*2959") as e:
        nvsurf.tile_surface("gh100", bytes(2959), format="A8B8G8R8", size=(37, 20))
    assert "\n" not in str(e.value)


def test_nv2a_dxt1_surfaces_keep_their_blocks_in_rows():
    # Issue #41 item 4: compressed blocks lie in rows before G80 on every face, never swizzled.
    assert nvsurf.layout("nv2a", format="DXT1", size=(16, 16))["layout"] == "pitch"
    assert nvsurf.address("nv2a", (1, 0), format="DXT1", size=(16, 16)) == 8
    assert nvsurf.address("nv2a", (0, 1), format="DXT1", size=(16, 16)) == 32
    with pytest.raises(nvsurf.NvsurfError, match="in rows, never swizzled"):
        nvsurf.layout("nv2a", format="DXT1", size=(16, 16), layout="swizzled")
