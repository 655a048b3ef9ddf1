//! The forms of one result, each a [`BenchResult`] writer behind the table of formats: the
//! report (`report`), every metric's summary (`summaries`), the result's JSON (`json`), the
//! HdrHistogram interval log (`log`), one line (`line`) and one HTML page (`html`). Each
//! writes the one measured benchmark of its findings ([`Findings::to_text`] refuses another count).

use core::fmt::{self, Write};

use super::{Findings, ResultFormat, Scope};
use crate::measure::result::BenchResult;

/// The one measured result of `findings`; an error where it holds another count.
fn only<'a>(findings: &Findings<'a>) -> Result<&'a BenchResult, fmt::Error> {
    match findings.measured().as_slice() {
        [(_, r)] => Ok(*r),
        _ => Err(fmt::Error),
    }
}

/// The report: conditions and warnings, a Markdown row per metric, tail attribution.
pub struct ReportForm;

impl ResultFormat for ReportForm {
    fn name(&self) -> &'static str {
        "report"
    }

    fn title(&self) -> &'static str {
        "the report: conditions, a Markdown row per metric, tail attribution"
    }

    fn scope(&self) -> Scope {
        Scope::Result
    }

    fn write(&self, findings: &Findings<'_>, w: &mut dyn Write) -> fmt::Result {
        only(findings)?.write_report(w)
    }
}

/// Every metric's full Markdown summary.
pub struct SummariesForm;

impl ResultFormat for SummariesForm {
    fn name(&self) -> &'static str {
        "summaries"
    }

    fn title(&self) -> &'static str {
        "every metric's full Markdown summary"
    }

    fn scope(&self) -> Scope {
        Scope::Result
    }

    fn write(&self, findings: &Findings<'_>, w: &mut dyn Write) -> fmt::Result {
        only(findings)?.write_summaries(w)
    }
}

/// The result's JSON object (values in thousandths of each unit, `"scale": 1000`).
pub struct JsonForm;

impl ResultFormat for JsonForm {
    fn name(&self) -> &'static str {
        "json"
    }

    fn title(&self) -> &'static str {
        "the result's JSON (values in thousandths of each unit)"
    }

    fn scope(&self) -> Scope {
        Scope::Result
    }

    fn write(&self, findings: &Findings<'_>, w: &mut dyn Write) -> fmt::Result {
        only(findings)?.write_json(w)
    }
}

/// An HdrHistogram interval log, one interval per metric tagged with its name.
pub struct LogForm;

impl ResultFormat for LogForm {
    fn name(&self) -> &'static str {
        "log"
    }

    fn title(&self) -> &'static str {
        "an HdrHistogram interval log, one interval per metric"
    }

    fn scope(&self) -> Scope {
        Scope::Result
    }

    fn write(&self, findings: &Findings<'_>, w: &mut dyn Write) -> fmt::Result {
        only(findings)?.write_log(w).map_err(|_| fmt::Error)
    }
}

/// One line: the time's P50, P99 and mean with its 95 % interval, batch, samples.
pub struct LineForm;

impl ResultFormat for LineForm {
    fn name(&self) -> &'static str {
        "line"
    }

    fn title(&self) -> &'static str {
        "one line: the time's P50, P99 and mean"
    }

    fn scope(&self) -> Scope {
        Scope::Result
    }

    fn write(&self, findings: &Findings<'_>, w: &mut dyn Write) -> fmt::Result {
        only(findings)?.write_line(w)
    }
}

/// One self-contained HTML page (inline SVG and CSS, nothing fetched).
pub struct HtmlForm;

impl ResultFormat for HtmlForm {
    fn name(&self) -> &'static str {
        "html"
    }

    fn title(&self) -> &'static str {
        "one self-contained HTML page"
    }

    fn scope(&self) -> Scope {
        Scope::Result
    }

    fn write(&self, findings: &Findings<'_>, w: &mut dyn Write) -> fmt::Result {
        only(findings)?.write_html(w)
    }
}
