//! Pictures: PNG (8 or 16 bits per channel), OpenEXR (32-bit float), DDS and KTX2, to and
//! from the linear element images of any `Format`.
//!
//! The element images here are "linear": rows of elements, tightly packed
//! (`row_pitch_bytes = ceil(width_px / bw) * elem_size`), slices one after another; that is
//! what `nvsurf::tile` produces when it untiles a surface and consumes when it tiles one.
//!
//! Rules:
//! - PNG channels follow `Format::channel_kinds`: float channels are normalized (clamped to
//!   [0, 1]), integer channels hold raw values (saturated). 8 bits per channel when every
//!   component of the format has at most 8 bits (and for BC1-BC5/BC7), 16 bits otherwise.
//!   sRGB formats are written without the sRGB decode (PNG samples are sRGB already) and read
//!   back the same way.
//! - Depth/stencil: the picture is the depth as 16-bit grey; the stencil (if any) goes to a
//!   second 8-bit grey picture `<name>.stencil.png`. Coverage is not pictured.
//! - EXR: RGBA f32, the decoded values (sRGB decoded, integers converted to float).
//! - DDS: the elements themselves when the format has a DXGI twin (`dds::dxgi_of`), otherwise
//!   decoded to `R32G32B32A32_FLOAT`. Mips, arrays (cube faces count as layers) and depth are
//!   kept. Reading takes the elements as they are when the DXGI format matches, and otherwise
//!   decodes any DXGI format of that table (or BC) and encodes it to the wanted format; a
//!   different block-compressed format is refused ([`Described::reads_as`]).
//! - KTX2: as DDS, with the Vulkan format (`vk_format`): levels, layers, cube faces and depth,
//!   uncompressed or zstd-supercompressed. DDS and KTX2 describe themselves ([`describe_file`]):
//!   the commands take the format, size, levels, layers and kind from the header.
//! - Surfaces with depth > 1 are written to PNG/EXR as the slices stacked top to bottom.
//!
//! Block-compressed formats are encoded through the library (`--bc-quality`), and the PSNR
//! of each encoded level against the picture is kept in an [`Encoding`] (`encoding`).
//!
//! Files: `kind` (picture type of a path), `size` ([`Extent`](nvsurf::extent::Extent) and checked allocation),
//! `texels` (elements <-> texels), `png`, `png_stream` and `png_fast` (PNG band by band), `exr`, `dds`, `ktx2_read`, `ktx2_write`, `vk_format`,
//! `texture` (a whole texture in memory), `described` and `header` (what a DDS/KTX2 header
//! says), and `surface` (the one-call entry
//! points the commands use). This module imports no command module; `nvsurf convert` is in
//! `convert.rs`.

mod astc_encode;
mod dds;
mod decoded_warning;
mod described;
mod encoding;
mod exr;
mod header;
mod kind;
mod ktx2_read;
mod ktx2_write;
mod png;
mod png_fast;
#[cfg(test)]
mod png_fast_tests;
pub mod png_stream;
mod size;
mod surface;
pub mod texels;
mod texture;
mod vk_format;

pub use dds::{
    dds_stream_offset, dds_texture_offset, describe_dds, dxgi_of, read_dds, read_dds_with, write_dds,
    write_dds_streamed,
};
pub use decoded_warning::{decoded_warning, warn_if_decoded};
pub use described::Described;
pub use encoding::{stored_components, Encoding, ErrorSum, Measured, BC1_ALPHA_THRESHOLD, BC_QUALITY_HELP};
pub use header::describe_file;
pub use kind::{Ktx2Options, PicKind};
pub use ktx2_read::{ktx2_header, ktx2_plain_offsets, ktx2_texture, read_ktx2, read_ktx2_with};
pub use ktx2_write::{check_zstd_level, ktx2_bytes, write_ktx2, write_ktx2_streamed, LayerSource};
pub use png::has_stencil_picture;
pub use size::try_filled;
pub use surface::{
    read_surface, read_surface_as, read_surface_as_with, read_surface_with, stage_png, write_png_with, write_surface,
    write_surface_as,
};
pub use texels::check_len;
pub use texture::DdsTexture;
pub use vk_format::{format_of_vk, vk_name, vk_of};

#[cfg(test)]
mod ktx2_tests;
#[cfg(test)]
mod tests;
