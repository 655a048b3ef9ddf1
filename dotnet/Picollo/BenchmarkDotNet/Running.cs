// BenchmarkDotNet's entry points under Picollo's runner: `BenchmarkRunner.Run<T>()` and
// `BenchmarkSwitcher.FromAssembly(...).Run(args)` run the classes' benchmarks as one suite
// of the library's runner and return a Summary whose ExitCode is the runner's exit status,
// which they also set as Environment.ExitCode (so a `void Main` exits with it). The config
// given to them is joined with each class's (Setup.cs).

using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using Picollo.BenchmarkDotNet.Attributes;
using Picollo.BenchmarkDotNet.Configs;
using Picollo.BenchmarkDotNet.Reports;
using Picollo.Suites;
using ArgumentsAttribute = Picollo.BenchmarkDotNet.Attributes.ArgumentsAttribute;
using BenchmarkAttribute = Picollo.BenchmarkDotNet.Attributes.BenchmarkAttribute;

namespace Picollo.BenchmarkDotNet.Running
{
    /// <summary>Runs the benchmarks of one class (or several).</summary>
    public static class BenchmarkRunner
    {
        /// <summary>The benchmarks of <typeparamref name="T"/>, run as
        /// <paramref name="args"/> say (this process's arguments where null), those
        /// <paramref name="config"/>'s filters keep (with the class's own config).</summary>
        public static Summary Run<T>(IConfig config = null, string[] args = null)
        {
            return Run(typeof(T), config, args);
        }

        /// <summary>The benchmarks of <paramref name="type"/> (see <see cref="Run{T}"/>).</summary>
        public static Summary Run(Type type, IConfig config = null, string[] args = null)
        {
            if (type == null) throw new ArgumentNullException("type");
            return Suite.Run(new[] { type }, Names.BareName(type), args, config);
        }

        /// <summary>The benchmarks of <paramref name="types"/>, run as one suite (one
        /// summary, as BenchmarkDotNet's --join gives).</summary>
        public static Summary[] Run(Type[] types, IConfig config = null, string[] args = null)
        {
            if (types == null) throw new ArgumentNullException("types");
            return new[] { Suite.Run(types, Suite.EntryName(), args, config) };
        }
    }

    /// <summary>Runs the benchmark classes of assemblies, or of a list of types, as one
    /// suite. Without a --filter every benchmark runs (no interactive menu).</summary>
    public sealed class BenchmarkSwitcher
    {
        readonly Type[] _types;

        BenchmarkSwitcher(IEnumerable<Type> types) { _types = types.ToArray(); }

        /// <summary>The classes of <paramref name="assembly"/> with a [Benchmark] method.</summary>
        public static BenchmarkSwitcher FromAssembly(Assembly assembly)
        {
            return FromAssemblies(new[] { assembly });
        }

        /// <summary>The classes of <paramref name="assemblies"/> with a [Benchmark] method.</summary>
        public static BenchmarkSwitcher FromAssemblies(Assembly[] assemblies)
        {
            return new BenchmarkSwitcher(assemblies.SelectMany(a => a.GetTypes()).Where(IsBenchmarkClass).OrderBy(t => t.FullName, StringComparer.Ordinal));
        }

        /// <summary>The classes <paramref name="types"/>.</summary>
        public static BenchmarkSwitcher FromTypes(Type[] types)
        {
            return new BenchmarkSwitcher(types);
        }

        /// <summary>The benchmarks selected by <paramref name="args"/> (this process's
        /// arguments where null) of those <paramref name="config"/>'s filters keep.</summary>
        public IEnumerable<Summary> Run(string[] args = null, IConfig config = null)
        {
            return new[] { Suite.Run(_types, Suite.EntryName(), args, config) };
        }

        /// <summary>Every benchmark (with <paramref name="args"/>' other flags).</summary>
        public IEnumerable<Summary> RunAll(IConfig config = null, string[] args = null)
        {
            return Run(args, config);
        }

