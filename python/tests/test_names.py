"""The names of docs/names.md: the C library's field names are keyword aliases in Python
(`gob_order` for `gob`, `texture_type` for `type`), giving the same answers; both given must
agree."""
import pytest

import nvsurf


def test_gob_order_is_gob():
    a = nvsurf.layout("gh100", elem_size=4, size=(64, 64), gob="vm")
    b = nvsurf.layout("gh100", elem_size=4, size=(64, 64), gob_order="vm")
    assert a == b and a["gob_order"] == "vm" and a["gob_order_source"] == "given"
    dflt = nvsurf.layout("gh100", elem_size=4, size=(64, 64))
    assert dflt["gob_order"] == "turing"
    assert nvsurf.address("gh100", (5, 3), elem_size=4, size=(64, 64), gob_order="vm") == nvsurf.address(
        "gh100", (5, 3), elem_size=4, size=(64, 64), gob="vm"
    )
    with pytest.raises(ValueError, match="gob_order 'tegra' disagrees with gob 'vm'"):
        nvsurf.layout("gh100", elem_size=4, size=(64, 64), gob="vm", gob_order="tegra")


def test_texture_type_is_type():
    a = nvsurf.Texture("gm20b", format="bc7", size=(64, 64), type="cube", levels=3)
    b = nvsurf.Texture("gm20b", format="bc7", size=(64, 64), texture_type="cube", levels=3)
    assert (a.size_bytes, a.layer_stride_bytes) == (b.size_bytes, b.layer_stride_bytes)
    plain = nvsurf.Texture("gm20b", format="bc7", size=(64, 64), levels=3)
    assert plain.size_bytes * 6 <= a.size_bytes
    c = nvsurf.Texture("gm20b", format="bc7", size=(64, 64), gob_order="vm")
    assert c.size_bytes == nvsurf.Texture("gm20b", format="bc7", size=(64, 64), gob="vm").size_bytes
    with pytest.raises(ValueError, match="texture_type"):
        nvsurf.Texture("gm20b", format="bc7", size=(64, 64), type="2d", texture_type="cube")
