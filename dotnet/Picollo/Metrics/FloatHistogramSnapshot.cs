// FloatHistogramSnapshot: a copy of a FloatHistogram's counts (picollo_float_snapshot),
// refreshed in place by Update, optionally as the deltas since the previous update, as
// HdrHistogramSnapshot is for HdrHistogram.

using System;

namespace Picollo.Metrics
{
    /// <summary>A copy of a float histogram, refreshed in place, optionally as the deltas since
    /// the previous refresh (whose extremes are unknown: Min and Max null in the summary).
    /// Made by <see cref="FloatHistogram.GetSnapshot"/>; Dispose frees it. One thread at a time.</summary>
    public sealed class FloatHistogramSnapshot : IDisposable
    {
        readonly FloatSnapshotHandle _handle;
        readonly FloatHistogram _source;

        internal FloatHistogramSnapshot(FloatHistogram source)
        {
            _handle = Handles.Made((out FloatSnapshotHandle s) => Native.picollo_float_snapshot_new(source.Handle, out s));
            _source = source;
        }

        internal FloatSnapshotHandle Handle { get { return _handle; } }

        /// <summary>The histogram this snapshot copies.</summary>
        public FloatHistogram Source { get { return _source; } }

        /// <summary>Refresh from the source histogram: the full counts, or (deltas) what was
        /// recorded since the previous update (since the reset, if it was reset in between).</summary>
        public void Update(bool deltas = false)
        {
            Snapshots.Update(_handle, _source.Handle, deltas, Native.picollo_float_snapshot_update);
        }

        /// <summary>The standard summary of the copy, into <paramref name="reuseInstance"/> when given.</summary>
        public FloatHistogramSummary GetSummary(FloatHistogramSummary reuseInstance = null)
        {
            return Summaries.Of<FloatSnapshotHandle, FloatSummaryData, FloatHistogramSummary>(_handle, reuseInstance, Native.picollo_float_snapshot_summary);
        }

        public void Dispose() { _handle.Dispose(); }
    }
}
