//! A comparison's verdict in words: the `verdict:` line (time's, or another metric's, judged
//! on the rounds, on runs apart, with builds as the unit, or exactly), and the method that
//! reached it.

use core::fmt::{self, Write};

use super::report::Shown;
use crate::judge::apart::{NOISE_FLOOR_BOUND, RUNS_APART_NEEDED};
use crate::judge::shift::{rounds_needed, Design};
use crate::judge::verdict::{Apart, Comparison, Steady, Verdict};
use crate::measure::meter::MetricKind;
use crate::measure::throughput::Throughput;
use std::string::String;

/// `p` percent with one decimal, or two below 1 (a noise floor of 0.04 %).
pub(crate) fn pct(p: f64) -> String {
    match p.abs() < 1.0 {
        true => std::format!("{p:.2} %"),
        false => std::format!("{p:.1} %"),
    }
}

/// `p` percent with thousands grouped, for a noise floor that can reach thousands
/// (`3,613 %`); below 1,000 as [`pct`].
pub(crate) fn grouped_pct(p: f64) -> String {
    if !p.is_finite() || p.abs() < 1000.0 {
        return pct(p);
    }
    if p.abs() >= 1e7 {
        return std::format!("{p:.1e} %");
    }
    std::format!("{} %", picollo::GroupedF64(p, 0))
}

/// `[lo %, hi %]`.
fn interval(lo: f64, hi: f64) -> String {
    std::format!("[{}, {}]", pct(lo), pct(hi))
}

impl Comparison {
    /// The verdict line: `verdict: B is slower than A by 5.2 % [3.9 %, 6.6 %], noise floor
    /// 1.1 % (99 % confidence)`, `… faster …`, `verdict: B is within noise of A: …`,
    /// `verdict: no difference between A and B: …` or `verdict: not enough rounds …`; then
    /// the caveat of a side whose time is floored or below its resolution (` [A: time
    /// floored 21.4 %]`).
    pub fn write_verdict(&self, w: &mut dyn Write) -> fmt::Result {
        self.write_verdict_words(w)?;
        w.write_str(&self.caveat)
    }

    /// The line below the verdict on the work of an operation: both sides' rates,
    /// `  throughput at P50: A 1.21 GB/s, B 1.19 GB/s`, or where the two declare different
    /// work, `  throughput not compared: A declares 100 elements an operation, B declares
    /// 1000 elements an operation (the verdict is on time)`; nothing where neither declares
    /// any.
    pub fn write_rates_line(&self, w: &mut dyn Write) -> fmt::Result {
        let (a, b) = (&self.a, &self.b);
        if let Some((ra, rb)) = self.rates {
            return writeln!(w, "  throughput at P50: {a} {ra}, {b} {rb}");
        }
        let Some((ta, tb)) = self.throughput_differs else {
            return Ok(());
        };
        let declared = |t: Option<Throughput>| match t {
            Some(t) => std::format!("{t} an operation"),
            None => "no throughput".into(),
        };
        let (ta, tb) = (declared(ta), declared(tb));
        writeln!(
            w,
            "  throughput not compared: {a} declares {ta}, {b} declares {tb} (the verdict is on time)"
        )
    }

    /// The verdict line without its caveat.
    fn write_verdict_words(&self, w: &mut dyn Write) -> fmt::Result {
        let (a, b, c) = (&self.a, &self.b, &self.change);
        let (tail, of) = (self.verdict_tail(), self.of_metric());
        match self.verdict {
            Verdict::Faster(p) => {
                let i = interval(-c.high, -c.low);
                let than = self.more_than(false);
                write!(w, "verdict: {b} {than} {a} by {} {i}{tail}", pct(p))
            }
            Verdict::Slower(p) => {
                let i = interval(c.low, c.high);
                let than = self.more_than(true);
                write!(w, "verdict: {b} {than} {a} by {} {i}{tail}", pct(p))
            }
            Verdict::WithinNoise(p) => write!(
                w,
                "verdict: {b} is within noise of {a}{of}: {p:+.2} % {}, below the {} \
                 threshold{tail}",
                interval(c.low, c.high),
                pct(self.threshold)
            ),
            Verdict::NoDifference => write!(
                w,
                "verdict: no difference between {a} and {b}{of}: {:+.2} % {}{tail}",
                c.estimate,
                interval(c.low, c.high)
            ),
            Verdict::NotEnoughRounds => self.write_not_enough_rounds(w),
            Verdict::NotEnoughRunsApart => self.write_not_enough_apart(w),
            Verdict::NotJudged => self.write_not_judged(w),
            Verdict::NotSettled => self.write_not_settled(w),
        }
    }

