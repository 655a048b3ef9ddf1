"""picollo.perf: real sessions of software counters (which work on any Linux), hardware
counters where a PMU exists (skipped with the reason where not), the borrowed histograms,
discovery, timers, scopes, CPU helpers, and the error paths."""

from __future__ import annotations

import gc
import math
import mmap
import os
import sys

import pytest

import picollo

if not sys.platform.startswith("linux"):
    pytest.skip("the perf layer exists on Linux only", allow_module_level=True)

from picollo import perf  # noqa: E402


def test_discovery_answers_cleanly():
    info = perf.discover()
    assert info.pmu_count >= 1
    if info.present:
        assert info.description.startswith("CPU PMU: fixedCounters=")
        assert info.number_of_counters is not None
    else:
        assert info.description.startswith("no hardware PMU (CPUID 0xA version ")
        assert info.number_of_counters is None
        assert info.cycles_errno != 0
    with open("/proc/sys/kernel/perf_event_paranoid") as f:
        assert info.paranoid == int(f.read())


def test_counter_supported_by_name():
    assert perf.counter_supported("Software:TaskClock") == (True, "")
    ok, reason = perf.counter_supported("Hardware:CpuCycles")
    assert ok or reason.startswith("Hardware:CpuCycles: "), reason
    with pytest.raises(picollo.InvalidArgumentError, match="Hardware:Nope"):
        perf.counter_supported("Hardware:Nope")


def _best_task_clock(s: perf.Session, blocks: int) -> int:
    best = None
    for _ in range(3):
        with s.measure(force_syscall=True, record=False):
            perf.add_chain(blocks)
        d = s["Software:TaskClock"].delta.scaled
        best = d if best is None else min(best, d)
    return best


def test_task_clock_grows_with_work():
    with perf.Session(["Software:TaskClock", "Software:ContextSwitches"]) as s:
        assert s.is_open and len(s) == 2
        assert s.read() == "syscall", "software counters have no rdpmc page"
        small = _best_task_clock(s, 2_000)
        large = _best_task_clock(s, 200_000)
        assert large > 5 * small > 0, (small, large)
        v = s[0].values
        assert v.delta.raw == v.current.value - v.previous.value
        assert not v.multiplexed and not v.has_page


def test_page_faults_counted_on_fresh_pages():
    pages, size = 256, mmap.PAGESIZE
    with perf.Session(["Software:PageFaults", "Software:MinorPageFaults"]) as s:
        m = mmap.mmap(-1, pages * size)
        if hasattr(mmap, "MADV_NOHUGEPAGE"):
            m.madvise(mmap.MADV_NOHUGEPAGE)
        s.read()
        for i in range(pages):
            m[i * size] = 1
        s.read()
        faults, minor = s.deltas()
        m.close()
    assert pages <= faults.scaled < 2 * pages, faults
    assert minor.scaled >= pages, minor


def test_deltas_recorded_into_the_borrowed_histograms_with_right_totals():
    rounds = 200
    with perf.Session(["Software:TaskClock", "Software:PageFaults"]) as s:
        sums = [0, 0]
        for i in range(rounds):
            with s.measure():
                perf.add_chain(500 + 20 * i)
            for k, d in enumerate(s.deltas()):
                sums[k] += d.scaled
        clock, faults = s.counters
        assert clock.name == "Software:TaskClock" and faults.name == "Software:PageFaults"
        for c, total in zip(s.counters, sums):
            h = c.histogram
            assert h.total == rounds and h.overflow == 0 and h.underflow == 0
            exact = total / rounds
            assert math.isclose(h.mean, exact, rel_tol=0.002, abs_tol=1), (h.mean, exact)
        table = clock.histogram.table(clock.name)
        assert table.startswith("##### Software:TaskClock\n")
        s.record("value")
        assert clock.histogram.total == rounds + 1
        s.reset()
        assert clock.histogram.total == 0 and s[0].delta.raw == 0
        assert s.derived().ipc is None and s.derived_means().ipc is None


