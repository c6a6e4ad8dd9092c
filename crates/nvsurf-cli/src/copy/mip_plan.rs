//! `tile --texture --generate-mips`: the levels below a source level are rebuilt from it with
//! the library's box filter ([`nvsurf::texture::mips`]: 2x2 or 2x2x2 box, polyphase 3-tap
//! box on odd sizes, linear light for sRGB, exact rounded averages for integers), one level
//! at a time (only the level above and the new one are held as texels).
//!
//! - A whole texture: every layer (each cube face) is rebuilt from its level 0 in the packed
//!   linear image before the texture is tiled; a DDS may hold level 0 only, and the lower
//!   levels of a DDS that has them are replaced (the summary says so).
//! - `--subresource L,LAYER`: level L of LAYER is tiled as usual, then read back from the
//!   tiled bytes (so `--box` and `--onto` count) and the levels below it of that layer are
//!   rebuilt; the dump is patched once, over the span of those levels, and nothing else of
//!   the texture changes.
//!
//! Texels go through the picture code's [`decode_texels`] and [`encode_texels`], the codecs
//! `tile` uses for pictures. This module checks the flags and rebuilds levels in a packed
//! linear texture; [`super::mips`] patches a tiled dump for `--subresource`.

use super::args::TileArgs;
use crate::picture::texels::{decode_texels, encode_texels};
use crate::picture::DdsTexture;
use crate::surface_args::parse_list;
use nvsurf::codec::Texel;
use nvsurf::extent::{Extent, Texels};
use nvsurf::format::Format;
use nvsurf::texture::{mips, Texture};
use nvsurf::Error;
use std::sync::Mutex;

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// What `--generate-mips` does, checked before anything is read.
pub struct MipPlan {
    /// The texture (for `--subresource`, the one the subresource belongs to).
    pub texture: Texture,
    /// The format the texels are decoded from and encoded to.
    pub format: Format,
    /// The source level: 0 for a whole texture, L for `--subresource L,LAYER`.
    pub from_level: u32,
    /// The layer of `--subresource`; `None`: every layer.
    pub layer: Option<u32>,
    /// Levels of a DDS input that were replaced (set while the job runs).
    pub replaced_dds_levels: Mutex<Option<u32>>,
    /// How generated levels of a block-compressed format are encoded (`--bc-quality`), and
    /// their PSNR against the filtered texels, per level and layer.
    pub encoding: crate::picture::Encoding,
}

fn unsupported(field: &'static str, value: impl Into<String>, rule: impl Into<String>) -> Error {
    Error::Unsupported { field, value: value.into(), rule: rule.into() }
}

/// Checks `--generate-mips` against the other flags: it needs `--texture`, a `--format` whose
/// values average, a texture of two levels or more and, with `--subresource L,LAYER`, a level
/// L that has a level below it, and the decoded levels within `budget` bytes. `None` without
/// the flag. `header_format` is the format a DDS/KTX2 input's header gave (it stands in for
/// `--format`).
pub fn plan(a: &TileArgs, header_format: Option<Format>, budget: Option<u64>) -> Res<Option<MipPlan>> {
    if !a.generate_mips {
        return Ok(None);
    }
    let c = &a.copy;
    if !c.texture {
        return Err(unsupported(
            "generate-mips",
            "without --texture",
            "mips are the levels of a texture: add --texture and --levels N",
        )
        .into());
    }
    let Some(format) = header_format.or(c.surface.format()?) else {
        return Err(unsupported(
            "format",
            "(none)",
            "--generate-mips filters texels: give --format F instead of --elem-size",
        )
        .into());
    };
    mips::check_format(&format)?;
    let (texture, _) = crate::texture::build_texture_assumed(&c.surface, &c.tex)?;
    let levels = texture.level_count();
    if levels < 2 {
        return Err(unsupported(
            "levels",
            levels.to_string(),
            "--generate-mips builds the levels below level 0: give --levels N with N >= 2",
        )
        .into());
    }
    let (from_level, layer) = match &c.subresource {
        None => (0, None),
        Some(sel) => {
            let [level, layer] = parse_list::<2>("subresource", sel)?;
            if level + 1 >= levels {
                return Err(unsupported(
                    "subresource",
                    sel.clone(),
                    format!(
                        "level {level} is the last of {levels} levels: --generate-mips has no level below it to build"
                    ),
                )
                .into());
            }
            (level, Some(layer))
        }
    };
    // The source level and the next one as texels (16 bytes each) are held on top of the copy,
    // by as many workers as build layers at once.
    let texels = texture.level(from_level)?.texels.count();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let workers =
        if layer.is_some() { 1 } else { c.threads.threads.unwrap_or(cores).min(texture.layer_count() as usize) };
    let need = texels.saturating_mul(16).saturating_mul(2).saturating_mul(workers as u64);
    if let Some(budget) = budget {
        if need > budget {
            return Err(format!(
                "max-memory {budget} bytes is less than the {need} bytes --generate-mips holds for level {from_level} \
                 ({texels} texels, decoded, twice, in {workers} worker(s)); give --max-memory BYTES to allow more"
            )
            .into());
        }
    }
    Ok(Some(MipPlan {
        texture,
        format,
        from_level,
        layer,
        replaced_dds_levels: Mutex::new(None),
        encoding: Default::default(),
    }))
}

