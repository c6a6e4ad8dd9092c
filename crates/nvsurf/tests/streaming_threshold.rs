//! The streaming threshold: 7/32 of the level-3 cache, clamped, or set for the process.
//! (Its own test binary: setting the threshold is process-wide.)

use nvsurf::tile::{
    set_streaming_threshold_bytes, streaming_threshold_bytes, streaming_threshold_for_l3, STREAMING_THRESHOLD_BYTES,
};

const MIB: u64 = 1 << 20;

#[test]
fn threshold_scales_with_the_level_3_cache() {
    // The development machine: 32 MiB of level-3 cache per core complex gives the measured 7 MiB.
    assert_eq!(streaming_threshold_for_l3(Some(32 * MIB)), STREAMING_THRESHOLD_BYTES);
    assert_eq!(STREAMING_THRESHOLD_BYTES, 7 << 20);
    assert_eq!(streaming_threshold_for_l3(Some(8 * MIB)), (7 * MIB / 4) as usize);
    assert_eq!(streaming_threshold_for_l3(Some(96 * MIB)), (21 * MIB) as usize);
    // Unknown: the development machine's value; tiny and absurd caches are clamped.
    assert_eq!(streaming_threshold_for_l3(None), STREAMING_THRESHOLD_BYTES);
    assert_eq!(streaming_threshold_for_l3(Some(2 * MIB)), MIB as usize);
    assert_eq!(streaming_threshold_for_l3(Some(0)), MIB as usize);
    assert_eq!(streaming_threshold_for_l3(Some(u64::MAX)), 1 << 30);
}

#[test]
fn threshold_can_be_set_for_the_process_and_reset() {
    let auto = streaming_threshold_for_l3(nvsurf::cpu::l3_cache_bytes());
    assert_eq!(streaming_threshold_bytes(), auto);
    assert_eq!(set_streaming_threshold_bytes(Some(12345)), None);
    assert_eq!(streaming_threshold_bytes(), 12345);
    assert_eq!(set_streaming_threshold_bytes(Some(0)), Some(12345));
    assert_eq!(streaming_threshold_bytes(), 1, "0 is taken as 1 byte");
    assert_eq!(set_streaming_threshold_bytes(None), Some(1));
    assert_eq!(streaming_threshold_bytes(), auto);
}

#[test]
fn level_3_cache_size_is_plausible_where_reported() {
    // CPUID's deterministic cache parameters on x86_64; real caches are whole lines and
    // between 1 MiB and a few hundred MiB per complex or package.
    if let Some(b) = nvsurf::cpu::l3_cache_bytes() {
        assert!((MIB..=4096 * MIB).contains(&b), "level-3 cache of {b} bytes");
        assert_eq!(b % 64, 0);
        assert_eq!(nvsurf::cpu::l3_cache_bytes(), Some(b), "cached, the same every time");
    }
    #[cfg(not(target_arch = "x86_64"))]
    assert_eq!(nvsurf::cpu::l3_cache_bytes(), None);
}
