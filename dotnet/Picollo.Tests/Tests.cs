// Tests of the C# binding (Picollo.cs, Metrics/) against libpicollo, plus the Picollo .NET
// announcement's getting-started; ThreadTests.cs adds the concurrency modes and the
// approximate counter (PicolloApprox.cs), HdrTests.cs the HdrHistogram formats (PicolloHdr.cs), MetricsTests.cs
// the metrics pipelines (PicolloMetrics.cs), HistogramApiTests.cs the announcement's API
// beyond the C calls (every bucket, bucket percentiles, spans, summaries, scopes), SeedTests.cs
// the announcement's own snippets (SeedSnippets.cs) against the outputs it shows, FloatTests.cs
// and FloatApiTests.cs the float histogram (FloatHistogram), QueryTests.cs the queries by value, other precisions,
// steps and the fast record paths, StorageTests.cs sparse storage against dense, ExtremesTests.cs
// the exact recorded extremes, RecordPathTests.cs every record path against Record and the
// layout arithmetic against the layout's own table.
// A console program: prints each failing check, ends with "N passed, M failed", exits 1 on
// any failure. Run by c-tests/csharp/run.sh.

using System;
using System.Collections.Generic;
using System.Linq;
using System.Runtime.InteropServices;
using System.Text.RegularExpressions;
using System.Threading;
using Picollo;
using Picollo.Metrics;

static partial class Tests
{
    static int passed, failed;

    static void Check(bool ok, string what)
    {
        if (ok) passed++;
        else { failed++; Console.WriteLine("FAIL: " + what); }
    }

    static void Equal<T>(T expected, T actual, string what)
    {
        Check(EqualityComparer<T>.Default.Equals(expected, actual),
              string.Format("{0}: expected {1}, got {2}", what, expected, actual));
    }

    /// <summary>The .NET type a status must be thrown as: one type per kind of error, whether
    /// the binding or the library found it (a bad argument is an ArgumentException both ways).</summary>
    static Type KindOf(Status status)
    {
        switch (status)
        {
            case Status.OutOfRange: return typeof(ArgumentOutOfRangeException);
            case Status.NullPointer: case Status.InvalidArgument: case Status.StructSize: case Status.BufferTooSmall:
            case Status.LayoutMismatch: case Status.WouldGoNegative: case Status.InvalidUtf8:
                return typeof(ArgumentException);
            case Status.Empty: case Status.Unencodable: return typeof(InvalidOperationException);
            case Status.Unsupported: return typeof(NotSupportedException);
            case Status.PermissionDenied: return typeof(UnauthorizedAccessException);
            case Status.OutOfMemory: return typeof(OutOfMemoryException);
            case Status.FormatError: return typeof(FormatException);
            default: return typeof(PicolloException);
        }
    }

    /// <summary>The call must raise the exception of this status's kind (<see cref="KindOf"/>),
    /// carrying the status and a message.</summary>
    static void Throws(Status expected, Action call, string what)
    {
        try
        {
            call();
            Check(false, what + ": no exception, expected " + expected);
        }
        catch (Exception caught) when (caught is IPicolloError)
        {
            var e = (IPicolloError)caught;
            Check(e.Status == expected && !string.IsNullOrEmpty(e.NativeMessage),
                  string.Format("{0}: expected {1}, got {2} \"{3}\"", what, expected, e.Status, e.NativeMessage));
            Check(KindOf(expected).IsInstanceOfType(caught),
                  string.Format("{0}: {1} thrown as {2}, expected a {3}", what, expected, caught.GetType().Name, KindOf(expected).Name));
        }
        catch (Exception e)
        {
            Check(false, what + ": unexpected " + e.GetType().Name + ": " + e.Message);
        }
    }

    static void Throws<E>(Action call, string what) where E : Exception
    {
        try { call(); Check(false, what + ": no exception, expected " + typeof(E).Name); }
        catch (E) { passed++; }
        catch (Exception e) { Check(false, what + ": expected " + typeof(E).Name + ", got " + e.GetType().Name); }
    }

    /// <summary>The differences one check finds over many cases: how many, and the first one
    /// described (the later ones are only counted).</summary>
    sealed class Mismatches
    {
        public int Count;
        public string First;

        /// <summary>Count a difference where <paramref name="differs"/>; describe only the first.</summary>
        public void Note(bool differs, Func<string> describe)
        {
            if (differs && Count++ == 0) First = describe();
        }

        /// <summary>The check that none was found; its failure reads
        /// "<paramref name="what"/>N <paramref name="wrong"/>, first …".</summary>
        public void CheckNone(string what, string wrong = "wrong")
        {
            Check(Count == 0, what + Count + " " + wrong + ", first " + First);
        }

