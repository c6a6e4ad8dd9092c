//! Texture layout rules: the G80/GF100 pseudocode of envytools `docs/hw/memory/g80-surface.rst`
//! written out plainly and compared with the model over a grid; the pre-G80 rules of "Findings on
//! pre-NV50 miptree layout", nouveau mailing list, 2010-01-08; overrides; round trips through the
//! tiling engine.

use nvsurf::layout::{LayoutKind, Surface};
use nvsurf::texture::{max_levels, BlockPolicy, LevelPlacement, Texture, TextureDesc, TextureType};
use nvsurf::tile::{AlignedBuf, CopyOptions};
use nvsurf::{Error, Gpu};

/// Envytools `docs/hw/memory/g80-surface.rst`, "Blocklinear surfaces" + "Textures, mipmapping and
/// arrays", literally (with E8: `mip[i]`): returns (level offsets, layer bytes) for an auto-sizing
/// binding point.
fn doc_pseudocode(gob_rows: u64, elem: u64, size: [u64; 3], levels: u32, block: [u32; 3]) -> (Vec<u64>, u64) {
    let surface = |w: u64, h: u64, d: u64| -> (u64, u64) {
        let (mut bw, mut bh, mut bd) = (block[0], block[1], block[2]);
        while bw > 0 && (64u64 << (bw - 1)) >= w * elem {
            bw -= 1;
        }
        while bh > 0 && (gob_rows << (bh - 1)) >= h {
            bh -= 1;
        }
        while bd > 0 && (1u64 << (bd - 1)) >= d {
            bd -= 1;
        }
        let (bx, by, bz) = (64u64 << bw, gob_rows << bh, 1u64 << bd);
        let block_bytes = 64 * gob_rows * (1 << bw) * (1 << bh) * (1 << bd);
        let blocks = (w * elem).div_ceil(bx) * h.div_ceil(by) * d.div_ceil(bz);
        (blocks * block_bytes, block_bytes)
    };
    let (mut w, mut h, mut d) = (size[0], size[1], size[2]);
    let (bytes0, block0) = surface(w, h, d);
    let mut offsets = vec![0];
    let mut sub = bytes0;
    let mut prev = bytes0;
    for _ in 1..levels {
        offsets.push(offsets.last().unwrap() + prev);
        w = (w / 2).max(1);
        h = (h / 2).max(1);
        d = (d / 2).max(1);
        prev = surface(w, h, d).0;
        sub += prev;
    }
    (offsets, sub.div_ceil(block0) * block0)
}

#[test]
fn g80_gf100_follow_the_document_pseudocode() {
    let sizes = [1u32, 2, 5, 8, 13, 31, 64, 100, 255, 300];
    let mut n = 0;
    for gpu in [Gpu::G80, Gpu::Gf100] {
        let rows = u64::from(gpu.gob_height_rows().unwrap());
        for &w in &sizes {
            for &h in &sizes {
                for &d in &[1u32, 3, 16] {
                    for (elem, block) in
                        [(1, [0, 0, 0]), (4, [0, 5, 0]), (16, [1, 3, 2]), (8, [2, 4, 5]), (2, [0, 1, 1])]
                    {
                        let ty = if d > 1 { TextureType::D3 } else { TextureType::D2 };
                        let mut desc = TextureDesc::new(gpu, ty, elem, [w, h, d]);
                        desc.levels = max_levels([w, h, d]);
                        desc.block = BlockPolicy::Explicit(block);
                        let t = desc.build().unwrap();
                        let (offs, layer) =
                            doc_pseudocode(rows, elem.into(), [w, h, d].map(u64::from), desc.levels, block);
                        let got: Vec<u64> = t.levels().iter().map(|l| l.offset_bytes).collect();
                        assert_eq!(got, offs, "{gpu} {w}x{h}x{d} elem {elem} block {block:?}");
                        assert_eq!(t.layer_stride_bytes(), layer, "{gpu} {w}x{h}x{d} elem {elem} block {block:?}");
                        n += 1;
                    }
                }
            }
        }
    }
    assert_eq!(n, 2 * 10 * 10 * 3 * 5);
}

