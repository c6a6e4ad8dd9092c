//! Which vector kernels the hot loops may use on this CPU.
//!
//! The tiling and codec loops have a portable path (x86_64 baseline SSE2, or plain Rust
//! elsewhere) and, on x86_64 with the `std` feature, kernels for wider instruction sets chosen
//! at run time:
//! - whole blocklinear gobs (Tegra and VM orders): AVX-512F, else AVX2, on 64-byte aligned
//!   buffers and pitches, with streaming stores of whole lines for large outputs;
//! - whole swizzle chunks of 4-byte elements: AVX-512F (single chunks, untile; pairs of
//!   chunks side by side, both ways), else AVX2 (pairs); of 1-, 2- and 8-byte elements:
//!   AVX-512 VBMI, BW and F respectively, else AVX2;
//! - byte table lookups (sRGB `8_8_8_8`): AVX-512 VBMI;
//! - `10_10_10_2` unorm arithmetic: AVX2.
//!
//! Every such kernel is tested against the portable path and the byte-by-byte references on a
//! CPU that has it (the tests step the cap through every level).
//!
//! A copy takes its cap per call (`tile::CopyOptions::vector_limit`); the process-wide cap
//! (`set_vector_limit`, for tests and debugging) is what a call that names none gets.

use core::sync::atomic::{AtomicU8, Ordering};

/// A level of vector kernels, from none to the widest this crate has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum VectorLevel {
    /// Only the portable kernels (SSE2 on x86_64, which is the baseline there).
    Baseline = 0,
    /// Kernels that need AVX2.
    Avx2 = 1,
    /// Kernels that need AVX-512F/BW (and VBMI where it is named).
    Avx512 = 2,
}

/// The process-wide cap (a `VectorLevel` as u8).
static LIMIT: AtomicU8 = AtomicU8::new(VectorLevel::Avx512 as u8);

impl VectorLevel {
    fn from_u8(v: u8) -> VectorLevel {
        match v {
            0 => VectorLevel::Baseline,
            1 => VectorLevel::Avx2,
            _ => VectorLevel::Avx512,
        }
    }
}

/// Caps the vector kernels the crate uses from now on to `level` (default: no cap), for every
/// call that does not name its own cap (`tile::CopyOptions::vector_limit`). Returns the
/// previous cap. Results never depend on it: every level produces the same bytes. A process-wide
/// switch for tests and debugging, not part of the front door.
#[doc(hidden)]
pub fn set_vector_limit(level: VectorLevel) -> VectorLevel {
    VectorLevel::from_u8(LIMIT.swap(level as u8, Ordering::Relaxed))
}

/// The process-wide cap (see `set_vector_limit`; [`VectorLevel::Avx512`] unless set).
pub fn vector_limit() -> VectorLevel {
    VectorLevel::from_u8(LIMIT.load(Ordering::Relaxed))
}

/// True when the cap allows `level`.
fn allowed(level: VectorLevel) -> bool {
    LIMIT.load(Ordering::Relaxed) >= level as u8
}

/// Which vector kernels may run under a given cap on this CPU, resolved once per copy (so that
/// a copy's cap is its own, whatever other threads ask for at the same time).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Caps {
    /// AVX-512F kernels may run.
    pub(crate) avx512f: bool,
    /// AVX2 kernels may run.
    pub(crate) avx2: bool,
    /// AVX-512BW kernels may run (with AVX-512F).
    pub(crate) avx512bw: bool,
    /// AVX-512 VBMI kernels may run (with AVX-512F and BW).
    pub(crate) avx512vbmi: bool,
}

impl Caps {
    /// The kernels this CPU offers under the cap `limit` (the checks of [`avx2`],
    /// [`avx512f`], [`avx512bw`] and [`avx512vbmi`] with `limit` for the process-wide cap).
    pub(crate) fn under(limit: VectorLevel) -> Caps {
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        {
            use std::arch::is_x86_feature_detected as has;
            let (v2, v512) = (limit >= VectorLevel::Avx2, limit >= VectorLevel::Avx512);
            let f = v512 && has!("avx512f");
            let bw = f && has!("avx512bw");
            Caps { avx512f: f, avx2: v2 && has!("avx2"), avx512bw: bw, avx512vbmi: bw && has!("avx512vbmi") }
        }
        #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
        {
            let _ = limit;
            Caps { avx512f: false, avx2: false, avx512bw: false, avx512vbmi: false }
        }
    }

    /// The widest level these kernels reach.
    pub(crate) fn level(&self) -> VectorLevel {
        if self.avx512f {
            VectorLevel::Avx512
        } else if self.avx2 {
            VectorLevel::Avx2
        } else {
            VectorLevel::Baseline
        }
    }
}

