//! The verdicts of the hardware check, apart from the counters that feed them: each takes
//! figures (read from real counters by `main.rs`, or made up by `bench/tests/hw_check.rs`)
//! and says whether real counters behaved as they must.

use std::fmt;

/// What one check concluded.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The counters behaved; the figures measured.
    Pass(String),
    /// They did not; what was wrong, with the figures.
    Fail(String),
    /// The check could not run here; why.
    Skip(String),
}

impl Outcome {
    /// A failed check.
    pub fn failed(&self) -> bool {
        matches!(self, Outcome::Fail(_))
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Pass(s) => write!(f, "ok: {s}"),
            Outcome::Fail(s) => write!(f, "FAILED: {s}"),
            Outcome::Skip(s) => write!(f, "skipped: {s}"),
        }
    }
}

/// The IPC a chain of dependent adds may show: one add a cycle, plus the loop's few
/// instructions per 256 adds, and some slack for the cycles a read pair adds.
pub const CHAIN_IPC: (f64, f64) = (0.75, 1.3);

/// The dependent add chain retires about one instruction a cycle (`cycles` and
/// `instructions` are the medians per chain), and at least the adds it holds.
pub fn chain_ipc(cycles: u64, instructions: u64, adds: u64) -> Outcome {
    if cycles == 0 {
        return Outcome::Fail(format!("0 cycles counted for {adds} dependent adds"));
    }
    let ipc = instructions as f64 / cycles as f64;
    let figures = format!("cycles={cycles} instructions={instructions} ipc={ipc:.3}");
    if instructions < adds {
        return Outcome::Fail(format!(
            "fewer instructions than the {adds} adds: {figures}"
        ));
    }
    if ipc < CHAIN_IPC.0 || ipc > CHAIN_IPC.1 {
        let (lo, hi) = CHAIN_IPC;
        return Outcome::Fail(format!("IPC outside [{lo}, {hi}]: {figures}"));
    }
    Outcome::Pass(figures)
}

/// One counter's reading of the work: the kernel's count and times over the interval, and
/// the figure Picollo made of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scaled {
    /// The kernel's count, unscaled.
    pub raw: u64,
    /// Time the counter was enabled (ns).
    pub enabled: u64,
    /// Time it ran on the PMU (ns).
    pub running: u64,
    /// Picollo's figure: `raw` scaled by enabled / running (`Delta::scaled`).
    pub scaled: u64,
}

impl Scaled {
    /// The kernel ran the counter for only part of the time it was enabled.
    fn multiplexed(&self) -> bool {
        self.running < self.enabled
    }

    /// The count scaled as perf_event_open(2) documents it and `perf stat` prints it:
    /// `raw × enabled / running`, in doubles. The kernel's own estimate, which the check
    /// states itself rather than take from Picollo's code.
    fn kernel_scaled(&self) -> f64 {
        self.raw as f64 * self.enabled as f64 / self.running as f64
    }
}

/// One repeat of the multiplex check: the event counted alone around the work (the
/// reference: one counter, never multiplexed), then in more groups than the PMU has
/// counters around the same work.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repeat {
    /// The event alone.
    pub alone: Scaled,
    /// Each multiplexed group's reading.
    pub groups: Vec<Scaled>,
}

/// How far Picollo's scaled figure may stray beyond the kernel's own, in counts: the two
/// come from the same readings and differ only by rounding. Picollo divides in integers
/// (rounded down: under one count off), the kernel's estimate is a double (under one
/// count off below 2^50).
pub const SCALING_MARGIN_COUNTS: f64 = 2.0;

/// The largest error allowed where the PMU counts exactly (an emulator whose instructions
/// are its clock): the kernel's own multiplexed scaling, and the harness's per-operation
/// instructions.
pub const EXACT_ERROR: f64 = 0.01;

/// How far figures stray from their reference, as relative errors: the largest in size,
/// and the median with its sign (a bias that a wide spread would hide).
#[derive(Clone, Copy, Debug)]
struct Stray {
    worst: f64,
    median: f64,
}

