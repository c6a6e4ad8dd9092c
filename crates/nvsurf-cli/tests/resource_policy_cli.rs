//! One resource policy for every reader and command (#39, item 2): `--max-memory` (and its
//! default, half the machine's memory) bounds `convert` and every picture decoder as it bounds
//! `tile` and `untile`; declared sizes are checked against the input's length first, then the
//! budget, before anything is allocated; zstd KTX2 levels are capped at 4096:1 as PNG is; a
//! device is never read past what the budget allows; an output that does not fit its disk is
//! refused before it is written. Each refusal is one `error:` line and exit 2, and the memory
//! cases run under an address-space limit (`ulimit -v`) that a slurping reader would break.

mod pictures;
use pictures::*;
mod scratch;
use scratch::Scratch;
use std::path::Path;

/// 1 GiB of address space, in KiB: enough for the binary and its threads, far below what the
/// crafted headers declare.
const LIMIT_KIB: u32 = 1 << 20;

/// `nvsurf ARGS` under `sh` with an address-space limit of `kib` KiB and `env` set: exit code,
/// stderr.
fn limited(kib: u32, env: &[(&str, &str)], args: &[&str]) -> (i32, String) {
    let out = std::process::Command::new("sh")
        .arg("-c")
        // One malloc arena: glibc reserves 64 MiB of address space for each thread
        // that allocates, which would race the program's own buffers under the limit.
        .env("MALLOC_ARENA_MAX", "1")
        .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_nvsurf"))
        .args(args)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Asserts exit 2 with exactly one line on stderr, an `error:` line holding every `needle`,
/// and that `output` was not written.
fn refused_with(args: &[&str], env: &[(&str, &str)], needles: &[&str], output: &Path) -> String {
    let (code, err) = limited(LIMIT_KIB, env, args);
    assert_eq!(code, 2, "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.starts_with("error: "), "{err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: wanted «{n}» in {err}");
    }
    assert!(!output.exists(), "{} was written", output.display());
    err
}

/// A 128x128 RGBA8 KTX2, zstd-supercompressed, of random bytes (about 64 KiB), written by
/// `nvsurf convert`; then a copy whose header and level index declare `w` x `h` pixels over the
/// same compressed data.
fn crafted_ktx2(tmp: &Scratch, name: &str, w: u32, h: u32) -> std::path::PathBuf {
    let raw = tmp.path("random.bin");
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let bytes: Vec<u8> = (0..128 * 128 * 4)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    std::fs::write(&raw, bytes).unwrap();
    let small = tmp.path("small.ktx2");
    let args = ["convert", "--input", s(&raw), "--size", "128x128", "--format", "rgba8", "--output", s(&small)];
    let (code, _, err) = nvsurf(&[&args[..], &["--ktx2-zstd", "3", "--force"]].concat());
    assert_eq!(code, 0, "{err}");
    let mut k = std::fs::read(&small).unwrap();
    // pixelWidth and pixelHeight (header bytes 20 and 24), level 0's uncompressedByteLength
    // (the level index at 80: byteOffset, byteLength, uncompressedByteLength).
    k[20..24].copy_from_slice(&w.to_le_bytes());
    k[24..28].copy_from_slice(&h.to_le_bytes());
    k[96..104].copy_from_slice(&(u64::from(w) * u64::from(h) * 4).to_le_bytes());
    let path = tmp.path(name);
    std::fs::write(&path, k).unwrap();
    path
}

/// The red team's file: about 64 KiB of zstd declaring 32768x32768 RGBA8 (4 GiB, 65536:1) grew
/// `convert` to 23.3 GB. Now its header is refused as PNG's would be, by the ratio cap, through
/// `convert` and `tile --texture` alike.
#[test]
fn a_zstd_ktx2_claiming_past_4096_to_1_is_refused_from_its_header() {
    let tmp = Scratch::new("policy-zstd");
    let huge = crafted_ktx2(&tmp, "huge.ktx2", 32768, 32768);
    let out = tmp.path("out.png");
    let needles = ["KTX2 byteLength", "uncompressedByteLength 4294967296", "4096:1"];
    refused_with(&["convert", "--input", s(&huge), "--output", s(&out)], &[], &needles, &out);
    let dump = tmp.path("out.bin");
    let tile = ["tile", "--gpu", "gm20b", "--texture", "--input", s(&huge), "--output", s(&dump)];
    refused_with(&tile, &[], &needles, &dump);
}

/// Under the ratio cap, the budget: a KTX2 declaring 4096x4096 RGBA8 (64 MiB, 1024:1) is refused
/// by `convert --max-memory` naming the KTX2 texture, before its level is decompressed; a DDS
/// and a PNG too, each naming what it would allocate.
#[test]
fn convert_takes_max_memory_for_every_decoder() {
    let tmp = Scratch::new("policy-budget");
    let mid = crafted_ktx2(&tmp, "mid.ktx2", 4096, 4096);
    let out = tmp.path("out.png");
    let budget = ["--max-memory", "10000000"];
    let args = [&["convert", "--input", s(&mid), "--output", s(&out)][..], &budget].concat();
    refused_with(&args, &[], &["KTX2 texture needs", "--max-memory is 10000000 bytes"], &out);
    // The same file without the flag: the default budget lets it through to the zstd data,
    // which is too short for what the header says (one line, not an allocation failure).
    refused_with(&args[..5], &[], &["KTX2 level data", "uncompressedByteLength says 67108864"], &out);
    // A DDS and a PNG of 256x256 RGBA8 (256 KiB) under a 100000-byte budget.
    let raw = tmp.path("zeros.bin");
    std::fs::write(&raw, vec![0u8; 256 * 256 * 4]).unwrap();
    for (name, what) in [("p.dds", "DDS texture needs 262144 bytes"), ("p.png", "needs 262144 bytes")] {
        let pic = tmp.path(name);
        let args = ["convert", "--input", s(&raw), "--size", "256x256", "--format", "rgba8", "--output", s(&pic)];
        assert_eq!(nvsurf(&args).0, 0);
        let back = tmp.path("back.bin");
        let args = ["convert", "--format", "rgba8", "--input", s(&pic), "--output", s(&back), "--max-memory", "100000"];
        refused_with(&args, &[], &[what, "--max-memory is 100000 bytes"], &back);
    }
}

/// A KTX2 header declaring 4294967295x4294967295 with 65535 layers was reported as "DDS
/// texture size" with a wrapped size: its faults name KTX2's fields, the size exact.
#[test]
fn a_broken_ktx2_header_names_ktx2_and_never_wraps() {
    let tmp = Scratch::new("policy-broken");
    let k = crafted_ktx2(&tmp, "broken.ktx2", 128, 128);
    let mut b = std::fs::read(&k).unwrap();
    b[20..24].copy_from_slice(&u32::MAX.to_le_bytes());
    b[24..28].copy_from_slice(&u32::MAX.to_le_bytes());
    b[32..36].copy_from_slice(&0xffffu32.to_le_bytes());
    std::fs::write(&k, b).unwrap();
    let out = tmp.path("out.png");
    // (2^32 - 1)^2 * 4 bytes * 65535 layers.
    let exact = (u128::from(u32::MAX) * u128::from(u32::MAX) * 4 * 65535).to_string();
    let err = refused_with(
        &["convert", "--input", s(&k), "--output", s(&out)],
        &[],
        &["KTX2 texture size", &exact, "65535 layers"],
        &out,
    );
    assert!(!err.contains("DDS"), "{err}");
}

/// A file too short for what the flags declare is said first: the budget's advice (raise
/// --max-memory) would only lead to it.
#[test]
fn a_short_input_is_named_before_the_memory_budget() {
    let tmp = Scratch::new("policy-order");
    let short = tmp.path("short.bin");
    std::fs::write(&short, [0u8; 1000]).unwrap();
    let out = tmp.path("out.bin");
    let shape = ["--size", "65536x65536", "--format", "rgba8", "--max-memory", "1000"];
    let files = ["--input", s(&short), "--output", s(&out)];
    for cmd in [&["untile", "--gpu", "gm20b"][..], &["tile", "--gpu", "gm20b"], &["convert"]] {
        let args = [cmd, &shape, &files].concat();
        let err = refused_with(&args, &[], &["'", "holds 1000 bytes", "17179869184"], &out);
        assert!(!err.contains("max-memory"), "{err}");
    }
    let texture = [&["untile", "--gpu", "gm20b", "--texture", "--levels", "2"][..], &shape, &files].concat();
    refused_with(&texture, &[], &["holds 1000 bytes but the texture needs"], &out);
}

/// `/dev/zero` with a huge `--size` read until allocation failed. A command that holds its
/// input refuses a declared size above the budget before reading: at once, within the
/// address-space limit, whether the budget is given (16 GiB against 100 MB) or the default
/// (4 TiB for `convert`, 512 GiB held by `untile`: above half of any test machine's memory).
#[test]
fn an_endless_device_is_refused_before_it_is_read() {
    let tmp = Scratch::new("policy-device");
    let out = tmp.path("out.bin");
    let files = ["--input", "/dev/zero", "--output", s(&out)];
    let budget = ["--max-memory", "100000000"];
    let cases: [(&[&str], &str, &[&str], &str); 4] = [
        (&["convert"], "65536x65536", &budget, "convert input needs 17179869184 bytes"),
        (&["convert"], "1048576x1048576", &[], "convert input needs 4398046511104 bytes"),
        (&["untile", "--gpu", "gm20b"], "65536x65536", &budget, "this copy holds at once"),
        (&["untile", "--gpu", "gm20b"], "262144x262144", &[], "this copy holds at once"),
    ];
    for (cmd, size, flags, what) in cases {
        let start = std::time::Instant::now();
        let args = [cmd, &["--size", size, "--format", "rgba8"], flags, &files].concat();
        refused_with(&args, &[], &[what, "max-memory"], &out);
        assert!(start.elapsed().as_secs() < 20, "{args:?} took {:?}", start.elapsed());
    }
}

/// Outputs that do not fit their filesystem are refused before anything is written, naming the
/// path, the bytes needed and the bytes free (`NVSURF_FREE_BYTES` stands in for the disk).
#[test]
fn an_output_that_does_not_fit_its_disk_is_refused() {
    let tmp = Scratch::new("policy-space");
    let input = tmp.path("in.bin");
    std::fs::write(&input, vec![0u8; 256 * 256 * 4]).unwrap();
    let out = tmp.path("out.bin");
    let free = [("NVSURF_FREE_BYTES", "1000")];
    let shape = ["--size", "256x256", "--format", "rgba8", "--input", s(&input), "--output", s(&out)];
    let line = format!("cannot write '{}': it needs 262144 bytes but its filesystem has 1000 bytes free", s(&out));
    for cmd in [&["untile", "--gpu", "gm20b"][..], &["tile", "--gpu", "gm20b"], &["convert"]] {
        refused_with(&[cmd, &shape].concat(), &free, &[&line], &out);
    }
    // With room, the same commands write.
    let (code, _, err) = nvsurf(&[&["untile", "--gpu", "gm20b"][..], &shape].concat());
    assert_eq!(code, 0, "{err}");
}

/// A DDS or KTX2 on a FIFO followed by endless zeros is read only as far as its header
/// declares (the DDS reader read to the end of the stream before), and a header declaring more
/// than the budget stops before its data is read.
#[test]
fn textures_on_endless_fifos_are_read_no_further_than_declared() {
    let tmp = Scratch::new("policy-fifo");
    let raw = tmp.path("zeros.bin");
    std::fs::write(&raw, vec![7u8; 64 * 64 * 4]).unwrap();
    let mid = crafted_ktx2(&tmp, "mid.ktx2", 4096, 4096);
    let out = tmp.path("out.bin");
    for ext in ["dds", "ktx2"] {
        let pic = tmp.path(&format!("p.{ext}"));
        let args = ["convert", "--input", s(&raw), "--size", "64x64", "--format", "rgba8", "--output", s(&pic)];
        assert_eq!(nvsurf(&args).0, 0);
        // (file, flags, what the run must print): read whole, or refused by the budget.
        let big = if ext == "dds" {
            let mut b = std::fs::read(&pic).unwrap();
            b[12..20].copy_from_slice(&[0, 0, 1, 0, 0, 0, 1, 0]); // 65536 x 65536
            let p = tmp.path("big.dds");
            std::fs::write(&p, &b[..148]).unwrap();
            (p, "DDS texture needs 17179869184 bytes")
        } else {
            (mid.clone(), "KTX2 texture needs")
        };
        for (src, budget, want) in [(&pic, "100000000", "wrote"), (&big.0, "100000000", big.1)] {
            let fifo = tmp.path(&format!("fifo.{ext}"));
            let _ = std::fs::remove_file(&fifo);
            let script = format!(
                "ulimit -v {LIMIT_KIB} && mkfifo '{f}' && ((cat '{src}'; cat /dev/zero) > '{f}' 2>/dev/null &) && \
                 exec \"$N\" convert --format rgba8 --input '{f}' --output '{o}' --force --max-memory {budget}",
                f = s(&fifo),
                src = s(src),
                o = s(&out),
            );
            let start = std::time::Instant::now();
            let run = std::process::Command::new("sh")
                .args(["-c", &script])
                .env("N", env!("CARGO_BIN_EXE_nvsurf"))
                .env("MALLOC_ARENA_MAX", "1")
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&run.stderr);
            assert!(err.lines().count() == 1 && err.contains(want), "{ext}: {err}");
            let code = if want == "wrote" { 0 } else { 2 };
            assert_eq!(run.status.code(), Some(code), "{ext}: {err}");
            assert!(start.elapsed().as_secs() < 20, "{ext} took {:?}", start.elapsed());
        }
        assert_eq!(std::fs::read(&out).unwrap(), vec![7u8; 64 * 64 * 4], "{ext}");
        std::fs::remove_file(&out).unwrap();
    }
}
