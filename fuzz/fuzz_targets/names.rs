//! Every other name the CLI parses: GPUs and presets (`Gpu::parse`, `Platform::parse`, the XF
//! model's `nvxf::Gpu::from_name`), layouts, gob orders, binding points, block policies,
//! texture types, multisample modes and storage types.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(name) = std::str::from_utf8(data) else { return };
    let gpu = nvsurf::Gpu::parse(name);
    if let Ok(p) = nvsurf::Platform::parse(name) {
        let _ = p.default_block_policy();
    }
    let _ = nvxf::Gpu::from_name(name);
    let _ = nvsurf::layout::LayoutKind::parse(name);
    let _ = nvsurf::layout::GobOrder::parse(name);
    let _ = nvsurf::layout::Binding::parse(name);
    let _ = nvsurf::texture::BlockPolicy::parse(name);
    let _ = nvsurf::texture::TextureType::parse(name);
    let _ = nvsurf::msaa::MsMode::parse(name);
    let _ = nvsurf::storage::Compression::parse(name);
    let _ = nvsurf::storage::Memory::parse(name);
    let _ = nvsurf::storage::SurfaceLayout::parse(name);
    let _ = nvsurf::storage::parse_type(gpu.unwrap_or(nvsurf::Gpu::Gf100), name);
});
