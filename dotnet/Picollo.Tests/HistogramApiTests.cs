// Tests of the announcement's HdrHistogram API beyond the C calls it wraps: every bucket
// (empty ones from the C# layout) against picollo_histogram_bucket, bucket percentiles against
// the library's percentiles, the span forms of the percentile queries, summaries refilled in
// place with their time, PrettyPrint's text, and the timing scopes (NanoScope).

using System;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Threading;
using Picollo;
using Picollo.Metrics;
using Picollo.Perf;

static partial class Tests
{
    /// <summary>What <paramref name="body"/> writes to the console (restored afterwards).</summary>
    static string Captured(Action body)
    {
        TextWriter saved = Console.Out;
        var text = new StringWriter();
        Console.SetOut(text);
        try { body(); }
        finally { Console.SetOut(saved); }
        return text.ToString();
    }

    /// <summary>Every field but the rank (which a bucket percentile states as the middle of
    /// its counts, and a rank query as asked).</summary>
    static bool SameButRank(Percentile a, Percentile b)
    {
        a.Rank = b.Rank = 0;
        return a.Equals(b);
    }

    static void AllBuckets()
    {
        var layouts = new[] {
            Tuple.Create(0.1, 0UL, 1000UL),                  // block 8
            Tuple.Create(0.01, 10000UL, 30000UL),            // block 64, the announcement's range
            Tuple.Create(0.05, 0UL, ulong.MaxValue),         // block 16, the whole u64 range
            Tuple.Create(0.01, 1000000UL, 1UL << 40),
        };
        foreach (var l in layouts)
            using (var h = new HdrHistogram(l.Item1, l.Item2, l.Item3, 32))
            {
                string tag = string.Format("buckets of ({0}, {1}..{2})", l.Item1, l.Item2, l.Item3);
                ulong length = h.Info.StorageLength;
                var empty = h.Buckets.ToList();
                Equal((int)length, empty.Count, tag + ": one per storage index when empty");
                Check(empty.All(b => b.Count == 0) && !h.BucketsWithValues.Any(), tag + ": all empty");

                var rng = new Random(7);
                for (int i = 0; i < 3000; i++)
                    h.Record(l.Item2 + (ulong)(Math.Pow(rng.NextDouble(), 4) * Math.Min(l.Item3 - l.Item2, 1UL << 50)));
                h.Record(l.Item3);
                var all = h.Buckets.ToList();
                Equal((int)length, all.Count, tag + ": one per storage index");
                int wrong = 0;
                for (int i = 0; i < all.Count; i++)
                    if (!all[i].Equals(h.GetBucket(i)) || all[i].StorageIndex != (ulong)i) wrong++;
                Equal(0, wrong, tag + ": every bucket equals picollo_histogram_bucket");
                Check(all.Zip(all.Skip(1), (a, b) => a.Highest + 1 == b.Lower && a.LogicalIndex + 1 == b.LogicalIndex).All(x => x),
                      tag + ": buckets tile the range");
                Check(h.BucketsWithValues.SequenceEqual(all.Where(b => b.Count > 0)), tag + ": with values = the non-empty ones");
                Equal(h.TotalCount, (ulong)all.Sum(b => (decimal)b.Count), tag + ": counts sum to the total");
                if (l.Item3 == ulong.MaxValue)
                    Check(all[all.Count - 1].Highest == ulong.MaxValue, tag + ": the last bucket ends at 2^64 - 1");
            }
    }

