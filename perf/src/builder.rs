//! The session builder: what to count, for whom, and how. A plain description: opening it
//! is the session's business (`SessionBuilder::open` lives with the session's construction).

use super::error::{PerfError, PerfErrorKind};
use super::event::{CacheEvent, Event, HardwareEvent, RawEvent, SoftwareEvent, FIXED_EVENTS};
use super::group::MAX_GROUP_COUNTERS;
use super::path::ReadPolicy;

/// Options and counters of a session, then [`SessionBuilder::open`].
///
/// Defaults: this thread (`pid = 0`) on any CPU (`cpu = -1`), not pinned, user space only
/// (`exclude_kernel` and `exclude_hv`), enabled at open, histograms at 0.1 % relative
/// error, read overhead calibrated at open, the cheaper read path measured at open
/// ([`ReadPolicy::Auto`]), not inherited by child tasks.
///
/// A session is one perf group of at most [`MAX_GROUP_COUNTERS`] counters.
#[derive(Clone, Debug)]
pub struct SessionBuilder {
    pub(crate) pid: i32,
    pub(crate) cpu: i32,
    pub(crate) pinned: bool,
    pub(crate) kernel: bool,
    pub(crate) enabled: bool,
    pub(crate) inherit: bool,
    pub(crate) enable_on_exec: bool,
    pub(crate) relative_error: f64,
    pub(crate) calibrate: bool,
    pub(crate) read_policy: ReadPolicy,
    pub(crate) events: heapless::Vec<Event, MAX_GROUP_COUNTERS>,
    /// The first counter `with_counter` could not add, reported by `open`.
    pub(crate) refused: Option<PerfError>,
}

impl Default for SessionBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl SessionBuilder {
    /// The defaults above, with no counters.
    pub fn new() -> Self {
        SessionBuilder {
            pid: 0,
            cpu: -1,
            pinned: false,
            kernel: false,
            enabled: true,
            inherit: false,
            enable_on_exec: false,
            relative_error: 0.001,
            calibrate: true,
            read_policy: ReadPolicy::Auto,
            events: heapless::Vec::new(),
            refused: None,
        }
    }

    /// Whom to count: `pid` (0 = the calling thread, or a pid/tid) on `cpu` (-1 = any).
    pub fn with_target(mut self, pid: i32, cpu: i32) -> Self {
        self.pid = pid;
        self.cpu = cpu;
        self
    }

    /// Pinned: the group is on the PMU all the time or not at all (never multiplexed); a
    /// pinned group that does not fit is reported by `read` as unschedulable.
    pub fn with_pinned(mut self, pinned: bool) -> Self {
        self.pinned = pinned;
        self
    }

    /// Count kernel and hypervisor work too (off by default: needs perf_event_paranoid ≤ 1).
    pub fn with_kernel(mut self, kernel: bool) -> Self {
        self.kernel = kernel;
        self
    }

    /// Start counting at open (default) or only after
    /// [`Session::enable`](super::Session::enable).
    pub fn with_enabled(mut self, enabled: bool) -> Self {
        self.enabled = enabled;
        self
    }

    /// Count the tasks the target creates after the open too (perf's `inherit`): each child
    /// gets a copy of the group, and a read sums the target and its children (live and
    /// exited). Reads then always go through `read(2)`: rdpmc would see the reader's own
    /// counts only.
    pub fn with_inherit(mut self, inherit: bool) -> Self {
        self.inherit = inherit;
        self
    }

    /// Start counting when the target calls `execve` (perf's `enable_on_exec`); use with
    /// `with_enabled(false)`. To count a command from its exec on, as `perf stat` does:
    /// fork a child that waits (on a pipe, say), open the group on its pid
    /// ([`Self::with_target`]) with [`Self::with_inherit`], then let it exec. (A group on
    /// the calling thread that its spawned commands inherit is not reliable past the
    /// first: the kernel may swap the two tasks' contexts when it switches between them.)
    pub fn with_enable_on_exec(mut self, enable_on_exec: bool) -> Self {
        self.enable_on_exec = enable_on_exec;
        self
    }

