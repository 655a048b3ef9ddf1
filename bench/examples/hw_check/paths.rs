//! The checks of how counters are read and named: the user-space read (rdpmc on x86-64, mrs
//! on arm64) against `read(2)` on the same counters, and a raw event against the generic
//! event it encodes, both in one group.

use picollo_perf::time::{add_chain, ticks_begin, ticks_end, ticks_to_nanos};
use picollo_perf::{
    rdpmc_setting, Event, HardwareEvent, PerfError, PerfErrorKind, ReadPath, ReadPolicy, Session,
    SessionBuilder,
};

use crate::checks::{self, Outcome, PathDelta};

/// The chain both checks count: 258,000 instructions.
const BLOCKS: u64 = 1_000;

/// Retired instructions in the core PMU's raw encoding (`PERF_TYPE_RAW`): INST_RETIRED
/// (0x08) on arm64, event 0xc0 on x86-64 (Intel's INST_RETIRED.ANY_P, AMD's retired
/// instructions).
const RAW_INSTRUCTIONS: u64 = if cfg!(target_arch = "aarch64") {
    0x08
} else {
    0xc0
};

/// The raw counts of the session's two counters now.
fn values(s: &Session) -> [u64; 2] {
    [
        s.counters()[0].current().value,
        s.counters()[1].current().value,
    ]
}

/// The cost of one read on a path, in nanoseconds: the mean of `reads` back-to-back reads.
fn read_cost(s: &mut Session, force_syscall: bool, reads: u32) -> Result<f64, PerfError> {
    let t0 = ticks_begin();
    for _ in 0..reads {
        s.read(force_syscall)?;
    }
    let t1 = ticks_end();
    Ok(ticks_to_nanos(t1.wrapping_sub(t0)) as f64 / f64::from(reads))
}

/// Instructions and cycles around one chain, read through the page and through `read(2)`
/// alternately (page, read(2), chain, page, read(2)): the same code runs between the two
/// reads of each path, so exact counts give equal deltas. Then the cost of a read on each.
/// The session is forced onto the user-space read: this checks that path, whichever a
/// default session would take.
pub fn user_read() -> Result<Outcome, PerfError> {
    let mut s = SessionBuilder::new()
        .with_kernel(false)
        .with_calibration(false)
        .with_read_policy(ReadPolicy::UserSpace)
        .with_hardware(HardwareEvent::Instructions)
        .with_hardware(HardwareEvent::CpuCycles)
        .open()?;
    // Only a setting that allows the read makes a refused page a failure.
    let setting = rdpmc_setting();
    let allowed = matches!(setting, Some(1 | 2));
    if !s.rdpmc_possible() || (s.read(false)? != ReadPath::Rdpmc && !allowed) {
        return Ok(Outcome::Skip(format!(
            "no user-space read here (setting {setting:?}: x86 sysfs rdpmc, arm64 \
             kernel.perf_user_access)"
        )));
    }
    let first = s.read(false)?;
    let user0 = values(&s);
    s.read(true)?;
    let sys0 = values(&s);
    std::hint::black_box(add_chain(std::hint::black_box(BLOCKS)));
    let second = s.read(false)?;
    let user1 = values(&s);
    s.read(true)?;
    let sys1 = values(&s);
    let deltas: Vec<PathDelta> = (0..2)
        .map(|k| PathDelta {
            name: s.counters()[k].name().to_string(),
            user: user1[k].wrapping_sub(user0[k]),
            syscall: sys1[k].wrapping_sub(sys0[k]),
            exact: k == 0,
        })
        .collect();
    let user_path = first == ReadPath::Rdpmc && second == ReadPath::Rdpmc;
    let (user_ns, syscall_ns) = (
        read_cost(&mut s, false, 1_000)?,
        read_cost(&mut s, true, 1_000)?,
    );
    Ok(checks::user_read(&deltas, user_path, user_ns, syscall_ns))
}

/// Retired instructions as a raw event and as the generic one, in one group around one
/// chain, read with one `read(2)` of the group.
pub fn raw_events() -> Result<Outcome, PerfError> {
    let raw = Event::raw(4, RAW_INSTRUCTIONS);
    let opened = SessionBuilder::new()
        .with_kernel(false)
        .with_calibration(false)
        .with_hardware(HardwareEvent::Instructions)
        .with_counter(raw)
        .open();
    let mut s = match opened {
        Ok(s) => s,
        Err(e) if e.is_unavailable() || e.kind() == PerfErrorKind::InvalidArgument => {
            return Ok(Outcome::Skip(format!("{raw} does not open here: {e}")))
        }
        Err(e) => return Err(e),
    };
    s.read(true)?;
    std::hint::black_box(add_chain(std::hint::black_box(BLOCKS)));
    s.read(true)?;
    let [generic, raw_delta] = [0, 1].map(|k| s.counters()[k].delta().scaled);
    Ok(checks::raw_matches_generic(
        &raw.to_string(),
        raw_delta,
        generic,
    ))
}
