// Picollo.Suites: a suite of benchmarks marked with [Benchmark] on a class, run by the
// library's runner (docs/suites.md). The attribute lives in this namespace, not Picollo's, so
// that a file using BenchmarkDotNet.Attributes as well names ours Picollo.Suites.Benchmark.

using System;

namespace Picollo.Suites
{
    /// <summary>Marks a method as a benchmark of its class's suite
    /// (<see cref="SuiteRunner.Run(Type, string[], BenchOptions)"/>). The method is static, or an
    /// instance method of a class with a parameterless constructor (one instance, made when
    /// the first of its benchmarks runs); it takes nothing and runs one operation, or takes a
    /// <c>ulong k</c> and runs <c>k</c> operations itself (its own loop, no delegate call per
    /// operation). What it returns is kept, so the work that made it is not optimized
    /// away.</summary>
    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false, Inherited = true)]
    public sealed class BenchmarkAttribute : Attribute
    {
        /// <summary>A benchmark named after its method.</summary>
        public BenchmarkAttribute() { }

        /// <summary>A benchmark named <paramref name="name"/>.</summary>
        public BenchmarkAttribute(string name) { Name = name; }

        /// <summary>The benchmark's name in the suite (its filters, reports, saved runs and
        /// comparisons); the method's name when null.</summary>
        public string Name { get; set; }
    }
}
