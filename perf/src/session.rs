//! A session: one perf_event group of counters, read together, with the previous and
//! current readings, their deltas and one histogram per counter.

use picollo::Sink;

use super::counter::{CounterHistogram, SessionCounter, Source};
use super::derived::Derived;
use super::emulated::Emulator;
use super::error::{PerfError, PerfErrorKind};
use super::event::Event;
use super::exact::{self, ReadMark, ReadStats};
use super::group::{GroupBuffer, MAX_GROUP_COUNTERS};
use super::path::{self, PathChoice, PathReason, ReadPolicy, COST_ROUNDS};
use super::sys::EventFd;
use super::values::{Delta, ReadPath, Reading};

/// Which value [`Session::record_kind`] puts into the histograms.
#[repr(u32)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RecordKind {
    /// The delta, scaled when multiplexed ([`Delta::scaled`]).
    #[default]
    Delta = 0,
    /// The delta less the calibrated read overhead, floored at 0 ([`Delta::corrected`]).
    Corrected = 1,
    /// The unscaled delta ([`Delta::raw`]).
    RawDelta = 2,
    /// The current scaled count itself, not a delta.
    Value = 3,
}

/// Counters opened as one group (see [`SessionBuilder`]). Reads take every counter at
/// once; the session keeps the previous and current readings and their deltas.
///
/// A session counts the thread that opened it (by default) and reads rdpmc on the CPU it
/// runs on: use it from that thread (it is not `Send`).
///
/// `H` is what each counter records into: a [`CounterHistogram`] unless the session was
/// opened with [`SessionBuilder::open_with`] or [`SessionBuilder::open_with_sinks`].
///
/// # Ownership
/// The session owns its sinks, one `H` per counter, and drops them with itself. To let
/// other threads read (or record into) a histogram while the session records, give the
/// session a handle that shares it: an `Arc<ConcurrentHistogram<_>>` (the session then
/// owns one reference count) or a `&ConcurrentHistogram<_>` (the session then borrows it
/// and cannot outlive it). Both are [`Sink`]s.
///
/// A read allocates nothing (only an error builds its message): the group's read buffer has
/// a fixed size ([`MAX_GROUP_COUNTERS`]) and lives inside the session.
///
/// [`SessionBuilder::open_with`]: super::SessionBuilder::open_with
/// [`SessionBuilder::open_with_sinks`]: super::SessionBuilder::open_with_sinks
/// [`SessionBuilder`]: super::SessionBuilder
pub struct Session<H = CounterHistogram> {
    counters: Vec<SessionCounter<H>>,
    /// The perf counters' group read (ids of the perf counters, in order); `None` when every
    /// counter is emulated.
    group: Option<GroupBuffer>,
    /// The emulated counters' probe; `None` when none is emulated.
    emulator: Option<Emulator>,
    scratch: heapless::Vec<Reading, MAX_GROUP_COUNTERS>,
    /// Reads try the user-space path first (the choice took it).
    fast_path: bool,
    /// The path taken at open and why; `None` until chosen (a session opened disabled under
    /// [`ReadPolicy::Auto`] measures at its first [`Session::enable`]).
    choice: Option<PathChoice>,
    policy: ReadPolicy,
    last_path: ReadPath,
    /// The latest read, and whether the deltas it closed are exact ([`Session::exact`]).
    mark: ReadMark,
    exact: bool,
    stats: ReadStats,
    enabled: bool,
}

impl<H: Sink> core::fmt::Debug for Session<H> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Session")
            .field("counters", &self.counters)
            .field("fast_path", &self.fast_path)
            .field("choice", &self.choice)
            .field("last_path", &self.last_path)
            .field("stats", &self.stats)
            .field("enabled", &self.enabled)
            .finish()
    }
}

