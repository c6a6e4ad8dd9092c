//! Crafted inputs an adversarial review of the CLI (session 9) used to crash, hang or fool
//! `nvsurf`: picture headers that claim sizes their files do not hold, and sizes whose byte
//! counts overflow. Each must now exit with status 2 and one `error:` line, quickly, and leave
//! no output file.

use ddsfile::{AlphaMode, D3D10ResourceDimension, Dds, DxgiFormat, NewDxgiParams};
use std::path::Path;
use std::time::{Duration, Instant};

mod pictures;
use pictures::*;
mod scratch;
use scratch::Scratch;

/// Runs `nvsurf` and checks the refusal: status 2, one `error:` line containing `needle`,
/// within a few seconds, and no `output` written.
fn refused(args: &[&str], needle: &str, output: &Path) {
    let _ = std::fs::remove_file(output);
    let t = Instant::now();
    let (rc, _, err) = nvsurf(args);
    assert!(t.elapsed() < Duration::from_secs(10), "{args:?} took {:?}", t.elapsed());
    assert_eq!(rc, 2, "{args:?}: {err}");
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{args:?}: {err}");
    assert!(errors[0].contains(needle), "{args:?}: '{}' lacks '{needle}'", errors[0]);
    assert!(!output.exists(), "{args:?} wrote {}", output.display());
}

/// A DDS (DX10 header) of a 4x4 `format` texture with two mip levels (so that the header's
/// mip count is read), whose header is then edited by `edit`; the data stays what the 4x4
/// texture had.
fn crafted_dds(path: &Path, format: DxgiFormat, edit: impl FnOnce(&mut Dds)) {
    let mut dds = Dds::new_dxgi(NewDxgiParams {
        height: 4,
        width: 4,
        depth: None,
        format,
        mipmap_levels: Some(2),
        array_layers: None,
        caps2: None,
        is_cubemap: false,
        resource_dimension: D3D10ResourceDimension::Texture2D,
        alpha_mode: AlphaMode::Unknown,
    })
    .unwrap();
    edit(&mut dds);
    dds.write(&mut std::fs::File::create(path).unwrap()).unwrap();
}

/// CRC-32 (ISO-HDLC, the PNG chunk checksum), bit by bit.
fn crc32(bytes: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in bytes {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 != 0 { (c >> 1) ^ 0xedb8_8320 } else { c >> 1 };
        }
    }
    !c
}

/// A PNG whose header claims `w x h` 8-bit RGBA pixels, with no image data.
fn png_header_only(path: &Path, w: u32, h: u32) {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut chunk = |kind: &[u8; 4], data: &[u8]| {
        out.extend((data.len() as u32).to_be_bytes());
        let body: Vec<u8> = kind.iter().chain(data).copied().collect();
        out.extend(&body);
        out.extend(crc32(&body).to_be_bytes());
    };
    let mut ihdr = [w.to_be_bytes(), h.to_be_bytes()].concat();
    ihdr.extend([8, 6, 0, 0, 0]);
    chunk(b"IHDR", &ihdr);
    // An empty zlib stream (one final stored block of 0 bytes, Adler-32 of nothing = 1): the
    // decoder reaches the pixels only after the header was read.
    chunk(b"IDAT", &[0x78, 0x01, 0x01, 0x00, 0x00, 0xff, 0xff, 0, 0, 0, 1]);
    chunk(b"IEND", &[]);
    std::fs::write(path, out).unwrap();
}

#[test]
fn crc_matches_the_png_check_value() {
    // The CRC-32 check value of "123456789".
    assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
}

#[test]
fn convert_refuses_sizes_whose_byte_count_overflows() {
    let tmp = Scratch::new("hostile");
    let input = tmp.path("empty.bin");
    std::fs::write(&input, []).unwrap();
    // 2^31 x 2^29 pixels of 16 bytes is 2^64 bytes: once wrapped to 0 (an empty file written
    // with status 0, or a header-only DDS), or a capacity-overflow panic for PNG/EXR.
    for out in ["o.bin", "o.dds", "o.png", "o.exr"] {
        let output = tmp.path(out);
        let args = ["convert", "--format", "RGBA32_FLOAT", "--size", "2147483648x536870912", "--input", s(&input)];
        let mut args = args.to_vec();
        args.extend(["--output", s(&output)]);
        refused(&args, "image size 18446744073709551616 bytes", &output);
    }
}

