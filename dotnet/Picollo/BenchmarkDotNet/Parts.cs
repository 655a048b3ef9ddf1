// The things a BenchmarkDotNet config adds that Picollo ignores (ManualConfig names them in
// the run's note, Notes.cs): jobs, runtimes, columns, exporters, diagnosers, loggers,
// analysers and validators, each with BenchmarkDotNet's names so that a config compiles.
// Each is only its name.

using System;
using Picollo.BenchmarkDotNet.Engines;
using Picollo.BenchmarkDotNet.Environments;

namespace Picollo.BenchmarkDotNet.Jobs
{
    /// <summary>A job: how BenchmarkDotNet would run a benchmark. Ignored: the runner's
    /// --budget, --warmup, --rounds and --processes say how; the benchmarks run in this
    /// process's runtime. Its settings can be set (and chained) so that a config compiles.</summary>
    public sealed class Job
    {
        public static readonly Job Default = new Job("Default");
        public static readonly Job Dry = new Job("Dry");
        public static readonly Job ShortRun = new Job("ShortRun");
        public static readonly Job MediumRun = new Job("MediumRun");
        public static readonly Job LongRun = new Job("LongRun");
        public static readonly Job VeryLongRun = new Job("VeryLongRun");
        public static readonly Job InProcess = new Job("InProcess");

        /// <summary>A job named "Job".</summary>
        public Job() : this((string)null) { }

        /// <summary>A job named <paramref name="id"/>.</summary>
        public Job(string id) { Id = id ?? "Job"; Environment = new EnvironmentMode(); Run = new RunMode(); }

        /// <summary>A copy of <paramref name="other"/>.</summary>
        public Job(Job other) : this(null, other) { }

        /// <summary>A copy of <paramref name="other"/> named <paramref name="id"/>.</summary>
        public Job(string id, Job other) : this(id ?? (other == null ? null : other.Id)) { }

        /// <summary>The job's name.</summary>
        public string Id { get; private set; }

        /// <summary>Its runtime's settings (ignored).</summary>
        public EnvironmentMode Environment { get; private set; }

        /// <summary>Its counts (ignored).</summary>
        public RunMode Run { get; private set; }

        public Job WithId(string id) { return new Job(id, this); }
        public Job WithRuntime(Runtime runtime) { return Renamed(runtime == null ? null : runtime.Name); }
        public Job WithJit(Jit jit) { return Renamed(jit.ToString()); }
        public Job WithPlatform(Platform platform) { return Renamed(platform.ToString()); }
        public Job WithStrategy(RunStrategy strategy) { return Renamed(strategy.ToString()); }
        public Job WithLaunchCount(int count) { return this; }
        public Job WithWarmupCount(int count) { return this; }
        public Job WithIterationCount(int count) { return this; }
        public Job WithMinIterationCount(int count) { return this; }
        public Job WithMaxIterationCount(int count) { return this; }
        public Job WithInvocationCount(int count) { return this; }
        public Job WithUnrollFactor(int factor) { return this; }
        public Job WithMaxRelativeError(double ratio) { return this; }
        public Job WithGcServer(bool value) { return this; }
        public Job WithGcConcurrent(bool value) { return this; }
        public Job WithGcForce(bool value) { return this; }
        public Job WithBaseline(bool value) { return this; }
        public Job AsBaseline() { return this; }
        public Job WithLargeAddressAware(bool value = true) { return this; }
        public Job WithPowerPlan(PowerPlan powerPlan) { return this; }
        public Job WithPowerPlan(Guid powerPlanGuid) { return this; }
        public Job AsDefault(bool value = true) { return this; }

        Job Renamed(string setting) { return setting == null ? this : new Job(Id + "-" + setting, this); }

        /// <summary>Its name, as the run's note prints it.</summary>
        public override string ToString() { return "Job " + Id; }
    }

    /// <summary>A job's runtime settings (ignored).</summary>
    public sealed class EnvironmentMode
    {
        public Jit Jit { get; set; }
        public Platform Platform { get; set; }
        public Runtime Runtime { get; set; }
    }

    /// <summary>A job's counts (ignored).</summary>
    public sealed class RunMode
    {
        public int LaunchCount { get; set; }
        public int WarmupCount { get; set; }
        public int IterationCount { get; set; }
        public int InvocationCount { get; set; }
        public int UnrollFactor { get; set; }
        public RunStrategy RunStrategy { get; set; }
    }
}

namespace Picollo.BenchmarkDotNet.Environments
{
    /// <summary>The JIT a job names (ignored).</summary>
    public enum Jit { Default, LegacyJit, RyuJit, Llvm }

