// Picollo for .NET: HdrHistogram's formats, on top of Picollo.cs (its Native class, handles,
// HdrHistogram and exceptions), under the names HdrHistogram.NET gives them:
//   HistogramEncoding             V2 encoding: Encode (base64 of compressed V2), EncodeBinary,
//                                 Decode (plain, compressed or base64);
//   h.AddEncoded(...)             add the counts of a V2 blob into a histogram;
//   h.OutputPercentileDistribution(...)  the .hgrm percentile distribution;
//   HistogramLogWriter / HistogramLogReader  interval logs (format 1.3), and
//   HistogramLogReader.Sum        the sum of a log's intervals of one tag and time window.
// Malformed input throws PicolloFormatException, a FormatException (a log's names the line);
// a histogram the format cannot hold throws PicolloUnencodableException, an
// InvalidOperationException; a refused argument (a tag, a time, a ratio) an ArgumentException.

using System;
using System.Collections.Generic;
using System.IO;
using System.Runtime.InteropServices;
using System.Text;
using Picollo.Metrics;

namespace Picollo
{
    /// <summary>picollo_v2_form: the form <see cref="HistogramEncoding"/> writes.</summary>
    public enum V2Form : uint
    {
        /// <summary>Uncompressed V2 (cookie 0x1c849313).</summary>
        Plain = 0,
        /// <summary>zlib-compressed V2 (cookie 0x1c849314), HdrHistogram's
        /// encodeIntoCompressedByteBuffer.</summary>
        Compressed = 1,
        /// <summary>The base64 text of the compressed form ("HISTFAAA…").</summary>
        Base64 = 2,
    }

    /// <summary>picollo_log_interval: what picollo_log_reader_next reports of an interval.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct LogIntervalInfo
    {
        public uint StructSize;
        public uint SignificantDigits;
        public double Start;
        public double Length;
        public double Max;
        public ulong Line;
        public uint HasTag;
        public uint Reserved;
    }

    internal static partial class Native
    {
        // V2: histograms in, bytes out (binary forms) or text (base64); blobs in as byte arrays
        // with their length (no NUL needed).

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_encode_v2(HistogramHandle h, V2Form form, byte[] buf, UIntPtr len, out UIntPtr needed);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_encode_v2_level(HistogramHandle h, V2Form form, uint level, byte[] buf, UIntPtr len, out UIntPtr needed);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_decode_v2(byte[] data, UIntPtr len, out HistogramHandle histogram);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_add_v2(HistogramHandle h, byte[] data, UIntPtr len);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_hgrm(HistogramHandle h, uint ticksPerHalfDistance, double unitRatio, uint csv,
                                                           byte[] buf, UIntPtr len, out UIntPtr needed);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_log_writer_new(out LogWriterHandle writer);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern void picollo_log_writer_free(IntPtr w);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_log_writer_header(LogWriterHandle w, double startTime, double baseTime);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_log_writer_comment(LogWriterHandle w, byte[] text);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_log_writer_set_max_unit_ratio(LogWriterHandle w, double ratio);

        /// <summary>Two handles: raw pointers, pinned by Handles.Call2 (see picollo_histogram_add).</summary>
        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_log_writer_interval(IntPtr w, IntPtr h, byte[] tag, double start, double length);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_log_writer_take(LogWriterHandle w, byte[] buf, UIntPtr len, out UIntPtr needed);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_log_reader_new(byte[] text, UIntPtr len, out LogReaderHandle reader);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern void picollo_log_reader_free(IntPtr r);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_log_reader_next(LogReaderHandle r, ref LogIntervalInfo info, out HistogramHandle histogram);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_log_reader_tag(LogReaderHandle r, byte[] buf, UIntPtr len, out UIntPtr needed);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_log_reader_times(LogReaderHandle r, out double startTime, out double baseTime);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_log_sum(byte[] text, UIntPtr len, byte[] tag, double from, double to, out HistogramHandle sum);
    }

    /// <summary>Owns a picollo_log_writer*.</summary>
    internal sealed class LogWriterHandle : SafeHandleZeroIsInvalid
    {
        protected override void Free(IntPtr pointer) { Native.picollo_log_writer_free(pointer); }
    }

