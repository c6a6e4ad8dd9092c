//! RGBA8 row kernels: the byte moves, word tables and `10_10_10_2` arithmetic behind the
//! RGBA8 fast paths of the format decoder (`format/rgba8.rs` chooses a path and fills the
//! tables from the generic per-texel decode; this module only runs them over rows), with
//! AVX2 and AVX-512 VBMI twins chosen at run time ([`crate::cpu`]). The fast paths exist to
//! keep the 4-byte formats at or above half of memcpy's speed, measured by
//! `cargo run --release -p nvsurf-bench -- --case codec`.

use alloc::vec::Vec;

/// A byte-move plan entry (see [`shuffle_rgba8`]): 0-3 = element byte, or a constant: 0.
pub(crate) const MAP_ZERO: u8 = 4;
/// Constant 255 (`OneFloat` reads 1.0).
pub(crate) const MAP_255: u8 = 5;
/// Constant 1 (`OneInt`).
pub(crate) const MAP_ONE: u8 = 6;

/// The row kernel of a [`WordLut`], by field layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LutKernel {
    /// Fields are the four bytes (`8_8_8_8`, `8_8_8_X8`): 256-entry tables.
    Bytes,
    /// Like `Bytes`, where field 3's table is the identity on output byte 3: that byte is
    /// kept from the element and the table not read.
    BytesKeepA,
    /// `10_10_10_2`: 1024-entry tables.
    Rgb10A2,
    /// Any other layout: fields found by shift and mask, 65536-entry tables.
    Any,
}

/// `10_10_10_2` unorm to 8 bits without tables: `round(x * 255 / 1023)` for a 10-bit field,
/// as a multiply and shift (equal for every `x < 1024`; [`WordLut::unorm10_plan`] checks it
/// against the generic path's tables before it is used).
const fn unorm10_to_8(x: u32) -> u32 {
    (x * 16336 + 32656) >> 16
}

/// The 2-bit field of `10_10_10_2` unorm to 8 bits: `x * 255 / 3` (exact).
const fn unorm2_to_8(x: u32) -> u32 {
    x * 85
}

impl LutKernel {
    /// Entries per field table.
    pub(crate) const fn table_len(self) -> usize {
        match self {
            Self::Bytes | Self::BytesKeepA => 256,
            Self::Rgb10A2 => 1024,
            Self::Any => 1 << 16,
        }
    }
}

/// Word tables (filled by the format's RGBA8 fast path): the RGBA8 pixel (a little-endian word) of element value `v`
/// is `konst | OR over fields f of tables[f][(v >> shift[f]) & mask[f]]` (mask 0 for a field
/// no channel reads: its table is all zero).
pub(crate) struct WordLut {
    pub(crate) kernel: LutKernel,
    shift: [u32; 4],
    mask: [u32; 4],
    /// Four tables of `kernel.table_len()` entries, one after the other.
    tables: Vec<u32>,
    konst: u32,
    /// For `10_10_10_2`: when every field's table is its unorm value moved to one output byte
    /// (or all zero), the shift in bits to that byte and a keep mask (0xff, or 0 for an unread
    /// field) per field: the row is then computed by [`unorm10_row`], which vectorizes.
    pub(crate) unorm10: Option<([u32; 4], [u32; 4])>,
    /// For the 4-byte `Bytes` kernels: the same tables as one byte table per output byte
    /// ([`ByteLuts`]), for the AVX-512 VBMI row kernel.
    pub(crate) bytes: Option<ByteLuts>,
}

/// What an output byte of a [`ByteLuts`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ByteOut {
    /// The element byte it reads, unchanged.
    Same,
    /// The element byte it reads through table `n` of [`ByteLuts::tables`].
    Table(usize),
    /// A constant ([`ByteLuts::konst`]).
    Const,
}

