// Picollo for .NET: metrics pipelines, on top of Picollo.cs (its Native class, handles,
// HdrHistogram and exceptions):
//   h.Collect() / snapshot.CollectFrom(h)   interval collection (the counts since the last
//                                           collect or reset; h counts on from zero);
//   h.ToOpenMetrics(...)                    one histogram or summary family, then # EOF;
//   OpenMetricsWriter                       several families and labelled points in one
//                                           exposition;
//   h.GetPrometheusBuckets(...)             the cumulative buckets a Prometheus client needs;
//   h.ToOtlpJson(...) / h.ToOtlpProtobuf(...)  an OTLP ExportMetricsServiceRequest with one
//                                           exponential-histogram point.
// Strings and arrays that the C option structs point to are pinned for the call only.

using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Text;
using Picollo.Metrics;

namespace Picollo
{
    /// <summary>picollo_label: one label (OpenMetrics) or attribute (OTLP), both pointers to
    /// NUL-terminated UTF-8 that the caller keeps alive for the call.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Label
    {
        public IntPtr Name;
        public IntPtr Value;
    }

    /// <summary>picollo_openmetrics_options: how a histogram is exposed as an OpenMetrics family.
    /// <see cref="OpenMetricsOptions"/> builds one from managed values.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct OpenMetricsOptionsData
    {
        public uint StructSize;
        /// <summary>0: histogram family; 1: summary family (the standard quantiles).</summary>
        public uint Summary;
        /// <summary>const uint64_t*: explicit le bounds in recorded units, or NULL.</summary>
        public IntPtr Bounds;
        public UIntPtr BoundCount;
        public double CoarseRelativeError;
        public double UnitRatio;
        public ulong CreatedUnixNanos;

        /// <summary>The library's defaults, with struct_size set by the library itself.</summary>
        public static OpenMetricsOptionsData Default { get { return Native.picollo_openmetrics_options_default(); } }
    }

    /// <summary>picollo_otlp_options: the metric, point and resource an OTLP export describes.
    /// <see cref="OtlpOptions"/> builds one from managed values.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct OtlpOptionsData
    {
        public uint StructSize;
        public uint Temporality;
        public IntPtr Name;
        public IntPtr Description;
        public IntPtr Unit;
        public ulong StartTimeUnixNano;
        public ulong TimeUnixNano;
        public IntPtr Attributes;
        public UIntPtr AttributeCount;
        public IntPtr Resource;
        public UIntPtr ResourceCount;
        public IntPtr ScopeName;
        public IntPtr ScopeVersion;
        public int Scale;
        /// <summary>Must be zero.</summary>
        public uint Reserved;
        public double UnitRatio;

        /// <summary>PICOLLO_OTLP_SCALE_AUTO: the scale follows from the layout's relative error.</summary>
        public const int ScaleAuto = int.MinValue;

        /// <summary>The library's defaults, with struct_size set by the library itself.</summary>
        public static OtlpOptionsData Default { get { return Native.picollo_otlp_options_default(); } }
    }

    /// <summary>picollo_otlp_format: what picollo_histogram_otlp writes.</summary>
    public enum OtlpFormat : uint
    {
        /// <summary>The protobuf bytes of an ExportMetricsServiceRequest.</summary>
        Protobuf = 0,
        /// <summary>OTLP/JSON text.</summary>
        Json = 1,
    }

    /// <summary>picollo_otlp_temporality: OTLP's AggregationTemporality.</summary>
    public enum OtlpTemporality : uint
    {
        /// <summary>The point holds only its interval: export a <see cref="HistogramMetricsExtensions.Collect"/>.</summary>
        Delta = 1,
        /// <summary>The point holds everything since a fixed start: export the histogram itself.</summary>
        Cumulative = 2,
    }

    internal static partial class Native
    {
        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_collect(HistogramHandle h, out HistogramHandle output);

        /// <summary>Two handles: raw pointers, pinned by Handles.Call2 (see picollo_histogram_add).</summary>
        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_snapshot_collect(IntPtr s, IntPtr h);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern OpenMetricsOptionsData picollo_openmetrics_options_default();

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_openmetrics(HistogramHandle h, byte[] name, byte[] help, byte[] unit,
                                                                  Label[] labels, UIntPtr labelCount, ref OpenMetricsOptionsData opts,
                                                                  byte[] buf, UIntPtr len, out UIntPtr needed);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_openmetrics_writer_new(out OpenMetricsWriterHandle writer);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern void picollo_openmetrics_writer_free(IntPtr w);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_openmetrics_writer_family(OpenMetricsWriterHandle w, byte[] name, byte[] help, byte[] unit,
                                                                      ref OpenMetricsOptionsData opts);