impl<H: Sink> Session<H> {
    /// A session over counters just opened (the first perf counter leads the group; the
    /// emulated ones read through `emulator`): its read path chosen by `policy` (measured
    /// now when enabled), calibrated when asked (and enabled), then read once so that deltas
    /// start at 0.
    pub(crate) fn start(
        counters: Vec<SessionCounter<H>>,
        emulator: Option<Emulator>,
        enabled: bool,
        calibrate: bool,
        policy: ReadPolicy,
    ) -> Result<Session<H>, PerfError> {
        // The builder holds at most MAX_GROUP_COUNTERS: the error cannot be reached from it.
        let too_many = || PerfError::group_full(counters[counters.len() - 1].event, counters.len());
        let perf = || counters.iter().filter(|c| !c.event.is_emulated());
        let group = match perf().next() {
            Some(_) => Some(GroupBuffer::new(perf().map(|c| c.id())).ok_or_else(too_many)?),
            None => None,
        };
        let mut scratch = heapless::Vec::new();
        scratch
            .resize(counters.len(), Reading::default())
            .map_err(|()| too_many())?;
        let mut session = Session {
            fast_path: group.is_some() && perf().all(|c| c.has_page()),
            counters,
            group,
            emulator,
            scratch,
            choice: None,
            policy,
            last_path: ReadPath::None,
            mark: ReadMark::default(),
            exact: true,
            stats: ReadStats::default(),
            enabled,
        };
        // Under valgrind the choice is made now, whatever the policy: no read may try rdpmc.
        if enabled || policy != ReadPolicy::Auto || path::under_instrumenter() {
            session.choose_path();
        }
        if enabled && calibrate {
            session.calibrate()?;
        }
        session.rebase()?;
        Ok(session)
    }

    /// Read every counter: through rdpmc when allowed and not `force_syscall`, else (or
    /// when any page says rdpmc is unavailable right now) one `read(2)` of the group; then
    /// the emulated counters, with one request to the emulator. Returns the path the perf
    /// counters took (`Syscall` for emulated counters alone). The previous reading becomes
    /// `previous`, deltas update; [`Session::exact`] says whether they are exact.
    pub fn read(&mut self, force_syscall: bool) -> Result<ReadPath, PerfError> {
        let tried = !force_syscall && self.fast_path;
        let retries = if tried { self.read_pages() } else { None };
        let mark = ReadMark::of(tried, retries);
        if retries.is_none() {
            self.read_group()?;
        }
        self.read_emulated()?;
        let path = mark.path;
        if tried {
            self.stats.count(mark);
        }
        self.exact = exact::exact(self.mark, mark);
        self.mark = mark;
        let slot = if path == ReadPath::Rdpmc { 1 } else { 0 };
        for (c, &r) in self.counters.iter_mut().zip(&self.scratch) {
            c.previous = c.current;
            c.current = r;
            c.delta = Delta::between(&c.previous, &c.current, c.overhead[slot]);
        }
        self.last_path = path;
        Ok(path)
    }

    /// Every perf counter through its page: how often the reads started over, or `None`
    /// where a page sent the read to read(2).
    #[cfg(picollo_native)]
    fn read_pages(&mut self) -> Option<u32> {
        let mut retries = 0u32;
        for (c, out) in self.counters.iter().zip(self.scratch.iter_mut()) {
            if c.event.is_emulated() {
                continue;
            }
            let (r, again) = c.page().and_then(super::page::read)?;
            (*out, retries) = (r, retries.saturating_add(again));
        }
        Some(retries)
    }

    /// The emulated counters' values into their readings (not multiplexed: no times).
    fn read_emulated(&mut self) -> Result<(), PerfError> {
        let Some(emulator) = self.emulator.as_mut() else {
            return Ok(());
        };
        emulator.read()?;
        for (c, out) in self.counters.iter().zip(self.scratch.iter_mut()) {
            if let Source::Emulated(e) = c.source {
                *out = Reading::new(emulator.value(e), 0, 0);
            }
        }
        Ok(())
    }

    fn read_group(&mut self) -> Result<(), PerfError> {
        let (Some(leader), Some(group)) = (leader_of(&self.counters), self.group.as_mut()) else {
            return Ok(());
        };
        let mut bytes = leader.read_into(group.words_mut());
        if bytes == Err(libc::EINTR) {
            bytes = leader.read_into(group.words_mut());
        }
        let bytes = bytes.map_err(|e| PerfError::os("read of the counter group", e))?;
        if bytes == 0 {
            return Err(unschedulable(&self.counters));
        }
        let times = group.parse(bytes / 8).map_err(|e| {
            PerfError::new(
                PerfErrorKind::BadRead,
                0,
                None,
                format!("malformed group read ({bytes} bytes): {e:?}"),
            )
        })?;
        let perf = self.scratch.iter_mut().zip(&self.counters);
        let perf = perf.filter(|(_, c)| !c.event.is_emulated());
        for ((out, _), &v) in perf.zip(group.values()) {
            *out = Reading::new(v, times.enabled, times.running);
        }
        Ok(())
    }

