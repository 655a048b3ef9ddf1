//! Opening a session from its description: one perf_event fd per counter (the first leads
//! the group), a page per PMU counter for rdpmc, one sink per counter, then
//! [`Session::start`].

use picollo::{Config, Sink};

use super::builder::SessionBuilder;
use super::counter::{SessionCounter, Source};
use super::emulated::Emulator;
use super::error::{PerfError, PerfErrorKind};
use super::event::{EmulatedEvent, Event};
use super::path::ReadPolicy;
use super::session::Session;
use super::sys::{self, EventFd, MmapPage, PerfEventAttr};
use super::system;

impl SessionBuilder {
    /// Open every counter as one group, each recording into a [`super::CounterHistogram`]
    /// at the builder's relative error. Fails with the first counter that cannot be
    /// opened, named in the error, or with a refused counter (duplicate, group full) or an
    /// empty list.
    pub fn open(&self) -> Result<Session, PerfError> {
        let config = Config::new().with_relative_error(self.relative_error);
        self.open_with(|event| {
            config.build::<u64>().map_err(|e| {
                PerfError::new(
                    PerfErrorKind::InvalidArgument,
                    0,
                    Some(event),
                    format!("{event}: histogram configuration: {e}"),
                )
            })
        })
    }

    /// Open the group with each counter recording into what `make_sink` builds for it:
    /// any [`Sink`], e.g. a concurrent histogram (or an `Arc` of one that other threads
    /// read), or a histogram of another precision per event. `make_sink` runs once per
    /// counter, in order, before the counter opens; the session takes ownership of what it
    /// returns.
    pub fn open_with<H: Sink>(
        &self,
        mut make_sink: impl FnMut(Event) -> Result<H, PerfError>,
    ) -> Result<Session<H>, PerfError> {
        self.check()?;
        let emulator = self.open_emulator()?;
        let mut counters: Vec<SessionCounter<H>> = Vec::with_capacity(self.events.len());
        for &event in &self.events {
            let sink = make_sink(event)?;
            let source = match event {
                Event::Emulated(e) => Source::Emulated(e),
                _ => {
                    let leader = counters.iter().find_map(|c| match &c.source {
                        Source::Perf { fd, .. } => Some(fd),
                        Source::Emulated(_) => None,
                    });
                    self.open_counter(event, leader)?
                }
            };
            counters.push(SessionCounter::new(event, source, sink));
        }
        Session::start(
            counters,
            emulator,
            self.enabled,
            self.calibrate,
            self.read_policy,
        )
    }

    /// The probe of the emulated counters, if any: they count the calling thread's user
    /// space from now on, so a description that asks for anything else is refused.
    fn open_emulator(&self) -> Result<Option<Emulator>, PerfError> {
        let emulated: Vec<EmulatedEvent> = self
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Emulated(e) => Some(*e),
                _ => None,
            })
            .collect();
        let Some(&first) = emulated.first() else {
            return Ok(None);
        };
        let refused = [
            (self.pid != 0, "another task (with_target)"),
            (self.cpu != -1, "one CPU (with_target)"),
            (self.inherit, "child tasks (with_inherit)"),
            (self.enable_on_exec, "an exec (with_enable_on_exec)"),
            (self.kernel, "kernel work (with_kernel)"),
        ];
        if let Some((_, what)) = refused.iter().find(|(asked, _)| *asked) {
            return Err(PerfError::new(
                PerfErrorKind::InvalidArgument,
                0,
                Some(Event::Emulated(first)),
                format!(
                    "{}: emulated counters count the calling thread's user-space work, not \
                     {what}",
                    Event::Emulated(first)
                ),
            ));
        }
        Emulator::open(&emulated, self.enabled).map(Some)
    }

    /// Open the group with counter `k` recording into `sinks[k]`: the session takes
    /// ownership of the sinks the caller made (an `Arc` of a shared histogram hands the
    /// session one reference). Fails before opening anything unless there is exactly one
    /// sink per counter.
    pub fn open_with_sinks<H: Sink>(&self, sinks: Vec<H>) -> Result<Session<H>, PerfError> {
        let counters = self.events.len();
        if sinks.len() != counters {
            return Err(PerfError::new(
                PerfErrorKind::InvalidArgument,
                0,
                None,
                format!("{} sink(s) for {counters} counter(s)", sinks.len()),
            ));
        }
        let mut sinks = sinks.into_iter();
        self.open_with(|event| {
            sinks.next().ok_or_else(|| {
                PerfError::new(
                    PerfErrorKind::InvalidArgument,
                    0,
                    Some(event),
                    format!("{event}: no sink for this counter"),
                )
            })
        })
    }

    /// Open one counter of the group (`leader` is `None` for the first) and its id, and map
    /// its page where user space may read it (PMU events of a group not inherited only; a
    /// failed map means read(2)). A counter of a task (not CPU-wide) that gets a page also
    /// asks its PMU for user-space reads where the PMU wants that asked (arm64).
    fn open_counter(&self, event: Event, leader: Option<&EventFd>) -> Result<Source, PerfError> {
        let mut attr = self.attr(event, leader.is_none());
        let mapped = self.read_policy != ReadPolicy::Syscall
            && !self.inherit
            && cfg!(picollo_native)
            && !event.is_software();
        if mapped && self.pid != -1 {
            let [config, config1, config2] = user_read_bits(event);
            attr.config |= config;
            attr.config1 |= config1;
            attr.config2 |= config2;
        }
        let fd = sys::open(&mut attr, self.pid, self.cpu, leader)
            .map_err(|e| PerfError::open_failed(event, e, attr.size))?;
        let id = fd
            .id()
            .map_err(|e| PerfError::os("PERF_EVENT_IOC_ID", e).for_event(event))?;
        let page = mapped.then(|| MmapPage::map(&fd).ok()).flatten();
        Ok(Source::Perf { fd, id, page })
    }

    /// The attributes of `event` as a group member (or the leader), read as one group.
    fn attr(&self, event: Event, leader: bool) -> PerfEventAttr {
        let (type_, config, config1, config2) = event.encoding();
        let mut attr = PerfEventAttr::new(type_, config);
        attr.config1 = config1;
        attr.config2 = config2;
        attr.read_format = sys::FORMAT_GROUP
            | sys::FORMAT_ID
            | sys::FORMAT_TOTAL_TIME_ENABLED
            | sys::FORMAT_TOTAL_TIME_RUNNING;
        if !self.kernel {
            attr.flags |= sys::FLAG_EXCLUDE_KERNEL | sys::FLAG_EXCLUDE_HV;
        }
        if self.inherit {
            attr.flags |= sys::FLAG_INHERIT;
        }
        // Only the leader carries these: members follow it, and the kernel rejects pinned
        // on a member.
        if leader && !self.enabled {
            attr.flags |= sys::FLAG_DISABLED;
        }
        if leader && self.enable_on_exec {
            attr.flags |= sys::FLAG_ENABLE_ON_EXEC;
        }
        if leader && self.pinned {
            attr.flags |= sys::FLAG_PINNED;
        }
        attr
    }
}

