// FloatHistogram: a histogram of doubles over a picollo_float_histogram handle, the float
// counterpart of HdrHistogram (not one of its modes: its own type, values and layout).
// Signed values, ±0 in a bucket of its own, NaN and ±∞ counted apart, magnitudes outside the
// range as underflow/overflow; the exact minimum, maximum and sum of what is in buckets.
// Recording, counts, percentiles and value queries are here; the buckets, copies and texts in
// FloatHistogramBuckets.cs, the summary and snapshot in FloatHistogramSummary.cs and
// FloatHistogramSnapshot.cs, the fluent configuration in FloatHistogramBuilder.cs.

using System;

namespace Picollo.Metrics
{
    /// <summary>A histogram of doubles: a reported quantile Y' of a true quantile Y satisfies
    /// |Y' − Y| ≤ E·|Y|, E the layout's <see cref="RelativeError"/>, for every finite
    /// magnitude in the range (subnormals included). Dispose (or <c>using</c>) frees the
    /// native memory; it must not race other calls.
    /// <para>Threads: <see cref="FloatConcurrencyMode.SingleWriter"/> (the default) takes
    /// records from one thread at a time, and Reset from that thread;
    /// <see cref="FloatConcurrencyMode.Interlocked"/> takes them from any number of threads,
    /// and Reset from any. In both, queries, snapshots and Add with this histogram as the
    /// source may run on other threads while writers record, each on one consistent copy.</para></summary>
    public sealed partial class FloatHistogram : IDisposable
    {
        readonly FloatHistogramHandle _handle;

        /// <summary>The entry point: <c>FloatHistogram.Factory.WithRelativeError(0.01)…Create()</c>.</summary>
        public static FloatHistogramBuilder Factory { get { return new FloatHistogramBuilder(); } }

        /// <summary>A histogram of this configuration (start from <see cref="FloatHistogramConfig.Default"/>).</summary>
        /// <exception cref="ArgumentException">InvalidArgument for a bad field (the message
        /// names it), StructSize for a struct_size that is not the library's.</exception>
        public FloatHistogram(FloatHistogramConfig config)
        {
            _handle = Handles.Made((out FloatHistogramHandle h) => Native.picollo_float_histogram_new(ref config, out h));
        }

        FloatHistogram(FloatHistogramHandle adopted)
        {
            _handle = adopted;
        }

        /// <summary>A histogram keeping magnitudes in [<paramref name="minMagnitude"/>,
        /// <paramref name="maxMagnitude"/>] (by default every finite one, the smallest
        /// subnormal to double.MaxValue) at <paramref name="relativeError"/>.</summary>
        public FloatHistogram(double relativeError = 0.001, double minMagnitude = double.Epsilon,
                              double maxMagnitude = double.MaxValue, int counterBits = 64,
                              FloatStorage storage = FloatStorage.Sparse,
                              FloatConcurrencyMode mode = FloatConcurrencyMode.SingleWriter,
                              ValueSelection valueSelection = ValueSelection.Midpoint)
            : this(Factory.WithRelativeError(relativeError).WithMagnitudes(minMagnitude, maxMagnitude).WithCounterBits(counterBits)
                          .WithStorage(storage).WithMode(mode).WithValueSelection(valueSelection).Config) { }

        /// <summary>The handle the binding passes to <see cref="Native"/>.</summary>
        internal FloatHistogramHandle Handle { get { return _handle; } }

        public void Dispose() { _handle.Dispose(); }

        public bool IsDisposed { get { return _handle.IsClosed; } }

        // Recording never fails: NaN and ±∞ are counted apart, magnitudes outside the range as
        // underflow/overflow, a full bucket as saturated.

        public void Record(double value) { Native.picollo_float_histogram_record(_handle, value); }

        /// <summary>Record <paramref name="count"/> occurrences of value (0 does nothing).</summary>
        public void Record(double value, ulong count) { Native.picollo_float_histogram_record_n(_handle, value, count); }

        /// <summary>Record a float (widened exactly, as <c>Record((double)value)</c>). Not an
        /// overload of Record: an int argument would pick it and lose digits above 2^24.</summary>
        public void RecordSingle(float value) { Native.picollo_float_histogram_record_f32(_handle, value); }