impl MipPlan {
    /// The layers whose levels are rebuilt.
    pub(super) fn layers(&self) -> std::ops::Range<u32> {
        match self.layer {
            Some(l) => l..l + 1,
            None => 0..self.texture.layer_count(),
        }
    }

    /// The picture extent of `level` (in texels).
    pub(super) fn extent(&self, level: u32) -> Res<Extent<Texels>> {
        let [w, h, d] = self.texture.level(level)?.texels.to_array();
        Ok(Extent::<Texels>::new(w, h, d))
    }

    /// The generated levels and their sizes in texels (width, height, depth), for the summary
    /// line (and a JSON summary).
    pub fn generated_levels(&self) -> Vec<(u32, [u32; 3])> {
        let t = &self.texture;
        (self.from_level + 1..t.level_count())
            .filter_map(|l| t.level(l).ok())
            .map(|l| (l.level, l.texels.to_array()))
            .collect()
    }

    /// For the summary line: which levels were generated, their sizes, and from what.
    pub fn describe(&self) -> String {
        let t = &self.texture;
        let sizes: Vec<String> =
            self.generated_levels().iter().map(|(l, [w, h, d])| format!("level {l} {w}x{h}x{d}")).collect();
        let layers = match self.layer {
            Some(l) => format!("layer {l}"),
            None => format!("{} layer(s)", t.layer_count()),
        };
        let light = if self.format.is_srgb() { ", in linear light" } else { "" };
        let dds = match *self.replaced_dds_levels.lock().unwrap_or_else(|e| e.into_inner()) {
            Some(n) => format!("; the DDS's own {n} lower level(s) were replaced"),
            None => String::new(),
        };
        format!(
            "; generated mips of {layers} from level {} (box filter{light}): {}{dds}",
            self.from_level,
            sizes.join(", ")
        )
    }

    /// The packed linear texture of a DDS read for `--generate-mips`: its data as it is when it
    /// has every level (their lower levels are replaced later, which the summary says), or its
    /// level 0 of each layer placed in a texture-sized buffer when it holds level 0 only.
    pub fn dds_levels(&self, t: &Texture, dds: DdsTexture) -> Res<Vec<u8>> {
        if dds.levels == t.level_count() {
            *self.replaced_dds_levels.lock().unwrap_or_else(|e| e.into_inner()) = Some(dds.levels - 1);
            return Ok(dds.data);
        }
        level0_stack(t, &dds.data, "DDS level 0 data")
    }

    /// The packed linear texture of a raw input read for `--generate-mips`: as it is when it
    /// holds every level, or placed level by level when it holds exactly level 0 of each layer
    /// (one after the other, as a DDS stores them), which is all the rebuild reads.
    pub fn raw_levels(&self, t: &Texture, data: Vec<u8>) -> Res<Vec<u8>> {
        let full = t.linear_size_bytes();
        let level0 = level0_stack_bytes(t)?;
        match data.len() as u64 {
            n if n >= full => Ok(data),
            n if n == level0 => level0_stack(t, &data, "raw level 0 data"),
            n => Err(format!(
                "linear texture input holds {n} bytes; with --generate-mips it holds every level \
                 ({full} bytes) or level 0 of every layer ({level0} bytes)"
            )
            .into()),
        }
    }
    /// Rebuilds, for every layer of the plan, the levels below the source level in a packed
    /// linear texture (layer by layer, level by level); the layers are shared out over `pool`
    /// when there is one (each worker holds two levels of its layer).
    pub fn regenerate_linear(&self, linear: &mut [u8], pool: Option<&rayon::ThreadPool>) -> Res<()> {
        use rayon::prelude::*;
        let t = &self.texture;
        let layer_bytes = usize::try_from(t.linear_layer_bytes())?;
        let need = layer_bytes.checked_mul(t.layer_count() as usize).ok_or("linear texture size overflows")?;
        if layer_bytes == 0 || linear.len() < need {
            return Err(Error::BufferTooSmall {
                what: "linear texture",
                needed: need as u64,
                got: linear.len() as u64,
            }
            .into());
        }
        let layers = self.layers();
        let chunks: Vec<(u32, &mut [u8])> =
            (0u32..).zip(linear[..need].chunks_mut(layer_bytes)).filter(|(l, _)| layers.contains(l)).collect();
        // Errors cross threads as text.
        let one = |(layer, chunk): (u32, &mut [u8])| self.regenerate_layer(layer, chunk).map_err(|e| e.to_string());
        match pool {
            None => chunks.into_iter().try_for_each(one)?,
            Some(p) => p.install(|| chunks.into_par_iter().try_for_each(one))?,
        }
        Ok(())
    }

