//! Tests of `png_fast`: the code is complete, the Adler-32 combination is the whole one, and
//! every PNG it writes (8 and 16 bits, odd widths, one band, two, a band a row, one thread or
//! a pool) reads back with the png crate (checksums on) and with flate2 as the same pixels,
//! and its bytes do not depend on the bands nor the threads.

use super::png_fast::{adler32_combine, filter_sub, FastPng, LiteralCode};

/// Bytes of a smooth picture with a little noise (as the e2e bench's).
fn picture(width: usize, height: usize, bpp: usize, seed: u32) -> Vec<u8> {
    let mut s = seed;
    let mut v = Vec::with_capacity(width * height * bpp);
    for y in 0..height {
        for x in 0..width {
            for c in 0..bpp {
                s = s.wrapping_mul(1_103_515_245).wrapping_add(12345);
                v.push(((x * 3 + y * 5 + c * 40) as u32 ^ (s >> 29)) as u8);
            }
        }
    }
    v
}

/// The PNG of `data` written by [`FastPng`] in bands of `band_rows` rows, on `threads` threads
/// (1: no pool).
fn write(data: &[u8], (w, h): (u32, u32), bits16: bool, band_rows: usize, threads: usize) -> Vec<u8> {
    let pool = (threads > 1).then(|| rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap());
    let mut png = FastPng::new(Vec::new(), w, h, bits16).unwrap();
    let row = w as usize * if bits16 { 8 } else { 4 };
    for band in data.chunks(row * band_rows) {
        png.write_rows(band, pool.as_ref()).unwrap();
    }
    png.finish().unwrap()
}

/// The samples of `png` read back by the png crate (CRC and Adler-32 checked).
fn read_png(png: &[u8]) -> (u32, u32, png::BitDepth, Vec<u8>) {
    let mut reader = png::Decoder::new(std::io::Cursor::new(png)).read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba);
    buf.truncate(info.buffer_size());
    (info.width, info.height, info.bit_depth, buf)
}

/// The filtered rows of `png` by our own walk over its chunks (every CRC checked) and flate2
/// (a second inflater; it checks the Adler-32).
fn inflate_idat(png: &[u8]) -> Vec<u8> {
    use std::io::Read;
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let (mut at, mut z) = (8, Vec::new());
    while at < png.len() {
        let len = u32::from_be_bytes(png[at..at + 4].try_into().unwrap()) as usize;
        let (kind, data) = (&png[at + 4..at + 8], &png[at + 8..at + 8 + len]);
        let crc = u32::from_be_bytes(png[at + 8 + len..at + 12 + len].try_into().unwrap());
        assert_eq!(crc32fast::hash(&png[at + 4..at + 8 + len]), crc, "{:?}", std::str::from_utf8(kind));
        if kind == b"IDAT" {
            z.extend_from_slice(data);
        }
        at += 12 + len;
    }
    assert_eq!(at, png.len());
    let mut out = Vec::new();
    flate2::read::ZlibDecoder::new(&z[..]).read_to_end(&mut out).unwrap();
    out
}

#[test]
fn the_literal_code_is_complete() {
    // Kraft's sum of 2^-len over the 256 literals and end-of-block, in units of 2^-15.
    let code = LiteralCode::new();
    let sum: u32 = (0..=255u8).map(|b| 1u32 << (15 - literal_len(&code, b))).sum::<u32>() + (1 << (15 - 5));
    assert_eq!(sum, 1 << 15);
}

/// The code length of literal `b`: the bits one literal adds to a block.
fn literal_len(code: &LiteralCode, b: u8) -> u32 {
    // A block of 64 copies of `b` is 64 * len bits longer than an empty one (no matches).
    let mut out = vec![0; LiteralCode::block_bound(64)];
    let (empty, eight) = (code.block(&[], &mut out), code.block(&[b; 64], &mut out));
    ((eight - empty) * 8 / 64) as u32
}

#[test]
fn adler32_combines_as_the_whole() {
    let data = picture(400, 300, 1, 7);
    let whole = |d: &[u8]| {
        let mut a = simd_adler32::Adler32::new();
        a.write(d);
        a.finish()
    };
    for cut in [0, 1, 100, 65520, 65521, 65522, 100_000, data.len()] {
        let (a, b) = data.split_at(cut);
        assert_eq!(adler32_combine(whole(a), whole(b), b.len() as u64), whole(&data), "{cut}");
    }
}

#[test]
fn sub_filter_is_the_difference_to_the_left() {
    let mut out = [0; 8];
    filter_sub(&[10, 20, 5, 3, 0, 0], 3, 1, &mut out);
    assert_eq!(out, [1, 10, 10, 241, 1, 3, 253, 0]);
}

#[test]
fn pngs_read_back_as_the_pixels() {
    for bits16 in [false, true] {
        let bpp = if bits16 { 8 } else { 4 };
        for (w, h) in [(1u32, 1u32), (3, 7), (17, 5), (1000, 300), (1001, 97)] {
            let data = picture(w as usize, h as usize, bpp, w ^ h);
            let one = write(&data, (w, h), bits16, h as usize, 1);
            for (band_rows, threads) in [(h as usize, 3), ((h as usize).div_ceil(2), 1), (1, 1), (1, 2), (40, 4)] {
                let png = write(&data, (w, h), bits16, band_rows, threads);
                let (rw, rh, depth, px) = read_png(&png);
                let want = if bits16 { png::BitDepth::Sixteen } else { png::BitDepth::Eight };
                assert_eq!((rw, rh, depth), (w, h, want));
                assert_eq!(px, data, "{w}x{h} 16-bit {bits16}, {band_rows}-row bands, {threads} threads");
                assert!(png == one, "the bytes depend on the picture only");
                let filtered = inflate_idat(&png);
                assert_eq!(filtered.len(), (w as usize * bpp + 1) * h as usize);
            }
        }
    }
}

#[test]
fn pieces_of_a_mebibyte_are_chunks() {
    // 300 rows of 4000 bytes: pieces of 262 rows (1 MiB of whole rows), an IDAT chunk each,
    // after the zlib header's and before the end's; the same with bands of 7 rows, 3 threads.
    let data = picture(1000, 300, 4, 1);
    let (one, three) = (write(&data, (1000, 300), false, 300, 1), write(&data, (1000, 300), false, 7, 3));
    let idats = |p: &[u8]| p.windows(4).filter(|w| w == b"IDAT").count();
    assert_eq!(idats(&one), 4);
    assert!(one == three);
    assert_eq!(read_png(&three).3, data);
}

#[test]
fn missing_or_extra_rows_are_errors() {
    let mut png = FastPng::new(Vec::new(), 2, 2, false).unwrap();
    assert!(png.write_rows(&[0; 12], None).is_err(), "not whole rows");
    png.write_rows(&[0; 8], None).unwrap();
    assert!(png.write_rows(&[0; 16], None).is_err(), "more rows than the height");
    assert!(png.finish().is_err(), "a row short");
    assert!(FastPng::new(Vec::new(), 0, 2, false).is_err());
}
