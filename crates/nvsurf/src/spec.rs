//! The front door: a texture or surface named by platform, format and size, with the GPU's
//! defaults applied (the gob order a CPU sees, the driver's block policy) and the element
//! geometry taken from the format. One chain from a dump to pixels:
//!
//! ```
//! use nvsurf::{format::Format, texture::TextureType, tile::CopyOptions, Platform, TextureSpec};
//! let bc7 = Format::parse("bc7")?;
//! let tex = TextureSpec::new(Platform::parse("switch")?, TextureType::D2, &bc7, [256, 256, 1]).levels(9).build()?;
//! let dump = vec![0u8; tex.size_bytes() as usize];
//! let linear = tex.untile_to_buf(&dump, &CopyOptions::default())?;
//! let rgba = nvsurf::decode_rgba8(&bc7, tex.level_bytes(&linear, 0, 0)?, [256, 256])?;
//! assert_eq!(rgba.len(), 256 * 256);
//! # Ok::<(), nvsurf::Error>(())
//! ```
//!
//! Every default can be overridden ([`TextureSpec::gob_order`], [`TextureSpec::block_policy`],
//! [`SurfaceSpec::block_log2`], ...); the descriptors ([`TextureDesc`], [`SurfaceDesc`]) stay
//! available for full control.

use crate::error::{Error, Result};
use crate::extent::{self, Extent, Texels};
use crate::format::Format;
use crate::layout::{GobOrder, LayoutKind, Surface, SurfaceDesc};
use crate::platform::Platform;
use crate::texture::{max_levels, BlockPolicy, Texture, TextureDesc, TextureType};
use alloc::vec::Vec;
use resolve::{Beside, Elements, FromModifier, Resolver};

mod resolve;

pub use resolve::{Assumed, Overrides, Source};

/// A texture described the way its user knows it: platform, type, format (or element size),
/// size in texels; levels, layers and overrides on top. [`TextureSpec::build`] applies the
/// platform's defaults ([`Platform::default_gob_order`], [`Platform::default_block_policy`]).
#[derive(Debug, Clone, PartialEq)]
pub struct TextureSpec {
    platform: Platform,
    ty: TextureType,
    elements: Elements,
    size_texels: Extent<Texels>,
    levels: u32,
    layers: Option<u32>,
    layout: Option<LayoutKind>,
    gob_order: Option<GobOrder>,
    block_policy: Option<BlockPolicy>,
    samples: u32,
    sparse: bool,
    any_format: bool,
    modifier: Option<u64>,
}

impl TextureSpec {
    /// A one-level texture of `format`, level 0 `size_texels` (width, height, depth) in texels.
    /// `size_texels` is an [`Extent<Texels>`], or a plain `[w, h, d]` taken as one.
    pub fn new(
        platform: impl Into<Platform>,
        ty: TextureType,
        format: &Format,
        size_texels: impl Into<Extent<Texels>>,
    ) -> Self {
        Self::with(platform.into(), ty, Elements::Format(*format), size_texels.into())
    }

    /// A one-level texture of `elem_size_bytes`-byte elements of one texel each (the colour
    /// gob order applies).
    pub fn with_elem_size(
        platform: impl Into<Platform>,
        ty: TextureType,
        elem_size_bytes: u32,
        size_texels: impl Into<Extent<Texels>>,
    ) -> Self {
        Self::with(platform.into(), ty, Elements::Size(elem_size_bytes), size_texels.into())
    }

    fn with(platform: Platform, ty: TextureType, elements: Elements, size_texels: Extent<Texels>) -> Self {
        TextureSpec {
            platform,
            ty,
            elements,
            size_texels,
            levels: 1,
            layers: None,
            layout: None,
            gob_order: None,
            block_policy: None,
            samples: 1,
            sparse: false,
            any_format: false,
            modifier: None,
        }
    }

    /// Lay out a format the GPU cannot sample (ETC2/EAC, ASTC on desktop GPUs, per Mesa nil's
    /// format table, [`Format::caps_on`]), which is refused otherwise: nil lays such images
    /// out too.
    pub fn any_format(mut self, any: bool) -> Self {
        self.any_format = any;
        self
    }

