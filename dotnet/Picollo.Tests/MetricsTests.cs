// Tests of the metrics pipelines through the C# binding (PicolloMetrics.cs): interval collection
// while another thread records, OpenMetrics text (one-shot against the raw C call and the
// writer, bucket lines against counts taken from the recorded values, summaries, _created),
// the Prometheus buckets, OTLP JSON (parsed) and protobuf (walked field by field), and
// options the library refuses. Part of the Tests program (Tests.cs holds Main and the check
// helpers; HdrTests.cs SameBuckets).

using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using System.Text;
using System.Threading;
using Picollo;
using Picollo.Metrics;

static partial class Tests
{
    /// <summary>The value of the one sample line that starts with <paramref name="prefix"/>
    /// followed by a space.</summary>
    static string Sample(string text, string prefix)
    {
        var hits = Lines(text).Where(l => l.StartsWith(prefix + " ")).ToList();
        if (hits.Count != 1)
        {
            Check(false, string.Format("expected one line starting '{0} ', found {1} in:\n{2}", prefix, hits.Count, text));
            return null;
        }
        return hits[0].Substring(prefix.Length + 1);
    }

    static double Number(string s) { return double.Parse(s, NumberStyles.Float, CultureInfo.InvariantCulture); }

    /// <summary>The text a raw picollo_histogram_openmetrics call writes into a roomy buffer
    /// (checked NUL-terminated, with needed equal to its length).</summary>
    static string RawOpenMetrics(HdrHistogram h, string name, string help, string unit, string[] labels, ulong[] bounds,
                                 double unitRatio, ulong created)
    {
        var pins = new List<GCHandle>();
        try
        {
            Func<object, IntPtr> pin = x => { var g = GCHandle.Alloc(x, GCHandleType.Pinned); pins.Add(g); return g.AddrOfPinnedObject(); };
            Func<string, byte[]> z = s => s == null ? null : Encoding.UTF8.GetBytes(s + "\0");
            var l = new Label[labels.Length / 2];
            for (int i = 0; i < l.Length; i++)
                l[i] = new Label { Name = pin(z(labels[2 * i])), Value = pin(z(labels[2 * i + 1])) };
            var o = Native.picollo_openmetrics_options_default();
            o.Bounds = bounds == null ? IntPtr.Zero : pin(bounds);
            o.BoundCount = new UIntPtr((uint)(bounds == null ? 0 : bounds.Length));
            o.UnitRatio = unitRatio;
            o.CreatedUnixNanos = created;
            var buf = new byte[1 << 16];
            UIntPtr needed;
            Status st = Native.picollo_histogram_openmetrics(h.Handle, z(name), z(help), z(unit), l.Length == 0 ? null : l,
                                                             new UIntPtr((uint)l.Length), ref o, buf, new UIntPtr((uint)buf.Length), out needed);
            Equal(Status.Ok, st, "raw picollo_histogram_openmetrics");
            int n = (int)needed.ToUInt64();
            Equal((byte)0, buf[n], "OpenMetrics text is NUL-terminated");
            return Encoding.UTF8.GetString(buf, 0, n);
        }
        finally
        {
            foreach (var g in pins) g.Free();
        }
    }

    // -------------------------------------------------------------------------------------

    static void MetricsLayout()
    {
        int label = Marshal.SizeOf(typeof(Label));
        int om = Marshal.SizeOf(typeof(OpenMetricsOptionsData)), otlp = Marshal.SizeOf(typeof(OtlpOptionsData));
        // Same format as sizes.c's third line, which run.sh compares.
        Console.WriteLine("metrics struct sizes: label={0} openmetrics_options={1} otlp_options={2} "
                          + "openmetrics_options.coarse_relative_error@{3} openmetrics_options.created_unix_nanos@{4} "
                          + "otlp_options.start_time_unix_nano@{5} otlp_options.scale@{6} otlp_options.unit_ratio@{7}",
                          label, om, otlp,
                          (int)Marshal.OffsetOf(typeof(OpenMetricsOptionsData), "CoarseRelativeError"),
                          (int)Marshal.OffsetOf(typeof(OpenMetricsOptionsData), "CreatedUnixNanos"),
                          (int)Marshal.OffsetOf(typeof(OtlpOptionsData), "StartTimeUnixNano"),
                          (int)Marshal.OffsetOf(typeof(OtlpOptionsData), "Scale"),
                          (int)Marshal.OffsetOf(typeof(OtlpOptionsData), "UnitRatio"));
        var d = OpenMetricsOptionsData.Default;
        Equal((uint)om, d.StructSize, "openmetrics_options_default().struct_size is the C# size");
        Check(d.Summary == 0 && d.Bounds == IntPtr.Zero && d.BoundCount == UIntPtr.Zero && d.CoarseRelativeError == 0.05
              && d.UnitRatio == 1.0 && d.CreatedUnixNanos == 0, "openmetrics_options_default fields");
        var o = OtlpOptionsData.Default;
        Equal((uint)otlp, o.StructSize, "otlp_options_default().struct_size is the C# size");
        Check(o.Temporality == (uint)OtlpTemporality.Cumulative && o.Scale == OtlpOptionsData.ScaleAuto && o.UnitRatio == 1.0
              && o.Name == IntPtr.Zero && o.AttributeCount == UIntPtr.Zero && o.ResourceCount == UIntPtr.Zero,
              "otlp_options_default fields");
        Check(Native.picollo_abi_version() >= 0x00010005u, string.Format("ABI version {0:x8} is at least 1.5", Native.picollo_abi_version()));
    }