    /// <summary>Owns a picollo_log_reader* (and, inside it, the library's copy of the text).</summary>
    internal sealed class LogReaderHandle : SafeHandleZeroIsInvalid
    {
        protected override void Free(IntPtr pointer) { Native.picollo_log_reader_free(pointer); }
    }

    internal static class Hdr
    {
        /// <summary>The histogram a constructor-like call made, or its exception (the message
        /// read before anything else runs on this thread).</summary>
        public static HdrHistogram Adopt(Status st, HistogramHandle h)
        {
            return new HdrHistogram(Handles.Adopt(st, h), null);
        }

        /// <summary>The histogram <paramref name="make"/> made (see <see cref="Handles.Made{T}"/>).</summary>
        public static HdrHistogram Made(Handles.Maker<HistogramHandle> make)
        {
            return new HdrHistogram(Handles.Made(make), null);
        }

        public static byte[] Utf8Bytes(string text)
        {
            if (text == null) throw new ArgumentNullException("text");
            return Encoding.UTF8.GetBytes(text);
        }

        public static UIntPtr Len(byte[] data) { return new UIntPtr((ulong)data.Length); }

        /// <summary>null or "" (no tag) as the C NULL, else NUL-terminated UTF-8.</summary>
        public static byte[] Tag(string tag) { return string.IsNullOrEmpty(tag) ? null : Utf8.ToNative(tag); }

        public static double? Time(double t) { return double.IsNaN(t) ? (double?)null : t; }
    }

    /// <summary>HdrHistogram's V2 encoding, the form every HdrHistogram implementation reads
    /// and writes. A Picollo layout whose block size is 2^4, 2^7, 2^10, 2^14 or 2^17 (relative
    /// error 0.5 / block size) is HdrHistogram's layout with 1 to 5 significant digits and
    /// round-trips bucket for bucket; any other is written at the next finer HdrHistogram
    /// layout, and <see cref="HistogramHdrExtensions.AddEncoded(HdrHistogram, byte[])"/> into a
    /// histogram of the original layout puts every count back where it was. Underflow and
    /// overflow counts are written as values just outside the trackable range.</summary>
    public static class HistogramEncoding
    {
        /// <summary>Base64 of compressed V2 ("HISTFAAA…"), as interval logs carry it and as
        /// hdrh's encode() writes it.</summary>
        /// <exception cref="PicolloUnencodableException">saturated counts, or a count or
        /// value above 2^63 − 1.</exception>
        public static string Encode(HdrHistogram histogram)
        {
            if (histogram == null) throw new ArgumentNullException("histogram");
            return Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                Native.picollo_histogram_encode_v2(histogram.Handle, V2Form.Base64, buf, len, out needed));
        }

        /// <summary>V2 bytes: compressed (HdrHistogram's encodeIntoCompressedByteBuffer) or
        /// plain (encodeIntoByteBuffer).</summary>
        public static byte[] EncodeBinary(HdrHistogram histogram, bool compressed = true)
        {
            return EncodeBinary(histogram, compressed, DefaultLevel);
        }

        /// <summary>The zlib level <see cref="Encode(HdrHistogram)"/> and
        /// <see cref="EncodeBinary(HdrHistogram, bool)"/> deflate at: 1, fast, its blobs a few
        /// percent larger than level 6's (zlib's and HdrHistogram's default).</summary>
        public const int DefaultLevel = 1;

