//! The rules [`super::SurfaceSpec`] and [`super::TextureSpec`] share when they fill in what was
//! not given, and the record of what they filled in ([`Assumed`]): the one resolver the CLI, the
//! C library and the Python package all reach.

use crate::error::{Error, Result};
use crate::extent::{Extent, Texels};
use crate::format::Format;
use crate::gpu::{Family, Gpu};
use crate::layout::{GobOrder, LayoutKind};
use crate::modifier::Modifier;
use crate::platform::{FormatClass, Platform};
use crate::texture::{BlockPolicy, TextureType};
use alloc::format;
use alloc::string::String;

/// The largest side of a swizzled or compressed NV2A texture: 2^15, the largest log2 its 4-bit
/// `NV097_SET_TEXTURE_FORMAT` `BASE_SIZE_U`/`V`/`P` fields hold (nxdk `lib/pbkit/nv_regs.h`).
pub(super) const NV2A_MAX_SIDE: u32 = 1 << 15;

/// The most memory an NV2A system has, bytes: 128 MiB on development kits and Chihiro, 64 MiB
/// on a retail Xbox (Cxbx-Reloaded `CHIHIRO_MEMORY_SIZE`, `XBOX_MEMORY_SIZE`).
pub(super) const NV2A_MEMORY_BYTES: u64 = 128 << 20;

/// What a texture or surface holds: a format, or only an element size (here, beside the rules
/// that read it, so that `spec` imports `resolve` and not the other way round).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Elements {
    Format(Format),
    Size(u32),
}

impl Elements {
    pub(super) fn elem_size_bytes(self) -> u32 {
        match self {
            Elements::Format(f) => f.elem_size_bytes(),
            Elements::Size(s) => s,
        }
    }
    pub(super) fn texels_per_elem(self) -> [u32; 2] {
        match self {
            Elements::Format(f) => {
                let (w, h) = f.block_dims();
                [w, h]
            }
            Elements::Size(_) => [1, 1],
        }
    }
    pub(super) fn class(self) -> FormatClass {
        match self {
            Elements::Format(f) => FormatClass::of(&f),
            Elements::Size(_) => FormatClass::ElemSizeOnly,
        }
    }
}

/// Where a setting came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Source {
    /// The caller gave it (a setter of the spec, a flag, a parameter).
    Given,
    /// The platform's default (or, for the layout, the one the format or GPU implies).
    Default,
    /// A DRM format modifier ([`Overrides::modifier`]) set it.
    Modifier,
}

impl Source {
    /// `given`, `default` or `modifier`, the words the CLI's JSON and the Python package use.
    pub const fn name(self) -> &'static str {
        match self {
            Source::Given => "given",
            Source::Default => "default",
            Source::Modifier => "modifier",
        }
    }
}

/// The settings a caller gives in place of the resolver's defaults, each optional: what the
/// CLI's flags, the C parameters and the Python arguments share. Hand them to a spec with
/// [`super::SurfaceSpec::overrides`] or [`super::TextureSpec::overrides`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Overrides {
    /// The layout ([`super::SurfaceSpec::layout`]).
    pub layout: Option<LayoutKind>,
    /// The in-gob byte order ([`super::SurfaceSpec::gob_order`]).
    pub gob_order: Option<GobOrder>,
    /// The block policy, or an explicit block ([`super::SurfaceSpec::block_policy`]).
    pub block_policy: Option<BlockPolicy>,
    /// A DRM format modifier ([`super::SurfaceSpec::modifier`]): sets the layout, the block and
    /// the gob order of a 2D image, and refuses settings that contradict it.
    pub modifier: Option<u64>,
}

/// What a spec assumed on the way to its descriptor: the layout, and where the layout has gobs
/// the gob order and the block policy, each given or the platform's default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Assumed {
    /// The platform the spec names.
    pub platform: Platform,
    /// The format's class (which gob order applies); [`FormatClass::ElemSizeOnly`] for an
    /// element size.
    pub class: FormatClass,
    /// The layout: given, or the GPU's natural one (pitch for a linear `_RECT` format).
    pub layout: LayoutKind,
    /// Whether the layout was given.
    pub layout_source: Source,
    /// The gob order; `None` where the layout has no gobs (pitch, swizzled, buffers) or where
    /// no CPU byte order is known for the format ([`Assumed::gob_order_unknown`]).
    pub gob_order: Option<(GobOrder, Source)>,
    /// True where the layout has gobs but no CPU byte order is known for the format on the
    /// platform (24-bit depth on Blackwell, depth/stencil on desktop Fermi to Hopper) and none
    /// was given: only a layout resolved for its geometry ([`super::TextureSpec::resolve_geometry`],
    /// [`super::SurfaceSpec::resolve_geometry`]) gets this far; offsets, blocks and sizes do not
    /// depend on the byte order, but its bytes cannot be moved.
    pub gob_order_unknown: bool,
    /// The block policy ([`BlockPolicy::Explicit`] for a given block); `None` where the layout
    /// has no gobs.
    pub block_policy: Option<(BlockPolicy, Source)>,
    /// The DRM format modifier that set the layout, block and gob order, if one was given.
    pub modifier: Option<u64>,
}

