// Picollo for .NET: a P/Invoke binding of libpicollo (include/picollo.h).
//
// Layers, bottom up:
//   Native            every [DllImport] of the C ABI, nothing else (internal);
//   blittable structs field-for-field copies of the C structs (checked against the C sizeof);
//   SafeHandles       own the native pointers; each one's Free calls the matching _free, its
//                     base (SafeHandleZeroIsInvalid) and the Handles helpers are in Handles.cs (internal).
// The API a C# caller uses is the one of the Picollo .NET announcement, namespace
// Picollo.Metrics: HdrHistogram, HdrHistogramBuilder (HdrHistogram.Factory),
// HdrHistogramSummary, HdrHistogramSnapshot and NanoScope, in Metrics/*.cs, with the C types
// they hand out (Percentile, Bucket, ValueSelection, ConcurrencyMode) declared here.
// Beside it, FloatHistogram (its builder, summary and snapshot, Metrics/Float*.cs) over
// picollo_float_histogram, for doubles; its C types (FloatPercentile, FloatBucket, the raw
// config, info and summary) are declared here too, as are HistogramStep and TextFormat of the
// value queries (Metrics/HdrHistogramQueries.cs, HdrHistogramSteps.cs). scripts/check_bindings.py
// reads the declarations of the C ABI from this file and the Picollo*.cs beside it only.
// PicolloApprox.cs adds the standalone approximate counter (ApproxCounter), PicolloHdr.cs the
// HdrHistogram formats (V2 encoding, .hgrm, interval logs), PicolloMetrics.cs the metrics
// pipelines (interval collection, OpenMetrics, OTLP), PicolloPerf.cs and Perf/*.cs the
// perf_event counters (Picollo.Perf), PicolloBench.cs and Bench/*.cs the benchmark harness
// (Bench.Run, Bench.Compare). Exceptions.cs maps each picollo_status to the .NET
// exception of its kind; Metrics/Shared.cs holds what the integer and float classes share.
//
// Built by Picollo.csproj (dotnet build / dotnet pack), or with mono's mcs:
// `mcs -unsafe -target:library -out:Picollo.dll *.cs */*.cs` (c-tests/csharp/run.sh).

using System;
using System.Globalization;
using System.Runtime.InteropServices;
using System.Text;
using Picollo.Metrics;

namespace Picollo.Metrics
{
    // The C types a histogram's user names (HdrHistogram and its summary, snapshot and
    // builder are in Metrics/); the raw layer below stays in namespace Picollo.

    /// <summary>picollo_value_selection: which value of a bucket a percentile reports.</summary>
    public enum ValueSelection : uint
    {
        Midpoint = 0,
        Lower = 1,
        Upper = 2,
        Interpolated = 3,
    }

    /// <summary>picollo_mode: who may record into a histogram at once (see <see cref="HdrHistogram"/>).</summary>
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

        /// <summary>As the Picollo .NET announcement prints it: <c>P99=24,960 [83 / 609]: [24,832, 25,088) 14,190</c>.</summary>
        public override string ToString()
        {
            Percentile self = this;
            return Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                Native.picollo_percentile_format(ref self, buf, len, out needed));
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

    /// <summary>picollo_storage: how an <see cref="HdrHistogram"/> keeps its counters.</summary>
    public enum HistogramStorage : uint
    {
        /// <summary>One counter per bucket of the range, allocated at creation: no allocation
        /// while recording (the default).</summary>
        Dense = 0,
        /// <summary>Blocks of counters allocated when a value first lands in them: memory
        /// follows the range of the data (<see cref="HistogramInfo.FootprintBytes"/>). Not in
        /// the thread-local mode; the inline recorder calls for every record.</summary>
        Sparse = 1,
    }

    /// <summary>picollo_text_format: a text form of a histogram's summary
    /// (<see cref="HdrHistogram.ToText"/>).</summary>
    public enum TextFormat : uint
    {
        /// <summary>The Markdown table (<see cref="HdrHistogram.Table"/>).</summary>
        Table = 0,
        /// <summary>The one-line summary, named by the title (<see cref="HdrHistogramSummary.Line"/>).</summary>
        OneLine = 1,
        /// <summary>A JSON object (<see cref="HdrHistogramSummary.Json"/>); the title is not used.</summary>
        Json = 2,
    }