    /// `n` samples per pixel (1, 2, 4, 8, 16; [`TextureDesc::samples`]): the size stays in
    /// pixels.
    pub fn samples(mut self, n: u32) -> Self {
        self.samples = n;
        self
    }

    /// Sparse residency as NVK lays it out ([`TextureDesc::sparse`]).
    pub fn sparse(mut self, sparse: bool) -> Self {
        self.sparse = sparse;
        self
    }

    /// `n` mip levels.
    pub fn levels(mut self, n: u32) -> Self {
        self.levels = n;
        self
    }

    /// Every mip level down to 1x1.
    pub fn full_mip_chain(mut self) -> Self {
        self.levels = max_levels(self.size_texels);
        self
    }

    /// `n` layers (default: 6 for cubes, else 1).
    pub fn layers(mut self, n: u32) -> Self {
        self.layers = Some(n);
        self
    }

    /// The layout instead of the platform's natural one (swizzled before G80, blocklinear from
    /// G80; pitch for a RECT texture before G80 or a linear `_RECT` format). A linear `_RECT`
    /// format refuses any layout but pitch when the spec is resolved.
    pub fn layout(mut self, layout: LayoutKind) -> Self {
        self.layout = Some(layout);
        self
    }

    /// This gob order instead of the platform's default for the format.
    pub fn gob_order(mut self, order: GobOrder) -> Self {
        self.gob_order = Some(order);
        self
    }

    /// This block policy (or an explicit block) instead of the platform's driver's.
    pub fn block_policy(mut self, policy: BlockPolicy) -> Self {
        self.block_policy = Some(policy);
        self
    }

    /// A DRM format modifier: a 2D texture's layout (pitch for `DRM_FORMAT_MOD_LINEAR`,
    /// blocklinear otherwise), block (0, h, 0) and gob order come from it, checked against the
    /// GPU and format as NVK checks them ([`crate::modifier::fit`]); a layout, gob order or
    /// block given beside it must agree with it.
    pub fn modifier(mut self, modifier: u64) -> Self {
        self.modifier = Some(modifier);
        self
    }

    /// Each setting `o` gives, in place of the one this spec has (the others stay).
    pub fn overrides(mut self, o: Overrides) -> Self {
        self.layout = o.layout.or(self.layout);
        self.gob_order = o.gob_order.or(self.gob_order);
        self.block_policy = o.block_policy.or(self.block_policy);
        self.modifier = o.modifier.or(self.modifier);
        self
    }

    /// The descriptor with every default applied, for adjusting further by hand.
    pub fn desc(&self) -> Result<TextureDesc> {
        Ok(self.resolve()?.0)
    }

    /// The descriptor with every default applied, and what was assumed: the layout (a linear
    /// `_RECT` format implies pitch and refuses another), and where the layout has gobs the gob
    /// order and block policy, each given or the platform's default.
    pub fn resolve(&self) -> Result<(TextureDesc, Assumed)> {
        self.resolve_with(false)
    }

    /// [`TextureSpec::resolve`] for the geometry alone (offsets, blocks, sizes): where no CPU
    /// byte order is known for the format (24-bit depth on Blackwell, depth on desktop Fermi to
    /// Hopper) and none is given, the descriptor carries the VM order as a stand-in and
    /// [`Assumed::gob_order_unknown`] is set. Such a descriptor must not move bytes: build byte
    /// copies from [`TextureSpec::resolve`], which refuses.
    pub fn resolve_geometry(&self) -> Result<(TextureDesc, Assumed)> {
        self.resolve_with(true)
    }

