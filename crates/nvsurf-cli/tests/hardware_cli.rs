//! Real hardware through the command line: with nothing but `--gpu gh100` (and `--format` for
//! depth), `tile --texture` of the capture's pattern onto a buffer of 0xee must give the bytes an
//! H100 holds, byte for byte (`crates/nvsurf/tests/data/hardware`, see the README there), and
//! the texture's size must be the driver's.

use serde_json::Value;
use std::io::Read;
use std::process::Command;

mod scratch;
use scratch::Scratch;

fn data(path: &str) -> String {
    format!("{}/../nvsurf/tests/data/hardware/{path}", env!("CARGO_MANIFEST_DIR"))
}

fn gunzip(path: &str) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(data(path)).unwrap()).read_to_end(&mut out).unwrap();
    out
}

fn splitmix64(z: u64) -> u64 {
    let z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    let z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The CUDA captures' element (x, y, z) of level `level`, `elem` bytes (the README's pattern).
fn cuda_element(level: u64, x: u64, y: u64, z: u64, elem: usize, out: &mut Vec<u8>) {
    let id = ((level * 4096 + z) * 65536 + y) * 65536 + x;
    let mut r = splitmix64(id);
    let start = out.len();
    for i in 0..elem {
        if i > 0 && i % 8 == 0 {
            r = splitmix64(r);
        }
        out.push(r.to_le_bytes()[i % 8]);
    }
    if elem >= 4 {
        let tag = (x & 0xffff) as u32 | ((y & 0xfff) as u32) << 16 | ((z & 15) as u32) << 28;
        out[start..start + 4].copy_from_slice(&tag.to_le_bytes());
    }
}