/// A `Bytes` word lut as byte tables: output byte `ch` of a pixel is element byte `src[ch]`
/// through `out[ch]` (unchanged, one of the distinct `tables`, or a constant).
pub(crate) struct ByteLuts {
    src: [u8; 4],
    out: [ByteOut; 4],
    tables: Vec<[u8; 256]>,
    konst: [u8; 4],
}

impl ByteLuts {
    /// Byte tables equal to `lut` (a `Bytes`/`BytesKeepA` lut of a 4-byte format), if every
    /// output byte depends on one element byte or none.
    fn of(lut: &WordLut) -> Option<ByteLuts> {
        let k = lut.konst.to_le_bytes();
        let mut b = ByteLuts { src: [0; 4], out: [ByteOut::Const; 4], tables: Vec::new(), konst: k };
        for (ch, kc) in k.into_iter().enumerate() {
            let byte = |f: usize, x: usize| (lut.tables[f * 256 + x] >> (8 * ch)) as u8;
            let mut fields = (0..4).filter(|&f| (0..256).any(|x| byte(f, x) != 0));
            let Some(f) = fields.next() else { continue };
            if fields.next().is_some() {
                return None;
            }
            let table: [u8; 256] = core::array::from_fn(|x| byte(f, x) | kc);
            b.src[ch] = f as u8;
            b.out[ch] = if table.iter().enumerate().all(|(x, &v)| usize::from(v) == x) {
                ByteOut::Same
            } else if let Some(n) = b.tables.iter().position(|t| *t == table) {
                ByteOut::Table(n)
            } else {
                b.tables.push(table);
                ByteOut::Table(b.tables.len() - 1)
            };
        }
        Some(b)
    }
}

impl WordLut {
    /// Word tables of `kernel` (`tables`: four tables of `kernel.table_len()` entries) for
    /// elements of `size_bytes` bytes, with the faster plans that agree with them: the alpha
    /// byte kept when its table is the identity, the `10_10_10_2` arithmetic, the byte tables.
    pub(crate) fn new(
        kernel: LutKernel,
        shift: [u32; 4],
        mask: [u32; 4],
        tables: Vec<u32>,
        konst: u32,
        size_bytes: usize,
    ) -> WordLut {
        let mut lut = WordLut { kernel, shift, mask, tables, konst, unorm10: None, bytes: None };
        // The alpha byte read unchanged (sRGB and unorm formats): one table lookup less.
        if kernel == LutKernel::Bytes && (0..256).all(|x| lut.tables[3 * 256 + x] == (x as u32) << 24) {
            lut.kernel = LutKernel::BytesKeepA;
        }
        lut.unorm10 = lut.unorm10_plan();
        if matches!(lut.kernel, LutKernel::Bytes | LutKernel::BytesKeepA) && size_bytes == 4 {
            lut.bytes = ByteLuts::of(&lut);
        }
        lut
    }

    /// Checks every table entry of a `10_10_10_2` lut against [`unorm10_to_8`] /
    /// [`unorm2_to_8`] moved to one output byte; returns the (shift, keep) plan of
    /// [`WordLut::unorm10`] if all agree.
    fn unorm10_plan(&self) -> Option<([u32; 4], [u32; 4])> {
        if self.kernel != LutKernel::Rgb10A2 {
            return None;
        }
        let len = self.kernel.table_len();
        let mut shift = [0u32; 4];
        let mut keep = [0u32; 4];
        for f in 0..4 {
            let table = &self.tables[f * len..(f + 1) * len];
            if table.iter().all(|&e| e == 0) {
                continue;
            }
            let (max, conv): (u32, fn(u32) -> u32) = if f < 3 { (0x3ff, unorm10_to_8) } else { (3, unorm2_to_8) };
            if self.mask[f] != max {
                return None;
            }
            let ch = (0..4).find(|&ch| table[max as usize] >> (8 * ch) & 0xff != 0)?;
            if (0..=max).any(|x| table[x as usize] != conv(x) << (8 * ch)) {
                return None;
            }
            shift[f] = 8 * ch;
            keep[f] = 0xff;
        }
        Some((shift, keep))
    }

