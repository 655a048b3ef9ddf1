// What HdrHistogram and FloatHistogram (and their summaries and snapshots) share, written once,
// generic over what differs (the bucket, percentile and summary structs, the cursor type):
//   Ranks         the span calls (percentile batches, RecordMany): their checks, the pinning
//                 and the one native call, and the array forms of the percentile batches;
//   Batches       a cursor walk over picollo_*_next_buckets and the steps, batch by batch;
//   SummaryText   the Markdown table, line, diff and JSON of a summary struct;
//   Getters       one fact of a handle through a picollo_*_get_* call, or one answer to a
//                 query by value (a percentile, rank_of, quantile_of, count_between, the
//                 equivalent range);
//   Summaries     a summary class filled from a histogram or snapshot, reused when given,
//                 and the array of its standard percentiles;
//   Snapshots     the refresh of a snapshot from its source, in full or as deltas;
//   Copies        a private histogram filled from a live one, disposed if the fill fails;
//   Operands      the null check of the other histogram or summary of a binary operation.
// The public classes stay what they are (sealed, no common base in the public API); only
// these internal helpers are shared.

using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;

namespace Picollo.Metrics
{
    /// <summary>The checks and pointers the span calls share (the percentile batches, RecordMany).</summary>
    internal static class Ranks
    {
        /// <summary>Whether there is anything to ask the library: false for no ranks; an
        /// ArgumentException when the output's length differs from the ranks'.</summary>
        public static bool Fit(ReadOnlySpan<double> ranks, int outputLength)
        {
            if (outputLength != ranks.Length)
                throw new ArgumentException(string.Format("{0} ranks but room for {1} results: lengths must match",
                                                          ranks.Length, outputLength), "output");
            return ranks.Length > 0;
        }

        public static ref T First<T>(ReadOnlySpan<T> span) { return ref MemoryMarshal.GetReference(span); }
        public static ref T First<T>(Span<T> span) { return ref MemoryMarshal.GetReference(span); }
        public static UIntPtr Count(ReadOnlySpan<double> ranks) { return new UIntPtr((uint)ranks.Length); }

        /// <summary>values[offset, offset + count), checked: ArgumentNullException for no
        /// array, ArgumentOutOfRangeException for a slice that leaves it.</summary>
        public static ReadOnlySpan<T> Slice<T>(T[] values, int offset, int count)
        {
            if (values == null) throw new ArgumentNullException("values");
            if (offset < 0 || count < 0 || offset > values.Length - count) throw new ArgumentOutOfRangeException("count");
            return new ReadOnlySpan<T>(values, offset, count);
        }

        /// <summary>A native batch over ranks: n ranks in, n results written at output (the
        /// caller's lambda casts it to the result struct's pointer).</summary>
        public unsafe delegate Status Batch<H>(H handle, double* ranks, UIntPtr n, byte* output);

        /// <summary>Results for the ranks into output, from one native call (nothing to do for
        /// no ranks); no allocation when the call captures nothing.</summary>
        public static unsafe void Fill<H, T>(H handle, ReadOnlySpan<double> ranks, Span<T> output, Batch<H> call) where T : struct
        {
            if (!Fit(ranks, output.Length)) return;
            fixed (double* r = &First(ranks))
            fixed (byte* o = &First(MemoryMarshal.AsBytes(output)))
                PicolloException.Check(call(handle, r, Count(ranks), o));
        }

        /// <summary>A native call taking n values at once (picollo_*_record_many*).</summary>
        public unsafe delegate Status Many<H>(H handle, byte* values, UIntPtr n);

        /// <summary>Every value through one native call; nothing for none.</summary>
        public static unsafe void Each<H, T>(H handle, ReadOnlySpan<T> values, Many<H> call) where T : struct
        {
            if (values.Length == 0) return;
            fixed (byte* p = &First(MemoryMarshal.AsBytes(values)))
                PicolloException.Check(call(handle, p, new UIntPtr((uint)values.Length)));
        }

        /// <summary>A span form of a percentile query: results for the ranks, into output.</summary>
        public delegate void Query<T>(ReadOnlySpan<double> ranks, Span<T> output);

        /// <summary>The array form of a span query: one result per rank, in a new array.</summary>
        public static T[] ToArray<T>(double[] ranks, Query<T> query)
        {
            if (ranks == null) throw new ArgumentNullException("ranks");
            var output = new T[ranks.Length];
            query(ranks, output);
            return output;
        }
    }

    /// <summary>Cursor walks: the library fills a batch from the cursor on and advances it,
    /// and answers OutOfRange (writing nothing) once nothing is left.</summary>
    internal static class Batches
    {
        /// <summary>One native call: up to output.Length items from cursor on.</summary>
        public delegate Status Next<TCursor, T>(ref TCursor cursor, T[] output, out UIntPtr written);

        /// <summary>Every item of the walk from <paramref name="cursor"/>, lazily, asking for
        /// <paramref name="batch"/> items a call; a call that fills the batch makes the next one
        /// four times larger, up to <paramref name="maxBatch"/>.</summary>
        public static IEnumerable<T> Read<TCursor, T>(Next<TCursor, T> next, TCursor cursor, int batch, int maxBatch)
        {
            var output = new T[batch];
            while (true)
            {
                UIntPtr written;
                Status st = next(ref cursor, output, out written);
                if (st == Status.OutOfRange) yield break;
                PicolloException.Check(st);
                int n = (int)written.ToUInt64();
                for (int i = 0; i < n; i++) yield return output[i];
                if (n == output.Length && output.Length < maxBatch) output = new T[Math.Min(output.Length * 4, maxBatch)];
            }
        }
    }

