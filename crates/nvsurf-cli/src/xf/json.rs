//! The XF model's final state as JSON (`xf run --json`, and what `xf rdi` reads and writes).

use nvxf::ram::Ram;
use nvxf::sim::XfState;
use serde_json::{json, Map, Value};

/// The entries of one RAM written so far, `comps` words each, keyed by index.
pub fn ram_json(s: Option<&nvxf::sim::RamStore>, comps: usize) -> Value {
    let mut m = Map::new();
    if let Some(s) = s {
        for (i, v) in s.written() {
            m.insert(i.to_string(), json!(&v[..comps]));
        }
    }
    Value::Object(m)
}

/// The model's final state as `xf run --json` prints it.
pub fn state_json(st: &XfState) -> Value {
    let comps = |ram: Ram| st.components(ram);
    let ltc: Vec<Value> =
        [Ram::Ltc0, Ram::Ltc1, Ram::Ltc2, Ram::Ltc3].iter().map(|r| ram_json(st.ram(*r), comps(*r))).collect();
    let mode: Vec<[u32; 4]> =
        st.ram(Ram::Mode).map(|m| (0..m.len()).filter_map(|i| m.get(i).copied()).collect()).unwrap_or_default();
    json!({
        "vab": st.vab(),
        "xfctx": ram_json(st.ram(Ram::Xfctx), 4),
        "ltctx": ram_json(st.ram(Ram::Ltctx), comps(Ram::Ltctx)),
        "ltc": ltc,
        "xfpr": ram_json(st.ram(Ram::Xfpr), 4),
        "xtra": ram_json(st.ram(Ram::Xtra), 4),
        "xtra_timeout": st.xtra_timeout(),
        "mode": mode,
    })
}
