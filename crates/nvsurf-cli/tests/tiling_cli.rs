//! `nvsurf tile` / `nvsurf untile` through the binary.

use std::process::Command;

mod scratch;
use scratch::Scratch;

fn nvsurf(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nvsurf")).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), scratch::without_summary(&String::from_utf8_lossy(&out.stderr)))
}

fn pattern(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 7 + i / 251) as u8).collect()
}

const SURF: [&str; 8] = ["--gpu", "gm20b", "--elem-size", "4", "--size", "100x70", "--block-log2", "0,3,0"];

#[test]
fn round_trip_threads_box_and_pitch() {
    let tmp = Scratch::new("tiling");
    let lin = tmp.path("lin.bin");
    let tiled = tmp.path("tiled.bin");
    let back = tmp.path("back.bin");
    let data = pattern(100 * 70 * 4);
    std::fs::write(&lin, &data).unwrap();
    for gob in ["vm", "tegra"] {
        for threads in ["1", "2"] {
            let mut a = vec!["tile"];
            a.extend(SURF);
            a.extend([
                "--gob",
                gob,
                "--threads",
                threads,
                "--input",
                lin.to_str().unwrap(),
                "--output",
                tiled.to_str().unwrap(),
            ]);
            assert_eq!(nvsurf(&a).0, 0);
            // 100 x 4 bytes = 400 bytes = 7 gobs wide; 70 rows = 2 blocks of 8 gobs of 8 rows.
            assert_eq!(std::fs::metadata(&tiled).unwrap().len(), 7 * 2 * 8 * 512);
            let mut a = vec!["untile"];
            a.extend(SURF);
            a.extend([
                "--gob",
                gob,
                "--threads",
                threads,
                "--input",
                tiled.to_str().unwrap(),
                "--output",
                back.to_str().unwrap(),
            ]);
            assert_eq!(nvsurf(&a).0, 0);
            assert_eq!(std::fs::read(&back).unwrap(), data);
        }
    }
    // A box with a padded linear pitch: rows of 10 elements stored 48 bytes apart.
    let mut a = vec!["untile"];
    a.extend(SURF);
    a.extend([
        "--input",
        tiled.to_str().unwrap(),
        "--output",
        back.to_str().unwrap(),
        "--box",
        "5,3,0,10,4,1",
        "--linear-pitch",
        "48",
    ]);
    let _ = nvsurf(&[
        "tile",
        "--gpu",
        "gm20b",
        "--elem-size",
        "4",
        "--size",
        "100x70",
        "--block-log2",
        "0,3,0",
        "--input",
        lin.to_str().unwrap(),
        "--output",
        tiled.to_str().unwrap(),
    ]);
    assert_eq!(nvsurf(&a).0, 0);
    let got = std::fs::read(&back).unwrap();
    assert_eq!(got.len(), 48 * 4);
    for r in 0..4 {
        let want = &data[((3 + r) * 100 + 5) * 4..((3 + r) * 100 + 15) * 4];
        assert_eq!(&got[r * 48..r * 48 + 40], want, "row {r}");
    }
}

#[test]
fn short_input_says_how_many_bytes_were_expected() {
    let tmp = Scratch::new("tiling");
    let tiled = tmp.path("short.bin");
    std::fs::write(&tiled, vec![0u8; 1000]).unwrap();
    let out = tmp.path("never.bin");
    let mut a = vec!["untile"];
    a.extend(SURF);
    a.extend(["--input", tiled.to_str().unwrap(), "--output", out.to_str().unwrap()]);
    let (code, err) = nvsurf(&a);
    assert_eq!(code, 2);
    assert!(err.contains("holds 1000 bytes but 57344 bytes are expected"), "{err}");
    assert!(!out.exists(), "no output on error");
    let mut a = vec!["tile"];
    a.extend(SURF);
    a.extend(["--input", tiled.to_str().unwrap(), "--output", out.to_str().unwrap()]);
    let (code, err) = nvsurf(&a);
    assert_eq!(code, 2);
    assert!(err.contains("holds 1000 bytes but 28000 bytes are expected"), "{err}");
}

#[test]
fn existing_output_is_replaced() {
    let tmp = Scratch::new("tiling");
    let lin = tmp.path("lin2.bin");
    let out = tmp.path("out2.bin");
    std::fs::write(&lin, pattern(64 * 8)).unwrap();
    std::fs::write(&out, vec![0xffu8; 100_000]).unwrap();
    let (code, _) = tile_one_gob(&lin, &out);
    assert_eq!(code, 0);
    assert_eq!(std::fs::read(&out).unwrap(), pattern(64 * 8), "one gob, VM order: the same bytes");
}