def test_borrowed_histogram_is_never_freed_by_python():
    s = perf.Session(["Software:TaskClock"])
    h = s[0].histogram
    h.close()  # closes the wrapper only
    assert s[0].histogram.total == 0
    h2 = s[0].histogram
    del s
    gc.collect()
    # The wrapper keeps its session alive: still usable.
    h2.record(5)
    assert h2.total == 1
    owner = h2._owner
    owner.close()
    assert h2.closed
    with pytest.raises(picollo.ClosedError):
        h2.total


def test_disable_stops_counting_and_enable_resumes():
    with perf.Session(["Software:TaskClock"]) as s:
        s.disable()
        with s.measure(record=False):
            perf.add_chain(50_000)
        assert s[0].delta.raw == 0
        s.enable()
        with s.measure(record=False):
            perf.add_chain(50_000)
        assert s[0].delta.raw > 0


def test_counter_names_case_aside_and_near_misses_named():
    s = perf.Session()
    s.add("software:pagefaults").add("SOFTWARE:TASKCLOCK")
    assert len(s) == 2
    with pytest.raises(picollo.InvalidArgumentError, match=r"did you mean `Software:ContextSwitches`\?"):
        s.add("Software:ContextSwitch")
    with pytest.raises(picollo.InvalidArgumentError, match=r"did you mean `Hardware:CpuCycles`\?"):
        s.add("cpu-cycles")
    with pytest.raises(picollo.InvalidArgumentError, match="the Software events: CpuClock, TaskClock"):
        s.add("Software:Nothing")
    with pytest.raises(picollo.InvalidArgumentError, match="an empty counter name"):
        s.add("")


def test_builder_style_and_errors():
    s = perf.Session(relative_error=0.01, record_kind="corrected")
    s.add_software(1).add_software(2)
    with pytest.raises(picollo.InvalidArgumentError, match="Software:TaskClock: added to the session twice"):
        s.add("Software:TaskClock")
    with pytest.raises(picollo.InvalidArgumentError, match="hardware event id 42"):
        s.add_hardware(42)
    with pytest.raises(picollo.InvalidArgumentError, match="cache level 9"):
        s.add_cache(9, 0, 0)
    with pytest.raises(picollo.InvalidArgumentError, match="not a counter name"):
        s.add("CpuCycles")
    with pytest.raises(picollo.InvalidArgumentError, match="not open"):
        s.read()
    with pytest.raises(picollo.InvalidArgumentError, match="not open"):
        s.record()
    assert not s.is_open and len(s) == 2
    s.open()
    with pytest.raises(picollo.InvalidArgumentError, match="already open"):
        s.open()
    with pytest.raises(picollo.InvalidArgumentError, match="already open"):
        s.add("Software:CpuClock")
    with pytest.raises(ValueError, match="record kind"):
        s.record("nope")
    s.close()
    with pytest.raises(picollo.ClosedError):
        s.read()
    with pytest.raises(picollo.InvalidArgumentError, match="at least one counter"):
        perf.Session().open()
    with pytest.raises(picollo.InvalidArgumentError, match="relative"):
        perf.Session(relative_error=0.0)
    with pytest.raises(TypeError):
        perf.Session("Software:TaskClock")


def test_raw_event_with_a_bogus_type_names_the_counter():
    s = perf.Session().add_software(1).add_raw(0x7FFF0000, 1)
    with pytest.raises(picollo.InvalidArgumentError,
                       match=r"Raw:2147418112:0x1: unknown perf event type 2147418112"):
        s.open()
    assert not s.is_open and len(s) == 2
    s.close()


