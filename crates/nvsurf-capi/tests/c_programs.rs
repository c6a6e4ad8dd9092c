//! Builds and runs the C programs of `tests/c/` against `include/nvsurf.h` and the static
//! library, under AddressSanitizer, with the system `cc`: `cargo test -p nvsurf-capi` (and so
//! `cargo test --workspace`) runs them. Each program compares its results with the golden files
//! of `tests/data/` and exits non-zero on any mismatch. Also compiles the header as C99 with
//! `-pedantic` and links a C++ program against it (its `extern "C"` guards).
//!
//! The static library is built first by `cargo build` of this package into the same target
//! directory (cargo does not build a cdylib/staticlib for a package's tests).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The target directory and profile directory this test binary runs from:
/// `<target>/<profile>/deps/c_programs-<hash>`.
fn target_dirs() -> (PathBuf, PathBuf) {
    let exe = std::env::current_exe().expect("test binary path");
    let profile_dir = exe.parent().and_then(Path::parent).expect("<target>/<profile>").to_path_buf();
    let target = profile_dir.parent().expect("<target>").to_path_buf();
    (target, profile_dir)
}

/// Builds `libnvsurf.a` with the profile of this test run and returns its path.
fn static_library() -> PathBuf {
    let (target, profile_dir) = target_dirs();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let profile = if profile_dir.ends_with("release") { "release" } else { "test" };
    let status = Command::new(cargo)
        .args(["build", "--quiet", "-p", "nvsurf-capi", "--profile", profile, "--target-dir"])
        .arg(&target)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .expect("run cargo build");
    assert!(status.success(), "cargo build -p nvsurf-capi failed");
    let lib = profile_dir.join("libnvsurf.a");
    assert!(lib.exists(), "{} was not built", lib.display());
    lib
}

/// The system libraries a Rust static library needs (`rustc --print native-static-libs`).
const NATIVE_LIBS: [&str; 4] = ["-lpthread", "-ldl", "-lm", "-lgcc_s"];

fn run(cmd: &mut Command, what: &str) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{what} failed ({}):\n{text}", out.status);
    text
}

#[test]
fn c_programs_pass_under_asan() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = static_library();
    let out_dir = target_dirs().1.join("nvsurf-capi-c");
    std::fs::create_dir_all(&out_dir).expect("output directory");
    let include = root.join("include");
    let data = root.join("tests/data");
    let mut ran = 0;
    for name in ["nv2a_cube", "switch_bc7", "hostile", "formats", "nvk_alloc"] {
        let src = root.join("tests/c").join(format!("{name}.c"));
        let exe = out_dir.join(name);
        run(
            Command::new("cc")
                .args([
                    "-std=c99",
                    "-Wall",
                    "-Wextra",
                    "-Werror",
                    "-g",
                    "-fsanitize=address",
                    "-fno-omit-frame-pointer",
                ])
                .arg("-I")
                .arg(&include)
                .arg(&src)
                .arg(&lib)
                .args(NATIVE_LIBS)
                .arg("-o")
                .arg(&exe),
            &format!("cc {name}.c"),
        );
        let text =
            run(Command::new(&exe).arg(&data).env("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0:exitcode=99"), name);
        println!("{text}");
        ran += 1;
    }
    assert_eq!(ran, 5);
}

#[test]
fn the_header_compiles_as_c99_and_cpp() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let include = root.join("include");
    let lib = static_library();
    let out_dir = target_dirs().1.join("nvsurf-capi-c");
    std::fs::create_dir_all(&out_dir).expect("output directory");
    // The header alone, strict C99.
    let c_src = out_dir.join("header_only.c");
    std::fs::write(&c_src, "#include \"nvsurf.h\"\nint nvsurf_header_only;\n").unwrap();
    run(
        Command::new("cc")
            .args(["-std=c99", "-pedantic-errors", "-Wall", "-Wextra", "-Werror", "-fsyntax-only", "-I"])
            .arg(&include)
            .arg(&c_src),
        "cc -std=c99 nvsurf.h",
    );
    // A C++ program that calls and links: without the extern "C" guards its calls would be
    // mangled and not link.
    let cpp_src = out_dir.join("header_cpp.cpp");
    std::fs::write(
        &cpp_src,
        "#include \"nvsurf.h\"\n#include <cstdio>\n#include <cstring>\nint main() {\n  NvsurfFormat *f = nullptr;\n  \
         if (nvsurf_format_lookup(\"bc1\", &f) != NVSURF_OK) return 1;\n  NvsurfFormatInfo i;\n  \
         if (nvsurf_format_info(f, &i) != NVSURF_OK || i.elem_size_bytes != 8) return 2;\n  \
         nvsurf_format_destroy(f);\n  std::printf(\"C++: nvsurf %s, %s\\n\", nvsurf_version(), i.name);\n  \
         return std::strlen(nvsurf_version()) == 0;\n}\n",
    )
    .unwrap();
    let exe = out_dir.join("header_cpp");
    run(
        Command::new("c++")
            .args(["-std=c++11", "-Wall", "-Wextra", "-Werror", "-I"])
            .arg(&include)
            .arg(&cpp_src)
            .arg(&lib)
            .args(NATIVE_LIBS)
            .arg("-o")
            .arg(&exe),
        "c++ header_cpp.cpp",
    );
    println!("{}", run(&mut Command::new(&exe), "header_cpp"));
}

