// BenchmarkDotNet's job, diagnoser, column, exporter, logger, order and option attributes,
// accepted so that a class compiles unchanged, and ignored, each named in the run's note
// (Notes.cs): Picollo's runner decides how long a benchmark runs (--budget, --warmup,
// --rounds), measures in this process's runtime, reads time and the CPU's counters
// (--counters), and writes its own outputs (--out, --export, --summary).

using System;
using Picollo.BenchmarkDotNet.Configs;
using Picollo.BenchmarkDotNet.Diagnosers;
using Picollo.BenchmarkDotNet.Engines;
using Picollo.BenchmarkDotNet.Jobs;
using Picollo.BenchmarkDotNet.Order;

namespace Picollo.BenchmarkDotNet.Attributes
{
    /// <summary>An attribute of BenchmarkDotNet that Picollo reads past (see this file's
    /// header for why).</summary>
    [AttributeUsage(AttributeTargets.Class | AttributeTargets.Assembly | AttributeTargets.Method, AllowMultiple = true, Inherited = true)]
    public abstract class AcceptedAndIgnoredAttribute : Attribute
    {
    }

    /// <summary>Ignored: Picollo reads time and counters (--counters), not allocations.</summary>
    public sealed class MemoryDiagnoserAttribute : AcceptedAndIgnoredAttribute
    {
        public MemoryDiagnoserAttribute(bool displayGenColumns = true) { }
    }

    /// <summary>Ignored (see <see cref="MemoryDiagnoserAttribute"/>).</summary>
    public sealed class ThreadingDiagnoserAttribute : AcceptedAndIgnoredAttribute { }

    /// <summary>Ignored (see <see cref="MemoryDiagnoserAttribute"/>).</summary>
    public sealed class ExceptionDiagnoserAttribute : AcceptedAndIgnoredAttribute { }

    /// <summary>Ignored: Picollo does not disassemble.</summary>
    public sealed class DisassemblyDiagnoserAttribute : AcceptedAndIgnoredAttribute
    {
        public DisassemblyDiagnoserAttribute(int maxDepth = 1, bool printSource = false, bool printInstructionAddresses = false, bool exportGithubMarkdown = true, bool exportHtml = false, bool exportCombinedDisassemblyReport = false, bool exportDiff = false) { }
    }

    /// <summary>Ignored: the runner's --budget and --warmup say how long; the benchmarks
    /// run in this process's runtime (build twice and use --against to compare two).</summary>
    public sealed class SimpleJobAttribute : AcceptedAndIgnoredAttribute
    {
        public SimpleJobAttribute(int launchCount = -1, int warmupCount = -1, int iterationCount = -1, int invocationCount = -1, string id = null, bool baseline = false) { }
        public SimpleJobAttribute(RuntimeMoniker runtimeMoniker, int launchCount = -1, int warmupCount = -1, int iterationCount = -1, int invocationCount = -1, string id = null, bool baseline = false) { }
        public SimpleJobAttribute(RunStrategy runStrategy, int launchCount = -1, int warmupCount = -1, int iterationCount = -1, int invocationCount = -1, string id = null, bool baseline = false) { }
        public SimpleJobAttribute(RunStrategy runStrategy, RuntimeMoniker runtimeMoniker, int launchCount = -1, int warmupCount = -1, int iterationCount = -1, int invocationCount = -1, string id = null, bool baseline = false) { }
    }

    /// <summary>Ignored (see <see cref="SimpleJobAttribute"/>).</summary>
    public sealed class ShortRunJobAttribute : AcceptedAndIgnoredAttribute
    {
        public ShortRunJobAttribute() { }
        public ShortRunJobAttribute(RuntimeMoniker runtimeMoniker) { }
    }

    /// <summary>Ignored (see <see cref="SimpleJobAttribute"/>).</summary>
    public sealed class MediumRunJobAttribute : AcceptedAndIgnoredAttribute
    {
        public MediumRunJobAttribute() { }
        public MediumRunJobAttribute(RuntimeMoniker runtimeMoniker) { }
    }

    /// <summary>Ignored (see <see cref="SimpleJobAttribute"/>).</summary>
    public sealed class LongRunJobAttribute : AcceptedAndIgnoredAttribute
    {
        public LongRunJobAttribute() { }
        public LongRunJobAttribute(RuntimeMoniker runtimeMoniker) { }
    }

