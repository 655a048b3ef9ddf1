//! Metrics pipelines over the C ABI, one file per core format (`core/src/format/`):
//! interval collection ([`collect`]), the OpenMetrics text exposition ([`openmetrics`], one
//! shot; [`openmetrics_writer`], several families), the cumulative buckets a Prometheus client
//! library wants ([`prometheus`]), OTLP exponential histograms ([`otlp`]) and Prometheus
//! native histograms in the protobuf exposition ([`prometheus_native`]). Labels and
//! attributes share [`labels`]. The exporters read a histogram as one consistent copy
//! ([`copy_of`]); every option they take is checked by the core's rules.

mod collect;
pub(crate) mod labels;
mod openmetrics;
mod openmetrics_writer;
mod otlp;
mod prometheus;
mod prometheus_native;
#[cfg(test)]
mod tests;

pub use collect::*;
pub use labels::*;
pub use openmetrics::*;
pub use openmetrics_writer::*;
pub use otlp::*;
pub use prometheus::*;
pub use prometheus_native::*;

use crate::error::Failure;
use crate::histogram::any::{config_error, Histogram};
use crate::histogram::snapshot::Snapshot;

/// One consistent copy of `h`'s counts (the exporters read plain counts, not live cells).
pub(crate) fn copy_of(h: &Histogram) -> Result<Snapshot, Failure> {
    Snapshot::new(h).map_err(config_error)
}

/// `copied_view!(copy, v => expr)`: `Ok(expr)` on the view of a copy from [`copy_of`],
/// whatever its counter width.
macro_rules! copied_view {
    ($copy:expr, $v:ident => $e:expr) => {
        match $copy.view() {
            $crate::histogram::any::AnyView::U32($v) => Ok($e),
            $crate::histogram::any::AnyView::U64($v) => Ok($e),
            // A snapshot's view is a copy, never live cells.
            $crate::histogram::any::AnyView::LiveU32(_)
            | $crate::histogram::any::AnyView::LiveU64(_) => Err($crate::error::Failure::new(
                $crate::status::picollo_status::Panic,
                "internal error: a snapshot gave a view of live cells",
            )),
        }
    };
}
use copied_view;
