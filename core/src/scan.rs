//! One pass over a histogram's counts that summaries start from: per block of the layout,
//! the count and (optionally) the exact first two moments of its buckets' midpoints.
//!
//! hg64 keeps a total per bin so that a rank query skips whole bins; a [`Scan`] is that
//! idea done at query time (the record path stays one add): one pass sums every block,
//! percentile walks then jump over blocks by their totals and read buckets only inside the
//! blocks that hold a rank. The same pass gathers the moments, so a 16-rank summary reads
//! the storage once, plus the few blocks its ranks land in.
//!
//! # Moments without rounding inside a block
//! Within block `b` the midpoints step evenly: the bucket `d` places after the first stored
//! one has midpoint `(k0 + step·d)·2^shift` ([`MidpointRun`]). So the block's count
//! `n = Σc`, `P = Σc·d` and `Q = Σc·d²` are integers that fit a `u128`, and they come from
//! additions alone. The pass reads the block in chunks of [`LANES`] counts (lane `l` of
//! chunk `m` is the bucket `LANES·m + l` places above where the walk starts) and walks the
//! chunks downwards keeping three sums per lane, `A += c; B += A; C += B`: that leaves
//! `A = Σc`, `B = Σc·(m+1)` and `C = Σc·(m+1)(m+2)/2` in each lane, whence `P` and `Q`
//! ([`Lanes::sums`]). The lanes are independent, so the compiler keeps them in vector
//! registers: a chunk costs three vector adds (and an OR), with no multiply.
//!
//! The block's mean is `(k0 + step·P/n)·2^shift` and its sum of squared deviations
//! `step²·(n·Q − P²)/n·4^shift`, with `n·Q − P²` computed exactly in 256 bits: a block
//! whose counts sit in one bucket has a spread of exactly zero. Blocks are then combined
//! pairwise (Chan, Golub and LeVeque), which stays accurate when the spread is tiny next
//! to the mean.

use crate::counter::{Counter, Counts};
use crate::shape::Shape;

/// Blocks a layout can have: `1 + 64 − block_scale` with the smallest scale, 3.
const MAX_BLOCKS: usize = 62;

/// One block's part of the storage and what the pass found there.
#[derive(Clone, Copy, Default)]
pub(crate) struct Block {
    /// Storage offsets `first..end` of the block's stored buckets.
    pub(crate) first: usize,
    pub(crate) end: usize,
    /// `Σc` over the block.
    pub(crate) count: u128,
    /// `Σc·d` and `Σc·d²`, `d` counted from `first` (only with moments).
    p: u128,
    q: u128,
}

/// Per-block totals (and moments) of a histogram's counts, from one pass.
pub(crate) struct Scan {
    blocks: [Block; MAX_BLOCKS],
    len: usize,
    /// `Σc` over every block.
    pub(crate) total: u128,
}

impl Scan {
    /// Sum every block of `counts`; with `MOMENTS`, also gather the sums the moments need.
    pub(crate) fn new<C: Counter, S: Counts<C> + ?Sized, const MOMENTS: bool>(
        shape: &Shape,
        counts: &S,
    ) -> Scan {
        let mut scan = Scan {
            blocks: [Block::default(); MAX_BLOCKS],
            len: 0,
            total: 0,
        };
        let scale = shape.layout().block_scale();
        let first_index = shape.first_index();
        let len = counts.len();
        // The moments read only from the first counted bucket to the last one.
        let occupied = match MOMENTS.then(|| counts.first_nonzero()).flatten() {
            Some(lo) => (lo, counts.last_nonzero().map_or(lo, |hi| hi + 1)),
            None => (0, 0),
        };
        let mut first = 0;
        while first < len && scan.len < MAX_BLOCKS {
            // The block of storage offset `first` ends where the next block begins.
            let block_end = (((first_index + first) >> scale) + 1) << scale;
            let end = (block_end - first_index).min(len);
            let mut block = Block {
                first,
                end,
                ..Block::default()
            };
            if MOMENTS {
                sum_block_moments(counts, &mut block, occupied);
            } else {
                block.count = counts.sum(first, end);
            }
            scan.total += block.count;
            scan.blocks[scan.len] = block;
            scan.len += 1;
            first = end;
        }
        scan
    }

