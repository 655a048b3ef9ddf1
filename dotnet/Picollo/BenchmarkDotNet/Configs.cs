// BenchmarkDotNet's config API: ManualConfig and its fluent calls build a config that the
// entry points (BenchmarkRunner.Run<T>(config), BenchmarkSwitcher.Run(args, config)), a
// class's [Config(typeof(X))] and any IConfigSource attribute give. Its filters select
// benchmarks and its artifacts path is the runner's --out; the rest (jobs, columns,
// exporters, diagnosers, loggers, analysers, validators, options) is kept only to be named,
// once a kind, in the note the run prints (Notes.cs says what Picollo does instead).

using System;
using System.Collections.Generic;
using System.Linq;
using Picollo.BenchmarkDotNet.Analysers;
using Picollo.BenchmarkDotNet.Columns;
using Picollo.BenchmarkDotNet.Diagnosers;
using Picollo.BenchmarkDotNet.Exporters;
using Picollo.BenchmarkDotNet.Filters;
using Picollo.BenchmarkDotNet.Jobs;
using Picollo.BenchmarkDotNet.Loggers;
using Picollo.BenchmarkDotNet.Reports;
using Picollo.BenchmarkDotNet.Validators;

namespace Picollo.BenchmarkDotNet.Configs
{
    /// <summary>A BenchmarkDotNet config. Build one with <see cref="ManualConfig"/> (or
    /// the fluent calls of <see cref="ConfigExtensions"/> on <see cref="DefaultConfig.Instance"/>);
    /// another implementation is read as an empty config.</summary>
    public interface IConfig
    {
    }

    /// <summary>An attribute that gives its class (or assembly) a config, as
    /// <c>[Config(typeof(X))]</c> does.</summary>
    public interface IConfigSource
    {
        /// <summary>The config.</summary>
        IConfig Config { get; }
    }

    /// <summary>How a class's config joins the config given to the entry point.</summary>
    public enum ConfigUnionRule
    {
        /// <summary>Both: every filter of each must pass.</summary>
        Union,

        /// <summary>The class's alone.</summary>
        AlwaysUseLocal,

        /// <summary>The entry point's alone.</summary>
        AlwaysUseGlobal,
    }

    /// <summary>BenchmarkDotNet's options; ignored with a note (each has a flag of the
    /// runner, docs/suites.md).</summary>
    [Flags]
    public enum ConfigOptions
    {
        Default = 0,
        KeepBenchmarkFiles = 1 << 0,
        JoinSummary = 1 << 1,
        StopOnFirstError = 1 << 2,
        DisableOptimizationsValidator = 1 << 3,
        DontOverwriteResults = 1 << 4,
        DisableLogFile = 1 << 5,
        LogBuildOutput = 1 << 6,
        GenerateMSBuildBinLog = 1 << 7,
        ApplesToApples = 1 << 8,
        Resume = 1 << 9,
        DisableParallelBuild = 1 << 10,
    }

    /// <summary>The default config: no filter, nothing to note.</summary>
    public sealed class DefaultConfig : IConfig
    {
        /// <summary>The one instance.</summary>
        public static readonly IConfig Instance = new DefaultConfig();

        DefaultConfig() { }
    }

    /// <summary>A config built call by call; each call returns this config, so calls chain.</summary>
    public class ManualConfig : IConfig
    {
        internal readonly List<IFilter> Filters = new List<IFilter>();

        /// <summary>What the config holds that Picollo ignores: its kind and its name.</summary>
        internal readonly List<KeyValuePair<Part, string>> Ignored = new List<KeyValuePair<Part, string>>();

        /// <summary>How this config joins another (see <see cref="ConfigUnionRule"/>).</summary>
        public ConfigUnionRule UnionRule { get; set; }

        /// <summary>The folder of the outputs: the runner's <c>--out</c> (the command
        /// line's <c>--artifacts</c> or <c>--out</c> wins); null: the runner's default.</summary>
        public string ArtifactsPath { get; set; }

        /// <summary>How the summary's table looks (ignored, named in the run's note).</summary>
        public SummaryStyle SummaryStyle
        {
            get { return _summaryStyle; }
            set
            {
                _summaryStyle = value;
                Ignore(Part.Column, new[] { value });
            }
        }

        SummaryStyle _summaryStyle;

        /// <summary>Sets <see cref="SummaryStyle"/> (ignored, named in the note).</summary>
        public ManualConfig WithSummaryStyle(SummaryStyle summaryStyle)
        {
            SummaryStyle = summaryStyle;
            return this;
        }

