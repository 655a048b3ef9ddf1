//! Real sessions on this machine: software counters always (they need no PMU), hardware
//! counters where the machine has them (skipped loudly, with the reason, where it does not).
#![cfg(target_os = "linux")]

use picollo_perf::time::add_chain;
use picollo_perf::{
    discover, is_counter_supported, under_instrumenter, Event, HardwareEvent, PathReason,
    PerfError, PerfErrorKind, ReadPath, ReadPolicy, RecordKind, Session, SessionBuilder,
    SoftwareEvent,
};

fn software(events: &[SoftwareEvent]) -> Session {
    let mut b = SessionBuilder::new();
    for &e in events {
        b = b.with_software(e);
    }
    b.open().expect("software counters open on any Linux")
}

/// Open, or print a loud SKIPPED line with the reason and return `None`.
fn open_or_skip(b: SessionBuilder, test: &str) -> Option<Session> {
    match b.open() {
        Ok(s) => Some(s),
        Err(e) if e.is_unavailable() => {
            eprintln!("SKIPPED: {test}: {e} [{}]", discover().describe());
            None
        }
        Err(e) => panic!("{test}: unexpected error: {e}"),
    }
}

fn delta_of(s: &Session, e: impl Into<Event>) -> u64 {
    s.find(e).unwrap().delta().scaled
}

#[test]
fn task_clock_grows_with_work() {
    let mut s = software(&[SoftwareEvent::TaskClock, SoftwareEvent::ContextSwitches]);
    let mut work = |blocks: u64| {
        s.read(true).unwrap();
        std::hint::black_box(add_chain(blocks));
        s.read(true).unwrap();
        delta_of(&s, SoftwareEvent::TaskClock)
    };
    let small = work(1_000);
    let large = work(200_000); // 200× the adds
    assert!(small > 0, "task-clock counts the work we do");
    assert!(
        large > small,
        "more work, more task-clock: {large} vs {small}"
    );
    let c = s.find(SoftwareEvent::TaskClock).unwrap();
    assert!(c.current().value > c.previous().value);
    assert_eq!(
        c.current().enabled,
        c.current().running,
        "software: never multiplexed"
    );
    assert_eq!(s.last_path(), ReadPath::Syscall);
}

#[test]
fn page_faults_are_counted_when_touching_fresh_pages() {
    const PAGES: usize = 512;
    // SAFETY: sysconf has no memory-safety preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) } as usize;
    let len = PAGES * page;
    // SAFETY: a fresh private anonymous mapping; checked for MAP_FAILED below.
    let mem = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    assert_ne!(mem, libc::MAP_FAILED);
    // One fault per page: no transparent huge pages for this range (best effort).
    // SAFETY: advice on the mapping we just made.
    unsafe { libc::madvise(mem, len, libc::MADV_NOHUGEPAGE) };
    let mut s = software(&[
        SoftwareEvent::PageFaults,
        SoftwareEvent::MinorPageFaults,
        SoftwareEvent::MajorPageFaults,
    ]);
    s.read(false).unwrap();
    for k in 0..PAGES {
        // SAFETY: k * page < len: inside the mapping, which is writable.
        unsafe { std::ptr::write_volatile(mem.cast::<u8>().add(k * page), 1) };
    }
    s.read(false).unwrap();
    let all = delta_of(&s, SoftwareEvent::PageFaults);
    let minor = delta_of(&s, SoftwareEvent::MinorPageFaults);
    let major = delta_of(&s, SoftwareEvent::MajorPageFaults);
    assert!(all >= PAGES as u64, "{all} faults for {PAGES} fresh pages");
    assert_eq!(all, minor + major, "every fault is minor or major");
    // Touching them again faults no more.
    s.read(false).unwrap();
    for k in 0..PAGES {
        // SAFETY: as above.
        unsafe { std::ptr::write_volatile(mem.cast::<u8>().add(k * page), 2) };
    }
    s.read(false).unwrap();
    assert!(delta_of(&s, SoftwareEvent::PageFaults) < PAGES as u64 / 4);
    // SAFETY: unmapping what we mapped, once.
    unsafe { libc::munmap(mem, len) };
}

