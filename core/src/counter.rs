//! Counter widths. A histogram stores one counter per bucket; `u32` halves the footprint,
//! `u64` never wraps in practice. This is the one axis of variation for counts, so it gets
//! one small trait.

/// A bucket counter: `u32` or `u64`.
///
/// A histogram's bucket never wraps: `record` compares with [`Counter::MAX`] before it adds,
/// and `record_n` saturates; what did not fit is counted as saturated (see
/// [`crate::Histogram::saturated_count`]). [`Counter::increment`] itself wraps: callers
/// check first.
pub trait Counter: Copy + Default + Eq + Ord + core::fmt::Debug + Send + Sync + 'static {
    /// Zero.
    const ZERO: Self;
    /// The largest count a bucket can hold.
    const MAX: Self;
    /// Width in bytes (4 or 8), for footprints and the C ABI.
    const BYTES: usize;
    /// Where counting one record at a time cannot fill a bucket in any process's life:
    /// a count left below this by any other write needs at least this many more records
    /// to reach [`Counter::MAX`] (`u64`: 2^63, 292 years at a record a nanosecond; 0 for
    /// `u32`, which one hot bucket fills in seconds). Below it a single record's add is
    /// not tested for a full bucket ([`crate::Histogram::record`]).
    const UNFILLED_BELOW: u64;

    /// `self + 1`, wrapping.
    fn increment(self) -> Self;
    /// `self + n`, saturating at [`Counter::MAX`]; also returns the part of `n` that did not fit.
    fn saturating_add_u64(self, n: u64) -> (Self, u64);
    /// `self - other`, wrapping: the exact difference when `other` is an earlier value of a
    /// counter that wrapped at most once since.
    fn wrapping_sub(self, other: Self) -> Self;
    /// `self - n` when it does not go below zero.
    fn checked_sub(self, other: Self) -> Option<Self>;
    /// The count as `u64`.
    fn to_u64(self) -> u64;
    /// The low bits of `v` as a count (exact when `v <= MAX`).
    fn from_u64_wrapping(v: u64) -> Self;
    /// The exact sum of `counts`, in a loop the compiler turns into vector adds.
    fn sum_slice(counts: &[Self]) -> u128;
    /// `n` zero counts, allocated without aborting on failure (for `u32` and `u64`, from the
    /// allocator's zeroed memory: nothing is written).
    #[cfg(feature = "alloc")]
    fn try_zeroes(n: usize) -> Result<alloc::vec::Vec<Self>, crate::OutOfMemory> {
        crate::oom::try_vec(n, || Self::ZERO)
    }
}

macro_rules! impl_counter {
    ($t:ty, $sum:path, $room:expr) => {
        impl Counter for $t {
            const ZERO: Self = 0;
            const MAX: Self = <$t>::MAX;
            const BYTES: usize = core::mem::size_of::<$t>();
            const UNFILLED_BELOW: u64 = $room;

            #[inline(always)]
            fn increment(self) -> Self {
                self.wrapping_add(1)
            }

            #[inline]
            fn saturating_add_u64(self, n: u64) -> (Self, u64) {
                let room = (<$t>::MAX - self) as u64;
                if n <= room {
                    (self + n as $t, 0)
                } else {
                    (<$t>::MAX, n - room)
                }
            }

            #[inline(always)]
            fn wrapping_sub(self, other: Self) -> Self {
                <$t>::wrapping_sub(self, other)
            }

            #[inline(always)]
            fn checked_sub(self, other: Self) -> Option<Self> {
                <$t>::checked_sub(self, other)
            }

            #[inline(always)]
            fn to_u64(self) -> u64 {
                self as u64
            }

            #[inline(always)]
            fn from_u64_wrapping(v: u64) -> Self {
                v as $t
            }

            #[inline]
            fn sum_slice(counts: &[Self]) -> u128 {
                $sum(counts)
            }

            #[cfg(feature = "alloc")]
            fn try_zeroes(n: usize) -> Result<alloc::vec::Vec<Self>, crate::OutOfMemory> {
                // SAFETY: zero bytes are the integer 0.
                unsafe { crate::oom::try_zeroed(n) }
            }
        }
    };
}

impl_counter!(u32, crate::sum::sum_u32, 0);
impl_counter!(u64, crate::sum::sum_u64, 1 << 63);