#[test]
fn arrays_repeat_the_layer_and_offsets_are_inside_levels() {
    let mut d = TextureDesc::new(Gpu::Gk104, TextureType::CubeArray, 8, [40, 40, 1]);
    d.layers = 12;
    d.levels = 6;
    let t = d.build().unwrap();
    assert_eq!(t.size_bytes(), 12 * t.layer_stride_bytes());
    for sub in t.subresources() {
        assert_eq!(
            sub.offset_bytes,
            u64::from(sub.layer) * t.layer_stride_bytes() + t.level(sub.level).unwrap().offset_bytes
        );
        let [w, h, _] = sub.elements.to_array();
        for (x, y) in [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)] {
            let o = t.offset_of(sub.level, sub.layer, [x, y, 0]).unwrap();
            assert!(o >= sub.offset_bytes && o + 8 <= sub.offset_bytes + sub.size_bytes);
        }
    }
    assert_eq!(t.subresources().count(), 72);
    assert!(matches!(t.subresource(6, 0), Err(Error::OutOfBounds { field: "level", .. })));
    assert!(matches!(t.subresource(0, 12), Err(Error::OutOfBounds { field: "layer", .. })));
    assert!(matches!(t.offset_of(0, 0, [40, 0, 0]), Err(Error::OutOfBounds { field: "x", .. })));
}

#[test]
fn nvn_leaves_a_single_layer_unpadded_max_pads_it() {
    // 64x64 RGBA8, 7 levels, GF100+: chain 16384+4096+... ends below a multiple of level 0's block.
    let mut d = TextureDesc::new(Gpu::Gm20b, TextureType::D2, 4, [64, 64, 1]);
    d.levels = 7;
    d.block = BlockPolicy::Nvn;
    let nvn = d.build().unwrap();
    let last = nvn.levels().last().unwrap();
    assert_eq!(nvn.size_bytes(), last.offset_bytes + last.size_bytes);
    d.block = BlockPolicy::Max;
    let max = d.build().unwrap();
    let block0 = match max.levels()[0].surface {
        Some(Surface::BlockLinear(s)) => s.block_bytes(),
        _ => unreachable!(),
    };
    assert_eq!(max.size_bytes() % block0, 0);
    assert!(max.size_bytes() > nvn.size_bytes());
    // With two layers NVN pads too.
    d.block = BlockPolicy::Nvn;
    d.ty = TextureType::D2Array;
    d.layers = 2;
    assert_eq!(d.build().unwrap().layer_stride_bytes(), max.layer_stride_bytes());
}

#[test]
fn pre_g80_linear_rules() {
    // Linear 3D: one pitch for every level, each level's z slices one after another.
    let mut d = TextureDesc::new(Gpu::Nv40, TextureType::D3, 4, [16, 8, 4]);
    d.layout = LayoutKind::Pitch;
    d.levels = 5;
    d.pitch_bytes = Some(100);
    let t = d.build().unwrap();
    let sizes: Vec<u64> = t.levels().iter().map(|l| l.size_bytes).collect();
    // rows x slices x pitch: 8x4, 4x2, 2x1, 1x1, 1x1.
    assert_eq!(sizes, [3200, 800, 200, 100, 100]);
    assert!(t.levels().iter().all(|l| l.row_bytes == 100));
    assert_eq!(t.slice_offset(1, 0, 1).unwrap(), 3200 + 400);
    assert_eq!(t.offset_of(1, 0, [3, 2, 1]).unwrap(), 3200 + 400 + 200 + 12);
    assert_eq!(t.size_bytes(), 4400);
    // Pitch must be a multiple of the element size and hold a row.
    d.pitch_bytes = Some(102);
    assert!(matches!(d.build(), Err(Error::NotMultiple { field: "pitch", multiple: 4, .. })));
    d.pitch_bytes = Some(32);
    assert!(matches!(d.build(), Err(Error::Unsupported { field: "pitch", .. })));
    // Linear cube: faces contiguous, not rounded to 128.
    let mut c = TextureDesc::new(Gpu::Nv40, TextureType::Cube, 4, [8, 8, 1]);
    c.layout = LayoutKind::Pitch;
    c.levels = 4;
    let t = c.build().unwrap();
    // pitch 32: 8 + 4 + 2 + 1 rows.
    assert_eq!(t.layer_stride_bytes(), 32 * 15);
    // Swizzled cube of the same size: 256 + 64 + 16 + 4 = 340, rounded to 384.
    c.layout = LayoutKind::Swizzled;
    assert_eq!(c.build().unwrap().layer_stride_bytes(), 384);
}

