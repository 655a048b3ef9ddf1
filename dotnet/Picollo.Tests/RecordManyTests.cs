// RecordMany over spans: ulong, long, double and float spans (whole arrays and slices) give
// what one Record a value gives; a negative long throws and records nothing. Prints
// "bench csharp record_many: span=<ns> bare=<ns> record=<ns> span_over_bare=<r>", ns a value:
// the span call and the C function called bare on the same pinned array of 10^6 values, and a
// loop of Record over 10^5 of them (figures only, never asserted).
using System;
using System.Diagnostics;
using Picollo;
using Picollo.Metrics;

static partial class Tests
{
    static void RecordManyGroups()
    {
        Group("RecordMany spans against Record", RecordManySpans);
        Group("RecordMany of doubles and floats against Record", RecordManyFloatSpans);
        Group("RecordMany of a negative long", RecordManyNegative);
        Group("RecordMany figures", RecordManyFigures);
    }

    static ulong[] ManyValues(int n, int seed)
    {
        var rng = new Random(seed);
        var values = new ulong[n];
        for (int i = 0; i < n; i++)
        {
            double r = rng.NextDouble();
            values[i] = (ulong)(r * r * r * 7716549600.0);
        }
        values[0] = 0;             // underflow of the range below
        values[1] = 9000000000UL;  // overflow
        return values;
    }

    static HdrHistogram ManyHistogram() { return new HdrHistogram(0.01, 1000, 7716549600, counterBits: 32); }

    static bool SameHistogram(HdrHistogram a, HdrHistogram b)
    {
        return a.Info.Equals(b.Info) && a.Table() == b.Table();
    }

    static void RecordManySpans()
    {
        ulong[] values = ManyValues(5000, 11);
        var signed = new long[values.Length];
        for (int i = 0; i < values.Length; i++) signed[i] = (long)values[i];
        using (var one = ManyHistogram())
        using (var whole = ManyHistogram())
        using (var slices = ManyHistogram())
        using (var longs = ManyHistogram())
        using (var arrays = ManyHistogram())
        {
            foreach (ulong v in values) one.Record(v);
            whole.RecordMany(new ReadOnlySpan<ulong>(values));
            slices.RecordMany(new ReadOnlySpan<ulong>(values, 0, 1234));
            slices.RecordMany(new ReadOnlySpan<ulong>(values).Slice(1234));
            slices.RecordMany(ReadOnlySpan<ulong>.Empty);
            longs.RecordMany(new ReadOnlySpan<long>(signed));
            arrays.RecordMany(values, 0, 100);
            arrays.RecordMany(values, 100, values.Length - 100);
            Check(one.Info.Underflow >= 1 && one.Info.Overflow == 1, "the values reach both ends");
            Check(SameHistogram(whole, one), "RecordMany(ReadOnlySpan<ulong>) counts what Record counts");
            Check(SameHistogram(slices, one), "RecordMany of slices counts what Record counts");
            Check(SameHistogram(longs, one), "RecordMany(ReadOnlySpan<long>) counts what Record counts");
            Check(SameHistogram(arrays, one), "RecordMany(ulong[], offset, count) counts what Record counts");
        }
    }

    static void RecordManyFloatSpans()
    {
        var rng = new Random(13);
        var doubles = new double[4000];
        for (int i = 0; i < doubles.Length; i++) doubles[i] = (rng.NextDouble() - 0.3) * 1e4;
        doubles[0] = double.NaN;
        doubles[1] = double.PositiveInfinity;
        doubles[2] = double.NegativeInfinity;
        doubles[3] = 0.0;
        doubles[4] = 1e300; // beyond a float: +∞ as a float
        var floats = new float[doubles.Length];
        for (int i = 0; i < doubles.Length; i++) floats[i] = (float)doubles[i];
        using (var oneD = new FloatHistogram(0.001))
        using (var manyD = new FloatHistogram(0.001))
        using (var oneF = new FloatHistogram(0.001))
        using (var manyF = new FloatHistogram(0.001))
        {
            foreach (double x in doubles) oneD.Record(x);
            manyD.RecordMany(new ReadOnlySpan<double>(doubles, 0, 2500));
            manyD.RecordMany(new ReadOnlySpan<double>(doubles, 2500, doubles.Length - 2500));
            foreach (float x in floats) oneF.RecordSingle(x);
            manyF.RecordMany(new ReadOnlySpan<float>(floats));
            Check(oneD.Info.NaN == 1 && oneF.Info.PositiveInfinity == 2, "NaN and ±∞ reach the histograms");
            Check(manyD.Info.Equals(oneD.Info) && manyD.Table() == oneD.Table(),
                  "RecordMany(ReadOnlySpan<double>) counts what Record counts");
            Check(manyF.Info.Equals(oneF.Info) && manyF.Table() == oneF.Table(),
                  "RecordMany(ReadOnlySpan<float>) counts what RecordSingle counts");
        }
    }

    static void RecordManyNegative()
    {
        using (var h = ManyHistogram())
        {
            h.RecordMany(new long[] { 5000, 6000 });
            var before = h.Info;
            Throws(Status.InvalidArgument, () => h.RecordMany(new long[] { 7000, -1, 8000 }), "a negative long");
            Throws(Status.InvalidArgument, () => h.RecordMany(new long[] { long.MinValue }), "long.MinValue");
            Check(h.Info.Equals(before), "a refused RecordMany records nothing");
        }
    }

    /// <summary>Nanoseconds a value of the best of 7 calls of <paramref name="call"/> over n values.</summary>
    static double BestNanosPerValue(int n, Action call)
    {
        double best = double.MaxValue;
        for (int round = 0; round < 7; round++)
        {
            var watch = Stopwatch.StartNew();
            call();
            best = Math.Min(best, watch.Elapsed.TotalMilliseconds * 1e6 / n);
        }
        return best;
    }

    static unsafe void BareRecordMany(HdrHistogram h, ulong[] values)
    {
        fixed (ulong* p = values)
            Native.picollo_histogram_record_many(h.Handle, p, new UIntPtr((uint)values.Length));
    }

    static void RecordManyFigures()
    {
        ulong[] values = ManyValues(1000000, 17);
        using (var span = ManyHistogram())
        using (var bare = ManyHistogram())
        using (var each = ManyHistogram())
        {
            double spanNs = 0, bareNs = 0;
            for (int turn = 0; turn < 2; turn++) // taking turns: neither runs only on a cold cache
            {
                spanNs = BestNanosPerValue(values.Length, () => span.RecordMany(new ReadOnlySpan<ulong>(values)));
                bareNs = BestNanosPerValue(values.Length, () => BareRecordMany(bare, values));
            }
            const int some = 100000; // a loop of Record costs far more a value: fewer of them
            double recordNs = BestNanosPerValue(some, () => { for (int i = 0; i < some; i++) each.Record(values[i]); });
            Check(span.Info.Equals(bare.Info), "the span call and the bare call counted the same");
            Console.WriteLine(string.Format(System.Globalization.CultureInfo.InvariantCulture,
                "bench csharp record_many: span={0:F2} bare={1:F2} record={2:F2} span_over_bare={3:F2}",
                spanNs, bareNs, recordNs, spanNs / bareNs));
        }
    }
}
