// Picollo for .NET: a P/Invoke binding of libpicollo (include/picollo.h).
//
// Layers, bottom up:
//   Native            every [DllImport] of the C ABI, nothing else;
//   blittable structs field-for-field copies of the C structs (checked against the C sizeof);
//   SafeHandles       own the native pointers; ReleaseHandle calls the matching _free;
//   Histogram, Snapshot, Summary: the API a C# caller uses (IDisposable, exceptions).
// PicolloApprox.cs adds the standalone approximate counter (ApproxCounter), PicolloHdr.cs the
// HdrHistogram formats (V2 encoding, .hgrm, interval logs), PicolloMetrics.cs the metrics
// pipelines (interval collection, OpenMetrics, OTLP).
//
// Built by Picollo.csproj (dotnet build / dotnet pack), or with mono's mcs:
// `mcs -unsafe -target:library -out:Picollo.dll *.cs Properties/*.cs` (c-tests/csharp/run.sh).

using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Text;

namespace Picollo
{
    /// <summary>picollo_status: the result of a fallible call (0 = OK).</summary>
    public enum Status : uint
    {
        Ok = 0,
        NullPointer = 1,
        InvalidArgument = 2,
        StructSize = 3,
        BufferTooSmall = 4,
        Empty = 5,
        LayoutMismatch = 6,
        WouldGoNegative = 7,
        OutOfRange = 8,
        InvalidUtf8 = 9,
        Unsupported = 10,
        PermissionDenied = 11,
        OsError = 12,
        Panic = 13,
        OutOfMemory = 14,
        /// <summary>The input is not valid V2, base64 or interval log text (thrown as
        /// <see cref="PicolloFormatException"/>).</summary>
        FormatError = 15,
        /// <summary>The histogram cannot be written in the requested format (thrown as
        /// <see cref="PicolloUnencodableException"/>).</summary>
        Unencodable = 16,
    }

    /// <summary>picollo_value_selection: which value of a bucket a percentile reports.</summary>
    public enum ValueSelection : uint
    {
        Midpoint = 0,
        Lower = 1,
        Upper = 2,
        Interpolated = 3,
    }

    /// <summary>picollo_mode: who may record into a histogram at once (see <see cref="Histogram"/>).</summary>
    public enum ConcurrencyMode : uint
    {
        /// <summary>One recording thread at a time (the fastest); reads from any thread.</summary>
        SingleWriter = 0,
        /// <summary>Any number of recording threads, one atomic add per record; exact.</summary>
        Interlocked = 1,
        /// <summary>Any number of recording threads, each into its own shard; exact.</summary>
        ThreadLocal = 2,
        /// <summary>Any number of recording threads; buckets are approximate counters (exact
        /// below 2^T, about 2 % at two standard deviations above).</summary>
        Approximate = 3,
    }

    /// <summary>A non-OK status, with the library's message for it. The statuses of the
    /// HdrHistogram formats have subclasses: <see cref="PicolloFormatException"/> and
    /// <see cref="PicolloUnencodableException"/>.</summary>
    public class PicolloException : Exception
    {
        public Status Status { get; private set; }
        public string NativeMessage { get; private set; }

        public PicolloException(Status status, string nativeMessage)
            : base(string.Format("picollo: {0} ({1}): {2}", status, (uint)status, nativeMessage))
        {
            Status = status;
            NativeMessage = nativeMessage;
        }

        /// <summary>The exception for a status: the subclass it has, if any.</summary>
        public static PicolloException For(Status status, string nativeMessage)
        {
            switch (status)
            {
                case Status.FormatError: return new PicolloFormatException(nativeMessage);
                case Status.Unencodable: return new PicolloUnencodableException(nativeMessage);
                default: return new PicolloException(status, nativeMessage);
            }
        }

        /// <summary>Throw for any status but OK. Call right after the failing call, on the same
        /// thread: the message is thread-local and the next Picollo call replaces it.</summary>
        internal static void Check(Status status)
        {
            if (status != Status.Ok)
                throw For(status, Utf8.FromNative(Native.picollo_last_error_message()));
        }
    }

