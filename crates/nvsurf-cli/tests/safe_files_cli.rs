//! Safe files (issue 27, item 3): exclusive, randomly named temporary files; the replaced
//! file's mode and owner kept; read-only files refused without `--force`; hard links warned
//! of; multi-file outputs replaced as a group; full-disk paths through the write hook
//! (`NVSURF_FAIL_WRITE_AT`), crashes through `NVSURF_CRASH_AT_WRITE` (src/io/hooks.rs).

mod scratch;
use scratch::Scratch;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::Command;

/// Runs nvsurf with `args` and extra environment variables: (status, stdout, stderr).
fn run(args: &[&str], env: &[(&str, String)]) -> (i32, String, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_nvsurf"));
    c.args(args);
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The names in `dir` holding nvsurf's temporary-file mark.
fn temps(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.contains(".nvsurf-tmp-"))
        .collect();
    v.sort();
    v
}

/// `convert` of 4x4 raw RGBA8 elements to a raw file: the simplest command that writes one file.
fn convert_raw<'a>(input: &'a Path, output: &'a Path) -> Vec<&'a str> {
    vec!["convert", "--format", "RGBA8_UNORM", "--size", "4x4", "--input", s(input), "--output", s(output)]
}

#[test]
fn temporary_files_are_exclusive_random_and_recognisable() {
    let tmp = Scratch::new("safe-temp");
    let (input, out) = (tmp.path("in.bin"), tmp.path("out.bin"));
    std::fs::write(&input, [7u8; 64]).unwrap();
    // A crash at the first write leaves the temporary file (as a SIGKILL would): its name is
    // `.out.bin.nvsurf-tmp-PID-XXXXXX.bin`, and two runs pick different names.
    for _ in 0..2 {
        let (rc, _, _) = run(&convert_raw(&input, &out), &[("NVSURF_CRASH_AT_WRITE", "1".into())]);
        assert_eq!(rc, 86);
    }
    let left = temps(tmp.dir());
    assert_eq!(left.len(), 2, "{left:?}");
    for n in &left {
        let rest = n.strip_prefix(".out.bin.nvsurf-tmp-").unwrap_or_else(|| panic!("{n}"));
        let (pid, rand) = rest.strip_suffix(".bin").unwrap().split_once('-').unwrap();
        assert!(pid.parse::<u32>().is_ok() && rand.len() == 6, "{n}");
    }
    assert!(!out.exists());
    for n in &left {
        std::fs::remove_file(tmp.path(n)).unwrap();
    }
    // A symlink planted where a temporary file could be named leads nowhere: the write makes
    // its own file (O_EXCL) and the victim is untouched.
    let victim = tmp.path("victim");
    std::fs::write(&victim, b"precious").unwrap();
    for pid in 1..50 {
        std::os::unix::fs::symlink(&victim, tmp.path(&format!(".out.bin.nvsurf-tmp-{pid}.bin"))).unwrap();
    }
    let (rc, _, err) = run(&convert_raw(&input, &out), &[]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
    assert_eq!(std::fs::read(&out).unwrap(), [7u8; 64]);
    assert!(std::fs::symlink_metadata(&out).unwrap().file_type().is_file());
}

#[test]
fn mode_and_owner_are_kept_read_only_needs_force_and_hard_links_are_warned_of() {
    let tmp = Scratch::new("safe-mode");
    let (input, out) = (tmp.path("in.bin"), tmp.path("out.bin"));
    std::fs::write(&input, [1u8; 64]).unwrap();
    // A new file gets the mode `File::create` would give it.
    let (rc, _, err) = run(&convert_raw(&input, &out), &[]);
    assert_eq!(rc, 0, "{err}");
    let reference = tmp.path("reference");
    std::fs::File::create(&reference).unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().mode() & 0o7777;
    assert_eq!(mode(&out), mode(&reference));

    // 0600 stays 0600 (it used to become 0644, world-readable).
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o600)).unwrap();
    std::fs::write(&input, [2u8; 64]).unwrap();
    let (rc, _, err) = run(&convert_raw(&input, &out), &[]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!((mode(&out), std::fs::read(&out).unwrap()), (0o600, vec![2u8; 64]));

    // The owner is kept where permitted (the tests run as root, who may give files away).
    let me = std::fs::metadata(&reference).unwrap().uid();
    if me == 0 {
        std::os::unix::fs::chown(&out, Some(4321), Some(4322)).unwrap();
        std::fs::write(&input, [3u8; 64]).unwrap();
        let (rc, _, err) = run(&convert_raw(&input, &out), &[]);
        assert_eq!(rc, 0, "{err}");
        let m = std::fs::metadata(&out).unwrap();
        assert_eq!((m.uid(), m.gid(), m.mode() & 0o7777), (4321, 4322, 0o600));
        assert_eq!(std::fs::read(&out).unwrap(), [3u8; 64]);
    }

    // 0444: refused in one line naming the file, the mode and the flag, unless --force.
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o444)).unwrap();
    let before = std::fs::read(&out).unwrap();
    std::fs::write(&input, [4u8; 64]).unwrap();
    let (rc, _, err) = run(&convert_raw(&input, &out), &[]);
    assert_eq!(rc, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(&format!("cannot write '{}'", out.display())) && err.contains("0444"), "{err}");
    assert!(err.contains("--force"), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), before);
    assert!(temps(tmp.dir()).is_empty());
    let mut forced = convert_raw(&input, &out);
    forced.push("--force");
    let (rc, _, err) = run(&forced, &[]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!((mode(&out), std::fs::read(&out).unwrap()), (0o444, vec![4u8; 64]));
    // --force is global: before the command's name too.
    std::fs::write(&input, [5u8; 64]).unwrap();
    let mut first = vec!["--force"];
    first.extend(convert_raw(&input, &out));
    let (rc, _, err) = run(&first, &[]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), [5u8; 64]);

    // A second hard link: one warning line, the output replaced, the other name keeps the
    // old content.
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o644)).unwrap();
    let other = tmp.path("other-name.bin");
    std::fs::hard_link(&out, &other).unwrap();
    std::fs::write(&input, [6u8; 64]).unwrap();
    let (rc, _, err) = run(&convert_raw(&input, &out), &[]);
    assert_eq!(rc, 0, "{err}");
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning:")).collect();
    assert_eq!(warnings.len(), 1, "{err}");
    assert!(warnings[0].contains("2 hard links") && warnings[0].contains("out.bin"), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), [6u8; 64]);
    assert_eq!(std::fs::read(&other).unwrap(), [5u8; 64]);
}