    /// Relative error of each counter's histogram (default 0.001).
    pub fn with_relative_error(mut self, relative_error: f64) -> Self {
        self.relative_error = relative_error;
        self
    }

    /// Measure the cost of back-to-back reads at open (default on; needs `enabled`).
    pub fn with_calibration(mut self, calibrate: bool) -> Self {
        self.calibrate = calibrate;
        self
    }

    /// How reads go: the cheaper path measured at open ([`ReadPolicy::Auto`], the
    /// default), always user space where the page allows, or always `read(2)`. The
    /// session says which it took and why ([`Session::read_path_choice`]).
    ///
    /// [`Session::read_path_choice`]: super::Session::read_path_choice
    pub fn with_read_policy(mut self, read_policy: ReadPolicy) -> Self {
        self.read_policy = read_policy;
        self
    }

    /// Map each hardware counter's page for user-space reads (`true`: [`ReadPolicy::Auto`],
    /// the default) or never (`false`: [`ReadPolicy::Syscall`]).
    pub fn with_rdpmc(self, rdpmc: bool) -> Self {
        let policy = if rdpmc {
            ReadPolicy::Auto
        } else {
            ReadPolicy::Syscall
        };
        self.with_read_policy(policy)
    }

    /// Add a counter; a duplicate, or a counter past [`MAX_GROUP_COUNTERS`], is remembered
    /// and reported by [`SessionBuilder::open`].
    pub fn with_counter(mut self, event: impl Into<Event>) -> Self {
        if let Err(e) = self.add_counter(event) {
            self.refused.get_or_insert(e);
        }
        self
    }

    /// Add a generic hardware counter.
    pub fn with_hardware(self, event: HardwareEvent) -> Self {
        self.with_counter(event)
    }

    /// Add a cache counter.
    pub fn with_cache(self, event: CacheEvent) -> Self {
        self.with_counter(event)
    }

    /// Add a software counter.
    pub fn with_software(self, event: SoftwareEvent) -> Self {
        self.with_counter(event)
    }

    /// Add a raw counter.
    pub fn with_raw(self, event: RawEvent) -> Self {
        self.with_counter(event)
    }

    /// Add cycles, instructions and reference cycles (Intel's fixed counters).
    pub fn with_fixed_counters(mut self) -> Self {
        for e in FIXED_EVENTS {
            self = self.with_counter(e);
        }
        self
    }

    /// Add a counter, or say that it is already there or that the group is full
    /// ([`MAX_GROUP_COUNTERS`]; kind `InvalidArgument`). Nothing is opened yet.
    pub fn add_counter(&mut self, event: impl Into<Event>) -> Result<(), PerfError> {
        let event = event.into();
        if self.events.contains(&event) {
            return Err(duplicate(event));
        }
        let asked = self.events.len() + 1;
        self.events
            .push(event)
            .map_err(|_| PerfError::group_full(event, asked))
    }

    /// The counters so far, in the order they will be opened (the first leads the group).
    pub fn counters(&self) -> &[Event] {
        &self.events
    }

    /// Why this description cannot be opened: a refused counter, or no counter at all.
    pub(crate) fn check(&self) -> Result<(), PerfError> {
        if let Some(e) = &self.refused {
            return Err(e.clone());
        }
        if self.events.is_empty() {
            return Err(PerfError::new(
                PerfErrorKind::EmptySession,
                0,
                None,
                "a session needs at least one counter".into(),
            ));
        }
        Ok(())
    }
}

fn duplicate(event: Event) -> PerfError {
    PerfError::new(
        PerfErrorKind::DuplicateCounter,
        0,
        Some(event),
        format!("{event}: added to the session twice"),
    )
}
