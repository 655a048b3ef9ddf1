//! Histograms of another precision: re-binning counts from one layout into another, so
//! histograms of different relative errors can be merged, and downsampling to a coarser one.
//!
//! Both layouts cut every octave of values into a power of two of equal buckets, aligned
//! to the octave. So a bucket of the finer layout lies inside exactly one bucket of the
//! coarser one:
//! - into a coarser (or the same) layout, each source bucket's count lands in the one
//!   bucket that holds all its values: exactly what recording the values there would have
//!   given, with the coarser layout's relative error;
//! - into a finer layout, a source bucket is the union of several receiving buckets of
//!   equal width; its count is shared among them equally (the remainder to the lowest
//!   ones), so a value may land up to one source bucket away from its own: the result
//!   carries the source's (coarser) relative error, not the receiver's.

use alloc::vec::Vec;

use crate::config::{Config, ConfigError};
use crate::counter::Counter;
use crate::histogram::{Histogram, MergeError};
use crate::layout::Layout;
use crate::view::{Counts, View};

impl<C: Counter, S: Counts<C> + ?Sized> View<'_, C, S> {
    /// These counts re-binned into `layout` (see the module docs for the error each way),
    /// over the same range, with the same outside counts and value selection: a histogram
    /// that merges (`add`) into any histogram of `layout`.
    pub fn rebinned(&self, layout: Layout) -> Result<Histogram<u64, Vec<u64>>, MergeError> {
        let (min, max) = self.range();
        let config = Config::new()
            .with_layout(layout)
            .with_range(min, max)
            .with_value_selection(self.value_selection());
        let mut out = Histogram::<u64, Vec<u64>>::new(config).map_err(|e| match e {
            crate::ConfigError::OutOfMemory { bytes } => MergeError::OutOfMemory { bytes },
            // The source's range and a layout's own relative error always validate.
            _ => MergeError::Unsupported,
        })?;
        debug_assert_eq!(out.layout(), layout);
        let shape = self.shape();
        let log2 = crate::layout::Log2::for_this_cpu();
        for i in 0..self.counts.len() {
            let count = self.counts.get(i).to_u64();
            if count == 0 {
                continue;
            }
            let b = shape.bucket(i);
            let (first, last) = (
                layout.fast_index(b.lower, log2),
                layout.fast_index(b.highest, log2),
            );
            if first == last {
                out.record_n(b.lower, count);
                continue;
            }
            // The source bucket is the union of the receiving buckets first..=last, all of
            // one width: an equal share each, the remainder one by one from the lowest.
            let n = (last - first + 1) as u64;
            let (share, rest) = (count / n, count % n);
            for (k, index) in (first..=last).enumerate() {
                let extra = u64::from((k as u64) < rest);
                if share + extra != 0 {
                    out.record_n(layout.bucket_of_index(index).lower, share + extra);
                }
            }
        }
        out.add_outside(self.outside());
        Ok(out)
    }

    /// These counts in a coarser layout (`relative_error`, clamped as everywhere, and this
    /// layout's unit): exactly
    /// the histogram the recorded values would have made at that precision (see the module
    /// docs), over the same range. `Err(LayoutMismatch)` for a finer precision, which
    /// could only spread counts over buckets the data never told apart;
    /// `Err(InvalidRelativeError)` for one that is NaN, infinite or not positive.
    pub fn downsample(&self, relative_error: f64) -> Result<Histogram<u64, Vec<u64>>, MergeError> {
        ConfigError::check_relative_error(relative_error)
            .map_err(|_| MergeError::InvalidRelativeError(relative_error))?;
        let shape = Config::new()
            .with_relative_error(relative_error)
            .with_unit_scale(self.layout().unit_scale())
            .validate()
            .map_err(|_| MergeError::LayoutMismatch {
                this: self.layout().relative_error(),
                other: relative_error,
            })?;
        let layout = shape.layout();
        if layout.block_scale() > self.layout().block_scale() {
            return Err(MergeError::LayoutMismatch {
                this: self.layout().relative_error(),
                other: layout.relative_error(),
            });
        }
        self.rebinned(layout)
    }
}

#[cfg(test)]
mod tests {
    use alloc::string::ToString;

    use super::*;
    use crate::Config;

    fn record(config: Config, values: &[u64]) -> Histogram<u64, Vec<u64>> {
        let mut h = config.build::<u64>().unwrap();
        for &v in values {
            h.record(v);
        }
        h
    }

    fn values() -> Vec<u64> {
        let mut x = 1u64;
        (0..20_000)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (x >> 40) % 5_000_000
            })
            .collect()
    }

    #[test]
    fn downsampling_gives_what_recording_at_the_coarser_precision_gives() {
        let v = values();
        // The range ends on an octave boundary, where every layout's buckets end too (a
        // range that ends inside a coarse bucket is wider in the coarse layout than the
        // fine one could tell).
        let max = (1 << 22) - 1;
        let fine = record(
            Config::new().with_relative_error(0.0001).with_range(0, max),
            &v,
        );
        for e in [0.0001, 0.001, 0.01, 0.1] {
            let coarse = fine.view().downsample(e).unwrap();
            let direct = record(Config::new().with_relative_error(e).with_range(0, max), &v);
            assert!(coarse.view().counts() == direct.view().counts(), "e {e}");
            assert_eq!(coarse.view().outside(), direct.view().outside());
            assert_eq!(coarse.view().summary(), direct.view().summary());
        }
        assert!(fine.view().downsample(0.00001).is_err());
    }

    #[test]
    fn a_precision_that_is_no_relative_error_is_refused_as_a_config_would_be() {
        let h = record(Config::new(), &[1, 2, 3]);
        for e in [f64::NAN, 0.0, -0.01, f64::INFINITY] {
            let refused = h.view().downsample(e).unwrap_err();
            assert!(
                matches!(refused, MergeError::InvalidRelativeError(x) if x.to_bits() == e.to_bits())
            );
            let config = Config::new().with_relative_error(e).validate().unwrap_err();
            assert_eq!(
                refused.to_string(),
                config.to_string(),
                "one rule, one message"
            );
        }
    }

    #[test]
    fn refining_spreads_counts_within_the_source_buckets() {
        let v = values();
        let coarse = record(Config::new().with_relative_error(0.01), &v);
        let fine = coarse.view().rebinned(Layout::clamped(0.0001)).unwrap();
        let (c, f) = (coarse.view(), fine.view());
        assert_eq!(c.total_count(), f.total_count());
        // Every count stays inside its source bucket: percentiles move less than a source
        // bucket.
        for rank in [1.0, 50.0, 99.0, 100.0] {
            let (a, b) = (c.percentile(rank).unwrap(), f.percentile(rank).unwrap());
            assert!(
                a.lower <= b.lower && b.highest <= a.highest,
                "P{rank}: {a:?} {b:?}"
            );
        }
        // And merging histograms of two precisions through it.
        let mut target = Config::new()
            .with_relative_error(0.001)
            .build::<u32>()
            .unwrap();
        let rebinned = coarse.view().rebinned(target.layout()).unwrap();
        target.add(&rebinned.view()).unwrap();
        assert_eq!(target.view().total_count(), v.len() as u64);
    }
}
