// A suite written in BenchmarkDotNet's idioms, with only its `using` lines naming Picollo's
// namespaces (docs/bring-your-suite.md), which bdn.sh runs. Each benchmark counts its calls,
// which [GlobalCleanup] prints, so the test mode shows that each body ran once. Built with
// -define:BAD it holds the classes run one at a time (BDN_SAMPLE_CLASS names it): those the
// runner must refuse or fail, Spins (hooks that spin, left out of the time), and those of
// the config API: category filters, a config given to the entry point, generic classes and
// the Consumer.

using System;
using System.Collections.Generic;
using System.Linq;
using Picollo.BenchmarkDotNet.Attributes;
using Picollo.BenchmarkDotNet.Columns;
using Picollo.BenchmarkDotNet.Configs;
using Picollo.BenchmarkDotNet.Diagnosers;
using Picollo.BenchmarkDotNet.Engines;
using Picollo.BenchmarkDotNet.Exporters;
using Picollo.BenchmarkDotNet.Exporters.Json;
using Picollo.BenchmarkDotNet.Filters;
using Picollo.BenchmarkDotNet.Jobs;
using Picollo.BenchmarkDotNet.Loggers;
using Picollo.BenchmarkDotNet.Running;

namespace Samples
{
    public enum Shape { Square, Circle }

    // A config whose parts Picollo ignores, each named in the run's note.
    public class SumsConfig : ManualConfig
    {
        public SumsConfig()
        {
            AddJob(Job.ShortRun.WithWarmupCount(3), Job.Dry);
            AddColumn(StatisticColumn.P95, RankColumn.Arabic);
            AddExporter(MarkdownExporter.GitHub, JsonExporter.Full);
            AddDiagnoser(MemoryDiagnoser.Default);
            AddLogger(ConsoleLogger.Default);
            WithOptions(ConfigOptions.JoinSummary | ConfigOptions.StopOnFirstError);
        }
    }

    [MemoryDiagnoser, ShortRunJob, SimpleJob(RuntimeMoniker.Net80, warmupCount: 3), Config(typeof(SumsConfig))]
    [RankColumn, MarkdownExporterAttribute.GitHub, BenchmarkCategory("sums")]
    public class Sums
    {
        [Params(10, 100)]
        public int N;

        int[] values;
        int calls;

        [GlobalSetup]
        public void Setup() => values = Enumerable.Range(0, N).ToArray();

        [GlobalCleanup]
        public void Cleanup() => Console.WriteLine($"cleanup Sums N={N}: {calls} call(s)");

        [Benchmark(Baseline = true, Description = "the sum")]
        public long Sum()
        {
            calls++;
            long sum = 0;
            foreach (int v in values) sum += v;
            return sum;
        }

        [Benchmark(OperationsPerInvoke = 4), BenchmarkCategory("unrolled")]
        public long Unrolled()
        {
            calls++;
            long a = 0, b = 0, c = 0, d = 0;
            for (int i = 0; i + 3 < values.Length; i += 4) { a += values[i]; b += values[i + 1]; c += values[i + 2]; d += values[i + 3]; }
            return a + b + c + d;
        }
    }

    [MemoryDiagnoser]
    public class Strings
    {
        [ParamsSource(nameof(Lengths))]
        public int Length { get; set; }

        public static IEnumerable<int> Lengths() => new[] { 1, 8 };

        public IEnumerable<object[]> Pairs()
        {
            yield return new object[] { 1, 2 };
        }

        string padding;
        int calls, iterations;

        [GlobalSetup(Target = nameof(Repeat))]
        public void SetupRepeat() => padding = new string(' ', Length);

        [GlobalCleanup(Targets = new[] { nameof(Repeat), nameof(Add) })]
        public void Cleanup() => Console.WriteLine($"cleanup Strings Length={Length} padding={(padding == null ? "none" : padding.Length.ToString())}: {calls} call(s), {iterations} iteration(s)");

        [IterationSetup(Target = nameof(Add))]
        public void BeforeBatch() => iterations++;

        [IterationCleanup]
        public void AfterBatch() { }

        [Benchmark]
        [Arguments("a", 2)]
        [Arguments("bc", 3)]
        public string Repeat(string text, int times)
        {
            calls++;
            return string.Concat(Enumerable.Repeat(text + padding, times));
        }

        [Benchmark, ArgumentsSource(nameof(Pairs))]
        public int Add(int a, int b)
        {
            calls++;
            return a + b + Length;
        }
    }

    public class Shapes
    {
        [ParamsAllValues]
        public Shape Kind;

        static int calls;

        [GlobalCleanup]
        public void Cleanup() => Console.WriteLine($"cleanup Shapes Kind={Kind}: {calls} call(s) in all");