        /// <summary>Base64 of compressed V2 deflated at zlib <paramref name="level"/>: 0
        /// (stored) to 9 (smallest), or 10 (miniz's slower extra). Every level decodes
        /// alike.</summary>
        /// <exception cref="ArgumentOutOfRangeException">a negative level.</exception>
        /// <exception cref="PicolloArgumentException">a level above 10.</exception>
        public static string Encode(HdrHistogram histogram, int level)
        {
            if (histogram == null) throw new ArgumentNullException("histogram");
            uint l = Level(level);
            return Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                Native.picollo_histogram_encode_v2_level(histogram.Handle, V2Form.Base64, l, buf, len, out needed));
        }

        /// <summary>V2 bytes, the compressed form deflated at zlib <paramref name="level"/>
        /// (as <see cref="Encode(HdrHistogram, int)"/> takes it; the plain form ignores
        /// it).</summary>
        public static byte[] EncodeBinary(HdrHistogram histogram, bool compressed, int level)
        {
            if (histogram == null) throw new ArgumentNullException("histogram");
            V2Form form = compressed ? V2Form.Compressed : V2Form.Plain;
            uint l = Level(level);
            return Text.RenderBytes((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                Native.picollo_histogram_encode_v2_level(histogram.Handle, form, l, buf, len, out needed));
        }

        /// <summary>A level as the library takes it; which levels exist is the library's to
        /// say, a negative one has no unsigned form.</summary>
        static uint Level(int level)
        {
            if (level < 0) throw new ArgumentOutOfRangeException("level", level, "a deflate level is 0 to 10");
            return (uint)level;
        }

        /// <summary>A new 64-bit single-writer histogram from V2 bytes (plain or compressed)
        /// or from the ASCII bytes of base64 text, in the layout of the header's significant
        /// digits.</summary>
        /// <exception cref="PicolloFormatException">not V2 or base64 of V2.</exception>
        public static HdrHistogram Decode(byte[] data)
        {
            if (data == null) throw new ArgumentNullException("data");
            return Hdr.Made((out HistogramHandle h) => Native.picollo_histogram_decode_v2(data, Hdr.Len(data), out h));
        }

        /// <summary>A new histogram from base64 text of V2 (surrounding whitespace ignored).</summary>
        public static HdrHistogram Decode(string base64)
        {
            return Decode(Hdr.Utf8Bytes(base64));
        }
    }

    /// <summary>The HdrHistogram operations on <see cref="HdrHistogram"/>, as extension methods
    /// (HdrHistogram.NET declares OutputPercentileDistribution the same way).</summary>
    public static class HistogramHdrExtensions
    {
        /// <summary>Add the counts of a V2 blob (plain, compressed or base64 bytes): each
        /// HdrHistogram bucket's count lands in this histogram's bucket of the bucket's
        /// midpoint. On error nothing is added.</summary>
        public static void AddEncoded(this HdrHistogram histogram, byte[] data)
        {
            if (histogram == null) throw new ArgumentNullException("histogram");
            if (data == null) throw new ArgumentNullException("data");
            PicolloException.Check(Native.picollo_histogram_add_v2(histogram.Handle, data, Hdr.Len(data)));
        }

        /// <summary>Add the counts of base64 text of V2.</summary>
        public static void AddEncoded(this HdrHistogram histogram, string base64)
        {
            AddEncoded(histogram, Hdr.Utf8Bytes(base64));
        }

        /// <summary>HdrHistogram's percentile distribution (the .hgrm text its plotters read),
        /// written to <paramref name="writer"/>: <paramref name="percentileTicksPerHalfDistance"/>
        /// rows per half of the distance left to 100 % (at least 1), values divided by
        /// <paramref name="outputValueUnitScalingRatio"/>, or CSV.</summary>
        public static void OutputPercentileDistribution(this HdrHistogram histogram, TextWriter writer,
                                                        int percentileTicksPerHalfDistance = 5,
                                                        double outputValueUnitScalingRatio = 1.0,
                                                        bool useCsvFormat = false)
        {
            if (writer == null) throw new ArgumentNullException("writer");
            writer.Write(ToHgrm(histogram, percentileTicksPerHalfDistance, outputValueUnitScalingRatio, useCsvFormat));
        }

        /// <summary><see cref="OutputPercentileDistribution"/> as a string.</summary>
        public static string ToHgrm(this HdrHistogram histogram, int percentileTicksPerHalfDistance = 5,
                                    double outputValueUnitScalingRatio = 1.0, bool useCsvFormat = false)
        {
            if (histogram == null) throw new ArgumentNullException("histogram");
            if (percentileTicksPerHalfDistance < 0) throw new ArgumentOutOfRangeException("percentileTicksPerHalfDistance");
            uint ticks = (uint)percentileTicksPerHalfDistance, csv = useCsvFormat ? 1u : 0u;
            return Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                Native.picollo_histogram_hgrm(histogram.Handle, ticks, outputValueUnitScalingRatio, csv, buf, len, out needed));
        }
    }

    /// <summary>Writes an HdrHistogram interval log (format 1.3) to a TextWriter, each call's
    /// text as soon as it is made. Not for concurrent use. Dispose frees the native writer;
    /// the TextWriter stays open (flush or close it yourself).</summary>
    public sealed class HistogramLogWriter : IDisposable
    {
        readonly LogWriterHandle _handle;
        readonly TextWriter _out;

        public HistogramLogWriter(TextWriter output)
        {
            if (output == null) throw new ArgumentNullException("output");
            _handle = Handles.Made<LogWriterHandle>(Native.picollo_log_writer_new);
            _out = output;
        }

        /// <summary>The version line, then StartTime and BaseTime headers for those given
        /// (seconds since the epoch), then the legend. With a base time, the start times given
        /// to <see cref="Append"/> are absolute and are written relative to it.</summary>
        public void WriteHeader(double? startTime = null, double? baseTime = null)
        {
            Drain(Native.picollo_log_writer_header(_handle, startTime ?? double.NaN, baseTime ?? double.NaN));
        }

        /// <summary><see cref="WriteHeader(double?, double?)"/> with times as DateTimes.</summary>
        public void WriteHeader(DateTime startTime, DateTime? baseTime = null)
        {
            WriteHeader(EpochSeconds(startTime), baseTime.HasValue ? EpochSeconds(baseTime.Value) : (double?)null);
        }

        /// <summary>A comment line ("#" and the text; each line break starts another).</summary>
        public void WriteComment(string text)
        {
            Drain(Native.picollo_log_writer_comment(_handle, Utf8.ToNative(text ?? "")));
        }

        /// <summary>The ratio interval maxima are divided by (HdrHistogram's default 10^6).</summary>
        public double MaxValueUnitRatio
        {
            set { Drain(Native.picollo_log_writer_set_max_unit_ratio(_handle, value)); }
        }

        /// <summary>One interval line: the histogram as base64 of compressed V2, its start and
        /// length in seconds, and a tag (null or "" for none; no comma, space or line break).</summary>
        public void Append(HdrHistogram histogram, string tag, double start, double length)
        {
            if (histogram == null) throw new ArgumentNullException("histogram");
            byte[] t = Hdr.Tag(tag);
            Drain(Handles.Call2(_handle, histogram.Handle, (w, h) => Native.picollo_log_writer_interval(w, h, t, start, length)));
        }

        /// <summary>An untagged interval.</summary>
        public void Append(HdrHistogram histogram, double start, double length)
        {
            Append(histogram, null, start, length);
        }

        /// <summary>Throw for a failed call, else move the text it produced to the output.</summary>
        void Drain(Status st)
        {
            Text.Drain(st, _handle, Native.picollo_log_writer_take, _out);
        }

        public void Dispose() { _handle.Dispose(); }

        static readonly DateTime Epoch = new DateTime(1970, 1, 1, 0, 0, 0, DateTimeKind.Utc);

        /// <summary>Seconds since the Unix epoch (a local or unspecified time is taken as UTC
        /// after ToUniversalTime).</summary>
        public static double EpochSeconds(DateTime t)
        {
            return (t.ToUniversalTime() - Epoch).TotalSeconds;
        }
    }

    /// <summary>One interval of a log. Owns its histogram: Dispose frees it.</summary>
    public sealed class HistogramLogEntry : IDisposable
    {
        /// <summary>The tag, or null when the line has none.</summary>
        public string Tag { get; internal set; }
        /// <summary>Start in seconds, absolute when the log has a StartTime or BaseTime header.</summary>
        public double Start { get; internal set; }
        public double Length { get; internal set; }
        public double End { get { return Start + Length; } }
        /// <summary>The maximum column as written (already divided by the writer's unit ratio).</summary>
        public double Max { get; internal set; }
        /// <summary>The 1-based line of the interval.</summary>
        public long Line { get; internal set; }
        public int SignificantDigits { get; internal set; }
        public HdrHistogram Histogram { get; internal set; }

        public void Dispose() { if (Histogram != null) Histogram.Dispose(); }
    }

    /// <summary>Reads an HdrHistogram interval log (any version HdrHistogram writers produce).
    /// The library keeps a copy of the text. Not for concurrent use.</summary>
    public sealed class HistogramLogReader : IDisposable
    {
        readonly LogReaderHandle _handle;

        public HistogramLogReader(string text)
        {
            byte[] bytes = Hdr.Utf8Bytes(text);
            _handle = Handles.Made((out LogReaderHandle r) => Native.picollo_log_reader_new(bytes, Hdr.Len(bytes), out r));
        }

        /// <summary>Reads the rest of <paramref name="reader"/> now.</summary>
        public HistogramLogReader(TextReader reader) : this(ReadAll(reader)) { }

        static string ReadAll(TextReader reader)
        {
            if (reader == null) throw new ArgumentNullException("reader");
            return reader.ReadToEnd();
        }

        /// <summary>The StartTime header (seconds since the epoch), else null. Headers above
        /// the first interval are known from the start; one further down once read past.</summary>
        public double? StartTime { get { return Times()[0]; } }

        /// <summary>The BaseTime header (seconds since the epoch), as <see cref="StartTime"/>.</summary>
        public double? BaseTime { get { return Times()[1]; } }

        double?[] Times()
        {
            double s, b;
            PicolloException.Check(Native.picollo_log_reader_times(_handle, out s, out b));
            return new[] { Hdr.Time(s), Hdr.Time(b) };
        }

        /// <summary>The next interval, or null at the end of the log.</summary>
        /// <exception cref="PicolloFormatException">the next interval line is malformed (the
        /// exception names it); the reader has moved past it, so the next call reads on.</exception>
        public HistogramLogEntry ReadNext()
        {
            var info = new LogIntervalInfo { StructSize = (uint)Marshal.SizeOf(typeof(LogIntervalInfo)) };
            HistogramHandle h;
            Status st = Native.picollo_log_reader_next(_handle, ref info, out h);
            if (st == Status.OutOfRange)
            {
                if (h != null) h.Dispose();
                return null;
            }
            HdrHistogram histogram = Hdr.Adopt(st, h);
            try
            {
                string tag = null;
                if (info.HasTag != 0)
                    tag = Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                        Native.picollo_log_reader_tag(_handle, buf, len, out needed));
                return new HistogramLogEntry
                {
                    Tag = tag,
                    Start = info.Start,
                    Length = info.Length,
                    Max = info.Max,
                    Line = checked((long)info.Line),
                    SignificantDigits = (int)info.SignificantDigits,
                    Histogram = histogram,
                };
            }
            catch
            {
                histogram.Dispose();
                throw;
            }
        }

        /// <summary>The intervals from where the reader is to the end, read lazily. A malformed
        /// line throws from the enumeration; calling ReadHistograms again goes on after it.</summary>
        public IEnumerable<HistogramLogEntry> ReadHistograms()
        {
            HistogramLogEntry e;
            while ((e = ReadNext()) != null) yield return e;
        }

        public void Dispose() { _handle.Dispose(); }

        /// <summary>The sum of the intervals of a log with this tag (null or "": the untagged
        /// ones, as HdrHistogram's log processor without -tag) that start in [from, to)
        /// seconds (null: no bound); null when no interval matches.</summary>
        /// <exception cref="PicolloFormatException">a line cannot be read (the exception names it).</exception>
        public static HdrHistogram Sum(string text, string tag = null, double? from = null, double? to = null)
        {
            byte[] bytes = Hdr.Utf8Bytes(text);
            HistogramHandle h;
            Status st = Native.picollo_log_sum(bytes, Hdr.Len(bytes), Hdr.Tag(tag), from ?? double.NaN, to ?? double.NaN, out h);
            if (st == Status.Empty)
            {
                if (h != null) h.Dispose();
                return null;
            }
            return Hdr.Adopt(st, h);
        }
    }
}
