//! Blocklinear ("tiled") surfaces, G80 and later.
//!
//! Implements envytools `docs/hw/memory/g80-surface.rst`, "Blocklinear surfaces", with the errata
//! fixed:
//! - E6: `gobs_per_bigtils_x` means `gobs_per_block_x` (and in the older revisions
//!   `bytes_per_roptile = 1` means `bytes_per_roptile_z = 1`; the z term of the block address
//!   multiplies by blocks_x * blocks_y);
//! - E7: the `;` ending the y term of `block_address` is a typo, the z term belongs to the sum;
//! - E11: the address alignment is 0x200 bytes on GF100 *and later*.
//!
//! Geometry: a gob is 64 bytes x 4 rows (G80:GF100) or 64 bytes x 8 rows (GF100+) x 1 slice; a
//! block is 2^bw x 2^bh x 2^bd gobs. Blocks are stored x, then y, then z; gobs inside a block
//! likewise; bytes inside a gob per the [`GobOrder`] (the document's `x + 64 * y` by default).

use super::binding::{Binding, TextureBlockWidth};
use super::checks::{check_address, check_coords, check_dim, check_elem_size};
use super::gob::GobOrder;
use crate::error::{check_span, mul, Error, Result};
use crate::extent::{Elements, Extent};
use crate::gpu::Gpu;
use alloc::string::ToString;

/// What a caller asks for; [`BlockLinear::new`] validates it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockLinearParams {
    /// The GPU (G80 or later).
    pub gpu: Gpu,
    /// 40-bit VM address of the surface, aligned to the gob size (0x100 / 0x200 bytes).
    pub address: u64,
    /// Element size in bytes (1, 2, 4, 8, 16; 12 on GF100+).
    pub elem_size_bytes: u32,
    /// Width in elements.
    pub width: u32,
    /// Height in elements (rows).
    pub height: u32,
    /// Depth in elements (slices).
    pub depth: u32,
    /// Requested block size, log2 gobs per block in x, y, z (each 0-5).
    pub block_log2: [u32; 3],
    /// Auto-sizing on or off; `None` takes the binding point's default (on for textures).
    pub auto_size: Option<bool>,
    /// The binding point, whose limits are checked; `None` checks only the generic limits.
    pub binding: Option<Binding>,
    /// In-gob byte order.
    pub gob_order: GobOrder,
    /// How texture units treat block width (OPEN question; the document's view by default).
    pub texture_block_width: TextureBlockWidth,
}

impl BlockLinearParams {
    /// Parameters with address 0, no binding point, VM gob order and no auto-sizing.
    /// `size` is in elements: an [`Extent<Elements>`], or a plain `[w, h, d]` taken as one.
    pub fn new(gpu: Gpu, elem_size_bytes: u32, size: impl Into<Extent<Elements>>, block_log2: [u32; 3]) -> Self {
        let size = size.into();
        BlockLinearParams {
            gpu,
            address: 0,
            elem_size_bytes,
            width: size[0],
            height: size[1],
            depth: size[2],
            block_log2,
            auto_size: None,
            binding: None,
            gob_order: GobOrder::Vm,
            texture_block_width: TextureBlockWidth::Document,
        }
    }
}

/// A validated blocklinear surface.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockLinear {
    gpu: Gpu,
    address: u64,
    elem_size_bytes: u32,
    width: u32,
    height: u32,
    depth: u32,
    byte_view: bool,
    gob_height_log2: u32,
    requested_log2: [u32; 3],
    eff_log2: [u32; 3],
    auto_size: bool,
    blocks: [u32; 3],
    size_bytes: u64,
    binding: Option<Binding>,
    gob_order: GobOrder,
}

/// The document's auto-sizing loop for one dimension: shrink while half a block (in bytes, rows
/// or slices) still covers `extent`. Any `log2` is accepted: half a block is computed in 128
/// bits (with the shift capped at 64, past which it covers every `u64` extent anyway, so a
/// start above 65 behaves as 65).
pub fn auto_size_log2(log2: u32, gob_extent: u64, extent: u64) -> u32 {
    let mut log2 = log2.min(65);
    while log2 > 0 && (u128::from(gob_extent) << (log2 - 1).min(64)) >= u128::from(extent) {
        log2 -= 1;
    }
    log2
}

