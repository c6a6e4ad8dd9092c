//! Platforms: a GPU, or a preset users type (`switch`), and the defaults its driver implies.
//!
//! Naming the chip (or the console) is enough to get the bytes its driver makes: for a
//! (platform, [`FormatClass`]) pair this module answers the in-gob byte order a CPU sees through
//! a linear mapping ([`Platform::default_gob_order`]) and the block policy of the platform's
//! driver ([`Platform::default_block_policy`]). The evidence, generation by generation:
//!
//! | GPUs | colour | 16-bit depth | 32-bit float depth | 24-bit depth | other depth/stencil | policy |
//! |---|---|---|---|---|---|---|
//! | Blackwell | by element size (7) | [`GobOrder::Blackwell16`] (7) | [`GobOrder::Turing`] (7) | unknown (7) | by element size (7) | `nvidia` |
//! | Turing to Hopper, desktop | [`GobOrder::Turing`] (1) | [`GobOrder::Blackwell16`] (2) | [`GobOrder::Turing`] (2) | unknown | unknown | `nvidia` |
//! | Fermi to Volta, desktop | [`GobOrder::Fermi`] (3) | unknown | unknown | unknown | unknown | `nvidia` |
//! | Tegra SoCs | [`GobOrder::Tegra`] (4) | Tegra (5) | Tegra (5) | Tegra (5) | Tegra (5) | `nvidia` (`switch`: `nvn`) |
//! | G80 to GT215 | [`GobOrder::Vm`] (6) | VM | VM | VM | VM | `max` |
//!
//! 1. CUDA arrays and Vulkan images of an H100 (GH100, driver 580.159) read through a linear
//!    mapping of the same memory: 24 of 24 textures and 600 of 600 sizes with NVIDIA's block
//!    rule (`docs/HARDWARE.md`; Mesa's nil `src/nouveau/nil/tiling.rs`, `GOBType::TuringColor2D`).
//! 2. Vulkan D16_UNORM and D32_SFLOAT images on the same H100 (measured on GH100 only); the 16-bit
//!    order is Mesa nil's `GOBType::Blackwell16Bit`. D24/S8 images match no known order.
//! 3. Mesa's nil `GOBType::FermiColor`, what NVK uses on these chips; no capture checked it.
//! 4. The Tegra X1 TRM ("block linear") and every Switch tool (tegra_swizzle, Ryujinx).
//! 5. What Switch tools assume for every format; no depth capture checked it.
//! 6. No CPU order is known for G80's 256-byte gobs: the document's VM view
//!    (envytools `docs/hw/memory/g80-surface.rst`).
//! 7. Mesa's nil `GOBType::choose` (`src/nouveau/nil/tiling.rs`, Mesa commit
//!    157fa86f6d5def2bec5c91f33be70c138250ab7f), for 3D classes from BLACKWELL_A: the Z24
//!    formats (Z24X8, X8Z24, Z24S8, S8Z24, X24S8, S8X24) take `BlackwellZ24`, whose CPU order
//!    nil does not give (no copy routine; unknown here); every other format goes by its element
//!    size: 1 byte [`GobOrder::Blackwell8`], 2 bytes [`GobOrder::Blackwell16`], more
//!    [`GobOrder::Turing`]. No capture checked Blackwell; the layouts otherwise follow Ada's,
//!    as nil's do.
//!
//! Block policies: NVIDIA's rule as nil reproduces it matches every GH100 capture; NVN's is what
//! Switch files use ([`BlockPolicy::Nvn`]); G80-GT215 keep the document's `max` request (older
//! NVK and nouveau's nv50 driver ask for the largest block and let auto-sizing shrink it).
//! Rendered colour targets of the H100 are compressed: their raw bytes are not a plain layout.

use crate::error::{closest, Error, Result};
use crate::extent::{Extent, Texels};
use crate::format::{Format, ZType};
use crate::gpu::{Family, Gpu, ALL_GPUS};
use crate::layout::{Binding, BlockLinear, BlockLinearParams, GobOrder};
use crate::texture::{BlockPolicy, TextureType};
use alloc::format;
use alloc::string::ToString;
use alloc::vec::Vec;