        /// <summary>One tally per value of an enum (record paths), indexed by its number.</summary>
        public static Mismatches[] Each(int n) { return Enumerable.Range(0, n).Select(_ => new Mismatches()).ToArray(); }
    }

    /// <summary>Run one group of checks; an unexpected exception fails the group, not the run.</summary>
    static void Group(string name, Action body)
    {
        try { body(); }
        catch (Exception e) { Check(false, name + ": unexpected exception: " + e); }
    }

    static bool InBucket(Percentile p, ulong v) { return p.Lower <= v && v <= p.Highest; }

    static string[] Lines(string text) { return text.Split('\n'); }

    static string FirstCell(string row) { var cells = row.Split('|'); return cells.Length > 1 ? cells[1].Trim() : ""; }

    static readonly string[] RankLabels =
        { "0", "1", "5", "10", "25", "50", "75", "90", "92.5", "95", "97.5", "99", "99.9", "99.99", "99.999", "100" };

    // -------------------------------------------------------------------------------------

    static void Layout()
    {
        int config = Marshal.SizeOf(typeof(HistogramConfig)), info = Marshal.SizeOf(typeof(HistogramInfo));
        int pct = Marshal.SizeOf(typeof(Percentile)), summary = Marshal.SizeOf(typeof(SummaryData));
        int bucket = Marshal.SizeOf(typeof(Bucket));
        int total = (int)Marshal.OffsetOf(typeof(SummaryData), "Total");
        int infoErr = (int)Marshal.OffsetOf(typeof(HistogramInfo), "RelativeError");
        int cfgErr = (int)Marshal.OffsetOf(typeof(HistogramConfig), "RelativeError");
        // Same format as run.sh's C probe, which compares the two lines.
        Console.WriteLine("struct sizes: config={0} info={1} percentile={2} summary={3} bucket={4} summary.total@{5} info.relative_error@{6} config.relative_error@{7}",
                          config, info, pct, summary, bucket, total, infoErr, cfgErr);
        Equal(64, config, "sizeof(picollo_histogram_config)");
        Equal(96, info, "sizeof(picollo_histogram_info)");
        Equal(88, pct, "sizeof(picollo_percentile)");
        Equal(16 * 88 + 9 * 8, summary, "sizeof(picollo_summary)");
        Equal(48, bucket, "sizeof(picollo_bucket)");
        Equal(16 * 88, total, "offsetof(picollo_summary, total)");
        Equal((uint)config, HistogramConfig.Default.StructSize, "config_default().struct_size is the C# size");
        Equal(1u, Native.picollo_abi_version() >> 16, "ABI major version");
        var d = HistogramConfig.Default;
        Check(d.CounterBits == 64 && d.RelativeError == 0.001 && d.MaxTrackable == ulong.MaxValue && d.Storage == (uint)HistogramStorage.Dense
              && d.ExactExtremes == 0 && d.Reserved == 0, "config_default fields");
    }

    static void RecordAndCounts()
    {
        using (var h = new HdrHistogram(0.01, 10, 100000, 32))
        {
            h.Record(1000);
            h.Record(5000, 1000);
            h.Record(7, 0);           // count 0: nothing
            h.Record(5);              // underflow
            h.Record(200000, 3);      // overflow
            Equal(1001ul, h.TotalCount, "total after record/record_n");
            Equal(1ul, h.UnderflowCount, "underflow");
            Equal(3ul, h.OverflowCount, "overflow");
            Check(InBucket(h.GetPercentile(50), 5000), "P50 bucket holds 5000");
            Check(InBucket(h.GetPercentile(0), 1000), "P0 bucket holds 1000");
            h.RecordMany(new ulong[] { 20, 30, 40 });
            h.RecordMany(new ulong[0]);
            Equal(1004ul, h.TotalCount, "total after record_many");
            var info = h.Info;
            Check(info.CounterBits == 32 && info.MinTrackable == 10 && info.MaxTrackable == 100000, "info range and width");
            Check(info.FootprintBytes == info.StorageLength * 4, "footprint is 4 bytes per u32 counter");
            Check(info.RelativeError == 0.5 / info.BlockSize && info.RelativeError <= 0.01, "info relative error");
            h.Reset();
            Check(h.TotalCount == 0 && h.UnderflowCount == 0 && h.OverflowCount == 0, "reset clears everything");
            Throws(Status.Empty, () => h.GetPercentile(50), "percentile of an empty histogram");
        }
        using (var h = new HdrHistogram(0.01))
        {
            h.RecordCorrected(1000, 100);   // 1000, 900, ..., 100
            Equal(10ul, h.TotalCount, "record_corrected adds the missing values");
            Check(InBucket(h.GetPercentile(0), 100) && InBucket(h.GetPercentile(100), 1000), "record_corrected range");
            h.RecordCorrected(50, 0);
            Equal(11ul, h.TotalCount, "record_corrected with interval 0 records once");
        }
        using (var h = new HdrHistogram(0.01, counterBits: 32))
        {
            h.Record(77, 5000000000ul);     // more than a u32 bucket holds
            Equal(5000000000ul, h.TotalCount + h.SaturatedCount, "saturated counts are not lost");
            Check(h.SaturatedCount > 0, "a u32 bucket saturates");
        }
    }

