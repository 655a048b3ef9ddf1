//! One counter of a session: its event and name, readings, delta, calibrated overhead and
//! histogram.

use picollo::{Histogram, Sink};

use super::event::{EmulatedEvent, Event};
use super::sys::{EventFd, MmapPage};
use super::values::{Delta, ReadPath, Reading};

/// The histogram a session gives each counter by default (`SessionBuilder::open`).
pub type CounterHistogram = Histogram<u64, Vec<u64>>;

/// Where a counter's counts come from.
#[derive(Debug)]
pub(crate) enum Source {
    /// A perf_event of the session's group: its fd, the kernel's id (the key of its value
    /// in a group read) and its page for rdpmc.
    Perf {
        fd: EventFd,
        id: u64,
        page: Option<MmapPage>,
    },
    /// A count of the emulator's, read with the session's other emulated counters.
    Emulated(EmulatedEvent),
}

/// One counter of a session, recording into an `H` (a histogram by default) that it owns.
pub struct SessionCounter<H = CounterHistogram> {
    pub(crate) event: Event,
    pub(crate) name: String,
    pub(crate) source: Source,
    pub(crate) current: Reading,
    pub(crate) previous: Reading,
    pub(crate) delta: Delta,
    /// Calibrated cost of one read, per path: [syscall, rdpmc].
    pub(crate) overhead: [u64; 2],
    pub(crate) histogram: H,
}

impl<H: Sink> core::fmt::Debug for SessionCounter<H> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SessionCounter")
            .field("name", &self.name)
            .field("source", &self.source)
            .field("current", &self.current)
            .field("delta", &self.delta)
            .field("overhead", &self.overhead)
            .field("recorded", &self.histogram.total())
            .finish()
    }
}

impl<H> SessionCounter<H> {
    /// A counter just opened: no readings yet, not calibrated, recording into `sink`.
    pub(crate) fn new(event: Event, source: Source, sink: H) -> Self {
        SessionCounter {
            event,
            name: format!("{event}"),
            source,
            current: Reading::default(),
            previous: Reading::default(),
            delta: Delta::default(),
            overhead: [0; 2],
            histogram: sink,
        }
    }

    /// The event.
    pub fn event(&self) -> Event {
        self.event
    }
    /// Its name (`Hardware:CpuCycles`).
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The kernel's id (the key of its value in a group read); 0 for an emulated counter.
    pub fn id(&self) -> u64 {
        match &self.source {
            Source::Perf { id, .. } => *id,
            Source::Emulated(_) => 0,
        }
    }
    /// The latest reading.
    pub fn current(&self) -> Reading {
        self.current
    }
    /// The reading before it.
    pub fn previous(&self) -> Reading {
        self.previous
    }
    /// `current − previous`.
    pub fn delta(&self) -> Delta {
        self.delta
    }
    /// The calibrated cost of one read through `path`, in this counter's unit (0 when not
    /// calibrated).
    pub fn overhead(&self, path: ReadPath) -> u64 {
        match path {
            ReadPath::Syscall => self.overhead[0],
            ReadPath::Rdpmc => self.overhead[1],
            ReadPath::None => 0,
        }
    }
    /// Its file descriptor (owned by the session: closed when the session drops; opened
    /// with close-on-exec); -1 for an emulated counter, which has none.
    pub fn raw_fd(&self) -> i32 {
        match &self.source {
            Source::Perf { fd, .. } => fd.raw(),
            Source::Emulated(_) => -1,
        }
    }
    /// Whether its page is mapped for rdpmc (hardware, cache and raw events).
    pub fn has_page(&self) -> bool {
        matches!(&self.source, Source::Perf { page: Some(_), .. })
    }
    /// Its page, where it has one.
    pub(crate) fn page(&self) -> Option<&MmapPage> {
        match &self.source {
            Source::Perf { page, .. } => page.as_ref(),
            Source::Emulated(_) => None,
        }
    }
    /// Its histogram (or the sink the session was opened with), owned by the counter.
    pub fn histogram(&self) -> &H {
        &self.histogram
    }
    /// Its histogram, to record or reset by hand.
    pub fn histogram_mut(&mut self) -> &mut H {
        &mut self.histogram
    }
}
