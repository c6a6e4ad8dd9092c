//! PNG at `--png-compression fast`, written by our own encoder: every row filtered with `Sub`,
//! the filtered bytes coded as literals only (no string matches) with one fixed Huffman code
//! made for filter residuals, band by band. It is about three times as fast as the png crate's
//! `Compression::Fast` (fdeflate with adaptive filters) for files about 8% larger, and bands
//! are compressed on the `--threads` pool when there is one (as pigz does: every band ends on a
//! byte boundary, so their deflate bytes are concatenated as they are).
//!
//! The formats, from their specifications:
//! - PNG (W3C, Portable Network Graphics Specification, 3rd edition): the 8-byte signature
//!   (5.2), chunks as length (4 bytes, big-endian, of the data only), type, data and a CRC-32
//!   of type and data (5.3); IHDR (11.2.1: width, height, bit depth, colour type 6 = RGBA,
//!   compression 0, filter method 0, interlace 0), the image data as one zlib stream split
//!   over any number of IDAT chunks (11.2.4), IEND; every row starts with its filter type,
//!   `Sub` (1) being `x - a`, `a` the byte `bpp` bytes to the left, 0 left of the row (9.2);
//!   `bpp` is 4 for RGBA8 and 8 for RGBA16.
//! - zlib (RFC 1950): a 2-byte header (CMF 0x78: deflate, 32 KiB window; FLG 0x01: "fastest"
//!   level, and CMF*256 + FLG a multiple of 31), the deflate data, the Adler-32 of the
//!   uncompressed (here: filtered) bytes, big-endian.
//! - deflate (RFC 1951): a block with dynamic Huffman codes (3.2.7) holds our code; after it
//!   an empty stored block (3.2.4: BFINAL 0, BTYPE 00, pad to the byte, LEN 0, NLEN 0xFFFF)
//!   ends every band on a byte boundary (zlib's "sync flush"), and the stream ends with an
//!   empty final block with fixed codes (3.2.6: bits 1, 01, then end-of-block 0000000: the
//!   bytes 0x03 0x00).

use rayon::prelude::*;
use std::io::Write;

/// Code length of literal `b` (a filter residual): short for residuals near 0 (small up or
/// down steps: `b` near 0 or near 256), long for large ones. The lengths are a complete prefix
/// code with the end-of-block symbol at 5 bits (the Kraft sum is exactly 1; decoders such as
/// zlib refuse incomplete literal codes): 1/4 (m = 0) + 2/8 (m = 1) + 4/32 + 8/128 + 16/256 +
/// 32/512 + 64/1024 + 128/2048 (m in 2..128) + 2/32 (m = 128 and end-of-block).
const fn literal_bits(b: usize) -> u32 {
    let m = if b <= 128 { b } else { 256 - b };
    match m {
        0 => 2,
        1 => 3,
        2..=3 => 5,
        4..=7 => 7,
        8..=15 => 8,
        16..=31 => 9,
        32..=63 => 10,
        64..=127 => 11,
        _ => 5,
    }
}

/// The end-of-block symbol's code length.
const EOB_BITS: u32 = 5;

/// `code`'s low `bits` bits reversed: deflate sends Huffman codes from their most significant
/// bit into a stream filled from each byte's least significant bit (RFC 1951 3.1.1).
fn reversed(code: u32, bits: u32) -> u32 {
    code.reverse_bits() >> (32 - bits)
}

/// The fixed literal code: the codes of two literals at once (a 64 Ki table: low byte first,
/// code bits in the low 24 bits, their number in the top 8), the end-of-block code, and the
/// dynamic block header that describes the code (as (bits, count) fields).
pub struct LiteralCode {
    /// A fixed-size table, so that a `u16` index needs no bounds check.
    pairs: Box<[u32; 1 << 16]>,
    singles: [u32; 256],
    eob: u32,
    header: Vec<(u64, u32)>,
}

impl LiteralCode {
    /// Builds the canonical Huffman code of [`literal_bits`] (RFC 1951 3.2.2) and its header.
    pub fn new() -> LiteralCode {
        let mut lens = [0u32; 257];
        for (b, l) in lens.iter_mut().enumerate().take(256) {
            *l = literal_bits(b);
        }
        lens[256] = EOB_BITS;
        let mut count = [0u32; 16];
        for &l in &lens {
            count[l as usize] += 1;
        }
        let mut next = [0u32; 16];
        let mut code = 0;
        for bits in 1..16 {
            code = (code + count[bits - 1]) << 1;
            next[bits] = code;
        }
        let mut codes = [0u32; 257];
        for (s, c) in codes.iter_mut().enumerate() {
            let bits = lens[s] as usize;
            *c = reversed(next[bits], bits as u32) | (lens[s] << 24);
            next[bits] += 1;
        }
        let mut singles = [0u32; 256];
        singles.copy_from_slice(&codes[..256]);
        let mut pairs = Box::new([0u32; 1 << 16]);
        for (i, p) in pairs.iter_mut().enumerate() {
            let (a, b) = (singles[i & 255], singles[i >> 8]);
            *p = (a & 0xff_ffff) | ((b & 0xff_ffff) << (a >> 24)) | (((a >> 24) + (b >> 24)) << 24);
        }
        LiteralCode { pairs, singles, eob: codes[256], header: dynamic_header(&lens) }
    }