    /// <summary>Writer threads record into a concurrent histogram while this thread collects
    /// intervals: every record lands in exactly one interval.</summary>
    static void CollectWhileRecording(ConcurrencyMode mode, int writers)
    {
        const int n = 400000;
        Func<int, ulong> value = i => (ulong)((i * 7919L) % 100000) + 1;
        using (var h = new HdrHistogram(0.01, mode: mode))
        using (var reference = new HdrHistogram(0.01))
        using (var merged = new HdrHistogram(0.01))
        {
            for (int i = 0; i < n; i++) reference.Record(value(i));
            int running = writers;
            Exception failure = null;
            var threads = new List<Thread>();
            for (int t = 0; t < writers; t++)
            {
                int first = t;
                threads.Add(new Thread(() =>
                {
                    try { for (int i = first; i < n; i += writers) h.Record(value(i)); }
                    catch (Exception e) { failure = e; }
                    finally { Interlocked.Decrement(ref running); }
                }));
            }
            foreach (var t in threads) t.Start();
            int intervals = 0;
            ulong collected = 0;
            bool singleWriter = true;
            while (Volatile.Read(ref running) > 0)
            {
                using (var interval = h.Collect())
                {
                    singleWriter &= interval.Mode == ConcurrencyMode.SingleWriter && interval.Info.CounterBits == 64;
                    collected += interval.TotalCount;
                    merged.Add(interval);
                    intervals++;
                }
            }
            foreach (var t in threads) t.Join();
            Check(failure == null, "writer thread: " + failure);
            using (var rest = h.Collect())
            {
                collected += rest.TotalCount;
                merged.Add(rest);
                intervals++;
            }
            Console.WriteLine("collect: {0:N0} records by {1} writer(s), {2}, in {3} intervals", n, writers, mode, intervals);
            Check(singleWriter, "every interval is a 64-bit single-writer histogram");
            Equal((ulong)n, collected, mode + ": collected intervals plus the remainder hold every record");
            Equal(0ul, h.TotalCount, mode + ": the histogram counts from zero after the last collect");
            SameBuckets(reference, merged, mode + ": merged intervals against the records");
            using (var empty = h.Collect())
                Check(empty.TotalCount == 0 && !empty.BucketsWithValues.Any(), "a collect with nothing recorded since is empty");
        }
    }

    static void CollectSingleWriterAndSnapshot()
    {
        using (var h = new HdrHistogram(0.001, 1, 1000000))
        {
            h.Record(10, 3);
            h.Record(5000000);
            HistogramInfo before = h.Info;
            using (var first = h.Collect())
            {
                Equal(before.Total, first.TotalCount, "first interval total");
                Equal(1ul, first.OverflowCount, "overflow goes with the interval");
                Equal(0ul, h.OverflowCount, "and leaves the histogram");
                Equal(3ul, first.GetPercentile(50).Count, "the in-range bucket's count");
                Equal(h.Info.BlockSize, first.Info.BlockSize, "the interval has the histogram's layout");
                Equal(h.Info.MaxTrackable, first.Info.MaxTrackable, "and its range");
            }
            h.Record(77);
            using (var second = h.Collect())
                Check(second.TotalCount == 1 && second.GetPercentile(50).Value == 77, "second interval holds only the later record");

            h.Record(42, 5);
            using (var snap = h.GetSnapshot())
            {
                snap.CollectFrom(h);
                var s = snap.GetSummary();
                Check(s.TotalCount == 5 && s.P50.Value == 42, "snapshot collect holds the interval: " + s.Line());
                Equal(0ul, h.TotalCount, "the histogram counts from zero after a snapshot collect");
                h.Record(900, 2);
                snap.CollectFrom(h);
                s = snap.GetSummary();
                Check(s.TotalCount == 2 && s.P50.Value == 900, "the next snapshot collect holds only the next interval: " + s.Line());
            }
            using (var other = new HdrHistogram(0.01))
            using (var snap = other.GetSnapshot())
                Throws(Status.LayoutMismatch, () => snap.CollectFrom(h), "snapshot collect from a histogram of another layout");
        }
    }

    /// <summary>Values 1..500 (value v recorded v % 7 + 1 times), exact in a 0.001 layout.</summary>
    static HdrHistogram SmallValues(ulong max = 1000000)
    {
        var h = new HdrHistogram(0.001, 1, max);
        for (ulong v = 1; v <= 500; v++) h.Record(v, v % 7 + 1);
        return h;
    }

