// HdrHistogram: the histogram of the Picollo .NET announcement, one class for every
// concurrency mode, over a picollo_histogram handle. Recording, totals, percentiles, the
// summary and the table are here; the bucket enumerables are in HdrHistogramBuckets.cs,
// the timing scopes in NanoScope.cs.

using System;

namespace Picollo.Metrics
{
    /// <summary>An HDR histogram. Dispose (or <c>using</c>) frees the native memory; it must
    /// not race other calls.
    /// <para>Threads, by <see cref="ConcurrencyMode"/> (chosen at creation): SingleWriter (the
    /// default) takes records from one thread at a time, and Reset from that thread;
    /// Interlocked, ThreadLocal and Approximate take records from any number of threads at
    /// once, and Reset from any thread (a bucket then holds at most what was recorded since).
    /// In every mode queries and snapshots may run on other threads while writers record:
    /// each answers from one consistent copy of the counts. Subtract works in the
    /// single-writer mode only (the others throw <see cref="NotSupportedException"/>: use a
    /// snapshot with deltas).</para></summary>
    public sealed partial class HdrHistogram : IDisposable
    {
        readonly HistogramHandle _handle;
        readonly object _owner;

        /// <summary>The entry point: <c>HdrHistogram.Factory.WithRelativeError(0.01)…Create()</c>.</summary>
        public static HdrHistogramBuilder Factory { get { return new HdrHistogramBuilder(); } }

        public HdrHistogram(HistogramConfig config)
        {
            _handle = Handles.Made((out HistogramHandle h) => Native.picollo_histogram_new(ref config, out h));
        }

        public HdrHistogram(double relativeError = 0.001, ulong minTrackable = 0, ulong maxTrackable = ulong.MaxValue,
                            int counterBits = 64, ValueSelection valueSelection = ValueSelection.Midpoint,
                            ConcurrencyMode mode = ConcurrencyMode.SingleWriter, uint approxThreshold = 0,
                            HistogramStorage storage = HistogramStorage.Dense, bool exactExtremes = false,
                            ulong lowestDiscernible = 1)
            : this(MakeConfig(relativeError, minTrackable, maxTrackable, counterBits, valueSelection, mode, approxThreshold, storage, exactExtremes, lowestDiscernible)) { }

        static HistogramConfig MakeConfig(double relativeError, ulong min, ulong max, int bits, ValueSelection sel,
                                          ConcurrencyMode mode, uint approxThreshold, HistogramStorage storage, bool exactExtremes,
                                          ulong lowestDiscernible)
        {
            if (lowestDiscernible == 0)
                throw new ArgumentOutOfRangeException("lowestDiscernible", "must be at least 1 (1: exact integers)");
            return Factory.WithRelativeError(relativeError).WithRange(min, max).WithCounterBits(bits).WithValueSelection(sel)
                          .WithMode(mode, approxThreshold).WithStorage(storage).WithExactExtremes(exactExtremes)
                          .WithLowestDiscernibleValue(lowestDiscernible).Config;
        }

        /// <summary>Wrap a borrowed handle; <paramref name="owner"/> is kept alive with it.</summary>
        internal HdrHistogram(HistogramHandle borrowed, object owner)
        {
            _handle = borrowed;
            _owner = owner;
        }

        /// <summary>The object that owns the native histogram (null when this wrapper owns it).</summary>
        public object Owner { get { return _owner; } }

        /// <summary>The handle the binding passes to <see cref="Native"/>.</summary>
        internal HistogramHandle Handle { get { return _handle; } }

        public void Dispose() { _handle.Dispose(); }

        public bool IsDisposed { get { return _handle.IsClosed; } }

        // Recording never fails: out-of-range values count as underflow/overflow.
        public void Record(ulong value) { Native.picollo_histogram_record(_handle, value); }
        public void Record(ulong value, ulong count) { Native.picollo_histogram_record_n(_handle, value, count); }
        public void RecordCorrected(ulong value, ulong expectedInterval) { Native.picollo_histogram_record_corrected(_handle, value, expectedInterval); }

        /// <summary>Record a whole array in one native call.</summary>
        public void RecordMany(ulong[] values) { RecordMany(values, 0, values == null ? 0 : values.Length); }

        public void RecordMany(ulong[] values, int offset, int count) { RecordMany(Ranks.Slice(values, offset, count)); }

        /// <summary>Record every value in one native call, read in place (pinned, no copy).</summary>
        public unsafe void RecordMany(ReadOnlySpan<ulong> values)
        {
            Ranks.Each(_handle, values, (h, p, n) => Native.picollo_histogram_record_many(h, (ulong*)p, n));
        }