    /// <summary>The Windows power plan a job names (ignored).</summary>
    public enum PowerPlan { HighPerformance, PowerSaver, Balanced, UltimatePerformance, UserPowerPlan }

    /// <summary>The platform a job names (ignored).</summary>
    public enum Platform { AnyCpu, X86, X64, Arm, Arm64, Wasm, S390x, LoongArch64, Armv6, Ppc64le, RiscV64 }

    /// <summary>A runtime a job names (ignored: the benchmarks run in this process's
    /// runtime; build once a runtime and judge one build --against the other).</summary>
    public abstract class Runtime
    {
        internal Runtime(string name) { Name = name; }

        /// <summary>The runtime's name.</summary>
        public string Name { get; private set; }

        /// <summary>Its name.</summary>
        public override string ToString() { return Name; }
    }

    /// <summary>.NET Framework (see <see cref="Runtime"/>).</summary>
    public sealed class ClrRuntime : Runtime
    {
        ClrRuntime(string name) : base(name) { }
        public static readonly ClrRuntime Net462 = new ClrRuntime("net462"), Net47 = new ClrRuntime("net47"), Net471 = new ClrRuntime("net471"),
            Net472 = new ClrRuntime("net472"), Net48 = new ClrRuntime("net48"), Net481 = new ClrRuntime("net481");
    }

    /// <summary>.NET (see <see cref="Runtime"/>).</summary>
    public sealed class CoreRuntime : Runtime
    {
        CoreRuntime(string name) : base(name) { }
        public static readonly CoreRuntime Core31 = new CoreRuntime("netcoreapp3.1"), Core50 = new CoreRuntime("net5.0"), Core60 = new CoreRuntime("net6.0"),
            Core70 = new CoreRuntime("net7.0"), Core80 = new CoreRuntime("net8.0"), Core90 = new CoreRuntime("net9.0"), Core10_0 = new CoreRuntime("net10.0");
    }

    /// <summary>Mono (see <see cref="Runtime"/>).</summary>
    public sealed class MonoRuntime : Runtime
    {
        MonoRuntime(string name) : base(name) { }
        public static readonly MonoRuntime Default = new MonoRuntime("mono");
    }

    /// <summary>NativeAOT (see <see cref="Runtime"/>).</summary>
    public sealed class NativeAotRuntime : Runtime
    {
        NativeAotRuntime(string name) : base(name) { }
        public static readonly NativeAotRuntime Net60 = new NativeAotRuntime("nativeaot6.0"), Net70 = new NativeAotRuntime("nativeaot7.0"),
            Net80 = new NativeAotRuntime("nativeaot8.0"), Net90 = new NativeAotRuntime("nativeaot9.0");
    }
}

namespace Picollo.BenchmarkDotNet.Columns
{
    /// <summary>A column of BenchmarkDotNet's table (ignored: Picollo's report and
    /// results.json have their own figures).</summary>
    public interface IColumn
    {
        /// <summary>The column's title.</summary>
        string ColumnName { get; }
    }

    /// <summary>The names of BenchmarkDotNet's columns, as [HideColumns] takes them (ignored).</summary>
    public static class Column
    {
        public const string Namespace = "Namespace", Type = "Type", Method = "Method", Job = "Job", Mean = "Mean", Error = "Error",
            StdDev = "StdDev", StdErr = "StdErr", Median = "Median", Min = "Min", Max = "Max", Q1 = "Q1", Q3 = "Q3", Iterations = "Iterations",
            OperationPerSecond = "Op/s", Gen0 = "Gen0", Gen1 = "Gen1", Gen2 = "Gen2", Allocated = "Allocated", AllocRatio = "Alloc Ratio",
            Ratio = "Ratio", RatioSD = "RatioSD", Rank = "Rank", Categories = "Categories", Baseline = "Baseline";
    }

    /// <summary>How BenchmarkDotNet writes a ratio (ignored).</summary>
    public enum RatioStyle { Value, Percentage, Trend }

    /// <summary>A source of columns (ignored, see <see cref="IColumn"/>).</summary>
    public interface IColumnProvider
    {
    }

    /// <summary>A column by its name.</summary>
    public class NamedColumn : IColumn
    {
        internal NamedColumn(string name) { ColumnName = name; }

        /// <summary>The column's title.</summary>
        public string ColumnName { get; private set; }

        /// <summary>Its title.</summary>
        public override string ToString() { return ColumnName; }
    }