    /// Take the read path of the session's policy: where the user-space read is possible and
    /// the policy is [`ReadPolicy::Auto`], the one that costs less now (both timed, read by
    /// read in turn, [`COST_ROUNDS`] each). Readings are rebased by the caller.
    fn choose_path(&mut self) {
        let possible = self.fast_path;
        let choice = path::choose(self.policy, possible, path::under_instrumenter(), || {
            let mut timed = |force: bool| {
                let start = std::time::Instant::now();
                let took = self.read(force).ok()?;
                let ns = start.elapsed().as_nanos() as f64;
                (took == ReadPath::Rdpmc || force).then_some(ns)
            };
            let pairs: Vec<_> = (0..COST_ROUNDS)
                .map(|_| (timed(false), timed(true)))
                .collect();
            let user = path::median_cost(pairs.iter().map(|p| p.0));
            (user, path::median_cost(pairs.iter().map(|p| p.1)))
        });
        self.fast_path = choice.path == ReadPath::Rdpmc;
        self.choice = Some(choice);
    }

    /// Read twice through the syscall so that `previous == current` and deltas are 0.
    fn rebase(&mut self) -> Result<(), PerfError> {
        self.read(true)?;
        for c in &mut self.counters {
            c.previous = c.current;
            c.delta = Delta::default();
        }
        self.exact = true;
        Ok(())
    }

    /// Measure the cost of a read: the median delta of back-to-back read pairs, per counter
    /// and per path (syscall, and rdpmc where it works). [`Delta::corrected`] subtracts it.
    /// Histograms are untouched; the readings are rebased.
    pub fn calibrate(&mut self) -> Result<(), PerfError> {
        const PAIRS: usize = 63;
        let n = self.counters.len();
        for (slot, force) in [(0usize, true), (1, false)] {
            if slot == 1 && !self.fast_path {
                continue;
            }
            let mut samples: Vec<Vec<u64>> = vec![Vec::with_capacity(PAIRS); n];
            for _ in 0..PAIRS {
                self.read(force)?;
                let path = self.read(force)?;
                if (path == ReadPath::Rdpmc) == (slot == 1) {
                    for (s, c) in samples.iter_mut().zip(&self.counters) {
                        s.push(c.delta.scaled);
                    }
                }
            }
            for (c, s) in self.counters.iter_mut().zip(&mut samples) {
                s.sort_unstable();
                c.overhead[slot] = s.get(s.len() / 2).copied().unwrap_or(0);
            }
        }
        self.rebase()
    }

    /// Record each counter's delta into its histogram ([`RecordKind::Delta`]).
    pub fn record(&mut self) {
        self.record_kind(RecordKind::Delta);
    }

    /// Record the chosen value of each counter into its histogram.
    pub fn record_kind(&mut self, kind: RecordKind) {
        for c in &mut self.counters {
            let v = match kind {
                RecordKind::Delta => c.delta.scaled,
                RecordKind::Corrected => c.delta.corrected,
                RecordKind::RawDelta => c.delta.raw,
                RecordKind::Value => c.current.scaled,
            };
            c.histogram.record(v);
        }
    }

    /// One ioctl on the group leader for the whole group; a failure names `request`.
    fn group_ioctl(
        &self,
        request: &'static str,
        ioctl: fn(&EventFd, bool) -> Result<(), i32>,
    ) -> Result<(), PerfError> {
        match leader_of(&self.counters) {
            Some(fd) => ioctl(fd, true).map_err(|e| PerfError::os(request, e)),
            None => Ok(()),
        }
    }

    /// Start counting (the whole group).
    pub fn enable(&mut self) -> Result<(), PerfError> {
        self.group_ioctl("PERF_EVENT_IOC_ENABLE", EventFd::enable)?;
        self.emulator.as_mut().map_or(Ok(()), Emulator::enable)?;
        self.enabled = true;
        if self.choice.is_none() {
            self.choose_path();
            self.rebase()?;
        }
        Ok(())
    }

    /// Stop counting (the whole group); readings keep their last values.
    pub fn disable(&mut self) -> Result<(), PerfError> {
        self.group_ioctl("PERF_EVENT_IOC_DISABLE", EventFd::disable)?;
        self.emulator.as_mut().map_or(Ok(()), Emulator::disable)?;
        self.enabled = false;
        Ok(())
    }

    /// Zero the kernel's counts and every histogram, and rebase the readings (deltas 0).
    pub fn reset(&mut self) -> Result<(), PerfError> {
        self.group_ioctl("PERF_EVENT_IOC_RESET", EventFd::reset)?;
        self.emulator.as_mut().map_or(Ok(()), Emulator::reset)?;
        for c in &mut self.counters {
            c.histogram.reset();
        }
        self.rebase()
    }

