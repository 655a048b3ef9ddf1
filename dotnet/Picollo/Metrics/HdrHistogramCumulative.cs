// HdrHistogramCumulative: the running totals of a histogram at one moment (picollo_cumulative),
// for a reader that asks many questions of that moment (a scrape, a report, a dashboard): the
// library answers a percentile by binary search and a rank or a count between values by a
// subtraction, with the answers the histogram gave at that moment.

using System;

namespace Picollo.Metrics
{
    /// <summary>A read-only copy of a histogram's running totals, never refreshed (take a new
    /// one for a new moment). Made by <see cref="HdrHistogram.GetCumulative"/>; Dispose frees
    /// it. Any number of threads may query it at once.</summary>
    public sealed class HdrHistogramCumulative : IDisposable
    {
        readonly CumulativeHandle _handle;

        internal HdrHistogramCumulative(HdrHistogram source)
        {
            _handle = Handles.Made((out CumulativeHandle c) => Native.picollo_cumulative_new(source.Handle, out c));
        }

        /// <summary>The count of values in range at the copy's moment (underflow and overflow
        /// not included).</summary>
        public ulong TotalCount { get { return Getters.Get<CumulativeHandle, ulong>(_handle, Native.picollo_cumulative_total_count); } }

        /// <summary><see cref="HdrHistogram.GetPercentile"/> at the copy's moment.</summary>
        public Percentile GetPercentile(double rank) { return Getters.Get<CumulativeHandle, double, Percentile>(_handle, rank, Native.picollo_cumulative_percentile); }

        /// <summary>The value of the percentile at <paramref name="rank"/>.</summary>
        public ulong GetPercentileValue(double rank) { return GetPercentile(rank).Value; }

        /// <summary>Percentiles for strictly increasing ranks; no allocation.</summary>
        public unsafe void GetPercentiles(ReadOnlySpan<double> ranks, Span<Percentile> output)
        {
            Ranks.Fill(_handle, ranks, output, (c, r, n, o) => Native.picollo_cumulative_percentiles(c, r, n, (Percentile*)o));
        }

        /// <summary><see cref="GetPercentiles(ReadOnlySpan{double}, Span{Percentile})"/> into a new array.</summary>
        public Percentile[] GetPercentiles(params double[] ranks) { return Ranks.ToArray<Percentile>(ranks, GetPercentiles); }

        /// <summary><see cref="HdrHistogram.RankOf"/> at the copy's moment.</summary>
        public double RankOf(ulong value) { return Getters.Get<CumulativeHandle, ulong, double>(_handle, value, Native.picollo_cumulative_rank_of); }

        /// <summary><see cref="HdrHistogram.QuantileOf"/> at the copy's moment.</summary>
        /// <exception cref="InvalidOperationException">the range holds no value (Empty).</exception>
        public double QuantileOf(ulong value) { return Getters.Get<CumulativeHandle, ulong, double>(_handle, value, Native.picollo_cumulative_quantile_of); }

        /// <summary><see cref="HdrHistogram.CountBetween"/> at the copy's moment.</summary>
        /// <exception cref="ArgumentException">lo &gt; hi (InvalidArgument).</exception>
        public ulong CountBetween(ulong lo, ulong hi) { return Getters.Get<CumulativeHandle, ulong, ulong>(_handle, lo, hi, Native.picollo_cumulative_count_between); }

        public void Dispose() { _handle.Dispose(); }
    }
}