    fn resolve_with(&self, geometry_only: bool) -> Result<(TextureDesc, Assumed)> {
        let r = Resolver { platform: self.platform, elements: self.elements, any_format: self.any_format };
        r.check_format()?;
        r.check_kinds(self.ty, self.levels)?;
        r.check_pre_g80_3d_blocks(self.size_texels)?;
        let mut d = TextureDesc::new(self.platform.gpu(), self.ty, self.elements.elem_size_bytes(), self.size_texels);
        d.texels_per_elem = self.elements.texels_per_elem();
        d.levels = self.levels;
        (d.samples, d.sparse) = (self.samples, self.sparse);
        if let Some(l) = self.layers {
            d.layers = l;
        }
        if let Some(v) = self.modifier {
            return self.resolve_modifier(&r, d, v);
        }
        let layout = r.layout(self.layout, d.layout)?;
        d.layout = layout.0;
        r.check_nv2a(self.size_texels, d.layers, d.layout)?;
        let mut assumed = r.assumed(layout);
        // The gob order matters (and a refusal applies) only where there are gobs.
        if d.layout == LayoutKind::BlockLinear && self.ty != TextureType::Buffer {
            let (order, policy) = r.gobs(self.gob_order, self.block_policy, geometry_only)?;
            (assumed.gob_order, assumed.block_policy) = (order, Some(policy));
            assumed.gob_order_unknown = order.is_none();
        }
        d.gob_order = self.gob_order.or(assumed.gob_order.map(|o| o.0)).unwrap_or(GobOrder::Vm);
        d.block = self.block_policy.unwrap_or_else(|| self.platform.default_block_policy());
        // Set only where the platform overrides the policy's rule (the `switch` preset with an
        // explicit block), so a policy changed by hand later still decides.
        let pads = self.platform.pads_single_layer(d.block);
        d.pad_single_layer = (pads != d.block.pads_single_layer()).then_some(pads);
        Ok((d, assumed))
    }

    /// [`Self::resolve`] with a modifier: a 2D texture; linear ones have one level and one
    /// layer (nil `image.rs`, `new_linear`).
    fn resolve_modifier(&self, r: &Resolver, mut d: TextureDesc, v: u64) -> Result<(TextureDesc, Assumed)> {
        if self.ty != TextureType::D2 {
            return Err(Error::Unsupported {
                field: "texture type",
                value: self.ty.name().into(),
                rule: alloc::format!("modifier {v:#x} describes a 2D image (type 2d)"),
            });
        }
        let beside = Beside { layout: self.layout, gob_order: self.gob_order, block: self.block_policy };
        let fm = r.apply_modifier(v, self.size_texels, beside)?;
        if fm.layout == LayoutKind::Pitch && (d.levels != 1 || d.layers != 1) {
            return Err(Error::Unsupported {
                field: "levels",
                value: alloc::format!("{} levels, {} layers", d.levels, d.layers),
                rule: "a linear (DRM_FORMAT_MOD_LINEAR) image has one level and one layer".into(),
            });
        }
        let assumed = modifier_assumed(r, &fm);
        d.layout = fm.layout;
        d.pitch_bytes = fm.pitch_bytes;
        if let (Some(order), Some(block)) = (fm.gob_order, fm.block_log2) {
            d.gob_order = order;
            d.block = BlockPolicy::Explicit(block);
            let pads = self.platform.pads_single_layer(d.block);
            d.pad_single_layer = (pads != d.block.pads_single_layer()).then_some(pads);
        }
        Ok((d, assumed))
    }

    /// The validated texture.
    pub fn build(&self) -> Result<Texture> {
        self.desc()?.build()
    }
}

/// What a spec set from a modifier records.
fn modifier_assumed(r: &Resolver, fm: &FromModifier) -> Assumed {
    let mut a = r.assumed((fm.layout, Source::Modifier));
    a.modifier = Some(fm.value);
    a.gob_order = fm.gob_order.map(|o| (o, Source::Modifier));
    a.block_policy = fm.block_log2.map(|b| (BlockPolicy::Explicit(b), Source::Modifier));
    a
}