        [Benchmark]
        public static int Area() => ++calls;
    }

#if BAD
    public class Spins
    {
        static void Spin()
        {
            var t = System.Diagnostics.Stopwatch.StartNew();
            while (t.Elapsed.TotalMilliseconds < 1) { }
        }

        [IterationSetup(Target = nameof(Untimed))]
        public void Before() => Spin();

        [IterationCleanup(Target = nameof(Untimed))]
        public void After() => Spin();

        [Benchmark]
        public int Untimed() => 1;

        [Benchmark]
        public int Timed() { Spin(); return 1; }
    }

    // BenchmarkDotNet's IntroCategories: the class's filter keeps A1, A2 and B1.
    [BenchmarkCategory("Awesome"), AnyCategoriesFilter("A", "1")]
    public class Tagged
    {
        [Benchmark, BenchmarkCategory("A", "1")]
        public int A1() => 1;

        [Benchmark, BenchmarkCategory("A", "2")]
        public int A2() => 2;

        [Benchmark, BenchmarkCategory("B", "1")]
        public int B1() => 3;

        [Benchmark, BenchmarkCategory("B", "2")]
        public int B2() => 4;
    }

    // One closed class a [GenericTypeArguments], named as BenchmarkDotNet names it.
    [GenericTypeArguments(typeof(int))]
    [GenericTypeArguments(typeof(string))]
    public class Boxes<T>
    {
        [Benchmark]
        public T Make() => typeof(T) == typeof(string) ? (T)(object)"box" : default(T);
    }

    [GenericTypeArguments(typeof(int), typeof(int))]
    public class WrongArity<T>
    {
        [Benchmark]
        public int Work() => 1;
    }

    public class NotAConfig
    {
    }

    [Config(typeof(NotAConfig))]
    public class WrongConfig
    {
        [Benchmark]
        public int Work() => 1;
    }

    // The Consumer: a lazy sequence runs to its end (each item counted), values of each kind kept.
    public class Lazy
    {
        readonly Consumer consumer = new Consumer();
        int items;

        [Params(10)]
        public int N;

        [GlobalCleanup]
        public void Cleanup() => Console.WriteLine($"cleanup Lazy N={N}: {items} item(s) consumed");

        [Benchmark]
        public void Query() => Enumerable.Range(0, N).Select(i => { items++; return i * 2; }).Consume(consumer);

        [Benchmark]
        public void Values()
        {
            consumer.Consume(1L);
            consumer.Consume(2.5);
            consumer.Consume("text");
            consumer.Consume(DateTime.MinValue);
            consumer.Consume(new object());
        }
    }

    public class WrongParams
    {
        [Params("ten")]
        public int N;

        [Benchmark]
        public int Work() => N;
    }

    public class WrongCount
    {
        [Benchmark, Arguments(1, 2)]
        public int Work(int a) => a;
    }

    public class Throws
    {
        [Benchmark]
        public int Fine() => 1;

        [Benchmark]
        public int Broken() => throw new InvalidOperationException("the sum was wrong, as the test asked");
    }

    public class SetupThrows
    {
        [GlobalSetup]
        public void Setup() => throw new InvalidOperationException("the setup failed, as the test asked");

        [Benchmark]
        public int Work() => 1;
    }

    public class CleanupThrows
    {
        [GlobalCleanup]
        public void Cleanup() => throw new InvalidOperationException("the cleanup failed, as the test asked");

        [Benchmark]
        public int Work() => 1;
    }
#endif

    public static class Program
    {
        public static void Main(string[] args)
        {
            string only = Environment.GetEnvironmentVariable("BDN_SAMPLE_CLASS");
            if (only == "Sums")
                BenchmarkRunner.Run<Sums>(); // this process's arguments; sets Environment.ExitCode
#if BAD
            else if (only == "Configured") // the entry point's filter joins the class's: B1 alone
                BenchmarkRunner.Run<Tagged>(ManualConfig.Create(DefaultConfig.Instance).AddJob(Job.Dry)
                    .AddFilter(new AnyCategoriesFilter(new[] { "b" })).WithOptions(ConfigOptions.JoinSummary)
                    .WithArtifactsPath("configured"), args);
            else if (only == "Switched") // a fluent config on DefaultConfig.Instance, given to the switcher
                BenchmarkSwitcher.FromTypes(new[] { typeof(Tagged), typeof(Boxes<>) })
                    .Run(args, DefaultConfig.Instance.AddFilter(new DisjunctionFilter(new NameFilter(n => n.StartsWith("A")), new NameFilter(n => n == "Make")))
                        .AddExporter(JsonExporter.Brief));
#endif
            else if (only != null)
                Environment.Exit(BenchmarkRunner.Run(Type.GetType("Samples." + only), args: args).ExitCode);
            else
                BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
        }
    }
}
