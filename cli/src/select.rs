//! Which intervals of an input a command uses: a tag and a time window in seconds after the
//! log's start, and the sum of what they pick.

use std::collections::BTreeSet;

use picollo::hdr::{Accumulator, Interval};
use picollo::Histogram;

use crate::error::Failure;
use crate::input::{Input, Intervals};

/// Which tags are selected.
#[derive(Clone, Debug, PartialEq)]
pub enum Tags {
    /// Untagged intervals only (HdrHistogram's log processor does the same without `-tag`).
    Untagged,
    /// Intervals with this tag.
    Only(String),
    /// Every interval, tagged or not.
    All,
}

impl Tags {
    /// `Only(tag)` when given, else `default`.
    pub fn from_arg(tag: Option<&str>, default: Tags) -> Tags {
        tag.map_or(default, |t| Tags::Only(t.to_string()))
    }

    fn matches(&self, tag: Option<&str>) -> bool {
        match self {
            Tags::Untagged => tag.is_none(),
            Tags::Only(t) => tag == Some(t.as_str()),
            Tags::All => true,
        }
    }
}

/// A tag selection and a window `[from, to)` of interval start times, in seconds after the
/// input's origin (see [`crate::input::Intervals::origin`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Filter {
    /// The tags.
    pub tags: Tags,
    /// Earliest start, inclusive.
    pub from: Option<f64>,
    /// Latest start, exclusive.
    pub to: Option<f64>,
}

impl Filter {
    /// Whether `interval` is selected, for an input whose times count from `origin`.
    ///
    /// The window is compared in absolute time (`origin + from`): an interval whose
    /// timestamp is written as exactly `from` seconds after a `StartTime` is then inside,
    /// whatever rounding the addition to the start time did (it did the same to both).
    pub fn matches(&self, interval: &Interval, origin: f64) -> bool {
        self.tags.matches(interval.tag.as_deref())
            && self.from.is_none_or(|f| interval.start >= origin + f)
            && self.to.is_none_or(|t| interval.start < origin + t)
    }

    /// `tag api, 10–20 s` (empty for untagged and no window): what a title says about the
    /// selection.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        match &self.tags {
            Tags::Only(t) => parts.push(format!("tag {t}")),
            Tags::All => parts.push("all tags".to_string()),
            Tags::Untagged => {}
        }
        if let Some(w) = self.describe_window() {
            parts.push(w);
        }
        parts.join(", ")
    }

    /// `10–20 s`, `from 10 s`, `until 20 s`, or `None` without a window.
    pub fn describe_window(&self) -> Option<String> {
        match (self.from, self.to) {
            (None, None) => None,
            (Some(f), None) => Some(format!("from {} s", seconds(f))),
            (None, Some(t)) => Some(format!("until {} s", seconds(t))),
            (Some(f), Some(t)) => Some(format!("{}–{} s", seconds(f), seconds(t))),
        }
    }
}

/// Seconds as short as they read: `10`, `2.5`, `0.125`.
pub fn seconds(s: f64) -> String {
    format!("{}", round_micros(s))
}

/// `s` rounded to the microsecond, so that `(1700000010.005 - 1700000000.0)` prints as
/// 10.005 rather than the 10.00499999… the subtraction gives.
pub fn round_micros(s: f64) -> f64 {
    (s * 1e6).round() / 1e6 + 0.0
}

/// `1 interval`, `6 intervals`.
pub fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The sum of an input's selected intervals.
pub struct Selected {
    /// The summed histogram.
    pub histogram: Histogram<u64, Vec<u64>>,
    /// How many intervals were added.
    pub intervals: usize,
    /// Earliest start and latest end, in seconds after the origin.
    pub span: (f64, f64),
}

