//! Helpers shared by the fuzz targets: picking catalogue entries from fuzzed indices, building
//! small surfaces from fuzzed fields, and handing bytes to the CLI's file readers.

use arbitrary::Arbitrary;
use nvsurf::format::Format;
use nvsurf::layout::ALL_GOB_ORDERS;
use nvsurf::layout::{LayoutKind, Surface, SurfaceDesc, TextureBlockWidth, ALL_BINDINGS};
use nvsurf::Gpu;
use std::path::PathBuf;
use std::sync::OnceLock;

/// Every GPU, by a fuzzed index.
pub fn gpu(i: u8) -> Gpu {
    let all = nvsurf::gpu::ALL_GPUS;
    all[usize::from(i) % all.len()]
}

/// The formats the seed corpus's pictures are made of, first in [`format`]'s order (so a seed
/// names its format by its index here): the picture targets' seeds start with this index.
pub const SEED_FORMATS: [&str; 10] =
    ["A8B8G8R8", "R32_G32_B32_A32", "bc1", "bc7", "R16", "B5G6R5", "Z24_S8", "Z32", "R16_G16_B16_A16", "uyvy"];

/// [`SEED_FORMATS`], then every format of the catalogue (each accepted name parsed once), by a
/// fuzzed index.
pub fn format(i: u16) -> Format {
    static ALL: OnceLock<Vec<Format>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        let seeds = SEED_FORMATS.iter().map(|n| Format::parse(n).expect("a seed format parses"));
        seeds.chain(nvsurf::format::all_names().into_iter().filter_map(|n| Format::parse(n).ok())).collect()
    });
    all[usize::from(i) % all.len()]
}

/// Writes `bytes` to this process's scratch file with extension `ext` (the CLI's readers take
/// paths, and their kind comes from the extension) and returns its path.
pub fn scratch_file(ext: &str, bytes: &[u8]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("nvsurf-fuzz-{}.{ext}", std::process::id()));
    std::fs::write(&path, bytes).expect("the scratch file is writable");
    path
}

/// The fields of a [`SurfaceDesc`], fuzzed. Indices pick from the catalogues; `None`s keep
/// the descriptor's defaults.
#[derive(Arbitrary, Debug, Clone)]
pub struct DescFields {
    pub gpu: u8,
    pub layout: u8,
    pub address: u64,
    pub elem_size: u32,
    pub size: [u32; 3],
    pub pitch_bytes: Option<u64>,
    pub block_log2: Option<[u32; 3]>,
    pub auto_size: Option<bool>,
    pub binding: Option<u8>,
    pub gob_order: u8,
    pub block_width_ignored: bool,
}

impl DescFields {
    /// The descriptor these fields describe.
    pub fn desc(&self) -> SurfaceDesc {
        let gpu = gpu(self.gpu);
        let mut d = SurfaceDesc::new(gpu, self.elem_size, self.size);
        d.layout = match self.layout % 3 {
            0 => LayoutKind::Pitch,
            1 => LayoutKind::BlockLinear,
            _ => LayoutKind::Swizzled,
        };
        d.address = self.address;
        d.pitch_bytes = self.pitch_bytes;
        d.block_log2 = self.block_log2;
        d.auto_size = self.auto_size;
        d.binding = self.binding.map(|b| ALL_BINDINGS[usize::from(b) % ALL_BINDINGS.len()]);
        d.gob_order = ALL_GOB_ORDERS[usize::from(self.gob_order) % ALL_GOB_ORDERS.len()];
        d.texture_block_width =
            if self.block_width_ignored { TextureBlockWidth::Ignored } else { TextureBlockWidth::Document };
        d
    }

    /// The same fields with every dimension cut to `1..=max_dim`, the element size to a small
    /// one (`1..=16`) and the pitch to at most `max_pitch` bytes: a surface small enough to copy
    /// byte by byte in a fuzz iteration.
    pub fn small(&self, max_dim: u32, max_pitch: u64) -> SurfaceDesc {
        let mut d = self.desc();
        d.elem_size_bytes = self.elem_size % 16 + 1;
        d.size = self.size.map(|v| v % max_dim + 1).into();
        d.pitch_bytes = self.pitch_bytes.map(|p| p % max_pitch);
        d.block_log2 = self.block_log2.map(|b| b.map(|v| v % 7));
        d.address = self.address % (1 << 20);
        d
    }
}

/// Builds a surface whose bytes fit in `max_bytes`, or `None`.
pub fn small_surface(f: &DescFields, max_dim: u32, max_pitch: u64, max_bytes: u64) -> Option<Surface> {
    let s = f.small(max_dim, max_pitch).build().ok()?;
    (s.size_bytes() <= max_bytes).then_some(s)
}
