//! ASTC LDR encoding (feature `bc-encode`) through the ASTC encoder of Intel's ISPC Texture
//! Compressor, as `intel_tex_2` 0.5 ships it prebuilt: no libclang, no C++ compile, only the
//! Rust toolchain and the system linker (`docs/encoding.md`).
//!
//! Why the C entry point: `intel_tex_2::astc::compress_blocks_into` 0.5 panics
//! (`unimplemented!()` in its `astc_encode`), but the crate links the encoder's C++ driver
//! (`ispc_texcomp_astc.cpp`, Intel ISPCTextureCompressor, `CompressBlocksASTC` and the
//! `rgba_surface` / `astc_enc_settings` structs of `ispc_texcomp.h`) into every build. We call
//! that function directly, with its preconditions proved here first (its `assert`s abort).
//!
//! What the encoder takes (`ispc_texcomp_astc.cpp`): 8-bit RGBA, footprints of at most 8x8,
//! and a surface whose width and height are multiples of the footprint. Partial edge blocks
//! are padded by repeating the edge pixels, as the BC encoders do. Larger footprints (10xN,
//! 12xN) are refused in one line naming the nvsurf-cli feature `astcenc` (ARM's encoder).

use super::encode_options::BcQuality;
use crate::error::{Error, Result};
use crate::extent::{Extent, Texels};
use alloc::vec::Vec;

/// The largest footprint side the built-in (ISPC) encoder takes.
pub const ISPC_ASTC_MAX_SIDE: u8 = 8;

/// `rgba_surface` of `ispc_texcomp.h`.
#[repr(C)]
struct RgbaSurface {
    ptr: *mut u8,
    width: i32,
    height: i32,
    stride: i32,
}

/// `astc_enc_settings` of `ispc_texcomp.h` (`fastSkipTreshold` is spelled so there).
#[repr(C)]
struct AstcEncSettings {
    block_width: i32,
    block_height: i32,
    channels: i32,
    fast_skip_threshold: i32,
    refine_iterations: i32,
}

extern "C" {
    /// Intel ISPCTextureCompressor's ASTC driver, linked by `intel_tex_2`'s build script
    /// (`libispc_texcomp_astc<target>.a`, beside its ISPC kernels).
    fn CompressBlocksASTC(src: *const RgbaSurface, dst: *mut u8, settings: *const AstcEncSettings);
}

/// Why footprint `w x h` cannot be encoded by the built-in encoder, if it cannot.
pub fn astc_footprint_refusal(w: u8, h: u8) -> Option<alloc::string::String> {
    let ok = |s: u8| (4..=ISPC_ASTC_MAX_SIDE).contains(&s);
    (!ok(w) || !ok(h)).then(|| {
        alloc::format!(
            "the built-in ASTC encoder (Intel ISPC, intel_tex_2) takes footprints up to 8x8, not {w}x{h}; \
             build nvsurf-cli with `--features astcenc` (ARM's astcenc, needs libclang) to encode it"
        )
    })
}

/// The encoder's search effort for a quality: the fast-skip threshold (how many ranked block
/// modes are tried per block; Intel's profiles use 5 for `fast` and 64 for `alpha_slow`).
fn fast_skip(quality: BcQuality) -> i32 {
    match quality {
        BcQuality::Fast => 5,
        BcQuality::Normal => 16,
        BcQuality::Slow => 64,
    }
}

