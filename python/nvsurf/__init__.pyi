"""Type information for nvsurf (the native module nvsurf._nvsurf, re-exported here)."""

from typing import Any, Literal, Sequence, TypedDict

import numpy as np
import numpy.typing as npt
from collections.abc import Buffer

__version__: str

class NvsurfError(ValueError):
    """Bad input: one line naming the field, the value and the rule (the CLI's message)."""

class Level(TypedDict):
    level: int
    offset_bytes: int
    size_bytes: int
    block_log2: tuple[int, int, int] | None
    block_log2_requested: tuple[int, int, int] | None
    width_texels: int
    height_texels: int
    depth_texels: int
    size_elements: tuple[int, int, int]
    width: int  # the same as width_texels (the CLI's JSON calls `width` deprecated)
    height: int  # the same as height_texels
    depth: int  # the same as depth_texels
    elements: tuple[int, int, int]  # the same as size_elements
    row_bytes: int
    slice_bytes: int | None
    linear_size_bytes: int

class FormatInfo(TypedDict):
    name: str
    elem_size_bytes: int
    block_width: int
    block_height: int
    is_compressed: bool
    is_depth: bool
    is_srgb: bool

class Subresource(TypedDict):
    level: int
    layer: int
    offset_bytes: int
    size_bytes: int
    linear_offset_bytes: int
    linear_size_bytes: int
    width_texels: int
    height_texels: int
    depth_texels: int
    size_elements: tuple[int, int, int]
    elements: tuple[int, int, int]  # the same as size_elements
    block_log2: tuple[int, int, int] | None
    row_bytes: int
    z: int
    slice_offset_bytes: int

class Candidate(TypedDict):
    rank: int
    label: str
    layout: Literal["blocklinear", "pitch", "swizzled"]
    gpu: str
    gob_order: str | None
    block_policy: Literal["explicit"] | None
    block_log2: tuple[int, int, int] | None
    offset_bytes: int
    flags: str
    size_bytes: int
    fits: bool
    rows_scored: int
    roughness: float | None
    flat: bool
    blank_fraction: float
    same_as: int | None
    pitch_bytes: int | None

Size = tuple[int, int] | tuple[int, int, int] | Sequence[int]
BlockPolicy = Literal["max", "nvn", "nvidia", "nvk"] | str | tuple[int, int, int] | Sequence[int]

class Texture:
    """A texture's layout: every level of every layer, in a dump and in the packed linear
    texture (layer by layer, level by level: DDS order)."""

    def __init__(
        self,
        gpu: str,
        *,
        format: str | None = None,
        elem_size: int | None = None,
        size: Size,
        type: str | None = None,
        levels: int | None = None,
        layers: int | None = None,
        layout: str | None = None,
        block_policy: BlockPolicy | None = None,
        gob: str | None = None,
        gob_order: str | None = None,
        texture_type: str | None = None,
        samples: int | None = None,
        sparse: bool = False,
        any_format: bool = False,
        modifier: int | None = None,
    ) -> None:
        """A texture on `gpu` (a chip such as "gh100", or a preset such as "switch") of
        `format` (size in pixels; the name is looked up in the GPU's tables, as the CLI's
        --format: "A8R8G8B8" on "nv2a" is the NV10-NV40 texture format) or `elem_size` bytes
        (size in elements); `type` is "1d",
        "2d", "3d", "1d_array", "2d_array", "cube", "cube_array", "rect" or "buffer".
        `block_policy` and `gob` override the GPU's defaults. `modifier`: a DRM format
        modifier of a 2D texture (layout, block and gob order from it, checked as NVK checks
        it)."""
    @property
    def size_bytes(self) -> int:
        """Bytes the texture occupies in a dump."""
    @property
    def layer_stride_bytes(self) -> int:
        """Bytes from one layer to the next in a dump."""
    @property
    def linear_size_bytes(self) -> int:
        """Bytes of the packed linear texture (what untile returns)."""
    @property
    def elem_size_bytes(self) -> int:
        """Bytes per element (a texel, or a compressed block)."""
    @property
    def layers(self) -> int:
        """Number of layers (6 per cube)."""
    @property
    def gpu(self) -> str:
        """The GPU or preset name."""
    @property
    def format(self) -> str | None:
        """The format's full name, one that names this very format again ("bc1_srgb" is
        "DXT1_srgb", "A8R8G8B8" on "nv2a" is "nv2a:A8R8G8B8"), or None with elem_size."""
    @property
    def is_srgb(self) -> bool:
        """True when the format's R, G, B are sRGB-encoded (False with elem_size)."""
    @property
    def type(self) -> str:
        """The texture type."""
    @property
    def layout(self) -> str:
        """The layout of the levels: blocklinear, pitch or swizzled."""
    @property
    def levels(self) -> list[Level]:
        """Every level of a layer."""
    @property
    def gob_order(self) -> str | None:
        """The gob order (None where the layout has no gobs)."""
    @property
    def gob_order_source(self) -> str | None:
        """"given" or "default" (None without gobs)."""
    @property
    def block_policy(self) -> str | None:
        """The block policy ("explicit" for a given block; None without gobs)."""
    @property
    def block_policy_source(self) -> str | None:
        """"given" or "default" (None without gobs)."""
    def summary(self) -> dict[str, Any]:
        """The keys of `nvsurf texture --json` (its deprecated ones left out): gpu (the chip),
        type, layout, format, is_srgb, elem_size_bytes, layers, layer_stride_bytes,
        size_bytes, linear_size_bytes, levels, gob_order, gob_order_source, block_policy,
        block_policy_source."""
    def untile(self, dump: Buffer, *, threads: int | None = None) -> npt.NDArray[np.uint8]:
        """The dump (at least size_bytes) untiled into a new uint8 array of
        linear_size_bytes. threads: 1 (default), 0 for every core, or N (at most 4x the machine's cores). Releases the GIL."""
    def tile(self, linear: Buffer, *, threads: int | None = None) -> npt.NDArray[np.uint8]:
        """The packed linear texture tiled into a new zero-padded uint8 array of size_bytes.
        Releases the GIL."""
    def subresource(self, level: int = 0, layer: int = 0, z: int = 0) -> Subresource:
        """Where (level, layer) is, in the dump and in the packed linear texture, and where
        its z slice z starts in the dump."""
    def level_bytes(self, linear: Any, level: int = 0, layer: int = 0) -> Any:
        """linear[start:end] for (level, layer): a view for numpy arrays and memoryviews."""

