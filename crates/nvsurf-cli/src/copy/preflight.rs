//! What `tile` and `untile` check about their files before anything is read or allocated, in
//! the order that gives the right advice first: a regular input too short for what the flags
//! declare ([`check_input_len`]: no budget would help), then the memory budget (`job.rs`), then
//! the output's free space ([`check_output_space`]).

use super::job::{Direction, LinearSide, Shape, SplitKind};
use std::path::Path;

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// The length of `path` when it is a regular file (pipes, FIFOs and devices have none).
fn regular_len(path: &Path) -> Option<u64> {
    std::fs::metadata(path).ok().filter(|m| m.is_file()).map(|m| m.len())
}

/// Refuses a regular input shorter than the surface or texture the flags declare (`untile`: the
/// dump at `offset`; `tile`: a surface's raw linear rows), with the line the reader would give
/// after reading. A whole texture's linear input is left to the reader (with
/// `--generate-mips` it may hold level 0 only).
pub fn check_input_len(direction: Direction, tiled: &Path, linear: &LinearSide, shape: &Shape, offset: u64) -> Res<()> {
    match (direction, shape) {
        (Direction::Untile, Shape::Surface(sj)) => {
            let need = sj.end as u64;
            match regular_len(tiled) {
                Some(len) if len < need => Err(format!(
                    "input '{}' holds {len} bytes but {need} bytes are expected (surface of {} bytes at offset {})",
                    tiled.display(),
                    sj.surface.size_bytes(),
                    sj.offset
                )
                .into()),
                _ => Ok(()),
            }
        }
        (Direction::Untile, Shape::Texture(t)) => {
            let need = offset.checked_add(t.size_bytes()).ok_or("offset + texture size overflows")?;
            match regular_len(tiled) {
                Some(len) if len < need => Err(format!(
                    "input '{}' holds {len} bytes but the texture needs {} bytes at offset {offset}",
                    tiled.display(),
                    t.size_bytes()
                )
                .into()),
                _ => Ok(()),
            }
        }
        (Direction::Tile, Shape::Surface(sj)) => match linear {
            LinearSide::Raw(p) if regular_len(p).is_some_and(|len| len < sj.span as u64) => Err(format!(
                "input '{}' holds {} bytes but {} bytes are expected ({} rows x {} slices of the linear image)",
                p.display(),
                regular_len(p).unwrap_or(0),
                sj.span,
                sj.region.h,
                sj.region.d
            )
            .into()),
            _ => Ok(()),
        },
        (Direction::Tile, Shape::Texture(_)) => Ok(()),
    }
}

/// Refuses an output whose filesystem has less free space than the output takes: `untile`'s raw
/// linear file or split directory, `tile`'s tiled file (not when it patches `--onto` in place).
/// Pictures are compressed to a size not known before: they are not checked.
pub fn check_output_space(
    direction: Direction,
    tiled: &Path,
    onto: Option<&Path>,
    linear: &LinearSide,
    shape: &Shape,
    offset: u64,
) -> Res<()> {
    let check = crate::io::check_free_space;
    match direction {
        Direction::Untile => {
            let need = match shape {
                Shape::Surface(sj) => sj.lin.image_bytes(&sj.region).unwrap_or(u64::MAX),
                Shape::Texture(t) => t.linear_size_bytes(),
            };
            match linear {
                LinearSide::Raw(p) => check(p, false, need)?,
                LinearSide::Split(dir, SplitKind::Raw) => check(dir, true, need)?,
                _ => {}
            }
        }
        Direction::Tile => {
            if onto.is_some_and(|o| super::same_file(o, tiled)) {
                return Ok(());
            }
            let need = match shape {
                Shape::Surface(sj) => sj.file_bytes as u64,
                Shape::Texture(t) => offset.saturating_add(t.size_bytes()),
            };
            check(tiled, false, need)?;
        }
    }
    Ok(())
}
