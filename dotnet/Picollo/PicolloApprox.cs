// Picollo for .NET: the standalone approximate counter (picollo_approx_counter_*), on top of
// Picollo.cs (its Native class, Status and exceptions).

using System;
using System.Runtime.InteropServices;
using Picollo.Metrics;   // Getters (Metrics/Shared.cs)

namespace Picollo
{
    internal static partial class Native
    {
        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_approx_counter_new(uint threshold, uint maxShift, uint exactWhenUncontended, out ApproxCounterHandle counter);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern void picollo_approx_counter_free(IntPtr c);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern void picollo_approx_counter_increment(ApproxCounterHandle c);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern void picollo_approx_counter_add(ApproxCounterHandle c, ulong n);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_approx_counter_get(ApproxCounterHandle c, out ulong value);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_approx_counter_reset(ApproxCounterHandle c, out ulong taken);

        [DllImport(Lib, CallingConvention = Cdecl)]
        public static extern Status picollo_approx_counter_policy(ApproxCounterHandle c, out uint threshold, out uint maxShift, out uint exactWhenUncontended);
    }

    /// <summary>Owns a picollo_approx_counter*.</summary>
    internal sealed class ApproxCounterHandle : SafeHandleZeroIsInvalid
    {
        protected override void Free(IntPtr pointer) { Native.picollo_approx_counter_free(pointer); }
    }

    /// <summary>A counter any number of threads increment at once, cheaply: exact below 2^T
    /// (T = <see cref="Threshold"/>, default 13); above, an increment adds 2^k with probability
    /// 2^-k (k grows with the count, capped at <see cref="MaxShift"/>, default 10), so the value
    /// stays an unbiased estimate (about 2 % error at two standard deviations at T = 13) while
    /// threads rarely write its cache line. Each thread flips its coins with its own generator.
    /// Dispose (or <c>using</c>) frees it; it must not race other calls.</summary>
    public sealed class ApproxCounter : IDisposable
    {
        readonly ApproxCounterHandle _handle;

        /// <param name="threshold">T, 1..62 (0: the default, 13).</param>
        /// <param name="maxShift">The cap on k, 1..62 (0: the default, 10).</param>
        /// <param name="exactWhenUncontended">Try an exact +1 with a compare-exchange first
        /// (exact while one thread uses the counter; an atomic read-modify-write per increment).</param>
        public ApproxCounter(uint threshold = 0, uint maxShift = 0, bool exactWhenUncontended = false)
        {
            uint exact = exactWhenUncontended ? 1u : 0u;
            _handle = Handles.Made((out ApproxCounterHandle h) => Native.picollo_approx_counter_new(threshold, maxShift, exact, out h));
        }

        internal ApproxCounterHandle Handle { get { return _handle; } }

        /// <summary>Count one event (approximately above 2^T). From any thread.</summary>
        public void Increment() { Native.picollo_approx_counter_increment(_handle); }

        /// <summary>Add <paramref name="n"/> exactly. From any thread.</summary>
        public void Add(ulong n) { Native.picollo_approx_counter_add(_handle, n); }

        /// <summary>The current estimate.</summary>
        public ulong Value { get { return Getters.Get<ApproxCounterHandle, ulong>(_handle, Native.picollo_approx_counter_get); } }

        /// <summary>Take the count to zero and return it: an increment racing the reset lands in
        /// exactly one of the two.</summary>
        public ulong Reset() { return Getters.Get<ApproxCounterHandle, ulong>(_handle, Native.picollo_approx_counter_reset); }

        void Policy(out uint threshold, out uint maxShift, out bool exact)
        {
            uint e;
            PicolloException.Check(Native.picollo_approx_counter_policy(_handle, out threshold, out maxShift, out e));
            exact = e != 0;
        }

        public uint Threshold { get { uint t, m; bool e; Policy(out t, out m, out e); return t; } }
        public uint MaxShift { get { uint t, m; bool e; Policy(out t, out m, out e); return m; } }
        public bool ExactWhenUncontended { get { uint t, m; bool e; Policy(out t, out m, out e); return e; } }

        public void Dispose() { _handle.Dispose(); }

        public override string ToString()
        {
            return _handle.IsClosed ? "ApproxCounter (disposed)" : string.Format("ApproxCounter {0:N0} (T={1})", Value, Threshold);
        }
    }
}
