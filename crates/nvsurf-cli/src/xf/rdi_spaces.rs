//! `nvsurf xf rdi read|write`: every XF RDI space (0x10 XFPR/XTRA/TIMEOUT, 0x15 VAB,
//! 0x16/0x18 LTCTX, 0x17 XFCTX, 0x19 LTC) read from, or written into, a state as `xf run
//! --json` prints it. Layouts: `nvxf::rdi_space`.

use super::json::state_json;
use super::options::options_json;
use crate::CmdResult;
use nvxf::float::LtRounding;
use nvxf::ram::{CommitRule, Ram};
use nvxf::rdi_space::{self, Space};
use nvxf::sim::{Event, Options, XfState};
use nvxf::vab::Nv2aFog;
use nvxf::{trace, CuriePass, Rules};
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::process::ExitCode;

type Res<T> = Result<T, Box<dyn std::error::Error>>;

fn bad(field: &str, v: &Value, rule: &str) -> Box<dyn std::error::Error> {
    format!("state {field} {v} {rule}").into()
}

/// Reads a state file (`-` for standard input) as `xf run --json` writes it.
pub(super) fn load_state(path: &str) -> Res<XfState> {
    let text = if path == "-" {
        std::io::read_to_string(std::io::stdin())?
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("state {path}: {e}"))?
    };
    let v: Value = serde_json::from_str(&text).map_err(|e| format!("state {path}: not JSON ({e})"))?;
    let gpu = super::xf_gpu(v["gpu"].as_str().ok_or_else(|| bad("gpu", &v["gpu"], "is not a GPU name"))?)?;
    let st = v.get("state").ok_or("state file has no `state` object (write it with `xf run --json`)")?;
    let mut s = XfState::new(gpu, options_from(&v["options"])?);
    if let Some(vab) = st.get("vab") {
        let a = vab.as_array().ok_or_else(|| bad("vab", vab, "is not an array"))?;
        if a.len() != s.vab().len() {
            return Err(bad("vab", &json!(a.len()), &format!("slots: {gpu} has {}", s.vab().len())));
        }
        for (i, slot) in a.iter().enumerate() {
            s.set_vab(i, words4(&format!("vab[{i}]"), slot)?)?;
        }
    }
    for ram in [Ram::Xfctx, Ram::Ltctx, Ram::Xfpr, Ram::Xtra] {
        load_map(&mut s, ram, &st[ram.name()])?;
    }
    if let Some(ltc) = st.get("ltc").and_then(Value::as_array) {
        for (r, m) in [Ram::Ltc0, Ram::Ltc1, Ram::Ltc2, Ram::Ltc3].into_iter().zip(ltc) {
            load_map(&mut s, r, m)?;
        }
    }
    if let Some(t) = st.get("xtra_timeout").filter(|t| !t.is_null()) {
        let t = t.as_u64().filter(|t| *t <= 0xffff).ok_or_else(|| bad("xtra_timeout", t, "is not a 16-bit number"))?;
        s.set_xtra_timeout(t as u32)?;
    }
    Ok(s)
}

fn options_from(o: &Value) -> Res<Options> {
    let name = |k: &str| o.get(k).and_then(Value::as_str);
    let mut opts = Options::for_rules(name("rules").map(Rules::parse).transpose()?.unwrap_or_default());
    if let Some(c) = name("commit") {
        opts.commit = match c {
            "hardware" => CommitRule::Hardware,
            "document" => CommitRule::Document,
            "envytools" => CommitRule::Envytools,
            _ => return Err(bad("options.commit", &o["commit"], "is not hardware, document or envytools")),
        };
    }
    if let Some(r) = name("lt_rounding") {
        opts.lt_rounding = match r {
            "nearest" => LtRounding::Nearest,
            "truncate" => LtRounding::Truncate,
            _ => return Err(bad("options.lt_rounding", &o["lt_rounding"], "is not nearest or truncate")),
        };
    }
    if name("nv2a_fog") == Some("replicate-x") {
        opts.nv2a_fog = Nv2aFog::ReplicateX;
    }
    if name("curie_pass_slot") == Some("envytools") {
        opts.curie_pass = CuriePass::Envytools;
    }
    Ok(opts)
}

fn words4(field: &str, v: &Value) -> Res<[u32; 4]> {
    let a = v.as_array().filter(|a| !a.is_empty() && a.len() <= 4).ok_or_else(|| bad(field, v, "is not 1-4 words"))?;
    let mut out = [0u32; 4];
    for (i, w) in a.iter().enumerate() {
        out[i] = w.as_u64().and_then(|w| u32::try_from(w).ok()).ok_or_else(|| bad(field, w, "is not a 32-bit word"))?;
    }
    Ok(out)
}

fn load_map(s: &mut XfState, ram: Ram, m: &Value) -> Res<()> {
    let Some(m) = m.as_object() else { return Ok(()) };
    for (k, v) in m {
        let i: usize = k.parse().map_err(|_| bad(ram.name(), &json!(k), "is not an entry index"))?;
        s.set_entry(ram, i, words4(&format!("{}[{i}]", ram.name()), v)?)?;
    }
    Ok(())
}

/// `xf rdi read --space S STATE`.
pub(super) fn read(space: &str, state: &str, as_json: bool, o: &mut String) -> CmdResult {
    let space = Space::parse(space)?;
    let st = load_state(state)?;
    let words = rdi_space::read(&st, space)?;
    if as_json {
        let out = json!({
            "gpu": st.gpu().name(),
            "space": space.id(),
            "name": space.name(),
            "verified": space.verified_on(st.gpu()),
            "source": space.source(),
            "words": words,
        });
        let _ = writeln!(o, "{}", serde_json::to_string_pretty(&out)?);
        return Ok(ExitCode::SUCCESS);
    }
    let _ = writeln!(
        o,
        "RDI space {:#x} ({}) on {}: {} words, layout: {}",
        space.id(),
        space.name(),
        st.gpu(),
        words.len(),
        space.source()
    );
    for (q, c) in words.chunks(4).enumerate() {
        if c.iter().any(|w| *w != 0) {
            let hex: Vec<String> = c.iter().map(|w| format!("{w:08x}")).collect();
            let _ = writeln!(o, "  {:#06x}: {}", q * 16, hex.join(" "));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `xf rdi write --space S [--addr A] STATE WORD...`: the new state, as `xf run --json`.
pub(super) fn write(space: &str, addr: &str, state: &str, words: &[String], o: &mut String) -> CmdResult {
    let space = Space::parse(space)?;
    let mut st = load_state(state)?;
    let addr =
        trace::parse_u32_checked(addr).map_err(|e| trace::number_error("RDI address", addr, e, u64::from(u32::MAX)))?;
    let words = words
        .iter()
        .map(|w| trace::parse_u32_checked(w).map_err(|e| trace::number_error("RDI word", w, e, u64::from(u32::MAX))))
        .collect::<Result<Vec<u32>, String>>()?;
    let events = rdi_space::write(&mut st, space, addr, &words)?;
    let ev: Vec<Value> = events
        .iter()
        .map(|e| match e {
            Event::RdiDamage { slot, bytes_written } => json!({
                "kind": e.kind(), "line": 0, "space": space.id(), "slot": slot, "bytes_written": bytes_written,
            }),
            _ => json!({"kind": e.kind()}),
        })
        .collect();
    let out = json!({
        "events": ev,
        "gpu": st.gpu().name(),
        "options": options_json(st.options()),
        "state": state_json(&st),
    });
    let _ = writeln!(o, "{}", serde_json::to_string_pretty(&out)?);
    Ok(ExitCode::SUCCESS)
}
