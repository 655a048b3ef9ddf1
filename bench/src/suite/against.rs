//! Two builds' suites compared benchmark by benchmark in interleaved rounds: each side, a
//! worker ([`super::endpoint`]), measures its own function with the harness's steps; this
//! side opens both, gives them one batch size, draws each round's order and offsets, pairs
//! the rounds, and judges as [`crate::Bench::compare_fns`] does.

use std::string::{String, ToString};
use std::time::{Duration, Instant};
use std::vec::Vec;

use super::endpoint::Endpoint;
use super::exit::SuiteError;
use super::landing::Watch;
use super::outputs::{ComparedBenchmark, Outcome};
use crate::judge::builds::judge_by_builds;
use crate::judge::compare::compare_on;
use crate::judge::sequential::{judge_look, looks_of, Boundary, Looking};
use crate::judge::verdict::Interleaved;
use crate::measure::draws::Draws;
use crate::measure::engine::{run_rounds, RoundRobin, Turn};
use crate::measure::offsets::Offsets;
use crate::measure::plan::Plan;
use crate::measure::result::{BenchResult, Parts};
use crate::measure::run::draw_order;
use crate::measure::samples::Samples;
use crate::model::protocol::hello_protocol;
use crate::model::{Answer, Opened, Ready, Reply, Request, Settings, TurnFigures, PROTOCOL};

/// The reply to `request` from `end`, taken by `take` where it is of the kind asked for: a
/// worker's error answer is the benchmark's failure, any other reply the worker's.
fn expect<T>(
    end: &mut dyn Endpoint,
    request: &Request,
    timeout: Duration,
    take: impl Fn(Reply) -> Result<T, Reply>,
) -> Result<T, SuiteError> {
    let text = end.call(request, timeout)?;
    taken(end.label(), &text, request, take)
}

/// The reply `text` from the worker `label` to `request`, taken by `take` ([`expect`]).
fn taken<T>(
    label: &str,
    text: &str,
    request: &Request,
    take: impl Fn(Reply) -> Result<T, Reply>,
) -> Result<T, SuiteError> {
    match Answer::read(text) {
        Ok(Answer::Reply(reply)) => take(reply).map_err(|_| garbage(label, text, request)),
        Ok(Answer::Error { error }) => Err(SuiteError::failed(std::format!("{label}: {error}"))),
        Err(why) => Err(SuiteError::worker(std::format!(
            "{label}: not a reply: {why}"
        ))),
    }
}

/// A reply `text` that is not the one `request` asked for.
fn garbage(label: &str, text: &str, request: &Request) -> SuiteError {
    let kind = request.answered_by().unwrap_or("no");
    SuiteError::worker(std::format!(
        "{label}: answered {text} where a {kind:?} reply was due"
    ))
}

/// The benchmarks `end` has, once its protocol is this one's (a worker of another protocol
/// is told by its number, whatever else its hello holds).
pub(crate) fn hello(end: &mut dyn Endpoint, timeout: Duration) -> Result<Vec<String>, SuiteError> {
    let request = Request::Hello { protocol: PROTOCOL };
    let text = end.call(&request, timeout)?;
    if let Some(theirs) = hello_protocol(&text).filter(|p| *p != PROTOCOL) {
        let why = std::format!(
            "{}: the worker speaks protocol {theirs} and this suite {PROTOCOL}: rebuild both with one picollo-bench",
            end.label()
        );
        return Err(SuiteError::worker(why));
    }
    let benchmarks = taken(end.label(), &text, &request, |reply| match reply {
        Reply::Hello(h) => Ok(h.benchmarks),
        other => Err(other),
    });
    // A worker that cannot say hello is broken, whatever it says.
    benchmarks.map_err(|e| SuiteError::worker(e.message))
}

/// A turn's figures as they came, with when it ran: what a side's samples are built from,
/// build after build, once every round has run.
struct Slotted {
    figures: TurnFigures,
    start: f64,
    end: f64,
    first: bool,
}

/// Every build of both sides as the engine's participants: each turn is a request to one
/// build, its figures kept for that build; `watch` is told each turn's round of `rounds`.
struct Remote<'p, 'e, 'f, 'w> {
    plan: &'p Plan,
    ends: &'e mut [&'f mut dyn Endpoint],
    turns: Vec<Vec<Slotted>>,
    offsets: Vec<Offsets>,
    share: (usize, Duration),
    t0: Instant,
    timeout: Duration,
    watch: &'w mut dyn Watch,
    rounds: usize,
}

/// The figures of a turn reply.
fn slot_figures(reply: Reply) -> Result<TurnFigures, Reply> {
    match reply {
        Reply::Turn(figures) => Ok(figures),
        other => Err(other),
    }
}

