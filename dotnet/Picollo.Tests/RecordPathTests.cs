// Tests of the record paths and of the C# copies of the layout arithmetic. The copies (the
// header's picollo_recorder_index as QueryTests.cs ports it, Metrics/BucketLayout.cs) are
// checked against the layout's own answers: the table core/examples/layout_table.rs prints,
// in the file PICOLLO_LAYOUT_TABLE names (c-tests/csharp/run.sh makes it). Every record method
// of HdrHistogram and FloatHistogram, the record function and the inline recorder are checked
// against plain Record over random configurations and values. Part of the Tests program
// (Tests.cs holds Main and the check helpers).

using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using Picollo;
using Picollo.Metrics;

static partial class Tests
{
    // ---- the layout table ------------------------------------------------------------------

    /// <summary>One row: a configuration, a value, the value's logical index and its bucket.</summary>
    struct LayoutRow
    {
        public string RelativeErrorText;
        public double RelativeError;
        public ulong Lowest, BlockSize, Unit, Value, Index, Lower, Highest;
    }

    static List<LayoutRow> ReadLayoutTable(string path)
    {
        var rows = new List<LayoutRow>();
        foreach (var line in File.ReadLines(path))
        {
            if (line.Length == 0 || line[0] == '#') continue;
            var f = line.Split('\t');
            if (f.Length != 8) throw new FormatException("layout table: not 8 fields: " + line);
            Func<int, ulong> u = i => ulong.Parse(f[i], NumberStyles.None, CultureInfo.InvariantCulture);
            rows.Add(new LayoutRow
            {
                RelativeErrorText = f[0],
                RelativeError = double.Parse(f[0], NumberStyles.Float, CultureInfo.InvariantCulture),
                Lowest = u(1), BlockSize = u(2), Unit = u(3), Value = u(4), Index = u(5), Lower = u(6), Highest = u(7),
            });
        }
        return rows;
    }

    /// <summary>For every row, a sparse full-range histogram of the row's relative error and
    /// lowest discernible value: its recorder (version 2) through <see cref="RecorderIndex"/>
    /// gives the row's index, BucketLayout gives that index's bucket bounds, and the library's
    /// equivalent range of the value is the same bucket.</summary>
    static void LayoutTable()
    {
        string path = Environment.GetEnvironmentVariable("PICOLLO_LAYOUT_TABLE");
        if (string.IsNullOrEmpty(path))
        {
            Console.WriteLine("layout table: SKIPPED (PICOLLO_LAYOUT_TABLE not set; c-tests/csharp/run.sh sets it)");
            return;
        }
        if (!File.Exists(path))
        {
            Check(false, "layout table: no file " + path + " (PICOLLO_LAYOUT_TABLE)");
            return;
        }
        var rows = ReadLayoutTable(path);
        int configs = 0, withUnit = 0;
        Mismatches badConfig = new Mismatches(), badIndex = new Mismatches(), badLayout = new Mismatches(), badRange = new Mismatches();
        int at = 0;
        while (at < rows.Count)
        {
            var c = rows[at];
            int end = at;
            while (end < rows.Count && rows[end].RelativeErrorText == c.RelativeErrorText && rows[end].Lowest == c.Lowest) end++;
            configs++;
            if (c.Unit > 1) withUnit++;
            string config = string.Format("error {0}, lowest discernible {1}", c.RelativeErrorText, c.Lowest);
            using (var h = new HdrHistogram(c.RelativeError, storage: HistogramStorage.Sparse, lowestDiscernible: c.Lowest))
            {
                RecorderData r;
                Status st = Native.picollo_histogram_get_recorder(h.Handle, Native.RecorderVersion, out r);
                ulong blockSize = h.Info.BlockSize, unit = h.Unit;
                bool configOk = st == Status.Ok && blockSize == c.BlockSize && unit == c.Unit
                                && (1UL << (int)r.BlockScale) == blockSize && (1UL << (int)(r.FineScale - r.BlockScale)) == unit;
                badConfig.Note(!configOk, () => string.Format("{0}: status {1}, block size {2} (table {3}), unit {4} (table {5}), scales {6}, {7}",
                                                              config, st, blockSize, c.BlockSize, unit, c.Unit, r.BlockScale, r.FineScale));
                var layout = new BucketLayout(blockSize, unit);
                for (int i = at; i < end; i++)
                {
                    var row = rows[i];
                    ulong index = RecorderIndex(ref r, row.Value);
                    badIndex.Note(index != row.Index, () => string.Format("{0}, value {1}: index {2}, table {3}", config, row.Value, index, row.Index));
                    var b = layout.At(row.Index, 0);
                    badLayout.Note(b.Lower != row.Lower || b.Highest != row.Highest || b.LogicalIndex != row.Index,
                                   () => string.Format("{0}, index {1}: [{2}, {3}], table [{4}, {5}]", config, row.Index, b.Lower, b.Highest, row.Lower, row.Highest));
                    ulong lo, hi;
                    h.GetEquivalentRange(row.Value, out lo, out hi);
                    badRange.Note(lo != row.Lower || hi != row.Highest,
                                  () => string.Format("{0}, value {1}: [{2}, {3}], table [{4}, {5}]", config, row.Value, lo, hi, row.Lower, row.Highest));
                }
            }
            at = end;
        }
        Console.WriteLine("layout table: {0:N0} rows, {1} configurations ({2} with a unit > 1): {3} config, {4} recorder index, "
                          + "{5} BucketLayout bounds, {6} equivalent range mismatches", rows.Count, configs, withUnit,
                          badConfig.Count, badIndex.Count, badLayout.Count, badRange.Count);
        Check(rows.Count > 0 && withUnit > 0, "layout table: rows with a unit > 1 in " + path);
        badConfig.CheckNone("layout table: the histogram and its recorder have the table's block size and unit; ");
        badIndex.CheckNone("layout table: the C# recorder index (picollo_recorder_index) is the table's index; ");
        badLayout.CheckNone("layout table: BucketLayout.At(index) has the table's bounds; ");
        badRange.CheckNone("layout table: the equivalent range of the value is the table's bucket; ");
    }

