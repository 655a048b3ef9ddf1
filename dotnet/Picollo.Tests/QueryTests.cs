// Tests of HdrHistogram's queries by value and across precisions (Metrics/HdrHistogramQueries.cs,
// HdrHistogramSteps.cs): rank, quantile and count queries against counts of the recorded
// values (exact below twice the block size), equivalent ranges against the layout, Downsample
// and AddRebinned against direct recording bucket by bucket, linear and logarithmic steps
// against the buckets they gather, the text formats, and the fast record paths of the C ABI
// (picollo_histogram_record_fn, and picollo_histogram_get_recorder with the header's inline
// record ported to C#; RecordPathTests.cs checks both against the layout table). Part of the
// Tests program (Tests.cs holds Main and the check helpers).

using System;
using System.Collections.Generic;
using System.Linq;
using System.Runtime.InteropServices;
using Picollo;
using Picollo.Metrics;

static partial class Tests
{
    /// <summary>How many of the sorted values (integers or doubles without NaN) are below v
    /// (strictly, or at most v).</summary>
    static int CountBelow<T>(T[] sorted, T v, bool inclusive) where T : IComparable<T>
    {
        int lo = 0, hi = sorted.Length;
        while (lo < hi)
        {
            int mid = (lo + hi) / 2;
            int order = sorted[mid].CompareTo(v);
            if (order < 0 || (inclusive && order == 0)) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    /// <summary>Values 0..1023 (60 %) and log-uniform up to 10^9 (40 %), seeded.</summary>
    static ulong[] QueryValues(int seed, int n)
    {
        var r = new Random(seed);
        return Enumerable.Range(0, n).Select(_ => r.Next(10) < 6 ? (ulong)r.Next(0, 1024) : (ulong)Math.Exp(r.NextDouble() * Math.Log(1e9))).ToArray();
    }

    static ulong Midpoint(Bucket b) { return b.Lower + (b.Highest - b.Lower + 1) / 2; }

    static void QueryLayout()
    {
        Type step = typeof(HistogramStep), rec = typeof(RecorderData);
        Console.WriteLine("query struct sizes: step={0} recorder={1} step.percentile@{2} recorder.len@{3} recorder.block_scale@{4} recorder.kind@{5} recorder.fine_scale@{6}",
                          Marshal.SizeOf(step), Marshal.SizeOf(rec), (int)Marshal.OffsetOf(step, "Percentile"),
                          (int)Marshal.OffsetOf(rec, "Len"), (int)Marshal.OffsetOf(rec, "BlockScale"), (int)Marshal.OffsetOf(rec, "Kind"),
                          (int)Marshal.OffsetOf(rec, "FineScale"));
        Equal(40, Marshal.SizeOf(step), "sizeof(picollo_step)");
        Equal(64, Marshal.SizeOf(rec), "sizeof(picollo_recorder)");
    }

    static void RankAndCountQueries()
    {
        var values = QueryValues(51, 30000);
        var sorted = (ulong[])values.Clone();
        Array.Sort(sorted);
        using (var h = new HdrHistogram(0.001))
        {
            h.RecordMany(values);
            Equal(512ul, h.Info.BlockSize, "0.1 %: block size 512, width-1 buckets below 1024");
            int bad = 0;
            for (ulong v = 0; v < 1024; v++)
                if (h.RankOf(v) != CountBelow(sorted, v, true) || h.QuantileOf(v) != h.RankOf(v) / h.TotalCount) bad++;
            Equal(0, bad, "rank_of and quantile_of of every value below 1024: the exact count at or below it");
            var r = new Random(52);
            int badExact = 0;
            Mismatches badCount = new Mismatches(), badRank = new Mismatches();
            for (int i = 0; i < 2000; i++)
            {
                ulong a = (ulong)r.Next(0, 1024), b = (ulong)r.Next(0, 1024);
                ulong lo = Math.Min(a, b), hi = Math.Max(a, b);
                if (h.CountBetween(lo, hi) != (ulong)(CountBelow(sorted, hi, true) - CountBelow(sorted, lo, false))) badExact++;
                // Anywhere: whole buckets from lo's to hi's.
                a = (ulong)Math.Exp(r.NextDouble() * Math.Log(2e9));
                b = (ulong)Math.Exp(r.NextDouble() * Math.Log(2e9));
                lo = Math.Min(a, b); hi = Math.Max(a, b);
                ulong count = h.CountBetween(lo, hi);
                long expected = CountBelow(sorted, h.HighestEquivalentValue(hi), true) - CountBelow(sorted, h.LowestEquivalentValue(lo), false);
                badCount.Note(count != (ulong)expected, () => string.Format("[{0}, {1}]: {2}, recorded {3}", lo, hi, count, expected));
                // The rank: buckets below whole, the value's own bucket in part.
                ulong bl, bh;
                h.GetEquivalentRange(a, out bl, out bh);
                double below = CountBelow(sorted, bl, false), inBucket = CountBelow(sorted, bh, true) - below;
                double want = below + inBucket * (a - bl + 1) / (bh - bl + 1), rank = h.RankOf(a);
                badRank.Note(Math.Abs(rank - want) > 1e-9 * values.Length,
                             () => string.Format("rank_of({0}) in [{1}, {2}]: {3}, spread {4}", a, bl, bh, rank, want));
            }
            Equal(0, badExact, "count_between of values below 1024: the exact count");
            badCount.CheckNone("count_between anywhere: the counts of the buckets from lo's to hi's; ");
            badRank.CheckNone("rank_of anywhere: whole buckets below, its own in part; ");
            Equal((double)values.Length, h.RankOf(ulong.MaxValue), "rank_of(max) is the total");
            Equal(1.0, h.QuantileOf(ulong.MaxValue), "quantile_of(max) is 1");
            Equal((ulong)values.Length, h.CountBetween(0, ulong.MaxValue), "count_between(0, max) is the total");
            Throws(Status.InvalidArgument, () => h.CountBetween(10, 5), "count_between lo > hi");
        }
        using (var h = new HdrHistogram(0.01, 100, 100000))
        {
            h.Record(5, 10);          // underflow
            h.Record(1000000, 20);    // overflow
            h.Record(500, 3);
            Check(h.RankOf(ulong.MaxValue) == 3 && h.CountBetween(0, ulong.MaxValue) == 3 && h.RankOf(99) == 0,
                  "underflow and overflow are not counted, as in percentiles");
            Equal(1.0, h.QuantileOf(1000000), "quantile over the count in range");
        }
        using (var h = new HdrHistogram(0.01))
        {
            Equal(0.0, h.RankOf(5), "rank in an empty histogram");
            Equal(0ul, h.CountBetween(0, 100), "count in an empty histogram");
            Throws(Status.Empty, () => h.QuantileOf(5), "quantile_of in an empty histogram");
        }
    }

    static void EquivalentRanges()
    {
        using (var h = new HdrHistogram(0.001, 1000, 1000000))
        {
            var r = new Random(61);
            var probes = new List<ulong> { 0, 1, 1023, 1024, 1025, ulong.MaxValue, ulong.MaxValue - 1, 1UL << 63 };
            for (int k = 0; k < 64; k++) { probes.Add(1UL << k); probes.Add((1UL << k) - 1); probes.Add((1UL << k) + 1); }
            var bytes = new byte[8];
            for (int i = 0; i < 2000; i++) { r.NextBytes(bytes); probes.Add(BitConverter.ToUInt64(bytes, 0) >> r.Next(64)); }
            var bad = new Mismatches();
            foreach (var v in probes)
            {
                ulong lo, hi;
                h.GetEquivalentRange(v, out lo, out hi);
                ulong width = hi - lo + 1;   // at most 2^63: never wraps
                bool ok = lo <= v && v <= hi && (width & (width - 1)) == 0 && lo % width == 0
                          && h.LowestEquivalentValue(lo) == lo && h.HighestEquivalentValue(lo) == hi
                          && (hi == ulong.MaxValue || h.LowestEquivalentValue(hi + 1) == hi + 1)
                          && (v >= 1024 || width == 1) && (v < 1024 || (double)width / lo <= 2 * h.Info.RelativeError);
                bad.Note(!ok, () => string.Format("{0}: [{1}, {2}]", v, lo, hi));
            }
            bad.CheckNone("equivalent ranges: aligned power-of-two buckets that hold their value and tile the u64 range, in range or not; ");
            h.RecordMany(QueryValues(62, 5000));
            Check(h.BucketsWithValues.All(b => h.LowestEquivalentValue(b.Highest) == b.Lower && h.HighestEquivalentValue(b.Lower) == b.Highest),
                  "equivalent ranges are the histogram's buckets");
        }
    }

    static void DownsampleAndRebin()
    {
        var values = QueryValues(71, 50000);
        using (var fine = new HdrHistogram(0.0001, 10, 1000000000, mode: ConcurrencyMode.Interlocked))
        using (var direct = new HdrHistogram(0.01, 10, 1000000000))
        {
            fine.RecordMany(values);
            fine.Record(3, 7);                  // underflow
            fine.Record(5000000000ul, 2);       // overflow
            direct.RecordMany(values);
            direct.Record(3, 7);
            direct.Record(5000000000ul, 2);
            fine.ValueSelection = ValueSelection.Upper;
            direct.ValueSelection = ValueSelection.Upper;
            using (var coarse = fine.Downsample(0.01))
            {
                var ci = coarse.Info;
                var di = direct.Info;
                Check(coarse.BucketsWithValues.SequenceEqual(direct.BucketsWithValues),
                      "downsample(0.01) of a 0.0001 histogram: bucket by bucket the histogram of recording at 0.01");
                Check(ci.RelativeError == di.RelativeError && ci.MinTrackable == di.MinTrackable && ci.MaxTrackable == di.MaxTrackable,
                      "downsample keeps the range, at the coarser layout");
                Check(ci.Underflow == di.Underflow && ci.Underflow >= 7 && ci.Overflow == 2 && ci.Total == di.Total, "downsample keeps the outside counts");
                Check(coarse.ValueSelection == ValueSelection.Upper && coarse.Mode == ConcurrencyMode.SingleWriter && ci.CounterBits == 64,
                      "downsample: the source's value selection, 64-bit counters, one writer");
                Check(coarse.GetSummary().Percentiles.SequenceEqual(direct.GetSummary().Percentiles), "downsample: the percentiles of direct recording");
            }
            using (var same = fine.Downsample(0.0001))
                Check(same.BucketsWithValues.SequenceEqual(fine.BucketsWithValues), "downsample to the same precision is a copy");
            Throws(Status.LayoutMismatch, () => direct.Downsample(0.0001), "downsample to a finer precision");
            Throws(Status.InvalidArgument, () => direct.Downsample(double.NaN), "downsample to NaN");
            Throws(Status.InvalidArgument, () => direct.Downsample(0), "downsample to 0");
            Throws(Status.InvalidArgument, () => direct.Downsample(-0.01), "downsample to a negative error");

            using (var rebinned = new HdrHistogram(0.01, 10, 1000000000))
            {
                rebinned.ValueSelection = ValueSelection.Upper;
                rebinned.AddRebinned(fine);
                Check(rebinned.BucketsWithValues.SequenceEqual(direct.BucketsWithValues), "add_rebinned into 0.01 from 0.0001: direct recording, bucket by bucket");
                Check(rebinned.UnderflowCount == direct.UnderflowCount && rebinned.OverflowCount == 2, "add_rebinned carries the outside counts");
                using (var spread = new HdrHistogram(0.0001, 10, 1000000000))
                {
                    spread.AddRebinned(direct);
                    Equal(direct.TotalCount, spread.TotalCount, "add_rebinned into a finer layout keeps every count");
                    using (var back = spread.Downsample(0.01))
                        Check(back.BucketsWithValues.Select(b => b.Count).SequenceEqual(direct.BucketsWithValues.Select(b => b.Count)),
                              "spread into 0.0001 and downsampled back: each source bucket's counts stayed inside it");
                }
                var before = rebinned.BucketsWithValues.ToList();
                rebinned.AddRebinned(rebinned);
                Check(rebinned.BucketsWithValues.Select(b => b.Count).SequenceEqual(before.Select(b => b.Count * 2)), "add_rebinned of itself doubles every bucket");
            }
            var gone = new HdrHistogram(0.01);
            gone.Dispose();
            Throws<ObjectDisposedException>(() => direct.AddRebinned(gone), "add_rebinned a disposed histogram");
            Throws<ArgumentNullException>(() => direct.AddRebinned(null), "add_rebinned null");
        }
    }

    /// <summary>What the steps must hold: contiguous from 0, each bucket's count in the step
    /// holding its midpoint, running cumulative counts and percentiles, the last step holding
    /// the top bucket's midpoint.</summary>
    static void CheckSteps(HdrHistogram h, List<HistogramStep> steps, string what)
    {
        var buckets = h.BucketsWithValues.ToList();
        bool contiguous = steps.Count > 0 && steps[0].Lower == 0
                          && steps.Zip(steps.Skip(1), (a, b) => b.Lower == a.Highest + 1 && a.Highest >= a.Lower).All(ok => ok);
        Check(contiguous, what + ": contiguous steps from 0");
        if (!contiguous) return;
        var expected = new ulong[steps.Count];
        foreach (var b in buckets)
        {
            ulong m = Midpoint(b);
            int lo = 0, hi = steps.Count - 1;
            while (lo < hi) { int mid = (lo + hi) / 2; if (steps[mid].Highest < m) lo = mid + 1; else hi = mid; }
            if (steps[lo].Lower <= m && m <= steps[lo].Highest) expected[lo] += b.Count;
        }
        var bad = new Mismatches();
        ulong cumulative = 0;
        for (int i = 0; i < steps.Count; i++)
        {
            cumulative += steps[i].Count;
            var s = steps[i];
            bool ok = s.Count == expected[i] && s.CumulativeCount == cumulative
                      && Math.Abs(s.Percentile - 100.0 * cumulative / h.TotalCount) <= 1e-9;
            bad.Note(!ok, () => string.Format("step {0} {1}: expected count {2}", i, s, expected[i]));
        }
        bad.CheckNone(what + ": each bucket's count in the step holding its midpoint; ");
        Equal(h.TotalCount, cumulative, what + ": the steps hold every count");
        ulong top = Midpoint(buckets.Last());
        Check(steps.Last().Lower <= top && top <= steps.Last().Highest, what + ": the last step holds the top bucket's midpoint");
    }

    static void Steps()
    {
        using (var h = new HdrHistogram(0.01))
        {
            var r = new Random(81);
            h.RecordMany(Enumerable.Range(0, 20000).Select(_ => (ulong)Math.Exp(r.NextDouble() * Math.Log(300000))).ToArray());
            foreach (ulong width in new ulong[] { 1, 7, 1000, 4096 })
            {
                var steps = h.LinearSteps(width).ToList();
                Check(steps.All(s => s.Highest - s.Lower + 1 == width), "linear steps of " + width + " are " + width + " wide");
                CheckSteps(h, steps, "linear steps of " + width);
            }
            var one = h.LinearSteps(1UL << 40).ToList();
            Check(one.Count == 1 && one[0].Count == h.TotalCount && one[0].Percentile == 100, "one wide step holds everything");
            foreach (var fb in new[] { Tuple.Create(1UL, 2.0), Tuple.Create(10UL, 1.5), Tuple.Create(1000UL, 10.0), Tuple.Create(3UL, 1.01) })
            {
                var steps = h.LogarithmicSteps(fb.Item1, fb.Item2).ToList();
                string what = string.Format("log steps ({0}, {1})", fb.Item1, fb.Item2);
                Check(steps.Count > 1 && steps[0].Highest == fb.Item1 - 1, what + ": the first step is [0, first)");
                // Step k ends at first·base^k rounded up, and at least one past its start.
                Func<int, double, ulong> end = (k, wiggle) => Math.Max(steps[k].Lower + 1, (ulong)Math.Ceiling(fb.Item1 * Math.Pow(fb.Item2, k) * wiggle));
                Check(Enumerable.Range(1, steps.Count - 1).All(k => steps[k].Highest + 1 == end(k, 1 - 1e-12) || steps[k].Highest + 1 == end(k, 1 + 1e-12)),
                      what + ": step k ends at max(ceil(first·base^k), its start + 1)");
                CheckSteps(h, steps, what);
            }
            var lazy = h.LinearSteps(0);   // nothing happens until the enumeration starts
            Throws(Status.InvalidArgument, () => lazy.ToList(), "linear steps of width 0");
            Throws(Status.InvalidArgument, () => h.LogarithmicSteps(0, 2).ToList(), "log steps from 0");
            Throws(Status.InvalidArgument, () => h.LogarithmicSteps(10, 1.0).ToList(), "log steps of base 1");
            Throws(Status.InvalidArgument, () => h.LogarithmicSteps(10, 0.5).ToList(), "log steps of base 0.5");
            Throws(Status.InvalidArgument, () => h.LogarithmicSteps(10, double.NaN).ToList(), "log steps of base NaN");
            Throws(Status.InvalidArgument, () => h.LogarithmicSteps(10, double.PositiveInfinity).ToList(), "log steps of base ∞");
            var raw = new HistogramStep[4];
            ulong cursor = 0;
            UIntPtr written;
            Equal(Status.InvalidArgument, Native.picollo_histogram_linear_steps(h.Handle, 10, ref cursor, raw, UIntPtr.Zero, out written), "steps with cap 0");
            Equal(Status.Ok, Native.picollo_histogram_linear_steps(h.Handle, 100000, ref cursor, raw, new UIntPtr(2), out written), "a raw batch");
            Check(written.ToUInt64() == 2 && cursor == 2 && raw[1].Lower == 100000, "the raw batch: two steps, the cursor past them");
            int more = 0;
            while (Native.picollo_histogram_linear_steps(h.Handle, 100000, ref cursor, raw, new UIntPtr(1), out written) == Status.Ok) more++;
            Check(more >= 1 && cursor == (ulong)h.LinearSteps(100000).Count(), "raw batches to the end, then OUT_OF_RANGE");
        }
        using (var h = new HdrHistogram(0.01))
        {
            Equal(0, h.LinearSteps(10).Count(), "an empty histogram has no step");
            h.Record(0, 5);
            var steps = h.LinearSteps(10).ToList();
            Check(steps.Count == 1 && steps[0].Lower == 0 && steps[0].Highest == 9 && steps[0].Count == 5, "zeros: one step");
        }
    }

    static void TextFormats()
    {
        using (var h = new HdrHistogram(0.01))
        {
            h.RecordMany(QueryValues(91, 1000));
            Equal(h.Table("T"), h.ToText(TextFormat.Table, "T"), "text format Table is the table");
            Equal(h.Table(), h.ToText(TextFormat.Table), "text format Table without a title");
            var s = h.GetSummary();
            Equal(s.Line("n"), h.ToText(TextFormat.OneLine, "n"), "text format OneLine is the summary line");
            Equal(s.Json(), h.ToText(TextFormat.Json, "ignored"), "text format Json is the summary JSON");
            Throws(Status.InvalidArgument, () => h.ToText((TextFormat)7), "unknown text format");
        }
    }

    /// <summary>floor(log2 x) of a nonzero x.</summary>
    static int Log2(ulong x)
    {
        int top = 0;
        for (int shift = 32; shift > 0; shift >>= 1)
            if ((x >> shift) != 0) { x >>= shift; top += shift; }
        return top;
    }

    /// <summary>The header's picollo_recorder_index, in C#: the logical index of the bucket of
    /// <paramref name="value"/> in the recorder's layout. ORing in 2^FineScale (block size
    /// times unit) makes the operand nonzero and puts the values below twice that in
    /// unit-wide buckets.</summary>
    static ulong RecorderIndex(ref RecorderData r, ulong value)
    {
        int scale = (int)r.BlockScale;
        ulong operand = value | (1UL << (int)r.FineScale);
        int step = Log2(operand) - scale;
        return ((ulong)step << scale) + (value >> step);
    }

    /// <summary>The header's inline picollo_recorder_record, in C#: count the bucket in place
    /// when it is in range and below the limit, else call the recorder's function.</summary>
    static unsafe void RecordInline(ref RecorderData r, Native.RecordFn call, ulong value)
    {
        if (r.Kind != (uint)RecorderKind.Call)
        {
            ulong offset = RecorderIndex(ref r, value) - r.FirstIndex;
            if (offset < r.Len)
            {
                // PLAIN: a load, then a store of one more below the limit. ATOMIC: add first; an
                // add that finds the limit is taken back and the value goes through the call.
                if (r.CounterBits == 32)
                {
                    int* cell = (int*)r.Cells + offset;
                    if (r.Kind == (uint)RecorderKind.Plain)
                    {
                        uint count = (uint)System.Threading.Volatile.Read(ref *cell);
                        if (count < r.Limit) { System.Threading.Volatile.Write(ref *cell, (int)(count + 1)); return; }
                    }
                    else
                    {
                        if ((uint)System.Threading.Interlocked.Increment(ref *cell) - 1 < r.Limit) return;
                        System.Threading.Interlocked.Decrement(ref *cell);
                    }
                }
                else
                {
                    long* cell = (long*)r.Cells + offset;
                    if (r.Kind == (uint)RecorderKind.Plain)
                    {
                        ulong count = (ulong)System.Threading.Volatile.Read(ref *cell);
                        if (count < r.Limit) { System.Threading.Volatile.Write(ref *cell, (long)(count + 1)); return; }
                    }
                    else
                    {
                        if ((ulong)System.Threading.Interlocked.Increment(ref *cell) - 1 < r.Limit) return;
                        System.Threading.Interlocked.Decrement(ref *cell);
                    }
                }
            }
        }
        call(r.Histogram, value);
    }

    static void FastRecordPaths()
    {
        var values = QueryValues(101, 20000).Concat(new ulong[] { 0, 5, 9, 2000000, ulong.MaxValue }).ToArray();
        foreach (int bits in new[] { 32, 64 })
            foreach (ConcurrencyMode mode in Enum.GetValues(typeof(ConcurrencyMode)))
            {
                string what = string.Format("{0}-bit {1}", bits, mode);
                using (var viaFn = new HdrHistogram(0.01, 10, 1000000, bits, mode: mode))
                using (var viaRecorder = new HdrHistogram(0.01, 10, 1000000, bits, mode: mode))
                using (var reference = new HdrHistogram(0.01, 10, 1000000, bits))
                {
                    reference.RecordMany(values);
                    IntPtr fn = Native.picollo_histogram_record_fn(viaFn.Handle);
                    Check(fn != IntPtr.Zero, what + ": record_fn returns a function");
                    var record = (Native.RecordFn)Marshal.GetDelegateForFunctionPointer(fn, typeof(Native.RecordFn));
                    IntPtr raw = viaFn.Handle.DangerousGetHandle();
                    foreach (var v in values) record(raw, v);
                    Check(viaFn.TotalCount == reference.TotalCount && viaFn.UnderflowCount == reference.UnderflowCount
                          && viaFn.OverflowCount == reference.OverflowCount, what + ": record_fn counts like record");
                    if (mode != ConcurrencyMode.Approximate)
                        Check(viaFn.BucketsWithValues.SequenceEqual(reference.BucketsWithValues), what + ": record_fn fills the same buckets");

                    RecorderData r;
                    Equal(Status.Ok, Native.picollo_histogram_get_recorder(viaRecorder.Handle, Native.RecorderVersion, out r), what + ": recorder");
                    var info = viaRecorder.Info;
                    var kind = mode == ConcurrencyMode.Interlocked ? RecorderKind.Atomic : mode == ConcurrencyMode.Approximate ? RecorderKind.Call : RecorderKind.Plain;
                    Check(r.Histogram == viaRecorder.Handle.DangerousGetHandle() && r.Record != IntPtr.Zero && r.CounterBits == (uint)bits
                          && r.Kind == (uint)kind && r.FineScale == r.BlockScale && (1UL << (int)r.BlockScale) == info.BlockSize
                          && r.Len == info.StorageLength && (kind == RecorderKind.Call) == (r.Cells == IntPtr.Zero),
                          string.Format("{0}: recorder fields (kind {1}, len {2}, scale {3}, cells {4})", what, r.Kind, r.Len, r.BlockScale, r.Cells));
                    var call = (Native.RecordFn)Marshal.GetDelegateForFunctionPointer(r.Record, typeof(Native.RecordFn));
                    foreach (var v in values) RecordInline(ref r, call, v);
                    Check(viaRecorder.TotalCount == reference.TotalCount && viaRecorder.UnderflowCount == reference.UnderflowCount
                          && viaRecorder.OverflowCount == reference.OverflowCount, what + ": records through the recorder count like record");
                    if (mode != ConcurrencyMode.Approximate)
                        Check(viaRecorder.BucketsWithValues.SequenceEqual(reference.BucketsWithValues), what + ": the recorder fills the same buckets");
                }
            }
        RecorderData none;
        Equal(Status.NullPointer, Native.picollo_histogram_get_recorder(new HistogramHandle(), Native.RecorderVersion, out none), "recorder of a NULL handle");
    }

    /// <summary>The recorder versions: 2 (this header's arithmetic) gives a direct path with a
    /// unit; 1, the legacy picollo_histogram_recorder, only for unit 1; 0 and newer ones are refused.</summary>
    static void RecorderVersions()
    {
        using (var unit = new HdrHistogram(0.01, lowestDiscernible: 1000))
        using (var exact = new HdrHistogram(0.01))
        {
            RecorderData legacy, current;
            Equal(512ul, unit.Unit, "lowest discernible 1000: unit 512");
            Equal(Status.Ok, Native.picollo_histogram_recorder(unit.Handle, out legacy), "legacy recorder, unit 512");
            Check(legacy.Kind == (uint)RecorderKind.Call && legacy.Cells == IntPtr.Zero,
                  "legacy recorder, unit 512: CALL (its arithmetic knows no unit), kind " + legacy.Kind);
            Equal(Status.Ok, Native.picollo_histogram_get_recorder(unit.Handle, Native.RecorderVersion, out current), "recorder version 2, unit 512");
            Check(current.Kind == (uint)RecorderKind.Plain && current.Cells != IntPtr.Zero && current.FineScale == current.BlockScale + 9,
                  string.Format("recorder version 2, unit 512: PLAIN with fine scale block scale + 9 (kind {0}, scales {1}, {2})",
                                current.Kind, current.BlockScale, current.FineScale));
            Equal(Status.Ok, Native.picollo_histogram_recorder(exact.Handle, out legacy), "legacy recorder, unit 1");
            Check(legacy.Kind == (uint)RecorderKind.Plain && legacy.Cells != IntPtr.Zero && legacy.FineScale == legacy.BlockScale,
                  "legacy recorder, unit 1: PLAIN, kind " + legacy.Kind);
            Equal(Status.InvalidArgument, Native.picollo_histogram_get_recorder(exact.Handle, 0, out current), "recorder version 0");
            Equal(Status.Unsupported, Native.picollo_histogram_get_recorder(exact.Handle, Native.RecorderVersion + 1, out current), "recorder version 3");
        }
    }

    static void QueryGroups()
    {
        Group("queries: layout", QueryLayout);
        Group("queries: rank and count", RankAndCountQueries);
        Group("queries: equivalent ranges", EquivalentRanges);
        Group("queries: downsample and add_rebinned", DownsampleAndRebin);
        Group("queries: steps", Steps);
        Group("queries: text formats", TextFormats);
        Group("queries: record_fn and recorder", FastRecordPaths);
        Group("queries: recorder versions", RecorderVersions);
    }
}
