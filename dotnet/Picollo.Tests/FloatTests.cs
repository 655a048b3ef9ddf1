// Tests of FloatHistogram (Metrics/FloatHistogram*.cs) against libpicollo, what it counts:
// percentiles against the exact order statistics of signed, tiny (subnormal), huge and
// adversarial data at several precisions; NaN, ±∞, zero, underflow and overflow counted
// apart; the exact minimum, maximum and sum; value queries and buckets against counts of the
// recorded values. FloatApiTests.cs has the rest of the API (merges, threads, snapshots,
// texts, errors). Part of the Tests program (Tests.cs holds Main and the check helpers).

using System;
using System.Collections.Generic;
using System.Linq;
using System.Runtime.InteropServices;
using Picollo;
using Picollo.Metrics;

static partial class Tests
{
    // ---- helpers ------------------------------------------------------------------------

    /// <summary>The next double above x (x finite).</summary>
    static double NextUp(double x)
    {
        if (x == 0) return double.Epsilon;
        long b = BitConverter.DoubleToInt64Bits(x);
        return BitConverter.Int64BitsToDouble(x > 0 ? b + 1 : b - 1);
    }

    static bool InBucket(FloatPercentile p, double v) { return p.Lowest <= v && v <= p.Highest; }

    static int Sign(double x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }

    /// <summary>Whether x's magnitude is inside the histogram's range (or x is zero).</summary>
    static bool InRange(FloatHistogram h, double x)
    {
        return x == 0 || (Math.Abs(x) >= h.MinMagnitude && Math.Abs(x) <= h.MaxMagnitude);
    }

    /// <summary>A magnitude 10^u, u uniform in [lo, hi), with a random sign.</summary>
    static double LogUniform(Random r, double lo, double hi, bool signed = true)
    {
        double m = Math.Pow(10, lo + r.NextDouble() * (hi - lo));
        return signed && r.Next(2) == 0 ? -m : m;
    }

    static double Normal(Random r)
    {
        return Math.Sqrt(-2 * Math.Log(1 - r.NextDouble())) * Math.Cos(2 * Math.PI * r.NextDouble());
    }

    /// <summary>The data sets of the percentile checks, by name.</summary>
    static List<KeyValuePair<string, double[]>> FloatDataSets()
    {
        var sets = new List<KeyValuePair<string, double[]>>();
        Func<string, int, Func<Random, double>, int> add = (name, seed, draw) =>
        {
            var r = new Random(seed);
            sets.Add(new KeyValuePair<string, double[]>(name, Enumerable.Range(0, 20000).Select(_ => draw(r)).ToArray()));
            return 0;
        };
        add("signed normal ×1000", 1, r => 1000 * Normal(r));
        add("log-uniform ±1e-300..1e300", 2, r => LogUniform(r, -300, 300));
        add("subnormal and tiny ±1e-323..1e-300", 3, r => LogUniform(r, -323, -300));
        add("huge ±1e307..DBL_MAX", 4, r => (r.Next(2) == 0 ? -1 : 1) * Math.Min(double.MaxValue, 1e307 * (1 + r.NextDouble() * 17)));
        add("adversarial powers of two and their neighbours", 5, r =>
        {
            double p = Math.Pow(2, r.Next(-1074, 1024));
            if (double.IsInfinity(p)) p = double.MaxValue;
            double x = r.Next(3) == 0 ? p : r.Next(2) == 0 ? NextUp(p) : -NextUp(-p);
            return r.Next(2) == 0 ? -x : x;
        });
        return sets;
    }

    /// <summary>The sum of the values, exactly enough to judge the library's: the values
    /// scaled by a power of two so that nothing overflows, summed in order (the error is
    /// ~n·ulp of the sum of magnitudes), with the scale it used.</summary>
    static double ScaledSum(double[] values, out double scale, out double scaledMagnitudes)
    {
        double max = values.Select(Math.Abs).DefaultIfEmpty(0).Max();
        scale = max == 0 ? 1 : Math.Pow(2, -Math.Round(Math.Log(max, 2)));
        double s = 0, m = 0;
        foreach (var v in values) { s += v * scale; m += Math.Abs(v * scale); }
        scaledMagnitudes = m;
        return s;
    }

    // ---- tests --------------------------------------------------------------------------