    /// The blocks, in storage order (at least one: a shape is never empty).
    pub(crate) fn blocks(&self) -> &[Block] {
        &self.blocks[..self.len]
    }

    /// `(mean, population stdev)` of the midpoints, from a scan made with moments; NaN
    /// for both when the counts are all zero.
    pub(crate) fn moments(&self, shape: &Shape) -> (f64, f64) {
        let layout = shape.layout();
        let mut all = Moments::default();
        for block in self.blocks() {
            if block.count == 0 {
                continue;
            }
            let index = shape.first_index() + block.first;
            let run = MidpointRun::new(
                (index >> layout.block_scale()) as u32,
                layout.block_size(),
                (index as u64) & (layout.block_size() - 1),
                layout.unit_scale(),
            );
            all.combine(block_moments(block, run));
        }
        if all.n == 0.0 {
            return (f64::NAN, f64::NAN);
        }
        (all.mean, crate::fmath::sqrt(all.m2 / all.n))
    }
}

/// Counts read together by the moments' walk: four `u64` lanes, one AVX2 register (two
/// SSE2 ones) per sum; eight would leave SSE2 too few registers for the four sums.
const LANES: usize = 4;

/// Fill `block.count`, `block.p` and `block.q`, reading only `occupied` (the buckets from
/// the first to the last counted one; the zeros outside it add nothing).
///
/// The walk covers whole chunks ending at `end`, the lowest padded with zeros below the
/// first counted bucket, so its `d` is counted from `base = end − LANES·chunks`; the sums
/// are then moved to `d` counted from `first` (`base` may lie below `first`: the shift is
/// taken modulo 2^128, where the true sums, which fit, come out exact).
///
/// The sums are taken in `u64` lanes first: while no count of the block passes `2^32` and
/// `n · M(M+1)/2 ≤ u64::MAX` (`M` chunks), no lane's sum can pass `u64::MAX` (each only
/// grows up to `C ≤ A · M(M+1)/2`), so they are exact; otherwise the block is walked again
/// in `u128` lanes. Both give the same integers.
#[inline]
fn sum_block_moments<C: Counter, S: Counts<C> + ?Sized>(
    counts: &S,
    block: &mut Block,
    occupied: (usize, usize),
) {
    let (lo, end) = (block.first.max(occupied.0), block.end.min(occupied.1));
    if lo >= end {
        return; // nothing counted here: every sum is 0
    }
    let chunks = (end - lo).div_ceil(LANES);
    let narrow = walk::<u64, C, S>(counts, lo, end, chunks);
    let (n, p, q) = narrow.sums();
    let (n, p, q) = if narrow.exact(n, chunks) {
        (n, p, q)
    } else {
        walk::<u128, C, S>(counts, lo, end, chunks).sums()
    };
    // d from `first` = d from `base` + t, t = base − first (negative when base is below).
    let t = ((end - block.first) as u128).wrapping_sub((LANES * chunks) as u128);
    block.count = n;
    block.p = p.wrapping_add(t.wrapping_mul(n));
    block.q = q
        .wrapping_add(t.wrapping_mul(2).wrapping_mul(p))
        .wrapping_add(t.wrapping_mul(t).wrapping_mul(n));
}

/// The lane sums of the buckets `lo..end` in `chunks` chunks ending at `end`, walked
/// downwards (wrapping in `T`), the lowest chunk padded with zeros below `lo`.
#[inline(always)]
fn walk<T: Sum, C: Counter, S: Counts<C> + ?Sized>(
    counts: &S,
    lo: usize,
    end: usize,
    chunks: usize,
) -> Lanes<T> {
    let mut lanes = Lanes::<T>::default();
    let whole = end - LANES * (chunks - 1);
    walk_whole(counts, whole, end, &mut lanes);
    // The lowest chunk: its first `pad` lanes lie below `lo`.
    let pad = LANES - (whole - lo);
    lanes.add(core::array::from_fn(|l| {
        if l < pad {
            0
        } else {
            counts.get(lo + l - pad).to_u64()
        }
    }));
    lanes
}

