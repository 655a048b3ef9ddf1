//! `picollo bench` in CI: `--export FORMAT=PATH` writes the run in a format another tool
//! reads (Bencher's, github-action-benchmark's, Google Benchmark's, or Picollo's JSON
//! document), and `--summary PATH` the Markdown summary a CI job shows; where the
//! environment names `GITHUB_STEP_SUMMARY`, the summary is appended to that file too. The
//! flags are a suite's as well ([`picollo_bench::flags::CiFlags`]), and each format, and
//! where it goes, is the harness's ([`picollo_bench::export`]).

use picollo_bench::export::Findings;
use picollo_bench::flags::CiFlags;

use crate::error::Failure;

/// Refuse, before any run, an output that cannot be written: each export's file and the
/// summary's are created (emptied), the step summary is opened to append (kept).
pub fn check(ci: &CiFlags) -> Result<(), Failure> {
    ci.outputs().check().map_err(Failure::output)
}

/// Every export and the summary of `suite`, as `ci` asks.
pub fn write(findings: &Findings<'_>, ci: &CiFlags) -> Result<(), Failure> {
    ci.outputs().write(findings).map_err(Failure::output)
}
