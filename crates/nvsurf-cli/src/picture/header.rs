//! The header of a DDS or KTX2 file read on its own, for the commands that take the format,
//! size, levels, layers and kind from it ([`Described`]) instead of from their flags.

use super::dds::describe_dds;
use super::described::Described;
use super::kind::{PicKind, PicResult};
use super::ktx2_read::{ktx2_header_of_prefix, ktx2_prefix_len};
use super::ktx2_write::HEADER_BYTES;
use std::io::Read;
use std::path::Path;

/// What the header of a DDS or KTX2 file says (`None` for other picture kinds). Only the
/// header is read from a DDS; a KTX2's level index and DFD are read as well, and checked against
/// the file's length (a regular file: a pipe is not read twice, so it gives `None`).
pub fn describe_file(path: &Path, kind: PicKind) -> PicResult<Option<Described>> {
    if !matches!(kind, PicKind::Dds | PicKind::Ktx2(_)) || !super::size::is_regular(path) {
        return Ok(None);
    }
    let cannot = |e: Box<dyn std::error::Error>| super::kind::cannot_read(kind.name(), path, e);
    let file_len = std::fs::metadata(path).map_err(|e| cannot(e.into()))?.len();
    let described = match kind {
        PicKind::Dds => {
            let mut head = Vec::with_capacity(148);
            std::fs::File::open(path).and_then(|f| f.take(148).read_to_end(&mut head)).map_err(|e| cannot(e.into()))?;
            let d = describe_dds(&head).map_err(cannot)?;
            // The data after the header must be all there.
            let header = if head.get(84..88) == Some(b"DX10") { 148 } else { 128 };
            let need = d.shape().checked_bytes(&d.format).map_err(|e| cannot(e.into()))? as u64;
            if file_len.saturating_sub(header) < need {
                return Err(cannot(
                    format!(
                        "the header says {} ({need} bytes of data) but the file holds {} bytes after its {header}-byte header",
                        d.summary(),
                        file_len.saturating_sub(header)
                    )
                    .into(),
                ));
            }
            d
        }
        _ => {
            // The header, level index and DFD only: the level data is read once, later.
            let mut head = Vec::with_capacity(HEADER_BYTES);
            let mut f = std::fs::File::open(path).map_err(|e| cannot(e.into()))?;
            (&mut f).take(HEADER_BYTES as u64).read_to_end(&mut head).map_err(|e| cannot(e.into()))?;
            let want = ktx2_prefix_len(&head, file_len);
            f.take(want.saturating_sub(head.len() as u64)).read_to_end(&mut head).map_err(|e| cannot(e.into()))?;
            ktx2_header_of_prefix(&head, file_len).map_err(|e| cannot(e.into()))?.described
        }
    };
    Ok(Some(described))
}
