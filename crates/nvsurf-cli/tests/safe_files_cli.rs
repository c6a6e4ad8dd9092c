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
    std::fs::write(&dump, vec![0x11u8; 1 << 16]).unwrap();
    let (rc, _, err) = run(&args, &[]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(contents(&split).len(), 4);
    let bytes: Vec<u8> = (0..1u32 << 16).map(|i| (i % 251) as u8).collect();
    std::fs::write(&dump, bytes).unwrap();
    let new = new_contents(&args, &split);
    let (failed, partial) = fail_every_write(&args, &split, &new);
    // Four file writes, four renames: the 2nd to 4th renames' failures name files replaced.
    assert!(failed >= 8 && partial == 3, "{failed} {partial}");
}