        /// <summary>Record every value in one native call (a double[] converts implicitly).</summary>
        public unsafe void RecordMany(ReadOnlySpan<double> values)
        {
            Ranks.Each(_handle, values, (h, p, n) => Native.picollo_float_histogram_record_many(h, (double*)p, n));
        }

        /// <summary>Record every float in one native call, each widened exactly.</summary>
        public unsafe void RecordMany(ReadOnlySpan<float> values)
        {
            Ranks.Each(_handle, values, (h, p, n) => Native.picollo_float_histogram_record_many_f32(h, (float*)p, n));
        }

        public void RecordMany(double[] values, int offset, int count)
        {
            RecordMany(Ranks.Slice(values, offset, count));
        }

        /// <summary>Clear every count, the sum and the extremes (see the class summary for
        /// which thread may call it).</summary>
        public void Reset() { PicolloException.Check(Native.picollo_float_histogram_reset(_handle)); }

        /// <summary>The facts of one consistent copy: counts, sum, extremes, range, layout.</summary>
        public FloatHistogramInfo Info { get { return Getters.Get<FloatHistogramHandle, FloatHistogramInfo>(_handle, Native.picollo_float_histogram_get_info); } }

        /// <summary>Values in buckets, the zero bucket included: what percentiles cover.</summary>
        public ulong TotalCount { get { return Info.Total; } }
        /// <summary>±0.0 values (in <see cref="TotalCount"/>).</summary>
        public ulong ZeroCount { get { return Info.Zero; } }
        public ulong NaNCount { get { return Info.NaN; } }
        public ulong PositiveInfinityCount { get { return Info.PositiveInfinity; } }
        public ulong NegativeInfinityCount { get { return Info.NegativeInfinity; } }
        /// <summary>Nonzero values whose magnitude is below the range.</summary>
        public ulong UnderflowCount { get { return Info.Underflow; } }
        /// <summary>Finite values whose magnitude is above the range.</summary>
        public ulong OverflowCount { get { return Info.Overflow; } }
        public ulong SaturatedCount { get { return Info.Saturated; } }

        /// <summary>Sum of the values in buckets (0 when empty).</summary>
        public double Sum { get { return Info.Sum; } }

        /// <summary>The smallest value in buckets, exactly as recorded; null when none is.</summary>
        public double? Min { get { return OrNull(Info.Min); } }

        /// <summary>The largest value in buckets, exactly as recorded; null when none is.</summary>
        public double? Max { get { return OrNull(Info.Max); } }

        /// <summary>Sum / TotalCount; NaN when empty.</summary>
        public double Mean
        {
            get
            {
                FloatHistogramInfo info = Info;
                return info.Total == 0 ? double.NaN : info.Sum / info.Total;
            }
        }

        /// <summary>Population standard deviation over bucket midpoints; NaN when empty
        /// (computed with the summary: for both moments and percentiles, call GetSummary once).</summary>
        public double StdDev { get { return GetSummary().StdDev; } }

        /// <summary>The layout's guaranteed relative error (0.5 / buckets per octave, at most
        /// the one configured).</summary>
        public double RelativeError { get { return Info.RelativeError; } }
        /// <summary>Smallest magnitude kept in buckets, to bucket resolution.</summary>
        public double MinMagnitude { get { return Info.MinMagnitude; } }
        /// <summary>Largest magnitude kept in buckets, to bucket resolution.</summary>
        public double MaxMagnitude { get { return Info.MaxMagnitude; } }
        public FloatStorage Storage { get { return (FloatStorage)Info.Storage; } }
        public FloatConcurrencyMode Mode { get { return (FloatConcurrencyMode)Info.Mode; } }
        public int CounterBits { get { return (int)Info.CounterBits; } }
        /// <summary>Bytes of counters allocated now (sparse storage: what the data touched).</summary>
        public ulong FootprintBytes { get { return Info.FootprintBytes; } }

        public ValueSelection ValueSelection
        {
            get { return (ValueSelection)Info.ValueSelection; }
            set { PicolloException.Check(Native.picollo_float_histogram_set_value_selection(_handle, (uint)value)); }
        }