impl RoundRobin for Remote<'_, '_, '_, '_> {
    type Error = SuiteError;

    fn order(&mut self, draws: &mut Draws) -> Vec<usize> {
        draw_order(self.plan, draws, &mut self.offsets)
    }

    fn turn(&mut self, at: Turn, _: &mut Draws) -> Result<bool, SuiteError> {
        let i = at.participant;
        self.watch.round(at.round, self.rounds);
        let (quota, budget) = self.share;
        let o = self.offsets[i];
        let request = Request::Turn {
            quota: quota as u64,
            budget_ns: budget.as_nanos() as u64,
            frames: o.frames as u64,
            heap: o.heap as u64,
        };
        let start = self.t0.elapsed().as_secs_f64();
        let wait = budget + self.timeout;
        let figures = expect(&mut *self.ends[i], &request, wait, slot_figures)?;
        self.turns[i].push(Slotted {
            figures,
            start,
            end: self.t0.elapsed().as_secs_f64(),
            first: at.first,
        });
        Ok(true)
    }
}

/// The reply to `request` from every end, each taken by `take`.
fn ask_all<T>(
    ends: &mut [&mut dyn Endpoint],
    request: &Request,
    wait: Duration,
    take: impl Fn(Reply) -> Result<T, Reply>,
) -> Result<Vec<T>, SuiteError> {
    let each = ends
        .iter_mut()
        .map(|end| expect(&mut **end, request, wait, &take));
    each.collect()
}

/// Close the benchmark every end has open.
fn close_all(ends: &mut [&mut dyn Endpoint], timeout: Duration) -> Result<(), SuiteError> {
    let closed = |reply| match reply {
        Reply::Closed => Ok(()),
        other => Err(other),
    };
    ask_all(ends, &Request::Close, timeout, closed)?;
    Ok(())
}

/// Refuse builds whose metrics differ from the first's (one built without counters, say).
fn same_metrics(
    name: &str,
    ends: &[&mut dyn Endpoint],
    opened: &[Opened],
) -> Result<(), SuiteError> {
    let names = |o: &Opened| o.metrics.iter().map(|m| m.name.clone()).collect::<Vec<_>>();
    match opened.iter().position(|o| o.metrics != opened[0].metrics) {
        None => Ok(()),
        Some(i) => Err(SuiteError::worker(std::format!(
            "{name}: the builds measure different metrics ({}: {:?}; {}: {:?})",
            ends[0].label(),
            names(&opened[0]),
            ends[i].label(),
            names(&opened[i])
        ))),
    }
}

/// How a suite's comparisons run: how long a worker may take beyond its turn, who is told
/// of each round and verdict, and the metric the verdicts judge (time where `None`).
pub(crate) struct Conduct<'w> {
    pub timeout: Duration,
    pub watch: &'w mut dyn Watch,
    pub metric: Option<&'w str>,
    /// The benchmarks whose comparisons share the 1 % of a false verdict: all those the
    /// filters select, every shard's together ([`Looking::new`]).
    pub family: usize,
}

/// Benchmark `name` of both sides, `k` builds each (`ends[..k]` are A, the base;
/// `ends[k..]` B), compared in interleaved rounds with the settings of `plan`: every build of
/// both sides in each round; each side's builds pooled, and with 2 builds a side or more,
/// judged with builds as the unit ([`judge_by_builds`]). The rounds stop at the first look
/// that settles the verdict ([`crate::sequential`]).
pub(crate) fn compare_one(
    plan: &Plan,
    name: &str,
    ends: &mut [&mut dyn Endpoint],
    k: usize,
    (conduct, design): (&mut Conduct<'_>, &Looking),
) -> Result<ComparedBenchmark, SuiteError> {
    let wait = plan.warmup + conduct.timeout;
    let open = Request::Open {
        name: name.into(),
        settings: Settings::of(plan),
    };
    let opened = ask_all(ends, &open, wait, |reply| match reply {
        Reply::Opened(o) => Ok(o),
        other => Err(other),
    })?;
    same_metrics(name, ends, &opened)?;
    let each_batch = opened.iter().map(|o| o.batch);
    let batch = plan.common_batch(
        each_batch.clone().min().unwrap_or(1),
        each_batch.max().unwrap_or(1),
    );
    let n = opened[0].metrics.len();
    let ready = ask_all(ends, &Request::Batch { batch }, wait, |reply| match reply {
        Reply::Ready(r) if r.fits(n) => Ok(r),
        other => Err(other),
    })?;
    let built = Built {
        name,
        k,
        opened: &opened,
        ready: &ready,
        batch,
        metrics: n,
    };
    let compared = looked(plan, ends, &built, (conduct, design))?;
    close_all(ends, conduct.timeout)?;
    Ok(compared)
}

/// What the opened builds of a comparison said before its rounds: the sides' results are
/// built from it and the rounds' turns.
struct Built<'b> {
    name: &'b str,
    k: usize,
    opened: &'b [Opened],
    ready: &'b [Ready],
    batch: u64,
    metrics: usize,
}