    static ulong CountUpTo(ulong bound)
    {
        ulong c = 0;
        for (ulong v = 1; v <= 500 && v <= bound; v++) c += v % 7 + 1;
        return c;
    }

    static void OpenMetricsOneShot()
    {
        using (var h = SmallValues())
        {
            ulong[] bounds = { 10, 50, 100, 250 };
            var options = new OpenMetricsOptions { Bounds = bounds };
            var labels = Labels.Of("method", "get", "path", "/a\"b");
            string text = h.ToOpenMetrics("rpc_latency", "Latency of \"rpc\"\nsecond line", null, labels, options);
            Equal(RawOpenMetrics(h, "rpc_latency", "Latency of \"rpc\"\nsecond line", null,
                                 new[] { "method", "get", "path", "/a\"b" }, bounds, 1.0, 0),
                  text, "ToOpenMetrics equals the raw C call");
            var lines = Lines(text);
            Equal("# TYPE rpc_latency histogram", lines[0], "first line is # TYPE");
            Equal("# HELP rpc_latency Latency of \\\"rpc\\\"\\nsecond line", lines[1], "help escaped");
            Check(text.EndsWith("\n# EOF\n"), "ends with # EOF");
            Equal(1, lines.Count(l => l == "# EOF"), "one # EOF");
            const string ls = "{method=\"get\",path=\"/a\\\"b\"";
            foreach (ulong b in bounds)
                Equal(CountUpTo(b).ToString(), Sample(text, "rpc_latency_bucket" + ls + ",le=\"" + b + ".0\"}"), "bucket le=" + b);
            Equal(h.TotalCount.ToString(), Sample(text, "rpc_latency_bucket" + ls + ",le=\"+Inf\"}"), "bucket +Inf");
            Equal(h.TotalCount.ToString(), Sample(text, "rpc_latency_count" + ls + "}"), "_count");
            double sum = 0;
            for (ulong v = 1; v <= 500; v++) sum += v * (v % 7 + 1);
            Equal(sum, Number(Sample(text, "rpc_latency_sum" + ls + "}")), "_sum of exact buckets is the exact sum");
            Check(!text.Contains("_created"), "no _created unless given");

            // A unit, a ratio and a created time; no labels.
            options = new OpenMetricsOptions { Bounds = bounds, UnitRatio = 1000, CreatedUnixNanos = 1700000000123456789 };
            text = h.ToOpenMetrics("rpc_latency_seconds", "", "seconds", null, options);
            Equal(RawOpenMetrics(h, "rpc_latency_seconds", "", "seconds", new string[0], bounds, 1000, 1700000000123456789),
                  text, "ToOpenMetrics with unit, ratio and created equals the raw C call");
            Check(Lines(text).Contains("# UNIT rpc_latency_seconds seconds"), "# UNIT line");
            Check(!text.Contains("# HELP"), "no # HELP for empty help");
            Equal(CountUpTo(50).ToString(), Sample(text, "rpc_latency_seconds_bucket{le=\"0.05\"}"), "le divided by the unit ratio");
            Equal(sum / 1000, Number(Sample(text, "rpc_latency_seconds_sum")), "_sum divided by the unit ratio");
            Equal("1700000000.123456789", Sample(text, "rpc_latency_seconds_created"), "_created in seconds");

            // Summary family.
            text = h.ToOpenMetrics("rpc_summary", options: new OpenMetricsOptions { Summary = true });
            Check(Lines(text).Contains("# TYPE rpc_summary summary"), "summary # TYPE:\n" + text);
            foreach (var q in new[] { "0.5", "0.9", "0.99", "1.0" })
            {
                ulong expected = h.GetPercentile(Number(q) * 100).Value;
                Equal((double)expected, Number(Sample(text, "rpc_summary{quantile=\"" + q + "\"}")), "summary quantile " + q);
            }
            Equal(h.TotalCount.ToString(), Sample(text, "rpc_summary_count"), "summary _count");
            Check(!text.Contains("_bucket"), "a summary has no buckets");
        }
    }