    static void BucketPercentiles()
    {
        var selections = new[] { ValueSelection.Midpoint, ValueSelection.Lower, ValueSelection.Upper, ValueSelection.Interpolated };
        // 1000 values: a rank of target / 10 is an exact decimal, so the library's percentile
        // at it points at the same count as the bucket's own.
        using (var h = new HdrHistogram(0.01, 1, 100000000))
        {
            var rng = new Random(11);
            for (int i = 0; i < 997; i++) h.Record(1 + (ulong)(Math.Exp(rng.NextDouble() * 18)));
            h.Record(99999999, 3);
            foreach (var sel in selections)
            {
                h.ValueSelection = sel;
                var ps = h.BucketPercentilesWithValues.ToList();
                var buckets = h.BucketsWithValues.ToList();
                Equal(buckets.Count, ps.Count, sel + ": one percentile per non-empty bucket");
                ulong before = 0;
                int wrong = 0, badRank = 0;
                for (int i = 0; i < ps.Count; i++)
                {
                    var p = ps[i];
                    if (!SameButRank(p, h.GetPercentile(p.RankCount / 10.0))) wrong++;
                    if (p.Rank != (before + buckets[i].Count / 2.0) / 1000 * 100 || p.Count != buckets[i].Count) badRank++;
                    before += buckets[i].Count;
                }
                Equal(0, wrong, sel + ": each bucket percentile equals the library's at its count");
                Equal(0, badRank, sel + ": rank at the middle of the bucket's counts");
                var every = h.BucketPercentiles.ToList();
                Equal((int)h.Info.StorageLength, every.Count, sel + ": BucketPercentiles covers every bucket");
                Check(every.Where(p => p.Count > 0).SequenceEqual(ps), sel + ": the non-empty ones are BucketPercentilesWithValues");
                Check(every.Zip(every.Skip(1), (a, b) => a.Rank <= b.Rank && a.CumulativeCount <= b.CumulativeCount).All(x => x),
                      sel + ": ranks and cumulative counts never go down");
            }
        }
        // Interpolation inside buckets 2^50 and more wide, and a count above 2^63.
        using (var h = new HdrHistogram(0.01))
        {
            h.ValueSelection = ValueSelection.Interpolated;
            h.Record(1UL << 60, 3);
            h.Record(1UL << 62, 990);
            h.Record(ulong.MaxValue - 5, 7);
            var ps = h.BucketPercentilesWithValues.ToList();
            Equal(3, ps.Count, "three wide buckets");
            Check(ps.All(p => SameButRank(p, h.GetPercentile(p.RankCount / 10.0))), "interpolated in wide buckets equals the library's");
        }
        using (var h = new HdrHistogram(0.01))
        {
            h.ValueSelection = ValueSelection.Interpolated;
            h.Record(123456789, (1UL << 63) + 5);
            var p = h.BucketPercentilesWithValues.Single();
            Check(p.Rank == 50 && SameButRank(p, h.GetPercentile(50)), "a count above 2^63: " + p + " vs " + h.GetPercentile(50));
        }
        using (var h = new HdrHistogram(0.1, 0, 100))
        {
            Check(!h.BucketPercentilesWithValues.Any(), "an empty histogram has no non-empty bucket percentiles");
            Check(h.BucketPercentiles.All(p => p.Rank == 0 && p.Count == 0) && h.BucketPercentiles.Count() == (int)h.Info.StorageLength,
                  "an empty histogram's bucket percentiles all have rank 0");
        }
        // The enumeration reads one copy: records made while it runs do not show.
        using (var h = new HdrHistogram(0.01))
        {
            h.Record(100, 10);
            int seen = 0;
            foreach (var p in h.BucketPercentilesWithValues) { h.Record(100000, 5); seen++; Check(p.CumulativeCount == 10, "the copy's counts"); }
            Check(seen == 1 && h.TotalCount == 15, "one bucket in the copy, the later records in the histogram");
        }
    }

