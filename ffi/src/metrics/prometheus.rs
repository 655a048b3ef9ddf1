//! The cumulative buckets of a histogram family as numbers, for a Prometheus client library
//! that builds its own families (Python `prometheus_client`'s `HistogramMetricFamily`). With
//! derived bounds the bucket count depends only on the layout, range and
//! `coarse_relative_error`, so it is the same at every scrape.

use picollo_core::openmetrics::{cumulative_buckets, CumulativeBuckets};

use super::openmetrics::{picollo_openmetrics_options, read_om_options};
use super::{copied_view, copy_of};
use crate::args::out;
use crate::boundary::boundary;
use crate::error::Failure;
use crate::handle::try_ref;
use crate::histogram::picollo_histogram;
use crate::status::picollo_status;

/// Writes the cumulative buckets that `picollo_histogram_openmetrics` would write for `h` as
/// numbers: `le[i]`, `cumulative[i]` for each of the `*count` buckets, and `*sum` unless NULL
/// (docs/c-api.md, "Metrics export"). Errors: NULL `h`, `opts` or `count`; `STRUCT_SIZE`;
/// `INVALID_ARGUMENT` for bad options or `opts->summary` set; `BUFFER_TOO_SMALL` (only `*count`
/// written); `OUT_OF_MEMORY`.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_prometheus_buckets(
    h: *const picollo_histogram,
    opts: *const picollo_openmetrics_options,
    le: *mut f64,
    cumulative: *mut u64,
    capacity: usize,
    count: *mut usize,
    sum: *mut f64,
) -> picollo_status {
    boundary!({
        let h = try_ref!(h)?;
        let o = read_om_options!(opts)?;
        crate::args::require(le, capacity, "le")?;
        crate::args::require(cumulative, capacity, "cumulative")?;
        if count.is_null() {
            return Err(Failure::null("count"));
        }
        if o.summary {
            return Err(Failure::invalid(
                "summary is 1: a summary family has no buckets (set it to 0)",
            ));
        }
        let copy = copy_of(h)?;
        let CumulativeBuckets {
            buckets,
            sum: total,
        } = copied_view!(copy, v => cumulative_buckets(&v, &o.options))?
            .map_err(|e| Failure::invalid(format_args!("options: {e}")))?;
        out!(count, buckets.len())?;
        crate::args::check_room(capacity, buckets.len(), || {
            format!(
                "capacity {capacity} is too small: {} buckets needed",
                buckets.len()
            )
        })?;
        let le = crate::args::try_slice_mut!(le, buckets.len())?;
        let cumulative = crate::args::try_slice_mut!(cumulative, buckets.len())?;
        for (k, &(bound, c)) in buckets.iter().enumerate() {
            le[k] = bound;
            cumulative[k] = c;
        }
        out!(sum?, total)
    })
}