    static void PrometheusBucketsMatch()
    {
        using (var h = SmallValues())
        {
            ulong[] bounds = { 10, 50, 100, 250 };
            var pb = h.GetPrometheusBuckets(new OpenMetricsOptions { Bounds = bounds, UnitRatio = 10 });
            Equal(bounds.Length + 1, pb.Le.Length, "explicit bounds and +Inf");
            for (int i = 0; i < bounds.Length; i++)
            {
                Equal(bounds[i] / 10.0, pb.Le[i], "le[" + i + "] in exported units");
                Equal(CountUpTo(bounds[i]), pb.Cumulative[i], "cumulative[" + i + "]");
            }
            Check(double.IsPositiveInfinity(pb.Le[bounds.Length]), "the last le is +Inf");
            Equal(h.TotalCount, pb.Count, "+Inf holds every record");

            // Derived bounds: each le is a bucket's highest value, so its count is exact.
            var coarse = new OpenMetricsOptions { CoarseRelativeError = 0.1 };
            pb = h.GetPrometheusBuckets(coarse);
            string text = h.ToOpenMetrics("coarse", options: coarse);
            Check(pb.Le.Length > 3, "derived bounds: " + pb.Le.Length);
            var buckets = h.BucketsWithValues.ToList();
            bool ordered = true, exact = true, inText = true;
            for (int i = 0; i < pb.Le.Length; i++)
            {
                if (i > 0 && !(pb.Le[i] > pb.Le[i - 1] && pb.Cumulative[i] >= pb.Cumulative[i - 1])) ordered = false;
                double le = pb.Le[i];
                ulong below = 0;
                foreach (var b in buckets) if (b.Highest <= le) below += b.Count;
                if (below != pb.Cumulative[i]) exact = false;
                string leText = double.IsPositiveInfinity(le) ? "+Inf" : le.ToString("0.0###############", CultureInfo.InvariantCulture);
                if (!text.Contains("coarse_bucket{le=\"" + leText + "\"} " + pb.Cumulative[i] + "\n")) inText = false;
            }
            Check(ordered, "le and cumulative counts increase");
            Check(exact, "each cumulative count is the count of buckets at or below its le");
            Check(inText, "the OpenMetrics text has the same buckets:\n" + text);
            Equal(Number(Sample(text, "coarse_sum")), pb.Sum, "sum equals the text's _sum");

            // Counts at 0 capacity: the size question.
            var o = OpenMetricsOptionsData.Default;
            UIntPtr count;
            double s;
            Status st = Native.picollo_histogram_prometheus_buckets(h.Handle, ref o, null, null, UIntPtr.Zero, out count, out s);
            Equal(Status.BufferTooSmall, st, "(NULL, NULL, 0) asks the size");
            Equal((ulong)h.GetPrometheusBuckets().Le.Length, count.ToUInt64(), "the size asked is the count returned");
            var le1 = new double[1];
            var cum1 = new ulong[1];
            if (count.ToUInt64() > 1)
            {
                cum1[0] = 12345;
                st = Native.picollo_histogram_prometheus_buckets(h.Handle, ref o, le1, cum1, new UIntPtr(1u), out count, out s);
                Check(st == Status.BufferTooSmall && cum1[0] == 12345, "too small a capacity writes nothing: " + st);
            }
        }
    }

    static void OpenMetricsWriterFamilies()
    {
        using (var get = SmallValues())
        using (var put = new HdrHistogram(0.001, 1, 1000000))
        using (var other = new HdrHistogram(0.01))
        {
            put.Record(300, 4);
            ulong[] bounds = { 10, 100, 1000 };
            var options = new OpenMetricsOptions { Bounds = bounds };

            // One family with one point: the same text as the one-shot call.
            using (var w = new OpenMetricsWriter())
            {
                w.Family("rpc_latency", "help text", null, options).Point(get, Labels.Of("method", "get"));
                w.Finish();
                Equal(get.ToOpenMetrics("rpc_latency", "help text", null, Labels.Of("method", "get"), options), w.ToString(),
                      "writer with one family and point equals the one-shot text");
            }

            var sw = new StringWriter();
            using (var w = new OpenMetricsWriter(sw))
            {
                w.Family("rpc_latency", "by method", null, options);
                Check(sw.ToString().StartsWith("# TYPE rpc_latency histogram\n"), "family metadata written at once: " + sw);
                w.Point(get, Labels.Of("method", "get")).Point(put, new Dictionary<string, string> { { "method", "put" } });
                Throws(Status.LayoutMismatch, () => w.Point(other, Labels.Of("method", "other")), "a point of another layout in the family");
                w.Family("rpc_summary", null, null, new OpenMetricsOptions { Summary = true }).Point(put);
                Throws(Status.InvalidArgument, () => w.Family("rpc_latency"), "a family name already written");
                Throws(Status.InvalidArgument, () => w.Family("rpc_latency_sum"), "a histogram family named with a sample suffix");
                w.Finish();
                Throws(Status.InvalidArgument, () => w.Family("late"), "a family after # EOF");
                Throws(Status.InvalidArgument, () => w.Point(get), "a point after # EOF");
            }
            string text = sw.ToString();
            var lines = Lines(text).ToList();
            Equal(1, lines.Count(l => l.StartsWith("# TYPE rpc_latency histogram")), "first family once");
            Equal(1, lines.Count(l => l.StartsWith("# TYPE rpc_summary summary")), "second family once");
            Check(lines.IndexOf("# TYPE rpc_summary summary") > lines.FindIndex(l => l.StartsWith("rpc_latency_sum{method=\"put\"}")),
                  "families in order:\n" + text);
            Equal(CountUpTo(100).ToString(), Sample(text, "rpc_latency_bucket{method=\"get\",le=\"100.0\"}"), "get le=100");
            Equal("0", Sample(text, "rpc_latency_bucket{method=\"put\",le=\"100.0\"}"), "put le=100");
            Equal("4", Sample(text, "rpc_latency_bucket{method=\"put\",le=\"1000.0\"}"), "put le=1000");
            Equal("4", Sample(text, "rpc_summary_count"), "summary count");
            Equal(300.0, Number(Sample(text, "rpc_summary{quantile=\"0.5\"}")), "summary median");
            Check(text.EndsWith("\n# EOF\n") && lines.Count(l => l == "# EOF") == 1, "one # EOF, at the end");
            Check(!text.Contains("other"), "the refused point wrote nothing");

            using (var w = new OpenMetricsWriter())
                Throws(Status.InvalidArgument, () => w.Point(get), "a point before any family");

            var disposed = new OpenMetricsWriter();
            disposed.Dispose();
            disposed.Dispose();
            Throws<ObjectDisposedException>(() => disposed.Family("x"), "family on a disposed writer");
            using (var w = new OpenMetricsWriter())
            {
                var gone = new HdrHistogram(0.001);
                gone.Dispose();
                w.Family("x");
                Throws<ObjectDisposedException>(() => w.Point(gone), "point of a disposed histogram");
            }
        }
    }

