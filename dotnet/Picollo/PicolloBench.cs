// Picollo.Bench for .NET: the C layer of the benchmark harness (Linux): the verdict and
// format enums, the blittable config, BenchNative's DllImports and the result handle. The
// API a caller uses (Bench.Run, BenchOptions, BenchResult, Bench.Compare, Bench.JudgeApart) is
// in Bench/*.cs:
//
//   using (BenchResult r = Bench.Run(() => Work(), new BenchOptions { Name = "work" }))
//       Console.WriteLine(r.Table());

using System;
using System.Runtime.InteropServices;

namespace Picollo
{
    /// <summary>picollo_bench_verdict: what <see cref="Bench.Compare"/> (or
    /// <see cref="Bench.JudgeApart"/>) concludes about B's time per operation against A's
    /// (99 % confidence).</summary>
    public enum BenchVerdict : uint
    {
        /// <summary>The 99 % interval of the change holds 0.</summary>
        NoDifference = 0,
        /// <summary>B takes less time than A, by at least the threshold.</summary>
        Faster = 1,
        /// <summary>B takes more time than A, by at least the threshold.</summary>
        Slower = 2,
        /// <summary>B differs from A by less than the threshold.</summary>
        WithinNoise = 3,
        /// <summary>Too few rounds for a 99 % verdict: 8 interleaved, 5 a side measured apart.</summary>
        NotEnoughRounds = 4,
        /// <summary>Measured apart (two separate runs, not an interleaved comparison) without
        /// at least 2 runs apart to give the spread between runs: no verdict at 99 % (ABI
        /// 1.15). <see cref="Bench.Compare(BenchResult, BenchResult)"/> of two results measured
        /// apart always gives it (unless their rounds are too few), since the rounds of one run
        /// do not hold what changes between runs; interleave the two
        /// (<see cref="Bench.Compare(Action, Action, BenchOptions, string, string)"/>) or judge
        /// a run on runs apart (<see cref="Bench.JudgeApart"/>).</summary>
        NotEnoughRunsApart = 5,
        /// <summary>Judged on runs apart that spread so far that the noise floor reaches
        /// 100 % (a machine that steps between speeds): neither a difference nor none is
        /// claimed; the change and its interval are still given (ABI 1.26).</summary>
        NotJudged = 6,
        /// <summary>A comparison that stopped at its budget before its interval settled the
        /// gate's question (slower by the threshold, or surely not): the change and its
        /// interval are given, the half-width the smallest change it could have found (ABI
        /// 1.27).</summary>
        NotSettled = 7,
    }

    /// <summary>picollo_bench_format: a text form of one result (Report to Html, which
    /// <see cref="BenchResult"/>'s methods write), or of a suite of results for a CI tool
    /// (Bencher to Document, which <see cref="Bench.Export(System.Collections.Generic.IEnumerable{BenchResult}, BenchFormat)"/>
    /// writes; ABI 1.19). Fixed values; every format, these and any added later, is also
    /// reached by its name (<see cref="Bench.Formats"/>; ABI 1.25).</summary>
    public enum BenchFormat : uint
    {
        /// <summary>The report: conditions, a row per metric, tail attribution.</summary>
        Report = 0,
        /// <summary>Every metric's full Markdown summary.</summary>
        Summaries = 1,
        /// <summary>One result's JSON (values in thousandths of each unit).</summary>
        Json = 2,
        /// <summary>An HdrHistogram interval log, one interval per metric.</summary>
        Log = 3,
        /// <summary>One line: the time's P50, P99 and mean.</summary>
        Line = 4,
        /// <summary>One self-contained HTML page.</summary>
        Html = 5,
        /// <summary>Bencher Metric Format: each metric at its median with the 99 % interval
        /// of the median as lower and upper values; time as <c>latency</c>.</summary>
        Bencher = 6,
        /// <summary>github-action-benchmark's custom JSON, smaller is better: the median
        /// time and each exact metric, <c>range</c> from the 99 % interval.</summary>
        GithubAction = 7,
        /// <summary>Google Benchmark's JSON: a repetition per round, the aggregates over them.</summary>
        GoogleBenchmark = 8,
        /// <summary>Picollo's JSON document (docs/schema/picollo-bench.schema.json).</summary>
        Document = 9,
    }

    /// <summary>picollo_bench_config (128 bytes); start from <see cref="Default"/>. The
    /// pointers (name, counters, baseline) are set only for the duration of a call.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct BenchConfig
    {
        public uint StructSize;
        public int PinnedCpu;
        public IntPtr Name;
        public IntPtr Counters;
        public ulong Samples;
        public ulong Batch;
        public double TimeBudget;
        public double Warmup;
        public double RelativeError;
        public int Nice;
        public uint SetNice;
        public IntPtr Baseline;
        public double Threshold;
        public ulong Rounds;
        public ulong Seed;
        /// <summary>0: random stack and heap offsets per turn of an interleaved comparison; 1:
        /// one placement for the whole comparison (ABI 1.15).</summary>
        public uint FixedOffsets;
        /// <summary>Why the measured code is unoptimized (UTF-8), or zero (ABI 1.16).</summary>
        public IntPtr Unoptimized;
        /// <summary>A picollo_perf_read_path to force, or 0: the cheaper (ABI 1.19).</summary>
        public uint ForceReadPath;

        public static BenchConfig Default { get { return BenchNative.picollo_bench_config_default(); } }
    }

    /// <summary>picollo_bench_comparison: the figures behind a comparison's verdict.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct BenchComparisonInfo
    {
        public uint StructSize;
        public BenchVerdict Verdict;
        public double Ratio;
        public double Change;
        public double ChangeLow;
        public double ChangeHigh;
        public double NoiseFloor;
        public double Threshold;
        public ulong RoundsA;
        public ulong RoundsB;
        public uint Paired;
        public uint Warnings;
    }