/// Add the whole chunks of `first..end` to `lanes`, downwards: with AVX2 where the CPU has
/// it (one register per sum), else with the target's own vectors (SSE2 on x86-64: two).
///
/// Kept out of line with the sums behind a reference: so the compiler holds each lane
/// array in vector registers across the loop (inlined into a caller whose sums start at
/// zero, it keeps them as scalars instead).
#[inline(never)]
fn walk_whole<T: Sum, C: Counter, S: Counts<C> + ?Sized>(
    counts: &S,
    first: usize,
    end: usize,
    lanes: &mut Lanes<T>,
) {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::has_avx2() {
        // SAFETY: the CPU has AVX2 (CPUID, with the OS saving its registers).
        return unsafe { walk_whole_avx2(counts, first, end, lanes) };
    }
    counts.chunks_down(first, end, |chunk| lanes.add(chunk));
}

/// [`walk_whole`]'s loop, compiled for AVX2.
///
/// # Safety
/// The CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn walk_whole_avx2<T: Sum, C: Counter, S: Counts<C> + ?Sized>(
    counts: &S,
    first: usize,
    end: usize,
    lanes: &mut Lanes<T>,
) {
    counts.chunks_down(first, end, |chunk| lanes.add(chunk));
}

/// Per lane `l`, the sums `A`, `B`, `C` of a downward walk over chunks (see the module
/// docs), and the OR of every count read.
#[derive(Default)]
struct Lanes<T> {
    a: [T; LANES],
    b: [T; LANES],
    c: [T; LANES],
    or: [u64; LANES],
}

impl<T: Sum> Lanes<T> {
    /// Take in the next chunk down.
    #[inline(always)]
    fn add(&mut self, chunk: [u64; LANES]) {
        for (l, count) in chunk.into_iter().enumerate() {
            self.a[l] = self.a[l].add(T::of(count));
            self.b[l] = self.b[l].add(self.a[l]);
            self.c[l] = self.c[l].add(self.b[l]);
            self.or[l] |= count;
        }
    }

    /// Whether `u64` lanes that walked `chunks` chunks, `n` their `Σc`, hold exact sums (see
    /// [`sum_block_moments`]).
    fn exact(&self, n: u128, chunks: usize) -> bool {
        let m = chunks as u128;
        let bound = n.checked_mul(m * (m + 1) / 2);
        self.or.iter().fold(0, |o, &x| o | x) >> 32 == 0
            && bound.is_some_and(|b| b <= u64::MAX as u128)
    }

    /// `(Σc, Σc·d, Σc·d²)` with `d = LANES·m + l`, modulo 2^128 (exact where the lanes are).
    fn sums(&self) -> (u128, u128, u128) {
        let (mut n, mut p, mut q) = (0u128, 0u128, 0u128);
        for l in 0..LANES {
            let (a, b, c) = (self.a[l].wide(), self.b[l].wide(), self.c[l].wide());
            // Σc·m = B − A; Σc·m² = 2C − 3B + A, from Σc·(m+1)(m+2) = Σc·(m² + 3m + 2).
            let pm = b.wrapping_sub(a);
            let qm = c
                .wrapping_mul(2)
                .wrapping_add(a)
                .wrapping_sub(b.wrapping_mul(3));
            let (w, l) = (LANES as u128, l as u128);
            n = n.wrapping_add(a);
            p = p.wrapping_add(w.wrapping_mul(pm)).wrapping_add(l * a);
            // (w·m + l)² = w²·m² + 2wl·m + l².
            q = q
                .wrapping_add((w * w).wrapping_mul(qm))
                .wrapping_add((2 * w * l).wrapping_mul(pm))
                .wrapping_add((l * l).wrapping_mul(a));
        }
        (n, p, q)
    }
}

