//! `tile` from a DDS or KTX2: the file describes itself, so `--format`, `--size` and (with
//! `--texture`) `--levels`, `--layers` and `--type` come from its header when left out, and
//! are checked against it when given: a mismatch is one line naming both ("the DDS holds
//! BC7 1024x1024 with 11 levels; --format says BC3"). Runs before the job is built, so
//! every later check sees the header's values as if they had been typed.

use super::args::CopyArgs;
use crate::picture::{describe_file, Described, PicKind};
use crate::surface_args::parse_size;
use crate::texture::Levels;
use nvsurf::format::Format;
use nvsurf::texture::TextureType;
use nvsurf::Error;
use std::path::Path;

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// The picture kind of `tile`'s linear input when it is a DDS or KTX2 file.
fn texture_input(a: &CopyArgs) -> Res<Option<(&Path, PicKind)>> {
    let Some(path) = a.input.as_deref().filter(|p| p.as_os_str() != "-" && a.split.is_none()) else {
        return Ok(None);
    };
    let kind = match &a.input_format {
        Some(k) => PicKind::parse_flag("input-format", k)?,
        None => PicKind::of_linear_side(path)?,
    };
    Ok(kind.filter(|k| k.holds_texture()).map(|k| (path, k)))
}

/// Fills the flags `tile` left out from a DDS/KTX2 input's header and checks those given.
/// Returns the header's format when `--format` was left out (the job reads the file in it),
/// and an error naming `--size` when neither the flag nor a header gives one. With
/// `generate_mips`, a file holding level 0 only may be tiled into `--levels N` (the levels
/// below are built, `tile --generate-mips`).
pub fn fill_from_header(a: &mut CopyArgs, generate_mips: bool) -> Res<Option<Format>> {
    let described = match texture_input(a)? {
        Some((path, kind)) => describe_file(path, kind)?,
        None => None,
    };
    let Some(d) = described else {
        if a.surface.size.is_empty() {
            return Err(Error::Unsupported {
                field: "size",
                value: "(none)".into(),
                rule: "give --size W[xH[xD]] (a .dds or .ktx2 input brings its own)".into(),
            }
            .into());
        }
        return Ok(None);
    };
    let header_format = check_format(a, &d)?;
    let e = d.extent;
    let size = [e.width, e.height, e.depth];
    if a.surface.size.is_empty() {
        a.surface.size = match e.depth {
            1 => format!("{}x{}", e.width, e.height),
            z => format!("{}x{}x{z}", e.width, e.height),
        };
    } else if parse_size(&a.surface.size)? != size {
        return Err(d.mismatch("size", &a.surface.size).into());
    }
    if a.texture {
        match a.tex.levels {
            None => a.tex.levels = Some(Levels::Count(d.levels)),
            Some(n) if n.count(d.texture_type(), size) != d.levels && !(generate_mips && d.levels == 1) => {
                return Err(d.mismatch("levels", &n.to_string()).into())
            }
            Some(_) => {}
        }
        match a.tex.layers {
            None => a.tex.layers = Some(d.layers),
            Some(n) if n != d.layers => return Err(d.mismatch("layers", &n.to_string()).into()),
            Some(_) => {}
        }
        match &a.tex.ty {
            None => a.tex.ty = Some(d.texture_type().name().to_string()),
            Some(t) if !same_kind(TextureType::parse(t)?, d.texture_type()) => {
                return Err(d.mismatch("type", t).into())
            }
            Some(_) => {}
        }
    }
    Ok(header_format)
}

/// `--format` (or `--elem-size`) against the header; fills `--format` when neither is given.
fn check_format(a: &mut CopyArgs, d: &Described) -> Res<Option<Format>> {
    if let Some(name) = &a.surface.format {
        let f = Format::parse(name)?;
        if !d.reads_as(&f) {
            return Err(d.mismatch("format", name).into());
        }
        return Ok(None);
    }
    if let Some(n) = a.surface.elem_size {
        if n != d.format.elem_size_bytes() {
            return Err(d.mismatch("elem-size", &n.to_string()).into());
        }
        a.surface.elem_size = None;
    }
    // The id name resolves to the same table row: the layout needs its element size and block.
    a.surface.format = Some(d.format.id_name());
    Ok(Some(d.format))
}

/// Whether a `--type` agrees with the header's kind: cube with cube, 3D with 3D, and any flat
/// type (1D, 2D, arrays, rect) with a flat texture (a header cannot tell 2D from a 2D array
/// of one layer).
fn same_kind(flag: TextureType, header: TextureType) -> bool {
    let class = |t: TextureType| match t {
        TextureType::Cube | TextureType::CubeArray => 0,
        TextureType::D3 => 1,
        _ => 2,
    };
    class(flag) == class(header)
}
