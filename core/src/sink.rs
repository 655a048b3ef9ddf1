//! [`Sink`]: something a measured value is recorded into. A perf session (`picollo-perf`)
//! records each counter's deltas into one, a time scope its elapsed time.

use crate::{Counter, Histogram};

/// Something a measured value is recorded into: every [`Histogram`], a concurrent
/// histogram (owned, borrowed or behind an `Arc`, so other threads can read it while a
/// session records), or a caller's own type.
///
/// It exists so that the perf sessions and the time scopes do not fix the histogram's
/// counter width, storage or concurrency mode.
pub trait Sink {
    /// Record one value.
    fn record(&mut self, value: u64);
    /// Clear what was recorded.
    fn reset(&mut self);
    /// Mean of what was recorded (NaN when nothing was).
    fn mean(&self) -> f64;
    /// How many values were recorded inside the sink's range.
    fn total(&self) -> u64;
}

/// One [`Sink`] impl per handle type of the histogram type `$owner`: `record` and `reset`
/// are its own, `mean` and `total` the expressions given over `$h: &$owner`.
macro_rules! sink {
    (
        impl $generics:tt $owner:ty: $($(#[$attr:meta])* $handle:ty),+;
        |$h:ident| mean: $mean:expr, total: $total:expr
    ) => {$(
        $(#[$attr])*
        sink!(@one $generics $owner: $handle; |$h| mean: $mean, total: $total);
    )+};
    (
        @one [$($generics:tt)*] $owner:ty: $handle:ty;
        |$h:ident| mean: $mean:expr, total: $total:expr
    ) => {
        impl<$($generics)*> Sink for $handle {
            #[inline]
            fn record(&mut self, value: u64) {
                <$owner>::record(self, value);
            }
            fn reset(&mut self) {
                <$owner>::reset(self);
            }
            fn mean(&self) -> f64 {
                let $h: &$owner = self;
                $mean
            }
            fn total(&self) -> u64 {
                let $h: &$owner = self;
                $total
            }
        }
    };
}

sink!(
    impl[C: Counter, S: AsRef<[C]> + AsMut<[C]>, const EXACT: bool] Histogram<C, S, EXACT>:
        Histogram<C, S, EXACT>;
    |h| mean: h.view().mean(), total: Histogram::total_count(h)
);

// A concurrent histogram records through `&self`, so the histogram itself, a shared
// reference to it and an `Arc` of it are all sinks; resetting one resets the histogram
// every other holder sees. A thread-local histogram's copy failing to allocate aborts in
// `mean` and `total` (the trait has no error to return).
#[cfg(all(feature = "alloc", picollo_concurrent))]
use crate::concurrent::{AtomicCounter, ConcurrentHistogram, DynHistogram, Source};

#[cfg(all(feature = "alloc", picollo_concurrent))]
sink!(
    impl[C: AtomicCounter] ConcurrentHistogram<C>:
        ConcurrentHistogram<C>,
        &ConcurrentHistogram<C>,
        #[cfg(target_has_atomic = "ptr")]
        alloc::sync::Arc<ConcurrentHistogram<C>>;
    |h| mean: <ConcurrentHistogram<C> as Source<C>>::summary(h).mean,
        total: <ConcurrentHistogram<C> as Source<C>>::total_count(h)
);
#[cfg(all(feature = "alloc", picollo_concurrent))]
sink!(
    impl[] DynHistogram:
        DynHistogram,
        &DynHistogram,
        #[cfg(target_has_atomic = "ptr")]
        alloc::sync::Arc<DynHistogram>;
    |h| mean: DynHistogram::mean(h).unwrap_or_else(|e| crate::oom::abort(e)),
        total: DynHistogram::total_count(h).unwrap_or_else(|e| crate::oom::abort(e))
);

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;
    #[cfg(target_has_atomic = "ptr")]
    use crate::concurrent::Source;
    use crate::Config;
    use std::vec::Vec;

    fn fill<S: Sink>(sink: &mut S) {
        for v in [10, 20, 30] {
            sink.record(v);
        }
    }

    #[test]
    fn a_histogram_sink_records_resets_and_averages() {
        let mut h: Histogram<u32, Vec<u32>> = Config::new().build().unwrap();
        fill(&mut h);
        assert_eq!(Sink::total(&h), 3);
        assert!((Sink::mean(&h) - 20.0).abs() < 0.1);
        Sink::reset(&mut h);
        assert_eq!(Sink::total(&h), 0);
    }

    #[cfg(all(target_has_atomic = "32", target_has_atomic = "64"))]
    #[test]
    fn every_handle_of_a_concurrent_histogram_records_into_the_same_counts() {
        use crate::concurrent::{ConcurrentHistogram, Mode};
        use std::sync::Arc;
        let shared =
            Arc::new(ConcurrentHistogram::<u64>::new(Config::new(), Mode::Interlocked).unwrap());
        let mut by_arc = Arc::clone(&shared);
        fill(&mut by_arc);
        let mut by_ref = &*shared;
        fill(&mut by_ref);
        assert_eq!(shared.total_count(), 6);
        assert_eq!(Sink::total(&by_arc), 6);
        Sink::reset(&mut by_arc);
        assert_eq!(shared.total_count(), 0);
    }
}