/// The README's program (`crates/nvsurf-capi/README.md`, its C block and the lines it prints).
fn readme_program(root: &Path) -> (String, Vec<String>) {
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let start = readme.find("```c\n").expect("a C block in README.md") + 5;
    let end = start + readme[start..].find("```").expect("the C block's end");
    let after = &readme[end..];
    let prints = after.find("prints\n\n").expect("the README says what the program prints") + 8;
    let lines =
        after[prints..].lines().take_while(|l| l.starts_with("    ")).map(|l| l.trim_start().to_string()).collect();
    (readme[start..end].to_string(), lines)
}

/// The shared library has the SONAME `libnvsurf.so.N` (N = `NVSURF_ABI_MAJOR`), and the
/// README's program links against it installed as the README says (`PREFIX/lib/libnvsurf.so.N`
/// with the development link `libnvsurf.so`, the header, `nvsurf.pc` through pkg-config),
/// records the SONAME, and runs with `LD_LIBRARY_PATH`, printing what the README says.
#[cfg(target_os = "linux")]
#[test]
fn the_shared_library_has_its_soname_and_links_as_installed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let so = static_library().with_file_name("libnvsurf.so");
    let soname = format!("libnvsurf.so.{}", nvsurf_capi_core::NVSURF_ABI_MAJOR);
    let dynamic = run(Command::new("readelf").arg("-d").arg(&so), "readelf -d libnvsurf.so");
    assert!(dynamic.contains(&format!("Library soname: [{soname}]")), "{dynamic}");

    // Install into a scratch prefix as the README and nvsurf.pc's comment say.
    let prefix = target_dirs().1.join("nvsurf-capi-c/prefix");
    let _ = std::fs::remove_dir_all(&prefix);
    let (lib, include, pc) = (prefix.join("lib"), prefix.join("include"), prefix.join("lib/pkgconfig"));
    for d in [&lib, &include, &pc] {
        std::fs::create_dir_all(d).expect("install directory");
    }
    std::fs::copy(&so, lib.join(&soname)).expect("install libnvsurf.so.N");
    std::os::unix::fs::symlink(&soname, lib.join("libnvsurf.so")).expect("the development link");
    std::fs::copy(root.join("include/nvsurf.h"), include.join("nvsurf.h")).expect("install the header");
    std::fs::copy(root.join("nvsurf.pc"), pc.join("nvsurf.pc")).expect("install nvsurf.pc");

    let (source, want) = readme_program(root);
    let dir = target_dirs().1.join("nvsurf-capi-c");
    let (src, exe) = (dir.join("readme_shared.c"), dir.join("readme_shared"));
    std::fs::write(&src, source).expect("write the README's program");
    let flags = Command::new("pkg-config")
        .env("PKG_CONFIG_PATH", &pc)
        .arg(format!("--define-variable=prefix={}", prefix.display()))
        .args(["--cflags", "--libs", "nvsurf"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).split_whitespace().map(String::from).collect::<Vec<_>>())
        // No pkg-config on this machine: the flags nvsurf.pc gives.
        .unwrap_or_else(|| vec![format!("-I{}", include.display()), format!("-L{}", lib.display()), "-lnvsurf".into()]);
    run(
        Command::new("cc").args(["-std=c99", "-Wall", "-Werror"]).arg(&src).args(&flags).arg("-o").arg(&exe),
        "cc readme",
    );
    let needed = run(Command::new("readelf").arg("-d").arg(&exe), "readelf -d readme_shared");
    assert!(needed.contains(&format!("Shared library: [{soname}]")), "{needed}");
    let out = run(Command::new(&exe).env("LD_LIBRARY_PATH", &lib), "readme_shared");
    let got: Vec<&str> = out.lines().collect();
    assert_eq!(got.len(), want.len(), "{out}");
    for (g, w) in got.iter().zip(&want) {
        assert!(g.starts_with(w.as_str()), "printed {g:?}, the README says {w:?}");
    }
}
