// Tests of the C# perf binding: real sessions of software counters, hardware counters
// skipped with the printed reason where there is no PMU, the borrowed histograms, scopes
// with `using`, discovery, timers, and error statuses. Prints "N passed, M failed".

using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Threading;
using Picollo;
using Picollo.Metrics;
using Picollo.Perf;

static class PerfTests
{
    static int passed, failed;

    static void Check(bool ok, string what)
    {
        if (ok) { passed++; return; }
        failed++;
        Console.WriteLine("FAIL: " + what);
    }

    static void Throws(Status expected, string needle, Action call, string what)
    {
        try
        {
            call();
            Check(false, what + ": no exception, expected " + expected);
        }
        catch (PicolloException e)
        {
            Check(e.Status == expected && e.NativeMessage.Contains(needle),
                  string.Format("{0}: expected {1} with \"{2}\", got {3} \"{4}\"", what, expected, needle, e.Status, e.NativeMessage));
        }
        catch (Exception e)
        {
            Check(false, what + ": unexpected " + e.GetType().Name + ": " + e.Message);
        }
    }

    static void Group(string name, Action body)
    {
        try { body(); }
        catch (Exception e) { Check(false, name + ": unexpected exception: " + e); }
    }

    static void Layout()
    {
        Func<Type, int> size = t => Marshal.SizeOf(t);
        Console.WriteLine(string.Format(
            "perf struct sizes: config={0} reading={1} delta={2} values={3} derived={4} info={5} scope={6} " +
            "config.relative_error@{7} values.overhead_syscall@{8} info.rdpmc@{9} scope.unit@{10}",
            size(typeof(PerfConfig)), size(typeof(Reading)), size(typeof(Delta)), size(typeof(CounterValues)),
            size(typeof(Derived)), size(typeof(PmuInfo)), size(typeof(ScopeData)),
            (int)Marshal.OffsetOf(typeof(PerfConfig), "RelativeError"),
            (int)Marshal.OffsetOf(typeof(CounterValues), "OverheadSyscall"),
            (int)Marshal.OffsetOf(typeof(PmuInfo), "Rdpmc"),
            (int)Marshal.OffsetOf(typeof(ScopeData), "Unit")));
        var c = PerfConfig.Default;
        Check(c.StructSize == 48 && c.Pid == 0 && c.Cpu == -1 && c.Enabled == 1 && c.RelativeError == 0.001,
              "PerfConfig.Default");
    }

    static void Discovery()
    {
        var info = Pmu.Discover();
        string line = Pmu.Describe();
        Console.WriteLine("discovery: " + line);
        if (info.Present != 0)
            Check(line.StartsWith("CPU PMU: fixedCounters="), "PMU line: " + line);
        else
            Check(line.StartsWith("no hardware PMU (CPUID 0xA version ") && info.FixedCounters == 0 && info.CyclesErrno != 0,
                  "no-PMU line: " + line);
        string reason;
        Check(Pmu.IsSupported("Software:TaskClock", out reason) && reason == "", "task-clock supported");
        bool cycles = Pmu.IsSupported("Hardware:CpuCycles", out reason);
        Check(cycles || reason.StartsWith("Hardware:CpuCycles: "), "cycles supported or a reason: " + reason);
        Throws(Status.InvalidArgument, "Hardware:Nope", () => Pmu.IsSupported("Hardware:Nope", out reason), "bad name");
    }

    static ulong BestTaskClock(PerfSession s, ulong blocks)
    {
        ulong best = ulong.MaxValue;
        for (int i = 0; i < 3; i++)
        {
            s.Read(true);
            Clock.AddChain(blocks);
            s.Read(true);
            best = Math.Min(best, s.Values(0).Delta.Scaled);
        }
        return best;
    }

