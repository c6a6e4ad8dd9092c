//! Files in and out, shared by every command (it imports no command module): reading only the
//! bytes needed ([`read`]), writing atomically with clean-up on signals, alone or as a group
//! ([`write`]), patching a large dump in place of one surface ([`patch`]) or where it lies
//! under an undo journal ([`inplace`]), a killed run's leftovers ([`leftovers`]), the write
//! paths' test hooks ([`hooks`]), progress bars ([`progress`]), the free space an output
//! needs ([`space`]), and command output on stdout that reports a failed write instead of
//! panicking ([`out`]).

pub mod copy;
pub mod files;
pub mod hooks;
pub mod inplace;
pub mod leftovers;
pub mod out;
pub mod patch;
pub mod progress;
pub mod read;
pub mod space;
pub mod write;
pub mod writeback;

pub use patch::{patch_bands_onto, patch_onto, patch_window_onto, write_sparse};
pub use progress::progress_bar;
pub use read::{read_part, read_pieces_at, LineAligned};
pub use space::check_free_space;
pub use write::{stage_bytes, with_temp, write_atomic, Group};