    /// <summary>The texts of a summary struct (picollo_summary, picollo_float_summary), each
    /// rendered by the library into a buffer that fits.</summary>
    internal static class SummaryText
    {
        /// <summary>A text of one summary under a title or name (the table, the line).</summary>
        public delegate Status Titled<TData>(ref TData data, byte[] title, byte[] buf, UIntPtr len, out UIntPtr needed);

        /// <summary>The diff table of two summaries.</summary>
        public delegate Status Diffed<TData>(ref TData a, ref TData b, byte[] title, byte[] nameA, byte[] nameB,
                                             byte[] buf, UIntPtr len, out UIntPtr needed);

        public static string Render<TData>(TData data, string title, Titled<TData> write)
        {
            byte[] t = Utf8.ToNative(title);
            return Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) => write(ref data, t, buf, len, out needed));
        }

        public static string Diff<TData>(TData a, TData b, string title, string nameA, string nameB, Diffed<TData> write)
        {
            byte[] t = Utf8.ToNative(title), na = Utf8.ToNative(nameA), nb = Utf8.ToNative(nameB);
            return Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) => write(ref a, ref b, t, na, nb, buf, len, out needed));
        }

        /// <summary>A text of one summary alone (the JSON object).</summary>
        public delegate Status Untitled<TData>(ref TData data, byte[] buf, UIntPtr len, out UIntPtr needed);

        public static string Json<TData>(TData data, Untitled<TData> write)
        {
            return Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) => write(ref data, buf, len, out needed));
        }
    }

    /// <summary>The getters of a handle's facts (picollo_*_get_*): one value written through a
    /// pointer, or an exception for the status.</summary>
    internal static class Getters
    {
        public delegate Status Getter<H, T>(H handle, out T value);

        public static T Get<H, T>(H handle, Getter<H, T> get)
        {
            T value;
            PicolloException.Check(get(handle, out value));
            return value;
        }

        /// <summary>A query of one argument (a rank, a value): one answer.</summary>
        public delegate Status Query<H, A, T>(H handle, A arg, out T value);

        public static T Get<H, A, T>(H handle, A arg, Query<H, A, T> get)
        {
            T value;
            PicolloException.Check(get(handle, arg, out value));
            return value;
        }

        /// <summary>A query over [lo, hi].</summary>
        public delegate Status Between<H, A, T>(H handle, A lo, A hi, out T value);

        public static T Get<H, A, T>(H handle, A lo, A hi, Between<H, A, T> get)
        {
            T value;
            PicolloException.Check(get(handle, lo, hi, out value));
            return value;
        }

        /// <summary>The smallest and largest values of the bucket x falls in.</summary>
        public delegate Status Range<H, A>(H handle, A x, out A lowest, out A highest);

        /// <summary>One end of x's bucket: its highest value when <paramref name="upper"/>, else its lowest.</summary>
        public static A End<H, A>(H handle, A x, Range<H, A> range, bool upper)
        {
            A lowest, highest;
            PicolloException.Check(range(handle, x, out lowest, out highest));
            return upper ? highest : lowest;
        }
    }

    /// <summary>A summary class around its struct (HdrHistogramSummary, FloatHistogramSummary).</summary>
    internal interface ISummaryOf<TData>
    {
        /// <summary>Hold <paramref name="data"/>, just filled by the library, taken now.</summary>
        void Fill(TData data);
    }

    internal static class Summaries
    {
        /// <summary>The summary of a histogram or snapshot, into <paramref name="reuse"/> when
        /// one is given (no allocation), else into a new one.</summary>
        public static S Of<H, TData, S>(H handle, S reuse, Getters.Getter<H, TData> get) where S : class, ISummaryOf<TData>, new()
        {
            TData data = Getters.Get(handle, get);
            var s = reuse ?? new S();
            s.Fill(data);
            return s;
        }

        /// <summary>The standard percentiles of a summary struct (<paramref name="count"/> of
        /// them, read by index), in a new array.</summary>
        public static T[] Percentiles<T>(int count, Func<int, T> at)
        {
            var all = new T[count];
            for (int i = 0; i < count; i++) all[i] = at(i);
            return all;
        }
    }

    internal static class Snapshots
    {
        /// <summary>Refresh <paramref name="snapshot"/> from <paramref name="source"/> through
        /// picollo_*snapshot_update: the full counts, or (deltas) those since the previous update.</summary>
        public static void Update(SafeHandle snapshot, SafeHandle source, bool deltas, Func<IntPtr, IntPtr, uint, Status> update)
        {
            uint d = deltas ? 1u : 0u;
            PicolloException.Check(Handles.Call2(snapshot, source, (s, h) => update(s, h, d)));
        }
    }

    internal static class Copies
    {
        /// <summary><paramref name="copy"/> after <paramref name="fill"/>, or, if the fill
        /// throws, disposed before the exception goes on.</summary>
        public static H Filled<H>(H copy, Action<H> fill) where H : IDisposable
        {
            try
            {
                fill(copy);
                return copy;
            }
            catch
            {
                copy.Dispose();
                throw;
            }
        }
    }

    internal static class Operands
    {
        /// <summary>The other histogram or summary of a binary operation (Add, Subtract,
        /// Diff), which must not be null.</summary>
        public static H Other<H>(H other) where H : class
        {
            if (other == null) throw new ArgumentNullException("other");
            return other;
        }
    }
}
