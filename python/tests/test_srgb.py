"""sRGB formats: nvsurf.decode's uint8 output is the stored sRGB encoding (what a PNG of the CLI,
Pillow and image_dds give); its float32 outputs stay linear (docs/formats.md, "sRGB formats")."""

import numpy as np

import nvsurf


def test_bc1_srgb_gives_the_stored_values():
    # color0 = color1 = 0x8080: R5 = 16 -> 132, G6 = 4 -> 16, B5 = 0. The CLI's PNG of this
    # block is (132, 16, 0, 255); before, decode gave (59, 1, 0, 255).
    px = nvsurf.decode("bc1_srgb", bytes([0x80] * 8), (4, 4))
    assert px.dtype == np.uint8
    assert (px.reshape(-1, 4) == [132, 16, 0, 255]).all()
    # The same bytes as the format without sRGB.
    assert np.array_equal(px, nvsurf.decode("bc1", bytes([0x80] * 8), (4, 4)))


def test_rgba8_srgb_uint8_is_the_stored_bytes():
    raw = (np.arange(64 * 4, dtype=np.uint64) * 2654435761 >> 13).astype(np.uint8)
    px = nvsurf.decode("RGBA8_SRGB", raw, (64, 1))
    assert px.dtype == np.uint8 and np.array_equal(px.ravel(), raw)
    # ASTC sRGB too: the same bytes as the footprint without sRGB.
    block = bytes(range(16))
    assert np.array_equal(nvsurf.decode("astc_4x4_srgb", block, (4, 4)), nvsurf.decode("astc_4x4", block, (4, 4)))
