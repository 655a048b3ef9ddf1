//! Prometheus' protobuf exposition as an export format (`prometheus-native`): one
//! length-delimited `MetricFamily` holding one native histogram, as
//! `picollo_histogram_prometheus_native` writes it.

use super::{Bounds, NativeFamily, NativeHistogram, NativeMetric, NativeOptions};
#[cfg(picollo_float)]
use crate::float::FloatCounts;
use crate::format::export::{About, Export, ExportError, Options, Out, Written};
use crate::View;

/// One histogram as a native histogram family.
pub(crate) struct PrometheusNative;

static ABOUT: About = About {
    name: "prometheus-native",
    description: "Prometheus' protobuf exposition: one delimited MetricFamily, native histogram",
    options: &[
        ("name", "the family name (required)"),
        ("help", "the help text (default: none)"),
        (
            "schema",
            "the native schema, -4 to 8, or auto (default: from the relative error)",
        ),
        (
            "unit_ratio",
            "recorded units per exported unit (1e9: ns as s; default 1)",
        ),
        (
            "classic_coarse_relative_error",
            "the classic buckets too, at this relative error",
        ),
        ("label.", "label.KEY=VALUE: a label of the series"),
    ],
    binary: true,
};

/// The re-binning options: schema, unit ratio and classic buckets.
fn native_options(options: &Options<'_>) -> Result<NativeOptions<'static>, ExportError> {
    let classic: f64 = options.parse("classic_coarse_relative_error", 0.0)?;
    Ok(NativeOptions {
        schema: options.parse_or_auto("schema")?,
        unit_ratio: options.parse("unit_ratio", 1.0)?,
        classic: (classic != 0.0).then_some(Bounds::Coarse(classic)),
    })
}

/// The family of `histogram` with the name, help and labels of `options`, appended to `out`.
fn write_family(histogram: &NativeHistogram, options: &Options<'_>, out: Out<'_>) -> Written {
    let labels = options.with_prefix("label.");
    let metrics = [NativeMetric {
        labels: &labels,
        histogram,
    }];
    let family = NativeFamily {
        name: options.required("name")?,
        help: options.get("help").unwrap_or(""),
        metrics: &metrics,
    };
    Ok(family.write_delimited(out)?)
}

impl Export for PrometheusNative {
    fn about(&self) -> &'static About {
        &ABOUT
    }
    fn integer(&self, view: &View<'_, u64>, options: &Options<'_>, out: Out<'_>) -> Written {
        let histogram = NativeHistogram::from_view(view, &native_options(options)?)?;
        write_family(&histogram, options, out)
    }
    #[cfg(picollo_float)]
    fn float(&self, counts: &FloatCounts, options: &Options<'_>, out: Out<'_>) -> Written {
        let histogram = NativeHistogram::from_float(counts, &native_options(options)?)?;
        write_family(&histogram, options, out)
    }
}