/// A plain surface described by platform, format (or element size) and size in pixels; the
/// block, unless given, is what the platform's block policy picks for a one-level texture of
/// that size ([`Platform::surface_block_log2`]).
#[derive(Debug, Clone, PartialEq)]
pub struct SurfaceSpec {
    platform: Platform,
    elements: Elements,
    size_px: Extent<Texels>,
    layout: Option<LayoutKind>,
    gob_order: Option<GobOrder>,
    block: Option<BlockPolicy>,
    pitch_bytes: Option<u64>,
    samples: u32,
    any_format: bool,
    modifier: Option<u64>,
}

impl SurfaceSpec {
    /// A surface of `format`, `size_px` (width, height, depth) in pixels.
    /// `size_px` is an [`Extent<Texels>`], or a plain `[w, h, d]` taken as one.
    pub fn new(platform: impl Into<Platform>, format: &Format, size_px: impl Into<Extent<Texels>>) -> Self {
        Self::with(platform.into(), Elements::Format(*format), size_px.into())
    }

    /// A surface of `elem_size_bytes`-byte elements, `size` in elements.
    /// (One element is one pixel here, so the size is both.)
    pub fn with_elem_size(
        platform: impl Into<Platform>,
        elem_size_bytes: u32,
        size: impl Into<Extent<extent::Elements>>,
    ) -> Self {
        // One element per pixel: the same numbers in either unit, said once here.
        Self::with(platform.into(), Elements::Size(elem_size_bytes), size.into().to_array().into())
    }

    fn with(platform: Platform, elements: Elements, size_px: Extent<Texels>) -> Self {
        SurfaceSpec {
            platform,
            elements,
            size_px,
            layout: None,
            gob_order: None,
            block: None,
            pitch_bytes: None,
            samples: 1,
            any_format: false,
            modifier: None,
        }
    }

    /// The layout instead of the platform's natural one (swizzled before G80, blocklinear from
    /// G80; pitch for a linear `_RECT` format, which refuses any other when resolved).
    pub fn layout(mut self, layout: LayoutKind) -> Self {
        self.layout = Some(layout);
        self
    }

    /// This gob order instead of the platform's default for the format.
    pub fn gob_order(mut self, order: GobOrder) -> Self {
        self.gob_order = Some(order);
        self
    }

    /// This block policy instead of the platform's driver's.
    pub fn block_policy(mut self, policy: BlockPolicy) -> Self {
        self.block = Some(policy);
        self
    }

    /// A DRM format modifier: the layout (pitch for `DRM_FORMAT_MOD_LINEAR`, blocklinear
    /// otherwise), block (0, h, 0, clamped to the surface as the hardware clamps it) and gob
    /// order come from it, checked against the GPU and format as NVK checks them
    /// ([`crate::modifier::fit`]); a layout, gob order or block given beside it must agree. A
    /// linear modifier's pitch is nil's (the row rounded up to 128 bytes, 256 on Kepler and
    /// GM10x) unless one is given.
    pub fn modifier(mut self, modifier: u64) -> Self {
        self.modifier = Some(modifier);
        self
    }

    /// Each setting `o` gives, in place of the one this spec has (the others stay).
    pub fn overrides(mut self, o: Overrides) -> Self {
        self.layout = o.layout.or(self.layout);
        self.gob_order = o.gob_order.or(self.gob_order);
        self.block = o.block_policy.or(self.block);
        self.modifier = o.modifier.or(self.modifier);
        self
    }

    /// An explicit block (log2 gobs x, y, z).
    pub fn block_log2(mut self, block: [u32; 3]) -> Self {
        self.block = Some(BlockPolicy::Explicit(block));
        self
    }

    /// `n` samples per pixel (1, 2, 4, 8, 16): the size stays in pixels, the surface holds the
    /// sample grid of the mode a Vulkan driver uses for `n`
    /// ([`crate::msaa::MsMode::for_sample_count`]) and the block is chosen from the pixel size.
    pub fn samples(mut self, n: u32) -> Self {
        self.samples = n;
        self
    }

    /// Lay out a format the GPU cannot sample ([`TextureSpec::any_format`]).
    pub fn any_format(mut self, any: bool) -> Self {
        self.any_format = any;
        self
    }