#[test]
fn pre_g80_swizzled_3d_and_dxt() {
    // Swizzled 3D levels are packed with no gaps, each swizzled in x, y and z.
    let mut d = TextureDesc::new(Gpu::Nv40, TextureType::D3, 2, [4, 4, 4]);
    d.levels = 3;
    let t = d.build().unwrap();
    let offs: Vec<u64> = t.levels().iter().map(|l| l.offset_bytes).collect();
    assert_eq!(offs, [0, 128, 144]);
    // `docs/VECTORS.md` pre-G80 swizzle: 4x4x4, (1,2,3) -> index 53.
    assert_eq!(t.offset_of(0, 0, [1, 2, 3]).unwrap(), 53 * 2);
    // DXT1 (8-byte 4x4 blocks) is never swizzled: rows of blocks, each level at least one
    // block, even for a non-power-of-two size.
    let mut d = TextureDesc::new(Gpu::Nv40, TextureType::D2, 8, [20, 12, 1]);
    d.texels_per_elem = [4, 4];
    d.levels = 5;
    let t = d.build().unwrap();
    let sizes: Vec<u64> = t.levels().iter().map(|l| l.size_bytes).collect();
    // 5x3, 3x2 (10x6 texels), 2x1 (5x3), 1x1 (2x1), 1x1 (1x1) blocks of 8 bytes.
    assert_eq!(sizes, [120, 48, 16, 8, 8]);
    let rows: Vec<u64> = t.levels().iter().map(|l| l.row_bytes).collect();
    assert_eq!(rows, [40, 24, 16, 8, 8]);
    // A DXT cube keeps the 128-byte face alignment (decision documented in texture::pre_g80).
    let mut c = TextureDesc::new(Gpu::Nv40, TextureType::Cube, 16, [16, 16, 1]);
    c.texels_per_elem = [4, 4];
    c.levels = 5;
    let t = c.build().unwrap();
    // 4x4 + 2x2 + 1x1 + 1x1 + 1x1 blocks of 16 bytes = 368 bytes, rounded to 384.
    assert_eq!(t.layer_stride_bytes(), 384);
    // RECT before G80 is linear; swizzled RECT is refused.
    let mut r = TextureDesc::new(Gpu::Nv40, TextureType::Rect, 4, [100, 10, 1]);
    assert_eq!(r.build().unwrap().size_bytes(), 4000);
    r.layout = LayoutKind::Swizzled;
    assert!(r.build().is_err());
}

#[test]
fn rect_and_buffer_on_g80() {
    let mut r = TextureDesc::new(Gpu::G80, TextureType::Rect, 4, [100, 10, 1]);
    r.layout = LayoutKind::Pitch;
    let t = r.build().unwrap();
    assert_eq!((t.levels()[0].row_bytes, t.size_bytes()), (448, 4480));
    r.layers = 2;
    assert!(r.build().is_err());
    r.layers = 1;
    r.layout = LayoutKind::BlockLinear;
    r.block = BlockPolicy::Explicit([0, 2, 0]);
    assert_eq!(r.build().unwrap().levels()[0].block_log2, Some([0, 2, 0]));
    r.levels = 2;
    assert!(matches!(r.build(), Err(Error::OutOfRange { field: "levels", max: 1, .. })));
    let b = TextureDesc::new(Gpu::G80, TextureType::Buffer, 16, [1000, 1, 1]).build().unwrap();
    assert_eq!((b.size_bytes(), b.levels()[0].surface), (16000, None));
    assert_eq!(b.offset_of(0, 0, [999, 0, 0]).unwrap(), 15984);
}

