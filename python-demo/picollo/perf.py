"""perf_event counters, timers and scopes (Linux), through libpicollo's C ABI.

>>> from picollo import perf
>>> with perf.Session(["Software:TaskClock", "Software:PageFaults"]) as s:
...     for _ in range(1_000):
...         with s.measure():                # read, work, read, record
...             perf.add_chain(100)
...     for c in s.counters:
...         print(c.histogram.table(c.name))  # one histogram per counter, owned by s

Counters are named as the library names them: ``Hardware:CpuCycles``,
``HardwareCache:L1DReadMiss``, ``Software:TaskClock``, ``Raw:4:0x1c2``. A counter the
machine cannot count raises `UnavailableError` (`UnsupportedError` or
`PermissionDeniedError`) at `open`, with a message naming the counter and the cause;
`counter_supported(name)` asks beforehand.

Under QEMU with Picollo's plugin (``picollo emulate -- python ...``) the exact counters
``Emulated:Instructions``, ``Emulated:Loads``, ``Emulated:Stores`` and
``Emulated:L1DMisses`` open like any other; `emulation()` says whether this process runs
there. Natively they raise `UnsupportedError`.

A session counts the thread that opened it (by default) and must be used from that thread.
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import weakref
from typing import Any, Iterable, Iterator, Optional, Union

from . import _native as n
from . import _perf_native as pn
from ._convert import real, u32, u64
from ._errors import (
    PermissionDeniedError,
    Status,
    UnavailableError,
    UnsupportedError,
    check,
    error_for,
    last_error_message,
)
from ._handle import Handle
from ._text import encode, fetch_text
from .histogram import Histogram

__all__ = [
    "Counter",
    "CounterValues",
    "Delta",
    "Derived",
    "PathChoice",
    "PermissionDeniedError",
    "PmuInfo",
    "Reading",
    "Session",
    "UnavailableError",
    "UnsupportedError",
    "add_chain",
    "convert_ticks",
    "counter_supported",
    "discover",
    "emulation",
    "monotonic_nanos",
    "pin_thread",
    "scope",
    "set_thread_nice",
    "tick_frequency",
    "ticks",
    "ticks_begin",
    "ticks_end",
    "ticks_to_nanos",
]

RECORD_KINDS = ("delta", "corrected", "raw_delta", "value")
READ_PATHS = ("none", "syscall", "rdpmc")
#: `picollo_perf_read_policy` by value: how a session picks its read path.
READ_POLICIES = ("syscall", "auto", "user")
#: `picollo_perf_path_reason` by value: why a session reads the way it does.
PATH_REASONS = ("no_page", "forced", "cheaper", "instrumented", "pending")
TIME_UNITS = {"ticks": 0, "ns": 1, "us": 2, "ms": 3,
              "nanos": 1, "micros": 2, "millis": 3}
VENDORS = ("Intel", "AMD", "other")


def _flag(value: Any, what: str) -> int:
    if not isinstance(value, bool):
        raise TypeError(f"{what} must be a bool, not {type(value).__name__}")
    return int(value)


def _read_policy(read_path: Any, rdpmc: Any) -> int:
    if not (isinstance(read_path, str) and read_path in READ_POLICIES):
        raise ValueError(f"read_path {read_path!r} is not one of {', '.join(READ_POLICIES)}")
    if not _flag(rdpmc, "rdpmc"):
        if read_path == "user":
            raise ValueError("rdpmc=False maps no page: read_path='user' cannot be taken")
        return READ_POLICIES.index("syscall")
    return READ_POLICIES.index(read_path)


def _record_kind(kind: Any) -> int:
    if isinstance(kind, str) and kind in RECORD_KINDS:
        return RECORD_KINDS.index(kind)
    raise ValueError(f"record kind {kind!r} is not one of {', '.join(RECORD_KINDS)}")


# --- values ------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Reading:
    """One counter at one read: the raw count, enabled/running nanoseconds, scaled count."""

    value: int
    enabled: int
    running: int
    scaled: int

    @classmethod
    def _from_c(cls, r: pn.picollo_perf_reading) -> "Reading":
        return cls(r.value, r.enabled, r.running, r.scaled)


@dataclasses.dataclass(frozen=True)
class Delta:
    """The change between the two latest reads: ``raw`` (mod 2**64), ``scaled`` when
    multiplexed, ``corrected`` (less the calibrated read cost, floored at 0)."""

    raw: int
    scaled: int
    corrected: int
    enabled: int
    running: int

    @property
    def multiplexed(self) -> bool:
        return self.running < self.enabled

    @classmethod
    def _from_c(cls, d: pn.picollo_perf_delta) -> "Delta":
        return cls(d.raw, d.scaled, d.corrected, d.enabled, d.running)


@dataclasses.dataclass(frozen=True)
class CounterValues:
    """Everything about one counter of an open session."""

    current: Reading
    previous: Reading
    delta: Delta
    overhead_syscall: int
    overhead_rdpmc: int
    id: int
    multiplexed: bool
    has_page: bool

    @classmethod
    def _from_c(cls, v: pn.picollo_perf_counter_values) -> "CounterValues":
        return cls(Reading._from_c(v.current), Reading._from_c(v.previous),
                   Delta._from_c(v.delta), v.overhead_syscall, v.overhead_rdpmc, v.id,
                   bool(v.multiplexed), bool(v.has_page))


@dataclasses.dataclass(frozen=True)
class Derived:
    """IPC and miss ratios; None where the session lacks a counter or a denominator is 0."""

    ipc: Optional[float]
    cache_miss_ratio: Optional[float]
    branch_miss_ratio: Optional[float]

    @classmethod
    def _from_c(cls, d: pn.picollo_perf_derived) -> "Derived":
        def opt(x: float) -> Optional[float]:
            return None if x != x else x  # NaN → None
        return cls(opt(d.ipc), opt(d.cache_miss_ratio), opt(d.branch_miss_ratio))

    def __str__(self) -> str:
        def pct(x: Optional[float]) -> str:
            return "n/a" if x is None else f"{x * 100:.3f}%"
        ipc = "n/a" if self.ipc is None else f"{self.ipc:.3f}"
        return (f"IPC={ipc}, cache-miss={pct(self.cache_miss_ratio)}, "
                f"branch-miss={pct(self.branch_miss_ratio)}")


@dataclasses.dataclass(frozen=True)
class PmuInfo:
    """What `discover` found. ``description`` is the library's one-line summary:
    ``CPU PMU: fixedCounters=3, …`` or ``no hardware PMU (CPUID 0xA version 0; …)``."""

    present: bool
    vendor: str
    hypervisor: bool
    arch_perfmon_version: int
    fixed_counters: int
    fixed_width: int
    programmable_counters: int
    programmable_width: int
    rdpmc: Optional[int]
    paranoid: Optional[int]
    cycles_errno: int
    core_pmu_count: int
    pmu_count: int
    description: str

    @property
    def number_of_counters(self) -> Optional[tuple[int, int]]:
        """``(fixed, programmable)`` when a PMU is present."""
        return (self.fixed_counters, self.programmable_counters) if self.present else None

    def __str__(self) -> str:
        return self.description


def discover() -> PmuInfo:
    """Look at the machine: CPUID, sysfs PMUs, rdpmc and perf_event_paranoid settings, and
    a trial open of cycles."""
    i = pn.picollo_perf_info()
    check(n.lib.picollo_perf_discover(ctypes.byref(i)))
    text = fetch_text(lambda buf, size, needed: n.lib.picollo_perf_describe(buf, size, needed))
    vendor = VENDORS[i.vendor] if i.vendor < len(VENDORS) else "other"
    return PmuInfo(
        present=bool(i.present), vendor=vendor, hypervisor=bool(i.hypervisor),
        arch_perfmon_version=i.arch_perfmon_version, fixed_counters=i.fixed_counters,
        fixed_width=i.fixed_width, programmable_counters=i.programmable_counters,
        programmable_width=i.programmable_width,
        rdpmc=None if i.rdpmc < 0 else i.rdpmc,
        paranoid=i.paranoid if i.paranoid_known else None,
        cycles_errno=i.cycles_errno, core_pmu_count=i.core_pmu_count,
        pmu_count=i.pmu_count, description=text)


def counter_supported(name: str) -> tuple[bool, str]:
    """``(True, "")`` when the counter opens here, else ``(False, reason)``; ValueError for
    a name that is not a counter name."""
    status = n.lib.picollo_perf_counter_supported(encode(name, "name"))
    if status == Status.OK:
        return True, ""
    if status in (Status.UNSUPPORTED, Status.PERMISSION_DENIED):
        return False, last_error_message()
    raise error_for(status)


def emulation() -> str:
    """What the emulator counts for this process, as one line: ``"emulated by Picollo's
    QEMU plugin: instructions, loads, stores..."`` under ``picollo emulate -- PROG``, else
    ``"not running under Picollo's QEMU plugin: ..."`` with the reason. The ``Emulated:*``
    counters open only in the first case (`counter_supported` says the same per counter)."""
    return fetch_text(lambda buf, size, needed: n.lib.picollo_perf_emulation_describe(
        buf, size, needed))


# --- sessions ----------------------------------------------------------------------------


class Counter:
    """One counter of a session: its name, values and histogram."""

    def __init__(self, session: "Session", index: int, name: str):
        self._session = session
        self.index = index
        self.name = name

    @property
    def histogram(self) -> Histogram:
        """The counter's histogram, owned by the session: every `Histogram` query works on
        it, closing it does not free it, and it is closed when the session closes."""
        return self._session._histogram(self.index)

    @property
    def values(self) -> CounterValues:
        out = pn.picollo_perf_counter_values()
        check(n.lib.picollo_perf_session_counter_values(
            self._session._ptr, self.index, ctypes.byref(out)))
        return CounterValues._from_c(out)

    @property
    def delta(self) -> Delta:
        return self.values.delta

    def __repr__(self) -> str:
        return f"<Counter {self.index}: {self.name}>"


@dataclasses.dataclass(frozen=True)
class PathChoice:
    """The read path a session took at open (``"rdpmc"``: user space, or ``"syscall"``), the
    policy it was opened with (``read_path``), why (one of `PATH_REASONS`), what each path
    cost a read of the group then (ns; NaN where not timed), and the library's line saying
    so."""

    path: str
    policy: str
    reason: str
    user_ns: float
    syscall_ns: float
    text: str


class Session(Handle):
    """A group of perf_event counters read together, one histogram per counter.

    ``Session(counters, pid=0, cpu=-1, pinned=False, include_kernel=False, enabled=True,
    calibrate=True, rdpmc=True, relative_error=0.001, record_kind="delta", read_path="auto")``:
    ``read_path`` ``"auto"`` times both read paths at open and takes the cheaper, ``"user"``
    always reads in user space where the page allows, ``"syscall"`` always ``read(2)`` (as
    ``rdpmc=False``); `path_choice` says what the session took and why. With counter
    names the session opens at once; without, add counters (`add`, or the builder-style
    `add_hardware`/`add_software`/`add_cache`/`add_raw`/`add_fixed`, each returning the
    session) and call `open`. ``with`` closes it; closing frees the counters and their
    histograms.
    """

    _WHAT = "perf session"

    def __init__(self, counters: Iterable[str] = (), *, pid: int = 0, cpu: int = -1,
                 pinned: bool = False, include_kernel: bool = False, enabled: bool = True,
                 calibrate: bool = True, rdpmc: bool = True, relative_error: float = 0.001,
                 record_kind: str = "delta", read_path: str = "auto"):
        config = n.lib.picollo_perf_config_default()
        for name, value in (("pid", pid), ("cpu", cpu)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{name} must be an int")
        config.pid, config.cpu = pid, cpu
        config.pinned = _flag(pinned, "pinned")
        config.include_kernel = _flag(include_kernel, "include_kernel")
        config.enabled = _flag(enabled, "enabled")
        config.calibrate = _flag(calibrate, "calibrate")
        config.rdpmc = _read_policy(read_path, rdpmc)
        config.relative_error = real(relative_error, "relative_error")
        config.record_kind = _record_kind(record_kind)
        handle = pn.SessionP()
        check(n.lib.picollo_perf_session_new(ctypes.byref(config), ctypes.byref(handle)))
        self._borrowed: weakref.WeakSet[Histogram] = weakref.WeakSet()
        self._own(handle, n.lib.picollo_perf_session_free)
        if isinstance(counters, str):
            self.close()
            raise TypeError("counters must be a list of names, not one string")
        names = list(counters)
        for name in names:
            self.add(name)
        if names:
            try:
                self.open()
            except BaseException:
                self.close()
                raise

    # --- counters ----------------------------------------------------------------------

    def add(self, name: str) -> "Session":
        """Add a counter by name (``Hardware:CpuCycles``, ``Software:TaskClock``…; case aside).

        An unknown name raises InvalidArgumentError saying why, naming the event meant for a
        near miss and listing what its class holds."""
        check(n.lib.picollo_perf_session_add_named(self._ptr, encode(name, "name")))
        return self

    def add_hardware(self, event: int) -> "Session":
        """Add a hardware counter by id (`PERF_COUNT_HW_*`)."""
        check(n.lib.picollo_perf_session_add_hardware(self._ptr, u32(event, "event")))
        return self

    def add_software(self, event: int) -> "Session":
        """Add a software counter by id (`PERF_COUNT_SW_*`)."""
        check(n.lib.picollo_perf_session_add_software(self._ptr, u32(event, "event")))
        return self

    def add_cache(self, level: int, op: int, result: int) -> "Session":
        """Add a cache counter: level (L1D=0 … NODE=6) × op (read, write, prefetch) ×
        result (access, miss)."""
        check(n.lib.picollo_perf_session_add_cache(
            self._ptr, u32(level, "level"), u32(op, "op"), u32(result, "result")))
        return self

    def add_raw(self, type: int, config: int, config1: int = 0, config2: int = 0) -> "Session":
        """Add a raw counter (PMU type and config words)."""
        check(n.lib.picollo_perf_session_add_raw(
            self._ptr, u32(type, "type"), u64(config, "config"), u64(config1, "config1"),
            u64(config2, "config2")))
        return self

    def add_fixed(self) -> "Session":
        """Add cycles, instructions and reference cycles."""
        check(n.lib.picollo_perf_session_add_fixed(self._ptr))
        return self

    def open(self) -> "Session":
        """Open the counters as one group. `UnavailableError` names a counter this machine
        cannot count; the session then stays unopened."""
        check(n.lib.picollo_perf_session_open(self._ptr))
        return self

    @property
    def is_open(self) -> bool:
        out = ctypes.c_uint32()
        check(n.lib.picollo_perf_session_is_open(self._ptr, ctypes.byref(out)))
        return bool(out.value)

    def __len__(self) -> int:
        out = ctypes.c_size_t()
        check(n.lib.picollo_perf_session_counter_count(self._ptr, ctypes.byref(out)))
        return out.value

    def _name(self, index: int) -> str:
        s = self._ptr
        return fetch_text(lambda buf, size, needed: n.lib.picollo_perf_session_counter_name(
            s, index, buf, size, needed))

    @property
    def counters(self) -> list[Counter]:
        return [Counter(self, k, self._name(k)) for k in range(len(self))]

    def __iter__(self) -> Iterator[Counter]:
        return iter(self.counters)

    def __getitem__(self, key: Union[int, str]) -> Counter:
        counters = self.counters
        if isinstance(key, str):
            for c in counters:
                if c.name == key:
                    return c
            raise KeyError(key)
        return counters[key]

    def _histogram(self, index: int) -> Histogram:
        handle = n.HistogramP()
        check(n.lib.picollo_perf_session_counter_histogram(
            self._ptr, index, ctypes.byref(handle)))
        h = Histogram._borrowed(handle, self)
        self._borrowed.add(h)
        return h

    # --- measuring ---------------------------------------------------------------------

    def read(self, force_syscall: bool = False) -> str:
        """Read every counter; returns the path taken: ``"syscall"`` or ``"rdpmc"``."""
        path = ctypes.c_uint32()
        check(n.lib.picollo_perf_session_read(
            self._ptr, _flag(force_syscall, "force_syscall"), ctypes.byref(path)))
        return READ_PATHS[path.value] if path.value < len(READ_PATHS) else str(path.value)

    @property
    def path_choice(self) -> PathChoice:
        """The read path the session took at open and why (open sessions only)."""
        c = pn.picollo_perf_path_choice()
        check(n.lib.picollo_perf_session_path_choice(self._ptr, ctypes.byref(c)))
        s = self._ptr
        text = fetch_text(lambda buf, size, needed: n.lib.picollo_perf_session_path_describe(
            s, buf, size, needed))
        return PathChoice(READ_PATHS[c.path], READ_POLICIES[c.policy], PATH_REASONS[c.reason],
                          c.user_ns, c.syscall_ns, text)

    def deltas(self) -> list[Delta]:
        """The latest deltas, one per counter in order."""
        count = len(self)
        out = (pn.picollo_perf_delta * max(count, 1))()
        check(n.lib.picollo_perf_session_deltas(self._ptr, out, count, None))
        return [Delta._from_c(d) for d in out[:count]]

    def record(self, kind: Optional[str] = None) -> None:
        """Record each counter's latest delta (or ``kind``: delta, corrected, raw_delta,
        value) into its histogram."""
        if kind is None:
            check(n.lib.picollo_perf_session_record(self._ptr))
        else:
            check(n.lib.picollo_perf_session_record_kind(self._ptr, _record_kind(kind)))

    @contextlib.contextmanager
    def measure(self, force_syscall: bool = False, record: bool = True) -> Iterator["Session"]:
        """``with s.measure(): work()`` reads before and after the block and records the
        deltas (unless the block raised or ``record`` is false)."""
        self.read(force_syscall)
        yield self
        self.read(force_syscall)
        if record:
            self.record()

    def enable(self) -> None:
        check(n.lib.picollo_perf_session_enable(self._ptr))

    def disable(self) -> None:
        check(n.lib.picollo_perf_session_disable(self._ptr))

    def reset(self) -> None:
        """Zero the counts and every histogram; deltas restart at 0."""
        check(n.lib.picollo_perf_session_reset(self._ptr))

    def derived(self) -> Derived:
        """IPC and miss ratios of the latest deltas."""
        out = pn.picollo_perf_derived()
        check(n.lib.picollo_perf_session_derived(self._ptr, ctypes.byref(out)))
        return Derived._from_c(out)

    def derived_means(self) -> Derived:
        """IPC and miss ratios of the histogram means (every recorded interval)."""
        out = pn.picollo_perf_derived()
        check(n.lib.picollo_perf_session_derived_means(self._ptr, ctypes.byref(out)))
        return Derived._from_c(out)

    # --- lifetime ----------------------------------------------------------------------

    def close(self) -> None:
        """Close the counters and free the histograms (idempotent); histograms handed out
        by `Counter.histogram` become closed."""
        super().close()

    def _detach(self) -> None:
        for h in list(self._borrowed):
            h._detach()
        super()._detach()

    def __repr__(self) -> str:
        if self.closed:
            return "<perf.Session closed>"
        names = ", ".join(c.name for c in self.counters)
        return f"<perf.Session {'open' if self.is_open else 'not open'}: {names}>"


# --- timers, scopes, CPU helpers ---------------------------------------------------------


def ticks() -> int:
    """Ticks now (TSC on x86-64 Linux, else monotonic nanoseconds)."""
    return n.lib.picollo_ticks()


def ticks_begin() -> int:
    """Ticks at the start of a region (``lfence; rdtsc``)."""
    return n.lib.picollo_ticks_begin()


def ticks_end() -> int:
    """Ticks at the end of a region (``rdtscp; lfence``)."""
    return n.lib.picollo_ticks_end()


def monotonic_nanos() -> int:
    """``CLOCK_MONOTONIC`` in nanoseconds."""
    return n.lib.picollo_monotonic_nanos()


def tick_frequency() -> int:
    """Ticks per second (measured once, ~20 ms on the first call)."""
    return n.lib.picollo_tick_frequency()


def ticks_to_nanos(t: int) -> int:
    """Ticks → nanoseconds, exact and without overflow."""
    return n.lib.picollo_ticks_to_nanos(u64(t, "ticks"))


def convert_ticks(t: int, frequency: int, per_second: int) -> int:
    """``t × per_second / frequency`` rounded down, saturating, never overflowing."""
    return n.lib.picollo_convert_ticks(u64(t, "ticks"), u64(frequency, "frequency"),
                                       u64(per_second, "per_second"))


def add_chain(blocks: int) -> int:
    """256 dependent additions per block (known work); returns 256 × blocks."""
    return n.lib.picollo_add_chain(u64(blocks, "blocks"))


def pin_thread(cpu: int) -> None:
    """Pin the calling thread to one CPU."""
    check(n.lib.picollo_pin_thread(u32(cpu, "cpu")))


def set_thread_nice(nice: int) -> None:
    """Set the calling thread's nice value (-20..19); `PermissionDeniedError` when raising
    priority is not allowed."""
    if isinstance(nice, bool) or not isinstance(nice, int):
        raise TypeError("nice must be an int")
    if not -20 <= nice <= 19:
        raise ValueError(f"nice value {nice} is outside -20..19")
    check(n.lib.picollo_set_thread_nice(nice))


class Scope:
    """What `scope` yields: ``elapsed`` (in the scope's unit) is set when it ends."""

    def __init__(self, unit: str):
        self.unit = unit
        self.elapsed: Optional[int] = None


@contextlib.contextmanager
def scope(histogram: Histogram, unit: str = "ns") -> Iterator[Scope]:
    """Record the time the ``with`` block takes into ``histogram`` in ``unit`` (``ticks``,
    ``ns``, ``us``, ``ms``). Recorded whether or not the block raises."""
    if not isinstance(histogram, Histogram):
        raise TypeError(f"expected a Histogram, not {type(histogram).__name__}")
    try:
        code = TIME_UNITS[unit]
    except (KeyError, TypeError):
        raise ValueError(f"unit {unit!r} is not one of ticks, ns, us, ms") from None
    result = Scope(unit)
    handle = histogram._ptr
    raw = n.lib.picollo_scope_begin(handle, code)
    try:
        yield result
    finally:
        elapsed = ctypes.c_uint64()
        check(n.lib.picollo_scope_end(ctypes.byref(raw), ctypes.byref(elapsed)))
        result.elapsed = elapsed.value