        /// <summary>Record every signed value in one native call, read in place (pinned, no
        /// copy). A negative value throws <see cref="PicolloException"/> (InvalidArgument) and
        /// nothing of the call is recorded: no histogram holds a value below 0.</summary>
        public unsafe void RecordMany(ReadOnlySpan<long> values)
        {
            Ranks.Each(_handle, values, (h, p, n) => Native.picollo_histogram_record_many_i64(h, (long*)p, n));
        }

        /// <summary>Clear every count (see the class summary for which thread may call it).</summary>
        public void Reset() { PicolloException.Check(Native.picollo_histogram_reset(_handle)); }

        public HistogramInfo Info { get { return Getters.Get<HistogramHandle, HistogramInfo>(_handle, Native.picollo_histogram_get_info); } }

        /// <summary>How the counters are kept: dense (made at creation) or sparse (blocks made when a value first lands in them).</summary>
        public HistogramStorage Storage { get { return (HistogramStorage)Getters.Get<HistogramHandle, uint>(_handle, Native.picollo_histogram_get_storage); } }

        /// <summary>Width of the lowest buckets, a power of two: 1, or 2^floor(log2 L) for a histogram
        /// made with lowest discernible value L or decoded from HdrHistogram data whose lowest
        /// discernible value is L.</summary>
        public ulong Unit { get { return Getters.Get<HistogramHandle, ulong>(_handle, Native.picollo_histogram_get_unit); } }

        /// <summary>Whether the histogram keeps the exact smallest and largest value recorded in
        /// its range (made with <see cref="HdrHistogramBuilder.WithExactExtremes()"/> or
        /// <c>exactExtremes: true</c>): <see cref="RecordedMin"/>, <see cref="RecordedMax"/>.</summary>
        public bool ExactExtremes
        {
            get
            {
                ulong min, max;
                Status st = Native.picollo_histogram_exact_extremes(_handle, out min, out max);
                if (st == Status.Unsupported) return false;
                if (st != Status.Empty) PicolloException.Check(st);
                return true;
            }
        }

        /// <summary>The smallest value recorded, exact: a recorded value, not the trackable
        /// range (that is <see cref="HistogramInfo.MinTrackable"/>). Only values inside the range
        /// count (underflow and overflow never do), since creation or the last Reset; Add and
        /// AddRebinned bring the other histogram's exact extremes, or the bounds of its lowest and
        /// highest non-empty buckets when it keeps none; Subtract and Collect leave them. Null when
        /// no value was recorded in the range. Throws <see cref="NotSupportedException"/>
        /// (Unsupported) unless the histogram keeps exact extremes
        /// (<see cref="ExactExtremes"/>).</summary>
        public ulong? RecordedMin { get { ulong min, max; return TryGetRecordedExtremes(out min, out max) ? min : (ulong?)null; } }

        /// <summary>The largest value recorded, exact: a recorded value, not the trackable range
        /// (that is <see cref="HistogramInfo.MaxTrackable"/>). As <see cref="RecordedMin"/>: values
        /// inside the range only, since creation or the last Reset; null when none was recorded;
        /// <see cref="NotSupportedException"/> unless the histogram keeps exact extremes.</summary>
        public ulong? RecordedMax { get { ulong min, max; return TryGetRecordedExtremes(out min, out max) ? max : (ulong?)null; } }

        /// <summary>Both recorded extremes from one call (see <see cref="RecordedMin"/>): false,
        /// and zeros, when no value was recorded in the range.</summary>
        public bool TryGetRecordedExtremes(out ulong min, out ulong max)
        {
            Status st = Native.picollo_histogram_exact_extremes(_handle, out min, out max);
            if (st == Status.Empty) { min = max = 0; return false; }
            if (st == Status.Unsupported)
                throw PicolloException.For(st, Utf8.FromNative(Native.picollo_last_error_message())
                    + " (HdrHistogram.Factory.WithExactExtremes(), or exactExtremes: true)");
            PicolloException.Check(st);
            return true;
        }

        public ulong TotalCount { get { return Info.Total; } }
        public ulong UnderflowCount { get { return Info.Underflow; } }
        public ulong OverflowCount { get { return Info.Overflow; } }
        public ulong SaturatedCount { get { return Info.Saturated; } }

        public ConcurrencyMode Mode { get { return (ConcurrencyMode)Info.Mode; } }