def decode(
    format: str, data: Buffer, size: tuple[int, int] | tuple[int, int, int] | Sequence[int], *, gpu: str | None = None
) -> npt.NDArray[np.uint8] | npt.NDArray[np.float32]:
    """A packed linear image of `format` (size = (w, h) pixels) as an (h, w, 4) RGBA array; a 3D
    level (size = (w, h, d)) decodes slice by slice to (h * d, w, 4), the slices stacked:
    uint8 for formats whose components are all unorm/sRGB of at most 8 bits, float32 else.
    sRGB formats: uint8 holds the stored sRGB-encoded values (as a PNG, Pillow and image_dds
    give them); float32 outputs are linear light. `gpu`: look `format` up in that GPU's
    tables (as Texture does); without one, G80 and later."""

def format_info(format: str, *, gpu: str | None = None) -> FormatInfo:
    """What `format` is (the C library's NvsurfFormatInfo): its full name (one that names this
    very format again, sRGB included), element size, texels per element, compressed, depth,
    sRGB. `gpu`: look the name up in that GPU's tables."""

def guess(
    gpu: str,
    *,
    format: str | None = None,
    elem_size: int | None = None,
    size: tuple[int, int] | Sequence[int],
    data: Buffer,
    offset: int | None = None,
    top: int | None = None,
) -> list[Candidate]:
    """Every layout `gpu` (or "any") could have used for a 2D surface at `offset` of `data`,
    smoothest first, with the keys of `nvsurf guess --json` candidates."""

def layout(
    gpu: str,
    *,
    format: str | None = None,
    elem_size: int | None = None,
    size: Size,
    layout: str | None = None,
    pitch: int | None = None,
    block_log2: tuple[int, int, int] | Sequence[int] | None = None,
    block_policy: BlockPolicy | None = None,
    auto_size: bool | None = None,
    binding: str | None = None,
    gob: str | None = None,
    gob_order: str | None = None,
    address: int | None = None,
    samples: int | None = None,
    modifier: int | None = None,
) -> dict[str, Any]:
    """The layout of a plain surface: the keys of `nvsurf layout --json`. Where no CPU byte
    order is known for the format (24-bit depth on Blackwell, depth/stencil on desktop Fermi to
    Hopper), the geometry still comes, with `gob_order` None and `gob_order_known` False."""

def address(
    gpu: str,
    at: tuple[int, int] | tuple[int, int, int] | Sequence[int],
    *,
    format: str | None = None,
    elem_size: int | None = None,
    size: Size,
    layout: str | None = None,
    pitch: int | None = None,
    block_log2: tuple[int, int, int] | Sequence[int] | None = None,
    block_policy: BlockPolicy | None = None,
    auto_size: bool | None = None,
    binding: str | None = None,
    gob: str | None = None,
    gob_order: str | None = None,
    address: int | None = None,
    modifier: int | None = None,
) -> int:
    """The address of element `at` of the surface layout() describes (`nvsurf addr --at`)."""

def untile_surface(
    gpu: str,
    data: Buffer,
    *,
    format: str | None = None,
    elem_size: int | None = None,
    size: Size,
    layout: str | None = None,
    pitch: int | None = None,
    block_log2: tuple[int, int, int] | Sequence[int] | None = None,
    block_policy: BlockPolicy | None = None,
    auto_size: bool | None = None,
    binding: str | None = None,
    gob: str | None = None,
    gob_order: str | None = None,
    offset: int | None = None,
    threads: int | None = None,
    modifier: int | None = None,
) -> npt.NDArray[np.uint8]:
    """The plain surface layout() describes, at `offset` of `data`, untiled into a new uint8
    array (rows of whole elements, no padding). Releases the GIL."""

def tile_surface(
    gpu: str,
    linear: Buffer,
    *,
    format: str | None = None,
    elem_size: int | None = None,
    size: Size,
    layout: str | None = None,
    pitch: int | None = None,
    block_log2: tuple[int, int, int] | Sequence[int] | None = None,
    block_policy: BlockPolicy | None = None,
    auto_size: bool | None = None,
    binding: str | None = None,
    gob: str | None = None,
    gob_order: str | None = None,
    threads: int | None = None,
    modifier: int | None = None,
) -> npt.NDArray[np.uint8]:
    """A packed linear image (as untile_surface returns it) tiled into a new uint8 array of the
    size_bytes of the plain surface layout() describes, padding zero: the bytes `nvsurf tile`
    writes with the same flags. Releases the GIL."""

def _rust_untile_ns(texture: Texture, dump: Buffer, *, threads: int | None = None) -> int:
    """Nanoseconds of one Texture::untile_to_buf in Rust (the benchmark's baseline)."""
