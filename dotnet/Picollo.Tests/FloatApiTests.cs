// Tests of FloatHistogram's API beyond what it counts (FloatTests.cs): Add, AddRebinned and
// Downsample against direct recording, interlocked writers against one thread, snapshots with deltas,
// the texts, the builder, and every configuration and argument error with its status.
// Part of the Tests program (Tests.cs holds Main and the check helpers).

using System;
using System.Linq;
using Picollo;
using Picollo.Metrics;

static partial class Tests
{
    static void FloatMerges()
    {
        var r = new Random(31);
        var a = Enumerable.Range(0, 8000).Select(_ => LogUniform(r, -6, 6)).ToArray();
        var b = Enumerable.Range(0, 8000).Select(_ => 1000 * Normal(r)).ToArray();
        using (var ha = new FloatHistogram(0.001))
        using (var hb = new FloatHistogram(0.001, 1e-3, 1e5, 32, FloatStorage.Dense, FloatConcurrencyMode.Interlocked))
        using (var all = new FloatHistogram(0.001))
        {
            ha.RecordMany(a);
            ha.Record(double.NaN);
            hb.RecordMany(b);
            hb.Record(double.PositiveInfinity);
            all.RecordMany(a);
            all.RecordMany(b.Where(v => v == 0 || (Math.Abs(v) >= hb.MinMagnitude && Math.Abs(v) <= hb.MaxMagnitude)).ToArray());
            ha.Add(hb);
            Check(ha.BucketsWithValues.SequenceEqual(all.BucketsWithValues), "add: the buckets of recording both into one histogram");
            Check(ha.NaNCount == 1 && ha.PositiveInfinityCount == 1 && ha.UnderflowCount == hb.UnderflowCount, "add carries the counts beside the buckets");
            Check(ha.Min == all.Min && ha.Max == all.Max, "add: exact extremes");
            Check(Math.Abs(ha.Sum - all.Sum) <= 1e-12 * a.Concat(b).Sum(v => Math.Abs(v)), "add: the sums agree");
            Check(ha.GetSummary().Percentiles.SequenceEqual(all.GetSummary().Percentiles), "add: the percentiles of the union");
        }
        using (var fine = new FloatHistogram(1e-4))
        using (var coarse = new FloatHistogram(0.01))
        using (var direct = new FloatHistogram(0.01))
        {
            fine.RecordMany(a);
            fine.RecordMany(b);
            direct.RecordMany(a);
            direct.RecordMany(b);
            coarse.AddRebinned(fine);
            Check(coarse.BucketsWithValues.SequenceEqual(direct.BucketsWithValues), "add_rebinned into 0.01 from 1e-4: the buckets of recording at 0.01");
            Check(coarse.Min == direct.Min && coarse.Max == direct.Max && coarse.TotalCount == direct.TotalCount, "add_rebinned: extremes and total");
            using (var finer = new FloatHistogram(1e-4))
            {
                finer.AddRebinned(coarse);
                Equal(coarse.TotalCount, finer.TotalCount, "add_rebinned into a finer layout keeps every count");
                using (var back = new FloatHistogram(0.01))
                {
                    back.AddRebinned(finer);
                    Check(back.BucketsWithValues.SequenceEqual(coarse.BucketsWithValues),
                          "spread into 1e-4 and back into 0.01: each source bucket's counts stayed inside it");
                }
            }
            using (var down = fine.Downsample(0.01))
            {
                Check(down.BucketsWithValues.SequenceEqual(direct.BucketsWithValues), "downsample from 1e-4 to 0.01: the buckets of recording at 0.01");
                Check(down.Min == direct.Min && down.Max == direct.Max && down.TotalCount == direct.TotalCount, "downsample: extremes and total");
                Check(Math.Abs(down.Sum - fine.Sum) <= 1e-12 * Math.Abs(fine.Sum), "downsample keeps the sum");
                Check(down.RelativeError == direct.RelativeError && down.CounterBits == 64 && down.Mode == FloatConcurrencyMode.SingleWriter, "downsample: the coarser precision, u64, one writer");
            }
            Throws(Status.LayoutMismatch, () => coarse.Downsample(1e-4), "downsample to a finer precision");
            Throws(Status.InvalidArgument, () => coarse.Downsample(double.NaN), "downsample to NaN");
            Throws(Status.LayoutMismatch, () => coarse.Add(fine), "add with another relative error");
            Throws(Status.InvalidArgument, () => coarse.Add(coarse), "add a float histogram to itself");
            Throws(Status.InvalidArgument, () => coarse.AddRebinned(coarse), "add_rebinned a float histogram to itself");
            Throws<ArgumentNullException>(() => coarse.Add(null), "add null");
        }
    }

