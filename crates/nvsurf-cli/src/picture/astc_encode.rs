//! ASTC encoding for `tile` and `convert`. By default the library's built-in encoder does it
//! (Intel's ISPC ASTC encoder through `intel_tex_2`, footprints up to 8x8, reached through
//! `Format::encode_rect_with`): nothing here runs. The opt-in feature `astcenc` (alias
//! `astc-encode`) encodes every footprint with `astcenc-rs` 0.2 instead, a binding of ARM's
//! reference encoder built from C++ with bindgen (it needs libclang at build time, hence
//! opt-in), at astcenc's `medium` preset, one thread. Measurements and the build cost:
//! `docs/encoding.md`, `docs/formats/astc-etc2.md`.

#[cfg(feature = "astcenc")]
use nvsurf::codec::linear_to_srgb;
use nvsurf::codec::Texel;
use nvsurf::format::{Bc, Format, Layout};
use nvsurf::Error;

/// The footprint of an ASTC format.
pub fn astc_footprint(f: &Format) -> Option<(u8, u8)> {
    match f.layout() {
        Layout::Compressed(Bc::Astc { w, h }) => Some((w, h)),
        _ => None,
    }
}

/// Whether this build encodes `f` through ARM's astcenc (feature `astcenc`) rather than the
/// library's built-in encoder.
pub fn uses_astcenc(f: &Format) -> bool {
    cfg!(feature = "astcenc") && astc_footprint(f).is_some()
}

/// The 8-bit RGBA astcenc takes: the texels as stored (sRGB-encoded R, G, B for sRGB formats).
#[cfg(feature = "astcenc")]
fn rgba8_for_encoder(f: &Format, px: &[Texel]) -> Vec<u8> {
    let mut v = Vec::with_capacity(px.len() * 4);
    for t in px {
        let mut p = f.texel_to_f32(t);
        if f.is_srgb() {
            for c in p.iter_mut().take(3) {
                *c = linear_to_srgb(*c);
            }
        }
        v.extend(p.map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8));
    }
    v
}

/// Encodes `px` (`width x height`, row by row) into ASTC blocks, row by row (`out`, at least
/// `ceil(width / bw) * ceil(height / bh) * 16` bytes).
#[cfg(feature = "astcenc")]
pub fn encode_astc(f: &Format, px: &[Texel], width: u32, height: u32, out: &mut [u8]) -> Result<(), Error> {
    use astcenc_rs::{ConfigBuilder, Context, Extents, Image, Profile, Swizzle, PRESET_MEDIUM};
    let (bw, bh) = astc_footprint(f).ok_or_else(|| fail(f, "not an ASTC format".into()))?;
    let profile = if f.is_srgb() { Profile::LdrSrgb } else { Profile::LdrRgba };
    let config = ConfigBuilder::new()
        .with_profile(profile)
        .with_preset(PRESET_MEDIUM)
        .with_block_size(Extents::new(u32::from(bw), u32::from(bh)))
        .build()
        .map_err(|e| fail(f, format!("astcenc configuration: {e:?}")))?;
    let mut ctx = Context::with_threads(1, config).map_err(|e| fail(f, format!("astcenc context: {e:?}")))?;
    let rgba = rgba8_for_encoder(f, px);
    let image = Image { extents: Extents::new(width, height), data: vec![rgba] };
    let blocks = ctx.compress(&image, Swizzle::rgba()).map_err(|e| fail(f, format!("astcenc: {e:?}")))?;
    let got = out.len() as u64;
    let dst = out.get_mut(..blocks.len()).ok_or(Error::BufferTooSmall {
        what: "encoded ASTC blocks",
        needed: blocks.len() as u64,
        got,
    })?;
    dst.copy_from_slice(&blocks);
    Ok(())
}

/// Without the `astcenc` feature the library encodes ASTC ([`uses_astcenc`] is false): never
/// called.
#[cfg(not(feature = "astcenc"))]
pub fn encode_astc(f: &Format, _px: &[Texel], _width: u32, _height: u32, _out: &mut [u8]) -> Result<(), Error> {
    Err(fail(f, "this build encodes ASTC through the library (nvsurf-cli feature `astcenc` is off)".into()))
}

fn fail(f: &Format, rule: String) -> Error {
    Error::Unsupported { field: "encode", value: f.name().into(), rule }
}
