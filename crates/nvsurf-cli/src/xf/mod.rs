//! `nvsurf xf ...`: drive the nvxf model of the NV10-NV40 XF unit (envytools
//! `docs/hw/graph/xf/intro.rst`).
//!
//! - `xf decode --gpu G TRACE [--json]`: each trace line decoded (command, field split, slot
//!   and word names).
//! - `xf run --gpu G TRACE [--json]`: events, then the final state.
//! - `xf rdi encode|decode`: convert between IDX2XF words and the RDI view of the VAB.
//! - `xf info [--gpu G] [--json]`: the per-version facts.
//!
//! The trace format is documented in crates/nvxf/README.md.

mod json;
mod options;
mod rdi_spaces;

use json::state_json;
use options::{options_json, OptionArgs};

use crate::CmdResult;
use clap::{Args, Subcommand};
use nvxf::cmd::{commands_on, Op, Payload, ALL_CMD_TYPES};
use nvxf::gen::{Gpu, ALL_FEATURES, ALL_GPUS};
use nvxf::ram::{Ram, ALL_RAMS};
use nvxf::sim::{DropReason, Event, Options, XfState};
use nvxf::trace::{self, LineKind, Trace};
use nvxf::vab;
use nvxf::{rdi, wrap};
use serde_json::{json, Map, Value};
use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;

/// Arguments of `nvsurf xf`.
#[derive(Args)]
pub struct XfArgs {
    #[command(subcommand)]
    cmd: XfCmd,
}

#[derive(Subcommand)]
enum XfCmd {
    /// Decode a trace: each line's command, the generation's field split, slot and word names.
    Decode(TraceArgs),
    /// Run a trace through the model: XF2VTX events and hazards, then the final state.
    Run(RunArgs),
    /// Convert between IDX2XF words and the RDI view of the VAB (space 0x15, Kelvin/Rankine).
    Rdi(RdiArgs),
    /// Per-version facts: family, address widths, VAB, RAM sizes, commands, features.
    Info(InfoArgs),
}