    /// <summary>Ignored: --test runs each benchmark once.</summary>
    public sealed class DryJobAttribute : AcceptedAndIgnoredAttribute
    {
        public DryJobAttribute() { }
        public DryJobAttribute(RuntimeMoniker runtimeMoniker) { }
    }

    /// <summary>Ignored: Picollo always runs a benchmark in the process of its build.</summary>
    public sealed class InProcessAttribute : AcceptedAndIgnoredAttribute
    {
        public InProcessAttribute(bool dontLogOutput = false) { }
    }

    /// <summary>Ignored (see <see cref="SimpleJobAttribute"/>).</summary>
    public sealed class WarmupCountAttribute : AcceptedAndIgnoredAttribute
    {
        public WarmupCountAttribute(int warmupCount) { }
    }

    /// <summary>Ignored (see <see cref="SimpleJobAttribute"/>).</summary>
    public sealed class IterationCountAttribute : AcceptedAndIgnoredAttribute
    {
        public IterationCountAttribute(int iterationCount) { }
    }

    /// <summary>Ignored: the runner sizes its batches.</summary>
    public sealed class InvocationCountAttribute : AcceptedAndIgnoredAttribute
    {
        public InvocationCountAttribute(int invocationCount, int unrollFactor = 1) { }
    }

    /// <summary>Ignored (see <see cref="SimpleJobAttribute"/>).</summary>
    public sealed class MinIterationCountAttribute : AcceptedAndIgnoredAttribute
    {
        public MinIterationCountAttribute(int minIterationCount) { }
    }

    /// <summary>Ignored (see <see cref="SimpleJobAttribute"/>).</summary>
    public sealed class MaxIterationCountAttribute : AcceptedAndIgnoredAttribute
    {
        public MaxIterationCountAttribute(int maxIterationCount) { }
    }

    /// <summary>Ignored: the runner's rounds already vary what a build's layout can: its
    /// processes and their order.</summary>
    public sealed class MemoryRandomizationAttribute : AcceptedAndIgnoredAttribute
    {
        public MemoryRandomizationAttribute(bool enable = true) { }
    }

    /// <summary>Ignored: Picollo's report has its own columns.</summary>
    public sealed class RankColumnAttribute : AcceptedAndIgnoredAttribute { }

    /// <summary>Ignored: Picollo's report has its own columns.</summary>
    public sealed class MinColumnAttribute : AcceptedAndIgnoredAttribute { }

    /// <summary>Ignored: Picollo's report has its own columns.</summary>
    public sealed class MaxColumnAttribute : AcceptedAndIgnoredAttribute { }

    /// <summary>Ignored: Picollo's report has its own columns.</summary>
    public sealed class MedianColumnAttribute : AcceptedAndIgnoredAttribute { }

    /// <summary>Ignored: Picollo's report has its own columns.</summary>
    public sealed class AllStatisticsColumnAttribute : AcceptedAndIgnoredAttribute { }

    /// <summary>Ignored: Picollo's report has its own columns.</summary>
    public sealed class CategoriesColumnAttribute : AcceptedAndIgnoredAttribute { }

    /// <summary>Ignored: Picollo's report has its own columns.</summary>
    public sealed class MeanColumnAttribute : AcceptedAndIgnoredAttribute { }

    /// <summary>Ignored: Picollo's report has its own columns.</summary>
    public sealed class StdDevColumnAttribute : AcceptedAndIgnoredAttribute { }

    /// <summary>Ignored: Picollo's report has its own columns.</summary>
    public sealed class StdErrorColumnAttribute : AcceptedAndIgnoredAttribute { }

    /// <summary>Ignored: Picollo's report has its own columns.</summary>
    public sealed class Q1ColumnAttribute : AcceptedAndIgnoredAttribute { }

    /// <summary>Ignored: Picollo's report has its own columns.</summary>
    public sealed class Q3ColumnAttribute : AcceptedAndIgnoredAttribute { }

    /// <summary>Ignored: Picollo's report has its own columns.</summary>
    public sealed class MValueColumnAttribute : AcceptedAndIgnoredAttribute { }

    /// <summary>Ignored: Picollo's report has its own columns.</summary>
    public sealed class KurtosisColumnAttribute : AcceptedAndIgnoredAttribute { }

