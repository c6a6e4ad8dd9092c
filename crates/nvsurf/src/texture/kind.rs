//! Texture types (envytools `docs/hw/memory/g80-surface.rst`, "Textures, mipmapping and arrays")
//! and their shape rules.
//!
//! The document lists nine types: 1D, 2D, 3D, 1D_ARRAY, 2D_ARRAY, CUBE, BUFFER, RECT and
//! CUBE_ARRAY (GT215+). All but BUFFER and RECT are made of subtextures (layers) which are made
//! of mip levels. [`TextureType::check_shape`] enforces the shape rules of each type; the caller
//! passes sizes in texels.

use crate::error::{closest, Error, Result};
use crate::extent::{Extent, Texels};
use crate::gpu::Gpu;
use alloc::format;
use alloc::string::ToString;

/// A texture type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TextureType {
    /// 1D: mip levels whose height and depth are 1.
    D1,
    /// 2D: mip levels whose depth is 1.
    D2,
    /// 3D: mip levels of any depth.
    D3,
    /// 1D_ARRAY: layers, each like a 1D texture.
    D1Array,
    /// 2D_ARRAY: layers, each like a 2D texture.
    D2Array,
    /// CUBE: 6 square layers (faces), laid out like a 2D_ARRAY of 6.
    Cube,
    /// CUBE_ARRAY (GT215+): like 2D_ARRAY with a multiple of 6 layers.
    CubeArray,
    /// RECT: a single pitch surface, or a single blocklinear surface of depth 1.
    Rect,
    /// BUFFER: a packed 1D array of elements, not a surface.
    Buffer,
}

/// Every texture type, in the document's order of description.
pub const ALL_TEXTURE_TYPES: [TextureType; 9] = [
    TextureType::D1,
    TextureType::D2,
    TextureType::D3,
    TextureType::D1Array,
    TextureType::D2Array,
    TextureType::Cube,
    TextureType::CubeArray,
    TextureType::Rect,
    TextureType::Buffer,
];

impl TextureType {
    /// The document's name, lower case (`1d`, `2d_array`, `cube_array`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            TextureType::D1 => "1d",
            TextureType::D2 => "2d",
            TextureType::D3 => "3d",
            TextureType::D1Array => "1d_array",
            TextureType::D2Array => "2d_array",
            TextureType::Cube => "cube",
            TextureType::CubeArray => "cube_array",
            TextureType::Rect => "rect",
            TextureType::Buffer => "buffer",
        }
    }

    /// Parses a name case-insensitively; `-` and `_` are interchangeable and optional
    /// (`2d-array`, `2DARRAY`, `CUBE_ARRAY`), and `1d_buffer` is accepted for BUFFER.
    pub fn parse(name: &str) -> Result<TextureType> {
        let n: alloc::string::String =
            name.trim().chars().filter(|c| !matches!(c, '-' | '_' | ' ')).map(|c| c.to_ascii_lowercase()).collect();
        let t = match n.as_str() {
            "1d" => TextureType::D1,
            "2d" => TextureType::D2,
            "3d" => TextureType::D3,
            "1darray" => TextureType::D1Array,
            "2darray" => TextureType::D2Array,
            "cube" | "cubemap" => TextureType::Cube,
            "cubearray" | "cubemaparray" => TextureType::CubeArray,
            "rect" | "rectangle" => TextureType::Rect,
            "buffer" | "1dbuffer" => TextureType::Buffer,
            _ => {
                return Err(Error::UnknownName {
                    kind: "texture type",
                    name: name.to_string(),
                    suggestions: closest(name, ALL_TEXTURE_TYPES.iter().map(|t| t.name())),
                })
            }
        };
        Ok(t)
    }

    /// Types made of layers (subtextures) beyond the first: the arrays and cubes.
    pub const fn is_layered(self) -> bool {
        matches!(self, TextureType::D1Array | TextureType::D2Array | TextureType::Cube | TextureType::CubeArray)
    }

    /// CUBE and CUBE_ARRAY.
    pub const fn is_cube(self) -> bool {
        matches!(self, TextureType::Cube | TextureType::CubeArray)
    }

    /// Types that may have more than one mip level (all but RECT and BUFFER).
    pub const fn has_mip_levels(self) -> bool {
        !matches!(self, TextureType::Rect | TextureType::Buffer)
    }

    /// The layer count a type has when the caller does not give one (6 for CUBE and CUBE_ARRAY).
    pub const fn default_layers(self) -> u32 {
        if self.is_cube() {
            6
        } else {
            1
        }
    }

    /// Checks that the type exists on `gpu`: CUBE_ARRAY is GT215+ (envytools
    /// `docs/hw/memory/g80-surface.rst`); the pre-G80 texture units have no arrays and no BUFFER
    /// textures ("Findings on pre-NV50 miptree layout", nouveau mailing list, 2010-01-08 knows 1D,
    /// 2D, 3D, cube and linear (RECT) textures only).
    pub fn check_gpu(self, gpu: Gpu) -> Result<()> {
        let rule = if self == TextureType::CubeArray && !gpu.is_gt215_or_later() {
            "CUBE_ARRAY textures exist on GT215 (NVA3) and later only"
        } else if !gpu.is_g80_or_later()
            && matches!(self, TextureType::D1Array | TextureType::D2Array | TextureType::Buffer)
        {
            "pre-G80 GPUs have no array or BUFFER textures (1D, 2D, 3D, CUBE and RECT only)"
        } else {
            return Ok(());
        };
        Err(Error::Unsupported { field: "type", value: format!("{} on {}", self.name(), gpu), rule: rule.to_string() })
    }

    /// Checks the shape rules of the type for a level-0 size in texels and a layer count:
    /// 1D (and 1D_ARRAY, BUFFER) forces height and depth to 1, 2D-like types force depth 1, CUBE
    /// faces are square, CUBE has 6 layers, CUBE_ARRAY a multiple of 6, other non-array types 1.
    pub fn check_shape(self, size_texels: impl Into<Extent<Texels>>, layers: u32) -> Result<()> {
        self.check_shape_with(size_texels.into().to_array(), layers, false)
    }

    /// [`TextureType::check_shape`] on `gpu`: pre-G80 chips also take non-square cube maps
    /// (ERRATA E12, `docs/ERRATA.md`: the nouveau mailing list's "Findings on pre-NV50 miptree
    /// layout", 2010, says the hardware samples them).
    pub fn check_shape_on(self, gpu: Gpu, size_texels: impl Into<Extent<Texels>>, layers: u32) -> Result<()> {
        self.check_shape_with(size_texels.into().to_array(), layers, !gpu.is_g80_or_later())
    }

    fn check_shape_with(self, size_texels: [u32; 3], layers: u32, non_square_cubes: bool) -> Result<()> {
        for (field, v) in ["width", "height", "depth"].into_iter().zip(size_texels) {
            if v == 0 {
                return Err(Error::OutOfRange { field, value: 0, min: 1, max: u32::MAX.into() });
            }
        }
        let [w, h, d] = size_texels;
        let one_d = matches!(self, TextureType::D1 | TextureType::D1Array | TextureType::Buffer);
        if one_d && h != 1 {
            return Err(self.shape_err("height", h, "forces height to 1"));
        }
        if self != TextureType::D3 && d != 1 {
            return Err(self.shape_err("depth", d, "forces depth to 1 (only 3D textures have depth)"));
        }
        if self.is_cube() && w != h && !non_square_cubes {
            return Err(Error::Unsupported {
                field: "size",
                value: format!("{w}x{h}"),
                rule: format!("{} faces are square (width == height)", self.name().to_ascii_uppercase()),
            });
        }
        match self {
            TextureType::Cube if layers != 6 => Err(Error::Unsupported {
                field: "layers",
                value: layers.to_string(),
                rule: "a CUBE texture has exactly 6 layers (faces); use cube_array for more".to_string(),
            }),
            TextureType::CubeArray if layers == 0 || !layers.is_multiple_of(6) => {
                Err(Error::NotMultiple { field: "layers", value: layers.into(), multiple: 6 })
            }
            TextureType::D1Array | TextureType::D2Array if layers == 0 => {
                Err(Error::OutOfRange { field: "layers", value: 0, min: 1, max: u32::MAX.into() })
            }
            t if !t.is_layered() && layers != 1 => Err(Error::Unsupported {
                field: "layers",
                value: layers.to_string(),
                rule: format!("a {} texture has 1 layer; use an array type for more", t.name().to_ascii_uppercase()),
            }),
            _ => Ok(()),
        }
    }

    fn shape_err(self, field: &'static str, v: u32, rule: &str) -> Error {
        Error::Unsupported {
            field,
            value: v.to_string(),
            rule: format!("the {} type {rule}", self.name().to_ascii_uppercase()),
        }
    }
}