    static void FloatLayout()
    {
        Type c = typeof(FloatHistogramConfig), i = typeof(FloatHistogramInfo), p = typeof(FloatPercentile);
        Type s = typeof(FloatSummaryData), b = typeof(FloatBucket);
        Func<Type, string, int> at = (t, f) => (int)Marshal.OffsetOf(t, f);
        // Same format as sizes.c, which run.sh compares with this line.
        Console.WriteLine("float struct sizes: config={0} info={1} percentile={2} summary={3} bucket={4} "
                          + "config.min_magnitude@{5} config.storage@{6} info.sum@{7} info.buckets_per_octave@{8} "
                          + "info.counter_bits@{9} percentile.count@{10} percentile.side@{11} summary.total@{12} "
                          + "summary.sum@{13} summary.max_magnitude@{14} bucket.count@{15} bucket.side@{16}",
                          Marshal.SizeOf(c), Marshal.SizeOf(i), Marshal.SizeOf(p), Marshal.SizeOf(s), Marshal.SizeOf(b),
                          at(c, "MinMagnitude"), at(c, "Storage"), at(i, "Sum"), at(i, "BucketsPerOctave"),
                          at(i, "CounterBits"), at(p, "Count"), at(p, "Side"), at(s, "Total"),
                          at(s, "Sum"), at(s, "MaxMagnitude"), at(b, "Count"), at(b, "Side"));
        Equal(48, Marshal.SizeOf(c), "sizeof(picollo_float_config)");
        Equal(152, Marshal.SizeOf(i), "sizeof(picollo_float_info)");
        Equal(72, Marshal.SizeOf(p), "sizeof(picollo_float_percentile)");
        Equal(16 * 72 + 16 * 8, Marshal.SizeOf(s), "sizeof(picollo_float_summary)");
        Equal(40, Marshal.SizeOf(b), "sizeof(picollo_float_bucket)");

        var d = FloatHistogramConfig.Default;
        Equal((uint)Marshal.SizeOf(c), d.StructSize, "float_config_default().struct_size is the C# size");
        Check(d.CounterBits == 64 && d.RelativeError == 0.001 && d.MinMagnitude == double.Epsilon && d.MaxMagnitude == double.MaxValue
              && d.Storage == (uint)FloatStorage.Sparse && d.Mode == 0 && d.ValueSelection == 0 && d.Reserved == 0,
              "float_config_default fields: every finite magnitude, sparse, one writer, midpoints");
        using (var h = new FloatHistogram())
        {
            var info = h.Info;
            Check(info.RelativeError <= 0.001 && info.RelativeError == 0.5 / info.BucketsPerOctave, "default layout: 0.5 / buckets per octave <= 0.001");
            Check(h.Storage == FloatStorage.Sparse && h.Mode == FloatConcurrencyMode.SingleWriter && h.CounterBits == 64
                  && h.ValueSelection == ValueSelection.Midpoint, "the constructor's defaults are the library's");
            Check(h.MinMagnitude <= double.Epsilon && h.MaxMagnitude >= double.MaxValue * (1 - 1e-3), "default range: every finite magnitude");
            ulong empty = h.FootprintBytes;
            h.Record(1.0);
            ulong one = h.FootprintBytes;
            h.Record(-1e300);
            Check(one > empty && h.FootprintBytes > one, string.Format("sparse storage grows with each octave touched: {0}, {1}, {2}", empty, one, h.FootprintBytes));
        }
    }

