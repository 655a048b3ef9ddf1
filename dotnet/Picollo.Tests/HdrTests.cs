// Tests of the HdrHistogram formats through the C# binding (PicolloHdr.cs): V2 round trips
// (base64, plain, compressed) bucket for bucket, malformed input, AddEncoded, .hgrm against the
// raw C call and against goldens byte-identical to hdr-histogram-js, the interval log writer
// and reader, log sums, and blobs and logs written by two other HdrHistogram implementations
// (interop/fixtures). Part of the Tests program (Tests.cs holds Main and the check helpers).

using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using System.Text;
using Picollo;
using Picollo.Metrics;

static partial class Tests
{
    /// <summary>Relative error of HdrHistogram's 3-significant-digit layout (block size 1024).</summary>
    const double ThreeDigits = 0.5 / 1024;

    /// <summary>The checkout's root: the first folder above the test program holding the
    /// header and the interop fixtures.</summary>
    static string RepoRoot()
    {
        for (var d = new DirectoryInfo(AppDomain.CurrentDomain.BaseDirectory); d != null; d = d.Parent)
            if (File.Exists(Path.Combine(d.FullName, "include", "picollo.h"))
                && Directory.Exists(Path.Combine(d.FullName, "interop", "fixtures")))
                return d.FullName;
        throw new DirectoryNotFoundException("no folder above " + AppDomain.CurrentDomain.BaseDirectory
                                             + " holds include/picollo.h and interop/fixtures");
    }

    static string RepoFile(params string[] parts)
    {
        return File.ReadAllText(Path.Combine(new[] { RepoRoot() }.Concat(parts).ToArray()), Encoding.UTF8);
    }

    /// <summary>Non-empty buckets as (lower, highest, count).</summary>
    static List<Tuple<ulong, ulong, ulong>> Counts(HdrHistogram h)
    {
        return h.BucketsWithValues.Select(b => Tuple.Create(b.Lower, b.Highest, b.Count)).ToList();
    }

    /// <summary>Same non-empty buckets with the same counts (the first difference is reported).</summary>
    static void SameBuckets(HdrHistogram expected, HdrHistogram actual, string what)
    {
        var a = Counts(expected);
        var b = Counts(actual);
        int n = Math.Min(a.Count, b.Count), i = 0;
        while (i < n && a[i].Equals(b[i])) i++;
        if (i == n && a.Count == b.Count) { passed++; return; }
        Check(false, string.Format("{0}: {1} vs {2} non-empty buckets, first difference at #{3}: expected {4}, got {5}",
                                   what, a.Count, b.Count, i, i < a.Count ? a[i].ToString() : "none",
                                   i < b.Count ? b[i].ToString() : "none"));
    }

    /// <summary>The call must raise a PicolloFormatException (status FORMAT_ERROR, a message);
    /// returns it for further checks, or null.</summary>
    static PicolloFormatException ThrowsFormat(Action call, string what)
    {
        try
        {
            call();
            Check(false, what + ": no exception, expected PicolloFormatException");
        }
        catch (PicolloFormatException e)
        {
            Check(e.Status == Status.FormatError && !string.IsNullOrEmpty(e.NativeMessage),
                  string.Format("{0}: status {1}, message \"{2}\"", what, e.Status, e.NativeMessage));
            return e;
        }
        catch (Exception e)
        {
            Check(false, what + ": expected PicolloFormatException, got " + e.GetType().Name + ": " + e.Message);
        }
        return null;
    }

    /// <summary>Spread values over 12 decades, with small counts, plus 0 and 2^62.</summary>
    static void RecordSpread(HdrHistogram h, int seed, int n)
    {
        var rng = new Random(seed);
        for (int i = 0; i < n; i++) h.Record((ulong)Math.Pow(10, rng.NextDouble() * 12), (ulong)rng.Next(1, 4));
        h.Record(0, 7);
        h.Record(1ul << 62, 3);
    }

    /// <summary>picollo_histogram_hgrm called directly: size, then text, NUL checked.</summary>
    static string RawHgrm(HdrHistogram h, uint ticks, double ratio, bool csv)
    {
        UIntPtr needed;
        uint c = csv ? 1u : 0u;
        Status st = Native.picollo_histogram_hgrm(h.Handle, ticks, ratio, c, null, UIntPtr.Zero, out needed);
        Equal(Status.BufferTooSmall, st, "hgrm size query");
        int n = (int)needed.ToUInt64();
        var buf = new byte[n + 1];
        buf[n] = 0xff;
        st = Native.picollo_histogram_hgrm(h.Handle, ticks, ratio, c, buf, new UIntPtr((ulong)buf.Length), out needed);
        Equal(Status.Ok, st, "hgrm into a buffer that fits");
        Equal((ulong)n, needed.ToUInt64(), "hgrm needed is the same twice");
        Equal((byte)0, buf[n], "hgrm text is NUL-terminated");
        return Encoding.UTF8.GetString(buf, 0, n);
    }

    // -------------------------------------------------------------------------------------

