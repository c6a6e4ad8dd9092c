//! The address table of one z slice as an SVG picture ([`render_svg`]): one cell per element,
//! labelled with its byte offset, filled with the colour of the gob that holds it (gobs in
//! memory order walk round the colour wheel, so the order a blocklinear layout stores its gobs
//! in shows at a glance), gob boundaries drawn in a thin dark line and block boundaries in a
//! thick one. Pitch and swizzled surfaces are drawn the same way with 512-byte stretches of
//! memory as their "gobs". The README's picture is this drawing (`nvsurf layout ... --map
//! --svg`).

use super::surface::Surface;
use crate::error::{Error, Result};
use alloc::format;
use alloc::string::String;
use core::fmt::Write;

/// Cell width and height in SVG units.
const CELL_W: u64 = 56;
const CELL_H: u64 = 22;
/// Margin for the axis labels.
const MARGIN: u64 = 30;

/// The largest slice (in elements) [`render_svg`] draws: a bigger picture is no use to read.
pub const MAX_SVG_CELLS: u64 = 4096;

/// Renders slice `z` of `s` as an SVG document (see the module doc). Refuses slices of more
/// than [`MAX_SVG_CELLS`] elements and a `z` outside the surface.
pub fn render_svg(s: &Surface, z: u32) -> Result<String> {
    let [w, h, d] = s.size().to_array();
    if z >= d {
        return Err(Error::OutOfBounds { field: "z", value: z.into(), limit: d.into() });
    }
    let cells = u64::from(w) * u64::from(h);
    if cells > MAX_SVG_CELLS || cells == 0 {
        return Err(Error::Unsupported {
            field: "map",
            value: format!("{w}x{h}"),
            rule: format!("an SVG map is drawn for 1 to {MAX_SVG_CELLS} elements a slice; use a smaller --size"),
        });
    }
    let (gob_bytes, block) = match s {
        Surface::BlockLinear(b) => {
            let [bx, by, bz] = b.block_extent_bytes_rows_slices();
            (u64::from(b.gob_height_rows()) * 64, Some((bx, by, bz)))
        }
        _ => (512, None),
    };
    let (pw, ph) = (MARGIN + u64::from(w) * CELL_W + 2, MARGIN + u64::from(h) * CELL_H + 2);
    let mut out = String::new();
    let mut body = || -> core::fmt::Result {
        writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{pw}\" height=\"{ph}\" viewBox=\"0 0 {pw} {ph}\" \
             font-family=\"monospace\" font-size=\"11\">"
        )?;
        writeln!(out, "<rect width=\"{pw}\" height=\"{ph}\" fill=\"white\"/>")?;
        for x in 0..w {
            let cx = MARGIN + u64::from(x) * CELL_W + CELL_W / 2;
            writeln!(out, "<text x=\"{cx}\" y=\"20\" text-anchor=\"middle\" fill=\"#555\">x{x}</text>")?;
        }
        for y in 0..h {
            let cy = MARGIN + u64::from(y) * CELL_H + CELL_H / 2 + 4;
            writeln!(out, "<text x=\"{}\" y=\"{cy}\" text-anchor=\"end\" fill=\"#555\">y{y}</text>", MARGIN - 4)?;
        }
        Ok(())
    };
    body().map_err(|_| fmt_failed())?;
    cells_svg(s, z, gob_bytes, &mut out)?;
    if let Some((bx, by, _)) = block {
        let elem = u64::from(s.elem_size_bytes());
        lines_svg(&mut out, w, h, 64 / elem.clamp(1, 64), gob_bytes / 64, "#333", 1)?;
        lines_svg(&mut out, w, h, (bx / elem).max(1), by, "#000", 3)?;
    }
    out.push_str("</svg>\n");
    Ok(out)
}