    static void Percentiles()
    {
        var dists = new Func<Random, ulong>[] {
            r => (ulong)r.Next(1, 1000000),
            r => (ulong)(Math.Exp(r.NextDouble() * 20)),
            r => 20000 + (ulong)(r.NextDouble() * r.NextDouble() * 5000),
        };
        foreach (int size in new[] { 1, 7, 1000, 100000 })
            for (int d = 0; d < dists.Length; d++)
            {
                var rng = new Random(size * 31 + d);
                var values = new ulong[size];
                for (int i = 0; i < size; i++) values[i] = dists[d](rng);
                using (var h = new HdrHistogram(0.001))
                {
                    h.RecordMany(values);
                    Array.Sort(values);
                    string tag = string.Format("dist {0} n={1}", d, size);
                    var batch = h.GetPercentiles(HdrHistogramSummary.StandardRanks);
                    var vals = h.GetPercentileValues(HdrHistogramSummary.StandardRanks);
                    var summary = h.GetSummary();
                    for (int i = 0; i < batch.Length; i++)
                    {
                        var p = batch[i];
                        ulong exact = values[p.RankCount - 1];
                        Check(InBucket(p, exact), string.Format("{0} P{1}: exact {2} in [{3}, {4}]", tag, p.Rank, exact, p.Lower, p.Highest));
                        ulong dist = p.Value > exact ? p.Value - exact : exact - p.Value;
                        Check(dist <= p.PlusMinus, tag + " |value - exact| <= ±");
                        Check(p.Equals(h.GetPercentile(HdrHistogramSummary.StandardRanks[i])), tag + " batch equals scalar at P" + p.Rank);
                        Check(p.Equals(summary[i]), tag + " summary equals batch at P" + p.Rank);
                        Equal(p.Value, vals[i], tag + " value-only query");
                    }
                }
            }

        using (var h = new HdrHistogram(0.01))
        {
            for (ulong v = 1000; v < 2000; v++) h.Record(v);
            h.ValueSelection = ValueSelection.Lower;
            var p = h.GetPercentile(50);
            Check(p.Value == p.Lower && h.ValueSelection == ValueSelection.Lower, "lower value selection");
            h.ValueSelection = ValueSelection.Upper;
            p = h.GetPercentile(50);
            Check(p.Value == p.Highest, "upper value selection");
            h.ValueSelection = ValueSelection.Interpolated;
            p = h.GetPercentile(50);
            Check(InBucket(p, p.Value), "interpolated value inside its bucket");
            Check(Regex.IsMatch(h.GetPercentile(99).ToString(), @"^P99=[\d,]+ \[\d+ / \d+\]: \[[\d,]+, [\d,]+\) [\d,]+$"),
                  "percentile text: " + h.GetPercentile(99));
        }
    }

    static void Buckets()
    {
        using (var h = new HdrHistogram(0.01, 0, 1000000))
        {
            var rng = new Random(5);
            for (int i = 0; i < 10000; i++) h.Record((ulong)rng.Next(0, 500000));
            var buckets = h.BucketsWithValues.ToList();
            Equal(h.TotalCount, (ulong)buckets.Sum(b => (long)b.Count), "bucket counts sum to total");
            Check(buckets.All(b => b.Count > 0), "the cursor skips empty buckets");
            Check(buckets.Zip(buckets.Skip(1), (a, b) => a.StorageIndex < b.StorageIndex && a.Highest < b.Lower).All(x => x),
                  "buckets in increasing order");
            var third = buckets[3];
            Check(h.GetBucket((long)third.StorageIndex).Equals(third), "indexed bucket equals cursor bucket");
            Check(h.GetBucket(0).Count == 0 || buckets[0].StorageIndex == 0, "bucket 0 by index");
            long len = (long)h.Info.StorageLength;
            Throws(Status.OutOfRange, () => h.GetBucket(len), "bucket past the end");
        }
        using (var h = new HdrHistogram(0.01))
            Equal(0, h.BucketsWithValues.Count(), "no buckets in an empty histogram");
    }