#[test]
fn dds_headers_that_claim_more_than_the_file_holds_are_refused() {
    let tmp = Scratch::new("hostile");
    let out = tmp.path("dds-out.bin");
    // The header of the overflowing size above, with no data.
    let wrap = tmp.path("wrap.dds");
    crafted_dds(&wrap, DxgiFormat::R32G32B32A32_Float, |d| {
        d.header.width = 1 << 31;
        d.header.height = 1 << 29;
        d.data.clear();
    });
    for fmt in ["RGBA32_FLOAT", "A8B8G8R8"] {
        refused(&["convert", "--format", fmt, "--input", s(&wrap), "--output", s(&out)], "DDS texture size", &out);
    }
    let png = tmp.path("dds-out.png");
    refused(&["convert", "--format", "A8B8G8R8", "--input", s(&wrap), "--output", s(&png)], "DDS texture size", &png);
    let tile = ["tile", "--gpu", "gf100", "--format", "A8B8G8R8", "--size", "4x4", "--block-log2", "0,0,0"];
    let mut args = tile.to_vec();
    args.extend(["--input", s(&wrap), "--output", s(&out)]);
    refused(&args, "DDS texture size", &out);

    // A 4x4 texture claiming 2^32-1 mip levels (the level loops once ran for minutes).
    let mips = tmp.path("mips.dds");
    crafted_dds(&mips, DxgiFormat::R8G8B8A8_UNorm, |d| d.header.mip_map_count = Some(u32::MAX));
    refused(&["convert", "--format", "A8B8G8R8", "--input", s(&mips), "--output", s(&out)], "DDS mip levels", &out);

    // A cube array whose face count (6 per cube) overflows 32 bits: a panic inside the DDS crate.
    let cubes = tmp.path("cubes.dds");
    crafted_dds(&cubes, DxgiFormat::R8G8B8A8_UNorm, |d| {
        let h = d.header10.as_mut().unwrap();
        h.misc_flag = ddsfile::MiscFlag::TEXTURECUBE;
        h.array_size = 0x8000_0001;
    });
    refused(&["convert", "--format", "A8B8G8R8", "--input", s(&cubes), "--output", s(&out)], "DDS cube count", &out);

    // A zero width.
    let zero = tmp.path("zero.dds");
    crafted_dds(&zero, DxgiFormat::R8G8B8A8_UNorm, |d| d.header.width = 0);
    refused(&["convert", "--format", "A8B8G8R8", "--input", s(&zero), "--output", s(&out)], "DDS width 0", &out);
}

/// A DDS cut inside its headers, or not a DDS at all, is named as such with its length (the
/// DDS crate's own error read "failed to fill whole buffer").
#[test]
fn cut_short_dds_headers_are_named() {
    let tmp = Scratch::new("hostile");
    let out = tmp.path("cut-out.bin");
    let whole = tmp.path("whole.dds");
    crafted_dds(&whole, DxgiFormat::R8G8B8A8_UNorm, |_| {});
    let bytes = std::fs::read(&whole).unwrap();
    assert_eq!(&bytes[84..88], b"DX10");
    let cut = tmp.path("cut.dds");
    for (len, needle) in [
        (2, "the file holds 2 bytes but the DDS magic number needs 4"),
        (100, "the file holds 100 bytes but the DDS header needs 128"),
        (140, "the file holds 140 bytes but the DDS header with its DX10 extension needs 148"),
    ] {
        std::fs::write(&cut, &bytes[..len]).unwrap();
        refused(&["convert", "--format", "A8B8G8R8", "--input", s(&cut), "--output", s(&out)], needle, &out);
    }
    std::fs::write(&cut, b"PNG? not a DDS file").unwrap();
    refused(&["convert", "--format", "A8B8G8R8", "--input", s(&cut), "--output", s(&out)], "DDS magic number", &out);
    // The whole file still reads, also from a FIFO (the check reads the headers once, no seek).
    let (rc, _, err) = nvsurf(&["convert", "--format", "A8B8G8R8", "--input", s(&whole), "--output", s(&out)]);
    assert_eq!(rc, 0, "{err}");
    #[cfg(target_os = "linux")]
    {
        let fifo = tmp.path("fifo.dds");
        let _ = std::fs::remove_file(&fifo);
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        let (f, b) = (fifo.clone(), bytes.clone());
        let writer = std::thread::spawn(move || std::fs::write(&f, &b).unwrap());
        let (rc, _, err) = nvsurf(&["convert", "--format", "A8B8G8R8", "--input", s(&fifo), "--output", s(&out)]);
        writer.join().unwrap();
        assert_eq!(rc, 0, "{err}");
    }
}