/// One `<rect>` and one offset label per element of slice `z`.
fn cells_svg(s: &Surface, z: u32, gob_bytes: u64, out: &mut String) -> Result<()> {
    let [w, h, _] = s.size().to_array();
    for y in 0..h {
        for x in 0..w {
            let off = s.offset_of(x, y, z)?;
            // Gobs in memory order step round the wheel by the golden angle: neighbours differ.
            let hue = (off / gob_bytes).wrapping_mul(137) % 360;
            let (px, py) = (MARGIN + u64::from(x) * CELL_W, MARGIN + u64::from(y) * CELL_H);
            writeln!(
                out,
                "<rect x=\"{px}\" y=\"{py}\" width=\"{CELL_W}\" height=\"{CELL_H}\" fill=\"hsl({hue},70%,82%)\" \
                 stroke=\"#fff\" stroke-width=\"0.5\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{off:#x}</text>",
                px + CELL_W / 2,
                py + CELL_H / 2 + 4
            )
            .map_err(|_| fmt_failed())?;
        }
    }
    Ok(())
}

/// Vertical lines every `every_x` elements and horizontal lines every `every_y` rows.
fn lines_svg(out: &mut String, w: u32, h: u32, every_x: u64, every_y: u64, colour: &str, width: u32) -> Result<()> {
    let (x1, y1) = (MARGIN + u64::from(w) * CELL_W, MARGIN + u64::from(h) * CELL_H);
    let mut line = |ax: u64, ay: u64, bx: u64, by: u64| {
        writeln!(
            out,
            "<line x1=\"{ax}\" y1=\"{ay}\" x2=\"{bx}\" y2=\"{by}\" stroke=\"{colour}\" stroke-width=\"{width}\"/>"
        )
    };
    let mut draw = || -> core::fmt::Result {
        for x in (0..=u64::from(w)).step_by(every_x.max(1) as usize) {
            line(MARGIN + x * CELL_W, MARGIN, MARGIN + x * CELL_W, y1)?;
        }
        for y in (0..=u64::from(h)).step_by(every_y.max(1) as usize) {
            line(MARGIN, MARGIN + y * CELL_H, x1, MARGIN + y * CELL_H)?;
        }
        Ok(())
    };
    draw().map_err(|_| fmt_failed())
}

fn fmt_failed() -> Error {
    Error::Unsupported { field: "map output", value: String::new(), rule: "the SVG could not be written".into() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::Gpu;
    use crate::layout::{LayoutKind, SurfaceDesc};

    fn surface(gpu: Gpu, elem: u32, size: [u32; 3], block: [u32; 3]) -> Surface {
        let mut d = SurfaceDesc::new(gpu, elem, size);
        d.layout = LayoutKind::BlockLinear;
        d.block_log2 = Some(block);
        d.build().unwrap()
    }

    #[test]
    fn every_cell_carries_its_offset_and_gob_colour() {
        let s = surface(Gpu::Gf100, 16, [8, 16, 1], [0, 1, 0]);
        let svg = render_svg(&s, 0).unwrap();
        assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>\n"));
        // One label per element, each the library's offset.
        for (x, y) in [(0, 0), (3, 7), (4, 0), (7, 15)] {
            let off = s.offset_of(x, y, 0).unwrap();
            assert!(svg.contains(&format!(">{off:#x}</text>")), "({x},{y}) {off:#x}");
        }
        assert_eq!(svg.matches("<rect x=").count(), 8 * 16);
        // The second gob (x 4..8, offset 0x200..) has the next colour.
        assert!(svg.contains("hsl(0,70%,82%)") && svg.contains("hsl(137,70%,82%)"));
        // Block boundaries: thick lines.
        assert!(svg.contains("stroke-width=\"3\""));
    }

    #[test]
    fn large_slices_and_bad_z_are_refused() {
        let s = surface(Gpu::Gf100, 4, [128, 64, 2], [0, 0, 0]);
        assert!(render_svg(&s, 0).unwrap_err().to_string().contains("4096"));
        let s = surface(Gpu::Gf100, 4, [16, 8, 2], [0, 0, 0]);
        assert!(render_svg(&s, 1).is_ok());
        assert!(render_svg(&s, 2).is_err());
    }
}
