//! Picture round trips (PNG, EXR, DDS) through the surface entry points and the tiler.
use super::dds::{dxgi_of, dxgi_table};
use super::png::{png_needs_16_bits, read_png, stencil_path, to_png, write_png, PngImage};
use super::texels::{decode_texels, encode_texels};
use super::*;
use ddsfile::DxgiFormat;
use nvsurf::codec::Texel;
use nvsurf::extent::{Extent, Texels};
use nvsurf::format::{color_formats, Format};
use nvsurf::tile::{AlignedBuf, CopyOptions};

/// A new scratch directory of the system temp dir for one test's files, removed (with its
/// files) when the value is dropped at the end of the test.
fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new().prefix("nvsurf-picture-").tempdir().unwrap()
}

/// PNG -> tile -> untile -> PNG for every non-compressed color format. The PNG
/// read back must equal the PNG of the format's own quantization of the input picture
/// (decode(encode(picture))), and tiling must move the elements unchanged.
#[test]
fn png_tile_untile_png_round_trip_for_every_color_format() {
    use nvsurf::layout::SurfaceDesc;
    use nvsurf::Gpu;
    let tmp = scratch();
    let (w, h) = (37u32, 21u32); // not a multiple of any gob or block
    for c in color_formats() {
        let f = Format::from_color(c);
        let (bw, bh) = f.block_dims();
        let bits16 = png_needs_16_bits(&f);
        let max = if bits16 { 65535u32 } else { 255 };
        // A picture with varied samples in every channel.
        let samples: Vec<u16> =
            (0..w * h * 4).map(|i| ((i.wrapping_mul(2_654_435_761) >> 7) % (max + 1)) as u16).collect();
        let input = PngImage { width: w, height: h, bits: if bits16 { 16 } else { 8 }, channels: 4, samples };
        let p_in = tmp.path().join(format!("rt-in-{:02x}.png", c.id));
        write_png(&p_in, &input).unwrap();
        let (e, linear) = read_surface(&p_in, &f, 1, None).unwrap();
        // Tile into a GF100 blocklinear surface with 2x4 gob blocks, untile back.
        let mut d = SurfaceDesc::new(Gpu::Gf100, f.elem_size_bytes(), [w.div_ceil(bw), h.div_ceil(bh), 1]);
        d.block_log2 = Some([0, 2, 0]);
        let s = d.build().unwrap();
        let tiled = nvsurf::tile::tile_to_buf(&s, &linear, &CopyOptions::default()).map(AlignedBuf::into_vec).unwrap();
        assert_ne!(tiled[..linear.len().min(tiled.len())], linear[..], "{}: tiling moved nothing", f.name());
        let back = nvsurf::tile::untile_to_buf(&s, &tiled, &CopyOptions::default()).map(AlignedBuf::into_vec).unwrap();
        assert_eq!(back, linear, "{}", f.name());
        let p_out = tmp.path().join(format!("rt-out-{:02x}.png", c.id));
        write_surface(&p_out, &f, e, &back).unwrap();
        let got = read_png(&p_out).unwrap();
        let (want, _) = to_png(&f, e, &linear).unwrap();
        assert_eq!(got, want, "{}", f.name());
        // Formats whose every channel holds 8 or 16 PNG bits exactly keep the picture.
        if matches!(c.id, 0xd5 | 0xc6 | 0xcf) {
            assert_eq!(got, input, "{}", f.name());
        }
    }
}

#[test]
fn dxgi_twins_have_the_same_element_size() {
    use ddsfile::DataFormat;
    for (d, f) in dxgi_table() {
        let bits = d.get_bits_per_pixel().map(u32::from);
        let block = d.get_block_size();
        match (bits, block) {
            (Some(b), _) => assert_eq!(b, f.elem_size_bytes() * 8, "{d:?} vs {}", f.name()),
            (None, Some(b)) => assert_eq!(b, f.elem_size_bytes(), "{d:?} vs {}", f.name()),
            _ => panic!("{d:?} has no size"),
        }
    }
    assert_eq!(dxgi_of(&Format::parse("BGRA8_UNORM").unwrap()), Some(DxgiFormat::B8G8R8A8_UNorm));
    assert_eq!(dxgi_of(&Format::parse("tex:0x15").unwrap()), None); // R in the low bits
    assert_eq!(dxgi_of(&Format::parse("R5G6B5").unwrap()), Some(DxgiFormat::B5G6R5_UNorm));
}