    /// Decodes one row: `src` holds `dst.len()` elements of `size` bytes (1, 2 or 4).
    pub(crate) fn row(&self, size: usize, src: &[u8], dst: &mut [[u8; 4]]) {
        let (s, m, k) = (self.shift, self.mask, self.konst);
        #[cfg(target_arch = "x86_64")]
        if let Some(b) = &self.bytes {
            if crate::cpu::avx512vbmi() && dst.len() >= 16 {
                let n = dst.len() / 16 * 16;
                // SAFETY: the CPU has AVX-512F/BW/VBMI; `src` holds 4 bytes per pixel of `dst`
                // (the caller's row), so the first `n` pixels' 4 * n bytes are in `src`.
                unsafe { bytes_row_vbmi(b, &src[..4 * n], &mut dst[..n]) };
                self.row(size, &src[4 * n..], &mut dst[n..]);
                return;
            }
        }
        #[cfg(target_arch = "x86_64")]
        if let Some((sh, keep)) = self.unorm10 {
            if crate::cpu::avx2() {
                // SAFETY: the CPU has AVX2.
                unsafe { unorm10_row_avx2(sh, keep, k, src, dst) };
                return;
            }
        }
        match self.kernel {
            LutKernel::Bytes => {
                let t = split_tables::<256>(&self.tables);
                lut_row::<256, 4>(t, k, src, dst, |v| [v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >> 24]);
            }
            LutKernel::BytesKeepA => {
                let [t0, t1, t2, _] = split_tables::<256>(&self.tables);
                for (o, e) in dst.iter_mut().zip(src.chunks_exact(4)) {
                    let v = u32::from_le_bytes([e[0], e[1], e[2], e[3]]);
                    let rgb =
                        t0[(v & 0xff) as usize] | t1[((v >> 8) & 0xff) as usize] | t2[((v >> 16) & 0xff) as usize];
                    *o = ((v & 0xff00_0000) | rgb | k).to_le_bytes();
                }
            }
            LutKernel::Rgb10A2 if self.unorm10.is_some() => {
                let (sh, keep) = self.unorm10.unwrap_or_default();
                unorm10_row(sh, keep, k, src, dst);
            }
            LutKernel::Rgb10A2 => {
                let t = split_tables::<1024>(&self.tables);
                lut_row::<1024, 4>(t, k, src, dst, |v| [v & 0x3ff, (v >> 10) & 0x3ff, (v >> 20) & 0x3ff, v >> 30]);
            }
            LutKernel::Any => {
                let t = split_tables::<{ 1 << 16 }>(&self.tables);
                let idx = |v: u32| [0, 1, 2, 3].map(|f| (v >> s[f]) & m[f]);
                match size {
                    4 => lut_row::<{ 1 << 16 }, 4>(t, k, src, dst, idx),
                    2 => lut_row::<{ 1 << 16 }, 2>(t, k, src, dst, idx),
                    _ => lut_row::<{ 1 << 16 }, 1>(t, k, src, dst, idx),
                }
            }
        }
    }
}

/// The four `N`-entry tables of a [`WordLut`] (`tables.len() == 4 * N`: the kernel and the
/// table length are chosen together in [`WordLut::new`]'s caller).
fn split_tables<const N: usize>(tables: &[u32]) -> [&[u32; N]; 4] {
    [0, 1, 2, 3].map(|f| {
        <&[u32; N]>::try_from(&tables[f * N..(f + 1) * N]).unwrap_or_else(|_| unreachable!("a range of N entries"))
    })
}

/// One row through word tables: `B`-byte little-endian elements, `idx` gives the four field
/// values (each below `N`, which `% N` makes plain to the compiler: no bounds checks, no
/// branches in the loop).
#[inline(always)]
fn lut_row<const N: usize, const B: usize>(
    t: [&[u32; N]; 4],
    konst: u32,
    src: &[u8],
    dst: &mut [[u8; 4]],
    idx: impl Fn(u32) -> [u32; 4],
) {
    for (o, e) in dst.iter_mut().zip(src.chunks_exact(B)) {
        let mut b = [0u8; 4];
        b[..B].copy_from_slice(e);
        let [i0, i1, i2, i3] = idx(u32::from_le_bytes(b)).map(|i| i as usize % N);
        *o = (t[0][i0] | t[1][i1] | t[2][i2] | t[3][i3] | konst).to_le_bytes();
    }
}

