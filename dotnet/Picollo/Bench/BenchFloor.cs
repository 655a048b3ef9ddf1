// BenchFloor: how near 0 a metric's figures came in a BenchResult: the samples the subtraction
// of the read pair's and the empty delegate's medians floored at 0, the resolution, and the
// flag the report, the JSON and the comparisons show.

namespace Picollo
{
    /// <summary>How near 0 a metric's figures came (<see cref="BenchResult.Floor"/>). Where what
    /// was subtracted from a sample (the read pair's median, the empty delegate's) exceeded what
    /// its batch measured, the figure is recorded as 0 and counted in <see cref="Floored"/>; a
    /// median no larger than <see cref="Resolution"/> cannot be told from nothing. Either
    /// makes the metric <see cref="Flagged"/>: its figures near 0 are not the operation's, and
    /// the report marks its row. Immutable.</summary>
    public sealed class BenchFloor
    {
        internal BenchFloor(BenchFloorInfo info)
        {
            Floored = info.Floored;
            Samples = info.Samples;
            Resolution = info.Resolution;
            BelowResolution = info.BelowResolution != 0;
            Flagged = info.Flagged != 0;
        }

        /// <summary>The samples whose figure was floored at 0.</summary>
        public ulong Floored { get; private set; }

        /// <summary>The samples recorded.</summary>
        public ulong Samples { get; private set; }

        /// <summary><see cref="Floored"/> of <see cref="Samples"/>, 0 to 1 (0 without samples).</summary>
        public double Share { get { return Samples == 0 ? 0.0 : (double)Floored / Samples; } }

        /// <summary>The smallest figure per operation the measurement tells from nothing, in the
        /// metric's unit: the quartile deviation of what an empty measurement gives per
        /// operation (at least 0.001 ns for time; 0 where what was subtracted had no spread, or
        /// for an exact metric).</summary>
        public double Resolution { get; private set; }

        /// <summary>The median is no larger than <see cref="Resolution"/> (which is above 0).</summary>
        public bool BelowResolution { get; private set; }

        /// <summary>Some sample was floored, or the median is below the resolution.</summary>
        public bool Flagged { get; private set; }

        public override string ToString()
        {
            return string.Format("floored {0} of {1}, resolution {2}, below resolution {3}, flagged {4}",
                                 Floored, Samples, Resolution, BelowResolution, Flagged);
        }
    }
}
