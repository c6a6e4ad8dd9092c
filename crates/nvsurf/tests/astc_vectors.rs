//! ASTC decoding against ARM's reference codec: `data/astc/*.astc` were encoded and
//! `data/astc/*.ktx` decoded by `astcenc` 4.2.0 (Debian package `astcenc`); the commands are in
//! `data/astc/README.md`. The tests need no `astcenc` at run time.
//!
//! Tolerance: one code per channel, on at most a fifth of the channels. The ASTC decode gives
//! 16-bit values; the 8-bit result is a conversion on top, which the two decoders do
//! differently (`astc-decode`: `(v * 255 + 32767) / 65536`; astcenc 4.2 its own, and in sRGB
//! mode the spec's `e * 256 + 128` endpoint expansion, which astc-decode does not have). No
//! channel differs by more than one code, and void-extent blocks agree exactly.
#![cfg(feature = "std")]

use nvsurf::format::Format;

mod common;

/// `(footprint w, h, image width, height, blocks)` of an `.astc` file (ARM's 16-byte header).
fn astc_file(bytes: &[u8]) -> (u32, u32, u32, u32, &[u8]) {
    assert_eq!(&bytes[..4], &[0x13, 0xab, 0xa1, 0x5c], "astc magic");
    let dim = |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], 0]);
    (u32::from(bytes[4]), u32::from(bytes[5]), dim(7), dim(10), &bytes[16..])
}

/// The image bytes of a one-level KTX 1 file (after the key/value data and the image size).
fn ktx_image(bytes: &[u8]) -> &[u8] {
    assert_eq!(&bytes[1..4], b"KTX", "ktx magic");
    let kv = u32::from_le_bytes(bytes[60..64].try_into().unwrap()) as usize;
    let at = 64 + kv;
    let size = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    &bytes[at + 4..at + 4 + size]
}

fn decode(format: &Format, astc: &[u8]) -> (u32, u32, Vec<[u8; 4]>) {
    let (bw, bh, w, h, blocks) = astc_file(astc);
    assert_eq!(format.block_dims(), (bw, bh));
    let pitch = w.div_ceil(bw) as usize * 16;
    let mut out = vec![[0u8; 4]; (w * h) as usize];
    format.decode_rect_rgba8(blocks, pitch, w, h, &mut out).unwrap();
    (w, h, out)
}

/// Compares to astcenc's 8-bit output; returns the number of channels that differ.
fn compare(name: &str, ours: &[[u8; 4]], theirs: &[u8]) -> usize {
    // astcenc writes RGB (3 bytes a pixel) when every alpha is 255.
    let n = theirs.len() / ours.len();
    assert!(ours.len() * n == theirs.len() && (n == 4 || n == 3), "{name}: size");
    let mut differ = 0;
    for (i, (o, t)) in ours.iter().zip(theirs.chunks_exact(n)).enumerate() {
        if n == 3 {
            assert_eq!(o[3], 255, "{name}: pixel {i} alpha");
        }
        for c in 0..n {
            let d = i32::from(o[c]) - i32::from(t[c]);
            assert!(d.abs() <= 1, "{name}: pixel {i} channel {c}: ours {} astcenc {}", o[c], t[c]);
            differ += usize::from(d != 0);
        }
    }
    differ
}

macro_rules! vector {
    ($name:literal) => {
        (
            $name,
            &include_bytes!(concat!("data/astc/", $name, ".astc"))[..],
            &include_bytes!(concat!("data/astc/", $name, ".ktx"))[..],
        )
    };
}

#[test]
fn ldr_blocks_decode_as_astcenc_does() {
    for (name, astc, ktx) in [
        vector!("ldr_4x4"),
        vector!("ldr_5x4"),
        vector!("ldr_6x6"),
        vector!("ldr_8x8"),
        vector!("ldr_10x10"),
        vector!("ldr_12x12"),
        vector!("void_4x4"),
    ] {
        let (bw, bh, ..) = astc_file(astc);
        let f = Format::parse(&format!("astc_{bw}x{bh}")).unwrap();
        let (_, _, ours) = decode(&f, astc);
        let differ = compare(name, &ours, ktx_image(ktx));
        // The conversions part on few values; far more would mean a real disagreement that
        // the tolerance hides.
        assert!(differ * 5 < ours.len() * 4, "{name}: {differ} channels differ");
    }
}

#[test]
fn void_extent_blocks_are_their_constant_colour() {
    let (_, astc, _) = vector!("void_4x4");
    assert_eq!(&astc[16..18], &[0xfc, 0xfd], "astcenc wrote a void-extent block");
    let (_, _, ours) = decode(&Format::parse("astc_4x4").unwrap(), astc);
    assert!(ours.iter().all(|p| *p == [200, 100, 50, 255]), "{:?}", &ours[..2]);
}

#[test]
fn srgb_blocks_decode_as_astcenc_does_then_linearise() {
    let (name, astc, ktx) = vector!("srgb_8x8");
    // The stored (sRGB-encoded) values: the format without sRGB conversion.
    let raw = Format::parse("astc_8x8").unwrap();
    let (w, h, ours) = decode(&raw, astc);
    let differ = compare(name, &ours, ktx_image(ktx));
    assert!(differ * 5 < ours.len() * 4, "{name}: {differ} channels differ");
    // `astc_8x8_srgb` converts R, G, B to linear light, alpha unchanged.
    let srgb = Format::parse("astc_8x8_srgb").unwrap();
    assert!(srgb.is_srgb());
    let (_, bh, ..) = astc_file(astc);
    let mut lin = vec![[0f32; 4]; (w * h) as usize];
    srgb.decode_rect_f32(&astc[16..], w.div_ceil(8) as usize * 16, w, h, &mut lin).unwrap();
    assert_eq!(bh, 8);
    for (l, o) in lin.iter().zip(&ours) {
        for c in 0..3 {
            let want = nvsurf::codec::srgb_to_linear(f32::from(o[c]) / 255.0);
            assert!((l[c] - want).abs() < 1e-6, "{l:?} {o:?}");
        }
        assert_eq!(l[3], f32::from(o[3]) / 255.0);
    }
}

#[test]
fn hdr_blocks_decode_to_the_error_colour() {
    // astc-decode has no HDR path: an HDR endpoint mode gives the ASTC error colour (magenta),
    // documented in docs/formats/astc-etc2.md. astcenc's own decode of these blocks is HDR.
    let (_, astc, ktx) = vector!("hdr_6x6");
    let (_, _, ours) = decode(&Format::parse("astc_6x6").unwrap(), astc);
    assert!(ours.contains(&[255, 0, 255, 255]), "some block uses an HDR mode");
    // The reference output is 16-bit float (KTX glType HALF_FLOAT): 8 bytes per pixel.
    assert_eq!(ktx_image(ktx).len(), ours.len() * 8);
}

#[test]
fn every_footprint_has_a_row_and_others_are_refused_in_one_line() {
    for (w, h) in common::ASTC_FOOTPRINTS {
        let f = Format::parse(&format!("ASTC_{w}x{h}")).unwrap();
        assert_eq!((f.block_dims(), f.elem_size_bytes()), ((w, h), 16));
        assert_eq!(Format::parse(&format!("astc_2d_{w}x{h}")).unwrap().id(), f.id());
    }
    let e = Format::parse("astc_7x7").unwrap_err().to_string();
    assert!(e.contains("ASTC block size") && e.contains("7x7") && e.contains("12x12") && !e.contains('\n'), "{e}");
}
