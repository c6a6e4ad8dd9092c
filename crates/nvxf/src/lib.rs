//! nvxf: an executable model of the NV10-NV40 (and NV2A) PGRAPH XF transform unit's command
//! interface, after the envytools "XF overview" (`docs/hw/graph/xf/intro.rst`).
//!
//! - [`gen`]: generations and per-version facts.
//! - [`cmd`]: IDX2XF command types, addresses, operations.
//! - [`wrap`]: IDX command wrapping (PGRAPH PIPE register).
//! - [`vab`]: VAB slots and the VAB write rules.
//! - [`ram`]: the RAMs behind the passthrough slot, sizes and commit points.
//! - [`rdi`]: RDI view of the VAB (space 0x15), bytes.
//! - [`rdi_space`]: every XF RDI space (0x10, 0x15-0x19) as RDI words, both directions.
//! - [`float`]: XF 32-bit and LT 22-bit float rules.
//! - [`rules`]: the hardware-tested rule set (default) and the overview's.
//! - [`sim`]: [`XfState`] and its step function.
//! - [`trace`]: the text trace format (see the README).
//! - [`number`]: decimal and `0x`-hex numbers as traces and flags write them.
//!
//! The core is `no_std` + `alloc`; nothing here panics on bad input.
#![cfg_attr(not(feature = "std"), no_std)]
#![warn(missing_docs)]

extern crate alloc;

pub mod cmd;
pub mod error;
pub mod float;
pub mod gen;
pub mod number;
pub mod ram;
pub mod rdi;
pub mod rdi_space;
pub mod rules;
pub mod sim;
pub mod trace;
pub mod vab;
pub mod wrap;

pub use cmd::{Addr, CmdType, Op, Payload};
pub use error::{Error, Result};
pub use gen::{Family, Gpu};
pub use ram::{CommitRule, Ram};
pub use rules::{CuriePass, Rules};
pub use sim::{Event, Options, XfState};