    static void HdrLayout()
    {
        int size = Marshal.SizeOf(typeof(LogIntervalInfo));
        // Same format as sizes.c's second line, which run.sh compares.
        Console.WriteLine("hdr struct sizes: log_interval={0} log_interval.start@{1} log_interval.line@{2} log_interval.has_tag@{3}",
                          size, (int)Marshal.OffsetOf(typeof(LogIntervalInfo), "Start"),
                          (int)Marshal.OffsetOf(typeof(LogIntervalInfo), "Line"),
                          (int)Marshal.OffsetOf(typeof(LogIntervalInfo), "HasTag"));
        Equal(15u, (uint)Status.FormatError, "FORMAT_ERROR is 15");
        Equal(16u, (uint)Status.Unencodable, "UNENCODABLE is 16");
        Check(PicolloException.For(Status.FormatError, "x") is PicolloFormatException, "FORMAT_ERROR maps to PicolloFormatException");
        Check(PicolloException.For(Status.Unencodable, "x") is PicolloUnencodableException, "UNENCODABLE maps to PicolloUnencodableException");
        foreach (Status st in Enum.GetValues(typeof(Status)))
        {
            if (st == Status.Ok) continue;
            Exception e = PicolloException.For(st, "x");
            var carried = e as IPicolloError;
            Check(KindOf(st).IsInstanceOfType(e) && carried != null && carried.Status == st && carried.NativeMessage == "x",
                  st + " is thrown as a " + KindOf(st).Name + " carrying the status, got " + e.GetType().Name);
        }
        foreach (var st in new[] { Status.FormatError, Status.Unencodable })
        {
            string text = Utf8.FromNative(Native.picollo_status_str((uint)st));
            Check(!string.IsNullOrEmpty(text) && text != Utf8.FromNative(Native.picollo_status_str(999)),
                  "status_str knows " + st + ": " + text);
        }
    }

    static void V2RoundTrips()
    {
        using (var h = new HdrHistogram(ThreeDigits))
        {
            Equal(1024ul, h.Info.BlockSize, "0.5/1024 is the 3-digit layout");
            RecordSpread(h, 42, 5000);

            string b64 = HistogramEncoding.Encode(h);
            Check(b64.StartsWith("HISTFAAA"), "base64 starts with the compressed cookie: " + b64.Substring(0, Math.Min(12, b64.Length)));
            using (var d = HistogramEncoding.Decode(b64)) SameBuckets(h, d, "base64 round trip");

            byte[] plain = HistogramEncoding.EncodeBinary(h, compressed: false);
            byte[] comp = HistogramEncoding.EncodeBinary(h);
            Check(plain.Take(4).SequenceEqual(new byte[] { 0x1c, 0x84, 0x93, 0x13 }), "plain V2 cookie");
            Check(comp.Take(4).SequenceEqual(new byte[] { 0x1c, 0x84, 0x93, 0x14 }), "compressed V2 cookie");
            Check(comp.Length < plain.Length, string.Format("compressed ({0} B) is smaller than plain ({1} B)", comp.Length, plain.Length));
            Equal(b64, Convert.ToBase64String(comp), "base64 is the base64 of the compressed bytes");

            using (var d = HistogramEncoding.Decode(plain)) SameBuckets(h, d, "plain round trip");
            using (var d = HistogramEncoding.Decode(comp)) SameBuckets(h, d, "compressed round trip");
            using (var d = HistogramEncoding.Decode(Convert.ToBase64String(plain))) SameBuckets(h, d, "base64 of plain round trip");
            using (var d = HistogramEncoding.Decode(" \n" + b64 + "\r\n")) SameBuckets(h, d, "base64 with surrounding whitespace");
            using (var d = HistogramEncoding.Decode(Encoding.ASCII.GetBytes(b64))) SameBuckets(h, d, "base64 given as bytes");
            using (var d = HistogramEncoding.Decode(b64))
            {
                Equal(h.TotalCount, d.TotalCount, "decoded total");
                Equal(ConcurrencyMode.SingleWriter, d.Mode, "decoded histograms are single-writer");
                Equal(64u, d.Info.CounterBits, "decoded histograms have 64-bit counters");
                Equal(b64, HistogramEncoding.Encode(d), "re-encoding the decoded histogram gives the same text");
            }
        }

        // The deflate level is the caller's: every level decodes to the same buckets, the
        // default is what EncodeBinary writes, the plain form ignores it, and 11 is refused.
        using (var h = new HdrHistogram(ThreeDigits))
        {
            RecordSpread(h, 42, 5000);
            var sizes = new int[11];
            for (int level = 0; level <= 10; level++)
            {
                byte[] blob = HistogramEncoding.EncodeBinary(h, true, level);
                sizes[level] = blob.Length;
                using (var d = HistogramEncoding.Decode(blob)) SameBuckets(h, d, "level " + level);
                Equal(Convert.ToBase64String(blob), HistogramEncoding.Encode(h, level), "base64 at level " + level);
            }
            Check(sizes[0] > sizes[1] && sizes[1] > sizes[9], "sizes by level: " + string.Join(",", sizes));
            Check(HistogramEncoding.EncodeBinary(h).SequenceEqual(HistogramEncoding.EncodeBinary(h, true, HistogramEncoding.DefaultLevel)),
                  "the default level is DefaultLevel");
            Check(HistogramEncoding.EncodeBinary(h, false).SequenceEqual(HistogramEncoding.EncodeBinary(h, false, 9)),
                  "the plain form ignores the level");
            Throws<PicolloArgumentException>(() => HistogramEncoding.EncodeBinary(h, true, 11), "level 11");
            try { HistogramEncoding.Encode(h, 11); }
            catch (PicolloArgumentException e) { Check(e.Message.Contains("level is 11"), "level 11's message: " + e.Message); }
            Throws<ArgumentOutOfRangeException>(() => HistogramEncoding.Encode(h, -1), "level -1");
        }

        using (var h = new HdrHistogram(ThreeDigits))
        using (var d = HistogramEncoding.Decode(HistogramEncoding.Encode(h)))
            Check(d.TotalCount == 0 && !d.BucketsWithValues.Any(), "an empty histogram round-trips empty");

        // The concurrent modes encode the same counts as a single writer.
        using (var reference = new HdrHistogram(ThreeDigits))
        {
            RecordSpread(reference, 5, 2000);
            foreach (var mode in new[] { ConcurrencyMode.Interlocked, ConcurrencyMode.ThreadLocal })
                using (var h = new HdrHistogram(ThreeDigits, mode: mode))
                {
                    RecordSpread(h, 5, 2000);
                    using (var d = HistogramEncoding.Decode(HistogramEncoding.EncodeBinary(h)))
                        SameBuckets(reference, d, mode + " histogram round trip");
                }
        }

        // A layout HdrHistogram does not have (block size 512): written at 3 digits, and
        // added back into the original layout every count is where it was, underflow and
        // overflow included.
        using (var h = new HdrHistogram(0.001, 10, 100000))
        {
            Equal(512ul, h.Info.BlockSize, "0.001 is block size 512");
            var rng = new Random(7);
            for (int i = 0; i < 20000; i++) h.Record((ulong)rng.Next(10, 100001));
            h.Record(3, 4);
            h.Record(200000, 5);
            byte[] blob = HistogramEncoding.EncodeBinary(h);
            using (var d = HistogramEncoding.Decode(blob))
            {
                Equal(1024ul, d.Info.BlockSize, "decoded at the header's 3 digits");
                Equal(h.TotalCount + 9, d.TotalCount, "decoded total holds the underflow and overflow counts");
            }
            using (var back = new HdrHistogram(0.001, 10, 100000))
            {
                back.AddEncoded(blob);
                SameBuckets(h, back, "finer export added back into the original layout");
                Equal(4ul, back.UnderflowCount, "underflow comes back as underflow");
                Equal(5ul, back.OverflowCount, "overflow comes back as overflow");
            }
        }
    }