#[test]
fn level_placement_overrides() {
    let mut d = TextureDesc::new(Gpu::Gf100, TextureType::D2, 4, [64, 64, 1]);
    d.levels = 7;
    d.placement = LevelPlacement::AlignEach(4096);
    let t = d.build().unwrap();
    let offs: Vec<u64> = t.levels().iter().map(|l| l.offset_bytes).collect();
    assert_eq!(offs, [0, 16384, 20480, 24576, 28672, 32768, 36864]);
    // Offsets in multiples of the GF100 gob (512 bytes): 40 KiB, 60 KiB, ...
    d.placement = LevelPlacement::Offsets(vec![0, 20480, 30720, 40960, 51200, 61440, 71680]);
    let t = d.build().unwrap();
    assert_eq!(t.level(3).unwrap().offset_bytes, 40960);
    assert_eq!(t.offset_of(3, 0, [0, 0, 0]).unwrap(), 40960);
    d.layer_stride_bytes = Some(1 << 20);
    d.ty = TextureType::D2Array;
    d.layers = 3;
    let t = d.build().unwrap();
    assert_eq!((t.layer_stride_bytes(), t.size_bytes()), (1 << 20, 3 << 20));
    assert_eq!(t.subresource(2, 2).unwrap().offset_bytes, (2 << 20) + 30720);
}

#[test]
fn blocklinear_level_offsets_must_be_gob_aligned() {
    // ERRATA E11 / Gpu::blocklinear_align_bytes: 0x100 on G80:GF100, 0x200 on GF100+.
    for (gpu, align) in [(Gpu::G80, 0x100u64), (Gpu::Gf100, 0x200), (Gpu::Gm20b, 0x200)] {
        let mut d = TextureDesc::new(gpu, TextureType::D2Array, 4, [64, 64, 1]);
        d.levels = 3;
        d.layers = 2;
        d.placement = LevelPlacement::Offsets(vec![0, 100 * align, 150 * align]);
        assert_eq!(d.build().unwrap().level(2).unwrap().offset_bytes, 150 * align, "{gpu}");
        // Half a gob off on level 2 (0x80 is aligned for neither).
        d.placement = LevelPlacement::Offsets(vec![0, 100 * align, 150 * align + 0x80]);
        let e = d.build().unwrap_err();
        assert!(matches!(e, Error::Unsupported { field: "level offset", .. }), "{gpu}: {e}");
        let msg = e.to_string();
        let want_value = format!("{} ({:#x}) of level 2", 150 * align + 0x80, 150 * align + 0x80);
        assert!(msg.contains(&want_value) && msg.contains(&format!("multiple of {align:#x} bytes")), "{msg}");
        // On G80 0x100 is enough; on GF100+ it is half a gob.
        d.placement = LevelPlacement::Offsets(vec![0, 100 * align + 0x100, 200 * align]);
        assert_eq!(d.build().is_ok(), align == 0x100, "{gpu}");
        // An alignment that is not a whole number of gobs is caught the same way.
        d.placement = LevelPlacement::AlignEach(align + 0x80);
        assert!(matches!(d.build(), Err(Error::Unsupported { field: "level offset", .. })), "{gpu}");
        d.placement = LevelPlacement::AlignEach(4 * align);
        assert!(d.build().is_ok(), "{gpu}");
        // A layer stride override puts later layers on multiples of it: whole gobs only.
        d.layer_stride_bytes = Some(400 * align + 0x80);
        let e = d.build().unwrap_err();
        assert!(matches!(e, Error::NotMultiple { multiple, .. } if multiple == align), "{gpu}: {e}");
        d.layer_stride_bytes = Some(400 * align);
        assert!(d.build().is_ok(), "{gpu}");
    }
    // Pitch and pre-G80 levels have no gob rule.
    let mut d = TextureDesc::new(Gpu::Nv40, TextureType::D2, 4, [64, 64, 1]);
    d.levels = 2;
    d.placement = LevelPlacement::Offsets(vec![0, 16388]);
    assert_eq!(d.build().unwrap().level(1).unwrap().offset_bytes, 16388);
}