        /// <summary>The culture of the summary's numbers (ignored: Picollo writes them in the
        /// invariant culture).</summary>
        public System.Globalization.CultureInfo CultureInfo { get; set; }

        /// <summary>The options set (ignored, named in the run's note).</summary>
        public ConfigOptions Options { get; private set; }

        /// <summary>An empty config.</summary>
        public static ManualConfig CreateEmpty() { return new ManualConfig(); }

        /// <summary>An empty config (Picollo needs no logger or column to run).</summary>
        public static ManualConfig CreateMinimumViable() { return new ManualConfig(); }

        /// <summary>A copy of <paramref name="config"/> to add to.</summary>
        public static ManualConfig Create(IConfig config) { return new ManualConfig().Add(config); }

        /// <summary><paramref name="localConfig"/> joined to <paramref name="globalConfig"/>
        /// as the local config's <see cref="UnionRule"/> says.</summary>
        public static ManualConfig Union(IConfig globalConfig, IConfig localConfig)
        {
            var local = localConfig as ManualConfig;
            ConfigUnionRule rule = local == null ? ConfigUnionRule.Union : local.UnionRule;
            if (rule == ConfigUnionRule.AlwaysUseLocal) return Create(localConfig);
            if (rule == ConfigUnionRule.AlwaysUseGlobal) return Create(globalConfig);
            return Create(globalConfig).Add(localConfig);
        }

        /// <summary>Adds everything <paramref name="config"/> holds.</summary>
        public ManualConfig Add(IConfig config)
        {
            var other = config as ManualConfig;
            if (other == null || other == this) return this;
            Filters.AddRange(other.Filters);
            Ignored.AddRange(other.Ignored);
            Options |= other.Options;
            if (other.ArtifactsPath != null) ArtifactsPath = other.ArtifactsPath;
            return this;
        }

        /// <summary>Adds filters: a benchmark runs where every filter's predicate holds.</summary>
        public ManualConfig AddFilter(params IFilter[] filters)
        {
            if (filters == null || filters.Any(f => f == null)) throw new ArgumentNullException("filters");
            Filters.AddRange(filters);
            return this;
        }

        /// <summary>Sets <see cref="ArtifactsPath"/>.</summary>
        public ManualConfig WithArtifactsPath(string artifactsPath)
        {
            ArtifactsPath = artifactsPath;
            return this;
        }

        /// <summary>Sets <see cref="UnionRule"/>.</summary>
        public ManualConfig WithUnionRule(ConfigUnionRule unionRule)
        {
            UnionRule = unionRule;
            return this;
        }

        /// <summary>Sets <paramref name="options"/> (ignored, named in the note).</summary>
        public ManualConfig WithOptions(ConfigOptions options)
        {
            Options |= options;
            return this;
        }

        /// <summary>Sets or clears <paramref name="option"/> (ignored, named in the note).</summary>
        public ManualConfig WithOption(ConfigOptions option, bool value)
        {
            Options = value ? Options | option : Options & ~option;
            return this;
        }

        /// <summary>Ignored: the runner decides how long and how often a benchmark runs.</summary>
        public ManualConfig AddJob(params Job[] jobs) { return Ignore(Part.Job, jobs); }

        /// <summary>Ignored: Picollo's report has its own figures.</summary>
        public ManualConfig AddColumn(params IColumn[] columns) { return Ignore(Part.Column, columns); }

        /// <summary>Ignored (see <see cref="AddColumn"/>).</summary>
        public ManualConfig AddColumnProvider(params IColumnProvider[] providers) { return Ignore(Part.Column, providers); }

        /// <summary>Ignored (see <see cref="AddColumn"/>).</summary>
        public ManualConfig HideColumns(params string[] columnNames) { return Ignore(Part.Column, columnNames); }

        /// <summary>Ignored (see <see cref="AddColumn"/>).</summary>
        public ManualConfig HideColumns(params IColumn[] columns) { return Ignore(Part.Column, columns); }

        /// <summary>Ignored: each benchmark has its own line in Picollo's report.</summary>
        public ManualConfig AddLogicalGroupRules(params BenchmarkLogicalGroupRule[] rules) { return Ignore(Part.Column, rules); }

        /// <summary>Ignored: Picollo's outputs are results.json, --export and --summary.</summary>
        public ManualConfig AddExporter(params IExporter[] exporters) { return Ignore(Part.Exporter, exporters); }