        internal static double? OrNull(double x) { return double.IsNaN(x) ? (double?)null : x; }

        // Percentiles: ranks in percent (0..100); a batch needs strictly increasing ranks and
        // answers from one copy of the counts. An empty histogram throws InvalidOperationException (Empty).

        public FloatPercentile GetPercentile(double rank) { return Getters.Get<FloatHistogramHandle, double, FloatPercentile>(_handle, rank, Native.picollo_float_histogram_percentile); }

        public double GetPercentileValue(double rank) { return GetPercentile(rank).Value; }

        /// <summary>Percentiles for strictly increasing ranks, written to <paramref name="output"/>
        /// (as long as <paramref name="ranks"/>); no allocation.</summary>
        public unsafe void GetPercentiles(ReadOnlySpan<double> ranks, Span<FloatPercentile> output)
        {
            Ranks.Fill(_handle, ranks, output, (h, r, n, o) => Native.picollo_float_histogram_percentiles(h, r, n, (FloatPercentile*)o));
        }

        public FloatPercentile[] GetPercentiles(params double[] ranks) { return Ranks.ToArray<FloatPercentile>(ranks, GetPercentiles); }

        public double[] GetPercentileValues(params double[] ranks)
        {
            var all = GetPercentiles(ranks);
            var values = new double[all.Length];
            for (int i = 0; i < all.Length; i++) values[i] = all[i].Value;
            return values;
        }

        // Queries by value (HdrHistogram's getCountAtValue family, for doubles).

        /// <summary>The number of values in buckets at or below <paramref name="x"/>: buckets
        /// below count whole, x's own bucket in part, as if its values were spread evenly over
        /// the part of it between the exact Min and Max (so at or above Max every value
        /// counts). x may be ±∞.</summary>
        /// <exception cref="ArgumentException">NaN (InvalidArgument).</exception>
        public double RankOf(double x) { return Getters.Get<FloatHistogramHandle, double, double>(_handle, x, Native.picollo_float_histogram_rank_of); }

        /// <summary>The fraction (0..1) of the values in buckets at or below x: the inverse of
        /// a percentile (<see cref="RankOf"/> over the total).</summary>
        /// <exception cref="ArgumentException">NaN (InvalidArgument).</exception>
        /// <exception cref="InvalidOperationException">no value is in a bucket (Empty).</exception>
        public double QuantileOf(double x) { return Getters.Get<FloatHistogramHandle, double, double>(_handle, x, Native.picollo_float_histogram_quantile_of); }

        /// <summary>The count of every bucket that holds a value in [lo, hi] (whole buckets:
        /// exact when lo and hi are bucket bounds).</summary>
        /// <exception cref="ArgumentException">a NaN bound or lo &gt; hi (InvalidArgument).</exception>
        public ulong CountBetween(double lo, double hi) { return Getters.Get<FloatHistogramHandle, double, ulong>(_handle, lo, hi, Native.picollo_float_histogram_count_between); }

        /// <summary>The smallest and largest values of the bucket x falls in (signed; [0, 0]
        /// for zero), recorded or not.</summary>
        /// <exception cref="ArgumentException">NaN or ±∞ (InvalidArgument); an
        /// ArgumentOutOfRangeException for a nonzero magnitude outside the range (OutOfRange).</exception>
        public void GetEquivalentRange(double x, out double lowest, out double highest)
        {
            PicolloException.Check(Native.picollo_float_histogram_equivalent_range(_handle, x, out lowest, out highest));
        }

        /// <summary>The smallest value of x's bucket (see <see cref="GetEquivalentRange"/>).</summary>
        public double LowestEquivalentValue(double x) { return Getters.End<FloatHistogramHandle, double>(_handle, x, Native.picollo_float_histogram_equivalent_range, false); }

        /// <summary>The largest value of x's bucket (see <see cref="GetEquivalentRange"/>).</summary>
        public double HighestEquivalentValue(double x) { return Getters.End<FloatHistogramHandle, double>(_handle, x, Native.picollo_float_histogram_equivalent_range, true); }
    }
}