/// `--threads` reaches whole textures too (split by level and layer, and within large levels):
/// a cube with a mip chain, a 3D texture and a pre-G80 swizzled cube give the same bytes on one
/// thread and on three, both ways, as plain files and through a DDS.
#[test]
fn texture_mode_threads_give_the_same_bytes() {
    let tmp = Scratch::new("tiling");
    let cases: [&[&str]; 3] = [
        &["--gpu", "gf100", "--format", "A8B8G8R8", "--size", "256x256", "--type", "cube", "--levels", "9"],
        &[
            "--gpu",
            "gm20b",
            "--gob",
            "tegra",
            "--elem-size",
            "8",
            "--size",
            "64x32x20",
            "--type",
            "3d",
            "--levels",
            "4",
        ],
        &["--gpu", "nv40", "--format", "A8R8G8B8", "--size", "128x128", "--type", "cube", "--levels", "8"],
    ];
    for (i, shape) in cases.iter().enumerate() {
        let run = |args: &[&str]| {
            let mut a = args.to_vec();
            a.push("--texture");
            a.extend(*shape);
            let (rc, err) = nvsurf(&a);
            assert_eq!(rc, 0, "{a:?}: {err}");
        };
        // A dump from a random linear file (tile), then each direction at 1 and 3 threads.
        let lin = tmp.path(&format!("tex{i}.lin"));
        let dump1 = tmp.path(&format!("tex{i}-t1.bin"));
        let dump3 = tmp.path(&format!("tex{i}-t3.bin"));
        let back1 = tmp.path(&format!("tex{i}-u1.lin"));
        let back3 = tmp.path(&format!("tex{i}-u3.lin"));
        // The size of the packed linear file: ask for it by untiling a zero dump at 1 thread.
        let zero = tmp.path(&format!("tex{i}-zero.bin"));
        std::fs::write(&zero, vec![0u8; 8 << 20]).unwrap();
        run(&["untile", "--threads", "1", "--input", zero.to_str().unwrap(), "--output", lin.to_str().unwrap()]);
        let n = std::fs::metadata(&lin).unwrap().len() as usize;
        std::fs::write(&lin, pattern(n)).unwrap();
        for (t, dump, back) in [("1", &dump1, &back1), ("3", &dump3, &back3)] {
            run(&["tile", "--threads", t, "--input", lin.to_str().unwrap(), "--output", dump.to_str().unwrap()]);
            run(&["untile", "--threads", t, "--input", dump.to_str().unwrap(), "--output", back.to_str().unwrap()]);
        }
        let (d1, d3) = (std::fs::read(&dump1).unwrap(), std::fs::read(&dump3).unwrap());
        assert!(d1 == d3, "case {i}: tile at 1 and 3 threads differ");
        assert_eq!(std::fs::read(&back1).unwrap(), pattern(n), "case {i}: round trip at 1 thread");
        assert_eq!(std::fs::read(&back3).unwrap(), pattern(n), "case {i}: round trip at 3 threads");
        if i == 0 {
            // Through a DDS (the picture path has its own call sites).
            let (dds1, dds3) = (tmp.path("tex-t1.dds"), tmp.path("tex-t3.dds"));
            let (re1, re3) = (tmp.path("tex-re1.bin"), tmp.path("tex-re3.bin"));
            for (t, dds, re) in [("1", &dds1, &re1), ("3", &dds3, &re3)] {
                run(&["untile", "--threads", t, "--input", dump1.to_str().unwrap(), "--output", dds.to_str().unwrap()]);
                run(&["tile", "--threads", t, "--input", dds.to_str().unwrap(), "--output", re.to_str().unwrap()]);
            }
            assert!(std::fs::read(&dds1).unwrap() == std::fs::read(&dds3).unwrap(), "DDS at 1 and 3 threads differ");
            assert!(std::fs::read(&re3).unwrap() == d1, "DDS round trip at 3 threads");
            assert!(std::fs::read(&re1).unwrap() == d1, "DDS round trip at 1 thread");
        }
    }
}

/// `--threads` out of 1..=1024 is refused in texture mode too, plain and DDS, with one line.
#[test]
fn texture_mode_refuses_bad_thread_counts() {
    let tmp = Scratch::new("tiling");
    let dump = tmp.path("threads-tex.bin");
    std::fs::write(&dump, vec![0u8; 1 << 20]).unwrap();
    for out in ["threads-tex.lin", "threads-tex.dds"] {
        // 0, and more than 4x the cores (checked before any thread starts).
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let too_many = (4 * cores + 1).to_string();
        for bad in ["0", too_many.as_str(), "1024"] {
            let out = tmp.path(out);
            let (rc, err) = nvsurf(&[
                "untile",
                "--texture",
                "--gpu",
                "gf100",
                "--format",
                "A8B8G8R8",
                "--size",
                "64x64",
                "--threads",
                bad,
                "--input",
                dump.to_str().unwrap(),
                "--output",
                out.to_str().unwrap(),
            ]);
            assert_eq!(rc, 2, "{bad}: {err}");
            assert_eq!(err.trim_end().lines().count(), 1, "{err}");
            assert!(err.contains("threads") && err.contains(bad), "{err}");
            assert!(!out.exists(), "no output on error");
        }
    }
}

/// One 64x8 gob of 1-byte elements on GF100 (VM order: tiled and linear bytes are the same).
/// One GF100 gob in the document's VM order (named: GF100's default is nil's Fermi order).
const ONE_GOB: [&str; 10] =
    ["--gpu", "gf100", "--elem-size", "1", "--size", "64x8", "--block-log2", "0,0,0", "--gob", "vm"];

/// `tile` of one 64x8 gob (VM order: the same bytes) from `lin` to `out`.
fn tile_one_gob(lin: &std::path::Path, out: &std::path::Path) -> (i32, String) {
    let mut a = vec!["tile"];
    a.extend(ONE_GOB);
    a.extend(["--input", lin.to_str().unwrap(), "--output", out.to_str().unwrap()]);
    nvsurf(&a)
}

