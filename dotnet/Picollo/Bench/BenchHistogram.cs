// BenchHistogram: a read-only view of the histogram a BenchResult lends for one metric. It
// answers the queries of HdrHistogram and offers nothing that writes, because the library
// lends the histogram read-only; the values are thousandths of the metric's unit.

using System;
using System.Collections.Generic;
using Picollo.Metrics;

namespace Picollo
{
    /// <summary>One metric's histogram in a <see cref="BenchResult"/>, per operation, in
    /// thousandths of <see cref="Unit"/> (picoseconds for time). Borrowed: the result frees
    /// it, and this view keeps the result alive (<see cref="Owner"/>) and is disposed with it.</summary>
    public sealed class BenchHistogram
    {
        readonly HdrHistogram _histogram;

        internal BenchHistogram(HdrHistogram borrowed, string metric, string unit)
        {
            _histogram = borrowed;
            Metric = metric;
            Unit = unit;
        }

        /// <summary>The metric's name (<c>time</c>, <c>Software:TaskClock</c>…).</summary>
        public string Metric { get; private set; }

        /// <summary>The metric's unit per operation (<c>ns</c> or <c>events</c>).</summary>
        public string Unit { get; private set; }

        /// <summary>The <see cref="BenchResult"/> that owns the histogram.</summary>
        public BenchResult Owner { get { return (BenchResult)_histogram.Owner; } }

        /// <summary>True once the result is disposed; every query then throws ObjectDisposedException.</summary>
        public bool IsDisposed { get { return _histogram.IsDisposed; } }

        /// <summary>How many samples were recorded (one value per sample).</summary>
        public ulong TotalCount { get { return _histogram.TotalCount; } }

        /// <summary>The mean in thousandths of the unit.</summary>
        public double Mean { get { return _histogram.Mean; } }

        /// <summary>The percentile at <paramref name="rank"/> (percent), in thousandths of the unit, with its bucket.</summary>
        public Percentile GetPercentile(double rank) { return _histogram.GetPercentile(rank); }

        /// <summary>The percentile at <paramref name="rank"/> (percent) in the unit (ns for time).</summary>
        public double Percentile(double rank) { return _histogram.GetPercentileValue(rank) / 1000.0; }

        /// <summary>The standard summary, in thousandths of the unit.</summary>
        public HdrHistogramSummary GetSummary() { return _histogram.GetSummary(); }

        /// <summary>The Markdown table of the raw values (thousandths of the unit).</summary>
        public string Table(string title = null) { return _histogram.Table(title); }

        /// <summary>The buckets that hold values, in value order.</summary>
        public IEnumerable<Bucket> BucketsWithValues { get { return _histogram.BucketsWithValues; } }

        /// <summary>The number of values at or below <paramref name="value"/> (thousandths of the unit), as <see cref="HdrHistogram.RankOf"/>.</summary>
        public double RankOf(ulong value) { return _histogram.RankOf(value); }

        /// <summary>The count of every bucket that holds a value in [lo, hi], as <see cref="HdrHistogram.CountBetween"/>.</summary>
        public ulong CountBetween(ulong lo, ulong hi) { return _histogram.CountBetween(lo, hi); }

        public override string ToString() { return Metric + " (" + Unit + " × 1000)"; }

        /// <summary>The result is being freed: the borrowed handle becomes invalid (never freed here).</summary>
        internal void Close() { _histogram.Dispose(); }
    }

    /// <summary>What <see cref="Bench.Compare(BenchResult, BenchResult)"/> found: B against A,
    /// round against round (paired where the two were interleaved), or what
    /// <see cref="Bench.JudgeApart"/> found: B against runs apart (A null). Disposing it
    /// disposes the results an interleaved comparison made.</summary>
    public sealed class BenchComparison : IDisposable
    {
        internal BenchComparison(BenchComparisonInfo info, string text, BenchResult a, BenchResult b,
                                 string metric = "time", bool exactly = false)
        {
            Metric = metric;
            Exactly = exactly;
            Verdict = info.Verdict;
            Ratio = info.Ratio;
            Change = info.Change;
            ChangeLow = info.ChangeLow;
            ChangeHigh = info.ChangeHigh;
            NoiseFloor = info.NoiseFloor;
            Threshold = info.Threshold;
            RoundsA = info.RoundsA;
            RoundsB = info.RoundsB;
            Paired = info.Paired != 0;
            Text = text;
            A = a;
            B = b;
            Exact = ExactDiff.Between(a, b);
        }