/// What kind of data a surface holds, as far as the in-gob byte order depends on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FormatClass {
    /// Colour (and every non-depth texture format, compressed or not).
    Color,
    /// 16-bit depth (Z16 / D16_UNORM).
    Depth16,
    /// 32-bit float depth without stencil (Z32 / ZF32 / D32_SFLOAT).
    DepthFloat32,
    /// 24-bit depth, with or without stencil or coverage (Z24S8, S8Z24, X8Z24, Z24X8, CSAA
    /// Z24 formats): Mesa nil's `BlackwellZ24` class on Blackwell.
    Depth24,
    /// Every other depth/stencil format (ZF32_X24S8, CSAA Z32 formats, ...).
    DepthStencil,
    /// Only an element size is known (no format): takes the colour order.
    ElemSizeOnly,
}

impl FormatClass {
    /// The class of a format: its zeta layout decides for depth formats.
    pub fn of(format: &Format) -> FormatClass {
        match format.layout() {
            crate::format::Layout::Zeta(z) => match (z.z, z.s_lo, z.c_lo, format.elem_size_bytes()) {
                (ZType::Unorm16, None, None, 2) => FormatClass::Depth16,
                (ZType::Float32, None, None, 4) => FormatClass::DepthFloat32,
                (ZType::Unorm24 | ZType::Float24Nv2a, ..) => FormatClass::Depth24,
                (ZType::Float16Nv2a, None, None, 2) => FormatClass::Depth16,
                _ => FormatClass::DepthStencil,
            },
            _ => FormatClass::Color,
        }
    }

    /// A short name for messages and JSON: `colour`, `16-bit depth`, `32-bit float depth`,
    /// `24-bit depth`, `depth/stencil`, `element size only`.
    pub const fn name(self) -> &'static str {
        match self {
            FormatClass::Color => "colour",
            FormatClass::Depth16 => "16-bit depth",
            FormatClass::DepthFloat32 => "32-bit float depth",
            FormatClass::Depth24 => "24-bit depth",
            FormatClass::DepthStencil => "depth/stencil",
            FormatClass::ElemSizeOnly => "element size only",
        }
    }
}

impl core::fmt::Display for FormatClass {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// A named platform that is more than a chip: its driver's conventions differ from the chip's
/// defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Preset {
    /// The Nintendo Switch: GM20B (Tegra X1) with NVN's block policy and the Tegra order.
    Switch,
}

/// Every preset with the names users type (the first is the canonical one).
pub const PRESETS: &[(Preset, &[&str])] = &[(Preset::Switch, &["switch", "nx"])];

impl Preset {
    /// The canonical name (`switch`).
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Switch => "switch",
        }
    }

    /// The chip of the preset.
    pub const fn gpu(self) -> Gpu {
        match self {
            Preset::Switch => Gpu::Gm20b,
        }
    }

    /// What the preset means, for `--help` and listings.
    pub const fn description(self) -> &'static str {
        match self {
            Preset::Switch => "GM20B (Tegra X1) with NVN's block policy and the Tegra gob order",
        }
    }
}

/// A GPU, possibly with a preset's conventions: what `--gpu` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Platform {
    gpu: Gpu,
    preset: Option<Preset>,
}

impl From<Gpu> for Platform {
    fn from(gpu: Gpu) -> Platform {
        Platform { gpu, preset: None }
    }
}

impl From<Preset> for Platform {
    fn from(p: Preset) -> Platform {
        Platform { gpu: p.gpu(), preset: Some(p) }
    }
}

impl Platform {
    /// Parses a preset name (`switch`, `nx`) or any name [`Gpu::parse`] accepts,
    /// case-insensitively; unknown names list the closest known ones of both.
    pub fn parse(name: &str) -> Result<Platform> {
        let n = name.trim().to_ascii_lowercase();
        if let Some((p, _)) = PRESETS.iter().find(|(_, names)| names.contains(&n.as_str())) {
            return Ok(Platform::from(*p));
        }
        Gpu::parse(name).map(Platform::from).map_err(|_| Error::UnknownName {
            kind: "gpu",
            name: name.to_string(),
            suggestions: closest(&n, all_platform_names()),
        })
    }

    /// The chip.
    pub const fn gpu(self) -> Gpu {
        self.gpu
    }

    /// The preset, if the platform was named by one.
    pub const fn preset(self) -> Option<Preset> {
        self.preset
    }