    static void FloatThreads()
    {
        const int perThread = 50000;
        Func<int, double[]> valuesOf = t =>
        {
            var r = new Random(400 + t);
            return Enumerable.Range(0, perThread).Select(_ => LogUniform(r, -9, 9)).ToArray();
        };
        using (var shared = FloatHistogram.Factory.WithInterlocked().WithRelativeError(0.001).Create())
        using (var reference = new FloatHistogram(0.001))
        {
            OnThreads(Writers, t =>
            {
                var v = valuesOf(t);
                for (int i = 0; i < v.Length; i++)
                    if (i % 2 == 0) shared.Record(v[i]);
                    else shared.RecordMany(new ReadOnlySpan<double>(v, i, 1));
            });
            for (int t = 0; t < Writers; t++) reference.RecordMany(valuesOf(t));
            Equal(FloatConcurrencyMode.Interlocked, shared.Mode, "interlocked mode");
            Equal((ulong)Writers * perThread, shared.TotalCount, "interlocked float records: none lost");
            Check(shared.BucketsWithValues.SequenceEqual(reference.BucketsWithValues), "interlocked float buckets equal a single thread's");
            Check(shared.Min == reference.Min && shared.Max == reference.Max, "interlocked: exact extremes");
            Check(Math.Abs(shared.Sum - reference.Sum) <= 1e-12 * 2e9 * Writers * perThread, "interlocked: the sums agree");
        }
    }

    static void FloatSnapshots()
    {
        using (var h = new FloatHistogram(0.01))
        {
            h.Record(1.5, 10);
            using (var snap = h.GetSnapshot())
            {
                Check(snap.Source == h, "the snapshot's source");
                var s = snap.GetSummary();
                Check(s.TotalCount == 10 && s.Min == 1.5 && s.Max == 1.5 && s.Sum == 15, "the snapshot holds the counts");
                h.Record(-2.0, 5);
                h.Record(double.NaN);
                Equal(10ul, snap.GetSummary().TotalCount, "the snapshot does not follow the histogram");
                snap.Update(deltas: true);
                s = snap.GetSummary();
                Check(s.TotalCount == 5 && s.NaNCount == 1 && s.Sum == -10 && InBucket(s.P0, -2.0) && InBucket(s.P100, -2.0),
                      "a delta update holds only the new values");
                Check(s.Min == null && s.Max == null, "a delta's extremes are unknown");
                snap.Update(deltas: true);
                Equal(0ul, snap.GetSummary().TotalCount, "a delta update with nothing new");
                snap.Update();
                s = snap.GetSummary();
                Check(s.TotalCount == 15 && s.Min == -2 && s.Max == 1.5 && s.NaNCount == 1, "a full update");
                Check(s.Percentiles.SequenceEqual(h.GetSummary().Percentiles), "the snapshot's percentiles equal the histogram's");
                h.Reset();
                h.Record(4.0, 3);
                snap.Update(deltas: true);
                Equal(3ul, snap.GetSummary().TotalCount, "deltas after a reset count from the reset");
                var reused = new FloatHistogramSummary();
                Check(snap.GetSummary(reused) == reused && reused.TotalCount == 3 && reused.TimestampUtc != default(DateTime), "a summary refilled in place");
                using (var other = new FloatHistogram(0.001))
                    Equal(Status.LayoutMismatch, Native.picollo_float_snapshot_update(snap.Handle.DangerousGetHandle(), other.Handle.DangerousGetHandle(), 1),
                          "float snapshot update from another layout");
            }
        }
        var src = new FloatHistogram(0.01);
        src.Record(3.0, 2);
        var kept = src.GetSnapshot();
        src.Dispose();
        Equal(2ul, kept.GetSummary().TotalCount, "a float snapshot outlives its histogram");
        Throws<ObjectDisposedException>(() => kept.Update(), "update from a disposed float histogram");
        kept.Dispose();
        Throws<ObjectDisposedException>(() => kept.GetSummary(), "summary of a disposed float snapshot");
    }