    static void V2Errors()
    {
        byte[] plain, comp;
        using (var h = new HdrHistogram(ThreeDigits))
        {
            RecordSpread(h, 9, 200);
            plain = HistogramEncoding.EncodeBinary(h, false);
            comp = HistogramEncoding.EncodeBinary(h, true);
        }
        var e = ThrowsFormat(() => HistogramEncoding.Decode("this is not base64!"), "decode of text that is not base64");
        if (e != null) Check(e.LineNumber == null, "a V2 error names no line: " + e.NativeMessage);
        ThrowsFormat(() => HistogramEncoding.Decode(new byte[0]), "decode of nothing");
        ThrowsFormat(() => HistogramEncoding.Decode(""), "decode of an empty string");
        ThrowsFormat(() => HistogramEncoding.Decode(Convert.ToBase64String(Encoding.ASCII.GetBytes("hello, world"))),
                     "decode of base64 that is not V2");
        ThrowsFormat(() => HistogramEncoding.Decode(plain.Take(plain.Length - 1).ToArray()), "decode of truncated plain V2");
        ThrowsFormat(() => HistogramEncoding.Decode(comp.Take(comp.Length / 2).ToArray()), "decode of truncated compressed V2");
        ThrowsFormat(() => HistogramEncoding.Decode(plain.Take(6).ToArray()), "decode of a bare cookie");
        var wrongCookie = (byte[])plain.Clone();
        wrongCookie[3] = 0x12;
        ThrowsFormat(() => HistogramEncoding.Decode(wrongCookie), "decode of a V1 cookie");
        var digits = (byte[])plain.Clone();
        digits[15] = 9;   // significant digits (bytes 12..15, big-endian) out of 1..5
        ThrowsFormat(() => HistogramEncoding.Decode(digits), "decode of 9 significant digits");
        Throws<ArgumentNullException>(() => HistogramEncoding.Decode((string)null), "decode of null text");
        Throws<ArgumentNullException>(() => HistogramEncoding.Decode((byte[])null), "decode of null bytes");
    }

    static void AddEncoded()
    {
        using (var a = new HdrHistogram(ThreeDigits))
        using (var b = new HdrHistogram(ThreeDigits))
        using (var expected = new HdrHistogram(ThreeDigits))
        {
            RecordSpread(a, 1, 3000);
            RecordSpread(b, 2, 3000);
            expected.Add(a);
            a.AddEncoded(HistogramEncoding.Encode(b));
            expected.Add(b);
            SameBuckets(expected, a, "AddEncoded(base64) equals Add");
            a.AddEncoded(HistogramEncoding.EncodeBinary(b, false));
            expected.Add(b);
            SameBuckets(expected, a, "AddEncoded(plain bytes) equals Add");

            ulong before = a.TotalCount;
            ThrowsFormat(() => a.AddEncoded("garbage"), "AddEncoded of garbage");
            byte[] comp = HistogramEncoding.EncodeBinary(b);
            ThrowsFormat(() => a.AddEncoded(comp.Take(comp.Length - 8).ToArray()), "AddEncoded of truncated V2");
            Equal(before, a.TotalCount, "a failed AddEncoded adds nothing");
            SameBuckets(expected, a, "a failed AddEncoded changes no bucket");

            // Into another layout and counter width: every count lands somewhere.
            using (var coarse = new HdrHistogram(0.01, counterBits: 32))
            {
                coarse.AddEncoded(HistogramEncoding.Encode(b));
                Equal(b.TotalCount, coarse.TotalCount, "AddEncoded into a coarser 32-bit histogram keeps the total");
            }
        }
    }

