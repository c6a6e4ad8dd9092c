//! `nvsurf`: the command-line face of the nvsurf library.
//!
//! Every command lives in a module of its own; this file only parses and dispatches. Errors are
//! printed as one line (`error: <field> <value> <rule>`) and exit with status 2. The modules are
//! public so the fuzz targets (`fuzz/`) reach the parsers; `src/main.rs` only calls [`main`].
//! Commands print through [`outln!`] and [`out!`] (`println!` panics on a failed write), so a
//! full disk or a closed pipe on stdout is one line and status 2 too.

#![deny(clippy::print_stdout)]

use clap::{Parser, Subcommand};
use std::process::ExitCode;

pub mod clean;
pub mod convert;
pub mod copy;
pub mod decode;
pub mod formats;
pub mod guess;
pub mod io;
pub mod keys;
pub mod layout;
pub mod memory;
pub mod modifier;
pub mod msaa;
pub mod palette;
pub mod picture;
pub mod resolve;
pub mod storage;
pub mod surface_args;
pub mod texture;
pub mod threads;
pub mod xf;

/// What every command returns: an exit code, or an error printed as one line.
pub type CmdResult = Result<ExitCode, Box<dyn std::error::Error>>;

/// NVIDIA GPU memory layouts, as documented by envytools: surfaces, tiling, textures, formats,
/// multisampling, storage types and the NV10-NV40 XF unit.
#[derive(Parser)]
#[command(name = "nvsurf", version, about, long_about = None, args_override_self = true, after_help = TOP_HELP)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
    /// Replace output files whose mode forbids writing (no write bit for their owner, e.g.
    /// 0444); without it they are refused. Global: any command that writes files takes it.
    #[arg(long, global = true)]
    force: bool,
}

/// Shown after `nvsurf --help`: the presets and the defaults the GPU implies.
const TOP_HELP: &str = "GPUs and presets (--gpu): any chip name (g80/nv50, gf100/nvc0, gm20b/tegra-x1, tu102, gh100, \
gb202, nv40, nv2a, ...) or a preset: switch/nx (GM20B with NVN's block policy and the Tegra gob order), xbox (NV2A).\n\
The GPU implies the gob order a CPU sees and its driver's block policy (Blackwell: blackwell8 for 1-byte \
formats, blackwell16 for 2-byte, else turing, nvidia; Turing-Hopper desktop: turing, 16-bit depth \
blackwell16, nvidia; Fermi-Volta desktop: fermi, nvidia; Tegra: tegra, nvidia (switch: nvn); G80-GT215: vm, max). \
These defaults changed: before, every GPU took the document's vm order and the max policy; \
--gob vm --block-policy max gives those bytes.";

/// `untile --help`'s closing note on what a raw dump can hold.
const UNTILE_HELP: &str = "Rendered colour targets (colour attachments) are compressed on Turing and later \
desktop GPUs (an H100 capture holds 839 of 60,000 values): their raw bytes are not a plain layout, and untile \
reads them as garbage. Sampled textures, depth (D16, D32F) and storage images are plain.";

#[derive(Subcommand)]
enum Cmd {
    /// Show a surface's layout: gob and block geometry, size; --map draws the address table.
    Layout(layout::LayoutArgs),
    /// Print the address of one element of a surface.
    Addr(layout::AddrArgs),
    /// Tiled dump -> linear rows (a whole surface or a --box).
    #[command(after_help = UNTILE_HELP)]
    Untile(copy::UntileArgs),
    /// Linear rows -> tiled dump (a whole surface or a --box).
    Tile(copy::TileArgs),
    /// The surface format catalogue (texture, color, zeta), with every accepted name.
    Formats(formats::FormatsArgs),
    /// Decode one element (hex bytes) of a format to its pixels.
    Decode(decode::DecodeArgs),
    /// Convert linear (untiled) elements of a format to a picture (.png/.exr/.dds) or back.
    Convert(convert::ConvertArgs),
    /// The NV10-NV40 XF transform unit: decode and run command traces, convert RDI views.
    Xf(xf::XfArgs),
    /// Multisample modes: sample positions, grid, coverage belongs-lists, C bitfields, pictures.
    Msaa(msaa::MsaaArgs),
    /// Resolve a tiled multisampled dump to a picture (CSAA weights with --zeta).
    Resolve(resolve::ResolveArgs),
    /// Storage types: list, check a combination (exit 1 with reasons), suggest a driver's pick.
    Storage(storage::StorageArgs),
    /// DRM format modifiers: decode one, list the ones NVK offers for a GPU and format.
    Modifier(modifier::ModifierArgs),
    /// A whole texture's layout: levels, layers, offsets, block sizes (--json for a script).
    Texture(texture::TextureArgs),
    /// Which layout a raw dump holds: every candidate layout ranked by how smooth it untiles.
    Guess(guess::GuessArgs),
    /// Remove what interrupted runs left in DIR: temp files removed, undo journals rolled back.
    Clean(clean::CleanArgs),
    /// Print a shell completion script: `nvsurf completions bash > /etc/bash_completion.d/nvsurf`.
    Completions {
        /// The shell: bash, zsh, fish, powershell (or elvish).
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff): `nvsurf man > nvsurf.1; man ./nvsurf.1`.
    Man,
}

/// `nvsurf completions SHELL`: the completion script of the whole command definition.
fn completions(shell: clap_complete::Shell) -> CmdResult {
    // Made in memory: clap_complete panics when its writer fails.
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut command(), "nvsurf", &mut out);
    io::out::print_bytes(&out)?;
    Ok(ExitCode::SUCCESS)
}

