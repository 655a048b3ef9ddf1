// Tests of HdrHistogramCumulative (picollo_cumulative): every answer equals the live
// histogram's own (percentiles whole at 10,000 random ranks, ranks, quantiles and counts
// between random values, the total) over 50 seeded random histograms of every counter width,
// mode, value selection and range; the copy keeps its moment; bad input throws as the live
// histogram's does. Part of the Tests program (Tests.cs holds Main and the check helpers).

using System;
using System.Linq;
using Picollo;
using Picollo.Metrics;

static partial class Tests
{
    /// <summary>A histogram of a random configuration holding random values of every
    /// magnitude, some outside its range.</summary>
    static HdrHistogram RandomCumulativeSource(Random r)
    {
        double[] errors = { 0.05, 0.01, 0.001, 0.0005 };
        ulong low = (ulong)r.Next(0, 1000);
        ulong high = low + 1 + (RandomWord(r) >> r.Next(1, 41));
        var h = new HdrHistogramBuilder().WithRelativeError(errors[r.Next(4)]).WithRange(low, high)
            .WithCounterBits(r.Next(2) == 0 ? 32 : 64).WithMode((ConcurrencyMode)r.Next(4))
            .WithValueSelection((ValueSelection)r.Next(4)).Create();
        ulong past = high > ulong.MaxValue / 2 ? ulong.MaxValue : 2 * high;
        int n = r.Next(1, 5000);
        for (int i = 0; i < n; i++)
            h.Record(RandomMagnitude(r) % past, (ulong)r.Next(1, 100));
        return h;
    }

    static void CumulativeAgreesWithLive()
    {
        var r = new Random(64);
        var wrong = new Mismatches();
        int compared = 0;
        for (int k = 0; k < 50; k++)
        {
            using (var h = RandomCumulativeSource(r))
            using (var c = h.GetCumulative())
            {
                double[] ranks = Enumerable.Range(0, 10000).Select(i => (i + r.NextDouble()) / 100.0)
                    .Concat(new[] { 0.0, 99.9, 100.0 }).Distinct().OrderBy(x => x).ToArray();
                Percentile[] live = h.GetPercentiles(ranks), copy = c.GetPercentiles(ranks);
                compared += ranks.Length;
                int kk = k;
                for (int i = 0; i < ranks.Length; i++)
                    wrong.Note(!live[i].Equals(copy[i]), () => string.Format("histogram {0}: rank {1}", kk, ranks[i]));
                wrong.Note(!h.GetPercentile(99.9).Equals(c.GetPercentile(99.9)), () => "P99.9 of histogram " + kk);
                wrong.Note(h.TotalCount != c.TotalCount, () => "total of histogram " + kk);
                for (int i = 0; i < 200; i++)
                {
                    ulong a = RandomMagnitude(r), b = RandomMagnitude(r);
                    ulong lo = Math.Min(a, b), hi = Math.Max(a, b);
                    wrong.Note(h.RankOf(a) != c.RankOf(a) || h.QuantileOf(a) != c.QuantileOf(a)
                               || h.CountBetween(lo, hi) != c.CountBetween(lo, hi),
                               () => string.Format("histogram {0}: value {1}, [{2}, {3}]", kk, a, lo, hi));
                }
            }
        }
        Console.WriteLine("cumulative: 50 histograms, {0:N0} percentiles and 10,000 value queries against the live answers: {1} differences",
                          compared, wrong.Count);
        Check(wrong.Count == 0, string.Format("cumulative vs live: {0} differences, first {1}", wrong.Count, wrong.First));
    }

    static void CumulativeKeepsItsMoment()
    {
        using (var h = new HdrHistogramBuilder().WithRange(1, 1000000).Create())
        {
            for (ulong v = 1; v <= 1000; v++) h.Record(v);
            Percentile before = h.GetPercentile(99.9);
            using (var c = h.GetCumulative())
            {
                h.Record(900000, 5000);
                Equal(before, c.GetPercentile(99.9), "P99.9 of the copy after more records");
                Equal(1000UL, c.TotalCount, "the copy's total after more records");
                Equal(6000UL, h.TotalCount, "the histogram's total");
            }
        }
    }

    static void CumulativeBadInput()
    {
        using (var h = new HdrHistogramBuilder().WithRange(1, 1000).Create())
        {
            using (var empty = h.GetCumulative())
            {
                Throws(Status.Empty, () => empty.GetPercentile(50.0), "P50 of an empty copy");
                Throws(Status.Empty, () => empty.QuantileOf(5), "quantile of an empty copy");
            }
            h.Record(5);
            using (var c = h.GetCumulative())
            {
                Throws(Status.InvalidArgument, () => c.GetPercentile(double.NaN), "rank NaN");
                Throws(Status.InvalidArgument, () => c.GetPercentile(100.5), "rank 100.5");
                Throws(Status.InvalidArgument, () => c.GetPercentiles(50.0, 40.0), "decreasing ranks");
                Throws(Status.InvalidArgument, () => c.CountBetween(10, 9), "lo > hi");
                c.Dispose();
                Throws<ObjectDisposedException>(() => c.GetPercentile(50.0), "a disposed copy");
            }
        }
    }

    static void CumulativeGroups()
    {
        Group("cumulative: agrees with the live histogram", CumulativeAgreesWithLive);
        Group("cumulative: keeps its moment", CumulativeKeepsItsMoment);
        Group("cumulative: bad input", CumulativeBadInput);
    }
}
