//! The metrics by exposition name: each family's kind (and histogram layout), its series by
//! label set, and the cells the `metrics` handles write. Registration takes a lock; a
//! handle's record never does.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use metrics::{CounterFn, GaugeFn, HistogramFn, Key};
use picollo::concurrent::ConcurrentHistogram;
use picollo::float::FloatHistogram;

use crate::layout::{Layout, Layouts, Matcher};

/// A label set as exposed: names made valid, values as given.
pub(crate) type Labels = Vec<(String, String)>;

/// A counter: a `u64` total (`absolute` only raises it).
#[derive(Debug, Default)]
pub(crate) struct CounterCell(pub(crate) AtomicU64);

impl CounterFn for CounterCell {
    fn increment(&self, value: u64) {
        self.0.fetch_add(value, Ordering::Relaxed);
    }

    fn absolute(&self, value: u64) {
        self.0.fetch_max(value, Ordering::Relaxed);
    }
}

/// A gauge: the bits of an `f64`, changed by compare-and-swap.
#[derive(Debug, Default)]
pub(crate) struct GaugeCell(pub(crate) AtomicU64);

impl GaugeCell {
    pub(crate) fn value(&self) -> f64 {
        f64::from_bits(self.0.load(Ordering::Relaxed))
    }

    fn add(&self, delta: f64) {
        let step = |bits: u64| Some((f64::from_bits(bits) + delta).to_bits());
        // `step` always answers, so the update cannot fail.
        let _ = self
            .0
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, step);
    }
}

impl GaugeFn for GaugeCell {
    fn increment(&self, value: f64) {
        self.add(value);
    }

    fn decrement(&self, value: f64) {
        self.add(-value);
    }

    fn set(&self, value: f64) {
        self.0.store(value.to_bits(), Ordering::Relaxed);
    }
}

/// A histogram: Picollo's double histogram (the facade records `f64`), or its integer
/// histogram over the values times a ratio.
///
/// Each lives in an `Arc` of its own, so the variants' sizes do not matter; boxing the
/// double histogram would add a pointer hop to its every record.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
pub(crate) enum HistogramCell {
    Doubles(FloatHistogram<u64>),
    Integers {
        h: ConcurrentHistogram<u64>,
        ratio: f64,
    },
}

/// `value × ratio` rounded to the nearest integer; negative values and NaN give 0, values
/// beyond `u64` its largest (Rust's saturating cast).
fn scaled(value: f64, ratio: f64) -> u64 {
    (value * ratio + 0.5) as u64
}

impl HistogramFn for HistogramCell {
    fn record(&self, value: f64) {
        match self {
            HistogramCell::Doubles(h) => h.record(value),
            HistogramCell::Integers { h, ratio } => h.record(scaled(value, *ratio)),
        }
    }

    fn record_many(&self, value: f64, count: usize) {
        match self {
            HistogramCell::Doubles(h) => h.record_n(value, count as u64),
            HistogramCell::Integers { h, ratio } => h.record_n(scaled(value, *ratio), count as u64),
        }
    }
}

/// What a family holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Kind {
    Counter,
    Gauge,
    Histogram(Layout),
}

impl Kind {
    fn word(&self) -> &'static str {
        match self {
            Kind::Counter => "counter",
            Kind::Gauge => "gauge",
            Kind::Histogram(_) => "histogram",
        }
    }
}

/// One series' cell, shared with the handles the facade gave out.
#[derive(Clone, Debug)]
pub(crate) enum Cell {
    Counter(Arc<CounterCell>),
    Gauge(Arc<GaugeCell>),
    Histogram(Arc<HistogramCell>),
}

impl Cell {
    fn kind_word(&self) -> &'static str {
        match self {
            Cell::Counter(_) => "counter",
            Cell::Gauge(_) => "gauge",
            Cell::Histogram(_) => "histogram",
        }
    }

    fn new(kind: Kind) -> Self {
        match kind {
            Kind::Counter => Cell::Counter(Arc::default()),
            Kind::Gauge => Cell::Gauge(Arc::default()),
            Kind::Histogram(l) => Cell::Histogram(Arc::new(l.histogram())),
        }
    }
}

/// A metric family: its kind and its series in registration order.
#[derive(Debug)]
pub(crate) struct Family {
    pub(crate) kind: Kind,
    pub(crate) series: Vec<(Labels, Cell)>,
    index: HashMap<Labels, usize>,
}

/// A family as a scrape sees it: copied out of the registry under its lock (the cells are
/// shared, so their counts are read after the lock is released).
#[derive(Debug)]
pub(crate) struct FamilyCopy {
    pub(crate) name: String,
    pub(crate) help: String,
    pub(crate) kind: Kind,
    pub(crate) series: Vec<(Labels, Cell)>,
}