    /// The pitch in bytes (pitch layout).
    pub fn pitch_bytes(mut self, pitch: u64) -> Self {
        self.pitch_bytes = Some(pitch);
        self
    }

    /// The descriptor with every default applied.
    pub fn desc(&self) -> Result<SurfaceDesc> {
        Ok(self.resolve()?.0)
    }

    /// The descriptor with every default applied, and what was assumed: the layout (a linear
    /// `_RECT` format implies pitch and refuses another), and for blocklinear the gob order and
    /// the block policy, each given or the platform's default.
    pub fn resolve(&self) -> Result<(SurfaceDesc, Assumed)> {
        self.resolve_with(false)
    }

    /// [`SurfaceSpec::resolve`] for the geometry alone: where no CPU byte order is known for
    /// the format and none is given, the VM order stands in and [`Assumed::gob_order_unknown`]
    /// is set (see [`TextureSpec::resolve_geometry`]). Such a descriptor must not move bytes.
    pub fn resolve_geometry(&self) -> Result<(SurfaceDesc, Assumed)> {
        self.resolve_with(true)
    }

    fn resolve_with(&self, geometry_only: bool) -> Result<(SurfaceDesc, Assumed)> {
        let r = Resolver { platform: self.platform, elements: self.elements, any_format: self.any_format };
        r.check_format()?;
        let size = self.size_px.to_elements_by(self.elements.texels_per_elem());
        let size = self.sample_grid(size)?;
        let mut desc = SurfaceDesc::new(self.platform.gpu(), self.elements.elem_size_bytes(), size);
        if let Some(v) = self.modifier {
            let beside = Beside { layout: self.layout, gob_order: self.gob_order, block: self.block };
            let fm = r.apply_modifier(v, self.size_px, beside)?;
            desc.layout = fm.layout;
            desc.pitch_bytes = self.pitch_bytes.or(fm.pitch_bytes);
            if let (Some(order), Some(block)) = (fm.gob_order, fm.block_log2) {
                desc.gob_order = order;
                desc.block_log2 = Some(block);
            }
            return Ok((desc, modifier_assumed(&r, &fm)));
        }
        let layout = r.surface_layout(r.layout(self.layout, desc.layout)?, self.size_px.depth)?;
        desc.layout = layout.0;
        r.check_nv2a(self.size_px, 1, desc.layout)?;
        desc.pitch_bytes = self.pitch_bytes;
        let mut assumed = r.assumed(layout);
        if desc.layout == LayoutKind::BlockLinear {
            let (order, policy) = r.gobs(self.gob_order, self.block, geometry_only)?;
            desc.gob_order = order.map_or(GobOrder::Vm, |o| o.0);
            desc.block_log2 = Some(match policy.0 {
                BlockPolicy::Explicit(b) => b,
                p => self.platform.surface_block_log2_samples(
                    p,
                    self.elements.elem_size_bytes(),
                    self.size_px,
                    self.elements.texels_per_elem(),
                    self.samples,
                )?,
            });
            (assumed.gob_order, assumed.block_policy) = (order, Some(policy));
            assumed.gob_order_unknown = order.is_none();
        }
        Ok((desc, assumed))
    }

    /// The elements a surface of `pixels` elements stores: its sample grid when multisampled
    /// (checked as a multisampled texture is: blocklinear on GF100+, single-texel elements).
    fn sample_grid(&self, pixels: Extent<extent::Elements>) -> Result<Extent<extent::Elements>> {
        if self.samples == 1 {
            return Ok(pixels);
        }
        let layout = self.layout.unwrap_or(LayoutKind::default_for(self.platform.gpu()));
        let single_texel = self.elements.texels_per_elem() == [1, 1];
        if layout != LayoutKind::BlockLinear || !self.platform.gpu().is_gf100_or_later() || !single_texel {
            return Err(Error::Unsupported {
                field: "samples",
                value: alloc::format!("{} with the {} layout on {}", self.samples, layout.name(), self.platform.gpu()),
                rule: "multisampled surfaces are blocklinear, on GF100 and later, of single-pixel elements".into(),
            });
        }
        let mode = crate::msaa::MsMode::for_sample_count(self.samples)?;
        Ok(Extent::<Texels>::new(pixels.width, pixels.height, pixels.depth).to_samples(mode)?.to_elements())
    }