/// The integer a block's lane sums are taken in ([`walk`]): `u64` where they cannot pass
/// it, `u128` everywhere.
trait Sum: Copy + Default {
    fn of(count: u64) -> Self;
    /// `self + other`, wrapping (checked after the walk, see [`sum_block_moments`]).
    fn add(self, other: Self) -> Self;
    fn wide(self) -> u128;
}

impl Sum for u64 {
    #[inline(always)]
    fn of(count: u64) -> u64 {
        count
    }
    #[inline(always)]
    fn add(self, other: u64) -> u64 {
        self.wrapping_add(other)
    }
    #[inline(always)]
    fn wide(self) -> u128 {
        self as u128
    }
}

impl Sum for u128 {
    #[inline(always)]
    fn of(count: u64) -> u128 {
        count as u128
    }
    #[inline(always)]
    fn add(self, other: u128) -> u128 {
        self.wrapping_add(other)
    }
    #[inline(always)]
    fn wide(self) -> u128 {
        self
    }
}

/// Count, mean and sum of squared deviations of a set of values.
#[derive(Default)]
struct Moments {
    n: f64,
    mean: f64,
    m2: f64,
}

impl Moments {
    /// Merge `other` into `self` (Chan, Golub and LeVeque's pairwise update).
    fn combine(&mut self, other: Moments) {
        if self.n == 0.0 {
            *self = other;
            return;
        }
        let n = self.n + other.n;
        let delta = other.mean - self.mean;
        self.mean += delta * (other.n / n);
        self.m2 += other.m2 + delta * delta * (self.n * other.n / n);
        self.n = n;
    }
}

/// The moments of one block with a nonzero count, exact up to the final roundings.
fn block_moments(block: &Block, run: MidpointRun) -> Moments {
    let (n, p, q) = (block.count, block.p, block.q);
    // Mean in units of 2^shift: k0 + step·(P / n), the division split so a whole quotient
    // (all counts in one bucket, say) stays exact.
    let (whole, rest) = (p / n, p % n);
    let mean_units = run.k as f64 + run.step as f64 * (whole as f64 + rest as f64 / n as f64);
    let (hi, lo) = mul_wide(n, q);
    let (phi, plo) = mul_wide(p, p);
    // n·Q ≥ P² (Cauchy–Schwarz), so the difference is never negative.
    let (dlo, borrow) = lo.overflowing_sub(plo);
    let dhi = hi - phi - borrow as u128;
    let spread_units = (dhi as f64 * TWO_POW_128 + dlo as f64) / n as f64;
    let scale = run.scale();
    let step = run.step as f64;
    Moments {
        n: n as f64,
        mean: mean_units * scale,
        m2: spread_units * step * step * scale * scale,
    }
}

const TWO_POW_128: f64 = 340_282_366_920_938_463_463_374_607_431_768_211_456.0;

/// The 256-bit product of two `u128`, as (high, low) halves.
fn mul_wide(a: u128, b: u128) -> (u128, u128) {
    const LOW: u128 = u64::MAX as u128;
    let (a1, a0) = (a >> 64, a & LOW);
    let (b1, b0) = (b >> 64, b & LOW);
    let low = a0 * b0;
    let mid1 = a1 * b0;
    let mid2 = a0 * b1;
    let high = a1 * b1;
    // Sum the middle terms' halves into the low and high words, carrying as needed.
    let (mid, mid_carry) = mid1.overflowing_add(mid2);
    let (lo, lo_carry) = low.overflowing_add(mid << 64);
    let hi = high + (mid >> 64) + ((mid_carry as u128) << 64) + lo_carry as u128;
    (hi, lo)
}