/// The median of `values` (not empty; the upper of two middles).
fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

impl Stray {
    /// The stray of `errors` (not empty).
    fn of(errors: Vec<f64>) -> Self {
        let worst = errors.iter().fold(0.0, |w: f64, e| w.max(e.abs()));
        Stray {
            worst,
            median: median(errors),
        }
    }

    /// No further from the reference than `own`, give or take `margin`: at worst and in
    /// the median.
    fn within(&self, own: &Stray, margin: f64) -> bool {
        self.worst <= own.worst + margin && self.median.abs() <= own.median.abs() + margin
    }
}

impl fmt::Display for Stray {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (worst, median) = (self.worst * 100.0, self.median * 100.0);
        // What rounds to 0 is 0, whatever its sign.
        let median = if median.abs() < 0.005 { 0.0 } else { median };
        write!(f, "worst {worst:.2} %, median {median:+.2} %")
    }
}

/// The groups that ran (for some time, at least), each with its repeat's reference count.
fn ran(repeats: &[Repeat]) -> Vec<(f64, &Scaled)> {
    let each = repeats.iter().flat_map(|r| {
        let reference = r.alone.raw as f64;
        r.groups.iter().map(move |g| (reference, g))
    });
    each.filter(|(_, g)| g.running > 0).collect()
}

/// Picollo's multiplexed scaling against the machine's own. Per repeat, the count alone is
/// the reference; how far the kernel's scaled counts of the groups stray from it, at worst
/// and in the median, is this machine's own scaling error (a VM's vPMU can be 30 % off);
/// Picollo's scaled figures must stray no further, give or take
/// [`SCALING_MARGIN_COUNTS`]. Some group must have been multiplexed. `exact`: the PMU
/// counts exactly, and the kernel's own error must itself be within it.
pub fn multiplex_scaling(repeats: &[Repeat], exact: Option<f64>) -> Outcome {
    if let Some(why) = no_reference(repeats) {
        return Outcome::Fail(why);
    }
    let groups: usize = repeats.iter().map(|r| r.groups.len()).sum();
    let ran = ran(repeats);
    let multiplexed: Vec<f64> = ran
        .iter()
        .filter(|(_, g)| g.multiplexed())
        .map(|(_, g)| g.running as f64 / g.enabled as f64)
        .collect();
    let counts = format!(
        "{} repeats, {groups} group readings, {} multiplexed, {} never ran",
        repeats.len(),
        multiplexed.len(),
        groups - ran.len()
    );
    if multiplexed.is_empty() {
        return Outcome::Fail(format!("no group was multiplexed: {counts}"));
    }
    let own = Stray::of(
        ran.iter()
            .map(|(r, g)| g.kernel_scaled() / r - 1.0)
            .collect(),
    );
    let picollo = Stray::of(ran.iter().map(|(r, g)| g.scaled as f64 / r - 1.0).collect());
    let share = median(multiplexed) * 100.0;
    let figures = format!(
        "{counts} (running {share:.1} % of enabled, median); this machine's own scaling \
         error (the kernel's scaled counts against the count alone): {own}; Picollo's: \
         {picollo}"
    );
    let smallest = repeats.iter().map(|r| r.alone.raw).min().unwrap_or(1);
    let margin = SCALING_MARGIN_COUNTS / smallest as f64;
    match exact {
        Some(bound) if own.worst > bound => Outcome::Fail(format!(
            "the kernel's own scaling is off by more than {}% on a PMU that counts exactly: \
             {figures}",
            bound * 100.0
        )),
        _ if !picollo.within(&own, margin) => Outcome::Fail(format!(
            "Picollo's scaled counts stray further from the count alone than the kernel's \
             own: {figures}"
        )),
        _ => Outcome::Pass(figures),
    }
}