    static void FloatPercentiles()
    {
        foreach (var set in FloatDataSets())
            foreach (double e in new[] { 0.01, 0.001, 1e-5 })
            {
                // At 1e-5 a sparse block (one octave of one sign) is 512 KiB: only the sets
                // that touch few octaves.
                if (e == 1e-5 && !(set.Key.StartsWith("signed normal") || set.Key.StartsWith("huge"))) continue;
                double[] values = set.Value;
                var sorted = (double[])values.Clone();
                Array.Sort(sorted);
                string tag = string.Format("{0} at {1}", set.Key, e);
                using (var h = new FloatHistogram(e))
                {
                    h.RecordMany(values);
                    var info = h.Info;
                    double E = info.RelativeError;
                    Check(E <= e && E == 0.5 / info.BucketsPerOctave, tag + ": layout error " + E);
                    Equal((ulong)values.Length, info.Total, tag + ": every value in a bucket");
                    Check(info.NaN + info.PositiveInfinity + info.NegativeInfinity + info.Underflow + info.Overflow == 0, tag + ": nothing counted apart");
                    Equal(sorted[0], info.Min, tag + ": exact min");
                    Equal(sorted[sorted.Length - 1], info.Max, tag + ": exact max");

                    var batch = h.GetPercentiles(HdrHistogramSummary.StandardRanks);
                    var summary = h.GetSummary();
                    var bad = new Mismatches();
                    for (int k = 0; k < batch.Length; k++)
                    {
                        var p = batch[k];
                        double want = p.Rank / 100 * values.Length;
                        bool rankOk = p.RankCount >= 1 && p.RankCount <= (ulong)values.Length && Math.Abs((double)p.RankCount - Math.Max(1, want)) < 1.0001;
                        double exact = sorted[Math.Max(0, Math.Min(values.Length, (int)p.RankCount) - 1)];
                        bool ok = rankOk && InBucket(p, exact) && Math.Abs(p.Value - exact) <= E * Math.Abs(exact) * (1 + 1e-12)
                                  && p.CumulativeCount >= p.RankCount && p.CumulativeCount - p.Count < p.RankCount
                                  && p.Side == Sign(exact) && p.Count > 0 && p.Rank == HdrHistogramSummary.StandardRanks[k]
                                  && p.Equals(summary[k]) && p.Equals(h.GetPercentile(p.Rank));
                        bad.Note(!ok, () => string.Format("P{0}: rank count {1} (want ~{2}), exact {3:R} in [{4:R}, {5:R}]? value {6:R}, side {7}",
                                                          p.Rank, p.RankCount, want, exact, p.Lowest, p.Highest, p.Value, p.Side));
                    }
                    bad.CheckNone(tag + ": every percentile holds its exact order statistic, within E·|Y|; ", "do not");
                    Check(h.GetPercentileValues(1, 50, 99).SequenceEqual(new[] { batch[1].Value, batch[5].Value, batch[11].Value }),
                          tag + ": percentile values are the percentiles' values");

                    // The exact sum, and the moments.
                    double scale, magnitudes;
                    double sum = ScaledSum(values, out scale, out magnitudes);
                    double trueSum = sum / scale;
                    if (double.IsInfinity(trueSum))
                        Check(info.Sum == trueSum, tag + ": a sum beyond DBL_MAX is infinite, of its sign: " + info.Sum);
                    else
                        Check(Math.Abs(info.Sum * scale - sum) <= 1e-9 * magnitudes, string.Format("{0}: sum {1:R} vs {2:R}", tag, info.Sum, trueSum));
                    Equal(info.Sum / info.Total, h.Mean, tag + ": mean is sum / total");
                    double mean = sum / values.Length, sq = 0, rms = 0;
                    foreach (var v in values) { double d = v * scale - mean; sq += d * d; rms += (v * scale) * (v * scale); }
                    double sd = Math.Sqrt(sq / values.Length), bound = E * Math.Sqrt(rms / values.Length) * (1 + 1e-6) + 1e-9 * sd;
                    double got = summary.StdDev * scale;
                    Check(Math.Abs(got - sd) <= bound, string.Format("{0}: stdev {1:R} vs exact {2:R} (bound {3:R})", tag, summary.StdDev, sd / scale, bound / scale));
                }
            }
    }