    /// <summary>picollo_step (40 bytes): one step of values of <see cref="HdrHistogram.LinearSteps"/>
    /// or <see cref="HdrHistogram.LogarithmicSteps"/>, with the counts of the buckets whose
    /// midpoint lies in it.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct HistogramStep
    {
        /// <summary>First value of the step.</summary>
        public ulong Lower;
        /// <summary>Last value of the step (inclusive: the next one starts at Highest + 1).</summary>
        public ulong Highest;
        /// <summary>Counts of the buckets whose midpoint lies in [Lower, Highest].</summary>
        public ulong Count;
        /// <summary>Counts up to the end of this step.</summary>
        public ulong CumulativeCount;
        /// <summary>CumulativeCount over the count in range, in percent.</summary>
        public double Percentile;

        public override string ToString()
        {
            return string.Format(CultureInfo.InvariantCulture, "[{0:N0}, {1:N0}] {2:N0} ({3:N0}, {4:0.####}%)",
                                 Lower, Highest, Count, CumulativeCount, Percentile);
        }
    }

    /// <summary>picollo_float_storage: how a <see cref="FloatHistogram"/> keeps its counters.</summary>
    public enum FloatStorage : uint
    {
        /// <summary>One counter per bucket of the range, allocated at creation.</summary>
        Dense = 0,
        /// <summary>One block per octave of magnitude, allocated when a value first lands in
        /// it (the default): memory follows the data.</summary>
        Sparse = 1,
    }

    /// <summary>picollo_float_mode: who may record into a <see cref="FloatHistogram"/> at once.</summary>
    public enum FloatConcurrencyMode : uint
    {
        /// <summary>One recording thread at a time; reads from any.</summary>
        SingleWriter = 0,
        /// <summary>Any number of recording threads (atomic adds).</summary>
        Interlocked = 1,
    }

    /// <summary>picollo_float_percentile (72 bytes): a percentile of a <see cref="FloatHistogram"/>
    /// and the bucket it fell in.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct FloatPercentile
    {
        /// <summary>The rank asked for, in percent.</summary>
        public double Rank;
        /// <summary>The reported value (per the value selection; 0 for the zero bucket).</summary>
        public double Value;
        /// <summary>The largest distance from Value to a value of its bucket.</summary>
        public double PlusMinus;
        /// <summary>The smallest value of the bucket (signed).</summary>
        public double Lowest;
        /// <summary>The largest value of the bucket (signed).</summary>
        public double Highest;
        public ulong Count;
        /// <summary>Values up to and including this bucket.</summary>
        public ulong CumulativeCount;
        /// <summary>The count the rank points at: max(1, ceil(rank/100 · total)).</summary>
        public ulong RankCount;
        /// <summary>−1 for a negative bucket, 0 for the zero bucket, 1 for a positive one.</summary>
        public int Side;
        public uint Reserved;

        /// <summary><c>P99=0.0123457 ±6.1e-06 [0.0123396, 0.0123518] 17</c>: rank, value, ±,
        /// the bucket's closed interval and count (values to 6 significant digits).</summary>
        public override string ToString()
        {
            return string.Format(CultureInfo.InvariantCulture, "P{0}={1:G6} ±{2:G2} [{3:G6}, {4:G6}] {5:N0}",
                                 Rank, Value, PlusMinus, Lowest, Highest, Count);
        }
    }

    /// <summary>picollo_float_bucket (40 bytes): a non-empty bucket of a <see cref="FloatHistogram"/>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct FloatBucket
    {
        /// <summary>The smallest value it holds (signed).</summary>
        public double Lowest;
        /// <summary>The largest value it holds (signed).</summary>
        public double Highest;
        /// <summary>The value it reports (per the value selection; 0 for the zero bucket).</summary>
        public double Value;
        public ulong Count;
        /// <summary>−1 negative, 0 the zero bucket, 1 positive.</summary>
        public int Side;
        public uint Reserved;

        public override string ToString()
        {
            return string.Format(CultureInfo.InvariantCulture, "[{0:G6}, {1:G6}] {2:N0}", Lowest, Highest, Count);
        }
    }
}