impl BlockLinear {
    /// Validates `p` and computes the geometry.
    pub fn new(p: &BlockLinearParams) -> Result<BlockLinear> {
        let gob_rows = p.gpu.gob_height_rows().ok_or_else(|| Error::Unsupported {
            field: "layout",
            value: alloc::format!("blocklinear on {}", p.gpu),
            rule: "blocklinear surfaces exist on G80 (NV50) and later; earlier GPUs use the swizzled layout"
                .to_string(),
        })?;
        check_elem_size(p.gpu, p.elem_size_bytes)?;
        check_dim("width", p.width)?;
        check_dim("height", p.height)?;
        check_dim("depth", p.depth)?;
        for (field, v) in ["block_width_log2", "block_height_log2", "block_depth_log2"].iter().zip(p.block_log2) {
            if v > 5 {
                return Err(Error::OutOfRange { field, value: v.into(), min: 0, max: 5 });
            }
        }
        if let Some(b) = p.binding {
            b.check_gpu(p.gpu)?;
            b.check_block(p.block_log2, p.texture_block_width)?;
        }
        p.gob_order.check_gob_height(gob_rows)?;
        let align = u64::from(gob_rows) * 64;
        check_address(p.address, align)?;

        // Byte-oriented binding points see a surface of bytes (envytools
        // `docs/hw/memory/g80-surface.rst`, "Surface elements").
        let byte_view = p.binding.is_some_and(Binding::is_byte_oriented) && p.elem_size_bytes != 1;
        let (elem_size_bytes, width) = if byte_view {
            let w = u64::from(p.width) * u64::from(p.elem_size_bytes);
            let w = u32::try_from(w).map_err(|_| Error::OutOfRange {
                field: "width in bytes",
                value: w,
                min: 1,
                max: u32::MAX.into(),
            })?;
            (1, w)
        } else {
            (p.elem_size_bytes, p.width)
        };
        let auto_size = p.auto_size.unwrap_or_else(|| p.binding.is_some_and(Binding::auto_sizes));
        let width_bytes = u64::from(width) * u64::from(elem_size_bytes);
        let mut eff = p.block_log2;
        if auto_size {
            eff[0] = auto_size_log2(eff[0], 64, width_bytes);
            eff[1] = auto_size_log2(eff[1], gob_rows.into(), p.height.into());
            eff[2] = auto_size_log2(eff[2], 1, p.depth.into());
        }
        let gob_height_log2 = gob_rows.trailing_zeros();
        let block_bytes_x = 64u64 << eff[0];
        let block_rows = u64::from(gob_rows) << eff[1];
        let block_slices = 1u64 << eff[2];
        let blocks = [
            width_bytes.div_ceil(block_bytes_x),
            u64::from(p.height).div_ceil(block_rows),
            u64::from(p.depth).div_ceil(block_slices),
        ];
        let block_bytes = 1u64 << (6 + gob_height_log2 + eff[0] + eff[1] + eff[2]);
        let size_bytes = mul("surface size", blocks[0], blocks[1])
            .and_then(|n| mul("surface size", n, blocks[2]))
            .and_then(|n| mul("surface size", n, block_bytes))?;
        check_span("surface", p.address, size_bytes)?;
        Ok(BlockLinear {
            gpu: p.gpu,
            address: p.address,
            elem_size_bytes,
            width,
            height: p.height,
            depth: p.depth,
            byte_view,
            gob_height_log2,
            requested_log2: p.block_log2,
            eff_log2: eff,
            auto_size,
            // Each is at most 2^40 / 256 after the span check, so it fits in u32.
            blocks: [blocks[0] as u32, blocks[1] as u32, blocks[2] as u32],
            size_bytes,
            binding: p.binding,
            gob_order: p.gob_order,
        })
    }