    static void Summaries()
    {
        using (var h = HdrHistogram.Factory.WithRelativeError(0.01).WithUInt32Storage().WithRange(10000, 30000).Create())
        {
            for (ulong v = 20000; v < 21000; v++) h.Record(v);
            var s = h.GetSummary();
            Equal(1000ul, s.TotalCount, "summary total");
            Check(s.OverflowCount == 0 && s.UnderflowCount == 0, "summary no overflow/underflow");
            Equal(0.0078125, s.Precision, "summary precision for relative error 0.01");
            Check(s.MinTrackable == 10000 && s.MaxTrackable == 30000, "summary range");
            Check(Math.Abs(s.Mean - 20499.5) < 20499.5 * 0.0079, "summary mean within precision: " + s.Mean);
            Check(Math.Abs(s.StdDev - 288.67) < 10, "summary stdev: " + s.StdDev);
            for (int i = 0; i < 16; i++) Equal(HdrHistogramSummary.StandardRanks[i], s[i].Rank, "summary rank " + i);
            Check(s.P50.Equals(s[5]) && s.P99.Equals(s[11]) && s.P100.Equals(s[15]), "named percentiles");

            string table = s.Table("Latency µs");
            var lines = Lines(table);
            Equal("##### Latency µs", lines[0], "table title heading (UTF-8 round trip)");
            Check(lines[1].StartsWith("| Percentile | Value") && lines[1].Contains("±") && lines[1].Contains("Count"),
                  "table header: " + lines[1]);
            Check(lines[2].StartsWith("| :--"), "table alignment row");
            var ranks = lines.Skip(3).Take(16).Select(FirstCell).ToArray();
            Check(ranks.SequenceEqual(RankLabels), "16 rank rows: " + string.Join(",", ranks));
            Check(!table.Contains("Overflow") && !table.Contains("Underflow"), "no Overflow/Underflow rows without them");
            Check(lines.Any(l => l.StartsWith("| Precision:") && l.Contains("0.7813%")), "Precision row shows 0.7813%");
            Check(lines.Any(l => l.StartsWith("| Mean:") && l.Contains("StDev:")), "Mean/StDev row");
            Check(lines.Any(l => l.StartsWith("| Range Min:") && l.Contains("10,000") && l.Contains("30,000")), "Range row");
            Equal(table, h.Table("Latency µs"), "histogram table equals summary table");
            Check(!h.Table().StartsWith("#####") && !h.Table("").StartsWith("#####"), "no heading without a title");

            h.Record(40000);
            h.Record(5);
            string t2 = h.Table();
            Check(Lines(t2).Any(l => FirstCell(l) == "Overflow" && l.TrimEnd().EndsWith("1 |")), "Overflow row when a value is above the range");
            Check(Lines(t2).Any(l => FirstCell(l) == "Underflow"), "Underflow row when a value is below the range");

            string line = s.Line("lat");
            Check(line.StartsWith("lat: Total=1,000, Overflow=0, Mean=") && line.Contains(", P99=") && line.Contains(", P100=")
                  && !line.Contains("\n"), "one-line summary: " + line);
            string json = s.Json();
            Check(Regex.IsMatch(json, "\"totalCount\"\\s*:\\s*1000\\b") && json.Contains("\"percentiles\"")
                  && Regex.IsMatch(json, "\"maxTrackableValue\"\\s*:\\s*30000\\b"), "JSON fields");

            var s2 = new HdrHistogramSummary();
            h.GetSummary(s2);       // in place
            Check(s2.OverflowCount == 1 && s2.UnderflowCount == 1 && s2.TotalCount == 1000, "summary refilled in place");

            string diff = s.Diff(s2, "Before/after", "Before", "After");
            var dl = Lines(diff);
            Equal("##### Before/after", dl[0], "diff heading");
            Check(dl[1].StartsWith("| Percentile | Before") && dl[1].Contains("After") && dl[1].Contains("Δ%"), "diff header: " + dl[1]);
            Check(dl.Skip(3).Take(16).Select(FirstCell).SequenceEqual(RankLabels), "diff has 16 rank rows");
            Check(dl.Any(l => FirstCell(l) == "D-value:"), "diff has the D-value row");
            Check(Lines(s.Diff(s2)).Any(l => l.StartsWith("| Percentile | A") && l.Contains("| B")), "diff default names A/B");
        }
        using (var h = new HdrHistogram(0.01))
        {
            var s = h.GetSummary();
            Check(s.TotalCount == 0 && double.IsNaN(s.Mean) && s.P50.Value == 0, "empty summary: zero percentiles, NaN mean");
            Check(s.Table().Contains("| Percentile"), "empty summary still renders a table");
        }
    }

