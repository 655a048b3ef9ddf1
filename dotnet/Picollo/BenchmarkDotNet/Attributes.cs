// BenchmarkDotNet's attributes under Picollo's runner: a class written for BenchmarkDotNet
// runs here with `using BenchmarkDotNet.Attributes;` changed to
// `using Picollo.BenchmarkDotNet.Attributes;` (docs/bring-your-suite.md). These are the ones
// that change what runs; Ignored.cs holds those accepted and ignored.

using System;
using Picollo.BenchmarkDotNet.Configs;

namespace Picollo.BenchmarkDotNet.Attributes
{
    /// <summary>A benchmark: an instance (or static) method of a class with a parameterless
    /// constructor, called once an operation, its result kept. Named as BenchmarkDotNet
    /// names it: <c>Namespace.Type.Method</c>, with <c>(arg: 1, N: 10)</c> after it where it
    /// has arguments or parameters.</summary>
    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false, Inherited = true)]
    public sealed class BenchmarkAttribute : Attribute
    {
        /// <summary>A benchmark.</summary>
        public BenchmarkAttribute() { }

        /// <summary>Accepted and ignored: Picollo judges a benchmark against the same one of
        /// another build (<c>--against</c>) or a saved run (<c>--baseline NAME</c>), not
        /// against another method of the class.</summary>
        public bool Baseline { get; set; }

        /// <summary>Accepted and ignored: the name stays the method's, as BenchmarkDotNet's
        /// filters and <c>--list</c> use it.</summary>
        public string Description { get; set; }

        /// <summary>The operations one call does: each result then carries the rate of
        /// <c>n</c> elements a call, operations a second (its time stays the call's: the time
        /// of one operation is the rate's inverse).</summary>
        public int OperationsPerInvoke { get; set; }
    }

    /// <summary>The values of a field or property: one benchmark a value (of each
    /// combination, where several members have them), the member set before the class's
    /// [GlobalSetup].</summary>
    [AttributeUsage(AttributeTargets.Field | AttributeTargets.Property, AllowMultiple = false, Inherited = true)]
    public sealed class ParamsAttribute : Attribute
    {
        /// <summary>Accepted and ignored: the order of BenchmarkDotNet's columns.</summary>
        public int Priority { get; set; }

        /// <summary>The member's values, each of its type.</summary>
        public ParamsAttribute(params object[] values) { Values = values ?? new object[] { null }; }

        /// <summary>The member's values.</summary>
        public object[] Values { get; private set; }
    }

    /// <summary>The values of a field or property given by the member named
    /// <paramref name="name"/> (a method, property or field of the class, static or not,
    /// returning an IEnumerable).</summary>
    [AttributeUsage(AttributeTargets.Field | AttributeTargets.Property, AllowMultiple = false, Inherited = true)]
    public sealed class ParamsSourceAttribute : Attribute
    {
        /// <summary>Accepted and ignored: the order of BenchmarkDotNet's columns.</summary>
        public int Priority { get; set; }

        /// <summary>The values of the member <paramref name="name"/> gives.</summary>
        public ParamsSourceAttribute(string name) { Name = name; }

        /// <summary>The values of the member <paramref name="name"/> of
        /// <paramref name="type"/> gives.</summary>
        public ParamsSourceAttribute(Type type, string name) { Type = type; Name = name; }

        /// <summary>The source member's name.</summary>
        public string Name { get; private set; }

        /// <summary>The source member's class (null: the benchmarks' own).</summary>
        public Type Type { get; private set; }
    }

    /// <summary>Every value of a bool or enum field or property (and null, where it is
    /// nullable).</summary>
    [AttributeUsage(AttributeTargets.Field | AttributeTargets.Property, AllowMultiple = false, Inherited = true)]
    public sealed class ParamsAllValuesAttribute : Attribute
    {
        /// <summary>Accepted and ignored: the order of BenchmarkDotNet's columns.</summary>
        public int Priority { get; set; }

    }

    /// <summary>One benchmark of its method for these arguments, one value a parameter.
    /// Give one per set of values.</summary>
    [AttributeUsage(AttributeTargets.Method, AllowMultiple = true, Inherited = true)]
    public sealed class ArgumentsAttribute : Attribute
    {
        /// <summary>Accepted and ignored: the order of BenchmarkDotNet's columns.</summary>
        public int Priority { get; set; }

        /// <summary>The method's arguments, in its parameters' order.</summary>
        public ArgumentsAttribute(params object[] values) { Values = values ?? new object[] { null }; }

        /// <summary>The method's arguments.</summary>
        public object[] Values { get; private set; }
    }

    /// <summary>The arguments of a method's benchmarks given by the member named
    /// <paramref name="name"/>: an IEnumerable of <c>object[]</c> (one value a parameter),
    /// or of single values for a method of one parameter.</summary>
    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false, Inherited = true)]
    public sealed class ArgumentsSourceAttribute : Attribute
    {
        /// <summary>Accepted and ignored: the order of BenchmarkDotNet's columns.</summary>
        public int Priority { get; set; }

        /// <summary>The arguments the member <paramref name="name"/> gives.</summary>
        public ArgumentsSourceAttribute(string name) { Name = name; }

        /// <summary>The arguments the member <paramref name="name"/> of
        /// <paramref name="type"/> gives.</summary>
        public ArgumentsSourceAttribute(Type type, string name) { Type = type; Name = name; }

        /// <summary>The source member's name.</summary>
        public string Name { get; private set; }

        /// <summary>The source member's class (null: the benchmarks' own).</summary>
        public Type Type { get; private set; }
    }

    /// <summary>The common part of the setup and cleanup attributes: the benchmarks they
    /// are for (all of the class's, where none is named).</summary>
    public abstract class TargetedAttribute : Attribute
    {
        /// <summary>The one benchmark method this is for.</summary>
        public string Target
        {
            get { return Targets == null || Targets.Length == 0 ? null : Targets[0]; }
            set { Targets = value == null ? null : new[] { value }; }
        }

        /// <summary>The benchmark methods this is for.</summary>
        public string[] Targets { get; set; }
    }

    /// <summary>Runs once before a benchmark's first call, after its parameters are set,
    /// untimed.</summary>
    [AttributeUsage(AttributeTargets.Method, AllowMultiple = true, Inherited = true)]
    public sealed class GlobalSetupAttribute : TargetedAttribute
    {
    }

    /// <summary>Runs once after a benchmark's last call, untimed: when the runner moves to
    /// another benchmark (of a different instance), or at the end of the run.</summary>
    [AttributeUsage(AttributeTargets.Method, AllowMultiple = true, Inherited = true)]
    public sealed class GlobalCleanupAttribute : TargetedAttribute
    {
    }

    /// <summary>Runs before each batch of calls the runner times, paused: its time is left
    /// out of the batch's (perf counters still count its work).</summary>
    [AttributeUsage(AttributeTargets.Method, AllowMultiple = true, Inherited = true)]
    public sealed class IterationSetupAttribute : TargetedAttribute
    {
    }

    /// <summary>Runs after each batch of calls the runner times, paused (see
    /// <see cref="IterationSetupAttribute"/>).</summary>
    [AttributeUsage(AttributeTargets.Method, AllowMultiple = true, Inherited = true)]
    public sealed class IterationCleanupAttribute : TargetedAttribute
    {
    }

    /// <summary>The type arguments of a generic benchmark class: each attribute makes one
    /// closed class, whose benchmarks are named with them (<c>Sorts&lt;Int32&gt;.Sort</c>).</summary>
    [AttributeUsage(AttributeTargets.Class, AllowMultiple = true, Inherited = false)]
    public sealed class GenericTypeArgumentsAttribute : Attribute
    {
        /// <summary>The class's type arguments, in its type parameters' order.</summary>
        public GenericTypeArgumentsAttribute(params Type[] genericTypeArguments) { GenericTypeArguments = genericTypeArguments ?? new Type[0]; }

        /// <summary>The type arguments.</summary>
        public Type[] GenericTypeArguments { get; private set; }
    }

    /// <summary>The config of a class (or assembly): an instance of
    /// <paramref name="configType"/>, a class with a parameterless constructor implementing
    /// IConfig (usually deriving from ManualConfig), made when the run starts. Its filters
    /// select; what Picollo ignores of it is named in a note.</summary>
    [AttributeUsage(AttributeTargets.Class | AttributeTargets.Assembly, AllowMultiple = true, Inherited = true)]
    public sealed class ConfigAttribute : Attribute, IConfigSource
    {
        readonly Type _type;

        /// <summary>The config an instance of <paramref name="configType"/> is.</summary>
        public ConfigAttribute(Type configType) { _type = configType; }

        /// <summary>A new instance of the config's class; InvalidOperationException where it
        /// is not an IConfig.</summary>
        public IConfig Config
        {
            get
            {
                if (_type == null || !typeof(IConfig).IsAssignableFrom(_type) || _type.IsAbstract)
                    throw new InvalidOperationException((_type == null ? "null" : _type.Name) + " is not a class implementing IConfig (derive it from ManualConfig)");
                return (IConfig)Activator.CreateInstance(_type, true);
            }
        }
    }

    /// <summary>The categories of a benchmark (or of every benchmark of a class), which
    /// <c>--anyCategories</c> and <c>--allCategories</c> select.</summary>
    [AttributeUsage(AttributeTargets.Method | AttributeTargets.Class | AttributeTargets.Assembly, AllowMultiple = true, Inherited = true)]
    public sealed class BenchmarkCategoryAttribute : Attribute
    {
        /// <summary>The categories.</summary>
        public BenchmarkCategoryAttribute(params string[] categories) { Categories = categories ?? new string[0]; }

        /// <summary>The categories.</summary>
        public string[] Categories { get; private set; }
    }
}