#[cfg(unix)]
#[test]
fn output_symlink_replaces_its_target_and_stays_a_link() {
    // Review finding 6: the rename replaced the link with a regular file, target untouched.
    let tmp = Scratch::new("tiling");
    let dir = tmp.path("symlink_case");
    let target_dir = dir.join("real");
    std::fs::create_dir_all(&target_dir).unwrap();
    let target = target_dir.join("target.bin");
    std::fs::write(&target, vec![0xffu8; 100]).unwrap();
    let link = dir.join("link.bin");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&target, &link).unwrap();
    // A relative link through a second link as well.
    let link2 = dir.join("link2.bin");
    let _ = std::fs::remove_file(&link2);
    std::os::unix::fs::symlink("link.bin", &link2).unwrap();
    let lin = tmp.path("lin_symlink.bin");
    std::fs::write(&lin, pattern(64 * 8)).unwrap();
    for l in [&link, &link2] {
        std::fs::write(&target, vec![0xffu8; 100]).unwrap();
        let (code, err) = tile_one_gob(&lin, l);
        assert_eq!(code, 0, "{err}");
        assert!(std::fs::symlink_metadata(l).unwrap().file_type().is_symlink(), "{l:?} must stay a link");
        assert_eq!(std::fs::read(&target).unwrap(), pattern(64 * 8), "the target gets the output");
    }
    // No temporary file is left next to the link or the target.
    for d in [&dir, &target_dir] {
        let names: Vec<_> = std::fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert!(!names.iter().any(|n| n.to_string_lossy().contains("nvsurf-tmp")), "{names:?}");
    }
    // A dangling link is an error naming the path and where it points; nothing is created.
    let dangling = dir.join("dangling.bin");
    let _ = std::fs::remove_file(&dangling);
    std::os::unix::fs::symlink(dir.join("missing.bin"), &dangling).unwrap();
    let (code, err) = tile_one_gob(&lin, &dangling);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("dangling.bin'") && err.contains("missing.bin', which does not exist"), "{err}");
    assert!(std::fs::symlink_metadata(&dangling).unwrap().file_type().is_symlink());
}

#[test]
fn output_directory_error_names_the_path_once() {
    let tmp = Scratch::new("tiling");
    // Review finding 6: "cannot write 'X': cannot write 'X': Is a directory".
    let dir = tmp.path("out_is_dir");
    std::fs::create_dir_all(&dir).unwrap();
    let lin = tmp.path("lin_dir.bin");
    std::fs::write(&lin, pattern(64 * 8)).unwrap();
    let (code, err) = tile_one_gob(&lin, &dir);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.matches("cannot write").count(), 1, "{err}");
    assert!(err.contains(&format!("cannot write '{}': it is a directory", dir.display())), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

#[cfg(target_os = "linux")]
#[test]
fn output_fifo_is_written_in_place() {
    let tmp = Scratch::new("tiling");
    // A non-regular output (here a FIFO, standing in for devices like /dev/stdout) is written
    // directly instead of being replaced by a regular file.
    use std::io::Read;
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    let fifo = tmp.path("out.fifo");
    let _ = std::fs::remove_file(&fifo);
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("mkfifo not available; skipped");
        return;
    }
    // The read end, opened without blocking (O_NONBLOCK): nvsurf's open for writing then
    // succeeds at once, and a rename over the FIFO would leave this end at EOF, not hanging.
    const O_NONBLOCK: i32 = 0o4000;
    let mut reader = std::fs::OpenOptions::new().read(true).custom_flags(O_NONBLOCK).open(&fifo).unwrap();
    let lin = tmp.path("lin_fifo.bin");
    std::fs::write(&lin, pattern(64 * 8)).unwrap();
    let (code, err) = tile_one_gob(&lin, &fifo);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "still a FIFO");
    let mut got = Vec::new();
    reader.read_to_end(&mut got).unwrap();
    assert_eq!(got, pattern(64 * 8));
}

#[test]
fn untile_rejects_onto() {
    let tmp = Scratch::new("tiling");
    // Review finding 7a: `untile --onto` was accepted and ignored; `untile --help` offered it.
    let tiled = tmp.path("onto_in.bin");
    std::fs::write(&tiled, vec![0u8; 64 * 8]).unwrap();
    let out = tmp.path("onto_out.bin");
    let _ = std::fs::remove_file(&out);
    let mut a = vec!["untile"];
    a.extend(ONE_GOB);
    a.extend(["--input", tiled.to_str().unwrap(), "--output", out.to_str().unwrap(), "--onto", "/nonexistent"]);
    let (code, err) = nvsurf(&a);
    assert_eq!(code, 2, "{err}");
    // `untile` has no --onto at all (its own flags): clap names the flag.
    assert!(err.contains("unexpected argument '--onto'"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(!out.exists());
}

/// Starts `nvsurf tile` of a 128 MiB pitch surface from `lin` to `out` through `wrap` (a shell
/// prefix, or nothing) and sends SIGINT once the temporary output file exists (its write and
/// sync take a while). Returns the exit status, or `None` when the run finished first.
#[cfg(target_os = "linux")]
fn interrupt_while_writing(
    dir: &std::path::Path,
    lin: &std::path::Path,
    out: &std::path::Path,
    wrap: Option<&str>,
) -> Option<std::process::ExitStatus> {
    let temps = || {
        std::fs::read_dir(dir)
            .unwrap()
            .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().contains("nvsurf-tmp"))
            .count()
    };
    let _ = std::fs::remove_file(out);
    let bin = env!("CARGO_BIN_EXE_nvsurf");
    let args = ["tile", "--gpu", "gm20b", "--elem-size", "4", "--size", "8192x4096", "--layout", "pitch"];
    let mut cmd = match wrap {
        // `exec` keeps the pid, so the signal reaches nvsurf itself.
        Some(prefix) => {
            let mut c = Command::new("sh");
            c.arg("-c").arg(format!("{prefix} exec \"$0\" \"$@\"")).arg(bin);
            c
        }
        // A test run started as a background job without job control (`cmd &` in a script,
        // `nohup cmd &`) inherits SIGINT ignored, and nvsurf rightly keeps an ignored SIGINT
        // ignored: give the child the default action back (coreutils' `env`, same pid).
        None if sigint_ignored() => {
            let mut c = Command::new("env");
            c.arg("--default-signal=INT").arg(bin);
            c
        }
        None => Command::new(bin),
    };
    let mut child =
        cmd.args(args).args(["--input", lin.to_str().unwrap(), "--output", out.to_str().unwrap()]).spawn().unwrap();
    while temps() == 0 && child.try_wait().unwrap().is_none() {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    if child.try_wait().unwrap().is_some() {
        return None;
    }
    assert!(Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap().success());
    let status = child.wait().unwrap();
    assert_eq!(temps(), 0, "no temporary file is left ({status:?})");
    Some(status)
}

/// Whether this process ignores SIGINT (bit 2 of `SigIgn` in /proc/self/status).
#[cfg(target_os = "linux")]
fn sigint_ignored() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("SigIgn:"))
        .and_then(|m| u64::from_str_radix(m.trim(), 16).ok())
        .is_some_and(|m| m & (1 << (SIGINT - 1)) != 0)
}