    static void BadInput()
    {
        Throws(Status.InvalidArgument, () => new HdrHistogram(0.0), "relative error 0");
        Throws(Status.InvalidArgument, () => new HdrHistogram(double.NaN), "relative error NaN");
        Throws(Status.InvalidArgument, () => new HdrHistogram(-0.01), "relative error < 0");
        Throws(Status.InvalidArgument, () => new HdrHistogram(double.PositiveInfinity), "relative error ∞");
        Throws(Status.InvalidArgument, () => new HdrHistogram(0.01, 100, 10), "min > max");
        Throws(Status.InvalidArgument, () => new HdrHistogram(0.01, counterBits: 16), "counter bits 16");
        Throws(Status.InvalidArgument, () => new HdrHistogram(0.01, valueSelection: (ValueSelection)9), "unknown value selection");

        foreach (uint size in new uint[] { 0, 4, 40, 47, 52 })
        {
            var c = HistogramConfig.Default;
            c.StructSize = size;
            IntPtr raw = new IntPtr(0x1234);
            Status st = Native.picollo_histogram_new_raw(ref c, out raw);
            Equal(Status.StructSize, st, "raw new with struct_size " + size);
            string msg = Marshal.PtrToStringAnsi(Native.picollo_last_error_message());
            Check(msg.Contains("struct_size"), "struct_size message: " + msg);
            if (st == Status.Ok) Native.picollo_histogram_free(raw);
            Throws(Status.StructSize, () => new HdrHistogram(c), "HdrHistogram(config) with struct_size " + size);
        }
        // A caller built against a newer, larger struct: accepted while the fields this
        // library does not know are zero, refused otherwise (perf_event_attr's rule).
        foreach (int size in new[] { Marshal.SizeOf(typeof(HistogramConfig)) + 8, 1000 })
        {
            var c = HistogramConfig.Default;
            c.StructSize = (uint)size;
            IntPtr buf = Marshal.AllocHGlobal(size);
            try
            {
                for (int i = 0; i < size; i++) Marshal.WriteByte(buf, i, 0);
                Marshal.StructureToPtr(c, buf, false);
                IntPtr raw;
                Status st = Native.picollo_histogram_new_ptr(buf, out raw);
                Equal(Status.Ok, st, "larger struct_size " + size + " with zero tail");
                if (st == Status.Ok) Native.picollo_histogram_free(raw);
                Marshal.WriteByte(buf, size - 1, 1);
                st = Native.picollo_histogram_new_ptr(buf, out raw);
                Equal(Status.StructSize, st, "larger struct_size " + size + " with non-zero tail");
            }
            finally
            {
                Marshal.FreeHGlobal(buf);
            }
        }
        // A caller built against the ABI 1.6 header passes 48 bytes (the struct ended with
        // storage): accepted, the fields it lacks read as zero (no exact extremes), and the
        // bytes past its struct are never read.
        {
            var c = HistogramConfig.Default;
            c.ExactExtremes = uint.MaxValue;
            c.Reserved = uint.MaxValue;
            c.StructSize = 48;
            IntPtr buf = Marshal.AllocHGlobal(Marshal.SizeOf(typeof(HistogramConfig)));
            try
            {
                Marshal.StructureToPtr(c, buf, false);
                IntPtr raw;
                Status st = Native.picollo_histogram_new_ptr(buf, out raw);
                Equal(Status.Ok, st, "struct_size 48 (ABI 1.6)");
                if (st == Status.Ok)
                {
                    Equal(Status.Unsupported, Native.picollo_histogram_exact_extremes_raw(raw, IntPtr.Zero, IntPtr.Zero),
                          "struct_size 48: no exact extremes, whatever lies past the struct");
                    Native.picollo_histogram_free(raw);
                }
            }
            finally
            {
                Marshal.FreeHGlobal(buf);
            }
        }
        HistogramInfo info;
        Equal(Status.NullPointer, Native.picollo_histogram_info_raw(IntPtr.Zero, out info), "NULL handle");

        using (var h = new HdrHistogram(0.01))
        using (var other = new HdrHistogram(0.001))
        {
            h.Record(100);
            Throws(Status.InvalidArgument, () => h.GetPercentile(101), "rank 101");
            Throws(Status.InvalidArgument, () => h.GetPercentile(-1), "rank -1");
            Throws(Status.InvalidArgument, () => h.GetPercentile(double.NaN), "rank NaN");
            Throws(Status.InvalidArgument, () => h.GetPercentiles(50, 10), "ranks decreasing");
            Throws(Status.InvalidArgument, () => h.GetPercentiles(50, 50), "ranks repeated");
            Throws(Status.InvalidArgument, () => h.GetPercentileValues(0, double.NaN), "NaN in value-only ranks");
            Throws(Status.InvalidArgument, () => h.ValueSelection = (ValueSelection)4, "set unknown value selection");
            Throws(Status.LayoutMismatch, () => h.Add(other), "add with another relative error");
            Throws(Status.InvalidArgument, () => h.Add(h), "add a histogram to itself");
            var gone = new HdrHistogram(0.01);
            gone.Dispose();
            Throws<ObjectDisposedException>(() => h.Add(gone), "add a disposed histogram");
            Throws<ObjectDisposedException>(() => gone.Add(h), "add into a disposed histogram");
            using (var big = new HdrHistogram(0.01))
            {
                big.Record(100, 2);
                Throws(Status.WouldGoNegative, () => h.Subtract(big), "subtract more than there is");
                Equal(1ul, h.TotalCount, "failed subtract changes nothing");
                big.Subtract(h);
                Equal(1ul, big.TotalCount, "subtract");
            }
            using (var snap = h.GetSnapshot())
                Equal(Status.LayoutMismatch, Native.picollo_snapshot_update(snap.Handle.DangerousGetHandle(), other.Handle.DangerousGetHandle(), 1), "snapshot update from another layout");

            // snprintf-style truncation: a NUL-terminated prefix and the full size.
            var s = h.GetSummary();
            var buf = new byte[10];
            UIntPtr needed;
            Equal(Status.BufferTooSmall, Native.picollo_summary_table(ref s.Data, null, buf, new UIntPtr(10), out needed), "table into 10 bytes");
            string full = s.Table();
            Equal((ulong)System.Text.Encoding.UTF8.GetByteCount(full), needed.ToUInt64(), "needed is the full length");
            Check(buf[9] == 0 && System.Text.Encoding.UTF8.GetString(buf, 0, 9) == full.Substring(0, 9), "truncated text is a NUL-terminated prefix");
            Equal(Status.InvalidUtf8, Native.picollo_summary_table(ref s.Data, new byte[] { 0xff, 0 }, null, UIntPtr.Zero, out needed), "title not UTF-8");
        }
        Equal("ok", Marshal.PtrToStringAnsi(Native.picollo_status_str(0)), "status_str(OK)");
        Equal("unknown status", Marshal.PtrToStringAnsi(Native.picollo_status_str(999)), "status_str(999)");
    }