/// How the midpoints of consecutive buckets of one block go: the first is `k << shift`, and
/// each next one adds `step << shift`. Block 0 holds single values (`m = j`); block 1 buckets
/// of width 1 (`m = B + j`); block `b ≥ 2` buckets of width `2^(b−1)` whose midpoint
/// `(B + j)·2^(b−1) + 2^(b−2)` is `(2(B + j) + 1) << (b − 2)`.
#[derive(Clone, Copy)]
struct MidpointRun {
    k: u64,
    step: u64,
    shift: u32,
}

impl MidpointRun {
    /// The run of block `block` from its bucket `within`, in a layout of unit
    /// `2^unit_scale`.
    fn new(block: u32, block_size: u64, within: u64, unit_scale: u32) -> Self {
        if unit_scale > 0 && block == unit_scale {
            // The first block of unit-wide buckets: lower = within · unit, midpoint
            // (2 · within + 1) · unit / 2. The next block is a generic one.
            return MidpointRun {
                k: 2 * within + 1,
                step: 2,
                shift: unit_scale - 1,
            };
        }
        match block {
            0 => MidpointRun {
                k: within,
                step: 1,
                shift: 0,
            },
            1 => MidpointRun {
                k: block_size + within,
                step: 1,
                shift: 0,
            },
            b => MidpointRun {
                k: 2 * (block_size + within) + 1,
                step: 2,
                shift: b - 2,
            },
        }
    }

    /// `2^shift` (exact: `shift ≤ 62`).
    fn scale(&self) -> f64 {
        (1u64 << self.shift) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;

    /// Each block's `(Σc, Σc·d, Σc·d²)`, every bucket taken in `u128`.
    fn reference<C: Counter>(counts: &[C], block: &Block) -> (u128, u128, u128) {
        let (mut n, mut p, mut q) = (0u128, 0u128, 0u128);
        for (d, i) in (block.first..block.end).enumerate() {
            let (c, d) = (counts[i].to_u64() as u128, d as u128);
            (n, p, q) = (n + c, p + c * d, q + c * d * d);
        }
        (n, p, q)
    }

    fn xorshift(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    /// Count arrays of every kind the pass meets: empty, one value, all in one bucket,
    /// sparse, dense, counts past 2^32 (the `u128` walk), and near the counter's maximum.
    fn cases(len: usize, max: u64, seed: &mut u64) -> [[u64; 4096]; 7] {
        let make = |kind: usize| {
            let mut v = [0u64; 4096];
            let one = (xorshift(seed) as usize) % len;
            match kind {
                0 => {}
                1 => v[one] = 1,
                2 => v[one] = max.min(1 << 40),
                3 => {
                    for _ in 0..1 + xorshift(seed) % 20 {
                        let i = (xorshift(seed) as usize) % len;
                        v[i] = xorshift(seed) % 1_000 + 1;
                    }
                }
                4 => {
                    for slot in &mut v[..len] {
                        *slot = xorshift(seed) % 100_000;
                    }
                }
                5 => {
                    for slot in &mut v[..len] {
                        let big = xorshift(seed) % 3 == 0;
                        *slot = if big {
                            max.min(1 << 40)
                        } else {
                            xorshift(seed) % 7
                        };
                    }
                }
                _ => {
                    for i in (0..len).step_by(1 + (xorshift(seed) % 5) as usize) {
                        v[i] = max - xorshift(seed) % 3;
                    }
                }
            }
            v
        };
        core::array::from_fn(make)
    }

    #[test]
    fn the_lane_walk_sums_every_block_as_a_plain_u128_sum() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let configs = [
            Config::new().with_relative_error(0.01).with_range(0, 3_000),
            Config::new()
                .with_relative_error(0.1)
                .with_range(1, u64::MAX),
            Config::new()
                .with_relative_error(0.002)
                .with_range(700, 90_000),
            Config::new()
                .with_relative_error(0.01)
                .with_lowest_discernible(1 << 10)
                .with_range(0, 1 << 30),
        ];
        for config in configs {
            let shape = config.validate().unwrap();
            let len = shape.len();
            assert!(len <= 4096, "{config:?}");
            for _ in 0..20 {
                for case in cases(len, u32::MAX as u64, &mut seed) {
                    let narrow: [u32; 4096] = core::array::from_fn(|i| case[i] as u32);
                    check(&shape, &narrow[..len]);
                }
                for case in cases(len, u64::MAX, &mut seed) {
                    check(&shape, &case[..len]);
                }
            }
        }
    }

    /// Counts read one at a time: the walk every storage but a slice takes.
    struct OneByOne<'a, C>(&'a [C]);