    /// The verdict line of [`Verdict::NotSettled`]: `verdict: not settled in 4.8 s: B
    /// against A, this run could see changes of 6.2 % or more: +1.20 % [-3.4 %, 6.0 %];
    /// layout not sampled, noise floor 2.1 % (99 %, 6 processes a side)`.
    fn write_not_settled(&self, w: &mut dyn Write) -> fmt::Result {
        let (a, b, c) = (&self.a, &self.b, &self.change);
        let seconds = self.looks.map_or(f64::NAN, |l| l.seconds);
        write!(
            w,
            "verdict: not settled in {seconds:.1} s: {b} against {a}{}, this run could see \
             changes of {} or more: {:+.2} % {}{}",
            self.of_metric(),
            pct(crate::judge::sequential::could_see(self)),
            c.estimate,
            interval(c.low, c.high),
            self.verdict_tail()
        )
    }

    /// The verdict line of [`Verdict::NotJudged`]: `verdict: not judged: B against A, the
    /// saved runs spread 2.1× (noise floor 3,613 %, from 100 % a comparison is not judged);
    /// save runs that span the machine's states, or compare with --against. Measured:
    /// +3.20 % [-95.1 %, 3,712.4 %] (99 %, 3 runs apart)`.
    fn write_not_judged(&self, w: &mut dyn Write) -> fmt::Result {
        if let Some(p) = self.moved() {
            return self.write_moved(w, &p);
        }
        let (a, b, c) = (&self.a, &self.b, &self.change);
        let (runs, range, floor) = self
            .apart
            .as_ref()
            .map_or((0, f64::NAN, f64::NAN), |x| (x.runs, x.range, x.floor));
        let units = match &self.builds {
            Some(x) => std::format!("{} a side, ", x.units()),
            None => String::new(),
        };
        write!(
            w,
            "verdict: not judged: {b} against {a}{}, the saved runs spread {range:.1}× (noise \
             floor {}, from {NOISE_FLOOR_BOUND:.0} % a comparison is not judged); save runs \
             that span the machine's states, or compare with --against. Measured: {:+.2} % \
             [{}, {}] (99 %, {units}{runs} runs apart)",
            self.of_metric(),
            grouped_pct(floor),
            c.estimate,
            grouped_pct(c.low),
            grouped_pct(c.high)
        )
    }

    /// The judged metric is time (said without naming it).
    fn on_time(&self) -> bool {
        self.metric.kind == MetricKind::Time
    }

    /// ` in Hardware:Instructions` where the verdict judges a metric other than time.
    fn of_metric(&self) -> String {
        match self.on_time() {
            true => String::new(),
            false => std::format!(" in {}", self.metric.name),
        }
    }

    /// `is slower than` / `is faster than`, or for another metric `counts more
    /// Hardware:Instructions than` / `counts fewer … than`.
    fn more_than(&self, more: bool) -> String {
        match (self.on_time(), more) {
            (true, true) => "is slower than".into(),
            (true, false) => "is faster than".into(),
            (false, true) => std::format!("counts more {} than", self.metric.name),
            (false, false) => std::format!("counts fewer {} than", self.metric.name),
        }
    }

    /// One figure of the judged metric as the method names it: `time`, or `figure of NAME`.
    fn figure(&self) -> String {
        match self.on_time() {
            true => "time".into(),
            false => std::format!("figure of {}", self.metric.name),
        }
    }

    /// The judged metric's figures as the method names them: `times`, or `figures of NAME`.
    fn figures(&self) -> String {
        match self.on_time() {
            true => "times".into(),
            false => std::format!("figures of {}", self.metric.name),
        }
    }

    /// The verdict line of [`Verdict::NotEnoughRounds`].
    fn write_not_enough_rounds(&self, w: &mut dyn Write) -> fmt::Result {
        let (a, b, of) = (&self.a, &self.b, self.of_metric());
        let (ra, rb) = self.rounds;
        if let Some(s) = &self.steady {
            let (fa, fb) = s.figures;
            return write!(
                w,
                "verdict: not enough figures to judge {b} against {a}{of}: {fa} and {fb}, \
                 where the bounds of B − A hold at 99 % from {} a side",
                rounds_needed(Design::Unpaired)
            );
        }
        write!(
            w,
            "verdict: not enough rounds to judge {b} against {a}{of}: {ra} and {rb}, where 99 % \
             confidence needs {} interleaved or {} a side measured apart",
            rounds_needed(Design::Paired),
            rounds_needed(Design::Unpaired)
        )
    }

