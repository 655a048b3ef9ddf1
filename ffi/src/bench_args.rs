//! A `picollo_bench_config` read into the harness's settings, and harness errors turned into
//! statuses.

use std::time::Duration;

use picollo_core::bench::{Bench, BenchError, BenchErrorKind};
use picollo_core::perf::Event;

use crate::args::str_from;
use crate::bench::picollo_bench_config;
use crate::error::Failure;
use crate::perf::parse_event;
use crate::perf_args::perf_status;
use crate::status::picollo_status;

/// The status of a harness error.
pub(crate) fn bench_failure(e: BenchError) -> Failure {
    use std::io::ErrorKind;
    let status = match e.kind() {
        BenchErrorKind::Invalid | BenchErrorKind::Os(ErrorKind::InvalidInput) => {
            picollo_status::InvalidArgument
        }
        BenchErrorKind::Counter(kind) => perf_status(kind),
        BenchErrorKind::Os(ErrorKind::PermissionDenied) => picollo_status::PermissionDenied,
        BenchErrorKind::Format => picollo_status::Panic,
        _ => picollo_status::OsError,
    };
    Failure::new(status, e.message())
}

/// The counters of a comma-separated list ("" is none; NULL the default set).
fn counters(list: Option<&str>) -> Result<Option<Vec<Event>>, Failure> {
    let Some(list) = list else { return Ok(None) };
    if list.trim().is_empty() {
        return Ok(Some(Vec::new()));
    }
    let events = list.split(',').map(|name| parse_event(name.trim()));
    events.collect::<Result<_, _>>().map(Some)
}

/// `seconds` as a duration, or `INVALID_ARGUMENT` naming the field.
fn seconds(seconds: f64, field: &str) -> Result<Duration, Failure> {
    Duration::try_from_secs_f64(seconds).map_err(|_| {
        Failure::invalid(format_args!(
            "config->{field} is {seconds:e}: it must be a finite number of seconds, 0 or more"
        ))
    })
}

/// The harness's settings from a caller's config.
///
/// # Safety
/// `c.name` and `c.counters` are NULL or NUL-terminated strings.
pub(crate) unsafe fn bench_of(c: &picollo_bench_config) -> Result<Bench, Failure> {
    // SAFETY: the strings are NULL or NUL-terminated, per the caller.
    let name = unsafe { str_from(c.name, "config->name", Some("bench")) }?;
    let list = match c.counters.is_null() {
        true => None,
        // SAFETY: as above.
        false => Some(unsafe { str_from(c.counters, "config->counters", None) }?),
    };
    let samples = usize::try_from(c.samples)
        .map_err(|_| Failure::invalid("config->samples does not fit in memory"))?;
    let mut b = Bench::new(name)
        .with_samples(samples)
        .with_time_budget(seconds(c.time_budget, "time_budget")?)
        .with_warmup(seconds(c.warmup, "warmup")?)
        .with_relative_error(c.relative_error);
    if let Some(events) = counters(list)? {
        b = b.with_counters(&events);
    }
    if c.batch != 0 {
        b = b.with_batch(c.batch);
    }
    match c.pinned_cpu {
        -1 => {}
        cpu @ 0.. => b = b.with_pinned_cpu(cpu as usize),
        cpu => {
            return Err(Failure::invalid(format_args!(
                "config->pinned_cpu is {cpu}: it must be a CPU number or -1 (no pinning)"
            )))
        }
    }
    match c.set_nice {
        0 => {}
        1 => b = b.with_nice(c.nice),
        flag => {
            return Err(Failure::invalid(format_args!(
                "config->set_nice is {flag}: it must be 0 or 1"
            )))
        }
    }
    Ok(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counter_lists_parse_as_documented() {
        assert_eq!(counters(None).unwrap(), None);
        assert_eq!(counters(Some("")).unwrap(), Some(Vec::new()));
        let two = counters(Some(" Software:TaskClock , Software:PageFaults")).unwrap();
        assert_eq!(two.map(|e| e.len()), Some(2));
        for bad in [
            "Software:TaskClock,",
            "Hardware:Nope",
            ",Software:TaskClock",
        ] {
            let e = counters(Some(bad)).unwrap_err();
            assert_eq!(e.status, picollo_status::InvalidArgument, "{bad}");
        }
    }
}
