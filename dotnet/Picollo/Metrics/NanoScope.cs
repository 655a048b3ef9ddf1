// Timing scopes, as the announcement has them: `using (h.GetNanoScope()) { work(); }`
// records the time the block took into h, in Stopwatch ticks, nanoseconds, microseconds or
// milliseconds. Under the hood: Stopwatch.GetTimestamp at both ends and Stopwatch.Frequency
// to convert, exactly (no TimeSpan, whose 100 ns resolution would round nanoseconds away).
// The histogram stays unit-less: the scope's unit is the caller's choice.

using System;
using System.Diagnostics;

namespace Picollo.Metrics
{
    /// <summary>A timed region that records its elapsed time into a histogram once, when it
    /// ends (<see cref="Dispose"/> or <see cref="End"/>). A struct, so beginning one allocates
    /// nothing; dispose it exactly once, as <c>using</c> does. Made by the extension methods
    /// of <see cref="NanoScopeExtensions"/>; also home of the tick conversions.</summary>
    public struct NanoScope : IDisposable
    {
        /// <summary>One second in nanoseconds: a maximum trackable value for nanosecond timings
        /// (<c>WithMaxTrackableValue(NanoScope.OneSecondValue * 2)</c>).</summary>
        public const ulong OneSecondValue = 1000000000;

        HdrHistogram _histogram;
        long _start;
        ulong _perSecond;   // units per second; 0 records raw Stopwatch ticks
        ulong _elapsed;

        internal NanoScope(HdrHistogram histogram, ulong perSecond)
        {
            if (histogram == null) throw new ArgumentNullException("histogram");
            _histogram = histogram;
            _perSecond = perSecond;
            _elapsed = 0;
            _start = Stopwatch.GetTimestamp();
        }

        /// <summary>The elapsed time recorded when the scope ended, in its unit (0 before).</summary>
        public ulong Elapsed { get { return _elapsed; } }

        /// <summary>End now: record the elapsed time once and return it.</summary>
        /// <exception cref="InvalidOperationException">the scope has already ended, or was
        /// never begun (<c>default(NanoScope)</c>).</exception>
        public ulong End()
        {
            if (_histogram == null) throw new InvalidOperationException("the scope has already ended (or never began)");
            long ticks = Stopwatch.GetTimestamp() - _start;
            HdrHistogram h = _histogram;
            _histogram = null;
            ulong t = ticks < 0 ? 0 : (ulong)ticks;
            _elapsed = _perSecond == 0 ? t : Convert(t, _perSecond);
            h.Record(_elapsed);
            return _elapsed;
        }

        /// <summary>Record the elapsed time, unless <see cref="End"/> already did.</summary>
        public void Dispose()
        {
            if (_histogram != null) End();
        }

        /// <summary>Stopwatch ticks (<see cref="Stopwatch.ElapsedTicks"/>,
        /// <see cref="Stopwatch.GetTimestamp"/> differences) to nanoseconds, exactly: rounded
        /// down, saturating, no intermediate overflow.</summary>
        public static ulong TicksToNanos(long ticks) { return Convert(NonNegative(ticks), 1000000000); }
        public static ulong TicksToMicros(long ticks) { return Convert(NonNegative(ticks), 1000000); }
        public static ulong TicksToMillis(long ticks) { return Convert(NonNegative(ticks), 1000); }

        static ulong NonNegative(long ticks)
        {
            if (ticks < 0) throw new ArgumentOutOfRangeException("ticks", ticks, "a tick count cannot be negative");
            return (ulong)ticks;
        }

        /// <summary><c>ticks × perSecond / Stopwatch.Frequency</c>, rounded down, saturating.</summary>
        internal static ulong Convert(ulong ticks, ulong perSecond)
        {
            ulong f = (ulong)Stopwatch.Frequency;
            if (f == perSecond) return ticks;
            // Whole seconds and the rest apart: q·perSecond can only overflow by saturating, and
            // r·perSecond < f·perSecond, below 2^64 for any clock up to 18 GHz per nanosecond.
            ulong q = ticks / f, r = ticks % f;
            if (q > ulong.MaxValue / perSecond) return ulong.MaxValue;
            ulong whole = q * perSecond;
            ulong part = r <= ulong.MaxValue / perSecond
                ? r * perSecond / f
                : (ulong)decimal.Floor((decimal)r * perSecond / f);
            return whole > ulong.MaxValue - part ? ulong.MaxValue : whole + part;
        }
    }

    /// <summary>The scopes of an <see cref="HdrHistogram"/>: <c>using (h.GetNanoScope()) { … }</c>.</summary>
    public static class NanoScopeExtensions
    {
        /// <summary>Records raw Stopwatch ticks (<see cref="Stopwatch.Frequency"/> per second).</summary>
        public static NanoScope GetTickScope(this HdrHistogram histogram) { return new NanoScope(histogram, 0); }

        /// <summary>Records nanoseconds.</summary>
        public static NanoScope GetNanoScope(this HdrHistogram histogram) { return new NanoScope(histogram, 1000000000); }

        /// <summary>Records microseconds.</summary>
        public static NanoScope GetMicroScope(this HdrHistogram histogram) { return new NanoScope(histogram, 1000000); }

        /// <summary>Records milliseconds.</summary>
        public static NanoScope GetMilliScope(this HdrHistogram histogram) { return new NanoScope(histogram, 1000); }
    }
}