    /// The verdict line of [`Verdict::NotEnoughRunsApart`].
    fn write_not_enough_apart(&self, w: &mut dyn Write) -> fmt::Result {
        let (a, b, c) = (&self.a, &self.b, &self.change);
        match &self.apart {
            Some(apart) if apart.floored => write!(
                w,
                "verdict: nothing to judge {b} against {a}: a run's median was floored at 0 \
                 (what was subtracted exceeded what it measured), and a change from 0 has no \
                 size"
            ),
            Some(apart) => write!(
                w,
                "verdict: not enough runs apart to judge {b} against {a}: the baseline \
                 holds {} and the spread between runs needs {}",
                apart.runs, RUNS_APART_NEEDED
            ),
            None => write!(
                w,
                "verdict: not enough runs apart to judge {b} against {a}: measured apart, \
                 {:+.2} % {} within their rounds, which do not hold what changes between \
                 runs; interleave them, or judge on runs apart",
                c.estimate,
                interval(c.low, c.high)
            ),
        }
    }

    /// The end of a verdict line: `, noise floor 1.1 % (99 % confidence)`, or with builds as
    /// the unit `; layout spread ±3.2 %, noise floor 0.4 % (99 %, 6 builds a side)`.
    /// Judged exactly: `, noise floor 0.01 % (exact within read jitter: B − A = +1,234
    /// [+1,232, +1,236] per run)`.
    fn verdict_tail(&self) -> String {
        let looked = match self.looks {
            Some(l) if l.settled => {
                std::format!(
                    ", settled at look {} of {} ({:.1} s)",
                    l.taken,
                    l.of,
                    l.seconds
                )
            }
            _ => String::new(),
        };
        self.method_tail() + &looked + &self.speed_note()
    }

    /// How the verdict was reached: its noise floor and confidence, the units of builds.
    fn method_tail(&self) -> String {
        if let Some(s) = &self.steady {
            return std::format!(
                ", noise floor {} (exact within read jitter: B − A = {} per {})",
                pct(self.noise_floor),
                self.difference(s),
                self.operation
            );
        }
        match &self.builds {
            None => std::format!(", noise floor {} (99 % confidence)", pct(self.noise_floor)),
            Some(x) => std::format!(
                "; {}, noise floor {} (99 %, {} a side{})",
                x.layout_words(),
                pct(x.noise_floor),
                x.units(),
                match &self.apart {
                    Some(apart) => std::format!(", {} runs apart", apart.runs),
                    None => String::new(),
                }
            ),
        }
    }

    /// How the judged metric's figures are shown: whole counts as whole numbers.
    fn shown(&self, s: &Steady) -> Shown {
        let diff = self.metrics.iter().find(|d| d.name == self.metric.name);
        let whole = diff.is_some_and(|d| d.whole);
        Shown::new(self.metric.unit, s.median.abs(), whole)
    }

    /// `+1,234 [+1,232, +1,236]`: B − A and its bounds, in the metric's unit.
    fn difference(&self, s: &Steady) -> String {
        let shown = self.shown(s);
        let signed = |x: f64| match x {
            x if x > 0.0 => std::format!("+{}", shown.show(x)),
            x if x < 0.0 => std::format!("-{}", shown.show(-x)),
            _ => "0".into(),
        };
        let d = &s.difference;
        std::format!(
            "{} [{}, {}]",
            signed(d.estimate),
            signed(d.low),
            signed(d.high)
        )
    }

    /// The method of a metric judged exactly ([`Comparison::steady`]).
    fn write_steady_method(&self, w: &mut dyn Write, s: &Steady) -> fmt::Result {
        let (a, b, m) = (&self.a, &self.b, &self.metric.name);
        let (fa, fb) = s.figures;
        let (jitter, holds) = match self.metric.is_exact() {
            true => (
                "none, an exact count".into(),
                "which holds without statistics".into(),
            ),
            false => (
                std::format!(
                    "{} counts or {} % of the median, whichever is wider",
                    crate::rules::JITTER_COUNTS,
                    crate::rules::JITTER_RELATIVE * 100.0
                ),
                std::format!(
                    "which holds at 99 % from {} figures a side (under no change, chance puts \
                     every figure of one side beyond every figure of the other less than once \
                     in a hundred)",
                    rounds_needed(Design::Unpaired)
                ),
            ),
        };
        let shown = self.shown(s);
        write!(
            w,
            "Method: exact within read jitter: the figures of {m} ({fa} of {a}, {fb} of {b}) \
             spread on each side no more than its read jitter ({jitter}; they spread {} and \
             {}), so B − A is the difference of their medians, bounded by the least and the \
             largest difference of a figure of {b} and one of {a}, {holds}; in percent of \
             {a}'s median.",
            shown.show(s.spread.0),
            shown.show(s.spread.1),
        )
    }