#[test]
fn png_headers_are_checked_before_their_pixels_are_allocated() {
    let tmp = Scratch::new("hostile");
    // 69 bytes claiming 100000 x 100000 pixels (40 GB decoded): once an abort.
    let huge = tmp.path("huge.png");
    png_header_only(&huge, 100_000, 100_000);
    assert!(std::fs::metadata(&huge).unwrap().len() < 100);
    let out = tmp.path("png-out.bin");
    // `tile` knows the size it wants and compares the header first.
    let tile = ["tile", "--gpu", "gf100", "--format", "A8B8G8R8", "--size", "64x64", "--block-log2", "0,0,0"];
    let mut args = tile.to_vec();
    args.extend(["--input", s(&huge), "--output", s(&out)]);
    refused(&args, "is 100000x100000x1 px but the surface is 64x64x1 px", &out);
    // `convert` has no size to compare: the allocation fails as an error, not an abort (or,
    // on a machine that grants it, the missing image data is the error).
    let (rc, _, err) = nvsurf(&["convert", "--format", "A8B8G8R8", "--input", s(&huge), "--output", s(&out)]);
    assert_eq!(rc, 2, "{err}");
    assert!(err.starts_with("error: cannot read PNG"), "{err}");
    assert!(!out.exists());
}

#[test]
fn texture_outputs_too_large_to_allocate_are_errors() {
    let tmp = Scratch::new("hostile");
    let input = tmp.path("tex.lin");
    std::fs::write(&input, vec![0u8; 30_000]).unwrap();
    let out = tmp.path("tex-out.bin");
    let tex = ["tile", "--gpu", "gf100", "--elem-size", "4", "--size", "64x64", "--levels", "7", "--texture"];
    // Offsets are GPU memory offsets: below 2^40, with the texture inside.
    for (offset, why) in [
        ("100000000000000", "offset 100000000000000 is out of range 0..=1099511627775"),
        ("18446744073709000000", "out of range 0..=1099511627775"),
        ("0xffffffff00", "offset + texture size overflows the 40-bit address space"),
    ] {
        let mut args = tex.to_vec();
        args.extend(["--input", s(&input), "--output", s(&out), "--offset", offset]);
        refused(&args, why, &out);
    }
    // Within that, the gap before the texture is a hole of the new file: 2 GiB of offset (the
    // red team's reproducer) cost neither memory nor disk, nor time.
    let t = Instant::now();
    let mut args = tex.to_vec();
    args.extend(["--input", s(&input), "--output", s(&out), "--offset", "2147483647"]);
    let (rc, _, err) = nvsurf(&args);
    assert_eq!(rc, 0, "{err}");
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(&out).unwrap();
    assert!(meta.len() > 2147483647, "{}", meta.len());
    assert!(meta.blocks() * 512 < 64 << 20, "{} bytes allocated: not sparse", meta.blocks() * 512);
}

