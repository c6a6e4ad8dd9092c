"""`modifier=`: a DRM format modifier sets a 2D image's layout, block and gob order through the
library's one resolver, as the CLI's --modifier does. Expected values: Linux drm_fourcc.h
(DRM_FORMAT_MOD_NVIDIA_BLOCK_LINEAR_2D) and Mesa nil modifiers.rs (commit
157fa86f6d5def2bec5c91f33be70c138250ab7f), worked out by hand."""

import pytest

import nvsurf

# Turing-generation (g 2), desktop sectors (s 1), kind 6 (GENERIC_MEMORY), 16 gobs.
TURING_16 = 0x0300000000606014


def test_layout_takes_the_modifiers_block():
    d = nvsurf.layout("ga102", format="A8B8G8R8", size=(1024, 1024), modifier=TURING_16)
    assert d["block_log2_effective"] == (0, 4, 0) or list(d["block_log2_effective"]) == [0, 4, 0]
    assert d["gob_order"] == "turing" and d["gob_order_source"] == "modifier"
    linear = nvsurf.layout("ga102", format="A8B8G8R8", size=(300, 20), modifier=0)
    assert linear["layout"] == "pitch" and linear["pitch_bytes"] == 1280


def test_texture_takes_the_modifier():
    t = nvsurf.Texture("tu102", format="A8B8G8R8", size=(512, 512), modifier=0x0300000000606012)
    assert list(t.levels[0]["block_log2"]) == [0, 2, 0]


def test_a_modifier_that_does_not_fit_is_one_line():
    with pytest.raises(nvsurf.NvsurfError, match="gob kind generation 2 \\(turing\\) does not fit"):
        nvsurf.layout("gm204", format="A8B8G8R8", size=(64, 64), modifier=TURING_16)
    with pytest.raises(nvsurf.NvsurfError, match="conflicts with modifier"):
        nvsurf.layout("ga102", format="A8B8G8R8", size=(64, 64), modifier=TURING_16, gob="fermi")


def test_tile_and_untile_agree_with_the_spelled_out_settings():
    lin = bytes((i * 7) % 251 for i in range(128 * 64 * 4))
    m = 0x03000000004FE013  # Fermi-Volta desktop, kind 0xfe, 8 gobs
    a = nvsurf.tile_surface("gm204", lin, format="A8B8G8R8", size=(128, 64), modifier=m)
    b = nvsurf.tile_surface("gm204", lin, format="A8B8G8R8", size=(128, 64), block_log2=(0, 3, 0), gob="fermi")
    assert bytes(a) == bytes(b)
    back = nvsurf.untile_surface("gm204", a, format="A8B8G8R8", size=(128, 64), modifier=m)
    assert bytes(back) == lin
