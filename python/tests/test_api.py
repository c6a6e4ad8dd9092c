"""Every function of the contract: Texture, untile/tile, decode, guess, layout,
address, NvsurfError; and the extras (subresource, level_bytes, untile_surface, threads)."""

import numpy as np
import pytest

import nvsurf

GUESS_KEYS = {
    "rank", "label", "layout", "gpu", "gob_order", "block_policy", "block_log2", "offset_bytes",
    "flags", "size_bytes", "fits", "roughness", "flat", "same_as",
}


def test_error_is_a_value_error():
    assert issubclass(nvsurf.NvsurfError, ValueError)
    with pytest.raises(ValueError, match="^pitch 100 is not a multiple of 64$"):
        nvsurf.layout("g80", layout="pitch", elem_size=4, size=(10, 10), pitch=100)


def test_texture_levels_and_sizes_follow_the_vectors():
    # VECTORS.md: GF100, 2D 300x200, 4-byte elements, 9 levels, block log2 (0,5,0).
    t = nvsurf.Texture("gf100", elem_size=4, size=(300, 200), levels=9, block_policy=(0, 5, 0))
    assert t.levels[1]["offset_bytes"] == 311296
    assert t.layer_stride_bytes == 425984 and t.size_bytes == 425984
    lv = t.levels[0]
    assert {"offset_bytes", "size_bytes", "block_log2", "width", "height", "depth"} <= lv.keys()
    assert (lv["width"], lv["height"], lv["depth"], lv["offset_bytes"]) == (300, 200, 1, 0)
    assert [x["width"] for x in t.levels] == [300, 150, 75, 37, 18, 9, 4, 2, 1]
    assert t.type == "2d" and t.layout == "blocklinear" and t.elem_size_bytes == 4 and t.format is None


def test_texture_defaults_come_from_the_gpu():
    t = nvsurf.Texture("gh100", format="RGBA8_UNORM", size=(300, 200), levels=9)
    assert t.levels[0]["block_log2"] == (0, 4, 0)
    assert t.size_bytes == 423936 and t.linear_size_bytes == 319840
    # The switch preset: NVN's block policy; a cube has 6 layers.
    s = nvsurf.Texture("switch", format="bc7", size=(256, 256), type="cube", levels=9)
    assert s.layers == 6 and s.levels[0]["elements"] == (64, 64, 1)
    assert s.layer_stride_bytes * 6 == s.size_bytes
    # Overrides change the bytes, not the linear size.
    vm = nvsurf.Texture("gh100", format="RGBA8_UNORM", size=(300, 200), gob="vm", block_policy="max")
    assert vm.linear_size_bytes == 240000
    assert "Texture(" in repr(t) and "level" in str(t)
    assert nvsurf.Texture("gh100", elem_size=4, size=(8, 8, 8), type="3d").levels[0]["depth"] == 8


def pattern(n: int) -> np.ndarray:
    return (np.arange(n, dtype=np.uint64) * 2654435761 >> 13).astype(np.uint8)


@pytest.mark.parametrize("gpu,size", [("gh100", (37, 21)), ("gm20b", (37, 21)), ("switch", (37, 21)), ("g80", (37, 21)), ("gf100", (37, 21)), ("nv40", (32, 16))])
def test_tile_and_untile_round_trip_on_every_kind_of_input(gpu, size):
    # Pre-G80 swizzled levels are powers of two.
    t = nvsurf.Texture(gpu, elem_size=4, size=size, levels=3)
    lin = pattern(t.linear_size_bytes)
    dump = t.tile(lin)
    assert dump.dtype == np.uint8 and dump.shape == (t.size_bytes,)
    assert dump.ctypes.data % 64 == 0
    for form in (dump, bytes(dump), bytearray(dump), memoryview(dump), memoryview(bytes(dump))):
        back = t.untile(form)
        assert np.array_equal(back, lin)
    # A strided view is copied once and gives the same bytes.
    wide = np.zeros(2 * t.size_bytes, dtype=np.uint8)
    wide[::2] = dump
    assert np.array_equal(t.untile(wide[::2]), lin)
    # int8 data is bytes too; threads change nothing in the bytes.
    assert np.array_equal(t.untile(dump.view(np.int8)), lin)
    assert np.array_equal(t.untile(dump, threads=2), lin)
    assert np.array_equal(t.untile(dump, threads=0), lin)
    assert np.array_equal(t.tile(lin, threads=2), dump)