    /// The most bytes [`LiteralCode::block`] writes for `len` bytes of data: 11 bits a
    /// literal, the header (139 bytes), the end, and 8 bytes of slack for the bit writer's
    /// whole-word stores.
    pub fn block_bound(len: usize) -> usize {
        len / 8 * 11 + len % 8 * 2 + 256
    }

    /// Writes `data` as one non-final deflate block of this code, then an empty stored block,
    /// so that the bytes end on a byte boundary and the next piece's block can follow them,
    /// into `out` (at least [`LiteralCode::block_bound`] bytes); returns the bytes written.
    pub fn block(&self, data: &[u8], out: &mut [u8]) -> usize {
        let mut w = Bits { out, pos: 0, buf: 0, n: 0 };
        for &(v, k) in &self.header {
            w.put(v, k);
        }
        let mut quads = data.chunks_exact(4);
        for q in &mut quads {
            let p0 = self.pairs[usize::from(u16::from_le_bytes([q[0], q[1]]))];
            let p1 = self.pairs[usize::from(u16::from_le_bytes([q[2], q[3]]))];
            let n0 = p0 >> 24;
            w.put(u64::from(p0 & 0xff_ffff) | (u64::from(p1 & 0xff_ffff) << n0), n0 + (p1 >> 24));
        }
        for &b in quads.remainder() {
            let c = self.singles[usize::from(b)];
            w.put(u64::from(c & 0xff_ffff), c >> 24);
        }
        w.put(u64::from(self.eob & 0xff_ffff), self.eob >> 24);
        // The empty stored block: BFINAL 0 and BTYPE 00, to the byte boundary, LEN, NLEN.
        w.put(0, 3);
        if w.n > 0 {
            let pad = 8 - w.n;
            w.put(0, pad);
        }
        let end = w.pos;
        out[end..end + 4].copy_from_slice(&[0, 0, 0xff, 0xff]);
        end + 4
    }
}

impl Default for LiteralCode {
    fn default() -> Self {
        LiteralCode::new()
    }
}

/// The header of a dynamic block (RFC 1951 3.2.7) for literal code lengths `lens` (257: the
/// literals and end-of-block, no length codes) and two unused distance codes of 1 bit (a
/// complete code). The code lengths are sent with a code-length code that gives each of the
/// values 0..15 four bits (so each value's code is the value itself) and 16..18 none.
fn dynamic_header(lens: &[u32; 257]) -> Vec<(u64, u32)> {
    // BFINAL 0, BTYPE 10 (dynamic); HLIT = 257 - 257; HDIST = 2 - 1; HCLEN = 19 - 4.
    let mut h = vec![(0b100, 3), (0, 5), (1, 5), (15, 4)];
    const ORDER: [u32; 19] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
    h.extend(ORDER.iter().map(|&s| (if s < 16 { 4 } else { 0 }, 3)));
    h.extend(lens.iter().chain(&[1, 1]).map(|&l| (u64::from(reversed(l, 4)), 4)));
    h
}

/// A bit writer into a slice with room for 8 bytes past the last bit it will write: every
/// `put` stores the whole 64-bit buffer and moves on by the bytes it completed.
struct Bits<'a> {
    out: &'a mut [u8],
    pos: usize,
    buf: u64,
    n: u32,
}

impl Bits<'_> {
    /// Appends the low `k` bits of `v` (`k` + 7 under 64: at most 51 here, two literals of
    /// the pair table).
    #[inline(always)]
    fn put(&mut self, v: u64, k: u32) {
        debug_assert!(k + 7 < 64);
        self.buf |= v << self.n;
        self.n += k;
        self.out[self.pos..self.pos + 8].copy_from_slice(&self.buf.to_le_bytes());
        self.pos += (self.n / 8) as usize;
        self.buf >>= self.n & !7;
        self.n &= 7;
    }
}

/// Writes `rows` (whole rows of `row_bytes`) filtered with `Sub` into `out` (a byte more a
/// row: each row after its filter type byte); `bpp` is the bytes per pixel.
pub fn filter_sub(rows: &[u8], row_bytes: usize, bpp: usize, out: &mut [u8]) {
    for (row, dst) in rows.chunks_exact(row_bytes).zip(out.chunks_exact_mut(row_bytes + 1)) {
        dst[0] = 1;
        let head = bpp.min(row_bytes);
        dst[1..1 + head].copy_from_slice(&row[..head]);
        for ((d, x), a) in dst[1 + head..].iter_mut().zip(&row[head..]).zip(row) {
            *d = x.wrapping_sub(*a);
        }
    }
}