    static void FloatSpecialValues()
    {
        using (var h = new FloatHistogram(0.01, 1e-10, 1e10))
        {
            foreach (var v in new[] { double.NaN, double.NaN, double.NaN, double.PositiveInfinity, double.PositiveInfinity,
                                      double.NegativeInfinity, 0.0, -0.0, 1e-12, -1e-11, 1e12, -1e11,
                                      -5.5, -0.25, 0.75, 3.0, 1e9 })
                h.Record(v);
            h.Record(0.0, 3);
            h.Record(1e-30, 1);            // underflow
            h.RecordSingle(float.NaN);
            h.RecordSingle(float.NegativeInfinity);
            h.RecordSingle(1e-20f);        // underflow
            var info = h.Info;
            Equal(4ul, info.NaN, "NaN counted apart (double and float)");
            Equal(2ul, info.PositiveInfinity, "+∞ counted apart");
            Equal(2ul, info.NegativeInfinity, "−∞ counted apart");
            Equal(5ul, info.Zero, "±0 in the zero bucket");
            Equal(4ul, info.Underflow, "magnitudes below the range");
            Equal(2ul, info.Overflow, "magnitudes above the range");
            Equal(10ul, info.Total, "in buckets: the five values and the five zeros");
            Check(h.NaNCount == 4 && h.PositiveInfinityCount == 2 && h.NegativeInfinityCount == 2 && h.ZeroCount == 5
                  && h.UnderflowCount == 4 && h.OverflowCount == 2 && h.TotalCount == 10 && h.SaturatedCount == 0, "the count properties");
            Equal(-5.5 - 0.25 + 0.75 + 3.0 + 1e9, h.Sum, "the sum of what is in buckets, exactly");
            Equal((double?)-5.5, h.Min, "exact min");
            Equal((double?)1e9, h.Max, "exact max");
            var p0 = h.GetPercentile(0);
            Check(p0.Side == -1 && InBucket(p0, -5.5), "P0 in the bucket of −5.5: " + p0);
            var p50 = h.GetPercentile(50);   // in order: −5.5, −0.25, 0 ×5, 0.75, 3, 1e9: the 5th is 0
            Check(p50.Side == 0 && p50.Value == 0 && p50.Lowest == 0 && p50.Highest == 0 && p50.RankCount == 5, "P50 is the zero bucket: " + p50);
            Check(h.GetPercentile(100).Side == 1 && InBucket(h.GetPercentile(100), 1e9), "P100 in the bucket of 1e9");
            var s = h.GetSummary();
            Check(s.NaNCount == 4 && s.PositiveInfinityCount == 2 && s.NegativeInfinityCount == 2 && s.ZeroCount == 5
                  && s.UnderflowCount == 4 && s.OverflowCount == 2 && s.TotalCount == 10 && s.Min == -5.5 && s.Max == 1e9
                  && s.Sum == h.Sum && s.Mean == h.Sum / 10, "the summary's counts, extremes and sum");
            Check(s.Precision == h.RelativeError && s.MinMagnitude == h.MinMagnitude && s.MaxMagnitude == h.MaxMagnitude, "the summary's layout fields");
            string line = h.Line("mixed");
            Check(line.StartsWith("mixed: Total=10") && line.Contains("NaN") && !line.Contains("\n"), "the line names the NaN count: " + line);
            Equal(0.0, h.RankOf(double.NegativeInfinity), "nothing at or below −∞");
            Equal(10.0, h.RankOf(double.PositiveInfinity), "everything in buckets at or below +∞");
            Equal(7.0, h.RankOf(0), "rank of 0: the negatives and the zero bucket");
            Equal(10ul, h.CountBetween(double.NegativeInfinity, double.PositiveInfinity), "count between −∞ and +∞ is the total");
            Equal(5ul, h.CountBetween(0, 0), "count between 0 and 0 is the zero bucket");
            double lo, hi;
            h.GetEquivalentRange(0, out lo, out hi);
            Check(lo == 0 && hi == 0, "the zero bucket is [0, 0]");
            h.GetEquivalentRange(-0.0, out lo, out hi);
            Check(lo == 0 && hi == 0, "−0 shares the zero bucket");

            h.Reset();
            info = h.Info;
            Check(info.Total == 0 && info.NaN == 0 && info.PositiveInfinity == 0 && info.NegativeInfinity == 0 && info.Underflow == 0
                  && info.Overflow == 0 && info.Zero == 0 && info.Sum == 0 && h.Min == null && h.Max == null, "reset clears counts, sum and extremes");
        }
        using (var h = new FloatHistogram())
        {
            Check(h.Min == null && h.Max == null && double.IsNaN(h.Mean) && h.Sum == 0, "empty: no extremes, NaN mean, zero sum");
            Throws(Status.Empty, () => h.GetPercentile(50), "percentile of an empty float histogram");
            Throws(Status.Empty, () => h.QuantileOf(1), "quantile of an empty float histogram");
            Equal(0.0, h.RankOf(1), "rank in an empty float histogram");
            var s = h.GetSummary();
            Check(s.TotalCount == 0 && s.Min == null && s.Max == null && double.IsNaN(s.Mean) && double.IsNaN(s.StdDev), "empty summary: NaN moments, no extremes");
            Equal("Total=0", s.Line(), "the empty one-line summary");
            Check(s.Table().Contains("| Percentile"), "the empty summary still renders a table");
            Equal(0, h.BucketsWithValues.Count(), "no buckets in an empty float histogram");
            h.Record(double.NaN, 7);
            Check(h.TotalCount == 0 && h.NaNCount == 7 && h.Min == null, "NaN only: nothing in buckets");
            Throws(Status.Empty, () => h.GetPercentile(0), "percentile of NaNs only");
        }
        var fresh = new FloatHistogramSummary();
        Check(fresh.TotalCount == 0 && fresh.Min == null && double.IsNaN(fresh.Mean), "a new summary is empty");
    }

