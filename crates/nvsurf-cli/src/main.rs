//! `nvsurf`: the command-line program. Everything lives in the `nvsurf_cli` library (src/lib.rs),
//! which the fuzz targets (`fuzz/`) also link.

use std::process::ExitCode;

fn main() -> ExitCode {
    nvsurf_cli::main()
}