def test_subresources_and_level_bytes():
    t = nvsurf.Texture("gm20b", format="RGBA8_UNORM", size=(16, 8), levels=2, type="2d_array", layers=3)
    lin = pattern(t.linear_size_bytes)
    s = t.subresource(1, 2)
    assert s["linear_size_bytes"] == 8 * 4 * 4
    assert s["linear_offset_bytes"] == 2 * (16 * 8 * 4 + 8 * 4 * 4) + 16 * 8 * 4
    assert s["offset_bytes"] == 2 * t.layer_stride_bytes + t.levels[1]["offset_bytes"]
    view = t.level_bytes(lin, 1, 2)
    assert np.shares_memory(view, lin)
    assert np.array_equal(view, lin[s["linear_offset_bytes"] : s["linear_offset_bytes"] + s["linear_size_bytes"]])
    assert t.level_bytes(bytes(lin), 0, 0) == bytes(lin[: 16 * 8 * 4])


def test_decode_gives_uint8_for_8_bit_unorm_and_float32_else():
    raw = np.arange(3 * 2 * 4, dtype=np.uint8)
    px = nvsurf.decode("RGBA8_UNORM", raw, (3, 2))
    assert px.dtype == np.uint8 and px.shape == (2, 3, 4)
    assert np.array_equal(px.ravel(), raw)
    # BC1 block: colour0 pure red (0xf800), all indices 0.
    bc1 = bytes([0x00, 0xF8, 0x1F, 0x00, 0, 0, 0, 0])
    px = nvsurf.decode("bc1", bc1, (4, 4))
    assert px.dtype == np.uint8 and px.shape == (4, 4, 4)
    assert (px.reshape(-1, 4) == [255, 0, 0, 255]).all()
    f = nvsurf.decode("R32_FLOAT", np.array([0.5, -2.0], dtype="<f4").view(np.uint8), (2, 1))
    assert f.dtype == np.float32 and f.shape == (1, 2, 4)
    assert f[0, :, 0].tolist() == [0.5, -2.0] and f[0, 0, 3] == 1.0
    z = nvsurf.decode("Z16", np.array([0, 65535], dtype="<u2").view(np.uint8), (2, 1))
    assert z.dtype == np.float32 and z[0, 1, 0] == 1.0
    assert nvsurf.decode("RGBA8_SNORM", bytes(4), (1, 1)).dtype == np.float32



def test_decode_3d_levels_slice_by_slice_and_zero_sizes():
    # Issue #41 item 7. BC1 10x6x2: 3x2 blocks a slice, slice 0 red, slice 1 green. One
    # 10x12 image would read block row 1 (red) into rows 4-7 and put green too low.
    red, green = bytes([0x00, 0xF8, 0, 0, 0, 0, 0, 0]), bytes([0xE0, 0x07, 0, 0, 0, 0, 0, 0])
    data = red * 6 + green * 6
    px = nvsurf.decode("bc1", data, (10, 6, 2))
    assert px.dtype == np.uint8 and px.shape == (12, 10, 4)
    assert (px[:6].reshape(-1, 4) == [255, 0, 0, 255]).all()
    assert (px[6:].reshape(-1, 4) == [0, 255, 0, 255]).all()
    assert (nvsurf.decode("bc1", data, (10, 12))[6:8].reshape(-1, 4) == [255, 0, 0, 255]).all()
    for size in [(0, 4), (4, 0), (4, 4, 0)]:
        with pytest.raises(nvsurf.NvsurfError, match=r"^(width|height|depth) 0 is out of range"):
            nvsurf.decode("bc1", red, size)