    /// <summary>picollo_bench_floor: how near 0 a metric's figures came (ABI 1.19).</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct BenchFloorInfo
    {
        public uint StructSize;
        public uint Flagged;
        public ulong Floored;
        public ulong Samples;
        public double Resolution;
        public uint BelowResolution;
    }

    internal static class BenchNative
    {
        const string Lib = "picollo";
        const CallingConvention Cdecl = CallingConvention.Cdecl;

        /// <summary>picollo_bench_work: runs `iterations` operations; it must not throw.</summary>
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        public delegate void Work(IntPtr ctx, ulong iterations);

        [DllImport(Lib, CallingConvention = Cdecl)] public static extern BenchConfig picollo_bench_config_default();
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_bench_run(ref BenchConfig config, IntPtr work, IntPtr ctx, out BenchResultHandle result);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern void picollo_bench_result_free(IntPtr r);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_bench_result_metric_count(BenchResultHandle r, out UIntPtr count);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_bench_result_metric_name(BenchResultHandle r, UIntPtr index, byte[] buf, UIntPtr len, out UIntPtr needed);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_bench_result_metric_unit(BenchResultHandle r, UIntPtr index, byte[] buf, UIntPtr len, out UIntPtr needed);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_bench_result_histogram(BenchResultHandle r, UIntPtr index, out IntPtr histogram);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_bench_result_metric_exact(BenchResultHandle r, UIntPtr index, out uint exact);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_bench_result_percentile(BenchResultHandle r, UIntPtr index, double rank, out double value);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_bench_result_constant(BenchResultHandle r, UIntPtr index, out double value);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_bench_result_metric_floor(BenchResultHandle r, UIntPtr index, ref BenchFloorInfo floor);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_bench_result_text(BenchResultHandle r, uint format, byte[] buf, UIntPtr len, out UIntPtr needed);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_bench_compare(BenchResultHandle a, BenchResultHandle b, byte[] buf, UIntPtr len, out UIntPtr needed, out BenchVerdict verdict, out double ratio);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_bench_compare_run(ref BenchConfig config, byte[] nameA, IntPtr workA, IntPtr ctxA, byte[] nameB, IntPtr workB, IntPtr ctxB, out BenchResultHandle a, out BenchResultHandle b);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_bench_compare_html(BenchResultHandle a, BenchResultHandle b, byte[] buf, UIntPtr len, out UIntPtr needed);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_bench_compare_info(BenchResultHandle a, BenchResultHandle b, ref BenchComparisonInfo info);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_bench_compare_metric(BenchResultHandle a, BenchResultHandle b, byte[] metric, byte[] buf, UIntPtr len, out UIntPtr needed, ref BenchComparisonInfo info, out UIntPtr metricIndex, out uint exact);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_bench_results_text(IntPtr[] results, UIntPtr n, uint format, byte[] buf, UIntPtr len, out UIntPtr needed);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_bench_result_format(BenchResultHandle r, byte[] name, byte[] buf, UIntPtr len, out UIntPtr needed);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_bench_results_format(IntPtr[] results, UIntPtr n, byte[] name, byte[] buf, UIntPtr len, out UIntPtr needed);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_bench_format_names(byte[] buf, UIntPtr len, out UIntPtr needed);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_bench_summary(IntPtr[] a, IntPtr[] b, UIntPtr n, byte[] buf, UIntPtr len, out UIntPtr needed);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_bench_result_median_round(BenchResultHandle r, out double median);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_bench_judge_apart(BenchResultHandle b, double[] runsApart, UIntPtr k, byte[] buf, UIntPtr len, out UIntPtr needed, ref BenchComparisonInfo info);

        // Suites (Picollo.Suites): the library's runner over named callbacks (ABI 1.20, 1.21).
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_suite_new(byte[] name, out SuiteHandle suite);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern void picollo_suite_free(IntPtr suite);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_suite_set_config(SuiteHandle suite, ref BenchConfig config);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_suite_set_worker(SuiteHandle suite, IntPtr[] argv, UIntPtr argc);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_suite_add(SuiteHandle suite, byte[] name, IntPtr work, IntPtr ctx);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_suite_add_param(SuiteHandle suite, byte[] name, byte[] param, IntPtr work, IntPtr ctx);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_suite_set_throughput(SuiteHandle suite, byte[] name, byte[] param, byte[] unit, ulong perOperation);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_suite_fail(byte[] message);
        // A benchmark's own batch, and its own time (ABI 1.29).
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_suite_set_batch(SuiteHandle suite, byte[] name, byte[] param, ulong batch);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_suite_set_manual_time(SuiteHandle suite, byte[] name, byte[] param);
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern Status picollo_suite_set_iteration_time(double seconds);
        // Untimed stretches of the batch running on this thread (ABI 1.28).
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern void picollo_suite_pause();
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern void picollo_suite_resume();
        [DllImport(Lib, CallingConvention = Cdecl)] public static extern int picollo_suite_main(SuiteHandle suite, int argc, IntPtr[] argv);
    }

    /// <summary>Owns a picollo_bench_result* and, through it, the histograms it lends.</summary>
    internal sealed class BenchResultHandle : SafeHandleZeroIsInvalid
    {
        protected override void Free(IntPtr pointer) { BenchNative.picollo_bench_result_free(pointer); }
    }

    /// <summary>Owns a picollo_suite*.</summary>
    internal sealed class SuiteHandle : SafeHandleZeroIsInvalid
    {
        protected override void Free(IntPtr pointer) { BenchNative.picollo_suite_free(pointer); }
    }
}
