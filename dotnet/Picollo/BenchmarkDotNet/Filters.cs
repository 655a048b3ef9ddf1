// BenchmarkDotNet's filters, which a config adds (ManualConfig.AddFilter) or a class's
// [AnyCategoriesFilter]/[AllCategoriesFilter] gives: a benchmark runs where every filter's
// predicate holds. A predicate sees the benchmark as BenchmarkDotNet shows it: its
// Descriptor (class, method, categories) and its full name.

using System;
using System.Linq;
using System.Reflection;
using System.Text.RegularExpressions;
using Picollo.BenchmarkDotNet.Configs;
using Picollo.BenchmarkDotNet.Filters;
using Picollo.BenchmarkDotNet.Running;

namespace Picollo.BenchmarkDotNet.Running
{
    /// <summary>One benchmark, as a filter sees it.</summary>
    public sealed class BenchmarkCase
    {
        internal BenchmarkCase(Definition d)
        {
            Descriptor = new Descriptor(d);
            DisplayInfo = d.FullName;
        }

        /// <summary>Its class, method and categories.</summary>
        public Descriptor Descriptor { get; private set; }

        /// <summary>Its full name: <c>Namespace.Type.Method(arg: 1, N: 10)</c>.</summary>
        public string DisplayInfo { get; private set; }

        /// <summary>Its full name.</summary>
        public override string ToString() { return DisplayInfo; }
    }

    /// <summary>A benchmark's method, class and categories.</summary>
    public sealed class Descriptor
    {
        readonly string _filterName;

        internal Descriptor(Definition d)
        {
            Type = d.Type;
            WorkloadMethod = d.Method;
            Categories = d.Categories;
            _filterName = d.FilterName;
        }

        /// <summary>The benchmark's class (a closed type, for a generic class).</summary>
        public Type Type { get; private set; }

        /// <summary>The [Benchmark] method.</summary>
        public MethodInfo WorkloadMethod { get; private set; }

        /// <summary>Its categories: the method's, its class's and its assembly's.</summary>
        public string[] Categories { get; private set; }

        /// <summary>The method's name.</summary>
        public string WorkloadMethodDisplayInfo { get { return WorkloadMethod.Name; } }

        /// <summary>Whether it has <paramref name="category"/>, in any case.</summary>
        public bool HasCategory(string category)
        {
            return Categories.Any(c => string.Equals(c, category, StringComparison.OrdinalIgnoreCase));
        }

        /// <summary><c>Namespace.Type.Method</c>, what --list flat prints.</summary>
        public string GetFilterName() { return _filterName; }
    }
}

namespace Picollo.BenchmarkDotNet.Filters
{
    /// <summary>Says whether a benchmark runs.</summary>
    public interface IFilter
    {
        /// <summary>Whether <paramref name="benchmarkCase"/> runs.</summary>
        bool Predicate(BenchmarkCase benchmarkCase);
    }

    /// <summary>A filter of a function.</summary>
    public class SimpleFilter : IFilter
    {
        readonly Func<BenchmarkCase, bool> _predicate;

        /// <summary>Runs the benchmarks <paramref name="predicate"/> holds of.</summary>
        public SimpleFilter(Func<BenchmarkCase, bool> predicate)
        {
            if (predicate == null) throw new ArgumentNullException("predicate");
            _predicate = predicate;
        }

        /// <summary>The function's answer.</summary>
        public bool Predicate(BenchmarkCase benchmarkCase) { return _predicate(benchmarkCase); }
    }

    /// <summary>A filter of the benchmark method's name.</summary>
    public class NameFilter : SimpleFilter
    {
        /// <summary>Runs the benchmarks whose method's name <paramref name="predicate"/> holds of.</summary>
        public NameFilter(Func<string, bool> predicate) : base(b => predicate(b.Descriptor.WorkloadMethod.Name)) { }
    }

    /// <summary>Runs the benchmarks with any of the categories (in any case).</summary>
    public class AnyCategoriesFilter : IFilter
    {
        readonly string[] _categories;

        public AnyCategoriesFilter(string[] targetCategories) { _categories = targetCategories ?? new string[0]; }

        public bool Predicate(BenchmarkCase benchmarkCase) { return _categories.Any(benchmarkCase.Descriptor.HasCategory); }
    }

    /// <summary>Runs the benchmarks with all of the categories (in any case).</summary>
    public class AllCategoriesFilter : IFilter
    {
        readonly string[] _categories;

        public AllCategoriesFilter(string[] targetCategories) { _categories = targetCategories ?? new string[0]; }

        public bool Predicate(BenchmarkCase benchmarkCase) { return _categories.All(benchmarkCase.Descriptor.HasCategory); }
    }

    /// <summary>Runs the benchmarks whose name, with or without its parameters, matches a
    /// glob (<c>*</c> any text, <c>?</c> one character, any case), as --filter does.</summary>
    public class GlobFilter : IFilter
    {
        readonly Regex[] _patterns;

        public GlobFilter(string[] patterns) { _patterns = (patterns ?? new string[0]).Select(Arguments.Glob).ToArray(); }

        public bool Predicate(BenchmarkCase benchmarkCase)
        {
            return _patterns.Any(p => p.IsMatch(benchmarkCase.Descriptor.GetFilterName()) || p.IsMatch(benchmarkCase.DisplayInfo));
        }
    }

    /// <summary>Runs the benchmarks every filter runs.</summary>
    public class UnionFilter : IFilter
    {
        readonly IFilter[] _filters;

        public UnionFilter(params IFilter[] filters) { _filters = filters ?? new IFilter[0]; }

        public bool Predicate(BenchmarkCase benchmarkCase) { return _filters.All(f => f.Predicate(benchmarkCase)); }
    }

    /// <summary>Runs the benchmarks any filter runs.</summary>
    public class DisjunctionFilter : IFilter
    {
        readonly IFilter[] _filters;

        public DisjunctionFilter(params IFilter[] filters) { _filters = filters ?? new IFilter[0]; }

        public bool Predicate(BenchmarkCase benchmarkCase) { return _filters.Any(f => f.Predicate(benchmarkCase)); }
    }
}

namespace Picollo.BenchmarkDotNet.Attributes
{
    /// <summary>A class's (or assembly's) config given by an attribute that adds one filter.</summary>
    [AttributeUsage(AttributeTargets.Class | AttributeTargets.Assembly, AllowMultiple = true, Inherited = true)]
    public abstract class FilterConfigBaseAttribute : Attribute, IConfigSource
    {
        protected FilterConfigBaseAttribute(IFilter filter) { Config = ManualConfig.CreateEmpty().AddFilter(filter); }

        /// <summary>The config: the one filter.</summary>
        public IConfig Config { get; private set; }
    }

    /// <summary>Runs the class's benchmarks with any of the categories.</summary>
    public sealed class AnyCategoriesFilterAttribute : FilterConfigBaseAttribute
    {
        public AnyCategoriesFilterAttribute(params string[] targetCategories) : base(new AnyCategoriesFilter(targetCategories)) { }
    }

    /// <summary>Runs the class's benchmarks with all of the categories.</summary>
    public sealed class AllCategoriesFilterAttribute : FilterConfigBaseAttribute
    {
        public AllCategoriesFilterAttribute(params string[] targetCategories) : base(new AllCategoriesFilter(targetCategories)) { }
    }
}