/// Where a view reads its counts: a slice of counters (a histogram's own storage or a
/// copy), or a concurrent histogram's live cells (`concurrent::Cells`, read in place).
pub trait Counts<C>: sealed::Sealed {
    /// Number of storage buckets.
    fn len(&self) -> usize;
    /// Whether there are no buckets (never, for a validated shape).
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The count of storage bucket `i < len()`.
    fn get(&self, i: usize) -> C;
    /// `Σ` of the counts of storage buckets `first..end` (`first <= end <= len()`), exact.
    /// Live cells are read one at a time; a slice is summed with vector adds.
    fn sum(&self, first: usize, end: usize) -> u128
    where
        C: Counter,
    {
        (first..end).map(|i| self.get(i).to_u64() as u128).sum()
    }
    /// The counts of storage buckets `first..end` (`first <= end <= len()`), in order.
    fn values(&self, first: usize, end: usize) -> impl Iterator<Item = C> + '_ {
        (first..end).map(move |i| self.get(i))
    }
    /// Call `each` with the counts of storage buckets `first..end` (`first <= end <= len()`,
    /// `end − first` a multiple of `N`) as `u64`, `N` at a time from the top down. A slice
    /// hands out its own chunks, so that a loop over them can keep its sums in vector
    /// registers.
    #[inline(always)]
    fn chunks_down<const N: usize>(&self, first: usize, end: usize, mut each: impl FnMut([u64; N]))
    where
        C: Counter,
    {
        let mut at = end;
        while at > first {
            at -= N;
            each(core::array::from_fn(|k| self.get(at + k).to_u64()));
        }
    }
    /// The counts of storage buckets `first..end` (`first <= end <= len()`, `end − first` a
    /// multiple of `N`) as `u64`, `N` at a time in order: a slice's own chunks, read with
    /// no bounds test each.
    #[inline(always)]
    fn groups<const N: usize>(&self, first: usize, end: usize) -> impl Iterator<Item = [u64; N]>
    where
        C: Counter,
    {
        (first..end)
            .step_by(N)
            .map(move |at| core::array::from_fn(|k| self.get(at + k).to_u64()))
    }
    /// The first storage bucket with a non-zero count.
    fn first_nonzero(&self) -> Option<usize>
    where
        C: Counter,
    {
        (0..self.len()).find(|&i| self.get(i) != C::ZERO)
    }
    /// The last storage bucket with a non-zero count.
    fn last_nonzero(&self) -> Option<usize>
    where
        C: Counter,
    {
        (0..self.len()).rev().find(|&i| self.get(i) != C::ZERO)
    }
}

pub(crate) mod sealed {
    pub trait Sealed {}
    impl<C: super::Counter> Sealed for [C] {}
}

impl<C: Counter> Counts<C> for [C] {
    #[inline]
    fn len(&self) -> usize {
        <[C]>::len(self)
    }
    #[inline]
    fn get(&self, i: usize) -> C {
        self[i]
    }
    #[inline]
    fn sum(&self, first: usize, end: usize) -> u128 {
        C::sum_slice(&self[first..end])
    }
    #[inline]
    fn values(&self, first: usize, end: usize) -> impl Iterator<Item = C> + '_ {
        self[first..end].iter().copied()
    }
    #[inline(always)]
    fn chunks_down<const N: usize>(
        &self,
        first: usize,
        end: usize,
        mut each: impl FnMut([u64; N]),
    ) {
        for chunk in self[first..end].rchunks_exact(N) {
            let chunk: &[C; N] = chunk.try_into().expect("chunks of N");
            each(chunk.map(C::to_u64));
        }
    }
    #[inline(always)]
    fn groups<const N: usize>(&self, first: usize, end: usize) -> impl Iterator<Item = [u64; N]> {
        self[first..end].chunks_exact(N).map(|chunk| {
            let chunk: &[C; N] = chunk.try_into().expect("chunks of N");
            chunk.map(C::to_u64)
        })
    }
    fn first_nonzero(&self) -> Option<usize> {
        first_nonzero(self)
    }
    fn last_nonzero(&self) -> Option<usize> {
        last_nonzero(self)
    }
}

/// The index of the last non-zero count, reading eight counts a step.
fn last_nonzero<C: Counter>(counts: &[C]) -> Option<usize> {
    let whole = counts.len() - counts.len() % 8;
    if let Some(i) = counts[whole..].iter().rposition(|&c| c != C::ZERO) {
        return Some(whole + i);
    }
    let mut eights = counts[..whole].chunks_exact(8);
    let at = eights.rposition(|e| e.iter().fold(0, |o, &c| o | c.to_u64()) != 0)?;
    let last = counts[8 * at..8 * at + 8]
        .iter()
        .rposition(|&c| c != C::ZERO)?;
    Some(8 * at + last)
}

/// The index of the first non-zero count, reading eight counts a step.
fn first_nonzero<C: Counter>(counts: &[C]) -> Option<usize> {
    let mut eights = counts.chunks_exact(8);
    match eights
        .by_ref()
        .position(|e| e.iter().fold(0, |o, &c| o | c.to_u64()) != 0)
    {
        Some(at) => Some(8 * at + counts[8 * at..].iter().position(|&c| c != C::ZERO)?),
        None => {
            let tail = eights.remainder();
            let i = tail.iter().position(|&c| c != C::ZERO)?;
            Some(counts.len() - tail.len() + i)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saturating_add_reports_what_did_not_fit() {
        assert_eq!(5u32.saturating_add_u64(7), (12, 0));
        assert_eq!((u32::MAX - 2).saturating_add_u64(5), (u32::MAX, 3));
        assert_eq!(
            0u32.saturating_add_u64(u64::MAX),
            (u32::MAX, u64::MAX - u32::MAX as u64)
        );
        assert_eq!(1u64.saturating_add_u64(u64::MAX), (u64::MAX, 1));
        assert_eq!(u32::MAX.increment(), 0);
        assert_eq!(2u32.wrapping_sub(u32::MAX), 3);
    }
}