    static void Snapshots()
    {
        using (var h = new HdrHistogram(0.01))
        {
            h.Record(1000, 100);
            using (var snap = h.GetSnapshot())
            {
                Equal(100ul, snap.GetSummary().TotalCount, "snapshot holds the counts");
                h.Record(2000, 50);
                Equal(100ul, snap.GetSummary().TotalCount, "snapshot does not follow the histogram");
                snap.Update(deltas: true);
                var s = snap.GetSummary();
                Check(s.TotalCount == 50 && InBucket(s.P0, 2000), "delta update holds only the new values");
                snap.Update(deltas: true);
                Equal(0ul, snap.GetSummary().TotalCount, "delta update with nothing new");
                h.Record(3000, 10);
                snap.Update();
                Equal(160ul, snap.GetSummary().TotalCount, "full update");
                var sp = snap.GetPercentiles(1, 50, 99);
                var hp = h.GetPercentiles(1, 50, 99);
                Check(sp.SequenceEqual(hp), "snapshot percentiles equal the histogram's");
                h.Reset();
                h.Record(4000, 5);
                snap.Update(deltas: true);
                Equal(5ul, snap.GetSummary().TotalCount, "deltas after a reset count from the reset");
            }
        }
    }

    /// <summary>A thread's own histogram, half recorded by batches, half value by value.</summary>
    static HdrHistogram RecordOnThread(int seed, int count)
    {
        var h = new HdrHistogram(0.01, 0, 1000000);
        var rng = new Random(seed);
        var batch = new ulong[1000];
        for (int i = 0; i < count; i += batch.Length)
        {
            for (int j = 0; j < batch.Length; j++) batch[j] = (ulong)rng.Next(0, 1100000);
            if ((i / batch.Length) % 2 == 0) h.RecordMany(batch);
            else foreach (var v in batch) h.Record(v);
        }
        return h;
    }