    /// The validated surface.
    pub fn build(&self) -> Result<Surface> {
        self.desc()?.build()
    }
}

/// Decodes a packed linear image of `format` (`size_px` width x height pixels, rows of whole
/// elements, no padding) to RGBA8 pixels, row by row. sRGB formats give their stored
/// sRGB-encoded values, as a PNG holds them ([`Format::decode_rect_rgba8`]).
pub fn decode_rgba8(format: &Format, elems: &[u8], size_px: [u32; 2]) -> Result<Vec<[u8; 4]>> {
    let (row, n) = packed(format, elems, size_px)?;
    let mut out = crate::error::zeroed_with("decoded pixels", n, [0u8; 4])?;
    format.decode_rect_rgba8(elems, row, size_px[0], size_px[1], &mut out)?;
    Ok(out)
}

/// Decodes a packed linear image of `format` to RGBA f32 pixels (see [`decode_rgba8`]); sRGB
/// formats give linear light.
pub fn decode_rgba_f32(format: &Format, elems: &[u8], size_px: [u32; 2]) -> Result<Vec<[f32; 4]>> {
    let (row, n) = packed(format, elems, size_px)?;
    let mut out = crate::error::zeroed_with("decoded pixels", n, [0f32; 4])?;
    format.decode_rect_f32(elems, row, size_px[0], size_px[1], &mut out)?;
    Ok(out)
}

/// Decodes a packed linear 3D image of `format` (`size_px` width x height x depth pixels, the
/// slices one after another, each of whole rows of elements) to RGBA8 pixels, slice by slice,
/// the slices stacked as the CLI's pictures stack them (issue #41 item 7). Decoding such a
/// level as one image of width x (height x depth) is wrong for a compressed format whose height
/// is not a multiple of its block height: each slice ends on a partial block row.
pub fn decode_rgba8_3d(format: &Format, elems: &[u8], size_px: [u32; 3]) -> Result<Vec<[u8; 4]>> {
    decode_slices(format, elems, size_px, [0u8; 4], |s, px, w, h, out| format.decode_rect_rgba8(s, px, w, h, out))
}

/// Decodes a packed linear 3D image of `format` to RGBA f32 pixels, slice by slice (see
/// [`decode_rgba8_3d`]); sRGB formats give linear light.
pub fn decode_rgba_f32_3d(format: &Format, elems: &[u8], size_px: [u32; 3]) -> Result<Vec<[f32; 4]>> {
    decode_slices(format, elems, size_px, [0f32; 4], |s, px, w, h, out| format.decode_rect_f32(s, px, w, h, out))
}

/// The slices of a packed 3D image, each decoded by `decode` into its part of the output.
fn decode_slices<T: Copy>(
    format: &Format,
    elems: &[u8],
    [w, h, d]: [u32; 3],
    zero: T,
    decode: impl Fn(&[u8], usize, u32, u32, &mut [T]) -> Result<()>,
) -> Result<Vec<T>> {
    if d == 0 {
        return Err(Error::OutOfRange { field: "depth", value: 0, min: 1, max: u32::MAX.into() });
    }
    let (row, n) = packed(format, elems, [w, h])?;
    let rows = Extent::<Texels>::new_2d(w, h).to_elements(format).height;
    let overflow = || Error::Overflow { what: "3D image size", detail: alloc::format!("{w}x{h}x{d} pixels") };
    let slice = row.checked_mul(rows as usize).ok_or_else(overflow)?;
    let need = slice.checked_mul(d as usize).ok_or_else(overflow)?;
    if elems.len() < need {
        return Err(Error::BufferTooSmall { what: "encoded image", needed: need as u64, got: elems.len() as u64 });
    }
    let total = n.checked_mul(d as usize).ok_or_else(overflow)?;
    let mut out = crate::error::zeroed_with("decoded pixels", total, zero)?;
    for (z, px) in out.chunks_exact_mut(n.max(1)).enumerate() {
        let from = z * slice;
        decode(&elems[from..from + slice], row, w, h, px)?;
    }
    Ok(out)
}