impl Assumed {
    /// One line for people: `gob order turing (default for gh100, colour), block policy nvidia
    /// (default for gh100)`; `pitch layout (no gobs: no gob order or block policy)` for
    /// layouts without them.
    pub fn describe(&self) -> String {
        let p = self.platform.name();
        let Some((policy, ps)) = self.block_policy else {
            return format!("{} layout (no gobs: no gob order or block policy)", self.layout.name());
        };
        let m = self.modifier.unwrap_or(0);
        let order = match self.gob_order {
            Some((order, Source::Given)) => format!("gob order {order} (given)"),
            Some((order, Source::Default)) => format!("gob order {order} (default for {p}, {})", self.class),
            Some((order, Source::Modifier)) => format!("gob order {order} (modifier {m:#x})"),
            None => format!("gob order unknown (none is known for {} on {p})", self.class),
        };
        let policy = match (policy, ps) {
            (BlockPolicy::Explicit([x, y, z]), Source::Modifier) => format!("block log2 {x},{y},{z} (modifier {m:#x})"),
            (BlockPolicy::Explicit([x, y, z]), _) => format!("block log2 {x},{y},{z} (given)"),
            (q, Source::Given) => format!("block policy {} (given)", q.name()),
            (q, Source::Default | Source::Modifier) => format!("block policy {} (default for {p})", q.name()),
        };
        format!("{order}, {policy}")
    }
}

/// A value and where it came from.
pub(super) type Sourced<T> = (T, Source);

/// A given value, or the default `f` computes.
pub(super) fn given_or<T>(given: Option<T>, f: impl FnOnce() -> Result<T>) -> Result<(T, Source)> {
    match given {
        Some(v) => Ok((v, Source::Given)),
        None => Ok((f()?, Source::Default)),
    }
}

/// The resolver's steps, shared by both specs.
pub(super) struct Resolver {
    pub(super) platform: Platform,
    pub(super) elements: Elements,
    /// Lay out a format the GPU cannot sample (`--any-format`); refused otherwise.
    pub(super) any_format: bool,
}

impl Resolver {
    /// Refuses a format newer than the GPU (BC6H/BC7 GF100+, ASTC/ETC2 GM107+, ...): the G80
    /// tables also serve the older GPUs' layouts (a G80 `Format` built in Rust; by name a pre-G80
    /// GPU takes only its own table), and a pre-G80 row a GPU lacks is refused by
    /// [`crate::format::Format::parse_for`] already.
    ///
    /// Unless `any_format` is set, also refuses a format the GPU cannot sample per Mesa nil's
    /// format table ([`Format::caps_on`]: ETC2/EAC and ASTC on desktop GPUs).
    pub(super) fn check_format(&self) -> Result<()> {
        let gpu = self.platform.gpu();
        match self.elements {
            Elements::Format(f) if f.since().is_some_and(|s| gpu < s) => Err(Error::Unsupported {
                field: "format",
                value: f.name().into(),
                rule: format!("does not exist on {}: {}", gpu, f.availability_rule()),
            }),
            Elements::Format(f) if !self.any_format && f.unsampleable_on(gpu) => Err(Error::Unsupported {
                field: "format",
                value: f.name().into(),
                rule: format!(
                    "cannot be sampled on {gpu} (Mesa nil's format table: ETC2/EAC and ASTC are texturable \
                         on Tegra only); --any-format (any_format) lays it out anyway"
                ),
            }),
            _ => Ok(()),
        }
    }