        /// <summary>T of the approximate mode (exact below 2^T per bucket); 0 in the others.</summary>
        public uint ApproxThreshold { get { return Info.ApproxThreshold; } }

        public ValueSelection ValueSelection
        {
            get { return (ValueSelection)Info.ValueSelection; }
            set { PicolloException.Check(Native.picollo_histogram_set_value_selection(_handle, (uint)value)); }
        }

        public double Mean { get { double m, s; PicolloException.Check(Native.picollo_histogram_mean_stdev(_handle, out m, out s)); return m; } }
        public double StdDev { get { double m, s; PicolloException.Check(Native.picollo_histogram_mean_stdev(_handle, out m, out s)); return s; } }

        // Percentiles. Ranks are percent (0..100); a batch needs strictly increasing ranks and
        // answers from one copy of the counts, so its results agree with each other. The
        // scalar forms are a batch of one. An empty histogram throws InvalidOperationException (Empty).

        /// <summary>The percentile at <paramref name="rank"/>, with its bucket.</summary>
        public Percentile GetPercentile(double rank) { return Getters.Get<HistogramHandle, double, Percentile>(_handle, rank, Native.picollo_histogram_percentile); }

        /// <summary>The value of the percentile at <paramref name="rank"/>.</summary>
        public ulong GetPercentileValue(double rank) { return GetPercentile(rank).Value; }

        /// <summary>Percentiles for strictly increasing ranks, written to <paramref name="output"/>
        /// (as long as <paramref name="ranks"/>); no allocation.</summary>
        public unsafe void GetPercentiles(ReadOnlySpan<double> ranks, Span<Percentile> output)
        {
            Ranks.Fill(_handle, ranks, output, (h, r, n, o) => Native.picollo_histogram_percentiles(h, r, n, (Percentile*)o));
        }

        /// <summary>Percentile values only, for strictly increasing ranks; no allocation.</summary>
        public unsafe void GetPercentileValues(ReadOnlySpan<double> ranks, Span<ulong> output)
        {
            Ranks.Fill(_handle, ranks, output, (h, r, n, o) => Native.picollo_histogram_percentile_values(h, r, n, (ulong*)o));
        }

        /// <summary><see cref="GetPercentiles(ReadOnlySpan{double}, Span{Percentile})"/> into a new array.</summary>
        public Percentile[] GetPercentiles(params double[] ranks) { return Ranks.ToArray<Percentile>(ranks, GetPercentiles); }

        /// <summary><see cref="GetPercentileValues(ReadOnlySpan{double}, Span{ulong})"/> into a new array.</summary>
        public ulong[] GetPercentileValues(params double[] ranks) { return Ranks.ToArray<ulong>(ranks, GetPercentileValues); }

        /// <summary>The standard summary (16 percentiles, totals, moments), filled into
        /// <paramref name="reuseInstance"/> when one is given (no allocation), else into a new one.</summary>
        public HdrHistogramSummary GetSummary(HdrHistogramSummary reuseInstance = null)
        {
            return Summaries.Of<HistogramHandle, SummaryData, HdrHistogramSummary>(_handle, reuseInstance, Native.picollo_histogram_summary);
        }

        /// <summary>The Markdown table (with a <c>##### title</c> heading unless title is null/empty).</summary>
        public string Table(string title = null)
        {
            byte[] t = Utf8.ToNative(title);
            return Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                Native.picollo_histogram_table(_handle, t, buf, len, out needed));
        }

        public override string ToString() { return _handle.IsClosed ? "HdrHistogram (disposed)" : Table(); }

        /// <summary>Add every count of other (same relative error; any range and counter width).</summary>
        public void Add(HdrHistogram other) { PicolloException.Check(Handles.Call2(_handle, Operands.Other(other).Handle, Native.picollo_histogram_add)); }

        /// <summary>Subtract every count of other; nothing changes if a count would go negative.</summary>
        public void Subtract(HdrHistogram other) { PicolloException.Check(Handles.Call2(_handle, Operands.Other(other).Handle, Native.picollo_histogram_subtract)); }

        /// <summary>A copy of the counts that <see cref="HdrHistogramSnapshot.Update"/> refreshes in place.</summary>
        public HdrHistogramSnapshot GetSnapshot() { return new HdrHistogramSnapshot(this); }

        /// <summary>The running totals of the counts now, read-only, for many queries of this
        /// moment (<see cref="HdrHistogramCumulative"/>); the caller disposes it.</summary>
        public HdrHistogramCumulative GetCumulative() { return new HdrHistogramCumulative(this); }
    }
}