fn round_trip(t: &Texture) {
    let linear: Vec<u8> = (0..t.linear_size_bytes()).map(|i| (i * 7 + i / 251) as u8).collect();
    let dump = t.tile_to_buf(&linear, &CopyOptions::default()).map(AlignedBuf::into_vec).unwrap();
    assert_eq!(dump.len() as u64, t.size_bytes());
    assert!(
        t.untile_to_buf(&dump, &CopyOptions::default()).map(AlignedBuf::into_vec).unwrap() == linear,
        "{} {:?}",
        t.ty(),
        t.levels()[0].texels
    );
    // Each element lands where offset_of says.
    let es = t.elem_size_bytes() as usize;
    for sub in t.subresources() {
        let [w, h, d] = sub.elements.to_array();
        let (x, y, z) = (w - 1, h - 1, d - 1);
        let lin = sub.linear_offset_bytes as usize + (((z * h + y) * w + x) as usize) * es;
        let at = t.offset_of(sub.level, sub.layer, [x, y, z]).unwrap() as usize;
        assert_eq!(dump[at..at + es], linear[lin..lin + es]);
    }
    assert!(matches!(
        t.untile_to_buf(&dump[..dump.len() - 1], &CopyOptions::default()).map(AlignedBuf::into_vec),
        Err(Error::BufferTooSmall { .. })
    ));
}

#[test]
fn round_trips_through_the_tiling_engine() {
    let mut cases = vec![];
    let mut d = TextureDesc::new(Gpu::G80, TextureType::D3, 4, [33, 17, 9]);
    d.levels = 6;
    d.block = BlockPolicy::Explicit([1, 2, 3]);
    cases.push(d);
    let mut d = TextureDesc::new(Gpu::Gf100, TextureType::D1Array, 16, [300, 1, 1]);
    d.levels = 9;
    d.layers = 3;
    cases.push(d);
    let mut d = TextureDesc::new(Gpu::Nv40, TextureType::Cube, 4, [32, 32, 1]);
    d.levels = 6;
    cases.push(d);
    let mut d = TextureDesc::new(Gpu::Nv40, TextureType::D3, 8, [8, 4, 16]);
    d.levels = 5;
    cases.push(d.clone());
    d.layout = LayoutKind::Pitch;
    cases.push(d);
    let mut d = TextureDesc::new(Gpu::Nv40, TextureType::D2, 16, [36, 20, 1]);
    d.texels_per_elem = [4, 4];
    d.levels = 6;
    cases.push(d);
    cases.push(TextureDesc::new(Gpu::Gf100, TextureType::Buffer, 4, [77, 1, 1]));
    let mut d = TextureDesc::new(Gpu::G80, TextureType::Rect, 2, [31, 7, 1]);
    d.layout = LayoutKind::Pitch;
    cases.push(d);
    for d in cases {
        round_trip(&d.build().unwrap());
    }
}

mod never_panics {
    use super::*;
    use nvsurf::texture::ALL_TEXTURE_TYPES;
    use proptest::prelude::*;

