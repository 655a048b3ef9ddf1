// BenchmarkDotNet's command line in the runner's terms. Its selections (--filter globs,
// --anyCategories, --allCategories) pick benchmarks here, passed on as one --regex of their
// exact names; --list flat and --list tree are printed here as BenchmarkDotNet prints them;
// the flags CI passes are mapped, ignored with a note, or refused naming the replacement.
// Every other argument (Picollo's own flags) goes to the runner as it is.

using System;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using System.Text.RegularExpressions;
using Picollo.Suites;

namespace Picollo.BenchmarkDotNet
{
    internal sealed class Arguments
    {
        /// <summary>The runner's arguments.</summary>
        public readonly List<string> Runner = new List<string>();

        /// <summary>"flat" or "tree" where BenchmarkDotNet's list was asked for, else null.</summary>
        public string List;

        /// <summary>The benchmarks selected (all, without a selection).</summary>
        public List<Definition> Selected;

        readonly List<string> _globs = new List<string>(), _any = new List<string>(), _all = new List<string>();
        string _artifacts;
        readonly List<string> _exporters = new List<string>();

        static readonly Dictionary<string, string> Ignored = new Dictionary<string, string>
        {
            { "--join", "the benchmarks of every class already run as one suite" },
            { "--memory", "Picollo reads time and the CPU's counters (--counters), not allocations" },
            { "-m", "Picollo reads time and the CPU's counters (--counters), not allocations" },
            { "--inProcess", "the benchmarks always run in this build's process" },
            { "-i", "the benchmarks always run in this build's process" },
            { "--allStats", "each result's report has its percentiles (--verbose prints it)" },
            { "--keepFiles", "Picollo generates no project to keep" },
        };

        static readonly Dictionary<string, string> Refused = new Dictionary<string, string>
        {
            { "--runtimes", "the benchmarks run in this process's runtime; build once a runtime and judge one build --against the other" },
            { "-r", "the benchmarks run in this process's runtime; build once a runtime and judge one build --against the other" },
            { "--iterationCount", "the runner sizes its samples; give --budget SECS or --rounds N" },
            { "--warmupCount", "the runner warms up by time; give --warmup SECS" },
            { "--launchCount", "give --processes N (with --against)" },
            { "--invocationCount", "the runner sizes its batches; give --budget SECS" },
            { "--iterationTime", "give --budget SECS" },
            { "--profiler", "Picollo does not profile; it reads the CPU's counters (--counters)" },
            { "-p", "Picollo does not profile; it reads the CPU's counters (--counters)" },
            { "--disasm", "Picollo does not disassemble" },
            { "-d", "Picollo does not disassemble" },
        };

        /// <summary><paramref name="args"/> read against <paramref name="cases"/>, with
        /// <paramref name="artifacts"/> (a config's artifacts path) the output folder where
        /// the command line names none; SuiteUsageException for a flag refused, or a flag
        /// without its value.</summary>
        public static Arguments Read(string[] args, List<Definition> cases, string artifacts = null)
        {
            var a = new Arguments();
            for (int i = 0; i < args.Length; i++) i = a.Take(args, i);
            if (a._artifacts == null && !a.Runner.Any(r => r == "--out" || r.StartsWith("--out=", StringComparison.Ordinal)))
                a._artifacts = artifacts;
            a.Finish(cases);
            return a;
        }

        /// <summary>Whether the runner is asked for its list (nothing runs).</summary>
        public bool Listing { get { return Runner.Contains("--list"); } }

        /// <summary>Reads the flag at <paramref name="i"/> (and its values); returns the
        /// index of the last argument read.</summary>
        int Take(string[] args, int i)
        {
            string flag = args[i], inline = null;
            int eq = flag.IndexOf('=');
            if (flag.StartsWith("--", StringComparison.Ordinal) && eq > 0) { inline = flag.Substring(eq + 1); flag = flag.Substring(0, eq); }
            switch (flag)
            {
                case "--filter": case "-f": return Values(args, i, inline, flag, _globs);
                case "--anyCategories": return Values(args, i, inline, flag, _any);
                case "--allCategories": return Values(args, i, inline, flag, _all);
                case "--exporters": case "-e": return Values(args, i, inline, flag, _exporters);
                case "--artifacts": case "-a":
                    var dir = new List<string>();
                    i = Values(args, i, inline, flag, dir);
                    _artifacts = dir.Last();
                    return i;
                case "--job": case "-j": return Job(args, i, inline, flag);
                case "--list": return ListFlag(args, i, inline);
            }
            string why;
            if (Ignored.TryGetValue(flag, out why)) { Console.Error.WriteLine("note: " + flag + " ignored: " + why); return i; }
            if (Refused.TryGetValue(flag, out why)) throw new SuiteUsageException(flag + ": not supported: " + why);
            Runner.Add(args[i]);
            return i;
        }

