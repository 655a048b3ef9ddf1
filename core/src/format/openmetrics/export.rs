//! The OpenMetrics text of one histogram as an export format (`openmetrics`): one family with
//! one point, then `# EOF`, as `picollo_histogram_openmetrics` writes it.

use alloc::string::String;

use super::STANDARD_QUANTILES;
use super::{Bounds, Family, HistogramOptions, OpenMetricsError, OpenMetricsWriter};
use crate::format::export::{About, Export, ExportError, ExportErrorKind, Options, Out, Written};
use crate::View;

/// One histogram as an OpenMetrics exposition.
pub(crate) struct OpenMetrics;

static ABOUT: About = About {
    name: "openmetrics",
    description: "the OpenMetrics text exposition: one family with one point, then # EOF",
    options: &[
        (
            "name",
            "the family name (required; with a unit it ends with _<unit>)",
        ),
        ("help", "the # HELP text (default: none)"),
        ("unit", "the # UNIT, e.g. seconds (default: none)"),
        (
            "unit_ratio",
            "recorded units per exported unit (1e9: ns as s; default 1)",
        ),
        (
            "summary",
            "true: a summary of the standard quantiles (default false: histogram)",
        ),
        (
            "bounds",
            "the le bounds in recorded units, increasing, comma-separated",
        ),
        (
            "coarse_relative_error",
            "the relative error of derived bounds (default 0.05)",
        ),
        (
            "created_unix_nanos",
            "the point's _created, ns since the Unix epoch (default 0: none)",
        ),
        ("label.", "label.KEY=VALUE: a label of the point"),
    ],
    binary: false,
};

/// An OpenMetrics failure as an export error naming the family: a failed write is
/// `Unencodable`, everything else an option OpenMetrics refuses.
fn om_error(e: OpenMetricsError, name: &str) -> ExportError {
    let kind = match e {
        OpenMetricsError::Write => ExportErrorKind::Unencodable,
        _ => ExportErrorKind::InvalidOption,
    };
    ExportError::new(kind, alloc::format!("family {name:?}: {e}"))
}

impl Export for OpenMetrics {
    fn about(&self) -> &'static About {
        &ABOUT
    }
    fn integer(&self, view: &View<'_, u64>, options: &Options<'_>, out: Out<'_>) -> Written {
        let family = Family {
            name: options.required("name")?,
            help: options.get("help").unwrap_or(""),
            unit: options.get("unit").unwrap_or(""),
        };
        let explicit = options.parse_list::<u64>("bounds")?;
        let bounds = match explicit.is_empty() {
            true => Bounds::Coarse(options.parse("coarse_relative_error", 0.05)?),
            false => Bounds::Explicit(&explicit),
        };
        let created: u64 = options.parse("created_unix_nanos", 0)?;
        let histogram = HistogramOptions {
            bounds,
            unit_ratio: options.parse("unit_ratio", 1.0)?,
            created_unix_nanos: (created != 0).then_some(created),
        };
        let labels = options.with_prefix("label.");
        let fail = |e| om_error(e, family.name);
        let mut w = OpenMetricsWriter::new(String::new());
        let mut f = match options.parse("summary", false)? {
            false => w.histogram(&family, &histogram),
            true => w.summary(&family, &STANDARD_QUANTILES, &histogram),
        }
        .map_err(fail)?;
        f.point(&labels, view).map_err(fail)?;
        out.extend_from_slice(w.finish().map_err(fail)?.as_bytes());
        Ok(())
    }
}