    impl<C> crate::counter::sealed::Sealed for OneByOne<'_, C> {}

    impl<C: Counter> Counts<C> for OneByOne<'_, C> {
        fn len(&self) -> usize {
            self.0.len()
        }
        fn get(&self, i: usize) -> C {
            self.0[i]
        }
    }

    fn check<C: Counter>(shape: &Shape, counts: &[C]) {
        let scan = Scan::new::<C, [C], true>(shape, counts);
        let plain = Scan::new::<C, [C], false>(shape, counts);
        let one_by_one = Scan::new::<C, _, true>(shape, &OneByOne(counts));
        assert_eq!(scan.total, plain.total);
        let blocks = scan.blocks().iter().zip(plain.blocks());
        for ((block, without), read) in blocks.zip(one_by_one.blocks()) {
            let sums = (block.count, block.p, block.q);
            assert_eq!(sums, reference(counts, block), "block {}", block.first);
            assert_eq!(sums, (read.count, read.p, read.q), "block {}", block.first);
            assert_eq!(block.count, without.count);
        }
    }

    #[test]
    fn the_wide_product_is_exact() {
        let cases = [
            (0u128, 0u128),
            (u128::MAX, u128::MAX),
            (u128::MAX, 1),
            (1 << 100, 1 << 100),
            (
                0x1234_5678_9abc_def0_1122_3344_5566_7788,
                0xffff_0000_ffff_0000_1234_5678_9abc_def0,
            ),
        ];
        for (a, b) in cases {
            let (hi, lo) = mul_wide(a, b);
            assert_eq!(lo, a.wrapping_mul(b), "{a:#x} {b:#x}");
            // The high half, by long multiplication in 32-bit digits.
            let digits = |x: u128| {
                [
                    x as u32,
                    (x >> 32) as u32,
                    (x >> 64) as u32,
                    (x >> 96) as u32,
                ]
            };
            let (da, db) = (digits(a), digits(b));
            let mut acc = [0u64; 9];
            for i in 0..4 {
                for j in 0..4 {
                    let p = da[i] as u64 * db[j] as u64;
                    acc[i + j] += p & 0xffff_ffff;
                    acc[i + j + 1] += p >> 32;
                }
            }
            let mut words = [0u32; 8];
            let mut carry = 0u64;
            for k in 0..8 {
                let v = acc[k] + carry;
                words[k] = v as u32;
                carry = v >> 32;
            }
            let expected_hi = words[4..]
                .iter()
                .rev()
                .fold(0u128, |h, &w| (h << 32) | w as u128);
            assert_eq!(hi, expected_hi, "{a:#x} {b:#x}");
        }
    }

    #[test]
    fn midpoint_runs_follow_the_layout() {
        let layout = crate::Layout::clamped(0.01);
        let size = layout.block_size();
        for index in 0..layout.logical_len() {
            let block = (index >> layout.block_scale()) as u32;
            let within = index as u64 & (size - 1);
            let run = MidpointRun::new(block, size, within, 0);
            let mid = layout.bucket_of_index(index).midpoint();
            assert_eq!((run.k as u128) << run.shift, mid as u128, "index {index}");
            if within + 1 < size {
                let next = layout.bucket_of_index(index + 1).midpoint();
                assert_eq!(((run.k + run.step) as u128) << run.shift, next as u128);
            }
        }
    }
}