#[test]
fn png_16_bit_round_trip_and_depth_stencil() {
    let tmp = scratch();
    let f = Format::parse("Z24_S8").unwrap();
    let e = Extent::<Texels>::new_2d(3, 2);
    let texels: Vec<Texel> = (0..6u32).map(|i| f.f32_to_texel(&[i as f32 / 5.0, (i * 40) as f32, 0.0, 1.0])).collect();
    let data = encode_texels(&f, e, &texels, &super::Encoding::default()).unwrap();
    let p = tmp.path().join("z.png");
    let files = write_surface(&p, &f, e, &data).unwrap();
    assert_eq!(files, vec![p.clone(), stencil_path(&p)]);
    let depth = read_png(&p).unwrap();
    assert_eq!(depth.bits, 16);
    assert_eq!(depth.samples[4 * 5], 65535); // Z = 1.0
    let st = read_png(&stencil_path(&p)).unwrap();
    assert_eq!(st.samples[4 * 5], 200);
    // Depth at 16 bits loses the low 8 bits of Z24; stencil is exact.
    let (e2, back) = read_surface(&p, &f, 1, None).unwrap();
    assert_eq!(e2, e);
    let t2 = decode_texels(&f, e, &back).unwrap();
    for (a, b) in texels.iter().zip(&t2) {
        assert_eq!(a[1], b[1]);
        assert!((f32::from_bits(a[0]) - f32::from_bits(b[0])).abs() < 1.0 / 65535.0);
    }
}

#[test]
fn exr_and_dds_round_trip() {
    let tmp = scratch();
    let f = Format::parse("RGBA16_FLOAT").unwrap();
    let e = Extent::<Texels>::new_2d(5, 3);
    let texels: Vec<Texel> = (0..15u32).map(|i| f.f32_to_texel(&[i as f32 * 0.5, -1.5, 1e4, 0.25])).collect();
    let data = encode_texels(&f, e, &texels, &super::Encoding::default()).unwrap();
    for name in ["a.exr", "a.dds"] {
        let p = tmp.path().join(name);
        write_surface(&p, &f, e, &data).unwrap();
        let (e2, back) = read_surface(&p, &f, 1, None).unwrap();
        assert_eq!((e2, &back), (e, &data), "{name}");
    }
    // DDS of a format without a DXGI twin goes through RGBA32F and back.
    let g = Format::parse("tex:0x16").unwrap(); // 5_5_6
    let gd: Vec<u8> = (0..30u8).collect();
    let p = tmp.path().join("b.dds");
    write_surface(&p, &g, e, &gd).unwrap();
    let (_, back) = read_surface(&p, &g, 1, None).unwrap();
    assert_eq!(back, gd);
}

#[test]
fn dds_texture_with_mips_and_cube_faces() {
    let tmp = scratch();
    let f = Format::parse("bc1").unwrap();
    let tex0 =
        DdsTexture { extent: Extent::<Texels>::new_2d(16, 16), levels: 5, layers: 6, cube: true, data: Vec::new() };
    let n = tex0.bytes(&f);
    assert_eq!(n, 6 * 8 * (16 + 4 + 1 + 1 + 1));
    let tex = DdsTexture { data: (0..n).map(|i| (i * 13 % 251) as u8).collect(), ..tex0 };
    let p = tmp.path().join("cube.dds");
    write_dds(&p, &f, &tex).unwrap();
    let back = read_dds(&p, &f).unwrap();
    assert_eq!(back, tex);
    // Read as another format: decoded and re-encoded.
    let g = Format::parse("RGBA8_UNORM").unwrap();
    let as_rgba = read_dds(&p, &g).unwrap();
    assert_eq!(as_rgba.data.len(), as_rgba.bytes(&g));
    let (at, _) = as_rgba.span(&g, 0, 0);
    let mut want = [[0u8; 4]; 16];
    f.decode_rect_rgba8(&tex.data[..8], 8, 4, 4, &mut want).unwrap();
    assert_eq!(&as_rgba.data[at..at + 16], want[..4].as_flattened());
}