/// The files of `dir` (no temporary files) and their bytes.
fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| (p.file_name().unwrap().to_str().unwrap().to_string(), std::fs::read(&p).unwrap()))
        .collect();
    v.sort();
    v
}

/// Runs `args` (which write the files of `dir` again, with new content) with the write hook
/// failing the Nth write, for N = 1, 2, ... until a run succeeds. Each failing run exits 2 with
/// one "cannot write '...': No space left on device" line and leaves no temporary file; the
/// files are all old, or (a failure among a group's renames) the ones the error names as
/// already replaced are new and the rest old. Returns how many runs failed and how many of
/// them failed among the renames with files already replaced.
fn fail_every_write(args: &[&str], dir: &Path, new: &[(String, Vec<u8>)]) -> (u32, u32) {
    let old = contents(dir);
    let mut partial = 0;
    for n in 1..500u32 {
        let (rc, _, err) = run(args, &[("NVSURF_FAIL_WRITE_AT", n.to_string())]);
        if rc == 0 {
            assert_eq!(contents(dir), new, "after a run without an error");
            return (n - 1, partial);
        }
        assert_eq!(rc, 2, "write {n}: {err}");
        assert_eq!(err.lines().count(), 1, "write {n}: {err}");
        assert!(err.contains("cannot write '") && err.contains("No space left on device"), "write {n}: {err}");
        assert!(temps(dir).is_empty(), "write {n}: {:?}", temps(dir));
        let now = contents(dir);
        if let Some((_, names)) = err.split_once("already replaced: ") {
            partial += 1;
            for ((name, bytes), (_, was)) in now.iter().zip(&old) {
                let want = if names.contains(&format!("{name}'")) {
                    &new.iter().find(|(n, _)| n == name).unwrap().1
                } else {
                    was
                };
                assert!(bytes == want, "write {n}: {name} ({err})");
            }
            // Put the old set back for the next run.
            for (name, bytes) in &old {
                std::fs::write(dir.join(name), bytes).unwrap();
            }
        } else {
            assert!(now == old, "write {n}: the old files changed ({err})");
        }
    }
    panic!("no run succeeded");
}