        /// <summary>The values after flag <paramref name="i"/> (up to the next flag) or its
        /// inline value, added to <paramref name="into"/>.</summary>
        static int Values(string[] args, int i, string inline, string flag, List<string> into)
        {
            if (inline != null) { into.Add(inline); return i; }
            int first = i + 1;
            while (i + 1 < args.Length && !args[i + 1].StartsWith("-", StringComparison.Ordinal)) into.Add(args[++i]);
            if (i < first) throw new SuiteUsageException(flag + " needs a value");
            return i;
        }

        int Job(string[] args, int i, string inline, string flag)
        {
            var job = new List<string>();
            i = Values(args, i, inline, flag, job);
            if (job.Last().Equals("dry", StringComparison.OrdinalIgnoreCase)) Runner.Add("--test");
            else Console.Error.WriteLine("note: " + flag + " " + job.Last() + " ignored: the runner's --budget SECS says how long a benchmark runs");
            return i;
        }

        int ListFlag(string[] args, int i, string inline)
        {
            string mode = inline ?? (i + 1 < args.Length && !args[i + 1].StartsWith("-", StringComparison.Ordinal) ? args[++i] : null);
            if (mode == null) Runner.Add("--list");
            else if (mode == "flat" || mode == "tree") List = mode;
            else throw new SuiteUsageException("--list " + mode + ": give --list flat, --list tree, or --list alone (Picollo's list)");
            return i;
        }

        void Finish(List<Definition> cases)
        {
            Exporters();
            if (_artifacts != null) { Runner.Add("--out"); Runner.Add(_artifacts); }
            var globs = _globs.Select(Glob).ToList();
            Selected = cases.Where(c => (globs.Count == 0 || globs.Any(g => g.IsMatch(c.FilterName) || g.IsMatch(c.FullName)))
                && (_any.Count == 0 || _any.Any(x => c.Categories.Contains(x, StringComparer.OrdinalIgnoreCase)))
                && _all.All(x => c.Categories.Contains(x, StringComparer.OrdinalIgnoreCase))).ToList();
            if (_globs.Count + _any.Count + _all.Count == 0) return;
            if (Runner.Any(r => r == "--regex" || r.StartsWith("--regex=", StringComparison.Ordinal)))
                throw new SuiteUsageException("--filter or a category with --regex: give one of them");
            Runner.Add("--regex");
            Runner.Add("^(?:" + string.Join("|", Selected.Select(c => Escaped(c.FullName))) + ")$");
        }

        /// <summary>json (results.json, always written under the output folder) is accepted;
        /// github and markdown become --summary; another is refused.</summary>
        void Exporters()
        {
            foreach (string e in _exporters.Select(x => x.ToLowerInvariant()))
            {
                if (e == "json" || e == "briefjson" || e == "fulljson") continue;
                if (e == "github" || e == "markdown")
                {
                    Runner.Add("--summary");
                    Runner.Add(System.IO.Path.Combine(_artifacts ?? ".picollo", "summary.md"));
                    continue;
                }
                throw new SuiteUsageException("--exporters " + e + ": not supported: results.json is always written (json), "
                    + "github and markdown write the Markdown summary; for another give --export FORMAT=PATH (bmf, github, gbench, picollo, junit)");
            }
        }

        /// <summary>BenchmarkDotNet's glob: * any text, ? one character, the whole name, any case.</summary>
        internal static Regex Glob(string pattern)
        {
            string re = "^" + Regex.Escape(pattern).Replace("\\*", ".*").Replace("\\?", ".") + "$";
            return new Regex(re, RegexOptions.IgnoreCase | RegexOptions.CultureInvariant);
        }

        /// <summary><paramref name="name"/> as a regular expression of the runner's syntax
        /// that matches it alone.</summary>
        static string Escaped(string name)
        {
            var re = new StringBuilder();
            foreach (char c in name)
            {
                if ("\\.+*?()|[]{}^$".IndexOf(c) >= 0) re.Append('\\');
                re.Append(c);
            }
            return re.ToString();
        }
    }
}
