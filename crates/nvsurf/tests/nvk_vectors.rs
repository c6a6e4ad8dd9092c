//! `--block-policy nvk` against our own reading of Mesa nil (`scripts/nil_reading.py`, written
//! apart from the Rust model from Mesa `src/nouveau/nil/image.rs` and `tiling.rs` at
//! 157fa86f): 200 random images per GPU generation, Maxwell to Blackwell, plain, multisampled and
//! sparse, in `tests/data/texture/nvk_vectors.txt`. Every level's offset, block and row bytes,
//! the layer stride, the size, the alignment and a sparse image's mip tail must agree.

use nvsurf::texture::{AlignSource, BlockPolicy, TextureDesc, TextureType};
use nvsurf::Gpu;

const VECTORS: &str = include_str!("data/texture/nvk_vectors.txt");

/// One vector: the image, then what nil gives.
struct Vector {
    desc: TextureDesc,
    levels: Vec<(u64, [u32; 3], u64)>,
    stride: u64,
    size: u64,
    align: u64,
    tail: Option<u32>,
}

fn parse(line: &str) -> Vector {
    let parts: Vec<&str> = line.split(" | ").collect();
    let h: Vec<&str> = parts[0].split_whitespace().collect();
    let n = |i: usize| h[i].parse::<u32>().unwrap();
    let mut d =
        TextureDesc::new(Gpu::parse(h[0]).unwrap(), TextureType::parse(h[1]).unwrap(), n(2), [n(5), n(6), n(7)]);
    d.texels_per_elem = [n(3), n(4)];
    (d.levels, d.layers, d.samples, d.sparse) = (n(8), n(9), n(10), n(11) == 1);
    d.block = BlockPolicy::Nvk;
    let levels = parts[1]
        .split_whitespace()
        .map(|l| {
            let f: Vec<&str> = l.split(':').collect();
            let b: Vec<u32> = f[1].split(',').map(|v| v.parse().unwrap()).collect();
            (f[0].parse().unwrap(), [b[0], b[1], b[2]], f[2].parse().unwrap())
        })
        .collect();
    let t: Vec<&str> = parts[2].split_whitespace().collect();
    Vector {
        desc: d,
        levels,
        stride: t[0].parse().unwrap(),
        size: t[1].parse().unwrap(),
        align: t[2].parse().unwrap(),
        tail: t[3].parse().ok(),
    }
}

/// Whether nvsurf's texture agrees with the vector; the first difference otherwise.
fn check(v: &Vector) -> Result<(), String> {
    let t = v.desc.build().map_err(|e| format!("refused: {e}"))?;
    for (l, &(offset, block, row)) in t.levels().iter().zip(&v.levels) {
        let got = (l.offset_bytes, l.block_log2.unwrap_or([9; 3]), l.row_bytes);
        if got != (offset, block, row) {
            return Err(format!("level {}: {got:?}, nil {:?}", l.level, (offset, block, row)));
        }
    }
    let got = (t.layer_stride_bytes(), t.size_bytes(), t.align_bytes(), t.mip_tail_first_level());
    let want = (v.stride, v.size, Some(v.align), v.tail);
    if got != want {
        return Err(format!("stride, size, align, tail {got:?}, nil {want:?}"));
    }
    if t.align_source() != AlignSource::Nil || t.level_count() as usize != v.levels.len() {
        return Err("alignment source or level count".into());
    }
    Ok(())
}

