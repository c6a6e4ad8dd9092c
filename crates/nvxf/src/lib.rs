//! nvxf: a model of the NV10-NV40 XF transform unit (see the crate README).
#![cfg_attr(not(feature = "std"), no_std)]
