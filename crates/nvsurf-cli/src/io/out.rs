//! Command output on stdout that reports a failed write as an error instead of panicking
//! (`println!` panics on a full disk, `/dev/full` or a closed pipe). Every command prints
//! through [`outln!`](crate::outln) and [`out!`](crate::out), which return
//! `Result<(), StdoutError>`; [`crate::main`] prints the error as one line and exits with 2.

use std::io::Write;

/// A failed write to stdout; shown as `cannot write stdout: CAUSE`.
#[derive(Debug)]
pub struct StdoutError(pub std::io::Error);

impl std::fmt::Display for StdoutError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot write stdout: {}", self.0)
    }
}

impl std::error::Error for StdoutError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

/// Writes `args` to stdout (no newline added), keeping the cause of a failed write.
pub fn print_args(args: std::fmt::Arguments<'_>) -> Result<(), StdoutError> {
    std::io::stdout().lock().write_fmt(args).map_err(StdoutError)
}

/// Writes `bytes` to stdout whole, keeping the cause of a failed write.
pub fn print_bytes(bytes: &[u8]) -> Result<(), StdoutError> {
    std::io::stdout().lock().write_all(bytes).map_err(StdoutError)
}

/// Flushes stdout (text written without a final newline stays buffered until then).
pub fn flush() -> Result<(), StdoutError> {
    std::io::stdout().lock().flush().map_err(StdoutError)
}

/// `println!` that returns `Result<(), StdoutError>` instead of panicking on a failed write.
#[macro_export]
macro_rules! outln {
    () => {
        $crate::io::out::print_args(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::io::out::print_args(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` that returns `Result<(), StdoutError>` instead of panicking on a failed write.
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::io::out::print_args(format_args!($($arg)*))
    };
}

#[cfg(test)]
mod tests {
    use super::StdoutError;

    #[test]
    fn the_error_names_stdout_and_its_cause() {
        let e = StdoutError(std::io::Error::from_raw_os_error(28));
        assert_eq!(e.to_string(), "cannot write stdout: No space left on device (os error 28)");
        assert!(std::error::Error::source(&e).is_some());
    }
}