    /// How the verdict was reached: the rounds, their design and the test.
    pub fn write_method(&self, w: &mut dyn Write) -> fmt::Result {
        let (a, b) = (&self.a, &self.b);
        let (ra, rb, figures) = (self.rounds.0, self.rounds.1, self.figures());
        if let Some(s) = &self.steady {
            return self.write_steady_method(w, s);
        }
        if let (Some(apart), Some(builds)) = (&self.apart, &self.builds) {
            return self.write_apart_builds_method(w, apart, builds.per_side);
        }
        if let Some(apart) = &self.apart {
            self.write_apart_method(w, apart)?;
            return match self.metrics.is_empty() {
                true => Ok(()),
                false => write!(w, " The table above compares the two runs' rounds."),
            };
        }
        if let Some(builds) = &self.builds {
            return self.write_builds_method(w, builds.per_side);
        }
        let time = match self.on_time() {
            true => "time".into(),
            false => self.metric.name.clone(),
        };
        match self.design {
            Design::Paired => write!(
                w,
                "Method: {ra} interleaved rounds, {a} and {b} back to back in a random order \
                 in each; the Wilcoxon signed-rank test on each round's difference of median \
                 {time}, the Hodges–Lehmann estimate and its 99 % interval, in percent of \
                 {a}'s median round."
            ),
            Design::Unpaired => write!(
                w,
                "Method: {ra} rounds of {a} and {rb} of {b}, measured apart; the \
                 Mann–Whitney test on the rounds' median {figures}, the Hodges–Lehmann estimate \
                 and its 99 % interval, in percent of {a}'s median round. The interval holds \
                 the spread between rounds, not a change of the machine between the two \
                 measurements."
            ),
        }
    }
}

impl Comparison {
    /// The method of a verdict judged with builds as the unit.
    fn write_builds_method(&self, w: &mut dyn Write, k: usize) -> fmt::Result {
        let (a, b, figures) = (&self.a, &self.b, self.figures());
        write!(
            w,
            "Method: builds as the unit: {k} builds of {a} and {k} of {b} (one source each, \
         different code layouts), every build in every interleaved round. Each build's figure \
         is the median of its log round {figures} less each round's mean over all builds; the \
         two sides' mean figures differ by the change, with Student's t interval on the \
         spread of the figures inside each side ({} degrees of freedom), which holds what \
         layout moves, not only the rounds' noise. The layout spread is the spread between \
         builds of one side beyond that noise; the noise floor, the interval the noise alone \
         would leave. The table above pools each side's builds round against round.",
            2 * k - 2
        )
    }

    /// The method of a verdict judged on runs apart with builds as the unit.
    fn write_apart_builds_method(&self, w: &mut dyn Write, apart: &Apart, k: usize) -> fmt::Result {
        let (a, b, figure) = (&self.a, &self.b, self.figure());
        write!(
        w,
        "Method: runs apart and builds as the units: the mean log median {figure} of {b}'s {k} \
         builds against that of {a}'s {k} builds in each of the {} runs apart it was saved \
         from; the interval adds the spread between those runs (one more run, as a \
         prediction) and the spread between the saved builds (new layouts on both sides), \
         with Welch–Satterthwaite's degrees of freedom. The layout spread is the spread \
         between the saved builds' mean times; the noise floor, the interval the runs \
         apart alone would leave. The table above compares the two measurements' rounds, \
         builds pooled.",
        apart.runs
    )
    }

    /// The method of a verdict judged on runs apart.
    fn write_apart_method(&self, w: &mut dyn Write, apart: &Apart) -> fmt::Result {
        let (a, b) = (&self.a, &self.b);
        let (figure, figures) = (self.figure(), self.figures());
        write!(
            w,
            "Method: runs apart as the unit: {b}'s median round {figure} against the median round \
         {figures} of {} runs apart of {a} (their spread between runs ",
            apart.runs
        )?;
        match apart.spread.is_finite() {
            true => write!(w, "{}", pct(apart.spread))?,
            false => write!(w, "unknown")?,
        }
        write!(
            w,
            "); the 99 % prediction interval of one more run (Student's t on the log medians), \
         which holds what changes between processes and moments, not only the spread \
         between the rounds of one run."
        )?;
        self.write_speed_method(w)
    }
}
