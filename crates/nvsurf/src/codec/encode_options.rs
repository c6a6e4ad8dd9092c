//! [`EncodeOptions`]: how `Format::encode_rect_with` and its
//! siblings encode; today only the effort of the block-compression encoders ([`BcQuality`]).
//! The options exist without the `bc-encode` feature, so code that passes them builds either
//! way; without the feature a compressed format is refused (see `docs/encoding.md`).

/// How hard the block-compression (BC) encoders search (slower searches more; on the test
/// pictures it never gave a lower PSNR). BC7 and BC6H take the Intel ISPC Texture
/// Compressor's `fast`, `basic` and `slow` presets; BC1 and BC3 switch to libsquish's
/// iterative cluster fit (texpresso) at `Slow`; BC2 uses its range, cluster and iterative
/// cluster fits, as do BC1 blocks holding a texel with alpha below 128 (BC1's 1-bit alpha);
/// BC4 and BC5 have one setting. See `docs/encoding.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum BcQuality {
    /// The quickest preset (for BC7 about 2 dB below `Normal`, `docs/perf/bc-encode.md`).
    Fast,
    /// The default: the encoders' "basic" presets.
    #[default]
    Normal,
    /// The slowest, best preset.
    Slow,
}

impl BcQuality {
    /// Parses `fast`, `normal` or `slow` (the CLI's `--bc-quality`).
    pub fn parse(s: &str) -> crate::Result<BcQuality> {
        match s {
            "fast" => Ok(BcQuality::Fast),
            "normal" => Ok(BcQuality::Normal),
            "slow" => Ok(BcQuality::Slow),
            _ => Err(crate::Error::Parse { field: "bc-quality", value: s.into(), rule: "fast, normal or slow" }),
        }
    }

    /// The name [`BcQuality::parse`] reads.
    pub fn name(self) -> &'static str {
        match self {
            BcQuality::Fast => "fast",
            BcQuality::Normal => "normal",
            BcQuality::Slow => "slow",
        }
    }
}

/// Options of the rectangle encoders. `EncodeOptions::default()` is what
/// `Format::encode_rect` uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct EncodeOptions {
    /// Effort of the block-compression encoders (ignored by other formats).
    pub bc_quality: BcQuality,
}

impl EncodeOptions {
    /// Options with this BC quality.
    pub fn with_bc_quality(bc_quality: BcQuality) -> EncodeOptions {
        EncodeOptions { bc_quality }
    }
}