/// A registration the recorder could not honour as asked, reported once per name and
/// kind of conflict (on standard error when first seen, and by
/// [`PicolloHandle::conflicts`](crate::PicolloHandle::conflicts)). Nothing panics: the
/// metric keeps working as described by each variant.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Conflict {
    /// A histogram name matched by matchers with different layouts: the layout of the
    /// [`Matcher::Full`] or else the first matcher given is used.
    AmbiguousLayout {
        /// The name as given to the facade.
        name: String,
        /// The layout its histograms have.
        used: Layout,
        /// The other matchers that match it.
        others: Vec<Matcher>,
    },
    /// A name registered as one kind, then as another: the later handles do nothing.
    KindMismatch {
        /// The exposed name.
        name: String,
        /// The kind it was registered as first.
        first: &'static str,
        /// The kind asked for later.
        then: &'static str,
    },
    /// A name the exposition cannot carry (a histogram named `x_count`, a label name that
    /// stays invalid): the family is left out of scrapes.
    InvalidName {
        /// The exposed name.
        name: String,
    },
    /// Two names exposed as one (`a.b` and `a_b`) whose layouts differ: every series
    /// records into the first one's layout.
    LayoutMismatch {
        /// The name as given to the facade.
        name: String,
        /// The layout its histograms have.
        used: Layout,
        /// The layout its matchers give it.
        wanted: Layout,
    },
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::AmbiguousLayout { name, used, others } => write!(
                f,
                "histogram `{name}` is matched by layouts that differ: using {used:?}, not those of {others:?}"
            ),
            Self::KindMismatch { name, first, then } => write!(
                f,
                "`{name}` is a {first} and cannot also be a {then}: the {then} records nothing"
            ),
            Self::InvalidName { name } => write!(
                f,
                "`{name}` cannot be exposed (a suffix of another kind's samples, or a bad label name): left out"
            ),
            Self::LayoutMismatch { name, used, wanted } => write!(
                f,
                "histogram `{name}` is exposed under a name that has layout {used:?}: recording there, not in {wanted:?}"
            ),
        }
    }
}

impl std::error::Error for Conflict {}

/// Every family by exposed name, the layouts, the help texts and the conflicts seen.
#[derive(Debug, Default)]
pub(crate) struct Registry {
    families: RwLock<BTreeMap<String, Family>>,
    /// Every series by the facade's own key, so that a registration already made (each
    /// `histogram!(…)` evaluated registers) is one hash lookup, with no name or label
    /// rewritten.
    by_key: RwLock<HashMap<Key, Cell>>,
    pub(crate) layouts: Layouts,
    help: Mutex<HashMap<String, String>>,
    conflicts: Mutex<Vec<Conflict>>,
    /// How many clears there have been (changed under both locks).
    clears: AtomicU64,
}

impl Registry {
    pub(crate) fn new(layouts: Layouts) -> Self {
        Registry {
            layouts,
            ..Default::default()
        }
    }

    /// The cell of `key` as a `want` (a histogram's layout found here), made on first use;
    /// `None` when the name is another kind already (reported as a conflict).
    pub(crate) fn register(&self, key: &Key, want: Kind) -> Option<Cell> {
        loop {
            let by_key = self.by_key.read().unwrap_or_else(|e| e.into_inner());
            if let Some(cell) = by_key.get(key).filter(|c| c.kind_word() == want.word()) {
                return Some(cell.clone());
            }
            drop(by_key);
            let clears = self.clears.load(Ordering::Acquire);
            let cell = self.register_new(key, want)?;
            let mut by_key = self.by_key.write().unwrap_or_else(|e| e.into_inner());
            // A clear between the two locks dropped the series just made: make it again, so
            // that the key never points at a series no scrape reads.
            if self.clears.load(Ordering::Acquire) == clears {
                by_key.insert(key.clone(), cell.clone());
                return Some(cell);
            }
        }
    }

    /// Forget every series (their counts with them); the `metrics` macros register anew
    /// on their next use, starting from 0. Handles obtained before keep recording into
    /// cells no scrape reads. Layouts, descriptions and conflicts stay.
    pub(crate) fn clear(&self) {
        let mut families = self.families.write().unwrap_or_else(|e| e.into_inner());
        let mut by_key = self.by_key.write().unwrap_or_else(|e| e.into_inner());
        families.clear();
        by_key.clear();
        self.clears.fetch_add(1, Ordering::AcqRel);
    }