/// Runs `args` once in a scratch copy to learn what the new files hold.
fn new_contents(args: &[&str], dir: &Path) -> Vec<(String, Vec<u8>)> {
    let keep = contents(dir);
    let (rc, _, err) = run(args, &[]);
    assert_eq!(rc, 0, "{err}");
    let new = contents(dir);
    for (name, bytes) in &keep {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    new
}

#[test]
fn the_z24_s8_pair_is_replaced_as_a_group() {
    let tmp = Scratch::new("safe-z24s8");
    let (input, outdir) = (tmp.path("z.bin"), tmp.path("out"));
    std::fs::create_dir(&outdir).unwrap();
    let z = outdir.join("z.png");
    let args = ["convert", "--format", "Z24_S8", "--size", "8x4", "--input", s(&input), "--output", s(&z)];
    let old: Vec<u8> = (0..128u32).map(|i| (i * 7) as u8).collect();
    std::fs::write(&input, &old).unwrap();
    let (rc, _, err) = run(&args, &[]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(contents(&outdir).len(), 2, "z.png and z.stencil.png");
    std::fs::write(&input, old.iter().map(|b| b ^ 0x5a).collect::<Vec<u8>>()).unwrap();
    let new = new_contents(&args, &outdir);
    assert!(new.iter().zip(contents(&outdir)).all(|(a, b)| a.1 != b.1), "both files change");
    let (failed, partial) = fail_every_write(&args, &outdir, &new);
    // Two file writes, two renames: the second rename's failure names the first file.
    assert!(failed >= 4 && partial == 1, "{failed} {partial}");
}

#[test]
fn split_outputs_are_replaced_as_a_group() {
    let tmp = Scratch::new("safe-split");
    const TEX: &str = "--gpu gf100 --type 2d_array --elem-size 4 --size 16x8 --levels 2 --layers 2 --block-log2 0,1,0";
    let (dump, split) = (tmp.path("dump.bin"), tmp.path("split"));
    let mut args = vec!["untile", "--texture"];
    args.extend(TEX.split_whitespace());
    args.extend(["--input", s(&dump), "--split", s(&split)]);
    // The texture's own 2048 bytes (a larger dump would add untile's note line).
    std::fs::write(&dump, vec![0x11u8; 2048]).unwrap();
    let (rc, _, err) = run(&args, &[]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(contents(&split).len(), 4);
    let bytes: Vec<u8> = (0..2048u32).map(|i| (i % 251) as u8).collect();
    std::fs::write(&dump, bytes).unwrap();
    let new = new_contents(&args, &split);
    let (failed, partial) = fail_every_write(&args, &split, &new);
    // Four file writes, four renames: the 2nd to 4th renames' failures name files replaced.
    assert!(failed >= 8 && partial == 3, "{failed} {partial}");
}

#[test]
fn leftovers_are_reported_and_clean_removes_only_them() {
    let tmp = Scratch::new("safe-clean");
    let (input, out) = (tmp.path("in.bin"), tmp.path("out.bin"));
    std::fs::write(&input, [9u8; 64]).unwrap();
    for _ in 0..2 {
        let (rc, _, _) = run(&convert_raw(&input, &out), &[("NVSURF_CRASH_AT_WRITE", "1".into())]);
        assert_eq!(rc, 86);
    }
    assert_eq!(temps(tmp.dir()).len(), 2);
    // Things clean must leave: a symlink with a temporary file's name pointing out of the
    // directory, a file of another name, a directory.
    let outside = Scratch::new("safe-clean-outside");
    let victim = outside.path("victim.nvsurf-tmp-1-abcdef");
    std::fs::write(&victim, b"keep").unwrap();
    std::os::unix::fs::symlink(&victim, tmp.path(".x.nvsurf-tmp-1-abcdef")).unwrap();
    std::fs::write(tmp.path("keep.bin"), b"keep").unwrap();
    std::fs::create_dir(tmp.path(".d.nvsurf-tmp-1-abcdef")).unwrap();
    // The next run in the directory reports them in one line.
    let (rc, _, err) = run(&convert_raw(&input, &out), &[]);
    assert_eq!(rc, 0, "{err}");
    let d = tmp.dir().display().to_string();
    assert!(
        err.contains(&format!("2 leftover temp files from an interrupted run in {d}; `nvsurf clean {d}` removes them")),
        "{err}"
    );
    let (rc, _, err) = run(&["clean", &d], &[]);
    assert_eq!(rc, 0, "{err}");
    assert!(err.contains("removed 2 leftover temp files"), "{err}");
    let mut left = temps(tmp.dir());
    left.sort();
    assert_eq!(left, [".d.nvsurf-tmp-1-abcdef", ".x.nvsurf-tmp-1-abcdef"]);
    assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
    assert_eq!(std::fs::read(tmp.path("keep.bin")).unwrap(), b"keep");
    assert_eq!(std::fs::read(&out).unwrap(), [9u8; 64]);
    let (rc, _, err) = run(&["clean", s(&tmp.path("keep.bin"))], &[]);
    assert_eq!((rc, err.lines().count()), (2, 1), "{err}");
}

const SURF: [&str; 6] = ["--gpu", "gf100", "--elem-size", "4", "--size", "64x64"];

/// `tile --onto DUMP --in-place` of a 64x64 surface at `offset` (and a box, if given).
fn in_place_args<'a>(lin: &'a Path, dump: &'a Path, offset: &'a str, boxed: Option<&'a str>) -> Vec<&'a str> {
    let mut a = vec!["tile"];
    a.extend(SURF);
    a.extend(["--input", s(lin), "--onto", s(dump), "--in-place", "--offset", offset]);
    if let Some(b) = boxed {
        a.extend(["--box", b]);
    }
    a
}

/// A deterministic byte pattern.
fn noise(n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

#[test]
fn in_place_patches_survive_a_crash_at_every_write() {
    let tmp = Scratch::new("safe-inplace");
    let (lin, dump, copy) = (tmp.path("lin.bin"), tmp.path("dump.bin"), tmp.path("copy.bin"));
    std::fs::write(&lin, noise(64 * 64 * 4, 1)).unwrap();
    let old = noise(1 << 18, 2);
    for boxed in [None, Some("3,5,0,40,30,1")] {
        // The whole new version, from the copying path.
        std::fs::write(&dump, &old).unwrap();
        let mut a = vec!["tile"];
        a.extend(SURF);
        a.extend(["--input", s(&lin), "--onto", s(&dump), "--output", s(&copy), "--offset", "8192"]);
        if let Some(b) = boxed {
            a.extend(["--box", b]);
        }
        let (rc, _, err) = run(&a, &[]);
        assert_eq!(rc, 0, "{err}");
        let new = std::fs::read(&copy).unwrap();
        assert_ne!(new, old);
        let args = in_place_args(&lin, &dump, "8192", boxed);
        let mut crashes = 0;
        for n in 1..1000u32 {
            std::fs::write(&dump, &old).unwrap();
            let (rc, _, err) = run(&args, &[("NVSURF_CRASH_AT_WRITE", n.to_string())]);
            if rc == 0 {
                assert!(std::fs::read(&dump).unwrap() == new, "{boxed:?}: a run without a crash");
                break;
            }
            assert_eq!(rc, 86, "{boxed:?} write {n}: {err}");
            crashes += 1;
            // A crash at any write leaves the dump whole once the next run (here `clean`,
            // and a tile at every other N) has rolled the journal back.
            let (rc, _, err) = if n % 2 == 0 { run(&["clean", s(tmp.dir())], &[]) } else { run(&args, &[]) };
            assert_eq!(rc, 0, "{boxed:?} write {n}: {err}");
            let now = std::fs::read(&dump).unwrap();
            if n % 2 == 0 {
                assert!(now == old || now == new, "{boxed:?} write {n}: neither old nor new");
            } else {
                // The rerun rolled back, then patched: new.
                assert!(now == new, "{boxed:?} write {n}: the rerun did not give the new version");
            }
            assert!(!tmp.path(".dump.bin.nvsurf-journal").exists(), "{boxed:?} write {n}");
        }
        assert!(crashes >= 6, "{boxed:?}: {crashes} crash points");
    }
}

#[test]
fn in_place_patches_survive_sigkill_at_random_times() {
    let tmp = Scratch::new("safe-sigkill");
    let (lin, dump) = (tmp.path("lin.bin"), tmp.path("dump.bin"));
    let (w, h) = (1024usize, 1024usize);
    std::fs::write(&lin, noise(w * h * 4, 3)).unwrap();
    let old = noise(w * h * 4 + (1 << 20), 4);
    let size = format!("{w}x{h}");
    let args = |out: &Path, in_place: bool| {
        let mut a: Vec<String> = ["tile", "--gpu", "gf100", "--elem-size", "4", "--size", &size, "--offset", "65536"]
            .iter()
            .map(|x| x.to_string())
            .collect();
        a.extend(["--input".into(), s(&lin).into(), "--onto".into(), s(&dump).into()]);
        a.push(if in_place { "--in-place".into() } else { format!("--output={}", s(out)) });
        a
    };
    std::fs::write(&dump, &old).unwrap();
    let copy = tmp.path("copy.bin");
    let st = Command::new(env!("CARGO_BIN_EXE_nvsurf")).args(args(&copy, false)).output().unwrap();
    assert!(st.status.success(), "{}", String::from_utf8_lossy(&st.stderr));
    let new = std::fs::read(&copy).unwrap();
    std::fs::remove_file(&copy).unwrap();
    // How long a whole run takes here, to spread the kills over it.
    let t = std::time::Instant::now();
    let st = Command::new(env!("CARGO_BIN_EXE_nvsurf")).args(args(&dump, true)).output().unwrap();
    assert!(st.status.success());
    let span_us = t.elapsed().as_micros().max(1000) as u64;
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let (mut killed, mut finished) = (0, 0);
    for _ in 0..30 {
        std::fs::write(&dump, &old).unwrap();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let wait = std::time::Duration::from_micros(seed % (span_us + span_us / 4));
        let mut child = Command::new(env!("CARGO_BIN_EXE_nvsurf"))
            .args(args(&dump, true))
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(wait);
        let _ = child.kill(); // SIGKILL
        let st = child.wait().unwrap();
        if st.success() {
            finished += 1;
        } else {
            killed += 1;
        }
        let (rc, _, err) = run(&["clean", s(tmp.dir())], &[]);
        assert_eq!(rc, 0, "{err}");
        let now = std::fs::read(&dump).unwrap();
        assert!(now == old || now == new, "after a kill at {wait:?}: neither old nor new");
        assert!(!tmp.path(".dump.bin.nvsurf-journal").exists());
    }
    assert!(killed > 0, "{killed} killed, {finished} finished");
}

#[test]
fn every_command_path_reports_a_full_disk_and_keeps_the_old_files() {
    let tmp = Scratch::new("safe-full");
    let dir = tmp.dir();
    let lin = tmp.path("lin.bin");
    std::fs::write(&lin, noise(64 * 64 * 4, 5)).unwrap();
    let base = tmp.path("base.bin");
    std::fs::write(&base, noise(1 << 16, 6)).unwrap();
    let out_dir = tmp.path("out");
    std::fs::create_dir(&out_dir).unwrap();
    let o = |n: &str| out_dir.join(n).to_str().unwrap().to_string();
    let rgba = ["--format", "A8B8G8R8"];
    let mut cases: Vec<Vec<String>> = Vec::new();
    let v = |a: &[&str]| a.iter().map(|x| x.to_string()).collect::<Vec<String>>();
    let mut tile = v(&["tile"]);
    tile.extend(v(&SURF));
    tile.extend(v(&["--input", s(&lin), "--output", &o("t.bin")]));
    cases.push(tile.clone());
    let mut onto = v(&["tile"]);
    onto.extend(v(&SURF));
    onto.extend(v(&["--input", s(&lin), "--onto", s(&base), "--offset", "4096", "--output", &o("onto.bin")]));
    cases.push(onto.clone());
    onto.extend(v(&["--box", "1,2,0,30,20,1"]));
    cases.push(onto);
    // `untile` to PNG goes through the streamed encoder: every write error must surface.
    for ext in ["bin", "png", "exr", "dds"] {
        let mut u = v(&["untile", "--gpu", "gf100", "--size", "64x64", "--input", s(&base)]);
        u.extend(v(&rgba));
        u.extend(v(&["--output", &o(&format!("u.{ext}"))]));
        cases.push(u);
        let mut c = v(&["convert", "--format", "RGBA8_UNORM", "--size", "64x64", "--input", s(&lin)]);
        c.extend(v(&["--output", &o(&format!("c.{ext}"))]));
        cases.push(c);
    }
    cases.push(v(&["msaa", "--ms-mode", "ms4", "--picture", &o("ms.png")]));
    for case in &cases {
        let args: Vec<&str> = case.iter().map(String::as_str).collect();
        // An old file to keep, then the new one to learn its bytes.
        let (rc, _, err) = run(&args, &[]);
        assert_eq!(rc, 0, "{args:?}: {err}");
        for f in std::fs::read_dir(&out_dir).unwrap() {
            let p = f.unwrap().path();
            std::fs::write(&p, b"old content").unwrap();
        }
        let new = new_contents(&args, &out_dir);
        let (failed, _) = fail_every_write(&args, &out_dir, &new);
        assert!(failed >= 2, "{args:?}: {failed}");
    }
    assert!(dir.exists());
}