/// SIGINT's number on Linux.
#[cfg(target_os = "linux")]
const SIGINT: u32 = 2;

/// Ctrl-C (SIGINT) while the output is being written removes the temporary file, then the
/// signal ends the process (so a shell stops the script it runs in). Before, the interrupted
/// run left a hidden `.NAME.nvsurf-tmp-PID` file as large as the output. A try where the run
/// finished first, or renamed its output before the signal, is repeated.
#[cfg(target_os = "linux")]
#[test]
fn interrupt_removes_the_temporary_output() {
    use std::os::unix::process::ExitStatusExt;
    let tmp = Scratch::new("tiling");
    let dir = tmp.path("interrupt");
    std::fs::create_dir_all(&dir).unwrap();
    let lin = dir.join("lin.bin");
    std::fs::write(&lin, pattern(128 << 20)).unwrap();
    let out = dir.join("out.bin");
    // On a loaded machine (a parallel build beside the tests) the polling parent can miss the
    // short window again and again: try more often than a quiet machine needs.
    for _ in 0..25 {
        let Some(status) = interrupt_while_writing(&dir, &lin, &out, None) else { continue };
        if status.success() || out.exists() {
            // The rename came first: the output is whole.
            assert_eq!(std::fs::metadata(&out).unwrap().len(), 128 << 20);
            continue;
        }
        assert_eq!(status.signal(), Some(2), "ended by SIGINT: {status:?}");
        return;
    }
    panic!("every run finished before it could be interrupted");
}

/// A SIGINT the parent ignores (`trap '' INT`, a script's background job) stays ignored: the
/// run finishes and writes its whole output. (A first version of the clean-up replaced the
/// ignored disposition and died.)
#[cfg(target_os = "linux")]
#[test]
fn ignored_interrupts_stay_ignored() {
    let tmp = Scratch::new("tiling");
    let dir = tmp.path("ignored-interrupt");
    std::fs::create_dir_all(&dir).unwrap();
    let lin = dir.join("lin.bin");
    std::fs::write(&lin, pattern(128 << 20)).unwrap();
    let out = dir.join("out.bin");
    for _ in 0..5 {
        let Some(status) = interrupt_while_writing(&dir, &lin, &out, Some("trap '' INT;")) else { continue };
        assert!(status.success(), "{status:?}");
        assert_eq!(std::fs::metadata(&out).unwrap().len(), 128 << 20);
        return;
    }
    panic!("every run finished before it could be interrupted");
}

/// Runs `nvsurf` under `sh` with an address-space limit of `kib` KiB (`ulimit -v`); `args` are
/// passed as the script's own arguments. With `stdin`, that file's bytes are written into a
/// pipe on its standard input (a real pipe: a file given as stdin would reopen as a file).
fn nvsurf_limited(kib: u32, args: &[&str], stdin: Option<&std::path::Path>) -> (i32, String) {
    use std::process::Stdio;
    let mut c = Command::new("sh");
    c.arg("-c").arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\"")).arg(env!("CARGO_BIN_EXE_nvsurf")).args(args);
    // One malloc arena: glibc reserves 64 MiB of address space for each thread that allocates
    // (the signal thread, the worker pool), which would race the program's own buffers under
    // the limit; CI once lost that race.
    c.env("MALLOC_ARENA_MAX", "1");
    c.stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() }).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    let feeder = stdin.map(|p| {
        let (mut from, mut to) = (std::fs::File::open(p).unwrap(), child.stdin.take().unwrap());
        // The copy ends early (a broken pipe) when nvsurf stops reading: not an error here.
        std::thread::spawn(move || drop(std::io::copy(&mut from, &mut to)))
    });
    let out = child.wait_with_output().unwrap();
    if let Some(f) = feeder {
        f.join().unwrap();
    }
    (out.status.code().unwrap_or(-1), scratch::without_summary(&String::from_utf8_lossy(&out.stderr)))
}

/// Whether two files hold the same bytes, read 1 MiB at a time (the dumps here are larger
/// than a test should hold twice).
fn same_files(a: &std::path::Path, b: &std::path::Path) -> bool {
    use std::io::Read;
    let (mut fa, mut fb) = (std::fs::File::open(a).unwrap(), std::fs::File::open(b).unwrap());
    let (mut ba, mut bb) = (vec![0u8; 1 << 20], vec![0u8; 1 << 20]);
    loop {
        let n = fa.read(&mut ba).unwrap();
        let mut m = 0;
        while m < n {
            let k = fb.read(&mut bb[m..n]).unwrap();
            if k == 0 {
                return false;
            }
            m += k;
        }
        if n == 0 {
            return fb.read(&mut bb[..1]).unwrap() == 0;
        }
        if ba[..n] != bb[..n] {
            return false;
        }
    }
}