#[test]
fn deltas_are_recorded_into_each_counters_histogram_with_the_right_totals() {
    let mut s = software(&[SoftwareEvent::TaskClock, SoftwareEvent::PageFaults]);
    let n = 200u64;
    let mut sums = [0u128; 2];
    for _ in 0..n {
        s.read(true).unwrap();
        std::hint::black_box(add_chain(200));
        s.read(true).unwrap();
        for (sum, d) in sums.iter_mut().zip(s.deltas()) {
            *sum += d.scaled as u128;
            assert_eq!(d.raw, d.scaled);
            assert!(d.corrected <= d.scaled);
        }
        s.record();
    }
    for (c, sum) in s.counters().iter().zip(sums) {
        let v = c.histogram().view();
        assert_eq!(c.histogram().total_count(), n, "{}", c.name());
        // The histogram's sum (mean × n over bucket midpoints) matches ours within its
        // relative error.
        let hist_sum = v.mean() * n as f64;
        let tolerance = sum as f64 * 0.002 + n as f64;
        assert!(
            (hist_sum - sum as f64).abs() <= tolerance,
            "{}: {hist_sum} vs {sum}",
            c.name()
        );
    }
    // Other record kinds land in the same histograms.
    s.record_kind(RecordKind::Value);
    s.record_kind(RecordKind::Corrected);
    assert_eq!(s.counter(0).unwrap().histogram().total_count(), n + 2);
    // Reset clears histograms and rebases: the next delta starts from here.
    s.reset().unwrap();
    assert!(s
        .counters()
        .iter()
        .all(|c| c.histogram().total_count() == 0));
    assert!(s.deltas().all(|d| d.raw == 0));
    s.read(true).unwrap();
    assert!(
        delta_of(&s, SoftwareEvent::TaskClock) < 1_000_000_000,
        "no stale baseline"
    );
}

#[test]
fn calibration_measures_a_read_and_corrected_deltas_subtract_it() {
    let mut s = software(&[SoftwareEvent::TaskClock]);
    let c = s.counter(0).unwrap();
    let overhead = c.overhead(ReadPath::Syscall);
    assert!(overhead > 0, "a read(2) costs task-clock nanoseconds");
    assert_eq!(
        c.overhead(ReadPath::Rdpmc),
        0,
        "no rdpmc for software events"
    );
    s.read(true).unwrap();
    s.read(true).unwrap();
    let d = s.counter(0).unwrap().delta();
    assert_eq!(d.corrected, d.scaled.saturating_sub(overhead));
    s.calibrate().unwrap();
    assert!(s.counter(0).unwrap().overhead(ReadPath::Syscall) > 0);
}

#[test]
fn a_disabled_session_does_not_count_until_enabled() {
    let mut s = SessionBuilder::new()
        .with_software(SoftwareEvent::TaskClock)
        .with_enabled(false)
        .open()
        .unwrap();
    assert!(!s.is_enabled());
    s.read(true).unwrap();
    add_chain(10_000);
    s.read(true).unwrap();
    assert_eq!(delta_of(&s, SoftwareEvent::TaskClock), 0);
    s.enable().unwrap();
    s.read(true).unwrap();
    add_chain(10_000);
    s.read(true).unwrap();
    assert!(delta_of(&s, SoftwareEvent::TaskClock) > 0);
    s.disable().unwrap();
    s.read(true).unwrap();
    add_chain(10_000);
    s.read(true).unwrap();
    assert_eq!(delta_of(&s, SoftwareEvent::TaskClock), 0);
}