    static void FloatTexts()
    {
        using (var h = new FloatHistogram(0.01))
        using (var g = new FloatHistogram(0.01))
        {
            var r = new Random(41);
            h.RecordMany(Enumerable.Range(0, 1000).Select(_ => LogUniform(r, -3, 0, false)).ToArray());
            g.RecordMany(Enumerable.Range(0, 1000).Select(_ => LogUniform(r, -3, 0.1, false)).ToArray());
            string table = h.Table("Float µs");
            var lines = Lines(table);
            Equal("##### Float µs", lines[0], "float table heading (UTF-8 round trip)");
            Check(lines[1].StartsWith("| Percentile | Value"), "float table header: " + lines[1]);
            Check(lines.Skip(3).Take(16).Select(FirstCell).SequenceEqual(RankLabels), "float table: 16 rank rows");
            var s = h.GetSummary();
            Equal(table, s.Table("Float µs"), "histogram table equals summary table");
            Check(!h.Table().StartsWith("#####") && !h.Table("").StartsWith("#####"), "no heading without a title");
            Equal(h.Table(), h.ToString(), "ToString is the table");
            string line = h.Line("lat");
            Check(line.StartsWith("lat: Total=1,000, Mean=") && line.Contains(", P99=") && line.Contains(", Max=") && !line.Contains("\n"),
                  "float one-line summary: " + line);
            Check(line == s.Line("lat") && s.ToString("lat") == line && s.ToString() == s.Line(), "histogram line equals summary line");
            string json = s.Json();
            Check(json.StartsWith("{\"minMagnitude\":") && json.Contains(",\"totalCount\":1000,") && json.Contains(",\"nanCount\":0,")
                  && json.Contains("\"lowest\":") && json.Contains("\"highest\":") && json.EndsWith("}]}"), "float JSON fields: " + json);
            var jbuf = new byte[1 << 16];
            UIntPtr jlen;
            Equal(Status.Ok, Native.picollo_float_histogram_text(h.Handle, 2, null, jbuf, (UIntPtr)jbuf.Length, out jlen), "float text format 2 (JSON)");
            Equal(json, System.Text.Encoding.UTF8.GetString(jbuf, 0, (int)jlen), "histogram JSON equals summary JSON");
            string diff = s.Diff(g.GetSummary(), "Before/after", "Before", "After");
            var dl = Lines(diff);
            Equal("##### Before/after", dl[0], "float diff heading");
            Check(dl[1].StartsWith("| Percentile | Before") && dl[1].Contains("After") && dl[1].Contains("Δ%"), "float diff header: " + dl[1]);
            Check(dl.Any(l => FirstCell(l) == "D-value:") && dl.Any(l => FirstCell(l).StartsWith("Min")), "float diff rows: D-value, Min");
            UIntPtr needed;
            Equal(Status.InvalidArgument, Native.picollo_float_histogram_text(h.Handle, 3, null, null, UIntPtr.Zero, out needed), "float text format 3");
            Equal(Status.InvalidUtf8, Native.picollo_float_summary_table(ref s.Data, new byte[] { 0xff, 0 }, null, UIntPtr.Zero, out needed), "title not UTF-8");
            var p = h.GetPercentile(99);
            Check(System.Text.RegularExpressions.Regex.IsMatch(p.ToString(), @"^P99=\S+ ±\S+ \[\S+, \S+\] [\d,]+$"), "float percentile text: " + p);
        }
    }

