//! `nvsurf texture`, `untile --texture` and `tile --texture` through the binary: the JSON
//! contract, the table, errors, whole-texture round trips and `--split`.
//! Expected numbers: `docs/VECTORS.md`, "G80/GF100 textures", "Pre-G80 textures"
//! and "Switch/Tegra files" (copied here).

use serde_json::Value;
use std::process::Command;

mod scratch;
use scratch::Scratch;

/// Runs the binary with `args` (whitespace-separated words) followed by `extra` (paths).
fn nvsurf(args: &str, extra: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nvsurf")).args(args.split_whitespace()).args(extra).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

fn json(args: &str) -> Value {
    let (code, out, err) = nvsurf(&format!("texture {args} --json"), &[]);
    assert_eq!(code, 0, "{args}: {err}");
    serde_json::from_str(&out).unwrap()
}

fn offsets(v: &Value) -> Vec<u64> {
    v["levels"].as_array().unwrap().iter().map(|l| l["offset"].as_u64().unwrap()).collect()
}

#[test]
fn json_contract_gf100_2d() {
    let v = json("--gpu gf100 --type 2d --elem-size 4 --size 300x200x1 --levels 9 --block-log2 0,5,0");
    assert_eq!(v["size_bytes"], 425984);
    assert_eq!(v["layer_stride"], 425984);
    assert_eq!(offsets(&v), [0, 311296, 393216, 413696, 419840, 421888, 422400, 422912, 423424]);
    let levels = v["levels"].as_array().unwrap();
    let ylog2: Vec<u64> = levels.iter().map(|l| l["block_log2"][1].as_u64().unwrap()).collect();
    assert_eq!(ylog2, [5, 4, 3, 2, 1, 0, 0, 0, 0]);
    // Every key of the contract is there, with texel sizes.
    for key in ["level", "offset", "size", "width", "height", "depth", "block_log2"] {
        assert!(levels.iter().all(|l| !l[key].is_null()), "{key}");
    }
    let whd = |l: &Value| [&l["width"], &l["height"], &l["depth"]].map(|v| v.as_u64().unwrap());
    assert_eq!(whd(&levels[1]), [150, 100, 1]);
    assert_eq!(levels[0]["row_bytes"], 1216);
}

#[test]
fn g80_compressed_arrays_and_pre_g80() {
    let v = json("--gpu g80 --elem-size 4 --size 300x200 --levels 9 --block-log2 0,4,0");
    assert_eq!(offsets(&v), [0, 311296, 393216, 413696, 419840, 421888, 422400, 422656, 422912]);
    // DXT1 given as 8-byte 4x4 blocks, and by format name.
    let by_size = json("--gpu gf100 --elem-size 8 --compressed --size 256x256 --levels 9 --block-log2 0,5,0");
    assert_eq!(offsets(&by_size), [0, 32768, 40960, 43008, 43520, 44032, 44544, 45056, 45568]);
    assert_eq!(by_size["layer_stride"], 49152);
    let by_name = json("--gpu gf100 --format dxt1 --size 256x256 --levels 9 --block-log2 0,5,0");
    assert_eq!(by_name["levels"], by_size["levels"]);
    let a = json("--gpu gf100 --type 2d_array --elem-size 4 --size 16x16 --levels 5 --layers 4 --block-log2 0,5,0");
    assert_eq!((a["layer_stride"].as_u64(), a["size_bytes"].as_u64()), (Some(3072), Some(12288)));
    let s = json("--gpu nv40 --layout swizzled --elem-size 4 --size 32x4 --levels 6");
    assert_eq!(offsets(&s), [0, 512, 640, 672, 688, 696]);
    assert_eq!(s["size_bytes"], 700);
    assert!(s["levels"][0]["block_log2"].is_null());
    let c = json("--gpu nv40 --type cube --elem-size 4 --size 64x64 --levels 7");
    assert_eq!(c["layer_stride"], 21888);
    // Switch: 6 layers of 256x256 BC7, 9 levels, NVN policy.
    let n = json("--gpu gm20b --type cube --format bc7 --size 256x256 --levels 9 --block-policy nvn --gob tegra");
    assert_eq!(n["size_bytes"], 540672);
    // NVIDIA's driver's choice (as current NVK makes it): 3D textures one gob tall, the depth
    // from the slices (values from Mesa's nil rules, see the library's nvidia_vectors.txt).
    let nv = json("--gpu tu102 --type 3d --format A8B8G8R8 --size 64x64x64 --levels 7 --block-policy nvidia");
    assert_eq!(nv["levels"][0]["block_log2"], serde_json::json!([0, 0, 4]));
    assert_eq!(offsets(&nv), [0, 1048576, 1179648, 1196032, 1200128, 1202176, 1203200]);
    // A single layer ends at its last level (the H100's Vulkan sizes; Mesa's padded 1204224).
    assert_eq!(nv["layer_stride"], 1203712);
    // Levels on 1024-byte boundaries.
    let al = json("--gpu gf100 --elem-size 1 --size 64x8 --levels 4 --block-log2 0,0,0 --level-align 1024");
    assert_eq!(offsets(&al), [0, 1024, 2048, 3072]);
}

#[test]
fn one_subresource_with_at() {
    // `docs/VECTORS.md`: NV40 swizzled 64x64 cube, 7 levels: face 3 starts at 65664.
    let v = json("--gpu nv40 --type cube --elem-size 4 --size 64x64 --levels 7 --at 0,3");
    assert_eq!((v["offset"].as_u64(), v["size"].as_u64()), (Some(65664), Some(16384)));
    assert_eq!(v["linear_offset"], 3 * 21844);
    // Linear NV40 3D: z slices one after another within the level (pitch 64 x 8 rows).
    let v = json("--gpu nv40 --type 3d --layout linear --elem-size 4 --size 16x8x4 --levels 2 --at 1,0,1");
    assert_eq!((v["offset"].as_u64(), v["slice_offset"].as_u64()), (Some(2048), Some(2048 + 64 * 4)));
    let (code, _, err) = nvsurf("texture --gpu nv40 --type cube --elem-size 4 --size 64x64 --at 0,6", &[]);
    assert_eq!(code, 2);
    assert!(err.contains("layer 6 is outside"), "{err}");
}

#[test]
fn table_and_errors() {
    let (code, out, _) =
        nvsurf("texture --gpu gf100 --elem-size 4 --size 16x16 --levels 5 --type 2d_array --layers 4", &[]);
    assert_eq!(code, 0);
    assert!(out.contains("layer stride 3072 bytes"), "{out}");
    assert!(out.contains("total 12288 bytes"), "{out}");
    for (args, want) in [
        ("--gpu gf100 --type cube --elem-size 4 --size 64x64 --layers 7", "exactly 6 layers"),
        ("--gpu gf100 --elem-size 4 --size 256x256 --levels 20", "levels 20 is out of range 1..=9"),
        ("--gpu g80 --type cube_array --elem-size 4 --size 64x64", "GT215"),
        ("--gpu nv40 --elem-size 4 --size 100x64", "swizzled width 100 is not a power of two"),
        ("--gpu gf100 --size 64x64", "--elem-size"),
        ("--gpu gf100 --elem-size 4 --size 64x64 --block-log2 0,1,0 --block-policy nvn", "not both"),
        ("--gpu gf100 --type cbe --elem-size 4 --size 64x64", "did you mean cube"),
        ("--gpu gf100 --format bc9 --size 64x64", "unknown format"),
        ("--gpu gf100 --elem-size 4 --size 64x64 --block-log2 1,2,0 --tex-block-width ignored", "block_width_log2"),
    ] {
        let (code, out, err) = nvsurf(&format!("texture {args}"), &[]);
        assert_eq!(code, 2, "{args}: {out}");
        assert!(err.starts_with("error: ") && err.contains(want), "{args}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[test]
fn tile_and_untile_whole_textures_and_split() {
    let tmp = Scratch::new("texture-cli");
    let dir = tmp.dir();
    let p = |n: &str| dir.join(n).to_str().unwrap().to_string();
    const TEX: &str = "--gpu gf100 --type 2d_array --elem-size 4 --size 40x30 --levels 3 --layers 2 --block-log2 0,5,0";
    let layout = json(TEX);
    let linear_len = layout["linear_size_bytes"].as_u64().unwrap() as usize;
    // 40x30 + 20x15 + 10x7 elements of 4 bytes, 2 layers.
    assert_eq!(linear_len, (1200 + 300 + 70) * 4 * 2);
    let linear: Vec<u8> = (0..linear_len).map(|i| (i * 13 + i / 256) as u8).collect();
    std::fs::write(p("linear.bin"), &linear).unwrap();
    let run = |cmd: &str, extra: &[&str]| {
        let (code, _, err) = nvsurf(&format!("{cmd} --texture {TEX}"), extra);
        (code, scratch::without_summary(&err))
    };
    let ok = |cmd: &str, extra: &[&str]| assert_eq!(run(cmd, extra), (0, String::new()), "{cmd} {extra:?}");

    ok("tile", &["--input", &p("linear.bin"), "--output", &p("dump.bin")]);
    let dump = std::fs::read(p("dump.bin")).unwrap();
    assert_eq!(dump.len() as u64, layout["size_bytes"].as_u64().unwrap());
    ok("untile", &["--input", &p("dump.bin"), "--output", &p("back.bin")]);
    assert!(std::fs::read(p("back.bin")).unwrap() == linear);

    // Level 1 of layer 1 equals the plain `tile` of that level alone (the texture unit
    // auto-sizes, so the same requested block with --binding texture), at its offset.
    let stride = layout["layer_stride"].as_u64().unwrap() as usize;
    let l1 = &layout["levels"][1];
    let (off, size) = (l1["offset"].as_u64().unwrap() as usize, l1["size"].as_u64().unwrap() as usize);
    let lin_off = (1200 + 300 + 70) * 4 + 1200 * 4;
    std::fs::write(p("l1.bin"), &linear[lin_off..lin_off + 300 * 4]).unwrap();
    let single_args = "tile --gpu gf100 --elem-size 4 --size 20x15 --block-log2 0,5,0 --binding texture";
    let (code, _, err) = nvsurf(single_args, &["--input", &p("l1.bin"), "--output", &p("l1_tiled.bin")]);
    assert_eq!(code, 0, "{err}");
    let single = std::fs::read(p("l1_tiled.bin")).unwrap();
    assert_eq!(single.len(), size);
    assert!(dump[stride + off..stride + off + size] == single[..]);

    // --split: one file per level and layer, and back.
    let split = p("split");
    ok("untile", &["--input", &p("dump.bin"), "--split", &split]);
    let mut names: Vec<String> =
        std::fs::read_dir(&split).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    let want: Vec<String> = (0..2).flat_map(|l| (0..3).map(move |m| format!("layer{l}_level{m}.bin"))).collect();
    assert_eq!(names, want);
    assert!(std::fs::read(dir.join("split/layer1_level1.bin")).unwrap() == linear[lin_off..lin_off + 1200]);
    ok("tile", &["--split", &split, "--output", &p("dump2.bin")]);
    assert!(std::fs::read(p("dump2.bin")).unwrap() == dump);

    // Errors, each one line: a short dump, a missing split file, --box with --texture.
    std::fs::write(p("short.bin"), &dump[..dump.len() - 1]).unwrap();
    let fails = |cmd: &str, extra: &[&str], want: &str| {
        let (code, err) = run(cmd, extra);
        assert_eq!(code, 2, "{cmd} {extra:?}");
        assert!(err.lines().count() == 1 && err.contains(want), "{err}");
    };
    fails("untile", &["--input", &p("short.bin"), "--output", &p("x.bin")], "needs");
    std::fs::remove_file(dir.join("split/layer1_level2.bin")).unwrap();
    fails("tile", &["--split", &split, "--output", &p("x.bin")], "layer1_level2.bin");
    fails("untile", &["--input", &p("dump.bin"), "--output", &p("x.bin"), "--box", "0,0,0,1,1,1"], "box");
}

#[test]
fn table_names_what_levels_use() {
    // nvsurf's pre-G80 rule: DXT textures are never swizzled; NV40 "swizzled" DXT levels are rows
    // of 4x4 blocks, and the table says so.
    let (code, out, err) = nvsurf("texture --gpu nv40 --type 2d --format dxt1 --layout swizzled --size 64x64", &[]);
    assert_eq!(code, 0, "{err}");
    let head = out.lines().next().unwrap();
    assert!(head.contains("rows of 4x4-texel blocks") && !head.contains("swizzled layout"), "{head}");
    let (_, out, _) = nvsurf("texture --gpu nv40 --type 2d --elem-size 4 --layout swizzled --size 64x64", &[]);
    assert!(out.lines().next().unwrap().contains("swizzled layout"), "{out}");
}

#[test]
fn misaligned_level_offsets_are_rejected() {
    // 0x200-byte gobs on GF100: level 1 at 0x4080 (after level 0's 16384 bytes) is a quarter gob off.
    let args = "texture --gpu gf100 --type 2d --elem-size 4 --size 64x64 --levels 2 --level-offsets";
    let (code, _, err) = nvsurf(&format!("{args} 0,16512"), &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("16512 (0x4080) of level 1") && err.contains("multiple of 0x200"), "{err}");
    let (code, _, err) = nvsurf(&format!("{args} 0,20480"), &[]);
    assert_eq!(code, 0, "{err}");
}

/// `--texture --subresource LEVEL,LAYER`: one level of one layer as a surface, so `--box`,
/// `--linear-pitch` and pictures apply. The truth is the packed linear file (layer by layer,
/// level by level) and the whole-texture `tile`, both checked by the test above.
#[test]
fn one_subresource_as_a_surface() {
    let tmp = Scratch::new("texture-sub");
    let dir = tmp.dir();
    let p = |n: &str| dir.join(n).to_str().unwrap().to_string();
    const TEX: &str = "--gpu gm20b --type cube --format RGBA8_UNORM --size 24x24 --levels 3";
    let layout = json(TEX);
    // Elements per level: 24x24, 12x12, 6x6; six faces.
    let dims = [24usize, 12, 6];
    let per_layer: usize = dims.iter().map(|d| d * d * 4).sum();
    assert_eq!(layout["linear_size_bytes"].as_u64().unwrap() as usize, per_layer * 6);
    let linear: Vec<u8> = (0..per_layer * 6).map(|i| (i * 7 + i / 251) as u8).collect();
    std::fs::write(p("linear.bin"), &linear).unwrap();
    let run = |cmd: &str, extra: &[&str]| {
        let (code, _, err) = nvsurf(&format!("{cmd} --texture {TEX}"), extra);
        (code, scratch::without_summary(&err))
    };
    let ok = |cmd: &str, extra: &[&str]| {
        let (code, err) = run(cmd, extra);
        assert_eq!(code, 0, "{cmd} {extra:?}: {err}");
    };
    ok("tile", &["--input", &p("linear.bin"), "--output", &p("dump.bin")]);
    let dump = std::fs::read(p("dump.bin")).unwrap();
    // Where (level, face) starts in the packed linear file.
    let lin_at = |level: usize, face: usize| face * per_layer + dims[..level].iter().map(|d| d * d * 4).sum::<usize>();

    // Every subresource untiles to its part of the linear file.
    for (level, d) in dims.iter().enumerate() {
        for face in 0..6 {
            let sel = format!("{level},{face}");
            ok("untile", &["--subresource", &sel, "--input", &p("dump.bin"), "--output", &p("sub.bin")]);
            let n = d * d * 4;
            let a = lin_at(level, face);
            assert!(std::fs::read(p("sub.bin")).unwrap() == linear[a..a + n], "{sel}");
        }
    }

    // A box of level 1, face 4, with a padded linear pitch (the last row unpadded or padded:
    // only the box's bytes are compared).
    let (bx, by, bw, bh, pitch) = (3usize, 2usize, 5usize, 4usize, 40usize);
    ok(
        "untile",
        &[
            "--subresource",
            "1,4",
            "--box",
            "3,2,0,5,4,1",
            "--linear-pitch",
            "40",
            "--input",
            &p("dump.bin"),
            "--output",
            &p("box.bin"),
        ],
    );
    let got = std::fs::read(p("box.bin")).unwrap();
    assert!(got.len() >= (bh - 1) * pitch + bw * 4, "{} bytes", got.len());
    for r in 0..bh {
        let src = lin_at(1, 4) + ((by + r) * 12 + bx) * 4;
        assert!(got[r * pitch..r * pitch + bw * 4] == linear[src..src + bw * 4], "row {r}");
    }

    // A picture of level 2 of face 5: the level's size in pixels; tiled back onto the dump it
    // changes nothing, and alone it makes a whole texture that is zero outside that level.
    let (code, out, err) = nvsurf(
        &format!("untile --texture {TEX} --subresource 2,5"),
        &["--input", &p("dump.bin"), "--output", &p("l2f5.png")],
    );
    assert_eq!(code, 0, "{err}");
    // Status lines go to stderr: stdout stays the data.
    assert!(err.contains("(6x6x1 px") && out.is_empty(), "{out} {err}");
    ok(
        "tile",
        &["--subresource", "2,5", "--input", &p("l2f5.png"), "--onto", &p("dump.bin"), "--output", &p("same.bin")],
    );
    assert!(std::fs::read(p("same.bin")).unwrap() == dump);
    ok("tile", &["--subresource", "2,5", "--input", &p("l2f5.png"), "--output", &p("alone.bin")]);
    let alone = std::fs::read(p("alone.bin")).unwrap();
    assert_eq!(alone.len(), dump.len(), "the whole texture's size");
    let stride = layout["layer_stride"].as_u64().unwrap() as usize;
    let l2 = &layout["levels"][2];
    let (off, size) = (5 * stride + l2["offset"].as_u64().unwrap() as usize, l2["size"].as_u64().unwrap() as usize);
    assert!(alone[off..off + size] == dump[off..off + size]);
    assert!(alone[..off].iter().chain(&alone[off + size..]).all(|&b| b == 0));

    // Tiling a box onto the dump changes only that box's elements.
    std::fs::write(p("ones.bin"), vec![0xffu8; 2 * 2 * 4]).unwrap();
    ok(
        "tile",
        &[
            "--subresource",
            "0,1",
            "--box",
            "10,10,0,2,2,1",
            "--input",
            &p("ones.bin"),
            "--onto",
            &p("dump.bin"),
            "--output",
            &p("boxed.bin"),
        ],
    );
    ok("untile", &["--input", &p("boxed.bin"), "--output", &p("boxed_linear.bin")]);
    let boxed = std::fs::read(p("boxed_linear.bin")).unwrap();
    let mut want = linear.clone();
    for (y, x) in [(10, 10), (10, 11), (11, 10), (11, 11)] {
        let a = lin_at(0, 1) + (y * 24 + x) * 4;
        want[a..a + 4].fill(0xff);
    }
    assert!(boxed == want);

    // Errors name the field and the limit.
    let fails = |cmd: &str, extra: &[&str], want: &str| {
        let (code, err) = run(cmd, extra);
        assert_eq!(code, 2, "{cmd} {extra:?}");
        assert!(err.contains(want), "{err}");
    };
    fails("untile", &["--subresource", "3,0", "--input", &p("dump.bin"), "--output", &p("x.bin")], "level 3");
    fails("untile", &["--subresource", "0,6", "--input", &p("dump.bin"), "--output", &p("x.bin")], "layer 6");
    fails("untile", &["--subresource", "0", "--input", &p("dump.bin"), "--output", &p("x.bin")], "subresource");
    fails("untile", &["--subresource", "0,0", "--split", &p("s"), "--input", &p("dump.bin")], "--split");
    fails(
        "untile",
        &["--subresource", "0,0", "--box", "20,0,0,5,1,1", "--input", &p("dump.bin"), "--output", &p("x.bin")],
        "box",
    );
    let (code, _, err) = nvsurf(
        "untile --gpu gm20b --layout pitch --pitch 512 --elem-size 4 --type buffer --size 100 --texture --subresource 0,0",
        &["--input", &p("dump.bin"), "--output", &p("x.bin")],
    );
    assert!(code == 2 && err.contains("BUFFER"), "{err}");
}

/// The linear side of `tile --texture` is read only as far as the texture needs: a longer file
/// tiles the same (under a memory limit far below its length), and a `--split` file of the
/// wrong length says which way it is wrong.
#[test]
fn linear_inputs_are_read_as_far_as_needed() {
    let tmp = Scratch::new("texture-prefix");
    let dir = tmp.dir();
    let p = |n: &str| dir.join(n).to_str().unwrap().to_string();
    const TEX: &str = "--gpu gf100 --type 2d --elem-size 4 --size 64x64 --levels 2";
    let n = (64 * 64 + 32 * 32) * 4;
    let linear: Vec<u8> = (0..n).map(|i| (i * 11 % 253) as u8).collect();
    std::fs::write(p("linear.bin"), &linear).unwrap();
    let (code, _, err) =
        nvsurf(&format!("tile --texture {TEX}"), &["--input", &p("linear.bin"), "--output", &p("a.bin")]);
    assert_eq!(code, 0, "{err}");
    // The same bytes followed by 1 GiB of (sparse) tail, under a 200 MB address-space limit.
    let long = std::fs::File::create(p("long.bin")).unwrap();
    long.set_len(1 << 30).unwrap();
    use std::io::Write;
    (&long).write_all(&linear).unwrap();
    drop(long);
    let out = Command::new("sh")
        .arg("-c")
        // One malloc arena: glibc reserves 64 MiB of address space for each thread
        // that allocates, which would race the program's own buffers under the limit.
        .env("MALLOC_ARENA_MAX", "1")
        .arg(format!(
            "ulimit -v 200000 && exec {} tile --texture {TEX} --input {} --output {}",
            env!("CARGO_BIN_EXE_nvsurf"),
            p("long.bin"),
            p("b.bin")
        ))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(std::fs::read(p("a.bin")).unwrap() == std::fs::read(p("b.bin")).unwrap());
    std::fs::remove_file(p("long.bin")).unwrap();
    // --split files one byte short and one byte long.
    let (code, _, err) = nvsurf(&format!("untile --texture {TEX}"), &["--input", &p("a.bin"), "--split", &p("split")]);
    assert_eq!(code, 0, "{err}");
    let level1 = dir.join("split/layer0_level1.bin");
    let mut bytes = std::fs::read(&level1).unwrap();
    bytes.pop();
    std::fs::write(&level1, &bytes).unwrap();
    let (code, _, err) = nvsurf(&format!("tile --texture {TEX}"), &["--split", &p("split"), "--output", &p("c.bin")]);
    assert!(code == 2 && err.contains("holds only 4095 bytes but level 1 of layer 0 is 4096 bytes"), "{err}");
    bytes.extend([0, 0]);
    std::fs::write(&level1, &bytes).unwrap();
    let (code, _, err) = nvsurf(&format!("tile --texture {TEX}"), &["--split", &p("split"), "--output", &p("c.bin")]);
    assert!(code == 2 && err.contains("holds more than 4096 bytes but level 1 of layer 0 is 4096 bytes"), "{err}");
}

// `--levels all`: the full mip chain down to 1x1 wherever `--levels N` is taken (`texture`,
// `untile --texture`, `tile --texture`, a DDS input's check), as the C API's
// `NVSURF_ALL_LEVELS`; types without mips (rect, buffer) get one level.

#[test]
fn levels_all_is_the_full_chain() {
    // 300x200: floor(log2(300)) + 1 = 9 levels (docs/VECTORS.md's GF100 texture).
    let base = "--gpu gf100 --type 2d --elem-size 4 --size 300x200 --block-log2 0,5,0";
    let all = json(&format!("{base} --levels all"));
    assert_eq!(all["levels"].as_array().unwrap().len(), 9);
    assert_eq!(all, json(&format!("{base} --levels 9")));
    assert_eq!(json(&format!("{base} --levels ALL")), all);
    // 3D: the depth counts (32 -> 6 levels); a cube of 64: 7; rect has no mips: 1.
    assert_eq!(
        json("--gpu gf100 --type 3d --elem-size 4 --size 16x8x32 --levels all")["levels"].as_array().unwrap().len(),
        6
    );
    let cube = json("--gpu switch --type cube --format bc7 --size 64x64 --levels all");
    assert_eq!(cube["levels"].as_array().unwrap().len(), 7);
    assert_eq!(
        json("--gpu gf100 --type rect --elem-size 4 --size 300x200 --levels all")["levels"].as_array().unwrap().len(),
        1
    );
    // Pre-G80 swizzled textures too.
    assert_eq!(json("--gpu nv2a --format A8R8G8B8 --size 64x16 --levels all")["levels"].as_array().unwrap().len(), 7);
}

#[test]
fn a_bad_levels_value_names_all() {
    let (code, _, err) = nvsurf("texture --gpu gf100 --elem-size 4 --size 8x8 --levels lots", &[]);
    assert_eq!(code, 2);
    assert!(err.contains("--levels") && err.contains("lots") && err.contains("all"), "{err}");
    // Too many levels is still the library's range error.
    let (code, _, err) = nvsurf("texture --gpu gf100 --elem-size 4 --size 8x8 --levels 5", &[]);
    assert!(code == 2 && err.contains("levels 5") && err.contains("1..=4"), "{err}");
}

#[test]
fn untile_and_tile_take_levels_all() {
    let tmp = Scratch::new("levels-all");
    let p = |n: &str| tmp.path(n).to_str().unwrap().to_string();
    const TEX: &str = "--gpu switch --format bc7 --size 64x64 --texture";
    let n = json("--gpu switch --format bc7 --size 64x64 --levels 7")["size_bytes"].as_u64().unwrap() as usize;
    let dump: Vec<u8> = (0..n).map(|i| (i * 131 + 7) as u8).collect();
    std::fs::write(p("dump.bin"), &dump).unwrap();
    for (levels, out) in [("7", "seven.bin"), ("all", "all.bin")] {
        let (code, _, err) =
            nvsurf(&format!("untile {TEX} --levels {levels}"), &["--input", &p("dump.bin"), "--output", &p(out)]);
        assert_eq!(code, 0, "{err}");
    }
    assert!(std::fs::read(p("all.bin")).unwrap() == std::fs::read(p("seven.bin")).unwrap());
    // A DDS with the full chain is tiled back with --levels all (checked against its header).
    let (code, _, err) =
        nvsurf(&format!("untile {TEX} --levels all"), &["--input", &p("dump.bin"), "--output", &p("full.dds")]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) =
        nvsurf(&format!("tile {TEX} --levels all"), &["--input", &p("full.dds"), "--output", &p("back.bin")]);
    assert_eq!(code, 0, "{err}");
    // The same levels (the dump's padding between levels is not in the DDS: compare untiled).
    let (code, _, err) =
        nvsurf(&format!("untile {TEX} --levels all"), &["--input", &p("back.bin"), "--output", &p("back_lin.bin")]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read(p("back_lin.bin")).unwrap() == std::fs::read(p("all.bin")).unwrap());
    // A DDS with 3 levels is not the full chain: one line naming both.
    let (code, _, err) =
        nvsurf(&format!("untile {TEX} --levels 3"), &["--input", &p("dump.bin"), "--output", &p("three.dds")]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) =
        nvsurf(&format!("tile {TEX} --levels all"), &["--input", &p("three.dds"), "--output", &p("x.bin")]);
    assert_eq!(code, 2);
    assert!(err.lines().count() == 1 && err.contains("levels") && err.contains("all"), "{err}");
}

#[test]
fn nv2a_dxt1_surfaces_keep_their_blocks_in_rows() {
    // Issue #41 item 4: without --texture, untile swizzled the 4x4 blocks (0 1 4 5 2 3 ...).
    // Before G80 the blocks lie in rows on every path: block (1,0) right after block (0,0), so
    // the raw bytes come back unchanged, as with --texture.
    let tmp = Scratch::new("nv2a-dxt-rows");
    let dir = tmp.dir();
    let p = |n: &str| dir.join(n).to_str().unwrap().to_string();
    let dump: Vec<u8> = (0..16 * 16 / 16 * 8).map(|i| (i * 7 + i / 8) as u8).collect();
    std::fs::write(p("dump.bin"), &dump).unwrap();
    for extra in ["", "--texture --type 2d"] {
        let args = format!("untile --gpu nv2a --format DXT1 --size 16x16 {extra}");
        let (code, _, err) = nvsurf(&args, &["--input", &p("dump.bin"), "--output", &p("out.bin")]);
        assert_eq!(code, 0, "{args}: {err}");
        assert!(std::fs::read(p("out.bin")).unwrap() == dump, "{args}");
    }
    // `layout` answers pitch with a row of 4 blocks; --layout swizzled is refused in one line.
    let (code, out, err) = nvsurf("layout --gpu nv2a --format DXT1 --size 16x16 --json", &[]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["layout"], "pitch", "{v}");
    let (code, _, err) = nvsurf("layout --gpu nv2a --format DXT1 --size 16x16 --layout swizzled", &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("in rows, never swizzled") && err.lines().count() == 1, "{err}");
}

#[test]
fn nv2a_checks_match_the_chip_and_zero_sizes_are_errors() {
    // Issue #41 items 4 and 7, each refusal in one line naming the field.
    for (args, want) in [
        ("texture --gpu nv2a --type 3d --format DXT1 --size 16x16x8", "NV_texture_compression_vtc"),
        ("texture --gpu nv2a --format A8R8G8B8 --size 65536x1", "BASE_SIZE_U"),
        ("texture --gpu nv2a --type 3d --format A8R8G8B8 --size 1x1x65536", "BASE_SIZE_P"),
        ("layout --gpu nv2a --format DXT1 --size 4x65536", "BASE_SIZE_V"),
        ("layout --gpu nv2a --format A8R8G8B8 --size 8192x8192", "128 MiB"),
        ("texture --gpu nv2a --format A8R8G8B8 --size 4x0", "height 0 is out of range"),
        ("layout --gpu nv2a --format DXT1 --size 0x4", "width 0 is out of range"),
        ("convert --format A8B8G8R8 --size 0x4 --input x.bin --output x.png", "each 1 or more"),
    ] {
        let (code, _, err) = nvsurf(args, &[]);
        assert_eq!(code, 2, "{args}: {err}");
        assert!(err.starts_with("error: ") && err.contains(want) && err.lines().count() == 1, "{args}: {err}");
    }
    // The bounds themselves are accepted.
    for args in [
        "texture --gpu nv2a --format A8R8G8B8 --size 4096x4096",
        "texture --gpu nv2a --format L8 --size 32768x1",
        "texture --gpu nv2a --type 3d --format DXT1 --size 16x16x1",
    ] {
        let (code, _, err) = nvsurf(args, &[]);
        assert_eq!(code, 0, "{args}: {err}");
    }
}