#[derive(Args)]
struct TraceArgs {
    /// GPU (NV10 NV15 NV1A NV20 NV25 NV2A NV30 NV34 NV35 NV40 NV41 NV43 NV44; `xbox` = NV2A).
    /// Optional when the trace starts with a `gpu NAME` line; must agree with it otherwise.
    #[arg(long)]
    gpu: Option<String>,
    /// Trace file (`-` for standard input). Format: crates/nvxf/README.md.
    trace: String,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct RunArgs {
    #[command(flatten)]
    t: TraceArgs,
    #[command(flatten)]
    o: OptionArgs,
}

#[derive(Args)]
struct RdiArgs {
    #[command(subcommand)]
    dir: RdiDir,
}

#[derive(Subcommand)]
enum RdiDir {
    /// IDX2XF words X Y Z W (word 0 first) of a VAB slot -> RDI quadword, bytes, addresses.
    Encode {
        /// GPU (Kelvin or Rankine: NV20 NV25 NV2A NV30 NV34 NV35).
        #[arg(long)]
        gpu: String,
        /// VAB slot (number or name such as OPOS, TXC0, PASS).
        #[arg(long, default_value = "0")]
        slot: String,
        /// The four words X Y Z W (decimal, 0x-hex or f:FLOAT).
        #[arg(num_args = 4, required = true)]
        words: Vec<String>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Every XF RDI space of a state (`xf run --json` output) as RDI words: 0x10 xfpr (XTRA at
    /// +0x1180, TIMEOUT at +0x11a0), 0x15 vab, 0x16 ltctx_a, 0x17 xfctx, 0x18 ltctx_b, 0x19 ltc.
    Read {
        /// The space (number or name).
        #[arg(long)]
        space: String,
        /// The state file (`-` for standard input).
        state: String,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// RDI words written into a state (`xf run --json` output) at a byte address of a space;
    /// prints the new state in the same JSON form.
    Write {
        /// The space (number or name).
        #[arg(long)]
        space: String,
        /// RDI byte address of the first word (default 0).
        #[arg(long, default_value = "0")]
        addr: String,
        /// The state file (`-` for standard input).
        state: String,
        /// The 32-bit words, lowest address first.
        #[arg(num_args = 1.., required = true)]
        words: Vec<String>,
    },
    /// RDI bytes (hex, 32 digits per quadword, spaces allowed) -> IDX2XF words per VAB slot.
    /// A byte count that is not whole quadwords is reported as the damage such a write does.
    Decode {
        /// GPU (Kelvin or Rankine).
        #[arg(long)]
        gpu: String,
        /// RDI byte address of the first byte (default 0, slot 0).
        #[arg(long, default_value = "0")]
        addr: String,
        /// The bytes in hex, lowest address first.
        #[arg(num_args = 1.., required = true)]
        hex: Vec<String>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Args)]
struct InfoArgs {
    /// Only this GPU (default: all).
    #[arg(long)]
    gpu: Option<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// Appends a formatted line to the output buffer.
macro_rules! outln {
    ($o:ident, $($t:tt)*) => {{
        let _ = writeln!($o, $($t)*);
    }};
}

/// Runs `nvsurf xf`. `xf decode` and `xf run` (text and JSON) write their per-line entries as
/// they make them; the other outputs are short and are gathered first. A closed pipe (`| head`) ends the
/// command quietly instead of panicking.
pub fn run(a: XfArgs) -> CmdResult {
    let mut o = String::new();
    let code = match a.cmd {
        XfCmd::Decode(t) => return decode(t),
        XfCmd::Run(r) => return run_trace(r),
        XfCmd::Rdi(r) => run_rdi(r, &mut o),
        XfCmd::Info(i) => info(i, &mut o),
    }?;
    to_stdout(|w| w.write_all(o.as_bytes()))?;
    Ok(code)
}

/// Runs `write` on a buffered stdout and flushes it; a failed write (a full disk, a closed
/// pipe) is an error that names stdout.
fn to_stdout(
    write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> Result<(), crate::io::out::StdoutError> {
    let mut w = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    write(&mut w).and_then(|()| w.flush()).map_err(crate::io::out::StdoutError)
}

/// Writes `v` as pretty JSON and a newline.
fn pretty_json(w: &mut dyn std::io::Write, v: &impl serde::Serialize) -> std::io::Result<()> {
    serde_json::to_writer_pretty(&mut *w, v)?;
    writeln!(w)
}

/// A sequence serialized from an iterator as it is written (no `Vec<Value>` of the whole).
/// The iterator is made once: serializing a second time is an error, not a silent empty list.
struct LazySeq<F>(std::cell::Cell<Option<F>>);

impl<F> LazySeq<F> {
    fn new(make: F) -> Self {
        LazySeq(std::cell::Cell::new(Some(make)))
    }
}

impl<I: Iterator<Item = Value>, F: FnOnce() -> I> serde::Serialize for LazySeq<F> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let make = self.0.take().ok_or_else(|| serde::ser::Error::custom("a lazy sequence is written once"))?;
        s.collect_seq(make())
    }
}

/// A value made when it is serialized, after the fields before it are written.
struct Deferred<F>(F);

impl<F: Fn() -> Value> serde::Serialize for Deferred<F> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (self.0)().serialize(s)
    }
}

fn load(t: &TraceArgs) -> Result<Trace, Box<dyn std::error::Error>> {
    let text = if t.trace == "-" {
        std::io::read_to_string(std::io::stdin())?
    } else {
        std::fs::read_to_string(&t.trace).map_err(|e| format!("trace {}: {e}", t.trace))?
    };
    let gpu = t.gpu.as_deref().map(xf_gpu).transpose()?;
    Ok(trace::parse(&text, gpu)?)
}

/// An XF GPU by any name the surface commands take: nvxf's own names (`nv47`, `47`, `xbox`),
/// else the library's GPU table (`g70`, `c51`, `mcp61`, ...) mapped by chipset id, so that
/// `--gpu` means one thing across `layout` and `xf`. A GPU without an XF unit (G80 and
/// later, NV04/NV05) is refused in one line naming the XF range.
pub(crate) fn xf_gpu(name: &str) -> Result<Gpu, Box<dyn std::error::Error>> {
    let own = Gpu::from_name(name);
    if let Ok(g) = own {
        return Ok(g);
    }
    match nvsurf::gpu::Gpu::parse(name) {
        Ok(g) => Gpu::from_name(&format!("nv{:02x}", g.chipset_id())).map_err(|_| {
            format!("gpu '{}' ({}) has no XF unit: XF is NV10 to NV4x, NV2A and the Curie IGPs", name.trim(), g.name())
                .into()
        }),
        Err(_) => Err(own.unwrap_err().into()),
    }
}

fn hex4(v: &[u32; 4]) -> String {
    v.iter().map(|w| format!("{w:08x}")).collect::<Vec<_>>().join(" ")
}

fn slot_note(gpu: Gpu, cmd: nvxf::CmdType, vector: u32) -> Option<String> {
    (cmd == nvxf::CmdType::Vab && (vector as usize) < gpu.vab_slots()).then(|| vab::slot_label(gpu, vector as usize))
}

/// `xf decode`: one entry per trace line, written to stdout as it is made (a trace of millions
/// of lines is decoded in constant memory beyond the parsed trace; only the form asked for,
/// text or JSON, is built). Measured on a 2-million-line, 86 MB trace (session 10): building
/// both forms for every line and printing them at the end took 16 s and 5.4-6.2 GB; this
/// takes 2-3 s and 167 MB (text, JSON), with the same bytes out.
fn decode(t: TraceArgs) -> CmdResult {
    let tr = load(&t)?;
    let gpu = tr.gpu;
    // The wrapping rule is the GPU's; asked once, and only when a `pipe` line needs it.
    let wrap = tr
        .items
        .iter()
        .any(|it| matches!(it.kind, LineKind::Pipe(_)))
        .then(|| wrap::WrapLayout::of(gpu))
        .transpose()?;
    let wrap = wrap.as_ref();
    to_stdout(|w| {
        if t.json {
            pretty_json(w, &LazySeq::new(|| tr.items.iter().map(|it| decoded_json(gpu, wrap, it))))
        } else {
            writeln!(w, "# {} ({})", gpu, gpu.family())?;
            tr.items.iter().try_for_each(|it| writeln!(w, "{}", decoded_text(gpu, wrap, it)))
        }
    })?;
    Ok(ExitCode::SUCCESS)
}

/// The `source` of a decoded trace line (its kind of line).
fn source_name(kind: LineKind) -> &'static str {
    match kind {
        LineKind::Write => "write",
        LineKind::Read => "read",
        LineKind::Vertex => "vertex",
        LineKind::Pipe(_) => "pipe",
        LineKind::Bundle => "bundle",
        LineKind::Idx2Vtx => "idx2vtx",
    }
}

/// The data words of a write, in word order.
fn data_words(op: &Op) -> Option<(Vec<u32>, bool)> {
    match op {
        Op::Write { addr, data, .. } => {
            Some((data.placed(addr.word).map(|(_, v)| v).collect(), matches!(data, Payload::Pair(..))))
        }
        _ => None,
    }
}

/// One trace line of `xf decode --json`.
fn decoded_json(gpu: Gpu, wrap: Option<&wrap::WrapLayout>, it: &trace::TraceItem) -> Value {
    let mut j = Map::new();
    j.insert("line".into(), json!(it.line));
    j.insert("op".into(), json!(it.op.name()));
    j.insert("source".into(), json!(source_name(it.kind)));
    if let (LineKind::Pipe(wr), Some(_)) = (it.kind, wrap) {
        j.insert("wrapped".into(), json!(wr));
    }
    match it.op {
        Op::Write { cmd, addr, .. } | Op::Read { cmd, addr } => {
            j.insert("type".into(), json!(cmd.number()));
            j.insert("cmd".into(), json!(cmd.name()));
            j.insert("address".into(), json!(addr.encode()));
            j.insert("vector".into(), json!(addr.vector));
            j.insert("word".into(), json!(addr.word));
            j.insert("component".into(), json!(addr.word_name()));
            j.insert("exists".into(), json!(cmd.exists_on(gpu)));
            if let Some(s) = slot_note(gpu, cmd, addr.vector) {
                j.insert("slot".into(), json!(s));
            }
            if let Some((words, _)) = data_words(&it.op) {
                j.insert("data".into(), json!(words));
            }
        }
        _ => {
            for k in ["type", "cmd", "vector", "word"] {
                j.insert(k.into(), Value::Null);
            }
        }
    }
    Value::Object(j)
}

/// One trace line of `xf decode` as text.
fn decoded_text(gpu: Gpu, wrap: Option<&wrap::WrapLayout>, it: &trace::TraceItem) -> String {
    let mut line = format!("L{:<4}", it.line);
    if let (LineKind::Pipe(wr), Some(l)) = (it.kind, wrap) {
        let _ = write!(
            line,
            "pipe {wr:#x} [{} wrap: bit {}=1, type bits {}-{}, address bits 0-{}] -> ",
            gpu.family(),
            l.marker_bit,
            l.type_shift,
            l.type_shift + 3,
            l.addr_bits - 1
        );
    }
    match it.op {
        Op::Write { cmd, addr, .. } | Op::Read { cmd, addr } => {
            let _ = write!(
                line,
                "{} {}({:#x}) addr {:#05x} = vector {}{} word {} ({})",
                it.op.name(),
                cmd.name(),
                cmd.number(),
                addr.encode(),
                addr.vector,
                slot_note(gpu, cmd, addr.vector).map(|s| format!(" ({s})")).unwrap_or_default(),
                addr.word,
                addr.word_name()
            );
            if let Some((words, pair)) = data_words(&it.op) {
                let _ = write!(
                    line,
                    " data {}{}",
                    words.iter().map(|w| format!("{w:#010x}")).collect::<Vec<_>>().join(" "),
                    if pair { " (64-bit)" } else { "" }
                );
            }
            if !cmd.exists_on(gpu) {
                let _ = write!(line, "  [{} does not exist on {gpu}]", cmd.name());
            }
        }
        _ => line.push_str(it.op.name()),
    }
    line
}

fn event_json(gpu: Gpu, comps: &dyn Fn(Ram) -> usize, line: usize, e: &Event) -> Value {
    let mut j = Map::new();
    j.insert("kind".into(), json!(e.kind()));
    j.insert("line".into(), json!(line));
    match e {
        Event::Commit { ram, vector, words } => {
            j.insert("ram".into(), json!(ram.name()));
            j.insert("vector".into(), json!(vector));
            j.insert("words".into(), json!(&words[..comps(*ram)]));
        }
        Event::Timeout { value } => {
            j.insert("value".into(), json!(value));
        }
        Event::Passthru { vector, word, words } => {
            j.insert("vector".into(), json!(vector));
            j.insert("word".into(), json!(word));
            j.insert("words".into(), json!(words));
        }
        Event::Read { cmd, vector, word, value } => {
            j.insert("cmd".into(), json!(cmd.name()));
            j.insert("vector".into(), json!(vector));
            j.insert("word".into(), json!(word));
            j.insert("value".into(), json!(value));
        }
        Event::Vertex { attributes } => {
            j.insert("attributes".into(), json!(attributes));
            j.insert("names".into(), json!((0..attributes.len()).map(|s| vab::slot_label(gpu, s)).collect::<Vec<_>>()));
        }
        Event::Run { payload, param } => {
            j.insert("payload".into(), json!(payload));
            j.insert("param".into(), json!(param));
        }
        Event::Sync => {}
        Event::Hang { reason } | Event::Ignored { reason } => {
            j.insert("reason".into(), json!(reason));
        }
        Event::Desync { vector, word } => {
            j.insert("vector".into(), json!(vector));
            j.insert("word".into(), json!(word));
            j.insert("reason".into(), json!("PASSTHRU without the matching IDX2VTX bundle: VTX desyncs and hangs"));
        }
        Event::Dropped { cmd, vector, limit, reason } => {
            j.insert("cmd".into(), json!(cmd.name()));
            j.insert("vector".into(), json!(vector));
            j.insert("limit".into(), json!(limit));
            j.insert("reason".into(), json!(reason.name()));
        }
        Event::RdiDamage { slot, bytes_written } => {
            j.insert("slot".into(), json!(slot));
            j.insert("bytes_written".into(), json!(bytes_written));
        }
    }
    Value::Object(j)
}

fn event_text(gpu: Gpu, comps: &dyn Fn(Ram) -> usize, e: &Event) -> String {
    match e {
        Event::Commit { ram, vector, words } => format!(
            "commit   {}[{}] = {}",
            ram.name(),
            vector,
            words[..comps(*ram)].iter().map(|w| format!("{w:08x}")).collect::<Vec<_>>().join(" ")
        ),
        Event::Timeout { value } => format!("timeout  XTRA vector 2: TIMEOUT = {value:#06x}"),
        Event::Passthru { vector, word, words } => {
            format!("passthru vector {vector} word {word}: {} -> XF2VTX", hex4(words))
        }
        Event::Read { cmd, vector, word, value } => {
            format!(
                "read     {}[{vector}].{} = {value:08x} -> XF2VTX",
                cmd.name(),
                nvxf::cmd::WORD_NAMES[*word as usize & 3]
            )
        }
        Event::Vertex { attributes } => {
            let mut s = String::from("vertex  ");
            for (i, a) in attributes.iter().enumerate() {
                if *a != [0; 4] {
                    let _ = write!(s, " {}={}", vab::slot_label(gpu, i), hex4(a));
                }
            }
            s
        }
        Event::Run { payload, param } => format!("run      payload {payload:#x} param {}", hex4(param)),
        Event::Sync => "sync".into(),
        Event::Hang { reason } => format!("HANG     {reason}"),
        Event::Ignored { reason } => format!("ignored  {reason}"),
        Event::Desync { vector, word } => {
            format!("DESYNC   PASSTHRU vector {vector} word {word} without an IDX2VTX bundle: VTX desyncs and hangs")
        }
        Event::Dropped { cmd, vector, limit, reason: DropReason::BeyondEnd } => {
            format!("DROPPED  {} vector {vector}: the target has {limit} entries", cmd.name())
        }
        Event::Dropped { cmd, vector, .. } => {
            format!("DROPPED  {} vector {vector}: entry 0 is a fixed constant and ignores writes", cmd.name())
        }
        Event::RdiDamage { slot, bytes_written } => {
            format!("DAMAGE   RDI write covered {bytes_written} of 16 bytes of VAB slot {slot}")
        }
    }
}

fn run_trace(r: RunArgs) -> CmdResult {
    let tr = load(&r.t)?;
    let gpu = tr.gpu;
    let options = r.o.options();
    // The model runs while the output is written: each line's events are printed as they
    // happen and never gathered. Measured with `/usr/bin/time -f "%e s %M KB"` on 2,000,000
    // `vertex` lines (14 MB): gathering took 738 MB (text) and 692 MB (JSON); streaming takes
    // 96 MB for both, most of it the parsed trace.
    let st = std::cell::RefCell::new(XfState::new(gpu, options));
    let comps = move |ram: Ram| nvxf::rules::components(options.rules, ram);
    let end = tr.items.last().map(|i| i.line).unwrap_or(0);
    // Every event with its trace line, the `finish` events on the last line.
    let events = || {
        let stepped =
            tr.items.iter().flat_map(|it| st.borrow_mut().step(&it.op).into_iter().map(move |e| (it.line, e)));
        stepped.chain(std::iter::once(()).flat_map(|()| st.borrow_mut().finish().into_iter().map(move |e| (end, e))))
    };

    if r.t.json {
        // The keys in the order `json!` objects print them (sorted); `events` is written first,
        // as the model runs, and `state` is read from the model after it.
        #[derive(serde::Serialize)]
        struct RunJson<'a, E, S> {
            events: E,
            gpu: &'a str,
            options: Value,
            state: S,
        }
        let out = RunJson {
            events: LazySeq::new(|| events().map(|(l, e)| event_json(gpu, &comps, l, &e))),
            gpu: gpu.name(),
            options: options_json(options),
            state: Deferred(|| state_json(&st.borrow())),
        };
        to_stdout(|w| pretty_json(w, &out))?;
        return Ok(ExitCode::SUCCESS);
    }
    to_stdout(|w| {
        writeln!(
            w,
            "# {} ({}), rules={}, commit={}, lt-rounding={}, nv2a-fog={}, curie-pass-slot={}",
            gpu,
            gpu.family(),
            options.rules.name(),
            options.commit.name(),
            options.lt_rounding.name(),
            options.nv2a_fog.name(),
            options.curie_pass.name()
        )?;
        writeln!(w, "events:")?;
        let mut hazards = 0usize;
        for (l, e) in events() {
            hazards += usize::from(e.is_hazard());
            writeln!(w, "  L{l:<4} {}", event_text(gpu, &comps, &e))?;
        }
        writeln!(w, "hazards: {hazards}")?;
        writeln!(w, "state:")?;
        let st = st.borrow();
        for (i, v) in st.vab().iter().enumerate() {
            if *v != [0; 4] {
                writeln!(w, "  vab[{i}] {:<6} = {}", vab::slot_label(gpu, i), hex4(v))?;
            }
        }
        for ram in ALL_RAMS {
            if let Some(s) = st.ram(ram) {
                for (i, v) in s.written() {
                    let words: Vec<String> = v[..st.components(ram)].iter().map(|w| format!("{w:08x}")).collect();
                    writeln!(w, "  {}[{i}] = {}", ram.name(), words.join(" "))?;
                }
            }
        }
        if let Some(t) = st.xtra_timeout() {
            writeln!(w, "  xtra_timeout = {t:08x}")?;
        }
        Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}

fn parse_word(s: &str) -> Result<u32, Box<dyn std::error::Error>> {
    trace::parse_data(s).ok_or_else(|| {
        format!("word '{s}' is not a 32-bit number or f:FLOAT (an f32: at most 3.4028235e38, or inf/nan)").into()
    })
}

fn run_rdi(r: RdiArgs, o: &mut String) -> CmdResult {
    match r.dir {
        RdiDir::Read { space, state, json } => rdi_spaces::read(&space, &state, json, o),
        RdiDir::Write { space, addr, state, words } => rdi_spaces::write(&space, &addr, &state, &words, o),
        RdiDir::Encode { gpu, slot, words, json } => rdi_encode(&gpu, &slot, &words, json, o),
        RdiDir::Decode { gpu, addr, hex, json } => rdi_decode(&gpu, &addr, &hex, json, o),
    }
}

/// `xf rdi encode`: the RDI bytes and addresses of one VAB slot's words.
fn rdi_encode(gpu: &str, slot: &str, words: &[String], json: bool, o: &mut String) -> CmdResult {
    let gpu = xf_gpu(gpu)?;
    rdi::check_gpu(gpu)?;
    let s = vab::slot_by_name(gpu, slot)
        .ok_or_else(|| format!("slot '{slot}' is not a VAB slot of {gpu} (0-{})", gpu.vab_slots() - 1))?;
    let mut v = [0u32; 4];
    for (i, w) in words.iter().enumerate().take(4) {
        v[i] = parse_word(w)?;
    }
    let q = rdi::to_quadword(&v);
    let bytes = rdi::vab_to_bytes(&[v]);
    let base = s as u32 * 16;
    if json {
        let out = json!({
            "gpu": gpu.name(),
            "space": rdi::VAB_SPACE,
            "slot": s,
            "name": vab::slot_label(gpu, s),
            "words": v,
            "quadword": format!("{q:#034x}"),
            "bytes": bytes,
            "rdi_address": base,
            "word_addresses": (0..4).map(|w| rdi::rdi_address(s as u32, w)).collect::<Result<Vec<_>, _>>()?,
        });
        outln!(o, "{}", serde_json::to_string_pretty(&out)?);
    } else {
        outln!(
            o,
            "RDI space {:#x}, VAB slot {s} ({}), quadword at RDI address {base:#x}",
            rdi::VAB_SPACE,
            vab::slot_label(gpu, s)
        );
        outln!(o, "  quadword  {q:#034x}");
        outln!(o, "  bytes     {}", bytes.iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" "));
        for (w, name) in nvxf::cmd::WORD_NAMES.iter().enumerate() {
            let a = rdi::rdi_address(s as u32, w as u32)?;
            outln!(o, "  word {w} ({name}) = {:08x} at RDI {a:#x} (bits {}-{})", v[w], (a % 16) * 8, (a % 16) * 8 + 31);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `xf rdi decode`: RDI bytes at an address as the VAB slots' words, and the damage a write
/// that is not whole quadwords does.
fn rdi_decode(gpu: &str, addr: &str, hex: &[String], json: bool, o: &mut String) -> CmdResult {
    let gpu = xf_gpu(gpu)?;
    rdi::check_gpu(gpu)?;
    let addr = trace::parse_u32_checked(addr).map_err(|e| {
        // The last byte of the VAB as RDI sees it.
        let last = (gpu.vab_slots() * rdi::QUADWORD_BYTES) as u64 - 1;
        trace::number_error("RDI address", addr, e, last)
    })?;
    let joined: String = hex.concat().chars().filter(|c| !c.is_whitespace() && *c != '_').collect();
    let joined = joined.strip_prefix("0x").unwrap_or(&joined).to_string();
    if !joined.len().is_multiple_of(2) || !joined.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(format!("RDI bytes '{joined}' are not an even number of hex digits").into());
    }
    if joined.is_empty() {
        return Err("RDI bytes '' are empty: give at least one byte (two hex digits)".into());
    }
    let bytes: Vec<u8> =
        (0..joined.len() / 2).filter_map(|i| u8::from_str_radix(&joined[2 * i..2 * i + 2], 16).ok()).collect();
    let mut st = XfState::new(gpu, Options::default());
    let damage = st.rdi_write(addr, &bytes)?;
    let first = addr as usize / 16;
    let last = (addr as usize + bytes.len()).div_ceil(16);
    if json {
        let out = json!({
            "gpu": gpu.name(),
            "space": rdi::VAB_SPACE,
            "slots": (first..last).map(|s| json!({
                "slot": s,
                "name": vab::slot_label(gpu, s),
                "words": st.vab()[s],
            })).collect::<Vec<_>>(),
            "events": damage.iter().map(|e| event_json(gpu, &Ram::components, 0, e)).collect::<Vec<_>>(),
        });
        outln!(o, "{}", serde_json::to_string_pretty(&out)?);
    } else {
        for s in first..last {
            outln!(
                o,
                "  vab[{s}] {:<6} = {}  (X Y Z W, IDX2XF words 0-3)",
                vab::slot_label(gpu, s),
                hex4(&st.vab()[s])
            );
        }
        for e in &damage {
            outln!(o, "  {}", event_text(gpu, &Ram::components, e));
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn info(i: InfoArgs, o: &mut String) -> CmdResult {
    let gpus: Vec<Gpu> = match &i.gpu {
        Some(g) => vec![xf_gpu(g)?],
        None => ALL_GPUS.to_vec(),
    };
    let mut out = Vec::new();
    for g in gpus {
        let rams: Map<String, Value> = ALL_RAMS
            .iter()
            .filter_map(|r| {
                r.size(g).map(|s| (r.name().to_string(), json!({"vectors": s.vectors, "source": s.source})))
            })
            .collect();
        let features: Map<String, Value> =
            ALL_FEATURES.iter().map(|f| (f.name().to_string(), json!(g.has(*f).name()))).collect();
        let wrapping = match wrap::WrapLayout::of(g) {
            Ok(l) => json!({"address_bits": l.addr_bits, "type_shift": l.type_shift, "marker_bit": l.marker_bit}),
            Err(e) => json!({"error": e.to_string()}),
        };
        out.push(json!({
            "gpu": g.name(),
            "chipset": g.chipset(),
            "family": g.family().name(),
            "description": g.description(),
            "native_isa": g.native_isa().name(),
            "address_bits": g.address_bits(),
            "vector_bits": [4, 3 + g.vector_bits()],
            "vab_slots": (0..g.vab_slots()).map(|s| vab::slot_label(g, s)).collect::<Vec<_>>(),
            "pass_slot": g.pass_slot(),
            "reads": g.has_reads(),
            "rdi_vab_space": g.has_rdi_vab().then_some(rdi::VAB_SPACE),
            "rdi_spaces": nvxf::rdi_space::ALL_SPACES
                .iter()
                .filter(|s| s.check(g).is_ok())
                .map(|s| json!({"space": s.id(), "name": s.name(), "verified": s.verified_on(g)}))
                .collect::<Vec<_>>(),
            "wrapping": wrapping,
            "commands": commands_on(g).map(|c| json!({"type": c.number(), "cmd": c.name()})).collect::<Vec<_>>(),
            "rams": rams,
            "features": features,
        }));
    }
    if i.json {
        outln!(o, "{}", serde_json::to_string_pretty(&out)?);
        return Ok(ExitCode::SUCCESS);
    }
    for (g, j) in ALL_GPUS.iter().filter(|g| i.gpu.is_none() || out.iter().any(|o| o["gpu"] == g.name())).zip(&out) {
        outln!(o, "{} ({}, chipset {:#x}): native ISA {}", g, g.family(), g.chipset(), g.native_isa().name());
        outln!(o, "  address: {} bits, vector in bits 4-{}", g.address_bits(), 3 + g.vector_bits());
        outln!(
            o,
            "  VAB: {} slots, pass slot {}",
            g.vab_slots(),
            g.pass_slot().map(|p| p.to_string()).unwrap_or("none".into())
        );
        let cmds: Vec<&str> = ALL_CMD_TYPES.iter().filter(|c| c.exists_on(*g)).map(|c| c.name()).collect();
        outln!(o, "  commands: {}", cmds.join(" "));
        for r in ALL_RAMS {
            if let Some(s) = r.size(*g) {
                outln!(o, "  {:<6} {:#6x} entries  ({})", r.name(), s.vectors, s.source);
            }
        }
        outln!(o, "  wrapping: {}", j["wrapping"]);
    }
    Ok(ExitCode::SUCCESS)
}