    /// The GPU.
    pub fn gpu(&self) -> Gpu {
        self.gpu
    }
    /// Base address in bytes.
    pub fn address(&self) -> u64 {
        self.address
    }
    /// Element size in bytes (1 when a byte-oriented binding point turned the surface into bytes).
    pub fn elem_size_bytes(&self) -> u32 {
        self.elem_size_bytes
    }
    /// Element size in bytes: the old name of [`Self::elem_size_bytes`].
    #[deprecated(note = "use elem_size_bytes")]
    pub fn elem_size(&self) -> u32 {
        self.elem_size_bytes()
    }
    /// True when a byte-oriented binding point forced the element size to 1 (width is in bytes).
    pub fn is_byte_view(&self) -> bool {
        self.byte_view
    }
    /// Width in elements.
    pub fn width(&self) -> u32 {
        self.width
    }
    /// Height in elements.
    pub fn height(&self) -> u32 {
        self.height
    }
    /// Depth in elements.
    pub fn depth(&self) -> u32 {
        self.depth
    }
    /// Width in bytes (`width * elem_size_bytes`).
    pub fn width_bytes(&self) -> u64 {
        u64::from(self.width) * u64::from(self.elem_size_bytes)
    }
    /// Rows per gob (4 or 8).
    pub fn gob_height_rows(&self) -> u32 {
        1 << self.gob_height_log2
    }
    /// Log2 of rows per gob (2 or 3).
    pub fn gob_height_log2(&self) -> u32 {
        self.gob_height_log2
    }
    /// Bytes per gob (256 or 512).
    pub fn gob_bytes(&self) -> u64 {
        64 << self.gob_height_log2
    }
    /// The block size asked for, log2 gobs (x, y, z).
    pub fn block_log2_requested(&self) -> [u32; 3] {
        self.requested_log2
    }
    /// The block size after auto-sizing, log2 gobs (x, y, z).
    pub fn block_log2(&self) -> [u32; 3] {
        self.eff_log2
    }
    /// Whether auto-sizing was applied.
    pub fn auto_size(&self) -> bool {
        self.auto_size
    }
    /// The binding point, if one was given.
    pub fn binding(&self) -> Option<Binding> {
        self.binding
    }
    /// The in-gob byte order.
    pub fn gob_order(&self) -> GobOrder {
        self.gob_order
    }
    /// Gobs per block in x, y, z.
    pub fn block_gobs(&self) -> [u32; 3] {
        self.eff_log2.map(|l| 1 << l)
    }
    /// Block extent: bytes in x, rows in y, slices in z.
    pub fn block_extent_bytes_rows_slices(&self) -> [u64; 3] {
        [64 << self.eff_log2[0], (1u64 << self.gob_height_log2) << self.eff_log2[1], 1 << self.eff_log2[2]]
    }
    /// Block extent in elements (x rounded down for 12-byte elements, which straddle gobs).
    pub fn block_elements(&self) -> [u64; 3] {
        let [x, y, z] = self.block_extent_bytes_rows_slices();
        [x / u64::from(self.elem_size_bytes), y, z]
    }
    /// Bytes per block.
    pub fn block_bytes(&self) -> u64 {
        1 << self.block_bytes_log2()
    }
    /// Log2 of bytes per block.
    pub fn block_bytes_log2(&self) -> u32 {
        6 + self.gob_height_log2 + self.eff_log2[0] + self.eff_log2[1] + self.eff_log2[2]
    }
    /// Blocks per surface in x, y, z.
    pub fn blocks(&self) -> [u32; 3] {
        self.blocks
    }
    /// Surface size in bytes: the surface occupies `[address, address + size_bytes)`.
    pub fn size_bytes(&self) -> u64 {
        self.size_bytes
    }

    /// Offset in bytes from the surface's start of element (x, y, z), bounds-checked.
    pub fn offset_of(&self, x: u32, y: u32, z: u32) -> Result<u64> {
        check_coords([x, y, z], [self.width, self.height, self.depth])?;
        Ok(self.byte_offset(u64::from(x) * u64::from(self.elem_size_bytes), y, z))
    }

    /// Address (base + offset) of element (x, y, z), bounds-checked.
    pub fn address_of(&self, x: u32, y: u32, z: u32) -> Result<u64> {
        Ok(self.address + self.offset_of(x, y, z)?)
    }

    /// Offset of byte column `xb` (in bytes) of row `y` in slice `z`. The caller guarantees
    /// `xb < width_bytes`, `y < height`, `z < depth`; the result is then below `size_bytes`.
    #[inline(always)]
    pub(crate) fn byte_offset(&self, xb: u64, y: u32, z: u32) -> u64 {
        let ghl = self.gob_height_log2;
        self.gob_offset(xb, y, z) + u64::from(self.gob_order.offset_in_gob((xb & 63) as u32, y & ((1 << ghl) - 1)))
    }

