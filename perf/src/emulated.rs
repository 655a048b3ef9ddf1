//! Exact counts where there is no PMU: the calling thread's guest instructions, loads,
//! stores and misses of a modelled L1D cache, counted by Picollo's QEMU plugin
//! (`native/qemu/picollo_qemu_plugin.c`) for a program run under QEMU's user mode
//! (`picollo emulate -- PROG`).
//!
//! The program asks with a system call of a number no kernel has ([`SYSCALL`]), passing the
//! write end of a pipe: the plugin writes one record of the calling thread's counts into it
//! (`native/qemu/picollo_emulated.h` is the protocol). Without the plugin the call fails
//! with ENOSYS and the pipe stays empty, which is how [`emulation`] tells the two apart.

use super::error::{PerfError, PerfErrorKind};
use super::event::{EmulatedEvent, Event};
use super::sys::{errno, errno_name};

/// The system call number of a request for counts ("PICo" in ASCII; no architecture has it).
pub const SYSCALL: i64 = 0x5049_436f;
/// The first word of every record.
const MAGIC: u64 = 0x5049_4330_454d_5531;
/// `thread` of the record of a whole run (every thread's counts summed).
pub const ALL_THREADS: u64 = u64::MAX;
/// The record layout this build reads.
pub const RECORD_VERSION: u64 = 1;
/// Words in a record.
const WORDS: usize = 12;
/// `flags`: loads and stores are counted.
const MEMORY: u64 = 1;
/// `flags`: the L1D model runs.
const L1D: u64 = 2;
/// `flags`: a thread past the plugin's capacity ran uncounted.
const INCOMPLETE: u64 = 4;

/// The modelled L1D cache: set-associative, LRU, write-allocate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct L1dModel {
    /// Its size in bytes.
    pub bytes: u64,
    /// Ways per set.
    pub ways: u64,
    /// Bytes per line.
    pub line: u64,
}

/// One record of the plugin: a thread's counts since it started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmulatedCounts {
    /// The guest thread's vCPU index (QEMU reuses the index of a thread that exited);
    /// [`ALL_THREADS`] in the record of a whole run.
    pub thread: u64,
    /// Guest instructions executed, user space only.
    pub instructions: u64,
    /// Guest loads and stores; `None` unless the plugin counts them (`mem=on`).
    pub memory: Option<(u64, u64)>,
    /// Loads and stores that missed the modelled L1D; `None` unless it runs (`l1d=on`).
    pub l1d_misses: Option<u64>,
    /// The modelled cache, when it runs.
    pub l1d: Option<L1dModel>,
}

impl EmulatedCounts {
    /// A record as the plugin writes it (96 bytes in the host's byte order), checked: the
    /// file of its `totals=PATH` argument (the whole run, every thread), say.
    pub fn from_record(bytes: &[u8]) -> Result<Self, PerfError> {
        let mut words = [0u64; WORDS];
        for (w, chunk) in words.iter_mut().zip(bytes.chunks_exact(8)) {
            *w = u64::from_ne_bytes(chunk.try_into().expect("chunks of 8 bytes"));
        }
        parse(&words, bytes.len() as isize, None)
    }

    /// The count of `event`, or `None` where the plugin does not count it.
    pub fn get(&self, event: EmulatedEvent) -> Option<u64> {
        match event {
            EmulatedEvent::Instructions => Some(self.instructions),
            EmulatedEvent::Loads => self.memory.map(|m| m.0),
            EmulatedEvent::Stores => self.memory.map(|m| m.1),
            EmulatedEvent::L1DMisses => self.l1d_misses,
        }
    }
}

/// Where a program stands with the plugin: its counts, or why there are none.
#[derive(Clone, Debug)]
pub struct Emulation {
    /// This thread's counts now, when the plugin answered.
    pub counts: Option<EmulatedCounts>,
    /// One line: what the plugin counts here, or why nothing is counted.
    pub description: String,
}

/// Ask the plugin for this thread's counts: what it counts, or why it cannot answer.
pub fn emulation() -> Emulation {
    let answer = Probe::new().and_then(|p| p.counts(None));
    let description = match &answer {
        Ok(c) => describe(c),
        Err(e) => e.message().into(),
    };
    Emulation {
        counts: answer.ok(),
        description,
    }
}