impl core::fmt::Display for TextureType {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// The most mip levels a texture of this level-0 size (texels) can have:
/// `floor(log2(max dimension)) + 1`.
pub fn max_levels(size_texels: impl Into<Extent<Texels>>) -> u32 {
    let e: Extent<Texels> = size_texels.into();
    let m = e.width.max(e.height).max(e.depth).max(1);
    32 - m.leading_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for t in ALL_TEXTURE_TYPES {
            assert_eq!(TextureType::parse(t.name()).unwrap(), t);
        }
        assert_eq!(TextureType::parse("2D-ARRAY").unwrap(), TextureType::D2Array);
        assert_eq!(TextureType::parse("CUBE_ARRAY").unwrap(), TextureType::CubeArray);
        let e = TextureType::parse("cub").unwrap_err();
        assert!(e.to_string().contains("cube"), "{e}");
    }

    #[test]
    fn level_limit() {
        assert_eq!(max_levels([256, 256, 1]), 9);
        assert_eq!(max_levels([300, 200, 1]), 9);
        assert_eq!(max_levels([1, 1, 1]), 1);
        assert_eq!(max_levels([32, 4, 1]), 6);
        assert_eq!(max_levels([1, 1, 1024]), 11);
    }

    #[test]
    fn shapes() {
        assert!(TextureType::D1.check_shape([8, 2, 1], 1).is_err());
        assert!(TextureType::D2.check_shape([8, 2, 2], 1).is_err());
        assert!(TextureType::D3.check_shape([8, 2, 2], 1).is_ok());
        assert!(TextureType::Cube.check_shape([8, 8, 1], 7).is_err());
        assert!(TextureType::Cube.check_shape([8, 4, 1], 6).is_err());
        assert!(TextureType::CubeArray.check_shape([8, 8, 1], 12).is_ok());
        assert!(matches!(
            TextureType::CubeArray.check_shape([8, 8, 1], 8),
            Err(Error::NotMultiple { field: "layers", multiple: 6, .. })
        ));
        assert!(TextureType::D2.check_shape([8, 8, 1], 2).is_err());
        assert!(TextureType::D2Array.check_shape([8, 8, 1], 2).is_ok());
        assert!(TextureType::CubeArray.check_gpu(Gpu::G80).is_err());
        assert!(TextureType::CubeArray.check_gpu(Gpu::Gt215).is_ok());
        assert!(TextureType::D2Array.check_gpu(Gpu::Nv40).is_err());
    }
}
