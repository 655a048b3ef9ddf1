// Picollo for .NET: Prometheus native histograms, on top of Picollo.cs and PicolloMetrics.cs
// (its Pins and Labels):
//   h.ToPrometheusNative(name, options)   one delimited io.prometheus.client.MetricFamily
//                                         holding h as one native histogram (HdrHistogram or
//                                         FloatHistogram); serve it as
//                                         PrometheusNative.ContentType, bodies concatenated.

using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using Picollo.Metrics;

namespace Picollo
{
    /// <summary>picollo_prometheus_native_options: how a histogram becomes a native histogram.
    /// <see cref="PrometheusNativeOptions"/> builds one from managed values.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct PrometheusNativeOptionsData
    {
        public uint StructSize;
        public int Schema;
        public IntPtr Name;
        public IntPtr Help;
        public IntPtr Labels;
        public UIntPtr LabelCount;
        public double UnitRatio;
        public double ClassicCoarseRelativeError;

        /// <summary>PICOLLO_PROMETHEUS_SCHEMA_AUTO: the schema follows from the layout's relative error.</summary>
        public const int SchemaAuto = int.MinValue;

        /// <summary>The library's defaults, with struct_size set by the library itself.</summary>
        public static PrometheusNativeOptionsData Default { get { return Native.picollo_prometheus_native_options_default(); } }
    }

    internal static partial class Native
    {
        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern PrometheusNativeOptionsData picollo_prometheus_native_options_default();

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_prometheus_native(HistogramHandle h, ref PrometheusNativeOptionsData o,
                                                                        byte[] buf, UIntPtr len, out UIntPtr needed);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_float_histogram_prometheus_native(FloatHistogramHandle h, ref PrometheusNativeOptionsData o,
                                                                              byte[] buf, UIntPtr len, out UIntPtr needed);
    }

    /// <summary>What a native-histogram family says besides its name and counts.</summary>
    public sealed class PrometheusNativeOptions
    {
        /// <summary>The family's help text.</summary>
        public string Help { get; set; }
        /// <summary>The series' labels (not "le", not "__"-prefixed, each once).</summary>
        public IEnumerable<KeyValuePair<string, string>> Labels { get; set; }
        /// <summary>The schema (-4 .. 8); null picks the coarsest within the layout's relative error.</summary>
        public int? Schema { get; set; }
        /// <summary>Recorded units per exported unit (1e9: nanoseconds as seconds); default 1.</summary>
        public double UnitRatio { get; set; }
        /// <summary>HdrHistogram only: add the classic buckets at bounds derived at this
        /// relative error, in (0, 1); null for native buckets only.</summary>
        public double? ClassicCoarseRelativeError { get; set; }

        public PrometheusNativeOptions()
        {
            UnitRatio = PrometheusNativeOptionsData.Default.UnitRatio;
        }

        /// <summary>The C struct, its strings and labels pinned in <paramref name="pins"/>.</summary>
        internal PrometheusNativeOptionsData ToNative(string name, Pins pins)
        {
            var d = PrometheusNativeOptionsData.Default;
            d.Schema = Schema ?? PrometheusNativeOptionsData.SchemaAuto;
            d.Name = pins.String(name);
            d.Help = pins.String(Help);
            UIntPtr n;
            d.Labels = pins.Array(pins.Labels(Labels, out n));
            d.LabelCount = n;
            d.UnitRatio = UnitRatio;
            d.ClassicCoarseRelativeError = ClassicCoarseRelativeError ?? 0.0;
            return d;
        }
    }

    /// <summary>Prometheus' protobuf exposition of native histograms.</summary>
    public static class PrometheusNative
    {
        /// <summary>The Content-Type of the bytes: what Prometheus asks for first when native
        /// histograms are on.</summary>
        public const string ContentType =
            "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited";

        /// <summary>One length-delimited MetricFamily named <paramref name="name"/> holding this
        /// histogram as one native histogram: each bucket whole in the native bucket of its
        /// midpoint, zeros in the zero bucket (a positive threshold). Bodies of several calls
        /// concatenate into one exposition. Bad names, labels or options throw
        /// <see cref="PicolloException"/> with the library's message.</summary>
        public static byte[] ToPrometheusNative(this HdrHistogram histogram, string name, PrometheusNativeOptions options = null)
        {
            return Export(histogram, name, options, (ref PrometheusNativeOptionsData o, byte[] buf, UIntPtr len, out UIntPtr needed) =>
                Native.picollo_histogram_prometheus_native(histogram.Handle, ref o, buf, len, out needed));
        }

        /// <summary>The same for a histogram of doubles: negative buckets too; magnitudes below
        /// the range join the zero bucket; NaN, infinities and values above the range are left
        /// out. Classic buckets are refused.</summary>
        public static byte[] ToPrometheusNative(this FloatHistogram histogram, string name, PrometheusNativeOptions options = null)
        {
            return Export(histogram, name, options, (ref PrometheusNativeOptionsData o, byte[] buf, UIntPtr len, out UIntPtr needed) =>
                Native.picollo_float_histogram_prometheus_native(histogram.Handle, ref o, buf, len, out needed));
        }

        /// <summary>One histogram's export call: the options as the library takes them, the
        /// buffer and its length, the size needed.</summary>
        delegate Status ExportCall(ref PrometheusNativeOptionsData options, byte[] buf, UIntPtr len, out UIntPtr needed);

        /// <summary>The body <paramref name="export"/> writes for the histogram, its name and
        /// options (both checked for null first).</summary>
        static byte[] Export(object histogram, string name, PrometheusNativeOptions options, ExportCall export)
        {
            if (histogram == null) throw new ArgumentNullException("histogram");
            if (name == null) throw new ArgumentNullException("name");
            using (var pins = new Pins())
            {
                PrometheusNativeOptionsData o = (options ?? new PrometheusNativeOptions()).ToNative(name, pins);
                return Text.RenderBytes((byte[] buf, UIntPtr len, out UIntPtr needed) => export(ref o, buf, len, out needed));
            }
        }
    }
}