/// Why `repeats` give nothing to judge by, if they do not: no repeat, a reference of 0,
/// a reference that was itself multiplexed, or no group that ran.
fn no_reference(repeats: &[Repeat]) -> Option<String> {
    if repeats.is_empty() {
        return Some("no repeat was measured".into());
    }
    if repeats.iter().any(|r| r.alone.raw == 0) {
        return Some("the reference count is 0".into());
    }
    if repeats.iter().any(|r| r.alone.multiplexed()) {
        return Some(
            "the count alone was itself multiplexed (another user of the PMU?): no \
             reference to judge by"
                .into(),
        );
    }
    match ran(repeats).is_empty() {
        true => Some("no multiplexed group ever ran".into()),
        false => None,
    }
}

/// One counter read through the user-space path (rdpmc or mrs on its mmapped page) and
/// through `read(2)` around the same work.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathDelta {
    /// The counter's name.
    pub name: String,
    /// Its delta between two user-space reads.
    pub user: u64,
    /// Its delta between the two `read(2)` reads that follow them.
    pub syscall: u64,
    /// The count is exact (instructions): the two deltas must be equal.
    pub exact: bool,
}

/// The user-space read and `read(2)` agree: every exact counter's two deltas are equal
/// and not 0, the others' are not 0; the cost of one read on each path (`user_ns`,
/// `syscall_ns`) is a figure, not a verdict. `user_path` says whether the user-space read
/// was taken (`false`: the page refused it).
pub fn user_read(deltas: &[PathDelta], user_path: bool, user_ns: f64, syscall_ns: f64) -> Outcome {
    let list: Vec<String> = deltas
        .iter()
        .map(|d| format!("{} {}/{}", d.name, d.user, d.syscall))
        .collect();
    let figures = format!(
        "deltas user/read(2): {}; a session read of them costs {user_ns:.0} ns user, \
         {syscall_ns:.0} ns read(2): {:.1}x",
        list.join(", "),
        syscall_ns / user_ns.max(f64::MIN_POSITIVE)
    );
    if !user_path {
        return Outcome::Fail(format!("the page refused the user-space read: {figures}"));
    }
    if deltas.is_empty() || deltas.iter().any(|d| d.user == 0 || d.syscall == 0) {
        return Outcome::Fail(format!("a delta is 0: {figures}"));
    }
    if deltas.iter().any(|d| d.exact && d.user != d.syscall) {
        return Outcome::Fail(format!("the two paths disagree: {figures}"));
    }
    Outcome::Pass(figures)
}

/// A raw event counts what the generic event it encodes counts: the raw and generic deltas
/// of one group read agree within a thousandth.
pub fn raw_matches_generic(name: &str, raw: u64, generic: u64) -> Outcome {
    let figures = format!("{name}={raw}, generic={generic}");
    let off = raw.abs_diff(generic) as f64 / generic.max(1) as f64;
    if generic == 0 || off > 0.001 {
        return Outcome::Fail(format!("the raw event does not match: {figures}"));
    }
    Outcome::Pass(figures)
}

/// The harness's per-operation instructions medians of an operation of `truth`
/// instructions (`one`) and of one twice as long (`two`): each within `bound` of its truth
/// after the harness subtracted its read overhead, and their ratio within `bound` of 2.
pub fn harness_instructions(one: f64, two: f64, truth: u64, bound: f64) -> Outcome {
    let ratio = two / one.max(f64::MIN_POSITIVE);
    let off = |v: f64, t: f64| (v - t).abs() / t;
    let (e1, e2) = (off(one, truth as f64), off(two, 2.0 * truth as f64));
    let figures = format!(
        "per op {one:.1} and {two:.1} instructions for {truth} and {} ({:.3}% and {:.3}% \
         off), ratio {ratio:.4}",
        2 * truth,
        e1 * 100.0,
        e2 * 100.0
    );
    if truth == 0 || e1 > bound || e2 > bound || off(ratio, 2.0) > bound {
        return Outcome::Fail(format!(
            "not within {}% of the truth: {figures}",
            bound * 100.0
        ));
    }
    Outcome::Pass(figures)
}

