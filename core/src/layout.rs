//! The bucket layout: how a relative error turns into buckets, and where a value lands.
//!
//! The value space `0..=u64::MAX` is cut into blocks of `block_size` buckets. Blocks 0 and 1
//! have width-1 buckets (exact values); each later block doubles the bucket width, so the
//! relative error of a bucket's midpoint stays below `0.5 / block_size` everywhere.
//!
//! A layout may have a unit `2^k` (HdrHistogram's lowest discernible value, rounded down to a
//! power of two): values are indexed as if shifted right by `k`, so blocks `k` and `k + 1` hold
//! `2^k`-wide buckets from 0 up, and from block `k + 2` on the buckets are those of unit 1.
//! Logical indices stay those of unit 1 above the unit; the ones below `k · block_size` are
//! unused. So `k = 0` is the plain layout, bit for bit, and every bound is in values.
//!
//! Everything here is pure integer math and `const`, so a storage size can be known at
//! compile time (see [`crate::Config::storage_len`]); only the record paths' copy of
//! [`Layout::index`], [`Layout::fast_index`], is not (it pins a register with `asm!` and
//! takes the instruction this CPU does best, [`Log2`]).

use crate::cpu;

/// Smallest relative error a layout accepts (0.0001 %); smaller requests are raised to it.
pub const MIN_RELATIVE_ERROR: f64 = 1e-6;
/// Largest relative error a layout accepts (10 %); larger requests are lowered to it.
pub const MAX_RELATIVE_ERROR: f64 = 0.1;
/// Relative error used when none is given: 0.1 %.
pub const DEFAULT_RELATIVE_ERROR: f64 = 0.001;

/// A bucket layout, fully defined by `log2(block_size)` and `log2(unit)`.
///
/// It cannot be built with a block size outside what the clamped relative errors produce
/// (`8..=524_288`), nor with a unit whose first blocks pass `2^64`, so the index math never
/// needs to check it again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    block_scale: u32,
    /// `log2(unit)`.
    unit_scale: u32,
    /// `B · unit = 2^(block_scale + unit_scale)`: values below twice this lie in the
    /// unit-wide buckets. Kept whole so that the index ors it in with one operand from
    /// memory, as cheap as the plain layout's `B`.
    fine: u64,
}

/// One bucket: the values `lower..=highest` share it and are reported as one value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bucket {
    /// Smallest value of the bucket.
    pub lower: u64,
    /// Largest value of the bucket (HdrHistogram's "highest equivalent value").
    pub highest: u64,
}

impl Bucket {
    /// Number of distinct values in the bucket (a power of two).
    pub const fn width(&self) -> u64 {
        self.highest - self.lower + 1
    }

    /// The value reported for the bucket: `lower + width / 2`.
    pub const fn midpoint(&self) -> u64 {
        self.lower + self.width() / 2
    }

    /// Exclusive upper bound, which is `2^64` for the topmost bucket: hence `u128`.
    pub const fn upper(&self) -> u128 {
        self.highest as u128 + 1
    }

    /// Whether `v` belongs to this bucket.
    pub const fn contains(&self, v: u64) -> bool {
        self.lower <= v && v <= self.highest
    }
}

impl Layout {
    /// The layout for `relative_error`, clamped to
    /// [`MIN_RELATIVE_ERROR`]`..=`[`MAX_RELATIVE_ERROR`].
    ///
    /// This is the lenient, `const` form: zero, negative and NaN mean
    /// [`DEFAULT_RELATIVE_ERROR`], `+∞` means the maximum. [`crate::Config`] is the strict
    /// form and rejects those inputs with an error instead.
    pub const fn clamped(relative_error: f64) -> Layout {
        // `!(e > 0)` is also true for NaN.
        let e = if relative_error.is_nan() || relative_error <= 0.0 {
            DEFAULT_RELATIVE_ERROR
        } else if relative_error < MIN_RELATIVE_ERROR {
            MIN_RELATIVE_ERROR
        } else if relative_error > MAX_RELATIVE_ERROR {
            MAX_RELATIVE_ERROR
        } else {
            relative_error
        };
        // The first bucket of block 2 is [2B, 2B + 2): its midpoint is off by at most 1 for a
        // value near 2B, a relative error of 1 / 2B = 0.5 / B. So B = 0.5 / e, rounded up to a
        // power of two so that dividing by B is a shift. Rounding 0.5 / e up (not down, as
        // the original does) keeps the guarantee: 0.5 / B <= e for every accepted e.
        let exact = 0.5 / e;
        let mut ceil = exact as u64;
        if (ceil as f64) < exact {
            ceil += 1;
        }
        let block_size = ceil.next_power_of_two();
        Layout {
            block_scale: block_size.trailing_zeros(),
            unit_scale: 0,
            fine: block_size,
        }
    }