/// `tile --onto` holds only the surface, not the dump: a 64x64 surface patched into a 192 MiB
/// dump runs under a 100 MB address-space limit (the dump was read whole before: 192 MiB and
/// more). The output is the dump with exactly the surface's bytes replaced, whether the dump is
/// a file or a pipe, and `--onto` and `--output` may be the same file. A dump too short for
/// the surface is refused and leaves no output, from a file or a pipe.
#[test]
fn onto_a_large_dump_holds_only_the_surface() {
    use std::io::{Seek, SeekFrom, Write};
    let tmp = Scratch::new("tiling");
    let surf = ["--gpu", "gm20b", "--gob", "tegra", "--elem-size", "4", "--size", "64x64", "--block-log2", "0,3,0"];
    let (offset, size, dump_len) = (0x0100_0040u64, 64 * 64 * 4u64, 192u64 << 20);
    let lin = tmp.path("onto-lin.bin");
    std::fs::write(&lin, pattern(size as usize)).unwrap();
    // The dump: sparse, with marked bytes at its start, just before and after the surface, and
    // at its end (the parts a wrong copy would lose or shift).
    let dump = tmp.path("onto-dump.bin");
    let mut f = std::fs::File::create(&dump).unwrap();
    f.set_len(dump_len).unwrap();
    for at in [0, offset - 4096, offset + size, dump_len - 4096] {
        f.seek(SeekFrom::Start(at)).unwrap();
        f.write_all(&pattern(4096 + at as usize % 97)[at as usize % 97..]).unwrap();
    }
    drop(f);
    // Expected: the dump with the surface's bytes as a plain `tile` writes them (a whole
    // surface of whole blocks: every byte of its span).
    let fresh = tmp.path("onto-fresh.bin");
    let mut a = vec!["tile"];
    a.extend(surf);
    a.extend(["--input", lin.to_str().unwrap(), "--output", fresh.to_str().unwrap()]);
    assert_eq!(nvsurf(&a).0, 0);
    let tiled = std::fs::read(&fresh).unwrap();
    assert_eq!(tiled.len() as u64, size);
    let expected = tmp.path("onto-expected.bin");
    std::fs::copy(&dump, &expected).unwrap();
    let mut f = std::fs::OpenOptions::new().write(true).open(&expected).unwrap();
    f.seek(SeekFrom::Start(offset)).unwrap();
    f.write_all(&tiled).unwrap();
    drop(f);

    let off = offset.to_string();
    let out = tmp.path("onto-out.bin");
    let run = |onto: &str, output: &std::path::Path, stdin: Option<&std::path::Path>| {
        let mut a = vec!["tile"];
        a.extend(surf);
        a.extend(["--offset", &off, "--input", lin.to_str().unwrap(), "--onto", onto]);
        a.extend(["--output", output.to_str().unwrap()]);
        nvsurf_limited(100_000, &a, stdin)
    };
    assert_eq!(run(dump.to_str().unwrap(), &out, None), (0, String::new()));
    assert!(same_files(&out, &expected), "tile --onto a file");
    std::fs::remove_file(&out).unwrap();
    assert_eq!(run("/dev/stdin", &out, Some(&dump)), (0, String::new()));
    assert!(same_files(&out, &expected), "tile --onto a pipe");
    // In place: --onto and --output name the same file.
    std::fs::copy(&dump, &out).unwrap();
    assert_eq!(run(out.to_str().unwrap(), &out, None), (0, String::new()));
    assert!(same_files(&out, &expected), "tile --onto the output itself");
    std::fs::remove_file(&out).unwrap();

    // One byte short of the surface's end.
    let short = tmp.path("onto-short.bin");
    std::fs::File::create(&short).unwrap().set_len(offset + size - 1).unwrap();
    let want = format!("holds {} bytes but {} bytes are expected", offset + size - 1, offset + size);
    for (onto, stdin) in [(short.to_str().unwrap(), None), ("/dev/stdin", Some(short.as_path()))] {
        let (rc, err) = run(onto, &out, stdin);
        assert_eq!(rc, 2, "{err}");
        assert!(err.contains(&want), "{err}");
        assert!(!out.exists());
        let dir = out.parent().unwrap();
        let left: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| e.ok())
            // Only the output's (named after it).
            .filter(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                name.contains("nvsurf-tmp") && name.contains("onto-out")
            })
            .collect();
        assert!(left.is_empty(), "temporary files left: {left:?}");
    }
}

