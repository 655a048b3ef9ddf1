// The attributes a [Benchmark] method takes beside it: [Arguments] makes one benchmark a
// value, named `name/value` by the library, and [Throughput] declares the work one operation
// does, whose rate the library reports (docs/suites.md).

using System;

namespace Picollo.Suites
{
    /// <summary>One benchmark of its [Benchmark] method for <paramref name="value"/>, as
    /// BenchmarkDotNet's [Arguments] is: the method takes it as its first parameter (then
    /// nothing, and runs one operation, or a <c>ulong k</c>, and runs <c>k</c>). Each is named
    /// <c>name/value</c> by the library (the value as the invariant culture writes it),
    /// listed, filtered, measured and compared as any other. Give one per value.</summary>
    [AttributeUsage(AttributeTargets.Method, AllowMultiple = true, Inherited = true)]
    public sealed class ArgumentsAttribute : Attribute
    {
        /// <summary>The benchmark of <paramref name="value"/>.</summary>
        public ArgumentsAttribute(object value) { Value = value; }

        /// <summary>The value the method is called with.</summary>
        public object Value { get; private set; }
    }

    /// <summary>The work one operation of a [Benchmark] method does: <see cref="PerOperation"/>
    /// of <see cref="Unit"/>, <c>"elements"</c> or <c>"bytes"</c>, times its argument where it
    /// has [Arguments] (a whole number). Its results carry the rate at their median time, which
    /// the library computes and reports; the verdict of a comparison stays on time.</summary>
    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false, Inherited = true)]
    public sealed class ThroughputAttribute : Attribute
    {
        /// <summary><paramref name="perOperation"/> of <paramref name="unit"/> an
        /// operation (times the argument, for a method with [Arguments]).</summary>
        public ThroughputAttribute(string unit, ulong perOperation = 1)
        {
            Unit = unit;
            PerOperation = perOperation;
        }

        /// <summary><c>"elements"</c> or <c>"bytes"</c> (another is refused by the library:
        /// exit status 2 before anything runs).</summary>
        public string Unit { get; private set; }

        /// <summary>The unit's count one operation does (times the argument).</summary>
        public ulong PerOperation { get; private set; }
    }
}