    /// <summary>BenchmarkDotNet's statistics columns (ignored, see <see cref="IColumn"/>).</summary>
    public sealed class StatisticColumn : NamedColumn
    {
        StatisticColumn(string name) : base(name) { }
        public static readonly IColumn Mean = new StatisticColumn("Mean"), Error = new StatisticColumn("Error"), StdDev = new StatisticColumn("StdDev"),
            StdErr = new StatisticColumn("StdErr"), Median = new StatisticColumn("Median"), Min = new StatisticColumn("Min"), Max = new StatisticColumn("Max"),
            Q1 = new StatisticColumn("Q1"), Q3 = new StatisticColumn("Q3"), P0 = new StatisticColumn("P0"), P25 = new StatisticColumn("P25"),
            P50 = new StatisticColumn("P50"), P67 = new StatisticColumn("P67"), P80 = new StatisticColumn("P80"), P85 = new StatisticColumn("P85"),
            P90 = new StatisticColumn("P90"), P95 = new StatisticColumn("P95"), P100 = new StatisticColumn("P100"), Iterations = new StatisticColumn("Iterations"),
            OperationsPerSecond = new StatisticColumn("Op/s"), Skewness = new StatisticColumn("Skewness"), Kurtosis = new StatisticColumn("Kurtosis");
        public static readonly IColumn[] AllStatistics = { Mean, Error, StdDev, Min, Q1, Median, Q3, Max, OperationsPerSecond };
    }

    /// <summary>The benchmark's method and type columns (ignored, see <see cref="IColumn"/>).</summary>
    public sealed class TargetMethodColumn : NamedColumn
    {
        TargetMethodColumn(string name) : base(name) { }
        public static readonly IColumn Namespace = new TargetMethodColumn("Namespace"), Type = new TargetMethodColumn("Type"), Method = new TargetMethodColumn("Method");
    }

    /// <summary>The rank column (ignored, see <see cref="IColumn"/>).</summary>
    public sealed class RankColumn : NamedColumn
    {
        RankColumn(string name) : base(name) { }
        public static readonly IColumn Arabic = new RankColumn("Rank"), Roman = new RankColumn("Rank (roman)"), Stars = new RankColumn("Rank (stars)");
    }

    /// <summary>The baseline's ratio columns (ignored: Picollo judges a benchmark against
    /// the same one of another build, --against, or a saved run, --baseline).</summary>
    public sealed class BaselineRatioColumn : NamedColumn
    {
        BaselineRatioColumn(string name) : base(name) { }
        public static readonly IColumn RatioMean = new BaselineRatioColumn("Ratio"), RatioStdDev = new BaselineRatioColumn("RatioSD");
    }

    /// <summary>The categories column (ignored, see <see cref="IColumn"/>).</summary>
    public sealed class CategoriesColumn : NamedColumn
    {
        CategoriesColumn(string name) : base(name) { }
        public static readonly IColumn Default = new CategoriesColumn("Categories");
    }

    /// <summary>A column of a value taken from each benchmark's name (ignored, see
    /// <see cref="IColumn"/>).</summary>
    public sealed class TagColumn : NamedColumn
    {
        public TagColumn(string columnName, Func<string, string> getTag) : base(columnName) { }
    }

    /// <summary>BenchmarkDotNet's default columns (ignored, see <see cref="IColumn"/>).</summary>
    public sealed class DefaultColumnProviders : IColumnProvider
    {
        readonly string _name;
        DefaultColumnProviders(string name) { _name = name; }
        public static readonly IColumnProvider Descriptor = new DefaultColumnProviders("Descriptor"), Job = new DefaultColumnProviders("Job"),
            Statistics = new DefaultColumnProviders("Statistics"), Params = new DefaultColumnProviders("Params"), Metrics = new DefaultColumnProviders("Metrics");
        public static readonly IColumnProvider[] Instance = { Descriptor, Job, Statistics, Params, Metrics };

        /// <summary>Its name.</summary>
        public override string ToString() { return _name + " columns"; }
    }
}

namespace Picollo.BenchmarkDotNet.Exporters
{
    /// <summary>An exporter (ignored: the runner writes results.json under --out, and
    /// --export FORMAT=PATH and --summary write the other formats).</summary>
    public interface IExporter
    {
        /// <summary>The exporter's name.</summary>
        string Name { get; }
    }

    /// <summary>An exporter by its name.</summary>
    public class NamedExporter : IExporter
    {
        internal NamedExporter(string name) { Name = name; }

        /// <summary>The exporter's name.</summary>
        public string Name { get; private set; }

        /// <summary>Its name.</summary>
        public override string ToString() { return Name; }
    }