    static void Unencodable()
    {
        using (var h = new HdrHistogram(0.01, counterBits: 32))
        {
            h.Record(77, 5000000000ul);
            Check(h.SaturatedCount > 0, "a u32 bucket saturates");
            Throws<PicolloUnencodableException>(() => HistogramEncoding.Encode(h), "encode of saturated counts");
            Throws<PicolloUnencodableException>(() => HistogramEncoding.EncodeBinary(h, false), "plain encode of saturated counts");
            try { HistogramEncoding.EncodeBinary(h); }
            catch (PicolloUnencodableException e)
            {
                Check(e.Status == Status.Unencodable && !string.IsNullOrEmpty(e.NativeMessage),
                      "unencodable status and message: " + e.Status + " " + e.NativeMessage);
            }
            var sw = new StringWriter();
            using (var w = new HistogramLogWriter(sw))
            {
                w.WriteHeader();
                int length = sw.ToString().Length;
                Throws<PicolloUnencodableException>(() => w.Append(h, null, 0, 1), "a log interval of saturated counts");
                Equal(length, sw.ToString().Length, "a refused interval writes nothing");
            }
        }
        using (var h = new HdrHistogram())
        {
            h.Record(ulong.MaxValue);
            Throws<PicolloUnencodableException>(() => HistogramEncoding.Encode(h), "encode of a value above 2^63 - 1");
        }
    }

    static void Hgrm()
    {
        using (var h = new HdrHistogram(ThreeDigits))
        {
            for (ulong v = 1; v <= 1000; v++) h.Record(v);
            h.Record(123456, 10);

            var sw = new StringWriter();
            h.OutputPercentileDistribution(sw);
            string text = sw.ToString();
            Equal(RawHgrm(h, 5, 1.0, false), text, "OutputPercentileDistribution equals picollo_histogram_hgrm");
            Equal(text, h.ToHgrm(), "ToHgrm equals OutputPercentileDistribution");
            Console.WriteLine();
            Console.Write(text);

            var lines = text.TrimEnd('\n').Split('\n');
            Equal("       Value     Percentile TotalCount 1/(1-Percentile)", lines[0], "hgrm header line");
            Equal("", lines[1], "hgrm blank line after the header");
            Check(lines[lines.Length - 3].StartsWith("#[Mean    ="), "hgrm footer: mean line, got " + lines[lines.Length - 3]);
            Check(lines[lines.Length - 2].StartsWith("#[Max     ="), "hgrm footer: max line");
            Check(lines[lines.Length - 1].StartsWith("#[Buckets ="), "hgrm footer: buckets line");
            Check(lines[lines.Length - 2].EndsWith("Total count    = " + h.TotalCount.ToString().PadLeft(12) + "]"),
                  "hgrm footer total count: " + lines[lines.Length - 2]);
            Check(lines[lines.Length - 1].Contains("SubBuckets     =         2048]"), "3 digits: 2048 sub-buckets: " + lines[lines.Length - 1]);
            string last = lines[lines.Length - 4];
            var cells = last.Split(new[] { ' ' }, StringSplitOptions.RemoveEmptyEntries);
            Check(cells.Length == 3 && cells[1] == "1.000000000000" && cells[2] == h.TotalCount.ToString(),
                  "hgrm 100% row: " + last);
            ulong top = h.GetPercentile(100).Highest;
            Equal(top.ToString() + ".000", cells[0], "hgrm 100% row value is the top bucket's highest value");

            string scaled = h.ToHgrm(3, 1000.0);
            Equal(RawHgrm(h, 3, 1000.0, false), scaled, "hgrm with ticks 3 and ratio 1000 equals the C call");
            string maxLine = scaled.Split('\n').First(l => l.StartsWith("#[Max"));
            var m = System.Text.RegularExpressions.Regex.Match(maxLine, @"^#\[Max +=\s+([0-9.]+),");
            double shown = m.Success ? double.Parse(m.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture) : -1;
            Check(Math.Abs(shown - top / 1000.0) <= 0.0005, "hgrm max divided by the unit ratio: " + maxLine);
            int rows5 = text.Split('\n').Count(l => l.Length > 0 && !l.StartsWith("#")) - 1;
            int rows10 = h.ToHgrm(10).Split('\n').Count(l => l.Length > 0 && !l.StartsWith("#")) - 1;
            Check(rows10 > rows5, string.Format("more ticks, more rows ({0} > {1})", rows10, rows5));

            var csvWriter = new StringWriter();
            h.OutputPercentileDistribution(csvWriter, useCsvFormat: true);
            string csv = csvWriter.ToString();
            Equal(RawHgrm(h, 5, 1.0, true), csv, "CSV equals the C call");
            var csvLines = csv.TrimEnd('\n').Split('\n');
            Equal("\"Value\",\"Percentile\",\"TotalCount\",\"1/(1-Percentile)\"", csvLines[0], "CSV header");
            Check(!csv.Contains("#["), "CSV has no footer");
            Check(csvLines[csvLines.Length - 1].EndsWith(",1.000000000000," + h.TotalCount + ",Infinity"),
                  "CSV 100% row: " + csvLines[csvLines.Length - 1]);

            Throws(Status.InvalidArgument, () => h.ToHgrm(0), "hgrm with 0 ticks");
            Throws(Status.InvalidArgument, () => h.ToHgrm(5, 0.0), "hgrm with unit ratio 0");
            Throws(Status.InvalidArgument, () => h.ToHgrm(5, -1.0), "hgrm with a negative unit ratio");
            Throws(Status.InvalidArgument, () => h.ToHgrm(5, double.NaN), "hgrm with unit ratio NaN");
            Throws(Status.InvalidArgument, () => h.ToHgrm(5, double.PositiveInfinity), "hgrm with an infinite unit ratio");
            Throws<ArgumentOutOfRangeException>(() => h.ToHgrm(-1), "hgrm with negative ticks");
            Throws<ArgumentNullException>(() => h.OutputPercentileDistribution(null), "hgrm into a null writer");
        }

        using (var empty = new HdrHistogram(ThreeDigits))
        {
            string text = empty.ToHgrm();
            Equal(text, RawHgrm(empty, 5, 1.0, false), "empty hgrm equals the C call");
            Check(text.Split('\n').Count(l => l.Length > 0 && !l.StartsWith("#")) == 1, "an empty hgrm has no rows: " + text);
            Check(text.Contains("Total count    =            0]"), "an empty hgrm's total is 0");
        }
    }

