// Tests of Prometheus native histograms through the C# binding (PicolloPrometheusNative.cs):
// the delimited MetricFamily of an HdrHistogram and of a FloatHistogram walked field by field
// with MetricsTests.cs's protobuf walker (name, type, labels, count, sum, schema, zero
// bucket, spans and deltas adding up to the count), an empty histogram's no-op span, the
// options struct's size, and options the library refuses. Part of the Tests program.

using System;
using System.Linq;
using System.Text;
using Picollo;
using Picollo.Metrics;

static partial class Tests
{
    /// <summary>What the checks need of the one series of a one-family body.</summary>
    sealed class NativeRead
    {
        public string Name, LabelValue;
        public ulong Type, Count, ZeroCount, Positive, Negative;
        public double Sum, ZeroThreshold;
        public long Schema;
        public int NoOpSpans;
    }

    static long Unzigzag(ulong v) { return (long)(v >> 1) ^ -(long)(v & 1); }

    static NativeRead ReadNative(byte[] body)
    {
        int at = 0;
        int size = checked((int)Varint(body, ref at));
        Equal(body.Length, at + size, "one delimited MetricFamily fills the body");
        var family = Proto(body.Skip(at).Take(size).ToArray());
        var r = new NativeRead
        {
            Name = Encoding.UTF8.GetString(One(family, 1).Bytes),
            Type = One(family, 3).Value,
        };
        var metric = Proto(One(family, 4).Bytes);
        var label = metric.Where(f => f.Number == 1).Select(f => Proto(f.Bytes)).FirstOrDefault();
        r.LabelValue = label == null ? null : Encoding.UTF8.GetString(One(label, 2).Bytes);
        var h = Proto(One(metric, 7).Bytes);
        r.Count = One(h, 1).Value;
        r.Sum = BitConverter.Int64BitsToDouble((long)One(h, 2).Value);
        r.Schema = Unzigzag(One(h, 5).Value);
        r.ZeroThreshold = BitConverter.Int64BitsToDouble((long)One(h, 6).Value);
        r.ZeroCount = One(h, 7).Value;
        // Deltas: the first count absolute, then each a change from the one before.
        foreach (var side in new[] { 10, 13 })
        {
            long count = 0;
            ulong total = 0;
            foreach (var d in h.Where(f => f.Number == side))
            {
                count += Unzigzag(d.Value);
                total += (ulong)count;
            }
            if (side == 10) r.Negative = total; else r.Positive = total;
        }
        r.NoOpSpans = h.Where(f => f.Number == 12).Count(f => Proto(f.Bytes).All(s => s.Value == 0));
        return r;
    }

    static void PrometheusNativeHistograms()
    {
        Equal((uint)System.Runtime.InteropServices.Marshal.SizeOf(typeof(PrometheusNativeOptionsData)), PrometheusNativeOptionsData.Default.StructSize,
              "prometheus_native_options_default().struct_size is the C# size");
        using (var h = new HdrHistogram(0.01))
        {
            var options = new PrometheusNativeOptions
            {
                Help = "RPC latency",
                Labels = Labels.Of("method", "GET"),
                UnitRatio = 1e9,
            };
            var empty = ReadNative(h.ToPrometheusNative("rpc_latency_seconds", options));
            Check(empty.Count == 0 && empty.ZeroThreshold > 0 && empty.NoOpSpans == 1,
                  "an empty histogram is native: a positive zero threshold and a no-op span");
            h.Record(0);
            for (ulong v = 1; v <= 1000; v++) h.Record(v * 1000);
            var r = ReadNative(h.ToPrometheusNative("rpc_latency_seconds", options));
            Equal("rpc_latency_seconds", r.Name, "family name");
            Equal(4UL, r.Type, "type HISTOGRAM");
            Equal("GET", r.LabelValue, "label value");
            Equal(1001UL, r.Count, "sample_count");
            Equal(1UL, r.ZeroCount, "zero_count");
            Equal(1000UL, r.Positive, "the positive deltas add up to the other values");
            Equal(0UL, r.Negative, "no negative buckets");
            Equal(6L, r.Schema, "1 % gives schema 6");
            Check(Math.Abs(r.Sum - 0.5005) < 1e-3, "sample_sum " + r.Sum);
            options.Schema = -1;
            Equal(-1L, ReadNative(h.ToPrometheusNative("rpc_latency_seconds", options)).Schema, "a given schema");
            options.Schema = 9;
            Throws(Status.InvalidArgument, () => h.ToPrometheusNative("rpc_latency_seconds", options), "schema 9");
            options.Schema = null;
            Throws(Status.InvalidArgument, () => h.ToPrometheusNative("rpc_latency_bucket", options), "a _bucket name");
            Throws(Status.InvalidArgument, () => h.ToPrometheusNative("x", new PrometheusNativeOptions { Labels = Labels.Of("le", "1") }),
                   "the le label");
            Throws<ArgumentNullException>(() => h.ToPrometheusNative(null), "a null name");
        }
        using (var f = new FloatHistogram(0.01))
        {
            foreach (var v in new[] { -250.0, -3.5, -0.002, 0.0, 0.0, 1e-3, 2.0, 7e6, double.NaN }) f.Record(v);
            var r = ReadNative(f.ToPrometheusNative("temperature_delta"));
            Equal(8UL, r.Count, "doubles: NaN left out");
            Equal(2UL, r.ZeroCount, "doubles: the zeros");
            Equal(3UL, r.Negative, "doubles: negative buckets");
            Equal(3UL, r.Positive, "doubles: positive buckets");
            Equal(f.Sum, r.Sum, "doubles: the exact sum");
            Throws(Status.InvalidArgument,
                   () => f.ToPrometheusNative("x", new PrometheusNativeOptions { ClassicCoarseRelativeError = 0.1 }),
                   "classic buckets of doubles");
        }
        Check(PrometheusNative.ContentType.StartsWith("application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily"),
              "the content type");
    }
}