    // ---- integer record paths --------------------------------------------------------------

    static ulong RandomWord(Random r)
    {
        var bytes = new byte[8];
        r.NextBytes(bytes);
        return BitConverter.ToUInt64(bytes, 0);
    }

    /// <summary>A random word shifted right by 0..63: every magnitude alike.</summary>
    static ulong RandomMagnitude(Random r) { return RandomWord(r) >> r.Next(64); }

    static double LogUniformIn(Random r, double lo, double hi) { return Math.Exp(Math.Log(lo) + r.NextDouble() * (Math.Log(hi) - Math.Log(lo))); }

    /// <summary>Uniform-ish in [lo, hi].</summary>
    static ulong Between(Random r, ulong lo, ulong hi)
    {
        ulong span = hi - lo + 1;
        return span == 0 ? RandomWord(r) : lo + RandomWord(r) % span;
    }

    /// <summary>Every value through <paramref name="recordMany"/> (a RecordMany(values, offset,
    /// count)), in consecutive slices of 0 to 299 values.</summary>
    static void RecordInSlices<T>(T[] values, Random rng, Action<T[], int, int> recordMany)
    {
        for (int i = 0; i < values.Length;)
        {
            int n = Math.Min(values.Length - i, rng.Next(0, 300));
            recordMany(values, i, n);
            i += n;
        }
    }

    enum IntPath { Record, RecordN, RecordMany, RecordManySlices, RecordCorrectedNoOp, RecordCorrected, RecordFn, Recorder, LegacyRecorder }

    /// <summary>What a histogram holds, for comparing: every non-empty bucket and the counts
    /// beside them; apart, the exact extremes where it keeps them.</summary>
    static string IntState(HdrHistogram h, out List<Bucket> buckets, out string extremes)
    {
        buckets = h.BucketsWithValues.ToList();
        var i = h.Info;
        ulong min, max;
        extremes = !h.ExactExtremes ? "none kept" : h.TryGetRecordedExtremes(out min, out max) ? min + ".." + max : "none recorded";
        return string.Format("total {0}, underflow {1}, overflow {2}, saturated {3}", i.Total, i.Underflow, i.Overflow, i.Saturated);
    }