        /// <summary>Two handles: raw pointers, pinned by Handles.Call2.</summary>
        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_openmetrics_writer_point(IntPtr w, IntPtr h, Label[] labels, UIntPtr labelCount);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_openmetrics_writer_finish(OpenMetricsWriterHandle w);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_openmetrics_writer_take(OpenMetricsWriterHandle w, byte[] buf, UIntPtr len, out UIntPtr needed);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_prometheus_buckets(HistogramHandle h, ref OpenMetricsOptionsData opts,
                                                                         [Out] double[] le, [Out] ulong[] cumulative, UIntPtr capacity,
                                                                         out UIntPtr count, out double sum);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern OtlpOptionsData picollo_otlp_options_default();

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_otlp(HistogramHandle h, ref OtlpOptionsData o, OtlpFormat format,
                                                           byte[] buf, UIntPtr len, out UIntPtr needed);
    }

    /// <summary>Owns a picollo_openmetrics_writer*.</summary>
    internal sealed class OpenMetricsWriterHandle : SafeHandleZeroIsInvalid
    {
        protected override void Free(IntPtr pointer) { Native.picollo_openmetrics_writer_free(pointer); }
    }

    /// <summary>Builds labels: <c>Labels.Of("method", "get", "code", "200")</c>.</summary>
    public static class Labels
    {
        /// <summary>Name, value, name, value, ... as pairs, in that order.</summary>
        public static KeyValuePair<string, string>[] Of(params string[] nameValue)
        {
            if (nameValue == null) throw new ArgumentNullException("nameValue");
            if (nameValue.Length % 2 != 0) throw new ArgumentException("labels come as name, value pairs", "nameValue");
            var pairs = new KeyValuePair<string, string>[nameValue.Length / 2];
            for (int i = 0; i < pairs.Length; i++)
                pairs[i] = new KeyValuePair<string, string>(nameValue[2 * i], nameValue[2 * i + 1]);
            return pairs;
        }
    }

    /// <summary>Managed memory pinned for the duration of one native call: strings as
    /// NUL-terminated UTF-8, arrays in place. Dispose unpins everything.</summary>
    internal sealed class Pins : IDisposable
    {
        readonly List<GCHandle> _handles = new List<GCHandle>();

        /// <summary>The address of a pinned array (IntPtr.Zero for null or empty).</summary>
        public IntPtr Array(System.Array data)
        {
            if (data == null || data.Length == 0) return IntPtr.Zero;
            var h = GCHandle.Alloc(data, GCHandleType.Pinned);
            _handles.Add(h);
            return h.AddrOfPinnedObject();
        }

        /// <summary>A pinned UTF-8 copy of s, or IntPtr.Zero (the C NULL) for null.</summary>
        public IntPtr String(string s) { return s == null ? IntPtr.Zero : Array(Utf8.ToNative(s)); }

        /// <summary>The labels as picollo_label structs whose strings are pinned here; null
        /// (with count 0) for none. A null name or value is passed as NULL (the library
        /// rejects it).</summary>
        public Label[] Labels(IEnumerable<KeyValuePair<string, string>> labels, out UIntPtr count)
        {
            var list = new List<Label>();
            if (labels != null)
                foreach (var kv in labels)
                    list.Add(new Label { Name = String(kv.Key), Value = String(kv.Value) });
            count = new UIntPtr((uint)list.Count);
            return list.Count == 0 ? null : list.ToArray();
        }

        public void Dispose()
        {
            foreach (var h in _handles) h.Free();
            _handles.Clear();
        }
    }

    /// <summary>How a histogram is shown as an OpenMetrics family (and the buckets
    /// <see cref="HistogramMetricsExtensions.GetPrometheusBuckets"/> reports).</summary>
    public sealed class OpenMetricsOptions
    {
        /// <summary>A summary family (the standard quantiles) instead of a histogram family.</summary>
        public bool Summary { get; set; }

        /// <summary>Explicit le bounds in recorded units, strictly increasing; null derives
        /// the bounds from the layout at <see cref="CoarseRelativeError"/>.</summary>
        public ulong[] Bounds { get; set; }

