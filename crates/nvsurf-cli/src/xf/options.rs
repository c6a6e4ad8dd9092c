//! The model's options as `nvsurf xf run` flags: `--rules` and the fine-grained overrides on
//! top of it (`--commit`, `--lt-rounding`, `--nv2a-fog`, `--curie-pass-slot`).

use clap::{Args, ValueEnum};
use nvxf::float::LtRounding;
use nvxf::ram::CommitRule;
use nvxf::sim::Options;
use nvxf::vab::Nv2aFog;
use nvxf::{CuriePass, Rules};
use serde_json::{json, Value};

/// The model's options: the rule set and fine-grained overrides on top of it.
#[derive(Args)]
pub(super) struct OptionArgs {
    /// The rule set: `hardware` (default: the rules envytools' hwtest checked on real chips)
    /// or `overview` (alias `document`: the XF overview's "word 3 completes the vector").
    #[arg(long, value_enum, default_value_t = RulesArg::Hardware)]
    rules: RulesArg,
    /// Override of the commit points: `hardware` (per RAM and generation), `document` (word 3
    /// for all) or `envytools` (the Kelvin rules everywhere). Default: the rule set's own.
    #[arg(long, value_enum)]
    commit: Option<CommitArg>,
    /// Override of the 32-to-22-bit conversion into LT RAMs: `nearest` (envytools xf_s2lt:
    /// add 0x200 unless bits 10-17 are all ones) or `truncate` (the document's wording).
    /// Default: the rule set's own (hardware: nearest, overview: truncate).
    #[arg(long, value_enum)]
    lt_rounding: Option<RoundArg>,
    /// NV2A fog slot on a write of X: `document` (Y, Z, W = 0, 0, 1.0) or `replicate-x` (xemu).
    #[arg(long, value_enum, default_value_t = FogArg::Document)]
    nv2a_fog: FogArg,
    /// Curie passthrough slot: `none` (default, the overview; no hardware test covers Curie)
    /// or `envytools` (envytools' untested 17th VAB slot).
    #[arg(long, value_enum, default_value_t = CuriePassArg::None)]
    curie_pass_slot: CuriePassArg,
}

impl OptionArgs {
    /// The options these flags select.
    pub(super) fn options(&self) -> Options {
        let mut o = Options::for_rules(match self.rules {
            RulesArg::Hardware => Rules::Hardware,
            RulesArg::Overview => Rules::Overview,
        });
        if let Some(c) = self.commit {
            o.commit = match c {
                CommitArg::Hardware => CommitRule::Hardware,
                CommitArg::Document => CommitRule::Document,
                CommitArg::Envytools => CommitRule::Envytools,
            };
        }
        if let Some(r) = self.lt_rounding {
            o.lt_rounding = match r {
                RoundArg::Nearest => LtRounding::Nearest,
                RoundArg::Truncate => LtRounding::Truncate,
            };
        }
        o.nv2a_fog = match self.nv2a_fog {
            FogArg::Document => Nv2aFog::Document,
            FogArg::ReplicateX => Nv2aFog::ReplicateX,
        };
        o.curie_pass = match self.curie_pass_slot {
            CuriePassArg::None => CuriePass::None,
            CuriePassArg::Envytools => CuriePass::Envytools,
        };
        o
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum RulesArg {
    Hardware,
    #[value(alias = "document")]
    Overview,
}

#[derive(Clone, Copy, ValueEnum)]
enum CuriePassArg {
    None,
    Envytools,
}

#[derive(Clone, Copy, ValueEnum)]
enum CommitArg {
    Hardware,
    Document,
    Envytools,
}

#[derive(Clone, Copy, ValueEnum)]
enum RoundArg {
    Truncate,
    Nearest,
}

#[derive(Clone, Copy, ValueEnum)]
enum FogArg {
    Document,
    ReplicateX,
}

/// The `options` object of `xf run --json`.
pub(super) fn options_json(o: Options) -> Value {
    json!({
        "rules": o.rules.name(),
        "commit": o.commit.name(),
        "lt_rounding": o.lt_rounding.name(),
        "nv2a_fog": o.nv2a_fog.name(),
        "curie_pass_slot": o.curie_pass.name(),
    })
}
