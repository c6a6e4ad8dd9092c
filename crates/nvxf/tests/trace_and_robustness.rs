//! The trace format (crate README) and the never-panic guarantee.

use nvxf::cmd::{Addr, CmdType, Op, Payload};
use nvxf::sim::{Event, Options, XfState};
use nvxf::trace::{self, LineKind};
use nvxf::{Error, Gpu};
use proptest::prelude::*;

#[test]
fn parses_every_line_form() {
    let text = "\
# constants through PIPE
gpu NV20
pipe 0x19000 f:1.0          # xfctx vector 0 word 0
pipe 0x19008 0x40000000 3   # 64-bit pair at word 2
write vab 0x0 f:-2.5
write 1 0x8 7
read xfctx 0x4
vertex
bundle 0x40 0x1234
idx2vtx
";
    let t = trace::parse(text, None).unwrap();
    assert_eq!(t.gpu, Gpu::Nv20);
    let kinds: Vec<_> = t.items.iter().map(|i| (i.line, i.kind)).collect();
    assert_eq!(
        kinds,
        [
            (3, LineKind::Pipe(0x19000)),
            (4, LineKind::Pipe(0x19008)),
            (5, LineKind::Write),
            (6, LineKind::Write),
            (7, LineKind::Read),
            (8, LineKind::Vertex),
            (9, LineKind::Bundle),
            (9, LineKind::Bundle),
            (10, LineKind::Idx2Vtx),
        ]
    );
    assert_eq!(
        t.items[0].op,
        Op::Write { cmd: CmdType::Xfctx, addr: Addr { vector: 0, word: 0 }, data: Payload::One(0x3f80_0000) }
    );
    assert_eq!(
        t.items[1].op,
        Op::Write { cmd: CmdType::Xfctx, addr: Addr { vector: 0, word: 2 }, data: Payload::Pair(0x4000_0000, 3) }
    );
    assert!(matches!(t.items[2].op, Op::Write { data: Payload::One(0xc020_0000), .. }));
    assert_eq!(t.items[7].op.name(), "write");
    assert_eq!(t.items[6].op, Op::Idx2VtxBundle);
}

#[test]
fn parse_errors_name_the_line() {
    let cases = [
        ("write xfctx 0x2 1", "line 1", "word-aligned"),
        ("write xfcxt 0x0 1", "line 1", "did you mean xfctx"),
        ("\n\nwrite xfctx 0x0", "line 3", "expected"),
        ("vertex 1", "line 1", "expected"),
        ("pipe 0x9000 1", "line 1", "bit 16"),
        ("write xfctx 0x4 1 2", "line 1", "not even"),
        ("write xfctx 0x0 f:abc", "line 1", "f:FLOAT"),
        // Beyond f32's range: refused, not rounded to infinity.
        ("write xfctx 0x0 f:1e40", "line 1", "at most 3.4028235e38"),
        ("write xfctx 0x0 f:-3.5e38", "line 1", "at most 3.4028235e38"),
        ("frobnicate", "line 1", "unknown trace command"),
        ("vertex\ngpu NV20", "line 2", "first"),
        ("write xfctx 0x1000 1", "line 1", "out of range"),
    ];
    for (text, line, what) in cases {
        let e = trace::parse(text, Some(Gpu::Nv20)).unwrap_err().to_string();
        assert!(e.contains(line) && e.contains(what), "{text:?}: {e}");
    }
    assert!(matches!(trace::parse("vertex", None), Err(Error::Unsupported { .. })));
    assert!(trace::parse("gpu NV20\nvertex", Some(Gpu::Nv30)).is_err());
    assert!(trace::parse("gpu NV99\n", None).unwrap_err().to_string().contains("line 1"));
}

#[test]
fn float_words_round_to_f32_and_name_infinity() {
    assert_eq!(trace::parse_data("f:1.5"), Some(1.5f32.to_bits()));
    assert_eq!(trace::parse_data("f:3.4028235e38"), Some(f32::MAX.to_bits()));
    assert_eq!(trace::parse_data("F: -2"), Some((-2.0f32).to_bits()));
    assert_eq!(trace::parse_data("f:inf"), Some(f32::INFINITY.to_bits()));
    assert_eq!(trace::parse_data("f:-Infinity"), Some(f32::NEG_INFINITY.to_bits()));
    assert!(trace::parse_data("f:nan").is_some_and(|b| f32::from_bits(b).is_nan()));
    assert_eq!(trace::parse_data("f:1e40"), None);
    assert_eq!(trace::parse_data("f:-1e39"), None);
}

