// HdrHistogram's queries by value and across precisions, named as HdrHistogram.NET names
// them where it has them: RankOf and QuantileOf (the inverse of a percentile), CountBetween
// (getCountBetweenValues), the equivalent range of a value (Lowest/HighestEquivalentValue),
// AddRebinned and Downsample (other relative errors), and ToText (the summary as a table, a
// line or JSON in one call). The step iterations are in HdrHistogramSteps.cs.

using System;

namespace Picollo.Metrics
{
    public sealed partial class HdrHistogram
    {
        /// <summary>The number of values in range at or below <paramref name="value"/>: buckets
        /// below count whole, the value's own bucket in part, as if its values were spread
        /// evenly over it (exact for width-1 buckets: values below twice the block size).
        /// Underflow and overflow are not counted, as in percentiles.</summary>
        public double RankOf(ulong value) { return Getters.Get<HistogramHandle, ulong, double>(_handle, value, Native.picollo_histogram_rank_of); }

        /// <summary>The fraction (0..1) of the values in range at or below value: the inverse
        /// of a percentile (<see cref="RankOf"/> over the count in range).</summary>
        /// <exception cref="InvalidOperationException">the range holds no value (Empty).</exception>
        public double QuantileOf(ulong value) { return Getters.Get<HistogramHandle, ulong, double>(_handle, value, Native.picollo_histogram_quantile_of); }

        /// <summary>The count of every bucket that holds a value in [lo, hi] (whole buckets, as
        /// HdrHistogram's getCountBetweenValues: exact when lo and hi are bucket bounds).</summary>
        /// <exception cref="ArgumentException">lo &gt; hi (InvalidArgument).</exception>
        public ulong CountBetween(ulong lo, ulong hi) { return Getters.Get<HistogramHandle, ulong, ulong>(_handle, lo, hi, Native.picollo_histogram_count_between); }

        /// <summary>The smallest and largest values of the bucket value falls in under this
        /// layout, recorded or not, in range or not; the next bucket starts at highest + 1.</summary>
        public void GetEquivalentRange(ulong value, out ulong lowest, out ulong highest)
        {
            PicolloException.Check(Native.picollo_histogram_equivalent_range(_handle, value, out lowest, out highest));
        }

        /// <summary>The smallest value sharing value's bucket: two values share a bucket when
        /// their lowest equivalent values are equal.</summary>
        public ulong LowestEquivalentValue(ulong value) { return Getters.End<HistogramHandle, ulong>(_handle, value, Native.picollo_histogram_equivalent_range, false); }

        /// <summary>The largest value sharing value's bucket.</summary>
        public ulong HighestEquivalentValue(ulong value) { return Getters.End<HistogramHandle, ulong>(_handle, value, Native.picollo_histogram_equivalent_range, true); }

        /// <summary>Add every count of other whatever its relative error (and range, counter
        /// width and mode), re-binned into this layout: into a coarser (or the same) one
        /// exactly what recording other's values here would have given; into a finer one each
        /// source bucket is shared among the buckets it covers (the result keeps other's
        /// error). Other may be this histogram (its counts double).</summary>
        public void AddRebinned(HdrHistogram other)
        {
            PicolloException.Check(Handles.Call2(_handle, Operands.Other(other).Handle, Native.picollo_histogram_add_rebinned));
        }

        /// <summary>A new histogram at the coarser <paramref name="relativeError"/>: exactly the
        /// one the recorded values would have made at that precision, with this range, value
        /// selection and outside counts, 64-bit counters and one writer. The caller disposes it.</summary>
        /// <exception cref="ArgumentException">NaN or a relative error that is not positive
        /// (InvalidArgument); one finer than this histogram's (LayoutMismatch) (use AddRebinned
        /// into a finer histogram to spread counts knowingly).</exception>
        public HdrHistogram Downsample(double relativeError)
        {
            return Hdr.Made((out HistogramHandle h) => Native.picollo_histogram_downsample(_handle, relativeError, out h));
        }

        /// <summary>The summary as text in one call: the Markdown table headed by
        /// <paramref name="title"/>, the one-line summary named by it, or JSON (no title).</summary>
        public string ToText(TextFormat format, string title = null)
        {
            byte[] t = Utf8.ToNative(title);
            return Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                Native.picollo_histogram_text(_handle, format, t, buf, len, out needed));
        }
    }
}