    /// The name: the preset's, else the chip's canonical one.
    pub const fn name(self) -> &'static str {
        match self.preset {
            Some(p) => p.name(),
            None => self.gpu.name(),
        }
    }

    /// The block policy of the platform's driver: NVN's for the Switch, NVIDIA's (as Mesa's nil
    /// reproduces it) on GF100 and later, the document's `max` request before.
    pub fn default_block_policy(self) -> BlockPolicy {
        match self.preset {
            Some(Preset::Switch) => BlockPolicy::Nvn,
            None if self.gpu.is_gf100_or_later() => BlockPolicy::Nvidia,
            None => BlockPolicy::Max,
        }
    }

    /// Whether a single-layer texture laid out with `policy` on this platform is padded up to
    /// level 0's block ([`crate::texture::TextureDesc::pad_single_layer`]). The `switch` preset
    /// keeps NVN's rule (no padding) with an explicit block too, as `tegra_swizzle` does when
    /// given a block height (ScanMountGoat/tegra_swizzle `src/surface.rs`,
    /// `swizzled_surface_size`: only arrays are aligned); elsewhere the policy decides.
    pub fn pads_single_layer(self, policy: BlockPolicy) -> bool {
        match (self.preset, policy) {
            (Some(Preset::Switch), BlockPolicy::Explicit(_)) => false,
            _ => policy.pads_single_layer(),
        }
    }

    /// The in-gob byte order a CPU sees through a linear mapping of a surface of `class` on this
    /// platform (see the module's table), for elements of 4 bytes or more where the element size
    /// decides (Blackwell: [`Platform::default_gob_order_sized`]). Where no order is known, an
    /// error that asks for one.
    pub fn default_gob_order(self, class: FormatClass) -> Result<GobOrder> {
        self.default_gob_order_sized(class, 4)
    }

    /// The in-gob byte order a CPU sees for a surface of `class` with `elem_size_bytes`-byte
    /// elements on this platform (see the module's table: on Blackwell 1- and 2-byte elements
    /// take their own orders). Where no order is known, an error that asks for one.
    pub fn default_gob_order_sized(self, class: FormatClass, elem_size_bytes: u32) -> Result<GobOrder> {
        let gpu = self.gpu;
        if !gpu.is_gf100_or_later() {
            // G80-GT215 gobs: the VM view; pre-G80 chips have no gobs.
            return Ok(GobOrder::Vm);
        }
        if gpu.is_tegra() {
            return Ok(GobOrder::Tegra);
        }
        let family = gpu.family();
        let turing_or_later = family >= Family::Turing;
        match class {
            FormatClass::Depth24 if family >= Family::Blackwell => {
                Err(unknown_order(class, gpu, "on Blackwell (Mesa nil's BlackwellZ24 gob has no CPU copy)"))
            }
            _ if family >= Family::Blackwell => Ok(match elem_size_bytes {
                1 => GobOrder::Blackwell8,
                2 => GobOrder::Blackwell16,
                _ => GobOrder::Turing,
            }),
            FormatClass::Color | FormatClass::ElemSizeOnly if turing_or_later => Ok(GobOrder::Turing),
            FormatClass::Color | FormatClass::ElemSizeOnly => Ok(GobOrder::Fermi),
            FormatClass::Depth16 if turing_or_later => Ok(GobOrder::Blackwell16),
            FormatClass::DepthFloat32 if turing_or_later => Ok(GobOrder::Turing),
            _ => Err(unknown_order(
                class,
                gpu,
                if turing_or_later { "on Turing to Hopper desktop GPUs" } else { "on Fermi to Volta desktop GPUs" },
            )),
        }
    }

    /// The block (log2 gobs x, y, z) that `policy` picks for a one-level texture of
    /// `size_texels` (2D, or 3D when the depth is above 1) of `elem_size_bytes`-byte elements that
    /// each hold `texels_per_elem` texels, auto-sized to that size: the block a plain surface
    /// gets when none is given.
    pub fn surface_block_log2(
        self,
        policy: BlockPolicy,
        elem_size_bytes: u32,
        size_texels: impl Into<Extent<Texels>>,
        texels_per_elem: [u32; 2],
    ) -> Result<[u32; 3]> {
        self.surface_block_log2_samples(policy, elem_size_bytes, size_texels, texels_per_elem, 1)
    }

    /// [`Self::surface_block_log2`] for a surface of `samples` samples per pixel: the block is
    /// chosen from the pixel size and fitted to the sample grid the surface stores
    /// ([`crate::msaa::MsMode::for_sample_count`]); under [`BlockPolicy::Nvk`] fitted by Mesa
    /// nil's clamp ([`crate::texture::clamp_block_log2`]) instead of the auto-sizing.
    pub fn surface_block_log2_samples(
        self,
        policy: BlockPolicy,
        elem_size_bytes: u32,
        size_texels: impl Into<Extent<Texels>>,
        texels_per_elem: [u32; 2],
        samples: u32,
    ) -> Result<[u32; 3]> {
        let size_texels: Extent<Texels> = size_texels.into();
        let ty = if size_texels.depth > 1 { TextureType::D3 } else { TextureType::D2 };
        let mut d = crate::texture::TextureDesc::new(self.gpu, ty, elem_size_bytes, size_texels);
        (d.texels_per_elem, d.samples) = (texels_per_elem, samples);
        let elements = d.level_elements(0);
        let stored = d.stored_elements(elements)?;
        let requested = policy.requested_log2_for(self.gpu, ty, size_texels, elements)?;
        if policy == BlockPolicy::Nvk {
            let rows = self.gpu.gob_height_rows().unwrap_or(8);
            let width_bytes = u64::from(stored.width) * u64::from(elem_size_bytes);
            let fit = [width_bytes, stored.height.into(), stored.depth.into()];
            return Ok(crate::texture::clamp_block_log2(requested, fit, rows));
        }
        let mut p = BlockLinearParams::new(self.gpu, elem_size_bytes, stored, requested);
        p.auto_size = Some(true);
        p.binding = Some(Binding::Texture);
        Ok(BlockLinear::new(&p)?.block_log2())
    }
}