#[test]
fn builder_errors_name_the_counter() {
    let err = SessionBuilder::new()
        .with_software(SoftwareEvent::TaskClock)
        .with_software(SoftwareEvent::TaskClock)
        .open()
        .unwrap_err();
    assert_eq!(err.kind(), PerfErrorKind::DuplicateCounter);
    assert_eq!(
        err.to_string(),
        "Software:TaskClock: added to the session twice"
    );
    let mut b = SessionBuilder::new();
    b.add_counter(SoftwareEvent::CpuClock).unwrap();
    assert_eq!(
        b.add_counter(SoftwareEvent::CpuClock).unwrap_err().kind(),
        PerfErrorKind::DuplicateCounter
    );
    let empty = SessionBuilder::new().open().unwrap_err();
    assert_eq!(empty.kind(), PerfErrorKind::EmptySession);
    // A process that does not exist.
    let gone = SessionBuilder::new()
        .with_target(i32::MAX, -1)
        .with_software(SoftwareEvent::TaskClock)
        .open()
        .unwrap_err();
    assert_eq!(gone.kind(), PerfErrorKind::NoSuchProcess, "{gone}");
    assert!(gone.to_string().starts_with("Software:TaskClock: "));
    // A raw event of a PMU type that does not exist.
    let bogus = SessionBuilder::new()
        .with_counter(Event::raw(0x7fff_0000, 1))
        .open()
        .unwrap_err();
    assert!(
        bogus
            .to_string()
            .starts_with("Raw:2147418112:0x1: unknown perf event type 2147418112 "),
        "{bogus}"
    );
    assert_eq!(bogus.kind(), PerfErrorKind::InvalidArgument, "{bogus}");
    assert_ne!(bogus.errno(), 0);
}

#[test]
fn supported_counters_are_found_by_trial_open() {
    assert_eq!(is_counter_supported(SoftwareEvent::TaskClock), Ok(()));
    match is_counter_supported(HardwareEvent::CpuCycles) {
        Ok(()) => assert!(discover().present()),
        Err(e) => {
            assert!(e.is_unavailable(), "{e}");
            assert!(e.message().starts_with("Hardware:CpuCycles: "), "{e}");
            if e.kind() == PerfErrorKind::Unsupported {
                assert!(!discover().present());
                assert!(e.message().contains("ENOENT") || e.message().contains("EOPNOTSUPP"));
            }
            eprintln!("SKIPPED: hardware cycles: {e}");
        }
    }
}

#[test]
fn hardware_cycles_and_instructions_of_a_known_chain() {
    let b = SessionBuilder::new()
        .with_hardware(HardwareEvent::CpuCycles)
        .with_hardware(HardwareEvent::Instructions);
    let Some(mut s) = open_or_skip(b, "hardware_cycles_and_instructions_of_a_known_chain") else {
        return;
    };
    for force in [true, false] {
        s.reset().unwrap();
        for _ in 0..100 {
            s.read(force).unwrap();
            add_chain(1_000);
            s.read(force).unwrap();
            s.record();
        }
        let instructions = s.find(HardwareEvent::Instructions).unwrap().histogram();
        let cycles = s.find(HardwareEvent::CpuCycles).unwrap().histogram();
        let p50 = instructions.view().percentile_value(50.0).unwrap();
        assert!(
            p50 >= 256_000,
            "256,000 adds retire at least 256,000 instructions: {p50}"
        );
        let c50 = cycles.view().percentile_value(50.0).unwrap();
        assert!(
            c50 >= 200_000,
            "a dependent chain takes about a cycle per add: {c50}"
        );
        eprintln!(
            "hardware (force_syscall={force}, path={:?}): P50 cycles={c50}, instructions={p50}, {}",
            s.last_path(),
            s.derived_means()
        );
        assert!(s.derived_means().ipc.is_some());
    }
}

