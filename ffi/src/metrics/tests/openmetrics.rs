//! The one-shot exposition, the Prometheus buckets and the options' checks.

use std::ptr;

use picollo_core::openmetrics::Family;

use super::{buckets, core_openmetrics, histogram, openmetrics};
use crate::metrics::openmetrics::{om_options, picollo_openmetrics_options_default};
use crate::metrics::{picollo_histogram_prometheus_buckets, picollo_openmetrics_options};
use crate::status::picollo_status;
use crate::testing::{last_error, Handle};

#[test]
fn one_shot_openmetrics_is_the_core_text() {
    let h = histogram(32, 1, (0..2_000).map(|v| v * v));
    let bounds = [100u64, 10_000, 1_000_000];
    let mut explicit = picollo_openmetrics_options_default();
    explicit.bounds = bounds.as_ptr();
    explicit.bound_count = bounds.len();
    explicit.unit_ratio = 1e3;
    explicit.created_unix_nanos = 1_700_000_000_123_000_000;
    let mut summary = picollo_openmetrics_options_default();
    summary.summary = 1;
    let mut coarse = picollo_openmetrics_options_default();
    coarse.coarse_relative_error = 0.2;
    let pairs = [("method", "get"), ("path", "a\"b\\c\nd")];
    for o in [
        picollo_openmetrics_options_default(),
        explicit,
        summary,
        coarse,
    ] {
        // SAFETY: the options' bounds are live for the test.
        let parsed = unsafe { om_options(&o) }.unwrap();
        let text = openmetrics(
            &h,
            "rpc_latency_seconds",
            Some("RPC latency"),
            Some("seconds"),
            &pairs,
            &o,
        )
        .unwrap();
        let family = Family::new("rpc_latency_seconds")
            .with_help("RPC latency")
            .with_unit("seconds");
        assert_eq!(
            text,
            core_openmetrics(&[(family, &parsed, &[(&pairs, &h)])])
        );
        assert!(text.ends_with("# EOF\n"), "{text}");
        assert!(text.contains("# UNIT rpc_latency_seconds seconds\n"));
    }
    // No help, no unit, no labels.
    let o = picollo_openmetrics_options_default();
    let text = openmetrics(&h, "plain", None, Some(""), &[], &o).unwrap();
    assert!(
        text.starts_with("# TYPE plain histogram\nplain_bucket{le="),
        "{text}"
    );
    assert!(text.contains("\nplain_count 2000\n"), "{text}");
}

#[test]
fn prometheus_buckets_are_the_texts_cumulative_counts() {
    let h = histogram(64, 1, (1..5_000).map(|v| v * 13));
    let bounds = [1_000u64, 20_000, 50_000];
    let mut explicit = picollo_openmetrics_options_default();
    explicit.bounds = bounds.as_ptr();
    explicit.bound_count = bounds.len();
    explicit.unit_ratio = 1e3;
    let mut coarse = picollo_openmetrics_options_default();
    coarse.coarse_relative_error = 0.1;
    for o in [picollo_openmetrics_options_default(), explicit, coarse] {
        let (status, n, ..) = buckets(&h, &o, 0);
        assert_eq!(status, picollo_status::BufferTooSmall);
        assert!(n >= 2, "{n}");
        // One short: nothing written but the count.
        let (status, again, le, cum, sum) = buckets(&h, &o, n - 1);
        assert_eq!((status, again), (picollo_status::BufferTooSmall, n));
        assert!(le.iter().all(|&x| x == -1.0) && cum.iter().all(|&c| c == u64::MAX));
        assert_eq!(sum, -1.0);
        let (status, again, le, cum, sum) = buckets(&h, &o, n + 3);
        assert_eq!((status, again), (picollo_status::Ok, n), "{}", last_error());
        assert_eq!(le[n - 1], f64::INFINITY);
        assert_eq!(cum[n - 1], 4_999);
        assert_eq!(le[n], -1.0, "nothing past the count");
        // The text's lines, one for one.
        let text = openmetrics(&h, "m", None, None, &[], &o).unwrap();
        let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("m_bucket")).collect();
        assert_eq!(lines.len(), n);
        for (k, line) in lines.iter().enumerate() {
            let le_text = match le[k] {
                x if x.is_infinite() => "+Inf".to_string(),
                x => format!("{x:?}"),
            };
            assert_eq!(*line, format!("m_bucket{{le=\"{le_text}\"}} {}", cum[k]));
        }
        assert!(text.contains(&format!("\nm_sum {sum:?}\n")), "{text}");
        assert!(cum.windows(2).take(n - 1).all(|p| p[0] <= p[1]));
    }
    // Explicit bounds are exported in exported units.
    let (_, n, le, ..) = buckets(&h, &explicit, 4);
    assert_eq!((n, &le[..3]), (4, &[1.0, 20.0, 50.0][..]));
}

