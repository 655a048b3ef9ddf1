//! The native histogram of a histogram of doubles.

use super::DEFAULT_ZERO_THRESHOLD;
use super::{ExponentialBuckets, NativeHistogram, NativeOptions, OptionError};
use crate::format::otlp::SignedExponentialHistogram;

impl NativeHistogram {
    /// A histogram of doubles as a native one: the re-binning of
    /// [`SignedExponentialHistogram::with_scale`] with a zero threshold of
    /// [`DEFAULT_ZERO_THRESHOLD`] or the range's lowest magnitude when that is higher.
    ///
    /// # Errors
    /// The options' rules; [`OptionError::ClassicBounds`] when `classic` is set (the
    /// classic buckets are offered for integer histograms only).
    pub fn from_float(
        counts: &crate::float::FloatCounts,
        options: &NativeOptions<'_>,
    ) -> Result<Self, OptionError> {
        options.check()?;
        if options.classic.is_some() {
            return Err(OptionError::ClassicBounds);
        }
        let schema = options.schema_or(counts.shape().layout().relative_error());
        let h = SignedExponentialHistogram::with_scale(
            counts,
            schema,
            options.unit_ratio,
            DEFAULT_ZERO_THRESHOLD,
        )?;
        let up = |b: ExponentialBuckets| ExponentialBuckets {
            offset: b.offset + 1,
            counts: b.counts,
        };
        Ok(NativeHistogram {
            schema,
            zero_threshold: h.zero_threshold,
            zero_count: h.zero_count,
            count: h.count,
            sum: h.sum,
            positive: up(h.positive),
            negative: up(h.negative),
            classic: None,
        })
    }
}