    static void PercentileSpans()
    {
        using (var h = new HdrHistogram(0.01))
        {
            for (ulong v = 1; v <= 10000; v++) h.Record(v);
            double[] rankArray = { 10, 50, 99.9 };
            ReadOnlySpan<double> ranks = rankArray;
            var output = new Percentile[ranks.Length];
            var values = new ulong[ranks.Length];
            h.GetPercentiles(ranks, output);
            h.GetPercentileValues(ranks, values);
            Check(output.SequenceEqual(h.GetPercentiles(10, 50, 99.9)), "span form equals the array form");
            Check(values.SequenceEqual(output.Select(p => p.Value)), "values equal the percentiles' values");
            Equal(output[1].Value, h.GetPercentileValue(50), "scalar value");
            Span<Percentile> part = new Percentile[5];
            h.GetPercentiles(ranks, part.Slice(1, 3));
            Check(part[0].Rank == 0 && part[1].Equals(output[0]) && part[3].Equals(output[2]) && part[4].Rank == 0,
                  "a slice is written in place, nothing around it");
            Throws<ArgumentException>(() => h.GetPercentiles(rankArray, new Percentile[2]), "output shorter than the ranks");
            Throws<ArgumentException>(() => h.GetPercentileValues(rankArray, new ulong[4]), "output longer than the ranks");
            Throws(Status.InvalidArgument, () => h.GetPercentiles(new double[] { 50, 10 }, new Percentile[2]), "decreasing ranks (span form)");
            using (var snap = h.GetSnapshot())
            {
                var fromSnap = new Percentile[3];
                snap.GetPercentiles(ranks, fromSnap);
                Check(fromSnap.SequenceEqual(output), "snapshot span form");
            }
        }
        using (var empty = new HdrHistogram(0.01))
        {
            empty.GetPercentiles(new double[0], new Percentile[0]);
            passed++;   // no ranks: nothing asked, nothing thrown, even when empty
            Throws(Status.Empty, () => empty.GetPercentileValue(50), "the value of an empty histogram's percentile");
        }
    }

    static void SummaryApi()
    {
        var fresh = new HdrHistogramSummary();
        Check(fresh.TimestampUtc == default(DateTime) && fresh.TotalCount == 0 && double.IsNaN(fresh.Mean), "a new summary is empty");
        using (var h = HdrHistogram.Factory.WithRelativeError(0.01).WithMaxTrackableValue(100000).Create())
        {
            h.Record(1000, 3);
            DateTime t0 = DateTime.UtcNow;
            var s = h.GetSummary(fresh);
            DateTime t1 = DateTime.UtcNow;
            Check(ReferenceEquals(s, fresh) && s.TotalCount == 3, "GetSummary(reuseInstance) fills and returns it");
            Check(s.TimestampUtc >= t0 && s.TimestampUtc <= t1 && s.TimestampUtc.Kind == DateTimeKind.Utc, "TimestampUtc is the fill time");
            Check(!ReferenceEquals(h.GetSummary(), s) && h.GetSummary(null).TotalCount == 3, "GetSummary() makes a new one");
            using (var snap = h.GetSnapshot())
            {
                Thread.Sleep(5);
                var s2 = snap.GetSummary(s);
                Check(ReferenceEquals(s2, s) && s2.TimestampUtc > t1, "the snapshot's GetSummary(reuse) refreshes the time");
            }

            string pretty = Captured(() => s.PrettyPrint());
            Check(pretty.StartsWith("##### Histogram summary\n| Percentile | Value") && pretty.EndsWith("|\n\n"),
                  "PrettyPrint(): the default title, the table, a blank line:\n" + pretty);
            Equal(s.Table("Latency") + "\n", Captured(() => s.PrettyPrint("Latency")), "PrettyPrint(title)");
            Check(!Captured(() => s.PrettyPrint("")).StartsWith("#"), "PrettyPrint(\"\"): no heading");
            Equal(s.Diff(s, "Same", "A", "B") + "\n", Captured(() => s.PrettyPrintDiff(s, "Same", "A", "B")), "PrettyPrintDiff");
            Check(s.ToString("lat").StartsWith("lat: Total=3, Overflow=0, Mean="), "ToString(name): " + s.ToString("lat"));
        }
    }

    /// <summary>Sleep until Stopwatch says <paramref name="ms"/> ms have passed: one
    /// Thread.Sleep(ms) may wake a little early on Stopwatch's clock (19.2 ms for 20 seen on
    /// mono, on a loaded machine).</summary>
    static void SleepAtLeast(int ms)
    {
        var w = Stopwatch.StartNew();
        while (w.ElapsedTicks < Stopwatch.Frequency / 1000 * ms) Thread.Sleep(1);
    }

