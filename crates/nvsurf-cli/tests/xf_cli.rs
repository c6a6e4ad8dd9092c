//! `nvsurf xf` integration tests: the built binary on the sample traces in tests/data/xf.

use serde_json::Value;
use std::process::{Command, Output};

mod scratch;
use scratch::Scratch;

const BIN: &str = env!("CARGO_BIN_EXE_nvsurf");

fn data(name: &str) -> String {
    format!("{}/tests/data/xf/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn nvsurf(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("run nvsurf")
}

fn json(args: &[&str]) -> Value {
    let out = nvsurf(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

fn f(x: f32) -> Value {
    Value::from(x.to_bits())
}

#[test]
fn run_pipe_trace_json() {
    let v = json(&["xf", "run", "--gpu", "NV2A", &data("pipe_constants.xft"), "--json"]);
    let ev = v["events"].as_array().unwrap();
    let kinds: Vec<&str> = ev.iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["commit", "commit", "vertex"]);
    assert_eq!(ev[0]["ram"], "xfctx");
    assert_eq!(ev[0]["vector"], 0x60);
    let attrs = ev[2]["attributes"].as_array().unwrap();
    assert_eq!(attrs.len(), 16, "Kelvin IBUF: 16 attributes, no PASS");
    assert_eq!(attrs[0], Value::from(vec![f(1.0), f(2.0), f(3.0), f(1.0)]));
    assert_eq!(attrs[3], Value::from(vec![f(1.0), f(0.5), f(0.0), f(0.75)]));
    let st = &v["state"];
    assert_eq!(st["vab"].as_array().unwrap().len(), 17);
    assert_eq!(st["xfctx"]["96"], Value::from(vec![f(1.0), f(2.0), f(3.0), f(4.0)]));
    assert_eq!(st["xfctx"]["97"], Value::from(vec![f(0.5), f(0.25), f(0.0), f(1.0)]));
    assert_eq!(st["xfctx"].as_object().unwrap().len(), 2, "only written vectors");
    assert_eq!(st["ltc"].as_array().unwrap().len(), 4);
    assert!(st["ltctx"].as_object().unwrap().is_empty());
    assert!(st["xfpr"].as_object().unwrap().is_empty());
    assert_eq!(st["mode"].as_array().unwrap().len(), 1);
}

#[test]
fn run_pipe_trace_text() {
    let out = nvsurf(&["xf", "run", "--gpu", "NV2A", &data("pipe_constants.xft")]);
    assert!(out.status.success());
    let s = String::from_utf8(out.stdout).unwrap();
    assert!(s.contains("commit   xfctx[96] = 3f800000 40000000 40400000 40800000"), "{s}");
    assert!(s.contains("hazards: 0"));
}

#[test]
fn run_hazards() {
    let v = json(&["xf", "run", "--gpu", "nv10", &data("hazards.xft"), "--json"]);
    let ev = v["events"].as_array().unwrap();
    let kinds: Vec<&str> = ev.iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["commit", "dropped", "read", "hang", "passthru", "passthru", "desync", "ignored"]);
    assert_eq!(ev[1]["limit"], 0x3c);
    assert_eq!(ev[2]["value"], f(1.0));
    assert_eq!(ev[3]["line"], 8);
    assert_eq!(ev[6]["line"], 10);
}

#[test]
fn decode_json_keys() {
    let v = json(&["xf", "decode", &data("pipe_constants.xft"), "--json"]);
    let a = v.as_array().unwrap();
    assert_eq!(a.len(), 11);
    let first = &a[0];
    for (k, want) in [
        ("op", Value::from("write")),
        ("type", 9.into()),
        ("cmd", "xfctx".into()),
        ("vector", 0x60.into()),
        ("word", 0.into()),
    ] {
        assert_eq!(first[k], want, "{k}");
    }
    assert_eq!(first["wrapped"], 0x19600);
    assert_eq!(a[2]["word"], 2);
    assert_eq!(a[2]["data"].as_array().unwrap().len(), 2);
    assert_eq!(a[6]["slot"], "OPOS");
    assert_eq!(a[10]["op"], "vertex");
    assert!(a[10]["type"].is_null());
}

#[test]
fn options_are_selectable() {
    let doc = json(&["xf", "run", &data("fog_nv2a.xft"), "--json"]);
    let rep = json(&["xf", "run", &data("fog_nv2a.xft"), "--json", "--nv2a-fog", "replicate-x"]);
    assert_eq!(doc["state"]["vab"][5], Value::from(vec![f(0.25), f(0.0), f(0.0), f(1.0)]));
    assert_eq!(rep["state"]["vab"][5], Value::from(vec![f(0.25); 4]));

    let env = json(&[
        "xf",
        "run",
        &data("lt_rankine.xft"),
        "--json",
        "--rules",
        "overview",
        "--commit",
        "envytools",
        "--lt-rounding",
        "nearest",
    ]);
    let doc = json(&["xf", "run", &data("lt_rankine.xft"), "--json", "--rules", "overview"]);
    assert_eq!(doc["options"]["rules"], "overview");
    assert_eq!(doc["options"]["commit"], "document", "the overview's rule set commits on word 3");
    assert_eq!(doc["options"]["lt_rounding"], "truncate");
    // envytools: LTCTX commits at word 2 (Z); rounding to nearest adds 0x200.
    assert_eq!(env["state"]["ltctx"]["1"], Value::from(vec![0x3f80_0400u32, 0x4000_0000, 0x4040_0000]));
    assert_eq!(doc["state"]["ltctx"]["1"], Value::from(vec![0x3f80_0000u32, 0x4000_0000, 0x4040_0000]));
    let commits = |v: &Value| v["events"].as_array().unwrap().iter().filter(|e| e["kind"] == "commit").count();
    // envytools: LTCTX commits once (at word 2), MODE once (the pair at word 2 holds word 3),
    // LTC1 on its single word 0.
    assert_eq!(commits(&env), 3);
    assert_eq!(commits(&doc), 2, "document: LTCTX and MODE at word 3, LTC1 word 0 does not commit");
    assert_eq!(env["state"]["mode"].as_array().unwrap().len(), 2, "Rankine XFMODE is two vectors");
}

#[test]
fn rdi_encode_decode_round_trip() {
    let e = json(&[
        "xf",
        "rdi",
        "encode",
        "--gpu",
        "NV20",
        "--slot",
        "COL0",
        "0xaaaaaaaa",
        "0xbbbbbbbb",
        "0xcccccccc",
        "0x04030201",
        "--json",
    ]);
    assert_eq!(e["slot"], 3);
    assert_eq!(e["rdi_address"], 0x30);
    assert_eq!(e["word_addresses"], Value::from(vec![0x3c, 0x38, 0x34, 0x30]));
    let bytes: Vec<u8> = e["bytes"].as_array().unwrap().iter().map(|b| b.as_u64().unwrap() as u8).collect();
    assert_eq!(&bytes[..4], &[1, 2, 3, 4]);
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let d = json(&["xf", "rdi", "decode", "--gpu", "NV20", "--addr", "0x30", &hex, "--json"]);
    assert_eq!(d["slots"][0]["slot"], 3);
    assert_eq!(d["slots"][0]["words"], Value::from(vec![0xaaaa_aaaau32, 0xbbbb_bbbb, 0xcccc_cccc, 0x0403_0201]));
    assert!(d["events"].as_array().unwrap().is_empty());
    let p = json(&["xf", "rdi", "decode", "--gpu", "NV20", "--addr", "0x34", "0102030405060708", "--json"]);
    assert_eq!(p["events"][0]["kind"], "rdi_damage");
    assert_eq!(p["events"][0]["bytes_written"], 8);
}

#[test]
fn errors_are_one_line_exit_2() {
    for args in [
        vec!["xf", "run", "--gpu", "NV50", "x"],
        vec!["xf", "rdi", "encode", "--gpu", "NV10", "1", "2", "3", "4"],
        vec!["xf", "run", "--gpu", "NV20", "/nonexistent/trace"],
    ] {
        let out = nvsurf(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.starts_with("error: ") && err.trim_end().lines().count() == 1, "{err}");
    }
    let tmp = Scratch::new("xf");
    let bad = tmp.path("bad.xft");
    std::fs::write(&bad, "gpu NV40\npipe 0x40000 1\n").unwrap();
    let out = nvsurf(&["xf", "decode", bad.to_str().unwrap()]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("line 2") && err.contains("undocumented"), "{err}");
}

#[test]
fn info_lists_per_version_facts() {
    let v = json(&["xf", "info", "--json"]);
    assert_eq!(v.as_array().unwrap().len(), 32, "every Celsius, Kelvin, Rankine and Curie chip envytools names");
    let nv43 = json(&["xf", "info", "--gpu", "NV43", "--json"]);
    assert_eq!(nv43[0]["rams"]["xfctx"]["vectors"], 0x1d4);
    assert_eq!(nv43[0]["pass_slot"], Value::Null);
    assert!(nv43[0]["rdi_spaces"].as_array().unwrap().is_empty(), "Curie: no RDI views");
    let nv25 = json(&["xf", "info", "--gpu", "NV25", "--json"]);
    let ids: Vec<u64> =
        nv25[0]["rdi_spaces"].as_array().unwrap().iter().map(|s| s["space"].as_u64().unwrap()).collect();
    assert_eq!(ids, [0x10, 0x15, 0x16, 0x17, 0x18, 0x19]);
    let verified = |gpu: &str| -> Vec<bool> {
        let v = json(&["xf", "info", "--gpu", gpu, "--json"]);
        v[0]["rdi_spaces"].as_array().unwrap().iter().map(|s| s["verified"].as_bool().unwrap()).collect()
    };
    assert_eq!(verified("NV25"), [true, true, false, false, false, false]);
    assert_eq!(verified("NV2A"), [true, true, false, true, false, false], "XFCTX: NV2A hardware reads");
    assert!(nv43[0]["wrapping"]["error"].as_str().unwrap().contains("undocumented"));
}

#[test]
fn too_large_numbers_name_the_allowed_range() {
    // Review finding 9: numbers above 32 bits were reported as "not a number".
    let err = |args: &[&str]| {
        let out = nvsurf(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    for a in ["18446744073709551615", "0x100000000"] {
        let e = err(&["xf", "rdi", "decode", "--gpu", "NV20", "--addr", a, "00"]);
        assert!(e.contains(&format!("RDI address '{a}' is out of range (at most 0x10f)")), "{e}");
    }
    let e = err(&["xf", "rdi", "decode", "--gpu", "NV20", "--addr", "zz", "00"]);
    assert!(e.contains("RDI address 'zz' is not a number (decimal or 0x hex)"), "{e}");
    // No bytes at all is not a write (it once reported "covered 0 of 16 bytes" and exit 0).
    for empty in ["", "0x", " "] {
        let e = err(&["xf", "rdi", "decode", "--gpu", "NV20", "--addr", "1", empty]);
        assert!(e.contains("are empty"), "{e}");
    }
    // A float beyond f32 is refused, not turned into infinity.
    let e = err(&["xf", "rdi", "encode", "--gpu", "NV20", "f:1e40", "0", "0", "0"]);
    assert!(e.contains("word 'f:1e40'") && e.contains("at most 3.4028235e38"), "{e}");
    let tmp = Scratch::new("xf");
    let bad = tmp.path("big.xft");
    for (line, want) in [
        ("pipe 0xffffffffffffffff 1", "line 2: wrapped address '0xffffffffffffffff' is out of range (at most 0x1ffff)"),
        ("write vab 99999999999 1", "line 2: address '99999999999' is out of range (at most 0xffc)"),
        ("pipe 0xg 1", "line 2: wrapped address '0xg' is not a number (decimal or 0x hex)"),
    ] {
        std::fs::write(&bad, format!("gpu NV20\n{line}\n")).unwrap();
        let e = err(&["xf", "decode", bad.to_str().unwrap()]);
        assert!(e.contains(want), "{e}");
        assert_eq!(e.trim().lines().count(), 1, "{e}");
    }
}

/// A long trace (220,000 operations, 9.5 MB) is decoded and run within 200 MB of address
/// space: output is written as it is made, and only the form asked for is built. Before,
/// `xf decode` built both text and JSON for every line and `xf run --json` a `Value` per event
/// before printing anything; each aborted here (about 64 bytes of memory per trace byte).
#[cfg(target_os = "linux")]
#[test]
fn long_traces_stream_in_bounded_memory() {
    let body: String = std::fs::read_to_string(data("pipe_constants.xft"))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#') && !l.starts_with("gpu"))
        .map(|l| format!("{l}\n"))
        .collect();
    let reps = 20_000;
    let tmp = Scratch::new("xf");
    let path = tmp.path("long.xft");
    std::fs::write(&path, format!("gpu NV2A\n{}", body.repeat(reps))).unwrap();
    let p = path.to_str().unwrap();
    let limited = |args: &[&str]| {
        // `ulimit -v` (KiB) caps the address space of the `exec`ed binary.
        let out = Command::new("sh")
            .arg("-c")
            // One malloc arena: glibc reserves 64 MiB of address space for each thread
            // that allocates, which would race the program's own buffers under the limit.
            .env("MALLOC_ARENA_MAX", "1")
            .arg("ulimit -v 200000 && exec \"$0\" \"$@\"")
            .arg(BIN)
            .args(args)
            .output()
            .expect("run sh");
        assert!(out.status.success(), "{args:?}: {:?} {}", out.status, String::from_utf8_lossy(&out.stderr));
        out.stdout
    };
    let items = 11 * reps;
    let text = limited(&["xf", "decode", p]);
    assert_eq!(text.iter().filter(|&&b| b == b'\n').count(), items + 1, "a header and one line per operation");
    let v: Value = serde_json::from_slice(&limited(&["xf", "decode", p, "--json"])).expect("valid JSON");
    let a = v.as_array().unwrap();
    assert_eq!(a.len(), items);
    assert_eq!(a[items - 1]["op"], "vertex");
    assert_eq!(a[items - 1]["line"], 1 + items);
    let v: Value = serde_json::from_slice(&limited(&["xf", "run", p, "--json"])).expect("valid JSON");
    assert_eq!(v["events"].as_array().unwrap().len(), 3 * reps, "two commits and a vertex per repetition");
    assert_eq!(v["gpu"], "NV2A");
}

/// `xf run` runs the model while it writes: a trace with one event per line (300,000 `vertex`
/// lines, 2.1 MB) runs in both forms under a 100 MB address-space limit. Before session 11 the
/// events were gathered first (and the text form into one string): the text run aborted and the
/// JSON run printed nothing under this limit.
#[test]
fn run_streams_its_events_in_bounded_memory() {
    let lines = 300_000;
    let tmp = Scratch::new("xf");
    let trace = tmp.path("vertices.xft");
    let out = tmp.path("vertices.out");
    std::fs::write(&trace, format!("gpu NV2A\n{}", "vertex\n".repeat(lines))).unwrap();
    let limited = |json: bool| {
        let mut args = vec!["xf", "run", trace.to_str().unwrap()];
        if json {
            args.push("--json");
        }
        // `ulimit -v` (KiB) caps the address space of the `exec`ed binary; its output goes to a
        // file, so the test does not hold it either.
        let st = Command::new("sh")
            .arg("-c")
            // One malloc arena: glibc reserves 64 MiB of address space for each thread
            // that allocates, which would race the program's own buffers under the limit.
            .env("MALLOC_ARENA_MAX", "1")
            .arg("ulimit -v 100000 && exec \"$0\" \"$@\" > \"$OUT\"")
            .arg(BIN)
            .args(&args)
            .env("OUT", &out)
            .status()
            .expect("run sh");
        assert!(st.success(), "{args:?}: {st:?}");
        std::fs::metadata(&out).unwrap().len()
    };
    limited(false);
    let text = std::fs::read_to_string(&out).unwrap();
    let body: Vec<&str> = text.lines().collect();
    assert_eq!(body.len(), lines + 4, "header, `events:`, one line per vertex, hazards, `state:`");
    assert!(body[2].starts_with("  L2    vertex"), "{}", body[2]);
    assert!(body[lines + 1].starts_with(&format!("  L{}", lines + 1)), "{}", body[lines + 1]);
    assert_eq!(body[lines + 2], "hazards: 0");
    let len = limited(true);
    // The whole JSON is hundreds of MB: check its last bytes, where `state` follows the events.
    use std::io::{Read, Seek, SeekFrom};
    let mut f = std::fs::File::open(&out).unwrap();
    f.seek(SeekFrom::Start(len.saturating_sub(4096))).unwrap();
    let mut tail = String::new();
    f.read_to_string(&mut tail).unwrap();
    assert!(tail.contains(&format!("\"line\": {}", lines + 1)), "the last vertex's event is written");
    assert!(tail.contains("\"gpu\": \"NV2A\"") && tail.contains("\"state\": {"), "{tail}");
    assert!(tail.trim_end().ends_with('}'));
}

fn hardware(name: &str) -> String {
    format!("{}/../nvxf/tests/data/hardware/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// `--rules hardware` is the default, `document` is an alias of `overview`, and the
/// fine-grained flags override the rule set's own choices.
#[test]
fn rules_switch_with_overrides() {
    let k1 = hardware("K1_lt_rounding.xft");
    let default = json(&["xf", "run", &k1, "--json"]);
    let hw = json(&["xf", "run", &k1, "--json", "--rules", "hardware"]);
    assert_eq!(default, hw, "hardware is the default");
    assert_eq!(hw["options"]["rules"], "hardware");
    assert_eq!(hw["options"]["commit"], "hardware");
    assert_eq!(hw["options"]["lt_rounding"], "nearest");
    // K1: LTC commits on word 0 and rounds with the bits 10-17 condition.
    assert_eq!(hw["state"]["ltc"][1]["1"], Value::from(vec![0x3f83_fc00u32]));
    assert_eq!(hw["state"]["ltc"][1]["2"], Value::from(vec![0x7f80_0400u32]), "a NaN stays a NaN");
    let doc = json(&["xf", "run", &k1, "--json", "--rules", "document"]);
    let ovw = json(&["xf", "run", &k1, "--json", "--rules", "overview"]);
    assert_eq!(doc, ovw, "document is an alias of overview");
    assert!(ovw["state"]["ltc"][1].as_object().unwrap().is_empty(), "overview: word 0 does not commit");
    // Overrides on top of the hardware rules.
    let tr = json(&["xf", "run", &k1, "--json", "--lt-rounding", "truncate"]);
    assert_eq!(tr["options"]["rules"], "hardware");
    assert_eq!(tr["state"]["ltc"][1]["2"], Value::from(vec![0x7f80_0000u32]));
    let dc = json(&["xf", "run", &k1, "--json", "--commit", "document"]);
    assert!(dc["state"]["ltc"][1].as_object().unwrap().is_empty());
    let text = String::from_utf8(nvsurf(&["xf", "run", &k1]).stdout).unwrap();
    assert!(text.starts_with("# NV20 (kelvin), rules=hardware, commit=hardware, lt-rounding=nearest"), "{text}");
}

/// The Rankine TIMEOUT register and the Celsius fixed LTC entry through the CLI.
#[test]
fn timeout_and_fixed_entry_events() {
    let r1 = json(&["xf", "run", &hardware("R1_xtra_timeout.xft"), "--json"]);
    assert_eq!(r1["state"]["xtra_timeout"], 0x5678);
    assert_eq!(r1["events"][0]["kind"], "timeout");
    assert_eq!(r1["events"][0]["value"], 0x5678);
    let c5 = json(&["xf", "run", &hardware("C5_ltc_entry0_readonly.xft"), "--json"]);
    assert_eq!(c5["events"][0]["kind"], "dropped");
    assert_eq!(c5["events"][0]["reason"], "fixed_entry");
    assert!(c5["state"]["ltc"][1].as_object().unwrap().is_empty());
    let ovw = json(&["xf", "run", &hardware("R1_xtra_timeout.xft"), "--json", "--rules", "overview"]);
    assert_eq!(ovw["state"]["xtra_timeout"], Value::Null);
}

/// Every Celsius chip envytools names is accepted and wraps like NV15.
#[test]
fn every_celsius_chip_is_accepted() {
    let tmp = Scratch::new("xf");
    let t = tmp.path("wrap.xft");
    std::fs::write(&t, "pipe 0x4538 0xffff78cd\n").unwrap();
    for chip in ["NV10", "NV11", "NV15", "NV17", "NV18", "NV1A", "NV1F"] {
        let v = json(&["xf", "run", "--gpu", chip, t.to_str().unwrap(), "--json"]);
        assert_eq!(v["state"]["vab"][3], Value::from(vec![0u32, 0, 0xffff_78cd, 0]), "{chip}");
    }
}

/// NV40's passthrough slot: none by default (the overview), envytools' slot 16 on request.
#[test]
fn curie_pass_slot_is_selectable() {
    let tmp = Scratch::new("xf");
    let t = tmp.path("nv40.xft");
    std::fs::write(&t, "gpu NV40\nwrite xfctx 0x0 0x3f800000\nwrite xfctx 0xc 0x40000000\n").unwrap();
    let none = json(&["xf", "run", t.to_str().unwrap(), "--json"]);
    assert_eq!(none["options"]["curie_pass_slot"], "none");
    assert_eq!(none["state"]["vab"].as_array().unwrap().len(), 16);
    assert_eq!(none["events"][0]["kind"], "ignored");
    let env = json(&["xf", "run", t.to_str().unwrap(), "--json", "--curie-pass-slot", "envytools"]);
    assert_eq!(env["state"]["vab"].as_array().unwrap().len(), 17);
    assert_eq!(env["state"]["vab"][16], Value::from(vec![0x3f80_0000u32, 0, 0, 0x4000_0000]));
    assert_eq!(env["state"]["xfctx"]["0"], Value::from(vec![0x3f80_0000u32, 0, 0, 0x4000_0000]));
}

/// `xf rdi read|write` on a state that `xf run --json` wrote: every space both directions.
#[test]
fn rdi_spaces_read_and_write_states() {
    let tmp = Scratch::new("xf");
    let state = tmp.path("r1.json");
    let out = nvsurf(&["xf", "run", &hardware("R1_xtra_timeout.xft"), "--json"]);
    std::fs::write(&state, &out.stdout).unwrap();
    let s = state.to_str().unwrap();
    let r = json(&["xf", "rdi", "read", "--space", "xfpr", s, "--json"]);
    assert_eq!(r["space"], 0x10);
    assert_eq!(r["verified"], true);
    assert_eq!(r["words"][0x11a0 / 4], 0x5678, "TIMEOUT at +0x11a0");
    // Write TIMEOUT and an XFPR entry through RDI; the result is a state again.
    let w = json(&["xf", "rdi", "write", "--space", "0x10", "--addr", "0x10", s, "1", "2", "3", "0xffffffff"]);
    assert_eq!(w["state"]["xfpr"]["1"], Value::from(vec![0x01ff_ffffu32, 3, 2, 1]), "X cut to 25 bits");
    assert!(w["events"].as_array().unwrap().is_empty());
    std::fs::write(tmp.path("w.json"), serde_json::to_vec(&w).unwrap()).unwrap();
    let w2 = tmp.path("w.json");
    let back = json(&["xf", "rdi", "read", "--space", "xfpr", w2.to_str().unwrap(), "--json"]);
    assert_eq!(back["words"].as_array().unwrap()[4..8], [Value::from(1), 2.into(), 3.into(), 0x01ff_ffff.into()]);
    let part = json(&["xf", "rdi", "write", "--space", "xfctx", "--addr", "4", s, "7"]);
    assert_eq!(part["events"][0]["kind"], "rdi_damage");
    assert_eq!(part["state"]["xfctx"]["0"], Value::from(vec![0u32, 0, 7, 0]));
    for space in ["0x15", "0x16", "0x17", "0x19"] {
        let r = json(&["xf", "rdi", "read", "--space", space, s, "--json"]);
        assert!(!r["words"].as_array().unwrap().is_empty(), "{space}");
    }
    // Refused spaces and bad input: one line, exit 2, the rule named.
    for (args, want) in [
        (vec!["xf", "rdi", "read", "--space", "0x18", s], "NV25:NV30"),
        (vec!["xf", "rdi", "read", "--space", "0x12", s], "not an XF space"),
        (vec!["xf", "rdi", "write", "--space", "xfctx", "--addr", "0x100000", s, "1"], "out of range"),
        (vec!["xf", "rdi", "write", "--space", "xfctx", s, "zz"], "RDI word 'zz' is not a number"),
    ] {
        let out = nvsurf(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(want) && err.trim().lines().count() == 1, "{err}");
    }
}