        /// <summary>The metric the verdict judges: <c>time</c> unless
        /// <see cref="Bench.Compare(BenchResult, BenchResult, string)"/> named another.</summary>
        public string Metric { get; private set; }

        /// <summary>The metric, a count whose figures agree within its read jitter on both
        /// sides, was judged without statistics: <see cref="Change"/> is B − A in percent of
        /// A's median, and <see cref="ChangeLow"/> and <see cref="ChangeHigh"/> its bounds over
        /// every pair of figures.</summary>
        public bool Exactly { get; private set; }

        /// <summary>B's time per operation (or <see cref="Metric"/>) against A's at 99 %
        /// confidence.</summary>
        public BenchVerdict Verdict { get; private set; }

        /// <summary>B's time per operation over A's: 1 + Change / 100.</summary>
        public double Ratio { get; private set; }

        /// <summary>B against A in percent of A's median round: the shift of the rounds' median times.</summary>
        public double Change { get; private set; }

        /// <summary>The 99 % interval of <see cref="Change"/>: its lower end (−∞ with too few rounds).</summary>
        public double ChangeLow { get; private set; }

        /// <summary>Its upper end (+∞ with too few rounds).</summary>
        public double ChangeHigh { get; private set; }

        /// <summary>The smallest change in percent the comparison could tell from noise.</summary>
        public double NoiseFloor { get; private set; }

        /// <summary>The change in percent below which a difference is within noise (0: none).</summary>
        public double Threshold { get; private set; }

        /// <summary>The rounds of A (judged on runs apart: the count of runs apart).</summary>
        public ulong RoundsA { get; private set; }

        /// <summary>The rounds of B.</summary>
        public ulong RoundsB { get; private set; }

        /// <summary>The rounds were interleaved and judged in pairs.</summary>
        public bool Paired { get; private set; }

        /// <summary>The diff tables with a 99 % interval per percentile, the method, the
        /// warnings about the rounds, the <c>verdict:</c> line and an <c>exact:</c> line per
        /// exact metric.</summary>
        public string Text { get; private set; }

        /// <summary>Each exact metric both results have (an emulated count such as
        /// <c>Emulated:Instructions</c>, under <c>picollo emulate -- PROG</c>) and what it says
        /// without statistics; the <see cref="Text"/> ends with its <c>exact:</c> line. Empty
        /// when judged on runs apart.</summary>
        public IReadOnlyDictionary<string, ExactDiff> Exact { get; private set; }

        /// <summary>A's result (an interleaved comparison's own, else the one given; null
        /// when judged on runs apart).</summary>
        public BenchResult A { get; private set; }

        /// <summary>B's result.</summary>
        public BenchResult B { get; private set; }

        internal bool OwnsResults { get; set; }

        /// <summary>Frees the results of an interleaved comparison (not those given to Compare).</summary>
        public void Dispose()
        {
            if (!OwnsResults) return;
            A.Dispose();
            B.Dispose();
        }

        /// <summary>This comparison as one self-contained HTML page (inline SVG and CSS, nothing
        /// fetched): the verdict and a table of every metric's change with its 99 % interval, the
        /// warnings, per metric the shift of each percentile with its interval, both percentile
        /// spectra and both sides' rounds in run order, the method, each side's tail attribution
        /// and conditions. A comparison judged on runs apart holds no result A to draw:
        /// <see cref="InvalidOperationException"/>.</summary>
        public string Html()
        {
            if (A == null || B == null)
                throw new InvalidOperationException(
                    "this comparison holds no result A (judged on runs apart): write B.Html()");
            return Picollo.Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                BenchNative.picollo_bench_compare_html(A.Handle, B.Handle, buf, len, out needed));
        }

        /// <summary>Writes <see cref="Html"/> to <paramref name="path"/> (UTF-8).</summary>
        public void WriteHtml(string path) { System.IO.File.WriteAllText(path, Html()); }

        public override string ToString() { return Text; }
    }
}