    /// Offset of the first byte of the gob holding byte column `xb` of row `y` in slice `z`
    /// (same preconditions as `byte_offset`).
    #[inline(always)]
    pub(crate) fn gob_offset(&self, xb: u64, y: u32, z: u32) -> u64 {
        let [ebw, ebh, ebd] = self.eff_log2;
        let ghl = self.gob_height_log2;
        let gob_x = xb >> 6;
        let gob_y = u64::from(y) >> ghl;
        let z = u64::from(z);
        let block_index =
            (gob_x >> ebw) + u64::from(self.blocks[0]) * ((gob_y >> ebh) + u64::from(self.blocks[1]) * (z >> ebd));
        let gob_in_block =
            (gob_x & ((1 << ebw) - 1)) | ((gob_y & ((1 << ebh) - 1)) << ebw) | ((z & ((1 << ebd) - 1)) << (ebw + ebh));
        (block_index << self.block_bytes_log2()) + (gob_in_block << (6 + ghl))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc_example() -> BlockLinear {
        BlockLinear::new(&BlockLinearParams::new(Gpu::G80, 16, [13, 17, 3], [1, 1, 1])).unwrap()
    }

    #[test]
    fn document_example_geometry() {
        // `docs/VECTORS.md` / envytools `docs/hw/memory/g80-surface.rst`: block 0x800 bytes, 8
        // elements x 8 rows x 2 slices, 2 x 3 x 2 blocks, 0x6000 bytes.
        let s = doc_example();
        assert_eq!(s.block_bytes(), 0x800);
        assert_eq!(s.block_elements(), [8, 8, 2]);
        assert_eq!(s.blocks(), [2, 3, 2]);
        assert_eq!(s.size_bytes(), 0x6000);
        for ((x, y, z), want) in [((12, 16, 2), 0x5900), ((8, 4, 1), 0xe00), ((3, 16, 2), 0x5030), ((9, 5, 1), 0xe50)] {
            assert_eq!(s.offset_of(x, y, z).unwrap(), want, "({x},{y},{z})");
        }
    }

    #[test]
    fn auto_size_shrinks() {
        let mut p = BlockLinearParams::new(Gpu::Gf100, 4, [16, 16, 1], [0, 5, 5]);
        p.auto_size = Some(true);
        let s = BlockLinear::new(&p).unwrap();
        // 16 rows: 8-row gobs, half of 2 gobs = 8 < 16 so stop at log2 1.
        assert_eq!(s.block_log2(), [0, 1, 0]);
        p.binding = Some(Binding::Texture);
        p.auto_size = None;
        assert_eq!(BlockLinear::new(&p).unwrap().block_log2(), [0, 1, 0]);
        p.binding = None;
        assert_eq!(BlockLinear::new(&p).unwrap().block_log2(), [0, 5, 5]);
    }

    #[test]
    fn byte_oriented_binding() {
        let mut p = BlockLinearParams::new(Gpu::Gt215, 4, [16, 16, 1], [0, 0, 0]);
        p.binding = Some(Binding::M2mf);
        let s = BlockLinear::new(&p).unwrap();
        assert_eq!((s.elem_size_bytes(), s.width(), s.is_byte_view()), (1, 64, true));
    }

    #[test]
    fn bad_input() {
        let ok = BlockLinearParams::new(Gpu::G80, 4, [16, 16, 1], [0, 4, 0]);
        let mut p = ok;
        p.block_log2 = [0, 6, 0];
        assert!(matches!(BlockLinear::new(&p), Err(Error::OutOfRange { field: "block_height_log2", .. })));
        p = ok;
        p.address = 0x80;
        assert!(matches!(BlockLinear::new(&p), Err(Error::NotMultiple { field: "address", multiple: 0x100, .. })));
        p.gpu = Gpu::Gf100;
        p.address = 0x100;
        assert!(matches!(BlockLinear::new(&p), Err(Error::NotMultiple { multiple: 0x200, .. })));
        p = ok;
        p.elem_size_bytes = 3;
        assert!(matches!(BlockLinear::new(&p), Err(Error::ElemSize { value: 3, .. })));
        p.elem_size_bytes = 12;
        assert!(matches!(BlockLinear::new(&p), Err(Error::ElemSize { value: 12, .. })));
        p.gpu = Gpu::Gf100;
        assert!(BlockLinear::new(&p).is_ok());
        p = ok;
        p.width = 0;
        assert!(matches!(BlockLinear::new(&p), Err(Error::OutOfRange { field: "width", .. })));
        p = ok;
        p.width = u32::MAX;
        p.height = u32::MAX;
        assert!(matches!(BlockLinear::new(&p), Err(Error::Overflow { .. })));
        p = ok;
        p.gpu = Gpu::Nv40;
        assert!(matches!(BlockLinear::new(&p), Err(Error::Unsupported { field: "layout", .. })));
        p = ok;
        p.gob_order = GobOrder::Tegra;
        assert!(matches!(BlockLinear::new(&p), Err(Error::Unsupported { field: "gob order", .. })));
        p = ok;
        assert!(matches!(doc_example().offset_of(13, 0, 0), Err(Error::OutOfBounds { field: "x", .. })));
        assert!(matches!(doc_example().offset_of(0, 0, 3), Err(Error::OutOfBounds { field: "z", .. })));
        p.address = (1 << 40) - 0x100;
        assert!(matches!(BlockLinear::new(&p), Err(Error::Overflow { .. })));
    }
}
