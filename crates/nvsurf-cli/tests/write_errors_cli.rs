//! A failed write is one line and status 2, never a panic: every subcommand that clap defines
//! (read from the command definition itself, so a new command is covered or fails this test)
//! runs with arguments that print, into `/dev/full`.

use std::path::Path;
use std::process::{Command, Stdio};

mod scratch;
use scratch::Scratch;

/// Where a case's output goes: `/dev/full` is its stdout, or its output file (named in its
/// arguments), or it writes nothing at all.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Target {
    Stdout,
    File,
    Nothing,
}

/// The cases of each subcommand (its path of names, e.g. `xf rdi read`): arguments (split at
/// spaces) that make it print successfully. `{dump}` is a 64x64 RGBA8 dump, `{dir}` a scratch directory,
/// `{trace}` an XF trace and `{state}` the state `xf run --json` prints.
const CASES: &[(&str, Target, &str)] = &[
    ("layout", Target::Stdout, "--gpu gf100 --elem-size 4 --size 300x200 --block-log2 0,5,0"),
    ("layout", Target::Stdout, "--gpu gf100 --elem-size 4 --size 30x20 --map"),
    ("layout", Target::Stdout, "--gpu gf100 --elem-size 4 --size 30x20 --map --svg"),
    ("layout", Target::Stdout, "--gpu gf100 --elem-size 4 --size 30x20 --json"),
    ("addr", Target::Stdout, "--gpu g80 --elem-size 16 --size 13x17x3 --block-log2 1,1,1 --at 9,5,1"),
    ("addr", Target::Stdout, "--gpu g80 --elem-size 16 --size 13x17x3 --box 0,0,0,13,17,3"),
    ("untile", Target::File, "--gpu gf100 --format A8B8G8R8 --size 64x64 --input {dump} --output /dev/full"),
    ("untile", Target::Stdout, "--gpu gf100 --format A8B8G8R8 --size 64x64 --input {dump} --output -"),
    ("untile", Target::Stdout, "--gpu gf100 --format A8B8G8R8 --size 64x64 --input {dump} --output {dir}/u.bin --json"),
    ("tile", Target::File, "--gpu gf100 --format A8B8G8R8 --size 64x64 --input {dump} --output /dev/full"),
    ("tile", Target::Stdout, "--gpu gf100 --format A8B8G8R8 --size 64x64 --input {dump} --output {dir}/t.bin --json"),
    ("formats", Target::Stdout, ""),
    ("formats", Target::Stdout, "--json"),
    ("formats", Target::Stdout, "--gpu gf100"),
    ("decode", Target::Stdout, "--format 11_11_10 --hex 0000807c"),
    ("decode", Target::Stdout, "--format 11_11_10 --hex 0000807c --json"),
    ("convert", Target::File, "--format A8B8G8R8 --size 64x64 --input {dump} --output /dev/full"),
    ("convert", Target::Stdout, "--format A8B8G8R8 --size 64x64 --input {dump} --output {dir}/c.png --json"),
    ("xf decode", Target::Stdout, "{trace}"),
    ("xf decode", Target::Stdout, "{trace} --json"),
    ("xf run", Target::Stdout, "--gpu nv2a {trace}"),
    ("xf run", Target::Stdout, "--gpu nv2a {trace} --json"),
    ("xf rdi encode", Target::Stdout, "--gpu NV20 1 2 3 4"),
    ("xf rdi read", Target::Stdout, "--space xfpr {state}"),
    ("xf rdi write", Target::Stdout, "--space xfctx --addr 4 {state} 7"),
    ("xf rdi decode", Target::Stdout, "--gpu NV20 --addr 0x34 0102030405060708"),
    ("xf info", Target::Stdout, ""),
    ("xf info", Target::Stdout, "--json"),
    ("msaa", Target::Stdout, "--mode ms8_cs8"),
    ("msaa", Target::Stdout, "--mode ms8_cs8 --json"),
    ("resolve", Target::File, "--gpu g80 --ms-mode ms4_cs4 --format A8B8G8R8 --size 32x32 --block-log2 0,1,0 --input {dump} --output /dev/full"),
    ("resolve", Target::Stdout, "--gpu g80 --ms-mode ms4_cs4 --format A8B8G8R8 --size 32x32 --block-log2 0,1,0 --input {dump} --output {dir}/r.png"),
    ("storage list", Target::Stdout, "--gpu g84"),
    ("storage check", Target::Stdout, "--gpu g84 --storage-type 0x78 --compression single --format 4 --ms-mode ms4 --memory vram --binding color"),
    ("storage suggest", Target::Stdout, "--gpu gf100 --format Z24_S8 --ms-mode ms4"),
    ("storage suggest", Target::Stdout, "--gpu gm107 --format A8B8G8R8 --driver nvk --json"),
    ("modifier decode", Target::Stdout, "0x0300000000606015"),
    ("modifier decode", Target::Stdout, "0x0300000000606015 --json"),
    ("modifier list", Target::Stdout, "--gpu ga102 --format A8B8G8R8"),
    ("modifier list", Target::Stdout, "--gpu ga102 --format A8B8G8R8 --json"),
    ("texture", Target::Stdout, "--gpu gf100 --type 2d --elem-size 4 --size 300x200 --levels 9 --block-log2 0,5,0"),
    ("texture", Target::Stdout, "--gpu gf100 --type 2d --elem-size 4 --size 300x200 --levels 9 --json"),
    ("guess", Target::Stdout, "--gpu gm20b --format RGBA8_UNORM --size 64x64 --input {dump}"),
    ("guess", Target::Stdout, "--gpu gm20b --format RGBA8_UNORM --size 64x64 --input {dump} --json"),
    // `clean` reports on stderr only: it must keep stdout empty.
    ("clean", Target::Nothing, "{dir}"),
    ("completions", Target::Stdout, "bash"),
    ("completions", Target::Stdout, "zsh"),
    ("man", Target::Stdout, ""),
];

