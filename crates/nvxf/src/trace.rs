//! The text trace format (documented in the crate README).
//!
//! One command a line, `#` starts a comment, numbers in decimal or `0x` hex, 32-bit data also
//! as `f:1.5`:
//!
//! ```text
//! gpu NV20                      # optional, first command line only
//! write CMD ADDR DATA [DATA2]   # IDX2XF write, CMD by name or number, ADDR a byte address
//! read CMD ADDR                 # IDX2XF read (Celsius)
//! vertex                        # the vertex trigger
//! pipe WRAPPED_ADDR DATA [DATA2] # a wrapped command as written to PGRAPH's PIPE register
//! bundle ADDR DATA              # an IDX bundle: IDX2VTX token + PASSTHRU write
//! idx2vtx                       # an IDX2VTX bundle token alone
//! ```
//!
//! The parser never panics; every problem is an [`Error::Parse`] naming the line.

use crate::cmd::{Addr, CmdType, Op, Payload};
use crate::error::{Error, Result};
use crate::gen::Gpu;
use crate::wrap;
use alloc::format;
use alloc::string::ToString;
use alloc::vec::Vec;

pub use crate::number::{number_error, parse_u32, parse_u32_checked, NumberError};

/// Parses a 32-bit data word: a number, or `f:VALUE` for a 32-bit float's bits (rounded to the
/// nearest f32). A float beyond f32's range (`f:1e40`) is refused rather than turned into
/// infinity; `f:inf`, `f:-inf` and `f:nan` say so on purpose.
pub fn parse_data(s: &str) -> Option<u32> {
    let t = s.trim();
    if let Some(f) = t.strip_prefix("f:").or_else(|| t.strip_prefix("F:")) {
        let f = f.trim();
        let v = f.parse::<f32>().ok()?;
        let named = f.trim_start_matches(['+', '-']).to_ascii_lowercase();
        if v.is_infinite() && named != "inf" && named != "infinity" {
            return None;
        }
        return Some(v.to_bits());
    }
    parse_u32(t)
}

/// What a trace line was written as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LineKind {
    /// `write`.
    Write,
    /// `read`.
    Read,
    /// `vertex`.
    Vertex,
    /// `pipe`, with the wrapped address.
    Pipe(u32),
    /// `bundle`.
    Bundle,
    /// `idx2vtx`.
    Idx2Vtx,
}

/// One operation of a trace with where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceItem {
    /// 1-based line number.
    pub line: usize,
    /// How the line was written.
    pub kind: LineKind,
    /// The operation (a `bundle` line gives two items: the token, then the write).
    pub op: Op,
}

/// A parsed trace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace {
    /// The generation the trace was parsed for.
    pub gpu: Gpu,
    /// The operations in order.
    pub items: Vec<TraceItem>,
}

/// Finds the GPU named by an optional `gpu NAME` first command line.
pub fn header_gpu(text: &str) -> Result<Option<Gpu>> {
    for (i, raw) in text.lines().enumerate() {
        let line = strip_comment(raw);
        let mut words = line.split_whitespace();
        match words.next() {
            None => continue,
            Some(w) if w.eq_ignore_ascii_case("gpu") => {
                let name = words.next().ok_or_else(|| perr(i + 1, "gpu needs a name"))?;
                return Gpu::from_name(name).map(Some).map_err(|e| perr(i + 1, &e.to_string()));
            }
            Some(_) => return Ok(None),
        }
    }
    Ok(None)
}