impl core::fmt::Display for Platform {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.preset {
            Some(p) => f.write_str(p.name()),
            None => self.gpu.fmt(f),
        }
    }
}

/// The refusal of a default gob order: one line naming the class, the GPU and why.
fn unknown_order(class: FormatClass, gpu: Gpu, why: &str) -> Error {
    Error::Unsupported {
        field: "gob order",
        value: format!("{class} on {gpu}"),
        rule: format!(
            "no CPU byte order is known for {class} formats {why}: layout and texture give the \
             geometry, but moving bytes needs the gob order (--gob {})",
            crate::layout::GOB_ORDER_NAMES.join("|")
        ),
    }
}

/// Every name [`Platform::parse`] accepts: the presets' and every chip's.
pub fn all_platform_names() -> Vec<&'static str> {
    PRESETS.iter().flat_map(|(_, n)| n.iter().copied()).chain(ALL_GPUS.iter().flat_map(|g| g.all_names())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_and_chips() {
        let s = Platform::parse("Switch").unwrap();
        assert_eq!(
            (s.gpu(), s.preset(), s.default_block_policy()),
            (Gpu::Gm20b, Some(Preset::Switch), BlockPolicy::Nvn)
        );
        assert_eq!(Platform::parse("nx").unwrap(), s);
        let x1 = Platform::parse("tegra-x1").unwrap();
        assert_eq!((x1.preset(), x1.default_block_policy()), (None, BlockPolicy::Nvidia));
        assert_eq!(x1.default_gob_order(FormatClass::Color).unwrap(), GobOrder::Tegra);
        assert_eq!(Platform::parse("xbox").unwrap().gpu(), Gpu::Nv2a);
        assert!(matches!(Platform::parse("swtich"), Err(Error::UnknownName { .. })));
    }

    #[test]
    fn the_table_of_defaults() {
        let order = |g: Gpu, c| Platform::from(g).default_gob_order(c);
        use FormatClass::*;
        for g in [Gpu::Tu102, Gpu::Ga102, Gpu::Ad102, Gpu::Gh100] {
            assert_eq!(order(g, Color).unwrap(), GobOrder::Turing);
            assert_eq!(order(g, ElemSizeOnly).unwrap(), GobOrder::Turing);
            assert_eq!(order(g, Depth16).unwrap(), GobOrder::Blackwell16);
            assert_eq!(order(g, DepthFloat32).unwrap(), GobOrder::Turing);
            assert!(matches!(order(g, DepthStencil), Err(Error::Unsupported { field: "gob order", .. })));
            assert!(matches!(order(g, Depth24), Err(Error::Unsupported { field: "gob order", .. })));
            assert_eq!(Platform::from(g).default_block_policy(), BlockPolicy::Nvidia);
        }
        for g in [Gpu::Gf100, Gpu::Gk104, Gpu::Gm204, Gpu::Gp102, Gpu::Gv100] {
            assert_eq!(order(g, Color).unwrap(), GobOrder::Fermi);
            for c in [Depth16, DepthFloat32, Depth24, DepthStencil] {
                assert!(order(g, c).is_err(), "{g} {c}");
            }
            assert_eq!(Platform::from(g).default_block_policy(), BlockPolicy::Nvidia);
        }
        for g in [Gpu::Gk20a, Gpu::Gm20b, Gpu::Gp10b, Gpu::Gv11b, Gpu::Ga10b] {
            for c in [Color, Depth16, DepthFloat32, DepthStencil, ElemSizeOnly] {
                assert_eq!(order(g, c).unwrap(), GobOrder::Tegra);
            }
        }
        for g in [Gpu::G80, Gpu::G200, Gpu::Gt215, Gpu::Mcp89] {
            for c in [Color, Depth16, DepthStencil] {
                assert_eq!(order(g, c).unwrap(), GobOrder::Vm);
            }
            assert_eq!(Platform::from(g).default_block_policy(), BlockPolicy::Max);
        }
    }

    #[test]
    fn blackwell_goes_by_element_size_and_refuses_z24() {
        // nil's GOBType::choose (tiling.rs, Mesa 157fa86f6d5d) on BLACKWELL_A and later.
        use FormatClass::*;
        for g in [Gpu::Gb100, Gpu::Gb202, Gpu::Gb207, Gpu::Gb20b] {
            let p = Platform::from(g);
            for c in [Color, ElemSizeOnly, Depth16, DepthFloat32, DepthStencil] {
                assert_eq!(p.default_gob_order_sized(c, 1).unwrap(), GobOrder::Blackwell8, "{g} {c}");
                assert_eq!(p.default_gob_order_sized(c, 2).unwrap(), GobOrder::Blackwell16, "{g} {c}");
                for size in [4, 8, 12, 16] {
                    assert_eq!(p.default_gob_order_sized(c, size).unwrap(), GobOrder::Turing, "{g} {c}");
                }
            }
            let e = p.default_gob_order_sized(Depth24, 4).unwrap_err();
            assert!(matches!(e, Error::Unsupported { field: "gob order", .. }));
            let msg = alloc::string::ToString::to_string(&e);
            assert!(msg.contains("BlackwellZ24") && !msg.contains('\n'), "{msg}");
            assert_eq!(p.default_block_policy(), BlockPolicy::Nvidia);
        }
        let class = |n: &str| FormatClass::of(&Format::parse(n).unwrap());
        for z24 in ["Z24_S8", "S8_Z24", "Z24_X8"] {
            assert_eq!(class(z24), Depth24, "{z24}");
        }
    }

    #[test]
    fn format_classes() {
        let class = |n: &str| FormatClass::of(&Format::parse(n).unwrap());
        assert_eq!(class("Z16"), FormatClass::Depth16);
        assert_eq!(class("Z32"), FormatClass::DepthFloat32);
        assert_eq!(class("Z24_S8"), FormatClass::Depth24);
        assert_eq!(class("Z32_S8_X24"), FormatClass::DepthStencil);
        assert_eq!(class("A8B8G8R8"), FormatClass::Color);
        assert_eq!(class("bc7"), FormatClass::Color);
    }

    #[test]
    fn surface_blocks_follow_the_policy() {
        let gh = Platform::from(Gpu::Gh100);
        // NVIDIA's rule: 200 rows ask for 16 gobs, auto-sized to the 25 gobs of height (no
        // shrink); 20 rows ask for 2 gobs (20 + 10 >= 16) and keep them.
        assert_eq!(gh.surface_block_log2(BlockPolicy::Nvidia, 4, [300, 200, 1], [1, 1]).unwrap(), [0, 4, 0]);
        assert_eq!(gh.surface_block_log2(BlockPolicy::Nvidia, 4, [300, 20, 1], [1, 1]).unwrap(), [0, 1, 0]);
        // max: the smallest block covering the height (64 rows of 4-row G80 gobs: 16 gobs).
        let g80 = Platform::from(Gpu::G80);
        assert_eq!(g80.surface_block_log2(BlockPolicy::Max, 4, [64, 64, 1], [1, 1]).unwrap(), [0, 4, 0]);
        // 3D: NVIDIA's rule keeps a 3D texture one gob tall.
        assert_eq!(gh.surface_block_log2(BlockPolicy::Nvidia, 4, [64, 64, 8], [1, 1]).unwrap(), [0, 0, 3]);
    }
}