    /// <summary>Goldens of cli/tests/golden, byte-identical to hdr-histogram-js 3.0.1 on the
    /// same logs: the sum of a log's intervals, then its .hgrm.</summary>
    static void HgrmGoldens()
    {
        string peer = RepoFile("cli", "tests", "data", "peer_hdrh.hlog");
        using (var api = HistogramLogReader.Sum(peer, "api"))
        {
            var sw = new StringWriter();
            api.OutputPercentileDistribution(sw);
            Equal(RepoFile("cli", "tests", "golden", "hgrm_peer_api.hgrm"), sw.ToString(), "hgrm of peer_hdrh.hlog's api intervals");
        }
        using (var db = HistogramLogReader.Sum(peer, "db"))
        {
            var sw = new StringWriter();
            db.OutputPercentileDistribution(sw, 3, 1000.0);
            Equal(RepoFile("cli", "tests", "golden", "hgrm_peer_db_ticks3_in_thousands.hgrm"), sw.ToString(),
                  "hgrm of peer_hdrh.hlog's db intervals, 3 ticks, in thousands");
        }
        using (var latency = HistogramLogReader.Sum(RepoFile("cli", "tests", "data", "latency.hlog")))
            Equal(RepoFile("cli", "tests", "golden", "hgrm_latency.csv"), latency.ToHgrm(useCsvFormat: true), "CSV hgrm of latency.hlog");
    }