/// Sum what `filter` picks from `input`; a [`Failure::no_data`] when it picks nothing.
pub fn sum(input: &Input, filter: &Filter) -> Result<Selected, Failure> {
    let mut acc = Accumulator::new();
    let walk = for_each_selected(input, filter, |_, interval, _| {
        acc.add_interval(&interval)
            .map_err(|e| Failure::format(format!("{}: line {}: {e}", input.name, interval.line)))
    })?;
    let (count, span) = (acc.intervals(), acc.time_span());
    match (acc.into_histogram(), span) {
        (Some(histogram), Some((start, end))) => Ok(Selected {
            histogram,
            intervals: count,
            span: (start - walk.origin, end - walk.origin),
        }),
        _ => Err(Failure::no_data(format!("{}: nothing to sum", input.name))),
    }
}

/// What a walk over an input learnt by its end.
pub struct Walk {
    /// The time `--from`/`--to` count from (see [`Intervals::origin`]; 0 for no interval).
    pub origin: f64,
    /// The log's `StartTime` and `BaseTime` headers.
    pub header_times: (Option<f64>, Option<f64>),
}

/// Reads every interval of `input` and calls `each(intervals, interval, origin)` for those
/// `filter` picks, in log order (`intervals` answers header questions mid-walk). When it
/// picks none: the no-data failure that says what the input has.
pub fn for_each_selected(
    input: &Input,
    filter: &Filter,
    mut each: impl FnMut(&Intervals<'_>, Interval, f64) -> Result<(), Failure>,
) -> Result<Walk, Failure> {
    let mut seen = Seen::default();
    let mut picked = false;
    let mut intervals = input.intervals();
    while let Some(interval) = intervals.next() {
        let interval = interval?;
        let origin = intervals.origin().expect("known once an interval is read");
        seen.note(&interval, origin);
        if filter.matches(&interval, origin) {
            picked = true;
            each(&intervals, interval, origin)?;
        }
    }
    if !picked {
        return Err(seen.nothing_selected(&input.name, filter));
    }
    Ok(Walk {
        origin: intervals.origin().unwrap_or(0.0),
        header_times: intervals.header_times(),
    })
}

/// What an input held, to say why a selection came out empty.
#[derive(Default)]
struct Seen {
    tags: BTreeSet<Option<String>>,
    span: Option<(f64, f64)>,
    total: usize,
}

impl Seen {
    /// Note one interval of an input whose times count from `origin`.
    fn note(&mut self, interval: &Interval, origin: f64) {
        self.tags.insert(interval.tag.clone());
        let (s, e) = (interval.start - origin, interval.end() - origin);
        self.span = Some(self.span.map_or((s, e), |(a, b)| (a.min(s), b.max(e))));
        self.total += 1;
    }

    /// The no-data failure for `name`: what was asked and what the input has.
    fn nothing_selected(&self, name: &str, filter: &Filter) -> Failure {
        if self.total == 0 {
            return Failure::no_data(format!("{name}: no intervals in the input"));
        }
        let tags: Vec<String> = self
            .tags
            .iter()
            .map(|t| t.clone().unwrap_or_else(|| "(untagged)".to_string()))
            .collect();
        let (s, e) = self.span.unwrap_or((0.0, 0.0));
        let asked = match &filter.tags {
            Tags::Untagged => "untagged intervals".to_string(),
            Tags::Only(t) => format!("intervals tagged {t}"),
            Tags::All => "intervals".to_string(),
        };
        let window = filter
            .describe_window()
            .map_or(String::new(), |w| format!(" starting {w}"));
        Failure::no_data(format!(
            "{name}: no {asked}{window} (the input has {}, tags: {}, spanning {}–{} s){}",
            plural(self.total, "interval"),
            tags.join(", "),
            seconds(s),
            seconds(e),
            self.tag_hint(filter)
        ))
    }

    /// Where only tagged intervals exist and none was asked for: which `--tag` to pass (a
    /// time tag, as `picollo bench` and the harness write them, where there is one).
    fn tag_hint(&self, filter: &Filter) -> String {
        let tagged = || self.tags.iter().flatten();
        let time = tagged().find(|t| t.ends_with(":time") || *t == "time");
        match (&filter.tags, time.or_else(|| tagged().next())) {
            (Tags::Untagged, Some(t)) => format!("; pass --tag {t} (or another tag above)"),
            _ => String::new(),
        }
    }
}
