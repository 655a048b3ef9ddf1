//! Snapshots: a copy of a histogram that refreshes in place, optionally as the deltas since
//! the previous refresh. Nothing is allocated after creation.

use crate::config::ConfigError;
use crate::counter::Counter;
use crate::histogram::Histogram;
use crate::view::View;

/// A refreshable copy of a histogram of the same configuration.
///
/// [`Snapshot::update`] copies the source's counts; with `deltas = true` the snapshot then
/// holds what was recorded since the previous update. If the source was reset in between,
/// the delta is what was recorded since that reset (counts recorded between the previous
/// update and the reset are gone with the reset).
#[derive(Clone, Debug)]
pub struct Snapshot<C: Counter, S> {
    current: Histogram<C, S>,
    previous: S,
    previous_outside: [u64; 3],
    previous_resets: u64,
}

impl<C: Counter, S: AsRef<[C]> + AsMut<[C]>> Snapshot<C, S> {
    /// A snapshot of `source` over caller storage (two buffers of the source's storage
    /// length), taken now with full counts.
    pub fn from_storage(
        source: &View<'_, C>,
        current: S,
        previous: S,
    ) -> Result<Self, ConfigError> {
        let current = Histogram::from_shape(source.shape, current)?;
        source.shape.check_len(previous.as_ref().len())?;
        let mut s = Snapshot {
            current,
            previous,
            previous_outside: [0; 3],
            previous_resets: source.resets,
        };
        s.update(source, false)?;
        Ok(s)
    }

    /// Refresh from `source` (which must have this snapshot's configuration). With `deltas`,
    /// the snapshot holds the counts recorded since the previous update; without, the full
    /// counts. The source's current value selection is taken over too.
    pub fn update(&mut self, source: &View<'_, C>, deltas: bool) -> Result<(), ConfigError> {
        let shape = self.current.shape();
        if !shape.same_buckets(&source.shape) {
            return Err(ConfigError::StorageLength {
                expected: shape.len(),
                actual: source.counts.len(),
            });
        }
        // After a reset, the source's counts all started again from zero.
        let fresh = source.resets != self.previous_resets;
        let outside = source.outside;
        let previous = self.previous.as_mut();
        self.current.with_counts_mut(|counts| {
            let pairs = counts.iter_mut().zip(previous.iter_mut());
            for ((dst, prev), &now) in pairs.zip(source.counts.iter()) {
                *dst = if deltas && !fresh {
                    now.wrapping_sub(*prev)
                } else {
                    now
                };
                *prev = now;
            }
        });
        let mut shown = outside;
        if deltas && !fresh {
            for (s, p) in shown.iter_mut().zip(self.previous_outside.iter()) {
                *s = s.wrapping_sub(*p);
            }
        }
        self.current.set_outside_counts(shown);
        self.current
            .set_value_selection(source.shape.value_selection());
        self.previous_outside = outside;
        self.previous_resets = source.resets;
        Ok(())
    }

    /// The snapshot's counts, for queries and reports.
    pub fn view(&self) -> View<'_, C> {
        self.current.view()
    }
}

#[cfg(feature = "alloc")]
impl<C: Counter> Snapshot<C, alloc::vec::Vec<C>> {
    /// A heap-allocated snapshot of `source`, taken now with full counts (aborts when the
    /// two copies cannot be allocated, like `Vec`; see [`Snapshot::try_new`]).
    pub fn new(source: &View<'_, C>) -> Self {
        match Self::try_new(source) {
            Ok(s) => s,
            Err(e) => crate::oom::abort(e),
        }
    }

    /// A heap-allocated snapshot of `source`, or [`crate::OutOfMemory`].
    pub fn try_new(source: &View<'_, C>) -> Result<Self, crate::OutOfMemory> {
        let n = source.counts.len();
        let current = C::try_zeroes(n)?;
        let previous = C::try_zeroes(n)?;
        // The source view is a valid histogram, so its configuration is valid too.
        match Self::from_storage(source, current, previous) {
            Ok(s) => Ok(s),
            Err(_) => unreachable!("a view always has a valid configuration"),
        }
    }
}