    /// [`Self::regenerate_linear`] of one layer: `linear` is that layer's packed levels.
    fn regenerate_layer(&self, layer: u32, linear: &mut [u8]) -> Res<()> {
        let t = &self.texture;
        let base = u64::from(layer) * t.linear_layer_bytes();
        let src = t.subresource(self.from_level, layer)?;
        let mut texels = decode_texels(&self.format, self.extent(self.from_level)?, slice(linear, &src, base)?)?;
        for level in self.from_level + 1..t.level_count() {
            let (bytes, next) = self.next_level(&texels, level, layer)?;
            let sub = t.subresource(level, layer)?;
            let dst = slice_mut(linear, &sub, base)?;
            if dst.len() != bytes.len() {
                return Err(format!(
                    "level {level} holds {} linear bytes but its texels encode to {} bytes in {}: check --block-texels",
                    dst.len(),
                    bytes.len(),
                    self.format.name()
                )
                .into());
            }
            dst.copy_from_slice(&bytes);
            texels = next;
        }
        Ok(())
    }

    /// Level `level` of `layer` from the texels of the level above it: its linear bytes and its
    /// texels (an encode's PSNR goes to [`MipPlan::encoding`]; layers run on several threads,
    /// so each level is measured on its own first).
    pub(super) fn next_level(&self, above: &[Texel], level: u32, layer: u32) -> Res<(Vec<u8>, Vec<Texel>)> {
        let from = self.extent(level - 1)?;
        let want = self.extent(level)?;
        let (texels, got) = mips::downsample_format(&self.format, above, [from.width, from.height, from.depth])?;
        if got != [want.width, want.height, want.depth] {
            return Err(format!(
                "level {level} of the texture is {}x{}x{} texels but halving level {} gives {}x{}x{}",
                want.width,
                want.height,
                want.depth,
                level - 1,
                got[0],
                got[1],
                got[2]
            )
            .into());
        }
        let own = crate::picture::Encoding::new(self.encoding.options.bc_quality);
        let bytes = encode_texels(&self.format, want, &texels, &own)?;
        own.finish(level, layer);
        for m in own.measured() {
            self.encoding.push(m, level, layer);
        }
        Ok((bytes, texels))
    }
}

/// The linear bytes of a subresource in a packed linear texture whose first `base` bytes are
/// left out of `linear`.
fn slice<'a>(linear: &'a [u8], sub: &nvsurf::texture::Subresource, base: u64) -> Res<&'a [u8]> {
    let a = sub.linear_offset_bytes.checked_sub(base).ok_or("subresource before its layer")?;
    let (a, n) = (usize::try_from(a)?, usize::try_from(sub.linear_size_bytes)?);
    linear.get(a..a.checked_add(n).ok_or("linear offset overflows")?).ok_or_else(|| {
        Error::BufferTooSmall { what: "linear texture", needed: (a + n) as u64, got: linear.len() as u64 }.into()
    })
}

fn slice_mut<'a>(linear: &'a mut [u8], sub: &nvsurf::texture::Subresource, base: u64) -> Res<&'a mut [u8]> {
    let a = sub.linear_offset_bytes.checked_sub(base).ok_or("subresource before its layer")?;
    let (a, n) = (usize::try_from(a)?, usize::try_from(sub.linear_size_bytes)?);
    let len = linear.len() as u64;
    linear
        .get_mut(a..a.checked_add(n).ok_or("linear offset overflows")?)
        .ok_or_else(|| Error::BufferTooSmall { what: "linear texture", needed: (a + n) as u64, got: len }.into())
}

/// Bytes of level 0 of every layer, one after the other.
fn level0_stack_bytes(t: &Texture) -> Res<u64> {
    let mut n = 0u64;
    for layer in 0..t.layer_count() {
        n = n.checked_add(t.subresource(0, layer)?.linear_size_bytes).ok_or("level 0 stack size overflows")?;
    }
    Ok(n)
}

/// A texture-sized packed linear buffer with level 0 of each layer taken, in order, from
/// `data` (level 0 of layer 0, then of layer 1, ...); every other level is zero.
fn level0_stack(t: &Texture, data: &[u8], what: &'static str) -> Res<Vec<u8>> {
    let n = usize::try_from(t.linear_size_bytes())?;
    let mut out = crate::picture::try_filled("linear texture", n, 0u8)?;
    let mut from = 0usize;
    for layer in 0..t.layer_count() {
        let sub = t.subresource(0, layer)?;
        let len = usize::try_from(sub.linear_size_bytes)?;
        let end = from.checked_add(len).ok_or("level 0 offset overflows")?;
        let src =
            data.get(from..end).ok_or(Error::BufferTooSmall { what, needed: end as u64, got: data.len() as u64 })?;
        slice_mut(&mut out, &sub, 0)?.copy_from_slice(src);
        from = end;
    }
    Ok(out)
}