    static void LogRoundTrip()
    {
        using (var h1 = new HdrHistogram(ThreeDigits))
        using (var h2 = new HdrHistogram(ThreeDigits))
        using (var h3 = new HdrHistogram(ThreeDigits))
        {
            RecordSpread(h1, 11, 1000);
            for (ulong v = 1000; v < 5000; v += 7) h2.Record(v * 1000);
            h3.Record(42, 1000);
            h3.Record(4200000);

            var sw = new StringWriter();
            using (var w = new HistogramLogWriter(sw))
            {
                w.WriteHeader(1700000000.0, 1699999990.0);
                w.WriteComment("written by the C# tests\nsecond line");
                w.Append(h1, null, 1700000000.0, 1.0);
                w.Append(h2, "api", 1700000001.5, 2.25);
                w.MaxValueUnitRatio = 1000;
                w.Append(h3, "", 1700000004.0, 0.5);
            }
            string text = sw.ToString();
            var lines = text.TrimEnd('\n').Split('\n').ToList();
            Equal("#[Histogram log format version 1.3]", lines[0], "log version line");
            Check(lines.Contains("#[StartTime: 1700000000.000 (seconds since epoch), 2023-11-14T22:13:20Z]"), "StartTime header:\n" + text);
            Check(lines.Contains("#[BaseTime: 1699999990.000 (seconds since epoch)]"), "BaseTime header");
            Check(lines.Contains("#written by the C# tests") && lines.Contains("#second line"), "comment lines");
            Check(lines.Contains("\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\""), "legend");
            int line1 = lines.FindIndex(l => l.StartsWith("10.000,1.000,")) + 1;
            int line2 = lines.FindIndex(l => l.StartsWith("Tag=api,11.500,2.250,")) + 1;
            int line3 = lines.FindIndex(l => l.StartsWith("14.000,0.500,")) + 1;
            Check(line1 > 0 && line2 > line1 && line3 > line2, "interval lines relative to the base time, in order:\n" + text);

            using (var r = new HistogramLogReader(text))
            {
                Check(r.StartTime == 1700000000.0 && r.BaseTime == 1699999990.0, "header times known before the first interval");
                var entries = r.ReadHistograms().ToList();
                try
                {
                    Equal(3, entries.Count, "three intervals read back");
                    Equal((double?)1700000000.0, r.StartTime, "StartTime read back");
                    Equal((double?)1699999990.0, r.BaseTime, "BaseTime read back");
                    if (entries.Count == 3)
                    {
                        var e1 = entries[0];
                        Check(e1.Tag == null && e1.Start == 1700000000.0 && e1.Length == 1.0 && e1.End == 1700000001.0,
                              string.Format("interval 1: tag {0}, {1} + {2}", e1.Tag, e1.Start, e1.Length));
                        Equal((long)line1, e1.Line, "interval 1 line");
                        Equal(3, e1.SignificantDigits, "interval 1 digits");
                        SameBuckets(h1, e1.Histogram, "interval 1 histogram");
                        Check(Math.Abs(e1.Max - h1.GetPercentile(100).Highest / 1e6) <= 0.0005, "interval 1 max in the default unit (1e6): " + e1.Max);

                        var e2 = entries[1];
                        Check(e2.Tag == "api" && e2.Start == 1700000001.5 && e2.Length == 2.25 && e2.End == 1700000003.75,
                              string.Format("interval 2: tag {0}, {1} + {2}", e2.Tag, e2.Start, e2.Length));
                        Equal((long)line2, e2.Line, "interval 2 line");
                        SameBuckets(h2, e2.Histogram, "interval 2 histogram");

                        var e3 = entries[2];
                        Check(e3.Tag == null && e3.Start == 1700000004.0 && e3.Length == 0.5, "interval 3: an empty tag is no tag");
                        Equal((long)line3, e3.Line, "interval 3 line");
                        SameBuckets(h3, e3.Histogram, "interval 3 histogram");
                        Check(Math.Abs(e3.Max - h3.GetPercentile(100).Highest / 1000.0) <= 0.0005, "interval 3 max divided by 1000: " + e3.Max);
                    }
                    Check(r.ReadNext() == null && r.ReadNext() == null, "the end stays the end");
                }
                finally { entries.ForEach(e => e.Dispose()); }
            }

            using (var r = new HistogramLogReader(new StringReader(text)))
            {
                var tags = new List<string>();
                foreach (var e in r.ReadHistograms()) using (e) tags.Add(e.Tag ?? "-");
                Equal("-,api,-", string.Join(",", tags), "reading from a TextReader");
            }

            // Sums by tag and start window.
            using (var all = HistogramLogReader.Sum(text))
            using (var expected = new HdrHistogram(ThreeDigits))
            {
                expected.Add(h1);
                expected.Add(h3);
                SameBuckets(expected, all, "sum of the untagged intervals");
            }
            using (var api = HistogramLogReader.Sum(text, "api")) SameBuckets(h2, api, "sum of the api intervals");
            using (var late = HistogramLogReader.Sum(text, null, 1700000003.0)) SameBuckets(h3, late, "sum from 1700000003 s");
            using (var early = HistogramLogReader.Sum(text, null, null, 1700000004.0)) SameBuckets(h1, early, "sum before 1700000004 s");
            Check(HistogramLogReader.Sum(text, "nope") == null, "no interval with that tag: null");
            Check(HistogramLogReader.Sum(text, null, 1700000005.0) == null, "no interval in the window: null");
        }

        // No header times: starts as given, times absent.
        using (var h = new HdrHistogram(ThreeDigits))
        {
            h.Record(5);
            var sw = new StringWriter();
            using (var w = new HistogramLogWriter(sw))
            {
                w.WriteHeader();
                w.Append(h, 3.0, 1.0);
            }
            string text = sw.ToString();
            Check(!text.Contains("StartTime:") && !text.Contains("BaseTime:"), "no time headers when none given");
            using (var r = new HistogramLogReader(text))
            {
                var e = r.ReadNext();
                Check(e != null && e.Start == 3.0 && e.Tag == null, "a start without a base time is kept as is");
                if (e != null) e.Dispose();
                Check(r.StartTime == null && r.BaseTime == null, "absent time headers read as null");
            }

            var dated = new StringWriter();
            using (var w = new HistogramLogWriter(dated))
                w.WriteHeader(new DateTime(2023, 11, 14, 22, 13, 20, DateTimeKind.Utc));
            Check(dated.ToString().Contains("#[StartTime: 1700000000.000 "), "WriteHeader(DateTime): " + dated);

            // Refused arguments throw and write nothing.
            var refused = new StringWriter();
            using (var w = new HistogramLogWriter(refused))
            {
                w.WriteHeader(null, 100.0);
                int length = refused.ToString().Length;
                Throws<ArgumentException>(() => w.Append(h, "two words", 100.0, 1.0), "a tag with a space");
                Throws<ArgumentException>(() => w.Append(h, "a,b", 100.0, 1.0), "a tag with a comma");
                Throws<ArgumentException>(() => w.Append(h, null, 50.0, 1.0), "a start before the base time");
                Throws<ArgumentException>(() => w.Append(h, null, 100.0, -1.0), "a negative length");
                Throws<ArgumentException>(() => { w.MaxValueUnitRatio = 0; }, "unit ratio 0");
                Equal(length, refused.ToString().Length, "refused calls write nothing");
                w.Append(h, "ok", 101.0, 1.0);
                Check(refused.ToString().EndsWith("\n") && refused.ToString().Contains("Tag=ok,1.000,1.000,"), "the writer goes on after refusals");
            }
            Throws<ArgumentNullException>(() => new HistogramLogWriter(null), "a writer into null");
            Throws<ArgumentNullException>(() => new HistogramLogReader((string)null), "a reader of null");
        }
    }