    static void Threads()
    {
        const int threads = 4, perThread = 250000;
        var parts = new HdrHistogram[threads];
        var errors = new Exception[threads];
        var workers = Enumerable.Range(0, threads).Select(t => new Thread(() =>
        {
            try { parts[t] = RecordOnThread(100 + t, perThread); }
            catch (Exception e) { errors[t] = e; }
        })).ToList();
        workers.ForEach(w => w.Start());
        workers.ForEach(w => w.Join());
        foreach (var e in errors) if (e != null) throw e;

        using (var merged = new HdrHistogram(0.01, 0, 1000000))
        using (var reference = new HdrHistogram(0.01, 0, 1000000))
        {
            for (int t = 0; t < threads; t++)
            {
                merged.Add(parts[t]);
                var rng = new Random(100 + t);   // the same values, recorded on one thread
                for (int i = 0; i < perThread; i++) reference.Record((ulong)rng.Next(0, 1100000));
                parts[t].Dispose();
            }
            Equal((ulong)threads * perThread, merged.TotalCount + merged.OverflowCount, "merged count");
            Equal(reference.OverflowCount, merged.OverflowCount, "merged overflow");
            Check(merged.GetSummary().Percentiles.SequenceEqual(reference.GetSummary().Percentiles),
                  "merged percentiles equal a single-thread histogram's");
            Check(merged.BucketsWithValues.SequenceEqual(reference.BucketsWithValues), "merged buckets equal");
        }
        using (var narrow = new HdrHistogram(0.01, 100, 1000))
        using (var wide = new HdrHistogram(0.01, 0, 100000, 32))
        {
            wide.Record(50); wide.Record(500); wide.Record(5000);
            narrow.Add(wide);
            Check(narrow.UnderflowCount == 1 && narrow.TotalCount == 1 && narrow.OverflowCount == 1,
                  "add into a narrower range moves counts to underflow/overflow");
        }
    }

    static void Disposal()
    {
        HdrHistogram kept;
        using (var h = new HdrHistogram(0.01))
        {
            h.Record(1);
            kept = h;
        }
        Check(kept.IsDisposed, "using disposes");
        kept.Dispose();   // twice: no error
        passed++;
        Throws<ObjectDisposedException>(() => kept.Record(1), "record after dispose");
        Throws<ObjectDisposedException>(() => kept.GetPercentile(50), "percentile after dispose");
        Equal("HdrHistogram (disposed)", kept.ToString(), "ToString after dispose");

        var src = new HdrHistogram(0.01);
        src.Record(10, 3);
        var snap = src.GetSnapshot();
        src.Dispose();
        Equal(3ul, snap.GetSummary().TotalCount, "a snapshot outlives its histogram");
        Throws<ObjectDisposedException>(() => snap.Update(), "update from a disposed histogram");
        snap.Dispose();
        Check(snap.Handle.IsClosed, "a snapshot whose update failed still disposes");
        snap.Dispose();
        passed++;
        Throws<ObjectDisposedException>(() => snap.GetSummary(), "summary of a disposed snapshot");

        // Leaked handles are freed by the finalizer.
        for (int i = 0; i < 2000; i++) new HdrHistogram(0.01).Record((ulong)i);
        GC.Collect();
        GC.WaitForPendingFinalizers();
        passed++;
    }

    // -------------------------------------------------------------------------------------

    /// <summary>The announcement's deviation: (0.5 − r)·spread + r'^k·tail, negative cast to 0.</summary>
    static ulong Deviation(Random rng, double spread, double tail, double power)
    {
        double d = (0.5 - rng.NextDouble()) * spread + Math.Pow(rng.NextDouble(), power) * tail;
        return d < 0 ? 0 : (ulong)d;
    }