    /// Refuses a texture kind a pre-G80 format may not be ([`crate::format::PreG80Format::kinds`]):
    /// a linear format (`_RECT`; NV097 `LU_IMAGE`/`LC_IMAGE`, YUY2 and UYVY among them) has one
    /// level and no depth, and may be a cube of 2D faces (`docs/ERRATA.md` E12).
    pub(super) fn check_kinds(&self, ty: TextureType, levels: u32) -> Result<()> {
        use crate::format::{KIND_3D, KIND_CUBE, KIND_MIPS};
        let Elements::Format(f) = self.elements else { return Ok(()) };
        let Some(row) = f.pre_g80() else { return Ok(()) };
        if levels > 1 && row.kinds & KIND_MIPS == 0 {
            return Err(Error::Unsupported {
                field: "levels",
                value: format!("{levels}"),
                rule: format!("format {} is linear: it has one level", f.name()),
            });
        }
        let need = match ty {
            TextureType::D3 => KIND_3D,
            TextureType::Cube | TextureType::CubeArray => KIND_CUBE,
            _ => 0,
        };
        if row.kinds & need != need {
            return Err(Error::Unsupported {
                field: "texture type",
                value: ty.name().into(),
                rule: format!("format {} is linear: a 2D texture or a cube of 2D faces", f.name()),
            });
        }
        Ok(())
    }

    /// The layout and whether it was given. A linear-only format (the pre-G80 `_RECT` rows)
    /// implies pitch when none is given and refuses any other; otherwise `natural` (the GPU's
    /// layout for this kind of surface or texture) unless one is given.
    pub(super) fn layout(&self, given: Option<LayoutKind>, natural: LayoutKind) -> Result<(LayoutKind, Source)> {
        let linear = match self.elements {
            Elements::Format(f) if f.is_linear_only() => Some(f),
            _ => None,
        };
        match (given, linear) {
            (Some(LayoutKind::Pitch), _) => Ok((LayoutKind::Pitch, Source::Given)),
            (Some(l), Some(f)) => Err(Error::Unsupported {
                field: "layout",
                value: l.name().into(),
                rule: format!("format {} is linear (a _RECT format): its layout is pitch", f.name()),
            }),
            (Some(l), None) => Ok((l, Source::Given)),
            (None, Some(_)) => Ok((LayoutKind::Pitch, Source::Default)),
            (None, None) => Ok((natural, Source::Default)),
        }
    }

    /// The layout a plain surface stores, given the one [`Self::layout`] chose: a compressed
    /// format (4x4 blocks) on a pre-G80 GPU is never Morton-swizzled. Its blocks lie in rows,
    /// tightly packed (issue #41 item 4), as pre-G80 textures store them
    /// ([`crate::texture::Texture`]'s pre-G80 rule, and xemu `hw/xbox/nv2a/pgraph/s3tc.c`,
    /// `s3tc_decompress_2d`, which reads block `j * blocks_wide + i`). The swizzled layout
    /// chosen by default becomes pitch; one given is refused, as is a depth above 1 (a 3D
    /// compressed image keeps each block's slices together: [`Self::check_pre_g80_3d_blocks`]).
    pub(super) fn surface_layout(
        &self,
        (layout, source): Sourced<LayoutKind>,
        depth: u32,
    ) -> Result<Sourced<LayoutKind>> {
        let gpu = self.platform.gpu();
        let blocks = self.elements.texels_per_elem() != [1, 1];
        if gpu.is_g80_or_later() || !blocks || layout != LayoutKind::Swizzled {
            return Ok((layout, source));
        }
        let name = match self.elements {
            Elements::Format(f) => f.name(),
            Elements::Size(_) => "a compressed format",
        };
        if source == Source::Given {
            return Err(Error::Unsupported {
                field: "layout",
                value: layout.name().into(),
                rule: format!(
                    "{name} on {gpu} stores its 4x4 blocks in rows, never swizzled: leave the layout out or give pitch"
                ),
            });
        }
        if depth != 1 {
            return Err(Error::Unsupported {
                field: "depth",
                value: format!("{depth}"),
                rule: format!(
                    "a compressed surface ({name}) on {gpu} is 2D (depth 1): 3D ones keep each block's slices together"
                ),
            });
        }
        Ok((LayoutKind::Pitch, source))
    }