    /// The layout with `block_size = 2^block_scale`, for `block_scale` in `3..=19`.
    pub const fn from_block_scale(block_scale: u32) -> Option<Layout> {
        if block_scale >= 3 && block_scale <= 19 {
            Some(Layout {
                block_scale,
                unit_scale: 0,
                fine: 1 << block_scale,
            })
        } else {
            None
        }
    }

    /// This layout with unit `2^unit_scale`; `None` when its unit-wide buckets would pass
    /// `2^64` (`block_scale + unit_scale > 63`).
    pub const fn with_unit_scale(self, unit_scale: u32) -> Option<Layout> {
        if unit_scale > 63 - self.block_scale {
            None
        } else {
            Some(Layout {
                block_scale: self.block_scale,
                unit_scale,
                fine: 1 << (self.block_scale + unit_scale),
            })
        }
    }

    /// `log2` of the unit, the width of the lowest buckets (0: exact integers below `2B`).
    pub const fn unit_scale(&self) -> u32 {
        self.unit_scale
    }

    /// The unit: the width of the lowest buckets, HdrHistogram's lowest discernible value.
    pub const fn unit(&self) -> u64 {
        1 << self.unit_scale()
    }

    /// The logical index of the bucket of 0, the smallest one in use: `unit_scale · B`.
    pub const fn first_index(&self) -> usize {
        (self.unit_scale() as usize) << self.block_scale
    }

    /// `B · unit`: or-ed into a value before its logarithm ([`Layout::index`]).
    pub(crate) const fn fine(&self) -> u64 {
        self.fine
    }

    /// `log2(block_size)`.
    pub const fn block_scale(&self) -> u32 {
        self.block_scale
    }

    /// Buckets per block, a power of two.
    pub const fn block_size(&self) -> u64 {
        1 << self.block_scale
    }

    /// Blocks needed to cover `0..=u64::MAX`: block 0 plus one per bit above the block scale.
    pub const fn block_count(&self) -> u64 {
        1 + 64 - self.block_scale as u64
    }

    /// One past the last logical index (the indices below [`Layout::first_index`] are unused).
    pub const fn logical_len(&self) -> usize {
        (self.block_count() << self.block_scale) as usize
    }

    /// The guaranteed relative error of a bucket's midpoint: `0.5 / block_size`.
    /// Values below `2 · B · unit` are off by at most half a unit instead.
    pub const fn relative_error(&self) -> f64 {
        0.5 / self.block_size() as f64
    }

    /// The logical index of the bucket holding `v`. Monotone in `v`.
    #[inline(always)]
    pub const fn index(&self, v: u64) -> usize {
        let scale = self.block_scale;
        // Block k >= 1 holds [2^(k-1)·B, 2^k·B) in steps of 2^(k-1), so v >> (k - 1) lies
        // in [B, 2B): the position in the block plus B. The index k·B + (v >> (k - 1)) - B
        // is then step·B + (v >> step), with step = k - 1 = ilog2(v) - scale.
        // Or-ing in B·unit gives step log2(unit) below 2B·unit (blocks k and k + 1 of unit-
        // wide buckets), never a smaller step, and a nonzero operand: ilog2 is one
        // instruction, no zero check.
        let step = (v | self.fine).ilog2() - scale;
        ((step as usize) << scale) + (v >> step) as usize
    }

    /// [`Layout::index`] for the record paths: the same index, computed with `log2`'s
    /// instruction so that the CPU waits on nothing but `v` (not `const`; histograms keep
    /// the choice for their CPU in their [`crate::Shape`], see [`Log2::for_this_cpu`]).
    ///
    /// Without `lzcnt`, `ilog2` is one `bsr`, which leaves its destination unchanged when
    /// the source is zero, so the CPU reads the destination as an input. The compiler picks
    /// any free register for it, often one the previous record's add wrote last, and
    /// then every record waits for the one before (measured: an approximate-mode record
    /// through the C ABI took 7.6 ns instead of 4.8). Here the destination is the
    /// source, whose only input is `v`.
    #[inline(always)]
    pub fn fast_index(&self, v: u64, log2: Log2) -> usize {
        let scale = self.block_scale;
        let step = log2.floor_log2_less(v | self.fine, scale);
        ((step as usize) << scale) + (v >> step) as usize
    }

