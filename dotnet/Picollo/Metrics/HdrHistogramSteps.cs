// HdrHistogram's linear and logarithmic iterations (HdrHistogram.NET's LinearBucketValues and
// LogarithmicBucketValues): steps of values, empty ones included, up to the step holding the
// midpoint of the highest non-empty bucket, each bucket counted in the step holding its
// midpoint. Like the bucket enumerables, an enumeration first copies the counts once and walks
// the copy, so its steps agree with each other while writers record. The library costs
// O(storage length + steps so far) per batch: the batches grow as the walk goes on.

using System;
using System.Collections.Generic;

namespace Picollo.Metrics
{
    public sealed partial class HdrHistogram
    {
        /// <summary>Steps of <paramref name="width"/> values: [0, width), [width, 2·width), …
        /// Lazy: a bad width (0) throws <see cref="ArgumentException"/> (InvalidArgument) when
        /// the enumeration starts. An empty histogram has no step.</summary>
        public IEnumerable<HistogramStep> LinearSteps(ulong width)
        {
            return ReadSteps((HistogramHandle h, ref ulong cursor, HistogramStep[] output, out UIntPtr written) =>
                Native.picollo_histogram_linear_steps(h, width, ref cursor, output, new UIntPtr((uint)output.Length), out written));
        }

        /// <summary>Geometric steps [0, first), [first, first·logBase), [first·logBase,
        /// first·logBase²), … (bounds rounded up to integers). Lazy: first 0 or a logBase that
        /// is not a finite number above 1 throws <see cref="ArgumentException"/> (InvalidArgument)
        /// when the enumeration starts.</summary>
        public IEnumerable<HistogramStep> LogarithmicSteps(ulong first, double logBase)
        {
            return ReadSteps((HistogramHandle h, ref ulong cursor, HistogramStep[] output, out UIntPtr written) =>
                Native.picollo_histogram_log_steps(h, first, logBase, ref cursor, output, new UIntPtr((uint)output.Length), out written));
        }

        delegate Status StepBatch(HistogramHandle h, ref ulong cursor, HistogramStep[] output, out UIntPtr written);

        const int FirstStepBatch = 256, LastStepBatch = 1 << 16;

        IEnumerable<HistogramStep> ReadSteps(StepBatch next)
        {
            using (var copy = CopyForReading())
            {
                var steps = Batches.Read((ref ulong cursor, HistogramStep[] output, out UIntPtr written) =>
                    next(copy.Handle, ref cursor, output, out written), 0UL, FirstStepBatch, LastStepBatch);
                foreach (var step in steps) yield return step;
            }
        }
    }
}
