// Bench: the harness of picollo_bench_run for delegates. The library calls back into a
// trampoline with a batch size k; the trampoline calls the delegate k times. The cost of
// that call is measured on an empty delegate with the same settings and passed as the run's
// baseline, so the figures are the delegate's own work. An exception thrown by the delegate
// never crosses the native frames: the trampoline keeps it, turns the rest of the run into
// no-ops, and Run rethrows it once the library has returned.

using System;
using System.Diagnostics;
using System.Reflection;
using System.Runtime.ExceptionServices;
using System.Runtime.InteropServices;

namespace Picollo
{
    /// <summary>Benchmarks a delegate on the calling thread: warm-up, batch calibration, one
    /// histogram per metric (time per operation and each counter's events per operation), the
    /// report, <see cref="Compare"/> for an A/B verdict (interleaved) and
    /// <see cref="JudgeApart"/> for a run against earlier runs apart (docs/benchmarks.md).
    /// Linux only.</summary>
    public static partial class Bench
    {
        /// <summary>Measure <paramref name="op"/>, one call per operation. An exception from
        /// <paramref name="op"/> ends the measurement and is rethrown here; bad options throw
        /// <see cref="ArgumentException"/> before <paramref name="op"/> runs.</summary>
        public static BenchResult Run(Action op, BenchOptions options = null)
        {
            if (op == null) throw new ArgumentNullException("op");
            Action empty = () => { };
            return Measure(new Trampoline(op), new Trampoline(empty), options ?? new BenchOptions());
        }

        /// <summary>Measure work that runs the given number of operations itself (its own loop,
        /// no delegate call per operation); the call overhead subtracted is that of an empty
        /// <c>Action&lt;ulong&gt;</c> per batch.</summary>
        public static BenchResult Run(Action<ulong> operations, BenchOptions options = null)
        {
            if (operations == null) throw new ArgumentNullException("operations");
            Action<ulong> empty = n => { };
            return Measure(new Trampoline(operations), new Trampoline(empty), options ?? new BenchOptions());
        }

        /// <summary>B against A, round against round: the diff tables, the method and the
        /// closing <c>verdict:</c> line, with the verdict, the change and its interval.
        /// <para>Two results of an interleaved comparison are judged in pairs. Two results
        /// measured apart (two separate <see cref="Run(Action, BenchOptions)"/>s) always give
        /// <see cref="BenchVerdict.NotEnoughRunsApart"/> (or
        /// <see cref="BenchVerdict.NotEnoughRounds"/> with too few rounds): the rounds of one
        /// run do not hold what changes between runs (another process, another moment, other
        /// code and heap placements), so no 99 % verdict can come from them. The change and
        /// its interval are still filled, the rounds' interval, for information. To tell two
        /// pieces of work apart, interleave them with
        /// <see cref="Compare(Action, Action, BenchOptions, string, string)"/>; to gate a new
        /// run against earlier ones, use <see cref="JudgeApart"/>.</para></summary>
        public static BenchComparison Compare(BenchResult a, BenchResult b)
        {
            if (a == null) throw new ArgumentNullException("a");
            if (b == null) throw new ArgumentNullException("b");
            BenchVerdict verdict = BenchVerdict.NoDifference;
            double ratio = double.NaN;
            string text = Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                BenchNative.picollo_bench_compare(a.Handle, b.Handle, buf, len, out needed, out verdict, out ratio));
            var info = new BenchComparisonInfo { StructSize = (uint)Marshal.SizeOf(typeof(BenchComparisonInfo)) };
            PicolloException.Check(BenchNative.picollo_bench_compare_info(a.Handle, b.Handle, ref info));
            return new BenchComparison(info, text, a, b);
        }

