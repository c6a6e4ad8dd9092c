"""nvsurf: how NVIDIA GPUs lay out memory, from Python.

Textures by GPU, format and size (the GPU's defaults applied: the gob order a CPU sees and the
driver's block policy), untile and tile between raw dumps and packed linear textures as numpy
arrays, pixel decoding, layout guessing for unknown dumps, and the layout and address queries.

    import nvsurf
    tex = nvsurf.Texture("switch", format="bc7", size=(256, 256), levels=9)
    linear = tex.untile(dump)
    rgba = nvsurf.decode("bc7", tex.level_bytes(linear, 0), (256, 256))

Errors raise nvsurf.NvsurfError, a ValueError whose message is the CLI's one line.
"""

from ._nvsurf import (
    NvsurfError,
    Texture,
    __version__,
    _rust_untile_ns,
    address,
    decode,
    format_info,
    guess,
    layout,
    tile_surface,
    untile_surface,
)

__all__ = [
    "NvsurfError",
    "Texture",
    "address",
    "decode",
    "format_info",
    "guess",
    "layout",
    "tile_surface",
    "untile_surface",
    "__version__",
]