def smooth_image(w: int, h: int) -> np.ndarray:
    y, x = np.mgrid[0:h, 0:w]
    img = np.stack([x * 255 // w, y * 255 // h, (x + y) * 127 // (w + h), np.full_like(x, 255)], axis=-1)
    return img.astype(np.uint8).ravel()


def test_guess_finds_the_layout_a_dump_was_tiled_with():
    t = nvsurf.Texture("gm20b", format="RGBA8_UNORM", size=(256, 128))
    dump = t.tile(smooth_image(256, 128))
    cands = nvsurf.guess("gm20b", format="RGBA8_UNORM", size=(256, 128), data=dump)
    assert len(cands) > 10 and all(GUESS_KEYS <= c.keys() for c in cands)
    best = cands[0]
    assert best["rank"] == 1 and best["layout"] == "blocklinear" and best["gob_order"] == "tegra"
    assert best["block_log2"] == t.levels[0]["block_log2"] and best["block_policy"] == "explicit"
    y = best["block_log2"][1]
    assert best["flags"] == (
        f"--gpu gm20b --format RGBA8_UNORM --size 256x128 --layout blocklinear --block-log2 0,{y},0 --no-auto-size --gob tegra"
    )
    assert best["fits"] and best["roughness"] is not None and not best["flat"]
    assert [c["rank"] for c in cands] == list(range(1, len(cands) + 1))
    # At an offset, with top, and across every family.
    shifted = np.concatenate([np.zeros(4096, np.uint8), dump])
    top = nvsurf.guess("gm20b", format="RGBA8_UNORM", size=(256, 128), data=shifted, offset=4096, top=3)
    assert len(top) == 3 and top[0]["label"] == best["label"] and top[0]["offset_bytes"] == 4096
    assert "--offset 4096" in top[0]["flags"]
    anyc = nvsurf.guess("any", elem_size=4, size=(256, 128), data=dump, top=1)[0]
    assert anyc["gob_order"] == "tegra" and anyc["flags"].startswith(f"--gpu {anyc['gpu']} --elem-size 4 ")
    # The winner's layout untiles the dump back to the picture.
    img = nvsurf.untile_surface(
        "gm20b", dump, format="RGBA8_UNORM", size=(256, 128), layout=best["layout"],
        block_log2=best["block_log2"], auto_size=False, gob=best["gob_order"],
    )
    assert np.array_equal(img, smooth_image(256, 128))


def test_layout_has_the_cli_json_keys():
    v = nvsurf.layout("gh100", format="A8B8G8R8", size=(300, 200))
    assert v["layout"] == "blocklinear" and v["block_log2_effective"] == (0, 4, 0)
    assert v["gob_order"] == "turing" and v["gob_order_source"] == "default"
    assert v["block_policy"] == "nvidia" and v["block_policy_source"] == "default"
    assert v["size_elements"] == (300, 200, 1) and v["elem_size_bytes"] == 4
    p = nvsurf.layout("g80", layout="pitch", elem_size=4, size=(10, 5))
    assert (p["size_bytes"], p["pitch_bytes"], p["gob_order"], p["blocks"]) == (64 * 5, 64, None, None)
    given = nvsurf.layout("gf100", elem_size=4, size=(300, 200), block_log2=(0, 5, 0), binding="texture", gob="tegra")
    assert given["block_policy"] == "explicit" and given["gob_order_source"] == "given"
    assert given["binding"] == "texture"
    sw = nvsurf.layout("nv40", elem_size=4, size=(16, 16))
    assert sw["layout"] == "swizzled" and len(sw["index_bit_masks"]) == 3


def test_address_matches_the_document():
    # README / seed: the 13x17x3 G80 example, element (9, 5, 1) at 0xe50.
    assert nvsurf.address("g80", (9, 5, 1), elem_size=16, size=(13, 17, 3), block_log2=(1, 1, 1)) == 0xE50
    base = 0x10000
    assert nvsurf.address("g80", (9, 5, 1), elem_size=16, size=(13, 17, 3), block_log2=(1, 1, 1), address=base) == base + 0xE50
    assert nvsurf.address("g80", (3, 2), layout="pitch", elem_size=4, size=(10, 5)) == 64 * 2 + 12


def test_blackwell_defaults_and_the_two_fermi_orders():
    # #40: nil's GOBType::choose on Blackwell (1-byte blackwell8, 2-byte blackwell16, else
    # turing), and nil's CopyGOBFermi (byte (0, 4) at 224) beside its doc comment (160).
    for fmt, want in [("R8_UNORM", "blackwell8"), ("R16_UNORM", "blackwell16"), ("A8B8G8R8", "turing")]:
        v = nvsurf.layout("gb202", format=fmt, size=(64, 64))
        assert (v["gob_order"], v["gob_order_source"], v["gob_order_known"]) == (want, "default", True)
    assert nvsurf.address("gf100", (0, 4), elem_size=1, size=(64, 8), gob="fermi") == 224
    assert nvsurf.address("gf100", (0, 4), elem_size=1, size=(64, 8), gob="fermi-comment") == 160
    assert nvsurf.address("gb202", (8, 0), format="R8_UNORM", size=(64, 8)) == 64


def test_layout_answers_depth_without_a_byte_order():
    # #40 item 7: the geometry does not depend on the CPU byte order; moving or placing bytes does.
    for gpu in ["gb202", "gh100"]:
        v = nvsurf.layout(gpu, format="Z24_S8", size=(300, 200))
        assert (v["gob_order"], v["gob_order_source"], v["gob_order_known"]) == (None, "unknown", False)
        given = nvsurf.layout(gpu, format="Z24_S8", size=(300, 200), gob="turing")
        assert given["gob_order_known"] is True
        assert (v["size_bytes"], v["block_log2_effective"]) == (given["size_bytes"], given["block_log2_effective"])
        with pytest.raises(nvsurf.NvsurfError, match=r"gob order"):
            nvsurf.address(gpu, (0, 0), format="Z24_S8", size=(300, 200))