#[test]
fn a_pinned_group_too_large_for_the_pmu_is_reported() {
    let mut b = SessionBuilder::new()
        .with_pinned(true)
        .with_calibration(false);
    for e in [
        HardwareEvent::BranchMisses,
        HardwareEvent::BranchInstructions,
        HardwareEvent::CacheMisses,
        HardwareEvent::CacheReferences,
    ] {
        b = b.with_hardware(e);
    }
    // More programmable events than any PMU has: cache events fill it up.
    for level in [picollo_perf::CacheLevel::L1D, picollo_perf::CacheLevel::LL] {
        for op in [picollo_perf::CacheOp::Read, picollo_perf::CacheOp::Write] {
            for result in [
                picollo_perf::CacheResult::Access,
                picollo_perf::CacheResult::Miss,
            ] {
                b = b.with_cache(picollo_perf::CacheEvent::new(level, op, result));
            }
        }
    }
    let Some(mut s) = (match b.open() {
        Ok(s) => Some(s),
        // Opening fails outright when an event is missing (common for cache events): the
        // machine cannot show the unschedulable state then.
        Err(e) => {
            eprintln!("SKIPPED: a_pinned_group_too_large_for_the_pmu_is_reported: {e}");
            None
        }
    }) else {
        return;
    };
    let r: Result<ReadPath, PerfError> = s.read(true);
    match r {
        Err(e) => assert_eq!(e.kind(), PerfErrorKind::Unschedulable, "{e}"),
        Ok(_) => eprintln!("note: this PMU scheduled {} pinned counters", s.len()),
    }
}

#[test]
fn counters_are_named_and_their_fds_close_on_exec() {
    let s = software(&[SoftwareEvent::TaskClock, SoftwareEvent::CpuClock]);
    let names: Vec<&str> = s.counters().iter().map(|c| c.name()).collect();
    assert_eq!(names, ["Software:TaskClock", "Software:CpuClock"]);
    assert_eq!(s.len(), 2);
    assert!(!s.rdpmc_possible(), "software counters have no rdpmc page");
    assert_eq!(s.derived(), picollo_perf::Derived::default());
    let ids: Vec<u64> = s.counters().iter().map(|c| c.id()).collect();
    assert_ne!(ids[0], ids[1], "each counter has its own kernel id");
    for c in s.counters() {
        // SAFETY: F_GETFD on an fd the session owns and keeps open.
        let flags = unsafe { libc::fcntl(c.raw_fd(), libc::F_GETFD) };
        assert!(flags >= 0 && flags & libc::FD_CLOEXEC != 0, "{}", c.name());
        let link = std::fs::read_link(format!("/proc/self/fd/{}", c.raw_fd())).unwrap();
        assert!(link.to_string_lossy().contains("perf_event"), "{link:?}");
    }
}

/// Fork `sh -c script`, held before its exec until a byte arrives on the returned fd.
fn fork_held(script: &std::ffi::CStr) -> (i32, libc::c_int) {
    let mut fds = [0; 2];
    // SAFETY: `fds` is a live array of two fds for the kernel to fill.
    assert_eq!(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }, 0);
    let argv = [
        c"sh".as_ptr(),
        c"-c".as_ptr(),
        script.as_ptr(),
        std::ptr::null(),
    ];
    // SAFETY: the child makes async-signal-safe calls only, on memory made before the fork.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork");
    if pid == 0 {
        let mut byte = 0u8;
        // SAFETY: in the child: fds it holds, a live byte, NUL-terminated strings in a
        // null-terminated array.
        unsafe {
            libc::close(fds[1]);
            if libc::read(fds[0], (&mut byte as *mut u8).cast(), 1) == 1 {
                libc::execv(c"/bin/sh".as_ptr(), argv.as_ptr());
            }
            libc::_exit(127);
        }
    }
    // SAFETY: closing the read end the parent does not use.
    unsafe { libc::close(fds[0]) };
    (pid, fds[1])
}