    static void FloatRecording()
    {
        var r = new Random(11);
        var floats = Enumerable.Range(0, 5000).Select(_ => (float)LogUniform(r, -40, 38)).ToArray();
        using (var many = new FloatHistogram(0.001))
        using (var one = new FloatHistogram(0.001))
        using (var single = new FloatHistogram(0.001))
        {
            many.RecordMany(floats);
            foreach (var f in floats) { one.Record((double)f); single.RecordSingle(f); }
            Check(many.BucketsWithValues.SequenceEqual(one.BucketsWithValues), "RecordMany(float[]) widens exactly: the buckets of Record((double)f)");
            Check(single.BucketsWithValues.SequenceEqual(one.BucketsWithValues), "RecordSingle widens exactly");
            Check(many.Sum == one.Sum && single.Sum == one.Sum && many.Min == one.Min && many.Max == one.Max, "float records: the same sum and extremes");
        }
        using (var h = new FloatHistogram(0.01))
        {
            var values = new[] { 1.0, 2.0, 3.0, 4.0, 5.0 };
            h.RecordMany(values, 1, 3);
            Check(h.TotalCount == 3 && h.Sum == 9 && h.Min == 2 && h.Max == 4, "RecordMany(array, offset, count) records the slice");
            h.RecordMany(new double[0]);
            h.RecordMany(new float[0]);
            Equal(3ul, h.TotalCount, "empty batches record nothing");
            Throws<ArgumentOutOfRangeException>(() => h.RecordMany(values, 3, 3), "slice past the end");
            Throws<ArgumentNullException>(() => h.RecordMany(null, 0, 0), "null array");
            h.Record(2.5, 1000);
            h.Record(7.0, 0);
            Check(h.TotalCount == 1003 && h.Sum == 2509 && h.Max == 4, "Record(value, count) and count 0");
        }
        using (var h = FloatHistogram.Factory.WithUInt32Counters().WithRelativeError(0.01).Create())
        {
            h.Record(1.0, 5000000000ul);
            Check(h.SaturatedCount > 0 && h.TotalCount + h.SaturatedCount == 5000000000ul, "a u32 bucket saturates and the excess is counted");
        }
        // Dense and sparse storage count alike.
        var data = Enumerable.Range(0, 20000).Select(_ => LogUniform(r, -3, 3)).ToArray();
        using (var dense = FloatHistogram.Factory.WithRelativeError(0.01).WithMagnitudes(1e-3, 1e3).WithDenseStorage().Create())
        using (var sparse = FloatHistogram.Factory.WithRelativeError(0.01).WithMagnitudes(1e-3, 1e3).Create())
        {
            dense.RecordMany(data);
            sparse.RecordMany(data);
            Check(dense.Storage == FloatStorage.Dense && sparse.Storage == FloatStorage.Sparse, "storage as configured");
            Check(dense.BucketsWithValues.SequenceEqual(sparse.BucketsWithValues), "dense and sparse: the same buckets");
            Check(dense.GetSummary().Percentiles.SequenceEqual(sparse.GetSummary().Percentiles), "dense and sparse: the same percentiles");
            Check(dense.FootprintBytes > 0 && sparse.FootprintBytes > 0, "both hold counters");
        }
    }