/// Every leaf subcommand's path of names (`xf rdi read`), clap's own `help` left out.
fn leaves(cmd: &clap::Command, prefix: &str, out: &mut Vec<String>) {
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        let path = if prefix.is_empty() { sub.get_name().to_string() } else { format!("{prefix} {}", sub.get_name()) };
        if sub.has_subcommands() {
            leaves(sub, &path, out);
        } else {
            out.push(path);
        }
    }
}

/// Runs `nvsurf PATH ARGS` with stdout into `stdout` (the file `/dev/full`, or a pipe);
/// returns the status and what it wrote on stdout and stderr.
fn run(path: &str, args: &[String], full_stdout: bool) -> (Option<i32>, Vec<u8>, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_nvsurf"));
    c.args(path.split(' ')).args(args).stdin(Stdio::null());
    if full_stdout {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full opens for writing");
        c.stdout(Stdio::from(full));
    }
    let out = c.output().unwrap();
    (out.status.code(), out.stdout, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// The arguments of a case with its placeholders filled.
fn fill(args: &str, tmp: &Scratch, state: &Path) -> Vec<String> {
    let trace = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/xf/pipe_constants.xft");
    let dump = tmp.path("dump.bin");
    args.split_whitespace()
        .map(|a| {
            a.replace("{dump}", dump.to_str().unwrap())
                .replace("{dir}", tmp.dir().to_str().unwrap())
                .replace("{trace}", trace)
                .replace("{state}", state.to_str().unwrap())
        })
        .collect()
}

#[test]
fn every_subcommand_into_dev_full_is_one_error_line_and_status_2() {
    let mut paths = Vec::new();
    leaves(&nvsurf_cli::command(), "", &mut paths);
    assert!(paths.len() >= 20 && paths.iter().any(|p| p == "xf rdi read"), "{paths:?}");
    let missing: Vec<&String> = paths.iter().filter(|p| !CASES.iter().any(|(c, ..)| c == p)).collect();
    assert!(missing.is_empty(), "subcommands without a case in CASES (add one that prints): {missing:?}");
    let stale: Vec<&str> = CASES.iter().map(|(c, ..)| *c).filter(|c| !paths.iter().any(|p| p == c)).collect();
    assert!(stale.is_empty(), "cases of subcommands clap does not define: {stale:?}");

    let tmp = Scratch::new("write-errors");
    // A 64x64 RGBA8 dump of varied bytes, and the state of a trace run.
    let dump: Vec<u8> = (0u32..64 * 64 * 4).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    std::fs::write(tmp.path("dump.bin"), dump).unwrap();
    let state = tmp.path("state.json");
    let (code, out, err) = run("xf run", &fill("--gpu nv2a {trace} --json", &tmp, &state), false);
    assert_eq!(code, Some(0), "{err}");
    std::fs::write(&state, out).unwrap();

    for (path, target, args) in CASES {
        let args = fill(args, &tmp, &state);
        // The case prints when its output can be written (a file case into a scratch file of
        // the same kind: no extension): the arguments are valid.
        let ok = tmp.path("ok").to_str().unwrap().to_string();
        let writable: Vec<String> =
            args.iter().map(|a| if a == "/dev/full" { ok.clone() } else { a.clone() }).collect();
        assert_eq!(
            writable != args,
            *target == Target::File,
            "nvsurf {path} {args:?}: /dev/full is the output of file cases"
        );
        let (code, out, err) = run(path, &writable, false);
        assert_eq!(code, Some(0), "nvsurf {path} {args:?} fails on its own: {err}");
        // A stdout case prints there; a file case may say what it wrote; `Nothing` prints nothing.
        let printed = if *target == Target::File { !out.is_empty() } else { *target == Target::Stdout };
        assert_eq!(!out.is_empty(), printed, "nvsurf {path} {args:?}: stdout {} bytes", out.len());
        if *target == Target::Nothing {
            let (code, _, err) = run(path, &args, true);
            assert_eq!(code, Some(0), "nvsurf {path} {args:?}: {err}");
            continue;
        }
        let (code, _, err) = run(path, &args, true);
        let what = format!("nvsurf {path} {args:?} into /dev/full ({target:?}): status {code:?}, stderr:\n{err}");
        assert!(!err.contains("panicked"), "{what}");
        assert_eq!(code, Some(2), "{what}");
        assert_eq!(err.lines().count(), 1, "{what}");
        assert!(err.starts_with("error: ") && err.contains("No space left on device"), "{what}");
        let named = if *target == Target::File { "'/dev/full'" } else { "stdout" };
        assert!(err.contains(named), "the error names the output ({named}): {what}");
    }
}

/// A closed pipe (`nvsurf formats | head -1`) is a failed write too: one line, status 2.
#[test]
fn a_closed_pipe_is_one_error_line_and_status_2() {
    // The reader is gone before nvsurf starts: its first write fails.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_nvsurf"))
        .args(["formats", "--json"])
        .stdin(Stdio::null())
        .stdout(writer)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: cannot write stdout: Broken pipe"), "{err}");
}
