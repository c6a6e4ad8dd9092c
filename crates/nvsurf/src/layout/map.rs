//! The address table in the document's own style (envytools `docs/hw/memory/g80-surface.rst`, the
//! 13x17x3 example).
//!
//! One table per z slice; every cell is the hex address of an element. Column separators mark
//! x boundaries (`|` element, `||` gob, `|||` block), row lines mark y boundaries (none for an
//! element, `---` gob, `===` block), and a `[z block boundary here]` line separates z slices that
//! start a new block. Cells are at least 4 hex digits wide, as in the document.

pub use super::map_svg::{render_svg, MAX_SVG_CELLS};
use super::surface::Surface;
use crate::error::{Error, Result};
use alloc::format;
use alloc::string::{String, ToString};
use core::fmt::Write;

/// The legend printed above the tables.
pub const LEGEND: &str = "| - x element boundary\n|| - x gob boundary\n||| - x block boundary\n\
[no line] - y element boundary\n--- - y gob boundary\n=== - y block boundary\n";

/// Boundary kinds, as the number of separator characters.
#[derive(Clone, Copy)]
struct Bounds {
    gob_bytes_x: u64,
    block_bytes_x: u64,
    gob_rows: u64,
    block_rows: u64,
    block_slices: u64,
}

impl Bounds {
    fn of(s: &Surface) -> Option<Bounds> {
        match s {
            Surface::BlockLinear(b) => {
                let [bx, by, bz] = b.block_extent_bytes_rows_slices();
                Some(Bounds {
                    gob_bytes_x: 64,
                    block_bytes_x: bx,
                    gob_rows: b.gob_height_rows().into(),
                    block_rows: by,
                    block_slices: bz,
                })
            }
            _ => None,
        }
    }

    /// Separator width before column `x` (1 element, 2 gob, 3 block).
    fn x_sep(b: Option<Bounds>, x: u64, elem: u64) -> usize {
        let Some(b) = b else { return 1 };
        let crosses = |unit: u64| (x * elem) / unit != (x * elem - 1) / unit;
        if crosses(b.block_bytes_x) {
            3
        } else if crosses(b.gob_bytes_x) {
            2
        } else {
            1
        }
    }
}

/// Renders the whole surface's address table, refusing surfaces of more than `max_cells`
/// elements (a 4096x4096 map is no use to anyone). The table is built in memory; see
/// [`render_to`] to write it as it is made.
pub fn render(s: &Surface, max_cells: u64) -> Result<String> {
    let mut out = String::new();
    render_to(s, max_cells, &mut out)?;
    Ok(out)
}