/// Encodes `width_px x height_px` RGBA8 pixels (`rgba`, rows of `width_px * 4` bytes) into
/// ASTC `fw x fh` blocks, row by row and tightly packed (`out`: exactly
/// `ceil(w / fw) * ceil(h / fh) * 16` bytes). sRGB formats take their stored (sRGB-encoded)
/// bytes. Edge blocks repeat the edge pixels.
pub fn encode_astc_rgba8(
    footprint: (u8, u8),
    rgba: &[u8],
    width_px: u32,
    height_px: u32,
    quality: BcQuality,
    out: &mut [u8],
) -> Result<()> {
    let (fw, fh) = footprint;
    if let Some(rule) = astc_footprint_refusal(fw, fh) {
        return Err(Error::Unsupported { field: "format", value: alloc::format!("ASTC_{fw}x{fh}"), rule });
    }
    let (w, h, bw, bh) = (width_px as usize, height_px as usize, usize::from(fw), usize::from(fh));
    // Blocks of the footprint: the typed extent's conversion (`extent` is a leaf).
    let blocks = Extent::<Texels>::new_2d(width_px, height_px).to_elements_by([u32::from(fw), u32::from(fh)]);
    let (cols, rows) = (blocks.width as usize, blocks.height as usize);
    let need_in = w.checked_mul(h).and_then(|n| n.checked_mul(4)).ok_or(Error::OutOfRange {
        field: "width",
        value: u64::from(width_px),
        min: 0,
        max: u64::from(u32::MAX),
    })?;
    if rgba.len() < need_in {
        return Err(Error::BufferTooSmall {
            what: "ASTC encoder pixels",
            needed: need_in as u64,
            got: rgba.len() as u64,
        });
    }
    let need_out = cols * rows * 16;
    if out.len() != need_out {
        return Err(Error::BufferTooSmall {
            what: "encoded ASTC blocks",
            needed: need_out as u64,
            got: out.len() as u64,
        });
    }
    if need_out == 0 {
        return Ok(());
    }
    // The kernel indexes with 32-bit signed sizes: a padded row must fit.
    let pw = cols * bw;
    let max_w = i32::MAX as usize / 4 / 8;
    if pw > max_w {
        return Err(Error::OutOfRange { field: "width", value: w as u64, min: 1, max: max_w as u64 });
    }
    let opaque = rgba[..need_in].chunks_exact(4).all(|p| p[3] == 255);
    let settings = AstcEncSettings {
        block_width: i32::from(fw),
        block_height: i32::from(fh),
        channels: if opaque { 3 } else { 4 },
        fast_skip_threshold: fast_skip(quality),
        refine_iterations: 2,
    };
    // Bands of about 64K blocks: the padded input stays a few MiB whatever the picture.
    let band = (65536 / cols).clamp(1, rows);
    let mut input: Vec<u8> = Vec::new();
    let mut by = 0;
    while by < rows {
        let nb = band.min(rows - by);
        let ph = nb * bh;
        input.clear();
        input.reserve(pw * ph * 4);
        for py in 0..ph {
            let y = (by * bh + py).min(h - 1);
            let row = &rgba[y * w * 4..(y + 1) * w * 4];
            input.extend_from_slice(row);
            let last = &row[(w - 1) * 4..];
            for _ in w..pw {
                input.extend_from_slice(last);
            }
        }
        let dst = &mut out[by * cols * 16..(by + nb) * cols * 16];
        compress_band(&mut input, pw, ph, &settings, dst);
        by += nb;
    }
    Ok(())
}

/// One call of the C++ driver over a padded band (`pw x ph` pixels, multiples of the
/// footprint; `dst` holds exactly its blocks).
fn compress_band(input: &mut [u8], pw: usize, ph: usize, settings: &AstcEncSettings, dst: &mut [u8]) {
    debug_assert_eq!(input.len(), pw * ph * 4);
    debug_assert_eq!(dst.len(), (pw / settings.block_width as usize) * (ph / settings.block_height as usize) * 16);
    let surface = RgbaSurface { ptr: input.as_mut_ptr(), width: pw as i32, height: ph as i32, stride: (pw * 4) as i32 };
    // SAFETY: `CompressBlocksASTC` reads `height` rows of `width * 4` bytes `stride` apart from
    // `ptr` (`input` holds exactly `pw * ph * 4` bytes: built so above) and writes one 16-byte
    // block per footprint, row-major, to `dst` (exactly `pw/fw * ph/fh * 16` bytes, checked by
    // the caller's `out` length and the band split). Its asserts hold: width and height are
    // multiples of the footprint (padded), the footprint is 4..=8 on each side
    // (`astc_footprint_refusal`), and every size fits `i32` (the caller's `max_w` check and
    // bands of at most 64K blocks of at most 8x8 pixels). The driver keeps no pointer after it
    // returns and touches no Rust state.
    unsafe { CompressBlocksASTC(&surface, dst.as_mut_ptr(), settings) };
}
