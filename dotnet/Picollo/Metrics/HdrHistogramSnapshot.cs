// HdrHistogramSnapshot: a copy of a histogram's counts (picollo_snapshot), refreshed in place
// by Update, optionally as the deltas since the previous update, so a monitoring thread can
// summarise a live histogram every interval without allocating.

using System;

namespace Picollo.Metrics
{
    /// <summary>A copy of a histogram, refreshed in place (no allocation), optionally as the
    /// deltas since the previous refresh. Made by <see cref="HdrHistogram.GetSnapshot"/>;
    /// Dispose frees it. One thread at a time.</summary>
    public sealed class HdrHistogramSnapshot : IDisposable
    {
        readonly SnapshotHandle _handle;
        readonly HdrHistogram _source;

        internal HdrHistogramSnapshot(HdrHistogram source)
        {
            _handle = Handles.Made((out SnapshotHandle s) => Native.picollo_snapshot_new(source.Handle, out s));
            _source = source;
        }

        internal SnapshotHandle Handle { get { return _handle; } }

        /// <summary>The histogram this snapshot copies.</summary>
        public HdrHistogram Source { get { return _source; } }

        /// <summary>Refresh from the source histogram: the full counts, or (deltas) what was
        /// recorded since the previous update.</summary>
        public void Update(bool deltas = false)
        {
            Snapshots.Update(_handle, _source.Handle, deltas, Native.picollo_snapshot_update);
        }

        /// <summary>The standard summary of the copy, into <paramref name="reuseInstance"/>
        /// when given (no allocation), else into a new one.</summary>
        public HdrHistogramSummary GetSummary(HdrHistogramSummary reuseInstance = null)
        {
            return Summaries.Of<SnapshotHandle, SummaryData, HdrHistogramSummary>(_handle, reuseInstance, Native.picollo_snapshot_summary);
        }

        /// <summary>Percentiles of the copy for strictly increasing ranks; no allocation.</summary>
        public unsafe void GetPercentiles(ReadOnlySpan<double> ranks, Span<Percentile> output)
        {
            Ranks.Fill(_handle, ranks, output, (s, r, n, o) => Native.picollo_snapshot_percentiles(s, r, n, (Percentile*)o));
        }

        /// <summary><see cref="GetPercentiles(ReadOnlySpan{double}, Span{Percentile})"/> into a new array.</summary>
        public Percentile[] GetPercentiles(params double[] ranks) { return Ranks.ToArray<Percentile>(ranks, GetPercentiles); }

        public void Dispose() { _handle.Dispose(); }
    }
}