    /// NV2A's own bounds on a texture or surface of `size_px` texels and `layers` layers in
    /// `layout` (issue #41 item 7); other GPUs pass.
    ///
    /// - The size of a swizzled or compressed texture is given as log2 fields of 4 bits each:
    ///   `NV097_SET_TEXTURE_FORMAT` `BASE_SIZE_U` 0x00F00000, `BASE_SIZE_V` 0x0F000000,
    ///   `BASE_SIZE_P` 0xF0000000 (nxdk `lib/pbkit/nv_regs.h`), so no side exceeds 2^15.
    /// - All of it lies in the system's memory, which the GPU shares: 64 MiB on a retail Xbox,
    ///   128 MiB on development kits and Chihiro (Cxbx-Reloaded, `XBOX_MEMORY_SIZE` and
    ///   `CHIHIRO_MEMORY_SIZE`). Level 0 of every layer (a lower bound of the whole) may not
    ///   exceed the larger.
    pub(super) fn check_nv2a(&self, size_px: Extent<Texels>, layers: u32, layout: LayoutKind) -> Result<()> {
        if self.platform.gpu() != Gpu::Nv2a {
            return Ok(());
        }
        let blocks = self.elements.texels_per_elem() != [1, 1];
        if layout == LayoutKind::Swizzled || blocks {
            let fields = [("width", "BASE_SIZE_U"), ("height", "BASE_SIZE_V"), ("depth", "BASE_SIZE_P")];
            for ((field, reg), v) in fields.into_iter().zip(size_px.to_array()) {
                if v > NV2A_MAX_SIDE {
                    return Err(Error::Unsupported {
                        field,
                        value: format!("{v}"),
                        rule: format!(
                            "NV2A gives a swizzled or compressed texture's {field} as log2 in the 4-bit field \
                             NV097_SET_TEXTURE_FORMAT {reg} (nxdk nv_regs.h): at most {NV2A_MAX_SIDE}"
                        ),
                    });
                }
            }
        }
        let el = size_px.to_elements_by(self.elements.texels_per_elem());
        let bytes = [el.width, el.height, el.depth, layers, self.elements.elem_size_bytes()]
            .into_iter()
            .try_fold(1u64, |acc, v| acc.checked_mul(u64::from(v)));
        match bytes {
            Some(b) if b <= NV2A_MEMORY_BYTES => Ok(()),
            _ => Err(Error::Unsupported {
                field: "size",
                value: format!("{}x{}x{} x {layers} layers", size_px.width, size_px.height, size_px.depth),
                rule: format!(
                    "needs more than the {} MiB an NV2A system has (retail Xbox 64 MiB, development kit and \
                     Chihiro 128 MiB: Cxbx-Reloaded XBOX_MEMORY_SIZE, CHIHIRO_MEMORY_SIZE)",
                    NV2A_MEMORY_BYTES >> 20
                ),
            }),
        }
    }

    /// Refuses a pre-G80 compressed texture of more than one slice (issue #41 item 4). NV2A
    /// keeps each 4x4 block's slices together, 4 at a time (4x4x4 blocks; 4x4x2 or 4x4x1 for a
    /// depth of 2 or 1 and the last group): NVIDIA's `NV_texture_compression_vtc` ("VTC
    /// blocks"), which xemu's 3D S3TC decoding reads (`hw/xbox/nv2a/pgraph/s3tc.c`,
    /// `s3tc_decompress_3d`; xemu issue #40 names the extension). Block (0,0,1) of a 16x16x8
    /// DXT1 texture lies at byte 8, (1,0,0) at byte 32. nvsurf's copies move whole rows of
    /// blocks, so they do not lay that arrangement out yet (docs/ERRATA.md, "3D compressed
    /// textures before G80"); slices one after another would be wrong, so it is refused.
    /// [`crate::texture::vtc_to_slices`] rearranges such a level for decoding.
    pub(super) fn check_pre_g80_3d_blocks(&self, size_px: Extent<Texels>) -> Result<()> {
        let gpu = self.platform.gpu();
        if gpu.is_g80_or_later() || self.elements.texels_per_elem() == [1, 1] || size_px.depth <= 1 {
            return Ok(());
        }
        Err(Error::Unsupported {
            field: "depth",
            value: format!("{}", size_px.depth),
            rule: format!(
                "a 3D compressed texture on {gpu} keeps each 4x4 block's slices together, 4 at a time \
                 (NV_texture_compression_vtc; xemu s3tc_decompress_3d), which nvsurf does not lay out yet: depth 1 only"
            ),
        })
    }

    /// The record of a layout without gobs; [`Self::with_gobs`] adds the gob order and policy.
    pub(super) fn assumed(&self, (layout, layout_source): (LayoutKind, Source)) -> Assumed {
        Assumed {
            platform: self.platform,
            class: self.elements.class(),
            layout,
            layout_source,
            gob_order: None,
            gob_order_unknown: false,
            block_policy: None,
            modifier: None,
        }
    }