    static void FloatBadInput()
    {
        Throws(Status.InvalidArgument, () => new FloatHistogram(0.0), "float relative error 0");
        Throws(Status.InvalidArgument, () => new FloatHistogram(double.NaN), "float relative error NaN");
        Throws(Status.InvalidArgument, () => new FloatHistogram(-0.01), "float relative error < 0");
        Throws(Status.InvalidArgument, () => new FloatHistogram(double.PositiveInfinity), "float relative error ∞");
        Throws(Status.InvalidArgument, () => new FloatHistogram(0.01, 0.0, 1.0), "min magnitude 0");
        Throws(Status.InvalidArgument, () => new FloatHistogram(0.01, -1.0, 1.0), "min magnitude < 0");
        Throws(Status.InvalidArgument, () => new FloatHistogram(0.01, 2.0, 1.0), "min magnitude > max");
        Throws(Status.InvalidArgument, () => new FloatHistogram(0.01, 1.0, double.PositiveInfinity), "max magnitude ∞");
        Throws(Status.InvalidArgument, () => new FloatHistogram(0.01, double.NaN, 1.0), "min magnitude NaN");
        Throws(Status.InvalidArgument, () => new FloatHistogram(0.01, counterBits: 16), "float counter bits 16");
        Throws(Status.InvalidArgument, () => new FloatHistogram(0.01, storage: (FloatStorage)2), "unknown storage");
        Throws(Status.InvalidArgument, () => new FloatHistogram(0.01, mode: (FloatConcurrencyMode)2), "unknown float mode");
        Throws(Status.InvalidArgument, () => new FloatHistogram(0.01, valueSelection: (ValueSelection)9), "unknown float value selection");
        var reserved = FloatHistogramConfig.Default;
        reserved.Reserved = 1;
        Throws(Status.InvalidArgument, () => new FloatHistogram(reserved), "float config reserved field set");
        foreach (uint size in new uint[] { 0, 8, 40, 100 })
        {
            var c = FloatHistogramConfig.Default;
            c.StructSize = size;
            Throws(Status.StructSize, () => new FloatHistogram(c), "float config struct_size " + size);
        }
        var ok = FloatHistogramConfig.Default;
        IntPtr raw;
        Equal(Status.Ok, Native.picollo_float_histogram_new_raw(ref ok, out raw), "raw float new");
        Check(raw != IntPtr.Zero, "raw float new writes a handle");
        Native.picollo_float_histogram_free(raw);
        Native.picollo_float_histogram_free(IntPtr.Zero);   // NULL is ignored
        FloatHistogramInfo info;
        Equal(Status.NullPointer, Native.picollo_float_histogram_get_info(new FloatHistogramHandle(), out info), "float info of a NULL handle");

        using (var h = new FloatHistogram(0.01, 1e-10, 1e10))
        {
            h.Record(1.0);
            Throws(Status.InvalidArgument, () => h.GetPercentile(101), "float rank 101");
            Throws(Status.InvalidArgument, () => h.GetPercentile(-1), "float rank −1");
            Throws(Status.InvalidArgument, () => h.GetPercentile(double.NaN), "float rank NaN");
            Throws(Status.InvalidArgument, () => h.GetPercentiles(50, 10), "float ranks decreasing");
            Throws(Status.InvalidArgument, () => h.GetPercentiles(50, 50), "float ranks repeated");
            Throws<ArgumentException>(() => h.GetPercentiles(new double[] { 1, 2 }, new FloatPercentile[1]), "output shorter than the ranks");
            Throws(Status.InvalidArgument, () => h.RankOf(double.NaN), "rank_of NaN");
            Throws(Status.InvalidArgument, () => h.QuantileOf(double.NaN), "quantile_of NaN");
            Throws(Status.InvalidArgument, () => h.CountBetween(double.NaN, 1), "count_between NaN");
            Throws(Status.InvalidArgument, () => h.CountBetween(2, 1), "count_between lo > hi");
            Throws(Status.InvalidArgument, () => h.LowestEquivalentValue(double.NaN), "equivalent range of NaN");
            Throws(Status.InvalidArgument, () => h.HighestEquivalentValue(double.PositiveInfinity), "equivalent range of +∞");
            Throws(Status.OutOfRange, () => h.LowestEquivalentValue(1e20), "equivalent range above the range");
            Throws(Status.OutOfRange, () => h.LowestEquivalentValue(-1e-20), "equivalent range below the range");
            Throws(Status.InvalidArgument, () => h.ValueSelection = (ValueSelection)7, "set an unknown float value selection");
        }
        var gone = new FloatHistogram(0.01);
        gone.Dispose();
        Check(gone.IsDisposed, "disposed");
        gone.Dispose();   // twice: no error
        passed++;
        Throws<ObjectDisposedException>(() => gone.Record(1), "float record after dispose");
        Throws<ObjectDisposedException>(() => gone.GetPercentile(50), "float percentile after dispose");
        Equal("FloatHistogram (disposed)", gone.ToString(), "float ToString after dispose");
        using (var h = new FloatHistogram(0.01))
        {
            Throws<ObjectDisposedException>(() => h.Add(gone), "add a disposed float histogram");
            Throws<ObjectDisposedException>(() => gone.Add(h), "add into a disposed float histogram");
        }
        for (int i = 0; i < 1000; i++) new FloatHistogram(0.01).Record(i);   // freed by the finalizer
        GC.Collect();
        GC.WaitForPendingFinalizers();
        passed++;
    }