impl Built<'_> {
    /// The two sides of the turns so far, compared and judged on `metric` (time where
    /// `None`), with builds as the unit where there are several a side.
    fn judged(
        &self,
        plan: &Plan,
        turns: &[Vec<Slotted>],
        (pairing, metric): (Option<u64>, Option<&str>),
    ) -> Result<ComparedBenchmark, SuiteError> {
        let k = self.k;
        let mut sides = [(0..k, "base"), (k..2 * k, "head")].map(|(builds, side)| {
            let label = side_label(self.name, side);
            let built = (
                &self.opened[builds.clone()],
                &self.ready[builds.clone()],
                &turns[builds],
            );
            side_result(plan, &label, built, (self.batch, pairing), self.metrics)
        });
        let [a, b] = core::mem::replace(&mut sides, [Ok(None), Ok(None)]);
        let (a, b) = (a?.ok_or_else(no_side)?, b?.ok_or_else(no_side)?);
        let mut pair = Interleaved::new(a, b);
        if k >= 2 {
            judge_by_builds(&mut pair.comparison, (&pair.a, &pair.b), k);
        }
        let judged = match metric {
            None => pair.comparison.clone(),
            Some(m) => {
                let c = compare_on(&pair.a, &pair.b, m);
                let mut c = c.map_err(|e| SuiteError::usage(std::format!("--metric: {e}")))?;
                if k >= 2 {
                    judge_by_builds(&mut c, (&pair.a, &pair.b), k);
                }
                c
            }
        };
        Ok(ComparedBenchmark {
            benchmark: self.name.to_string(),
            sides: pair,
            judged,
        })
    }
}

/// The name of a side's result of benchmark `name`: `name (base)`, `name (head)`.
fn side_label(name: &str, side: &str) -> String {
    std::format!("{name} ({side})")
}

fn no_side() -> SuiteError {
    SuiteError::worker("a side without builds")
}