/// `emulated by Picollo's QEMU plugin: instructions, loads, stores, L1D misses (32768 B,
/// 8 ways, 64 B lines)`.
fn describe(c: &EmulatedCounts) -> String {
    let mut s = String::from("emulated by Picollo's QEMU plugin: instructions");
    if c.memory.is_some() {
        s.push_str(", loads, stores");
    }
    if let Some(m) = c.l1d {
        s.push_str(&format!(
            ", L1D misses ({} B, {} ways, {} B lines)",
            m.bytes, m.ways, m.line
        ));
    }
    s
}

/// A pipe whose write end the plugin writes records into; both ends close on drop.
#[derive(Debug)]
pub(crate) struct Probe {
    read_end: libc::c_int,
    write_end: libc::c_int,
}

impl Drop for Probe {
    fn drop(&mut self) {
        // SAFETY: both fds are ours and closed exactly once.
        unsafe {
            libc::close(self.read_end);
            libc::close(self.write_end);
        }
    }
}

impl Probe {
    /// A probe: a pipe, close-on-exec, whose read end never blocks.
    pub(crate) fn new() -> Result<Probe, PerfError> {
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: `fds` has room for the two descriptors pipe2 writes.
        let rc = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC | libc::O_NONBLOCK) };
        if rc != 0 {
            return Err(PerfError::os("pipe2 for the emulator's counts", errno()));
        }
        Ok(Probe {
            read_end: fds[0],
            write_end: fds[1],
        })
    }

    /// This thread's counts now. `event` names the counter an error concerns.
    pub(crate) fn counts(&self, event: Option<EmulatedEvent>) -> Result<EmulatedCounts, PerfError> {
        let mut words = [0u64; WORDS];
        // SAFETY: a system call no kernel implements (ENOSYS) that Picollo's plugin answers
        // by writing one record to the pipe we pass; it reads no memory of ours.
        unsafe { libc::syscall(SYSCALL as libc::c_long, self.write_end as libc::c_long) };
        // SAFETY: `words` is valid for writes of its whole byte length.
        let n = unsafe {
            libc::read(
                self.read_end,
                words.as_mut_ptr().cast(),
                core::mem::size_of_val(&words),
            )
        };
        let failed = (n < 0).then(errno);
        parse(&words, n, failed).map_err(|e| match event {
            Some(ev) => e.for_event(Event::Emulated(ev)),
            None => e,
        })
    }
}

/// The record in `words` (`n` bytes read, `failed` the read's errno), checked.
fn parse(words: &[u64; WORDS], n: isize, failed: Option<i32>) -> Result<EmulatedCounts, PerfError> {
    match failed {
        Some(libc::EAGAIN) => return Err(not_emulated()),
        Some(e) => return Err(PerfError::os("read of the emulator's counts", e)),
        None => {}
    }
    if n != (WORDS * 8) as isize || words[0] != MAGIC {
        return Err(PerfError::new(
            PerfErrorKind::BadRead,
            0,
            None,
            format!("the emulator's record is unreadable ({n} bytes, not a Picollo record)"),
        ));
    }
    if words[1] != RECORD_VERSION {
        return Err(other_version(words[1]));
    }
    if words[3] & INCOMPLETE != 0 {
        return Err(PerfError::new(
            PerfErrorKind::Unsupported,
            0,
            None,
            "the QEMU plugin ran out of thread slots: some thread's work went uncounted, so \
             no count of this run is exact"
                .into(),
        ));
    }
    Ok(counts_of(words))
}

/// The fields of a checked record.
fn counts_of(w: &[u64; WORDS]) -> EmulatedCounts {
    let flags = w[3];
    let l1d = (flags & L1D != 0).then_some(L1dModel {
        bytes: w[8],
        ways: w[9],
        line: w[10],
    });
    EmulatedCounts {
        thread: w[2],
        instructions: w[4],
        memory: (flags & MEMORY != 0).then_some((w[5], w[6])),
        l1d_misses: l1d.map(|_| w[7]),
        l1d,
    }
}

/// The program does not run under the plugin.
fn not_emulated() -> PerfError {
    PerfError::new(
        PerfErrorKind::Unsupported,
        libc::ENOSYS,
        None,
        format!(
            "not running under Picollo's QEMU plugin: the request for counts (system call \
             {SYSCALL:#x}) got no answer ({}); run the program with `picollo emulate -- PROG`",
            errno_name(libc::ENOSYS)
        ),
    )
}

/// The plugin writes records of another layout.
fn other_version(theirs: u64) -> PerfError {
    PerfError::new(
        PerfErrorKind::EmulatorVersion,
        0,
        None,
        format!(
            "the QEMU plugin writes record version {theirs}; this library reads version \
             {RECORD_VERSION}: run with the plugin of this Picollo (`picollo emulate`)"
        ),
    )
}

