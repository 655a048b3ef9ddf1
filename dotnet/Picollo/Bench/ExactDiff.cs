// ExactDiff: an exact metric (an emulated count, Emulated:*) in both results of a
// comparison, judged without statistics: each side's constant figure per operation, their
// difference, and the word of the comparison text's `exact:` line.

using System.Collections.Generic;
using System.Collections.ObjectModel;

namespace Picollo
{
    /// <summary>What an exact metric says of B against A: the word of the comparison text's
    /// <c>exact:</c> line.</summary>
    public enum ExactVerdict
    {
        /// <summary>B counts the same as A, on every operation ("no difference").</summary>
        NoDifference = 0,
        /// <summary>B counts more than A, on every operation ("more").</summary>
        More = 1,
        /// <summary>B counts fewer than A, on every operation ("fewer").</summary>
        Fewer = 2,
        /// <summary>A side's operations counted differently, so there is no one difference
        /// ("varies"); the percentiles are compared instead.</summary>
        Varies = 3,
    }

    /// <summary>An exact metric in both results of a <see cref="BenchComparison"/> (see
    /// <see cref="BenchComparison.Exact"/>). Immutable.</summary>
    public sealed class ExactDiff
    {
        ExactDiff(double? a, double? b)
        {
            A = a;
            B = b;
            Difference = b - a;  // null unless both are figures
            Verdict = Difference == null ? ExactVerdict.Varies
                    : Difference > 0 ? ExactVerdict.More
                    : Difference < 0 ? ExactVerdict.Fewer : ExactVerdict.NoDifference;
        }

        /// <summary>A's figure per operation when all its samples agree
        /// (<see cref="BenchResult.Constant"/>), else null.</summary>
        public double? A { get; private set; }

        /// <summary>B's, likewise.</summary>
        public double? B { get; private set; }

        /// <summary>B − A per operation, exactly, when both are figures; else null.</summary>
        public double? Difference { get; private set; }

        /// <summary>More, fewer, no difference, or varies (a side is not constant).</summary>
        public ExactVerdict Verdict { get; private set; }

        /// <summary>The verdict and the figures, e.g. <c>More: 4,050 against 4,049 (+1)</c>.</summary>
        public override string ToString()
        {
            if (Difference == null) return Verdict.ToString();
            return string.Format("{0}: {1:N0} against {2:N0} ({3:+#,0.###;-#,0.###;0})", Verdict, B, A, Difference);
        }

        /// <summary>An ExactDiff per exact metric of <paramref name="a"/> that
        /// <paramref name="b"/> has too, in A's order; none when A is null (runs apart).</summary>
        internal static IReadOnlyDictionary<string, ExactDiff> Between(BenchResult a, BenchResult b)
        {
            var diffs = new Dictionary<string, ExactDiff>();
            if (a != null)
                foreach (string m in a.Metrics)
                    if (a.IsExact(m) && b.Has(m) && b.IsExact(m))
                        diffs.Add(m, new ExactDiff(a.Constant(m), b.Constant(m)));
            return new ReadOnlyDictionary<string, ExactDiff>(diffs);
        }
    }
}