    // A small JSON reader for the OTLP checks: objects as dictionaries, arrays as lists,
    // numbers as doubles, strings, bools, null.
    sealed class Json
    {
        readonly string _s;
        int _i;

        Json(string s) { _s = s; }

        public static object Parse(string s)
        {
            var p = new Json(s);
            object v = p.Value();
            p.Space();
            if (p._i != s.Length) throw new FormatException("JSON: trailing text at " + p._i);
            return v;
        }

        void Space() { while (_i < _s.Length && char.IsWhiteSpace(_s[_i])) _i++; }

        void Expect(char c)
        {
            Space();
            if (_i >= _s.Length || _s[_i] != c) throw new FormatException("JSON: expected '" + c + "' at " + _i);
            _i++;
        }

        object Value()
        {
            Space();
            if (_i >= _s.Length) throw new FormatException("JSON: unexpected end");
            char c = _s[_i];
            if (c == '{')
            {
                var o = new Dictionary<string, object>();
                _i++;
                Space();
                if (_s[_i] == '}') { _i++; return o; }
                while (true)
                {
                    Space();
                    string key = String();
                    Expect(':');
                    o.Add(key, Value());
                    Space();
                    if (_s[_i] == ',') { _i++; continue; }
                    Expect('}');
                    return o;
                }
            }
            if (c == '[')
            {
                var a = new List<object>();
                _i++;
                Space();
                if (_s[_i] == ']') { _i++; return a; }
                while (true)
                {
                    a.Add(Value());
                    Space();
                    if (_s[_i] == ',') { _i++; continue; }
                    Expect(']');
                    return a;
                }
            }
            if (c == '"') return String();
            foreach (var word in new[] { "true", "false", "null" })
                if (string.CompareOrdinal(_s, _i, word, 0, word.Length) == 0)
                {
                    _i += word.Length;
                    return word == "null" ? null : (object)(word == "true");
                }
            int start = _i;
            while (_i < _s.Length && "+-0123456789.eE".IndexOf(_s[_i]) >= 0) _i++;
            if (start == _i) throw new FormatException("JSON: unexpected '" + c + "' at " + _i);
            return Number(_s.Substring(start, _i - start));
        }

        string String()
        {
            if (_s[_i] != '"') throw new FormatException("JSON: expected a string at " + _i);
            _i++;
            var sb = new StringBuilder();
            while (_s[_i] != '"')
            {
                char c = _s[_i++];
                if (c != '\\') { sb.Append(c); continue; }
                char e = _s[_i++];
                switch (e)
                {
                    case 'n': sb.Append('\n'); break;
                    case 'r': sb.Append('\r'); break;
                    case 't': sb.Append('\t'); break;
                    case 'b': sb.Append('\b'); break;
                    case 'f': sb.Append('\f'); break;
                    case 'u': sb.Append((char)Convert.ToInt32(_s.Substring(_i, 4), 16)); _i += 4; break;
                    default: sb.Append(e); break;
                }
            }
            _i++;
            return sb.ToString();
        }
    }

    static object At(object json, params object[] path)
    {
        foreach (var step in path)
        {
            if (step is string)
            {
                var o = json as Dictionary<string, object>;
                if (o == null || !o.TryGetValue((string)step, out json))
                    throw new KeyNotFoundException("JSON: no key " + step);
            }
            else json = ((List<object>)json)[(int)step];
        }
        return json;
    }

