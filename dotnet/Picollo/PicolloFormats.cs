// Picollo for .NET: every export format of the library by its name, so that a format the
// library adds is reachable without a new method here:
//   Formats.Names                         the names, in the library's order;
//   Formats.IsBinary(name)                whether the format writes bytes rather than text;
//   h.ToFormat(name, options)             a text format as a string (HdrHistogram, FloatHistogram);
//   h.ToFormatBytes(name, options)        any format as its bytes.
// Options are the format's own (name, value) pairs, as text ("csv": none; "hgrm":
// ticks_per_half_distance, unit_ratio, csv = true/false; see `picollo formats`).

using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Text;
using Picollo.Metrics;

namespace Picollo
{
    internal static partial class Native
    {
        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_format(HistogramHandle h, byte[] name, Label[] options, UIntPtr optionCount,
                                                             byte[] buf, UIntPtr len, out UIntPtr needed);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_float_histogram_format(FloatHistogramHandle h, byte[] name, Label[] options,
                                                                   UIntPtr optionCount, byte[] buf, UIntPtr len, out UIntPtr needed);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_format_names(byte[] buf, UIntPtr len, out UIntPtr needed);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_format_binary(byte[] name, out uint binary);
    }

    /// <summary>The library's export formats by name.</summary>
    public static class Formats
    {
        /// <summary>The names of the export formats, in the library's order.</summary>
        public static string[] Names
        {
            get
            {
                string text = Text.Render(Native.picollo_format_names);
                return text.Split(new[] { '\n' }, StringSplitOptions.RemoveEmptyEntries);
            }
        }

        /// <summary>Whether format <paramref name="name"/> writes bytes rather than text;
        /// <see cref="PicolloException"/> for a name the library does not know.</summary>
        public static bool IsBinary(string name)
        {
            if (name == null) throw new ArgumentNullException("name");
            uint binary;
            PicolloException.Check(Native.picollo_format_binary(Utf8.ToNative(name), out binary));
            return binary != 0;
        }

        /// <summary>This histogram in the text format <paramref name="name"/> with the
        /// format's <paramref name="options"/>; ArgumentException for a binary format (use
        /// <see cref="ToFormatBytes(HdrHistogram, string, IEnumerable{KeyValuePair{string, string}})"/>),
        /// <see cref="PicolloException"/> for an unknown format or an option it refuses.</summary>
        public static string ToFormat(this HdrHistogram histogram, string name,
                                      IEnumerable<KeyValuePair<string, string>> options = null)
        {
            return AsText(name, ToFormatBytes(histogram, name, options));
        }

        /// <summary>This histogram in format <paramref name="name"/>, as its bytes (UTF-8 for a text format).</summary>
        public static byte[] ToFormatBytes(this HdrHistogram histogram, string name,
                                           IEnumerable<KeyValuePair<string, string>> options = null)
        {
            if (histogram == null) throw new ArgumentNullException("histogram");
            return Export(name, options, (byte[] n, Label[] o, UIntPtr count, byte[] buf, UIntPtr len, out UIntPtr needed) =>
                Native.picollo_histogram_format(histogram.Handle, n, o, count, buf, len, out needed));
        }

        /// <summary>The histogram of doubles in the text format <paramref name="name"/>, as
        /// <see cref="ToFormat(HdrHistogram, string, IEnumerable{KeyValuePair{string, string}})"/>.</summary>
        public static string ToFormat(this FloatHistogram histogram, string name,
                                      IEnumerable<KeyValuePair<string, string>> options = null)
        {
            return AsText(name, ToFormatBytes(histogram, name, options));
        }

        /// <summary>The histogram of doubles in format <paramref name="name"/>, as its bytes.</summary>
        public static byte[] ToFormatBytes(this FloatHistogram histogram, string name,
                                           IEnumerable<KeyValuePair<string, string>> options = null)
        {
            if (histogram == null) throw new ArgumentNullException("histogram");
            return Export(name, options, (byte[] n, Label[] o, UIntPtr count, byte[] buf, UIntPtr len, out UIntPtr needed) =>
                Native.picollo_float_histogram_format(histogram.Handle, n, o, count, buf, len, out needed));
        }

        /// <summary>One histogram's format call: the name, the options and their count, the
        /// buffer and its length, the size needed.</summary>
        delegate Status FormatCall(byte[] name, Label[] options, UIntPtr count, byte[] buf, UIntPtr len, out UIntPtr needed);

        /// <summary>The bytes <paramref name="call"/> writes (a text format's without its NUL).</summary>
        static byte[] Export(string name, IEnumerable<KeyValuePair<string, string>> options, FormatCall call)
        {
            if (name == null) throw new ArgumentNullException("name");
            bool binary = IsBinary(name);
            byte[] native = Utf8.ToNative(name);
            using (var pins = new Pins())
            {
                UIntPtr count;
                Label[] labels = pins.Labels(options, out count);
                Text.Writer write = (byte[] buf, UIntPtr len, out UIntPtr needed) =>
                    call(native, labels, count, buf, len, out needed);
                return binary ? Text.RenderBytes(write) : Encoding.UTF8.GetBytes(Text.Render(write));
            }
        }

        static string AsText(string name, byte[] bytes)
        {
            if (IsBinary(name))
                throw new ArgumentException("format \"" + name + "\" writes bytes: use ToFormatBytes", "name");
            return Encoding.UTF8.GetString(bytes);
        }
    }
}
