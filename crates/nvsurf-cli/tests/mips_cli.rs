//! `tile --texture --generate-mips` through the binary: 2D, arrays, cubes and 3D textures,
//! `--onto --subresource L,LAYER` (every other byte of the dump kept), sRGB in linear light,
//! DDS inputs and the refusals.
//!
//! The float textures hold ramps: channel R of level 0 is `x`, G is `y`, B is `z` (or the
//! layer). The expected levels are computed here from the definition of the box filter (the
//! polyphase box of Guthe and Heckbert, NVIDIA TR-01838-001): output texel `i` of an axis
//! going from `n` to `m` texels averages the input over `[i n / m, (i + 1) n / m)`, each input
//! texel weighed by how much of that interval it covers (overlap lengths, not the library's
//! closed-form weights).

use serde_json::Value;
use std::path::Path;
use std::process::Command;

mod scratch;
use scratch::Scratch;

fn nvsurf(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nvsurf")).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

fn ok(args: &[&str]) -> String {
    let (rc, _, err) = nvsurf(args);
    assert_eq!(rc, 0, "{args:?}: {err}");
    err
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Words of a flag string, then `extra`.
fn args<'a>(words: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    words.split_whitespace().chain(extra.iter().copied()).collect()
}

/// The texture's plan (`nvsurf texture --json`).
fn plan(shape: &str) -> Value {
    let (rc, out, err) = nvsurf(&args(&format!("texture {shape} --json"), &[]));
    assert_eq!(rc, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

/// (width, height, depth) of every level.
fn sizes(v: &Value) -> Vec<[usize; 3]> {
    v["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| ["width", "height", "depth"].map(|k| l[k].as_u64().unwrap() as usize))
        .collect()
}

/// RGBA32_FLOAT texels of a packed linear file.
fn floats(bytes: &[u8]) -> Vec<[f32; 4]> {
    bytes
        .chunks_exact(16)
        .map(|c| [0, 1, 2, 3].map(|i| f32::from_le_bytes(c[i * 4..i * 4 + 4].try_into().unwrap())))
        .collect()
}

/// The ramp of level 0 for `layers` layers: R = x, G = y, B = z (3D) or the layer, A = 1;
/// followed by `filler` bytes of junk for the lower levels (replaced by the generated ones).
fn ramp(e: [usize; 3], layers: usize, lower_bytes: usize, layer_levels: &[[usize; 3]]) -> Vec<u8> {
    let mut out = Vec::new();
    for layer in 0..layers {
        let [w, h, d] = e;
        for z in 0..d {
            for y in 0..h {
                for x in 0..w {
                    let b = if d > 1 { z as f32 } else { layer as f32 };
                    for v in [x as f32, y as f32, b, 1.0] {
                        out.extend(v.to_le_bytes());
                    }
                }
            }
        }
        // Junk where the lower levels go.
        let n: usize = layer_levels[1..].iter().map(|[w, h, d]| w * h * d * 16).sum();
        assert_eq!(n, lower_bytes);
        out.extend((0..n).map(|i| (i * 7 + 3) as u8));
    }
    out
}

/// One axis filtered from `v.len()` to `max(1, len / 2)` texels by interval overlap.
fn box_1d(v: &[f64]) -> Vec<f64> {
    let n = v.len();
    let m = (n / 2).max(1);
    let width = n as f64 / m as f64;
    (0..m)
        .map(|i| {
            let (a, b) = (i as f64 * width, (i + 1) as f64 * width);
            (0..n).map(|k| (b.min(k as f64 + 1.0) - a.max(k as f64)).max(0.0) * v[k]).sum::<f64>() / width
        })
        .collect()
}

/// The ramp `0, 1, .., n0 - 1` filtered down `level` times: its texel `i`.
fn expect(i: usize, level: usize, n0: usize) -> f32 {
    expect_from(&(0..n0).map(|k| k as f64).collect::<Vec<_>>(), level)[i] as f32
}

/// `v` filtered down `times` times.
fn expect_from(v: &[f64], times: usize) -> Vec<f64> {
    (0..times).fold(v.to_vec(), |v, _| box_1d(&v))
}

/// Checks every level of every layer of the packed linear `lin` against the ramp.
fn check_ramps(lin: &[u8], levels: &[[usize; 3]], layers: usize) {
    let px = floats(lin);
    let mut at = 0;
    let [w0, h0, d0] = levels[0];
    for layer in 0..layers {
        for (l, &[w, h, d]) in levels.iter().enumerate() {
            assert_eq!([w, h, d], [w0, h0, d0].map(|n| (0..l).fold(n, |n, _| (n / 2).max(1))));
            for z in 0..d {
                for y in 0..h {
                    for x in 0..w {
                        let p = px[at];
                        at += 1;
                        let b = if d0 > 1 { expect(z, l, d0) } else { layer as f32 };
                        let want = [expect(x, l, w0), expect(y, l, h0), b, 1.0];
                        for c in 0..4 {
                            assert!(
                                (p[c] - want[c]).abs() < 1e-4,
                                "layer {layer} level {l} texel ({x},{y},{z}) channel {c}: {} vs {}",
                                p[c],
                                want[c]
                            );
                        }
                    }
                }
            }
        }
    }
    assert_eq!(at, px.len());
}

/// Tiles a ramp texture of `shape` with --generate-mips, untiles it, and checks every level.
fn ramp_round_trip(tag: &str, shape: &str, layers: usize) {
    let tmp = Scratch::new(tag);
    let v = plan(shape);
    let levels = sizes(&v);
    let lower: usize = levels[1..].iter().map(|[w, h, d]| w * h * d * 16).sum();
    let (lin, dump, back) = (tmp.path("in.lin"), tmp.path("t.bin"), tmp.path("back.lin"));
    std::fs::write(&lin, ramp(levels[0], layers, lower, &levels)).unwrap();
    let summary =
        ok(&args(&format!("tile --texture {shape} --generate-mips"), &["--input", s(&lin), "--output", s(&dump)]));
    // One entry per generated level in the summary line.
    for (l, [w, h, d]) in levels.iter().enumerate().skip(1) {
        assert!(summary.contains(&format!("level {l} {w}x{h}x{d}")), "{summary}");
    }
    ok(&args(&format!("untile --texture {shape}"), &["--input", s(&dump), "--output", s(&back)]));
    check_ramps(&std::fs::read(&back).unwrap(), &levels, layers);
    // One thread (layers one after another) writes the same bytes as the pool.
    let single = tmp.path("t1.bin");
    ok(&args(
        &format!("tile --texture {shape} --generate-mips --threads 1"),
        &["--input", s(&lin), "--output", s(&single)],
    ));
    assert_eq!(std::fs::read(&single).unwrap(), std::fs::read(&dump).unwrap());
}

#[test]
fn two_d_with_odd_sizes() {
    // 13x6 -> 6x3 -> 3x1 -> 1x1: odd widths (13, 3) and an odd height (3) take the 3-tap box.
    ramp_round_trip("mips-2d", "--gpu gf100 --format RGBA32_FLOAT --size 13x6 --levels 4", 1);
}

#[test]
fn one_by_n() {
    ramp_round_trip("mips-1xn", "--gpu gf100 --format RGBA32_FLOAT --size 1x12 --levels 4", 1);
}

#[test]
fn array_layers_each_from_their_own_level_0() {
    ramp_round_trip(
        "mips-array",
        "--gpu gf100 --type 2d_array --format RGBA32_FLOAT --size 8x5 --layers 3 --levels 3",
        3,
    );
}

#[test]
fn cube_faces_each_from_their_own_level_0() {
    ramp_round_trip("mips-cube", "--gpu gf100 --type cube --format RGBA32_FLOAT --size 8x8 --levels 4", 6);
}

#[test]
fn three_d_halves_depth() {
    // 8x4x6 -> 4x2x3 -> 2x1x1: the depth halves too (odd 3 -> 1 with the 3-tap box).
    let shape = "--gpu gf100 --type 3d --format RGBA32_FLOAT --size 8x4x6 --levels 3";
    assert_eq!(sizes(&plan(shape)), [[8, 4, 6], [4, 2, 3], [2, 1, 1]]);
    ramp_round_trip("mips-3d", shape, 1);
}

#[test]
fn onto_subresource_rebuilds_only_the_levels_below_it_in_its_layer() {
    let tmp = Scratch::new("mips-onto");
    let shape = "--gpu gf100 --type 2d_array --format RGBA32_FLOAT --size 16x8 --layers 3 --levels 4";
    let v = plan(shape);
    let levels = sizes(&v);
    let total = v["size_bytes"].as_u64().unwrap() as usize;
    let stride = v["layer_stride"].as_u64().unwrap() as usize;
    let offs: Vec<usize> =
        v["levels"].as_array().unwrap().iter().map(|l| l["offset"].as_u64().unwrap() as usize).collect();
    let lens: Vec<usize> =
        v["levels"].as_array().unwrap().iter().map(|l| l["size"].as_u64().unwrap() as usize).collect();
    // An original dump of junk, and a new level 1 (8x4) for layer 2: R = x squared (not a
    // level 0 ramp filtered, to tell the source level apart), G = y.
    let orig: Vec<u8> = (0..total).map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8).collect();
    let (base, out, l1, back) = (tmp.path("orig.bin"), tmp.path("new.bin"), tmp.path("l1.lin"), tmp.path("back.lin"));
    std::fs::write(&base, &orig).unwrap();
    let mut level1 = Vec::new();
    let [w1, h1, _] = levels[1];
    for y in 0..h1 {
        for x in 0..w1 {
            for f in [(x * x) as f32, y as f32, 2.0, 1.0] {
                level1.extend(f.to_le_bytes());
            }
        }
    }
    std::fs::write(&l1, &level1).unwrap();
    let summary = ok(&args(
        &format!("tile --texture {shape} --subresource 1,2 --generate-mips"),
        &["--input", s(&l1), "--onto", s(&base), "--output", s(&out)],
    ));
    assert!(summary.contains("layer 2 from level 1") && summary.contains("level 3 2x1x1"), "{summary}");
    let new = std::fs::read(&out).unwrap();
    assert_eq!(new.len(), orig.len());
    // Every byte outside levels 1..=3 of layer 2 is the original's.
    let start = 2 * stride + offs[1];
    let end = 2 * stride + offs[3] + lens[3];
    assert_eq!(new[..start], orig[..start]);
    assert_eq!(new[end..], orig[end..]);
    assert_ne!(new[start..end], orig[start..end]);
    // Levels 1..=3 of layer 2 hold the ramp (level 0 of layer 2 keeps the junk).
    ok(&args(&format!("untile --texture {shape} --subresource 1,2"), &["--input", s(&out), "--output", s(&back)]));
    assert_eq!(std::fs::read(&back).unwrap(), level1);
    for (l, &[w, h, _]) in levels.iter().enumerate().skip(2) {
        ok(&args(
            &format!("untile --texture {shape} --subresource {l},2"),
            &["--input", s(&out), "--output", s(&back)],
        ));
        let px = floats(&std::fs::read(&back).unwrap());
        for y in 0..h {
            for x in 0..w {
                let rx = expect_from(&(0..w1).map(|x| (x * x) as f64).collect::<Vec<_>>(), l - 1);
                let ry = expect_from(&(0..h1).map(|y| y as f64).collect::<Vec<_>>(), l - 1);
                let want = [rx[x] as f32, ry[y] as f32, 2.0, 1.0];
                for c in 0..4 {
                    assert!((px[y * w + x][c] - want[c]).abs() < 1e-4, "level {l} ({x},{y}) {c}: {:?}", px[y * w + x]);
                }
            }
        }
    }
    // The same in place: the file ends as the copy did.
    let inplace = tmp.path("inplace.bin");
    std::fs::write(&inplace, &orig).unwrap();
    ok(&args(
        &format!("tile --texture {shape} --subresource 1,2 --generate-mips --in-place"),
        &["--input", s(&l1), "--onto", s(&inplace)],
    ));
    assert_eq!(std::fs::read(&inplace).unwrap(), new);
}

#[test]
fn srgb_levels_average_in_linear_light() {
    let tmp = Scratch::new("mips-srgb");
    let shape = "--gpu gf100 --format RGBA8_SRGB --size 4x4 --levels 3";
    // A black and white checkerboard: each 2x2 is two of each. Lower levels: 2x2 and 1x1.
    let mut lin: Vec<u8> =
        (0..16).flat_map(|i| if (i % 4 + i / 4) % 2 == 1 { [255u8; 4] } else { [0, 0, 0, 255] }).collect();
    lin.extend([9u8; 4 * 4 + 4]);
    let (input, dump, back) = (tmp.path("in.lin"), tmp.path("t.bin"), tmp.path("back.lin"));
    std::fs::write(&input, &lin).unwrap();
    let summary =
        ok(&args(&format!("tile --texture {shape} --generate-mips"), &["--input", s(&input), "--output", s(&dump)]));
    assert!(summary.contains("linear light"), "{summary}");
    ok(&args(&format!("untile --texture {shape}"), &["--input", s(&dump), "--output", s(&back)]));
    let got = std::fs::read(&back).unwrap();
    assert_eq!(got[..64], lin[..64]);
    // Linear mean 0.5 is sRGB 188 (a mean of the encoded values would be 128); alpha stays 255.
    assert_eq!(got[64..], [188, 188, 188, 255].repeat(5)[..]);
}

#[test]
fn png_level_0_onto_a_dump_rebuilds_its_mips() {
    // The modder's round trip: level 0 of layer 0 as a PNG, edited, back with --generate-mips.
    let tmp = Scratch::new("mips-png");
    let shape = "--gpu gf100 --format RGBA8_SRGB --size 4x4 --levels 3";
    let (dump, png, out, back) = (tmp.path("t.bin"), tmp.path("l0.png"), tmp.path("new.bin"), tmp.path("back.lin"));
    let v = plan(shape);
    let total = v["size_bytes"].as_u64().unwrap() as usize;
    std::fs::write(&dump, vec![0x40u8; total]).unwrap();
    // A white level 0 in a raw file, to PNG through untile of a tiled copy.
    let white = tmp.path("white.lin");
    std::fs::write(&white, [255u8; 64]).unwrap();
    let tiled_white = tmp.path("white.bin");
    ok(&args(
        &format!("tile --texture {shape} --subresource 0,0"),
        &["--input", s(&white), "--onto", s(&dump), "--output", s(&tiled_white)],
    ));
    ok(&args(
        &format!("untile --texture {shape} --subresource 0,0"),
        &["--input", s(&tiled_white), "--output", s(&png)],
    ));
    ok(&args(
        &format!("tile --texture {shape} --subresource 0,0 --generate-mips"),
        &["--input", s(&png), "--onto", s(&dump), "--output", s(&out)],
    ));
    ok(&args(&format!("untile --texture {shape}"), &["--input", s(&out), "--output", s(&back)]));
    assert_eq!(std::fs::read(&back).unwrap(), vec![255u8; 64 + 16 + 4]);
}

#[test]
fn dds_with_level_0_only_or_with_its_own_mips() {
    let tmp = Scratch::new("mips-dds");
    let one = "--gpu gf100 --type 2d_array --format RGBA32_FLOAT --size 6x4 --layers 2 --levels 1";
    let three = "--gpu gf100 --type 2d_array --format RGBA32_FLOAT --size 6x4 --layers 2 --levels 3";
    let levels = sizes(&plan(three));
    let (lin, dump, dds, out, back) =
        (tmp.path("l0.lin"), tmp.path("l0.bin"), tmp.path("l0.dds"), tmp.path("t.bin"), tmp.path("back.lin"));
    std::fs::write(&lin, ramp(levels[0], 2, 0, &levels[..1])).unwrap();
    ok(&args(&format!("tile --texture {one}"), &["--input", s(&lin), "--output", s(&dump)]));
    ok(&args(&format!("untile --texture {one}"), &["--input", s(&dump), "--output", s(&dds)]));
    // Without --generate-mips a one-level DDS does not fit a three-level texture.
    let (rc, _, err) = nvsurf(&args(&format!("tile --texture {three}"), &["--input", s(&dds), "--output", s(&out)]));
    assert_eq!(rc, 2, "{err}");
    let summary =
        ok(&args(&format!("tile --texture {three} --generate-mips"), &["--input", s(&dds), "--output", s(&out)]));
    assert!(!summary.contains("replaced"), "{summary}");
    ok(&args(&format!("untile --texture {three}"), &["--input", s(&out), "--output", s(&back)]));
    check_ramps(&std::fs::read(&back).unwrap(), &levels, 2);
    // A DDS with all three levels: they are rebuilt from level 0, and the summary says so.
    let full = tmp.path("full.dds");
    ok(&args(&format!("untile --texture {three}"), &["--input", s(&out), "--output", s(&full)]));
    let again = tmp.path("again.bin");
    let summary =
        ok(&args(&format!("tile --texture {three} --generate-mips"), &["--input", s(&full), "--output", s(&again)]));
    assert!(summary.contains("the DDS's own 2 lower level(s) were replaced"), "{summary}");
    assert_eq!(std::fs::read(&again).unwrap(), std::fs::read(&out).unwrap());
}

#[test]
fn raw_input_with_level_0_only() {
    // A raw file holding level 0 of each layer (and nothing else) is enough: the dump equals
    // the one made from a file holding every level, and a length that is neither is one line.
    let tmp = Scratch::new("mips-raw-l0");
    let shape = "--gpu gf100 --type 2d_array --format RGBA32_FLOAT --size 6x5 --layers 2 --levels 3";
    let levels = sizes(&plan(shape));
    let lower: usize = levels[1..].iter().map(|[w, h, d]| w * h * d * 16).sum();
    let (full, l0, a, b, back) =
        (tmp.path("full.lin"), tmp.path("l0.lin"), tmp.path("a.bin"), tmp.path("b.bin"), tmp.path("back.lin"));
    std::fs::write(&full, ramp(levels[0], 2, lower, &levels)).unwrap();
    std::fs::write(&l0, ramp(levels[0], 2, 0, &levels[..1])).unwrap();
    ok(&args(&format!("tile --texture {shape} --generate-mips"), &["--input", s(&full), "--output", s(&a)]));
    ok(&args(&format!("tile --texture {shape} --generate-mips"), &["--input", s(&l0), "--output", s(&b)]));
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    ok(&args(&format!("untile --texture {shape}"), &["--input", s(&b), "--output", s(&back)]));
    check_ramps(&std::fs::read(&back).unwrap(), &levels, 2);
    // Level 0 of one layer only: neither length.
    let half = tmp.path("half.lin");
    let l0_bytes = std::fs::read(&l0).unwrap();
    std::fs::write(&half, &l0_bytes[..l0_bytes.len() / 2]).unwrap();
    let out = tmp.path("c.bin");
    let (rc, _, err) =
        nvsurf(&args(&format!("tile --texture {shape} --generate-mips"), &["--input", s(&half), "--output", s(&out)]));
    assert_eq!(rc, 2, "{err}");
    assert!(err.contains("holds 480 bytes") && err.contains("level 0 of every layer (960 bytes)"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(!out.exists());
}

#[test]
fn refusals_are_one_line_and_write_nothing() {
    let tmp = Scratch::new("mips-refuse");
    let (input, out) = (tmp.path("in.lin"), tmp.path("out.bin"));
    std::fs::write(&input, vec![0u8; 4096]).unwrap();
    let cases = [
        ("tile --gpu gf100 --format RGBA8_UNORM --size 4x4 --generate-mips", "generate-mips without --texture"),
        ("tile --texture --gpu gf100 --format RGBA8_UNORM --size 4x4 --generate-mips", "levels 1"),
        (
            "tile --texture --gpu gf100 --format RGBA8_UNORM --size 4x4 --levels 3 --subresource 2,0 --generate-mips",
            "level 2 is the last of 3 levels",
        ),
        ("tile --texture --gpu gf100 --elem-size 4 --size 4x4 --levels 3 --generate-mips", "format (none)"),
        (
            "tile --texture --gpu gf100 --format zeta:0x16 --gob fermi --size 4x4 --levels 3 --generate-mips",
            "depth/stencil",
        ),
    ];
    for (cmd, want) in cases {
        let (rc, _, err) = nvsurf(&args(cmd, &["--input", s(&input), "--output", s(&out)]));
        assert_eq!(rc, 2, "{cmd}: {err}");
        assert!(err.contains(want), "{cmd}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{cmd}: {err}");
        assert!(!out.exists(), "{cmd} wrote {}", out.display());
    }
}

#[test]
fn a_box_onto_a_dump_rebuilds_from_the_whole_level() {
    // Level 0 of a zero dump gets a 2x2 box of R = 4 in its corner; the mips come from the
    // whole level as patched: level 1 (2x2) is 4 in one texel, level 2 (1x1) is 1.
    let tmp = Scratch::new("mips-box");
    let shape = "--gpu gf100 --format RGBA32_FLOAT --size 4x4 --levels 3";
    let total = plan(shape)["size_bytes"].as_u64().unwrap() as usize;
    let (base, input, out, back) =
        (tmp.path("zero.bin"), tmp.path("box.lin"), tmp.path("new.bin"), tmp.path("back.lin"));
    std::fs::write(&base, vec![0u8; total]).unwrap();
    std::fs::write(&input, [4f32, 0.0, 0.0, 0.0].repeat(4).iter().flat_map(|f| f.to_le_bytes()).collect::<Vec<u8>>())
        .unwrap();
    ok(&args(
        &format!("tile --texture {shape} --subresource 0,0 --box 0,0,0,2,2,1 --generate-mips"),
        &["--input", s(&input), "--onto", s(&base), "--output", s(&out)],
    ));
    ok(&args(&format!("untile --texture {shape}"), &["--input", s(&out), "--output", s(&back)]));
    let r: Vec<f32> = floats(&std::fs::read(&back).unwrap()).iter().map(|p| p[0]).collect();
    let level0 = [4.0, 4.0, 0.0, 0.0, 4.0, 4.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
    assert_eq!(r[..16], level0);
    assert_eq!(r[16..20], [4.0, 0.0, 0.0, 0.0]);
    assert_eq!(r[20..], [1.0]);
}