    /// <summary>OTLP attributes ([{key, value: {stringValue}}]) as a dictionary.</summary>
    static Dictionary<string, string> Attributes(object list)
    {
        return ((List<object>)list).ToDictionary(a => (string)At(a, "key"), a => (string)At(a, "value", "stringValue"));
    }

    // A protobuf walker for the OTLP checks: a message's fields as (number, wire type,
    // varint or fixed64 value, length-delimited bytes).
    sealed class ProtoField
    {
        public int Number, Wire;
        public ulong Value;
        public byte[] Bytes;
    }

    static ulong Varint(byte[] b, ref int i)
    {
        ulong v = 0;
        for (int shift = 0; ; shift += 7)
        {
            byte x = b[i++];
            v |= (ulong)(x & 0x7f) << shift;
            if (x < 0x80) return v;
        }
    }

    static List<ProtoField> Proto(byte[] b)
    {
        var fields = new List<ProtoField>();
        int i = 0;
        while (i < b.Length)
        {
            ulong key = Varint(b, ref i);
            var f = new ProtoField { Number = (int)(key >> 3), Wire = (int)(key & 7) };
            switch (f.Wire)
            {
                case 0: f.Value = Varint(b, ref i); break;
                case 1: f.Value = BitConverter.ToUInt64(b, i); i += 8; break;
                case 2:
                    int n = checked((int)Varint(b, ref i));
                    f.Bytes = new byte[n];
                    Array.Copy(b, i, f.Bytes, 0, n);
                    i += n;
                    break;
                default: throw new FormatException("protobuf: wire type " + f.Wire);
            }
            fields.Add(f);
        }
        return fields;
    }

    /// <summary>The only field with this number.</summary>
    static ProtoField One(List<ProtoField> fields, int number)
    {
        var hits = fields.Where(f => f.Number == number).ToList();
        if (hits.Count != 1) throw new FormatException("protobuf: " + hits.Count + " fields numbered " + number);
        return hits[0];
    }

    static void Otlp()
    {
        using (var h = new HdrHistogram(0.01))
        {
            h.Record(0, 3);
            for (ulong v = 1; v <= 100000; v = v * 3 / 2 + 1) h.Record(v * 1000, v % 5 + 1);
            var options = new OtlpOptions
            {
                Description = "RPC latency",
                Unit = "ms",
                Temporality = OtlpTemporality.Delta,
                StartTimeUnixNano = 1700000000000000000,
                TimeUnixNano = 1700000010000000000,
                Attributes = Labels.Of("method", "get"),
                Resource = Labels.Of("service.name", "picollo-tests"),
                ScopeName = "picollo.tests",
                ScopeVersion = "1.5",
                UnitRatio = 1000,
            };
            string json = h.ToOtlpJson("rpc.latency", options);
            object root = Json.Parse(json);
            Equal("picollo-tests", Attributes(At(root, "resourceMetrics", 0, "resource", "attributes"))["service.name"], "resource attribute");
            Equal("picollo.tests", At(root, "resourceMetrics", 0, "scopeMetrics", 0, "scope", "name"), "scope name");
            Equal("1.5", At(root, "resourceMetrics", 0, "scopeMetrics", 0, "scope", "version"), "scope version");
            object metric = At(root, "resourceMetrics", 0, "scopeMetrics", 0, "metrics", 0);
            Equal("rpc.latency", At(metric, "name"), "metric name");
            Equal("RPC latency", At(metric, "description"), "description");
            Equal("ms", At(metric, "unit"), "unit");
            Equal(1.0, At(metric, "exponentialHistogram", "aggregationTemporality"), "delta temporality");
            object point = At(metric, "exponentialHistogram", "dataPoints", 0);
            Equal("get", Attributes(At(point, "attributes"))["method"], "point attribute");
            Equal("1700000000000000000", At(point, "startTimeUnixNano"), "start time");
            Equal("1700000010000000000", At(point, "timeUnixNano"), "time");
            Equal(h.TotalCount.ToString(), At(point, "count"), "count");
            Equal("3", At(point, "zeroCount"), "zero count");
            var counts = ((List<object>)At(point, "positive", "bucketCounts")).Select(c => ulong.Parse((string)c)).ToList();
            Equal(h.TotalCount, 3 + (ulong)counts.Sum(c => (decimal)c), "zero count plus bucket counts is the count");
            double sum = (double)At(point, "sum"), exact = h.Mean * h.TotalCount / 1000;
            Check(Math.Abs(sum - exact) <= 0.011 * exact, string.Format("sum {0} within the layout's error of {1}", sum, exact));
            double max = (double)At(point, "max");
            ulong top = h.GetPercentile(100).Value;
            Check(max >= top / 1000.0 * 0.99 && max <= top / 1000.0 * 1.01, string.Format("max {0} near {1}", max, top / 1000.0));

            // A given scale, cumulative by default.
            var plain = h.ToOtlpJson("plain", new OtlpOptions { Scale = 2 });
            object p2 = At(Json.Parse(plain), "resourceMetrics", 0, "scopeMetrics", 0, "metrics", 0, "exponentialHistogram");
            Equal(2.0, At(p2, "aggregationTemporality"), "cumulative by default");
            Equal(2.0, At(p2, "dataPoints", 0, "scale"), "the scale given");
            var c2 = ((List<object>)At(p2, "dataPoints", 0, "positive", "bucketCounts")).Select(c => ulong.Parse((string)c)).ToList();
            Check(c2.Count < counts.Count, string.Format("a coarser scale has fewer buckets ({0} < {1})", c2.Count, counts.Count));

            // Protobuf: ExportMetricsServiceRequest.resource_metrics (1) → scope_metrics (2) →
            // metrics (2) → exponential_histogram (10) → data_points (1).
            byte[] pb = h.ToOtlpProtobuf("rpc.latency", options);
            Check(pb.Length > 0 && pb[0] == 0x0A, "protobuf starts with field 1, length-delimited (0x0A)");
            var rm = Proto(One(Proto(pb), 1).Bytes);
            var sm = Proto(One(rm, 2).Bytes);
            var m = Proto(One(sm, 2).Bytes);
            Equal("rpc.latency", Encoding.UTF8.GetString(One(m, 1).Bytes), "protobuf metric name");
            Equal("ms", Encoding.UTF8.GetString(One(m, 3).Bytes), "protobuf unit");
            var eh = Proto(One(m, 10).Bytes);
            Equal(1ul, One(eh, 2).Value, "protobuf temporality");
            var dp = Proto(One(eh, 1).Bytes);
            Equal(h.TotalCount, One(dp, 4).Value, "protobuf count");
            Equal(3ul, One(dp, 7).Value, "protobuf zero count");
            Equal(1700000000000000000ul, One(dp, 2).Value, "protobuf start time");
            Equal(sum, BitConverter.Int64BitsToDouble((long)One(dp, 5).Value), "protobuf sum equals the JSON's");
            var positive = Proto(One(dp, 8).Bytes);
            byte[] packed = One(positive, 2).Bytes;
            var pbCounts = new List<ulong>();
            for (int i = 0; i < packed.Length;) pbCounts.Add(Varint(packed, ref i));
            Check(pbCounts.SequenceEqual(counts), "protobuf bucket counts equal the JSON's");
            long offset = (long)(double)At(point, "positive", "offset");
            var off = positive.Where(f => f.Number == 1).ToList();
            ulong zz = off.Count == 0 ? 0 : off[0].Value;
            Equal(offset, (long)(zz >> 1) ^ -(long)(zz & 1), "protobuf offset (zigzag) equals the JSON's");
        }
    }