        /// <summary>B against A as <see cref="Compare(BenchResult, BenchResult)"/>, judged on
        /// <paramref name="metric"/> rather than time: a metric both results have, by its name
        /// (<c>Hardware:Instructions</c>, <c>Software:PageFaults</c>) or the part after <c>:</c>
        /// in any case where one metric answers to it (<c>instructions</c>); <c>time</c> is
        /// the default comparison. A count whose figures agree within its read jitter on both
        /// sides (2 counts or 0.01 % of the median; an emulated count exactly) is judged
        /// without statistics (<see cref="BenchComparison.Exactly"/>): B − A and its bounds;
        /// any other metric on its rounds, as time is. <see cref="BenchVerdict.Slower"/> and
        /// <see cref="BenchVerdict.Faster"/> then mean more and fewer of it. A metric the two
        /// do not both have, or a name several answer to, throws
        /// <see cref="ArgumentException"/> (PicolloArgumentException) naming those they
        /// have.</summary>
        public static BenchComparison Compare(BenchResult a, BenchResult b, string metric)
        {
            if (a == null) throw new ArgumentNullException("a");
            if (b == null) throw new ArgumentNullException("b");
            if (metric == null) throw new ArgumentNullException("metric");
            byte[] name = Utf8.ToNative(metric);
            var info = new BenchComparisonInfo { StructSize = (uint)Marshal.SizeOf(typeof(BenchComparisonInfo)) };
            UIntPtr index = UIntPtr.Zero;
            uint exact = 0;
            string text = Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                BenchNative.picollo_bench_compare_metric(a.Handle, b.Handle, name, buf, len, out needed,
                                                         ref info, out index, out exact));
            return new BenchComparison(info, text, a, b, a.Metrics[(int)index.ToUInt64()], exact != 0);
        }

        /// <summary>Judge <paramref name="result"/> against runs measured apart:
        /// <paramref name="runsApart"/> holds the <see cref="BenchResult.MedianRound"/> (ns) of
        /// each earlier run of the same work, e.g. saved from earlier processes. The result's
        /// own median round is set against the 99 % prediction interval of one more run
        /// (Student's t on the logs of the runs apart), which holds what changes between
        /// processes and moments, not only the spread between the rounds of one run.
        /// <para>A CI gate: save the <see cref="BenchResult.MedianRound"/> of 3 to 5 runs of the
        /// baseline, each its own process (a fresh start moves the time more than anything
        /// inside one process does); then measure the change in a new process and judge it
        /// with <c>JudgeApart(run, saved)</c>: <see cref="BenchVerdict.Slower"/> fails the gate.
        /// Fewer than 2 runs apart give <see cref="BenchVerdict.NotEnoughRunsApart"/>.</para>
        /// <para>The comparison's <see cref="BenchComparison.Text"/> holds the method and the
        /// <c>verdict:</c> line, which calls the saved runs "the baseline";
        /// <see cref="BenchComparison.RoundsA"/> is the count of runs apart, and
        /// <see cref="BenchComparison.A"/> is null. A run apart that is not a positive finite
        /// time throws <see cref="ArgumentException"/> (PicolloArgumentException).</para></summary>
        public static BenchComparison JudgeApart(BenchResult result, double[] runsApart)
        {
            if (result == null) throw new ArgumentNullException("result");
            if (runsApart == null) throw new ArgumentNullException("runsApart");
            var runs = (double[])runsApart.Clone();
            var k = new UIntPtr((ulong)runs.Length);
            var info = new BenchComparisonInfo { StructSize = (uint)Marshal.SizeOf(typeof(BenchComparisonInfo)) };
            string text = Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                BenchNative.picollo_bench_judge_apart(result.Handle, runs, k, buf, len, out needed, ref info));
            return new BenchComparison(info, text, null, result);
        }

        /// <summary>Compare <paramref name="b"/> with <paramref name="a"/> interleaved: both
        /// warm up, then every round calls both back to back in a random order; the verdict
        /// judges the rounds' paired differences of median time. Each slot runs at a random
        /// stack depth with a random heap block held unless
        /// <see cref="BenchOptions.RandomOffsets"/> is false. With SubtractCallOverhead an
        /// empty delegate's medians are subtracted from both. Dispose the comparison to free
        /// its two results. Exceptions and bad options as <see cref="Run(Action, BenchOptions)"/>.</summary>
        public static BenchComparison Compare(Action a, Action b, BenchOptions options = null,
                                              string nameA = "A", string nameB = "B")
        {
            if (a == null) throw new ArgumentNullException("a");
            if (b == null) throw new ArgumentNullException("b");
            options = options ?? new BenchOptions();
            BenchConfig config = options.ToConfig();
            byte[] counters = Utf8.ToNative(options.CounterList());
            var pair = new Trampoline[] { new Trampoline(a), new Trampoline(b) };
            var names = new string[] { nameA, nameB };
            if (!options.SubtractCallOverhead) return CompareOnce(config, counters, null, pair, names);
            Action empty = () => { };
            using (BenchResult overhead = RunOnce(config, OverheadName, Utf8.ToNative(OverheadName), counters, null, new Trampoline(empty)))
                return CompareOnce(config, counters, overhead, pair, names);
        }

        /// <summary>The name of the empty delegate's run, which the report's baseline line shows.</summary>
        const string OverheadName = "the empty delegate";

        static BenchResult Measure(Trampoline op, Trampoline empty, BenchOptions options)
        {
            BenchConfig config = options.ToConfig();
            byte[] name = Utf8.ToNative(options.Name);
            byte[] counters = Utf8.ToNative(options.CounterList());
            if (!options.SubtractCallOverhead) return RunOnce(config, options.Name, name, counters, null, op);
            using (BenchResult overhead = RunOnce(config, OverheadName, Utf8.ToNative(OverheadName), counters, null, empty))
                return RunOnce(config, options.Name, name, counters, overhead, op);
        }

        /// <summary>A call of the library with a config.</summary>
        delegate Status ConfigCall(ref BenchConfig config);

        /// <summary>Call <paramref name="call"/> with <paramref name="config"/>'s baseline set to
        /// <paramref name="baseline"/> (none when null), kept alive for the call.</summary>
        static Status WithBaseline(BenchConfig config, BenchResult baseline, ConfigCall call)
        {
            bool added = false;
            try
            {
                if (baseline != null)
                {
                    baseline.Handle.DangerousAddRef(ref added);
                    config.Baseline = baseline.Handle.DangerousGetHandle();
                }
                return call(ref config);
            }
            finally
            {
                if (added) baseline.Handle.DangerousRelease();
            }
        }

        /// <summary>One picollo_bench_run of <paramref name="work"/>; rethrows what it threw.</summary>
        static unsafe BenchResult RunOnce(BenchConfig config, string runName, byte[] name, byte[] counters,
                                          BenchResult baseline, Trampoline work)
        {
            BenchResultHandle made = null;
            Status st = WithBaseline(config, baseline, (ref BenchConfig c) =>
            {
                fixed (byte* n = name)
                fixed (byte* list = counters)
                fixed (byte* u = work.Unoptimized)
                {
                    c.Name = (IntPtr)n;
                    c.Counters = (IntPtr)list;
                    c.Unoptimized = (IntPtr)u;
                    return BenchNative.picollo_bench_run(ref c, work.Pointer, IntPtr.Zero, out made);
                }
            });
            GC.KeepAlive(work);
            if (work.Error != null)
            {
                if (made != null) made.Dispose();
                work.Error.Throw();
            }
            return new BenchResult(Handles.Adopt(st, made), runName);
        }

        /// <summary>One picollo_bench_compare_run of the two trampolines; rethrows what either threw.</summary>
        static unsafe BenchComparison CompareOnce(BenchConfig config, byte[] counters, BenchResult baseline,
                                                  Trampoline[] pair, string[] names)
        {
            BenchResultHandle ha = null, hb = null;
            Status st = WithBaseline(config, baseline, (ref BenchConfig c) =>
            {
                fixed (byte* list = counters)
                fixed (byte* u = pair[0].Unoptimized ?? pair[1].Unoptimized)
                {
                    c.Counters = (IntPtr)list;
                    c.Unoptimized = (IntPtr)u;
                    return BenchNative.picollo_bench_compare_run(ref c, Utf8.ToNative(names[0]), pair[0].Pointer, IntPtr.Zero,
                                                                 Utf8.ToNative(names[1]), pair[1].Pointer, IntPtr.Zero, out ha, out hb);
                }
            });
            GC.KeepAlive(pair);
            ExceptionDispatchInfo error = pair[0].Error ?? pair[1].Error;
            if (error != null)
            {
                if (ha != null) ha.Dispose();
                if (hb != null) hb.Dispose();
                error.Throw();
            }
            var ra = new BenchResult(Handles.Adopt(st, ha), names[0]);
            var comparison = Compare(ra, new BenchResult(Handles.Adopt(st, hb), names[1]));
            comparison.OwnsResults = true;
            return comparison;
        }

        /// <summary><paramref name="assembly"/> built with the JIT optimizer off (a Debug
        /// build: its DebuggableAttribute disables optimizations), said in a sentence; null
        /// otherwise.</summary>
        internal static string UnoptimizedReason(Assembly assembly)
        {
            var debuggable = (DebuggableAttribute)Attribute.GetCustomAttribute(assembly, typeof(DebuggableAttribute));
            if (debuggable == null || !debuggable.IsJITOptimizerDisabled) return null;
            return "the assembly " + assembly.GetName().Name + " was built with the JIT optimizer off, a Debug build";
        }

        /// <summary>The native callback: calls the delegate, keeps its first exception and
        /// does nothing more once there is one.</summary>
        sealed class Trampoline
        {
            readonly Action<ulong> _operations;
            readonly BenchNative.Work _callback;

            public Trampoline(Action op) : this(n => { for (ulong i = 0; i < n; i++) op(); }, op) { }

            public Trampoline(Action<ulong> operations) : this(operations, operations) { }

            Trampoline(Action<ulong> operations, Delegate caller)
            {
                _operations = operations;
                _callback = Call;
                Pointer = Marshal.GetFunctionPointerForDelegate(_callback);
                Unoptimized = Utf8.ToNative(UnoptimizedReason(caller));
            }

            /// <summary>Why the caller's code is unoptimized, as the config's <c>unoptimized</c>
            /// takes it (NUL-terminated UTF-8), or null.</summary>
            public byte[] Unoptimized { get; private set; }

            /// <summary>Why the caller's assembly is unoptimized, or null.</summary>
            static string UnoptimizedReason(Delegate caller)
            {
                return Bench.UnoptimizedReason(caller.Method.Module.Assembly);
            }

            /// <summary>The function pointer; valid while this object is alive.</summary>
            public IntPtr Pointer { get; private set; }

            public ExceptionDispatchInfo Error { get; private set; }

            void Call(IntPtr ctx, ulong iterations)
            {
                if (Error != null) return;
                try { _operations(iterations); }
                catch (Exception e) { Error = ExceptionDispatchInfo.Capture(e); }
            }
        }
    }
}
