// What a BenchmarkDotNet suite asks for that Picollo ignores, named once a kind on the
// standard error before the run: the jobs, columns, exporters, diagnosers, loggers, analysers,
// validators and options of its configs and attributes, each with what Picollo does instead.

using System;
using System.Collections.Generic;
using System.Linq;
using Picollo.BenchmarkDotNet.Attributes;

namespace Picollo.BenchmarkDotNet
{
    /// <summary>A kind of thing a config holds that Picollo ignores.</summary>
    internal enum Part { Job, Column, Order, Exporter, Diagnoser, Logger, Analyser, Validator, Option }

    internal sealed class Notes
    {
        static readonly Dictionary<Part, string[]> Said = new Dictionary<Part, string[]>
        {
            { Part.Job, new[] { "jobs", "the runner decides how long and how often a benchmark runs (--budget, --warmup, --rounds, --processes), in this process's runtime" } },
            { Part.Column, new[] { "columns", "Picollo's report and results.json carry their own figures (--verbose prints the percentiles)" } },
            { Part.Order, new[] { "orderers", "Picollo's report lists the benchmarks in the order they ran" } },
            { Part.Exporter, new[] { "exporters", "results.json is always written under --out; --export FORMAT=PATH and --summary write the other formats" } },
            { Part.Diagnoser, new[] { "diagnosers", "Picollo reads time and the CPU's counters (--counters), not allocations" } },
            { Part.Logger, new[] { "loggers", "Picollo prints to the standard output and error" } },
            { Part.Analyser, new[] { "analysers", "the runner's report warns of its own measurements' faults" } },
            { Part.Validator, new[] { "validators", "the runner refuses a definition it cannot run (exit status 2) and fails a benchmark that throws (6)" } },
            { Part.Option, new[] { "options", "the runner's flags say how it runs (docs/suites.md)" } },
        };

        readonly List<KeyValuePair<Part, string>> _items = new List<KeyValuePair<Part, string>>();

        /// <summary>Adds what <paramref name="ignored"/> names.</summary>
        public void Add(IEnumerable<KeyValuePair<Part, string>> ignored) { _items.AddRange(ignored); }

        /// <summary>Adds the attribute <paramref name="a"/>, where Picollo ignores it.</summary>
        public void Add(Attribute a)
        {
            if (!(a is AcceptedAndIgnoredAttribute)) return;
            Type t = a.GetType();
            string name = (t.DeclaringType != null ? Bare(t.DeclaringType.Name) + "." : "") + Bare(t.Name);
            _items.Add(new KeyValuePair<Part, string>(KindOf(name), "[" + name + "]"));
        }

        /// <summary>One line a kind, in the kinds' order, naming each item once.</summary>
        public List<string> Lines()
        {
            return _items.GroupBy(i => i.Key).OrderBy(g => g.Key).Select(g =>
                "note: BenchmarkDotNet " + Said[g.Key][0] + " ignored (" + string.Join(", ", g.Select(i => i.Value).Distinct())
                + "): " + Said[g.Key][1]).ToList();
        }

        static string Bare(string name)
        {
            return name.EndsWith("Attribute", StringComparison.Ordinal) ? name.Substring(0, name.Length - "Attribute".Length) : name;
        }

        /// <summary>The kind of an ignored attribute, by its name (Ignored.cs lists them).</summary>
        static Part KindOf(string name)
        {
            if (name.Contains("Exporter")) return Part.Exporter;
            if (name.Contains("Diagnoser") || name == "HardwareCounters") return Part.Diagnoser;
            if (name.Contains("Logger")) return Part.Logger;
            if (name == "Orderer") return Part.Order;
            if (name == "KeepBenchmarkFiles" || name == "StopOnFirstError") return Part.Option;
            if (name.Contains("Column") || name == "GroupBenchmarksBy" || name == "OperationsPerSecond") return Part.Column;
            return Part.Job;
        }
    }
}