    /// What [`Layout::fast_offset`] takes for storage whose offset 0 is the bucket of
    /// logical index `first`: `first` folded into the index's own constant terms, made
    /// once per shape.
    pub const fn offset_terms(&self, first: usize) -> OffsetTerms {
        let scale = self.block_scale;
        // The index less first is t·B − (scale·B + first) + (v >> step) for ⌊log2⌋ = t;
        // with lz = 63 − t, the constant part is 63·B less that bias.
        let bias = ((scale as usize) << scale).wrapping_add(first);
        OffsetTerms {
            minus_block: (1usize << scale).wrapping_neg(),
            first,
            top: (63usize << scale).wrapping_sub(bias),
        }
    }

    /// [`Layout::fast_index`] less `first`, wrapping, where `terms` is
    /// [`Layout::offset_terms`]`(first)`: the storage offset of `v`. The index is
    /// `step·B + (v >> step)` with `step = ⌊log2(v | B·unit)⌋ − scale`; with `bsr`, which
    /// gives `⌊log2⌋` itself, the offset is that less `first` (two shifts by `step` and
    /// `scale`, as iop's `histogram` computes its index, measured the fastest there). With
    /// the `lz = 63 − ⌊log2⌋` that `lzcnt` counts, it is `(v >> step) − lz·B + top`: one
    /// add of a constant, `lz·B` a multiply by `B` held in the shape, which leaves the
    /// shift register to `v >> step` alone (a shift by a variable count goes through `cl`
    /// without BMI2).
    #[inline(always)]
    pub fn fast_offset(&self, v: u64, log2: Log2, terms: OffsetTerms) -> usize {
        let scale = self.block_scale;
        let x = v | self.fine;
        match log2.leading_zeros(x) {
            Some(lz) => {
                let step = (63 - scale) as u64 - lz;
                ((v >> step) as usize)
                    .wrapping_add((lz as usize).wrapping_mul(terms.minus_block))
                    .wrapping_add(terms.top)
            }
            None => {
                let step = log2.floor_log2_less(x, scale);
                ((step as usize) << scale)
                    .wrapping_add((v >> step) as usize)
                    .wrapping_sub(terms.first)
            }
        }
    }

    /// The bucket with logical index `index`; `None` past the last one or below the first.
    pub const fn bucket(&self, index: usize) -> Option<Bucket> {
        if index >= self.logical_len() || index < self.first_index() {
            None
        } else {
            Some(self.bucket_of_index(index))
        }
    }

    /// The bucket with logical index `index`, which must be in
    /// [`Layout::first_index`]`..`[`Layout::logical_len`] (other indices give a meaningless
    /// bucket, never undefined behaviour).
    pub const fn bucket_of_index(&self, index: usize) -> Bucket {
        let scale = self.block_scale;
        let block = (index >> scale) as u32;
        let within = (index as u64) & (self.block_size() - 1);
        // The first block used (block log2(unit)) starts at 0; every later one at B·2^(k-1),
        // unit-wide buckets in block log2(unit) + 1 included.
        let unit_scale = self.unit_scale();
        let (lower, width_log2) = if block <= unit_scale {
            (within.wrapping_shl(unit_scale), unit_scale)
        } else {
            (
                (self.block_size() + within).wrapping_shl(block - 1),
                block - 1,
            )
        };
        // lower + width - 1 never overflows: the last bucket ends exactly at u64::MAX.
        let highest = lower.wrapping_add((1u64 << (width_log2 & 63)) - 1);
        Bucket { lower, highest }
    }

    /// The bucket that holds `v`.
    pub const fn bucket_of(&self, v: u64) -> Bucket {
        self.bucket_of_index(self.index(v))
    }

    /// Number of counters needed to cover `min..=max` (buckets of `min` through `max`).
    /// Returns 0 when `min > max`.
    pub const fn storage_len(&self, min: u64, max: u64) -> usize {
        if min > max {
            0
        } else {
            self.index(max) - self.index(min) + 1
        }
    }
}