    static void FloatValueQueries()
    {
        var r = new Random(21);
        var values = Enumerable.Range(0, 5000).Select(_ => LogUniform(r, -3, 3)).Concat(Enumerable.Repeat(0.0, 100)).ToArray();
        var sorted = (double[])values.Clone();
        Array.Sort(sorted);
        using (var h = new FloatHistogram(0.01, 1e-4, 1e4))
        {
            h.RecordMany(values);
            double total = h.TotalCount;
            var probes = new List<double> { 0, 1, -1, 1e-4, -1e4, 1e4 };
            for (int i = 0; i < 200; i++) probes.Add(values[r.Next(values.Length)]);
            for (int i = 0; i < 200; i++) probes.Add(LogUniform(r, -3.9, 3.9));
            int badRange = 0;
            Mismatches badRank = new Mismatches(), badCount = new Mismatches();
            foreach (var x in probes)
            {
                double lo, hi;
                h.GetEquivalentRange(x, out lo, out hi);
                bool rangeOk = lo <= x && x <= hi && Sign(lo) == Sign(x) && Sign(hi) == Sign(x)
                               && h.LowestEquivalentValue(lo) == lo && h.HighestEquivalentValue(hi) == hi
                               && (x == 0 || !InRange(h, NextUp(hi)) || h.LowestEquivalentValue(NextUp(hi)) == NextUp(hi))
                               && (x == 0 || (hi - lo) <= 2 * h.RelativeError * Math.Abs(x) * (1 + 1e-12));
                if (!rangeOk) badRange++;
                // Rank: buckets below whole, x's own in part (the zero bucket, [0, 0], whole).
                double below = CountBelow(sorted, lo, false), upTo = CountBelow(sorted, hi, true);
                double rank = h.RankOf(x);
                double expected = lo == hi ? upTo : below + (upTo - below) * (x - lo) / (hi - lo);
                bool rankOk = below <= rank && rank <= upTo && Math.Abs(rank - expected) <= 1e-9 * total
                              && h.RankOf(hi) == upTo && Math.Abs(h.QuantileOf(x) - rank / total) <= 1e-15;
                badRank.Note(!rankOk, () => string.Format("x {0:R} in [{1:R}, {2:R}]: rank {3:R}, recorded {4} below and {5} up to its bucket's end, spread {6:R}",
                                                          x, lo, hi, rank, below, upTo, expected));
                // Count between: every bucket from lo's to the upper probe's.
                double y = probes[r.Next(probes.Count)];
                double a = Math.Min(x, y), b = Math.Max(x, y);
                double alo = h.LowestEquivalentValue(a), bhi = h.HighestEquivalentValue(b);
                ulong count = h.CountBetween(a, b);
                ulong exact = (ulong)(CountBelow(sorted, bhi, true) - CountBelow(sorted, alo, false));
                badCount.Note(count != exact, () => string.Format("[{0:R}, {1:R}] (buckets [{2:R}, {3:R}]): {4}, recorded {5}", a, b, alo, bhi, count, exact));
            }
            Equal(0, badRange, "equivalent ranges hold their value, start and end buckets, and are within the relative error");
            badRank.CheckNone("rank_of and quantile_of against counts of the recorded values: ");
            badCount.CheckNone("count_between against counts of the recorded values: ");

            // Every recorded value in exactly one listed bucket.
            var buckets = h.BucketsWithValues.ToList();
            Equal(h.TotalCount, (ulong)buckets.Sum(bk => (long)bk.Count), "float bucket counts sum to the total");
            Check(buckets.Zip(buckets.Skip(1), (p, q) => p.Highest < q.Lowest).All(ok => ok), "float buckets ascending and disjoint");
            Check(buckets.All(bk => bk.Count == (ulong)(CountBelow(sorted, bk.Highest, true) - CountBelow(sorted, bk.Lowest, false))),
                  "each bucket counts exactly the recorded values in [lowest, highest]");
            Check(buckets.All(bk => bk.Side == Sign(bk.Lowest) && bk.Side == Sign(bk.Highest) && bk.Lowest <= bk.Value && bk.Value <= bk.Highest && bk.Reserved == 0),
                  "bucket sides and midpoints");
            Check(buckets.Count(bk => bk.Side == 0) == 1 && buckets.Single(bk => bk.Side == 0).Count == 100, "one zero bucket with the 100 zeros");
            Check(h.BucketsWithValuesInBatches(7).SequenceEqual(buckets), "batches of 7 equal the copied walk");
            Throws<ArgumentOutOfRangeException>(() => h.BucketsWithValuesInBatches(0), "batch 0");
            Check(Lines(buckets[0].ToString()).Length == 1 && buckets[0].ToString().StartsWith("["), "bucket text: " + buckets[0]);

            h.ValueSelection = ValueSelection.Lower;
            Equal(ValueSelection.Lower, h.ValueSelection, "value selection set");
            Check(h.BucketsWithValues.Where(bk => bk.Side > 0).All(bk => bk.Value == bk.Lowest), "Lower: positive buckets report their lowest value");
            var pl = h.GetPercentile(90);
            Check(pl.Side <= 0 || pl.Value == pl.Lowest, "Lower: P90 reports its bucket's lowest value");
            h.ValueSelection = ValueSelection.Upper;
            Check(h.BucketsWithValues.Where(bk => bk.Side > 0).All(bk => bk.Value == bk.Highest), "Upper: positive buckets report their highest value");
            h.ValueSelection = ValueSelection.Interpolated;
            Check(h.BucketsWithValues.All(bk => bk.Lowest <= bk.Value && bk.Value <= bk.Highest), "Interpolated: values inside their bucket");
        }
    }

}