/// AVX2 kernels may run: the CPU has AVX2 and the cap allows them.
#[inline]
pub fn avx2() -> bool {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    {
        allowed(VectorLevel::Avx2) && std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
    {
        let _ = allowed;
        false
    }
}

/// AVX-512F kernels may run.
#[inline]
pub fn avx512f() -> bool {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    {
        allowed(VectorLevel::Avx512) && std::arch::is_x86_feature_detected!("avx512f")
    }
    #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
    {
        false
    }
}

/// AVX-512BW (16-bit lane permutes, with AVX-512F) kernels may run.
#[inline]
pub fn avx512bw() -> bool {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    {
        allowed(VectorLevel::Avx512)
            && std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
    }
    #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
    {
        false
    }
}

/// AVX-512 VBMI (byte permutes, with AVX-512BW masks) kernels may run.
#[inline]
pub fn avx512vbmi() -> bool {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    {
        allowed(VectorLevel::Avx512)
            && std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512vbmi")
    }
    #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
    {
        false
    }
}

/// The widest level this CPU offers under the current cap.
pub fn active_level() -> VectorLevel {
    if avx512f() {
        VectorLevel::Avx512
    } else if avx2() {
        VectorLevel::Avx2
    } else {
        VectorLevel::Baseline
    }
}

/// The size in bytes of the level-3 cache the calling core shares with its neighbours (one
/// core complex on AMD, the package on Intel), from CPUID's deterministic cache parameters:
/// leaf `0x8000_001D` where the CPU has it (AMD, Hygon: AMD64 Architecture Programmer's Manual
/// vol. 3, "CPUID Fn8000_001D Cache Topology Information"), else leaf 4 (Intel SDM vol. 2A,
/// "Deterministic Cache Parameters Leaf"); both give ways x partitions x line size x sets.
/// `None` off x86_64, or when the CPU reports no level-3 cache. On CPUs whose complexes have
/// level-3 caches of different sizes, it is the size the first caller's core sees.
///
/// Not AMD's leaf `0x8000_0006` (L3 size in 512 KiB units): on the development machine, a
/// KVM guest on a 32 MiB-per-complex Zen 4 EPYC, it reports the host's 320 MiB in all, while
/// `0x8000_001D` reports the 32 MiB the core can use. Read once and cached.
pub fn l3_cache_bytes() -> Option<u64> {
    use core::sync::atomic::AtomicU64;
    /// 0: not read yet; `u64::MAX`: no level-3 cache; else its size.
    static L3: AtomicU64 = AtomicU64::new(0);
    let v = match L3.load(Ordering::Relaxed) {
        0 => {
            let v = read_l3().unwrap_or(u64::MAX);
            L3.store(v, Ordering::Relaxed);
            v
        }
        v => v,
    };
    (v != u64::MAX).then_some(v)
}

/// [`l3_cache_bytes`] without the cache.
fn read_l3() -> Option<u64> {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{__cpuid, __cpuid_count};
        // SAFETY: CPUID exists on every x86_64 CPU and has no memory effects; leaves above the
        // maximum the CPU reports are not asked for.
        #[allow(unused_unsafe)]
        let (max_basic, max_ext) = unsafe { (__cpuid(0).eax, __cpuid(0x8000_0000).eax) };
        // AMD defines leaf 0x8000_001D only with TopologyExtensions (CPUID 0x8000_0001 ECX
        // bit 22).
        // SAFETY: as above; 0x8000_0001 is asked for only when the CPU reports it.
        #[allow(unused_unsafe)]
        let topology = max_ext >= 0x8000_0001 && unsafe { __cpuid(0x8000_0001).ecx } & (1 << 22) != 0;
        let leaf = if max_ext >= 0x8000_001D && topology {
            0x8000_001D
        } else if max_basic >= 4 {
            4
        } else {
            return None;
        };
        for sub in 0..16 {
            // SAFETY: as above; `leaf` is at most the CPU's maximum.
            #[allow(unused_unsafe)]
            let r = unsafe { __cpuid_count(leaf, sub) };
            let cache_type = r.eax & 0x1f; // 0: no more caches; 1 data, 2 instruction, 3 unified
            if cache_type == 0 {
                break;
            }
            if (r.eax >> 5) & 7 == 3 && cache_type != 2 {
                let ways = u64::from((r.ebx >> 22) + 1);
                let partitions = u64::from(((r.ebx >> 12) & 0x3ff) + 1);
                let line = u64::from((r.ebx & 0xfff) + 1);
                let sets = u64::from(r.ecx) + 1;
                // At most 2^10 * 2^10 * 2^12 * 2^32: checked all the same (a hypervisor may
                // report anything); 0 is "no answer" (and the cache's "not read yet").
                return ways.checked_mul(partitions)?.checked_mul(line)?.checked_mul(sets).filter(|&b| b > 0);
            }
        }
        None
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        None
    }
}