    /// <summary>Markdown tables (ignored, see <see cref="IExporter"/>; --summary writes Picollo's).</summary>
    public sealed class MarkdownExporter : NamedExporter
    {
        MarkdownExporter(string name) : base(name) { }
        public static readonly IExporter Default = new MarkdownExporter("MarkdownExporter.Default"), Console = new MarkdownExporter("MarkdownExporter.Console"),
            GitHub = new MarkdownExporter("MarkdownExporter.GitHub"), StackOverflow = new MarkdownExporter("MarkdownExporter.StackOverflow"),
            Atlassian = new MarkdownExporter("MarkdownExporter.Atlassian");
    }

    /// <summary>HTML (ignored, see <see cref="IExporter"/>).</summary>
    public sealed class HtmlExporter : NamedExporter
    {
        HtmlExporter(string name) : base(name) { }
        public static readonly IExporter Default = new HtmlExporter("HtmlExporter");
    }

    /// <summary>Plain text (ignored, see <see cref="IExporter"/>).</summary>
    public sealed class PlainExporter : NamedExporter
    {
        PlainExporter(string name) : base(name) { }
        public static readonly IExporter Default = new PlainExporter("PlainExporter");
    }

    /// <summary>R plots (ignored, see <see cref="IExporter"/>).</summary>
    public sealed class RPlotExporter : NamedExporter
    {
        RPlotExporter(string name) : base(name) { }
        public static readonly IExporter Default = new RPlotExporter("RPlotExporter");
    }
}

namespace Picollo.BenchmarkDotNet.Exporters.Csv
{
    /// <summary>CSV (ignored, see <see cref="Picollo.BenchmarkDotNet.Exporters.IExporter"/>).</summary>
    public sealed class CsvExporter : Picollo.BenchmarkDotNet.Exporters.NamedExporter
    {
        CsvExporter(string name) : base(name) { }
        public static readonly Picollo.BenchmarkDotNet.Exporters.IExporter Default = new CsvExporter("CsvExporter");
    }

    /// <summary>Each measurement as CSV (ignored, see <see cref="Picollo.BenchmarkDotNet.Exporters.IExporter"/>).</summary>
    public sealed class CsvMeasurementsExporter : Picollo.BenchmarkDotNet.Exporters.NamedExporter
    {
        CsvMeasurementsExporter(string name) : base(name) { }
        public static readonly Picollo.BenchmarkDotNet.Exporters.IExporter Default = new CsvMeasurementsExporter("CsvMeasurementsExporter");
    }
}

namespace Picollo.BenchmarkDotNet.Exporters.Json
{
    /// <summary>JSON (ignored: results.json is always written, under --out).</summary>
    public sealed class JsonExporter : Picollo.BenchmarkDotNet.Exporters.NamedExporter
    {
        JsonExporter(string name) : base(name) { }
        public static readonly Picollo.BenchmarkDotNet.Exporters.IExporter Default = new JsonExporter("JsonExporter"),
            Brief = new JsonExporter("JsonExporter.Brief"), Full = new JsonExporter("JsonExporter.Full"),
            BriefCompressed = new JsonExporter("JsonExporter.BriefCompressed"), FullCompressed = new JsonExporter("JsonExporter.FullCompressed");

        /// <summary>A JSON exporter of these settings (ignored).</summary>
        public static Picollo.BenchmarkDotNet.Exporters.IExporter Custom(string fileNameSuffix = "", bool indentJson = false, bool excludeMeasurements = false)
        {
            return new JsonExporter("JsonExporter.Custom");
        }
    }
}

namespace Picollo.BenchmarkDotNet.Diagnosers
{
    /// <summary>A diagnoser (ignored: Picollo reads time and the CPU's counters, --counters,
    /// not allocations; it neither profiles nor disassembles).</summary>
    public interface IDiagnoser
    {
    }

    /// <summary>Allocations (ignored, see <see cref="IDiagnoser"/>).</summary>
    public sealed class MemoryDiagnoser : IDiagnoser
    {
        MemoryDiagnoser() { }
        public static readonly IDiagnoser Default = new MemoryDiagnoser();
        public override string ToString() { return "MemoryDiagnoser"; }
    }

    /// <summary>Threads' work items and locks (ignored, see <see cref="IDiagnoser"/>).</summary>
    public sealed class ThreadingDiagnoser : IDiagnoser
    {
        ThreadingDiagnoser() { }
        public static readonly IDiagnoser Default = new ThreadingDiagnoser();
        public override string ToString() { return "ThreadingDiagnoser"; }
    }

    /// <summary>Exceptions thrown (ignored, see <see cref="IDiagnoser"/>).</summary>
    public sealed class ExceptionDiagnoser : IDiagnoser
    {
        ExceptionDiagnoser() { }
        public static readonly IDiagnoser Default = new ExceptionDiagnoser();
        public override string ToString() { return "ExceptionDiagnoser"; }
    }
}