    /// <summary>The announcement's GettingStarted and GettingStartedSnapshot, checked against
    /// its printed output (System.Random(0) is the same generator on mono).</summary>
    static void GettingStarted()
    {
        HdrHistogramSummary before, after;
        string diff;
        using (var h = HdrHistogram.Factory.WithRelativeError(0.01).WithUInt32Storage()
                   .WithMinTrackableValue(10000).WithMaxTrackableValue(30000).Create())
        {
            var rng = new Random(0);
            for (int i = 0; i < 1000000; i++) h.Record(20000 + Deviation(rng, 1000, 5000, 2));
            h.Record(40000); // outside the range

            before = h.GetSummary();
            Console.WriteLine("P99: " + before.P99);
            Equal("P99=24,960 [83 / 609]: [24,832, 25,088) 14,190", before.P99.ToString(), "seed P99 line");

            h.Reset();
            for (int i = 0; i < 2000000; i++) h.Record(19000 + Deviation(rng, 500, 10000, 3));
            after = h.GetSummary();

            string table = before.Table("Histogram Before");
            Console.Write(table);
            var lines = Lines(table);
            Check(lines.Any(l => FirstCell(l) == "Overflow" && l.TrimEnd().EndsWith(" 1 |")), "getting-started Overflow row");
            Check(lines.Any(l => l.StartsWith("| Mean:") && l.Contains("21,696.54") && l.Contains("1,482.39")), "seed Mean/StDev");
            Check(lines.Any(l => l.StartsWith("| Precision:") && l.Contains("0.7813%") && l.Contains("1,000,000")), "seed Precision/Total");

            diff = before.Diff(after, "Getting Started Diff", "Before", "After");
            Console.WriteLine();
            Console.Write(diff);
            Check(Lines(diff).Any(l => FirstCell(l) == "D-value:" && l.Contains("-0.07")), "seed D-value -0.07");
            Check(Lines(diff).Any(l => FirstCell(l) == "99" && l.Contains("28,800") && l.Contains("+15.4%")), "seed diff P99 row");
        }

        // The same with a snapshot and deltas instead of a reset: the same diff.
        using (var h = HdrHistogram.Factory.WithRelativeError(0.01).WithUInt32Storage()
                   .WithMinTrackableValue(10000).WithMaxTrackableValue(30000).Create())
        {
            var rng = new Random(0);
            var values = new ulong[1000000];
            for (int i = 0; i < values.Length; i++) values[i] = 20000 + Deviation(rng, 1000, 5000, 2);
            h.RecordMany(values);
            h.Record(40000);
            using (var snap = h.GetSnapshot())
            {
                var s1 = snap.GetSummary();
                values = new ulong[2000000];
                for (int i = 0; i < values.Length; i++) values[i] = 19000 + Deviation(rng, 500, 10000, 3);
                h.RecordMany(values);
                snap.Update(deltas: true);
                var s2 = snap.GetSummary();
                Equal(diff, s1.Diff(s2, "Getting Started Diff", "Before", "After"), "snapshot diff equals reset diff");
                Console.WriteLine();
                Console.WriteLine(s2.ToString("GettingStartedSnapshot"));
            }
        }
    }

    static int Main()
    {
        try
        {
            Console.WriteLine("libpicollo ABI version {0:x8}", Native.picollo_abi_version());
        }
        catch (DllNotFoundException e)
        {
            Console.WriteLine("FAIL: cannot load libpicollo (set LD_LIBRARY_PATH or a dllmap): " + e.Message);
            Console.WriteLine("0 passed, 1 failed");
            return 2;
        }
        Group("layout", Layout);
        Group("record", RecordAndCounts);
        Group("percentiles", Percentiles);
        Group("buckets", Buckets);
        Group("summary", Summaries);
        Group("bad input", BadInput);
        Group("snapshots", Snapshots);
        Group("threads", Threads);
        ThreadGroups();   // ThreadTests.cs: the concurrency modes
        HdrGroups();      // HdrTests.cs: V2, .hgrm, interval logs
        MetricsGroups();  // MetricsTests.cs: collect, OpenMetrics, OTLP
        HistogramApiGroups();  // HistogramApiTests.cs: buckets, bucket percentiles, spans, summaries, scopes
        QueryGroups();    // QueryTests.cs: rank/count queries, downsample, add_rebinned, steps, record paths
        CumulativeGroups(); // CumulativeTests.cs: the cumulative copy against the live histogram
        StorageGroups();  // StorageTests.cs: sparse storage against dense
        ExtremesGroups(); // ExtremesTests.cs: exact recorded extremes
        RecordPathGroups(); // RecordPathTests.cs: the layout table, every record path against Record
        FloatGroups();    // FloatTests.cs, FloatApiTests.cs: FloatHistogram
        FormatGroups();   // FormatTests.cs: every export format by name
        Group("disposal", Disposal);
        Group("getting started", GettingStarted);
        SeedGroups();     // SeedTests.cs: the announcement's snippets and what they print
        CallCostGroups(); // CallCostTests.cs: what the binding adds to a query and a merge
        RecordManyGroups(); // RecordManyTests.cs: RecordMany spans against Record, and their figures
        Console.WriteLine();
        Console.WriteLine("{0} passed, {1} failed", passed, failed);
        return failed == 0 ? 0 : 1;
    }
}