/// One `10_10_10_2` row by arithmetic (see [`WordLut::unorm10`]), which vectorizes (inlined so
/// that the AVX2 twin compiles it for AVX2).
#[inline(always)]
fn unorm10_row(sh: [u32; 4], keep: [u32; 4], konst: u32, src: &[u8], dst: &mut [[u8; 4]]) {
    word_map(src, dst, |v| {
        let r = (unorm10_to_8(v & 0x3ff) & keep[0]) << sh[0];
        let g = (unorm10_to_8((v >> 10) & 0x3ff) & keep[1]) << sh[1];
        let b = (unorm10_to_8((v >> 20) & 0x3ff) & keep[2]) << sh[2];
        let a = (unorm2_to_8(v >> 30) & keep[3]) << sh[3];
        konst | r | g | b | a
    });
}

// Row kernels for wider instruction sets, chosen at run time (`crate::cpu`); the tests run
// them against the portable kernels and the generic path.

/// [`unorm10_row`] compiled for AVX2 (8 pixels per vector, `vpmulld` and variable
/// shifts): the same code, so the same bytes.
///
/// # Safety
/// The CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn unorm10_row_avx2(sh: [u32; 4], keep: [u32; 4], konst: u32, src: &[u8], dst: &mut [[u8; 4]]) {
    unorm10_row(sh, keep, konst, src, dst);
}

/// A row of 16-pixel groups through byte tables: one byte permute puts each output
/// byte's element byte in place, and each distinct table is a 256-entry byte lookup made
/// of two 128-entry two-register permutes (`vpermi2b`) chosen by the index's top bit;
/// masked blends put table, unchanged and constant bytes together.
///
/// # Safety
/// The CPU has AVX-512F, AVX-512BW and AVX-512 VBMI. `src.len() == 4 * dst.len()` and
/// `dst.len()` is a multiple of 16 (checked: otherwise nothing is written).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
unsafe fn bytes_row_vbmi(b: &ByteLuts, src: &[u8], dst: &mut [[u8; 4]]) {
    use core::arch::x86_64::*;
    if src.len() != 4 * dst.len() || !dst.len().is_multiple_of(16) {
        return;
    }
    let perm_bytes: [u8; 64] = core::array::from_fn(|i| (i & !3) as u8 | b.src[i & 3]);
    // Byte masks of the output positions (bit i = byte i of the 64) of a channel set.
    let lanes = |pick: &dyn Fn(ByteOut) -> bool| -> u64 {
        (0..64).filter(|&i| pick(b.out[i & 3])).fold(0u64, |m, i| m | 1 << i)
    };
    let const_mask = lanes(&|o| o == ByteOut::Const);
    let konst = u32::from_le_bytes(b.konst);
    // SAFETY: the loads and stores below stay inside `src` and `dst` (64 bytes at
    // `4 * i` for `i` a multiple of 16 below `dst.len()`); the CPU features are the
    // function's contract.
    unsafe {
        let perm = _mm512_loadu_si512(perm_bytes.as_ptr() as *const __m512i);
        let kv = _mm512_set1_epi32(konst as i32);
        // Up to four tables: (the four 64-byte quarters, the lanes they fill).
        debug_assert!(b.tables.len() <= 4, "one table per output byte at most");
        let mut tabs =
            [(_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512(), 0u64); 4];
        for (n, t) in b.tables.iter().enumerate().take(4) {
            let q = |k: usize| _mm512_loadu_si512(t.as_ptr().add(64 * k) as *const __m512i);
            tabs[n] = (q(0), q(1), q(2), q(3), lanes(&|o| o == ByteOut::Table(n)));
        }
        let tabs = &tabs[..b.tables.len().min(4)];
        let sp = src.as_ptr();
        let dp = dst.as_mut_ptr() as *mut u8;
        let mut i = 0;
        while i < dst.len() {
            let v = _mm512_loadu_si512(sp.add(4 * i) as *const __m512i);
            let s = _mm512_permutexvar_epi8(perm, v);
            let mut r = _mm512_mask_blend_epi8(const_mask, s, kv);
            let top = _mm512_movepi8_mask(s);
            for &(t0, t1, t2, t3, m) in tabs {
                let lo = _mm512_permutex2var_epi8(t0, s, t1);
                let hi = _mm512_permutex2var_epi8(t2, s, t3);
                r = _mm512_mask_blend_epi8(m, r, _mm512_mask_blend_epi8(top, lo, hi));
            }
            _mm512_storeu_si512(dp.add(4 * i) as *mut __m512i, r);
            i += 16;
        }
    }
}