/// The config bits that ask for user-space reads of `event`'s counter, from the sysfs
/// format of its PMU: a core PMU for hardware, cache and `PERF_TYPE_RAW` events, the PMU of
/// its type for other raw events. None where the PMU has no `rdpmc` format (x86).
fn user_read_bits(event: Event) -> [u64; 3] {
    let root = system::SYSFS_PMUS;
    let (type_, ..) = event.encoding();
    let core = matches!(
        type_,
        sys::TYPE_HARDWARE | sys::TYPE_HW_CACHE | sys::TYPE_RAW
    );
    system::sysfs_pmus()
        .iter()
        .filter(|p| match core {
            true => system::is_core_pmu(root, &p.name),
            false => p.type_ == type_,
        })
        .find_map(|p| system::user_read_bits(root, &p.name))
        .unwrap_or([0; 3])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SoftwareEvent;

    #[test]
    fn inherit_marks_every_member_and_enable_on_exec_the_leader_only() {
        let b = SessionBuilder::new()
            .with_enabled(false)
            .with_inherit(true)
            .with_enable_on_exec(true);
        let event = Event::from(SoftwareEvent::TaskClock);
        let (leader, member) = (b.attr(event, true), b.attr(event, false));
        let on_exec = sys::FLAG_DISABLED | sys::FLAG_ENABLE_ON_EXEC;
        assert_eq!(leader.flags & on_exec, on_exec);
        assert_eq!(member.flags & on_exec, 0);
        assert_ne!(leader.flags & sys::FLAG_INHERIT, 0);
        assert_ne!(member.flags & sys::FLAG_INHERIT, 0);
        let plain = SessionBuilder::new().attr(event, true);
        assert_eq!(plain.flags & (sys::FLAG_INHERIT | on_exec), 0);
    }

    #[test]
    fn emulated_counters_count_this_thread_s_user_space_only() {
        let emulated = Event::Emulated(EmulatedEvent::Instructions);
        let asks = [
            ("another task", SessionBuilder::new().with_target(1, -1)),
            ("one CPU", SessionBuilder::new().with_target(0, 0)),
            ("child tasks", SessionBuilder::new().with_inherit(true)),
            ("an exec", SessionBuilder::new().with_enable_on_exec(true)),
            ("kernel work", SessionBuilder::new().with_kernel(true)),
        ];
        for (what, b) in asks {
            let b = b
                .with_software(SoftwareEvent::TaskClock)
                .with_counter(emulated);
            let e = b.open().unwrap_err();
            assert_eq!(e.kind(), PerfErrorKind::InvalidArgument, "{e}");
            assert_eq!(e.event(), Some(emulated));
            assert!(e.message().contains(what), "{e}");
        }
    }

    #[test]
    fn a_session_with_an_emulated_counter_opens_only_under_the_plugin() {
        let emulated = Event::Emulated(EmulatedEvent::Instructions);
        let b = SessionBuilder::new()
            .with_software(SoftwareEvent::TaskClock)
            .with_counter(emulated);
        match (super::super::emulation().counts, b.open()) {
            (Some(_), Ok(s)) => {
                assert_eq!(s.counter(1).unwrap().raw_fd(), -1);
                assert_eq!(s.counter(1).unwrap().id(), 0);
            }
            (None, Err(e)) => {
                assert_eq!(e.event(), Some(emulated), "{e}");
                assert!(e.message().contains("picollo emulate"), "{e}");
            }
            (under, opened) => panic!("under the plugin: {under:?}; opened: {opened:?}"),
        }
    }
}
