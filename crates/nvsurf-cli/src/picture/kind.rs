//! Picture kinds: which picture type a path names (from its extension: PNG, EXR, DDS, KTX2, or raw
//! bytes for any other extension, refusing picture types that are not supported), the result
//! type of this module, and the one message for a picture that cannot be read.

use nvsurf::Error;
use std::path::Path;

/// Errors of this module: the library's, or I/O and container errors as text.
pub type PicResult<T> = Result<T, Box<dyn std::error::Error>>;

/// How a KTX2 is written: the level data as it is, or each level zstd-compressed at a level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Ktx2Options {
    /// zstd level (1-22) of supercompression scheme 2; `None`: no supercompression.
    pub zstd_level: Option<i32>,
}

/// Picture file types, from the file extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PicKind {
    /// `.png`
    Png,
    /// `.exr`
    Exr,
    /// `.dds`
    Dds,
    /// `.ktx2`, and how it is written (uncompressed, or zstd at a level).
    Ktx2(Ktx2Options),
}

impl PicKind {
    /// The kind of `path` from its extension.
    pub fn of(path: &Path) -> Result<PicKind, Error> {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
        match ext.as_str() {
            "png" => Ok(PicKind::Png),
            "exr" => Ok(PicKind::Exr),
            "dds" => Ok(PicKind::Dds),
            "ktx2" => Ok(PicKind::Ktx2(Ktx2Options::default())),
            _ => Err(Error::UnknownName {
                kind: "picture type (file extension)",
                name: path.display().to_string(),
                suggestions: vec!["png".into(), "exr".into(), "dds".into(), "ktx2".into()],
            }),
        }
    }

    /// Whether `path` is a picture (`Some`), raw linear bytes (`None`, any extension that is not
    /// a picture), or an error: a picture type that is not supported (`.jpg`, `.bmp`, `.tiff`,
    /// ...) would otherwise silently hold raw bytes.
    pub fn of_linear_side(path: &Path) -> Result<Option<PicKind>, Error> {
        if let Ok(k) = PicKind::of(path) {
            return Ok(Some(k));
        }
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
        if UNSUPPORTED_PICTURE_EXTENSIONS.contains(&ext.as_str()) {
            return Err(Error::Unsupported {
                field: "picture file",
                value: format!("'{}'", path.display()),
                rule: "use .png, .exr, .dds or .ktx2, or any other extension for raw bytes".into(),
            });
        }
        Ok(None)
    }
}

impl PicKind {
    /// Parses `--input-format`/`--output-format`: `png`, `exr`, `dds`, `ktx2`, or `raw` (`None`).
    pub fn parse_flag(field: &'static str, s: &str) -> Result<Option<PicKind>, Error> {
        match s.trim().to_ascii_lowercase().as_str() {
            "png" => Ok(Some(PicKind::Png)),
            "exr" => Ok(Some(PicKind::Exr)),
            "dds" => Ok(Some(PicKind::Dds)),
            "ktx2" => Ok(Some(PicKind::Ktx2(Ktx2Options::default()))),
            "raw" | "bin" => Ok(None),
            _ => Err(Error::Unsupported { field, value: s.into(), rule: "expected png, exr, dds, ktx2 or raw".into() }),
        }
    }

    /// The picture type's name in messages: PNG, EXR, DDS, KTX2.
    pub fn name(self) -> &'static str {
        match self {
            PicKind::Png => "PNG",
            PicKind::Exr => "EXR",
            PicKind::Dds => "DDS",
            PicKind::Ktx2(_) => "KTX2",
        }
    }

    /// Whether the picture holds a whole texture (levels, layers, cube faces): DDS and KTX2.
    pub fn holds_texture(self) -> bool {
        matches!(self, PicKind::Dds | PicKind::Ktx2(_))
    }

    /// This kind with KTX2 written zstd-compressed at `level` (`--ktx2-zstd`); other kinds
    /// and `None` unchanged.
    pub fn with_ktx2_zstd(self, level: Option<i32>) -> PicKind {
        match (self, level) {
            (PicKind::Ktx2(_), Some(l)) => PicKind::Ktx2(Ktx2Options { zstd_level: Some(l) }),
            (k, _) => k,
        }
    }
}

/// Extensions of picture types that are not read or written (an error rather than raw bytes).
pub const UNSUPPORTED_PICTURE_EXTENSIONS: [&str; 8] = ["jpg", "jpeg", "bmp", "gif", "tga", "tif", "tiff", "webp"];

/// The error of a picture that cannot be read: names the file and its type.
pub(super) fn cannot_read(kind: &str, path: &Path, e: impl std::fmt::Display) -> Box<dyn std::error::Error> {
    format!("cannot read {kind} '{}': {e}", path.display()).into()
}

/// A PNG decoder's error as field, value and rule: what is wrong with the file, not the
/// decoder's internals.
pub(super) fn png_error(path: &Path, e: png::DecodingError) -> Box<dyn std::error::Error> {
    let p = path.display();
    match e {
        png::DecodingError::IoError(io) if io.kind() == std::io::ErrorKind::UnexpectedEof => {
            format!("picture '{p}' is not a whole PNG: the file ends inside it").into()
        }
        png::DecodingError::IoError(io) => format!("cannot read '{p}': {io}").into(),
        png::DecodingError::Format(f) => format!("picture '{p}' is not a valid PNG: {f}").into(),
        png::DecodingError::Parameter(x) => format!("picture '{p}' cannot be decoded: {x}").into(),
        png::DecodingError::LimitsExceeded => {
            format!("picture '{p}' is larger than the PNG decoder's memory limit allows").into()
        }
    }
}