    /// <summary>Ignored: Picollo's report has its own columns.</summary>
    public sealed class SkewnessColumnAttribute : AcceptedAndIgnoredAttribute { }

    /// <summary>Ignored: Picollo's report has its own columns.</summary>
    public sealed class OperationsPerSecondAttribute : AcceptedAndIgnoredAttribute { }

    /// <summary>Ignored: Picollo's report lists the benchmarks in the order they ran.</summary>
    public sealed class OrdererAttribute : AcceptedAndIgnoredAttribute
    {
        public OrdererAttribute(SummaryOrderPolicy summaryOrderPolicy = SummaryOrderPolicy.Default, MethodOrderPolicy methodOrderPolicy = MethodOrderPolicy.Declared, JobOrderPolicy jobOrderPolicy = JobOrderPolicy.Default) { }
    }

    /// <summary>Ignored: the runner's flags say how it runs (docs/suites.md).</summary>
    public sealed class KeepBenchmarkFilesAttribute : AcceptedAndIgnoredAttribute
    {
        public KeepBenchmarkFilesAttribute(bool value = true) { }
    }

    /// <summary>Ignored: the runner's flags say how it runs (docs/suites.md).</summary>
    public sealed class StopOnFirstErrorAttribute : AcceptedAndIgnoredAttribute
    {
        public StopOnFirstErrorAttribute(bool value = true) { }
    }

    /// <summary>Ignored: Picollo prints to the standard output and error.</summary>
    public sealed class UnicodeConsoleLoggerAttribute : AcceptedAndIgnoredAttribute { }

    /// <summary>Ignored: Picollo reads the CPU's counters it is asked for with --counters.</summary>
    public sealed class HardwareCountersAttribute : AcceptedAndIgnoredAttribute
    {
        public HardwareCountersAttribute(params HardwareCounter[] counters) { }
    }

    /// <summary>Ignored: Picollo's report has its own columns.</summary>
    public sealed class HideColumnsAttribute : AcceptedAndIgnoredAttribute
    {
        public HideColumnsAttribute(params string[] names) { }
    }

    /// <summary>Ignored: each benchmark is reported on its own line.</summary>
    public sealed class GroupBenchmarksByAttribute : AcceptedAndIgnoredAttribute
    {
        public GroupBenchmarksByAttribute(params BenchmarkLogicalGroupRule[] rules) { }
    }

    /// <summary>Ignored: the runner writes results.json under --out, and --export and
    /// --summary write the other formats.</summary>
    public class MarkdownExporterAttribute : AcceptedAndIgnoredAttribute
    {
        /// <summary>Ignored (see <see cref="MarkdownExporterAttribute"/>).</summary>
        public sealed class GitHub : AcceptedAndIgnoredAttribute { }

        /// <summary>Ignored (see <see cref="MarkdownExporterAttribute"/>).</summary>
        public sealed class StackOverflow : AcceptedAndIgnoredAttribute { }

        /// <summary>Ignored (see <see cref="MarkdownExporterAttribute"/>).</summary>
        public sealed class Atlassian : AcceptedAndIgnoredAttribute { }

        /// <summary>Ignored (see <see cref="MarkdownExporterAttribute"/>).</summary>
        public sealed class Default : AcceptedAndIgnoredAttribute { }
    }

    /// <summary>Ignored (see <see cref="MarkdownExporterAttribute"/>).</summary>
    public class JsonExporterAttribute : AcceptedAndIgnoredAttribute
    {
        public JsonExporterAttribute(string fileNameSuffix = "", bool indentJson = false, bool excludeMeasurements = false) { }

        /// <summary>Ignored (see <see cref="MarkdownExporterAttribute"/>).</summary>
        public sealed class Brief : AcceptedAndIgnoredAttribute { }

        /// <summary>Ignored (see <see cref="MarkdownExporterAttribute"/>).</summary>
        public sealed class Full : AcceptedAndIgnoredAttribute { }

        /// <summary>Ignored (see <see cref="MarkdownExporterAttribute"/>).</summary>
        public sealed class BriefCompressed : AcceptedAndIgnoredAttribute { }

        /// <summary>Ignored (see <see cref="MarkdownExporterAttribute"/>).</summary>
        public sealed class FullCompressed : AcceptedAndIgnoredAttribute { }
    }