/// A shape's constants for [`Layout::fast_offset`] ([`Layout::offset_terms`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OffsetTerms {
    /// `−B` (wrapping), multiplied by the count of leading zeros, so that both terms of
    /// the `lzcnt` form are added.
    minus_block: usize,
    /// The logical index of storage offset 0.
    first: usize,
    /// `63·B − scale·B − first`.
    top: usize,
}

/// How the record paths take `⌊log2 x⌋` of a nonzero `x` ([`Layout::fast_index`]): with
/// `bsr` (any x86-64) or `lzcnt` (most since 2013). The `bsr` of AMD's cores before Zen 4
/// costs several cycles of throughput where `lzcnt` costs one: the plain
/// [`crate::Histogram`]'s record, a tight loop inlined into the caller, went from
/// 2.25–2.35 to 1.56–1.6 ns on an EPYC of Zen 3; on Zen 4 (and Intel's cores) the two
/// cost the same, and `bsr`'s `⌊log2⌋` needs no subtraction from 63 (that record loop:
/// 1.00 ns a value with `bsr`, 1.10–1.12 with `lzcnt`). So its constructors ask the CPU
/// once ([`Log2::for_this_cpu`]). The concurrent modes' own
/// records keep `bsr` ([`Log2::ANY_CPU`], a constant: testing a choice on each record cost
/// them 0.3–0.6 ns); the run-time histogram behind the C ABI instead picks, once, record
/// functions built for `lzcnt` and BMI2 where the CPU has them, in which the choice is a
/// constant too. Built with `lzcnt` enabled, or for another target, `ilog2` serves whatever
/// the choice. Either instruction writes its own source register, so that it waits on
/// nothing but `x`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Log2 {
    lzcnt: bool,
}

impl Log2 {
    /// `bsr`: right on every x86-64 CPU.
    pub const ANY_CPU: Log2 = Log2 { lzcnt: false };

    /// `lzcnt` where this CPU has it and its `bsr` is slow (AMD before Zen 4; CPUID, asked
    /// once and remembered), else `bsr`.
    pub fn for_this_cpu() -> Log2 {
        Log2 {
            lzcnt: cpu::has_lzcnt() && cpu::bsr_is_slow(),
        }
    }

    /// Whether this choice takes `lzcnt`.
    pub const fn uses_lzcnt(self) -> bool {
        self.lzcnt
    }

    /// `lzcnt` when `lzcnt` is true, as a constant: for code that runs only where the CPU
    /// has it (the concurrent histograms' record functions built for `lzcnt` and BMI2,
    /// chosen after [`Log2::cpu_has_lzcnt_and_bmi2`]). On a CPU without it, `lzcnt` runs as
    /// `bsr` and the bucket would be wrong (never out of bounds: every index is checked).
    #[cfg(all(picollo_concurrent, feature = "alloc"))]
    pub(crate) const fn with_lzcnt(lzcnt: bool) -> Log2 {
        Log2 { lzcnt }
    }

    /// Whether this CPU has `lzcnt` and BMI2 (x86-64, CPUID asked once): where the
    /// concurrent histograms record through functions built for them. False where the
    /// library is built with `lzcnt` (`ilog2` is then one `lzcnt` anyway) and elsewhere.
    #[cfg(all(picollo_concurrent, feature = "alloc"))]
    pub(crate) fn cpu_has_lzcnt_and_bmi2() -> bool {
        cpu::has_lzcnt() && cpu::has_bmi2()
    }

    /// `⌊log2 x⌋` of a nonzero `x` (`x.ilog2()`).
    #[inline(always)]
    pub fn floor_log2(self, x: u64) -> u32 {
        self.floor_log2_less(x, 0)
    }

    /// `63 − ⌊log2 x⌋` of a nonzero `x` as `lzcnt` counts it, when this choice takes
    /// `lzcnt` (then [`Layout::fast_offset`] works with the count as it comes); `None`
    /// otherwise, and wherever `ilog2` serves every choice (see [`Log2::floor_log2_less`]).
    #[inline(always)]
    fn leading_zeros(self, x: u64) -> Option<u64> {
        debug_assert!(x != 0);
        #[cfg(all(target_arch = "x86_64", not(target_feature = "lzcnt"), not(miri)))]
        if self.lzcnt {
            let mut r = x;
            // SAFETY: as in `floor_log2_less`: `lzcnt` is set only where CPUID says the CPU
            // has the instruction; it reads and writes one register and the flags, nothing
            // else; destination = source.
            unsafe {
                core::arch::asm!("lzcnt {0}, {0}", inout(reg) r, options(pure, nomem, nostack));
            }
            return Some(r);
        }
        None
    }