/// `v` made at least `n` bytes long; what it holds is overwritten before it is read, so a
/// buffer used again is not zeroed again.
fn grow(v: &mut Vec<u8>, n: usize) {
    if v.len() < n {
        v.resize(n, 0);
    }
}

/// The Adler-32 of `a` then `b` from theirs and `b`'s length: each running sum of `b` starts
/// from `a`'s low sum instead of 1, which adds `len_b * (low_a - 1)` to the high sum (the
/// arithmetic of zlib's `adler32_combine`; sums modulo 65521, RFC 1950 8.2).
pub fn adler32_combine(a: u32, b: u32, len_b: u64) -> u32 {
    const BASE: u64 = 65521;
    let (a_lo, a_hi) = (u64::from(a & 0xffff), u64::from(a >> 16));
    let (b_lo, b_hi) = (u64::from(b & 0xffff), u64::from(b >> 16));
    let lo = (a_lo + b_lo + BASE - 1) % BASE;
    let hi = (a_hi + b_hi + (len_b % BASE) * ((a_lo + BASE - 1) % BASE)) % BASE;
    ((hi << 16) | lo) as u32
}

/// One piece's IDAT chunk: `rows` filtered and compressed into the start of `chunk` (the
/// chunk whole, header and CRC included) through the scratch `filtered`; returns the chunk's
/// length, and the Adler-32 and length of the filtered bytes.
fn piece_chunk(
    code: &LiteralCode,
    rows: &[u8],
    (row_bytes, bpp): (usize, usize),
    filtered: &mut Vec<u8>,
    chunk: &mut Vec<u8>,
) -> (usize, u32, u64) {
    let len = rows.len() / row_bytes * (row_bytes + 1);
    grow(filtered, len);
    let filtered = &mut filtered[..len];
    filter_sub(rows, row_bytes, bpp, filtered);
    let mut adler = simd_adler32::Adler32::new();
    adler.write(filtered);
    grow(chunk, 8 + LiteralCode::block_bound(len) + 4);
    chunk[..8].copy_from_slice(&[0, 0, 0, 0, b'I', b'D', b'A', b'T']);
    let data = code.block(filtered, &mut chunk[8..]);
    seal(&mut chunk[..8 + data + 4]);
    (8 + data + 4, adler.finish(), len as u64)
}

/// Fills in the length of the chunk in `chunk` (8 header bytes, its data, 4 bytes for the CRC)
/// and its CRC-32 (of type and data).
fn seal(chunk: &mut [u8]) {
    let end = chunk.len() - 4;
    let len = u32::try_from(end - 8).expect("a piece's chunk under 4 GiB");
    chunk[..4].copy_from_slice(&len.to_be_bytes());
    let crc = crc32fast::hash(&chunk[4..end]);
    chunk[end..].copy_from_slice(&crc.to_be_bytes());
}

/// A chunk of `kind` holding `data`, whole.
fn chunk_of(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut c = Vec::with_capacity(12 + data.len());
    c.extend_from_slice(&[0; 4]);
    c.extend_from_slice(kind);
    c.extend_from_slice(data);
    c.extend_from_slice(&[0; 4]);
    seal(&mut c);
    c
}

/// The rows compressed together (one deflate block, one IDAT chunk, one task of a pool): 1 MiB,
/// rounded down to whole rows (one row at least). Its header costs 139 bytes.
pub const PIECE_BYTES: usize = 1 << 20;

/// A PNG (RGBA, 8 or 16 bits, not interlaced) written band by band into `out`.
pub struct FastPng<W: Write> {
    out: W,
    code: LiteralCode,
    row_bytes: usize,
    bpp: usize,
    rows_left: u64,
    /// Whole rows, about [`PIECE_BYTES`]: the unit of compression (a deflate block, a chunk).
    piece_bytes: usize,
    /// The rows of an unfinished piece.
    pending: Vec<u8>,
    adler: u32,
    /// The bytes written to `out` so far.
    written: u64,
    filtered: Vec<u8>,
    chunk: Vec<u8>,
}