/// Interleaved comparisons on instructions: `twice` (a chain against one twice as long)
/// and `same` (a chain against itself), each the time verdict's word and the 99 % interval
/// of B − A at the median instructions per operation. The first interval lies within
/// `bound` of the `truth` at both ends and its time is `slower`; the second holds 0 within
/// `bound` of the truth and its time is neither `faster` nor `slower`.
pub fn harness_compare(
    (twice_word, twice): (String, (f64, f64)),
    (same_word, same): (String, (f64, f64)),
    truth: u64,
    bound: f64,
) -> Outcome {
    let t = truth as f64;
    let figures = format!(
        "2x chain: time {twice_word}, instructions B − A in [{:.1}, {:.1}] for {truth}; \
         same chain: time {same_word}, instructions B − A in [{:.1}, {:.1}]",
        twice.0, twice.1, same.0, same.1
    );
    let near = |v: f64| (v - t).abs() <= bound * t;
    let zero = |v: f64| v.abs() <= bound * t;
    let ok = truth > 0
        && near(twice.0)
        && near(twice.1)
        && twice_word == "slower"
        && same.0 <= 0.0
        && 0.0 <= same.1
        && zero(same.0)
        && zero(same.1)
        && same_word != "faster"
        && same_word != "slower";
    match ok {
        true => Outcome::Pass(figures),
        false => Outcome::Fail(format!("not as the counts say: {figures}")),
    }
}

/// Sorting the bytes makes the branch predictable: the median branch misses of a pass
/// over `n` unsorted bytes is at least a tenth of `n` and ten times the sorted pass's.
pub fn sorted_branch_misses(unsorted: u64, sorted: u64, n: u64) -> Outcome {
    let ratio = unsorted as f64 / sorted.max(1) as f64;
    let figures = format!("unsorted={unsorted} sorted={sorted} ratio={ratio:.1}x ({n} bytes)");
    if unsorted < n / 10 || ratio < 10.0 {
        return Outcome::Fail(format!("sorting did not cut the misses: {figures}"));
    }
    Outcome::Pass(figures)
}

/// The rdpmc read and the `read(2)` group read, from the perf bench's summary line
/// (`bench perf: syscall_read=<ns> rdpmc_read=<ns|n/a> … chosen=<path>`). `rdpmc_allowed` is
/// sysfs' `rdpmc` setting (1 or 2 allow it for our own events). The ratio is a figure, not a
/// verdict: a missing rdpmc path where it is allowed fails, and so does a default session
/// that took the dearer path by more than twice the cheaper's cost (its choice is timed at
/// open: a factor of 2 is beyond what the timing's noise makes of two close costs).
pub fn rdpmc_read(bench_line: &str, rdpmc_allowed: bool) -> Outcome {
    let field = |name: &str| {
        bench_line
            .split_whitespace()
            .find_map(|w| w.strip_prefix(name)?.strip_prefix('='))
    };
    let Some(syscall) = field("syscall_read").and_then(|v| v.parse::<f64>().ok()) else {
        return Outcome::Fail(format!("no syscall_read figure in {bench_line:?}"));
    };
    let chosen = field("chosen").unwrap_or("n/a");
    match field("rdpmc_read").map(|v| v.parse::<f64>()) {
        Some(Ok(rdpmc)) if rdpmc > 0.0 => {
            let figures = format!(
                "read(2) group read {syscall:.0} ns, rdpmc {rdpmc:.0} ns: rdpmc {:.1}x faster \
                 (goal 5x where rdpmc runs natively); a default session reads by {chosen}",
                syscall / rdpmc
            );
            let wrong = match chosen {
                "rdpmc" => rdpmc > 2.0 * syscall,
                "read(2)" => syscall > 2.0 * rdpmc,
                _ => true,
            };
            match wrong {
                true => Outcome::Fail(format!("the dearer path was chosen: {figures}")),
                false => Outcome::Pass(figures),
            }
        }
        _ if rdpmc_allowed => Outcome::Fail(format!(
            "sysfs allows rdpmc but the bench read no rdpmc figure: {bench_line:?}"
        )),
        _ => Outcome::Skip(format!(
            "sysfs rdpmc is 0 (rdpmc off); read(2) group read {syscall:.0} ns"
        )),
    }
}
