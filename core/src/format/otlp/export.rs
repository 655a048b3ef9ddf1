//! OTLP as export formats: `otlp-json` and `otlp-protobuf`, an `ExportMetricsServiceRequest`
//! of one resource, one scope and one metric with one exponential-histogram point, as
//! `picollo_histogram_otlp` writes it.

use alloc::vec::Vec;

use super::{DataPoint, ExponentialHistogram, Metric, Request, Temporality};
use crate::format::export::{About, Export, ExportError, Options, Out, Written};
use crate::View;

/// The options both encodings take.
const OPTIONS: &[(&str, &str)] = &[
    ("name", "the metric name (required)"),
    ("description", "the metric description (default: none)"),
    ("unit", "the metric unit, UCUM, e.g. s (default: none)"),
    ("temporality", "cumulative (default) or delta"),
    (
        "start_time_unix_nano",
        "start of the interval or counting, ns since the Unix epoch",
    ),
    (
        "time_unix_nano",
        "end of the interval, ns since the Unix epoch (default 0: unset)",
    ),
    (
        "scale",
        "the exponential scale, -10 to 20, or auto (default: from the relative error)",
    ),
    (
        "unit_ratio",
        "recorded units per exported unit (1e9: ns as s; default 1)",
    ),
    (
        "scope_name",
        "the instrumentation scope's name (default: none)",
    ),
    (
        "scope_version",
        "the instrumentation scope's version (default: none)",
    ),
    (
        "attribute.",
        "attribute.KEY=VALUE: an attribute of the point",
    ),
    (
        "resource.",
        "resource.KEY=VALUE: an attribute of the resource (service.name, …)",
    ),
];

/// OTLP/JSON text.
pub(crate) struct OtlpJson;

/// OTLP protobuf bytes.
pub(crate) struct OtlpProtobuf;

/// The temporality option: `cumulative` (the default) or `delta`.
fn temporality(options: &Options<'_>) -> Result<Temporality, ExportError> {
    match options.get("temporality").map(str::trim) {
        None | Some("cumulative") => Ok(Temporality::Cumulative),
        Some("delta") => Ok(Temporality::Delta),
        Some(other) => Err(ExportError::option(format_args!(
            "option \"temporality\" is {other:?}: it is cumulative or delta"
        ))),
    }
}

/// `view` as a request from `options`, checked by OTLP's rules, then encoded by `encode`.
fn request(
    view: &View<'_, u64>,
    options: &Options<'_>,
    encode: fn(&Request<'_>) -> Vec<u8>,
) -> Result<Vec<u8>, ExportError> {
    let unit_ratio = options.parse("unit_ratio", 1.0)?;
    let histogram = match options.parse_or_auto("scale")? {
        None => ExponentialHistogram::from_view(view, unit_ratio)?,
        Some(scale) => ExponentialHistogram::with_scale(view, scale, unit_ratio)?,
    };
    let attributes = options.with_prefix("attribute.");
    let points = [DataPoint {
        attributes: &attributes,
        start_time_unix_nano: options.parse("start_time_unix_nano", 0)?,
        time_unix_nano: options.parse("time_unix_nano", 0)?,
        histogram: &histogram,
    }];
    let metrics = [Metric {
        name: options.required("name")?,
        description: options.get("description").unwrap_or(""),
        unit: options.get("unit").unwrap_or(""),
        temporality: temporality(options)?,
        points: &points,
    }];
    let resource = options.with_prefix("resource.");
    let request = Request {
        resource: &resource,
        scope_name: options.get("scope_name").unwrap_or(""),
        scope_version: options.get("scope_version").unwrap_or(""),
        metrics: &metrics,
    };
    request.check()?;
    Ok(encode(&request))
}

impl Export for OtlpJson {
    fn about(&self) -> &'static About {
        &About {
            name: "otlp-json",
            description: "OTLP/JSON: a metrics request with one exponential-histogram point",
            options: OPTIONS,
            binary: false,
        }
    }
    fn integer(&self, view: &View<'_, u64>, options: &Options<'_>, out: Out<'_>) -> Written {
        let encode = |r: &Request<'_>| r.to_json().into_bytes();
        out.extend(request(view, options, encode)?);
        Ok(())
    }
}

impl Export for OtlpProtobuf {
    fn about(&self) -> &'static About {
        &About {
            name: "otlp-protobuf",
            description: "OTLP protobuf: a metrics request with one exponential-histogram point",
            options: OPTIONS,
            binary: true,
        }
    }
    fn integer(&self, view: &View<'_, u64>, options: &Options<'_>, out: Out<'_>) -> Written {
        out.extend(request(view, options, |r| r.to_protobuf())?);
        Ok(())
    }
}