    static void MetricsBadOptions()
    {
        using (var h = SmallValues())
        {
            Throws(Status.InvalidArgument, () => h.ToOpenMetrics("x", options: new OpenMetricsOptions { Bounds = new ulong[] { 100, 10 } }),
                          "bounds not increasing");
            Throws(Status.InvalidArgument, () => h.ToOpenMetrics("x", options: new OpenMetricsOptions { CoarseRelativeError = 0 }), "coarse error 0");
            Throws(Status.InvalidArgument, () => h.ToOpenMetrics("x", options: new OpenMetricsOptions { CoarseRelativeError = 1.5 }), "coarse error 1.5");
            Throws(Status.InvalidArgument, () => h.ToOpenMetrics("x", options: new OpenMetricsOptions { UnitRatio = -1 }), "negative unit ratio");
            Throws(Status.InvalidArgument, () => h.ToOpenMetrics("x", options: new OpenMetricsOptions { UnitRatio = double.NaN }), "NaN unit ratio");
            Throws(Status.InvalidArgument, () => h.ToOpenMetrics("1bad"), "a metric name starting with a digit");
            Throws(Status.InvalidArgument, () => h.ToOpenMetrics("rpc_latency", unit: "seconds"), "a unit the name does not end with");
            Throws(Status.InvalidArgument, () => h.ToOpenMetrics("x", labels: Labels.Of("le", "1")), "the le label");
            Throws(Status.InvalidArgument, () => h.ToOpenMetrics("x", labels: Labels.Of("a", "1", "a", "2")), "a label twice");
            Throws(Status.InvalidArgument, () => h.ToOpenMetrics("x", labels: Labels.Of("__x", "1")), "a reserved label name");
            Throws(Status.NullPointer, () => h.ToOpenMetrics("x", labels: new[] { new KeyValuePair<string, string>("a", null) }), "a NULL label value");
            Throws(Status.InvalidArgument, () => h.GetPrometheusBuckets(new OpenMetricsOptions { Bounds = new ulong[] { 5, 5 } }),
                          "prometheus buckets with repeated bounds");
            Throws(Status.InvalidArgument, () => h.ToOtlpJson("x", new OtlpOptions { Scale = 21 }), "OTLP scale above 20");
            Throws(Status.InvalidArgument, () => h.ToOtlpProtobuf("x", new OtlpOptions { Scale = -11 }), "OTLP scale below -10");
            Throws(Status.InvalidArgument, () => h.ToOtlpJson("x", new OtlpOptions { Temporality = (OtlpTemporality)7 }), "OTLP temporality 7");
            Throws(Status.InvalidArgument, () => h.ToOtlpJson("x", new OtlpOptions { UnitRatio = 0 }), "OTLP unit ratio 0");
            Throws(Status.InvalidArgument, () => h.ToOtlpJson("x", new OtlpOptions { StartTimeUnixNano = 2, TimeUnixNano = 1 }),
                   "OTLP start after the time");
            Throws(Status.InvalidArgument, () => h.ToOtlpJson(""), "OTLP with an empty name");
            Throws(Status.InvalidArgument, () => h.ToOtlpJson("x", new OtlpOptions { Attributes = Labels.Of("a", "1", "a", "2") }),
                   "OTLP attribute given twice");
            Throws(Status.InvalidArgument, () => h.GetPrometheusBuckets(new OpenMetricsOptions { Summary = true }),
                   "Prometheus buckets of a summary");
            Throws<ArgumentNullException>(() => h.ToOtlpJson(null), "OTLP without a name");
            Throws<ArgumentException>(() => Labels.Of("odd"), "labels need pairs");

            // struct_size: the library refuses a struct it does not know.
            var o = OpenMetricsOptionsData.Default;
            o.StructSize = 4;
            UIntPtr needed;
            Throws(Status.StructSize, () => PicolloException.Check(Native.picollo_histogram_openmetrics(
                h.Handle, Encoding.UTF8.GetBytes("x\0"), null, null, null, UIntPtr.Zero, ref o, null, UIntPtr.Zero, out needed)),
                "openmetrics options with struct_size 4");
            var t = OtlpOptionsData.Default;
            t.StructSize = 4;
            Throws(Status.StructSize, () => PicolloException.Check(Native.picollo_histogram_otlp(
                h.Handle, ref t, OtlpFormat.Json, null, UIntPtr.Zero, out needed)), "otlp options with struct_size 4");
            t = OtlpOptionsData.Default;
            Throws(Status.NullPointer, () => PicolloException.Check(Native.picollo_histogram_otlp(
                h.Handle, ref t, OtlpFormat.Json, null, UIntPtr.Zero, out needed)), "otlp options without a name");
            var name = GCHandle.Alloc(Encoding.UTF8.GetBytes("x\0"), GCHandleType.Pinned);
            try
            {
                t.Name = name.AddrOfPinnedObject();
                Throws(Status.InvalidArgument, () => PicolloException.Check(Native.picollo_histogram_otlp(
                    h.Handle, ref t, (OtlpFormat)9, null, UIntPtr.Zero, out needed)), "otlp format 9");
                t.Reserved = 1;
                Throws(Status.InvalidArgument, () => PicolloException.Check(Native.picollo_histogram_otlp(
                    h.Handle, ref t, OtlpFormat.Json, null, UIntPtr.Zero, out needed)), "otlp options with reserved set");
                t.Reserved = 0;
                Throws(Status.NullPointer, () => PicolloException.Check(Native.picollo_histogram_otlp(
                    h.Handle, ref t, OtlpFormat.Json, null, new UIntPtr(8u), out needed)), "otlp NULL buffer with a length");
                Status st = Native.picollo_histogram_otlp(h.Handle, ref t, OtlpFormat.Protobuf, null, UIntPtr.Zero, out needed);
                Equal(Status.BufferTooSmall, st, "protobuf (NULL, 0) asks the size");
                var small = new byte[needed.ToUInt64() - 1];
                st = Native.picollo_histogram_otlp(h.Handle, ref t, OtlpFormat.Protobuf, small, new UIntPtr((ulong)small.Length), out needed);
                Check(st == Status.BufferTooSmall && small.All(b => b == 0), "protobuf into a buffer one byte short writes nothing: " + st);
            }
            finally
            {
                name.Free();
            }
        }
    }

    static void MetricsGroups()
    {
        Group("metrics: layout", MetricsLayout);
        Group("metrics: collect while recording (interlocked)", () => CollectWhileRecording(ConcurrencyMode.Interlocked, 1));
        Group("metrics: collect while recording (thread-local)", () => CollectWhileRecording(ConcurrencyMode.ThreadLocal, 2));
        Group("metrics: collect and snapshot collect", CollectSingleWriterAndSnapshot);
        Group("metrics: OpenMetrics one-shot", OpenMetricsOneShot);
        Group("metrics: Prometheus buckets", PrometheusBucketsMatch);
        Group("metrics: OpenMetrics writer", OpenMetricsWriterFamilies);
        Group("metrics: OTLP", Otlp);
        Group("metrics: Prometheus native histograms", PrometheusNativeHistograms);  // PrometheusNativeTests.cs
        Group("metrics: bad options", MetricsBadOptions);
    }
}