    /// `⌊log2 x⌋ − k` of a nonzero `x` with `⌊log2 x⌋ ≥ k` (the index's step: each
    /// instruction's result turned into it with one subtraction).
    #[inline(always)]
    fn floor_log2_less(self, x: u64, k: u32) -> u32 {
        debug_assert!(x != 0);
        #[cfg(all(target_arch = "x86_64", not(target_feature = "lzcnt"), not(miri)))]
        {
            let mut r = x;
            if self.lzcnt {
                // SAFETY: `lzcnt` is set only where CPUID says the CPU has the instruction
                // (`for_this_cpu`); it reads and writes one register and the flags, nothing
                // else; `x` is nonzero, so the count is at most 63. Destination = source: no
                // wait on the register's last writer (some Intel cores read `lzcnt`'s
                // destination too).
                unsafe {
                    core::arch::asm!("lzcnt {0}, {0}", inout(reg) r, options(pure, nomem, nostack));
                }
                // `63 − r` as one `xor` (r ≤ 63), no constant to load first.
                (r as u32 ^ 63) - k
            } else {
                // SAFETY: `bsr` reads and writes one register and the flags, nothing else;
                // `x` is nonzero, so the register ends up holding the index of its highest
                // set bit (for a zero source `bsr` leaves it unchanged: that is why the CPU
                // reads it, and why it is the source here).
                unsafe {
                    core::arch::asm!("bsr {0}, {0}", inout(reg) r, options(pure, nomem, nostack));
                }
                r as u32 - k
            }
        }
        #[cfg(not(all(target_arch = "x86_64", not(target_feature = "lzcnt"), not(miri))))]
        {
            x.ilog2() - k
        }
    }
}