def test_hardware_cycles_and_instructions():
    try:
        s = perf.Session(["Hardware:CpuCycles", "Hardware:Instructions"])
    except picollo.UnavailableError as e:
        pytest.skip(f"hardware counters unavailable: {e.message}")
    with s:
        best = None
        for _ in range(20):
            with s.measure():
                perf.add_chain(1_000)
            c = s[0].delta.scaled
            best = c if best is None else min(best, c)
        assert 200_000 <= best < 2_000_000, best
        assert 0.3 < s.derived().ipc < 8


def test_scope_records_into_a_histogram():
    h = picollo.Histogram()
    with perf.scope(h, "us") as sc:
        perf.add_chain(10_000)
    assert h.total == 1 and sc.elapsed is not None and sc.elapsed > 0
    with pytest.raises(RuntimeError):
        with perf.scope(h, "ticks"):
            raise RuntimeError("boom")
    assert h.total == 2, "a raising block is still measured"
    with pytest.raises(ValueError, match="unit"):
        with perf.scope(h, "weeks"):
            pass
    with pytest.raises(TypeError):
        with perf.scope(None):
            pass
    h.close()


def test_timers_and_tick_conversion():
    prev = perf.ticks()
    for _ in range(1_000):
        now = perf.ticks()
        assert now >= prev
        prev = now
    f = perf.tick_frequency()
    assert 1_000_000 <= f <= 20_000_000_000
    # 10^6 s of ticks: the naive ticks × 10^9 overflows 64 bits; ours is exact.
    assert perf.ticks_to_nanos(f * 10**6) == 10**15
    for freq in (1_000_000_000, 2_999_999_998, 5_000_000_000):
        t = freq * 10**6 + freq // 2
        assert t * 10**9 > 2**64
        assert perf.convert_ticks(t, freq, 10**9) == 1_000_000_500_000_000
    assert perf.convert_ticks(2**64 - 1, 1, 10**9) == 2**64 - 1
    n0 = perf.monotonic_nanos()
    assert perf.monotonic_nanos() >= n0
    assert perf.add_chain(1_000) == 256_000


def test_cpu_helpers():
    cpu = os.sched_getcpu() if hasattr(os, "sched_getcpu") else 0
    before = os.sched_getaffinity(0)
    try:
        perf.pin_thread(cpu)
        assert os.sched_getaffinity(0) == {cpu}
        with pytest.raises(picollo.InvalidArgumentError):
            perf.pin_thread(1 << 20)
    finally:
        os.sched_setaffinity(0, before)
    with pytest.raises(ValueError):
        perf.set_thread_nice(40)


def test_the_read_path_choice_names_what_the_library_took():
    # Each policy by name: the library reports back the policy it was given (the tuple's
    # order is the C enum's), and why it took read(2) for a counter without a page.
    for policy in perf.READ_POLICIES:
        with perf.Session(["Software:TaskClock"], read_path=policy) as s:
            c = s.path_choice
            assert (c.path, c.policy) == ("syscall", policy)
            want = "forced" if policy == "syscall" else "no_page"
            assert c.reason == want, c
            assert c.text.startswith("read(2): ")
            assert ("policy says so" in c.text) == (want == "forced"), c.text
            assert math.isnan(c.user_ns) and math.isnan(c.syscall_ns)
    with perf.Session(["Software:TaskClock"], enabled=False) as s:
        assert s.path_choice.reason == "pending"
        s.enable()
        assert s.path_choice.reason == "no_page"
    with perf.Session(["Software:TaskClock"], rdpmc=False) as s:
        assert (s.path_choice.policy, s.path_choice.reason) == ("syscall", "forced")


def test_a_bad_read_path_is_refused():
    with pytest.raises(ValueError, match="read_path 'fast'"):
        perf.Session(["Software:TaskClock"], read_path="fast")
    with pytest.raises(ValueError, match="rdpmc=False"):
        perf.Session(["Software:TaskClock"], rdpmc=False, read_path="user")
    with perf.Session() as s:
        s.add("Software:TaskClock")
        with pytest.raises(picollo.InvalidArgumentError, match="not open"):
            s.path_choice
