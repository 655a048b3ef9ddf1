//! Declarations of `native/picollo_native.c` (x86-64 and arm64 Linux) and
//! thin safe wrappers. The page-read types mirror the C header field for field.

/// Mirror of `picollo_mmap_page`: the head of the kernel's `perf_event_mmap_page`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct MmapPageHead {
    pub version: u32,
    pub compat_version: u32,
    pub lock: u32,
    pub index: u32,
    pub offset: i64,
    pub time_enabled: u64,
    pub time_running: u64,
    pub capabilities: u64,
    pub pmc_width: u16,
    pub time_shift: u16,
    pub time_mult: u32,
    pub time_offset: u64,
    pub time_zero: u64,
    pub size: u32,
    pub reserved_1: u32,
    pub time_cycles: u64,
    pub time_mask: u64,
}

const _: () = {
    assert!(core::mem::size_of::<MmapPageHead>() == 96);
    assert!(core::mem::offset_of!(MmapPageHead, capabilities) == 40);
    assert!(core::mem::offset_of!(MmapPageHead, time_cycles) == 80);
};

#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const CAP_USER_RDPMC: u64 = 1 << 2;
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const CAP_USER_TIME: u64 = 1 << 3;
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const CAP_USER_TIME_SHORT: u64 = 1 << 5;

pub(crate) const PAGE_OK: u32 = 0;
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const PAGE_NO_RDPMC: u32 = 1;
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const PAGE_NOT_SCHEDULED: u32 = 2;
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const PAGE_CONTENDED: u32 = 3;

/// Mirror of `picollo_page_reading`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PageReading {
    pub count: u64,
    pub enabled: u64,
    pub running: u64,
    pub scaled: u64,
    pub status: u32,
    pub retries: u32,
}

pub(crate) type PmcSource = unsafe extern "C" fn(ctx: *mut core::ffi::c_void, counter: u32) -> u64;
pub(crate) type TscSource = unsafe extern "C" fn(ctx: *mut core::ffi::c_void) -> u64;

/// Instructions each block of [`add_chain`] retires: 256 adds, the loop's decrement and
/// its branch (`PICOLLO_ADD_CHAIN_BLOCK_INSTRUCTIONS`).
pub(crate) const ADD_CHAIN_BLOCK_INSTRUCTIONS: u64 = 258;

extern "C" {
    pub(crate) fn picollo_native_page_read(page: *const MmapPageHead, out: *mut PageReading)
        -> u32;
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) fn picollo_native_page_read_with(
        page: *const MmapPageHead,
        pmc: PmcSource,
        tsc: TscSource,
        ctx: *mut core::ffi::c_void,
        out: *mut PageReading,
    ) -> u32;
    fn picollo_native_sign_extend(raw: u64, width: u32) -> u64;
    fn picollo_native_ticks() -> u64;
    fn picollo_native_ticks_begin() -> u64;
    fn picollo_native_ticks_end() -> u64;
    fn picollo_native_fence();
    fn picollo_native_add_chain(blocks: u64) -> u64;
    #[cfg(target_arch = "x86_64")]
    fn picollo_native_rdtscp(aux: *mut u32) -> u64;
    #[cfg(target_arch = "x86_64")]
    fn picollo_native_cpuid(leaf: u32, subleaf: u32, out: *mut u32);
    #[cfg(target_arch = "aarch64")]
    fn picollo_native_tick_frequency() -> u64;
}

/// `(raw << (64 - width)) >> (64 - width)` as signed; width outside 1..64 keeps `raw`.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn sign_extend(raw: u64, width: u32) -> u64 {
    // SAFETY: pure arithmetic on two integers; no memory is touched.
    unsafe { picollo_native_sign_extend(raw, width) }
}

/// The tick clock, not serialized: `rdtsc` on x86-64, `cntvct_el0` on arm64.
#[inline]
pub(crate) fn ticks() -> u64 {
    // SAFETY: one register read; Linux lets user space read the tick clock on both
    // architectures.
    unsafe { picollo_native_ticks() }
}

/// `rdtscp`: waits for earlier instructions; also returns IA32_TSC_AUX (the cpu number on
/// Linux).
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn rdtscp() -> (u64, u32) {
    let mut aux = 0u32;
    // SAFETY: `aux` is a live, writable u32 for the duration of the call.
    let t = unsafe { picollo_native_rdtscp(&mut aux) };
    (t, aux)
}

/// A region start that earlier instructions cannot drift past (`lfence; rdtsc`, or `isb;
/// mrs cntvct_el0`).
#[inline]
pub(crate) fn ticks_begin() -> u64 {
    // SAFETY: register reads and a fence; no memory is touched.
    unsafe { picollo_native_ticks_begin() }
}

/// A region end that later instructions cannot drift before (`rdtscp; lfence`, or `isb;
/// mrs cntvct_el0; isb`).
#[inline]
pub(crate) fn ticks_end() -> u64 {
    // SAFETY: register reads and a fence; no memory is touched.
    unsafe { picollo_native_ticks_end() }
}

/// `lfence` on x86-64, `isb` on arm64.
#[allow(dead_code)]
pub(crate) fn fence() {
    // SAFETY: a fence instruction; no memory is touched.
    unsafe { picollo_native_fence() }
}

/// The tick clock's frequency as the CPU states it (`cntfrq_el0`).
#[cfg(target_arch = "aarch64")]
pub(crate) fn tick_frequency() -> u64 {
    // SAFETY: one register read, allowed to user space on arm64 Linux.
    unsafe { picollo_native_tick_frequency() }
}

/// `cpuid(leaf, subleaf)` as `[eax, ebx, ecx, edx]`.
#[cfg(target_arch = "x86_64")]
pub(crate) fn cpuid(leaf: u32, subleaf: u32) -> [u32; 4] {
    let mut out = [0u32; 4];
    // SAFETY: `out` has room for the four u32 the C side writes; cpuid is always available
    // on x86-64.
    unsafe { picollo_native_cpuid(leaf, subleaf, out.as_mut_ptr()) };
    out
}

/// 256 dependent adds per block, [`ADD_CHAIN_BLOCK_INSTRUCTIONS`] instructions; returns
/// 256 × blocks.
pub(crate) fn add_chain(blocks: u64) -> u64 {
    // SAFETY: register arithmetic only.
    unsafe { picollo_native_add_chain(blocks) }
}