/// Refuses a picture of no pixels (issue #41 item 7: zero sizes are errors on every face, the
/// library's decode, `nvsurf_decode_rgba8` and Python's `decode` alike), naming the side.
pub fn check_picture_size([w, h]: [u32; 2]) -> Result<()> {
    for (field, v) in [("width", w), ("height", h)] {
        if v == 0 {
            return Err(Error::OutOfRange { field, value: 0, min: 1, max: u32::MAX.into() });
        }
    }
    Ok(())
}

/// The row bytes of a packed image of `format` and its pixel count, checked against `elems`.
fn packed(format: &Format, elems: &[u8], [w, h]: [u32; 2]) -> Result<(usize, usize)> {
    check_picture_size([w, h])?;
    let el = Extent::<Texels>::new_2d(w, h).to_elements(format);
    let row = u64::from(el.width) * u64::from(format.elem_size_bytes());
    let need = row.checked_mul(u64::from(el.height)).ok_or_else(|| Error::Overflow {
        what: "encoded image size",
        detail: alloc::format!("{row} bytes x {} rows", el.height),
    })?;
    if (elems.len() as u64) < need {
        return Err(Error::BufferTooSmall { what: "encoded image", needed: need, got: elems.len() as u64 });
    }
    let pixels = u64::from(w) * u64::from(h);
    let too_big = |what: &'static str, v: u64| Error::Overflow { what, detail: alloc::format!("{v}") };
    Ok((
        usize::try_from(row).map_err(|_| too_big("row bytes", row))?,
        usize::try_from(pixels).map_err(|_| too_big("pixel count", pixels))?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::Gpu;
    use crate::tile::CopyOptions;

    #[test]
    fn defaults_follow_the_platform_and_format() {
        let bc7 = Format::parse("bc7").unwrap();
        let d = TextureSpec::new(Platform::parse("switch").unwrap(), TextureType::Cube, &bc7, [64, 64, 1])
            .full_mip_chain()
            .desc()
            .unwrap();
        assert_eq!(
            (d.gob_order, d.block, d.texels_per_elem, d.layers, d.levels),
            (GobOrder::Tegra, BlockPolicy::Nvn, [4, 4], 6, 7)
        );
        let z16 = Format::parse("Z16").unwrap();
        let d = TextureSpec::new(Gpu::Gh100, TextureType::D2, &z16, [256, 256, 1]).desc().unwrap();
        assert_eq!((d.gob_order, d.block), (GobOrder::Blackwell16, BlockPolicy::Nvidia));
        // A refusal names the rule; an override lifts it.
        let z24 = Format::parse("Z24_S8").unwrap();
        assert!(TextureSpec::new(Gpu::Gh100, TextureType::D2, &z24, [8, 8, 1]).build().is_err());
        assert!(TextureSpec::new(Gpu::Gh100, TextureType::D2, &z24, [8, 8, 1])
            .gob_order(GobOrder::Turing)
            .build()
            .is_ok());
        // Pre-G80: swizzled, no gob order asked for.
        assert!(TextureSpec::with_elem_size(Gpu::Nv2a, TextureType::D2, 4, [64, 64, 1]).build().is_ok());
        // A format the GPU lacks.
        assert!(TextureSpec::new(Gpu::G80, TextureType::D2, &bc7, [8, 8, 1]).build().is_err());
    }

    #[test]
    fn switch_explicit_block_keeps_the_single_layer_unpadded() {
        // 256x256 BC7, 9 levels, block height 8 gobs: tegra_swizzle's 89600 bytes on the `switch`
        // preset (ScanMountGoat/tegra_swizzle `src/surface.rs`); the document's padding to level
        // 0's block (90112) elsewhere; arrays keep the aligned stride either way.
        let bc7 = Format::parse("bc7").unwrap();
        let size = |p: Platform, layers: u32| {
            TextureSpec::new(p, TextureType::D2Array, &bc7, [256, 256, 1])
                .levels(9)
                .layers(layers)
                .block_policy(BlockPolicy::Explicit([0, 3, 0]))
                .build()
                .unwrap()
                .size_bytes()
        };
        let (switch, gm20b) = (Platform::parse("switch").unwrap(), Platform::from(Gpu::Gm20b));
        assert_eq!((size(switch, 1), size(gm20b, 1)), (89600, 90112));
        assert_eq!((size(switch, 2), size(gm20b, 2)), (2 * 90112, 2 * 90112));
        assert!(!switch.pads_single_layer(BlockPolicy::Explicit([0, 3, 0])));
        assert!(gm20b.pads_single_layer(BlockPolicy::Explicit([0, 3, 0])));
        assert!(switch.pads_single_layer(BlockPolicy::Max));
    }

    #[test]
    fn surfaces_take_the_policys_block_and_round_trip() {
        let rgba = Format::parse("A8B8G8R8").unwrap();
        let s = SurfaceSpec::new(Gpu::Gh100, &rgba, [300, 200, 1]).build().unwrap();
        match s {
            Surface::BlockLinear(b) => assert_eq!((b.block_log2(), b.gob_order()), ([0, 4, 0], GobOrder::Turing)),
            _ => panic!("{s:?}"),
        }
        let t = TextureSpec::new(Gpu::Gm20b, TextureType::D2, &rgba, [37, 21, 1]).full_mip_chain().build().unwrap();
        let lin: Vec<u8> = (0..t.linear_size_bytes() as usize).map(|i| (i * 31 % 251) as u8).collect();
        let dump = t.tile_to_buf(&lin, &CopyOptions::default()).unwrap();
        let back = t.untile_to_buf(&dump, &CopyOptions::default()).unwrap();
        assert_eq!(&back[..], &lin[..]);
        let px = decode_rgba8(&rgba, t.level_bytes(&back, 0, 0).unwrap(), [37, 21]).unwrap();
        assert_eq!(px[1], [lin[4], lin[5], lin[6], lin[7]]);
        assert!(decode_rgba8(&rgba, &lin[..10], [37, 21]).is_err());
        // A 3D level decodes slice by slice: BC1 10x6x2 has 3x2 blocks a slice, and its second
        // slice starts at block 6, which one 10x12 image would put in its first slice.
        let bc1 = Format::parse("bc1").unwrap();
        let blocks: Vec<u8> = (0..12u8).flat_map(|b| [b * 20, b, b * 20, b, 0, 0, 0, 0]).collect();
        let px = decode_rgba8_3d(&bc1, &blocks, [10, 6, 2]).unwrap();
        assert_eq!(px.len(), 10 * 6 * 2);
        let slice1 = decode_rgba8(&bc1, &blocks[48..], [10, 6]).unwrap();
        assert_eq!(&px[60..], &slice1[..]);
        assert_ne!(decode_rgba8(&bc1, &blocks, [10, 12]).unwrap()[60..], slice1[..]);
        assert_eq!(decode_rgba_f32_3d(&bc1, &blocks, [10, 6, 2]).unwrap().len(), 120);
        assert!(decode_rgba8_3d(&bc1, &blocks[..95], [10, 6, 2]).is_err());
        let e = decode_rgba8_3d(&bc1, &blocks, [10, 6, 0]).unwrap_err();
        assert!(matches!(e, Error::OutOfRange { field: "depth", value: 0, .. }), "{e:?}");
        // Zero sizes are errors, naming the side (issue #41 item 7).
        for (size, field) in [([0, 21], "width"), ([37, 0], "height")] {
            let e = decode_rgba8(&rgba, &lin, size).unwrap_err();
            assert!(matches!(e, Error::OutOfRange { field: f, value: 0, .. } if f == field), "{e:?}");
            assert!(decode_rgba_f32(&rgba, &lin, size).is_err());
        }
    }
}