        /// <summary>Ignored: Picollo reads time and the CPU's counters.</summary>
        public ManualConfig AddDiagnoser(params IDiagnoser[] diagnosers) { return Ignore(Part.Diagnoser, diagnosers); }

        /// <summary>Ignored: Picollo prints to the standard output and error.</summary>
        public ManualConfig AddLogger(params ILogger[] loggers) { return Ignore(Part.Logger, loggers); }

        /// <summary>Ignored: the runner warns of its own measurements' faults.</summary>
        public ManualConfig AddAnalyser(params IAnalyser[] analysers) { return Ignore(Part.Analyser, analysers); }

        /// <summary>Ignored: the runner refuses what it cannot run.</summary>
        public ManualConfig AddValidator(params IValidator[] validators) { return Ignore(Part.Validator, validators); }

        ManualConfig Ignore<T>(Part part, T[] items)
        {
            if (items == null) throw new ArgumentNullException("items");
            foreach (T item in items) Ignored.Add(new KeyValuePair<Part, string>(part, item == null ? "null" : item.ToString()));
            return this;
        }
    }

    /// <summary>The fluent calls on any config (<c>DefaultConfig.Instance.AddJob(...)</c>):
    /// each returns a new <see cref="ManualConfig"/>, the config given and the addition.</summary>
    public static class ConfigExtensions
    {
        public static ManualConfig AddJob(this IConfig config, params Job[] jobs) { return ManualConfig.Create(config).AddJob(jobs); }
        public static ManualConfig AddColumn(this IConfig config, params IColumn[] columns) { return ManualConfig.Create(config).AddColumn(columns); }
        public static ManualConfig AddColumnProvider(this IConfig config, params IColumnProvider[] providers) { return ManualConfig.Create(config).AddColumnProvider(providers); }
        public static ManualConfig HideColumns(this IConfig config, params string[] columnNames) { return ManualConfig.Create(config).HideColumns(columnNames); }
        public static ManualConfig AddLogicalGroupRules(this IConfig config, params BenchmarkLogicalGroupRule[] rules) { return ManualConfig.Create(config).AddLogicalGroupRules(rules); }
        public static ManualConfig AddExporter(this IConfig config, params IExporter[] exporters) { return ManualConfig.Create(config).AddExporter(exporters); }
        public static ManualConfig AddDiagnoser(this IConfig config, params IDiagnoser[] diagnosers) { return ManualConfig.Create(config).AddDiagnoser(diagnosers); }
        public static ManualConfig AddLogger(this IConfig config, params ILogger[] loggers) { return ManualConfig.Create(config).AddLogger(loggers); }
        public static ManualConfig AddAnalyser(this IConfig config, params IAnalyser[] analysers) { return ManualConfig.Create(config).AddAnalyser(analysers); }
        public static ManualConfig AddValidator(this IConfig config, params IValidator[] validators) { return ManualConfig.Create(config).AddValidator(validators); }
        public static ManualConfig AddFilter(this IConfig config, params IFilter[] filters) { return ManualConfig.Create(config).AddFilter(filters); }
        public static ManualConfig WithOptions(this IConfig config, ConfigOptions options) { return ManualConfig.Create(config).WithOptions(options); }
        public static ManualConfig WithOption(this IConfig config, ConfigOptions option, bool value) { return ManualConfig.Create(config).WithOption(option, value); }
        public static ManualConfig WithArtifactsPath(this IConfig config, string artifactsPath) { return ManualConfig.Create(config).WithArtifactsPath(artifactsPath); }
        public static ManualConfig WithSummaryStyle(this IConfig config, SummaryStyle summaryStyle) { return ManualConfig.Create(config).WithSummaryStyle(summaryStyle); }
        public static ManualConfig WithUnionRule(this IConfig config, ConfigUnionRule unionRule) { return ManualConfig.Create(config).WithUnionRule(unionRule); }
        public static ManualConfig KeepBenchmarkFiles(this IConfig config, bool value = true) { return config.WithOption(ConfigOptions.KeepBenchmarkFiles, value); }
        public static ManualConfig StopOnFirstError(this IConfig config, bool value = true) { return config.WithOption(ConfigOptions.StopOnFirstError, value); }
        public static ManualConfig DontOverwriteResults(this IConfig config, bool value = true) { return config.WithOption(ConfigOptions.DontOverwriteResults, value); }
    }
}