    /// <summary>Ignored (see <see cref="MarkdownExporterAttribute"/>).</summary>
    public class XmlExporterAttribute : AcceptedAndIgnoredAttribute
    {
        public XmlExporterAttribute(string fileNameSuffix = "", bool indentXml = false, bool excludeMeasurements = false) { }

        /// <summary>Ignored (see <see cref="MarkdownExporterAttribute"/>).</summary>
        public sealed class Brief : AcceptedAndIgnoredAttribute { }

        /// <summary>Ignored (see <see cref="MarkdownExporterAttribute"/>).</summary>
        public sealed class Full : AcceptedAndIgnoredAttribute { }

        /// <summary>Ignored (see <see cref="MarkdownExporterAttribute"/>).</summary>
        public sealed class BriefCompressed : AcceptedAndIgnoredAttribute { }

        /// <summary>Ignored (see <see cref="MarkdownExporterAttribute"/>).</summary>
        public sealed class FullCompressed : AcceptedAndIgnoredAttribute { }
    }

    /// <summary>Ignored (see <see cref="MarkdownExporterAttribute"/>).</summary>
    public sealed class AsciiDocExporterAttribute : AcceptedAndIgnoredAttribute { }

    /// <summary>Ignored (see <see cref="MarkdownExporterAttribute"/>).</summary>
    public sealed class PlainExporterAttribute : AcceptedAndIgnoredAttribute { }

    /// <summary>Ignored (see <see cref="MarkdownExporterAttribute"/>).</summary>
    public sealed class CsvExporterAttribute : AcceptedAndIgnoredAttribute { }

    /// <summary>Ignored (see <see cref="MarkdownExporterAttribute"/>).</summary>
    public sealed class HtmlExporterAttribute : AcceptedAndIgnoredAttribute { }

    /// <summary>Ignored (see <see cref="MarkdownExporterAttribute"/>).</summary>
    public sealed class RPlotExporterAttribute : AcceptedAndIgnoredAttribute { }

    /// <summary>Ignored (see <see cref="MarkdownExporterAttribute"/>).</summary>
    public sealed class CsvMeasurementsExporterAttribute : AcceptedAndIgnoredAttribute { }
}

namespace Picollo.BenchmarkDotNet.Jobs
{
    /// <summary>The runtimes [SimpleJob] and its kin name; ignored (see
    /// Picollo.BenchmarkDotNet.Attributes.SimpleJobAttribute).</summary>
    public enum RuntimeMoniker
    {
        HostProcess, NotRecognized, Mono, Net461, Net462, Net47, Net471, Net472, Net48, Net481,
        NetCoreApp31, Net50, Net60, Net70, Net80, Net90, Net10_0, NativeAot60, NativeAot70, NativeAot80, NativeAot90,
    }
}

namespace Picollo.BenchmarkDotNet.Engines
{
    /// <summary>How BenchmarkDotNet runs a job; ignored (Picollo's runner decides).</summary>
    public enum RunStrategy { Throughput, ColdStart, Monitoring }
}

namespace Picollo.BenchmarkDotNet.Configs
{
    /// <summary>How BenchmarkDotNet groups a summary's rows; ignored.</summary>
    public enum BenchmarkLogicalGroupRule { ByMethod, ByJob, ByParams, ByCategory }
}

namespace Picollo.BenchmarkDotNet.Order
{
    /// <summary>How BenchmarkDotNet orders a summary's rows; ignored.</summary>
    public enum SummaryOrderPolicy { Default, FastestToSlowest, SlowestToFastest, Method, Declared }

    /// <summary>How BenchmarkDotNet orders the methods; ignored.</summary>
    public enum MethodOrderPolicy { Alphabetical, Declared }

    /// <summary>How BenchmarkDotNet orders the jobs; ignored.</summary>
    public enum JobOrderPolicy { Default, Ordinal, Numeric }
}

namespace Picollo.BenchmarkDotNet.Diagnosers
{
    /// <summary>A counter [HardwareCounters] names; ignored (--counters names Picollo's).</summary>
    public enum HardwareCounter
    {
        NotSet, Timer, TotalIssues, BranchInstructions, CacheMisses, BranchMispredictions, TotalCycles, UnhaltedCoreCycles,
        InstructionRetired, UnhaltedReferenceCycles, LlcReference, LlcMisses, BranchInstructionRetired, BranchMispredictsRetired,
    }
}