    /// <summary><see cref="Status.FormatError"/>: the input is not valid V2, base64 or interval
    /// log text. The message says what is wrong and, for a log, on which line.</summary>
    public sealed class PicolloFormatException : PicolloException
    {
        public PicolloFormatException(string nativeMessage) : base(Status.FormatError, nativeMessage)
        {
            var m = System.Text.RegularExpressions.Regex.Match(nativeMessage ?? "", @"^line (\d+): ");
            long line;
            if (m.Success && long.TryParse(m.Groups[1].Value, out line)) LineNumber = line;
        }

        /// <summary>The 1-based log line of the error (log messages start "line N: "), or
        /// null for V2 and base64 errors.</summary>
        public long? LineNumber { get; private set; }
    }

    /// <summary><see cref="Status.Unencodable"/>: the histogram cannot be written in that format
    /// (saturated counts, a bucket count above 2^63 − 1, a value above 2^63 − 1); nothing was
    /// written.</summary>
    public sealed class PicolloUnencodableException : PicolloException
    {
        public PicolloUnencodableException(string nativeMessage) : base(Status.Unencodable, nativeMessage) { }
    }

    // ---------------------------------------------------------------------------------------
    // Blittable mirrors of the C structs. Only uint/ulong/double fields, in C order, so the
    // managed and native layouts coincide and the marshaller pins instead of copying.
    // ---------------------------------------------------------------------------------------

    /// <summary>picollo_histogram_config (48 bytes).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct HistogramConfig
    {
        public uint StructSize;
        public uint CounterBits;
        public double RelativeError;
        public ulong MinTrackable;
        public ulong MaxTrackable;
        public uint ValueSelection;
        public uint Mode;
        public uint ApproxThreshold;
        public uint Reserved;

        /// <summary>The library's defaults, with struct_size set by the library itself.</summary>
        public static HistogramConfig Default { get { return Native.picollo_histogram_config_default(); } }
    }

    /// <summary>picollo_histogram_info (96 bytes), filled by picollo_histogram_get_info.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct HistogramInfo
    {
        public ulong Total;
        public ulong Underflow;
        public ulong Overflow;
        public ulong Saturated;
        public ulong MinTrackable;
        public ulong MaxTrackable;
        public ulong StorageLength;
        public ulong FootprintBytes;
        public ulong BlockSize;
        public double RelativeError;
        public uint CounterBits;
        public uint Mode;
        public uint ValueSelection;
        public uint ApproxThreshold;
    }