/// `untile --box` reads the box's window (its blocks, or its row segments), not the surface:
/// a 100x50 box of a 512 MiB surface in a sparse dump is untiled under a 100 MB address-space
/// limit, from a file and from a pipe, for blocklinear and pitch layouts; its bytes are those
/// the plain address function puts there; a dump one byte short is still refused.
#[test]
fn a_box_of_a_large_surface_reads_only_its_window() {
    use nvsurf::layout::{LayoutKind, SurfaceDesc};
    use std::io::{Seek, SeekFrom, Write};
    let tmp = Scratch::new("tiling");
    let (bx, by, bw, bh) = (1002u32, 1500u32, 100u32, 50u32);
    let offset = 4096u64;
    for (layout, flags) in [
        (LayoutKind::BlockLinear, ["--layout", "blocklinear", "--block-log2", "0,4,0"]),
        (LayoutKind::Pitch, ["--layout", "pitch", "--pitch", "262144"]),
    ] {
        let mut desc = SurfaceDesc::new(nvsurf::Gpu::Gf100, 16, [16384, 2048, 1]);
        desc.layout = layout;
        desc.block_log2 = Some([0, 4, 0]);
        let s = desc.build().unwrap();
        assert_eq!(s.size_bytes(), 512 << 20);
        // The dump: sparse, the box's elements written where the address function puts them,
        // each 16 bytes naming its (x, y); the expected linear image alongside.
        let dump = tmp.path(&format!("window-{}.bin", s.kind().name()));
        let mut f = std::fs::File::create(&dump).unwrap();
        f.set_len(offset + s.size_bytes()).unwrap();
        let mut want = Vec::new();
        for y in by..by + bh {
            for x in bx..bx + bw {
                let e: Vec<u8> = [x, y, x ^ y, 0x5eed].iter().flat_map(|v| v.to_le_bytes()).collect();
                f.seek(SeekFrom::Start(offset + s.offset_of(x, y, 0).unwrap())).unwrap();
                f.write_all(&e).unwrap();
                want.extend(e);
            }
        }
        drop(f);
        let out = tmp.path("window-out.bin");
        let (off, boxed) = (offset.to_string(), format!("{bx},{by},0,{bw},{bh},1"));
        let run = |input: &str, stdin: Option<&std::path::Path>| {
            let mut a = vec!["untile", "--gpu", "gf100", "--gob", "vm", "--elem-size", "16", "--size", "16384x2048"];
            a.extend(flags);
            a.extend(["--offset", &off, "--box", &boxed, "--input", input, "--output", out.to_str().unwrap()]);
            nvsurf_limited(100_000, &a, stdin)
        };
        assert_eq!(run(dump.to_str().unwrap(), None), (0, String::new()), "{flags:?}");
        assert!(std::fs::read(&out).unwrap() == want, "{flags:?} from a file");
        std::fs::remove_file(&out).unwrap();
        assert_eq!(run("/dev/stdin", Some(&dump)), (0, String::new()), "{flags:?}");
        assert!(std::fs::read(&out).unwrap() == want, "{flags:?} from a pipe");
        std::fs::remove_file(&out).unwrap();
        // One byte short of the surface's end: refused, from a file and from a pipe.
        std::fs::File::options().write(true).open(&dump).unwrap().set_len(offset + s.size_bytes() - 1).unwrap();
        let holds =
            format!("holds {} bytes but {} bytes are expected", offset + s.size_bytes() - 1, offset + s.size_bytes());
        for (input, stdin) in [(dump.to_str().unwrap(), None), ("/dev/stdin", Some(dump.as_path()))] {
            let (rc, err) = run(input, stdin);
            assert_eq!(rc, 2, "{err}");
            assert!(err.contains(&holds), "{flags:?}: {err}");
            assert!(!out.exists());
        }
        std::fs::remove_file(&dump).unwrap();
    }
}

