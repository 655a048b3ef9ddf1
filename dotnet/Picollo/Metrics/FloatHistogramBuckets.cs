// FloatHistogram: its buckets, merges, summary and texts. BucketsWithValues copies the counts
// once (picollo_float_histogram_add into a private histogram of the same layout, which reads
// the source as one consistent copy) and walks the copy, as HdrHistogram's enumerables do, so
// what it yields agrees with itself while writers record.

using System;
using System.Collections.Generic;

namespace Picollo.Metrics
{
    public sealed partial class FloatHistogram
    {
        /// <summary>The non-empty buckets, lowest value first (negative buckets, the zero
        /// bucket, positive buckets), read from one copy of the counts.</summary>
        public IEnumerable<FloatBucket> BucketsWithValues { get { return ReadBuckets(); } }

        /// <summary>The non-empty buckets straight from the live histogram, <paramref name="batch"/>
        /// per native call, without the private copy: each batch is consistent in itself, but
        /// with writers running, different batches may come from different moments.</summary>
        public IEnumerable<FloatBucket> BucketsWithValuesInBatches(int batch)
        {
            if (batch < 1) throw new ArgumentOutOfRangeException("batch");
            return BatchIterator(batch);
        }

        IEnumerable<FloatBucket> BatchIterator(int batch)
        {
            return Batches.Read((ref ulong cursor, FloatBucket[] output, out UIntPtr written) =>
                Native.picollo_float_histogram_next_buckets(_handle, ref cursor, output, new UIntPtr((uint)output.Length), out written),
                0UL, batch, batch);
        }

        IEnumerable<FloatBucket> ReadBuckets()
        {
            using (var copy = CopyForReading())
                foreach (var b in copy.BatchIterator(1024)) yield return b;
        }

        /// <summary>A single-writer, sparse, 64-bit histogram of this one's layout, range and
        /// value selection, holding this one's counts, read as one consistent copy.</summary>
        FloatHistogram CopyForReading()
        {
            FloatHistogramInfo info = Info;
            var config = FloatHistogramConfig.Default;
            config.RelativeError = info.RelativeError;   // 0.5 / buckets per octave: the same layout
            config.MinMagnitude = info.MinMagnitude;
            config.MaxMagnitude = info.MaxMagnitude;
            config.ValueSelection = info.ValueSelection;
            return Copies.Filled(new FloatHistogram(config), copy => copy.Add(this));
        }

        /// <summary>Add every count of other (same relative error; any range, storage, mode and
        /// counter width), with its NaN, infinity and outside counts, sum and extremes; its
        /// buckets outside this range count as underflow/overflow.</summary>
        /// <exception cref="ArgumentException">another relative error (LayoutMismatch); this
        /// histogram itself (InvalidArgument).</exception>
        public void Add(FloatHistogram other)
        {
            PicolloException.Check(Handles.Call2(_handle, Operands.Other(other).Handle, Native.picollo_float_histogram_add));
        }

        /// <summary>Add every count of other whatever its relative error, re-binned into this
        /// layout: exact into a coarser (or the same) one, each source bucket shared among the
        /// buckets it covers into a finer one (the result keeps other's error).</summary>
        public void AddRebinned(FloatHistogram other)
        {
            PicolloException.Check(Handles.Call2(_handle, Operands.Other(other).Handle, Native.picollo_float_histogram_add_rebinned));
        }

        /// <summary>A new histogram at the coarser <paramref name="relativeError"/>: exactly the
        /// one the recorded values would have made at that precision, with this range, storage,
        /// value selection, zero, NaN, infinity and outside counts, sum and extremes, 64-bit
        /// counters and one writer (values counted as underflow or overflow stay so). The caller
        /// disposes it.</summary>
        /// <exception cref="ArgumentException">NaN or a relative error that is not positive
        /// (InvalidArgument); one finer than this histogram's (LayoutMismatch) (use AddRebinned
        /// into a finer histogram to spread counts knowingly).</exception>
        public FloatHistogram Downsample(double relativeError)
        {
            return new FloatHistogram(Handles.Made((out FloatHistogramHandle h) => Native.picollo_float_histogram_downsample(_handle, relativeError, out h)));
        }

        /// <summary>The standard summary (16 percentiles, the counts beside the buckets, exact
        /// sum and extremes, mean and stdev), into <paramref name="reuseInstance"/> when given.</summary>
        public FloatHistogramSummary GetSummary(FloatHistogramSummary reuseInstance = null)
        {
            return Summaries.Of<FloatHistogramHandle, FloatSummaryData, FloatHistogramSummary>(_handle, reuseInstance, Native.picollo_float_histogram_summary);
        }

        /// <summary>A copy of the counts that <see cref="FloatHistogramSnapshot.Update"/> refreshes in place.</summary>
        public FloatHistogramSnapshot GetSnapshot() { return new FloatHistogramSnapshot(this); }

        /// <summary>The Markdown table of the summary (with a <c>##### title</c> heading unless
        /// title is null or empty).</summary>
        public string Table(string title = null) { return Render(0, title); }

        /// <summary>One line: <c>name: Total=…, Mean=…, Min=…, P50=…, P90=…, P99=…, P99.9=…, Max=…</c>,
        /// then the counts beside the buckets that are not zero.</summary>
        public string Line(string name = null) { return Render(1, name); }

        /// <summary>picollo_float_histogram_text: a TextFormat (0 the table, 1 the line, 2 JSON).</summary>
        string Render(uint format, string title)
        {
            byte[] t = Utf8.ToNative(title);
            return Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                Native.picollo_float_histogram_text(_handle, format, t, buf, len, out needed));
        }

        public override string ToString() { return _handle.IsClosed ? "FloatHistogram (disposed)" : Table(); }
    }
}