#[test]
fn pipe_uploads_constants_and_vab_writes_attributes() {
    // Rankine wrap: bits 13-16 type, bit 17 marker. XFCTX (9) vector 0x9c = first USER entry.
    let text = "\
gpu NV30
pipe 0x329c0 f:1.0
pipe 0x329c4 f:2.0
pipe 0x329c8 f:3.0 f:4.0
write vab 0x30 f:0.5
vertex
";
    let t = trace::parse(text, None).unwrap();
    let mut s = XfState::new(t.gpu, Options::default());
    let events: Vec<Event> = t.items.iter().flat_map(|i| s.step(&i.op)).collect();
    assert_eq!(
        events[0],
        Event::Commit {
            ram: nvxf::Ram::Xfctx,
            vector: 0x9c,
            words: [0x3f80_0000, 0x4000_0000, 0x4040_0000, 0x4080_0000]
        }
    );
    let Event::Vertex { attributes } = &events[1] else { panic!("{events:?}") };
    assert_eq!(attributes[3], [0x3f00_0000, 0, 0, 0x3f80_0000]);
}

fn any_gpu() -> impl Strategy<Value = Gpu> {
    prop::sample::select(nvxf::gen::ALL_GPUS.to_vec())
}

proptest! {
    #[test]
    fn parser_never_panics(text in "\\PC{0,200}", gpu in any_gpu()) {
        let _ = trace::parse(&text, Some(gpu));
    }

    #[test]
    fn parser_never_panics_on_near_misses(
        lines in prop::collection::vec(
            prop::sample::select(vec![
                "write", "read", "pipe", "bundle", "vertex", "idx2vtx", "gpu", "f:", "0x", "#",
                "xfctx", "ltc3", "99999999999", "0x1ffff", "f:nan", "-1", "0x", "nv2a", "sync",
            ]),
            0..12,
        ),
        gpu in any_gpu(),
    ) {
        let _ = trace::parse(&lines.join(" "), Some(gpu));
        let _ = trace::parse(&lines.join("\n"), Some(gpu));
    }

    #[test]
    fn simulator_never_panics(
        gpu in any_gpu(),
        ops in prop::collection::vec((0u32..16, 0u32..0x4000, any::<u32>(), any::<u32>(), 0u8..5), 0..64),
    ) {
        let mut s = XfState::new(gpu, Options::default());
        for (ty, raw, a, b, kind) in ops {
            let cmd = CmdType::from_number(ty).unwrap();
            let Ok(addr) = Addr::decode(gpu, raw & !3) else { continue };
            let op = match kind {
                0 => Op::Write { cmd, addr, data: Payload::One(a) },
                1 => Op::Write { cmd, addr, data: Payload::Pair(a, b) }, // unchecked, even at odd words
                2 => Op::Read { cmd, addr },
                3 => Op::Vertex,
                _ => Op::Idx2VtxBundle,
            };
            let _ = s.step(&op);
            let _ = s.rdi_write(raw & 0x1ff, &a.to_le_bytes());
        }
        let _ = s.finish();
    }

    /// Operations built by hand, with address fields no decoder would produce.
    #[test]
    fn simulator_never_panics_on_raw_ops(
        gpu in any_gpu(),
        ops in prop::collection::vec((0u32..16, any::<u32>(), any::<u32>(), any::<u32>(), any::<bool>(), any::<bool>()), 0..32),
    ) {
        let mut s = XfState::new(gpu, Options { commit: nvxf::CommitRule::Envytools, ..Options::default() });
        for (ty, vector, word, a, pair, read) in ops {
            let cmd = CmdType::from_number(ty).unwrap();
            let addr = Addr { vector, word };
            let data = if pair { Payload::Pair(a, !a) } else { Payload::One(a) };
            let op = if read { Op::Read { cmd, addr } } else { Op::Write { cmd, addr, data } };
            let _ = s.step(&op);
            let _ = addr.word_name();
            let _ = nvxf::rdi::rdi_address(vector, word);
        }
    }
}