    static void LogReaderErrors()
    {
        string good;
        using (var h = new HdrHistogram(ThreeDigits))
        {
            h.Record(100, 3);
            var sw = new StringWriter();
            using (var w = new HistogramLogWriter(sw))
            {
                w.WriteHeader(1700000000.0, 1700000000.0);
                w.Append(h, null, 1700000000.0, 1.0);
                w.Append(h, "api", 1700000001.0, 1.0);
                w.Append(h, null, 1700000002.0, 1.0);
            }
            good = sw.ToString();
        }
        var lines = good.TrimEnd('\n').Split('\n').ToList();
        int first = lines.FindIndex(l => l.StartsWith("0.000,"));
        lines.Insert(first + 1, "1.000,1.000,0.000,HISTFAAA-not-base64");
        lines.Insert(first + 3, "2.000,1.000");
        int badV2 = first + 2, badFields = first + 4;   // 1-based line numbers
        string text = string.Join("\n", lines) + "\n";

        using (var r = new HistogramLogReader(text))
        {
            var e1 = r.ReadNext();
            Check(e1 != null && e1.Start == 1700000000.0, "the line before the bad one reads");
            if (e1 != null) e1.Dispose();
            var err = ThrowsFormat(() => r.ReadNext(), "a line with bad base64");
            if (err != null)
            {
                Equal((long?)badV2, err.LineNumber, "the error names the bad line");
                Check(err.NativeMessage.Contains("line " + badV2), "the message names line " + badV2 + ": " + err.NativeMessage);
            }
            var e2 = r.ReadNext();
            Check(e2 != null && e2.Tag == "api" && e2.Line == badV2 + 1, "the reader goes on after a bad line");
            if (e2 != null) e2.Dispose();
            err = ThrowsFormat(() => r.ReadNext(), "a line with two fields");
            if (err != null) Equal((long?)badFields, err.LineNumber, "the field-count error names its line");
            var e3 = r.ReadNext();
            Check(e3 != null && e3.Start == 1700000002.0, "the last interval reads after the second bad line");
            if (e3 != null) e3.Dispose();
            Check(r.ReadNext() == null, "then the end");
        }

        // Through ReadHistograms: the enumeration throws; a new one goes on after the line.
        using (var r = new HistogramLogReader(text))
        {
            int read = 0;
            var err = ThrowsFormat(() => { foreach (var e in r.ReadHistograms()) using (e) read++; }, "ReadHistograms over a bad line");
            Equal(1, read, "one interval before the bad line");
            if (err != null) Equal((long?)badV2, err.LineNumber, "ReadHistograms error line");
            ThrowsFormat(() => { foreach (var e in r.ReadHistograms()) using (e) read++; }, "ReadHistograms goes on to the next bad line");
            foreach (var e in r.ReadHistograms()) using (e) read++;
            Equal(3, read, "all three good intervals read in the end");
        }

        var sumErr = ThrowsFormat(() => HistogramLogReader.Sum(text), "the sum of a log with a bad line");
        if (sumErr != null) Equal((long?)badV2, sumErr.LineNumber, "the sum's error names the first bad line");
        var numErr = ThrowsFormat(() => new HistogramLogReader("#[BaseTime: 0.000]\nx.5,1.000,1.000,HISTFAAA\n").ReadNext(),
                                  "a start that is not a number");
        if (numErr != null) Equal((long?)2, numErr.LineNumber, "the number error names line 2");
    }

    /// <summary>Blobs and logs written by hdrh (Python) and hdr-histogram-js; the expected
    /// counts are those interop/fixtures/README.md lists.</summary>
    static void PeerFixtures()
    {
        var expected = new[] {
            Tuple.Create(0ul, 1ul), Tuple.Create(1ul, 2ul), Tuple.Create(7ul, 3ul), Tuple.Create(1000ul, 4ul),
            Tuple.Create(1001ul, 5ul), Tuple.Create(123456ul, 6ul), Tuple.Create(1000000000ul, 7ul),
            Tuple.Create(1000000000000ul, 8ul),
        };
        foreach (var name in new[] { "hdrh-d3.b64", "hdr-histogram-js-d3.b64" })
        {
            string b64 = RepoFile("interop", "fixtures", name);
            using (var h = HistogramEncoding.Decode(b64))
            {
                Equal(36ul, h.TotalCount, name + " total");
                var buckets = h.BucketsWithValues.ToList();
                Equal(expected.Length, buckets.Count, name + " non-empty buckets");
                foreach (var vc in expected)
                {
                    var b = buckets.FirstOrDefault(x => x.Lower <= vc.Item1 && vc.Item1 <= x.Highest);
                    Equal(vc.Item2, b.Count, string.Format("{0}: count of {1}", name, vc.Item1));
                }
                Check(buckets.Any(b => b.Lower == 123456 && b.Highest == 123519), name + ": 123,456 in [123,456, 123,519]");
                Check(buckets.Any(b => b.Lower == 999817216 && b.Highest == 1000341503), name + ": 10^9 in [999,817,216, 1,000,341,503]");
                Check(buckets.Any(b => b.Lower == 999653638144 && b.Highest == 1000190509055), name + ": 10^12's bucket");
                using (var again = HistogramEncoding.Decode(HistogramEncoding.Encode(h))) SameBuckets(h, again, name + " re-encoded");
                using (var sum = new HdrHistogram(0.001))
                {
                    sum.AddEncoded(b64);
                    sum.AddEncoded(b64);
                    Equal(72ul, sum.TotalCount, name + " added twice into another layout");
                }
            }
        }

        foreach (var name in new[] { "hdrh.hlog", "hdr-histogram-js.hlog" })
            using (var r = new HistogramLogReader(RepoFile("interop", "fixtures", name)))
            {
                var entries = r.ReadHistograms().ToList();
                try
                {
                    Equal(3, entries.Count, name + " intervals");
                    Equal((double?)1700000000.0, r.StartTime, name + " StartTime");
                    Equal((double?)1699999990.0, r.BaseTime, name + " BaseTime");
                    if (entries.Count != 3) continue;
                    Check(entries.Select(e => e.Start).SequenceEqual(new[] { 1700000000.0, 1700000001.0, 1700000002.0 }),
                          name + " starts: " + string.Join(", ", entries.Select(e => e.Start)));
                    Check(entries.All(e => e.Length == 1.0), name + " lengths");
                    Check(entries.Select(e => e.Histogram.TotalCount).SequenceEqual(new[] { 36ul, 60ul, 1000ul }), name + " totals");
                    Check(entries.Select(e => e.SignificantDigits).SequenceEqual(new[] { 3, 2, 3 }), name + " digits");
                    string tag = name.StartsWith("hdrh") ? null : "api";   // hdrh's writer drops tags
                    Check(entries[0].Tag == null && entries[1].Tag == tag && entries[2].Tag == null, name + " tags");
                    var third = entries[2].Histogram.BucketsWithValues.ToList();
                    Check(third.Count == 2 && third[0].Lower == 42 && third[0].Count == 1 && third[1].Count == 999,
                          name + " third interval: 42 x 1, 4,200,000 x 999");
                }
                finally { entries.ForEach(e => e.Dispose()); }
            }
    }