        /// <summary>The relative error of derived bounds, in (0, 1); default 0.05.</summary>
        public double CoarseRelativeError { get; set; }

        /// <summary>Recorded units per exported unit (1e9: nanoseconds shown as seconds); default 1.</summary>
        public double UnitRatio { get; set; }

        /// <summary>The _created time in nanoseconds since the Unix epoch; null leaves it out.</summary>
        public ulong? CreatedUnixNanos { get; set; }

        public OpenMetricsOptions()
        {
            var d = OpenMetricsOptionsData.Default;
            CoarseRelativeError = d.CoarseRelativeError;
            UnitRatio = d.UnitRatio;
        }

        /// <summary>The C struct, its bounds pinned in <paramref name="pins"/>.</summary>
        internal OpenMetricsOptionsData ToNative(Pins pins)
        {
            var d = OpenMetricsOptionsData.Default;
            d.Summary = Summary ? 1u : 0u;
            d.Bounds = pins.Array(Bounds);
            d.BoundCount = new UIntPtr((uint)(Bounds == null ? 0 : Bounds.Length));
            d.CoarseRelativeError = CoarseRelativeError;
            d.UnitRatio = UnitRatio;
            d.CreatedUnixNanos = CreatedUnixNanos ?? 0;
            return d;
        }

        internal static OpenMetricsOptionsData Native(OpenMetricsOptions options, Pins pins)
        {
            return (options ?? new OpenMetricsOptions()).ToNative(pins);
        }
    }

    /// <summary>What an OTLP export says besides the counts (the metric's name is an argument
    /// of the export methods).</summary>
    public sealed class OtlpOptions
    {
        public string Description { get; set; }
        public string Unit { get; set; }
        /// <summary>Default cumulative; delta for an exported <see cref="HistogramMetricsExtensions.Collect"/>.</summary>
        public OtlpTemporality Temporality { get; set; }
        public ulong StartTimeUnixNano { get; set; }
        public ulong TimeUnixNano { get; set; }
        /// <summary>The point's attributes.</summary>
        public IEnumerable<KeyValuePair<string, string>> Attributes { get; set; }
        /// <summary>The resource's attributes (e.g. service.name).</summary>
        public IEnumerable<KeyValuePair<string, string>> Resource { get; set; }
        public string ScopeName { get; set; }
        public string ScopeVersion { get; set; }
        /// <summary>The exponential scale (-10 .. 20); null picks it from the layout's relative error.</summary>
        public int? Scale { get; set; }
        /// <summary>Recorded units per exported unit; default 1.</summary>
        public double UnitRatio { get; set; }

        public OtlpOptions()
        {
            var d = OtlpOptionsData.Default;
            Temporality = (OtlpTemporality)d.Temporality;
            UnitRatio = d.UnitRatio;
        }

        /// <summary>The C struct, its strings and labels pinned in <paramref name="pins"/>.</summary>
        internal OtlpOptionsData ToNative(string name, Pins pins)
        {
            var d = OtlpOptionsData.Default;
            d.Temporality = (uint)Temporality;
            d.Name = pins.String(name);
            d.Description = pins.String(Description);
            d.Unit = pins.String(Unit);
            d.StartTimeUnixNano = StartTimeUnixNano;
            d.TimeUnixNano = TimeUnixNano;
            UIntPtr n;
            d.Attributes = pins.Array(pins.Labels(Attributes, out n));
            d.AttributeCount = n;
            d.Resource = pins.Array(pins.Labels(Resource, out n));
            d.ResourceCount = n;
            d.ScopeName = pins.String(ScopeName);
            d.ScopeVersion = pins.String(ScopeVersion);
            d.Scale = Scale ?? OtlpOptionsData.ScaleAuto;
            d.UnitRatio = UnitRatio;
            return d;
        }
    }

    /// <summary>The cumulative buckets of an OpenMetrics histogram family, as a Prometheus
    /// client library takes them: <see cref="Le"/>[i] in exported units (the last is
    /// +Infinity) and <see cref="Cumulative"/>[i], the count of values at or below it.</summary>
    public sealed class PrometheusBuckets
    {
        public double[] Le { get; internal set; }
        public ulong[] Cumulative { get; internal set; }
        /// <summary>The _sum, in exported units.</summary>
        public double Sum { get; internal set; }
        /// <summary>The _count: the +Inf bucket's cumulative count.</summary>
        public ulong Count { get { return Cumulative.Length == 0 ? 0 : Cumulative[Cumulative.Length - 1]; } }
    }