impl Default for Layout {
    fn default() -> Self {
        Layout::clamped(DEFAULT_RELATIVE_ERROR)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute-force model: walk the buckets in order and check they tile the value space.
    fn every_scale() -> impl Iterator<Item = Layout> {
        (3..=19).map(|s| Layout::from_block_scale(s).unwrap())
    }

    #[test]
    fn relative_error_maps_to_block_size_as_design_says() {
        assert_eq!(Layout::clamped(0.001).block_size(), 512);
        assert_eq!(Layout::clamped(0.01).block_size(), 64);
        assert_eq!(Layout::clamped(0.0005).block_size(), 1024);
        assert_eq!(Layout::clamped(1e-9).block_size(), 524_288);
        assert_eq!(Layout::clamped(0.5).block_size(), 8);
        assert_eq!(Layout::clamped(f64::INFINITY).block_size(), 8);
        assert_eq!(Layout::clamped(0.0).block_size(), 512);
        assert_eq!(Layout::clamped(-1.0).block_size(), 512);
        assert_eq!(Layout::clamped(f64::NAN).block_size(), 512);
        assert_eq!(Layout::clamped(0.01).block_count(), 59);
        // e = 0.01 reports 0.7813 %.
        assert!((Layout::clamped(0.01).relative_error() - 0.0078125).abs() < 1e-15);
    }

    #[test]
    fn guaranteed_error_never_exceeds_the_requested_one() {
        // 0.5 / 0.00775 = 64.5: flooring would give B = 64, i.e. 0.78125 % > 0.775 %.
        assert_eq!(Layout::clamped(0.00775).block_size(), 128);
        for e in [
            1e-6, 3.3e-6, 0.0001, 0.00775, 0.0078125, 0.01, 0.03, 0.0999, 0.1,
        ] {
            assert!(Layout::clamped(e).relative_error() <= e, "e={e}");
        }
    }

    #[test]
    fn buckets_tile_the_value_space_without_gaps() {
        for layout in every_scale() {
            let mut expected_lower = 0u64;
            for i in 0..layout.logical_len() {
                let b = layout.bucket(i).unwrap();
                assert_eq!(
                    b.lower, expected_lower,
                    "scale {} index {i}",
                    layout.block_scale
                );
                assert!(b.width().is_power_of_two());
                expected_lower = b.highest.wrapping_add(1);
            }
            // The last bucket ends exactly at u64::MAX.
            assert_eq!(expected_lower, 0);
            assert_eq!(layout.bucket(layout.logical_len()), None);
            assert_eq!(layout.index(u64::MAX), layout.logical_len() - 1);
        }
    }

    #[test]
    fn every_value_lies_in_its_bucket() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for layout in every_scale() {
            let b = layout.block_size();
            let mut probes = [0u64; 64 * 5 + 2000];
            let mut n = 0;
            for bit in 0..64 {
                let p = 1u64 << bit;
                for v in [
                    p - 1,
                    p,
                    p + 1,
                    p.wrapping_mul(3) / 2,
                    p.wrapping_add(p - 1),
                ] {
                    probes[n] = v;
                    n += 1;
                }
            }
            for slot in probes.iter_mut().skip(n) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                *slot = seed >> (seed % 64);
            }
            probes[0] = u64::MAX;
            for &v in probes.iter() {
                let i = layout.index(v);
                let bucket = layout.bucket(i).unwrap();
                assert!(bucket.contains(v), "v={v} bucket={bucket:?}");
                if v < 2 * b {
                    assert_eq!(bucket.width(), 1, "values below 2B are exact");
                    assert_eq!(bucket.midpoint(), v);
                } else {
                    let err = (bucket.midpoint() as f64 - v as f64).abs() / v as f64;
                    assert!(err <= layout.relative_error(), "v={v} err={err}");
                }
            }
        }
    }

    /// Layouts with a unit: every block scale with units 2^1, 2^9, 2^20 and the widest.
    fn with_units() -> impl Iterator<Item = Layout> {
        every_scale()
            .flat_map(|l| [1, 9, 20, 63 - l.block_scale].map(|k| l.with_unit_scale(k).unwrap()))
    }

    #[test]
    fn unit_zero_is_the_plain_layout_and_too_wide_units_are_refused() {
        for layout in every_scale() {
            assert_eq!(layout.with_unit_scale(0), Some(layout));
            assert_eq!((layout.unit(), layout.first_index()), (1, 0));
            let widest = 63 - layout.block_scale;
            assert!(layout.with_unit_scale(widest).is_some());
            assert_eq!(layout.with_unit_scale(widest + 1), None);
        }
    }

    #[test]
    fn unit_layouts_tile_from_zero_with_unit_wide_first_buckets() {
        for layout in with_units() {
            let plain = Layout::from_block_scale(layout.block_scale).unwrap();
            let first = layout.first_index();
            assert_eq!(layout.bucket(first - 1), None);
            assert_eq!(layout.index(0), first);
            let mut expected_lower = 0u64;
            for i in first..layout.logical_len() {
                let b = layout.bucket(i).unwrap();
                assert_eq!(b.lower, expected_lower, "{layout:?} index {i}");
                if i < first + 2 * layout.block_size() as usize {
                    assert_eq!(b.width(), layout.unit(), "{layout:?} index {i}");
                } else {
                    // Above the unit-wide buckets, those of unit 1 at the same index.
                    assert_eq!(Some(b), plain.bucket(i), "{layout:?} index {i}");
                }
                expected_lower = b.highest.wrapping_add(1);
            }
            assert_eq!(expected_lower, 0, "the last bucket ends at u64::MAX");
        }
    }

    #[test]
    fn a_units_index_is_the_unit_one_index_of_the_shifted_value() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for layout in with_units() {
            let plain = Layout::from_block_scale(layout.block_scale).unwrap();
            let k = layout.unit_scale();
            let edges = (0..64).flat_map(|bit| [1u64 << bit, (1u64 << bit) - 1]);
            let random = (0..2_000).map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed >> (seed % 64)
            });
            for v in edges.chain(random).chain([u64::MAX]) {
                let i = layout.index(v);
                assert_eq!(
                    i,
                    layout.first_index() + plain.index(v >> k),
                    "{layout:?} {v}"
                );
                for log2 in every_log2() {
                    assert_eq!(layout.fast_index(v, log2), i, "{layout:?} {v}");
                    assert_offsets_are_the_index_less_first(layout, v, log2);
                }
                assert!(layout.bucket_of_index(i).contains(v), "{layout:?} {v}");
            }
        }
    }

    /// `bsr`, this CPU's choice, and `lzcnt` where this CPU has it (whichever it chose).
    fn every_log2() -> [Log2; 3] {
        let lzcnt = Log2 {
            lzcnt: cpu::has_lzcnt(),
        };
        [Log2::ANY_CPU, Log2::for_this_cpu(), lzcnt]
    }

    /// `fast_offset` of `v` is `index(v) − first` (wrapping) for storage starting at the
    /// layout's first index, at `v`'s own bucket, just above it, far above and past it.
    fn assert_offsets_are_the_index_less_first(layout: Layout, v: u64, log2: Log2) {
        let i = layout.index(v);
        let last = layout.logical_len() - 1;
        for first in [
            layout.first_index(),
            i,
            i + 1,
            i / 2,
            last,
            i.saturating_sub(7),
        ] {
            let terms = layout.offset_terms(first);
            assert_eq!(
                layout.fast_offset(v, log2, terms),
                i.wrapping_sub(first),
                "{layout:?} v={v} first={first} {log2:?}"
            );
        }
    }

    #[test]
    fn floor_log2_is_ilog2_at_every_width_with_either_instruction() {
        for log2 in every_log2() {
            for bit in 0..64 {
                let p = 1u64 << bit;
                for x in [p, p | 1, p | (p >> 1), p | (p - 1), u64::MAX >> (63 - bit)] {
                    assert_eq!(log2.floor_log2(x), x.ilog2(), "{log2:?} x={x:#x}");
                }
            }
        }
        assert!(!Log2::ANY_CPU.uses_lzcnt());
    }

    #[test]
    fn index_matches_the_reference_formula() {
        // The .NET original's HdrBuckets.GetLogicalIndexForValue, kept as the reference model.
        fn reference_index(scale: u32, v: u64) -> usize {
            let block = 64 - (v >> scale).leading_zeros();
            let step = block - (block != 0) as u32;
            let within = (v >> step) & ((1 << scale) - 1);
            ((block as usize) << scale) + within as usize
        }
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for layout in every_scale() {
            let scale = layout.block_scale;
            let edges = (0..64).flat_map(|bit| {
                let p = 1u64 << bit;
                [
                    p - 1,
                    p,
                    p + 1,
                    p | (p - 1),
                    u64::MAX >> bit,
                    (u64::MAX >> bit) - 1,
                ]
            });
            let small = 0..4 * layout.block_size();
            let random = (0..20_000).map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed >> (seed % 64)
            });
            for v in edges.chain(small).chain(random) {
                assert_eq!(
                    layout.index(v),
                    reference_index(scale, v),
                    "scale {scale} v={v}"
                );
                for log2 in every_log2() {
                    assert_eq!(
                        layout.fast_index(v, log2),
                        layout.index(v),
                        "scale {scale} v={v}"
                    );
                    assert_offsets_are_the_index_less_first(layout, v, log2);
                }
            }
        }
    }

    #[test]
    fn index_is_monotone_and_steps_by_at_most_one() {
        for layout in every_scale() {
            let mut prev = layout.index(0);
            assert_eq!(prev, 0);
            for v in 1..(8 * layout.block_size()).min(1 << 20) {
                let i = layout.index(v);
                assert!(i == prev || i == prev + 1, "v={v}");
                prev = i;
            }
            // Around block edges far up the range.
            for bit in layout.block_scale..64 {
                let edge = 1u64 << bit;
                assert_eq!(layout.index(edge), layout.index(edge - 1) + 1);
                assert_eq!(layout.bucket(layout.index(edge)).unwrap().lower, edge);
            }
        }
    }

    #[test]
    fn published_figures_for_relative_error_one_percent() {
        let layout = Layout::clamped(0.01);
        let first = layout.index(10_000);
        let i = layout.index(24_900);
        assert_eq!(i, 609);
        assert_eq!(i - first, 83);
        let b = layout.bucket(i).unwrap();
        assert_eq!((b.lower, b.upper(), b.midpoint()), (24_832, 25_088, 24_960));
    }

    #[test]
    fn storage_len_matches_design_footprints() {
        assert_eq!(Layout::clamped(0.001).storage_len(0, u64::MAX), 28_672);
        assert_eq!(
            Layout::clamped(0.0005).storage_len(0, i64::MAX as u64),
            55_296
        );
        assert_eq!(Layout::clamped(0.0005).storage_len(0, 30_000), 5_972);
        assert_eq!(Layout::clamped(0.01).storage_len(5, 4), 0);
        assert_eq!(Layout::clamped(0.01).storage_len(7, 7), 1);
    }
}