/// `nvsurf man`: the manual page (roff) of the whole command definition.
fn manual() -> CmdResult {
    let mut out = Vec::new();
    clap_mangen::Man::new(command()).render(&mut out).map_err(|e| format!("cannot render the manual: {e}"))?;
    io::out::print_bytes(&out)?;
    Ok(ExitCode::SUCCESS)
}

/// The whole command definition (every subcommand and flag), as clap builds it: the
/// completions, the manual and the tests that run every subcommand read it.
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    Cli::command()
}

/// The `nvsurf` program: parses the command line, runs the command and prints its error as one
/// line (status 2). `src/main.rs` only calls this.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e)
            if matches!(
                e.kind(),
                clap::error::ErrorKind::DisplayHelp
                    | clap::error::ErrorKind::DisplayVersion
                    | clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) =>
        {
            e.exit()
        }
        Err(e) => {
            // One line, like every other error; `--help` has the details.
            // clap's first paragraph (e.g. "required arguments were not provided:" and the
            // names on the next lines), joined into one line.
            let text = e.render().to_string();
            let first: Vec<&str> = text.lines().take_while(|l| !l.trim().is_empty()).map(str::trim).collect();
            let line = if first.is_empty() { "error: bad arguments".to_string() } else { first.join(" ") };
            eprintln!("{} (see --help)", escape_controls(&shorten_long_words(&line)));
            return ExitCode::from(2);
        }
    };
    io::write::set_force(cli.force);
    let result = match cli.cmd {
        Cmd::Layout(a) => layout::run_layout(a),
        Cmd::Addr(a) => layout::run_addr(a),
        Cmd::Untile(a) => copy::run_untile(a),
        Cmd::Tile(a) => copy::run_tile(a),
        Cmd::Formats(a) => formats::run(a),
        Cmd::Decode(a) => decode::run(a),
        Cmd::Convert(a) => convert::run_convert(a),
        Cmd::Xf(a) => xf::run(a),
        Cmd::Msaa(a) => msaa::run(a),
        Cmd::Resolve(a) => resolve::run(a),
        Cmd::Storage(a) => storage::run(a),
        Cmd::Modifier(a) => modifier::run(a),
        Cmd::Texture(a) => texture::run(a),
        Cmd::Guess(a) => guess::run(a),
        Cmd::Clean(a) => clean::run(a),
        Cmd::Completions { shell } => completions(shell),
        Cmd::Man => manual(),
    };
    // Text printed without a final newline is still buffered: its write can fail here.
    let result = result.and_then(|code| Ok(io::out::flush().map(|()| code)?));
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", escape_controls(&shorten_long_words(&e.to_string())));
            ExitCode::from(2)
        }
    }
}

/// An error line with its control characters escaped (`\n`, `\t`, `\r`, `\x1b`, ...): a
/// value quoted in an error (a file name, a format name) must neither split the one-line
/// message nor send escape sequences to the terminal.
fn escape_controls(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len());
    for c in msg.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// Words longer than this many characters are shortened in error messages.
const LONGEST_WORD: usize = 200;

/// An error message with every word (run of non-blank characters) longer than [`LONGEST_WORD`]
/// cut to its first 100 and last 60 characters around "...(N characters)...": an error quotes
/// the value it refuses, and a 2 MB token must not become a 2 MB line. The ends stay, so a long
/// path still shows its file name.
fn shorten_long_words(msg: &str) -> String {
    if msg.len() <= LONGEST_WORD {
        return msg.to_string();
    }
    let mut out = String::new();
    let mut rest = msg;
    while !rest.is_empty() {
        let blank = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let (word, tail) = rest.split_at(blank);
        let n = word.chars().count();
        if n > LONGEST_WORD {
            let head: String = word.chars().take(100).collect();
            let end: String = word.chars().skip(n - 60).collect();
            out += &format!("{head}...({n} characters)...{end}");
        } else {
            out += word;
        }
        let next = tail.find(|c: char| !c.is_whitespace()).unwrap_or(tail.len());
        out += &tail[..next];
        rest = &tail[next..];
    }
    out
}

#[cfg(test)]
mod cli_tests {
    use clap::CommandFactory;

    #[test]
    fn control_characters_in_errors_are_escaped() {
        assert_eq!(super::escape_controls("bad 'a\nb\x1b[2J' \u{9b}x"), "bad 'a\\nb\\x1b[2J' \\x9bx");
        assert_eq!(super::escape_controls("plain é"), "plain é");
    }

    #[test]
    fn long_words_in_errors_are_shortened() {
        let short = "pitch 100 is not a multiple of 64";
        assert_eq!(super::shorten_long_words(short), short);
        let token = format!("AAAA{}ZZZZ", "x".repeat(2_000_000));
        let msg = format!("trace line 1: data '{token}' is not a number\n  next line");
        let got = super::shorten_long_words(&msg);
        assert!(got.len() < 400, "{}", got.len());
        assert!(got.starts_with("trace line 1: data 'AAAA") && got.contains("...(2000010 characters)..."));
        assert!(got.ends_with("ZZZZ' is not a number\n  next line"), "{got}");
        // Multi-byte characters are cut on character boundaries.
        let wide = "é".repeat(300);
        assert!(super::shorten_long_words(&format!("x {wide}")).contains("(300 characters)"));
    }

    /// clap's own consistency checks over every subcommand (duplicate flag names, ...).
    #[test]
    fn command_definition_is_consistent() {
        super::Cli::command().debug_assert();
    }
}