    static void HdrDisposal()
    {
        var h = new HdrHistogram(ThreeDigits);
        h.Record(5);
        var w = new HistogramLogWriter(new StringWriter());
        w.WriteHeader();
        h.Dispose();
        Throws<ObjectDisposedException>(() => HistogramEncoding.Encode(h), "encode of a disposed histogram");
        Throws<ObjectDisposedException>(() => h.ToHgrm(), "hgrm of a disposed histogram");
        Throws<ObjectDisposedException>(() => w.Append(h, 0, 1), "a disposed histogram into a log");
        w.Dispose();
        w.Dispose();
        Throws<ObjectDisposedException>(() => w.WriteComment("late"), "a comment into a disposed writer");
        var r = new HistogramLogReader("");
        Check(r.ReadNext() == null && r.StartTime == null, "an empty log has no interval and no times");
        r.Dispose();
        Throws<ObjectDisposedException>(() => r.ReadNext(), "reading a disposed reader");
    }

    /// <summary>A lowest discernible value: the unit 2^floor(log2 L), unit-wide low buckets,
    /// the unit through V2 and back, and the refusals.</summary>
    static void LowestDiscernible()
    {
        using (var h = new HdrHistogram(ThreeDigits, 0, 1UL << 45, lowestDiscernible: 1000))
        {
            Equal(512UL, h.Unit, "unit of lowest discernible 1000");
            h.Record(3);
            h.Record(6683);
            Equal(0UL, h.Info.Underflow, "a value below the unit is not underflow");
            var p = h.GetPercentile(100);
            Check(p.Lower == 6656 && p.Upper == 7168 && p.Value == 6912 && p.PlusMinus == 256,
                  "6683's bucket is [6656, 7168) +-256");
            // Buckets (empty ones from the binding's own layout) agree with the library's.
            int k = 0, same = 0;
            foreach (var b in h.Buckets)
            {
                var native = h.GetBucket(k);
                if (b.Lower == native.Lower && b.Highest == native.Highest && b.LogicalIndex == native.LogicalIndex) same++;
                if (++k == 2100) break;
            }
            Equal(2100, same, "the first 2100 buckets (2048 unit-wide) as the library gives them");
            using (var back = HistogramEncoding.Decode(HistogramEncoding.Encode(h)))
            {
                Equal(512UL, back.Unit, "the unit through V2");
                SameBuckets(h, back, "unit 512 through V2");
            }
        }
        using (var b = HdrHistogram.Factory.WithLowestDiscernibleValue(1 << 20).Create())
            Equal(1UL << 20, b.Unit, "the builder's lowest discernible value");
        using (var plain = new HdrHistogram())
            Equal(1UL, plain.Unit, "unit 1 by default");
        Throws<ArgumentOutOfRangeException>(() => new HdrHistogram(lowestDiscernible: 0), "lowest 0");
        Throws(Status.InvalidArgument, () => new HdrHistogram(lowestDiscernible: 1UL << 55),
               "a unit past the layout");
    }

    static void HdrGroups()
    {
        Group("hdr: lowest discernible value", LowestDiscernible);
        Group("hdr: layout and statuses", HdrLayout);
        Group("hdr: V2 round trips", V2RoundTrips);
        Group("hdr: V2 errors", V2Errors);
        Group("hdr: AddEncoded", AddEncoded);
        Group("hdr: unencodable", Unencodable);
        Group("hdr: hgrm", Hgrm);
        Group("hdr: hgrm goldens", HgrmGoldens);
        Group("hdr: log round trip", LogRoundTrip);
        Group("hdr: log reader errors", LogReaderErrors);
        Group("hdr: peer fixtures", PeerFixtures);
        Group("hdr: disposal", HdrDisposal);
    }
}