namespace Picollo.BenchmarkDotNet.Loggers
{
    /// <summary>A logger (ignored: Picollo prints to the standard output and error).</summary>
    public interface ILogger
    {
    }

    /// <summary>The console (ignored, see <see cref="ILogger"/>).</summary>
    public sealed class ConsoleLogger : ILogger
    {
        readonly string _name;
        ConsoleLogger(string name) { _name = name; }
        public static readonly ILogger Default = new ConsoleLogger("ConsoleLogger"), Ascii = new ConsoleLogger("ConsoleLogger.Ascii"),
            Unicode = new ConsoleLogger("ConsoleLogger.Unicode");
        public override string ToString() { return _name; }
    }

    /// <summary>Nowhere (ignored, see <see cref="ILogger"/>).</summary>
    public sealed class NullLogger : ILogger
    {
        NullLogger() { }
        public static readonly ILogger Instance = new NullLogger();
        public override string ToString() { return "NullLogger"; }
    }
}

namespace Picollo.BenchmarkDotNet.Analysers
{
    /// <summary>An analyser (ignored: the runner's report warns of its measurements' faults).</summary>
    public interface IAnalyser
    {
    }

    /// <summary>An analyser by its name.</summary>
    public sealed class NamedAnalyser : IAnalyser
    {
        readonly string _name;
        NamedAnalyser(string name) { _name = name; }
        internal static IAnalyser Of(string name) { return new NamedAnalyser(name); }
        public override string ToString() { return _name; }
    }

    public static class EnvironmentAnalyser { public static readonly IAnalyser Default = NamedAnalyser.Of("EnvironmentAnalyser"); }
    public static class OutliersAnalyser { public static readonly IAnalyser Default = NamedAnalyser.Of("OutliersAnalyser"); }
    public static class MinIterationTimeAnalyser { public static readonly IAnalyser Default = NamedAnalyser.Of("MinIterationTimeAnalyser"); }
    public static class ZeroMeasurementAnalyser { public static readonly IAnalyser Default = NamedAnalyser.Of("ZeroMeasurementAnalyser"); }
    public static class RuntimeErrorAnalyser { public static readonly IAnalyser Default = NamedAnalyser.Of("RuntimeErrorAnalyser"); }
}

namespace Picollo.BenchmarkDotNet.Validators
{
    /// <summary>A validator (ignored: the runner refuses a definition it cannot run, exit
    /// status 2, and fails a benchmark that throws, exit status 6).</summary>
    public interface IValidator
    {
    }

    /// <summary>A validator by its name.</summary>
    public sealed class NamedValidator : IValidator
    {
        readonly string _name;
        NamedValidator(string name) { _name = name; }
        internal static IValidator Of(string name) { return new NamedValidator(name); }
        public override string ToString() { return _name; }
    }

    public static class ExecutionValidator
    {
        public static readonly IValidator FailOnError = NamedValidator.Of("ExecutionValidator.FailOnError"), DontFailOnError = NamedValidator.Of("ExecutionValidator.DontFailOnError");
    }

    public static class JitOptimizationsValidator
    {
        public static readonly IValidator FailOnError = NamedValidator.Of("JitOptimizationsValidator.FailOnError"), DontFailOnError = NamedValidator.Of("JitOptimizationsValidator.DontFailOnError");
    }

    public static class ReturnValueValidator
    {
        public static readonly IValidator FailOnError = NamedValidator.Of("ReturnValueValidator.FailOnError"), DontFailOnError = NamedValidator.Of("ReturnValueValidator.DontFailOnError");
    }

    public static class BaselineValidator
    {
        public static readonly IValidator FailOnError = NamedValidator.Of("BaselineValidator.FailOnError");
    }
}

namespace Picollo.BenchmarkDotNet.Reports
{
    /// <summary>How BenchmarkDotNet formats its summary's table (ignored: Picollo's report
    /// has its own form). Its settings can be chained so that a config compiles.</summary>
    public sealed class SummaryStyle
    {
        SummaryStyle() { }

        /// <summary>The default style.</summary>
        public static readonly SummaryStyle Default = new SummaryStyle();

        public SummaryStyle WithRatioStyle(Picollo.BenchmarkDotNet.Columns.RatioStyle ratioStyle) { return this; }
        public SummaryStyle WithMaxParameterColumnWidth(int width) { return this; }
        public SummaryStyle WithCultureInfo(System.Globalization.CultureInfo cultureInfo) { return this; }

        /// <summary>Its name, as the run's note prints it.</summary>
        public override string ToString() { return "SummaryStyle"; }
    }
}