/// The rounds of a comparison of opened builds, each told to the watch, in up to
/// [`LOOKS`] looks: after each, the sides so far are judged, and the first look that settles
/// the verdict ([`judge_look`]) ends the rounds; the last look's verdict stands either way.
fn looked(
    plan: &Plan,
    ends: &mut [&mut dyn Endpoint],
    built: &Built<'_>,
    (conduct, design): (&mut Conduct<'_>, &Looking),
) -> Result<ComparedBenchmark, SuiteError> {
    let mut draws = Draws::new(plan.seed);
    let pairing = Some(draws.pairing());
    let r = plan.comparison_rounds();
    let n = ends.len();
    let mut remote = Remote {
        plan,
        turns: (0..n).map(|_| Vec::new()).collect(),
        ends,
        offsets: std::vec![Offsets::default(); n],
        share: plan.slot_share(r, n),
        t0: Instant::now(),
        timeout: conduct.timeout,
        watch: &mut *conduct.watch,
        rounds: r,
    };
    let looks = design.looks;
    let (mut done, mut look) = (0, 0);
    loop {
        look += 1;
        let to = (r * look).div_ceil(looks);
        run_rounds(&mut remote, done..to, &mut draws)?;
        done = to;
        let seconds = remote.t0.elapsed().as_secs_f64();
        let mut compared = built.judged(plan, &remote.turns, (pairing, conduct.metric))?;
        let at = (look, looks);
        let settled = judge_look(&mut compared.judged, design, look, seconds);
        remote.watch.looked(at, &compared.judged);
        if settled || look >= looks {
            let time = &mut compared.sides.comparison;
            match conduct.metric {
                None => *time = compared.judged.clone(),
                Some(_) => _ = judge_look(time, design, look, seconds),
            }
            return Ok(compared);
        }
    }
}

/// A side's result: its builds' turns, build after build (round `i` of every build in one
/// interleaved round), with what its first build said of the conditions, the widest
/// resolution, and every build's warnings once; `None` for a side of no builds.
fn side_result(
    plan: &Plan,
    label: &str,
    (opened, ready, turns): (&[Opened], &[Ready], &[Vec<Slotted>]),
    (batch, pairing): (u64, Option<u64>),
    metrics: usize,
) -> Result<Option<BenchResult>, SuiteError> {
    let (Some(o), Some(r)) = (opened.first(), ready.first()) else {
        return Ok(None);
    };
    let mut s = Samples::new(plan, metrics).map_err(|e| SuiteError::usage(e.to_string()))?;
    for turn in turns.iter().flatten() {
        s.open_round(turn.start, turn.first);
        s.append(&turn.figures).map_err(|why| {
            SuiteError::worker(std::format!("{label}: a turn's figures do not read: {why}"))
        })?;
        s.close_round(turn.end);
    }
    let resolution = (0..metrics).map(|i| ready.iter().map(|x| x.resolution[i]).max().unwrap_or(0));
    let parts = Parts {
        clock: r.clock.clone(),
        counters_read: r.counters_read.clone(),
        batch,
        warm_up: o.warm_up,
        pairing,
        resolution: resolution.collect(),
    };
    let mut named = plan.named(label);
    named.unoptimized = o.unoptimized.clone();
    let (overhead, baseline) = (&r.overhead, &r.baseline);
    let mut result = BenchResult::measured(&named, parts, o.metrics.clone(), overhead, baseline, s);
    let mut warnings: Vec<String> = Vec::new();
    for w in opened.iter().flat_map(|o| &o.warnings) {
        if !warnings.contains(w) {
            warnings.push(w.clone());
        }
    }
    result.conditions.warnings.splice(0..0, warnings);
    Ok(Some(result))
}

/// The benchmarks this side's filter selects, and the filter (for the other side's names).
pub(crate) type Selection<'s> = (&'s [String], &'s dyn Fn(&str) -> bool);

/// Every benchmark both sides have that `selected` names (A's own too, where `select`
/// picks them), compared one after the other; a benchmark of one side only is listed.
/// `ends[..k]` are A's builds, `ends[k..]` B's. `watch` is told each listed benchmark, then
/// each compared one as it starts, runs and lands.
pub(crate) fn judge_all(
    plan: &Plan,
    ends: &mut [&mut dyn Endpoint],
    k: usize,
    (selected, select): Selection<'_>,
    conduct: &mut Conduct<'_>,
) -> Result<Outcome, SuiteError> {
    let names = ends.iter_mut().map(|e| hello(&mut **e, conduct.timeout));
    let names: Vec<Vec<String>> = names.collect::<Result<_, _>>()?;
    let in_all = |side: &[Vec<String>], n: &String| side.iter().all(|x| x.contains(n));
    let (base, head) = names.split_at(k);
    let mut outcome = Outcome {
        builds: k,
        ..Outcome::default()
    };
    let only_base = base[0].iter().filter(|n| select(n) && !in_all(head, n));
    outcome
        .only
        .extend(only_base.map(|n| (n.clone(), "base".to_string())));
    let (common, only_head): (Vec<&String>, Vec<&String>) = selected
        .iter()
        .partition(|n| in_all(base, n) && in_all(head, n));
    outcome.only.extend(
        only_head
            .into_iter()
            .map(|n| (n.clone(), "head".to_string())),
    );
    if common.is_empty() {
        let why = "the two builds share no selected benchmark: nothing to compare";
        return Err(SuiteError::new(super::exit::Exit::NoMatch, why));
    }
    for (name, side) in &outcome.only {
        conduct.watch.only(name, side)?;
    }
    compare_each(plan, ends, k, &common, conduct, &mut outcome)?;
    Ok(outcome)
}

/// Each of `common` compared in turn (`ends[..k]` A's builds, `ends[k..]` B's), into
/// `outcome`, each told to `watch` as it starts, runs and lands; a benchmark that fails is
/// closed on every end and the next one runs.
fn compare_each(
    plan: &Plan,
    ends: &mut [&mut dyn Endpoint],
    k: usize,
    common: &[&String],
    conduct: &mut Conduct<'_>,
    outcome: &mut Outcome,
) -> Result<(), SuiteError> {
    let looks = looks_of(plan.comparison_rounds(), k);
    let design = Looking::new(Boundary::Pocock, looks, conduct.family);
    for (i, name) in common.iter().enumerate() {
        conduct.watch.start(name, (i + 1, common.len()));
        match compare_one(&plan.named(name), name, ends, k, (conduct, &design)) {
            Ok(mut pair) => {
                conduct.watch.compared(&mut pair, k)?;
                outcome.compared.push(pair);
            }
            Err(e) if e.exit == super::exit::Exit::Failed => {
                conduct.watch.failed(name, &e.message)?;
                outcome.failed.push((name.to_string(), e.message));
                close_all(ends, conduct.timeout)?;
            }
            Err(e) => return Err(e),
        }
    }
    Ok(())
}
