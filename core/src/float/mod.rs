//! Histograms of doubles: negative and positive values, a zero bucket, NaN and infinities
//! counted apart, exact extremes and a running sum; dense or sparse storage.
//!
//! ```
//! use picollo::float::{FloatConfig, FloatHistogram};
//! let h = FloatHistogram::<u64>::new(FloatConfig::new().with_relative_error(0.01))?;
//! for x in [-2.5, -0.001, 0.0, 1e-300, 3.25, 1e300, f64::NAN] {
//!     h.record(x);
//! }
//! let counts = h.counts()?;
//! assert_eq!(counts.total_count(), 6);
//! assert_eq!(counts.nan_count(), 1);
//! assert_eq!(counts.min(), Some(-2.5));
//! let median = counts.percentile_value(50.0)?;
//! assert!(median == 0.0);
//! println!("{}", counts.summary());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod cells;
mod config;
mod counts;
mod histogram;
mod layout;
mod octaves;
mod sum;
mod summary;

pub use crate::concurrent::{Mode, Storage};
pub use config::{FloatConfig, FloatShape};
pub use counts::{FloatBucketCount, FloatCounts, FloatPercentile, Side};
pub use histogram::FloatHistogram;
pub use layout::{FloatBucket, FloatLayout, OCTAVES};
pub use summary::FloatSummary;