    /// The gob order (given, or the platform's for the format's class and element size, which
    /// may refuse) and the block policy (given, or the platform's driver's) of a layout with
    /// gobs. With `geometry_only`, an unknown default order is `None` instead of the refusal.
    pub(super) fn gobs(
        &self,
        order: Option<GobOrder>,
        policy: Option<BlockPolicy>,
        geometry_only: bool,
    ) -> Result<(Option<Sourced<GobOrder>>, Sourced<BlockPolicy>)> {
        let (class, size) = (self.elements.class(), self.elements.elem_size_bytes());
        let order = match given_or(order, || self.platform.default_gob_order_sized(class, size)) {
            Ok(o) => Some(o),
            Err(Error::Unsupported { field: "gob order", .. }) if geometry_only => None,
            Err(e) => return Err(e),
        };
        let policy = given_or(policy, || Ok(self.platform.default_block_policy()))?;
        Ok((order, policy))
    }
}

/// What a DRM format modifier sets ([`Resolver::apply_modifier`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct FromModifier {
    /// The modifier's value.
    pub(super) value: u64,
    /// Pitch (linear) or blocklinear.
    pub(super) layout: LayoutKind,
    /// Blocklinear: the gob order (the platform's for the format, which is the one the
    /// modifier's generation and sector layout name once [`crate::modifier::fit`] accepted it).
    pub(super) gob_order: Option<GobOrder>,
    /// Blocklinear: block (0, h, 0), h clamped to the image as the hardware does at each level
    /// (nil `tiling.rs`, `Tiling::clamp`).
    pub(super) block_log2: Option<[u32; 3]>,
    /// Linear: nil's row pitch (`image.rs`, `new_linear`: the row rounded up to 128 bytes, 256
    /// on Kepler and GM10x, whose 3D classes lie from KEPLER_A up to MAXWELL_B).
    pub(super) pitch_bytes: Option<u64>,
}

/// The settings given beside a modifier, which must agree with it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Beside {
    pub(super) layout: Option<LayoutKind>,
    pub(super) gob_order: Option<GobOrder>,
    pub(super) block: Option<BlockPolicy>,
}

fn conflict(field: &'static str, value: String, m: u64, rule: &str) -> Error {
    Error::Unsupported { field, value, rule: format!("conflicts with modifier {m:#x}: {rule}") }
}

/// nil's linear row alignment on `gpu`.
fn linear_row_align(gpu: Gpu) -> u64 {
    if gpu.family() == Family::Kepler || matches!(gpu, Gpu::Gm107 | Gpu::Gm108) {
        256
    } else {
        128
    }
}

