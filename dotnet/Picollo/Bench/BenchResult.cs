// BenchResult: what Bench.Run measured, over a picollo_bench_result handle: the metrics'
// names and units, the text forms, and a read-only view of each metric's histogram, which
// the result lends and frees. BenchHistogram is that view; BenchComparison is what
// Bench.Compare returns.

using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using Picollo.Metrics;

namespace Picollo
{
    /// <summary>The measurement of one <see cref="Bench.Run(Action, BenchOptions)"/>: metric 0
    /// is <c>time</c> (ns per operation), then each counter (events per operation; task-clock
    /// and cpu-clock in ns). An exact metric (an <c>Emulated:*</c> count) also keeps every
    /// sample: its <see cref="Percentile"/> is exact and <see cref="Constant"/> gives the
    /// figure all samples agree on. Never changes, so any number of threads may read it at once;
    /// Dispose (any number of times) frees it and its histograms, and must not race a read.</summary>
    public sealed class BenchResult : IDisposable
    {
        readonly BenchResultHandle _handle;
        readonly string[] _metrics;
        readonly string[] _units;
        readonly bool[] _exact;
        readonly BenchHistogram[] _histograms;

        /// <summary>Adopt a result; <paramref name="name"/> is the name it was run with (null:
        /// the library's default, which the report's heading shows).</summary>
        internal BenchResult(BenchResultHandle handle, string name)
        {
            _handle = handle;
            Name = name ?? HeadingOf(Render(BenchFormat.Report));
            UIntPtr n;
            PicolloException.Check(BenchNative.picollo_bench_result_metric_count(handle, out n));
            _metrics = new string[(int)n.ToUInt64()];
            _units = new string[_metrics.Length];
            _exact = new bool[_metrics.Length];
            _histograms = new BenchHistogram[_metrics.Length];
            for (int i = 0; i < _metrics.Length; i++)
            {
                var index = new UIntPtr((uint)i);
                _metrics[i] = Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                    BenchNative.picollo_bench_result_metric_name(handle, index, buf, len, out needed));
                _units[i] = Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                    BenchNative.picollo_bench_result_metric_unit(handle, index, buf, len, out needed));
                uint exact;
                PicolloException.Check(BenchNative.picollo_bench_result_metric_exact(handle, index, out exact));
                _exact[i] = exact != 0;
                IntPtr raw;
                PicolloException.Check(BenchNative.picollo_bench_result_histogram(handle, index, out raw));
                _histograms[i] = new BenchHistogram(new HdrHistogram(new HistogramHandle(raw), this), _metrics[i], _units[i]);
            }
        }

        internal BenchResultHandle Handle { get { return _handle; } }

        /// <summary>The name the report shows.</summary>
        public string Name { get; private set; }

        /// <summary>The figure of this result as one run apart: the median of its rounds'
        /// median time per operation, in ns (NaN without rounds). Two results measured apart
        /// cannot be judged against each other (<see cref="BenchVerdict.NotEnoughRunsApart"/>);
        /// a CI gate saves this figure of 3 to 5 runs, each its own process, and judges a new
        /// run against them with <see cref="Bench.JudgeApart"/>.</summary>
        public double MedianRound
        {
            get
            {
                double median;
                PicolloException.Check(BenchNative.picollo_bench_result_median_round(_handle, out median));
                return median;
            }
        }

        /// <summary>The metrics' names, in order: <c>time</c>, then the counters.</summary>
        public IReadOnlyList<string> Metrics { get { return _metrics; } }

        /// <summary>The unit of a metric, per operation: <c>ns</c> or <c>events</c>.</summary>
        public string Unit(string metric) { return _units[IndexOf(metric)]; }

        /// <summary>A read-only view of a metric's histogram (values in thousandths of the
        /// unit: picoseconds for time). It keeps this result alive, never frees the histogram,
        /// and is disposed with the result.</summary>
        public BenchHistogram Histogram(string metric) { return _histograms[IndexOf(metric)]; }

        /// <summary>A metric's percentile (rank in percent, 0 to 100) in its unit, e.g. ns: for an
        /// exact metric (<see cref="IsExact"/>) the figure of the sample at that rank itself,
        /// else the histogram's bucket value divided by 1000 (NaN for a metric without
        /// samples). A rank outside 0 to 100 or NaN throws <see cref="ArgumentException"/>
        /// (PicolloArgumentException).</summary>
        public double Percentile(string metric, double rank)
        {
            UIntPtr index = new UIntPtr((uint)IndexOf(metric));
            double value;
            PicolloException.Check(BenchNative.picollo_bench_result_percentile(_handle, index, rank, out value));
            return value;
        }

        /// <summary>Whether a metric counts exactly: an emulated counter (<c>Emulated:*</c>, under
        /// <c>picollo emulate -- PROG</c>), whose figure for the same work is always the same.
        /// Time and the perf counters are not.</summary>
        public bool IsExact(string metric) { return _exact[IndexOf(metric)]; }

        /// <summary>An exact metric's figure per operation when every sample gave the same, in
        /// its unit; null when they differ (the operations did not all do the same work). Two
        /// results' constants differ by exactly the work between them. A metric that is not
        /// exact (<see cref="IsExact"/>) throws <see cref="ArgumentException"/>
        /// (PicolloArgumentException): its figures vary with the machine.</summary>
        public double? Constant(string metric)
        {
            UIntPtr index = new UIntPtr((uint)IndexOf(metric));
            double value;
            PicolloException.Check(BenchNative.picollo_bench_result_constant(_handle, index, out value));
            return double.IsNaN(value) ? (double?)null : value;
        }

        /// <summary>How near 0 a metric's figures came: the samples floored at 0 by the
        /// subtraction of the read pair's and the empty delegate's medians, the resolution, and
        /// whether the figures are flagged (<see cref="BenchFloor"/>).</summary>
        public BenchFloor Floor(string metric)
        {
            UIntPtr index = new UIntPtr((uint)IndexOf(metric));
            var info = new BenchFloorInfo { StructSize = (uint)Marshal.SizeOf(typeof(BenchFloorInfo)) };
            PicolloException.Check(BenchNative.picollo_bench_result_metric_floor(_handle, index, ref info));
            return new BenchFloor(info);
        }

        /// <summary>The metrics whose figures are floored at 0 or below their resolution
        /// (<see cref="Floor"/>), in order; empty when every figure is the operation's.</summary>
        public IReadOnlyList<string> Flagged
        {
            get
            {
                var flagged = new List<string>();
                foreach (string m in _metrics) if (Floor(m).Flagged) flagged.Add(m);
                return flagged;
            }
        }

        /// <summary>This result in the result format called <paramref name="name"/>
        /// (<see cref="Bench.Formats"/> lists them: "report", "line", "bmf", "junit", ...);
        /// <see cref="ArgumentException"/> (PicolloArgumentException) for an unknown name,
        /// naming the formats.</summary>
        public string ToFormat(string name)
        {
            if (name == null) throw new ArgumentNullException("name");
            byte[] native = Utf8.ToNative(name);
            return Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                BenchNative.picollo_bench_result_format(_handle, native, buf, len, out needed));
        }

        /// <summary>The report: conditions and warnings, a Markdown row per metric, tail
        /// attribution, and the baseline subtracted, if any.</summary>
        public string Table() { return Render(BenchFormat.Report); }

        /// <summary>Every metric's full Markdown summary.</summary>
        public string Summaries() { return Render(BenchFormat.Summaries); }

        /// <summary>One line: the time's P50, P99 and mean with its 95 % interval, batch, samples.</summary>
        public string Line() { return Render(BenchFormat.Line); }

        /// <summary>A JSON object (values in thousandths of each unit, <c>"scale": 1000</c>).</summary>
        public string ToJson() { return Render(BenchFormat.Json); }

        /// <summary>An HdrHistogram interval log, one interval per metric tagged with its name,
        /// which <c>picollo report/diff/plot</c> read.</summary>
        public string ToLog() { return Render(BenchFormat.Log); }

        /// <summary>One self-contained HTML page (inline SVG and CSS, nothing fetched):
        /// conditions, a table of every metric, per metric its percentile spectrum and its rounds
        /// in run order, the tail attribution as bars.</summary>
        public string Html() { return Render(BenchFormat.Html); }

        /// <summary>Writes <see cref="Html"/> to <paramref name="path"/> (UTF-8).</summary>
        public void WriteHtml(string path) { System.IO.File.WriteAllText(path, Html()); }

        public override string ToString() { return _handle.IsClosed ? "BenchResult (disposed)" : Line(); }

        public bool IsDisposed { get { return _handle.IsClosed; } }

        /// <summary>Free the result; its histogram views become disposed. Safe to repeat.</summary>
        public void Dispose()
        {
            foreach (var h in _histograms) if (h != null) h.Close();
            _handle.Dispose();
        }

        string Render(BenchFormat format)
        {
            return Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                BenchNative.picollo_bench_result_text(_handle, (uint)format, buf, len, out needed));
        }

        /// <summary>The name in the report's first line, <c>##### name</c>.</summary>
        static string HeadingOf(string report)
        {
            int end = report.IndexOf('\n');
            string first = end < 0 ? report : report.Substring(0, end);
            return first.StartsWith("##### ", StringComparison.Ordinal) ? first.Substring(6) : first;
        }

        /// <summary>Whether this result has a metric of that name.</summary>
        internal bool Has(string metric) { return Array.IndexOf(_metrics, metric) >= 0; }

        int IndexOf(string metric)
        {
            if (metric == null) throw new ArgumentNullException("metric");
            int i = Array.IndexOf(_metrics, metric);
            if (i < 0)
                throw new ArgumentException(string.Format("no metric '{0}' in this result ({1})", metric, string.Join(", ", _metrics)), "metric");
            return i;
        }
    }
}