impl<W: Write> FastPng<W> {
    /// Writes the signature, the IHDR chunk and the zlib header of a `width` x `height`
    /// picture (both at least 1) to `out`.
    pub fn new(mut out: W, width: u32, height: u32, bits16: bool) -> std::io::Result<Self> {
        if width == 0 || height == 0 || width > i32::MAX as u32 || height > i32::MAX as u32 {
            let why = format!("a PNG cannot be {width}x{height} pixels (1 to 2^31-1 each)");
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, why));
        }
        let bpp = if bits16 { 8 } else { 4 };
        let mut ihdr = Vec::with_capacity(13);
        ihdr.extend_from_slice(&width.to_be_bytes());
        ihdr.extend_from_slice(&height.to_be_bytes());
        ihdr.extend_from_slice(&[if bits16 { 16 } else { 8 }, 6, 0, 0, 0]);
        let mut head = vec![0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];
        head.extend(chunk_of(b"IHDR", &ihdr));
        head.extend(chunk_of(b"IDAT", &[0x78, 0x01]));
        out.write_all(&head)?;
        let written = head.len() as u64;
        Ok(FastPng {
            out,
            code: LiteralCode::new(),
            row_bytes: width as usize * bpp,
            bpp,
            rows_left: u64::from(height),
            piece_bytes: (PIECE_BYTES / (width as usize * bpp)).max(1) * width as usize * bpp,
            pending: Vec::new(),
            adler: 1,
            written,
            filtered: Vec::new(),
            chunk: Vec::new(),
        })
    }

    /// Appends whole rows (the PNG's samples, 16-bit ones big-endian). They are compressed in
    /// pieces of [`PIECE_BYTES`] of whole rows, on `pool`'s threads where there is one; the
    /// file depends on the picture only, not on the bands it came in nor on the threads.
    pub fn write_rows(&mut self, mut rows: &[u8], pool: Option<&rayon::ThreadPool>) -> std::io::Result<()> {
        let n = rows.len() / self.row_bytes;
        if !rows.len().is_multiple_of(self.row_bytes) || n as u64 > self.rows_left {
            let why = format!("{} bytes are not whole rows of the {} left", rows.len(), self.rows_left);
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, why));
        }
        self.rows_left -= n as u64;
        if !self.pending.is_empty() {
            let take = (self.piece_bytes - self.pending.len()).min(rows.len());
            self.pending.extend_from_slice(&rows[..take]);
            rows = &rows[take..];
            if self.pending.len() < self.piece_bytes {
                return Ok(());
            }
            let piece = std::mem::take(&mut self.pending);
            self.compress(&piece, pool)?;
            self.pending = piece;
            self.pending.clear();
        }
        let whole = rows.len() / self.piece_bytes * self.piece_bytes;
        self.compress(&rows[..whole], pool)?;
        self.pending.extend_from_slice(&rows[whole..]);
        Ok(())
    }

    /// Compresses `rows` (whole pieces, but for the picture's last) as one IDAT chunk a piece.
    fn compress(&mut self, rows: &[u8], pool: Option<&rayon::ThreadPool>) -> std::io::Result<()> {
        let shape = (self.row_bytes, self.bpp);
        match pool {
            Some(p) if rows.len() > self.piece_bytes => {
                let code = &self.code;
                let done: Vec<(Vec<u8>, u32, u64)> = p.install(|| {
                    rows.par_chunks(self.piece_bytes)
                        .map(|piece| {
                            let (mut filtered, mut chunk) = (Vec::new(), Vec::new());
                            let (n, a, len) = piece_chunk(code, piece, shape, &mut filtered, &mut chunk);
                            chunk.truncate(n);
                            (chunk, a, len)
                        })
                        .collect()
                });
                for (chunk, a, len) in done {
                    self.put(&chunk)?;
                    self.adler = adler32_combine(self.adler, a, len);
                }
            }
            _ => {
                for piece in rows.chunks(self.piece_bytes) {
                    let (n, a, len) = piece_chunk(&self.code, piece, shape, &mut self.filtered, &mut self.chunk);
                    self.out.write_all(&self.chunk[..n])?;
                    self.written += n as u64;
                    self.adler = adler32_combine(self.adler, a, len);
                }
            }
        }
        Ok(())
    }

    /// Writes `bytes` to the output.
    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.out.write_all(bytes)?;
        self.written += bytes.len() as u64;
        Ok(())
    }

    /// The output, and the bytes written to it so far.
    pub fn output(&self) -> (&W, u64) {
        (&self.out, self.written)
    }

    /// Ends the zlib stream (an empty final block, the Adler-32) and the PNG (IEND), once every
    /// row was written; returns the writer, flushed.
    pub fn finish(mut self) -> std::io::Result<W> {
        if self.rows_left > 0 {
            let why = format!("the PNG ends {} rows short of its height", self.rows_left);
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, why));
        }
        let last = std::mem::take(&mut self.pending);
        self.compress(&last, None)?;
        let mut tail = [0x03, 0x00, 0, 0, 0, 0];
        tail[2..].copy_from_slice(&self.adler.to_be_bytes());
        let mut end = chunk_of(b"IDAT", &tail);
        end.extend(chunk_of(b"IEND", &[]));
        self.put(&end)?;
        self.out.flush()?;
        Ok(self.out)
    }
}