#[test]
fn prometheus_buckets_refuse_a_summary_and_a_null_count() {
    let h = histogram(64, 1, (1..5_000).map(|v| v * 13));
    // A summary has no buckets; count is required.
    let mut summary = picollo_openmetrics_options_default();
    summary.summary = 1;
    assert_eq!(buckets(&h, &summary, 0).0, picollo_status::InvalidArgument);
    let o = picollo_openmetrics_options_default();
    // SAFETY: NULL count is refused before anything is written.
    let status = unsafe {
        picollo_histogram_prometheus_buckets(
            h.0,
            &o,
            ptr::null_mut(),
            ptr::null_mut(),
            0,
            ptr::null_mut(),
            ptr::null_mut(),
        )
    };
    assert_eq!(status, picollo_status::NullPointer);
}

/// Asserts that the options `change` makes from the defaults are refused by both the text
/// and the bucket export with `status`, the text's message containing `word`.
fn refused(
    h: &Handle,
    change: impl FnOnce(&mut picollo_openmetrics_options),
    status: picollo_status,
    word: &str,
) {
    let mut o = picollo_openmetrics_options_default();
    change(&mut o);
    let (got, message) = openmetrics(h, "m", None, None, &[], &o).err().unwrap();
    assert_eq!(got, status, "{message}");
    assert!(message.contains(word), "{message}");
    assert_eq!(buckets(h, &o, 0).0, status);
}

#[test]
fn bad_openmetrics_options_are_refused_with_their_field_named() {
    let h = histogram(64, 0, [1, 2, 3]);
    let bounds = [10u64, 10];
    use picollo_status::{InvalidArgument as Invalid, NullPointer, StructSize};
    refused(&h, |o| o.summary = 2, Invalid, "summary");
    refused(&h, |o| o.unit_ratio = 0.0, Invalid, "unit_ratio");
    refused(&h, |o| o.unit_ratio = f64::NAN, Invalid, "unit_ratio");
    refused(&h, |o| o.coarse_relative_error = 0.0, Invalid, "coarse");
    refused(&h, |o| o.coarse_relative_error = 1.0, Invalid, "coarse");
    refused(&h, |o| o.bound_count = 1, NullPointer, "bounds");
    refused(&h, |o| o.struct_size -= 8, StructSize, "struct_size");
    refused(&h, |o| o.struct_size = 5000, StructSize, "struct_size");
    let mut o = picollo_openmetrics_options_default();
    o.bounds = bounds.as_ptr();
    o.bound_count = 2;
    let (status, message) = openmetrics(&h, "m", None, None, &[], &o).err().unwrap();
    assert_eq!(status, picollo_status::InvalidArgument);
    assert!(message.contains("strictly increasing"), "{message}");
    let o = picollo_openmetrics_options_default();
    for (name, unit) in [("m_seconds", "ms"), ("m", "s-s"), ("m_count", "")] {
        let (status, message) = openmetrics(&h, name, None, Some(unit), &[], &o)
            .err()
            .unwrap();
        assert_eq!(status, picollo_status::InvalidArgument, "{name} {unit}");
        assert!(message.contains(name), "{message}");
    }
    let (status, _) = openmetrics(&h, "m", None, None, &[("quantile", "x")], &{
        let mut s = o;
        s.summary = 1;
        s
    })
    .err()
    .unwrap();
    assert_eq!(status, picollo_status::InvalidArgument);
}