    static void SoftwareSession()
    {
        using (var s = new PerfSession().AddSoftware(SoftwareEvent.TaskClock).Add("Software:PageFaults").Open())
        {
            Check(s.IsOpen && s.Count == 2, "open with two counters");
            Check(s.Name(0) == "Software:TaskClock" && s.Name(1) == "Software:PageFaults", "names");
            Check(s.Read() == ReadPath.Syscall, "software counters read through the syscall");
            ulong small = BestTaskClock(s, 2000), large = BestTaskClock(s, 200000);
            Console.WriteLine(string.Format("task-clock: {0} ns for 2,000 blocks, {1} ns for 200,000", small, large));
            Check(large > 5 * small && small > 0, "task-clock grows with work");

            const int rounds = 200;
            double sum = 0;
            s.Reset();
            for (int i = 0; i < rounds; i++)
            {
                s.Read();
                Clock.AddChain(500 + (ulong)i * 20);
                s.Read();
                s.Record();
                sum += s.Deltas()[0].Scaled;
            }
            var h = s.Histogram(0);
            Check(ReferenceEquals(h, s.Histogram(0)) && h.Owner == s, "one borrowed histogram per counter");
            Check(h.TotalCount == rounds && s.Histogram(1).TotalCount == rounds, "every round recorded: " + h.TotalCount);
            Check(Math.Abs(h.Mean - sum / rounds) <= sum / rounds * 0.002 + 1, "histogram mean " + h.Mean + " vs " + sum / rounds);
            Check(h.Table("Software:TaskClock").StartsWith("##### Software:TaskClock"), "table of a borrowed histogram");
            var v = s.Values(0);
            Check(v.Delta.Raw == v.Current.Value - v.Previous.Value && v.Multiplexed == 0 && v.HasPage == 0, "counter values");
            Check(double.IsNaN(s.Derived.Ipc) && double.IsNaN(s.DerivedMeans.BranchMissRatio), "no hardware: NaN ratios");

            s.Disable();
            s.Read(); Clock.AddChain(50000); s.Read();
            Check(s.Values(0).Delta.Raw == 0, "disabled: no counting");
            s.Enable();
            s.Read(); Clock.AddChain(50000); s.Read();
            Check(s.Values(0).Delta.Raw > 0, "enabled: counting");
            s.Record(RecordKind.Value);
            Check(h.TotalCount == rounds + 1, "record kind value");
            s.Reset();
            Check(h.TotalCount == 0, "reset empties the histograms");

            h.Dispose(); // a borrowed histogram: disposing the wrapper frees nothing
            Check(s.Histogram(1).TotalCount == 0, "the session still works");
        }
    }

    static void BorrowedAfterDispose()
    {
        var s = new PerfSession().AddSoftware(SoftwareEvent.TaskClock);
        var h = s.Histogram(0);
        s.Dispose();
        Check(h.IsDisposed, "the session's dispose disposes its histograms");
        try { var t = h.TotalCount; Check(false, "use after the session's dispose: " + t); }
        catch (ObjectDisposedException) { passed++; }
    }

    static void Errors()
    {
        using (var s = new PerfSession())
        {
            Throws(Status.InvalidArgument, "at least one counter", () => s.Open(), "empty session");
            s.AddSoftware(SoftwareEvent.TaskClock);
            Throws(Status.InvalidArgument, "Software:TaskClock: added to the session twice", () => s.Add("Software:TaskClock"), "duplicate");
            Throws(Status.InvalidArgument, "hardware event id 77", () => s.AddHardware((HardwareEvent)77), "bad hardware id");
            Throws(Status.InvalidArgument, "cache result 5", () => s.AddCache(CacheLevel.L1D, CacheOp.Read, (CacheResult)5), "bad cache result");
            Throws(Status.InvalidArgument, "not open", () => s.Read(), "read before open");
            Throws(Status.OutOfRange, "counter index 3", () => s.Name(3), "name out of range");
            s.Open();
            Throws(Status.InvalidArgument, "already open", () => s.Open(), "open twice");
            Throws(Status.InvalidArgument, "record kind 9", () => s.Record((RecordKind)9), "bad record kind");
        }
        using (var s = new PerfSession().AddSoftware(SoftwareEvent.TaskClock).AddRaw(0x7fff0000u, 1))
        {
            try { s.Open(); Check(false, "a bogus raw type opened"); }
            catch (PicolloException e)
            {
                Check(e.Status == Status.InvalidArgument && e.NativeMessage.Contains("Raw:2147418112:0x1: unknown perf event type 2147418112"),
                      "bogus raw type: " + e.Status + " " + e.NativeMessage);
            }
            Check(!s.IsOpen && s.Count == 2, "a failed open leaves the session unopened");
        }
        var bad = PerfConfig.Default;
        bad.StructSize = 8;
        Throws(Status.StructSize, "picollo_perf_config_default", () => new PerfSession(bad), "struct_size");
        bad = PerfConfig.Default;
        bad.Pinned = 3;
        Throws(Status.InvalidArgument, "pinned is 3", () => new PerfSession(bad), "flag");
        Throws(Status.InvalidArgument, "-20..=19", () => Clock.SetThreadNice(42), "nice");
        Throws(Status.InvalidArgument, "CPU 1048576", () => Clock.PinThread(1u << 20), "pin");
    }