    /// <summary>picollo_percentile (88 bytes): a percentile and the bucket it fell in.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Percentile
    {
        public double Rank;
        public ulong Value;
        public ulong PlusMinus;
        public ulong StorageIndex;
        public ulong LogicalIndex;
        public ulong Lower;
        /// <summary>Exclusive upper bound (ulong.MaxValue for the topmost bucket).</summary>
        public ulong Upper;
        /// <summary>Largest value of the bucket (inclusive).</summary>
        public ulong Highest;
        public ulong Count;
        public ulong CumulativeCount;
        public ulong RankCount;

        /// <summary>As the seed prints it: <c>P99=24,960 [83 / 609]: [24,832, 25,088) 14,190</c>.</summary>
        public override string ToString()
        {
            Percentile self = this;
            return Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                Native.picollo_percentile_format(ref self, buf, len, out needed));
        }
    }

    /// <summary>picollo_summary (1480 bytes). mcs allows fixed buffers of primitives only, so
    /// the 16 percentiles are 16 fields; <see cref="this[int]"/> indexes them.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SummaryData
    {
        public const int Count = 16;

        public Percentile P00, P01, P02, P03, P04, P05, P06, P07;
        public Percentile P08, P09, P10, P11, P12, P13, P14, P15;
        public ulong Total;
        public ulong Underflow;
        public ulong Overflow;
        public ulong Saturated;
        public double Mean;
        public double StdDev;
        public double Precision;
        public ulong MinTrackable;
        public ulong MaxTrackable;

        /// <summary>The i-th standard percentile (0 .. 15). The fields are laid out like the C
        /// array (sequential, same type, no padding), so a pointer walks them.</summary>
        public unsafe Percentile this[int i]
        {
            get
            {
                if ((uint)i >= Count) throw new ArgumentOutOfRangeException("i");
                fixed (Percentile* p = &P00) return p[i];
            }
        }
    }

    /// <summary>picollo_bucket (48 bytes).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Bucket
    {
        public ulong StorageIndex;
        public ulong LogicalIndex;
        public ulong Lower;
        public ulong Highest;
        public ulong Value;
        public ulong Count;

        public override string ToString()
        {
            return string.Format("[{0:N0}, {1:N0}] {2:N0}", Lower, Highest, Count);
        }
    }

    // ---------------------------------------------------------------------------------------
    // The C ABI, one declaration per exported function. Public so tests can make raw calls.
    // ---------------------------------------------------------------------------------------

    public static partial class Native
    {
        const string Lib = "picollo";
        const CallingConvention Cdecl = CallingConvention.Cdecl;

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern uint picollo_abi_version();

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern HistogramConfig picollo_histogram_config_default();

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_new(ref HistogramConfig config, out HistogramHandle handle);

        /// <summary>Raw form, for tests that must see what the library writes (or not).</summary>
        [DllImport(Lib, CallingConvention = Cdecl, EntryPoint = "picollo_histogram_new")]
        public static extern Status picollo_histogram_new_raw(ref HistogramConfig config, out IntPtr handle);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern void picollo_histogram_free(IntPtr h);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern void picollo_histogram_record(HistogramHandle h, ulong value);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern void picollo_histogram_record_n(HistogramHandle h, ulong value, ulong count);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern void picollo_histogram_record_corrected(HistogramHandle h, ulong value, ulong expectedInterval);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern unsafe Status picollo_histogram_record_many(HistogramHandle h, ulong* values, UIntPtr n);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_reset(HistogramHandle h);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_set_value_selection(HistogramHandle h, uint selection);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_get_info(HistogramHandle h, out HistogramInfo info);

        /// <summary>Raw form (NULL handle tests).</summary>
        [DllImport(Lib, CallingConvention = Cdecl, EntryPoint = "picollo_histogram_get_info")]
        public static extern Status picollo_histogram_info_raw(IntPtr h, out HistogramInfo info);

        /// <summary>Raw form taking the config as a pointer (struct_size tests with larger buffers).</summary>
        [DllImport(Lib, CallingConvention = Cdecl, EntryPoint = "picollo_histogram_new")]
        public static extern Status picollo_histogram_new_ptr(IntPtr config, out IntPtr h);

        // Calls taking two handles take raw pointers: mono's marshaller, when the second
        // SafeHandle is already disposed, throws without releasing its AddRef on the first,
        // which then can never be freed. Handles.Call2 pins both by hand instead.

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_add(IntPtr dst, IntPtr src);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_subtract(IntPtr dst, IntPtr src);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_percentile(HistogramHandle h, double rank, out Percentile p);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_percentiles(HistogramHandle h, double[] ranks, UIntPtr n, [Out] Percentile[] output);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_percentile_values(HistogramHandle h, double[] ranks, UIntPtr n, [Out] ulong[] output);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_summary(HistogramHandle h, out SummaryData summary);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_mean_stdev(HistogramHandle h, out double mean, out double stdev);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_bucket(HistogramHandle h, UIntPtr storageIndex, out Bucket bucket);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_next_bucket(HistogramHandle h, ref UIntPtr cursor, out Bucket bucket);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_next_buckets(HistogramHandle h, ref UIntPtr cursor, [Out] Bucket[] output, UIntPtr cap, out UIntPtr written);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_snapshot_new(HistogramHandle h, out SnapshotHandle snapshot);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_snapshot_update(IntPtr s, IntPtr h, uint deltas);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_snapshot_summary(SnapshotHandle s, out SummaryData summary);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_snapshot_percentiles(SnapshotHandle s, double[] ranks, UIntPtr n, [Out] Percentile[] output);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern void picollo_snapshot_free(IntPtr s);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern IntPtr picollo_status_str(uint status);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern IntPtr picollo_last_error_message();

        // Text, snprintf-style: strings go in as NUL-terminated UTF-8 byte arrays (null = NULL),
        // buffers as byte arrays (null with len 0 asks for the size).

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_summary_table(ref SummaryData summary, byte[] title, byte[] buf, UIntPtr len, out UIntPtr needed);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_summary_diff(ref SummaryData a, ref SummaryData b, byte[] title, byte[] nameA, byte[] nameB, byte[] buf, UIntPtr len, out UIntPtr needed);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_summary_line(ref SummaryData summary, byte[] name, byte[] buf, UIntPtr len, out UIntPtr needed);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_summary_json(ref SummaryData summary, byte[] buf, UIntPtr len, out UIntPtr needed);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_percentile_format(ref Percentile p, byte[] buf, UIntPtr len, out UIntPtr needed);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_table(HistogramHandle h, byte[] title, byte[] buf, UIntPtr len, out UIntPtr needed);
    }

    // ---------------------------------------------------------------------------------------
    // Handles.
    // ---------------------------------------------------------------------------------------

    /// <summary>Owns a picollo_histogram*. The marshaller AddRefs it around each call, so a
    /// Dispose racing a call cannot free the histogram under it.</summary>
    public sealed class HistogramHandle : SafeHandle
    {
        public HistogramHandle() : base(IntPtr.Zero, true) { }

        /// <summary>A handle another object owns (a perf session's counter histogram): never
        /// freed through this wrapper. The owner invalidates it before freeing the histogram.</summary>
        internal HistogramHandle(IntPtr borrowed) : base(IntPtr.Zero, false) { SetHandle(borrowed); }

        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

        protected override bool ReleaseHandle()
        {
            Native.picollo_histogram_free(handle);
            return true;
        }
    }

    /// <summary>Owns a picollo_snapshot*.</summary>
    public sealed class SnapshotHandle : SafeHandle
    {
        public SnapshotHandle() : base(IntPtr.Zero, true) { }

        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

        protected override bool ReleaseHandle()
        {
            Native.picollo_snapshot_free(handle);
            return true;
        }
    }

    internal static class Handles
    {
        /// <summary>Call with both handles' pointers, each kept alive (AddRef) for the call;
        /// ObjectDisposedException if either is disposed, with no reference leaked.</summary>
        public static Status Call2(SafeHandle a, SafeHandle b, Func<IntPtr, IntPtr, Status> call)
        {
            bool refA = false, refB = false;
            try
            {
                a.DangerousAddRef(ref refA);
                b.DangerousAddRef(ref refB);
                return call(a.DangerousGetHandle(), b.DangerousGetHandle());
            }
            finally
            {
                if (refB) b.DangerousRelease();
                if (refA) a.DangerousRelease();
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // Strings across the boundary.
    // ---------------------------------------------------------------------------------------

    internal static class Utf8
    {
        /// <summary>A NUL-terminated UTF-8 copy of s, or null (the C NULL) for null.</summary>
        public static byte[] ToNative(string s)
        {
            if (s == null) return null;
            if (s.IndexOf('\0') >= 0) throw new ArgumentException("text contains a NUL character");
            var bytes = new byte[Encoding.UTF8.GetByteCount(s) + 1];
            Encoding.UTF8.GetBytes(s, 0, s.Length, bytes, 0);
            return bytes;
        }

        /// <summary>Decode a NUL-terminated UTF-8 string owned by the library (mono's
        /// PtrToStringAnsi is not guaranteed to be UTF-8, so decode by hand).</summary>
        public static unsafe string FromNative(IntPtr p)
        {
            if (p == IntPtr.Zero) return null;
            byte* b = (byte*)p;
            int n = 0;
            while (b[n] != 0) n++;
            return Encoding.UTF8.GetString(b, n);
        }
    }

    internal static class Text
    {
        public delegate Status Writer(byte[] buf, UIntPtr len, out UIntPtr needed);

        /// <summary>Ask for the size with (NULL, 0), then render into a buffer that fits. The
        /// loop covers a histogram that grew between the two calls.</summary>
        public static string Render(Writer write)
        {
            UIntPtr needed;
            Status first = write(null, UIntPtr.Zero, out needed);
            if (first != Status.BufferTooSmall) PicolloException.Check(first);
            while (true)
            {
                int n = checked((int)needed.ToUInt64());
                var buf = new byte[n + 1];
                Status st = write(buf, new UIntPtr((ulong)buf.Length), out needed);
                if (st == Status.BufferTooSmall && needed.ToUInt64() >= (ulong)buf.Length) continue;
                PicolloException.Check(st);
                return Encoding.UTF8.GetString(buf, 0, (int)needed.ToUInt64());
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // The C# API.
    // ---------------------------------------------------------------------------------------

    /// <summary>Builds a <see cref="Histogram"/>, in the seed's style:
    /// <c>Histogram.Factory.WithRelativeError(0.01).WithUInt32Storage().WithMinTrackableValue(10000).Create()</c>.</summary>
    public sealed class HistogramBuilder
    {
        HistogramConfig _config = HistogramConfig.Default;

        public HistogramBuilder WithRelativeError(double relativeError) { _config.RelativeError = relativeError; return this; }
        public HistogramBuilder WithMinTrackableValue(ulong min) { _config.MinTrackable = min; return this; }
        public HistogramBuilder WithMaxTrackableValue(ulong max) { _config.MaxTrackable = max; return this; }
        public HistogramBuilder WithRange(ulong min, ulong max) { _config.MinTrackable = min; _config.MaxTrackable = max; return this; }
        public HistogramBuilder WithUInt32Storage() { _config.CounterBits = 32; return this; }
        public HistogramBuilder WithUInt64Storage() { _config.CounterBits = 64; return this; }
        public HistogramBuilder WithValueSelection(ValueSelection s) { _config.ValueSelection = (uint)s; return this; }

        /// <summary>The concurrency mode; <paramref name="approxThreshold"/> (T, 1..62, 0 for
        /// the default 13) only for <see cref="ConcurrencyMode.Approximate"/>.</summary>
        public HistogramBuilder WithMode(ConcurrencyMode mode, uint approxThreshold = 0)
        {
            _config.Mode = (uint)mode;
            _config.ApproxThreshold = approxThreshold;
            return this;
        }
        public HistogramBuilder WithSingleWriter() { return WithMode(ConcurrencyMode.SingleWriter); }
        public HistogramBuilder WithInterlocked() { return WithMode(ConcurrencyMode.Interlocked); }
        public HistogramBuilder WithThreadLocal() { return WithMode(ConcurrencyMode.ThreadLocal); }
        public HistogramBuilder WithApproximate(uint threshold = 0) { return WithMode(ConcurrencyMode.Approximate, threshold); }

        public HistogramConfig Config { get { return _config; } }
        public Histogram Create() { return new Histogram(_config); }
    }

    /// <summary>An HDR histogram. Dispose (or <c>using</c>) frees the native memory; it must
    /// not race other calls.
    /// <para>Threads, by <see cref="ConcurrencyMode"/> (chosen at creation): SingleWriter (the
    /// default) takes records from one thread at a time, and Reset from that thread;
    /// Interlocked, ThreadLocal and Approximate take records from any number of threads at
    /// once, and Reset from any thread (a bucket then holds at most what was recorded since).
    /// In every mode queries and snapshots may run on other threads while writers record:
    /// each answers from one consistent copy of the counts. Subtract works in the
    /// single-writer mode only (the others throw <see cref="Status.Unsupported"/>: use a
    /// snapshot with deltas).</para></summary>
    public sealed class Histogram : IDisposable
    {
        readonly HistogramHandle _handle;

        public static HistogramBuilder Factory { get { return new HistogramBuilder(); } }

        public Histogram(HistogramConfig config)
        {
            HistogramHandle h;
            Status st = Native.picollo_histogram_new(ref config, out h);
            if (st != Status.Ok)
            {
                if (h != null) h.Dispose();
                PicolloException.Check(st);
            }
            _handle = h;
        }

        public Histogram(double relativeError = 0.001, ulong minTrackable = 0, ulong maxTrackable = ulong.MaxValue,
                         int counterBits = 64, ValueSelection valueSelection = ValueSelection.Midpoint,
                         ConcurrencyMode mode = ConcurrencyMode.SingleWriter, uint approxThreshold = 0)
            : this(MakeConfig(relativeError, minTrackable, maxTrackable, counterBits, valueSelection, mode, approxThreshold)) { }

        static HistogramConfig MakeConfig(double relativeError, ulong min, ulong max, int bits, ValueSelection sel,
                                          ConcurrencyMode mode, uint approxThreshold)
        {
            var c = HistogramConfig.Default;
            c.RelativeError = relativeError;
            c.MinTrackable = min;
            c.MaxTrackable = max;
            c.CounterBits = (uint)bits;
            c.ValueSelection = (uint)sel;
            c.Mode = (uint)mode;
            c.ApproxThreshold = approxThreshold;
            return c;
        }

        /// <summary>Wrap a borrowed handle; <paramref name="owner"/> is kept alive with it.</summary>
        internal Histogram(HistogramHandle borrowed, object owner)
        {
            _handle = borrowed;
            _owner = owner;
        }

        readonly object _owner;

        /// <summary>The object that owns the native histogram (null when this wrapper owns it).</summary>
        public object Owner { get { return _owner; } }

        /// <summary>The handle, for raw calls through <see cref="Native"/>.</summary>
        public HistogramHandle Handle { get { return _handle; } }

        public void Dispose() { _handle.Dispose(); }

        public bool IsDisposed { get { return _handle.IsClosed; } }

        // Recording never fails: out-of-range values count as underflow/overflow.
        public void Record(ulong value) { Native.picollo_histogram_record(_handle, value); }
        public void Record(ulong value, ulong count) { Native.picollo_histogram_record_n(_handle, value, count); }
        public void RecordCorrected(ulong value, ulong expectedInterval) { Native.picollo_histogram_record_corrected(_handle, value, expectedInterval); }

        /// <summary>Record a whole array in one native call.</summary>
        public void RecordMany(ulong[] values) { RecordMany(values, 0, values == null ? 0 : values.Length); }

        public unsafe void RecordMany(ulong[] values, int offset, int count)
        {
            if (values == null) throw new ArgumentNullException("values");
            if (offset < 0 || count < 0 || offset > values.Length - count) throw new ArgumentOutOfRangeException("count");
            if (count == 0) return;
            fixed (ulong* p = &values[offset])
                PicolloException.Check(Native.picollo_histogram_record_many(_handle, p, new UIntPtr((uint)count)));
        }

        public void Reset() { PicolloException.Check(Native.picollo_histogram_reset(_handle)); }

        public HistogramInfo Info
        {
            get
            {
                HistogramInfo info;
                PicolloException.Check(Native.picollo_histogram_get_info(_handle, out info));
                return info;
            }
        }

        public ulong TotalCount { get { return Info.Total; } }
        public ulong UnderflowCount { get { return Info.Underflow; } }
        public ulong OverflowCount { get { return Info.Overflow; } }
        public ulong SaturatedCount { get { return Info.Saturated; } }

        public ConcurrencyMode Mode { get { return (ConcurrencyMode)Info.Mode; } }

        /// <summary>T of the approximate mode (exact below 2^T per bucket); 0 in the others.</summary>
        public uint ApproxThreshold { get { return Info.ApproxThreshold; } }

        public ValueSelection ValueSelection
        {
            get { return (ValueSelection)Info.ValueSelection; }
            set { PicolloException.Check(Native.picollo_histogram_set_value_selection(_handle, (uint)value)); }
        }

        public double Mean { get { double m, s; PicolloException.Check(Native.picollo_histogram_mean_stdev(_handle, out m, out s)); return m; } }
        public double StdDev { get { double m, s; PicolloException.Check(Native.picollo_histogram_mean_stdev(_handle, out m, out s)); return s; } }

        /// <summary>The percentile at rank (percent, 0..100).</summary>
        public Percentile Percentile(double rank)
        {
            Percentile p;
            PicolloException.Check(Native.picollo_histogram_percentile(_handle, rank, out p));
            return p;
        }

        /// <summary>Percentiles for strictly increasing ranks, in one pass.</summary>
        public Percentile[] Percentiles(params double[] ranks)
        {
            if (ranks == null) throw new ArgumentNullException("ranks");
            var output = new Percentile[ranks.Length];
            PicolloException.Check(Native.picollo_histogram_percentiles(_handle, ranks, new UIntPtr((uint)ranks.Length), output));
            return output;
        }

        /// <summary>Values only, for strictly increasing ranks.</summary>
        public ulong[] PercentileValues(params double[] ranks)
        {
            if (ranks == null) throw new ArgumentNullException("ranks");
            var output = new ulong[ranks.Length];
            PicolloException.Check(Native.picollo_histogram_percentile_values(_handle, ranks, new UIntPtr((uint)ranks.Length), output));
            return output;
        }

        /// <summary>The standard summary (16 percentiles, totals, moments).</summary>
        public Summary GetSummary() { var s = new Summary(); GetSummary(s); return s; }

        /// <summary>Refill an existing summary in place (no allocation).</summary>
        public void GetSummary(Summary into)
        {
            if (into == null) throw new ArgumentNullException("into");
            PicolloException.Check(Native.picollo_histogram_summary(_handle, out into.Data));
        }

        /// <summary>The Markdown table (with a <c>##### title</c> heading unless title is null/empty).</summary>
        public string Table(string title = null)
        {
            byte[] t = Utf8.ToNative(title);
            return Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                Native.picollo_histogram_table(_handle, t, buf, len, out needed));
        }

        public override string ToString() { return _handle.IsClosed ? "Histogram (disposed)" : Table(); }

        /// <summary>Non-empty buckets, lowest first, 256 per native call (each batch from one
        /// consistent copy of the counts).</summary>
        public IEnumerable<Bucket> Buckets { get { return BucketsInBatches(256); } }

        /// <summary>Non-empty buckets, lowest first, <paramref name="batch"/> per native call.</summary>
        public IEnumerable<Bucket> BucketsInBatches(int batch)
        {
            if (batch < 1) throw new ArgumentOutOfRangeException("batch");
            return BatchIterator(batch);
        }

        IEnumerable<Bucket> BatchIterator(int batch)
        {
            UIntPtr cursor = UIntPtr.Zero;
            var output = new Bucket[batch];
            while (true)
            {
                UIntPtr written;
                Status st = Native.picollo_histogram_next_buckets(_handle, ref cursor, output, new UIntPtr((uint)batch), out written);
                if (st == Status.OutOfRange) yield break;
                PicolloException.Check(st);
                int n = (int)written.ToUInt64();
                for (int i = 0; i < n; i++) yield return output[i];
            }
        }

        /// <summary>The bucket at a storage index, empty or not.</summary>
        public Bucket Bucket(long storageIndex)
        {
            if (storageIndex < 0) throw new ArgumentOutOfRangeException("storageIndex");
            Bucket b;
            PicolloException.Check(Native.picollo_histogram_bucket(_handle, new UIntPtr((ulong)storageIndex), out b));
            return b;
        }

        /// <summary>Add every count of other (same relative error; any range and counter width).</summary>
        public void Add(Histogram other) { PicolloException.Check(Handles.Call2(_handle, Checked(other).Handle, Native.picollo_histogram_add)); }

        /// <summary>Subtract every count of other; nothing changes if a count would go negative.</summary>
        public void Subtract(Histogram other) { PicolloException.Check(Handles.Call2(_handle, Checked(other).Handle, Native.picollo_histogram_subtract)); }

        static Histogram Checked(Histogram h)
        {
            if (h == null) throw new ArgumentNullException("other");
            return h;
        }

        public Snapshot GetSnapshot() { return new Snapshot(this); }
    }

    /// <summary>A copy of a histogram, refreshed in place (no allocation), optionally as the
    /// deltas since the previous refresh.</summary>
    public sealed class Snapshot : IDisposable
    {
        readonly SnapshotHandle _handle;
        readonly Histogram _source;

        internal Snapshot(Histogram source)
        {
            SnapshotHandle s;
            Status st = Native.picollo_snapshot_new(source.Handle, out s);
            if (st != Status.Ok)
            {
                if (s != null) s.Dispose();
                PicolloException.Check(st);
            }
            _handle = s;
            _source = source;
        }

        public SnapshotHandle Handle { get { return _handle; } }

        /// <summary>Refresh from the source histogram: the full counts, or (deltas) what was
        /// recorded since the previous update.</summary>
        public void Update(bool deltas = false)
        {
            uint d = deltas ? 1u : 0u;
            PicolloException.Check(Handles.Call2(_handle, _source.Handle, (s, h) => Native.picollo_snapshot_update(s, h, d)));
        }

        public Summary GetSummary() { var s = new Summary(); GetSummary(s); return s; }

        public void GetSummary(Summary into)
        {
            if (into == null) throw new ArgumentNullException("into");
            PicolloException.Check(Native.picollo_snapshot_summary(_handle, out into.Data));
        }

        public Percentile[] Percentiles(params double[] ranks)
        {
            if (ranks == null) throw new ArgumentNullException("ranks");
            var output = new Percentile[ranks.Length];
            PicolloException.Check(Native.picollo_snapshot_percentiles(_handle, ranks, new UIntPtr((uint)ranks.Length), output));
            return output;
        }

        public void Dispose() { _handle.Dispose(); }
    }

    /// <summary>The standard summary: percentiles at ranks 0, 1, 5, 10, 25, 50, 75, 90, 92.5,
    /// 95, 97.5, 99, 99.9, 99.99, 99.999, 100, then totals and moments. A class around the
    /// blittable struct so it can be refilled in place.</summary>
    public sealed class Summary
    {
        public static readonly double[] StandardRanks =
            { 0, 1, 5, 10, 25, 50, 75, 90, 92.5, 95, 97.5, 99, 99.9, 99.99, 99.999, 100 };

        /// <summary>The raw struct, filled by the library.</summary>
        public SummaryData Data;

        public Percentile this[int i] { get { return Data[i]; } }

        public Percentile[] Percentiles
        {
            get
            {
                var all = new Percentile[SummaryData.Count];
                for (int i = 0; i < all.Length; i++) all[i] = Data[i];
                return all;
            }
        }

        public Percentile P0 { get { return Data.P00; } }
        public Percentile P1 { get { return Data.P01; } }
        public Percentile P5 { get { return Data.P02; } }
        public Percentile P10 { get { return Data.P03; } }
        public Percentile P25 { get { return Data.P04; } }
        public Percentile P50 { get { return Data.P05; } }
        public Percentile P75 { get { return Data.P06; } }
        public Percentile P90 { get { return Data.P07; } }
        public Percentile P92_5 { get { return Data.P08; } }
        public Percentile P95 { get { return Data.P09; } }
        public Percentile P97_5 { get { return Data.P10; } }
        public Percentile P99 { get { return Data.P11; } }
        public Percentile P999 { get { return Data.P12; } }
        public Percentile P9999 { get { return Data.P13; } }
        public Percentile P99999 { get { return Data.P14; } }
        public Percentile P100 { get { return Data.P15; } }

        public ulong TotalCount { get { return Data.Total; } }
        public ulong UnderflowCount { get { return Data.Underflow; } }
        public ulong OverflowCount { get { return Data.Overflow; } }
        public ulong SaturatedCount { get { return Data.Saturated; } }
        public double Mean { get { return Data.Mean; } }
        public double StdDev { get { return Data.StdDev; } }
        public double Precision { get { return Data.Precision; } }
        public ulong MinTrackable { get { return Data.MinTrackable; } }
        public ulong MaxTrackable { get { return Data.MaxTrackable; } }

        /// <summary>The Markdown table.</summary>
        public string Table(string title = null)
        {
            byte[] t = Utf8.ToNative(title);
            return Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                Native.picollo_summary_table(ref Data, t, buf, len, out needed));
        }

        /// <summary>The diff table of other against this: Δ%, Mean, StDev, Precision, Total, D-value.</summary>
        public string Diff(Summary other, string title = null, string nameA = null, string nameB = null)
        {
            if (other == null) throw new ArgumentNullException("other");
            byte[] t = Utf8.ToNative(title), a = Utf8.ToNative(nameA), b = Utf8.ToNative(nameB);
            return Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                Native.picollo_summary_diff(ref Data, ref other.Data, t, a, b, buf, len, out needed));
        }

        /// <summary>One line: <c>name: Total=…, Overflow=…, Mean=…, P0=…, …, P100=…</c>.</summary>
        public string Line(string name = null)
        {
            byte[] n = Utf8.ToNative(name);
            return Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                Native.picollo_summary_line(ref Data, n, buf, len, out needed));
        }

        public string Json()
        {
            return Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                Native.picollo_summary_json(ref Data, buf, len, out needed));
        }

        public void PrettyPrint(string title = null) { Console.Write(Table(title)); }

        public void PrettyPrintDiff(Summary other, string title = null, string nameA = null, string nameB = null)
        {
            Console.Write(Diff(other, title, nameA, nameB));
        }

        public override string ToString() { return Line(); }
        public string ToString(string name) { return Line(name); }
    }
}