impl Resolver {
    /// Applies a DRM format modifier to a 2D image of `size_px`: checks it against the GPU and
    /// format as NVK does ([`crate::modifier::fit`]) and against the settings given beside it,
    /// and returns the layout, block, gob order or pitch it sets.
    pub(super) fn apply_modifier(&self, value: u64, size_px: Extent<Texels>, beside: Beside) -> Result<FromModifier> {
        let gpu = self.platform.gpu();
        let format = match &self.elements {
            Elements::Format(f) => Some(f),
            Elements::Size(_) => None,
        };
        let m = crate::modifier::fit(gpu, format, self.elements.elem_size_bytes(), value)?;
        if size_px.depth != 1 {
            return Err(Error::Unsupported {
                field: "size",
                value: format!("depth {}", size_px.depth),
                rule: format!("modifier {value:#x} describes a 2D image (depth 1)"),
            });
        }
        let el = size_px.to_elements_by(self.elements.texels_per_elem());
        let (layout, name) = match m {
            Modifier::Linear => (LayoutKind::Pitch, "linear (pitch)"),
            Modifier::BlockLinear(_) => (LayoutKind::BlockLinear, "blocklinear"),
        };
        if let Some(l) = beside.layout.filter(|&l| l != layout) {
            return Err(conflict("layout", l.name().into(), value, &format!("the modifier's layout is {name}")));
        }
        let Modifier::BlockLinear(b) = m else {
            if let Some(o) = beside.gob_order {
                return Err(conflict("gob order", o.name().into(), value, "a linear image has no gobs"));
            }
            if let Some(p) = beside.block {
                return Err(conflict("block", p.name().into(), value, "a linear image has no blocks"));
            }
            let row = u64::from(el.width) * u64::from(self.elements.elem_size_bytes());
            let align = linear_row_align(gpu);
            let pitch = row.div_ceil(align).checked_mul(align).ok_or_else(|| Error::Overflow {
                what: "linear row pitch",
                detail: format!("{row} bytes rounded up to {align}"),
            })?;
            return Ok(FromModifier { value, layout, gob_order: None, block_log2: None, pitch_bytes: Some(pitch) });
        };
        let h = u32::from(b.block_height_log2);
        match beside.block {
            None => {}
            Some(BlockPolicy::Explicit(given)) if given == [0, h, 0] => {}
            Some(p) => {
                let v = match p {
                    BlockPolicy::Explicit([x, y, z]) => format!("{x},{y},{z}"),
                    q => q.name().into(),
                };
                return Err(conflict("block", v, value, &format!("the modifier's block is 0,{h},0")));
            }
        }
        let order = self.platform.default_gob_order(self.elements.class())?;
        if let Some(o) = beside.gob_order.filter(|&o| o != order) {
            return Err(conflict(
                "gob order",
                o.name().into(),
                value,
                &format!("the modifier's gob kind names the {} order on {}", order.name(), gpu.name()),
            ));
        }
        let gob_rows = gpu.gob_height_rows().unwrap_or(8).max(1);
        let gobs_high = el.height.div_ceil(gob_rows).max(1);
        let fits = gobs_high.next_power_of_two().trailing_zeros();
        Ok(FromModifier {
            value,
            layout,
            gob_order: Some(order),
            block_log2: Some([0, h.min(fits), 0]),
            pitch_bytes: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Format;
    use crate::gpu::Gpu;
    use crate::texture::TextureType;
    use crate::{SurfaceSpec, TextureSpec};

    fn rect(gpu: Gpu) -> Format {
        Format::parse_for("A8R8G8B8_RECT", gpu).unwrap()
    }

    #[test]
    fn rect_formats_mean_pitch_on_surfaces() {
        for gpu in [Gpu::Nv2a, Gpu::Nv40] {
            let f = rect(gpu);
            // No layout: pitch, even at a size swizzled would refuse (60 is no power of two).
            let (d, a) = SurfaceSpec::new(gpu, &f, [60, 30, 1]).resolve().unwrap();
            assert_eq!((d.layout, a.layout, a.layout_source), (LayoutKind::Pitch, LayoutKind::Pitch, Source::Default));
            assert_eq!(d.build().unwrap().size_bytes(), 60 * 4 * 30);
            // Pitch given: fine.
            let (_, a) = SurfaceSpec::new(gpu, &f, [60, 30, 1]).layout(LayoutKind::Pitch).resolve().unwrap();
            assert_eq!((a.layout, a.layout_source), (LayoutKind::Pitch, Source::Given));
            // Another layout: refused in one line naming the field, the value and the rule.
            for l in [LayoutKind::Swizzled, LayoutKind::BlockLinear] {
                let e = SurfaceSpec::new(gpu, &f, [64, 32, 1]).layout(l).resolve().unwrap_err();
                let msg = alloc::string::ToString::to_string(&e);
                assert_eq!(
                    msg,
                    format!("layout {} is not supported: format A8R8G8B8_RECT is linear (a _RECT format): its layout is pitch", l.name())
                );
                assert!(!msg.contains('\n'));
            }
        }
    }

    #[test]
    fn rect_formats_mean_pitch_on_textures() {
        for gpu in [Gpu::Nv2a, Gpu::Nv40] {
            let f = rect(gpu);
            let (d, a) = TextureSpec::new(gpu, TextureType::D2, &f, [60, 30, 1]).resolve().unwrap();
            assert_eq!(
                (d.layout, a.layout_source, a.gob_order, a.block_policy),
                (LayoutKind::Pitch, Source::Default, None, None)
            );
            assert_eq!(d.build().unwrap().size_bytes(), 60 * 4 * 30);
            let t = TextureSpec::new(gpu, TextureType::D2, &f, [60, 30, 1]).layout(LayoutKind::Pitch).build().unwrap();
            assert_eq!(t.layout(), LayoutKind::Pitch);
            for l in [LayoutKind::Swizzled, LayoutKind::BlockLinear] {
                let e = TextureSpec::new(gpu, TextureType::D2, &f, [64, 32, 1]).layout(l).resolve().unwrap_err();
                assert!(matches!(e, Error::Unsupported { field: "layout", .. }), "{e:?}");
                assert!(alloc::string::ToString::to_string(&e).contains("is linear (a _RECT format)"), "{e}");
            }
        }
        // The same format name without _RECT keeps the GPU's swizzled layout.
        let sw = Format::parse_for("A8R8G8B8", Gpu::Nv2a).unwrap();
        let (d, _) = TextureSpec::new(Gpu::Nv2a, TextureType::D2, &sw, [64, 32, 1]).resolve().unwrap();
        assert_eq!(d.layout, LayoutKind::Swizzled);
    }

    #[test]
    fn compressed_surfaces_before_g80_keep_their_blocks_in_rows() {
        // Issue #41 item 4: DXT1 on nv2a was Morton-swizzled (blocks 0 1 4 5 2 3 ...).
        for gpu in [Gpu::Nv2a, Gpu::Nv40] {
            let f = Format::parse_for("DXT1", gpu).unwrap();
            let (d, a) = SurfaceSpec::new(gpu, &f, [16, 8, 1]).resolve().unwrap();
            assert_eq!((d.layout, a.layout, a.layout_source), (LayoutKind::Pitch, LayoutKind::Pitch, Source::Default));
            let s = d.build().unwrap();
            // 4x2 blocks of 8 bytes: block (1,0) right after block (0,0), (0,1) after the row.
            assert_eq!((s.offset_of(1, 0, 0).unwrap(), s.offset_of(0, 1, 0).unwrap()), (8, 32));
            assert_eq!(s.size_bytes(), 64);
            // Swizzled given: refused in one line naming the field.
            let e = SurfaceSpec::new(gpu, &f, [16, 8, 1]).layout(LayoutKind::Swizzled).resolve().unwrap_err();
            let msg = alloc::string::ToString::to_string(&e);
            assert!(matches!(e, Error::Unsupported { field: "layout", .. }), "{e:?}");
            assert!(msg.contains("in rows, never swizzled") && !msg.contains('\n'), "{msg}");
            // A 3D compressed surface is a 3D texture.
            let e = SurfaceSpec::new(gpu, &f, [16, 8, 4]).resolve().unwrap_err();
            assert!(matches!(e, Error::Unsupported { field: "depth", .. }), "{e:?}");
            // A 3D compressed texture keeps each block's slices together (VTC), which is not
            // laid out yet: refused rather than stored slice after slice. Depth 1 is 2D.
            let e = TextureSpec::new(gpu, TextureType::D3, &f, [16, 16, 8]).resolve().unwrap_err();
            let msg = alloc::string::ToString::to_string(&e);
            assert!(matches!(e, Error::Unsupported { field: "depth", .. }), "{e:?}");
            assert!(msg.contains("NV_texture_compression_vtc") && !msg.contains('\n'), "{msg}");
            assert!(TextureSpec::new(gpu, TextureType::D3, &f, [16, 16, 1]).resolve().is_ok());
            // Uncompressed formats stay swizzled.
            let (d, _) = SurfaceSpec::with_elem_size(gpu, 4, [16, 8, 1]).resolve().unwrap();
            assert_eq!(d.layout, LayoutKind::Swizzled);
        }
        // G80 keeps blocklinear for BC1.
        let bc1 = Format::parse("bc1").unwrap();
        let (d, _) = SurfaceSpec::new(Gpu::G80, &bc1, [16, 8, 1]).resolve().unwrap();
        assert_eq!(d.layout, LayoutKind::BlockLinear);
    }

    #[test]
    fn nv2a_bounds_sizes_by_its_fields_and_memory() {
        let one_line = |e: &Error| {
            let m = alloc::string::ToString::to_string(e);
            assert!(!m.contains('\n'), "{m}");
            m
        };
        // 4-bit log2 fields: 2^15 fits, 2^16 is refused naming the field.
        let l8 = Format::parse_for("L8", Gpu::Nv2a).unwrap();
        assert!(TextureSpec::new(Gpu::Nv2a, TextureType::D2, &l8, [1 << 15, 1, 1]).resolve().is_ok());
        let e = TextureSpec::new(Gpu::Nv2a, TextureType::D2, &l8, [1 << 16, 1, 1]).resolve().unwrap_err();
        assert!(matches!(e, Error::Unsupported { field: "width", .. }), "{e:?}");
        assert!(one_line(&e).contains("BASE_SIZE_U"), "{e}");
        let e = TextureSpec::new(Gpu::Nv2a, TextureType::D3, &l8, [1, 1, 1 << 16]).resolve().unwrap_err();
        assert!(one_line(&e).contains("BASE_SIZE_P"), "{e}");
        let dxt = Format::parse_for("DXT1", Gpu::Nv2a).unwrap();
        let e = SurfaceSpec::new(Gpu::Nv2a, &dxt, [4, 1 << 16, 1]).resolve().unwrap_err();
        assert!(matches!(e, Error::Unsupported { field: "height", .. }) && one_line(&e).contains("BASE_SIZE_V"));
        // Memory: 4096x4096 A8R8G8B8 (64 MiB) fits, 8192x8192 (256 MiB) does not.
        let argb = Format::parse_for("A8R8G8B8", Gpu::Nv2a).unwrap();
        assert!(TextureSpec::new(Gpu::Nv2a, TextureType::D2, &argb, [4096, 4096, 1]).resolve().is_ok());
        let e = TextureSpec::new(Gpu::Nv2a, TextureType::D2, &argb, [8192, 8192, 1]).resolve().unwrap_err();
        assert!(matches!(e, Error::Unsupported { field: "size", .. }) && one_line(&e).contains("128 MiB"), "{e}");
        let e = SurfaceSpec::new(Gpu::Nv2a, &argb, [8192, 8192, 1]).resolve().unwrap_err();
        assert!(matches!(e, Error::Unsupported { field: "size", .. }), "{e:?}");
        // Other GPUs keep their own rules.
        assert!(TextureSpec::with_elem_size(Gpu::Nv40, TextureType::D2, 1, [1 << 16, 1, 1]).resolve().is_ok());
    }

    #[test]
    fn assumed_records_each_default_and_describes_it() {
        let rgba = Format::parse("A8B8G8R8").unwrap();
        let (_, a) = SurfaceSpec::new(Gpu::Gh100, &rgba, [300, 200, 1]).resolve().unwrap();
        assert_eq!(
            (a.layout, a.layout_source, a.gob_order, a.block_policy),
            (
                LayoutKind::BlockLinear,
                Source::Default,
                Some((GobOrder::Turing, Source::Default)),
                Some((BlockPolicy::Nvidia, Source::Default))
            )
        );
        assert_eq!(
            a.describe(),
            "gob order turing (default for gh100, colour), block policy nvidia (default for gh100)"
        );
        let switch = Platform::parse("switch").unwrap();
        let (_, a) = TextureSpec::new(switch, TextureType::D2, &rgba, [64, 64, 1])
            .gob_order(GobOrder::Vm)
            .block_policy(BlockPolicy::Explicit([0, 3, 0]))
            .resolve()
            .unwrap();
        assert_eq!(a.describe(), "gob order vm (given), block log2 0,3,0 (given)");
        let (_, a) =
            SurfaceSpec::with_elem_size(Gpu::Gf100, 4, [64, 64, 1]).block_policy(BlockPolicy::Max).resolve().unwrap();
        assert_eq!(a.class, FormatClass::ElemSizeOnly);
        assert_eq!(a.describe(), "gob order fermi (default for gf100, element size only), block policy max (given)");
        // No gobs: pitch, swizzled, buffers.
        let (_, a) = SurfaceSpec::new(Gpu::Gh100, &rgba, [64, 64, 1]).layout(LayoutKind::Pitch).resolve().unwrap();
        assert_eq!((a.gob_order, a.block_policy, a.layout_source), (None, None, Source::Given));
        assert_eq!(a.describe(), "pitch layout (no gobs: no gob order or block policy)");
        let (_, a) = TextureSpec::with_elem_size(Gpu::Nv40, TextureType::D2, 4, [64, 64, 1]).resolve().unwrap();
        assert_eq!(a.describe(), "swizzled layout (no gobs: no gob order or block policy)");
        let (_, a) = TextureSpec::with_elem_size(Gpu::Gh100, TextureType::Buffer, 4, [64, 1, 1]).resolve().unwrap();
        assert_eq!((a.layout, a.gob_order), (LayoutKind::BlockLinear, None));
        assert_eq!((Source::Given.name(), Source::Default.name()), ("given", "default"));
    }

    #[test]
    fn a_refused_default_gob_order_is_the_resolvers_error() {
        let z24 = Format::parse("Z24_S8").unwrap();
        let e = SurfaceSpec::new(Gpu::Gh100, &z24, [8, 8, 1]).resolve().unwrap_err();
        assert!(matches!(e, Error::Unsupported { field: "gob order", .. }), "{e:?}");
        // Pitch has no gobs, so no gob order is asked for.
        assert!(SurfaceSpec::new(Gpu::Gh100, &z24, [8, 8, 1]).layout(LayoutKind::Pitch).resolve().is_ok());
        let bc7 = Format::parse("bc7").unwrap();
        let e = SurfaceSpec::new(Gpu::G80, &bc7, [8, 8, 1]).resolve().unwrap_err();
        assert!(matches!(e, Error::Unsupported { field: "format", .. }), "{e:?}");
    }
}