    static void RecordThroughRecorder(HdrHistogram h, int version, ulong[] expanded)
    {
        RecorderData r;
        Status st = version == 1 ? Native.picollo_histogram_recorder(h.Handle, out r)
                                 : Native.picollo_histogram_get_recorder(h.Handle, (uint)version, out r);
        PicolloException.Check(st);
        var call = (Native.RecordFn)Marshal.GetDelegateForFunctionPointer(r.Record, typeof(Native.RecordFn));
        foreach (var v in expanded) RecordInline(ref r, call, v);
    }

    /// <summary>Random integer configurations (relative error log-uniform in 1e-6..0.1, lowest
    /// discernible 1 or log-uniform up to 2^23, a random range shrunk until the storage holds
    /// at most 2^15 counters, every mode, 32- and 64-bit counters, dense and sparse storage,
    /// exact extremes sometimes, buckets filled near their counter's limit sometimes), each
    /// recording the same values, each 1 to 3 times, through every path: every path's buckets,
    /// counts and extremes must be plain Record's (RecordCorrected with corrections: those of
    /// Record of the value and of each value the correction adds).</summary>
    static void IntRecordPaths()
    {
        const int Configs = 240, RandomValues = 1300;
        var rng = new Random(141);
        var paths = (IntPath[])Enum.GetValues(typeof(IntPath));
        var bad = Mismatches.Each(paths.Length);
        var badExtremes = Mismatches.Each(paths.Length);
        int sparse = 0, withUnit = 0, withExtremes = 0, prefilled = 0, saturating = 0, direct = 0;
        long records = 0;
        var modes = new int[4];
        var bitsSeen = new int[2];
        for (int k = 0; k < Configs; k++)
        {
            double error = LogUniformIn(rng, 1e-6, 0.1);
            ulong lowest = rng.Next(4) == 0 ? 1 : Math.Max(1, (ulong)LogUniformIn(rng, 1, 1 << 23));
            int bits = rng.Next(2) == 0 ? 32 : 64;
            var mode = (ConcurrencyMode)rng.Next(4);
            // T of 20 or more: every bucket stays below 2^T, where the approximate mode counts exactly.
            uint approx = mode == ConcurrencyMode.Approximate ? (uint)rng.Next(20, 63) : 0;
            var storage = mode != ConcurrencyMode.ThreadLocal && rng.Next(3) == 0 ? HistogramStorage.Sparse : HistogramStorage.Dense;
            bool extremes = rng.Next(4) == 0;
            ulong a = RandomMagnitude(rng), b = RandomMagnitude(rng);
            ulong min = rng.Next(3) == 0 ? 0 : Math.Min(a, b), max = rng.Next(3) == 0 ? ulong.MaxValue : Math.Max(a, b);
            Func<HdrHistogram> make = () => new HdrHistogram(error, min, max, bits, ValueSelection.Midpoint, mode, approx, storage, extremes, lowest);
            // Shrink the range from either end until the storage is small (a sparse probe: no counters made).
            for (;;)
            {
                ulong len;
                using (var probe = new HdrHistogram(error, min, max, storage: HistogramStorage.Sparse, lowestDiscernible: lowest))
                    len = probe.Info.StorageLength;
                if (len <= 1 << 15) break;
                ulong half = (max - min) / 2;
                if (rng.Next(2) == 0) max = min + half; else min = max - half;
            }
            modes[(int)mode]++;
            bitsSeen[bits / 32 - 1]++;
            if (storage == HistogramStorage.Sparse) sparse++;
            if (extremes) withExtremes++;
            string config = string.Format("error {0:R}, lowest discernible {1}, [{2}, {3}], {4}-bit {5}{6}, {7}{8}", error, lowest, min, max, bits, mode,
                                          approx != 0 ? " T=" + approx : "", storage, extremes ? ", exact extremes" : "");

            var hs = paths.Select(_ => make()).ToArray();
            var correctedReference = make();
            try
            {
                ulong unit = hs[0].Unit, block = hs[0].Info.BlockSize;
                if (unit > 1) withUnit++;
                // The values: 0, the top, powers of two and their neighbours, the unit's, the
                // blocks' and the range's edges, then random ones anywhere, in the range and
                // among the unit-wide buckets.
                var values = new List<ulong> { 0, ulong.MaxValue };
                // Sometimes buckets filled near their counter's limit (below): values into them saturate.
                var nearLimit = new List<ulong>();
                if (bits == 32 && mode != ConcurrencyMode.Approximate && rng.Next(3) == 0)
                    for (int i = 0; i < 3; i++) nearLimit.Add(Between(rng, min, max));
                values.AddRange(nearLimit);
                for (int bit = 0; bit < 64; bit++) { ulong p = 1UL << bit; values.Add(p - 1); values.Add(p); values.Add(p + 1); }
                foreach (ulong edge in new[] { unit, block * unit, 2 * block * unit, 4 * block * unit, min, max })
                { values.Add(edge - 1); values.Add(edge); values.Add(edge + 1); }
                for (int i = 0; i < RandomValues; i++)
                {
                    int where = rng.Next(3);
                    values.Add(where == 0 ? RandomMagnitude(rng) : where == 1 ? Between(rng, min, max) : Between(rng, 0, 4 * block * unit));
                }
                var counts = values.Select(_ => rng.Next(1, 4)).ToArray();
                var expanded = values.SelectMany((v, i) => Enumerable.Repeat(v, counts[i])).ToArray();
                // Intervals that add no value (0, the value, above it), and every eighth value one
                // that adds up to 31 corrections.
                var noOp = values.Select(v => rng.Next(3) == 0 ? 0 : rng.Next(2) == 0 || v == ulong.MaxValue ? v : v + 1 + Between(rng, 0, ulong.MaxValue - v - 1)).ToArray();
                var intervals = values.Select((v, i) => i % 8 == 7 ? v >> rng.Next(1, 5) : 0).ToArray();
                if (nearLimit.Count > 0)
                {
                    prefilled++;
                    ulong ceiling = mode == ConcurrencyMode.Interlocked ? uint.MaxValue - (1UL << 22) : uint.MaxValue;
                    foreach (var v in nearLimit)
                        foreach (var h in hs.Concat(new[] { correctedReference })) h.Record(v, ceiling - 1);
                }

                var fn = Native.picollo_histogram_record_fn(hs[(int)IntPath.RecordFn].Handle);
                var recordFn = (Native.RecordFn)Marshal.GetDelegateForFunctionPointer(fn, typeof(Native.RecordFn));
                RecorderData probeRecorder;
                PicolloException.Check(Native.picollo_histogram_get_recorder(hs[(int)IntPath.Recorder].Handle, Native.RecorderVersion, out probeRecorder));
                if (probeRecorder.Kind != (uint)RecorderKind.Call) direct++;
                foreach (var p in paths)
                {
                    var h = hs[(int)p];
                    switch (p)
                    {
                        case IntPath.Record: foreach (var v in expanded) h.Record(v); break;
                        case IntPath.RecordN: for (int i = 0; i < values.Count; i++) h.Record(values[i], (ulong)counts[i]); break;
                        case IntPath.RecordMany: h.RecordMany(expanded); break;
                        case IntPath.RecordManySlices: RecordInSlices(expanded, rng, h.RecordMany); break;
                        case IntPath.RecordCorrectedNoOp:
                            for (int i = 0; i < values.Count; i++)
                                for (int c = 0; c < counts[i]; c++) h.RecordCorrected(values[i], noOp[i]);
                            break;
                        case IntPath.RecordCorrected:
                            for (int i = 0; i < values.Count; i++)
                                for (int c = 0; c < counts[i]; c++)
                                {
                                    h.RecordCorrected(values[i], intervals[i]);
                                    // What it means: the value, and value − k·interval (k ≥ 1) while at least the interval.
                                    correctedReference.Record(values[i]);
                                    if (intervals[i] != 0)
                                        for (ulong v = values[i] - intervals[i]; v >= intervals[i]; v -= intervals[i]) correctedReference.Record(v);
                                }
                            break;
                        case IntPath.RecordFn:
                            IntPtr raw = h.Handle.DangerousGetHandle();
                            foreach (var v in expanded) recordFn(raw, v);
                            break;
                        case IntPath.Recorder: RecordThroughRecorder(h, (int)Native.RecorderVersion, expanded); break;
                        case IntPath.LegacyRecorder: RecordThroughRecorder(h, 1, expanded); break;
                    }
                }
                records += expanded.Length;

                List<Bucket> refBuckets, correctedBuckets;
                string refExtremes, correctedExtremes;
                string refState = IntState(hs[0], out refBuckets, out refExtremes);
                string correctedState = IntState(correctedReference, out correctedBuckets, out correctedExtremes);
                if (hs[0].SaturatedCount > 0) saturating++;
                foreach (var p in paths.Skip(1))
                {
                    List<Bucket> buckets;
                    string pathExtremes;
                    string state = IntState(hs[(int)p], out buckets, out pathExtremes);
                    bool corrected = p == IntPath.RecordCorrected;
                    string want = corrected ? correctedState : refState, wantExtremes = corrected ? correctedExtremes : refExtremes;
                    var wantBuckets = corrected ? correctedBuckets : refBuckets;
                    badExtremes[(int)p].Note(pathExtremes != wantExtremes, () => string.Format("{0}: {1}, Record {2}", config, pathExtremes, wantExtremes));
                    bad[(int)p].Note(state != want || !buckets.SequenceEqual(wantBuckets), () =>
                    {
                        int same = 0;
                        while (same < buckets.Count && same < wantBuckets.Count && buckets[same].Equals(wantBuckets[same])) same++;
                        return string.Format("{0}: {1}, Record {2}; {3} buckets, Record {4}, first difference {5} vs {6}", config, state, want,
                                             buckets.Count, wantBuckets.Count, same < buckets.Count ? buckets[same].ToString() : "none",
                                             same < wantBuckets.Count ? wantBuckets[same].ToString() : "none");
                    });
                }
            }
            finally
            {
                foreach (var h in hs) h.Dispose();
                correctedReference.Dispose();
            }
        }
        Console.WriteLine("record paths: {0} integer configurations (single writer {1}, interlocked {2}, thread-local {3}, approximate {4}; "
                          + "32-bit {5}, 64-bit {6}; sparse {7}; unit > 1 {8}; exact extremes {9}; direct recorders {10}; near the limit {11}, saturating {12}), "
                          + "{13:N0} records per path, {14} paths: {15} mismatches",
                          Configs, modes[0], modes[1], modes[2], modes[3], bitsSeen[0], bitsSeen[1], sparse, withUnit, withExtremes, direct,
                          prefilled, saturating, records, paths.Length - 1, bad.Sum(m => m.Count) + badExtremes.Sum(m => m.Count));
        foreach (var p in paths.Skip(1))
        {
            bad[(int)p].CheckNone("record paths: " + p + ": the buckets and counts of Record; ", "configurations differ");
            badExtremes[(int)p].CheckNone("record paths: " + p + ": the exact extremes of Record; ", "configurations differ");
        }
        Check(withUnit > 0 && direct > 0 && saturating > 0 && sparse > 0 && withExtremes > 0,
              "record paths: the configurations include units, direct recorders, saturation, sparse storage and exact extremes");
    }