        /// <summary>Every benchmark, as one summary.</summary>
        public Summary RunAllJoined(IConfig config = null, string[] args = null)
        {
            return Suite.Run(_types, Suite.EntryName(), args, config);
        }

        static bool IsBenchmarkClass(Type t)
        {
            bool closable = !t.ContainsGenericParameters || (t.IsGenericTypeDefinition && t.IsDefined(typeof(GenericTypeArgumentsAttribute), false));
            return t.IsClass && !t.IsAbstract && closable
                && t.GetMethods(Cases.All).Any(m => m.IsDefined(typeof(BenchmarkAttribute), true));
        }
    }

    /// <summary>Discovery, the command line and the library's runner, for both entry points.</summary>
    internal static class Suite
    {
        public static string EntryName()
        {
            Assembly entry = Assembly.GetEntryAssembly();
            return entry != null ? entry.GetName().Name : "suite";
        }

        public static Summary Run(Type[] types, string name, string[] args, IConfig config)
        {
            int status = Status(types, name, args ?? Environment.GetCommandLineArgs().Skip(1).ToArray(), config);
            Environment.ExitCode = status;
            return new Summary(name, status);
        }

        static int Status(Type[] types, string name, string[] args, IConfig config)
        {
            Setup setup;
            Arguments parsed;
            try
            {
                setup = Setup.Of(Cases.Of(types), config);
                parsed = Arguments.Read(args, setup.Cases, setup.ArtifactsPath);
            }
            catch (SuiteUsageException e)
            {
                Console.Error.WriteLine("error: " + e.Message);
                return SuiteRunner.UsageStatus;
            }
            if (parsed.Selected.Count == 0)
            {
                Console.Error.WriteLine("error: no benchmark matches the filter (--list flat lists them)");
                return NoMatchStatus;
            }
            if (parsed.List != null) return CaseList.Print(parsed.List, parsed.Selected);
            if (!parsed.Listing && !args.Contains("--picollo-worker")) setup.Notes.Lines().ForEach(Console.Error.WriteLine);
            var invoker = new Invoker();
            var found = setup.Cases.Select(c => new Discovered
            {
                Name = c.FullName,
                Work = invoker.WorkOf(c),
                Method = c.Method, // a worker compiles it, and the loop, at a drawn place
                Loop = invoker.WorkOf(c).Method,
                Unit = c.OperationsPerInvoke > 1 ? "elements" : null,
                PerOperation = (ulong)Math.Max(c.OperationsPerInvoke, 1),
            }).ToList();
            Assembly assembly = types.Length > 0 ? types[0].Assembly : Assembly.GetEntryAssembly();
            int status = SuiteRunner.Run(name, assembly, found, parsed.Runner, null);
            return Finished(invoker, status);
        }

        /// <summary>The last benchmark's [GlobalCleanup] run; a cleanup that threw fails a
        /// run that had not failed otherwise (exit status 6).</summary>
        static int Finished(Invoker invoker, int status)
        {
            invoker.Finish();
            return status == 0 && invoker.CleanupFailure != null ? BenchmarkFailedStatus : status;
        }

        /// <summary>The runner's exit statuses (docs/suites.md): no benchmark matched, a
        /// benchmark failed.</summary>
        const int NoMatchStatus = 5, BenchmarkFailedStatus = 6;
    }
}

namespace Picollo.BenchmarkDotNet.Reports
{
    /// <summary>What a run gives back: its exit status (docs/suites.md lists them).</summary>
    public sealed class Summary
    {
        internal Summary(string title, int exitCode)
        {
            Title = title;
            ExitCode = exitCode;
        }

        /// <summary>The suite's name.</summary>
        public string Title { get; private set; }

        /// <summary>The runner's exit status: 0 when every benchmark ran (and none compared
        /// slower); <c>return summary.ExitCode;</c> from Main.</summary>
        public int ExitCode { get; private set; }

        /// <summary>Whether the suite could not run as written or its flags were refused
        /// (exit status 2).</summary>
        public bool HasCriticalValidationErrors { get { return ExitCode == SuiteRunner.UsageStatus; } }
    }
}