    /// <summary>The metrics operations on <see cref="HdrHistogram"/> and <see cref="HdrHistogramSnapshot"/>.</summary>
    public static class HistogramMetricsExtensions
    {
        /// <summary>The counts recorded since the last Collect (or reset) as a new 64-bit
        /// single-writer histogram of the same layout; this histogram counts on from zero.
        /// In interlocked and thread-local modes no record is lost or counted twice while
        /// other threads record; the per-mode guarantees are the core library's.</summary>
        public static HdrHistogram Collect(this HdrHistogram histogram)
        {
            if (histogram == null) throw new ArgumentNullException("histogram");
            return Hdr.Made((out HistogramHandle h) => Native.picollo_histogram_collect(histogram.Handle, out h));
        }

        /// <summary><see cref="Collect"/> into this snapshot (no allocation): afterwards it
        /// holds the counts recorded into <paramref name="histogram"/> since its last collect
        /// or reset. The histogram must have the snapshot's layout and counter width.</summary>
        public static void CollectFrom(this HdrHistogramSnapshot snapshot, HdrHistogram histogram)
        {
            if (snapshot == null) throw new ArgumentNullException("snapshot");
            if (histogram == null) throw new ArgumentNullException("histogram");
            PicolloException.Check(Handles.Call2(snapshot.Handle, histogram.Handle, Native.picollo_snapshot_collect));
        }

        /// <summary>An OpenMetrics exposition of one family (<paramref name="name"/>; help and
        /// unit null or "" for none; with a unit the name must end with "_" + unit) holding this
        /// histogram as one point with these labels, then "# EOF".</summary>
        public static string ToOpenMetrics(this HdrHistogram histogram, string name, string help = null, string unit = null,
                                           IEnumerable<KeyValuePair<string, string>> labels = null,
                                           OpenMetricsOptions options = null)
        {
            if (histogram == null) throw new ArgumentNullException("histogram");
            if (name == null) throw new ArgumentNullException("name");
            byte[] n = Utf8.ToNative(name), hp = Utf8.ToNative(help), u = Utf8.ToNative(unit);
            using (var pins = new Pins())
            {
                UIntPtr count;
                Label[] l = pins.Labels(labels, out count);
                OpenMetricsOptionsData o = OpenMetricsOptions.Native(options, pins);
                return Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                    Native.picollo_histogram_openmetrics(histogram.Handle, n, hp, u, l, count, ref o, buf, len, out needed));
            }
        }

        /// <summary>The cumulative buckets (and _sum) of the histogram family
        /// <see cref="ToOpenMetrics"/> would write with these options.</summary>
        public static PrometheusBuckets GetPrometheusBuckets(this HdrHistogram histogram, OpenMetricsOptions options = null)
        {
            if (histogram == null) throw new ArgumentNullException("histogram");
            using (var pins = new Pins())
            {
                OpenMetricsOptionsData o = OpenMetricsOptions.Native(options, pins);
                UIntPtr count;
                double sum;
                Status st = Native.picollo_histogram_prometheus_buckets(histogram.Handle, ref o, null, null, UIntPtr.Zero, out count, out sum);
                if (st != Status.BufferTooSmall) PicolloException.Check(st);
                while (true)
                {
                    int n = checked((int)count.ToUInt64());
                    var le = new double[n];
                    var cumulative = new ulong[n];
                    st = Native.picollo_histogram_prometheus_buckets(histogram.Handle, ref o, le, cumulative, new UIntPtr((uint)n),
                                                                     out count, out sum);
                    if (st == Status.BufferTooSmall && count.ToUInt64() > (ulong)n) continue;
                    PicolloException.Check(st);
                    int written = checked((int)count.ToUInt64());
                    if (written != n)
                    {
                        System.Array.Resize(ref le, written);
                        System.Array.Resize(ref cumulative, written);
                    }
                    return new PrometheusBuckets { Le = le, Cumulative = cumulative, Sum = sum };
                }
            }
        }

        /// <summary>An OTLP/JSON ExportMetricsServiceRequest: one metric named
        /// <paramref name="name"/> with this histogram as one exponential-histogram point.</summary>
        public static string ToOtlpJson(this HdrHistogram histogram, string name, OtlpOptions options = null)
        {
            return Otlp(histogram, name, options, OtlpFormat.Json, Text.Render);
        }