#[test]
fn an_inherited_group_on_a_held_child_counts_it_from_its_exec() {
    // The loop runs in a subshell: a task the child creates, counted through inherit.
    let (pid, gate) = fork_held(c"(i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done); exit 0");
    let mut s = SessionBuilder::new()
        .with_target(pid, -1)
        .with_software(SoftwareEvent::TaskClock)
        .with_software(SoftwareEvent::PageFaults)
        .with_enabled(false)
        .with_inherit(true)
        .with_enable_on_exec(true)
        .with_calibration(false)
        .open()
        .expect("software counters open on any Linux");
    s.read(true).unwrap();
    assert_eq!(
        delta_of(&s, SoftwareEvent::TaskClock),
        0,
        "not counted before its exec"
    );
    let mut status = 0;
    // SAFETY: one byte from a live array to the gate we own, which we then close; then
    // a wait for our child with a live status word.
    unsafe {
        assert_eq!(libc::write(gate, [1u8].as_ptr().cast(), 1), 1);
        libc::close(gate);
        assert_eq!(libc::waitpid(pid, &mut status, 0), pid);
    }
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "{status:#x}"
    );
    s.read(true).unwrap();
    let task_clock = delta_of(&s, SoftwareEvent::TaskClock);
    assert!(
        task_clock > 5_000_000,
        "the subshell's loop takes > 5 ms: {task_clock} ns"
    );
    let faults = delta_of(&s, SoftwareEvent::PageFaults);
    assert!(faults > 10, "an exec faults its pages in: {faults}");
    assert!(
        !s.rdpmc_possible(),
        "inherited counts are summed by read(2) only"
    );
}

#[test]
fn software_counters_read_through_read2_whatever_the_policy() {
    // Software events have no page: every policy ends at read(2), and says why (no page,
    // or the policy).
    for policy in [ReadPolicy::Auto, ReadPolicy::UserSpace, ReadPolicy::Syscall] {
        let mut s = SessionBuilder::new()
            .with_software(SoftwareEvent::TaskClock)
            .with_read_policy(policy)
            .open()
            .unwrap();
        let c = s.read_path_choice();
        let why = match policy {
            ReadPolicy::Syscall => PathReason::Forced,
            _ => PathReason::NoPage,
        };
        assert_eq!(
            (c.path, c.reason, c.policy),
            (ReadPath::Syscall, why, policy)
        );
        assert_eq!(s.read(false).unwrap(), ReadPath::Syscall);
        assert!(format!("{c}").starts_with("read(2): "), "{c}");
    }
}

#[test]
fn a_session_opened_disabled_chooses_its_path_at_its_first_enable() {
    let mut s = SessionBuilder::new()
        .with_software(SoftwareEvent::TaskClock)
        .with_enabled(false)
        .open()
        .unwrap();
    assert_eq!(s.read_path_choice().reason, PathReason::Pending);
    s.enable().unwrap();
    assert_eq!(s.read_path_choice().reason, PathReason::NoPage);
}

#[test]
fn hardware_reads_take_the_path_chosen_and_say_why() {
    let b = SessionBuilder::new()
        .with_hardware(HardwareEvent::CpuCycles)
        .with_hardware(HardwareEvent::Instructions);
    let test = "hardware_reads_take_the_path_chosen_and_say_why";
    let Some(mut s) = open_or_skip(b.clone(), test) else {
        return;
    };
    let c = s.read_path_choice();
    eprintln!("hardware: {c}");
    if under_instrumenter() {
        assert_eq!(c.reason, PathReason::Instrumented);
        return;
    }
    if c.reason == PathReason::Cheaper {
        assert!(c.user_ns > 0.0 && c.syscall_ns > 0.0, "{c:?}");
        let cheaper = if c.user_ns <= c.syscall_ns {
            ReadPath::Rdpmc
        } else {
            ReadPath::Syscall
        };
        assert_eq!(c.path, cheaper);
    }
    for (policy, path) in [
        (ReadPolicy::UserSpace, ReadPath::Rdpmc),
        (ReadPolicy::Syscall, ReadPath::Syscall),
    ] {
        let mut s = open_or_skip(b.clone().with_read_policy(policy), test).unwrap();
        let c = s.read_path_choice();
        if c.reason == PathReason::NoPage {
            eprintln!("SKIPPED: {test}: {policy:?}: the pages do not allow user-space reads");
            continue;
        }
        assert_eq!((c.path, c.reason), (path, PathReason::Forced));
        let taken = (0..100).filter(|_| s.read(false).unwrap() == path).count();
        assert!(
            taken >= 95,
            "{taken} of 100 reads took {path:?} under {policy:?}"
        );
    }
    s.read(false).unwrap();
}
