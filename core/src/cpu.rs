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

/// Whether `bsr` costs more than `lzcnt` here: AMD's (and Hygon's) cores before Zen 4,
/// CPUID leaf 0 vendor and leaf 1 family and model. Elsewhere `bsr` costs what `lzcnt`
/// does and gives `⌊log2⌋` with no subtraction from 63 (measured on Zen 4: the plain
/// histogram's record loop 1.00 ns a value with `bsr`, 1.10–1.12 with `lzcnt`).
#[cfg(all(target_arch = "x86_64", not(target_feature = "lzcnt"), not(miri)))]
pub(crate) fn bsr_is_slow() -> bool {
    static SLOW: AtomicU8 = AtomicU8::new(0);
    once(&SLOW, || {
        #[allow(unused_unsafe)]
        // SAFETY: CPUID exists on every x86-64 CPU; leaves 0 and 1 always exist.
        let (vendor, signature) = unsafe {
            let leaf0 = core::arch::x86_64::__cpuid(0);
            (
                (leaf0.ebx, leaf0.edx, leaf0.ecx),
                core::arch::x86_64::__cpuid(1).eax,
            )
        };
        amd_before_zen4(vendor, signature)
    })
}

/// `AuthenticAMD` or `HygonGenuine` (leaf 0's EBX, EDX, ECX) with a family below 0x19, or
/// family 0x19 outside Zen 4's model ranges (0x10–0x1F, 0x60–0x7F, 0xA0–0xAF); the
/// family and model from leaf 1's EAX, extended fields included.
#[cfg(all(
    target_arch = "x86_64",
    any(test, all(not(target_feature = "lzcnt"), not(miri)))
))]
pub(crate) fn amd_before_zen4(vendor: (u32, u32, u32), signature: u32) -> bool {
    const AMD: (u32, u32, u32) = (0x6874_7541, 0x6974_6e65, 0x444d_4163);
    const HYGON: (u32, u32, u32) = (0x6f67_7948, 0x6e65_476e, 0x656e_6975);
    let base = (signature >> 8) & 0xf;
    let family = base
        + if base == 0xf {
            (signature >> 20) & 0xff
        } else {
            0
        };
    let model = ((signature >> 4) & 0xf) | ((signature >> 12) & 0xf0);
    let zen4 = matches!(model, 0x10..=0x1f | 0x60..=0x7f | 0xa0..=0xaf);
    (vendor == AMD || vendor == HYGON) && (family < 0x19 || (family == 0x19 && !zen4))
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

/// As `has_lzcnt`: where the choice does not matter.
#[cfg(not(all(target_arch = "x86_64", not(target_feature = "lzcnt"), not(miri))))]
pub(crate) fn bsr_is_slow() -> bool {
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

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::amd_before_zen4;

    const AMD: (u32, u32, u32) = (0x6874_7541, 0x6974_6e65, 0x444d_4163);
    const INTEL: (u32, u32, u32) = (0x756e_6547, 0x4965_6e69, 0x6c65_746e);

    /// Leaf 1's EAX for a family and model (stepping 1), the extended fields as CPUs set
    /// them: family 0xF plus the extension, the model's high nibble apart.
    fn signature(family: u32, model: u32) -> u32 {
        let (base, ext) = if family >= 0xf {
            (0xf, family - 0xf)
        } else {
            (family, 0)
        };
        1 | ((model & 0xf) << 4) | (base << 8) | ((model >> 4) << 16) | (ext << 20)
    }

    #[test]
    fn bsr_is_kept_off_amd_cores_before_zen4_only() {
        // Zen 4 EPYC (this project's VM: family 25, model 17), desktop, mobile; Zen 5.
        assert_eq!(signature(0x19, 0x11), 0x00a1_0f11);
        for (family, model) in [
            (0x19, 0x11),
            (0x19, 0x61),
            (0x19, 0x74),
            (0x19, 0xa0),
            (0x1a, 0x02),
        ] {
            assert!(
                !amd_before_zen4(AMD, signature(family, model)),
                "{family:#x} {model:#x}"
            );
        }
        // Zen 3 EPYC and desktop, Zen 2, Zen 1, and an older family.
        for (family, model) in [
            (0x19, 0x01),
            (0x19, 0x21),
            (0x19, 0x50),
            (0x17, 0x31),
            (0x17, 0x01),
            (0x15, 0x02),
        ] {
            assert!(
                amd_before_zen4(AMD, signature(family, model)),
                "{family:#x} {model:#x}"
            );
        }
        // Intel, whatever the family and model.
        assert!(!amd_before_zen4(INTEL, signature(0x6, 0x8f)));
        assert!(!amd_before_zen4(INTEL, signature(0x19, 0x01)));
    }
}
