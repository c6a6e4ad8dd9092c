//! `--palette FILE` for the pre-G80 INDEX8 (P8) format: the file is the 256 A8R8G8B8 entries as
//! the GPU stores them (1024 bytes, each entry little-endian: bytes B, G, R, A). Pixels of an
//! INDEX8 image are its palette entries; the indices themselves go to raw outputs unchanged.
//! Pictures are never encoded to INDEX8 (that needs a palette search): `tile`/`convert` from a
//! picture to INDEX8 are refused.

use nvsurf::format::{Format, Palette, PALETTE_BYTES};
use nvsurf::Error;
use std::io::Read;
use std::path::Path;

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// Reads a palette file: exactly 1024 bytes (a longer file is refused without reading it all).
pub fn read(path: &Path) -> Res<Palette> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read palette '{}': {e}", path.display()))?;
    let mut bytes = Vec::with_capacity(PALETTE_BYTES + 1);
    file.take(PALETTE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read palette '{}': {e}", path.display()))?;
    if bytes.len() > PALETTE_BYTES {
        let len = std::fs::metadata(path).map(|m| m.len()).unwrap_or(bytes.len() as u64);
        return Err(Error::Unsupported {
            field: "palette",
            value: format!("'{}' of {len} bytes", path.display()),
            rule: "a palette is 256 A8R8G8B8 entries, 1024 bytes".into(),
        }
        .into());
    }
    Palette::from_bytes(&bytes).map_err(|_| {
        Error::Unsupported {
            field: "palette",
            value: format!("'{}' of {} bytes", path.display(), bytes.len()),
            rule: "a palette is 256 A8R8G8B8 entries, 1024 bytes".into(),
        }
        .into()
    })
}

/// The palette `f` needs: read from `path` for INDEX8 (an error without one), `None` for
/// every other format (a given `--palette` is then refused, so that it is never ignored).
pub fn for_format(f: &Format, path: Option<&Path>) -> Res<Option<Palette>> {
    match (f.needs_palette(), path) {
        (true, Some(p)) => Ok(Some(read(p)?)),
        (true, None) => Err(Error::Unsupported {
            field: "palette",
            value: "(none)".into(),
            rule: format!(
                "format {} holds palette indices: give --palette FILE (256 A8R8G8B8 entries, 1024 bytes)",
                f.name()
            ),
        }
        .into()),
        (false, Some(p)) => Err(Error::Unsupported {
            field: "palette",
            value: p.display().to_string(),
            rule: format!("only INDEX8 (P8) takes a palette, not {}", f.name()),
        }
        .into()),
        (false, None) => Ok(None),
    }
}

/// INDEX8 elements as pixels: the A8R8G8B8 format and the palette entries of `indices`.
pub fn expand(f: &Format, palette: &Palette, indices: &[u8]) -> Res<(Format, Vec<u8>)> {
    let argb = f.palette_entry_format().ok_or_else(|| format!("format {} has no palette", f.name()))?;
    Ok((argb, palette.expand(indices)?))
}

/// The refusal of pictures to INDEX8.
pub fn no_encoding(f: &Format) -> Error {
    Error::Unsupported {
        field: "format",
        value: f.name().to_string(),
        rule: "pictures are not encoded to palette indices (that needs a palette search): give raw INDEX8 bytes".into(),
    }
}
