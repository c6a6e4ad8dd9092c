//! Memory of `untile --texture` to a `.dds` or `.ktx2`: the writers stream the levels from the
//! untiled buffer, and the dump is freed before writing, so the peak is the dump and the linear
//! texture (two copies), not five or six (docs/perf/cli-pictures.md, "untile --texture to
//! DDS/KTX2"). Checked under an address-space limit (`ulimit -v`) that the old writers exceeded.

mod pictures;
use pictures::*;
mod scratch;
use scratch::Scratch;

/// `nvsurf ARGS` under `sh` with an address-space limit of `kib` KiB: exit code and stderr.
fn limited(kib: u32, args: &[&str]) -> (i32, String) {
    let out = std::process::Command::new("sh")
        .arg("-c")
        // One malloc arena: glibc reserves 64 MiB of address space for each thread
        // that allocates, which would race the program's own buffers under the limit.
        .env("MALLOC_ARENA_MAX", "1")
        .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_nvsurf"))
        .args(args)
        .output()
        .unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// The cube's packed linear bytes, untiled from `dump` through `out`.
fn untile_raw(dump: &std::path::Path, out: &std::path::Path) -> Vec<u8> {
    let (code, _, err) = nvsurf(&[
        "untile",
        "--gpu",
        "switch",
        "--format",
        "bc7",
        "--size",
        "1024x1024",
        "--texture",
        "--type",
        "cube",
        "--levels",
        "11",
        "--input",
        s(dump),
        "--output",
        s(out),
        "--force",
    ]);
    assert_eq!(code, 0, "{err}");
    std::fs::read(out).unwrap()
}

#[test]
fn a_cube_goes_to_dds_and_ktx2_within_two_copies() {
    let tmp = Scratch::new("picture-memory");
    // 1024x1024 BC7 cube, 11 levels: 8404992 bytes tiled on the Switch.
    let shape = [
        "--gpu",
        "switch",
        "--format",
        "bc7",
        "--size",
        "1024x1024",
        "--texture",
        "--type",
        "cube",
        "--levels",
        "11",
        "--threads",
        "1",
        "--force",
    ];
    let (code, out, err) = nvsurf(&[
        "texture",
        "--json",
        "--gpu",
        "switch",
        "--format",
        "bc7",
        "--size",
        "1024x1024",
        "--type",
        "cube",
        "--levels",
        "11",
    ]);
    assert_eq!(code, 0, "{err}");
    let size = serde_json::from_str::<serde_json::Value>(&out).unwrap()["size_bytes"].as_u64().unwrap();
    assert_eq!(size, 8_404_992);
    let dump = tmp.path("cube.bin");
    std::fs::write(&dump, (0..size as u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 15) as u8).collect::<Vec<u8>>())
        .unwrap();
    // 48 MiB of address space: the binary (about 16 MiB mapped), the dump and the linear
    // texture (8 MiB each) fit with room; three more copies (the old writers) do not.
    for (name, extra) in [("c.dds", None), ("c.ktx2", None), ("z.ktx2", Some("1"))] {
        let out = tmp.path(name);
        let mut a = vec!["untile"];
        a.extend(shape);
        if let Some(l) = extra {
            a.extend(["--ktx2-zstd", l]);
        }
        a.extend(["--input", s(&dump), "--output", s(&out)]);
        let (code, err) = limited(48 * 1024, &a);
        assert_eq!(code, 0, "{name}: {err}");
        // The file is whole: tiled back and untiled, it gives the dump's texels (the dump's
        // padding between levels is not texture data).
        let (back, lin) = (tmp.path("back.bin"), tmp.path("back.lin"));
        let (code, _, err) =
            nvsurf(&["tile", "--gpu", "switch", "--texture", "--input", s(&out), "--output", s(&back), "--force"]);
        assert_eq!(code, 0, "{name}: {err}");
        assert_eq!(untile_raw(&back, &lin), untile_raw(&dump, &tmp.path("dump.lin")), "{name}: texels differ");
    }
}