/// Byte moves for `8_8_8_8` to RGBA8: output byte `ch` of a pixel is element byte `map[ch]`
/// (0-3) or the constant [`MAP_ZERO`], [`MAP_255`] or [`MAP_ONE`].
/// `src.len() == 4 * out.len()`.
pub(crate) fn shuffle_rgba8(src: &[u8], out: &mut [[u8; 4]], map: [u8; 4]) {
    if map == [0, 1, 2, 3] {
        out.as_flattened_mut().copy_from_slice(src);
        return;
    }
    // The common color-format orders as whole-word bit operations (the compiler vectorizes
    // these loops); the generic byte shuffle below is the reference they are tested against.
    match map {
        [2, 1, 0, 3] => return word_map(src, out, |x| (x & 0xff00_ff00) | ((x >> 16) & 0xff) | ((x & 0xff) << 16)),
        [2, 1, 0, MAP_255] => {
            return word_map(src, out, |x| 0xff00_0000 | (x & 0xff00) | ((x >> 16) & 0xff) | ((x & 0xff) << 16))
        }
        [0, 1, 2, MAP_255] => return word_map(src, out, |x| x | 0xff00_0000),
        _ => {}
    }
    shuffle_rgba8_bytes(src, out, map);
}

/// Applies `f` to every little-endian 32-bit word of `src`, writing `out` (monomorphized per
/// `f`, so it vectorizes).
#[inline(always)]
fn word_map(src: &[u8], out: &mut [[u8; 4]], f: impl Fn(u32) -> u32) {
    // 16 pixels at a time: copy (four vector moves), then transform the words in place. The
    // in-place loop over `[u8; 4]` items vectorizes where a zip of the two slices did not,
    // and the block stays in registers / L1 between the two steps.
    let mut outs = out.chunks_exact_mut(16);
    let mut srcs = src.chunks_exact(64);
    for (o, s) in (&mut outs).zip(&mut srcs) {
        let (Ok(o), Ok(s)) = (<&mut [[u8; 4]; 16]>::try_from(o), <&[u8; 64]>::try_from(s)) else { continue };
        o.as_flattened_mut().copy_from_slice(s);
        for p in o.iter_mut() {
            *p = f(u32::from_le_bytes(*p)).to_le_bytes();
        }
    }
    for (o, s) in outs.into_remainder().iter_mut().zip(srcs.remainder().chunks_exact(4)) {
        *o = f(u32::from_le_bytes([s[0], s[1], s[2], s[3]])).to_le_bytes();
    }
}

/// Generic byte shuffle for [`shuffle_rgba8`].
pub(crate) fn shuffle_rgba8_bytes(src: &[u8], out: &mut [[u8; 4]], map: [u8; 4]) {
    for (o, s) in out.iter_mut().zip(src.chunks_exact(4)) {
        let ext = [s[0], s[1], s[2], s[3], 0, 255, 1];
        *o = map.map(|m| ext[usize::from(m)]);
    }
}
