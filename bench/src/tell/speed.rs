//! What the speed probe says in a verdict on runs apart: the machine's other speed where it
//! leaves the comparison not judged, and a note where the saved runs hold no probe.

use core::fmt::{self, Write};
use std::string::String;

use super::verdict_line::{grouped_pct, pct};
use crate::judge::probe::{Probes, Speed, PROBE_TOLERANCE};
use crate::judge::verdict::Comparison;

impl Comparison {
    /// What the probe said, where it was asked.
    fn speed(&self) -> Option<&Speed> {
        self.apart.as_ref()?.speed.as_ref()
    }

    /// The probes of a comparison whose machine ran at another speed than in the saved runs.
    pub(crate) fn moved(&self) -> Option<Probes> {
        match self.speed()? {
            Speed::Moved(p) => Some(*p),
            _ => None,
        }
    }

    /// `; no speed probe saved with these runs (…)` where the rule could not apply, else
    /// nothing.
    pub(crate) fn speed_note(&self) -> String {
        match self.speed() {
            Some(Speed::Unprobed) => "; no speed probe saved with these runs (an older picollo's \
                                      file): another speed of the machine is not caught"
                .into(),
            _ => String::new(),
        }
    }

    /// The verdict line of a comparison not judged for the machine's speed: `verdict: not
    /// judged: B against A, the machine ran slower than in the saved runs: the speed probe
    /// took 98.0 % more time (321.6 µs against 162.4–162.5 µs; from 10 % outside their
    /// range a comparison is not judged); save runs that span the machine's states, or
    /// compare with --against. Measured: +99.10 % [78.2 %, 122.4 %] (99 %, 3 runs apart)`.
    pub(crate) fn write_moved(&self, w: &mut dyn Write, p: &Probes) -> fmt::Result {
        let (a, b, c) = (&self.a, &self.b, &self.change);
        let r = p.ratio();
        let (way, by, more) = match r > 1.0 {
            true => ("slower", (r - 1.0) * 100.0, "more"),
            false => ("faster", (1.0 - r) * 100.0, "less"),
        };
        let runs = self.apart.as_ref().map_or(0, |x| x.runs);
        write!(
            w,
            "verdict: not judged: {b} against {a}, the machine ran {way} than in the saved \
             runs: the speed probe took {} {more} time ({}; from {PROBE_TOLERANCE:.0} % \
             outside their range a comparison is not judged); save runs that span the \
             machine's states, or compare with --against. Measured: {:+.2} % [{}, {}] (99 %, \
             {runs} runs apart)",
            pct(by),
            probes_text(p),
            c.estimate,
            grouped_pct(c.low),
            grouped_pct(c.high)
        )
    }

    /// The method's sentence on the probe, where it was asked: ` The speed probe took
    /// 162.4 µs against the saved runs' 162.4–162.5 µs (within 10 % of their range).`
    pub(crate) fn write_speed_method(&self, w: &mut dyn Write) -> fmt::Result {
        let (p, within) = match self.speed() {
            Some(Speed::Steady(p)) => (p, "within"),
            Some(Speed::Moved(p)) => (p, "beyond"),
            Some(Speed::Unprobed) => {
                return write!(w, " The saved runs hold no speed probe: the machine's speed in this run is not checked against theirs.")
            }
            None => return Ok(()),
        };
        write!(
            w,
            " The speed probe, a fixed chain of dependent integer steps timed around the \
             benchmark: {} ({within} {PROBE_TOLERANCE:.0} % of the saved runs' range).",
            probes_text(p)
        )
    }
}

/// `321.6 µs against 162.4–162.5 µs` (one figure where the saved probes agree to 0.1 µs).
fn probes_text(p: &Probes) -> String {
    let (new, low, high) = (p.new / 1e3, p.low / 1e3, p.high / 1e3);
    match std::format!("{low:.1}") == std::format!("{high:.1}") {
        true => std::format!("{new:.1} µs against {low:.1} µs"),
        false => std::format!("{new:.1} µs against {low:.1}–{high:.1} µs"),
    }
}