namespace Picollo
{
    /// <summary>picollo_status: the result of a fallible call (0 = OK). The binding throws each
    /// other status as the .NET exception of its kind (<see cref="PicolloException.For"/>).</summary>
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
        /// <summary>The input is not valid V2, base64 or interval log text.</summary>
        FormatError = 15,
        /// <summary>The histogram cannot be written in the requested format.</summary>
        Unencodable = 16,
    }

    // ---------------------------------------------------------------------------------------
    // Blittable mirrors of the C structs. Only uint/ulong/double fields, in C order, so the
    // managed and native layouts coincide and the marshaller pins instead of copying.
    // ---------------------------------------------------------------------------------------

    /// <summary>picollo_histogram_config (64 bytes).</summary>
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
        /// <summary>A <see cref="HistogramStorage"/> value (ABI 1.6; a reserved zero before).</summary>
        public uint Storage;
        /// <summary>1: keep the exact smallest and largest value recorded in the range
        /// (<see cref="HdrHistogram.RecordedMin"/>, <see cref="HdrHistogram.RecordedMax"/>); 0
        /// (the default): keep none (ABI 1.7).</summary>
        public uint ExactExtremes;
        /// <summary>Zero.</summary>
        public uint Reserved;
        /// <summary>HdrHistogram's lowest discernible value: the lowest buckets are
        /// 2^floor(log2 L) wide (the unit); 1 (the default) or 0: exact integers (ABI 1.11).</summary>
        public ulong LowestDiscernible;

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

    /// <summary>picollo_float_config (48 bytes): the configuration of a <see cref="FloatHistogram"/>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct FloatHistogramConfig
    {
        public uint StructSize;
        public uint CounterBits;
        public double RelativeError;
        /// <summary>Smallest magnitude kept in buckets, &gt; 0 (subnormals allowed).</summary>
        public double MinMagnitude;
        /// <summary>Largest magnitude kept in buckets, finite and &gt;= MinMagnitude.</summary>
        public double MaxMagnitude;
        public uint Storage;
        public uint Mode;
        public uint ValueSelection;
        public uint Reserved;

        /// <summary>The library's defaults (u64 counters, relative error 0.001, every finite
        /// magnitude, sparse, single writer, midpoints), struct_size set by the library.</summary>
        public static FloatHistogramConfig Default { get { return Native.picollo_float_config_default(); } }
    }

    /// <summary>picollo_float_info (152 bytes), filled by picollo_float_histogram_get_info.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct FloatHistogramInfo
    {
        public ulong Total;
        public ulong Zero;
        public ulong NaN;
        public ulong PositiveInfinity;
        public ulong NegativeInfinity;
        public ulong Underflow;
        public ulong Overflow;
        public ulong Saturated;
        public double Sum;
        /// <summary>Smallest value in buckets, exact (NaN when empty).</summary>
        public double Min;
        /// <summary>Largest value in buckets, exact (NaN when empty).</summary>
        public double Max;
        public double MinMagnitude;
        public double MaxMagnitude;
        public double RelativeError;
        public ulong BucketsPerOctave;
        public ulong StorageLen;
        public ulong FootprintBytes;
        public uint CounterBits;
        public uint Mode;
        public uint Storage;
        public uint ValueSelection;
    }

    /// <summary>picollo_float_summary (1280 bytes): 16 percentiles as 16 fields (as in
    /// <see cref="SummaryData"/>), the counts beside the buckets, the exact sum and extremes.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct FloatSummaryData
    {
        public const int Count = 16;

        public FloatPercentile P00, P01, P02, P03, P04, P05, P06, P07;
        public FloatPercentile P08, P09, P10, P11, P12, P13, P14, P15;
        public ulong Total;
        public ulong Zero;
        public ulong NaN;
        public ulong PositiveInfinity;
        public ulong NegativeInfinity;
        public ulong Underflow;
        public ulong Overflow;
        public ulong Saturated;
        public double Sum;
        public double Min;
        public double Max;
        public double Mean;
        /// <summary>Population standard deviation over bucket midpoints (the C field stdev).</summary>
        public double Stdev;
        public double Precision;
        public double MinMagnitude;
        public double MaxMagnitude;

        /// <summary>The i-th standard percentile (0 .. 15), as <see cref="SummaryData"/>'s.</summary>
        public unsafe FloatPercentile this[int i]
        {
            get
            {
                if ((uint)i >= Count) throw new ArgumentOutOfRangeException("i");
                fixed (FloatPercentile* p = &P00) return p[i];
            }
        }
    }

    /// <summary>picollo_recorder_kind: how a recorder counts a bucket in place.</summary>
    public enum RecorderKind : uint
    {
        /// <summary>A relaxed load, then a store of one more (single writer; thread-local shard).</summary>
        Plain = 0,
        /// <summary>An atomic add of 1, taken back (then Record) when it finds the limit (interlocked).</summary>
        Atomic = 1,
        /// <summary>No direct path: every record calls Record (approximate mode, thread-local at
        /// its shard cap, sparse storage, exact extremes).</summary>
        Call = 2,
    }

    /// <summary>picollo_recorder (64 bytes): where the calling thread's records of one
    /// histogram go (picollo_histogram_get_recorder), for code that counts buckets in place as
    /// the header's inline picollo_recorder_record does. Raw: the pointers live as long as the
    /// histogram, and the thread rules of picollo_histogram_get_recorder apply.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct RecorderData
    {
        /// <summary>The picollo_histogram*.</summary>
        public IntPtr Histogram;
        /// <summary>The picollo_record_fn for everything the in-place path does not take.</summary>
        public IntPtr Record;
        /// <summary>The first of Len counters (uint or ulong per CounterBits); zero for Call.</summary>
        public IntPtr Cells;
        public ulong Len;
        /// <summary>Logical index of the first counter's bucket in the whole u64 layout.</summary>
        public ulong FirstIndex;
        /// <summary>A counter holding this count or more takes Record.</summary>
        public ulong Limit;
        public uint BlockScale;
        public uint CounterBits;
        public uint Kind;
        /// <summary>log2 of the block size times the unit (BlockScale plus log2 of the unit):
        /// values below twice <c>1 &lt;&lt; FineScale</c> lie in unit-wide buckets. ABI 1.14
        /// (zero before).</summary>
        public uint FineScale;
    }

    // ---------------------------------------------------------------------------------------
    // The C ABI, one declaration per exported function. Internal: the public API is the
    // classes above it; the test programs make raw calls through InternalsVisibleTo.
    // ---------------------------------------------------------------------------------------

    internal static partial class Native
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
        public static extern unsafe Status picollo_histogram_record_many_i64(HistogramHandle h, long* values, UIntPtr n);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_reset(HistogramHandle h);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_set_value_selection(HistogramHandle h, uint selection);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_get_info(HistogramHandle h, out HistogramInfo info);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_get_storage(HistogramHandle h, out uint storage);
        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_get_unit(HistogramHandle h, out ulong unit);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_exact_extremes(HistogramHandle h, out ulong min, out ulong max);

        /// <summary>Raw form (NULL handle and NULL out-pointer tests).</summary>
        [DllImport(Lib, CallingConvention = Cdecl, EntryPoint = "picollo_histogram_exact_extremes")]
        public static extern Status picollo_histogram_exact_extremes_raw(IntPtr h, IntPtr min, IntPtr max);

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
        public static extern unsafe Status picollo_histogram_percentiles(HistogramHandle h, double* ranks, UIntPtr n, Percentile* output);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern unsafe Status picollo_histogram_percentile_values(HistogramHandle h, double* ranks, UIntPtr n, ulong* output);

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
        public static extern unsafe Status picollo_snapshot_percentiles(SnapshotHandle s, double* ranks, UIntPtr n, Percentile* output);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern void picollo_snapshot_free(IntPtr s);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_cumulative_new(HistogramHandle h, out CumulativeHandle cumulative);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern void picollo_cumulative_free(IntPtr c);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_cumulative_percentile(CumulativeHandle c, double rank, out Percentile output);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern unsafe Status picollo_cumulative_percentiles(CumulativeHandle c, double* ranks, UIntPtr n, Percentile* output);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_cumulative_rank_of(CumulativeHandle c, ulong value, out double output);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_cumulative_quantile_of(CumulativeHandle c, ulong value, out double output);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_cumulative_count_between(CumulativeHandle c, ulong lo, ulong hi, out ulong output);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_cumulative_total_count(CumulativeHandle c, out ulong output);

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

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_text(HistogramHandle h, TextFormat format, byte[] title, byte[] buf, UIntPtr len, out UIntPtr needed);

        // The fast record paths. picollo_record_fn is `void (*)(picollo_histogram*, uint64_t)`:
        // a plain function pointer (RecordFn calls one through the marshaller, which costs
        // what picollo_histogram_record costs; it is here for completeness and tests).

        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        public delegate void RecordFn(IntPtr h, ulong value);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern IntPtr picollo_histogram_record_fn(HistogramHandle h);

        /// <summary>PICOLLO_RECORDER_VERSION: the recorder arithmetic of the header's inline
        /// picollo_recorder_index (version 2 finds a bucket with the layout's unit, FineScale).</summary>
        public const uint RecorderVersion = 2;

        /// <summary>Pass <see cref="RecorderVersion"/>: with 1 (picollo_histogram_recorder, the
        /// arithmetic without the unit) layouts with a unit get Call.</summary>
        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_get_recorder(HistogramHandle h, uint version, out RecorderData recorder);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_recorder(HistogramHandle h, out RecorderData recorder);

        // Queries by value and other precisions (Metrics/HdrHistogramQueries.cs, HdrHistogramSteps.cs).

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_rank_of(HistogramHandle h, ulong value, out double rank);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_quantile_of(HistogramHandle h, ulong value, out double quantile);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_count_between(HistogramHandle h, ulong lo, ulong hi, out ulong count);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_equivalent_range(HistogramHandle h, ulong value, out ulong lowest, out ulong highest);

        /// <summary>Two handles: raw pointers, pinned by Handles.Call2 (see picollo_histogram_add).</summary>
        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_add_rebinned(IntPtr dst, IntPtr src);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_downsample(HistogramHandle h, double relativeError, out HistogramHandle result);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_linear_steps(HistogramHandle h, ulong width, ref ulong cursor,
                                                                   [Out] HistogramStep[] output, UIntPtr cap, out UIntPtr written);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_histogram_log_steps(HistogramHandle h, ulong first, double logBase, ref ulong cursor,
                                                                [Out] HistogramStep[] output, UIntPtr cap, out UIntPtr written);

        // The float histogram (Metrics/FloatHistogram*.cs).

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern FloatHistogramConfig picollo_float_config_default();

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_float_histogram_new(ref FloatHistogramConfig config, out FloatHistogramHandle handle);

        /// <summary>Raw form, for tests that must see what the library writes (or not).</summary>
        [DllImport(Lib, CallingConvention = Cdecl, EntryPoint = "picollo_float_histogram_new")]
        public static extern Status picollo_float_histogram_new_raw(ref FloatHistogramConfig config, out IntPtr handle);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern void picollo_float_histogram_free(IntPtr h);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern void picollo_float_histogram_record(FloatHistogramHandle h, double value);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern void picollo_float_histogram_record_f32(FloatHistogramHandle h, float value);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern void picollo_float_histogram_record_n(FloatHistogramHandle h, double value, ulong count);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern unsafe Status picollo_float_histogram_record_many(FloatHistogramHandle h, double* values, UIntPtr n);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern unsafe Status picollo_float_histogram_record_many_f32(FloatHistogramHandle h, float* values, UIntPtr n);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_float_histogram_reset(FloatHistogramHandle h);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_float_histogram_set_value_selection(FloatHistogramHandle h, uint selection);

        /// <summary>Two handles: raw pointers, pinned by Handles.Call2.</summary>
        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_float_histogram_add(IntPtr dst, IntPtr src);

        /// <summary>Two handles: raw pointers, pinned by Handles.Call2.</summary>
        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_float_histogram_add_rebinned(IntPtr dst, IntPtr src);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_float_histogram_downsample(FloatHistogramHandle h, double relativeError, out FloatHistogramHandle result);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_float_histogram_get_info(FloatHistogramHandle h, out FloatHistogramInfo info);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_float_histogram_percentile(FloatHistogramHandle h, double rank, out FloatPercentile p);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern unsafe Status picollo_float_histogram_percentiles(FloatHistogramHandle h, double* ranks, UIntPtr n, FloatPercentile* output);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_float_histogram_summary(FloatHistogramHandle h, out FloatSummaryData summary);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_float_histogram_rank_of(FloatHistogramHandle h, double x, out double rank);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_float_histogram_quantile_of(FloatHistogramHandle h, double x, out double quantile);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_float_histogram_count_between(FloatHistogramHandle h, double lo, double hi, out ulong count);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_float_histogram_equivalent_range(FloatHistogramHandle h, double x, out double lowest, out double highest);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_float_histogram_next_buckets(FloatHistogramHandle h, ref ulong cursor, [Out] FloatBucket[] output,
                                                                         UIntPtr capacity, out UIntPtr written);

        /// <summary>format: 0 the Markdown table, 1 the one-line summary (TextFormat.Table, OneLine).</summary>
        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_float_histogram_text(FloatHistogramHandle h, uint format, byte[] title, byte[] buf, UIntPtr len, out UIntPtr needed);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_float_summary_table(ref FloatSummaryData summary, byte[] title, byte[] buf, UIntPtr len, out UIntPtr needed);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_float_summary_diff(ref FloatSummaryData a, ref FloatSummaryData b, byte[] title, byte[] nameA, byte[] nameB,
                                                               byte[] buf, UIntPtr len, out UIntPtr needed);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_float_summary_line(ref FloatSummaryData summary, byte[] name, byte[] buf, UIntPtr len, out UIntPtr needed);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_float_summary_json(ref FloatSummaryData summary, byte[] buf, UIntPtr len, out UIntPtr needed);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_float_snapshot_new(FloatHistogramHandle h, out FloatSnapshotHandle snapshot);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern void picollo_float_snapshot_free(IntPtr s);

        /// <summary>Two handles: raw pointers, pinned by Handles.Call2.</summary>
        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_float_snapshot_update(IntPtr s, IntPtr h, uint deltas);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_float_snapshot_summary(FloatSnapshotHandle s, out FloatSummaryData summary);
    }

    // ---------------------------------------------------------------------------------------
    // Handles.
    // ---------------------------------------------------------------------------------------

    /// <summary>Owns a picollo_histogram*. The marshaller AddRefs it around each call, so a
    /// Dispose racing a call cannot free the histogram under it.</summary>
    internal sealed class HistogramHandle : SafeHandleZeroIsInvalid
    {
        public HistogramHandle() { }

        /// <summary>A handle another object owns (a perf session's counter histogram): never
        /// freed through this wrapper. The owner invalidates it before freeing the histogram.</summary>
        internal HistogramHandle(IntPtr borrowed) : base(borrowed) { }

        protected override void Free(IntPtr pointer) { Native.picollo_histogram_free(pointer); }
    }

    /// <summary>Owns a picollo_snapshot*.</summary>
    internal sealed class SnapshotHandle : SafeHandleZeroIsInvalid
    {
        protected override void Free(IntPtr pointer) { Native.picollo_snapshot_free(pointer); }
    }

    /// <summary>Owns a picollo_cumulative*.</summary>
    internal sealed class CumulativeHandle : SafeHandleZeroIsInvalid
    {
        protected override void Free(IntPtr pointer) { Native.picollo_cumulative_free(pointer); }
    }

    /// <summary>Owns a picollo_float_histogram*.</summary>
    internal sealed class FloatHistogramHandle : SafeHandleZeroIsInvalid
    {
        protected override void Free(IntPtr pointer) { Native.picollo_float_histogram_free(pointer); }
    }

    /// <summary>Owns a picollo_float_snapshot*.</summary>
    internal sealed class FloatSnapshotHandle : SafeHandleZeroIsInvalid
    {
        protected override void Free(IntPtr pointer) { Native.picollo_float_snapshot_free(pointer); }
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

        /// <summary>A text the library writes, snprintf-style (see <see cref="Fill"/>).</summary>
        public static string Render(Writer write)
        {
            int written;
            byte[] buf = Fill(write, 1, out written);
            return Encoding.UTF8.GetString(buf, 0, written);
        }

        /// <summary>The call that hands over the text a native writer has made (picollo_*_take).</summary>
        public delegate Status Taker<H>(H writer, byte[] buf, UIntPtr len, out UIntPtr needed);

        /// <summary>Throw for a failed call <paramref name="st"/> of a native writer, else move
        /// the text it made to <paramref name="output"/>.</summary>
        public static void Drain<H>(Status st, H writer, Taker<H> take, System.IO.TextWriter output)
        {
            PicolloException.Check(st);
            string text = Render((byte[] buf, UIntPtr len, out UIntPtr needed) => take(writer, buf, len, out needed));
            if (text.Length > 0) output.Write(text);
        }

        /// <summary>Binary output (no NUL): an array of exactly the bytes written.</summary>
        public static byte[] RenderBytes(Writer write)
        {
            int written;
            byte[] buf = Fill(write, 0, out written);
            if (written != buf.Length) Array.Resize(ref buf, written);
            return buf;
        }

        /// <summary>Ask for the size with (NULL, 0), then write into a buffer of that size and
        /// <paramref name="room"/> more (1 for a text's NUL). The loop covers an object that
        /// grew between the two calls.</summary>
        static byte[] Fill(Writer write, int room, out int written)
        {
            UIntPtr needed;
            Status first = write(null, UIntPtr.Zero, out needed);
            if (first != Status.BufferTooSmall) PicolloException.Check(first);
            while (true)
            {
                int n = checked((int)needed.ToUInt64());
                var buf = new byte[n + room];
                Status st = write(buf, new UIntPtr((ulong)buf.Length), out needed);
                if (st == Status.BufferTooSmall && needed.ToUInt64() > (ulong)n) continue;
                PicolloException.Check(st);
                written = checked((int)needed.ToUInt64());
                return buf;
            }
        }
    }
}
