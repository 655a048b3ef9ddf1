// Tests of the C# perf binding: PerfEventCounterSession built by its Factory with software counters, hardware counters
// skipped with the printed reason where there is no PMU, the borrowed histograms, scopes
// with `using`, discovery, timers, and error statuses. Prints "N passed, M failed".

using System;
using System.Collections.Generic;
using System.Linq;
using System.Runtime.InteropServices;
using System.Threading;
using Picollo;
using Picollo.Metrics;
using Picollo.Perf;

static partial class PerfTests
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
        catch (Exception caught) when (caught is IPicolloError)
        {
            var e = (IPicolloError)caught;
            Check(e.Status == expected && e.NativeMessage.Contains(needle),
                  string.Format("{0}: expected {1} with \"{2}\", got {3} \"{4}\"", what, expected, needle, e.Status, e.NativeMessage));
            // A bad argument is an ArgumentException whether the binding or the library found it.
            Check(expected != Status.InvalidArgument || caught is ArgumentException,
                  what + ": InvalidArgument thrown as " + caught.GetType().Name + ", not an ArgumentException");
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
            "config.relative_error@{7} values.overhead_syscall@{8} info.rdpmc@{9} scope.unit@{10} " +
            "bench_config={11} bench_config.time_budget@{12} bench_config.baseline@{13} " +
            "bench_config.seed@{14} bench_config.fixed_offsets@{17} bench_comparison={15} bench_comparison.rounds_a@{16} " +
            "bench_floor={18} bench_floor.resolution@{19}",
            size(typeof(PerfConfig)), size(typeof(Reading)), size(typeof(Delta)), size(typeof(CounterValues)),
            size(typeof(Derived)), size(typeof(PmuInfo)), size(typeof(ScopeData)),
            (int)Marshal.OffsetOf(typeof(PerfConfig), "RelativeError"),
            (int)Marshal.OffsetOf(typeof(CounterValues), "OverheadSyscall"),
            (int)Marshal.OffsetOf(typeof(PmuInfo), "Rdpmc"),
            (int)Marshal.OffsetOf(typeof(ScopeData), "Unit"), size(typeof(BenchConfig)),
            (int)Marshal.OffsetOf(typeof(BenchConfig), "TimeBudget"), (int)Marshal.OffsetOf(typeof(BenchConfig), "Baseline"),
            (int)Marshal.OffsetOf(typeof(BenchConfig), "Seed"), size(typeof(BenchComparisonInfo)),
            (int)Marshal.OffsetOf(typeof(BenchComparisonInfo), "RoundsA"),
            (int)Marshal.OffsetOf(typeof(BenchConfig), "FixedOffsets"), size(typeof(BenchFloorInfo)),
            (int)Marshal.OffsetOf(typeof(BenchFloorInfo), "Resolution")));
        Console.WriteLine(string.Format(
            "perf path struct: path_choice={0} path_choice.reason@{1} path_choice.user_ns@{2} path_choice.syscall_ns@{3}",
            size(typeof(PathChoice)), (int)Marshal.OffsetOf(typeof(PathChoice), "Reason"),
            (int)Marshal.OffsetOf(typeof(PathChoice), "UserNs"), (int)Marshal.OffsetOf(typeof(PathChoice), "SyscallNs")));
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

    static ulong BestTaskClock(PerfEventCounterSession s, ulong blocks)
    {
        ulong best = ulong.MaxValue;
        for (int i = 0; i < 3; i++)
        {
            s.Read(forceSyscallRead: true);
            CpuUtils.AddChain256(blocks);
            s.Read(forceSyscallRead: true);
            best = Math.Min(best, s.Counters[0].Delta.Scaled);
        }
        return best;
    }

    static void SoftwareSession()
    {
        using (var s = PerfEventCounterSession.Factory
                   .WithTarget(0, -1).WithPinned(true).WithKernel(false).WithEnabled(true)
                   .WithSoftwareCounter(PerfSoftwareCounterId.TaskClock).WithCounter("Software:PageFaults").Create())
        {
            Check(s.Counters.Count == 2, "created with two counters");
            Check(s.Counters[0].Name == "Software:TaskClock" && s.Counters[1].Name == "Software:PageFaults", "names");
            Check(ReferenceEquals(s.Counters.Software.TaskClock, s.Counters[0])
                  && ReferenceEquals(s.Counters.Software.PageFaults, s.Counters[1])
                  && ReferenceEquals(s.Counters.Software[PerfSoftwareCounterId.PageFaults], s.Counters[1])
                  && ReferenceEquals(s.Counters.Find("Software:PageFaults"), s.Counters[1]),
                  "counters by id and by name");
            Check(s.Counters.Hardware.CpuCycles == null && s.Counters.Software.ContextSwitches == null
                  && s.Counters.Cache[PerfCacheCounterId.L1DReadMiss] == null && s.Counters.Find("Hardware:Nope") == null,
                  "counters not in the session are null");
            var names = new List<string>();
            foreach (PerfEventCounter c in s.Counters) names.Add(c.Name + "@" + c.Index);
            Check(string.Join(",", names) == "Software:TaskClock@0,Software:PageFaults@1", "enumerated in order: " + string.Join(",", names));
            Check(s.Read() == ReadPath.Syscall, "software counters read through the syscall");
            ulong small = BestTaskClock(s, 2000), large = BestTaskClock(s, 200000);
            Console.WriteLine(string.Format("task-clock: {0} ns for 2,000 blocks, {1} ns for 200,000", small, large));
            Check(large > 5 * small && small > 0, "task-clock grows with work");

            const int rounds = 200;
            double sum = 0;
            s.Reset();
            for (int i = 0; i < rounds; i++)
            {
                s.Read(forceSyscallRead: true);
                CpuUtils.AddChain256(500 + (ulong)i * 20);
                s.Read(forceSyscallRead: true);
                s.Record(deltas: true);
                sum += s.Deltas()[0].Scaled;
            }
            var h = s.Counters.Software.TaskClock.Histogram;
            Check(ReferenceEquals(h, s.Counters[0].Histogram) && h.Owner == s, "one borrowed histogram per counter");
            Check(h.TotalCount == rounds && s.Counters[1].Histogram.TotalCount == rounds, "every round recorded: " + h.TotalCount);
            Check(Math.Abs(h.Mean - sum / rounds) <= sum / rounds * 0.002 + 1, "histogram mean " + h.Mean + " vs " + sum / rounds);
            string table = h.GetSummary().Table(s.Counters[0].Name);
            Check(table.StartsWith("##### Software:TaskClock\n| Percentile |") && table.Contains("| Total: ") && table.Contains("200 |"),
                  "table of a borrowed histogram:\n" + table);
            var v = s.Counters[0].Values;
            Check(v.Delta.Raw == v.Current.Value - v.Previous.Value && v.Multiplexed == 0 && v.HasPage == 0, "counter values");
            Check(s.Counters[0].Delta.Raw == v.Delta.Raw, "Delta is the values' delta");
            Check(double.IsNaN(s.Derived.Ipc) && double.IsNaN(s.DerivedMeans.BranchMissRatio), "no hardware: NaN ratios");

            s.Disable();
            s.Read(); CpuUtils.AddChain256(50000); s.Read();
            Check(s.Counters[0].Delta.Raw == 0, "disabled: no counting");
            s.Enable();
            s.Read(); CpuUtils.AddChain256(50000); s.Read();
            Check(s.Counters[0].Delta.Raw > 0, "enabled: counting");
            s.Record(deltas: false);
            Check(h.TotalCount == rounds + 1, "Record(deltas: false) records the reading");
            Check(h.GetPercentile(100).Highest >= s.Counters[0].Values.Current.Scaled, "the reading itself, not a delta");
            s.Record(RecordKind.Corrected);
            Check(h.TotalCount == rounds + 2, "record kind corrected");
            s.Reset();
            Check(h.TotalCount == 0, "reset empties the histograms");

            h.Dispose(); // a borrowed histogram: disposing the wrapper frees nothing
            Check(s.Counters[1].Histogram.TotalCount == 0, "the session still works");
        }
    }

    static void BuilderOptions()
    {
        // Created disabled: nothing counts until Enable.
        using (var s = PerfEventCounterSession.Factory.WithEnabled(false).WithCalibration(false)
                   .WithSoftwareCounter(PerfSoftwareCounterId.TaskClock).Create())
        {
            s.Read(); CpuUtils.AddChain256(50000); s.Read();
            Check(s.Counters[0].Delta.Raw == 0, "WithEnabled(false): no counting before Enable");
            s.Enable();
            s.Read(); CpuUtils.AddChain256(50000); s.Read();
            Check(s.Counters[0].Delta.Raw > 0, "counting after Enable");
        }
        // The whole process (its main thread) by pid, and the histograms' relative error.
        int pid = System.Diagnostics.Process.GetCurrentProcess().Id;
        using (var s = PerfEventCounterSession.Factory.WithTarget(pid).WithRelativeError(0.01)
                   .WithSoftwareCounter(PerfSoftwareCounterId.TaskClock).WithRecordKind(RecordKind.RawDelta).Create())
        {
            Check(s.Counters[0].Histogram.Info.RelativeError == 0.0078125, "WithRelativeError(0.01): block size 64");
            s.Read(); CpuUtils.AddChain256(50000); s.Read();
            s.Record();
            Check(s.Counters[0].Histogram.TotalCount == 1, "Record() records the configured kind");
        }
        var config = PerfEventCounterSession.Factory.WithTarget(7, 2).WithPinned(true).WithKernel(true).WithEnabled(false)
            .WithCalibration(false).WithRdpmc(false).WithRelativeError(0.05).WithRecordKind(RecordKind.Corrected).Config;
        Check(config.Pid == 7 && config.Cpu == 2 && config.Pinned == 1 && config.IncludeKernel == 1 && config.Enabled == 0
              && config.Calibrate == 0 && config.Rdpmc == 0 && config.RelativeError == 0.05
              && config.RecordKind == (uint)RecordKind.Corrected, "every With* lands in the C config");
        Check(PerfCacheCounterIds.Of(CacheLevel.LL, CacheOp.Read, CacheResult.Miss) == PerfCacheCounterId.LLReadMiss
              && PerfCacheCounterId.L1IReadMiss.Level() == CacheLevel.L1I && PerfCacheCounterId.L1IReadMiss.Op() == CacheOp.Read
              && PerfCacheCounterId.L1IReadMiss.Result() == CacheResult.Miss && (uint)PerfCacheCounterId.DTLBWriteMiss == 0x10103,
              "cache ids are the kernel's config words");
    }

    // The read path each policy gives a counter without a page: the library reports the policy
    // it was given back and says why it reads through read(2); a value it does not know is
    // refused at Create.
    static void ReadPathChoice()
    {
        foreach (ReadPolicy policy in new[] { ReadPolicy.Auto, ReadPolicy.UserSpace, ReadPolicy.Syscall })
        {
            using (var s = PerfEventCounterSession.Factory.WithReadPolicy(policy)
                       .WithSoftwareCounter(PerfSoftwareCounterId.TaskClock).Create())
            {
                PathChoice c = s.PathChoice;
                PathReason want = policy == ReadPolicy.Syscall ? PathReason.Forced : PathReason.NoPage;
                Check(c.ReadPath == ReadPath.Syscall && c.ReadPolicy == policy && c.PathReason == want
                      && double.IsNaN(c.UserNs) && double.IsNaN(c.SyscallNs),
                      string.Format("{0}: path {1}, reason {2} (want {3})", policy, c.ReadPath, c.PathReason, want));
                string line = s.DescribePath();
                Check(line.StartsWith("read(2): ") && line.Contains("policy says so") == (want == PathReason.Forced),
                      "the path's line: " + line);
            }
        }
        Check(PerfEventCounterSession.Factory.WithRdpmc(false).Config.Rdpmc == (uint)ReadPolicy.Syscall
              && PerfEventCounterSession.Factory.Config.Rdpmc == (uint)ReadPolicy.Auto, "WithRdpmc maps onto the policy");
        Throws(Status.InvalidArgument, "read policy", () =>
            PerfEventCounterSession.Factory.WithReadPolicy((ReadPolicy)7).WithSoftwareCounter(PerfSoftwareCounterId.TaskClock).Create(),
            "an unknown read policy");
    }

    static void CountersOfTheSeed()
    {
        uint fixedCounters, programmable;
        bool pmu = PerfEventCounterSession.TryGetNumberOfCounters(out fixedCounters, out programmable);
        var info = Pmu.Discover();
        Console.WriteLine(string.Format("TryGetNumberOfCounters: {0}, fixedCounters={1}, programmableCounters={2}", pmu, fixedCounters, programmable));
        Check(pmu == (info.Present != 0), "TryGetNumberOfCounters says whether a PMU is usable");
        Check(pmu ? fixedCounters == info.FixedCounters && programmable == info.ProgrammableCounters
                  : fixedCounters == 0 && programmable == 0, "the counts, or zeros without a PMU");
    }

    static void BorrowedAfterDispose()
    {
        var s = PerfEventCounterSession.Factory.WithSoftwareCounter(PerfSoftwareCounterId.TaskClock).Create();
        var h = s.Counters[0].Histogram;
        s.Dispose();
        Check(h.IsDisposed && s.IsDisposed, "the session's dispose disposes its histograms");
        try { var t = h.TotalCount; Check(false, "use after the session's dispose: " + t); }
        catch (ObjectDisposedException) { passed++; }
        try { s.Read(); Check(false, "read after dispose"); }
        catch (ObjectDisposedException) { passed++; }
        s.Dispose();   // twice: nothing
        passed++;
    }

    static void Errors()
    {
        Func<PerfEventCounterSessionBuilder> software = () => PerfEventCounterSession.Factory.WithSoftwareCounter(PerfSoftwareCounterId.TaskClock);
        Throws(Status.InvalidArgument, "at least one counter", () => PerfEventCounterSession.Factory.Create(), "empty session");
        Throws(Status.InvalidArgument, "Software:TaskClock: added to the session twice",
               () => PerfEventCounterSession.Factory.WithSoftwareCounter(PerfSoftwareCounterId.TaskClock).WithCounter("Software:TaskClock").Create(), "duplicate");
        Throws(Status.InvalidArgument, "hardware event id 77", () => software().WithHardwareCounter((PerfHardwareCounterId)77).Create(), "bad hardware id");
        Throws(Status.InvalidArgument, "cache result 5",
               () => PerfEventCounterSession.Factory.WithCacheCounter(CacheLevel.L1D, CacheOp.Read, (CacheResult)5).Create(), "bad cache result");
        Throws(Status.InvalidArgument, "cache result 5",
               () => PerfEventCounterSession.Factory.WithCacheCounter((PerfCacheCounterId)0x50000).Create(), "bad cache id");
        Throws(Status.InvalidArgument, "Hardware:Nope", () => PerfEventCounterSession.Factory.WithCounter("Hardware:Nope").Create(), "bad name");
        Throws(Status.InvalidArgument, "-1 or more",
               () => PerfEventCounterSession.Factory.WithTarget(-5).WithSoftwareCounter(PerfSoftwareCounterId.TaskClock).Create(), "bad pid");
        Throws(Status.InvalidArgument, "relative",
               () => PerfEventCounterSession.Factory.WithRelativeError(0).WithSoftwareCounter(PerfSoftwareCounterId.TaskClock).Create(), "bad relative error");
        try
        {
            PerfEventCounterSession.Factory.WithSoftwareCounter(PerfSoftwareCounterId.TaskClock).WithRawCounter(0x7fff0000u, 1).Create();
            Check(false, "a bogus raw type opened");
        }
        catch (PicolloArgumentException e)
        {
            Check(e.Status == Status.InvalidArgument && e.NativeMessage.Contains("Raw:2147418112:0x1: unknown perf event type 2147418112"),
                  "bogus raw type: " + e.Status + " " + e.NativeMessage);
        }
        try { PerfEventCounterSession.Factory.WithCounter(null); Check(false, "a null name"); }
        catch (ArgumentNullException) { passed++; }
        try { PerfEventCounterSession.Factory.WithHardwareCounters(null); Check(false, "null ids"); }
        catch (ArgumentNullException) { passed++; }
        try { PerfEventCounterSession.Factory.WithCounter("Software:\0TaskClock"); Check(false, "a NUL in a name"); }
        catch (ArgumentException) { passed++; }
        using (var s = software().Create())
        {
            Throws(Status.InvalidArgument, "record kind 9", () => s.Record((RecordKind)9), "bad record kind");
            try { var c = s.Counters[2]; Check(false, "counter index past the end: " + c); }
            catch (ArgumentOutOfRangeException) { passed++; }
        }
        Throws(Status.InvalidArgument, "-20..=19", () => CpuUtils.SetThreadNice(42), "nice");
        Throws(Status.InvalidArgument, "CPU 1048576", () => CpuUtils.PinThread(1u << 20), "pin");
    }

    static void Hardware()
    {
        PerfEventCounterSession s;
        try
        {
            s = PerfEventCounterSession.Factory.WithFixedCounters().WithHardwareCounter(PerfHardwareCounterId.BranchMisses).Create();
        }
        catch (Exception caught) when (caught is IPicolloError)
        {
            var e = (IPicolloError)caught;
            if (e.Status == Status.Unsupported || e.Status == Status.PermissionDenied)
            {
                // The refusal itself is checked: the right status, and a reason naming the counter.
                Check(e.NativeMessage.StartsWith("Hardware:"), "the refusal names the counter: " + e.NativeMessage);
                Console.WriteLine("SKIP hardware counters (" + e.Status + "): " + e.NativeMessage);
                return;
            }
            throw;
        }
        using (s)
        {
            var cycles = s.Counters.Hardware.CpuCycles;
            Check(cycles != null && s.Counters.Hardware.Instructions != null && s.Counters.Hardware.RefCpuCycles != null
                  && s.Counters.Hardware.BranchMisses != null && s.Counters.Count == 4, "fixed counters and branch misses");
            ulong best = ulong.MaxValue;
            for (int i = 0; i < 20; i++)
            {
                s.Read(); CpuUtils.AddChain256(1000); s.Read();
                best = Math.Min(best, cycles.Delta.Scaled);
                s.Record(deltas: true);
            }
            Console.WriteLine("hardware: add_chain(1000) took " + best + " cycles");
            Check(best >= 200000 && best < 2000000, "about 256,000 cycles");
            Check(s.Derived.Ipc > 0.3, "IPC");
            Check(cycles.Histogram.TotalCount == 20, "20 deltas recorded");
        }
    }

    static void Scopes()
    {
        using (var h = new HdrHistogram())
        {
            for (int i = 0; i < 3; i++)
                using (Scope.Begin(h, TimeUnit.Micros))
                {
                    // One Thread.Sleep(2) may wake a little early: sleep until Stopwatch says 2 ms.
                    var w = System.Diagnostics.Stopwatch.StartNew();
                    while (w.ElapsedTicks < System.Diagnostics.Stopwatch.Frequency / 500) Thread.Sleep(1);
                }
            Check(h.TotalCount == 3, "three scopes, three values: " + h.TotalCount);
            Check(h.GetPercentile(0).Highest >= 1900, "each scope lasted at least ~2 ms: " + h.GetPercentile(0).Highest);
            var s = Scope.Begin(h, TimeUnit.Ticks);
            CpuUtils.AddChain256(1000);
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
        Check(CpuUtils.AddChain256(1000) == 256000, "add_chain");
        ulong n0 = Clock.MonotonicNanos;
        Check(Clock.MonotonicNanos >= n0, "monotonic nanos");
    }

    /// <summary>Every group; with <c>--emulated</c> (under <c>picollo emulate</c>) the exact
    /// metrics' groups only, EmulatedTests.cs.</summary>
    static int Main(string[] args)
    {
        if (args.Contains("--emulated"))
        {
            EmulatedGroups();
            Console.WriteLine(passed + " passed, " + failed + " failed");
            return failed == 0 ? 0 : 1;
        }
        Group("layout", Layout);
        Group("discovery", Discovery);
        Group("software session", SoftwareSession);
        Group("builder options", BuilderOptions);
        Group("counters of the announcement's snippets", CountersOfTheSeed);
        Group("borrowed after dispose", BorrowedAfterDispose);
        Group("errors", Errors);
        Group("hardware", Hardware);
        Group("read path", ReadPathChoice);
        Group("scopes", Scopes);
        Group("timers", Timers);
        BenchGroups();  // BenchTests.cs: the benchmark harness
        SeedGroups();   // SeedPerfTests.cs: the announcement's perf snippets
        EmulatedGroups();  // EmulatedTests.cs: exact metrics, natively (and under picollo emulate)
        Console.WriteLine(passed + " passed, " + failed + " failed");
        return failed == 0 ? 0 : 1;
    }
}