        /// <summary>The same request as protobuf bytes (the body of an OTLP/HTTP POST to
        /// /v1/metrics with Content-Type application/x-protobuf).</summary>
        public static byte[] ToOtlpProtobuf(this HdrHistogram histogram, string name, OtlpOptions options = null)
        {
            return Otlp(histogram, name, options, OtlpFormat.Protobuf, Text.RenderBytes);
        }

        /// <summary>The request in <paramref name="format"/>, as <paramref name="render"/>
        /// takes the library's output (text or bytes); histogram and name checked for null first.</summary>
        static T Otlp<T>(HdrHistogram histogram, string name, OtlpOptions options, OtlpFormat format, Func<Text.Writer, T> render)
        {
            if (histogram == null) throw new ArgumentNullException("histogram");
            if (name == null) throw new ArgumentNullException("name");
            using (var pins = new Pins())
            {
                OtlpOptionsData o = (options ?? new OtlpOptions()).ToNative(name, pins);
                return render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                    Native.picollo_histogram_otlp(histogram.Handle, ref o, format, buf, len, out needed));
            }
        }
    }

    /// <summary>An OpenMetrics exposition of several families: <see cref="Family"/> starts
    /// one, <see cref="Point"/> adds a labelled histogram to it, <see cref="Finish"/> writes
    /// "# EOF". Each call's text goes to the output as soon as it is made; a call that fails
    /// writes nothing. Not for concurrent use. Dispose frees the native writer (the
    /// TextWriter stays open).</summary>
    public sealed class OpenMetricsWriter : IDisposable
    {
        readonly OpenMetricsWriterHandle _handle;
        readonly System.IO.TextWriter _out;
        readonly StringBuilder _own;

        /// <summary>A writer whose text <see cref="ToString"/> returns.</summary>
        public OpenMetricsWriter() : this(null) { }

        /// <summary>A writer appending to <paramref name="output"/> (null: to its own buffer).</summary>
        public OpenMetricsWriter(System.IO.TextWriter output)
        {
            _handle = Handles.Made<OpenMetricsWriterHandle>(Native.picollo_openmetrics_writer_new);
            if (output == null)
            {
                _own = new StringBuilder();
                _out = new System.IO.StringWriter(_own);
            }
            else _out = output;
        }

        internal OpenMetricsWriterHandle Handle { get { return _handle; } }

        /// <summary>Start a family: its metadata (# TYPE, # UNIT, # HELP) and the options its
        /// points share. Every point of a family needs the same layout and range.</summary>
        public OpenMetricsWriter Family(string name, string help = null, string unit = null, OpenMetricsOptions options = null)
        {
            if (name == null) throw new ArgumentNullException("name");
            byte[] n = Utf8.ToNative(name), hp = Utf8.ToNative(help), u = Utf8.ToNative(unit);
            using (var pins = new Pins())
            {
                OpenMetricsOptionsData o = OpenMetricsOptions.Native(options, pins);
                Drain(Native.picollo_openmetrics_writer_family(_handle, n, hp, u, ref o));
            }
            return this;
        }

        /// <summary>One histogram of the current family, with these labels.</summary>
        public OpenMetricsWriter Point(HdrHistogram histogram, IEnumerable<KeyValuePair<string, string>> labels = null)
        {
            if (histogram == null) throw new ArgumentNullException("histogram");
            using (var pins = new Pins())
            {
                UIntPtr count;
                Label[] l = pins.Labels(labels, out count);
                Drain(Handles.Call2(_handle, histogram.Handle, (w, h) => Native.picollo_openmetrics_writer_point(w, h, l, count)));
            }
            return this;
        }

        /// <summary>"# EOF": nothing can be added after it.</summary>
        public void Finish()
        {
            Drain(Native.picollo_openmetrics_writer_finish(_handle));
            _out.Flush();
        }

        /// <summary>Throw for a failed call, else move the text it produced to the output.</summary>
        void Drain(Status st)
        {
            Text.Drain(st, _handle, Native.picollo_openmetrics_writer_take, _out);
        }

        /// <summary>The text written so far, when the writer has its own buffer.</summary>
        public override string ToString() { return _own != null ? _own.ToString() : base.ToString(); }

        public void Dispose() { _handle.Dispose(); }
    }
}