/// Why `event` cannot be counted from `counts` (the plugin runs without its option).
pub(crate) fn missing(event: EmulatedEvent) -> PerfError {
    let option = match event {
        EmulatedEvent::L1DMisses => "an L1D model (`picollo emulate --l1d`)",
        _ => "loads and stores (`picollo emulate --memory`)",
    };
    PerfError::new(
        PerfErrorKind::Unsupported,
        0,
        Some(Event::Emulated(event)),
        format!(
            "{}: the QEMU plugin runs without {option}",
            Event::Emulated(event)
        ),
    )
}

/// The emulated counters of a session: the probe, and the counts it reads as the session
/// sees them (counting only while the session is enabled, from 0 at open or reset).
#[derive(Debug)]
pub(crate) struct Emulator {
    probe: Probe,
    /// The raw counts at the latest read, per [`EmulatedEvent`] (0 where not counted).
    raw: [u64; 4],
    /// What the session does not count: the counts before open or reset, and while disabled.
    excluded: [u64; 4],
    /// The raw counts when the session was disabled; `None` while enabled.
    paused_at: Option<[u64; 4]>,
}

/// Per [`EmulatedEvent`], its count in `c` (0 where the plugin does not count it).
fn array_of(c: &EmulatedCounts) -> [u64; 4] {
    [
        EmulatedEvent::Instructions,
        EmulatedEvent::Loads,
        EmulatedEvent::Stores,
        EmulatedEvent::L1DMisses,
    ]
    .map(|e| c.get(e).unwrap_or(0))
}

impl Emulator {
    /// The probe of a session counting `events`, each of which the plugin must count;
    /// counting from now, paused unless `enabled`.
    pub(crate) fn open(events: &[EmulatedEvent], enabled: bool) -> Result<Self, PerfError> {
        let probe = Probe::new()?;
        let counts = probe.counts(events.first().copied())?;
        if let Some(&e) = events.iter().find(|&&e| counts.get(e).is_none()) {
            return Err(missing(e));
        }
        let raw = array_of(&counts);
        Ok(Emulator {
            probe,
            raw,
            excluded: raw,
            paused_at: (!enabled).then_some(raw),
        })
    }

    /// Read this thread's counts now.
    pub(crate) fn read(&mut self) -> Result<(), PerfError> {
        self.raw = array_of(&self.probe.counts(None)?);
        Ok(())
    }

    /// The session's count of `event` at the latest read.
    pub(crate) fn value(&self, event: EmulatedEvent) -> u64 {
        let i = event as usize;
        let end = self.paused_at.map_or(self.raw[i], |p| p[i]);
        end.wrapping_sub(self.excluded[i])
    }

    /// Stop counting (reads keep the counts of now).
    pub(crate) fn disable(&mut self) -> Result<(), PerfError> {
        self.read()?;
        self.paused_at.get_or_insert(self.raw);
        Ok(())
    }

    /// Count again: what ran while disabled stays out.
    pub(crate) fn enable(&mut self) -> Result<(), PerfError> {
        self.read()?;
        self.resume();
        Ok(())
    }

    /// Count from 0 again (paused or not as before).
    pub(crate) fn reset(&mut self) -> Result<(), PerfError> {
        self.read()?;
        self.restart();
        Ok(())
    }

    /// Leave the pause (at the latest raw counts) out of every count.
    fn resume(&mut self) {
        if let Some(p) = self.paused_at.take() {
            for ((x, raw), p) in self.excluded.iter_mut().zip(self.raw).zip(p) {
                *x = x.wrapping_add(raw.wrapping_sub(p));
            }
        }
    }

