//! Helpers shared by the CLI tests that make and read pictures (resolve_cli, tile_picture_cli).

use std::path::Path;
use std::process::Command;

/// Runs the `nvsurf` binary: (exit code, stdout, stderr).
pub fn nvsurf(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nvsurf")).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// A path as a `&str` argument.
pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Writes an 8-bit RGBA PNG.
#[allow(dead_code)] // not every test file writes pictures
pub fn write_png_rgba8(p: &Path, w: u32, h: u32, rgba: &[u8]) {
    let mut enc = png::Encoder::new(std::io::BufWriter::new(std::fs::File::create(p).unwrap()), w, h);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let mut wr = enc.write_header().unwrap();
    wr.write_image_data(rgba).unwrap();
    wr.finish().unwrap();
}

/// Reads a PNG that must be 8-bit RGBA: (width, height, samples).
#[allow(dead_code)] // not every test file reads pictures
pub fn read_png_rgba8(p: &Path) -> (u32, u32, Vec<u8>) {
    let mut r = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(p).unwrap())).read_info().unwrap();
    let mut buf = vec![0u8; r.output_buffer_size().unwrap()];
    let info = r.next_frame(&mut buf).unwrap();
    assert_eq!((info.color_type, info.bit_depth), (png::ColorType::Rgba, png::BitDepth::Eight));
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// Reads any PNG: (width, height, color type and bit depth as text, samples as stored).
#[allow(dead_code)] // not every test file reads pictures
pub fn read_png_any(p: &Path) -> (u32, u32, String, Vec<u8>) {
    let mut r = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(p).unwrap())).read_info().unwrap();
    let mut buf = vec![0u8; r.output_buffer_size().unwrap()];
    let info = r.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info.width, info.height, format!("{:?} {:?}", info.color_type, info.bit_depth), buf)
}