/// Runs `tile --texture` with `flags`, the linear pattern as input, onto a copy of 0xee the
/// capture's length; returns the output.
fn tile_onto_ee(tmp: &Scratch, name: &str, flags: &[String], linear: &[u8], dump_len: usize) -> Vec<u8> {
    let (lin, ee, out) = (tmp.path(&format!("{name}.lin")), tmp.path(&format!("{name}.ee")), tmp.path(name));
    std::fs::write(&lin, linear).unwrap();
    std::fs::write(&ee, vec![0xeeu8; dump_len]).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_nvsurf"))
        .args(["tile", "--texture"])
        .args(flags)
        .args(["--input", lin.to_str().unwrap(), "--onto", ee.to_str().unwrap(), "--output", out.to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{name} {flags:?}: {err}");
    // The summary line says what was assumed: nothing was given but the GPU (and format).
    assert!(err.contains("(default for gh100"), "{name}: {err}");
    std::fs::read(&out).unwrap()
}

fn texture_json(flags: &[String]) -> Value {
    let o = Command::new(env!("CARGO_BIN_EXE_nvsurf")).arg("texture").args(flags).arg("--json").output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn cuda_arrays_are_reproduced_with_only_the_gpu() {
    let tmp = Scratch::new("hardware");
    let mut checked = 0;
    for line in std::fs::read_to_string(data("gh100/index.jsonl")).unwrap().lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let n = |k: &str| v[k].as_u64().unwrap();
        let name = v["name"].as_str().unwrap();
        let (w, h, d, levels, flags, elem, bc) = (n("w"), n("h"), n("d"), n("levels"), n("flags"), n("elem"), n("bc"));
        // flags: 1 layered, 4 cube map; d is the depth (3D) or the layer count.
        let (ty, depth, layers) = match flags {
            0 if d > 1 => ("3d", d, 1),
            0 => ("2d", 1, 1),
            1 => ("2d_array", 1, d),
            4 => ("cube", 1, d),
            5 => ("cube_array", 1, d),
            f => panic!("{name}: flags {f}"),
        };
        let mut args: Vec<String> =
            ["--gpu", "gh100", "--type", ty, "--levels", &levels.to_string()].map(String::from).to_vec();
        args.extend(["--size".into(), format!("{w}x{h}x{depth}"), "--layers".into(), layers.to_string()]);
        match (bc, elem) {
            (4, 8) => args.extend(["--format".into(), "bc1".into()]),
            (4, 16) => args.extend(["--format".into(), "bc7".into()]),
            (1, e) => args.extend(["--elem-size".into(), e.to_string()]),
            other => panic!("{name}: {other:?}"),
        }
        // The packed linear texture: layer by layer, level by level, slice, row, element.
        let mut linear = Vec::new();
        for layer in 0..layers {
            for l in 0..levels {
                let (lw, lh, ld) = ((w >> l).max(1), (h >> l).max(1), (depth >> l).max(1));
                let (ew, eh) = (lw.div_ceil(bc), lh.div_ceil(bc));
                for z in 0..ld {
                    for y in 0..eh {
                        for x in 0..ew {
                            cuda_element(l, x, y, if layers > 1 { layer } else { z }, elem as usize, &mut linear);
                        }
                    }
                }
            }
        }
        let want = gunzip(&format!("gh100/{name}.bin.gz"));
        assert_eq!(want.len() as u64, n("dump_size"), "{name}");
        let got = tile_onto_ee(&tmp, name, &args, &linear, want.len());
        let first_diff = got.iter().zip(&want).position(|(a, b)| a != b);
        assert!(got == want, "{name}: first difference at byte {first_diff:?}");
        // The texture's size, rounded up to the driver's alignment, is the driver's size.
        let size = texture_json(&args)["size_bytes"].as_u64().unwrap();
        assert_eq!(size.div_ceil(n("req_align")) * n("req_align"), n("req_size"), "{name}");
        checked += 1;
    }
    assert_eq!(checked, 10);
}

#[test]
fn vulkan_colour_and_depth_images_are_reproduced_with_the_gpu_and_format() {
    let tmp = Scratch::new("hardware-vk");
    let mut checked = 0;
    for line in std::fs::read_to_string(data("gh100-vulkan/index.jsonl")).unwrap().lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let n = |k: &str| v[k].as_u64().unwrap();
        let name = v["name"].as_str().unwrap();
        let (w, h, levels) = (n("w"), n("h"), n("levels"));
        // VkFormat 37 R8G8B8A8_UNORM, 124 D16_UNORM, 126 D32_SFLOAT (Vulkan's vk.xml numbers).
        let format = match n("vk_format") {
            37 => "A8B8G8R8",
            124 => "Z16",
            126 => "Z32",
            f => panic!("{name}: VkFormat {f}"),
        };
        let args: Vec<String> =
            ["--gpu", "gh100", "--format", format, "--size", &format!("{w}x{h}"), "--levels", &levels.to_string()]
                .map(String::from)
                .to_vec();
        let mut linear = Vec::new();
        for l in 0..levels {
            for y in 0..(h >> l).max(1) {
                for x in 0..(w >> l).max(1) {
                    match format {
                        "A8B8G8R8" => {
                            linear.extend(((x & 0xffff) | (y & 0xfff) << 16 | l << 28).to_le_bytes()[..4].to_vec())
                        }
                        "Z16" => linear.extend(((x & 0xff) | (y & 0xff) << 8).to_le_bytes()[..2].to_vec()),
                        _ => {
                            let v = ((x & 0xfff) | (y & 0xfff) << 12 | l << 22) as f32 / 16_777_216.0;
                            linear.extend(v.to_le_bytes());
                        }
                    }
                }
            }
        }
        let want = gunzip(&format!("gh100-vulkan/{name}.bin.gz"));
        let got = tile_onto_ee(&tmp, name, &args, &linear, want.len());
        let first_diff = got.iter().zip(&want).position(|(a, b)| a != b);
        assert!(got == want, "{name}: first difference at byte {first_diff:?}");
        // The driver's size of a single-layer image is the end of its last level.
        let t = texture_json(&args);
        assert_eq!(t["size_bytes"].as_u64().unwrap(), n("size"), "{name}");
        let order = if format == "Z16" { "blackwell16" } else { "turing" };
        assert_eq!(t["gob_order"], order, "{name}");
        assert_eq!((t["gob_order_source"].as_str(), t["block_policy"].as_str()), (Some("default"), Some("nvidia")));
        checked += 1;
    }
    assert_eq!(checked, 3);
}

#[test]
fn depth_stencil_on_hopper_answers_its_geometry_and_refuses_to_move_bytes() {
    // No CPU byte order is known for 24-bit depth on GH100 (the captures match none): texture
    // answers offsets and sizes (they do not depend on it) and says so; untile refuses.
    for fmt in ["Z24_S8", "S8_Z24", "Z24_X8"] {
        let run = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_nvsurf")).args(args).output().unwrap();
        let o = run(&["texture", "--gpu", "gh100", "--format", fmt, "--size", "300x200", "--json"]);
        assert!(o.status.success(), "{fmt}: {}", String::from_utf8_lossy(&o.stderr));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!((v["gob_order"].is_null(), v["gob_order_known"].as_bool()), (true, Some(false)), "{fmt}");
        let o = run(&["texture", "--gpu", "gh100", "--format", fmt, "--size", "300x200", "--gob", "turing", "--json"]);
        assert!(o.status.success(), "{fmt}: {}", String::from_utf8_lossy(&o.stderr));
        let given: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!((&v["size_bytes"], &v["levels"]), (&given["size_bytes"], &given["levels"]), "{fmt}");
        let o = run(&[
            "untile",
            "--gpu",
            "gh100",
            "--format",
            fmt,
            "--size",
            "300x200",
            "--input",
            "/nonexistent",
            "--output",
            "/nonexistent.png",
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{fmt}");
        assert!(err.contains("gob order") && err.contains("--gob") && err.lines().count() == 1, "{fmt}: {err}");
    }
}