/// `tile --box --onto` reads and rewrites only the box's window of the dump: a 100x50 box
/// patched into a 256 MiB surface (blocklinear and pitch) under a 100 MB address-space limit,
/// from a file to another file and in place; the bytes of the window around the box and every
/// byte outside it stay as they were. From a pipe (which holds the surface; an 11 MiB one here)
/// the result is the same.
#[test]
fn a_box_patched_onto_a_large_dump_holds_only_its_window() {
    use nvsurf::layout::{LayoutKind, SurfaceDesc};
    use std::io::{Seek, SeekFrom, Write};
    let tmp = Scratch::new("tiling");
    let (bx, by, bw, bh) = (1002u32, 500u32, 100u32, 50u32);
    let offset = 8192u64;
    let lin = tmp.path("patch-box.bin");
    let elems: Vec<u8> =
        (0..bw * bh).flat_map(|i| [i, i ^ 0xabcd, 7 * i, 0x0b0c].map(u32::to_le_bytes)).flatten().collect();
    std::fs::write(&lin, &elems).unwrap();
    let blocklinear = ["--layout", "blocklinear", "--block-log2", "0,4,0"];
    for (layout, flags, [width, height], pipe) in [
        (LayoutKind::BlockLinear, blocklinear, [16384u32, 1024], false),
        (LayoutKind::Pitch, ["--layout", "pitch", "--pitch", "262144"], [16384, 1024], false),
        (LayoutKind::BlockLinear, blocklinear, [1152, 640], true),
    ] {
        let mut desc = SurfaceDesc::new(nvsurf::Gpu::Gf100, 16, [width, height, 1]);
        desc.layout = layout;
        desc.block_log2 = Some([0, 4, 0]);
        let s = desc.build().unwrap();
        let region = nvsurf::tile::Region { x: bx, y: by, z: 0, w: bw, h: bh, d: 1 };
        let w = nvsurf::tile::window(&s, region).unwrap();
        // Base: sparse, noise over the window's pieces, marks at both ends. Expected: the same
        // with the box's elements where the address function puts them.
        let (base, expected) = (tmp.path("patch-base.bin"), tmp.path("patch-expected.bin"));
        let total = offset + s.size_bytes() + 4096;
        for (path, with_box) in [(&base, false), (&expected, true)] {
            let mut f = std::fs::File::create(path).unwrap();
            f.set_len(total).unwrap();
            for (i, p) in w.pieces.iter().enumerate() {
                f.seek(SeekFrom::Start(offset + p.offset_bytes)).unwrap();
                f.write_all(&pattern(p.len_bytes as usize + i)[i..]).unwrap();
            }
            for at in [0, total - 4096] {
                f.seek(SeekFrom::Start(at)).unwrap();
                f.write_all(&pattern(4096)).unwrap();
            }
            if with_box {
                for (i, e) in elems.chunks(16).enumerate() {
                    let (x, y) = (bx + i as u32 % bw, by + i as u32 / bw);
                    f.seek(SeekFrom::Start(offset + s.offset_of(x, y, 0).unwrap())).unwrap();
                    f.write_all(e).unwrap();
                }
            }
        }
        let out = tmp.path("patch-out.bin");
        let (off, boxed, size) = (offset.to_string(), format!("{bx},{by},0,{bw},{bh},1"), format!("{width}x{height}"));
        let run = |onto: &std::path::Path, output: &std::path::Path, stdin: bool| {
            let mut a = vec!["tile", "--gpu", "gf100", "--gob", "vm", "--elem-size", "16", "--size", &size];
            a.extend(flags);
            let onto = if stdin { "/dev/stdin" } else { onto.to_str().unwrap() };
            a.extend(["--offset", &off, "--box", &boxed, "--input", lin.to_str().unwrap(), "--onto", onto]);
            a.extend(["--output", output.to_str().unwrap()]);
            nvsurf_limited(100_000, &a, stdin.then_some(base.as_path()))
        };
        if pipe {
            // The pipe: its surface is held, so a small one.
            assert_eq!(run(&base, &out, true), (0, String::new()), "{flags:?}");
            assert!(same_files(&out, &expected), "{flags:?} onto a pipe");
        } else {
            assert_eq!(run(&base, &out, false), (0, String::new()), "{flags:?}");
            assert!(same_files(&out, &expected), "{flags:?} onto a file");
            std::fs::rename(&base, &out).unwrap();
            assert_eq!(run(&out, &out, false), (0, String::new()), "{flags:?}");
            assert!(same_files(&out, &expected), "{flags:?} in place");
        }
        for p in [&out, &base, &expected] {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// A box two slices thick of a 3D surface whose blocks are 16 slices deep (its window: its
/// own slices of each block, in the dump in another order than in the window): `tile --box
/// --onto` from a file and from a pipe puts its elements where the address function says and
/// leaves every other byte; `untile --box` from a file and from a pipe gives them back.
#[test]
fn a_thin_box_of_deep_blocks_round_trips() {
    use nvsurf::layout::{LayoutKind, SurfaceDesc};
    let tmp = Scratch::new("tiling");
    let mut desc = SurfaceDesc::new(nvsurf::Gpu::Gf100, 4, [64, 64, 32]);
    desc.layout = LayoutKind::BlockLinear;
    desc.block_log2 = Some([0, 1, 4]);
    let s = desc.build().unwrap();
    let (bx, by, bz, bw, bh, bd) = (20u32, 10u32, 21u32, 30u32, 20u32, 2u32);
    let base = pattern(s.size_bytes() as usize + 100);
    let n = bw * bh * bd;
    let elems: Vec<u8> = (0..n).flat_map(|i| (i.wrapping_mul(0x0101_0101) ^ 0x5a00_0000).to_le_bytes()).collect();
    let mut want = base.clone();
    for (i, e) in (0..n).zip(elems.chunks(4)) {
        let (x, y, z) = (bx + i % bw, by + i / bw % bh, bz + i / (bw * bh));
        let o = 100 + s.offset_of(x, y, z).unwrap() as usize;
        want[o..o + 4].copy_from_slice(e);
    }
    let (dump, lin, out, back) =
        (tmp.path("thin-dump.bin"), tmp.path("thin-lin.bin"), tmp.path("thin-out.bin"), tmp.path("thin-back.bin"));
    std::fs::write(&dump, &base).unwrap();
    std::fs::write(&lin, &elems).unwrap();
    let boxed = format!("{bx},{by},{bz},{bw},{bh},{bd}");
    let surf = ["--gpu", "gf100", "--gob", "vm", "--elem-size", "4", "--size", "64x64x32", "--block-log2", "0,1,4"];
    for stdin in [None, Some(dump.as_path())] {
        let mut a = vec!["tile"];
        a.extend(surf);
        let onto = if stdin.is_some() { "/dev/stdin" } else { dump.to_str().unwrap() };
        a.extend(["--offset", "100", "--box", &boxed, "--input", lin.to_str().unwrap(), "--onto", onto]);
        a.extend(["--output", out.to_str().unwrap()]);
        assert_eq!(nvsurf_limited(4_000_000, &a, stdin), (0, String::new()));
        assert!(std::fs::read(&out).unwrap() == want, "tile onto {onto}");
        let mut a = vec!["untile"];
        a.extend(surf);
        let input = if stdin.is_some() { "/dev/stdin" } else { out.to_str().unwrap() };
        a.extend(["--offset", "100", "--box", &boxed, "--input", input, "--output", back.to_str().unwrap()]);
        assert_eq!(nvsurf_limited(4_000_000, &a, stdin.map(|_| out.as_path())), (0, String::new()));
        assert_eq!(std::fs::read(&back).unwrap(), elems, "untile from {input}");
    }
}

/// `tile` and `untile` have their own flags: only `tile --help` offers `--onto`.
#[test]
fn onto_is_offered_by_tile_only() {
    let help = |cmd: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_nvsurf")).args([cmd, "--help"]).output().unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    assert!(help("tile").contains("--onto <FILE>"));
    assert!(!help("untile").contains("--onto <FILE>"));
    assert!(help("untile").contains("compressed"), "untile --help says rendered colour targets are compressed");
}

/// `tile --onto` of a sparse dump keeps it sparse: only the dump's data extents are copied.
#[test]
fn onto_keeps_a_sparse_dump_sparse() {
    use std::os::unix::fs::{FileExt, MetadataExt};
    let tmp = Scratch::new("tiling-sparse");
    let (base, lin, out) = (tmp.path("sparse.bin"), tmp.path("lin.bin"), tmp.path("patched.bin"));
    let f = std::fs::File::create(&base).unwrap();
    f.set_len(1 << 30).unwrap();
    f.write_all_at(b"some data far in", 700 << 20).unwrap();
    drop(f);
    std::fs::write(&lin, pattern(64 * 8)).unwrap();
    let mut a = vec!["tile"];
    a.extend(ONE_GOB);
    a.extend(["--offset", "4096", "--input", lin.to_str().unwrap(), "--onto", base.to_str().unwrap()]);
    a.extend(["--output", out.to_str().unwrap()]);
    let (code, err) = nvsurf(&a);
    assert_eq!(code, 0, "{err}");
    let m = std::fs::metadata(&out).unwrap();
    assert_eq!(m.len(), 1 << 30);
    assert!(m.blocks() * 512 < 16 << 20, "{} bytes allocated: the holes were written", m.blocks() * 512);
    let got = std::fs::File::open(&out).unwrap();
    let mut buf = [0u8; 16];
    got.read_exact_at(&mut buf, 700 << 20).unwrap();
    assert_eq!(&buf, b"some data far in");
    let mut gob = vec![0u8; 512];
    got.read_exact_at(&mut gob, 4096).unwrap();
    assert_eq!(gob, pattern(64 * 8), "one gob, VM order: the same bytes");
}

/// A copy larger than `--max-memory` stops before allocating, naming the size and the flag.
#[test]
fn max_memory_is_checked_before_allocating() {
    let tmp = Scratch::new("tiling-mem");
    let (inp, out) = (tmp.path("in.bin"), tmp.path("out.bin"));
    std::fs::write(&inp, vec![0u8; 1 << 20]).unwrap();
    let args = |max: &str| {
        let mut a = vec!["untile", "--gpu", "gf100", "--gob", "vm", "--elem-size", "4", "--size", "256x256"];
        a.extend(["--max-memory", max, "--input", inp.to_str().unwrap(), "--output", out.to_str().unwrap()]);
        nvsurf(&a.iter().map(|s| s.to_string()).collect::<Vec<_>>().iter().map(String::as_str).collect::<Vec<_>>())
    };
    let (rc, err) = args("100000");
    assert_eq!(rc, 2, "{err}");
    assert!(err.contains("max-memory 100000") && err.contains("--max-memory BYTES"), "{err}");
    assert!(!out.exists());
    let (rc, err) = args("1000000");
    assert_eq!(rc, 0, "{err}");
}

/// `-` is stdin or stdout; `--output-format`/`--input-format` say what a picture on a stream
/// is. Status lines go to stderr, so stdout holds exactly the data.
#[test]
fn dash_means_the_standard_streams() {
    use std::io::Write;
    use std::process::Stdio;
    let tmp = Scratch::new("tiling-dash");
    let surf = ["--gpu", "gm20b", "--format", "A8B8G8R8", "--size", "40x30"];
    let lin: Vec<u8> = (0..40 * 30 * 4).map(|i| (i * 7 + i / 160) as u8).collect();
    let (lin_p, dump_p, png_p) = (tmp.path("lin.bin"), tmp.path("dump.bin"), tmp.path("file.png"));
    std::fs::write(&lin_p, &lin).unwrap();
    // tile: raw rows from stdin, the dump to stdout.
    let run = |args: &[&str], stdin: &[u8]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_nvsurf"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        c.stdin.take().unwrap().write_all(stdin).unwrap();
        let out = c.wait_with_output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        out.stdout
    };
    let mut a = vec!["tile"];
    a.extend(surf);
    a.extend(["--input", "-", "--output", "-"]);
    let dump = run(&a, &lin);
    let mut a = vec!["tile"];
    a.extend(surf);
    a.extend(["--input", lin_p.to_str().unwrap(), "--output", dump_p.to_str().unwrap()]);
    run(&a, &[]);
    assert!(dump == std::fs::read(&dump_p).unwrap(), "tile to stdout gives the file's bytes");
    // untile: the dump from stdin, a PNG to stdout, the same as to a file.
    let mut a = vec!["untile"];
    a.extend(surf);
    a.extend(["--input", "-", "--output", "-", "--output-format", "png"]);
    let png = run(&a, &dump);
    let mut a = vec!["untile"];
    a.extend(surf);
    a.extend(["--input", dump_p.to_str().unwrap(), "--output", png_p.to_str().unwrap()]);
    run(&a, &[]);
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert!(png == std::fs::read(&png_p).unwrap(), "untile to stdout gives the file's bytes");
    // tile: a PNG from stdin back to the dump.
    let mut a = vec!["tile"];
    a.extend(surf);
    a.extend(["--input", "-", "--input-format", "png", "--output", "-"]);
    assert!(run(&a, &png) == dump);
}

/// `nvsurf completions SHELL` and `nvsurf man` come from the same command definition.
#[test]
fn completions_and_manual() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let out = Command::new(env!("CARGO_BIN_EXE_nvsurf")).args(["completions", shell]).output().unwrap();
        assert!(out.status.success(), "{shell}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("nvsurf") && text.contains("untile") && text.contains("--gob"), "{shell}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_nvsurf")).arg("man").output().unwrap();
    assert!(out.status.success());
    let roff = String::from_utf8(out.stdout).unwrap();
    assert!(roff.starts_with(".ie") || roff.contains(".TH"), "{}", &roff[..200.min(roff.len())]);
    assert!(roff.contains("untile"));
}