/// [`render`], written to `sink` line by line as it is made (memory stays one line, however
/// large the map; a map of 4096 x 4096 elements is about 170 MB of text). A failed write
/// stops the rendering with [`Error::Unsupported`] for the field `map output`; the writer
/// keeps the cause.
pub fn render_to<W: Write>(s: &Surface, max_cells: u64, sink: &mut W) -> Result<()> {
    let failed = |_: core::fmt::Error| Error::Unsupported {
        field: "map output",
        value: String::new(),
        rule: "the output could not be written".to_string(),
    };
    let [w, h, d] = s.size().to_array();
    let cells = u64::from(w) * u64::from(h) * u64::from(d);
    if cells > max_cells {
        return Err(Error::Unsupported {
            field: "map",
            value: format!("{w}x{h}x{d}"),
            rule: format!("a map is drawn for at most {max_cells} elements; use a smaller --size or raise --map-limit"),
        });
    }
    let bounds = Bounds::of(s);
    let elem = u64::from(s.elem_size_bytes());
    let last = s.address() + s.size_bytes().max(1) - 1;
    let cw = (format!("{last:x}").len()).max(4);
    let lw = (h - 1).to_string().len().max(2);
    let seps: alloc::vec::Vec<usize> = (1..u64::from(w)).map(|x| Bounds::x_sep(bounds, x, elem)).collect();

    let hline = |out: &mut String, lead: char, fill: char| {
        out.push(lead);
        out.push('+');
        (0..lw).for_each(|_| out.push(fill));
        out.push('+');
        for x in 0..w as usize {
            (0..cw).for_each(|_| out.push(fill));
            let n = seps.get(x).copied().unwrap_or(1);
            (0..n).for_each(|_| out.push('+'));
        }
        out.push('\n');
    };
    let mut out = String::from(LEGEND);
    for z in 0..d {
        sink.write_str(&out).map_err(failed)?;
        out.clear();
        let _ = writeln!(out, "z == {z}:\n x -->");
        hline(&mut out, 'y', '-');
        out.push_str("||");
        (0..lw).for_each(|_| out.push(' '));
        out.push('|');
        for x in 0..w as usize {
            let _ = write!(out, "{:>width$} ", x, width = cw - 1);
            let n = seps.get(x).copied().unwrap_or(1);
            (0..n).for_each(|_| out.push('|'));
        }
        out.push('\n');
        hline(&mut out, '|', '-');
        for y in 0..h {
            out.push(if y == 0 { 'V' } else { ' ' });
            let _ = write!(out, "|{:>lw$}|", y);
            for x in 0..w {
                let a = s.address_of(x, y, z)?;
                let _ = write!(out, "{a:0cw$x}");
                let n = seps.get(x as usize).copied().unwrap_or(1);
                (0..n).for_each(|_| out.push('|'));
            }
            out.push('\n');
            sink.write_str(&out).map_err(failed)?;
            out.clear();
            let next = u64::from(y) + 1;
            let fill = match bounds {
                Some(b) if next % b.block_rows == 0 => Some('='),
                Some(b) if next % b.gob_rows == 0 => Some('-'),
                _ if next == u64::from(h) => Some('-'),
                _ => None,
            };
            if let Some(f) = fill {
                hline(&mut out, ' ', f);
            }
        }
        if let Some(b) = bounds {
            let next = u64::from(z) + 1;
            if next < u64::from(d) && next % b.block_slices == 0 {
                out.push_str("[z block boundary here]\n");
            }
        }
    }
    sink.write_str(&out).map_err(failed)
}

/// Parses a map (the document's or [`render`]'s) back into cells: for each `z == N:` table, the
/// rows of hex cells in x order. Lines that are not data rows are skipped.
pub fn parse_cells(text: &str) -> alloc::vec::Vec<alloc::vec::Vec<alloc::vec::Vec<u64>>> {
    let mut out: alloc::vec::Vec<alloc::vec::Vec<alloc::vec::Vec<u64>>> = alloc::vec::Vec::new();
    for line in text.lines() {
        if line.starts_with("z == ") {
            out.push(alloc::vec::Vec::new());
            continue;
        }
        // Data rows: `V| 0|0000|0010|...` or ` | 1|0040|...`.
        let mut chars = line.chars();
        let lead = chars.next();
        if !matches!(lead, Some('V') | Some(' ')) || !line[1..].starts_with('|') {
            continue;
        }
        let mut fields = line[2..].split('|').filter(|f| !f.is_empty());
        let Some(label) = fields.next() else { continue };
        if label.trim().parse::<u32>().is_err() {
            continue;
        }
        let cells: alloc::vec::Vec<u64> = fields.filter_map(|c| u64::from_str_radix(c.trim(), 16).ok()).collect();
        if let Some(t) = out.last_mut() {
            t.push(cells);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::SurfaceDesc;
    use crate::Gpu;

    /// Takes `room` bytes, then fails.
    struct Full {
        room: usize,
        got: String,
    }

    impl Write for Full {
        fn write_str(&mut self, s: &str) -> core::fmt::Result {
            if s.len() > self.room {
                return Err(core::fmt::Error);
            }
            self.room -= s.len();
            self.got.push_str(s);
            Ok(())
        }
    }

    #[test]
    fn render_to_writes_what_render_builds_and_stops_on_a_failed_write() {
        let mut d = SurfaceDesc::new(Gpu::G80, 16, [13, 17, 3]);
        d.block_log2 = Some([1, 1, 1]);
        let s = d.build().unwrap();
        let whole = render(&s, 1 << 20).unwrap();
        let mut all = Full { room: usize::MAX, got: String::new() };
        render_to(&s, 1 << 20, &mut all).unwrap();
        assert_eq!(all.got, whole);
        let mut short = Full { room: 1000, got: String::new() };
        assert!(matches!(render_to(&s, 1 << 20, &mut short), Err(Error::Unsupported { field: "map output", .. })));
        assert!(whole.starts_with(&short.got) && short.got.len() <= 1000);
    }
}
