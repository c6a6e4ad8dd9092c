//! Public API edges found by an adversarial review (session 9): each input once panicked,
//! aborted on a huge allocation or built a wrong value; each must now give a typed error (or,
//! for the pure helpers, a defined value).

use nvsurf::error::Error;
use nvsurf::format::Format;
use nvsurf::layout::auto_size_log2;
use nvsurf::layout::swizzle_masks;
use nvsurf::layout::{Binding, GobOrder, Pitch, PitchParams, SurfaceDesc};
use nvsurf::texture::{tile_subresource, untile_subresource};
use nvsurf::texture::{Subresource, TextureDesc, TextureType};
use nvsurf::tile::{AlignedBuf, CopyOptions};
use nvsurf::Gpu;

#[test]
fn format_names_with_multibyte_characters_are_unknown_not_a_panic() {
    // The prefix check once sliced at byte 4 of "texé" (inside the 'é').
    for name in ["texé", "coloré", "zetaé", "texturé", "é", "tex:é"] {
        assert!(Format::parse(name).is_err(), "{name}");
    }
    // The prefixes themselves still work.
    assert!(Format::parse("tex:8_8_8_8").is_ok());
    assert!(Format::parse("COLOR:A8B8G8R8").is_ok());
}

#[test]
fn rect_codecs_refuse_a_row_pitch_whose_span_overflows() {
    let f = Format::parse("8_8_8_8").unwrap();
    let elems = [0u8; 8];
    // Two rows of one pixel: the span is `pitch + 4`, which wraps for usize::MAX.
    let is_pitch_error =
        |e: Error| matches!(e, Error::OutOfRange { field: "row pitch", value, .. } if value == usize::MAX as u64);
    let mut u32s = [[0u32; 4]; 2];
    assert!(is_pitch_error(f.decode_rect(&elems, usize::MAX, 1, 2, &mut u32s).unwrap_err()));
    let mut f32s = [[0f32; 4]; 2];
    assert!(is_pitch_error(f.decode_rect_f32(&elems, usize::MAX, 1, 2, &mut f32s).unwrap_err()));
    let mut rgba8 = [[0u8; 4]; 2];
    assert!(is_pitch_error(f.decode_rect_rgba8(&elems, usize::MAX, 1, 2, &mut rgba8).unwrap_err()));
    let mut out = [0u8; 8];
    assert!(is_pitch_error(f.encode_rect(&[[0u32; 4]; 2], 1, 2, &mut out, usize::MAX).unwrap_err()));
    assert!(is_pitch_error(f.encode_rect_f32(&[[0f32; 4]; 2], 1, 2, &mut out, usize::MAX).unwrap_err()));
    // Zero width, three rows: the rows are empty but the pitch still spans them.
    let mut none = [[0u32; 4]; 0];
    assert!(f.decode_rect(&elems, usize::MAX, 0, 3, &mut none).is_err());
    // The largest pitch that fits is accepted by the check and then needs that many bytes.
    let e = f.decode_rect(&elems, usize::MAX - 4, 1, 2, &mut u32s).unwrap_err();
    assert!(matches!(e, Error::BufferTooSmall { needed, .. } if needed == usize::MAX as u64), "{e}");
}

/// A BUFFER-like subresource (no surface) that claims 8 linear bytes in a 4-byte share.
fn oversized_buffer_subresource() -> Subresource {
    Subresource {
        level: 0,
        layer: 0,
        offset_bytes: 0,
        size_bytes: 4,
        linear_offset_bytes: 0,
        linear_size_bytes: 8,
        elements: [2, 1, 1].into(),
        elem_size_bytes: 4,
        surface: None,
    }
}

#[test]
fn surfaceless_subresources_cannot_copy_past_their_share_of_the_dump() {
    let sub = oversized_buffer_subresource();
    let e = untile_subresource(&sub, &[0u8; 4], &mut [0u8; 8]).unwrap_err();
    assert!(matches!(e, Error::OutOfRange { value: 8, max: 4, .. }), "{e}");
    // Even with a dump long enough, the bytes past the share belong to someone else.
    let mut dump = [7u8; 16];
    let e = tile_subresource(&sub, &[1u8; 8], &mut dump).unwrap_err();
    assert!(matches!(e, Error::OutOfRange { value: 8, max: 4, .. }), "{e}");
    assert_eq!(dump, [7u8; 16], "nothing written");
    // A consistent one copies its bytes.
    let ok = Subresource { linear_size_bytes: 4, ..oversized_buffer_subresource() };
    let mut lin = [0u8; 4];
    untile_subresource(&ok, &[1, 2, 3, 4], &mut lin).unwrap();
    assert_eq!(lin, [1, 2, 3, 4]);
}

