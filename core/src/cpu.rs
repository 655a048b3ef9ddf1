//! What this CPU offers beyond the target's baseline, asked once with CPUID and
//! remembered: `lzcnt` and BMI2 for the record paths ([`crate::Log2`]), AVX2 for the sums
//! every query starts with (`crate::sum`). Built for a target that has an instruction (or
//! for another architecture), the answer is a constant.

#[cfg(all(
    target_arch = "x86_64",
    not(miri),
    any(not(target_feature = "lzcnt"), not(target_feature = "avx2"))
))]
use core::sync::atomic::{AtomicU8, Ordering};

/// `ask()`, asked once and kept in `known`: 0 until asked, then 1 (no) or 2 (yes).
#[cfg(all(
    target_arch = "x86_64",
    not(miri),
    any(not(target_feature = "lzcnt"), not(target_feature = "avx2"))
))]
fn once(known: &AtomicU8, ask: fn() -> bool) -> bool {
    match known.load(Ordering::Relaxed) {
        0 => {
            let has = ask();
            known.store(if has { 2 } else { 1 }, Ordering::Relaxed);
            has
        }
        answer => answer == 2,
    }
}

/// CPUID leaf 0x8000_0001, ECX bit 5: LZCNT (AMD's ABM; Intel reports it there too).
#[cfg(all(target_arch = "x86_64", not(target_feature = "lzcnt"), not(miri)))]
pub(crate) fn has_lzcnt() -> bool {
    use core::arch::x86_64::__cpuid;
    static LZCNT: AtomicU8 = AtomicU8::new(0);
    #[allow(unused_unsafe)]
    // SAFETY: CPUID exists on every x86-64 CPU; leaf 0x8000_0000 gives the highest
    // extended leaf, and 0x8000_0001 is asked only when it is there.
    once(&LZCNT, || unsafe {
        __cpuid(0x8000_0000).eax >= 0x8000_0001 && __cpuid(0x8000_0001).ecx & (1 << 5) != 0
    })
}

/// CPUID leaf 7 subleaf 0, EBX bits 3 and 8: BMI1 and BMI2 (meaningful where
/// `has_lzcnt` is).
#[cfg(all(target_arch = "x86_64", not(target_feature = "lzcnt"), not(miri)))]
#[cfg(all(picollo_concurrent, feature = "alloc"))]
pub(crate) fn has_bmi2() -> bool {
    use core::arch::x86_64::{__cpuid, __cpuid_count};
    static BMI2: AtomicU8 = AtomicU8::new(0);
    const BMI1_AND_2: u32 = (1 << 3) | (1 << 8);
    #[allow(unused_unsafe)]
    // SAFETY: CPUID exists on every x86-64 CPU; leaf 0 gives the highest basic leaf,
    // and leaf 7 is asked only when it is there.
    once(&BMI2, || unsafe {
        __cpuid(0).eax >= 7 && __cpuid_count(7, 0).ebx & BMI1_AND_2 == BMI1_AND_2
    })
}

/// Built with `lzcnt` (or elsewhere): the choice does not matter, `ilog2` serves.
#[cfg(not(all(target_arch = "x86_64", not(target_feature = "lzcnt"), not(miri))))]
pub(crate) fn has_lzcnt() -> bool {
    false
}

/// As `has_lzcnt`: false where the choice does not matter.
#[cfg(not(all(target_arch = "x86_64", not(target_feature = "lzcnt"), not(miri))))]
#[cfg(all(picollo_concurrent, feature = "alloc"))]
pub(crate) fn has_bmi2() -> bool {
    false
}

/// CPUID leaf 7 subleaf 0, EBX bit 5: AVX2; and leaf 1, ECX bits 27 and 28, with XCR0's
/// bits 1 and 2: the OS saves the YMM registers (OSXSAVE, AVX, XMM and YMM state).
#[cfg(all(target_arch = "x86_64", not(target_feature = "avx2"), not(miri)))]
pub(crate) fn has_avx2() -> bool {
    use core::arch::x86_64::{__cpuid, __cpuid_count, _xgetbv};
    static AVX2: AtomicU8 = AtomicU8::new(0);
    const OSXSAVE_AND_AVX: u32 = (1 << 27) | (1 << 28);
    #[allow(unused_unsafe)]
    // SAFETY: CPUID exists on every x86-64 CPU; leaf 0 gives the highest basic leaf, and
    // leaf 7 is asked only when it is there; XGETBV is executed only where CPUID's OSXSAVE
    // bit says the OS enabled it.
    once(&AVX2, || unsafe {
        let leaf1 = __cpuid(1).ecx;
        leaf1 & OSXSAVE_AND_AVX == OSXSAVE_AND_AVX
            && _xgetbv(0) & 0b110 == 0b110
            && __cpuid(0).eax >= 7
            && __cpuid_count(7, 0).ebx & (1 << 5) != 0
    })
}

/// Built with AVX2, every CPU the build runs on has it; under Miri, no vector path is
/// taken.
#[cfg(all(target_arch = "x86_64", any(target_feature = "avx2", miri)))]
pub(crate) fn has_avx2() -> bool {
    cfg!(target_feature = "avx2")
}