    /// Count from the latest raw counts on.
    fn restart(&mut self) {
        self.excluded = self.raw;
        if self.paused_at.is_some() {
            self.paused_at = Some(self.raw);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(version: u64, flags: u64) -> [u64; WORDS] {
        [MAGIC, version, 3, flags, 1000, 200, 100, 7, 32768, 8, 64, 0]
    }

    #[test]
    fn a_record_gives_the_counts_its_flags_say_are_counted() {
        let bytes = (WORDS * 8) as isize;
        let plain = parse(&record(1, 0), bytes, None).unwrap();
        assert_eq!(plain.thread, 3);
        assert_eq!(plain.get(EmulatedEvent::Instructions), Some(1000));
        assert_eq!(plain.get(EmulatedEvent::Loads), None);
        assert_eq!(plain.get(EmulatedEvent::L1DMisses), None);
        let all = parse(&record(1, MEMORY | L1D), bytes, None).unwrap();
        assert_eq!(array_of(&all), [1000, 200, 100, 7]);
        let model = all.l1d.unwrap();
        assert_eq!((model.bytes, model.ways, model.line), (32768, 8, 64));
        assert!(describe(&all).ends_with("L1D misses (32768 B, 8 ways, 64 B lines)"));
    }

    #[test]
    fn no_answer_another_version_or_a_short_record_is_a_clear_error() {
        let bytes = (WORDS * 8) as isize;
        let none = parse(&[0; WORDS], -1, Some(libc::EAGAIN)).unwrap_err();
        assert_eq!(none.kind(), PerfErrorKind::Unsupported);
        assert!(none.message().contains("picollo emulate -- PROG"), "{none}");
        let v2 = parse(&record(2, 0), bytes, None).unwrap_err();
        assert_eq!(v2.kind(), PerfErrorKind::EmulatorVersion);
        assert!(v2.message().contains("record version 2"), "{v2}");
        let short = parse(&record(1, 0), 40, None).unwrap_err();
        assert_eq!(short.kind(), PerfErrorKind::BadRead);
        let raw: std::vec::Vec<u8> = record(1, MEMORY)
            .iter()
            .flat_map(|w| w.to_ne_bytes())
            .collect();
        let whole = EmulatedCounts::from_record(&raw).unwrap();
        assert_eq!(whole.memory, Some((200, 100)));
        let cut = EmulatedCounts::from_record(&raw[..95]).unwrap_err();
        assert_eq!(cut.kind(), PerfErrorKind::BadRead);
        let lost = parse(&record(1, INCOMPLETE), bytes, None).unwrap_err();
        assert!(lost.message().contains("uncounted"), "{lost}");
        let m = missing(EmulatedEvent::L1DMisses);
        assert!(m.message().starts_with("Emulated:L1DMisses: "), "{m}");
    }

    #[test]
    fn the_request_is_answered_under_the_plugin_and_refused_clearly_elsewhere() {
        let e = emulation();
        let opened = Emulator::open(&[EmulatedEvent::Instructions], true);
        match e.counts {
            // Under `picollo emulate` (scripts/emulate.sh runs the unit tests so too).
            Some(c) => {
                assert!(e
                    .description
                    .starts_with("emulated by Picollo's QEMU plugin"));
                assert!(c.instructions > 0);
                assert!(opened.is_ok());
            }
            None => {
                assert!(e
                    .description
                    .starts_with("not running under Picollo's QEMU plugin"));
                let err = opened.unwrap_err();
                assert_eq!(
                    err.event(),
                    Some(Event::Emulated(EmulatedEvent::Instructions))
                );
                assert!(err.is_unavailable());
            }
        }
    }

    /// An emulator over a pipe of its own whose raw counts the test sets.
    fn simulated(raw: u64, enabled: bool) -> Emulator {
        let raw = [raw, 0, 0, 0];
        Emulator {
            probe: Probe::new().unwrap(),
            raw,
            excluded: raw,
            paused_at: (!enabled).then_some(raw),
        }
    }

    #[test]
    fn a_session_counts_only_while_enabled_and_from_0_after_a_reset() {
        let instructions = EmulatedEvent::Instructions;
        let mut e = simulated(1_000, true);
        assert_eq!(e.value(instructions), 0);
        e.raw[0] = 1_500;
        assert_eq!(e.value(instructions), 500);
        // Disabled at 1,500: 300 more instructions go uncounted until enabled again.
        e.paused_at.get_or_insert(e.raw);
        e.raw[0] = 1_800;
        assert_eq!(e.value(instructions), 500);
        e.resume();
        e.raw[0] = 1_900;
        assert_eq!(e.value(instructions), 600);
        e.restart();
        assert_eq!(e.value(instructions), 0);
        e.raw[0] = 1_950;
        assert_eq!(e.value(instructions), 50);
        // Opened disabled: nothing counts until enabled.
        let mut d = simulated(50, false);
        d.raw[0] = 80;
        assert_eq!(d.value(instructions), 0);
        d.restart();
        d.raw[0] = 90;
        assert_eq!(d.value(instructions), 0, "a reset keeps it paused");
        d.resume();
        d.raw[0] = 95;
        assert_eq!(d.value(instructions), 5);
    }
}