    // ---- float record paths ----------------------------------------------------------------

    enum FloatPath { Record, RecordN, RecordManySpan, RecordManySlices, RecordSingleReference, RecordSingle, RecordManySingle }

    static double Ulps(double x, int ulps) { return BitConverter.Int64BitsToDouble(BitConverter.DoubleToInt64Bits(x) + ulps); }

    static string Bits(double x) { return BitConverter.DoubleToInt64Bits(x).ToString("x16"); }

    /// <summary>What a float histogram holds but its sum, for comparing: every non-empty
    /// bucket, the counts beside them, the exact extremes.</summary>
    static string FloatState(FloatHistogram h, out List<FloatBucket> buckets, out double sum)
    {
        buckets = h.BucketsWithValues.ToList();
        var i = h.Info;
        sum = i.Sum;
        return string.Format("total {0}, zero {1}, NaN {2}, +inf {3}, -inf {4}, underflow {5}, overflow {6}, saturated {7}, min {8}, max {9}",
                             i.Total, i.Zero, i.NaN, i.PositiveInfinity, i.NegativeInfinity, i.Underflow, i.Overflow, i.Saturated,
                             Bits(i.Min), Bits(i.Max));
    }

    /// <summary>Random float configurations (relative error log-uniform in 1e-6..0.1, a
    /// magnitude range narrowed until the storage holds at most 2^20 counters, both modes and
    /// counter widths, dense storage where it stays small, buckets near their limit sometimes),
    /// each recording the same values 1 to 3 times through every path: Record(double, n) and
    /// RecordMany (span, array slices) as Record; RecordSingle and RecordMany of floats as
    /// Record of the float widened.</summary>
    static void FloatRecordPaths()
    {
        const int Configs = 60, RandomValues = 1200;
        var rng = new Random(151);
        var paths = (FloatPath[])Enum.GetValues(typeof(FloatPath));
        var bad = Mismatches.Each(paths.Length);
        int dense = 0, interlocked = 0, narrow = 0, prefilled = 0, saturating = 0;
        long records = 0;
        for (int k = 0; k < Configs; k++)
        {
            double error = LogUniformIn(rng, 1e-6, 0.1);
            int bits = rng.Next(2) == 0 ? 32 : 64;
            var mode = (FloatConcurrencyMode)rng.Next(2);
            double minMag = double.Epsilon, maxMag = double.MaxValue;
            if (rng.Next(4) != 0)
            {
                minMag = Math.Pow(2, -rng.Next(0, 60)) * (1 + rng.NextDouble());
                maxMag = Math.Pow(2, rng.Next(0, 60)) * (1 + rng.NextDouble());
                if (minMag > maxMag) { double t = minMag; minMag = maxMag; maxMag = t; }
            }
            // Narrow the range, an octave at either end, until the storage is small.
            for (;;)
            {
                ulong len;
                using (var probe = new FloatHistogram(error, minMag, maxMag, storage: FloatStorage.Sparse))
                    len = probe.Info.StorageLen;
                if (len <= 1 << 20 || maxMag < 4 * minMag) break;
                if (rng.Next(2) == 0) maxMag /= 2; else minMag *= 2;
            }
            if (minMag != double.Epsilon || maxMag != double.MaxValue) narrow++;
            var storage = FloatStorage.Sparse;
            using (var probe = new FloatHistogram(error, minMag, maxMag, storage: FloatStorage.Sparse))
                if (probe.Info.StorageLen <= 1 << 18 && rng.Next(2) == 0) { storage = FloatStorage.Dense; dense++; }
            if (mode == FloatConcurrencyMode.Interlocked) interlocked++;
            string config = string.Format("error {0:R}, magnitudes {1:R}..{2:R}, {3}-bit {4}, {5}", error, minMag, maxMag, bits, mode, storage);

            // The values: the special ones, the range's edges and their neighbours, powers of
            // two, then random ones of either sign around the range.
            var values = new List<double> { 0.0, -0.0, double.NaN, double.PositiveInfinity, double.NegativeInfinity, double.Epsilon, -double.Epsilon,
                                            double.MaxValue, -double.MaxValue, float.Epsilon, float.MaxValue, -float.MaxValue, 1.0, -1.0 };
            // Sometimes buckets filled near their counter's limit (below), of floats in the
            // range (one bucket for both references): values into them saturate.
            var nearLimit = new List<double>();
            if (bits == 32 && rng.Next(3) == 0)
                for (int i = 0; i < 3; i++) nearLimit.Add((float)LogUniformIn(rng, Math.Max(minMag, 1e-37), Math.Min(maxMag, 1e37)));
            values.AddRange(nearLimit);
            foreach (var edge in new[] { minMag, maxMag })
                foreach (int ulps in new[] { -1, 0, 1 }) { values.Add(Ulps(edge, ulps)); values.Add(-Ulps(edge, ulps)); }
            for (int e = -70; e <= 70; e += 7) { double p = Math.Pow(2, e); values.Add(p); values.Add(Ulps(p, -1)); values.Add(-Ulps(p, 1)); }
            double lo = Math.Log(Math.Max(minMag, 1e-300) / 4), hi = Math.Log(Math.Min(maxMag, 1e300) * 4);
            for (int i = 0; i < RandomValues; i++)
            {
                double magnitude = Math.Exp(lo + rng.NextDouble() * (hi - lo));
                values.Add(rng.Next(4) == 0 ? -magnitude : magnitude);
            }
            var counts = values.Select(_ => rng.Next(1, 4)).ToArray();
            var expanded = values.SelectMany((v, i) => Enumerable.Repeat(v, counts[i])).ToArray();
            var expandedSingles = expanded.Select(v => (float)v).ToArray();

            var hs = paths.Select(_ => new FloatHistogram(error, minMag, maxMag, bits, storage, mode)).ToArray();
            try
            {
                if (nearLimit.Count > 0)
                {
                    prefilled++;
                    ulong ceiling = mode == FloatConcurrencyMode.Interlocked ? uint.MaxValue - (1UL << 22) : uint.MaxValue;
                    foreach (var v in nearLimit)
                        foreach (var h in hs) h.Record(v, ceiling - 1);
                }
                foreach (var p in paths)
                {
                    var h = hs[(int)p];
                    switch (p)
                    {
                        case FloatPath.Record: foreach (var v in expanded) h.Record(v); break;
                        case FloatPath.RecordN: for (int i = 0; i < values.Count; i++) h.Record(values[i], (ulong)counts[i]); break;
                        case FloatPath.RecordManySpan: h.RecordMany(new ReadOnlySpan<double>(expanded)); break;
                        case FloatPath.RecordManySlices: RecordInSlices(expanded, rng, h.RecordMany); break;
                        case FloatPath.RecordSingleReference: foreach (var v in expandedSingles) h.Record((double)v); break;
                        case FloatPath.RecordSingle: foreach (var v in expandedSingles) h.RecordSingle(v); break;
                        case FloatPath.RecordManySingle: h.RecordMany(new ReadOnlySpan<float>(expandedSingles)); break;
                    }
                }
                records += expanded.Length;
                List<FloatBucket> refBuckets, singleBuckets;
                double refSum, singleSum;
                string refState = FloatState(hs[(int)FloatPath.Record], out refBuckets, out refSum);
                string singleState = FloatState(hs[(int)FloatPath.RecordSingleReference], out singleBuckets, out singleSum);
                // The single writer's sum is exact (rounded once when read): the same whatever
                // the path. The interlocked mode's is a running sum per stripe: the same but for
                // rounding, within 1e-12 of the sum of the magnitudes (where that is finite).
                double magnitudes = refBuckets.Sum(x => Math.Max(Math.Abs(x.Lowest), Math.Abs(x.Highest)) * x.Count);
                Func<double, double, bool> sameSum = (x, y) => BitConverter.DoubleToInt64Bits(x) == BitConverter.DoubleToInt64Bits(y)
                    || (mode == FloatConcurrencyMode.Interlocked && (double.IsInfinity(magnitudes) || Math.Abs(x - y) <= 1e-12 * magnitudes));
                if (hs[0].SaturatedCount > 0) saturating++;
                foreach (var p in paths)
                {
                    if (p == FloatPath.Record || p == FloatPath.RecordSingleReference) continue;
                    bool single = p == FloatPath.RecordSingle || p == FloatPath.RecordManySingle;
                    List<FloatBucket> buckets;
                    double sum;
                    string state = FloatState(hs[(int)p], out buckets, out sum);
                    string want = single ? singleState : refState;
                    double wantSum = single ? singleSum : refSum;
                    var wantBuckets = single ? singleBuckets : refBuckets;
                    bad[(int)p].Note(state != want || !sameSum(sum, wantSum) || !buckets.SequenceEqual(wantBuckets),
                                     () => string.Format("{0}: {1}, sum {2:R}; reference {3}, sum {4:R}; {5} buckets, reference {6}",
                                                         config, state, sum, want, wantSum, buckets.Count, wantBuckets.Count));
                }
            }
            finally
            {
                foreach (var h in hs) h.Dispose();
            }
        }
        Console.WriteLine("record paths: {0} float configurations (interlocked {1}, dense {2}, narrowed ranges {3}; near the limit {4}, saturating {5}), "
                          + "{6:N0} records per path, {7} paths: {8} mismatches",
                          Configs, interlocked, dense, narrow, prefilled, saturating, records, paths.Length - 2, bad.Sum(m => m.Count));
        foreach (var p in paths)
            if (p != FloatPath.Record && p != FloatPath.RecordSingleReference)
                bad[(int)p].CheckNone("float record paths: " + p + " as its reference; ", "configurations differ");
        Check(dense > 0 && saturating > 0, "float record paths: the configurations include dense storage and saturation");
    }

    static void RecordPathGroups()
    {
        Group("record paths: the layout table", LayoutTable);
        Group("record paths: integer histograms", IntRecordPaths);
        Group("record paths: float histograms", FloatRecordPaths);
    }
}