    static void FloatBuilder()
    {
        using (var h = FloatHistogram.Factory.WithRelativeError(0.01).WithMinMagnitude(1e-6).WithMaxMagnitude(1e6).WithUInt32Counters()
                   .WithDenseStorage().WithInterlocked().WithValueSelection(ValueSelection.Upper).Create())
        {
            var info = h.Info;
            Check(info.RelativeError <= 0.01 && info.CounterBits == 32 && h.Storage == FloatStorage.Dense
                  && h.Mode == FloatConcurrencyMode.Interlocked && h.ValueSelection == ValueSelection.Upper, "the builder's fields");
            Check(info.MinMagnitude <= 1e-6 && info.MinMagnitude > 1e-6 * (1 - 0.02) && info.MaxMagnitude >= 1e6 && info.MaxMagnitude < 1e6 * 1.02,
                  string.Format("the range to bucket resolution: [{0:R}, {1:R}]", info.MinMagnitude, info.MaxMagnitude));
        }
        var b = FloatHistogram.Factory.WithMagnitudes(1, 2).WithSparseStorage().WithUInt64Counters().WithSingleWriter();
        Check(b.Config.MinMagnitude == 1 && b.Config.MaxMagnitude == 2 && b.Config.Storage == (uint)FloatStorage.Sparse
              && b.Config.CounterBits == 64 && b.Config.Mode == 0, "the builder's config");
        Throws(Status.InvalidArgument, () => FloatHistogram.Factory.WithMagnitudes(2, 1).Create(), "builder with min > max");
    }

    static void FloatGroups()
    {
        Group("float: layout", FloatLayout);
        Group("float: percentiles", FloatPercentiles);
        Group("float: special values", FloatSpecialValues);
        Group("float: recording", FloatRecording);
        Group("float: value queries", FloatValueQueries);
        Group("float: merges", FloatMerges);
        Group("float: threads", FloatThreads);
        Group("float: snapshots", FloatSnapshots);
        Group("float: texts", FloatTexts);
        Group("float: bad input", FloatBadInput);
        Group("float: builder", FloatBuilder);
    }
}