    /// [`Registry::register`] of a key not seen yet: its family and series by exposed
    /// name and labels.
    fn register_new(&self, key: &Key, want: Kind) -> Option<Cell> {
        let name = exposed_name(key.name());
        let labels = exposed_labels(key);
        if let Some(found) = self.find(&name, &labels, want) {
            return Some(found);
        }
        let want = match want {
            Kind::Histogram(_) => Kind::Histogram(self.layout_of(key.name())),
            other => other,
        };
        let mut families = self.families.write().unwrap_or_else(|e| e.into_inner());
        let family = families.entry(name.clone()).or_insert_with(|| Family {
            kind: want,
            series: Vec::new(),
            index: HashMap::new(),
        });
        if let Some(c) = kind_conflict(&name, key.name(), family.kind, want) {
            self.report(c);
            if family.kind.word() != want.word() {
                return None;
            }
        }
        if let Some(&k) = family.index.get(&labels) {
            return Some(family.series[k].1.clone());
        }
        let cell = Cell::new(family.kind);
        family.index.insert(labels.clone(), family.series.len());
        family.series.push((labels, cell.clone()));
        Some(cell)
    }

    /// The series' cell under the read lock, when its family has the kind wanted (the write
    /// path reports one of another kind).
    fn find(&self, name: &str, labels: &Labels, want: Kind) -> Option<Cell> {
        let families = self.families.read().unwrap_or_else(|e| e.into_inner());
        let family = families.get(name)?;
        let &k = family.index.get(labels)?;
        (family.kind.word() == want.word()).then(|| family.series[k].1.clone())
    }

    /// The layout of a histogram name, reporting matchers that disagree.
    fn layout_of(&self, name: &str) -> Layout {
        let (used, others) = self.layouts.resolve(name);
        if !others.is_empty() {
            self.report(Conflict::AmbiguousLayout {
                name: name.to_string(),
                used,
                others,
            });
        }
        used
    }

    /// Keep a conflict (once) and say it on standard error the first time.
    pub(crate) fn report(&self, conflict: Conflict) {
        let mut seen = self.conflicts.lock().unwrap_or_else(|e| e.into_inner());
        if !seen.contains(&conflict) {
            eprintln!("picollo-metrics: {conflict}");
            seen.push(conflict);
        }
    }

    pub(crate) fn conflicts(&self) -> Vec<Conflict> {
        self.conflicts
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    pub(crate) fn describe(&self, name: &str, help: &str) {
        let mut map = self.help.lock().unwrap_or_else(|e| e.into_inner());
        map.insert(exposed_name(name), help.to_string());
    }

    /// Every family, sorted by name, its series' cells shared.
    pub(crate) fn copy(&self) -> Vec<FamilyCopy> {
        let help = self.help.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let families = self.families.read().unwrap_or_else(|e| e.into_inner());
        families
            .iter()
            .map(|(name, f)| FamilyCopy {
                name: name.clone(),
                help: help.get(name).cloned().unwrap_or_default(),
                kind: f.kind,
                series: f.series.clone(),
            })
            .collect()
    }
}

/// The conflict between a family of kind `first` and a registration of kind `then`.
fn kind_conflict(exposed: &str, name: &str, first: Kind, then: Kind) -> Option<Conflict> {
    match (first, then) {
        (Kind::Histogram(used), Kind::Histogram(wanted)) if used != wanted => {
            Some(Conflict::LayoutMismatch {
                name: name.to_string(),
                used,
                wanted,
            })
        }
        (a, b) if a.word() != b.word() => Some(Conflict::KindMismatch {
            name: exposed.to_string(),
            first: a.word(),
            then: b.word(),
        }),
        _ => None,
    }
}

/// A name as Prometheus allows it (`[a-zA-Z_:][a-zA-Z0-9_:]*`): every other character
/// becomes `_`, and a leading digit gets a `_` before it.
pub(crate) fn exposed_name(name: &str) -> String {
    sanitized(name, true)
}

/// The labels of `key` with names as Prometheus allows them (`[a-zA-Z_][a-zA-Z0-9_]*`,
/// not `__`-prefixed, not `le`); a name made equal to an earlier one is dropped.
fn exposed_labels(key: &Key) -> Labels {
    let mut labels: Labels = Vec::new();
    for label in key.labels() {
        let mut name = sanitized(label.key(), false);
        if name.starts_with("__") || name == "le" {
            name.insert(0, 'x');
        }
        if labels.iter().all(|(n, _)| *n != name) {
            labels.push((name, label.value().to_string()));
        }
    }
    labels
}

fn sanitized(name: &str, colons: bool) -> String {
    let ok = |c: char| c.is_ascii_alphanumeric() || c == '_' || (colons && c == ':');
    let mut out: String = name.chars().map(|c| if ok(c) { c } else { '_' }).collect();
    if !out.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || (colons && c == ':')) {
        out.insert(0, '_');
    }
    out
}