    /// The counters, in the order they were added.
    pub fn counters(&self) -> &[SessionCounter<H>] {
        &self.counters
    }

    /// One counter by position.
    pub fn counter(&self, index: usize) -> Option<&SessionCounter<H>> {
        self.counters.get(index)
    }

    /// One counter by position, mutable (its histogram).
    pub fn counter_mut(&mut self, index: usize) -> Option<&mut SessionCounter<H>> {
        self.counters.get_mut(index)
    }

    /// The counter of `event`, if the session has it.
    pub fn find(&self, event: impl Into<Event>) -> Option<&SessionCounter<H>> {
        let event = event.into();
        self.counters.iter().find(|c| c.event == event)
    }

    /// Number of counters (at least 1).
    pub fn len(&self) -> usize {
        self.counters.len()
    }

    /// Always false: a session has at least one counter.
    pub fn is_empty(&self) -> bool {
        self.counters.is_empty()
    }

    /// The latest deltas, one per counter in order.
    pub fn deltas(&self) -> impl ExactSizeIterator<Item = Delta> + '_ {
        self.counters.iter().map(|c| c.delta)
    }

    /// The path the latest read took.
    pub fn last_path(&self) -> ReadPath {
        self.last_path
    }

    /// Whether `read(false)` tries the user-space read: every counter has a mapped page and
    /// the session chose that path ([`Session::read_path_choice`]); the page may still send a
    /// read to the syscall: see [`Session::last_path`].
    pub fn rdpmc_possible(&self) -> bool {
        self.fast_path
    }

    /// The read path the session took, why, and what each path cost when it chose. A session
    /// opened disabled under [`ReadPolicy::Auto`] chooses at its first [`Session::enable`];
    /// until then this says the user-space read is tried where the pages allow it.
    pub fn read_path_choice(&self) -> PathChoice {
        let path = if self.fast_path {
            ReadPath::Rdpmc
        } else {
            ReadPath::Syscall
        };
        self.choice
            .unwrap_or_else(|| PathChoice::unmeasured(path, self.policy, PathReason::Pending))
    }

    /// Whether the latest deltas are exact: both reads took one path and neither raced the
    /// kernel (a page read that started over, or a page that sent the read to read(2)); the
    /// read's own work then lands in the same place of every delta, and fixed work counts
    /// the same (±1, as read(2) does). A delta that is not holds tens of the read's own
    /// instructions more, or the other path's cost: measure again, or drop it.
    pub fn exact(&self) -> bool {
        self.exact
    }

    /// How the user-space reads went since open: how many raced the kernel.
    pub fn read_stats(&self) -> ReadStats {
        self.stats
    }

    /// The read path and why ([`Session::read_path_choice`]), and once a user-space read
    /// raced the kernel, how often ([`Session::read_stats`]): the line reports print.
    pub fn read_path_line(&self) -> String {
        let choice = self.read_path_choice();
        match self.stats.raced() {
            0 => choice.to_string(),
            _ => format!("{choice}; {}", self.stats),
        }
    }

    /// Whether the group is counting.
    pub fn is_enabled(&self) -> bool {
        self.enabled
    }

    /// IPC and miss ratios of the latest deltas.
    pub fn derived(&self) -> Derived {
        Derived::from_values(|e| self.find(e).map(|c| c.delta.scaled as f64))
    }

    /// IPC and miss ratios of the histogram means (all recorded intervals).
    pub fn derived_means(&self) -> Derived {
        Derived::from_values(|e| {
            self.find(e)
                .map(|c| c.histogram.mean())
                .filter(|m| m.is_finite())
        })
    }
}

/// The group leader's fd: the first perf counter's (`None` when every counter is emulated).
fn leader_of<H>(counters: &[SessionCounter<H>]) -> Option<&EventFd> {
    counters.iter().find_map(|c| match &c.source {
        Source::Perf { fd, .. } => Some(fd),
        Source::Emulated(_) => None,
    })
}

/// A pinned group the PMU could not hold (its read returned 0 bytes).
fn unschedulable<H>(counters: &[SessionCounter<H>]) -> PerfError {
    let leader = counters.iter().find(|c| !c.event.is_emulated());
    let leader = leader.unwrap_or(&counters[0]);
    PerfError::new(
        PerfErrorKind::Unschedulable,
        0,
        Some(leader.event),
        format!(
            "the pinned group of {} counter(s) led by {} cannot be scheduled (read returned 0 \
             bytes): it needs more counters than the PMU has free (an NMI watchdog holds one); \
             use fewer counters or do not pin",
            counters.len(),
            leader.name
        ),
    )
}