/// Parses a trace. `gpu` is the generation asked for by the caller (CLI `--gpu`); a `gpu`
/// line in the trace must agree with it, and one of the two must be present.
pub fn parse(text: &str, gpu: Option<Gpu>) -> Result<Trace> {
    let header = header_gpu(text)?;
    let gpu = match (gpu, header) {
        (Some(a), Some(b)) if a != b => {
            return Err(Error::Unsupported { what: format!("the trace is for {b} but {a} was asked for") })
        }
        (Some(a), _) | (None, Some(a)) => a,
        (None, None) => {
            return Err(Error::Unsupported {
                what: "no GPU given: pass --gpu or start the trace with a `gpu NAME` line".into(),
            })
        }
    };
    let mut items = Vec::new();
    let mut seen_cmd = false;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = strip_comment(raw);
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(first) = words.first() else { continue };
        let verb = first.to_ascii_lowercase();
        let args = &words[1..];
        if verb == "gpu" {
            if seen_cmd {
                return Err(perr(n, "`gpu` must be the first command line"));
            }
            seen_cmd = true;
            continue;
        }
        seen_cmd = true;
        match verb.as_str() {
            "write" => {
                arity(n, "write CMD ADDR DATA [DATA2]", args, 3, 4)?;
                let cmd = CmdType::parse(args[0]).map_err(|e| perr(n, &e.to_string()))?;
                let addr = addr_arg(gpu, n, args[1])?;
                let op = write_op(n, cmd, addr, &args[2..])?;
                items.push(TraceItem { line: n, kind: LineKind::Write, op });
            }
            "read" => {
                arity(n, "read CMD ADDR", args, 2, 2)?;
                let cmd = CmdType::parse(args[0]).map_err(|e| perr(n, &e.to_string()))?;
                let addr = addr_arg(gpu, n, args[1])?;
                items.push(TraceItem { line: n, kind: LineKind::Read, op: Op::Read { cmd, addr } });
            }
            "vertex" => {
                arity(n, "vertex", args, 0, 0)?;
                items.push(TraceItem { line: n, kind: LineKind::Vertex, op: Op::Vertex });
            }
            "idx2vtx" => {
                arity(n, "idx2vtx", args, 0, 0)?;
                items.push(TraceItem { line: n, kind: LineKind::Idx2Vtx, op: Op::Idx2VtxBundle });
            }
            "pipe" => {
                arity(n, "pipe WRAPPED_ADDR DATA [DATA2]", args, 2, 3)?;
                let wrapped = parse_u32_checked(args[0]).map_err(|e| {
                    // The largest wrapped command: the marker bit and everything below it set.
                    match wrap::WrapLayout::of(gpu) {
                        Ok(l) => perr(n, &number_error("wrapped address", args[0], e, (2u64 << l.marker_bit) - 1)),
                        Err(u) => perr(n, &u.to_string()),
                    }
                })?;
                let (cmd, addr) = wrap::unwrap(gpu, wrapped).map_err(|e| perr(n, &e.to_string()))?;
                let op = write_op(n, cmd, addr, &args[1..])?;
                items.push(TraceItem { line: n, kind: LineKind::Pipe(wrapped), op });
            }
            "bundle" => {
                arity(n, "bundle ADDR DATA", args, 2, 2)?;
                let addr = addr_arg(gpu, n, args[0])?;
                let op = write_op(n, CmdType::Passthru, addr, &args[1..])?;
                items.push(TraceItem { line: n, kind: LineKind::Bundle, op: Op::Idx2VtxBundle });
                items.push(TraceItem { line: n, kind: LineKind::Bundle, op });
            }
            _ => {
                let known = ["gpu", "write", "read", "vertex", "pipe", "bundle", "idx2vtx"];
                let e = crate::error::unknown("trace command", first, &known);
                return Err(perr(n, &e.to_string()));
            }
        }
    }
    Ok(Trace { gpu, items })
}

fn strip_comment(raw: &str) -> &str {
    raw.split('#').next().unwrap_or("")
}

fn perr(line: usize, msg: &str) -> Error {
    Error::Parse { line, msg: msg.into() }
}

fn arity(n: usize, usage: &str, args: &[&str], min: usize, max: usize) -> Result<()> {
    if args.len() < min || args.len() > max {
        return Err(perr(n, &format!("expected `{usage}`, got {} argument(s)", args.len())));
    }
    Ok(())
}

fn addr_arg(gpu: Gpu, n: usize, s: &str) -> Result<Addr> {
    let raw =
        parse_u32_checked(s).map_err(|e| perr(n, &number_error("address", s, e, (1u64 << gpu.address_bits()) - 4)))?;
    Addr::decode(gpu, raw).map_err(|e| perr(n, &e.to_string()))
}

fn write_op(n: usize, cmd: CmdType, addr: Addr, data: &[&str]) -> Result<Op> {
    let d = |s: &str| {
        parse_data(s).ok_or_else(|| {
            perr(n, &format!("data '{s}' is not a 32-bit number or f:FLOAT (an f32: at most 3.4028235e38, or inf/nan)"))
        })
    };
    let payload = match data {
        [a] => Payload::One(d(a)?),
        [a, b] => Payload::Pair(d(a)?, d(b)?),
        _ => return Err(perr(n, "expected one or two data words")),
    };
    Op::write(cmd, addr, payload).map_err(|e| perr(n, &e.to_string()))
}