    thread_local! {
        /// Descriptors that built, counted per test thread.
        static BUILT: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }
    const GPUS: [Gpu; 5] = [Gpu::Nv40, Gpu::G80, Gpu::Gt215, Gpu::Gf100, Gpu::Gm20b];
    const LAYOUTS: [LayoutKind; 3] = [LayoutKind::Pitch, LayoutKind::BlockLinear, LayoutKind::Swizzled];

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]
        /// Any descriptor builds or gives a typed error; a built texture keeps its invariants.
        #[test]
        fn any_descriptor(
            gpu in 0usize..5, ty in 0usize..9,
            layout in prop_oneof![3 => Just(None), 1 => (0usize..3).prop_map(Some)],
            elem in prop_oneof![4 => prop::sample::select(vec![1u32, 2, 4, 8, 16]), 1 => 0u32..20],
            texels in prop_oneof![4 => Just([1u32, 1]), 2 => Just([4, 4]), 1 => Just([0, 4])],
            w in 1u32..600, h in 1u32..300, d in 1u32..40,
            shape in prop_oneof![4 => Just(0u8), 1 => Just(1), 1 => Just(2)],
            levels in prop_oneof![4 => 1u32..10, 1 => 0u32..40],
            layers in prop_oneof![3 => Just(None), 1 => (0u32..20).prop_map(Some)],
            block in prop_oneof![
                Just(BlockPolicy::Max), Just(BlockPolicy::Nvn), Just(BlockPolicy::Nvidia),
                (0u32..7, 0u32..7, 0u32..7).prop_map(|(x, y, z)| BlockPolicy::Explicit([x, y, z]))
            ],
            pitch in prop_oneof![4 => Just(None), 1 => (0u64..100_000).prop_map(Some)],
            align in prop_oneof![4 => Just(None), 1 => (0u64..5000).prop_map(Some)],
        ) {
            let t = ALL_TEXTURE_TYPES[ty];
            // Mostly shapes the type accepts (square, flat, 1-high), sometimes anything or huge.
            let size = match shape {
                0 if t.is_cube() => [w, w, 1],
                0 if matches!(t, TextureType::D1 | TextureType::D1Array | TextureType::Buffer) => [w, 1, 1],
                0 if t != TextureType::D3 => [w, h, 1],
                1 => [w << 20, h << 16, d],
                _ => [w, h, d],
            };
            let gpu = GPUS[gpu];
            // Pre-G80 swizzled levels need powers of two: round down most of the time.
            let size = if !gpu.is_g80_or_later() && shape == 0 { size.map(|v| 1 << (31 - v.leading_zeros())) } else { size };
            let mut desc = TextureDesc::new(gpu, t, elem, size);
            if let Some(l) = layout {
                desc.layout = LAYOUTS[l];
            }
            desc.texels_per_elem = texels;
            desc.levels = levels.min(if shape == 0 { nvsurf::texture::max_levels(size) } else { levels });
            if let Some(l) = layers {
                desc.layers = l;
            }
            desc.block = block;
            desc.pitch_bytes = pitch;
            if let Some(a) = align {
                desc.placement = LevelPlacement::AlignEach(a);
            }
            let built = desc.build();
            if built.is_ok() {
                BUILT.with(|b| b.set(b.get() + 1));
            }
            if let Ok(t) = built {
                prop_assert_eq!(t.size_bytes(), t.layer_stride_bytes() * u64::from(t.layer_count()));
                prop_assert!(t.size_bytes() <= 1 << 40);
                let mut end = 0;
                for l in t.levels() {
                    prop_assert!(l.offset_bytes >= end);
                    end = l.offset_bytes + l.size_bytes;
                    prop_assert!(l.linear_size_bytes(t.elem_size_bytes()) <= l.size_bytes);
                }
                prop_assert!(end <= t.layer_stride_bytes());
                let last = t.layer_count() - 1;
                for l in t.levels() {
                    let [x, y, z] = l.elements.to_array().map(|v| v - 1);
                    let o = t.offset_of(l.level, last, [x, y, z]).unwrap();
                    let sub = t.subresource(l.level, last).unwrap();
                    prop_assert!(o >= sub.offset_bytes && o < sub.offset_bytes + sub.size_bytes);
                    prop_assert!(t.slice_offset(l.level, last, z).unwrap() <= o);
                }
            }
        }
    }

    /// The generator above builds valid textures often enough for the invariants to matter.
    #[test]
    fn many_descriptors_build() {
        any_descriptor();
        let n = BUILT.with(|b| b.get());
        // About 12% build; most are rejected on purpose. The count varies more from run to
        // run than independent draws would (206-262 of 2000 over 12 runs on the development
        // machine, 197 in a CI run that failed the earlier bound of 200, 275 when that bound
        // was set), so the bound is half the usual count: it still fails when a change to the
        // generator or the builder makes valid textures rare.
        assert!(n >= 120, "only {n} of 2000 random descriptors built");
    }
}