    static void Scopes()
    {
        using (var h = HdrHistogram.Factory.WithMaxTrackableValue(NanoScope.OneSecondValue * 2).Create())
        {
            // Each unit's scope in a histogram of its own, so that no unit's figure passes for
            // another's: 20 ms (less the histogram's 0.1 %) to a second (a loaded machine may
            // stall the sleeper), in millis, micros, nanos and Stopwatch ticks.
            string[] names = { "millis", "micros", "nanos", "ticks" };
            ulong[] perSecond = { 1000, 1000000, 1000000000, (ulong)Stopwatch.Frequency };
            Func<HdrHistogram, IDisposable>[] scopes = {
                x => x.GetMilliScope(), x => x.GetMicroScope(), x => x.GetNanoScope(), x => x.GetTickScope() };
            for (int u = 0; u < scopes.Length; u++)
            {
                using (var one = HdrHistogram.Factory.WithMaxTrackableValue(NanoScope.OneSecondValue * 2).Create())
                {
                    using (scopes[u](one)) SleepAtLeast(20);
                    var values = one.BucketsWithValues.Select(b => b.Value).ToList();
                    Check(values.Count == 1 && values[0] >= perSecond[u] / 50 * 999 / 1000 && values[0] <= perSecond[u],
                          "20 ms in " + names[u] + ": " + string.Join(", ", values));
                }
                using (scopes[u](h)) { }
            }
            Equal(4UL, h.TotalCount, "four scopes, four records");

            var s = h.GetNanoScope();
            SleepAtLeast(2);
            ulong e = s.End();
            Check(e >= 1900000 && e == s.Elapsed && h.TotalCount == 5, "End records once and returns the elapsed nanos: " + e);
            Throws<InvalidOperationException>(() => s.End(), "End twice");
            s.Dispose();   // after End: nothing more
            Equal(5UL, h.TotalCount, "Dispose after End records nothing");
            default(NanoScope).Dispose();
            Throws<InvalidOperationException>(() => default(NanoScope).End(), "End of a scope never begun");
        }
        var gone = new HdrHistogram();
        var late = gone.GetMicroScope();
        gone.Dispose();
        Throws<ObjectDisposedException>(() => late.End(), "a scope whose histogram was disposed");
        Throws<ArgumentNullException>(() => ((HdrHistogram)null).GetNanoScope(), "a scope of null");

        ulong freq = (ulong)Stopwatch.Frequency;
        Equal(1000000000UL, NanoScope.TicksToNanos(Stopwatch.Frequency), "a second of ticks in nanos");
        Equal(1000000UL, NanoScope.TicksToMicros(Stopwatch.Frequency), "a second of ticks in micros");
        Equal(1000UL, NanoScope.TicksToMillis(Stopwatch.Frequency), "a second of ticks in millis");
        int wrong = 0;
        foreach (long t in new long[] { 0, 1, 7, 9999999, 10000001, 123456789012, 1L << 40, 1L << 55, long.MaxValue / 3, long.MaxValue })
        {
            if (NanoScope.TicksToNanos(t) != PerfNative.picollo_convert_ticks((ulong)t, freq, 1000000000)) wrong++;
            if (NanoScope.TicksToMicros(t) != PerfNative.picollo_convert_ticks((ulong)t, freq, 1000000)) wrong++;
            if (NanoScope.TicksToMillis(t) != PerfNative.picollo_convert_ticks((ulong)t, freq, 1000)) wrong++;
        }
        Equal(0, wrong, "tick conversions equal picollo_convert_ticks (exact, saturating)");
        Throws<ArgumentOutOfRangeException>(() => NanoScope.TicksToNanos(-1), "negative ticks");
    }

    static void HistogramApiGroups()
    {
        Group("api: every bucket", AllBuckets);
        Group("api: bucket percentiles", BucketPercentiles);
        Group("api: percentile spans", PercentileSpans);
        Group("api: summary", SummaryApi);
        Group("api: scopes", Scopes);
    }
}