#[test]
fn nvk_policy_matches_our_reading_of_nil_per_generation() {
    let mut per_gpu: std::collections::BTreeMap<&str, (u32, u32)> = Default::default();
    let mut failures = Vec::new();
    let (mut msaa, mut sparse) = (0, 0);
    for line in VECTORS.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let v = parse(line);
        let gpu = line.split_whitespace().next().unwrap();
        let entry = per_gpu.entry(gpu).or_default();
        entry.1 += 1;
        msaa += u32::from(v.desc.samples > 1);
        sparse += u32::from(v.desc.sparse);
        match check(&v) {
            Ok(()) => entry.0 += 1,
            Err(e) => failures.push(format!("{line}: {e}")),
        }
    }
    for (gpu, (ok, all)) in &per_gpu {
        println!("{gpu}: {ok} of {all} agree");
    }
    println!("({msaa} multisampled, {sparse} sparse)");
    assert!(per_gpu.len() >= 8 && per_gpu.values().all(|&(_, all)| all == 200), "{per_gpu:?}");
    assert!(msaa > 100 && sparse > 100, "{msaa} multisampled, {sparse} sparse");
    assert!(failures.is_empty(), "{} disagree, first: {}", failures.len(), failures[0]);
}

/// Hand-worked cases from the issue and nil's rules.
#[test]
fn nvk_rules_by_hand() {
    // GA102 R32G32 3x14 pixels, 8 samples: the block height comes from the 14 pixel rows
    // (log2 1), not the 28 sample rows (log2 2); 4096 bytes, 4 KiB aligned.
    let mut d = TextureDesc::new(Gpu::Ga102, TextureType::D2, 8, [3, 14, 1]);
    (d.samples, d.block) = (8, BlockPolicy::Nvk);
    let t = d.build().unwrap();
    assert_eq!((t.level(0).unwrap().block_log2, t.size_bytes(), t.align_bytes()), (Some([0, 1, 0]), 4096, Some(4096)));
    assert_eq!(t.level(0).unwrap().elements.to_array(), [12, 28, 1]);
    // The nvidia policy keeps "end of the last level" and no known alignment.
    d.block = BlockPolicy::Nvidia;
    let t = d.build().unwrap();
    assert_eq!(
        (t.level(0).unwrap().block_log2, t.align_bytes(), t.align_source()),
        (Some([0, 1, 0]), None, AlignSource::Unknown)
    );
    // A single layer is padded to level 0's block under nvk: 256x256 RGBA8 with 9 levels is
    // 352,256 bytes (the H100's driver: 351,232, the nvidia policy's end of the last level).
    let mut d = TextureDesc::new(Gpu::Gh100, TextureType::D2, 4, [256, 256, 1]);
    (d.levels, d.block) = (9, BlockPolicy::Nvk);
    assert_eq!(d.build().unwrap().size_bytes(), 352_256);
    d.block = BlockPolicy::Nvidia;
    assert_eq!(d.build().unwrap().size_bytes(), 351_232);
    // Linear: rows of 128 bytes, 256 on Kepler; no 4 KiB rounding.
    for (gpu, pitch) in [(Gpu::Tu102, 128u64), (Gpu::Gk104, 256), (Gpu::Gm107, 256), (Gpu::Gm204, 128)] {
        let mut d = TextureDesc::new(gpu, TextureType::D2, 4, [17, 3, 1]);
        (d.layout, d.block) = (nvsurf::layout::LayoutKind::Pitch, BlockPolicy::Nvk);
        let t = d.build().unwrap();
        assert_eq!(
            (t.level(0).unwrap().row_bytes, t.size_bytes(), t.align_bytes()),
            (pitch, pitch * 3, Some(pitch)),
            "{gpu}"
        );
    }
    // Refusals, one line each.
    let mut d = TextureDesc::new(Gpu::Tu102, TextureType::D3, 4, [8, 8, 8]);
    d.samples = 4;
    assert!(d.build().unwrap_err().to_string().contains("2D"));
    let mut d = TextureDesc::new(Gpu::Tu102, TextureType::D2, 4, [8, 8, 1]);
    (d.samples, d.levels) = (4, 2);
    assert!(d.build().unwrap_err().to_string().contains("one level"));
    d.levels = 1;
    d.samples = 3;
    assert!(d.build().unwrap_err().to_string().contains("1, 2, 4, 8 or 16"));
}