    static void Hardware()
    {
        PerfSession s = null;
        try
        {
            s = new PerfSession().AddFixed().Open();
        }
        catch (PicolloException e)
        {
            if (s != null) s.Dispose();
            if (e.Status == Status.Unsupported || e.Status == Status.PermissionDenied)
            {
                Console.WriteLine("SKIP hardware counters (" + e.Status + "): " + e.NativeMessage);
                passed++;
                return;
            }
            throw;
        }
        using (s)
        {
            ulong best = ulong.MaxValue;
            for (int i = 0; i < 20; i++)
            {
                s.Read(); Clock.AddChain(1000); s.Read();
                best = Math.Min(best, s.Values(0).Delta.Scaled);
            }
            Console.WriteLine("hardware: add_chain(1000) took " + best + " cycles");
            Check(best >= 200000 && best < 2000000, "about 256,000 cycles");
            Check(s.Derived.Ipc > 0.3, "IPC");
        }
    }

    static void Scopes()
    {
        using (var h = new HdrHistogram())
        {
            for (int i = 0; i < 3; i++)
                using (Scope.Begin(h, TimeUnit.Micros)) { Thread.Sleep(2); }
            Check(h.TotalCount == 3, "three scopes, three values: " + h.TotalCount);
            Check(h.GetPercentile(0).Highest >= 1900, "each scope lasted at least ~2 ms: " + h.GetPercentile(0).Highest);
            var s = Scope.Begin(h, TimeUnit.Ticks);
            Clock.AddChain(1000);
            Check(s.End() > 0 && h.TotalCount == 4, "End records once and returns the elapsed time");
            try { s.End(); Check(false, "ended twice"); } catch (InvalidOperationException) { passed++; }
            var bad = Scope.Begin(h, (TimeUnit)9);
            Throws(Status.InvalidArgument, "scope unit 9", () => bad.End(), "bad unit");
            Check(h.TotalCount == 4, "a bad scope records nothing");
        }
        var disposed = new HdrHistogram();
        disposed.Dispose();
        try { Scope.Begin(disposed); Check(false, "scope on a disposed histogram"); }
        catch (ObjectDisposedException) { passed++; }
    }

    static void Timers()
    {
        ulong prev = Clock.Ticks;
        bool monotonic = true;
        for (int i = 0; i < 10000; i++) { ulong t = Clock.Ticks; if (t < prev) monotonic = false; prev = t; }
        Check(monotonic, "ticks never go back");
        ulong f = Clock.TickFrequency;
        Console.WriteLine("tick frequency: " + f + " Hz");
        Check(f >= 1000000 && f <= 20000000000UL, "plausible frequency");
        Check(Clock.TicksToNanos(f * 1000000UL) == 1000000000000000UL, "10^6 s of ticks is 10^15 ns");
        Check(Clock.ConvertTicks(5000000000UL * 1000000UL + 2500000000UL, 5000000000UL, 1000000000UL) == 1000000500000000UL,
              "10^6 s and a half at 5 GHz");
        Check(Clock.AddChain(1000) == 256000, "add_chain");
        ulong n0 = Clock.MonotonicNanos;
        Check(Clock.MonotonicNanos >= n0, "monotonic nanos");
    }

    static int Main()
    {
        Group("layout", Layout);
        Group("discovery", Discovery);
        Group("software session", SoftwareSession);
        Group("borrowed after dispose", BorrowedAfterDispose);
        Group("errors", Errors);
        Group("hardware", Hardware);
        Group("scopes", Scopes);
        Group("timers", Timers);
        Console.WriteLine(passed + " passed, " + failed + " failed");
        return failed == 0 ? 0 : 1;
    }
}