/// A valid blocklinear surface of 128 GiB (2^20 x 2^15 elements of 4 bytes).
fn huge_surface() -> nvsurf::layout::Surface {
    let mut d = SurfaceDesc::new(Gpu::Gf100, 4, [1 << 20, 1 << 15, 1]);
    d.block_log2 = Some([0, 0, 0]);
    d.build().unwrap()
}

#[test]
fn allocating_wrappers_check_their_input_before_allocating() {
    // Each once allocated the whole output first, and the failed allocation aborted the process.
    let s = huge_surface();
    assert_eq!(s.size_bytes(), 1 << 37);
    let e = nvsurf::tile::untile_to_buf(&s, &[0u8; 64], &CopyOptions::default()).map(AlignedBuf::into_vec).unwrap_err();
    assert!(matches!(e, Error::BufferTooSmall { needed, got: 64, .. } if needed == 1 << 37), "{e}");
    let e = nvsurf::tile::tile_to_buf(&s, &[0u8; 64], &CopyOptions::default()).map(AlignedBuf::into_vec).unwrap_err();
    assert!(matches!(e, Error::BufferTooSmall { needed, got: 64, .. } if needed == 1 << 37), "{e}");

    let t = TextureDesc::new(Gpu::Gf100, TextureType::D2, 16, [1 << 16, 1 << 16, 1]).build().unwrap();
    assert!(t.size_bytes() >= 1 << 36);
    let e = t.untile_to_buf(&[0u8; 64], &CopyOptions::default()).map(AlignedBuf::into_vec).unwrap_err();
    assert!(matches!(e, Error::BufferTooSmall { got: 64, .. }), "{e}");
    let e = t.tile_to_buf(&[0u8; 64], &CopyOptions::default()).map(AlignedBuf::into_vec).unwrap_err();
    assert!(matches!(e, Error::BufferTooSmall { got: 64, .. }), "{e}");
}

#[test]
fn byte_oriented_pitch_rows_must_fit_a_width() {
    // 2^30 elements of 16 bytes bound to M2MF (byte view): a row of 2^34 bytes, once truncated
    // to a width of 0.
    let p = PitchParams {
        gpu: Gpu::G80,
        address: 0,
        pitch_bytes: 1 << 34,
        elem_size_bytes: 16,
        width: 1 << 30,
        height: 1,
        binding: Some(Binding::M2mf),
    };
    let e = Pitch::new(&p).unwrap_err();
    assert!(matches!(e, Error::OutOfRange { value, .. } if value == 1 << 34), "{e}");
    // Just over 2^32 bytes once came out as a small, wrong, non-zero width.
    let p = PitchParams { width: (1 << 28) + 1, pitch_bytes: (1 << 32) + 64, ..p };
    assert!(Pitch::new(&p).is_err());
    // A row that fits keeps its exact byte width.
    let p = PitchParams { width: 1 << 20, pitch_bytes: 1 << 24, ..p };
    assert_eq!(Pitch::new(&p).unwrap().width(), 1 << 24);
}

#[test]
fn pure_layout_helpers_are_total() {
    // auto-sizing: half of a 2^64-gob block covers any extent, so it shrinks to what the
    // extent needs, exactly as from a small start.
    assert_eq!(auto_size_log2(65, 64, 1 << 40), auto_size_log2(40, 64, 1 << 40));
    assert_eq!(auto_size_log2(255, 8, 100), auto_size_log2(5, 8, 100));
    assert_eq!(auto_size_log2(u32::MAX, 1, 1), 0);
    // Swizzle masks: at most 64 index bits, each given to one coordinate.
    let m = swizzle_masks([40, 40, 0]);
    assert_eq!(m[0] & m[1], 0);
    assert_eq!((m[0] | m[1]).count_ones(), 64);
    assert_eq!(swizzle_masks([2, 1, 0]), [0b101, 0b010, 0]);
    // Offsets inside a gob stay inside the gob, for any coordinates.
    for order in [GobOrder::Vm, GobOrder::Tegra, GobOrder::Turing, GobOrder::Fermi] {
        for (x, y) in [(u32::MAX, u32::MAX), (64, 8), (1000, 3)] {
            let o = order.offset_in_gob(x, y);
            assert!(o < 512, "{order:?} {x} {y}: {o}");
            assert_eq!(o, order.offset_in_gob(x % 64, y % 8));
        }
    }
}