/// Runs `nvsurf` under `sh` with an address-space limit of `kib` KiB (`ulimit -v`), `script`
/// being the shell words after the limit with `$N` standing for the binary.
fn limited(kib: u32, script: &str) -> (i32, String, String) {
    let out = std::process::Command::new("sh")
        .arg("-c")
        // One malloc arena: glibc reserves 64 MiB of address space for each thread
        // that allocates, which would race the program's own buffers under the limit.
        .env("MALLOC_ARENA_MAX", "1")
        .arg(format!("ulimit -v {kib} && {script}"))
        .env("N", env!("CARGO_BIN_EXE_nvsurf"))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// Picture headers that claim more pixels than any compression could fit in their files (found
/// by the session 11 review): a 440-byte EXR claiming 60000 x 60000 pixels aborted the
/// process (57.6 GB allocation), and `convert` filled 1.6 GB for a 70-byte PNG first.
/// `tests/data/pictures/exr_small_bomb.exr` was made by that review from an EXR nvsurf wrote,
/// its data window patched.
#[test]
fn picture_headers_beyond_any_compression_are_refused() {
    let tmp = Scratch::new("hostile");
    let out = tmp.path("bomb-out.bin");
    let bomb = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/pictures/exr_small_bomb.exr");
    let why = "no compression reaches more than 4096:1";
    refused(&["convert", "--format", "RGBA8_UNORM", "--input", bomb, "--output", s(&out)], why, &out);
    let png = tmp.path("huge20k.png");
    png_header_only(&png, 20000, 20000);
    refused(&["convert", "--format", "RGBA8_UNORM", "--input", s(&png), "--output", s(&out)], why, &out);
    // `tile` knows the size it wants: a picture of another size is refused from its header.
    let tile = ["tile", "--gpu", "gf100", "--format", "RGBA8_UNORM", "--size", "16x16", "--block-log2", "0,0,0"];
    let mut args = tile.to_vec();
    args.extend(["--input", bomb, "--output", s(&out)]);
    refused(&args, "is 60000x60000x1 px but the surface is 16x16x1 px", &out);
}

/// Only the surface's bytes of a dump are read (the whole file was read before: an 8 GiB dump
/// for a 16 KiB surface took 8 GiB and 31 s), and pipes are read (they read as empty before).
#[test]
fn untile_reads_only_the_surface_and_reads_pipes() {
    let tmp = Scratch::new("hostile");
    let dir = tmp.dir();
    let surface = "--gpu gf100 --elem-size 4 --size 64x64 --block-log2 0,2,0";
    let tiled: Vec<u8> = (0..16384u32).map(|i| (i * 7 + i / 256) as u8).collect();
    let plain = dir.join("plain.bin");
    std::fs::write(&plain, &tiled).unwrap();
    let want = dir.join("want.bin");
    let (rc, _, err) = limited(200_000, &format!("$N untile {surface} --input {} --output {}", s(&plain), s(&want)));
    assert_eq!(rc, 0, "{err}");
    // The surface 16 KiB before the end of a 1 GiB sparse file, under a 200 MB limit.
    let sparse = dir.join("sparse.bin");
    let f = std::fs::File::create(&sparse).unwrap();
    f.set_len(1 << 30).unwrap();
    use std::io::{Seek, SeekFrom, Write};
    let mut f = f;
    f.seek(SeekFrom::Start((1 << 30) - 16384)).unwrap();
    f.write_all(&tiled).unwrap();
    drop(f);
    let got = dir.join("got.bin");
    let offset = (1u64 << 30) - 16384;
    let cmd = format!("$N untile {surface} --offset {offset} --input {} --output {}", s(&sparse), s(&got));
    let (rc, _, err) = limited(200_000, &cmd);
    assert_eq!(rc, 0, "{err}");
    assert!(std::fs::read(&got).unwrap() == std::fs::read(&want).unwrap());
    // From a pipe, with bytes to skip in front.
    let cmd = format!(
        "(head -c 100 /dev/zero; cat {}) | $N untile {surface} --offset 100 --input /dev/stdin --output {}",
        s(&plain),
        s(&got)
    );
    let (rc, _, err) = limited(200_000, &cmd);
    assert_eq!(rc, 0, "{err}");
    assert!(std::fs::read(&got).unwrap() == std::fs::read(&want).unwrap());
    // A short pipe says how many bytes it held.
    let cmd = format!("head -c 1000 {} | $N untile {surface} --input /dev/stdin --output {}", s(&plain), s(&got));
    let (rc, _, err) = limited(200_000, &cmd);
    assert!(rc == 2 && err.contains("holds 1000 bytes but 16384 bytes are expected"), "{err}");
    // `tile` reads its linear rows from a pipe too.
    let back = dir.join("back.bin");
    let cmd = format!("cat {} | $N tile {surface} --input /dev/stdin --output {}", s(&want), s(&back));
    let (rc, _, err) = limited(200_000, &cmd);
    assert_eq!(rc, 0, "{err}");
    assert!(std::fs::read(&back).unwrap() == tiled);
}

/// `resolve` decodes 16 bytes per sample: a surface too large for memory is an error (it was
/// an allocation abort). 8192 x 8192 one-byte samples need 1 GiB decoded, above the limit.
#[test]
fn resolve_samples_too_large_for_memory_are_errors() {
    let tmp = Scratch::new("hostile");
    let dump = tmp.path("resolve.bin");
    std::fs::File::create(&dump).unwrap().set_len(64 << 20).unwrap();
    let out = tmp.path("resolve-out.png");
    let cmd = format!(
        "$N resolve --gpu gf100 --format R8_UNORM --size 8192x8192 --ms-mode ms1 --block-log2 0,4,0 --input {} --output {}",
        s(&dump),
        s(&out)
    );
    let (rc, _, err) = limited(600_000, &cmd);
    assert!(rc == 2 && err.contains("cannot allocate") && err.contains("decoded samples"), "{rc}: {err}");
    assert!(!out.exists());
}

/// Counts and limits take 0x-hex like every other number; `convert --depth 0` names `depth`.
#[test]
fn counts_take_hex_and_depth_zero_is_named() {
    let tmp = Scratch::new("hostile");
    let (rc, out, err) =
        nvsurf(&["texture", "--gpu", "gf100", "--elem-size", "0x4", "--size", "8x8", "--levels", "0x2"]);
    assert_eq!(rc, 0, "{err}");
    assert!(out.contains("2 level(s)"), "{out}");
    let (rc, _, err) = nvsurf(&["layout", "--gpu", "gf100", "--elem-size", "4", "--size", "8", "--map-limit", "0x1z"]);
    assert!(rc == 2 && err.contains("'0x1z' is not a decimal or 0x-hex number"), "{err}");
    let out = tmp.path("depth0.png");
    let input = tmp.path("depth0.bin");
    std::fs::write(&input, [0u8; 16]).unwrap();
    let args = ["convert", "--format", "RGBA8_UNORM", "--size", "2x2", "--depth", "0", "--input", s(&input)];
    let mut args = args.to_vec();
    args.extend(["--output", s(&out)]);
    refused(&args, "depth 0 is out of range 1..=4294967295", &out);
}

/// What the bounds above must not refuse (the session 11 review): pictures from a FIFO (no
/// length to compare; the header is not read twice) and a flat 1-bit bitmap, whose stored
/// rows compress about 1000:1 although its 8-bit expansion is 8 times larger.
#[test]
fn pictures_from_fifos_and_flat_bitmaps_are_read() {
    let tmp = Scratch::new("hostile");
    let png = tmp.path("fifo-src.png");
    let rgba: Vec<u8> = (0..16 * 8 * 4).map(|i| (i * 5) as u8).collect();
    write_png_rgba8(&png, 16, 8, &rgba);
    let exr = tmp.path("fifo-src.exr");
    let (rc, _, err) = nvsurf(&["convert", "--format", "RGBA8_UNORM", "--input", s(&png), "--output", s(&exr)]);
    assert_eq!(rc, 0, "{err}");
    for (src, ext) in [(&png, "png"), (&exr, "exr")] {
        let want = tmp.path(&format!("fifo-want-{ext}.bin"));
        let (rc, _, err) = nvsurf(&["convert", "--format", "RGBA8_UNORM", "--input", s(src), "--output", s(&want)]);
        assert_eq!(rc, 0, "{err}");
        let fifo = tmp.path(&format!("fifo.{ext}"));
        let got = tmp.path(&format!("fifo-got-{ext}.bin"));
        let tiled = tmp.path(&format!("fifo-tiled-{ext}.bin"));
        // `convert`, and `tile`, which compares the size from the header first.
        for (cmd, out) in [
            ("convert --format RGBA8_UNORM", &got),
            ("tile --gpu gf100 --format RGBA8_UNORM --size 16x8 --block-log2 0,0,0", &tiled),
        ] {
            let _ = std::fs::remove_file(&fifo);
            let (f, src, out) = (s(&fifo), s(src), s(out));
            let script = format!("mkfifo {f} && (cat {src} > {f} &) && $N {cmd} --input {f} --output {out}");
            let (rc, _, err) = limited(1_000_000, &script);
            assert_eq!(rc, 0, "{ext} {cmd}: {err}");
        }
        assert_eq!(std::fs::read(&got).unwrap(), std::fs::read(&want).unwrap(), "{ext}");
        std::fs::remove_file(&fifo).unwrap();
    }
    // A black 4096x4096 1-bit palette PNG: a few KB, 2 MB of stored rows, 48 MB as RGB.
    let bw = tmp.path("bw1.png");
    {
        let mut enc = png::Encoder::new(std::io::BufWriter::new(std::fs::File::create(&bw).unwrap()), 4096, 4096);
        enc.set_color(png::ColorType::Indexed);
        enc.set_depth(png::BitDepth::One);
        enc.set_palette(vec![0, 0, 0, 255, 255, 255]);
        enc.set_compression(png::Compression::High);
        let mut w = enc.write_header().unwrap();
        w.write_image_data(&vec![0u8; 512 * 4096]).unwrap();
    }
    let len = std::fs::metadata(&bw).unwrap().len();
    assert!(len * 4096 < 4096 * 4096 * 3, "{len} bytes: the expanded rows must be over 4096 times larger");
    assert!(len * 4096 > 513 * 4096, "{len} bytes: the stored rows must be under 4096 times larger");
    let out = tmp.path("bw1.bin");
    let (rc, _, err) = nvsurf(&["convert", "--format", "RGBA8_UNORM", "--input", s(&bw), "--output", s(&out)]);
    assert_eq!(rc, 0, "{err}");
    let px = std::fs::read(&out).unwrap();
    assert_eq!(px.len(), 4096 * 4096 * 4);
    assert!(px.chunks(4).all(|p| p == [0, 0, 0, 255]));
}

/// `--onto` a device of no end (/dev/zero) is refused at once (it read until memory ran out).
#[test]
fn onto_an_endless_device_is_refused() {
    let tmp = Scratch::new("hostile");
    let input = tmp.path("onto-in.bin");
    std::fs::write(&input, vec![1u8; 16384]).unwrap();
    let out = tmp.path("onto-out.bin");
    let args = ["tile", "--gpu", "gf100", "--elem-size", "4", "--size", "64x64", "--block-log2", "0,2,0"];
    let mut args = args.to_vec();
    args.extend(["--input", s(&input), "--onto", "/dev/zero", "--output", s(&out)]);
    refused(&args, "it is a device, whose end is unknown", &out);
    // Whole textures, raw and from a DDS, read theirs until memory ran out (session 12).
    let tex = ["tile", "--texture", "--gpu", "gm20b", "--elem-size", "4", "--size", "64x64", "--levels", "1"];
    let mut args = tex.to_vec();
    args.extend(["--input", s(&input), "--onto", "/dev/zero", "--output", s(&out)]);
    refused(&args, "it is a device, whose end is unknown", &out);
    let dds = tmp.path("onto-in.dds");
    crafted_dds(&dds, DxgiFormat::R8G8B8A8_UNorm, |_| {});
    let tex = ["tile", "--texture", "--gpu", "gm20b", "--format", "A8B8G8R8", "--size", "4x4", "--levels", "2"];
    let mut args = tex.to_vec();
    args.extend(["--input", s(&dds), "--onto", "/dev/zero", "--output", s(&out)]);
    refused(&args, "it is a device, whose end is unknown", &out);
}