/// ERRATA E12: pre-G80 cube maps need not be square. Swizzled faces are laid out as if the
/// height equalled the width ("Findings on pre-NV50 miptree layout", nouveau mailing list,
/// 2010-01-08), so an 8x4 face is the 8x8 swizzled square of which the image is the top 4 rows;
/// linear faces are plain 8x4 images. G80+ still refuses them.
#[test]
fn pre_g80_non_square_cube_maps() {
    use nvsurf::layout::SurfaceDesc;
    let mut d = TextureDesc::new(Gpu::Nv40, TextureType::Cube, 4, [8, 4, 1]);
    d.levels = 4;
    let t = d.build().unwrap();
    let mut square = d.clone();
    square.size_texels = [8, 8, 1].into();
    let sq = square.build().unwrap();
    // The same sizes and offsets as the 8x8 cube (levels 8x8, 4x4, 2x2, 1x1 squares).
    assert_eq!(t.layer_stride_bytes(), sq.layer_stride_bytes());
    assert_eq!(
        t.levels().iter().map(|l| l.offset_bytes).collect::<Vec<_>>(),
        sq.levels().iter().map(|l| l.offset_bytes).collect::<Vec<_>>()
    );
    // Texels of the 8x4 face sit where the 8x8 square's do; the levels keep their own texels.
    let mut s8 = SurfaceDesc::new(Gpu::Nv40, 4, [8, 8, 1]);
    s8.layout = LayoutKind::Swizzled;
    let s8 = s8.build().unwrap();
    for (x, y) in [(0, 0), (7, 3), (5, 2), (3, 1)] {
        assert_eq!(t.offset_of(0, 2, [x, y, 0]).unwrap(), 2 * t.layer_stride_bytes() + s8.offset_of(x, y, 0).unwrap());
    }
    assert_eq!(t.levels()[1].texels, [4, 2, 1]);
    // A whole round trip keeps the 8x4 images (linear size: 6 faces of 8x4 + 4x2 + 2x1 + 1x1).
    assert_eq!(t.linear_size_bytes(), 6 * 4 * (32 + 8 + 2 + 1));
    let lin: Vec<u8> = (0..t.linear_size_bytes() as usize).map(|i| (i * 7 + 3) as u8).collect();
    let dump = t.tile_to_buf(&lin, &CopyOptions::default()).map(AlignedBuf::into_vec).unwrap();
    assert_eq!(t.untile_to_buf(&dump, &CopyOptions::default()).map(AlignedBuf::into_vec).unwrap(), lin);
    // Taller than wide leaves no room in the square: refused with the rule.
    d.size_texels = [4, 8, 1].into();
    d.levels = 1;
    assert!(d.build().unwrap_err().to_string().contains("as if the height equalled the width"));
    // Linear faces are plain images of the given size.
    let mut lin_cube = TextureDesc::new(Gpu::Nv40, TextureType::Cube, 4, [8, 4, 1]);
    lin_cube.layout = LayoutKind::Pitch;
    assert_eq!(lin_cube.build().unwrap().layer_stride_bytes(), 8 * 4 * 4);
    // G80 and later: faces are square.
    assert!(TextureDesc::new(Gpu::Gf100, TextureType::Cube, 4, [8, 4, 1]).build().is_err());
}
